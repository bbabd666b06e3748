"""Typed codes (issue #37 item 3): every code the package reports is a constant of `judgment_exchange.codes`, so a
misspelt code is an import error; no code is spelled as a string outside codes/; each code's kind is on its record.

The expectations here are written by hand from the issue and RFC 0019 §§3, 7, never read from the registry's own
kinds: the one warning is `upgrade-note-missing` (§3 makes upgrade notes optional) and the one note is
`artifact-history-unchecked` (§7: "this is not a refusal").
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

from judgment_exchange.coderecord import Kind
from judgment_exchange.codes import REGISTRY, markdown

from .support.paths import REPO

PACKAGE = REPO / "tools" / "judgment_exchange"
CODE_GRAMMAR = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)+")
REFUSING = re.compile(r"refus|Refused", re.IGNORECASE)
"""A callee whose name says it refuses: `Refusal`, `RecordingRefusal`, `Refused`, `check.refuse`, `_refusal` …"""


def _callee(call: ast.Call) -> str:
    func = call.func
    return func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""


def spelled_codes(source: str) -> list[tuple[int, str]]:
    """Each (line, code) a module spells as a string: a registry code anywhere, or a code-shaped string handed to a
    refusing call as its first argument (a typo of a code is caught here, not only a known code)."""
    tree = ast.parse(source)
    found = [(node.lineno, node.value) for node in ast.walk(tree)
             if isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value in REGISTRY]
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and node.args and REFUSING.search(_callee(node)):
            first = node.args[0]
            if isinstance(first, ast.Constant) and isinstance(first.value, str) \
                    and CODE_GRAMMAR.fullmatch(first.value) and first.value not in REGISTRY:
                found.append((first.lineno, first.value))
    return found


def _outside_codes() -> list[Path]:
    return [path for path in sorted(PACKAGE.rglob("*.py")) if path.relative_to(PACKAGE).parts[0] != "codes"]


def test_no_code_is_spelled_outside_codes():
    offenders = [f"{path.relative_to(REPO)}:{line}: {code!r}" for path in _outside_codes()
                 for line, code in spelled_codes(path.read_text(encoding="utf-8"))]
    assert offenders == [], "use the code's constant from judgment_exchange.codes:\n" + "\n".join(offenders)


def test_the_scan_reads_every_module_outside_codes():
    names = {str(path.relative_to(PACKAGE)) for path in _outside_codes()}
    assert {"cli/__init__.py", "gate/pipeline.py", "scan/engine.py", "catalog/directory.py"} <= names
    assert not any(name.startswith("codes/") for name in names)


def test_a_planted_code_literal_is_found():
    assert spelled_codes('x = Refusal("entry-unknown", None, "d")\n') == [(1, "entry-unknown")]
    assert spelled_codes('CODES = {"catalog-stray-file": 1}\n') == [(1, "catalog-stray-file")]


def test_a_planted_typo_at_a_refusal_site_is_found():
    assert spelled_codes('check.refuse("entry-unknwn", path, "d")\n') == [(1, "entry-unknwn")]
    assert spelled_codes('return Refused("fixture-mising", docs)\n') == [(1, "fixture-mising")]


def test_near_misses_are_not_found():
    assert spelled_codes("x = Refusal(ENTRY_UNKNOWN, None, 'entry-unknown-ish')\n") == []
    assert spelled_codes('name = "entry"\nlog("not-a-refusal-site")\n') == []
    assert spelled_codes('check.refuse(code, "entries/acme", "a detail")\n') == []


def test_a_misspelt_constant_is_an_import_error():
    source = "from judgment_exchange.codes.catalog import ENTRY_UNKNWN\n"
    try:
        exec(compile(source, "<planted>", "exec"), {})
    except ImportError as exc:
        assert "ENTRY_UNKNWN" in str(exc)
    else:
        raise AssertionError("a misspelt code constant imported")


def test_every_code_has_one_constant_in_its_area():
    """Each code's constant is named after it (`entry-unknown` is ENTRY_UNKNOWN) in codes/, so an import names it."""
    import importlib

    areas = [importlib.import_module(f"judgment_exchange.codes.{area}") for area in (
        "shapes", "dialect", "verifier", "catalog", "authoring", "repository", "history", "scan", "signing")]
    for code in REGISTRY:
        name = code.upper().replace("-", "_")
        assert any(getattr(area, name, None) == code for area in areas), code


def test_kinds_are_on_the_record():
    warnings = {code for code, record in REGISTRY.items() if record.kind == Kind.WARNING}
    notes = {code for code, record in REGISTRY.items() if record.kind == Kind.NOTE}
    assert warnings == {"upgrade-note-missing"}
    assert notes == {"artifact-history-unchecked"}
    assert all(record.kind == Kind.REFUSAL for code, record in REGISTRY.items() if code not in warnings | notes)


def test_codes_md_gives_each_kind():
    page = markdown()
    assert '<a id="upgrade-note-missing"></a>`upgrade-note-missing` | warning |' in page
    assert '<a id="artifact-history-unchecked"></a>`artifact-history-unchecked` | note |' in page
    assert '<a id="entry-unknown"></a>`entry-unknown` | refusal |' in page
