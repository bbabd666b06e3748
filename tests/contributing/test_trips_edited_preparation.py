"""What a contributor still trips on, issue #34 item 7: a preparation.json edited by hand, checked without --base.

The refusal is `preparation-digest-mismatch`, whose registry fix is "Run `exchange fix`"; over an edited recording
`exchange fix` refuses (it replays first, and never re-pins an edited recording). So where the commit that recorded
the fixture holds the preparation.json the pin names and every other file of the fixture as it is, plain
`exchange check` gives the fix `--base auto` gives: restore it from that commit (the `git checkout` printed whole),
or re-record. The printed command, applied as printed, passes the gate. A pin corrupted over an unedited recording
keeps "Run `exchange fix`", and so does a fixture whose other files changed too.
"""

from __future__ import annotations

import json
import shlex
import subprocess
from pathlib import Path

import pytest

from judgment_exchange.cli import main as exchange

from ..fix.test_fix import set_member
from ..fix.test_fix_replays_first import FIXTURE, VENDORS, edit_preparation
from ..support.catalog import CatalogBuilder
from ..support.gitrepo import GitRepo, git_identity

RUN_FIX = "Recompute preparationDigest from preparation.json. Run `exchange fix`."


@pytest.fixture(autouse=True)
def identity(monkeypatch) -> None:
    git_identity(monkeypatch, "Trip Test", "trip-test@example.invalid")


@pytest.fixture
def recorded(tmp_path, monkeypatch) -> tuple[Path, GitRepo, str]:
    """The catalog committed (the commit that recorded the fixture); the working directory is the catalog."""
    builder = CatalogBuilder(tmp_path / "catalog")
    builder.add_runner_entry()
    builder.write_manifest()
    root = builder.root
    (root / "releases.json").write_bytes(b"[]\n")
    git = GitRepo(root)
    git.git("add", "-A")
    git.git("commit", "-q", "-m", "acme.vendors recorded")
    monkeypatch.chdir(root)
    return root, git, git.git("rev-parse", "HEAD")


def _check(capsys, *extra: str) -> tuple[int, str]:
    capsys.readouterr()
    status = exchange(["check", *extra])
    return status, capsys.readouterr().out


def _mismatch(out: str) -> tuple[str, str]:
    """The preparation-digest-mismatch's line and the fix line under it."""
    lines = out.splitlines()
    [at] = [i for i, line in enumerate(lines) if line.startswith("refused preparation-digest-mismatch: ")]
    assert lines[at + 1].startswith("  fix: ")
    return lines[at], lines[at + 1][len("  fix: "):]


def _restore_command(fix: str) -> str:
    [command] = [part for part in fix.split("`")[1::2] if part.startswith("git checkout ")]
    return command


@pytest.mark.parametrize("committed", [False, True], ids=["uncommitted", "committed"])
def test_an_edited_preparation_is_told_to_restore_and_the_printed_command_passes(recorded, capsys, committed):
    root, git, recording = recorded
    edit_preparation(root)
    if committed:  # the edit committed: the recording is still the commit that recorded the fixture, not the edit's
        git.git("commit", "-q", "-am", "an edit")
    status, out = _check(capsys)
    line, fix = _mismatch(out)
    assert status == 1 and "Run `exchange fix`" not in fix
    assert line.endswith(f"the commit that recorded the fixture ({recording[:12]}) holds the preparation.json "
                         "preparationDigest pins, and every other file of the fixture as it is now")
    command = _restore_command(fix)
    assert command == f"git checkout {recording} -- {FIXTURE.as_posix()}/preparation.json"
    assert fix.endswith(f"or re-record the fixture from a Runner run (`exchange fixture add {VENDORS.as_posix()} "
                        "RUN_EXPORT --name vendor-7 --replace`).")
    status, out = _check(capsys, "--format", "json")
    [refusal] = [r for r in json.loads(out)["refusals"] if r["code"] == "preparation-digest-mismatch"]
    assert refusal["fix"] == fix
    # exchange fix, the registry's fix, refuses this fixture: the reason for the new one
    assert exchange(["fix"]) == 1
    subprocess.run(shlex.split(command), cwd=root, check=True, capture_output=True)  # applied as printed
    status, out = _check(capsys)
    assert status == 0 and "result: pass" in out, out


def test_near_miss_a_corrupted_pin_over_an_unedited_recording_keeps_exchange_fix(recorded, capsys):
    root, git, recording = recorded
    set_member(root / VENDORS / "entry.json", ("fixtures", 0, "preparationDigest"), "sha256:" + "0" * 64)
    status, out = _check(capsys)
    line, fix = _mismatch(out)
    assert status == 1 and fix == RUN_FIX and "recorded the fixture" not in line
    assert exchange(["fix"]) == 0
    assert _check(capsys)[0] == 0


def test_near_miss_another_file_of_the_fixture_changed_too_keeps_the_registrys_fix(recorded, capsys):
    """Not preparation.json alone: a recording copied in by hand looks so, and `exchange fix` is the one to judge
    it by replaying it."""
    root, git, recording = recorded
    edit_preparation(root)
    case = root / FIXTURE / "case.json"
    case.write_bytes(case.read_bytes() + b"\n")
    status, out = _check(capsys, "--no-history")
    line, fix = _mismatch(out)
    assert status == 1 and fix == RUN_FIX and "recorded the fixture" not in line


def test_near_miss_no_repository_keeps_the_registrys_fix(tmp_path, monkeypatch, capsys):
    builder = CatalogBuilder(tmp_path / "catalog")
    builder.add_runner_entry()
    builder.write_manifest()
    edit_preparation(builder.root)
    monkeypatch.chdir(builder.root)
    status, out = _check(capsys, "--no-history")
    line, fix = _mismatch(out)
    assert status == 1 and fix == RUN_FIX


def test_near_miss_with_base_the_pull_requests_wording_stays(recorded, capsys):
    root, git, recording = recorded
    git.git("switch", "-q", "-c", "change")
    edit_preparation(root)
    status, out = _check(capsys, "--base", "main", "--no-history")
    line, fix = _mismatch(out)
    assert status == 1 and fix.startswith("preparation.json itself changed against the base")
    assert line.endswith("; preparation.json changed against the base")
