"""The consumer conformance kit as data (issue #19 items 1, 4; issue #28 items 1, 3, 4): built, never
hand-edited; its schema; its streams and ids; its codes rule; its verdicts at each reader tier, each stated
explicitly; each case's description and its one planted defect; its README's copy of the contract; its size
(docs/conformance.md)."""

from __future__ import annotations

import copy
import hashlib
import json
import re
import subprocess
from pathlib import Path

import pytest
from jsonschema import Draft202012Validator

from judgment_exchange.codes import REGISTRY
from judgment_exchange.conformance.codes import RFC_0019_SPELLED, RFC_NAMED
from judgment_exchange.conformance.rebuild import rebuild, sha256
from judgment_exchange.conformance.runner import DEFAULT_KIT, SCHEMA, load_kit

from ..support import conformance as generator
from ..support.catalog import stdlib_canon
from ..support.paths import SHARED, shared_missing

KIT = DEFAULT_KIT
RFC = SHARED / "seeds" / "000_7d004c3db7fa3684.txt"


def document() -> dict:
    return json.loads((KIT / "cases.json").read_text(encoding="utf-8"))


def validator() -> Draft202012Validator:
    return Draft202012Validator(json.loads(SCHEMA.read_text(encoding="utf-8")))


def test_the_committed_kit_is_a_fresh_build_byte_for_byte():
    assert generator.differences(KIT) == [], "run python -m tests.support.conformance"


def test_two_builds_are_byte_identical(tmp_path):
    generator.build(tmp_path / "a")
    generator.build(tmp_path / "b")
    names = sorted(p.name for p in (tmp_path / "a").iterdir())
    assert names == sorted(p.name for p in (tmp_path / "b").iterdir())
    assert all((tmp_path / "a" / n).read_bytes() == (tmp_path / "b" / n).read_bytes() for n in names)


def test_the_kits_schemas_are_the_packages():
    assert (KIT / "cases.schema.json").read_bytes() == SCHEMA.read_bytes()
    verdict_schema = SCHEMA.parent / "conformance-verdict.schema.json"
    assert (KIT / "verdict.schema.json").read_bytes() == verdict_schema.read_bytes()


def test_cases_json_validates_against_its_schema():
    Draft202012Validator.check_schema(json.loads(SCHEMA.read_text(encoding="utf-8")))
    errors = list(validator().iter_errors(document()))
    assert errors == [], errors[:3]


@pytest.mark.parametrize("change", [
    lambda d: d.update(extra=True),
    lambda d: d["cases"][0].update(note="an extra member"),
    lambda d: d["cases"][0]["tiers"]["specification"].update(verdict="pass"),
    lambda d: d["cases"][0]["stream"].update(sha256=d["cases"][0]["stream"]["sha256"].upper()),
    lambda d: d["cases"][0]["stream"].update(sha256=d["cases"][0]["stream"]["sha256"][:-1]),
    lambda d: d["cases"][0].update(tagCommit="0" * 39),
    lambda d: d["cases"][0]["tiers"]["none"].update(result="fail"),
    lambda d: d["cases"][0]["tiers"]["specification"]["entries"].append(
        {"id": "acme.x", "kind": "dialect", "offered": True}),
    lambda d: d["cases"][0].update(historyLimit=129),
    lambda d: d["cases"][0].update(strictness="lax"),
    lambda d: d.update(kitVersion=1),
    lambda d: d["cases"][0].update(expected=d["cases"][0]["tiers"]["specification"]),
    lambda d: d["cases"][0].update(reader="specification"),
    lambda d: d["cases"][0].pop("description"),
    lambda d: d["cases"][0]["tiers"].update(full=d["cases"][0]["tiers"]["specification"]),
    lambda d: d["cases"][0].update(tiers={}),
    lambda d: d["cases"][0]["tiers"]["specification"].pop("broaderReader"),
    lambda d: d["cases"][0]["tiers"]["none"].update(broaderReader="same"),
    lambda d: d["cases"][0]["tiers"]["none"]["entries"][0]["fixtures"][0].update(reason="unread"),
    lambda d: d["tiers"].pop("none"),
], ids=["top-member", "case-member", "verdict-member", "sha256-upper", "sha256-short", "commit-short",
        "result-word", "entry-without-fixtures", "limit-129", "strictness", "version-1", "version-1-expected",
        "version-1-reader", "no-description", "unknown-tier", "no-tier", "broader-reader-missing",
        "broader-reader-at-none", "skip-reason", "top-tiers"])
def test_the_schema_refuses_a_near_miss(change):
    changed = copy.deepcopy(document())
    change(changed)
    assert list(validator().iter_errors(changed)), "the schema admitted a near-miss"


def test_every_stream_and_tag_rebuilds_to_its_pinned_ids(tmp_path):
    kit = load_kit(KIT)  # every stream's sha256 is held here
    for case in kit.cases:
        data = (KIT / case["stream"]["path"]).read_bytes()
        assert sha256(data) == case["stream"]["sha256"]
        target = tmp_path / case["name"]
        assert rebuild(data, case["steps"], target) == case["refs"], case["name"]
        ref = f"refs/tags/{case['tag']}"
        if case["tagCommit"] is None:
            assert all(v["result"] == "refuse" and v["entries"] == [] for v in case["tiers"].values()), case["name"]
        else:
            from judgment_exchange.conformance.rebuild import git

            assert git(target, "rev-parse", f"{ref}^{{commit}}") == case["tagCommit"], case["name"]


def test_streams_are_text_with_a_fixed_identity():
    for path in KIT.glob("*.fi"):
        data = path.read_bytes()
        data.decode("utf-8")  # text
        who = set(re.findall(rb"^(?:author|committer|tagger) (.*) \d+ \+0000$", data, re.M))
        assert who == {generator.IDENTITY.encode()}, path.name
        assert data.endswith(b"done\n")


def test_the_rfc_named_codes_are_the_registrys_and_the_kit_lists_them():
    assert document()["codes"]["rfc"] == list(RFC_NAMED)
    assert set(RFC_0019_SPELLED) <= set(RFC_NAMED) <= set(REGISTRY)
    assert {"manifest-order", "release-tag-lower", "skip-unacknowledged", "secret-github-token"}.isdisjoint(RFC_NAMED)


def test_each_rfc_0019_code_is_spelled_in_the_rfc():
    if not RFC.is_file():
        pytest.skip(shared_missing(RFC))
    text = RFC.read_text(encoding="utf-8")
    for code in RFC_0019_SPELLED:
        assert re.search(rf"(?<![a-z-]){re.escape(code)}(?![a-z-])", text), code


def test_each_case_quotes_the_rfc_sentence_it_holds():
    cases = document()["cases"]
    assert all(case["rfc"]["section"] and case["rfc"]["words"] for case in cases)
    if not RFC.is_file():
        pytest.skip(shared_missing(RFC))
    text = re.sub(r"\s+", " ", RFC.read_text(encoding="utf-8"))
    for case in cases:
        for part in case["rfc"]["words"].split(" ... "):
            assert part in text, (case["name"], part)


def test_expected_codes_are_those_the_case_compares():
    rfc = set(RFC_NAMED)
    for case in document()["cases"]:
        for tier, verdict in case["tiers"].items():
            codes = set(verdict["codes"])
            assert codes <= set(verdict["projectCodes"]), (case["name"], tier)
            if case["strictness"] == "rfc":
                assert codes == set(verdict["projectCodes"]) & rfc, (case["name"], tier)
            else:
                assert codes == set(verdict["projectCodes"]), (case["name"], tier)
            if verdict["result"] == "pass":
                assert not verdict["projectCodes"], (case["name"], tier)


def test_held_releases_are_every_earlier_one_or_none():
    for case in document()["cases"]:
        tags = sorted(r[len("refs/tags/"):] for r in case["refs"] if r.startswith("refs/tags/"))
        earlier = [t for t in tags if re.fullmatch(r"v\d+\.\d+\.\d+", t)
                   and re.fullmatch(r"v\d+\.\d+\.\d+", case["tag"])
                   and tuple(map(int, t[1:].split("."))) < tuple(map(int, case["tag"][1:].split(".")))]
        assert sorted(case["held"]) in ([], sorted(earlier)), case["name"]


def test_the_kit_is_small():
    """A few MB: manifest-over-bound-rows' 1,025 real entries and its release of 1,024 (1.7 MB) are most of it; the
    padded manifests and fixture are generated by blob-generated steps, not stored (issue #35 item 3)."""
    size = sum(p.stat().st_size for p in KIT.iterdir())
    assert size <= 4 * 1024 * 1024, size
    assert len(document()["cases"]) >= 40


def test_the_docs_table_of_cases_is_current():
    assert generator.doc_is_current(), "run python -m tests.support.conformance"
    page = generator.DOC.read_text(encoding="utf-8")
    for case in document()["cases"]:
        assert f"| `{case['name']}` |" in page, case["name"]


# --- reader tiers (issue #28 item 1) -------------------------------------------------------------------

NO_VERDICT_HEADING = "Cases with no verdict at a tier:"


def test_only_the_cases_the_docs_name_lack_a_verdict_at_a_tier():
    """Every case states a verdict at both tiers, except the cases docs/conformance.md names in its paragraph
    "Cases with no verdict at a tier:" (none in kit version 2: the paragraph says `none`)."""
    page = generator.DOC.read_text(encoding="utf-8")
    paragraph = page.partition(NO_VERDICT_HEADING)[2].split("\n\n")[0]
    assert paragraph, "docs/conformance.md names the cases with no verdict at a tier"
    named = set(re.findall(r"`([a-z0-9-]+)`", paragraph)) - {"none", "specification"}
    lacking = {case["name"] for case in document()["cases"] if set(case["tiers"]) != {"specification", "none"}}
    assert lacking == named
    assert named or " none." in paragraph


def _fixtures(entry: dict) -> list[tuple]:
    return sorted((f["name"], f["replay"], f.get("reason")) for f in entry["fixtures"])


def test_at_tier_none_no_fixture_is_replayed_and_every_skip_says_version_unread():
    """Tier none's rule, held on the data itself: no fixture replayed; each fixture an offered entry lists is
    skipped with reason version-unread; and each offered entry lists the same fixture names as at tier
    specification."""
    for case in document()["cases"]:
        none, spec = case["tiers"]["none"], case["tiers"]["specification"]
        spec_entries = {e["id"]: e for e in spec["entries"]}
        for entry in none["entries"]:
            for fixture in entry["fixtures"]:
                assert (fixture["replay"], fixture.get("reason")) == ("skipped", "version-unread"), case["name"]
            if entry["offered"] and spec_entries.get(entry["id"], {}).get("offered"):
                assert sorted(f["name"] for f in entry["fixtures"]) == \
                    sorted(f["name"] for f in spec_entries[entry["id"]]["fixtures"]), case["name"]


def test_only_a_replay_decides_between_the_tiers():
    """The tiers differ only where a reader decides: the three replay-* cases (and skip-acknowledgement-stale, where
    the reader decides whether the fixture an acknowledgement names is skipped) refuse at tier specification and
    pass at tier none, their entry offered with its fixture skipped; every other case has the same result,
    compared codes and offered entries at both tiers."""
    replay = {"replay-disagreement", "replay-forged-acquisition", "replay-profile-substituted",
              "skip-acknowledgement-stale"}  # issue #35: the reader decides which skip an acknowledgement names

    def offered(verdict):
        return sorted((e["id"], e["kind"], e["offered"]) for e in verdict["entries"])

    for case in document()["cases"]:
        none, spec = case["tiers"]["none"], case["tiers"]["specification"]
        if case["name"] in replay:
            assert (spec["result"], none["result"], none["codes"]) == ("refuse", "pass", []), case["name"]
            assert [e["offered"] for e in none["entries"]] == [True], case["name"]
            assert [e["offered"] for e in spec["entries"]] == [False], case["name"]
            continue
        assert (spec["result"], spec["codes"], offered(spec)) == (none["result"], none["codes"], offered(none)), \
            case["name"]
        for member in ("history", "withdrawn", "changed"):
            assert spec.get(member) == none.get(member), (case["name"], member)


def test_a_broader_reader_may_decline_only_where_http_decides():
    """broaderReader is not-applicable exactly where the specification's reader skips an http (or, issue #35, a
    selected-file) fixture the case depends on (the skip-* cases and release-every-kind); elsewhere a reader reading
    more reaches the same."""
    declining = sorted(c["name"] for c in document()["cases"]
                       if c["tiers"]["specification"]["broaderReader"] == "not-applicable")
    assert declining == ["release-every-kind", "skip-acknowledged", "skip-binding-forbidden", "skip-kind-unread",
                         "skip-preparation-digest-mismatch", "skip-selected-file", "skip-unacknowledged"]


def test_every_case_has_a_description_of_what_it_holds():
    for case in document()["cases"]:
        assert len(case["description"]) >= 40 and case["description"] != case["title"], case["name"]
        assert case["description"].endswith("."), case["name"]


def test_the_readme_carries_the_contract_section_word_for_word():
    readme = (KIT / "README.md").read_text(encoding="utf-8")
    section = generator.contract_section(generator.DOC.read_text(encoding="utf-8"))
    assert len(section) > 2000 and readme.endswith(section)
    for point in ("history", "withdrawn", "changed", "offered", "entries", "version-unread"):
        assert point in section, point


# --- one planted defect per case (issue #28 item 4) ----------------------------------------------------

def _release(tmp_path, name: str) -> tuple[Path, dict]:
    case = next(c for c in document()["cases"] if c["name"] == name)
    rebuild((KIT / case["stream"]["path"]).read_bytes(), case["steps"], tmp_path / name)
    return tmp_path / name, case


def _git(repo: Path, *args: str) -> bytes:
    return subprocess.run(["git", "-C", str(repo), *args], capture_output=True, check=True).stdout


def _tree(repo: Path, tag: str) -> dict[str, str]:
    listing = _git(repo, "ls-tree", "-r", f"refs/tags/{tag}^{{commit}}").decode()
    return {line.split("\t")[1]: line.split()[2] for line in listing.splitlines()}


def _blob(repo: Path, tag: str, path: str) -> bytes:
    return _git(repo, "cat-file", "blob", f"refs/tags/{tag}^{{commit}}:{path}")


def test_skip_binding_forbidden_plants_the_forbidden_binding_alone(tmp_path):
    """Its tree is skip-kind-unread's plus binding.json, listed in the row, and nothing else: the document is
    of the binding's exact form, names the dialect's own canonical digest (computed here by the standard
    library) and assigns exactly the dialect's unbound sources, of which there are none."""
    forbidden, case = _release(tmp_path, "skip-binding-forbidden")
    plain, _ = _release(tmp_path, "skip-kind-unread")
    a, b = _tree(forbidden, case["tag"]), _tree(plain, "v0.1.0")
    fixture = "entries/acme/vendors-http/fixtures/vendor-7"
    assert set(a) - set(b) == {f"{fixture}/binding.json"} and set(b) <= set(a)
    assert {p for p in b if a[p] != b[p]} == {"manifest.json"}
    rows_a = json.loads(_blob(forbidden, case["tag"], "manifest.json"))
    rows_b = json.loads(_blob(plain, "v0.1.0", "manifest.json"))
    assert sorted(rows_a[0]["fixtures"][0]["files"]) == sorted(rows_b[0]["fixtures"][0]["files"] + ["binding.json"])
    rows_a[0]["fixtures"][0]["files"] = rows_b[0]["fixtures"][0]["files"]
    assert rows_a == rows_b
    dialect = json.loads(_blob(forbidden, case["tag"], "entries/acme/vendors-http/dialect.json"))
    digest = "sha256:" + hashlib.sha256(stdlib_canon(dialect)).hexdigest()
    assert json.loads(_blob(forbidden, case["tag"], f"{fixture}/binding.json")) == {"dialect": digest, "sources": {}}
    assert all("profile" in s and "profileDigest" in s for s in dialect["sources"])  # every source bound


def test_manifest_over_bound_rows_is_over_the_row_bound_alone(tmp_path):
    """1,025 rows, in id byte order, distinct, under 1 MiB, each naming an entry directory whose entry.json
    its entryDigest pins; no other entry directory."""
    repo, case = _release(tmp_path, "manifest-over-bound-rows")
    data = _blob(repo, case["tag"], "manifest.json")
    rows = json.loads(data)
    assert len(rows) == 1025 and len(data) <= 1024 * 1024
    ids = [row["id"] for row in rows]
    assert ids == sorted(set(ids), key=lambda i: i.encode("utf-8"))
    tree = _tree(repo, case["tag"])
    directories = {p.rsplit("/", 1)[0] for p in tree if p.startswith("entries/")}
    assert directories == {row["path"] for row in rows}
    for row in rows[::64] + rows[-1:]:
        entry = _blob(repo, case["tag"], f"{row['path']}/entry.json")
        assert "sha256:" + hashlib.sha256(entry).hexdigest() == row["entryDigest"]
        assert json.loads(entry)["id"] == row["id"] and row["path"] == "entries/" + row["id"].replace(".", "/", 1)
