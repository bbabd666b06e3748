"""Issue #26 items 2, 3 and 5: the messages a contributor meets in the first hour name the contributor's own
files, and every fix they print works when applied literally.

Each case makes a contributor's entry from a real Runner export (tests/vectors/runner-exports) as
CONTRIBUTING.md's walkthrough does (`exchange new --from-run`, the human parts, `exchange fix`, a signed-off
commit on a branch of a clone of a bare upstream), plants one mistake, reads the refusal, applies the printed
fix literally (the command in its first backticks, or the file it says to remove), and checks the refusal is
gone and no new one appeared: the catalog passes again, as it did before the mistake.

- An edited recording (item 2): a value changed in a fixture's case.json is named as an edited recording,
  with the file, the commit holding the recording (found here by git's own `git log`, never by the code under
  test) and `git checkout COMMIT -- PATH`; a re-recording, which changes preparation.json, is not. A fixture
  that was not replayed (a dialect edited without `exchange fix`) is said so. `exchange fix` names a fixture
  whose pins are current but which no longer replays.
- A stray file (item 3): its name is shown when it passes the display grammar and the scan; a withheld name
  is told apart by its place in its directory, which `LC_ALL=C ls -A` finds; a Runner export copied into a
  fixture folder is no dead end.
- A bare commit id in a README (item 5): the fix is printed once, is not garbled, and each commit form it
  names passes.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import subprocess
from pathlib import Path

import pytest

from judgment_exchange.cli import main
from judgment_exchange.codes.shapes import SHAPES

from ..support.paths import VECTORS
from .repos import git, git_env

EXPORTS = VECTORS / "runner-exports"
FIRST = EXPORTS / "mapping-v2-before-calculators"      # case {"id": 7}
SECOND = EXPORTS / "mapping-v2-unsigned-parameters"    # case {"id": 7, "window": 86400, "region": "north"}
ENTRY = "entries/acme/vendors"
HUMAN = {"title": "Acme vendor intake: a vendor's registry record",
         "description": "Reads one vendor's registry record and derives the triage pack's intake facts.",
         "author": "Acme Data Team"}
README = "# acme.vendors\n\nReads a vendor's record from the vendor registry for the intake triage pack.\n"


# --- the contributor's repository --------------------------------------------------------------------------

def exchange(work: Path, capsys, *argv: str) -> tuple[int, str, str]:
    """`exchange ARGV` in `work` (in process, as the installed command runs it): status, stdout, stderr."""
    cwd = os.getcwd()
    os.chdir(work)
    try:
        capsys.readouterr()
        status = main(list(argv))
        out = capsys.readouterr()
    finally:
        os.chdir(cwd)
    return status, out.out, out.err


def report(work: Path, capsys, *extra: str) -> dict:
    status, out, _ = exchange(work, capsys, "check", "--no-history", "--format", "json", *extra)
    value = json.loads(out)
    assert status == (0 if value["result"] == "pass" else 1)
    return value


def _recorded(root: Path, export: Path, capsys) -> Path:
    """A bare upstream holding an empty catalog, a clone, and a branch adding acme.vendors from `export` as the
    walkthrough does, committed with sign-off; returns the clone."""
    seed = root / "seed"
    seed.mkdir(parents=True)
    git(seed, "init", "-q", "-b", "main")
    (seed / "manifest.json").write_bytes(b"[]\n")
    git(seed, "add", "-A")
    git(seed, "commit", "-q", "-s", "-m", "The catalog")
    git(root, "clone", "-q", "--bare", str(seed), str(root / "upstream.git"))
    work = root / "work"
    git(root, "clone", "-q", str(root / "upstream.git"), str(work))
    git(work, "switch", "-q", "-c", "add-acme-vendors")
    status, out, err = exchange(work, capsys, "new", "acme.vendors", "--from-run", str(export / "run.json"))
    assert status == 0, out + err
    entry = work / ENTRY / "entry.json"
    value = json.loads(entry.read_bytes())
    value.update(HUMAN)
    entry.write_text(json.dumps(value, indent=2) + "\n", encoding="utf-8")
    (work / ENTRY / "README.md").write_text(README, encoding="utf-8")
    status, out, err = exchange(work, capsys, "fix")
    assert status == 0, out + err
    git(work, "add", "-A")
    git(work, "commit", "-q", "-s", "-m", "Add acme.vendors")
    return work


@pytest.fixture(scope="module")
def recorded(tmp_path_factory):
    """One recorded repository per export, made once and copied for each test."""
    made: dict[str, Path] = {}

    def copy(export: Path, to: Path, capsys) -> Path:
        if export.name not in made:
            made[export.name] = _recorded(tmp_path_factory.mktemp(export.name), export, capsys)
        shutil.copytree(made[export.name].parent, to, symlinks=True)
        work = to / "work"
        git(work, "remote", "set-url", "origin", str(to / "upstream.git"))
        return work

    return copy


def _fixture(work: Path) -> Path:
    (fixture,) = (work / ENTRY / "fixtures").iterdir()
    return fixture


def _codes(value: dict) -> list[str]:
    return sorted(r["code"] for r in value["refusals"])


def _backticked(fix: str) -> str:
    """The first command a fix prints between backticks: what a person copies."""
    found = re.search(r"`([^`]+)`", fix)
    assert found, fix
    return found.group(1)


def _run_literally(work: Path, command: str) -> None:
    argv = shlex.split(command)
    assert argv[0] in ("git", "rm"), command
    done = subprocess.run(argv, cwd=work, env=git_env(), capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr


def _recorded_at(work: Path, fixture: Path) -> str:
    """The commit git itself says last changed the fixture's preparation.json (independent of the gate)."""
    rel = fixture.relative_to(work).as_posix()
    return git(work, "log", "-1", "--format=%H", "--", f"{rel}/preparation.json")


# --- item 2: an edited recording ------------------------------------------------------------------------------

EDITS = {  # export, the member of case.json changed, the verifier's answer to the edited case
    "a-parameter-the-reading-uses": (SECOND, ('"region":"north"', '"region":"south"'), "preparation-differs"),
    "the-id-the-receipt-commits": (FIRST, ('"id":7', '"id":8'), "acquisition-invalid"),
}


@pytest.mark.parametrize("committed", [False, True], ids=["in-the-working-tree", "committed"])
@pytest.mark.parametrize("edit", sorted(EDITS))
def test_an_edited_case_is_named_and_its_printed_fix_restores_it(recorded, tmp_path, capsys, edit, committed):
    export, (before, after), code = EDITS[edit]
    work = recorded(export, tmp_path / "repo", capsys)
    assert report(work, capsys)["result"] == "pass"
    fixture = _fixture(work)
    at = _recorded_at(work, fixture)
    case = fixture / "case.json"
    assert before in case.read_text()
    case.write_text(case.read_text().replace(before, after))
    if committed:
        git(work, "commit", "-q", "-s", "-am", "an edit of the recording")
    value = report(work, capsys)
    [refusal] = value["refusals"]
    rel = case.relative_to(work).as_posix()
    assert refusal["code"] == code and refusal["path"] == rel
    assert refusal["detail"].startswith(f"an edited recording: case.json differs from the commit that recorded it "
                                        f"({at[:12]}), while its preparation.json is the recorded one")
    assert refusal["fix"].startswith(f"A recording is never edited: restore it with `git checkout {at} -- {rel}`")
    assert f"--name {fixture.name} --replace" in refusal["fix"]
    assert "against the current dialect document" not in refusal["fix"]
    _, text, _ = exchange(work, capsys, "check", "--no-history")
    assert f"refused {code}: acme.vendors {rel}: an edited recording" in text

    _run_literally(work, _backticked(refusal["fix"]))
    assert report(work, capsys)["refusals"] == []


def test_an_edited_case_is_named_against_the_base_when_the_base_holds_the_fixture(recorded, tmp_path, capsys):
    """With --base auto and the fixture already on upstream's main: the recording is the base's."""
    work = recorded(SECOND, tmp_path / "repo", capsys)
    git(work, "push", "-q", "origin", "add-acme-vendors:main")
    git(work, "fetch", "-q", "origin")
    git(work, "switch", "-q", "-c", "an-edit", "origin/main")
    base = git(work, "rev-parse", "origin/main")
    case = _fixture(work) / "case.json"
    case.write_text(case.read_text().replace('"region":"north"', '"region":"south"'))
    value = report(work, capsys, "--base", "auto")
    [refusal] = value["refusals"]
    rel = case.relative_to(work).as_posix()
    assert refusal["code"] == "preparation-differs" and refusal["path"] == rel
    assert refusal["detail"].startswith(f"an edited recording: case.json differs from the base ({base[:12]})")
    assert _backticked(refusal["fix"]) == f"git checkout {base} -- {rel}"
    _run_literally(work, _backticked(refusal["fix"]))
    assert report(work, capsys, "--base", "auto")["refusals"] == []


def test_a_removed_file_is_named_and_the_printed_fix_brings_it_back(recorded, tmp_path, capsys):
    """A file the recording holds and the tree lacks (sources.json, which a fixture may omit, so no directory
    check stops the replay) is named as missing, and the same git checkout restores it."""
    work = recorded(FIRST, tmp_path / "repo", capsys)
    fixture = _fixture(work)
    at = _recorded_at(work, fixture)
    (fixture / "sources.json").unlink()
    value = report(work, capsys)
    rel = f"{fixture.relative_to(work).as_posix()}/sources.json"
    [refusal] = [r for r in value["refusals"] if r["path"] == rel]
    assert refusal["detail"].startswith(f"an edited recording: sources.json is missing, which the commit that "
                                        f"recorded it ({at[:12]}) holds, while its preparation.json is the "
                                        "recorded one")
    assert _codes(value) == sorted([refusal["code"], "manifest-fixtures-mismatch"])   # the row lists it too
    _run_literally(work, _backticked(refusal["fix"]))
    assert report(work, capsys)["refusals"] == []


def test_near_miss_a_changed_preparation_is_not_an_edited_recording(recorded, tmp_path, capsys):
    """preparation.json changed too (as a re-recording changes it): the gate refuses what it refuses (here the
    digest pin), never as an edited recording, and says the fixture was not replayed."""
    work = recorded(SECOND, tmp_path / "repo", capsys)
    fixture = _fixture(work)
    case = fixture / "case.json"
    case.write_text(case.read_text().replace('"region":"north"', '"region":"south"'))
    prep = fixture / "preparation.json"
    prep.write_bytes(prep.read_bytes().replace(b'"reason":"copied"', b'"reason":"copiex"', 1))
    value = report(work, capsys)
    assert "preparation-digest-mismatch" in _codes(value)
    assert not any("edited recording" in r["detail"] or "git checkout" in (r["fix"] or "") for r in value["refusals"])
    assert any("1 fixture(s) not replayed" in n for n in value.get("notes", [])), value.get("notes")


def test_near_miss_a_re_recording_is_never_named_edited(recorded, tmp_path, capsys):
    """The walkthrough's re-recording (a new dialect, `fixture add --replace`) changes every file of the fixture,
    preparation.json with them: the gate passes it, and names nothing edited on the way."""
    work = recorded(FIRST, tmp_path / "repo", capsys)
    fixture = _fixture(work)
    mapping = json.loads((SECOND / "run.json").read_bytes())["run"]["input"]["source"]["mapping"]
    (work / ENTRY / "dialect.json").write_text(json.dumps(mapping, indent=2) + "\n", encoding="utf-8")
    status, out, err = exchange(work, capsys, "fixture", "add", ENTRY, str(SECOND / "run.json"), "--name",
                                fixture.name, "--replace")
    assert status == 0, out + err
    status, out, err = exchange(work, capsys, "fix")
    assert status == 0 and "no longer replay" not in err, out + err
    assert report(work, capsys)["refusals"] == []


def test_outside_a_repository_the_refusal_keeps_the_verifiers_words(recorded, tmp_path, capsys):
    """No history to read (a catalog outside any git repository): no answer, no failure; the registry's fix."""
    work = recorded(SECOND, tmp_path / "repo", capsys)
    shutil.rmtree(work / ".git")
    case = _fixture(work) / "case.json"
    case.write_text(case.read_text().replace('"region":"north"', '"region":"south"'))
    [refusal] = report(work, capsys)["refusals"]
    assert refusal["code"] == "preparation-differs" and "edited recording" not in refusal["detail"]
    assert refusal["path"] == _fixture(work).relative_to(work).as_posix()
    assert "git checkout" not in refusal["fix"] and "restore it from git" in refusal["fix"]


def test_exchange_fix_names_an_edited_recording_whose_pins_are_current(recorded, tmp_path, capsys):
    work = recorded(SECOND, tmp_path / "repo", capsys)
    fixture = _fixture(work)
    at = _recorded_at(work, fixture)
    case = fixture / "case.json"
    case.write_text(case.read_text().replace('"region":"north"', '"region":"south"'))
    status, out, err = exchange(work, capsys, "fix")
    rel = case.relative_to(work).as_posix()
    assert status == 0 and "every pin is up to date" in out     # the pins are right: fix's own verdict
    assert f"exchange fix: {rel}: preparation-differs: an edited recording: case.json differs" in err
    assert "1 fixture(s) no longer replay though their pins are current" in err
    assert f"git checkout {at} -- {rel}" in err     # named against the commit that recorded it
    _run_literally(work, _backticked(err.split("A recording is never edited: ", 1)[1]))
    status, out, err = exchange(work, capsys, "fix")
    assert status == 0 and err == "", err
    assert report(work, capsys)["refusals"] == []


def test_near_miss_exchange_fix_is_quiet_when_every_fixture_replays(recorded, tmp_path, capsys):
    work = recorded(SECOND, tmp_path / "repo", capsys)
    status, out, err = exchange(work, capsys, "fix")
    assert status == 0 and out.startswith("exchange fix: every pin is up to date") and err == ""


def test_a_dialect_edited_without_fix_says_the_fixture_was_not_replayed(recorded, tmp_path, capsys):
    """The printed way on: the note names exchange fix; fix names the fixture to re-record with its command;
    re-recording it as printed (the run made under the new dialect) and fixing again passes."""
    work = recorded(FIRST, tmp_path / "repo", capsys)
    fixture = _fixture(work)
    mapping = json.loads((SECOND / "run.json").read_bytes())["run"]["input"]["source"]["mapping"]
    (work / ENTRY / "dialect.json").write_text(json.dumps(mapping, indent=2) + "\n", encoding="utf-8")
    value = report(work, capsys)
    assert "dialect-digest-mismatch" in _codes(value) and value["replayed"] == 0
    [note] = [n for n in value["notes"] if "not replayed" in n]
    assert note.startswith("acme.vendors: 1 fixture(s) not replayed: entry.json's dialect.digest is not dialect.json's")
    assert "run `exchange fix`" in note
    _, text, _ = exchange(work, capsys, "check", "--no-history")
    assert f"note: {note}" in text
    status, out, err = exchange(work, capsys, "fix")
    assert status == 1 and f"exchange fix: {fixture.relative_to(work).as_posix()}: " in err
    # the command with the entry and the fixture filled in; the run export is the contributor's to name
    printed = re.search(r"\((exchange fixture add \S+ RUN_EXPORT --name \S+ --replace)\)", err).group(1)
    assert printed == f"exchange fixture add {ENTRY} RUN_EXPORT --name {fixture.name} --replace"
    argv = shlex.split(printed.replace("RUN_EXPORT", str(SECOND / "run.json")))
    status, out, err = exchange(work, capsys, *argv[1:])
    assert status == 0, out + err
    assert exchange(work, capsys, "fix")[0] == 0
    assert report(work, capsys)["refusals"] == []


# --- item 3: a stray file ------------------------------------------------------------------------------------

def test_stray_files_are_named_and_removing_them_as_printed_passes(recorded, tmp_path, capsys):
    work = recorded(FIRST, tmp_path / "repo", capsys)
    for name in ("notes.txt", ".DS_Store"):
        (work / ENTRY / name).write_text("a stray file\n")
    value = report(work, capsys)
    strays = [r for r in value["refusals"] if r["code"] == "entry-file-unexpected"]
    assert sorted(r["path"] for r in strays) == [f"{ENTRY}/.DS_Store", f"{ENTRY}/notes.txt"]
    assert _codes(value) == ["entry-file-unexpected"] * 2
    assert all("withheld" not in r["detail"] and r["fix"].startswith("Remove the file") for r in strays)
    for refusal in strays:
        os.remove(work / refusal["path"])                     # the fix: remove the file the refusal names
    assert report(work, capsys)["refusals"] == []


def test_withheld_stray_names_are_told_apart_and_found_by_their_place(recorded, tmp_path, capsys):
    """Names outside the display grammar (a space) and a name the scan flags (a token's shape, which the display
    grammar admits) are withheld; each is told apart by its place among its directory's names in byte order,
    which `LC_ALL=C ls -A` lists, and removing the name at that place passes."""
    work = recorded(FIRST, tmp_path / "repo", capsys)
    token = "ghp_" + "R7q2Lk9Xw3Vb8Nc4Mz6Tp1Hy5Jd0Fs2Ga8Ku"       # a GitHub token's shape, no real token
    names = ["my notes.txt", "other notes.txt", f"{token}.txt"]
    for name in names:
        (work / ENTRY / name).write_text("a stray file\n")
    value = report(work, capsys)
    strays = [r for r in value["refusals"] if r["code"] == "entry-file-unexpected"]
    assert len(strays) == 3 and len({r["detail"] for r in strays}) == 3   # three refusals, told apart
    for _, text, _ in [exchange(work, capsys, "check", "--no-history", "--format", f) for f in ("text", "json")]:
        assert not any(name in text for name in names) and token not in text
    status, out, err = exchange(work, capsys, "fix")                  # fix's blockers name them the same way
    assert status == 1 and "entry-file-unexpected" in err
    assert not any(name in out + err for name in names) and token not in out + err, out + err
    listing = subprocess.run(["ls", "-A", ENTRY], cwd=work, env={**git_env(), "LC_ALL": "C"}, capture_output=True,
                             text=True, check=True).stdout.splitlines()
    doomed = []
    for refusal in strays:
        assert refusal["path"] == ENTRY and "(the name is not shown)" in refusal["detail"]
        place = re.search(r"it is the (\d+)(st|nd|rd|th) of the (\d+) names in its directory in byte order, as "
                          r"`LC_ALL=C ls -A` lists them", refusal["detail"])
        assert place and int(place.group(3)) == len(listing)
        doomed.append(listing[int(place.group(1)) - 1])
    assert sorted(doomed) == sorted(names)
    for name in doomed:
        os.remove(work / ENTRY / name)
    assert report(work, capsys)["refusals"] == []


def test_attack_a_token_named_stray_file_never_reaches_manifests_or_fixs_lines(recorded, tmp_path, capsys):
    """exchange fix's blockers and exchange manifest's unpinnable entries are printed outside the gate's report:
    they are cleared as it is. The premise: the token's name passes the display grammar, only the scan stops it."""
    work = recorded(FIRST, tmp_path / "repo", capsys)
    token = "ghp_" + "R7q2Lk9Xw3Vb8Nc4Mz6Tp1Hy5Jd0Fs2Ga8Ku"       # a GitHub token's shape, no real token
    (work / ENTRY / f"{token}.txt").write_text("a stray file\n")
    (work / ENTRY / "notes.txt").write_text("a stray file\n")
    status, out, err = exchange(work, capsys, "fix")
    assert status == 1 and f"{ENTRY}/notes.txt: entry-file-unexpected" in err and token not in out + err
    os.remove(work / ENTRY / "entry.json")                                 # no row can pin the entry now
    status, out, err = exchange(work, capsys, "manifest", "--write")
    assert status == 1 and f"exchange manifest: {ENTRY}: not an entry a row can pin" in err
    assert f"entry-file-unexpected: {ENTRY}/notes.txt" in err and token not in out + err, err


def test_near_miss_an_unpinnable_entry_names_its_refusals_paths(recorded, tmp_path, capsys):
    work = recorded(FIRST, tmp_path / "repo", capsys)
    (work / ENTRY / "notes.txt").write_text("a stray file\n")
    os.remove(work / ENTRY / "entry.json")
    status, _, err = exchange(work, capsys, "manifest", "--write")
    assert status == 1 and f"entry-file-unexpected: {ENTRY}/notes.txt" in err, err


def test_a_runner_export_copied_into_a_fixture_folder_is_no_dead_end(recorded, tmp_path, capsys):
    """The export's files are named, each with the way to make a fixture from an export; no manifest refusal
    sends the contributor to exchange fix (which a stray file stops); removing the files as printed passes."""
    work = recorded(SECOND, tmp_path / "repo", capsys)
    fixture = _fixture(work)
    for name in ("run.json", "release-digest.txt", "profiles.json"):
        shutil.copy(SECOND / name, fixture / name)
    value = report(work, capsys)
    rel = fixture.relative_to(work).as_posix()
    strays = {r["path"]: r for r in value["refusals"] if r["code"] == "fixture-file-unexpected"}
    assert set(strays) == {f"{rel}/run.json", f"{rel}/release-digest.txt"}
    assert all("exchange fixture add ENTRY_DIR RUN_EXPORT" in r["detail"] for r in strays.values())
    assert not any(r["code"].startswith("manifest-") for r in value["refusals"]), _codes(value)
    assert not any("exchange fix" in (r["fix"] or "") for r in value["refusals"]), _codes(value)
    others = [r for r in value["refusals"] if r["code"] != "fixture-file-unexpected"]
    assert all(r["path"] in strays for r in others), others      # the scan's findings are in the same files
    status, _, err = exchange(work, capsys, "fix")
    assert status == 1 and f"{rel}/run.json: fixture-file-unexpected" in err
    for path in strays:
        os.remove(work / path)
    assert report(work, capsys)["refusals"] == []
    assert exchange(work, capsys, "fix")[0] == 0


def test_manifest_write_never_lists_a_stray_file(recorded, tmp_path, capsys):
    work = recorded(FIRST, tmp_path / "repo", capsys)
    fixture = _fixture(work)
    (fixture / "notes.txt").write_text("a stray file\n")
    assert exchange(work, capsys, "manifest", "--write")[0] == 0
    [row] = json.loads((work / "manifest.json").read_bytes())
    assert row["fixtures"][0]["files"] == ["case.json", "preparation.json", "profiles.json", "sources.json"]
    assert _codes(report(work, capsys)) == ["fixture-file-unexpected"]


def test_near_miss_a_row_listing_a_file_the_fixture_lacks_is_still_refused(recorded, tmp_path, capsys):
    work = recorded(FIRST, tmp_path / "repo", capsys)
    rows = json.loads((work / "manifest.json").read_bytes())
    rows[0]["fixtures"][0]["files"].append("binding.json")
    (work / "manifest.json").write_text(json.dumps(rows, indent=2) + "\n")
    assert _codes(report(work, capsys)) == ["manifest-fixtures-mismatch"]


# --- item 5: a bare commit id in a README ---------------------------------------------------------------------

COMMIT = "fc311549379e56c38e5133663a632964d9310ba0"
FORMS = {  # each form of a commit the fix names, as a person writes it from the fix's words
    "a link": f"https://github.com/Judgment-Pack/judgment-runner/commit/{COMMIT}",
    "a reader locator": f"Judgment-Pack/judgment-runner/tools/verify.py@{COMMIT}",
    "its first 12 characters unquoted": COMMIT[:12],
}


@pytest.mark.parametrize("form", sorted(FORMS))
def test_a_bare_commit_in_a_readme_and_each_form_the_fix_names(recorded, tmp_path, capsys, form):
    work = recorded(FIRST, tmp_path / "repo", capsys)
    readme = work / ENTRY / "README.md"
    readme.write_text(README + f"\nRecorded with the Runner at commit {COMMIT}.\n")
    value = report(work, capsys)
    [refusal] = value["refusals"]
    assert refusal["code"] == "secret-high-entropy-hex" and refusal["path"] == f"{ENTRY}/README.md"
    assert "fix" not in refusal["detail"] and COMMIT not in json.dumps(value)
    fix = refusal["fix"]
    for words in ("https://github.com/OWNER/REPO/commit/<hex>", "OWNER/NAME/PATH@<hex>",
                  "its first 12 characters unquoted", "docs/scanning.md"):
        assert words in fix, fix
    _, text, _ = exchange(work, capsys, "check", "--no-history")
    assert text.count(fix) == 1 and text.count("high-entropy hexadecimal string") == 1   # printed once
    readme.write_text(README + f"\nRecorded with the Runner at commit {FORMS[form]}.\n")
    assert report(work, capsys)["refusals"] == []


def test_near_miss_a_short_commit_in_quotes_is_still_judged(recorded, tmp_path, capsys):
    """docs/scanning.md: a quoted hex string is detect-secrets' to judge at any length, so the fix says unquoted."""
    work = recorded(FIRST, tmp_path / "repo", capsys)
    (work / ENTRY / "README.md").write_text(README + f'\nRecorded at commit "{COMMIT[:12]}".\n')
    assert _codes(report(work, capsys)) == ["secret-high-entropy-hex"]


def test_no_scan_fix_is_garbled():
    """Each hint says each thing once: no "remove it; ...; remove it", no doubled separators or parentheses."""
    for code, shape in SHAPES.items():
        assert shape.hint.count("remove it") <= 1, (code, shape.hint)
        assert ";;" not in shape.hint and "; ;" not in shape.hint and "((" not in shape.hint, (code, shape.hint)
        assert shape.hint.count("(") == shape.hint.count(")"), (code, shape.hint)
