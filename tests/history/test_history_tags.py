"""Release tags: §3's grammar and integer order (RFC 0019 §§3, 7)."""

from __future__ import annotations

import pytest

from judgment_exchange.history import Release, previous_releases, release_key


@pytest.mark.parametrize(
    "tag, version",
    [
        ("v0.0.0", (0, 0, 0)),
        ("v0.1.0", (0, 1, 0)),
        ("v10.20.30", (10, 20, 30)),
        ("v1.0.12345678901234567890", (1, 0, 12345678901234567890)),
    ],
)
def test_release_tags(tag: str, version: tuple[int, int, int]) -> None:
    assert release_key(tag) == version


@pytest.mark.parametrize(
    "tag",
    [
        "1.0.0", "v1.0", "v01.0.0", "v1.00.0", "v1.0.0-rc.1", "v1.0.0+build", "V1.0.0",
        "v1.0.0\n", " v1.0.0", "v1..0", "v\u0661.0.0", "v1.0.0.0", "",
    ],
)
def test_tags_outside_the_grammar(tag: str) -> None:
    assert release_key(tag) is None


def _releases(*tags: str) -> list[Release]:
    return sorted((Release(t, release_key(t), "0" * 40) for t in tags), key=lambda r: r.version)


def test_order_is_by_integer_components_not_text() -> None:
    assert [r.tag for r in _releases("v0.10.0", "v0.9.0", "v0.2.0", "v1.0.0", "v0.11.0")] == [
        "v0.2.0", "v0.9.0", "v0.10.0", "v0.11.0", "v1.0.0",
    ]


def test_previous_releases_of_a_release_are_the_lower_tags() -> None:
    releases = _releases("v0.2.0", "v0.9.0", "v0.10.0", "v0.11.0")
    assert [r.tag for r in previous_releases(releases, "v0.10.0")] == ["v0.2.0", "v0.9.0"]
    assert [r.tag for r in previous_releases(releases, "v0.0.1")] == []


def test_previous_releases_of_a_pull_request_are_all() -> None:
    releases = _releases("v0.2.0", "v0.9.0")
    assert [r.tag for r in previous_releases(releases, None)] == ["v0.2.0", "v0.9.0"]
