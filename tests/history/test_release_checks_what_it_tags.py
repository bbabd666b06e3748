"""`exchange release` checks exactly what it tags (issue #16 item 6; docs/releasing.md, "Cutting a release").

The catalog holds one named-format entry with an artifact pair (the demonstration catalog's, built by
tests/support/demo.py), released at v0.1.0 by make_release. HEAD then changes the document under that
pair, which the gate refuses (artifact-content-changed, RFC 0019 §§3, 7), while the working tree shows
the released bytes in ways `git status` does not report. Expectations are written here or computed
independently: file counts by `git diff --name-only`, digests by hashlib over `git cat-file blob`.
"""

from __future__ import annotations

import copy
import hashlib
import json
import subprocess
import sys
from pathlib import Path

import pytest

from judgment_exchange.gate.pipeline import GateOptions, check_catalog
from judgment_exchange.releasing.release import make_release
from judgment_exchange.tree import WorkingTree

from ..support import demo
from ..support.catalog import pretty, sha, stdlib_canon
from ..support.gitrepo import GitRepo, git_identity
from ..support.simulator import CatalogSimulator

ENTRY = "entries/kinds/intake-named-format"
READERS = Path(__file__).resolve().parents[1] / "support" / "readers"
SPEC = "Judgment-Pack/judgment-pack-spec/tools/dialect_verify.py"


@pytest.fixture(autouse=True)
def identity(monkeypatch, tmp_path: Path) -> None:
    git_identity(monkeypatch)
    monkeypatch.delenv("EXCHANGE_VERIFIER", raising=False)
    monkeypatch.setenv("EXCHANGE_READER_CACHE", str(tmp_path / "reader-cache"))
    monkeypatch.setenv("PIN_READER_LOG", str(tmp_path / "reader.log"))


def _named(max_age: int | None = None) -> dict[str, bytes]:
    """The named entry's files and its manifest; `max_age` changes the document under the same pair."""
    entry = demo.named_entry()
    if max_age is not None:
        export = demo.runner_export()
        doc = json.loads(entry.files["dialect.json"])
        doc["sources"][0]["maxAge"] = max_age
        entry.files["dialect.json"] = pretty(doc)
        entry.fixture_files["vendor-7"] = demo._recorded(doc, export)
        demo._entry_json(entry, pack=demo._pack("mapping-v2-unsigned-parameters"), kinds=demo._kinds(doc),
                         output=None, artifact=copy.deepcopy(entry.entry["artifact"]),
                         dialect={"path": "dialect.json", "formatVersion": "3.0.0", "digest": sha(stdlib_canon(doc))})
    files = {f"{ENTRY}/entry.json": pretty(entry.entry), f"{ENTRY}/README.md": b"# A named entry\n"}
    files |= {f"{ENTRY}/{name}": data for name, data in entry.files.items()}
    for fixture, held in entry.fixture_files.items():
        files |= {f"{ENTRY}/fixtures/{fixture}/{name}": data for name, data in held.items()}
    row = demo._row(entry)
    files["manifest.json"] = pretty([row])
    return files


RELEASED = _named()
CHANGED = _named(max_age=301)


def _catalog(repo: GitRepo, entry: dict[str, bytes], ledger: bytes, extra: dict[str, bytes] | None = None) -> dict:
    return {".gitattributes": b"* -text\n", "releases.json": ledger, **entry, **(extra or {})}


@pytest.fixture
def published(tmp_path: Path) -> GitRepo:
    """v0.1.0 released by the command; then HEAD commits changed content under its artifact pair."""
    history = CatalogSimulator(tmp_path / "catalog", work_path=tmp_path / "catalog-work")
    history.commit("snapshot", tree=_catalog(history.repo, RELEASED, b"[]\n"))
    history.release_by_command("v0.1.0", commit=False)
    ledger = (history.path / "releases.json").read_bytes()
    history.commit("change the document under the published pair", tree=_catalog(history.repo, CHANGED, ledger))
    return history.repo


def _status(repo: GitRepo) -> str:
    return repo.git("status", "--porcelain", "--untracked-files=all")


def _changed(repo: GitRepo) -> list[str]:
    """The paths HEAD changed against the release (git's count, not the code's)."""
    return repo.git("diff", "--name-only", "v0.1.0", "HEAD").splitlines()


def _show_released_bytes(repo: GitRepo, paths: list[str]) -> None:
    for path in paths:
        (repo.path / path).write_bytes(RELEASED[path])


def _refused_untouched(repo: GitRepo, head: str, tag: str = "v0.2.0") -> None:
    assert repo.rev("HEAD") == head
    assert tag not in repo.git("tag", "--list").split()


def test_the_changed_head_is_refused_by_the_gate(published: GitRepo) -> None:
    """The premise: HEAD's content is what the gate refuses, and the refusal is the pair's."""
    report = check_catalog(WorkingTree(str(published.path)), GateOptions(repository=str(published.path)))
    assert [r.code for r in report.refusals] == ["artifact-content-changed"]


def test_attack_release_tags_a_commit_its_check_did_not_see(published: GitRepo) -> None:
    changed = _changed(published)
    inside = [p for p in changed if p.startswith("entries/")]
    assert len(inside) >= 2 and len(changed) - len(inside) == 1  # manifest.json outside entries/
    _show_released_bytes(published, changed)
    published.git("update-index", "--skip-worktree", "--", *changed)
    assert _status(published) == ""  # git status is clean
    head = published.rev("HEAD")
    out = make_release(str(published.path), "v0.2.0")
    assert out.status == 1, out.lines
    text = "\n".join(out.lines)
    assert f"{len(inside)} files under entries/ and 1 file outside entries/ are marked skip-worktree" in text
    assert "git update-index --no-skip-worktree" in text
    assert "intake-named-format" not in text and "dialect.json" not in text  # counted, never named
    _refused_untouched(published, head)


def test_attack_assume_unchanged_hides_the_working_tree_too(published: GitRepo) -> None:
    changed = _changed(published)
    inside = [p for p in changed if p.startswith("entries/")]
    _show_released_bytes(published, changed)
    published.git("update-index", "--assume-unchanged", "--", *changed)
    assert _status(published) == ""
    head = published.rev("HEAD")
    out = make_release(str(published.path), "v0.2.0")
    text = "\n".join(out.lines)
    assert out.status == 1
    assert f"{len(inside)} files under entries/ and 1 file outside entries/ are marked assume-unchanged" in text
    assert "skip-worktree" not in text and "intake-named-format" not in text
    _refused_untouched(published, head)


def test_attack_an_ignored_file_under_entries_completes_what_head_lacks(tmp_path: Path) -> None:
    """HEAD lacks a fixture file the working tree holds, ignored by .gitignore: `git status` is clean,
    a working-tree gate would pass; the release is refused, by count."""
    repo = GitRepo(tmp_path / "catalog")
    missing = f"{ENTRY}/fixtures/vendor-7/profiles.json"
    repo.snapshot(_catalog(repo, RELEASED, b"[]\n", {".gitignore": b"/" + missing.encode() + b"\n"}))
    assert repo.git("ls-files", "--", missing) == "" and (repo.path / missing).is_file()
    assert _status(repo) == ""
    assert check_catalog(WorkingTree(str(repo.path)), GateOptions(repository=str(repo.path))).passed
    head = repo.rev("HEAD")
    out = make_release(str(repo.path), "v0.1.0")
    text = "\n".join(out.lines)
    assert out.status == 1 and "1 file under entries/ is ignored" in text, out.lines
    assert "profiles.json" not in text and "vendor-7" not in text
    _refused_untouched(repo, head, "v0.1.0")


def test_an_ignored_files_hostile_name_is_never_printed(tmp_path: Path) -> None:
    repo = GitRepo(tmp_path / "catalog")
    repo.snapshot(_catalog(repo, RELEASED, b"[]\n", {".gitignore": b"/entries/**/evil*\n"}))
    hostile = repo.path / ENTRY / "evil\n\x1b[2Jname.txt"
    hostile.write_bytes(b"x")
    (repo.path / ENTRY / "evil-two").write_bytes(b"y")
    assert _status(repo) == ""
    out = make_release(str(repo.path), "v0.1.0")
    text = "\n".join(out.lines)
    assert out.status == 1 and "2 files under entries/ are ignored" in text, out.lines
    assert "evil" not in text and "\x1b" not in text


def test_an_ignored_catalog_file_at_the_root_is_named_by_its_fixed_name(tmp_path: Path) -> None:
    repo = GitRepo(tmp_path / "catalog")
    repo.snapshot(_catalog(repo, RELEASED, b"[]\n", {".gitignore": b"/skips.json\n"}))
    (repo.path / "skips.json").write_bytes(b"[]\n")
    assert _status(repo) == ""
    out = make_release(str(repo.path), "v0.1.0")
    assert out.status == 1 and "skips.json at the root is ignored and not committed" in "\n".join(out.lines)


def _filter(repo: GitRepo, path: str, shown: bytes, tmp_path: Path) -> None:
    """A clean/smudge filter on `path`: the working tree shows `shown`, HEAD keeps its blob, and git status
    is clean. Not one of the flags the release refuses: it shows that the gate reads HEAD's blobs."""
    name = f"show{len(list(tmp_path.glob('head-*.bin')))}"
    head, held = tmp_path / f"head-{name}.bin", tmp_path / f"shown-{name}.bin"
    head.write_bytes(subprocess.run(["git", "cat-file", "blob", f"HEAD:{path}"], cwd=repo.path,
                                    capture_output=True, check=True).stdout)
    held.write_bytes(shown)
    repo.git("config", f"filter.{name}.smudge", f"sh -c 'cat >/dev/null; cat {held}'")
    repo.git("config", f"filter.{name}.clean", f"sh -c 'cat >/dev/null; cat {head}'")
    (repo.git_dir / "info").mkdir(exist_ok=True)
    with open(repo.git_dir / "info" / "attributes", "ab") as fh:
        fh.write(path.encode() + f" filter={name}\n".encode())
    (repo.path / path).unlink()
    repo.git("checkout", "--", path)
    assert (repo.path / path).read_bytes() == shown


def test_the_gate_runs_on_heads_committed_tree_not_the_working_tree(published: GitRepo, tmp_path: Path) -> None:
    for path in _changed(published):
        _filter(published, path, RELEASED[path], tmp_path)
    assert _status(published) == ""
    assert check_catalog(WorkingTree(str(published.path)), GateOptions(repository=str(published.path))).passed
    head = published.rev("HEAD")
    out = make_release(str(published.path), "v0.2.0")
    text = "\n".join(out.lines)
    assert out.status == 1 and f"on HEAD's committed tree {head}" in text, out.lines
    assert "artifact-content-changed" in text
    _refused_untouched(published, head)


def _manifest_digest_of(repo: GitRepo, commit: str) -> str:
    blob = subprocess.run(["git", "cat-file", "blob", f"{commit}:manifest.json"], cwd=repo.path,
                          capture_output=True, check=True).stdout
    return "sha256:" + hashlib.sha256(blob).hexdigest()


def test_near_miss_a_clean_repository_releases_and_its_row_is_heads_manifest(tmp_path: Path) -> None:
    repo = GitRepo(tmp_path / "catalog")
    checked = repo.snapshot(_catalog(repo, RELEASED, b"[]\n"))
    out = make_release(str(repo.path), "v0.1.0")
    assert out.status == 0, out.lines
    row = json.loads(subprocess.run(["git", "cat-file", "blob", "v0.1.0:releases.json"], cwd=repo.path,
                                    capture_output=True, check=True).stdout)[-1]
    assert row["manifestDigest"] == _manifest_digest_of(repo, checked)
    assert (row["tag"], row["commit"], row["previous"]) == ("v0.1.0", checked, None)
    assert repo.rev("v0.1.0^{commit}~1") == checked


def test_the_row_is_heads_manifest_even_where_a_filter_shows_other_bytes(tmp_path: Path) -> None:
    repo = GitRepo(tmp_path / "catalog")
    checked = repo.snapshot(_catalog(repo, RELEASED, b"[]\n"))
    shown = RELEASED["manifest.json"].rstrip(b"\n") + b"\n\n"
    _filter(repo, "manifest.json", shown, tmp_path)
    assert _status(repo) == ""
    out = make_release(str(repo.path), "v0.1.0")
    assert out.status == 0, out.lines
    row = json.loads((repo.path / "releases.json").read_bytes())[-1]
    assert row["manifestDigest"] == _manifest_digest_of(repo, checked)
    assert row["manifestDigest"] != "sha256:" + hashlib.sha256(shown).hexdigest()


# --- the reader: the release's own pin still replays, on HEAD's committed tree -------------------------


def _spec(tmp_path: Path) -> tuple[GitRepo, str]:
    repo = GitRepo(tmp_path / "spec")
    return repo, repo.snapshot({"tools/dialect_verify.py": (READERS / "agree.py").read_bytes()})


def test_the_release_replays_through_the_catalogs_pinned_reader(tmp_path: Path, monkeypatch) -> None:
    from judgment_exchange.releasing import release as release_module
    from judgment_exchange.repository import pin as pins
    from judgment_exchange.tree import GitTree

    spec, commit = _spec(tmp_path)
    locator = f"{SPEC}@{commit}"
    repo = GitRepo(tmp_path / "catalog")
    pin = pretty({"pinVersion": 1, "reader": locator, "run": [sys.executable, "{path}"]})
    repo.snapshot(_catalog(repo, RELEASED, b"[]\n", {"verifier-pin.json": pin}))
    pins.fetch(WorkingTree(str(repo.path)), source=str(spec.path))
    seen = []
    real = release_module.check_catalog

    def spy(tree, options):
        report = real(tree, options)
        seen.append((type(tree), tree.commit, report.reader.name, [r.reader for r in report.replays]))
        return report

    monkeypatch.setattr(release_module, "check_catalog", spy)
    head = repo.rev("HEAD")
    out = make_release(str(repo.path), "v0.1.0")
    assert out.status == 0, out.lines
    assert seen == [(GitTree, head, locator, [locator])]
    calls = (tmp_path / "reader.log").read_text().splitlines()  # the pinned program ran, once per fixture
    assert len(calls) == 1 and calls[0].startswith("--fixture ") and calls[0].endswith("/fixtures/vendor-7")


def test_near_miss_a_consumers_git_tree_of_the_same_commit_never_runs_the_pin(tmp_path: Path) -> None:
    from judgment_exchange.repository import pin as pins
    from judgment_exchange.tree import GitTree

    spec, commit = _spec(tmp_path)
    locator = f"{SPEC}@{commit}"
    repo = GitRepo(tmp_path / "catalog")
    pin = pretty({"pinVersion": 1, "reader": locator, "run": [sys.executable, "{path}"]})
    repo.snapshot(_catalog(repo, RELEASED, b"[]\n", {"verifier-pin.json": pin}))
    pins.fetch(WorkingTree(str(repo.path)), source=str(spec.path))
    report = check_catalog(GitTree(str(repo.path), "HEAD"), GateOptions(history=False))
    assert report.passed and report.reader.name == pins.BUNDLED and report.reader.pinned == locator
    assert not (tmp_path / "reader.log").exists()
