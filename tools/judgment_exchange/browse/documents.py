"""An entry's documents as the site serves them (issue #27 item 2; docs/browse.md, "Every document readable"):
each file of the entry's closed sets (RFC 0019 §3: entry.json, README.md, dialect.json, output.json, and each
listed fixture's files) read from the checked release's commit, with its size and sha256, copied into the
site under its own name; and what a dialect reads, as a table a person can read.

Only names of the closed sets are read, so only `.json` and `.md` files are ever copied: a browser shows
them as text (no file of an entry can be served as a page or a script). The bytes are the commit's own, so
a reader can hold a copy to its digest. Nothing here runs or renders what a file holds; the dialect's
table shows its names (sources, targets, requirements) as free text is shown (the scan's named shapes
clear each, control characters escaped), never as markup.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Any

from ..catalog import documents as docs
from ..catalog.grammar import FIXTURE_NAME
from ..consumer import shown
from ..jsonstrict import Bounds, JsonRefusal, loads
from ..textsafe import escaped
from ..tree import FILE, TooLarge, Tree, TreeError

ENTRY_FILES = (("entry.json", docs.ENTRY_BOUND), ("README.md", docs.README_BOUND),
               ("dialect.json", docs.DIALECT_BOUND), ("output.json", docs.OUTPUT_BOUND))
FIXTURE_FILES = (("case.json", docs.FIXTURE_DIRECTORY_BOUND), ("profiles.json", docs.FIXTURE_DIRECTORY_BOUND),
                 ("preparation.json", docs.PREPARATION_BOUND), ("sources.json", docs.FIXTURE_DIRECTORY_BOUND),
                 ("binding.json", docs.BINDING_BOUND))
"""The closed file sets (RFC 0019 §3), in the order a page lists them."""
NAME_CHARS = 256
"""A dialect's name (a source's, a target's, a requirement's) longer than this is withheld on a page."""
KINDS = ("operation", "selected-file", "http", "sql", "web", "research")
CLASSES = ("asserted", "record", "generated")
TYPES = ("string", "integer", "timestamp")


class DocumentUnreadable(Exception):
    """A file of an entry of a checked release could not be read (exit 4)."""


@dataclass(frozen=True)
class EntryFile:
    """One file of an entry: its path inside the entry's directory and its bytes as the commit holds them."""

    path: str
    data: bytes

    @property
    def digest(self) -> str:
        return "sha256:" + hashlib.sha256(self.data).hexdigest()

    def as_json(self, entry_id: str) -> dict[str, Any]:
        return {"path": self.path, "bytes": len(self.data), "digest": self.digest,
                "copy": copy_path(entry_id, self.path)}


def copy_path(entry_id: str, path: str) -> str:
    """Where the site serves an entry's file: beside its page, under the file's own name (ids are §3's
    grammar, [a-z0-9.-]; fixture names [a-z0-9-]; file names of the closed sets)."""
    return f"entries/{entry_id}/{path}"


def _read(tree: Tree, path: str, limit: int) -> bytes | None:
    try:
        if tree.stat(path).kind != FILE:
            return None
        return tree.read(path, limit)
    except (TreeError, TooLarge) as exc:
        raise DocumentUnreadable(f"{path}: cannot be read ({exc})") from exc


def entry_files(tree: Tree, entry_path: str, fixtures: list[str]) -> list[EntryFile]:
    """The entry's files of its closed sets, in the page's order: its own, then each fixture's (`fixtures`:
    the names entry.json lists; a name outside §3's grammar is passed over)."""
    out = []
    for name, limit in ENTRY_FILES:
        data = _read(tree, f"{entry_path}/{name}", limit)
        if data is not None:
            out.append(EntryFile(name, data))
    for fixture in fixtures:
        if FIXTURE_NAME.fullmatch(fixture) is None:
            continue
        for name, limit in FIXTURE_FILES:
            data = _read(tree, f"{entry_path}/fixtures/{fixture}/{name}", limit)
            if data is not None:
                out.append(EntryFile(f"fixtures/{fixture}/{name}", data))
    return out


# --- what a dialect reads, for people -------------------------------------------------------------------


class _Names:
    """A dialect's names shown as free text: at most NAME_CHARS characters, cleared by the scan's named
    shapes (one run over every name the page shows), control and bidirectional characters escaped."""

    def __init__(self, names: list[Any]) -> None:
        from ..quoting import flagged_values

        strings = [n for n in names if isinstance(n, str) and 0 < len(n) <= NAME_CHARS]
        found = flagged_values(strings)
        self.flagged = {text for text in strings if any(value in text for value in found)}

    def __call__(self, value: Any) -> Any:
        if not isinstance(value, str) or not value:
            return shown.withheld("not a string of one or more characters")
        if len(value) > NAME_CHARS:
            return shown.withheld(f"a string of {len(value)} characters, over {NAME_CHARS}")
        if value in self.flagged:
            return shown.withheld(f"a string of {len(value)} characters holding a shape the scan refuses")
        return escaped(value)


def _list(value: Any) -> list[Any]:
    """`value` when it is an array, else [] (the page shows what it can; the gate already held the form)."""
    return value if isinstance(value, list) else []


def _object(value: Any) -> dict[str, Any]:
    """`value` when it is an object, else {} (as `_list`)."""
    return value if isinstance(value, dict) else {}


def _ordered(values: list[Any]) -> list[Any]:
    seen: list[Any] = []
    for value in values:
        if value not in seen:
            seen.append(value)
    return seen


def _rule_targets(rule: Any) -> tuple[list[Any], list[Any], int]:
    """A rule's fact pointers and evidence ids, each once in order of first use, and its clause count."""
    clauses = rule.get("clauses") if isinstance(rule, dict) else None
    facts: list[Any] = []
    evidence: list[Any] = []
    for clause in _list(clauses):
        claim = clause.get("claim") if isinstance(clause, dict) else None
        if not isinstance(claim, dict):
            continue
        facts += [f.get("pointer") for f in _list(claim.get("facts")) if isinstance(f, dict)]
        if isinstance(claim.get("evidence"), dict):
            evidence += list(claim["evidence"])
    return _ordered(facts), _ordered(evidence), len(clauses) if isinstance(clauses, list) else 0


def _read_of(read: Any) -> tuple[str, list[Any], list[Any]]:
    """How a source is read (our words), and the fact targets and requirements it writes (§§6, 8)."""
    if not isinstance(read, dict):
        return "—", [], []
    unwrap = " after unwrapping" if "unwrap" in read else ""
    if isinstance(read.get("copy"), dict):
        copy = read["copy"]
        facts = [f.get("target") for f in _list(copy.get("facts")) if isinstance(f, dict)]
        evidence = [e.get("requirement") for e in _list(copy.get("evidence")) if isinstance(e, dict)]
        return f"copy{unwrap}", facts, evidence
    facts, evidence, clauses = _rule_targets(read.get("rule"))
    plural = "" if clauses == 1 else "s"
    if isinstance(read.get("sources"), list):
        listed = len(read["sources"])
        return (f"reconciliation of {listed} earlier source{'' if listed == 1 else 's'}, a rule of {clauses} "
                f"clause{plural}"), facts, evidence
    return f"rule of {clauses} clause{plural}{unwrap}", facts, evidence


def dialect_view(data: bytes) -> dict[str, Any] | None:
    """What a dialect document reads, for a page (None when the bytes are not a JSON object): the case's
    parameters, each source (name, kind, how it is read, the fact targets and requirements it writes), the
    classes `admits` admits for each target, and `unmapped` / `unmappedEvidence`."""
    try:
        document = loads(data, Bounds(max_bytes=docs.DIALECT_BOUND, max_depth=docs.NESTING))
    except (JsonRefusal, RecursionError, ValueError):
        return None
    if not isinstance(document, dict):
        return None
    case = _object(document.get("case"))
    parameters = _object(case.get("parameters"))
    sources = [(source, *_read_of(source.get("read"))) for source in _list(document.get("sources"))
               if isinstance(source, dict)]
    table = _object(document.get("admits"))
    admits = [
        (target, classes, what)
        for member, what in (("facts", "fact target"), ("evidence", "evidence requirement"))
        if isinstance(table.get(member), dict)
        for target, classes in table[member].items()
    ]
    unmapped, unmapped_evidence = _list(document.get("unmapped")), _list(document.get("unmappedEvidence"))
    name = _Names([*parameters, *(s.get("name") for s, *_ in sources), *(f for *_, facts, _e in sources for f in facts),
                   *(e for *_, evidence in sources for e in evidence), *(t for t, _, _ in admits), *unmapped,
                   *unmapped_evidence])
    return {"version": _version(document),
            "parameters": [{"name": name(k), "type": v.get("type") if isinstance(v, dict) and v.get("type") in TYPES
                            else shown.withheld("not a parameter type")} for k, v in parameters.items()],
            "sources": [{"name": name(source.get("name")),
                         "kind": source.get("kind") if source.get("kind") in KINDS else shown.withheld("not a source "
                                                                                                       "kind"),
                         "read": how, "facts": [name(f) for f in facts], "evidence": [name(e) for e in evidence]}
                        for source, how, facts, evidence in sources],
            "admits": [{"target": name(target), "what": what,
                        "classes": [c for c in classes if c in CLASSES] if isinstance(classes, list) else []}
                       for target, classes, what in admits],
            "unmapped": [name(p) for p in unmapped], "unmappedEvidence": [name(r) for r in unmapped_evidence]}


def _version(document: dict[str, Any]) -> str:
    """The dialect's format as our words: `version 2` / `version 3`, or a named format's selector."""
    selector = document.get("formatVersion")
    if selector in ("2.0.0", "3.0.0"):
        return f"named format, formatVersion {selector}"
    from ..jsonstrict import integer

    version = integer(document.get("version"))
    return f"version {version}" if version in (2, 3) else "—"
