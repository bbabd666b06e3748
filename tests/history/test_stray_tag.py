"""A stray tag above the release checked is out of scope (issue #16 item 5; docs/releasing.md, "Main").

Releases are made as `exchange release` makes them (make_release); the stray tags are plain `git tag`
calls. Every expectation is written out here: the codes, the tag names a note must carry.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from judgment_exchange.cli import main as exchange
from judgment_exchange.consumer import release_check
from judgment_exchange.history import check_history
from judgment_exchange.releasing.release import make_release

from ..support.gitrepo import gate_on, git_identity
from ..support.simulator import CatalogSimulator, empty_released_twice


@pytest.fixture(autouse=True)
def identity(monkeypatch) -> None:
    git_identity(monkeypatch)


@pytest.fixture
def catalog(tmp_path: Path) -> CatalogSimulator:
    return empty_released_twice(tmp_path / "catalog")


def _notes_naming(notes: list[str], tag: str) -> list[str]:
    return [n for n in notes if f"tag {tag} " in n]


def test_attack_stray_higher_tag_blocks_rechecking_older_releases(catalog: CatalogSimulator, capsys) -> None:
    catalog.tag("v0.3.0", "v0.2.0^{commit}")  # unrecorded, on v0.2.0's own commit
    # a consumer's check of the recorded release passes, and says which tag it ignored
    result = release_check(str(catalog.path), "v0.2.0")
    assert ([r.code for r in result.report.refusals], result.report.history) == ([], "checked")
    noted = _notes_naming(result.report.notes, "v0.3.0")
    assert len(noted) == 1 and "above" in noted[0] and "v0.2.0" in noted[0], result.report.notes
    assert exchange(["release-check", str(catalog.path), "v0.2.0"]) == 0
    assert "v0.3.0" in capsys.readouterr().out
    # the catalog's own gate for that release (the release workflow's `exchange check --release-tag`)
    report = gate_on(catalog, release_tag="v0.2.0")
    assert ([r.code for r in report.refusals], report.history) == ([], "checked")
    assert len(_notes_naming(report.notes, "v0.3.0")) == 1, report.notes
    assert exchange(["check", "--catalog", str(catalog.path), "--release-tag", "v0.2.0"]) == 0
    assert "v0.3.0" in capsys.readouterr().out
    # the first release is out of the stray's reach as well
    assert release_check(str(catalog.path), "v0.1.0").report.refusals == []


def test_near_miss_the_stray_tag_still_fails_a_check_of_main_without_a_release_tag(catalog: CatalogSimulator) -> None:
    catalog.tag("v0.3.0", "v0.2.0^{commit}")
    report = gate_on(catalog)
    assert [r.code for r in report.refusals] == ["release-tag-unrecorded"]
    assert "v0.3.0" in report.refusals[0].detail
    assert exchange(["check", "--catalog", str(catalog.path)]) == 1


def test_near_miss_a_stray_tag_below_the_release_is_still_refused(catalog: CatalogSimulator) -> None:
    catalog.tag("v0.1.5", "v0.2.0^{commit}~1")  # on main, between v0.1.0 and v0.2.0
    result = release_check(str(catalog.path), "v0.2.0")
    assert [r.code for r in result.report.refusals] == ["release-tag-unrecorded"]
    assert "v0.1.5" in result.report.refusals[0].detail
    report = gate_on(catalog, release_tag="v0.2.0")
    assert [r.code for r in report.refusals] == ["release-tag-unrecorded"]


def test_near_miss_a_stray_tag_below_on_the_release_commit_itself_is_refused(catalog: CatalogSimulator) -> None:
    catalog.tag("v0.1.5", "v0.2.0^{commit}")
    result = release_check(str(catalog.path), "v0.2.0")
    assert [r.code for r in result.report.refusals] == ["release-tag-unrecorded"]


def test_a_stray_tag_above_the_release_being_made_is_out_of_its_check_but_release_refuses_it(catalog) -> None:
    """The gate for v0.3.0 leaves v0.9.0 out of scope; `exchange release` keeps the producer's rule the
    release workflow holds (a release is above every release tag on main) and names the tag."""
    catalog.tag("v0.9.0", "v0.2.0^{commit}")
    result = check_history(str(catalog.path), [], release_tag="v0.3.0")
    assert (result.refusals, result.releases) == ([], ["v0.1.0", "v0.2.0"])
    assert len(_notes_naming(result.notes, "v0.9.0")) == 1, result.notes
    above = check_history(str(catalog.path), [], release_tag="v0.9.1")
    assert [r.code for r in above.refusals] == ["release-tag-unrecorded"]
    before = catalog.rev("HEAD")
    made = make_release(str(catalog.path), "v0.3.0")
    assert made.status == 1 and "v0.9.0" in made.lines[0] and "git tag -d v0.9.0" in made.lines[0], made.lines
    assert catalog.rev("HEAD") == before and "v0.3.0" not in catalog.git("tag", "--list").split()
    catalog.delete_tag("v0.9.0")  # the fix the refusal names
    assert make_release(str(catalog.path), "v0.3.0").status == 0


def test_a_higher_tag_off_main_is_ignored_without_a_refusal(catalog: CatalogSimulator) -> None:
    catalog.side_release("v0.3.0", "HEAD", branch="side", message="side work", annotated=False)  # main's tree
    assert release_check(str(catalog.path), "v0.2.0").report.refusals == []
    assert gate_on(catalog, release_tag="v0.2.0").refusals == []
    assert gate_on(catalog).refusals == []  # off main: noted, never refused (as before)


# --- a catalog without a ledger: its releases are main's tags -------------------------------------


@pytest.fixture
def ledgerless(tmp_path: Path) -> CatalogSimulator:
    """Another RFC 0019 catalog, with no releases.json: v0.1.0 and v0.2.0 are tags on main."""
    history = CatalogSimulator(tmp_path / "plain")
    history.release("v0.1.0", annotated=True, message="one", tree={"manifest.json": b"[]\n"})
    history.release("v0.2.0", annotated=True, message="two", tree={"manifest.json": b"[ ]\n"})
    return history


def test_without_a_ledger_a_higher_tag_on_the_release_commit_is_out_of_scope_and_noted(ledgerless) -> None:
    ledgerless.tag("v0.3.0", "v0.2.0^{commit}")
    result = release_check(str(ledgerless.path), "v0.2.0")
    assert ([r.code for r in result.report.refusals], result.report.history) == ([], "checked")
    assert len(_notes_naming(result.report.notes, "v0.3.0")) == 1, result.report.notes
    history = check_history(str(ledgerless.path), [], release_tag="v0.2.0",
                            anchor=ledgerless.rev("v0.2.0^{commit}"))
    assert history.releases == ["v0.1.0"]
