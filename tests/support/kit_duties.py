"""The kit's cases for the duties issue #35 found unheld: each check a second consumer could switch off and still
pass the kit (the dialect form checker, entry.json's member forms, sourceKinds, the binding document's form,
output.json's version, the retained manifestDigest, the catalog's stray files, a held release's artifact-pair
form, the entry directory's closed file set, canonical member order by code point), and the points the contract
had left to a guess (upgrade keys with no earlier release, which tags count for history, a retained release also
held). Each defect case plants exactly one defect; each names its near miss, which passes.

Every verdict is stated by hand from the RFC 0019 (or dialect) sentence the case names, as in conformance.py.
"""

from __future__ import annotations

import copy
import json
from typing import Any

from .catalog import pretty, sha, stdlib_canon

ADMITTED = ["asserted", "record"]
BMP, ASTRAL = "/registry/\uff61", "/registry/\U0001f600"
"""Two fact targets whose order by code point (U+FF61 first) is the reverse of their order by UTF-16 code unit
(U+1F600 is the surrogate pair D83D DE00, below FF61)."""


def utf16_canon(value: Any) -> bytes:
    """canon with members sorted by UTF-16 code unit instead of by code point: a wrong canon, which differs from
    the right one only where two member names differ at a character outside the BMP."""
    def order(node: Any) -> Any:
        if isinstance(node, dict):
            return {k: order(node[k]) for k in sorted(node, key=lambda k: k.encode("utf-16-be"))}
        if isinstance(node, list):
            return [order(item) for item in node]
        return node

    return json.dumps(order(value), ensure_ascii=False, separators=(",", ":")).encode("utf-8")


def selected_file(c) -> dict[str, bytes]:
    """A release of one version-3 entry, acme.vendors-file, whose one source is a selected-file of provider
    local-file (class asserted: no profile, nothing acquired through a gateway), with one recorded fixture."""
    import tempfile
    from pathlib import Path

    from .catalog import runner_export
    from .gitrepo import files_of

    with tempfile.TemporaryDirectory(prefix="kit-tree-") as tmp:
        root = Path(tmp) / "catalog"
        builder = c.KitCatalog(root)
        export = runner_export()
        mapping = export["mapping"]
        doc = {"version": 3, "case": mapping["case"], "sources": [
            {"name": "vendor", "kind": "selected-file", "provider": "local-file",
             "read": mapping["sources"][0]["read"]}]}
        path = builder._dir("acme.vendors-file")
        (path / "dialect.json").write_bytes(pretty(doc))
        entry = builder._base("acme.vendors-file", "dialect", "input", ["selected-file"])
        entry["dialect"] = {"path": "dialect.json", "dialectVersion": 3, "digest": sha(stdlib_canon(doc))}
        export["sources"] = {}
        builder._finish(path, entry, ["selected-file"], [builder._fixture(path, "vendor-7", export)])
        builder.write_manifest()
        return dict(sorted(files_of(root).items()))


def duty_cases(c) -> list:
    """The cases, in cases.json's order; `c` is tests.support.conformance (its Case, Release, tree and verdicts)."""
    Case, Release, tree, PATHS = c.Case, c.Release, c.tree, c.PATHS
    set_member, not_offered, offered = c.set_member, c.not_offered, c.offered
    NO_RELEASES, CHECKED, UNCHECKED = c.NO_RELEASES, c.CHECKED, c.UNCHECKED
    RUNNER, RUNNER_NONE, OUTPUT, PRESET = c.RUNNER, c.RUNNER_NONE, c.OUTPUT, c.PRESET
    v1 = "v0.1.0"
    out: list = []
    add = out.append

    # -- the dialect form checker (§7 "its own form checker"; dialect §§2-8, 12), carried by a preset --
    preset_path = PATHS["preset"]
    preset_doc = json.loads(tree("preset")[f"{preset_path}/dialect.json"])
    near = copy.deepcopy(preset_doc)
    near["sources"][1]["read"] = {"copy": {
        "facts": [{"target": "/registry/region", "source": "/region"}, {"target": "/registry/id", "source": "/id"}],
        "evidence": [{"requirement": "sponsor-endorsement", "source": "/endorsement"}]}}

    def preset_with(doc: dict, digest: str | None = None) -> dict[str, bytes]:
        """The preset with `doc` as its dialect.json, dialect.digest re-pinned (by `digest` when given)."""
        return tree("preset", mutations=[
            {"op": "write", "file": f"{preset_path}/dialect.json", "text": pretty(doc).decode("utf-8")},
            set_member("preset", "/dialect/digest", digest or sha(stdlib_canon(doc)))])

    def variant(change) -> dict:
        doc = copy.deepcopy(near)
        change(doc)
        return doc

    form = ("§7 Before import", "each input dialect, of either entry kind, is held to its document's form as in §4 by "
            "the consumer's own form checker")
    add(Case("dialect-form-near-miss", "a preset whose second source reads by a copy of two distinct fact targets and "
             "one requirement", form, ("dialect-form",),
             [Release(preset_with(near), v1)], v1, "pass", entries=[PRESET], history=NO_RELEASES,
             description="The near miss of every dialect-form case: preset-form's preset with its registry source's "
                         "rule replaced by a copy read — two fact copies to distinct targets (/registry/region, "
                         "/registry/id) and one evidence copy — and dialect.digest re-pinned. The document is in "
                         "form (dialect §6.2), so the preset passes, listed and not offered."))
    defects = [
        ("dialect-read-unknown-member", "an unknown member in a read",
         lambda d: d["sources"][1]["read"].update(extra=1),
         "the registry source's read carries a member `extra` beside copy (a read is closed: dialect §6)"),
        ("dialect-copy-unknown-member", "an unknown member in a read's copy",
         lambda d: d["sources"][1]["read"]["copy"].update(extra=[]),
         "the copy carries a member `extra` beside facts and evidence (\"copy is an object of exactly facts ... and "
         "evidence\", dialect §6.2)"),
        ("dialect-copy-entry-unknown-member", "an unknown member in a fact copy",
         lambda d: d["sources"][1]["read"]["copy"]["facts"][0].update(extra="x"),
         "the first fact copy carries a member `extra` beside target and source (\"each entry exactly those "
         "members\", dialect §6.2)"),
        ("dialect-rule-unknown-member", "an unknown member in a read's rule",
         lambda d: d["sources"][0]["read"]["rule"].update(extra=1),
         "the vendor source's rule carries a member `extra` (the rule is closed: dialect §6.3)"),
        ("dialect-claim-unknown-member", "an unknown member in a rule's claim form",
         lambda d: d["sources"][0]["read"]["rule"]["clauses"][0]["claim"].update(extra=1),
         "the first clause's claim form carries a member `extra` (\"A claim form is an object of exactly facts ... "
         "evidence ... and acquisitionStatus\", dialect §6.3)"),
        ("dialect-copy-target-twice", "a copy target given twice",
         lambda d: d["sources"][1]["read"]["copy"]["facts"].append({"target": "/registry/region", "source": "/id"}),
         "a third fact copy writes /registry/region again (\"No fact target of one source may equal another\", "
         "dialect §8.1)"),
        ("dialect-copy-requirement-twice", "a copy naming one requirement twice",
         lambda d: d["sources"][1]["read"]["copy"]["evidence"].append(
             {"requirement": "sponsor-endorsement", "source": "/id"}),
         "a second evidence copy names sponsor-endorsement again (\"A copy names each requirement at most once\", "
         "dialect §6.2)"),
        ("dialect-target-prefix", "a fact target that is a prefix of another by whole tokens",
         lambda d: d["sources"][1]["read"]["copy"]["facts"].append({"target": "/registry/region/code",
                                                                     "source": "/id"}),
         "a third fact copy writes /registry/region/code under /registry/region (\"or be a prefix of another by "
         "whole tokens\", dialect §8.1)"),
        ("dialect-target-empty", "a fact target that is the empty pointer",
         lambda d: d["sources"][1]["read"]["copy"]["facts"].append({"target": "", "source": "/id"}),
         "a third fact copy's target is \"\" (\"A fact target is a pointer other than the empty string\", dialect "
         "§8)"),
        ("dialect-parameter-type", "a case parameter of a type the dialect does not define",
         lambda d: d["case"]["parameters"]["region"].update(type="float"),
         "the case parameter region says type float (\"string, integer or timestamp\", dialect §3)"),
        ("dialect-source-unknown-member", "an unknown member of a source",
         lambda d: d["sources"][0].update(extra=1),
         "the vendor source carries a member `extra` (a source is an object of exactly its kind's members, "
         "dialect §4)"),
        ("dialect-root-unknown-member", "an unknown member of the dialect document",
         lambda d: d.update(extra=1),
         "the document carries a root member `extra` (the document is closed: dialect §2)"),
    ]
    for name, title, change, how in defects:
        add(Case(name, title, form, ("dialect-form",),
                 [Release(preset_with(variant(change)), v1)], v1, "refuse", codes=("input-malformed",),
                 entries=[not_offered("acme.vendors-preset", "preset")], history=NO_RELEASES,
                 description=f"dialect-form-near-miss's preset with one defect: {how}; dialect.digest re-pinned over "
                             "the document as written, so only the form checker sees it. input-malformed refuses "
                             "the preset at every tier: the form check needs no preparation reader."))

    # -- a named format's own rule (dialect §2.1) --
    add(Case("dialect-named-legacy-member", "a named 3.0.0 document carrying version 2's root member provider",
             form, ("dialect-form",),
             [Release(tree("named", mutations=[{"op": "set-dialect", "entry": PATHS["named"], "pointer": "/provider",
                                                "value": ""}]), v1)], v1, "refuse", codes=("input-malformed",),
             entries=[not_offered("acme.vendors-named")], history=NO_RELEASES,
             description="The named entry's document (formatVersion 3.0.0) with a root member provider \"\", which "
                         "version 2 alone has (\"Both named formats apply the version-3 encoding rule to the whole "
                         "document, including the forbidden legacy root members\", §3; dialect §2.1); dialect.digest "
                         "re-pinned. input-malformed refuses the entry at every tier. The near miss is "
                         "release-every-kind's acme.vendors-named."))

    # -- a bound at its edge: 256 fact targets in all (dialect §§8.1, 12) --
    def targets(count: int) -> dict:
        """near with the registry source's copy writing `count` targets; with the vendor rule's one, count + 1."""
        doc = copy.deepcopy(near)
        doc["sources"][1]["read"]["copy"]["facts"] = [{"target": f"/registry/t{i:03d}", "source": f"/t{i:03d}"}
                                                      for i in range(count)]
        return doc

    edge = ("§7 Before import", "each file's bounds (§3 and RFC 0018 §12)")
    add(Case("dialect-fact-targets-at-bound", "a dialect of exactly 256 fact targets", edge, ("dialect-form",),
             [Release(preset_with(targets(255)), v1)], v1, "pass", entries=[PRESET], history=NO_RELEASES,
             description="dialect-form-near-miss's preset whose registry copy writes 255 distinct fact targets, with "
                         "the vendor rule's /request 256 in all: at dialect §8.1's bound of 256, so the preset "
                         "passes."))
    add(Case("dialect-fact-targets-over-bound", "a dialect of 257 fact targets", edge, ("dialect-form",),
             [Release(preset_with(targets(256)), v1)], v1, "refuse", codes=("input-over-bound",),
             entries=[not_offered("acme.vendors-preset", "preset")], history=NO_RELEASES,
             description="The same with one more copy target, 257 in all, one over the bound: input-over-bound "
                         "refuses the preset at every tier."))

    # -- canonical member order by code point (RFC 0018 §10), members outside the BMP --
    astral = copy.deepcopy(preset_doc)
    astral["sources"][1]["read"] = {"copy": {
        "facts": [{"target": BMP, "source": "/region"}, {"target": ASTRAL, "source": "/id"}],
        "evidence": [{"requirement": "sponsor-endorsement", "source": "/endorsement"}]}}
    astral["admits"] = {"facts": {BMP: ADMITTED, ASTRAL: ADMITTED}}
    assert stdlib_canon(astral) != utf16_canon(astral)
    canon = ("§7 Before import", "dialect.digest over the whole document's canonical bytes")
    add(Case("canonical-order-outside-bmp", "canonical member order by code point, with a member name outside the BMP",
             canon, ("digests", "canonical-order"),
             [Release(preset_with(astral), v1)], v1, "pass", entries=[PRESET], history=NO_RELEASES,
             description="A preset whose admits.facts has two members, /registry/\\uff61 and /registry/\\ud83d\\ude00 "
                         "(U+1F600), each a fact target its copy writes; dialect.digest is over canon with members "
                         "ordered by code point (U+FF61 first). A consumer that orders by UTF-16 code unit (U+1F600 "
                         "first, as its surrogates D83D DE00 sort below FF61) computes another digest and refuses; "
                         "this case passes."))
    add(Case("canonical-order-utf16", "a dialect.digest computed with members in UTF-16 order",
             canon, ("digests", "canonical-order"),
             [Release(preset_with(astral, sha(utf16_canon(astral))), v1)], v1, "refuse",
             codes=("dialect-digest-mismatch",), entries=[not_offered("acme.vendors-preset", "preset")],
             history=NO_RELEASES,
             description="canonical-order-outside-bmp's preset with dialect.digest computed over the members ordered "
                         "by UTF-16 code unit: not the document's canonical digest, so dialect-digest-mismatch refuses "
                         "it; a consumer sorting by UTF-16 would pass it."))

    # -- entry.json's members against §3 --
    members = ("§7 Before import", "its members against §3")
    for name, title, mutation, code, how in [
        ("entry-member-unknown", "an entry.json member §3 does not define", set_member("output", "/extra", 1),
         "entry-member-unknown", "an output entry's entry.json carries a member `extra` (entry.json is closed)"),
        ("entry-member-invalid", "an entry.json member out of its form", set_member("output", "/title", 5),
         "entry-member-invalid", "an output entry's title is the number 5, not a string"),
        ("entry-member-missing", "an entry.json without a required member",
         {"op": "remove", "file": f"{PATHS['output']}/entry.json", "pointer": "/licence"},
         "entry-member-missing", "an output entry's entry.json has no licence"),
    ]:
        add(Case(name, title, members, ("entry-members",),
                 [Release(tree("output", mutations=[mutation]), v1)], v1, "refuse", codes=(code,),
                 entries=[not_offered("acme.writeback")], history=NO_RELEASES,
                 description=f"{how}, pinned by its row: the entry is refused and listed, not offered; the near miss "
                             "is release-every-kind's output entry."))
    add(Case("entry-source-kinds-mismatch", "sourceKinds that are not the document's kinds",
             ("§3", "sourceKinds (the source kinds the dialect uses, from RFC 0018's list)"), ("source-kinds",),
             [Release(tree("unbound", mutations=[{"op": "set", "file": "entries/acme/tickets/entry.json",
                                                  "pointer": "/sourceKinds",
                                                  "value": ["operation", "research"]}]),
                      v1)], v1, "refuse", codes=("source-kinds-mismatch",), entries=[not_offered("acme.tickets")],
             history=NO_RELEASES,
             description="The unbound version-3 entry, whose document's one source is of kind operation, lists "
                         "sourceKinds [operation, research] (each a kind version 3 defines): the list is in form but "
                         "is not the set of the document's kinds, so the entry is refused. The near miss is "
                         "release-real-export, two operation sources listed as [operation]."))
    add(Case("output-version-mismatch", "an entry whose outputVersion is not output.json's",
             ("§3", "outputVersion is an integer of 1 or more, equal to the integer the document's outputVersion "
              "spells"), ("output-form",),
             [Release(tree("output", mutations=[set_member("output", "/output/outputVersion", 2)]), v1)], v1,
             "refuse", codes=("output-version-mismatch",), entries=[not_offered("acme.writeback")],
             history=NO_RELEASES,
             description="entry.json's output.outputVersion says 2 while output.json's outputVersion is \"1\": the "
                         "entry is refused. The near miss is release-every-kind's output entry, whose versions "
                         "agree."))

    # -- verification records and their reader locators (§3) --
    record = {"date": "2026-10-14", "runner": "v0.12.0", "runtime": "v1.0.0",
              "readers": ["example-org/judgment-pack-spec/tools/dialect_verify.py@0123abc"], "result": "agree"}
    recorded = ("§3", "a wrong form or an exceeded bound refuses the verification record and its entry")
    add(Case("verification-record", "a verification record in form (the records' near miss)", recorded,
             ("entry-members",),
             [Release(tree("runner", mutations=[set_member("runner", "/verification", [record])]), v1)], v1, "pass",
             entries=[RUNNER], history=NO_RELEASES,
             description="The Runner export's entry with one verification record {date, runner, runtime, readers, "
                         "result} in §3's form, its reader locator <owner>/<name>/<path>@<commit>: the entry passes "
                         "and its fixture replays.",
             none={"entries": [RUNNER_NONE]}))
    for name, title, change, code, how in [
        ("verification-record-invalid", "a verification record out of form", {"result": "disagree"},
         "verification-record-invalid", "the record's result is \"disagree\", not exactly \"agree\""),
        ("reader-locator-invalid", "a verification record's reader locator out of form",
         {"readers": ["example-org/judgment-pack-spec/../dialect_verify.py@0123abc"]}, "reader-locator-invalid",
         "the record's reader locator has a .. path segment"),
    ]:
        add(Case(name, title, recorded, ("entry-members",),
                 [Release(tree("runner", mutations=[set_member("runner", "/verification", [record | change])]), v1)],
                 v1, "refuse", codes=(code,), entries=[not_offered("acme.vendors")], history=NO_RELEASES,
                 description=f"verification-record's entry, except that {how}: the record and its entry are refused "
                             "(listed, not offered) at every tier."))

    # -- a scaffold placeholder left in a released entry (this project's stricter rule) --
    add(Case("placeholder-value", "an entry title still holding the scaffold's placeholder (this project's rule)",
             ("§7 Before import", "its members against §3"), ("placeholder-value",),
             [Release(tree("output", mutations=[set_member("output", "/title", "Write-back (describe it)")]), v1)],
             v1, "refuse", codes=("placeholder-value",), entries=[not_offered("acme.writeback")],
             history=NO_RELEASES, strictness="project",
             description="This project's stricter rule: a value `exchange new` writes as a placeholder, left in a "
                         "released entry (here the title's \"(describe it)\"), refuses the entry "
                         "(docs/entry-format.md, placeholder-value). A consumer without the rule answers "
                         "notApplicable; the near miss is release-every-kind's output entry, titled in full."))

    # -- the entry directory's closed file set (§3) --
    add(Case("entry-file-unexpected", "a file in an entry directory that §3 does not list",
             ("§3", "An entry is one directory entries/<publisher>/<name>/ holding, as separate files with these "
              "names"), ("entry-file-set",),
             [Release(tree("output", mutations=[{"op": "write", "file": f"{PATHS['output']}/notes.txt",
                                                 "text": "Notes.\n"}]), v1)], v1, "refuse",
             codes=("entry-file-unexpected",), entries=[not_offered("acme.writeback")], history=NO_RELEASES,
             description="An output entry's directory holds notes.txt beside entry.json, README.md and output.json: "
                         "the file set is closed, so the entry is refused (listed, not offered). The near miss is "
                         "release-every-kind, each entry directory holding exactly its files."))

    # -- the entry's and its fixtures' file sets and files (§3; every import-refusal code a case: issue #35) --
    OUT, R = PATHS["output"], PATHS["runner"]
    fixture = f"{R}/fixtures/vendor-7"
    files = ("§3", "An entry is one directory entries/<publisher>/<name>/ holding, as separate files with these names")
    output_doc = json.loads(tree("output")[f"{OUT}/output.json"])
    bad_output = dict(output_doc, outputVersion="2")
    for name, title, base, mutations, codes, how, near_miss in [
        ("entry-file-missing", "an entry directory without its README.md", "output",
         [{"op": "delete", "file": f"{OUT}/README.md"}], ("entry-file-missing",),
         "an output entry without README.md, which every entry holds (§3)", "release-every-kind"),
        ("entry-file-not-regular", "a directory where an entry's file belongs", "output",
         [{"op": "delete", "file": f"{OUT}/README.md"}, {"op": "write", "file": f"{OUT}/README.md/notes.txt",
                                                      "text": "Notes.\n"}],
         ("entry-file-not-regular",), "an output entry whose README.md is a directory (holding notes.txt)",
         "release-every-kind"),
        ("entry-member-forbidden", "a preset carrying fixtures", "preset",
         [set_member("preset", "/fixtures", [])], ("entry-member-forbidden",),
         "a preset whose entry.json carries fixtures [] (\"a pack or fixtures on a preset ... refuses the entry\", "
         "§3)", "preset-form"),
        ("fixture-directory-missing", "a listed fixture whose directory is absent", "runner",
         [{"op": "delete", "file": fixture}], ("entry-file-missing", "manifest-fixtures-mismatch"),
         "the Runner export's entry lists vendor-7, whose fixtures/vendor-7/ the tree does not hold (the row lists "
         "no file for it)", "release-real-export"),
        ("fixture-listed-missing", "a second listed fixture whose directory is absent", "runner",
         [set_member("runner", "/fixtures/-", {"name": "vendor-8", "path": "fixtures/vendor-8",
                                               "preparationDigest": "sha256:" + "5" * 64})],
         ("fixture-missing", "manifest-fixtures-mismatch"),
         "the Runner export's entry lists a second fixture, vendor-8, whose fixtures/vendor-8/ the tree does not "
         "hold (fixtures/vendor-7/ is there)", "release-real-export"),
        ("fixture-unexpected", "a fixture directory entry.json does not list", "runner",
         [{"op": "write", "file": f"{R}/fixtures/other/case.json", "text": "{}\n"}], ("fixture-unexpected",),
         "the Runner export's entry with a second directory fixtures/other/ that entry.json does not list",
         "release-real-export"),
        ("fixture-file-missing", "a fixture without its case.json", "runner",
         [{"op": "delete", "file": f"{fixture}/case.json"}], ("fixture-file-missing",),
         "the fixture vendor-7 without case.json (the row's list agrees with the tree)", "release-real-export"),
        ("fixture-file-unexpected", "a file in a fixture directory outside the fixture file set", "runner",
         [{"op": "write", "file": f"{fixture}/notes.txt", "text": "Notes.\n"}], ("fixture-file-unexpected",),
         "the fixture vendor-7 holding notes.txt, listed in its row (the fixture file set is closed)",
         "release-real-export"),
        ("output-malformed", "an output document out of RFC 0018 §10's form", "output",
         [{"op": "write", "file": f"{OUT}/output.json", "text": json.dumps(bad_output, indent=2) + "\n"},
          set_member("output", "/output/digest", sha(stdlib_canon(bad_output)))], ("output-malformed",),
         "an output entry whose output.json spells outputVersion \"2\", a version RFC 0018 §10 does not define "
         "(its digests re-pinned)", "release-every-kind"),
        ("preparation-not-canonical", "a preparation.json that is not in canonical bytes", "runner",
         [{"op": "pretty", "file": f"{fixture}/preparation.json"}, {"op": "redigest-preparation", "entry": R}],
         ("preparation-not-canonical",),
         "the fixture's preparation.json indented and pinned anew (its preparationDigest holds): not dialect §9.5's "
         "canonical bytes, which needs no reader to see", "release-real-export"),
        ("binding-required", "an unbound source's fixture without its binding document", "unbound",
         [{"op": "delete", "file": "entries/acme/tickets/fixtures/open/binding.json"}], ("binding-required",),
         "the unbound entry's fixture without binding.json, though its dialect has an unbound source",
         "release-every-kind"),
    ]:
        add(Case(name, title, files, ("entry-file-set",) if "fixture" not in name else ("fixture-file-sets",),
                 [Release(tree(base, mutations=mutations), v1)], v1, "refuse", codes=codes,
                 entries=[not_offered({"output": "acme.writeback", "runner": "acme.vendors", "preset":
                                       "acme.vendors-preset", "unbound": "acme.tickets"}[base],
                                      "preset" if base == "preset" else "dialect")],
                 history=NO_RELEASES,
                 description=f"{how}: the entry is refused and listed, not offered, at every tier (no reader is "
                             f"needed). The near miss is {near_miss}."))

    # -- strict JSON and its bounds, and the README's links (§7 "a failed ... form ... or scan check") --
    entry_text = tree("output")[f"{OUT}/entry.json"].decode("utf-8")
    strict = ("§7 Before import", "A failed digest, form, file-set, bound or scan check refuses the entry before it "
              "is offered for import")
    readme = f"{OUT}/README.md"
    for name, title, mutation, code, how, near_miss in [
        ("entry-json-duplicate-member", "an entry.json naming one member twice",
         {"op": "write", "file": f"{OUT}/entry.json",
          "text": entry_text.replace('"entryVersion": 3,', '"entryVersion": 3,\n  "entryVersion": 3,')},
         "json-malformed", "an output entry's entry.json gives entryVersion twice, with one value (not strict JSON: "
         "dialect §1's strict reading, which §3 applies to every catalog document)", "release-every-kind"),
        ("entry-json-number-over-bound", "an entry.json holding a number beyond the JSON bounds",
         {"op": "write", "file": f"{OUT}/entry.json",
          "text": entry_text.replace('"entryVersion": 3,', '"entryVersion": 3' + "0" * 400 + ",")},
         "json-over-bound", "an output entry's entryVersion is a 401-digit integer, beyond dialect §12's number "
         "bounds, so the document is refused before its members are read", "release-every-kind"),
        ("readme-link-missing", "a README linking to a file the entry does not hold",
         {"op": "write", "file": readme, "text": "# Write-back\n\nSee [the notes](notes.md).\n"},
         "readme-link-missing", "an output entry's README.md links to notes.md, which the entry does not hold",
         "readme-link-web"),
        ("readme-link-outside", "a README linking outside its entry directory",
         {"op": "write", "file": readme, "text": "# Write-back\n\nSee [another](../../other/README.md).\n"},
         "readme-link-outside", "an output entry's README.md links to ../../other/README.md, outside its entry "
         "directory", "readme-link-web"),
    ]:
        add(Case(name, title, strict if code.startswith("json") else
                 ("§7 Before import", "a recognised credential or local path refuses the entry"),
                 ("entry-members",) if code.startswith("json") else ("scans",),
                 [Release(tree("output", mutations=[mutation]), v1)], v1, "refuse", codes=(code,),
                 entries=[not_offered("acme.writeback")], history=NO_RELEASES,
                 description=f"{how}: the entry is refused and listed, not offered, at every tier. The near miss is "
                             f"{near_miss}." + ("" if code.startswith("json") else
                                                " The scan and its code are this project's; only the refusal is "
                                                "compared.")))
    add(Case("readme-link-web", "a README linking to a web page (the README links' near miss)",
             ("§7 Before import", "a recognised credential or local path refuses the entry"), ("scans",),
             [Release(tree("output", mutations=[{"op": "write", "file": readme,
                                                 "text": "# Write-back\n\nSee [the gateway](https://example.org/"
                                                         "gateway).\n"}]), v1)], v1, "pass", entries=[OUTPUT],
             history=NO_RELEASES,
             description="An output entry's README.md links to an https page: no local file is named, so the entry "
                         "passes."))

    # -- skips.json as a directory, and a stale acknowledgement (this project's stricter rules) --
    add(Case("skips-not-regular", "a skips.json committed as a directory (this project's rule)",
             ("§4", "a fixture whose source kind the specification's verifier refuses as kind-unread is held by its "
              "digests only"), ("skip-acknowledgement",),
             [Release(tree("http", files={"skips.json/rows": b"[]\n"}), v1)], v1, "refuse",
             codes=("skips-malformed",), strictness="project",
             description="This project's stricter rule: skips.json, where the catalog holds one, is a regular file; "
                         "a directory of that name cannot be read as the acknowledgements and refuses the catalog's "
                         "import (entries []), as one out of its form does. The near miss is skip-acknowledged."))
    stale = json.dumps([{"entry": "acme.vendors", "fixture": "vendor-7",
                         "why": "Said to be unread; the reader recomputes it."}], indent=2) + "\n"
    add(Case("skip-acknowledgement-stale", "skips.json acknowledging a fixture the reader recomputes (this "
             "project's rule)", ("§4", "the test skips recomputation and says why"), ("skip-acknowledgement",),
             [Release(tree("runner", files={"skips.json": stale.encode("ascii")}), v1)], v1, "refuse",
             codes=("skip-acknowledgement-stale",), entries=[not_offered("acme.vendors")], history=NO_RELEASES,
             strictness="project",
             description="This project's stricter rule: an acknowledgement in skips.json names a fixture the "
                         "consumer's reader does not skip, so the acknowledgement is stale and the entry is refused. "
                         "The reader decides it: at tier none every fixture is skipped, the acknowledgement holds, "
                         "and the entry is offered with its fixture skipped as version-unread. The near miss is "
                         "skip-acknowledged.",
             none={"result": "pass", "codes": (), "entries": [RUNNER_NONE]}))

    # -- sizes at and one past their edge, generated rather than stored (issue #35 item 3) --
    MIB = 1024 * 1024
    sources = f"{fixture}/sources.json"

    def fixture_of_size(total: int) -> dict[str, bytes]:
        files = dict(tree("runner"))
        others = sum(len(d) for p, d in files.items() if p.startswith(fixture + "/") and p != sources)
        files[sources] = files[sources] + b" " * (total - others - len(files[sources]))
        return files

    add(Case("fixture-over-bound", "a fixture directory of 16 MiB and one byte", ("§7 Before import",
             "each file's bounds (§3 and RFC 0018 §12)"), ("bounds-fixture",),
             [Release(fixture_of_size(16 * MIB + 1), v1, generated=(sources,))], v1, "refuse",
             codes=("fixture-over-bound", "scan-file-over-bound"), entries=[not_offered("acme.vendors")],
             history=NO_RELEASES,
             description="The Runner export's fixture with sources.json followed by spaces (still one JSON value) so "
                         "that the fixture directory's files total 16,777,217 bytes, one over §3's 16 MiB: the entry "
                         "is refused before its fixture is read. The padded file is not stored in the stream: a "
                         "blob-generated step makes it before the import (its text, then spaces to its size). No "
                         "near miss at the bound: the four files a fixture of these kinds holds are bounded by "
                         "dialect §12 to about 10 MiB together (docs/conformance.md, \"Sizes\")."))
    small = tree("output")
    add(Case("manifest-at-bound-bytes", "a valid manifest padded to exactly 1 MiB",
             ("§7 Before import", "within the 1 MiB and 1,024-row bounds"), ("bounds-manifest-bytes",),
             [Release(small | {"manifest.json": small["manifest.json"] + b" " * (MIB - len(small["manifest.json"]))},
                      v1, generated=("manifest.json",))], v1, "pass", entries=[OUTPUT], history=NO_RELEASES,
             description="The near miss of manifest-over-bound-bytes: a valid one-row manifest followed by spaces to "
                         "exactly 1,048,576 bytes, at the bound, so the release passes (a blob-generated step makes "
                         "the manifest)."))
    add(Case("manifest-at-bound-rows", "a manifest of exactly 1,024 rows, each naming a valid entry",
             ("§7 Before import", "It fetches the release's manifest within the 1 MiB and 1,024-row bounds"),
             ("bounds-manifest-rows",), [], v1, "pass", history=NO_RELEASES, stream="manifest-over-bound-rows",
             entries=[offered(f"acme.w{index:04d}") for index in range(1024)],
             description="The near miss of manifest-over-bound-rows, in its repository: v0.1.0 holds 1,024 valid "
                         "output-only entries and their 1,024 rows, at the row bound, so the release passes and "
                         "every entry is offered."))

    # -- selected-file at tier specification (docs/conformance.md, "Points a consumer need not guess") --
    add(Case("skip-selected-file", "a selected-file fixture: skipped as kind-unread by the specification's reader",
             ("§7 Before import", "A fixture outside the reader's supported versions or source kinds is reported as "
              "not recomputable, with the reason, never as a successful replay"), ("kind-unread-skipped",),
             [Release(selected_file(c), v1)], v1, "pass",
             entries=[offered("acme.vendors-file", ("vendor-7", "kind-unread"))], history=NO_RELEASES,
             broader=c.MAY_DECLINE,
             description="A version-3 entry whose one source is a selected-file of provider local-file (no profile, "
                         "no acquisition in sources.json): the specification's readers read operation and research "
                         "(§4), and selected-file is defined and not claimable (dialect §4.2: no vector holds one, "
                         "its snapshot's form unstated), so the fixture is skipped as kind-unread and the entry "
                         "offered. At tier none it is skipped as version-unread. A reader that reads selected-file "
                         "may answer notApplicable.",
             none={"entries": [offered("acme.vendors-file", ("vendor-7", c.VERSION_UNREAD))]}))

    # -- skips.json's form (this project's stricter rule) --
    add(Case("skips-malformed", "a skips.json out of its form (this project's rule)",
             ("§4", "a fixture whose source kind the specification's verifier refuses as kind-unread is held by its "
              "digests only"), ("skip-acknowledgement",),
             [Release(tree("http", files={"skips.json": b"{}\n"}), v1)], v1, "refuse", codes=("skips-malformed",),
             strictness="project",
             description="This project's stricter rule: skips.json is an array of acknowledgements (docs/skips.md); "
                         "an object there refuses the catalog's import (entries []). The near miss is "
                         "skip-acknowledged."))

    # -- the binding document's form (§7 "the source classification and binding document checked") --
    unbound = tree("unbound")
    binding = "entries/acme/tickets/fixtures/open/binding.json"
    document = json.loads(unbound[binding])
    add(Case("binding-document-unknown-member", "a binding document with a member its form does not have",
             ("§7 Before import", "the source classification and binding document checked"), ("binding-form",),
             [Release(tree("unbound", mutations=[{"op": "write", "file": binding, "text": json.dumps(
                 document | {"extra": 1}, separators=(",", ":"))}]), v1)], v1, "refuse",
             codes=("input-malformed",), entries=[not_offered("acme.tickets")], history=NO_RELEASES,
             description="The unbound entry's fixture binding.json carries a member `extra` beside dialect and "
                         "sources (dialect §5: the binding document is closed): the entry is refused at every tier, "
                         "since the binding document's form needs no reader. The near miss is release-every-kind's "
                         "acme.tickets, the same binding document without it."))

    # -- this project's catalog-stray-file (strictness: project) --
    add(Case("catalog-stray-file", "a file directly under entries/<publisher>/ (this project's rule)",
             ("§7 Before import", "one row per entry directory in the commit's tree"), ("catalog-stray-file",),
             [Release(tree("output", files={"entries/acme/notes.txt": b"Notes.\n"}), v1)], v1, "refuse",
             codes=("catalog-stray-file",), strictness="project",
             description="This project's stricter rule: any file directly under entries/ or entries/<publisher>/ "
                         "other than entries/README.md refuses the import (entries []). entries/acme/notes.txt "
                         "beside a valid output entry. A consumer without the rule answers notApplicable; "
                         "catalog-entries-readme is the near miss."))
    add(Case("catalog-entries-readme", "entries/README.md, the catalog's own note (this project's rule's near miss)",
             ("§7 Before import", "one row per entry directory in the commit's tree"), ("catalog-stray-file",),
             [Release(tree("output", files={"entries/README.md": b"# Entries\n"}), v1)], v1, "pass",
             entries=[OUTPUT], history=NO_RELEASES, strictness="project",
             description="entries/README.md beside a valid output entry: the catalog's own note, not an entry and not "
                         "a stray file, so the release passes."))

    # -- upgrade keys with no earlier release (§3) and unheld history (§7) --
    real = tree("runner")
    key = {"sha256:" + "ab" * 32: "From nowhere."}
    add(Case("upgrade-key-no-earlier-release", "an upgrade key in a catalog with no earlier release",
             ("§3", "A catalog with no earlier release admits no upgrade"), ("upgrade-keys",),
             [Release(tree("runner", mutations=[set_member("runner", "/upgrade", key)]), v1)], v1, "refuse",
             codes=("upgrade-key-unknown",), entries=[not_offered("acme.vendors")], history=NO_RELEASES,
             description="v0.1.0, the repository's only release tag, whose entry carries a well-formed upgrade key: "
                         "no tag is lower, so there is no earlier release and §3 decides that nothing may be upgraded "
                         "from (§7's form-only check is for earlier releases the consumer does not hold). The entry "
                         "is refused, listed and not offered. The near miss is release-real-export, with no upgrade "
                         "member."))
    add(Case("upgrade-key-malformed-unchecked", "an upgrade key out of form when no previous manifest is held",
             ("§7 Artifact history", "otherwise checks the key's form only"), ("upgrade-keys", "history-unchecked"),
             [Release(real, v1), Release(tree("runner", mutations=[
                 set_member("runner", "/upgrade", {"sha256:" + "AB" * 32: "Upper-case hex."})]), "v0.2.0")],
             "v0.2.0", "refuse", codes=("entry-member-invalid",), entries=[not_offered("acme.vendors")],
             history=UNCHECKED,
             description="v0.1.0 exists and is not held; v0.2.0's entry carries an upgrade key in upper-case hex, "
                         "not a digest's form: the form-only check refuses the entry (history unchecked). The near "
                         "miss is upgrade-key-unchecked, a well-formed key under the same conditions."))

    # -- which tags count for history; a retained release also held --
    readme = tree("runner", mutations=[{"op": "write", "file": f"{PATHS['runner']}/README.md",
                                        "text": "# Vendors\n\nThe README alone changed.\n"}])
    add(Case("history-tags-not-releases", "a lower tag outside the grammar and a higher release: no earlier release",
             ("§3", "Every tag in §3's grammar that resolves to a commit and is lower in tag order than the release "
              "being made is a previous release"), ("history-tags",),
             [Release(real, "v0.2.0-rc.1"), Release(readme, "v0.2.0"), Release(real, "v0.3.0")], "v0.2.0", "pass",
             entries=[RUNNER], history=NO_RELEASES,
             description="v0.2.0 is checked with no previous manifest held, in a repository that also holds "
                         "v0.2.0-rc.1 (outside the release-tag grammar) on its parent and v0.3.0 (higher) after it: "
                         "neither is an earlier release, so history is no-releases, not artifact-history-unchecked.",
             none={"entries": [RUNNER_NONE]}))
    add(Case("history-retained-also-held", "the retained release also named by --held, a maxHistoryReleases of 1",
             ("§7 Artifact history", "A consumer states a maxHistoryReleases limit of 1 to 128 earlier releases"),
             ("history-limit", "retained-history"),
             [], "v0.2.0", "pass", entries=[RUNNER], history=CHECKED, retained=0, held=(v1,), history_limit=1,
             withdrawn=[], changed=["acme.vendors"], stream="readme-only-change",
             description="readme-only-change's repository, v0.1.0 retained and named by --held, with "
                         "maxHistoryReleases 1: one earlier release is held, counted once, so the limit is not "
                         "exceeded and the release passes. A consumer counting it twice refuses.",
             none={"entries": [RUNNER_NONE]}))

    # -- the retained tag moved, checked on an upgrade (§7) --
    retitled = tree("runner", mutations=[set_member("runner", "/title", "Vendors, retitled")])
    add(Case("retained-tag-moved-upgrade", "the retained tag moved, while a higher tag is checked",
             ("§7", "A tag that now resolves to a commit different from the one retained for that tag is refused"),
             ("moved-tag",), [Release(real, v1), Release(readme, "v0.2.0"), Release(retitled, v1)], "v0.2.0",
             "refuse", codes=("release-tag-moved",), retained=0,
             description="The consumer retained v0.1.0 at its first commit; v0.2.0 followed, and then v0.1.0 was "
                         "moved to a third commit (the entry retitled). Checking v0.2.0, a higher tag, the consumer "
                         "resolves the retained tag too: it now names another commit than the one retained for it, "
                         "so the import is refused before any file is read, whatever v0.2.0 holds. A consumer that "
                         "checks only the tag it is asked for passes it. The near miss is readme-only-change (the "
                         "same upgrade, v0.1.0 unmoved)."))

    # -- the retained manifestDigest (§7) --
    named_v1 = tree("named")
    fork = [Release(named_v1, v1), Release(tree("named-copy"), "v0.2.0", root=True)]
    add(Case("retained-manifest-digest-wrong", "a retained manifestDigest the retained manifest does not have",
             ("§7", "The consumer retains the catalog location, tag, resolved commit and manifest for the import"),
             ("retained-history",), [], "v0.2.0", "refuse", codes=("artifact-history-invalid",), history=CHECKED,
             retained=0, retained_digest="sha256:" + "0" * 64, stream="retained-fork-identical-content",
             description="retained-fork-identical-content's repository and retained state, except that the retained "
                         "manifestDigest is a digest of nothing: the retained manifest read at the retained commit "
                         "fails it, which is artifact-history-invalid (never a fall-back to form only), refusing the "
                         "release (entries []). The near miss is retained-fork-identical-content."))
    assert fork  # the stream shared is retained-fork-identical-content's

    # -- a held release's artifact-pair form (§7 Artifact history) --
    bad_pair = tree("named", mutations=[set_member("named", "/artifact/version", "01.0.0")])
    add(Case("held-history-artifact-malformed", "a held release whose version-3 named entry's artifact pair is out of "
             "form", ("§7 Artifact history", "only a version-3 entry with a formatVersion reference is held to §3's "
                      "dialect and artifact member forms"), ("held-history-invalid",),
             [Release(bad_pair, v1), Release(named_v1, "v0.2.0")], "v0.2.0", "refuse",
             codes=("artifact-history-invalid",), history=CHECKED, held=(v1,),
             description="The held v0.1.0's named entry has artifact version 01.0.0 (a leading zero), pinned by its "
                         "row; v0.2.0 is valid. A malformed historical entry refuses the release as "
                         "artifact-history-invalid (entries [])."))
    old = tree("output", mutations=[set_member("output", "/entryVersion", 2)])
    add(Case("held-history-entry-version-2", "a held release whose entry is version 2: digest-checked only",
             ("§7 Artifact history", "Other entries hold no pair and are digest-checked only"),
             ("held-history-invalid",),
             [Release(old, v1), Release(tree("output"), "v0.2.0")], "v0.2.0", "pass", entries=[OUTPUT],
             history=CHECKED, held=(v1,),
             description="The near miss of held-history-artifact-malformed: the held v0.1.0's entry says "
                         "entryVersion 2, which the current release would refuse, but a historical entry is read for "
                         "its entryVersion and held to its row's entryDigest only; v0.2.0 passes."))
    return out
