"""Issue #33's done-when, as a user of another catalog meets the gate: the package from its built wheel,
installed non-editable in a fresh environment (dependencies from the wheelhouse, offline), run from a
temporary folder that is no checkout of this repository. `exchange init`, git init and a signed-off commit,
an entry from a shared Runner export by the walkthrough's commands, `exchange check`, `exchange check --base
FIRST`, `exchange release v0.1.0` on an up-to-date main, `exchange release-check` and `exchange index` of
that release, and `exchange check` in a fresh `git clone` of the catalog. No step may print a traceback."""

from __future__ import annotations

import json
import os
import shlex
import subprocess
from pathlib import Path

import pytest

from ..contributing.repos import git, git_env
from ..support.built import Built
from ..support.paths import VECTORS

RUN_EXPORT = VECTORS / "runner-exports" / "mapping-v2-before-calculators" / "run.json"
GATE_REF = "0123456789abcdef0123456789abcdef01234567"
OWNERS = "@acme/exchange-maintainers"


class Shell:
    """Commands as a person types them in bash, with the installed environment's bin/ first on PATH (so
    `exchange` is the wheel's console script) and nothing of this checkout on any path."""

    def __init__(self, built: Built) -> None:
        self.env = git_env()
        self.env["PATH"] = os.pathsep.join([str(built.bin), self.env.get("PATH", os.defpath)])
        for name in ("PYTHONPATH", "PYTHONHOME", "VIRTUAL_ENV", "PYTHONSAFEPATH"):
            self.env.pop(name, None)

    def __call__(self, cwd: Path, command: str, status: int = 0) -> subprocess.CompletedProcess:
        done = subprocess.run(["bash", "-c", command], cwd=cwd, env=self.env, capture_output=True, text=True,
                              check=False, timeout=600)
        assert "Traceback" not in done.stdout + done.stderr, (command, done.stderr[-3000:])
        assert done.returncode == status, (command, done.returncode, done.stdout[-3000:], done.stderr[-3000:])
        return done


def _fill_human_parts(entry: Path) -> None:
    """What CONTRIBUTING's walkthrough has the contributor write by hand: title, description, author, README."""
    path = entry / "entry.json"
    value = json.loads(path.read_bytes())
    value.update(title="Acme vendor intake: a vendor's registry record for the intake triage pack",
                 description="Reads one vendor's registry record into the triage pack's intake facts.",
                 author="Acme Data Team")
    path.write_text(json.dumps(value, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    (entry / "README.md").write_text("# acme.vendors\n\nReads a vendor's record for the intake triage pack.\n",
                                     encoding="utf-8")


@pytest.fixture(scope="module")
def shell(built_package: Built) -> Shell:
    return Shell(built_package)


def test_the_console_script_is_the_wheels(built_package: Built, shell: Shell, tmp_path: Path):
    """The environment holds the wheel, not an editable install of this checkout."""
    done = shell(tmp_path, "exchange --version && python -I -c 'import judgment_exchange, sys; "
                           "print(judgment_exchange.__file__)'")
    assert str(built_package.bin.parent) in done.stdout and "/tools/" not in done.stdout, done.stdout


def test_a_new_catalog_from_init_to_a_checked_release(built_package: Built, shell: Shell, tmp_path: Path):
    work = tmp_path / "work"
    work.mkdir()
    # init, and the first commit as init's printed next step says
    done = shell(work, f"exchange init acme-catalog --owners {OWNERS} --gate-ref {GATE_REF}")
    assert "git add -A && git commit -s" in done.stdout, done.stdout
    catalog = work / "acme-catalog"
    assert git(catalog, "symbolic-ref", "HEAD") == "refs/heads/main"
    shell(catalog, "exchange check")  # before any commit
    shell(catalog, 'git add -A && git commit -q -s -m "A new catalog"')
    first = git(catalog, "rev-parse", "HEAD")
    origin = work / "origin.git"
    git(work, "init", "-q", "--bare", "-b", "main", str(origin))
    shell(catalog, f"git remote add origin {shlex.quote(str(origin))} && git push -q -u origin main")

    # the contributor's walkthrough: a branch, an entry from a Runner export, the human parts, the pins
    shell(catalog, "git switch -q -c acme-vendors")
    shell(catalog, f"exchange new acme.vendors --from-run {shlex.quote(str(RUN_EXPORT))}")
    _fill_human_parts(catalog / "entries" / "acme" / "vendors")
    shell(catalog, "exchange fix")
    shell(catalog, 'git add entries/acme/vendors manifest.json && git commit -q -s -m "acme.vendors: a new entry"')
    for command in ("exchange check", f"exchange check --base {first}", "exchange check --base auto",
                    f"exchange signoff --base {first}"):
        shell(catalog, command)

    # the maintainer merges and releases on an up-to-date main, then pushes
    shell(catalog, "git switch -q main && git merge -q --ff-only acme-vendors && git push -q origin main")
    shell(catalog, "exchange release v0.1.0")
    shell(catalog, "git push -q origin main v0.1.0")

    # the consumer: the release checked before import, its index built
    done = shell(work, f"exchange release-check {shlex.quote(str(origin))} v0.1.0 --format json")
    assert json.loads(done.stdout)["result"] == "pass", done.stdout
    shell(work, f"exchange index {shlex.quote(str(catalog))} v0.1.0 --out site --local")
    index = json.loads((work / "site" / "index.json").read_bytes())
    assert [entry["id"] for entry in index["entries"]] == ["acme.vendors"], index["entries"]

    # anyone: a fresh clone passes the gate with its history
    shell(work, f"git clone -q {shlex.quote(str(origin))} fresh")
    done = shell(work / "fresh", "exchange check")
    assert "result: pass" in done.stdout, done.stdout
