"""What a contributor still trips on, issue #34 item 7: `exchange fix` over an entry whose licence is refused.

Before, fix re-pinned the entry's manifest row and said "1 pin(s) written" over a licence `exchange check` then
refused. Now a licence the gate refuses (§3's grammar, or the SPDX list: licence-not-listed, licence-spelling)
refuses the entry in fix too: it says so, with the gate's "did you mean", and writes nothing. The suggestion,
applied as printed, lets fix pin and the gate pass. The licence value is never printed. A deprecated identifier
(admitted with a note) and a refused title (a part fix never waits on) keep today's behaviour: fix pins.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from judgment_exchange.cli import main as exchange

from ..fix.test_fix import WRONG, set_member, snapshot
from ..support.catalog import CatalogBuilder

ENTRY_JSON = Path("entries/acme/vendors/entry.json")


@pytest.fixture
def catalog(tmp_path) -> Path:
    """One entry whose dialect.digest is stale: a pin fix would write."""
    builder = CatalogBuilder(tmp_path / "catalog")
    builder.add_runner_entry()
    builder.write_manifest()
    set_member(builder.root / ENTRY_JSON, ("dialect", "digest"), WRONG)
    return builder.root


def _fix(root: Path, capsys) -> tuple[int, str, str]:
    capsys.readouterr()
    status = exchange(["fix", "--catalog", str(root)])
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def _gate(root: Path, capsys) -> int:
    capsys.readouterr()
    status = exchange(["check", "--catalog", str(root), "--no-history"])
    capsys.readouterr()
    return status


@pytest.mark.parametrize("written, code", [
    ("Apache 2.0", "entry-member-invalid"),
    ("Apache-2", "licence-not-listed"),
    ("apache-2.0", "licence-spelling"),
])
def test_fix_says_the_entry_is_refused_pins_nothing_and_the_suggestion_passes(catalog, capsys, written, code):
    set_member(catalog / ENTRY_JSON, ("licence",), written)
    before = snapshot(catalog)
    status, out, err = _fix(catalog, capsys)
    assert status == 1 and out == "" and snapshot(catalog) == before
    assert f"'{written}'" not in err and f'"{written}"' not in err
    [line] = [x for x in err.splitlines() if x.startswith(f"exchange fix: {ENTRY_JSON.as_posix()}: {code}: licence: ")]
    assert line.endswith("; the entry is refused, so exchange fix pins nothing for it: write its licence as the "
                         "detail says")
    assert "exchange fix: nothing written: 1 problem(s) a pin cannot fix" in err
    suggested = re.findall(r"(?:did you mean|spells this identifier) '([A-Za-z0-9.+-]+)'", line)
    assert suggested and suggested[0] == "Apache-2.0", line
    set_member(catalog / ENTRY_JSON, ("licence",), suggested[0])  # the detail's suggestion, applied as printed
    status, out, err = _fix(catalog, capsys)
    assert status == 0 and "/dialect/digest:" in out, err
    assert json.loads((catalog / ENTRY_JSON).read_bytes())["licence"] == "Apache-2.0"
    assert _gate(catalog, capsys) == 0


def test_near_miss_a_deprecated_licence_admitted_with_a_note_is_pinned(catalog, capsys):
    set_member(catalog / ENTRY_JSON, ("licence",), "GPL-2.0")
    status, out, err = _fix(catalog, capsys)
    assert status == 0 and "/dialect/digest:" in out and "refused" not in err
    assert _gate(catalog, capsys) == 0


def test_near_miss_a_refused_title_still_does_not_stop_fix(catalog, capsys):
    set_member(catalog / ENTRY_JSON, ("title",), "")
    status, out, err = _fix(catalog, capsys)
    assert status == 0 and "/dialect/digest:" in out
    assert _gate(catalog, capsys) == 1  # the gate still refuses the title


def test_attack_a_secret_written_as_the_licence_is_never_printed(catalog, capsys):
    secret = "AKIAIOSFODNN7EXAMPLE"
    for value in (secret, f"{secret} 2.0"):
        set_member(catalog / ENTRY_JSON, ("licence",), value)
        status, out, err = _fix(catalog, capsys)
        assert status == 1 and secret not in out + err and "pins nothing for it" in err
