"""canon and the preparation's canonical form against independent data: the gateway's corpus and
the worked example of dialect §9.5 (digests from receipts-and-canon.md §2, computed elsewhere)."""

from __future__ import annotations

import hashlib
import json

import pytest

from judgment_exchange.canon import CanonError, canon, canonical_digest, digest, preparation_binding, preparation_form
from judgment_exchange.jsonstrict import Bounds, JsonRefusal, loads

from .support.paths import VECTORS

CORPUS = json.loads((VECTORS / "gateway-corpus" / "canon.json").read_text(encoding="utf-8"))["vectors"]


@pytest.mark.parametrize("vector", CORPUS, ids=[v["note"] for v in CORPUS])
def test_gateway_canon_vector(vector):
    data = vector["inputJson"].encode("utf-8", "surrogatepass")
    if vector.get("reject"):
        with pytest.raises((JsonRefusal, CanonError)):
            canon(loads(data, Bounds(max_bytes=1 << 20)))
    else:
        assert canon(loads(data, Bounds(max_bytes=1 << 20))).hex() == vector["expectedHex"]


def test_corpus_is_complete():
    assert len(CORPUS) == 30 and sum(1 for v in CORPUS if v.get("reject")) == 8


EXAMPLE = '{"vendor":"A&B <x> café ☃","n":-0,"s":"\\u2028"}'.encode("utf-8")


def test_preparation_form_worked_example():
    value = loads(EXAMPLE, Bounds(max_bytes=1024))
    # §9.5: "A&B <x> café ☃ is written A\u0026B \u003cx\u003e café ☃"; -0 stays -0; U+2028 escaped
    assert preparation_form(value) == '{"n":-0,"s":"\\u2028","vendor":"A\\u0026B \\u003cx\\u003e café ☃"}'.encode()
    assert digest(preparation_form(value)) == \
        "sha256:453c82d2da5a73196e6f704211abef956bf326e19ca4052254a0f32230304833"


def test_canon_of_the_same_value_differs():
    value = loads(EXAMPLE, Bounds(max_bytes=1024))
    assert canon(value) == '{"n":0,"s":"\u2028","vendor":"A&B <x> café ☃"}'.encode("utf-8")
    assert canonical_digest(value) == "sha256:113196db021fa6ae725d293fbc776053935e79c358e386ec6ac42d7aa6203fdb"


def test_digest_is_over_the_bytes_as_given():
    assert digest(b"abc") == "sha256:" + hashlib.sha256(b"abc").hexdigest()


@pytest.mark.parametrize("text", ['[1.5]', '[1e2]', '[9007199254740992]'])
def test_no_canon_form_outside_the_domain(text):
    value = loads(text.encode(), Bounds(max_bytes=64))
    with pytest.raises(CanonError):
        canon(value)
    with pytest.raises(CanonError):
        preparation_form(value)


def test_binding_bytes_are_kind_then_digest():
    d = "sha256:" + "0" * 64
    assert preparation_binding(d) == ('{"kind":"judgment-pack-runner/preparation/1","digest":"' + d + '"}').encode()


def test_mapping_digest_of_a_real_runner_mapping():
    """The Runner recorded mappingDigest for its own mapping: canon must reproduce it."""
    for name in ("mapping-v2-unsigned-parameters", "mapping-v2-before-calculators"):
        raw = (VECTORS / "runner-exports" / name / "run.json").read_bytes()
        run = loads(raw, Bounds(max_bytes=1 << 20))
        source = run["release"]["sample"]["source"]
        assert canonical_digest(source["mapping"]) == source["mappingDigest"]
