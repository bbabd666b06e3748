"""The two files PyPI gets (issue #33 item 4; docs/publishing.md): the wheel and the sdist the run builds once
(tests/support/built.py, `python -m build --no-isolation` over the package's own files, as publish.yml builds
them from `git archive`) pass `twine check --strict`, carry the metadata PyPI shows (the project URLs, the
classifiers, PEP 639's licence expression and file, the one version), and hold the package and nothing of the
repository around it."""

from __future__ import annotations

import subprocess
import sys
import tarfile
import tomllib
import zipfile
from email.message import Message
from email.parser import Parser
from pathlib import Path

import pytest

import judgment_exchange

from ..support.built import PACKAGE_FILES
from ..support.paths import REPO

REPOSITORY = "https://github.com/Judgment-Pack/judgment-pack-exchange"
PROJECT_URLS = {
    "Source": REPOSITORY,
    "Issues": f"{REPOSITORY}/issues",
    "Documentation": f"{REPOSITORY}/tree/main/docs",
}
CLASSIFIERS = {
    "Development Status :: 3 - Alpha",
    "Environment :: Console",
    "Intended Audience :: Developers",
    "Operating System :: POSIX",
    "Programming Language :: Python :: 3",
    "Programming Language :: Python :: 3 :: Only",
    "Programming Language :: Python :: 3.11",
    "Topic :: Software Development :: Quality Assurance",
    "Topic :: Software Development :: Version Control :: Git",
}
NOT_SHIPPED = ("tests/", ".github/", "docs/demo-catalog/", "docs/", ".ci/", "benchmarks/")
"""Folders of the repository no distribution holds: the gate's tests, its workflows, the demonstration catalog."""


def _metadata(text: str) -> Message:
    return Parser().parsestr(text)


def _wheel_metadata(wheel: Path) -> tuple[Message, list[str]]:
    with zipfile.ZipFile(wheel) as archive:
        names = archive.namelist()
        (path,) = [n for n in names if n.endswith(".dist-info/METADATA")]
        return _metadata(archive.read(path).decode("utf-8")), names


def _sdist_members(sdist: Path) -> tuple[Message, list[str]]:
    """The sdist's PKG-INFO and its member paths below the top folder (`judgment_pack_exchange-X.Y.Z/`)."""
    with tarfile.open(sdist) as archive:
        members = archive.getnames()
        top = f"judgment_pack_exchange-{judgment_exchange.__version__}"
        assert all(m == top or m.startswith(f"{top}/") for m in members), members[:10]
        info = archive.extractfile(f"{top}/PKG-INFO").read().decode("utf-8")
    return _metadata(info), [m[len(top) + 1:] for m in members if m != top]


def test_twine_check_strict_passes_on_the_wheel_and_the_sdist(built_package):
    """What PyPI would refuse or render badly (the long description, the metadata's fields), checked by
    twine as it checks before an upload; --strict turns its warnings into failures."""
    done = subprocess.run([sys.executable, "-m", "twine", "check", "--strict", str(built_package.wheel),
                           str(built_package.sdist)], capture_output=True, text=True, check=False, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.count("PASSED") == 2, done.stdout


@pytest.mark.parametrize("which", ["wheel", "sdist"])
def test_the_metadata_pypi_shows(built_package, which):
    """Project-URLs, classifiers and PEP 639's licence (an SPDX expression and the file, no `License ::`
    classifier beside it), in the wheel's METADATA and the sdist's PKG-INFO alike."""
    metadata = (_wheel_metadata(built_package.wheel) if which == "wheel" else _sdist_members(built_package.sdist))[0]
    assert metadata["Metadata-Version"] in ("2.4", "2.5"), metadata["Metadata-Version"]  # 2.4: PEP 639's fields
    assert metadata["Name"] == "judgment-pack-exchange"
    urls = dict(value.split(", ", 1) for value in metadata.get_all("Project-URL") or [])
    assert urls == PROJECT_URLS
    classifiers = set(metadata.get_all("Classifier") or [])
    assert classifiers == CLASSIFIERS
    assert not [c for c in classifiers if c.startswith("License ::")]
    assert metadata["License-Expression"] == "Apache-2.0"
    assert metadata.get_all("License-File") == ["LICENSE"]
    assert metadata["License"] is None  # the expression replaces the old free-text field
    assert metadata["Requires-Python"] == ">=3.11"
    assert metadata["Description-Content-Type"] == "text/markdown"


def test_one_version_the_packages_own(built_package):
    """pyproject.toml names no version of its own: setuptools reads judgment_exchange.__version__, so the
    distribution, `exchange --version` and publish.yml's tag check agree by construction."""
    project = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))
    assert "version" not in project["project"] and "version" in project["project"]["dynamic"]
    assert project["tool"]["setuptools"]["dynamic"]["version"] == {"attr": "judgment_exchange.__version__"}
    version = judgment_exchange.__version__
    metadata, _ = _wheel_metadata(built_package.wheel)
    assert metadata["Version"] == version
    assert built_package.wheel.name == f"judgment_pack_exchange-{version}-py3-none-any.whl"
    assert built_package.sdist.name == f"judgment_pack_exchange-{version}.tar.gz"
    done = subprocess.run([str(built_package.exchange), "--version"], capture_output=True, text=True, check=False,
                          timeout=120, cwd=built_package.wheel.parent)
    assert done.returncode == 0 and done.stdout.split()[-1] == version, done.stdout + done.stderr


def test_the_wheel_holds_the_package_and_its_licence_alone(built_package):
    _, names = _wheel_metadata(built_package.wheel)
    version = judgment_exchange.__version__
    dist_info = f"judgment_pack_exchange-{version}.dist-info/"
    assert f"{dist_info}licenses/LICENSE" in names
    assert "judgment_exchange/__init__.py" in names
    assert {name.split("/", 1)[0] for name in names} == {"judgment_exchange", dist_info.rstrip("/")}


def test_the_sdist_holds_the_package_and_nothing_of_the_repository_around_it(built_package):
    """No tests, workflows or demonstration catalog: an sdist is the package's source, and the repository's
    gate files are not a user's. It holds what builds the wheel again."""
    _, members = _sdist_members(built_package.sdist)
    for name in ("pyproject.toml", "LICENSE", "README.md", "PKG-INFO", "tools/judgment_exchange/__init__.py",
                 "tools/judgment_exchange/cli/__init__.py"):
        assert name in members, name
    shipped = [m for m in members if m.startswith(NOT_SHIPPED)]
    assert not shipped, shipped
    assert {m.split("/", 1)[0] for m in members} <= {"pyproject.toml", "LICENSE", "README.md", "PKG-INFO",
                                                     "setup.cfg", "tools"}


def test_the_sdist_builds_the_same_wheel_again(built_package, tmp_path):
    """What pip does with the sdist where no wheel fits: the files in it build the package (offline, with
    the setuptools this environment holds), with the same metadata and the same files."""
    with tarfile.open(built_package.sdist) as archive:
        archive.extractall(tmp_path, filter="data")
    (source,) = tmp_path.iterdir()
    done = subprocess.run([sys.executable, "-m", "build", "--no-isolation", "--wheel", "--outdir",
                           str(tmp_path / "dist"), str(source)], capture_output=True, text=True, check=False,
                          timeout=600, cwd=tmp_path)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    (wheel,) = (tmp_path / "dist").glob("*.whl")
    again, again_names = _wheel_metadata(wheel)
    first, first_names = _wheel_metadata(built_package.wheel)
    assert sorted(again_names) == sorted(first_names)
    assert sorted(again.items()) == sorted(first.items())


def test_the_tests_build_what_publish_yml_builds():
    """tests/support/built.py copies the files publish.yml archives (the build lock aside, which the tests'
    environment stands in for), so what is checked here is what PyPI gets."""
    workflow = (REPO / ".github" / "workflows" / "publish.yml").read_text(encoding="utf-8")
    archive = [line for line in workflow.splitlines() if " archive " in line]
    assert len(archive) == 1, archive
    paths = archive[0].split(" -- ", 1)[1].split("|", 1)[0].split()
    assert paths == [*PACKAGE_FILES, "requirements-build.txt"]
