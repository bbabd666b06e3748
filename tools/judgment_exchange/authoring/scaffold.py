"""`exchange new`: an entry directory with every required member and the fixed assertion (RFC 0019 §3).

`scaffold` writes an example entry whose human parts and example document are placeholders
(catalog/placeholders.py), listing no fixture: a fixture comes from a recording, through
`exchange fixture add`. `scaffold_from_run` writes a whole kind-dialect input entry from one Runner
run export: dialect.json (the run's mapping), pack, dialect reference, sourceKinds and the fixture,
leaving only the human parts (title, author, README) as placeholders. docs/recording.md.
"""

from __future__ import annotations

import json
import os
import shutil
from typing import Any

from ..canon import CanonError, canon, canonical_digest, is_digest
from ..catalog import grammar
from ..catalog import placeholder_values as ph
from ..catalog.directory import entry_path
from ..catalog.entry import ASSERTION
from ..codes.authoring import RECORDING_MALFORMED
from ..jsonstrict import integer


def _dump(value: object) -> bytes:
    def default(o: object) -> object:
        raise TypeError(o)

    text = json.dumps(value, indent=2, ensure_ascii=False, default=default)
    return (text + "\n").encode("utf-8")


def _readme(entry_id: str, kind: str) -> bytes:
    text = ph.PRESET_README_TEXT if kind == "preset" else ph.README_TEXT
    return f"# {entry_id}\n\n{text} No credentials, no personal data.\n".encode("utf-8")


def _root(catalog: str, entry_id: str) -> tuple[str, str]:
    """(entries/<publisher>/<name>, its path on disk), refusing an id outside §3's grammar, an existing
    entry, and a symlink or file where a directory of the catalog belongs (ValueError)."""
    if not grammar.ENTRY_ID.fullmatch(entry_id) or not 3 <= len(entry_id) <= 128:
        raise ValueError(f"{entry_id!r} is not an entry id (<publisher>.<name>, lower-case letters, digits, - and .)")
    rel = entry_path(entry_id)
    root = os.path.join(catalog, *rel.split("/"))
    if os.path.lexists(root):
        raise ValueError(f"{rel} exists already")
    probe = catalog
    for part in rel.split("/")[:-1]:
        probe = os.path.join(probe, part)
        if os.path.islink(probe) or (os.path.lexists(probe) and not os.path.isdir(probe)):
            raise ValueError(f"{os.path.relpath(probe, catalog)} is not a directory of the catalog (a symlink or a "
                             "file); nothing written")
    return rel, root


def _write(root: str, rel: str, files: dict[str, bytes]) -> list[str]:
    os.makedirs(root)
    written = []
    for name, data in files.items():
        with open(os.path.join(root, name), "xb") as fh:
            fh.write(data)
        written.append(f"{rel}/{name}")
    return written


def _human(entry_id: str, kind: str, direction: str) -> dict[str, Any]:
    """The human parts a person writes, as placeholders the gate refuses (`placeholder-value`): the title and
    the description (optional in §3, but a catalog entry says what it is; issue #26 item 6), and later the
    author and the README."""
    return {"entryVersion": 3, "kind": kind, "id": entry_id, "title": f"{entry_id} {ph.TITLE_SUFFIX}",
            "description": ph.DESCRIPTION, "direction": direction}


def _closing(entry: dict[str, Any], kind: str, kinds: list[str]) -> None:
    entry["requires"] = {}
    entry["sourceKinds"] = kinds
    entry["licence"] = "Apache-2.0"
    entry["author"] = ph.REPLACE_ME
    entry["assertion"] = ASSERTION


def scaffold(catalog: str, entry_id: str, kind: str, direction: str) -> list[str]:
    """Write entries/<publisher>/<name>/ for a new entry; refuse an id outside §3's grammar.

    A kind-dialect input entry lists no fixture (`fixtures: []`, which the gate refuses until one is
    added: RFC 0019 §3 requires 1 to 64): a fixture is a recording, and `exchange fixture add` writes
    its directory and its item together, so no listed fixture ever lacks its directory."""
    if kind == "preset" and direction != "input":
        raise ValueError("a preset is direction input")
    rel, root = _root(catalog, entry_id)
    dialect_doc = {"version": 3, "sources": [{"name": "example", "kind": "operation", "platform": ph.EXAMPLE_PLATFORM,
                                              "operation": ph.EXAMPLE_OPERATION, "shape": "mcp",
                                              "record": "adapter-mcp", "maxAge": 300,
                                              "arguments": {"tool": ph.EXAMPLE_TOOL, "arguments": {}},
                                              "read": {"copy": {"facts": [], "evidence": []}}}]}
    entry = _human(entry_id, kind, direction)
    if kind == "dialect":
        entry["pack"] = {"id": ph.PACK_ID, "versions": ">=0.1.0"}
    files: dict[str, bytes] = {}
    if direction in ("input", "both"):
        entry["dialect"] = {"path": "dialect.json", "dialectVersion": 3, "digest": canonical_digest(dialect_doc)}
        files["dialect.json"] = _dump(dialect_doc)
    if direction in ("output", "both"):
        output_doc = {"outputVersion": "1", "platform": ph.EXAMPLE_PLATFORM, "policies": {}}
        entry["output"] = {"path": "output.json", "outputVersion": 1, "digest": canonical_digest(output_doc)}
        files["output.json"] = _dump(output_doc)
    _closing(entry, kind, ["operation"] if direction != "output" else [])
    if kind == "dialect":
        entry["fixtures"] = []
    entry["verification"] = []
    files["entry.json"] = _dump(entry)
    files["README.md"] = _readme(entry_id, kind)
    return _write(root, rel, files)


def _reference(document: dict[str, Any], digest_: str) -> tuple[dict[str, Any], dict[str, Any] | None]:
    """entry.json's dialect reference (and artifact pair) for the recorded document (RFC 0019 §3)."""
    if "formatVersion" in document:
        return ({"path": "dialect.json", "formatVersion": document["formatVersion"], "digest": digest_},
                {"id": document.get("id"), "version": document.get("version")})
    return {"path": "dialect.json", "dialectVersion": integer(document.get("version")), "digest": digest_}, None


def _source_kinds(document: dict[str, Any]) -> list[str]:
    """The kinds the document's sources use, in first-use order (catalog/directory._check_source_kinds);
    a case-only document uses none, and §3 requires 1 to 16, so it is given ["operation"] (reading O6)."""
    from .. import dialect as dialect_form

    used: list[str] = []
    for kind in dialect_form.source_kinds(document):
        if isinstance(kind, str) and kind not in used:
            used.append(kind)
    return used or ["operation"]


def scaffold_from_run(catalog: str, entry_id: str, export: str, profiles: str | None = None,
                      name: str | None = None) -> list[str]:
    """Write a whole kind-dialect input entry from one Runner run export; the fixture is replayed
    before anything is written. Raises fixture_add.Stop on a refusal, ValueError on a bad id."""
    from .. import dialect as dialect_form
    from .fixture_add import Stop, cleared_name, plan, read_inputs, refuse, update_manifest, write_fixture
    from .recording import default_name, valid_name

    if name is not None and not valid_name(name):
        raise Stop(3, "--name: a fixture name is ^[a-z0-9]+(-[a-z0-9]+)*$, at most 64 characters (RFC 0019 §3)")
    rel, root = _root(catalog, entry_id)
    if not os.path.isfile(os.path.join(catalog, "manifest.json")):
        raise Stop(3, f"{catalog}: not a catalog (no manifest.json); give --catalog")
    inputs = read_inputs(export, profiles)
    recording = inputs.recording
    try:
        data = canon(recording.mapping)
    except CanonError as exc:
        raise refuse(RECORDING_MALFORMED, f"the recording's mapping has no canonical form ({exc})") from None
    form = dialect_form.check_form(data)
    if form.refusal is not None:
        raise refuse(form.refusal, "the recording's mapping is not a dialect document the catalog admits "
                                   f"({form.refusal}); no entry written")
    document = form.document
    assert isinstance(document, dict)  # a document that passes its form check is a JSON object
    pack_id, pack_digest = recording.pack_id, recording.pack_digest
    if (not isinstance(pack_id, str) or len(pack_id) > 2048 or grammar.absolute_uri_problem(pack_id) is not None
            or not is_digest(pack_digest)):
        raise refuse(RECORDING_MALFORMED, "run.json /release/packId and /release/packDigest: an absolute URI and "
                                            "a sha256: digest are required to write the entry's pack")
    chosen = cleared_name(name if name is not None else default_name(recording))
    made = plan(data, document, recording, inputs.profiles, chosen, inputs.records)
    digest_ = canonical_digest(document)
    reference, artifact = _reference(document, digest_)
    entry = _human(entry_id, "dialect", "input")
    entry["pack"] = {"id": pack_id, "digests": [pack_digest]}
    entry["dialect"] = reference
    if artifact is not None:
        entry["artifact"] = artifact
    _closing(entry, "dialect", _source_kinds(document))
    entry["fixtures"] = [{"name": chosen, "path": f"fixtures/{chosen}", "preparationDigest": made.preparation_digest}]
    entry["verification"] = []
    files = {"dialect.json": data, "entry.json": _dump(entry), "README.md": _readme(entry_id, "dialect")}
    try:
        written = _write(root, rel, files)
        write_fixture(os.path.join(root, "fixtures"), made, False)
    except BaseException:
        shutil.rmtree(root, ignore_errors=True)
        raise
    written += [f"{rel}/fixtures/{chosen}/{n}" for n in made.files]
    review = [] if list(dialect_form.source_kinds(document)) else [
        'review: entry.json\'s sourceKinds is ["operation"]: the recorded dialect reads no source (a case-only '
        "dialect), and RFC 0019 §3 asks 1 to 16 kinds; keep it or name the kinds the pack's other dialects use "
        "(docs/recording.md)"]
    return [made.replay, f"profiles: from {inputs.profiles_from}"] + [f"wrote {w}" for w in written] + \
        [update_manifest(catalog, rel)] + made.audit + inputs.notes + review
