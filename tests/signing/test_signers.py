"""Issue #36 item 1: release-signers, a restricted allowed-signers form — each refusal beside its near miss."""

from __future__ import annotations

import base64

import pytest

from judgment_exchange.refusal import Refusal
from judgment_exchange.signing.signers import MAX_BYTES, MAX_KEYS, Signers, read_signers

from .support import make_key


@pytest.fixture(scope="module")
def keys(tmp_path_factory):
    where = tmp_path_factory.mktemp("keys")
    return [make_key(where, f"k{i}") for i in range(MAX_KEYS + 1)]


def _read(text: str) -> Signers | Refusal:
    return read_signers(text.encode("ascii") if isinstance(text, str) else text)


def _malformed(result, words: str | None = None, line: int | None = None) -> None:
    assert isinstance(result, Refusal), result
    assert result.code == "release-signers-malformed"
    assert result.path == "release-signers"
    if words:
        assert words in result.detail, result.detail
    if line is not None:
        assert result.line == line


def test_the_form_reads_keys_comments_and_blank_lines(keys):
    text = f"# maintainers\n\n{keys[0].line('alice@example.invalid')} laptop\n\t{keys[1].line('bob')}\n"
    got = _read(text)
    assert isinstance(got, Signers)
    assert [s.principal for s in got.keys] == ["alice@example.invalid", "bob"]
    assert got.keys[0].key == keys[0].raw
    assert got.lines() == [keys[0].line("alice@example.invalid"), keys[1].line("bob")]  # the comment dropped
    assert got.keys[0].fingerprint.startswith("SHA256:")


def test_one_principal_may_hold_two_keys(keys):
    assert isinstance(_read(f"{keys[0].line('a')}\n{keys[1].line('a')}\n"), Signers)


def test_attack_a_key_listed_twice_is_refused(keys):
    _malformed(_read(f"{keys[0].line('a')}\n{keys[0].line('b')}\n"), "also the key of line 1", 2)


@pytest.mark.parametrize("options,words", [
    ('cert-authority,namespaces="git"', "cert-authority"),
    ('namespaces="git",valid-before="20200101"', "valid-after/valid-before"),
    ('valid-after="20200101",namespaces="git"', "valid-after/valid-before"),
    ('namespaces="file"', 'exactly namespaces="git"'),
    ('namespaces="git,file"', 'exactly namespaces="git"'),
    ('namespaces="Git"', 'exactly namespaces="git"'),
    ('namespaces=git', 'exactly namespaces="git"'),
    ('no-touch-required', 'the only option'),
])
def test_attack_an_option_other_than_namespaces_git_is_refused(keys, options, words):
    _malformed(_read(keys[0].line("a", options) + "\n"), words, 1)
    assert isinstance(_read(keys[0].line("a") + "\n"), Signers)  # the near miss: namespaces="git" alone


def test_a_line_without_options_is_refused(keys):
    _malformed(_read(f"a {keys[0].openssh}\n"), 'namespaces="git"', 1)


def test_attack_another_key_type_is_refused(keys):
    rsa = "ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAAAgQC7"  # the type is refused before the key is read
    _malformed(_read(f'a namespaces="git" {rsa}\n'), "ssh-ed25519", 1)
    ecdsa = "ecdsa-sha2-nistp256 AAAAE2VjZHNhLXNoYTItbmlzdHAyNTYAAAAIbmlzdHAyNTY="
    _malformed(_read(f'a namespaces="git" {ecdsa}\n'), "ssh-ed25519", 1)


def test_a_hardware_key_is_refused_with_its_own_reason(keys):
    sk = "sk-ssh-ed25519@openssh.com AAAAGnNrLXNzaC1lZDI1NTE5QG9wZW5zc2guY29t"
    _malformed(_read(f'a namespaces="git" {sk}\n'), "hardware key", 1)


def test_attack_a_key_blob_of_another_type_under_the_ed25519_name_is_refused(keys):
    blob = base64.b64decode(keys[0].openssh.split()[1])
    wrong = blob.replace(b"ssh-ed25519", b"ssh-ed25518")
    _malformed(_read(f'a namespaces="git" ssh-ed25519 {base64.b64encode(wrong).decode()}\n'), "key blob", 1)
    trailing = base64.b64encode(blob + b"\0").decode()
    _malformed(_read(f'a namespaces="git" ssh-ed25519 {trailing}\n'), "key blob", 1)


def test_attack_malformed_base64_is_refused(keys):
    good = keys[0].openssh.split()[1]
    _malformed(_read(f'a namespaces="git" ssh-ed25519 {good[:-1]}\n'), "base64", 1)
    _malformed(_read(f'a namespaces="git" ssh-ed25519 {good[:-2]}!=\n'), "base64", 1)


def test_attack_a_small_order_key_is_refused():
    identity = (1).to_bytes(32, "little")  # the identity point: a small-order key
    blob = b"\0\0\0\x0bssh-ed25519\0\0\0\x20" + identity
    _malformed(_read(f'a namespaces="git" ssh-ed25519 {base64.b64encode(blob).decode()}\n'), "small order", 1)


@pytest.mark.parametrize("principal", ["", "a,b", "*@example.invalid", "a" * 129, "!a", "a?b", 'a"b'])
def test_attack_a_principal_outside_the_grammar_is_refused(keys, principal):
    line = keys[0].line(principal) if principal else keys[0].line("x")[2:]
    _malformed(_read(line + "\n"), None, 1)


def test_the_longest_principal_passes(keys):
    assert isinstance(_read(keys[0].line("a" * 128) + "\n"), Signers)
    assert isinstance(_read(keys[0].line("A.z@b_c+d-9") + "\n"), Signers)


def test_at_most_32_keys(keys):
    lines = [k.line(f"p{i}") for i, k in enumerate(keys)]
    assert isinstance(_read("\n".join(lines[:MAX_KEYS]) + "\n"), Signers)
    _malformed(_read("\n".join(lines) + "\n"), "more than 32 keys", MAX_KEYS + 1)


def test_at_most_64_kib_measured_before_parsing(keys):
    line = keys[0].line("a") + "\n"
    padded = ("#" * 100 + "\n") * ((MAX_BYTES - len(line)) // 101)
    ok = padded + line
    assert len(ok) <= MAX_BYTES and isinstance(_read(ok), Signers)
    over = b"\xff" * (MAX_BYTES + 1)  # not even ASCII: refused by size, unread
    _malformed(read_signers(over), "over the bound of 65536 bytes")


@pytest.mark.parametrize("data,line", [(b"\r\n", 1), (b"# caf\xc3\xa9\n", 1), (b"\n\x00", 2)])
def test_attack_control_bytes_and_non_ascii_are_refused(data, line):
    _malformed(read_signers(data), "printable ASCII", line)


def test_an_empty_set_is_refused(keys):
    _malformed(_read("# nobody\n\n"), "no key")
    _malformed(_read(""), "no key")
