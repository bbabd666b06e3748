"""`.pre-commit-hooks.yaml` holds what issue #33 item 3 says (docs/precommit.md): each hook's `files` pattern
against paths it must and must not match, applied with `re.search` as pre-commit applies it (check-jsonschema's
tests/acceptance/test_hook_file_matches.py, which uses fullmatch for its own patterns); the manifest as
pre-commit's own loader reads it; the file is the gate's; docs/precommit.md's one block names both hooks."""

from __future__ import annotations

import re

import pytest
import yaml
from pre_commit.clientlib import load_config, load_manifest

from judgment_exchange.repository.zone import GATE, is_gate_file, kind_of

from ..support.paths import REPO

HOOKS_FILE = REPO / ".pre-commit-hooks.yaml"
HOOK_IDS = ["exchange-check", "exchange-fix"]
PATTERN = r"^(entries/|manifest\.json$|skips\.json$|verifier-pin\.json$)"
ENTRIES = {"exchange-check": "exchange check --no-history", "exchange-fix": "exchange fix --check"}
SOURCE = "https://github.com/Judgment-Pack/judgment-pack-exchange"

MATCHING = ["entries/acme/x/entry.json", "entries/acme/x/fixtures/a/case.json", "entries/README.md",
            "manifest.json", "skips.json", "verifier-pin.json"]
"""A catalog's files: an entry's, the entries folder's README, the manifest, the acknowledgements, the pin."""

NOT_MATCHING = ["README.md", "docs/x.md", "xmanifest.json", "manifest.json.bak", "skips.json.orig",
                "tools/entries/x", "releases.json", "entries", "docs/demo-catalog/entries/a/b/entry.json",
                "docs/demo-catalog/manifest.json", "Manifest.json", ".pre-commit-hooks.yaml", "pyproject.toml"]
"""Near misses: documents, a name that ends or begins like a catalog file, a catalog file's name under another
folder (the demonstration catalog is not this catalog), the ledger (only `exchange release` writes it, and it
runs the gate itself), `entries` without its slash, another case."""


def _raw_hooks() -> dict[str, dict]:
    """The file as written, before pre-commit fills any default in."""
    return {hook["id"]: hook for hook in yaml.safe_load(HOOKS_FILE.read_text(encoding="utf-8"))}


@pytest.mark.parametrize("hook_id", HOOK_IDS)
@pytest.mark.parametrize("path", MATCHING)
def test_files_pattern_matches_a_catalogs_files(hook_id, path):
    assert re.search(_raw_hooks()[hook_id]["files"], path), f"{hook_id} does not run for {path}"


@pytest.mark.parametrize("hook_id", HOOK_IDS)
@pytest.mark.parametrize("path", NOT_MATCHING)
def test_files_pattern_does_not_match_other_paths(hook_id, path):
    assert not re.search(_raw_hooks()[hook_id]["files"], path), f"{hook_id} runs for {path}"


def test_pre_commit_loads_the_manifest_with_the_issues_values():
    hooks = load_manifest(str(HOOKS_FILE))  # pre-commit's own schema: an unknown key, a wrong type refused
    assert [hook["id"] for hook in hooks] == HOOK_IDS
    for hook in hooks:
        assert hook["entry"] == ENTRIES[hook["id"]]
        assert hook["language"] == "python"
        assert hook["pass_filenames"] is False
        assert hook["require_serial"] is True
        assert hook["files"] == PATTERN
        assert hook["minimum_pre_commit_version"] == "2.21.0"  # the reason is in the file's comment
        assert hook["name"].strip() and hook["description"].strip()
        assert hook["always_run"] is False and hook["args"] == [] and hook["additional_dependencies"] == []
        assert hook["exclude"] == "^$" and hook["stages"] == []  # every stage the user installs; nothing excluded


def test_the_minimum_version_is_the_one_the_comment_defends():
    text = HOOKS_FILE.read_text(encoding="utf-8")
    assert "# minimum_pre_commit_version 2.21.0:" in text
    assert text.count("minimum_pre_commit_version: 2.21.0") == len(HOOK_IDS)


def test_the_hooks_file_is_a_gate_file():
    """Every root path no list names is the gate's (repository/zone.py): a change to the hooks travels alone
    and the maintainers review it."""
    assert kind_of(".pre-commit-hooks.yaml") == GATE and is_gate_file(".pre-commit-hooks.yaml")


def documented_block() -> str:
    """docs/precommit.md's one block a catalog puts in its `.pre-commit-config.yaml`."""
    text = (REPO / "docs" / "precommit.md").read_text(encoding="utf-8")
    blocks = re.findall(r"^```yaml\n(repos:\n.*?)^```$", text, flags=re.M | re.S)
    assert len(blocks) == 1, "docs/precommit.md holds one configuration block starting `repos:`"
    return blocks[0]


def test_the_documented_block_is_a_valid_configuration_naming_both_hooks(tmp_path):
    config = tmp_path / ".pre-commit-config.yaml"
    config.write_text(documented_block(), encoding="utf-8")
    (repo,) = load_config(str(config))["repos"]
    assert repo["repo"] == SOURCE
    assert repo["rev"] == "gate/vX.Y.Z"  # a gate release, never a catalog release vX.Y.Z
    assert [hook["id"] for hook in repo["hooks"]] == HOOK_IDS


@pytest.mark.parametrize("document", ["README.md", "CONTRIBUTING.md"])
def test_readme_and_contributing_link_the_hooks_page(document):
    assert "](docs/precommit.md)" in (REPO / document).read_text(encoding="utf-8")
