"""Benchmark: full games per second for each shipped scenario, on one worker and on all cores.

Run by hand (not a test):
    python benchmarks/bench_games.py [--games N] [--scenario ID ...] [--policy greedy] [--repeat N]
                                     [--against REF] [--clock cpu]

For each scenario in scenarios/ it plays N games with random players (or greedy or first ones,
with --policy: greedy players think, and play far fewer games) through `warband.game.simulate`
(the code `warband simulate` runs): once with one worker in this process, once with every core
(local processes). It prints games per second, the ratio of the one-worker figure to the
issue's target (200 full games per second per core), and the speed-up of all cores over one,
both measured in the same run. Scenario loading is not timed (the first game of each run pays
for it on every worker); CPU time would hide the processes' work, so wall time is used.
`--clock cpu` times the one-worker figures (and both sides of --against) by the CPU time of the
process instead: on a machine shared with other work (a load of 8 on 2 cores) the wall clock
counts the minutes other processes held the core, and two versions measured turn about then
differed by 28% one way or the other on the very same games; the CPU time only by the caches
they share. The all-cores figure stays in wall time.

`--against REF` (a git commit, branch or tag) measures instead this checkout against that
version of the code, one worker each, turn about in fresh processes (the version before a change
is extracted with `git archive` into a temporary folder; nothing in the repository changes): it
prints both rates and how much slower or faster this checkout is, for checking that a change
keeps the shipped scenarios' speed.

Each figure is measured --repeat times (one worker and all cores turn about) and the best is
compared with the target, as timeit does: on a shared machine other work only ever slows a
run down, so the fastest run is the nearest to what the code itself costs. The median and the
slowest are printed beside it, to show how much the machine wandered.
"""

from __future__ import annotations

import argparse
import io
import os
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path
from typing import cast

ROOT = Path(__file__).resolve().parents[1]
# --against runs this file again with the code of another version (see versions())
sys.path.insert(0, str(Path(os.environ.get("WARBAND_BENCH_TREE", ROOT)) / "toolkit"))

TARGET = 200.0   # full games per second per core


def games_per_second(scenario: str, games: int, workers: int, seed: int = 1,
                     policy: str = "random", clock: str = "wall") -> float:
    from warband.game.results import PlayRequest
    from warband.game.simulate import simulate
    from warband.game.worker import play
    request = PlayRequest(scenario, policies=(("*", policy),))
    warm = min(games, 20 if policy == "random" else 2)
    simulate(request, warm, seed + 1000, workers=1, play=play)   # warm: load, compile
    now = time.process_time if clock == "cpu" and workers == 1 else time.perf_counter
    start = now()
    simulate(request, games, seed, workers=workers, play=play)
    return games / (now() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--scenario", action="append")
    parser.add_argument("--policy", choices=("random", "greedy", "first"), default="random")
    parser.add_argument("--repeat", type=int, default=3,
                        help="measure each figure this many times, turn about (default 3)")
    parser.add_argument("--against", metavar="REF",
                        help="compare with this git version of the code, one worker each")
    parser.add_argument("--clock", choices=("wall", "cpu"), default="wall",
                        help="time one worker by the wall clock or the process's CPU time")
    parser.add_argument("--rate-of", help=argparse.SUPPRESS)   # one figure, for --against
    args = parser.parse_args()
    if args.rate_of:
        print(games_per_second(args.rate_of, args.games, 1, policy=args.policy,
                               clock=args.clock))
        return
    if args.against:
        versions(args.against, args.scenario, args.games, args.policy, args.repeat, args.clock)
        return
    from warband.catalog import scenarios
    ids = args.scenario or [s.id for s in scenarios()]
    cores = os.cpu_count() or 1
    print(f"best of {args.repeat} runs (median, lowest); one worker by {args.clock} time")
    print(f"{'scenario':28} {'1 worker':>28} {'vs target':>10} {f'{cores} workers':>28} "
          f"{'speed-up':>9}")
    for sid in ids:
        ones, everys = [], []
        for _ in range(max(1, args.repeat)):   # turn about: a slow minute slows both
            ones.append(games_per_second(sid, args.games, 1, policy=args.policy,
                                         clock=args.clock))
            everys.append(games_per_second(sid, args.games, cores, policy=args.policy))
        one, every = max(ones), max(everys)
        print(f"{sid:28} {_spread(ones):>28} {one / TARGET:9.2f}x {_spread(everys):>28} "
              f"{every / one:8.2f}x")


def versions(ref: str, scenario_ids: list[str] | None, games: int, policy: str,
             repeat: int, clock: str = "wall") -> None:
    """This checkout against `ref`, one worker each, each figure in a fresh process: the two
    versions' modules cannot share one interpreter."""
    with tempfile.TemporaryDirectory(prefix="warband-bench-") as tmp:
        old = Path(tmp)
        archive = subprocess.run(["git", "-C", str(ROOT), "archive", "--format=tar", ref],
                                 check=True, capture_output=True).stdout
        with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
            tar.extractall(old, filter="data")
        from warband.catalog import scenarios
        ids = scenario_ids or [s.id for s in scenarios()]
        print(f"best of {repeat} runs (median, lowest), one worker, {games} games, {policy}, "
              f"{clock} time")
        print(f"{'scenario':28} {'this checkout':>28} {ref[:20]:>28} {'change':>8}")
        for sid in ids:
            new_rates, old_rates = [], []
            for _ in range(max(1, repeat)):   # turn about: a slow minute slows both
                new_rates.append(cast(float, _rate_in(ROOT, sid, games, policy, clock)))
                if (rate := _rate_in(old, sid, games, policy, clock)) is not None:
                    old_rates.append(rate)
            if not old_rates:   # a scenario the other version does not have
                print(f"{sid:28} {_spread(new_rates):>28} {'(not in ' + ref[:20] + ')':>28}")
                continue
            change = max(old_rates) / max(new_rates) - 1   # time per game, + is slower
            print(f"{sid:28} {_spread(new_rates):>28} {_spread(old_rates):>28} "
                  f"{change:+7.1%}")


def _rate_in(tree: Path, sid: str, games: int, policy: str,
             clock: str = "wall") -> float | None:
    """Games per second of `sid` with the code in `tree`; None where that version cannot play
    it (a scenario added since); this checkout's own failures stop the benchmark."""
    done = subprocess.run(
        [sys.executable, str(Path(__file__).resolve()), "--rate-of", sid, "--games", str(games),
         "--policy", policy, "--clock", clock], env={**os.environ, "WARBAND_BENCH_TREE": str(tree)},
        capture_output=True, text=True)
    if done.returncode != 0:
        if tree == ROOT:
            sys.exit(f"{sid}: {done.stderr.strip().splitlines()[-1] if done.stderr else 'failed'}")
        return None
    return float(done.stdout.split()[-1])


def _spread(rates: list[float]) -> str:
    """The best rate, then the median and the lowest: what the machine can do, and how much
    the other work on a shared machine took from it while it was measured."""
    return f"{max(rates):.1f}/s ({statistics.median(rates):.1f}, {min(rates):.1f})"


if __name__ == "__main__":
    main()
