"""Calculated values (dialect §7): a calculator's answer held to its source."""

from __future__ import annotations

from typing import Any

from ..canon import CanonError, canon
from ..jsonstrict import integer
from .receipts import SKEW
from .values import instant

STATUSES = ("computed", "input-missing", "cannot-compute")


def _same(a: Any, b: Any) -> bool:
    try:
        return canon(a) == canon(b)
    except CanonError:
        return False


def calculation_answer(value: Any, calculator: dict[str, Any], declared: dict[str, Any], scope: dict[str, Any],
                       now: int) -> dict[str, Any] | str:
    """The answer's calculation object when §7's checks hold, else why it is calculation-invalid."""
    answer = value.get("calculation") if isinstance(value, dict) else None
    if not isinstance(answer, dict) or set(answer) != {"calculator", "status", "inputs", "asOf"}:
        return "the value read has no calculation of exactly calculator, status, inputs and asOf"
    if not isinstance(answer["calculator"], dict) or set(answer["calculator"]) != {"name", "version"}:
        return "calculation.calculator is exactly name and version"
    if not _same(answer["calculator"], calculator):
        return "the calculator is not the profile's"
    if answer["status"] not in STATUSES:
        return "calculation.status is computed, input-missing or cannot-compute"
    if not isinstance(answer["inputs"], dict) or not isinstance(answer["asOf"], dict):
        return "calculation.inputs and calculation.asOf are objects"
    bound, tables = declared["inputs"], declared["tables"]
    for name, echoed in answer["inputs"].items():
        if name not in bound:
            return f"the input {name!r} is not bound in calculation.inputs"
        if not _same(echoed, scope.get(bound[name])):
            return f"the input {name!r} is not the value of the parameter it is bound to"
    for table, as_of in answer["asOf"].items():
        if table not in tables:
            return f"the table {table!r} is not named in calculation.tables"
        if instant(as_of) is None:
            return f"the table {table!r} is reported with no instant"
    if answer["status"] == "computed":
        if set(answer["inputs"]) != set(bound):
            return "computed, but not every bound input is echoed"
        for table, limit in tables.items():
            if table not in answer["asOf"]:
                return f"computed, but the table {table!r} is not reported"
            at, age = instant(answer["asOf"][table]), integer(limit)
            # each asOf was held to an instant above; the form check holds each table's limit to an integer
            # (dialect/sources.py)
            assert at is not None and age is not None
            if at < now - age or at > now + SKEW:
                return f"the table {table!r} is as of {answer['asOf'][table]}, outside its limit"
    return answer
