"""Issue #34 item 6: a reader's unread-version detail is read as RFC 0019 §4 names it ("identified by the
verifier's unread-version detail"), the same as the dialect companion's version-unread (RFC 0018 §11 phase 4).

Every place the verifier's answer is read asks codes/verifier.py `skip_of`: the gate's replay (through a
reader program, EXCHANGE_VERIFIER), `exchange fix`, `exchange fixture add`, the conformance adapter and the
runner's comparison of a consumer's verdict. Each is tried with both spellings, and with a refusal that is
no skip (the near miss: it fails the fixture).
"""

from __future__ import annotations

import copy
import shlex
import sys

import pytest

from judgment_exchange import verifier
from judgment_exchange.authoring import fixture_add
from judgment_exchange.codes.verifier import SKIPS, skip_of
from judgment_exchange.conformance.adapter import consume
from judgment_exchange.conformance.rebuild import rebuild
from judgment_exchange.conformance.runner import DEFAULT_KIT, load_kit
from judgment_exchange.conformance.verdict import AGREE, DISAGREE, compare
from judgment_exchange.gate.pipeline import GateOptions, check_catalog
from judgment_exchange.tree import WorkingTree

from .fix.test_fix_replays_first import VENDORS, fix, set_member, snapshot
from .support.catalog import CatalogBuilder

SPELLINGS = ("version-unread", "unread-version")


def test_one_definition_reads_both_spellings_as_one_skip():
    assert skip_of("version-unread") == skip_of("unread-version") == "version-unread"
    assert skip_of("kind-unread") == "kind-unread"
    assert skip_of("input-malformed") is None and skip_of(None) is None and skip_of(["version-unread"]) is None
    assert set(SKIPS.values()) == {"kind-unread", "version-unread"}


def answering(monkeypatch, code: str) -> None:
    """The in-process reader answers the refusal `code` for every fixture (what another reader may say)."""
    monkeypatch.setattr(verifier, "replay_fixture", lambda *a, **k: {"result": "refusal", "refusal": code})
    monkeypatch.setattr(verifier, "check_skipped", lambda *a, **k: None)


@pytest.fixture
def runner_catalog(tmp_path):
    builder = CatalogBuilder(tmp_path / "catalog")
    builder.add_runner_entry()
    builder.write_manifest()
    return builder.root


@pytest.mark.parametrize("answer", SPELLINGS)
def test_gate_reads_a_program_readers_answer_in_either_spelling_as_a_skip(runner_catalog, monkeypatch, answer):
    line = '{"refusal":"%s","result":"refusal"}' % answer
    script = f"import sys; sys.stdout.write({line!r} + chr(10)); sys.exit(1)"
    monkeypatch.setenv("EXCHANGE_VERIFIER", f"{shlex.quote(sys.executable)} -c {shlex.quote(script)}")
    report = check_catalog(WorkingTree(str(runner_catalog)), GateOptions(history=False))
    assert report.refusals == [] and report.replayed == 0
    assert [s.reason for s in report.skipped] == ["version-unread: 2"]


def test_near_miss_gate_fails_a_fixture_on_a_refusal_that_is_no_skip(runner_catalog, monkeypatch):
    line = '{"refusal":"unread-versions","result":"refusal"}'
    script = f"import sys; sys.stdout.write({line!r} + chr(10)); sys.exit(1)"
    monkeypatch.setenv("EXCHANGE_VERIFIER", f"{shlex.quote(sys.executable)} -c {shlex.quote(script)}")
    report = check_catalog(WorkingTree(str(runner_catalog)), GateOptions(history=False))
    assert [r.code for r in report.refusals] == ["unread-versions"] and report.skipped == []


@pytest.mark.parametrize("answer", SPELLINGS)
def test_fix_never_repins_a_fixture_the_reader_answers_unread_in_either_spelling(runner_catalog, capsys,
                                                                                 monkeypatch, answer):
    set_member(runner_catalog / VENDORS / "entry.json", ("fixtures", 0, "preparationDigest"), "sha256:" + "0" * 64)
    before = snapshot(runner_catalog)
    answering(monkeypatch, answer)
    code, text = fix(runner_catalog, capsys)
    assert code == 1 and snapshot(runner_catalog) == before
    assert "version-unread: fixture vendor-7" in text and "never re-pins its preparationDigest" in text
    assert "answered refusal" not in text


def test_near_miss_fix_on_a_refusal_that_is_no_skip_says_it_does_not_replay(runner_catalog, capsys, monkeypatch):
    set_member(runner_catalog / VENDORS / "entry.json", ("fixtures", 0, "preparationDigest"), "sha256:" + "0" * 64)
    answering(monkeypatch, "unread-versions")
    code, text = fix(runner_catalog, capsys)
    assert code == 1 and "answered refusal unread-versions" in text and "never re-pins" not in text


@pytest.mark.parametrize("answer", SPELLINGS)
def test_fixture_add_reports_either_spelling_as_the_gates_skip(monkeypatch, answer):
    answering(monkeypatch, answer)
    said = fixture_add.replay(b"{}", {"preparation.json": b"{}"})
    assert said.startswith("not replayed: the verifier answers version-unread;")


def test_near_miss_fixture_add_refuses_a_refusal_that_is_no_skip(monkeypatch):
    answering(monkeypatch, "unread-versions")
    with pytest.raises(Exception) as raised:
        fixture_add.replay(b"{}", {"preparation.json": b"{}"})
    assert "unread-versions" in str(raised.value.args) or getattr(raised.value, "code", None) == "unread-versions"


KIT = load_kit(DEFAULT_KIT)
REAL = next(c for c in KIT.cases if c["name"] == "release-real-export")


@pytest.mark.parametrize("answer", SPELLINGS)
def test_conformance_adapter_reports_either_spelling_as_version_unread(tmp_path, monkeypatch, answer):
    """The adapter's verdict from a reader answering either spelling: the tier-none verdict (every fixture
    skipped as version-unread), which the kit holds."""
    location = tmp_path / "catalog"
    rebuild((KIT.path / REAL["stream"]["path"]).read_bytes(), REAL["steps"], location)
    answering(monkeypatch, answer)
    verdict = consume(str(location), REAL["tag"], history_limit=REAL["historyLimit"], held=REAL["held"],
                      retained=None, tier="specification")
    assert compare(REAL, verdict, KIT.rfc, "none").status == AGREE
    assert verdict["entries"][0]["fixtures"] == [{"name": "vendor-7", "replay": "skipped",
                                                  "reason": "version-unread"}]


@pytest.mark.parametrize("reason, status", [("version-unread", AGREE), ("unread-version", AGREE),
                                            ("unread-versions", DISAGREE), ("kind-unread", DISAGREE)])
def test_runner_compares_a_consumers_reason_in_either_spelling(reason, status):
    verdict = copy.deepcopy({k: REAL["tiers"]["none"][k] for k in ("result", "codes", "history", "entries")
                             if k in REAL["tiers"]["none"]})
    verdict.setdefault("history", "no-releases")
    verdict["entries"][0]["fixtures"][0]["reason"] = reason
    assert compare(REAL, verdict, KIT.rfc, "none").status == status
