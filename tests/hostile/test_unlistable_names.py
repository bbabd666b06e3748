"""A directory that cannot be listed is exit 4, one line naming it (docs/reports.md, "What the command was
pointed at"). That line is printed outside a report, so a name in it that the scan's named shapes flag is
described, never printed: by `exchange check` (text and its one JSON object), `exchange fix` and
`exchange manifest`. The near miss: a plain name is still printed, so the line still says which directory."""

from __future__ import annotations

import json
import shutil

import pytest

from judgment_exchange.cli import main

from ..support.demo import ROOT as DEMO
from .denial import deny

TOKEN = "ghp_" + "R7q2Lk9Xw3Vb8Nc4Mz6Tp1Hy5Jd0Fs2Ga8Ku"  # a GitHub token's shape, no real token
COMMANDS = (["check", "--no-history"], ["check", "--no-history", "--format", "json"], ["fix"], ["manifest"])


@pytest.fixture
def catalog(tmp_path):
    root = tmp_path / "catalog"
    shutil.copytree(DEMO, root)
    (root / "releases.json").write_bytes(b"[]\n")
    return root


def _run(capsys, catalog, argv):
    status = main([argv[0], "--catalog", str(catalog), *argv[1:]])
    out, err = capsys.readouterr()
    return status, out, err


@pytest.mark.parametrize("argv", COMMANDS, ids=lambda a: " ".join(a))
def test_attack_a_token_named_directory_that_cannot_be_listed_is_never_printed(catalog, monkeypatch, capsys, argv):
    (catalog / "entries" / TOKEN).mkdir()
    deny(monkeypatch, catalog / "entries" / TOKEN)
    status, out, err = _run(capsys, catalog, argv)
    assert status == 4 and "Traceback" not in out + err, (status, out, err)
    assert TOKEN not in out + err, out + err
    said = json.loads(out)["detail"] if "json" in argv else err
    assert "entries/<a value of 40 characters>: Permission denied" in said, said


@pytest.mark.parametrize("argv", COMMANDS, ids=lambda a: " ".join(a))
def test_near_miss_a_plain_directory_that_cannot_be_listed_is_named(catalog, monkeypatch, capsys, argv):
    (catalog / "entries" / "acme2").mkdir()
    deny(monkeypatch, catalog / "entries" / "acme2")
    status, out, err = _run(capsys, catalog, argv)
    said = json.loads(out)["detail"] if "json" in argv else err
    assert status == 4 and "entries/acme2: Permission denied" in said, (status, out, err)
