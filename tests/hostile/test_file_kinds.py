"""Issue #25 item 5: a file of the wrong kind gives a named refusal or exit 4, never a traceback.

The attack: `manifest.json` or `releases.json` made a directory or a FIFO. `exchange check` with history,
`check --base` and `exchange release` raised TreeError from the history check's reading of the ledger
(gate/identity.py), exit 1 with nothing on standard output under `--format json`; a consumer's
`release-check`, `show`, `index` and `upgrade-diff` said exit 4, "the repository is incomplete or damaged",
of an intact repository whose release holds a tree where manifest.json belongs.

The matrix (docs/reports.md, "A file of the wrong kind", says which outcome each cell has):

- **Working-tree readers** — `check` in each mode that reads the working tree (history on, `--no-history`,
  `--base`, `--release-tag`, `--entry`), `fix`, `manifest`, and a consumer's lock file (`release-check`,
  `show`, `upgrade-diff`, `index` with `--lock`) — × {directory (a regular file for `entries`), FIFO,
  symlink, character device (os.mknod, where allowed), permission denied (open and scandir patched for the
  one path: root ignores mode bits)}.
- **Commit readers** — `release` (HEAD's committed tree), `check --commit` (alone, and with `--base` as the
  trusted gate judges a pull request's head), `release-check`, `show`,
  `index`, `upgrade-diff` (the target; and the release being left, for the files it reads of it) × {a tree
  (a blob for `entries`), a symlink, a gitlink, missing}, each commit written by `git fast-import` (modes
  040000, 120000 and 160000, or the path deleted) on the release v0.1.0.
- **The files**: the catalog's own — `manifest.json`, `releases.json`, `skips.json`, `verifier-pin.json`,
  `entries/` and an entry's `entry.json` — wherever the command reads them: `fix` and `manifest` read
  manifest.json, entries/ and entry.json; `check --no-history` does not read releases.json; of the release
  it leaves, `upgrade-diff` reads manifest.json and the entries' directories (an entry.json of another kind
  there is listed by its type, as any file of that release). And the lock file.

Each cell's outcome is stated by hand below: a named refusal (exit 1, the JSON report whole: one object
naming the code at the file's path) or exit 4 (one line on standard error and, with `--format json`,
exactly one JSON object, `{"result": "error", ...}`). Near misses: every command on the same files as
regular files passes. Everything runs in this process (`judgment_exchange.cli.main`); the repositories
are built once for the module and copied.
"""

from __future__ import annotations

import json
import os
import shutil
import stat
from pathlib import Path

import pytest

from judgment_exchange.cli import main
from judgment_exchange.releasing.release import make_release

from ..support.gitrepo import GitRepo, git_identity
from ..support.simulator import CatalogSimulator
from .denial import deny

MANIFEST, LEDGER, SKIPS, PIN, ENTRIES = "manifest.json", "releases.json", "skips.json", "verifier-pin.json", "entries"
ENTRY_JSON = "entries/acme/vendors/entry.json"
FILES = (MANIFEST, LEDGER, SKIPS, PIN, ENTRIES, ENTRY_JSON)
PIN_BYTES = (b'{"pinVersion": 1, "reader": "Judgment-Pack/judgment-pack-spec/tools/dialect_verify.py@f821757", '
             b'"run": ["python3", "{path}"]}\n')  # an abbreviated commit: never fetched, the bundled reader replays
DATE = "2026-10-14"

pytestmark = pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs on this platform")


def _can_mknod(where: Path) -> bool:
    try:
        os.mknod(where / "probe", stat.S_IFCHR | 0o600, os.makedev(1, 3))
    except (OSError, AttributeError):
        return False
    (where / "probe").unlink()
    return True


# --- the repositories, built once ------------------------------------------------------------------------


class World:
    """`base`: a catalog (one Runner entry, skips.json [], a verifier pin) released as v0.1.0 by `exchange
    release`, its working tree clean on main. `commits`: a copy of it holding, for each (file, kind), a
    commit C on v0.1.0 whose tree has the file made that kind (`shaped`), and on C the release commit W
    adding C's ledger row as `exchange release` writes it, tagged v0.2.N (`tags`: the tag names a release
    whose only fault is the file), after a later release v1.0.0 on main; `untagged`, the same without the
    tags v0.2.N (the gate's own cells). `lock`: a lock of v0.1.0 of
    `commits`, written by release-check. Commits are written by two `git fast-import` streams."""

    def __init__(self, root: Path) -> None:
        history = CatalogSimulator(root / "base", work_path=root / "work",
                                   files={LEDGER: b"[]\n", SKIPS: b"[]\n", PIN: PIN_BYTES})
        history.builder.add_runner_entry("acme.vendors")
        history.release_by_command("v0.1.0", message="snapshot")
        self.base = history.repo
        self.released = self.base.rev("v0.1.0^{commit}")
        self.commits = root / "commits"
        shutil.copytree(self.base.path, self.commits, symlinks=True)
        repo = GitRepo(self.commits)
        # v1.0.0 on main first: since issue #34 item 3 every release tag below the one being made counts for
        # artifact identity wherever its commit is (RFC 0019 §7), so the broken side releases v0.2.N, made
        # after it, would refuse it (they are what each cell checks, not what v1.0.0 is made from)
        readme = self.commits / "entries/acme/vendors/README.md"
        readme.write_text(readme.read_text(encoding="utf-8") + "\nA second paragraph.\n", encoding="utf-8")
        assert main(["fix", "--catalog", str(self.commits)]) == 0
        repo.git("commit", "-q", "-am", "a second paragraph")
        assert make_release(str(self.commits), "v1.0.0").status == 0
        cells = [(file, kind) for file in FILES for kind in COMMIT_KINDS[file]]
        self.tags = {cell: f"v0.2.{n}" for n, cell in enumerate(cells)}
        changed = _imported(repo, root / "marks", [self._change(n + 1, *cell) for n, cell in enumerate(cells)])
        self.shaped = {cell: changed[n] for n, cell in enumerate(cells)}
        ledger = json.loads((self.base.path / LEDGER).read_bytes())
        repo.git("update-ref", "-d", "refs/shaped/changes")
        repo.fast_import(b"".join(self._release(file, self.shaped[(file, kind)], self.tags[(file, kind)], ledger)
                                  for file, kind in cells) + b"done\n")
        self.lock = root / "lock.json"
        assert main(["release-check", str(self.commits), "v0.1.0", "--lock", str(self.lock)]) == 0
        for built in (self.base, repo):  # few files to copy (and for pytest to remove): one pack, no sample hooks
            built.git("repack", "-a", "-d", "-q")
            shutil.rmtree(built.git_dir / "hooks")
        # The gate's cells (`check --commit`) judge a shaped commit C itself, in a copy holding no side tag v0.2.N:
        # every tag in the grammar counts there as a previous release (§7; issue #34 item 3), so each broken
        # side release would refuse every commit of the copy beside the cell's own refusal.
        self.untagged = root / "untagged"
        shutil.copytree(self.commits, self.untagged, symlinks=True)
        GitRepo(self.untagged).git("tag", "-d", *self.tags.values())

    def _change(self, mark: int, file: str, kind: str) -> bytes:
        """C: v0.1.0's tree with `file` removed and, unless missing, made `kind` (a fast-import command)."""
        what = {"tree": f"M 100644 inline {file}/inside\n{_data(b'not what belongs here')}",
                "blob": f"M 100644 inline {file}\n{_data(b'not what belongs here')}",
                "symlink": f"M 120000 inline {file}\n{_data(b'elsewhere.json')}",
                "gitlink": f"M 160000 {self.released} {file}\n", "missing": ""}[kind]
        return (f"commit refs/shaped/changes\nmark :{mark}\n{COMMITTER}{_data(f'{file} as a {kind}'.encode())}"
                f"from {self.released}\nD {file}\n{what}\n").encode()

    def _release(self, file: str, changed: str, tag: str, ledger: list) -> bytes:
        """W on C: C's ledger row appended (C's manifest is v0.1.0's blob unless the file is manifest.json),
        where C has a ledger to append to; the commit is the tag's."""
        rows = ledger + [{"tag": tag, "manifestDigest": ledger[0]["manifestDigest"], "commit": changed,
                          "previous": self.released, "date": DATE}]
        data = _data((json.dumps(rows, indent=2) + "\n").encode())
        edit = "" if file == LEDGER else f"M 100644 inline {LEDGER}\n{data}"
        return f"commit refs/tags/{tag}\n{COMMITTER}{_data(f'Release {tag}'.encode())}from {changed}\n{edit}\n".encode()


COMMITTER = "committer File Kinds <file-kinds@example.invalid> 1791979200 +0000\n"


def _data(content: bytes) -> str:
    """fast-import's `data` command holding `content` (ASCII here)."""
    return f"data {len(content)}\n{content.decode('ascii')}\n"


def _imported(repo: GitRepo, marks: Path, commands: list[bytes]) -> list[str]:
    """The commits of one fast-import stream, by mark (1, 2, ...), in order."""
    repo.git("fast-import", "--quiet", "--done", f"--export-marks={marks}", input=b"".join(commands) + b"done\n")
    found = dict(line.split() for line in marks.read_text().splitlines())
    return [found[f":{n}"] for n in range(1, len(commands) + 1)]


COMMIT_KINDS = {file: ("blob" if file == ENTRIES else "tree", "symlink", "gitlink", "missing") for file in FILES}
WORK_KINDS = {file: ("file" if file == ENTRIES else "directory", "fifo", "symlink", "device", "denied")
              for file in FILES}


@pytest.fixture(scope="module")
def world(tmp_path_factory) -> World:
    with pytest.MonkeyPatch.context() as patch:
        git_identity(patch)
        return World(tmp_path_factory.mktemp("file-kinds"))


@pytest.fixture(autouse=True)
def identity(monkeypatch) -> None:
    git_identity(monkeypatch)


# --- a file made the wrong kind ----------------------------------------------------------------------


def make_kind(path: Path, kind: str) -> None:
    """Put `kind` at `path` in place of what is there (denied leaves it: the patch refuses its opening)."""
    if kind == "denied":
        return
    if path.is_dir() and not path.is_symlink():
        shutil.rmtree(path)
    elif os.path.lexists(path):
        path.unlink()
    if kind == "directory":
        path.mkdir()
        (path / "inside").write_text("not what belongs here\n")
    elif kind == "file":
        path.write_text("not what belongs here\n")
    elif kind == "fifo":
        os.mkfifo(path)
    elif kind == "symlink":
        path.symlink_to("elsewhere.json")
    elif kind == "device":
        os.mknod(path, stat.S_IFCHR | 0o600, os.makedev(1, 3))  # what /dev/null is


@pytest.fixture(scope="module")
def damaged(world, tmp_path_factory):
    """A copy of the released working tree with `file` made `kind`, made once per (file, kind)."""
    made: dict[tuple[str, str], Path] = {}
    root = tmp_path_factory.mktemp("damaged")

    def get(file: str, kind: str) -> Path:
        if (file, kind) not in made:
            copy = root / f"c{len(made)}"
            shutil.copytree(world.base.path, copy, symlinks=True)
            make_kind(copy / file, kind)
            made[(file, kind)] = copy
        return made[(file, kind)]

    return get


# --- the outcomes, stated by hand --------------------------------------------------------------------

WRONG_KIND = {MANIFEST: "file-unreadable", LEDGER: "release-ledger-invalid", SKIPS: "skips-malformed",
              PIN: "verifier-pin-malformed", ENTRIES: "catalog-stray-file", ENTRY_JSON: "entry-file-not-regular"}
"""The gate's code for each catalog file of the wrong kind, in a working tree and in a commit."""
DENIED = {MANIFEST: "file-unreadable", LEDGER: "release-ledger-invalid", SKIPS: "file-unreadable",
          PIN: "verifier-pin-malformed", ENTRY_JSON: "file-unreadable"}
"""The code for each file that is a regular file the system refuses to open (entries/, a directory that
cannot be listed, is exit 4: the catalog cannot be read)."""
MISSING = {MANIFEST: ("manifest-malformed", MANIFEST), LEDGER: ("release-ledger-missing", LEDGER),
           SKIPS: None, PIN: None, ENTRIES: ("manifest-entry-missing", MANIFEST),
           ENTRY_JSON: ("entry-file-missing", ENTRY_JSON)}
"""A file missing from a commit: the code, or None where a catalog may lack the file (the release passes)."""

IO = ("io",)
PASS = ("pass",)


def refused(code: str, path: str) -> tuple:
    return ("refused", code, path)


def work_outcome(file: str, kind: str, command: str) -> tuple:
    """A working-tree cell: `command` is check, fix or manifest."""
    if kind == NEAR:
        return PASS
    if kind == "denied" and file == ENTRIES:
        return IO  # a directory that cannot be listed: the catalog cannot be read
    if command in ("fix", "manifest") and file == MANIFEST:
        return IO  # the file the command writes (or compares) is not a regular file it can read: exit 4
    return refused(DENIED[file] if kind == "denied" else WRONG_KIND[file], file)


def commit_outcome(file: str, kind: str) -> tuple:
    """A commit the command judges (release, check --commit, a release checked by a consumer)."""
    if kind == NEAR:
        return PASS
    if kind == "missing":
        return PASS if MISSING[file] is None else refused(*MISSING[file])
    return refused(WRONG_KIND[file], file)


def left_outcome(file: str, kind: str) -> tuple:
    """The release upgrade-diff leaves, never gated there: its manifest must read (file-unreadable, or
    manifest-malformed when missing), and each row's entry directory be one (manifest-entry-missing)."""
    if kind == NEAR:
        return PASS
    if file == ENTRIES:
        return refused("manifest-entry-missing", MANIFEST)
    return refused("manifest-malformed" if kind == "missing" else "file-unreadable", MANIFEST)


# --- running a command in this process ---------------------------------------------------------------


def run(capsys, args: list[str]) -> tuple[int, str, str]:
    status = main(args)  # an exception here is the traceback this file guards against
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return status, out, err


def one_object(out: str) -> dict:
    """Standard output under --format json: exactly one JSON object and a newline."""
    assert out.endswith("\n") and out.count("\n") == 1, out
    value = json.loads(out)
    assert isinstance(value, dict)
    return value


def held(expected: tuple, status: int, out: str, err: str, form: str) -> None:
    """The outcome `expected` as the command's output `form` shows it: json (one report object), text (the
    gate's report on stdout), said (lines on stderr: release, fix, manifest)."""
    if expected == IO:
        assert status == 4, (status, out, err)
        assert err.endswith("\n") and err.count("\n") == 1, err  # one line on standard error
        if form == "json":
            value = one_object(out)
            assert value == {"result": "error", "status": 4, "command": value["command"], "detail": err.strip()}
            assert value["command"].startswith("exchange ")
        else:
            assert out == ""
        return
    if expected == PASS:
        assert status == 0, (status, out, err)
        if form == "json":
            value = one_object(out)
            assert value.get("refusals", []) == [], value
        return
    _, code, path = expected
    assert status == 1, (status, out, err)
    if form == "json":
        value = one_object(out)
        assert value["result"] in ("fail", "refused")
        assert {"code": code, "path": path} in [{"code": r["code"], "path": r["path"]} for r in value["refusals"]]
    elif form == "text":
        assert any(line.startswith(f"refused {code}: ") and path in line for line in out.splitlines()), out
    else:
        assert any(code in line and path in line for line in err.splitlines()), err


# --- the matrix: one parametrised test ---------------------------------------------------------------

CHECK_MODES = {"check": [], "check --no-history": ["--no-history"], "check --base": ["--base", "main"],
               "check --release-tag": ["--release-tag", "v0.2.0"], "check --entry": ["--entry", "acme.vendors"]}
LOCK_COMMANDS = ("release-check", "show", "upgrade-diff", "index")
COMMIT_COMMANDS = ("check --commit", "check --commit --base", "release-check", "show", "index", "upgrade-diff",
                   "upgrade-diff from", "release")
LOCK = "the lock file"
NEAR = "regular"  # the near miss: the same command on regular files (one cell per command: the file is moot)


def _cells():
    """(reader, file, kind, command): every cell of the matrix and each command's near miss."""
    for command in (*CHECK_MODES, "fix", "manifest"):
        for file in FILES:
            if command == "check --no-history" and file == LEDGER:
                continue  # not read without history
            if command in ("fix", "manifest") and file not in (MANIFEST, ENTRIES, ENTRY_JSON):
                continue  # fix and manifest read manifest.json, entries/ and the entries' files
            for kind in WORK_KINDS[file]:
                yield "work", file, kind, command
        yield "work", "-", NEAR, command
    for command in LOCK_COMMANDS:
        for kind in ("directory", "fifo", "symlink", "device", "denied", NEAR):
            yield "lock", LOCK, kind, command
    for command in COMMIT_COMMANDS:
        for file in FILES:
            if command == "upgrade-diff from" and file not in (MANIFEST, ENTRIES):
                continue  # the release being left is read for its manifest and its entry directories
            for kind in COMMIT_KINDS[file]:
                yield "commit", file, kind, command
        yield "commit", "-", NEAR, command


CELLS = [pytest.param(*cell, id=f"{cell[0]}-{cell[3]}-{cell[1]}-{cell[2]}".replace(" ", "")) for cell in _cells()]


@pytest.mark.parametrize(("reader", "file", "kind", "command"), CELLS)
def test_file_of_the_wrong_kind(world, damaged, tmp_path, capsys, monkeypatch, reader, file, kind, command):
    """Each cell's outcome as docs/reports.md states it, by hand here (work_outcome, commit_outcome,
    left_outcome): a named refusal with the report whole, or exit 4 in one line and one JSON object."""
    if kind == "device" and not _can_mknod(tmp_path):
        pytest.skip("os.mknod is not allowed here")
    if reader == "work":
        _working_tree(world, damaged, capsys, monkeypatch, file, kind, command)
    elif reader == "lock":
        _lock(world, tmp_path, capsys, monkeypatch, kind, command)
    elif command == "release":
        _release(world, tmp_path, capsys, file, kind)
    else:
        _commit(world, tmp_path, capsys, file, kind, command)


def _working_tree(world, damaged, capsys, monkeypatch, file, kind, command) -> None:
    catalog = world.base.path if kind in (NEAR, "denied") else damaged(file, kind)
    if kind == "denied":
        deny(monkeypatch, catalog / file)
    if command in CHECK_MODES:
        status, out, err = run(capsys, ["check", "--catalog", str(catalog), "--format", "json", *CHECK_MODES[command]])
        held(work_outcome(file, kind, "check"), status, out, err, "json")
        return
    status, out, err = run(capsys, [command, "--catalog", str(catalog)])
    held(work_outcome(file, kind, command), status, out, err, "said")
    if kind == NEAR:
        assert out == ("exchange fix: every pin is up to date (1 entries)\n" if command == "fix"
                       else "manifest.json: up to date (1 row(s))\n")


def _lock(world, tmp_path, capsys, monkeypatch, kind, command) -> None:
    """The lock is a file the consumer points the command at, not the catalog's: exit 4, nothing read."""
    lock = tmp_path / "lock.json"
    shutil.copyfile(world.lock, lock)
    if kind == "denied":
        deny(monkeypatch, lock)
    elif kind != NEAR:
        make_kind(lock, kind)
    where = str(world.commits)
    args = {"release-check": ["release-check", where, "v0.1.0", "--lock", str(lock), "--format", "json"],
            "show": ["show", where, "v0.1.0", "--lock", str(lock), "--format", "json"],
            "upgrade-diff": ["upgrade-diff", where, "--lock", str(lock), "v1.0.0", "--format", "json"],
            "index": ["index", where, "v0.1.0", "--lock", str(lock), "--out", str(tmp_path / "index"),
                      "--local"]}[command]
    status, out, err = run(capsys, args)
    held(PASS if kind == NEAR else IO, status, out, err, "text" if command == "index" else "json")
    if kind != NEAR:
        assert "--lock" in err


def _commit(world, tmp_path, capsys, file, kind, command) -> None:
    if kind == NEAR:
        changed, tag = world.released, "v0.1.0"
    else:
        changed, tag = world.shaped[(file, kind)], world.tags[(file, kind)]
    where = str(world.untagged if command.startswith("check") else world.commits)
    target = "v1.0.0" if kind == NEAR else tag  # the near miss of upgrade-diff: two regular releases
    args = {"check --commit": ["check", "--catalog", where, "--commit", changed, "--format", "json"],
            "check --commit --base": ["check", "--catalog", where, "--commit", changed, "--base", "v0.1.0",
                                      "--format", "json"],  # the trusted gate on a pull request's head
            "release-check": ["release-check", where, tag, "--format", "json"],
            "show": ["show", where, tag, "--format", "json"],
            "index": ["index", where, tag, "--out", str(tmp_path / "index"), "--local"],
            "upgrade-diff": ["upgrade-diff", where, "v0.1.0", target, "--format", "json"],
            "upgrade-diff from": ["upgrade-diff", where, tag, "v1.0.0", "--format", "json"]}[command]
    status, out, err = run(capsys, args)
    expected = left_outcome(file, kind) if command == "upgrade-diff from" else commit_outcome(file, kind)
    if command == "check --commit --base" and (file, kind) == (SKIPS, "missing"):
        expected = refused("skips-file-removed", SKIPS)  # a pull request keeps skips.json (docs/skips.md)
    held(expected, status, out, err, "text" if command == "index" else "json")
    if expected == PASS and command.startswith("upgrade-diff"):
        assert json.loads(out)["result"] == "changes"


def _release(world, tmp_path, capsys, file, kind) -> None:
    """`exchange release` on a clean main whose HEAD holds the file as `kind`: the gate's refusal, named."""
    root = tmp_path / "repo"
    shutil.copytree(world.commits, root, symlinks=True)  # it holds the shaped commits
    repo = GitRepo(root)
    repo.git("reset", "-q", "--hard", world.released)
    if kind == NEAR:  # a change of regular files releases
        readme = root / "entries/acme/vendors/README.md"
        readme.write_text(readme.read_text(encoding="utf-8") + "\nA second paragraph.\n", encoding="utf-8")
        assert main(["fix", "--catalog", str(root)]) == 0
        repo.git("commit", "-q", "-am", "a second paragraph")
    else:
        repo.git("update-ref", "refs/heads/main", world.shaped[(file, kind)])
        repo.git("reset", "-q", "--hard")
    capsys.readouterr()
    status, out, err = run(capsys, ["release", "v0.1.1", "--catalog", str(root)])  # v0.2.N are the shaped tags
    if file == LEDGER and kind == "missing":
        assert status == 1 and "there is no releases.json at HEAD" in err  # release's own precondition
        return
    expected = commit_outcome(file, kind)
    held(expected, status, out, err, "said")
    if expected == PASS:
        assert "released v0.1.1" in out


# --- the attack as the issue reports it --------------------------------------------------------------


@pytest.mark.parametrize("form", ("json", "text", "github"))
@pytest.mark.parametrize(("file", "kind", "code"), [(MANIFEST, "fifo", "file-unreadable"),
                                                    (MANIFEST, "directory", "file-unreadable"),
                                                    (LEDGER, "fifo", "release-ledger-invalid"),
                                                    (LEDGER, "directory", "release-ledger-invalid")])
def test_attack_manifest_or_ledger_as_fifo_or_directory_gives_a_traceback(damaged, capsys, form, file, kind, code):
    """`exchange check` with history (the default) and `--base`: the refusal is named at the file, and the
    rest of the report is whole (the entry checked, its fixture replayed), in each format."""
    catalog = str(damaged(file, kind))
    for extra in ([], ["--base", "main"]):
        status, out, err = run(capsys, ["check", "--catalog", catalog, "--format", form, *extra])
        assert status == 1 and err == ""
        if form == "json":
            report = one_object(out)
            assert (report["result"], report["entries"]) == ("fail", 1)
            assert [(r["code"], r["path"]) for r in report["refusals"]] == [(code, file)]
        elif form == "text":
            assert f"refused {code}: {file}: " in out and "result: fail (1 refusal(s))" in out
        else:
            assert out.startswith(f"::error file={file},title={code}::")


def test_attack_manifest_as_fifo_gives_a_traceback(damaged, capsys):
    """The issue's own words: manifest.json a FIFO, `exchange check` (history on), --format json."""
    status, out, err = run(capsys, ["check", "--catalog", str(damaged(MANIFEST, "fifo")), "--format", "json"])
    assert status == 1 and err == ""
    assert [(r["code"], r["path"]) for r in one_object(out)["refusals"]] == [("file-unreadable", MANIFEST)]


def test_attack_release_of_a_manifest_committed_as_a_tree_gives_a_traceback(world, tmp_path, capsys):
    """`exchange release` on HEAD whose manifest.json is a tree: refused, named, nothing committed or tagged."""
    root = tmp_path / "repo"
    shutil.copytree(world.commits, root, symlinks=True)
    repo = GitRepo(root)
    head = world.shaped[(MANIFEST, "tree")]
    repo.git("update-ref", "refs/heads/main", head)
    repo.git("reset", "-q", "--hard")
    status, out, err = run(capsys, ["release", "v0.1.1", "--catalog", str(root)])
    assert status == 1 and "  file-unreadable: manifest.json: " in err
    assert repo.git("rev-parse", "HEAD") == head and repo.git("tag", "--list", "v0.1.1") == ""


def test_attack_release_check_of_a_manifest_committed_as_a_tree_says_the_repository_is_damaged(world, capsys):
    """A consumer was told exit 4, "the repository is incomplete or damaged: fetch the release again", of an
    intact repository: the release is refused, and says why."""
    status, out, err = run(capsys, ["release-check", str(world.commits), world.tags[(MANIFEST, "tree")],
                                    "--format", "json"])
    assert status == 1 and err == ""
    report = one_object(out)
    assert ("file-unreadable", MANIFEST) in [(r["code"], r["path"]) for r in report["refusals"]]
    assert "damaged" not in out


def test_exit_4_with_format_json_is_one_object(tmp_path, capsys):
    """Exit 4 from any command with --format json: one line on stderr and one JSON object holding it (here
    a catalog directory that is not there, and a location that is no repository)."""
    for args in (["check", "--catalog", str(tmp_path / "nowhere"), "--format", "json"],
                 ["release-check", str(tmp_path), "v0.1.0", "--format", "json"],
                 ["show", str(tmp_path), "--format", "json"]):
        status, out, err = run(capsys, args)
        held(IO, status, out, err, "json")
        assert json.loads(out)["command"] == f"exchange {args[0]}"
    status, out, err = run(capsys, ["check", "--catalog", str(tmp_path / "nowhere")])  # text: nothing on stdout
    assert (status, out) == (4, "") and err.count("\n") == 1
