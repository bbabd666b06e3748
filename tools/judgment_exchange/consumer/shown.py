"""An entry's author-controlled values as a reviewer is shown them (RFC 0019 §3 members; §7 review).

A value that passes its §3 grammar is shown as it is (the text report escapes control characters).
A value that fails it is never shown: it is described by type and length, as `{"withheld": reason}`.
A free text (title, description, an upgrade note) or an artifact id is shown only once the scan's named
credential shapes find none in it too (issue #16 item 4; docs/reports.md): the side of a review read
from the release being left was never gated by this run, so its values are scanned here.
"""

from __future__ import annotations

from typing import Any

from ..canon import is_digest
from ..catalog.grammar import ARTIFACT_VERSION, compatibility_problem
from ..quoting import flagged_values


def _type_name(value: Any) -> str:
    if isinstance(value, bool) or value is None:
        return "true/false" if isinstance(value, bool) else "null"
    return {dict: "an object", list: "an array", str: "a string"}.get(type(value), "a number")


def withheld(reason: str) -> dict:
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


def summary(entry: Any, row: dict) -> dict:
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
    for name, show in (("description", lambda v: text(v, 1, 4096)), ("compatibility", compatibility),
                       ("artifact", artifact)):
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
