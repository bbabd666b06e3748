"""The consumer conformance kit as data (issue #19 items 1, 4): built, never hand-edited; its schema; its
streams and ids; its codes rule; its size (docs/conformance.md)."""

from __future__ import annotations

import copy
import json
import re

import pytest
from jsonschema import Draft202012Validator

from judgment_exchange.codes import REGISTRY
from judgment_exchange.conformance.codes import RFC_0019_SPELLED, RFC_NAMED
from judgment_exchange.conformance.rebuild import rebuild, sha256
from judgment_exchange.conformance.runner import DEFAULT_KIT, SCHEMA, load_kit

from ..support import conformance as generator
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
    assert (KIT / "verdict.schema.json").read_bytes() == (SCHEMA.parent / "conformance-verdict.schema.json").read_bytes()


def test_cases_json_validates_against_its_schema():
    Draft202012Validator.check_schema(json.loads(SCHEMA.read_text(encoding="utf-8")))
    errors = list(validator().iter_errors(document()))
    assert errors == [], errors[:3]


@pytest.mark.parametrize("change", [
    lambda d: d.update(extra=True),
    lambda d: d["cases"][0].update(note="an extra member"),
    lambda d: d["cases"][0]["expected"].update(verdict="pass"),
    lambda d: d["cases"][0]["stream"].update(sha256=d["cases"][0]["stream"]["sha256"].upper()),
    lambda d: d["cases"][0]["stream"].update(sha256=d["cases"][0]["stream"]["sha256"][:-1]),
    lambda d: d["cases"][0].update(tagCommit="0" * 39),
    lambda d: d["cases"][0]["expected"].update(result="fail"),
    lambda d: d["cases"][0]["expected"]["entries"].append({"id": "acme.x", "kind": "dialect", "offered": True}),
    lambda d: d["cases"][0].update(historyLimit=129),
    lambda d: d["cases"][0].update(strictness="lax"),
    lambda d: d.update(kitVersion=2),
], ids=["top-member", "case-member", "expected-member", "sha256-upper", "sha256-short", "commit-short",
        "result-word", "entry-without-fixtures", "limit-129", "strictness", "version"])
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
            assert case["expected"]["result"] == "refuse" and case["expected"]["entries"] == [], case["name"]
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
        codes = set(case["expected"]["codes"])
        assert codes <= set(case["projectCodes"]), case["name"]
        if case["strictness"] == "rfc":
            assert codes == set(case["projectCodes"]) & rfc, case["name"]
        else:
            assert codes == set(case["projectCodes"]), case["name"]
        if case["expected"]["result"] == "pass":
            assert not case["projectCodes"], case["name"]


def test_held_releases_are_every_earlier_one_or_none():
    for case in document()["cases"]:
        tags = sorted(r[len("refs/tags/"):] for r in case["refs"] if r.startswith("refs/tags/"))
        earlier = [t for t in tags if re.fullmatch(r"v\d+\.\d+\.\d+", t) and re.fullmatch(r"v\d+\.\d+\.\d+", case["tag"])
                   and tuple(map(int, t[1:].split("."))) < tuple(map(int, case["tag"][1:].split(".")))]
        assert sorted(case["held"]) in ([], sorted(earlier)), case["name"]


def test_the_kit_is_small():
    size = sum(p.stat().st_size for p in KIT.iterdir())
    assert size <= 3 * 1024 * 1024, size
    assert len(document()["cases"]) >= 40


def test_the_docs_table_of_cases_is_current():
    assert generator.doc_is_current(), "run python -m tests.support.conformance"
    page = generator.DOC.read_text(encoding="utf-8")
    for case in document()["cases"]:
        assert f"| `{case['name']}` |" in page, case["name"]
