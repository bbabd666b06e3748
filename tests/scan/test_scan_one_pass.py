"""The one-pass scan finds what the long way finds (issue #12 item 3; RFC 0019 §4).

The engine looks a file over once for every plugin's literals (scan/prefilter.py), runs only the
plugins whose literals stand, each only on the lines its row patterns or literals pick, and reads
the entropy plugins' maximal runs only. Each of these is held here to the computation it replaces,
built in the test: every plugin's own `analyze_line` on every line of the file (the long way), on a
corpus of every file of docs/demo-catalog, tests/vectors and tests/cases/scan, those files with the
hostile sweep's planted tokens, samples written for each plugin's shape (tests/scan/scan_samples.py
and the assignment forms below), and hypothesis-generated lines mixing every plugin's literals, row
forms, tokens and random text. A file's findings are held to the same file scanned with the long
way, the tokenizer walk (structure._strings) and unguarded link and local-path readers.
"""

from __future__ import annotations

import json
import re
from functools import lru_cache
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from judgment_exchange.scan import engine as engine_module
from judgment_exchange.scan import file_scan, links, prefilter, structure
from judgment_exchange.scan.engine import FAILED, _code, _every_row, _filtered, engine
from judgment_exchange.scan.paths import find_local_paths
from judgment_exchange.scan.structure import NEWLINE

from .scan_samples import MORE_SAMPLES, NEAR_MISSES, SAMPLES, hex_of

ROOT = Path(__file__).resolve().parents[2]
GITHUB = "ghp_" + "R8kq2VzX7wLm4Tn9Bc3Hd6Jf1Gs5Pa0Ye8Uo"
AWS = "AKIA" + "Q3ZT7XN2LW8VB4MK"
"""The hostile sweep's planted tokens (tests/hostile/test_secret_echo_sweep.py), built from pieces as it builds them."""


# --- the long way ---------------------------------------------------------------------------------


def long_way(filename: str, text: str) -> list[tuple[int, str, str]]:
    """Every plugin's own analyze_line on every line, the engine's filters and codes applied."""
    out = []
    for number, line in enumerate(NEWLINE.split(text), start=1):
        line = line.rstrip()
        if line:
            out.extend((number, code, value) for code, value in _long_line(filename, line))
    return sorted(out)


@lru_cache(maxsize=None)
def _long_line(filename: str, line: str) -> tuple[tuple[str, str], ...]:
    """(code, value) of every plugin's findings on one line (a line holds the same wherever it stands)."""
    out = []
    for plugin in engine().plugins:
        try:
            found = plugin.analyze_line(filename=filename, line=line, line_number=1)
        except Exception:
            out.append((FAILED, ""))
            continue
        for secret in found:
            value = secret.secret_value or ""
            if value and not _filtered(plugin, value, line):
                out.append((_code(plugin, value), value))
    return tuple(out)


def one_pass(filename: str, text: str) -> list[tuple[int, str, str]]:
    hits = engine().scan_lines(filename, enumerate(NEWLINE.split(text), start=1))
    return sorted((h.line, h.code, h.value) for h in hits)


class _LongWayEngine:
    """The engine's interface, every plugin on every line (for the file-level comparison)."""

    def __init__(self) -> None:
        self.base64_entropy = engine().base64_entropy

    def scan_lines(self, filename, lines, skip=None):
        """Every hit, `skip` ignored: structure exempts them after, as it did before values were skipped."""
        out = []
        for number, text in lines:
            for _, code, value in long_way(filename, text):
                out.append(engine_module.Hit(number, code, value))
        return out


def _walk_only(text, holding=None):
    try:
        return structure._strings(text, holding)
    except structure._NotJson:
        return None


def _links_unguarded(text_lines):
    """links.links as it was before its per-line guards: every pattern on every line."""
    fence = None
    for number, line in enumerate(text_lines, start=1):
        m = links._FENCE.match(line)
        if fence is not None:
            if m and m.group(1)[0] == fence[0] and len(m.group(1)) >= len(fence):
                fence = None
            continue
        if m:
            fence = m.group(1)
            continue
        bare = links._CODE_SPAN.sub(lambda c: " " * len(c.group(0)), line)
        for pattern in (links._INLINE, links._REFERENCE, links._AUTOLINK):
            for found in pattern.finditer(bare):
                target = found.group(1)
                if target.startswith("<") and target.endswith(">"):
                    target = target[1:-1]
                yield number, target.strip()
        for found in links._HTML.finditer(bare):
            yield number, next(g for g in found.groups() if g is not None).strip()


def _local_paths_unguarded(lines, text):
    for number, line in enumerate(lines, start=1):
        for _start, _end, shape in find_local_paths(line):
            yield engine_module.Hit(number, "local-path", shape), f"{shape} (the value is not shown)"


def long_way_file(relpath: str, text: str, monkeypatch) -> list:
    """scan_text with the long way's engine, the walk's strings and the unguarded readers."""
    with monkeypatch.context() as m:
        slow = _LongWayEngine()
        m.setattr(file_scan, "engine", lambda: slow)
        m.setattr(file_scan, "strings", _walk_only)
        m.setattr(file_scan, "_local_paths_in_lines", _local_paths_unguarded)
        m.setattr(links, "links", _links_unguarded)
        return file_scan.scan_text(relpath, text, lambda parts: parts[-1:] != ["missing"])


# --- the corpus -----------------------------------------------------------------------------------


def _repository_files() -> list[tuple[str, str]]:
    out = []
    for top in ("docs/demo-catalog", "tests/vectors", "tests/cases/scan"):
        for path in sorted((ROOT / top).rglob("*")):
            if not path.is_file():
                continue
            try:
                text = path.read_bytes().decode("utf-8")
            except UnicodeDecodeError:
                continue
            out.append((str(path.relative_to(ROOT / top)), text))
    return out


def _planted(value, token: str):
    """The sweep's planting: the token added to every string and member name."""
    if isinstance(value, str):
        return value + token
    if isinstance(value, list):
        return [_planted(v, token) for v in value]
    if isinstance(value, dict):
        return {k + token: _planted(v, token) for k, v in value.items()}
    return value


def _hostile_files(files: list[tuple[str, str]]) -> list[tuple[str, str]]:
    out = []
    for rel, text in files:
        if rel.startswith("entries/") and rel.endswith(".json"):
            try:
                value = json.loads(text)
            except ValueError:
                continue
            for token in (GITHUB, AWS):
                out.append((rel, json.dumps(_planted(value, token), indent=2)))
        elif rel.endswith(".md"):
            out.append((rel, "\n".join(line + " " + GITHUB + " " + AWS for line in text.splitlines())))
    return out


_A = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"


def _assignment_samples() -> list[str]:
    """detect-secrets' assignment forms (build_assignment_regex) around each keyword its plugins name, with
    values of each plugin's length: the forms whose rows the prefilters pick by pattern."""
    import random

    rng = random.Random(20261201)
    values = {
        "hex48": "".join(rng.choice("0123456789abcdef") for _ in range(48)),
        "hex64": "".join(rng.choice("0123456789abcdef") for _ in range(64)),
        "low24": "".join(rng.choice("abcdefghijklmnopqrstuvwxyz") for _ in range(24)),
        "iam44": "".join(rng.choice(_A + "_-") for _ in range(44)),
        "sl64": "".join(rng.choice("abcdefghijklmnopqrstuvwxyz0123456789") for _ in range(64)),
        "aws40": "".join(rng.choice(_A + "/+") for _ in range(40)),
    }
    names = ["password", "pass", "pwd", "pw", "key", "token", "Password", "api_key", "apikey", "secret_access_key",
             "secret-key", "secretkey", "secret_key"]
    prefixes = ["", "cloudant_", "cl", "clou-", "ibm_cloud_iam_", "cloud-", "iam", "softlayer_", "sl-", "sl_api_",
                "ibm_cos_hmac_", "cos-", "aws_", "AWS_", "db_"]
    forms = ['{n} = "{v}"', '{n}="{v}"', "{n}: '{v}'", '"{n}": "{v}"', "[{n}] := {v}", "{n} => {v}", "{n}  {v}",
             "{n}::{v}", '["{n}"]={v}', "{n}:{v}x", "{n} = {v}{v}"]
    out = []
    for prefix in prefixes:
        for name in names:
            for value in values.values():
                form = forms[(len(out) * 7) % len(forms)]
                out.append(form.format(n=prefix + name, v=value))
    out += ["https://user:" + values["low24"] + "@acct.cloudant.com",
            "https://api.softlayer.com/soap/v3/" + values["sl64"],
            "aws key is 'xyz' " + "'" + values["aws40"] + "'"]
    return out


def _corpus() -> list[tuple[str, str]]:
    files = _repository_files()
    values = list(SAMPLES.values()) + [v for vs in MORE_SAMPLES.values() for v in vs] + list(NEAR_MISSES.values())
    samples = "\n".join(values + _assignment_samples()) + "\n"
    unlike = samples.replace("s", "\u017f", 3).replace("i", "\u0131", 3) + "\u0130D = 'x'\n"
    return files + _hostile_files(files) + [
        ("README.md", samples),
        ("config.yaml", samples),
        ("case.json", json.dumps({f"v{i}": v for i, v in enumerate(samples.splitlines())}, indent=2)),
        ("README.md", unlike),
        ("README.md", samples.replace("\n", "\r\n")),
    ]


_CORPUS = _corpus()
_NAMES = {name.rsplit("/", 1)[-1] for name, _ in _CORPUS}


@pytest.mark.parametrize("index", range(len(_CORPUS)), ids=[n for n, _ in _CORPUS])
def test_the_one_pass_scan_finds_what_every_plugin_on_every_line_finds(index: int) -> None:
    name, text = _CORPUS[index]
    filename = name.rsplit("/", 1)[-1]
    assert one_pass(filename, text) == long_way(filename, text)


def test_the_corpus_reaches_every_plugin() -> None:
    """Every plugin finds something somewhere in the corpus (so no plugin's prefilter is tested on nothing)."""
    found = set()
    for name, text in _CORPUS:
        for plugin in engine().plugins:
            for line in NEWLINE.split(text):
                if line.strip() and plugin.analyze_line(filename=name.rsplit("/", 1)[-1], line=line.rstrip(),
                                                        line_number=1):
                    found.add(type(plugin).__name__)
                    break
    assert found == {type(p).__name__ for p in engine().plugins}


def test_an_ibm_key_after_password_is_found() -> None:
    """The IBM Cloud IAM plugin reads `password = "<44 characters>"`; the row filter before this change did not
    (its keyword stopped at `pass`, and `word` is no assignment)."""
    line = 'password = "' + "aB3dE5gH7jK9mN1pQ3sT5vW7yZ9bC1eF3hJ5kL7nP9rX" + '"'
    assert ("secret-ibm-cloud-iam-key" in {code for _, code, _ in one_pass("README.md", line)})
    assert one_pass("README.md", line) == long_way("README.md", line)


FILE_CORPUS = [(rel, text) for rel, text in _CORPUS if rel.endswith((".json", ".md"))]


@pytest.mark.parametrize("index", range(len(FILE_CORPUS)), ids=[n for n, _ in FILE_CORPUS])
def test_a_files_findings_are_those_of_the_long_way(index: int, monkeypatch) -> None:
    """scan_text, in order: the one-pass engine, json's strings, the guarded readers against the long way, the
    walk and the unguarded readers, under every document name the exemptions read."""
    rel, text = FILE_CORPUS[index]
    name = rel.rsplit("/", 1)[-1]
    own = "/".join(rel.split("/")[3:]) if rel.startswith("entries/") else rel  # relative to its entry
    relpaths = {own} if name.endswith(".md") else {
        own, "fixtures/basic/sources.json", "fixtures/basic/preparation.json"}
    for relpath in sorted(relpaths):
        fast = file_scan.scan_text(relpath, text, lambda parts: parts[-1:] != ["missing"])
        assert fast == long_way_file(relpath, text, monkeypatch), relpath


# --- hypothesis: lines mixing every plugin's literals, forms, tokens and random text ----------------


def _literals() -> list[str]:
    out = set()
    for condition in prefilter.PREFILTERS.values():
        out.update(condition.lower)
        out.update(w.upper() for w in condition.lower)
        out.update(w.title() for w in condition.lower)
        out.update(condition.cased)
    return sorted(out)


_SAMPLE_VALUES = sorted(
    set(SAMPLES.values()) | {v for vs in MORE_SAMPLES.values() for v in vs} | set(NEAR_MISSES.values()))
_ASSIGNMENTS = _assignment_samples()

_piece = st.one_of(
    st.sampled_from(_literals()),
    st.sampled_from(_SAMPLE_VALUES),
    st.sampled_from(_ASSIGNMENTS),
    st.sampled_from(['"', "'", " ", "=", ":", " = ", ": ", "=>", ":=", "::", "[", "]", "?", "&", ";", "@", "://", ".",
                     "-", "_", "/", "+", "\t", "{", "}", ",", "\u017f", "\u0131", "\u0130", "é", "12345678:"]),
    st.text(alphabet="0123456789abcdef", min_size=8, max_size=70),
    st.text(alphabet=_A + "+/=_-", min_size=1, max_size=90),
    st.text(alphabet="abcdefghijklmnopqrstuvwxyz234567", min_size=50, max_size=54),
    st.text(min_size=0, max_size=8),
)
_line = st.lists(_piece, min_size=1, max_size=10).map("".join)
_text = st.lists(_line, min_size=1, max_size=5).map("\n".join)
_filename = st.sampled_from(["a.json", "README.md", "x.py", "a.yaml", "payload", "name", "a.go", "a.java"])


@settings(max_examples=250, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(_filename, _text)
def test_generated_lines_one_pass_equals_long_way(filename: str, text: str) -> None:
    assert one_pass(filename, text) == long_way(filename, text)


_prefixes = st.sampled_from(["", "[", '"', "'", " ", "x_", "ibm", "ibm_cloud_iam", "cloud_", "cl", "clou", "cloudant",
                             "sl", "softlayer", "ibm_cos_hmac_", "cos-", "aws_", "db_", "Cl", "IBM-", "SL_"])
_keywords = st.sampled_from(["key", "pwd", "pw", "password", "pass", "token", "secret_access_key", "secret-key",
                             "secretkey", "api_key", "apikey", "Password", "PASS", "TOKEN", "secret"])
_assign = st.sampled_from(["=", ":", ":=", "=>", " ", "  ", "::", " = ", ": ", "==", "\t", '"=', "']:"])
_values = st.tuples(st.sampled_from(["0123456789abcdef", "abcdefghijklmnopqrstuvwxyz", _A + "_-",
                                     "abcdefghijklmnopqrstuvwxyz0123456789", _A + "/+"]),
                    st.sampled_from([23, 24, 25, 40, 43, 44, 45, 47, 48, 49, 63, 64, 65])).flatmap(
    lambda spec: st.text(alphabet=spec[0], min_size=spec[1], max_size=spec[1]))
_assignment_line = st.tuples(_prefixes, st.sampled_from(["", "_", "-"]), st.sampled_from(["", "api", "api_"]),
                             _keywords, st.sampled_from(["", '"', "'", "]", '"]']), _assign,
                             st.sampled_from(["", '"', "'"]), _values, st.sampled_from(["", '"', "'", " x", "x"]),
                             ).map("".join)


@settings(max_examples=300, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(_filename, st.lists(_assignment_line, min_size=1, max_size=4).map("\n".join))
def test_generated_assignments_one_pass_equals_long_way(filename: str, text: str) -> None:
    """build_assignment_regex's forms (Cloudant, IBM, IBM COS, SoftLayer, AWS) whose rows a pattern picks."""
    assert one_pass(filename, text) == long_way(filename, text)


@settings(max_examples=300, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.sampled_from(_literals() + ["x", "a", "\n", " "]), max_size=12).map("".join),
       st.sets(st.sampled_from(_literals() + ["a", "ab", "x"]), max_size=30))
def test_present_finds_exactly_the_literals_that_stand(text: str, literals: set[str]) -> None:
    lookup = prefilter.lookup_order(literals)
    assert prefilter.present(text, lookup) == {w for w in literals if w in text}


@settings(max_examples=300, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.sampled_from(["[x](y.md)", "[r]: z", "[ref]:", "[a]", ":x", "z", "<https://a/b>", "<a:b>",
                                 'href="c"', "SRC = 'd'", "src=", "=e", "`code`", "```", "~~~", "``", "text", " ", "\n",
                                 "](", "]:",
                                 "<", ">", "=", "`", "[a](", "(b)"]),
                max_size=30).map("".join))
def test_links_with_guards_are_links_without(markdown: str) -> None:
    lines = NEWLINE.split(markdown)
    assert list(links.links(lines)) == list(_links_unguarded(lines))


# --- strings: json's reading against the walk -----------------------------------------------------

def _json_containers(children):
    return st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=4), children, max_size=4)


_json_values = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(), st.floats(allow_nan=False, allow_infinity=False),
              st.text(alphabet=st.sampled_from(['a', 'b', '"', '\\', 'é', '\ud800', '\n', '\r', ' ', ':', '{', '0',
                                                'f', '\u2028', '\x01'])),
              st.sampled_from(["0123456789abcdef" * 4, "sha256:" + "ab" * 32])),
    _json_containers,
    max_leaves=20,
)


@settings(max_examples=200, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(_json_values, st.sampled_from([{"indent": 2}, {"separators": (",", ":")}, {"indent": 1, "ensure_ascii": False},
                                      {"ensure_ascii": False}]),
       st.booleans(), st.lists(st.tuples(st.integers(1, 40), st.integers(0, 120)), max_size=6), st.integers(0, 3))
def test_strings_read_by_json_are_the_walks(value, form, crlf, wanted_pairs, damage) -> None:
    text = json.dumps(value, **form)
    if crlf:
        text = text.replace("\n", "\r\n")
    if damage == 1 and len(text) > 2:
        text = text[:-1]
    if damage == 2:
        text = text.replace("{", '{"a": 1, "a": [2], ', 1)
    wanted: dict[int, list[int]] = {}
    for line, column in wanted_pairs:
        wanted.setdefault(line, []).append(column)
    wanted = {line: sorted(set(columns)) for line, columns in wanted.items()}
    for holding in (None, wanted):
        assert structure.strings(text, holding) == _walk_only(text, holding)


@pytest.mark.parametrize("index", range(len(_CORPUS)), ids=[n for n, _ in _CORPUS])
def test_strings_of_the_corpus_are_the_walks(index: int) -> None:
    name, text = _CORPUS[index]
    every = _walk_only(text)
    assert structure.strings(text) == every
    if every:
        lines = NEWLINE.split(text)
        wanted = {t.line: [t.start + len(t.raw) // 2] for t in every[::3]}
        wanted[1] = wanted.get(1, []) + [len(lines[0]) + 5]  # past the line's end: in no string of that line
        wanted = {line: sorted(set(columns)) for line, columns in wanted.items()}
        assert structure.strings(text, wanted) == _walk_only(text, wanted)


def test_deep_json_and_long_numbers_fall_back_to_the_walk() -> None:
    """json refuses what the walk reads (nesting past its recursion limit, a number over its digit limit)."""
    deep = '{"a": "x", "b": ' + "[" * 3000 + '"0123456789abcdef0123"' + "]" * 3000 + "}"
    long_number = '{"a": "x", "b": ' + "9" * 5000 + "}"
    for text in (deep, long_number):
        assert structure.strings(text) == _walk_only(text) is not None
        assert structure._by_json(text, None) is None


# --- every plugin has its condition ---------------------------------------------------------------


def test_every_plugin_but_the_entropy_ones_runs_under_its_condition() -> None:
    """Each plugin's condition was derived from its current patterns (else it would run on every row)."""
    e = engine()
    for plugin, trigger, locate, finder in zip(e.plugins, e.triggers, e.locators, e.finders, strict=True):
        if finder is not None:
            continue
        assert trigger is not None or locate is not _every_row, type(plugin).__name__
    for kind, condition in prefilter.PREFILTERS.items():
        plugin = next(p for p in e.plugins if type(p) is kind)
        if kind is not engine_module.KeywordDetector:
            assert condition.derived_from == tuple((p.pattern, p.flags) for p in plugin.denylist), kind.__name__


def test_a_changed_pattern_runs_its_plugin_on_every_line(monkeypatch) -> None:
    """A plugin whose patterns are not those its condition was derived from gets no condition."""
    from detect_secrets.plugins.openai import OpenAIDetector

    monkeypatch.setattr(OpenAIDetector, "denylist", [re.compile(r"sk-[A-Za-z0-9]{48}")])
    trigger, locate = engine_module._locator(OpenAIDetector())
    assert trigger is None and locate is _every_row


def test_names_in_the_corpus_are_scanned_the_same(monkeypatch) -> None:
    """scan_names (names are lines to the engine) gives the same with the long way's engine."""
    names = [(f"entries/acme/x/{n}", "file") for n in sorted(_NAMES)] + [
        ("entries/acme/x/" + v[:60].replace("/", "_"), "file") for v in _SAMPLE_VALUES]
    fast = file_scan.scan_names(names)
    with monkeypatch.context() as m:
        slow = _LongWayEngine()
        m.setattr(file_scan, "engine", lambda: slow)
        assert file_scan.scan_names(names) == fast


_RELPATHS = ("entry.json", "dialect.json", "fixtures/basic/sources.json", "fixtures/basic/profiles.json",
             "fixtures/basic/binding.json", "fixtures/basic/preparation.json", "fixtures/basic/case.json")


@pytest.mark.parametrize("index", range(len(_CORPUS)), ids=[n for n, _ in _CORPUS])
def test_exempt_strings_are_counted_as_the_walk_counts_them(index: int) -> None:
    """structure.exempt_strings (json's reading, each hex member's path followed) against the walk's tokens held
    to exempt_from_secrets one by one, and its count of every string against the walk's."""
    from collections import Counter

    _, text = _CORPUS[index]
    tokens = _walk_only(text)
    for relpath in _RELPATHS:
        counted = structure.exempt_strings(relpath, text)
        if counted is None:
            assert "\\" in text or '"' not in text or structure._by_json(text, None) is None
            continue
        exempt, every = counted
        assert exempt == Counter(t.value for t in tokens if structure.exempt_from_secrets(relpath, t)), relpath
        if exempt:
            assert every == Counter(t.value for t in tokens), relpath


def test_the_demo_fixtures_have_values_skipped_as_exempt() -> None:
    """The early skip is exercised: a demo fixture's signatures and keys are skipped, and nothing else is."""
    skipped = 0
    for rel, text in _CORPUS:
        if not rel.startswith("entries/") or not rel.endswith(("sources.json", "profiles.json")):
            continue
        own = "/".join(rel.split("/")[3:])
        lines = NEWLINE.split(text)
        skip = file_scan._exempt_skip(own, text, lines)
        assert skip is not None
        for hit in engine().scan_lines(own.rsplit("/", 1)[-1], enumerate(lines, start=1)):
            if skip(hit.line, hit.value):
                skipped += 1
                assert file_scan._exempt(own, lines[hit.line - 1], hit, [
                    t for t in _walk_only(text) if t.line == hit.line])
    assert skipped > 10


_HEX_POOL = [hex_of(128), hex_of(128), hex_of(64), hex_of(32), "sha256:" + hex_of(64), "tls:sha256:" + hex_of(64),
             "plain", "signature"]
_NAME_POOL = ["vendor", "response", "result", "responses", "receipt", "signature", "prevSignature", "keyId", "salts",
              "args", "statement", "profile", "digest", "publicKey", "adapter", "caller", "tokenDigest", "acquisition",
              "peerIdentity", "0", "*", _HEX_POOL[0], _HEX_POOL[4]]
def _hex_containers(children):
    arrays = st.lists(children, max_size=3).map(lambda items: "[" + ", ".join(items) + "]")
    objects = st.lists(st.tuples(st.sampled_from(_NAME_POOL), children), max_size=4).map(
        lambda pairs: "{" + ", ".join(json.dumps(k) + ": " + v for k, v in pairs) + "}")
    return arrays | objects


_hex_documents = st.recursive(
    (st.sampled_from(_HEX_POOL) | st.integers(0, 3)).map(json.dumps), _hex_containers, max_leaves=30,
)
"""JSON texts (duplicate member names kept) of the hex members' names and hex values in every place."""


_PATTERNS = sorted({pattern for members in structure.HEX_MEMBERS.values() for pattern, _ in members})


class _Obj(list):
    """An object's (name, value) pairs, a name possibly twice."""


class _Arr(list):
    """An array's elements."""


def _placed(assignments) -> str:
    """A JSON text holding each value at its path ("*" read as the name or index given), the path sometimes bent
    (a step short, one more, the first renamed, a member named twice), arrays where a step is an index."""
    root = _Obj()
    for pattern, fill, bend, value in assignments:
        steps = [fill if step == "*" else step for step in _PATTERNS[pattern % len(_PATTERNS)]]
        if bend == 1 and len(steps) > 1:
            steps = steps[:-2] + steps[-1:]
        elif bend == 2:
            steps = steps + ["extra"]
        elif bend == 3:
            steps[0] = "elsewhere"
        node: list = root
        for i, step in enumerate(steps):
            if i == len(steps) - 1:
                node.append(value if isinstance(node, _Arr) else (step, value))
                break
            fresh = _Arr() if steps[i + 1].isdigit() else _Obj()
            if isinstance(node, _Arr):
                index = int(step) if step.isdigit() else len(node)
                found = node[index] if index < len(node) and isinstance(node[index], (_Obj, _Arr)) else None
                if found is None:
                    node.append(fresh)
                node = found if found is not None else fresh
            else:
                found = None if bend == 4 else next(
                    (item for name, item in node if name == step and isinstance(item, (_Obj, _Arr))), None)
                if found is None:
                    node.append((step, fresh))
                node = found if found is not None else fresh
    return _dump(root)


def _dump(item) -> str:
    if isinstance(item, _Obj):
        return "{" + ", ".join(json.dumps(name) + ": " + _dump(value) for name, value in item) + "}"
    if isinstance(item, _Arr):
        return "[" + ", ".join(_dump(value) for value in item) + "]"
    return json.dumps(item)


GENERATED_DOCUMENTS = (
    st.lists(st.tuples(st.integers(0, 200), st.sampled_from(["vendor", "other", "0", "1"]), st.integers(0, 6),
                       st.sampled_from(_HEX_POOL)), min_size=1, max_size=6),
    st.lists(st.tuples(st.sampled_from(["vendor", "other", "salts", "x"]), _hex_documents), max_size=2),
    st.booleans(),
)
"""Hex values placed at the members that hold them and beside them (assignments), other documents (noise), and
whether the text is indented: the strategies of every test of generated documents."""


def generated_document(assignments, noise, indent) -> str:
    """The text GENERATED_DOCUMENTS describe: the assignments placed (the first's value once more, three steps
    down), the noise members appended, indented or not."""
    pattern, fill, _, value = assignments[0]
    text = _placed(assignments + [(pattern, fill, 3, value)])
    if noise:
        text = text[:-1] + "".join(", " + json.dumps(k) + ": " + v for k, v in noise) + "}"
    if indent:
        text = text.replace(", ", ",\n  ")
    return text


@settings(max_examples=300, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(*GENERATED_DOCUMENTS)
def test_exempt_strings_of_generated_documents_are_the_walks(assignments, noise, indent) -> None:
    """exempt_strings on documents with hex values at the members that hold them and elsewhere, named twice,
    in arrays, as member names: the walk's tokens held to exempt_from_secrets one by one."""
    from collections import Counter

    text = generated_document(assignments, noise, indent)
    tokens = _walk_only(text)
    for relpath in ("fixtures/basic/sources.json", "fixtures/basic/profiles.json", "fixtures/basic/preparation.json",
                    "entry.json"):
        counted = structure.exempt_strings(relpath, text)
        assert counted is not None
        exempt, every = counted
        assert exempt == Counter(t.value for t in tokens if structure.exempt_from_secrets(relpath, t))
        if exempt:
            assert every == Counter(t.value for t in tokens)


@settings(max_examples=80, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.tuples(st.integers(0, 200), st.sampled_from(["vendor", "other", "0", "1"]), st.integers(0, 6),
                          st.sampled_from(_HEX_POOL)), min_size=1, max_size=6), st.booleans())
def test_findings_of_generated_hex_documents_are_the_long_ways(assignments, indent) -> None:
    """A file's findings with values skipped as exempt are the long way's (every hit, exempted after); the first
    value is written a second time at a member that does not hold hex."""
    pattern, fill, _, value = assignments[0]
    text = _placed(assignments + [(pattern, fill, 3, value)])
    if indent:
        text = json.dumps(json.loads(text), indent=2)
    with pytest.MonkeyPatch.context() as m:
        for relpath in ("fixtures/basic/sources.json", "fixtures/basic/profiles.json",
                        "fixtures/basic/preparation.json"):
            fast = file_scan.scan_text(relpath, text, lambda parts: True)
            assert fast == long_way_file(relpath, text, m), relpath
