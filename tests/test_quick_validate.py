"""`warband validate` by its quick path (cli/quick.py: no typer, for the command's start-up)
prints and exits exactly as the full command line does, for every plain command line, and
leaves every other one to it (issue 32, E23)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from warband.cli.quick import plain

ROOT = Path(__file__).resolve().parents[1]
FAMILY = "warbands/the-family.yaml"
BROKEN = "tests/warband_errors/common_share.yaml"

COMMAND_LINES = [
    ["validate", FAMILY],
    ["validate", FAMILY, BROKEN],
    ["validate", "--format", "json", FAMILY, BROKEN],
    ["validate", "--format=github", BROKEN],
    ["validate", BROKEN, "--format", "sarif"],
    ["validate", "--strict", FAMILY],
    ["validate", "missing.yaml"],
    ["validate", "--ruleset", "super-simple-skirmish", FAMILY],
    ["validate", "--ruleset=smart", FAMILY],
    ["validate", "-", "--format", "json"],
    ["validate", "--format", "json", "--format", "text", FAMILY],   # the last one counts
]
NOT_PLAIN = [
    ["validate"], ["validate", "--help"], ["validate", "-h"], ["validate", "--format", "xml", FAMILY],
    ["validate", "--formt", "json", FAMILY], ["validate", "--", FAMILY], ["validate", "--format"],
    ["validate", "--ruleset", "--strict", FAMILY], ["roster", FAMILY], [],
]


def _run(argv: list[str], quick: bool) -> tuple[int, str, str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT / "toolkit"), "NO_COLOR": "1",
           "WARBAND_QUICK": "1" if quick else "0"}
    done = subprocess.run([sys.executable, "-m", "warband", *argv], capture_output=True,
                          text=True, cwd=ROOT, env=env, timeout=120,
                          input=(ROOT / FAMILY).read_text())
    return done.returncode, done.stdout, done.stderr


@pytest.mark.parametrize("argv", COMMAND_LINES, ids=" ".join)
def test_the_quick_path_prints_and_exits_as_the_command_line(argv):
    assert plain(argv) is not None
    assert _run(argv, True) == _run(argv, False)


@pytest.mark.parametrize("argv", NOT_PLAIN, ids=" ".join)
def test_anything_else_is_left_to_the_command_line(argv):
    assert plain(argv) is None


def test_the_quick_path_loads_no_command_line_machinery():
    code = ("import sys\nfrom warband.cli import main\nsys.argv = ['warband', 'validate', "
            f"{FAMILY!r}]\ntry:\n    main()\nexcept SystemExit:\n    pass\n"
            "assert not any(m.split('.')[0] in ('typer', 'click', 'rich') for m in sys.modules), "
            "sorted(m for m in sys.modules if m.split('.')[0] in ('typer', 'click', 'rich'))\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT,
                          env={**os.environ, "PYTHONPATH": str(ROOT / "toolkit")}, timeout=120)
    assert done.returncode == 0, done.stderr
