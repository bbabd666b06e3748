"""What `exchange init` writes, path by path, as bytes (RFC 0019 §2: "An Exchange is any repository in the
entry format, with a manifest a desk can read…"; issue #33 item 1; docs/init.md).

`plan` is a pure function of its values: it reads only the package's own templates
(`founding/templates/`, shipped in the wheel) and returns every path of the new catalog with its bytes; it
writes nothing (write.py does). Every value it puts into a template passes its grammar first
(grammar.py), each template's `@@NAME@@` placeholders are all filled, and no `@@` is left in any file.
"""

from __future__ import annotations

import json
import re
from importlib import resources
from typing import TYPE_CHECKING

from .. import __version__
from ..repository import zone
from . import gateref, grammar

if TYPE_CHECKING:
    from importlib.resources.abc import Traversable

EMPTY = b"[]\n"
"""manifest.json, releases.json and skips.json of a catalog with no entry, no release and no skip."""

CATALOG_TEMPLATES = {
    ".gitattributes": "gitattributes",
    ".gitignore": "gitignore",
    "README.md": "README.md",
    "CONTRIBUTING.md": "CONTRIBUTING.md",
    zone.PIN: "verifier-pin.json",
    f"{zone.ENTRIES}/README.md": "entries/README.md",
}
"""The catalog's own files from templates/catalog/ (a dot file's template is named without its dot, so the
wheel's package-data globs find it)."""

GITHUB = ".github"
CODEOWNERS = f"{GITHUB}/CODEOWNERS"
_PLACEHOLDER = re.compile(r"@@([A-Z_]+)@@")


class TemplateError(RuntimeError):
    """A template with a placeholder no value fills, or `@@` left after filling: the package's own fault."""


def _templates() -> Traversable:
    return resources.files("judgment_exchange.founding").joinpath("templates")


def fill(text: str, values: dict[str, str]) -> str:
    """`text` with every `@@NAME@@` replaced by values[NAME]; TemplateError for a name without a value or any
    `@@` left afterwards."""
    def one(match: re.Match[str]) -> str:
        if match.group(1) not in values:
            raise TemplateError(f"template placeholder @@{match.group(1)}@@ has no value")
        return values[match.group(1)]

    filled = _PLACEHOLDER.sub(one, text)
    if "@@" in filled:
        raise TemplateError("a template holds '@@' that is no placeholder")
    return filled


def _github_templates(folder: Traversable | None = None, prefix: str = GITHUB) -> list[tuple[str, str]]:
    """Every file under templates/github/ as (its path under the catalog's .github/, its text), in path order."""
    folder = folder if folder is not None else _templates().joinpath("github")
    found: list[tuple[str, str]] = []
    for item in sorted(folder.iterdir(), key=lambda i: i.name):
        if item.name.startswith(".") or item.name == "__pycache__":
            continue
        path = f"{prefix}/{item.name}"
        if item.is_dir():
            found += _github_templates(item, path)
        else:
            found.append((path, item.read_text(encoding="utf-8")))
    return found


def codeowners(owners: grammar.Owners) -> str:
    """`.github/CODEOWNERS` for `owners`: the header, then repository/zone.codeowners_rules(owners), the same
    allowlist the gate classifies a pull request's paths by."""
    head = fill(_templates().joinpath("CODEOWNERS.head").read_text(encoding="utf-8"), {"TEAM": owners.text})
    lines = [f"{pattern:<27} {owner}" if owner else pattern for pattern, owner in zone.codeowners_rules(owners.text)]
    return head + "\n".join(lines) + "\n"


def plan(name: str, owners: str, ref: str, *, released: str | None = None) -> dict[str, bytes]:
    """Every file of a new catalog named `name` (its GitHub repository's name) owned by `owners` (`@user` or
    `@org/team`), its workflows pinning the gate's action at `ref` (40-hex) — with the release's tag as the
    pin's comment when `ref` is `released`, the commit this package was built from — as {path: bytes}.
    grammar.BadValue for a value outside its grammar, before anything is planned."""
    name = grammar.name(name)
    who = grammar.owners(owners)
    ref = grammar.ref(ref)
    if released is not None:
        released = grammar.ref(released, "the package's own commit")
    values = {
        "NAME": name,
        "TEAM": who.text,
        "OWNER": who.owner,
        "URL": f"https://github.com/{who.owner}/{name}",
        "VERSION": __version__,
        "GATE_TAG": gateref.release_tag(),
        "GATE_ACTION": gateref.action_pin(ref, released),
    }
    files: dict[str, bytes] = {}
    for path, template in CATALOG_TEMPLATES.items():
        files[path] = fill(_templates().joinpath("catalog", template).read_text(encoding="utf-8"), values).encode()
    for path in ("manifest.json", "releases.json", "skips.json"):
        files[path] = EMPTY
    files[CODEOWNERS] = codeowners(who).encode()
    for path, text in _github_templates():
        files[path] = fill(text, values).encode()
    json.loads(files[zone.PIN])  # the shipped pin is one JSON document (the gate holds it to its closed form)
    return dict(sorted(files.items()))
