"""The static site beside index.json (issue #18 item 2, issue #27; docs/browse.md, "The site"): one page
listing the entries with an introduction, search and filters (kind, direction, source kind, licence), one
page per entry with its files, what its dialect reads, its card, its fixtures and its README, each entry's
files copied beside its page (documents.py: `.json` and `.md` only, served as text), index.json and its
schema, and three static assets. Every page is a Jinja2
template with autoescape on, so every value is escaped by the template engine; the README is rendered by
markdown.render (raw HTML off, our link and image rules). Nothing is fetched from elsewhere: the pages name
only files of the site, and each carries a Content-Security-Policy (a <meta>, since a static site sends no
headers) that forbids anything else. No inline script or style.

The same release gives the same bytes: files are produced in one fixed order from the index's values, with
no time but the release's ledger date. `write` replaces a previous index's directory whole.
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
from importlib.resources import files
from pathlib import Path
from typing import Any

from jinja2 import Environment, PackageLoader, StrictUndefined
from markupsafe import Markup

from . import markdown
from .address import GitHub, forge
from .card import PARAGRAPH_CHARS
from .documents import copy_path
from .index import SCHEMA_NAME, Built, check_command, encode, page_path, schema_bytes

CSP = ("default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; "
       "base-uri 'none'; form-action 'none'")
ASSETS = ("index.js", "style.css", "icon.svg")
INDEX_READ_BOUND = 256 << 20
"""How much of an existing DIR/index.json is read to tell whether DIR holds a previous index."""


class OutRefused(Exception):
    """--out names something `write` will not replace (a bad invocation: exit 3)."""


def _environment() -> Environment:
    env = Environment(loader=PackageLoader("judgment_exchange.browse", "templates"), autoescape=True,
                      undefined=StrictUndefined, trim_blocks=True, lstrip_blocks=True, keep_trailing_newline=True)
    env.tests["withheld_value"] = lambda value: isinstance(value, dict) and set(value) == {"withheld"}
    env.filters["readme_html"] = lambda text, files=None: Markup(markdown.render(text, files))  # markdown-it escapes
    env.filters["inline_html"] = lambda text: Markup(markdown.inline(text))  # every text it writes
    env.globals["csp"] = CSP
    return env


def _words(card: dict[str, Any]) -> str:
    """The text the list's search matches: the card's shown words, its pack's id and digests and the
    digests it was checked against (each also without its `sha256:`, so a digest's first characters find
    it), lowercased (withheld values left out)."""
    values: list[Any] = [card["id"], card.get("title"), card.get("description"), card.get("author"),
                         card.get("licence"), *card.get("sourceKinds", [])]
    digests: list[Any] = list(card.get("digests", {}).values())
    pack = card.get("pack")
    if isinstance(pack, dict):
        values.append(pack.get("id"))
        digests += pack.get("digests") or []
    readme = card.get("readme")
    if isinstance(readme, dict):
        values.append(readme.get("firstParagraph"))
    for digest in digests:
        if isinstance(digest, str):
            values += [digest, digest.removeprefix("sha256:")]
    return " ".join(v for v in values if isinstance(v, str)).lower()


def _summary(card: dict[str, Any]) -> Any:
    """The card's line of text on the list: its description (cut at PARAGRAPH_CHARS), else its README's
    first paragraph; a withheld value as it is."""
    description = card.get("description")
    if isinstance(description, str):
        text = " ".join(description.split())
        return text if len(text) <= PARAGRAPH_CHARS else text[:PARAGRAPH_CHARS].rstrip() + "…"
    if description is not None:
        return description
    readme = card.get("readme")
    if isinstance(readme, dict) and "firstParagraph" in readme:
        return readme["firstParagraph"]
    return readme


def _pack_id(card: dict[str, Any]) -> str | None:
    pack = card.get("pack")
    return pack["id"] if isinstance(pack, dict) and isinstance(pack.get("id"), str) else None


def _links(release: dict[str, Any], built: Built, github: GitHub | None) -> dict[str, Any]:
    """The index's links: the documents the release holds and the other releases its ledger records, each at
    the forge when the address is a GitHub repository (documents: none without one)."""
    commit = release["commit"]
    documents = [{"path": path, "what": what, "href": github.blob(commit, path)}
                 for path, what in built.documents] if github else []
    releases = [{"tag": tag, "date": date, "page": github.release(tag) if github else None,
                 "index": github.release_index(tag) if github else None}
                for tag, date in built.releases if tag != release["tag"]]
    return {"documents": documents, "releases": releases}


def _entry_page(card: dict[str, Any], built: Built, github: GitHub | None, commit: str, path: str) -> dict[str, Any]:
    """What an entry's page shows beyond its card: its files (with the copy's address from the page and the
    forge's), what its dialect reads, and the README's links to the files copied."""
    entry_id = card["id"]
    files = [item.as_json(entry_id) | {"href": item_href(entry_id, item.path),
                                       "forge": github.blob(commit, f"{path}/{item.path}") if github else None}
             for item in built.files.get(entry_id, [])]
    folder = ({"folder": github.tree(commit, path), "folder_text": f"{path} at {commit[:12]}"}
              if github else None)
    return {"files": files, "forge": folder, "dialect": built.dialects.get(entry_id),
            "dialect_href": item_href(entry_id, "dialect.json"),
            "readme_files": {item.path: item_href(entry_id, item.path) for item in built.files.get(entry_id, [])}}


def item_href(entry_id: str, path: str) -> str:
    """A copied file's address from its entry's page (entries/ID.html): the copy is entries/ID/PATH."""
    return copy_path(entry_id, path).removeprefix("entries/")


def _choices(cards: list[dict[str, Any]], name: str) -> list[str]:
    found: set[str] = set()
    for card in cards:
        value = card.get(name)
        for item in value if isinstance(value, list) else [value]:
            if isinstance(item, str):
                found.add(item)
    return sorted(found)


def render(built: Built) -> dict[str, bytes]:
    """Every file of the site by its path, in the order they are written."""
    assert built.document is not None
    document, env = built.document, _environment()
    release = document["release"]
    listed = document["entries"]
    rows = [{"card": card, "page": page_path(card["id"]), "words": _words(card), "summary": _summary(card),
             "pack": _pack_id(card),
             "kind": card["kind"] if isinstance(card["kind"], str) else "",
             "direction": card["direction"] if isinstance(card["direction"], str) else "",
             "licence": card["licence"] if isinstance(card["licence"], str) else ""} for card in listed]
    filters = {"kind": _choices(listed, "kind"), "direction": _choices(listed, "direction"),
               "sourceKinds": _choices(listed, "sourceKinds"), "licence": _choices(listed, "licence")}
    github = forge(release.get("address"))
    common = {"release": release, "note": document["note"], "command": check_command(release)}
    out: dict[str, bytes] = {
        "index.html": env.get_template("index.html").render(
            root="", rows=rows, filters=filters, links=_links(release, built, github), **common).encode("utf-8"),
        "index.json": encode(document),
        SCHEMA_NAME: schema_bytes(),
    }
    for card in built.whole:
        path = "entries/" + card["id"].replace(".", "/", 1)  # §3: the row's path is the id split at its first dot
        out[page_path(card["id"])] = env.get_template("entry.html").render(
            root="../", card=card, **_entry_page(card, built, github, release["commit"], path),
            **common).encode("utf-8")
        for item in built.files.get(card["id"], []):
            out[copy_path(card["id"], item.path)] = item.data
    static = files("judgment_exchange.browse") / "static"
    for name in ASSETS:
        out[f"assets/{name}"] = (static / name).read_bytes()
    return out


def previous_index(path: Path) -> bool:
    """Whether `path`/index.json is an index of ours (a JSON object with an integer indexVersion and a release)."""
    candidate = path / "index.json"
    if candidate.is_symlink() or not candidate.is_file():
        return False
    try:
        with open(candidate, "rb") as handle:
            value = json.loads(handle.read(INDEX_READ_BOUND))
    except (OSError, ValueError, RecursionError):
        return False
    return (isinstance(value, dict) and type(value.get("indexVersion")) is int
            and isinstance(value.get("release"), dict) and isinstance(value.get("entries"), list))


def check_out(out: Path) -> None:
    """OutRefused unless `out` is absent, an empty directory, or a directory holding a previous index."""
    if out.is_symlink():
        raise OutRefused(f"{out}: a symbolic link; give the directory itself")
    if not out.exists():
        return
    if not out.is_dir():
        raise OutRefused(f"{out}: not a directory")
    if any(out.iterdir()) and not previous_index(out):
        raise OutRefused(f"{out}: a directory that is not empty and holds no index.json of exchange index; "
                         "give a new or empty directory (a previous index's directory is replaced whole)")


def write(site: dict[str, bytes], out: Path) -> None:
    """Write the site into `out` (check_out's rules): built whole in a new directory beside it, then put in
    its place, so a failure leaves `out` as it was. OSError when the files cannot be written."""
    check_out(out)
    parent = out.absolute().parent
    parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=".exchange-index-", dir=parent))
    try:
        for name, data in site.items():
            target = staging / name
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(data)
        for directory in sorted({p for p in staging.rglob("*") if p.is_dir()} | {staging}):
            directory.chmod(0o755)
        if out.exists():
            aside = Path(tempfile.mkdtemp(prefix=".exchange-index-old-", dir=parent))
            os.rmdir(aside)
            os.rename(out, aside)
            try:
                os.rename(staging, out)
            except OSError:
                os.rename(aside, out)
                raise
            shutil.rmtree(aside, ignore_errors=True)
        else:
            os.rename(staging, out)
    finally:
        if staging.exists():
            shutil.rmtree(staging, ignore_errors=True)
