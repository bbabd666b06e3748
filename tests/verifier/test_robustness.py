"""Bad input gets a named answer, never an exception: seeded mutations of valid case directories."""

from __future__ import annotations

import dataclasses
import json
import random

from judgment_exchange.verifier import Found, Reading, Refused, verify

from .test_cases import CASES, documents

BASES = ["reading-base", "research-reads", "unbound-reads", "f3-calculation-reads", "f-binding-matches"]
FIELDS = ["dialect", "case", "acquisitions", "profiles", "preparation", "binding", "record"]
REPLACEMENTS = [None, 0, -1, 1.5, "", [], {}, True, "xxx", {"$param": "x"}, [1, 2], "2026-02-30T00:00:00Z", {"a": {}}]


def _mutate(data: bytes, rng: random.Random) -> bytes:
    value = json.loads(data)
    paths: list[list] = []
    stack = [(value, [])]
    while stack:
        item, path = stack.pop()
        paths.append(path)
        if isinstance(item, dict):
            stack.extend((v, path + [k]) for k, v in item.items())
        elif isinstance(item, list):
            stack.extend((v, path + [i]) for i, v in enumerate(item))
    path = rng.choice(paths)
    replacement = rng.choice(REPLACEMENTS)
    if not path:
        return json.dumps(replacement).encode()
    holder = value
    for token in path[:-1]:
        holder = holder[token]
    if isinstance(holder, dict) and rng.random() < 0.3:
        del holder[path[-1]]
    else:
        holder[path[-1]] = replacement
    return json.dumps(value).encode()


def test_mutations_never_raise():
    rng = random.Random(20261129)
    answers = set()
    for _ in range(400):
        base = documents(CASES / rng.choice(BASES), False)
        field = rng.choice(FIELDS)
        if getattr(base, field) is None:
            continue
        answer = verify(dataclasses.replace(base, **{field: _mutate(getattr(base, field), rng)}))
        assert isinstance(answer, (Refused, Found, Reading))
        answers.add(type(answer).__name__)
    assert answers == {"Refused", "Found", "Reading"}


def test_garbage_bytes_are_refused():
    base = documents(CASES / "reading-base", False)
    for garbage in (b"", b"\xff\xfe", b"[" * 100000, b'{"a":' * 70 + b"1" + b"}" * 70, b"1" * 200):
        answer = verify(dataclasses.replace(base, case=garbage))
        assert isinstance(answer, Refused), garbage[:10]
