"""entry.json, entry format version 3: every member of RFC 0019 §3's list (but the reference pair).

`check_entry(value, path)` holds a parsed entry.json to the members list: type, requiredness,
grammar and bound of each member, every object closed, the kind rules of a preset, the fixed
assertion byte for byte. The `dialect` and `artifact` members are the reference chain's
(reference.py), which reports them in §3's order. A version-1 or version-2 entry is
`entry-version-unread` and nothing else of it is read.
"""

from __future__ import annotations

from collections.abc import Callable, Container
from dataclasses import replace
from typing import Any

from ..canon import is_digest
from ..codes.catalog import (
    ASSERTION_MISMATCH,
    ENTRY_MEMBER_FORBIDDEN,
    ENTRY_MEMBER_INVALID,
    ENTRY_MEMBER_MISSING,
    ENTRY_MEMBER_UNKNOWN,
    ENTRY_VERSION_UNREAD,
    READER_LOCATOR_INVALID,
    VERIFICATION_RECORD_INVALID,
)
from ..jsonstrict import Number, integer
from ..quoting import described, pointer_text
from ..refusal import Refusal
from . import grammar

ASSERTION = (
    "The author asserts that these rules derive these facts and this evidence-availability from records of "
    "that shape, or these arguments from that disposition, and asserts nothing about any record's truth."
)
KINDS = ("dialect", "preset")
DIRECTIONS = ("input", "output", "both")
MEMBERS = (
    "entryVersion", "kind", "id", "title", "description", "compatibility", "upgrade", "direction", "pack",
    "dialect", "artifact", "output", "requires", "sourceKinds", "licence", "author", "assertion", "fixtures",
    "verification",
)
ALWAYS = ("entryVersion", "kind", "id", "title", "direction", "requires", "sourceKinds", "licence", "author",
          "assertion", "verification")
V2_KINDS = ("operation", "selected-file")
V3_KINDS = ("operation", "selected-file", "http", "sql", "web", "research")

MISSING = ENTRY_MEMBER_MISSING
UNKNOWN = ENTRY_MEMBER_UNKNOWN
INVALID = ENTRY_MEMBER_INVALID
FORBIDDEN = ENTRY_MEMBER_FORBIDDEN


def _type_name(value: Any) -> str:
    if isinstance(value, bool) or value is None:
        return "true/false" if isinstance(value, bool) else "null"
    return {dict: "an object", list: "an array", str: "a string", Number: "a number"}.get(type(value), "a value")


class _Refusals:
    def __init__(self, path: str) -> None:
        self.path = path
        self.out: list[Refusal] = []

    def add(self, code: str, member: str, detail: str) -> None:
        pointer = "" if member == "(root)" else "/" + member  # locates the line (annotations.line_of)
        # the member path may hold an author's member name or key: shown only when it is ours (issue #11)
        shown = member if member == "(root)" else pointer_text(pointer)[1:]
        self.out.append(Refusal(code, self.path, f"{shown}: {detail}", pointer=pointer))

    def string(self, value: Any, member: str, low: int, high: int) -> bool:
        if not isinstance(value, str):
            self.add(INVALID, member, f"expected a string of {low} to {high} characters, found {_type_name(value)}")
            return False
        if not low <= len(value) <= high:
            self.add(INVALID, member, f"expected {low} to {high} characters, found {len(value)}")
            return False
        return True

    def closed(self, value: Any, member: str, names: tuple[str, ...], required: tuple[str, ...]) -> bool:
        if not isinstance(value, dict):
            self.add(INVALID, member, f"expected an object, found {_type_name(value)}")
            return False
        for name in value:
            if name not in names:
                self.add(UNKNOWN, f"{member}/{name}", f"not a member of {member} (it holds {', '.join(names)})"
                         + did_you_mean(name, names, value))
        for name in required:
            if name not in value:
                self.add(MISSING, f"{member}/{name}", "required")
        return True

    def grammar(self, value: Any, member: str, problem_of: Callable[[str], str | None]) -> None:
        """A string held to a grammar: `problem_of(text)` says what is wrong, or None."""
        if not isinstance(value, str):
            self.add(INVALID, member, f"expected a string, found {_type_name(value)}")
        elif (problem := problem_of(value)) is not None:
            self.add(INVALID, member, problem)

    def array(self, value: dict[str, Any], member: str) -> list[Any] | None:
        """The member's array, or None after refusing another type."""
        found = value[member]
        if not isinstance(found, list):
            self.add(INVALID, member, f"expected an array, found {_type_name(found)}")
            return None
        return found

    def digest(self, value: Any, member: str) -> None:
        if not is_digest(value):
            self.add(INVALID, member, "expected sha256: and 64 lowercase hexadecimal characters")


NEAR = 2
"""An unknown member name within this many edits of a member the format knows is suggested (issue #34 item 7)."""


def _edits(a: str, b: str, bound: int = NEAR) -> int:
    """The optimal-string-alignment distance of `a` and `b` (insertions, deletions, substitutions and swaps of
    two neighbours), or bound + 1 once it is over `bound`."""
    if abs(len(a) - len(b)) > bound:
        return bound + 1
    before, row = None, list(range(len(b) + 1))
    for i, x in enumerate(a, 1):
        now = [i] + [0] * len(b)
        for j, y in enumerate(b, 1):
            now[j] = min(row[j] + 1, now[j - 1] + 1, row[j - 1] + (x != y))
            if before is not None and i > 1 and j > 1 and x == b[j - 2] and a[i - 2] == y:
                now[j] = min(now[j], before[j - 2] + 1)
        if min(now) > bound:
            return bound + 1
        before, row = row, now
    return row[-1]


def did_you_mean(name: str, known: tuple[str, ...], present: Container[str]) -> str:
    """"; did you mean `description`?" where the unknown member `name` is within NEAR edits of a member the
    format knows that the object does not hold yet (the nearest, every one at that distance, in the format's
    order); else "". Only the known member is named: the typed name is the author's and is never repeated."""
    best, found = NEAR + 1, []
    for member in known:
        if member in present:
            continue
        distance = _edits(name, member) if len(member) > 2 or len(name) > 1 else NEAR + 1
        if distance < best:
            best, found = distance, [member]
        elif distance == best:
            found.append(member)
    if best > NEAR or not found:
        return ""
    return "; did you mean " + " or ".join(f"`{member}`" for member in found) + "?"


def _licence_problem(value: str) -> str | None:
    """§3's licence grammar (grammar.licence_problem), and where it fails, the listed SPDX identifier the value
    spells with other separators ("Apache 2.0" is Apache-2.0), as the list's own rule suggests one for a value
    of the grammar (spdxlist.grammar_suggestion). Only listed identifiers are named, never the value."""
    problem = grammar.licence_problem(value)
    if problem is None:
        return None
    from .spdxlist import grammar_suggestion  # the SPDX list, loaded only for a licence the grammar refuses

    return problem + grammar_suggestion(value)


def entry_version_refusal(value: Any, path: str) -> Refusal | None:
    """entryVersion 1 or 2 is `entry-version-unread` (§3, Compatibility); read nothing more of it."""
    if isinstance(value, dict) and integer(value.get("entryVersion")) in (1, 2):
        return Refusal(ENTRY_VERSION_UNREAD, path,
                       f"entryVersion: {value['entryVersion'].literal} is not read by a version-3 reader; "
                       "move the entry to entryVersion 3 (RFC 0019 Compatibility)", pointer="/entryVersion")
    return None


def check_entry(value: Any, path: str) -> list[Refusal]:
    """Every member rule of §3 but the reference chain; refusals in member order."""
    r = _Refusals(path)
    if not isinstance(value, dict):
        r.add(INVALID, "(root)", f"entry.json is a JSON object, found {_type_name(value)}")
        return r.out
    early = entry_version_refusal(value, path)
    if early:
        return [early]
    for name in value:
        if name not in MEMBERS:
            r.add(UNKNOWN, name, "not a member of entry.json (§3's members list is closed)"
                  + did_you_mean(name, MEMBERS, value))
    for name in ALWAYS:
        if name not in value:
            r.add(MISSING, name, "required")
    if "entryVersion" in value and integer(value["entryVersion"]) != 3:
        r.add(INVALID, "entryVersion", "expected the integer 3")
    kind = value.get("kind")
    if "kind" in value and kind not in KINDS:
        r.add(INVALID, "kind", "expected \"dialect\" or \"preset\"")
        kind = None
    if "id" in value and r.string(value["id"], "id", 3, 128) and not grammar.ENTRY_ID.fullmatch(value["id"]):
        r.add(INVALID, "id", "expected ^[a-z0-9]+(\\.[a-z0-9-]+)+$ (<publisher>.<name>)")
    if "title" in value:
        r.string(value["title"], "title", 1, 200)
    if "description" in value:
        r.string(value["description"], "description", 1, 4096)
    _compatibility(value, r)
    _upgrade(value, r)
    direction = value.get("direction")
    if "direction" in value and direction not in DIRECTIONS:
        r.add(INVALID, "direction", "expected \"input\", \"output\" or \"both\"")
        direction = None
    if kind == "preset" and direction not in (None, "input"):
        r.add(INVALID, "direction", "a preset is exactly \"input\" (§3)")
        direction = "input"
    _presence(value, kind, direction, r)
    _pack(value, r)
    _output(value, r)
    _requires(value, kind, r)
    _source_kinds(value, direction, r)
    if "licence" in value:  # §3's grammar, every reader's; this catalog's gate adds the SPDX list (spdx.py)
        r.grammar(value["licence"], "licence", _licence_problem)
    if "author" in value:
        r.string(value["author"], "author", 1, 100)
    if "assertion" in value and value["assertion"] != ASSERTION:
        r.out.append(
            Refusal(
                ASSERTION_MISMATCH,
                path,
                "assertion: not the fixed sentence of §3, byte for byte; copy it from docs/entry-format.md",
                pointer="/assertion",
            )
        )
    if kind == "dialect":
        _fixtures(value, direction, r)
    _verification(value, kind, r)
    return r.out


def _presence(value: dict[str, Any], kind: str | None, direction: str | None, r: _Refusals) -> None:
    """Conditional members: present exactly inside their condition (§3)."""
    rules = []
    if kind:
        rules += [("pack", kind == "dialect", f"kind {kind}"), ("fixtures", kind == "dialect", f"kind {kind}")]
    if direction:
        rules += [("dialect", direction in ("input", "both"), f"direction {direction}"),
                  ("output", direction in ("output", "both"), f"direction {direction}")]
    for name, wanted, why in rules:
        if wanted and name not in value:
            r.add(MISSING, name, f"required for {why}")
        elif not wanted and name in value:
            r.add(FORBIDDEN, name, f"not given for {why}; remove it")


def _compatibility(value: dict[str, Any], r: _Refusals) -> None:
    if "compatibility" not in value:
        return
    c = value["compatibility"]
    if r.closed(c, "compatibility", ("desk", "runner"), ("desk", "runner")):
        for name in ("desk", "runner"):
            if name in c and r.string(c[name], f"compatibility/{name}", 1, 64):
                r.grammar(c[name], f"compatibility/{name}", grammar.compatibility_problem)


def _upgrade(value: dict[str, Any], r: _Refusals) -> None:
    if "upgrade" not in value:
        return
    u = value["upgrade"]
    if not isinstance(u, dict):
        r.add(INVALID, "upgrade", f"expected an object, found {_type_name(u)}")
        return
    if not 1 <= len(u) <= 32:
        r.add(INVALID, "upgrade", f"expected 1 to 32 members, found {len(u)}")
    for key, note in u.items():
        if not is_digest(key):
            r.add(INVALID, f"upgrade/{key}", "each key is a previous release's entryDigest (sha256: and 64 hex)")
        r.string(note, f"upgrade/{key}", 1, 2048)


def _pack(value: dict[str, Any], r: _Refusals) -> None:
    if "pack" not in value:
        return
    p = value["pack"]
    if not r.closed(p, "pack", ("id", "versions", "digests"), ("id",)):
        return
    if ("versions" in p) == ("digests" in p):
        r.add(INVALID, "pack", "exactly one of versions and digests")
    if "id" in p:
        r.grammar(p["id"], "pack/id", grammar.absolute_uri_problem)
    if "versions" in p:
        r.string(p["versions"], "pack/versions", 1, 64)
    if "digests" in p:
        d = p["digests"]
        if not isinstance(d, list) or not 1 <= len(d) <= 16:
            r.add(INVALID, "pack/digests", "expected an array of 1 to 16 digests")
        else:
            for i, item in enumerate(d):
                r.digest(item, f"pack/digests/{i}")


def _output(value: dict[str, Any], r: _Refusals) -> None:
    if "output" not in value:
        return
    o = value["output"]
    names = ("path", "outputVersion", "digest")
    if not r.closed(o, "output", names, names):
        return
    if "path" in o and o["path"] != "output.json":
        r.add(INVALID, "output/path", "always the string \"output.json\"")
    if "outputVersion" in o and ((version := integer(o["outputVersion"])) is None or version < 1):
        r.add(INVALID, "output/outputVersion", "expected an integer of 1 or more")
    if "digest" in o:
        r.digest(o["digest"], "output/digest")


def _requires(value: dict[str, Any], kind: str | None, r: _Refusals) -> None:
    if "requires" not in value:
        return
    q = value["requires"]
    if not r.closed(q, "requires", ("inputProfile", "connectionProfile", "platform"), ()):
        return
    for name in ("inputProfile", "connectionProfile"):
        if name in q:
            if kind == "preset":
                r.add(FORBIDDEN, f"requires/{name}", "a preset's requires names no profile (§3)")
            r.digest(q[name], f"requires/{name}")
    if "platform" in q and r.string(q["platform"], "requires/platform", 1, 64):
        if not grammar.PLATFORM.fullmatch(q["platform"]):
            r.add(INVALID, "requires/platform", "expected ^[a-z][a-z0-9-]*$")


def source_kinds_list(entry: dict[str, Any]) -> tuple[str, ...]:
    """The kinds RFC 0018 §4 lists for the family the dialect reference selects (§3 sourceKinds)."""
    dialect = entry.get("dialect")
    ref: dict[str, Any] = dialect if isinstance(dialect, dict) else {}
    if ref.get("formatVersion") == "2.0.0" or integer(ref.get("dialectVersion")) == 2:
        return V2_KINDS
    return V3_KINDS


def _source_kinds(value: dict[str, Any], direction: str | None, r: _Refusals) -> None:
    if "sourceKinds" not in value:
        return
    s = value["sourceKinds"]
    if not isinstance(s, list) or not all(isinstance(k, str) for k in s):
        r.add(INVALID, "sourceKinds", "expected an array of strings")
        return
    if direction == "output":
        if s:
            r.add(INVALID, "sourceKinds", "exactly [] for direction output")
        return
    if not 1 <= len(s) <= 16 or len(set(s)) != len(s):
        r.add(INVALID, "sourceKinds", "expected 1 to 16 distinct source kinds")
    allowed = source_kinds_list(value)
    for i, k in enumerate(s):
        if k not in allowed:
            r.add(INVALID, f"sourceKinds/{i}", f"{described(k, 'a string')} is not a source kind of this family "
                                               f"({', '.join(allowed)})")


def _fixtures(value: dict[str, Any], direction: str | None, r: _Refusals) -> None:
    if "fixtures" not in value:
        return
    f = r.array(value, "fixtures")
    if f is None:
        return
    if direction == "output" and f:
        r.add(INVALID, "fixtures", "exactly [] for direction output (output fixtures are held by digests only)")
    elif direction in ("input", "both") and not 1 <= len(f) <= 64:
        r.add(INVALID, "fixtures", f"expected 1 to 64 fixtures for direction {direction}, found {len(f)}")
    seen: set[str] = set()
    names = ("name", "path", "preparationDigest")
    for i, item in enumerate(f):
        member = f"fixtures/{i}"
        if not r.closed(item, member, names, names):
            continue
        name = item.get("name")
        if "name" in item and r.string(name, f"{member}/name", 1, 64):
            if not grammar.FIXTURE_NAME.fullmatch(name):
                r.add(INVALID, f"{member}/name", "expected ^[a-z0-9]+(-[a-z0-9]+)*$")
            elif name in seen:
                r.add(INVALID, f"{member}/name", f"{name!r} is given twice; fixture names are distinct")
            seen.add(name)
        if "path" in item and isinstance(name, str) and item["path"] != f"fixtures/{name}":
            shown = f'"fixtures/{name}"' if grammar.FIXTURE_NAME.fullmatch(name) else "fixtures/ and the fixture's name"
            r.add(INVALID, f"{member}/path", f"expected {shown}")
        if "preparationDigest" in item:
            r.digest(item["preparationDigest"], f"{member}/preparationDigest")


def _verification(value: dict[str, Any], kind: str | None, r: _Refusals) -> None:
    if "verification" not in value:
        return
    v = r.array(value, "verification")
    if v is None:
        return
    if kind == "preset" and v:
        r.add(INVALID, "verification", "exactly [] for a preset: no preparation was verified (§3)")
        return
    if kind == "dialect" and value.get("direction") == "output" and v:  # reading: docs/entry-format.md
        r.add(INVALID, "verification", "exactly [] for direction output: an output document has no preparation "
                                       "for a reader to recompute, so no record can state a run (§3)")
        return
    if len(v) > 32:
        r.add(INVALID, "verification", f"at most 32 records, found {len(v)}")
    names = ("date", "runner", "runtime", "readers", "result")
    for i, record in enumerate(v):
        member = f"verification/{i}"
        before = len(r.out)
        closed = r.closed(record, member, names, names)
        if closed and "date" in record:
            r.grammar(record["date"], f"{member}/date", grammar.date_problem)
        for name in ("runner", "runtime"):
            if closed and name in record and not (isinstance(record[name], str) and grammar.release_key(record[name])):
                r.add(INVALID, f"{member}/{name}", "expected a release tag vMAJOR.MINOR.PATCH")
        if closed and "result" in record and record["result"] != "agree":
            r.add(INVALID, f"{member}/result", "exactly the string \"agree\"")
        readers = record.get("readers") if closed else None
        if closed and "readers" in record:
            if not isinstance(readers, list) or not 1 <= len(readers) <= 8:
                r.add(INVALID, f"{member}/readers", "expected 1 to 8 reader locators")
            else:
                for j, loc in enumerate(readers):
                    problem = grammar.locator_problem(loc) if isinstance(loc, str) else "expected a string"
                    if problem:
                        r.add(READER_LOCATOR_INVALID, f"{member}/readers/{j}", problem)
        if len(r.out) > before:
            r.out[before:] = [replace(x, code=x.code if x.code == READER_LOCATOR_INVALID
                                      else VERIFICATION_RECORD_INVALID) for x in r.out[before:]]
