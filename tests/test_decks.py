"""Decks and bags (issue 36, item 2): piles of an enumeration's values drawn without
replacement, kept per game or per side, with a hand, discards and a reshuffle rule. Exact odds
weigh each card by how many of it are left; played games draw from the dice stream, generated
code and interpreter alike (tests/test_differential.py plays every statement). Tested on two
shipped systems by house rules (tests/decks/) and on small rulesets here."""

from __future__ import annotations

from fractions import Fraction as F
from pathlib import Path

import pytest

from warband.lang.compiler import compile_text, load
from warband.run.dice import Dist
from warband.run.evaluate import RulesError
from warband.run.interpreter import Interpreter
from warband.run.world import FighterSpec, Ref, make_world

HERE = Path(__file__).resolve().parent / "decks"
A, B = Ref("fighter", 0), Ref("fighter", 1)


def loaded(name: str):
    compiled = load(str(HERE / name))
    assert compiled.ruleset is not None and not compiled.errors, compiled.diagnostics
    return compiled.ruleset


def codes(text: str) -> list[str]:
    return [d.code for d in compile_text(text, "inline.rules").diagnostics
            if d.severity.value == "error"]


@pytest.fixture(scope="module")
def sss():
    return loaded("sss-event-deck.rules")


@pytest.fixture(scope="module")
def sas():
    return loaded("sas-loot-bag.rules")


def sss_world(rules):
    return make_world(rules, [FighterSpec("a", 0, "Soldier", {"Might": 10}),
                              FighterSpec("b", 1, "Soldier", {"Might": 10})])


def sas_world(rules):
    return make_world(rules, [FighterSpec("a", 0, None, {"Training": 4}),
                              FighterSpec("b", 1, None, {"Training": 4})])


# ---- exact odds: a draw is a chance among the cards left ----------------------------------------

def test_a_draw_weighs_each_card_by_how_many_are_left(sss):
    got = Interpreter(sss).exact("aimed_shot", {"shooter": A, "target": B}, sss_world(sss))
    # Gust 1/4 (a 6 only), Clear 2/4 (4 to 6), Sun 1/4 (3 to 6)
    assert got == Dist({1: F(1, 4) * F(1, 6) + F(2, 4) * F(3, 6) + F(1, 4) * F(4, 6),
                        0: 1 - (F(1, 4) * F(1, 6) + F(2, 4) * F(3, 6) + F(1, 4) * F(4, 6))})


def test_cards_are_drawn_without_replacement(sss):
    got = Interpreter(sss).exact("two_omens", {"shooter": A}, sss_world(sss))
    assert got == Dist({1: F(2, 4) * F(1, 3), 0: 1 - F(2, 4) * F(1, 3)})


def test_a_deck_per_side_is_each_sides_own_and_its_hand_is_a_group(sas):
    interp = Interpreter(sas)
    world = sas_world(sas)
    got = interp.exact("search", {"f": A}, world)
    assert got == Dist({1: F(2, 4), 0: F(2, 4)})   # a Nothing in the hand, or not
    # sampled, generated and interpreted alike: the side's own bag changes, the other's not
    import random
    from warband.run.decisions import Policies
    runs = []
    for compiled in (True, False):
        interp = Interpreter(sas, Policies("first"), rng=random.Random(7))
        interp.compiled = compiled
        w = world
        for _ in range(3):
            _, w = interp.sample("search", {"f": A}, w)
        runs.append(w)
        assert w.sides[1].values == world.sides[1].values
        assert w.sides[0].values != world.sides[0].values
    assert runs[0].sides[0].values == runs[1].sides[0].values


def test_a_draw_from_an_empty_pile_is_E514_and_asking_first_is_not(sas):
    interp = Interpreter(sas)
    with pytest.raises(RulesError) as error:
        interp.exact("empty_out", {"f": A}, sas_world(sas))
    assert error.value.diagnostic.code == "E514"
    assert "ask first" in (error.value.diagnostic.hint or "")
    # asking first: every token drawn, then the discards shuffled back in
    assert interp.exact("careful", {"f": A}, sas_world(sas)) == Dist({4: 1})


def test_a_discard_the_hand_does_not_hold_is_E514(sas):
    with pytest.raises(RulesError) as error:
        Interpreter(sas).exact("cash_nothing", {"f": A}, sas_world(sas))
    assert error.value.diagnostic.code == "E514"


def test_reshuffle_when_empty_shuffles_the_discards_back_in(sss):
    rules = compile_text('''
ruleset "reshuffled"
enum Card { One  Two }
deck small of Card per game { One  Two  reshuffle when empty }
deck plain of Card per game { One  Two }
action three(f: fighter) -> number {
  draw a from small
  draw b from small
  draw c from small
  return if c == One then 1 else 0
}
action three_plain(f: fighter) -> number {
  draw a from plain
  draw b from plain
  draw c from plain
  return 0
}
''', "inline.rules").ruleset
    assert rules is not None
    world = make_world(rules, [FighterSpec("a", 0)])
    assert Interpreter(rules).exact("three", {"f": A}, world) == Dist({1: F(1, 2), 0: F(1, 2)})
    with pytest.raises(RulesError) as error:
        Interpreter(rules).exact("three_plain", {"f": A}, world)
    assert error.value.diagnostic.code == "E514"


def test_a_sampled_draw_follows_the_counts(sss):
    import random
    from warband.run.decisions import Policies
    counts = {1: 0, 0: 0}
    interp = Interpreter(sss, Policies("first"), rng=random.Random(3))
    for _ in range(2000):
        counts[interp.sample("two_omens", {"shooter": A}, sss_world(sss))[0]] += 1
    assert 0.12 < counts[1] / 2000 < 0.22   # 1/6


# ---- the checker ---------------------------------------------------------------------------------

DECK = '''
ruleset "decks"
enum Card { Ace  King }
counter Luck on side
'''


@pytest.mark.parametrize("text, code", [
    ("deck d of Nope per game { Ace }", "E201"),            # no such enumeration
    ("deck d of Luck per game { Ace }", "E204"),            # not an enumeration
    ("deck d of Card per game { Queen }", "E201"),          # not one of its values
    ("deck d of Card per game { Ace  2 Ace }", "E202"),     # a card listed twice
    ("deck d of Card per game { 0 Ace }", "E305"),          # none of a card
    ("deck d of Card per turn { Ace }", "E201"),            # per side or per game
    ("deck d of Card per game { Ace  reshuffle when full }", "E201"),
    ("deck d of Card per side { Ace }\naction a(f: fighter) { draw c from d }", "E204"),
    ("deck d of Card per game { Ace }\naction a(f: fighter) { draw c from f.side }", "E302"),
    ("deck d of Card per game { Ace }\naction a(f: fighter) { draw c from d to pocket }", "E201"),
    ("deck d of Card per game { Ace }\naction a(f: fighter) { discard Luck from d }", "E204"),
    ("deck d of Card per game { Ace }\naction a(f: fighter) -> number { return d.size }", "E203"),
    ("deck d of Card per side { Ace }\naction a(f: fighter) { set f.side.d = 1 }", "E308"),
])
def test_slips_with_decks_are_reported(text, code):
    assert code in codes(DECK + text)


def test_a_deck_that_is_well_used_has_no_error():
    assert codes(DECK + '''
deck d of Card per side "a side's own" { 2 Ace  King  reshuffle when empty }
table worth(c: Card) -> number { Ace => 11  King => 4 }
action a(f: fighter) -> number {
  draw c from f.side.d to hand
  for each h in f.side.d.hand {
    set f.side.Luck += worth(h)
  }
  if c == Ace {
    discard Ace from f.side.d
  }
  shuffle f.side.d
  return f.side.d.left + f.side.d.discards
}
''') == []
