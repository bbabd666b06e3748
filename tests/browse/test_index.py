"""`exchange index LOCATION TAG --out DIR` (issue #18 item 2): index.json, closed and versioned, valid
against the schema the package ships and publishes beside it; the static pages, every value escaped, the
README rendered with raw HTML off and our link and image rules, a Content-Security-Policy on each page and
nothing named outside the site; the same release giving the same bytes; a refused release writing
nothing; --out's rules. On the demonstration catalog released twice (releases.py); expected values are
read from the repository with git and json, or written here by hand."""

from __future__ import annotations

import copy
import hashlib
import html.parser
import json
import shutil
import subprocess
from pathlib import Path

import jsonschema
import pytest

from judgment_exchange.browse import markdown, site
from judgment_exchange.browse.index import Built

from .releases import ADDED_PARAGRAPH, CHANGED, released_twice, rows, show
from .sites import CSP_META, git_identity, index, tree

REPO = Path(__file__).resolve().parents[2]
SCHEMA_FILE = REPO / "tools" / "judgment_exchange" / "schemas" / "index.schema.json"


@pytest.fixture(scope="module")
def catalog(tmp_path_factory) -> Path:
    with git_identity():
        root = tmp_path_factory.mktemp("index") / "catalog"
        released_twice(root)
    return root


@pytest.fixture(scope="module")
def built(catalog, tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("site") / "site"
    with git_identity():
        assert index(catalog, "v0.2.0", out) == 0
    return out


def _document(built: Path) -> dict:
    return json.loads((built / "index.json").read_bytes())


def _validator() -> jsonschema.Validator:
    schema = json.loads(SCHEMA_FILE.read_bytes())
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(schema)


# --- index.json ------------------------------------------------------------------------------------------


def test_index_json_is_valid_against_its_shipped_schema_published_beside_it(built):
    assert (built / "index.schema.json").read_bytes() == SCHEMA_FILE.read_bytes()
    errors = list(_validator().iter_errors(_document(built)))
    assert not errors, [e.message for e in errors]


def test_the_schema_refuses_near_misses(built):
    """Closed: a member the version does not name, anywhere, is refused; so is another version."""
    validator = _validator()
    good = _document(built)
    near_misses = []
    for where, change in (("top", lambda d: d.update(extra=1)),
                          ("release", lambda d: d["release"].update(extra=1)),
                          ("card", lambda d: d["entries"][0].update(extra=1)),
                          ("fixture", lambda d: d["entries"][0]["fixtures"][0].update(extra=1)),
                          ("digests", lambda d: d["entries"][0]["digests"].update(extra="sha256:" + "0" * 64)),
                          ("version", lambda d: d.update(indexVersion=1)),
                          ("address http", lambda d: d["release"].update(address="http://github.com/a/b")),
                          ("address userinfo", lambda d: d["release"].update(address="https://u:p@github.com/a/b")),
                          ("no address", lambda d: d["release"].pop("address")),
                          ("file", lambda d: d["entries"][0]["files"][0].update(extra=1)),
                          ("file outside the sets", lambda d: d["entries"][0]["files"][0].update(path="x.html")),
                          ("copy outside entries", lambda d: d["entries"][0]["files"][0].update(copy="index.html")),
                          ("no files", lambda d: d["entries"][0].pop("files")),
                          ("readme text", lambda d: d["entries"][0]["readme"].update(text="whole")),
                          ("no note", lambda d: d.pop("note")),
                          ("bad commit", lambda d: d["release"].update(commit="HEAD"))):
        document = copy.deepcopy(good)
        change(document)
        near_misses.append((where, list(validator.iter_errors(document))))
    assert all(errors for _, errors in near_misses), [where for where, errors in near_misses if not errors]


def test_index_json_names_the_checked_release(catalog, built):
    document = _document(built)
    assert document["indexVersion"] == 2
    assert "not authoritative" in document["note"]
    assert f"exchange release-check {catalog} v0.2.0" in document["note"]  # no --address: the location as given
    release = document["release"]
    commit = subprocess.run(["git", "rev-parse", "v0.2.0^{commit}"], cwd=catalog, capture_output=True, text=True,
                            check=True).stdout.strip()
    ledger = json.loads(show(catalog, "v0.2.0", "releases.json"))
    assert (release["location"], release["tag"], release["commit"]) == (str(catalog), "v0.2.0", commit)
    assert release["address"] is None
    assert release["manifestDigest"] == "sha256:" + hashlib.sha256(show(catalog, "v0.2.0", "manifest.json")).hexdigest()
    assert release["date"] == next(row["date"] for row in ledger if row["tag"] == "v0.2.0")
    assert release["check"]["result"] == "pass" and release["check"]["replayed"] == 10
    assert release["reader"]["name"].startswith("bundled: ")


def test_each_entry_is_its_card_with_the_digests_it_was_checked_against(catalog, built):
    document = _document(built)
    manifest = rows(catalog, "v0.2.0")
    assert [card["id"] for card in document["entries"]] == [row["id"] for row in manifest]
    for card, row in zip(document["entries"], manifest, strict=True):
        entry = json.loads(show(catalog, "v0.2.0", f"{row['path']}/entry.json"))
        assert (card["title"], card["licence"], card["author"], card["sourceKinds"]) == (
            entry["title"], entry["licence"], entry["author"], entry["sourceKinds"])
        assert card["digests"]["entryDigest"] == row["entryDigest"]
        for pin in ("dialectDigest", "outputDigest"):
            assert card["digests"].get(pin) == row.get(pin)
        assert card["page"] == f"entries/{row['id']}.html" and (built / card["page"]).is_file()
        assert "text" not in card["readme"]  # index.json lists the first paragraph; the page has the whole


# --- the pages -----------------------------------------------------------------------------------------


class _Page(html.parser.HTMLParser):
    """Every element's tag and attributes, and the text, of one page."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.elements: list[tuple[str, dict]] = []
        self.text: list[str] = []

    def handle_starttag(self, tag: str, attrs: list) -> None:
        self.elements.append((tag, dict(attrs)))

    def handle_data(self, data: str) -> None:
        self.text.append(data)


def _parsed(data: bytes) -> _Page:
    page = _Page()
    page.feed(data.decode("utf-8"))
    return page


def test_every_page_carries_the_policy_and_names_nothing_outside_the_site(built):
    files = tree(built)
    pages = {name: data for name, data in files.items() if name.endswith(".html")}
    assert set(pages) == {"index.html"} | {f"entries/{c['id']}.html" for c in _document(built)["entries"]}
    for name, data in pages.items():
        text = data.decode("utf-8")
        assert CSP_META in text and text.index(CSP_META) < text.index("<title>"), name
        page = _parsed(data)
        for tag, attrs in page.elements:
            assert tag not in ("img", "iframe", "object", "embed", "style", "base", "form"), (name, tag)
            assert "style" not in attrs and not any(a.startswith("on") for a in attrs), (name, tag, attrs)
            if tag == "script":
                assert attrs.get("src") == "assets/index.js", (name, attrs)  # no inline script
            for member in ("src", "href"):
                value = attrs.get(member)
                if value is None or (tag == "a" and value.startswith(("http://", "https://"))):
                    continue  # a README's web link is a link a reader may follow, never a load
                target = (built / name).parent / value
                assert target.resolve().is_relative_to(built.resolve()), (name, value)
                assert target.resolve().relative_to(built.resolve()).as_posix() in files, (name, value)


def test_an_entry_page_shows_its_card_and_its_whole_readme(catalog, built):
    page = _parsed((built / "entries/gateway.fx-exposure.html").read_bytes())
    text = " ".join("".join(page.text).split())
    entry = json.loads(show(catalog, "v0.2.0", "entries/gateway/fx-exposure/entry.json"))
    for value in (entry["title"], entry["licence"], entry["author"], entry["assertion"], ADDED_PARAGRAPH,
                  *(f["name"] for f in entry["fixtures"]), *(f["preparationDigest"] for f in entry["fixtures"])):
        assert value in text, value
    readme = show(catalog, "v0.2.0", CHANGED).decode()
    paragraphs = [" ".join(p.split()) for p in readme.split("\n\n") if p.strip() and not p.startswith("#")]
    for paragraph in paragraphs:  # Markdown's code spans drop their backticks on the page
        assert paragraph.replace("`", "") in text, paragraph


def test_the_same_release_gives_the_same_bytes(catalog, built, tmp_path):
    with git_identity():
        assert index(catalog, "v0.2.0", tmp_path / "again") == 0
    first, second = tree(built), tree(tmp_path / "again")
    assert sorted(first) == sorted(second)
    assert [name for name in first if first[name] != second[name]] == []
    files = subprocess.run(["git", "ls-tree", "-r", "--name-only", "v0.2.0", "entries"], cwd=catalog,
                           capture_output=True, text=True, check=True).stdout.split()
    # 11 entry pages and every file of every entry, index.html, index.json and its schema, 3 assets
    assert len(first) == 11 + len(files) + 1 + 2 + 3


def test_author_text_reaches_a_page_escaped_by_the_template_engine(built):
    """Any value of a card (here a title, a licence, a source kind and a withheld reason written by hand)
    is text on the page, never markup."""
    document = _document(built)
    card = json.loads(json.dumps(document["entries"][0]))
    card["title"] = '<script>alert("t")</script>'
    card["author"] = {"withheld": "<b onmouseover=alert(1)>x</b>"}
    card["sourceKinds"] = ['"><img src=x>']
    card["readme"] = {"firstParagraph": "<i>p</i>", "cut": False, "text": "# <u>heading</u>\n"}
    fake = Built(check=None, document=document | {"entries": [card]}, whole=[card])  # type: ignore[arg-type]
    files = site.render(fake)
    for name in ("index.html", f"entries/{card['id']}.html"):
        text = files[name].decode("utf-8")
        for raw in ("<script>alert", "<b onmouseover", '"><img', "<i>p</i>", "<u>heading"):
            assert raw not in text, (name, raw)
        assert "&lt;script&gt;alert(&#34;t&#34;)&lt;/script&gt;" in text, name


@pytest.mark.parametrize("name, wide, tall", [("index.png", 1440, 450), ("index-phone.png", 390, 844),
                                              ("entry.png", 1440, 900)])
def test_the_screenshots_in_docs_are_the_pages_at_their_widths(name, wide, tall):
    """docs/images/ is written by `python -m tests.browse.screenshot`: the demo index's main page wide and
    on a phone's first screen, and an entry's page wide."""
    import struct

    data = (REPO / "docs" / "images" / name).read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR"
    width, height = struct.unpack(">II", data[16:24])
    assert width == wide and (height == tall if name == "index-phone.png" else height >= tall)


# --- a refused release, and the command's arguments ---------------------------------------------------


def test_a_release_that_fails_its_check_writes_nothing(catalog, tmp_path, capsys):
    broken = tmp_path / "broken"
    shutil.copytree(catalog, broken)
    entry = broken / "entries/gateway/fx-exposure/entry.json"
    value = json.loads(entry.read_bytes())
    value["title"] = "A title changed without its manifest row"
    entry.write_text(json.dumps(value, indent=2) + "\n")
    with git_identity():
        subprocess.run(["git", "commit", "-qam", "unpinned change"], cwd=broken, check=True)
        subprocess.run(["git", "tag", "v0.3.0"], cwd=broken, check=True)
        code = index(broken, "v0.3.0", tmp_path / "out", "--no-history")
    out = capsys.readouterr().out
    assert code == 1 and "refused manifest-digest-mismatch" in out and "no index is written" in out
    assert "A title changed" not in out
    assert not (tmp_path / "out").exists()


def test_a_previous_index_is_replaced_whole(catalog, tmp_path):
    out = tmp_path / "site"
    with git_identity():
        assert index(catalog, "v0.2.0", out, "--no-history") == 0
        (out / "stale.html").write_text("from before")
        assert index(catalog, "v0.1.0", out, "--no-history") == 0
    assert not (out / "stale.html").exists()
    assert _document(out)["release"]["tag"] == "v0.1.0"
    assert ADDED_PARAGRAPH not in (out / "entries/gateway.fx-exposure.html").read_text(encoding="utf-8")
    assert [p.name for p in tmp_path.iterdir()] == ["site"]  # nothing staged is left beside it


def test_an_empty_directory_is_used(catalog, tmp_path):
    (tmp_path / "empty").mkdir()
    with git_identity():
        assert index(catalog, "v0.2.0", tmp_path / "empty", "--no-history") == 0
    assert (tmp_path / "empty" / "index.json").is_file()


@pytest.mark.parametrize("setup, words", [
    ("foreign", "holds no index.json of exchange index"),
    ("file", "not a directory"),
    ("not-ours", "holds no index.json of exchange index"),
])
def test_out_that_is_not_ours_is_refused_untouched(catalog, tmp_path, capsys, setup, words):
    out = tmp_path / "out"
    if setup == "file":
        out.write_text("a file")
    else:
        out.mkdir()
        (out / ("notes.txt" if setup == "foreign" else "index.json")).write_text('{"something": "else"}')
    before = tree(tmp_path)
    code = index(catalog, "v0.2.0", out, "--no-history")
    assert code == 3 and words in capsys.readouterr().err
    assert tree(tmp_path) == before


@pytest.mark.parametrize("argv, status, words", [
    (["0.2"], 3, "not a release tag"),
    (["v0.2.0", "--history", "0"], 3, "maxHistoryReleases"),
    (["v0.9.0"], 1, "release-tag-invalid"),
])
def test_wrong_arguments_are_named(catalog, tmp_path, capsys, argv, status, words):
    from judgment_exchange.cli import main as exchange

    code = exchange(["index", str(catalog), *argv, "--out", str(tmp_path / "out"), "--local"])
    captured = capsys.readouterr()
    assert code == status and words in captured.out + captured.err
    assert not (tmp_path / "out").exists()


def test_an_unreadable_location_is_exit_4(tmp_path, capsys):
    code = index(tmp_path / "nowhere", "v0.1.0", tmp_path / "out")
    assert code == 4 and "no such directory" in capsys.readouterr().err


# --- the README's rules (browse/markdown.py) -------------------------------------------------------------


@pytest.mark.parametrize("source, wanted, unwanted", [
    ("<script>alert(1)</script>", "&lt;script&gt;alert(1)&lt;/script&gt;", "<script"),
    ("<img src=x onerror=alert(2)>", "&lt;img src=x onerror=alert(2)&gt;", "<img"),
    ("[click](javascript:alert(3))", "<p>click</p>", "href"),
    ("[click](JavaScript:alert(3))", "<p>click</p>", "href"),
    ("[d](data:text/html,<b>x</b>)", "<p>d</p>", "href"),
    ("[v](vbscript:msgbox)", "<p>v</p>", "href"),
    ("[f](file:///etc/passwd)", "<p>f</p>", "href"),
    ("[m](mailto:a@example.invalid)", "<p>m</p>", "href"),
    ("[p](//example.invalid/x)", "<p>p</p>", "href"),
    ("[web](https://example.invalid/a?b=1)",
     '<a href="https://example.invalid/a?b=1" rel="noopener noreferrer nofollow">web</a>', "<img"),
    ("[the dialect](./dialect.json)", "the dialect</span> <span class=\"file-name\"", "href"),
    ("[f](fixtures/a%E2%80%AEb.json)", "(fixtures/a\\u202eb.json)", "\u202e"),
    ("![pic](http://127.0.0.1:9/t.png)",
     '[image: pic] <a href="http://127.0.0.1:9/t.png" rel="noopener noreferrer nofollow">', "<img"),
    ("![pic](fixtures/x.png)", "[image: pic] (fixtures/x.png, not loaded)", "<img"),
    ("![pic](data:image/png;base64,AAAA)", "(data:image/png;base64,AAAA, not loaded)", "<img"),
    ("| a |\n|--:|\n| 1 |\n", '<td class="align-right">1</td>', "style="),
])
def test_the_readme_rules(source, wanted, unwanted):
    out = markdown.render(source)
    assert wanted in out and unwanted not in out, out
