"""A local reader that keeps dialect §11's process contract but disagrees: whatever the fixture, one
reading whose digest is all zeros, exit 0. The gate must refuse every fixture it answers."""

import sys

if sys.argv[1:2] != ["--fixture"] or len(sys.argv) != 3:
    sys.stderr.write("usage: dialect_verify.py --fixture ENTRY_DIR/fixtures/NAME\n")
    sys.exit(3)
sys.stdout.write('{"digest":"sha256:' + "0" * 64 + '","result":"reading"}\n')
sys.exit(0)
