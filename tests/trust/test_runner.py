"""The runner harness itself (tests/trust/runner.py): a composite action's steps run as the runner runs them
(issue #33 item 2) — the step's `with:` substituted for `inputs.*`, GITHUB_ACTION_PATH the action's folder, a
step's GITHUB_OUTPUT lines read as `steps.<id>.outputs.<name>`, each `if:` evaluated, a failing
`continue-on-error` step failing nothing, and after a failure only the steps that ask for it."""

from __future__ import annotations

import os
import sys

from .runner import Layout, job_steps, run_steps
from .workflow import load

ACTION = """name: t
description: a composite action the harness runs
inputs:
  word: {description: a word, required: true}
  other: {description: another, default: fallback}
runs:
  using: composite
  steps:
    - id: first
      shell: bash
      working-directory: ${{ runner.temp }}
      env: {WORD: "${{ inputs.word }}", OTHER: "${{ inputs.other }}"}
      run: |
        echo "$WORD $OTHER $GITHUB_ACTION_PATH" > seen.txt
        echo "said=$WORD" >> "$GITHUB_OUTPUT"
    - if: inputs.word == 'never'
      shell: bash
      run: touch "$RUNNER_TEMP/skipped-ran"
    - continue-on-error: true
      shell: bash
      run: exit 3
    - shell: bash
      working-directory: ${{ runner.temp }}
      env: {SAID: "${{ steps.first.outputs.said }}"}
      run: |
        echo "$SAID" > said.txt
        exit 1
    - shell: bash
      run: touch "$RUNNER_TEMP/after-failure-ran"
    - if: ${{ !cancelled() && inputs.other == 'fallback' }}
      shell: bash
      run: touch "$RUNNER_TEMP/cleanup-ran"
"""
JOB = """jobs:
  a:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@11bd71901bbe5b1630ceea73d27597364c9af683 # v4.2.2
        with: {path: base, persist-credentials: false}
      - uses: ./base/.github/actions/t
        with: {word: hello}
"""


def test_a_composite_action_runs_as_the_runner_runs_it(tmp_path):
    layout = Layout.make(tmp_path / "runner", os.path.realpath(sys.executable))
    folder = layout.workspace / "base" / ".github" / "actions" / "t"
    folder.mkdir(parents=True)
    (folder / "action.yml").write_text(ACTION)
    (tmp_path / "w.yml").write_text(JOB)
    job = load(tmp_path / "w.yml")["jobs"]["a"]
    steps = [s for s in job_steps(job, layout) if "run" in s]
    assert len(steps) == 5  # the `if: inputs.word == 'never'` step is not this job's
    done = run_steps(job, steps, layout, {}, {"PATH": os.environ["PATH"]})
    assert [d.returncode for d in done] == [0, 3, 1, 0]
    assert (layout.temp / "seen.txt").read_text().split() == ["hello", "fallback", str(folder)]
    assert (layout.temp / "said.txt").read_text().strip() == "hello"
    assert not (layout.temp / "skipped-ran").exists() and not (layout.temp / "after-failure-ran").exists()
    assert (layout.temp / "cleanup-ran").exists()
