"""The dialect form checker (dialect §§2–8, 11–12: check_form, form_report) and binding documents
(§4.4: check_binding) on arbitrary and mutated input: valid, or a refusal whose code is registered."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from judgment_exchange.canon import CanonError, canonical_digest, is_digest
from judgment_exchange.dialect import check_binding, check_form, form_report

from . import corpus, mutate
from .outcome import passed, registered
from .profiles import bounded, budget


def _form_outcome(result, where: str) -> None:
    if result.refusal is None:
        assert is_digest(result.digest), f"{where}: valid without a digest"
        passed(where)
    else:
        registered(result.refusal, where)


def _report_outcome(report: dict, where: str) -> None:
    assert report["result"] in ("valid", "refusal"), where
    if report["result"] == "refusal":
        registered(report["refusal"], where)
    else:
        assert is_digest(report["digest"])


@budget("dialect-form")
@given(mutate.documents(corpus.dialects(), max_ops=4))
def test_dialect_form_is_valid_or_refused_by_registered_code(data: bytes) -> None:
    with bounded():
        result = check_form(data)
        _form_outcome(result, "dialect.json")
        report = form_report(data)
        _report_outcome(report, "exchange form")
        assert (report["result"] == "valid") == (result.refusal is None)


@st.composite
def _pair(draw):
    dialect, binding = draw(st.sampled_from(corpus.binding_pairs()))
    which = draw(st.sampled_from(("binding", "binding", "dialect", "both", "arbitrary")))
    if which in ("binding", "both"):
        binding = draw(mutate.mutated([mutate.read(binding)], max_ops=4))
    if which in ("dialect", "both"):
        dialect = draw(mutate.mutated([mutate.read(dialect)], max_ops=3))
    if which == "arbitrary":
        binding = draw(mutate.documents(corpus.json_documents()))
    return dialect, binding


@budget("binding")
@given(_pair())
def test_binding_documents_are_valid_or_refused_by_registered_code(pair) -> None:
    dialect, binding = pair
    with bounded():
        _report_outcome(form_report(dialect, binding), "exchange form --binding")
        form = check_form(dialect)
        if form.document is None:
            return
        try:
            digest = form.digest or canonical_digest(form.document)
        except CanonError:
            digest = "sha256:" + "0" * 64
        result = check_binding(binding, form.document, digest)
        if result.refusal is None:
            assert is_digest(result.bound_digest)
            passed("binding.json")
        else:
            registered(result.refusal, "binding.json")
