"""A consumer's standard output is read as its verdict (conformance/verdict.parse): what is not one JSON value is
said, never raised. A number past Python's digit limit for int() makes json.loads raise a plain ValueError, not a
JSONDecodeError (it has no msg or pos): found typing conformance/ strictly (issue #37 item 5), where it crashed
`exchange conformance run` with AttributeError."""

from __future__ import annotations

from judgment_exchange.conformance.verdict import parse


def test_a_number_past_the_digit_limit_is_no_verdict():
    verdict, why = parse(b'{"result": ' + b"1" * 5000 + b"}")
    assert verdict is None
    assert why is not None and why.startswith("standard output is not one JSON value (Exceeds the limit"), why


def test_near_miss_malformed_json_still_says_where():
    verdict, why = parse(b'{"result": }')
    assert verdict is None
    assert why == "standard output is not one JSON value (Expecting value at character 11)", why
