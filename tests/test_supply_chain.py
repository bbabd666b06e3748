"""The pinned supply chain (issue #16 item 7, issue #24 item 2; docs/dependencies.md): every action a workflow
runs is pinned by a full commit with its version in a comment, and every package is installed from a
hash-pinned lock: the runtime lock (requirements.txt, the [project] dependencies alone) that the trusted jobs
install beside the gate's wheel, the build lock (requirements-build.txt) the wheel is built with, and the
development lock (requirements-dev.txt) .ci/run installs before the package alone. Each checker here is a
plain function, so the near-miss tests show it can fail.

The action pins are copied from shared/reference/actions-pins.md (confirmed there by the agreement of many
public workflow files, not by resolving a tag: no machine here reaches GitHub). The copy is what a fresh clone
without ../shared checks against; where ../shared is present the copy is held equal to it."""

from __future__ import annotations

import json
import re
import shlex
import tomllib
from importlib.resources import files
from pathlib import Path
from typing import Any, Iterator

import jsonschema
import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name
from ruamel.yaml import YAML

from .support.paths import REPO, SHARED, shared_missing

WORKFLOWS = sorted((REPO / ".github" / "workflows").glob("*.y*ml"))
ACTIONS = sorted((REPO / ".github" / "actions").glob("*/action.y*ml"))
"""The repository's own composite actions (the gate's, issue #33 item 2): their `uses:` are held like the workflows'."""
LOCK = REPO / "requirements.txt"
LOCK_INPUT = REPO / "requirements.in"
BUILD_LOCK = REPO / "requirements-build.txt"
BUILD_INPUT = REPO / "requirements-build.in"
DEV_LOCK = REPO / "requirements-dev.txt"
DEV_INPUT = REPO / "requirements-dev.in"
LOCKS = {LOCK: LOCK_INPUT, BUILD_LOCK: BUILD_INPUT, DEV_LOCK: DEV_INPUT}
PYPROJECT = REPO / "pyproject.toml"
CI_RUN = REPO / ".ci" / "run"
DEPENDABOT = REPO / ".github" / "dependabot.yml"
DOCS = REPO / "docs" / "dependencies.md"
SHARED_PINS = SHARED / "reference" / "actions-pins.md"

# Copied from shared/reference/actions-pins.md (2026-12-01; the last three rows 2026-12-06):
# action -> (commit, version).
ACTION_PINS: dict[str, tuple[str, str]] = {
    "actions/checkout": ("11bd71901bbe5b1630ceea73d27597364c9af683", "v4.2.2"),
    "actions/setup-python": ("a26af69be951a213d495a4c3e4e4022e16d87065", "v5.6.0"),
    "actions/github-script": ("60a0d83039c74a4aee543508d2ffcb1c3799cdea", "v7.0.1"),
    "actions/configure-pages": ("983d7736d9b0ae728b81ab479565c72886d7745b", "v5.0.0"),
    "actions/upload-pages-artifact": ("56afc609e74202658d3ffba0e8f6dda462b719fa", "v3.0.1"),
    "actions/deploy-pages": ("d6db90164ac5ed86f2b6aed7e0febac5b3c0c03e", "v4.0.5"),
    "actions/upload-artifact": ("ea165f8d65b6e75b540449e92b4886f43607fa02", "v4.6.2"),
    "actions/download-artifact": ("d3f86a106a0bac45b974a628896c90dbdf5c8093", "v4.3.0"),
    "pypa/gh-action-pypi-publish": ("dc37677b2e1c63e2034f94d8a5b11f265b73ba33", "v1.14.2"),
}

GOOD_CHECKOUT = "uses: actions/checkout@11bd71901bbe5b1630ceea73d27597364c9af683 # v4.2.2"


# --- actions -------------------------------------------------------------------------------------------


def _uses_values(node: Any, checkouts: tuple[str, ...] = ()) -> Iterator[tuple[str, int, tuple[str, ...]]]:
    """Every `uses:` value in a round-trip-loaded workflow or action, with the 0-based line its value is on and
    the `path:` of each checkout an earlier step of the same steps list made."""
    if isinstance(node, dict):
        for key, value in node.items():
            if key == "uses" and isinstance(value, str):
                yield value, node.lc.value(key)[0], checkouts
            elif key == "steps" and isinstance(value, list):
                seen: list[str] = []
                for step in value:
                    yield from _uses_values(step, tuple(seen))
                    if isinstance(step, dict) and str(step.get("uses", "")).startswith("actions/checkout@"):
                        path = str((step.get("with") or {}).get("path") or "").strip("/")
                        if path:
                            seen.append(path)
            else:
                yield from _uses_values(value, checkouts)
    elif isinstance(node, list):
        for item in node:
            yield from _uses_values(item, checkouts)


_LOCAL = re.compile(r"\./(?P<checkout>[A-Za-z0-9_.-]+)/(?P<rest>[A-Za-z0-9_./-]+)")


_ACTION = re.compile(r"(?P<action>[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+)(?:/[^@\s]+)?@(?P<ref>\S+)")
_COMMIT = re.compile(r"[0-9a-f]{40}")
_VERSION_COMMENT = re.compile(r"\s+#\s*(?P<version>v\d+\.\d+\.\d+)\s*")


GATE_ACTION = "Judgment-Pack/judgment-pack-exchange/.github/actions/gate"
_GATE_COMMENT = re.compile(r"\s+#\s*(?:gate/v\d+\.\d+\.\d+|[0-9a-f]{40}|[^#]*\bmoved by hand\b[^#]*)\s*")
"""The gate's pin comment: its release tag (which Dependabot reads), or the commit or a note that the pin is moved
by hand (a commit that is no release: `exchange init --gate-ref`, docs/init.md)."""


def action_pin_problems(text: str, pins: dict[str, tuple[str, str]] = ACTION_PINS,
                        gate_ref: str | None = None) -> list[str]:
    """Why a workflow's `uses:` lines are not each `owner/repo@<40-hex commit> # vX.Y.Z` from `pins`, or a local
    action inside one of its job's own checkouts (`./base/…` after the checkout with `path: base`), or, where
    `gate_ref` is given (a catalog `exchange init` wrote), the gate's action at that commit with a `# gate/vX.Y.Z`
    (or `# <commit>`) comment."""
    lines = text.splitlines()
    problems = []
    for value, line_no, checkouts in _uses_values(YAML(typ="rt", pure=True).load(text)):
        where = f"line {line_no + 1}: uses: {value}"
        if value.startswith("./"):
            local = _LOCAL.fullmatch(value)
            if not local or ".." in value.split("/") or local["checkout"] not in checkouts:
                problems.append(f"{where}: a local action outside every checkout an earlier step of its job made")
            continue
        if gate_ref is not None and value.startswith(GATE_ACTION + "@"):
            line = lines[line_no]
            rest = line[line.find(value) + len(value):] if value in line else ""
            if value != f"{GATE_ACTION}@{gate_ref}" or not _GATE_COMMENT.fullmatch(rest):
                problems.append(f"{where}: expected {GATE_ACTION}@{gate_ref} # gate/vX.Y.Z")
            continue
        match = _ACTION.fullmatch(value)
        if not match:
            problems.append(f"{where}: not owner/repo@ref")
            continue
        action, ref = match["action"], match["ref"]
        if not _COMMIT.fullmatch(ref):
            problems.append(f"{where}: {ref!r} is not a full 40-hex lowercase commit (a tag or branch can be moved)")
            continue
        line = lines[line_no]
        rest = line[line.find(value) + len(value):] if value in line else ""
        comment = _VERSION_COMMENT.fullmatch(rest)
        if not comment:
            problems.append(f"{where}: no `# vX.Y.Z` version comment after the commit on its line")
            continue
        if action not in pins:
            problems.append(f"{where}: {action} has no pin in shared/reference/actions-pins.md")
            continue
        commit, version = pins[action]
        if (ref, comment["version"]) != (commit, version):
            problems.append(f"{where}: expected {action}@{commit} # {version}")
    return problems


def _workflow(step: str) -> str:
    return f"on: push\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n      - {step}\n"


def test_there_are_workflows_and_actions_to_check():
    texts = [path.read_text(encoding="utf-8") for path in WORKFLOWS]
    assert texts, "no .github/workflows/*.yml found"
    assert any(list(_uses_values(YAML(typ="rt", pure=True).load(t))) for t in texts), "no workflow has a uses:"
    assert [p.parent.name for p in ACTIONS] == ["gate"]


@pytest.mark.parametrize("path", WORKFLOWS + ACTIONS, ids=lambda p: p.name if p in WORKFLOWS else p.parent.name)
def test_attack_moved_action_tag_runs_code_in_ci(path: Path):
    """An action pinned by tag runs whatever commit its tag is moved to; a commit cannot be moved."""
    problems = action_pin_problems(path.read_text(encoding="utf-8"))
    assert not problems, problems


def test_the_action_pin_checker_refuses_near_misses():
    assert action_pin_problems(_workflow(GOOD_CHECKOUT)) == []
    near_misses = {
        "uses: actions/checkout@v4": "not a full 40-hex",
        "uses: actions/checkout@v4.2.2 # v4.2.2": "not a full 40-hex",
        "uses: actions/checkout@11bd719 # v4.2.2": "not a full 40-hex",
        "uses: actions/checkout@11BD71901BBE5B1630CEEA73D27597364C9AF683 # v4.2.2": "not a full 40-hex",
        "uses: actions/checkout@11bd71901bbe5b1630ceea73d27597364c9af683": "no `# vX.Y.Z`",
        "uses: actions/checkout@11bd71901bbe5b1630ceea73d27597364c9af683 # latest": "no `# vX.Y.Z`",
        "uses: actions/checkout@11bd71901bbe5b1630ceea73d27597364c9af683 # v4.2.1": "expected actions/checkout@",
        "uses: actions/checkout@" + "0" * 40 + " # v4.2.2": "expected actions/checkout@",
        "uses: someone/checkout@11bd71901bbe5b1630ceea73d27597364c9af683 # v4.2.2": "has no pin",
        "uses: docker://alpine:3": "not owner/repo@ref",
    }
    for step, reason in near_misses.items():
        problems = action_pin_problems(_workflow(step))
        assert len(problems) == 1 and reason in problems[0], (step, problems)


CHECKOUT_BASE = GOOD_CHECKOUT + "\n        with: {path: base, persist-credentials: false}"


def test_a_local_action_is_admitted_only_inside_an_earlier_checkout_of_its_job():
    def steps(*lines: str) -> str:
        return ("on: push\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n"
                + "".join(f"      - {s}\n" for s in lines))

    assert action_pin_problems(steps(CHECKOUT_BASE, "uses: ./base/.github/actions/gate")) == []
    near_misses = [
        steps("uses: ./base/.github/actions/gate", CHECKOUT_BASE),                   # before its checkout
        steps(CHECKOUT_BASE, "uses: ./change/.github/actions/gate"),                 # no such checkout
        steps(CHECKOUT_BASE, "uses: ./.github/actions/gate"),                        # the workspace's root
        steps(CHECKOUT_BASE, "uses: ./base/../base/.github/actions/gate"),           # out and back
        steps(GOOD_CHECKOUT, "uses: ./base/.github/actions/gate"),                   # the checkout at the root
        steps(CHECKOUT_BASE) + "  b:\n    runs-on: ubuntu-latest\n    steps:\n"
                               "      - uses: ./base/.github/actions/gate\n",
    ]
    for text in near_misses:
        problems = action_pin_problems(text)
        assert len(problems) == 1 and "a local action outside every checkout" in problems[0], (text, problems)


def test_the_gate_action_is_admitted_at_the_ref_given_alone():
    ref = "0123456789abcdef" * 2 + "01234567"
    good = _workflow(f"uses: {GATE_ACTION}@{ref} # gate/v1.2.3")
    assert action_pin_problems(good, gate_ref=ref) == []
    assert action_pin_problems(_workflow(f"uses: {GATE_ACTION}@{ref} # {ref}"), gate_ref=ref) == []
    assert "no `# vX.Y.Z` version comment" in action_pin_problems(good)[0]  # not without gate_ref: never here
    for step in (f"uses: {GATE_ACTION}@{'f' * 40} # gate/v1.2.3", f"uses: {GATE_ACTION}@{ref}",
                 f"uses: {GATE_ACTION}@{ref} # v1.2.3", f"uses: {GATE_ACTION}@gate/v1.2.3 # gate/v1.2.3"):
        problems = action_pin_problems(_workflow(step), gate_ref=ref)
        assert len(problems) == 1 and "expected Judgment-Pack/" in problems[0], (step, problems)


def test_a_tag_pinned_reusable_workflow_is_refused_too():
    text = "on: push\njobs:\n  a:\n    uses: octo/flows/.github/workflows/ci.yml@main\n"
    problems = action_pin_problems(text)
    assert len(problems) == 1 and "not a full 40-hex" in problems[0], problems


def _pins_in_markdown(text: str) -> dict[str, tuple[str, str]]:
    rows = re.findall(r"^\|\s*`([^`]+)`\s*\|\s*`([0-9a-f]{40})`\s*\|\s*(v\d+\.\d+\.\d+)\s*\|\s*$", text, re.M)
    return {action: (commit, version) for action, commit, version in rows}


def test_the_copied_pins_are_shared_references_pins():
    if not SHARED_PINS.is_file():
        pytest.skip(shared_missing(SHARED_PINS))
    assert _pins_in_markdown(SHARED_PINS.read_text(encoding="utf-8")) == ACTION_PINS


# --- the lock ------------------------------------------------------------------------------------------

_PIN = re.compile(r"(?P<name>[A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?)==(?P<version>[0-9][A-Za-z0-9.+!_-]*)")
_HASH = re.compile(r"--hash=sha256:[0-9a-f]{64}")


def read_lock(text: str) -> tuple[dict[str, str], list[str]]:
    """The lock's pins (canonical name -> version) and why any line is not `name==version --hash=sha256:...`."""
    logical, current = [], ""
    for raw in text.splitlines():
        line = re.sub(r"(^|\s)#.*$", "", raw).strip()
        if line.endswith("\\"):
            current += line[:-1] + " "
            continue
        current += line
        if current.strip():
            logical.append(current.strip())
        current = ""
    if current.strip():
        logical.append(current.strip())
    pins: dict[str, str] = {}
    problems = []
    for entry in logical:
        first, *rest = entry.split()
        pin = _PIN.fullmatch(first)
        if not pin:
            problems.append(f"{entry[:80]!r}: not an exact `name==version` pin")
            continue
        bad = [token for token in rest if not _HASH.fullmatch(token)]
        if bad or not rest:
            problems.append(f"{first}: needs one or more --hash=sha256:<64 hex> and nothing else, has {bad or 'none'}")
            continue
        name = canonicalize_name(pin["name"])
        if name in pins:
            problems.append(f"{first}: {name} is pinned twice")
        pins[name] = pin["version"]
    return pins, problems


def _pyproject() -> dict:
    return tomllib.loads(PYPROJECT.read_text(encoding="utf-8"))


def runtime_requirements() -> list[Requirement]:
    """pyproject.toml's [project] dependencies: what the runtime lock holds, and nothing else."""
    return [Requirement(text) for text in _pyproject()["project"]["dependencies"]]


BUILD_FRONT_END = "build==1.6.1"
"""PyPA's `build`, the one package the build lock holds beyond [build-system] requires (issue #33 item 4):
publish.yml builds the wheel and the sdist with `python -I -m build --no-isolation` in that environment."""


def build_requirements() -> list[Requirement]:
    """pyproject.toml's [build-system] requires and the build front end: what the build lock holds."""
    return [*(Requirement(text) for text in _pyproject()["build-system"]["requires"]), Requirement(BUILD_FRONT_END)]


def declared_requirements() -> list[Requirement]:
    """pyproject.toml's dependencies, its `test` extra and its build backend's requirements."""
    project = _pyproject()
    return [*runtime_requirements(), *[Requirement(t) for t in project["project"]["optional-dependencies"]["test"]],
            *(Requirement(text) for text in project["build-system"]["requires"])]


def coverage_problems(pins: dict[str, str], requirements: list[Requirement]) -> list[str]:
    """Why the lock's pins do not cover each requirement with a version its specifier allows."""
    problems = []
    for requirement in requirements:
        version = pins.get(canonicalize_name(requirement.name))
        if version is None:
            problems.append(f"{requirement.name} ({requirement}) is not in the lock")
        elif not requirement.specifier.contains(version, prereleases=True):
            problems.append(f"{requirement.name}=={version} does not satisfy pyproject's {requirement}")
    return problems


def _lock_with(*entries: str) -> str:
    return "".join(f"{entry}\n" for entry in entries)


H1, H2 = "--hash=sha256:" + "a" * 64, "--hash=sha256:" + "b" * 64


@pytest.mark.parametrize("lock, wanted", [(LOCK, runtime_requirements), (BUILD_LOCK, build_requirements),
                                         (DEV_LOCK, declared_requirements)], ids=lambda v: getattr(v, "name", ""))
def test_attack_unpinned_dependency_installed_in_ci(lock, wanted):
    """An unpinned or unhashed requirement installs whatever the index serves that day; each lock pins every
    package it installs to a version and to the hashes of its files, and covers what it is for."""
    pins, problems = read_lock(lock.read_text(encoding="utf-8"))
    assert not problems, problems
    assert not coverage_problems(pins, wanted()), coverage_problems(pins, wanted())


def test_attack_test_tool_adds_code_to_a_trusted_job():
    """Issue #24 item 2: a trusted job installs the runtime lock and the build lock, never the development
    lock; so the runtime lock holds the [project] dependencies and what they need, no test tool or linter."""
    runtime, _ = read_lock(LOCK.read_text(encoding="utf-8"))
    build, _ = read_lock(BUILD_LOCK.read_text(encoding="utf-8"))
    for tool in ("pytest", "hypothesis", "check-jsonschema", "selenium", "zizmor", "setuptools"):
        assert tool not in runtime, tool
    assert set(build) == {"setuptools", "build", "packaging", "pyproject-hooks"}


def test_the_development_lock_pins_the_runtime_locks_versions():
    """The tests run the same versions a trusted job installs (requirements-dev.in constrains by the runtime
    and build locks), so what the tests pass is what the gate runs."""
    dev, _ = read_lock(DEV_LOCK.read_text(encoding="utf-8"))
    for lock in (LOCK, BUILD_LOCK):
        pins, _ = read_lock(lock.read_text(encoding="utf-8"))
        assert {name: dev.get(name) for name in pins} == pins, lock.name


def test_the_lock_reader_refuses_near_misses():
    assert read_lock(_lock_with(f"pytest==9.2.0 \\\n    {H1} \\\n    {H2}\n    # via -r requirements.in")) == (
        {"pytest": "9.2.0"}, [])
    near_misses = {
        _lock_with(f"pytest>=8 \\\n    {H1}"): "not an exact",
        _lock_with("pytest==9.2.0"): "needs one or more",
        _lock_with("pytest==9.2.0 \\\n    --hash=sha256:abc123"): "needs one or more",
        _lock_with("pytest==9.2.0 \\\n    --hash=md5:" + "a" * 32): "needs one or more",
        _lock_with(f"-e git+https://example.invalid/pytest#egg=pytest \\\n    {H1}"): "not an exact",
        _lock_with("--extra-index-url https://example.invalid/simple"): "not an exact",
        _lock_with(f"pytest==9.2.0 \\\n    {H1}", f"PyTest==9.1.0 \\\n    {H2}"): "pinned twice",
    }
    for lock, reason in near_misses.items():
        _, problems = read_lock(lock)
        assert len(problems) == 1 and reason in problems[0], (lock, problems)


def test_the_coverage_check_refuses_a_missing_or_out_of_range_pin():
    wanted = [Requirement("jsonschema>=4.20,<5"), Requirement("setuptools>=64")]
    assert coverage_problems({"jsonschema": "4.26.0", "setuptools": "84.2.1"}, wanted) == []
    assert coverage_problems({"jsonschema": "4.26.0"}, wanted) == ["setuptools (setuptools>=64) is not in the lock"]
    problems = coverage_problems({"jsonschema": "5.0.0", "setuptools": "84.2.1"}, wanted)
    assert len(problems) == 1 and "jsonschema==5.0.0 does not satisfy" in problems[0], problems


def _requirement_key(requirement: Requirement) -> tuple:
    return canonicalize_name(requirement.name), requirement.specifier, frozenset(requirement.extras), \
        str(requirement.marker or "")


def _input_requirements(path) -> tuple[list, list[str]]:
    """The requirements of a pip-compile input, and its `-c FILE` constraints."""
    lines = [re.sub(r"(^|\s)#.*$", "", line).strip() for line in path.read_text(encoding="utf-8").splitlines()]
    constraints = [line.split(None, 1)[1] for line in lines if line.startswith("-c ")]
    return sorted(_requirement_key(Requirement(line)) for line in lines if line and not line.startswith("-")), \
        constraints


@pytest.mark.parametrize("lock_input, wanted, constraints", [
    (LOCK_INPUT, runtime_requirements, []), (BUILD_INPUT, build_requirements, []),
    (DEV_INPUT, declared_requirements, ["requirements.txt", "requirements-build.txt"])],
    ids=lambda v: getattr(v, "name", ""))
def test_the_lock_input_declares_what_pyproject_declares(lock_input, wanted, constraints):
    """Each .in file is pip-compile's (and Dependabot's) input for its lock: the same requirements as
    pyproject.toml, same specifiers."""
    declared, given = _input_requirements(lock_input)
    assert declared == sorted(_requirement_key(r) for r in wanted()), \
        f"{lock_input.name} and pyproject.toml differ: edit both, then refresh the lock"
    assert given == constraints


def _lock_command(lock=LOCK) -> str:
    lines = lock.read_text(encoding="utf-8").splitlines()
    header = "\n".join(lines[:next((i for i, line in enumerate(lines) if not line.startswith("#")), len(lines))])
    assert "autogenerated by pip-compile with Python 3.11" in header, header
    commands = re.findall(r"^#\s+(pip-compile .*)$", header, re.M)
    assert len(commands) == 1, header
    return commands[0]


@pytest.mark.parametrize("lock", list(LOCKS), ids=lambda p: p.name)
def test_the_lock_is_pip_compiles_hashed_output_of_its_input(lock):
    """The header names the command; Dependabot pairs each .txt with its .in by its --output-file and reruns
    it with the options the header shows."""
    command = shlex.split(_lock_command(lock))
    for option in ("--generate-hashes", "--allow-unsafe", f"--output-file={lock.name}"):
        assert option in command, command
    assert command[-1] == LOCKS[lock].name, command


def test_the_docs_give_the_locks_command_and_every_dependency():
    docs = DOCS.read_text(encoding="utf-8")
    for lock in LOCKS:
        assert _lock_command(lock) in docs, f"docs/dependencies.md does not give {lock.name}'s refresh command"
    for requirement in declared_requirements():
        assert f"`{requirement.name}" in docs, f"docs/dependencies.md does not say why {requirement.name} is here"


# --- how CI installs -----------------------------------------------------------------------------------

_SEPARATORS = {"&&", "||", ";", "|", "&", "(", ")"}
_QUIET = {"--quiet", "-q", "--disable-pip-version-check"}


def pip_installs(script: str) -> list[list[str]]:
    """The arguments of each `pip install` command in a shell script, in order."""
    installs = []
    for line in script.replace("\\\n", " ").splitlines():
        lexer = shlex.shlex(line, posix=True, punctuation_chars=True)
        lexer.whitespace_split = True
        command: list[str] = []
        for token in [*lexer, ";"]:
            if token not in _SEPARATORS:
                command.append(token)
                continue
            for i in range(1, len(command)):
                if command[i] == "install" and command[i - 1].rsplit("/", 1)[-1] in ("pip", "pip3"):
                    installs.append(command[i + 1:])
                    break
            command = []
    return installs


def install_problems(installs: list[list[str]]) -> list[str]:
    """Why these installs are not exactly: the development lock with --require-hashes, then the package alone."""
    forms = [["--require-hashes", "-r", "requirements-dev.txt"], ["--no-deps", "--no-build-isolation", "-e", "."]]
    shown = [" ".join(args) for args in installs]
    if len(installs) != 2:
        return [f"expected 2 pip installs (the lock, then the package), found {len(installs)}: {shown}"]
    problems = []
    for args, form, what in zip(installs, forms, ("first: the lock", "then: the package alone"), strict=True):
        if sorted(a for a in args if a not in _QUIET) != sorted(form):
            problems.append(f"{what}: expected `pip install {' '.join(form)}`, found `pip install {' '.join(args)}`")
    return problems


def test_ci_run_installs_the_lock_then_the_package_alone():
    installs = pip_installs(CI_RUN.read_text(encoding="utf-8"))
    assert not install_problems(installs), install_problems(installs)


def test_the_install_check_refuses_near_misses():
    good = ("python -m pip install --quiet --require-hashes -r requirements-dev.txt\n"
            "python -m pip install -q --no-deps --no-build-isolation -e .\n")
    assert install_problems(pip_installs(good)) == []
    near_misses = {
        "python -m pip install -e '.[test]'": "expected 2",
        "pip install --require-hashes -r requirements-dev.txt": "expected 2",
        "pip install -r requirements-dev.txt && pip install --no-deps --no-build-isolation -e .": "first: the lock",
        "pip install --require-hashes -r requirements-dev.txt; pip install -e .": "then: the package alone",
        "pip install --require-hashes -r requirements-dev.txt\npip install --no-deps -e .": "then: the package alone",
        "pip install --no-deps --no-build-isolation -e . && pip install --require-hashes -r requirements-dev.txt":
            "first: the lock",
        good + "pip3 install requests": "expected 2",
        "python -m pip install --require-hashes \\\n  -r requirements-dev.txt requests\n"
        "pip install --no-deps --no-build-isolation -e .": "first: the lock",
        "pip install --require-hashes -r requirements.txt && pip install --no-deps --no-build-isolation -e .":
            "first: the lock",
    }
    for script, reason in near_misses.items():
        problems = install_problems(pip_installs(script))
        assert problems and reason in problems[0], (script, problems)


# --- Dependabot ----------------------------------------------------------------------------------------


def dependabot_problems(config: Any) -> list[str]:
    """Why a dependabot.yml does not keep both the actions and the lock current, weekly, from the root."""
    schema = json.loads((files("check_jsonschema.builtin_schemas.vendor") / "dependabot.json").read_text("utf-8"))
    problems = [f"{'/'.join(map(str, e.path))}: {e.message}"
                for e in jsonschema.validators.validator_for(schema)(schema).iter_errors(config)]
    if problems:
        return problems
    updates = {u["package-ecosystem"]: u for u in config["updates"]}
    for ecosystem in ("github-actions", "pip"):
        update = updates.get(ecosystem)
        if update is None:
            problems.append(f"no {ecosystem} update")
        elif update.get("directory") != "/" or update["schedule"]["interval"] != "weekly":
            problems.append(f"{ecosystem}: expected directory \"/\" and a weekly schedule")
    for update in config["updates"]:  # issue #38 item 6: zizmor's dependabot-cooldown
        if not (update.get("cooldown") or {}).get("default-days"):
            problems.append(f"{update['package-ecosystem']}: no cooldown (default-days)")
    return problems


def test_dependabot_keeps_the_actions_and_the_lock_current():
    config = YAML(typ="safe", pure=True).load(DEPENDABOT.read_text(encoding="utf-8"))
    assert not dependabot_problems(config), dependabot_problems(config)


def test_the_dependabot_check_refuses_near_misses():
    def update(ecosystem: str, interval: str = "weekly", days: int | None = 7) -> dict:
        return {"package-ecosystem": ecosystem, "directory": "/", "schedule": {"interval": interval},
                **({"cooldown": {"default-days": days}} if days else {})}

    assert dependabot_problems({"version": 2, "updates": [update("github-actions"), update("pip")]}) == []
    assert dependabot_problems({"version": 2, "updates": [update("github-actions")]}) == ["no pip update"]
    assert dependabot_problems({"version": 2, "updates": [update("pip")]}) == ["no github-actions update"]
    assert dependabot_problems({"version": 2, "updates": [update("github-actions"), update("pip", "monthly")]}) == [
        'pip: expected directory "/" and a weekly schedule']
    assert dependabot_problems({"version": 1, "updates": [update("github-actions"), update("pip")]})  # the schema
    assert dependabot_problems({"version": 2, "updates": [update("github-actions", days=None), update("pip")]}) == [
        "github-actions: no cooldown (default-days)"]
