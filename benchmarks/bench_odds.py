"""Benchmark: exact odds (`warband odds`), the interpreter's exact mode.

Run by hand (not a test):  python benchmarks/bench_odds.py [--repeat N]

Two parts. Against the anchors (issue 35), as ratios measured in the same run, interleaved so
that a busy machine slows each side alike: the Super Simple Skirmish 28-cell attack table
(benchmarks/bench_rules.py's) against icepool and against plain Python enumerating every face;
and a pool-heavy set (10d6 keep highest 3; 20d6 rerolling 1s, counting 5+) against icepool.
The fractions are checked equal first.

Exact odds of the shipped rulesets' actions and of a few rules that roll many dice in loops
(the work E504 bounds), each timed as the fastest of N runs in CPU time of this process. Used
to check that the bookkeeping E504 keeps (which roll drew how many outcomes) costs nothing that
can be measured.
"""

from __future__ import annotations

import argparse
import sys
import time
from fractions import Fraction
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


POOLS = """ruleset "pools"
stat Might: 1..10 default 3
action kept(f: fighter) -> number {
  return 10d6 keep highest 3
}
action successes(f: fighter) -> number {
  return count >= 5 in 20d6 reroll == 1
}
"""


def _interleaved(ours, theirs, repeat: int) -> tuple[float, float]:
    """The fastest CPU time of each, run in turn."""
    best_ours = best_theirs = float("inf")
    for _ in range(repeat):
        for fn, which in ((ours, 0), (theirs, 1)):
            start = time.process_time()
            fn()
            took = time.process_time() - start
            if which == 0:
                best_ours = min(best_ours, took)
            else:
                best_theirs = min(best_theirs, took)
    return best_ours, best_theirs


def brute_table() -> list:
    """The 28 distributions of the attack table by plain Python: every face of the attack dice
    and the cover save enumerated, the outcomes tallied."""
    import itertools
    from bench_rules import THRESHOLDS
    results = []
    rolls: list[dict] = []
    for n, kept in ((3, 3), (4, 3)):
        tally: dict[int, int] = {}
        for faces in itertools.product(range(1, 7), repeat=n):
            total = sum(sorted(faces)[n - kept:])
            tally[total] = tally.get(total, 0) + 1
        rolls.append(tally)
    for tally in rolls:
        for kill, stun in THRESHOLDS:
            for cover in (False, True):
                out = {"kill": 0, "stun": 0, "none": 0}
                for roll, ways in tally.items():
                    for save in range(1, 7):
                        if roll < stun or (cover and save >= 4):
                            out["none"] += ways
                        else:
                            out["kill" if roll >= kill else "stun"] += ways
                results.append(out)
    return results


def against_icepool(repeat: int) -> None:
    import icepool
    from bench_rules import duels, icepool_table, ours_table
    from warband.run.interpreter import Interpreter
    sss = load("super-simple-skirmish").ruleset
    interpreter = Interpreter(sss)
    worlds = duels(sss)
    ours = ours_table(interpreter, worlds)
    for mine, theirs, brute in zip(ours, icepool_table(), brute_table()):
        whole = sum(brute.values())
        for outcome in ("kill", "stun", "none"):
            assert mine[outcome] == Fraction(theirs.quantity(outcome), theirs.denominator())
            assert mine[outcome] == Fraction(brute[outcome], whole)
    t_ours, t_ice = _interleaved(lambda: ours_table(interpreter, worlds), icepool_table, repeat)
    t_brute, _ = _interleaved(brute_table, lambda: None, repeat)
    print("against the anchors (CPU, fastest of each; ratio = warband / other)")
    print(f"  SSS attack table, 28 cells: warband {t_ours * 1000:.1f} ms, icepool "
          f"{t_ice * 1000:.1f} ms, plain Python {t_brute * 1000:.1f} ms; "
          f"{t_ours / t_ice:.2f}x icepool (target <= 0.5), {t_ours / t_brute:.1f}x plain Python")
    pools = compile_text(POOLS, "pools.rules").ruleset
    fighter = [parse_fighter("might=3", "--attacker", pools, 0, [])]
    policies = parse_policies([], pools, [])
    die = icepool.d6.reroll([1], depth=1)
    theirs_of = {"kept": lambda: icepool.d6.highest(10, 3),
                 "successes": lambda: 20 @ die.map(lambda x: 1 if x >= 5 else 0)}
    for action, label in (("kept", "10d6 keep highest 3"),
                          ("successes", "20d6 reroll 1s, count 5+")):
        mine = compute(pools, action, fighter, {}, policies).distribution
        other = theirs_of[action]()
        assert all(mine[v] == Fraction(other.quantity(v), other.denominator()) for v in mine)
        t_ours, t_ice = _interleaved(lambda a=action: compute(pools, a, fighter, {}, policies),
                                     theirs_of[action], repeat)
        print(f"  {label}: warband {t_ours * 1000:.2f} ms, icepool {t_ice * 1000:.2f} ms; "
              f"{t_ours / t_ice:.2f}x icepool (target <= 2)")
    print()


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    sys.path.insert(0, str(ROOT / "benchmarks"))
    against_icepool(args.repeat)
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
