"""Bad input gets findings or nothing, never a crash: escapes, surrogates, nesting, line ends, malformed JSON
(RFC 0019 §4)."""

from __future__ import annotations

import pytest

from judgment_exchange.scan.file_scan import scan_text

from .scan_samples import SAMPLES

KEY = SAMPLES["secret-aws-access-key"]


def _found(relpath: str, text: str) -> list[tuple[int, str]]:
    return [(line, code) for line, code, _ in scan_text(relpath, text, lambda parts: True)]


@pytest.mark.parametrize(
    "text, expected",
    [
        ('{"a": "\\ud800 ' + KEY + '"}', [(1, "secret-aws-access-key")]),
        ('{"\\udfff": "\\ud800"}', []),
        ('{"a": "\\u0000' + KEY + '"}', [(1, "secret-aws-access-key")]),
        ('{"a": "\u202e' + KEY + '"}', [(1, "secret-aws-access-key")]),
        ("[" * 5000 + '"' + KEY + '"' + "]" * 5000, [(1, "secret-aws-access-key")]),
        ('{"a":' * 3000 + '"/home/alice/x"' + "}" * 3000, [(1, "local-path")]),
        ('{"a": "' + KEY, [(1, "secret-aws-access-key")]),
        ('{"a": "/home/alice/x", ', [(1, "local-path")]),
        ('{"a": "' + "x" * 200_000 + '"}', []),
    ],
    ids=["lone-surrogate", "surrogate-key", "nul-escape", "rtl-override", "deep-array", "deep-object",
         "unterminated", "malformed-path", "long-line"],
)
def test_hostile_json(text: str, expected: list) -> None:
    assert _found("fixtures/basic/sources.json", text) == expected


@pytest.mark.parametrize("newline", ["\n", "\r\n", "\r"])
def test_lines_count_every_line_end(newline: str) -> None:
    text = newline.join(["{", '  "a": 1,', '  "b": "' + KEY + '"', "}"])
    assert _found("fixtures/basic/case.json", text) == [(3, "secret-aws-access-key")]
    markdown = newline.join(["# t", "", "key " + KEY])
    assert _found("README.md", markdown) == [(3, "secret-aws-access-key")]


def test_a_key_split_by_a_zero_width_character_is_not_recognised() -> None:
    """Obfuscation is outside what the scan recognises (docs/scanning.md, Not recognised)."""
    assert _found("README.md", KEY[:4] + "\u200b" + KEY[4:]) == []


def _encoded_json(data: bytes) -> str:
    import base64

    return base64.urlsafe_b64encode(data).decode().rstrip("=")


def test_a_detector_that_fails_on_a_line_fails_closed() -> None:
    nested = _encoded_json(b'{"a":' + b"[" * 100_000 + b"]" * 100_000 + b"}")
    assert _found("README.md", "# t\ntoken " + nested + "." + nested + ".abc\n") == [(2, "scan-detector-failed")]


def test_a_well_formed_token_of_the_same_shape_is_a_finding_not_a_failure() -> None:
    shallow = _encoded_json(b'{"a":[[1]]}')
    assert _found("README.md", "# t\ntoken " + shallow + "." + shallow + ".abc\n") == [(2, "secret-jwt")]
