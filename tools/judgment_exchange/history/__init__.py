"""Release history: tags, upgrade keys and artifact identity (RFC 0019 §§3, 7). STUB: being written."""
