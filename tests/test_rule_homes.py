"""One rule, one home, held by each caller (issue #37 item 2): each mutant of a rule's one definition
(tests/support/mutants.py, applied to the rule's own source) fails a test of every caller of that rule.

The interpretation of the preparation verifier's answer (codes/verifier.py `read_answer`) is asked by the gate's
replay, `exchange fix`, `exchange fixture add` and `exchange new --from-run`: with its digest comparison removed,
or its skip, each caller's own test fails. Before issue #37 the interpretation was written three times and the
digest comparison of two of the copies could be removed with every test green. The rule of an entry changed
without an upgrade note (history/upgrade.py `changed_without_note`) is asked by the gate's warning (which
`exchange release` reads), release-check and upgrade-diff: with the note ignored, or the rule never firing, each
one's test fails. The pointer-to-span lookup (pointers.py `locate`) is asked by annotations.line_of and
authoring/jsonedit: with a member's name or an array's index unchecked, a test of each fails. With RFC 6901's
escaping removed (pointers.escape), a test of dialect/shapes.at, verifier/difference, history/upgrade and
authoring/jsonedit fails; catalog/manifest's, consumer/diff's and dialect/reads' uses of it have no test of their
own yet. With RFC 0019's byte order reversed (tree.id_order), a test of history/identity, history/upgrade,
catalog/manifest and browse/index fails; its other call sites are not each held by a test of their own yet. A
caller reached through an `exchange` process runs the mutant too (mutant_site/sitecustomize.py).
"""

from __future__ import annotations

import os
import re
import subprocess
import sys

import pytest

from .support.mutants import MUTANTS, apply
from .support.paths import REPO

SITE = REPO / "tests" / "support" / "mutant_site"  # its sitecustomize applies the mutant in every process

CALLERS: dict[str, dict[str, str]] = {
    "replay-digest": {
        "gate": "tests/test_gate_replay.py::test_a_reading_with_another_digest_refuses_the_entry",
        "fix": "tests/fix/test_fix_replays_first.py::test_attack_a_reading_of_another_digest_is_not_repinned",
        "fixture add": "tests/recording/test_fixture_add.py::test_attack_a_reading_of_another_digest_writes_nothing",
        "new --from-run": "tests/recording/test_from_run.py::test_from_run_a_reading_of_another_digest_writes_nothing",
    },
    "replay-skip": {
        "gate": "tests/test_gate_replay.py::test_kind_unread_is_skipped_with_its_reason",
        "fix": "tests/fix/test_fix_replays_first.py::"
               "test_near_miss_kind_unread_fixture_with_its_pin_right_does_not_stop_fix",
        "fixture add": "tests/recording/test_fixture_add.py::test_kind_unread_fixture_is_written_and_reported",
        "new --from-run": "tests/recording/test_from_run.py::test_from_run_a_kind_unread_recording_is_written",
    },
    "upgrade-note-ignored": {
        "gate": "tests/authoring/test_upgrade_note.py::test_upgrade_note_writes_the_note_keyed_by_the_released_digest",
        "release": "tests/contributing/test_release_tells_consumers.py::"
                   "test_near_miss_the_noted_change_releases_and_is_listed",
        "release-check": "tests/consumer/test_lock.py::test_lock_passes_an_upgrade_with_its_note",
        "upgrade-diff": "tests/consumer/test_upgrade_review.py::"
                        "test_upgrade_diff_shows_fields_and_the_note_keyed_by_the_imported_digest",
    },
    "upgrade-note-never-missing": {
        "gate": "tests/authoring/test_upgrade_note.py::"
                "test_a_changed_released_entry_without_a_note_is_warned_never_refused",
        "release": "tests/contributing/test_release_tells_consumers.py::"
                   "test_attack_unnoted_change_released_to_locked_consumers",
        "release-check": "tests/consumer/test_lock.py::test_lock_refuses_entry_changed_without_upgrade",
        "upgrade-diff": "tests/consumer/test_upgrade_review.py::test_upgrade_diff_flags_a_changed_entry_without_a_note",
    },
    "span-name": {
        "annotations": "tests/report/test_line_location.py::test_members_and_elements",
        "jsonedit": "tests/fix/test_jsonedit.py::test_replaces_a_nested_string_and_keeps_every_other_byte",
    },
    "span-index": {
        "annotations": "tests/report/test_line_location.py::test_members_and_elements",
        "jsonedit": "tests/fix/test_jsonedit.py::test_a_pointer_that_does_not_exist_is_refused",
    },
    "pointer-escape": {
        "dialect/shapes.at": "tests/dialect/test_fast_paths.py::test_at_by_hand",
        "verifier/difference": "tests/verifier/test_difference.py::"
                               "test_a_pointer_token_is_escaped_as_rfc_6901_writes_it",
        "history/upgrade": "tests/history/test_history_identity.py::"
                           "test_an_upgrade_keys_pointer_is_escaped_as_rfc_6901_writes_it",
        "authoring/jsonedit": "tests/fix/test_jsonedit.py::test_a_missing_members_pointer_is_written_escaped",
    },
    "id-order": {
        "history/identity": "tests/history/test_history_identity.py::test_three_entries_two_digests_refuse_all_three",
        "history/upgrade": "tests/report/test_report_cli.py::test_upgrade_key_unknown_lists_the_valid_keys",
        "catalog/manifest": "tests/fix/test_fix.py::test_fix_recomputes_every_pin_back_to_the_builders_bytes",
        "browse/index": "tests/browse/test_index.py::"
                        "test_each_entry_is_its_card_with_the_digests_it_was_checked_against",
    },
}
"""mutant -> each caller of the rule -> the caller's test the mutant must fail."""


def test_every_mutant_names_its_callers_and_applies():
    assert sorted(CALLERS) == sorted(MUTANTS)
    for name in MUTANTS:  # the text each mutant replaces is in the rule's source (else it would test nothing)
        module, function = MUTANTS[name][:2]
        code = getattr(__import__(module, fromlist=[function]), function).__code__
        try:
            apply(name)
        finally:
            getattr(__import__(module, fromlist=[function]), function).__code__ = code


@pytest.mark.parametrize("mutant", sorted(MUTANTS))
def test_each_caller_fails_under_the_mutant(mutant):
    tests = CALLERS[mutant]
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-n", "0", "-q", "-rf", "-p", "no:cacheprovider", *tests.values()],
        cwd=REPO, env={**os.environ, "EXCHANGE_MUTANT": mutant, "PYTHONPATH": os.pathsep.join(
            [str(SITE), *filter(None, [os.environ.get("PYTHONPATH")])])},
        capture_output=True, text=True, timeout=600)
    failed = set(re.findall(r"^FAILED (\S+)", done.stdout, re.M))
    survived = {caller: test for caller, test in tests.items()
                if not any(f == test or f.startswith(test + "[") for f in failed)}  # a parametrized test: any case
    assert not survived, f"mutant {mutant} survives the tests of {sorted(survived)}:\n{done.stdout[-3000:]}"
    assert "error" not in done.stdout.rsplit("\n", 2)[-2], done.stdout[-3000:]  # failed, not broken
