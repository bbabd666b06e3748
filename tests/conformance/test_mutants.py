"""Issue #35 item 4: a mutation harness for this project's consumer. Each mutant switches one of the consumer's
checks off, in the test process (the function's source edited and its code object put in place, so every caller
runs the mutated rule; restored after), and the kit must fail it: at least one of the cases the mutant is run
against (those it names and every case of each coverage entry it holds, COVERAGE) disagrees with the mutated
consumer at one of the two tiers (a wrong verdict, or none; its RFC-named codes, else the codes the kit states for
this project). Both tiers count: a check the specification's reader repeats (the binding document's form) is held
alone at tier none, where the kit says every check that needs no reader is still made. Every coverage entry of
the kit's cases.json holds one mutant at least, killed; a survivor is named in SURVIVORS with why, and held to
surviving. None is skipped or xfailed.

`python -m tests.conformance.test_mutants [--all] [MUTANT ...]` prints the matrix: each mutant, its coverage
entries and the cases that kill it (its own cases, or with --all every case of the kit: slow, one run of the
whole kit per mutant), then the score.
docs/conformance.md ("The mutation harness") states the score.
"""

from __future__ import annotations

import copy
import sys
import tempfile
from contextlib import contextmanager
from pathlib import Path

import pytest

from judgment_exchange.conformance.adapter import consume, read_retained_state
from judgment_exchange.conformance.rebuild import rebuild
from judgment_exchange.conformance.runner import DEFAULT_KIT, _retained, _signed_retained, load_kit
from judgment_exchange.conformance.verdict import AGREE, compare
from judgment_exchange.signing.signers import read_signers

from ..support.mutants import swap

TIERS = ("specification", "none")
DIALECT = ("dialect-read-unknown-member", "dialect-copy-unknown-member", "dialect-copy-entry-unknown-member",
           "dialect-rule-unknown-member", "dialect-claim-unknown-member", "dialect-copy-target-twice",
           "dialect-copy-requirement-twice", "dialect-target-prefix", "dialect-target-empty",
           "dialect-root-unknown-member", "dialect-parameter-type", "dialect-source-unknown-member",
           "dialect-named-legacy-member")
MEMBER_CODES = '("entry-member-unknown", "entry-member-invalid", "entry-member-missing", "entry-member-forbidden")'

MUTANTS: dict[str, tuple[list[tuple[str, str, str, str]], tuple[str, ...]]] = {
    # name: ([(module, function, text in its source, the text put in its place)], the cases named to kill it)
    "dialect-form-checker": ([("judgment_exchange.catalog.directory", "_check_dialect", "if form.refusal:",
                               'if form.refusal and form.refusal != "input-malformed":')], DIALECT),
    "dialect-count-bounds": ([("judgment_exchange.catalog.directory", "_check_dialect", "if form.refusal:",
                               'if form.refusal and form.refusal != "input-over-bound":')],
                             ("dialect-fact-targets-over-bound",)),
    "entry-member-forms": ([("judgment_exchange.catalog.directory", "_read_entry",
                             "refusals = check_entry(value, path)",
                             f"refusals = [r for r in check_entry(value, path) if r.code not in {MEMBER_CODES}]")],
                           ("entry-member-unknown", "entry-member-invalid", "entry-member-missing",
                            "entry-member-forbidden")),
    "source-kinds": ([("judgment_exchange.catalog.directory", "_check_source_kinds",
                       "if used and set(listed) != used:", "if False:")], ("entry-source-kinds-mismatch",)),
    "binding-document-form": ([("judgment_exchange.catalog.directory", "_check_binding", "if result.refusal:",
                                'if result.refusal and result.refusal != "input-malformed":')],
                              ("binding-document-unknown-member",)),
    "output-version": ([("judgment_exchange.catalog.directory", "_check_output",
                         'int(doc["outputVersion"]) != integer(ref["outputVersion"])', "False")],
                       ("output-version-mismatch",)),
    "retained-manifest-digest": ([("judgment_exchange.history.check", "_retained_release",
                                   "if found != retained.manifest_digest:", "if False:")],
                                 ("retained-manifest-digest-wrong",)),
    "catalog-stray-file": ([("judgment_exchange.catalog.layout", "entry_directories", "return paths, stray",
                             "return paths, []")], ("catalog-stray-file",)),
    "held-artifact-pair-form": ([("judgment_exchange.history.forms", "entry_of",
                                  "problem = artifact_problem(artifact)", "problem = None")],
                                ("held-history-artifact-malformed",)),
    "entry-file-set": ([("judgment_exchange.catalog.directory", "check_entry_directory",
                         "if name not in wanted:", "if False:")], ("entry-file-unexpected",)),
    "canonical-order-utf16": ([("judgment_exchange.canon", "_fast", "if encoder is None or not _plain(value):",
                                "if True:"),
                               ("judgment_exchange.canon", "_write", "sorted(value)",
                                'sorted(value, key=lambda k: k.encode("utf-16-be"))')],
                              ("canonical-order-outside-bmp", "canonical-order-utf16")),
    "lower-tag": ([("judgment_exchange.consumer.check", "lock_refusals",
                    "if key is not None and locked is not None and key < locked:", "if False:")],
                  ("retained-lower-tag",)),
    "moved-retained-tag-on-upgrade": ([("judgment_exchange.consumer.check", "lock_refusals",
                                        "elif commit != lock.commit:",
                                        "elif commit != lock.commit and tag == lock.tag:")],
                                      ("retained-tag-moved-upgrade",)),
    "upgrade-key-match": ([("judgment_exchange.history.upgrade", "unknown_key_refusals_of",
                            "if (entry.id, key) in released:", "if True:")], ("upgrade-key-unknown",)),
    "upgrade-key-no-earlier-release": ([("judgment_exchange.history.upgrade", "unknown_key_refusals_of",
                                         "if (entry.id, key) in released:",
                                         "if (entry.id, key) in released or releases == 0:")],
                                       ("upgrade-key-no-earlier-release",)),
    # issue #35 item 4: one mutant at least per coverage entry of the kit (COVERAGE below)
    "tag-grammar": ([("judgment_exchange.consumer.check", "resolve_tag", "if release_key(tag) is None:",
                      "if False:"),
                     ("judgment_exchange.history.check", "_check_history",
                      "if release_tag is not None and release_key(release_tag) is None:", "if False:")], ()),
    "tag-to-commit": ([("judgment_exchange.consumer.check", "resolve_tag", 'if obj.type != "commit":',
                        "if False:"),
                       ("judgment_exchange.history.check", "_check_history",
                        "if release_tag in tags.not_commits:", "if False:")], ()),
    "annotated-tag-peeled": ([("judgment_exchange.consumer.check", "resolve_tag", 'while obj.type == "tag":',
                               "while False:")], ()),
    "readme-bound": ([("judgment_exchange.catalog.directory", "check_entry_directory",
                       "if node.size > docs.README_BOUND:", "if False:")], ()),
    "file-bound-at-edge": ([("judgment_exchange.catalog.documents", "read_bytes",
                             "return Read(data=tree.read(path, limit))",
                             "return Read(data=tree.read(path, limit - 1))")], ("entry-at-bound",)),
    "fixture-directory-bound": ([("judgment_exchange.catalog.directory", "_check_fixture",
                                  "if total > docs.FIXTURE_DIRECTORY_BOUND:", "if False:")], ()),
    "manifest-byte-bound": ([("judgment_exchange.catalog.manifest", "read_manifest", "docs.MANIFEST_BOUND,",
                              "docs.MANIFEST_BOUND * 2,")], ()),
    "manifest-row-bound": ([("judgment_exchange.catalog.manifest", "read_manifest", "if len(value) > MAX_ROWS:",
                             "if False:")], ()),
    "manifest-stored-digests": ([("judgment_exchange.catalog.manifest", "_row_against_entry",
                                  "elif member in row and stored is not None and row[member] != stored:",
                                  "elif False:")], ()),
    "output-canonical-digest": ([("judgment_exchange.catalog.directory", "_check_output",
                                  'if isinstance(ref.get("digest"), str) and ref["digest"] != actual:',
                                  "if False:")], ()),
    "preparation-digest": ([("judgment_exchange.catalog.directory", "_check_preparation",
                             "and digest(raw.data) != prep_digest:", "and False:")], ()),
    "fixture-unexpected": ([("judgment_exchange.catalog.directory", "_check_fixtures", "if name not in names:",
                             "if False:")], ()),
    "manifest-row-form": ([("judgment_exchange.catalog.manifest", "read_manifest",
                            "problems = row_problems(row)", "problems = []")], ()),
    "manifest-id-order": ([("judgment_exchange.catalog.manifest", "read_manifest",
                            "if previous is not None and key < previous:", "if False:")], ()),
    "entry-id-path": ([("judgment_exchange.catalog.directory", "check_entry_directory",
                        "if entry_path(check.id) != path or not grammar.ENTRY_ID.fullmatch(check.id):",
                        "if False:"),
                       ("judgment_exchange.catalog.directory", "_read_entry",
                        'if isinstance(value.get("id"), str) and value["id"] != check.id:', "if False:")], ()),
    "manifest-row-path": ([("judgment_exchange.catalog.manifest", "row_problems",
                            'and row["path"] != entry_path(rid):', "and False:")], ()),
    "manifest-kind": ([("judgment_exchange.catalog.manifest", "_row_against_entry",
                        'if check.kind is not None and row["kind"] != check.kind:', "if False:")], ()),
    "manifest-entry-unlisted": ([("judgment_exchange.catalog.manifest", "check_rows",
                                  "if check.id not in manifest.rows and", "if False and")], ()),
    "upgrade-note": ([("judgment_exchange.consumer.check", "unnoted_change_refusals",
                       'if row["entryDigest"] == locked:', "if True:")], ()),
    "binding-forbidden": ([("judgment_exchange.catalog.directory", "_check_fixture",
                            "elif needs_binding is False and BINDING in files:", "elif False:")], ()),
    "acquisition-receipt": ([("judgment_exchange.verifier.recompute", "_Run.receipted",
                              'return Found(codes.ACQUISITION_INVALID, f"{what}: {why}")', "pass")], ()),
    "history-limit": ([("judgment_exchange.history.check", "_check_history",
                        "if max_releases is not None and len(previous) > max_releases:", "if False:")], ()),
    "identity-across-history": ([("judgment_exchange.history.identity", "history_artifact_refusals_of",
                                  "if changed:", "if False:")], ()),
    "identity-identical-admitted": ([("judgment_exchange.history.identity", "history_artifact_refusals_of",
                                      "if d != entry.dialect_digest}", "if True}")], ()),
    "identity-within-release": ([("judgment_exchange.history.identity", "artifact_refusals",
                                  "if len(digests) > 1:", "if False:")], ()),
    "artifact-mismatch": ([("judgment_exchange.catalog.reference", "_reference_refusal",
                            'if isinstance(document, dict) and document.get(name) != entry["artifact"][name]:',
                            "if False:")], ()),
    "reference-form": ([("judgment_exchange.catalog.reference", "_reference_refusal",
                         'return (DIALECT_REFERENCE_FORM, problem)', "pass")], ()),
    "reference-format": ([("judgment_exchange.catalog.reference", "_reference_refusal",
                           'return (DIALECT_FORMAT_MISMATCH, problem)', "pass")], ()),
    "skip-read": ([("judgment_exchange.codes.verifier", "read_answer",
                    'if result == "refusal" and skip_of(answer.get("refusal")):', "if False:")], ()),
    "skip-acknowledged": ([("judgment_exchange.repository.skips", "acknowledge",
                            "out.found.refusals.append(_unacknowledged(skip))", "pass")], ()),
    "replay-agreement": ([("judgment_exchange.verifier.verify", "_conclude",
                           "if differs(recomputed, given, docs.preparation):", "if False:")], ()),
    "placeholder": ([("judgment_exchange.catalog.directory", "_check_placeholders",
                      "for where, marker in placeholders.in_json(value):", "for where, marker in ():")], ()),
    "preset-bound-source": ([("judgment_exchange.catalog.directory", "_check_dialect", "if bound:", "if False:")],
                            ()),
    "scans": ([("judgment_exchange.gate.pipeline", "_check_entry",
                "found.refusals += scan_entry(view, check.path, check.id)", "pass")], ()),
    "readme-links": ([("judgment_exchange.scan.links", "_judge",
                       'return README_LINK_MISSING, "a relative link to no file of the entry"', "return None")],
                     ()),
    "signatures-pinned": ([("judgment_exchange.consumer.signed", "check_signatures",
                            "_pinned(repo, store, tag, commit, signing.pinned, history, result)", "pass")], ()),
    "withdrawn-held": ([("judgment_exchange.consumer.check", "withdrawn_refusals", "refusals += changed",
                         "refusals += []")], ()),
    "fixture-unreadable": ([("judgment_exchange.catalog.directory", "_check_fixture",
                             'check.refuse(FILE_UNREADABLE, path, str(exc))', "pass")], ()),
    "earlier-releases": ([("judgment_exchange.history.tags", "previous_releases",
                           "return [r for r in releases if made is not None and r.version < made]",
                           "return list(releases)")], ()),
    "history-unchecked-said": ([("judgment_exchange.consumer.check", "gate", "report.history = UNCHECKED",
                                 'report.history = "checked"')], ()),
    "withdrawal-shown": ([("judgment_exchange.consumer.diff", "_changes",
                           '"change": "withdrawn", "from"', '"change": "kept", "from"')], ()),
    "entry-changed-shown": ([("judgment_exchange.consumer.diff", "_changes",
                              '"change": "changed", "from": was', '"change": "kept", "from": was')], ()),
}
"""Each mutant: the edits that switch one check off, and the cases named to kill it (besides the cases of each
coverage entry it holds, COVERAGE)."""

COVERAGE: dict[str, tuple[str, ...]] = {
    # mutant: the kit's coverage entries (cases.json `coverage`) whose check it switches off; every coverage entry
    # names one mutant at least (test_every_coverage_entry_has_a_mutant), so a check added without one fails
    "dialect-form-checker": ("dialect-form",),
    "dialect-count-bounds": ("dialect-form",),
    "entry-member-forms": ("entry-members",),
    "source-kinds": ("source-kinds",),
    "binding-document-form": ("binding-form",),
    "output-version": ("output-form",),
    "retained-manifest-digest": ("retained-history",),
    "catalog-stray-file": ("catalog-stray-file",),
    "held-artifact-pair-form": ("held-history-invalid",),
    "entry-file-set": ("entry-file-set",),
    "canonical-order-utf16": ("canonical-order",),
    "lower-tag": ("lower-tag",),
    "moved-retained-tag-on-upgrade": ("moved-tag",),
    "upgrade-key-match": ("upgrade-keys",),
    "upgrade-key-no-earlier-release": ("upgrade-keys",),
    "tag-grammar": ("tags",),
    "tag-to-commit": ("tag-to-tree",),
    "annotated-tag-peeled": ("annotated-tag",),
    "readme-bound": ("bounds-files",),
    "file-bound-at-edge": ("bounds",),
    "fixture-directory-bound": ("bounds-fixture",),
    "manifest-byte-bound": ("bounds-manifest-bytes",),
    "manifest-row-bound": ("bounds-manifest-rows",),
    "manifest-stored-digests": ("digests",),
    "output-canonical-digest": ("digests",),
    "preparation-digest": ("digests", "kind-unread-skipped"),
    "fixture-unexpected": ("fixture-file-sets",),
    "manifest-row-form": ("manifest-form",),
    "manifest-id-order": ("id-order",),
    "entry-id-path": ("id-to-path",),
    "manifest-row-path": ("id-to-path",),
    "manifest-kind": ("kinds",),
    "manifest-entry-unlisted": ("row-entry-correspondence",),
    "upgrade-note": ("changed-without-upgrade-note",),
    "binding-forbidden": ("classification-under-skip",),
    "acquisition-receipt": ("forged-acquisition",),
    "history-limit": ("history-limit",),
    "identity-across-history": ("identity-across-history", "withdrawal-changed-content"),
    "identity-identical-admitted": ("withdrawal-identical-content",),
    "identity-within-release": ("identity-within-release",),
    "artifact-mismatch": ("identity-equality",),
    "reference-form": ("reference-forms", "preset-form"),
    "reference-format": ("reference-forms",),
    "skip-read": ("kind-unread-skipped",),
    "skip-acknowledged": ("skip-acknowledgement",),
    "replay-agreement": ("replay-agreement",),
    "placeholder": ("placeholder-value",),
    "preset-bound-source": ("preset-form", "preset-not-runnable"),
    "scans": ("scans",),
    "readme-links": ("scans",),
    "signatures-pinned": ("release-signatures",),
    "withdrawn-held": ("retained-withdrawn",),
    "withdrawal-shown": ("withdrawal",),
    "fixture-unreadable": ("listed-file-unfetchable",),
    "earlier-releases": ("history-tags",),
    "history-unchecked-said": ("history-unchecked",),
    "entry-changed-shown": ("entry-changed-shown",),
}
"""mutant -> the coverage entries it holds."""

SURVIVORS: dict[str, str] = {
    # mutant: why the kit does not kill it; each is held to surviving (test_each_named_survivor_survives), so a
    # case added later that kills it fails that test until the mutant moves to the killed ones. None today:
    # manifest-row-path survived until manifest-row-path-other (two rows' well-formed paths swapped) was added.
}
"""mutant -> why it survives."""


def _kit_coverage() -> dict[str, list[str]]:
    """Each coverage entry of the kit's cases.json and the cases naming it."""
    out: dict[str, list[str]] = {}
    for case in load_kit(DEFAULT_KIT).cases:
        for entry in case["coverage"]:
            out.setdefault(entry, []).append(case["name"])
    return out


KIT_COVERAGE = _kit_coverage()


def named_cases(name: str) -> tuple[str, ...]:
    """The cases a mutant is run against: those it names, then every case of each coverage entry it holds."""
    cases = list(MUTANTS[name][1])
    for entry in COVERAGE.get(name, ()):
        cases += [c for c in KIT_COVERAGE.get(entry, []) if c not in cases]
    return tuple(cases)


@contextmanager
def mutated(name: str):
    """The mutant's edits in place for the body; every function restored after. A text no longer in its function
    fails loudly, so a mutant never silently tests nothing."""
    saved = []
    try:
        for module_name, function, old, new in MUTANTS[name][0]:
            saved.append(swap(module_name, function, old, new, name))
        yield
    finally:
        for target, code in reversed(saved):
            target.__code__ = code


class Kit:
    """The kit's cases, each repository rebuilt once (lazily) under one temporary directory."""

    def __init__(self, root: Path) -> None:
        self.kit = load_kit(DEFAULT_KIT)
        self.cases = {case["name"]: case for case in self.kit.cases}
        self.root = root
        self.built: dict[str, Path] = {}

    def location(self, name: str) -> Path:
        if name not in self.built:
            case = self.cases[name]
            target = self.root / name
            rebuild((self.kit.path / case["stream"]["path"]).read_bytes(), case["steps"], target)
            self.built[name] = target
        return self.built[name]

    def agrees(self, name: str) -> bool:
        """Whether this project's consumer, as it now is, agrees with the case at both tiers."""
        return self.disagreement(name) is None

    def disagreement(self, name: str) -> str | None:
        """How the consumer, as it now is, fails the case, or None: `verdict` when it disagrees with the case's
        verdict as the RFC states it (its RFC-named codes) at a tier, `project codes` when it agrees with that but
        not with the codes the kit states for this project (`projectCodes`, compared as tests/conformance/
        test_adapter.py does: the kit at strictness project)."""
        case = self.cases[name]
        signers = None  # a signing case's pinned set, as the runner passes it with --signing (issue #36)
        if (case.get("signing") or {}).get("signers"):
            signers = read_signers("".join(line + "\n" for line in case["signing"]["signers"]).encode("ascii"))
        location = self.location(name)
        retained = read_retained_state(_signed_retained(case, _retained(case, location))) if case["retained"] else None
        found = None
        for tier in TIERS:
            try:
                verdict = consume(str(location), case["tag"], history_limit=case["historyLimit"], held=case["held"],
                                  retained=retained, tier=tier, signers=signers)
            except Exception:  # no verdict: the kit fails it
                return "verdict"
            if compare(case, verdict, self.kit.rfc, tier).status != AGREE:
                return "verdict"
            strict = copy.deepcopy(case) | {"strictness": "project"}
            strict["tiers"][tier]["codes"] = case["tiers"][tier]["projectCodes"]
            if compare(strict, verdict, self.kit.rfc, tier).status != AGREE:
                found = "project codes"
        return found


@pytest.fixture(scope="module")
def kit(tmp_path_factory) -> Kit:
    return Kit(tmp_path_factory.mktemp("mutants"))


def test_the_unmutated_consumer_agrees_with_every_case_a_mutant_names(kit):
    for name in sorted({c for n in MUTANTS for c in named_cases(n)}):
        assert kit.agrees(name), name


KILLED = sorted(set(MUTANTS) - set(SURVIVORS))


@pytest.mark.parametrize("name", KILLED, ids=[f"mutant-{n}" for n in KILLED])
def test_the_kit_kills_each_mutant(kit, name):
    with mutated(name):
        killers = [case for case in named_cases(name) if not kit.agrees(case)]
    assert killers, f"mutant {name} survives the cases {named_cases(name)}"


def test_every_coverage_entry_has_a_mutant():
    """Every coverage entry of the kit names one mutant at least, and every mutant holds a coverage entry of the
    kit: a check the kit covers later without a mutant here fails this test."""
    held = {entry for entries in COVERAGE.values() for entry in entries}
    assert sorted(set(KIT_COVERAGE) - held) == []
    assert sorted(held - set(KIT_COVERAGE)) == []
    assert sorted(COVERAGE) == sorted(MUTANTS)
    killed = {entry for name in KILLED for entry in COVERAGE[name]}
    assert sorted(set(KIT_COVERAGE) - killed) == []  # and by a mutant the kit kills


def test_each_named_survivor_survives(kit):
    """A survivor named in SURVIVORS (and docs/conformance.md) survives every case of the kit it names (none today;
    a loop, not a parameter set, so an empty SURVIVORS is no skipped test)."""
    for name in sorted(SURVIVORS):
        with mutated(name):
            killers = [case for case in named_cases(name) if not kit.agrees(case)]
        assert not killers, f"mutant {name} is now killed by {killers}: move it out of SURVIVORS"


def main(argv: list[str]) -> int:
    """Print the matrix: each mutant and the cases that kill it (`(project codes)` after a case that kills it by
    the codes the kit states for this project only, its verdict as the RFC states it agreeing), then the score."""
    every = "--all" in argv
    names = [a for a in argv if a != "--all"] or sorted(MUTANTS)
    killed = 0
    with tempfile.TemporaryDirectory(prefix="kit-mutants-") as tmp:
        kit = Kit(Path(tmp))
        for name in names:
            cases = list(kit.cases) if every else list(named_cases(name))
            with mutated(name):
                found = [(case, kit.disagreement(case)) for case in cases]
            killers = [f"{case}{' (project codes)' if how == 'project codes' else ''}" for case, how in found if how]
            killed += bool(killers)
            coverage = ", ".join(COVERAGE.get(name, ()))
            print(f"{name} [{coverage}]: {'killed by ' + ', '.join(killers) if killers else 'SURVIVES'}")
    print(f"\n{len(names)} mutants, {killed} killed")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
