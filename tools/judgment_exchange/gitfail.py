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
