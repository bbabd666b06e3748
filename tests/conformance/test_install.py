"""The kit travels (issue #28 item 5): after a normal, non-editable `pip install .` into a fresh virtual
environment, `exchange conformance run` and `list` find the kit inside the installed package and run from any
directory; a FIFO kit is a kit error at once.

The environment is made as a user makes one: `python -m venv`, setuptools from requirements-build.txt (the
build requirement's hash-pinned lock) installed into it, then `pip install --no-deps --no-build-isolation` of a
copy of this checkout's package files (so no build output lands in the checkout). The package's runtime
dependencies are not installed again: a `.pth` file names this interpreter's site-packages after the new
environment's own, where Python adds a directory without reading the `.pth` files inside it — so this
checkout's editable install is not seen, and the test asserts the package imported is the installed copy.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

from ..support.paths import REPO

PACKAGE_FILES = ("pyproject.toml", "README.md", "LICENSE")
TIMEOUT = 300


def _env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME", "VIRTUAL_ENV")}
    env["PIP_DISABLE_PIP_VERSION_CHECK"] = "1"
    return env


def _run(argv: list[str], cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run(argv, cwd=cwd, env=_env(), capture_output=True, text=True, timeout=TIMEOUT, check=False)


@pytest.fixture(scope="module")
def installed(tmp_path_factory) -> Path:
    """A fresh virtual environment with this checkout's package installed, not editable; its bin directory."""
    root = tmp_path_factory.mktemp("install")
    source = root / "source"
    source.mkdir()
    for name in PACKAGE_FILES:
        shutil.copy2(REPO / name, source / name)
    shutil.copytree(REPO / "tools" / "judgment_exchange", source / "tools" / "judgment_exchange",
                    ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    venv = root / "venv"
    done = _run([sys.executable, "-m", "venv", str(venv)], root)
    assert done.returncode == 0, done.stderr
    python = venv / "bin" / "python"
    done = _run([str(python), "-m", "pip", "install", "--quiet", "--require-hashes", "--no-deps", "-r",
                 str(REPO / "requirements-build.txt")], root)
    if done.returncode != 0 and ("NewConnectionError" in done.stderr or "No matching distribution" in done.stderr):
        pytest.skip(f"setuptools from requirements-build.txt cannot be fetched here: {done.stderr.strip()[-300:]}")
    assert done.returncode == 0, done.stderr
    purelib = Path(_run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                        root).stdout.strip())
    (purelib / "zz_runtime_dependencies.pth").write_text(sysconfig.get_paths()["purelib"] + "\n", encoding="utf-8")
    done = _run([str(python), "-m", "pip", "install", "--quiet", "--no-deps", "--no-build-isolation", str(source)],
                root)
    assert done.returncode == 0, done.stdout + done.stderr
    return venv / "bin"


def test_the_installed_package_is_not_the_checkout(installed, tmp_path):
    done = _run([str(installed / "python"), "-c", "import judgment_exchange; print(judgment_exchange.__file__)"],
                tmp_path)
    assert done.returncode == 0, done.stderr
    where = Path(done.stdout.strip()).resolve()
    assert installed.parent.resolve() in where.parents and REPO.resolve() not in where.parents


def test_conformance_runs_from_any_directory_after_a_non_editable_install(installed, tmp_path):
    listing = _run([str(installed / "exchange"), "conformance", "list"], tmp_path)
    assert listing.returncode == 0, listing.stderr
    kit = Path(listing.stdout.strip().splitlines()[-1].split(" cases in ", 1)[1])
    assert installed.parent.resolve() in kit.resolve().parents and (kit / "cases.json").is_file()
    assert kit.name == "kit" and kit.parent.name == "conformance"
    for tier in ("specification", "none"):
        done = _run([str(installed / "exchange"), "conformance", "run", "--tier", tier, "--case", "release-real-export",
                     "--case", "replay-disagreement", "--case", "manifest-order"], tmp_path)
        assert done.returncode == 0, done.stdout + done.stderr
        assert done.stdout.strip().splitlines()[-1] == "3 passed, 0 failed"


def test_a_fifo_kit_is_a_kit_error_at_once_after_the_install(installed, tmp_path):
    fifo = tmp_path / "kit"
    fifo.mkdir()
    os.mkfifo(fifo / "cases.json")
    done = _run([str(installed / "exchange"), "conformance", "run", "--kit", str(fifo)], tmp_path)
    assert done.returncode == 4 and not done.stdout and len(done.stderr.splitlines()) == 1, done.stderr
    assert "kit error" in done.stderr and "a FIFO, not a regular file" in done.stderr
