"""The gate at catalog scale (issue #12): every figure of the issue's table from one run.

    python benchmarks/run.py [--entries 1024] [--releases 128] [--runs 3] [--changes 4]

Builds (once, cached under /tmp keyed by its parameters) a realistic catalog in a git repository:
16 publishers, each signing with its own test-gateway key (`Gateway(seed=…)`, distinct seeds); a mix
of mcp, calculator, unbound http and research entries (tests/support/examples.py), the Runner's two
real exports made into entries the contributor's way, presets, output-only entries and named-format
entries with their artifact pairs (tests/support/demo.py and catalog.py); several fixtures per
gateway entry; READMEs of a few kilobytes; `--releases` releases made the way `exchange release`
makes them (a work commit, then a release commit adding only the ledger row, annotated-tagged), a
few entries changed in each and the named entries' artifact pairs carried across every release;
then a pull-request branch changing one entry.

It prints, for each figure, the whole-process min and median of `--runs` runs (`exchange check` as a
subprocess, wall clock), the baseline measured in the same run, the ratio, the children's peak
resident memory (getrusage ru_maxrss of each child, through a wrapper process per run) and the
per-phase split of one in-process run (`Report.timings`; the JSON report does not carry timings).
It asserts nothing about time; it stops if the gate does not pass on the generated catalog.
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
import time
from pathlib import Path
from typing import Any

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
            "runner-copy": demo.runner_entry("runner.template", "mapping-v2-before-calculators", "vendor-7", "t", "d", "s"),
            "runner-registry": demo.runner_entry("runner.template", "mapping-v2-unsigned-parameters", "vendor-7",
                                                 "t", "d", "s"),
            "preset": demo.preset_entry(), "output": demo.output_entry()}
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
    row: dict[str, Any] = {"id": entry_id, "kind": e.kind, "path": base, "entryDigest": sha(files[f"{base}/entry.json"])}
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
        info = build(building / "catalog", count, releases, changes)
        if home.exists() and not (home / "info.json").is_file():
            shutil.rmtree(home)
        os.rename(building, home)
    except OSError:
        if not (home / "info.json").is_file():  # another run finished first: use its catalog
            raise
    finally:
        shutil.rmtree(building, ignore_errors=True)
    return home / "catalog", json.loads((home / "info.json").read_text())


# --- measuring -------------------------------------------------------------------------------------


def child(repo: Path, argv: list[str], env: dict | None = None) -> tuple[float, int, int, str, float]:
    """One whole process: wall seconds, peak RSS in KiB, exit code, the tail of its stdout, CPU seconds."""
    done = subprocess.run([sys.executable, "-c", CHILD_RUSAGE, str(repo), *argv], capture_output=True, check=True,
                          env={**os.environ, **(env or {})})
    seconds, rss, code, cpu = done.stdout.split()
    return float(seconds), int(rss), int(code), done.stderr.decode(errors="replace"), float(cpu)


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


def timed(repo: Path, argv: list[str], runs: int, expect: int | None = 0, env: dict | None = None) -> dict:
    return summary([child(repo, argv, env) for _ in range(runs)], argv, expect)


def interleaved(repo: Path, argvs: list[list[str]], runs: int) -> list[dict]:
    """Before and after in turn, so a change in the machine's load falls on both alike."""
    results: list[list] = [[] for _ in argvs]
    for _ in range(runs):
        for i, argv in enumerate(argvs):
            results[i].append(child(repo, argv))
    return [summary(r, argv, 0) for r, argv in zip(results, argvs)]


def summary(results: list, argv: list[str], expect: int | None) -> dict:
    codes = {r[2] for r in results}
    if expect is not None and codes != {expect}:
        raise SystemExit(f"{' '.join(argv)} exited {codes}, not {expect}:\n{results[0][3]}")
    times = [r[0] for r in results]
    return {"min": min(times), "median": statistics.median(times), "rss": max(r[1] for r in results),
            "cpu": min(r[4] for r in results)}


def files_baseline(root: Path, runs: int) -> dict:
    script = ("import hashlib, os, sys\n"
              "for d, dirs, files in os.walk(sys.argv[1]):\n"
              "    dirs[:] = [x for x in dirs if x != '.git']\n"
              "    for f in files:\n"
              "        with open(os.path.join(d, f), 'rb') as h: hashlib.sha256(h.read()).hexdigest()\n")
    return timed(root, [sys.executable, "-c", script, str(root)], runs)


def distinct_blobs(repo: Path) -> list[str]:
    tags = _git(repo, "tag", "--list", "v*").split()
    seen: dict[str, None] = {}
    for tag in tags:
        for line in _git(repo, "ls-tree", "-r", tag).splitlines():
            seen.setdefault(line.split("\t", 1)[0].split()[2], None)
    return list(seen)


def cat_file_baseline(repo: Path, blobs: list[str], runs: int) -> dict:
    request = Path(repo.parent / "blobs.txt")
    request.write_text("\n".join(blobs) + "\n")
    return timed(repo, ["sh", "-c", f"git cat-file --batch < {request} > /dev/null"], runs)


HISTORY = """
import sys, time
from judgment_exchange.catalog.directory import check_entry_directory
from judgment_exchange.catalog.gate import GateOptions, entry_directories
from judgment_exchange.catalog.identity import history_check
from judgment_exchange.refusal import Report
from judgment_exchange.tree import WorkingTree
tree = WorkingTree(sys.argv[1])
paths, _ = entry_directories(tree)
checks = [check_entry_directory(tree, p) for p in paths]
report = Report()
started, cpu = time.perf_counter(), time.process_time()
history_check(tree, checks, GateOptions(), report)
print(f"{time.perf_counter() - started:.4f}", report.history, len(report.refusals),
      f"{time.process_time() - cpu:.4f}", file=sys.stderr)
sys.exit(1 if report.refusals else 0)
"""


def history_walk(repo: Path, runs: int) -> dict:
    """check_history as the gate calls it, timed inside a child (the entries' directory checks before it untimed)."""
    times, cpus = [], []
    for _ in range(runs):
        done = subprocess.run([sys.executable, "-c", HISTORY, str(repo)], capture_output=True, text=True)
        line = done.stderr.strip().splitlines()[-1] if done.stderr.strip() else ""
        if done.returncode != 0 or not line:
            raise SystemExit(f"history walk failed: {done.stderr[-2000:]}")
        seconds, status, _, cpu = line.split()
        times.append(float(seconds))
        cpus.append(float(cpu))
    return {"min": min(times), "median": statistics.median(times), "status": status, "cpu": min(cpus)}


def phases(repo: Path) -> tuple[dict, float, int]:
    from judgment_exchange.catalog.gate import GateOptions, check_catalog
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--entries", type=int, default=1024)
    parser.add_argument("--releases", type=int, default=128)
    parser.add_argument("--runs", type=int, default=3, help="whole-process runs per figure (min and median)")
    parser.add_argument("--changes", type=int, default=4, help="entries changed in each release")
    parser.add_argument("--skip-serial", action="store_true", help="do not time the serial gate (--workers 1)")
    parser.add_argument("--skip-pytest", action="store_true", help="do not time tests/test_entries.py")
    args = parser.parse_args()
    runs = max(1, args.runs)
    repo, info = cached(args.entries, args.releases, args.changes)
    files, size = tree_size(repo)
    print(f"catalog {repo}: {info['entries']} entries of {PUBLISHERS} publishers, {info['fixtures']} fixtures, "
          f"{files} files, {size / 1e6:.1f} MB, {info['releases']} releases (built in {info['built_seconds']} s)")
    print("mix: " + ", ".join(f"{k} {v}" for k, v in info["kinds"].items()))
    print(f"machine: {os.cpu_count()} cores, load {os.getloadavg()[0]:.1f}; {runs} runs per figure, "
          "whole process, wall clock and CPU (user + system)")
    exchange = [sys.executable, "-m", "judgment_exchange"]
    baseline = files_baseline(repo, runs)
    blobs = distinct_blobs(repo)
    raw = cat_file_baseline(repo, blobs, runs)
    full_argv = [*exchange, "check", "--format", "json", "--no-history"]
    serial_argv = [*full_argv, "--workers", "1"]
    if args.skip_serial:
        full, serial = timed(repo, full_argv, runs), None
    else:  # the pool (item 6) and one process, interleaved so load falls on both alike
        full, serial = interleaved(repo, [full_argv, serial_argv], runs)
    full_history = timed(repo, [*exchange, "check", "--format", "json"], runs)
    pr = timed(repo, [*exchange, "check", "--format", "json", "--base", "main"], runs)
    one = timed(repo, [*exchange, "check", "--format", "json", "--no-history", "--entry", info["pr_entry"]], runs)
    walk = history_walk(repo, runs)
    trees = [tree_memory(repo, [*exchange, "check", "--format", "json", *extra]) for extra in ([], ["--workers", "1"])]
    tests = None if args.skip_pytest else timed(
        ROOT, [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests/test_entries.py"], 1,
        env={"EXCHANGE_TEST_CATALOG": str(repo)})

    def line(name: str, got: dict, base: dict | None = None, base_name: str = "") -> None:
        ratio = f"{got['min'] / base['min']:.1f}x (cpu {got['cpu'] / base['cpu']:.1f}x)" if base else "—"
        base_text = (f"{base_name} {base['min']:.2f} s (median {base['median']:.2f}; cpu {base['cpu']:.2f})"
                     if base else "—")
        print(f"| {name} | {got['min']:.2f} s (median {got['median']:.2f}; cpu {got['cpu']:.2f}) | {base_text} "
              f"| {ratio} |")

    print()
    print("| figure | wall min (median; cpu min) | baseline, same run | ratio of mins |")
    print("|---|---|---|---|")
    line("full gate, whole process, no history", full, baseline, "read + SHA-256 of every file:")
    line(f"full gate with history ({args.releases} tags)", full_history, baseline, "read + SHA-256 of every file:")
    line(f"pull request (--base main), one entry changed, {args.releases} tags", pr)
    line("--entry ID, no history", one)
    line(f"history walk, {args.releases} releases x {info['entries']} entries", walk, raw,
         f"git cat-file --batch of {len(blobs)} distinct blobs:")
    if serial:
        line("full gate, no history, one process (--workers 1)", serial, baseline, "read + SHA-256 of every file:")
    if tests:
        line(f"pytest tests/test_entries.py on this catalog (1 run; its one gate run includes history)", tests,
             full_history, "full gate with history:")
        line(f"the same pytest run against the full gate without history", tests, full, "full gate, no history:")
    print(f"| peak memory, full gate with {args.releases} tags | {full_history['rss'] / 1024:.0f} MiB "
          f"(no history {full['rss'] / 1024:.0f} MiB; pull request {pr['rss'] / 1024:.0f} MiB"
          + (f"; one process, no history {serial['rss'] / 1024:.0f} MiB" if serial else "")
          + "; each figure is the largest single process: with the pool, each worker's) | | |")
    if trees[0] and trees[1]:
        print(f"| peak memory of the whole process tree (gate, pool workers, git children; summed PSS sampled every "
              f"20 ms), full gate with {args.releases} tags | {trees[0][0] / 1024:.0f} MiB ({trees[0][1]} processes at "
              f"most); one process (--workers 1): {trees[1][0] / 1024:.0f} MiB ({trees[1][1]} at most) | | |")
    print()
    timings, took, replayed = phases(repo)
    total = sum(timings.values()) or 1.0
    print(f"per-phase split of one in-process full gate without history, one process ({took:.2f} s, {replayed} fixtures "
          f"replayed, {took / max(1, info['entries']) * 1000:.1f} ms per entry):")
    for phase, seconds in timings.items():
        print(f"  {phase:24s} {seconds:7.2f} s  {seconds / total * 100:5.1f} %")
    print()
    print("targets (issue #12): full gate <= 20x baseline; pull request <= 2 s; history walk <= 3x cat-file; "
          "peak memory <= 150 MiB; tests/test_entries.py <= 2x the full gate")


if __name__ == "__main__":
    main()
