"""`judgment_exchange/_commit.txt` (issue #33 item 1; docs/init.md, "The gate's commit"): the package knows the
commit it was built from when `git archive` made its source, through the root .gitattributes' export-subst; a
checkout (an editable install) holds the placeholder, and `exchange init` then needs --gate-ref."""

from __future__ import annotations

import io
import subprocess
import tarfile

import pytest

from judgment_exchange.founding import gateref

from ..support.paths import REPO

PATH = "tools/judgment_exchange/_commit.txt"


def _git(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(["git", *args], cwd=REPO, capture_output=True, check=False)


def test_the_checkout_holds_the_placeholder_and_the_package_knows_no_commit():
    assert (REPO / PATH).read_text(encoding="ascii").strip() == "$Format:%H$"
    assert "tools/judgment_exchange/_commit.txt export-subst" in (REPO / ".gitattributes").read_text().splitlines()
    assert "* -text" in (REPO / ".gitattributes").read_text().splitlines()


def test_git_archive_fills_it_with_the_archived_commit():
    head = _git("rev-parse", "HEAD")
    if head.returncode != 0 or _git("cat-file", "-e", f"HEAD:{PATH}").returncode != 0:
        pytest.skip("not a git checkout holding _commit.txt at HEAD")
    archive = _git("archive", "--format=tar", "HEAD", "--", PATH)
    assert archive.returncode == 0, archive.stderr
    with tarfile.open(fileobj=io.BytesIO(archive.stdout)) as tar:
        filled = tar.extractfile(PATH).read().decode("ascii").strip()
    assert filled == head.stdout.decode().strip()
    assert len(filled) == 40


def test_built_from_reads_a_filled_file_and_refuses_anything_else(monkeypatch, tmp_path):
    from importlib import resources

    def package_with(text: str):
        (tmp_path / "_commit.txt").write_text(text, encoding="ascii")
        monkeypatch.setattr(resources, "files", lambda _name: tmp_path)

    package_with("0123456789abcdef0123456789abcdef01234567\n")
    assert gateref.built_from() == "0123456789abcdef0123456789abcdef01234567"
    for text in ("$Format:%H$\n", "0123456789ABCDEF0123456789abcdef01234567", "0123456", ""):
        package_with(text)
        assert gateref.built_from() is None, text
