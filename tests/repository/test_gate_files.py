"""Gate changes travel alone (issue #16 item 2; docs/trust.md, "Gate files"): a pull request that touches
an entry changes nothing but that entry's directory, its manifest row and its own skips.json items; a
change to the gate's own files touches no entry, no manifest row and no skips.json item.

Each case is a pull request on a throwaway repository of the demonstration catalog; each refusal has
its near-miss (the same change alone passes)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from judgment_exchange.repository.pullrequest import is_gate_file, kind_of

from ..support.catalog import pretty
from .repos import (
    HTTP,
    OTHER,
    OTHER_DIR,
    acknowledgements,
    check,
    codes,
    commit,
    demo_repository,
    edit_readme,
    write_acknowledgements,
)

GATE_FILES = ["tools/refusal.py", "tests/test_gate.py", "benchmarks/run.py",
              "tools/judgment_exchange/conformance/kit/cases.json", "docs/demo-catalog/manifest.json", "docs/codes.md",
              ".ci/run", ".github/workflows/gate.yml",
              ".github/CODEOWNERS", "CODEOWNERS", "docs/CODEOWNERS", "pyproject.toml", "requirements.txt",
              "requirements.in", "requirements-dev.txt", "requirements.lock", "constraints.txt", "pylock.toml",
              "uv.lock", "setup.py", "setup.cfg", "conftest.py", ".gitattributes", "docs/.gitattributes",
              "verifier-pin.json",
              # issue #24: an allowlist, so every path nobody listed is the gate's
              "pip/__init__.py", "pip/__main__.py", "json/__init__.py", "subprocess.py", "sitecustomize.py",
              "pytest.ini", "tox.ini", "judgment_exchange/__init__.py", "docs/images/index.png", "docs/sub/page.md",
              "docs/requirements.txt", "docs/.gitignore", "toolsx/a.py", "tests.md", "README.rst", "NOTICE",
              ".pre-commit-config.yaml", "Makefile"]
"""Every kind of gate file: item 2's list of issue #16 and docs/trust.md's additions, and (issue #24) paths
nobody listed, written out by hand."""

NOT_GATE = ["README.md", "CONTRIBUTING.md", "docs/trust.md", "docs/skips.md", "LICENSE", "entries/README.md",
            "docs/demo-catalog.md", ".gitignore", "manifest.json", "skips.json", "releases.json",
            "entries/acme/vendors/entry.json", "entries/acme/vendors/fixtures/a/case.json", "entries/acme/stray.txt"]
"""Near-misses: the documents (exactly README.md, CONTRIBUTING.md, LICENSE, .gitignore, entries/README.md and
docs/*.md but docs/codes.md), the catalog's own files with their own rules, an entry's files, and a stray
file under entries/ (the gate's own catalog-stray-file refuses it)."""


@pytest.mark.parametrize("path", GATE_FILES)
def test_each_gate_file_is_a_gate_file(path):
    assert is_gate_file(path)


@pytest.mark.parametrize("path", NOT_GATE)
def test_near_miss_documents_and_look_alikes_are_not_gate_files(path):
    assert not is_gate_file(path)


def test_kinds_of_the_catalog_files():
    assert [kind_of(p) for p in ("entries/a/b/entry.json", "manifest.json", "skips.json", "releases.json",
                                 "verifier-pin.json", "tools/x.py", "entries/a/stray.txt", "entries/README.md",
                                 "README.md", "pip/__main__.py", "docs/images/a.png", "entries")] == \
        ["entry", "manifest", "skips", "ledger", "pin", "gate", "entries", "other", "other", "gate", "gate", "gate"]


@pytest.fixture
def repo(tmp_path):
    root = tmp_path / "catalog"
    return root, demo_repository(root)


def _gate_edit(root: Path, path: str) -> None:
    target = root / path
    target.parent.mkdir(parents=True, exist_ok=True)
    with open(target, "a", encoding="utf-8") as fh:
        fh.write("# changed by the pull request\n")


@pytest.mark.parametrize("path", ["tools/refusal.py", ".github/workflows/gate.yml", "pyproject.toml",
                                  "requirements.txt", "docs/codes.md", ".gitattributes", "CODEOWNERS"])
def test_attack_gate_change_travels_with_an_entry(repo, path):
    """A change to the gate's own code (here: the file that decides `passed`) riding with an entry that the
    changed gate would pass: refused, naming the gate file and the entry."""
    root, git = repo
    edit_readme(root)
    _gate_edit(root, path)
    commit(git)
    report = check(root)
    assert codes(report) == ["gate-change-with-entry"], codes(report)
    refusal = report.refusals[0]
    assert OTHER in refusal.detail and "split it" in refusal.detail


@pytest.mark.parametrize("path", ["tools/refusal.py", ".github/workflows/gate.yml", "pyproject.toml"])
def test_near_miss_a_gate_change_alone_passes(repo, path):
    root, git = repo
    _gate_edit(root, path)
    commit(git)
    report = check(root)
    assert report.passed, codes(report)
    assert report.touched == []
    assert any(path in note and "the maintainers must review it" in note for note in report.notes), report.notes


ROOT_SHADOWS = ["pip/__main__.py", "pytest.ini", "sitecustomize.py", "json/__init__.py", "subprocess.py"]
"""Files that, merged at the root, run inside whatever starts Python there (issue #24)."""


@pytest.mark.parametrize("path", ROOT_SHADOWS)
def test_attack_root_pip_module_merged_as_a_document(repo, path):
    """Issue #24: a pull request adding a root `pip/__main__.py` (or `pytest.ini`, `sitecustomize.py` …) was
    a "document" to the pull-request rules, so it rode beside an entry unrefused. It is a gate file: beside
    an entry it is gate-change-with-entry, naming it."""
    root, git = repo
    edit_readme(root)
    _gate_edit(root, path)
    commit(git)
    report = check(root)
    assert codes(report) == ["gate-change-with-entry"], codes(report)
    assert path in report.refusals[0].detail


@pytest.mark.parametrize("path", ROOT_SHADOWS)
def test_attack_root_pip_module_alone_is_named_for_review(repo, path):
    """Alone, the same file passes the gate (the gate does not judge a change to the gate) but the report
    names it as a change the maintainers must review; CODEOWNERS owns it (test_codeowners.py)."""
    root, git = repo
    _gate_edit(root, path)
    commit(git)
    report = check(root)
    assert report.passed, codes(report)
    notes = [n for n in report.notes if "the maintainers must review it" in n]
    assert len(notes) == 1 and path in notes[0], report.notes


def test_near_miss_a_document_alone_is_not_named_for_review(repo):
    root, git = repo
    (root / "docs" / "new-guide.md").parent.mkdir(exist_ok=True)
    (root / "docs" / "new-guide.md").write_text("# A guide\n")
    commit(git)
    report = check(root)
    assert report.passed, codes(report)
    assert not [n for n in report.notes if "the maintainers must review it" in n], report.notes


def test_a_gate_path_outside_the_display_grammar_is_not_shown_in_the_note(repo):
    root, git = repo
    _gate_edit(root, "tools/AKIAIOSFODNN7EXAMPLE.py")
    commit(git)
    report = check(root)
    assert not any("AKIAIOSFODNN7EXAMPLE" in n for n in report.notes), report.notes
    assert any("tools/<a name of 23 characters>" in n for n in report.notes), report.notes


def test_near_miss_an_entry_change_alone_passes(repo):
    root, git = repo
    edit_readme(root)
    commit(git)
    report = check(root)
    assert report.passed, codes(report)
    assert report.touched == [OTHER]


def test_a_gate_change_with_a_manifest_row_alone_is_refused(repo):
    """A row is the entry's: changing only the row (not the directory) still touches the entry."""
    root, git = repo
    rows = json.loads((root / "manifest.json").read_bytes())
    row = next(r for r in rows if r["id"] == OTHER)
    row["entryDigest"] = "sha256:" + "1" * 64
    (root / "manifest.json").write_bytes(pretty(rows))
    _gate_edit(root, "tools/refusal.py")
    commit(git)
    report = check(root)
    assert "gate-change-with-entry" in codes(report) and "manifest-digest-mismatch" in codes(report)
    assert report.touched == [OTHER]


def test_near_miss_a_gate_change_with_an_equal_manifest_rewritten_passes(repo):
    """The same rows written with other whitespace touch no row."""
    root, git = repo
    rows = json.loads((root / "manifest.json").read_bytes())
    (root / "manifest.json").write_bytes(json.dumps(rows, indent=4).encode() + b"\n")
    _gate_edit(root, "tools/refusal.py")
    commit(git)
    report = check(root)
    assert report.touched == [] and "gate-change-with-entry" not in codes(report)


def test_a_gate_change_with_a_skips_item_is_refused(repo):
    root, git = repo
    items = acknowledgements(root)
    items[0]["why"] = "Reworded, without review."
    write_acknowledgements(root, items)
    _gate_edit(root, "tools/refusal.py")
    commit(git)
    report = check(root)
    assert codes(report) == ["gate-change-with-entry"], codes(report)
    assert report.touched == [HTTP]


def test_an_entry_change_with_a_document_is_refused(repo):
    root, git = repo
    edit_readme(root)
    (root / "README.md").write_text((root / "README.md").read_text() + "\nA typo fixed.\n")
    commit(git)
    report = check(root)
    assert codes(report) == ["entry-change-with-other-file"], codes(report)
    assert "README.md" in report.refusals[0].detail


def test_near_miss_a_document_change_alone_passes(repo):
    root, git = repo
    (root / "README.md").write_text((root / "README.md").read_text() + "\nA typo fixed.\n")
    commit(git)
    assert check(root).passed


def test_the_one_entry_rule_counts_rows_and_acknowledgements(repo):
    """An entry's directory and another entry's skips.json item are two entries (RFC 0019 §6)."""
    root, git = repo
    edit_readme(root)
    items = acknowledgements(root)
    items[0]["why"] = "Reworded in the same pull request as another entry."
    write_acknowledgements(root, items)
    commit(git)
    report = check(root)
    assert "one-entry-per-pull-request" in codes(report)
    assert report.touched == sorted([HTTP, OTHER])


def test_the_pin_keeps_its_own_code(repo):
    """verifier-pin.json is a gate file with its own code (verifier-pin-moved-with-entry), not the new one."""
    root, git = repo
    edit_readme(root)
    (root / "verifier-pin.json").write_bytes(pretty({
        "pinVersion": 1, "reader": "Judgment-Pack/judgment-pack-spec/tools/dialect_verify.py@" + "a" * 40,
        "run": ["python3", "{path}"]}))
    commit(git)
    assert codes(check(root)) == ["verifier-pin-moved-with-entry"]


def test_a_refused_change_names_gate_paths_only_within_their_grammar(repo):
    """The refusal lists changed gate files by path; a name outside the catalog's grammar is cut to its
    nearest safe parent (quoting.path_text), so no author-chosen name is printed."""
    root, git = repo
    edit_readme(root)
    _gate_edit(root, "tools/AKIAIOSFODNN7EXAMPLE.py")
    commit(git)
    report = check(root)
    assert codes(report) == ["gate-change-with-entry"]
    assert "AKIAIOSFODNN7EXAMPLE" not in report.refusals[0].detail


def test_a_migration_passes_the_whole_gate_and_no_pull_request_rule(repo):
    """A maintainer's migration of many entries, with a gate change (docs/trust.md, "Maintainer's
    changes"): the whole gate passes it, which is the check the maintainer runs before landing it; as a
    pull request it is refused, so no contributor's pull request can take that path."""
    from .repos import HTTP_DIR

    root, git = repo
    for entry_dir in (OTHER_DIR, HTTP_DIR, Path("entries/gateway/fx-exposure")):
        readme = root / entry_dir / "README.md"
        readme.write_text(readme.read_text(encoding="utf-8") + "\nMigrated to the new wording.\n", encoding="utf-8")
    from .repos import repin

    repin(root)
    _gate_edit(root, "tools/refusal.py")
    commit(git, "Migrate three entries")
    whole = check(root, base=None)
    assert whole.passed, codes(whole)
    refused = check(root)
    assert set(codes(refused)) == {"one-entry-per-pull-request", "gate-change-with-entry"}
    assert len(refused.touched) == 3


def _github_commands(root: Path) -> list[str]:
    """`exchange check --base main --no-history --format github`'s workflow commands, as a trusted job prints them."""
    import subprocess

    done = subprocess.run(["exchange", "check", "--catalog", str(root), "--base", "main", "--no-history",
                           "--format", "github"], capture_output=True, text=True, check=False,
                          env={**__import__("os").environ, "GITHUB_STEP_SUMMARY": ""})
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout.splitlines()


def test_attack_gate_only_change_passes_with_no_annotation(repo):
    """Issue #38 item 5: a pull request touching only the gate's own files showed a passing check and no
    annotation but the pinned-verifier warning; the note that the maintainers must review it reached only
    the text and JSON reports. It is now a ::notice naming the files."""
    root, git = repo
    _gate_edit(root, "tools/refusal.py")
    commit(git)
    notices = [line for line in _github_commands(root) if line.startswith("::notice")]
    assert len(notices) == 1, notices
    assert "tools/refusal.py" in notices[0] and "the maintainers must review it" in notices[0], notices


def test_near_miss_an_entry_change_gets_no_gate_notice(repo):
    root, git = repo
    edit_readme(root)
    commit(git)
    assert not [line for line in _github_commands(root) if line.startswith("::notice")]
