"""Issue #34 item 8: the published index carries no local path.

`exchange index` read the catalog from LOCATION, in the release workflow the runner's workspace; before this,
index.json's `release.location` held that directory even with `--address`. Now with `--address` the location
is the address, and no file of the site names the directory; without one, a LOCATION that is a local
directory (a path, `.`, a `file:` URL) is refused (exit 3, nothing written, the message names `--address`
and `--local`) unless `--local` asks for a preview, which says so. A URL location needs neither
(tests/consumer/test_attack_token_in_location.py indexes one)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from judgment_exchange.browse.address import is_local

from .releases import released_twice
from .sites import git_identity, index, tree

ADDRESS = "https://github.com/acme/judgment-exchange"


@pytest.fixture(scope="module")
def catalog(tmp_path_factory) -> Path:
    with git_identity():
        root = tmp_path_factory.mktemp("local") / "catalog"
        released_twice(root)
    return root


def _refused(code: int, capsys, out: Path) -> None:
    err = capsys.readouterr().err
    assert code == 3, err
    assert "LOCATION is a local directory" in err and "--address URL" in err and "--local" in err, err
    assert "nothing was written" in err and not out.exists()


def test_attack_a_local_directory_is_never_published_without_an_address(catalog, tmp_path, capsys):
    out = tmp_path / "site"
    with git_identity():
        _refused(index(catalog, "v0.2.0", out, "--no-history", local=False), capsys, out)


@pytest.mark.parametrize("form", [".", "file-url"])
def test_attack_dot_and_a_file_url_are_local_directories_too(catalog, tmp_path, capsys, monkeypatch, form):
    out = tmp_path / "site"
    monkeypatch.chdir(catalog)
    where = "." if form == "." else catalog.as_uri()
    with git_identity():
        _refused(index(where, "v0.2.0", out, "--no-history", local=False), capsys, out)


def test_near_miss_local_writes_a_preview_and_says_so(catalog, tmp_path, capsys):
    out = tmp_path / "site"
    with git_identity():
        assert index(catalog, "v0.2.0", out, "--no-history", "--local", local=False) == 0
    said = capsys.readouterr().out
    assert "a local preview (--local)" in said and "not for publishing" in said
    assert json.loads((out / "index.json").read_bytes())["release"]["location"] == str(catalog)


def test_near_miss_with_an_address_no_file_of_the_site_names_the_directory(catalog, tmp_path, capsys):
    out = tmp_path / "site"
    with git_identity():
        assert index(catalog, "v0.2.0", out, "--no-history", "--address", ADDRESS, local=False) == 0
    said = capsys.readouterr().out
    assert "preview" not in said and str(catalog) not in said
    release = json.loads((out / "index.json").read_bytes())["release"]
    assert release["location"] == ADDRESS and release["address"] == ADDRESS
    for name, data in tree(out).items():
        assert str(catalog).encode() not in data, name


@pytest.mark.parametrize("location, local", [
    (".", True), ("catalog", True), ("/srv/catalog", True), ("./a:b", True), ("file:///srv/catalog", True),
    ("https://example.invalid/catalog.git", False), ("ssh://host/catalog.git", False),
    ("git@github.com:acme/catalog.git", False), ("host:catalog", False),
])
def test_which_locations_are_local(location, local):
    assert is_local(location) is local
