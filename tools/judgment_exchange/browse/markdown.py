"""An entry's README as its page shows it (issue #18 item 2; docs/browse.md, "The site's safety").

The README's text is the card's (card.py: read from the checked release, cleared by the scan, control and
bidirectional characters already escaped). It is rendered by markdown-it-py, CommonMark with tables and
strikethrough, with raw HTML off (`html=False`: a tag is shown as its text) and these rules of our own:

- a link whose address is `http:` or `https:` with a host stays a link, `rel="noopener noreferrer
  nofollow"`, its address as markdown-it normalises it (percent-encoded, the host in punycode);
- a relative link to one of the entry's files the site copies (documents.py: its closed sets) is a link
  to that copy, beside the page; any other relative link is shown as its text and the file's name, with
  no address;
- any other link (`javascript:`, `data:`, `vbscript:`, `file:`, `mailto:`, a fragment, a
  protocol-relative address) is shown as its text alone;
- an image is never an `<img>`: an `http(s)` image is a link to its address, any other is its
  description and address as text;
- a table cell's alignment is a class, never a `style` attribute (the pages' Content-Security-Policy
  allows no inline style).

Every value written into an attribute or as text here goes through `escapeHtml`.

`inline` renders a card's one line of text (a description, a README's first paragraph; issue #27 item 3):
inline Markdown only — code spans, emphasis, strikethrough — with no block (a `#` stays a character), no
link (its text alone) and no image (its description in text), raw HTML off as above.
"""

from __future__ import annotations

import urllib.parse
from collections.abc import Sequence
from typing import Any, cast

from markdown_it import MarkdownIt
from markdown_it.common.utils import escapeHtml
from markdown_it.rules_core import StateCore
from markdown_it.token import Token

from ..textsafe import escaped

REL = "noopener noreferrer nofollow"
FILES = "exchange_files"
"""The render's env member naming the entry's copied files: {path inside the entry: the copy's address}."""
WEB, FILE, TEXT = "web", "file", "text"
_ALIGN = {"text-align:left": "align-left", "text-align:right": "align-right", "text-align:center": "align-center"}


def one_line(text: str) -> str:
    """A decoded address for showing: a percent-encoded control, line break or bidirectional character is
    written as its escape (textsafe.escaped, and the newline too)."""
    return escaped(text).replace("\n", "\\n")


def classify(href: str) -> tuple[str, str]:
    """What a link's (normalised) address becomes: (WEB, the address), (FILE, the entry file's name as
    text) or (TEXT, "")."""
    try:
        parts = urllib.parse.urlsplit(href)
    except ValueError:  # an unbalanced IPv6 bracket, say: not an address we can keep
        return TEXT, ""
    scheme = parts.scheme.lower()
    if scheme in ("http", "https") and parts.netloc:
        return WEB, href
    if not scheme and not parts.netloc and parts.path and not href.startswith(("#", "//")):
        path = urllib.parse.unquote(parts.path)
        while path.startswith("./"):
            path = path[2:]
        return FILE, one_line(path)
    return TEXT, ""


def _mark_links(state: StateCore) -> None:
    """A core rule after inline parsing: each link_open and its link_close get the rule that renders them
    (token.meta["exchange"]), and each table cell's alignment becomes a class."""
    for block in state.tokens:
        if block.type in ("th_open", "td_open") and block.attrs.get("style") is not None:
            style = str(block.attrs.pop("style"))
            if style in _ALIGN:
                block.attrSet("class", _ALIGN[style])
        if block.type != "inline" or not block.children:
            continue
        opened: list[Token] = []
        for token in block.children:
            if token.type == "link_open":
                token.meta["exchange"] = classify(str(token.attrGet("href") or ""))
                opened.append(token)
            elif token.type == "link_close" and opened:
                token.meta["exchange"] = opened.pop().meta["exchange"]


def _copy(env: Any, value: str) -> str | None:
    """The address of the site's copy of the entry's file `value` (the render's env: FILES), or None."""
    files = env.get(FILES) if isinstance(env, dict) else None
    return files.get(value) if isinstance(files, dict) else None


def _link_open(self: Any, tokens: Sequence[Token], idx: int, options: Any, env: Any) -> str:
    how, value = tokens[idx].meta.get("exchange", (TEXT, ""))
    if how == WEB:
        return f'<a href="{escapeHtml(value)}" rel="{REL}">'
    if how == FILE:
        copy = _copy(env, value)
        if copy is not None:
            return f'<a class="entry-file" href="{escapeHtml(copy)}">'
        return '<span class="entry-file">'
    return ""


def _link_close(self: Any, tokens: Sequence[Token], idx: int, options: Any, env: Any) -> str:
    how, value = tokens[idx].meta.get("exchange", (TEXT, ""))
    if how == WEB:
        return "</a>"
    if how == FILE:
        if _copy(env, value) is not None:
            return f'</a> <span class="file-name">({escapeHtml(value)})</span>'
        return (f'</span> <span class="file-name" title="not a file of the entry this site copies">'
                f"({escapeHtml(value)})</span>")
    return ""


def _image(self: Any, tokens: Sequence[Token], idx: int, options: Any, env: Any) -> str:
    token = tokens[idx]
    alt = self.renderInlineAsText(token.children or [], options, env)
    src = str(token.attrGet("src") or "")
    how, value = classify(src)
    label = f"image: {alt}" if alt else "image"
    if how == WEB:
        return (f'<span class="image">[{escapeHtml(label)}] <a href="{escapeHtml(value)}" rel="{REL}">'
                f"{escapeHtml(value)}</a></span>")
    shown = value if how == FILE else one_line(urllib.parse.unquote(src))
    return f'<span class="image">[{escapeHtml(label)}] ({escapeHtml(shown)}, not loaded)</span>'


def _raw_html(self: Any, tokens: Sequence[Token], idx: int, options: Any, env: Any) -> str:
    """Raw HTML is off, so the parser makes no such token; were one made, it is shown as its text."""
    return escapeHtml(tokens[idx].content)


def renderer() -> MarkdownIt:
    """A markdown-it-py renderer with raw HTML off and the link and image rules above."""
    md = MarkdownIt("commonmark", {"html": False, "linkify": False, "typographer": False})
    md.enable(["table", "strikethrough"])
    # markdown-it-py's way to admit every link is to replace validateLink on the instance (a method to mypy)
    md.validateLink = lambda url: True  # type: ignore[method-assign]  # every link a token: the rules above decide
    md.core.ruler.push("exchange_links", _mark_links)
    md.add_render_rule("link_open", _link_open)
    md.add_render_rule("link_close", _link_close)
    md.add_render_rule("image", _image)
    md.add_render_rule("html_block", _raw_html)
    md.add_render_rule("html_inline", _raw_html)
    return md


def _nothing(self: Any, tokens: Sequence[Token], idx: int, options: Any, env: Any) -> str:
    return ""


def _image_text(self: Any, tokens: Sequence[Token], idx: int, options: Any, env: Any) -> str:
    alt = self.renderInlineAsText(tokens[idx].children or [], options, env)
    return escapeHtml(f"[image: {alt}]" if alt else "[image]")


def inline_renderer() -> MarkdownIt:
    """The card's renderer: inline rules only, links as their text, images as their description."""
    md = MarkdownIt("commonmark", {"html": False, "linkify": False, "typographer": False})
    md.enable(["strikethrough"])
    md.validateLink = lambda url: True  # type: ignore[method-assign]  # as in renderer() above
    md.add_render_rule("link_open", _nothing)
    md.add_render_rule("link_close", _nothing)
    md.add_render_rule("image", _image_text)
    md.add_render_rule("html_inline", _raw_html)
    md.add_render_rule("softbreak", lambda self, tokens, idx, options, env: " ")
    md.add_render_rule("hardbreak", lambda self, tokens, idx, options, env: " ")
    return md


_RENDERER = renderer()
_INLINE = inline_renderer()


def render(text: str, files: dict[str, str] | None = None) -> str:
    """The README's HTML (a fragment), by the rules above; `files` maps each of the entry's copied files
    (its path inside the entry) to the copy's address from the page."""
    return cast(str, _RENDERER.render(text, {FILES: dict(files or {})}))  # markdown-it-py's render returns Any


def inline(text: str) -> str:
    """A card's line of text as HTML: inline Markdown only (code, emphasis), no link, image or block."""
    return cast(str, _INLINE.renderInline(text))
