"""What a file from a stranger may name: shipped rulesets by id, and files of its own kind by a
path relative to itself. Never an absolute path, another kind of file (a link to one included),
a device or a FIFO; so no excerpt of a secret ever reaches the output, and nothing hangs."""

from __future__ import annotations

import os
import threading
from pathlib import Path

import pytest
from typer.testing import CliRunner

from warband import catalog
from warband.cli import app

ROOT = Path(__file__).resolve().parents[1]
SECRET = "TOKEN=hunter2-very-secret"
FAMILY = (ROOT / "warbands" / "the-family.yaml").read_text(encoding="utf-8")


def run(*args: str):
    return CliRunner().invoke(app, list(args))


@pytest.fixture
def secret(tmp_path) -> Path:
    """A file that is not a rules file, one folder up from the shared files."""
    path = tmp_path / "secret.txt"
    path.write_text(f"{SECRET}\n", encoding="utf-8")
    (tmp_path / "shared").mkdir()
    return path


def _warband(folder: Path, ruleset: str) -> Path:
    path = folder / "band.yaml"
    path.write_text(FAMILY.replace("ruleset: super-simple-skirmish", f"ruleset: {ruleset}"),
                    encoding="utf-8")
    return path


def _refs(secret: Path) -> list[str]:
    link = secret.parent / "shared" / "link.rules"
    if not link.exists():
        link.symlink_to(secret)
    return [str(secret), "../secret.txt", "link.rules", "/proc/self/environ", "/dev/zero"]


def test_a_warband_names_only_rules_files_relative_to_itself(secret):
    for ref in _refs(secret):
        result = run("validate", str(_warband(secret.parent / "shared", ref)))
        assert result.exit_code == 2, (ref, result.output)
        assert "is not a rules file this warband may name" in result.output
        assert SECRET not in result.output and "PATH=" not in result.output


def test_a_rules_file_extends_only_rules_files_relative_to_itself(secret):
    for ref in _refs(secret):
        house = secret.parent / "shared" / "house.rules"
        house.write_text(f'ruleset "house"\n  extends "{ref}"\n', encoding="utf-8")
        result = run("rules", "check", str(house))
        assert result.exit_code == 1, (ref, result.output)
        assert "error[E435]" in result.output and "may extend" in result.output
        assert SECRET not in result.output and "PATH=" not in result.output


def test_a_conversion_names_only_rules_files(secret):
    for ref in _refs(secret):
        conv = secret.parent / "shared" / "conv.rules"
        conv.write_text('ruleset "conv"\n'
                        f'conversion (f) from "{ref}" to "super-simple-skirmish" {{ }}\n',
                        encoding="utf-8")
        result = run("rules", "check", str(conv))
        assert result.exit_code == 1, (ref, result.output)
        assert "error[E800]" in result.output
        assert SECRET not in result.output and "PATH=" not in result.output


def test_a_scenario_names_only_warband_files(secret):
    for ref in [str(secret), "../secret.txt", "/proc/self/environ", "/etc/passwd"]:
        scenario = secret.parent / "shared" / "game.rules"
        scenario.write_text(
            'ruleset "game"\n  extends "super-simple-skirmish"\n'
            'scenario game "A game" {\n  board 12 by 12 inches\n'
            f'  side a "A" from "{ref}"\n'
            '  side b "B" from "../../warbands/the-family.yaml"\n'
            '  round { }\n}\n', encoding="utf-8")
        result = run("play", str(scenario))
        assert result.exit_code == 2, (ref, result.output)
        assert "is not a warband file this scenario may name" in result.output
        assert SECRET not in result.output and "root:" not in result.output


def test_the_command_line_still_names_any_file(tmp_path):
    # the user's own choice: an absolute path to a rules file is fine there
    result = run("rules", "check", str(ROOT / "dsl" / "super-simple-skirmish.rules"))
    assert result.exit_code == 0


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs on this system")
def test_a_fifo_is_refused_not_waited_on(tmp_path):
    fifo = tmp_path / "base.rules"
    os.mkfifo(fifo)
    house = tmp_path / "house.rules"
    house.write_text('ruleset "house"\n  extends "base.rules"\n', encoding="utf-8")
    done: list = []
    worker = threading.Thread(target=lambda: done.append(run("rules", "check", str(house))),
                              daemon=True)
    worker.start()
    worker.join(20)
    if worker.is_alive():   # let the blocked reader go before failing
        with open(fifo, "wb"):
            pass
        pytest.fail("reading a FIFO named by a rules file hung")
    assert done[0].exit_code == 1
    assert isinstance(catalog.read_rules(fifo), catalog.Unreadable)


def _without_hanging(tmp_path: Path, fifo: Path, *args: str):
    """The command's result, or a failure if it waits on the FIFO (which is then let go)."""
    done: list = []
    worker = threading.Thread(target=lambda: done.append(run(*args)), daemon=True)
    worker.start()
    worker.join(30)
    if worker.is_alive():
        with open(fifo, "wb"):
            pass
        worker.join(10)
        pytest.fail(f"{' '.join(args)}: reading a FIFO a shared file names hung")
    return done[0]


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs on this system")
def test_a_fifo_a_scenario_names_as_a_side_is_refused_not_waited_on(tmp_path):
    """Issue 33, item 5: `side a from "fifo.yaml"` passed `rules check`, and `play` waited
    for ever on the FIFO. Every file a shared file names is read as a regular file only."""
    fifo = tmp_path / "fifo.yaml"
    os.mkfifo(fifo)
    (tmp_path / "family.yaml").write_text(FAMILY, encoding="utf-8")
    scenario = tmp_path / "game.rules"
    scenario.write_text(
        'ruleset "game"\n  extends "super-simple-skirmish"\n'
        'scenario game "A game" {\n  board 12 by 12 inches\n'
        '  side a "A" from "fifo.yaml"\n  side b "B" from "family.yaml"\n'
        '  round { }\n}\n', encoding="utf-8")
    result = _without_hanging(tmp_path, fifo, "play", str(scenario))
    assert result.exit_code == 2
    assert "fifo.yaml: not a regular file" in result.output
    assert "side 'a': fifo.yaml is not a valid warband file" in result.output


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs on this system")
def test_a_fifo_a_record_names_as_a_side_is_refused_not_waited_on(tmp_path, monkeypatch):
    """A game record's `"sides": {"family": "fifo.yaml"}` hung `play --replay` the same way."""
    import json
    monkeypatch.chdir(tmp_path)
    (tmp_path / "family.yaml").write_text(FAMILY, encoding="utf-8")
    made = run("play", "sss-standard-game", "--side", "family=family.yaml", "--format", "json")
    assert made.exit_code == 0, made.output
    record = json.loads(made.stdout)
    assert record["sides"] == {"family": "family.yaml"}
    record["sides"]["family"] = "fifo.yaml"
    os.mkfifo(tmp_path / "fifo.yaml")
    (tmp_path / "game.json").write_text(json.dumps(record), encoding="utf-8")
    result = _without_hanging(tmp_path, tmp_path / "fifo.yaml", "play", "--replay", "game.json")
    assert result.exit_code == 2
    assert "fifo.yaml: not a regular file" in result.output


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs on this system")
def test_a_pipe_given_on_the_command_line_is_still_read(tmp_path):
    """The command line is the user's own: `warband validate <(...)` reads the pipe."""
    fifo = tmp_path / "mine.yaml"
    os.mkfifo(fifo)
    writer = threading.Thread(target=lambda: fifo.write_text(FAMILY, encoding="utf-8"),
                              daemon=True)
    writer.start()
    result = run("validate", str(fifo))
    writer.join(10)
    assert result.exit_code == 0, result.output


def test_a_device_named_on_the_command_line_is_read_only_so_far():
    result = run("validate", "/dev/zero")
    assert result.exit_code == 1
    assert "error[E607]" in result.output


def test_a_name_no_file_can_have_is_refused_cleanly(tmp_path):
    # (following links to see what a name stands for raised ValueError on a NUL: a traceback)
    band = _warband(tmp_path, '"a\\0b.rules"')
    result = run("validate", str(band))
    assert result.exit_code == 2, result.output
    assert "is not a rules file this warband may name" in result.output
    assert catalog.read_rules(Path("a\0b.rules")).reason == "os"
