"""Fixture replay in the gate (RFC 0019 §4): each fixture through the preparation verifier.

A reading whose digest is the fixture's preparationDigest is a replay; kind-unread and
version-unread are skips with their reason in the report; any other refusal, any finding, or a
reading with another digest refuses the entry. `EXCHANGE_VERIFIER` names another verifier that
speaks dialect §11's process contract; the built-in one is the default.
"""

from __future__ import annotations

import os
import tempfile

from .. import dialect as dialect_form
from ..refusal import Refusal, Report, Skip
from ..tree import Tree, TreeError
from . import documents as docs
from .directory import EntryCheck, FixtureCheck

SKIPPED = ("kind-unread", "version-unread")


def _fixture_files(tree: Tree, fixture: FixtureCheck) -> dict[str, bytes]:
    return {name: tree.read(f"{fixture.path}/{name}", docs.FIXTURE_DIRECTORY_BOUND) for name in fixture.files}


def _run(tree: Tree, check: EntryCheck, fixture: FixtureCheck) -> dict:
    from .. import verifier

    files = _fixture_files(tree, fixture)
    command = os.environ.get("EXCHANGE_VERIFIER", "").strip()
    if not command:
        return verifier.replay_fixture(check.document_data, files)
    with tempfile.TemporaryDirectory(prefix="exchange-replay-") as tmp:
        entry_dir = os.path.join(tmp, "entry")
        fixture_dir = os.path.join(entry_dir, "fixtures", fixture.name)
        os.makedirs(fixture_dir)
        with open(os.path.join(entry_dir, "dialect.json"), "wb") as fh:
            fh.write(check.document_data)
        for name, data in files.items():
            with open(os.path.join(fixture_dir, name), "wb") as fh:
                fh.write(data)
        return verifier.replay_with_program(command, entry_dir, fixture.name)


def _skip_reason(code: str, check: EntryCheck) -> str:
    from .. import verifier

    doc = check.document if isinstance(check.document, dict) else {}
    if code == "version-unread":
        version = doc.get("version")
        return f"version-unread: {getattr(version, 'literal', doc.get('formatVersion'))}"
    used = [k for k in dialect_form.source_kinds(doc) if isinstance(k, str)]
    unread = [k for k in used if k not in verifier.READABLE_KINDS]
    return "kind-unread: " + ", ".join(unread or used)  # another verifier may read less than ours


def replay_entry(tree: Tree, check: EntryCheck, report: Report) -> None:
    """Replay every replayable fixture of a kind-dialect entry whose form check passed."""
    if check.kind != "dialect" or not check.form_valid or check.document_data is None:
        return
    for fixture in check.fixtures:
        if not fixture.replayable:
            continue
        try:
            answer = _run(tree, check, fixture)
        except TreeError as exc:
            report.refusals.append(Refusal("file-unreadable", fixture.path, str(exc), check.id))
            continue
        _record(answer, check, fixture, report)


def _record(answer: dict, check: EntryCheck, fixture: FixtureCheck, report: Report) -> None:
    result = answer.get("result")
    if result == "reading":
        if answer.get("digest") == fixture.preparation_digest:
            report.replayed += 1
        else:
            report.refusals.append(Refusal(
                "replay-digest-mismatch", f"{fixture.path}/preparation.json",
                f"the verifier's reading has digest {answer.get('digest')}, preparationDigest is "
                f"{fixture.preparation_digest}", check.id))
    elif result == "refusal" and answer.get("refusal") in SKIPPED:
        report.skipped.append(Skip(check.id, fixture.name, _skip_reason(answer["refusal"], check)))
    elif result in ("refusal", "finding"):
        code = answer.get(result)
        report.refusals.append(Refusal(
            code if isinstance(code, str) else "replay-failed", fixture.path,
            f"the preparation verifier answered {result} {code}; a fixture must give a reading (RFC 0019 §4)",
            check.id))
    else:
        report.refusals.append(Refusal("replay-failed", fixture.path,
                                       f"the verifier could not run: {answer.get('detail', 'no report')}", check.id))
