"""Permission denied, as the system says it, for a test that runs as root (which ignores mode bits)."""

from __future__ import annotations

import builtins
import os
from pathlib import Path


def deny(monkeypatch, path: Path) -> None:
    """Permission denied on `path` (root ignores mode bits): every open of it, and a listing of it, fails
    with EACCES as the system would say it."""
    target = os.path.abspath(path)

    def refused(given) -> bool:
        return isinstance(given, (str, bytes, os.PathLike)) and os.path.abspath(os.fsdecode(given)) == target

    def guard(real):
        def call(given=".", *args, **kwargs):
            if refused(given):
                raise PermissionError(13, "Permission denied", os.fsdecode(given))
            return real(given, *args, **kwargs)
        return call

    monkeypatch.setattr(os, "open", guard(os.open))
    monkeypatch.setattr(builtins, "open", guard(builtins.open))
    monkeypatch.setattr(os, "scandir", guard(os.scandir))
