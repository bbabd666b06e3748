"""Issue #37 item 5: the checks that keep the small things so. ruff (pyflakes, pycodestyle, import order, the bugbear
set, a line length of 120) and mypy (strict for the whole package: the override list the issue began with shrank to
nothing; docs/architecture.md, "Lint and types"), both pinned in the development lock and configured in pyproject.toml,
so that a bare `ruff check` and a bare `mypy` from the repository's root run exactly what this file runs. Each check
has a near miss beside it: the same configuration refuses a planted finding, so a check that stopped checking
would fail here."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

from .support.paths import REPO

PYPROJECT = REPO / "pyproject.toml"


def _tool(name: str) -> str:
    """The installed executable beside this interpreter (as tests/trust/test_zizmor.py finds zizmor)."""
    beside = Path(sys.executable).parent / name
    found = str(beside) if beside.is_file() else shutil.which(name)
    assert found, f"{name} is not installed: it is in requirements-dev.txt (bash .ci/run installs it)"
    return found


def _run(args: list[str], cache: Path) -> subprocess.CompletedProcess[str]:
    # Caches under the test's temporary directory, never in the checkout; the command itself stays bare.
    env = {**os.environ, "RUFF_CACHE_DIR": str(cache / "ruff"), "MYPY_CACHE_DIR": str(cache / "mypy")}
    return subprocess.run(args, cwd=REPO, capture_output=True, text=True, check=False, timeout=600, env=env)


def _shown(done: subprocess.CompletedProcess[str]) -> str:
    return f"exit {done.returncode}\n{done.stdout[-6000:]}\n{done.stderr[-2000:]}"


def test_ruff_check_passes(tmp_path):
    done = _run([_tool("ruff"), "check"], tmp_path)
    assert done.returncode == 0, _shown(done)


def test_ruff_reads_the_package_the_benchmarks_and_the_tests(tmp_path):
    """A bare `ruff check` lints tools/, benchmarks/ and tests/, but not tests/cases/ (data: a case's planted .py)."""
    done = _run([_tool("ruff"), "check", "--show-files"], tmp_path)
    files = {Path(line).resolve().relative_to(REPO).as_posix() for line in done.stdout.splitlines() if line.strip()}
    assert {"tools/judgment_exchange/gate/pipeline.py", "benchmarks/run.py", "tests/test_lint.py",
            "tests/support/simulator.py"} <= files, _shown(done)
    assert not any(name.startswith("tests/cases/") for name in files), _shown(done)


def test_ruff_refuses_a_near_miss(tmp_path):
    """The project's configuration, on a planted file: an unused import, a line of 121 characters, a mutable
    default (bugbear) and imports out of order are each found."""
    probe = tmp_path / "probe.py"
    planted = "import sys\nimport os\n\n\ndef f(x=[]):\n    return x\n\n\n" + "# " + "words " * 20 + "\n"
    probe.write_text(planted, encoding="utf-8")
    done = _run([_tool("ruff"), "check", "--no-fix", "--config", str(PYPROJECT), "--output-format", "concise",
                 str(probe)], tmp_path)
    assert done.returncode == 1, _shown(done)
    for code in ("F401", "E501", "B006", "I001"):
        assert re.search(rf": {code}\b", done.stdout), (code, _shown(done))


def test_mypy_passes(tmp_path):
    done = _run([_tool("mypy")], tmp_path)
    assert done.returncode == 0, _shown(done)
    assert re.search(r"Success: no issues found in \d+ source files", done.stdout), _shown(done)


def test_mypy_refuses_a_near_miss(tmp_path):
    """A module the override list does not name is checked strictly: an unannotated function, a wrong type and a
    `# type: ignore` naming no error code are each refused under the project's configuration."""
    probe = tmp_path / "strict_probe.py"
    probe.write_text('def f(x):\n    return x\n\n\ncount: int = "one"\nother: int = "two"  # type: ignore\n',
                     encoding="utf-8")
    done = _run([_tool("mypy"), "--config-file", str(PYPROJECT), str(probe)], tmp_path)
    assert done.returncode == 1, _shown(done)
    for code in ("no-untyped-def", "assignment", "ignore-without-code"):
        assert f"[{code}]" in done.stdout, (code, _shown(done))


def _mypy_config() -> dict:
    return tomllib.loads(PYPROJECT.read_text(encoding="utf-8"))["tool"]["mypy"]


def test_the_whole_package_is_strict():
    """The override list shrank to nothing (issue #37 item 5): mypy is strict for every module, and a relaxed
    module or a disabled error code cannot come back without this test failing."""
    config = _mypy_config()
    assert config["strict"] is True
    assert config["packages"] == ["judgment_exchange"]
    assert "overrides" not in config, config.get("overrides")
    assert "disable_error_code" not in config
    assert "ignore-without-code" in config["enable_error_code"]


def test_every_ruff_per_file_ignore_says_why():
    text = PYPROJECT.read_text(encoding="utf-8")
    block = text.split("[tool.ruff.lint.per-file-ignores]", 1)[1].split("\n[", 1)[0]
    lines = block.strip().splitlines()
    for i, line in enumerate(lines):
        if line.strip() and not line.lstrip().startswith("#"):
            assert i > 0 and lines[i - 1].lstrip().startswith("#"), f"no reason comment above {line!r}"


IGNORE = re.compile(r"#\s*type:\s*ignore(\[[^\]]*\])?(.*)$")


def ignores_without_reason(source: str) -> list[int]:
    """The lines of `source` whose `# type: ignore` has no reason: no comment after it on its line, none on the line
    above."""
    lines = source.splitlines()
    found = []
    for at, line in enumerate(lines):
        match = IGNORE.search(line)
        if match is None:
            continue
        after = match.group(2).strip()
        above = lines[at - 1].strip() if at else ""
        if not after.startswith("#") and not above.startswith("#"):
            found.append(at + 1)
    return found


def test_every_type_ignore_says_why():
    package = PYPROJECT.parent / "tools" / "judgment_exchange"
    bare = [f"{path.relative_to(package)}:{line}" for path in sorted(package.rglob("*.py"))
            for line in ignores_without_reason(path.read_text(encoding="utf-8"))]
    assert bare == [], "say why beside each `# type: ignore[code]`: " + ", ".join(bare)


def test_a_type_ignore_without_a_reason_is_found():
    assert ignores_without_reason("x = f()  # type: ignore[arg-type]\n") == [1]
    assert ignores_without_reason("x = f()  # type: ignore[arg-type]  # the stub is narrower\n") == []
    assert ignores_without_reason("# the stub is narrower\nx = f()  # type: ignore[arg-type]\n") == []
