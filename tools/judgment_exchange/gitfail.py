"""Why a git operation failed, in words for people: never an exception's class name (issue #10 item 8)."""

from __future__ import annotations

_WORDS = {
    "InvalidGitRepositoryError": "not a git repository",
    "NoSuchPathError": "no such path",
    "BadName": "no such revision",
    "BadObject": "an object the repository does not hold",
    "GitCommandError": "git could not do it",
    "GitCommandNotFound": "git is not installed",
    "RepositoryDirtyError": "the working tree has changes",
    "UnicodeDecodeError": "bytes that are not UTF-8",
    "ValueError": "a malformed or missing object",
    "TypeError": "a malformed object",
    "KeyError": "a missing object",
    "IndexError": "a missing object",
    "AssertionError": "a malformed object",
}


def reason(exc: BaseException) -> str:
    """A short phrase for a GitPython or I/O failure (`OSError`s give their strerror)."""
    if isinstance(exc, OSError) and exc.strerror:
        return exc.strerror.lower()
    for cls in type(exc).__mro__:
        if cls.__name__ in _WORDS:
            return _WORDS[cls.__name__]
    return "an unreadable repository"


def command_reason(exc: BaseException, most: int = 300) -> str:
    """What git itself said when a command failed (its last `fatal:` or `error:` line: "Could not resolve host:
    …", "repository '…' not found"), with any user name or password in a URL removed; else `reason(exc)`.
    Issue #26 item 6: a release-check of an unreachable URL gave no reason."""
    import re

    stderr = getattr(exc, "stderr", None)
    if isinstance(stderr, bytes):
        stderr = stderr.decode("utf-8", "replace")
    lines = [line.strip().removeprefix("stderr:").strip().lstrip("'") for line in (stderr or "").splitlines()]
    said = [line.split(":", 1)[1].strip() for line in lines if line.startswith(("fatal:", "error:"))]
    if not said:
        return reason(exc)
    return re.sub(r"://[^/@\s]*@", "://", said[-1].strip("'\""))[:most]
