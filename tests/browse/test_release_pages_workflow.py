"""The release publishes its index (issue #18 item 3; docs/browse.md, "Published on release"): in
.github/workflows/release.yml a `pages` job after the release job builds `exchange index` for the tag and
deploys it to GitHub Pages, with `pages: write` and `id-token: write` on that job alone, its actions pinned
by commit and the gate installed as every trusted job installs it (tests/trust/workflow.py); the release job
attaches index.json to the release. Both build the index through the gate's action from the tagged commit's
own checkout (issue #33 item 2), whose steps are read through (`expand`, the step's inputs substituted).
The checker is a plain function, so the near-miss test shows it can fail."""

from __future__ import annotations

import copy
import shlex

from ruamel.yaml import YAML

from ..support.paths import REPO
from ..test_supply_chain import ACTION_PINS
from ..trust.workflow import applicable, expand, job_problems

WORKFLOW = REPO / ".github" / "workflows" / "release.yml"
INDEX = '"$RUNNER_TEMP/gate/bin/exchange" index "$CATALOG" "$TAG" --out site --address "$ADDRESS"'
ADDRESS = "${{ github.server_url }}/${{ github.repository }}"
PAGES_ACTIONS = ["actions/checkout", "actions/setup-python", "./catalog/.github/actions/gate",
                 "actions/configure-pages", "actions/upload-pages-artifact", "actions/deploy-pages"]


def _load() -> dict:
    return YAML(typ="safe", pure=True).load(WORKFLOW.read_text(encoding="utf-8"))


def _steps(job: dict) -> list[dict]:
    """The job's steps, the gate's action's among them (those this job's inputs run)."""
    return applicable(expand(job))


def _runs(job: dict) -> list[str]:
    return [step["run"].strip() for step in _steps(job) if "run" in step]


def _uses(job: dict) -> list[tuple[str, str]]:
    return [tuple((step["uses"].split("@", 1) + [""])[:2]) for step in job.get("steps", []) if "uses" in step]


def pages_problems(workflow: dict) -> list[str]:
    """Why the workflow does not publish the release's index as issue #18 item 3 says."""
    problems = []
    if workflow.get("permissions") not in ({}, None):
        problems.append(f"the workflow grants {workflow.get('permissions')} to every job: grant per job")
    jobs = workflow.get("jobs", {})
    release, pages = jobs.get("release", {}), jobs.get("pages")
    if release.get("permissions") != {"contents": "write"}:
        problems.append(f"the release job's permissions are {release.get('permissions')}, not contents: write alone")
    if pages is None:
        return problems + ["no pages job"]
    if pages.get("needs") not in ("release", ["release"]):
        problems.append("the pages job does not run after the release job (needs: release)")
    if pages.get("permissions") != {"contents": "read", "pages": "write", "id-token": "write"}:
        problems.append(f"the pages job's permissions are {pages.get('permissions')}")
    for name, job in jobs.items():
        granted = job.get("permissions") or {}
        if name != "pages" and ("pages" in granted or "id-token" in granted):
            problems.append(f"{name} is granted pages or id-token")
    if (pages.get("environment") or {}).get("name") != "github-pages":
        problems.append("the pages job does not deploy to the github-pages environment")
    if pages.get("env", {}).get("TAG") != "${{ github.ref_name }}":
        problems.append("the pages job does not take TAG from the pushed tag through env:")
    uses = _uses(pages)
    if [action for action, _ in uses] != PAGES_ACTIONS:
        problems.append(f"the pages job's actions are {[a for a, _ in uses]}, not {PAGES_ACTIONS}")
    for action, ref in uses:
        if action in ACTION_PINS and ref != ACTION_PINS[action][0]:
            problems.append(f"{action}@{ref} is not the pinned commit {ACTION_PINS[action][0]}")
    upload = next((s for s in pages.get("steps", []) if s.get("uses", "").startswith("actions/upload-pages-artifact@")),
                  {})
    if (upload.get("with") or {}).get("path") != "${{ runner.temp }}/site":
        problems.append("the uploaded artifact is not the index's directory, site")
    problems += [f"pages: {p}" for p in job_problems("release.yml", "pages", pages)]
    runs = _runs(pages)
    if not any(INDEX in run for run in runs):
        problems.append(f"the pages job does not run `{INDEX}`")
    else:
        steps = _steps(pages)
        built = next(i for i, s in enumerate(steps) if INDEX in s.get("run", ""))
        uploaded = next((i for i, s in enumerate(steps) if s is upload), -1)
        if uploaded < built:
            problems.append("the index is uploaded before it is built")
    for name, job in (("release", release), ("pages", pages)):  # the catalog's public address (issue #27)
        for step in _steps(job):
            if INDEX in step.get("run", "") and (step.get("env") or {}).get("ADDRESS") != ADDRESS:
                problems.append(f"the {name} job's index step does not take ADDRESS from the workflow's context")
    release_runs = _runs(release)
    indexed = [i for i, run in enumerate(release_runs) if INDEX in run]
    if not indexed:
        problems.append(f"the release job does not run `{INDEX}`")
    publish = [i for i, run in enumerate(release_runs) if run.startswith("gh release create")]
    if len(publish) != 1 or "site/index.json" not in shlex.split(release_runs[publish[0]]):
        problems.append("the release job does not attach site/index.json to the release")
    elif indexed and indexed[0] > publish[0]:
        problems.append("the release job builds the index after publishing the release")
    return problems


def test_the_release_publishes_its_index_with_the_pages_jobs_own_permissions():
    assert pages_problems(_load()) == []


def test_the_pages_check_refuses_near_misses():
    good = _load()
    assert pages_problems(good) == []

    def changed(edit) -> list[str]:
        workflow = copy.deepcopy(good)
        edit(workflow)
        return pages_problems(workflow)

    def step(workflow: dict, job: str, prefix: str) -> dict:
        return next(s for s in workflow["jobs"][job]["steps"] if prefix in s.get("uses", s.get("run", ""))[:200])

    near_misses = {
        "to every job": lambda w: w.update(permissions={"contents": "write", "pages": "write"}),
        "not contents: write alone": lambda w: w["jobs"]["release"]["permissions"].update({"pages": "write"}),
        "pages job's permissions": lambda w: w["jobs"]["pages"]["permissions"].update({"contents": "write"}),
        "after the release job": lambda w: w["jobs"]["pages"].pop("needs"),
        "github-pages environment": lambda w: w["jobs"]["pages"].pop("environment"),
        "is not the pinned commit": lambda w: step(w, "pages", "actions/deploy-pages@").update(
            uses="actions/deploy-pages@v4"),
        "the pages job's actions": lambda w: w["jobs"]["pages"]["steps"].pop(-1),
        "not the index's directory": lambda w: step(w, "pages", "actions/upload-pages-artifact@").update(
            {"with": {"path": "."}}),
        "pages: ": lambda w: step(w, "pages", "if ! [[").update(run="python -m pip install -e '.[test]'"),
        "the pages job does not run": lambda w: step(w, "pages", "./catalog/")["with"].update(job="sign-off"),
        "does not attach site/index.json": lambda w: step(w, "release", "gh release create").update(
            run='gh release create "$TAG" --verify-tag --notes-file notes.md manifest.json'),
        "the release job does not run": lambda w: w["jobs"]["release"]["steps"].remove(
            step(w, "release", "./catalog/")),
        "after publishing": lambda w: w["jobs"]["release"]["steps"].sort(
            key=lambda s: s.get("uses", "").startswith("./catalog/")),  # the action (and its index) moved last
        "no pages job": lambda w: w["jobs"].pop("pages"),
        "index step does not take ADDRESS": lambda w: step(w, "pages", "./catalog/")["with"].update(
            address="https://example.org/elsewhere"),
    }
    for words, edit in near_misses.items():
        problems = changed(edit)
        assert problems and any(words in p for p in problems), (words, problems)
