"""The CLI's one exit path (issue #37 item 4): a command ends by returning its status or raising `common.Exit`
(the status and its line), caught in one place under `main`; `exchange check`'s reporter is chosen from one table
keyed by `--format`."""

from __future__ import annotations

import re

from judgment_exchange.cli import build_parser
from judgment_exchange.cli.common import IO, USAGE, Exit
from judgment_exchange.cli.report import REPORTERS

from .support.paths import REPO

CLI = REPO / "tools" / "judgment_exchange" / "cli"


def test_exit_is_caught_in_one_place_and_no_command_returns_3_or_4_by_hand():
    sources = {p.name: p.read_text(encoding="utf-8") for p in sorted(CLI.glob("*.py"))}
    caught = {name: len(re.findall(r"except Exit\b", text)) for name, text in sources.items()}
    assert {name: n for name, n in caught.items() if n} == {"__init__.py": 1}
    by_hand = {name: re.findall(r"return (?:IO|USAGE)\b", text) for name, text in sources.items()}
    assert {name: found for name, found in by_hand.items() if found} == {}


def test_the_reporters_are_the_formats_check_offers():
    check = build_parser()._subparsers._group_actions[0].choices["check"]
    formats = next(a.choices for a in check._actions if a.dest == "format")
    assert sorted(REPORTERS) == sorted(formats)


def test_an_exit_says_its_line_where_it_belongs_and_gives_its_status(capsys):
    assert Exit(USAGE, "exchange x: a bad invocation").say() == USAGE
    assert Exit(IO, "exchange x: cannot read").say() == IO
    assert Exit(1, "refused some-code: a refusal's own line", out=True).say() == 1
    out, err = capsys.readouterr()
    assert err == "exchange x: a bad invocation\nexchange x: cannot read\n"
    assert out == "refused some-code: a refusal's own line\n"
