"""Signed releases (issue #36; docs/signing.md): pure functions from bytes to values and refusals.

- `signers`: the restricted allowed-signers form of `release-signers` (`read_signers`, `SIGNERS_FILE`);
- `sshsig`: OpenSSH's PROTOCOL.sshsig armored signature, read within bounds and checked with `cryptography`'s
  Ed25519 (never ssh-keygen, never the text it prints);
- `tagobject`: an annotated tag object split into its headers, its message and the trailing SSH signature;
- `chain`: the rule one release's tag is held to (item 3), given its governing signers set.

Nothing here runs git or reads a file but through a `Tree`; above `tree`, `keys` and `codes`, beside `history`.
"""
