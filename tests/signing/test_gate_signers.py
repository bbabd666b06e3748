"""Issue #36 item 1 in the gate: release-signers at a catalog's root is a gate file by the allowlist (code-owned,
it travels alone), and its form is checked on every pull request and push."""

from __future__ import annotations

import pytest

from judgment_exchange.gate.pipeline import GateOptions, check_catalog
from judgment_exchange.repository import zone
from judgment_exchange.tree import GitTree, WorkingTree

from ..repository.repos import OTHER, check, codes, commit, demo_repository, edit_readme
from .support import make_key

FAST = dict(replay=False, scan=False)


@pytest.fixture
def repo(tmp_path):
    root = tmp_path / "catalog"
    return root, demo_repository(root)


@pytest.fixture(scope="module")
def key(tmp_path_factory):
    return make_key(tmp_path_factory.mktemp("keys"), "k1")


def test_release_signers_is_a_gate_file_by_the_allowlist():
    assert zone.kind_of("release-signers") == zone.GATE
    assert zone.is_gate_file("release-signers")
    assert not zone.is_document("release-signers")


def test_attack_release_signers_riding_with_an_entry_is_refused(repo, key):
    root, git = repo
    edit_readme(root)
    (root / "release-signers").write_text(key.line("one") + "\n", encoding="ascii")
    commit(git)
    report = check(root, **FAST)
    assert codes(report) == ["gate-change-with-entry"], codes(report)
    assert OTHER in report.refusals[0].detail and "release-signers" in report.refusals[0].detail


def test_release_signers_alone_in_its_form_passes(repo, key):
    root, git = repo
    (root / "release-signers").write_text(key.line("one") + "\n", encoding="ascii")
    commit(git)
    report = check(root, **FAST)
    assert report.passed, codes(report)


@pytest.mark.parametrize("options", ['namespaces="git",valid-before="20200101"', 'namespaces="file"'])
def test_attack_release_signers_out_of_form_is_refused_on_a_pull_request(repo, key, options):
    root, git = repo
    (root / "release-signers").write_text(key.line("one", options) + "\n", encoding="ascii")
    commit(git)
    report = check(root, **FAST)
    assert codes(report) == ["release-signers-malformed"], codes(report)
    assert report.refusals[0].path == "release-signers" and report.refusals[0].line == 1


def test_attack_release_signers_out_of_form_is_refused_on_a_push(repo, key):
    root, git = repo
    (root / "release-signers").write_text(key.line("one") + "\n" + key.line("two") + "\n", encoding="ascii")
    head = commit(git)
    report = check_catalog(GitTree(str(root), head), GateOptions(repository=str(root), history=False, **FAST))
    assert codes(report) == ["release-signers-malformed"], codes(report)


def test_attack_release_signers_as_a_directory_is_refused(repo):
    root, _ = repo
    (root / "release-signers").mkdir()
    (root / "release-signers" / "keys").write_text("x\n")
    report = check_catalog(WorkingTree(str(root)), GateOptions(repository=str(root), history=False, **FAST))
    assert "release-signers-malformed" in codes(report)
    assert "not a regular file" in next(r.detail for r in report.refusals if r.code == "release-signers-malformed")


def test_a_catalog_without_release_signers_is_unchanged(repo):
    root, _ = repo
    report = check_catalog(WorkingTree(str(root)), GateOptions(repository=str(root), history=False, **FAST))
    assert report.passed, codes(report)
