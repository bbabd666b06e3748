"""entry.json (RFC 0019 §3, catalog/entry.py), one entry directory (catalog/directory.py) and
manifest.json (catalog/manifest.py) on arbitrary and mutated input: a pass or registered refusals."""

from __future__ import annotations

from functools import lru_cache

from hypothesis import given
from hypothesis import strategies as st

from judgment_exchange.catalog import documents as docs
from judgment_exchange.catalog.directory import check_entry_directory
from judgment_exchange.catalog.entry import MEMBERS, check_entry
from judgment_exchange.catalog.manifest import ROW_MEMBERS, check_rows, read_manifest

from . import corpus, mutate
from .memtree import MemoryTree
from .outcome import refusals_registered
from .profiles import bounded, budget
from .strategies import mutated_tree, strict_values

ENTRY = "entries/acme/vendors/entry.json"


@budget("entry")
@given(mutate.documents(corpus.entries()))
def test_entry_json_bytes_pass_or_refuse_by_registered_code(data: bytes) -> None:
    with bounded():
        read = docs.parse(docs.Read(data=data), ENTRY, docs.ENTRY_BOUND)
        if read.refusal:
            refusals_registered([read.refusal], "entry.json")
            return
        refusals_registered(check_entry(read.value, ENTRY), "entry.json")


_NAMES = list(MEMBERS) + ["dialect", "path", "digest", "dialectVersion", "formatVersion", "name", "preparationDigest",
                          "date", "runner", "runtime", "readers", "result", "id", "versions", "from", "note", "kinds"]


@budget("entry-values")
@given(st.one_of(strict_values(_NAMES),
                 st.dictionaries(st.sampled_from(_NAMES), strict_values(_NAMES, 8), max_size=20)))
def test_entry_values_pass_or_refuse_by_registered_code(value) -> None:
    with bounded():
        refusals_registered(check_entry(value, ENTRY), "entry.json")


@lru_cache(maxsize=1)
def _entries() -> list[tuple[MemoryTree, str]]:
    tree = corpus.catalog()
    return [(MemoryTree({p: f for p, f in tree.files.items() if p.startswith(root + "/")}), root)
            for root in corpus.entry_roots(tree)]


@st.composite
def _entry_directory(draw):
    base, root = draw(st.sampled_from(_entries()))
    return draw(mutated_tree(base, root, corpus.json_documents())), root


@budget("entry-directory")
@given(_entry_directory())
def test_entry_directory_passes_or_refuses_by_registered_code(given_tree) -> None:
    """A deleted, duplicated or renamed file, a changed document, a symlink or special file, a file
    over its bound or unreadable: one entry directory's checks give registered refusals and never raise."""
    tree, root = given_tree
    with bounded():
        refusals_registered(check_entry_directory(tree, root).refusals, root)


@lru_cache(maxsize=1)
def _checks():
    tree = corpus.catalog()
    return [check_entry_directory(tree, root) for root in corpus.entry_roots(tree)]


_ROW_NAMES = list(ROW_MEMBERS) + ["name", "files"]


@budget("manifest")
@given(st.one_of(mutate.documents(corpus.manifests()), mutate.mutated(corpus.manifests(), 6),
                 st.lists(strict_values(_ROW_NAMES, 10), max_size=4).map(lambda v: mutate.write(mutate.tree_of(v)))))
def test_manifest_passes_or_refuses_by_registered_code(data: bytes) -> None:
    with bounded():
        manifest = read_manifest(MemoryTree({"manifest.json": (data, False)}))
        refusals_registered(manifest.refusals, "manifest.json")
        if manifest.readable:
            refusals_registered(check_rows(manifest, _checks()), "manifest.json")
