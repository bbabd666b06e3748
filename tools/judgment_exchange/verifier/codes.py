"""Refusal and finding codes of this package, each with the section that defines it."""

CODES: dict[str, str] = {}
