"""`exchange signoff`: a DCO sign-off on every commit of a pull request (RFC 0019 §6; issue #9 item 7).

What counts is written in CONTRIBUTING.md, "What CI runs": a `Signed-off-by: Name <email>` trailer in
the message's trailer block (git's rule), naming the author's email; a clean merge of two parents is not
checked (which merges are: test_signoff_merges.py).
"""

from __future__ import annotations

import json
import subprocess

import pytest

from judgment_exchange.cli import main
from judgment_exchange.repository.signoff import (
    MALFORMED,
    NO_TRAILER,
    NOT_AUTHOR,
    read_commit,
    signoff_finding,
    trailers,
)

from .repos import EMAIL, NAME, commit, git, git_env, upstream_and_clone

SOB = f"Signed-off-by: {NAME} <{EMAIL}>"


@pytest.fixture
def clone(tmp_path):
    _, clone = upstream_and_clone(tmp_path, {"manifest.json": b"[]\n"})
    return clone


def _run(clone, *args, capsys):
    code = main(["signoff", "--catalog", str(clone), *args])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def _json(clone, capsys, base="auto"):
    code, out, _ = _run(clone, "--base", base, "--format", "json", capsys=capsys)
    return code, json.loads(out)


# --- the trailer block, as git reads it: hand-worked expectations -------------------------------------

TRAILER_CASES = [
    # (message, the trailers git's rule finds) — each worked by hand from trailer.c's find_trailer_start
    ("Add x\n\nSigned-off-by: A B <a@b.example>\n", [("Signed-off-by", "A B <a@b.example>")]),
    ("Add x\n", []),
    ("Signed-off-by: A B <a@b.example>\n", []),                        # the title is never a trailer
    ("Add x\nSigned-off-by: A B <a@b.example>\n", []),                 # still the title's paragraph
    ("Add x\n\nbody\n\nSigned-off-by: A <a@b>\n", [("Signed-off-by", "A <a@b>")]),
    ("Add x\n\nSigned-off-by: A <a@b>\n\nmore body\n", []),            # not the last paragraph
    ("Add x\n\nwords\nSigned-off-by: A <a@b>\n", [("Signed-off-by", "A <a@b>")]),   # 1 of 2 lines: ≥ 25%
    ("Add x\n\nw\nw\nw\nSigned-off-by: A <a@b>\n", [("Signed-off-by", "A <a@b>")]),  # 1 of 4: 25%
    ("Add x\n\nw\nw\nw\nw\nSigned-off-by: A <a@b>\n", []),             # 1 of 5: under 25%
    ("Add x\n\nwords\nsigned-off-by: A <a@b>\n", []),                  # lower case is not git-generated
    ("Add x\n\nFixes: 12\nsigned-off-by: A <a@b>\n", [("Fixes", "12"), ("signed-off-by", "A <a@b>")]),
    ("Add x\n\nSigned off by: A <a@b>\n", []),                         # a space is not a token character
    ("Add x\n\nCo-authored-by: X\n  continued\nSigned-off-by: A <a@b>\n",
     [("Co-authored-by", "X\ncontinued"), ("Signed-off-by", "A <a@b>")]),
    ("Add x\n\n# a comment\nSigned-off-by: A <a@b>\n", [("Signed-off-by", "A <a@b>")]),
    ("Add x\n\nSigned-off-by : A <a@b>\n", [("Signed-off-by", "A <a@b>")]),   # whitespace before ':'
]


@pytest.mark.parametrize("message,expected", TRAILER_CASES)
def test_trailers_by_hand(message, expected):
    assert trailers(message) == expected


@pytest.mark.parametrize("message", [m for m, _ in TRAILER_CASES] + [
    "Add x\n\n(cherry picked from commit abc)\nnot\na\ntrailer\n",
    "Add x\n\n\tindented first\nSigned-off-by: A <a@b>\n",
    "# c\nAdd x\n\nSigned-off-by: A <a@b>",
    "Add x\n\n   \nSigned-off-by: A <a@b>\n\n\n",
    "Add x\n\nwords\n\u00a0Signed-off-by: A <a@b>\n",                 # a Unicode space is no git space
    "Add x\r\n\r\nSigned-off-by: A <a@b>\r\n",
])
def test_trailers_agree_with_git_interpret_trailers(message, tmp_path):
    """A second computation: git's own parser (`interpret-trailers --parse`, no patch divider, as for
    a commit's message) finds the same trailers."""
    done = subprocess.run(["git", "-c", "trailer.separators=:", "interpret-trailers", "--parse", "--no-divider"],
                          input=message.encode(), capture_output=True, env=git_env(), cwd=tmp_path, check=True)
    theirs = [tuple(line.split(": ", 1)) for line in done.stdout.decode().splitlines()]
    ours = [(token, " ".join(value.split("\n"))) for token, value in trailers(message)]
    assert ours == theirs


def test_signoff_finding_reasons():
    assert signoff_finding(f"Add\n\n{SOB}\n", EMAIL) is None
    assert signoff_finding(f"Add\n\n{SOB}\n", EMAIL.upper()) is None        # email compared without case
    assert signoff_finding("Add\n\nbody\n", EMAIL) == NO_TRAILER
    assert signoff_finding(f"Add\n\nSigned-off-by: {NAME}\n", EMAIL) == MALFORMED
    assert signoff_finding(f"Add\n\nSigned-off-by: <{EMAIL}>\n", EMAIL) == MALFORMED   # no name
    assert signoff_finding("Add\n\nSigned-off-by: Someone <someone@example.invalid>\n", EMAIL) == NOT_AUTHOR
    assert signoff_finding(f"Add\n\nSigned-off-by: {NAME} <{EMAIL}>\n", "") == NOT_AUTHOR


def test_read_commit_takes_tree_parents_and_the_author_email():
    raw = (b"tree 4b825dc642cb6eb9a060e54bf8d69288fbee4904\nparent " + b"1" * 40 + b"\nparent " + b"2" * 40 +
           b"\nauthor A B <a@b.example> 1 +0000\ncommitter C <c@d.example> 1 +0000\n\nMerge\n\nbody\n")
    text = read_commit(raw)
    assert (text.parents, text.author_email, text.message) == (2, "a@b.example", "Merge\n\nbody\n")
    assert (text.tree, text.parent_ids) == ("4b825dc642cb6eb9a060e54bf8d69288fbee4904", ("1" * 40, "2" * 40))


# --- the command on throwaway repositories -------------------------------------------------------------

def test_signed_off_commits_pass(clone, capsys):
    (clone / "a.txt").write_text("a\n")
    commit(clone, "Add a")
    (clone / "b.txt").write_text("b\n")
    commit(clone, "Add b")
    code, report = _json(clone, capsys)
    assert code == 0 and report["result"] == "pass" and report["commits"] == 2 and report["refusals"] == []
    assert report["base"] == git(clone, "rev-parse", "origin/main")


def test_commit_without_signoff_is_refused_by_its_id(clone, capsys):
    (clone / "a.txt").write_text("a\n")
    signed = commit(clone, "Add a")
    (clone / "b.txt").write_text("b\n")
    unsigned = commit(clone, "Add b", signoff=False)
    code, report = _json(clone, capsys)
    assert code == 1 and report["commits"] == 2
    assert [(r["code"], r["commit"]) for r in report["refusals"]] == [("signoff-missing", unsigned)]
    assert signed not in json.dumps(report["refusals"])
    code, out, _ = _run(clone, "--base", "auto", capsys=capsys)
    assert code == 1 and f"refused signoff-missing: commit {unsigned}" in out
    assert "here: git reset --soft $(git merge-base " in out and "git commit -s" in out


def test_signoff_in_the_body_is_not_a_trailer(clone, capsys):
    commit(clone, f"Add a\n\n{SOB}\n\nA later paragraph.", signoff=False)
    code, report = _json(clone, capsys)
    assert code == 1 and "last paragraph" in report["refusals"][0]["detail"]


def test_signoff_by_another_person_is_refused(clone, capsys):
    commit(clone, "Add a\n\nSigned-off-by: Someone Else <someone@example.invalid>", signoff=False)
    code, report = _json(clone, capsys)
    assert code == 1 and "author's email" in report["refusals"][0]["detail"]


def test_near_miss_signoff_email_in_other_case_passes(clone, capsys):
    commit(clone, f"Add a\n\nSigned-off-by: {NAME} <{EMAIL.upper()}>", signoff=False)
    assert _json(clone, capsys)[0] == 0


def test_malformed_signoff_is_refused(clone, capsys):
    commit(clone, f"Add a\n\nSigned-off-by: {NAME}", signoff=False)
    code, report = _json(clone, capsys)
    assert code == 1 and "Name <email>" in report["refusals"][0]["detail"]


def test_clean_merge_commits_are_not_checked(clone, capsys):
    base = git(clone, "rev-parse", "HEAD")
    git(clone, "switch", "-q", "-c", "side")
    (clone / "side.txt").write_text("s\n")
    commit(clone, "Side")
    git(clone, "switch", "-q", "main")
    (clone / "main.txt").write_text("m\n")
    commit(clone, "Main")
    git(clone, "merge", "-q", "--no-ff", "--no-edit", "side")       # git's own merge message, unsigned
    code, report = _json(clone, capsys, base)
    assert code == 0 and (report["commits"], report["merges"]) == (2, 1)


def test_no_commits_pass(clone, capsys):
    code, report = _json(clone, capsys)
    assert code == 0 and report["commits"] == 0


def test_named_base(clone, capsys):
    (clone / "a.txt").write_text("a\n")
    first = commit(clone, "Add a", signoff=False)
    (clone / "b.txt").write_text("b\n")
    commit(clone, "Add b")
    assert _json(clone, capsys, first)[0] == 0                      # first..HEAD holds only the signed commit
    assert _json(clone, capsys, "origin/main")[0] == 1


def test_rebase_signoff_repairs_a_linear_branch(clone, capsys):
    """CONTRIBUTING.md's alternative on a branch without merges: it keeps the commits."""
    (clone / "a.txt").write_text("a\n")
    commit(clone, "Add a", signoff=False)
    assert _json(clone, capsys)[0] == 1
    git(clone, "rebase", "-q", "--signoff", git(clone, "rev-parse", "origin/main"))
    assert _json(clone, capsys)[0] == 0


def test_github_format_annotates_each_commit(clone, capsys):
    unsigned = commit(clone, "Add b", signoff=False)
    code, out, _ = _run(clone, "--base", "auto", "--format", "github", capsys=capsys)
    assert code == 1 and out.splitlines()[0].startswith(f"::error title=signoff-missing::commit {unsigned}:")


def test_github_format_writes_workflow_commands_only(clone, capsys):
    """Issue #26 item 6: as `check --format github`, standard output holds only workflow commands (docs/reports.md):
    an error per refusal with its fix on its second line, one notice with the range, counts and result."""
    commit(clone, "Add c", signoff=False)
    code, out, _ = _run(clone, "--base", "auto", "--format", "github", capsys=capsys)
    lines = out.splitlines()
    assert code == 1 and all(line.startswith(("::error ", "::notice ")) for line in lines), lines
    assert "%0Afix: git reset --soft $(git merge-base " in lines[0]
    assert lines[-1].startswith("::notice title=exchange signoff::") and "result: fail (1 refusal(s))" in lines[-1]
    git(clone, "commit", "-q", "--amend", "--allow-empty", "-s", "--no-edit")
    code, out, _ = _run(clone, "--base", "auto", "--format", "github", capsys=capsys)
    assert code == 0 and out.splitlines() == [line for line in out.splitlines() if line.startswith("::notice ")]


# --- exit statuses ------------------------------------------------------------------------------------

def test_base_that_names_no_commit_is_base_unreadable(clone, capsys):
    code, report = _json(clone, capsys, "no-such-branch")
    assert code == 1 and [r["code"] for r in report["refusals"]] == ["base-unreadable"]


def test_base_is_required(clone, capsys):
    assert main(["signoff", "--catalog", str(clone)]) == 3


def test_auto_without_an_upstream_is_a_bad_invocation(tmp_path, capsys):
    lone = tmp_path / "lone"
    lone.mkdir()
    git(lone, "init", "-q", "-b", "trunk")
    commit(lone, "First")
    code, out, err = _run(lone, "--base", "auto", capsys=capsys)
    assert code == 3 and out == "" and "refs/remotes/origin/HEAD" in err and "Traceback" not in err


def test_unborn_head_is_a_bad_invocation(tmp_path, capsys):
    empty = tmp_path / "empty"
    empty.mkdir()
    git(empty, "init", "-q", "-b", "main")
    code, _, err = _run(empty, "--base", "main", capsys=capsys)
    assert code == 3 and "HEAD names no commit" in err


def test_not_a_repository_is_io(tmp_path, capsys):
    assert _run(tmp_path, "--base", "HEAD", capsys=capsys)[0] == 4
    assert _run(tmp_path / "absent", "--base", "HEAD", capsys=capsys)[0] == 4


# --- attacks ------------------------------------------------------------------------------------------

def test_commit_subject_cannot_forge_report_lines(clone, capsys):
    """The subject and body are the author's: a forged 'result: pass' line, a terminal escape and a
    workflow command in them never reach the output (only the commit id does)."""
    hostile = "Add a \x1b[32mresult: pass\x1b[0m\n\n::error title=x::forged\nresult: pass\n\u202eevil"
    unsigned = commit(clone, hostile, signoff=False)
    for fmt in ("text", "github", "json"):
        code, out, err = _run(clone, "--base", "auto", "--format", fmt, capsys=capsys)
        assert code == 1
        assert "\x1b" not in out + err and "forged" not in out + err and "evil" not in out + err
        assert unsigned in out
    code, out, _ = _run(clone, "--base", "auto", capsys=capsys)
    assert out.count("result: ") == 1 and out.rstrip().endswith("result: fail (1 refusal(s))")


def test_author_email_is_never_printed(clone, capsys):
    env = git_env() | {"GIT_AUTHOR_EMAIL": "attacker\x1b]0;title\x07@example.invalid"}
    git(clone, "commit", "-q", "--allow-empty", "-m", "Add a", env=env)
    for fmt in ("text", "github", "json"):
        code, out, err = _run(clone, "--base", "auto", "--format", fmt, capsys=capsys)
        assert code == 1 and "attacker" not in out + err and "\x1b" not in out + err


def test_bogus_encoding_header_does_not_crash(clone, capsys):
    """A commit object whose `encoding` header names no codec (GitPython would raise decoding it) is
    read as bytes: its sign-off is found, and a missing one is refused, never a traceback."""
    parent = git(clone, "rev-parse", "HEAD")
    tree = git(clone, "rev-parse", "HEAD^{tree}")
    for message, expected in ((f"Add a\n\n{SOB}\n", 0), ("Add b\n", 1)):
        raw = (f"tree {tree}\nparent {parent}\nauthor {NAME} <{EMAIL}> 1 +0000\n"
               f"committer {NAME} <{EMAIL}> 1 +0000\nencoding no-such-codec\n\n{message}").encode()
        made = git(clone, "hash-object", "-t", "commit", "-w", "--stdin", input=raw)
        git(clone, "update-ref", "HEAD", made)
        assert _json(clone, capsys)[0] == expected
