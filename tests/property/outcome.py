"""What every property test asserts of an outcome: a pass, or a refusal whose code is registered."""

from __future__ import annotations

from hypothesis import event

from judgment_exchange.codes import ALL


def registered(code: object, where: str) -> None:
    assert isinstance(code, str) and code in ALL, f"{where}: code {code!r} is not in judgment_exchange.codes.ALL"
    event(f"{where}: {code}")  # --hypothesis-show-statistics shows how often each outcome was reached


def passed(where: str) -> None:
    event(f"{where}: pass")


def refusals_registered(refusals, where: str) -> None:
    if not refusals:
        passed(where)
    for refusal in refusals:
        registered(refusal.code, where)
        assert isinstance(refusal.detail, str), f"{where}: a refusal without a detail"
