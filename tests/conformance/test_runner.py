"""`exchange conformance run` and `list` (issue #19 item 5; issue #28 items 1, 5): the project's consumer passes
the whole kit at both reader tiers through the same contract as any other; a flipped expectation, a wrong
code, a changed stream each fail it; a failure is shown whole, with the command that reruns it; a kit path of
the wrong kind is one kind of kit error, never a wait."""

from __future__ import annotations

import json
import os
import shlex
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

NOT_HELD = "§7 import replay: not held (tier none)"


def exchange(*args: str, cwd: Path = REPO, timeout: int = 600) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "judgment_exchange", "conformance", *args], cwd=cwd,
                          capture_output=True, text=True, timeout=timeout, check=False)


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


@pytest.mark.parametrize("tier", ["specification", "none"])
def test_the_projects_consumer_passes_the_whole_kit_at_each_tier(tier):
    done = exchange("run", "--tier", tier, "--signing")  # the signing cases too (issue #36 item 6)
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr
    lines = done.stdout.strip().splitlines()
    count = len(cases())
    assert lines[-1] == f"{count} passed, 0 failed"
    assert f"tier {tier}: {count} of the {count} cases run state a verdict at this tier; cases with a verdict per " \
           f"tier: specification {count}, none {count}" in lines
    assert (NOT_HELD in done.stdout) == (tier == "none")


def test_a_flipped_expectation_fails_the_runner_naming_that_case(tmp_path):
    kit = copy_kit(tmp_path)
    document = json.loads((kit / "cases.json").read_text(encoding="utf-8"))
    flipped = next(c for c in document["cases"] if c["name"] == "manifest-order")
    assert flipped["tiers"]["specification"]["result"] == "refuse"
    flipped["tiers"]["specification"]["result"] = "pass"
    (kit / "cases.json").write_text(json.dumps(document), encoding="utf-8")
    done = exchange("run", "--kit", str(kit), "--case", "release-real-export", "--case", "manifest-order",
                    "--case", "skip-kind-unread")
    assert done.returncode == 1, done.stdout[-4000:] + done.stderr
    assert summary(done) == "2 passed, 1 failed"
    assert row(done, "manifest-order").split()[1] == "failed"
    assert "manifest-order at tier specification (§7 Before import" in done.stdout
    assert "result is refuse, expected pass" in done.stdout
    # the tier none verdict is its own, not derived from the specification's: it still agrees
    done = exchange("run", "--kit", str(kit), "--tier", "none", "--case", "manifest-order")
    assert done.returncode == 0 and summary(done) == "1 passed, 0 failed", done.stdout


def test_a_stream_whose_bytes_changed_is_a_kit_error(tmp_path):
    kit = copy_kit(tmp_path)
    stream = kit / "manifest-order.fi"
    data = bytearray(stream.read_bytes())
    data[data.index(b"acme.writeback")] = ord("b")
    stream.write_bytes(bytes(data))
    done = exchange("run", "--kit", str(kit), "--case", "release-real-export")
    assert done.returncode == 4 and "manifest-order.fi: its sha256 is" in done.stderr and "by hand" in done.stderr
    assert "Traceback" not in done.stderr and not done.stdout and len(done.stderr.splitlines()) == 1


def test_a_rebuilt_commit_other_than_the_pinned_one_is_a_kit_error(tmp_path):
    kit = copy_kit(tmp_path)
    document = json.loads((kit / "cases.json").read_text(encoding="utf-8"))
    case = next(c for c in document["cases"] if c["name"] == "release-real-export")
    case["refs"]["refs/tags/v0.1.0"] = "0" * 40
    (kit / "cases.json").write_text(json.dumps(document), encoding="utf-8")
    done = exchange("run", "--kit", str(kit), "--case", "release-real-export", "--case", "manifest-order")
    assert done.returncode == 4, done.stdout + done.stderr
    assert "kit error: case release-real-export" in done.stdout and "refs/tags/v0.1.0" in done.stdout
    assert row(done, "release-real-export").split()[1:3] == ["kit", "error"]


def test_a_consumer_printing_a_wrong_code_is_reported_failing(tmp_path):
    verdict = {"result": "refuse", "codes": ["artifact-malformed"], "history": "no-releases",
               "entries": [{"id": "acme.vendors-named", "kind": "dialect", "offered": False, "fixtures": []}]}
    done = exchange("run", "--case", "reference-artifact-mismatch", "--", *fake(tmp_path, verdict))
    assert done.returncode == 1, done.stdout + done.stderr
    assert "codes compared are [artifact-malformed], expected [artifact-mismatch]" in done.stdout
    assert "(differs: codes)" in row(done, "reference-artifact-mismatch")
    assert summary(done) == "0 passed, 1 failed"
    # near-miss: the same consumer with the right code agrees, and it was given the contract's arguments
    verdict["codes"] = ["artifact-mismatch", "x-own-code"]
    command = fake(tmp_path, verdict)
    done = exchange("run", "--case", "reference-artifact-mismatch", "--", *command)
    assert done.returncode == 0 and summary(done) == "1 passed, 0 failed", done.stdout
    given = Path(command[-1] + ".args").read_text(encoding="utf-8").split("\n")
    assert given[0] == "--location" and given[2:] == ["--tag", "v0.1.0", "--history", "128"]


def test_retained_state_and_held_releases_are_given_by_the_contract_the_same_at_each_tier(tmp_path):
    given = {}
    for tier in ("specification", "none"):
        command = fake(tmp_path, {"notApplicable": "a test"})
        exchange("run", "--tier", tier, "--case", "upgrade-higher-tag", "--", *command)
        given[tier] = Path(command[-1] + ".args").read_text(encoding="utf-8").split("\n")
        retained = Path(given[tier][given[tier].index("--retained") + 1])
        assert not retained.exists()  # the case's temporary directory is gone once its verdict is read
    spec, none = given["specification"], given["none"]
    assert spec[spec.index("--held") + 1] == "v0.9.0" and spec[spec.index("--tag") + 1] == "v0.10.0"
    # the arguments differ only in the rebuilt location's temporary directory
    assert [w for w in spec if not w.startswith("/")] == [w for w in none if not w.startswith("/")]
    assert len(spec) == len(none)


def test_not_applicable_only_where_the_case_allows_it_at_the_tier(tmp_path):
    command = fake(tmp_path, {"notApplicable": "this consumer's reader reads http"})
    done = exchange("run", "--case", "skip-kind-unread", "--case", "skip-unacknowledged", "--", *command)
    assert done.returncode == 0 and summary(done) == "0 passed, 0 failed, 2 skipped", done.stdout
    done = exchange("run", "--case", "manifest-order", "--", *command)
    assert done.returncode == 1 and "reported not applicable, but at tier specification" in done.stdout
    # at tier none a broader reader has nothing to decline: only the project's stricter rule may be
    done = exchange("run", "--tier", "none", "--case", "skip-kind-unread", "--case", "skip-unacknowledged", "--",
                    *command)
    assert done.returncode == 1 and summary(done) == "0 passed, 1 failed, 1 skipped", done.stdout
    assert row(done, "skip-kind-unread").split()[1] == "failed"


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
    ('{"result": "refused", "codes": [], "history": "checked", "entries": []}',
     "not in the verdict's form at result (enum"),
    ('{"result": "pass", "codes": [], "history": "checked"}', "not in the verdict's form at the verdict (required"),
])
def test_no_verdict_is_a_failure_never_a_pass(tmp_path, answer, why):
    done = exchange("run", "--case", "release-empty-manifest", "--", *fake(tmp_path, answer))
    assert done.returncode == 1 and why in done.stdout and "no verdict" in done.stdout, done.stdout
    assert "  received: no verdict" in done.stdout


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


# --- a consumer with no reader (issue #28 item 1) --------------------------------------------------------

NO_READER = {"result": "pass", "codes": [], "history": "no-releases", "entries": [
    {"id": "acme.vendors", "kind": "dialect", "offered": True,
     "fixtures": [{"name": "vendor-7", "replay": "skipped", "reason": "version-unread"}]}]}
"""What a consumer with no reader says of replay-forged-acquisition: offered, its fixture not recomputable."""


def test_a_consumer_with_no_reader_passes_at_tier_none_and_fails_at_the_specifications(tmp_path):
    command = fake(tmp_path, NO_READER)
    done = exchange("run", "--tier", "none", "--case", "replay-forged-acquisition", "--case", "release-real-export",
                    "--", *command)
    assert done.returncode == 0 and summary(done) == "2 passed, 0 failed", done.stdout
    assert f"{NOT_HELD}: a pass at a tier below the specification's is not a conformant consumer" in done.stdout
    done = exchange("run", "--case", "replay-forged-acquisition", "--case", "release-real-export", "--", *command)
    assert done.returncode == 1 and summary(done) == "0 passed, 2 failed", done.stdout
    assert NOT_HELD not in done.stdout
    assert row(done, "replay-forged-acquisition").endswith("  pass (differs: result, codes, entries)")
    assert row(done, "release-real-export").endswith("  pass (differs: entries)")


def test_a_failure_shows_both_verdicts_whole_and_the_command_that_reruns_it(tmp_path):
    command = fake(tmp_path, NO_READER)
    done = exchange("run", "--case", "release-real-export", "--", *command)
    block = done.stdout.split("release-real-export at tier specification", 1)[1]
    expected = json.loads(block.split("  expected: ", 1)[1].splitlines()[0])
    received = json.loads(block.split("  received: ", 1)[1].splitlines()[0])
    spec = next(c for c in cases() if c["name"] == "release-real-export")["tiers"]["specification"]
    assert expected == {m: spec[m] for m in ("result", "codes", "history", "entries")}
    assert received == NO_READER
    rerun = shlex.split(block.split("  rerun: ", 1)[1].splitlines()[0])
    assert rerun[:3] == ["exchange", "conformance", "run"] and rerun[rerun.index("--") + 1:] == command
    assert rerun[rerun.index("--kit") + 1] == str(DEFAULT_KIT.resolve())
    again = exchange(*rerun[2:], cwd=tmp_path)
    assert again.returncode == 1 and summary(again) == "0 passed, 1 failed"


def test_keep_leaves_each_rebuilt_repository_and_the_consumers_own_line_on_it(tmp_path):
    kept = tmp_path / "kept"
    command = fake(tmp_path, NO_READER)
    done = exchange("run", "--keep", str(kept), "--case", "upgrade-higher-tag", "--case", "release-real-export",
                    "--", *command)
    assert done.returncode == 1, done.stdout + done.stderr
    case = next(c for c in cases() if c["name"] == "upgrade-higher-tag")
    repo = kept / "upgrade-higher-tag" / "catalog"
    refs = subprocess.run(["git", "-C", str(repo), "for-each-ref", "--format=%(refname) %(objectname)"],
                          capture_output=True, text=True, check=True).stdout
    assert dict(line.split(" ") for line in refs.splitlines()) == case["refs"]
    retained = json.loads((kept / "upgrade-higher-tag" / "retained.json").read_text(encoding="utf-8"))
    assert retained["location"] == str(repo.resolve()) and retained["commit"] == case["retained"]["commit"]
    line = next(row for row in done.stdout.splitlines() if row.startswith("  kept: ") and "release-real-export" in row)
    direct = shlex.split(line.split("; the consumer on it: ", 1)[1])
    assert direct[:len(command)] == command and "--location" in direct
    answer = subprocess.run(direct, capture_output=True, text=True, check=False)
    assert json.loads(answer.stdout) == NO_READER
    # a --keep directory already holding something is refused, never mixed in
    done = exchange("run", "--keep", str(kept), "--case", "release-real-export")
    assert done.returncode == 3 and "not empty" in done.stderr and len(done.stderr.splitlines()) == 1


def test_list_prints_each_case_its_title_its_tiers_and_its_rfc_sentence():
    done = exchange("list")
    assert done.returncode == 0, done.stderr
    for case in cases():
        at = done.stdout.index(f"{case['name']}: {case['title']}")
        block = done.stdout[at:].split("\n", 3)
        spec, none = case["tiers"]["specification"], case["tiers"]["none"]
        assert block[1].startswith(f"  specification: {spec['result']}") and f"; none: {none['result']}" in block[1]
        assert block[2] == f"  {case['rfc']['section']}: \"{case['rfc']['words']}\""
    assert done.stdout.strip().endswith(f"{len(cases())} cases in {DEFAULT_KIT}")


def test_a_case_with_no_verdict_at_the_tier_is_not_run(tmp_path):
    kit = copy_kit(tmp_path)
    document = json.loads((kit / "cases.json").read_text(encoding="utf-8"))
    case = next(c for c in document["cases"] if c["name"] == "manifest-order")
    del case["tiers"]["none"]
    (kit / "cases.json").write_text(json.dumps(document), encoding="utf-8")
    done = exchange("run", "--kit", str(kit), "--tier", "none", "--case", "manifest-order", "--case",
                    "manifest-malformed")
    assert done.returncode == 0, done.stdout + done.stderr
    assert row(done, "manifest-order").split()[1:6] == ["no", "verdict", "at", "this", "tier"]
    assert summary(done) == "1 passed, 0 failed, 1 with no verdict at tier none"
    assert f"cases with a verdict per tier: specification {len(cases())}, none {len(cases()) - 1}" in done.stdout
    done = exchange("run", "--kit", str(kit), "--case", "manifest-order")
    assert done.returncode == 0 and summary(done) == "1 passed, 0 failed"


# --- the kit's path: one kind of kit error, never a wait (issue #28 item 5) ------------------------------

def _fifo_cases(kit: Path) -> None:
    (kit / "cases.json").unlink()
    os.mkfifo(kit / "cases.json")


def _fifo_stream(kit: Path) -> None:
    (kit / "manifest-order.fi").unlink()
    os.mkfifo(kit / "manifest-order.fi")


def _directory_cases(kit: Path) -> None:
    (kit / "cases.json").unlink()
    (kit / "cases.json").mkdir()


def _symlink_out(kit: Path) -> None:
    """A stream replaced by a link to the same bytes outside the kit: its sha256 would agree."""
    outside = kit.parent / "outside.fi"
    shutil.copyfile(kit / "manifest-order.fi", outside)
    (kit / "manifest-order.fi").unlink()
    (kit / "manifest-order.fi").symlink_to(outside)


def _symlink_cases(kit: Path) -> None:
    outside = kit.parent / "outside.json"
    shutil.copyfile(kit / "cases.json", outside)
    (kit / "cases.json").unlink()
    (kit / "cases.json").symlink_to(outside)


@pytest.mark.parametrize("make, what", [
    (lambda tmp: tmp / "nonexistent", "no such directory"),
    (lambda tmp: (tmp / "empty").mkdir() or tmp / "empty", "cases.json: no such file"),
    (lambda tmp: (tmp / "file").write_text("{}") and tmp / "file", "a regular file, not a directory"),
    (lambda tmp: os.mkfifo(tmp / "fifo") or tmp / "fifo", "a FIFO, not a directory"),
    ("fifo-cases", "cases.json: a FIFO, not a regular file"),
    ("fifo-stream", "manifest-order.fi: a FIFO, not a regular file"),
    ("directory-cases", "cases.json: a directory, not a regular file"),
    ("symlink-stream", "manifest-order.fi: a symbolic link"),
    ("symlink-cases", "cases.json: a symbolic link"),
], ids=["missing", "empty", "a-file", "a-fifo", "fifo-cases", "fifo-stream", "directory-cases", "symlink-stream",
        "symlink-cases"])
def test_a_kit_path_of_the_wrong_kind_is_one_kit_error_never_a_wait(tmp_path, make, what):
    if isinstance(make, str):
        kit = copy_kit(tmp_path)
        {"fifo-cases": _fifo_cases, "fifo-stream": _fifo_stream, "directory-cases": _directory_cases,
         "symlink-stream": _symlink_out, "symlink-cases": _symlink_cases}[make](kit)
    else:
        kit = make(tmp_path)
    for command in (("run", "--case", "release-real-export"), ("list",)):
        done = exchange(command[0], "--kit", str(kit), *command[1:], timeout=60)
        assert done.returncode == 4, done.stdout + done.stderr
        assert not done.stdout and len(done.stderr.splitlines()) == 1, done.stderr
        line = done.stderr.strip()
        assert line.startswith(f"exchange conformance {command[0]}: kit error: ") and what in line, line
        assert "a kit is a directory holding cases.json and its streams as regular files" in line


def test_a_copy_of_the_kit_of_regular_files_is_no_kit_error(tmp_path):
    """The near miss of the kit errors: a plain copy, anywhere, read from another directory."""
    kit = copy_kit(tmp_path)
    done = exchange("run", "--kit", str(kit), "--case", "manifest-order", cwd=tmp_path)
    assert done.returncode == 0 and summary(done) == "1 passed, 0 failed", done.stdout + done.stderr


@pytest.mark.parametrize("args, status", [
    (("run", "--jobs", "0"), 3),
    (("run", "--case", "no-such-case"), 3),
    (("run", "--tier", "partial"), 3),
    (("run", "--kit", "/nonexistent/kit"), 4),
    (("list", "--kit", "/nonexistent/kit"), 4),
    (("consume", "--location", "x", "--tag", "v0.1.0", "--history", "0"), 3),
    (("consume", "--tag", "v0.1.0", "--history", "1"), 3),
    (("consume", "--location", "x", "--tag", "v0.1.0", "--history", "1", "--tier", "full"), 3),
])
def test_bad_invocations(args, status):
    done = exchange(*args)
    assert done.returncode == status and "Traceback" not in done.stderr, done.stderr


def test_a_kit_copys_text_is_shown_escaped(tmp_path):
    """A copy's titles and sentences are its author's: a control character is shown as its escape, never sent to
    the terminal (docs/reports.md)."""
    kit = copy_kit(tmp_path)
    document = json.loads((kit / "cases.json").read_text(encoding="utf-8"))
    case = next(c for c in document["cases"] if c["name"] == "manifest-order")
    case["title"] = "rows \x1b[2J out of order"
    case["rfc"]["words"] = "distinct ids\u202e in byte order"
    case["tiers"]["specification"]["result"] = "pass"  # so the run shows its failure block
    (kit / "cases.json").write_text(json.dumps(document), encoding="utf-8")
    for args in (("list",), ("run", "--case", "manifest-order")):
        done = exchange(args[0], "--kit", str(kit), *args[1:])
        assert done.returncode in (0, 1), done.stderr
        assert "\x1b" not in done.stdout and "\u202e" not in done.stdout, args
    assert "\\u202e" in done.stdout


SIGNING = [case["name"] for case in cases() if "signing" in case]


def test_signing_cases_are_not_applicable_without_signing_said_per_case():
    """Issue #36 item 6: without --signing each signing case is counted not applicable, said on its row and in the
    summary, never run; with it they pass (the whole-kit test above)."""
    done = exchange("run", *[arg for name in SIGNING[:3] for arg in ("--case", name)])
    assert done.returncode == 0, done.stdout + done.stderr
    for name in SIGNING[:3]:
        assert "not applicable (signing not declared)" in row(done, name)
    assert "signing: not declared: 3 signing cases counted not applicable" in done.stdout
    assert summary(done) == "0 passed, 0 failed, 3 skipped"


def test_a_signing_case_pins_its_set_with_signers_file(tmp_path):
    """The runner passes --signers FILE where a case pins a set, and a retained state of version 3 carries signers."""
    pinned = next(c for c in cases() if "signing" in c and c["signing"]["signers"])
    verdict = {"result": "pass", "codes": [], "history": "no-releases", "entries": []}
    command = fake(tmp_path, verdict)
    done = exchange("run", "--signing", "--case", pinned["name"], "--", *command)
    args = (tmp_path / "verdict.json.args").read_text(encoding="utf-8").split("\n")
    signers = Path(args[args.index("--signers") + 1])
    assert done.returncode in (0, 1)
    retained = next(c for c in cases() if "signing" in c and c["retained"] and "signers" in c["retained"])
    exchange("run", "--signing", "--keep", str(tmp_path / "kept"), "--case", retained["name"], "--", *command)
    state = json.loads((tmp_path / "kept" / retained["name"] / "retained.json").read_text(encoding="utf-8"))
    assert state["retainedVersion"] == 3 and state["signers"] == retained["retained"]["signers"]
    assert state["tagObject"] == retained["refs"][f"refs/tags/{retained['retained']['tag']}"]
    assert "--signers" not in (tmp_path / "verdict.json.args").read_text(encoding="utf-8")
    assert signers.name == "signers"
