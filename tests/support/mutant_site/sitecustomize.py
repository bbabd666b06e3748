"""Applies the mutant EXCHANGE_MUTANT names (tests/support/mutants.py) in every Python process started with this
directory on PYTHONPATH: the pytest run tests/test_rule_homes.py starts, and each `exchange` command a caller's test
runs as a process of its own, so a caller reached through the command line runs the mutated rule too."""

import os
import sys

if os.environ.get("EXCHANGE_MUTANT"):
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))))
    from tests.support.mutants import apply

    apply(os.environ["EXCHANGE_MUTANT"])
