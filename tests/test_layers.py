"""Issue #29: the layers the code keeps, held by a contract in the tests. The contract is pyproject.toml's
`[tool.importlinter]` (the `import-linter` package, in the development lock): a `layers` contract over
`judgment_exchange` and `forbidden` contracts where they say more, with imports inside functions and type-only
imports counted and no `ignore_imports`. This file runs it, shows it fails on a planted upward import (at a
module's top and inside a function), holds docs/architecture.md's drawing equal to it, finds no import cycle
in the package, and holds the one lazy exporter (history/__init__.py) to import statements the contract sees."""

from __future__ import annotations

import ast
import os
import re
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from .support.paths import REPO

PYPROJECT = REPO / "pyproject.toml"
ARCHITECTURE = REPO / "docs" / "architecture.md"


def _lint_imports() -> str:
    beside = Path(sys.executable).parent / "lint-imports"
    found = str(beside) if beside.is_file() else shutil.which("lint-imports")
    assert found, "lint-imports is not installed: import-linter is in requirements-dev.txt (bash .ci/run installs it)"
    return found


def _run(cwd: Path, env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([_lint_imports(), "--no-cache"], cwd=cwd, env=env, capture_output=True, text=True,
                          check=False, timeout=300)


def _contract() -> dict:
    return tomllib.loads(PYPROJECT.read_text(encoding="utf-8"))["tool"]["importlinter"]


def test_the_package_keeps_its_layers():
    done = _run(REPO)
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]
    assert "4 kept, 0 broken" in done.stdout


def test_the_contract_counts_every_import_and_lists_no_exception():
    contract = _contract()
    assert contract["exclude_type_checking_imports"] is False
    assert all("ignore_imports" not in c for c in contract["contracts"])
    layered = {m.strip() for line in contract["contracts"][0]["layers"] for m in line.split("|")}
    package = REPO / "tools" / "judgment_exchange"
    tops = {f"judgment_exchange.{p.stem if p.is_file() else p.name}" for p in package.iterdir()
            if (p.suffix == ".py" and p.name != "__init__.py")
            or (p.is_dir() and (p / "__init__.py").is_file())}
    # every module of the package has its layer
    assert tops == layered, (sorted(tops - layered), sorted(layered - tops))


PLANTS = {
    "an upward import at a module's top": (
        "catalog/grammar.py", "from ..gate import pipeline as _planted  # planted\n",
        "judgment_exchange.catalog.grammar"),
    "an upward import inside a function": (
        "jsonstrict.py", "\n\ndef _planted():\n    from .quoting import cleared\n    return cleared\n",
        "judgment_exchange.jsonstrict"),
    "a type-only upward import": (
        "tree.py", "\nfrom typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from .cli import main\n",
        "judgment_exchange.tree"),
}


@pytest.mark.parametrize("plant", sorted(PLANTS))
def test_attack_planted_upward_import_breaks_the_contract(tmp_path, plant):
    """The contract fails the next upward import, naming the two modules: a copy of the package with one import
    planted, checked by the same contract."""
    path, line, importer = PLANTS[plant]
    copy = tmp_path / "tools"
    shutil.copytree(REPO / "tools" / "judgment_exchange", copy / "judgment_exchange",
                    ignore=shutil.ignore_patterns("__pycache__", "kit"))
    target = copy / "judgment_exchange" / path
    text = target.read_text(encoding="utf-8")
    if line.startswith("from"):  # after the module's own `from __future__` line, where an import may stand
        head, rest = text.split("from __future__ import annotations\n", 1)
        text = head + "from __future__ import annotations\n" + line + rest
    else:
        text += line
    target.write_text(text, encoding="utf-8")
    shutil.copy2(PYPROJECT, tmp_path / "pyproject.toml")
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTHON")}
    env["PYTHONPATH"] = str(copy)
    done = _run(tmp_path, env)
    assert done.returncode == 1, done.stdout[-3000:] + done.stderr[-2000:]
    assert "BROKEN" in done.stdout and importer in done.stdout, done.stdout[-3000:]
    assert _run(REPO).returncode == 0  # the near miss: the package as it is


def _layers_in_architecture() -> list[str]:
    text = ARCHITECTURE.read_text(encoding="utf-8")
    block = re.search(r"<!-- layers: held equal to pyproject.toml's contract by tests/test_layers.py -->"
                      r"\n```\n(.*?)```", text, re.S)
    assert block, "docs/architecture.md has no layers block"
    return [line.strip() for line in block.group(1).splitlines() if line.strip()]


def test_docs_architecture_draws_the_contracts_layers():
    """The one picture of the architecture: docs/architecture.md's layers, top to bottom, are the contract's."""
    drawn = [" | ".join(f"judgment_exchange.{name.strip()}" for name in line.split("|"))
             for line in _layers_in_architecture()]
    assert drawn == [" | ".join(m.strip() for m in line.split("|")) for line in _contract()["contracts"][0]["layers"]]


def test_the_import_graph_has_no_cycle():
    import grimp

    graph = grimp.build_graph("judgment_exchange", include_external_packages=False, exclude_type_checking_imports=False)
    cycles = sorted({tuple(sorted((a, b))) for a in graph.modules for b in graph.find_modules_directly_imported_by(a)
                     if graph.find_shortest_chain(importer=b, imported=a)})
    assert cycles == []


def test_the_lazy_exporter_declares_each_import_where_the_contract_sees_it():
    """history/__init__.py exports its names lazily through import_module (a string no static reading follows);
    each name is also imported under TYPE_CHECKING, from the module the lazy map names, so the contract counts it."""
    source = (REPO / "tools" / "judgment_exchange" / "history" / "__init__.py").read_text(encoding="utf-8")
    tree = ast.parse(source)
    lazy = next(ast.literal_eval(node.value) for node in tree.body
                if isinstance(node, ast.Assign) and getattr(node.targets[0], "id", None) == "_FROM")
    declared = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and getattr(node.test, "id", None) == "TYPE_CHECKING":
            for item in node.body:
                for alias in item.names:
                    declared[alias.name] = "." * item.level + (item.module or "")
    assert declared == lazy
