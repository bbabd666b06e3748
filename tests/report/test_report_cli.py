"""The report's additions (issue #9 items 5–6) through `exchange check`: the fix under each refusal,
`fix` and `doc` in JSON, `--format github` with the offending member's line, and the step summary."""

from __future__ import annotations

import json
import re

import pytest

from judgment_exchange.cli import main
from judgment_exchange.history.model import CurrentEntry, HistoricalRow
from judgment_exchange.history.upgrade import unknown_key_refusals

from ..support.catalog import CatalogBuilder
from ..support.paths import REPO

ZERO = "sha256:" + "0" * 64


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def refused(tmp_path, monkeypatch):
    """A catalog whose entry has a wrong dialect.digest and a title of the wrong type, beside an http
    entry whose fixture is skipped; GitHub's variables point the workspace at tmp_path."""
    builder = CatalogBuilder(tmp_path / "catalog")
    path = builder.add_runner_entry()
    builder.add_http_entry()
    entry = json.loads((path / "entry.json").read_bytes())
    entry["dialect"]["digest"] = ZERO
    entry["title"] = 5
    (path / "entry.json").write_text(json.dumps(entry, indent=2), encoding="utf-8")
    builder.write_manifest()
    for name in ("GITHUB_STEP_SUMMARY", "GITHUB_SERVER_URL", "GITHUB_REPOSITORY", "GITHUB_SHA"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("GITHUB_WORKSPACE", str(tmp_path))
    return builder.root


def _line_holding(path, needle: str) -> int:
    """The 1-based line of the text holding `needle`, counted here by plain search."""
    lines = path.read_text(encoding="utf-8").splitlines()
    return next(i for i, line in enumerate(lines, 1) if needle in line)


def test_text_prints_the_fix_under_each_refusal(capsys, refused):
    code, out, _ = run(capsys, "check", "--catalog", str(refused), "--no-history")
    lines = out.splitlines()
    assert code == 1
    at = next(i for i, line in enumerate(lines) if line.startswith("refused dialect-digest-mismatch:"))
    assert lines[at + 1] == "  fix: Recompute dialect.digest from the document. Run `exchange fix`."
    refused_lines = [i for i, line in enumerate(lines) if line.startswith("refused ")]
    assert all(lines[i + 1].startswith("  fix: ") for i in refused_lines)


def test_json_adds_fix_and_doc_and_each_doc_anchor_exists(capsys, refused):
    code, out, _ = run(capsys, "check", "--catalog", str(refused), "--format", "json", "--no-history")
    report = json.loads(out)
    assert code == 1 and report["refusals"]
    codes_md = (REPO / "docs" / "codes.md").read_text(encoding="utf-8")
    for r in report["refusals"]:
        assert set(r) == {"code", "entry", "path", "detail", "fix", "doc"}
        assert r["doc"] == f"docs/codes.md#{r['code']}" and f'<a id="{r["code"]}"></a>' in codes_md
        assert r["fix"]
    digest = next(r for r in report["refusals"] if r["code"] == "dialect-digest-mismatch")
    assert digest["fix"].endswith("Run `exchange fix`.")


def test_github_format_annotates_the_offending_members_line(capsys, refused, tmp_path):
    code, out, err = run(capsys, "check", "--catalog", str(refused), "--format", "github", "--no-history")
    assert code == 1 and err == ""
    lines = out.splitlines()
    assert all(line.startswith(("::error ", "::warning ")) for line in lines)
    entry = refused / "entries/acme/vendors/entry.json"
    digest_line = _line_holding(entry, ZERO)
    title_line = _line_holding(entry, '"title": 5')
    assert (f"::error file=catalog/entries/acme/vendors/entry.json,line={digest_line},"
            "title=dialect-digest-mismatch::") in out
    assert f"::error file=catalog/entries/acme/vendors/entry.json,line={title_line},title=entry-member-invalid::" in out
    http = refused / "entries/acme/vendors-http/entry.json"
    fixture_line = _line_holding(http, '"name": "vendor-7"') - 1  # the row's opening brace
    warning = [line for line in lines if line.startswith("::warning ")]
    assert warning == [line for line in warning if line.startswith(
        f"::warning file=catalog/entries/acme/vendors-http/entry.json,line={fixture_line},title=fixture skipped::")]
    assert len(warning) == 1


def test_github_format_writes_the_step_summary(capsys, refused, tmp_path, monkeypatch):
    target = tmp_path / "step-summary.md"
    monkeypatch.setenv("GITHUB_STEP_SUMMARY", str(target))
    code, out, _ = run(capsys, "check", "--catalog", str(refused), "--format", "github", "--no-history")
    text = target.read_text(encoding="utf-8")
    assert code == 1 and text.startswith("## exchange check: fail")
    errors = re.findall(r"title=([a-z0-9-]+)::", out)
    assert errors and all(f"[`{c}`](docs/codes.md#{c})" in text for c in errors if c != "fixture")
    assert "### acme\\.vendors" in text and "| acme\\.vendors\\-http | vendor\\-7 |" in text


def test_github_format_on_a_passing_catalog(capsys, tmp_path, monkeypatch):
    builder = CatalogBuilder(tmp_path / "catalog")
    builder.add_runner_entry()
    builder.write_manifest()
    target = tmp_path / "summary.md"
    monkeypatch.setenv("GITHUB_STEP_SUMMARY", str(target))
    monkeypatch.setenv("GITHUB_WORKSPACE", str(tmp_path))
    code, out, _ = run(capsys, "check", "--catalog", str(builder.root), "--format", "github", "--no-history")
    assert code == 0 and out == ""
    assert "## exchange check: pass" in target.read_text(encoding="utf-8")


def test_an_unknown_member_is_located_and_not_printed_in_the_pointer(capsys, refused):
    """The pointer may hold an author's member name; it only finds the line and is never printed."""
    path = refused / "entries/acme/vendors/entry.json"
    text = path.read_text(encoding="utf-8").replace('"kind"', '"x::error title=y::z": 1,\n  "kind"', 1)
    path.write_text(text, encoding="utf-8")
    _, out, _ = run(capsys, "check", "--catalog", str(refused), "--format", "github", "--no-history")
    line = _line_holding(path, "x::error")
    unknown = [x for x in out.splitlines() if "title=entry-member-unknown" in x]
    assert len(unknown) == 1 and f",line={line}," in unknown[0]
    assert all(x.startswith(("::error ", "::warning ")) for x in out.splitlines())


def test_upgrade_key_unknown_lists_the_valid_keys():
    a1, a2, b1 = "sha256:" + "a" * 64, "sha256:" + "b" * 64, "sha256:" + "c" * 64
    rows = [HistoricalRow("v0.1.0", "acme.x", a1), HistoricalRow("v0.2.0", "acme.x", a1),
            HistoricalRow("v0.3.0", "acme.x", a2), HistoricalRow("v0.3.0", "acme.y", b1)]
    current = [CurrentEntry("acme.x", "entries/acme/x", upgrade_keys=(b1,)),
               CurrentEntry("acme.z", "entries/acme/z", upgrade_keys=(a1, "not a digest\n::error::x"))]
    x, z1, z2 = unknown_key_refusals(current, rows, releases=3)
    assert x.detail.endswith(f"the valid keys are this entry's earlier entryDigests: {a1} (v0.1.0, v0.2.0); "
                             f"{a2} (v0.3.0)")
    assert z1.detail.endswith("no earlier release holds this entry, so no key is valid (remove upgrade)")
    assert z2.detail.startswith("upgrade key #2 (not a digest): ") and "::error" not in z2.detail
    assert x.pointer == f"/upgrade/{b1}"


def test_upgrade_key_known_is_not_refused():
    a1 = "sha256:" + "a" * 64
    rows = [HistoricalRow("v0.1.0", "acme.x", a1)]
    assert unknown_key_refusals([CurrentEntry("acme.x", "entries/acme/x", upgrade_keys=(a1,))], rows, 1) == []


def test_an_unwritable_step_summary_is_an_io_failure(capsys, refused, tmp_path, monkeypatch):
    monkeypatch.setenv("GITHUB_STEP_SUMMARY", str(tmp_path))  # a directory: cannot be appended to
    code, out, err = run(capsys, "check", "--catalog", str(refused), "--format", "github", "--no-history")
    assert code == 4 and "GITHUB_STEP_SUMMARY" in err and out.startswith("::error ")


def test_a_refusal_of_an_unregistered_code_has_null_fix_and_doc():
    from judgment_exchange.refusal import Refusal

    assert Refusal("no-such-code", None, "d").as_json() == {"code": "no-such-code", "entry": None, "path": None,
                                                             "detail": "d", "fix": None, "doc": None}
    known = Refusal("manifest-order", "manifest.json", "d").as_json()
    assert known["doc"] == "docs/codes.md#manifest-order" and known["fix"].endswith("Run `exchange manifest --write`.")
