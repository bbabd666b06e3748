"""publish.yml, the gate on PyPI (issue #33 item 4; docs/publishing.md): its shape, held by a plain checker
with a near miss for each rule, and its first job's bash run as it stands against throwaway repositories.

- A `gate/v*` tag, never a catalog release: GitHub's `*` does not match `/`, so release.yml's `v*` does not
  match `gate/v1.2.3`, and RFC 0019 §3's grammar (`vX.Y.Z`) never reads it.
- `verify` is bash and git alone (no python, pip or exchange: nothing of the tagged commit runs before it is
  known to be on main): the tag is `gate/vX.Y.Z`, names a commit on main's first-parent history, and X.Y.Z is
  the `__version__` that commit's `tools/judgment_exchange/__init__.py` says, read with `git show`.
- `build` holds `contents: read` alone (no `id-token`); `publish` holds `id-token: write` alone, under the
  `pypi` environment, and runs the download and pypa/gh-action-pypi-publish pinned by commit — no other step;
  `attach` (`contents: write`) puts the files on the tag's GitHub release."""

from __future__ import annotations

import copy
import os
import re
import shlex
import subprocess
from pathlib import Path
from typing import Any

import pytest
from ruamel.yaml import YAML

from ..support.paths import REPO
from ..test_supply_chain import ACTION_PINS

PUBLISH = REPO / ".github" / "workflows" / "publish.yml"
RELEASE = REPO / ".github" / "workflows" / "release.yml"
PYPI_ACTION = "pypa/gh-action-pypi-publish"
PACKAGE_FILES = ["pyproject.toml", "tools", "README.md", "LICENSE", "requirements-build.txt"]
"""What the build job archives from the tagged commit: the package's own files and the build lock, nothing else."""
INIT = "tools/judgment_exchange/__init__.py"


def _load(path: Path) -> dict:
    return YAML(typ="safe", pure=True).load(path.read_text(encoding="utf-8"))


# --- GitHub's tag filter -------------------------------------------------------------------------------


def github_filter_matches(pattern: str, ref: str) -> bool:
    """Whether a workflow's `tags:` pattern matches a tag name, by GitHub's filter rules for the characters
    these workflows use: `*` matches any run of characters but `/`, `**` any run at all; the rest is literal.
    (`?`, `+`, `[...]` and `!` are refused, not guessed at.)"""
    if re.search(r"[?+\[\]!\\]", pattern):
        raise ValueError(f"{pattern!r} uses a filter character this reading does not model")
    regex = "".join(".*" if part == "**" else "[^/]*" if part == "*" else re.escape(part)
                    for part in re.split(r"(\*\*|\*)", pattern) if part)
    return re.fullmatch(regex, ref) is not None


def _tag_patterns(workflow: dict) -> list[str]:
    return list(workflow["on"]["push"]["tags"])


def test_githubs_star_does_not_cross_a_slash():
    """The reading the two namespaces rest on, with its near miss (`**` does cross it)."""
    assert github_filter_matches("v*", "v1.2.3")
    assert not github_filter_matches("v*", "gate/v1.2.3")
    assert not github_filter_matches("*", "gate/v1.2.3")
    assert github_filter_matches("**", "gate/v1.2.3")
    assert github_filter_matches("**v*", "gate/v1.2.3")
    assert github_filter_matches("gate/v*", "gate/v1.2.3")
    assert not github_filter_matches("gate/v*", "v1.2.3")
    with pytest.raises(ValueError):
        github_filter_matches("v[0-9]*", "v1")


def test_a_gate_release_tag_starts_no_catalog_release_and_a_catalog_tag_no_publish():
    release, publish = _tag_patterns(_load(RELEASE)), _tag_patterns(_load(PUBLISH))
    assert publish == ["gate/v*"]
    assert release and not [p for p in release if github_filter_matches(p, "gate/v1.2.3")], release
    assert [p for p in release if github_filter_matches(p, "v1.2.3")], release
    assert not [p for p in publish if github_filter_matches(p, "v1.2.3")], publish


# --- the shape ---------------------------------------------------------------------------------------

_COMMIT = re.compile(r"[0-9a-f]{40}")
_NOT_IN_VERIFY = re.compile(r"(^|[\s/;&|(])(python[0-9.]*|pip[0-9.]*|exchange|pytest)(\s|$|;)")
_READS_INIT = re.compile(r'git\s+-C\s+"\$SOURCE"\s+show\s+"\$commit:' + re.escape(INIT) + '"')


def _steps(job: dict) -> list[dict]:
    return list(job.get("steps") or [])


def _action(step: dict) -> str:
    return str(step.get("uses", "")).split("@", 1)[0]


def _needs(job: dict) -> set[str]:
    needs = job.get("needs", [])
    return {needs} if isinstance(needs, str) else set(needs)


def publish_problems(workflow: dict) -> list[str]:
    """Why a workflow is not publish.yml's shape (issue #33 item 4), one line per rule broken."""
    problems = []
    if workflow.get("on") != {"push": {"tags": ["gate/v*"]}}:
        problems.append(f"trigger: expected a push of tags [\"gate/v*\"] alone, found {workflow.get('on')!r}")
    if workflow.get("permissions") != {}:
        problems.append("permissions: expected {} at the top (each job names its own)")
    jobs = workflow.get("jobs") or {}
    if set(jobs) != {"verify", "build", "publish", "attach"}:
        return [*problems, f"jobs: expected verify, build, publish, attach; found {sorted(jobs)}"]

    for name, job in jobs.items():
        shell = (job.get("defaults") or {}).get("run", {}).get("shell")
        for step in _steps(job):
            if "run" not in step:
                continue
            if step.get("shell", shell) != "bash":
                problems.append(f"{name}: a run step without shell bash: {step.get('name')!r}")
            if "${{" in step["run"]:
                problems.append(f"{name}: an expression inside run: (inputs reach a script through env:)")
        if name != "publish" and "id-token" in (job.get("permissions") or {}):
            problems.append(f"{name}: id-token (only publish may ask for it)")

    verify = jobs["verify"]
    scripts = "\n".join(step["run"] for step in _steps(verify) if "run" in step)
    if verify.get("permissions") != {"contents": "read"}:
        problems.append(f"verify: expected permissions {{contents: read}}, found {verify.get('permissions')!r}")
    if [s for s in _steps(verify) if "uses" in s and _action(s) != "actions/checkout"]:
        problems.append("verify: an action other than the checkout")
    if [s for s in _steps(verify) if _action(s) == "actions/checkout"
            and (s.get("with") or {}).get("persist-credentials") is not False]:
        problems.append("verify: a checkout that keeps its credentials")
    if [line for line in scripts.splitlines() if _NOT_IN_VERIFY.search(line)]:
        problems.append("verify: python, pip or exchange runs (bash and git alone)")
    if not _READS_INIT.search(scripts):
        problems.append(f"verify: does not read the version with git show of $commit:{INIT}")
    if "rev-list --first-parent refs/remotes/origin/main" not in scripts:
        problems.append("verify: does not check main's first-parent history")
    if "commit" not in (verify.get("outputs") or {}):
        problems.append("verify: no commit output")

    build = jobs["build"]
    if build.get("permissions") != {"contents": "read"}:
        problems.append(f"build: expected permissions {{contents: read}}, found {build.get('permissions')!r}")
    if "verify" not in _needs(build):
        problems.append("build: does not need verify")
    script = "\n".join(step["run"] for step in _steps(build) if "run" in step)
    archives = re.findall(r'git -C "\$SOURCE" archive --format=tar "\$COMMIT" -- ([^|\n]*)\| tar -x -C gate-source',
                          script)
    if [paths.split() for paths in archives] != [PACKAGE_FILES]:
        problems.append(f"build: expected one git archive of the commit's {' '.join(PACKAGE_FILES)}, found {archives}")
    for wanted in ("python -I -m venv gate-build",
                   "gate-build/bin/python -I -m pip install --quiet --disable-pip-version-check --require-hashes "
                   "-r gate-source/requirements-build.txt",
                   "gate-build/bin/python -I -m build --no-isolation --outdir dist gate-source"):
        if wanted not in script:
            problems.append(f"build: no `{wanted}`")
    if not [s for s in _steps(build) if _action(s) == "actions/upload-artifact"]:
        problems.append("build: the files are not uploaded as an artifact")

    publish = jobs["publish"]
    if publish.get("permissions") != {"id-token": "write"}:
        problems.append(f"publish: expected permissions {{id-token: write}} alone, "
                        f"found {publish.get('permissions')!r}")
    environment = publish.get("environment")
    if not isinstance(environment, dict) or environment.get("name") != "pypi":
        problems.append(f"publish: expected environment pypi, found {environment!r}")
    if "build" not in _needs(publish):
        problems.append("publish: does not need build")
    steps = _steps(publish)
    if [_action(s) for s in steps] != ["actions/download-artifact", PYPI_ACTION]:
        problems.append(f"publish: expected the download then {PYPI_ACTION} and no other step, found "
                        f"{[s.get('uses') or s.get('name') or 'run' for s in steps]}")
    else:
        ref = str(steps[1]["uses"]).split("@", 1)[1]
        if not _COMMIT.fullmatch(ref) or ref != ACTION_PINS[PYPI_ACTION][0]:
            problems.append(f"publish: {PYPI_ACTION} is not pinned by its commit {ACTION_PINS[PYPI_ACTION][0]}")
        if steps[1].get("with"):
            problems.append(f"publish: {PYPI_ACTION} is given inputs (its defaults: dist/, attestations on)")

    attach = jobs["attach"]
    if attach.get("permissions") != {"contents": "write"}:
        problems.append(f"attach: expected permissions {{contents: write}}, found {attach.get('permissions')!r}")
    if "publish" not in _needs(attach):
        problems.append("attach: does not need publish")
    attaching = [s for s in _steps(attach) if "gh release" in s.get("run", "")]
    if len(attaching) != 1 or "GH_TOKEN" not in (attaching[0].get("env") or {}):
        problems.append("attach: no one step running gh release with GH_TOKEN")
    return problems


def test_publish_yml_has_its_shape():
    assert publish_problems(_load(PUBLISH)) == []


def _set(path: str, value: Any):
    def edit(workflow: dict) -> dict:
        *keys, last = [int(k) if k.isdigit() else k for k in path.split(".")]
        node = workflow
        for key in keys:
            node = node[key]
        if value is _DELETE:
            del node[last]
        else:
            node[last] = value
        return workflow
    return edit


_DELETE = object()


def _script(job: str, index: int, old: str, new: str):
    def edit(workflow: dict) -> dict:
        step = workflow["jobs"][job]["steps"][index]
        assert old in step["run"], old
        step["run"] = step["run"].replace(old, new)
        return workflow
    return edit


def _jobs(path: str, value: Any):
    return _set(f"jobs.{path}", value)


def _add_step(job: str, step: dict, at: int | None = None):
    def edit(workflow: dict) -> dict:
        steps = workflow["jobs"][job]["steps"]
        steps.insert(len(steps) if at is None else at, step)
        return workflow
    return edit


NEAR_MISSES = {
    "catalog tags": (_set("on", {"push": {"tags": ["v*"]}}), "trigger"),
    "every tag": (_set("on", {"push": {"tags": ["**"]}}), "trigger"),
    "write-all at the top": (_set("permissions", "write-all"), "permissions: expected {}"),
    "a fifth job": (_jobs("lint", {"runs-on": "ubuntu-latest", "steps": [{"run": "true"}]}), "jobs: expected"),
    "verify runs python": (_script("verify", 1, 'declared=$(printf', 'declared=$(python3 -c "print(1)"; printf'),
                           "python, pip or exchange"),
    "verify runs the package": (_script("verify", 1, "version=${BASH_REMATCH[1]}",
                                        "version=$(\"$SOURCE\"/tools/exchange --version)"),
                                "python, pip or exchange"),
    "verify pip-installs": (_script("verify", 1, "version=${BASH_REMATCH[1]}",
                                    "pip install ./gate; version=${BASH_REMATCH[1]}"), "python, pip or exchange"),
    "verify reads the working tree": (_script("verify", 1, 'show "$commit:tools/judgment_exchange/__init__.py"',
                                              'show "HEAD:tools/judgment_exchange/__init__.py"'), "git show"),
    "verify skips main's history": (_script("verify", 1, "rev-list --first-parent refs/remotes/origin/main",
                                            "rev-list refs/remotes/origin/main"), "first-parent"),
    "verify keeps credentials": (_jobs("verify.steps.0.with.persist-credentials", True), "keeps its credentials"),
    "an expression in a script": (_script("verify", 1, 'echo "commit=$commit"', 'echo "commit=${{ github.sha }}"'),
                                  "an expression inside run"),
    "a run step in sh": (_jobs("build.defaults", {"run": {"shell": "sh"}}), "without shell bash"),
    "build asks for id-token": (_jobs("build.permissions", {"contents": "read", "id-token": "write"}),
                                "build: id-token"),
    "build writes": (_jobs("build.permissions", {"contents": "write"}), "build: expected permissions"),
    "build without the lock": (_script("build", 2, " --require-hashes -r gate-source/requirements-build.txt",
                                       " build"), "build: no"),
    "build with isolation": (_script("build", 2, "-m build --no-isolation", "-m build"), "build: no"),
    "build archives the tests": (_script("build", 2, "LICENSE requirements-build.txt",
                                         "LICENSE requirements-build.txt tests"),
                                 "one git archive"),
    "build archives the working tree": (_script("build", 2, 'archive --format=tar "$COMMIT"',
                                                'archive --format=tar HEAD'),
                                        "one git archive"),
    "build from the checkout": (_script("build", 2, "--outdir dist gate-source", "--outdir dist \"$SOURCE\""),
                                "build: no"),
    "publish may read contents": (_jobs("publish.permissions", {"id-token": "write", "contents": "read"}),
                                  "publish: expected permissions"),
    "publish without environment": (_jobs("publish.environment", _DELETE), "environment pypi"),
    "publish under another environment": (_jobs("publish.environment", {"name": "release"}), "environment pypi"),
    "publish by tag": (_jobs("publish.steps.1.uses", f"{PYPI_ACTION}@release/v1"), "pinned by its commit"),
    "publish by another commit": (_jobs("publish.steps.1.uses", f"{PYPI_ACTION}@{'0' * 40}"), "pinned by its commit"),
    "publish with a step more": (_add_step("publish", {"name": "look", "run": "ls dist"}, 1), "no other step"),
    "publish with a checkout": (_add_step("publish", {"uses": f"actions/checkout@{ACTION_PINS['actions/checkout'][0]}"},
                                          0), "no other step"),
    "publish with a password": (_jobs("publish.steps.1.with", {"password": "x"}), "is given inputs"),
    "attach asks for id-token": (_jobs("attach.permissions", {"contents": "write", "id-token": "write"}),
                                 "attach: id-token"),
    "attach before publish": (_jobs("attach.needs", ["verify", "build"]), "attach: does not need publish"),
}


@pytest.mark.parametrize("edit, reason", NEAR_MISSES.values(), ids=list(NEAR_MISSES))
def test_the_shape_check_refuses_a_near_miss(edit, reason):
    problems = publish_problems(edit(copy.deepcopy(_load(PUBLISH))))
    assert len(problems) >= 1 and any(reason in p for p in problems), problems


# --- the verify job's bash, run as it stands -----------------------------------------------------------


def _verify_script() -> str:
    (step,) = [s for s in _steps(_load(PUBLISH)["jobs"]["verify"]) if s.get("id") == "tag"]
    return step["run"]


def _git(repo: Path, *args: str) -> str:
    env = {**os.environ, "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.invalid",
           "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@example.invalid", "GIT_CONFIG_NOSYSTEM": "1",
           "HOME": str(repo.parent)}
    done = subprocess.run(["git", "-C", str(repo), *args], capture_output=True, text=True, check=True, env=env)
    return done.stdout.strip()


def _commit(repo: Path, version: str, message: str) -> str:
    init = repo / INIT
    init.parent.mkdir(parents=True, exist_ok=True)
    init.write_text(f'"""The gate."""\n\n__version__ = "{version}"\n', encoding="utf-8")
    (repo / "notes.txt").write_text(message, encoding="utf-8")
    _git(repo, "add", "-A")
    _git(repo, "commit", "-q", "-m", message)
    return _git(repo, "rev-parse", "HEAD")


@pytest.fixture
def origin_clone(tmp_path) -> Path:
    """A clone as the checkout leaves it: main's history as `refs/remotes/origin/main`, every tag fetched.
    main: 0.1.0, then 0.2.0 (its tip); a side branch `topic`, saying 0.2.0 too, merged into main with
    --no-ff (reachable from main, never on its first-parent history); then 0.2.0 again at the merge."""
    origin = tmp_path / "origin"
    origin.mkdir()
    _git(origin, "init", "-q", "-b", "main")
    _commit(origin, "0.1.0", "first")
    main_commit = _commit(origin, "0.2.0", "bump to 0.2.0")
    _git(origin, "tag", "-a", "-m", "the gate 0.2.0", "gate/v0.2.0", main_commit)
    _git(origin, "switch", "-q", "-c", "topic")
    side = _commit(origin, "0.2.0", "side work")
    _git(origin, "tag", "side-0.2.0", side)
    _git(origin, "switch", "-q", "main")
    _git(origin, "merge", "-q", "--no-ff", "-m", "merge topic", "topic")
    clone = tmp_path / "gate"
    subprocess.run(["git", "clone", "-q", "--no-checkout", str(origin), str(clone)], check=True, capture_output=True)
    return clone


def run_verify(clone: Path, tag: str, tmp_path: Path) -> tuple[int, str, dict[str, str]]:
    """The verify step's script as GitHub runs `shell: bash` (`bash --noprofile --norc -eo pipefail`), from a
    working directory that is no checkout, with the step's env: TAG and SOURCE; and what it wrote to
    $GITHUB_OUTPUT. PATH keeps git and the shell's tools and nothing of Python."""
    script = tmp_path / "verify.sh"
    script.write_text(_verify_script(), encoding="utf-8")
    output = tmp_path / "github-output"
    output.write_text("", encoding="utf-8")
    work = tmp_path / "runner-temp"
    work.mkdir(exist_ok=True)
    tools = tmp_path / "bin"
    tools.mkdir(exist_ok=True)
    for name in ("git", "sed", "grep", "printf", "cat"):
        found = subprocess.run(["bash", "-c", f"command -v {shlex.quote(name)}"], capture_output=True, text=True)
        if found.returncode == 0 and found.stdout.startswith("/") and not (tools / name).exists():
            (tools / name).symlink_to(found.stdout.strip())
    env = {"PATH": str(tools), "TAG": tag, "SOURCE": str(clone), "GITHUB_OUTPUT": str(output),
           "HOME": str(tmp_path), "GIT_CONFIG_NOSYSTEM": "1", "LC_ALL": "C"}
    done = subprocess.run(["/bin/bash", "--noprofile", "--norc", "-eo", "pipefail", str(script)], cwd=work,
                          env=env, capture_output=True, text=True, check=False, timeout=60)
    outputs = dict(line.split("=", 1) for line in output.read_text(encoding="utf-8").splitlines() if "=" in line)
    return done.returncode, done.stdout + done.stderr, outputs


def _retag(clone: Path, tag: str, target: str) -> None:
    """A tag as it reaches the clone: created in it (the checkout fetched every tag)."""
    _git(clone, "tag", "-f", "-a", "-m", tag, tag, target)


def test_verify_passes_a_gate_tag_on_main_naming_its_version(origin_clone, tmp_path):
    status, out, outputs = run_verify(origin_clone, "gate/v0.2.0", tmp_path)
    assert status == 0, out
    assert outputs == {"commit": _git(origin_clone, "rev-parse", "gate/v0.2.0^{commit}"), "version": "0.2.0"}


def test_verify_refuses_a_version_the_commit_does_not_say(origin_clone, tmp_path):
    _retag(origin_clone, "gate/v0.3.0", "gate/v0.2.0^{commit}")
    status, out, outputs = run_verify(origin_clone, "gate/v0.3.0", tmp_path)
    assert status != 0 and "asks for 0.3.0" in out and "__version__ is 0.2.0" in out, out
    assert outputs == {}


def test_verify_refuses_a_commit_off_mains_first_parent_history(origin_clone, tmp_path):
    """The side commit is reachable from main (merged with --no-ff) and says 0.2.0: only the first-parent
    rule refuses it."""
    side = _git(origin_clone, "rev-parse", "side-0.2.0^{commit}")
    assert _git(origin_clone, "merge-base", "--is-ancestor", side, "refs/remotes/origin/main") == ""
    _git(origin_clone, "tag", "-d", "gate/v0.2.0")
    _retag(origin_clone, "gate/v0.2.0", side)
    status, out, outputs = run_verify(origin_clone, "gate/v0.2.0", tmp_path)
    assert status != 0 and "not on main's first-parent history" in out, out
    assert outputs == {}


def test_verify_refuses_a_commit_on_no_branch_of_main(origin_clone, tmp_path):
    _git(origin_clone, "tag", "-d", "gate/v0.2.0")
    _git(origin_clone, "switch", "-q", "--detach", "refs/remotes/origin/main")
    _commit(origin_clone, "0.2.0", "unpushed")
    _retag(origin_clone, "gate/v0.2.0", "HEAD")
    status, out, _ = run_verify(origin_clone, "gate/v0.2.0", tmp_path)
    assert status != 0 and "not on main's first-parent history" in out, out


@pytest.mark.parametrize("tag", ["gate/v0.2", "gate/v0.2.0-rc1", "gate/v0.02.0", "gate/0.2.0", "v0.2.0",
                                 "gate/v0.2.0.1", "release/gate/v0.2.0"])
def test_verify_refuses_a_tag_out_of_the_grammar(origin_clone, tmp_path, tag):
    _retag(origin_clone, tag, "gate/v0.2.0^{commit}")
    status, out, outputs = run_verify(origin_clone, tag, tmp_path)
    assert status != 0 and "is not a gate release tag" in out, out
    assert outputs == {}


def test_verify_refuses_a_commit_whose_init_says_no_single_version(origin_clone, tmp_path):
    _git(origin_clone, "switch", "-q", "--detach", "refs/remotes/origin/main")
    init = origin_clone / INIT
    init.parent.mkdir(parents=True, exist_ok=True)
    init.write_text('__version__ = "0.2.0"\n__version__ = "0.2.0"\n', encoding="utf-8")
    _git(origin_clone, "add", "-A")
    _git(origin_clone, "commit", "-q", "-m", "two versions")
    _git(origin_clone, "update-ref", "refs/remotes/origin/main", "HEAD")
    _retag(origin_clone, "gate/v0.2.0", "HEAD")
    status, out, _ = run_verify(origin_clone, "gate/v0.2.0", tmp_path)
    assert status != 0 and "no single __version__" in out, out


def test_verify_refuses_a_tag_that_is_missing(origin_clone, tmp_path):
    status, out, _ = run_verify(origin_clone, "gate/v0.9.0", tmp_path)
    assert status != 0 and "does not resolve to a commit" in out, out


# --- what reads a gate tag: nothing of the catalog's history -------------------------------------------


def test_section_3s_grammar_never_reads_a_gate_tag():
    """RFC 0019 §3's release-tag grammar, as the gate and its history read tags: a `gate/vX.Y.Z` tag is no
    catalog release (never unrecorded, never above a release); its near miss `vX.Y.Z` is one."""
    from judgment_exchange.catalog.grammar import RELEASE_TAG
    from judgment_exchange.history import release_key

    for tag in ("gate/v0.2.0", "gate/v1.2.3"):
        assert RELEASE_TAG.fullmatch(tag) is None and release_key(tag) is None, tag
    assert RELEASE_TAG.fullmatch("v1.2.3") and release_key("v1.2.3") is not None


# --- docs/publishing.md names what PyPI's trusted publisher matches ------------------------------------

DOCS = REPO / "docs" / "publishing.md"


def test_the_docs_trusted_publisher_is_this_workflow():
    """The pending publisher's fields in docs/publishing.md are this workflow's file name and its publish
    job's environment: a rename of either fails here before it fails on PyPI."""
    rows = dict(re.findall(r"^\|\s*([A-Za-z ]+?)\s*\|\s*`([^`]+)`\s*\|\s*$", DOCS.read_text(encoding="utf-8"), re.M))
    assert rows.get("Workflow name") == PUBLISH.name
    assert rows.get("Environment name") == _load(PUBLISH)["jobs"]["publish"]["environment"]["name"]
    assert rows.get("Owner") == "Judgment-Pack" and rows.get("Repository name") == "judgment-pack-exchange"
    assert rows.get("PyPI project name") == "judgment-pack-exchange"
