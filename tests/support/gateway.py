"""A test gateway: synthetic version-3 acquisition receipts signed with the published test key.

The key is the gateway corpus's TEST-SEED (shared/vectors/gateway-corpus/, whitespace stripped),
which signs nothing real. Receipts carry every member real ones carry (shared/reference/
receipts-and-canon.md §4), signed over `judgment-pack-gateway/receipt/3:` + canon(receipt −
signature). What it signs is made with this package's canon: a receipt from here is test data,
never independent evidence.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

from judgment_exchange.canon import canon, canonical_digest, digest

CORPUS = Path(__file__).resolve().parents[2] / "tests" / "vectors" / "gateway-corpus"
ADAPTER_DIGEST = "sha256:" + "ea" * 32


def published_seed() -> bytes:
    return bytes.fromhex((CORPUS / "TEST-SEED").read_text().strip())


@dataclass
class Gateway:
    """Signs receipts for the sources it serves; one session, calls numbered from 0 unless told otherwise."""

    seed: bytes = field(default_factory=published_seed)
    session: str = "test.session"
    calls: int = 0

    @property
    def key(self) -> Ed25519PrivateKey:
        return Ed25519PrivateKey.from_private_bytes(self.seed)

    @property
    def public_key(self) -> str:
        return self.key.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw).hex()

    @property
    def key_id(self) -> str:
        return hashlib.sha256(bytes.fromhex(self.public_key)).hexdigest()[:32]

    def profile(self, id: str, *, shape: str = "mcp", klass: str = "record", source: str = "test/live",
                authority: str = "test", adapter: str = "dbhub", endpoint: str | None = "postgresql://records",
                tools: list[str] | None = None, **extra: Any) -> dict:
        """An input profile (§5.1) pinning this gateway's key."""
        out = {"id": id, "publicKey": self.public_key, "class": klass, "source": source, "authority": authority,
               "shape": shape, "adapter": {"name": adapter, "version": "1.0.0", "digest": ADAPTER_DIGEST},
               "endpoint": endpoint}
        if tools is not None:
            out["tools"] = tools
        out.update(extra)
        return out

    def sign(self, receipt: dict) -> dict:
        unsigned = {k: v for k, v in receipt.items() if k != "signature"}
        signature = self.key.sign(b"judgment-pack-gateway/receipt/3:" + canon(unsigned)).hex()
        return {**unsigned, "signature": signature}

    def acquire(self, profile: dict, request: Any, result: Any, at: str, *, salt: bytes | None = None,
                call_index: int | None = None, session: str | None = None, endpoint: Any = "profile",
                **changes: Any) -> dict:
        """The acquire answer {"response": {result, receipt, salts}} for a request served at `at`."""
        index = self.calls if call_index is None else call_index
        self.calls += 1
        salt = salt if salt is not None else hashlib.sha256(f"salt-{index}".encode()).digest()
        commitment = "sha256:" + hashlib.sha256(salt + b"args:" + canon(request)).hexdigest()
        receipt = {
            "receiptVersion": "3", "kind": "acquisition", "sessionId": session or self.session, "callIndex": index,
            "prevSignature": None, "source": profile["source"], "authority": profile["authority"],
            "keyId": self.key_id, "argumentsCommitment": commitment, "resultDigest": digest(canon(result)),
            "servedAt": at, "caller": None,
            "acquisition": {"adapter": profile["adapter"], "shape": profile["shape"],
                            "endpoint": profile["endpoint"] if endpoint == "profile" else endpoint,
                            "observedAt": at, "peerIdentity": None, "schema": None, "snapshot": "snap-1",
                            "statement": None, "upstreamToken": None},
        }
        receipt.update(changes)
        return {"response": {"result": result, "receipt": self.sign(receipt), "salts": {"args": salt.hex()}}}


def profile_digest(profile: dict) -> str:
    return canonical_digest(profile)
