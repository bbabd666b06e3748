"""A local reader that keeps dialect §11's process contract and reads every source kind: it answers each
fixture with the digest of its recorded preparation.json (sha256 over the stored bytes), exit 0, as a
reader that recomputes http sources would for an honest fixture. It logs each call to $PIN_READER_LOG.
tests/repository/test_pin_move.py commits it as the moved reader of a throwaway specification repository."""

import hashlib
import os
import sys

if sys.argv[1:2] != ["--fixture"] or len(sys.argv) != 3:
    sys.stderr.write("usage: dialect_verify.py --fixture ENTRY_DIR/fixtures/NAME\n")
    sys.exit(3)
log = os.environ.get("PIN_READER_LOG")
if log:
    with open(log, "a", encoding="utf-8") as fh:
        fh.write("reads-every-kind " + sys.argv[2] + "\n")
with open(os.path.join(sys.argv[2], "preparation.json"), "rb") as fh:
    digest = hashlib.sha256(fh.read()).hexdigest()
sys.stdout.write('{"digest":"sha256:' + digest + '","result":"reading"}\n')
sys.exit(0)
