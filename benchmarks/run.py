"""The gate at catalog scale (issues #12, #20): every figure of the issues' tables from one run.

    python benchmarks/run.py [--entries 1024] [--releases 128] [--runs 3] [--changes 4]

Builds (once, cached under /tmp keyed by its parameters) a realistic catalog in a git repository:
16 publishers, each signing with its own test-gateway key (`Gateway(seed=…)`, distinct seeds); a mix
of mcp, calculator, unbound http and research entries (tests/support/examples.py), the Runner's two
real exports made into entries the contributor's way, presets, output-only entries and named-format
entries with their artifact pairs (tests/support/demo.py and catalog.py); several fixtures per
gateway entry; READMEs of a few kilobytes; `--releases` releases made the way `exchange release`
makes them (a work commit, then a release commit adding only the ledger row, annotated-tagged), a
few entries changed in each and the named entries' artifact pairs carried across every release;
then a pull-request branch changing one entry. Beside it, a copy repacked from scratch (`git gc
--aggressive --prune=now`, cached too) and, each run, an empty catalog in a fresh git repository.

Before timing it compiles the package's bytecode in place (`python -m compileall`, and pytest's bytecode
of what it rewrites: `compile_bytecode`), again before each round. Each round runs every step once; each figure's
baseline is the step just before it in
the same round (read + SHA-256 of every file of the catalog before each gate figure, `git cat-file
--batch` of the same blobs before each history walk, `python -c pass` before the empty catalog, the
gate with history before pytest), so the machine's load falls on both alike. It prints, for each
figure, the min and median over the rounds of whole-process wall clock and CPU (user + system of the
child and its descendants), the baseline's, both ratios, the load average range over the figure's
and its baseline's runs, the target and whether it was met; then peak memory (ru_maxrss per child,
and the whole process tree's summed PSS) and the per-phase split of one in-process run
(`Report.timings`). It asserts nothing about time; it stops if a command does not exit 0.
"""

from __future__ import annotations

import argparse
import copy
import hashlib
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Callable, NamedTuple

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tools"))

from tests.support import demo  # noqa: E402
from tests.support.catalog import named, pretty, runner_export, sha, stdlib_canon  # noqa: E402
from tests.support.examples import calculator_v2, http_unbound_v3, mcp_v2, research_v3  # noqa: E402
from tests.support.gateway import Gateway  # noqa: E402

PUBLISHERS = 16
GENERATOR_VERSION = "2"  # bump when the generated catalog changes, so the cache is rebuilt
IDENTITY = b"Bench Maintainer <bench@example.invalid> 1792065600 +0000"
# the mix, one slot per entry in turn (within a publisher): gateway kinds weigh most, as in a real catalog
MIX = ["mcp", "calculator", "http-unbound", "research", "mcp", "runner-copy", "calculator", "runner-registry",
       "research", "preset", "http-unbound", "output", "mcp", "named", "calculator", "output"]
GATEWAY_KINDS = {"mcp": mcp_v2, "calculator": calculator_v2, "http-unbound": http_unbound_v3, "research": research_v3}
WORDS = ("the vendor record is read once per case and its approver copied into the facts; a stale receipt "
         "is refused and the acquisition reported unknown, never guessed; each clause names its reason so a "
         "reviewer can trace a derived fact to the read that gave it and to the receipt that signed it").split()
CHILD_RUSAGE = (
    "import resource, subprocess, sys, time\n"
    "t = time.perf_counter(); p = subprocess.run(sys.argv[2:], cwd=sys.argv[1], capture_output=True)\n"
    "t = time.perf_counter() - t\n"
    "u = resource.getrusage(resource.RUSAGE_CHILDREN)\n"
    "print(t, u.ru_maxrss, p.returncode, u.ru_utime + u.ru_stime)\n"
    "sys.stderr.buffer.write(p.stdout[-4000:])\n"
)


# --- the catalog ----------------------------------------------------------------------------------


def _readme(title: str, entry_id: str, kind: str, n: int, revision: int = 0) -> bytes:
    """A README of realistic length (two to four kilobytes of prose, headings and a list; no links, no paths)."""
    body = [f"# {title}", "", f"Entry {entry_id}, a {kind} entry.", ""]
    for section in ("What it reads", "What it derives", "How it was recorded", "Limits", "Changes"):
        body += [f"## {section}", ""]
        words = [WORDS[(n * 7 + section.__len__() * 3 + i) % len(WORDS)] for i in range(60 + (n % 5) * 20)]
        body += [" ".join(words[i:i + 14]) for i in range(0, len(words), 14)] + [""]
    body += [f"- revision {r}: wording reviewed" for r in range(revision + 1)] + [""]
    return "\n".join(body).encode("utf-8")


def _seed(publisher: int) -> bytes:
    return hashlib.sha256(b"benchmark publisher %d" % publisher).digest()


def _templates(publisher: int, cache: dict) -> dict[str, demo.Entry]:
    """One template entry of each kind for this publisher (gateway kinds signed with its own key)."""
    out: dict[str, demo.Entry] = {}
    for kind, make in GATEWAY_KINDS.items():
        dialect, fixtures = make(Gateway(seed=_seed(publisher)))
        e = out[kind] = demo.Entry(f"pub{publisher:02d}.template", "t", "d", "s", "bench")
        e.files = {"dialect.json": pretty(dialect)}
        e.fixture_files = {name: inputs.record(dialect) for name, inputs in fixtures}
        demo._entry_json(e, pack=demo.DEMO_PACK, kinds=demo._kinds(dialect), output=None,
                         dialect={"path": "dialect.json", "dialectVersion": dialect["version"],
                                  "digest": sha(stdlib_canon(dialect))})
    if "runner" not in cache:  # the Runner's keys, not a publisher's: made once, the contributor's way
        cache["runner"] = {
            "runner-copy": demo.runner_entry(
                "runner.template", "mapping-v2-before-calculators", "vendor-7", "t", "d", "s"
            ),
            "runner-registry": demo.runner_entry(
                "runner.template", "mapping-v2-unsigned-parameters", "vendor-7", "t", "d", "s"
            ),
            "preset": demo.preset_entry(),
            "output": demo.output_entry(),
        }
    out.update(cache["runner"])
    return out


def _named(entry_id: str, n: int) -> demo.Entry:
    export = runner_export()
    doc = named(export["mapping"], "3.0.0", artifact_id=f"urn:judgmentpack:dialect:bench-{n:04d}", version="1.0.0")
    e = demo.Entry(entry_id, "t", "d", "s", "bench")
    e.files["dialect.json"] = pretty(doc)
    e.fixture_files["vendor-7"] = demo._recorded(doc, export)
    demo._entry_json(e, pack=demo._pack("mapping-v2-unsigned-parameters"), kinds=demo._kinds(doc), output=None,
                     dialect={"path": "dialect.json", "formatVersion": "3.0.0", "digest": sha(stdlib_canon(doc))},
                     artifact={"id": doc["id"], "version": doc["version"]})
    return e


def _entry_files(e: demo.Entry, entry_id: str, kind: str, n: int, revision: int) -> dict[str, bytes]:
    entry = copy.deepcopy(e.entry)
    title = f"{kind} entry {n} of publisher {entry_id.split('.')[0]}" + (f", revision {revision}" if revision else "")
    entry.update(id=entry_id, title=title, author=f"bench-{entry_id.split('.')[0]}")
    base = "entries/" + entry_id.replace(".", "/", 1)
    files = {f"{base}/entry.json": pretty(entry), f"{base}/README.md": _readme(title, entry_id, kind, n, revision)}
    files.update({f"{base}/{name}": data for name, data in e.files.items()})
    for fixture, fixture_files in e.fixture_files.items():
        files.update({f"{base}/fixtures/{fixture}/{name}": data for name, data in fixture_files.items()})
    return files


def _row(e: demo.Entry, entry_id: str, files: dict[str, bytes]) -> dict:
    base = "entries/" + entry_id.replace(".", "/", 1)
    row: dict[str, Any] = {
        "id": entry_id,
        "kind": e.kind,
        "path": base,
        "entryDigest": sha(files[f"{base}/entry.json"]),
    }
    for name, member in (("dialect.json", "dialectDigest"), ("output.json", "outputDigest")):
        if name in e.files:
            row[member] = sha(e.files[name])
    row["fixtures"] = [{"name": name, "files": sorted(f)} for name, f in e.fixture_files.items()]
    return row


class Catalog:
    """The generated entries: id -> (template, kind, number), and each entry's revision."""

    def __init__(self, count: int) -> None:
        cache: dict = {}
        self.entries: dict[str, tuple[demo.Entry, str, int]] = {}
        per = [_templates(p, cache) for p in range(min(PUBLISHERS, count))]
        for n in range(count):
            publisher, slot = n % PUBLISHERS, n // PUBLISHERS
            kind = MIX[(slot + n) % len(MIX)]
            entry_id = f"pub{publisher:02d}.{kind}-{n:04d}"
            template = _named(entry_id, n) if kind == "named" else per[publisher][kind]
            self.entries[entry_id] = (template, kind, n)
        self.revision = {i: 0 for i in self.entries}

    def files(self, entry_id: str) -> dict[str, bytes]:
        template, kind, n = self.entries[entry_id]
        return _entry_files(template, entry_id, kind, n, self.revision[entry_id])

    def manifest(self, files_of: dict[str, dict[str, bytes]]) -> bytes:
        ids = sorted(self.entries, key=lambda i: i.encode("utf-8"))
        return pretty([_row(self.entries[i][0], i, files_of[i]) for i in ids])


def _data(payload: bytes) -> bytes:
    return b"data %d\n" % len(payload) + payload + b"\n"


def _git(repo: Path, *args: str, input: bytes | None = None) -> str:
    env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}
    env.update(GIT_CONFIG_GLOBAL=os.devnull, GIT_CONFIG_NOSYSTEM="1")
    done = subprocess.run(["git", "-c", "core.autocrlf=false", *args], cwd=repo, env=env, input=input,
                          capture_output=True, check=True)
    return done.stdout.decode().strip()


def _commit(repo: Path, parent: str | None, message: str, changed: dict[str, bytes]) -> str:
    """One commit on main through git fast-import (only the changed files written); its id."""
    out = [b"commit refs/heads/main\nmark :1\n", b"author " + IDENTITY + b"\ncommitter " + IDENTITY + b"\n",
           _data(message.encode())]
    if parent:
        out.append(f"from {parent}\n".encode())
    for path, data in sorted(changed.items()):
        out.append(f"M 100644 inline {path}\n".encode() + _data(data))
    out.append(b"\ndone\n")
    _git(repo, "fast-import", "--quiet", "--done", input=b"".join(out))
    return _git(repo, "rev-parse", "refs/heads/main")


def build(repo: Path, count: int, releases: int, changes: int) -> dict:
    """The repository: `releases` releases on main, then branch `pr` changing one entry, checked out."""
    started = time.perf_counter()
    catalog = Catalog(count)
    _git(repo.parent, "init", "-q", "-b", "main", str(repo))
    files_of = {i: catalog.files(i) for i in catalog.entries}
    ledger: list[dict] = []
    head = None
    ids = sorted(catalog.entries)
    for release in range(releases):
        if release == 0:
            changed = {p: d for f in files_of.values() for p, d in f.items()}
            changed[".gitattributes"] = b"* -text\n"
            changed["releases.json"] = b"[]\n"
        else:
            changed = {}
            for k in range(changes):  # a few entries changed in each release: README and title
                entry_id = ids[(release * 37 + k * 101) % len(ids)]
                if catalog.entries[entry_id][1] == "named":
                    continue  # its artifact pair is carried across releases unchanged
                catalog.revision[entry_id] += 1
                files_of[entry_id] = catalog.files(entry_id)
                changed.update(files_of[entry_id])
        manifest = catalog.manifest(files_of)
        changed["manifest.json"] = manifest
        work = _commit(repo, head, f"work before v0.{release + 1}.0", changed)
        tag = f"v0.{release + 1}.0"
        ledger.append({"tag": tag, "manifestDigest": sha(manifest), "commit": work,
                       "previous": _git(repo, "rev-parse", ledger[-1]["tag"] + "^{commit}") if release else None,
                       "date": "2026-10-14"})
        head = _commit(repo, work, f"Release {tag}", {"releases.json": (json.dumps(ledger, indent=2) + "\n").encode()})
        _git(repo, "-c", "user.name=Bench", "-c", "user.email=bench@example.invalid", "tag", "-a", "-m",
             f"release {tag}", tag, head)
    # the pull request: one entry changed on a branch off main
    pr_id = ids[len(ids) // 2] if catalog.entries[ids[len(ids) // 2]][1] != "named" else ids[len(ids) // 2 + 1]
    catalog.revision[pr_id] += 1
    files_of[pr_id] = catalog.files(pr_id)
    changed = dict(files_of[pr_id])
    changed["manifest.json"] = catalog.manifest(files_of)
    _git(repo, "branch", "pr", "main")
    out = [b"commit refs/heads/pr\n", b"author " + IDENTITY + b"\ncommitter " + IDENTITY + b"\n",
           _data(b"change one entry"), f"from {head}\n".encode()]
    out += [f"M 100644 inline {p}\n".encode() + _data(d) for p, d in sorted(changed.items())]
    _git(repo, "fast-import", "--quiet", "--done", input=b"".join(out) + b"\ndone\n")
    _git(repo, "checkout", "-q", "-f", "pr")
    _git(repo, "gc", "-q")
    info = {"entries": count, "releases": releases, "pr_entry": pr_id, "other_entry": ids[0],
            "fixtures": sum(len(t.fixture_files) for t, _, _ in catalog.entries.values()),
            "kinds": {k: sum(1 for _, kk, _ in catalog.entries.values() if kk == k) for k in sorted(set(MIX))},
            "built_seconds": round(time.perf_counter() - started, 1)}
    (repo.parent / "info.json").write_text(json.dumps(info, indent=2))
    return info


def cached(count: int, releases: int, changes: int) -> tuple[Path, dict]:
    key = hashlib.sha256(f"{GENERATOR_VERSION} {count} {releases} {changes}".encode()).hexdigest()[:12]
    home = Path("/tmp") / f"exchange-bench-{count}e-{releases}r-{key}"
    if (home / "info.json").is_file():
        return home / "catalog", json.loads((home / "info.json").read_text())
    building = home.with_name(f"{home.name}.building-{os.getpid()}")  # built aside, then renamed into place
    shutil.rmtree(building, ignore_errors=True)
    building.mkdir(parents=True)
    try:
        build(building / "catalog", count, releases, changes)
        if home.exists() and not (home / "info.json").is_file():
            shutil.rmtree(home)
        os.rename(building, home)
    except OSError:
        if not (home / "info.json").is_file():  # another run finished first: use its catalog
            raise
    finally:
        shutil.rmtree(building, ignore_errors=True)
    return home / "catalog", json.loads((home / "info.json").read_text())


def packed_copy(repo: Path) -> Path:
    """A copy of the benchmark's repository repacked from scratch (`git gc --aggressive --prune=now`: one pack,
    deep delta chains, as a long-lived clone's would be after a gc), cached beside the catalog."""
    packed = repo.parent / "packed"
    done = repo.parent / "packed.done"
    if done.is_file():
        return packed
    shutil.rmtree(packed, ignore_errors=True)
    shutil.copytree(repo, packed, symlinks=True)
    _git(packed, "gc", "--aggressive", "--prune=now", "-q")
    done.write_text(_git(packed, "count-objects", "-v") + "\n")
    return packed


def empty_catalog() -> Path:
    """A directory holding manifest.json and releases.json, each `[]`, in a fresh git repository (no commit)."""
    root = Path(tempfile.mkdtemp(prefix="exchange-bench-empty-"))
    _git(root, "init", "-q", "-b", "main")
    (root / "manifest.json").write_bytes(b"[]\n")
    (root / "releases.json").write_bytes(b"[]\n")
    return root


# --- measuring -------------------------------------------------------------------------------------
#
# Every figure is measured beside its own baseline: each round runs every step once, in order, and a
# figure's baseline is the step just before it in the same round (read + SHA-256 of the catalog before each
# gate figure, `git cat-file --batch` before each history walk, `python -c pass` before the empty catalog,
# the gate with history before pytest), so a change in the machine's load falls on both alike. The ratio
# is of minimums (and of medians) over the rounds, wall clock and CPU.


class Sample(NamedTuple):
    wall: float
    cpu: float
    rss: int  # KiB, the largest single process (0 where not measured)
    code: int
    load: float  # the 1-minute load average as the step started
    tail: str


def child(cwd: Path, argv: list[str], env: dict | None = None) -> Sample:
    """One whole process (through a wrapper that reads its rusage): wall and CPU seconds (user + system of
    the child and every descendant it waited for), peak RSS in KiB, exit code, the tail of its stdout."""
    load = os.getloadavg()[0]
    done = subprocess.run([sys.executable, "-c", CHILD_RUSAGE, str(cwd), *argv], capture_output=True, check=True,
                          env={**os.environ, **(env or {})})
    seconds, rss, code, cpu = done.stdout.split()
    return Sample(float(seconds), float(cpu), int(rss), int(code), load, done.stderr.decode(errors="replace"))


HISTORY = """
import sys, time
from judgment_exchange.catalog.directory import check_entry_directory
from judgment_exchange.catalog.layout import entry_directories
from judgment_exchange.gate.pipeline import GateOptions
from judgment_exchange.gate.identity import history_check
from judgment_exchange.tree import WorkingTree
tree = WorkingTree(sys.argv[1])
paths, _ = entry_directories(tree)
checks = [check_entry_directory(tree, p) for p in paths]
started, cpu = time.perf_counter(), time.process_time()
read = history_check(tree, checks, GateOptions())  # returns what it found (issue #37 item 1)
print(f"{time.perf_counter() - started:.4f}", read.status, len(read.found.refusals),
      f"{time.process_time() - cpu:.4f}", file=sys.stderr)
sys.exit(1 if read.found.refusals else 0)
"""


def history_walk(repo: Path) -> Sample:
    """check_history as the gate calls it, timed inside a child (the entries' directory checks before it
    untimed). CPU is the child's own process time: git's cat-file child is not in it."""
    load = os.getloadavg()[0]
    done = subprocess.run([sys.executable, "-c", HISTORY, str(repo)], capture_output=True, text=True)
    line = done.stderr.strip().splitlines()[-1] if done.stderr.strip() else ""
    if done.returncode != 0 or not line:
        raise SystemExit(f"history walk failed on {repo}: {done.stderr[-2000:]}")
    seconds, status, _, cpu = line.split()
    return Sample(float(seconds), float(cpu), 0, 0, load, status)


FILES = ("import hashlib, os, sys\n"
         "for d, dirs, files in os.walk(sys.argv[1]):\n"
         "    dirs[:] = [x for x in dirs if x != '.git']\n"
         "    for f in files:\n"
         "        with open(os.path.join(d, f), 'rb') as h: hashlib.sha256(h.read()).hexdigest()\n")


def distinct_blobs(repo: Path) -> list[str]:
    tags = _git(repo, "tag", "--list", "v*").split()
    seen: dict[str, None] = {}
    for tag in tags:
        for line in _git(repo, "ls-tree", "-r", tag).splitlines():
            seen.setdefault(line.split("\t", 1)[0].split()[2], None)
    return list(seen)


def _descendants(pid: int) -> list[int]:
    found = [pid]
    try:
        for task in os.listdir(f"/proc/{pid}/task"):
            with open(f"/proc/{pid}/task/{task}/children") as fh:
                for child_pid in fh.read().split():
                    found += _descendants(int(child_pid))
    except OSError:
        pass
    return found


def _pss(pid: int) -> int:
    try:
        with open(f"/proc/{pid}/smaps_rollup") as fh:
            return next((int(line.split()[1]) for line in fh if line.startswith("Pss:")), 0)
    except OSError:
        return 0


def tree_memory(repo: Path, argv: list[str]) -> tuple[int, int] | None:
    """The peak of the summed proportional set size (KiB) of the command's whole process tree — the gate,
    its pool's workers and its git children — sampled every 20 ms, with the most processes seen; None where
    /proc gives no smaps_rollup. A sample can miss a short peak: a floor, not a bound."""
    if not os.path.exists(f"/proc/{os.getpid()}/smaps_rollup"):
        return None
    proc = subprocess.Popen(argv, cwd=repo, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    peak, most = 0, 0
    while proc.poll() is None:
        pids = _descendants(proc.pid)
        peak, most = max(peak, sum(map(_pss, pids))), max(most, len(pids))
        time.sleep(0.02)
    return peak, most


def phases(repo: Path) -> tuple[dict, float, int]:
    from judgment_exchange.gate.pipeline import GateOptions, check_catalog
    from judgment_exchange.tree import WorkingTree

    started = time.perf_counter()
    report = check_catalog(WorkingTree(str(repo)), GateOptions(history=False, workers=1))
    return report.timings, time.perf_counter() - started, report.replayed


def tree_size(root: Path) -> tuple[int, int]:
    count = size = 0
    for d, dirs, files in os.walk(root):
        dirs[:] = [x for x in dirs if x != ".git"]
        for f in files:
            count += 1
            size += os.path.getsize(os.path.join(d, f))
    return count, size


def compile_bytecode(pytest: bool = True) -> str:
    """The package's (and the tests' support modules') bytecode, written in place before timing, so that no
    timed child compiles ~100 modules from source (PYTHONDONTWRITEBYTECODE=1 forbids it writing them); with
    `pytest`, also pytest's own bytecode of what it rewrites (issue #20): tests/test_entries.py, its support
    modules, and the hypothesis package (pytest rewrites the asserts of every module of a plugin's
    distribution, and hypothesis's plugin imports hypothesis at the session's end). pytest writes that
    bytecode (`__pycache__/*-pytest-*.pyc`) only where bytecode may be written, so one untimed
    `pytest --collect-only tests/test_entries.py` runs without PYTHONDONTWRITEBYTECODE; without it, each
    timed pytest rewrote and compiled about 80 modules again (1.3-1.5 s here)."""
    # tools/ recursively; tests/ and tests/support/ without recursion: a directory below tests/ may be a case's
    # entry, whose files (a .py among them) must stay exactly as committed (tests/cases/scan/code-file)
    for argv in (["tools"], ["-l", "tests", "tests/support"]):
        done = subprocess.run([sys.executable, "-m", "compileall", "-q", *argv], cwd=ROOT, capture_output=True,
                              text=True)
        if done.returncode != 0:
            raise SystemExit(f"compileall failed: {done.stdout[-2000:]}{done.stderr[-2000:]}")
    said = "python -m compileall -q tools; python -m compileall -q -l tests tests/support (in place: __pycache__/, " \
           "ignored by git)"
    if pytest:
        env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
        done = subprocess.run(
            [
                sys.executable,
                "-m",
                "pytest",
                "-q",
                "-n",
                "0",
                "-p",
                "no:cacheprovider",
                "--collect-only",
                "tests/test_entries.py",
            ],
            cwd=ROOT,
            capture_output=True,
            text=True,
            env=env,
        )
        if done.returncode != 0:
            raise SystemExit(f"pytest --collect-only failed: {done.stdout[-2000:]}{done.stderr[-2000:]}")
        said += "; pytest's rewritten bytecode: PYTHONDONTWRITEBYTECODE= pytest --collect-only tests/test_entries.py"
    return said


def compile_other(tree: Path) -> None:
    """The other source tree's package bytecode, in place (as compile_bytecode does this tree's)."""
    done = subprocess.run([sys.executable, "-m", "compileall", "-q", "tools"], cwd=tree, capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(f"compileall in {tree} failed: {done.stdout[-2000:]}{done.stderr[-2000:]}")


class Step(NamedTuple):
    label: str
    run: Callable[[], Sample]
    expect: int | None = 0


class Figure(NamedTuple):
    name: str
    step: str
    baseline: str | None = None
    baseline_name: str = ""
    target: tuple[float, str] | None = None  # (the most the ratio may be, "wall" or "cpu")
    target_text: str = ""


def _stats(samples: list[Sample]) -> dict:
    walls, cpus = [s.wall for s in samples], [s.cpu for s in samples]
    return {"min": min(walls), "median": statistics.median(walls), "cpu": min(cpus),
            "cpu_median": statistics.median(cpus), "rss": max(s.rss for s in samples), "runs": len(samples)}


def _ratio(got: dict, base: dict, key: str) -> float:
    return got[key] / base[key] if base[key] > 0 else float("inf")


def verdict(got: dict, base: dict, target: tuple[float, str]) -> str:
    """Met or missed on the target's measure, by the ratio of minimums and of medians."""
    limit, measure = target
    lo = _ratio(got, base, "min" if measure == "wall" else "cpu")
    mid = _ratio(got, base, "median" if measure == "wall" else "cpu_median")
    if lo <= limit and mid <= limit:
        return f"**met** ({measure})"
    if lo <= limit:
        return f"met by the minimums, missed by the medians ({mid / limit:.2f}x over; {measure})"
    if mid <= limit:
        return f"**missed** by the minimums ({lo / limit:.2f}x over), met by the medians ({measure})"
    return f"**missed** by {lo / limit:.2f}x ({measure}, minimums)"


def _load(samples: list[Sample]) -> str:
    loads = [s.load for s in samples]
    return f"{min(loads):.1f}-{max(loads):.1f}" if len(loads) > 1 else f"{loads[0]:.1f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--entries", type=int, default=1024)
    parser.add_argument("--releases", type=int, default=128)
    parser.add_argument("--runs", type=int, default=3, help="rounds: whole-process runs per figure (min and median)")
    parser.add_argument("--changes", type=int, default=4, help="entries changed in each release")
    parser.add_argument("--skip-serial", action="store_true", help="do not time the serial gate (--workers 1)")
    parser.add_argument("--skip-pytest", action="store_true", help="do not time tests/test_entries.py")
    parser.add_argument("--compare-with", metavar="DIR", type=Path,
                        help="another source tree of this repository (a checkout of another commit): its package's "
                        "start-up figures (the empty catalog, the one-entry pull request) are timed beside this "
                        "one's in the same rounds (issue #29 item 4)")
    args = parser.parse_args()
    runs = max(1, args.runs)
    repo, info = cached(args.entries, args.releases, args.changes)
    packed = packed_copy(repo)
    empty = empty_catalog()
    files, size = tree_size(repo)
    print(f"catalog {repo}: {info['entries']} entries of {PUBLISHERS} publishers, {info['fixtures']} fixtures, "
          f"{files} files, {size / 1e6:.1f} MB, {info['releases']} releases (built in {info['built_seconds']} s)")
    print("mix: " + ", ".join(f"{k} {v}" for k, v in info["kinds"].items()))
    print(f"freshly packed copy {packed}: git gc --aggressive --prune=now "
          f"({' '.join((packed.parent / 'packed.done').read_text().split()[:12])})")
    print(f"empty catalog {empty}: manifest.json [] and releases.json [] in a fresh git repository")
    print(f"machine: {os.cpu_count()} cores, load {os.getloadavg()[0]:.1f} at the start; {runs} rounds, every "
          "figure beside its own baseline in each round (the step just before it); whole processes, wall clock "
          "and CPU (user + system of the child and its descendants)")
    if runs < 3:
        print(f"NOTE: {runs} round(s): a smoke run, not figures (the issue's figures are min and median of >= 3)")
    print(f"bytecode: {compile_bytecode(not args.skip_pytest)}, again before each round; PYTHONDONTWRITEBYTECODE="
          f"{os.environ.get('PYTHONDONTWRITEBYTECODE', '(unset)')} in the timed children's environment")
    exchange = [sys.executable, "-m", "judgment_exchange"]
    blobs = distinct_blobs(repo)
    request = repo.parent / "blobs.txt"
    request.write_text("\n".join(blobs) + "\n")
    catfile = ["sh", "-c", f"git cat-file --batch < {request} > /dev/null"]
    gate = [*exchange, "check", "--format", "json"]
    read_hash = lambda: child(repo, [sys.executable, "-c", FILES, str(repo)])  # noqa: E731
    steps = [
        Step("files:pool", read_hash), Step("pool", lambda: child(repo, [*gate, "--no-history"])),
        *([] if args.skip_serial else [Step("files:serial", read_hash),
                                       Step("serial", lambda: child(repo, [*gate, "--no-history", "--workers", "1"]))]),
        Step("files:history", read_hash), Step("history", lambda: child(repo, gate)),
        *([] if args.skip_pytest else [Step("pytest", lambda: child(
            ROOT, [sys.executable, "-m", "pytest", "-q", "-n", "0", "-p", "no:cacheprovider", "tests/test_entries.py"],
            {"EXCHANGE_TEST_CATALOG": str(repo)})),
            # the same with every id by pytest's own protocol (tests/support/idchecks.py): what the short one saves
            Step("pytest:full", lambda: child(
                ROOT, [sys.executable, "-m", "pytest", "-q", "-n", "0", "-p", "no:cacheprovider",
                       "tests/test_entries.py"], {"EXCHANGE_TEST_CATALOG": str(repo),
                                                  "EXCHANGE_TEST_FULL_PROTOCOL": "1"}))]),
        Step("files:pr", read_hash), Step("pr", lambda: child(repo, [*gate, "--base", "main"])),
        Step("files:entry", read_hash),
        Step("entry", lambda: child(repo, [*gate, "--no-history", "--entry", info["pr_entry"]])),
        Step("catfile", lambda: child(repo, catfile)), Step("walk", lambda: history_walk(repo)),
        Step("catfile:packed", lambda: child(packed, catfile)), Step("walk:packed", lambda: history_walk(packed)),
        Step("pass", lambda: child(empty, [sys.executable, "-c", "pass"])),
        Step("empty", lambda: child(empty, [*exchange, "check"])),
    ]
    other = None
    if args.compare_with is not None:  # the other tree's package first on sys.path, interleaved with this one's
        other = {"PYTHONPATH": str(args.compare_with.resolve() / "tools")}
        compile_other(args.compare_with)
        steps += [Step("pr:other", lambda: child(repo, [*gate, "--base", "main"], other)),
                  Step("pr:this", lambda: child(repo, [*gate, "--base", "main"])),
                  Step("empty:other", lambda: child(empty, [*exchange, "check"], other)),
                  Step("empty:this", lambda: child(empty, [*exchange, "check"]))]
    samples: dict[str, list[Sample]] = {s.label: [] for s in steps}
    for round_ in range(runs):
        if round_:
            compile_bytecode(not args.skip_pytest)
        if round_ and other is not None:
            compile_other(args.compare_with)
        for step in steps:
            got = step.run()
            if step.expect is not None and got.code != step.expect:
                raise SystemExit(f"{step.label} exited {got.code}, not {step.expect}:\n{got.tail}")
            samples[step.label].append(got)
    read_name = "read + SHA-256 of every file of the catalog:"
    figures = [
        Figure("full gate, whole process, no history, pool (default)", "pool", "files:pool", read_name,
               (10, "wall"), "<= 10x, wall"),
        Figure("full gate, whole process, no history, one process (--workers 1)", "serial", "files:serial",
               read_name, (15, "cpu"), "<= 15x, CPU"),
        Figure(f"full gate with history ({args.releases} tags)", "history", "files:history", read_name),
        Figure(f"pull request (--base main), one entry changed, {args.releases} tags", "pr", "files:pr", read_name,
               (6, "wall"), "<= 6x, wall"),
        Figure("--entry ID, no history", "entry", "files:entry", read_name),
        Figure(f"history walk, {args.releases} releases x {info['entries']} entries (in-child timing)", "walk",
               "catfile", f"git cat-file --batch of {len(blobs)} distinct blobs:", (2, "wall"), "<= 2x"),
        Figure("history walk, freshly packed copy (git gc --aggressive)", "walk:packed", "catfile:packed",
               f"git cat-file --batch of the {len(blobs)} blobs in that copy:", (2, "wall"), "<= 2x"),
        Figure("empty catalog: exchange check (manifest.json [], releases.json [])", "empty", "pass",
               "python -c pass:", (10, "wall"), "<= 10x, wall"),
        Figure("pytest tests/test_entries.py on this catalog (its one gate run includes history)", "pytest",
               "history", "the full gate with history, same rounds:", (1.3, "wall"), "<= 1.3x, wall"),
        Figure("pytest tests/test_entries.py, every id by pytest's own protocol (EXCHANGE_TEST_FULL_PROTOCOL=1)",
               "pytest:full", "history", "the full gate with history, same rounds:"),
    ]
    print()
    print("| figure | runs | wall min (median) | CPU min (median) | baseline, same rounds: wall min (median); CPU min "
          "| ratio wall min/min (median/median); CPU min/min | load | target | verdict |")
    print("|---|---|---|---|---|---|---|---|---|")
    for fig in figures:
        if not samples.get(fig.step):
            continue
        got = _stats(samples[fig.step])
        cells = [fig.name, str(got["runs"]), f"{got['min']:.3f} s ({got['median']:.3f})",
                 f"{got['cpu']:.3f} s ({got['cpu_median']:.3f})"]
        if fig.baseline and samples.get(fig.baseline):
            base = _stats(samples[fig.baseline])
            cells += [f"{fig.baseline_name} {base['min']:.3f} s ({base['median']:.3f}); {base['cpu']:.3f} s",
                      f"{_ratio(got, base, 'min'):.1f}x ({_ratio(got, base, 'median'):.1f}x); "
                      f"{_ratio(got, base, 'cpu'):.1f}x",
                      _load(samples[fig.step] + samples[fig.baseline]), fig.target_text or "—",
                      verdict(got, base, fig.target) if fig.target else "—"]
        else:
            cells += ["—", "—", _load(samples[fig.step]), fig.target_text or "—", "—"]
        print("| " + " | ".join(cells) + " |")
    full, history, pr = (_stats(samples[k]) for k in ("pool", "history", "pr"))
    serial = _stats(samples["serial"]) if samples.get("serial") else None
    print(f"| peak memory, full gate with {args.releases} tags | | {history['rss'] / 1024:.0f} MiB "
          f"(no history {full['rss'] / 1024:.0f} MiB; pull request {pr['rss'] / 1024:.0f} MiB"
          + (f"; one process, no history {serial['rss'] / 1024:.0f} MiB" if serial else "")
          + "; each the largest single process: with the pool, each worker's) | | | | | <= 150 MiB | |")
    trees = [tree_memory(repo, [*gate, *extra]) for extra in ([], ["--workers", "1"])]
    if trees[0] and trees[1]:
        print(f"| peak memory of the whole process tree (gate, pool workers, git children; summed PSS sampled every "
              f"20 ms), full gate with {args.releases} tags, 1 run | | {trees[0][0] / 1024:.0f} MiB ({trees[0][1]} "
              f"processes at most); one process (--workers 1): {trees[1][0] / 1024:.0f} MiB ({trees[1][1]} at most) "
              "| | | | | | |")
    if args.skip_pytest:
        print("(pytest tests/test_entries.py: skipped, --skip-pytest)")
    if other is not None:
        print()
        print(f"start-up against {args.compare_with} (its package on PYTHONPATH), each pair timed back to back in "
              f"every round; median of {runs} (issue #29: no worse than 5 % or 20 ms):")
        print("| figure | that tree: wall median (min) | this tree: wall median (min) | difference of medians | "
              "within 5 % or 20 ms |")
        print("|---|---|---|---|---|")
        for name, label in (("empty catalog: exchange check", "empty"),
                            ("pull request (--base main), one entry changed", "pr")):
            that, this = _stats(samples[f"{label}:other"]), _stats(samples[f"{label}:this"])
            delta = this["median"] - that["median"]
            within = delta <= max(0.05 * that["median"], 0.020)
            print(f"| {name} | {that['median']:.3f} s ({that['min']:.3f}) | {this['median']:.3f} s "
                  f"({this['min']:.3f}) | {delta * 1000:+.0f} ms ({delta / that['median'] * 100:+.1f} %) | "
                  f"{'yes' if within else 'NO'} |")
    print()
    timings, took, replayed = phases(repo)
    total = sum(timings.values()) or 1.0
    print(f"per-phase split of one in-process full gate without history, one process ({took:.2f} s, {replayed} "
          "fixtures "
          f"replayed, {took / max(1, info['entries']) * 1000:.1f} ms per entry):")
    for phase, seconds in timings.items():
        print(f"  {phase:24s} {seconds:7.2f} s  {seconds / total * 100:5.1f} %")
    print()
    print("targets (issue #20): full gate <= 15x read + hash in one process (CPU), <= 10x with the pool (wall); "
          "pull request <= 6x read + hash (wall); history walk <= 2x cat-file, also freshly packed; "
          "tests/test_entries.py <= 1.3x the gate with history; empty catalog <= 10x python -c pass")
    shutil.rmtree(empty, ignore_errors=True)


if __name__ == "__main__":
    main()
