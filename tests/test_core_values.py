"""The language's general core (issue 36, items 1, 2 and 9): traits, equipment and classes as
values (groups of them, tables keyed by them, questions asked of groups), `d(n)`, and the errors
for the slips designers made. Each value is worked out by hand."""

from __future__ import annotations

import re
from fractions import Fraction as F
from pathlib import Path

import pytest

from warband.lang.compiler import compile_text, load
from warband.lang.grammar import reserved_words, statement_words
from warband.run.dice import Dist
from warband.run.interpreter import Interpreter, Policies
from warband.run.world import FighterSpec, Ref, make_world

ROOT = Path(__file__).resolve().parents[1]
HERE = Path(__file__).resolve().parent / "core_values"
A, B = Ref("fighter", 0), Ref("fighter", 1)


def ruleset(text: str):
    compiled = compile_text(text, "inline.rules")
    errors = [d for d in compiled.diagnostics if d.severity.value == "error"]
    assert compiled.ruleset is not None and not errors, [d.message for d in errors]
    return compiled.ruleset


def diagnostics(text: str):
    return compile_text(text, "inline.rules").diagnostics


def both(rules, name: str, args: list, world):
    """A definition's value by the interpreter and by generated code (a procedure returning it)."""
    return Interpreter(rules).call(name, args, world=world)


# ---- traits as values ---------------------------------------------------------------------------

TRAITS = '''
ruleset "traits"
stat Combat: 1..6 default 3
stat Quality: 2..6 default 4
trait Tough(N) "extra wounds"
trait Fast
trait Shooter
trait Blast(N) "hits every fighter within N inches"
equipment Rifle { traits Blast(3), Shooter }
equipment Knife
equipment Boots { grants Fast }
class Hero { traits Tough(2) equipment Rifle }
table cost(t: trait) -> points { Tough => 5  Fast => 10  Shooter => 3  otherwise => 0 }
define price(f: fighter) = (f.Combat * 5 + total(cost(t) for t in f.traits)) * (7 - f.Quality) / 2
define blasts(f: fighter) = total(w.Blast for w in f.equipment)
define gunner(f: fighter) = any(w has Shooter for w in f.equipment)
define armed(f: fighter) = all(w.Blast > 0 for w in f.equipment)
define n_traits(f: fighter) = count(t for t in f.traits)
define n_asked(f: fighter, g: fighter) = count(g has t for t in f.traits)
define own(w: equipment) = count(t for t in w.traits)
define has_it(f: fighter, t: trait) = f has t
action total_price(f: fighter) -> number { return price(f) + blasts(f) * 100 }
'''


@pytest.fixture(scope="module")
def traits():
    return ruleset(TRAITS)


def hero_world(rules, equipment=("Boots",), quality=4):
    return make_world(rules, [
        FighterSpec("hero", 0, "Hero", {"Combat": 4, "Quality": quality}, equipment=equipment),
        FighterSpec("plain", 1, None, {"Combat": 2}, equipment=("Knife",))])


def test_a_fighters_traits_are_a_group_read_in_the_order_declared(traits):
    world = hero_world(traits)
    interp = Interpreter(traits)
    assert interp.field(A, "traits", world) == ("Tough", "Fast")   # class's, and Boots' grant
    assert interp.field(B, "traits", world) == ()
    assert interp.call("n_traits", [A], world=world) == 2
    # (Combat x 5 + Tough 5 + Fast 10) x (7 - 4) / 2
    assert interp.call("price", [A], world=world) == F((4 * 5 + 5 + 10) * 3, 2)
    assert interp.call("price", [B], world=world) == 15   # (2 x 5 + 0) x 3 / 2


def test_a_pieces_trait_number_and_its_own_traits(traits):
    world = hero_world(traits)
    interp = Interpreter(traits)
    assert interp.call("blasts", [A], world=world) == 3   # the Rifle's Blast(3)
    assert interp.call("blasts", [B], world=world) == 0   # a Knife has none
    assert interp.call("own", ["Rifle"], world=world) == 2
    assert interp.call("own", ["Knife"], world=world) == 0
    assert interp.call("gunner", [A], world=world) is True
    assert interp.call("gunner", [B], world=world) is False
    assert interp.call("armed", [A], world=world) is False   # Boots have no Blast
    assert interp.call("armed", [B], world=world) is False
    assert interp.call("has_it", [A, "Fast"], world=world) is True
    assert interp.call("has_it", [B, "Tough"], world=world) is False
    assert interp.call("n_asked", [A, B], world=world) == 0
    assert interp.call("n_asked", [A, A], world=world) == 2


def test_generated_code_agrees(traits):
    world = hero_world(traits)
    generated = Interpreter(traits).sample("total_price", {"f": A}, world)[0]
    interpreted = Interpreter(traits, compiled=False).sample("total_price", {"f": A}, world)[0]
    assert generated == interpreted == F(105, 2) + 300


def test_any_all_count_of_an_empty_group():
    rules = ruleset('''
ruleset "empty"
flag Hurt on fighter
define a(s: side) = any(g.Hurt for g in s.fighters)
define b(s: side) = all(g.Hurt for g in s.fighters)
define c(s: side) = count(g.Hurt for g in s.fighters) + count(g for g in s.fighters if g.Hurt)
''')
    world = make_world(rules, [FighterSpec("x", 0, None, {}, state={"Hurt": True})])
    interp = Interpreter(rules)
    empty, one = Ref("side", 1), Ref("side", 0)
    assert [interp.call(n, [empty], world=world) for n in "abc"] == [False, True, 0]
    assert [interp.call(n, [one], world=world) for n in "abc"] == [True, True, 2]


def test_a_question_that_rolls_is_asked_of_every_member_exactly():
    rules = ruleset('''
ruleset "rolled"
action sixes(f: fighter) -> number { return count(d6 == 6 for g in f.side.fighters) }
action any_six(f: fighter) -> bool { return any(d6 == 6 for g in f.side.fighters) }
''')
    world = make_world(rules, [FighterSpec("x", 0), FighterSpec("y", 0)])
    interp = Interpreter(rules)
    assert interp.exact("sixes", {"f": A}, world) == Dist({0: F(25, 36), 1: F(10, 36),
                                                           2: F(1, 36)})
    assert interp.exact("any_six", {"f": A}, world) == Dist({True: F(11, 36), False: F(25, 36)})


def test_a_points_formula_over_traits_in_a_house_rule_of_super_simple_skirmish():
    compiled = load(str(HERE / "sss-trait-points.rules"))
    assert compiled.ruleset is not None and not compiled.errors, compiled.diagnostics
    rules = compiled.ruleset
    world = make_world(rules, [FighterSpec("g", 0, "Gunner", {"Might": 12}),
                               FighterSpec("m", 1, "Monster", {"Might": 40})])
    interp = Interpreter(rules)
    assert interp.call("points_of", [A], world=world) == 12 + 3 + 5   # Ranged, Blast
    assert interp.call("points_of", [B], world=world) == 40 + 2 + 3 + 1 + 4   # + Defend, Frenzy


def test_a_points_formula_over_traits_in_a_house_rule_of_swords_against_sorcery():
    compiled = load(str(HERE / "sas-trait-points.rules"))
    assert compiled.ruleset is not None and not compiled.errors, compiled.diagnostics
    rules = compiled.ruleset
    world = make_world(rules, [
        FighterSpec("hero", 0, None, {"Training": 8}, traits={"Guts": True, "Bravery": True,
                                                              "Inspiring": True},
                    equipment=("Chainmail",)),
        FighterSpec("ogre", 1, None, {"Training": 4}, traits={"Toughness": 2})])
    interp = Interpreter(rules)
    # (8 x 5 + Guts 6 + Bravery 2 + Inspiring 3 + Armor 1 x 4) x (7 - 2) / 2
    assert interp.call("points_of", [A], world=world) == F((40 + 11 + 4) * 5, 2)
    # (4 x 5 + Toughness 2 x 2) x (7 - 4) / 2
    assert interp.call("points_of", [B], world=world) == 36
    assert interp.call("gifted", [A], world=world) is True
    assert interp.call("gifted", [B], world=world) is False


def test_a_table_keyed_by_trait_names_only_traits():
    found = diagnostics('''
ruleset "keys"
trait Fast
equipment Knife
table cost(t: trait) -> points { Fast => 1  Knife => 2 }
define c() = cost(Fast)
''')
    assert [d.code for d in found if d.code[0] == "E"] == ["E302"], [d.message for d in found]


# ---- d(n) ---------------------------------------------------------------------------------------

def test_a_die_of_computed_sides():
    rules = ruleset('''
ruleset "dn"
stat Quality: 1..12
action roll(f: fighter) -> number { return d(f.Quality) + d(2) }
action bad(f: fighter) -> number { return d(f.Quality - 5) }
''')
    world = make_world(rules, [FighterSpec("x", 0, None, {"Quality": 3})])
    got = Interpreter(rules).exact("roll", {"f": A}, world)
    assert got == Dist({2: F(1, 6), 3: F(2, 6), 4: F(2, 6), 5: F(1, 6)})
    from warband.run.evaluate import RulesError
    with pytest.raises(RulesError) as error:
        Interpreter(rules).exact("bad", {"f": A}, world)
    assert error.value.diagnostic.code == "E403"


def test_d_is_no_reserved_word():
    rules = ruleset('''
ruleset "d"
define d(x) = x * 2
define e() = d(3)
''')
    assert Interpreter(rules).call("e", [], world=make_world(rules, [])) == 6


# ---- errors for the slips designers made --------------------------------------------------------

SLIPS = {
    "count >= f.Quality in 2d6": (
        'stat Quality: 2..6\naction a(f: fighter) -> number { return count >= f.Quality in 2d6 }',
        "E101", "count >= (f.Quality) in 2d6"),
    "count as a name": (
        'action a(f: fighter) -> number { let count = 2  return count + 1 }',
        "E101", "'count' is a word of the language"),
    "while": (   # (turn flow: a while loop has a bound)
        'stat Q: 1..6\naction a(f: fighter) -> number { while f.Q > 2 { set f.Q -= 1 } return 1 }',
        "E101", "while CONDITION at most N times"),
    "break": (
        'action a(f: fighter) -> number { break  return 1 }',
        "E327", "a bare 'return' ends the whole rule"),
    "untyped parameter": (
        'stat Q: 1..6\naction a(attacker, target: fighter) -> number { return attacker.Q }',
        "E302", "write 'attacker: fighter'"),
    "except strike": (
        'phase turn(s: side) { for each f in s.fighters { activate f except strike } }\n'
        'action strike(f: fighter) -> number { return 1 }',
        "E302", 'write except "strike"'),
    "for each where": (
        'flag Hurt on fighter\nphase p(s: side) { for each f in s.fighters where f.Hurt '
        '{ remove f } }', "E101", "for each x in all(x for x in GROUP if CONDITION)"),
}


@pytest.mark.parametrize("slip", list(SLIPS))
def test_each_slip_is_told_how_to_write_it(slip):
    body, code, hint = SLIPS[slip]
    found = diagnostics(f'ruleset "slip"\n{body}\n')
    errors = [d for d in found if d.severity.value == "error"]
    assert len(errors) == 1, [(d.code, d.message) for d in errors]
    assert errors[0].code == code
    assert hint in (errors[0].hint or ""), errors[0].hint


def test_the_statement_hint_lists_every_statement_of_the_grammar():
    found = diagnostics('ruleset "slip"\naction a(f: fighter) -> number { loop 1 }\n')
    hint = found[0].hint or ""
    for word in statement_words():
        assert re.search(rf"\b{word}\b", hint), word


def test_the_reference_lists_every_reserved_word():
    text = (ROOT / "docs" / "language.md").read_text(encoding="utf-8")
    start = text.index("<!-- reserved-words")
    listed = re.findall(r"`([a-z]+)`", text[start:text.index(".\n", start)])
    assert listed == list(reserved_words())
