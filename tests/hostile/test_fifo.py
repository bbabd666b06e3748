"""Issue #11 item 4 (FIFO half): a FIFO where a catalog file belongs made `check` and `manifest` wait forever.

Every reader now opens without blocking and decides what the path is on the opened descriptor
(tree.open_regular). Each command runs as a subprocess under a generous timeout, so a regression fails
the test instead of hanging the suite (the timeout is a guard, not a measurement).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys

import pytest

from ..support.catalog import CatalogBuilder
from ..support.paths import REPO

GUARD = 120  # seconds; the commands finish in about one


pytestmark = pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs on this platform")


def exchange(*args: str) -> subprocess.CompletedProcess:
    try:
        return subprocess.run([sys.executable, "-m", "judgment_exchange", *args], capture_output=True,
                              timeout=GUARD, check=False, stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired:  # pragma: no cover - the regression this file guards against
        pytest.fail(f"exchange {' '.join(args)} waited on a FIFO for {GUARD} s")


def fifo_at(path) -> None:
    path.unlink()
    os.mkfifo(path)


def check_json(root) -> tuple[int, dict]:
    done = exchange("check", "--catalog", str(root), "--no-history", "--format", "json")
    assert b"Traceback" not in done.stderr, done.stderr
    return done.returncode, json.loads(done.stdout)


@pytest.fixture
def catalog(tmp_path):
    """A Runner recording and the recorder's unbound http example (its fixture carries binding.json)."""
    builder = CatalogBuilder(tmp_path / "catalog")
    builder.add_runner_entry("acme.vendors")
    target = builder.root / "entries" / "examples" / "http-unbound-v3"
    shutil.copytree(REPO / "tests" / "examples" / "http-unbound-v3", target)
    builder.entries["examples.http-unbound-v3"] = target
    builder.write_manifest()
    return builder


def test_fifo_at_manifest_json_does_not_hang(catalog):
    fifo_at(catalog.root / "manifest.json")
    code, report = check_json(catalog.root)
    assert code == 1
    assert [(r["code"], r["path"]) for r in report["refusals"]] == [("file-unreadable", "manifest.json")]
    for args in (("manifest",), ("manifest", "--write")):
        done = exchange(*args, "--catalog", str(catalog.root))
        assert done.returncode == 4 and b"not a regular file" in done.stderr, (args, done.stderr)
        assert b"Traceback" not in done.stderr
    assert (catalog.root / "manifest.json").is_fifo()  # nothing was written over it


def test_fifo_at_preparation_json_does_not_hang(catalog):
    path = catalog.root / "entries/acme/vendors/fixtures/vendor-7/preparation.json"
    fifo_at(path)
    code, report = check_json(catalog.root)
    assert code == 1
    where = "entries/acme/vendors/fixtures/vendor-7/preparation.json"
    assert ("entry-file-not-regular", where) in [(r["code"], r["path"]) for r in report["refusals"]]
    assert {r["entry"] for r in report["refusals"]} == {"acme.vendors"}
    done = exchange("manifest", "--catalog", str(catalog.root))
    assert done.returncode in (0, 1) and b"Traceback" not in done.stderr
    done = exchange("verify", "--fixture", str(path.parent))
    assert done.returncode == 3 and b"not a regular file" in done.stderr and not done.stdout


def test_fifo_at_binding_json_does_not_hang(catalog):
    path = catalog.root / "entries/examples/http-unbound-v3/fixtures/open/binding.json"
    fifo_at(path)
    code, report = check_json(catalog.root)
    assert code == 1
    where = "entries/examples/http-unbound-v3/fixtures/open/binding.json"
    assert ("entry-file-not-regular", where) in [(r["code"], r["path"]) for r in report["refusals"]]
    assert {r["entry"] for r in report["refusals"]} == {"examples.http-unbound-v3"}
    done = exchange("manifest", "--catalog", str(catalog.root))
    assert done.returncode in (0, 1) and b"Traceback" not in done.stderr
    done = exchange("verify", "--fixture", str(path.parent))  # a FIFO there is refused, not taken as absent
    assert done.returncode == 3 and b"not a regular file" in done.stderr and not done.stdout


def test_fifo_at_entry_json_and_dialect_json_does_not_hang(catalog):
    fifo_at(catalog.root / "entries/acme/vendors/entry.json")
    fifo_at(catalog.root / "entries/examples/http-unbound-v3/dialect.json")
    code, report = check_json(catalog.root)
    assert code == 1
    refused = [(r["code"], r["path"]) for r in report["refusals"]]
    assert ("entry-file-not-regular", "entries/acme/vendors/entry.json") in refused
    assert ("entry-file-not-regular", "entries/examples/http-unbound-v3/dialect.json") in refused


def test_fifo_at_skips_json_does_not_hang(catalog):
    os.mkfifo(catalog.root / "skips.json")
    code, report = check_json(catalog.root)
    assert code == 1 and [r["code"] for r in report["refusals"]] == ["skips-malformed"]


def test_fifo_named_to_digest_form_and_verify_does_not_hang(catalog, tmp_path):
    fifo = tmp_path / "named.fifo"
    os.mkfifo(fifo)
    for args in (("digest", str(fifo)), ("digest", "--canonical", str(fifo)), ("form", str(fifo))):
        done = exchange(*args)
        assert done.returncode == 4 and b"not a regular file" in done.stderr, (args, done.stderr)
    dialect = catalog.root / "entries/acme/vendors/dialect.json"
    done = exchange("form", str(dialect), "--binding", str(fifo))
    assert done.returncode == 4 and b"not a regular file" in done.stderr
    fixture = catalog.root / "entries/acme/vendors/fixtures/vendor-7"
    done = exchange("verify", "--dialect", str(dialect), "--case", str(fixture / "case.json"),
                    "--profiles", str(fixture / "profiles.json"), "--preparation", str(fifo))
    assert done.returncode == 3 and b"not a regular file" in done.stderr


def test_regular_files_near_miss(catalog):
    """The same commands on regular files: the gate passes and `exchange verify` reads."""
    code, report = check_json(catalog.root)
    assert code == 0, report
    assert exchange("manifest", "--catalog", str(catalog.root)).returncode == 0
    fixture = catalog.root / "entries/acme/vendors/fixtures/vendor-7"
    assert exchange("verify", "--fixture", str(fixture)).returncode == 0
    assert exchange("digest", str(fixture / "preparation.json")).returncode == 0
