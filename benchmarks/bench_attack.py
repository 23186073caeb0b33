"""Benchmark: one sampled Super Simple Skirmish attack, compiled rules against hand-written Python.

Run by hand (not a test):  python benchmarks/bench_attack.py [--repeat N] [--attacks N]

The `shoot` action of dsl/super-simple-skirmish.rules, sampled through `Interpreter.sampler`
(rules translated to Python by warband.run.codegen.program; the sampler is made once, as a game engine or a
designer's script running the same action many times does), against `hand_written_shoot`
below: the same
attack written directly in Python for this one game (the band from both Mights, 3D6 or 4D6
dropping the lowest, the cover save, kill or stun, the Fate decisions), measured in the same run,
interleaved, in CPU time of this process (the fastest of many short runs of each). The old interpreter path (`Interpreter(..., compiled=False)`) is timed too.

The hand-written function rolls exactly as the toolkit does (one `randrange` over the roll's
whole table of outcomes, choices from a second stream), so before timing the script checks that
both give the same results for the same seeds: they do the same work, draw for draw. It keeps its
state in plain mutable dicts and lists, as a hand-written game would; the rules return a new
World for each attack, which is part of what is measured.
"""

from __future__ import annotations

import argparse
import itertools
import random
import sys
import time
from pathlib import Path

# ---- the hand-written attack -------------------------------------------------------------------

# 3D6 and 4D6-drop-lowest as tables indexed by one randrange over all face sequences (sorted by
# total, as warband's Dist.sample orders them), so one draw gives the same total as the toolkit's.
_3D6 = sorted(sum(r) for r in itertools.product(range(1, 7), repeat=3))
_4D6_DROP = sorted(sum(r) - min(r) for r in itertools.product(range(1, 7), repeat=4))


def _band(attacker: float, target: float) -> tuple[int, int]:
    if attacker * 4 <= target:
        return 18, 16
    if attacker * 2 <= target:
        return 17, 15
    if attacker < target:
        return 16, 14
    if attacker >= target * 4:
        return 12, 10
    if attacker >= target * 2:
        return 13, 11
    if attacker > target:
        return 14, 12
    return 15, 13


def _effective(f: dict) -> float:
    return f["might"] * (2 if f["defending"] else 1) / (2 if f["stunned"] else 1)


def _fated(table: list, side: dict, random_policy: bool, rng, choice_rng) -> int:
    """A roll; with the random policy, maybe a Fate token to reroll, then one to add or take 1."""
    result = table[rng.randrange(len(table))]
    if random_policy and side["fate"] >= 1:
        if choice_rng.choice((0, 1)):
            side["fate"] -= 1
            result = table[rng.randrange(len(table))]
        if side["fate"] >= 1:
            pick = choice_rng.choice((0, 1, 2))
            if pick:
                side["fate"] -= 1
                result += 1 if pick == 1 else -1
    return result


def hand_written_shoot(attacker: dict, target: dict, sides: list, cover: bool,
                       random_policy: bool, rng, choice_rng) -> str:
    kill, stun = _band(_effective(attacker), _effective(target))
    dice = _4D6_DROP if attacker["marksman"] else _3D6
    roll = _fated(dice, sides[attacker["side"]], random_policy, rng, choice_rng)
    if roll < stun:
        return "none"
    if cover:
        save = _fated(_D6, sides[target["side"]], random_policy, rng, choice_rng)
        if save >= 4:
            return "none"
    if roll >= kill or target["stunned"]:
        target["removed"] = True
        return "kill"
    target["stunned"] = True
    return "stun"


_D6 = [1, 2, 3, 4, 5, 6]

# ---- the cases ----------------------------------------------------------------------------------

MATCHES = [("Soldier", 10, "Gunslinger", 25), ("Sniper", 20, "Soldier", 20)]
FATE = (2, 1)


def hand_state(match):
    a_class, a_might, t_class, t_might = match
    attacker = {"might": a_might, "defending": False, "stunned": False, "side": 0,
                "marksman": a_class == "Sniper", "removed": False}
    target = {"might": t_might, "defending": False, "stunned": False, "side": 1,
              "marksman": t_class == "Sniper", "removed": False}
    return attacker, target, [{"fate": FATE[0]}, {"fate": FATE[1]}]


def rules_world(ruleset, match):
    from warband.run.world import FighterSpec, make_world
    a_class, a_might, t_class, t_might = match
    return make_world(ruleset, [FighterSpec("a", 0, a_class, {"Might": a_might}),
                                FighterSpec("t", 1, t_class, {"Might": t_might})],
                      sides=[{"Fate": FATE[0]}, {"Fate": FATE[1]}])


def check_same(ruleset, n: int = 3000) -> None:
    """Both ways give the same outcome and Fate left, seed for seed: the same work is timed."""
    from warband.run.interpreter import Interpreter, Policies
    from warband.run.world import Ref
    for match, cover, policy in itertools.product(MATCHES, (False, True), ("first", "random")):
        world = rules_world(ruleset, match)
        args = {"attacker": Ref("fighter", 0), "target": Ref("fighter", 1), "cover": cover}
        interp = Interpreter(ruleset, Policies(policy), rng=random.Random(7))
        rng = random.Random(7)
        choice_rng = random.Random(rng.random())
        shoot = interp.sampler("shoot")
        for _ in range(n):
            value, after = shoot(world, args["attacker"], args["target"], cover)
            attacker, target, sides = hand_state(match)
            mine = hand_written_shoot(attacker, target, sides, cover, policy == "random", rng,
                                      choice_rng)
            assert mine == value, (match, cover, policy, mine, value)
            assert [s["fate"] for s in sides] == [s.values["Fate"] for s in after.sides]


def time_case(ruleset, match, cover, policy, attacks: int, repeat: int) -> dict:
    from warband.run.interpreter import Interpreter, Policies
    from warband.run.world import Ref
    world = rules_world(ruleset, match)
    args = {"attacker": Ref("fighter", 0), "target": Ref("fighter", 1), "cover": cover}
    compiled = Interpreter(ruleset, Policies(policy), rng=random.Random(1))
    interpreted = Interpreter(ruleset, Policies(policy), rng=random.Random(1), compiled=False)
    rng, choice_rng = random.Random(1), random.Random(2)
    random_policy = policy == "random"
    states = [hand_state(match) for _ in range(attacks)]   # fresh mutable state per attack

    shoot, me, them = compiled.sampler("shoot"), args["attacker"], args["target"]

    def run_compiled():
        for _ in range(attacks):
            shoot(world, me, them, cover)

    def run_interpreted():
        sample = interpreted.sample
        for _ in range(attacks // 20):
            sample("shoot", args, world)

    def run_hand():
        for attacker, target, sides in states:
            hand_written_shoot(attacker, target, sides, cover, random_policy, rng, choice_rng)

    best = {"compiled": float("inf"), "hand": float("inf"), "interpreted": float("inf")}
    # Interleaved short runs timed in CPU time of this process, the fastest of each kept: other
    # work on the machine slows all three alike and is not counted.
    for _ in range(repeat):
        for name, fn, n in (("compiled", run_compiled, attacks), ("hand", run_hand, attacks),
                            ("interpreted", run_interpreted, attacks // 20)):
            if name == "hand":
                for attacker, target, sides in states:   # reset outside the timing
                    attacker["stunned"] = target["stunned"] = target["removed"] = False
                    sides[0]["fate"], sides[1]["fate"] = FATE
            start = time.process_time()
            fn()
            best[name] = min(best[name], (time.process_time() - start) / n)
    return best


def time_other_calls(ruleset, repeat: int, calls: int = 2000) -> None:
    """What a game engine calls besides attacks: requires checks, moves, phases."""
    from warband.run.interpreter import Interpreter
    from warband.run.world import Ref
    world = rules_world(ruleset, MATCHES[0])
    me, them, side = Ref("fighter", 0), Ref("fighter", 1), Ref("side", 0)
    cases = [("sample", "shoot", {"attacker": me, "target": them, "cover": True}),
             ("allowed", "shoot", {"attacker": me, "target": them}),
             ("allowed", "defend", {"fighter": me}),
             ("sample", "move", {"mover": me}),
             ("sample", "morale", {"side": side, "lost": 2, "in_play": 3}),
             ("sample", "restock", {"side": side, "near_shrines": 2})]
    print(f"\nother calls, best of {repeat} runs of {calls}")
    print(f"{'call':34} {'compiled':>9} {'interpreter':>12} {'speed-up':>9}")
    for kind, name, args in cases:
        fast = getattr(Interpreter(ruleset, rng=random.Random(1)), kind)
        slow = getattr(Interpreter(ruleset, rng=random.Random(1), compiled=False), kind)
        best = [float("inf"), float("inf")]
        for _ in range(repeat):
            for i, fn in enumerate((fast, slow)):
                start = time.process_time()
                for _ in range(calls):
                    fn(name, args, world)
                best[i] = min(best[i], (time.process_time() - start) / calls)
        print(f"{kind + ' ' + name:34} {best[0] * 1e6:7.2f}us {best[1] * 1e6:10.2f}us "
              f"{best[1] / best[0]:8.1f}x")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=30)
    parser.add_argument("--attacks", type=int, default=2_000)
    args = parser.parse_args()
    root = Path(__file__).resolve().parents[1]
    sys.path.insert(0, str(root / "toolkit"))
    from warband.lang.compiler import load
    ruleset = load("super-simple-skirmish").ruleset
    check_same(ruleset)
    print(f"one sampled attack (shoot), best of {args.repeat} runs of {args.attacks} attacks")
    print(f"{'attacker vs target':28} {'cover':6} {'Fate':7} {'compiled':>9} {'hand':>8} "
          f"{'ratio':>6} {'interpreter':>12} {'speed-up':>9}")
    ratios, speedups = [], []
    for match, cover, policy in itertools.product(MATCHES, (False, True), ("first", "random")):
        best = time_case(ruleset, match, cover, policy, args.attacks, args.repeat)
        ratio = best["compiled"] / best["hand"]
        speedup = best["interpreted"] / best["compiled"]
        ratios.append(ratio)
        speedups.append(speedup)
        label = f"{match[0]} {match[1]} vs {match[2]} {match[3]}"
        print(f"{label:28} {str(cover):6} {policy:7} {best['compiled'] * 1e6:7.2f}us "
              f"{best['hand'] * 1e6:6.2f}us {ratio:6.2f} {best['interpreted'] * 1e6:10.1f}us "
              f"{speedup:8.1f}x")
    print(f"\nratio compiled / hand-written: {min(ratios):.2f} to {max(ratios):.2f} "
          f"(target: at most 2.0)")
    print(f"speed-up over the interpreter: {min(speedups):.0f}x to {max(speedups):.0f}x")
    time_other_calls(ruleset, args.repeat)
    print(f"python {sys.version.split()[0]}")


if __name__ == "__main__":
    main()
