"""The string grammars of RFC 0019 §3, with their near-misses."""

from __future__ import annotations

import pytest

from judgment_exchange.catalog import grammar


@pytest.mark.parametrize("tag,key", [("v0.1.0", (0, 1, 0)), ("v10.0.3", (10, 0, 3)), ("v0.10.0", (0, 10, 0))])
def test_release_tags(tag, key):
    assert grammar.release_key(tag) == key


@pytest.mark.parametrize("tag", ["1.0.0", "v1.0", "v01.0.0", "v1.0.0-rc.1", "V1.0.0", "v1.0.0 "])
def test_not_release_tags(tag):
    assert grammar.release_key(tag) is None


def test_tags_order_by_integers():
    assert grammar.release_key("v0.9.0") < grammar.release_key("v0.10.0")


@pytest.mark.parametrize("value", ["v0.10.0", ">=v0.10.0 <v0.11.0", ">=v0.9.0 <v0.10.0"])
def test_compatibility(value):
    assert grammar.compatibility_problem(value) is None


@pytest.mark.parametrize("value", [">=v0.10.0  <v0.11.0", ">=v0.11.0 <v0.10.0", ">=v0.10.0 <v0.10.0", "<v1.0.0",
                                   ">=v0.10.0", "v0.10.0 - v0.11.0", ">= v0.10.0 <v0.11.0", "~v1.0.0"])
def test_compatibility_refused(value):
    assert grammar.compatibility_problem(value)


def test_reader_locator_example_from_the_rfc():
    assert grammar.locator_problem("Judgment-Pack/judgment-pack-runner/cmd/verify-run@82116bf") is None
    assert grammar.locator_problem("a/b/c/d.e@" + "0" * 40) is None


@pytest.mark.parametrize("value", ["a/b@82116bf", "a/b/c@82116b", "a/b/c@82116BF", "a/b/./c@82116bf",
                                   "a/b//c@82116bf", "a b/n/p@82116bf", "a/b/c@" + "0" * 41])
def test_reader_locator_refused(value):
    assert grammar.locator_problem(value)


def test_last_at_separates_the_commit():
    assert grammar.locator_problem("o/n/p@x@82116bf")  # '@' is no path character


@pytest.mark.parametrize("value,ok", [("Apache-2.0", True), ("LicenseRef-Acme-1", True), ("MIT OR Apache-2.0", False),
                                      ("(MIT)", False), ("-MIT", False), ("A" * 65, False)])
def test_licence(value, ok):
    assert (grammar.licence_problem(value) is None) == ok


@pytest.mark.parametrize("value,ok", [("2026-10-16", True), ("2024-02-29", True), ("2026-02-30", False),
                                      ("2026-1-16", False), ("2026-13-01", False)])
def test_date(value, ok):
    assert (grammar.date_problem(value) is None) == ok


@pytest.mark.parametrize("value,ok", [("https://packs.example.org/a", True), ("urn:judgmentpack:pack:x", True),
                                      ("packs/a", False), ("https://x/a#frag", False), ("https://x/a b", False),
                                      ("1http://x", False), ("https:", False)])
def test_absolute_uri(value, ok):
    assert (grammar.absolute_uri_problem(value) is None) == ok
