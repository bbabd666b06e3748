"""The pinned verifier (RFC 0019 §4 and Compatibility; docs/verifier-pin.md; issue #10 item 4).

The specification's reader is a LOCAL one: tests/support/readers/agree.py (it runs this package's
verifier by dialect §11's process contract, and logs each call) or disagree.py (a fixed reading with a
digest of zeros), committed as tools/dialect_verify.py of a throwaway "specification" repository and
fetched from its path, never from the network. The expectations are stated by hand: the locator string
is written out here, the fixture's preparationDigest is the standard library's (tests/support/catalog.py).
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pytest

from judgment_exchange.cli import main
from judgment_exchange.gate.pipeline import GateOptions, check_catalog
from judgment_exchange.repository.pin import BUNDLED, FetchFailed, FetchRefused, choose_reader, fetch, read_pin
from judgment_exchange.tree import WorkingTree

from .support.catalog import CatalogBuilder, pretty
from .support.gitrepo import GitRepo

READERS = Path(__file__).parent / "support" / "readers"
SPEC = "Judgment-Pack/judgment-pack-spec/tools/dialect_verify.py"
OPTIONS = GateOptions(history=False)


@pytest.fixture(autouse=True)
def _environment(tmp_path, monkeypatch):
    monkeypatch.delenv("EXCHANGE_VERIFIER", raising=False)
    monkeypatch.setenv("EXCHANGE_READER_CACHE", str(tmp_path / "cache"))
    monkeypatch.setenv("PIN_READER_LOG", str(tmp_path / "reader.log"))


def spec_repository(tmp_path: Path, reader: str = "agree.py") -> tuple[GitRepo, str]:
    """A throwaway specification repository with the local reader at tools/dialect_verify.py."""
    repo = GitRepo(tmp_path / "spec")
    commit = repo.snapshot({"tools/dialect_verify.py": (READERS / reader).read_bytes(),
                            "README.md": b"# a local stand-in for the specification\n"})
    return repo, commit


def catalog(tmp_path: Path) -> CatalogBuilder:
    builder = CatalogBuilder(tmp_path / "catalog")
    builder.add_runner_entry("acme.vendors", "mapping-v2-unsigned-parameters")
    builder.add_runner_entry("acme.vendors-calc", "mapping-v2-before-calculators")
    builder.write_manifest()
    return builder


def write_pin(root: Path, reader: str, run: list | None = None) -> None:
    (root / "verifier-pin.json").write_bytes(pretty({"pinVersion": 1, "reader": reader,
                                                     "run": run or [sys.executable, "{path}"]}))


def pinned_and_fetched(tmp_path: Path, reader: str = "agree.py") -> tuple[CatalogBuilder, str]:
    spec, commit = spec_repository(tmp_path, reader)
    builder = catalog(tmp_path)
    locator = f"{SPEC}@{commit}"
    write_pin(builder.root, locator)
    pin, checkout, now = fetch(WorkingTree(str(builder.root)), source=str(spec.path))
    assert now and checkout == tmp_path / "cache" / "Judgment-Pack" / "judgment-pack-spec" / commit
    return builder, locator


def check(root: Path, options: GateOptions = OPTIONS):
    return check_catalog(WorkingTree(str(root)), options)


# --- replay through the pinned reader --------------------------------------------------------------


def test_replay_through_the_pinned_local_reader_names_it(tmp_path, capsys):
    builder, locator = pinned_and_fetched(tmp_path)
    report = check(builder.root)
    assert report.passed, [r.detail for r in report.refusals]
    assert report.replayed == 2
    assert report.reader.as_json() == {"name": locator, "pinned": locator}
    assert [(r.entry, r.fixture, r.reader, r.result) for r in report.replays] == [
        ("acme.vendors", "vendor-7", locator, "reading"), ("acme.vendors-calc", "vendor-7", locator, "reading")]
    calls = (tmp_path / "reader.log").read_text().splitlines()  # it ran as a process, by §11's --fixture
    assert len(calls) == 2 and all(c.startswith("--fixture ") and c.endswith("/fixtures/vendor-7") for c in calls)
    assert main(["check", "--catalog", str(builder.root), "--no-history"]) == 0
    assert f"reader: {locator}\n" in capsys.readouterr().out
    assert main(["check", "--catalog", str(builder.root), "--no-history", "--format", "json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["reader"] == {"name": locator, "pinned": locator}
    assert {r["reader"] for r in out["replays"]} == {locator}


def test_a_disagreeing_pinned_reader_refuses_every_fixture_and_is_named(tmp_path):
    builder, locator = pinned_and_fetched(tmp_path, "disagree.py")
    report = check(builder.root)
    assert [(r.code, r.entry) for r in report.refusals] == [("replay-digest-mismatch", "acme.vendors"),
                                                           ("replay-digest-mismatch", "acme.vendors-calc")]
    assert all(f"reader: {locator}" in r.detail for r in report.refusals)
    assert [r.result for r in report.replays] == ["refused", "refused"] and report.replayed == 0


def test_a_skip_records_the_reader_that_answered_it(tmp_path):
    spec, commit = spec_repository(tmp_path)
    builder = CatalogBuilder(tmp_path / "catalog")
    builder.add_http_entry()
    builder.write_manifest()
    locator = f"{SPEC}@{commit}"
    write_pin(builder.root, locator)
    fetch(WorkingTree(str(builder.root)), source=str(spec.path))
    report = check(builder.root)
    assert report.passed and [s.reader for s in report.skipped] == [locator]
    assert report.skipped[0].as_json()["reader"] == locator
    assert [(r.fixture, r.result) for r in report.replays] == [("vendor-7", "skipped")]


# --- where it cannot: the bundled verifier, said so --------------------------------------------------


def test_an_unfetched_pin_falls_back_to_bundled_and_says_so(tmp_path, capsys, monkeypatch):
    builder = catalog(tmp_path)
    locator = f"{SPEC}@{'a' * 40}"
    write_pin(builder.root, locator)
    report = check(builder.root)
    assert report.passed and report.replayed == 2
    assert report.reader.name == BUNDLED == "bundled: judgment_exchange 0.2.0"
    assert report.reader.pinned == locator and "is not fetched into" in report.reader.fallback
    assert {r.reader for r in report.replays} == {"bundled: judgment_exchange 0.2.0"}
    assert not (tmp_path / "reader.log").exists()
    assert main(["check", "--catalog", str(builder.root), "--no-history"]) == 0
    line = next(ln for ln in capsys.readouterr().out.splitlines() if ln.startswith("reader: "))
    assert line.startswith("reader: bundled: judgment_exchange 0.2.0 (the pinned " + locator + " is not fetched")
    summary = tmp_path / "summary.md"
    monkeypatch.setenv("GITHUB_STEP_SUMMARY", str(summary))
    assert main(["check", "--catalog", str(builder.root), "--no-history", "--format", "github"]) == 0
    out = capsys.readouterr().out
    assert "::warning file=verifier-pin.json,title=pinned verifier not used::fixtures replayed by bundled" in out
    assert "- reader: bundled" in summary.read_text()


def test_an_abbreviated_pin_is_not_fetched_and_falls_back(tmp_path):
    builder = catalog(tmp_path)
    write_pin(builder.root, f"{SPEC}@f821757")
    reader, refusals = choose_reader(WorkingTree(str(builder.root)))
    assert refusals == [] and reader.name == BUNDLED and "abbreviated commit" in reader.fallback
    with pytest.raises(FetchRefused) as raised:
        fetch(WorkingTree(str(builder.root)), source=str(tmp_path / "nowhere"))
    assert raised.value.refusal.code == "verifier-fetch-failed"


def test_no_pin_file_is_named_as_the_bundled_reader(tmp_path):
    report = check(catalog(tmp_path).root)
    assert report.passed and report.reader.as_json() == {
        "name": "bundled: judgment_exchange 0.2.0", "fallback": "the catalog pins no reader: no verifier-pin.json"}


def test_a_tampered_checkout_is_not_runnable_and_falls_back(tmp_path):
    builder, locator = pinned_and_fetched(tmp_path)
    commit = locator.rsplit("@", 1)[1]
    reader = tmp_path / "cache" / "Judgment-Pack" / "judgment-pack-spec" / commit / "tools" / "dialect_verify.py"
    reader.write_bytes((READERS / "disagree.py").read_bytes())
    report = check(builder.root)
    assert report.passed and report.reader.name == BUNDLED
    assert "differs from the pinned commit's" in report.reader.fallback


def test_a_program_not_on_path_is_not_runnable_and_falls_back(tmp_path):
    spec, commit = spec_repository(tmp_path)
    builder = catalog(tmp_path)
    write_pin(builder.root, f"{SPEC}@{commit}", ["no-such-interpreter-here", "{path}"])
    fetch(WorkingTree(str(builder.root)), source=str(spec.path))
    report = check(builder.root)
    assert report.passed and report.reader.name == BUNDLED and "not on PATH" in report.reader.fallback


def test_exchange_verifier_names_the_reader_and_says_the_pin_is_not_used(tmp_path, monkeypatch):
    builder = catalog(tmp_path)
    write_pin(builder.root, f"{SPEC}@{'b' * 40}")
    command = f"{sys.executable} {READERS / 'agree.py'}"
    monkeypatch.setenv("EXCHANGE_VERIFIER", command)
    report = check(builder.root)
    assert report.passed and report.reader.name == f"EXCHANGE_VERIFIER: {command}"
    assert "is not used" in report.reader.fallback and report.replayed == 2


# --- the pin file's closed form ----------------------------------------------------------------------

GOOD = {"pinVersion": 1, "reader": f"{SPEC}@{'c' * 40}", "run": ["python3", "{path}"]}
MALFORMED = {
    "not-json": b"{pinVersion: 1}",
    "duplicate-member": b'{"pinVersion": 1, "pinVersion": 1, "reader": "a/b/c@abcdef0", "run": ["p", "{path}"]}',
    "extra-member": pretty(GOOD | {"url": "https://example.org"}),
    "missing-run": pretty({k: v for k, v in GOOD.items() if k != "run"}),
    "version-2": pretty(GOOD | {"pinVersion": 2}),
    "version-string": pretty(GOOD | {"pinVersion": "1"}),
    "locator-uppercase-commit": pretty(GOOD | {"reader": f"{SPEC}@{'C' * 40}"}),
    "locator-dotdot-segment": pretty(GOOD | {"reader": "Judgment-Pack/judgment-pack-spec/../x.py@abcdef0"}),
    "locator-over-200": pretty(GOOD | {"reader": "a/b/" + "x" * 200 + "@abcdef0"}),
    "run-empty": pretty(GOOD | {"run": []}),
    "run-without-path": pretty(GOOD | {"run": ["python3", "tools/dialect_verify.py"]}),
    "run-with-fixture": pretty(GOOD | {"run": ["python3", "{path}", "--fixture"]}),
    "run-unknown-placeholder": pretty(GOOD | {"run": ["python3", "{path}", "{home}"]}),
    "run-control-character": pretty(GOOD | {"run": ["python3", "{path}\n--evil"]}),
    "an-array": pretty([GOOD]),
    "over-64-kib": pretty(GOOD | {"run": ["python3", "{path}"] + ["x" * 1000] * 70}),
}


@pytest.mark.parametrize("name", sorted(MALFORMED))
def test_a_malformed_pin_is_refused(tmp_path, name):
    builder = catalog(tmp_path)
    (builder.root / "verifier-pin.json").write_bytes(MALFORMED[name])
    report = check(builder.root)
    assert [(r.code, r.path) for r in report.refusals] == [("verifier-pin-malformed", "verifier-pin.json")]
    assert report.reader.name == BUNDLED and report.replayed == 2  # the fixtures are still replayed, by bundled


def test_near_miss_a_pin_of_the_closed_form_is_read(tmp_path):
    builder = catalog(tmp_path)
    (builder.root / "verifier-pin.json").write_bytes(pretty(GOOD | {"run": ["{checkout}/bin/node", "{path}"]}))
    pin = read_pin(WorkingTree(str(builder.root))).pin
    assert pin is not None and (pin.owner, pin.name, pin.path, pin.commit) == (
        "Judgment-Pack", "judgment-pack-spec", "tools/dialect_verify.py", "c" * 40)
    assert check(builder.root).passed


def test_a_pin_that_is_a_directory_or_a_symlink_is_refused(tmp_path):
    builder = catalog(tmp_path)
    (builder.root / "verifier-pin.json").mkdir()
    assert [r.code for r in check(builder.root).refusals] == ["verifier-pin-malformed"]
    (builder.root / "verifier-pin.json").rmdir()
    (tmp_path / "elsewhere.json").write_bytes(pretty(GOOD))
    os.symlink(tmp_path / "elsewhere.json", builder.root / "verifier-pin.json")
    assert [r.code for r in check(builder.root).refusals] == ["verifier-pin-malformed"]


def test_a_pin_refusal_never_prints_the_authors_value(tmp_path):
    builder = catalog(tmp_path)
    planted = "PLANTED-VALUE-1234"
    (builder.root / "verifier-pin.json").write_bytes(pretty(GOOD | {"reader": f"{planted}/x@nothex!"}))
    (refusal,) = check(builder.root).refusals
    assert refusal.code == "verifier-pin-malformed" and planted not in refusal.detail


# --- exchange verifier fetch -----------------------------------------------------------------------


def test_fetch_refuses_a_commit_the_specification_does_not_hold(tmp_path):
    spec, _ = spec_repository(tmp_path)
    builder = catalog(tmp_path)
    write_pin(builder.root, f"{SPEC}@{'d' * 40}")
    with pytest.raises(FetchRefused) as raised:
        fetch(WorkingTree(str(builder.root)), source=str(spec.path))
    assert raised.value.refusal.code == "verifier-fetch-failed"
    assert not (tmp_path / "cache" / "Judgment-Pack" / "judgment-pack-spec" / ("d" * 40)).exists()


def test_fetch_refuses_a_path_the_commit_does_not_hold(tmp_path):
    spec, commit = spec_repository(tmp_path)
    builder = catalog(tmp_path)
    write_pin(builder.root, f"Judgment-Pack/judgment-pack-spec/tools/no_such_reader.py@{commit}")
    with pytest.raises(FetchRefused) as raised:
        fetch(WorkingTree(str(builder.root)), source=str(spec.path))
    assert raised.value.refusal.code == "verifier-fetch-failed"


def test_fetch_of_an_unreachable_source_is_an_io_failure(tmp_path, capsys):
    builder = catalog(tmp_path)
    write_pin(builder.root, f"{SPEC}@{'e' * 40}")
    with pytest.raises(FetchFailed):
        fetch(WorkingTree(str(builder.root)), source=str(tmp_path / "no-repository-here"))
    assert main(["verifier", "fetch", "--catalog", str(builder.root), "--from", str(tmp_path / "none")]) == 4


def test_fetch_cli_fetches_once_then_finds_it(tmp_path, capsys):
    spec, commit = spec_repository(tmp_path)
    builder = catalog(tmp_path)
    write_pin(builder.root, f"{SPEC}@{commit}")
    argv = ["verifier", "fetch", "--catalog", str(builder.root), "--from", str(spec.path)]
    assert main(argv) == 0 and "fetched into" in capsys.readouterr().out
    assert main(argv) == 0 and "already at" in capsys.readouterr().out
    write_pin(builder.root, f"{SPEC}@f821757")
    assert main(argv) == 1 and "refused verifier-fetch-failed" in capsys.readouterr().out


# --- a pull request that moves the pin ----------------------------------------------------------------


@pytest.fixture
def pull_request(tmp_path):
    builder = catalog(tmp_path)
    write_pin(builder.root, f"{SPEC}@{'1' * 40}")
    repo = GitRepo(builder.root)
    repo.git("add", "-A")
    repo.git("commit", "-q", "-m", "base")
    return builder, repo, repo.rev("HEAD")


def _touch_entry(builder: CatalogBuilder) -> None:
    readme = builder.root / "entries" / "acme" / "vendors" / "README.md"
    readme.write_text(readme.read_text() + "\nA second paragraph.\n")


def test_a_pull_request_moving_the_pin_and_touching_an_entry_is_refused(pull_request):
    builder, repo, base = pull_request
    write_pin(builder.root, f"{SPEC}@{'2' * 40}")
    _touch_entry(builder)
    report = check(builder.root, GateOptions(history=False, base=base, repository=str(builder.root)))
    assert [r.code for r in report.refusals] == ["verifier-pin-moved-with-entry"]
    assert report.touched == ["acme.vendors"]


def test_near_miss_a_pull_request_moving_the_pin_alone_passes(pull_request):
    builder, repo, base = pull_request
    write_pin(builder.root, f"{SPEC}@{'2' * 40}")
    repo.git("commit", "-q", "-am", "move the pin")
    report = check(builder.root, GateOptions(history=False, base=base, repository=str(builder.root)))
    assert report.passed and report.touched == []


def test_near_miss_a_pull_request_touching_an_entry_alone_passes(pull_request):
    builder, repo, base = pull_request
    _touch_entry(builder)
    report = check(builder.root, GateOptions(history=False, base=base, repository=str(builder.root)))
    assert report.passed and report.touched == ["acme.vendors"]


def test_adding_the_pin_with_an_entry_is_moving_it(tmp_path):
    builder = catalog(tmp_path)
    repo = GitRepo(builder.root)
    repo.git("add", "-A")
    repo.git("commit", "-q", "-m", "base without a pin")
    base = repo.rev("HEAD")
    write_pin(builder.root, f"{SPEC}@{'3' * 40}")
    _touch_entry(builder)
    repo.git("add", "-A")
    repo.git("commit", "-q", "-m", "pin and entry")
    report = check(builder.root, GateOptions(history=False, base=base, repository=str(builder.root)))
    assert [r.code for r in report.refusals] == ["verifier-pin-moved-with-entry"]


# --- a consumer never runs the program a release's pin names -------------------------------------------


def test_attack_a_releases_pin_runs_a_program_on_the_consumers_machine(tmp_path):
    """A release read from git (release-check, upgrade-diff) names a pinned reader already in the consumer's
    cache: the consumer replays with its own reader, and the pinned program never runs."""
    from judgment_exchange.tree import GitTree

    builder, locator = pinned_and_fetched(tmp_path)
    repo = GitRepo(builder.root)
    repo.git("add", "-A")
    repo.git("commit", "-q", "-m", "a release with a fetched pin")
    report = check_catalog(GitTree(str(builder.root), "HEAD"), OPTIONS)
    assert report.passed and report.replayed == 2
    assert report.reader.name == BUNDLED and report.reader.pinned == locator
    assert "a consumer replays with its own reader" in report.reader.fallback
    assert not (tmp_path / "reader.log").exists()
    assert check(builder.root).reader.name == locator  # near miss: the catalog's own checkout runs it
