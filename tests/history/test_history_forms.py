"""A previous release's manifest and pinned entry, read in their own forms and bounds (RFC 0019 §§3, 7)."""

from __future__ import annotations

import json

import pytest

from judgment_exchange.history.forms import HistoricalFormError, read_entry, read_manifest

DIGEST = "sha256:" + "a" * 64


def _row(entry_id: str, kind: str | None = "dialect", **extra) -> dict:
    publisher, name = entry_id.split(".", 1)
    row = {"id": entry_id}
    if kind is not None:
        row["kind"] = kind
    row.update(path=f"entries/{publisher}/{name}", entryDigest=DIGEST, fixtures=[])
    row.update(extra)
    return row


def _bytes(value) -> bytes:
    return json.dumps(value).encode()


def test_empty_manifest() -> None:
    assert read_manifest(b"[]") == []


def test_version_1_and_version_2_rows() -> None:
    assert [r.id for r in read_manifest(_bytes([_row("acme.a", None), _row("acme.b", None)]))] == ["acme.a", "acme.b"]
    rows = read_manifest(_bytes([_row("acme.a", fixtures=[{"name": "one", "files": ["case.json"]}])]))
    assert rows[0].path == "entries/acme/a" and rows[0].entry_digest == DIGEST


def test_rows_at_and_over_the_bound() -> None:
    ids = [f"p.e{i:04d}" for i in range(1025)]
    assert len(read_manifest(_bytes([_row(i) for i in ids[:1024]]))) == 1024
    with pytest.raises(HistoricalFormError, match="over the bound of 1024"):
        read_manifest(_bytes([_row(i) for i in ids]))


def test_bytes_at_and_over_the_bound() -> None:
    body = b"[]"
    assert read_manifest(body + b" " * (1_048_576 - len(body))) == []
    with pytest.raises(HistoricalFormError, match="over its bound"):
        read_manifest(body + b" " * (1_048_577 - len(body)))


@pytest.mark.parametrize(
    "rows, reason",
    [
        ([_row("acme.a"), _row("acme.a")], "not after"),
        ([_row("acme.b"), _row("acme.a")], "not after"),
        ([_row("acme.a"), _row("acme.b", None)], "two row forms"),
        ([_row("acme.a", artifact={"id": "x", "version": "1.0.0"})], "outside the row form"),
        ([_row("acme.a", kind="workflow")], "kind"),
        ([_row("acme.a", entryDigest="sha256:" + "A" * 64)], "entryDigest"),
        ([_row("acme.a", dialectDigest="sha1:" + "a" * 40)], "dialectDigest"),
        ([_row("acme.a", path="entries/acme.a")], "path"),
        ([_row("acme.a", fixtures=[{"name": "one"}])], "fixtures"),
        ([{"id": "acme.a", "path": "entries/acme/a", "fixtures": []}], "lacks entryDigest"),
        ([_row("Acme.a")], "not an entry id"),
        (["acme.a"], "not an object"),
    ],
)
def test_malformed_manifests(rows, reason: str) -> None:
    with pytest.raises(HistoricalFormError, match=reason):
        read_manifest(_bytes(rows))


def _named(**changes) -> dict:
    entry = {
        "entryVersion": 3,
        "kind": "dialect",
        "id": "acme.a",
        "dialect": {"path": "dialect.json", "formatVersion": "3.0.0", "digest": DIGEST},
        "artifact": {"id": "urn:example:a", "version": "1.0.0"},
    }
    entry.update(changes)
    return entry


def test_named_entry_holds_its_pair() -> None:
    held = read_entry(_bytes(_named()))
    assert (held.entry_version, held.pair, held.dialect_digest) == (3, ("urn:example:a", "1.0.0"), DIGEST)


@pytest.mark.parametrize(
    "entry",
    [
        {"entryVersion": 1, "id": "acme.a"},
        {
            "entryVersion": 2,
            "kind": "dialect",
            "dialect": {"path": "dialect.json", "formatVersion": "3.0.0", "digest": DIGEST},
        },
        _named(dialect={"path": "dialect.json", "dialectVersion": 3, "digest": DIGEST}),
        _named(dialect="dialect.json"),
    ],
)
def test_no_pair_is_inferred(entry: dict) -> None:
    assert read_entry(_bytes(entry)).pair is None


def test_artifact_id_bounds_in_utf8_bytes() -> None:
    at_bound = "é" * 512
    assert read_entry(_bytes(_named(artifact={"id": at_bound, "version": "1.0.0"}))).pair == (at_bound, "1.0.0")
    with pytest.raises(HistoricalFormError, match="artifact/id"):
        read_entry(_bytes(_named(artifact={"id": at_bound + "x", "version": "1.0.0"})))


@pytest.mark.parametrize(
    "entry",
    [
        _named(kind="preset"),
        _named(dialect={"path": "dialect.json", "formatVersion": "3.0.0", "dialectVersion": 3, "digest": DIGEST}),
        _named(dialect={"path": "other.json", "formatVersion": "3.0.0", "digest": DIGEST}),
        _named(dialect={"path": "dialect.json", "formatVersion": "1.0.0", "digest": DIGEST}),
        _named(dialect={"path": "dialect.json", "formatVersion": "3.0.0", "digest": "sha256:abc"}),
        {k: v for k, v in _named().items() if k != "artifact"},
        _named(artifact={"id": "urn:example:a", "version": "1.0.0", "note": "x"}),
        _named(artifact={"id": "urn:example:a", "version": 1}),
        _named(artifact={"id": "", "version": "1.0.0"}),
        _named(artifact={"id": "urn:example a", "version": "1.0.0"}),
        _named(artifact={"id": "urn:example:\ta", "version": "1.0.0"}),
        _named(artifact={"id": "urn:example:\x7fa", "version": "1.0.0"}),
        _named(artifact={"id": "urn:example:a", "version": "01.0.0"}),
        _named(artifact={"id": "urn:example:a", "version": "1.0.0-rc.1"}),
        _named(artifact={"id": "urn:example:a", "version": "1.0"}),
        _named(artifact={"id": "urn:example:a", "version": "1.0.0\n"}),
    ],
)
def test_named_entry_forms_refused(entry: dict) -> None:
    with pytest.raises(HistoricalFormError):
        read_entry(_bytes(entry))


@pytest.mark.parametrize(
    "data",
    [
        b"[]", b'{"entryVersion": "3"}', b'{"entryVersion": 3.0}', b'{"entryVersion": true}',
        b"{", b'{"a":1,"a":1}', b"\xff",
    ],
)
def test_entry_not_an_object_with_an_integer_entry_version(data: bytes) -> None:
    with pytest.raises(HistoricalFormError):
        read_entry(data)


def test_entry_bound() -> None:
    body = _bytes({"entryVersion": 2})
    assert read_entry(body + b" " * (65_536 - len(body))).entry_version == 2
    with pytest.raises(HistoricalFormError, match="over its bound"):
        read_entry(body + b" " * (65_537 - len(body)))
