"""The manifest row's fast form check (issue #12; catalog/manifest.py `_plainly_in_form`): a row it
passes is one the row schema accepts, and `row_problems` gives exactly what the schema-only reading
gives, on the catalogs' own rows and on generated and mutated rows. The schema
(schemas/manifest-row.schema.json, through jsonschema) is the independent computation."""

from __future__ import annotations

import copy
import json
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from judgment_exchange.catalog import manifest
from judgment_exchange.jsonstrict import Number

from .support.catalog import CatalogBuilder

ROOT = Path(__file__).resolve().parents[1]
DIGEST = "sha256:" + "0123456789abcdef" * 4
VALID = {
    "id": "acme.vendors", "kind": "dialect", "path": "entries/acme/vendors", "entryDigest": DIGEST,
    "fixtures": [{"name": "computed", "files": ["case.json", "preparation.json", "sources.json"]}],
    "dialectDigest": DIGEST, "outputDigest": DIGEST,
}


def _schema_only(row) -> list[str]:
    """row_problems with the fast check switched off: every row through jsonschema."""
    saved = manifest._plainly_in_form
    manifest._plainly_in_form = lambda row: False
    try:
        return manifest.row_problems(row)
    finally:
        manifest._plainly_in_form = saved


def _schema_accepts(row) -> bool:
    return not list(manifest._row_validator().iter_errors(row))


def _catalog_rows(tmp_path: Path) -> list:
    """The demo catalog's rows (one entry of every kind) and a generated catalog's (tests/support)."""
    rows = json.loads((ROOT / "docs" / "demo-catalog" / "manifest.json").read_bytes())
    builder = CatalogBuilder(tmp_path / "catalog")
    builder.add_runner_entry("acme.vendors", "mapping-v2-unsigned-parameters")
    builder.add_output_entry("acme.writeback")
    builder.add_preset("acme.vendors-preset")
    builder.write_manifest()
    return rows + json.loads((builder.root / "manifest.json").read_bytes())


def test_the_catalogs_rows_take_the_fast_path_with_the_schemas_verdict(tmp_path: Path) -> None:
    rows = _catalog_rows(tmp_path)
    assert len(rows) == 14
    assert all(manifest._plainly_in_form(row) for row in rows)  # the fast path is used, not bypassed
    for row in rows:
        assert manifest.row_problems(row) == _schema_only(row)
        if manifest._plainly_in_form(row):
            assert _schema_accepts(row)


NEAR_MISSES = [
    {**VALID, "id": "acme.vendors\n"},            # `$` matches before a final line feed: the schema's `not`
    {**VALID, "path": "entries/acme/vendors\n"},
    {**VALID, "entryDigest": DIGEST + "\n"},
    {**VALID, "id": "Acme.vendors"}, {**VALID, "id": "ac"}, {**VALID, "id": "a." + "b" * 127},
    {**VALID, "kind": "Dialect"}, {**VALID, "kind": ["dialect"]},
    {**VALID, "entryDigest": DIGEST.upper()}, {**VALID, "dialectDigest": None}, {**VALID, "outputDigest": 5},
    {**VALID, "fixtures": [{"name": "x", "files": ["a", "b"]}]},
    {**VALID, "fixtures": [{"name": "x", "files": ["a", "b", "c", "d", "e", "f"]}]},
    {**VALID, "fixtures": [{"name": "x", "files": ["a", "a", "b"]}]},
    {**VALID, "fixtures": [{"name": "x", "files": ["a", "b", Number("1")]}]},
    {**VALID, "fixtures": [{"name": 1, "files": ["a", "b", "c"]}]},
    {**VALID, "fixtures": [{"name": "x", "files": ["a", "b", "c"], "more": 1}]},
    {**VALID, "fixtures": [{"files": ["a", "b", "c"]}]},
    {**VALID, "fixtures": {"name": "x"}}, {**VALID, "extra": 1},
    {k: v for k, v in VALID.items() if k != "kind"}, {k: v for k, v in VALID.items() if k != "fixtures"},
    [VALID], "row", None,
]


def test_near_misses_are_left_to_the_schema() -> None:
    assert manifest._plainly_in_form(VALID) and _schema_accepts(VALID)
    for row in NEAR_MISSES:
        assert not manifest._plainly_in_form(row), row
        assert not _schema_accepts(row), row  # each is a near miss the schema itself refuses
        assert manifest.row_problems(row) == _schema_only(row)


_SCALARS = st.one_of(
    st.none(), st.booleans(), st.integers().map(lambda i: Number(str(i))), st.text(max_size=12),
    st.sampled_from(["dialect", "preset", "acme.vendors", "entries/acme/vendors", DIGEST, DIGEST + "\n",
                     "case.json", "a.b\n", "entries/a/b.c", "sha256:" + "0" * 64]),
)
_VALUES = st.recursive(_SCALARS, lambda inner: st.one_of(
    st.lists(inner, max_size=6), st.dictionaries(st.sampled_from(["name", "files", "x"]), inner, max_size=3)),
    max_leaves=12)


@st.composite
def _rows(draw):
    row = copy.deepcopy(VALID)
    for _ in range(draw(st.integers(0, 3))):
        action = draw(st.sampled_from(["set", "drop", "add", "fixture", "files"]))
        member = draw(st.sampled_from(sorted(manifest.ROW_MEMBERS)))
        if action == "set":
            row[member] = draw(_VALUES)
        elif action == "drop":
            row.pop(member, None)
        elif action == "add":
            row[draw(st.text(max_size=6))] = draw(_VALUES)
        elif action == "fixture":
            row["fixtures"] = draw(st.lists(st.dictionaries(st.sampled_from(["name", "files", "x"]), _VALUES,
                                                            max_size=3), max_size=3))
        else:
            names = st.sampled_from(["a", "b", "c", "d", "e", "f", "g"])
            row["fixtures"] = [{"name": draw(st.text(max_size=4)),
                                "files": draw(st.lists(names, max_size=7, unique=draw(st.booleans())))}]
    return row


@settings(max_examples=400, deadline=None)
@given(_rows())
def test_generated_rows_get_the_schemas_verdict(row) -> None:
    if manifest._plainly_in_form(row):
        assert _schema_accepts(row)
    assert manifest.row_problems(row) == _schema_only(row)
