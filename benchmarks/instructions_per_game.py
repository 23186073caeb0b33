"""Benchmark: instructions per game of a scenario, counted by valgrind (needs valgrind).

Run by hand (not a test):
    python benchmarks/instructions_per_game.py [--scenario ID ...] [--against REF]
                                               [--few 40 --many 120]

Timings on a shared machine wander by half from one minute to the next; the number of machine
instructions a game takes does not. This plays the scenario's games with random players through
`warband.game.simulate` under `valgrind --tool=callgrind`, once for FEW games and once for MANY,
after a warm-up run (bytecode and the compiled-rules cache written), and prints the difference
divided by the difference in games: start-up, loading and compiling cancel out, as long as both
counted runs start up alike.

They did not always: the two counted runs take minutes, and the compiled-rules cache is shared
(`~/.cache/warband`, the newest 200 entries kept), so another process (tests, other checkouts)
could push out the entry the warm-up wrote, or an edit or a merge could change the toolkit
between the runs; the FEW run then compiled the rules afresh and the MANY run found them, and
the difference came out as a fraction of a game (1.3 million instructions a standard game
against 21.5: compiling the standard game's rules cold takes about 1,650 million instructions,
a warm start-up 3,050 million, and (21.5 - 1.3) x 80 games is 1,620 million). So the code
measured is a copy taken at the start (this checkout's files as they are, or REF's from git),
the rules cache is the copy's own, the warm-up runs with the same environment as the counted
runs, and a counted run that writes the cache stops the benchmark.

`--against REF` counts REF's version of the code too, in the same way, and prints both.
"""

from __future__ import annotations

import argparse
import io
import os
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
FEW, MANY = 40, 120
PARTS = ("toolkit", "dsl", "scenarios", "warbands")   # what a game reads

PLAY = """
import sys
sys.path.insert(0, {toolkit!r})
from warband.game.worker import play
from warband.game.results import PlayRequest
from warband.game.simulate import simulate
request = PlayRequest(sys.argv[1])
simulate(request, 20, 1000, workers=1, play=play)   # load and compile: the same in both runs
simulate(request, int(sys.argv[2]), 1, workers=1, play=play)
"""


def snapshot(into: Path, ref: str | None) -> Path:
    """The code to measure, copied: this checkout's files as they are (ref None), or a git
    version's; neither changes while it is counted."""
    if ref is None:
        for part in PARTS:
            shutil.copytree(ROOT / part, into / part,
                            ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    else:
        archive = subprocess.run(["git", "-C", str(ROOT), "archive", "--format=tar", ref,
                                  *PARTS], check=True, capture_output=True).stdout
        with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
            tar.extractall(into, filter="data")
    return into


def cache_state(cache: Path) -> list[tuple[str, int]]:
    return sorted((e.name, e.stat().st_mtime_ns) for e in cache.iterdir())


def instructions(script: Path, scenario: str, games: int, out: Path, env: dict) -> int:
    done = subprocess.run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}",
                           sys.executable, str(script), scenario, str(games)],
                          env=env, capture_output=True, text=True, check=True)
    found = re.search(r"Collected : (\d+)", done.stderr)
    if not found:
        raise SystemExit(f"valgrind said nothing countable:\n{done.stderr[-2000:]}")
    return int(found.group(1))


def per_game(tree: Path, scenario: str, few_games: int, many_games: int) -> float:
    """Millions of instructions a game of `scenario` with the code in `tree`."""
    cache = tree / "rules-cache"
    cache.mkdir(exist_ok=True)   # (one per copy: each scenario warms its own entry)
    env = {**os.environ, "PYTHONHASHSEED": "0", "WARBAND_CACHE_DIR": str(cache)}
    script = tree / "play.py"
    script.write_text(PLAY.format(toolkit=str(tree / "toolkit")))
    subprocess.run([sys.executable, str(script), scenario, "2"], check=True,
                   capture_output=True, env=env)   # warm: bytecode, the rules cache
    warm = cache_state(cache)
    few = instructions(script, scenario, few_games, tree / "few.out", env)
    many = instructions(script, scenario, many_games, tree / "many.out", env)
    if cache_state(cache) != warm:
        raise SystemExit(f"{scenario}: a counted run compiled the rules (the cache changed "
                         "after the warm-up): the count would include it")
    return (many - few) / (many_games - few_games) / 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scenario", action="append")
    parser.add_argument("--against", metavar="REF", help="count this git version's too")
    parser.add_argument("--few", type=int, default=FEW, help=f"games of the first run ({FEW})")
    parser.add_argument("--many", type=int, default=MANY,
                        help=f"games of the second run ({MANY})")
    args = parser.parse_args()
    if shutil.which("valgrind") is None:
        raise SystemExit("valgrind is not installed (apt install valgrind)")
    with tempfile.TemporaryDirectory(prefix="warband-instructions-") as tmp:
        trees = {"this checkout": None} | ({args.against: args.against} if args.against else {})
        made = {}
        for label, ref in trees.items():
            made[label] = snapshot(Path(tmp) / f"tree{len(made)}", ref)
        for scenario in args.scenario or ["sss-standard-game"]:
            counts = {label: per_game(tree, scenario, args.few, args.many)
                      for label, tree in made.items()}
            shown = ", ".join(f"{label} {n:.2f}" for label, n in counts.items())
            change = ""
            if args.against:
                change = f" ({counts['this checkout'] / counts[args.against] - 1:+.1%})"
            print(f"{scenario}: million instructions a game: {shown}{change} (valgrind, "
                  f"{args.few} and {args.many} games)", flush=True)


if __name__ == "__main__":
    main()
