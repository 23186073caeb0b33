"""Equipment as a value of the rules language (issue 20, item 6: each piece's cost, tables keyed
by class or equipment, a fighter's cost as base plus gear).

A piece's name is a value (`e == Sword`), as a class's and a tier's are; `f.equipment` is a
fighter's equipment as a group (the class's pieces, then the entry's) for total, highest,
lowest, all and `for each`; `class`, `tier` and `equipment` are parameter types; a table keyed
by one checks each key is of its kind. The golden diagnostics are in tests/rules_errors
(table_key_*.rules, parameter_type_capitalised.rules); test_differential.py runs the forms
through generated code and the interpreter; this file holds the rest: two systems, warbands
validated and shown on a roster, runs both ways, exact odds.
"""

from __future__ import annotations

import json
import random
from fractions import Fraction
from pathlib import Path

import pytest

from warband.lang.compiler import compile_text
from warband.lists.roster import roster
from warband.lists.validate import validate
from warband.run.errors import RulesError
from warband.run.interpreter import Interpreter
from warband.run.world import FighterSpec, Ref, make_world

CROWNS = '''ruleset "crowns"
  title "Crowns: a warband game paid in crowns, base plus gear"

stat Skill: 1..6 "how good a fighter is"
tier hero "bought singly"
tier henchman "bought in groups"
equipment Sword "a plain blade"
equipment Crossbow "slow, but it reaches"
equipment Lantern "lights the way"

class Captain     { tier hero  equipment Sword }
class Lamplighter { tier henchman  equipment Lantern }

table base(c: class) -> crowns "what a fighter costs before gear" {
  Captain => 60
  Lamplighter => 25
}
table price(e: equipment) -> crowns "what each piece costs" {
  Sword => 10
  Crossbow => 25
  otherwise => 0
}
define cost(f: fighter) "base plus gear" = base(f.class) + total(price(e) for e in f.equipment)

army {
  cost(f) = cost(f)
  points 200
  every f in fighters where f is henchman: total(1 for e in f.equipment if e == Crossbow) == 0
    "henchmen carry no crossbows"
}
'''

# a second system: a squad game whose upgrades cost by tier and by piece, with a procedure that
# walks a fighter's equipment and an action whose odds depend on it
SQUADS = '''ruleset "squads-gear"

stat Quality: 2..6
tier elite
tier line
equipment Rifle
equipment HeavyGun
equipment Medkit
class Veteran { tier elite  equipment Rifle }
class Trooper { tier line  equipment Rifle }

table tier_base(t: tier) -> points { elite => 20  line => 10 }
table upgrade(e: equipment) -> (points, dice) {
  Rifle => 0, 0
  HeavyGun => 10, 1
  Medkit => 5, 0
}
define worth(m: fighter) = tier_base(m.tier) + total(upgrade(e).points for e in m.equipment)
define heavy(e: equipment) = upgrade(e).dice > 0

procedure first_upgrade(m: fighter) -> number {
  for each e in m.equipment {
    if e != Rifle {
      return upgrade(e).points
    }
  }
  return 0
}
procedure costliest(m: fighter) -> number {
  for each e in m.equipment by highest upgrade(e).points {
    return upgrade(e).points
  }
  return 0
}
action volley(m: fighter) -> number {
  return count >= (m.Quality) in (1 + total(upgrade(e).dice for e in m.equipment))d6
}
army {
  cost(m) = worth(m)
  quota tier elite at most 1
  every m in fighters: total(1 for e in all(e for e in m.equipment if heavy(e))) <= 1
    "one heavy weapon a model"
}
'''


def _ruleset(text: str, name: str = "rules.rules"):
    compiled = compile_text(text, name)
    assert compiled.errors == [] and compiled.ruleset is not None, \
        [f"{d.span}: {d.message}" for d in compiled.diagnostics]
    return compiled.ruleset


def _write(folder: Path, name: str, text: str) -> str:
    path = folder / name
    path.write_text(text, encoding="utf-8")
    return str(path)


def test_both_systems_compile_clean():
    assert compile_text(CROWNS, "crowns.rules").diagnostics == []
    # (its procedures are for the tests below: no rule of its own calls them)
    assert [(d.code, d.message) for d in compile_text(SQUADS, "squads.rules").diagnostics] == [
        ("W101", "procedure 'first_upgrade' is never used"),
        ("W101", "procedure 'costliest' is never used")]


# ---- a warband's cost as base plus gear -----------------------------------------------------------

VALID = """name: Lanterns
ruleset: crowns.rules
fighters:
  - {name: Marta, class: Captain, skill: 4, equipment: [Crossbow]}
  - {name: Lamps, class: Lamplighter, count: 2, skill: 2, equipment: [Sword]}
"""


def test_a_warband_priced_base_plus_gear_validates_and_shows_its_costs(tmp_path):
    _write(tmp_path, "crowns.rules", CROWNS)
    path = _write(tmp_path, "band.yaml", VALID)
    assert [d.code for d in validate([path]).diagnostics] == []
    shown = roster(path)
    assert shown.valid and shown.model is not None
    cards = {c["name"]: c for c in shown.model["fighters"]}
    # Marta: 60 + Sword (the class's) 10 + Crossbow 25; each Lamplighter 25 + Lantern 0 + Sword 10
    assert cards["Marta"]["cost"] == "95"
    assert cards["Lamps"]["cost"] == "35" and cards["Lamps"]["points"] == "70"
    assert [e["name"] for e in cards["Marta"]["equipment"]] == ["Sword", "Crossbow"]


def test_a_warband_over_its_points_by_its_gear_and_against_a_rule_on_gear(tmp_path):
    _write(tmp_path, "crowns.rules", CROWNS)
    path = _write(tmp_path, "band.yaml", VALID.replace("[Sword]", "[Crossbow, Sword]"))
    found = validate([path]).diagnostics
    assert sorted(d.code for d in found) == ["E701", "E706"], [d.message for d in found]
    over = next(d for d in found if d.code == "E701")
    assert "costs 215 points" in over.message
    rule = next(d for d in found if d.code == "E706")
    assert rule.message.startswith("henchmen carry no crossbows (Lamps x2)")


def test_a_piece_without_a_price_is_reported_at_the_entry(tmp_path):
    _write(tmp_path, "crowns.rules", CROWNS.replace("  otherwise => 0\n", ""))
    path = _write(tmp_path, "band.yaml", VALID)
    [found] = validate([path]).diagnostics
    assert found.code == "E704"
    assert "no row of table 'price' matches e=Lantern" in found.message


def test_a_second_system_prices_by_tier_and_piece(tmp_path):
    _write(tmp_path, "squads.rules", SQUADS)
    valid = _write(tmp_path, "valid.yaml", """name: Squad
ruleset: squads.rules
fighters:
  - {name: Sarge, class: Veteran, quality: 3, equipment: [Medkit]}
  - {name: Guns, class: Trooper, count: 3, quality: 4, equipment: [HeavyGun]}
""")
    assert [d.code for d in validate([valid]).diagnostics] == []
    cards = {c["name"]: c for c in roster(valid).model["fighters"]}
    assert cards["Sarge"]["cost"] == "25" and cards["Guns"]["points"] == "60"
    invalid = _write(tmp_path, "invalid.yaml", """name: Squad
ruleset: squads.rules
fighters:
  - {name: Sarge, class: Veteran, quality: 3}
  - {name: Guns, class: Trooper, quality: 4, equipment: [HeavyGun, HeavyGun]}
""")
    [found] = validate([invalid]).diagnostics
    assert found.code == "E706" and found.message.startswith("one heavy weapon a model")


# ---- the checker --------------------------------------------------------------------------------------

def _messages(text: str) -> list[tuple[str, str]]:
    return [(d.code, d.message) for d in compile_text(text, "case.rules").diagnostics]


HEAD = '''ruleset "case"
stat Skill: 1..6
tier hero
equipment Sword
equipment Crossbow
class Captain { tier hero  equipment Sword }
'''


def test_a_piece_compares_only_with_a_piece():
    found = _messages(HEAD + "define odd(f: fighter) = total(1 for e in f.equipment if "
                             "e == Captain)\narmy { cost(f) = odd(f) }\n")
    assert found == [("E302", "cannot compare a piece of equipment with a class")]


def test_arguments_of_the_wrong_kind():
    found = _messages(HEAD + "table price(e: equipment) -> c { Sword => 1  otherwise => 2 }\n"
                             "army { cost(f) = price(f.class) }\n")
    assert found == [("E302", "argument 'e' must be a piece of equipment, not a class")]


def test_an_untyped_parameter_with_named_keys_is_reported_once_with_the_type_to_write():
    found = compile_text(HEAD + "table price(e) -> c { Sword => 1  Crossbow => 2 }\n"
                                "army { cost(f) = price(1) }\n", "case.rules").diagnostics
    assert [(d.code, d.message, d.hint) for d in found] == [
        ("E302", ("'Sword' is a piece of equipment, but table 'price' is keyed by a number "
                  "(parameter 'e')"), "say what the table is keyed by: table price(e: equipment)")]


def test_an_enum_key_is_checked_against_its_enum():
    found = _messages(HEAD + "enum Size { small big }\n"
                             "table t(s: Size) -> n { small => 1  bgi => 2  Sword => 3 }\n"
                             "army { cost(f) = t(small) }\n")
    assert found == [("E201", "'bgi' is not a value of 'Size'"),
                     ("E302", ("'Sword' is a piece of equipment, but table 't' is keyed by a "
                               "value of 'Size' (parameter 's')"))]


def test_a_fighters_equipment_cannot_be_changed_nor_chosen_among():
    found = _messages(HEAD + "action arm(f: fighter) { set f.equipment = Sword }\n"
                             "action pick(f: fighter) { choose e by f among f.equipment }\n")
    assert found[0] == ("E308", "a fighter's 'equipment' cannot be changed")
    assert found[-1] == ("E302", ("'choose ... among' picks a fighter, a side or a piece on "
                                  "the board, not a piece of equipment"))


def test_the_types_written_out():
    text = HEAD + '''define is_hero(t: tier) = t == hero
define is_captain(c: class) = c == Captain
procedure best(f: fighter) -> equipment {
  for each e in f.equipment by highest (if e == Crossbow then 2 else 1) {
    return e
  }
  return Sword
}
army { cost(f) = (if is_hero(f.tier) and is_captain(f.class) then 2 else 1) }
action swing(f: fighter) -> number {
  let e = best(f)
  return if e == Sword then 1 else 0
}
'''
    assert _messages(text) == []


# ---- running: interpreter and generated code alike --------------------------------------------------

def _world(ruleset, *equipment):
    specs = [FighterSpec(f"m{i}", i % 2, "Trooper", {"Quality": 4}, {}, tuple(gear))
             for i, gear in enumerate(equipment)]
    return make_world(ruleset, specs)


@pytest.mark.parametrize("gear,points,costliest", [
    ((), 0, 0), (("HeavyGun",), 10, 10), (("Medkit", "HeavyGun", "Medkit"), 5, 10)])
def test_procedures_walk_a_fighters_equipment_both_ways(gear, points, costliest):
    ruleset = _ruleset(SQUADS)
    world = _world(ruleset, gear)
    for compiled in (True, False):
        interp = Interpreter(ruleset, rng=random.Random(1), compiled=compiled)
        args = {"m": Ref("fighter", 0)}
        assert interp.sample("first_upgrade", args, world)[0] == points
        assert interp.sample("costliest", args, world)[0] == costliest


def test_a_missing_key_is_the_same_error_both_ways():
    ruleset = _ruleset(SQUADS.replace("  Medkit => 5, 0\n", "").replace(
        "equipment Medkit", "equipment Medkit\nequipment Spade"), "squads.rules")
    world = _world(ruleset, ("Spade",))
    errors = []
    for compiled in (True, False):
        interp = Interpreter(ruleset, rng=random.Random(1), compiled=compiled)
        with pytest.raises(RulesError) as caught:
            interp.sample("first_upgrade", {"m": Ref("fighter", 0)}, world)
        errors.append((caught.value.diagnostic.code, caught.value.diagnostic.message))
    assert errors[0] == errors[1] == ("E501", "no row of table 'upgrade' matches e=Spade")


def test_exact_odds_of_a_roll_sized_by_gear():
    """volley rolls one die and one more per heavy weapon, counting those of Quality or more:
    with a HeavyGun and Quality 4, two dice, each a success with chance 1/2."""
    ruleset = _ruleset(SQUADS)
    world = _world(ruleset, ("HeavyGun",))
    dist = Interpreter(ruleset).exact("volley", {"m": Ref("fighter", 0)}, world)
    assert dict(dist.items()) == {0: Fraction(1, 4), 1: Fraction(1, 2), 2: Fraction(1, 4)}


def test_a_derived_stat_worked_out_from_gear_shows_on_the_roster(tmp_path):
    rules = CROWNS.replace('define cost(f: fighter)', 'stat Worth(f): 0..500 "base plus gear" as '
                           'base(f.class) + total(price(e) for e in f.equipment)\n'
                           'define cost(f: fighter)')
    rules = rules.replace("cost(f) = cost(f)", "cost(f) = f.Worth")
    _write(tmp_path, "crowns.rules", rules)
    path = _write(tmp_path, "band.yaml", VALID)
    assert [d.code for d in validate([path]).diagnostics] == []
    cards = {c["name"]: c for c in roster(path).model["fighters"]}
    worth = {name: next(s["value"] for s in card["stats"] if s["name"] == "Worth")
             for name, card in cards.items()}
    assert worth == {"Marta": "95", "Lamps": "35"}
    assert cards["Marta"]["cost"] == "95"


def test_weighing_a_fighters_equipment_counts_against_the_work_budget_both_ways(monkeypatch):
    """Each piece an aggregate weighs is a step of the evaluation's budget (run/budget.py), in
    generated code as in the interpreter: past the limit, E403 at the same place."""
    from warband.run import budget
    ruleset = _ruleset(SQUADS + '''
procedure weigh(m: fighter) -> number {
  return total(total(upgrade(e).points for e in m.equipment) for x in m.side.fighters)
}
''')
    world = _world(ruleset, ("Medkit",) * 6, (), ("Medkit",) * 6)
    monkeypatch.setattr(budget, "MAX_SAMPLED_STEPS", 10)
    found = []
    for compiled in (True, False):
        interp = Interpreter(ruleset, rng=random.Random(1), compiled=compiled)
        with pytest.raises(RulesError) as caught:
            interp.sample("weigh", {"m": Ref("fighter", 0)}, world)
        found.append((caught.value.diagnostic.code, caught.value.diagnostic.span))
    assert found[0] == found[1] and found[0][0] == "E403"
    monkeypatch.setattr(budget, "MAX_SAMPLED_STEPS", 100)
    for compiled in (True, False):
        interp = Interpreter(ruleset, rng=random.Random(1), compiled=compiled)
        assert interp.sample("weigh", {"m": Ref("fighter", 0)}, world)[0] == 60


def test_odds_take_a_piece_of_equipment_for_a_parameter(tmp_path):
    from typer.testing import CliRunner

    from warband.cli import app
    path = _write(tmp_path, "odds.rules", '''ruleset "odds-gear"
stat Skill: 1..6
equipment Sword
equipment Axe
table bonus(w: equipment) -> n { Sword => 1  Axe => 2 }
action strike(a: fighter, weapon: equipment = Sword) -> number {
  return if d6 + bonus(weapon) >= 6 then 1 else 0
}
''')
    runner = CliRunner()
    shown = runner.invoke(app, ["odds", path, "--action", "strike", "--attacker", "skill=3",
                                "--with", "weapon=Axe", "--format", "json"])
    assert shown.exit_code == 0, shown.output
    # an Axe adds 2: a 4 or more on the die
    assert json.loads(shown.output)["outcomes"] == {"0": "1/2", "1": "1/2"}
    sword = runner.invoke(app, ["odds", path, "--action", "strike", "--attacker", "skill=3",
                                "--format", "json"])
    assert json.loads(sword.output)["outcomes"] == {"0": "2/3", "1": "1/3"}
    wrong = runner.invoke(app, ["odds", path, "--action", "strike", "--attacker", "skill=3",
                                "--with", "weapon=Axxe"])
    assert wrong.exit_code != 0 and "'weapon' is one of Sword, Axe" in wrong.output
    assert "did you mean 'Axe'?" in wrong.output


def test_pieces_returned_by_procedures_and_held_in_table_columns_both_ways():
    ruleset = _ruleset(SQUADS + '''
table standard(c: class) -> (weapon, spare) { Veteran => Rifle, Medkit  otherwise => Rifle, Rifle }
procedure best(m: fighter) -> equipment {
  for each e in m.equipment by highest upgrade(e).points {
    return e
  }
  return standard(m.class).weapon
}
action kit(m: fighter) -> number {
  let e = best(m)
  return upgrade(e).points * 10 + upgrade(standard(m.class).spare).points
}
''')
    for gear, want in (((), 0), (("Medkit",), 50), (("Medkit", "HeavyGun"), 100)):
        world = _world(ruleset, gear)
        for compiled in (True, False):
            interp = Interpreter(ruleset, rng=random.Random(1), compiled=compiled)
            assert interp.sample("kit", {"m": Ref("fighter", 0)}, world)[0] == want
            assert interp.sample("best", {"m": Ref("fighter", 0)}, world)[0] == \
                (gear and max(gear, key=lambda e: {"Medkit": 5, "HeavyGun": 10}[e]) or "Rifle")
