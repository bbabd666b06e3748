"""The scan's shortcuts find what the long way finds (RFC 0019 §4): every plugin on every line, every string decoded.

The engine runs a plugin only on the lines where it can find something, and computes the entropy
plugins' findings in one pass; the tokenizer decodes a string without an escape by taking the text
between its quotes; a local path is looked for only where one of its anchors stands. Each is
compared here with the computation it replaces, on a corpus of every sample and near-miss in
several forms (indented, one line, escaped, CRLF, in a member name, with characters case-insensitive
matching reads as ASCII letters).
"""

from __future__ import annotations

import json

import pytest

from judgment_exchange.scan.engine import FAILED, Hit, _code, _filtered, engine
from judgment_exchange.scan.file_scan import scan_text
from judgment_exchange.scan.paths import ANCHOR, LOCAL_PATHS, anchored, find_local_paths
from judgment_exchange.scan.structure import _SURROGATE, NEWLINE, strings

from . import scan_entry_builder as builder
from .scan_samples import MORE_SAMPLES, NEAR_MISSES, SAMPLES

_VALUES = list(SAMPLES.values()) + [v for vs in MORE_SAMPLES.values() for v in vs] + list(NEAR_MISSES.values())
_UNLIKE_LOWER = "\u0130\u0131\u017f"


def _long_way(filename: str, text: str) -> list[tuple[int, str, str]]:
    """Every plugin's own analyze_line on every line, the engine's filters and codes applied."""
    out = []
    for number, line in enumerate(NEWLINE.split(text), start=1):
        line = line.rstrip()
        if not line:
            continue
        for plugin in engine().plugins:
            try:
                found = plugin.analyze_line(filename=filename, line=line, line_number=number)
            except Exception:
                out.append((number, FAILED, ""))
                continue
            for secret in found:
                value = secret.secret_value or ""
                if value and not _filtered(plugin, value, line):
                    out.append((number, _code(plugin, value), value))
    return sorted(out)


def _short_way(filename: str, text: str) -> list[tuple[int, str, str]]:
    hits: list[Hit] = engine().scan_lines(filename, enumerate(NEWLINE.split(text), start=1))
    return sorted((h.line, h.code, h.value) for h in hits)


def _corpus() -> list[tuple[str, str]]:
    """(name, text): the samples in a README, a result in several JSON forms, and as member names."""
    readme = "# t\n\n" + "\n".join(f"Reproduce with {v}" for v in _VALUES) + "\n"
    result = {f"v{i}": v for i, v in enumerate(_VALUES)}
    keys = {v: i for i, v in enumerate(_VALUES)}
    unlike = "\n".join(
        line.replace("s", "\u017f", 1).replace("i", "\u0131", 1) for line in readme.splitlines()
    ) + "\n" + "\u0130D = 'x'\n"
    escaped = "{\n" + ",\n".join(
        f'  "e{i}": "' + "".join(f"\\u{ord(c):04x}" for c in v[:3]) + json.dumps(v[3:])[1:-1] + '"'
        for i, v in enumerate(_VALUES)
    ) + "\n}\n"
    return [
        ("README.md", readme),
        ("README.md", readme.replace("\n", "\r\n")),
        ("README.md", unlike),
        ("sources.json", json.dumps(result, indent=2, ensure_ascii=False)),
        ("sources.json", json.dumps(result, separators=(",", ":"), ensure_ascii=False)),
        ("sources.json", json.dumps(result, indent=1, ensure_ascii=True)),
        ("case.json", json.dumps(keys, indent=2, ensure_ascii=False)),
        ("case.json", escaped),
    ] + [(rel.rsplit("/", 1)[-1], text) for rel, text in _entry_texts()]


def _entry_texts() -> list[tuple[str, str]]:
    out = []
    for rel, value in builder.documents().items():
        if isinstance(value, str):
            out.append((rel, value))
        else:
            out.append((rel, json.dumps(value, indent=2, ensure_ascii=False) + "\n"))
            out.append((rel, json.dumps(value, separators=(",", ":"), ensure_ascii=False)))
    return out


_CORPUS = _corpus()


@pytest.mark.parametrize("index", range(len(_CORPUS)))
def test_the_engine_finds_what_every_plugin_on_every_line_finds(index: int) -> None:
    name, text = _CORPUS[index]
    assert _short_way(name, text) == _long_way(name, text)


def test_the_corpus_exercises_the_engine() -> None:
    found = {code for name, text in _CORPUS for _, code, _ in _short_way(name, text)}
    assert {code for code in SAMPLES if code != "secret-high-entropy-base64"} <= found | {"secret-high-entropy-base64"}
    assert len(found) >= 30


def test_the_unlike_lower_characters_are_read_as_their_letters() -> None:
    """ſ, ı and İ match s, i and i case-insensitively; the keyword plugin still sees them."""
    line = 'pa\u017fsword = "' + SAMPLES["secret-keyword"].split('"')[1] + '"'
    assert _short_way("x.md", line) == _long_way("x.md", line) != []


@pytest.mark.parametrize("index", range(len(_CORPUS)))
def test_each_string_is_decoded_as_json_decodes_it(index: int) -> None:
    _, text = _CORPUS[index]
    tokens = strings(text)
    if tokens is None:
        return
    for token in tokens:
        assert token.value == _SURROGATE.sub("\ufffd", json.loads(token.raw))
        assert text.splitlines()[token.line - 1][token.start : token.end] == token.raw


def test_a_member_name_with_a_broken_escape_is_not_json_and_not_a_crash() -> None:
    text = '{"a\\x": "/home/alice/notes"}'
    assert strings(text) is None
    assert [(line, code) for line, code, _ in scan_text("fixtures/basic/case.json", text, lambda p: True)] == [
        (1, "local-path")
    ]


def _every_pattern(text: str) -> list[tuple[int, int, str]]:
    return [(m.start(), m.end(), name) for name, pattern in LOCAL_PATHS for m in pattern.finditer(text)]


@pytest.mark.parametrize(
    "text",
    [
        "/home/alice", "/Users/bob/x", "/root", "/root/", "x /root:", "/mnt/c/x", "C:\\Users", "d:/data",
        "\\\\server\\share", "FILE:///etc", "file:/x", "~/notes", "see https://host/home/x", "a:b", "~x",
        "/homer", "C:", "\\\\", "ſ", "", "/mnt/", "a\\\\b\\c", "https://host/x", "xC:/", "+C:\\a", "(C:/x)",
        '"D:\\data"', "FİLE:/x", "a file:/x", "s:/x", "-a:/x",
    ]
    + _VALUES,
)
def test_the_local_path_anchor_passes_every_local_path(text: str) -> None:
    assert list(find_local_paths(text)) == _every_pattern(text)
    assert anchored(text) == (ANCHOR.search(text) is not None)


def test_the_local_path_anchor_on_the_corpus() -> None:
    for _, text in _CORPUS:
        assert anchored(text) == (ANCHOR.search(text) is not None)
        for line in NEWLINE.split(text):
            assert list(find_local_paths(line)) == _every_pattern(line)
            assert anchored(line) == (ANCHOR.search(line) is not None)


@pytest.mark.parametrize("run", [0, 1, 253, 254, 255, 400])
def test_the_payload_run_is_found_as_its_pattern_finds_it(run: int) -> None:
    import re

    from judgment_exchange.scan.file_scan import _strings_may_add

    for text in ('{"a": "' + "Ab9+/_-" * 60 + '"}', '{"a": "x"}'):
        text = text[: 7 + run] + '"}' if run and len(text) > 7 + run else text
        assert _strings_may_add(text) == (re.search(r"[A-Za-z0-9+/_-]{254}", text) is not None)


@pytest.mark.parametrize("index", range(len(_CORPUS)))
def test_strings_are_read_only_where_they_can_add_a_finding(index: int) -> None:
    """Without an escape, a local path's anchor or a payload's run, the strings add nothing beside the hits' lines."""
    from judgment_exchange.scan.file_scan import _judge_json, _occurrences, _strings_may_add

    name, text = _CORPUS[index]
    for variant in (text, text.replace("\\", ""), "".join(c for c in text if c not in ":~\\")):
        tokens = strings(variant)
        if tokens is None:
            continue
        lines = NEWLINE.split(variant)
        hits = engine().scan_lines(name, enumerate(lines, start=1))
        holding = _occurrences(lines, hits)
        assert strings(variant, holding) == [
            t for t in tokens if any(t.start <= c < t.end for c in holding.get(t.line, ()))
        ]
        assert [(h, w) for h, w in _judge_json(name, lines, hits, tokens, False)] == [
            (h, w) for h, w in _judge_json(name, lines, hits, strings(variant, holding) or [], False)
        ]
        if _strings_may_add(variant):
            continue
        for relpath in ("fixtures/basic/sources.json", "fixtures/basic/preparation.json", "dialect.json"):
            assert list(_judge_json(relpath, lines, hits, tokens)) == list(
                _judge_json(relpath, lines, hits, tokens, strings_may_add=False)
            )


def test_an_entropy_never_exceeds_the_log_of_its_distinct_characters() -> None:
    """The bound `_finder` relies on: under log2(k) - 1e-6 the limit is never passed, uniform strings included."""
    import math
    import random

    from detect_secrets.plugins.high_entropy_strings import HighEntropyStringsPlugin

    rng = random.Random(6)
    plugins = [p for p in engine().plugins if isinstance(p, HighEntropyStringsPlugin)]
    assert len(plugins) == 3
    for plugin in plugins:
        alphabet = plugin.charset
        for k in range(1, min(len(alphabet), 40) + 1):
            chosen = rng.sample(alphabet, k)
            for value in ("".join(chosen) * 8, "".join(rng.choice(chosen) for _ in range(rng.randrange(k, 200)))):
                assert plugin.calculate_shannon_entropy(value) <= math.log2(len(set(value))) + 1e-9


@pytest.mark.parametrize(
    "text",
    [
        '{"a": "x", "b": NaN}',
        '{"a": "x", "b": 1.2.3}',
        '{"a": "x", "b": tru}',
        '{"a": "x", "b": "y"',
        '{"a": "x", "b": "\\q"}',
        '{"a": "x"} {}',
        '{"a": "x", "b": [' + "[" * 3000 + "]" * 3000 + "]}",
        '\ufeff{"a": "x"}',
        '{"a": "x", "b": 1e999}',
    ],
)
def test_strings_of_some_lines_agree_with_all_strings_past_the_last(text: str) -> None:
    """Past the last wanted column the rest is read by json or, where json refuses it, by the walk."""
    everything = strings(text)
    some = strings(text, {1: [text.index('"x"') + 1]})
    if everything is None:
        assert some is None
    else:
        assert some == [t for t in everything if t.raw == '"x"']


@pytest.mark.parametrize("index", range(len(_CORPUS)))
def test_exempt_from_secrets_is_secrets_among_the_exempt_prefixes(index: int) -> None:
    from judgment_exchange.scan.structure import SECRETS, exempt_from_secrets, exempt_prefixes

    _, text = _CORPUS[index]
    relpaths = ["entry.json", "dialect.json", "fixtures/basic/sources.json", "fixtures/basic/profiles.json",
                "fixtures/basic/preparation.json", "fixtures/basic/binding.json", "fixtures/basic/case.json"]
    for token in strings(text) or []:
        for relpath in relpaths:
            assert exempt_from_secrets(relpath, token) == (SECRETS in exempt_prefixes(relpath, token))


def test_exempt_from_secrets_on_the_real_entry() -> None:
    from judgment_exchange.scan.structure import SECRETS, exempt_from_secrets, exempt_prefixes

    exempt = 0
    for rel, text in _entry_texts():
        for token in strings(text) or []:
            assert exempt_from_secrets(rel, token) == (SECRETS in exempt_prefixes(rel, token))
            exempt += exempt_from_secrets(rel, token)
    assert exempt > 10


def test_the_keyword_plugin_tried_where_a_word_begins_finds_what_its_analyze_line_finds() -> None:
    """engine._keyword_values (patterns that begin with the denylist matched only where a denylist word begins)
    against KeywordDetector.analyze_line, on random lines of keywords, cases, assignments, quotes and file types."""
    import random

    from detect_secrets.plugins.keyword import KeywordDetector

    from judgment_exchange.scan.engine import _keyword_values, engine

    plugin = next(p for p in engine().plugins if isinstance(p, KeywordDetector))
    fast = _keyword_values(plugin)
    rng = random.Random(20261201)
    pieces = ["password", "PassWord", "api_key", "apikey", "secret", "Secret_Token", "pwd", "db_pass", "token",
              "contraseña", "CONTRASEÑA", "x", "abc123", "_v2", "=", ":", ":=", "=>", "==", "!==", " ", "'", '"', "`",
              ";", ",", "[", "]", "[0]", "@", "hunter2", "s3cr3t!", "\t", "(", ")", "{", "}", "\u0130", "\u017f"]
    names = ["a.py", "a.yaml", "a.json", "a.go", "README.md", "a.java", "a.c", "a.cpp", "a.ini", "a.tf", "payload"]
    for _ in range(5000):
        line = "".join(rng.choice(pieces) for _ in range(rng.randint(1, 14)))
        name = rng.choice(names)
        expected = {found.secret_value for found in plugin.analyze_line(filename=name, line=line, line_number=1)}
        assert set(fast(name, line, 1)) == expected, (name, line)


def test_the_unrolled_string_pattern_matches_what_the_alternation_matches() -> None:
    """structure._STRING (plain runs between escapes) against the alternation under one star it replaced
    (issue #11 item 4: that form kept a backtracking entry per character, 80 MB for a 0.5 MB string)."""
    import random
    import re

    from judgment_exchange.scan.structure import _STRING

    alternation = re.compile(r'"(?:[^"\\\x00-\x1f]|\\.)*"', re.S)
    rng = random.Random(20261201)
    pieces = ['"', "\\", '\\"', "\\\\", "\\u0041", "a", "b c", "\n", "\x00", "\x1f", "\u00e9", "\ud800", ":", "\\n"]
    for _ in range(20000):
        text = "".join(rng.choice(pieces) for _ in range(rng.randint(0, 12)))
        for at in range(len(text)):
            mine, theirs = _STRING.match(text, at), alternation.match(text, at)
            assert (mine and mine.span()) == (theirs and theirs.span()), (text, at)
