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


# ---- what a name stands for: links, owners, read-only files, files changed meanwhile, devices --

def formatted(folder: Path) -> bytes:
    """What fmt makes of messy.yaml (formatted in a copy)."""
    shutil.copy(folder / "messy.yaml", folder / "copy.yaml")
    assert run("fmt", "copy.yaml").exit_code == 0
    text = (folder / "copy.yaml").read_bytes()
    (folder / "copy.yaml").unlink()
    return text


def test_fmt_on_a_symlink_formats_its_target_and_keeps_the_link(folder):
    want = formatted(folder)
    (folder / "real").mkdir()
    (folder / "messy.yaml").rename(folder / "real" / "messy.yaml")
    (folder / "link.yaml").symlink_to(Path("real") / "messy.yaml")
    result = run("fmt", "link.yaml")
    assert result.exit_code == 0, result.output
    assert (folder / "link.yaml").is_symlink()
    assert (folder / "real" / "messy.yaml").read_bytes() == want
    assert leftovers(folder) == [] and leftovers(folder / "real") == []


def test_fmt_on_a_hard_link_is_refused_without_force_and_written_in_place_with_it(folder):
    want = formatted(folder)
    before = (folder / "messy.yaml").read_bytes()
    os.link(folder / "messy.yaml", folder / "other-name.yaml")
    result = run("fmt", "messy.yaml")
    assert result.exit_code == 2
    assert "has 2 names (hard links)" in result.stderr and "--force" in result.stderr
    assert (folder / "messy.yaml").read_bytes() == before
    result = run("fmt", "--force", "messy.yaml")
    assert result.exit_code == 0, result.output
    assert (folder / "other-name.yaml").read_bytes() == want       # still one file
    assert (folder / "messy.yaml").stat().st_ino == (folder / "other-name.yaml").stat().st_ino
    assert leftovers(folder) == []


def test_an_in_place_write_that_fails_puts_the_original_back(folder, monkeypatch):
    before = (folder / "messy.yaml").read_bytes()
    os.link(folder / "messy.yaml", folder / "other-name.yaml")
    real = os.fsync

    def full(fd):
        if os.fstat(fd).st_ino == (folder / "messy.yaml").stat().st_ino and \
                os.fstat(fd).st_size != len(before):
            raise OSError(28, "No space left on device")
        return real(fd)

    monkeypatch.setattr(output_module.os, "fsync", full)
    result = run("fmt", "--force", "messy.yaml")
    assert result.exit_code == 2
    assert "No space left on device" in result.stderr
    assert (folder / "other-name.yaml").read_bytes() == before


def test_fmt_refuses_a_read_only_file_without_force(folder):
    want = formatted(folder)
    before = (folder / "messy.yaml").read_bytes()
    (folder / "messy.yaml").chmod(0o444)
    result = run("fmt", "messy.yaml")
    assert result.exit_code == 2
    assert "messy.yaml is read-only" in result.stderr and "--force" in result.stderr
    assert (folder / "messy.yaml").read_bytes() == before
    result = run("fmt", "--force", "messy.yaml")
    assert result.exit_code == 0, result.output
    assert (folder / "messy.yaml").read_bytes() == want
    assert stat.S_IMODE((folder / "messy.yaml").stat().st_mode) == 0o444


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() != 0, reason="needs root")
def test_fmt_as_root_keeps_the_owner_and_group(folder):
    os.chown(folder / "messy.yaml", 4321, 4322)
    assert run("fmt", "messy.yaml").exit_code == 0
    info = (folder / "messy.yaml").stat()
    assert (info.st_uid, info.st_gid) == (4321, 4322)


def test_another_users_file_is_refused_without_force(folder, monkeypatch):
    """As a user who could not give a new file the owner of the old one (simulated: the tests
    may run as root)."""
    before = (folder / "messy.yaml").read_bytes()
    monkeypatch.setattr(output_module, "_may_own", lambda info: False)
    result = run("fmt", "messy.yaml")
    assert result.exit_code == 2
    assert "belongs to another user or group" in result.stderr
    assert (folder / "messy.yaml").read_bytes() == before
    ino = (folder / "messy.yaml").stat().st_ino
    assert run("fmt", "--force", "messy.yaml").exit_code == 0
    assert (folder / "messy.yaml").stat().st_ino == ino        # in place
    assert (folder / "messy.yaml").read_bytes() != before


@pytest.mark.parametrize("when", ["formatting", "writing"])
def test_fmt_leaves_a_file_changed_while_it_worked(folder, monkeypatch, when):
    """An edit saved while fmt formatted the file, or while it wrote the new one, is kept."""
    import warband.lists.fmt as fmt_module
    edit = b"# saved meanwhile\n" + (folder / "messy.yaml").read_bytes()
    if when == "formatting":
        real = fmt_module.format_text

        def format_and_edit(*args, **kwargs):
            (folder / "messy.yaml").write_bytes(edit)
            return real(*args, **kwargs)
        monkeypatch.setattr(fmt_module, "format_text", format_and_edit)
    else:
        real_fsync = os.fsync

        def edit_while_writing(fd):
            (folder / "messy.yaml").write_bytes(edit)
            return real_fsync(fd)
        monkeypatch.setattr(output_module.os, "fsync", edit_while_writing)
    result = run("fmt", "messy.yaml")
    assert result.exit_code == 2, result.output
    assert "messy.yaml changed after it was read; it is left as it is" in result.stderr
    assert (folder / "messy.yaml").read_bytes() == edit
    assert leftovers(folder) == []


@pytest.fixture
def never_replace(monkeypatch):
    """A device must never be replaced: should the code try, the test fails instead of (as
    root) turning /dev/null into a regular file."""
    def refuse(*args, **_kwargs):
        raise AssertionError(f"tried to replace or link {args}")
    monkeypatch.setattr(output_module.os, "replace", refuse)
    monkeypatch.setattr(output_module.os, "link", refuse)


DEVICE_WRITERS = {
    "roster": ["roster", "sas.yaml", "--format", "markdown", "-o", "DEVICE", "--force"],
    "convert": ["convert", "sas.yaml", "--to", "super-simple-skirmish", "-o", "DEVICE",
                "--force"],
    "play": ["play", "sss-standard-game", "--seed", "1", "--max-rounds", "1", "-o", "DEVICE",
             "--force"],
}


@pytest.mark.skipif(not os.path.exists("/dev/null"), reason="POSIX devices")
@pytest.mark.parametrize("name", sorted(DEVICE_WRITERS))
def test_output_to_dev_null_is_written_in_place(folder, never_replace, name):
    result = run(*[a.replace("DEVICE", "/dev/null") for a in DEVICE_WRITERS[name]])
    assert result.exit_code in (0, 1), result.output
    assert stat.S_ISCHR(os.stat("/dev/null").st_mode)
    assert leftovers(folder) == []


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="Linux's /dev/full")
@pytest.mark.parametrize("name", sorted(DEVICE_WRITERS))
def test_output_to_a_full_device_is_a_clean_error(folder, never_replace, name):
    """As root, `play -o /dev/full --force` used to turn /dev/full into a regular file."""
    result = run(*[a.replace("DEVICE", "/dev/full") for a in DEVICE_WRITERS[name]])
    assert result.exit_code == 2, result.output
    assert "cannot write /dev/full: No space left on device" in result.stderr
    assert stat.S_ISCHR(os.stat("/dev/full").st_mode)


def test_a_socket_is_refused_before_any_work(folder, never_replace):
    import socket
    where = socket.socket(socket.AF_UNIX)
    try:
        where.bind("sock")
        result = run("roster", "sas.yaml", "-o", "sock", "--force")
    finally:
        where.close()
    assert result.exit_code == 2
    assert "is not a regular file, a device such as /dev/null or a FIFO" in result.stderr
    assert stat.S_ISSOCK(os.stat(folder / "sock").st_mode)


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="POSIX FIFOs")
def test_output_to_a_fifo_is_written_into_it_not_over_it(folder, never_replace):
    import threading
    os.mkfifo(folder / "pipe")
    result = run("roster", "sas.yaml", "--format", "markdown", "-o", "pipe")
    assert result.exit_code == 2 and "pipe exists; use --force" in result.stderr
    result = run("roster", "sas.yaml", "--format", "markdown", "-o", "pipe", "--force")
    assert result.exit_code == 2
    assert "no program is reading from that FIFO" in result.stderr       # and no hang
    received: list[bytes] = []
    reader = threading.Thread(target=lambda: received.append((folder / "pipe").read_bytes()))
    reader.start()
    try:
        for _ in range(100):          # until the reader has opened its end
            result = run("roster", "sas.yaml", "--format", "markdown", "-o", "pipe", "--force")
            if result.exit_code != 2:
                break
    finally:
        if reader.is_alive() and result.exit_code == 2:
            with open(folder / "pipe", "wb"):
                pass
        reader.join(5)
    assert result.exit_code in (0, 1), result.output
    assert received and received[0].startswith(b"#")
    assert stat.S_ISFIFO(os.stat(folder / "pipe").st_mode)
    assert leftovers(folder) == []


def test_output_through_a_symlink_writes_its_target(folder):
    (folder / "link.txt").symlink_to("out.txt")
    result = run("roster", "sas.yaml", "--format", "markdown", "-o", "link.txt", "--force")
    assert result.exit_code in (0, 1), result.output
    assert (folder / "link.txt").is_symlink()
    assert (folder / "out.txt").read_bytes() != OLD
    assert leftovers(folder) == []
