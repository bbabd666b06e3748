"""`python -m judgment_exchange.codes [--write | --check]`: docs/codes.md from the registry."""

import sys

from . import main

sys.exit(main(sys.argv[1:]))
