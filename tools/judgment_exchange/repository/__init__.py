"""The organisation's repository rules (RFC 0019 §§4, 6, Compatibility; docs/trust.md): what a pull
request may change (`pullrequest`), a DCO sign-off on every commit (`signoff`), the reviewed skip
acknowledgements (`skips`), the pinned verifier (`pin`) and the one release command (`release`).

The gate of RFC 0019 §§3–4 is `catalog/`; these rules are the repository's, applied around it.
"""
