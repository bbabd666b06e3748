"""Issue #24 item 3(b), the dynamic test: the install, fetch and gate steps of gate.yml's gate job, taken from
the YAML as it stands — the job's steps and, through them, the steps of the gate's action read from the base
commit's own checkout (`./base/.github/actions/gate`, issue #33 item 2; its inputs and every expression
substituted, GITHUB_ACTION_PATH the action's folder in base/, nothing else changed) — and run in a layout like the
runner's, against a base that holds root `pip/`, `json/`, `subprocess.py`, `judgment_exchange/`, `pytest.ini` with a
`-p` plugin, `conftest.py` and `sitecustomize.py`, each writing a marker when Python imports or runs it.
No marker is written, and a pull request with an AWS key is still refused.

On the main of issue #24 the install step (`python -m pip …` with `working-directory: base`) ran the base's
`pip/__main__.py`; `test_the_markers_are_written_where_python_starts_in_the_checkout` shows each marker
works, by starting Python the ways the old workflows did. The verifier-fetch step is `continue-on-error`
and fetches from GitHub, which this machine does not reach; it is not run (the gate then replays with the
bundled verifier and says so)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from ..support.demo import ROOT as DEMO
from ..support.gitrepo import GitRepo
from ..support.paths import REPO
from .runner import Layout, clone_at, job_steps, pull_request_origin, run_steps
from .workflow import load

KEY = "AKIA" + "Q3ZT7XN2LW8VB4MK"  # an AWS access key id's shape, planted here (never a real key)
GATE_FILES = ("pyproject.toml", "README.md", "LICENSE", "requirements.txt", "requirements-build.txt",
              ".github/actions/gate/action.yml")
SHADOWS = ("pip", "json", "subprocess", "judgment_exchange", "pytest_ini_plugin", "conftest", "sitecustomize")


def _marker_code(markers: Path, name: str) -> str:
    return (f"import os as _os\n"
            f"open(_os.path.join({str(markers)!r}, {name!r}), 'w').write('ran')\n")


def _plant_shadows(root: Path, markers: Path) -> None:
    """Root files that run when Python starts with the checkout on sys.path (or pytest starts there)."""
    for package in ("pip", "json", "judgment_exchange"):
        (root / package).mkdir()
        (root / package / "__init__.py").write_text(_marker_code(markers, package))
    (root / "pip" / "__main__.py").write_text(_marker_code(markers, "pip"))
    (root / "subprocess.py").write_text(_marker_code(markers, "subprocess"))
    (root / "sitecustomize.py").write_text(_marker_code(markers, "sitecustomize"))
    (root / "conftest.py").write_text(_marker_code(markers, "conftest"))
    (root / "pytest_ini_plugin.py").write_text(_marker_code(markers, "pytest_ini_plugin"))
    (root / "pytest.ini").write_text("[pytest]\naddopts = -p pytest_ini_plugin\n")


def _base_and_head(tmp: Path, markers: Path) -> tuple[Path, str, str]:
    """origin.git holding the base commit on main (the gate's own files from this checkout, the demonstration
    catalog at the root, the shadowing files) and the pull request's head (an AWS key in an entry's README,
    re-pinned) at refs/pull/1/head."""
    work = tmp / "author"
    shutil.copytree(DEMO, work)
    for name in GATE_FILES:
        (work / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(REPO / name, work / name)
    shutil.copytree(REPO / "tools", work / "tools", ignore=shutil.ignore_patterns("__pycache__", "*.egg-info"))
    _plant_shadows(work, markers)
    git = GitRepo(work)
    git.git("add", "-A")
    git.git("commit", "-q", "-m", "base: the gate, the catalog, and files that shadow Python's")
    base = git.git("rev-parse", "HEAD")
    readme = work / "entries" / "runner" / "intake-vendor-copy" / "README.md"
    readme.write_text(readme.read_text(encoding="utf-8") + f"\nThe vendor API is read with {KEY}.\n", encoding="utf-8")
    from judgment_exchange.cli import main

    assert main(["fix", "--catalog", str(work)]) == 0  # the contributor re-pins, as CONTRIBUTING.md says
    git.git("commit", "-q", "-am", "Add a key\n\nSigned-off-by: History Test <history-test@example.invalid>")
    origin, head = pull_request_origin(work, base)
    return origin, base, head


def _env() -> dict[str, str]:
    """The runner's environment: no PYTHON* variable of this test's process, no virtual environment."""
    keep = ("HOME", "LANG", "LC_ALL", "TMPDIR", "PIP_CONFIG_FILE", "PIP_INDEX_URL", "PIP_EXTRA_INDEX_URL",
            "PIP_FIND_LINKS", "PIP_CACHE_DIR", "SSL_CERT_FILE", "REQUESTS_CA_BUNDLE")
    env = {k: v for k, v in os.environ.items() if k in keep}
    env["PATH"] = "/usr/local/bin:/usr/bin:/bin"
    env.update(GIT_CONFIG_NOSYSTEM="1", GIT_TERMINAL_PROMPT="0", PYTHONDONTWRITEBYTECODE="1")
    return env


def _interpreter() -> str:
    """The base interpreter (not this test's virtual environment, if any): what setup-python provides."""
    return os.path.realpath(getattr(sys, "_base_executable", sys.executable))


@pytest.fixture(scope="module")
def pull_request(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("runner")
    markers = tmp / "markers"
    markers.mkdir()
    origin, base, head = _base_and_head(tmp, markers)
    layout = Layout.make(tmp / "runner", _interpreter())
    clone_at(origin, layout, "base", base)
    return layout, markers, base, head


def test_attack_base_root_pip_module_runs_in_the_gate_job(pull_request):
    layout, markers, base, head = pull_request
    job = load(REPO / ".github" / "workflows" / "gate.yml")["jobs"]["gate"]
    steps = [s for s in job_steps(job, layout) if "run" in s and not s.get("continue-on-error")]
    assert [s["name"].split(" ")[:2] for s in steps] == [["The", "inputs"], ["Install", "the"], ["Fetch", "the"],
                                                          ["The", "gate"], ["The", "review"]]
    assert all(s["_action"] == str(layout.workspace / "base" / ".github" / "actions" / "gate") for s in steps)
    context = {"github.event.pull_request.base.sha": base, "github.event.pull_request.head.sha": head}
    done = run_steps(job, steps, layout, context, _env())
    assert sorted(p.name for p in markers.iterdir()) == [], "a file of the checkout ran in the trusted job"
    assert [d.returncode for d in done[:3]] == [0, 0, 0], [d.stderr[-2000:] for d in done]
    gate, review = done[3], done[4]
    assert gate.returncode == 1, (gate.stdout[-3000:], gate.stderr[-3000:])
    assert "::error" in gate.stdout and "secret-aws-access-key" in gate.stdout, gate.stdout[-3000:]
    assert KEY not in gate.stdout and KEY not in gate.stderr
    summary = (layout.temp / "_step_summary").read_text(encoding="utf-8")
    assert review.returncode == 0 and "secret-aws-access-key" in summary and KEY not in summary, review.stderr
    installed = list((layout.temp / "gate" / "lib").glob("python3*/site-packages/judgment_exchange/__init__.py"))
    assert len(installed) == 1, "the gate is not installed non-editable in the environment under RUNNER_TEMP"
    assert not list((layout.temp / "gate" / "lib").glob("python3*/site-packages/__editable__*"))


@pytest.mark.parametrize("command, marker", [
    (["python", "-m", "pip", "--version"], "pip"),        # gate.yml's install step before issue #24
    (["python", "-c", "import json"], "json"),           # release.yml's verdict step before issue #24
    (["python", "-c", "import subprocess"], "subprocess"),
    (["python", "-c", "import judgment_exchange"], "judgment_exchange"),
    (["python", "-m", "pytest", "--co", "-q", "nothing.py"], "pytest_ini_plugin"),
])
def test_the_markers_are_written_where_python_starts_in_the_checkout(pull_request, tmp_path, command, marker):
    """The near miss that shows the test can fail: Python started as the old workflows started it, in the
    base's checkout, runs the planted file and writes its marker."""
    layout, markers, _, _ = pull_request
    local = tmp_path / "markers"
    shutil.copytree(layout.workspace / "base", tmp_path / "base", ignore=shutil.ignore_patterns(".git"))
    local.mkdir()
    for path in (tmp_path / "base").rglob("*.py"):
        path.write_text(path.read_text().replace(str(markers), str(local)))
    env = _env()
    env["PATH"] = f"{layout.python_bin}:{env['PATH']}"
    if marker == "pytest_ini_plugin":
        command = [sys.executable, *command[1:]]  # pytest is installed in this test's interpreter
        shutil.rmtree(tmp_path / "base" / "json")  # a shadowed json stops pytest before it reads pytest.ini
        (tmp_path / "base" / "subprocess.py").unlink()
    subprocess.run(command, cwd=tmp_path / "base", env=env, capture_output=True, check=False, timeout=120)
    assert marker in [p.name for p in local.iterdir()]
