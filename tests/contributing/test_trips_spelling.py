"""What a contributor still trips on, issue #34 item 7: a misspelled entry.json member, and a licence written with
a space.

A member name the format does not define is the author's and is never shown (`<a name of 10 characters>`);
where it is within two edits of a member the format knows that the entry lacks, the detail names that member:
"did you mean `description`?". A licence outside §3's grammar whose spaces or underscores written as '-' spell a
listed SPDX identifier ("Apache 2.0") gets the "did you mean 'Apache-2.0'" that "Apache-2" gets from the list.
Each suggestion, applied as printed (the member renamed, the licence rewritten), passes the gate. Neither the
typed name nor the licence value is ever printed.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from judgment_exchange.cli import main as exchange

from ..support.catalog import CatalogBuilder

ENTRY_JSON = Path("entries/acme/vendors/entry.json")


@pytest.fixture
def catalog(tmp_path) -> Path:
    builder = CatalogBuilder(tmp_path / "catalog")
    builder.add_runner_entry("acme.vendors", "mapping-v2-unsigned-parameters")
    builder.write_manifest()
    return builder.root


def _check(root: Path, capsys) -> tuple[int, str]:
    capsys.readouterr()
    status = exchange(["check", "--catalog", str(root), "--no-history"])
    captured = capsys.readouterr()
    return status, captured.out + captured.err


def _rename(root: Path, old: str, new: str) -> None:
    path = root / ENTRY_JSON
    data = path.read_bytes()
    assert data.count(f'"{old}":'.encode()) == 1
    path.write_bytes(data.replace(f'"{old}":'.encode(), f'"{new}":'.encode()))


def _set_licence(root: Path, value: str) -> None:
    path = root / ENTRY_JSON
    data = path.read_text(encoding="utf-8")
    now = json.loads(data)["licence"]
    path.write_text(data.replace(f'"licence": {json.dumps(now)}', f'"licence": {json.dumps(value)}'), encoding="utf-8")


def _refused(out: str, code: str) -> str:
    [line] = [x for x in out.splitlines() if x.startswith(f"refused {code}: ")]
    return line


def _add_member(root: Path, name: str, value: str) -> None:
    """A member written after title, as a person adds one."""
    path = root / ENTRY_JSON
    data = path.read_bytes()
    assert data.count(b'\n  "title": ') == 1
    member = f'\n  {json.dumps(name)}: {json.dumps(value)},\n  "title": '.encode()
    path.write_bytes(data.replace(b'\n  "title": ', member, 1))


DESCRIPTION = "Reads one vendor's record from the Acme vendor registry."


@pytest.mark.parametrize("typed", ["descripton", "Description", "descriptoin", "dscriptio"])
def test_a_misspelled_member_names_the_member_it_is_near_and_the_rename_passes(catalog, capsys, typed):
    assert _check(catalog, capsys)[0] == 0
    _add_member(catalog, typed, DESCRIPTION)
    status, out = _check(catalog, capsys)
    assert status == 1 and typed not in out
    line = _refused(out, "entry-member-unknown")
    assert line.endswith(f"<a name of {len(typed)} characters>: not a member of entry.json (§3's members list is "
                         "closed); did you mean `description`?"), line
    suggested = re.findall(r"did you mean `([a-zA-Z]+)`\?", line)
    assert suggested == ["description"]
    _rename(catalog, typed, suggested[0])  # the suggestion, applied as printed
    status, out = _check(catalog, capsys)
    assert status == 1 and [x.split(":")[0] for x in out.splitlines() if x.startswith("refused ")] == [
        "refused manifest-digest-mismatch"]  # entry.json changed, so its row: the registry's fix, exchange fix
    assert exchange(["fix", "--catalog", str(catalog)]) == 0
    assert _check(catalog, capsys)[0] == 0
    assert json.loads((catalog / ENTRY_JSON).read_bytes())["description"] == DESCRIPTION


def test_near_miss_a_name_far_from_every_member_gets_no_suggestion(catalog, capsys):
    _add_member(catalog, "summaryText", DESCRIPTION)
    status, out = _check(catalog, capsys)
    line = _refused(out, "entry-member-unknown")
    assert status == 1 and "did you mean" not in line and "summaryText" not in out
    assert line.endswith("<a name of 11 characters>: not a member of entry.json (§3's members list is closed)")


def test_near_miss_a_member_the_entry_already_holds_is_not_suggested(catalog, capsys):
    """"titel" beside "title": renaming it would hold title twice, so title is not suggested."""
    _add_member(catalog, "titel", "x")
    status, out = _check(catalog, capsys)
    line = _refused(out, "entry-member-unknown")
    assert status == 1 and "did you mean" not in line and "titel" not in out


def test_a_nested_misspelled_member_names_its_objects_member(catalog, capsys):
    _rename(catalog, "versions", "versons")
    status, out = _check(catalog, capsys)
    line = _refused(out, "entry-member-unknown")
    assert status == 1 and "versons" not in out
    assert line.endswith("pack/<a name of 7 characters>: not a member of pack (it holds id, versions, digests); did "
                         "you mean `versions`?"), line
    _rename(catalog, "versons", "versions")
    assert _check(catalog, capsys)[0] == 0


@pytest.mark.parametrize("written", ["Apache 2.0", "apache 2.0", "Apache_2.0"])
def test_a_licence_with_a_space_gets_the_listed_spelling_and_it_passes(catalog, capsys, written):
    _set_licence(catalog, written)
    status, out = _check(catalog, capsys)
    line = _refused(out, "entry-member-invalid")
    assert status == 1 and written not in out
    assert line.endswith("licence: one SPDX licence identifier ([A-Za-z0-9][A-Za-z0-9.+-]*), no compound "
                         "expression; did you mean 'Apache-2.0'?"), line
    suggested = re.findall(r"did you mean '([A-Za-z0-9.+-]+)'", line)
    assert suggested == ["Apache-2.0"]
    _set_licence(catalog, suggested[0])  # applied as printed
    assert _check(catalog, capsys)[0] == 0


def test_near_miss_apache_2_keeps_the_lists_own_suggestion(catalog, capsys):
    _set_licence(catalog, "Apache-2")
    status, out = _check(catalog, capsys)
    line = _refused(out, "licence-not-listed")
    assert status == 1 and "did you mean 'Apache-2.0', 'Apache-1.1' or 'Apache-1.0'?" in line


def test_near_miss_a_licence_outside_the_grammar_near_nothing_gets_no_suggestion(catalog, capsys):
    _set_licence(catalog, "all rights reserved, ask us")
    status, out = _check(catalog, capsys)
    line = _refused(out, "entry-member-invalid")
    assert status == 1 and "did you mean" not in line and "ask us" not in out


def test_attack_a_secret_in_a_licence_or_a_member_name_is_never_echoed(catalog, capsys):
    secret = "AKIAIOSFODNN7EXAMPLE"
    _set_licence(catalog, f"{secret} 2.0")
    _rename(catalog, "author", "authorr")
    status, out = _check(catalog, capsys)
    assert status == 1 and secret not in out and "authorr" not in out
    assert "did you mean `author`?" in out
