"""The guard against a change that slows every game unnoticed: the work of seeded games of each
shipped scenario (function calls, counted by tests/work_counts.py: deterministic, unlike a
time) is checked against tests/work_counts.json, within TOLERANCE either way.

Slower beyond it fails: find what costs more (benchmarks/bench_games.py --against REF). Faster
beyond it fails too, so the baseline stays tight enough to catch the next slowdown: record the
new counts with `pytest --update-goldens` (or WARBAND_UPDATE_GOLDENS=1) and say why in the
commit. A five-line change that made Super Simple Skirmish's random games 2.7 times slower
(every action completed the whole generated program) made 5.7 times the calls.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
BASELINE = HERE / "work_counts.json"
TOLERANCE = 0.10


@pytest.fixture(scope="module")
def measured() -> dict:
    done = subprocess.run([sys.executable, str(HERE / "work_counts.py")], capture_output=True,
                          text=True, check=True, env={**os.environ, "PYTHONHASHSEED": "0"})
    return json.loads(done.stdout)


def test_games_do_no_more_work_than_recorded(measured, request):
    update = request.config.getoption("--update-goldens") or os.environ.get(
        "WARBAND_UPDATE_GOLDENS") == "1"
    if update or not BASELINE.exists():
        BASELINE.write_text(json.dumps(measured, indent=2) + "\n", encoding="utf-8")
        if not update:
            pytest.fail("tests/work_counts.json was missing and has been written: review it")
        return
    recorded = json.loads(BASELINE.read_text(encoding="utf-8"))
    if recorded["python"] != measured["python"]:
        pytest.skip(f"the work counts were recorded on Python {recorded['python']}, this is "
                    f"{measured['python']} (calls differ between versions): record them anew "
                    "with --update-goldens")
    now, before = measured["calls per game"], recorded["calls per game"]
    assert set(now) == set(before), "the games counted changed: --update-goldens"
    off = {name: f"{before[name]:,} -> {now[name]:,} calls a game "
                 f"({now[name] / before[name] - 1:+.0%})"
           for name in now if abs(now[name] / before[name] - 1) > TOLERANCE}
    assert not off, ("games do other work than recorded (slower: find why; faster: record "
                     "the new counts with --update-goldens):\n  " + "\n  ".join(
                         f"{name}: {text}" for name, text in off.items()))


def test_a_program_is_completed_once(monkeypatch):
    """Reading what fell back generates the whole program once; running rules never does."""
    from warband.lang.compiler import compile_text
    from warband.run.codegen.program import Program
    from warband.run.interpreter import Interpreter
    text = (ROOT / "dsl" / "super-simple-skirmish.rules").read_text(encoding="utf-8")
    sss = compile_text(text, "sss.rules").ruleset   # (its own: no other test's program)
    walks = []
    original = Program.requirement
    monkeypatch.setattr(Program, "requirement",
                        lambda self, name: walks.append(name) or original(self, name))
    program = Program(sss, Interpreter(sss))
    for _ in range(3):
        assert program.fallbacks is not None and program.entries and program.requires is not None
    assert sorted(walks) == sorted(sss.procedures)


def test_games_never_complete_a_program(monkeypatch):
    from warband.game.results import PlayRequest
    from warband.game.worker import play
    from warband.run.codegen.program import Program

    def refuse(self):
        raise AssertionError("a game generated the whole program")
    monkeypatch.setattr(Program, "complete", refuse)
    for policy in ("random", "first"):
        for seed in (1, 2):
            play(PlayRequest("sss-standard-game", policies=(("*", policy),)), seed)
