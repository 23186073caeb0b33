"""One model of a unit with a different weapon (docs/language.md, "Units of several models").

A class offers pieces to single models (`one model may take Pistol`, `up to 2 models may swap
Rifle for Flamer`), a warband entry says which (`special: {Flamer: 2}`), a unit fires each
weapon with the models that carry it (`carriers(u, w)`), and casualties come from the plain
models first, then the special groups in the class's order. Tested here on two systems: the
units tests' squads (tests/units/special.rules) and Ashfall (a Troopers' gunner with a flamer).
The goldens of the diagnostics are tests/rules_errors/unit_model_option_*.rules, unit_*_twice
(E202 for a repeated `models`, `wounds per model`, `group` line) and
tests/warband_errors/squad_special_wrong.yaml (E636, E637).
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
from warband.lang.units import after_losses, carried_now, model_kits
from warband.lists.convert import convert
from warband.lists.validate import Validation
from warband.run import odds, units
from warband.run.decisions import Policies
from warband.run.world import FighterSpec, Ref, make_world

ROOT = Path(__file__).resolve().parents[1]
SPECIAL = ROOT / "tests" / "units" / "special.rules"
BATTLE = ROOT / "tests" / "units" / "special-battle.rules"
ARMY = ROOT / "tests" / "units" / "special-army.yaml"
A = Ref("fighter", 0)


def ruleset_of(path):
    compiled = load(str(path))
    assert compiled.ruleset is not None, compiled.diagnostics
    return compiled.ruleset


def squad(ruleset, models=None, special=None, side=0, name="a"):
    return FighterSpec(name, side, "Squad", models=models, special=special)


# ---- the class and the list ----------------------------------------------------------------------

def test_rules_show_says_what_single_models_may_carry():
    out = CliRunner().invoke(app, ["rules", "show", str(SPECIAL)])
    assert out.exit_code == 0, out.output
    # (prose wraps to the terminal: compared as words)
    assert "one model may take Pistol (the sergeant); up to 2 models may swap Rifle for " \
           "Flamer (the gunners)" in " ".join(out.output.split())


def test_a_list_gives_special_models_and_its_cost_reads_what_they_carry():
    result = Validation().file(str(ARMY))
    assert not result.diagnostics
    assert result.total == 6 * 10 + 15 + 5 * 10   # the Flamer's 15: `f has Flamer`
    red, blue = result.warband.fighters
    assert (red.models, red.special) == (6, {"Pistol": 1, "Flamer": 2})
    assert blue.special is None
    assert red.spec().special == {"Pistol": 1, "Flamer": 2}


def test_the_schema_offers_the_pieces_single_models_may_carry():
    from warband.lists.schema import ruleset_schema
    props = ruleset_schema(ruleset_of(SPECIAL))["properties"]["fighters"]["items"]["properties"]
    assert set(props["special"]["properties"]) == {"Pistol", "Flamer"}
    assert props["special"]["additionalProperties"] is False


def test_a_ruleset_without_model_options_takes_no_special_key():
    from warband.lists.schema import ruleset_schema
    props = ruleset_schema(ruleset_of(ROOT / "tests" / "units" / "squad.rules"))[
        "properties"]["fighters"]["items"]["properties"]
    assert "models" in props and "special" not in props


# ---- in play: what each model carries, and which falls first --------------------------------------

def test_a_unit_starts_carrying_its_kit_and_its_special_pieces():
    ruleset = ruleset_of(SPECIAL)
    world = make_world(ruleset, [squad(ruleset, 6, {"Pistol": 1, "Flamer": 2}), squad(ruleset)])
    f = world.fighters[0]
    assert f.equipment == ("Rifle", "Pistol", "Flamer")
    # 3 plain riflemen, the sergeant (rifle and pistol), 2 gunners who gave up their rifles
    assert [units.carriers(world, A, p) for p in ("Rifle", "Pistol", "Flamer")] == [4, 1, 2]
    plain = world.fighters[1]
    assert plain.equipment == ("Rifle",) and "#specials" not in plain.values
    assert units.carriers(world, Ref("fighter", 1), "Rifle") == 5


def naive_models(values: dict) -> list[tuple[str, ...]]:
    """The unit as a list of models, each with what it carries, in the order they fall."""
    out = []
    for n, kit in model_kits(values):
        out += [kit] * n
    return out


@pytest.mark.parametrize("seed", range(40))
def test_casualties_take_plain_models_first_brute_force(seed):
    """After each number of models lost, what the unit carries and how many models carry each
    piece agree with a list of models lost from its front one by one."""
    rng = random.Random(seed)
    ruleset = ruleset_of(SPECIAL)
    models = rng.randint(3, 8)
    special = {p: n for p, n in (("Pistol", rng.randint(0, 1)), ("Flamer", rng.randint(0, 2)))
               if n}
    if sum(special.values()) > models or not special:
        special = {"Flamer": 1}
    world = make_world(ruleset, [squad(ruleset, models, special), squad(ruleset, side=1)])
    start = world.fighters[0].values
    everyone = naive_models(start)
    assert len(everyone) == models
    for lost in range(models + 1):
        standing = everyone[lost:]
        after = units.inflict(world, A, lost, None)
        f = after.fighters[0]
        assert f.values["#special_left"] == after_losses(start, lost)
        assert set(f.equipment) == {p for kit in standing for p in kit}
        for piece in ("Rifle", "Pistol", "Flamer"):
            assert units.carriers(after, A, piece) == sum(piece in kit for kit in standing)
        assert f.removed == (lost == models)
        if standing:
            assert carried_now(f.values) == f.equipment


def test_special_models_fall_in_the_order_the_class_lists_its_options():
    ruleset = ruleset_of(SPECIAL)
    world = make_world(ruleset, [squad(ruleset, 4, {"Pistol": 1, "Flamer": 2})])
    # one plain model, then the sergeant (the first option), then the gunners
    seen = [units.inflict(world, A, n, None).fighters[0].equipment for n in range(4)]
    assert seen == [("Rifle", "Pistol", "Flamer"), ("Rifle", "Pistol", "Flamer"),
                    ("Flamer",), ("Flamer",)]


def test_every_model_with_a_swapped_piece_means_the_unit_no_longer_carries_it():
    ruleset = ruleset_of(SPECIAL)
    world = make_world(ruleset, [squad(ruleset, 3, {"Flamer": 2, "Pistol": 1})])
    assert world.fighters[0].equipment == ("Rifle", "Pistol", "Flamer")   # the sergeant's rifle
    assert units.carriers(world, A, "Rifle") == 1


# ---- odds: exact, against brute force ------------------------------------------------------------

def fighter(ruleset, text: str, side: int, origin: str):
    found: list = []
    parsed = odds.parse_fighter(text, origin, ruleset, side, found)
    assert not found, found
    return parsed


def test_a_unit_fires_each_weapon_with_the_models_carrying_it_brute_force():
    """fire with the Flamer: 2 gunners x 3 Shots = 6d6, each 4+ a hit, Heavy: 2 wounds a hit,
    at a target of 5 models of which one carries a Pistol (the last to fall but one gunner)."""
    ruleset = ruleset_of(SPECIAL)
    result = odds.compute(ruleset, "fire", [
        fighter(ruleset, "class=Squad models=6 special=Pistol:1,Flamer:2", 0, "--a"),
        fighter(ruleset, "class=Squad models=5 special=Pistol:1", 1, "--t")],
        {"w": "Flamer"}, Policies("first"))
    brute_hits: Counter = Counter()
    brute_pistol: Counter = Counter()
    for faces in itertools.product(range(1, 7), repeat=6):
        hits = sum(f >= 4 for f in faces)
        brute_hits[hits] += 1
        brute_pistol[1 if 2 * hits < 5 else 0] += 1   # 4 plain models fall before him
    total = 6 ** 6
    assert dict(result.distribution.items()) == {k: Fraction(v, total) for k, v in brute_hits.items()}
    assert dict(result.effects["t.models carrying Pistol"].items()) == {
        k: Fraction(v, total) for k, v in brute_pistol.items()}


def test_odds_say_what_is_wrong_with_special_models():
    out = CliRunner().invoke(app, ["odds", str(SPECIAL), "-a", "class=Squad", "-t",
                                   "class=Squad models=3 special=Flamer:3,Rifle:1",
                                   "--action", "volley"])
    assert out.exit_code == 2
    assert "no model of this unit may carry 'Rifle' on its own" in out.output
    assert "3 models carry Flamer, more than the class allows" in out.output
    lone = CliRunner().invoke(app, ["odds", str(SPECIAL), "-a", "class=Squad", "-t",
                                    "class=Lone special=Pistol", "--action", "volley"])
    assert lone.exit_code == 2 and "may carry 'Pistol'" in lone.output


# ---- generated code and the interpreter ----------------------------------------------------------

@pytest.mark.parametrize("seed", range(8))
def test_generated_code_agrees_with_the_interpreter_on_special_models(seed):
    """Every procedure, run both ways on worlds whose units carry special pieces (each run's
    World compared whole: values, equipment, who is removed)."""
    ruleset = ruleset_of(SPECIAL)
    rng = random.Random(seed)
    calls = []
    for name, decl in ruleset.procedures.items():
        for _ in range(4):
            specs = [squad(ruleset, rng.randint(3, 6),
                           {"Pistol": 1, "Flamer": rng.randint(1, 2)}, side=0, name="a"),
                     squad(ruleset, rng.randint(3, 6), {"Flamer": 1}, side=1, name="b")]
            world = make_world(ruleset, specs)
            if rng.random() < 0.5:   # some models already lost
                world = units.inflict(world, Ref("fighter", 1), rng.randint(0, 4), None)
            args = test_codegen.random_args(decl, world, rng, ruleset)
            if "w" in args:
                args["w"] = rng.choice(world.fighters[args["u"].index].equipment or ("Rifle",))
            calls.append(("sample", name, args, world))
    test_codegen.both_ways(ruleset, seed, calls)


# ---- in a game: the log, generated and interpreted play, invariants ------------------------------

def play(seed: int, compiled: bool = True):
    from warband.game.engine import Game
    from warband.game.scenario import load_scenario
    game = Game(load_scenario(str(BATTLE)), seed, Policies("random"), record=True)
    game.interp.compiled = compiled
    result = game.play()
    return game, result


def test_the_log_names_the_special_models_lost():
    out = CliRunner().invoke(app, ["play", str(BATTLE), "--seed", "2"])
    assert out.exit_code == 0, out.output
    assert "models carrying Flamer 2 -> " in out.output or \
        "models carrying Flamer 1 -> 0" in out.output


def test_a_game_with_special_models_plays_alike_generated_and_interpreted():
    for seed in range(1, 6):
        finals = []
        for compiled in (True, False):
            game, result = play(seed, compiled)
            finals.append((result.winner, result.scores,
                           [(f.values, f.equipment, f.removed) for f in game.final.fighters]))
        assert finals[0] == finals[1], seed


@pytest.mark.parametrize("seed", range(1, 13))
def test_no_unit_fires_a_piece_its_last_carrier_took_with_him(seed):
    """Invariant over seeded games: once the log says a unit's last model carrying a piece
    fell, the unit never fires that piece again; special models never come back."""
    game, _ = play(seed)
    gone: set = set()
    counts: dict = {}
    for e in game.log.events:
        if e["type"] == "change" and e["field"].startswith("models carrying "):
            piece = e["field"].removeprefix("models carrying ")
            assert e["new"] < e["old"]
            assert counts.get((e["fighter"], piece), e["old"]) == e["old"]
            counts[(e["fighter"], piece)] = e["new"]
            if e["new"] == 0:
                gone.add((e["fighter"], piece))
        if e["type"] == "activate":
            words = e["action"].split()
            if words[0] == "fire":
                assert (e["fighter"], words[-1]) not in gone, (seed, e)


# ---- Ashfall: the Troopers' gunner ---------------------------------------------------------------

def test_ashfall_troopers_fire_their_carbines_with_all_but_the_gunner():
    ruleset = load("ashfall").ruleset
    assert ruleset is not None
    specs = [FighterSpec("ember", 0, "Troopers", models=6, special={"Flamer": 1}),
             FighterSpec("grey", 1, "Troopers", models=5)]
    world = make_world(ruleset, specs)
    assert world.fighters[0].equipment == ("Carbine", "Flamer")
    assert units.carriers(world, A, "Carbine") == 5
    assert units.carriers(world, A, "Flamer") == 1
    after = units.inflict(world, A, 5, None)   # five troopers down: the gunner stands alone
    assert after.fighters[0].equipment == ("Flamer",)
    assert units.carriers(after, A, "Carbine") == 0


def test_ashfall_shoot_rolls_a_die_a_carrier_and_shot():
    ruleset = load("ashfall").ruleset
    shooter = fighter(ruleset, "class=Troopers models=6 special=Flamer:1", 0, "--u")
    target = fighter(ruleset, "class=Troopers models=8", 1, "--target")
    result = odds.compute(ruleset, "shoot", [shooter, target], {"w": "Carbine"},
                          Policies("first"))
    # 5 carbines (the gunner gave his up), one Shot each: at most 5 hits
    assert max(dict(result.distribution.items())) == 5


def test_the_cinder_watch_fields_a_gunner():
    result = Validation().file(str(ROOT / "warbands" / "ashfall-cinder-watch.yaml"))
    assert not result.diagnostics
    ember = result.warband.fighter("Ember Squad")
    assert ember is not None and ember.special == {"Flamer": 1}


# ---- convert: a unit's models and special models ---------------------------------------------------

def test_convert_keeps_a_units_models_within_the_targets_bounds(at_root):
    result = convert("tests/units/squad-army.yaml", "tests/units/sss-squads.rules",
                     using=["tests/units/squad-to-sss-squads.rules"])
    assert result.valid, result.diagnostics
    assert result.text is not None
    text = result.text
    assert "  - name: Red squad\n    class: Squad\n    might: 4\n    models: 6\n" in text   # 7 > 6
    assert "  - name: Blue squad\n    class: Squad\n    might: 4\n    models: 5\n" in text   # default
    assert "  - name: Mob\n    class: Warrior\n    might: 4\n  -" in text   # no unit: dropped
    codes = sorted(d.code for d in result.diagnostics)
    assert codes == ["W801", "W803"]


def test_convert_keeps_special_models_the_target_offers_and_drops_the_others():
    from warband.lists.convert_units import converted_models
    ruleset = ruleset_of(SPECIAL)
    squad_cls, lone = ruleset.classes["Squad"], ruleset.classes["Lone"]
    assert converted_models(squad_cls, squad_cls, 6, {"Flamer": 2}) == (6, {"Flamer": 2}, [])
    models, special, notes = converted_models(squad_cls, lone, 6, {"Flamer": 2})
    assert (models, special) == (None, None) and len(notes) == 2
    models, special, notes = converted_models(squad_cls, squad_cls, 9, {"Flamer": 2})
    assert (models, special) == (8, {"Flamer": 2}) and "kept inside 3..8" in notes[0]


# ---- a class's unit lines given twice --------------------------------------------------------------

@pytest.mark.parametrize("line", ["models 1..3", "wounds per model = 2", "single"])
def test_a_second_unit_line_is_e202_not_a_silent_override(line):
    text = SPECIAL.read_text().replace("  equipment Rifle\n  one model",
                                       f"  equipment Rifle\n  group 1..2\n  wounds per model "
                                       f"= 1\n  {line}\n  one model", 1)
    diagnostics = compile_text(text, "special.rules").diagnostics
    assert [d.code for d in diagnostics] == ["E202"], diagnostics
    assert "twice" in diagnostics[0].message


# ---- odds and the pieces a fighter carries (run/odds_pieces.py) -----------------------------------

@pytest.mark.parametrize("attacker,target", [
    ("class=Outriders models=2", "class=Outriders models=2 carries=crate"),
    ("class=Troopers models=8", "class=Veterans models=3 carries=crate"),
    ("class=Veterans models=5", "class=Sergeant carries=crate,crate"),
])
def test_odds_report_a_carried_piece_dropped_exactly_when_its_carrier_falls(attacker, target):
    ruleset = load("ashfall").ruleset
    result = odds.compute(ruleset, "fight", [fighter(ruleset, attacker, 0, "--a"),
                                             fighter(ruleset, target, 1, "--t")], {},
                          Policies("first"))
    removed = dict(result.effects["target.removed"].items())
    assert dict(result.effects["target's crate dropped"].items()) == removed
    if "crate,crate" in target:   # two of a kind: numbered
        assert dict(result.effects["target's crate 2 dropped"].items()) == removed


def test_odds_without_a_carried_piece_report_no_pieces():
    ruleset = load("ashfall").ruleset
    result = odds.compute(ruleset, "fight", [fighter(ruleset, "class=Outriders", 0, "--a"),
                                             fighter(ruleset, "class=Outriders", 1, "--t")], {},
                          Policies("first"))
    assert not any("crate" in label for label in result.effects)


def test_odds_say_what_kind_of_piece_is_unknown():
    out = CliRunner().invoke(app, ["odds", "ashfall", "-a", "class=Outriders", "-t",
                                   "class=Outriders carries=chest", "--action", "fight"])
    assert out.exit_code == 2
    assert "no kind of piece 'chest' a fighter can carry" in out.output
    none = CliRunner().invoke(app, ["odds", str(SPECIAL), "-a", "class=Squad", "-t",
                                    "class=Squad carries=crate", "--action", "volley"])
    assert none.exit_code == 2 and "unknown key 'carries'" in none.output


def test_rules_diff_shows_a_units_models_and_model_options_changed():
    out = CliRunner().invoke(app, ["rules", "diff", str(SPECIAL),
                                   str(ROOT / "tests" / "units" / "special-house.rules")])
    assert out.exit_code == 0, out.output
    assert "up to 2 models may swap Rifle for Flamer (the gunners) -> a unit of 3..8 models " \
           "(default 5), 1 wound each; one model may swap Rifle for Flamer" in " ".join(
               out.output.split())   # (prose wraps to the terminal: compared as words)


def test_odds_take_a_warband_entrys_special_models(at_root):
    out = CliRunner().invoke(app, ["odds", "ashfall", "-a",
                                   "warbands/ashfall-cinder-watch.yaml#Ember Squad", "-t",
                                   "class=Veterans", "--action", "shoot", "--with", "w=Carbine",
                                   "--format", "json"])
    assert out.exit_code == 0, out.output
    import json
    outcomes = json.loads(out.output)["outcomes"]
    assert max(int(k) for k in outcomes) == 5   # six troopers, the gunner's carbine swapped


def test_a_roster_card_says_which_model_carries_a_special_piece():
    """The Cinder Watch's Ember Squad: six troopers, one swapping his Carbine for a Flamer.
    Its card's last model row (plain models fall first) names the flamer, in every format."""
    from warband.lists.roster import roster
    found = roster(str(ROOT / "warbands" / "ashfall-cinder-watch.yaml"))
    [ember] = [f for f in found.model["fighters"] if f["name"] == "Ember Squad"]
    assert ember["models"]["carries"] == [""] * 5 + ["Flamer (instead of Carbine)"]
    for fmt, shown in (("text", "6. ☐  Flamer (instead of Carbine)"),
                       ("markdown", "6. ☐ Flamer (instead of Carbine)"),
                       ("html", "</span> Flamer (instead of Carbine)</td>")):
        out = CliRunner().invoke(app, ["roster", "--format", fmt,
                                       str(ROOT / "warbands" / "ashfall-cinder-watch.yaml")])
        assert shown in out.output, fmt
