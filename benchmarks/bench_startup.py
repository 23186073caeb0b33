"""Benchmark: how fast commands start, against another version of the toolkit, turn about.

Run by hand (not a test):

    python benchmarks/bench_startup.py --against REF [--runs 40]

REF is a git revision (checked out into a temporary worktree) or the path of another
checkout. Each command runs once per version in turn, RUNS times, after warm-up runs (bytecode
and the compile cache written), so that both versions see the same minutes of a shared
machine; the medians and their ratio are printed (this version / the reference).

Commands: `warband --version` (the import of the command line alone) and `warband validate`
of a shipped warband (a typical check of a list before game night, rules from the cache).
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
COMMANDS = {
    "--version": ["--version"],
    "validate": ["validate", "warbands/the-family.yaml"],
}


def run_once(checkout: Path, args: list[str], env: dict) -> float:
    start = time.perf_counter()
    subprocess.run([sys.executable, "-m", "warband", *args], cwd=checkout, env=env,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
    return time.perf_counter() - start


def measure(ours: Path, theirs: Path, runs: int) -> None:
    with tempfile.TemporaryDirectory() as cache:
        envs = {tree: {**os.environ, "PYTHONPATH": str(tree / "toolkit"),
                       "WARBAND_CACHE_DIR": cache, "NO_COLOR": "1"} for tree in (ours, theirs)}
        print(f"{'command':12} {'this (median)':>14} {'reference':>12} {'ratio':>7}")
        for label, args in COMMANDS.items():
            for tree in (ours, theirs):    # warm-up: bytecode, compile cache
                for _ in range(3):
                    run_once(tree, args, envs[tree])
            times: dict[Path, list[float]] = {ours: [], theirs: []}
            for _ in range(runs):
                for tree in (ours, theirs):
                    times[tree].append(run_once(tree, args, envs[tree]))
            a, b = statistics.median(times[ours]), statistics.median(times[theirs])
            print(f"{label:12} {a * 1000:>11.1f} ms {b * 1000:>9.1f} ms {a / b:>7.3f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--against", required=True,
                        help="a git revision, or the path of another checkout")
    parser.add_argument("--runs", type=int, default=40)
    args = parser.parse_args()
    if Path(args.against).is_dir():
        measure(ROOT, Path(args.against).resolve(), args.runs)
        return
    with tempfile.TemporaryDirectory() as folder:
        other = Path(folder) / "reference"
        subprocess.run(["git", "worktree", "add", "--detach", str(other), args.against],
                       cwd=ROOT, check=True, stdout=subprocess.DEVNULL)
        try:
            measure(ROOT, other, args.runs)
        finally:
            subprocess.run(["git", "worktree", "remove", "--force", str(other)], cwd=ROOT,
                           check=False)


if __name__ == "__main__":
    main()
