"""Strategies shared by the property tests: strict-reader values and mutations of a file tree."""

from __future__ import annotations

import copy

from hypothesis import strategies as st

from judgment_exchange.jsonstrict import Number

from . import mutate
from .memtree import MemoryTree

_LITERALS = ["0", "-0", "1", "3", "-1", "2", "7", "300", "9007199254740991", "9007199254740992", "1.5", "1e2", "1E400"]


def strict_values(names: list[str], max_leaves: int = 25):
    """Values as jsonstrict gives them (dicts, lists, str, Number, bools, None), member names drawn
    mostly from `names`, so the readers' deeper rules are reached."""
    keys = st.one_of(st.sampled_from(names), st.text(max_size=8)) if names else st.text(max_size=8)
    leaves = st.one_of(st.none(), st.booleans(), st.builds(Number, st.sampled_from(_LITERALS)),
                       st.sampled_from(names + mutate.ODD_TEXT) if names else st.sampled_from(mutate.ODD_TEXT),
                       st.text(max_size=16))
    return st.recursive(leaves, lambda inner: st.one_of(st.lists(inner, max_size=4),
                                                        st.dictionaries(keys, inner, max_size=6)),
                        max_leaves=max_leaves)


# Text an author might put in a file: the shapes the scans look for, and the ones they must not choke on.
FRAGMENTS = [
    "-----BEGIN RSA PRIVATE KEY-----\nMIIEpAIBAAKCAQEA7s5n0kq1bYy3Y7v1Vt0yQ2F\n-----END RSA PRIVATE KEY-----\n",
    "-----BEGIN OPENSSH PRIVATE KEY-----", "AKIAIOSFODNN7EXAMPLE", "ghp_" + "a1B2" * 9, "xoxb-1234-5678-abcdefghijkl",
    "sk_live_" + "4eC39HqLyjWDarjtT1zdp7dc", "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJl",
    "LS0tLS1CRUdJTiBQUklWQVRFIEtFWS0tLS0t", "/home/alice/.ssh/id_rsa", "C:\\Users\\bob\\secrets.txt",
    "PATH=/usr/bin:/home/x/bin", "root:x:0:0:root:/root:/bin/bash", "#!/bin/sh\n", "<script>alert(1)</script>",
    "[link](../../../etc)", "[a](http://example.com/x)", "[b](fixtures/missing)", "![img](data:image/png;base64,AAAA)",
    "\x00", "\r\n", "\t", "\ufeff", "\u202e", "😀", "\\u0000", "password = hunter2", "api_key: " + "Zx9" * 12,
    "a" * 5000, "a" * 70000, "https://user:pass@example.com/", "file:///etc/passwd", "~/.aws/credentials",
]

ODD_NAMES = ["x.py", "run.sh", "a b", ".env", "id_rsa", "README.md", "entry.json", "dialect.json", "case.json",
             "fixtures", "binding.json", "sources.json", "record.jsonl", "\udcff", "caf\u00e9", "x" * 255,
             "archive.zip", "image.png", "-", "manifest.json", "UPPER.JSON", "new"]
TREE_OPS = ("json", "text", "bytes", "delete", "duplicate", "rename", "rename-directory", "kind", "directory",
            "executable", "huge", "unreadable", "add")
HUGE_SIZES = [65_537, 131_073, 1_048_577, 8_388_609, 16_777_217]


def _join(directory: str, name: str) -> str:
    return f"{directory}/{name}" if directory else name


def _parent(path: str) -> str:
    return path.rsplit("/", 1)[0] if "/" in path else ""


def _pick(draw, items):
    return items[draw(st.integers(0, len(items) - 1))]


def mutate_file_tree(draw, tree: MemoryTree, under: str, json_corpus: list) -> None:
    """One mutation of the files under `under` (in place): a JSON document mutated, text inserted,
    bytes broken, a file deleted, duplicated or renamed, a directory renamed, a file turned into a
    symlink, special file or directory, a run bit set, a file made over its bound or unreadable, a
    file added."""
    op = draw(st.sampled_from(TREE_OPS))
    files = sorted(p for p in tree.files if p.startswith(under))
    if not files:
        op = "add"
    path = _pick(draw, files) if files else _join(under, "new")
    if op == "json":
        data = tree.files[path][0]
        try:
            root = mutate.read(data)
        except (ValueError, UnicodeDecodeError, RecursionError):  # an earlier mutation's nesting, say
            root = None
        if root is None or mutate.depth(root) > 64:
            root = _pick(draw, json_corpus)
        root = copy.deepcopy(root)
        for _ in range(draw(st.integers(1, 3))):
            root = mutate.mutate_tree(draw, root, _pick(draw, json_corpus))
        tree.files[path] = (mutate.write(root), tree.files[path][1])
    elif op == "text":
        data = tree.files[path][0]
        at = draw(st.integers(0, len(data)))
        fragment = draw(st.one_of(st.sampled_from(FRAGMENTS), st.text(max_size=60)))
        tree.files[path] = (data[:at] + fragment.encode("utf-8", "surrogatepass") + data[at:], tree.files[path][1])
    elif op == "bytes":
        tree.files[path] = (mutate.mutate_bytes(draw, tree.files[path][0]), tree.files[path][1])
    elif op == "delete":
        del tree.files[path]
    elif op in ("duplicate", "rename"):
        directory = _parent(path)
        name = draw(st.one_of(st.sampled_from(ODD_NAMES), st.text(min_size=1, max_size=12)))
        target = _join(directory, name if "/" not in name and name not in (".", "..") else "copy")
        if target not in tree.files and not any(p.startswith(target + "/") for p in tree.files):
            tree.files[target] = tree.files[path]
            if op == "rename":
                del tree.files[path]
    elif op == "rename-directory":
        parts = path[len(under):].strip("/").split("/")
        if len(parts) > 1:
            old = _join(under, "/".join(parts[:-1]))
            new = _join(_parent(old), draw(st.sampled_from(ODD_NAMES)))
            for p in [p for p in tree.files if p.startswith(old + "/")]:
                if new + p[len(old):] not in tree.files:
                    tree.files[new + p[len(old):]] = tree.files.pop(p)
    elif op == "kind":
        del tree.files[path]
        tree.kinds[path] = draw(st.sampled_from(["symlink", "special"]))
    elif op == "directory":
        data = tree.files.pop(path)
        tree.files[path + "/" + draw(st.sampled_from(["x", "README.md", "case.json"]))] = data
    elif op == "executable":
        data, executable = tree.files[path]
        tree.files[path] = (data, not executable)
    elif op == "huge":
        size = draw(st.sampled_from(HUGE_SIZES))
        tree.files[path] = (b" " * size if size <= 1_048_577 else tree.files[path][0], tree.files[path][1])
        if size > 1_048_577:
            tree.sizes[path] = size
    elif op == "unreadable":
        tree.unreadable.add(path)
    else:
        directory = _pick(draw, sorted({_parent(p) for p in files} | {under}))
        name = draw(st.one_of(st.sampled_from(ODD_NAMES), st.text(min_size=1, max_size=12).filter(
            lambda n: "/" not in n and n not in (".", ".."))))
        target = _join(directory, name)
        if target not in tree.files and not any(p.startswith(target + "/") for p in tree.files):
            tree.files[target] = (draw(st.one_of(st.binary(max_size=64), st.sampled_from(
                [f.encode("utf-8", "surrogatepass") for f in FRAGMENTS]))), draw(st.booleans()))


@st.composite
def mutated_tree(draw, base: MemoryTree, under: str, json_corpus: list, max_ops: int = 3) -> MemoryTree:
    tree = base.copy()
    for _ in range(draw(st.integers(0, max_ops))):
        mutate_file_tree(draw, tree, under, json_corpus)
    return tree
