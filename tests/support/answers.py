"""A verifier whose reading names another digest: the in-process verifier's answer with its reading's digest
replaced, for the callers that replay in process (`exchange fix`, `exchange fixture add`, `exchange new
--from-run`). The bundled verifier cannot be made to answer so from files (its reading is the digest of the bytes
it agrees with), so each caller's test of the digest comparison (codes/verifier.py `read_answer`) puts it in
place of `verifier.replay_fixture`; the gate's own test gives it through `EXCHANGE_VERIFIER`."""

from __future__ import annotations

OTHER = "sha256:" + "0" * 64


def answer_another_digest(monkeypatch) -> None:
    """Every in-process replay answers a reading of OTHER from now on (the test's monkeypatch undoes it)."""
    from judgment_exchange import verifier

    real = verifier.replay_fixture

    def replay_fixture(*args, **kwargs) -> dict:
        answer = real(*args, **kwargs)
        return {**answer, "digest": OTHER} if answer.get("result") == "reading" else answer

    monkeypatch.setattr(verifier, "replay_fixture", replay_fixture)
