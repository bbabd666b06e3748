"""The Judgment Exchange catalog gate (RFC 0019) and its dialect tools (RFC 0018)."""

__version__ = "0.2.0"
