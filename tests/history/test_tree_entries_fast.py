"""Tree objects read fast (issue #12; tree.py `_entries`, one regex match per entry) give exactly what
the byte-by-byte reading (`_entries_exact`, the strict reader of issue #10 item 3) gives: the same
entries, or the same refusal — on this repository's own trees and on generated, malformed ones."""

from __future__ import annotations

import subprocess
from pathlib import Path

import git
from hypothesis import given, settings
from hypothesis import strategies as st

from judgment_exchange.tree import TreeError, _entries, _entries_exact

ROOT = Path(__file__).resolve().parents[2]


def _outcome(reader, data: bytes):
    try:
        return reader(data)
    except (TreeError, ValueError) as exc:  # ObjectStore.tree turns either into "tree object ... is malformed"
        return type(exc).__name__, str(exc)


def test_this_repositorys_trees_read_the_same() -> None:
    def run(*args: str) -> str:
        return subprocess.run(["git", "-C", str(ROOT), *args], capture_output=True, text=True, check=True).stdout

    trees = [run("rev-parse", "HEAD^{tree}").strip()]
    trees += [line.split()[2] for line in run("ls-tree", "-r", "-t", "HEAD").splitlines() if line.split()[1] == "tree"]
    assert len(trees) > 20
    with git.Repo(ROOT) as repo:
        for oid in trees:
            data = repo.odb.stream(bytes.fromhex(oid)).read()
            assert _entries(data) == _entries_exact(data)


_MODES = st.sampled_from([b"40000", b"100644", b"100755", b"120000", b"160000", b"100664", b"040000", b"100600",
                          b"7", b"", b"4000a"])
_NAMES = st.sampled_from([b"a", b"entry.json", b".", b"..", b"", b"a/b", b"\xff\xfe", b"a b", b"fixtures"])
_IDS = st.binary(min_size=20, max_size=20) | st.sampled_from([b"\0" * 20, b" " * 20, b"\0 100644 x\0" + b"y" * 9])


@st.composite
def _trees(draw) -> bytes:
    entries = draw(st.lists(st.tuples(_MODES, _NAMES, _IDS), max_size=6))
    data = b"".join(mode + b" " + name + b"\0" + oid for mode, name, oid in entries)
    cut = draw(st.integers(0, 3))
    return data[:-cut] if cut else data


@settings(max_examples=600, deadline=None)
@given(_trees())
def test_generated_trees_read_the_same(data: bytes) -> None:
    assert _outcome(_entries, data) == _outcome(_entries_exact, data)


def test_near_misses_read_the_same() -> None:
    oid = bytes(range(20))
    for data in (b"40000 a\0" + oid, b"040000 a\0" + oid, b"40000 a\0" + oid + b"100644 a\0" + oid,
                 b"100644 .\0" + oid, b"100644 a/b\0" + oid, b"100644 a\0" + oid[:19], b"x" + b"100644 a\0" + oid,
                 b"100644 a\0" + oid + b"junk", b""):
        assert _outcome(_entries, data) == _outcome(_entries_exact, data), data
