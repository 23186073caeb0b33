"""Benchmark: full games per second for each shipped scenario, on one worker and on all cores.

Run by hand (not a test):
    python benchmarks/bench_games.py [--games N] [--scenario ID ...] [--policy greedy]

For each scenario in scenarios/ it plays N games with random players (or greedy or first ones,
with --policy: greedy players think, and play far fewer games) through `warband.simulate`
(the code `warband simulate` runs): once with one worker in this process, once with every core
(local processes). It prints games per second, the ratio of the one-worker figure to the
issue's target (200 full games per second per core), and the speed-up of all cores over one,
both measured in the same run. Scenario loading is not timed (the first game of each run pays
for it on every worker); CPU time would hide the processes' work, so wall time is used.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "toolkit"))

TARGET = 200.0   # full games per second per core


def games_per_second(scenario: str, games: int, workers: int, seed: int = 1,
                     policy: str = "random") -> float:
    from warband.game import play
    from warband.results import PlayRequest
    from warband.simulate import simulate
    request = PlayRequest(scenario, policies=(("*", policy),))
    warm = min(games, 20 if policy == "random" else 2)
    simulate(request, warm, seed + 1000, workers=1, play=play)   # warm: load, compile
    start = time.perf_counter()
    simulate(request, games, seed, workers=workers, play=play)
    return games / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--scenario", action="append")
    parser.add_argument("--policy", choices=("random", "greedy", "first"), default="random")
    args = parser.parse_args()
    from warband.scenario import shipped
    ids = args.scenario or [sid for sid, _, _ in shipped()]
    cores = os.cpu_count() or 1
    print(f"{'scenario':28} {'1 worker':>12} {'vs target':>10} {f'{cores} workers':>12} "
          f"{'speed-up':>9}")
    for sid in ids:
        one = games_per_second(sid, args.games, 1, policy=args.policy)
        every = games_per_second(sid, args.games, cores, policy=args.policy)
        print(f"{sid:28} {one:9.1f}/s {one / TARGET:9.2f}x {every:9.1f}/s {every / one:8.2f}x")


if __name__ == "__main__":
    main()
