"""Every code is documented with its section, and every code a case expects is a known code."""

from __future__ import annotations

import json

from judgment_exchange.codes import ALL

from .support.paths import REPO


def test_every_code_is_in_entry_format_md():
    text = (REPO / "docs" / "entry-format.md").read_text(encoding="utf-8")
    missing = [code for code in ALL if f"| `{code}` |" not in text]
    assert not missing, f"docs/entry-format.md lacks {missing}: python -m judgment_exchange.codes prints the tables"


def test_every_expected_code_is_known():
    for path in (REPO / "tests" / "cases").rglob("*.json"):
        if path.name not in ("case.json", "expected.json"):
            continue
        data = json.loads(path.read_text(encoding="utf-8"))
        expected = data.get("expect", []) if isinstance(data, dict) else []
        for item in expected if isinstance(expected, list) else []:
            if isinstance(item, dict) and "code" in item:
                assert item["code"] in ALL, f"{path}: {item['code']}"


def test_every_code_names_a_section():
    assert all(section.strip() for section in ALL.values())
