"""A new catalog in one command, `exchange init` (issue #33 item 1; docs/init.md).

RFC 0019 §2: "An Exchange is any repository in the entry format, with a manifest a desk can read … The same
entry format and fixtures let an installation publish a catalog of its own; publishing there requires no
upload to the organisation's catalog." `exchange init DIR --owners TEAM` writes such a repository: the
catalog's files, its owners, and workflows that run this package's gate through its action pinned by commit.

- `grammar`: the grammars of every value written into a template (TEAM, the gate's commit, the name);
- `gateref`: the commit this package was built from (`_commit.txt`) and the action's pinned `uses:` line;
- `files`: `plan(...) -> dict[str, bytes]`, every path of the new catalog and its bytes, writing nothing;
- `write`: the refusals, decided before anything is written, the files, and `git init -b main`.
"""

from __future__ import annotations

from .files import plan
from .grammar import BadValue
from .write import BadInvocation, Initialised, Refused, init

__all__ = ["init", "plan", "Initialised", "Refused", "BadInvocation", "BadValue"]
