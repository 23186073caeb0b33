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
