"""Acquisitions (dialect §5.2): the document's form, receipt checks 1–5, times, sessions, citations."""

from __future__ import annotations

import hashlib
import re
from typing import Any

from ..canon import CanonError, canon, digest, is_digest
from ..codes.verifier import INPUT_MALFORMED, INPUT_OVER_BOUND
from ..jsonstrict import depth, integer
from ..keys import key_id, verify
from . import endpoint
from .values import instant

SIGNED_PREFIX = b"judgment-pack-gateway/receipt/3:"
SKEW = 30
MAX_RESULT_DEPTH = 32
_HEX32 = re.compile(r"[0-9a-f]{32}")
_HEX64 = re.compile(r"[0-9a-f]{64}")
_HEX128 = re.compile(r"[0-9a-f]{128}")
Problem = tuple[str, str] | None
Signatures = dict[tuple[str, str, bytes], bool]
"""Signature verdicts by (public key, signature, message): `verified`'s memo (dialect.CheckedDialect.signatures)."""
UNKNOWN_REQUEST = object()
"""A request that cannot be formed: it takes a value from a source of a kind the verifier does not read
(partial.py). check() then holds every check but 4, the arguments commitment, which needs the request."""


def count_refusal(acquisitions: Any) -> Problem:
    """Phase 3: each acquisition's result nested at most 32 levels (§12)."""
    if not isinstance(acquisitions, dict):
        return None
    for name, member in acquisitions.items():
        response = member.get("response") if isinstance(member, dict) else None
        if isinstance(response, dict) and "result" in response:
            if depth(response["result"]) > MAX_RESULT_DEPTH:
                return INPUT_OVER_BOUND, f"the result of {name!r} is nested deeper than {MAX_RESULT_DEPTH} levels"
    return None


def salts_ok(salts: Any) -> bool:
    return (
        isinstance(salts, dict)
        and "args" in salts
        and set(salts) <= {"args", "statement"}
        and all(isinstance(v, str) and _HEX64.fullmatch(v) for v in salts.values())
    )


def form_refusal(acquisitions: Any, research: set[str]) -> Problem:
    """Phase 5: one object of {"response": {result, receipt, salts}}; research may omit receipt and salts."""
    if not isinstance(acquisitions, dict):
        return INPUT_MALFORMED, "the acquisitions are one JSON object"
    for name, member in acquisitions.items():
        if not isinstance(member, dict) or set(member) != {"response"} or not isinstance(member["response"], dict):
            return INPUT_MALFORMED, f"acquisition {name!r} is exactly {{\"response\": {{…}}}}"
        response = member["response"]
        keys = set(response)
        if keys != {"result", "receipt", "salts"} and not (name in research and keys == {"result"}):
            return INPUT_MALFORMED, f"acquisition {name!r}'s response is exactly result, receipt and salts"
        if "receipt" in response and not isinstance(response["receipt"], dict):
            return INPUT_MALFORMED, f"acquisition {name!r}'s receipt is an object"
        if "salts" in response and not salts_ok(response["salts"]):
            return INPUT_MALFORMED, f"acquisition {name!r}'s salts are args and optionally statement, 64 hex each"
    return None


def _form(receipt: dict[str, Any]) -> str | None:
    if receipt.get("receiptVersion") != "3" or receipt.get("kind") != "acquisition":
        return 'receiptVersion is "3" and kind "acquisition"'
    if not isinstance(receipt.get("keyId"), str) or not _HEX32.fullmatch(receipt["keyId"]):
        return "keyId is 32 hexadecimal characters"
    if not isinstance(receipt.get("signature"), str) or not _HEX128.fullmatch(receipt["signature"]):
        return "signature is 128 hexadecimal characters"
    if not isinstance(receipt.get("source"), str) or not isinstance(receipt.get("authority"), str):
        return "source and authority are strings"
    if not is_digest(receipt.get("argumentsCommitment")) or not is_digest(receipt.get("resultDigest")):
        return "argumentsCommitment and resultDigest are digests"
    if instant(receipt.get("servedAt")) is None:
        return "servedAt is a timestamp with an instant"
    index = integer(receipt.get("callIndex"))
    if index is None or index < 0:
        return "callIndex is an integer at least zero"
    if not isinstance(receipt.get("sessionId"), str):
        return "sessionId is a string"
    acquisition = receipt.get("acquisition")
    if not isinstance(acquisition, dict):
        return "acquisition is an object"
    if "pageItems" in acquisition:
        return "the receipt attests a page (acquisition.pageItems), which no preparation reads"
    if not isinstance(acquisition.get("adapter"), dict) or not isinstance(acquisition.get("shape"), str):
        return "acquisition.adapter is an object and acquisition.shape a string"
    if "endpoint" not in acquisition or not (
        acquisition["endpoint"] is None or isinstance(acquisition["endpoint"], str)
    ):
        return "acquisition.endpoint is a string or null"
    if instant(acquisition.get("observedAt")) is None:
        return "acquisition.observedAt is a timestamp with an instant"
    return None


def _same(a: Any, b: Any) -> bool:
    try:
        return canon(a) == canon(b)
    except CanonError:
        return False


def commitment(salt_hex: str, request: Any) -> str:
    """§5.2 check 4: sha256 over the salt's 32 bytes, `args:`, and the request's canon bytes."""
    return "sha256:" + hashlib.sha256(bytes.fromhex(salt_hex) + b"args:" + canon(request)).hexdigest()


def verified(public_key: str, signature: Any, message: bytes, memo: Signatures | None) -> bool:
    """keys.verify, once per (key, signature, message) in `memo` (an entry's: CheckedDialect.signatures)."""
    if memo is None or not isinstance(public_key, str) or not isinstance(signature, str):
        return verify(public_key, signature, message)
    key = (public_key, signature, message)
    answer = memo.get(key)
    if answer is None:
        answer = memo[key] = verify(public_key, signature, message)
    return answer


def check(receipt: dict[str, Any], salts: dict[str, Any], result: Any, request: Any, profile: dict[str, Any],
          memo: Signatures | None = None) -> str | None:
    """Checks 1–5 of §5.2 under the profile; None when they hold, else why it is acquisition-invalid.

    With `request` UNKNOWN_REQUEST, check 4 is not made (the caller reports it unchecked); `memo` keeps
    signature verdicts already reached (`verified`)."""
    if (why := _form(receipt)) is not None:
        return why
    if receipt["keyId"] != key_id(profile["publicKey"]):
        return "keyId is not the profile key's identifier"
    unsigned = {k: v for k, v in receipt.items() if k != "signature"}
    try:
        message = SIGNED_PREFIX + canon(unsigned)
    except CanonError:
        return "the receipt is outside the canon domain"
    if not verified(profile["publicKey"], receipt["signature"], message, memo):
        return "the signature does not verify under the profile's key"
    if receipt["source"] != profile["source"] or receipt["authority"] != profile["authority"]:
        return "source or authority is not the profile's"
    acquisition = receipt["acquisition"]
    if not _same(acquisition["adapter"], profile["adapter"]) or acquisition["shape"] != profile["shape"]:
        return "acquisition.adapter or acquisition.shape is not the profile's"
    if "endpointScope" in profile:
        if not endpoint.matches(profile["endpointScope"], acquisition["endpoint"]):
            return "acquisition.endpoint is not of the constrained form or outside the profile's endpointScope"
    elif not _same(acquisition["endpoint"], profile["endpoint"]):
        return "acquisition.endpoint is not the profile's"
    try:
        if request is not UNKNOWN_REQUEST and receipt["argumentsCommitment"] != commitment(salts["args"], request):
            return "argumentsCommitment does not commit the request"
    except CanonError:
        return "the request is outside the canon domain"
    try:
        if receipt["resultDigest"] != digest(canon(result)):
            return "resultDigest is not the digest of the result"
    except CanonError:
        return "the result is outside the canon domain"
    return None


def stale(receipt: dict[str, Any], verified_at: int, max_age: int) -> str | None:
    """§5.2 times: observedAt and servedAt within [verifiedAt − maxAge, verifiedAt + 30 s]."""
    for name, value in (
        ("servedAt", receipt["servedAt"]),
        ("acquisition.observedAt", receipt["acquisition"]["observedAt"]),
    ):
        at = instant(value)
        assert at is not None  # check's _form held servedAt and acquisition.observedAt to timestamps with an instant
        if at < verified_at - max_age or at > verified_at + SKEW:
            return f"{name} {value} is outside [verifiedAt − {max_age} s, verifiedAt + {SKEW} s]"
    return None


def sessions_hold(calls: list[tuple[str, int]]) -> bool:
    """§5.2 sessions: one sessionId at distinct callIndex values, or each alone at callIndex 0."""
    ids = [s for s, _ in calls]
    indices = [i for _, i in calls]
    shared = len(set(ids)) <= 1 and len(set(indices)) == len(indices)
    alone = all(i == 0 for i in indices) and len(set(ids)) == len(ids)
    return shared or alone


def citation(receipt: dict[str, Any]) -> dict[str, Any]:
    """An acquisition's citation: its receipt's callIndex, sessionId and signature (§5.2)."""
    return {"callIndex": receipt["callIndex"], "sessionId": receipt["sessionId"], "signature": receipt["signature"]}

