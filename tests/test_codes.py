"""Every code is documented with its section, and every code a case expects is a known code."""

from __future__ import annotations

import json

from judgment_exchange.codes import ALL

from .support.paths import REPO


def test_every_code_is_in_entry_format_md():
    text = (REPO / "docs" / "entry-format.md").read_text(encoding="utf-8")
    missing = [code for code in ALL if f"| `{code}` |" not in text]
    assert not missing, f"docs/entry-format.md lacks {missing}: python -m judgment_exchange.codes prints the tables"


def _codes_in(value) -> list[str]:
    """Every string under a member named code, refusal or finding, at any depth."""
    found, stack = [], [value]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            for key, member in item.items():
                if key in ("code", "refusal", "finding") and isinstance(member, str):
                    found.append(member)
                else:
                    stack.append(member)
        elif isinstance(item, list):
            stack.extend(item)
    return found


def test_every_expected_code_is_known():
    roots = [REPO / "tests" / "cases", REPO / "tests" / "history" / "cases"]
    for root in roots:
        for path in [*root.glob("*/*/case.json"), *root.glob("*/*/expected.json"), *root.glob("*/expected.json")]:
            for code in _codes_in(json.loads(path.read_text(encoding="utf-8"))):
                assert code in ALL, f"{path}: {code}"


def test_every_code_names_a_section():
    assert all(section.strip() for section in ALL.values())
