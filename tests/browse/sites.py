"""Shared by the index's tests: a git identity for building catalogs at module scope, `exchange index` run
as a user runs it, and reading a built site back (every file, by its path)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from judgment_exchange.cli import main as exchange

IDENTITY = {"GIT_CONFIG_GLOBAL": os.devnull, "GIT_CONFIG_NOSYSTEM": "1", "GIT_AUTHOR_NAME": "Browse Test",
            "GIT_AUTHOR_EMAIL": "browse-test@example.invalid", "GIT_COMMITTER_NAME": "Browse Test",
            "GIT_COMMITTER_EMAIL": "browse-test@example.invalid"}
CSP_META = ('<meta http-equiv="Content-Security-Policy" content="default-src &#39;none&#39;; '
            "script-src &#39;self&#39;; style-src &#39;self&#39;; img-src &#39;self&#39;; connect-src &#39;self&#39;; "
            "base-uri &#39;none&#39;; "
            'form-action &#39;none&#39;">')
"""The pages' policy as the brief states it, written by hand (autoescape writes ' as &#39; in an attribute)."""


@contextmanager
def git_identity() -> Iterator[None]:
    """The environment releases.py's catalogs are committed under, restored afterwards (module fixtures)."""
    keys = (*IDENTITY, "GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE")
    saved = {k: os.environ.get(k) for k in keys}
    for key in ("GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE"):
        os.environ.pop(key, None)
    os.environ.update(IDENTITY)
    try:
        yield
    finally:
        for key, value in saved.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value


def index(location: Path, tag: str, out: Path, *extra: str, local: bool = True) -> int:
    """`exchange index LOCATION TAG --out DIR`, its exit status. LOCATION is a local directory here, so with no
    `--address` the run is a preview and passes `--local` (issue #34 item 8), unless `local` is False."""
    preview = ["--local"] if local and "--address" not in extra else []
    return exchange(["index", str(location), tag, "--out", str(out), *preview, *extra])


def tree(site: Path) -> dict[str, bytes]:
    """Every file under `site` by its relative path."""
    return {p.relative_to(site).as_posix(): p.read_bytes() for p in sorted(site.rglob("*")) if p.is_file()}
