"""The rule evaluator against the Runner's derivation corpus (shared/vectors/derivation-corpus/).

Each accepted vector's claim must be the expected one, compared in canon; each rejected vector
must be refused, either as a rule not of §6.3's form or as a read that fails (a value outside the
canon domain written into facts).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from judgment_exchange.canon import CanonError, canon
from judgment_exchange.dialect.rule import check_rule
from judgment_exchange.dialect.shapes import Malformed
from judgment_exchange.jsonstrict import Bounds, loads
from judgment_exchange.verifier.rule import ReadFailed, evaluate
from judgment_exchange.verifier.values import instant

CORPUS = Path(__file__).resolve().parents[2] / "tests" / "vectors" / "derivation-corpus"
FILES = sorted(p.name for p in CORPUS.glob("*.json") if p.name != "screening.rule.json")


def _load(name: str):
    return loads((CORPUS / name).read_bytes(), Bounds(max_bytes=10**6))


def _form_refusal(rule, params):
    """The dialect form checker's reading of the rule (§6.3). The corpus's rules predate the rule's
    parameters member; such a rule is given one declaring each vector parameter by its value's type."""
    if isinstance(rule, dict) and "parameters" not in rule:
        types = {name: "integer" if not isinstance(v, str) else "timestamp" if instant(v) is not None else "string"
                 for name, v in params.items()}
        rule = {**rule, "parameters": types}
    scope = (dict(rule.get("parameters", {}))
             if isinstance(rule, dict) and isinstance(rule.get("parameters"), dict) else {})
    try:
        canon(rule)  # a dialect outside the canon domain is refused whole (§2)
        check_rule(rule, "/rule", scope)
    except CanonError as exc:
        return str(exc)
    except Malformed as exc:
        return exc.detail
    return None


def test_corpus_size():
    assert len(FILES) == 21


@pytest.mark.parametrize("name", FILES)
def test_vector(name):
    vector = _load(name)
    rule = vector["rule"]
    if isinstance(rule, str):
        rule = _load(rule.rsplit("/", 1)[-1])
    refused = _form_refusal(rule, vector.get("params", {}))
    if vector.get("reject") is True:
        assert refused is not None or isinstance(evaluate(rule, vector["artifact"], vector.get("params", {})),
                                                 ReadFailed)
        return
    assert refused is None, refused
    claim = evaluate(rule, vector["artifact"], vector.get("params", {}))
    assert not isinstance(claim, ReadFailed), claim
    assert canon(claim) == canon(vector["expected"])
