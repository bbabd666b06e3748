"""A consumer may give the catalog's location with a token in it (`https://reader:TOKEN@host/catalog.git`, as
a private catalog on a forge is read from CI). Every consumer command reads it, and none prints the user
name or password, nor writes them to a lock or to the site: release-check (text, JSON, with a lock, with a
malformed lock), show (the listing and one release), upgrade-diff (text and JSON) and index.

The URL reaches a local released catalog through git's own `url.<base>.insteadOf` (a configuration file of
this test's, GIT_CONFIG_GLOBAL), so every command really fetches through the URL with the token; the premise
is asserted with git itself."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from judgment_exchange.cli import main

from ..support.gitrepo import GitRepo, git_identity, runner_releases

TOKEN = "s3cret-t0ken-5b1e"
USER = "reader-7c2d"
URL = f"https://{USER}:{TOKEN}@example.invalid/catalog.git"
BARE = "https://example.invalid/catalog.git"
"""The location as every command shows it: the URL less its user name and password (worked by hand)."""


@pytest.fixture
def catalog(tmp_path, monkeypatch) -> GitRepo:
    git_identity(monkeypatch)
    repo = runner_releases(tmp_path)
    config = tmp_path / "gitconfig"
    config.write_text(f'[url "{repo.path.as_uri()}"]\n\tinsteadOf = {URL}\n\tinsteadOf = {BARE}\n', encoding="utf-8")
    monkeypatch.setenv("GIT_CONFIG_GLOBAL", str(config))
    listed = subprocess.run(["git", "ls-remote", "--tags", URL], capture_output=True, text=True, check=True)
    assert "refs/tags/v0.2.0" in listed.stdout            # the premise: git reads the catalog through the URL
    assert listed.stdout == subprocess.run(["git", "ls-remote", "--tags", BARE], capture_output=True, text=True,
                                           check=True).stdout  # and through the same URL without the token
    return repo


def _run(capsys, *argv: str) -> tuple[int, str]:
    status = main(list(argv))
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return status, out + err


def _never_printed(text: str) -> None:
    assert TOKEN not in text and USER not in text, text


@pytest.mark.parametrize("form", ["text", "json"])
@pytest.mark.parametrize("command", [["release-check", URL, "v0.2.0", "--no-history"],
                                     ["upgrade-diff", URL, "v0.1.0", "v0.2.0"]], ids=lambda argv: argv[0])
def test_attack_release_check_and_upgrade_diff_never_print_the_token(catalog, capsys, command, form):
    status, said = _run(capsys, *command, "--format", form)
    assert status == 0 and BARE in said, said
    _never_printed(said)


def test_attack_release_check_never_writes_the_token_to_the_lock(catalog, tmp_path, capsys):
    lock = tmp_path / "exchange.lock"
    status, said = _run(capsys, "release-check", URL, "v0.1.0", "--no-history", "--lock", str(lock))
    assert status == 0 and json.loads(lock.read_bytes())["location"] == BARE
    _never_printed(said + lock.read_text(encoding="utf-8"))
    status, said = _run(capsys, "release-check", URL, "v0.2.0", "--no-history", "--lock", str(lock), "--update",
                        "--approve-change", "acme.runner-export")
    _never_printed(said + lock.read_text(encoding="utf-8"))
    # near miss: the same catalog named without the token (git reaches it too) is the lock's catalog
    status, said = _run(capsys, "release-check", BARE, "v0.2.0", "--no-history", "--lock", str(lock))
    assert status == 0 and "lock-location-mismatch" not in said, said


def test_attack_a_malformed_lock_beside_the_url_never_prints_the_token(catalog, tmp_path, capsys):
    lock = tmp_path / "exchange.lock"
    lock.write_text("{}\n", encoding="utf-8")
    status, said = _run(capsys, "release-check", URL, "v0.2.0", "--no-history", "--lock", str(lock))
    assert status == 1 and "lock-malformed" in said and BARE in said, said
    _never_printed(said)


@pytest.mark.parametrize("form", ["text", "json"])
def test_attack_show_never_prints_the_token(catalog, capsys, form):
    status, said = _run(capsys, "show", URL, "--format", form)
    assert status == 0 and BARE in said and "v0.2.0" in said, said
    _never_printed(said)
    status, said = _run(capsys, "show", URL, "v0.2.0", "--format", form)
    assert status == 0, said
    _never_printed(said)



def test_attack_index_never_publishes_the_token(catalog, tmp_path, capsys):
    out = tmp_path / "site"
    status, said = _run(capsys, "index", URL, "v0.2.0", "--out", str(out))
    assert status == 0, said
    _never_printed(said)
    for path in Path(out).rglob("*"):
        if path.is_file():
            _never_printed(path.read_bytes().decode("utf-8", "replace"))
