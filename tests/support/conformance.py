"""The consumer conformance kit's generator (issues #19, #28; docs/conformance.md): writes the kit into the
package, tools/judgment_exchange/conformance/kit/, where `exchange conformance run` finds it after any install.

`python -m tests.support.conformance` rewrites the kit; `--check` exits 1 when the committed kit differs
from a fresh build (tests/conformance/test_kit.py holds the same). Every case is built here from the
project's test data: the real Runner export (catalog.py), the test gateway's signed receipts and the
recorder (examples.py, recorder.py), and the catalog-case mutations (cases.py). Each case's stream is
written by this module (never by `git fast-export`), so its bytes follow from the case alone; git imports
it once here to pin the ids the runner re-verifies.

Every expected verdict below is stated by hand from RFC 0019's text (the section and words each case
names), at each reader tier: `specification` (the specification's reader) and `none` (no preparation reader:
every fixture skipped `version-unread`); none is produced by the consumer under test. A case states its
tier-none verdict where it differs (`none=`), and otherwise states that it is the same: only a case whose
offered entries list no fixture and whose result no replay decides may (tests/conformance/test_kit.py holds
that). `codes` lists what this project's consumer reports; cases.json's `codes` keeps only the codes the case
compares (conformance/codes.py), and `projectCodes` all of them.
"""

from __future__ import annotations

import copy
import hashlib
import json
import shutil
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from judgment_exchange.conformance.codes import RFC_NAMED, rfc_named

from .cases import apply
from .catalog import CatalogBuilder, named, pretty, sha, stdlib_canon
from .examples import http_unbound_v3, mcp_v2, research_v3
from .gateway import Gateway
from .gitrepo import GitRepo, files_of
from .paths import REPO

KIT = REPO / "tools" / "judgment_exchange" / "conformance" / "kit"
SCHEMAS = REPO / "tools" / "judgment_exchange" / "schemas"
CASES_SCHEMA = "conformance-cases.schema.json"
VERDICT_SCHEMA = "conformance-verdict.schema.json"
KIT_VERSION = 2
IDENTITY = "Conformance Kit <conformance-kit@example.invalid>"
EPOCH = 1791979200  # 2026-10-14T12:00:00Z; release i is committed EPOCH + i days
ARTIFACT = "urn:judgmentpack:dialect:vendors"
SPECIFICATION, NONE = "specification", "none"
TIERS = (SPECIFICATION, NONE)
"""The reader tiers, broadest first (docs/conformance.md, "Reader tiers")."""
TIER_READERS = {
    SPECIFICATION: "the specification's preparation reader: dialect versions 2 and 3 and the named formats 2.0.0 and "
                   "3.0.0; source kinds operation and research recomputed; http, sql, web and selected-file "
                   "reported skipped as kind-unread",
    NONE: "no preparation reader: every fixture of an offered entry is reported skipped as version-unread (the reader "
          "reads no dialect version), and every check that needs no reader is made; not a conformant consumer "
          "(§7 import replay is not held)",
}
SAME, MAY_DECLINE = "same", "not-applicable"
"""A tier's `broaderReader`: a consumer whose reader reads more than the specification's reaches the same verdict,
or may answer notApplicable."""
VERSION_UNREAD = "version-unread"
NO_VERDICT_AT = {}
"""Cases with no verdict at a tier, by name (docs/conformance.md lists them): none in kit version 2."""


# --- entries -------------------------------------------------------------------------------------------

class KitCatalog(CatalogBuilder):
    """CatalogBuilder with the test gateway's recorded entries: examples bound and unbound, and named
    documents whose fixtures the recorder made for their own digest."""

    def add_example(self, make: Callable, entry_id: str) -> Path:
        """A kind-dialect entry from one of examples.py's dialects, with its first fixture recorded."""
        dialect, fixtures = make(Gateway())
        return self._recorded(entry_id, dialect, fixtures[:1],
                              {"path": "dialect.json", "dialectVersion": dialect["version"],
                               "digest": sha(stdlib_canon(dialect))})

    def add_named_recorded(self, entry_id: str, *, selector: str = "3.0.0", artifact_id: str = ARTIFACT,
                           version: str = "0.1.0", changed: bool = False) -> Path:
        """examples.mcp_v2 in a named format (RFC 0021 §2.1) with its artifact pair; `changed` alters the
        document (a source's maxAge) under the same pair, so its canonical digest differs."""
        dialect, fixtures = mcp_v2(Gateway())
        doc = named(dialect, selector, artifact_id, version)
        if changed:
            doc["sources"][0]["maxAge"] = 600
        path = self._recorded(entry_id, doc, fixtures[:1],
                              {"path": "dialect.json", "formatVersion": selector, "digest": sha(stdlib_canon(doc))})
        entry = json.loads((path / "entry.json").read_bytes())
        entry["artifact"] = {"id": artifact_id, "version": version}
        (path / "entry.json").write_bytes(pretty(entry))
        return path

    def _recorded(self, entry_id: str, doc: dict, fixtures: list, reference: dict) -> Path:
        path = self._dir(entry_id)
        (path / "dialect.json").write_bytes(pretty(doc))
        rows = []
        for name, inputs in fixtures:
            files = inputs.record(doc)
            directory = path / "fixtures" / name
            directory.mkdir(parents=True)
            for file, data in files.items():
                (directory / file).write_bytes(data)
            rows.append({"name": name, "path": f"fixtures/{name}", "preparationDigest": sha(files["preparation.json"])})
        kinds = sorted({s["kind"] for s in doc["sources"]})
        entry = self._base(entry_id, "dialect", "input", kinds)
        entry["dialect"] = reference
        self._finish(path, entry, kinds, rows)
        return path


BASES: dict[str, Callable[[KitCatalog], Any]] = {
    "runner": lambda b: b.add_runner_entry("acme.vendors"),
    "http": lambda b: b.add_http_entry("acme.vendors-http"),
    "preset": lambda b: b.add_preset("acme.vendors-preset"),
    "output": lambda b: b.add_output_entry("acme.writeback"),
    "output-b": lambda b: b.add_output_entry("acme.writeback-b"),
    "unbound": lambda b: b.add_example(http_unbound_v3, "acme.tickets"),
    "research": lambda b: b.add_example(research_v3, "acme.companies"),
    "named": lambda b: b.add_named_recorded("acme.vendors-named"),
    "named-copy": lambda b: b.add_named_recorded("acme.vendors-named-copy"),
    "named-changed-copy": lambda b: b.add_named_recorded("acme.vendors-named-copy", changed=True),
    "named-changed": lambda b: b.add_named_recorded("acme.vendors-named", changed=True),
    "named-2": lambda b: b.add_named_recorded("acme.vendors-family-2", selector="2.0.0",
                                              artifact_id="urn:judgmentpack:dialect:vendors-family-2"),
}
"""Each entry a case may hold, by short name; the id it gets is fixed here."""

PATHS = {"runner": "entries/acme/vendors", "http": "entries/acme/vendors-http",
         "preset": "entries/acme/vendors-preset", "output": "entries/acme/writeback",
         "output-b": "entries/acme/writeback-b", "named": "entries/acme/vendors-named",
         "named-copy": "entries/acme/vendors-named-copy"}


def tree(*bases: str, mutations: list[dict] = (), after: list[dict] = (), keep: bool = False,
         files: dict[str, bytes] | None = None, drop: tuple[str, ...] = ()) -> dict[str, bytes]:
    """One release's whole tree: the entries named, each mutation (cases.py's ops), then the manifest
    computed from the bytes (`keep`: computed before the mutations), then the `after` mutations."""
    with tempfile.TemporaryDirectory(prefix="kit-tree-") as tmp:
        root = Path(tmp) / "catalog"
        builder = KitCatalog(root)
        for base in bases:
            BASES[base](builder)
        if keep:
            builder.write_manifest()
        for mutation in mutations:
            apply(root, mutation)
        if not keep:
            builder.write_manifest()
        for mutation in after:
            apply(root, mutation)
        out = files_of(root)
    out.update(files or {})
    for path in drop:
        out.pop(path)
    return dict(sorted(out.items()))


def entry_digest(files: dict[str, bytes], base: str) -> str:
    """The entryDigest of an entry in a built tree (hashlib over the stored bytes)."""
    return sha(files[f"{PATHS[base]}/entry.json"])


def set_member(base: str, pointer: str, value: Any, file: str = "entry.json") -> dict:
    return {"op": "set", "file": f"{PATHS[base]}/{file}", "pointer": pointer, "value": value}


def canonical_write(path: str, change: Callable[[Any], Any], files: dict[str, bytes]) -> dict:
    """A mutation writing `path` as canonical JSON after `change` (the file is read from `files`)."""
    value = change(json.loads(files[path]))
    return {"op": "write", "file": path, "text": stdlib_canon(value).decode("utf-8")}


# --- the verdicts stated by hand -----------------------------------------------------------------------

def offered(entry_id: str, *fixtures: tuple[str, str] | str, kind: str = "dialect") -> dict:
    """An entry the consumer offers for import; each fixture "name" (replayed) or (name, skip reason)."""
    items = []
    for fixture in fixtures:
        if isinstance(fixture, str):
            items.append({"name": fixture, "replay": "replayed"})
        else:
            items.append({"name": fixture[0], "replay": "skipped", "reason": fixture[1]})
    return {"id": entry_id, "kind": kind, "offered": True, "fixtures": items}


def not_offered(entry_id: str, kind: str = "dialect") -> dict:
    """An entry listed but never offered for import: refused, or a preset (which needs a pack first)."""
    return {"id": entry_id, "kind": kind, "offered": False, "fixtures": []}


RUNNER = offered("acme.vendors", "vendor-7")
HTTP_SKIPPED = offered("acme.vendors-http", ("vendor-7", "kind-unread"))
PRESET = not_offered("acme.vendors-preset", "preset")
OUTPUT = offered("acme.writeback")
NAMED = offered("acme.vendors-named", "approved")
NAMED_COPY = offered("acme.vendors-named-copy", "approved")
# the same entries at tier none: offered, each fixture skipped version-unread
RUNNER_NONE = offered("acme.vendors", ("vendor-7", VERSION_UNREAD))
HTTP_NONE = offered("acme.vendors-http", ("vendor-7", VERSION_UNREAD))
NAMED_NONE = offered("acme.vendors-named", ("approved", VERSION_UNREAD))
NAMED_COPY_NONE = offered("acme.vendors-named-copy", ("approved", VERSION_UNREAD))


# --- cases ---------------------------------------------------------------------------------------------

@dataclass
class Release:
    """One commit on main: its whole tree, and the tag made on it (None: untagged)."""

    files: dict[str, bytes]
    tag: str | None = None
    annotated: bool = False
    to_tree: bool = False
    """The tag names the commit's tree, not the commit (lightweight: an update-ref step; annotated: imported)."""
    absent: tuple[str, ...] = ()
    """Files whose blobs the stream leaves out: their directory's tree is made by a mktree-missing step."""
    generated: tuple[str, ...] = ()
    """Files the stream does not store: each is its text followed by spaces, made by a blob-generated step before the
    import (its size and pattern) and named in the stream by its blob id (issue #35 item 3)."""
    root: bool = False
    """The commit starts a history of its own (no parent; main is reset to it): a fork published by whoever
    can push refs to a mirror, the releases before it left reachable by their tags only."""


@dataclass
class Case:
    """One case: its repository (releases), the consumer's state, and its verdict at each tier stated by hand.
    `result`, `codes`, `entries`, `history`, `withdrawn` and `changed` are the specification tier's verdict;
    `none` gives the tier-none verdict's members that differ from it (empty: the same verdict, stated so)."""

    name: str
    title: str
    rfc: tuple[str, str]
    """(section, a few words of the sentence the case holds)."""
    coverage: tuple[str, ...]
    releases: list[Release]
    tag: str
    result: str
    codes: tuple[str, ...] = ()
    """Every code this project's consumer reports, stated by hand (docs/codes.md)."""
    entries: list[dict] = field(default_factory=list)
    history: str | None = None
    retained: int | None = None
    """The release (by index) the consumer retained: its tag, commit, manifest and every row."""
    kept_withdrawn: tuple[tuple[str, int], ...] = ()
    """Entries the consumer keeps withdrawn beside its retained release (issue #34 item 4): (id, the release, by
    index, it was imported at); the retained state then gives them as `withdrawn`."""
    withdrawn: list[str] | None = None
    changed: list[str] | None = None
    history_limit: int = 128
    held: tuple[str, ...] = ()
    broader: str = SAME
    """At tier specification: whether a consumer whose reader reads more may answer notApplicable."""
    strictness: str = "rfc"
    stream: str | None = None
    """Another case whose stream this case shares (the same repository)."""
    description: str = ""
    """What the case holds, how its repository plants the one defect, and what each tier expects."""
    none: dict = field(default_factory=dict)
    """The tier-none verdict's members that differ from the specification tier's (result, codes, entries)."""
    retained_digest: str | None = None
    """A retained manifestDigest other than the retained manifest's own (issue #35: a wrong one planted)."""

    def verdict(self, tier: str) -> dict:
        """The verdict stated for `tier`: result, codes (every code this project's consumer reports), entries,
        and history, withdrawn and changed where stated."""
        out = {"result": self.result, "codes": self.codes, "entries": self.entries, "history": self.history,
               "withdrawn": self.withdrawn, "changed": self.changed}
        if tier == NONE:
            unknown = set(self.none) - {"result", "codes", "entries"}
            assert not unknown, (self.name, unknown)
            out |= self.none
        return out


NO_RELEASES, CHECKED, UNCHECKED = "no-releases", "checked", "artifact-history-unchecked"


def cases() -> list[Case]:
    """Every case of the kit, in the order cases.json lists them."""
    out: list[Case] = []
    add = out.append
    v1 = "v0.1.0"

    # -- the release and its tag (§7) --
    real = tree("runner")
    add(Case("release-real-export", "the Runner's own export as an entry: every check passes and its fixture replays",
             ("§7 Before import", "each recomputable fixture by replay with the consumer's own preparation reader"),
             ("replay-agreement", "digests", "fixture-file-sets", "bounds", "manifest-form", "scans"),
             [Release(real, v1)], v1, "pass", entries=[RUNNER], history=NO_RELEASES,
             description="One entry made from a real Runner run export (mapping v2, an mcp operation, two signed "
                         "receipts): every pin, bound, file set and scan holds, and the specification's reader "
                         "recomputes its one fixture to its preparationDigest, so the entry is offered with the "
                         "fixture replayed. At tier none the same entry is offered with the fixture skipped "
                         "(version-unread): nothing else depends on a reader.",
             none={"entries": [RUNNER_NONE]}))
    every = tree("runner", "http", "preset", "output", "unbound", "research", "named")
    add(Case("release-every-kind", "an integer v2, an unbound v3, a research v3, an http, a named 3.0.0, a preset "
             "and an output entry in one release",
             ("§7 Before import", "one row per entry directory in the commit's tree and one entry per row"),
             ("kinds", "reference-forms", "row-entry-correspondence", "id-order", "kind-unread-skipped",
              "preset-not-runnable"),
             [Release(every, v1)], v1, "pass", history=NO_RELEASES, broader=MAY_DECLINE,
             entries=[offered("acme.companies", "found"), offered("acme.tickets", "open"), RUNNER, HTTP_SKIPPED,
                      NAMED, PRESET, OUTPUT],
             description="Seven entries of every form in one release, each valid: every dialect entry is offered, "
                         "the http fixture skipped as kind-unread by the specification's reader and every other "
                         "fixture replayed; the preset is listed, not offered; the output entry is offered with no "
                         "fixture. A reader that also reads http may answer notApplicable. At tier none every "
                         "fixture is skipped as version-unread.",
             none={"entries": [offered("acme.companies", ("found", VERSION_UNREAD)),
                               offered("acme.tickets", ("open", VERSION_UNREAD)), RUNNER_NONE, HTTP_NONE, NAMED_NONE,
                               PRESET, OUTPUT]}))
    add(Case("release-empty-manifest", "a release of the empty manifest",
             ("§7", "A catalog with no entries may release the empty manifest, []"), ("manifest-form",),
             [Release({"manifest.json": b"[]\n"}, v1)], v1, "pass", history=NO_RELEASES,
             description="A release whose whole tree is manifest.json holding []: it passes with no entry and no "
                         "earlier release, at every tier."))
    add(Case("tag-annotated", "an annotated release tag is peeled to its commit",
             ("§7", "with an annotated tag peeled to its commit"), ("annotated-tag",),
             [Release(real, v1, annotated=True)], v1, "pass", entries=[RUNNER], history=NO_RELEASES,
             description="release-real-export's tree under an annotated tag: the consumer peels the tag object to "
                         "its commit and checks that commit's tree, so the verdict is release-real-export's at "
                         "each tier.",
             none={"entries": [RUNNER_NONE]}))
    add(Case("tag-to-tree", "a lightweight release tag naming a tree",
             ("§7", "a tag that does not resolve to a commit is refused"), ("tag-to-tree",),
             [Release(real, v1, to_tree=True)], v1, "refuse", codes=("release-tag-invalid",),
             description="The tag v0.1.0 is a lightweight reference to the release's tree, not to a commit (an "
                         "update-ref step makes it): the import is refused before any file is read, so entries is "
                         "[] and history is not stated."))
    add(Case("tag-annotated-to-tree", "an annotated release tag whose object is a tree",
             ("§7", "a tag that does not resolve to a commit is refused"), ("tag-to-tree", "annotated-tag"),
             [Release(real, v1, annotated=True, to_tree=True)], v1, "refuse", codes=("release-tag-invalid",),
             description="An annotated tag whose object is the release's tree: peeled, it resolves to no commit, so "
                         "the import is refused before any file is read."))
    add(Case("tag-outside-grammar", "a tag outside §3's release-tag grammar",
             ("§7", "Its tag has §3's release-tag grammar, vMAJOR.MINOR.PATCH"), ("tags",),
             [Release(real, "v0.1.0-rc.1")], "v0.1.0-rc.1", "refuse", codes=("release-tag-invalid",),
             description="release-real-export's tree tagged v0.1.0-rc.1: the tag is outside vMAJOR.MINOR.PATCH, so "
                         "the import is refused before the tag is resolved."))

    # -- the consumer's retained state (§7) --
    retitled = tree("runner", mutations=[set_member("runner", "/title", "Vendors, retitled")])
    add(Case("retained-same-release", "the retained tag at the retained commit",
             ("§7", "The consumer retains the catalog location, tag, resolved commit and manifest for the import"),
             ("moved-tag",), [Release(real, v1)], v1, "pass", entries=[RUNNER], history=NO_RELEASES, retained=0,
             withdrawn=[], changed=[],
             description="The consumer retained v0.1.0 at its commit and checks v0.1.0 again: the tag still "
                         "resolves to the retained commit, so nothing is refused, withdrawn or changed.",
             none={"entries": [RUNNER_NONE]}))
    add(Case("retained-tag-moved", "the retained tag now names another commit",
             ("§7", "A tag that now resolves to a commit different from the one retained for that tag is refused"),
             ("moved-tag",), [Release(real, v1), Release(retitled, v1)], v1, "refuse", codes=("release-tag-moved",),
             retained=0,
             description="v0.1.0 was retained at its first commit and has since been moved to a second commit (the "
                         "entry retitled): the import is refused before any file is read, whatever the new commit "
                         "holds."))
    note = {"op": "set", "file": f"{PATHS['runner']}/entry.json", "pointer": "/upgrade",
            "value": {entry_digest(real, "runner"): "Title only; the dialect is unchanged."}}
    noted = tree("runner", mutations=[set_member("runner", "/title", "Vendors, retitled"), note])
    add(Case("retained-lower-tag", "a tag lower, by its integer components, than the retained one",
             ("§7", "A lower tag, ordered by its three integer components (§3), is refused"), ("lower-tag",),
             [Release(real, "v0.9.0"), Release(noted, "v0.10.0")], "v0.9.0", "refuse", codes=("release-tag-lower",),
             retained=1,
             description="The consumer retained v0.10.0 and is asked for v0.9.0, lower by the integer components "
                         "(0.9.0 < 0.10.0, though \"v0.9.0\" sorts after \"v0.10.0\" as text): refused before any file "
                         "is read."))
    add(Case("upgrade-higher-tag", "an upgrade to v0.10.0 from a retained v0.9.0, with its upgrade note",
             ("§7", "An update is an explicit, reviewed upgrade from one release to another"),
             ("lower-tag", "entry-changed-shown", "upgrade-keys"),
             [Release(real, "v0.9.0"), Release(noted, "v0.10.0")], "v0.10.0", "pass", entries=[RUNNER],
             history=CHECKED, retained=0, held=("v0.9.0",), withdrawn=[], changed=["acme.vendors"],
             stream="retained-lower-tag",
             description="The same repository, from the retained v0.9.0 up to v0.10.0, whose entry is retitled and "
                         "carries an upgrade note keyed by the retained entryDigest: it passes, with the held v0.9.0 "
                         "read (history checked) and the entry shown as changed.",
             none={"entries": [RUNNER_NONE]}))
    add(Case("changed-without-upgrade-note", "a retained entry changed without a note keyed by its entryDigest",
             ("§7", "only that explicit approval replaces the imported entry"), ("changed-without-upgrade-note",),
             [Release(real, v1), Release(retitled, "v0.2.0")], "v0.2.0", "refuse",
             codes=("entry-changed-without-upgrade",), entries=[not_offered("acme.vendors")], history=CHECKED,
             retained=0, held=(v1,), strictness="project",
             description="This project's stricter rule: the retained entry's entryDigest changed (its title) and "
                         "entry.json has no upgrade note keyed by the retained entryDigest, so the entry is refused "
                         "(entry-changed-without-upgrade). A consumer that leaves the reviewed upgrade to its user "
                         "answers notApplicable."))
    readme = tree("runner", mutations=[{"op": "write", "file": f"{PATHS['runner']}/README.md",
                                        "text": "# Vendors\n\nThe README alone changed.\n"}])
    add(Case("readme-only-change", "only the README changed: the pins are equal, the entry is changed",
             ("§7", "even when no pinned digest changes"), ("entry-changed-shown",),
             [Release(real, v1), Release(readme, "v0.2.0")], "v0.2.0", "pass", entries=[RUNNER], history=CHECKED,
             retained=0, held=(v1,), withdrawn=[], changed=["acme.vendors"],
             description="From the retained v0.1.0 to v0.2.0, only the entry's README.md differs: no pinned digest "
                         "changes and nothing is refused, yet the entry is listed in changed.",
             none={"entries": [RUNNER_NONE]}))
    with_output = tree("runner", "output")
    add(Case("withdrawal-shown", "an entry absent from the new release is shown as withdrawn",
             ("§7", "An entry absent from the new release stays imported at its previous commit and is shown as "
              "withdrawn"), ("withdrawal",),
             [Release(with_output, v1), Release(real, "v0.2.0")], "v0.2.0", "pass", entries=[RUNNER],
             history=CHECKED, retained=0, held=(v1,), withdrawn=["acme.writeback"], changed=[],
             description="The retained v0.1.0 holds two entries and v0.2.0 only one: the absent entry is listed in "
                         "withdrawn and not in changed (a retained entry is in at most one of the two), and nothing "
                         "is refused.",
             none={"entries": [RUNNER_NONE]}))

    # -- publication identity (§§3, 7) --
    add(Case("identity-identical-in-release", "one artifact pair with identical content in two entries",
             ("§3 Publication identity", "The same pair and canonical digest are admitted in another entry"),
             ("identity-within-release", "identity-equality"),
             [Release(tree("named", "named-copy"), v1)], v1, "pass", entries=[NAMED, NAMED_COPY], history=NO_RELEASES,
             description="Two entries declare the same artifact pair over byte-identical documents (one canonical "
                         "digest): admitted, both offered.",
             none={"entries": [NAMED_NONE, NAMED_COPY_NONE]}))
    add(Case("identity-changed-in-release", "one artifact pair with two canonical digests in one release",
             ("§3 Publication identity", "two manifest rows whose entries declare the same pair with different "
              "dialect.digest refuse the release"), ("identity-within-release",),
             [Release(tree("named", "named-changed-copy"), v1)], v1, "refuse", codes=("artifact-content-changed",),
             history=NO_RELEASES,
             description="Two entries declare the same artifact pair over documents that differ in one source's "
                         "maxAge, each entry valid on its own: the release is refused as artifact-content-changed "
                         "and no entry is offered (entries []). No earlier release exists (no-releases)."))
    named_v1 = tree("named")
    changed_note = [{"op": "set", "file": f"{PATHS['named']}/entry.json", "pointer": "/upgrade",
                     "value": {entry_digest(named_v1, "named"): "Longer maxAge."}}]
    add(Case("identity-changed-across-releases", "a pair's canonical digest changed since a held release",
             ("§3 Publication identity", "Changing the digest under a pair published in an earlier release"),
             ("identity-across-history",),
             [Release(named_v1, v1), Release(tree("named-changed", mutations=changed_note), "v0.2.0")], "v0.2.0",
             "refuse", codes=("artifact-content-changed",), history=CHECKED, held=(v1,),
             description="v0.2.0 changes the document under the pair v0.1.0 published (with an upgrade note, so "
                         "nothing else is wrong); the consumer holds v0.1.0's manifest, so the release is refused as "
                         "artifact-content-changed (entries [])."))
    add(Case("identity-unchecked-without-held-history", "the same change when no previous manifest is held",
             ("§7 Artifact history", "otherwise checks form only, reporting artifact-history-unchecked; this is not "
              "a refusal or proof of immutable history"), ("history-unchecked",),
             [], "v0.2.0", "pass", entries=[NAMED], history=UNCHECKED, stream="identity-changed-across-releases",
             description="identity-changed-across-releases' repository with no previous manifest held: the change "
                         "cannot be seen, the release passes and history is artifact-history-unchecked (not a "
                         "refusal; the upgrade key is held by its form only).",
             none={"entries": [NAMED_NONE]}))
    metadata = [set_member("named", "/title", "Vendors, named, retitled"),
                {"op": "set", "file": f"{PATHS['named']}/entry.json", "pointer": "/upgrade",
                 "value": {entry_digest(named_v1, "named"): "Title only."}}]
    add(Case("identity-metadata-update", "a metadata-only update keeps the pair and its canonical digest",
             ("§3 Conformance", "A metadata-only update of the same entry retains its artifact pair and canonical "
              "digest while changing entryDigest"), ("identity-across-history",),
             [Release(named_v1, v1), Release(tree("named", mutations=metadata), "v0.2.0")], "v0.2.0", "pass",
             entries=[NAMED], history=CHECKED, held=(v1,),
             description="v0.2.0 retitles the entry (new entryDigest, upgrade note keyed by the old one) and keeps "
                         "the document: the pair's canonical digest is unchanged, so the held history admits it.",
             none={"entries": [NAMED_NONE]}))
    # a fork: v0.2.0 published on a history of its own, the retained entry withdrawn and its pair reused
    retains = "The consumer retains the catalog location, tag, resolved commit and manifest for the import"
    add(Case("retained-fork-changed-content", "a release on a history of its own reuses a retained pair with changed "
             "content; no previous manifest but the retained one is held",
             ("§7", f"{retains} ... Withdrawal does not permit changed content under the pair"),
             ("retained-history", "withdrawal-changed-content", "identity-across-history"),
             [Release(named_v1, v1), Release(tree("named-changed-copy"), "v0.2.0", root=True)], "v0.2.0", "refuse",
             codes=("artifact-content-changed",), history=CHECKED, retained=0,
             description="The consumer retained v0.1.0; v0.2.0 is a commit with no parent (v0.1.0 reachable by its "
                         "tag only) where the retained entry is withdrawn and another entry reuses its pair with "
                         "changed content. No --held is given: the retained release is held all the same, whatever "
                         "the ancestry, so the release is refused as artifact-content-changed."))
    add(Case("retained-fork-identical-content", "a release on a history of its own reuses a retained pair with "
             "identical content; no previous manifest but the retained one is held",
             ("§7", "No branch ancestry is checked by the consumer ... identical content under the pair is admitted "
              "in another entry or kind"), ("retained-history", "withdrawal-identical-content", "withdrawal"),
             [Release(named_v1, v1), Release(tree("named-copy"), "v0.2.0", root=True)], "v0.2.0", "pass",
             entries=[NAMED_COPY], history=CHECKED, retained=0, withdrawn=["acme.vendors-named"], changed=[],
             description="The near miss of retained-fork-changed-content: the reused pair's content is identical, "
                         "so it is admitted; the retained entry is withdrawn, and the new entry is in neither "
                         "withdrawn nor changed (both list retained entries only).",
             none={"entries": [NAMED_COPY_NONE]}))
    withdrawn = tree("output")
    add(Case("withdrawn-then-changed-content", "a withdrawn entry's pair reused with changed content",
             ("§7 Artifact history", "Withdrawal does not permit changed content under the pair"),
             ("withdrawal-changed-content", "identity-across-history"),
             [Release(named_v1, v1), Release(withdrawn, "v0.2.0"), Release(tree("named-changed-copy"), "v0.3.0")],
             "v0.3.0", "refuse", codes=("artifact-content-changed",), history=CHECKED, held=(v1, "v0.2.0"),
             description="v0.1.0 publishes a pair, v0.2.0 withdraws its entry, v0.3.0 reuses the pair in another "
                         "entry with changed content; with both earlier releases held the release is refused as "
                         "artifact-content-changed."))
    add(Case("withdrawn-then-identical-content", "a withdrawn entry's pair reused with identical content",
             ("§7 Artifact history", "identical content under the pair is admitted in another entry or kind"),
             ("withdrawal-identical-content",),
             [Release(named_v1, v1), Release(withdrawn, "v0.2.0"), Release(tree("named-copy"), "v0.3.0")],
             "v0.3.0", "pass", entries=[NAMED_COPY], history=CHECKED, held=(v1, "v0.2.0"),
             description="The near miss: the withdrawn pair is reused with identical content, which is admitted.",
             none={"entries": [NAMED_COPY_NONE]}))
    # a fork after a recorded withdrawal: the consumer keeps the withdrawn entry (issue #34 item 4)
    kept = "An entry absent from the new release stays imported at its previous commit"
    add(Case("retained-withdrawn-fork-changed-content", "a release on a history of its own re-adds the pair of an "
             "entry the consumer keeps withdrawn, with changed content",
             ("§7", f"{kept} ... Withdrawal does not permit changed content under the pair"),
             ("retained-withdrawn", "withdrawal-changed-content", "identity-across-history"),
             [Release(named_v1, v1), Release(withdrawn, "v0.2.0"),
              Release(tree("named-changed-copy"), "v0.3.0", root=True)],
             "v0.3.0", "refuse", codes=("artifact-content-changed",), history=CHECKED, retained=1,
             kept_withdrawn=(("acme.vendors-named", 0),),
             description="The consumer imported v0.1.0, then recorded v0.2.0, which withdraws acme.vendors-named: "
                         "its retained state is v0.2.0, with the withdrawn entry kept at v0.1.0's commit and "
                         "entryDigest (retained withdrawn). v0.3.0 is a commit with no parent where another entry "
                         "re-adds that pair with changed content. No --held is given and the retained v0.2.0 holds "
                         "no such pair: the kept withdrawn entry, read at its commit, refuses the release as "
                         "artifact-content-changed, whatever the ancestry."))
    add(Case("retained-withdrawn-fork-identical-content", "a release on a history of its own re-adds the pair of an "
             "entry the consumer keeps withdrawn, with identical content",
             ("§7", f"{kept} and is shown as withdrawn ... identical content under the pair is admitted in another "
              "entry or kind"),
             ("retained-withdrawn", "withdrawal-identical-content", "withdrawal"),
             [Release(named_v1, v1), Release(withdrawn, "v0.2.0"), Release(tree("named-copy"), "v0.3.0", root=True)],
             "v0.3.0", "pass", entries=[NAMED_COPY], history=CHECKED, retained=1,
             kept_withdrawn=(("acme.vendors-named", 0),), withdrawn=["acme.vendors-named", "acme.writeback"],
             changed=[],
             description="The near miss of retained-withdrawn-fork-changed-content: the re-added pair's content is "
                         "identical, so it is admitted. Both entries the consumer keeps are withdrawn from v0.3.0: "
                         "acme.writeback, retained at v0.2.0, and acme.vendors-named, kept withdrawn since v0.1.0.",
             none={"entries": [NAMED_COPY_NONE]}))

    # -- history: the limit, held history that cannot be read, upgrade keys (§§3, 7) --
    three = [Release(real, v1), Release(readme, "v0.2.0"), Release(real, "v0.3.0")]
    add(Case("history-over-limit", "two held releases and a maxHistoryReleases of 1",
             ("§7 Artifact history", "a history check that would exceed that limit refuses the import as "
              "artifact-history-invalid"), ("history-limit",),
             three, "v0.3.0", "refuse", codes=("artifact-history-invalid",), history=CHECKED, history_limit=1,
             held=(v1, "v0.2.0"),
             description="The consumer holds two earlier releases and states maxHistoryReleases 1: the history "
                         "check would exceed the limit, so the import is refused as artifact-history-invalid (entries "
                         "[]) without reading either. history is checked: the consumer holds previous manifests, "
                         "and that check is what refused."))
    add(Case("history-within-limit", "two held releases and a maxHistoryReleases of 2",
             ("§7 Artifact history", "A consumer states a maxHistoryReleases limit of 1 to 128 earlier releases"),
             ("history-limit",), [], "v0.3.0", "pass", entries=[RUNNER], history=CHECKED, history_limit=2,
             held=(v1, "v0.2.0"), stream="history-over-limit",
             description="The near miss: the same two held releases with maxHistoryReleases 2 are read and the "
                         "release passes.",
             none={"entries": [RUNNER_NONE]}))
    add(Case("held-history-manifest-malformed", "a held previous manifest that is not JSON",
             ("§7 Artifact history", "A malformed previous manifest ... refuses the release as "
              "artifact-history-invalid"), ("held-history-invalid",),
             [Release(real | {"manifest.json": b"[{\"id\": \"acme.vendors\"\n"}, v1), Release(real, "v0.2.0")],
             "v0.2.0", "refuse", codes=("artifact-history-invalid",), history=CHECKED, held=(v1,),
             description="The held v0.1.0's manifest.json is cut short (not JSON); v0.2.0 itself is valid. The "
                         "release is refused as artifact-history-invalid (entries []), and history is checked: a "
                         "previous manifest is held, even though it could not be read."))
    bad_row = tree("runner", after=[{"op": "set", "file": "manifest.json", "pointer": "/0/entryDigest",
                                     "value": "sha256:" + "0" * 64}])
    add(Case("held-history-entry-digest", "a held previous release whose row's entryDigest its entry fails",
             ("§7 Artifact history", "a pinned entry that is missing, malformed or fails its entryDigest"),
             ("held-history-invalid",), [Release(bad_row, v1), Release(real, "v0.2.0")], "v0.2.0", "refuse",
             codes=("artifact-history-invalid",), history=CHECKED, held=(v1,),
             description="The held v0.1.0's row pins an entryDigest its entry.json does not have; v0.2.0 itself is "
                         "valid. The release is refused as artifact-history-invalid (entries [])."))
    unknown_key = tree("runner", mutations=[set_member("runner", "/upgrade", {"sha256:" + "ab" * 32: "From nowhere."})])
    add(Case("upgrade-key-unknown", "an upgrade key that is no earlier release's entryDigest, history held",
             ("§7 Artifact history", "Upgrade keys remain released entryDigest values, matched to the same entry's "
              "earlier rows"), ("upgrade-keys",),
             [Release(real, v1), Release(unknown_key, "v0.2.0")], "v0.2.0", "refuse", codes=("upgrade-key-unknown",),
             entries=[not_offered("acme.vendors")], history=CHECKED, held=(v1,),
             description="v0.2.0's entry carries an upgrade key that is no entryDigest of its rows in the held "
                         "v0.1.0: the key is a member of that entry.json, so the entry is refused and still listed "
                         "(not offered); the release as a whole is not refused for it."))
    add(Case("upgrade-key-unchecked", "the same key when no previous manifest is held: its form only",
             ("§7 Artifact history", "otherwise checks the key's form only, without claiming historical "
              "verification"), ("upgrade-keys", "history-unchecked"),
             [], "v0.2.0", "pass", entries=[RUNNER], history=UNCHECKED, stream="upgrade-key-unknown",
             description="upgrade-key-unknown's repository with no previous manifest held: the key has a digest's "
                         "form, so it passes, with history artifact-history-unchecked.",
             none={"entries": [RUNNER_NONE]}))

    # -- the manifest (§§3, 7) --
    add(Case("manifest-over-bound-rows", "a manifest of 1,025 rows, each naming a valid entry",
             ("§7 Before import", "It fetches the release's manifest within the 1 MiB and 1,024-row bounds"),
             ("bounds-manifest-rows",),
             [Release(outputs(1024), "v0.1.0"), Release(outputs(1025), "v0.2.0")], "v0.2.0", "refuse",
             codes=("manifest-over-bound",),
             description="v0.2.0: 1,025 valid output-only entries (acme.w0000 to acme.w1024) and the manifest of their "
                         "1,025 rows, in order and under 1 MiB: the row bound alone is exceeded, so the catalog's "
                         "import is refused (entries []). A consumer without the row bound would pass it. v0.1.0, "
                         "the same repository's release of the first 1,024, is manifest-at-bound-rows."))
    small = tree("output")
    padded = small["manifest.json"].rstrip(b"\n")
    add(Case("manifest-over-bound-bytes", "a valid manifest padded to 1,048,577 bytes",
             ("§7 Before import", "within the 1 MiB and 1,024-row bounds"), ("bounds-manifest-bytes",),
             [Release(small | {"manifest.json": padded + b" " * (1048577 - len(padded))}, v1,
                      generated=("manifest.json",))], v1, "refuse",
             codes=("manifest-over-bound", "scan-file-over-bound"),
             description="A valid one-row manifest followed by spaces to 1,048,577 bytes, one byte over 1 MiB: still "
                         "one JSON value, so only the byte bound refuses it (the import; entries []). The manifest is "
                         "not stored in the stream: a blob-generated step makes it (issue #35 item 3)."))
    add(Case("manifest-malformed", "a manifest that is not JSON",
             ("§7", "a malformed manifest refuses the catalog's import"), ("manifest-form",),
             [Release(small | {"manifest.json": b"[{\"id\": \"acme.writeback\",\n"}, v1)], v1, "refuse",
             codes=("manifest-malformed",),
             description="manifest.json is cut short and is not JSON: the catalog's import is refused (entries [])."))
    add(Case("manifest-directory", "a manifest.json committed as a directory",
             ("§7", "a malformed manifest refuses the catalog's import"), ("manifest-form",),
             [Release({k: v for k, v in small.items() if k != "manifest.json"} | {"manifest.json/rows": b"[]\n"},
                      v1)], v1, "refuse", codes=("file-unreadable",),
             description="manifest.json is a tree in the release's commit, not a file: it cannot be read, so the "
                         "catalog's import is refused (entries []), as for a manifest that is not JSON; no entry is "
                         "offered (issue #34 item 5)."))
    add(Case("manifest-row-not-closed", "a row carrying the artifact pair, a member rows do not have",
             ("§3", "Version 3 adds no member to the row"), ("manifest-form",),
             [Release(tree("output", after=[{"op": "set", "file": "manifest.json", "pointer": "/0/artifact",
                                             "value": {"id": ARTIFACT, "version": "0.1.0"}}]), v1)], v1, "refuse",
             codes=("manifest-row-invalid",),
             description="The one row carries an artifact member (rows are closed): a malformed manifest, so the "
                         "catalog's import is refused (entries [])."))
    add(Case("manifest-row-version-1", "a version-1 row, without kind",
             ("§3", "Version-2 and version-3 readers refuse version-1 rows, which lack kind"), ("manifest-form",),
             [Release(tree("output", after=[{"op": "remove", "file": "manifest.json", "pointer": "/0/kind"}]), v1)],
             v1, "refuse", codes=("manifest-row-version-1",),
             description="The one row lacks kind, a version-1 row: refused with the manifest (entries [])."))
    two = tree("output", "output-b")
    add(Case("manifest-entry-unlisted", "an entry directory with no row",
             ("§7 Before import", "one row per entry directory in the commit's tree"), ("row-entry-correspondence",),
             [Release(tree("output", "output-b", after=[{"op": "remove", "file": "manifest.json", "pointer": "/1"}]),
                      v1)], v1, "refuse", codes=("manifest-entry-unlisted",),
             description="Two valid entry directories and a manifest of the first one's row only: the row-directory "
                         "correspondence fails, so the import is refused (entries []). An entry directory is every "
                         "directory entries/<publisher>/<name>/ of the commit's tree, whatever it holds."))
    add(Case("manifest-entry-missing", "a row whose entry directory is absent",
             ("§7 Before import", "and one entry per row"), ("row-entry-correspondence",),
             [Release({k: v for k, v in two.items() if not k.startswith(PATHS["output-b"] + "/")}, v1)],
             v1, "refuse", codes=("manifest-entry-missing",),
             description="Two rows and one entry directory: the second row names a directory the tree does not "
                         "hold, so the import is refused (entries [])."))
    add(Case("manifest-order", "rows out of id byte order",
             ("§7 Before import", "distinct ids in byte order"), ("id-order",),
             [Release(tree("output", "output-b", after=[{"op": "reverse", "file": "manifest.json"}]), v1)], v1,
             "refuse", codes=("manifest-order",),
             description="Two valid rows in reverse id order: the import is refused (entries []). The code is this "
                         "project's name, not compared."))
    add(Case("manifest-id-duplicate", "one id in two rows",
             ("§7 Before import", "distinct ids in byte order"), ("id-order",),
             [Release(tree("output", after=[{"op": "copy", "file": "manifest.json", "from": "/0", "to": "/-"}]), v1)],
             v1, "refuse", codes=("manifest-id-duplicate",),
             description="The one row given twice: ids are not distinct (and so two rows name one directory); the "
                         "import is refused (entries [])."))
    add(Case("manifest-row-path", "a row whose path is not its id's",
             ("§7 Before import", "the exact id-to-path match"), ("id-to-path",),
             [Release(tree("output", after=[{"op": "set", "file": "manifest.json", "pointer": "/0/path",
                                             "value": "entries/acme/writeback/"}]), v1)], v1, "refuse",
             codes=("manifest-row-invalid",),
             description="The row's path is its id's path with a trailing slash, not exactly entries/<publisher>/"
                         "<name>: the path is the row's member, so the manifest is malformed and the catalog's "
                         "import is refused (entries []); compare entry-id-path, which refuses one entry."))
    add(Case("manifest-row-path-other", "two rows whose well-formed paths are each other's",
             ("§7 Before import", "the exact id-to-path match"), ("id-to-path",),
             [Release(tree("output", "output-b", after=[
                 {"op": "set", "file": "manifest.json", "pointer": "/0/path", "value": PATHS["output-b"]},
                 {"op": "set", "file": "manifest.json", "pointer": "/1/path", "value": PATHS["output"]}]), v1)],
             v1, "refuse", codes=("manifest-row-invalid",),
             description="Two valid entries whose rows' paths are swapped: each path is in the row's form and names "
                         "an entry directory the tree holds, so only the exact id-to-path match refuses it "
                         "(manifest-row-path's trailing slash is refused by the path's form as well); the "
                         "manifest is malformed and the catalog's import is refused (entries [])."))
    add(Case("entry-id-path", "an entry.json whose id is not its directory's",
             ("§7 Before import", "the row's kind matching its kind and its path matching its id"), ("id-to-path",),
             [Release(tree("output", mutations=[set_member("output", "/id", "acme.writeback-other")]), v1)], v1,
             "refuse", codes=("entry-id-path",), entries=[not_offered("acme.writeback")], history=NO_RELEASES,
             description="entry.json's id is acme.writeback-other in entries/acme/writeback, whose row (id, path, "
                         "digests) is right: the id is the entry's member, so that entry is refused and listed, not "
                         "offered, and the release is otherwise read."))
    add(Case("manifest-kind-mismatch", "a row of kind dialect for an entry of kind preset",
             ("§7 Before import", "with the row's kind matching its kind"), ("kinds",),
             [Release(tree("preset", after=[{"op": "set", "file": "manifest.json", "pointer": "/0/kind",
                                             "value": "dialect"}]), v1)], v1, "refuse",
             codes=("manifest-kind-mismatch",), entries=[not_offered("acme.vendors-preset")], history=NO_RELEASES,
             description="A valid preset whose row says kind dialect: the entry is refused and listed with the row's "
                         "kind, dialect, not offered."))

    # -- digests, stored and canonical (§§3, 7) --
    add(Case("entry-digest-mismatch", "entry.json changed after its row pinned it",
             ("§7 Before import", "entry.json against the manifest's entryDigest"), ("digests",),
             [Release(tree("output", keep=True, mutations=[set_member("output", "/title", "Changed")]), v1)], v1,
             "refuse", codes=("manifest-digest-mismatch",), entries=[not_offered("acme.writeback")],
             history=NO_RELEASES,
             description="entry.json's title changed after the manifest was computed: entryDigest fails, the entry "
                         "is refused."))
    add(Case("dialect-stored-digest-mismatch", "dialect.json re-indented after its row pinned it (canon unchanged)",
             ("§7 Before import", "dialect.json against the manifest's dialectDigest over the stored bytes"),
             ("digests",),
             [Release(tree("runner", keep=True,
                           mutations=[{"op": "pretty", "file": f"{PATHS['runner']}/dialect.json"}]), v1)], v1,
             "refuse", codes=("manifest-digest-mismatch",), entries=[not_offered("acme.vendors")],
             history=NO_RELEASES,
             description="dialect.json re-indented after the manifest was computed: its canonical digest (dialect."
                         "digest) still holds, its stored-byte dialectDigest fails, so the entry is refused."))
    add(Case("output-stored-digest-mismatch", "output.json changed in its bytes after its row pinned it",
             ("§7 Before import", "output.json against outputDigest over the stored bytes"), ("digests",),
             [Release(tree("output", keep=True, mutations=[{"op": "grow", "file": f"{PATHS['output']}/output.json",
                                                            "count": 1, "byte": "\n"}]), v1)], v1, "refuse",
             codes=("manifest-digest-mismatch",), entries=[not_offered("acme.writeback")], history=NO_RELEASES,
             description="A line feed appended to output.json after the manifest was computed: outputDigest fails "
                         "(output.digest, over canon, holds), so the entry is refused."))
    add(Case("dialect-canonical-digest-mismatch", "dialect.digest is not the document's canonical digest",
             ("§7 Before import", "dialect.digest over the whole document's canonical bytes"), ("digests",),
             [Release(tree("runner", mutations=[set_member("runner", "/dialect/digest", "sha256:" + "1" * 64)]), v1)],
             v1, "refuse", codes=("dialect-digest-mismatch",), entries=[not_offered("acme.vendors")],
             history=NO_RELEASES,
             description="entry.json's dialect.digest is a digest of nothing, the manifest pinned after it: "
                         "dialect-digest-mismatch refuses the entry."))
    add(Case("output-canonical-digest-mismatch", "output.digest is not the output document's canonical digest",
             ("§7 Before import", "output.digest over the document's canonical bytes (RFC 0018 §10)"), ("digests",),
             [Release(tree("output", mutations=[set_member("output", "/output/digest", "sha256:" + "1" * 64)]), v1)],
             v1, "refuse", codes=("output-digest-mismatch",), entries=[not_offered("acme.writeback")],
             history=NO_RELEASES,
             description="entry.json's output.digest is a digest of nothing, the manifest pinned after it: the "
                         "entry is refused."))
    add(Case("dialect-reindented", "an indented dialect.json: dialectDigest and dialect.digest differ, each holds",
             ("§7", "File digests and canonical digests are distinct checks, even when they happen to be equal"),
             ("digests",),
             [Release(tree("runner", mutations=[{"op": "pretty", "file": f"{PATHS['runner']}/dialect.json"}]), v1)],
             v1, "pass", entries=[RUNNER], history=NO_RELEASES,
             description="The near miss of the two digest cases: dialect.json indented and pinned as stored, so "
                         "dialectDigest and dialect.digest differ and each holds; the entry passes and its fixture "
                         "replays.",
             none={"entries": [RUNNER_NONE]}))
    add(Case("preparation-digest-mismatch", "a preparationDigest that is not preparation.json's",
             ("§7 Before import", "each fixture's preparation.json against its preparationDigest"), ("digests",),
             [Release(tree("runner", mutations=[set_member("runner", "/fixtures/0/preparationDigest",
                                                           "sha256:" + "2" * 64)]), v1)],
             v1, "refuse", codes=("preparation-digest-mismatch",), entries=[not_offered("acme.vendors")],
             history=NO_RELEASES,
             description="The fixture's preparationDigest in entry.json is a digest of nothing (the manifest pinned "
                         "after it): the entry is refused, by a digest check that needs no reader."))

    # -- file bounds (§3, RFC 0018 §12) --
    add(Case("entry-at-bound", "an entry.json of exactly 65,536 bytes",
             ("§3", "entry.json and README.md are each at most 64 KiB"), ("bounds-files",),
             [Release(tree("output", mutations=[{"op": "pad-to", "file": f"{PATHS['output']}/entry.json",
                                                 "size": 65536}]), v1)], v1, "pass", entries=[OUTPUT],
             history=NO_RELEASES,
             description="An output entry's entry.json padded with spaces to exactly 65,536 bytes and pinned as "
                         "stored: at the bound, so it passes."))
    add(Case("entry-over-bound", "an entry.json of 65,537 bytes",
             ("§7 Before import", "each file's bounds (§3 and RFC 0018 §12)"), ("bounds-files",),
             [Release(tree("output", mutations=[{"op": "pad-to", "file": f"{PATHS['output']}/entry.json",
                                                 "size": 65537}]), v1)], v1, "refuse",
             codes=("file-over-bound", "scan-file-over-bound"),
             entries=[not_offered("acme.writeback")], history=NO_RELEASES,
             description="The same padded to 65,537 bytes, one over 64 KiB: the entry is refused."))
    add(Case("readme-over-bound", "a README.md of 65,537 bytes",
             ("§7 Before import", "each file's bounds (§3 and RFC 0018 §12)"), ("bounds-files",),
             [Release(tree("output", mutations=[{"op": "pad-to", "file": f"{PATHS['output']}/README.md",
                                                 "size": 65537}]), v1)], v1, "refuse",
             codes=("file-over-bound", "scan-file-over-bound"),
             entries=[not_offered("acme.writeback")], history=NO_RELEASES,
             description="README.md padded to 65,537 bytes: the entry is refused."))
    add(Case("dialect-over-bound", "a dialect.json of 131,073 bytes",
             ("§3", "dialect.json is at most 131,072 bytes, RFC 0018 §12's bound"), ("bounds-files",),
             [Release(tree("runner", mutations=[{"op": "pad-to", "file": f"{PATHS['runner']}/dialect.json",
                                                 "size": 131073}]), v1)], v1, "refuse",
             codes=("input-over-bound", "scan-file-over-bound"),
             entries=[not_offered("acme.vendors")], history=NO_RELEASES,
             description="dialect.json padded with spaces to 131,073 bytes and pinned as stored (its canonical digest "
                         "unchanged): input-over-bound refuses the entry, and the reference checks stop after the "
                         "reference form, since no document is read to compare with (no dialect-digest-mismatch)."))

    # -- fixture files (§§3, 7) --
    fixture = f"{PATHS['runner']}/fixtures/vendor-7"
    add(Case("fixture-files-unlisted", "a fixture file in the tree that the row's file list leaves out",
             ("§3", "The consumer checks that the list equals the file set in the release's tree"),
             ("fixture-file-sets",),
             [Release(tree("runner", after=[{"op": "set", "file": "manifest.json", "pointer": "/0/fixtures/0/files",
                                             "value": ["case.json", "preparation.json", "profiles.json"]}]), v1)],
             v1, "refuse", codes=("manifest-fixtures-mismatch",), entries=[not_offered("acme.vendors")],
             history=NO_RELEASES,
             description="The row's file list leaves out sources.json, which the fixture directory holds (the list "
                         "is otherwise a valid 3-file list): the entry is refused."))
    add(Case("fixture-file-unfetchable", "a listed fixture file whose blob the repository does not hold",
             ("§3", "a listed file that cannot be fetched is a failure, not an absent optional file"),
             ("listed-file-unfetchable",),
             [Release(real, v1, absent=(f"{fixture}/sources.json",))], v1, "refuse",
             codes=("file-unreadable", "manifest-fixtures-mismatch", "scan-file-unreadable"),
             entries=[not_offered("acme.vendors")], history=NO_RELEASES,
             description="The fixture's tree names sources.json, listed in its row, by a blob id the repository does "
                         "not hold (a mktree-missing step): the file cannot be fetched, which is a failure, not an "
                         "absent optional file, so the entry is refused."))

    # -- a fixture the reader cannot recompute (§§4, 7) --
    http = tree("http")
    http_fixture = f"{PATHS['http']}/fixtures/vendor-7"
    add(Case("skip-kind-unread", "an http fixture: reported skipped with its reason, never replayed",
             ("§7 Before import", "A fixture outside the reader's supported versions or source kinds is reported as "
              "not recomputable, with the reason, never as a successful replay"), ("kind-unread-skipped",),
             [Release(http, v1)], v1, "pass", entries=[HTTP_SKIPPED], history=NO_RELEASES, broader=MAY_DECLINE,
             description="A valid entry whose one source is of kind http: the specification's reader skips its "
                         "fixture as kind-unread, so the entry is offered with the fixture skipped for that reason. "
                         "At tier none it is skipped as version-unread. A reader that reads http may answer "
                         "notApplicable.",
             none={"entries": [HTTP_NONE]}))
    http_digest = json.loads(http[f"{PATHS['http']}/entry.json"])["dialect"]["digest"]
    add(Case("skip-binding-forbidden", "a skipped fixture carrying a binding document its dialect does not need",
             ("§7 Before import", "the source classification and binding document checked even when the "
              "preparation reader skips it"), ("classification-under-skip",),
             [Release(tree("http", mutations=[{"op": "write", "file": f"{http_fixture}/binding.json",
                                               "text": json.dumps({"dialect": http_digest, "sources": {}},
                                                                  separators=(",", ":"))}]), v1)],
             v1, "refuse", codes=("binding-forbidden",), entries=[not_offered("acme.vendors-http")],
             history=NO_RELEASES, broader=MAY_DECLINE,
             description="skip-kind-unread's entry with a binding.json in its fixture, listed in the row: the "
                         "document is well formed, names the dialect's own canonical digest and assigns exactly its "
                         "unbound sources (none), so its one defect is being there beside a dialect with no unbound "
                         "source. Refused at every tier, since the classification needs no reader."))
    add(Case("skip-preparation-digest-mismatch", "a skipped fixture whose preparationDigest is not its file's",
             ("§4", "A skipped fixture establishes only that its bytes were recorded and pinned"),
             ("kind-unread-skipped",),
             [Release(tree("http", mutations=[set_member("http", "/fixtures/0/preparationDigest",
                                                         "sha256:" + "2" * 64)]), v1)], v1, "refuse",
             codes=("preparation-digest-mismatch",), entries=[not_offered("acme.vendors-http")], history=NO_RELEASES,
             broader=MAY_DECLINE,
             description="skip-kind-unread's entry whose preparationDigest is a digest of nothing: a skipped fixture "
                         "is still held by its pins, so the entry is refused at every tier."))
    add(Case("skip-unacknowledged", "a skip the catalog's skips.json does not acknowledge (this project's rule)",
             ("§4", "a fixture whose source kind the specification's verifier refuses as kind-unread is held by its "
              "digests only"),
             ("kind-unread-skipped", "skip-acknowledgement"),
             [Release(http | {"skips.json": b"[]\n"}, v1)], v1, "refuse", codes=("skip-unacknowledged",),
             entries=[not_offered("acme.vendors-http")], history=NO_RELEASES, broader=MAY_DECLINE,
             strictness="project",
             description="This project's stricter rule: a catalog holding skips.json requires each fixture the "
                         "consumer's reader skips to be acknowledged there. skip-kind-unread's entry beside "
                         "skips.json [] is refused (skip-unacknowledged), at each tier, since its one fixture is "
                         "skipped at both. A consumer without the rule answers notApplicable; skip-acknowledged is "
                         "the near miss, where the skip and its reason are compared."))
    acknowledged = json.dumps([{"entry": "acme.vendors-http", "fixture": "vendor-7",
                                "why": "No preparation reader recomputes http sources yet."}], indent=2) + "\n"
    add(Case("skip-acknowledged", "a skip the catalog's skips.json acknowledges (this project's rule's near miss)",
             ("§4", "the test skips recomputation and says why"), ("kind-unread-skipped", "skip-acknowledgement"),
             [Release(http | {"skips.json": acknowledged.encode("ascii")}, v1)], v1, "pass",
             entries=[HTTP_SKIPPED], history=NO_RELEASES, broader=MAY_DECLINE, strictness="project",
             description="skip-unacknowledged with skips.json acknowledging the http fixture: the entry is offered "
                         "and its fixture is compared, skipped as kind-unread at tier specification and as "
                         "version-unread at tier none, so a consumer that gives the wrong reason fails here.",
             none={"entries": [HTTP_NONE]}))

    # -- replay (§7, Security and privacy) --
    prep = f"{fixture}/preparation.json"

    def edit_preparation(value: dict) -> dict:
        value = copy.deepcopy(value)
        value["lineage"][0]["reason"] = "edited-after-recording"
        return value

    replayed_none = {"result": "pass", "codes": (), "entries": [RUNNER_NONE]}
    add(Case("replay-disagreement", "a preparation.json, re-pinned, that the dialect does not derive",
             ("§7 Before import", "A replay disagreement, finding or verifier refusal also refuses the entry"),
             ("replay-agreement",),
             [Release(tree("runner", mutations=[canonical_write(prep, edit_preparation, real),
                                                {"op": "redigest-preparation", "entry": PATHS["runner"]}]), v1)],
             v1, "refuse", codes=("preparation-differs",), entries=[not_offered("acme.vendors")], history=NO_RELEASES,
             description="The Runner export's preparation.json with one lineage reason edited, written in canonical "
                         "form and pinned anew (every digest holds): only a reader that recomputes the preparation "
                         "sees that the dialect does not derive it (preparation-differs). At tier none the entry is "
                         "offered with the fixture skipped: a narrower reader offers what a full reader refuses.",
             none=replayed_none))
    add(Case("replay-forged-acquisition", "a recorded result edited after its receipt was signed",
             ("Security and privacy", "a recorded result cannot be edited afterwards ... an edited result is "
              "acquisition-invalid"), ("forged-acquisition",),
             [Release(tree("runner", mutations=[{"op": "set", "file": f"{fixture}/sources.json",
                                                 "pointer": "/vendor/response/result/facts/request/completeness",
                                                 "value": "partial"}]), v1)],
             v1, "refuse", codes=("acquisition-invalid",), entries=[not_offered("acme.vendors")], history=NO_RELEASES,
             description="One value of a recorded result in sources.json edited after its receipt was signed: the "
                         "receipt's resultDigest no longer names the result, which only a reader checks "
                         "(acquisition-invalid; a reader that missed it would answer preparation-differs, another "
                         "code). At tier none the entry is offered with the fixture skipped: no pin covers "
                         "sources.json.",
             none=replayed_none))
    add(Case("replay-profile-substituted", "profiles.json replaced by a profile the dialect does not pin",
             ("§7 Before import", "every pinned digest against the fetched bytes it names, including the profiles"),
             ("replay-agreement", "digests"),
             [Release(tree("runner", mutations=[{"op": "set", "file": f"{fixture}/profiles.json",
                                                 "pointer": "/0/authority", "value": "another-authority"}]), v1)],
             v1, "refuse", codes=("profile-mismatch",), entries=[not_offered("acme.vendors")], history=NO_RELEASES,
             description="The fixture's trusted profile has another authority, so its canonical digest is no longer "
                         "the source's profileDigest: the reader refuses it (profile-mismatch). At tier none the "
                         "entry is offered with the fixture skipped: the profiles are checked by the reader (§7 "
                         "\"including the profiles and acquisitions checked by the reader\").",
             none=replayed_none))

    # -- scans (§§4, 7) --
    add(Case("scan-credential", "a README holding a token's shape",
             ("§7 Before import", "a recognised credential or local path refuses the entry"), ("scans",),
             [Release(tree("output", mutations=[{"op": "write", "file": f"{PATHS['output']}/README.md",
                                                 "text": "# Write-back\n\nToken: ghp_"
                                                         + "A1b2C3d4E5" * 3 + "f6G7h8\n"}]),
                      v1)], v1, "refuse", codes=("secret-github-token",), entries=[not_offered("acme.writeback")],
             history=NO_RELEASES,
             description="An output entry's README holds a string of a GitHub token's shape: the entry is refused. "
                         "The detector and its code are the consumer's own; only the refusal is compared."))
    add(Case("scan-local-path", "a README naming a local path",
             ("§7 Before import", "a recognised credential or local path refuses the entry"), ("scans",),
             [Release(tree("output", mutations=[{"op": "write", "file": f"{PATHS['output']}/README.md",
                                                 "text": "# Write-back\n\nRecorded from "
                                                         "/home/alice/exports/run.json\n"}]),
                      v1)], v1, "refuse", codes=("local-path",), entries=[not_offered("acme.writeback")],
             history=NO_RELEASES,
             description="An output entry's README names a home-directory path: the entry is refused; only the "
                         "refusal is compared."))

    # -- entry.json members and the reference chain (§3) --
    add(Case("assertion-mismatch", "an assertion that is not the fixed sentence",
             ("§7 Before import", "its members against §3"), ("entry-members",),
             [Release(tree("output", mutations=[set_member("output", "/assertion", "The author asserts this works.")]),
                      v1)], v1, "refuse", codes=("assertion-mismatch",), entries=[not_offered("acme.writeback")],
             history=NO_RELEASES,
             description="entry.json's assertion is another sentence: the entry is refused."))
    add(Case("entry-version-2", "an entryVersion 2 entry",
             ("§3", "A version-3 reader refuses version-1 and version-2 entries as entry-version-unread"),
             ("entry-members",),
             [Release(tree("output", mutations=[set_member("output", "/entryVersion", 2)]), v1)], v1, "refuse",
             codes=("entry-version-unread",), entries=[not_offered("acme.writeback")], history=NO_RELEASES,
             description="An output entry that says entryVersion 2 (its members are otherwise version 2's too): "
                         "entry-version-unread refuses the entry."))
    add(Case("reference-named-2-0-0", "a named family-2 document with its artifact pair",
             ("§3", "formatVersion, exactly \"2.0.0\" or \"3.0.0\""), ("reference-forms",),
             [Release(tree("named-2"), v1)], v1, "pass", entries=[offered("acme.vendors-family-2", "approved")],
             history=NO_RELEASES,
             description="A document in the named format 2.0.0 with its artifact pair and a recorded fixture: it "
                         "passes and the fixture replays.",
             none={"entries": [offered("acme.vendors-family-2", ("approved", VERSION_UNREAD))]}))
    named_path = PATHS["named"]
    add(Case("reference-both-selectors", "both selectors and a mismatched identity: the first refusal only",
             ("§3 Reference refusals", "The first applicable refusal is reported in the order below"),
             ("reference-forms",),
             [Release(tree("named", mutations=[set_member("named", "/dialect/dialectVersion", 3),
                                               set_member("named", "/artifact/id", "urn:judgmentpack:dialect:other")]),
                      v1)], v1, "refuse", codes=("dialect-reference-form",),
             entries=[not_offered("acme.vendors-named")],
             history=NO_RELEASES,
             description="Two defects on purpose, to hold §3's order: both selectors (dialect-reference-form) and an "
                         "artifact id that is not the document's (artifact-mismatch); only the first is reported."))
    add(Case("reference-format-mismatch", "a named reference to an integer-format document",
             ("§3 Reference refusals", "dialect-format-mismatch: a named reference with an integer-format document"),
             ("reference-forms",),
             [Release(tree("runner", mutations=[{"op": "remove", "file": f"{PATHS['runner']}/entry.json",
                                                 "pointer": "/dialect/dialectVersion"},
                                                set_member("runner", "/dialect/formatVersion", "3.0.0")]), v1)],
             v1, "refuse", codes=("dialect-format-mismatch",), entries=[not_offered("acme.vendors")],
             history=NO_RELEASES,
             description="The Runner export's entry refers to its integer-format document by formatVersion 3.0.0: "
                         "dialect-format-mismatch refuses the entry."))
    add(Case("reference-artifact-required", "a named document without its artifact pair",
             ("§3 Reference refusals", "artifact-required: an entry for a named-format input document without "
              "artifact"), ("reference-forms",),
             [Release(tree("named", mutations=[{"op": "remove", "file": f"{named_path}/entry.json",
                                                "pointer": "/artifact"}]), v1)], v1, "refuse",
             codes=("artifact-required",), entries=[not_offered("acme.vendors-named")], history=NO_RELEASES,
             description="A named-format entry with no artifact member: artifact-required refuses it."))
    add(Case("reference-artifact-forbidden", "an artifact pair on an integer-format document",
             ("§3 Reference refusals", "artifact-forbidden: artifact on an entry for an integer-format document"),
             ("reference-forms",),
             [Release(tree("runner", mutations=[set_member("runner", "/artifact",
                                                           {"id": ARTIFACT, "version": "0.1.0"})]), v1)], v1, "refuse",
             codes=("artifact-forbidden",), entries=[not_offered("acme.vendors")], history=NO_RELEASES,
             description="An artifact pair on the Runner export's integer-format entry: artifact-forbidden refuses "
                         "it."))
    add(Case("reference-artifact-malformed-first", "a leading-zero artifact version and a wrong digest: "
             "artifact-malformed alone",
             ("§3 Reference refusals", "then the artifact-* checks, then digest"), ("reference-forms",),
             [Release(tree("named", mutations=[set_member("named", "/artifact/version", "01.0.0"),
                                               set_member("named", "/dialect/digest", "sha256:" + "1" * 64)]), v1)],
             v1, "refuse", codes=("artifact-malformed",), entries=[not_offered("acme.vendors-named")],
             history=NO_RELEASES,
             description="Two defects on purpose, to hold §3's order: a leading-zero artifact version "
                         "(artifact-malformed) and a wrong dialect.digest (dialect-digest-mismatch); only the first "
                         "is reported."))
    add(Case("reference-artifact-mismatch", "an artifact id that is not the document's root id",
             ("§3 Reference refusals", "artifact-mismatch: either artifact member differs from the document's root "
              "member"), ("identity-equality",),
             [Release(tree("named", mutations=[set_member("named", "/artifact/id", "urn:judgmentpack:dialect:other")]),
                      v1)], v1, "refuse", codes=("artifact-mismatch",), entries=[not_offered("acme.vendors-named")],
             history=NO_RELEASES,
             description="A named entry whose artifact id is not its document's root id: artifact-mismatch refuses "
                         "it."))

    # -- presets (§§3, 5, 7) --
    add(Case("preset-form", "a preset passes its form check and is never offered as runnable",
             ("§7", "an unpaired preset is refused for running"), ("preset-form", "preset-not-runnable"),
             [Release(tree("preset"), v1)], v1, "pass", entries=[PRESET], history=NO_RELEASES,
             description="A valid preset: the release passes (a preset refuses nothing at import) and the preset is "
                         "listed with offered false, since it cannot run until a desk pairs it with a pack; §7's "
                         "\"refused for running\" is a refusal at running, not at import."))

    def bind_first(doc: dict) -> dict:
        doc = copy.deepcopy(doc)
        source = doc["sources"][0]
        for member in ("platform", "operation", "shape", "record"):
            source.pop(member)
        source.update({"profile": "vendors", "profileDigest": "sha256:" + "4" * 64})
        return doc

    preset_files = tree("preset")
    bound = bind_first(json.loads(preset_files[f"{PATHS['preset']}/dialect.json"]))
    add(Case("preset-bound-derivative", "a preset whose document has a bound source",
             ("§3", "a preset whose document has a bound source is refused as bound-derivative"),
             ("preset-form", "preset-not-runnable"),
             [Release(tree("preset", mutations=[{"op": "write", "file": f"{PATHS['preset']}/dialect.json",
                                                 "text": pretty(bound).decode("utf-8")},
                                                set_member("preset", "/dialect/digest", sha(stdlib_canon(bound)))]),
                      v1)], v1, "refuse", codes=("bound-derivative",), entries=[not_offered("acme.vendors-preset",
                                                                                            "preset")],
             history=NO_RELEASES,
             description="A preset whose first source is in the bound form (profile and profileDigest), its digests "
                         "re-pinned: bound-derivative refuses it."))
    add(Case("preset-named-reference", "a preset with a named reference",
             ("§3", "formatVersion on a preset is dialect-reference-form"), ("preset-form",),
             [Release(tree("preset", mutations=[{"op": "remove", "file": f"{PATHS['preset']}/entry.json",
                                                 "pointer": "/dialect/dialectVersion"},
                                                set_member("preset", "/dialect/formatVersion", "3.0.0")]), v1)],
             v1, "refuse", codes=("dialect-reference-form",), entries=[not_offered("acme.vendors-preset", "preset")],
             history=NO_RELEASES,
             description="A preset that refers to its document by formatVersion: dialect-reference-form refuses it."))

    # -- the duties a consumer could skip and still pass, and the points once left to a guess (issue #35) --
    from .kit_duties import duty_cases

    out += duty_cases(sys.modules[__name__])

    # -- signed releases: a capability beside the reader tiers (issue #36 item 6; kit_signing.py) --
    from .kit_signing import signing_cases

    return out + signing_cases()


def outputs(count: int) -> dict[str, bytes]:
    """A release of `count` valid output-only entries, acme.w0000 onward, and their manifest."""
    with tempfile.TemporaryDirectory(prefix="kit-tree-") as tmp:
        root = Path(tmp) / "catalog"
        builder = KitCatalog(root)
        for index in range(count):
            builder.add_output_entry(f"acme.w{index:04d}")
        builder.write_manifest()
        return dict(sorted(files_of(root).items()))


# --- fast-import streams and git ids, computed by hand ---------------------------------------------------

def blob_id(data: bytes) -> str:
    return hashlib.sha1(b"blob %d\0" % len(data) + data).hexdigest()


def tree_id(files: dict[str, bytes], absent: dict[str, str] | None = None) -> str:
    """The git tree id of a snapshot (files by path), computed by hand; `absent` gives directory trees
    that are pinned by id instead (a mktree-missing step's tree)."""
    absent = absent or {}
    nested: dict[str, Any] = {}
    for path, data in files.items():
        parts = path.split("/")
        node = nested
        for part in parts[:-1]:
            node = node.setdefault(part, {})
        node[parts[-1]] = data

    def hash_dir(node: dict, prefix: str) -> str:
        if prefix.rstrip("/") in absent:
            return absent[prefix.rstrip("/")]
        items = []
        for name, value in node.items():
            if isinstance(value, dict):
                child = bytes.fromhex(hash_dir(value, prefix + name + "/"))
                items.append((name + "/", b"40000 " + name.encode() + b"\0" + child))
            else:
                items.append((name, b"100644 " + name.encode() + b"\0" + bytes.fromhex(blob_id(value))))
        body = b"".join(item for _, item in sorted(items, key=lambda i: i[0].encode()))
        return hashlib.sha1(b"tree %d\0" % len(body) + body).hexdigest()

    return hash_dir(nested, "")


def _data(text: bytes) -> bytes:
    return b"data %d\n" % len(text) + text + b"\n"


def stream_of(releases: list[Release]) -> tuple[bytes, list[dict]]:
    """The case's fast-import stream, and the steps around it (mktree-missing before, update-ref after)."""
    out: list[bytes] = []
    marks: dict[bytes, int] = {}
    steps: list[dict] = []
    after: list[dict] = []
    mark = 0
    previous = None
    for index, release in enumerate(releases):
        when = b"%d +0000" % (EPOCH + index * 86400)
        who = IDENTITY.encode()
        absent_dirs: dict[str, str] = {}
        for path in release.absent:
            directory, name = path.rsplit("/", 1)
            children = {p.rsplit("/", 1)[1]: d for p, d in release.files.items() if p.rsplit("/", 1)[0] == directory}
            if any("/" in p[len(directory) + 1:] for p in release.files if p.startswith(directory + "/")):
                raise ValueError(f"{directory}: an absent file's directory holds only files")
            text = "".join(f"100644 blob {blob_id(children[n])}\t{n}\n" for n in sorted(children))
            body = b"".join(b"100644 " + n.encode() + b"\0" + bytes.fromhex(blob_id(children[n]))
                            for n in sorted(children))
            absent_dirs[directory] = hashlib.sha1(b"tree %d\0" % len(body) + body).hexdigest()
            steps.append({"op": "mktree-missing", "input": text, "object": absent_dirs[directory]})
        gone = set(release.absent) | set(release.generated)
        for path in release.generated:
            data = release.files[path]
            head = data.rstrip(b" ")
            step = {"op": "blob-generated", "head": head.decode("utf-8"), "fill": " ", "size": len(data),
                    "object": blob_id(data)}
            if step not in steps:
                steps.append(step)
        for path, data in release.files.items():
            if path in gone or data in marks:
                continue
            mark += 1
            marks[data] = mark
            out.append(b"blob\nmark :%d\n" % mark + _data(data))
        mark += 1
        commit = mark
        message = f"release {release.tag}\n" if release.tag else f"snapshot {index}\n"
        if release.root and previous is not None:
            out.append(b"reset refs/heads/main\n\n")  # the next commit has no parent
            previous = None
        out.append(b"commit refs/heads/main\nmark :%d\nauthor %s %s\ncommitter %s %s\n" % (mark, who, when, who, when)
                   + _data(message.encode()))
        if previous is not None:
            out.append(b"from :%d\n" % previous)
        out.append(b"deleteall\n")
        for directory, tree in sorted(absent_dirs.items()):
            out.append(b"M 040000 %s %s\n" % (tree.encode(), directory.encode()))
        for path, data in release.files.items():
            if any(path.startswith(d + "/") for d in absent_dirs):
                continue
            if any(c in path for c in "\n\" ") or path.startswith('"'):
                raise ValueError(f"{path!r}: the kit's paths need no quoting")
            if path in release.generated:
                out.append(b"M 100644 %s %s\n" % (blob_id(data).encode(), path.encode()))
                continue
            out.append(b"M 100644 :%d %s\n" % (marks[data], path.encode()))
        out.append(b"\n")
        previous = commit
        if release.tag is None:
            continue
        root = tree_id(release.files, absent_dirs)
        if release.annotated:
            target = root.encode() if release.to_tree else b":%d" % commit
            out.append(b"tag %s\nfrom %s\ntagger %s %s\n" % (release.tag.encode(), target, who, when)
                       + _data(f"release {release.tag}\n".encode()))
        elif release.to_tree:
            after.append({"op": "update-ref", "ref": f"refs/tags/{release.tag}", "object": root})
        else:
            out.append(b"reset refs/tags/%s\nfrom :%d\n\n" % (release.tag.encode(), commit))
    out.append(b"done\n")
    return b"".join(out), steps + after


# --- cases.json ----------------------------------------------------------------------------------------

def _release_key(tag: str) -> tuple[int, ...] | None:
    import re

    match = re.fullmatch(r"v(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)", tag)
    return tuple(int(g) for g in match.groups()) if match else None


def _imported(stream: bytes, steps: list[dict], work: Path) -> GitRepo:
    """The stream imported by git here (GitRepo, not the runner's code), its steps applied."""
    repo = GitRepo(work)
    for step in steps:
        if step["op"] == "blob-generated":
            data = step["head"].encode("utf-8") + b" " * (step["size"] - len(step["head"].encode("utf-8")))
            made = repo.git("hash-object", "-w", "--stdin", input=data)
            assert made == step["object"], (made, step["size"])
        if step["op"] == "mktree-missing":
            made = repo.git("mktree", "--missing", input=step["input"].encode())
            assert made == step["object"], (made, step)
    repo.fast_import(stream)
    for step in steps:
        if step["op"] == "update-ref":
            repo.git("update-ref", step["ref"], step["object"])
    return repo


def _refs(repo: GitRepo) -> dict[str, str]:
    out = repo.git("for-each-ref", "--format=%(refname) %(objectname)")
    return dict(line.split(" ", 1) for line in out.splitlines() if line)


def _commits(repo: GitRepo, refs: dict[str, str], releases: list[Release]) -> list[str]:
    """Each release's commit, in the stream's order: main's history, and where a release starts a history of
    its own, the histories before it too, through their tags (each commit is a day later than the last)."""
    if not any(release.root for release in releases):
        return repo.git("rev-list", "--reverse", "refs/heads/main").split()
    starts = ["refs/heads/main"] + [f"{ref}^{{commit}}" for ref in refs if ref.startswith("refs/tags/")
                                    and repo.git("cat-file", "-t", f"{ref}^{{}}") == "commit"]
    return repo.git("rev-list", "--reverse", "--date-order", *starts).split()


def record_of(case: Case, stream_name: str, stream: bytes, steps: list[dict], releases: list[Release],
              repo: GitRepo) -> dict:
    """One case's record in cases.json."""
    refs = _refs(repo)
    chain = _commits(repo, refs, releases)
    assert len(chain) == len(releases), (case.name, chain)
    tags = [ref[len("refs/tags/"):] for ref in refs if ref.startswith("refs/tags/")]
    lower = sorted((t for t in tags if _release_key(t) and _release_key(case.tag)
                    and _release_key(t) < _release_key(case.tag)), key=_release_key)
    assert list(case.held) in ([], lower), f"{case.name}: held is every previous release or none ({lower})"
    kind = repo.git("cat-file", "-t", f"refs/tags/{case.tag}^{{}}") if f"refs/tags/{case.tag}" in refs else None
    tag_commit = repo.rev(f"refs/tags/{case.tag}^{{commit}}") if kind == "commit" else None
    retained = None
    if case.retained is not None:
        release = releases[case.retained]
        data = release.files["manifest.json"]
        rows = json.loads(data)
        retained = {"tag": release.tag, "commit": chain[case.retained], "manifestDigest": sha(data),
                    "entries": [{"id": row["id"], "entryDigest": row["entryDigest"]} for row in rows]}
        if case.retained_digest is not None:
            retained["manifestDigest"] = case.retained_digest
        if case.kept_withdrawn:  # issue #34 item 4: each at the release it was imported at
            retained["withdrawn"] = [
                {"id": entry_id, "tag": releases[at].tag, "commit": chain[at],
                 "entryDigest": next(row["entryDigest"] for row in json.loads(releases[at].files["manifest.json"])
                                     if row["id"] == entry_id)}
                for entry_id, at in case.kept_withdrawn]
    tiers = {tier: verdict_record(case, tier) for tier in TIERS if tier not in NO_VERDICT_AT.get(case.name, ())}
    return {"name": case.name, "title": case.title, "description": case.description,
            "rfc": {"section": case.rfc[0], "words": case.rfc[1]}, "coverage": list(case.coverage),
            "stream": {"path": stream_name, "sha256": sha(stream)}, "steps": steps, "refs": refs,
            "tag": case.tag, "tagCommit": tag_commit, "retained": retained, "historyLimit": case.history_limit,
            "held": list(case.held), "strictness": case.strictness, "tiers": tiers}


def verdict_record(case: Case, tier: str) -> dict:
    """One tier's verdict in cases.json: the compared codes (RFC-named ones, or every code in a case of
    strictness project), and every code this project's consumer reports as `projectCodes`."""
    stated = case.verdict(tier)
    out: dict[str, Any] = {"result": stated["result"],
                           "codes": sorted(c for c in set(stated["codes"]) if case.strictness == "project"
                                           or rfc_named(c)),
                           "entries": stated["entries"]}
    for member in ("history", "withdrawn", "changed"):
        if stated[member] is not None:
            out[member] = stated[member]
    if tier == SPECIFICATION:
        out["broaderReader"] = case.broader
    out["projectCodes"] = sorted(set(stated["codes"]))
    return out


DOC = REPO / "docs" / "conformance.md"
TABLE_BEGIN, TABLE_END = "<!-- cases: generated by python -m tests.support.conformance -->", "<!-- end of cases -->"
CONTRACT_BEGIN = "<!-- contract: copied into the kit's README.md by python -m tests.support.conformance -->"
CONTRACT_END = "<!-- end of contract -->"

README = """# The consumer conformance kit (RFC 0019 §7)

Generated by `python -m tests.support.conformance` from judgment-pack-exchange's tests; do not edit. The
contract is that repository's docs/conformance.md; the part of it below, copied word for word, is what a
consumer must not guess. The texts replay rests on are restated in its docs/replay-texts.md.

- `cases.json` lists every case (its schema: `cases.schema.json`): what it holds (`title`, `description`,
  the RFC 0019 sentence), its repository, the consumer's state (tag, retained state, history limit, held
  releases), and its expected verdict at each reader tier (`tiers`).
- `<stream>.fi` is a case's catalog repository as a `git fast-import` stream (SHA-1, fixed identity and
  dates); `cases.json` pins its sha256, the steps around the import and every reference it makes.
- `verdict.schema.json` is the form of the one JSON object a consumer prints.

The kit ships inside the `judgment_exchange` package (`judgment_exchange/conformance/kit/`). Run it with
`exchange conformance run --tier TIER [--signing] [--kit DIR] [--keep DIR] [--case NAME ...] [-- COMMAND ...]`; list
its cases with `exchange conformance list`.

"""


def contract_section(page: str) -> str:
    """docs/conformance.md's contract section (between CONTRACT_BEGIN and CONTRACT_END), as the README copies it."""
    if CONTRACT_BEGIN + "\n" not in page or CONTRACT_END not in page.partition(CONTRACT_BEGIN)[2]:
        raise ValueError(f"{DOC}: the markers of the contract section are missing")
    return page.partition(CONTRACT_BEGIN + "\n")[2].partition(CONTRACT_END)[0]


def build(kit: Path = KIT) -> list[Path]:
    """Write the whole kit into `kit` (emptied first); the files written."""
    from .kit_signing import signed_stream, signing_record

    if kit.exists():
        shutil.rmtree(kit)
    kit.mkdir(parents=True)
    records = []
    streams: dict[str, tuple[bytes, list[dict], list[Release]]] = {}
    with tempfile.TemporaryDirectory(prefix="kit-build-") as tmp:
        for case in cases():
            signing = getattr(case, "signing", None)  # a signing case (kit_signing.py): its tags signed
            if case.stream is None:
                if signing is not None:
                    stream, steps, ids = signed_stream(case.releases, signing)
                else:
                    stream, steps = stream_of(case.releases)
                streams[case.name] = (stream, steps, case.releases)
                (kit / f"{case.name}.fi").write_bytes(stream)
            name = case.stream or case.name
            stream, steps, releases = streams[name]
            repo = _imported(stream, steps, Path(tmp) / case.name)
            record = record_of(case, f"{name}.fi", stream, steps, releases, repo)
            records.append(signing_record(case, record, ids) if signing is not None else record)
    document = {"kitVersion": KIT_VERSION, "objectFormat": "sha1", "contract": "docs/conformance.md",
                "codes": {"rfc": list(RFC_NAMED)}, "tiers": TIER_READERS, "cases": records}
    (kit / "cases.json").write_bytes((json.dumps(document, indent=1, ensure_ascii=True) + "\n").encode("ascii"))
    for schema in (CASES_SCHEMA, VERDICT_SCHEMA):
        (kit / schema.removeprefix("conformance-")).write_bytes((SCHEMAS / schema).read_bytes())
    (kit / "README.md").write_text(README + contract_section(DOC.read_text(encoding="utf-8")), encoding="utf-8")
    return sorted(kit.iterdir())


def _outcome(verdict: dict | None) -> str:
    if verdict is None:
        return "no verdict"
    return verdict["result"] + "".join(f" `{c}`" for c in verdict["codes"])


def cases_table(records: list[dict]) -> str:
    """docs/conformance.md's table of the cases, from cases.json's records."""
    lines = ["| case | specification | none | what it holds | RFC 0019 |", "|---|---|---|---|---|"]
    for record in records:
        tiers = record["tiers"]
        spec = tiers.get(SPECIFICATION)
        marks = [m for m, on in (("strictness: project", record["strictness"] == "project"),
                                 ("a broader reader may answer not applicable",
                                  spec is not None and spec["broaderReader"] == MAY_DECLINE)) if on]
        holds = record["title"] + (f" ({'; '.join(marks)})" if marks else "")
        lines.append(f"| `{record['name']}` | {_outcome(spec)} | {_outcome(tiers.get(NONE))} | "
                     f"{holds.replace('|', '/')} | {record['rfc']['section']}: \"{record['rfc']['words']}\" |")
    return "\n".join(lines) + "\n"


def with_table(page: str, records: list[dict]) -> str:
    """The page with its generated table replaced (between TABLE_BEGIN and TABLE_END)."""
    if TABLE_BEGIN + "\n" not in page or TABLE_END not in page.partition(TABLE_BEGIN)[2]:
        raise ValueError(f"{DOC}: the markers of the generated table are missing")
    head, _, rest = page.partition(TABLE_BEGIN + "\n")
    _, _, tail = rest.partition(TABLE_END)
    return head + TABLE_BEGIN + "\n" + cases_table(records) + TABLE_END + tail


def doc_is_current(kit: Path = KIT) -> bool:
    records = json.loads((kit / "cases.json").read_text(encoding="utf-8"))["cases"]
    page = DOC.read_text(encoding="utf-8")
    return with_table(page, records) == page


def differences(committed: Path = KIT) -> list[str]:
    """Each file of `committed` that differs from a fresh build (missing, extra or other bytes)."""
    with tempfile.TemporaryDirectory(prefix="kit-fresh-") as tmp:
        fresh = Path(tmp) / "kit"
        build(fresh)
        names = {p.name for p in fresh.iterdir()}
        names |= {p.name for p in committed.iterdir()} if committed.is_dir() else set()
        out = []
        for name in sorted(names):
            a, b = committed / name, fresh / name
            if not a.is_file() or not b.is_file() or a.read_bytes() != b.read_bytes():
                out.append(name)
        return out


def main(argv: list[str]) -> int:
    """No argument: rewrite the kit and docs/conformance.md's table; `--check`: exit 1 naming each stale file."""
    if argv == ["--check"]:
        stale = differences()
        for name in stale:
            print(f"{(KIT / name).relative_to(REPO)} differs from a fresh build: run python -m "
                  "tests.support.conformance", file=sys.stderr)
        if not stale and not doc_is_current():
            stale = ["docs/conformance.md"]
            print("docs/conformance.md's table of cases is stale: run python -m tests.support.conformance",
                  file=sys.stderr)
        return 1 if stale else 0
    if argv:
        print("usage: python -m tests.support.conformance [--check]", file=sys.stderr)
        return 3
    for path in build():
        print(path.relative_to(REPO))
    records = json.loads((KIT / "cases.json").read_text(encoding="utf-8"))["cases"]
    DOC.write_text(with_table(DOC.read_text(encoding="utf-8"), records), encoding="utf-8")
    print(DOC.relative_to(REPO))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
