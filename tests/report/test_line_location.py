"""line_of: the line of the member a JSON Pointer names, from a document's bytes (hand-counted lines)."""

from __future__ import annotations

from judgment_exchange.annotations import line_of

DOC = b"""{
  "id": "acme.x",
  "dialect": {
    "path": "dialect.json",
    "digest": "sha256:00"
  },
  "a/b": {"c~d": 1},
  "fixtures": [
    {"name": "one"},
    {
      "name": "two", "preparationDigest": "sha256:11"
    }
  ],
  "note": "a \\"quoted\\" \\u005b value ] }",
  "last": true
}
"""


def test_members_and_elements():
    assert line_of(DOC, "") == 1
    assert line_of(DOC, "/id") == 2
    assert line_of(DOC, "/dialect") == 3
    assert line_of(DOC, "/dialect/digest") == 5
    assert line_of(DOC, "/fixtures/0") == 9
    assert line_of(DOC, "/fixtures/1") == 10
    assert line_of(DOC, "/fixtures/1/preparationDigest") == 11
    assert line_of(DOC, "/last") == 15


def test_escaped_tokens_and_strings_with_brackets():
    assert line_of(DOC, "/a~1b") == 7
    assert line_of(DOC, "/a~1b/c~0d") == 7
    assert line_of(DOC, "/note") == 14


def test_an_absent_member_gives_its_nearest_present_ancestor():
    assert line_of(DOC, "/dialect/formatVersion") == 3
    assert line_of(DOC, "/fixtures/7/name") == 8
    assert line_of(DOC, "/fixtures/01") == 8  # a leading zero is no index (RFC 6901)
    assert line_of(DOC, "/missing") == 1


def test_not_a_pointer_or_not_json():
    assert line_of(DOC, "id") is None
    assert line_of(b"", "/id") is None
    assert line_of(b'{"id": "unterminated', "/x") == 1
    assert line_of(b'{\n"a": "unterminated', "/a") == 2


def test_deep_nesting_is_no_crash():
    """Attack: a document nested far beyond any recursion limit."""
    deep = b"[" * 200_000 + b"]" * 200_000
    assert line_of(b'{\n"x": ' + deep + b',\n"y": 1}', "/y") == 3
    assert line_of(b"[" * 200_000, "/0/0/0") == 1
