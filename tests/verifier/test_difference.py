"""Where a recorded preparation first differs from the recomputed one (issue #17 item 4;
verifier/difference.py): a pure walk, objects by sorted member name and arrays by index, named by a JSON
pointer with each side's type and length and never a value.

Every pair below is written by hand, and each expected pointer and description is stated by hand.
"""

from __future__ import annotations

import json

import pytest

from judgment_exchange.jsonstrict import parse
from judgment_exchange.verifier import Found, verify
from judgment_exchange.verifier.difference import ABSENT, first_difference, shape
from judgment_exchange.verifier.program import fixture_documents

from ..support.catalog import CatalogBuilder, stdlib_canon


def read(text: str):
    """A value as the verifier reads it (numbers as their literals, jsonstrict.Number)."""
    return parse(text.encode("utf-8"))


def where(recorded: str, recomputed: str):
    found = first_difference(read(recorded), read(recomputed))
    return None if found is None else (found.pointer, shape(found.recorded), shape(found.recomputed))


def test_identical_values_have_no_difference():
    assert where('{"a": [1, "x", {"b": null}], "c": true}', '{"c": true, "a": [1, "x", {"b": null}]}') is None


def test_a_changed_string_leaf():
    assert where('{"a": {"b": "xy"}, "c": 1}', '{"a": {"b": "xyz"}, "c": 1}') == (
        "/a/b", "<a string of 2 characters>", "<a string of 3 characters>")


def test_an_added_member_is_absent_on_the_recorded_side():
    assert where('{"a": 1}', '{"a": 1, "b": [1, 2]}') == ("/b", "(absent)", "<an array of 2 items>")


def test_a_removed_array_element_is_absent_on_the_recomputed_side():
    assert where('{"a": [1, 2, 3]}', '{"a": [1, 2]}') == ("/a/2", "<a number of 1 character>", "(absent)")


def test_a_number_against_a_string():
    assert where('{"n": 10}', '{"n": "10"}') == ("/n", "<a number of 2 characters>", "<a string of 2 characters>")


def test_a_boolean_is_not_the_number_one():
    assert where('[true]', '[1]') == ("/0", "<true/false>", "<a number of 1 character>")


def test_a_number_is_its_literal():
    # §1 keeps every literal: 1 and 1.0 are different preparations (their canonical bytes differ)
    assert where('{"n": 1}', '{"n": 1.0}') == ("/n", "<a number of 1 character>", "<a number of 3 characters>")


def test_an_object_against_an_array_and_null():
    assert where('{"a": {"x": 1}}', '{"a": [1]}') == ("/a", "<an object of 1 member>", "<an array of 1 item>")
    assert where('{"a": null}', '{"a": {}}') == ("/a", "<null>", "<an object of 0 members>")


def test_members_are_walked_in_sorted_order_and_the_first_is_named():
    # both members differ; "a" sorts first, whatever the documents' order
    assert where('{"b": 1, "a": 1}', '{"b": 2, "a": 2}')[0] == "/a"
    # an array's items by index, before a later member of the object holding it
    assert where('{"x": [0, 1], "y": 0}', '{"x": [0, 2], "y": 9}')[0] == "/x/1"


def test_the_root_itself_differs():
    assert where('"a"', '["a"]') == ("", "<a string of 1 character>", "<an array of 1 item>")
    assert first_difference(read('"a"'), read('["a"]')).text().startswith("first differs at (the root): ")


def test_a_pointer_token_is_escaped_as_rfc_6901_writes_it():
    assert where('{"a/b~c": 1}', '{"a/b~c": 2}')[0] == "/a~1b~0c"


def test_absent_is_not_null():
    found = first_difference(read('{"a": null}'), read('{}'))
    assert found.pointer == "/a" and found.recorded is None and found.recomputed is ABSENT


def test_deep_nesting_is_no_recursion_error():
    recorded, recomputed = "x", "y"
    for _ in range(50_000):
        recorded, recomputed = [recorded], [recomputed]
    found = first_difference(recorded, recomputed)
    assert found.pointer == "/0" * 50_000 and (found.recorded, found.recomputed) == ("x", "y")


def test_attack_the_text_never_shows_a_value_or_an_authors_member_name():
    secret_name, secret_value = "acmeinternaltoken", "ghp_" + "A1b2" * 9
    found = first_difference(read(json.dumps({"facts": {secret_name: secret_value}})),
                             read(json.dumps({"facts": {secret_name: "replaced"}})))
    text = found.text()
    assert secret_name not in text and secret_value not in text and "replaced" not in text
    # "facts" is one of our schema's member names and is shown; the author's name is described by length
    assert text == ("first differs at /facts/<a name of 17 characters>: recorded <a string of 40 characters>, "
                    "recomputed <a string of 8 characters>")


# --- the verifier's finding names the member (verify, and `exchange verify --fixture`) ------------------

FORGED = "forged-by-hand"  # 14 characters; the recorded reason it replaces, "matching-vendor", has 15


@pytest.fixture
def edited_fixture(tmp_path):
    """A real Runner fixture whose preparation.json has one value changed, still in canonical bytes."""
    builder = CatalogBuilder(tmp_path / "catalog")
    entry = builder.add_runner_entry()
    prep = entry / "fixtures" / "vendor-7" / "preparation.json"
    value = json.loads(prep.read_bytes())
    assert value["lineage"][0]["reason"] == "matching-vendor"
    value["lineage"][0]["reason"] = FORGED
    prep.write_bytes(stdlib_canon(value))
    return entry / "fixtures" / "vendor-7"


POINTER = ("first differs at /lineage/0/reason: recorded <a string of 14 characters>, "
           "recomputed <a string of 15 characters>")


def test_preparation_differs_names_the_first_differing_member(edited_fixture):
    answer = verify(fixture_documents(edited_fixture))
    assert isinstance(answer, Found) and answer.code == "preparation-differs"
    assert answer.detail.endswith(POINTER) and FORGED not in answer.detail


def test_near_miss_the_unedited_fixture_gives_a_reading(edited_fixture):
    prep = edited_fixture / "preparation.json"
    value = json.loads(prep.read_bytes())
    value["lineage"][0]["reason"] = "matching-vendor"
    prep.write_bytes(stdlib_canon(value))
    answer = verify(fixture_documents(edited_fixture))
    assert not isinstance(answer, Found), answer


def test_exchange_verify_fixture_prints_the_pointer_not_the_value(edited_fixture, capsys):
    from judgment_exchange.cli import main

    assert main(["verify", "--fixture", str(edited_fixture)]) == 2
    out, err = capsys.readouterr()
    assert out == '{"finding":"preparation-differs","result":"finding"}\n'  # §11's report keeps its form
    assert POINTER in err and FORGED not in out + err


def test_a_difference_only_in_form_is_said_so():
    """The preparation as given is read from bytes that are not its canonical form, and its value is the
    recomputed one: nothing differs in value, and the finding says the form is what differs."""
    from judgment_exchange.verifier.verify import difference_text

    assert difference_text(read('{"a": 1}'), b'{"a":1}').startswith("no member differs in value")
    assert difference_text(read('{"a": 1}'), b'{"a":2}') == (  # "a" is no member name of our schema: described
        "first differs at /<a name of 1 character>: recorded <a number of 1 character>, "
        "recomputed <a number of 1 character>")
