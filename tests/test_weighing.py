"""Greedy decisions of exact odds that leave unfinished the options a later decision of the other
side shows cannot be taken (run/weighing.py) give exactly the fractions of weighing every
option whole.

- Brute force: small games of decisions by both sides in a row (with a roll between them, with
  a third decision, with many equal worths), against plain Python weighing every choice, and
  against the same run weighing everything (Interpreter.prune False) and following every path
  on its own (Interpreter.merge False), with what the run changed observed.
- Stored: Swords Against Sorcery's exchange, greedy hands, Training 3 to 5 each side, as the
  toolkit gave it before options were left unfinished (tests/merging/sas_exchange_greedy.json):
  the same joint distribution of the result and every value the action changed.
- Work: a hand against a hand is weighed for far fewer pairs than every pair.
"""

from __future__ import annotations

import itertools
import json
import random
from fractions import Fraction
from pathlib import Path

import pytest

from warband.lang.compiler import compile_text, load
from warband.run.decisions import Policies
from warband.run.interpreter import Interpreter
from warband.run.odds import _observer, parse_fighter, parse_policies
from warband.run.world import FighterSpec, Ref, make_world

ROOT = Path(__file__).resolve().parents[1]
A, B = Ref("fighter", 0), Ref("fighter", 1)


def _observe(world):
    return tuple(f.values.get("Spent", 0) for f in world.fighters)


def game(worths: dict, picks: int, roll: int, third: bool) -> str:
    """x picks p, a d`roll` is rolled (none when roll is 0), y picks q, and x picks s when
    `third`; the result is worths[p, q, r] + s * (r - 1) (s is 0 without a third pick)."""
    rows = "\n".join(f"  when p == {p} and q == {q} and r == {r} => {w}"
                     for (p, q, r), w in worths.items())
    rolled = f"let r = d{roll}" if roll else "let r = 1"
    after = ("choose s by x from 0..1 default 0 \"x again\"\n  set x.Spent += s"
             if third else "let s = 0")
    return f'''ruleset "g"
counter Spent on fighter
table worth(p, q, r) -> number {{
{rows}
  otherwise => 0
}}
action a(x: fighter, y: fighter) -> number {{
  choose p by x from 0..{picks - 1} default 0 "x first"
  set x.Spent += p
  {rolled}
  choose q by y from 0..{picks - 1} default 0 "y then"
  set y.Spent += q
  {after}
  return worth(p, q, r) + s * (r - 1)
}}
'''


def best(options, value, sign):
    """The first option of the best value for the side of sign."""
    found = None
    for o in options:
        v = value(o) * sign
        if found is None or v > found[1]:
            found = (o, v)
    return found[0]


def brute(worths: dict, picks: int, roll: int, third: bool) -> dict:
    """{(result, (x's Spent, y's Spent)): probability}, each pick greedy on what follows."""
    faces = range(1, roll + 1) if roll else [1]
    share = Fraction(1, len(faces))

    def after_y(p, q, r):   # -> [(probability, result, spent)]
        def at(s):
            return worths.get((p, q, r), 0) + s * (r - 1)
        s = best([0, 1], at, 1) if third else 0
        return [(Fraction(1), at(s), (p + s, q))]

    def after_roll(p, r):
        q = best(range(picks), lambda q: sum(pr * v for pr, v, _ in after_y(p, q, r)), -1)
        return after_y(p, q, r)

    def mean(p):
        return sum(share * pr * v for r in faces for pr, v, _ in after_roll(p, r))
    p = best(range(picks), mean, 1)
    out: dict = {}
    for r in faces:
        for pr, v, spent in after_roll(p, r):
            out[(v, spent)] = out.get((v, spent), 0) + share * pr
    return out


def exact(ruleset, merge: bool, prune: bool):
    world = make_world(ruleset, [FighterSpec("x", 0), FighterSpec("y", 1)])
    interp = Interpreter(ruleset, Policies("greedy"))
    interp.merge, interp.prune = merge, prune
    found = interp.exact("a", {"x": A, "y": B}, world, observe=_observe)
    return dict(found.items()), interp.branches


@pytest.mark.parametrize("seed", range(24))
def test_left_unfinished_as_weighed_whole(seed):
    rng = random.Random(seed)
    picks = rng.choice([2, 3, 4])
    roll = rng.choice([0, 0, 2, 3])
    third = rng.random() < 0.4
    spread = rng.choice([1, 2, 5])   # (a small spread: many equal worths, ties to break)
    worths = {(p, q, r): rng.randint(-spread, spread)
              for p, q, r in itertools.product(range(picks), range(picks),
                                               range(1, max(roll, 1) + 1))}
    ruleset = compile_text(game(worths, picks, roll, third), "g.rules").ruleset
    assert ruleset is not None
    pruned, _ = exact(ruleset, True, True)
    assert pruned == exact(ruleset, True, False)[0] == exact(ruleset, False, True)[0]
    assert pruned == brute(worths, picks, roll, third)


def test_an_answer_that_refutes_leaves_the_other_answers_unweighed():
    """x's 8 picks against y's 8 answers: weighing every pair runs 64 of them; y's answer 0
    gives x less for every pick but the first, so once that pick is weighed, one answer shows
    each other pick cannot be better."""
    worths = {(p, q, 1): (-p if q == 0 else 10 - p) for p in range(8) for q in range(8)}
    ruleset = compile_text(game(worths, 8, 0, False), "g.rules").ruleset
    pruned, work = exact(ruleset, True, True)
    whole, all_work = exact(ruleset, True, False)
    assert pruned == whole == brute(worths, 8, 0, False)
    assert work * 2 < all_work


def test_a_card_drawn_while_an_option_is_weighed():
    """A draw from a bag inside an option a greedy decision weighs: each card weighed by its
    expected score (it was a TypeError: a draw mixed distributions where a weighing adds up
    scores). Drawing twice and paying 1 is worth -1/3 against 1/3 for one draw."""
    text = '''ruleset "d"
enum Chit { Gold  Blank }
bag loot of Chit per side { 2 Gold  4 Blank }
action search(f: fighter) -> number {
  choose how by f {
    option twice {
      draw c from f.side.loot
      draw d from f.side.loot
      return (if c == Gold then 1 else 0) + (if d == Gold then 1 else 0) - 1
    }
    option once
  }
  draw c from f.side.loot
  return if c == Gold then 1 else 0
}
'''
    ruleset = compile_text(text, "d.rules").ruleset
    world = make_world(ruleset, [FighterSpec("a", 0), FighterSpec("b", 1)])
    found = []
    for merge in (True, False):
        interp = Interpreter(ruleset, Policies("greedy"))
        interp.merge = merge
        found.append(dict(interp.exact("search", {"f": A}, world).items()))
    assert found[0] == found[1] == {0: Fraction(2, 3), 1: Fraction(1, 3)}


# ---- Swords Against Sorcery: the fractions as before ---------------------------------------------

EXPECTED = json.loads((ROOT / "tests" / "merging" / "sas_exchange_greedy.json").read_text())


@pytest.mark.parametrize("training", [3, 4, 5])
def test_sas_greedy_hands_as_before(training):
    ruleset = load("swords-against-sorcery").ruleset
    diagnostics: list = []
    fighters = [parse_fighter(f"Training={training}", "--attacker", ruleset, 0, diagnostics),
                parse_fighter(f"Training={training}", "--target", ruleset, 1, diagnostics)]
    policies = parse_policies(["greedy"], ruleset, diagnostics)
    assert not diagnostics
    world = make_world(ruleset, [f.spec for f in fighters], [{}, {}])
    interp = Interpreter(ruleset, policies)
    interp.acting = A
    observe, _ = _observer(ruleset.procedures["exchange"], world, interp)
    found = interp.exact("exchange", {"attacker": A, "target": B}, world, observe=observe)
    got = sorted([result, [[label, v] for label, v in changed],
                  f"{p.numerator}/{p.denominator}"] for (result, changed), p in found.items())
    assert got == EXPECTED[str(training)]
