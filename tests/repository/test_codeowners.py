"""CODEOWNERS makes the maintainers' team review what the gate trusts (issue #16 item 3; docs/trust.md):
skips.json, verifier-pin.json, releases.json, the gate's own files and the workflows. The form of each
line is GitHub's, one team is named, and under the last-matching-line rule every such file has an owner.
The reading of the file is tests/repository/codeowners.py, written from GitHub's documentation; which
files the gate trusts comes from the repository's own list (repository/pullrequest.is_gate_file) AND a
list written out here by hand, so neither alone decides."""

from __future__ import annotations

import subprocess

import pytest

from judgment_exchange.repository.pullrequest import is_gate_file

from ..support.paths import REPO
from .codeowners import FormError, owners_of, parse

CODEOWNERS = REPO / ".github" / "CODEOWNERS"
TEAM = "@Judgment-Pack/exchange-maintainers"

TRUSTED = ["skips.json", "verifier-pin.json", "releases.json", "tools/judgment_exchange/refusal.py",
           "tools/judgment_exchange/repository/pullrequest.py", "tests/test_entries.py", "benchmarks/run.py",
           "conformance/consumer/cases.json", "docs/demo-catalog/manifest.json", "docs/codes.md", ".ci/run",
           ".github/workflows/gate.yml", ".github/workflows/ci.yml", ".github/dependabot.yml", ".github/CODEOWNERS",
           "pyproject.toml", "requirements.txt", "requirements.in", "requirements.lock", "constraints.txt",
           "uv.lock", "pylock.toml", "setup.py", "setup.cfg", "conftest.py", ".gitattributes",
           "docs/.gitattributes", "CODEOWNERS", "docs/CODEOWNERS"]
"""Files the gate trusts, present or not yet, written out by hand."""

UNOWNED = ["entries/acme/vendors/entry.json", "manifest.json", "README.md", "docs/trust.md", "docs/requirements.txt"]
"""Near-misses: an entry, its manifest and the documents are not the team's alone to review."""


def _rules():
    return parse(CODEOWNERS.read_text(encoding="utf-8"))


def _tracked() -> list[str]:
    done = subprocess.run(["git", "ls-files", "-z"], cwd=REPO, capture_output=True, check=False)
    if done.returncode != 0:  # not a git checkout: every file on disk
        return [p.relative_to(REPO).as_posix() for p in REPO.rglob("*") if p.is_file() and ".git" not in p.parts]
    return [p for p in done.stdout.decode("utf-8", "surrogateescape").split("\0") if p]


def test_every_line_is_a_pattern_and_owners_of_one_team():
    rules = _rules()
    assert rules, "CODEOWNERS holds no rule"
    assert all(rule.owners for rule in rules), [r.pattern for r in rules if not r.owners]
    assert {owner for rule in rules for owner in rule.owners} == {TEAM}


@pytest.mark.parametrize("path", TRUSTED)
def test_every_file_the_gate_trusts_has_the_team_as_owner(path):
    assert owners_of(_rules(), path) == (TEAM,), path


def test_every_tracked_gate_file_has_an_owner():
    rules = _rules()
    gate = [p for p in _tracked() if is_gate_file(p) or p in ("skips.json", "verifier-pin.json", "releases.json")]
    assert len(gate) > 100  # tools/ and tests/ at least
    assert [p for p in gate if owners_of(rules, p) != (TEAM,)] == []


@pytest.mark.parametrize("path", UNOWNED)
def test_near_miss_entries_and_documents_have_no_owner(path):
    assert owners_of(_rules(), path) == ()


def test_the_last_matching_line_wins():
    """The reading can fail: a later line without owners un-owns what an earlier line owned."""
    rules = parse("/tools/ @org/team\n/tools/gate.py\n")
    assert owners_of(rules, "tools/other.py") == ("@org/team",)
    assert owners_of(rules, "tools/gate.py") == ()


@pytest.mark.parametrize("pattern, path, owned", [
    ("/tools/", "tools/a/b.py", True), ("/tools/", "tools", False), ("/tools/", "x/tools/a.py", False),
    (".gitattributes", "docs/.gitattributes", True), ("/requirements*", "requirements.txt", True),
    ("/requirements*", "docs/requirements.txt", False), ("/*.lock", "uv.lock", True), ("/*.lock", "a/uv.lock", False),
    ("docs/**/x.md", "docs/a/b/x.md", True), ("*.md", "a/b.md", True), ("/skips.json", "skips.json.bak", False),
])
def test_the_reading_of_patterns(pattern, path, owned):
    assert bool(owners_of(parse(f"{pattern} @org/team\n"), path)) is owned


@pytest.mark.parametrize("line", ["/tools/ org/team", "!/tools/ @org/team", "/t[ab]/ @org/team",
                                  "/tools/ @org/team # reviewers", "/tools/ @-bad"])
def test_a_line_out_of_form_is_refused(line):
    with pytest.raises(FormError):
        parse(line + "\n")
