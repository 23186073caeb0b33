"""Benchmark: compiling the shipped rulesets, and the Super Simple Skirmish odds table.

Run by hand (not a test):  python benchmarks/bench_rules.py [--repeat N]

1. Compile time of each shipped ruleset: cold (no compiled-ruleset cache; Lark's grammar cache
   as a user has it after the first run), warm from the disk cache (what a second `warband`
   command pays), and warm in memory.
2. Exact odds of every attack-table band x {3D6, 4D6 drop lowest} x {cover, no cover} through
   the compiled rules, against icepool computing the same 28 distributions in the same run.
   The ratio is ours / icepool's: below 1.0 means faster.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from fractions import Fraction
from pathlib import Path

sys.setrecursionlimit(10_000)

# One Might pair per band of the attack table, as (attacker, target).
BANDS = [(5, 20), (10, 25), (13, 20), (20, 20), (21, 20), (40, 20), (80, 20)]
THRESHOLDS = [(18, 16), (17, 15), (16, 14), (15, 13), (14, 12), (13, 11), (12, 10)]


def best_of(fn, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times)


def bench_compile(repeat: int) -> None:
    from warband import catalog
    from warband.lang import cache, compiler
    print("compile time per ruleset (best of", repeat, "runs)")
    print(f"{'ruleset':28} {'cold':>10} {'warm disk':>10} {'warm mem':>10}")
    for builtin in catalog.rulesets():
        text = builtin.path.read_text(encoding="utf-8")
        name = str(builtin.path)

        def cold():
            cache.clear_memory()
            compiler.compile_text(text, name)

        with tempfile.TemporaryDirectory() as folder:
            os.environ["WARBAND_CACHE_DIR"] = folder
            cache.clear_memory()
            compiler.compile_cached(text, name)          # fills the disk cache

            def warm_disk():
                cache.clear_memory()
                compiler.compile_cached(text, name)

            def warm_memory():
                compiler.compile_cached(text, name)

            t_cold = best_of(cold, repeat)
            t_disk = best_of(warm_disk, repeat * 5)
            t_mem = best_of(warm_memory, repeat * 5)
        print(f"{builtin.id:28} {t_cold * 1000:8.2f}ms {t_disk * 1000:8.2f}ms "
              f"{t_mem * 1000:8.3f}ms")


def duels(ruleset) -> list:
    """The 14 match-ups (fighters set up once, as icepool's dice are)."""
    from warband.run.world import FighterSpec, make_world
    return [make_world(ruleset, [FighterSpec("a", 0, attacker_class, {"Might": a}),
                                 FighterSpec("t", 1, "Soldier", {"Might": t})])
            for attacker_class in ("Soldier", "Sniper") for a, t in BANDS]


def ours_table(interpreter, worlds) -> list:
    """Every run computes every distribution anew: no result is cached between runs (only
    compiled closures and table lookups are, as icepool keeps its dice)."""
    from warband.run.world import Ref
    results = []
    for world in worlds:
        for cover in (False, True):
            args = {"attacker": Ref("fighter", 0), "target": Ref("fighter", 1), "cover": cover}
            results.append(interpreter.exact("shoot", args, world))
    return results


def icepool_table() -> list:
    import icepool
    results = []
    for dice in (3 @ icepool.d6, icepool.d6.highest(4, 3)):
        for kill, stun in THRESHOLDS:
            for cover in (False, True):
                def outcome(roll, save, kill=kill, stun=stun, cover=cover):
                    if roll < stun or (cover and save >= 4):
                        return "none"
                    return "kill" if roll >= kill else "stun"
                results.append(icepool.map(outcome, dice, icepool.d6))
    return results


def bench_odds(repeat: int) -> None:
    from warband.lang.compiler import load
    ruleset = load("super-simple-skirmish").ruleset
    from warband.run.interpreter import Interpreter
    interpreter = Interpreter(ruleset)
    worlds = duels(ruleset)
    ours = ours_table(interpreter, worlds)
    theirs = icepool_table()
    for mine, other in zip(ours, theirs):   # the same numbers, or the comparison means nothing
        total = other.denominator()
        for outcome in ("kill", "stun", "none"):
            assert mine[outcome] == Fraction(other.quantity(outcome), total), outcome
    # Interleaved, so that a busy machine slows both sides alike; the fastest run of each counts.
    t_ours = t_icepool = float("inf")
    for _ in range(repeat):
        t_ours = min(t_ours, best_of(lambda: ours_table(interpreter, worlds), 1))
        t_icepool = min(t_icepool, best_of(icepool_table, 1))
    print()
    print(f"odds table: 7 bands x {{3D6, 4D6 drop lowest}} x {{cover, no cover}} = {len(ours)} "
          f"distributions (best of {repeat})")
    print(f"  warband  {t_ours * 1000:8.2f} ms")
    print(f"  icepool  {t_icepool * 1000:8.2f} ms")
    print(f"  ratio    {t_ours / t_icepool:8.2f}  (warband / icepool; <= 1.0 is the target)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=20)
    args = parser.parse_args()
    root = Path(__file__).resolve().parents[1]
    sys.path.insert(0, str(root / "toolkit"))
    bench_compile(args.repeat)
    bench_odds(args.repeat)
    print(f"\npython {sys.version.split()[0]}; each figure is the fastest of its runs")


if __name__ == "__main__":
    main()
