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
  a wheel is built `--no-deps --no-build-isolation --no-index` (or `…/bin/python -I -m build --no-isolation`);
- no `shell:` but bash, and no `${{ … }}` inside a `run:` (a value reaches a script through `env:` alone);
- the actions a job may use are ALLOWED_ACTIONS (with JOB_ACTIONS for publish.yml's jobs), and two composite
  actions, expanded into their steps, each step held to the rules above (issue #33 item 2): a local action
  inside one of the job's own checkouts of the judging commit (`uses: ./base/.github/actions/gate`, after the
  checkout with `path: base`, no `repository:` and no `ref:` but the base or the pushed commit), and
  `Judgment-Pack/judgment-pack-exchange/.github/actions/gate@<40-hex>`, read from this repository's file.
  Every other local action is refused. The action's inputs are substituted from the step's `with:` and the
  action's defaults; every step is checked whatever its `if:` says; `$GITHUB_ACTION_PATH` may be read (the
  action copies the gate's files from it) but is never a working directory.
"""

from __future__ import annotations

import re
import shlex
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Mapping

from ruamel.yaml import YAML

REPO = Path(__file__).resolve().parents[2]
GATE_ACTION = REPO / ".github" / "actions" / "gate"
"""This repository's action, the one a remote `…/judgment-pack-exchange/.github/actions/gate@<commit>` is read as."""
REMOTE_GATE = re.compile(r"Judgment-Pack/judgment-pack-exchange/\.github/actions/gate@[0-9a-f]{40}")

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
    if args[:2] == ["-m", "build"]:
        if "--no-isolation" in args[2:]:
            return []  # PyPA's build in the build lock's environment, with what that environment holds alone
        return [f"`{shown}`: a build with build isolation (it installs its backend from an index)"]
    if args[:2] != ["-m", "pip"]:
        return [f"`{shown}`: only `-m pip` or `-m build` may follow an environment's `-I` interpreter"]
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
JOB_ACTIONS = {("publish.yml", "build"): ("actions/upload-artifact@",),
               ("publish.yml", "publish"): ("actions/download-artifact@", "pypa/gh-action-pypi-publish@"),
               ("publish.yml", "attach"): ("actions/download-artifact@",)}
"""Actions one job alone may use besides ALLOWED_ACTIONS (issue #33 item 4: the package's files carried from
the job that builds them to the one that publishes them, and the upload to PyPI)."""

JUDGING_REFS = {"", "${{ github.event.pull_request.base.sha }}", "${{ github.sha }}"}
"""The `ref:` of a checkout whose local action a trusted job may run: the pushed or tagged commit (no ref), or a
pull request's base. Never the head, never another repository."""

ACTION_PATH = ("$GITHUB_ACTION_PATH", "${GITHUB_ACTION_PATH}", "${{ github.action_path }}")


@dataclass(frozen=True)
class Action:
    """A composite action a trusted job may run: its folder (GITHUB_ACTION_PATH) and its metadata."""

    uses: str
    folder: Path
    metadata: dict


def _action_file(folder: Path) -> Path | None:
    for name in ("action.yml", "action.yaml"):
        if (folder / name).is_file():
            return folder / name
    return None


def resolve_action(uses: str, checkouts: Mapping[str, dict],
                   root_of: Callable[[str], Path] = lambda _: REPO) -> tuple[Action | None, str | None]:
    """The composite action `uses` names, if a trusted job may expand it; else (None, why not) for a local path,
    (None, None) for any other action. `checkouts` maps each earlier checkout's path to its `with:`; `root_of`
    gives the folder a checkout path holds (this repository, for the static test)."""
    if REMOTE_GATE.fullmatch(uses):
        return Action(uses, GATE_ACTION, load(GATE_ACTION / "action.yml")), None
    if not uses.startswith("./"):
        return None, None
    parts = [p for p in uses[2:].split("/") if p not in ("", ".")]
    if ".." in parts or not parts:
        return None, f"uses {uses}, a local action outside the job's own checkouts"
    relative = "/".join(parts)
    found = [c for c in checkouts if c and (relative == c or relative.startswith(c + "/"))]
    if not found:
        return None, f"uses {uses}, a local action in no checkout of this job (only a checkout's own action may run)"
    path = max(found, key=len)
    given = checkouts[path]
    if given.get("repository") or str(given.get("ref") or "") not in JUDGING_REFS:
        return None, (f"uses {uses}, a local action of a checkout that is not the judging commit's "
                      f"(repository {given.get('repository')!r}, ref {given.get('ref')!r})")
    folder = root_of(path) / relative[len(path) + 1:]
    file = _action_file(folder)
    if file is None:
        return None, f"uses {uses}: no action.yml in {folder}"
    metadata = load(file)
    if ((metadata or {}).get("runs") or {}).get("using") != "composite":
        return None, f"uses {uses}, a local action that is not a composite action of run steps"
    return Action(uses, folder, metadata), None


_INPUT = re.compile(r"\binputs\.([A-Za-z_][A-Za-z0-9_-]*)")


def _quoted(value: str) -> str:
    return "'" + value.replace("'", "''") + "'"


def with_inputs(text: str, inputs: Mapping[str, str], expression: bool = False) -> str:
    """`text` with each `${{ inputs.NAME }}` replaced by the input's value, and `inputs.NAME` inside a larger
    expression by the value as a literal (a value that is itself an expression is left for the runner).
    `expression`: the whole text is an expression (an `if:` without `${{ }}`)."""
    def inside(expr: str) -> str:
        def one(match: re.Match) -> str:
            value = inputs[match.group(1)]
            return match.group(0) if "${{" in value else _quoted(value)
        return _INPUT.sub(one, expr)

    def each(match: re.Match) -> str:
        expr = match.group(1)
        whole = _INPUT.fullmatch(expr.strip())
        if whole:
            return inputs[whole.group(1)]
        return "${{ " + inside(expr) + " }}"

    if expression and not text.strip().startswith("${{"):
        return inside(text)
    return EXPRESSION.sub(each, text)


EXPRESSION = re.compile(r"\$\{\{\s*(.*?)\s*\}\}", re.S)


def action_steps(action: Action, step: dict) -> tuple[list[dict], list[str]]:
    """The action's steps for the workflow step `step` that uses it, with its inputs substituted (the step's
    `with:`, else the action's default); each step dict also holds `_action` (its folder) and `_uses`. And
    why the inputs are wrong: an input the action does not declare, a required one missing."""
    declared = action.metadata.get("inputs") or {}
    given = {k: ("true" if v is True else "false" if v is False else str(v))
             for k, v in (step.get("with") or {}).items()}
    problems = [f"gives the input {k}, which the action does not declare" for k in given if k not in declared]
    inputs = {}
    for name, spec in declared.items():
        spec = spec or {}
        if name in given:
            inputs[name] = given[name]
        elif spec.get("required") and "default" not in spec:
            problems.append(f"does not give the required input {name}")
            inputs[name] = ""
        else:
            inputs[name] = str(spec.get("default", ""))
    out = []
    for inner in ((action.metadata.get("runs") or {}).get("steps") or []):
        referenced = {m.group(1) for m in _INPUT.finditer(_text_of(inner))}
        unknown = sorted(referenced - set(inputs))
        problems += [f"its step {inner.get('name') or inner.get('uses') or 'run'} reads inputs.{n}, which the action "
                     "does not declare" for n in unknown]
        values = {**inputs, **{n: "" for n in unknown}}
        copied = _substituted(inner, values)
        copied["_action"] = str(action.folder)
        copied["_uses"] = action.uses
        out.append(copied)
    return out, problems


def _text_of(node) -> str:
    if isinstance(node, dict):
        return "\n".join(f"{k}\n{_text_of(v)}" for k, v in node.items())
    if isinstance(node, list):
        return "\n".join(_text_of(v) for v in node)
    return str(node)


def _substituted(node, inputs: Mapping[str, str], key: str = ""):
    if isinstance(node, dict):
        return {k: _substituted(v, inputs, k) for k, v in node.items()}
    if isinstance(node, list):
        return [_substituted(v, inputs) for v in node]
    if isinstance(node, str):
        return with_inputs(node, inputs, expression=key == "if")
    return node


def expand(job: dict, root_of: Callable[[str], Path] = lambda _: REPO) -> list[dict]:
    """The job's steps with each composite action a trusted job may run replaced by its steps (inputs
    substituted; every step, whatever its `if:`). Any other step is kept as it is."""
    out = []
    checkouts: dict[str, dict] = {}
    for step in job.get("steps") or []:
        uses = step.get("uses")
        if uses is not None:
            if uses.startswith("actions/checkout@"):
                given = step.get("with") or {}
                checkouts[str(given.get("path") or "").strip("/")] = given
            action, _ = resolve_action(uses, checkouts, root_of)
            if action is not None:
                out += action_steps(action, step)[0]
                continue
        out.append(step)
    return out


def job_problems(workflow: str, name: str, job: dict, root_of: Callable[[str], Path] = lambda _: REPO) -> list[str]:
    """Every way the trusted job `name` of `workflow` breaks the rules."""
    where = f"{workflow}:{name}"
    problems = []
    checkouts: dict[str, dict] = {}
    default = ((job.get("defaults") or {}).get("run") or {})
    allowed = ALLOWED_ACTIONS + JOB_ACTIONS.get((workflow, name), ())
    if default.get("shell", "bash") not in ("bash", "sh"):
        problems.append(f"{where}: runs its steps with the shell {default.get('shell')}")
    for index, step in enumerate(job.get("steps") or []):
        label = f"{where} step {index + 1} ({step.get('name') or step.get('uses') or 'run'})"
        uses = step.get("uses")
        if uses is not None:
            action, refused = resolve_action(str(uses), checkouts, root_of)
            if refused:
                problems.append(f"{label}: {refused}")
                continue
            if action is not None:
                inner, wrong = action_steps(action, step)
                problems += [f"{label}: {w}" for w in wrong]
                for number, one in enumerate(inner):
                    inner_label = f"{label} > action step {number + 1} ({one.get('name') or one.get('uses') or 'run'})"
                    if "uses" in one:
                        problems.append(f"{inner_label}: an action inside the action ({one['uses']})")
                        continue
                    if one.get("shell") not in ("bash", "sh"):
                        problems.append(f"{inner_label}: a composite step runs with the shell {one.get('shell')} "
                                        "(give `shell: bash`)")
                    problems += _run_problems(inner_label, one, checkouts, {})
                continue
            if not str(uses).startswith(allowed):
                problems.append(f"{label}: uses {uses}, not one of the pinned actions a trusted job may use")
            if str(uses).startswith("actions/checkout@"):
                given = step.get("with") or {}
                if given.get("persist-credentials") is not False:
                    problems.append(f"{label}: a checkout that persists its credentials in .git/config")
                path = str(given.get("path") or "").strip("/")
                if not path:
                    problems.append(f"{label}: a checkout at the workspace's root (give it a path of its own)")
                checkouts[path] = given
            continue
        if "run" not in step:
            continue
        if step.get("shell", default.get("shell", "bash")) not in ("bash", "sh"):
            problems.append(f"{label}: runs with the shell {step.get('shell')}")
        problems += _run_problems(label, step, checkouts, default)
    return problems


def _run_problems(label: str, step: dict, checkouts: Mapping[str, dict], default: dict) -> list[str]:
    problems = []
    directory = str(step.get("working-directory") or default.get("working-directory") or WORKSPACE)
    if any(name in directory for name in ACTION_PATH):
        problems.append(f"{label}: its working directory {directory} is the action's folder, a checkout's files")
    elif _inside(directory, list(checkouts)):
        problems.append(f"{label}: its working directory {directory} is a checkout")
    if "${{" in str(step.get("run")):
        problems.append(f"{label}: an expression inside its run (a value reaches a script through env: alone)")
    for words in commands(str(step.get("run"))):
        problems += [f"{label}: {p}" for p in python_problems(words)]
    return problems


_TOKEN = re.compile(r"\s*(?:(?P<string>'(?:[^']|'')*')|(?P<op>==|!=|&&|\|\||!|\(|\))"
                    r"|(?P<call>(?:always|success|failure|cancelled)\(\s*\))|(?P<bool>true|false)\b"
                    r"|(?P<name>[A-Za-z_][A-Za-z0-9_.-]*))")
_OPERATORS = {"==": "==", "!=": "!=", "&&": " and ", "||": " or ", "!": " not ", "(": "(", ")": ")"}


def evaluate(condition: str, values: Mapping[str, str], failed: bool = False) -> bool:
    """A step's `if:` as GitHub reads it, for the conditions the workflows and the action use: string literals,
    `==`, `!=`, `&&`, `||`, `!`, parentheses, the status functions and context names from `values` (a name not
    given raises KeyError, so nothing runs that the caller did not see). Without a status function a
    condition holds only while no earlier step failed (GitHub's implicit `success() &&`)."""
    text = condition.strip()
    if text.startswith("${{") and text.endswith("}}"):
        text = text[3:-2]
    python, status, position = [], False, 0
    while text[position:].strip():
        match = _TOKEN.match(text, position)
        if not match:
            raise ValueError(f"an expression this reading does not know: {condition!r}")
        position = match.end()
        if match["string"] is not None:
            python.append(repr(match["string"][1:-1].replace("''", "'")))
        elif match["op"]:
            python.append(_OPERATORS[match["op"]])
        elif match["call"]:
            status = True
            name = match["call"].split("(")[0]
            python.append(repr({"always": True, "success": not failed, "failure": failed, "cancelled": False}[name]))
        elif match["bool"]:
            python.append(repr(match["bool"] == "true"))
        else:
            if match["name"] not in values:
                raise KeyError(f"the test gives no value for {match['name']} (in `if: {condition}`)")
            python.append(repr(values[match["name"]]))
    held = bool(eval("".join(python), {"__builtins__": {}}))  # noqa: S307 - literals and operators alone
    return held if status else held and not failed


def applicable(steps: list[dict], values: Mapping[str, str] | None = None) -> list[dict]:
    """The steps that run when every step succeeds: each whose `if:` holds (a condition naming a context
    value not in `values` is kept, as one that may hold)."""
    out = []
    for step in steps:
        condition = step.get("if")
        try:
            if condition is not None and not evaluate(str(condition), values or {}):
                continue
        except KeyError:
            pass
        out.append(step)
    return out
