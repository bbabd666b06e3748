"""A local path right after a colon (issue #11 item 2; RFC 0019 §4: the scan refuses a local path).

A PATH-like list and a passwd line put a home directory right after `:`; the scan read a colon as a
path character and missed them. The near-misses keep a colon next to a slash without a local path:
URLs, a port, digests, times, URNs, and a JSON pointer where a dialect holds one (exempt by structure).
"""

from __future__ import annotations

import json

import pytest

from judgment_exchange.scan.file_scan import scan_text


def _found(relpath: str, text: str) -> list[tuple[int, str]]:
    return [(line, code) for line, code, _ in scan_text(relpath, text, lambda parts: True)]


def test_local_path_after_colon_in_path_list() -> None:
    assert _found("README.md", "PATH=/usr/local/bin:/usr/bin:/home/alice/bin\n") == [(1, "local-path")]


def test_local_path_in_passwd_line() -> None:
    assert _found("README.md", "alice:x:1000:1000::/home/alice:/bin/bash\n") == [(1, "local-path")]


def test_root_home_after_colon_in_passwd_line() -> None:
    assert _found("README.md", "root:x:0:0:root:/root:/bin/bash\n") == [(1, "local-path")]


def test_local_path_after_colon_in_a_json_string() -> None:
    text = json.dumps({"env": "PYTHONPATH=/opt/lib:/Users/bob/lib", "copy": "host:/mnt/c/exports"}, indent=2)
    assert _found("fixtures/basic/case.json", text) == [(2, "local-path"), (3, "local-path")]


@pytest.mark.parametrize(
    "text",
    [
        "https://example.com/home/alice and http://localhost:8080/home/x",
        "s3://bucket/home/alice/rows.csv",
        "https://home/alice",
        "sha256:" + "0a1b2c3d" * 8,
        "at 12:00:00 on 2026-11-30T09:15:00Z",
        "urn:isbn:0451450523 and mailto:alice@example.com",
        "PATH=/usr/local/bin:/usr/bin:/bin",
        "a ratio 3:2/home is no path",
    ],
    ids=["url", "s3-url", "url-host-home", "digest", "times", "urn", "system-path-list", "ratio"],
)
def test_colon_near_misses_pass(text: str) -> None:
    assert _found("README.md", text + "\n") == []
    assert _found("fixtures/basic/case.json", json.dumps({"note": text}) + "\n") == []


def test_json_pointer_after_colon_where_a_dialect_holds_one_passes() -> None:
    dialect = {"sources": [{"read": {"from": "/home/address"}}], "note": "see:/home/address"}
    text = json.dumps(dialect, indent=2)
    note = next(i for i, line in enumerate(text.split("\n"), start=1) if '"note"' in line)
    assert _found("dialect.json", text) == [(note, "local-path")]  # the pointer passes; the note does not
