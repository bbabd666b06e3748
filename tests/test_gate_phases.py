"""docs/architecture.md lists the gate's phases in the order gate/pipeline.PHASES runs them (issue #37 item 1)."""

import re
from pathlib import Path

from judgment_exchange.gate.pipeline import PHASES

ARCHITECTURE = Path(__file__).resolve().parents[1] / "docs" / "architecture.md"


def documented() -> list[str]:
    text = ARCHITECTURE.read_text(encoding="utf-8")
    section = text.split("### The gate's phases", 1)[1].split("\n#", 1)[0]
    return re.findall(r"(?:^|, )\d+\. `([^`]+)`", section, flags=re.MULTILINE)


def test_the_documented_phases_are_the_codes_in_order():
    assert documented() == [phase.name for phase in PHASES]


def test_check_catalog_is_at_most_40_lines_its_docstring_aside():
    import inspect

    from judgment_exchange.gate.pipeline import check_catalog

    lines = inspect.getsource(check_catalog).splitlines()
    doc = (check_catalog.__doc__ or "").count("\n") + 1
    assert len([line for line in lines if line.strip()]) - doc <= 40
