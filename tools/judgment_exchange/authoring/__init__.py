"""The contributor's tools (RFC 0019 §3; docs/recording.md, docs/fix.md): `exchange new` (`scaffold`),
reading a Runner run export (`recording`), `exchange fixture add` (`fixture_add`), `exchange fix` (`fix`),
editing one member of a JSON document in place (`jsonedit`) and the scaffold's placeholder values
(`placeholders`). They write an entry; the gate (catalog/) judges it.
"""
