"""Language constructs beyond the first ruleset's needs: decisions among numbers, aggregates over
groups of fighters, whole square roots. Each is checked against a result worked out by hand."""

from __future__ import annotations

from fractions import Fraction as F

import pytest

from warband.lang.compiler import compile_text
from warband.run.dice import Dist
from warband.run.interpreter import Interpreter, Policies, RulesError
from warband.run.world import FighterSpec, Ref, make_world

HAND = '''
ruleset "hands"
stat Training: 1..8
action strike(f: fighter) -> number "Split Training into attack and defence dice" {
  choose attack by f from 0..f.Training default 1 "How many dice attack"
  let defence = f.Training - attack
  return count even in (attack)d6
}
'''


def ruleset(text: str):
    compiled = compile_text(text, "inline.rules")
    assert compiled.ruleset is not None, [d.message for d in compiled.diagnostics]
    return compiled.ruleset


def binomial_half(n: int) -> Dist:
    from math import comb
    return Dist({k: F(comb(n, k), 2 ** n) for k in range(n + 1)})


@pytest.mark.parametrize("policy, dice", [("first", 1), ("attack=3", 3), ("greedy", 4),
                                          ("attack=0", 0)])
def test_a_decision_among_numbers(policy, dice):
    rules = ruleset(HAND)
    world = make_world(rules, [FighterSpec("me", 0, None, {"Training": 4})])
    if "=" in policy:
        name, value = policy.split("=")
        policies = Policies("first", {name: value})
    else:
        policies = Policies(policy)
    got = Interpreter(rules, policies).exact("strike", {"f": Ref("fighter", 0)}, world)
    assert got == binomial_half(dice)


def test_random_number_decision_mixes_every_choice_evenly():
    rules = ruleset(HAND)
    world = make_world(rules, [FighterSpec("me", 0, None, {"Training": 2})])
    got = Interpreter(rules, Policies("random")).exact("strike", {"f": Ref("fighter", 0)}, world)
    want = Dist.mixture((F(1, 3), binomial_half(n)) for n in range(3))
    assert got == want


def test_the_decision_is_listed_with_its_range():
    rules = ruleset(HAND)
    assert "attack" in rules.decisions


AGGREGATES = '''
ruleset "gang"
stat Training: 1..8
action pooled(f: fighter) -> number {
  return total(g.Training for g in f.side.fighters)
}
action strongest(f: fighter) -> number {
  return highest(g.Training for g in f.side.fighters if g.Training < 5)
}
action rolled(f: fighter) -> number {
  return total(d6 for g in f.side.fighters if g.Training > 1)
}
action level(f: fighter) -> number { return isqrt(f.Training * 10) }
'''


def test_aggregates_over_a_side():
    rules = ruleset(AGGREGATES)
    world = make_world(rules, [FighterSpec("a", 0, None, {"Training": 2}),
                               FighterSpec("b", 0, None, {"Training": 2}),
                               FighterSpec("c", 0, None, {"Training": 6}),
                               FighterSpec("foe", 1, None, {"Training": 1})])
    me = {"f": Ref("fighter", 0)}
    interpreter = Interpreter(rules)
    assert interpreter.exact("pooled", me, world) == Dist.point(10)
    assert interpreter.exact("strongest", me, world) == Dist.point(2)
    # two d6, one for each fighter of Training 2 or more... all three qualify: 3d6
    from warband.run.dice import die, pool_sum
    assert interpreter.exact("rolled", me, world) == pool_sum(die((1, 2, 3, 4, 5, 6)), 3)
    assert interpreter.exact("level", me, world) == Dist.point(4)   # isqrt(20)


def test_number_decision_with_an_impossible_range_is_a_rules_error():
    rules = ruleset('ruleset "x"\nstat T: 0..8\n'
                    'action a(f: fighter) -> number { choose n by f from 1..f.T  return n }')
    world = make_world(rules, [FighterSpec("me", 0, None, {"T": 0})])
    with pytest.raises(RulesError):
        Interpreter(rules).exact("a", {"f": Ref("fighter", 0)}, world)


def test_number_decision_needs_fixed_bounds():
    compiled = compile_text('ruleset "x"\naction a(f: fighter) -> number {\n'
                            '  choose n by f from 0..d6\n  return n\n}\n', "inline.rules")
    assert [d.code for d in compiled.diagnostics] == ["E303"]


def test_long_loops_are_refused_with_a_located_error_not_a_crash():
    rules = ruleset('ruleset "x"\naction a(f: fighter) -> number {\n  let x = 0\n'
                    '  repeat 100000 times { set x += 1 }\n  return x\n}\n')
    world = make_world(rules, [FighterSpec("me")])
    with pytest.raises(RulesError) as caught:
        Interpreter(rules).exact("a", {"f": Ref("fighter", 0)}, world)
    assert caught.value.diagnostic.code == "E403"
    assert caught.value.diagnostic.span.line == 4


def test_exact_work_is_bounded(monkeypatch):
    import warband.run.interpreter as interpreter_module
    monkeypatch.setattr(interpreter_module, "MAX_BRANCHES", 5_000)
    rules = ruleset('ruleset "x"\naction a(f: fighter) -> number {\n  let x = 0\n'
                    '  repeat 30 times { set x += d6 }\n  return x\n}\n')
    world = make_world(rules, [FighterSpec("me")])
    with pytest.raises(RulesError) as caught:
        Interpreter(rules).exact("a", {"f": Ref("fighter", 0)}, world)
    assert caught.value.diagnostic.code == "E504"


# ---- a table's columns: each holds one kind of value ----------------------------------------

COLUMNS = '''
ruleset "columns"
stat Might: 1..20
enum Mood { Calm, Angry }
outcomes res { win = 1  lose = 0 }
table reaction(x) -> (steps, shaken, mood, label, result) "one kind of value a column" {
  when x > 10 => 2, true, Angry, "big", win
  when x > 5  => 1, false, Angry, "middling", lose
  otherwise   => 0, false, Calm, "small", lose
}
action by_flag(f: fighter) -> number {
  let row = reaction(f.Might)
  if row.shaken { return row.steps + 10 }
  return row.steps
}
action by_enum(f: fighter) -> Mood { return reaction(f.Might + d6).mood }
action by_text(f: fighter) -> bool { return reaction(f.Might).label == "middling" }
action by_outcome(f: fighter) -> res {
  let row = reaction(f.Might + d6)
  return row.result
}
'''


@pytest.mark.parametrize("compiled", [True, False])
def test_columns_of_yes_no_enum_text_and_outcome_values(compiled):
    rules = ruleset(COLUMNS)
    world = make_world(rules, [FighterSpec("a", 0, None, {"Might": 11}),
                               FighterSpec("b", 0, None, {"Might": 6})])
    strong, middling = {"f": Ref("fighter", 0)}, {"f": Ref("fighter", 1)}
    interpreter = Interpreter(rules, compiled=compiled)
    assert interpreter.exact("by_flag", strong, world) == Dist.point(12)
    assert interpreter.exact("by_flag", middling, world) == Dist.point(1)
    assert interpreter.exact("by_enum", middling, world) == Dist.point("Angry")
    assert interpreter.exact("by_text", middling, world) == Dist.point(True)
    assert interpreter.exact("by_text", strong, world) == Dist.point(False)
    # 6 + d6 > 10 on a 5 or a 6
    assert interpreter.exact("by_outcome", middling, world) == Dist({"win": F(1, 3),
                                                                    "lose": F(2, 3)})


def test_columns_sample_alike_generated_and_interpreted():
    from test_codegen import check_everything
    assert check_everything(ruleset(COLUMNS), seeds=5) > 20


def test_a_column_of_two_kinds_is_reported_at_the_odd_cell_naming_both():
    compiled = compile_text('ruleset "x"\ntable t(x) -> (a, b) {\n  1 => true, 1\n'
                            '  2 => 3, 2\n  otherwise => false, 3\n}\n'
                            'define u(x) = t(x).a\n', "inline.rules")
    [error] = [d for d in compiled.diagnostics if d.code != "W101"]
    assert error.code == "E302" and (error.span.line, error.span.column) == (4, 8)
    assert "yes/no values" in error.message and "a number" in error.message
