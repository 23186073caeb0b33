"""Commands that write files (`roster -o`, `convert -o`, `fmt` in place) never lose a user's work:
they write atomically (a temporary file in the same folder, then one rename), never replace a
file without --force (fmt rewrites the files it was given: that is its job), and leave the
original byte for byte as it was on any error, an interrupt included, with no temporary file
left behind. An output that cannot be written is a clean error, exit 2."""

from __future__ import annotations

import os
import shutil
import stat
from pathlib import Path

import pytest
from typer.testing import CliRunner

from warband.cli import app
from warband.cli import output as output_module

ROOT = Path(__file__).resolve().parents[1]
OLD = b"# my own notes: do not lose them\n"


def run(*args: str):
    return CliRunner().invoke(app, list(args))


@pytest.fixture
def folder(tmp_path, monkeypatch):
    """A folder with a warband of each kind the writing commands take, and an older output."""
    shutil.copy(ROOT / "warbands" / "greedy-dudes.yaml", tmp_path / "sas.yaml")
    shutil.copy(ROOT / "tests" / "fmt_cases" / "messy.yaml", tmp_path / "messy.yaml")
    (tmp_path / "out.txt").write_bytes(OLD)
    monkeypatch.chdir(tmp_path)
    return tmp_path


# The three writing commands: (arguments, the file they write).
WRITERS = {
    "roster": (["roster", "sas.yaml", "--format", "markdown", "-o", "out.txt"], "out.txt"),
    "convert": (["convert", "sas.yaml", "--to", "super-simple-skirmish", "-o", "out.txt"],
                "out.txt"),
    "fmt": (["fmt", "messy.yaml"], "messy.yaml"),
}
FORCED = {name: (args + (["--force"] if name != "fmt" else []), target)
          for name, (args, target) in WRITERS.items()}


def leftovers(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.endswith(".tmp"))


@pytest.mark.parametrize("name", sorted(WRITERS))
def test_it_writes_what_it_should(folder, name):
    args, target = FORCED[name]
    before = (folder / target).read_bytes()
    result = run(*args)
    assert result.exit_code in (0, 1), result.output
    assert (folder / target).read_bytes() != before
    assert leftovers(folder) == []


@pytest.mark.parametrize("name", ["roster", "convert"])
def test_an_existing_file_is_never_replaced_without_force(folder, name):
    args, target = WRITERS[name]
    result = run(*args)
    assert result.exit_code == 2
    assert "exists; use --force to replace it" in result.stderr
    assert (folder / target).read_bytes() == OLD


@pytest.mark.parametrize("name", sorted(WRITERS))
@pytest.mark.parametrize("when", ["writing", "renaming"])
@pytest.mark.parametrize("what", [KeyboardInterrupt, OSError(28, "No space left on device")])
def test_an_interruption_or_error_while_writing_leaves_the_original(folder, monkeypatch,
                                                                    name, when, what):
    args, target = FORCED[name]
    before = (folder / target).read_bytes()

    def fail(*_args, **_kwargs):
        raise what

    if when == "writing":    # half the data is in the temporary file
        monkeypatch.setattr(output_module.os, "fsync", fail)
    else:
        monkeypatch.setattr(output_module.os, "replace", fail)
        monkeypatch.setattr(output_module.os, "link", fail)
    result = run(*args)
    assert (folder / target).read_bytes() == before
    assert leftovers(folder) == []
    assert "Traceback" not in result.output
    if what is KeyboardInterrupt:
        assert result.exit_code != 0            # click: "Aborted!"
    else:
        assert result.exit_code == 2
        assert "No space left on device" in result.stderr


@pytest.mark.parametrize("name, module, function", [
    ("roster", "warband.lists.render_roster", "render"),
    ("convert", "warband.lists.convert", "convert"),
    ("fmt", "warband.lists.fmt", "format_text"),
])
def test_a_failure_before_writing_leaves_the_original(folder, monkeypatch, name, module,
                                                      function):
    import importlib
    args, target = FORCED[name]
    before = (folder / target).read_bytes()

    def fail(*_args, **_kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(importlib.import_module(module), function, fail)
    result = run(*args)
    assert result.exit_code != 0
    assert (folder / target).read_bytes() == before
    assert leftovers(folder) == []


@pytest.mark.parametrize("name", ["roster", "convert"])
@pytest.mark.parametrize("out, message", [
    (".", "is a folder; give a file name"),
    ("no such folder/out.txt", "there is no folder no such folder"),
    ("", "the output path is empty"),
])
def test_outputs_that_cannot_be(folder, name, out, message):
    args, _ = FORCED[name]
    args = args[:args.index("-o") + 1] + [out] + args[args.index("-o") + 2:]
    result = run(*args)
    assert result.exit_code == 2, result.output
    assert message in result.stderr
    assert "Traceback" not in result.output
    assert leftovers(folder) == []


@pytest.mark.parametrize("name", sorted(WRITERS))
def test_a_folder_that_cannot_be_written(folder, monkeypatch, name):
    """A read-only folder, as the file system reports it (tests may run as root, who may write
    anywhere: the refusal is simulated where the temporary file is made)."""
    args, target = FORCED[name]
    before = (folder / target).read_bytes()

    def refuse(*_args, **_kwargs):
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(output_module.tempfile, "mkstemp", refuse)
    result = run(*args)
    assert result.exit_code == 2, result.output
    assert "Permission denied" in result.stderr
    assert (folder / target).read_bytes() == before


@pytest.mark.skipif(hasattr(os, "geteuid") and os.geteuid() == 0,
                    reason="root may write into a read-only folder")
@pytest.mark.parametrize("name", sorted(WRITERS))
def test_a_real_read_only_folder(folder, name):
    args, target = FORCED[name]
    before = (folder / target).read_bytes()
    folder.chmod(0o555)
    try:
        result = run(*args)
    finally:
        folder.chmod(0o755)
    assert result.exit_code == 2, result.output
    assert (folder / target).read_bytes() == before


def test_fmt_keeps_the_file_permissions(folder):
    (folder / "messy.yaml").chmod(0o640)
    assert run("fmt", "messy.yaml").exit_code == 0
    assert stat.S_IMODE((folder / "messy.yaml").stat().st_mode) == 0o640


def test_fmt_leaves_a_file_that_does_not_load_alone(folder):
    (folder / "broken.yaml").write_bytes(b"name: [unclosed\n")
    result = run("fmt", "broken.yaml", "messy.yaml")
    assert result.exit_code == 2
    assert (folder / "broken.yaml").read_bytes() == b"name: [unclosed\n"
    assert "reformatted messy.yaml" in result.stderr      # the others are still formatted
