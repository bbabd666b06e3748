"""The release ledger, releases.json: one closed row per release, append-only (docs/releasing.md, issue #10).

Pure functions from bytes to rows and back. A row is {tag, manifestDigest, commit, previous, date}:
the release tag (§3's grammar), sha256 over the release's manifest.json bytes, the commit the release
was checked at (the release commit's first parent), the previous release's tagged commit (null for the
first row) and the UTC date the row was written. Rows are in strictly increasing tag order.
"""

from __future__ import annotations

import datetime
import json
import re
from dataclasses import dataclass
from functools import cached_property

from .. import jsonstrict
from ..catalog.grammar import release_key

LEDGER = "releases.json"
LEDGER_MAX_BYTES = 1 << 20
MEMBERS = ("tag", "manifestDigest", "commit", "previous", "date")

_COMMIT = re.compile(r"[0-9a-f]{40}")
_DIGEST = re.compile(r"sha256:[0-9a-f]{64}")
_DATE = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")


class LedgerFormError(Exception):
    """releases.json that is not a JSON array of closed rows in increasing tag order."""


@dataclass(frozen=True)
class LedgerRow:
    """One release as the ledger records it."""

    tag: str
    manifest_digest: str
    commit: str
    previous: str | None
    date: str

    @cached_property
    def version(self) -> tuple[int, int, int]:
        key = release_key(self.tag)
        assert key is not None  # read_ledger admits only tags in the grammar
        return key

    def as_json(self) -> dict[str, object]:
        return {"tag": self.tag, "manifestDigest": self.manifest_digest, "commit": self.commit,
                "previous": self.previous, "date": self.date}


def _date(value: object) -> bool:
    if not isinstance(value, str) or not _DATE.fullmatch(value):
        return False
    try:
        datetime.date.fromisoformat(value)
    except ValueError:
        return False
    return True


def _row(index: int, item: object) -> LedgerRow:
    where = f"row {index + 1}"
    if not isinstance(item, dict):
        raise LedgerFormError(f"{where} is not an object")
    if set(item) != set(MEMBERS):
        raise LedgerFormError(f"{where} does not have exactly the members {', '.join(MEMBERS)}")
    tag = item["tag"]
    if not isinstance(tag, str) or release_key(tag) is None:
        raise LedgerFormError(f"{where}: tag is not a release tag vMAJOR.MINOR.PATCH")
    if not isinstance(item["manifestDigest"], str) or not _DIGEST.fullmatch(item["manifestDigest"]):
        raise LedgerFormError(f"{where} ({tag}): manifestDigest is not sha256: and 64 lowercase hex digits")
    if not isinstance(item["commit"], str) or not _COMMIT.fullmatch(item["commit"]):
        raise LedgerFormError(f"{where} ({tag}): commit is not a full 40-hex commit id")
    previous = item["previous"]
    if previous is not None and (not isinstance(previous, str) or not _COMMIT.fullmatch(previous)):
        raise LedgerFormError(f"{where} ({tag}): previous is not null or a full 40-hex commit id")
    if not _date(item["date"]):
        raise LedgerFormError(f"{where} ({tag}): date is not a calendar date YYYY-MM-DD")
    return LedgerRow(tag, item["manifestDigest"], item["commit"], previous, item["date"])


def _row_once(index: int, item: object, seen: dict[object, LedgerRow]) -> LedgerRow:
    """`_row`, each closed row of plain members checked once across ledgers (`seen`, keyed by its members:
    a ledger is its previous ledger with a row appended, so every earlier row repeats)."""
    if not isinstance(item, dict) or not all(isinstance(v, (str, type(None))) for v in item.values()):
        return _row(index, item)
    key = tuple(item.items())
    row = seen.get(key)
    if row is None:
        row = seen[key] = _row(index, item)
    return row


def read_ledger(data: bytes, seen: dict[object, LedgerRow] | None = None) -> list[LedgerRow]:
    """The ledger's rows, or LedgerFormError: strict JSON (§1 reading), closed rows, increasing tags.
    `seen` (optional) keeps the rows already checked, by their members, across the ledgers of one check,
    and by their bytes: a ledger is then first read a row at a time (`_by_rows`)."""
    if seen is not None:
        rows = _by_rows(data, seen)
        if rows is not None:
            return rows
    try:
        value = jsonstrict.loads(data, jsonstrict.Bounds(max_bytes=LEDGER_MAX_BYTES))
    except jsonstrict.JsonRefusal as exc:
        raise LedgerFormError(f"releases.json is not strict JSON within 1 MiB ({exc.detail})") from None
    if not isinstance(value, list):
        raise LedgerFormError("releases.json is not a JSON array")
    if seen is None:
        rows = [_row(index, item) for index, item in enumerate(value)]
    else:
        rows = [_row_once(index, item, seen) for index, item in enumerate(value)]
    for index, (before, after) in enumerate(zip(rows, rows[1:], strict=False), 2):
        if after.version <= before.version:
            raise LedgerFormError(f"row {index} ({after.tag}) is not above row {index - 1} ({before.tag}) in tag order")
    return rows


def _by_rows(data: bytes, seen: dict[object, LedgerRow]) -> list[LedgerRow] | None:
    """The ledger read as `[` row `,` row ... `]`, each row's bytes read strictly on their own and checked
    once across ledgers (`seen`, by its bytes; issue #20: main's ledger at each release is the last one
    with a row appended, so all but that row were read before); None (read it whole, which says what is
    wrong) unless every part is a closed row alone and the rows' tags increase. Sound as the manifest's
    reading by rows is (history/forms.py `_by_rows`): a part that is one complete strict value cannot
    end inside a string or a nested value, so the cuts were the array's commas, and the whole is that
    array, within the byte bound and one level deeper than its rows."""
    from .forms import _BETWEEN, _SAMPLE_BYTES, _core, _separators

    if len(data) > LEDGER_MAX_BYTES:
        return None
    span = _core(data)
    if span is None:
        return None
    lo, hi = span
    separators = _separators(_BETWEEN.findall(data, lo, min(hi, lo + _SAMPLE_BYTES)))
    core = data[lo:hi]
    parts = core.split(b"}" + separators[0] + b"{") if separators else [core]
    rows: list[LedgerRow] = []
    for part in parts:
        key = b"{" + part + b"}"
        row = seen.get(key)
        if row is None:
            try:
                item = jsonstrict.loads(key, _PART)
                if not isinstance(item, dict):
                    return None
                row = seen[key] = _row(len(rows), item)
            except (jsonstrict.JsonRefusal, LedgerFormError):
                return None
        rows.append(row)
    for before, after in zip(rows, rows[1:], strict=False):
        if after.version <= before.version:
            return None
    return rows


_PART = jsonstrict.Bounds(max_bytes=LEDGER_MAX_BYTES, max_depth=63)  # one level below the array


def render(rows: list[LedgerRow]) -> bytes:
    """The ledger's bytes as `exchange release` writes them: an indented JSON array, one final newline."""
    if not rows:
        return b"[]\n"
    return (json.dumps([r.as_json() for r in rows], indent=2) + "\n").encode("ascii")
