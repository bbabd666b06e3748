"""`exchange release` signs off the ledger commit it writes (issue #25 item 2; RFC 0019 §6 "a DCO sign-off
on every commit"; docs/releasing.md).

The trailers are read by git itself (`git interpret-trailers --parse`), and the identity they must name
is the committer's as git records it in the commit (`%cn <%ce>`), never the code's own reading.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from judgment_exchange.cli import main as exchange

from ..support.gitrepo import GitRepo, _env, git_identity, two_releases


@pytest.fixture(autouse=True)
def identity(monkeypatch) -> None:
    git_identity(monkeypatch)


def _trailers(repo: GitRepo, rev: str) -> list[str]:
    message = repo.git("log", "-1", "--format=%B", rev).encode()
    done = subprocess.run(["git", "interpret-trailers", "--parse"], input=message, cwd=repo.path, env=_env(),
                          capture_output=True, check=True)
    return done.stdout.decode().splitlines()


def test_attack_release_writes_an_unsigned_ledger_commit(tmp_path: Path) -> None:
    catalog = two_releases(tmp_path / "catalog")
    for tag in ("v0.1.0", "v0.2.0"):
        rev = f"{tag}^{{commit}}"
        assert catalog.git("log", "-1", "--format=%s", rev) == f"Release {tag}"
        committer = catalog.git("log", "-1", "--format=%cn <%ce>", rev)
        assert committer == "Release Test <release-test@example.invalid>"
        assert _trailers(catalog, rev) == [f"Signed-off-by: {committer}"]


def test_release_commit_passes_exchange_signoff(tmp_path: Path, capsys) -> None:
    catalog = two_releases(tmp_path / "catalog")
    code = exchange(["signoff", "--catalog", str(catalog.path), "--base", "v0.2.0^{commit}~1",
                     "--head", "v0.2.0", "--format", "json"])
    report = json.loads(capsys.readouterr().out)
    assert (code, report["commits"], report["refusals"]) == (0, 1, [])
    assert report["head"] == catalog.rev("v0.2.0^{commit}")
