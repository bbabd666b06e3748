"""`exchange show LOCATION [TAG] [ENTRY_ID]` (issue #18 item 1): the tags, newest first, labelled not yet
checked; a release checked first, then each entry's card; one entry's whole card and README; a release
that fails its check shown only as its refusals. On the demonstration catalog released twice."""

from __future__ import annotations

import json

import pytest

from judgment_exchange.browse.card import first_paragraph
from judgment_exchange.cli import main as exchange
from judgment_exchange.textsafe import escaped

from .releases import ADDED_PARAGRAPH, CHANGED, git_identity, released_twice, rows, show

LOCATION_ARGS = ("--no-history",)


@pytest.fixture(autouse=True)
def _identity(monkeypatch):
    git_identity(monkeypatch)


@pytest.fixture(scope="module")
def catalog(tmp_path_factory):
    root = tmp_path_factory.mktemp("show") / "catalog"
    with pytest.MonkeyPatch.context() as environ:
        git_identity(environ)
        released_twice(root)
    return root


def _run(capsys, *argv):
    code = exchange(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_without_a_tag_the_releases_are_listed_newest_first_not_checked(catalog, capsys):
    code, out, _ = _run(capsys, "show", str(catalog))
    assert code == 0
    lines = out.splitlines()
    assert "not yet checked" in lines[0]
    assert [line.split()[0] for line in lines[1:]] == ["v0.2.0", "v0.1.0"]
    assert all(f"{len(rows(catalog, tag))} entries" in line
               for tag, line in zip(("v0.2.0", "v0.1.0"), lines[1:], strict=True))
    ledger = json.loads(show(catalog, "main", "releases.json"))
    assert all(row["date"] in out for row in ledger)
    code, out, _ = _run(capsys, "show", str(catalog), "--format", "json")
    listed = json.loads(out)
    assert [(r["tag"], r["checked"], r["inLedger"]) for r in listed["releases"]] == [
        ("v0.2.0", False, True), ("v0.1.0", False, True)]
    assert [r["entries"] for r in listed["releases"]] == [len(rows(catalog, "v0.2.0")), len(rows(catalog, "v0.1.0"))]


def test_a_release_shows_every_entrys_card_after_its_check(catalog, capsys):
    code, out, _ = _run(capsys, "show", str(catalog), "v0.2.0", *LOCATION_ARGS)
    assert code == 0
    assert "checked: pass" in out
    manifest = rows(catalog, "v0.2.0")
    for row in manifest:
        entry = json.loads(show(catalog, "v0.2.0", f"{row['path']}/entry.json"))
        assert f"{row['id']}  ({entry['kind']} {entry['direction']})" in out
        assert entry["title"][:40] in out
    assert all(_fits(line) for line in out.splitlines()), [line for line in out.splitlines() if not _fits(line)]


def test_the_json_cards_are_the_entries_as_they_give_them(catalog, capsys):
    code, out, _ = _run(capsys, "show", str(catalog), "v0.2.0", "--format", "json", *LOCATION_ARGS)
    assert code == 0
    shown = json.loads(out)
    manifest = rows(catalog, "v0.2.0")
    assert [c["id"] for c in shown["entries"]] == [r["id"] for r in manifest]
    for card, row in zip(shown["entries"], manifest, strict=True):
        entry = json.loads(show(catalog, "v0.2.0", f"{row['path']}/entry.json"))
        assert (card["kind"], card["direction"], card["title"], card["licence"], card["author"]) == (
            entry["kind"], entry["direction"], entry["title"], entry["licence"], entry["author"])
        assert card["sourceKinds"] == entry["sourceKinds"] and card["assertion"] == entry["assertion"]
        assert card["digests"]["entryDigest"] == row["entryDigest"]
        assert [f["name"] for f in card["fixtures"]] == [f["name"] for f in entry.get("fixtures", [])]
        if "pack" in entry:
            assert card["pack"]["id"] == entry["pack"]["id"]
    http = next(c for c in shown["entries"] if c["id"] == "kinds.intake-http-source")
    [fixture] = http["fixtures"]
    assert fixture["result"] == "skipped" and fixture["skip"]["acknowledged"] is True
    replayed = [f for c in shown["entries"] for f in c["fixtures"] if f["result"] == "reading"]
    assert len(replayed) == shown["check"]["replayed"] == 10


def test_one_entry_shows_its_whole_card_and_readme(catalog, capsys):
    code, out, _ = _run(capsys, "show", str(catalog), "v0.2.0", "gateway.fx-exposure", *LOCATION_ARGS)
    assert code == 0
    readme = show(catalog, "v0.2.0", CHANGED).decode()
    assert " ".join(readme.split()) in " ".join(out.split())  # every word, in order, wrapped at 80 columns
    assert ADDED_PARAGRAPH in " ".join(out.split()) and "assertion" in out and "digests" in out
    assert all(_fits(line) for line in out.splitlines()), [line for line in out.splitlines() if not _fits(line)]
    code, out, _ = _run(capsys, "show", str(catalog), "v0.2.0", "gateway.fx-exposure", "--format", "json",
                        *LOCATION_ARGS)
    [card] = json.loads(out)["entries"]
    assert card["readme"]["text"] == readme


def test_the_older_release_shows_its_own_readme(catalog, capsys):
    code, out, _ = _run(capsys, "show", str(catalog), "v0.1.0", "gateway.fx-exposure", *LOCATION_ARGS)
    assert code == 0 and ADDED_PARAGRAPH not in out


def test_a_release_that_fails_its_check_is_shown_only_as_its_refusals(catalog, capsys, tmp_path):
    import shutil
    import subprocess

    broken = tmp_path / "broken"
    shutil.copytree(catalog, broken)
    entry = broken / "entries/gateway/fx-exposure/entry.json"
    value = json.loads(entry.read_bytes())
    value["title"] = "A title changed without its manifest row"
    entry.write_text(json.dumps(value, indent=2) + "\n")
    subprocess.run(["git", "commit", "-qam", "unpinned change"], cwd=broken, check=True)
    subprocess.run(["git", "tag", "v0.3.0"], cwd=broken, check=True)
    code, out, _ = _run(capsys, "show", str(broken), "v0.3.0", *LOCATION_ARGS)
    assert code == 1
    assert "nothing of it is shown" in out and "refused manifest-digest-mismatch" in out
    assert "A title changed" not in out and "README" not in out
    code, out, _ = _run(capsys, "show", str(broken), "v0.3.0", "--format", "json", *LOCATION_ARGS)
    shown = json.loads(out)
    assert shown["entries"] is None and shown["result"] == "fail"


@pytest.mark.parametrize("argv, status, words", [
    (["v0.9.0"], 1, "release-tag-invalid"),
    (["v0.2.0", "gateway.nothing"], 1, "entry-unknown"),
    (["0.2"], 3, "not a release tag"),
    (["v0.2.0", "Not An Id"], 3, "not an entry id"),
    (["v0.2.0", "--history", "0"], 3, "maxHistoryReleases"),
])
def test_wrong_arguments_are_named(catalog, capsys, argv, status, words):
    code, out, err = _run(capsys, "show", str(catalog), *argv)
    assert code == status and words in out + err


def test_an_unreadable_location_is_exit_4(tmp_path, capsys):
    code, out, err = _run(capsys, "show", str(tmp_path / "nowhere"), "v0.1.0")
    assert code == 4 and "no such directory" in err


def test_free_text_escapes_control_and_bidirectional_characters():
    assert escaped("a\u202eb\u200bc\x1bd\ne\tf") == "a\\u202eb\\u200bc\\x1bd\ne    f"


def test_the_first_paragraph_skips_headings_and_is_cut_long():
    assert first_paragraph("# Title\n\nOne\ntwo.\n\nThree.") == ("One two.", False)
    text, cut = first_paragraph("# T\n\n" + "x" * 700)
    assert cut and len(text) == 601 and text.endswith("…")


def test_a_lock_that_is_not_there_is_said_and_nothing_is_written(catalog, capsys, tmp_path):
    """show never writes a lock (release-check does): a --lock naming no file is exit 4, not a silent
    unlocked check."""
    missing = tmp_path / "no.lock"
    code, out, err = _run(capsys, "show", str(catalog), "v0.2.0", "--lock", str(missing), *LOCATION_ARGS)
    assert code == 4 and "no such lock" in err and not missing.exists()


def _fits(line: str) -> bool:
    """A line within 80 columns, or (issue #26 item 6) one holding a word no line may cut — a digest or a URL —
    alone or after its one-word label, so a copy from the terminal holds it whole."""
    import re

    words = line.split()
    return len(line) <= 80 or (re.fullmatch(r"sha256:[0-9a-f]{64}|https?://\S+", words[-1]) is not None
                               and len(line) - len(words[-1]) <= 24)


def test_digests_and_urls_are_never_cut_across_lines(catalog, capsys):
    """Issue #26 item 6: `exchange show` cut digests and URLs across lines, so a copy broke them."""
    import re

    code, out, _ = _run(capsys, "show", str(catalog), "v0.2.0", "kinds.intake-http-source", *LOCATION_ARGS)
    assert code == 0
    digests = re.findall(r"sha256:[0-9a-f]*", out)
    assert digests and all(len(d) == 71 for d in digests), digests
    assert "https://example.invalid/judgment-packs/data-request-intake-triage" in out


def test_a_readme_is_reflowed_as_paragraphs_not_wrapped_line_by_line():
    """Issue #26 item 6: a README hard-wrapped at 50 columns was wrapped line by line into ragged text; its
    paragraphs are reflowed, while code blocks and tables are kept as written."""
    from judgment_exchange.browse.text import readme_lines

    prose = ("This dialect reads a vendor's record from the\nregistry and derives the intake facts from\n"
             "it, with the evidence each fact cites.\n")
    text = f"# Title\n\n{prose}\n```\nkeep   this   line\n```\n\n| a | b |\n|---|---|\n"
    lines = readme_lines(text, str)
    assert lines[:3] == ["    # Title", "",
                         "    This dialect reads a vendor's record from the registry and derives the"]
    assert "    keep   this   line" in lines and "    | a | b |" in lines

