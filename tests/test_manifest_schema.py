"""The manifest row's JSON Schema (schemas/manifest-row.schema.json) says the closed row form; the
rules a schema cannot say stay the gate's. Expectations are written by hand from RFC 0019 §3."""

from __future__ import annotations

import pytest

from judgment_exchange.catalog.manifest import row_problems
from judgment_exchange.jsonstrict import Number

DIGEST = "sha256:" + "ab" * 32
ROW = {"id": "acme.vendors", "kind": "dialect", "path": "entries/acme/vendors", "entryDigest": DIGEST,
       "dialectDigest": DIGEST,
       "fixtures": [{"name": "f", "files": ["case.json", "preparation.json", "profiles.json"]}]}


def test_a_row_of_the_form_passes():
    assert row_problems(ROW) == []
    assert row_problems({**ROW, "id": "acme.a.b", "path": "entries/acme/a.b"}) == []


@pytest.mark.parametrize("change,member", [
    ({"artifact": {}}, "(row)"),                       # closed: version 3 adds no row member
    ({"id": "acme.vendors\n", "path": "entries/acme/vendors"}, "id"),  # no trailing newline slips past $
    ({"entryDigest": DIGEST + "\n"}, "entryDigest"),
    ({"entryDigest": DIGEST.upper()}, "entryDigest"),
    ({"kind": "workflow"}, "kind"),
    ({"fixtures": [{"name": Number("1"), "files": ["a", "b", "c"]}]}, "fixtures/0/name"),
    ({"fixtures": [{"name": "f", "files": ["a", "a", "b"]}]}, "fixtures/0/files"),
    ({"fixtures": [{"name": "f", "files": ["a", "b"]}]}, "fixtures/0/files"),
    ({"fixtures": [{"name": "f", "files": ["a", "b", "c", "d", "e", "f"]}]}, "fixtures/0/files"),
])
def test_schema_refusals_name_the_member(change, member):
    problems = row_problems({**ROW, **change})
    assert any(p.startswith(member + ":") for p in problems), problems


def test_rules_beyond_the_schema():
    assert row_problems({**ROW, "path": "entries/acme/other"}) == [
        "path: expected 'entries/acme/vendors' (the id split at its first '.')"]
    preset = {**ROW, "kind": "preset", "outputDigest": DIGEST}
    assert row_problems(preset) == ["fixtures: a preset's row has fixtures []",
                                    "outputDigest: a preset has no output document"]
    assert row_problems([]) and row_problems(None)
