"""This project's consumer behind the kit's contract (docs/conformance.md, "This project's consumer"):
its retained-state reading, and every code it gives per case at each reader tier (cases.json `projectCodes`,
stated by hand in the generator) — the project held to its own stricter expectations, beyond what the kit
compares; at tier none its reader is switched off in the adapter alone, and put back."""

from __future__ import annotations

import copy
import inspect
import json

import pytest

from judgment_exchange import verifier
from judgment_exchange.conformance.adapter import RetainedError, consume, no_reader, read_retained, read_retained_state
from judgment_exchange.conformance.rebuild import rebuild
from judgment_exchange.conformance.runner import DEFAULT_KIT, _retained, _signed_retained, load_kit
from judgment_exchange.conformance.verdict import AGREE, TIERS, compare
from judgment_exchange.consumer import release_check
from judgment_exchange.signing.signers import read_signers

from .test_runner import exchange

KIT = load_kit(DEFAULT_KIT)


@pytest.mark.parametrize("tier", TIERS)
@pytest.mark.parametrize("case", KIT.cases, ids=[c["name"] for c in KIT.cases])
def test_release_check_gives_every_code_the_case_states_at_each_tier(tmp_path, case, tier):
    location = tmp_path / "catalog"
    rebuild((KIT.path / case["stream"]["path"]).read_bytes(), case["steps"], location)
    retained = read_retained_state(_signed_retained(case, _retained(case, location))) if case["retained"] else None
    signers = None  # a signing case's pinned set, as the runner passes it (issue #36 item 6)
    if (case.get("signing") or {}).get("signers"):
        signers = read_signers("".join(line + "\n" for line in case["signing"]["signers"]).encode("ascii"))
    verdict = consume(str(location), case["tag"], history_limit=case["historyLimit"], held=case["held"],
                      retained=retained, tier=tier, signers=signers)
    strict = copy.deepcopy(case) | {"strictness": "project"}
    strict["tiers"][tier]["codes"] = case["tiers"][tier]["projectCodes"]
    outcome = compare(strict, verdict, KIT.rfc, tier)
    assert outcome.status == AGREE, outcome.differences


def test_the_reader_is_switched_off_inside_the_adapter_only_and_put_back():
    """no_reader replaces the verifier's replay and skip reading for the checks inside it, and restores them
    even when the check raises; release-check itself takes no option that turns its reader or a rule off."""
    saved = verifier.replay_fixture, verifier.replay_with_program, verifier.check_skipped
    with pytest.raises(RuntimeError):
        with no_reader():
            assert verifier.replay_fixture(b"{}", {}) == {"result": "refusal", "refusal": "version-unread"}
            assert verifier.replay_with_program("x", "/nonexistent", "f")["refusal"] == "version-unread"
            assert verifier.check_skipped(b"{}", {}) is None
            raise RuntimeError("a check that fails")
    assert (verifier.replay_fixture, verifier.replay_with_program, verifier.check_skipped) == saved
    assert not {"tier", "reader", "replay"} & set(inspect.signature(release_check).parameters)


@pytest.mark.parametrize("text, why", [
    ("[]", "an object of exactly"),
    ('{"retainedVersion": 3, "location": "x", "tag": "v0.1.0", "commit": "c", "manifestDigest": "d", "entries": []}',
     "retainedVersion is 1 or 2"),
    ('{"retainedVersion": 2, "location": "x", "tag": "v0.1.0", "commit": "c", "manifestDigest": "d", "entries": []}',
     "an object of exactly"),  # version 2 gives withdrawn (issue #34 item 4)
    ('{"retainedVersion": 2, "location": "x", "tag": "v0.1.0", "commit": "c", "manifestDigest": "d", "entries": [], '
     '"withdrawn": [{"id": "a.b"}]}', "withdrawn is an array"),
    ('{"retainedVersion": 1, "location": "x", "tag": "v0.1.0", "commit": "c", "manifestDigest": "d", "entries": [], '
     '"withdrawn": []}', "an object of exactly"),
    ('{"retainedVersion": 1, "location": "x", "tag": "v0.1.0", "commit": "c", "manifestDigest": "d", "entries": {}}',
     "entries is an array"),
    ('{"retainedVersion": 1, "retainedVersion": 1}', "not one strict JSON value"),
    ('{"retainedVersion": 1, "location": "x", "tag": "v0.1.0", "commit": "c", "manifestDigest": "d", '
     '"entries": [], "lockVersion": 1}', "an object of exactly"),
])
def test_retained_state_in_another_form_is_refused(text, why):
    with pytest.raises(RetainedError, match=why):
        read_retained(text.encode())


def test_retained_state_version_2_keeps_its_withdrawn_entries():
    from judgment_exchange.consumer.lock import Withdrawn

    lock = read_retained(json.dumps({"retainedVersion": 2, "location": "/x", "tag": "v0.2.0", "commit": "b" * 40,
                                     "manifestDigest": "sha256:" + "0" * 64, "entries": [],
                                     "withdrawn": [{"id": "acme.vendors", "tag": "v0.1.0", "commit": "a" * 40,
                                                    "entryDigest": "sha256:" + "1" * 64}]}).encode())
    assert lock.entries == {} and lock.withdrawn == {"acme.vendors": Withdrawn("v0.1.0", "a" * 40,
                                                                               "sha256:" + "1" * 64)}


def test_retained_state_is_read_as_a_lock_in_memory():
    lock = read_retained(json.dumps({"retainedVersion": 1, "location": "/x", "tag": "v0.1.0", "commit": "a" * 40,
                                     "manifestDigest": "sha256:" + "b" * 64,
                                     "entries": [{"id": "acme.vendors",
                                                  "entryDigest": "sha256:" + "c" * 64}]}).encode())
    assert (lock.location, lock.tag, lock.commit, lock.entries) == ("/x", "v0.1.0", "a" * 40,
                                                                     {"acme.vendors": "sha256:" + "c" * 64})


def test_consume_refuses_a_malformed_retained_file_as_a_bad_invocation(tmp_path):
    bad = tmp_path / "retained.json"
    bad.write_text('{"lockVersion": 1}', encoding="utf-8")
    done = exchange("consume", "--location", str(tmp_path), "--tag", "v0.1.0", "--history", "1",
                    "--retained", str(bad))
    assert done.returncode == 3 and "not the kit's retained state" in done.stderr and not done.stdout
    done = exchange("consume", "--location", str(tmp_path / "none"), "--tag", "v0.1.0", "--history", "1")
    assert done.returncode == 4 and "Traceback" not in done.stderr and not done.stdout
