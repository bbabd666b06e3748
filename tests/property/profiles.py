"""Hypothesis settings profiles for the property tests (docs/fuzzing.md).

`ci` (the default) runs a small, bounded number of examples per reader, so the whole property suite
stays well under a minute on a 2-core machine; `fuzz` (HYPOTHESIS_PROFILE=fuzz) runs FUZZ_TOTAL
examples across the readers, in the shares of `FUZZ`. Neither profile has a deadline: no test is
timed (CONTRIBUTING.md). Hypothesis's example database is off under `ci`, and under `fuzz` lives in
HYPOTHESIS_DATABASE (default: STORAGE/examples); hypothesis's other files go to STORAGE (a directory
under the system's temporary directory unless HYPOTHESIS_STORAGE_DIRECTORY names one) — never to
the repository.
"""

from __future__ import annotations

import contextlib
import faulthandler
import os
import tempfile

from hypothesis import HealthCheck, settings
from hypothesis.configuration import set_hypothesis_home_dir
from hypothesis.database import DirectoryBasedExampleDatabase

FUZZ_TOTAL = 100_000

# Examples per test: (ci, fuzz). The fuzz column sums to FUZZ_TOTAL (tests/property/test_profiles.py holds it).
BUDGET: dict[str, tuple[int, int]] = {
    "strict-json": (200, 12_000),
    "strict-json-stdlib": (150, 8_000),
    "canon-stdlib": (150, 7_000),
    "canon-domain": (150, 5_000),
    "preparation-form": (100, 3_000),
    "entry": (100, 8_000),
    "entry-values": (100, 4_000),
    "entry-directory": (40, 5_000),
    "manifest": (60, 6_000),
    "dialect-form": (100, 10_000),
    "binding": (60, 7_000),
    "verifier": (60, 10_000),
    "scan": (40, 7_000),
    "gate": (30, 8_000),
}

HANG_SECONDS = 300
"""Under `fuzz`, one example running this long dumps every thread's traceback and ends the run:
a hang is reported, never waited for. (A bound on hanging, not a timing assertion.)"""

STORAGE = (os.environ.get("HYPOTHESIS_STORAGE_DIRECTORY")
           or os.path.join(tempfile.gettempdir(), "judgment-exchange-hypothesis"))
set_hypothesis_home_dir(STORAGE)  # hypothesis's own files (patches of failing examples) never land in the repository

_HEALTH = [HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much,
           HealthCheck.large_base_example]

settings.register_profile("ci", deadline=None, database=None, print_blob=True, suppress_health_check=_HEALTH)
settings.register_profile(
    "fuzz", deadline=None, print_blob=True, suppress_health_check=_HEALTH,
    database=DirectoryBasedExampleDatabase(
        os.environ.get("HYPOTHESIS_DATABASE", os.path.join(STORAGE, "examples"))),
)
PROFILE = os.environ.get("HYPOTHESIS_PROFILE", "ci")
if PROFILE not in ("ci", "fuzz"):
    raise RuntimeError(f"HYPOTHESIS_PROFILE={PROFILE!r}: expected ci or fuzz (docs/fuzzing.md)")
settings.load_profile(PROFILE)
FUZZING = PROFILE == "fuzz"
ROUNDS = int(os.environ.get("FUZZ_ROUNDS", "1"))
"""Under `fuzz`, FUZZ_ROUNDS=n runs 1/n of every test's share (rounded up): n such runs make the whole,
and a run stopped early has given every reader the same part of its share (docs/fuzzing.md)."""


def budget(name: str) -> settings:
    """The settings of one property test: its share of examples under the active profile."""
    ci, fuzz = BUDGET[name]
    return settings(max_examples=-(-fuzz // ROUNDS) if FUZZING else ci)


@contextlib.contextmanager
def bounded():
    """Under `fuzz`, a watchdog on one example (HANG_SECONDS); under `ci`, nothing."""
    if not FUZZING:
        yield
        return
    faulthandler.dump_traceback_later(HANG_SECONDS, exit=True)
    try:
        yield
    finally:
        faulthandler.cancel_dump_traceback_later()
