"""The pinned verifier (RFC 0019 §4, Compatibility; docs/verifier-pin.md).

RFC 0019 §4 replays each fixture "through the specification's preparation verifier,
tools/dialect_verify.py at the specification commit the repository's CI pins". verifier-pin.json at the
catalog's root names that reader by §3's reader-locator grammar and says how it is run; `exchange
verifier fetch` checks it out at the pinned commit into a cache directory; the gate replays through it
by dialect §11's process contract (verifier.replay_with_program, the mechanism EXCHANGE_VERIFIER uses),
and where it cannot — no pin, an abbreviated commit, not fetched, not runnable — the bundled verifier
replays and the report names the reader and says why. Nothing here prints a value the pin's author
wrote unless it passed its grammar (the locator) or the closed form below (the run template).
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import tempfile
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from .. import __version__
from ..catalog import documents as docs
from ..catalog import grammar
from ..codes.repository import VERIFIER_FETCH_FAILED, VERIFIER_PIN_MALFORMED
from ..gitfail import reason
from ..refusal import Refusal
from ..tree import FILE, MISSING, ReadOnce, ReleaseTree, Tree, kind_text

PATH = "verifier-pin.json"
BOUND = 64 * 1024
MEMBERS = ("pinVersion", "reader", "run")
RUN_ITEMS = (1, 16)
RUN_ITEM_CHARS = 1024
PLACEHOLDERS = ("{path}", "{checkout}")
_RUN_ITEM = re.compile(r"[\x21-\x7e]([\x20-\x7e]*[\x21-\x7e])?")  # printable ASCII, no edge spaces
_FULL_COMMIT = re.compile(r"[0-9a-f]{40}")
CACHE_VARIABLE = "EXCHANGE_READER_CACHE"
ORIGIN = "https://github.com/{owner}/{name}.git"
BUNDLED = f"bundled: judgment_exchange {__version__}"
NO_PIN = f"the catalog pins no reader: no {PATH}"
PIN_REFUSED = f"{PATH} is refused (verifier-pin-malformed)"
OWN_TEXTS = frozenset({BUNDLED, NO_PIN, PIN_REFUSED})
"""The reader's words that hold no author's part (this package's own name and version, why it replays): the
report's sweep shows them without scanning them (quoting.flagged_values; tests/test_lazy_imports.py holds
the scan to finding nothing in them)."""
FETCH_TIMEOUT = 600


@dataclass(frozen=True)
class Pin:
    """A pin that passed its closed form: the reader's locator and its parts, and the run template."""

    reader: str
    owner: str
    name: str
    path: str
    commit: str
    run: tuple[str, ...]

    @property
    def full(self) -> bool:
        """A pin CI can fetch names its commit by the full 40-hex id (docs/verifier-pin.md)."""
        return _FULL_COMMIT.fullmatch(self.commit) is not None


@dataclass
class PinRead:
    """verifier-pin.json as read: whether the catalog has it, the pin when valid, its refusals."""

    present: bool = False
    pin: Pin | None = None
    refusals: list[Refusal] = field(default_factory=list)


def _malformed(detail: str) -> PinRead:
    return PinRead(present=True, refusals=[Refusal(VERIFIER_PIN_MALFORMED, PATH, detail + " (docs/verifier-pin.md)")])


def _run_problem(run: object) -> str | None:
    if not isinstance(run, list) or not RUN_ITEMS[0] <= len(run) <= RUN_ITEMS[1]:
        return f"run is an array of {RUN_ITEMS[0]} to {RUN_ITEMS[1]} strings, the reader's argv"
    for i, item in enumerate(run):
        if not isinstance(item, str) or len(item) > RUN_ITEM_CHARS or not _RUN_ITEM.fullmatch(item):
            return (f"run item {i} is a string of 1 to {RUN_ITEM_CHARS} printable ASCII characters, "
                    "not starting or ending with a space")
        rest = item
        for placeholder in PLACEHOLDERS:
            rest = rest.replace(placeholder, "")
        if "{" in rest or "}" in rest:
            return f"run item {i} holds a brace outside the placeholders {{path}} and {{checkout}}"
        if item == "--fixture" or item.startswith("--fixture="):
            return f"run item {i} is --fixture: the gate appends --fixture ENTRY_DIR/fixtures/NAME itself (§11)"
    if not any("{path}" in item for item in run):
        return "run names the reader's file: one item holds {path}"
    if "{" in run[0] and not run[0].startswith("{"):
        return "run item 0 (the program) is a placeholder path or holds none"
    return None


def read_pin(tree: Tree) -> PinRead:
    """verifier-pin.json's closed form: exactly pinVersion 1, reader (a §3 locator) and run (argv template)."""
    node = tree.stat(PATH)
    if node.kind == MISSING:
        return PinRead()
    if node.kind != FILE:
        return _malformed(f"{PATH} is {kind_text(node.kind)}; it is a regular file holding one JSON object")
    read = docs.read_json(tree, PATH, BOUND, over_code=VERIFIER_PIN_MALFORMED,
                          malformed_code=VERIFIER_PIN_MALFORMED, nested_code=VERIFIER_PIN_MALFORMED)
    if read.refusal:
        return PinRead(present=True, refusals=[read.refusal if read.refusal.code == VERIFIER_PIN_MALFORMED
                                               else Refusal(VERIFIER_PIN_MALFORMED, PATH, read.refusal.detail)])
    value = read.value
    if not isinstance(value, dict) or set(value) != set(MEMBERS):
        return _malformed(f"{PATH} is one object of exactly pinVersion, reader and run")
    version = value["pinVersion"]
    if getattr(version, "literal", None) != "1":
        return _malformed("pinVersion is the integer 1")
    reader = value["reader"]
    if not isinstance(reader, str) or (problem := grammar.locator_problem(reader)) is not None:
        why = problem if isinstance(reader, str) else "a string"
        return _malformed(f"reader is a reader locator <owner>/<name>/<path>@<commit> (RFC 0019 §3): {why}")
    if (problem := _run_problem(value["run"])) is not None:
        return _malformed(problem)
    body, commit = reader.rsplit("@", 1)
    owner, name, path = body.split("/", 2)
    return PinRead(present=True, pin=Pin(reader, owner, name, path, commit, tuple(value["run"])))


# --- the cache: one checkout per pinned commit ----------------------------------------------------


def cache_root(environ: Mapping[str, str] | None = None) -> Path:
    """$EXCHANGE_READER_CACHE, else $XDG_CACHE_HOME/judgment-exchange/readers, else ~/.cache/…"""
    env = os.environ if environ is None else environ
    if env.get(CACHE_VARIABLE):
        return Path(env[CACHE_VARIABLE])
    base = env.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "judgment-exchange" / "readers"


def checkout_dir(pin: Pin, cache: Path) -> Path:
    """Where the pinned reader's checkout lives: CACHE/OWNER/NAME/COMMIT (each part within its grammar)."""
    return cache / pin.owner / pin.name / pin.commit


def _git_env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}
    env.update(GIT_TERMINAL_PROMPT="0", GIT_CONFIG_NOSYSTEM="1", GIT_CONFIG_GLOBAL=os.devnull)
    return env


def _git(*args: str, cwd: str | Path | None = None) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(["git", "-c", "core.autocrlf=false", "-c", "advice.detachedHead=false", *args],
                          cwd=cwd, env=_git_env(), capture_output=True, timeout=FETCH_TIMEOUT, check=False)


def checkout_problem(pin: Pin, checkout: Path) -> str | None:
    """Why `checkout` is not the pinned reader at the pinned commit, or None: HEAD is the commit, and the
    reader's file is a regular file whose bytes are the blob the commit's tree holds at its path."""
    if not checkout.is_dir():
        return "not fetched"
    try:
        head = _git("rev-parse", "--verify", "HEAD^{commit}", cwd=checkout)
        blob = _git("rev-parse", "--verify", f"HEAD:{pin.path}", cwd=checkout)
        kind = _git("cat-file", "-t", f"HEAD:{pin.path}", cwd=checkout)
    except (OSError, subprocess.SubprocessError) as exc:
        return f"the checkout could not be read ({reason(exc)})"
    if head.returncode != 0 or head.stdout.decode().strip() != pin.commit:
        return "the checkout's HEAD is not the pinned commit"
    if blob.returncode != 0 or kind.stdout.decode().strip() != "blob":
        return "the pinned commit holds no file at the locator's path"
    target = checkout / pin.path
    if target.is_symlink() or not target.is_file():
        return "the reader's file is not a regular file in the checkout"
    try:
        hashed = _git("hash-object", "--no-filters", "--", pin.path, cwd=checkout)
    except (OSError, subprocess.SubprocessError) as exc:
        return f"the reader's file could not be hashed ({reason(exc)})"
    if hashed.returncode != 0 or hashed.stdout.strip() != blob.stdout.strip():
        return "the reader's file in the checkout differs from the pinned commit's"
    return None


def argv(pin: Pin, checkout: Path) -> list[str]:
    """The run template with {path} and {checkout} filled; the gate appends --fixture DIR (§11)."""
    path, root = str(checkout / pin.path), str(checkout)
    return [item.replace("{path}", path).replace("{checkout}", root) for item in pin.run]


def _runnable_problem(program: str) -> str | None:
    if os.sep in program:
        return None if os.path.isfile(program) and os.access(program, os.X_OK) else "its program is not executable"
    return None if shutil.which(program) else "its program is not on PATH"


# --- the reader the gate replays through ----------------------------------------------------------


@dataclass(frozen=True)
class ReaderChoice:
    """The reader every fixture of this run is replayed through: its `name` (recorded on each fixture),
    the §11 program's `command` (None: the bundled verifier in process), the pin's locator when the
    catalog has a valid pin, and `fallback`: why the pinned reader did not replay (None when it did, or
    when the catalog pins none)."""

    name: str
    command: str | None = None
    pinned: str | None = None
    fallback: str | None = None

    def as_json(self) -> dict[str, str]:
        return {"name": self.name} | ({"pinned": self.pinned} if self.pinned else {}) \
            | ({"fallback": self.fallback} if self.fallback else {})

    @property
    def own_words(self) -> frozenset[str]:
        """Its texts that are this package's own words (OWN_TEXTS), which the report's sweep need not scan."""
        return frozenset(t for t in (self.name, self.pinned, self.fallback) if t in OWN_TEXTS)

    def text(self) -> str:
        """One line for people: the reader, and why when it is not the pinned one."""
        if self.fallback:
            return f"{self.name} ({self.fallback})"
        return self.name


def choose_reader(tree: Tree, environ: dict[str, str] | None = None) -> tuple[ReaderChoice, list[Refusal]]:
    """The reader for this run and the pin file's refusals (docs/verifier-pin.md, "Which reader replays").

    EXCHANGE_VERIFIER, when set, names the reader (an operator's explicit choice); else the pinned reader
    when it is fetched and runnable; else the bundled verifier, saying why. A release read from git (a
    consumer's release-check, upgrade-diff) is never replayed through the reader its pin names: the pin
    is the catalog CI's, and a consumer replays with its own reader (RFC 0019 §7), never running a
    program a catalog's file names. A tree that is `own` (tree.ReleaseTree.own) is a commit of the
    catalog's own repository whose pin its CI runs: `exchange release`'s check of the maintainer's
    committed HEAD (issue #16 item 6), or a pull request's base, whose pin replays the change
    (docs/trust.md)."""
    env = os.environ if environ is None else environ
    read = read_pin(tree)
    pinned = read.pin.reader if read.pin else None
    command = env.get("EXCHANGE_VERIFIER", "").strip()
    if command:
        why = f"EXCHANGE_VERIFIER names the reader; the pinned {pinned} is not used" if pinned else None
        return ReaderChoice(f"EXCHANGE_VERIFIER: {command}", command, pinned, why), read.refusals
    if not read.present:
        return ReaderChoice(BUNDLED, fallback=NO_PIN), []
    if read.pin is None:
        return ReaderChoice(BUNDLED, fallback=PIN_REFUSED), read.refusals
    pin = read.pin
    base = tree.tree if isinstance(tree, ReadOnce) else tree
    if isinstance(base, ReleaseTree) and not base.own:  # own: `exchange release`'s HEAD, a pull request's base
        return ReaderChoice(BUNDLED, pinned=pin.reader, fallback=(
            f"the release pins {pin.reader} for its own CI; a consumer replays with its own reader and runs "
            "no program a catalog names (RFC 0019 §7; docs/verifier-pin.md)")), []
    if not pin.full:
        return ReaderChoice(BUNDLED, pinned=pin.reader, fallback=(
            f"the pinned {pin.reader} is not fetched: it names an abbreviated commit, and a pin is fetched by "
            "its full 40-hex commit (docs/verifier-pin.md)")), []
    checkout = checkout_dir(pin, cache_root(env))
    problem = checkout_problem(pin, checkout)
    if problem is None:
        words = argv(pin, checkout)
        problem = _runnable_problem(words[0])
        if problem is None:
            return ReaderChoice(pin.reader, shlex.join(words), pin.reader), []
        problem = f"not runnable: {problem}"
    elif problem == "not fetched":
        problem = f"not fetched into {checkout}: run exchange verifier fetch"
    else:
        problem = f"not runnable: {problem}; run exchange verifier fetch again"
    return ReaderChoice(BUNDLED, pinned=pin.reader, fallback=f"the pinned {pin.reader} is {problem}"), []


# --- exchange verifier fetch ----------------------------------------------------------------------


class FetchRefused(Exception):
    """The pin cannot be fetched as written (exit 1): a refusal with its code."""

    def __init__(self, refusal: Refusal) -> None:
        super().__init__(refusal.detail)
        self.refusal = refusal


class FetchFailed(Exception):
    """The reader's repository could not be cloned (exit 4: I/O, the network among it)."""


def fetch(tree: Tree, source: str | None = None, cache: Path | None = None) -> tuple[Pin, Path, bool]:
    """Check out the pinned reader at its commit into CACHE/OWNER/NAME/COMMIT; (pin, checkout, fetched now).

    `source` is the repository to clone (default https://github.com/OWNER/NAME.git; a mirror or a local
    path for tests): the commit, not the source, is what the pin trusts. Raises FetchRefused when the pin
    is malformed, absent, abbreviated, or its commit or path is not in the source; FetchFailed when the
    source cannot be cloned."""
    read = read_pin(tree)
    if not read.present:
        raise FetchRefused(Refusal(VERIFIER_PIN_MALFORMED, PATH, f"the catalog has no {PATH}: nothing to fetch "
                                                                   "(docs/verifier-pin.md)"))
    if read.pin is None:
        raise FetchRefused(read.refusals[0])
    pin = read.pin
    if not pin.full:
        raise FetchRefused(Refusal(VERIFIER_FETCH_FAILED, PATH, f"{pin.reader} names an abbreviated commit; a "
                                   "pin is fetched by its full 40-hex commit: resolve it in a clone of the "
                                   "specification (git rev-parse COMMIT) and move the pin by its own pull request"))
    target = checkout_dir(pin, cache or cache_root())
    if checkout_problem(pin, target) is None:
        return pin, target, False
    origin = source or ORIGIN.format(owner=pin.owner, name=pin.name)
    target.parent.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix=f".{pin.commit[:12]}-", dir=target.parent))
    try:
        try:
            cloned = _git("clone", "--quiet", "--no-checkout", "--no-recurse-submodules", "--", origin, str(work))
        except (OSError, subprocess.SubprocessError) as exc:
            raise FetchFailed(f"git clone could not run ({reason(exc)})") from exc
        if cloned.returncode != 0:
            raise FetchFailed(f"git clone of {origin} failed: "
                              f"{cloned.stderr.decode('utf-8', 'replace').strip()[-300:]}")
        done = _git("checkout", "--quiet", "--detach", pin.commit, cwd=work)
        if done.returncode != 0:
            raise FetchRefused(Refusal(VERIFIER_FETCH_FAILED, PATH, f"{origin} holds no commit {pin.commit}: "
                                       "check the pin's commit against the specification's history"))
        problem = checkout_problem(pin, work)
        if problem is not None:
            raise FetchRefused(Refusal(VERIFIER_FETCH_FAILED, PATH, f"{pin.reader}: {problem}"))
        if target.exists():
            shutil.rmtree(target)
        os.replace(work, target)
    finally:
        if work.exists():
            shutil.rmtree(work, ignore_errors=True)
    return pin, target, True
