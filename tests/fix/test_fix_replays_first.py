"""`exchange fix` replays before it pins (issue #17 item 4; docs/fix.md, "Replay before pinning").

A preparationDigest is re-pinned only when its fixture replays to exactly its preparation.json, and a
dialect digest only when every fixture of the entry still replays; otherwise nothing is written and the
message names the fixture, the verifier's code and the first member that differs (a JSON pointer with
each side's type and length, never the value). A fixture the verifier cannot recompute (kind-unread) is
never re-pinned. With --base, a preparation-digest-mismatch whose preparation.json the pull request
changed says re-record, not `exchange fix`.

Entries are built from the real Runner exports (tests/support/catalog.py); expected digests are computed
here with hashlib, expected pointers and lengths stated by hand.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from judgment_exchange.cli import main
from judgment_exchange.gate.pipeline import GateOptions, check_catalog
from judgment_exchange.tree import WorkingTree

from ..support.catalog import CatalogBuilder, pretty, sha, stdlib_canon
from ..support.gitrepo import GitRepo
from .test_fix import WRONG, set_member, snapshot

FORGED = "forged-by-hand"  # 14 characters, in place of the recorded reason "matching-vendor" (15)
POINTER = ("first differs at /lineage/0/reason: recorded <a string of 14 characters>, "
           "recomputed <a string of 15 characters>")
VENDORS = Path("entries/acme/vendors")
FIXTURE = VENDORS / "fixtures" / "vendor-7"
HTTP = Path("entries/acme/vendors-http")


def build(root: Path) -> Path:
    builder = CatalogBuilder(root)
    builder.add_runner_entry()
    builder.add_http_entry()
    builder.write_manifest()
    return root


@pytest.fixture
def catalog(tmp_path) -> Path:
    return build(tmp_path / "catalog")


def edit_preparation(root: Path) -> bytes:
    """One recorded value of the real fixture changed, the file still in canonical bytes; its new bytes."""
    prep = root / FIXTURE / "preparation.json"
    value = json.loads(prep.read_bytes())
    assert value["lineage"][0]["reason"] == "matching-vendor"
    value["lineage"][0]["reason"] = FORGED
    data = stdlib_canon(value)
    prep.write_bytes(data)
    return data


def repin_by_hand(root: Path, data: bytes) -> None:
    """What a person laundering the edit would do without fix: the digest written by hand, the manifest
    rewritten by its own command."""
    set_member(root / VENDORS / "entry.json", ("fixtures", 0, "preparationDigest"), sha(data))
    assert main(["manifest", "--write", "--catalog", str(root)]) == 0


def gate(root: Path, **options):
    options.setdefault("history", False)
    return check_catalog(WorkingTree(str(root)), GateOptions(**options))


def fix(root: Path, capsys, *extra: str) -> tuple[int, str]:
    capsys.readouterr()
    code = main(["fix", "--catalog", str(root), *extra])
    captured = capsys.readouterr()
    return code, captured.out + captured.err


# --- an edited recording ----------------------------------------------------------------------------

def test_attack_fix_launders_an_edited_recording(catalog, capsys):
    edit_preparation(catalog)
    assert [r.code for r in gate(catalog).refusals] == ["preparation-digest-mismatch"]
    before = snapshot(catalog)
    code, text = fix(catalog, capsys)
    assert code == 1
    assert snapshot(catalog) == before  # nothing written, anywhere
    assert f"{FIXTURE.as_posix()}: preparation-differs: fixture vendor-7 does not replay" in text
    assert POINTER in text
    assert "/fixtures/0/preparationDigest not re-pinned" in text and "re-record the fixture" in text
    assert FORGED not in text and "nothing written" in text
    assert fix(catalog, capsys, "--check")[0] == 1 and snapshot(catalog) == before
    # the next check is the first round again, not a laundered pass
    assert [r.code for r in gate(catalog).refusals] == ["preparation-digest-mismatch"]


def test_the_gate_and_exchange_verify_name_the_same_member(catalog, capsys):
    repin_by_hand(catalog, edit_preparation(catalog))
    report = gate(catalog)
    assert [r.code for r in report.refusals] == ["preparation-differs"]
    detail = report.refusals[0].detail
    assert detail.endswith(f"; preparation.json {POINTER}") and FORGED not in detail
    capsys.readouterr()
    assert main(["check", "--catalog", str(catalog), "--no-history", "--format", "json"]) == 1
    out = capsys.readouterr().out
    assert POINTER in json.loads(out)["refusals"][0]["detail"] and FORGED not in out
    assert main(["verify", "--fixture", str(catalog / FIXTURE)]) == 2
    captured = capsys.readouterr()
    assert POINTER in captured.err and FORGED not in captured.out + captured.err


def test_near_miss_a_stale_digest_over_an_unedited_recording_is_repinned(catalog, capsys):
    """The digest member alone is wrong (zeros) and preparation.json replays exactly: fix re-pins it."""
    set_member(catalog / VENDORS / "entry.json", ("fixtures", 0, "preparationDigest"), "sha256:" + "0" * 64)
    code, text = fix(catalog, capsys)
    assert code == 0, text
    expected = sha((catalog / FIXTURE / "preparation.json").read_bytes())
    assert json.loads((catalog / VENDORS / "entry.json").read_bytes())["fixtures"][0]["preparationDigest"] == expected
    assert gate(catalog).refusals == []


def test_kind_unread_fixture_is_never_repinned(catalog, capsys):
    """The verifier cannot recompute an http source: fix would vouch for a recording nobody replayed."""
    set_member(catalog / HTTP / "entry.json", ("fixtures", 0, "preparationDigest"), "sha256:" + "0" * 64)
    before = snapshot(catalog)
    code, text = fix(catalog, capsys)
    assert code == 1 and snapshot(catalog) == before
    assert f"{(HTTP / 'fixtures' / 'vendor-7').as_posix()}: kind-unread: fixture vendor-7" in text
    assert "never re-pins its preparationDigest" in text and "re-record the fixture" in text


def test_near_miss_kind_unread_fixture_with_its_pin_right_does_not_stop_fix(catalog, capsys):
    set_member(catalog / HTTP / "entry.json", ("fixtures", 0, "preparationDigest"), "sha256:" + "0" * 64)
    set_member(catalog / HTTP / "entry.json", ("fixtures", 0, "preparationDigest"),
               sha((catalog / HTTP / "fixtures" / "vendor-7" / "preparation.json").read_bytes()))
    code, text = fix(catalog, capsys)
    assert code == 0, text
    assert gate(catalog).refusals == []


# --- a changed dialect -------------------------------------------------------------------------------

def edit_rule(root: Path) -> None:
    """The first source's first clause gives another reason: what the fixture derives changes."""
    path = root / VENDORS / "dialect.json"
    doc = json.loads(path.read_bytes())
    doc["sources"][0]["read"]["rule"]["clauses"][0]["reason"] = "matching-vendor-v2"
    path.write_bytes(stdlib_canon(doc))


def test_attack_a_changed_dialect_is_not_repinned_over_fixtures_it_no_longer_derives(catalog, capsys):
    edit_rule(catalog)
    shape = ["dialect-digest-mismatch", "manifest-digest-mismatch"]  # the entry's pin, and the row's of the bytes
    assert [r.code for r in gate(catalog).refusals] == shape
    before = snapshot(catalog)
    code, text = fix(catalog, capsys)
    assert code == 1 and snapshot(catalog) == before
    assert (f"{FIXTURE.as_posix()}: preparation-differs: fixture vendor-7 does not replay to its preparation.json "
            "under dialect.json as it now is") in text
    # the rule's read changed first: its digest, by sorted member order (readDigest before reason)
    assert ("first differs at /lineage/0/readDigest: recorded <a string of 71 characters>, "
            "recomputed <a string of 71 characters>") in text
    assert f"{VENDORS.as_posix()}/entry.json /dialect/digest not re-pinned" in text
    assert "matching-vendor-v2" not in text
    assert [r.code for r in gate(catalog).refusals] == shape


def test_near_miss_a_stale_dialect_digest_over_an_unchanged_document_is_repinned(catalog, capsys):
    set_member(catalog / VENDORS / "entry.json", ("dialect", "digest"), WRONG)
    code, text = fix(catalog, capsys)
    assert code == 0, text
    expected = sha(stdlib_canon(json.loads((catalog / VENDORS / "dialect.json").read_bytes())))
    assert json.loads((catalog / VENDORS / "entry.json").read_bytes())["dialect"]["digest"] == expected
    assert gate(catalog).refusals == []


def test_a_skipped_fixture_under_a_changed_dialect_is_held_as_the_gate_holds_it(catalog, capsys):
    """An http entry's dialect changes in a way the verifier's partial checks still accept (a longer
    maxAge): the gate would skip the fixture as before, so fix re-pins the dialect digest."""
    path = catalog / HTTP / "dialect.json"
    doc = json.loads(path.read_bytes())
    doc["sources"][0]["maxAge"] = 600
    path.write_bytes(pretty(doc))
    code, text = fix(catalog, capsys)
    assert code == 0, text
    assert json.loads((catalog / HTTP / "entry.json").read_bytes())["dialect"]["digest"] == sha(stdlib_canon(doc))
    assert gate(catalog).refusals == []


def test_attack_a_skipped_fixture_whose_held_checks_fail_under_the_changed_dialect(catalog, capsys):
    """The http source's profile pin moves to a digest no trusted profile has: what the verifier still
    reads of the skipped fixture fails, so the dialect digest is not re-pinned."""
    path = catalog / HTTP / "dialect.json"
    doc = json.loads(path.read_bytes())
    doc["sources"][0]["profileDigest"] = "sha256:" + "1" * 64
    path.write_bytes(pretty(doc))
    before = snapshot(catalog)
    code, text = fix(catalog, capsys)
    assert code == 1 and snapshot(catalog) == before
    assert f"{(HTTP / 'fixtures' / 'vendor-7').as_posix()}: profile-mismatch: fixture vendor-7 is skipped" in text
    assert f"{HTTP.as_posix()}/entry.json /dialect/digest not re-pinned" in text


# --- the pull request's wording (--base) ---------------------------------------------------------------

@pytest.fixture
def pull_request(tmp_path) -> Path:
    """The catalog committed as `main` of a throwaway repository, a branch `change` checked out."""
    root = build(tmp_path / "repo")
    git = GitRepo(root)
    git.git("add", "-A")
    git.git("commit", "-q", "-m", "base")
    git.git("checkout", "-q", "-b", "change")
    return root


def refusal(report, code: str):
    found = [r for r in report.refusals if r.code == code]
    assert len(found) == 1, [(r.code, r.path) for r in report.refusals]
    return found[0]


def test_base_an_edited_recording_is_to_be_rerecorded(pull_request, capsys):
    edit_preparation(pull_request)
    report = gate(pull_request, base="main", repository=str(pull_request))
    mismatch = refusal(report, "preparation-digest-mismatch")
    assert mismatch.path == f"{FIXTURE.as_posix()}/preparation.json"
    fix_text = mismatch.how_to_fix()
    assert "re-record the fixture" in fix_text and "Run `exchange fix`" not in fix_text
    assert fix_text.endswith("Run `exchange fixture add ENTRY_DIR RUN_EXPORT --name NAME --replace`.")
    assert mismatch.as_json()["fix"] == fix_text
    assert mismatch.detail.endswith("; preparation.json changed against the base")
    assert main(["check", "--catalog", str(pull_request), "--base", "main", "--no-history"]) == 1
    out = capsys.readouterr().out
    assert f"  fix: {fix_text}\n" in out and FORGED not in out
    from judgment_exchange.annotations import markdown_text, summary, workflow_commands

    annotations = "\n".join(workflow_commands(report, lambda path: None))
    assert "re-record the fixture" in annotations and "Run `exchange fix`" not in annotations
    assert markdown_text(fix_text) in summary(report, lambda path: None)


def test_base_an_edited_recording_repinned_by_hand_is_to_be_rerecorded(pull_request):
    repin_by_hand(pull_request, edit_preparation(pull_request))
    report = gate(pull_request, base="main", repository=str(pull_request))
    differs = refusal(report, "preparation-differs")
    assert differs.detail.endswith(f"; preparation.json {POINTER}")
    assert "Re-record the fixture" in differs.how_to_fix() and "Run `exchange fix`" not in differs.how_to_fix()
    assert [r.code for r in report.refusals] == ["preparation-differs"]


def test_near_miss_base_a_corrupted_digest_member_is_still_exchange_fix(pull_request):
    set_member(pull_request / VENDORS / "entry.json", ("fixtures", 0, "preparationDigest"), "sha256:" + "0" * 64)
    report = gate(pull_request, base="main", repository=str(pull_request))
    mismatch = refusal(report, "preparation-digest-mismatch")
    assert mismatch.fix is None and mismatch.how_to_fix() == (
        "Recompute preparationDigest from preparation.json. Run `exchange fix`.")
    assert not mismatch.detail.endswith("changed against the base")


def test_near_miss_without_base_the_registry_fix_stands(catalog):
    """Without a base the gate cannot tell an edited recording from a stale pin: `exchange fix` is named,
    and fix itself refuses the edited recording (test_attack_fix_launders_an_edited_recording)."""
    edit_preparation(catalog)
    mismatch = refusal(gate(catalog), "preparation-digest-mismatch")
    assert mismatch.fix is None and mismatch.how_to_fix().endswith("Run `exchange fix`.")


def test_attack_a_reading_of_another_digest_is_not_repinned(catalog, capsys, monkeypatch):
    """A reader whose reading names another digest than preparation.json's bytes (codes/verifier.py `read_answer`,
    the rule the gate, fix, fixture add and new --from-run share; tests/test_rule_homes.py): nothing is re-pinned."""
    from ..support.answers import OTHER, answer_another_digest

    set_member(catalog / VENDORS / "entry.json", ("fixtures", 0, "preparationDigest"), "sha256:" + "0" * 64)
    answer_another_digest(monkeypatch)
    before = snapshot(catalog)
    code, text = fix(catalog, capsys)
    assert code == 1 and snapshot(catalog) == before, text
    assert f"{FIXTURE.as_posix()}: replay-digest-mismatch: fixture vendor-7: the verifier's reading has digest " \
           f"{OTHER}, preparation.json's bytes digest to sha256:" in text
    assert "/fixtures/0/preparationDigest not re-pinned" in text
