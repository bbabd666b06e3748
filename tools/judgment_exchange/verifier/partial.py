"""What a skipped fixture still establishes (RFC 0019 §4, held stricter; docs/verifier.md "Skipped fixtures").

RFC 0019 §4 holds a fixture whose dialect names a kind the verifier does not read (§11 phase 6,
kind-unread) by its digests only. One source of such a kind would then switch every check off. Here the
fixture is still read through refusal phases 1–5, and every check that does not need the unread
source's claim is made with the verifier's own rules (profiles.py, receipts.py, research.py, recompute.py):

- finding 1 for each source of a kind the verifier reads, and the profile pin (a trusted profile of the
  source's profile id whose digest is its profileDigest, §5.1) for a source of an unread kind that names one;
- the case's parameters and read (finding 2);
- for each source of a kind it reads, in order (finding 3): its parameters, then its acquisition under
  §5.2 checks 1–5 (the signature under the key its pinned profile names, source, authority, adapter,
  shape, endpoint, the arguments commitment, the result digest), times and sessions, and its read;
  a local-file source with an acquisition, and an acquisitions member that names no source;
- admission (finding 4) of what is known of each outcome's class.

A source whose parameter, or whose reconciliation read, takes a value from a source of an unread kind is
undetermined: its acquisition, when it has one, is held to every check that does not need its request
(check 4 needs it only when the request names such a value), and what could not be checked is listed in
`Partial.unchecked`, by position. Nothing here compares the preparation (finding 5): that is what the skip is.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..codes import verifier as codes
from . import receipts, research
from .recompute import Inputs, Source, _Run
from .results import Found, Refused
from .templates import commitments, instantiate
from .verify import READABLE_KINDS, RECOMPUTE_ERRORS, Admitted, Documents, admit

SAFE_DETAIL = frozenset({codes.ACQUISITION_INVALID, codes.ACQUISITION_STALE, codes.ACQUISITION_SESSIONS,
                         codes.ACQUISITION_MISSING, codes.ACQUISITION_UNEXPECTED, codes.PROFILE_MISMATCH,
                         codes.PARAMETER_INVALID, codes.ADMISSION_REFUSED})
"""Codes whose recompute.py detail is made of positions and fixed text only, never a value the author wrote."""


@dataclass
class Partial:
    """A skipped fixture's checks held: the unread kinds and their sources (by position), the receipts held
    to §5.2, and each check that could not be made."""

    kinds: list[str] = field(default_factory=list)
    sources: list[str] = field(default_factory=list)
    receipts: int = 0
    unchecked: list[str] = field(default_factory=list)


def unread_sources(dialect: Any, readable: frozenset[str]) -> tuple[list[str], list[str]]:
    """The kinds of the dialect's sources the verifier does not read (in order of first use), and those
    sources as /sources/N pointers. A kind passed the form check (a closed set) before it is named."""
    kinds: list[str] = []
    where: list[str] = []
    sources = dialect.get("sources") if isinstance(dialect, dict) else None
    for index, source in enumerate(sources if isinstance(sources, list) else []):
        kind = source.get("kind") if isinstance(source, dict) else None
        if isinstance(kind, str) and kind not in readable:
            where.append(f"/sources/{index}")
            if kind not in kinds:
                kinds.append(kind)
    return kinds, where


class _PartialRun(_Run):
    """recompute.py's run with the sources of unread kinds opaque: their claims are not known."""

    def __init__(self, inputs: Inputs, readable: frozenset[str]) -> None:
        super().__init__(inputs)
        self.readable = readable
        self.result = Partial()
        self.at = "the case"

    def run_partial(self) -> Found | Refused | Partial:
        """recompute.py's run (_Run.run) with the sources of unread kinds opaque, and no preparation."""
        stop: Found | Refused | None
        sources = self.dialect.get("sources", [])
        for index, source in enumerate(sources):
            self.at = f"/sources/{index}"
            why = self.profile_mismatch(source) if source["kind"] in self.readable else self.pin_mismatch(source)
            if why is not None:
                return Found(codes.PROFILE_MISMATCH, f"{self.at}: {why}")
        if "case" in self.dialect:
            self.at = "the case"
            if (stop := self.case()) is not None:
                return stop
        for index, source in enumerate(sources):
            self.at = f"/sources/{index}"
            stop = self.source(source) if source["kind"] in self.readable else self.unread(source)
            if stop is not None:
                return stop
        self.at = "the acquisitions"
        if (stop := self.unexpected()) is not None:
            return stop
        self.at = "admission"
        if (stop := self.admission()) is not None:
            return stop
        return self.result

    def pin_mismatch(self, source: dict[str, Any]) -> str | None:
        """§5.1's pin for a source of an unread kind that names a profile (recompute.py's check)."""
        return super().pin_mismatch(source) if "profile" in source else None

    def unread(self, source: dict[str, Any]) -> Found | None:
        """A source of an unread kind: opaque. A local-file source has no acquisition (§5.2)."""
        if source.get("provider") == "local-file" and source["name"] in self.inputs.acquisitions:
            return Found(codes.ACQUISITION_UNEXPECTED, f"{self.at}: a local-file source has an acquisition")
        state = Source(source["name"], source, source["read"], cls="", opaque=True)
        self.by_name[state.name] = state  # not an outcome: its class and targets are its kind's, unread
        return None

    def receipted(self, state: Source, response: dict[str, Any], request: Any, result: Any, profile: dict[str, Any],
                  what: str) -> Found | None:
        found = super().receipted(state, response, request, result, profile, what)
        if found is None:
            self.result.receipts += 1
        return found

    def read(self, state: Source, source: dict[str, Any], member: Any) -> Found | Refused | None:
        reads_from = source["read"].get("sources", []) if source["kind"] == "research" else []
        if not state.unknown and not any(self.by_name[n].opaque for n in reads_from):
            if member is None:
                return Found(codes.ACQUISITION_MISSING, f"{self.at} has no acquisition")
            return self.acquired(state, member["response"])
        return self.undetermined(state, member)

    def undetermined(self, state: Source, member: Any) -> Found | None:
        """A source that takes a value from an opaque one: its acquisition's checks that need no such value."""
        state.opaque = True
        self.add(state)  # an outcome for admission: its class is known, its influence at least what is known
        because = "it takes a value from a source of a kind the verifier does not read"
        if member is None:
            self.result.unchecked.append(f"{self.at}: whether it is acquired or skipped ({because}); it has no "
                                         "acquisition to check")
            return None
        response = member["response"]
        source = state.doc
        template = source["question"] if source["kind"] == "research" else source["arguments"]
        request: Any = receipts.UNKNOWN_REQUEST
        if not _names(template) & state.unknown:
            value = instantiate(template, state.values)
            request = research.request(source, value) if source["kind"] == "research" else value
        state.request = request
        if source["kind"] == "research":
            found = self.research_receipts(state, response)
            commits = "receipt" in response
        else:
            assert state.profile is not None  # start() gave the source its pinned profile
            found = self.receipted(state, response, request, response["result"], state.profile, self.at)
            commits = True
        if found is not None:
            return found
        if request is receipts.UNKNOWN_REQUEST and commits:
            self.result.unchecked.append(f"{self.at}: its receipt's argumentsCommitment (§5.2 check 4: {because}, "
                                         "so its request cannot be formed)")
        self.result.unchecked.append(f"{self.at}: its read and claim ({because})")
        return None


def _names(template: Any) -> set[str]:
    committed, shared = commitments(template)
    return committed | shared


def check_readable(docs: Documents, readable: frozenset[str] = READABLE_KINDS,
                   checked: Any = None) -> Refused | Found | Partial:
    """Every check of a fixture the verifier skips as kind-unread that does not need an unread source's claim.

    A refusal of phases 1–5 is returned by its code (version-unread among them); findings in §11's order;
    else what was held and what could not be (Partial). Every detail names positions and fixed text only,
    never a value the dialect's author wrote. Never an exception. `checked`: as verify's (verify.admit)."""
    try:
        admitted = admit(docs, checked)
        if isinstance(admitted, Refused):  # its detail may quote a member name: the code alone is reported
            return Refused(admitted.code, f"refusal phases 1–5 (§11): {admitted.code}")
        return _check(admitted, readable)
    except Exception as exc:  # the last guard, as verify's: no input ends in a traceback
        return Refused(codes.INPUT_MALFORMED, f"the inputs cannot be read ({type(exc).__name__})")


def _check(admitted: Admitted, readable: frozenset[str]) -> Refused | Found | Partial:
    run = _PartialRun(admitted.inputs, readable)
    run.result.kinds, run.result.sources = unread_sources(admitted.inputs.dialect, readable)
    try:
        answer = run.run_partial()
    except RECOMPUTE_ERRORS as exc:
        return Refused(codes.INPUT_MALFORMED, f"{run.at}: the dialect cannot be read ({type(exc).__name__})")
    if isinstance(answer, Found) and answer.code not in SAFE_DETAIL:
        return Found(answer.code, f"{run.at}: {answer.code}")
    if isinstance(answer, Refused):
        return Refused(answer.code, f"{run.at}: {answer.code}")
    return answer
