"""A reading of the workflows' trusted jobs, for the static test of issue #24 item 3(a): written from the
rules the issue states, independent of the package (which has no code about workflows).

A trusted job is one that decides or publishes: every job of every workflow except those UNTRUSTED names
(`ci.yml`'s tests, which decide nothing). In a trusted job:

- every checkout has `persist-credentials: false` and a `path:` of its own, and no step runs with a
  checkout (or a folder inside one) as its working directory;
- every Python started is the `-I` interpreter of a virtual environment under $RUNNER_TEMP (`…/bin/python
  -I`), that environment's console script (`"$RUNNER_TEMP/gate/bin/exchange"`), or setup-python's
  interpreter with -I creating such an environment (`python -I -m venv DIR`) — no `python -m`, `python
  -c`, `python -`, `python FILE`, `pip`, `pytest`, a `.py` file or a shell script of a checkout;
- every `pip install` is either `--require-hashes -r LOCK` or the built wheel alone (`--no-deps --no-index`);
  a wheel is built `--no-deps --no-build-isolation --no-index`;
- no local action (`uses: ./…`, a checkout's file) and no `shell:` but bash.
"""

from __future__ import annotations

import shlex
from dataclasses import dataclass
from pathlib import Path

from ruamel.yaml import YAML

UNTRUSTED = {("ci.yml", "tests")}
"""Jobs that decide and publish nothing (docs/trust.md): the pull request's own tests."""

RUNNER_TEMP = "${{ runner.temp }}"
WORKSPACE = "${{ github.workspace }}"
CONSOLE_SCRIPT = "$RUNNER_TEMP/gate/bin/exchange"

PYTHON_WORDS = {"python", "python3", "python3.11", "python3.12", "python3.13", "pip", "pip3", "pytest", "py.test",
                "pipx", "uv", "tox", "nox", "hatch", "poetry", "pdm", "conda", "coverage"}
"""Programs that start Python (or are Python's package tools) by their name on PATH."""

SHELLS = {"bash", "sh", "dash", "zsh", "source", "."}
PREFIXES = {"env", "exec", "command", "time", "nice", "nohup", "timeout", "xargs", "sudo", "!"}
KEYWORDS = {"if", "then", "else", "elif", "fi", "do", "done", "while", "until", "for", "in", "case", "esac", "{", "}",
            "[[", "]]"}
SEPARATORS = {"&&", "||", ";", "|", "&", "(", ")", ";;", "|&"}


@dataclass(frozen=True)
class Step:
    workflow: str
    job: str
    index: int
    step: dict
    working_directory: str | None


def load(path: Path) -> dict:
    return YAML(typ="safe", pure=True).load(path.read_text(encoding="utf-8"))


def trusted_jobs(directory: Path) -> list[tuple[str, str, dict]]:
    """(workflow file name, job id, job) of every trusted job of every workflow in `directory`."""
    out = []
    for path in sorted(directory.glob("*.y*ml")):
        for name, job in (load(path).get("jobs") or {}).items():
            if (path.name, name) not in UNTRUSTED:
                out.append((path.name, name, job))
    return out


def commands(script: str) -> list[list[str]]:
    """The simple commands of a shell script (words unquoted; env assignments, prefixes such as `env` and
    `timeout N`, and keywords dropped), in order; `$(…)` and `(…)` open a command of their own."""
    out = []
    for line in script.replace("\\\n", " ").splitlines():
        lexer = shlex.shlex(line, posix=True, punctuation_chars=";&|()")
        lexer.whitespace_split = True
        lexer.commenters = "#"
        words: list[str] = []
        try:
            tokens = [*lexer, ";"]
        except ValueError:  # unbalanced quotes: the whole line, one word each, so nothing hides
            tokens = [*line.split(), ";"]
        for token in tokens:
            if token in SEPARATORS:
                if words:
                    out.append(words)
                words = []
                continue
            if not words and (token in KEYWORDS or token in PREFIXES or _assignment(token)):
                continue
            if token.endswith("$") and not words:  # `x=$(` split at its parenthesis
                continue
            words.append(token)
    return out


def _assignment(token: str) -> bool:
    name, equals, _ = token.partition("=")
    return bool(equals) and name.replace("_", "a").isalnum() and not name[0].isdigit()


def python_problems(words: list[str]) -> list[str]:
    """Why one simple command starts Python otherwise than the rules allow (see the module's docstring)."""
    command, args = words[0], words[1:]
    base = command.rsplit("/", 1)[-1]
    shown = " ".join(words)
    problems = []
    if base in PYTHON_WORDS or base.startswith("python"):
        if command == "python" and args[:3] == ["-I", "-m", "venv"] and len(args) == 4:
            pass  # setup-python's interpreter, isolated, creating the gate's environment
        elif command.endswith("/bin/python") and not command.startswith("/") and ".." not in command \
                and args[:1] == ["-I"]:
            problems += _pip_problems(args[1:], shown)
        else:
            problems.append(f"`{shown}`: Python started otherwise than a virtual environment's `-I` interpreter")
    elif base == "exchange":
        if command != CONSOLE_SCRIPT:
            problems.append(f"`{shown}`: `exchange` is not the gate environment's console script {CONSOLE_SCRIPT}")
    elif base.endswith(".py"):
        problems.append(f"`{shown}`: runs a Python file")
    elif command in SHELLS and args and not args[0].startswith("-"):
        problems.append(f"`{shown}`: runs a shell script, which a checkout holds")
    for word in args:
        if word.rsplit("/", 1)[-1] in PYTHON_WORDS and not (base == "exchange" or command.endswith("/bin/python")):
            problems.append(f"`{shown}`: {word} given as an argument may start Python")
    return problems


def _pip_problems(args: list[str], shown: str) -> list[str]:
    if args[:2] != ["-m", "pip"]:
        return [f"`{shown}`: only `-m pip` may follow an environment's `-I` interpreter"]
    rest = [a for a in args[2:] if a not in ("--quiet", "-q", "--disable-pip-version-check")]
    if rest[:1] == ["install"]:
        options = rest[1:]
        if "--require-hashes" in options and options.count("-r") == 1 and len(options) == 3:
            return []
        if "--no-deps" in options and "--no-index" in options and len(options) == 3 and options[-1].endswith(".whl"):
            return []
        return [f"`{shown}`: a pip install that is neither a hash-pinned lock (--require-hashes -r LOCK) nor the "
                "built wheel alone (--no-deps --no-index WHEEL)"]
    if rest[:1] == ["wheel"]:
        if {"--no-deps", "--no-build-isolation", "--no-index"} <= set(rest):
            return []
        return [f"`{shown}`: a wheel built with dependencies, build isolation or an index"]
    return [f"`{shown}`: pip used for something other than install or wheel"]


def _inside(directory: str, checkouts: list[str]) -> bool:
    """Whether a working directory is a checkout or inside one (checkout paths relative to the workspace)."""
    relative = directory
    for prefix in (WORKSPACE + "/", "$GITHUB_WORKSPACE/", "./"):
        if relative.startswith(prefix):
            relative = relative[len(prefix):]
    if relative in ("", WORKSPACE, "$GITHUB_WORKSPACE", "."):
        return "" in checkouts
    if relative.startswith((RUNNER_TEMP, "$RUNNER_TEMP", "/")):
        return False
    return any(c == "" or relative == c or relative.startswith(c.rstrip("/") + "/") for c in checkouts)


ALLOWED_ACTIONS = ("actions/checkout@", "actions/setup-python@", "actions/github-script@", "actions/configure-pages@",
                   "actions/upload-pages-artifact@", "actions/deploy-pages@")


def job_problems(workflow: str, name: str, job: dict) -> list[str]:
    """Every way the trusted job `name` of `workflow` breaks the rules."""
    where = f"{workflow}:{name}"
    problems = []
    checkouts: list[str] = []
    default = ((job.get("defaults") or {}).get("run") or {})
    if default.get("shell", "bash") not in ("bash", "sh"):
        problems.append(f"{where}: runs its steps with the shell {default.get('shell')}")
    for index, step in enumerate(job.get("steps") or []):
        label = f"{where} step {index + 1} ({step.get('name') or step.get('uses') or 'run'})"
        uses = step.get("uses")
        if uses is not None:
            if not uses.startswith(ALLOWED_ACTIONS):
                problems.append(f"{label}: uses {uses}, not one of the pinned actions a trusted job may use")
            if uses.startswith("actions/checkout@"):
                given = step.get("with") or {}
                if given.get("persist-credentials") is not False:
                    problems.append(f"{label}: a checkout that persists its credentials in .git/config")
                path = str(given.get("path") or "")
                if not path:
                    problems.append(f"{label}: a checkout at the workspace's root (give it a path of its own)")
                checkouts.append(path)
            continue
        if "run" not in step:
            continue
        if step.get("shell", default.get("shell", "bash")) not in ("bash", "sh"):
            problems.append(f"{label}: runs with the shell {step.get('shell')}")
        directory = str(step.get("working-directory") or default.get("working-directory") or WORKSPACE)
        if _inside(directory, checkouts):
            problems.append(f"{label}: its working directory {directory} is a checkout")
        for words in commands(step["run"]):
            problems += [f"{label}: {p}" for p in python_problems(words)]
    return problems
