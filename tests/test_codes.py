"""Every code is documented with its section, and every code a case expects is a known code."""

from __future__ import annotations

import json
import re

from judgment_exchange.codes import ALL, DOC, REGISTRY, doc_link, fix_text, markdown

from .support.paths import REPO


def test_codes_md_is_generated_from_the_registry():
    """conda-smithy's way: the committed table is what the registry generates, so it cannot go stale."""
    text = (REPO / "docs" / "codes.md").read_text(encoding="utf-8")
    assert text == markdown(), "docs/codes.md is stale: run python -m judgment_exchange.codes --write"


def test_every_code_has_a_row_and_an_anchor_in_codes_md():
    text = (REPO / "docs" / "codes.md").read_text(encoding="utf-8")
    anchors = re.findall(r'<a id="([^"]+)"></a>', text)
    assert sorted(anchors) == sorted(ALL)
    assert all(f'<a id="{code}"></a>`{code}` |' in text for code in ALL)


def test_every_doc_link_resolves_to_an_anchor_in_its_file():
    for code in ALL:
        path, _, anchor = doc_link(code).partition("#")
        assert path == DOC and anchor == code
        assert f'<a id="{anchor}"></a>' in (REPO / path).read_text(encoding="utf-8")


def test_entry_format_md_links_the_code_page():
    assert "](codes.md)" in (REPO / "docs" / "entry-format.md").read_text(encoding="utf-8")


def test_every_code_has_a_meaning_and_a_fix():
    for code, record in REGISTRY.items():
        assert record.meaning.strip() and record.fix.strip(), code
        assert record.command is None or record.command.startswith("exchange "), code


def test_digest_mismatches_name_exchange_fix():
    for code in ("dialect-digest-mismatch", "output-digest-mismatch", "preparation-digest-mismatch",
                 "manifest-digest-mismatch"):
        assert "`exchange fix`" in fix_text(code), code


def test_an_unknown_code_has_no_fix():
    assert fix_text("no-such-code") is None


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
