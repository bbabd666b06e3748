"""Issue #35 item 4: a mutation harness for this project's consumer. Each mutant switches one of the consumer's
checks off, in the test process (the function's source edited and its code object put in place, so every caller
runs the mutated rule; restored after), and the kit must fail it: at least one of the cases the mutant names
disagrees with the mutated consumer at one of the two tiers (a wrong verdict, or none). Both tiers count: a check
the specification's reader repeats (the binding document's form) is held alone at tier none, where the kit says
every check that needs no reader is still made. One mutant per check
issue #35 found unheld, and per check its second consumer's mutants killed; none is skipped or xfailed.

`python -m tests.conformance.test_mutants [--all] [MUTANT ...]` prints the matrix: each mutant and the cases that
kill it (its own cases, or with --all every case of the kit: slow, one run of the whole kit per mutant).
docs/conformance.md ("The mutation harness") states the score.
"""

from __future__ import annotations

import json
import sys
import tempfile
from contextlib import contextmanager
from pathlib import Path

import pytest

from judgment_exchange.conformance.adapter import consume, read_retained_state
from judgment_exchange.conformance.rebuild import rebuild
from judgment_exchange.conformance.runner import DEFAULT_KIT, _retained, _signed_retained, load_kit
from judgment_exchange.conformance.verdict import AGREE, compare

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
                    "if release_key(tag) < release_key(lock.tag):", "if False:")], ("retained-lower-tag",)),
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
}
"""Each mutant: the edits that switch one check off, and the cases named to kill it."""


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
        case = self.cases[name]
        if "signing" in case:
            return True  # a capability (--signing); no mutant here touches it
        location = self.location(name)
        retained = read_retained_state(_signed_retained(case, _retained(case, location))) if case["retained"] else None
        for tier in TIERS:
            try:
                verdict = consume(str(location), case["tag"], history_limit=case["historyLimit"], held=case["held"],
                                  retained=retained, tier=tier, signers=None)
            except Exception:  # no verdict: the kit fails it
                return False
            if compare(case, verdict, self.kit.rfc, tier).status != AGREE:
                return False
        return True


@pytest.fixture(scope="module")
def kit(tmp_path_factory) -> Kit:
    return Kit(tmp_path_factory.mktemp("mutants"))


def test_the_unmutated_consumer_agrees_with_every_case_a_mutant_names(kit):
    for name in sorted({c for _, cases in MUTANTS.values() for c in cases}):
        assert kit.agrees(name), name


@pytest.mark.parametrize("name", sorted(MUTANTS), ids=[f"mutant-{n}" for n in sorted(MUTANTS)])
def test_the_kit_kills_each_mutant(kit, name):
    with mutated(name):
        killers = [case for case in MUTANTS[name][1] if not kit.agrees(case)]
    assert killers, f"mutant {name} survives the cases {MUTANTS[name][1]}"


def main(argv: list[str]) -> int:
    """Print the matrix: each mutant and the cases that kill it."""
    every = "--all" in argv
    names = [a for a in argv if a != "--all"] or sorted(MUTANTS)
    with tempfile.TemporaryDirectory(prefix="kit-mutants-") as tmp:
        kit = Kit(Path(tmp))
        for name in names:
            cases = list(kit.cases) if every else list(MUTANTS[name][1])
            with mutated(name):
                killers = [case for case in cases if not kit.agrees(case)]
            print(f"{name}: {'killed by ' + ', '.join(killers) if killers else 'SURVIVES'}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
