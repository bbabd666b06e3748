"""The gate's report for people and for a workflow (docs/reports.md): `exchange check`'s text, and
`--format github` (annotations named from the checked catalog's place in its repository, the step summary).
"""

from __future__ import annotations

import os
import sys

from ..refusal import Report
from .common import IO, PASS, REFUSED, safe


def print_text(report: Report, catalog: str) -> None:
    out = sys.stdout
    print(f"exchange check: {catalog}", file=out)
    print(f"entries: {report.entries} checked", file=out)
    print(f"checks: {', '.join(report.checks)}", file=out)
    for kind, label, findings in (("refused", "fix", report.refusals), ("warning", "what to do", report.warnings)):
        for r in findings:
            where = " ".join(x for x in (r.entry or "", r.path or "") if x)
            print(f"{kind} {r.code}: {safe(where) + ': ' if where else ''}{safe(r.detail)}", file=out)
            fix = r.how_to_fix()
            if fix:
                print(f"  {label}: {fix}", file=out)
    for s in report.skipped:
        print(f"skipped {safe(s.entry)} fixture {safe(s.fixture)}: {safe(s.text())}", file=out)
    for note in report.notes:
        print(f"note: {safe(note)}", file=out)
    print(f"replayed: {report.replayed} fixture(s) recomputed with agreement", file=out)
    if report.reader is not None:  # the reader every fixture was replayed through (docs/verifier-pin.md)
        print(f"reader: {safe(report.reader.text())}", file=out)
    if report.touched is not None:
        print(f"touched: {safe(', '.join(report.touched)) or 'no entry'}", file=out)
    print(f"history: {report.history}", file=out)
    verdict = "pass" if report.passed else f"fail ({len(report.refusals)} refusal(s))"
    print(f"result: {verdict}", file=out)


def work_tree_root(path: str) -> str | None:
    """The root of the git work tree holding `path` (the repository a pull request's files are named in),
    or None outside one."""
    try:
        import git

        repo = git.Repo(path, search_parent_directories=True)
    except Exception:  # not in a repository (InvalidGitRepositoryError, NoSuchPathError, …)
        return None
    try:
        return os.path.realpath(repo.working_tree_dir) if repo.working_tree_dir else None
    finally:
        repo.close()


def emit_github(report: Report, catalog: str, tree=None) -> int:
    """`--format github`: workflow commands on stdout, the summary to $GITHUB_STEP_SUMMARY (annotations.py);
    paths are joined to the catalog's place in its git work tree (the pull request's checkout, wherever the
    workflow put it), else under $GITHUB_WORKSPACE (or the working directory). Lines are found in `tree`,
    the tree that was checked (default: the working tree at `catalog`)."""
    from ..annotations import emit
    from ..tree import TooLarge, TreeError, WorkingTree

    tree = tree if tree is not None else WorkingTree(catalog)

    def read(path: str) -> bytes | None:
        try:
            return tree.read(path, 16 * 1024 * 1024)
        except (TreeError, TooLarge, OSError):
            return None

    place = os.path.realpath(catalog)
    root = work_tree_root(catalog) or os.path.realpath(os.environ.get("GITHUB_WORKSPACE") or os.getcwd())
    inside = os.path.commonpath([root, place]) == root and place != root
    prefix = os.path.relpath(place, root).replace(os.sep, "/") + "/" if inside else ""
    failure = emit(report, read, sys.stdout.write, prefix)
    if failure:
        print(f"exchange check: GITHUB_STEP_SUMMARY {failure}", file=sys.stderr)
        return IO
    return PASS if report.passed else REFUSED

