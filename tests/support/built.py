"""The package as a user gets it (issue #33, "Done when"): one wheel and one sdist built per run of the suite,
one fresh virtual environment holding that wheel installed non-editable, and the wheelhouse of the runtime and
build locks they are installed from offline. Shared by every test that needs them, across pytest-xdist's workers
(a file lock in the run's shared temporary folder: the first worker builds, the others wait and reuse).

The wheelhouse is `EXCHANGE_WHEELHOUSE` when it names a folder: `.ci/run` fills it before the tests, hash-checked
(`pip download --require-hashes -r requirements.txt -r requirements-build.txt`), so the tests themselves use no
registry. A developer's plain `python -m pytest` without it gets the same download once per run, into the run's
temporary folder (the only network use of the suite; say `EXCHANGE_WHEELHOUSE=DIR` to reuse one).

The distributions are built as publish.yml builds them: `python -m build --no-isolation` over the package's own
files alone (pyproject.toml, tools/, README.md, LICENSE), copied from this checkout's working tree, so an
uncommitted change is what is tested. The copy is no `git archive`, so `judgment_exchange/_commit.txt` keeps its
`$Format:%H$` placeholder: a test that needs `exchange init`'s gate ref passes `--gate-ref`."""

from __future__ import annotations

import fcntl
import os
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

from .paths import REPO

PACKAGE_FILES = ("pyproject.toml", "tools", "README.md", "LICENSE")
"""What a distribution is built from: publish.yml's `git archive` of the tagged commit's package files."""

LOCKS = ("requirements.txt", "requirements-build.txt")


@dataclass(frozen=True)
class Built:
    """The run's built package: its wheel and sdist, the wheelhouse, and the fresh environment's bin/."""

    wheel: Path
    sdist: Path
    wheelhouse: Path
    bin: Path

    @property
    def exchange(self) -> Path:
        """The installed console script: no checkout on its path, no editable install behind it."""
        return self.bin / "exchange"


def shared_folder(basetemp: Path) -> Path:
    """The run's folder every xdist worker sees (a worker's basetemp is `<run>/popen-gwN`)."""
    return basetemp.parent if os.environ.get("PYTEST_XDIST_WORKER") else basetemp


def _run(command: list[str], **kwargs) -> None:
    done = subprocess.run(command, capture_output=True, text=True, check=False, **kwargs)
    if done.returncode:
        raise RuntimeError(f"{' '.join(command)} exited {done.returncode}:\n"
                           f"{done.stdout[-3000:]}\n{done.stderr[-3000:]}")


def _pip_env() -> dict[str, str]:
    """The environment pip runs with: no user configuration's index, no version check."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("PIP_")}
    env.update(PIP_DISABLE_PIP_VERSION_CHECK="1", PYTHONDONTWRITEBYTECODE="1")
    return env


def wheelhouse(folder: Path) -> Path:
    """The hash-checked wheels of the runtime and build locks (`.ci/run`'s, or downloaded once into `folder`)."""
    given = os.environ.get("EXCHANGE_WHEELHOUSE")
    if given and Path(given).is_dir():
        return Path(given)
    target = folder / "wheelhouse"
    if not (target / ".complete").exists():
        command = [sys.executable, "-m", "pip", "download", "--quiet", "--require-hashes", "--only-binary=:all:",
                   "--dest", str(target)]
        for lock in LOCKS:
            command += ["-r", str(REPO / lock)]
        _run(command, env=_pip_env())
        (target / ".complete").touch()
    return target


def _copy_package_files(target: Path) -> None:
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc", "*.egg-info", "build", "dist")
    target.mkdir(parents=True)
    for name in PACKAGE_FILES:
        source = REPO / name
        if source.is_dir():
            shutil.copytree(source, target / name, symlinks=True, ignore=ignore)
        else:
            shutil.copy2(source, target / name)


def _build(folder: Path) -> Built:
    house = wheelhouse(folder)
    source, dist, env = folder / "gate-source", folder / "dist", folder / "gate-env"
    for stale in (source, dist, env):
        shutil.rmtree(stale, ignore_errors=True)
    _copy_package_files(source)
    _run([sys.executable, "-m", "build", "--no-isolation", "--outdir", str(dist), str(source)], env=_pip_env(),
         cwd=folder)
    (wheel,) = dist.glob("*.whl")
    (sdist,) = dist.glob("*.tar.gz")
    _run([sys.executable, "-I", "-m", "venv", str(env)], cwd=folder)
    python = str(env / "bin" / "python")
    _run([python, "-I", "-m", "pip", "install", "--quiet", "--no-index", "--find-links", str(house),
          "--require-hashes", "-r", str(REPO / "requirements.txt")], env=_pip_env(), cwd=folder)
    _run([python, "-I", "-m", "pip", "install", "--quiet", "--no-index", "--no-deps", str(wheel)], env=_pip_env(),
         cwd=folder)
    return Built(wheel, sdist, house, env / "bin")


def built(basetemp: Path) -> Built:
    """The run's built package, made by the first caller of the run and reused by every other."""
    folder = shared_folder(basetemp) / "built-package"
    folder.mkdir(parents=True, exist_ok=True)
    with open(folder / ".lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        done = folder / ".complete"
        if done.exists():
            wheel, sdist, house = done.read_text(encoding="utf-8").splitlines()
            return Built(Path(wheel), Path(sdist), Path(house), folder / "gate-env" / "bin")
        made = _build(folder)
        done.write_text(f"{made.wheel}\n{made.sdist}\n{made.wheelhouse}\n", encoding="utf-8")
        return made
