"""Issue #16 item 4: nothing an author chose is printed unless it passed the scan too (docs/reports.md,
"What a refusal may quote").

A grammar can be fitted by a credential: a Slack token in lower case is a fixture name of §3's grammar,
a Mailchimp key (32 lowercase hex and `-us12`) is a fixture name and an entry's name. The scan refuses
such a name without repeating it, and every other refusal of the same report must not repeat it either:
its path is cut to the nearest safe parent and the name described by its length, in text, JSON,
`--format github` and the step summary. The near-misses hold that an ordinary name is still shown.
"""

from __future__ import annotations

import hashlib
import json
import shutil
from pathlib import Path

import pytest

from judgment_exchange import cli
from judgment_exchange.gate.pipeline import GateOptions, check_catalog
from judgment_exchange.quoting import Withheld, entry_id, flagged_names, redact, redact_skip, split_path
from judgment_exchange.refusal import Refusal, Skip
from judgment_exchange.tree import GitTree, WorkingTree

from ..support.catalog import CatalogBuilder
from ..support.gitrepo import GitRepo, files_of
from ..support.paths import REPO

DEMO = REPO / "docs" / "demo-catalog"
SLACK = "xoxb-079490435345-2754796078815-lzfpqiifpyg64tpsqql1kqon"
MAILCHIMP = hashlib.md5(b"judgment-exchange attack 4").hexdigest() + "-us12"
TOKENS = {"slack": (SLACK, "secret-slack-token"), "mailchimp": (MAILCHIMP, "secret-mailchimp-key")}
FIXTURES = "entries/gateway/fx-exposure/fixtures"


def _forms(token: str) -> list[str]:
    """The token and its longest run without punctuation (the step summary escapes `-`), each in lower and
    upper case: none may appear in any output."""
    runs = [max(token.split("-"), key=len)]
    return [form for t in (token, *runs) for form in (t, t.upper())]


def _printed(root: Path, tmp_path: Path, monkeypatch, capsys) -> tuple[dict[str, str], str]:
    """`exchange check --no-history` in text, JSON and github (the step summary to a file): each format's
    standard output, and the summary."""
    step_summary = tmp_path / "step-summary.md"
    monkeypatch.setenv("GITHUB_STEP_SUMMARY", str(step_summary))
    monkeypatch.delenv("GITHUB_WORKSPACE", raising=False)
    out = {}
    for fmt in ("text", "json", "github"):
        status = cli.main(["check", "--catalog", str(root), "--no-history", "--format", fmt])
        done = capsys.readouterr()
        assert status == 1 and "Traceback" not in done.err, f"--format {fmt}: exit {status}\n{done.out}{done.err}"
        out[fmt] = done.out + done.err
    return out, step_summary.read_text(encoding="utf-8")


def _demo_with_unlisted_fixture(tmp_path: Path, name: str) -> Path:
    root = tmp_path / "demo"
    shutil.copytree(DEMO, root)
    (root / FIXTURES / name).mkdir()
    (root / FIXTURES / name / "case.json").write_text("{}\n")
    return root


@pytest.mark.parametrize("kind", sorted(TOKENS))
def test_attack_grammar_fitting_credential_echoed_in_report(tmp_path, monkeypatch, capsys, kind):
    """The issue's attack 4 on the demo catalog: an unlisted fixture directory named with a credential that
    fits the fixture-name grammar. The gate still refuses it as fixture-unexpected (and the scan by its
    shape), but the refusal names the nearest safe parent and describes the name by its length; no
    format prints the token."""
    token, code = TOKENS[kind]
    root = _demo_with_unlisted_fixture(tmp_path, token)
    report = check_catalog(WorkingTree(str(root)), GateOptions(history=False))
    assert sorted(r.code for r in report.refusals) == sorted(["fixture-unexpected", code]), report.as_json()
    unexpected = next(r for r in report.refusals if r.code == "fixture-unexpected")
    assert unexpected.path == FIXTURES and unexpected.entry == "gateway.fx-exposure"
    assert unexpected.detail.startswith(f"in <a name of {len(token)} characters> below this path "
                                        "(the name is not shown): "), unexpected.detail
    printed, step_summary = _printed(root, tmp_path, monkeypatch, capsys)
    assert f"refused fixture-unexpected: gateway.fx-exposure {FIXTURES}: in <a name of" in printed["text"]
    assert any(r["code"] == "fixture-unexpected" and r["path"] == FIXTURES
               for r in json.loads(printed["json"])["refusals"])
    assert "title=fixture-unexpected" in printed["github"] and "[`fixture-unexpected`]" in step_summary
    for where, text in [*printed.items(), ("step summary", step_summary)]:
        for form in _forms(token):
            assert form not in text and form not in text.replace("\\", ""), f"{where} prints the {kind} token"


def test_near_miss_an_ordinary_unlisted_fixture_is_shown_in_full(tmp_path, monkeypatch, capsys):
    """Near-miss: a fixture directory with an ordinary unlisted name is refused and named in full."""
    root = _demo_with_unlisted_fixture(tmp_path, "vendor-9")
    report = check_catalog(WorkingTree(str(root)), GateOptions(history=False))
    assert [(r.code, r.path) for r in report.refusals] == [("fixture-unexpected", f"{FIXTURES}/vendor-9")]
    assert "below this path" not in report.refusals[0].detail
    printed, step_summary = _printed(root, tmp_path, monkeypatch, capsys)
    assert f"{FIXTURES}/vendor-9" in printed["text"] and f"{FIXTURES}/vendor-9" in printed["json"]
    assert f"file={FIXTURES}/vendor-9" in printed["github"] and "vendor\\-9" in step_summary


# --- the ids a report lists: checked, touched, a detail that lists them ----------------------------


def test_an_entry_named_with_a_token_is_in_no_list_of_the_report(tmp_path, monkeypatch, capsys):
    """A well-formed entry whose name is a Mailchimp key: refused by the scan, and its id is dropped from
    `checked` (and from its refusals' entry), never repeated; the ordinary entry beside it stays listed."""
    builder = CatalogBuilder(tmp_path / "catalog")
    builder.add_runner_entry()
    builder.add_runner_entry(f"acme.{MAILCHIMP}")
    builder.write_manifest()
    report = check_catalog(WorkingTree(str(builder.root)), GateOptions(history=False))
    assert "secret-mailchimp-key" in {r.code for r in report.refusals}
    assert report.checked == ["acme.vendors"] and report.entries == 2
    assert all(r.entry in (None, "acme.vendors") for r in report.refusals)
    assert all(MAILCHIMP not in r.entry + r.fixture for r in report.replays)
    printed, step_summary = _printed(builder.root, tmp_path, monkeypatch, capsys)
    for text in [*printed.values(), step_summary]:
        assert not [form for form in _forms(MAILCHIMP) if form in text or form in text.replace("\\", "")]


def test_touched_entries_and_the_one_entry_rule_do_not_repeat_a_token(tmp_path):
    """A pull request touching an ordinary entry and one named with a Slack token: `touched` describes the
    second, and one-entry-per-pull-request's detail (which lists the touched ids) describes it too."""
    repo = GitRepo(tmp_path / "repo")
    work = CatalogBuilder(tmp_path / "work")
    empty = files_of(work.root)
    repo.snapshot(empty)
    repo.tag("v0.1.0")
    work.add_runner_entry("acme.vendors")
    work.add_runner_entry(f"acme.{SLACK}")
    work.write_manifest()
    two = repo.snapshot(files_of(work.root))
    report = check_catalog(GitTree(str(repo.path), two),
                           GateOptions(history=False, base="v0.1.0", repository=str(repo.path), workers=1))
    assert report.touched == ["acme.vendors", f"<an entry id of {len(SLACK) + 5} characters>"], report.touched
    rule = next(r for r in report.refusals if r.code == "one-entry-per-pull-request")
    assert "touches 2 entries" in rule.detail and "acme.vendors" in rule.detail
    dumped = json.dumps(report.as_json())
    assert SLACK not in dumped and SLACK.split("-")[-1] not in dumped


# --- a consumer's commands --------------------------------------------------------------------------


def test_upgrade_diff_text_withholds_ids_and_paths_of_the_release_left(tmp_path, capsys):
    """upgrade-diff from a release holding an entry named with a token and a fixture directory named with
    another (never gated by this run) to a clean one: the withdrawn id and the removed path are described
    in the text report, the ordinary ones shown."""
    from judgment_exchange.cli import main

    repo = GitRepo(tmp_path / "repo")
    builder = CatalogBuilder(tmp_path / "work")
    entry = builder.add_runner_entry()
    builder.add_runner_entry(f"acme.{MAILCHIMP}")
    builder.write_manifest()
    (entry / "fixtures" / SLACK).mkdir()
    (entry / "fixtures" / SLACK / "case.json").write_text("{}\n")
    repo.snapshot(files_of(builder.root))
    repo.tag("v0.1.0")
    shutil.rmtree(builder.root / "entries" / "acme" / MAILCHIMP)
    shutil.rmtree(entry / "fixtures" / SLACK)
    del builder.entries[f"acme.{MAILCHIMP}"]
    builder.write_manifest()
    repo.snapshot(files_of(builder.root))
    repo.tag("v0.2.0")
    capsys.readouterr()
    status = main(["upgrade-diff", str(repo.path), "v0.1.0", "v0.2.0", "--no-history"])
    printed = capsys.readouterr()
    assert status == 0, printed.out + printed.err
    assert f"withdrawn <an entry id of {len(MAILCHIMP) + 5} characters>" in printed.out, printed.out
    assert f"file removed entries/acme/vendors/fixtures/<a name of {len(SLACK)} characters>" in printed.out
    assert "changed acme.vendors" in printed.out  # near-miss: an ordinary id is shown
    for form in _forms(SLACK) + _forms(MAILCHIMP):
        assert form not in printed.out + printed.err


# --- quoting.py, by hand-worked examples --------------------------------------------------------------


def test_the_scan_flags_the_grammar_fitting_names_and_not_ordinary_ones():
    assert flagged_names([SLACK, MAILCHIMP, "vendor-7", "acme", "fx-exposure", "gateway.fx-exposure"]) == {
        SLACK, MAILCHIMP}
    assert flagged_names([]) == frozenset()


def test_a_flagged_component_cuts_the_path_as_a_grammar_failure_does():
    shown = Withheld({SLACK})
    path = f"entries/acme/vendors/fixtures/{SLACK}/case.json"
    assert split_path(path) == (path, None)  # the grammar alone passes it
    assert split_path(path, shown.flagged) == ("entries/acme/vendors/fixtures",
                                               "<a name of 56 characters> and 1 more level below it")
    assert split_path("entries/acme/vendors/fixtures/vendor-7/case.json", shown.flagged)[1] is None  # near-miss
    assert entry_id(f"acme.{SLACK}") == f"acme.{SLACK}" and entry_id(f"acme.{SLACK}", shown.flagged) is None
    assert entry_id("acme.vendors", shown.flagged) == "acme.vendors"


def test_redact_describes_a_flagged_name_everywhere_in_a_refusal():
    shown = Withheld({SLACK}, {SLACK: "<a name of 56 characters>"})
    refusal = redact(Refusal("fixture-missing", "entries/acme/vendors/entry.json",
                             f"fixtures/0: no directory fixtures/{SLACK}", "acme.vendors", pointer="/fixtures/0"),
                     shown)
    assert refusal.path == "entries/acme/vendors/entry.json" and refusal.pointer == "/fixtures/0"
    assert refusal.detail == "fixtures/0: no directory fixtures/<a name of 56 characters>"
    skip = redact_skip(Skip(f"acme.{SLACK}", SLACK, f"kind-unread: http ({SLACK})"), shown)
    assert (skip.entry, skip.fixture) == ("<an entry id of 61 characters>", "<a fixture name of 56 characters>")
    assert SLACK not in skip.reason


def test_overlapping_hidden_strings_are_described_together():
    shown = Withheld(hidden={"abcdef": "<A>", "defghi": "<B>"})
    assert shown.text("x abcdefghi y") == "x <a value of 9 characters> y"
    assert shown.text("x abcdef y defghi") == "x <A> y <B>"
    assert Withheld().text("nothing hidden") == "nothing hidden"


def test_a_reviewed_text_holding_a_credential_is_withheld():
    """consumer/shown.py: a title or note of the release being left (never gated by this run) is shown only
    once the scan's named shapes find nothing in it; an ordinary title is shown as it is."""
    from judgment_exchange.consumer import shown

    assert shown.text(f"Vendors {SLACK}", 1, 200) == {
        "withheld": f"a string of {len(SLACK) + 8} characters holding a shape the scan refuses (a credential)"}
    assert shown.text("Vendors of the desk", 1, 200) == "Vendors of the desk"
    assert "withheld" in shown.artifact({"id": f"urn:x:{MAILCHIMP}", "version": "1.0.0"})
    assert shown.artifact({"id": "urn:x:vendors", "version": "1.0.0"}) == {"id": "urn:x:vendors", "version": "1.0.0"}


def test_a_withheld_skip_entry_annotates_no_file():
    """--format github: a skip whose entry the gate withheld names no file (its description is no path);
    near-miss: a skip of an id shown lands on entry.json."""
    from judgment_exchange.annotations import workflow_commands
    from judgment_exchange.refusal import Report

    report = Report(skipped=[Skip("<an entry id of 61 characters>", "<a fixture name of 56 characters>", "kind-unread"),
                             Skip("acme.vendors", "vendor-7", "kind-unread")])
    withheld_skip, shown_skip = workflow_commands(report, lambda path: None)
    assert withheld_skip.startswith("::warning title=fixture skipped::"), withheld_skip
    assert shown_skip.startswith("::warning file=entries/acme/vendors/entry.json,title=fixture skipped::"), shown_skip
