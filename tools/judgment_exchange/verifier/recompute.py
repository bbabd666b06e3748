"""Recomputing a preparation (dialect §§3–9): findings 1–4 of §11 in their order, and finding 5's comparison.

The dialect is read bound (§4.4): a binding document has already been applied. Every document has
passed §11's refusal phases before `recompute` runs; a bound measured late (an unwrapped string,
§6.1) is a refusal even here, with nothing else reported.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..canon import CanonError, canonical_digest, preparation_form
from ..codes import verifier as codes
from ..jsonstrict import depth, integer
from . import receipts, research
from .calculation import calculation_answer
from .results import Found, Refused
from .rule import ReadFailed, evaluate
from .templates import commitments, instantiate, is_form, is_string_template
from .unwrap import unwrap
from .values import ABSENT, in_canon, instant, resolve, write

VERIFICATION = "verified acquisitions; session sealing and input truth are not established"
DEFAULT_ADMITS = ("asserted", "record")
AVAILABILITY = ("present", "absent", "unknown")


@dataclass
class Inputs:
    """What derives a preparation (§9.4), read and form-checked; `unbound` names each bound source's shape and record.

    `mapping_digest` is the dialect's canonical digest when it is already known (None: computed here);
    `signatures` keeps each receipt signature's verdict across an entry's fixtures (verify.admit)."""

    dialect: dict[str, Any]
    case: Any
    acquisitions: dict[str, Any]
    profiles: dict[str, tuple[dict[str, Any], str]]
    verified_at: str
    unbound: dict[str, tuple[str, str]] = field(default_factory=dict)
    mapping_digest: str | None = None
    signatures: receipts.Signatures | None = None


@dataclass
class Source:
    """One outcome's working state: the case or a source."""

    name: str
    doc: dict[str, Any]
    read: dict[str, Any]
    cls: str = "asserted"
    influence: bool = False
    profile: dict[str, Any] | None = None
    fact_targets: list[str] = field(default_factory=list)
    evidence_targets: list[str] = field(default_factory=list)
    candidates: dict[str, list[str]] = field(default_factory=dict)
    parameters: dict[str, dict[str, Any]] = field(default_factory=dict)
    values: dict[str, Any] = field(default_factory=dict)
    skipped: bool = False
    request: Any = None
    citations: list[dict[str, Any]] = field(default_factory=list)
    acquired: bool = False
    own_receipt: bool = False
    record: Any = None
    calculation: dict[str, Any] | None = None
    computed: bool = False
    rule_applied: bool = False
    claim: dict[str, Any] | None = None
    opaque: bool = False  # its claim is not known: a source of an unread kind, or one that depends on one (partial.py)
    unknown: set[str] = field(default_factory=set)  # parameters whose values come from an opaque source

    def claimed(self) -> dict[str, Any]:
        """Its claim, which every state has once it is an outcome (_Run.add) but an opaque one (partial.py)."""
        assert self.claim is not None, "an opaque source's claim is not known"
        return self.claim


@dataclass
class Recomputation:
    """A recomputed preparation and what the reading reports of it."""

    preparation: dict[str, Any]
    facts: dict[str, Any]
    evidence: dict[str, Any]
    targets_by_class: dict[str, int]
    unsigned_parameters: list[dict[str, Any]]
    unsigned_freshness: dict[str, Any] | None


def targets(read: dict[str, Any]) -> tuple[list[str], list[str], dict[str, list[str]]]:
    """A read's fact targets and evidence targets (§8), each by code point, and each target's candidateFrom."""
    facts: set[str] = set()
    evidence: set[str] = set()
    candidates: dict[str, set[str]] = {}
    if "copy" in read:
        for entry in read["copy"]["facts"]:
            facts.add(entry["target"])
            candidates.setdefault(entry["target"], set()).add(entry["source"])
        for entry in read["copy"]["evidence"]:
            evidence.add(entry["requirement"])
            candidates.setdefault(entry["requirement"], set()).add(entry["source"])
    else:
        for clause in read["rule"]["clauses"]:
            for entry in clause["claim"]["facts"]:
                facts.add(entry["pointer"])
                candidates.setdefault(entry["pointer"], set()).add(entry["from"])
            evidence.update(clause["claim"]["evidence"])
    return sorted(facts), sorted(evidence), {k: sorted(v) for k, v in candidates.items()}


def _typed(value: Any, kind: str) -> bool:
    if kind == "string":
        return isinstance(value, str)
    if kind == "integer":
        return integer(value) is not None
    return instant(value) is not None


def copy(read_copy: dict[str, Any], value: Any) -> dict[str, Any] | ReadFailed:
    """§6.2: the claim a copy derives from the value read."""
    facts: dict[str, Any] = {}
    availability: dict[str, Any] = {}
    for entry in read_copy["facts"]:
        found = resolve(value, entry["source"])
        if found is ABSENT:
            continue
        if not in_canon(found):
            return ReadFailed(f"the value at {entry['source']} is outside the canon domain")
        write(facts, entry["target"], found)
    for entry in read_copy["evidence"]:
        found = resolve(value, entry["source"])
        if found is ABSENT:
            continue
        if found not in AVAILABILITY:
            return ReadFailed(f"the value at {entry['source']} is not present, absent or unknown")
        availability[entry["requirement"]] = found
    basis = {e["source"] for e in read_copy["facts"]} | {e["source"] for e in read_copy["evidence"]}
    return {"facts": facts, "evidenceAvailability": availability, "acquisitionStatus": "resolved",
            "reason": "copied", "basis": sorted(basis)}


class _Run:
    def __init__(self, inputs: Inputs) -> None:
        self.inputs = inputs
        self.dialect = inputs.dialect
        now = instant(inputs.verified_at)
        assert now is not None  # verify.admit held verifiedAt to a timestamp with an instant (_preparation_refusal)
        self.now = now
        self.case_decl: dict[str, Any] = self.dialect["case"].get("parameters", {}) if "case" in self.dialect else {}
        self.case_values: dict[str, Any] = {}
        self.outcomes: list[Source] = []
        self.by_name: dict[str, Source] = {}
        self.calls: list[tuple[str, int]] = []
        self.index = {s["name"]: i for i, s in enumerate(self.dialect.get("sources", []))}

    def where(self, name: str) -> str:
        """A source by its position (/sources/N), never by its name, which the dialect's author writes."""
        return f"/sources/{self.index[name]}" if name in self.index else "the case"

    def types(self, source: dict[str, Any]) -> dict[str, str]:
        out = {name: decl["type"] for name, decl in self.case_decl.items()}
        out.update({name: decl["type"] for name, decl in source.get("parameters", {}).items()})
        out["runAt"] = "timestamp"
        return out

    def pin_mismatch(self, source: dict[str, Any]) -> str | None:
        """§5.1's pin: a trusted profile of the source's profile id, whose digest is the source's profileDigest."""
        entry = self.inputs.profiles.get(source["profile"])
        if entry is None:
            return "no trusted profile has the source's profile id"
        if entry[1] != source["profileDigest"]:
            return "the trusted profile's digest is not the source's profileDigest"
        return None

    def profile_mismatch(self, source: dict[str, Any]) -> str | None:
        """Finding 1 for one source (§5.1, §4.1, §4.4); a research source's in research.py."""
        if source["kind"] == "research":
            member = self.inputs.acquisitions.get(source["name"])
            record = member["response"]["result"] if member is not None else None
            return research.binding_mismatch(source, self.inputs.profiles, record)
        if (why := self.pin_mismatch(source)) is not None:
            return why
        profile = self.inputs.profiles[source["profile"]][0]
        if profile["shape"] == "command":
            return "a profile of shape command serves no operation"
        if "endpointScope" in profile:
            return "a profile with endpointScope serves no operation"
        arguments = source["arguments"]
        if profile["shape"] == "mcp":
            if (
                set(arguments) != {"tool", "arguments"}
                or not isinstance(arguments["tool"], str)
                or not arguments["tool"]
            ):
                return "under shape mcp the request is exactly a tool call, {tool, arguments}"
            if arguments["tool"] not in profile.get("tools", []):
                return "the request's tool is not among the profile's tools"
        if profile["adapter"]["name"] == "adapter-http" and "query" in arguments:
            query = arguments["query"]
            types = self.types(source)
            if (
                not isinstance(query, dict)
                or is_form(query)
                or not all(is_string_template(v, types) for v in query.values())
            ):
                return "under adapter-http a query is an object of string templates"
        if ("calculator" in profile) != ("calculation" in source):
            return "calculation is declared exactly when the profile is a calculator's"
        if source["name"] in self.inputs.unbound:
            shape, record = self.inputs.unbound[source["name"]]
            if profile["shape"] != shape or profile["adapter"]["name"] != record:
                return "the bound profile's shape or adapter.name is not the unbound source's shape or record"
        return None

    def run(self) -> Found | Refused | Recomputation:
        stop: Found | Refused | None
        for source in self.dialect.get("sources", []):
            if (why := self.profile_mismatch(source)) is not None:
                return Found(codes.PROFILE_MISMATCH, f"{self.where(source['name'])}: {why}")
        if "case" in self.dialect:
            if (stop := self.case()) is not None:
                return stop
        for source in self.dialect.get("sources", []):
            if (stop := self.source(source)) is not None:
                return stop
        if (found := self.unexpected()) is not None:
            return found
        if (stop := self.admission()) is not None:
            return stop
        return self.preparation()

    def unexpected(self) -> Found | None:
        """After the last source: an acquisitions member that names no source (§5.2, finding 3)."""
        for position, name in enumerate(self.inputs.acquisitions):
            if name not in self.by_name or name == "case":
                return Found(codes.ACQUISITION_UNEXPECTED, f"the acquisitions' member {position} (in document order) "
                                                           "names no source")
        return None

    def case(self) -> Found | None:
        case = self.dialect["case"]
        document = self.inputs.case
        for position, (name, decl) in enumerate(self.case_decl.items()):
            value = resolve(document, decl["pointer"])
            if value is ABSENT or not _typed(value, decl["type"]):
                return Found(codes.PARAMETER_INVALID, f"the case's parameter {position} (in declaration order) does "
                                                      "not "
                                                      f"resolve to a value of type {decl['type']}")
            self.case_values[name] = value
        read = {"copy": {"facts": case["facts"], "evidence": case["evidence"]}}
        state = Source("case", case, read)
        state.fact_targets, state.evidence_targets, state.candidates = targets(read)
        state.values = dict(self.case_values)
        claim = copy(read["copy"], document)
        if isinstance(claim, ReadFailed):
            return Found(codes.READ_FAILED, f"the case: {claim.detail}")
        state.claim = claim
        self.add(state)
        return None

    def add(self, state: Source) -> None:
        self.outcomes.append(state)
        self.by_name[state.name] = state

    def start(self, source: dict[str, Any]) -> Source:
        """A source's working state before its parameters: class, targets and the case's values."""
        profile = self.inputs.profiles[source["profile"]][0]
        klass = "generated" if source["kind"] == "research" else profile["class"]
        state = Source(source["name"], source, source["read"], cls=klass, profile=profile)
        state.fact_targets, state.evidence_targets, state.candidates = targets(source["read"])
        state.parameters = source.get("parameters", {})
        state.influence = klass == "generated"
        state.values = dict(self.case_values)
        return state

    def parameters(self, state: Source) -> Found | None:
        """Its source parameters in order (§3): skipped when one is unavailable, parameter-invalid when mistyped;
        a parameter from an opaque source (partial.py) has no value and is named in state.unknown."""
        for position, (pname, decl) in enumerate(state.parameters.items()):
            earlier = self.by_name[decl["from"]]
            state.influence = state.influence or earlier.influence
            if earlier.opaque:
                state.unknown.add(pname)
                continue
            if earlier.skipped or earlier.claimed()["acquisitionStatus"] != "resolved":
                state.skipped = True
                continue
            value = resolve(earlier.claimed()["facts"], decl["pointer"])
            if value is ABSENT:
                state.skipped = True
                continue
            if not _typed(value, decl["type"]):
                return Found(codes.PARAMETER_INVALID, f"{self.where(state.name)}: its parameter {position} (in "
                                                      f"declaration order) is not of type {decl['type']}")
            state.values[pname] = value
        return None

    def skip(self, state: Source, member: Any) -> Found | None:
        """A skipped source (§9.2): no acquisition, and the claim dependency-unavailable."""
        if member is not None:
            return Found(codes.ACQUISITION_UNEXPECTED, f"{self.where(state.name)} is skipped and has an acquisition")
        state.claim = {"facts": {}, "evidenceAvailability": {}, "acquisitionStatus": "unknown",
                       "reason": "dependency-unavailable", "basis": []}
        self.add(state)
        return None

    def source(self, source: dict[str, Any]) -> Found | Refused | None:
        state = self.start(source)
        if (found := self.parameters(state)) is not None:
            return found
        member = self.inputs.acquisitions.get(state.name)
        if state.skipped:
            return self.skip(state, member)
        return self.read(state, source, member)

    def read(self, state: Source, source: dict[str, Any], member: Any) -> Found | Refused | None:
        """A source that is not skipped, through its acquisition (§9.2)."""
        if member is None:
            return Found(codes.ACQUISITION_MISSING, f"{self.where(state.name)} has no acquisition")
        return self.acquired(state, member["response"])

    def receipted(self, state: Source, response: dict[str, Any], request: Any, result: Any, profile: dict[str, Any],
                  what: str) -> Found | None:
        """§5.2 checks 1–5, times and sessions for one receipt; its citation is kept on the state."""
        receipt = response["receipt"]
        if (why := receipts.check(receipt, response["salts"], result, request, profile,
                                  self.inputs.signatures)) is not None:
            return Found(codes.ACQUISITION_INVALID, f"{what}: {why}")
        max_age, index = integer(state.doc["maxAge"]), integer(receipt["callIndex"])
        # the form check holds a source's maxAge to an integer (dialect/sources.py), receipts.check the callIndex
        assert max_age is not None and index is not None
        if (why := receipts.stale(receipt, self.now, max_age)) is not None:
            return Found(codes.ACQUISITION_STALE, f"{what}: {why}")
        self.calls.append((receipt["sessionId"], index))
        if not receipts.sessions_hold(self.calls):
            return Found(codes.ACQUISITION_SESSIONS, f"{what}: its receipt breaks both session forms")
        state.citations.append(receipts.citation(receipt))
        return None

    def research_receipts(self, state: Source, response: dict[str, Any]) -> Found | None:
        """§5.2 for a research acquisition: each retained response under its own profile, then the record's
        own receipt over state.request, then the record in the canon domain."""
        record = response["result"]
        where = self.where(state.name)
        for index, retained in enumerate(record["responses"]):
            what = f"{where}, response {index}"
            if "result" not in retained:
                return Found(codes.ACQUISITION_MISSING, f"{what}: the retained result is missing")
            profile = self.inputs.profiles[retained["profile"]["id"]][0]
            if (found := self.receipted(state, retained, retained["request"], retained["result"], profile, what)):
                return found
        if "receipt" in response:
            state.own_receipt = True
            assert state.profile is not None  # start() gave the research source its pinned profile
            if (found := self.receipted(state, response, state.request, record, state.profile,
                                        f"{where}, the record's receipt")):
                return found
        if not in_canon(record):
            return Found(codes.ACQUISITION_INVALID, f"{where}: the research record is outside the canon domain")
        return None

    def research(self, state: Source, response: dict[str, Any]) -> Found | Refused | None:
        """A research source (§4.3, §5.2, §6.4): each retained response, the record's own receipt, then its read."""
        source = state.doc
        state.request = research.request(source, instantiate(source["question"], state.values))
        if (found := self.research_receipts(state, response)) is not None:
            return found
        record = response["result"]
        state.record = record
        state.acquired = True
        read = source["read"]
        value = record
        if "sources" in read:
            earlier = {n: self.by_name[n].record for n in read["sources"] if not self.by_name[n].skipped}
            value = {"current": record, "sources": earlier}
            if depth(value) > research.MAX_COMBINED_DEPTH:
                return Refused(codes.INPUT_OVER_BOUND, f"{self.where(state.name)}: the combined value is nested deeper "
                                                       f"than {research.MAX_COMBINED_DEPTH} levels (§6.4)")
        return self.apply(state, value)

    def apply(self, state: Source, value: Any) -> Found | None:
        """The source's read over the value read (§6.2, §6.3), and its outcome."""
        read = state.doc["read"]
        if "copy" in read:
            claim = copy(read["copy"], value)
        else:
            rule = read["rule"]
            claim = evaluate(rule, value, {p: state.values.get(p) if p != "runAt" else self.inputs.verified_at
                                          for p in rule.get("parameters", {})})
            state.rule_applied = True
        if isinstance(claim, ReadFailed):
            return Found(codes.READ_FAILED, f"{self.where(state.name)}: {claim.detail}")
        state.claim = claim
        self.add(state)
        return None

    def acquired(self, state: Source, response: dict[str, Any]) -> Found | Refused | None:
        source = state.doc
        if source["kind"] == "research":
            return self.research(state, response)
        assert state.profile is not None  # start() gave the source its pinned profile
        state.request = instantiate(source["arguments"], state.values)
        result = response["result"]
        if (found := self.receipted(state, response, state.request, result, state.profile, self.where(state.name))):
            return found
        state.acquired = True
        value = result
        read = source["read"]
        if "unwrap" in read:
            value = unwrap(value, read["unwrap"])
            if isinstance(value, Refused):
                return value
            if isinstance(value, ReadFailed):
                return Found(codes.READ_FAILED, f"{self.where(state.name)}: {value.detail}")
        if "calculation" in source:
            answer = calculation_answer(
                value, state.profile["calculator"], source["calculation"], state.values, self.now
            )
            if isinstance(answer, str):
                return Found(codes.CALCULATION_INVALID, f"{self.where(state.name)}: {answer}")
            state.calculation = self.calculation_lineage(state, answer)
            state.computed = answer["status"] == "computed"
            if not state.computed:
                state.claim = {"facts": {}, "evidenceAvailability": {t: "unknown" for t in state.evidence_targets},
                               "acquisitionStatus": "unknown", "reason": "calculation-" + answer["status"],
                               "basis": ["/calculation/status"]}
                self.add(state)
                return None
        return self.apply(state, value)

    def origin(self, state: Source, parameter: str) -> tuple[str, str]:
        if parameter in state.parameters:
            decl = state.parameters[parameter]
            return decl["from"], decl["pointer"]
        return "case", self.case_decl[parameter]["pointer"]

    def calculation_lineage(self, state: Source, answer: dict[str, Any]) -> dict[str, Any]:
        bound = state.doc["calculation"]["inputs"]
        inputs = []
        for name in sorted(answer["inputs"]):
            source, pointer = self.origin(state, bound[name])
            inputs.append({"name": name, "parameter": bound[name], "source": source, "pointer": pointer})
        return {
            "calculator": answer["calculator"],
            "status": answer["status"],
            "asOf": answer["asOf"],
            "inputs": inputs,
        }

    def admission(self) -> Found | None:
        admits = self.dialect.get("admits", {})
        for state in self.outcomes:
            for kind, names in (("facts", state.fact_targets), ("evidence", state.evidence_targets)):
                for target in names:
                    allowed = admits.get(kind, {}).get(target, DEFAULT_ADMITS)
                    if state.cls not in allowed or (state.influence and "generated" not in allowed):
                        return Found(codes.ADMISSION_REFUSED, f"{self.where(state.name)}: one of its {kind} targets "
                                                              "does not admit its class")
        return None

    def lineage(self, state: Source) -> list[dict[str, Any]]:
        entries = []
        claim = state.claimed()
        read_digest = canonical_digest(state.read)
        dependencies = [{"parameter": p, "source": d["from"], "pointer": d["pointer"]}
                        for p, d in sorted(state.parameters.items())]
        for kind, names in (("fact", state.fact_targets), ("evidence", state.evidence_targets)):
            for target in names:
                if kind == "fact":
                    present = resolve(claim["facts"], target) is not ABSENT
                else:
                    present = target in claim["evidenceAvailability"]
                entry = {"target": target, "kind": kind, "source": state.name, "class": state.cls,
                         "generatedInfluence": state.influence, "present": present,
                         "status": claim["acquisitionStatus"], "reason": claim["reason"],
                         "readDigest": read_digest, "basis": claim["basis"]}
                candidates = [] if kind == "evidence" and "rule" in state.read else state.candidates.get(target, [])
                if candidates:
                    entry["candidateFrom"] = candidates
                if dependencies:
                    entry["dependencies"] = dependencies
                if state.doc.get("kind") == "research":
                    if state.citations:
                        entry["receipts"] = state.citations
                elif state.citations:
                    entry["receipt"] = state.citations[0]
                if state.calculation is not None:
                    entry["calculation"] = state.calculation
                entries.append(entry)
        return entries

    def outcome(self, state: Source) -> dict[str, Any]:
        parameters = dict(state.values)
        parameters["runAt"] = self.inputs.verified_at
        claim = state.claimed()
        out = {"name": state.name, "parameters": parameters, "claim": claim,
               "status": claim["acquisitionStatus"], "reason": claim["reason"]}
        if state.request is not None:
            out["arguments"] = state.request
        return out

    def preparation(self) -> Recomputation:
        lineage = [entry for state in self.outcomes for entry in self.lineage(state)]
        cites = [c for s in self.outcomes for c in s.citations]
        if not any(s.get("kind") == "research" for s in self.dialect.get("sources", [])):
            cites.sort(key=_call_index)
        preparation = {
            "version": family(self.dialect),
            "verifiedAt": self.inputs.verified_at,
            "mappingDigest": self.inputs.mapping_digest or canonical_digest(self.dialect),
            "verification": VERIFICATION,
            "cites": cites,
            "lineage": lineage,
            "outcomes": [self.outcome(s) for s in self.outcomes],
        }
        facts: dict[str, Any] = {}
        evidence: dict[str, Any] = {}
        for state in self.outcomes:
            for target in state.fact_targets:
                value = resolve(state.claimed()["facts"], target)
                if value is not ABSENT:
                    write(facts, target, value)
            evidence.update(state.claimed()["evidenceAvailability"])
        by_class = {"asserted": 0, "record": 0, "generated": 0}
        for entry in lineage:
            by_class[entry["class"]] += 1
        acquired = [s for s in self.outcomes if s.acquired]
        freshness = None
        if acquired:
            freshness = {"against": "preparation.verifiedAt", "verifiedAt": self.inputs.verified_at,
                         "sources": [{"source": s.name,
                                      "checks": ["acquisition", "calculation"] if s.computed else ["acquisition"],
                                      "targets": len(s.fact_targets) + len(s.evidence_targets)} for s in acquired]}
        return Recomputation(preparation, facts, evidence, by_class, self.unsigned_parameters(), freshness)

    def unsigned_parameters(self) -> list[dict[str, Any]]:
        """§11 unsignedParameters: the parameters a rule read that its own acquisition does not commit."""
        entries: dict[str, dict[str, Any]] = {}
        out = []
        for state in self.outcomes:
            if not state.acquired or not state.rule_applied or not (state.fact_targets or state.evidence_targets):
                continue
            if state.doc["kind"] == "research":
                committed, shared = commitments(state.doc["question"]) if state.own_receipt else (set(), set())
            else:
                committed, shared = commitments(state.doc["arguments"])
            if state.calculation is not None:
                bound = state.doc["calculation"]["inputs"]
                committed |= {bound[i["name"]] for i in state.calculation["inputs"]}
            named = sorted(_named(state.read["rule"]) - committed)
            parameters = []
            for name in named:
                kind = self.unsigned_kind(state, name, shared, entries)
                if kind is not None:
                    parameters.append({"name": name, "kind": kind})
            if parameters:
                entry = {"source": state.name, "parameters": parameters,
                         "targets": len(state.fact_targets) + len(state.evidence_targets)}
                entries[state.name] = entry
                out.append(entry)
        return out

    def unsigned_kind(self, state: Source, name: str, shared: set[str],
                      entries: dict[str, dict[str, Any]]) -> str | None:
        if name == "runAt":
            return "runAt"
        if name in state.parameters:
            earlier = state.parameters[name]["from"]
            if earlier not in entries:
                return None
            kinds = {p["kind"] for p in entries[earlier]["parameters"]}
            if kinds & {"case", "local-file", "upstream", "ambiguous-text"}:
                kind = "upstream"
            else:
                return "upstream-runAt"
        else:
            kind = "case"
        return "ambiguous-text" if name in shared else kind


def _call_index(citation: dict[str, Any]) -> int:
    """A citation's callIndex, which receipts.check held to an integer."""
    index = integer(citation["callIndex"])
    assert index is not None
    return index


def _named(rule: dict[str, Any]) -> set[str]:
    names: set[str] = set()
    stack = [clause["when"] for clause in rule["clauses"]]
    while stack:
        cond = stack.pop()
        if cond["op"] in ("all", "any"):
            stack.extend(cond["of"])
        elif cond["op"] == "not":
            stack.append(cond["of"])
        elif cond["op"] == "equalsParam":
            names.add(cond["param"])
        elif cond["op"] == "freshWithin":
            names.update((cond["asOf"], cond["maxAge"]))
    return names


def family(dialect: dict[str, Any]) -> int:
    """The preparation's version: the dialect's integer version, or its named format's family (§2.1)."""
    if "formatVersion" in dialect:
        return {"2.0.0": 2, "3.0.0": 3}[dialect["formatVersion"]]
    version = integer(dialect["version"])
    assert version is not None  # without formatVersion the form check holds version to the integer 2 or 3
    return version


def recompute(inputs: Inputs) -> Found | Refused | Recomputation:
    """Findings 1–4 in §11's order, or the recomputed preparation (§§3–9)."""
    return _Run(inputs).run()


def differs(recomputed: bytes, given: Any, given_bytes: bytes | None = None) -> bool:
    """Finding 5: the recomputed canonical bytes (§9.5) are not the given preparation's in that form.

    `given_bytes`, the bytes `given` was read from: when they are the recomputed bytes, `given` is those
    bytes read back, and the form writes a value read from its own bytes as those bytes (§9.5 keeps
    every literal; tests/test_canon_fast.py holds the round trip), so nothing differs."""
    if given_bytes is not None and recomputed == given_bytes:
        return False
    try:
        return recomputed != preparation_form(given)
    except CanonError:
        return True
