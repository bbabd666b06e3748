"""History by content (issue #12 item 4): the walk that judges each row, path and blob once across
releases gives exactly what a straightforward per-release reading gives (RFC 0019 §§3, 7)."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import git

from judgment_exchange.canon import digest
from judgment_exchange.history import HistoricalRow, ObjectStore, ReleaseTree, check_history, list_releases, read_history
from judgment_exchange.history.codes import ARTIFACT_HISTORY_INVALID
from judgment_exchange.history.forms import (
    ENTRY_MAX_BYTES, MANIFEST_MAX_BYTES, HistoricalFormError, read_entry, read_manifest,
)
from judgment_exchange.refusal import Refusal
from judgment_exchange.tree import TooLarge, TreeError

from ..support.gitrepo import GitRepo


def _sha(data: bytes) -> str:
    return "sha256:" + hashlib.sha256(data).hexdigest()


def _entry(entry_id: str, note: str = "", dialect: bytes = b"d") -> bytes:
    value = {"entryVersion": 3, "kind": "dialect", "id": entry_id, "title": note or entry_id,
             "dialect": {"path": "dialect.json", "formatVersion": "3.0.0", "digest": _sha(dialect)},
             "artifact": {"id": f"urn:example:{entry_id}", "version": "1.0.0"}}
    return (json.dumps(value, indent=2) + "\n").encode()


def _row(entry_id: str, entry: bytes | str) -> dict:
    publisher, name = entry_id.split(".", 1)
    pinned = entry if isinstance(entry, str) else _sha(entry)
    return {"id": entry_id, "kind": "dialect", "path": f"entries/{publisher}/{name}", "entryDigest": pinned,
            "fixtures": [{"name": "f", "files": ["input.json"]}]}


def _release(repo: GitRepo, tag: str, rows: list, files: dict[str, bytes]) -> None:
    repo.snapshot({"manifest.json": (json.dumps(rows, indent=2) + "\n").encode(), **files})
    repo.tag(tag)


def _reference(store: ObjectStore, releases) -> tuple[list[HistoricalRow], list[Refusal], bool]:
    """The simple reading: each release's manifest and each row's pinned entry read, parsed and
    checked anew, with no cache of any kind."""
    rows, refusals, read_all = [], [], True
    for release in releases:
        where = f"{release.tag} ({release.commit[:12]})"
        tree = ReleaseTree(store, release.commit, release.tag)
        blob = tree.blob_id("manifest.json")
        if blob is None:
            read_all = False
            refusals.append(Refusal(ARTIFACT_HISTORY_INVALID, "manifest.json", f"{where}: no manifest.json file"))
            continue
        try:
            manifest = read_manifest(store.blob(blob, MANIFEST_MAX_BYTES, "manifest.json"))
        except HistoricalFormError as exc:
            read_all = False
            refusals.append(Refusal(ARTIFACT_HISTORY_INVALID, "manifest.json", f"{where}: manifest.json: {exc}"))
            continue
        for row in manifest:
            path = f"{row.path}/entry.json"
            held, failure = None, None
            entry_blob = tree.blob_id(path)
            if entry_blob is None:
                failure = "the pinned entry.json is missing"
            else:
                try:
                    data = store.blob(entry_blob, ENTRY_MAX_BYTES, path)
                except (TooLarge, TreeError) as exc:  # not met by this repository
                    raise AssertionError(exc) from exc
                if digest(data) != row.entry_digest:
                    failure = (f"the pinned entry.json's digest {digest(data)} differs from the row's entryDigest "
                               f"{row.entry_digest}")
                else:
                    try:
                        held = read_entry(data)
                    except HistoricalFormError as exc:
                        failure = f"the pinned entry.json is malformed: {exc}"
            pair, dialect = (held.pair, held.dialect_digest) if held is not None else (None, None)
            rows.append(HistoricalRow(release.tag, row.id, row.entry_digest, pair, dialect))
            if failure is not None:
                refusals.append(Refusal(ARTIFACT_HISTORY_INVALID, path, f"{where}: {failure}", row.id))
    return rows, refusals, read_all


def _history_with_repeats_and_changes(tmp_path: Path) -> GitRepo:
    repo = GitRepo(tmp_path / "r")
    a, b, c = _entry("acme.a"), _entry("acme.b"), _entry("beta.c")
    files = {"entries/acme/a/entry.json": a, "entries/acme/b/entry.json": b, "entries/beta/c/entry.json": c}
    _release(repo, "v0.1.0", [_row("acme.a", a), _row("acme.b", b), _row("beta.c", c)], files)
    b2 = _entry("acme.b", "b, second")
    files["entries/acme/b/entry.json"] = b2  # b changed; a and c repeat unchanged, rows and blobs
    _release(repo, "v0.2.0", [_row("acme.a", a), _row("acme.b", b2), _row("beta.c", c),
                              _row("beta.d", _sha(b"not the entry"))], {**files, "entries/beta/d/entry.json": b"{}\n"})
    c2 = _entry("beta.c", dialect=b"another dialect")  # the pair published with another digest
    files["entries/beta/c/entry.json"] = c2
    files["entries/gamma/e/entry.json"] = b"{not json"
    _release(repo, "v0.3.0", [_row("acme.a", a), _row("acme.b", b2), _row("beta.c", c2),
                              _row("beta.f", _sha(b"missing")), _row("gamma.e", b"{not json")], files)
    a2 = _entry("acme.a", "a, changed without its row")
    files["entries/acme/a/entry.json"] = a2  # the same row text now pins a blob of another digest
    _release(repo, "v0.4.0", [_row("acme.a", a), _row("acme.b", b2), _row("beta.c", c2)], files)
    bad = [_row("acme.a", a2), {**_row("acme.b", b2), "entryDigest": 5}]  # a row holding a number
    _release(repo, "v0.5.0", bad, files)
    files["entries/acme/a"] = b"a file where the entry directory should be"
    del files["entries/acme/a/entry.json"]
    _release(repo, "v0.6.0", [_row("acme.a", a2), _row("acme.b", b2), _row("beta.c", c2)], files)
    files["entries/acme/a/entry.json"] = a
    del files["entries/acme/a"]
    _release(repo, "v0.7.0", [_row("acme.a", a), _row("acme.b", b2), _row("beta.c", c2)], files)  # as v0.4.0's rows
    return repo


def test_walk_by_content_equals_the_per_release_reading(tmp_path: Path) -> None:
    repo = _history_with_repeats_and_changes(tmp_path)
    with git.Repo(repo.path) as handle:
        store = ObjectStore(handle)
        releases = list_releases(handle, store).releases
        history = read_history(store, releases)
        rows, refusals, read_all = _reference(ObjectStore(handle), releases)
    assert len(releases) == 7
    assert history.rows == rows and history.refusals == refusals and history.manifests_read == read_all
    # the repository meets each kind of failure, so the comparison covers them (not an empty list)
    details = [r.detail for r in refusals]
    assert read_all is False and sum("manifest.json: row 1 (acme.b): entryDigest" in d for d in details) == 1
    assert sum("differs from the row's entryDigest" in d for d in details) == 2  # beta.d, and acme.a in v0.4.0
    assert sum("is missing" in d for d in details) == 2  # beta.f; acme.a under a file in v0.6.0
    assert sum("is malformed" in d for d in details) == 1 and len(rows) == 3 + 4 + 5 + 3 + 3 + 3


def test_check_history_over_the_walk_gives_refusals_and_notes_of_the_reference(tmp_path: Path) -> None:
    repo = _history_with_repeats_and_changes(tmp_path)
    result = check_history(str(repo.path), [])
    with git.Repo(repo.path) as handle:
        store = ObjectStore(handle)
        _, refusals, _ = _reference(store, list_releases(handle, store).releases)
    assert [r for r in result.refusals if r.code == ARTIFACT_HISTORY_INVALID] == refusals
    assert result.notes == []


def _outcome(data: bytes, seen) -> object:
    try:
        return read_manifest(data, seen)
    except HistoricalFormError as exc:
        return str(exc)


def test_manifest_read_by_rows_equals_the_whole_reading() -> None:
    """Each manifest read with the shared row cache gives the rows or the refusal the whole reading
    gives: cuts inside strings and nested values, repeated and reordered rows, bounds, other layouts."""
    a, b = _row("acme.a", b"a"), _row("acme.b", b"b")
    text = lambda rows, **kw: json.dumps(rows, **kw).encode()  # noqa: E731
    tricky = {**a, "path": "entries/acme/a}, {\"id\": 1}"}
    nested = {**a, "fixtures": [{"name": "x", "files": []}, {"name": "y", "files": []}]}
    manifests = [
        text([a, b], indent=2), text([a, b]), text([a, b], indent=2) + b"\n", b"\n " + text([a, b], indent=2),
        text([b, a], indent=2), text([a, a], indent=2), text([a]), text([]), b"[ ]",
        text([tricky, b], indent=2), text([nested, b], indent=2), text([nested, b]),
        text([a, {**b, "kind": "preset"}]), text([a, {k: v for k, v in b.items() if k != "kind"}]),
        text([a, b]).replace(b"}, {", b"},\f{"), text([a, b]).replace(b"}, {", b"} , , {"),
        b"\xef\xbb\xbf" + text([a, b]), text([a, b]) + b" []", text([a, b])[:-1], text([a, {"id": b"x".hex()}]),
        text([a, b]).replace(b'"acme.b"', b'"acme.\\ud800"'), text([a, {**b, "entryDigest": 5}]).replace(b"5", b"5" * 200),
        b"[" + b"[" * 63 + b"]" * 63 + b"]", text([{**a, "x": [[[[1]]]]}]),
        text([a, b]).replace(b'"id": "acme.a"', b'"id": "acme.a", "id": "acme.a"'),
    ]
    seen: dict = {}
    for data in manifests + manifests:  # twice: the second pass meets every row already seen
        assert _outcome(data, seen) == _outcome(data, None), data
    assert seen  # the cache was used


def test_a_row_cut_many_times_is_read_whole_with_the_same_result() -> None:
    """The attack: a row whose fixtures hold many `}, {` cuts, to make the by-row reading join and
    re-read ever longer parts; past the join bound the manifest is read whole, with the same rows."""
    many = {**_row("acme.a", b"a"), "fixtures": [{"name": f"f{i}", "files": []} for i in range(200)]}
    data = json.dumps([many, _row("acme.b", b"b")], indent=2).encode()
    seen: dict = {}
    assert _outcome(data, seen) == _outcome(data, None) == read_manifest(data)
    assert [r.id for r in read_manifest(data, seen)] == ["acme.a", "acme.b"]
    few = json.dumps([{**many, "fixtures": many["fixtures"][:3]}, _row("acme.b", b"b")], indent=2).encode()
    assert _outcome(few, seen) == _outcome(few, None)
    assert any(json.loads(k).get("fixtures") == many["fixtures"][:3] for k in seen if seen[k][0] is not None)
