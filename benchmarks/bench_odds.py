"""Benchmark: exact odds (`warband odds`), the interpreter's exact mode.

Run by hand (not a test):  python benchmarks/bench_odds.py [--repeat N]

Exact odds of the shipped rulesets' actions and of a few rules that roll many dice in loops
(the work E504 bounds), each timed as the fastest of N runs in CPU time of this process. Used
to check that the bookkeeping E504 keeps (which roll drew how many outcomes) costs nothing that
can be measured.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "toolkit"))

from warband.lang.compiler import compile_text, load
from warband.run.odds import compute, parse_fighter, parse_policies

LOOPS = """ruleset "bench"
stat Might: 1..10 default 3

action volley(f: fighter) -> number {
  let shots = 2d6
  let hits = 0
  repeat shots times {
    let d = d6
    if d >= 4 { set hits += 1 }
  }
  return hits
}

action press(f: fighter) -> number {
  let wounds = 0
  repeat 10 times {
    let d = d6
    choose push by f {
      option keep
      option push { set d += 1 }
    }
    if d >= 5 { set wounds += 1 }
  }
  return wounds
}
"""

CASES = [
    ("super-simple-skirmish", "shoot", "class=Soldier might=10 fate=1",
     "class=Soldier might=8 fate=1", ["fate_reroll=greedy", "fate_modify=greedy"]),
    ("swords-against-sorcery", "exchange_damage", "Training=3", "Training=2", []),
    ("smart", "melee_round", "class=Infantry", "class=Goblin", []),
    (None, "volley", "might=3", None, []),
    (None, "press", "might=3", None, []),
]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    loops = compile_text(LOOPS, "bench.rules").ruleset
    for ref, action, attacker, target, policy in CASES:
        ruleset = loops if ref is None else load(ref).ruleset
        if ruleset is None or action not in ruleset.procedures:
            print(f"{ref} {action}: skipped")
            continue
        diagnostics: list = []
        fighters = [parse_fighter(attacker, "--attacker", ruleset, 0, diagnostics)]
        if target is not None:
            fighters.append(parse_fighter(target, "--target", ruleset, 1, diagnostics))
        policies = parse_policies(policy, ruleset, diagnostics)
        if diagnostics:
            print(f"{ref} {action}: {diagnostics[0].message}")
            continue
        best = float("inf")
        for _ in range(args.repeat):
            start = time.process_time()
            compute(ruleset, action, fighters, {}, policies)
            best = min(best, time.process_time() - start)
        print(f"{ref or 'loops'} {action}: {best * 1000:.1f} ms")


if __name__ == "__main__":
    main()
