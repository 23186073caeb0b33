"""Benchmark: instructions per game of a scenario, counted by valgrind (needs valgrind).

Run by hand (not a test):  python benchmarks/instructions_per_game.py [--scenario ID]

Timings on a shared machine wander by half from one minute to the next; the number of machine
instructions a game takes does not. This plays the scenario's games with random players through
`warband.game.simulate` under `valgrind --tool=callgrind`, once for FEW games and once for MANY, after
a warm-up run (bytecode and the compiled-rules cache written), and prints the difference divided
by the difference in games: start-up, loading and compiling cancel out. Two versions of the
toolkit are compared by running this on each (a few minutes each).
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
FEW, MANY = 40, 120

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


def instructions(script: Path, scenario: str, games: int, out: Path) -> int:
    env = {**os.environ, "PYTHONHASHSEED": "0"}
    done = subprocess.run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}",
                           sys.executable, str(script), scenario, str(games)],
                          env=env, capture_output=True, text=True, check=True)
    found = re.search(r"Collected : (\d+)", done.stderr)
    if not found:
        raise SystemExit(f"valgrind said nothing countable:\n{done.stderr[-2000:]}")
    return int(found.group(1))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scenario", default="sss-standard-game")
    args = parser.parse_args()
    if shutil.which("valgrind") is None:
        raise SystemExit("valgrind is not installed (apt install valgrind)")
    with tempfile.TemporaryDirectory() as tmp:
        script = Path(tmp) / "play.py"
        script.write_text(PLAY.format(toolkit=str(ROOT / "toolkit")))
        subprocess.run([sys.executable, str(script), args.scenario, "2"], check=True,
                       capture_output=True)   # warm: bytecode, the rules cache
        few = instructions(script, args.scenario, FEW, Path(tmp) / "few.out")
        many = instructions(script, args.scenario, MANY, Path(tmp) / "many.out")
    print(f"{args.scenario}: {(many - few) / (MANY - FEW) / 1e6:.2f} million instructions "
          f"a game (valgrind, {FEW} and {MANY} games)")


if __name__ == "__main__":
    main()
