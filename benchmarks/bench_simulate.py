"""Benchmark: what the simulation runner costs, and what more processes buy.

Run by hand (not a test):  python benchmarks/bench_simulate.py [--games N] [--dask]

A stand-in game that keeps a core busy for GAME_MS milliseconds is played:
1. in a plain loop (the reference: no chunks, no tally);
2. through simulate() with 1 worker: the ratio to the loop is the runner's overhead;
3. through simulate() with 2 and with all cores' worth of spawned processes: the ratio to the
   loop is the speed-up (1/ratio), process start-up included;
4. with --dask, on a local Dask cluster of 2 processes (start-up of the cluster excluded).
Every run must give the same figures as the 1-worker run; the script checks it.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "toolkit"))

from warband.game.results import GameResult, PlayRequest  # noqa: E402
from warband.game.simulate import game_seeds, resolve_workers, simulate  # noqa: E402

GAME_MS = 1.0
REQUEST = PlayRequest("bench")


def play(request: PlayRequest, seed: int) -> GameResult:
    rng = random.Random(seed)
    busy = random.Random(0)   # the work's own dice: the game's stream must not depend on time
    end = time.perf_counter() + GAME_MS / 1000
    while time.perf_counter() < end:
        busy.randint(1, 6)
    red = rng.randint(0, 6)
    blue = rng.randint(0, 6)
    winner = "Red" if red > blue else "Blue" if blue > red else None
    return GameResult(seed, ("Red", "Blue"), winner, {"Red": red, "Blue": blue},
                      rng.randint(1, 8), "limit", {"Red": {"A": rng.randint(0, 2)}})


def timed(fn):
    start = time.perf_counter()
    value = fn()
    return time.perf_counter() - start, value


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=4000)
    parser.add_argument("--dask", action="store_true")
    args = parser.parse_args()
    n = args.games
    seeds = game_seeds(1, 0, n)
    loop, _ = timed(lambda: [play(REQUEST, s) for s in seeds])
    print(f"{n} games of ~{GAME_MS:g} ms; plain loop {loop:.2f} s (reference)")
    one_time, one = timed(lambda: simulate(REQUEST, n, 1, play=play))
    print(f"simulate, 1 worker     {one_time:6.2f} s  ratio {one_time / loop:.3f}")
    for workers in sorted({2, resolve_workers("auto")}):
        t, summary = timed(lambda: simulate(REQUEST, n, 1, workers=workers, play=play))
        assert summary == one, "a worker count changed the figures"
        print(f"simulate, {workers} workers    {t:6.2f} s  ratio {t / loop:.3f}")
    if args.dask:
        from distributed import LocalCluster
        with LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                          dashboard_address=None) as cluster:
            t, summary = timed(lambda: simulate(REQUEST, n, 1, scheduler=cluster.scheduler_address,
                                                play=play))
            assert summary == one, "the cluster changed the figures"
            print(f"simulate, Dask 2 procs {t:6.2f} s  ratio {t / loop:.3f}")
    print(f"(cores here: {os.cpu_count()})")


if __name__ == "__main__":
    main()
