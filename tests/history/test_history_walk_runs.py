"""The history walk by runs (issue #20) gives exactly what the plain readings give: manifests read a
publisher's segment at a time against the last manifest's (forms `_by_segments`, `_known_beside`),
ledgers read a row at a time (ledger `_by_rows`), facts gathered as spans of runs (walk `History.facts`),
the latest release of each entry (upgrade `latest_released`), tags dereferenced with packed-refs read
once (tags `_Packed`), objects streamed over the one `cat-file --batch` process (tree.ObjectStore
`expect`, `size`), trees read in C (tree `_entries`) and a full hex id resolved by the store (GitTree).
Each faster path is held to the plain one over generated histories, layouts and damaged inputs."""

from __future__ import annotations

import gc
import json
import random
from pathlib import Path

import git
import pytest

from judgment_exchange.catalog.grammar import release_key
from judgment_exchange.gitfail import reason
from judgment_exchange.history import ObjectStore, check_history, list_releases
from judgment_exchange.history.forms import HistoricalFormError, read_manifest, read_manifest_runs
from judgment_exchange.history.ledger import LedgerFormError, read_ledger
from judgment_exchange.history.model import Facts
from judgment_exchange.history.tags import _Packed
from judgment_exchange.history.upgrade import latest_released
from judgment_exchange.history.walk import Walk
from judgment_exchange.tree import GitTree, ReleaseTree, TreeError

from ..support.gitrepo import GitRepo
from .test_history_walk_equivalence import _entry, _reference, _row, _sha
from .test_object_prefetch import _outcome as _read_outcome  # a read's value, or its refusal

PUBLISHERS = ("acme", "beta", "gamma", "delta")


def _whole(data: bytes) -> object:
    try:
        return read_manifest(data)
    except HistoricalFormError as exc:
        return str(exc)


def _by_runs(data: bytes, seen: dict, segments: dict, interned: dict) -> object:
    try:
        runs = read_manifest_runs(data, seen, segments, interned)
    except HistoricalFormError as exc:
        return str(exc)
    for run in runs:  # each run one publisher's consecutive rows, with their names
        assert run.rows and {row.publisher for row in run.rows} == {run.publisher}
        assert run.names == tuple(row.name for row in run.rows)
    return [row for run in runs for row in run.rows]


def _rows_text(rows: list[dict], layout: int) -> bytes:
    if layout == 0:
        return (json.dumps(rows, indent=2) + "\n").encode()
    if layout == 1:
        return json.dumps(rows).encode()
    return (json.dumps(rows, indent=4) + "\n").encode()


def _catalog(rng: random.Random, count: int) -> dict[str, bytes]:
    ids = sorted(f"{p}.e{n:02d}" for p in PUBLISHERS for n in range(count))
    return {i: _entry(i, f"{i} 0") for i in ids}


def _mutate(rng: random.Random, entries: dict[str, bytes], history: list[dict[str, bytes]], step: int) -> str:
    """One release's change: an entry edited, added, removed, or put back as an earlier release had it."""
    choice = rng.random()
    ids = sorted(entries)
    if choice < 0.45:
        entry_id = rng.choice(ids)
        entries[entry_id] = _entry(entry_id, f"{entry_id} {step}",
                                   dialect=b"d" if rng.random() < 0.8 else b"other %d" % step)
        return "edit"
    if choice < 0.6:
        publisher = rng.choice(PUBLISHERS)
        entry_id = f"{publisher}.{rng.choice('abcz')}{step:02d}"  # before, among and after the others
        entries[entry_id] = _entry(entry_id)
        return "add"
    if choice < 0.75 and len(entries) > 3:
        del entries[rng.choice(ids)]
        return "remove"
    if history:
        entries.clear()
        entries.update(rng.choice(history))  # an earlier release's rows again: segments met before
        return "revert"
    return "none"


def _manifest_rows(entries: dict[str, bytes], rng: random.Random, damage: bool) -> list:
    rows = [_row(i, entries[i]) for i in sorted(entries)]
    if damage:
        kind = rng.randrange(6)
        at = rng.randrange(len(rows))
        if kind == 0:
            rows[at] = {**rows[at], "entryDigest": _sha(b"not the entry")}  # a pin that does not hold
        elif kind == 1:
            rows[at] = {k: v for k, v in rows[at].items() if k != "kind"}  # two row forms
        elif kind == 2 and len(rows) > 1:
            rows[at], rows[at - 1] = rows[at - 1], rows[at]  # out of order
        elif kind == 3:
            rows[at] = {**rows[at], "path": rows[at]["path"] + '}, {"id": "beta.'}  # a separator in a string
        elif kind == 4:
            rows[at] = {**rows[at], "fixtures": [{"name": "f", "files": []}, {"name": "g", "files": ["x"]}]}
        else:
            rows.insert(at, dict(rows[at]))  # a row twice
    return rows


def _history(tmp_path: Path, seed: int, releases: int = 18, count: int = 6) -> GitRepo:
    rng = random.Random(seed)
    repo = GitRepo(tmp_path / f"r{seed}")
    entries = _catalog(rng, count)
    kept: list[dict[str, bytes]] = []
    for step in range(releases):
        if step:
            _mutate(rng, entries, kept, step)
        kept.append(dict(entries))
        rows = _manifest_rows(entries, rng, damage=rng.random() < 0.2)
        files = {f"entries/{i.split('.', 1)[0]}/{i.split('.', 1)[1]}/entry.json": data for i, data in entries.items()}
        if rng.random() < 0.1:  # an entry.json that is no JSON, or missing, under a row that pins it
            victim = rng.choice(sorted(files))
            if rng.random() < 0.5:
                files[victim] = b"{not json"
            else:
                del files[victim]
        layout = 0 if rng.random() < 0.8 else rng.randrange(3)
        manifest = _rows_text(rows, layout)
        if rng.random() < 0.05:
            manifest = manifest[:-3]  # not JSON
        repo.snapshot({"manifest.json": manifest, **files}, f"release {step}")
        repo.tag(f"v0.{step + 1}.0", annotated=step % 2 == 1)
    return repo


def _facts_in_order(facts: Facts) -> tuple:
    """The facts with every order they carry: keys, digests, tags and (id, release) lists."""
    return (list(facts.entries.items()),
            [(pair, list(digests.items())) for pair, digests in facts.pairs.items()])


def _latest_plain(facts: Facts) -> dict[str, tuple[str, str]]:
    """`latest_released` as it read before issue #20: every (fact, release) in turn."""
    latest: dict[str, tuple[tuple[int, int, int], str, str]] = {}
    for (entry_id, entry_digest), tags in facts.entries.items():
        for tag in tags:
            key = release_key(tag)
            if key is not None and (entry_id not in latest or key > latest[entry_id][0]):
                latest[entry_id] = (key, tag, entry_digest)
    return {entry_id: (tag, digest) for entry_id, (_, tag, digest) in latest.items()}


@pytest.mark.parametrize("seed", range(4))
def test_generated_histories_walk_as_the_per_release_reading(tmp_path: Path, seed: int) -> None:
    repo = _history(tmp_path, seed)
    with git.Repo(repo.path) as handle:
        store = ObjectStore(handle)
        releases = list_releases(handle, store).releases
        orders = [releases, releases[::-1], random.Random(seed).sample(releases, len(releases)),
                  releases[::2] + releases[1::2]]
        walk = Walk(store)  # one walk for every order: its caches carry across, as across releases
        for order in orders:
            history = walk.read(order)
            rows, refusals, read_all = _reference(ObjectStore(handle), order)
            assert history.rows == rows and history.refusals == refusals and history.manifests_read == read_all
            assert _facts_in_order(history.facts) == _facts_in_order(Facts.of(rows))
            assert latest_released(history.facts) == _latest_plain(Facts.of(rows))
    details = " ".join(r.detail for r in refusals)
    assert "differs from the row's entryDigest" in details or "malformed" in details or "missing" in details


def test_manifest_sequences_read_by_runs_as_read_whole() -> None:
    """Byte-level changes to a sequence of manifests: rows edited, added and removed at a segment's
    start, middle and end, a publisher gone and back, a publisher's marker inside a string, bytes
    broken inside a segment, layouts changed; each manifest twice, and the sequence again reversed."""
    rng = random.Random(7)
    entries = _catalog(rng, 5)
    texts, kept = [], []
    for step in range(40):
        if step:
            _mutate(rng, entries, kept, step)
        kept.append(dict(entries))
        data = _rows_text(_manifest_rows(entries, rng, damage=rng.random() < 0.25), 0 if rng.random() < 0.85 else 1)
        if rng.random() < 0.1:
            at = rng.randrange(len(data))
            data = data[:at] + rng.choice([b"}", b"{", b",", b'"', b"\\", b"\xff", b"  "]) + data[at + 1:]
        if rng.random() < 0.05:
            data = data.replace(b'"id": "gamma.', b'"id": "gamma.', 1).replace(b'"title"', b'"gamma.x"', 1)
        texts.append(data)
    texts.append(json.dumps([_row("acme.a", b"a")], indent=2).encode())  # one row, one publisher
    texts.append(b"[]")
    seen: dict = {}
    segments: dict = {}
    interned: dict = {}
    for data in texts + texts[::-1] + texts:
        assert _by_runs(data, seen, segments, interned) == _whole(data), data[:120]
        assert _by_runs(data, seen, segments, interned) == _whole(data)  # the fast path, met again
        try:
            assert read_manifest(data, seen, segments) == read_manifest(data)
        except HistoricalFormError as exc:
            assert str(exc) == _whole(data)
    assert any(isinstance(key, bytes) for key in segments)


def test_a_segment_changed_at_each_place_keeps_the_rows_of_the_parts_it_shares() -> None:
    """One publisher's rows changed at the first, a middle and the last part, a part added and removed
    there, and the segment shrunk to one part and grown back: `_known_beside` against the last piece."""
    ids = [f"{p}.e{n}" for p in ("acme", "beta", "gamma") for n in range(5)]
    base = {i: _entry(i) for i in ids}

    def text(entries: dict[str, bytes]) -> bytes:
        return (json.dumps([_row(i, entries[i]) for i in sorted(entries)], indent=2) + "\n").encode()

    variants = [dict(base)]
    for target in ("beta.e0", "beta.e2", "beta.e4"):
        variants.append({**base, target: _entry(target, "changed")})
    variants.append({**base, "beta.e1a": _entry("beta.e1a")})
    variants.append({k: v for k, v in base.items() if k != "beta.e3"})
    variants.append({k: v for k, v in base.items() if not k.startswith("beta.") or k == "beta.e2"})
    variants.append(dict(base))
    variants.append({**base, "beta.e0": _entry("beta.e0", "x"), "beta.e4": _entry("beta.e4", "y")})
    seen: dict = {}
    segments: dict = {}
    interned: dict = {}
    for entries in variants + variants[::-1]:
        data = text(entries)
        assert _by_runs(data, seen, segments, interned) == _whole(data)


def _ledger_row(n: int, **change) -> dict:
    value = {"tag": f"v0.{n}.0", "manifestDigest": _sha(b"m%d" % n), "commit": f"{n:040x}",
             "previous": None if n == 1 else f"{n - 1:040x}", "date": "2026-10-14"}
    return {**value, **change}


def _ledger_outcome(data: bytes, seen):
    try:
        return read_ledger(data, seen)
    except LedgerFormError as exc:
        return str(exc)


def test_ledgers_read_by_rows_as_read_alone() -> None:
    """Ledgers as `exchange release` writes them (each the last with a row appended), other layouts,
    and damaged ones: every reading by rows gives the rows or the refusal of the whole reading."""
    grown = [(json.dumps([_ledger_row(n) for n in range(1, k)], indent=2) + "\n").encode() for k in range(1, 9)]
    rows = [_ledger_row(1), _ledger_row(2)]
    odd = [
        json.dumps(rows).encode(), json.dumps(rows, indent=4).encode(), json.dumps(rows, indent="\t").encode(),
        json.dumps(rows, indent=2).replace("\n", "\r\n").encode(), b"\n " + json.dumps(rows, indent=2).encode(),
        json.dumps([_ledger_row(1, tag='v0.1.0"}, {"tag": "v0.9.0'), _ledger_row(2)], indent=2).encode(),
        json.dumps([_ledger_row(1), {**_ledger_row(2), "extra": {"a": [1]}}], indent=2).encode(),
        json.dumps([_ledger_row(1), _ledger_row(2)], indent=2).replace('"date"', '"tag": "v0.2.0", "date"', 1).encode(),
        json.dumps([_ledger_row(1), _ledger_row(2, date="2026-02-30")], indent=2).encode(),
        json.dumps([_ledger_row(2), _ledger_row(1)], indent=2).encode(),
        json.dumps([_ledger_row(1), _ledger_row(1)], indent=2).encode(),
        json.dumps([_ledger_row(1, commit=5)], indent=2).encode(),
        json.dumps([_ledger_row(1, previous="\ud800")], indent=2, ensure_ascii=True).encode(),
        json.dumps(rows, indent=2).encode() + b" []", json.dumps(rows, indent=2).encode()[:-1],
        b"\xef\xbb\xbf" + json.dumps(rows, indent=2).encode(), b"[" + b"[" * 70 + b"]" * 70 + b"]",
        json.dumps([_ledger_row(1), [1, 2]], indent=2).encode(), b"[{}]", b"[1]", b"{}", b"[]", b"[ ]",
        json.dumps(rows, indent=2).encode().replace(b"},\n  {", b"},\n  {\n  },\n  {"),
        json.dumps(rows, indent=2).encode().replace(b'"v0.2.0"', b'"v0.2.0\\u0000"'),
        json.dumps([_ledger_row(1)], indent=2).encode().replace(b'"v0.1.0"', b"1e999"),
    ]
    seen: dict = {}
    for data in grown + odd + grown[::-1] + odd:
        assert _ledger_outcome(data, seen) == _ledger_outcome(data, None), data[:100]
    assert any(isinstance(key, bytes) for key in seen)  # rows kept by their bytes
    assert read_ledger(grown[-1], seen)[0] is read_ledger(grown[-2], seen)[0]  # a row read once, one object


def _refs_repo(tmp_path: Path) -> GitRepo:
    repo = GitRepo(tmp_path / "refs")
    first = repo.snapshot({"a": b"1"})
    repo.tag("v0.1.0")
    repo.tag("v0.2.0", annotated=True)
    second = repo.snapshot({"a": b"2"})
    repo.tag("v0.3.0")
    repo.git("pack-refs", "--all")
    repo.tag("v0.4.0")  # loose only
    repo.git("tag", "-f", "v0.1.0", second)  # loose and packed: the loose file wins
    repo.write_ref("v0.5.0", b"ref: refs/tags/v0.3.0\n")  # symbolic, loose
    repo.write_ref("v0.6.0", b"not a reference\n")
    repo.write_ref("v0.7.0", b"ref: refs/tags/v9.9.9\n")  # to nothing
    packed = repo.git_dir / "packed-refs"
    packed.write_text(packed.read_text() + f"{first} refs/tags/v0.8.0\n{second} refs/tags/v0.8.0\n"
                      f"ref: refs/tags/v0.9.0\n")
    return repo


def test_tags_dereferenced_with_packed_refs_read_once_as_by_gitpython(tmp_path: Path) -> None:
    from git.refs.symbolic import SymbolicReference

    repo = _refs_repo(tmp_path)
    paths = [f"refs/tags/v0.{n}.0" for n in range(1, 11)] + ["refs/tags/../../HEAD", "refs/heads/main"]

    def outcome(read):
        try:
            return read()
        except (ValueError, OSError) as exc:
            return type(exc).__name__, str(exc)

    with git.Repo(repo.path) as handle:
        packed = _Packed(handle)
        for path in paths:
            assert outcome(lambda: packed.named(path)) == outcome(  # noqa: B023 (called within the iteration)
                lambda: SymbolicReference.dereference_recursive(handle, path)), path  # noqa: B023 (called within the iteration)


def test_a_damaged_packed_refs_file_is_gitpythons_to_read(tmp_path: Path) -> None:
    from git.refs.symbolic import SymbolicReference

    repo = GitRepo(tmp_path / "damaged")
    repo.snapshot({"a": b"1"})
    repo.tag("v0.1.0")
    repo.git("pack-refs", "--all")
    (repo.git_dir / "packed-refs").write_text("# pack-refs with: nothing known\n" + "0" * 40 + " refs/tags/v0.1.0\n")
    with git.Repo(repo.path) as handle:
        with pytest.raises(TypeError):
            SymbolicReference.dereference_recursive(handle, "refs/tags/v0.1.0")
        with pytest.raises(TypeError):
            _Packed(handle).named("refs/tags/v0.1.0")


def _objects_repo(tmp_path: Path) -> tuple[GitRepo, list[str]]:
    repo = GitRepo(tmp_path / "objects")
    for n in range(6):
        repo.snapshot({"m.json": b"[%d]\n" % n * (n * 4000 + 1), "d/e": b"e%d" % n, "big": bytes(range(256)) * 300})
        repo.tag(f"v0.{n}.0", annotated=n % 2 == 0)
    ids = [i for i in repo.git("rev-list", "--objects", "--all").split() if len(i) == 40]
    return repo, ids + [repo.rev("refs/tags/v0.0.0")]




@pytest.mark.parametrize("window", [1, 2, 5])
def test_streamed_reads_interleaved_with_every_other_read_stay_in_step(tmp_path: Path, window: int) -> None:
    """Expected objects streamed a few ahead while other reads go through the same process: trees,
    commits and tags, sizes, batches, reads out of the expected order, an object missing, a limit under
    some sizes, and the process stopped in the middle; every read gives what a plain store gives."""
    repo, ids = _objects_repo(tmp_path)
    missing = "0" * 40
    with git.Repo(repo.path) as handle:
        plain = ObjectStore(handle)
        expected = {oid: (_read_outcome(lambda: plain.blob(oid, 5000, "p")), _read_outcome(lambda: plain.size(oid)),  # noqa: B023 (called within the iteration)
                          _read_outcome(lambda: plain.object_type(oid)), _read_outcome(lambda: plain.tree(oid, "p")))  # noqa: B023 (called within the iteration)
                    for oid in ids + [missing]}
    rng = random.Random(window)
    with git.Repo(repo.path) as handle:
        store = ObjectStore(handle)
        order = ids + [missing]
        store.expect(order[::2] + [missing], 3000, window=window)
        for step, oid in enumerate(rng.sample(order, len(order))):
            got = (_read_outcome(lambda: store.blob(oid, 5000, "p")), _read_outcome(lambda: store.size(oid)),  # noqa: B023 (called within the iteration)
                   _read_outcome(lambda: store.object_type(oid)), _read_outcome(lambda: store.tree(oid, "p")))  # noqa: B023 (called within the iteration)
            assert got == expected[oid], oid
            if step % 5 == 2:
                store.prefetch(rng.sample(order, 4))
            if step == 7:
                handle.git.clear_cache()  # the process is gone mid-stream: what is owed is lost, not misread
        assert not store._owed


def test_full_hex_ids_name_the_commit_gitpython_names(tmp_path: Path) -> None:
    repo = GitRepo(tmp_path / "revs")
    commit = repo.snapshot({"a": b"1", "d/b": b"2"})
    repo.tag("v0.1.0", annotated=True)
    tag = repo.rev("refs/tags/v0.1.0")
    tree, blob = repo.rev("HEAD^{tree}"), repo.rev("HEAD:a")
    repo.git("tag", "-a", "-m", "of a tree", "v0.2.0", tree)
    revs = [commit, tag, tree, blob, repo.rev("refs/tags/v0.2.0"), "0" * 40, commit.upper(), commit[:12], "main",
            "HEAD~3", "f" * 40]
    with git.Repo(repo.path) as handle:
        for rev in revs:
            try:
                got: object = GitTree(handle, rev).commit
            except TreeError as exc:
                got = str(exc)
            assert got == _plain_git_tree(handle, rev), rev


def _plain_git_tree(handle, rev: str) -> object:
    """What GitTree gave before issue #20: GitPython resolves the revision, then the tree is opened."""
    try:
        commit = handle.commit(rev).hexsha
    except Exception as exc:  # noqa: BLE001 - GitPython's own words are the reference
        return f"{rev}: not a commit of {handle} ({reason(exc)})"
    try:
        return ReleaseTree(ObjectStore(handle), commit, f"{rev}@{commit[:12]}").commit
    except TreeError as exc:
        return str(exc)


def test_the_collector_is_paused_only_while_history_is_read(tmp_path: Path) -> None:
    repo = GitRepo(tmp_path / "gc")
    repo.snapshot({"manifest.json": b"[]\n"})
    repo.tag("v0.1.0")
    assert gc.isenabled()
    check_history(str(repo.path), [])
    assert gc.isenabled()
    gc.disable()
    try:
        check_history(str(repo.path), [])
        assert not gc.isenabled()
    finally:
        gc.enable()


def test_a_store_settled_leaves_the_shared_process_in_step_for_another(tmp_path: Path) -> None:
    """Objects read ahead by one store and not all read: once it settles, another store on the same
    repository handle (the same `cat-file` process) reads every object as a store of its own would."""
    repo, ids = _objects_repo(tmp_path)
    with git.Repo(repo.path) as handle:
        expected = {oid: _read_outcome(lambda: ObjectStore(handle).blob(oid, 1 << 20, "p")) for oid in ids}  # noqa: B023 (called within the iteration)
    with git.Repo(repo.path) as handle:
        first = ObjectStore(handle)
        first.expect(ids, 1 << 20, window=6)
        assert _read_outcome(lambda: first.blob(ids[0], 1 << 20, "p")) == expected[ids[0]]  # and the next five
        assert first._owed
        first.settle()
        assert not first._owed
        second = ObjectStore(handle)
        for oid in ids:
            assert _read_outcome(lambda: second.blob(oid, 1 << 20, "p")) == expected[oid]  # noqa: B023 (called within the iteration)
        for oid in ids[1:]:  # and the first store still serves what it read ahead
            assert _read_outcome(lambda: first.blob(oid, 1 << 20, "p")) == expected[oid]  # noqa: B023 (called within the iteration)


@pytest.mark.parametrize("seed", range(2))
def test_entries_the_caller_read_give_the_history_of_entries_read_again(tmp_path: Path, seed: int) -> None:
    """check_history given the strict readings of entry.json bytes it will meet (the checked tree's, as the
    gate gives them) returns exactly what it returns reading every pinned entry itself."""
    from judgment_exchange import jsonstrict
    from judgment_exchange.canon import digest
    from judgment_exchange.history.model import CurrentEntry

    repo = _history(tmp_path, seed + 10, releases=10)
    read: dict = {}
    for path in (repo.path / "entries").rglob("entry.json"):
        data = path.read_bytes()
        try:
            value = jsonstrict.loads(data, jsonstrict.Bounds(max_bytes=1 << 16))
        except jsonstrict.JsonRefusal:
            continue
        read[digest(data)] = value
    assert read
    current = [CurrentEntry.from_entry(f"entries/{k.split('.', 1)[0]}/{k.split('.', 1)[1]}", json.loads(v))
               for k, v in _catalog(random.Random(0), 2).items()]
    assert check_history(str(repo.path), current, entries_read=read) == check_history(str(repo.path), current)
