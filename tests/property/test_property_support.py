"""The property tests' own machinery: the fuzz budget, the in-memory tree and the document writer."""

from __future__ import annotations

import json
import re
from pathlib import Path

from judgment_exchange.gate.pipeline import GateOptions, check_catalog
from judgment_exchange.tree import WorkingTree

from ..support.catalog import CatalogBuilder
from . import corpus, mutate
from .memtree import load
from .profiles import BUDGET, FUZZ_TOTAL

HERE = Path(__file__).parent


def test_the_fuzz_profile_runs_its_total_across_the_readers() -> None:
    assert sum(fuzz for _, fuzz in BUDGET.values()) == FUZZ_TOTAL
    used = set()
    for module in HERE.glob("test_*.py"):
        used |= set(re.findall(r'@budget\("([a-z-]+)"\)', module.read_text(encoding="utf-8")))
    assert used == set(BUDGET), "every budget line is one property test's, and every property test has one"


def test_the_memory_tree_reads_a_catalog_as_the_working_tree_does(tmp_path: Path) -> None:
    builder = CatalogBuilder(tmp_path)
    builder.add_runner_entry()
    builder.add_preset()
    builder.add_output_entry()
    builder.write_manifest()
    (tmp_path / "entries" / "acme" / "vendors" / "stray.txt").write_text("x\n", encoding="utf-8")
    on_disk = check_catalog(WorkingTree(str(tmp_path)), GateOptions(history=False)).as_json()
    in_memory = check_catalog(load(tmp_path), GateOptions(history=False)).as_json()
    assert on_disk == in_memory
    assert on_disk["replayed"] == 1 and [r["code"] for r in on_disk["refusals"]] == ["entry-file-unexpected"]


def test_the_writer_writes_back_what_the_standard_library_read() -> None:
    for tree in corpus.json_documents()[:200]:
        data = mutate.write(tree)
        assert mutate.write(mutate.read(data)) == data
        json.loads(data)
    assert mutate.write(mutate.Obj([["a", mutate.Num("1")],
                                    ["a", mutate.Raw('"\\ud800"')]])) == b'{"a":1,"a":"\\ud800"}'
    assert mutate.write(["\ud800"]) == b'["\xed\xa0\x80"]'  # a raw lone surrogate: bytes UTF-8 refuses
