"""Units of several models (docs/language.md, "Units of several models").

The goldens are tests/rules_errors/unit_*.rules (E319, E320, E321) and
tests/warband_errors/squad_*.yaml (E634, E635); this file holds what goldens cannot say:

- wounds are taken model by model, checked against a naive twin that takes them one at a time
  (the whole class of off-by-one: every unit size, wounds per model, wounds left and amount);
- exact odds of wounds against a unit, against a brute force over every face of the dice, on
  two systems: a squad game of the tests' own (tests/units/squad.rules) and Super Simple
  Skirmish with squads as house rules (tests/units/sss-squads.rules);
- the generated code agrees with the interpreter (and E511 both ways);
- a list fields a unit's models (`models: 7`), its cost reads them, and a game starts with them;
- `warband odds` takes `models=N` and reports models lost; the game log shows models lost.
"""

from __future__ import annotations

import itertools
import random
from collections import Counter
from fractions import Fraction
from pathlib import Path

import pytest
from typer.testing import CliRunner

import test_codegen
from warband.cli import app
from warband.lang.compiler import compile_text, load
from warband.lists.validate import Validation
from warband.run import odds, units
from warband.run.decisions import Policies
from warband.run.evaluate import RulesError
from warband.run.interpreter import Interpreter
from warband.run.world import FighterSpec, Ref, make_world

ROOT = Path(__file__).resolve().parents[1]
SQUAD = ROOT / "tests" / "units" / "squad.rules"
SSS_SQUADS = ROOT / "tests" / "units" / "sss-squads.rules"
BATTLE = ROOT / "tests" / "units" / "squad-battle.rules"


def ruleset_of(path: Path):
    compiled = load(str(path))
    assert compiled.ruleset is not None, compiled.diagnostics
    return compiled.ruleset


# ---- wounds model by model ----------------------------------------------------------------------

def naive(models: int, left: int, per: int, amount: int) -> tuple[int, int]:
    """One wound at a time: the model taking them loses one, and at none it is gone."""
    for _ in range(amount):
        if models == 0:
            break
        left -= 1
        if left == 0:
            models -= 1
            left = per if models else 0
    return models, left


def test_wounds_are_taken_model_by_model_as_one_at_a_time():
    for models, per in itertools.product(range(1, 6), range(1, 5)):
        for left, amount in itertools.product(range(1, per + 1), range(0, models * per + 4)):
            assert units.after_wounds(models, left, per, amount) == \
                naive(models, left, per, amount), (models, left, per, amount)


def test_a_unit_starts_with_its_entrys_models_and_its_wounds_per_model():
    ruleset = ruleset_of(SQUAD)
    world = make_world(ruleset, [FighterSpec("a", 0, "Trooper", models=7),
                                 FighterSpec("b", 1, "Brute"), FighterSpec("c", 1, "Ogre"),
                                 FighterSpec("d", 0, "Hero")])
    got = [(f.values["#models"], f.values["#models_start"], f.values["#wounds_left"],
            f.values["#model_wounds"]) for f in world.fighters]
    # a Brute reads Tough(2); an Ogre is one model of 3 wounds; a Hero one model of one wound
    assert got == [(7, 7, 1, 1), (3, 3, 2, 2), (1, 1, 3, 3), (1, 1, 1, 1)]


def test_a_ruleset_without_units_keeps_no_unit_values():
    """No work for games that do not use units: their fighters' values are as before."""
    ruleset = load("super-simple-skirmish").ruleset
    assert not ruleset.has_units
    world = make_world(ruleset, [FighterSpec("a", 0, "Soldier", {"Might": 10})])
    assert not any(k.startswith("#") for k in world.fighters[0].values)


# ---- exact odds against brute force -------------------------------------------------------------

def fighter(ruleset, text: str, side: int):
    found: list = []
    parsed = odds.parse_fighter(text, "--t", ruleset, side, found)
    assert not found, found
    return parsed


def models_lost(result) -> dict:
    return dict(result.effects.get("t.models lost", {0: Fraction(1)}).items())


def test_four_shots_at_a_unit_of_three_two_wound_models_brute_force():
    """4 shots hitting on 4+ against 3 models of 2 wounds (Tough(2)): every face of 4d6."""
    ruleset = ruleset_of(SQUAD)
    result = odds.compute(ruleset, "volley", [fighter(ruleset, "class=Trooper", 0),
                                              fighter(ruleset, "class=Brute", 1)], {},
                          Policies("first"))
    brute: Counter = Counter()
    for faces in itertools.product(range(1, 7), repeat=4):
        hits = sum(1 for f in faces if f >= 4)
        brute[3 - naive(3, 2, 2, hits)[0]] += 1
    assert models_lost(result) == {k: Fraction(v, 6 ** 4) for k, v in brute.items()}
    # by hand: 0 or 1 hit loses none (5/16), 2 or 3 one model (10/16), 4 two models (1/16)
    assert models_lost(result) == {0: Fraction(5, 16), 1: Fraction(5, 8), 2: Fraction(1, 16)}


def test_a_rolled_number_of_dice_and_its_outcomes_brute_force():
    """3 troopers, 2 shots each, hitting on 4+ (Skill 4), at an Ogre (one model, 3 wounds):
    the dice are counted from the unit's models; wiped at 3 hits or more."""
    ruleset = ruleset_of(SQUAD)
    result = odds.compute(ruleset, "shoot", [fighter(ruleset, "class=Trooper models=3", 0),
                                             fighter(ruleset, "class=Ogre", 1)], {},
                          Policies("first"))
    brute: Counter = Counter()
    for faces in itertools.product(range(1, 7), repeat=6):
        hits = sum(1 for f in faces if f >= 4)
        brute["wiped" if hits >= 3 else "none"] += 1   # one model: none lost until it is gone
    assert dict(result.distribution.items()) == {k: Fraction(v, 6 ** 6)
                                                 for k, v in brute.items()}


def test_super_simple_skirmish_squads_brute_force():
    """The second system: SSS with squads (house rules). Two models of Might 10 against three:
    each 3d6 of 15 or more (the equal band's kill) takes a model."""
    ruleset = ruleset_of(SSS_SQUADS)
    result = odds.compute(ruleset, "squad_fire", [
        fighter(ruleset, "class=Squad Might=10 models=2", 0),
        fighter(ruleset, "class=Squad Might=10 models=3", 1)], {}, Policies("first"))
    kill = sum(1 for f in itertools.product(range(1, 7), repeat=3) if sum(f) >= 15)
    brute: Counter = Counter()
    for a, b in itertools.product(range(216), repeat=2):
        brute[(a < kill) + (b < kill)] += 1
    want = {k: Fraction(v, 216 ** 2) for k, v in brute.items()}
    assert dict(result.distribution.items()) == want
    assert dict(result.effects["target.models lost"].items()) == want


def test_the_last_model_gone_the_unit_is_a_casualty():
    ruleset = ruleset_of(SQUAD)
    result = odds.compute(ruleset, "volley", [fighter(ruleset, "class=Trooper", 0),
                                              fighter(ruleset, "class=Brute models=1", 1)],
                          {}, Policies("first"))
    # one model of 2 wounds: removed at 2 hits or more (11/16)
    assert dict(result.effects["t.removed"].items()) == {False: Fraction(5, 16),
                                                         True: Fraction(11, 16)}


# ---- generated code and the interpreter -----------------------------------------------------------

@pytest.mark.parametrize("path", [SQUAD, SSS_SQUADS], ids=lambda p: p.stem)
def test_generated_code_agrees_with_the_interpreter(path):
    assert test_codegen.check_everything(ruleset_of(path), seeds=6) > 20


@pytest.mark.parametrize("compiled", [True, False])
@pytest.mark.parametrize("amount", ["0 - 1", "3 / 2"])
def test_wounds_that_are_not_a_whole_number_are_e511(compiled, amount):
    text = SQUAD.read_text() + f'''
action bad(a: fighter) {{
  inflict {amount} wounds on a
}}
'''
    ruleset = compile_text(text, "squad.rules").ruleset
    assert ruleset is not None
    interp = Interpreter(ruleset, rng=random.Random(1), compiled=compiled)
    world = make_world(ruleset, [FighterSpec("a", 0, "Trooper")])
    with pytest.raises(RulesError) as error:
        interp.sample("bad", {"a": Ref("fighter", 0)}, world)
    assert error.value.diagnostic.code == "E511"
    assert error.value.diagnostic.span.line == text.count("\n") - 1


def test_a_units_fields_cannot_be_set():
    text = SQUAD.read_text() + '''
action heal(a: fighter) {
  set a.models = 5
}
'''
    diagnostics = compile_text(text, "squad.rules").diagnostics
    assert [(d.code, "cannot be set" in d.message) for d in diagnostics] == [("E308", True)]


def test_a_declared_name_wins_over_a_units_field():
    """A ruleset that declares its own `models` counter reads its own, unit or not."""
    text = SQUAD.read_text().replace('stat Shots', 'counter models on fighter\nstat Shots', 1)
    compiled = compile_text(text, "squad.rules")
    assert compiled.ruleset is not None, compiled.diagnostics
    interp = Interpreter(compiled.ruleset)
    assert interp.fighter_fields["models"] == ("value", "models")


# ---- lists, the command line, the game log ---------------------------------------------------------

def test_a_list_fields_a_units_models_and_its_cost_reads_them():
    result = Validation().file(str(ROOT / "tests" / "units" / "squad-army.yaml"))
    assert not result.diagnostics
    assert result.total == 70 + 50 + 20 + 20
    specs = [f.spec() for f in result.warband.fighters]
    assert [s.models for s in specs] == [7, None, 2, None]


def test_odds_takes_models_and_reports_models_lost():
    out = CliRunner().invoke(app, ["odds", str(SQUAD), "-a", "class=Trooper", "-t",
                                   "class=Brute models=3", "--action", "volley"])
    assert out.exit_code == 0, out.output
    assert "t.models lost" in out.output and "5/8" in out.output
    bad = CliRunner().invoke(app, ["odds", str(SQUAD), "-a", "class=Trooper models=11", "-t",
                                   "class=Hero models=2", "--action", "volley"])
    assert bad.exit_code == 2
    assert "class Trooper fields 3..10 models, not 11" in bad.output
    assert "class Hero is not a unit of several models" in bad.output


def test_the_game_log_shows_models_lost_and_the_unit_removed():
    out = CliRunner().invoke(app, ["play", str(BATTLE), "--seed", "3"])
    assert out.exit_code == 0, out.output
    assert "Mob (blue) loses 2 models (1 of 3 left)" in out.output
    assert "Blue squad (blue) loses a model (5 of 6 left)" in out.output   # `models 6`
    assert "Big one (red) loses" not in out.output   # one model: removed, no more to say
    assert "Red squad (red) loses 5 models (0 of 5 left)\n" \
           "      Red squad (red) is removed from play" in out.output


def test_a_game_with_units_plays_alike_generated_and_interpreted():
    from warband.game.engine import Game
    from warband.game.scenario import load_scenario
    scenario = load_scenario(str(BATTLE))
    for seed in range(1, 6):
        finals = []
        for compiled in (True, False):
            game = Game(scenario, seed, Policies("random"))
            game.interp.compiled = compiled
            result = game.play()
            finals.append((result.winner, result.scores,
                           [(f.values, f.removed) for f in game.final.fighters]))
        assert finals[0] == finals[1], seed


def test_a_roster_shows_a_units_models_and_a_row_of_wound_boxes_each():
    from warband.lists.roster import roster
    found = roster(str(ROOT / "tests" / "units" / "squad-army.yaml"))
    cards = {f["name"]: {k: v for k, v in f["models"].items() if k != "carries"}
             for f in found.model["fighters"]}
    assert cards["Red squad"] == {"count": 7, "wounds": 1, "rows": ["☐"] * 7}
    assert cards["Mob"] == {"count": 2, "wounds": 2, "rows": ["☐ ☐"] * 2}
    # one model of several wounds: its wound boxes to tick (a single wound: nothing to tick)
    assert cards["Big one"] == {"count": 1, "wounds": 3, "rows": ["☐ ☐ ☐"]}
    text = CliRunner().invoke(app, ["roster", "--format", "markdown",
                                    str(ROOT / "tests" / "units" / "squad-army.yaml")]).output
    assert "### Mob" in text and "**Models**: 2 models, 2 wounds each\n\n1. ☐ ☐\n2. ☐ ☐\n" in text


def test_rules_show_says_which_classes_are_units():
    out = CliRunner().invoke(app, ["rules", "show", str(SQUAD)]).output
    assert "Trooper: a unit of 3..10 models (default 5), 1 wound each: a squad fields 3 to " \
           "10 troopers" in out
    assert "Brute: a unit of 1..3 models (default 3), wounds from Tough each" in out
    assert "Ogre: one model of 3 wounds" in out
    shown = CliRunner().invoke(app, ["rules", "show", str(SQUAD), "--format", "json"]).output
    assert '"models": {\n' in shown


def test_fmt_puts_a_units_models_after_its_class(tmp_path):
    path = tmp_path / "army.yaml"
    (tmp_path / "squad.rules").write_text(SQUAD.read_text())
    path.write_text("name: X\nruleset: squad.rules\nfighters:\n"
                    "  - models: 4\n    name: A\n    class: Trooper\n")
    out = CliRunner().invoke(app, ["fmt", str(path), "--check"])
    CliRunner().invoke(app, ["fmt", str(path)])
    assert path.read_text().endswith("  - name: A\n    class: Trooper\n    models: 4\n"), \
        (out.output, path.read_text())


def test_odds_takes_groups_of_fighters_on_each_side():
    """--attacker and --target again: the first of each is the action's fighter, the others
    stand beside it on its side (here, every fighter of the target's side is swept)."""
    group = str(ROOT / "tests" / "units" / "group.rules")
    out = CliRunner().invoke(app, ["odds", group, "-a", "might=3", "-t", "might=2", "-t",
                                   "might=4 name=Second", "--action", "sweep", "--format",
                                   "json"])
    assert out.exit_code == 0, out.output
    import json
    found = json.loads(out.output)
    assert found["outcomes"] == {"0": "1/4", "1": "1/2", "2": "1/4"}
    assert found["effects"]["Second.Hits"] == {"0": "1/2", "1": "1/2"}
    alone = CliRunner().invoke(app, ["odds", group, "-a", "might=3", "-a", "might=2",
                                     "--action", "sweep"])
    assert alone.exit_code == 2 and "give --target too" in alone.output
    bad = CliRunner().invoke(app, ["odds", group, "-a", "might=3", "-t", "might=2", "-t",
                                   "might=40", "--action", "sweep"])
    assert bad.exit_code == 2 and "--target(2):1:7: error[E901]: Might 40" in bad.output


def test_a_scenario_writes_a_units_models_within_its_bounds():
    from warband.game.scenario import load_scenario
    scenario = load_scenario(str(BATTLE))
    assert [s.models for force in scenario.forces for s in force] == [None, None, None, 6]
    found = load_scenario(str(ROOT / "tests" / "units" / "squad-battle-bad.rules"))
    assert sorted(d.code for d in found) == ["E634", "E635"]
    out = CliRunner().invoke(app, ["play", str(ROOT / "tests" / "units" /
                                               "squad-battle-bad.rules")])
    assert out.exit_code == 2
    assert "error[E634]: fighter 'Mob' fields 7 models, outside 1..3" in out.output
    assert "error[E635]: fighter 'Big one' gives models, but class Ogre is not a unit" in \
        out.output


@pytest.mark.parametrize("line, message", [
    ("models 1..2 default 5", "the default of 5 models is outside 1..2"),
    ("models 2/3..4", "a unit's models are a range of whole numbers from 1 up, not 2/3..4"),
    ("models 0..3", "not 0..3"),
    ("models 1..5000", "a unit has at most 1000 models, not 5000"),
    ("wounds per model = 0", "not 0"),
    ("wounds per model = d6", "not d6"),
    ("wounds per model = Skill2", "'Skill2' is not declared"),
    ("wounds per model = Brave", "'Brave' is a trait without a number"),
])
def test_bad_unit_lines_are_reported_once(line, message):
    """The class of mistake in a unit's lines: each one message (E319, E320), no cascade."""
    text = SQUAD.read_text() + f'trait Brave\nclass Odd "a unit gone wrong" {{\n  {line}\n}}\n'
    diagnostics = compile_text(text, "squad.rules").diagnostics
    assert len(diagnostics) == 1 and diagnostics[0].code in ("E319", "E320"), diagnostics
    assert message in diagnostics[0].message


def test_a_ruleset_with_units_comes_back_from_the_disk_cache(tmp_path, monkeypatch):
    """lang/units.py is one of the modules a cached Ruleset is made of (cache._ALLOWED_MODULES):
    else every entry of rules with units would be a silent miss, compiled again each run."""
    from warband.lang import cache
    from warband.lang.compiler import Compiled, compile_cached
    monkeypatch.setenv("WARBAND_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    cache.clear_memory()
    cache._key.clear()
    try:
        text = SQUAD.read_text()
        first = compile_cached(text, str(SQUAD)).ruleset
        cache.clear_memory()
        found = cache.get(cache.key(text, str(SQUAD)))
        assert isinstance(found, Compiled) and found.ruleset is not None, "a silent miss"
        assert found.ruleset.classes["Brute"].unit == first.classes["Brute"].unit
    finally:
        cache.clear_memory()
        cache._key.clear()
