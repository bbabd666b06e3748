"""upgrade-diff shows what changed, not only that it did (issue #18 item 5, "Upgrades you can review";
docs/release-contract.md, "upgrade-diff").

Per changed entry: the entry.json members that changed (old -> new, author text quoted only where its
grammar and the scan cleared it, on the release being left too), the README as a bounded unified diff,
the dialect's changes as JSON pointers with each side's type, the fixtures added, removed and
re-recorded, and the upgrade note. Every expected value is stated by hand or computed with hashlib and
json from the bytes the test wrote, never with the package under test.
"""

from __future__ import annotations

import json
import shutil

from judgment_exchange.cli import main
from judgment_exchange.consumer import upgrade_diff

from ..browse.releases import ADDED_PARAGRAPH, git_identity, released_twice
from ..support.catalog import CatalogBuilder, pretty, stdlib_canon
from ..support.simulator import CatalogSimulator
from .conftest import sha256

AWS = "AKIA" + "Q3ZT7XN2LW8VB4MK"
"""An AWS access key id's shape: the scan's named credential shapes find it in any text."""
SLACK = "xoxb-079490435345-2754796078815-lzfpqiifpyg64tpsqql1kqon"
"""A Slack token in lower case: it fits §3's fixture-name grammar, and the scan's name check flags it."""


def run(argv, capsys):
    rc = main(argv)
    out = capsys.readouterr()
    return rc, out.out, out.err


def _change(diff: dict) -> dict:
    assert diff["result"] == "changes", diff
    [change] = diff["changes"]
    return change


# --- the README, as its changed lines -----------------------------------------------------------------


def test_upgrade_diff_shows_the_readme_changed_lines_of_the_demo(tmp_path, monkeypatch, capsys):
    """Issue #18's done-when: the demonstration catalog released twice (one README gains a paragraph);
    upgrade-diff shows the added line, in the text and in the JSON."""
    git_identity(monkeypatch)
    root = tmp_path / "demo"
    released_twice(root)
    rc, out, err = run(["upgrade-diff", str(root), "v0.1.0", "v0.2.0"], capsys)
    assert rc == 0, out + err
    assert "changed gateway.fx-exposure" in out
    assert "    +A second paragraph, added for the second release." in out.splitlines()
    assert "    --- v0.1.0 README.md" in out.splitlines() and "    +++ v0.2.0 README.md" in out.splitlines()
    rc, out, _ = run(["upgrade-diff", str(root), "v0.1.0", "v0.2.0", "--format", "json"], capsys)
    change = _change(json.loads(out))
    readme = change["readme"]
    assert readme["cut"] is False and "more" not in readme
    assert readme["diff"][:2] == ["--- v0.1.0 README.md", "+++ v0.2.0 README.md"]
    assert readme["diff"][2].startswith("@@ ")
    assert readme["diff"][-2:] == ["+", "+A second paragraph, added for the second release."]
    assert readme["diff"][-1] == "+" + ADDED_PARAGRAPH  # the shared fixture's line is the one stated above
    assert not [line for line in readme["diff"][2:] if line.startswith("-")]  # nothing was removed
    assert change["members"] == [] and change["documents"] == {}  # near-miss: only the README changed
    assert change["fixtures"] == {"added": [], "removed": [], "reRecorded": []}


def test_readme_lines_have_control_and_bidi_characters_escaped(releases, capsys):
    (releases.entry / "README.md").write_bytes(b"# Vendors\n\nA line \xe2\x80\xae reversed and \x1b[31m red.\n")
    releases.release("v0.4.0")
    change = _change(upgrade_diff(releases.location, "v0.3.0", "v0.4.0"))
    assert change["readme"]["diff"][-1] == "+A line \\u202e reversed and \\x1b[31m red."
    assert "-A synthetic entry for the gate's tests." in change["readme"]["diff"]
    rc, out, _ = run(["upgrade-diff", releases.location, "v0.3.0", "v0.4.0"], capsys)
    assert rc == 0 and "\x1b" not in out and "\u202e" not in out
    assert "    +A line \\u202e reversed and \\x1b[31m red." in out.splitlines()


def test_a_long_readme_diff_is_cut_and_says_so(releases, capsys):
    (releases.entry / "README.md").write_text("".join(f"line {i}\n" for i in range(500)))
    releases.release("v0.4.0")  # the release left; the target below changes every one of its 500 lines
    (releases.entry / "README.md").write_text("".join(f"LINE {i}\n" for i in range(500)))
    releases.release("v0.5.0")
    readme = _change(upgrade_diff(releases.location, "v0.4.0", "v0.5.0", history=None))["readme"]
    # 3 header lines, then 500 removed and 500 added: 1003 lines, of which the first 200 are shown
    assert len(readme["diff"]) == 200 and readme["cut"] is True and readme["more"] == 803
    assert readme["diff"][:4] == ["--- v0.4.0 README.md", "+++ v0.5.0 README.md", "@@ -1,500 +1,500 @@", "-line 0"]
    rc, out, _ = run(["upgrade-diff", releases.location, "v0.4.0", "v0.5.0", "--no-history"], capsys)
    assert rc == 0 and "    … 803 more lines not shown" in out.splitlines()
    assert "+LINE 0" not in out  # the added lines come after the 200th


def test_a_readme_diff_is_cut_at_16_kib_of_lines(releases):
    (releases.entry / "README.md").write_text("".join(f"{i:03d}" + "x" * 97 + "\n" for i in range(300)))
    releases.release("v0.4.0")
    (releases.entry / "README.md").write_text("".join(f"{i:03d}" + "y" * 97 + "\n" for i in range(300)))
    releases.release("v0.5.0")
    readme = _change(upgrade_diff(releases.location, "v0.4.0", "v0.5.0", history=None))["readme"]
    # header lines of 20, 20 and 19 characters, then lines of 101: with a newline each, 62 + 160 * 102 =
    # 16382 characters fit in 16384, a 161st line does not; 603 lines in all
    assert len(readme["diff"]) == 163 and readme["more"] == 440 and readme["cut"] is True


def test_a_readme_over_its_bound_or_not_utf8_is_described_not_diffed(releases, capsys):
    (releases.entry / "README.md").write_bytes(b"x" * 70_000)
    releases.release("v0.4.0")  # over the 64 KiB bound: fails its own check; it is only the FROM side
    (releases.entry / "README.md").write_bytes(b"# Vendors\n\nclean\n")
    releases.release("v0.5.0")
    change = _change(upgrade_diff(releases.location, "v0.4.0", "v0.5.0", history=None))
    assert change["readme"] == {"withheld": "v0.4.0's README.md is 70000 bytes, over its bound of 65536; not read; "
                                            "not diffed"}
    (releases.entry / "README.md").write_bytes(b"# Vendors\n\n\xff\xfe not text\n")
    releases.release("v0.6.0")
    (releases.entry / "README.md").write_bytes(b"# Vendors\n\nclean again\n")
    releases.release("v0.7.0")
    change = _change(upgrade_diff(releases.location, "v0.6.0", "v0.7.0", history=None))
    assert change["readme"] == {"withheld": "v0.6.0's README.md is not UTF-8 (23 bytes); not diffed"}
    rc, out, _ = run(["upgrade-diff", releases.location, "v0.6.0", "v0.7.0", "--no-history"], capsys)
    assert rc == 0 and "  README.md changed, not shown: v0.6.0's README.md is not UTF-8 (23 bytes); not diffed" in out
    assert "clean again" not in out  # no line of either side when one is not diffed


def test_a_readme_holding_a_credential_on_the_release_left_shows_none_of_its_lines(releases, capsys):
    (releases.entry / "README.md").write_text(f"# Vendors\n\nUse the key {AWS} to read.\nAn ordinary line.\n")
    releases.release("v0.4.0")
    (releases.entry / "README.md").write_text("# Vendors\n\nAn ordinary line.\n")
    releases.release("v0.5.0")
    for argv in (["upgrade-diff", releases.location, "v0.4.0", "v0.5.0", "--no-history"],
                 ["upgrade-diff", releases.location, "v0.4.0", "v0.5.0", "--no-history", "--format", "json"]):
        rc, out, err = run(argv, capsys)
        assert rc == 0, out + err
        assert AWS not in out + err and "Use the key" not in out and "An ordinary line" not in out
    readme = json.loads(out)["changes"][0]["readme"]
    assert readme == {"withheld": "v0.4.0's README.md holds a shape the scan refuses (a credential); none of its "
                                  "lines is shown; not diffed"}


# --- entry.json's members, old -> new ------------------------------------------------------------------


def test_a_changed_title_shows_old_and_new(releases, capsys):
    change = _change(upgrade_diff(releases.location, "v0.2.0", "v0.3.0"))
    v2 = change["importedEntryDigest"]
    assert change["members"] == [
        {"member": "title", "from": "Example acme.vendors", "to": "Vendors, retitled"},
        {"member": "upgrade", "from": None, "to": [{"from": v2, "note": "Title only; the dialect is unchanged."}]},
    ]
    rc, out, _ = run(["upgrade-diff", releases.location, "v0.2.0", "v0.3.0"], capsys)
    lines = out.splitlines()
    assert rc == 0 and "  entry.json members changed (old -> new):" in lines
    assert "    title: Example acme.vendors -> Vendors, retitled" in lines
    assert f"    upgrade: absent -> [{{from: {v2}, note: Title only; the dialect is unchanged.}}]" in lines
    assert f"  upgrade note (keyed by {v2}): Title only; the dialect is unchanged." in lines


def test_every_changed_member_is_listed_in_the_members_order(releases):
    releases.edit_entry(licence="MIT", author="another-publisher", sourceKinds=["operation", "http"],
                        requires={"platform": "postgres"}, upgrade=None)
    releases.release("v0.4.0")  # sourceKinds names http with no http source: only the FROM side
    releases.edit_entry(licence="Apache-2.0", author="example-publisher", sourceKinds=["operation"], requires={})
    releases.release("v0.5.0")
    change = _change(upgrade_diff(releases.location, "v0.4.0", "v0.5.0", history=None))
    assert change["members"] == [
        {"member": "requires", "from": {"platform": "postgres"}, "to": {}},
        {"member": "sourceKinds", "from": ["operation", "http"], "to": ["operation"]},
        {"member": "licence", "from": "MIT", "to": "Apache-2.0"},
        {"member": "author", "from": "another-publisher", "to": "example-publisher"},
    ]


def test_a_title_holding_a_credential_on_the_release_left_is_withheld(releases, capsys):
    notes = json.loads((releases.entry / "entry.json").read_bytes())["upgrade"]  # v0.3.0's, kept in v0.4.0
    releases.edit_entry(title=f"Vendors {AWS}")
    entry = json.loads((releases.entry / "entry.json").read_bytes())
    entry[AWS] = "a member the author named with a key"
    (releases.entry / "entry.json").write_bytes(pretty(entry))
    releases.release("v0.4.0")  # the scan refuses it: it fails its own check; only the target is checked
    releases.edit_entry(**{AWS: None}, title="Vendors, clean", upgrade=None)
    releases.release("v0.5.0")
    for argv in (["upgrade-diff", releases.location, "v0.4.0", "v0.5.0", "--no-history"],
                 ["upgrade-diff", releases.location, "v0.4.0", "v0.5.0", "--no-history", "--format", "json"]):
        rc, out, err = run(argv, capsys)
        assert rc == 0, out + err
        assert AWS not in out + err
    change = json.loads(out)["changes"][0]
    withheld = {"withheld": "a string of 28 characters holding a shape the scan refuses (a credential)"}
    assert change["members"] == [
        {"member": "title", "from": withheld, "to": "Vendors, clean"},
        {"member": "upgrade", "from": [{"from": key, "note": note} for key, note in notes.items()], "to": None},
        {"member": "<a member name of 20 characters>",
         "from": {"withheld": "not a member of §3's entry.json; not shown"}, "to": None},
    ]
    assert change["fields"]["title"] == {"from": withheld, "to": "Vendors, clean"}
    rc, out, _ = run(["upgrade-diff", releases.location, "v0.4.0", "v0.5.0", "--no-history"], capsys)
    assert ("    title: (withheld: a string of 28 characters holding a shape the scan refuses (a credential)) -> "
            "Vendors, clean") in out.splitlines()


# --- the dialect, as JSON pointers -------------------------------------------------------------------------


def _preset_releases(tmp_path):
    """v0.1.0: a preset (no fixtures to replay), its dialect.json as the builder writes it."""
    history = CatalogSimulator(tmp_path / "repo", work_path=tmp_path / "work")
    path = history.builder.add_preset()
    history.release("v0.1.0", message="snapshot")
    return history, history.builder, path


def _repin(work: CatalogBuilder, path, doc: dict | None = None, data: bytes | None = None) -> None:
    """Write dialect.json and pin its canonical digest (hashlib over stdlib json) in entry.json."""
    (path / "dialect.json").write_bytes(data if data is not None else pretty(doc))
    entry = json.loads((path / "entry.json").read_bytes())
    if doc is not None:
        entry["dialect"]["digest"] = sha256(stdlib_canon(doc))
    (path / "entry.json").write_bytes(pretty(entry))
    work.write_manifest()


def test_a_dialect_change_lists_its_pointers_with_types(tmp_path, capsys):
    repo, work, path = _preset_releases(tmp_path)
    doc = json.loads((path / "dialect.json").read_bytes())
    assert doc["case"]["parameters"]["window"]["pointer"] == "/window" and doc["sources"][0]["maxAge"] == 300
    doc["case"]["parameters"]["window"]["pointer"] = "/windowDays"  # author text, under an author's name
    doc["sources"][0]["maxAge"] = 600  # a number: shown
    doc["sources"][0]["kind"] = "operation"  # unchanged: near-miss
    _repin(work, path, doc)
    repo.release("v0.2.0", message="snapshot")
    rc, out, err = run(["upgrade-diff", str(repo.path), "v0.1.0", "v0.2.0", "--format", "json"], capsys)
    assert rc == 0, out + err
    change = _change(json.loads(out))
    assert change["documents"] == {"dialect.json": {"cut": False, "changes": [
        {"pointer": "/case/parameters/<a name of 6 characters>/pointer", "change": "changed",
         "from": {"type": "a string", "length": 7}, "to": {"type": "a string", "length": 11}},
        {"pointer": "/sources/0/maxAge", "change": "changed",
         "from": {"type": "a number", "value": "300"}, "to": {"type": "a number", "value": "600"}},
    ]}}
    assert "windowDays" not in out and '"window"' not in out
    rc, out, _ = run(["upgrade-diff", str(repo.path), "v0.1.0", "v0.2.0"], capsys)
    lines = out.splitlines()
    assert rc == 0
    assert "  dialect.json: 2 value(s) changed (pointer: old type -> new type, values where not author text):" in lines
    assert "    /case/parameters/<a name of 6 characters>/pointer: a string of 7 characters -> a string of 11 " \
           "characters" in lines
    assert "    /sources/0/maxAge: a number -> a number (300 -> 600)" in lines
    assert "windowDays" not in out and "window" not in out


def test_a_dialect_member_added_removed_and_a_schema_word_value(tmp_path, capsys):
    repo, work, path = _preset_releases(tmp_path)
    doc = json.loads((path / "dialect.json").read_bytes())
    claim = doc["sources"][0]["read"]["rule"]["clauses"][0]["claim"]
    assert claim["evidence"] == {"intake-form": "present"}
    claim["evidence"]["intake-form"] = "unknown"  # one of our schema's words, under the author's name: shown
    rule = doc["sources"][1]["read"]["rule"]
    del rule["parameters"]["region"]  # removed: the value is a schema word, the name the author's
    rule["clauses"][0]["when"]["of"].pop()  # removed: an object of three members
    doc["unmappedEvidence"].append("other-evidence")  # added: author text
    _repin(work, path, doc)
    repo.release("v0.2.0", message="snapshot")
    diff = upgrade_diff(str(repo.path), "v0.1.0", "v0.2.0", history=None)
    documents = _change(diff)["documents"]["dialect.json"]  # _change: the target passed its own check
    assert documents == {"cut": False, "changes": [
        {"pointer": "/sources/0/read/rule/clauses/0/claim/evidence/<a name of 11 characters>", "change": "changed",
         "from": {"type": "a string", "value": "present"}, "to": {"type": "a string", "value": "unknown"}},
        {"pointer": "/sources/1/read/rule/parameters/<a name of 6 characters>", "change": "removed",
         "from": {"type": "a string", "value": "string"}},
        {"pointer": "/sources/1/read/rule/clauses/0/when/of/1", "change": "removed",
         "from": {"type": "an object", "size": 3}},
        {"pointer": "/unmappedEvidence/1", "change": "added", "to": {"type": "a string", "length": 14}},
    ]}
    rc, out, _ = run(["upgrade-diff", str(repo.path), "v0.1.0", "v0.2.0", "--no-history"], capsys)
    lines = out.splitlines()
    assert rc == 0 and "  dialect.json: 4 value(s) changed (pointer: old type -> new type, values where not " \
                       "author text):" in lines
    assert "    /sources/0/read/rule/clauses/0/claim/evidence/<a name of 11 characters>: a string -> a string " \
           "(present -> unknown)" in lines
    assert "    /sources/1/read/rule/parameters/<a name of 6 characters>: a string -> absent " \
           "(string -> absent)" in lines
    assert "    /sources/1/read/rule/clauses/0/when/of/1: an object of 3 members -> absent" in lines
    assert "    /unmappedEvidence/1: absent -> a string of 14 characters" in lines
    assert "other-evidence" not in out and "intake-form" not in out and "region" not in out


def test_a_dialect_of_the_release_left_that_does_not_parse_is_not_compared(tmp_path, capsys):
    repo, work, path = _preset_releases(tmp_path)
    good = (path / "dialect.json").read_bytes()
    _repin(work, path, data=b'{"version": 3, "version": 3}\n')  # a duplicate member: not strict JSON
    repo.release("v0.2.0", message="snapshot")
    _repin(work, path, data=good)
    repo.release("v0.3.0", message="snapshot")
    change = _change(upgrade_diff(str(repo.path), "v0.2.0", "v0.3.0", history=None))
    assert change["documents"] == {"dialect.json": {
        "notCompared": "v0.2.0's dialect.json is not one strict JSON value within its bounds (malformed); "
                       "nothing of it is compared"}}
    rc, out, _ = run(["upgrade-diff", str(repo.path), "v0.2.0", "v0.3.0", "--no-history"], capsys)
    assert rc == 0 and "  dialect.json changed, not compared: v0.2.0's dialect.json is not one strict JSON value" in out


def test_a_reformatted_dialect_changes_no_value(releases, capsys):
    stored = json.dumps(json.loads((releases.entry / "dialect.json").read_bytes()), indent=3).encode() + b"\n"
    (releases.entry / "dialect.json").write_bytes(stored)
    releases.release("v0.4.0")
    change = _change(upgrade_diff(releases.location, "v0.3.0", "v0.4.0"))
    assert change["documents"] == {"dialect.json": {"changes": [], "cut": False}}
    rc, out, _ = run(["upgrade-diff", releases.location, "v0.3.0", "v0.4.0"], capsys)
    assert "  dialect.json changed, no value differs (its bytes did: formatting or member order only)" in out


def test_a_long_dialect_change_lists_the_first_100_pointers(tmp_path):
    repo, work, path = _preset_releases(tmp_path)
    doc = json.loads((path / "dialect.json").read_bytes())
    doc["unmappedEvidence"] = [f"evidence-{i}" for i in range(150)]
    _repin(work, path, doc)
    repo.release("v0.2.0", message="snapshot")
    doc["unmappedEvidence"] = [f"other-{i}" for i in range(150)]
    _repin(work, path, doc)
    repo.release("v0.3.0", message="snapshot")
    documents = _change(upgrade_diff(str(repo.path), "v0.2.0", "v0.3.0", history=None))["documents"]["dialect.json"]
    assert len(documents["changes"]) == 100 and documents["cut"] is True and documents["more"] == 50
    assert documents["changes"][0] == {"pointer": "/unmappedEvidence/0", "change": "changed",
                                       "from": {"type": "a string", "length": 10},
                                       "to": {"type": "a string", "length": 7}}


# --- fixtures added, removed, re-recorded -----------------------------------------------------------------


def _copy_fixture(releases, source: str, name: str) -> dict:
    fixtures = releases.entry / "fixtures"
    shutil.copytree(fixtures / source, fixtures / name)
    prep = (fixtures / name / "preparation.json").read_bytes()
    return {"name": name, "path": f"fixtures/{name}", "preparationDigest": sha256(prep)}


def test_fixtures_added_removed_and_re_recorded(releases, capsys):
    fixtures = releases.entry / "fixtures"
    entry = json.loads((releases.entry / "entry.json").read_bytes())
    [vendor7] = entry["fixtures"]
    case = (fixtures / "vendor-7" / "case.json").read_bytes()
    prep = vendor7["preparationDigest"]
    (fixtures / "vendor-7" / "case.json").write_bytes(json.dumps(json.loads(case), indent=5).encode() + b"\n")
    removed = _copy_fixture(releases, "vendor-7", "vendor-8")
    releases.edit_entry(fixtures=[vendor7 | {"preparationDigest": "sha256:" + "0" * 64}, removed], upgrade=None)
    releases.release("v0.4.0")  # the preparationDigest pins nothing: it fails; it is only the FROM side
    (fixtures / "vendor-7" / "case.json").write_bytes(case)
    shutil.rmtree(fixtures / "vendor-8")
    added = _copy_fixture(releases, "vendor-7", "vendor-9")
    releases.edit_entry(fixtures=[vendor7, added])
    releases.release("v0.5.0")
    rc, out, err = run(["upgrade-diff", releases.location, "v0.4.0", "v0.5.0", "--no-history", "--format", "json"],
                       capsys)
    assert rc == 0, out + err
    change = _change(json.loads(out))
    assert change["fixtures"] == {
        "added": [{"name": "vendor-9", "preparationDigest": prep}],
        "removed": [{"name": "vendor-8", "preparationDigest": prep}],
        "reRecorded": [{"name": "vendor-7", "files": ["entries/acme/vendors/fixtures/vendor-7/case.json"],
                        "preparationDigest": {"from": "sha256:" + "0" * 64, "to": prep}}]}
    rc, out, _ = run(["upgrade-diff", releases.location, "v0.4.0", "v0.5.0", "--no-history"], capsys)
    lines = out.splitlines()
    assert f"  fixture added vendor-9 (preparationDigest {prep})" in lines
    assert f"  fixture removed vendor-8 (preparationDigest {prep})" in lines
    assert "  fixture re-recorded vendor-7" in lines
    assert f"    preparationDigest sha256:{'0' * 64} -> {prep}" in lines
    assert "    file changed entries/acme/vendors/fixtures/vendor-7/case.json" in lines


def test_a_removed_fixture_named_with_a_token_is_described(releases, capsys):
    entry = json.loads((releases.entry / "entry.json").read_bytes())
    planted = _copy_fixture(releases, "vendor-7", SLACK)
    releases.edit_entry(fixtures=[*entry["fixtures"], planted], upgrade=None)
    releases.release("v0.4.0")  # the scan refuses the name: it fails its own check; only the FROM side
    shutil.rmtree(releases.entry / "fixtures" / SLACK)
    releases.edit_entry(fixtures=entry["fixtures"])
    releases.release("v0.5.0")
    for argv in (["upgrade-diff", releases.location, "v0.4.0", "v0.5.0", "--no-history"],
                 ["upgrade-diff", releases.location, "v0.4.0", "v0.5.0", "--no-history", "--format", "json"]):
        rc, out, err = run(argv, capsys)
        assert rc == 0, out + err
        for form in (SLACK, SLACK.upper(), SLACK.rsplit("-", 1)[1]):
            assert form not in out + err
    change = json.loads(out)["changes"][0]
    assert change["fixtures"]["removed"] == [{"name": "<a fixture name of 56 characters>",
                                               "preparationDigest": planted["preparationDigest"]}]
    [member] = change["members"]
    assert member["member"] == "fixtures"
    assert member["from"][1]["name"] == {"withheld": "a name of 56 characters holding a shape the scan refuses "
                                                     "(a credential)"}
    assert member["to"] == entry["fixtures"]  # near-miss: the clean name, path and digest are shown
