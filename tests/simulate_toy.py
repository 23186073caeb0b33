"""A toy game engine for the simulator's tests: deterministic in its seed, quick, importable by
worker processes (spawned, or on a Dask worker) because it is a module of its own.

It has the real engine's interface: `play(request, seed) -> GameResult`, `objectives(request)`,
and a per-process cache of the "compiled" scenario. Scenario names drive its behaviour:
"skirmish" plays normally; "explodes" raises for seeds divisible by 5; "dies" kills a worker
process (never the test's own); "nonsense" returns something that is not a GameResult;
"strangers" names a side the game does not have; "slow" takes 50 ms a game; "unknown" raises
an error carrying diagnostics, as the engine does for a scenario it cannot load.
"""

from __future__ import annotations

import functools
import multiprocessing
import os
import random
import time

from warband.diagnostics import Sources, Span, diag
from warband.game.results import GameResult, PlayRequest

SIDES = ("Red", "Blue")
CLASSES = ("Archer", "Spearman")
OBJECTIVES = ("loot", "hill", "banner")     # the toy never scores "banner"
PREPARED: list[PlayRequest] = []            # what this process compiled, in order


class ScenarioNotFound(Exception):
    def __init__(self, scenario: str):
        super().__init__(f"no scenario '{scenario}'")
        self.diagnostics = (diag("E404", f"unknown scenario '{scenario}'",
                                 Span("SCENARIO", 1, 1, 1, len(scenario) + 1),
                                 hint="did you mean 'skirmish'?"),)
        self.sources = Sources({"SCENARIO": scenario})


@functools.lru_cache(maxsize=4)
def prepare(request: PlayRequest) -> dict:
    """Stands for loading and compiling the scenario: once per process and request."""
    if request.scenario == "unknown":
        raise ScenarioNotFound(request.scenario)
    PREPARED.append(request)
    return {"limit": request.max_rounds or 8, "greedy": {n for n, p in request.policies
                                                         if p == "greedy"}}


def objectives(request: PlayRequest) -> tuple[str, ...]:
    prepare(request)   # as the real engine would: it must load the scenario to know them
    return OBJECTIVES


def play(request: PlayRequest, seed: int) -> GameResult:
    scenario = prepare(request)
    if request.scenario == "explodes" and seed % 5 == 0:
        raise ZeroDivisionError("the toy divided by zero")
    if request.scenario == "dies" and multiprocessing.current_process().name != "MainProcess":
        os._exit(3)
    if request.scenario == "slow":
        time.sleep(0.05)
    if request.scenario == "nonsense":
        return {"winner": "Red"}
    if request.scenario == "strangers":
        return GameResult(seed, SIDES, "Green", {"Red": 1.0}, 1, "condition")
    rng = random.Random(seed)
    rounds = rng.randint(1, scenario["limit"])
    scores = {s: float(rng.randint(0, 6) + (1.5 if s in scenario["greedy"] else 0))
              for s in SIDES}
    kills = {s: {c: n for c in CLASSES if (n := rng.randint(0, 2))} for s in SIDES}
    best = max(scores.values())
    leaders = [s for s in SIDES if scores[s] == best]
    stuck = rng.random() < 0.03
    ended = "stuck" if stuck else rng.choice(("limit", "limit", "condition", "conceded"))
    scored = frozenset(o for o in OBJECTIVES[:2] if rng.random() < 0.5)
    return GameResult(seed=seed, sides=SIDES, winner=leaders[0] if len(leaders) == 1 else None,
                      scores=scores, rounds=rounds, ended=ended, kills=kills, scored=scored,
                      stuck="Blue had no legal action" if stuck else None)
