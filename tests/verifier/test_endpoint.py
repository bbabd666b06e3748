"""The constrained page endpoint and scope matching (dialect §5.1), with the examples the text gives."""

from __future__ import annotations

import pytest

from judgment_exchange.verifier.endpoint import entry_ok, matches, parse

VALID = ["https://docs.example.org", "https://docs.example.org:443/a", "https://docs.example.org:/a",
         "https://a-b.example.org/x;y", "https://docs.example.org/%2e%2ex", "https://Docs.Example.ORG/A%41"]
INVALID = [
    "http://docs.example.org", "https://localhost", "https://1.2.3.4", "https://docs.example.org:8443",
    "https://user@docs.example.org", "https://docs.example.org/?q=1", "https://docs.example.org/#f",
    "https://docs.example.org.", "https://-a.example.org", "https://a_b.example.org", "https://*.example.org",
    "https://docs.example.org/a\\b", "https://docs.example.org/%zz", "https://docs.example.org/a%2fb",
    "https://docs.example.org/a%5Cb", "https://docs.example.org/..", "https://docs.example.org/a/./b",
    "https://docs.example.org/%2e%2E", "https://docs.example.org/..;x", "https://docs.example.org/.;",
    "https://docs.example.org/%2e%2e;", "https://docs.example.org/..%3bx", "https://docs.example.org/.%00",
    "https://docs.example.org/caf\u00e9", "https://docs.example.1org", "https://docs.example.org/a b",
]


@pytest.mark.parametrize("text", VALID)
def test_valid_forms(text):
    assert parse(text) is not None


@pytest.mark.parametrize("text", INVALID)
def test_refused_forms(text):
    assert parse(text) is None


def test_wildcard_entry():
    assert entry_ok("https://*")
    assert not entry_ok("https://*/docs")
    assert matches(["https://*"], "https://anything.example.net/x")
    assert not matches(["https://*"], "https://10.0.0.1/x")


@pytest.mark.parametrize("prefix,endpoint,admitted", [
    ("https://example.org/docs", "https://example.org/docs", True),
    ("https://example.org/docs", "https://example.org/docs/x", True),
    ("https://example.org/docs", "https://example.org/docsx", False),
    ("https://example.org/docs/", "https://example.org/docs/", True),
    ("https://example.org/docs/", "https://example.org/docs/x", True),
    ("https://example.org/docs/", "https://example.org/docs", False),
    ("https://example.org", "https://example.org", True),
    ("https://example.org/", "https://example.org", True),
    ("https://EXAMPLE.org:443/docs", "https://example.ORG:/docs/a", True),
    ("https://example.org/Docs", "https://example.org/docs", False),
    ("https://example.org/docs", "https://sub.example.org/docs", False),
    ("https://example.org/a%2Fb", "https://example.org/a%2Fb", False),
])
def test_prefix_matching(prefix, endpoint, admitted):
    assert matches([prefix], endpoint) is admitted
