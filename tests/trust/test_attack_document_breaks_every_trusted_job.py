"""Issue #38 item 1: a documents-only pull request (README.md, which CODEOWNERS leaves to any approval) carrying
one byte that is not UTF-8 passed the base's gate; once merged, every trusted job's install step failed, since
setuptools read README.md as the wheel's description — the revert's own pull request included. The wheel now
reads its description from tools/PYPI.md, a gate file, so no document reaches the build. Each test builds the
wheel exactly as a trusted job does (`pip wheel --no-deps --no-build-isolation --no-index` over the package's
own files, the build lock's setuptools), from a copy of this checkout's files with the documents planted."""

from __future__ import annotations

import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from judgment_exchange.repository.zone import is_gate_file

from ..support.built import PACKAGE_FILES, _copy_package_files, _pip_env
from ..support.paths import REPO

NOT_UTF8 = b"# A catalog\n\nLatin-1 \xe9 and a lone continuation \x80 byte.\n"


def _source(tmp_path: Path) -> Path:
    source = tmp_path / "gate-source"
    _copy_package_files(source)
    for name in ("requirements.txt", "requirements-build.txt"):  # what the action copies beside them
        shutil.copy2(REPO / name, source / name)
    return source


def _wheel(source: Path, out: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-I", "-m", "pip", "wheel", "--quiet", "--no-deps", "--no-build-isolation",
                           "--no-index", "--wheel-dir", str(out), str(source)], capture_output=True, text=True,
                          check=False, env=_pip_env(), cwd=out.parent, timeout=600)


def test_the_wheel_reads_no_document():
    """The package files a trusted job builds from hold the documents README.md and LICENSE (the action copies
    them), but pyproject.toml's readme is a gate file."""
    project = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    readme = project["readme"]["file"]
    assert is_gate_file(readme) and readme.startswith("tools/"), readme
    assert "README.md" in PACKAGE_FILES


def test_attack_document_breaks_every_trusted_job(tmp_path):
    """README.md and LICENSE (both documents: owner-less in CODEOWNERS) not UTF-8: the wheel still builds."""
    source = _source(tmp_path)
    (source / "README.md").write_bytes(NOT_UTF8)
    (source / "LICENSE").write_bytes(NOT_UTF8)
    done = _wheel(source, tmp_path / "wheel")
    assert done.returncode == 0, done.stderr[-3000:]
    assert len(list((tmp_path / "wheel").glob("*.whl"))) == 1


@pytest.mark.parametrize("document", ["README.md"])
def test_near_miss_a_wheel_that_reads_the_document_breaks(tmp_path, document):
    """What the attack did before: the same planted bytes with pyproject.toml's readme pointed back at the
    document make the build fail — so the test above fails if the readme moves back."""
    source = _source(tmp_path)
    (source / document).write_bytes(NOT_UTF8)
    pyproject = source / "pyproject.toml"
    text = pyproject.read_text(encoding="utf-8")
    line = next(line for line in text.splitlines() if line.startswith("readme = "))
    pyproject.write_text(text.replace(line, f'readme = "{document}"'), encoding="utf-8")
    done = _wheel(source, tmp_path / "wheel")
    assert done.returncode != 0 and "UnicodeDecodeError" in done.stdout + done.stderr, done.stderr[-2000:]
