"""Acknowledgements under review (issue #16 item 3; docs/skips.md): under --base, every entry whose
skips.json items the pull request adds, changes or removes gets every check, so an acknowledgement given
ahead of its skip is stale there as on main; once the base holds skips.json a pull request keeps it.

The demonstration catalog's http entry has one kind-unread fixture (vendor-7), acknowledged; vendor-8
is a second one a later pull request could add."""

from __future__ import annotations

import pytest

from judgment_exchange.cli import main

from .repos import (
    HTTP,
    OTHER,
    acknowledgement,
    acknowledgements,
    add_skipped_fixture,
    check,
    codes,
    commit,
    demo_repository,
    edit_readme,
    write_acknowledgements,
)


@pytest.fixture
def repo(tmp_path):
    root = tmp_path / "catalog"
    return root, demo_repository(root)


def test_attack_acknowledgement_added_ahead_of_its_skip(repo):
    """Attack 2: a pull request that only appends an item for a fixture that does not exist yet. Held by
    its pins, the entry's acknowledgements were not judged and the change passed; now the entry gets
    every check and the item is stale, as the full gate on the same tree says."""
    root, git = repo
    write_acknowledgements(root, acknowledgements(root) + [acknowledgement()])
    commit(git)
    report = check(root)
    full = check(root, base=None)
    assert codes(report) == ["skip-acknowledgement-stale"] == codes(full)
    assert report.touched == [HTTP]
    assert "vendor-8" in report.refusals[0].detail and report.refusals[0].entry == HTTP


def test_near_miss_an_acknowledgement_with_its_skip_passes(repo):
    """The fixture and its acknowledgement in one pull request, which a reviewer sees together."""
    root, git = repo
    add_skipped_fixture(root)
    write_acknowledgements(root, acknowledgements(root) + [acknowledgement()])
    commit(git)
    report = check(root)
    assert report.passed, codes(report)
    assert [(s.fixture, s.acknowledged) for s in report.skipped] == [("vendor-7", True), ("vendor-8", True)]


def test_the_later_skip_without_its_acknowledgement_is_refused(repo):
    """The second half of attack 2: the kind-unread fixture added with no item for it."""
    root, git = repo
    add_skipped_fixture(root)
    commit(git)
    assert codes(check(root)) == ["skip-unacknowledged"]


def test_a_changed_reason_gives_its_entry_every_check(repo):
    """A reworded `why` is an item the change alters: the entry is checked in full (its skip is current,
    so the change passes), not held by its pins."""
    root, git = repo
    items = acknowledgements(root)
    items[0]["why"] = "Reviewed again in #16: still no reader for http sources."
    write_acknowledgements(root, items)
    commit(git)
    report = check(root)
    assert report.passed and report.touched == [HTTP]
    assert [r.entry for r in report.replays] == [HTTP]


def test_attack_skips_json_deleted_with_a_skipped_fixture(repo):
    """Attack 3: the pull request that adds a skipped fixture deletes skips.json, switching the rule off."""
    root, git = repo
    add_skipped_fixture(root)
    (root / "skips.json").unlink()
    commit(git)
    report = check(root)
    assert codes(report) == ["skips-file-removed"], codes(report)
    assert report.refusals[0].path == "skips.json"
    assert report.touched == [HTTP]


def test_skips_json_deleted_alone_is_refused(repo):
    root, git = repo
    (root / "skips.json").unlink()
    commit(git)
    assert codes(check(root)) == ["skips-file-removed"]


def test_near_miss_a_catalog_that_never_held_skips_json_passes_with_a_warning(tmp_path):
    """RFC 0019 §4 as written: without the file (on the base too) a skip is a reported warning only."""
    root = tmp_path / "catalog"
    git = demo_repository(root, skips=False)
    add_skipped_fixture(root)
    commit(git)
    report = check(root)
    assert report.passed, codes(report)
    assert [(s.fixture, s.acknowledged) for s in report.skipped] == [("vendor-7", None), ("vendor-8", None)]


def test_attack_skips_json_emptied_while_skips_remain(repo):
    """Emptying the file keeps it, but its entry's items changed: the entry gets every check and its
    remaining skip is unacknowledged."""
    root, git = repo
    write_acknowledgements(root, [])
    commit(git)
    report = check(root)
    assert codes(report) == ["skip-unacknowledged"]
    assert report.touched == [HTTP]


def test_near_miss_an_entry_pull_request_leaves_other_acknowledgements_unjudged(repo):
    """An untouched entry's acknowledgements were judged on the base: a pull request for another entry
    does not re-check them (its entry is held by its pins)."""
    root, git = repo
    edit_readme(root)
    commit(git)
    report = check(root)
    assert report.passed and report.touched == [OTHER]
    assert HTTP not in {r.entry for r in report.replays}


def test_the_command_line_says_the_same(repo, capsys):
    root, git = repo
    write_acknowledgements(root, acknowledgements(root) + [acknowledgement()])
    commit(git)
    assert main(["check", "--catalog", str(root), "--base", "main", "--no-history"]) == 1
    out = capsys.readouterr().out
    assert "refused skip-acknowledgement-stale" in out and f"touched: {HTTP}" in out
