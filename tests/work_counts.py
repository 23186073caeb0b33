"""Count the work of seeded games of every shipped scenario (run by tests/test_work_counts.py
in a fresh process, so nothing another test warmed or patched is counted).

    python tests/work_counts.py            prints the counts as JSON

The work of a game is the number of function calls it makes (Python's and built-in ones), as
cProfile counts them: unlike a time, the same code, seeds and Python give the same number on
any machine, however busy (a regression that made every game three times slower was three
times the calls). Compiling the rules and generating code are not a game's work: each scenario
is loaded, two games are played and every generated function made first, then GAMES seeded
games are counted.
"""

from __future__ import annotations

import cProfile
import json
import pstats
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

# (scenario, policy, games counted): random players in every shipped scenario; greedy ones,
# which think, in the two whose games are short
RUNS = [(path.stem, "random", 4) for path in sorted((ROOT / "scenarios").glob("*.rules"))] + [
    ("sss-standard-game", "greedy", 1), ("fogbound-drowned-market", "greedy", 1)]


def calls_per_game(scenario: str, policy: str, games: int) -> int:
    from warband.game.results import PlayRequest
    from warband.game.worker import loaded, play
    from warband.run.codegen import hooks
    from warband.run.interpreter import Interpreter
    request = PlayRequest(scenario, policies=(("*", policy),))
    for seed in (1000, 1001):   # warm: load, compile, generate what these games use
        play(request, seed)
    # and the rest: a procedure first run in a counted game would count its generation (the
    # generated code is made when first needed), and which games need which is chance
    ruleset = loaded(request).ruleset
    for uniform in (None, *hooks.UNIFORM):
        hooks.program_for(Interpreter(ruleset), uniform).complete()
    profile = cProfile.Profile()
    profile.enable()
    for seed in range(1, games + 1):
        play(request, seed)
    profile.disable()
    return round(pstats.Stats(profile).total_calls / games)


def main() -> None:
    counts = {f"{scenario} {policy}": calls_per_game(scenario, policy, games)
              for scenario, policy, games in RUNS}
    print(json.dumps({"python": "{}.{}".format(*sys.version_info[:2]), "calls per game": counts},
                     indent=2))


if __name__ == "__main__":
    main()
