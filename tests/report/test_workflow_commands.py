"""`exchange check --format github`: workflow commands, GitHub's escaping, and forgery attempts (issue #9 item 6).

The expectations come from GitHub's documented command syntax, parsed here by a small reader written
to that syntax (`_parse`), not by the code under test.
"""

from __future__ import annotations

import re
import string

from judgment_exchange.annotations import command, escape_data, escape_property, markdown_text, workflow_commands
from judgment_exchange.refusal import Refusal, Report, Skip

_UNDATA = [("%0D", "\r"), ("%0A", "\n"), ("%25", "%")]
_UNPROP = [("%0D", "\r"), ("%0A", "\n"), ("%3A", ":"), ("%2C", ","), ("%25", "%")]


def _unescape(text: str, table) -> str:
    for code, char in table:
        text = text.replace(code, char)
    return text


def _parse(line: str) -> tuple[str, dict[str, str], str]:
    """A workflow command as the runner reads one line: `::name props::message` (props `k=v` joined by `,`)."""
    assert line.startswith("::")
    head, sep, message = line[2:].partition("::")
    assert sep
    name, _, props = head.partition(" ")
    properties = {}
    for pair in filter(None, props.split(",")):
        key, eq, value = pair.partition("=")
        assert eq, pair
        properties[key] = _unescape(value, _UNPROP)
    return name, properties, _unescape(message, _UNDATA)


def _no_files(_: str) -> None:
    return None


def test_data_escaping_by_githubs_rules():
    assert escape_data("100% done\r\nnext") == "100%25 done%0D%0Anext"
    assert escape_data("a::b, c:d") == "a::b, c:d"  # `:` and `,` are data, not properties


def test_property_escaping_by_githubs_rules():
    assert escape_property("a:b,c%d\r\ne") == "a%3Ab%2Cc%25d%0D%0Ae"


def test_invisible_characters_are_written_visibly():
    assert escape_data("a\u2028b\u202ec\x85d\x00") == "a\\u2028b\\u202ec\\u0085d\\u0000"


def test_command_form():
    assert command("error", "detail", file="entries/a/b/entry.json", line=3, title="entry-member-invalid") == \
        "::error file=entries/a/b/entry.json,line=3,title=entry-member-invalid::detail"
    assert command("error", "no file", file=None, line=None, title="manifest-malformed") == \
        "::error title=manifest-malformed::no file"


def test_forged_second_command_in_a_path_and_a_detail_stays_one_command():
    """Attack: a file name and a detail holding a newline and `::error` try to start a second command,
    or `,line=1` / `:` try to add a property."""
    path = "entries/acme/x/fixtures/a\n::error file=forged::pwned,line=9:x"
    detail = "member: bad\n::warning title=forged::pwned\r::add-mask::x"
    report = Report(refusals=[Refusal("fixture-unexpected", path, detail, "acme.x")])
    lines = workflow_commands(report, _no_files)
    assert len(lines) == 1 and "\n" not in lines[0] and "\r" not in lines[0]
    name, props, message = _parse(lines[0])
    assert name == "error"
    assert props == {"file": path, "title": "fixture-unexpected"}  # no line: the path is not a readable file
    assert message.splitlines()[0] == f"acme.x: {detail}".splitlines()[0]
    assert message.startswith(f"acme.x: {detail}\nfix: ")


def test_forged_command_in_a_prefix_path_or_entry():
    report = Report(refusals=[Refusal("catalog-stray-file", "entries/a,title=x::y", "d", None)])
    (line,) = workflow_commands(report, _no_files, prefix="sub:dir/")
    name, props, message = _parse(line)
    assert props == {"file": "sub:dir/entries/a,title=x::y", "title": "catalog-stray-file"}
    assert message.startswith("d\nfix: ")


def test_each_refusal_is_an_error_with_its_fix_and_doc():
    report = Report(refusals=[
        Refusal("dialect-digest-mismatch", "entries/acme/x/entry.json", "dialect/digest is …", "acme.x"),
        Refusal("manifest-malformed", "manifest.json", "not an array"),
        Refusal("base-unreadable", None, "no such revision"),
    ])
    lines = workflow_commands(report, _no_files)
    parsed = [_parse(line) for line in lines]
    assert [p[0] for p in parsed] == ["error"] * 3
    assert [p[1].get("title") for p in parsed] == ["dialect-digest-mismatch", "manifest-malformed", "base-unreadable"]
    assert "Run `exchange fix`." in parsed[0][2] and "docs/codes.md#dialect-digest-mismatch" in parsed[0][2]
    assert "file" not in parsed[2][1] and "line" not in parsed[2][1]


def test_a_skipped_fixture_is_a_warning_on_its_row_of_entry_json():
    entry = (b'{\n  "id": "acme.x",\n  "fixtures": [\n    {"name": "one"},\n'
             b'    {"name": "two"}\n  ]\n}\n')
    files = {"entries/acme/x/entry.json": entry}
    report = Report(skipped=[Skip("acme.x", "two", "kind-unread: http")])
    (line,) = workflow_commands(report, files.get)
    name, props, message = _parse(line)
    assert name == "warning"
    assert props == {"file": "entries/acme/x/entry.json", "line": "5", "title": "fixture skipped"}
    assert "two" in message and "kind-unread: http" in message


def test_an_unlocated_member_falls_back_to_line_1_of_its_file():
    files = {"entries/acme/x/README.md": b"# x\n\nno json here\n"}
    report = Report(refusals=[Refusal("readme-link-missing", "entries/acme/x/README.md", "d", "acme.x", pointer="/a")])
    (line,) = workflow_commands(report, files.get)
    assert _parse(line)[1]["line"] == "1"


def test_a_refusals_own_line_wins():
    report = Report(refusals=[Refusal("secret-jwt", "entries/acme/x/README.md", "line 7: …", "acme.x", line=7)])
    (line,) = workflow_commands(report, _no_files)
    assert _parse(line)[1]["line"] == "7"


def test_markdown_text_cannot_add_a_link_an_image_html_or_a_cell():
    text = markdown_text("![x](https://e.example/p.png) <img src=x> a|b `c`\nnext")
    bare = re.sub(r"\\.", "", text)  # what is left once every backslash escape is taken out
    assert not any(c in string.punctuation for c in bare) and "\n" not in text
    assert text.startswith("\\!\\[x\\]\\(https\\:")
