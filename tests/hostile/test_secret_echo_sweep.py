"""Issue #11 item 3: no refusal echoes a secret an entry's author planted (docs/reports.md, "What a
refusal may quote").

A GitHub token (`ghp_` and 36 letters and digits) and an AWS-like key (`AKIA` and 16) are planted in
every place a refusal could quote: the sweep takes every case of tests/cases/catalog and plants the
tokens into every string value, every member name and every path its mutations write, and a list of
targeted attacks plants them where no case reaches (entry and fixture directory names, unexpected file
names, duplicated and unknown member names, the manifest's rows, dialect names). The gate runs with
replay and scans, and its report is printed as text, as JSON and as GitHub annotations with the step
summary: neither token appears in any of them. Each run's codes are collected; `test_sweep_reaches`
holds the sweep to reaching the codes the issue names.

Issue #16 item 4 adds tokens that FIT a grammar: a Slack token in lower case (a fixture name, an entry's
name) and a Mailchimp key (32 lowercase hex and `-us12`). The sweep plants the Slack token into every
case's strings, member names and paths too, and targeted plants put both where the grammar lets them
through (an unlisted or listed fixture directory, an entry's name, a fixture's file, skips.json, the
fixture name entry.json lists); `exchange check` itself then prints text, JSON and `--format github`
with the step summary file, and none holds either token, in lower or upper case.
"""

from __future__ import annotations

import contextlib
import copy
import hashlib
import io
import json
import re
from pathlib import Path
from string import punctuation

import pytest

from judgment_exchange import cli
from judgment_exchange.annotations import summary, workflow_commands
from judgment_exchange.gate.pipeline import GateOptions, check_catalog
from judgment_exchange.tree import WorkingTree

from ..support.cases import build, load_cases
from ..support.catalog import CatalogBuilder, pretty, sha, stdlib_canon

GITHUB = "ghp_" + "R8kq2VzX7wLm4Tn9Bc3Hd6Jf1Gs5Pa0Ye8Uo"
AWS = "AKIA" + "Q3ZT7XN2LW8VB4MK"
SLACK = "xoxb-079490435345-2754796078815-lzfpqiifpyg64tpsqql1kqon"
"""A Slack token in lower case: a fixture name and an entry name of §3's grammar (issue #16 item 4)."""
MAILCHIMP = hashlib.md5(b"judgment-exchange sweep").hexdigest() + "-us12"
"""A Mailchimp key's shape (32 lowercase hex, `-us12`): a fixture name and an entry name of the grammar."""
FITTING = {"slack": SLACK, "mailchimp": MAILCHIMP}
FITTING_NEEDLES = tuple(form for token in (SLACK, MAILCHIMP, SLACK.rsplit("-", 1)[1], MAILCHIMP[:32])
                        for form in (token, token.upper()))
NEEDLES = (GITHUB[4:], AWS) + FITTING_NEEDLES
"""What must never appear: the token's 36 characters after `ghp_` (the step summary escapes `_`), the key,
and the grammar-fitting tokens whole and by their longest runs without punctuation (the step summary
escapes `-`), each in lower and in upper case."""

OPTIONS = GateOptions(history=False)
CASES = load_cases("catalog")
REACHED: set[str] = set()


def outputs(report, root: Path) -> str:
    """The report as `exchange check` prints it in each format: text, JSON, annotations and summary, and the
    Markdown review (issue #27)."""
    text = io.StringIO()
    with contextlib.redirect_stdout(text):
        cli._print_text(report, str(root))
    tree = WorkingTree(str(root))

    def read(path: str) -> bytes | None:
        try:
            return tree.read(path, 16 * 1024 * 1024)
        except Exception:
            return None

    from judgment_exchange.review.check import render, review_of

    return "\n".join([text.getvalue(), json.dumps(report.as_json(), ensure_ascii=True),
                      json.dumps(report.as_json(), ensure_ascii=False), *workflow_commands(report, read),
                      summary(report, read), render(review_of(report, tree, str(root)))])


_ESCAPED = re.compile("\\\\([" + re.escape(punctuation) + "])")


def assert_not_in(printed: str, label: str) -> None:
    """No needle in `printed`, nor in it with the step summary's Markdown escapes undone."""
    plain = _ESCAPED.sub(r"\1", printed)
    for needle in NEEDLES:
        echoed = [line for line in (printed + "\n" + plain).splitlines() if needle in line]
        assert not echoed, f"{label}: the planted token is echoed\n" + "\n".join(line[:400] for line in echoed[:3])


def assert_no_echo(root: Path, label: str) -> set[str]:
    report = check_catalog(WorkingTree(str(root)), OPTIONS)
    printed = outputs(report, root)
    assert_not_in(printed, label)
    codes = {r.code for r in report.refusals}
    REACHED.update(codes)
    return codes


# --- planting into the catalog cases -------------------------------------------------------------


def _plant_value(value, token: str, keys: bool):
    """Every string of `value` with the token added, and (when `keys`) every member name too."""
    if isinstance(value, str):
        return value + token
    if isinstance(value, list):
        return [_plant_value(v, token, keys) for v in value]
    if isinstance(value, dict):
        return {(k + token if keys else k): _plant_value(v, token, keys) for k, v in value.items()}
    return value


def _plant_path(path: str, token: str) -> str:
    head, _, last = path.rpartition("/")
    stem, dot, ext = last.partition(".")
    return f"{head + '/' if head else ''}{stem}{token}{dot}{ext}"


def variants(case: dict) -> list[tuple[str, dict]]:
    """The case with the tokens planted into its mutations three ways: added to every string, replacing
    every string, and added to every member name and every path a mutation creates."""
    out = []
    for label, token, keys, replace in (("strings", GITHUB, False, False), ("whole", AWS, False, True),
                                        ("names", GITHUB, True, False), ("fitting-names", SLACK, True, False)):
        planted = copy.deepcopy(case)
        changed = False
        for m in planted.get("mutations", []) + planted.get("after_manifest", []):
            if "value" in m:
                if replace and isinstance(m["value"], str):
                    m["value"] = token
                else:
                    m["value"] = _plant_value(m["value"], token, keys)
                changed = True
            if "text" in m:
                m["text"] = m["text"] + token if not replace else token
                changed = True
            if keys and m["op"] in ("write", "mkdir") and "file" in m:
                m["file"] = _plant_path(m["file"], token)
                changed = True
            if keys and m["op"] == "rename":
                m["to"] = _plant_path(m["to"], token)
                changed = True
            if keys and m["op"] == "set" and m["pointer"].rsplit("/", 1)[-1] not in ("", "-") \
                    and not m["pointer"].rsplit("/", 1)[-1].isdigit():
                m["pointer"] = m["pointer"] + token  # the same value under an unknown member's name
                changed = True
        if changed:
            out.append((label, planted))
    return out


@pytest.mark.parametrize("name,case", CASES, ids=[n for n, _ in CASES])
def test_case_with_planted_tokens_echoes_none(tmp_path, name, case):
    """Every catalog case, its mutations carrying the tokens: no output of the gate repeats them. Every planted
    variant must build: one that does not is a failure naming it, never a plant skipped in silence (issue #37
    item 6; no test's order guards it)."""
    for label, planted in variants(case):
        root = tmp_path / label / "catalog"
        try:
            build(root, planted)
        except (KeyError, IndexError, TypeError, FileNotFoundError, NotADirectoryError, ValueError) as error:
            pytest.fail(f"{name} ({label}): the planted case did not build, so nothing was swept: "
                        f"{type(error).__name__}: {error}")
        assert_no_echo(root, f"{name} ({label})")


# --- targeted plants -----------------------------------------------------------------------------


def _edit_json(path: Path, edit) -> None:
    value = json.loads(path.read_bytes())
    edit(value)
    path.write_bytes(pretty(value))


def _set_dialect(entry: Path, edit) -> None:
    doc = json.loads((entry / "dialect.json").read_bytes())
    edit(doc)
    (entry / "dialect.json").write_bytes(pretty(doc))
    _edit_json(entry / "entry.json", lambda e: e["dialect"].__setitem__("digest", sha(stdlib_canon(doc))))


def _runner(root: Path) -> tuple[CatalogBuilder, Path]:
    builder = CatalogBuilder(root)
    return builder, builder.add_runner_entry()


def _entry_dir_named(root: Path, publisher: str, name: str) -> None:
    builder, entry = _runner(root)
    target = root / "entries" / publisher / name
    target.parent.mkdir(parents=True, exist_ok=True)
    entry.rename(target)
    builder.write_manifest() if publisher == "acme" else None


def _fixture_dir(root: Path) -> None:
    builder, entry = _runner(root)
    (entry / "fixtures" / "vendor-7").rename(entry / "fixtures" / GITHUB)
    _edit_json(entry / "entry.json", lambda e: e["fixtures"][0].update(name=GITHUB, path=f"fixtures/{GITHUB}"))
    builder.write_manifest()


def _stray(relative: str):
    def plant(root: Path) -> None:
        builder, entry = _runner(root)
        target = (root if relative.startswith("/") else entry) / relative.lstrip("/")
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text("{}\n")
        builder.write_manifest()
    return plant


def _raw_entry(text: str):
    """entry.json with raw text inserted after its opening brace (a member given twice, say)."""
    def plant(root: Path) -> None:
        builder, entry = _runner(root)
        data = (entry / "entry.json").read_text()
        (entry / "entry.json").write_text("{" + text + data.lstrip()[1:])
        builder.write_manifest()
    return plant


def _entry_member(pointer: str, value):
    def plant(root: Path) -> None:
        builder, entry = _runner(root)

        def edit(doc):
            *parents, last = pointer.strip("/").split("/")
            target = doc
            for part in parents:
                target = target[int(part)] if isinstance(target, list) else target.setdefault(part, {})
            target[last] = value
        _edit_json(entry / "entry.json", edit)
        builder.write_manifest()
    return plant


def _dialect(edit):
    def plant(root: Path) -> None:
        builder, entry = _runner(root)
        _set_dialect(entry, edit)
        builder.write_manifest()
    return plant


def _named(edit):
    def plant(root: Path) -> None:
        builder = CatalogBuilder(root)
        entry = builder.add_named_entry()
        edit(entry)
        builder.write_manifest()
    return plant


def _manifest(edit):
    def plant(root: Path) -> None:
        builder, _ = _runner(root)
        builder.write_manifest()
        _edit_json(root / "manifest.json", edit)
    return plant


def _binding(edit):
    def plant(root: Path) -> None:
        builder = CatalogBuilder(root)
        entry = builder.add_unbound_entry()
        _edit_json(entry / "fixtures" / "vendor-7" / "binding.json", edit)
        builder.write_manifest()
    return plant


def _skips(text: str):
    def plant(root: Path) -> None:
        builder, _ = _runner(root)
        (root / "skips.json").write_text(text)
        builder.write_manifest()
    return plant


def _rename_source(doc):
    doc["sources"][0]["name"] = GITHUB


def _unknown_source_member(doc):
    doc["sources"][0][AWS] = 1


def _unknown_root(doc):
    doc[GITHUB] = 1


def _dup_source(doc):
    doc["sources"].append(copy.deepcopy(doc["sources"][0]))
    doc["sources"][0]["name"] = doc["sources"][1]["name"] = GITHUB


def _fixture_file(name: str, keys: bool = False):
    """Every string (and with `keys` every member name) of one recorded file given the token; the
    preparation's digest is recomputed so the verifier reads the forged file."""
    def plant(root: Path) -> None:
        builder, entry = _runner(root)
        path = entry / "fixtures" / "vendor-7" / name
        value = _plant_value(json.loads(path.read_bytes()), GITHUB, keys)
        path.write_bytes(stdlib_canon(value) if name == "preparation.json" else pretty(value))
        _edit_json(entry / "entry.json", lambda e: e["fixtures"][0].__setitem__(
            "preparationDigest", sha((entry / "fixtures" / "vendor-7" / "preparation.json").read_bytes())))
        builder.write_manifest()
    return plant


def _unread_kind(root: Path) -> None:
    """A selected-file source (a kind the verifier does not read) named with the token: a skip."""
    builder, entry = _runner(root)
    upload = {"name": AWS, "kind": "selected-file", "provider": "local-file",
              "read": {"copy": {"facts": [{"target": "/upload", "source": "/name"}], "evidence": []}}}

    def edit(doc):
        doc["sources"].append(upload)
    _set_dialect(entry, edit)
    _edit_json(entry / "entry.json", lambda e: e.__setitem__("sourceKinds", ["operation", "selected-file"]))
    builder.write_manifest()


def _preset_bound(root: Path) -> None:
    builder = CatalogBuilder(root)
    entry = builder.add_preset()
    doc = json.loads((builder.add_runner_entry("acme.donor") / "dialect.json").read_bytes())
    doc["sources"][0]["name"] = GITHUB
    (entry / "dialect.json").write_bytes(pretty(doc))
    _edit_json(entry / "entry.json", lambda e: e["dialect"].__setitem__("digest", sha(stdlib_canon(doc))))
    builder.write_manifest()


def _binding_missing(root: Path) -> None:
    builder = CatalogBuilder(root)
    entry = builder.add_unbound_entry()
    (entry / "fixtures" / "vendor-7" / "binding.json").unlink()
    builder.write_manifest()


PLANTS = {
    "fixture-case-values": _fixture_file("case.json"),
    "fixture-case-names": _fixture_file("case.json", keys=True),
    "fixture-sources-values": _fixture_file("sources.json"),
    "fixture-sources-names": _fixture_file("sources.json", keys=True),
    "fixture-profiles-names": _fixture_file("profiles.json", keys=True),
    "fixture-profiles-values": _fixture_file("profiles.json"),
    "fixture-preparation-values": _fixture_file("preparation.json"),
    "fixture-preparation-names": _fixture_file("preparation.json", keys=True),
    "unread-kind-source-name": _unread_kind,
    "preset-bound-source-name": _preset_bound,
    "binding-missing": _binding_missing,
    "dialect-digest": _entry_member("/dialect/digest", "sha256:" + "0" * 64 + GITHUB),
    "entry-publisher-directory": lambda root: _entry_dir_named(root, GITHUB.lower().replace("_", ""), "vendors"),
    "entry-name-directory": lambda root: _entry_dir_named(root, "acme", GITHUB),
    "entry-publisher-upper": lambda root: _entry_dir_named(root, AWS, "vendors"),
    "fixture-directory-and-name": _fixture_dir,
    "unexpected-entry-file": _stray(f"{GITHUB}.json"),
    "unexpected-entry-directory": _stray(f"{AWS}/notes.txt"),
    "unexpected-fixture-file": _stray(f"fixtures/vendor-7/{GITHUB}.json"),
    "unexpected-fixture-directory": _stray(f"fixtures/{AWS}/case.json"),
    "stray-under-entries": _stray(f"/entries/{GITHUB}"),
    "stray-under-publisher": _stray(f"/entries/acme/{AWS}.json"),
    "duplicated-member-name": _raw_entry(f'"{GITHUB}": 1, "{GITHUB}": 2, '),
    "unknown-member-name": _raw_entry(f'"{AWS}": 1, '),
    "id": _entry_member("/id", GITHUB),
    "id-in-grammar-other": _entry_member("/id", "acme.other"),
    "title-too-long": _entry_member("/title", GITHUB * 10),
    "licence": _entry_member("/licence", f"MIT AND {AWS}"),
    "upgrade-key": _entry_member("/upgrade", {GITHUB: "a note"}),
    "upgrade-note": _entry_member("/upgrade", {"sha256:" + "0" * 64: AWS * 60}),
    "pack-id": _entry_member("/pack/id", GITHUB),
    "pack-unknown": _entry_member("/pack/" + AWS, 1),
    "compatibility": _entry_member("/compatibility", {"desk": GITHUB}),
    "source-kinds": _entry_member("/sourceKinds", [AWS]),
    "requires-platform": _entry_member("/requires/platform", GITHUB),
    "requires-unknown": _entry_member("/requires/" + AWS, "x"),
    "verification-date": _entry_member("/verification", [{"date": GITHUB, "desk": "v1.0.0", "runner": "v1.0.0",
                                                           "result": "agree", "readers": ["a/b/c@abcdef1"]}]),
    "verification-reader": _entry_member("/verification", [{"date": "2026-01-01", "desk": "v1.0.0",
                                                             "runner": "v1.0.0", "result": "agree",
                                                             "readers": [f"a/b/{GITHUB}!@abcdef1"]}]),
    "verification-unknown": _entry_member("/verification", [{AWS: 1}]),
    "dialect-reference-member": _entry_member("/dialect/" + GITHUB, 1),
    "dialect-format-version": _entry_member("/dialect/formatVersion", AWS),
    "fixture-name": _entry_member("/fixtures/0/name", GITHUB),
    "fixture-path": _entry_member("/fixtures/0/path", GITHUB),
    "author": _entry_member("/author", AWS * 10),
    "artifact-unknown": _named(lambda e: _edit_json(e / "entry.json",
                                                    lambda v: v["artifact"].__setitem__(GITHUB, 1))),
    "artifact-id": _named(lambda e: _edit_json(e / "entry.json",
                                               lambda v: v["artifact"].__setitem__("id", AWS + " x"))),
    "artifact-version": _named(lambda e: _edit_json(e / "entry.json",
                                                    lambda v: v["artifact"].__setitem__("version", GITHUB))),
    "dialect-format-version-document": _named(lambda e: _set_dialect(e, lambda d: d.__setitem__("formatVersion",
                                                                                                  GITHUB))),
    "dialect-version-string": _dialect(lambda d: d.__setitem__("version", AWS)),
    "dialect-unknown-root": _dialect(_unknown_root),
    "dialect-source-name": _dialect(_rename_source),
    "dialect-source-name-twice": _dialect(_dup_source),
    "dialect-source-member": _dialect(_unknown_source_member),
    "manifest-row-id": _manifest(lambda rows: rows[0].__setitem__("id", GITHUB)),
    "manifest-row-path": _manifest(lambda rows: rows[0].__setitem__("path", f"entries/acme/{AWS}")),
    "manifest-row-unknown": _manifest(lambda rows: rows[0].__setitem__(GITHUB, 1)),
    "manifest-row-kind": _manifest(lambda rows: rows[0].__setitem__("kind", AWS)),
    "manifest-row-fixture": _manifest(lambda rows: rows[0]["fixtures"][0].__setitem__("name", GITHUB)),
    "manifest-row-files": _manifest(lambda rows: rows[0]["fixtures"][0]["files"].append(AWS)),
    "manifest-row-duplicate": _manifest(lambda rows: rows.append(dict(rows[0], id=GITHUB)) or
                                        rows.append(dict(rows[0], id=GITHUB))),
    "binding-unknown": _binding(lambda b: b.__setitem__(GITHUB, 1)),
    "binding-source": _binding(lambda b: b["sources"].__setitem__(AWS, {})),
    "skips-unknown": _skips(json.dumps([{"entry": "acme.vendors", "fixture": "vendor-7", "why": "x", GITHUB: 1}])),
    "skips-entry": _skips(json.dumps([{"entry": GITHUB, "fixture": AWS, "why": "reviewed"}])),
}


def _fitting_entry(token: str):
    """A well-formed entry named with the token (acme.TOKEN: an id of §3's grammar), in the manifest."""
    def plant(root: Path) -> None:
        builder = CatalogBuilder(root)
        builder.add_runner_entry(f"acme.{token}")
        builder.write_manifest()
    return plant


def _fitting_fixture(token: str):
    """The runner entry's fixture directory named with the token and listed so in entry.json: replayed."""
    def plant(root: Path) -> None:
        builder, entry = _runner(root)
        (entry / "fixtures" / "vendor-7").rename(entry / "fixtures" / token)
        _edit_json(entry / "entry.json", lambda e: e["fixtures"][0].update(name=token, path=f"fixtures/{token}"))
        builder.write_manifest()
    return plant


def _unlisted_entry(token: str):
    """An entry named with the token beside the runner entry, added after the manifest was written (no row)."""
    def plant(root: Path) -> None:
        builder, _ = _runner(root)
        builder.write_manifest()
        builder.add_runner_entry(f"acme.{token}")
    return plant


def _fitting_plants(token: str) -> dict:
    """Issue #16 item 4: the places a grammar lets a grammar-fitting token through."""
    return {
        "unlisted-fixture-directory": _stray(f"fixtures/{token}/case.json"),
        "unlisted-fixture-directory-and-file": _stray(f"fixtures/{token}/{token}"),
        "listed-fixture-directory": _fitting_fixture(token),
        "fixture-file": _stray(f"fixtures/vendor-7/{token}"),
        "entry-file": _stray(token),
        "entry-name": _fitting_entry(token),
        "entry-name-directory": lambda root: _entry_dir_named(root, "acme", token),
        "entry-name-unlisted": _unlisted_entry(token),
        "fixture-name-member": _entry_member("/fixtures/0/name", token),
        "fixture-path-member": _entry_member("/fixtures/0/path", f"fixtures/{token}"),
        "skips-entry-and-fixture": _skips(json.dumps([{"entry": f"acme.{token}", "fixture": token,
                                                       "why": "reviewed"}])),
        "skips-fixture": _skips(json.dumps([{"entry": "acme.vendors", "fixture": token, "why": "reviewed"}])),
        "manifest-row-id": _manifest(lambda rows: rows[0].__setitem__("id", f"acme.{token}")),
        "manifest-row-fixture": _manifest(lambda rows: rows[0]["fixtures"][0].__setitem__("name", token)),
    }


FITTING_PLANTS = {f"{label}-{place}": plant for label, token in FITTING.items()
                  for place, plant in _fitting_plants(token).items()}
PLANTS.update(FITTING_PLANTS)


@pytest.mark.parametrize("attack", sorted(PLANTS))
def test_attack_planted_token_is_not_echoed(tmp_path, attack):
    """One planted place each: the gate refuses (or passes) without repeating the token."""
    root = tmp_path / "catalog"
    PLANTS[attack](root)
    codes = assert_no_echo(root, attack)
    assert codes, f"{attack}: the planted token was refused by no check"


@pytest.mark.parametrize("attack", sorted(FITTING_PLANTS))
def test_grammar_fitting_token_is_not_echoed_by_exchange_check(tmp_path, monkeypatch, capsys, attack):
    """Issue #16 item 4, end to end: `exchange check` in text, JSON, `--format github` (with the step summary
    written to $GITHUB_STEP_SUMMARY) and `--format markdown` refuses the planted place and never prints the
    token."""
    root = tmp_path / "catalog"
    FITTING_PLANTS[attack](root)
    step_summary = tmp_path / "summary.md"
    monkeypatch.setenv("GITHUB_STEP_SUMMARY", str(step_summary))
    monkeypatch.delenv("GITHUB_WORKSPACE", raising=False)
    printed = []
    for fmt in ("text", "json", "github", "markdown"):
        status = cli.main(["check", "--catalog", str(root), "--no-history", "--format", fmt])
        out = capsys.readouterr()
        assert status == 1 and "Traceback" not in out.err, f"{attack} --format {fmt}: {status}\n{out.out}{out.err}"
        printed += [out.out, out.err]
    assert step_summary.is_file() and "exchange check: fail" in step_summary.read_text(encoding="utf-8")
    printed.append(step_summary.read_text(encoding="utf-8"))
    assert_not_in("\n".join(printed), attack)


def test_sweep_reaches():
    """Runs last in this module (pytest keeps file order): the sweep reached every code the issue names."""
    if len(REACHED) < 10:
        pytest.skip("run with the whole module: the sweep's codes are collected by the tests above")
    named = {"entry-id-path", "json-malformed", "entry-member-unknown", "entry-member-invalid",
             "dialect-format-mismatch", "dialect-reference-form", "input-malformed", "manifest-row-invalid",
             "entry-file-unexpected", "fixture-file-unexpected", "fixture-unexpected", "catalog-stray-file",
             "artifact-malformed", "reader-locator-invalid", "manifest-id-duplicate", "skips-malformed"}
    assert named <= REACHED, f"not reached: {sorted(named - REACHED)}"


# --- a consumer's commands ------------------------------------------------------------------------


def test_release_check_and_upgrade_diff_echo_no_planted_token(tmp_path, capsys):
    """`exchange release-check` (the gate on the tag's blobs) and `exchange upgrade-diff`, on a release
    whose entry holds the tokens in a member name, an upgrade key and two file names: neither repeats them."""
    from judgment_exchange.cli import main

    from ..support.simulator import CatalogSimulator

    builder, entry = _runner(tmp_path / "work")
    repo = CatalogSimulator(tmp_path / "repo", builder=builder)
    repo.release("v0.1.0", message="snapshot")

    def plant(value):
        value[AWS] = "x"
        value["upgrade"] = {GITHUB: "a note"}
    _edit_json(entry / "entry.json", plant)
    (entry / f"{GITHUB}.json").write_text("{}\n")
    (entry / "fixtures" / "vendor-7" / f"{AWS}.txt").write_text("note\n")
    repo.release("v0.2.0", message="snapshot")
    capsys.readouterr()
    for argv in (["release-check", str(repo.path), "v0.2.0", "--format", "json"],
                 ["release-check", str(repo.path), "v0.2.0"],
                 ["upgrade-diff", str(repo.path), "v0.1.0", "v0.2.0"],
                 ["upgrade-diff", str(repo.path), "v0.1.0", "v0.2.0", "--format", "json"]):
        status = main(argv)
        printed = capsys.readouterr()
        assert status in (0, 1), f"{argv}: {printed.err}"
        for needle in NEEDLES:
            assert needle not in printed.out + printed.err, f"{argv} echoes the planted token"


# --- quoting.py, by hand-worked examples ---------------------------------------------------------


def test_paths_are_cut_at_the_first_name_outside_its_grammar():
    from judgment_exchange.quoting import path_text, split_path

    assert split_path("entries/acme/vendors/fixtures/vendor-7/case.json") == (
        "entries/acme/vendors/fixtures/vendor-7/case.json", None)  # near-miss: every name in its grammar
    assert split_path(f"entries/acme/vendors/{AWS}.json") == ("entries/acme/vendors", "<a name of 25 characters>")
    assert split_path(f"entries/{AWS}/vendors") == ("entries", "<a name of 20 characters> and 1 more level below it")
    assert split_path(f"entries/acme/vendors/fixtures/vendor-7/{GITHUB}") == (
        "entries/acme/vendors/fixtures/vendor-7", "<a name of 40 characters>")
    assert path_text(f"{GITHUB}.txt") == "./<a name of 44 characters>"


def test_pointers_show_only_our_names_and_indices():
    from judgment_exchange.quoting import pointer_text

    assert pointer_text("/sources/3/read/copy/facts/0/target") == "/sources/3/read/copy/facts/0/target"
    assert pointer_text(f"/sources/0/{AWS}") == "/sources/0/<a name of 20 characters>"
    assert pointer_text("/case/parameters/vendorId") == "/case/parameters/<a name of 8 characters>"


def test_redacted_refusal_drops_an_entry_outside_the_grammar():
    from judgment_exchange.quoting import redact
    from judgment_exchange.refusal import Refusal

    kept = Refusal("entry-file-missing", "entries/acme/vendors/README.md", "required", "acme.vendors")
    assert redact(kept) == kept  # near-miss: nothing to hide
    hidden = redact(Refusal("entry-file-missing", f"entries/acme/{AWS}/README.md",
                            f"entries/acme/{AWS}/README.md: required", f"acme.{AWS}", pointer="/x"))
    assert hidden.path == "entries/acme" and hidden.entry is None and hidden.pointer is None
    assert AWS not in hidden.detail and hidden.detail.startswith("in <a name of 20 characters> and 1 more level")
