"""A local reader that keeps dialect §11's process contract: it runs this package's verifier
(`exchange verify "$@"`), and logs each call to $PIN_READER_LOG so a test sees it ran as a process.
tests/test_verifier_pin.py commits it as tools/dialect_verify.py of a throwaway specification repository."""

import os
import sys

log = os.environ.get("PIN_READER_LOG")
if log:
    with open(log, "a", encoding="utf-8") as fh:
        fh.write(" ".join(sys.argv[1:]) + "\n")

from judgment_exchange.verifier.program import main  # noqa: E402

sys.exit(main(sys.argv[1:]))
