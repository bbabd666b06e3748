"""`exchange conformance run` (issue #19 item 5): the project's consumer passes the whole kit through the
same contract as any other; a flipped expectation, a wrong code, a changed stream each fail it."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from judgment_exchange.conformance.runner import DEFAULT_KIT

from ..support.paths import REPO

FAKE = """import sys
sys.stdout.write(open(sys.argv[1], encoding="utf-8").read())
with open(sys.argv[1] + ".args", "w", encoding="utf-8") as fh:
    fh.write("\\n".join(sys.argv[2:]))
"""
"""A consumer that prints the verdict written in its first argument, and records the contract's arguments."""


def exchange(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "judgment_exchange", "conformance", *args], cwd=REPO,
                          capture_output=True, text=True, timeout=600, check=False)


def summary(done: subprocess.CompletedProcess) -> str:
    return done.stdout.strip().splitlines()[-1]


def cases() -> list[dict]:
    return json.loads((DEFAULT_KIT / "cases.json").read_text(encoding="utf-8"))["cases"]


def copy_kit(tmp_path: Path) -> Path:
    kit = tmp_path / "kit"
    shutil.copytree(DEFAULT_KIT, kit)
    return kit


def fake(tmp_path: Path, verdict: dict | str) -> list[str]:
    """The command of a consumer that answers every case with `verdict`."""
    script = tmp_path / "fake_consumer.py"
    script.write_text(FAKE, encoding="utf-8")
    answer = tmp_path / "verdict.json"
    answer.write_text(verdict if isinstance(verdict, str) else json.dumps(verdict), encoding="utf-8")
    return [sys.executable, str(script), str(answer)]


def row(done: subprocess.CompletedProcess, name: str) -> str:
    return next(line for line in done.stdout.splitlines() if line.startswith(name + " "))


def test_the_projects_consumer_passes_the_whole_kit():
    done = exchange("run")
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr
    assert summary(done) == f"{len(cases())} passed, 0 failed"


def test_a_flipped_expectation_fails_the_runner_naming_that_case(tmp_path):
    kit = copy_kit(tmp_path)
    document = json.loads((kit / "cases.json").read_text(encoding="utf-8"))
    flipped = next(c for c in document["cases"] if c["name"] == "manifest-order")
    assert flipped["expected"]["result"] == "refuse"
    flipped["expected"]["result"] = "pass"
    (kit / "cases.json").write_text(json.dumps(document), encoding="utf-8")
    done = exchange("run", "--kit", str(kit), "--case", "release-real-export", "--case", "manifest-order",
                    "--case", "skip-kind-unread")
    assert done.returncode == 1, done.stdout[-4000:] + done.stderr
    assert summary(done) == "2 passed, 1 failed"
    assert row(done, "manifest-order").split()[1] == "failed"
    assert "manifest-order (§7 Before import" in done.stdout and "result is refuse, expected pass" in done.stdout


def test_a_stream_whose_bytes_changed_is_a_kit_integrity_error(tmp_path):
    kit = copy_kit(tmp_path)
    stream = kit / "manifest-order.fi"
    data = bytearray(stream.read_bytes())
    data[data.index(b"acme.writeback")] = ord("b")
    stream.write_bytes(bytes(data))
    done = exchange("run", "--kit", str(kit), "--case", "release-real-export")
    assert done.returncode == 4 and "manifest-order.fi: its sha256 is" in done.stderr and "by hand" in done.stderr
    assert "Traceback" not in done.stderr and not done.stdout


def test_a_rebuilt_commit_other_than_the_pinned_one_is_a_kit_integrity_error(tmp_path):
    kit = copy_kit(tmp_path)
    document = json.loads((kit / "cases.json").read_text(encoding="utf-8"))
    case = next(c for c in document["cases"] if c["name"] == "release-real-export")
    case["refs"]["refs/tags/v0.1.0"] = "0" * 40
    (kit / "cases.json").write_text(json.dumps(document), encoding="utf-8")
    done = exchange("run", "--kit", str(kit), "--case", "release-real-export", "--case", "manifest-order")
    assert done.returncode == 4, done.stdout + done.stderr
    assert "kit integrity error: case release-real-export" in done.stdout and "refs/tags/v0.1.0" in done.stdout
    assert row(done, "release-real-export").split()[1:3] == ["kit", "error"]


def test_a_consumer_printing_a_wrong_code_is_reported_failing(tmp_path):
    verdict = {"result": "refuse", "codes": ["artifact-malformed"], "history": "no-releases",
               "entries": [{"id": "acme.vendors-named", "kind": "dialect", "offered": False, "fixtures": []}]}
    done = exchange("run", "--case", "reference-artifact-mismatch", "--", *fake(tmp_path, verdict))
    assert done.returncode == 1, done.stdout + done.stderr
    assert "codes compared are [artifact-malformed], expected [artifact-mismatch]" in done.stdout
    assert summary(done) == "0 passed, 1 failed"
    # near-miss: the same consumer with the right code agrees, and it was given the contract's arguments
    verdict["codes"] = ["artifact-mismatch", "x-own-code"]
    command = fake(tmp_path, verdict)
    done = exchange("run", "--case", "reference-artifact-mismatch", "--", *command)
    assert done.returncode == 0 and summary(done) == "1 passed, 0 failed", done.stdout
    given = Path(command[-1] + ".args").read_text(encoding="utf-8").split("\n")
    assert given[0] == "--location" and given[2:] == ["--tag", "v0.1.0", "--history", "128"]


def test_retained_state_and_held_releases_are_given_by_the_contract(tmp_path):
    command = fake(tmp_path, {"notApplicable": "a test"})
    exchange("run", "--case", "upgrade-higher-tag", "--", *command)
    given = Path(command[-1] + ".args").read_text(encoding="utf-8").split("\n")
    retained = Path(given[given.index("--retained") + 1])
    assert given[given.index("--held") + 1] == "v0.9.0" and given[given.index("--tag") + 1] == "v0.10.0"
    assert not retained.exists()  # the case's temporary directory is gone once its verdict is read


def test_not_applicable_only_where_the_case_allows_it(tmp_path):
    command = fake(tmp_path, {"notApplicable": "this consumer's reader reads http"})
    done = exchange("run", "--case", "skip-kind-unread", "--case", "skip-unacknowledged", "--", *command)
    assert done.returncode == 0 and summary(done) == "0 passed, 0 failed, 2 skipped", done.stdout
    done = exchange("run", "--case", "manifest-order", "--", *command)
    assert done.returncode == 1 and "reported not applicable, but the case assumes any reader" in done.stdout


def test_the_projects_own_codes_count_only_in_project_cases(tmp_path):
    refused = {"result": "refuse", "codes": ["x-rows-out-of-order"], "history": "no-releases", "entries": []}
    done = exchange("run", "--case", "manifest-order", "--", *fake(tmp_path, refused))
    assert done.returncode == 0, done.stdout  # manifest-order is this project's name: not compared here
    changed = {"result": "refuse", "codes": ["x-changed"], "history": "checked",
               "entries": [{"id": "acme.vendors", "kind": "dialect", "offered": False, "fixtures": []}]}
    done = exchange("run", "--case", "changed-without-upgrade-note", "--", *fake(tmp_path, changed))
    assert done.returncode == 1 and "expected [entry-changed-without-upgrade]" in done.stdout


@pytest.mark.parametrize("answer, why", [
    ("", "nothing on standard output"),
    ("refused\n", "not one JSON value"),
    ('{"result": "refused", "codes": [], "history": "checked", "entries": []}', "not in the verdict's form at result (enum"),
    ('{"result": "pass", "codes": [], "history": "checked"}', "not in the verdict's form at the verdict (required"),
])
def test_no_verdict_is_a_failure_never_a_pass(tmp_path, answer, why):
    done = exchange("run", "--case", "release-empty-manifest", "--", *fake(tmp_path, answer))
    assert done.returncode == 1 and why in done.stdout and "no verdict" in done.stdout, done.stdout


def test_an_offered_preset_or_a_replayed_skip_disagrees(tmp_path):
    preset = {"result": "pass", "codes": [], "history": "no-releases",
              "entries": [{"id": "acme.vendors-preset", "kind": "preset", "offered": True, "fixtures": []}]}
    done = exchange("run", "--case", "preset-form", "--", *fake(tmp_path, preset))
    assert done.returncode == 1 and "acme.vendors-preset: offered is true, expected false" in done.stdout
    skipped = {"result": "pass", "codes": [], "history": "no-releases", "entries": [
        {"id": "acme.vendors-http", "kind": "dialect", "offered": True,
         "fixtures": [{"name": "vendor-7", "replay": "replayed"}]}]}
    done = exchange("run", "--case", "skip-kind-unread", "--", *fake(tmp_path, skipped))
    assert done.returncode == 1 and "expected vendor-7 skipped (kind-unread)" in done.stdout


@pytest.mark.parametrize("args, status", [
    (("run", "--jobs", "0"), 3),
    (("run", "--case", "no-such-case"), 3),
    (("run", "--kit", "/nonexistent/kit"), 4),
    (("consume", "--location", "x", "--tag", "v0.1.0", "--history", "0"), 3),
    (("consume", "--tag", "v0.1.0", "--history", "1"), 3),
])
def test_bad_invocations(args, status):
    done = exchange(*args)
    assert done.returncode == status and "Traceback" not in done.stderr, done.stderr
