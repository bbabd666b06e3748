"""Issue #38 item 3: `exchange fixture add --name NAME` and `exchange new --from-run` printed the fixture's name
uncleared, so a credential fitting the name grammar (a Databricks token, here) was echoed — and without `--name`
the export's `run.id` became the name and was echoed too — and the command then wrote a directory the gate
refuses as a credential. Both commands now clear the name with the gate's own name scan first: refused with the
scan's code, nothing written, the name never printed (only its kind and length). Near misses: a plain name, and a
run id that is no credential, are written and printed as before."""

from __future__ import annotations

import pytest

from ..support.catalog import CatalogBuilder
from .exports import EXPORTS, blank_entry, run_json, write_export
from .test_fixture_add import NAME, run, snapshot

TOKEN = "dapi" + "0123456789abcdef" * 2  # a Databricks token's shape: fits ^[a-z0-9]+(-[a-z0-9]+)*$
CODE = "secret-databricks-token"


@pytest.fixture
def catalog(tmp_path):
    builder = CatalogBuilder(tmp_path / "catalog")
    blank_entry(builder, "acme.vendors", run_json(NAME)["run"]["input"]["source"]["mapping"], 2)
    return builder


def _export_with_run_id(tmp_path, run_id: str):
    value = run_json(NAME)
    value["run"]["id"] = run_id
    return write_export(tmp_path / "export", value, (EXPORTS / NAME / "profiles.json").read_bytes())


def _refused(capsys, catalog, argv) -> None:
    before = snapshot(catalog.root)
    code, out, err = run(capsys, *argv)
    assert code == 1, (out, err)
    assert TOKEN not in out + err and CODE in out + err, (out, err)
    assert snapshot(catalog.root) == before  # nothing written


def test_attack_fixture_add_name_is_a_credential(capsys, catalog):
    _refused(capsys, catalog, ["fixture", "add", catalog.root / "entries/acme/vendors", EXPORTS / NAME,
                               "--name", TOKEN])


def test_attack_fixture_add_run_id_is_a_credential(capsys, catalog, tmp_path):
    export = _export_with_run_id(tmp_path, f"run_{TOKEN}")
    _refused(capsys, catalog, ["fixture", "add", catalog.root / "entries/acme/vendors", export])


def test_attack_new_from_run_name_is_a_credential(capsys, tmp_path):
    builder = CatalogBuilder(tmp_path / "catalog")
    _refused(capsys, builder, ["new", "acme.other", "--from-run", EXPORTS / NAME / "run.json", "--name", TOKEN,
                               "--catalog", builder.root])


def test_attack_new_from_run_run_id_is_a_credential(capsys, tmp_path):
    builder = CatalogBuilder(tmp_path / "catalog")
    export = _export_with_run_id(tmp_path, TOKEN)
    _refused(capsys, builder, ["new", "acme.other", "--from-run", export / "run.json", "--catalog", builder.root])


def test_near_miss_a_plain_name_is_written_and_named(capsys, catalog):
    code, out, err = run(capsys, "fixture", "add", catalog.root / "entries/acme/vendors", EXPORTS / NAME,
                         "--name", "vendor-seven")
    assert code == 0, err
    assert "fixtures/vendor-seven/" in out


def test_near_miss_a_plain_run_id_names_the_fixture(capsys, tmp_path):
    builder = CatalogBuilder(tmp_path / "catalog")
    export = _export_with_run_id(tmp_path, "run_0123abcd")
    code, out, err = run(capsys, "new", "acme.other", "--from-run", export / "run.json", "--catalog", builder.root)
    assert code == 0, err
    assert "fixtures/run-0123abcd/" in out
