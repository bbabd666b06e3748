"""CONTRIBUTING.md's walkthrough, run end to end (issue #9 item 8): from a real Runner export to an
opened pull request, then re-recording after a dialect change, as subprocesses of the installed
`exchange` and `git`, in throwaway repositories set up as the walkthrough's "Once" block says (a fork,
the catalog as `upstream`). So the document cannot drift from the tools.

The document marks what runs (CONTRIBUTING.md says how in a comment): blocks fenced `sh walkthrough`
run line by line, a `NAME=value` line is a value the contributor sets (the test sets its own, and the
two sets of names must agree); `<!-- walkthrough-edit: PATH -->` is a hand edit, made as the block
after it shows (entry members set, a README written) or, for a dialect document, by this test's edit
of that name; `<!-- walkthrough-maintainer: merge -->` is the maintainer merging the pull request.
"""

from __future__ import annotations

import json
import re
import shlex
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

import pytest

from judgment_exchange.codes import REGISTRY

from ..support.paths import REPO, VECTORS
from .repos import fork_of, git, git_env

DOC = REPO / "CONTRIBUTING.md"
EXPORTS = VECTORS / "runner-exports"
FIRST = EXPORTS / "mapping-v2-before-calculators" / "run.json"      # the first recording
SECOND = EXPORTS / "mapping-v2-unsigned-parameters" / "run.json"    # the run under the changed dialect

FENCE = re.compile(r"^(```+|~~~+)\s*(.*)$")
EDIT = re.compile(r"^<!-- walkthrough-edit: (\S+) -->$")
MAINTAINER = re.compile(r"^<!-- walkthrough-maintainer: (\S+) -->$")
ASSIGN = re.compile(r"^([A-Z][A-Z0-9_]*)=(\S+)(\s+#.*)?$")
VARIABLE = re.compile(r"\$\{?([A-Z][A-Z0-9_]*)\}?")


@dataclass(frozen=True)
class Step:
    """One step of the walkthrough: `kind` is run, set, edit or maintainer."""

    kind: str
    line: str
    argv: tuple[str, ...] = ()
    name: str = ""
    content: str | None = None
    lang: str = ""


def walkthrough(text: str) -> list[Step]:
    """The walkthrough's steps in document order."""
    steps: list[Step] = []
    lines = text.split("\n")
    i, pending_edit = 0, None
    while i < len(lines):
        line = lines[i]
        fence = FENCE.match(line)
        if fence:
            marker, info = fence.groups()
            body = []
            i += 1
            while i < len(lines) and not lines[i].startswith(marker):
                body.append(lines[i])
                i += 1
            words = info.split()
            if pending_edit is not None:
                steps.append(Step("edit", pending_edit, name=pending_edit, content="\n".join(body) + "\n",
                                  lang=words[0] if words else ""))
                pending_edit = None
            elif words[1:2] == ["walkthrough"]:
                # `A && B` is two steps, each of which must succeed (as the shell runs them)
                steps += [_command(part) for b in body if b.strip() and not b.lstrip().startswith("#")
                          for part in b.split(" && ")]
        elif EDIT.match(line):
            if pending_edit is not None:                       # an edit mark with no block after it
                steps.append(Step("edit", pending_edit, name=pending_edit))
            pending_edit = EDIT.match(line).group(1)
        elif MAINTAINER.match(line):
            steps.append(Step("maintainer", line, name=MAINTAINER.match(line).group(1)))
        elif pending_edit is not None and line.startswith("#"):   # the next heading: no block followed
            steps.append(Step("edit", pending_edit, name=pending_edit))
            pending_edit = None
        elif pending_edit is not None and line.strip() and not line.startswith(("```", "~~~")):
            # prose between the mark and the next block ends the mark without a block
            steps.append(Step("edit", pending_edit, name=pending_edit))
            pending_edit = None
        i += 1
    if pending_edit is not None:
        steps.append(Step("edit", pending_edit, name=pending_edit))
    return steps


def _command(line: str) -> Step:
    assign = ASSIGN.match(line.strip())
    if assign:
        return Step("set", line, name=assign.group(1))
    return Step("run", line, argv=tuple(shlex.split(line, comments=True)))


STEPS = walkthrough(DOC.read_text(encoding="utf-8"))


def test_the_first_branch_is_made_after_fetching_upstream():
    """Issue #34 item 2: a branch made from a stale upstream/main started from an old ledger; step 2 fetches
    upstream and its tags, then branches from upstream/main as fetched."""
    runs = [step.argv for step in STEPS if step.kind == "run"]
    first = next(i for i, argv in enumerate(runs) if argv[:3] == ("git", "switch", "-c"))
    assert runs[first - 1] == ("git", "fetch", "upstream", "--tags"), runs[:first + 1]
    assert runs[first][3:] == ("add-acme-vendors", "upstream/main")


# --- the test's side of each hand step ----------------------------------------------------------------

def _set_members(path: Path, content: str) -> None:
    """entry.json with the members the document's JSON block shows set to its values."""
    members = json.loads(content)
    assert isinstance(members, dict) and members, "the entry.json edit block is one JSON object of members"
    value = json.loads(path.read_bytes())
    value.update(members)
    path.write_text(json.dumps(value, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")


def _write_new_dialect(path: Path, content: str | None) -> None:
    """The dialect the new recording was made under: the second export's mapping, as a person writes it."""
    assert content is None, "the dialect.json step shows no block: the document is the contributor's"
    mapping = json.loads(SECOND.read_bytes())["run"]["input"]["source"]["mapping"]
    path.write_text(json.dumps(mapping, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")


def _write_readme(path: Path, content: str) -> None:
    path.write_text(content, encoding="utf-8")


EDITS = {"entry.json": _set_members, "README.md": _write_readme, "dialect.json": _write_new_dialect}


def _fixture_name(work: Path) -> str:
    """The fixture to re-record: the one `exchange new` wrote, by the name entry.json gives it."""
    entry = json.loads((work / "entries/acme/vendors/entry.json").read_bytes())
    (item,) = entry["fixtures"]
    return item["name"]


VALUES = {"RUN_EXPORT": lambda work: str(FIRST), "NEW_RUN_EXPORT": lambda work: str(SECOND),
          "FIXTURE": _fixture_name}


# --- the document's shape -----------------------------------------------------------------------------

def test_the_walkthrough_is_marked():
    kinds = [s.kind for s in STEPS]
    assert kinds.count("run") >= 10 and "edit" in kinds and "maintainer" in kinds
    assert {s.name for s in STEPS if s.kind == "set"} == set(VALUES), "the values the document sets and the test's"
    assert {Path(s.name).name for s in STEPS if s.kind == "edit"} == set(EDITS), "the hand edits and the test's"
    assert all(s.argv and s.argv[0] in ("exchange", "git") for s in STEPS if s.kind == "run")


def test_the_walkthrough_is_in_the_contributors_order():
    """Record, exchange new --from-run, the human parts, exchange fix, check --base auto, commit -s,
    signoff, push; then fixture add and fix; each section ends with the pull request's checks passing."""
    runs = [" ".join(s.argv) for s in STEPS if s.kind == "run"]
    order = ["exchange new acme.vendors --from-run", "exchange fix", "exchange check --base auto",
             "git commit -s", "exchange signoff --base auto", "git push",
             "exchange fixture add", "exchange fix", "exchange check --base auto", "git commit -s",
             "exchange signoff --base auto", "git push"]
    at = 0
    for wanted in order:
        at = next(i for i in range(at, len(runs)) if runs[i].startswith(wanted)) + 1
    edits = [i for i, s in enumerate(STEPS) if s.kind == "edit"]
    first_new = next(i for i, s in enumerate(STEPS) if s.argv[:2] == ("exchange", "new"))
    first_fix = next(i for i, s in enumerate(STEPS) if s.argv[:2] == ("exchange", "fix"))
    assert first_new < edits[0] < edits[1] < first_fix


def test_every_refusal_the_document_links_is_a_code():
    text = DOC.read_text(encoding="utf-8")
    linked = re.findall(r"docs/codes\.md#([a-z0-9-]+)", text)
    assert linked and all(code in REGISTRY for code in linked), [c for c in linked if c not in REGISTRY]


# --- the run ------------------------------------------------------------------------------------------

def _exchange() -> str:
    found = shutil.which("exchange")
    if found is None:
        pytest.fail("the installed `exchange` command is not on PATH (python -m pip install -e .)")
    return found


def _setup(tmp_path: Path) -> tuple[Path, Path]:
    """The walkthrough's "Once" block in throwaway repositories: the catalog (a fresh one: an empty
    manifest on main) as a bare upstream, a fork of it, the contributor's clone of the fork with
    `upstream` added and fetched. Returns (upstream, work)."""
    seed = tmp_path / "seed"
    seed.mkdir()
    git(seed, "init", "-q", "-b", "main")
    (seed / "manifest.json").write_bytes(b"[]\n")
    git(seed, "add", "-A")
    git(seed, "commit", "-q", "-s", "-m", "The catalog")
    upstream, work = fork_of(tmp_path, seed, "judgment-pack-exchange")
    git(work, "remote", "add", "upstream", str(upstream))
    git(work, "fetch", "-q", "upstream", "--tags")
    return upstream, work


def _run(work: Path, argv: list[str]) -> subprocess.CompletedProcess:
    program = _exchange() if argv[0] == "exchange" else "git"
    return subprocess.run([program, *argv[1:]], cwd=work, env=git_env(), capture_output=True, text=True,
                          check=False)


def _placeholders_refused(work: Path) -> None:
    """Before the human parts are written, the gate refuses the scaffold's placeholders (step 3's claim)."""
    done = _run(work, ["exchange", "check", "--base", "auto", "--format", "json"])
    codes = {r["code"] for r in json.loads(done.stdout)["refusals"]}
    assert done.returncode == 1 and "placeholder-value" in codes, done.stdout


def run_walkthrough(upstream: Path, work: Path, on_run=None, on_edit=None, values_for=None) -> None:
    """Every step of the document in order in `work` (each command must succeed); `on_run(argv, done)` and
    `on_edit(path)` let a caller hold more of each step; `values_for` replaces VALUES (other recordings)."""
    values_for = VALUES if values_for is None else values_for
    values: dict[str, str] = {}
    log: list[str] = []
    for step in STEPS:
        if step.kind == "set":
            values[step.name] = values_for[step.name](work)
        elif step.kind == "run":
            argv = [VARIABLE.sub(lambda m: values[m.group(1)], word) for word in step.argv]
            done = _run(work, argv)
            log.append(f"$ {' '.join(argv)}\n{done.stdout}{done.stderr}")
            assert done.returncode == 0, "\n".join(log)
            if on_run is not None:
                on_run(argv, done)
        elif step.kind == "edit":
            path = work / step.name
            assert path.is_file(), f"the walkthrough edits {step.name}, which the steps before it did not write"
            if on_edit is not None:
                on_edit(path)
            EDITS[path.name](path, step.content)
        elif step.kind == "maintainer":
            assert step.name == "merge"
            # the maintainer merges the pull request: upstream's main moves to the pushed branch
            branch = git(work, "rev-parse", "--abbrev-ref", "HEAD")
            git(work, "push", "-q", str(upstream), f"{branch}:main")


def test_walkthrough_end_to_end(tmp_path):
    upstream, work = _setup(tmp_path)
    run_walkthrough(upstream, work, on_edit=lambda path: _placeholders_refused(work) if path.name == "entry.json"
                    else None)

    # the end state: the pull request's own checks pass, locally and as CI runs them on its merge
    for argv in (["exchange", "check", "--base", "auto"], ["exchange", "signoff", "--base", "auto"]):
        done = _run(work, argv)
        assert done.returncode == 0 and "result: pass" in done.stdout, done.stdout + done.stderr
    entry = json.loads((work / "entries/acme/vendors/entry.json").read_bytes())
    recorded = json.loads(SECOND.read_bytes())["run"]["input"]["source"]["mappingDigest"]
    assert entry["dialect"]["digest"] == recorded              # the Runner's own digest of the new dialect
    ci = tmp_path / "ci"
    git(tmp_path, "clone", "-q", str(upstream), str(ci))
    branch = git(work, "rev-parse", "--abbrev-ref", "HEAD")
    git(ci, "fetch", "-q", str(tmp_path / "fork.git"), branch)
    git(ci, "merge", "-q", "--no-ff", "--no-edit", "FETCH_HEAD")
    done = _run(ci, ["exchange", "check", "--base", "origin/main", "--format", "json"])
    report = json.loads(done.stdout)
    assert done.returncode == 0 and report["touched"] == ["acme.vendors"] and report["replayed"] == 1, done.stdout
