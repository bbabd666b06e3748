"""Where a catalog's entries lie (RFC 0019 §3): `entries/<publisher>/<name>/`, with entries/README.md the one
file beside the publishers; anything else there is a stray (`catalog-stray-file`)."""

from __future__ import annotations

from ..codes.catalog import CATALOG_STRAY_FILE
from ..quoting import withheld_position
from ..refusal import Refusal
from ..tree import DIR, FILE, Tree, id_order
from .directory import entry_id

ENTRIES = "entries"
ENTRIES_NOTE = "README.md"


def entry_directories(tree: Tree) -> tuple[list[str], list[Refusal]]:
    """entries/<publisher>/<name>/ paths in id byte order, and refusals for anything else there."""
    stray: list[Refusal] = []
    root = tree.stat(ENTRIES)
    if root.kind == "missing":
        return [], []
    if root.kind != DIR:
        return [], [Refusal(CATALOG_STRAY_FILE, ENTRIES, "entries must be a directory")]
    paths = []
    publishers = tree.list(ENTRIES)
    for publisher in publishers:
        ppath = f"{ENTRIES}/{publisher.name}"
        if publisher.kind == FILE and publisher.name == ENTRIES_NOTE:
            continue
        if publisher.kind != DIR:
            stray.append(Refusal(CATALOG_STRAY_FILE, ppath, "entries/ holds only publisher directories; remove it"
                                 + withheld_position(publisher.name, [p.name for p in publishers])))
            continue
        names = tree.list(ppath)
        for name in names:
            npath = f"{ppath}/{name.name}"
            if name.kind != DIR:
                stray.append(Refusal(CATALOG_STRAY_FILE, npath, "a publisher directory holds only entry directories; "
                                     "remove it" + withheld_position(name.name, [n.name for n in names])))
            else:
                paths.append(npath)
    paths.sort(key=lambda p: id_order(entry_id(p)))
    return paths, stray
