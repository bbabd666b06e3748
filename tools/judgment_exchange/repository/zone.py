"""What a pull request may touch, as an allowlist (issue #24 item 1; docs/trust.md, "Who may touch what").

The contributor's zone is one entry's files under `entries/<publisher>/<name>/`, that entry's manifest row
and its `skips.json` items; the documents are exactly DOCUMENTS and the `*.md` files directly in `docs/`
but NOT_DOCUMENTS. Every other path — any root file or folder, `docs/demo-catalog/**`, `docs/images/**`,
anything new — is a gate file: the maintainers review it, and it never travels with an entry. A path is
trusted code unless this list says otherwise, never the reverse: a root `pip/__main__.py`, `pytest.ini`
or `sitecustomize.py` nobody thought to list is the gate's.

This module is the one list: `repository/pullrequest.kind_of` classifies a changed path by it, and
`.github/CODEOWNERS` is held equal to `codeowners_rules()` by tests/repository/test_codeowners.py.
"""

from __future__ import annotations

ENTRIES = "entries"
MANIFEST = "manifest.json"
SKIPS = "skips.json"
LEDGER = "releases.json"
PIN = "verifier-pin.json"

DOCUMENTS = ("README.md", "CONTRIBUTING.md", "LICENSE", ".gitignore", "entries/README.md")
"""The repository's documents at fixed places: a pull request may change them alone, never with an entry."""

DOCUMENT_FOLDER = "docs"
"""Every `*.md` file directly in this folder is a document too, except NOT_DOCUMENTS."""

NOT_DOCUMENTS = ("docs/codes.md",)
"""`docs/codes.md` is generated from the code registry and held equal to it by the tests: a gate file."""

TEAM = "@Judgment-Pack/exchange-maintainers"
"""The maintainers' team CODEOWNERS names (docs/trust.md, "CODEOWNERS")."""

ENTRY, ROWS, ACKS, LEDGER_FILE, PIN_FILE, GATE, ENTRIES_AREA, DOCUMENT = (
    "entry", "manifest", "skips", "ledger", "pin", "gate", "entries", "other")
"""The kinds of a changed path (pullrequest.kind_of). DOCUMENT keeps its old value, "other"."""


def is_document(path: str) -> bool:
    """One of the repository's documents: DOCUMENTS, or a `*.md` file directly in docs/ but NOT_DOCUMENTS."""
    if path in DOCUMENTS:
        return True
    folder, _, name = path.rpartition("/")
    return folder == DOCUMENT_FOLDER and name.endswith(".md") and path not in NOT_DOCUMENTS


def kind_of(path: str) -> str:
    """The kind of a repository path: an entry's file (`entries/P/N/...`), manifest.json, skips.json, the
    ledger, the verifier pin, a document, something else under entries/ (the gate's own `catalog-stray-file`
    names it), or — every other path — a gate file."""
    parts = path.split("/")
    if under_document(parts):
        return GATE
    if parts[0] == ENTRIES and len(parts) >= 4:
        return ENTRY
    named = {MANIFEST: ROWS, SKIPS: ACKS, LEDGER: LEDGER_FILE, PIN: PIN_FILE}.get(path)
    if named is not None:
        return named
    if is_document(path):
        return DOCUMENT
    if parts[0] == ENTRIES and len(parts) > 1:
        return ENTRIES_AREA
    return GATE


def under_document(parts: list[str]) -> bool:
    """Whether a path lies below a FOLDER named like a document or manifest.json (`README.md/x`, `docs/a.md/b`,
    `manifest.json/x`, `entries/README.md/p/n/f`): the gate's, never the document's (issue #38 item 2).
    CODEOWNERS' owner-less lines for those files match a folder of that name and all below it too (GitHub reads
    them as gitignore patterns), so codeowners_rules owns each such folder again."""
    prefixes = ("/".join(parts[:i]) for i in range(1, len(parts)))
    return any(prefix == MANIFEST or is_document(prefix) for prefix in prefixes)


def is_gate_file(path: str) -> bool:
    """Whether a path is the gate's (the maintainers review it; it travels alone): every path outside the
    contributor's zone, the catalog's own files and the documents — the verifier pin included."""
    return kind_of(path) in (GATE, PIN_FILE)


def codeowners_rules(team: str = TEAM) -> list[tuple[str, str | None]]:
    """`.github/CODEOWNERS` as (pattern, owner or None), in order: everything owned by `team` (this
    repository's maintainers, TEAM, unless a new catalog names its own: `exchange init --owners`, which
    grammar-checks it first), then the contributor's zone and the documents un-owned by owner-less lines
    (GitHub's last match wins), then the NOT_DOCUMENTS an earlier un-owning line matched, owned again, and
    every folder named like a document (an un-owning line matches a folder of its name too; `under_document`).
    skips.json, releases.json and verifier-pin.json stay owned: an acknowledgement, a release row or a pin
    move needs a maintainer."""
    rules: list[tuple[str, str | None]] = [("*", team), (f"/{ENTRIES}/*/*/", None), (f"/{MANIFEST}", None)]
    rules += [(f"/{path}", None) for path in DOCUMENTS]
    rules.append((f"/{DOCUMENT_FOLDER}/*.md", None))
    rules += [(f"/{path}", team) for path in NOT_DOCUMENTS]
    rules += [(f"/{path}/", team) for path in (MANIFEST, *DOCUMENTS)]  # a folder under such a name: the gate's
    rules.append((f"/{DOCUMENT_FOLDER}/*.md/", team))
    return rules
