"""Turn flow (issue 36, item 4): the bounded `while`, `break` and `continue`, and `end turn`,
with which the common activation schemes are a few lines each (docs/language.md, "Activation
schemes and ending a turn"). Exact values worked out by hand; games on house rules of two
shipped systems (tests/turn_flow/), generated and interpreted alike (tests/test_differential.py
plays every statement)."""

from __future__ import annotations

from collections import defaultdict
from fractions import Fraction as F
from pathlib import Path

import pytest

from warband.game.engine import Game
from warband.game.scenario import load_scenario
from warband.lang.compiler import compile_text
from warband.run.decisions import Policies
from warband.run.dice import Dist
from warband.run.evaluate import RulesError
from warband.run.interpreter import Interpreter
from warband.run.world import FighterSpec, Ref, make_world

HERE = Path(__file__).resolve().parent / "turn_flow"
A = Ref("fighter", 0)

FLOW = '''
ruleset "flow"
counter N on side
action press(f: fighter) -> number {
  let n = 0
  while n < 10 at most 5 times {
    set n += d6
    if n == 3 {
      continue
    }
    if n > 7 {
      break
    }
    set n += 1
  }
  return n
}
action first_six(f: fighter) -> number {
  let rolled = 0
  repeat 4 times {
    set rolled += 1
    if d6 == 6 {
      break
    }
  }
  return rolled
}
action skip_first(f: fighter) -> number {
  let k = 0
  for each g in f.side.fighters {
    if g == f {
      continue
    }
    set k += 1
  }
  return k
}
action never(f: fighter) -> number {
  while false at most 3 times {
    set f.side.N += 1
  }
  return f.side.N
}
action too_long(f: fighter) -> number {
  while true at most 1001 times {
    set f.side.N += 1
  }
  return 0
}
action ender(f: fighter) -> number {
  end turn
  return 1
}
phase nobody_acting() {
  end turn
}
'''


@pytest.fixture(scope="module")
def flow():
    compiled = compile_text(FLOW, "flow.rules")
    assert compiled.ruleset is not None and not compiled.errors, compiled.diagnostics
    return compiled.ruleset


def world_of(rules, n: int = 1):
    return make_world(rules, [FighterSpec(f"x{i}", 0) for i in range(n)])


def by_hand_press():
    def go(n, turns):
        if turns == 0 or not n < 10:
            return {n: F(1)}
        out: dict = defaultdict(F)
        for d in range(1, 7):
            m = n + d
            if m == 3:
                got = go(m, turns - 1)
            elif m > 7:
                got = {m: F(1)}
            else:
                got = go(m + 1, turns - 1)
            for k, v in got.items():
                out[k] += v / 6
        return out
    return Dist(dict(go(0, 5)))


def test_while_break_and_continue_exactly(flow):
    interp = Interpreter(flow)
    assert interp.exact("press", {"f": A}, world_of(flow)) == by_hand_press()
    # stopping at the first 6 of up to four dice
    assert interp.exact("first_six", {"f": A}, world_of(flow)) == Dist(
        {1: F(1, 6), 2: F(5, 36), 3: F(25, 216), 4: F(125, 216)})
    assert interp.exact("skip_first", {"f": A}, world_of(flow, 3)) == Dist({2: 1})
    assert interp.exact("never", {"f": A}, world_of(flow)) == Dist({0: 1})


def test_sampled_runs_agree_with_the_generated_code(flow):
    import random
    for name in ("press", "first_six", "skip_first"):
        got = []
        for compiled in (True, False):
            interp = Interpreter(flow, Policies("first"), rng=random.Random(5))
            interp.compiled = compiled
            got.append([interp.sample(name, {"f": A}, world_of(flow, 3))[0] for _ in range(30)])
        assert got[0] == got[1], name


def test_a_while_has_a_bound_within_the_limit(flow):
    with pytest.raises(RulesError) as error:
        Interpreter(flow).exact("too_long", {"f": A}, world_of(flow))
    assert error.value.diagnostic.code == "E403"


def test_end_turn_sets_the_acting_sides_flag_and_needs_a_side_outside_an_action(flow):
    interp = Interpreter(flow)
    interp.acting = A   # (as `warband odds` sets it: the action's first fighter)
    got = interp.exact("ender", {"f": A}, world_of(flow),
                       observe=lambda w: w.sides[0].values["turn_over"])
    assert got == Dist({(1, True): 1})
    with pytest.raises(RulesError) as error:
        Interpreter(flow).exact("nobody_acting", {}, world_of(flow))
    assert error.value.diagnostic.code == "E505"


def test_break_and_continue_outside_a_loop_are_E327_and_inside_are_not():
    def codes(body: str) -> list[str]:
        text = 'ruleset "b"\naction a(f: fighter) -> number {\n' + body + '\n  return 1\n}\n'
        return [d.code for d in compile_text(text, "b.rules").errors]
    assert codes("  break") == ["E327"]
    assert codes("  if true {\n continue\n }") == ["E327"]
    assert codes("  repeat 2 times {\n if true {\n break\n }\n }") == []
    assert codes("  while true at most 2 times {\n continue\n }") == []


# ---- end turn in games: no activation of a side whose turn is over, until the next round --------

def rounds_of(events):
    """(round, side whose turn ended, activations of that side after it in that round)."""
    over: dict = {}
    late = []
    for e in events:
        if e.get("type") == "round":
            over = {}
        elif e.get("type") == "change" and e.get("field") == "turn_over" and e.get("new"):
            over[e["side"]] = True
        elif e.get("type") == "activate" and over.get(e["side"]):
            late.append(e)
    return late


@pytest.mark.parametrize("name", ["sss-turnover.rules", "sas-first-blood.rules"])
def test_a_side_whose_turn_is_over_takes_no_more_actions_that_round(name):
    scenario = load_scenario(str(HERE / name))
    assert not isinstance(scenario, list), scenario
    ended = 0
    for seed in range(1, 7):
        game = Game(scenario, seed, record=True)
        game.play()
        events = game.log.events
        ended += sum(1 for e in events if e.get("type") == "change"
                     and e.get("field") == "turn_over")
        assert rounds_of(events) == [], seed
        # a turn ended in a round is a turn that begins again the next: every round has some
        # activations of each side that has fighters
        rounds = max(e.get("round", 0) for e in events)
        assert rounds >= 2
        fast, slow = Game(scenario, seed), Game(scenario, seed)
        slow.interp.compiled = False
        assert fast.play() == slow.play()
    assert ended >= 3   # (the turns did end, now and then)
