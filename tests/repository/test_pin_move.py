"""The reader that judges a pull request is the base's (issue #16 items 1, 2; docs/trust.md, "Moving the
pin"): with --base the gate replays through the reader the base's verifier-pin.json names, never one the
change names; a change that moves the pin may remove exactly the acknowledgements its new reader makes
stale, which the moved reader decides where it may run (`--pin change`, a maintainer's review).

The readers are local (tests/support/readers/): `agree.py` runs this package's verifier (it skips http
sources, kind-unread), `reads_every_kind.py` answers every fixture with its recorded digest (a reader
that reads http); each is committed into a throwaway specification repository and fetched from its path."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from judgment_exchange.repository.pin import fetch
from judgment_exchange.tree import WorkingTree

from ..support.catalog import pretty
from ..support.gitrepo import GitRepo
from .repos import (
    HTTP,
    OTHER_DIR,
    acknowledgement,
    acknowledgements,
    check,
    codes,
    commit,
    demo_repository,
    repin,
    write_acknowledgements,
)

READERS = Path(__file__).parents[1] / "support" / "readers"
SPEC = "Judgment-Pack/judgment-pack-spec/tools/dialect_verify.py"


@pytest.fixture(autouse=True)
def _environment(tmp_path, monkeypatch):
    monkeypatch.delenv("EXCHANGE_VERIFIER", raising=False)
    monkeypatch.setenv("EXCHANGE_READER_CACHE", str(tmp_path / "cache"))
    monkeypatch.setenv("PIN_READER_LOG", str(tmp_path / "reader.log"))


def _pin(root: Path, commit_id: str) -> str:
    locator = f"{SPEC}@{commit_id}"
    (root / "verifier-pin.json").write_bytes(pretty({"pinVersion": 1, "reader": locator,
                                                     "run": [sys.executable, "{path}"]}))
    return locator


@pytest.fixture
def repo(tmp_path):
    """A catalog whose base pins `agree.py` (fetched), and a specification repository whose later commits
    hold `reads_every_kind.py` (B) and `agree.py` again under another commit (C)."""
    spec = GitRepo(tmp_path / "spec")
    a = spec.snapshot({"tools/dialect_verify.py": (READERS / "agree.py").read_bytes()}, "A")
    b = spec.snapshot({"tools/dialect_verify.py": (READERS / "reads_every_kind.py").read_bytes()}, "B")
    c = spec.snapshot({"tools/dialect_verify.py": (READERS / "agree.py").read_bytes(), "NEWS": b"C\n"}, "C")
    root = tmp_path / "catalog"
    shutil_root = demo_repository(root)
    git = shutil_root
    base_locator = _pin(root, a)
    git.git("checkout", "-q", "main")
    commit(git, "pin the reader")
    git.git("checkout", "-q", "change")
    git.git("reset", "-q", "--hard", "main")
    for commit_id in (a, b, c):  # the cache holds every reader; only the gate chooses which runs
        _pin(root, commit_id)
        fetch(WorkingTree(str(root)), source=str(spec.path))
    _pin(root, a)
    return root, git, {"A": a, "B": b, "C": c, "base": base_locator}, tmp_path / "reader.log"


def _pin_by_hand(root: Path, entry_dir: Path, fixture: str) -> None:
    """The fixture's preparationDigest and the entry's manifest row pinned to the files as they are, by
    hashlib (what an author can always write by hand)."""
    import hashlib

    sha = lambda data: "sha256:" + hashlib.sha256(data).hexdigest()  # noqa: E731
    entry_path = root / entry_dir / "entry.json"
    entry = json.loads(entry_path.read_bytes())
    item = next(f for f in entry["fixtures"] if f["name"] == fixture)
    item["preparationDigest"] = sha((root / entry_dir / "fixtures" / fixture / "preparation.json").read_bytes())
    entry_path.write_bytes(pretty(entry))
    rows = json.loads((root / "manifest.json").read_bytes())
    row = next(r for r in rows if r["path"] == entry_dir.as_posix())
    row["entryDigest"] = sha(entry_path.read_bytes())
    (root / "manifest.json").write_bytes(pretty(rows))


def _log(path: Path) -> list[str]:
    return path.read_text().splitlines() if path.exists() else []


def test_near_miss_the_base_reader_replays_a_touched_entry(repo):
    root, git, spec, log = repo
    readme = root / OTHER_DIR / "README.md"
    readme.write_text(readme.read_text() + "\nMore.\n")
    repin(root)
    commit(git)
    report = check(root)
    assert report.passed, codes(report)
    assert report.reader.name == spec["base"]
    assert _log(log) and not any(line.startswith("reads-every-kind") for line in _log(log))


def test_attack_pull_request_chooses_the_reader_that_judges_it(repo):
    """The change moves the pin to a reader that answers every fixture with its recorded digest, and
    tampers with a fixture's recorded preparation (re-pinned). Judged by the base's reader the tampered
    fixture is recomputed and refused, and the change's reader never runs; judged by its own reader
    (`--pin change`) it would pass the replay."""
    root, git, spec, log = repo
    _pin(root, spec["B"])
    fixture = root / OTHER_DIR / "fixtures"
    name = sorted(p.name for p in fixture.iterdir())[0]
    prep = fixture / name / "preparation.json"
    value = json.loads(prep.read_bytes())
    value["lineage"][0]["reason"] = "forged"  # a recorded result the dialect does not derive
    prep.write_bytes(json.dumps(value, separators=(",", ":"), sort_keys=True, ensure_ascii=False).encode())
    _pin_by_hand(root, OTHER_DIR, name)  # exchange fix would refuse to re-pin it: the attacker pins it by hand
    commit(git)
    judged = check(root)
    assert "replay-digest-mismatch" in codes(judged) or "preparation-differs" in codes(judged), codes(judged)
    assert "verifier-pin-moved-with-entry" in codes(judged)
    assert judged.reader.name == spec["base"]
    assert not any(line.startswith("reads-every-kind") for line in _log(log))
    own = check(root, pin="change")
    assert own.reader.name == f"{SPEC}@{spec['B']}"
    # the tampered fixture passes its replay; the whole catalog replayed through B also makes the http
    # fixture's acknowledgement stale (B reads http)
    assert codes(own) == ["skip-acknowledgement-stale", "verifier-pin-moved-with-entry"], codes(own)
    assert any(line.startswith("reads-every-kind") for line in _log(log))


def test_a_pin_move_may_remove_the_acknowledgements_its_reader_makes_stale(repo):
    """The carve-out: the pin moves to a reader of http sources and the acknowledgement of the http
    fixture is removed. Under the base's reader (which still skips it) the removal is noted, not refused;
    under the moved reader the fixture is replayed and the removal is exact."""
    root, git, spec, log = repo
    _pin(root, spec["B"])
    write_acknowledgements(root, [])
    commit(git)
    judged = check(root)
    assert judged.passed, codes(judged)
    assert judged.touched == [HTTP]
    assert any("removed with the verifier pin's move" in note and "vendor-7" in note for note in judged.notes)
    own = check(root, pin="change")
    assert own.passed, codes(own)
    assert ("kinds.intake-http-source", "vendor-7", "reading") in {(r.entry, r.fixture, r.result) for r in own.replays}
    assert own.skipped == []


def test_near_miss_a_pin_move_may_not_remove_an_acknowledgement_its_reader_still_needs(repo):
    """The moved reader (C, another commit of a reader that does not read http) still skips the fixture:
    its acknowledgement was not stale, and the moved reader refuses the removal."""
    root, git, spec, log = repo
    _pin(root, spec["C"])
    write_acknowledgements(root, [])
    commit(git)
    own = check(root, pin="change")
    assert codes(own) == ["skip-unacknowledged"], codes(own)
    assert own.reader.name == f"{SPEC}@{spec['C']}"


def test_a_pin_move_that_adds_an_acknowledgement_is_refused(repo):
    root, git, spec, log = repo
    _pin(root, spec["B"])
    write_acknowledgements(root, acknowledgements(root) + [acknowledgement()])
    commit(git)
    assert "verifier-pin-moved-with-entry" in codes(check(root))


def test_a_pin_move_reviewed_with_its_reader_replays_every_fixture(repo):
    """`--pin change` on a change that moves the pin replays the whole catalog through the moved reader
    (RFC 0019 Compatibility: "an entry the moved verifier answers otherwise is decided" on that pull
    request); under the base's reader nothing is replayed again (no entry is touched)."""
    root, git, spec, log = repo
    _pin(root, spec["C"])
    commit(git)
    judged = check(root)
    assert judged.passed and judged.replays == []
    own = check(root, pin="change")
    assert own.passed, codes(own)
    assert len(own.replays) == 11 and {r.reader for r in own.replays} == {f"{SPEC}@{spec['C']}"}


def test_the_change_s_own_pin_is_still_held_to_its_form(repo):
    root, git, spec, log = repo
    (root / "verifier-pin.json").write_bytes(b'{"pinVersion": 2}\n')
    commit(git)
    judged = check(root)
    assert codes(judged) == ["verifier-pin-malformed"]
    assert judged.reader.name == spec["base"]


def test_a_pin_move_judged_by_the_base_says_whose_reader_replayed(repo):
    root, git, spec, log = repo
    _pin(root, spec["B"])
    commit(git)
    judged = check(root)
    assert any(note.startswith("this change moves the verifier pin; the reader is the base's "
                               f"({spec['base']})") for note in judged.notes), judged.notes
    assert not any("moves the verifier pin" in note for note in check(root, pin="change").notes)
