"""The maintainer's release (RFC 0019 §7; docs/releasing.md): `exchange release TAG` (release.py), which runs
the gate on HEAD's committed tree before it writes the ledger row and the tag, and the release workflow's own
checks of a pushed tag and its notes (published.py). Above the gate, which it calls (issue #29)."""
