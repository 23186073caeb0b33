"""Issue 21: a bare `return`, every fighter in play as one group (`fighters`), and `for each ...
by` ordered by several values.

- a bare `return` ends a rule without a result at once: from an `if`, from inside loops of every
  kind (generated code may put a procedure in place of its call, where a `return` becomes a
  `break`: one inside a loop must leave the procedure, not the loop), from a procedure called by
  another; exact odds, sampling and generated code agree;
- `fighters` outside an army section is every fighter in play, of every side, in the order of
  the sides and of their fighters: in `for each ... by`, in aggregates, in `all`, in `choose ...
  among`; a fighter taken out is not in it; an army section's `fighters` stays its warband's;
- `by highest A, lowest B`: B orders the members A ties, and ties of both keep the group's order.

The golden diagnostics are in tests/rules_errors (bare_return_needs_value,
statement_after_bare_return, order_by_a_second_value_not_a_number, warband_fighters_in_a_cost).
"""

from __future__ import annotations

import random
from fractions import Fraction
from pathlib import Path

import pytest

from test_codegen import random_world
from test_differential import outcome, scenario_of, typed
from warband.game.engine import Game
from warband.lang.compiler import compile_text
from warband.run.decisions import Policies
from warband.run.interpreter import Interpreter
from warband.run.world import FighterSpec, Ref, make_world

RULES = '''
ruleset "return-and-everyone"
stat Might: 1..10 default 3
stat Init: 0..10 default 3
counter Hits on fighter
counter Out on side
flag Hurt on fighter

procedure mark(f: fighter) "a hit on 4 or more; else ten" {
  if d6 >= 4 {
    set f.Hits += 1
    return
  }
  set f.Hits += 10
}
procedure count_until_hurt(s: side) "the side's fighters, quickest first, up to a hurt one" {
  for each x in s.fighters by highest x.Init {
    if x.Hurt {
      return
    }
    set s.Out += x.Might
  }
  set s.Out += 100
}
procedure count_to_two(s: side) {
  repeat 5 times {
    set s.Out += 1
    if s.Out >= 2 { return }
  }
  set s.Out += 50
}
procedure everyone_until_hurt(s: side) {
  for each x in s.fighters {
    for each y in fighters {
      if y.Hurt { return }
      set s.Out += 1
    }
  }
  set s.Out += 1000
}
procedure nothing_to_do(s: side) {
  return
}
action go(a: fighter, b: fighter) -> number {
  mark(a)
  count_until_hurt(a.side)
  count_to_two(b.side)
  everyone_until_hurt(b.side)
  nothing_to_do(a.side)
  return a.Hits * 100000 + a.side.Out * 100 + b.side.Out
}
action order(a: fighter, b: fighter) -> number "everyone's Might, in order of Init then Might" {
  let n = 0
  for each f in fighters by highest f.Init, lowest f.Might {
    set n = n * 10 + f.Might
  }
  return n
}
action sums(a: fighter, b: fighter) -> number {
  return total(f.Might for f in fighters) * 10000 + highest(f.Might for f in fighters) * 100
    + lowest(f.Init for f in fighters) + total(1 for f in all(g for g in fighters if g.Hurt)) * 10
}
action pick(a: fighter, b: fighter) -> number {
  choose who by a.side among fighters "anyone in play"
  return who.Might + d6
}
action cull(a: fighter, b: fighter) -> number "b leaves play: everyone is then a alone" {
  remove b
  return total(1 for f in fighters)
}
'''


@pytest.fixture(scope="module")
def ruleset():
    compiled = compile_text(RULES, "everyone.rules")
    assert not [d for d in compiled.diagnostics if d.severity.name == "ERROR"], \
        [d.message for d in compiled.diagnostics]
    return compiled.ruleset


def world_of(ruleset, *fighters: dict, hurt=()):
    specs = [FighterSpec(f"f{i}", i % 2, None, stats, {}, (),
                         {"Hurt": True} if i in hurt else {}, None)
             for i, stats in enumerate(fighters)]
    return make_world(ruleset, specs, sides=[{}, {}])


A, B = Ref("fighter", 0), Ref("fighter", 1)


# ---- a bare return ---------------------------------------------------------------------------

def test_a_bare_return_ends_the_procedure_exactly(ruleset):
    # four fighters: 0 and 2 on side 0, 1 and 3 on side 1; fighter 2 (Init 9) is hurt
    world = world_of(ruleset, {"Might": 2, "Init": 1}, {"Might": 3, "Init": 5},
                     {"Might": 4, "Init": 9}, {"Might": 5, "Init": 2}, hurt=(2,))
    got = Interpreter(ruleset).exact("go", {"a": A, "b": B}, world)
    # count_until_hurt: fighter 2 comes first and is hurt: Out stays 0; count_to_two: 2;
    # everyone_until_hurt: fighters 0 and 1 counted, then 2 is hurt: + 2 -> 4
    side_a, side_b = 0, 4
    assert dict(got.items()) == {1 * 100000 + side_a * 100 + side_b: Fraction(1, 2),
                                 10 * 100000 + side_a * 100 + side_b: Fraction(1, 2)}


def test_a_bare_return_alike_generated_and_interpreted(tmp_path, ruleset):
    scenario = scenario_of(tmp_path, RULES + SCENARIO)
    rng = random.Random(21)
    fast, slow = Game(scenario, 1), Game(scenario, 1)
    slow.interp.compiled = False
    for _ in range(30):
        world = random_world(scenario.ruleset, rng)
        n = len(world.fighters)
        args = {"a": Ref("fighter", rng.randrange(n)), "b": Ref("fighter", rng.randrange(n))}
        for name in ("go", "order", "sums", "cull"):
            got = outcome(fast.interp, lambda: fast.interp.sample(name, args, world))
            want = outcome(slow.interp, lambda: slow.interp.sample(name, args, world))
            assert got == want, (name, world)
        for name in ("count_until_hurt", "count_to_two", "everyone_until_hurt"):
            side = {"s": Ref("side", rng.randrange(2))}
            got = outcome(fast.interp, lambda: fast.interp.sample(name, side, world))
            want = outcome(slow.interp, lambda: slow.interp.sample(name, side, world))
            assert got == want, (name, world)
    from warband.run.codegen import hooks as codegen
    assert not codegen.program_for(fast.interp).fallbacks


def test_a_bare_return_in_a_round_ends_the_round(tmp_path):
    scenario = scenario_of(tmp_path, RULES + SCENARIO)
    for policy in ("random", "first"):
        played = []
        for compiled in (True, False):
            game = Game(scenario, 3, Policies(policy))
            game.interp.compiled = compiled
            played.append((outcome(game.interp, game.play), typed(game.final)))
        assert played[0] == played[1]
        assert played[0][0][0][0] == "ok"
    game = Game(scenario, 3)
    game.play()
    # each round adds 1 to red's Out and returns before the 1000: five rounds
    assert game.final.sides[0].values["Out"] == 5


# ---- every fighter in play ----------------------------------------------------------------------

def test_everyone_in_order_of_several_values(ruleset):
    # Init 5, 7, 5, 7 and Might 4, 3, 2, 1: Init 7 first (Might 1 before 3), then 5 (2 before 4)
    world = world_of(ruleset, {"Might": 4, "Init": 5}, {"Might": 3, "Init": 7},
                     {"Might": 2, "Init": 5}, {"Might": 1, "Init": 7})
    got = Interpreter(ruleset).exact("order", {"a": A, "b": B}, world)
    assert dict(got.items()) == {1324: 1}


def test_ties_of_every_value_keep_the_groups_order(ruleset):
    # everyone alike: the World's order (a game lists each side's fighters in turn)
    world = world_of(ruleset, {"Might": 1, "Init": 5}, {"Might": 1, "Init": 5},
                     {"Might": 1, "Init": 5})
    interp = Interpreter(ruleset)
    refs = interp.global_value("fighters")(world)
    assert refs == tuple(Ref("fighter", i) for i in range(3))


def test_everyone_in_aggregates_and_all(ruleset):
    world = world_of(ruleset, {"Might": 2, "Init": 4}, {"Might": 6, "Init": 1},
                     {"Might": 5, "Init": 3}, hurt=(1, 2))
    got = Interpreter(ruleset).exact("sums", {"a": A, "b": B}, world)
    assert dict(got.items()) == {13 * 10000 + 6 * 100 + 1 + 2 * 10: 1}


def test_everyone_chosen_among(ruleset):
    world = world_of(ruleset, {"Might": 2}, {"Might": 6})
    got = Interpreter(ruleset, policies=Policies("first")).exact("pick", {"a": A, "b": B},
                                                                  world)
    assert dict(got.items()) == {2 + face: Fraction(1, 6) for face in range(1, 7)}


def test_a_fighter_taken_out_is_not_in_play(ruleset):
    world = world_of(ruleset, {"Might": 2}, {"Might": 6}, {"Might": 1})
    got = Interpreter(ruleset).exact("cull", {"a": A, "b": B}, world)
    assert dict(got.items()) == {2: 1}


def test_an_army_keeps_its_own_fighters():
    text = '''ruleset "army-fighters"
stat Might: 1..10 default 3
army {
  cost(f) = f.Might
  points 30
  at most 1 f in fighters where f.Might >= 9 "one champion only"
  require total(f.Might for f in fighters) <= 20 "no more than 20 Might in all"
}
action rally(leader: fighter) -> number "how many stand with the leader" {
  return total(1 for f in fighters if f.side == leader.side)
}
'''
    compiled = compile_text(text, "army.rules")
    assert [d.code for d in compiled.diagnostics] == []


def test_a_declaration_cannot_be_named_fighters():
    compiled = compile_text('ruleset "x"\nstat fighters: 1..3\n', "x.rules")
    assert "E101" in [d.code for d in compiled.diagnostics] or \
        "E202" in [d.code for d in compiled.diagnostics]


def test_a_roll_in_a_later_value_of_the_order_is_not_made_yet(ruleset):
    text = RULES + '''
action shuffled(a: fighter, b: fighter) -> number {
  let n = 0
  for each f in fighters by highest f.Init, lowest d6 {
    set n += 1
  }
  return n
}
'''
    compiled = compile_text(text, "roll.rules")
    errors = [d for d in compiled.diagnostics if d.severity.name == "ERROR"]
    if errors:   # (refused before it runs: as good)
        return
    world = world_of(compiled.ruleset, {"Might": 2}, {"Might": 6})
    from warband.run.evaluate import RulesError
    with pytest.raises(RulesError) as caught:
        Interpreter(compiled.ruleset).exact("shuffled", {"a": A, "b": B}, world)
    assert caught.value.diagnostic.code == "E505"


SCENARIO = '''
scenario arena {
  board 12 by 12 inches
  side red {
    fighter "A" { stat Might = 5  stat Init = 2 }
    fighter "B" { stat Might = 2  stat Init = 8 }
  }
  side blue {
    fighter "C" count 2 { stat Might = 4  stat Init = 5 }
  }
  zone west = edge west depth 3
  zone east = edge east depth 3
  setup {
    deploy red in west
    deploy blue in east
  }
  round {
    set red.Out += 1
    for each f in fighters by highest f.Init, highest f.Might {
      set f.Hits += f.Might
      if f.Hits > 100 {
        return
      }
    }
    if red.Out > 0 {
      return
    }
    set red.Out += 1000
  }
  rounds 5
  score red = red.Out + total(f.Hits for f in fighters if f.side == red)
  score blue = blue.Out + total(f.Hits for f in fighters if f.side == blue)
}
'''


def test_docs_words(tmp_path: Path):
    """(the language reference shows both forms: checked by tests/test_docs.py)"""
    text = (Path(__file__).resolve().parents[1] / "docs" / "language.md").read_text("utf-8")
    assert "for each f in fighters by" in text and "\n    return\n" in text
