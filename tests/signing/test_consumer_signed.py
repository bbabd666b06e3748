"""Issue #36 items 4-5 and "Done when": the consumer holds a release's signature to keys it already trusts —
`--signers FILE`, `--require-signed`, a lock holding signers (lockVersion 3, `signers` and `tagObject`) — and the
rotation scenario: R1 holds k1; R2 adds k2, signed by k1; R3 removes k1, signed by k2; R4 signed by k1 is refused;
R2' adding k2 and removing k1 in one release signed only by k2 is refused."""

from __future__ import annotations

import json

import pytest

from judgment_exchange.cli import main as exchange
from judgment_exchange.consumer.check import release_check
from judgment_exchange.consumer.diff import upgrade_diff
from judgment_exchange.consumer.signed import Signing
from judgment_exchange.releasing.release import make_release
from judgment_exchange.signing.signers import read_signers

from ..support.gitrepo import GitRepo, git_identity
from .support import NEEDS_GIT_SSH, git_sign_tag, git_verify_tag, make_key, manifest_digest, release_message

pytestmark = NEEDS_GIT_SSH

EMPTY = {"manifest.json": b"[]\n", "releases.json": b"[]\n"}


@pytest.fixture
def keys(tmp_path):
    where = tmp_path / "keys"
    where.mkdir()
    return {name: make_key(where, name) for name in ("k1", "k2", "k3")}


def use_key(repo: GitRepo, key) -> None:
    repo.git("config", "gpg.format", "ssh")
    repo.git("config", "user.signingKey", str(key.private_path))


def set_signers(repo: GitRepo, *pairs) -> None:
    (repo.path / "release-signers").write_text("".join(k.line(n) + "\n" for k, n in pairs), encoding="ascii")
    repo.git("add", "release-signers")
    repo.git("commit", "-q", "-m", "signers")


def signed_by_hand(repo: GitRepo, key, tag: str) -> None:
    """TAG made by exchange release unsigned, then re-made signed by `key` (a key the command would refuse)."""
    assert make_release(str(repo.path), tag).status == 0
    repo.git("tag", "-d", tag)
    git_sign_tag(repo, key, tag, release_message(tag, manifest_digest(repo, "HEAD")))


@pytest.fixture
def catalog(tmp_path, monkeypatch, keys):
    """R1 (v0.1.0) of an empty catalog whose release-signers holds k1, signed by k1."""
    git_identity(monkeypatch)
    repo = GitRepo(tmp_path / "catalog")
    repo.snapshot(EMPTY)
    use_key(repo, keys["k1"])
    set_signers(repo, (keys["k1"], "one"))
    assert make_release(str(repo.path), "v0.1.0", sign=True).status == 0
    return repo


@pytest.fixture
def rotated(catalog, keys):
    """R2 adds k2 (signed by k1), R3 removes k1 (signed by k2)."""
    set_signers(catalog, (keys["k1"], "one"), (keys["k2"], "two"))
    assert make_release(str(catalog.path), "v0.2.0", sign=True).status == 0
    set_signers(catalog, (keys["k2"], "two"))
    use_key(catalog, keys["k2"])
    assert make_release(str(catalog.path), "v0.3.0", sign=True).status == 0
    return catalog


def pinned(tmp_path, *pairs):
    path = tmp_path / "pinned-signers"
    path.write_text("".join(k.line(n) + "\n" for k, n in pairs), encoding="ascii")
    return path


def codes(check) -> list[str]:
    return [r.code for r in check.report.refusals]


def signing(path=None, require=False) -> Signing:
    return Signing(read_signers(path.read_bytes()) if path else None, require)


def test_done_when_signed_release_pinned_then_locked(catalog, keys, tmp_path, capsys):
    allowed = pinned(tmp_path, (keys["k1"], "one"))
    assert git_verify_tag(catalog, "v0.1.0", allowed) == 0
    lock = tmp_path / "exchange.lock"
    argv = ["release-check", str(catalog.path), "v0.1.0", "--no-history"]
    assert exchange(argv + ["--require-signed", "--signers", str(allowed), "--lock", str(lock)]) == 0
    written = json.loads(lock.read_text())
    assert written["lockVersion"] == 3 and written["signers"] == [keys["k1"].line("one")]
    assert written["tagObject"] == catalog.rev("refs/tags/v0.1.0") != catalog.rev("v0.1.0^{commit}")
    assert exchange(argv + ["--lock", str(lock)]) == 0  # the lock alone
    assert "signers: held by the lock" in capsys.readouterr().out
    other = pinned(tmp_path, (keys["k2"], "two"))
    assert exchange(argv + ["--require-signed", "--signers", str(other)]) == 1
    assert "release-signer-unknown" in capsys.readouterr().out


def test_unsigned_release_passes_without_require_signed_and_is_refused_with_it(tmp_path, monkeypatch, keys):
    git_identity(monkeypatch)
    repo = GitRepo(tmp_path / "plain")
    repo.snapshot(EMPTY)
    assert make_release(str(repo.path), "v0.1.0").status == 0
    assert release_check(str(repo.path), "v0.1.0", history=None).report.passed
    refused = release_check(str(repo.path), "v0.1.0", history=None, signing=Signing(require=True))
    assert codes(refused) == ["release-unsigned"]
    refused = release_check(str(repo.path), "v0.1.0", history=None,
                            signing=signing(pinned(tmp_path, (keys["k1"], "one"))))
    assert codes(refused) == ["release-unsigned"]  # a pinned set refuses an unsigned release too


def test_an_unsigned_catalogs_lock_stays_version_2_byte_for_byte(tmp_path, monkeypatch):
    git_identity(monkeypatch)
    repo = GitRepo(tmp_path / "plain")
    repo.snapshot(EMPTY)
    assert make_release(str(repo.path), "v0.1.0").status == 0
    check = release_check(str(repo.path), "v0.1.0", history=None)
    state = check.state
    assert state.signers == () and state.tag_object is None
    expected = {"commit": state.commit, "entries": {}, "location": state.location, "lockVersion": 2,
                "manifestDigest": state.manifest_digest, "tag": "v0.1.0", "withdrawn": {}}
    assert state.encode() == (json.dumps(expected, indent=2, sort_keys=True) + "\n").encode()


def test_require_signed_without_a_pin_is_unpinned(catalog):
    check = release_check(str(catalog.path), "v0.1.0", history=None, signing=Signing(require=True))
    assert codes(check) == ["release-signers-unpinned"]
    near = release_check(str(catalog.path), "v0.1.0", history=None)  # the near miss: without --require-signed
    assert near.report.passed and any(n.startswith("signers: unpinned") for n in near.report.notes)
    assert near.state.signers  # trust on first use: the lock written records them


def test_attack_a_lock_holding_signers_refuses_an_unsigned_next_release(catalog, tmp_path):
    first = release_check(str(catalog.path), "v0.1.0", history=None)
    catalog.git("commit", "-q", "--allow-empty", "-m", "work")
    assert make_release(str(catalog.path), "v0.2.0").status == 0  # unsigned
    check = release_check(str(catalog.path), "v0.2.0", history=None, lock=first.state)
    assert codes(check) == ["release-unsigned"]


def test_attack_locked_tag_remade_at_the_same_commit_is_moved(catalog, keys):
    first = release_check(str(catalog.path), "v0.1.0", history=None)
    assert release_check(str(catalog.path), "v0.1.0", history=None, lock=first.state).report.passed
    digest = manifest_digest(catalog, first.state.commit)
    catalog.git("tag", "-d", "v0.1.0")
    git_sign_tag(catalog, keys["k1"], "v0.1.0", release_message("v0.1.0", digest) + "\nre-made\n",
                 target=first.state.commit)
    check = release_check(str(catalog.path), "v0.1.0", history=None, lock=first.state)
    assert codes(check) == ["release-tag-moved"]


def test_rotation_passes_from_a_lock_at_r1_and_from_signers_naming_k1(rotated, keys, tmp_path):
    first = release_check(str(rotated.path), "v0.1.0", history=None,
                          signing=signing(pinned(tmp_path, (keys["k1"], "one"))))
    assert first.report.passed
    assert release_check(str(rotated.path), "v0.3.0", history=None, lock=first.state).report.passed
    k1_only = signing(pinned(tmp_path, (keys["k1"], "one")))
    check = release_check(str(rotated.path), "v0.3.0", history=8, signing=k1_only)
    assert check.report.passed, codes(check)
    assert check.state.signers == (keys["k2"].line("two"),)
    assert release_check(str(rotated.path), "v0.2.0", history=8, signing=k1_only).report.passed  # R2 still verifies
    diff = upgrade_diff(str(rotated.path), None, "v0.3.0", lock=first.state, history=None)
    assert diff["result"] != "refused", diff


def test_attack_r4_signed_by_the_removed_key_is_signer_unknown(rotated, keys, tmp_path):
    rotated.git("commit", "-q", "--allow-empty", "-m", "work")
    signed_by_hand(rotated, keys["k1"], "v0.4.0")
    k1_only = signing(pinned(tmp_path, (keys["k1"], "one")))
    assert codes(release_check(str(rotated.path), "v0.4.0", history=8, signing=k1_only)) == ["release-signer-unknown"]
    first = release_check(str(rotated.path), "v0.1.0", history=None)
    assert codes(release_check(str(rotated.path), "v0.4.0", history=None, lock=first.state)) == \
        ["release-signer-unknown"]
    diff = upgrade_diff(str(rotated.path), None, "v0.4.0", lock=first.state, history=None)
    assert diff["result"] == "refused" and diff["refusals"][0]["code"] == "release-signer-unknown"


def test_attack_rotation_in_one_release_signed_only_by_the_new_key_is_refused(catalog, keys, tmp_path):
    """R2' adds k2 and removes k1 in one release, signed only by k2: nothing the consumer trusts signed k2 in."""
    first = release_check(str(catalog.path), "v0.1.0", history=None)
    set_signers(catalog, (keys["k2"], "two"))
    signed_by_hand(catalog, keys["k2"], "v0.2.0")
    assert codes(release_check(str(catalog.path), "v0.2.0", history=None, lock=first.state)) == \
        ["release-signer-unknown"]
    k1_only = signing(pinned(tmp_path, (keys["k1"], "one")))
    assert codes(release_check(str(catalog.path), "v0.2.0", history=8, signing=k1_only)) == ["release-signer-unknown"]


def test_attack_signed_tag_under_another_name_and_another_manifest_are_mismatches(catalog, keys, tmp_path):
    k1_only = signing(pinned(tmp_path, (keys["k1"], "one")))
    catalog.git("commit", "-q", "--allow-empty", "-m", "work")
    assert make_release(str(catalog.path), "v0.2.0").status == 0
    catalog.git("tag", "-d", "v0.2.0")
    catalog.git("update-ref", "refs/tags/v0.2.0", catalog.rev("refs/tags/v0.1.0"))  # v0.1.0's signed tag object
    check = release_check(str(catalog.path), "v0.2.0", history=None, signing=k1_only)
    assert codes(check) == ["release-signature-mismatch"]


def test_attack_a_malformed_signers_file_is_refused_by_the_command(catalog, keys, tmp_path, capsys):
    bad = tmp_path / "bad-signers"
    bad.write_text(keys["k1"].line("one", 'namespaces="git",valid-before="20300101"') + "\n", encoding="ascii")
    assert exchange(["release-check", str(catalog.path), "v0.1.0", "--signers", str(bad)]) == 1
    assert "release-signers-malformed" in capsys.readouterr().out


def test_attack_show_and_index_apply_the_locks_signers(catalog, tmp_path, capsys):
    from judgment_exchange.consumer import lock as locks

    held = tmp_path / "exchange.lock"
    locks.write(str(held), release_check(str(catalog.path), "v0.1.0", history=None).state, replace=False)
    catalog.git("commit", "-q", "--allow-empty", "-m", "work")
    assert make_release(str(catalog.path), "v0.2.0").status == 0  # unsigned
    assert exchange(["show", str(catalog.path), "v0.2.0", "--no-history", "--lock", str(held)]) == 1
    assert "release-unsigned" in capsys.readouterr().out
    assert exchange(["index", str(catalog.path), "v0.2.0", "--no-history", "--lock", str(held), "--local",
                     "--out", str(tmp_path / "site")]) == 1
    assert exchange(["show", str(catalog.path), "v0.1.0", "--no-history", "--lock", str(held)]) == 0  # near miss
