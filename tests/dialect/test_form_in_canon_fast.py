"""The dialect's form check with its digest written first (issue #20; dialect/phases.py `_form(in_canon=True)`).

check_form and check_binding write the (bound) dialect's canonical form before phases 3–6; a document that
has one holds no number outside canon (canon refuses every number that is not an integer), so `_form`
skips `_outside_canon`'s walk. Held here: on every dialect of tests/cases/dialect, the demo catalog and
tests/vectors, and on generated mutations of them (numbers made fractions, members dropped, values
swapped), the phases with the skip give exactly the phases without it wherever the digest is written,
and check_form's and check_binding's whole results are those of the order they had (phases, then digest).
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from judgment_exchange import dialect as dialect_form
from judgment_exchange.canon import canonical_digest
from judgment_exchange.dialect import ALL_KINDS, READABLE_VERSIONS, BindingResult, FormResult
from judgment_exchange.dialect.binding import bound_dialect
from judgment_exchange.dialect.phases import DIALECT_BOUNDS, check_phases, digest_of, read_document
from judgment_exchange.jsonstrict import Number

ROOT = Path(__file__).resolve().parents[2]


def _documents() -> list[tuple[bytes, bytes | None]]:
    out = []
    for case in sorted((ROOT / "tests" / "cases" / "dialect").iterdir()):
        if (case / "dialect.json").is_file():
            binding = case / "binding.json"
            out.append(((case / "dialect.json").read_bytes(), binding.read_bytes() if binding.is_file() else None))
    for top in ("docs/demo-catalog", "tests/vectors"):
        for path in sorted((ROOT / top).rglob("dialect.json")):
            bindings = sorted(path.parent.rglob("binding.json"))
            out.append((path.read_bytes(), bindings[0].read_bytes() if bindings else None))
    return out


_DOCUMENTS = _documents()


def _check_form_before(data: bytes, readable_versions=READABLE_VERSIONS, readable_kinds=ALL_KINDS) -> FormResult:
    """check_form as it was: phases 3–6 (every walk made), then the digest."""
    document, refused = read_document(data, DIALECT_BOUNDS)
    if refused:
        return FormResult(refused[0], refused[1])
    refused = check_phases(document, readable_versions, readable_kinds)
    if refused:
        return FormResult(refused[0], refused[1], document)
    return FormResult(None, "valid", document, digest_of(document))


def _same_phases(document: Any) -> None:
    for versions, kinds in ((READABLE_VERSIONS, ALL_KINDS), (frozenset({2}), frozenset({"operation"}))):
        plain = check_phases(document, versions, kinds)
        if digest_of(document) is not None:
            assert check_phases(document, versions, kinds, in_canon=True) == plain


def test_every_dialect_reads_as_before() -> None:
    assert len(_DOCUMENTS) > 300
    digests = 0
    for data, binding in _DOCUMENTS:
        got, want = dialect_form.check_form(data), _check_form_before(data)
        assert (got.refusal, got.detail, got.digest) == (want.refusal, want.detail, want.digest)
        if got.document is not None:
            _same_phases(got.document)
            digests += digest_of(got.document) is not None
        if binding is not None and got.refusal is None:
            _binding_as_before(binding, got.document, got.digest)
    assert digests > 100


def _binding_as_before(binding: bytes, document: Any, digest: str) -> None:
    got = dialect_form.check_binding(binding, document, digest)
    want = _check_binding_before(binding, document, digest)
    assert (got.refusal, got.detail, got.bound_digest) == (want.refusal, want.detail, want.bound_digest)


def _check_binding_before(data: bytes, document: Any, dialect_digest: str) -> BindingResult:
    from judgment_exchange.dialect import (
        binding_count_refusal,
        binding_form_refusal,
        count_refusal,
        form_refusal,
        kind_refusal,
        version_refusal,
    )

    binding, refused = read_document(data, dialect_form.BINDING_BOUNDS)
    if refused:
        return BindingResult(refused[0], "binding: " + refused[1])
    refused = (count_refusal(document) or binding_count_refusal(binding) or version_refusal(document)
               or form_refusal(document) or binding_form_refusal(binding, document, dialect_digest)
               or kind_refusal(document, ALL_KINDS))
    if refused:
        return BindingResult(refused[0], refused[1])
    bound = bound_dialect(document, binding)
    refused = check_phases(bound, READABLE_VERSIONS, ALL_KINDS)
    if refused:
        return BindingResult(refused[0], "the bound dialect: " + refused[1])
    return BindingResult(None, "valid", bound, digest_of(bound))


def _nodes(value: Any, path: tuple = ()) -> list[tuple]:
    out = [path]
    if isinstance(value, dict):
        for k, v in value.items():
            out += _nodes(v, path + (k,))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            out += _nodes(v, path + (i,))
    return out


def _set(value: Any, path: tuple, new: Any) -> Any:
    if not path:
        return new
    parent = value
    for step in path[:-1]:
        parent = parent[step]
    parent[path[-1]] = new
    return value


_REPLACEMENTS = st.sampled_from([Number("1.5"), Number("1e2"), Number("-0"), Number("9007199254740992"), Number("3"),
                                 "x", None, True, [], {}, [Number("0.5")], {"a": Number("2.0")}])


@settings(max_examples=300, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 10**6), st.lists(st.tuples(st.integers(0, 10**6), _REPLACEMENTS), min_size=1, max_size=3))
def test_mutated_dialects_read_as_before(pick: int, changes) -> None:
    """A dialect with values replaced anywhere (a fraction where an integer stood, a number too large, -0, other
    types): the same phases with and without the skip, and check_form's result as before, on the written bytes."""
    data, _ = _DOCUMENTS[pick % len(_DOCUMENTS)]
    document, refused = read_document(data, DIALECT_BOUNDS)
    if refused:
        return
    document = copy.deepcopy(document)
    for at, new in changes:
        nodes = _nodes(document)
        document = _set(document, nodes[at % len(nodes)], copy.deepcopy(new))
    _same_phases(document)
    try:
        written = json.dumps(document, default=lambda n: json.loads(n.literal) if "." not in n.literal else float(
            n.literal)).encode()
    except (TypeError, ValueError):
        return
    got, want = dialect_form.check_form(written), _check_form_before(written)
    assert (got.refusal, got.detail, got.digest) == (want.refusal, want.detail, want.digest)


def test_a_fraction_is_still_refused_at_its_pointer() -> None:
    data = next(d for d, _ in _DOCUMENTS if dialect_form.check_form(d).refusal is None)
    document = dialect_form.check_form(data).document
    document = copy.deepcopy(document)
    path = next(p for p in _nodes(document) if p and isinstance(_get(document, p), Number))
    _set(document, path, Number("2.5"))
    assert digest_of(document) is None
    refused = check_phases(document, READABLE_VERSIONS, ALL_KINDS)
    assert refused is not None and "not an integer" in refused[1]
    try:
        canonical_digest(document)
    except Exception:  # noqa: BLE001
        pass
    else:
        raise AssertionError("a fraction has no canonical form")


def _get(value: Any, path: tuple) -> Any:
    for step in path:
        value = value[step]
    return value
