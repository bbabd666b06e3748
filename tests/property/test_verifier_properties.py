"""The preparation verifier (dialect §11: verify on Documents) on mutated verifier cases and example
fixtures: a refusal or a finding whose code is registered, or a reading — never an exception, and
never the verifier's last guard (an exception caught there is a crash, however it is reported)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from judgment_exchange.canon import is_digest
from judgment_exchange.verifier import Documents, Found, Reading, Refused, report_bytes, verify

from . import corpus, mutate
from .outcome import passed, registered
from .profiles import bounded, budget

LAST_GUARD = "the inputs cannot be read ("


@st.composite
def _documents(draw) -> Documents:
    files = dict(draw(st.sampled_from(corpus.verifier_inputs())))
    for _ in range(draw(st.integers(1, 2))):
        name = draw(st.sampled_from(corpus.VERIFIER_FILES))
        how = draw(st.sampled_from(("mutate", "mutate", "mutate", "arbitrary", "remove", "swap")))
        if how == "remove" and name not in ("dialect", "case", "profiles", "preparation"):
            files.pop(name, None)
        elif how == "swap":
            other = draw(st.sampled_from(corpus.verifier_inputs()))
            if name in other:
                files[name] = other[name]
        elif how == "arbitrary" or name not in files:
            files[name] = draw(mutate.documents(corpus.json_documents(), max_ops=2))
        else:
            try:
                root = mutate.read(files[name])
            except (ValueError, UnicodeDecodeError, RecursionError):
                root = None
            if root is None or mutate.depth(root) > corpus.MAX_DEPTH:  # not JSON, or an earlier mutation's nesting
                files[name] = mutate.mutate_bytes(draw, files[name])
                continue
            files[name] = draw(mutate.mutated([root], max_ops=3))
    return Documents(dialect=files["dialect"], case=files["case"], profiles=files["profiles"],
                     preparation=files["preparation"], acquisitions=files.get("sources"),
                     binding=files.get("binding"), record=files.get("record"), require_binding=draw(st.booleans()))


@budget("verifier")
@given(_documents())
def test_verifier_answers_with_a_registered_code_or_a_reading(documents: Documents) -> None:
    with bounded():
        answer = verify(documents)
        assert isinstance(answer, (Refused, Found, Reading))
        if isinstance(answer, Reading):
            assert is_digest(answer.digest)
            passed("verify")
        else:
            registered(answer.code, "verify")
            assert not answer.detail.startswith(LAST_GUARD), f"an exception reached the last guard: {answer.detail}"
        report_bytes(answer)
