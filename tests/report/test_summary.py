"""The step summary ($GITHUB_STEP_SUMMARY): every refusal grouped by entry, skips, counts (issue #9 item 6)."""

from __future__ import annotations

from judgment_exchange.annotations import doc_base, emit, summary
from judgment_exchange.refusal import Refusal, Report, Skip


def _report() -> Report:
    return Report(
        entries=3, replayed=4, history="checked", touched=["acme.b"],
        refusals=[
            Refusal("entry-member-invalid", "entries/acme/b/entry.json", "title: expected a string", "acme.b"),
            Refusal("manifest-order", "manifest.json", "rows 1 and 2", None),
            Refusal("dialect-digest-mismatch", "entries/acme/a/entry.json", "dialect/digest is …", "acme.a"),
            Refusal("output-digest-mismatch", "entries/acme/b/entry.json", "output/digest is …", "acme.b"),
        ],
        skipped=[Skip("acme.c", "vendor-7", "kind-unread: http")],
    )


def _none(_: str) -> None:
    return None


def test_every_refusal_grouped_by_entry_then_the_catalog():
    text = summary(_report(), _none)
    assert text.startswith("## exchange check: fail (4 refusal(s))\n")
    assert "- entries checked: 3" in text and "- fixtures replayed with agreement: 4" in text
    assert "- fixtures skipped: 1" in text and "- history: checked" in text and "- touched: acme\\.b" in text
    headings = [line for line in text.splitlines() if line.startswith("### ")]
    assert headings == ["### acme\\.a", "### acme\\.b", "### the catalog", "### Skipped fixtures (held by their "
                        "digests only)"]
    b = text.split("### acme\\.b")[1].split("###")[0]
    assert "entry-member-invalid" in b and "output-digest-mismatch" in b and "manifest-order" not in b
    assert text.count("](docs/codes.md#") == 4
    assert "Run \\`exchange fix\\`" in text
    assert "| acme\\.c | vendor\\-7 | kind\\-unread\\: http" in text


def test_a_detail_cannot_break_the_table_or_add_an_image():
    """Attack: a detail with a cell separator, a newline starting a new row, and an image."""
    report = Report(refusals=[Refusal("fixture-unexpected", "entries/a/b/fixtures/x", "|x|\n| forged | row |\n"
                                      "![t](https://e.example/t.png)", "a.b")])
    rows = [line for line in summary(report, _none).splitlines() if line.startswith("| ")]
    assert len(rows) == 2  # the header and the one refusal
    assert "![" not in rows[1] and "\\!\\[" in rows[1]


def test_the_summary_stops_before_githubs_limit_and_says_so():
    many = Report(refusals=[Refusal("entry-member-invalid", "entries/a/b/entry.json", "x" * 200, "a.b")] * 50)
    whole = summary(many, _none)
    cut = summary(many, _none, limit=3000)
    assert whole.count("| [`entry-member-invalid`]") == 50
    assert len(cut.encode()) <= 3000
    shown = cut.count("| [`entry-member-invalid`]")
    assert 0 < shown < 50 and f"**{50 - shown} more row(s) not shown" in cut


def test_emit_appends_to_the_summary_file(tmp_path):
    target = tmp_path / "summary.md"
    target.write_text("earlier step\n", encoding="utf-8")
    lines: list[str] = []
    assert emit(_report(), _none, lines.append, environ={"GITHUB_STEP_SUMMARY": str(target)}) is None
    text = target.read_text(encoding="utf-8")
    assert text.startswith("earlier step\n## exchange check: fail")
    assert len(lines) == 5 and all(line.endswith("\n") for line in lines)


def test_no_summary_without_the_variable(tmp_path):
    lines: list[str] = []
    assert emit(_report(), _none, lines.append, environ={}) is None
    assert list(tmp_path.iterdir()) == [] and len(lines) == 5


def test_an_unwritable_summary_is_reported(tmp_path):
    assert emit(_report(), _none, lambda _: None, environ={"GITHUB_STEP_SUMMARY": str(tmp_path)}) is not None


def test_doc_links_are_absolute_inside_a_workflow():
    env = {"GITHUB_SERVER_URL": "https://github.com", "GITHUB_REPOSITORY": "o/r", "GITHUB_SHA": "abc123"}
    assert doc_base(env) == "https://github.com/o/r/blob/abc123/"
    assert doc_base({}) == "" and doc_base(env | {"GITHUB_REPOSITORY": "o/r)![x](y"}) == ""
    text = summary(_report(), _none, doc_base=doc_base(env))
    assert "(https://github.com/o/r/blob/abc123/docs/codes.md#manifest-order)" in text
