"""What a contributor still trips on, issue #34 item 7: `exchange upgrade-note` on a branch cut before the
release its warning names.

A branch cut from main before v0.1.0 holds main's releases.json as it was then, with no row for v0.1.0; the
gate's `upgrade-note-missing` warning reads main's ledger and names v0.1.0. The warning's printed command
(`exchange upgrade-note ENTRY TEXT --release v0.1.0`), applied as printed with TEXT written, keys the note by
v0.1.0's entryDigest (computed here by hashlib over `git show v0.1.0:…/entry.json`), and the gate then passes
without the warning. Before, the command said "is in no release yet" (and with --release, "is in no release
v0.1.0"): it read only the branch's own ledger.
"""

from __future__ import annotations

import hashlib
import json
import shlex
import subprocess
from pathlib import Path

import pytest

from judgment_exchange.cli import main as exchange

from ..support.catalog import CatalogBuilder, pretty
from ..support.gitrepo import GitRepo, git_identity
from ..support.simulator import CatalogSimulator

ENTRY = "acme.vendors"
ENTRY_JSON = "entries/acme/vendors/entry.json"
NOTE = "The description now names the registry the vendor comes from; nothing the dialect reads changed."


@pytest.fixture(autouse=True)
def identity(monkeypatch) -> None:
    git_identity(monkeypatch, "Trip Test", "trip-test@example.invalid")


@pytest.fixture
def cut_before_release(tmp_path, monkeypatch) -> tuple[Path, GitRepo, str]:
    """acme.vendors on main; the branch `change` cut; then main released v0.1.0 (its ledger row and tag); the
    branch checked out, its entry's description changed, pinned and committed. The working directory is the
    catalog. Returns the catalog, its repository and v0.1.0's entryDigest of the entry."""
    history = CatalogSimulator(tmp_path / "catalog", work_path=tmp_path / "catalog-work")
    history.builder.add_runner_entry(ENTRY, "mapping-v2-unsigned-parameters")
    history.write("releases.json", b"[]\n")
    history.commit("the catalog")
    root, git = history.path, history.repo
    git.git("branch", "change")  # cut before the release
    history.release_by_command("v0.1.0", commit=False)
    released = subprocess.run(["git", "show", f"v0.1.0:{ENTRY_JSON}"], cwd=root, capture_output=True,
                              check=True).stdout
    git.git("switch", "-q", "change")
    assert json.loads((root / "releases.json").read_bytes()) == []  # the branch's ledger has no row for v0.1.0
    entry = json.loads((root / ENTRY_JSON).read_bytes())
    entry["description"] = "Reads one vendor's record from the Acme vendor registry."
    (root / ENTRY_JSON).write_bytes(pretty(entry))
    assert exchange(["fix", "--catalog", str(root)]) == 0
    git.git("commit", "-q", "-am", "a new description")
    monkeypatch.chdir(root)
    return root, git, "sha256:" + hashlib.sha256(released).hexdigest()


def _printed_command(out: str) -> list[str]:
    """The command the warning's "what to do" line prints, between backquotes, with TEXT written."""
    [line] = [x for x in out.splitlines() if x.startswith("  what to do: ")]
    command = line.split("`")[1]
    assert command == f"exchange upgrade-note {ENTRY} TEXT --release v0.1.0"
    return [NOTE if word == "TEXT" else word for word in shlex.split(command)]


def test_the_warnings_printed_command_keys_the_note_by_the_release_it_names(cut_before_release, capsys):
    root, git, digest = cut_before_release
    capsys.readouterr()
    assert exchange(["check", "--base", "auto"]) == 0
    out = capsys.readouterr().out
    assert "warning upgrade-note-missing: acme.vendors entries/acme/vendors/entry.json:" in out
    assert f"release v0.1.0, whose entryDigest is {digest}" in out
    argv = _printed_command(out)
    assert argv[0] == "exchange"
    assert exchange(argv[1:]) == 0
    said = capsys.readouterr().out
    assert f"upgrade note keyed by {digest} ({ENTRY} at v0.1.0) added" in said
    assert json.loads((root / ENTRY_JSON).read_bytes())["upgrade"] == {digest: NOTE}
    git.git("commit", "-q", "-am", "its upgrade note")
    assert exchange(["check", "--base", "auto", "--format", "json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["result"] == "pass" and report.get("warnings", []) == [], report


def test_without_release_the_latest_on_mains_ledger_is_the_key(cut_before_release, capsys):
    """CONTRIBUTING's line, `exchange upgrade-note ENTRY TEXT`: the latest release holding the entry, main's
    v0.1.0 though the branch's ledger lacks it."""
    root, git, digest = cut_before_release
    assert exchange(["upgrade-note", ENTRY, NOTE]) == 0
    assert f"({ENTRY} at v0.1.0) added" in capsys.readouterr().out
    assert json.loads((root / ENTRY_JSON).read_bytes())["upgrade"] == {digest: NOTE}


def test_near_miss_an_entry_no_release_holds_is_still_in_no_release(cut_before_release, capsys):
    root, git, digest = cut_before_release
    CatalogBuilder(root).add_runner_entry("acme.second", "mapping-v2-before-calculators")
    assert exchange(["fix"]) == 0
    before = (root / "entries/acme/second/entry.json").read_bytes()
    capsys.readouterr()
    assert exchange(["upgrade-note", "acme.second", NOTE]) == 1
    assert "acme.second is in no release yet" in capsys.readouterr().err
    assert exchange(["upgrade-note", "acme.second", NOTE, "--release", "v0.1.0"]) == 1
    assert "acme.second is in no release v0.1.0 of this catalog" in capsys.readouterr().err
    assert (root / "entries/acme/second/entry.json").read_bytes() == before


def test_near_miss_a_release_tag_no_ledger_records_is_no_release(cut_before_release, capsys):
    root, git, digest = cut_before_release
    capsys.readouterr()
    assert exchange(["upgrade-note", ENTRY, NOTE, "--release", "v0.2.0"]) == 1
    assert f"{ENTRY} is in no release v0.2.0 of this catalog" in capsys.readouterr().err
