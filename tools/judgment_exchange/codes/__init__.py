"""Every refusal and finding code the project reports, in one registry (issue #9 item 5).

Each area's table of `Code` records is a module of this package (codes/catalog.py, dialect.py, verifier.py,
history.py, repository.py, authoring.py, scan.py, signing.py; the scan's shapes in codes/shapes.py), low in the layers
so
that `refusal` (below every area) can give a refusal its fix: an area imports its codes from here, never the
reverse (issue #29; the import contract in pyproject.toml). `REGISTRY` joins them. docs/codes.md is generated from it:
`python -m judgment_exchange.codes --write` rewrites the page, `--check` exits 1 when it is stale
(tests/test_codes.py fails then too). Each code has the anchor `docs/codes.md#CODE`, the `doc` link a
JSON report gives beside each refusal.
"""

from __future__ import annotations

import sys
from pathlib import Path

from ..coderecord import Code
from .authoring import RECORDS as AUTHORING
from .catalog import RECORDS as CATALOG
from .dialect import RECORDS as DIALECT
from .history import RECORDS as HISTORY
from .repository import RECORDS as REPOSITORY
from .scan import RECORDS as SCAN
from .signing import RECORDS as SIGNING
from .verifier import RECORDS as VERIFIER

REGISTRY: dict[str, Code] = {**VERIFIER, **DIALECT, **CATALOG, **AUTHORING, **REPOSITORY, **HISTORY, **SCAN, **SIGNING}
"""Every code's record; a code both the dialect checker and the verifier give keeps the checker's."""

ALL: dict[str, str] = {code: record.section for code, record in REGISTRY.items()}
"""Every code with the section that defines it."""

AREAS: dict[str, dict[str, Code]] = {
    "the catalog (entry.json, the entry directory, manifest.json, replay, releases)": CATALOG,
    "the dialect form checker and the verifier's refusals (dialect §11)": DIALECT,
    "the preparation verifier's findings (dialect §11)": {k: v for k, v in VERIFIER.items() if k not in DIALECT},
    "the contributor's tools (exchange new --from-run, exchange fixture add, exchange fix)": AUTHORING,
    "the repository's rules (a pull request, its sign-off, skips.json, the verifier pin; RFC 0019 §§4, 6)": REPOSITORY,
    "release history (RFC 0019 §§3, 7)": HISTORY,
    "the scans (RFC 0019 §§4, 6)": SCAN,
    "signed releases (issue #36: release-signers, a release tag's SSH signature, the chain of signer sets)": SIGNING,
}

DOC = "docs/codes.md"
"""The generated page, relative to the repository root."""

PAGE = Path(__file__).resolve().parents[3] / DOC


def doc_link(code: str) -> str:
    """The link to a code's row: `docs/codes.md#CODE`, relative to the repository root (its anchor is the code)."""
    return f"{DOC}#{code}"


def fix_text(code: str) -> str | None:
    """How to fix a code, naming its command when one fixes it; None for a code the registry lacks."""
    record = REGISTRY.get(code)
    if record is None:
        return None
    return f"{record.fix} Run `{record.command}`." if record.command else record.fix


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def markdown() -> str:
    """docs/codes.md, whole: one table per area, one row per code with its anchor."""
    out = [
        "# Refusal and finding codes",
        "",
        "<!-- Generated from the code registry by `python -m judgment_exchange.codes --write`; do not edit. -->",
        "",
        "Every refusal `exchange check` reports names one of these codes. Each row gives what the code means,",
        "how to fix it (and the command that does, where one does) and the section that defines its rule.",
        "A JSON report links each refusal to its row as `docs/codes.md#CODE` (the anchor is the code itself,",
        "relative to the repository root); the text report prints the fix under each refusal.",
        "`tests/test_codes.py` fails when this page is not what the registry generates.",
        "",
        "Each code's kind is on its record (`coderecord.Kind`): a **refusal** fails the gate; a **warning** is",
        "reported beside the refusals and never fails it; a **note** is a report's value that is neither. In the",
        "package every code is a constant of `judgment_exchange.codes` (`from ..codes.catalog import",
        "ENTRY_UNKNOWN`): a misspelt code is an import error, and no code is spelled as a string outside",
        "`codes/` (tests/test_code_literals.py).",
        "",
    ]
    for area, codes in AREAS.items():
        out += [
            f"## {area[0].upper()}{area[1:]}",
            "",
            "| code | kind | meaning | how to fix | defined by |",
            "|---|---|---|---|---|",
        ]
        for code, record in codes.items():
            cells = (record.kind, _cell(record.meaning), _cell(fix_text(code) or ""), _cell(record.section))
            out.append(f'| <a id="{code}"></a>`{code}` | ' + " | ".join(cells) + " |")
        out.append("")
    return "\n".join(out)


def main(argv: list[str]) -> int:
    """`--write` rewrites docs/codes.md; `--check` exits 1 when it is stale; no option prints the page."""
    page = markdown()
    if argv == ["--write"]:
        PAGE.write_text(page, encoding="utf-8")
        return 0
    if argv == ["--check"]:
        current = PAGE.read_text(encoding="utf-8") if PAGE.is_file() else None
        if current != page:
            print(f"{DOC} is stale: run python -m judgment_exchange.codes --write", file=sys.stderr)
            return 1
        return 0
    if argv:
        print("usage: python -m judgment_exchange.codes [--write | --check]", file=sys.stderr)
        return 3
    sys.stdout.write(page)
    return 0


