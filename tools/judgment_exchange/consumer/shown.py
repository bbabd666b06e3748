"""An entry's author-controlled values as a reviewer is shown them (RFC 0019 §3 members; §7 review).

A value that passes its §3 grammar is shown as it is (the text report escapes control characters).
A value that fails it is never shown: it is described by type and length, as `{"withheld": reason}`.
A free text (title, description, an upgrade note) or an artifact id is shown only once the scan's named
credential shapes find none in it too (issue #16 item 4; docs/reports.md): the side of a review read
from the release being left was never gated by this run, so its values are scanned here.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..canon import is_digest
from ..catalog.grammar import ARTIFACT_VERSION, compatibility_problem
from ..quoting import flagged_values


def _type_name(value: Any) -> str:
    if isinstance(value, bool) or value is None:
        return "true/false" if isinstance(value, bool) else "null"
    names: dict[type[object], str] = {dict: "an object", list: "an array", str: "a string"}
    return names.get(type(value), "a number")


def withheld(reason: str) -> dict[str, str]:
    return {"withheld": reason}


def text(value: Any, low: int, high: int) -> Any:
    """A string of `low` to `high` characters (title 1–200, description 1–4096, a note 1–2048)."""
    if value is None:
        return withheld("absent or null")
    if not isinstance(value, str):
        return withheld(f"not a string ({_type_name(value)})")
    if not low <= len(value) <= high:
        return withheld(f"a string of {len(value)} characters, outside {low} to {high}")
    if flagged_values([value]):
        return withheld(f"a string of {len(value)} characters holding a shape the scan refuses (a credential)")
    return value


def choice(value: Any, allowed: tuple[str, ...]) -> Any:
    """kind or direction: one of its fixed words."""
    if isinstance(value, str) and value in allowed:
        return value
    return withheld(f"not one of {', '.join(allowed)}")


def compatibility(value: Any) -> Any:
    """The closed object {desk, runner}, each a release tag or `>=vA <vB` (§3 "Compatibility ranges")."""
    if not isinstance(value, dict) or set(value) != {"desk", "runner"}:
        return withheld("not the closed object {desk, runner}")
    for name in ("desk", "runner"):
        item = value[name]
        if not isinstance(item, str) or not 1 <= len(item) <= 64 or compatibility_problem(item) is not None:
            return withheld(f"{name} is not a release tag or range of §3's grammar")
    return {"desk": value["desk"], "runner": value["runner"]}


def artifact(value: Any) -> Any:
    """The closed pair {id, version}: id 1 to 1024 UTF-8 bytes with no control character, space or DEL."""
    if not isinstance(value, dict) or set(value) != {"id", "version"}:
        return withheld("not the closed object {id, version}")
    ident, version = value["id"], value["version"]
    if (not isinstance(ident, str) or not ident or len(ident.encode("utf-8", "surrogatepass")) > 1024
            or any(ord(c) <= 0x20 or ord(c) == 0x7F for c in ident)):
        return withheld("id is not 1 to 1024 UTF-8 bytes without control characters or spaces")
    if not isinstance(version, str) or ARTIFACT_VERSION.fullmatch(version) is None:
        return withheld("version is not MAJOR.MINOR.PATCH")
    if flagged_values([ident]):
        return withheld("id holds a shape the scan refuses (a credential)")
    return {"id": ident, "version": version}


def digest(value: Any) -> Any:
    return value if is_digest(value) else withheld("not a sha256: digest")


def summary(entry: Any, row: dict[str, Any]) -> dict[str, Any]:
    """One side of an upgrade review: the row's pins and the entry's reviewed members, each shown or
    withheld. `dialectDigest`/`outputDigest` are the row's (sha256 over the stored bytes, §3);
    `dialectCanonicalDigest`/`outputCanonicalDigest` are entry.json's dialect.digest/output.digest
    (sha256 over the document's canonical bytes)."""
    out: dict[str, Any] = {"entryDigest": row["entryDigest"]}
    for pin in ("dialectDigest", "outputDigest"):
        if pin in row:
            out[pin] = row[pin]
    if not isinstance(entry, dict):
        return out | {"entry": withheld("entry.json could not be read as a JSON object")}
    out["kind"] = choice(entry.get("kind"), ("dialect", "preset"))
    out["direction"] = choice(entry.get("direction"), ("input", "output", "both"))
    out["title"] = text(entry.get("title"), 1, 200)
    shows: tuple[tuple[str, Callable[[Any], Any]], ...] = (
        ("description", lambda v: text(v, 1, 4096)), ("compatibility", compatibility), ("artifact", artifact))
    for name, show in shows:
        if name in entry:
            out[name] = show(entry[name])
    for member, name in (("dialect", "dialectCanonicalDigest"), ("output", "outputCanonicalDigest")):
        reference = entry.get(member)
        if isinstance(reference, dict) and "digest" in reference:
            out[name] = digest(reference["digest"])
    return out


def upgrade_note(entry: Any, key: str) -> Any:
    """The note keyed by the imported entryDigest (§3 upgrade), shown or withheld; None when there is none."""
    notes = entry.get("upgrade") if isinstance(entry, dict) else None
    if not isinstance(notes, dict) or key not in notes:
        return None
    return text(notes[key], 1, 2048)


# --- every entry.json member, and a document's values (issue #18 item 5: upgrades you can review) ----------


def _grammar_text(value: Any, problem_of: Callable[[str], str | None], what: str) -> Any:
    """A string held to a §3 grammar (`problem_of` says what is wrong, or None), shown once the scan's
    named credential shapes find none in it."""
    if not isinstance(value, str):
        return withheld(f"not a string ({_type_name(value)})")
    if problem_of(value) is not None:
        return withheld(f"a string of {len(value)} characters outside {what}'s grammar")
    if flagged_values([value]):
        return withheld(f"a string of {len(value)} characters holding a shape the scan refuses (a credential)")
    return value


def _closed(value: Any, names: tuple[str, ...]) -> str | None:
    """Why `value` is not an object of only these members, or None."""
    if not isinstance(value, dict):
        return f"not an object ({_type_name(value)})"
    if any(name not in names for name in value):
        return f"holds a member outside {{{', '.join(names)}}}"
    return None


def _integer(value: Any) -> Any:
    from ..jsonstrict import integer

    number = integer(value)
    return number if number is not None else withheld(f"not an integer ({_type_name(value)})")


def _entry_id(value: Any) -> Any:
    from ..catalog.grammar import ENTRY_ID
    from ..quoting import flagged_names, id_names

    if not isinstance(value, str) or not 3 <= len(value) <= 128 or ENTRY_ID.fullmatch(value) is None:
        return withheld("not an entry id of §3's grammar" if isinstance(value, str)
                        else f"not a string ({_type_name(value)})")
    if flagged_names(id_names(value)):
        return withheld(f"an id of {len(value)} characters holding a shape the scan refuses (a credential)")
    return value


def _names(values: list[Any]) -> frozenset[str]:
    """The fixture names among `values` the scan's name check flags, in one run."""
    from ..quoting import flagged_names

    return flagged_names([v for v in values if isinstance(v, str)])


def _fixture_name(value: Any, flagged: frozenset[str]) -> Any:
    from ..catalog.grammar import FIXTURE_NAME

    if not isinstance(value, str) or not 1 <= len(value) <= 64 or FIXTURE_NAME.fullmatch(value) is None:
        return withheld("not a fixture name of §3's grammar")
    if value in flagged:
        return withheld(f"a name of {len(value)} characters holding a shape the scan refuses (a credential)")
    return value


def _upgrade_notes(value: Any) -> Any:
    if not isinstance(value, dict):
        return withheld(f"not an object ({_type_name(value)})")
    return [{"from": digest(key), "note": text(note, 1, 2048)} for key, note in value.items()]


def _pack(value: Any) -> Any:
    from ..catalog.grammar import absolute_uri_problem

    if (why := _closed(value, ("id", "versions", "digests"))) is not None:
        return withheld(why)
    out: dict[str, Any] = {}
    if "id" in value:
        out["id"] = _grammar_text(value["id"], absolute_uri_problem, "an absolute URI")
    if "versions" in value:
        out["versions"] = text(value["versions"], 1, 64)
    if "digests" in value:
        items = value["digests"]
        out["digests"] = [digest(d) for d in items] if isinstance(items, list) \
            else withheld(f"not an array ({_type_name(items)})")
    return out


def _reference(value: Any, document: str, version: str) -> Any:
    """entry.json's `dialect` or `output`: the stored path, the version (an integer, or a named format's
    MAJOR.MINOR.PATCH), the canonical digest."""
    if (why := _closed(value, ("path", version, "formatVersion", "digest"))) is not None:
        return withheld(why)
    out: dict[str, Any] = {}
    for name, item in value.items():
        if name == "path":
            out[name] = item if item == document else withheld(f"not the string {document!r}")
        elif name == version:
            out[name] = _integer(item)
        elif name == "formatVersion":
            out[name] = item if isinstance(item, str) and ARTIFACT_VERSION.fullmatch(item) \
                else withheld("not MAJOR.MINOR.PATCH")
        else:
            out[name] = digest(item)
    return out


def _requires(value: Any) -> Any:
    from ..catalog.grammar import PLATFORM

    if (why := _closed(value, ("inputProfile", "connectionProfile", "platform"))) is not None:
        return withheld(why)
    return {name: (digest(item) if name != "platform" else _grammar_text(
        item, lambda v: None if 1 <= len(v) <= 64 and PLATFORM.fullmatch(v) else "outside", "a platform"))
        for name, item in value.items()}


def _source_kinds(value: Any) -> Any:
    from ..catalog.entry import V3_KINDS

    if not isinstance(value, list):
        return withheld(f"not an array ({_type_name(value)})")
    return [k if isinstance(k, str) and k in V3_KINDS else withheld("not a source kind of §3") for k in value]


def _assertion(value: Any) -> Any:
    from ..catalog.entry import ASSERTION

    if value == ASSERTION:
        return value
    what = f"a string of {len(value)} characters" if isinstance(value, str) else _type_name(value)
    return withheld(f"not the fixed sentence of §3 ({what})")


def _fixtures(value: Any) -> Any:
    if not isinstance(value, list):
        return withheld(f"not an array ({_type_name(value)})")
    flagged = _names([item.get("name") for item in value if isinstance(item, dict)])
    out: list[Any] = []
    for item in value:
        if (why := _closed(item, ("name", "path", "preparationDigest"))) is not None:
            out.append(withheld(why))
            continue
        record: dict[str, Any] = {}
        name = item.get("name")
        if "name" in item:
            record["name"] = _fixture_name(name, flagged)
        if "path" in item:
            shown_name = record.get("name")
            record["path"] = item["path"] if isinstance(shown_name, str) and item["path"] == f"fixtures/{shown_name}" \
                else withheld("not fixtures/ and the fixture's name")
        if "preparationDigest" in item:
            record["preparationDigest"] = digest(item["preparationDigest"])
        out.append(record)
    return out


def _verification(value: Any) -> Any:
    from ..catalog.grammar import RELEASE_TAG, date_problem, locator_problem

    if not isinstance(value, list):
        return withheld(f"not an array ({_type_name(value)})")
    out: list[Any] = []
    for record in value:
        if (why := _closed(record, ("date", "runner", "runtime", "readers", "result"))) is not None:
            out.append(withheld(why))
            continue
        item: dict[str, Any] = {}
        for name, member in record.items():
            if name == "date":
                item[name] = _grammar_text(member, date_problem, "a date")
            elif name in ("runner", "runtime"):
                item[name] = _grammar_text(member, lambda v: None if RELEASE_TAG.fullmatch(v) else "outside", "a tag")
            elif name == "result":
                item[name] = member if member == "agree" else withheld("not the string 'agree'")
            else:
                item[name] = [_grammar_text(loc, locator_problem, "a reader locator") for loc in member] \
                    if isinstance(member, list) else withheld(f"not an array ({_type_name(member)})")
        out.append(item)
    return out


def _licence(value: Any) -> Any:
    from ..catalog.grammar import licence_problem

    return _grammar_text(value, licence_problem, "a licence")


def entry_member(name: str, value: Any) -> Any:
    """One member of entry.json as a reviewer is shown it (§3's members list): each part that passes its
    §3 grammar shown (free text and grammar-fitting names once the scan cleared them too), every other
    part `{"withheld": why}`; a member outside §3's list is withheld whole."""
    from ..catalog.entry import DIRECTIONS, KINDS

    shows = {
        "entryVersion": _integer, "kind": lambda v: choice(v, KINDS), "id": _entry_id,
        "title": lambda v: text(v, 1, 200), "description": lambda v: text(v, 1, 4096),
        "compatibility": compatibility, "upgrade": _upgrade_notes, "direction": lambda v: choice(v, DIRECTIONS),
        "pack": _pack, "dialect": lambda v: _reference(v, "dialect.json", "dialectVersion"), "artifact": artifact,
        "output": lambda v: _reference(v, "output.json", "outputVersion"), "requires": _requires,
        "sourceKinds": _source_kinds, "assertion": _assertion, "fixtures": _fixtures,
        "verification": _verification, "author": lambda v: text(v, 1, 100),
        "licence": _licence,
    }
    show = shows.get(name)
    if show is None:
        return withheld("not a member of §3's entry.json; not shown")
    return show(value)


def document_value(value: Any) -> dict[str, Any]:
    """A value of a dialect or output document at one pointer: its type always, and the value itself only
    where it is not author text — a number (its literal, as written), true/false, null, a string that is one
    of this package's schema words (`quoting.schema_words`) or a digest; another string by its length, an
    object or array by its size."""
    from ..jsonstrict import Number
    from ..quoting import schema_words

    out: dict[str, Any] = {"type": _type_name(value)}
    if isinstance(value, Number):
        out["value"] = value.literal
    elif value is None or isinstance(value, bool):
        out["value"] = value
    elif isinstance(value, str):
        if value in schema_words() or is_digest(value):
            out["value"] = value
        else:
            out["length"] = len(value)
    elif isinstance(value, (dict, list)):
        out["size"] = len(value)
    return out
