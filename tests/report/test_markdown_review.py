"""`exchange check --format markdown` (issue #27 item 4): the review a maintainer reads in a pull request's job
summary — the verdict, what was checked, each refusal with its fix, and each touched entry's card — where no
value from the report or an entry can forge a heading, a link, a table row, HTML or a mention. The review is
parsed back with markdown-it-py (CommonMark with GitHub's tables and strikethrough) and held structurally:
the only headings and links are the review's own, and every hostile value is inside a code span, intact."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from markdown_it import MarkdownIt

from judgment_exchange.cli import main as exchange
from judgment_exchange.refusal import Refusal, Report, Skip
from judgment_exchange.review.check import EntryReview, Review, render
from judgment_exchange.review.markdown import code, visible

from ..repository.repos import OTHER, OTHER_DIR, commit, demo_repository, repin
from ..support.gitrepo import GitRepo

HOSTILE = [
    "# Forged heading",
    "ok\n## forged heading on a new line",
    "text\r\n### after CRLF",
    "[a link](https://evil.example/x)",
    "![an image](https://evil.example/i.png)",
    "<https://evil.example/autolink>",
    "https://evil.example/bare and www.evil.example",
    "mail me: someone@evil.example",
    "@octocat and #123 and org/repo#7",
    "| forged | row |\n|---|---|\n| a | b |",
    "a | b | c",
    "`one` ``two`` ```three```",
    "`",
    "``",
    "ends with a backtick`",
    " spaced ",
    "<script>alert(1)</script>",
    '<img src=x onerror="alert(2)">',
    "<!-- a comment -->",
    "*emphasis* __strong__ ~~struck~~",
    "line\u2028separator and \u202eoverride and zero\u200bwidth",
    "a backslash \\ and \\| and \\`",
    "> a quote\n- a list\n1. numbered",
    "    indented code",
    "```\nfenced\n```",
    "&lt;entity&gt; &amp;",
    "",
]

MD = MarkdownIt("commonmark").enable(["table", "strikethrough"])


def _inline(text: str) -> list:
    tokens = MD.parse(text)
    return [child for token in tokens if token.type == "inline" for child in token.children or []]


@pytest.mark.parametrize("value", HOSTILE, ids=range(len(HOSTILE)))
def test_attack_a_value_cannot_leave_its_code_span(value):
    """Each hostile string as a code span in a list item: one code span, its content the value made visible
    (one line), and nothing else made of it — no heading, link, image, HTML, emphasis or table."""
    line = f"- detail: {code(value)}"
    assert "\n" not in line
    tokens = MD.parse(line)
    kinds = {t.type for t in tokens}
    assert kinds <= {"bullet_list_open", "bullet_list_close", "list_item_open", "list_item_close",
                     "paragraph_open", "paragraph_close", "inline"}, kinds
    children = _inline(line)
    if value == "":
        assert [c.type for c in children] == ["text"] and children[0].content == "detail: (empty)"
        return
    assert [c.type for c in children] == ["text", "code_inline"], [(c.type, c.content) for c in children]
    assert children[1].content == visible(value)


def test_the_visible_form_keeps_every_character_or_its_escape():
    assert visible("a\nb") == "a\\nb" and visible("\u202e") == "\\u202e" and visible("é|`") == "é|`"


def _report() -> Report:
    hostile = "\n".join(HOSTILE)
    return Report(
        entries=3, replayed=2, history="checked", touched=["acme.vendors", "acme.gone"], checks=["form", "scans"],
        notes=[f"note: {HOSTILE[0]} {HOSTILE[7]}"],
        refusals=[Refusal("entry-member-invalid", "entries/acme/vendors/entry.json", hostile, "acme.vendors", line=4),
                  Refusal("manifest-order", "manifest.json", HOSTILE[9], None),
                  Refusal("not-a-registered-code", None, HOSTILE[3], "acme.vendors", fix=HOSTILE[16])],
        warnings=[Refusal("upgrade-note-missing", "entries/acme/vendors/entry.json", HOSTILE[4], "acme.vendors")],
        skipped=[Skip("acme.vendors", "vendor-7", f"kind-unread: {HOSTILE[5]}")],
    )


def _card() -> dict:
    return {"id": "acme.vendors", "kind": "dialect", "direction": "input", "title": HOSTILE[0],
            "description": HOSTILE[3] + " " + HOSTILE[16], "pack": {"id": HOSTILE[6], "versions": HOSTILE[11]},
            "requires": {}, "sourceKinds": ["operation"], "licence": "Apache-2.0", "author": HOSTILE[8],
            "digests": {"entryDigest": "sha256:" + "1" * 64},
            "fixtures": [{"name": "vendor-7", "result": "reading", "reader": "bundled: x",
                          "preparationDigest": "sha256:" + "2" * 64}],
            "upgrade": [{"from": "sha256:" + "3" * 64, "note": HOSTILE[9]}],
            "readme": {"firstParagraph": HOSTILE[17] + " " + HOSTILE[1], "cut": False}}


def _review(doc_base: str = "https://github.com/acme/exchange/blob/" + "a" * 40 + "/") -> str:
    entries = [EntryReview("acme.vendors", "changed", "sha256:" + "4" * 64, "sha256:" + "1" * 64, card=_card()),
               EntryReview("acme.gone", "withdrawn", "sha256:" + "5" * 64, None, why="no manifest row in the change")]
    return render(Review(_report(), "commit " + "b" * 40, "c" * 40, entries, doc_base))


def test_attack_the_review_s_headings_links_and_html_are_its_own():
    base = "https://github.com/acme/exchange/blob/" + "a" * 40 + "/"
    text = _review(base)
    tokens = MD.parse(text)
    headings = [tokens[i + 1].content for i, t in enumerate(tokens) if t.type == "heading_open"]
    assert headings == ["exchange check: fail, 3 refusals", "Refused: `acme.vendors` (2)", "Refused: the catalog (1)",
                        "Warnings, never a refusal (1)", "Fixtures held by their digests only (1)",
                        "`acme.vendors`: changed against the base", "`acme.gone`: withdrawn (its row removed)"]
    kinds = {t.type for t in tokens}
    assert not kinds & {"html_block", "html_inline", "table_open", "blockquote_open", "fence", "code_block",
                        "hr"}, kinds
    children = [c for t in tokens if t.type == "inline" for c in t.children or []]
    links = [c.attrGet("href") for c in children if c.type == "link_open"]
    assert links == [f"{base}docs/codes.md#{code_}" for code_ in ("entry-member-invalid", "manifest-order",
                                                                  "upgrade-note-missing")]
    assert not any(c.type in ("image", "html_inline", "em_open", "s_open") for c in children)
    strong = [children[i + 1].content for i, c in enumerate(children) if c.type == "strong_open"]
    assert strong == ["What was checked"]  # the review's own emphasis only
    words = " ".join(c.content for c in children if c.type == "text")
    for marker in ("evil", "octocat", "<script", "alert(", "onerror", "Forged", "forged", "#123", "@", "www",
                   "comment"):
        assert marker not in words, marker
    spans = [c.content for c in children if c.type == "code_inline"]
    for value in HOSTILE[:9] + HOSTILE[16:18]:
        assert any(visible(value) in span for span in spans), value


def test_the_review_says_the_verdict_what_was_checked_and_each_fix():
    text = _review()
    assert text.startswith("## exchange check: fail, 3 refusals\n")
    assert "- entries checked: 3" in text and "- entries this change touches: `acme.vendors`, `acme.gone`" in text
    assert "- fixtures replayed with agreement: 2; held by their digests only: 1" in text
    assert "- history: `checked`" in text and "- checks: `form`, `scans`" in text
    assert "(file `entries/acme/vendors/entry.json`, line 4)" in text
    fix = "Correct the member as docs/entry-format.md describes it."
    from judgment_exchange.codes import fix_text

    assert f"  - fix: {code(fix_text('entry-member-invalid'))}" in text, fix
    assert f"  - fix: {code(HOSTILE[16])}" in text  # a refusal's own fix, as a value
    assert "- entryDigest: `sha256:" + "4" * 64 + "` → `sha256:" + "1" * 64 + "`" in text
    assert "- card not shown: no manifest row in the change" in text


def test_a_passing_review_without_a_base_says_no_entry_is_shown():
    text = render(Review(Report(entries=2, replayed=1, history="skipped"), "catalog"))
    assert text.startswith("## exchange check: pass\n")
    assert "*No base was given (`--base`), so no entry is shown as new or changed.*" in text
    assert "Refused" not in text


def test_the_review_stops_before_githubs_limit_and_says_so():
    report = Report(refusals=[Refusal("entry-member-invalid", "entries/a/b/entry.json", "x" * 200, f"a.b{i}")
                              for i in range(60)])
    whole = render(Review(report, "catalog"))
    cut = render(Review(report, "catalog"), limit=4000)
    assert whole.count("### Refused:") == 60
    assert len(cut.encode()) <= 4000
    shown = cut.count("### Refused:")
    assert 0 < shown < 60 and f"**{60 - shown + 1} more section(s) not shown" in cut  # and the no-base line


# --- on a real repository: the command as the gate job runs it ----------------------------------------------


DESCRIPTION = ("Reads the vendor registry. # not a heading | a | b | [click](https://evil.example) "
               "<script>alert(1)</script> ping @octocat `code`")


@pytest.fixture
def pull_request(tmp_path, monkeypatch) -> Path:
    from ..support.gitrepo import git_identity

    git_identity(monkeypatch, "Review Test", "review-test@example.invalid")
    root = tmp_path / "repo"
    git = demo_repository(root)
    path = root / OTHER_DIR / "entry.json"
    entry = json.loads(path.read_bytes())
    entry["description"] = DESCRIPTION
    path.write_text(json.dumps(entry, indent=2) + "\n", encoding="utf-8")
    repin(root)
    commit(git)
    return root


def test_the_gate_job_s_command_writes_the_review_with_the_changed_entry_s_card(pull_request, capsys, monkeypatch):
    monkeypatch.delenv("GITHUB_STEP_SUMMARY", raising=False)
    head = GitRepo(pull_request).git("rev-parse", "HEAD")
    status = exchange(["check", "--catalog", str(pull_request), "--commit", head, "--base", "main",
                       "--no-history", "--format", "markdown"])
    out = capsys.readouterr().out
    assert status == 0, out
    assert out.startswith("## exchange check: pass\n")
    assert f"### `{OTHER}`: changed against the base" in out
    assert f"- description: {code(DESCRIPTION)}" in out
    tokens = MD.parse(out)
    assert [t.type for t in tokens if t.type.startswith(("html", "table", "heading_open"))].count("heading_open") == 2
    assert not [c for t in tokens if t.type == "inline" for c in t.children or [] if c.type == "link_open"]
    # the changed entry's upgrade-diff against the base, each line a code span (issue #27 item 4)
    changed = out[out.index("**What changed against the base**"):]
    assert "- `entry.json members changed (old -> new):`" in changed
    assert "  - `` description: " in changed and DESCRIPTION in changed  # a span padded: the line ends in a backtick
    assert not [t for t in MD.parse(changed) if t.type.startswith(("html", "table", "heading_open"))]


def test_near_miss_a_working_tree_review_has_no_upgrade_diff(pull_request, capsys, monkeypatch):
    """The upgrade-diff compares commits' objects: a review of the working tree (no --commit) shows the card
    without it, and says nothing false."""
    monkeypatch.delenv("GITHUB_STEP_SUMMARY", raising=False)
    assert exchange(["check", "--catalog", str(pull_request), "--base", "main", "--no-history",
                     "--format", "markdown"]) == 0
    out = capsys.readouterr().out
    assert f"### `{OTHER}`: changed against the base" in out and "What changed against the base" not in out


def test_upgrade_diff_in_markdown_keeps_every_author_value_in_code(pull_request, capsys):
    """`exchange upgrade-diff --format markdown`: the releases' difference, each line a code span."""
    from judgment_exchange.releasing.release import make_release

    repo = GitRepo(pull_request)
    repo.git("checkout", "-q", "main")
    (pull_request / "releases.json").write_text("[]\n")
    repo.git("add", "-A")
    repo.git("commit", "-q", "-m", "a ledger")
    assert make_release(str(pull_request), "v0.1.0").status == 0
    repo.git("merge", "-q", "--no-edit", "change")
    assert make_release(str(pull_request), "v0.2.0", approved=frozenset({OTHER})).status == 0
    capsys.readouterr()
    assert exchange(["upgrade-diff", str(pull_request), "v0.1.0", "v0.2.0", "--format", "markdown"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("## exchange upgrade-diff: `v0.1.0` → `v0.2.0`")
    assert f"### `{OTHER}`: changed" in out and DESCRIPTION in out
    tokens = MD.parse(out)
    assert [t.type for t in tokens].count("heading_open") == 2
    assert not [c for t in tokens if t.type == "inline" for c in t.children or []
                if c.type in ("link_open", "html_inline")]


def test_a_refused_entry_s_card_is_not_shown_and_its_refusal_is_listed_with_its_fix(pull_request, capsys):
    (pull_request / OTHER_DIR / "notes.txt").write_text("a stray file\n")
    commit(GitRepo(pull_request), "a stray file")
    status = exchange(["check", "--catalog", str(pull_request), "--base", "main", "--no-history",
                       "--format", "markdown"])
    out = capsys.readouterr().out
    assert status == 1
    assert "## exchange check: fail, 1 refusal\n" in out
    assert "[`entry-file-unexpected`](docs/codes.md#entry-file-unexpected)" in out
    assert "  - fix: `" in out
    assert "- card not shown: the gate refuses this entry: its card is shown once its refusals are fixed" in out
    assert DESCRIPTION not in out


def test_near_miss_the_github_format_is_unchanged_by_the_review(pull_request, capsys, monkeypatch, tmp_path):
    """--format github still prints only workflow commands (none for a passing change) and writes its own
    step summary; the review is --format markdown's alone."""
    monkeypatch.setenv("GITHUB_STEP_SUMMARY", str(tmp_path / "summary.md"))
    assert exchange(["check", "--catalog", str(pull_request), "--base", "main", "--no-history",
                     "--format", "github"]) == 0
    assert capsys.readouterr().out == ""
    summary = (tmp_path / "summary.md").read_text(encoding="utf-8")
    assert summary.startswith("## exchange check: pass\n") and "changed against the base" not in summary


def test_attack_twenty_thousand_touched_ids_push_the_review_past_githubs_limit():
    """Issue #38 item 4: a change touching about 20,000 ids made the review's head (never cut) exceed GitHub's
    1 MiB job-summary limit, and GitHub drops a summary that large whole. The head names the first ids and
    how many more; the whole stays within the limit."""
    from judgment_exchange.review.check import TOUCHED_SHOWN
    from judgment_exchange.review.markdown import SUMMARY_LIMIT

    touched = [f"acme.entry-{i:05d}-{'x' * 40}" for i in range(20_000)]
    assert len(", ".join(touched).encode()) > SUMMARY_LIMIT  # the attack's size, unbounded
    report = Report(entries=20_000, touched=touched)
    text = render(Review(report, "HEAD", "BASE", [EntryReview(t, "new") for t in touched]))
    assert len(text.encode("utf-8")) <= SUMMARY_LIMIT
    head = next(line for line in text.splitlines() if line.startswith("- entries this change touches:"))
    assert f"and {20_000 - TOUCHED_SHOWN} more" in head
    assert head.count("`acme.entry-") == TOUCHED_SHOWN


@pytest.mark.parametrize("count", [1, 20])
def test_near_miss_a_few_touched_ids_are_all_named(count):
    """At TOUCHED_SHOWN ids or fewer every id is named, and no "more" is said."""
    touched = [f"acme.e{i}" for i in range(count)]
    text = render(Review(Report(entries=count, touched=touched), "HEAD", "BASE", []))
    head = next(line for line in text.splitlines() if line.startswith("- entries this change touches:"))
    assert "more" not in head and all(f"`acme.e{i}`" in head for i in range(count))
