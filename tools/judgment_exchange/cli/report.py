"""The gate's report for people and for a workflow (docs/reports.md): `exchange check`'s text,
`--format github` (annotations named from the checked catalog's place in its repository, the step summary)
and `--format markdown` (the review, review/check.py).
"""

from __future__ import annotations

import os
import sys
from typing import TYPE_CHECKING

from ..refusal import Report
from .common import IO, PASS, REFUSED, Exit, emit_json, safe

if TYPE_CHECKING:
    from ..tree import Tree


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


def emit_github(report: Report, catalog: str, tree: Tree | None = None) -> int:
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
        raise Exit(IO, f"exchange check: GITHUB_STEP_SUMMARY {failure}")
    return verdict(report)


def emit_markdown(report: Report, catalog: str, tree: Tree, label: str, base: str | None) -> int:
    """`--format markdown`: the review on stdout (review/check.py), each code linked to docs/codes.md at the
    checked commit in a workflow (annotations.doc_base); with `base`, each touched entry new or changed
    against the base commit's manifest."""
    from ..annotations import doc_base
    from ..review.check import render, review_of
    from ..tree import GitTree, TreeError

    base_tree = None
    if base is not None:
        try:
            base_tree = GitTree(catalog, base)
        except TreeError:
            base_tree = None  # the review then says the base's manifest cannot be read
    sys.stdout.write(render(review_of(report, tree, label, base=base, base_tree=base_tree,
                                      doc_base=doc_base(dict(os.environ)))))
    return verdict(report)


def verdict(report: Report) -> int:
    """The gate's exit status: 0 when nothing is refused, else 1."""
    return PASS if report.passed else REFUSED


def _text(report: Report, catalog: str, tree: Tree, label: str, base: str | None) -> int:
    print_text(report, label)
    return verdict(report)


def _json(report: Report, catalog: str, tree: Tree, label: str, base: str | None) -> int:
    emit_json(report.as_json())
    return verdict(report)


def _github(report: Report, catalog: str, tree: Tree, label: str, base: str | None) -> int:
    return emit_github(report, catalog, tree)


REPORTERS = {"text": _text, "json": _json, "github": _github, "markdown": emit_markdown}
"""`exchange check`'s reporter by `--format` (issue #37 item 4): each prints the report its way and returns the
exit status (report, catalog, the checked tree, the label naming it, the base)."""
