"""The `exchange` command (shared/design/interfaces.md). STUB: being written."""

import sys


def main(argv=None) -> int:
    print("exchange: not yet built", file=sys.stderr)
    return 3
