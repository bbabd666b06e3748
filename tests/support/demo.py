"""The demonstration catalog (docs/demo-catalog/): one entry of every kind, on real data, for a newcomer.

`python -m tests.support.demo` rewrites docs/demo-catalog/ deterministically (Ed25519 signatures are
deterministic); tests/test_demo_catalog.py holds the committed bytes to what this builds and runs the
gate on them. The demo is not this catalog's entries and is not in its manifest (as RFC 0019's
account of the scaffold kept its example entry); this catalog's manifest stays `[]` until its first entry.

Where the data comes from:

- the two Runner exports (tests/vectors/runner-exports/, verbatim): each becomes a kind-dialect entry
  the contributor's way, through `exchange new PUBLISHER.NAME --from-run RUN_EXPORT`
  (authoring/scaffold.py's `scaffold_from_run`, which replays the fixture before writing anything), then
  its human parts written here. They hold the Runner's own mapping, case, acquisitions, trusted
  profiles and recorded preparation; tests/test_demo_catalog.py holds them to the export independently
  (mappingDigest, packId and packDigest, the preparation canonicalised by the standard library). These
  fixtures are independent evidence: the gate's verifier must reproduce the Runner's preparation byte
  for byte;
- the test gateway (tests/support/examples.py): mcp, calculator, unbound http and research entries,
  receipts signed with the gateway corpus's published test key, preparations recorded by this
  package's own verifier (self-consistency, not independent evidence);
- the Runner export re-shaped (tests/support/catalog.py's helpers): a preset, an output-only entry, a
  `both` entry (the Runner's mapping and preparation beside an output document), a named-format entry
  (formatVersion 3.0.0 with its artifact pair, its preparation recorded by this package's verifier),
  and an entry with an http source, whose fixture no reader recomputes: the gate skips it by name
  (kind-unread) and holds it by its digests.

Digests and manifest rows are computed with hashlib and the standard library's json module, except
the recorded preparations noted above and the two `--from-run` entries' files, which the command wrote.
"""

from __future__ import annotations

import json
import shutil
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from .catalog import ASSERTION, EXPORTS, named, pretty, runner_export, sha, stdlib_canon, unbound_v3
from .examples import calculator_v2, http_unbound_v3, mcp_v2, research_v3
from .gateway import Gateway
from .recorder import record, write_fixture

ROOT = Path(__file__).resolve().parents[2] / "docs" / "demo-catalog"
AUTHOR = "judgment-pack-demo"
LICENCE = "Apache-2.0"
DEMO_PACK = {"id": "https://example.invalid/judgment-packs/exchange-demo", "versions": "0.1.0"}
OUTPUT_DOCUMENT = {"outputVersion": "1", "platform": "azure-devops", "policies": {"wit_work_item_write": {
    "outcomes": ["approve"], "bind": [], "fix": [], "closed": True}}}
FOOTER = ("This entry belongs to the demonstration catalog in `docs/demo-catalog/` of the Judgment Exchange "
          "repository. It is not an entry of the Exchange, it is not in the Exchange's manifest, and it is "
          "rebuilt by `python -m tests.support.demo`. All of its data is synthetic; the keys that signed its "
          "receipts sign nothing real.")


@dataclass
class Entry:
    """One demonstration entry: its id, entry.json's human parts and the files it holds."""

    id: str
    title: str
    description: str
    shows: str
    source: str
    kind: str = "dialect"
    direction: str = "input"
    files: dict[str, bytes] = field(default_factory=dict)
    entry: dict[str, Any] = field(default_factory=dict)
    fixture_files: dict[str, dict[str, bytes]] = field(default_factory=dict)


def _pack(export_name: str) -> dict:
    release = json.loads((EXPORTS / export_name / "run.json").read_text(encoding="utf-8"))["release"]
    return {"id": release["packId"], "digests": [release["packDigest"]]}


def _runner_fixture(export: dict) -> dict[str, bytes]:
    """The Runner's recording in the stored forms of RFC 0019 §3; content unchanged, serialisation only."""
    return {"case.json": pretty(export["case"]), "sources.json": pretty(export["sources"]),
            "profiles.json": export["profiles"], "preparation.json": stdlib_canon(export["preparation"])}


def _recorded(document: dict, export: dict, binding: Any = None) -> dict[str, bytes]:
    """The Runner's inputs recorded under another document by this package's verifier (self-consistency)."""
    return record(document, export["case"], export["sources"], json.loads(export["profiles"]),
                  export["preparation"]["verifiedAt"], binding)


def _entry_json(e: Entry, *, pack: dict | None, dialect: dict | None, output: dict | None, kinds: list[str],
                artifact: dict | None = None) -> None:
    entry: dict[str, Any] = {"entryVersion": 3, "kind": e.kind, "id": e.id, "title": e.title,
                             "description": e.description, "direction": e.direction}
    if pack is not None:
        entry["pack"] = pack
    if dialect is not None:
        entry["dialect"] = dialect
    if artifact is not None:
        entry["artifact"] = artifact
    if output is not None:
        entry["output"] = output
    entry.update({"requires": {}, "sourceKinds": kinds, "licence": LICENCE, "author": AUTHOR,
                  "assertion": ASSERTION})
    if e.kind == "dialect":
        entry["fixtures"] = [{"name": name, "path": f"fixtures/{name}",
                              "preparationDigest": sha(files["preparation.json"])}
                             for name, files in e.fixture_files.items()]
    entry["verification"] = []
    e.entry = entry


def _kinds(document: dict) -> list[str]:
    return sorted({s["kind"] for s in document.get("sources", [])})


def runner_entry(entry_id: str, export_name: str, fixture: str, title: str, description: str, shows: str) -> Entry:
    """A kind-dialect entry made the contributor's way: `exchange new --from-run` (authoring/scaffold.py's
    `scaffold_from_run`, which replays the fixture before writing), then the human parts written."""
    from judgment_exchange.authoring.scaffold import scaffold_from_run

    e = Entry(entry_id, title, description, shows, f"the Runner export `{export_name}` "
              f"(tests/vectors/runner-exports/), made into this entry by `exchange new {entry_id} --from-run`")
    with tempfile.TemporaryDirectory(prefix="demo-catalog-") as tmp:
        (Path(tmp) / "manifest.json").write_bytes(b"[]\n")
        scaffold_from_run(tmp, entry_id, str(EXPORTS / export_name / "run.json"), name=fixture)
        path = Path(tmp) / "entries" / entry_id.replace(".", "/", 1)
        scaffolded = json.loads((path / "entry.json").read_bytes())
        e.files["dialect.json"] = (path / "dialect.json").read_bytes()
        e.fixture_files[fixture] = {f.name: f.read_bytes() for f in sorted((path / "fixtures" / fixture).iterdir())}
    entry: dict[str, Any] = {}
    for key, value in scaffolded.items():  # the scaffold's placeholders (title, description, author) written
        entry[key] = {"title": title, "description": description, "author": AUTHOR}.get(key, value)
    e.entry = entry
    return e


def gateway_entry(entry_id: str, make: Callable, title: str, description: str, shows: str) -> Entry:
    """A kind-dialect entry from the test gateway's examples, its preparations recorded by this package."""
    dialect, fixtures = make(Gateway())
    e = Entry(entry_id, title, description, shows, "the test gateway (tests/support/gateway.py and "
              f"tests/support/examples.py, `{make.__name__}`): receipts signed with the published test key")
    e.files["dialect.json"] = pretty(dialect)
    for name, inputs in fixtures:
        e.fixture_files[name] = inputs.record(dialect)
    _entry_json(e, pack=DEMO_PACK, kinds=_kinds(dialect), output=None,
                dialect={"path": "dialect.json", "dialectVersion": dialect["version"],
                         "digest": sha(stdlib_canon(dialect))})
    return e


def preset_entry() -> Entry:
    doc = unbound_v3(runner_export()["mapping"])
    e = Entry("kinds.intake-preset", "Intake triage reads as a preset, every operation unbound",
              "The Runner's intake-triage mapping re-authored as dialect version 3 with every operation unbound "
              "(platform, operation, shape and record instead of a profile), published as a preset: a starting "
              "point an installation binds to its own profiles.",
              "a preset: exactly entry.json, dialect.json and README.md; no pack, no fixtures, never replayed; "
              "the gate checks its form and that no source is bound",
              "the Runner export `mapping-v2-unsigned-parameters`, re-authored (tests/support/catalog.py, "
              "`unbound_v3`)", kind="preset")
    e.files["dialect.json"] = pretty(doc)
    _entry_json(e, pack=None, kinds=_kinds(doc), output=None,
                dialect={"path": "dialect.json", "dialectVersion": 3, "digest": sha(stdlib_canon(doc))})
    return e


def output_entry() -> Entry:
    e = Entry("kinds.work-item-writeback", "Work item write-back policy, output only",
              "An output document for an Azure DevOps work-item write: which outcomes may be written and that "
              "the policy is closed. It is pinned by its digests; there is nothing to replay.",
              "direction output: output.json pinned by its digest, `fixtures: []` and `sourceKinds: []`",
              "written for this demonstration (tests/support/catalog.py's output document)", direction="output")
    e.files["output.json"] = pretty(OUTPUT_DOCUMENT)
    _entry_json(e, pack=DEMO_PACK, kinds=[], dialect=None,
                output={"path": "output.json", "outputVersion": 1, "digest": sha(stdlib_canon(OUTPUT_DOCUMENT))})
    return e


def both_entry() -> Entry:
    export = runner_export("mapping-v2-before-calculators")
    e = Entry("kinds.intake-both-directions", "Intake triage read and write-back in one entry",
              "The Runner's intake-triage vendor read (the export recorded before calculators) beside the "
              "work-item write-back policy: an entry with direction both holds an input and an output document.",
              "direction both: dialect.json and output.json, each pinned; the Runner's own recording replays "
              "against the input document",
              "the Runner export `mapping-v2-before-calculators` and the output document of "
              "kinds.work-item-writeback", direction="both")
    e.files["dialect.json"] = pretty(export["mapping"])
    e.files["output.json"] = pretty(OUTPUT_DOCUMENT)
    e.fixture_files["vendor-7"] = _runner_fixture(export)
    _entry_json(e, pack=_pack("mapping-v2-before-calculators"), kinds=_kinds(export["mapping"]),
                dialect={"path": "dialect.json", "dialectVersion": 2, "digest": export["mappingDigest"]},
                output={"path": "output.json", "outputVersion": 1, "digest": sha(stdlib_canon(OUTPUT_DOCUMENT))})
    return e


def named_entry() -> Entry:
    export = runner_export()
    doc = named(export["mapping"], "3.0.0", artifact_id="urn:judgmentpack:dialect:intake-triage-demo")
    e = Entry("kinds.intake-named-format", "Intake triage reads in the named format 3.0.0",
              "The Runner's intake-triage mapping in a named artifact format (formatVersion 3.0.0) with its own "
              "identity: an artifact id and version the catalog holds immutable across releases.",
              "a named-format document: `dialect.formatVersion` and the `artifact` pair equal to the document's "
              "`id` and `version`; the fixture replays",
              "the Runner export `mapping-v2-unsigned-parameters` in a named format (tests/support/catalog.py, "
              "`named`); its preparation was recorded by this repository's verifier from the Runner's inputs")
    e.files["dialect.json"] = pretty(doc)
    e.fixture_files["vendor-7"] = _recorded(doc, export)
    _entry_json(e, pack=_pack("mapping-v2-unsigned-parameters"), kinds=_kinds(doc), output=None,
                dialect={"path": "dialect.json", "formatVersion": "3.0.0", "digest": sha(stdlib_canon(doc))},
                artifact={"id": doc["id"], "version": doc["version"]})
    return e


def http_entry() -> Entry:
    export = runner_export()
    mapping = export["mapping"]
    doc = {"version": 3, "case": mapping["case"], "sources": [{
        "name": "vendor", "kind": "http", "profile": "vendors", "profileDigest": mapping["sources"][0]["profileDigest"],
        "maxAge": 300, "method": "GET", "path": {"$text": "/vendors/{{vendorId}}"},
        "read": mapping["sources"][0]["read"]}]}
    e = Entry("kinds.intake-http-source", "Intake triage vendor read over an http source",
              "The intake-triage vendor read written as an http source (dialect version 3). No preparation "
              "reader recomputes http sources yet, so its fixture is held by its digests and file set only.",
              "a skip by name: the gate reports the fixture as `kind-unread: http`, never as a replay; its "
              "preparation.json must still be canonical and match its digest",
              "the Runner export `mapping-v2-unsigned-parameters`: its case, profiles and preparation, and its "
              "vendor acquisition (the one source this document names), reused as the fixture's files")
    e.files["dialect.json"] = pretty(doc)
    vendor_only = {**export, "sources": {"vendor": export["sources"]["vendor"]}}
    e.fixture_files["vendor-7"] = _runner_fixture(vendor_only)
    _entry_json(e, pack=_pack("mapping-v2-unsigned-parameters"), kinds=_kinds(doc), output=None,
                dialect={"path": "dialect.json", "dialectVersion": 3, "digest": sha(stdlib_canon(doc))})
    return e


def entries() -> list[Entry]:
    """Every demonstration entry, in id byte order."""
    out = [
        runner_entry("runner.intake-vendor-copy", "mapping-v2-before-calculators", "vendor-7",
                     "Intake triage: vendor record copied (Runner export)",
                     "The Runner's recorded intake-triage mapping before calculators: one SQL read of the vendor "
                     "record over an mcp profile, its request fact and two evidence requirements copied.",
                     "a real Runner recording replayed: the gate's verifier reproduces the Runner's preparation "
                     "byte for byte"),
        runner_entry("runner.intake-vendor-registry", "mapping-v2-unsigned-parameters", "vendor-7",
                     "Intake triage: vendor and registry reads (Runner export)",
                     "The Runner's recorded intake-triage mapping: a vendor read whose rule checks identity and "
                     "freshness, and a registry lookup, with unsigned case parameters.",
                     "a real Runner recording with two acquisitions replayed byte for byte"),
        gateway_entry("gateway.vendor-approvals", mcp_v2, "Vendor approver and approval decision over mcp",
                      "Two mcp operations: a rule reads the vendor's approver, and a second call, whose parameter "
                      "comes from the first read, copies the approval decision.",
                      "two fixtures replayed, one matched and one unmatched (the rule's fallback clause)"),
        gateway_entry("gateway.fx-exposure", calculator_v2, "Currency exposure from a calculator",
                      "A calculator operation converts an amount to euros; the read claims the exposure when the "
                      "calculator computed it and reports unknown when it could not.",
                      "a calculator's operation: inputs echoed and tables reported, computed and cannot-compute "
                      "fixtures"),
        gateway_entry("gateway.ticket-status", http_unbound_v3, "Ticket status over an unbound http operation",
                      "An unbound operation (dialect version 3) reads a ticket's status through an http adapter; "
                      "each fixture carries the binding document it was recorded under.",
                      "an unbound operation: the fixture holds binding.json, which the gate checks and replays "
                      "with"),
        gateway_entry("gateway.company-research", research_v3, "Company headcount from a research source",
                      "A research source asks for answer, search and page capabilities and claims the headcount "
                      "when the field is found and the company is active.",
                      "a research source: retained responses each held by their own receipt, bound by "
                      "binding.json"),
        preset_entry(), output_entry(), both_entry(), named_entry(), http_entry(),
    ]
    return sorted(out, key=lambda e: e.id.encode("utf-8"))


def _readme(e: Entry) -> bytes:
    lines = [f"# {e.title}", "", e.description, "", f"What it shows in the gate: {e.shows}.", "",
             f"Where its data comes from: {e.source}.", "", FOOTER, ""]
    return "\n".join(lines).encode("utf-8")


def _row(e: Entry) -> dict:
    """The manifest row, computed from the bytes with hashlib (RFC 0019 §3)."""
    row: dict[str, Any] = {"id": e.id, "kind": e.kind, "path": "entries/" + e.id.replace(".", "/", 1),
                           "entryDigest": sha(pretty(e.entry))}
    if "dialect.json" in e.files:
        row["dialectDigest"] = sha(e.files["dialect.json"])
    if "output.json" in e.files:
        row["outputDigest"] = sha(e.files["output.json"])
    row["fixtures"] = [{"name": name, "files": sorted(files)} for name, files in e.fixture_files.items()]
    return row


# Digests pin stored bytes: a checkout must not convert line endings (core.autocrlf), as a GitTree never does.
GITATTRIBUTES = b"* -text\n"
# The reviewed acknowledgement of the demo's one skip (docs/skips.md): this catalog follows the same rule.
SKIPS = [{"entry": "kinds.intake-http-source", "fixture": "vendor-7",
          "why": "No preparation reader recomputes http sources yet (dialect §4.3); reviewed for the demonstration."}]

CATALOG_README = """# A demonstration catalog

This directory is a small catalog in the Judgment Exchange's entry format (RFC 0019 §3), kept so a
newcomer can watch the gate at work on real data:

    exchange check --catalog docs/demo-catalog

It is **not** this repository's catalog: none of these entries is an Exchange entry, none is in the
repository's `manifest.json` (which stays `[]` until its first entry is admitted), and `exchange check`
at the repository root never reads this directory. It is generated: `python -m tests.support.demo`
rewrites it byte for byte, and `tests/test_demo_catalog.py` fails when the committed files differ from
what the generator builds or when the gate stops passing on them.

What to expect from the gate: {replayed} fixtures replayed (each reading's digest equal to its
`preparationDigest`), one fixture skipped by name (`kinds.intake-http-source`, `kind-unread: http`),
every file scanned, and `history: skipped` with a note: the demo is a directory inside this repository,
not a repository's root, so it has no releases of its own to hold its entries to.

All data is synthetic. The Runner exports are verbatim copies (tests/vectors/runner-exports/, with
provenance in its README); the test gateway signs with the gateway corpus's published test key, which
signs nothing real. Fixtures recorded by this repository's own verifier (the test-gateway entries and
the named-format entry) show self-consistency only; the Runner's fixtures are independent evidence.

| entry | kind, direction | what it shows | data |
|---|---|---|---|
{rows}

To see a refusal, change one byte of a copy and run the gate on it (outside a git repository, so
`--no-history`): the preset's document no longer matches the digest its entry and the manifest pin.

    cp -r docs/demo-catalog /tmp/demo
    sed -i 's/"maxAge": 300/"maxAge": 301/' /tmp/demo/entries/kinds/intake-preset/dialect.json
    exchange check --catalog /tmp/demo --no-history    # dialect-digest-mismatch, manifest-digest-mismatch
"""


def readme(items: list[Entry]) -> bytes:
    rows = "\n".join(f"| `{e.id}` | {e.kind}, {e.direction} | {e.shows} | {e.source} |" for e in items)
    replayed = sum(len(e.fixture_files) for e in items if e.id != "kinds.intake-http-source")
    return CATALOG_README.replace("{replayed}", str(replayed)).replace("{rows}", rows).encode("utf-8")


def build(root: Path = ROOT) -> list[Path]:
    """Rewrite the demonstration catalog under root; the entry directories written."""
    items = entries()
    if (root / "entries").exists():
        shutil.rmtree(root / "entries")
    root.mkdir(parents=True, exist_ok=True)
    written = []
    for e in items:
        path = root / "entries" / e.id.replace(".", "/", 1)
        path.mkdir(parents=True)
        (path / "entry.json").write_bytes(pretty(e.entry))
        (path / "README.md").write_bytes(_readme(e))
        for name, data in e.files.items():
            (path / name).write_bytes(data)
        for name, files in e.fixture_files.items():
            write_fixture(path / "fixtures" / name, files)
        written.append(path)
    (root / "manifest.json").write_bytes(pretty([_row(e) for e in items]))
    (root / "README.md").write_bytes(readme(items))
    (root / ".gitattributes").write_bytes(GITATTRIBUTES)
    (root / "skips.json").write_bytes(pretty(SKIPS))
    return written


if __name__ == "__main__":
    for built in build():
        print(built)
