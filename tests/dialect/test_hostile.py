"""The checker never raises: hostile bytes, truncations and structural mutations of valid documents."""

from __future__ import annotations

import copy
import json
import random
from pathlib import Path

from judgment_exchange.dialect import binding_form_refusal, check_binding, check_form

CASES = Path(__file__).resolve().parents[1] / "cases" / "dialect"
CODES = {None, "input-over-bound", "input-malformed", "version-unread", "kind-unread"}
VALID = ["valid-v2-runner-encoding", "valid-v3-all-kinds", "valid-v3-reconciliation", "valid-named-3.0.0",
         "valid-v3-research-rule-read"]
ODD = [None, True, 0, -1, 1.5, "", "$", "~", "/", "\u2028", "case", "runAt", {}, [], [[]], {"$param": "runAt"},
       {"$text": "{{"}, {"op": "always"}, {"op": "all", "of": {}}, "sha256:", "\ud7ff\ue000", 10**30]


def _paths(value, path=()):
    yield path
    if isinstance(value, dict):
        for key, item in value.items():
            yield from _paths(item, path + (key,))
    elif isinstance(value, list):
        for i, item in enumerate(value):
            yield from _paths(item, path + (i,))


def test_truncations_never_raise() -> None:
    for name in VALID:
        data = (CASES / name / "dialect.json").read_bytes()
        for cut in range(0, len(data), max(1, len(data) // 300)):
            assert check_form(data[:cut]).refusal in CODES - {None}


def test_hostile_bytes_never_raise() -> None:
    rng = random.Random(19)
    for blob in [b"", b"\x00", b"\xef\xbb\xbf{}", b"[" * 100000, b'{"version":2' * 5000, b"1" * 200, b'"\\ud800"',
                 b"{}" * 3]:
        assert check_form(blob).refusal in CODES - {None}
    data = (CASES / "valid-v3-all-kinds" / "dialect.json").read_bytes()
    alphabet = b'{}[]":,0123456789-.eE/$~ ntrufalse\\\xff'
    for _ in range(1500):
        blob = bytearray(data)
        for _ in range(rng.randint(1, 6)):
            pos = rng.randrange(len(blob))
            choice = rng.random()
            if choice < 0.4:
                blob[pos] = rng.choice(alphabet)
            elif choice < 0.7:
                del blob[pos]
            else:
                blob.insert(pos, rng.choice(alphabet))
        assert check_form(bytes(blob)).refusal in CODES


def test_structural_mutations_never_raise() -> None:
    rng = random.Random(18)
    for name in VALID:
        base = json.loads((CASES / name / "dialect.json").read_text())
        paths = list(_paths(base))[1:]
        for _ in range(250):
            doc = copy.deepcopy(base)
            path = rng.choice(paths)
            parent = doc
            for key in path[:-1]:
                parent = parent[key]
            if isinstance(parent, dict) and rng.random() < 0.25:
                del parent[path[-1]]
            else:
                parent[path[-1]] = copy.deepcopy(rng.choice(ODD))
            data = json.dumps(doc).encode("utf-8", "surrogatepass")
            result = check_form(data)
            assert result.refusal in CODES
            if result.refusal is None:
                check_binding(b'{"dialect":"x","sources":{}}', result.document, result.digest)


def test_binding_against_hostile_dialect_values_never_raises() -> None:
    for document in [None, [], {}, {"sources": None}, {"sources": [None, 1, {"kind": "research"}]},
                     {"sources": [{"kind": "operation", "name": "a", "platform": "p", "operation": "o", "shape": "mcp",
                                   "record": "r"}]}]:
        binding = (b'{"dialect":"sha256:' + b"0" * 64 + b'","sources":{"a":{"profile":"p","profileDigest":"sha256:'
                   + b"0" * 64 + b'"}}}')
        result = check_binding(binding, document, "sha256:" + "0" * 64)
        assert result.refusal in CODES


def test_binding_form_refusal_alone_never_raises() -> None:
    """The phase-5 binding check a verifier may call on its own: a value for any dialect value, never an exception."""
    binding = {"dialect": "sha256:" + "0" * 64,
               "sources": {"a": {"profile": "p", "profileDigest": "sha256:" + "0" * 64, "webProfiles": {}}}}
    for document in [{"version": 3, "sources": [{"kind": "research", "name": {}}]},
                     {"sources": [{"kind": "operation", "name": [1], "platform": "p", "operation": "o", "shape": "mcp",
                                   "record": "r"}]}]:
        assert binding_form_refusal(binding, document, "sha256:" + "0" * 64)[0] == "input-malformed"
