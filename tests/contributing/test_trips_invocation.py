"""What a contributor still trips on, issue #34 item 7: an unknown flag after a subcommand, and a catalog in a
directory that is not a git repository.

An unknown flag after a subcommand is that subcommand's bad invocation (exit 3): its own usage, which names
its options, not the top-level usage listing every subcommand. A catalog in no git repository is refused
`artifact-history-invalid` with a fix that says so and names `git init`, applied here as printed; before, the
fix said "fetch every release tag", which no clone-less directory can do.
"""

from __future__ import annotations

import json
import shlex
import subprocess

import pytest

from judgment_exchange.cli import main as exchange

from ..support.gitrepo import GitRepo, git_identity

TOP_USAGE = "usage: exchange [-h] [--version]"


@pytest.fixture(autouse=True)
def identity(monkeypatch) -> None:
    git_identity(monkeypatch, "Trip Test", "trip-test@example.invalid")


def _run(argv: list[str], capsys) -> tuple[int, str, str]:
    status = exchange(argv)
    captured = capsys.readouterr()
    return status, captured.out, captured.err


@pytest.mark.parametrize("argv, prog", [
    (["check", "--bogus"], "exchange check"),
    (["check", "--base", "auto", "--no-such-flag"], "exchange check"),
    (["fix", "--chek"], "exchange fix"),
    (["upgrade-note", "acme.vendors", "TEXT", "--relase", "v0.1.0"], "exchange upgrade-note"),
    (["fixture", "add", "entries/acme/vendors", "run.json", "--replce"], "exchange fixture add"),
    (["release-check", ".", "v0.1.0", "--lok", "x"], "exchange release-check"),
    (["check", "stray-positional"], "exchange check"),
])
def test_an_unknown_flag_after_a_subcommand_prints_that_subcommands_usage(argv, prog, capsys, tmp_path,
                                                                          monkeypatch):
    monkeypatch.chdir(tmp_path)
    status, out, err = _run(argv, capsys)
    assert status == 3 and out == ""
    assert err.startswith(f"usage: {prog} ") and TOP_USAGE not in err, err
    assert f"\n{prog}: unrecognized arguments: " in err


def test_near_miss_an_unknown_flag_before_any_subcommand_keeps_the_top_level_usage(capsys):
    status, out, err = _run(["--bogus", "check"], capsys)
    assert status == 3 and err.startswith(TOP_USAGE) and "exchange: unrecognized arguments: --bogus" in err


def test_near_miss_known_flags_and_a_command_after_double_dash_still_parse():
    from judgment_exchange.cli import build_parser

    args = build_parser().parse_args(["check", "--no-history", "--format", "json"])
    assert (args.command, args.no_history, args.format) == ("check", True, "json")
    args = build_parser().parse_args(["conformance", "run", "--", "my-consumer", "--its-own-flag"])
    assert args.command[-2:] == ["my-consumer", "--its-own-flag"]


# --- a catalog in no git repository ---------------------------------------------------------------------

def _fix_line(out: str) -> str:
    [line] = [x for x in out.splitlines() if x.startswith("  fix: ")]
    return line


def test_a_catalog_in_no_repository_is_told_git_init_and_the_fix_applied_as_printed_passes(tmp_path, monkeypatch,
                                                                                            capsys):
    catalog = tmp_path / "catalog"
    catalog.mkdir()
    (catalog / "manifest.json").write_bytes(b"[]\n")
    monkeypatch.chdir(catalog)
    status, out, _ = _run(["check"], capsys)
    assert status == 1
    assert "refused artifact-history-invalid: the catalog's directory is not a git repository" in out
    fix = _fix_line(out)
    assert "fetch every release tag" not in fix.lower()
    command = next(part for part in fix.split("`")[1::2] if part.startswith("git "))
    assert command == "git init"
    subprocess.run(shlex.split(command), cwd=catalog, check=True, capture_output=True)
    status, out, _ = _run(["check"], capsys)
    assert status == 0 and "result: pass" in out, out
    status, out, _ = _run(["check", "--format", "json"], capsys)
    assert status == 0 and json.loads(out)["result"] == "pass"


def test_the_json_fix_names_git_init_too(tmp_path, monkeypatch, capsys):
    (tmp_path / "manifest.json").write_bytes(b"[]\n")
    monkeypatch.chdir(tmp_path)
    status, out, _ = _run(["check", "--format", "json"], capsys)
    [refusal] = json.loads(out)["refusals"]
    assert status == 1 and refusal["code"] == "artifact-history-invalid"
    assert "not a git repository" in refusal["detail"] and "`git init`" in refusal["fix"]


def test_near_miss_a_catalog_inside_a_repository_keeps_its_note(tmp_path, monkeypatch, capsys):
    """A catalog nested in a repository (docs/demo-catalog/) is in a repository: history not read, as before."""
    GitRepo(tmp_path)
    catalog = tmp_path / "nested"
    catalog.mkdir()
    (catalog / "manifest.json").write_bytes(b"[]\n")
    monkeypatch.chdir(catalog)
    status, out, _ = _run(["check"], capsys)
    assert status == 0 and "history not read: the catalog is the directory nested inside a git repository" in out
    assert "git init" not in out


def test_near_miss_a_git_directory_git_cannot_read_keeps_the_registrys_fix(tmp_path, monkeypatch, capsys):
    """A `.git` that is there but no repository is not "no repository": `git init` is not its fix."""
    (tmp_path / "manifest.json").write_bytes(b"[]\n")
    (tmp_path / ".git").write_bytes(b"not a gitdir line\n")
    monkeypatch.chdir(tmp_path)
    status, out, _ = _run(["check"], capsys)
    assert status == 1 and "refused artifact-history-invalid" in out
    assert "git init" not in out and "Fetch every release tag" in _fix_line(out)
