"""Issue #35 item 1: the kit's map of duties is complete against the code registry. Every code of
judgment_exchange.codes.REGISTRY is either given by some case of the kit at some tier (a `projectCodes` code, a
fixture's skip `reason`, or a `history` value) or named, in backquotes, in docs/conformance.md's "Out of scope"
section (its "Codes no case holds" list gives the reason). A code added later without a case or a reason fails
here.
"""

from __future__ import annotations

import json
import re

from judgment_exchange.codes import REGISTRY
from judgment_exchange.conformance.runner import DEFAULT_KIT
from tests.support.paths import REPO

DOC = REPO / "docs" / "conformance.md"


def given_by_cases() -> set[str]:
    out: set[str] = set()
    for case in json.loads((DEFAULT_KIT / "cases.json").read_text(encoding="utf-8"))["cases"]:
        for verdict in case["tiers"].values():
            out |= set(verdict["projectCodes"])
            if verdict.get("history"):
                out.add(verdict["history"])
            out |= {f["reason"] for e in verdict["entries"] for f in e["fixtures"] if "reason" in f}
    return out


def out_of_scope() -> set[str]:
    """The codes named in backquotes under docs/conformance.md's "Codes no case holds" (within "Out of scope")."""
    page = DOC.read_text(encoding="utf-8")
    section = page.partition("\n## Out of scope\n")[2].partition("\n## The cases\n")[0]
    listing = section.partition("\n### Codes no case holds\n")[2]
    assert listing, "docs/conformance.md: Out of scope has no Codes no case holds list"
    return {c for c in re.findall(r"`([a-z0-9-]+)`", listing) if c in REGISTRY}


def test_every_registry_code_is_given_by_a_case_or_out_of_scope_with_a_reason():
    missing = sorted(set(REGISTRY) - given_by_cases() - out_of_scope())
    assert not missing, f"codes with no case and no reason in docs/conformance.md's Out of scope: {missing}"


def test_the_out_of_scope_list_names_the_codes_no_case_gives():
    """The list names each code no case gives (its reasons may also name codes cases give, as a pointer to them)."""
    uncovered = out_of_scope() - given_by_cases()
    assert len(uncovered) > 50, sorted(uncovered)


def test_the_import_refusals_issue_35_named_each_have_a_case():
    given = given_by_cases()
    for code in ("input-malformed", "entry-member-unknown", "entry-member-invalid", "source-kinds-mismatch",
                 "output-version-mismatch", "catalog-stray-file", "entry-file-unexpected", "artifact-history-invalid",
                 "dialect-digest-mismatch", "fixture-missing", "fixture-file-unexpected", "json-malformed",
                 "json-over-bound", "binding-required", "preparation-not-canonical", "kind-unread"):
        assert code in given, code
