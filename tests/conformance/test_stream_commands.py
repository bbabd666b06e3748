"""Issue #35 item 6: a hostile kit copy cannot make git write or read a file outside the case's repository. The
stream reader refuses every fast-import command that names one — `option`, `feature export-marks`, `import-marks`,
`import-marks-if-exists`, `relative-marks`, `no-relative-marks` — as a kit integrity error (exit 4), before git
reads the stream; the same words inside a data block are data, not commands."""

from __future__ import annotations

import json
import shutil

import pytest

from judgment_exchange.conformance.rebuild import KitError, rebuild, refuse_outside_files, sha256
from judgment_exchange.conformance.runner import DEFAULT_KIT

from .test_runner import exchange

CASE = "release-empty-manifest"


def stream_of(name: str = CASE) -> bytes:
    document = json.loads((DEFAULT_KIT / "cases.json").read_text(encoding="utf-8"))
    case = next(c for c in document["cases"] if c["name"] == name)
    return (DEFAULT_KIT / case["stream"]["path"]).read_bytes()


def commands(path: str) -> list[bytes]:
    return [b"option git export-pack-edges=" + path.encode(), b"option git --export-marks=" + path.encode(),
            b"feature export-marks=" + path.encode(), b"feature import-marks=" + path.encode(),
            b"feature import-marks-if-exists=" + path.encode(), b"feature relative-marks",
            b"feature no-relative-marks"]


@pytest.mark.parametrize("index", range(7), ids=["option-export-pack-edges", "option-export-marks",
                                                 "feature-export-marks", "feature-import-marks",
                                                 "feature-import-marks-if-exists", "feature-relative-marks",
                                                 "feature-no-relative-marks"])
def test_each_command_naming_an_outside_file_is_a_kit_error_and_writes_nothing(tmp_path, index):
    outside = tmp_path / "outside" / "written"
    outside.parent.mkdir()
    command = commands(str(outside))[index]
    stream = command + b"\n" + stream_of()
    with pytest.raises(KitError, match="outside the repository"):
        rebuild(stream, [], tmp_path / "catalog")
    assert not outside.exists() and not (tmp_path / "catalog").exists()


def test_the_same_words_inside_a_data_block_are_data():
    text = b"option git export-pack-edges=/tmp/x\nfeature export-marks=/tmp/y\n"
    stream = b"blob\nmark :1\ndata %d\n" % len(text) + text + b"\n" + b"blob\nmark :2\ndata <<END\n" + text + b"END\n"
    refuse_outside_files(stream + b"done\n")


def test_every_stored_stream_reads_clean():
    for stream in DEFAULT_KIT.glob("*.fi"):
        refuse_outside_files(stream.read_bytes())


def test_a_kit_copy_whose_stream_gives_an_option_is_a_kit_error_exit_4(tmp_path):
    """The runner's path end to end: a copy of the kit with `option git export-pack-edges=PATH` at the head of one
    stream, its sha256 pinned anew in the copy's cases.json (a hostile copy pins its own bytes): exit 4, a kit
    error on that case's row, and no file at PATH."""
    kit = tmp_path / "kit"
    shutil.copytree(DEFAULT_KIT, kit)
    outside = tmp_path / "edges"
    document = json.loads((kit / "cases.json").read_text(encoding="utf-8"))
    case = next(c for c in document["cases"] if c["name"] == CASE)
    stream = (b"option git export-pack-edges=" + str(outside).encode() + b"\n"
              + (kit / case["stream"]["path"]).read_bytes())
    (kit / case["stream"]["path"]).write_bytes(stream)
    case["stream"]["sha256"] = sha256(stream)
    (kit / "cases.json").write_text(json.dumps(document, indent=1) + "\n", encoding="utf-8")
    done = exchange("run", "--kit", str(kit), "--case", CASE, cwd=tmp_path)
    assert done.returncode == 4, done.stdout + done.stderr
    assert "kit error" in done.stdout + done.stderr and "outside the repository" in done.stdout + done.stderr
    assert not outside.exists()


# --- issue #35 item 3: a large file described, not stored ----------------------------------------------------

def test_a_blob_generated_step_makes_its_pinned_blob_and_nothing_else(tmp_path):
    from judgment_exchange.conformance.rebuild import generated

    document = json.loads((DEFAULT_KIT / "cases.json").read_text(encoding="utf-8"))
    steps = [s for c in document["cases"] for s in c["steps"] if s["op"] == "blob-generated"]
    sizes = {s["size"] for s in steps}
    assert {1048576, 1048577} <= sizes and max(sizes) > 16_000_000  # the manifests, and fixture-over-bound's file
    for step in steps:
        data = generated(step)
        assert len(data) == step["size"] and data.startswith(step["head"].encode("utf-8"))
    wrong = dict(steps[0], object="0" * 40)
    with pytest.raises(KitError, match="not the pinned"):
        rebuild(b"done\n", [wrong], tmp_path / "catalog")
    with pytest.raises(KitError, match="out of its form"):
        generated(dict(steps[0], size=len(steps[0]["head"].encode()) - 1))


def test_the_kit_stores_no_generated_file():
    """The streams stay small: no stream holds a run of a megabyte of spaces."""
    for stream in DEFAULT_KIT.glob("*.fi"):
        assert b" " * (1024 * 1024) not in stream.read_bytes(), stream.name
