"""Strange command lines: every command, given unknown options, missing arguments, empty strings,
'-', paths with spaces and accents, a folder where a file is expected, /dev/null, a binary
file, huge and negative numbers, answers with exit 0, 1 or 2 and a message, never a traceback."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from warband.cli import app

ROOT = Path(__file__).resolve().parents[1]
HUGE = "9" * 5000


@pytest.fixture(scope="module")
def odd(tmp_path_factory):
    """A folder of odd things to pass where a file is expected."""
    folder = tmp_path_factory.mktemp("odd")
    (folder / "with space é ü.yaml").write_bytes((ROOT / "warbands" / "the-family.yaml")
                                                 .read_bytes())
    (folder / "with space é ü.rules").write_bytes((ROOT / "tests" / "fate.rules").read_bytes())
    (folder / "binary.bin").write_bytes(bytes(range(256)) * 4)
    (folder / "empty").write_bytes(b"")
    (folder / "sub").mkdir()
    return folder


# Where a file is expected: (label, the argument; FOLDER stands for the odd folder).
PATHS = [
    ("empty", ""), ("dash", "-"), ("folder", "FOLDER/sub"), ("dev-null", "/dev/null"),
    ("binary", "FOLDER/binary.bin"), ("empty-file", "FOLDER/empty"),
    ("missing", "FOLDER/no such file.yaml"), ("spaces-unicode-yaml", "FOLDER/with space é ü.yaml"),
    ("spaces-unicode-rules", "FOLDER/with space é ü.rules"), ("option-like", "--"),
    ("huge", HUGE), ("negative", "-5"), ("right-to-left", "\u202ex.yaml"),
]

# Each command with a FILE placeholder where the odd path goes.
COMMANDS = {
    "rules check": ["rules", "check", "FILE"],
    "rules show": ["rules", "show", "FILE"],
    "rules diff base": ["rules", "diff", "FILE", "smart"],
    "rules diff house": ["rules", "diff", "smart", "FILE"],
    "validate": ["validate", "FILE"],
    "validate --ruleset": ["validate", "warbands/the-family.yaml", "--ruleset", "FILE"],
    "roster": ["roster", "FILE"],
    "roster --template": ["roster", "warbands/the-family.yaml", "--template", "FILE"],
    "schema": ["schema", "FILE"],
    "odds ruleset": ["odds", "FILE", "-a", "class=Soldier might=10", "-t",
                     "class=Soldier might=10", "--action", "shoot"],
    "odds fighter file": ["odds", "super-simple-skirmish", "-a", "FILE#Momma", "-t",
                          "class=Soldier might=10", "--action", "shoot"],
    "convert": ["convert", "FILE", "--to", "super-simple-skirmish"],
    "convert --to": ["convert", "warbands/greedy-dudes.yaml", "--to", "FILE"],
    "convert --using": ["convert", "warbands/greedy-dudes.yaml", "--to",
                        "super-simple-skirmish", "--using", "FILE"],
    "fmt --check": ["fmt", "--check", "FILE"],
    "fmt --diff": ["fmt", "--diff", "FILE"],
    "simulate": ["simulate", "FILE", "--games", "1"],
    "balance": ["balance", "FILE", "--games", "1", "--fit-games", "0", "--swap", "none"],
    "balance --fighters": ["balance", "super-simple-skirmish", "--fighters", "FILE"],
}

# Whole command lines that are odd in themselves.
LINES = [
    [], ["--help"], ["--version"], ["--nope"], ["nope"], ["rules"], ["rules", "nope"],
    ["rules", "list", "--format", "xml"], ["rules", "list", "--format", "json"],
    ["rules", "check"], ["rules", "check", "--strict", "--format", "json", "smart"],
    ["rules", "show", "smart", "extra"], ["rules", "diff", "smart"],
    ["validate"], ["validate", "--format", "nope", "warbands/the-family.yaml"],
    ["validate", "--format", "sarif", "FOLDER/binary.bin"],
    ["validate", "warbands/the-family.yaml", "warbands/the-family.yaml", "--strict"],
    ["roster"], ["roster", "warbands/the-family.yaml", "--format", "nope"],
    ["roster", "warbands/the-family.yaml", "--format", "pdf"],
    ["roster", "warbands/the-family.yaml", "-o"],
    ["schema", "smart", "extra"], ["schema", "--nope"],
    ["odds"], ["odds", "smart"], ["odds", "super-simple-skirmish", "-a", "", "--action", ""],
    ["odds", "super-simple-skirmish", "-a", "class=Soldier might=" + HUGE, "--action", "shoot"],
    ["odds", "super-simple-skirmish", "-a", "class=Soldier might=-5", "-t", "might=-1",
     "--action", "shoot"],
    ["odds", "super-simple-skirmish", "-a", "=", "-t", "==", "--action", "shoot", "--with",
     "=", "--with", "cover", "--policy", "=", "--policy", "", "--cover"],
    ["odds", "super-simple-skirmish", "-a", "class=Soldier", "--action", "shoot",
     "--policy", "nope=nope"],
    ["odds", "super-simple-skirmish", "-a", "class=Soldier", "--action", "shoot",
     "--format", "json", "--solve"],
    ["convert", "warbands/greedy-dudes.yaml"], ["convert", "--to", "smart"],
    ["fmt"], ["fmt", "--check", "--diff", "-"],
    ["simulate"], ["simulate", "x", "--games", HUGE], ["simulate", "x", "--games", "-1"],
    ["simulate", "x", "--seed", "-" + HUGE], ["simulate", "x", "--workers", "-1"],
    ["simulate", "x", "--workers", "auto", "--scheduler", "nope"],
    ["simulate", "x", "--max-rounds", "", "--chunk-size", "", "--replay", ""],
    ["simulate", "x", "--policy", "=", "--policy", "a=b", "--policy", "a=c"],
    ["simulate", "x", "--format", "yaml"],
    ["balance"], ["balance", "x", "--games", HUGE], ["balance", "smart", "--rounds", HUGE],
    ["balance", "super-simple-skirmish", "--rounds", "-1", "--action", "", "--policy", "="],
    ["balance", "sss-standard-game", "--swap", "=", "--swap", ":", "--games", "-1",
     "--fit-games", "", "--seed", "-" + HUGE, "--workers", "-1", "--chunk-size", "0"],
    ["balance", "super-simple-skirmish", "--format", "yaml"],
    ["balance", "super-simple-skirmish", "--format", "html"],
    # issue 19: -h, completion scripts by shell, --with a side
    ["-h"], ["rules", "-h"], ["rules", "check", "-h"], ["--show-completion"],
    ["--show-completion", "zsh"], ["--show-completion", "nope"], ["--show-completion", ""],
    ["--show-completion", "--version"],
    ["odds", "smart", "-a", "class=Infantry", "--action", "new_battle", "--with", "side=1"],
    ["odds", "swords-against-sorcery", "-a", "Training=3", "--action", "coin_flip"],
]


def _fill(args: list[str], folder: Path, path: str | None = None) -> list[str]:
    out = []
    for a in args:
        if "FILE" in a and path is not None:
            a = a.replace("FILE", path)
        out.append(a.replace("FOLDER", str(folder)))
    return out


def check(args: list[str]) -> None:
    result = CliRunner().invoke(app, args, input=b"")
    assert result.exception is None or isinstance(result.exception, SystemExit), (
        args, repr(result.exception), result.output[-2000:])
    assert result.exit_code in (0, 1, 2), (args, result.exit_code, result.output[-2000:])
    assert "Traceback" not in result.output, (args, result.output[-2000:])
    if result.exit_code == 2:   # an error says what it is
        assert result.stderr.strip() or result.stdout.strip(), args


@pytest.mark.parametrize("path", [p for _, p in PATHS], ids=[label for label, _ in PATHS])
@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_odd_paths_everywhere(command, path, odd, monkeypatch):
    monkeypatch.chdir(ROOT)
    check(_fill(COMMANDS[command], odd, path))


@pytest.mark.parametrize("line", LINES, ids=[" ".join(x)[:40] or "(nothing)" for x in LINES])
def test_odd_command_lines(line, odd, monkeypatch):
    monkeypatch.chdir(ROOT)
    check(_fill(line, odd))


@pytest.mark.parametrize("args, stdin", [
    (["rules", "check", "/dev/null"], b""), (["validate", "-"], b""), (["odds"], b""),
    (["validate", "-"], bytes(range(256))), (["fmt", "-"], bytes(range(256))),
    (["roster", "-"], b"\xff\xfe" + "name: X".encode("utf-16-le")),
    (["convert", "-", "--to", "smart"], b"[[[[[[[[[[[["),
    (["roster", "warbands/the-family.yaml", "--format", "nope"], b""),
    (["simulate", "x", "--games", HUGE], b""),
])
def test_a_real_process_prints_no_traceback(args, stdin):
    """The same through a real process (typer's own error handling, the real standard input)."""
    env = {**os.environ, "PYTHONPATH": str(ROOT / "toolkit"), "NO_COLOR": "1"}
    done = subprocess.run([sys.executable, "-m", "warband", *args], cwd=ROOT, env=env,
                          input=stdin, capture_output=True, timeout=120)
    assert done.returncode in (0, 1, 2), done
    assert b"Traceback" not in done.stdout + done.stderr, done.stderr.decode()[-2000:]
