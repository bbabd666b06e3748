"""The catalog's public address (issue #27 item 1; docs/browse.md, "The catalog's address"): what
`exchange index --address URL` accepts, and the forge links built from it.

The address is where a visitor fetches the catalog from, so the command the site tells them to run,
`exchange release-check ADDRESS TAG`, is complete. It is a maintainer's value (release.yml passes the
repository's URL from the workflow's context), yet it is shown on every page, so it is held to a narrow
form before anything is written: `https:` only, a host, no user information (no credentials in it), no
query or fragment, only letters, digits, `-._~:/` and `%XX` escapes (so the command is copied as it is,
with no quoting), at most ADDRESS_CHARS characters, and no shape the scan refuses. A refused address is never repeated
(it may hold what it should not).

A GitHub address (`https://github.com/OWNER/REPO`, optionally `.git` or a final `/`) also gives links to
the forge: each file as published at the release commit (`/blob/COMMIT/PATH`), the release's page and the
`index.json` its release carries (`/releases/tag/TAG`, `/releases/download/TAG/index.json`). Any other
host gives no forge link: the site's own copies of the files still serve every document.
"""

from __future__ import annotations

import os
import re
import urllib.parse
from dataclasses import dataclass

ADDRESS_CHARS = 512
"""The longest address accepted: a forge's repository URL is far shorter (GitHub's owner is at most 39
characters and a repository's name 100)."""

_URI_CHARS = re.compile(r"(?:[A-Za-z0-9\-._~:/]|%[0-9A-Fa-f]{2})*")
_HOST = re.compile(r"[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*")
_GITHUB = re.compile(r"/(?P<owner>[A-Za-z0-9](?:[A-Za-z0-9-]{0,38}))/(?P<repo>[A-Za-z0-9._-]{1,100}?)(?:\.git)?/?")


class AddressRefused(ValueError):
    """--address is not a public https address of the accepted form (a bad invocation: exit 3)."""


def address_problem(value: str) -> str | None:
    """Why `value` is not an address `exchange index` shows, or None. The reason never repeats the value."""
    if not 1 <= len(value) <= ADDRESS_CHARS:
        return f"an address of 1 to {ADDRESS_CHARS} characters"
    if not value.startswith("https://"):
        return "an https:// address (no other scheme)"
    if "@" in value:
        return "an address without user information (no credentials, no '@')"
    if "?" in value or "#" in value:
        return "an address without a query or a fragment"
    if _URI_CHARS.fullmatch(value) is None:
        return "an address of letters, digits, '-', '.', '_', '~', ':', '/' and %XX escapes only"
    try:
        parts = urllib.parse.urlsplit(value)
        port = parts.port
    except ValueError:
        return "an address whose host and port can be read"
    host = parts.hostname or ""
    if _HOST.fullmatch(host) is None or len(host) > 253:
        return "an address with a host name"
    if port is not None and not 1 <= port <= 65535:
        return "an address whose port is 1 to 65535"
    from ..quoting import flagged_values

    if flagged_values([value]):
        return "an address holding no shape the scan refuses (a credential)"
    return None


def checked_address(value: str) -> str:
    """`value` when it is an address of the form above, else AddressRefused saying what it must be."""
    problem = address_problem(value)
    if problem is not None:
        raise AddressRefused(f"give the catalog's public address: {problem}, e.g. https://github.com/OWNER/REPO")
    return value


@dataclass(frozen=True)
class GitHub:
    """A repository on github.com and the links to what a release holds there."""

    repository: str
    """https://github.com/OWNER/REPO, without `.git` or a final `/`."""

    def blob(self, commit: str, path: str) -> str:
        """The file `path` (repository-relative) as the commit holds it."""
        return f"{self.repository}/blob/{commit}/{_quoted(path)}"

    def tree(self, commit: str, path: str) -> str:
        """The directory `path` as the commit holds it."""
        return f"{self.repository}/tree/{commit}/{_quoted(path)}"

    def release(self, tag: str) -> str:
        return f"{self.repository}/releases/tag/{_quoted(tag)}"

    def release_index(self, tag: str) -> str:
        """The index.json the release workflow attaches to the release `tag`."""
        return f"{self.repository}/releases/download/{_quoted(tag)}/index.json"


def _quoted(path: str) -> str:
    return urllib.parse.quote(path, safe="/")


def forge(address: str | None) -> GitHub | None:
    """The GitHub repository an accepted address names, or None (no address, another host, or a path that
    is not OWNER/REPO)."""
    if address is None or address_problem(address) is not None:
        return None
    parts = urllib.parse.urlsplit(address)
    if (parts.hostname or "").lower() != "github.com" or parts.port is not None:
        return None
    match = _GITHUB.fullmatch(parts.path)
    if match is None or match["repo"] in (".", ".."):
        return None
    return GitHub(f"https://github.com/{match['owner']}/{match['repo']}")


_SCP_LIKE = re.compile(r"[^/]*:")
"""git's scp-like remote, `[user@]host:path`: a colon before the first slash (git's own rule)."""


def is_local(location: str) -> bool:
    """Whether `location` names this machine's files (issue #34 item 8): a `file:` URL, an existing path, or
    any location git reads as a path — not a URL with a scheme (`https://…`, `ssh://…`) and not scp-like
    (`host:path`). A site built from one would publish this machine's directory, so `exchange index` writes
    it only with `--address` (the public address replaces it) or `--local` (a preview)."""
    if urllib.parse.urlsplit(location).scheme.lower() == "file" or os.path.exists(location):
        return True
    return "://" not in location and not _SCP_LIKE.match(location)
