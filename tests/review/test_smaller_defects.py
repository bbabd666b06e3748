"""Issue #17 item 6, "The smaller defects": each defect as it was seen, held by a test named after it, with
a near-miss where one is meaningful.

Inputs are throwaway catalogs and repositories built with tests/support; expected codes, messages and
modes are written here by hand, never computed by the package under test.
"""

from __future__ import annotations

import json
import os
import stat
import subprocess
from pathlib import Path

import pytest

from judgment_exchange.cli import build_parser, main
from judgment_exchange.consumer.lock import normal_location
from judgment_exchange.releasing.release import make_release

from ..support.catalog import CatalogBuilder, pretty
from ..support.gitrepo import GitRepo, files_of, git_identity, runner_releases

ROOT = Path(__file__).resolve().parents[2]
NOT_A_CATALOG = "is not a catalog: it holds neither manifest.json nor entries/"
MAINTAINERS_FIX = "Delete the tag and tag the release commit"
MOVED_FIX = "Do not import it: a release tag is never moved"


@pytest.fixture
def released(tmp_path: Path) -> GitRepo:
    return runner_releases(tmp_path)


def run(argv: list[str], capsys) -> tuple[int, str, str]:
    """The command in-process; an exception escaping main() is itself the failure (never a traceback)."""
    rc = main(argv)
    out = capsys.readouterr()
    return rc, out.out, out.err


@pytest.fixture
def identity(monkeypatch, tmp_path: Path) -> None:
    """`exchange release` commits and tags through git: a fixed identity and no user configuration."""
    git_identity(monkeypatch)
    monkeypatch.delenv("EXCHANGE_VERIFIER", raising=False)
    monkeypatch.setenv("EXCHANGE_READER_CACHE", str(tmp_path / "reader-cache"))


def release_check(location: str, tag: str, capsys, *extra: str) -> tuple[int, dict, str]:
    rc, out, err = run(["release-check", location, tag, "--no-history", "--format", "json", *extra], capsys)
    return rc, (json.loads(out) if out else {}), err


def codes(report: dict) -> list[str]:
    return [r["code"] for r in report.get("refusals", [])]


# "`exchange fix` and `manifest --write` create a `manifest.json` in any directory ('1 pin(s) written')"

def test_fix_and_manifest_write_refuse_a_directory_that_is_not_a_catalog(tmp_path, capsys):
    plain = tmp_path / "plain"
    plain.mkdir()
    for argv in (["fix"], ["fix", "--check"], ["manifest", "--write"], ["manifest"]):
        rc, out, err = run([*argv, "--catalog", str(plain)], capsys)
        assert rc == 4 and NOT_A_CATALOG in err, (argv, rc, out, err)
        assert "written" not in out and os.listdir(plain) == [], argv
    # near-miss: a new, empty catalog (manifest.json holding []) is a catalog
    (plain / "manifest.json").write_bytes(b"[]\n")
    assert run(["fix", "--catalog", str(plain)], capsys)[0] == 0
    assert run(["manifest", "--write", "--catalog", str(plain)], capsys)[0] == 0
    # near-miss: entries/ without manifest.json is a catalog whose manifest is still to be written
    work = CatalogBuilder(tmp_path / "cat")
    work.add_runner_entry()
    (work.root / "manifest.json").unlink()
    rc, out, err = run(["manifest", "--write", "--catalog", str(work.root)], capsys)
    assert rc == 0 and (work.root / "manifest.json").is_file(), err


# "rewritten files become mode 0600 under umask 0022"

@pytest.fixture
def umask_0022():
    old = os.umask(0o022)
    try:
        yield
    finally:
        os.umask(old)


def mode(path: Path) -> int:
    return stat.S_IMODE(os.lstat(path).st_mode)


def test_rewritten_files_keep_their_mode(tmp_path, capsys, umask_0022, released):
    work = CatalogBuilder(tmp_path / "cat")
    entry = work.add_runner_entry()
    (work.root / "manifest.json").unlink()
    assert run(["manifest", "--write", "--catalog", str(work.root)], capsys)[0] == 0
    assert mode(work.root / "manifest.json") == 0o644  # a new file: 0666 less the umask
    os.chmod(work.root / "manifest.json", 0o664)
    value = json.loads((entry / "entry.json").read_bytes())
    (entry / "entry.json").write_bytes(pretty(value | {"title": "Vendors, retitled"}))
    rc, out, err = run(["fix", "--catalog", str(work.root)], capsys)
    assert rc == 0 and "written" in out, err
    assert mode(work.root / "manifest.json") == 0o664  # rewritten: the mode it had
    (entry / "entry.json").write_bytes(pretty(value | {"title": "Vendors, retitled again"}))
    rc, _, err = run(["manifest", "--write", "--catalog", str(work.root)], capsys)
    assert rc == 0 and mode(work.root / "manifest.json") == 0o664, err
    # the consumer's lock, created and then updated
    lock = tmp_path / "exchange.lock"
    assert release_check(str(released.path), "v0.1.0", capsys, "--lock", str(lock))[0] == 0
    assert mode(lock) == 0o644
    os.chmod(lock, 0o640)
    rc, report, _ = release_check(str(released.path), "v0.2.0", capsys, "--lock", str(lock), "--update")
    assert rc == 0 and report["lock"]["action"] == "updated" and mode(lock) == 0o640


# "a deleted locked tag gives `release-tag-invalid` with the maintainer's fix ('Delete the tag and tag the
#  release commit…') where docs/release-contract.md says `release-tag-moved`"

def test_a_deleted_locked_tag_is_release_tag_moved_with_the_consumers_fix(released, tmp_path, capsys):
    lock = tmp_path / "exchange.lock"
    assert release_check(str(released.path), "v0.2.0", capsys, "--lock", str(lock))[0] == 0
    rc, report, _ = release_check(str(released.path), "v0.2.0", capsys, "--lock", str(lock))
    assert rc == 0 and report["lock"]["action"] == "unchanged"  # near-miss: the locked tag still there
    released.git("tag", "-d", "v0.2.0")
    rc, report, _ = release_check(str(released.path), "v0.2.0", capsys, "--lock", str(lock))
    assert rc == 1 and codes(report) == ["release-tag-moved"], report
    assert report["refusals"][0]["fix"].startswith(MOVED_FIX)
    assert "no tag v0.2.0" in report["refusals"][0]["detail"]
    rc, out, _ = run(["release-check", str(released.path), "v0.2.0", "--no-history", "--lock", str(lock)], capsys)
    assert rc == 1 and "refused release-tag-moved" in out and MAINTAINERS_FIX not in out, out
    # the same with the commit retained by hand (--expect-commit)
    commit = json.loads(lock.read_bytes())["commit"]
    rc, report, _ = release_check(str(released.path), "v0.2.0", capsys, "--expect-commit", commit)
    assert rc == 1 and codes(report) == ["release-tag-moved"], report


def test_upgrade_diff_from_a_deleted_locked_tag_is_release_tag_moved(released, tmp_path, capsys):
    lock = tmp_path / "exchange.lock"
    assert release_check(str(released.path), "v0.1.0", capsys, "--lock", str(lock))[0] == 0
    released.git("commit", "-q", "--allow-empty", "-m", "later")
    released.tag("v0.3.0")
    rc, out, _ = run(["upgrade-diff", str(released.path), "--lock", str(lock), "v0.3.0", "--no-history",
                      "--format", "json"], capsys)
    assert rc == 0, out  # near-miss: the locked v0.1.0 is there
    released.git("tag", "-d", "v0.1.0")
    rc, out, _ = run(["upgrade-diff", str(released.path), "--lock", str(lock), "v0.3.0", "--no-history",
                      "--format", "json"], capsys)
    diff = json.loads(out)
    assert rc == 1 and codes(diff) == ["release-tag-moved"], diff
    assert diff["refusals"][0]["fix"].startswith(MOVED_FIX)


# "… and a moved tag checked without a lock also gives the consumer the maintainer's fix"

def test_a_moved_tag_checked_without_a_lock_gives_the_consumer_a_consumers_fix(released, capsys):
    released.git("tag", "-f", "v0.2.0", released.rev("v0.2.0^{tree}"))  # moved onto a tree: no commit
    rc, report, _ = release_check(str(released.path), "v0.2.0", capsys)
    assert rc == 1 and codes(report) == ["release-tag-invalid"], report  # the code docs give
    fix = report["refusals"][0]["fix"]
    assert MAINTAINERS_FIX not in fix and "Do not import" in fix, fix
    rc, out, _ = run(["release-check", str(released.path), "v0.9.0", "--no-history"], capsys)
    assert rc == 1 and "release-tag-invalid" in out and MAINTAINERS_FIX not in out, out
    rc, out, _ = run(["upgrade-diff", str(released.path), "v0.1.0", "v0.9.0", "--no-history", "--format", "json"],
                     capsys)
    diff = json.loads(out)
    assert rc == 1 and codes(diff) == ["release-tag-invalid"]
    assert MAINTAINERS_FIX not in diff["refusals"][0]["fix"], diff
    # near-miss: the maintainer's own gate (check --release-tag) keeps the maintainer's fix
    from judgment_exchange.codes import fix_text

    assert fix_text("release-tag-invalid").startswith(MAINTAINERS_FIX)


# "`--lock /tmp` says 'not a regular file; nothing was read; nothing read'"

def test_lock_on_a_directory_says_so_once(released, tmp_path, capsys):
    directory = tmp_path / "a-directory"
    directory.mkdir()
    for argv in (["release-check", str(released.path), "v0.2.0", "--lock", str(directory)],
                 ["upgrade-diff", str(released.path), "--lock", str(directory), "v0.2.0"]):
        rc, out, err = run(argv, capsys)
        assert rc == 4 and not out, (argv, out)
        assert "a directory, not a lock file" in err and err.count("nothing") == 1, err
    # near-miss: a symlink is named as one, once
    link = tmp_path / "link.lock"
    link.symlink_to(tmp_path / "elsewhere.lock")
    rc, _, err = run(["release-check", str(released.path), "v0.2.0", "--lock", str(link)], capsys)
    assert rc == 4 and "symlink" in err and err.count("nothing") == 1, err


# "`exchange verify --help` is 'unrecognized arguments'"

BY_HAND = ["check", "signoff", "manifest", "fix", "digest", "form", "new", "fixture", "fixture add", "release",
           "release-check", "upgrade-diff", "upgrade-note", "show", "index", "verifier", "verifier fetch", "verify",
           "conformance", "conformance run", "conformance list", "conformance consume", "release-verify",
           "release-notes", "init"]


def _subcommands(parser, prefix: tuple[str, ...] = ()) -> list[str]:
    """Every subcommand and sub-subcommand of the parser, by walking its subparsers."""
    import argparse

    found = []
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, child in action.choices.items():
                found.append(" ".join((*prefix, name)))
                found += _subcommands(child, (*prefix, name))
    return found


def test_every_subcommand_answers_help(capsys):
    walked = _subcommands(build_parser())
    assert set(walked) == set(BY_HAND), walked  # a new subcommand is added to BY_HAND, and answers --help
    for command in BY_HAND:
        for flag in ("--help", "-h"):
            rc, out, err = run([*command.split(), flag], capsys)
            assert rc == 0 and out.startswith("usage:") and f"exchange {command}" in out and not err, (command, err)


def test_verify_still_refuses_an_argument_it_does_not_take(capsys):
    rc, out, err = run(["verify", "--helpme"], capsys)  # near-miss of --help: exit 3, no report (§11)
    assert rc == 3 and not out and "unrecognized arguments: --helpme" in err


# "the same repository as a path and as `file://` (or with a trailing slash) is `lock-location-mismatch`,
#  and the message does not show the lock's location"

def test_lock_locations_compare_in_one_normal_form(released, tmp_path, capsys):
    lock = tmp_path / "exchange.lock"
    path = str(released.path)
    assert release_check(path, "v0.2.0", capsys, "--lock", str(lock))[0] == 0
    assert json.loads(lock.read_bytes())["location"] == os.path.realpath(path)
    alias = tmp_path / "alias"
    alias.symlink_to(released.path)
    for same in (path + "/", released.path.as_uri(), released.path.as_uri() + "/", str(alias), path + "/./"):
        rc, report, _ = release_check(same, "v0.2.0", capsys, "--lock", str(lock))
        assert rc == 0 and report["lock"]["action"] == "unchanged", (same, report)
    # near-miss: another repository (a clone of the same catalog) is another location, and both are shown
    other = tmp_path / "other"
    subprocess.run(["git", "clone", "-q", path, str(other)], check=True, capture_output=True)
    rc, report, _ = release_check(str(other), "v0.2.0", capsys, "--lock", str(lock))
    assert rc == 1 and codes(report) == ["lock-location-mismatch"], report
    detail = report["refusals"][0]["detail"]
    assert os.path.realpath(path) in detail and str(other) in detail, detail
    assert normal_location("https://example.org/catalog.git/") == "https://example.org/catalog.git"
    assert normal_location("https://example.org/catalog.git") != normal_location("https://example.org/catalog")


def test_attack_a_token_in_the_catalog_url_is_never_written_to_a_lock():
    """A consumer may give a token in the URL (https://reader:TOKEN@host/…); a lock is a file a consumer commits:
    its location is the URL less the user name and password, so a lock made with or without them is one catalog."""
    with_token = "https://reader:s3cret-t0ken@example.org/catalog.git/"
    assert normal_location(with_token) == "https://example.org/catalog.git"          # worked by hand
    assert normal_location(with_token) == normal_location("https://example.org/catalog.git")
    assert normal_location("https://@example.org/catalog.git") == "https://example.org/catalog.git"
    # near-misses: an @ after the host is part of the path; git's scp form names a user, not a secret
    assert normal_location("https://example.org/a@b/catalog.git") == "https://example.org/a@b/catalog.git"
    assert normal_location("git@example.org:catalog.git") == "git@example.org:catalog.git"


def test_attack_a_lock_holding_a_token_never_prints_it_in_a_mismatch(released, tmp_path, capsys):
    """A lock written before locations lost their credentials may hold one: the mismatch names the location
    without it."""
    lock = tmp_path / "exchange.lock"
    assert release_check(str(released.path), "v0.2.0", capsys, "--lock", str(lock))[0] == 0
    value = json.loads(lock.read_bytes())
    value["location"] = "https://reader:s3cret-t0ken@example.org/catalog.git"
    lock.write_text(json.dumps(value, indent=2, sort_keys=True) + "\n")
    rc, out, err = run(["release-check", str(released.path), "v0.2.0", "--no-history", "--lock", str(lock)], capsys)
    assert rc == 1 and "lock-location-mismatch" in out and "https://example.org/catalog.git" in out, out
    assert "s3cret-t0ken" not in out + err and "reader" not in out + err


def test_a_lock_location_mismatch_escapes_control_characters(released, tmp_path, capsys):
    lock = tmp_path / "exchange.lock"
    assert release_check(str(released.path), "v0.2.0", capsys, "--lock", str(lock))[0] == 0
    odd = tmp_path / "odd\x1b[2Jname"
    subprocess.run(["git", "clone", "-q", str(released.path), str(odd)], check=True, capture_output=True)
    rc, out, _ = run(["release-check", str(odd), "v0.2.0", "--no-history", "--lock", str(lock)], capsys)
    assert rc == 1 and "lock-location-mismatch" in out and "\x1b" not in out and "odd\\x1b[2Jname" in out, out


# "`check --catalog` on a directory that is not a catalog exits 1, not the documented 4, advising
#  `git fetch --tags`"

def test_check_on_a_directory_that_is_not_a_catalog_is_exit_4(tmp_path, capsys):
    plain = tmp_path / "plain"
    plain.mkdir()
    for extra in ([], ["--no-history"], ["--format", "json"]):
        rc, out, err = run(["check", "--catalog", str(plain), *extra], capsys)
        assert rc == 4 and NOT_A_CATALOG in err and "git fetch" not in err, (extra, out, err)
        assert "give --catalog the catalog's directory" in err
        # --format json: one JSON object saying so (issue #25 item 5; docs/reports.md, "A file of the wrong kind")
        assert json.loads(out) == {"result": "error", "status": 4, "command": "exchange check",
                                   "detail": err.strip()} if extra == ["--format", "json"] else not out
    # near-miss: an empty new catalog is a catalog, and passes
    (plain / "manifest.json").write_bytes(b"[]\n")
    rc, out, err = run(["check", "--catalog", str(plain), "--no-history"], capsys)
    assert rc == 0 and "result: pass" in out, out + err
    # this repository's root and its demonstration catalog are catalogs by the same rule
    from judgment_exchange.cli.common import is_catalog

    assert is_catalog(str(ROOT)) and is_catalog(str(ROOT / "docs" / "demo-catalog"))
    assert not is_catalog(str(ROOT / "docs"))


# "`exchange release` with nothing changed since the last release makes an empty release without a word"

def _catalog_with_an_entry(tmp_path: Path) -> tuple[GitRepo, CatalogBuilder]:
    repo = GitRepo(tmp_path / "catalog")
    work = CatalogBuilder(tmp_path / "work")
    work.add_runner_entry()
    work.write_manifest()
    (work.root / "releases.json").write_bytes(b"[]\n")
    repo.snapshot(files_of(work.root))
    return repo, work


def _tags(repo: GitRepo) -> list[str]:
    return repo.git("tag", "--list").split()


def test_release_with_nothing_changed_since_the_last_release_is_refused(tmp_path, identity):
    repo, _ = _catalog_with_an_entry(tmp_path)
    assert make_release(str(repo.path), "v0.1.0").status == 0
    repo.git("commit", "-q", "--allow-empty", "-m", "nothing")
    (repo.path / "NOTES.md").write_text("a change outside the catalog's files\n")
    repo.git("add", "NOTES.md")
    repo.git("commit", "-q", "-m", "notes")
    head = repo.rev("HEAD")
    out = make_release(str(repo.path), "v0.2.0")
    text = "\n".join(out.lines)
    assert out.status == 1 and "nothing changed since the last release v0.1.0" in text, text
    assert "manifest.json, entries/, skips.json and verifier-pin.json" in text
    assert repo.rev("HEAD") == head and _tags(repo) == ["v0.1.0"]  # no commit, no tag
    # near-miss: a README under entries/ changed is a change to release
    readme = repo.path / "entries" / "acme" / "vendors" / "README.md"
    readme.write_text(readme.read_text() + "\nOne more line.\n")
    repo.git("commit", "-q", "-am", "readme")
    out = make_release(str(repo.path), "v0.2.0")
    assert out.status == 0, out.lines
    # near-miss: skips.json added is a change to release
    (repo.path / "skips.json").write_bytes(b"[]\n")
    repo.git("add", "skips.json")
    repo.git("commit", "-q", "-m", "skips")
    assert make_release(str(repo.path), "v0.3.0").status == 0
    assert _tags(repo) == ["v0.1.0", "v0.2.0", "v0.3.0"]


def test_an_empty_catalog_may_release_the_empty_manifest_again(tmp_path, identity):
    repo = GitRepo(tmp_path / "catalog")
    repo.snapshot({"manifest.json": b"[]\n", "releases.json": b"[]\n"})
    first = make_release(str(repo.path), "v0.1.0")
    assert first.status == 0 and not any("nothing changed" in line for line in first.lines), first.lines
    repo.git("commit", "-q", "--allow-empty", "-m", "work")
    again = make_release(str(repo.path), "v0.2.0")
    text = "\n".join(again.lines)
    assert again.status == 0 and "nothing changed since the last release v0.1.0" in text, text
    assert "RFC 0019 §7" in text and "empty manifest" in text


# "… and a passing release shows none of the gate's report"

def test_a_passing_release_prints_the_gates_summary(tmp_path, identity, capsys):
    repo, _ = _catalog_with_an_entry(tmp_path)
    rc, out, err = run(["release", "v0.1.0", "--catalog", str(repo.path)], capsys)
    assert rc == 0, err
    lines = out.splitlines()
    for expected in ("entries: 1 checked", "replayed: 1 fixture(s) recomputed with agreement", "history: no-releases",
                     "result: pass"):
        assert expected in lines, out
    assert any(line.startswith("reader: ") for line in lines), out
    assert lines[-2].startswith("released v0.1.0: commit ") and lines[-1] == "push it: git push origin main v0.1.0"
    # near-miss: a refused release prints no passing summary
    rc, out, err = run(["release", "v0.2.0", "--catalog", str(repo.path)], capsys)
    assert rc == 1 and "result: pass" not in out + err and "nothing changed" in err, out + err


def test_version_is_answered(capsys):
    """Issue #26 item 6: `exchange --version` exists."""
    from judgment_exchange import __version__

    rc, out, err = run(["--version"], capsys)
    assert rc == 0 and out.strip() == f"exchange (judgment-pack-exchange) {__version__}" and not err


def test_a_catalog_that_is_a_file_is_named_as_not_a_directory(tmp_path, capsys):
    """Issue #26 item 6: `--catalog FILE` said "no such directory"; it says what the path is and what to give."""
    afile = tmp_path / "manifest.json"
    afile.write_text("[]\n")
    rc, out, err = run(["check", "--catalog", str(afile)], capsys)
    assert rc == 4 and "not a directory (give the catalog's directory" in err and not out
    rc, out, err = run(["check", "--catalog", str(tmp_path / "nothing")], capsys)
    assert rc == 4 and "no such directory" in err  # the near miss


def test_verify_usage_brackets_exactly_what_is_optional(capsys):
    """Issue #26 item 6: the usage showed --acquisitions as required, while a missing one is not refused."""
    import re

    rc, out, err = run(["verify"], capsys)
    missing = re.search(r"missing (.*)\n", err).group(1).split(", ")
    usage = err.split("usage: ", 1)[1].splitlines()[0]
    bracketed = set(re.findall(r"\[(--[a-z-]+)", usage))
    plain = set(re.findall(r"(?<!\[)(--[a-z-]+)", usage))
    assert rc == 3 and set(missing) == plain and "--acquisitions" in bracketed, (missing, usage)


def test_upgrade_diff_says_a_changed_title_and_description_once(identity, tmp_path, capsys):
    """Issue #26 item 6: upgrade-diff printed each changed entry's title and description three times (both
    sides' summaries and the members' old -> new); they are said once, old -> new."""
    from ..browse.releases import released_once

    root = tmp_path / "demo"
    repo = released_once(root)
    path = root / "entries/kinds/intake-http-source/entry.json"
    entry = json.loads(path.read_bytes())
    entry["title"], entry["description"] = "A renamed read over an http source", "A description written anew."
    path.write_bytes(pretty(entry))
    assert main(["fix", "--catalog", str(root)]) == 0
    repo.git("commit", "-q", "-am", "rename")
    assert make_release(str(root), "v0.2.0", approved=frozenset({"kinds.intake-http-source"})).status == 0
    capsys.readouterr()
    rc, out, err = run(["upgrade-diff", str(root), "v0.1.0", "v0.2.0"], capsys)
    assert rc == 0, err
    assert out.count("A renamed read over an http source") == 1 and out.count("A description written anew.") == 1
    assert "    title: Intake triage vendor read over an http source -> A renamed read over an http source" in out
    assert "  from: kind dialect; direction input; entryDigest sha256:" in out  # the rest of the summary stays


def test_release_check_of_an_unreachable_url_says_why_and_never_prints_its_credentials(capsys):
    """Issue #26 item 6: git's own reason is given; a user name and password in the URL are never printed."""
    rc, out, err = run(["release-check", "https://reader:s3cret-t0ken@nonexistent.invalid/catalog.git", "v0.1.0"],
                       capsys)
    assert rc == 4 and "(unable to access" in err and "nonexistent.invalid" in err, err
    assert "s3cret-t0ken" not in err + out and "reader" not in err + out


def test_release_check_usage_says_what_goes_with_what(capsys):
    """Issue #26 item 6: the usage now nests --update inside --lock and --approve-change inside --update, as the
    command enforces (each alone is exit 3)."""
    rc, out, _ = run(["release-check", "--help"], capsys)
    assert rc == 0 and "LOCATION TAG" in out
    assert "[--lock FILE [--update [--approve-change ID ...] [--forget ID ...]]]" in " ".join(out.split())
    for argv in (["--update"], ["--lock", "x.lock", "--approve-change", "a.b"], ["--lock", "x.lock", "--forget", "a.b"],
                 ["--forget", "a.b"]):
        assert run(["release-check", ".", "v0.1.0", *argv], capsys)[0] == 3
