"""Objects read ahead in batches (issue #12; tree.ObjectStore.prefetch and expect) read exactly as
objects read one at a time: the same bytes, the same TooLarge, the same types and failures, and the
shared `cat-file --batch` process left in step for every later read."""

from __future__ import annotations

from pathlib import Path

import git
import pytest

from judgment_exchange.tree import ObjectStore, TooLarge, TreeError

from ..support.gitrepo import GitRepo


def _outcome(read):
    try:
        return read()
    except TooLarge as exc:
        return ("TooLarge", exc.path, exc.size, exc.limit)
    except TreeError as exc:
        return ("TreeError", str(exc))


def _repo(tmp_path: Path) -> tuple[GitRepo, list[str]]:
    repo = GitRepo(tmp_path / "r")
    repo.snapshot({"a.json": b"[]\n", "big.bin": bytes(range(256)) * 300, "d/e.txt": b"\0\n \n" * 10,
                   "empty": b""})
    repo.tag("v0.1.0", annotated=True)
    repo.snapshot({"a.json": b"[1]\n"})
    ids = repo.git("rev-list", "--objects", "--all").split()
    ids = [i for i in ids if len(i) == 40] + [repo.rev("refs/tags/v0.1.0")]
    return repo, ids


@pytest.mark.parametrize("fetched, limit", [(0, 0), (10, 10), (1 << 20, 1 << 20), (1 << 20, 10), (10, 1 << 20)])
def test_prefetched_objects_read_as_objects_read_one_at_a_time(tmp_path: Path, fetched: int, limit: int) -> None:
    repo, ids = _repo(tmp_path)
    missing = "0" * 40
    with git.Repo(repo.path) as handle:
        plain, ahead = ObjectStore(handle), ObjectStore(handle)
        ahead.prefetch(ids + [missing, "not an id"], fetched)
        for oid in ids + [missing]:
            for read in (lambda s: s.blob(oid, limit, "p"), lambda s: s.object_type(oid),  # noqa: B023 (called within the iteration)
                         lambda s: s.tree(oid, "p")):  # noqa: B023 (called within the iteration)
                assert _outcome(lambda: read(ahead)) == _outcome(lambda: read(plain)), oid  # noqa: B023 (called within the iteration)
        assert ahead.blob_reads == plain.blob_reads


def test_read_ahead_keeps_the_process_in_step(tmp_path: Path) -> None:
    repo, ids = _repo(tmp_path)
    with git.Repo(repo.path) as handle:
        plain = ObjectStore(handle)
        expected = {oid: _outcome(lambda: plain.blob(oid, 1 << 20, "p")) for oid in ids}  # noqa: B023 (called within the iteration)
    with git.Repo(repo.path) as handle:
        store = ObjectStore(handle)
        store.expect(ids[::2], 100, window=3)  # read ahead every other id, bounded below some sizes
        for oid in reversed(ids):  # out of the expected order, and interleaved with reads of their own
            assert _outcome(lambda: store.blob(oid, 1 << 20, "p")) == expected[oid]  # noqa: B023 (called within the iteration)
        store.prefetch(ids[:3])
        handle.git.clear_cache()  # the process is gone: what was fetched is still served, the rest re-read
        for oid in ids:
            assert _outcome(lambda: store.blob(oid, 1 << 20, "p")) == expected[oid]  # noqa: B023 (called within the iteration)
