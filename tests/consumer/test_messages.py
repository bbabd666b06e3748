"""Messages for consumers (issue #10 item 8): no `None`, no empty fields, no exception class names, a
closed pipe ends quietly, exit statuses as shared/design/interfaces.md gives them (0/1/3/4)."""

from __future__ import annotations

import os
import re
import subprocess
import sys

from judgment_exchange.cli import main

CLASS_NAME = re.compile(r"\b[A-Z][A-Za-z]*(Error|Exception|Name|Object)\b")


def run(argv, capsys):
    rc = main(argv)
    out = capsys.readouterr()
    return rc, out.out, out.err


def test_closed_pipe_ends_quietly(releases):
    """`exchange release-check ... | head -0`: the reader is gone before anything is written."""
    for argv in (["release-check", releases.location, "v0.2.0", "--no-history"],
                 ["upgrade-diff", releases.location, "v0.2.0", "v0.3.0", "--no-history"]):
        proc = subprocess.Popen([sys.executable, "-m", "judgment_exchange", *argv], stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, env=os.environ | {"PYTHONUNBUFFERED": "0"})
        proc.stdout.close()  # the only read end: every write gets EPIPE
        err = proc.stderr.read().decode()
        rc = proc.wait()
        assert "Traceback" not in err and "BrokenPipe" not in err and "Exception ignored" not in err, err
        assert rc == 4, (argv, rc, err)


def test_an_open_pipe_still_gets_the_whole_report(releases):
    """The near-miss: a reader that stays gets every line and exit 0."""
    done = subprocess.run([sys.executable, "-m", "judgment_exchange", "release-check", releases.location, "v0.2.0",
                           "--no-history"], capture_output=True)
    assert done.returncode == 0 and done.stdout.decode().rstrip().splitlines()[-1] == "entry acme.vendors: pass"


def test_release_check_of_a_missing_tag_says_so_without_none(releases, capsys):
    rc, out, err = run(["release-check", releases.location, "v9.9.9"], capsys)
    assert rc == 1 and "None" not in out + err and ": :" not in out
    assert "not resolved to a commit" in out and "no tag v9.9.9" in out


def test_location_errors_name_no_exception_class(tmp_path, capsys):
    plain = tmp_path / "plain"
    plain.mkdir()
    afile = tmp_path / "afile"
    afile.write_text("x")
    for location in (plain, afile, tmp_path / "absent"):
        rc, out, err = run(["release-check", str(location), "v0.1.0"], capsys)
        assert rc == 4 and err.strip() and not out, location
        assert CLASS_NAME.search(err) is None and "None" not in err, err


def test_upgrade_diff_text_has_no_none_and_no_empty_fields(releases, capsys):
    releases.edit_entry(description="Added description.", upgrade=None)
    releases.release("v0.4.0")
    rc, out, err = run(["upgrade-diff", releases.location, "v0.3.0", "v0.4.0"], capsys)
    assert rc == 0 and "None" not in out and ": :" not in out and "description: absent -> Added description." in out
    rc, out, _ = run(["upgrade-diff", releases.location, "v0.3.0", "v0.2.0"], capsys)
    assert rc == 1 and "None" not in out and "refused upgrade-target-not-higher: v0.2.0" in out


def test_json_reports_carry_no_null_commit(releases, capsys):
    rc, out, _ = run(["release-check", releases.location, "v9.9.9", "--format", "json"], capsys)
    assert rc == 1 and '"commit"' not in out
    rc, out, _ = run(["upgrade-diff", releases.location, "v0.2.0", "v9.9.9", "--format", "json"], capsys)
    assert rc == 1 and '"commit": null' not in out


def test_an_unreadable_object_is_named_without_exception_class(releases, capsys):
    releases.catalog.drop_object("v0.2.0^{commit}:entries/acme")
    for argv in (["release-check", releases.location, "v0.2.0", "--no-history"],
                 ["upgrade-diff", releases.location, "v0.1.0", "v0.2.0", "--no-history"]):
        rc, out, err = run(argv, capsys)
        assert rc == 4 and "entries/acme" in err and "git fetch --tags" in err, err
        assert CLASS_NAME.search(err) is None, err
