"""The consumer conformance kit (issue #19; RFC 0019 §7 "Another consumer holds each duty in its own
repository's tests"; docs/conformance.md).

The kit is data in `conformance/consumer/`: one `git fast-import` stream per case, `cases.json` naming
each case's tag, retained state, history limit, held releases, assumed reader and expected verdict.
`runner.py` rebuilds each case's repository and runs any consumer through one command contract;
`adapter.py` is this project's own consumer (`release-check`) behind that contract; `verdict.py` holds
the neutral verdict's form and the comparison; `codes.py` says which codes are the RFC's.
"""

from .codes import RFC_NAMED, rfc_named

__all__ = ["RFC_NAMED", "rfc_named"]
