"""Issue #19 item 3: every check of RFC 0019 §7's "Before import" list and each consumer duty the contract
expresses has at least one case that must pass and one that must be refused, at the specification's tier.

The mapping below is written by hand from the issue's Coverage list and §7's duties, independently of the
`coverage` members cases.json gives; each case named must exist with the outcome stated here.
"""

from __future__ import annotations

import json

import pytest

from judgment_exchange.conformance.runner import DEFAULT_KIT

PASS, REFUSE = "pass", "refuse"

COVERAGE: dict[str, dict[str, tuple[str, ...]]] = {
    # the Coverage list
    "bounds: manifest rows": {PASS: ("release-every-kind", "manifest-at-bound-rows"),
                              REFUSE: ("manifest-over-bound-rows",)},
    "bounds: manifest bytes": {PASS: ("release-every-kind", "manifest-at-bound-bytes"),
                               REFUSE: ("manifest-over-bound-bytes",)},
    "bounds: a fixture directory's 16 MiB (generated, issue #35 item 3)": {PASS: ("release-real-export",),
                                                                          REFUSE: ("fixture-over-bound",)},
    "bounds: files": {PASS: ("entry-at-bound", "release-real-export"),
                      REFUSE: ("entry-over-bound", "readme-over-bound", "dialect-over-bound")},
    "row <-> entry-directory correspondence": {PASS: ("release-every-kind",),
                                               REFUSE: ("manifest-entry-unlisted", "manifest-entry-missing")},
    "id order": {PASS: ("release-every-kind",), REFUSE: ("manifest-order", "manifest-id-duplicate")},
    "id-to-path": {PASS: ("release-real-export",),
                   REFUSE: ("manifest-row-path", "manifest-row-path-other", "entry-id-path")},
    "kinds": {PASS: ("release-every-kind",), REFUSE: ("manifest-kind-mismatch",)},
    "stored digests": {PASS: ("release-every-kind", "dialect-reindented"),
                       REFUSE: ("entry-digest-mismatch", "dialect-stored-digest-mismatch",
                                "output-stored-digest-mismatch", "preparation-digest-mismatch")},
    "canonical digests": {PASS: ("release-every-kind", "dialect-reindented"),
                          REFUSE: ("dialect-canonical-digest-mismatch", "output-canonical-digest-mismatch")},
    "fixture file sets against the manifest list": {PASS: ("release-real-export",),
                                                    REFUSE: ("fixture-files-unlisted",)},
    "a listed file that cannot be fetched": {PASS: ("release-real-export",), REFUSE: ("fixture-file-unfetchable",)},
    "classification and binding documents under a skip": {PASS: ("skip-kind-unread",),
                                                           REFUSE: ("skip-binding-forbidden",)},
    "replay agreement": {PASS: ("release-real-export", "release-every-kind"),
                         REFUSE: ("replay-disagreement", "replay-profile-substituted")},
    "a forged acquisition": {PASS: ("release-real-export",), REFUSE: ("replay-forged-acquisition",)},
    "a kind-unread fixture reported as skipped": {PASS: ("skip-kind-unread", "release-every-kind",
                                                         "skip-selected-file"),
                                                  REFUSE: ("skip-preparation-digest-mismatch",)},
    "scans": {PASS: ("release-real-export",), REFUSE: ("scan-credential", "scan-local-path")},
    "publication identity within a release": {PASS: ("identity-identical-in-release",),
                                              REFUSE: ("identity-changed-in-release",)},
    "publication identity across held history": {PASS: ("identity-metadata-update",),
                                                 REFUSE: ("identity-changed-across-releases",)},
    "withdrawal with changed and identical content": {PASS: ("withdrawn-then-identical-content",),
                                                      REFUSE: ("withdrawn-then-changed-content",)},
    "a retained release held as a previous manifest, whatever the tag's ancestry (§7; issue #25 item 3)": {
        PASS: ("retained-fork-identical-content",), REFUSE: ("retained-fork-changed-content",)},
    "an entry withdrawn after import kept, its pair held whatever the tag's ancestry (§7; issue #34 item 4)": {
        PASS: ("retained-withdrawn-fork-identical-content",), REFUSE: ("retained-withdrawn-fork-changed-content",)},
    "the history limit": {PASS: ("history-within-limit", "history-retained-also-held"),
                          REFUSE: ("history-over-limit",)},
    "lower tags against retained state": {PASS: ("upgrade-higher-tag",), REFUSE: ("retained-lower-tag",)},
    "moved tags against retained state": {PASS: ("retained-same-release", "readme-only-change"),
                                          REFUSE: ("retained-tag-moved", "retained-tag-moved-upgrade")},
    "an annotated tag": {PASS: ("tag-annotated",), REFUSE: ("tag-annotated-to-tree",)},
    "a tag to a tree": {PASS: ("release-real-export",), REFUSE: ("tag-to-tree", "tag-annotated-to-tree")},
    "an entry changed without an upgrade note": {PASS: ("upgrade-higher-tag", "readme-only-change"),
                                                 REFUSE: ("changed-without-upgrade-note",)},
    "a preset's form": {PASS: ("preset-form",), REFUSE: ("preset-bound-derivative", "preset-named-reference")},
    "a preset never offered as runnable": {PASS: ("preset-form", "release-every-kind"),
                                           REFUSE: ("preset-bound-derivative",)},
    # §7 "Before import" checks not named above
    "manifest form (a malformed manifest refuses the import)": {
        PASS: ("release-empty-manifest",),
        REFUSE: ("manifest-malformed", "manifest-directory", "manifest-row-not-closed", "manifest-row-version-1")},
    "entry.json members against §3": {PASS: ("release-every-kind",),
                                      REFUSE: ("assertion-mismatch", "entry-version-2", "entry-member-unknown",
                                               "entry-member-invalid", "entry-member-missing")},
    "the release tag's grammar": {PASS: ("release-real-export",), REFUSE: ("tag-outside-grammar",)},
    # the consumer's duties (§7, "Who holds these duties")
    "import replay with its reader and the fixture's own inputs": {
        PASS: ("release-every-kind",), REFUSE: ("replay-disagreement", "replay-profile-substituted")},
    "withdrawal: the imported commit stays and shows the withdrawal": {PASS: ("withdrawal-shown",),
                                                                       REFUSE: ("withdrawn-then-changed-content",)},
    "the two reference forms": {PASS: ("release-every-kind", "reference-named-2-0-0"),
                                REFUSE: ("reference-both-selectors", "reference-format-mismatch",
                                         "reference-artifact-required", "reference-artifact-forbidden",
                                         "reference-artifact-malformed-first")},
    "identity equality": {PASS: ("identity-identical-in-release",), REFUSE: ("reference-artifact-mismatch",)},
    "the stated limits of the artifact-history check": {
        PASS: ("identity-unchecked-without-held-history", "upgrade-key-unchecked", "history-tags-not-releases"),
        REFUSE: ("held-history-manifest-malformed", "held-history-entry-digest", "upgrade-key-unknown")},
    # issue #35: the duties a second consumer could skip and still pass the kit, and the points once guessed
    "the dialect form checker (§7: the consumer's own form checker; dialect §§2, 6, 8)": {
        PASS: ("dialect-form-near-miss", "release-every-kind", "preset-form"),
        REFUSE: ("dialect-read-unknown-member", "dialect-copy-unknown-member", "dialect-copy-entry-unknown-member",
                 "dialect-rule-unknown-member", "dialect-claim-unknown-member", "dialect-copy-target-twice",
                 "dialect-copy-requirement-twice", "dialect-target-prefix", "dialect-target-empty",
                 "dialect-root-unknown-member", "dialect-parameter-type", "dialect-source-unknown-member",
                 "dialect-fact-targets-over-bound", "dialect-named-legacy-member")},
    "a dialect bound at its edge (256 fact targets)": {PASS: ("dialect-fact-targets-at-bound",),
                                                       REFUSE: ("dialect-fact-targets-over-bound",)},
    "canonical member order by code point (members outside the BMP)": {
        PASS: ("canonical-order-outside-bmp",), REFUSE: ("canonical-order-utf16",)},
    "sourceKinds equal to the document's kinds": {PASS: ("release-real-export", "release-every-kind"),
                                                  REFUSE: ("entry-source-kinds-mismatch",)},
    "output.json's version against the entry's": {PASS: ("release-every-kind",), REFUSE: ("output-version-mismatch",)},
    "the entry directory's closed file set": {PASS: ("release-every-kind",),
                                              REFUSE: ("entry-file-unexpected", "entry-file-missing",
                                                       "entry-file-not-regular")},
    "a fixture directory's file set and files": {PASS: ("release-real-export",),
                                                 REFUSE: ("fixture-directory-missing", "fixture-listed-missing",
                                                          "fixture-unexpected",
                                                          "fixture-file-missing", "fixture-file-unexpected",
                                                          "preparation-not-canonical", "binding-required")},
    "an entry member its kind forbids": {PASS: ("preset-form",), REFUSE: ("entry-member-forbidden",)},
    "a scaffold placeholder left in an entry (docs/entry-format.md)": {PASS: ("release-every-kind",),
                                                                        REFUSE: ("placeholder-value",)},
    "verification records and reader locators": {PASS: ("verification-record",),
                                                 REFUSE: ("verification-record-invalid", "reader-locator-invalid")},
    "the output document's form": {PASS: ("release-every-kind",), REFUSE: ("output-malformed",)},
    "strict JSON and its bounds in every catalog document": {
        PASS: ("release-every-kind",), REFUSE: ("entry-json-duplicate-member", "entry-json-number-over-bound")},
    "a README's links (this project's scan)": {PASS: ("readme-link-web",),
                                               REFUSE: ("readme-link-missing", "readme-link-outside")},
    "the binding document's form": {PASS: ("release-every-kind",), REFUSE: ("binding-document-unknown-member",)},
    "the retained state's manifestDigest": {PASS: ("retained-fork-identical-content",),
                                            REFUSE: ("retained-manifest-digest-wrong",)},
    "a held release's artifact-pair form (version-3 named entries only)": {
        PASS: ("held-history-entry-version-2",), REFUSE: ("held-history-artifact-malformed",)},
    "upgrade keys with no earlier release (§3) and unheld history (§7, form only)": {
        PASS: ("release-real-export", "upgrade-key-unchecked"),
        REFUSE: ("upgrade-key-no-earlier-release", "upgrade-key-malformed-unchecked")},
    "catalog-stray-file (docs/conformance.md, this project's stricter rules)": {
        PASS: ("catalog-entries-readme",), REFUSE: ("catalog-stray-file",)},
    # this project's stricter rules (strictness: project)
    "skips.json acknowledges each skip (docs/skips.md)": {PASS: ("skip-acknowledged",),
                                                          REFUSE: ("skip-unacknowledged", "skips-malformed",
                                                                   "skips-not-regular", "skip-acknowledgement-stale")},
    "a changed entry is shown for review (README included)": {PASS: ("readme-only-change", "upgrade-higher-tag"),
                                                              REFUSE: ("changed-without-upgrade-note",)},
    # signed releases, a capability (issue #36 item 6; strictness: project)
    "a signed release under a pinned set": {PASS: ("signing-signed-release",),
                                            REFUSE: ("signing-unsigned-pinned", "signing-other-key",
                                                     "signing-tampered-signature", "signing-signers-file-malformed")},
    "a signed tag bound to its release (name, commit, manifest)": {
        PASS: ("signing-signed-release",), REFUSE: ("signing-tag-moved-name", "signing-manifest-digest-other")},
    "rotation from retained signers": {PASS: ("signing-rotation-held-key",),
                                       REFUSE: ("signing-removed-key", "signing-lock-unsigned-next")},
}


def cases() -> dict[str, dict]:
    document = json.loads((DEFAULT_KIT / "cases.json").read_text(encoding="utf-8"))
    return {case["name"]: case for case in document["cases"]}


@pytest.mark.parametrize("item", sorted(COVERAGE))
def test_each_item_has_a_case_that_passes_and_one_that_is_refused(item):
    known = cases()
    for outcome in (PASS, REFUSE):
        names = COVERAGE[item][outcome]
        assert names, (item, outcome)
        for name in names:
            assert name in known, (item, name)
            assert known[name]["tiers"]["specification"]["result"] == outcome, (item, name)


def test_every_case_is_named_by_some_item():
    named = {name for item in COVERAGE.values() for names in item.values() for name in names}
    assert set(cases()) - named == set(), "a case no coverage item names"


def test_the_rfc_named_refusals_each_have_a_refused_case():
    """§3's reference refusals, the preset's bound-derivative, entry-version-unread and the history codes,
    each the expected code of some case (the first-refusal order: reference-both-selectors and
    reference-artifact-malformed-first each expect one code where several apply)."""
    expected = {code for case in cases().values() for code in case["tiers"]["specification"]["codes"]}
    for code in ("dialect-reference-form", "dialect-format-mismatch", "artifact-required", "artifact-forbidden",
                 "artifact-malformed", "artifact-mismatch", "dialect-digest-mismatch", "bound-derivative",
                 "entry-version-unread", "artifact-content-changed", "artifact-history-invalid", "input-over-bound",
                 "acquisition-invalid", "profile-mismatch", "preparation-differs"):
        assert code in expected, code
    known = cases()
    for tier in ("specification", "none"):
        assert known["reference-both-selectors"]["tiers"][tier]["codes"] == ["dialect-reference-form"]
        assert known["reference-artifact-malformed-first"]["tiers"][tier]["codes"] == ["artifact-malformed"]


def test_the_project_strictness_cases_are_the_projects_own_rules():
    project = sorted(name for name, case in cases().items() if case["strictness"] == "project")
    signing = sorted(name for name, case in cases().items() if "signing" in case)
    assert project == sorted(["changed-without-upgrade-note", "skip-acknowledged", "skip-unacknowledged",
                              "catalog-stray-file", "catalog-entries-readme", "skips-malformed",
                              "skips-not-regular", "skip-acknowledgement-stale", "placeholder-value", *signing])
    assert len(signing) == 10 and all(name.startswith("signing-") for name in signing)
