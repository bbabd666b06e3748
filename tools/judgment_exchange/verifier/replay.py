"""Fixture replay for the gate (RFC 0019 §4): a fixture through this verifier, or through another program."""

from __future__ import annotations

import json
import shlex
import subprocess
from pathlib import Path
from typing import Any

from ..codes.dialect import INPUT_MALFORMED
from .partial import Partial, check_readable
from .results import Found, Refused
from .verify import Documents, preparation_difference, report_bytes, verify

REPLAY_TIMEOUT = 300


def fixture_documents(dialect: bytes, fixture: dict[str, bytes]) -> Documents | str:
    """A fixture's verifier inputs from its files by basename (case.json, sources.json, …), or what it lacks."""
    required = ("case.json", "profiles.json", "preparation.json")
    if any(name not in fixture for name in required):
        return "the fixture lacks " + ", ".join(n for n in required if n not in fixture)
    return Documents(
        dialect=dialect,
        case=fixture["case.json"],
        acquisitions=fixture.get("sources.json"),
        profiles=fixture["profiles.json"],
        preparation=fixture["preparation.json"],
        binding=fixture.get("binding.json"),
    )


def replay_fixture(dialect: bytes, fixture: dict[str, bytes], checked: Any = None) -> dict[str, Any]:
    """The §11 report of one fixture, in-process: files by basename (case.json, sources.json, …).

    `checked`: the gate's `dialect.CheckedDialect` of these dialect bytes, if it has one (verify.py)."""
    docs = fixture_documents(dialect, fixture)
    if isinstance(docs, str):
        return {"result": "error", "detail": docs}
    answer: dict[str, Any] = json.loads(report_bytes(verify(docs, checked)))  # a report is one object (verify.report)
    return answer


def fixture_difference(dialect: bytes, fixture: dict[str, bytes], checked: Any = None) -> str | None:
    """Where a fixture's preparation.json first differs from what this verifier recomputes (a JSON
    pointer and each side's type and length, verify.difference_text); None when it finds no difference."""
    docs = fixture_documents(dialect, fixture)
    return None if isinstance(docs, str) else preparation_difference(docs, checked)


def check_skipped(dialect: bytes, fixture: dict[str, bytes], checked: Any = None) -> Refused | Found | Partial:
    """A fixture a verifier skipped, held to every check that needs no unread source's claim (partial.py)."""
    docs = fixture_documents(dialect, fixture)
    if isinstance(docs, str):
        return Refused(INPUT_MALFORMED, docs)
    return check_readable(docs, checked=checked)


def replay_with_program(command: str, entry_dir: str | Path, fixture_name: str) -> dict[str, Any]:
    """The §11 report of another verifier program: shlex-split command, `--fixture PATH` appended."""
    path = Path(entry_dir) / "fixtures" / fixture_name
    try:
        argv = shlex.split(command) + ["--fixture", str(path)]
    except ValueError as exc:
        return {"result": "error", "detail": f"EXCHANGE_VERIFIER {command!r} cannot be split into words ({exc})"}
    try:
        done = subprocess.run(argv, capture_output=True, timeout=REPLAY_TIMEOUT, check=False)
    except (OSError, subprocess.TimeoutExpired) as exc:
        return {"result": "error", "detail": f"{command!r} could not run: {exc}"}
    lines = done.stdout.splitlines()
    if done.returncode not in (0, 1, 2) or len(lines) != 1:
        detail = done.stderr.decode("utf-8", "replace").strip()[-500:]
        return {"result": "error", "detail": f"{command!r} exited {done.returncode} with no report: {detail}"}
    try:
        answer = json.loads(lines[0])
    except ValueError:
        return {"result": "error", "detail": f"{command!r} wrote a report that is not JSON"}
    expected = {0: "reading", 1: "refusal", 2: "finding"}[done.returncode]
    if not isinstance(answer, dict) or answer.get("result") != expected:
        return {"result": "error", "detail": f"{command!r} exited {done.returncode} but reported {answer!r:.200}"}
    return answer
