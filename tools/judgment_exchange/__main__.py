"""`python -m judgment_exchange` is `exchange`."""

from .cli import main

raise SystemExit(main())
