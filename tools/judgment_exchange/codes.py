"""Every refusal and finding code the project reports, in one place, each with its section."""

from __future__ import annotations

from .catalog.codes import CODES as CATALOG
from .dialect.codes import CODES as DIALECT
from .history.codes import CODES as HISTORY
from .scan.codes import CODES as SCAN
from .verifier.codes import CODES as VERIFIER

ALL: dict[str, str] = {**VERIFIER, **DIALECT, **CATALOG, **HISTORY, **SCAN}

AREAS: dict[str, dict[str, str]] = {
    "the catalog (entry.json, the entry directory, manifest.json, replay, releases)": CATALOG,
    "the dialect form checker and the verifier's refusals (dialect §11)": DIALECT,
    "the preparation verifier's findings (dialect §11)": {k: v for k, v in VERIFIER.items() if k not in DIALECT},
    "release history (RFC 0019 §§3, 7)": HISTORY,
    "the scans (RFC 0019 §§4, 6)": SCAN,
}


def markdown() -> str:
    """The code tables of docs/entry-format.md (`python -m judgment_exchange.codes` prints them)."""
    out = []
    for area, codes in AREAS.items():
        out += [f"### {area[0].upper()}{area[1:]}", "", "| code | defined by |", "|---|---|"]
        out += [f"| `{code}` | {section} |" for code, section in codes.items()]
        out.append("")
    return "\n".join(out)


if __name__ == "__main__":
    print(markdown())
