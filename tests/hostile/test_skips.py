"""Issue #11 item 1: one source of an unread kind must not switch replay off (docs/skips.md).

Each attack starts from a real Runner recording (tests/vectors/runner-exports) whose dialect gains one
selected-file source of provider local-file: a kind the verifier does not read, so §11 refuses the
fixture as kind-unread and RFC 0019 §4 holds it by its digests only. The forgeries below were passed
with exit 0 before; each is refused now with the verifier's own finding code. Digests are computed by
hashlib and the standard library (tests/support/catalog.py), never by the code under test.
"""

from __future__ import annotations

import copy
import json
import subprocess
import sys

import pytest

from judgment_exchange.gate.pipeline import GateOptions, check_catalog
from judgment_exchange.tree import WorkingTree

from ..support.catalog import CatalogBuilder, pretty, sha, stdlib_canon

OPTIONS = GateOptions(history=False)
ENTRY = "acme.vendors-upload"
FIXTURE = "entries/acme/vendors-upload/fixtures/vendor-7"
UPLOAD = {"name": "upload", "kind": "selected-file", "provider": "local-file",
          "read": {"copy": {"facts": [{"target": "/upload", "source": "/name"}], "evidence": []}}}


def _rewrite(path, edit) -> None:
    value = json.loads(path.read_bytes())
    edit(value)
    path.write_bytes(pretty(value))


def upload_entry(builder: CatalogBuilder, entry_id: str = ENTRY, dialect_edit=None):
    """The Runner's recording with a local-file source added to its dialect (its digests recomputed)."""
    path = builder.add_runner_entry(entry_id)
    doc = json.loads((path / "dialect.json").read_bytes())
    doc["sources"].append(copy.deepcopy(UPLOAD))
    if dialect_edit is not None:
        dialect_edit(doc)
    (path / "dialect.json").write_bytes(stdlib_canon(doc))

    def entry_edit(entry):
        entry["dialect"]["digest"] = sha(stdlib_canon(doc))
        entry["sourceKinds"] = sorted({s["kind"] for s in doc["sources"]},
                                      key=[s["kind"] for s in doc["sources"]].index)

    _rewrite(path / "entry.json", entry_edit)
    builder.write_manifest()
    return path


def fixture_file(path, name: str):
    return path / "fixtures" / "vendor-7" / name


def gate(builder: CatalogBuilder):
    return check_catalog(WorkingTree(str(builder.root)), OPTIONS)


def codes(report) -> list[tuple[str, str | None]]:
    return [(r.code, r.entry) for r in report.refusals]


@pytest.fixture
def builder(tmp_path):
    return CatalogBuilder(tmp_path / "catalog")


# --- the attacks ------------------------------------------------------------------------------------


def test_unread_source_kind_does_not_switch_off_receipt_checks(builder):
    """A forged result with every signature set to zeros, behind one local-file source: refused, exit 1."""
    path = upload_entry(builder)

    def forge(acquisitions):
        acquisitions["vendor"]["response"]["result"]["region"] = "south"
        for member in acquisitions.values():
            member["response"]["receipt"]["signature"] = "0" * 128

    _rewrite(fixture_file(path, "sources.json"), forge)
    builder.write_manifest()
    report = gate(builder)
    assert codes(report) == [("acquisition-invalid", ENTRY)]
    assert report.skipped == [] and report.replayed == 0
    assert "signature does not verify" in report.refusals[0].detail
    done = subprocess.run([sys.executable, "-m", "judgment_exchange", "check", "--catalog", str(builder.root),
                           "--no-history", "--format", "json"], capture_output=True, timeout=300, check=False)
    assert done.returncode == 1, done.stdout
    assert [r["code"] for r in json.loads(done.stdout)["refusals"]] == ["acquisition-invalid"]


def test_forged_result_digest_in_skipped_fixture_refused(builder):
    """A changed result under its recorded receipt: check 5, the result digest, fails."""
    path = upload_entry(builder)
    _rewrite(fixture_file(path, "sources.json"),
             lambda a: a["registry"]["response"]["result"].update(region="south"))
    builder.write_manifest()
    report = gate(builder)
    assert codes(report) == [("acquisition-invalid", ENTRY)]
    assert "resultDigest" in report.refusals[0].detail and "/sources/1" in report.refusals[0].detail


def test_forged_result_with_its_digest_recomputed_in_skipped_fixture_refused(builder):
    """The result changed and resultDigest set to its digest (hashlib over stdlib canon): the signature fails."""
    path = upload_entry(builder)

    def forge(acquisitions):
        response = acquisitions["registry"]["response"]
        response["result"]["region"] = "south"
        response["receipt"]["resultDigest"] = sha(stdlib_canon(response["result"]))

    _rewrite(fixture_file(path, "sources.json"), forge)
    builder.write_manifest()
    report = gate(builder)
    assert codes(report) == [("acquisition-invalid", ENTRY)]
    assert "signature does not verify" in report.refusals[0].detail


def test_forged_case_breaks_the_arguments_commitment_in_skipped_fixture(builder):
    """Another vendor id in the case: the recorded receipt does not commit that request (check 4)."""
    path = upload_entry(builder)
    _rewrite(fixture_file(path, "case.json"), lambda case: case.update(id=8))
    builder.write_manifest()
    report = gate(builder)
    assert codes(report) == [("acquisition-invalid", ENTRY)]
    assert "argumentsCommitment" in report.refusals[0].detail


def test_substituted_profile_in_skipped_fixture_refused(builder):
    """A trusted profile with another key: its digest is not the source's profileDigest (the pin)."""
    path = upload_entry(builder)
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
    from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

    key = Ed25519PrivateKey.generate().public_key().public_bytes(Encoding.Raw, PublicFormat.Raw).hex()
    profiles = json.loads(fixture_file(path, "profiles.json").read_bytes())
    profiles[0]["publicKey"] = key
    fixture_file(path, "profiles.json").write_bytes(pretty(profiles))
    builder.write_manifest()
    report = gate(builder)
    assert codes(report) == [("profile-mismatch", ENTRY)]


def test_acquisition_naming_no_source_in_skipped_fixture_refused(builder):
    path = upload_entry(builder)
    _rewrite(fixture_file(path, "sources.json"), lambda a: a.update(extra=copy.deepcopy(a["registry"])))
    builder.write_manifest()
    assert codes(gate(builder)) == [("acquisition-unexpected", ENTRY)]


def test_local_file_source_with_an_acquisition_refused(builder):
    """§5.2: a member for a local-file source is acquisition-unexpected, even though its kind is unread."""
    path = upload_entry(builder)
    _rewrite(fixture_file(path, "sources.json"), lambda a: a.update(upload=copy.deepcopy(a["registry"])))
    builder.write_manifest()
    assert codes(gate(builder)) == [("acquisition-unexpected", ENTRY)]


def _ref_from_upload(doc):
    """The upload source first; the vendor source takes its id from it, so its request cannot be formed."""
    upload = doc["sources"].pop()
    upload["read"]["copy"]["facts"] = [{"target": "/vendorRef", "source": "/id"}]
    doc["sources"].insert(0, upload)
    vendor = doc["sources"][1]
    vendor["parameters"] = {"ref": {"from": "upload", "pointer": "/vendorRef", "type": "integer"}}
    vendor["arguments"]["arguments"]["sql"]["$text"] = vendor["arguments"]["arguments"]["sql"]["$text"].replace(
        "{{vendorId}}", "{{ref}}")


def test_source_depending_on_unread_kind_still_has_its_signature_checked(builder):
    path = upload_entry(builder, dialect_edit=_ref_from_upload)
    _rewrite(fixture_file(path, "sources.json"),
             lambda a: a["vendor"]["response"]["receipt"].update(signature="0" * 128))
    builder.write_manifest()
    report = gate(builder)
    assert codes(report) == [("acquisition-invalid", ENTRY)]
    assert "/sources/1" in report.refusals[0].detail


# --- near-misses: a genuine recording with an unread kind is a skip ----------------------------------


def test_genuine_recording_with_unread_kind_is_a_skip(builder):
    upload_entry(builder)
    report = gate(builder)
    assert report.passed, codes(report)
    [skip] = report.skipped
    assert (skip.entry, skip.fixture, skip.reason) == (ENTRY, "vendor-7", "kind-unread: selected-file")
    assert skip.kinds == ("selected-file",) and skip.sources == ("/sources/2",)
    assert skip.receipts == 2 and skip.unchecked == () and skip.acknowledged is None
    assert skip.as_json()["reason"] == "kind-unread: selected-file"  # the shape --format github reads


def test_commitment_of_request_from_unread_source_is_reported_unchecked(builder):
    """A request that takes a value from the unread source cannot be formed: its signature and result digest
    are still checked (a skip, not a refusal), and the commitment is named as not checked."""
    upload_entry(builder, dialect_edit=_ref_from_upload)
    report = gate(builder)
    assert report.passed, codes(report)
    [skip] = report.skipped
    assert skip.sources == ("/sources/0",) and skip.receipts == 2
    assert [u.split(":")[0] for u in skip.unchecked] == ["/sources/1", "/sources/1"]
    assert "argumentsCommitment" in skip.unchecked[0] and "read" in skip.unchecked[1]


def test_skip_names_sources_by_position_never_by_name(builder, capsys):
    planted = "planted-source-name-q7x"

    def rename(doc):
        doc["sources"][-1]["name"] = planted

    upload_entry(builder, dialect_edit=rename)
    report = gate(builder)
    assert report.passed, codes(report)
    assert planted not in json.dumps([s.as_json() for s in report.skipped]) + report.skipped[0].text()
    from judgment_exchange.cli import main

    assert main(["check", "--catalog", str(builder.root), "--no-history"]) == 0
    out = capsys.readouterr().out
    assert "/sources/2" in out and "selected-file" in out and planted not in out


# --- skips.json -----------------------------------------------------------------------------------


def _acks(builder, items) -> None:
    data = items if isinstance(items, bytes) else pretty(items)
    (builder.root / "skips.json").write_bytes(data)


WHY = "The upload is the operator's own file; no reader recomputes selected-file yet (reviewed in #12)."


def test_acknowledged_skip_passes(builder):
    upload_entry(builder)
    _acks(builder, [{"entry": ENTRY, "fixture": "vendor-7", "why": WHY}])
    report = gate(builder)
    assert report.passed, codes(report)
    assert [s.acknowledged for s in report.skipped] == [True]


def test_unacknowledged_skip_fails_the_gate(builder):
    upload_entry(builder)
    _acks(builder, [])
    report = gate(builder)
    assert codes(report) == [("skip-unacknowledged", ENTRY)]
    assert report.refusals[0].path == FIXTURE
    assert [s.acknowledged for s in report.skipped] == [False]


def test_a_forged_skipped_fixture_is_refused_even_when_acknowledged(builder):
    path = upload_entry(builder)
    _acks(builder, [{"entry": ENTRY, "fixture": "vendor-7", "why": WHY}])
    _rewrite(fixture_file(path, "sources.json"),
             lambda a: a["vendor"]["response"]["receipt"].update(signature="0" * 128))
    builder.write_manifest()
    report = gate(builder)
    assert ("acquisition-invalid", ENTRY) in codes(report)


def test_without_skips_json_a_skip_is_a_warning_only(builder):
    """RFC 0019 §4 as written: a catalog that has no skips.json reports the skip and passes."""
    upload_entry(builder)
    report = gate(builder)
    assert report.passed and len(report.skipped) == 1


@pytest.mark.parametrize("entry,fixture,why", [
    ("acme.vendors", "vendor-7", "its fixture was replayed"),  # replayed, not skipped
    ("acme.nothing", "vendor-7", "names no entry"),
    (ENTRY, "vendor-8", "lists no fixture"),
])
def test_stale_acknowledgement_is_refused(builder, entry, fixture, why):
    builder.add_runner_entry("acme.vendors")
    upload_entry(builder)
    items = [{"entry": ENTRY, "fixture": "vendor-7", "why": WHY}, {"entry": entry, "fixture": fixture, "why": WHY}]
    _acks(builder, sorted(items, key=lambda i: (i["entry"].encode(), i["fixture"].encode())))
    report = gate(builder)
    assert [r.code for r in report.refusals] == ["skip-acknowledgement-stale"]
    assert why in report.refusals[0].detail and report.refusals[0].path == "skips.json"


def test_acknowledgement_of_another_entry_is_not_judged_under_an_entry_filter(builder):
    builder.add_runner_entry("acme.vendors")
    upload_entry(builder)
    _acks(builder, [{"entry": ENTRY, "fixture": "vendor-7", "why": WHY}])
    report = check_catalog(WorkingTree(str(builder.root)), GateOptions(history=False, entries=["acme.vendors"]))
    assert report.passed, codes(report)


@pytest.mark.parametrize("data,detail", [
    (b"{}", "JSON array"),
    (b"[1]", "item 0: an acknowledgement is an object"),
    (pretty([{"entry": ENTRY, "fixture": "vendor-7"}]), "exactly entry, fixture and why"),
    (pretty([{"entry": ENTRY, "fixture": "vendor-7", "why": WHY, "by": "x"}]), "exactly entry, fixture and why"),
    (pretty([{"entry": "Acme/Vendors", "fixture": "vendor-7", "why": WHY}]), "entry is an entry id"),
    (pretty([{"entry": ENTRY, "fixture": "Vendor_7", "why": WHY}]), "fixture is a fixture name"),
    (pretty([{"entry": ENTRY, "fixture": "vendor-7", "why": "  "}]), "why is the reviewed reason"),
    (pretty([{"entry": ENTRY, "fixture": "vendor-7", "why": "x" * 1025}]), "why is the reviewed reason"),
    (pretty([{"entry": ENTRY, "fixture": "vendor-7", "why": WHY}] * 2), "given twice"),
    (pretty([{"entry": ENTRY, "fixture": "vendor-7", "why": WHY},
             {"entry": "acme.vendors", "fixture": "vendor-7", "why": WHY}]), "out of order"),
    (b'[{"entry": "acme.x", "entry": "acme.y"}]', ""),
    (b"[", ""),
])
def test_malformed_skips_json_is_refused(builder, data, detail):
    upload_entry(builder)
    _acks(builder, data)
    report = gate(builder)
    assert "skips-malformed" in [r.code for r in report.refusals]
    assert detail in " ".join(r.detail for r in report.refusals)
    assert "skip-unacknowledged" not in [r.code for r in report.refusals]


def test_skips_json_that_is_a_directory_is_refused(builder):
    upload_entry(builder)
    (builder.root / "skips.json").mkdir()
    assert [r.code for r in gate(builder).refusals] == ["skips-malformed"]


def test_well_formed_skips_json_near_miss(builder):
    """Two acknowledgements in byte order (acme.vendors-upload after acme.vendors-a…), each current."""
    upload_entry(builder)
    upload_entry(builder, "acme.vendors-upload2")
    _acks(builder, [{"entry": ENTRY, "fixture": "vendor-7", "why": WHY},
                    {"entry": "acme.vendors-upload2", "fixture": "vendor-7", "why": "é" * 1024}])
    report = gate(builder)
    assert report.passed, codes(report)
    assert [s.acknowledged for s in report.skipped] == [True, True]


def test_this_catalog_acknowledges_every_skip():
    """The repository's own skips.json is in its closed form and the gate on this catalog holds it."""
    from ..support.paths import REPO

    assert (REPO / "skips.json").is_file()
    value = json.loads((REPO / "skips.json").read_bytes())
    assert isinstance(value, list)
    report = check_catalog(WorkingTree(str(REPO)), OPTIONS)
    assert not [r for r in report.refusals if r.code.startswith("skip")], codes(report)
    assert all(s.acknowledged for s in report.skipped)


# --- other kinds: a research source's retained responses, an unread source's own pin -----------------


def research_upload_entry(builder: CatalogBuilder):
    """The recorder's research example (unbound, bound by binding.json) with a local-file source added."""
    import shutil

    from ..support.paths import REPO

    path = builder.root / "entries" / "examples" / "research-v3"
    shutil.copytree(REPO / "tests" / "examples" / "research-v3", path)
    builder.entries["examples.research-v3"] = path
    doc = json.loads((path / "dialect.json").read_bytes())
    doc["sources"].append(copy.deepcopy(UPLOAD))
    (path / "dialect.json").write_bytes(pretty(doc))
    digest = sha(stdlib_canon(doc))
    _rewrite(path / "entry.json", lambda e: (e["dialect"].update(digest=digest),
                                             e.update(sourceKinds=["research", "selected-file"])))
    binding = path / "fixtures" / "found" / "binding.json"
    binding.write_bytes(stdlib_canon(dict(json.loads(binding.read_bytes()), dialect=digest)))
    builder.write_manifest()
    return path


def test_research_retained_responses_are_checked_in_a_skipped_fixture(builder):
    path = research_upload_entry(builder)
    report = gate(builder)
    assert report.passed, codes(report)
    [skip] = report.skipped
    assert skip.kinds == ("selected-file",) and skip.sources == ("/sources/1",) and skip.receipts == 3
    _rewrite(path / "fixtures" / "found" / "sources.json",
             lambda a: a["company"]["response"]["result"]["responses"][1]["receipt"].update(signature="0" * 128))
    builder.write_manifest()
    report = gate(builder)
    assert codes(report) == [("acquisition-invalid", "examples.research-v3")]
    assert "/sources/0, response 1" in report.refusals[0].detail


def test_profile_pin_of_an_unread_source_is_checked(builder):
    """An http source (unread) names its profile by id and digest: a substituted trusted profile is refused."""
    path = builder.add_http_entry()
    builder.write_manifest()
    assert gate(builder).passed
    profiles = path / "fixtures" / "vendor-7" / "profiles.json"
    value = json.loads(profiles.read_bytes())
    value[0]["authority"] = value[0]["authority"] + "-other"
    profiles.write_bytes(pretty(value))
    builder.write_manifest()
    assert codes(gate(builder)) == [("profile-mismatch", "acme.vendors-http")]


def test_a_skip_from_another_verifier_still_checks_what_ours_reads(builder, monkeypatch):
    """EXCHANGE_VERIFIER answers kind-unread for a plain operation dialect: the built-in checks still run."""
    import shlex

    path = builder.add_runner_entry("acme.vendors")
    _rewrite(fixture_file(path, "sources.json"),
             lambda a: a["vendor"]["response"]["receipt"].update(signature="0" * 128))
    builder.write_manifest()
    line = '{"refusal":"kind-unread","result":"refusal"}'
    script = f"import sys; sys.stdout.write({line!r} + chr(10)); sys.exit(1)"
    monkeypatch.setenv("EXCHANGE_VERIFIER", f"{shlex.quote(sys.executable)} -c {shlex.quote(script)}")
    report = gate(builder)
    assert codes(report) == [("acquisition-invalid", "acme.vendors")] and report.skipped == []
