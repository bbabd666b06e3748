"""The gate: the Exchange's test over a whole catalog (RFC 0019 §4), the one pipeline above the parts it runs
(issue #29; docs/architecture.md): the entry format and manifest of §3 (catalog/), the dialect form (dialect/),
replay through the preparation verifier with its skips (verifier/, repository/skips.py and pin.py), the scans
(scan/), history and artifact identity (history/), and under `--base` the pull request's rules (repository/).

`check_catalog(tree, GateOptions(...)) -> Report` is its one entry point (pipeline.py); the CLI, the consumer's
release-check and `exchange release` call it. replay.py runs an entry's fixtures, identity.py calls history,
pool.py checks entries in a pool of processes where it pays.
"""

from .pipeline import PIN_BASE, PIN_CHANGE, CatalogUnreadable, GateOptions, check_catalog  # noqa: F401 (the entry point)
