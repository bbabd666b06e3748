"""Issue #37 item 5: jsonstrict takes its vocabulary as data, never by reading sources. The schema words are
generated from the sources at development time (tests/support/schemawords.py) into the package data
tools/judgment_exchange/schemawords.txt, held fresh here as tests/test_codes.py holds docs/codes.md; at run
time `jsonstrict.schema_words()` reads that file alone."""

from __future__ import annotations

import fnmatch
import json
import subprocess
import sys
import tomllib
from pathlib import Path

from judgment_exchange import jsonstrict

from .support import schemawords
from .support.paths import REPO


def test_the_schema_words_are_generated_from_the_sources():
    stored = schemawords.DATA.read_text(encoding="utf-8")
    assert stored == schemawords.text(), "schemawords.txt is stale: run python -m tests.support.schemawords"
    jsonstrict.schema_words.cache_clear()
    try:
        assert jsonstrict.schema_words() == schemawords.words()
    finally:
        jsonstrict.schema_words.cache_clear()


def test_near_miss_a_stale_file_is_refused(tmp_path, monkeypatch):
    """`--check` passes on the fresh text and fails on the same text with one word dropped."""
    fresh = schemawords.text()
    data = tmp_path / "schemawords.txt"
    monkeypatch.setattr(schemawords, "DATA", data)
    data.write_text(fresh, encoding="utf-8")
    assert schemawords.main(["--check"]) == 0
    data.write_text(fresh.replace("\nentryVersion\n", "\n"), encoding="utf-8")
    assert schemawords.main(["--check"]) == 1


def test_the_generator_reads_each_word_its_sources_spell(tmp_path):
    """A string constant that is a word, in a schema-spelling package's module or an area's codes table, is a
    word; one that is not a word's shape (a code, a sentence) or lies in another package is not."""
    (tmp_path / "dialect").mkdir()
    (tmp_path / "dialect" / "probe.py").write_text('A = "probeMember"\nB = "a-code"\nC = "two words"\n')
    (tmp_path / "codes").mkdir()
    (tmp_path / "codes" / "history.py").write_text('D = "$probe"\n')
    (tmp_path / "browse").mkdir()
    (tmp_path / "browse" / "page.py").write_text('E = "elsewhere"\n')
    assert schemawords.words(tmp_path) == {"probeMember", "$probe"}


def test_schema_words_reads_no_source_at_run_time():
    """In a fresh interpreter, `schema_words()` opens the data file and no module of the package, and never
    parses Python (`ast.parse` refuses if called)."""
    code = (
        "import ast, json, sys\n"
        "from judgment_exchange import jsonstrict\n"
        "opened = []\n"
        "sys.addaudithook(lambda event, args: opened.append(str(args[0])) if event == 'open' else None)\n"
        "def refuse(*args, **kwargs):\n"
        "    raise AssertionError('ast.parse at run time')\n"
        "ast.parse = refuse\n"
        "words = jsonstrict.schema_words()\n"
        "print(json.dumps({'opened': opened, 'words': sorted(words), 'ast': hasattr(jsonstrict, 'ast')}))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False, timeout=120,
                          cwd=REPO)
    assert done.returncode == 0, done.stdout + done.stderr
    found = json.loads(done.stdout)
    package = schemawords.PACKAGE.resolve()
    ours = [path for path in (Path(p).resolve() for p in found["opened"]) if path.is_relative_to(package)]
    assert ours == [schemawords.DATA.resolve()], ours
    assert not found["ast"]
    lines = schemawords.DATA.read_text(encoding="utf-8").splitlines()
    assert found["words"] == [line for line in lines if not line.startswith("#")]


def test_the_wheel_ships_the_words():
    """The file is package data (the wheel holds what pyproject.toml's package-data names)."""
    project = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))
    patterns = project["tool"]["setuptools"]["package-data"]["judgment_exchange"]
    name = schemawords.DATA.relative_to(schemawords.PACKAGE).as_posix()
    assert any(fnmatch.fnmatch(name, pattern) for pattern in patterns), patterns
