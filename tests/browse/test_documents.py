"""Issue #27 on the site, without a browser: `exchange index --address URL` (the address shown wherever the
site names the catalog, the release-check command complete; a bad address exit 3 in one line, never
repeated), every file of every entry linked from its page and served byte for byte beside its sha256 (held
to `git show` and hashlib, never to the code under test), forge links at the release commit for a GitHub
address and none for another host, the dialect's sources, reads and admitted classes as a table, cards that
use `description` with inline Markdown as text, and a search that knows pack and entry digests."""

from __future__ import annotations

import hashlib
import html.parser
import json
import subprocess
from pathlib import Path

import pytest

from .releases import released_twice, rows, show
from .sites import git_identity, index, tree

ADDRESS = "https://github.com/acme/judgment-exchange"
OTHER_HOST = "https://codeberg.org/acme/judgment-exchange"


@pytest.fixture(scope="module")
def catalog(tmp_path_factory) -> Path:
    with git_identity():
        root = tmp_path_factory.mktemp("documents") / "catalog"
        released_twice(root)
    return root


@pytest.fixture(scope="module")
def site(catalog, tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("site") / "site"
    with git_identity():
        assert index(catalog, "v0.2.0", out, "--address", ADDRESS) == 0
    return out


def _git(catalog: Path, *args: str) -> str:
    return subprocess.run(["git", *args], cwd=catalog, capture_output=True, text=True, check=True).stdout


def _commit(catalog: Path, tag: str = "v0.2.0") -> str:
    return _git(catalog, "rev-parse", f"{tag}^{{commit}}").strip()


class _Links(html.parser.HTMLParser):
    """Every link of a page (href and its text), every table's header cells, and the page's text."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.links: list[tuple[str, str]] = []
        self.text: list[str] = []
        self._href: str | None = None
        self._label: list[str] = []

    def handle_starttag(self, tag: str, attrs: list) -> None:
        if tag == "a":
            self._href, self._label = dict(attrs).get("href"), []

    def handle_endtag(self, tag: str) -> None:
        if tag == "a" and self._href is not None:
            self.links.append((self._href, "".join(self._label).strip()))
            self._href = None

    def handle_data(self, data: str) -> None:
        self.text.append(data)
        if self._href is not None:
            self._label.append(data)


def _page(path: Path) -> _Links:
    page = _Links()
    page.feed(path.read_text(encoding="utf-8"))
    return page


def _words(page: _Links) -> str:
    return " ".join("".join(page.text).split())


# --- the address ----------------------------------------------------------------------------------------


def test_the_address_is_shown_wherever_the_site_names_the_catalog(catalog, site):
    command = f"exchange release-check {ADDRESS} v0.2.0"
    document = json.loads((site / "index.json").read_bytes())
    assert document["release"]["address"] == ADDRESS and document["release"]["location"] == ADDRESS
    assert command in document["note"]
    for name in ("index.html", "entries/gateway.fx-exposure.html"):
        text = _words(_page(site / name))
        assert command in text, name
        assert str(catalog) not in (site / name).read_text(encoding="utf-8"), name  # the runner's path is not shown
        assert (ADDRESS, ADDRESS) in _page(site / name).links, name


def test_without_an_address_the_command_names_the_location_as_given(catalog, tmp_path):
    out = tmp_path / "site"
    with git_identity():
        assert index(catalog, "v0.2.0", out, "--no-history") == 0
    assert f"exchange release-check {catalog} v0.2.0" in _words(_page(out / "index.html"))
    assert "github.com" not in (out / "index.html").read_text(encoding="utf-8")


SECRET = "ghp_" + "A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8"


@pytest.mark.parametrize("address, words", [
    ("http://github.com/acme/exchange", "an https:// address"),
    ("ftp://github.com/acme/exchange", "an https:// address"),
    ("https://acme:hunter2@github.com/acme/exchange", "without user information"),
    ("https://github.com/acme/exchange?token=x", "without a query or a fragment"),
    ("https://github.com/acme/exchange#readme", "without a query or a fragment"),
    ("https://github.com/acme/exchange with space", "letters, digits"),
    ("https://github.com/acme/ex\u202echange", "letters, digits"),
    ("https://github.com/acme/\nexchange", "letters, digits"),
    ("https://github.com/acme/<script>", "letters, digits"),
    ("https://" + "a" * 505 + ".org", "1 to 512 characters"),
    ("https:///acme/exchange", "a host name"),
    ("https://-bad-.example/acme", "a host name"),
    ("", "1 to 512 characters"),
    (f"https://github.com/acme/{SECRET}", "no shape the scan refuses"),
])
def test_a_bad_address_is_a_bad_invocation_said_in_one_line_without_repeating_it(catalog, tmp_path, capsys,
                                                                                 address, words):
    code = index(catalog, "v0.2.0", tmp_path / "out", "--address", address)
    captured = capsys.readouterr()
    assert code == 3 and captured.out == ""
    lines = captured.err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("exchange index: --address: ") and words in lines[0], lines
    for part in ("hunter2", "token", "readme", SECRET, "<script>", "\u202e"):
        assert part not in captured.err or part in words
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("address", [
    "https://github.com/acme/exchange",
    "https://github.com/acme/exchange.git",
    "https://github.com/acme/exchange/",
    "https://git.example.org:8443/group/sub/exchange",
    "https://example.org/" + "a" * (512 - len("https://example.org/")),
])
def test_near_miss_an_address_of_the_form_is_accepted(catalog, tmp_path, address):
    with git_identity():
        assert index(catalog, "v0.1.0", tmp_path / "out", "--no-history", "--address", address) == 0
    assert json.loads((tmp_path / "out" / "index.json").read_bytes())["release"]["address"] == address


# --- every document readable ------------------------------------------------------------------------------


def test_every_entry_page_links_to_and_serves_each_of_its_files_with_its_digest(catalog, site):
    """The files are what git lists under each entry at the tag; each copy's bytes are `git show`'s, and
    the page shows the sha256 hashlib computes of those bytes beside the link."""
    commit = _commit(catalog)
    listed = _git(catalog, "ls-tree", "-r", "--name-only", "v0.2.0", "entries").split()
    files = tree(site)
    for row in rows(catalog, "v0.2.0"):
        page = _page(site / f"entries/{row['id']}.html")
        links = dict(page.links)
        text = _words(page)
        mine = [p.removeprefix(row["path"] + "/") for p in listed if p.startswith(row["path"] + "/")]
        assert mine, row["id"]
        for name in mine:
            data = show(catalog, "v0.2.0", f"{row['path']}/{name}")
            copy = f"entries/{row['id']}/{name}"
            assert files[copy] == data, copy
            assert links.get(f"{row['id']}/{name}") == name, (row["id"], name)
            assert "sha256:" + hashlib.sha256(data).hexdigest() in text, (row["id"], name)
            forge = f"{ADDRESS}/blob/{commit}/{row['path']}/{name}"
            assert forge in links, forge
        assert f"{ADDRESS}/tree/{commit}/{row['path']}" in links
        document = next(c for c in json.loads((site / "index.json").read_bytes())["entries"] if c["id"] == row["id"])
        assert sorted(f["path"] for f in document["files"]) == sorted(mine)
        assert all(f["digest"] == "sha256:" + hashlib.sha256(files[f["copy"]]).hexdigest() and
                   f["bytes"] == len(files[f["copy"]]) for f in document["files"])


def test_only_the_entries_json_and_markdown_are_copied(site):
    copies = [name for name in tree(site) if name.startswith("entries/") and not name.endswith(".html")]
    assert copies and all(name.endswith((".json", ".md")) for name in copies)
    assert all(name.count("/") >= 2 for name in copies)  # each under its entry's own directory


def test_another_forge_gets_no_forge_link_and_the_site_still_serves_every_file(catalog, tmp_path):
    out = tmp_path / "site"
    with git_identity():
        assert index(catalog, "v0.2.0", out, "--no-history", "--address", OTHER_HOST) == 0
    page = _page(out / "entries/gateway.fx-exposure.html")
    hrefs = [href for href, _ in page.links]
    assert OTHER_HOST in hrefs and f"exchange release-check {OTHER_HOST} v0.2.0" in _words(page)
    assert not any("/blob/" in h or "/tree/" in h or "github.com" in h for h in hrefs), hrefs
    assert "gateway.fx-exposure/dialect.json" in hrefs


def test_the_index_links_the_repository_its_documents_and_the_other_releases(catalog, site):
    commit = _commit(catalog)
    links = dict(_page(site / "index.html").links)
    assert f"{ADDRESS}/blob/{commit}/README.md" in links  # the demonstration catalog has a README at its root
    assert f"{ADDRESS}/releases/tag/v0.1.0" in links
    assert links.get(f"{ADDRESS}/releases/download/v0.1.0/index.json") == "its index.json"
    assert f"{ADDRESS}/releases/tag/v0.2.0" not in links  # this release is the page itself


def test_a_readme_link_to_a_copied_file_leads_to_the_copy(catalog, tmp_path):
    """The fx-exposure README names files of the entry: a link to one the site copies goes to the copy."""
    from judgment_exchange.browse import markdown

    out = markdown.render("[the dialect](./dialect.json) and [gone](nothing.json)",
                          {"dialect.json": "gateway.fx-exposure/dialect.json"})
    assert '<a class="entry-file" href="gateway.fx-exposure/dialect.json">the dialect</a>' in out
    assert 'href="nothing.json"' not in out and "(nothing.json)" in out


# --- what the dialect reads -----------------------------------------------------------------------------


def _table(page: Path, css_class: str) -> list[list[str]]:
    """The body rows of the page's table of that class, each cell's text."""

    class Table(html.parser.HTMLParser):
        def __init__(self) -> None:
            super().__init__(convert_charrefs=True)
            self.rows: list[list[str]] = []
            self.inside = self.body = False
            self.cell: list[str] | None = None

        def handle_starttag(self, tag, attrs):
            if tag == "table" and css_class in (dict(attrs).get("class") or "").split():
                self.inside = True
            elif self.inside and tag == "tbody":
                self.body = True
            elif self.inside and self.body and tag == "tr":
                self.rows.append([])
            elif self.inside and self.body and tag == "td":
                self.cell = []

        def handle_endtag(self, tag):
            if tag == "td" and self.cell is not None:
                self.rows[-1].append(" ".join("".join(self.cell).split()))
                self.cell = None
            elif tag == "table":
                self.inside = self.body = False

        def handle_data(self, data):
            if self.cell is not None:
                self.cell.append(data + " ")

    parser = Table()
    parser.feed(page.read_text(encoding="utf-8"))
    return parser.rows


def test_the_dialect_table_shows_sources_reads_and_what_they_write(catalog, site):
    dialect = json.loads(show(catalog, "v0.2.0", "entries/gateway/fx-exposure/dialect.json"))
    source = dialect["sources"][0]
    clauses = source["read"]["rule"]["clauses"]
    facts = {f["pointer"] for c in clauses for f in c["claim"]["facts"]}
    evidence = {e for c in clauses for e in c["claim"]["evidence"]}
    table = _table(site / "entries/gateway.fx-exposure.html", "sources")
    assert len(facts) == 1 and len(evidence) == 1  # so the cells' order is no question
    assert table == [[source["name"], source["kind"], f"rule of {len(clauses)} clauses", *facts, *evidence]]


def test_the_admitted_classes_are_a_table(catalog, site):
    dialect = json.loads(show(catalog, "v0.2.0", "entries/gateway/company-research/dialect.json"))
    wanted = [[target, "fact target", ", ".join(classes)] for target, classes in dialect["admits"]["facts"].items()]
    wanted += [[req, "evidence requirement", ", ".join(classes)]
               for req, classes in dialect["admits"]["evidence"].items()]
    assert _table(site / "entries/gateway.company-research.html", "admits") == wanted


def test_a_copy_source_and_the_unmapped_requirements(catalog, site):
    dialect = json.loads(show(catalog, "v0.2.0", "entries/runner/intake-vendor-copy/dialect.json"))
    copy = dialect["sources"][0]["read"]["copy"]
    table = _table(site / "entries/runner.intake-vendor-copy.html", "sources")
    assert table[0][:3] == [dialect["sources"][0]["name"], "operation", "copy"]
    assert table[0][3] == " ".join(f["target"] for f in copy["facts"])
    text = _words(_page(site / "entries/runner.intake-vendor-copy.html"))
    assert all(f"{r} (evidence)" in text for r in dialect["unmappedEvidence"])


def test_the_dialect_view_withholds_a_name_the_scan_refuses_and_never_raises():
    from judgment_exchange.browse.documents import dialect_view

    view = dialect_view(json.dumps({"version": 3, "case": {"facts": [], "evidence": []}, "sources": [
        {"name": SECRET, "kind": "operation", "read": {"copy": {"facts": [{"target": "/a", "source": "/b"}],
                                                               "evidence": []}}},
        {"name": "x" * 300, "kind": "telepathy", "read": 7}]}).encode())
    assert view is not None
    first, second = view["sources"]
    assert "withheld" in first["name"] and SECRET not in json.dumps(view)
    assert first["facts"] == ["/a"] and first["read"] == "copy"
    assert "withheld" in second["name"] and "withheld" in second["kind"] and second["read"] == "—"
    for junk in (b"", b"[]", b"{", b'{"sources": 5}', b'{"a": 1, "a": 2}', b"[" * 100 + b"]" * 100):
        out = dialect_view(junk)
        assert out is None or out["sources"] == []
    odd = dialect_view(json.dumps({"sources": [{"name": "s", "read": {"copy": {"facts": 5, "evidence": "x"}}},
                                               {"name": "t",
                                                "read": {"rule": {"clauses": [{"claim": {"facts": 1}}, 7]}}}],
                                   "unmapped": 5, "unmappedEvidence": {"a": 1}, "admits": {"facts": {"/x": 3}},
                                   "case": {"parameters": {"p": 1}}}).encode())
    assert odd is not None and [s["facts"] for s in odd["sources"]] == [[], []]
    assert odd["unmapped"] == [] and odd["admits"] == [{"target": "/x", "what": "fact target", "classes": []}]


# --- words for a newcomer, and search ---------------------------------------------------------------------


def test_cards_use_the_description_with_inline_markdown_as_text(catalog, site):
    page = (site / "index.html").read_text(encoding="utf-8")
    for row in rows(catalog, "v0.2.0"):
        entry = json.loads(show(catalog, "v0.2.0", f"{row['path']}/entry.json"))
        assert " ".join(entry["description"].split()).replace("`", "") in _words(_page(site / "index.html"))
    assert "`" not in _words(_page(site / "index.html"))  # a code span is <code>, never its backticks
    assert "<code>" in page.split('id="entries"')[1]
    intro = _words(_page(site / "index.html"))
    assert "Each entry is a dialect" in intro and "This page is not the authority" in intro


def test_inline_markdown_in_a_card_is_text_never_markup():
    from judgment_exchange.browse import markdown

    out = markdown.inline("`code` *em* # not a heading [link](https://e.example/x) ![img](https://e.example/i.png) "
                          "<script>alert(1)</script> <img src=x onerror=alert(2)> [j](javascript:alert(3))")
    assert "<code>code</code>" in out and "<em>em</em>" in out and "# not a heading" in out
    for raw in ("<a", "href", "<img", "<script", "<h1"):
        assert raw not in out, raw
    assert "&lt;script&gt;" in out and "[image: img]" in out


def _search_words(site: Path) -> dict[str, str]:
    """Each card's id (its first <code>) and the words its data-search holds."""

    class Rows(html.parser.HTMLParser):
        def __init__(self) -> None:
            super().__init__()
            self.found: dict[str, str] = {}
            self.words: str | None = None
            self.in_code = False

        def handle_starttag(self, tag, attrs):
            values = dict(attrs)
            if tag == "li" and "data-search" in values:
                self.words = values["data-search"]
            self.in_code = tag == "code" and self.words is not None

        def handle_data(self, data):
            if self.in_code and self.words is not None:
                self.found[data] = self.words
                self.words, self.in_code = None, False

    parser = Rows()
    parser.feed((site / "index.html").read_text(encoding="utf-8"))
    return parser.found


def test_the_search_words_hold_pack_ids_and_digests(catalog, site):
    words = _search_words(site)
    assert sorted(words) == sorted(row["id"] for row in rows(catalog, "v0.2.0"))
    for row in rows(catalog, "v0.2.0"):
        entry = json.loads(show(catalog, "v0.2.0", f"{row['path']}/entry.json"))
        assert entry["pack"]["id"].lower() in words[row["id"]] if "pack" in entry else True
        for digest in entry.get("pack", {}).get("digests", []):
            assert f" {digest[len('sha256:'):][:12]}" in words[row["id"]]
        assert f" {row['entryDigest'][len('sha256:'):]}" in words[row["id"]]
