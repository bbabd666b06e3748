"""Issue #26 items 2 and 3, piece by piece: where a recording is read from (repository/recorded.py, held to
git's own answers on throwaway repositories), the refusal that names an edited recording and its `rm` step
applied literally, and which stray names a report shows (quoting.py: the display grammar, the scan, the place
that tells a withheld name apart)."""

from __future__ import annotations

import shlex
import subprocess
from pathlib import Path

import pytest

from judgment_exchange.catalog.directory import EntryCheck, FixtureCheck
from judgment_exchange.gate.replay import edited_refusal
from judgment_exchange.quoting import Withheld, cleared, redact, withheld, withheld_position
from judgment_exchange.refusal import Refusal, Report
from judgment_exchange.repository.recorded import History, Recording

from .repos import commit, git, git_env, write

FIXTURE = "entries/acme/vendors/fixtures/vendor-7"
RECORDED = {f"{FIXTURE}/case.json": b'{"id":7}', f"{FIXTURE}/profiles.json": b"[]",
            f"{FIXTURE}/preparation.json": b'{"p":1}', f"{FIXTURE}/sources.json": b"{}"}


def _files(root: Path) -> dict[str, bytes | None]:
    """The fixture's files as the gate would pass them (name -> bytes)."""
    return {p.name: p.read_bytes() for p in (root / FIXTURE).iterdir()}


def _repo(tmp_path: Path, files: dict[str, bytes] = RECORDED) -> tuple[Path, str]:
    root = tmp_path / "repo"
    root.mkdir()
    git(root, "init", "-q", "-b", "main")
    write(root, {"manifest.json": b"[]\n"})
    commit(root, "The catalog")
    write(root, files)
    return root, commit(root, "Record vendor-7")


def test_the_recording_is_the_commit_that_gave_preparation_json_its_bytes(tmp_path):
    root, recorded = _repo(tmp_path)
    write(root, {"README.md": b"a later commit\n"})
    commit(root, "a later commit not touching the fixture")
    write(root, {f"{FIXTURE}/case.json": b'{"id":8}'})
    with History(str(root)) as history:
        found = history.recording(FIXTURE, _files(root))
    assert found == Recording(recorded, False, ("case.json",), (), "", ())
    assert git(root, "log", "-1", "--format=%H", "--", f"{FIXTURE}/preparation.json") == recorded


def test_added_removed_and_changed_files_are_told_apart(tmp_path):
    root, recorded = _repo(tmp_path)
    (root / FIXTURE / "sources.json").unlink()
    write(root, {f"{FIXTURE}/binding.json": b"{}", f"{FIXTURE}/profiles.json": b"[1]"})
    with History(str(root)) as history:
        found = history.recording(FIXTURE, _files(root))
    assert (found.changed, found.removed, found.added) == (("profiles.json",), ("sources.json",), ("binding.json",))
    assert found.restored == ("sources.json", "profiles.json")


def test_near_miss_a_changed_preparation_json_is_no_edited_recording(tmp_path):
    root, _ = _repo(tmp_path)
    write(root, {f"{FIXTURE}/case.json": b'{"id":8}', f"{FIXTURE}/preparation.json": b'{"p":2}'})
    with History(str(root)) as history:
        assert history.recording(FIXTURE, _files(root)) is None


def test_near_miss_a_fixture_never_committed_and_no_repository_are_no_answer(tmp_path):
    root, _ = _repo(tmp_path)
    other = "entries/acme/other/fixtures/x"
    write(root, {f"{other}/preparation.json": b"{}", f"{other}/case.json": b"1"})   # never committed
    with History(str(root)) as history:
        assert history.recording(other, {"preparation.json": b"{}", "case.json": b"2"}) is None
    plain = tmp_path / "plain"
    plain.mkdir()
    with History(str(plain)) as history:
        assert history.recording(FIXTURE, {"preparation.json": b"{}"}) is None
    with History(None) as history:
        assert history.recording(FIXTURE, {"preparation.json": b"{}"}) is None


def test_with_a_base_holding_the_fixture_the_recording_is_the_base(tmp_path):
    root, recorded = _repo(tmp_path)
    git(root, "switch", "-q", "-c", "branch")
    write(root, {f"{FIXTURE}/case.json": b'{"id":8}'})
    commit(root, "an edit")
    with History(str(root), base="main") as history:
        found = history.recording(FIXTURE, _files(root))
    assert found.base and found.commit == git(root, "rev-parse", "main") and found.where == "the base"


def test_with_a_base_a_fixture_new_in_the_branch_is_read_from_the_branch(tmp_path):
    root = tmp_path / "repo"
    root.mkdir()
    git(root, "init", "-q", "-b", "main")
    write(root, {"manifest.json": b"[]\n"})
    commit(root, "The catalog")
    git(root, "switch", "-q", "-c", "branch")
    write(root, RECORDED)
    added = commit(root, "Record vendor-7")
    write(root, {f"{FIXTURE}/case.json": b'{"id":8}'})
    commit(root, "an edit")
    with History(str(root), base=git(root, "rev-parse", "main")) as history:
        found = history.recording(FIXTURE, _files(root))
    assert not found.base and found.commit == added and found.changed == ("case.json",)


def test_near_miss_with_a_base_a_re_recording_against_the_base_is_no_answer(tmp_path):
    root, _ = _repo(tmp_path)
    git(root, "switch", "-q", "-c", "branch")
    write(root, {f"{FIXTURE}/case.json": b'{"id":8}', f"{FIXTURE}/preparation.json": b'{"p":2}'})
    commit(root, "a re-recording")
    with History(str(root), base="main") as history:
        assert history.recording(FIXTURE, _files(root)) is None


def test_a_catalog_in_a_folder_of_its_repository_reads_under_that_folder(tmp_path):
    root = tmp_path / "repo"
    root.mkdir()
    git(root, "init", "-q", "-b", "main")
    write(root, {f"catalogs/demo/{k}": v for k, v in RECORDED.items()})
    recorded = commit(root, "a nested catalog")
    write(root, {f"catalogs/demo/{FIXTURE}/case.json": b'{"id":8}'})
    with History(str(root / "catalogs" / "demo")) as history:
        found = history.recording(FIXTURE, _files(root / "catalogs" / "demo"))
    assert found.commit == recorded and found.prefix == "catalogs/demo/"


def test_the_printed_fix_restores_changed_and_removed_files_and_removes_added_ones(tmp_path):
    """The refusal's fix applied literally (each backticked command, from the catalog's directory) leaves the
    fixture's files exactly the recording's, as git itself reads them."""
    root, recorded = _repo(tmp_path)
    (root / FIXTURE / "sources.json").unlink()
    write(root, {f"{FIXTURE}/binding.json": b"{}", f"{FIXTURE}/case.json": b'{"id":8}'})
    with History(str(root)) as history:
        found = history.recording(FIXTURE, _files(root))
    check = EntryCheck("acme.vendors", "entries/acme/vendors")
    fixture = FixtureCheck("vendor-7", FIXTURE, sorted(_files(root)), None, True)
    named = edited_refusal(Refusal("acquisition-invalid", FIXTURE, "the verifier's words", "acme.vendors"), check,
                           fixture, found)
    assert named.path == f"{FIXTURE}/case.json" and named.code == "acquisition-invalid"
    assert named.detail.startswith(f"an edited recording: case.json differs from the commit that recorded it "
                                   f"({recorded[:12]}) and sources.json is missing, which the commit that recorded it "
                                   f"({recorded[:12]}) holds and binding.json is not in")
    assert named.detail.endswith(": the verifier's words")
    commands = [part.split("`")[0] for part in named.fix.split("`")[1::2]]
    assert commands[0] == f"git checkout {recorded} -- {FIXTURE}/case.json {FIXTURE}/sources.json"
    assert commands[1] == f"rm {FIXTURE}/binding.json"
    for command in commands[:2]:
        subprocess.run(shlex.split(command), cwd=root, env=git_env(), check=True, capture_output=True)
    assert git(root, "status", "--porcelain") == ""


def test_an_unsafe_fixture_path_gets_what_to_inspect_not_a_command(tmp_path):
    found = Recording("a" * 40, False, ("case.json",), ())
    check = EntryCheck("acme.vendors", "entries/acme/vendors")
    path = "entries/acme/vendors/fixtures/Not_A_Fixture_Name"
    fixture = FixtureCheck("Not_A_Fixture_Name", path, ["case.json"], None, True)
    named = edited_refusal(Refusal("acquisition-invalid", path, "words", "acme.vendors"), check, fixture, found)
    assert "Not_A_Fixture_Name" not in named.fix and "git checkout " + "a" * 40 + " -- FILE" in named.fix


# --- stray names (issue #26 item 3) ------------------------------------------------------------------------

def _cleared(*refusals: Refusal) -> list[Refusal]:
    return cleared(Report(refusals=list(refusals))).refusals


@pytest.mark.parametrize("name", ["notes.txt", ".DS_Store", "Thumbs.db", "run.json", "my_notes-2.md"])
def test_a_stray_name_within_the_display_grammar_is_shown(name):
    [shown] = _cleared(Refusal("entry-file-unexpected", f"entries/acme/vendors/{name}", "remove it", "acme.vendors"))
    assert shown.path == f"entries/acme/vendors/{name}" and shown.detail == "remove it"
    [deep] = _cleared(Refusal("fixture-file-unexpected", f"entries/acme/vendors/fixtures/vendor-7/{name}", "x"))
    assert deep.path.endswith(f"/vendor-7/{name}")
    [beside] = _cleared(Refusal("catalog-stray-file", f"entries/{name}", "x"))
    assert beside.path == f"entries/{name}"


@pytest.mark.parametrize("name", ["my notes.txt", "..", "a..b", "x" * 64, "naïve.txt", "-rf", "ghp_" + "A1b2" * 9])
def test_near_miss_a_name_outside_the_grammar_or_flagged_by_the_scan_is_withheld(name):
    [hidden] = _cleared(Refusal("entry-file-unexpected", f"entries/acme/vendors/{name}", "remove it", "acme.vendors"))
    assert hidden.path == "entries/acme/vendors" and name not in hidden.detail
    assert hidden.detail.startswith(f"in <a name of {len(name)} characters> below this path (the name is not shown)")
    assert withheld_position(name, ["entry.json", name]) != ""


def test_near_miss_the_entry_s_own_path_keeps_its_grammar():
    """Publisher and name are the entry's id: the display grammar never widens them (an uppercase publisher is
    still withheld), and without the scan's clearance (a report not gathered by cleared) nothing is shown."""
    [upper] = _cleared(Refusal("entry-id-path", "entries/Acme/vendors/entry.json", "rename it"))
    assert upper.path == "entries"
    assert redact(Refusal("entry-file-unexpected", "entries/acme/vendors/notes.txt", "x"), Withheld()).path \
        == "entries/acme/vendors"


def test_a_withheld_name_is_told_apart_by_its_place_in_byte_order():
    names = ["README.md", "entry.json", "dialect.json", "fixtures", "b c", "a b"]
    assert withheld_position("a b", names).startswith(" (its name is withheld: it is the 2nd of the 6 names")
    assert withheld_position("b c", names).startswith(" (its name is withheld: it is the 3rd of the 6 names")
    assert withheld_position("README.md", names) == ""   # a shown name needs no place
    many = [f"n{i:02d} x" for i in range(23)]
    assert "the 11th of the 23" in withheld_position("n10 x", many)
    assert "the 22nd of the 23" in withheld_position("n21 x", many)
    assert "the 23rd of the 23" in withheld_position("n22 x", many)


def test_a_refusal_s_own_fix_is_cleared_like_its_detail():
    """A fix naming a fixture whose name the scan flags describes the name there too."""
    token = "xoxb-" + "1234567890-1234567890123-" + "a1B2c3D4e5F6g7H8i9J0k1L2"
    path = f"entries/acme/vendors/fixtures/{token}/case.json"
    shown = withheld([token])
    assert token in shown.flagged
    out = redact(Refusal("acquisition-invalid", path, "words", "acme.vendors", fix=f"git checkout C -- {path}"),
                 shown)
    assert token not in out.fix and token not in out.detail
