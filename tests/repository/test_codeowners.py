"""CODEOWNERS makes the maintainers' team review everything but the contributor's zone and the documents
(issue #24 item 1; docs/trust.md, "Who may touch what"). The file is an allowlist: `*` owned by the team
first, then owner-less lines for exactly the entry folders, manifest.json and the documents, then
docs/codes.md owned again. Held two ways: equal to the package's one list (repository/zone.codeowners_rules),
and read by tests/repository/codeowners.py — written from GitHub's documentation — against paths written
out here by hand and every tracked file, each owned exactly when the gate's classification says it is
the gate's or the catalog's reviewed files."""

from __future__ import annotations

import subprocess

import pytest

from judgment_exchange.repository.zone import codeowners_rules, kind_of

from ..support.paths import REPO
from .codeowners import FormError, owners_of, parse

CODEOWNERS = REPO / ".github" / "CODEOWNERS"
TEAM = "@Judgment-Pack/exchange-maintainers"

TRUSTED = ["skips.json", "verifier-pin.json", "releases.json", "tools/judgment_exchange/refusal.py",
           "tools/judgment_exchange/repository/pullrequest.py", "tests/test_entries.py", "benchmarks/run.py",
           "tools/judgment_exchange/conformance/kit/cases.json", "docs/demo-catalog/manifest.json",
           "docs/demo-catalog/README.md",
           "docs/codes.md", ".ci/run", ".github/workflows/gate.yml", ".github/workflows/ci.yml",
           ".github/dependabot.yml", ".github/CODEOWNERS", "pyproject.toml", "requirements.txt", "requirements.in",
           "requirements-dev.txt", "requirements-build.txt", "requirements.lock", "constraints.txt", "uv.lock",
           "pylock.toml", "setup.py", "setup.cfg", "conftest.py", ".gitattributes", "docs/.gitattributes",
           "CODEOWNERS", "docs/CODEOWNERS", "docs/images/index.png", "docs/sub/page.md",
           # issue #24: paths nobody listed, which run inside whatever starts Python (or pytest) at the root
           "pip/__init__.py", "pip/__main__.py", "json/__init__.py", "subprocess.py", "sitecustomize.py",
           "pytest.ini", "judgment_exchange/__init__.py", "Makefile", "README.rst", "entries/acme/stray.txt"]
"""Paths the maintainers must review, present or not yet, written out by hand."""

UNOWNED = ["entries/acme/vendors/entry.json", "entries/acme/vendors/fixtures/vendor-7/case.json", "manifest.json",
           "README.md", "CONTRIBUTING.md", "LICENSE", ".gitignore", "entries/README.md", "docs/trust.md",
           "docs/new-guide.md"]
"""Near-misses: an entry's files, its manifest row and the documents are not the team's alone to review."""


def _rules():
    return parse(CODEOWNERS.read_text(encoding="utf-8"))


def _tracked() -> list[str]:
    done = subprocess.run(["git", "ls-files", "-z"], cwd=REPO, capture_output=True, check=False)
    if done.returncode != 0:  # not a git checkout: every file on disk
        return [p.relative_to(REPO).as_posix() for p in REPO.rglob("*") if p.is_file() and ".git" not in p.parts]
    return [p for p in done.stdout.decode("utf-8", "surrogateescape").split("\0") if p]


def test_the_file_is_the_packages_one_list():
    """CODEOWNERS, rule by rule, is repository/zone.codeowners_rules(): what the gate classifies and what
    GitHub enforces cannot drift apart."""
    assert [(r.pattern, r.owners[0] if r.owners else None) for r in _rules()] == codeowners_rules()


def test_it_begins_with_everything_owned_and_names_one_team():
    rules = _rules()
    assert (rules[0].pattern, rules[0].owners) == ("*", (TEAM,))
    assert {owner for rule in rules for owner in rule.owners} == {TEAM}
    assert all(len(rule.owners) <= 1 for rule in rules)


def test_owner_less_lines_only_for_the_zone_and_the_documents():
    """Written out by hand: the entry folders, manifest.json and the documents, nothing else."""
    assert sorted(r.pattern for r in _rules() if not r.owners) == sorted([
        "/entries/*/*/", "/manifest.json", "/README.md", "/CONTRIBUTING.md", "/LICENSE", "/.gitignore",
        "/entries/README.md", "/docs/*.md"])


@pytest.mark.parametrize("path", TRUSTED)
def test_every_path_the_maintainers_review_has_the_team_as_owner(path):
    assert owners_of(_rules(), path) == (TEAM,), path


@pytest.mark.parametrize("path", ["pip/__main__.py", "pytest.ini"])
def test_attack_root_pip_module_merged_on_one_ordinary_review(path):
    """Issue #24: a new root `pip/__main__.py` or `pytest.ini` had no owner, so one approving review by anyone
    with write access merged it; the `*` line owns it now."""
    assert owners_of(_rules(), path) == (TEAM,)


@pytest.mark.parametrize("path", UNOWNED)
def test_near_miss_entries_and_documents_have_no_owner(path):
    assert owners_of(_rules(), path) == ()


def test_every_tracked_file_is_owned_exactly_when_the_gate_says_a_maintainer_reviews_it():
    """Every tracked file, both ways: owned when the gate's classification makes it a gate file or one of the
    catalog's reviewed files (skips.json, releases.json), unowned when it is an entry's file, manifest.json
    or a document."""
    rules = _rules()
    tracked = _tracked()
    assert len(tracked) > 100
    wrong = [p for p in tracked
             if (owners_of(rules, p) == (TEAM,)) != (kind_of(p) not in ("entry", "manifest", "other"))]
    assert wrong == []


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


def _generated_paths() -> list[str]:
    """Paths generated from every document name, as a file and as a folder at one and two levels, beside the
    contributor's zone and look-alikes: where an owner-less document line could un-own more than the document."""
    documents = ["README.md", "CONTRIBUTING.md", "LICENSE", ".gitignore", "entries/README.md", "docs/trust.md",
                 "docs/new.md", "docs/codes.md"]
    out = []
    for document in documents:
        out += [document, f"{document}/x.py", f"{document}/sub/__init__.py", f"{document}/a/b/c",
                f"{document}.bak", f"x/{document}"]
    out += ["entries/acme/vendors/entry.json", "entries/acme/vendors/fixtures/f/case.json", "entries/acme/stray.txt",
            "manifest.json", "manifest.json/x", "skips.json", "releases.json", "verifier-pin.json", "docs/sub/a.md",
            "docs/a.md.d/x", "tools/README.md", "docs/images/index.png"]
    return out


@pytest.mark.parametrize("path", _generated_paths())
def test_attack_folder_under_a_documents_name_is_unowned(path):
    """Issue #38 item 2: the owner-less `/README.md`, `/LICENSE`, `/docs/*.md` … lines also match a FOLDER of
    that name and all below it, so `README.md/sitecustomize.py` merged on any approval while the gate called it
    a gate file. Every generated path is owned exactly when the gate's classification says a maintainer
    reviews it (the near misses: the documents themselves, an entry's files and manifest.json, unowned)."""
    owned = owners_of(_rules(), path) == (TEAM,)
    assert owned == (kind_of(path) not in ("entry", "manifest", "other")), (path, kind_of(path), owned)


@pytest.mark.parametrize("path", ["README.md/sitecustomize.py", "docs/trust.md/x.py", "LICENSE/pip/__main__.py",
                                  "entries/README.md/acme/vendors/entry.json"])
def test_a_folder_under_a_documents_name_is_a_gate_file(path):
    assert kind_of(path) == "gate" and owners_of(_rules(), path) == (TEAM,)
