"""The entry directory (RFC 0019 §3): id and path, the documents the direction gives, fixture
directories with their closed file set and the binding classification, bounds, stray files.

`check_entry_directory(tree, path)` runs every per-entry check but replay, scans and history, and
returns an `EntryCheck` the gate, the manifest writer and history read from.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .. import dialect as dialect_form
from ..canon import CanonError, canonical_digest, digest, preparation_form
from ..codes.catalog import (
    BINDING_FORBIDDEN,
    BINDING_REQUIRED,
    BOUND_DERIVATIVE,
    ENTRY_FILE_MISSING,
    ENTRY_FILE_NOT_REGULAR,
    ENTRY_FILE_UNEXPECTED,
    ENTRY_ID_PATH,
    ENTRY_VERSION_UNREAD,
    FILE_OVER_BOUND,
    FILE_UNREADABLE,
    FIXTURE_FILE_MISSING,
    FIXTURE_FILE_UNEXPECTED,
    FIXTURE_MISSING,
    FIXTURE_OVER_BOUND,
    FIXTURE_UNEXPECTED,
    OUTPUT_DIGEST_MISMATCH,
    OUTPUT_MALFORMED,
    OUTPUT_VERSION_MISMATCH,
    PLACEHOLDER_VALUE,
    PREPARATION_DIGEST_MISMATCH,
    PREPARATION_NOT_CANONICAL,
    SOURCE_KINDS_MISMATCH,
)
from ..codes.dialect import INPUT_OVER_BOUND
from ..jsonstrict import integer
from ..quoting import described, path_text, quoted, withheld_position
from ..quoting import digest as quoted_digest
from ..refusal import Refusal
from ..tree import DIR, FILE, Node, Tree, TreeError, kind_text
from . import documents as docs
from . import grammar, placeholders
from .entry import check_entry
from .reference import reference_refusal

FIXTURE_REQUIRED = ("case.json", "profiles.json", "preparation.json")
FIXTURE_OPTIONAL = ("sources.json",)
BINDING = "binding.json"


@dataclass
class FixtureCheck:
    """One fixture directory as found: its files and whether it may be replayed."""

    name: str
    path: str
    files: list[str]
    preparation_digest: str | None
    replayable: bool


@dataclass
class EntryCheck:
    """What one entry directory holds, and every refusal found in it."""

    id: str
    path: str
    refusals: list[Refusal] = field(default_factory=list)
    entry: dict[str, Any] | None = None
    stored: dict[str, str] = field(default_factory=dict)
    present: set[str] = field(default_factory=set)
    document: Any = None
    document_data: bytes | None = None
    checked: dialect_form.CheckedDialect | None = None  # the form checker's, handed to the verifier (replay.py)
    form_valid: bool = False
    fixtures: list[FixtureCheck] = field(default_factory=list)
    unbound: list[str] = field(default_factory=list)
    output_document: Any = None
    unreplayed: str | None = None
    """The code of the refusal that stops every replay of the entry's fixtures (the dialect document missing,
    unreadable or refused, or the reference chain: `dialect-digest-mismatch` after an edit without exchange fix);
    None when the document and its pin pass (gate/replay.py `unreplayed_notes`; issue #26 item 2)."""

    @property
    def kind(self) -> str | None:
        kind = self.entry.get("kind") if self.entry else None
        return kind if kind in ("dialect", "preset") else None

    @property
    def direction(self) -> str | None:
        return self.entry.get("direction") if self.entry else None

    @property
    def artifact(self) -> tuple[str, str] | None:
        a = self.entry.get("artifact") if self.entry else None
        if isinstance(a, dict) and isinstance(a.get("id"), str) and isinstance(a.get("version"), str):
            return (a["id"], a["version"])
        return None

    @property
    def dialect_digest(self) -> str | None:
        ref = self.entry.get("dialect") if self.entry else None
        return ref.get("digest") if isinstance(ref, dict) and isinstance(ref.get("digest"), str) else None

    def refuse(self, code: str, path: str, detail: str, pointer: str | None = None) -> None:
        self.refusals.append(Refusal(code, path, detail, self.id, pointer=pointer))


def entry_id(path: str) -> str:
    """entries/<publisher>/<name> read as <publisher>.<name> (§3)."""
    parts = path.split("/")
    return f"{parts[1]}.{parts[2]}"


def entry_path(entry_id_: str) -> str:
    """The row's path: split the id at its first dot (§3 manifest form)."""
    publisher, _, name = entry_id_.partition(".")
    return f"entries/{publisher}/{name}"


def _expected_files(entry: dict[str, Any] | None) -> dict[str, bool]:
    """Each name the entry root may hold, with whether it is required (open readings O2, O3: the
    root is closed; an output entry holds no fixtures directory). Where kind or direction could not
    be read, the documents they would decide are admitted and not required."""
    wanted = {"entry.json": True, "README.md": True}
    kind = entry.get("kind") if entry else None
    direction = entry.get("direction") if entry else None
    if kind == "preset":
        direction = "input"
    if direction not in ("input", "output", "both"):
        direction = None
    if direction != "output":
        wanted["dialect.json"] = direction is not None
    if direction not in ("input",) and kind != "preset":
        wanted["output.json"] = direction is not None
    fixtures = entry.get("fixtures") if entry else None
    if kind != "preset" and direction != "output":
        wanted["fixtures"] = kind == "dialect" and isinstance(fixtures, list) and bool(fixtures)
    return wanted


def check_entry_directory(tree: Tree, path: str) -> EntryCheck:
    """Every check of §3 on one entry directory, but replay, scans and history."""
    check = EntryCheck(entry_id(path), path)
    if entry_path(check.id) != path or not grammar.ENTRY_ID.fullmatch(check.id):
        check.refuse(ENTRY_ID_PATH, path, f"{path_text(path)} is not entries/<publisher>/<name> for an id of §3's "
                                            "grammar "
                                            "(publisher [a-z0-9]+, name [a-z0-9-] with dots); rename the directory")
    try:
        listing = {n.name: n for n in tree.list(path)}
    except TreeError as exc:
        check.refuse(FILE_UNREADABLE, path, str(exc))
        return check
    _read_entry(tree, check, listing)
    wanted = _expected_files(check.entry)
    reads = _read_documents(tree, check, listing, wanted)
    for name, node in listing.items():
        full = f"{path}/{name}"
        if name not in wanted:
            check.refuse(ENTRY_FILE_UNEXPECTED, full, _unexpected_hint(name, check.entry)
                         + withheld_position(name, listing))
        elif name == "fixtures":
            if node.kind != DIR:
                check.refuse(ENTRY_FILE_NOT_REGULAR, full, "fixtures must be a directory")
        elif node.kind != FILE:
            check.refuse(ENTRY_FILE_NOT_REGULAR, full, f"{kind_text(node.kind)} where a regular file belongs")
    for name, required in wanted.items():
        if required and name not in listing:
            check.refuse(ENTRY_FILE_MISSING, f"{path}/{name}", _missing_hint(name, check.entry))
    if _is_file(listing, "README.md"):
        node = listing["README.md"]
        if node.size > docs.README_BOUND:
            check.refuse(FILE_OVER_BOUND, f"{path}/README.md", f"{node.size} bytes, over {docs.README_BOUND}")
    if check.entry is not None and "output.json" in reads:
        _check_output(check, reads["output.json"])
    if check.entry is not None:
        _check_dialect(check, reads.get("dialect.json"))
        if "fixtures" in wanted:
            _check_fixtures(tree, check, listing)
    _check_placeholders(tree, check, listing)
    return check


def _check_placeholders(tree: Tree, check: EntryCheck, listing: dict[str, Node]) -> None:
    """placeholder-value (issue #9): a value the scaffold writes, left in entry.json, dialect.json,
    output.json or README.md. Runs last among the directory checks, on the documents as read above
    (a document that could not be read is already refused and is not searched)."""
    documents = (("entry.json", check.entry), ("dialect.json", check.document),
                 ("output.json", check.output_document))
    for name, value in documents:
        if value is None:
            continue
        for where, marker in placeholders.in_json(value):
            check.refusals.append(Refusal(
                PLACEHOLDER_VALUE, f"{check.path}/{name}",
                f"{placeholders.pointer_text(where)}: still holds the scaffold's placeholder {marker!r}; write the "
                "real value", check.id, pointer=placeholders.pointer_of(where)))
    if _is_file(listing, "README.md") and listing["README.md"].size <= docs.README_BOUND:
        read = docs.read_bytes(tree, f"{check.path}/README.md", docs.README_BOUND)
        if read.data is not None:
            for line, marker in placeholders.in_text(read.data.decode("utf-8", "replace")):
                check.refusals.append(Refusal(
                    PLACEHOLDER_VALUE, f"{check.path}/README.md",
                    f"line {line}: still holds the scaffold's placeholder text {marker!r}; write what the entry is "
                    "for in your own words", check.id, line=line))


def _read_documents(tree: Tree, check: EntryCheck, listing: dict[str, Node], wanted: dict[str, bool]
                    ) -> dict[str, docs.Read]:
    """Each document the entry may hold, read once within its bound; the stored-byte digests the
    manifest pins (§3 "Digests"). dialect.json's bound is the form checker's (input-over-bound)."""
    reads: dict[str, docs.Read] = {}
    for name, limit, over in (("dialect.json", docs.DIALECT_BOUND, INPUT_OVER_BOUND),
                              ("output.json", docs.OUTPUT_BOUND, FILE_OVER_BOUND)):
        if name in wanted and _is_file(listing, name):
            check.present.add(name)
            read = docs.read_bytes(tree, f"{check.path}/{name}", limit, over_code=over)
            if read.data is not None:
                check.stored[name] = digest(read.data)
            reads[name] = read
    return reads


def _is_file(listing: dict[str, Node], name: str) -> bool:
    return name in listing and listing[name].kind == FILE


RUNNER_EXPORT_FILES = frozenset({"run.json", "release-digest.txt", "audit-record.jsonl"})
"""The files a Runner run export comes as (docs/recording.md): copied into an entry, each is a stray file."""

_FROM_EXPORT = ("a Runner run export is not an entry's file: keep the export outside the entry, make the fixture from "
                "it with exchange fixture add ENTRY_DIR RUN_EXPORT (docs/recording.md), and remove this file")


def _unexpected_hint(name: str, entry: dict[str, Any] | None) -> str:
    if name in ("dialect.json", "output.json"):
        return f"{name} is not a document this entry's direction gives; remove it or change direction"
    if name == "fixtures":
        return "a fixtures directory belongs only to an entry of kind dialect with fixtures"
    if name in RUNNER_EXPORT_FILES:
        return _FROM_EXPORT
    return "not a file of an entry (entry.json, README.md, dialect.json, output.json, fixtures/); remove it"


def _fixture_unexpected_hint(name: str) -> str:
    if name in RUNNER_EXPORT_FILES:
        return _FROM_EXPORT
    return "a fixture holds only case.json, sources.json, profiles.json, preparation.json and binding.json; remove it"


def _missing_hint(name: str, entry: dict[str, Any] | None) -> str:
    return {
        "README.md": "every entry has README.md: what the dialect is for, in the publisher's words",
        "entry.json": "every entry has entry.json",
        "fixtures": "the fixtures entry.json lists live under fixtures/<name>/",
    }.get(name, f"the entry's direction gives {name}; add it or change direction")


def _read_entry(tree: Tree, check: EntryCheck, listing: dict[str, Node]) -> None:
    path = f"{check.path}/entry.json"
    if not _is_file(listing, "entry.json"):
        return
    read = docs.read_json(tree, path, docs.ENTRY_BOUND)
    if read.data is not None:
        check.stored["entry.json"] = digest(read.data)
    if read.refusal:
        check.refusals.append(read.refusal.with_entry(check.id))
        return
    value = read.value
    refusals = check_entry(value, path)
    check.refusals += [r.with_entry(check.id) for r in refusals]
    if isinstance(value, dict) and not any(r.code == ENTRY_VERSION_UNREAD for r in refusals):
        check.entry = value
        if isinstance(value.get("id"), str) and value["id"] != check.id:
            check.refuse(ENTRY_ID_PATH, path, f"id: {quoted(value['id'], grammar.ENTRY_ID, 'an id')} but the "
                                                f"directory {path_text(check.path)} reads as "
                                                f"{quoted(check.id, grammar.ENTRY_ID, 'an id')}; the id is the path "
                                                "with '/' read as '.'",
                         pointer="/id")


def _check_output(check: EntryCheck, raw: docs.Read) -> None:
    path = f"{check.path}/output.json"
    read = docs.parse(raw, path, docs.OUTPUT_BOUND, malformed_code=OUTPUT_MALFORMED, nested_code=OUTPUT_MALFORMED)
    if read.refusal:
        check.refusals.append(read.refusal.with_entry(check.id))
        return
    doc = check.output_document = read.value
    problem = None
    if not isinstance(doc, dict) or set(doc) != {"outputVersion", "platform", "policies"}:
        problem = "an output dialect is an object of exactly outputVersion, platform and policies (dialect §10)"
    elif doc["outputVersion"] != "1":
        problem = "outputVersion: exactly the string \"1\", the only version dialect §10 defines"
    elif not isinstance(doc["platform"], str) or not doc["platform"]:
        problem = "platform: expected a non-empty string"
    elif not isinstance(doc["policies"], dict):
        problem = "policies: expected an object"
    if problem:
        check.refuse(OUTPUT_MALFORMED, path, problem)
        return
    assert check.entry is not None  # checked only once entry.json was read (check_entry_directory)
    ref = check.entry.get("output")
    if not isinstance(ref, dict):
        return
    if integer(ref.get("outputVersion")) is not None and int(doc["outputVersion"]) != integer(ref["outputVersion"]):
        check.refuse(OUTPUT_VERSION_MISMATCH, f"{check.path}/entry.json",
                     f"output/outputVersion is {ref['outputVersion'].literal}, output.json spells "
                     f"{doc['outputVersion']!r}", pointer="/output/outputVersion")
    try:
        actual = canonical_digest(doc)
    except CanonError as exc:
        check.refuse(OUTPUT_DIGEST_MISMATCH, path, f"output.json has no canonical form ({exc})")
        return
    if isinstance(ref.get("digest"), str) and ref["digest"] != actual:
        check.refuse(OUTPUT_DIGEST_MISMATCH, f"{check.path}/entry.json",
                     f"output/digest is {quoted_digest(ref['digest'])}, the document's canonical digest is {actual}",
                     pointer="/output/digest")


def _check_dialect(check: EntryCheck, raw: docs.Read | None) -> None:
    """The reference chain, then the document form, then the kind rules that read the document."""
    entry_path_ = f"{check.path}/entry.json"
    path = f"{check.path}/dialect.json"
    form = None
    assert check.entry is not None  # checked only once entry.json was read (check_entry_directory)
    if raw is not None and "dialect" in check.entry:
        if raw.refusal:
            check.refusals.append(raw.refusal.with_entry(check.id))
            check.unreplayed = raw.refusal.code
        else:
            assert raw.data is not None  # a Read without a refusal holds its bytes (documents.read_bytes)
            check.document_data = raw.data
            form = dialect_form.check_form(raw.data)
            check.document = form.document
    elif "dialect" in check.entry:
        check.unreplayed = ENTRY_FILE_MISSING
    readable = form is not None and form.document is not None
    chain = reference_refusal(check.entry, check.document, readable, form.digest if form is not None else None)
    if chain:
        check.refuse(chain.code, entry_path_, chain.detail, pointer=chain.pointer)
        check.unreplayed = check.unreplayed or chain.code
    if form is None:
        return
    if form.refusal:
        check.refuse(form.refusal, path, form.detail)
        check.unreplayed = form.refusal
        return
    check.checked = form.checked
    check.form_valid = chain is None
    doc = form.document
    check.unbound = list(dialect_form.unbound_sources(doc))
    if check.kind == "preset":
        bound = dialect_form.bound_sources(doc)
        if bound:
            check.refuse(BOUND_DERIVATIVE, path, f"source {described(bound[0], 'a name')} is bound; a preset "
                                                   "publishes "
                                                   "every source that has an unbound form unbound (RFC 0019 §3)")
    _check_source_kinds(check, doc)


def _check_source_kinds(check: EntryCheck, doc: Any) -> None:
    """sourceKinds equals the set of kinds the document's sources use (open reading O6); a document
    with no source (a case-only dialect) is held to §3's list form alone."""
    assert check.entry is not None  # checked only once entry.json was read (check_entry_directory)
    listed = check.entry.get("sourceKinds")
    if not isinstance(listed, list) or not all(isinstance(k, str) for k in listed) or check.direction == "output":
        return
    used = set(dialect_form.source_kinds(doc))
    if used and set(listed) != used:
        missing = sorted(k for k in used - set(listed) if isinstance(k, str))
        extra = sorted(k if k in dialect_form.ALL_KINDS else described(k, "a string")  # a kind, else the author's
                       for k in set(listed) - used if isinstance(k, str))
        check.refuse(SOURCE_KINDS_MISMATCH, f"{check.path}/entry.json",
                     "sourceKinds must list exactly the kinds dialect.json's sources use"
                     + (f"; missing {missing}" if missing else "") + (f"; not used {extra}" if extra else ""),
                     pointer="/sourceKinds")


def declared_fixtures(check: EntryCheck) -> list[tuple[str, str | None]]:
    """Each fixture entry.json lists by a string name, with its preparationDigest (None when not a string)."""
    assert check.entry is not None  # asked only of an entry whose entry.json was read
    fixtures = check.entry.get("fixtures")
    if not isinstance(fixtures, list):
        return []
    out = []
    for item in fixtures:
        if isinstance(item, dict) and isinstance(item.get("name"), str):
            pd = item.get("preparationDigest")
            out.append((item["name"], pd if isinstance(pd, str) else None))
    return out


def _check_fixtures(tree: Tree, check: EntryCheck, listing: dict[str, Node]) -> None:
    named = declared_fixtures(check)
    if "fixtures" not in listing or listing["fixtures"].kind != DIR:
        return
    base = f"{check.path}/fixtures"
    try:
        present = {n.name: n for n in tree.list(base)}
    except TreeError as exc:
        check.refuse(FILE_UNREADABLE, base, str(exc))
        return
    names = [n for n, _ in named]
    for name, node in present.items():
        if name not in names:
            check.refuse(FIXTURE_UNEXPECTED, f"{base}/{name}", "entry.json lists no fixture of this name; remove it"
                         + withheld_position(name, present))
        elif node.kind != DIR:
            check.refuse(ENTRY_FILE_NOT_REGULAR, f"{base}/{name}", "a fixture is a directory")
    for name, prep_digest in named:
        if name not in present:
            check.refuse(FIXTURE_MISSING, f"{base}/{name}", "entry.json lists fixture "
                                                              f"{quoted(name, grammar.FIXTURE_NAME, 'a name')}; "
                                                              "record it under fixtures/<its name>/")
        elif present[name].kind == DIR:
            check.fixtures.append(_check_fixture(tree, check, f"{base}/{name}", name, prep_digest))


def _check_fixture(tree: Tree, check: EntryCheck, path: str, name: str, prep_digest: str | None) -> FixtureCheck:
    before = len(check.refusals)
    try:
        nodes = tree.list(path)
    except TreeError as exc:
        check.refuse(FILE_UNREADABLE, path, str(exc))
        return FixtureCheck(name, path, [], prep_digest, False)
    files = [n.name for n in nodes]
    total = sum(n.size for n in nodes if n.kind == FILE)
    if total > docs.FIXTURE_DIRECTORY_BOUND:
        check.refuse(FIXTURE_OVER_BOUND, path, f"{total} bytes, over the bound of {docs.FIXTURE_DIRECTORY_BOUND}")
        return FixtureCheck(name, path, files, prep_digest, False)
    needs_binding = bool(check.unbound) if check.form_valid else None
    allowed = FIXTURE_REQUIRED + FIXTURE_OPTIONAL + (BINDING,)
    for node in nodes:
        full = f"{path}/{node.name}"
        if node.name not in allowed:
            check.refuse(FIXTURE_FILE_UNEXPECTED, full, _fixture_unexpected_hint(node.name)
                         + withheld_position(node.name, files))
        elif node.kind != FILE:
            check.refuse(ENTRY_FILE_NOT_REGULAR, full, f"{kind_text(node.kind)} where a regular file belongs")
    for required in FIXTURE_REQUIRED:
        if required not in files:
            check.refuse(FIXTURE_FILE_MISSING, f"{path}/{required}", "required in every fixture")
    if needs_binding is True and BINDING not in files:
        check.refuse(BINDING_REQUIRED, f"{path}/{BINDING}",
                     f"the dialect has {len(check.unbound)} unbound source(s); record the fixture with its "
                     "binding document")
    elif needs_binding is False and BINDING in files:
        check.refuse(BINDING_FORBIDDEN, f"{path}/{BINDING}", "the dialect has no unbound source; remove it")
    elif needs_binding and BINDING in files:
        _check_binding(tree, check, f"{path}/{BINDING}")
    if "preparation.json" in files:
        _check_preparation(tree, check, f"{path}/preparation.json", prep_digest)
    return FixtureCheck(name, path, files, prep_digest, len(check.refusals) == before and check.form_valid)


def _check_binding(tree: Tree, check: EntryCheck, path: str) -> None:
    raw = docs.read_bytes(tree, path, docs.BINDING_BOUND, over_code=INPUT_OVER_BOUND)
    if raw.refusal:
        check.refusals.append(raw.refusal.with_entry(check.id))
        return
    assert raw.data is not None  # a Read without a refusal holds its bytes (documents.read_bytes)
    if check.checked is not None:  # checked once per binding's bytes; the verifier reads the same result
        result = check.checked.binding(raw.data)
    else:
        result = dialect_form.check_binding(raw.data, check.document, canonical_digest(check.document))
    if result.refusal:
        check.refuse(result.refusal, path, result.detail)


def _check_preparation(tree: Tree, check: EntryCheck, path: str, prep_digest: str | None) -> None:
    raw = docs.read_json(tree, path, docs.PREPARATION_BOUND)
    if raw.data is not None and prep_digest is not None and digest(raw.data) != prep_digest:
        check.refuse(PREPARATION_DIGEST_MISMATCH, path,
                     f"preparationDigest in entry.json is {quoted_digest(prep_digest)}; preparation.json's stored "
                     "bytes digest to "
                     f"{digest(raw.data)}")
    if raw.refusal:
        check.refusals.append(raw.refusal.with_entry(check.id))
        return
    assert raw.data is not None  # a Read without a refusal holds its bytes (documents.read_json)
    if check.checked is not None:  # read once: the verifier takes these bytes' value from here
        check.checked.read(raw.data, docs.json_bounds(docs.PREPARATION_BOUND), raw.value)
    try:
        canonical = preparation_form(raw.value)
    except CanonError as exc:
        check.refuse(PREPARATION_NOT_CANONICAL, path, f"preparation.json has no canonical form (§9.5): {exc}")
        return
    if canonical != raw.data:
        check.refuse(PREPARATION_NOT_CANONICAL, path,
                     "preparation.json must hold the preparation's canonical bytes (dialect §9.5), with no "
                     "whitespace or trailing newline; re-record it, never re-format it by hand")
