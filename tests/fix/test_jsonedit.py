"""jsonedit.replace_member: one member's value replaced, every other byte kept (issue #9, exchange fix).

Expected bytes are written out by hand; round-trips compare against the standard library's reading.
"""

from __future__ import annotations

import json

import pytest

from judgment_exchange.authoring.jsonedit import JsonEditError, PointerNotFound, insert_member, replace_member
from judgment_exchange.jsonstrict import Bounds, Number, loads

PRETTY = (b'{\n  "entryVersion": 3,\n  "score": 1.50,\n  "dialect": {\n    "path": "dialect.json",\n'
          b'    "digest": "sha256:old"\n  },\n  "list": [1, 2],\n  "title": "caf\xc3\xa9 \\u00e9"\n}\n')
BOUNDS = Bounds(max_bytes=1 << 20)


def test_replaces_a_nested_string_and_keeps_every_other_byte():
    out = replace_member(PRETTY, ("dialect", "digest"), "sha256:new")
    assert out == PRETTY.replace(b"sha256:old", b"sha256:new")


def test_number_literals_and_escapes_elsewhere_are_kept():
    out = replace_member(PRETTY, ("entryVersion",), Number("4"))
    assert b'"score": 1.50' in out and b"\\u00e9" in out and b"caf\xc3\xa9" in out
    assert out == PRETTY.replace(b'"entryVersion": 3', b'"entryVersion": 4')


def test_number_objects_are_written_as_their_literal():
    assert replace_member(b'{"a":1}', ("a",), Number("1.0E+2")) == b'{"a":1.0E+2}'


def test_a_new_object_in_a_pretty_document_takes_its_indentation():
    out = replace_member(PRETTY, ("dialect",), {"path": "d.json", "digest": "sha256:x"})
    expected = PRETTY.replace(b'{\n    "path": "dialect.json",\n    "digest": "sha256:old"\n  }',
                              b'{\n    "path": "d.json",\n    "digest": "sha256:x"\n  }')
    assert out == expected


def test_four_space_documents_keep_four_spaces():
    doc = b'{\n    "a": {\n        "b": 1\n    },\n    "c": 2\n}'
    out = replace_member(doc, ("c",), {"x": [True, None]})
    assert out == (b'{\n    "a": {\n        "b": 1\n    },\n    "c": {\n        "x": [\n            true,\n'
                   b'            null\n        ]\n    }\n}')


def test_a_compact_document_stays_compact():
    out = replace_member(b'{"a":{"b":1},"c":2}', ("a",), {"z": [1, 2], "y": {}})
    assert out == b'{"a":{"z":[1,2],"y":{}},"c":2}'


def test_a_one_line_container_inside_a_pretty_document_stays_one_line():
    out = replace_member(PRETTY, ("list", 1), {"q": [1]})
    assert b'"list": [1, {"q": [1]}]' in out


def test_array_index_and_artifact_pair():
    doc = b'{\n  "fixtures": [\n    {"name": "a", "preparationDigest": "sha256:0"}\n  ]\n}\n'
    out = replace_member(doc, ("fixtures", 0, "preparationDigest"), "sha256:1")
    assert out == doc.replace(b"sha256:0", b"sha256:1")


def test_root_replacement_keeps_surrounding_whitespace():
    assert replace_member(b' [1] \n', (), [2]) == b' [2] \n'


def test_non_ascii_value_is_written_raw():
    out = replace_member(PRETTY, ("title",), "ünï")
    assert "\"title\": \"ünï\"".encode() in out


@pytest.mark.parametrize("pointer", [("missing",), ("dialect", "nope"), ("list", 2), ("list", "0"),
                                      ("entryVersion", "x"), ("dialect", 0)])
def test_a_pointer_that_does_not_exist_is_refused(pointer):
    with pytest.raises(PointerNotFound):
        replace_member(PRETTY, pointer, "x")


def test_a_duplicate_member_name_is_refused():
    with pytest.raises(JsonEditError):
        replace_member(b'{"a":1,"a":2}', ("a",), 3)


@pytest.mark.parametrize("data", [b"", b"{", b'{"a":1} x', b"\xff", b"[" * 5000 + b"]" * 5000])
def test_malformed_documents_are_refused(data):
    with pytest.raises(JsonEditError):
        replace_member(data, ("a",), 1)


def test_booleans_are_not_array_indices():
    with pytest.raises(PointerNotFound):
        replace_member(b"[1]", (False,), 2)


@pytest.mark.parametrize("pointer,value", [
    (("dialect", "digest"), "sha256:" + "a" * 64),
    (("dialect",), {"path": "dialect.json", "digest": "sha256:b", "n": Number("-0.5e3")}),
    (("list",), []),
    (("list", 0), {"k": ["v", {"w": None}], "e": {}}),
    (("title",), "a \"quoted\" \\ line\n\u2028 ✓"),
])
def test_round_trip_through_jsonstrict(pointer, value):
    out = replace_member(PRETTY, pointer, value)
    got = loads(out, BOUNDS)
    target = got
    for step in pointer[:-1]:
        target = target[step]
    assert target[pointer[-1]] == value
    # the rest of the document reads as before: replace back with the original and compare to the stdlib
    expected = json.loads(PRETTY)
    std_target = expected
    for step in pointer[:-1]:
        std_target = std_target[step]
    std_target[pointer[-1]] = json.loads(json.dumps(value, default=lambda n: float(n.literal)))
    assert json.loads(out, parse_float=float) == expected


def test_insert_member_after_a_named_member_in_a_pretty_document():
    doc = b'{\n  "dialect": {\n    "path": "dialect.json"\n  },\n  "requires": {}\n}\n'
    out = insert_member(doc, (), "artifact", {"id": "urn:x", "version": "0.1.0"}, after="dialect")
    assert out == (b'{\n  "dialect": {\n    "path": "dialect.json"\n  },\n  "artifact": {\n    "id": "urn:x",\n'
                   b'    "version": "0.1.0"\n  },\n  "requires": {}\n}\n')


def test_insert_member_compact_and_last_and_into_an_empty_object():
    assert insert_member(b'{"a":1, "b":2}', (), "c", [1, 2]) == b'{"a":1, "b":2, "c":[1, 2]}'
    assert insert_member(b'{"a":{}}', ("a",), "z", 1) == b'{"a":{"z":1}}'


def test_insert_member_refuses_an_existing_name_and_a_non_object():
    with pytest.raises(JsonEditError):
        insert_member(b'{"a":1}', (), "a", 2)
    with pytest.raises(PointerNotFound):
        insert_member(b'{"a":[1]}', ("a",), "b", 2)


def test_a_missing_members_pointer_is_written_escaped():
    """The message names the pointer as RFC 6901 writes it (pointers.escape, the one spelling)."""
    with pytest.raises(PointerNotFound, match=r"^/a~1b~0c: no such member \(\(the root\) is an object\)$"):
        replace_member(b'{"x": 1}', ("a/b~c",), 2)
