"""The static site beside index.json (issue #18 item 2; docs/browse.md, "The site"): one page listing the
entries with search and filters (kind, direction, source kind, licence), one page per entry with its card,
its fixtures and its README, index.json and its schema, and two static assets. Every page is a Jinja2
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
from .index import SCHEMA_NAME, Built, encode, page_path, schema_bytes

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
    env.filters["readme_html"] = lambda text: Markup(markdown.render(text))  # markdown-it escapes every text
    env.globals["csp"] = CSP
    return env


def _words(card: dict) -> str:
    """The text the list's search matches: the card's shown words, lowercased (withheld values left out)."""
    values: list[Any] = [card["id"], card.get("title"), card.get("description"), card.get("author"),
                         card.get("licence"), *card.get("sourceKinds", [])]
    pack = card.get("pack")
    if isinstance(pack, dict):
        values.append(pack.get("id"))
    readme = card.get("readme")
    if isinstance(readme, dict):
        values.append(readme.get("firstParagraph"))
    return " ".join(v for v in values if isinstance(v, str)).lower()


def _choices(cards: list[dict], name: str) -> list[str]:
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
    rows = [{"card": card, "page": page_path(card["id"]), "words": _words(card),
             "kind": card["kind"] if isinstance(card["kind"], str) else "",
             "direction": card["direction"] if isinstance(card["direction"], str) else "",
             "licence": card["licence"] if isinstance(card["licence"], str) else ""} for card in listed]
    filters = {"kind": _choices(listed, "kind"), "direction": _choices(listed, "direction"),
               "sourceKinds": _choices(listed, "sourceKinds"), "licence": _choices(listed, "licence")}
    out: dict[str, bytes] = {
        "index.html": env.get_template("index.html").render(
            root="", release=release, note=document["note"], rows=rows, filters=filters).encode("utf-8"),
        "index.json": encode(document),
        SCHEMA_NAME: schema_bytes(),
    }
    for card in built.whole:
        out[page_path(card["id"])] = env.get_template("entry.html").render(
            root="../", release=release, note=document["note"], card=card).encode("utf-8")
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
