"""SMART (Fundamental and Basic rules), run through the compiled rules: the text's worked examples
and its rules. Every expected figure is worked out from the rule text by hand, or by brute force
over the faces of the d20, never read back from the rules file."""

from __future__ import annotations

import json
import random
from fractions import Fraction as F
from pathlib import Path

import pytest
from typer.testing import CliRunner

from warband.cli import app
from warband.lang.compiler import compile_text, load
from warband.run.dice import Dist
from warband.run.interpreter import Interpreter, Policies
from warband.run.world import FighterSpec, Ref, make_world

ROOT = Path(__file__).resolve().parents[1]
A, T = Ref("fighter", 0), Ref("fighter", 1)
HITS = ("defeated", "wounded", "absorbed")   # the outcomes of a combat roll that hit


@pytest.fixture(scope="module")
def smart():
    compiled = load("smart")
    assert compiled.ruleset is not None, compiled.diagnostics
    return compiled.ruleset


def fighter(name, side, cls, equipment=(), position=None, state=None, **stats):
    return FighterSpec(name, side, cls, stats, equipment=tuple(equipment), position=position,
                       state=state or {})


def duel(ruleset, attacker, target, *more):
    return make_world(ruleset, [attacker, target, *more], [{}, {}])


def exact(ruleset, action, args, world, policy="first", observe=None):
    return Interpreter(ruleset, Policies(policy)).exact(action, args, world, observe=observe)


def sample(ruleset, action, args, world, seed=0):
    return Interpreter(ruleset, rng=random.Random(seed)).sample(action, args, world)


def call(ruleset, name, *args, world=None):
    return Interpreter(ruleset).call(name, list(args), None, world)


def p_hit(result) -> F:
    return sum((result[o] for o in HITS), F(0))


def d20_at_least(needed: int, modifier: int = 0) -> F:
    """Brute force over the d20: the chance that the face plus the modifier reaches `needed`."""
    return F(sum(1 for face in range(1, 21) if face + modifier >= needed), 20)


# ---- the file itself ---------------------------------------------------------------------------

def test_the_file_compiles_without_errors_or_warnings(smart):
    assert load("smart").diagnostics == []
    assert smart.id == "smart"


def test_the_command_line_runs_the_issue_example():
    result = CliRunner().invoke(app, [
        "odds", "smart", "--attacker", "class=Knight xp=54 equipment=Plate,Shield",
        "--target", "class=Goblin", "--action", "blow", "--format", "json"])
    assert result.exit_code == 0, result.output
    outcomes = json.loads(result.stdout)["outcomes"]
    # 3rd level against 1st: d20 + 2 >= 11 on 12 faces; 3 damage defeats a 1st-level goblin
    assert outcomes["defeated"] == "3/5" and outcomes["miss"] == "2/5"


@pytest.mark.parametrize("args", [
    ["-a", "class=Archer", "-t", "class=Goblin", "--action", "shoot", "--with", "distance=50",
     "--with", "terrain=yes", "--with", "into_melee=yes"],
    ["-a", "class=Dragon level=5", "-t", "class=Knight xp=54 equipment=Plate", "--action",
     "breath", "--with", "faith=yes"],
    ["-a", "class=Elf", "-t", "class=Knight", "--action", "cast", "--with", "distance=3"],
    ["-a", "class=Knight", "-t", "class=Goblin", "--action", "initiative"],
    ["-a", "class=Knight xp=54 equipment=Plate,Shield absorbed=6", "--action", "take_damage",
     "--with", "damage=3"],
    ["-a", "class=Knight equipment=Lance", "-t", "class=Hobgoblin equipment=Sword",
     "--action", "melee_round", "--with", "later_round=yes"],
    ["-a", "class=Knight", "--action", "move"],
])
def test_the_main_actions_run_from_the_command_line(args):
    result = CliRunner().invoke(app, ["odds", "smart", *args])
    assert result.exit_code == 0, result.output


# ---- troop types, classes, movement ---------------------------------------------------------------

MONSTER_LEVELS = {
    1: {"Goblin", "GiantBat", "Skeleton", "SpriteDemon"},
    2: {"Ghoul", "Hobgoblin", "Magician", "GiantSnake", "Zombie"},
    3: {"GiantCentipede", "Dwarf", "Elf", "Gnome"},
}


@pytest.mark.parametrize("level", sorted(MONSTER_LEVELS))
def test_sample_monster_levels_match_the_text(smart, level):
    # the class's default: "the level of monsters should be always at a level decided by the
    # Judge", and the sample levels are where the Judge starts
    having = {c.name for c in smart.classes.values() if c.given.get("Level") == level}
    assert having == MONSTER_LEVELS[level]
    for name in having:
        world = make_world(smart, [fighter("m", 0, name)])
        assert call(smart, "unit_level", A, world=world) == level


def test_experience_is_for_human_units_only(smart):
    humans = {c.name for c in smart.classes.values() if c.tier == "human"}
    assert humans == {"Infantry", "Archer", "Knight"}      # "infantry, archers and knights"
    assert all(c.tier == "monster" for c in smart.classes.values() if c.name not in humans)


@pytest.mark.parametrize("cls, inches", [
    ("Infantry", 6), ("Archer", 6),                         # foot soldiers
    ("Goblin", 6), ("Skeleton", 6), ("GiantSnake", 6),      # small or medium monsters
    ("Knight", 12), ("Dragon", 12), ("LargeMonster", 12),   # knights and large monsters
])
def test_movement_by_troop_type(smart, cls, inches):
    world = make_world(smart, [fighter("m", 0, cls)])
    assert exact(smart, "move", {"unit": A}, world).only() == inches


def test_initiative_is_a_d20_each_highest_first(smart):
    world = duel(smart, fighter("a", 0, "Knight"), fighter("b", 1, "Goblin"))
    result = exact(smart, "initiative", {"player": A, "rival": T}, world)
    ties = F(20, 400)
    assert result["tie"] == ties
    assert result["moves_first"] == result["moves_second"] == (1 - ties) / 2
    roll = exact(smart, "initiative_roll", {"side": Ref("side", 0)}, world)
    assert roll == Dist({face: F(1, 20) for face in range(1, 21)})


# ---- experience ---------------------------------------------------------------------------------

@pytest.mark.parametrize("level, xp", [(1, 6), (2, 24), (3, 54), (4, 96)])
def test_xp_to_reach_a_level_is_level_x_level_x_6(smart, level, xp):
    assert call(smart, "xp_to_reach", level) == xp


@pytest.mark.parametrize("level, award", [(1, 1), (2, 4), (3, 9)])
def test_xp_awarded_for_defeating_a_unit_is_its_level_squared(smart, level, award):
    assert call(smart, "xp_award", level) == award


@pytest.mark.parametrize("xp, level", [(0, 1), (23, 1), (24, 2), (53, 2), (54, 3), (95, 3),
                                       (96, 4), (150, 5)])
def test_a_human_units_level_follows_its_xp(smart, xp, level):
    assert call(smart, "level_from_xp", xp) == level
    world = make_world(smart, [fighter("k", 0, "Knight", XP=xp, Level=7)])
    assert call(smart, "unit_level", A, world=world) == level     # the Level stat is ignored


def test_a_monsters_level_is_set_by_the_judge_and_xp_does_not_count(smart):
    world = make_world(smart, [fighter("d", 0, "Dragon", Level=6, XP=54)])
    assert call(smart, "unit_level", A, world=world) == 6


def test_xp_still_needed_for_the_next_level(smart):
    world = make_world(smart, [fighter("k", 0, "Knight", XP=30)])
    assert exact(smart, "next_level", {"unit": A}, world).only() == 54 - 30


@pytest.mark.parametrize("victim, award", [("Goblin", 1), ("Hobgoblin", 4), ("Dwarf", 9)])
def test_defeating_a_unit_awards_its_level_squared(smart, victim, award):
    # an 8th-level knight (384 XP) hits a 1st-3rd level monster on d20 + 5..7 >= 11 and deals 8
    knight = fighter("k", 0, "Knight", XP=384)
    for seed in range(40):
        outcome, after = sample(smart, "blow", {"attacker": A, "target": T},
                                duel(smart, knight, fighter("m", 1, victim)), seed)
        assert outcome in ("defeated", "miss")
        assert after.fighter(A).values["XP"] == 384 + (award if outcome == "defeated" else 0)
        assert after.fighter(T).removed == (outcome == "defeated")


def test_monsters_gain_no_experience(smart):
    world = duel(smart, fighter("m", 0, "Dwarf"), fighter("k", 1, "Infantry"))
    for seed in range(20):
        outcome, after = sample(smart, "blow", {"attacker": A, "target": T}, world, seed)
        assert after.fighter(A).values["XP"] == 0


# ---- hitting: 11+ on a d20 with level modifiers ---------------------------------------------------

@pytest.mark.parametrize("attacker_level", [1, 2, 3, 5])
@pytest.mark.parametrize("target_level", [1, 2, 3, 5])
def test_hit_chance_with_level_modifiers_against_brute_force(smart, attacker_level, target_level):
    world = duel(smart, fighter("a", 0, "LargeMonster", Level=attacker_level),
                 fighter("t", 1, "LargeMonster", Level=target_level))
    result = exact(smart, "blow", {"attacker": A, "target": T}, world)
    hits = sum(1 for face in range(1, 21) if face + attacker_level - target_level >= 11)
    assert p_hit(result) == F(hits, 20)
    assert result["miss"] == 1 - F(hits, 20)


def test_levels_from_xp_modify_the_roll_both_ways(smart):
    # a 3rd-level knight (54 XP) against a 2nd-level one (24 XP): d20 + 1 >= 11
    world = duel(smart, fighter("a", 0, "Knight", XP=54), fighter("t", 1, "Knight", XP=24))
    assert p_hit(exact(smart, "blow", {"attacker": A, "target": T}, world)) == F(11, 20)
    back = exact(smart, "blow", {"attacker": A, "target": T},
                 duel(smart, fighter("a", 0, "Knight", XP=24), fighter("t", 1, "Knight", XP=54)))
    assert p_hit(back) == F(9, 20)


# ---- projectiles: range, terrain, firing into melee ------------------------------------------------

def shoot(smart, distance=0, terrain=False, into_melee=False, world=None, observe=None):
    world = world or duel(smart, fighter("a", 0, "Archer"), fighter("t", 1, "Infantry"))
    return exact(smart, "shoot", {"archer": A, "target": T, "distance": distance,
                                  "terrain": terrain, "into_melee": into_melee}, world,
                 observe=observe)


def test_the_archer_example_a_target_at_50_inches_needs_12(smart):
    assert call(smart, "needed_to_hit", 50) == 12
    assert p_hit(shoot(smart, 50)) == F(9, 20) == d20_at_least(12)


@pytest.mark.parametrize("distance, needed", [(0, 11), (30, 11), (31, 12), (50, 12), (51, 13),
                                              (70, 13), (71, 14)])
def test_range_penalty_plus_1_for_each_20_inches_or_part_past_30(smart, distance, needed):
    assert call(smart, "needed_to_hit", distance) == needed
    assert p_hit(shoot(smart, distance)) == d20_at_least(needed)


def test_the_per_inch_reading_is_a_one_line_override():
    text = (ROOT / "dsl" / "smart.rules").read_text(encoding="utf-8")
    start = text.index("\ndefine range_penalty(distance)") + 1     # not the header's comment
    end = text.index("\ndefine needed_to_hit") + 1
    per_inch = (text[:start] + "define range_penalty(distance) = max(distance - 30, 0)\n\n"
                + text[end:]).replace('ruleset "smart"', 'ruleset "smart-per-inch"')
    compiled = compile_text(per_inch, "smart-per-inch.rules")
    assert compiled.ruleset is not None, compiled.diagnostics
    rules = compiled.ruleset
    assert p_hit(shoot(rules, 35)) == d20_at_least(16)
    assert p_hit(shoot(rules, 50)) == 0                 # 31+: the text's example cannot hold


def test_levels_modify_projectile_rolls_too(smart):
    world = duel(smart, fighter("a", 0, "Archer", XP=54), fighter("t", 1, "Goblin"))
    assert p_hit(shoot(smart, 50, world=world)) == d20_at_least(12, 3 - 1)


def test_intervening_terrain_a_second_d20_of_1_to_10_hits_the_obstacle(smart):
    plain = p_hit(shoot(smart, 50))
    behind = shoot(smart, 50, terrain=True)
    assert p_hit(behind) == plain * F(1, 2)
    assert behind["obstacle"] == plain * F(1, 2)
    assert behind["miss"] == 1 - plain


def test_firing_into_melee_hits_your_own_unit_on_1_to_10(smart):
    plain = p_hit(shoot(smart, 20))
    into = shoot(smart, 20, into_melee=True)
    assert p_hit(into) == plain / 2 and into["own_unit"] == plain / 2
    both = shoot(smart, 20, terrain=True, into_melee=True)
    assert both["obstacle"] == plain / 2
    assert both["own_unit"] == plain / 4 and p_hit(both) == plain / 4


def test_the_own_unit_engaged_with_the_target_takes_the_shot(smart):
    world = make_world(smart, [
        fighter("archer", 0, "Archer", position=(0, 0)),
        fighter("goblin", 1, "Goblin", position=(20, 0)),
        fighter("friend", 0, "Infantry", position=(21, 0)),     # in hand-to-hand with it
        fighter("bystander", 0, "Infantry", position=(25, 0)),
    ], [{}, {}])
    friend, bystander = Ref("fighter", 2), Ref("fighter", 3)
    result = shoot(smart, 20, into_melee=True, world=world,
                   observe=lambda w: (w.fighter(friend).removed, w.fighter(bystander).removed))
    hit = d20_at_least(11)
    assert result[("own_unit", (True, False))] == hit / 2     # 1 damage defeats a 1st-level unit
    assert result[("defeated", (False, False))] == hit / 2
    assert result[("miss", (False, False))] == 1 - hit


# ---- damage: absorption levels, then levels as hit points --------------------------------------------

@pytest.mark.parametrize("equipment, absorption", [
    ((), 0), (("Leather",), 1), (("Padding",), 1), (("Shield",), 2), (("ChainMail",), 3),
    (("Plate",), 4), (("Plate", "Shield"), 6), (("ChainMail", "Shield", "Padding"), 6),
])
def test_absorption_levels_of_armour_pieces_add_up(smart, equipment, absorption):
    world = make_world(smart, [fighter("k", 0, "Knight", equipment)])
    assert world.fighter(A).traits["Absorption"] == absorption


def test_large_monsters_have_absorption_5(smart):
    for cls in ("Dragon", "LargeMonster"):
        assert make_world(smart, [fighter("m", 0, cls)]).fighter(A).traits["Absorption"] == 5


def test_a_3rd_level_knight_in_plate_and_shield_absorbs_6_then_takes_3_and_falls(smart):
    world = make_world(smart, [fighter("k", 0, "Knight", ("Plate", "Shield"), XP=54)])
    seen = []
    for _ in range(9):
        outcome, world = sample(smart, "take_damage", {"unit": A, "damage": 1}, world)
        seen.append(outcome)
    assert seen == ["absorbed"] * 6 + ["wounded"] * 2 + ["defeated"]
    knight = world.fighter(A)
    assert knight.values["Absorbed"] == 6 and knight.values["Wounds"] == 3 and knight.removed


def test_damage_points_spill_from_armour_to_the_unit_in_one_blow(smart):
    world = make_world(smart, [fighter("k", 0, "Knight", ("Plate", "Shield"), XP=54)])
    outcome, after = sample(smart, "take_damage", {"unit": A, "damage": 8}, world)
    assert outcome == "wounded"
    assert (after.fighter(A).values["Absorbed"], after.fighter(A).values["Wounds"]) == (6, 2)
    assert sample(smart, "take_damage", {"unit": A, "damage": 9}, world)[0] == "defeated"


def test_a_1st_level_unit_falls_to_the_first_point_its_armour_does_not_absorb(smart):
    world = make_world(smart, [fighter("i", 0, "Infantry", ("Leather",))])
    first, world = sample(smart, "take_damage", {"unit": A, "damage": 1}, world)
    second, world = sample(smart, "take_damage", {"unit": A, "damage": 1}, world)
    assert (first, second) == ("absorbed", "defeated")


def test_a_blow_deals_1_point_per_level_of_the_attacker(smart):
    # a 2nd-level hobgoblin hits a 3rd-level knight in plate and shield for 2 points
    world = duel(smart, fighter("h", 0, "Hobgoblin"),
                 fighter("k", 1, "Knight", ("Plate", "Shield"), XP=54))
    result = exact(smart, "blow", {"attacker": A, "target": T}, world,
                   observe=lambda w: w.fighter(T).values["Absorbed"])
    hit = d20_at_least(11, 2 - 3)
    assert result == Dist({("absorbed", 2): hit, ("miss", 0): 1 - hit})


def test_new_battle_restores_absorption_damage_and_spells(smart):
    world = make_world(smart, [fighter("k", 0, "Knight", ("Plate",),
                                       state={"Absorbed": 4, "Wounds": 1, "SpellsCast": 2})])
    _, after = sample(smart, "new_battle", {"side": Ref("side", 0)}, world)
    assert [after.fighter(A).values[c] for c in ("Absorbed", "Wounds", "SpellsCast")] == [0, 0, 0]


# ---- hand-to-hand: weapon length order ------------------------------------------------------------

@pytest.mark.parametrize("mine, theirs, later, order", [
    (("Lance",), ("Sword",), False, "StrikesFirst"),      # longest weapon first
    (("Lance",), ("Sword",), True, "StrikesSecond"),      # reversed in later rounds
    (("Dagger",), ("Spear",), True, "StrikesFirst"),
    (("Sword",), ("Axe",), False, "Simultaneous"),        # equal lengths
    (("Sword",), ("Axe",), True, "Simultaneous"),
    (("Dagger", "Pike"), ("Spear",), False, "StrikesFirst"),   # the longest weapon counts
    ((), ("Dagger",), False, "StrikesSecond"),            # bare hands are shortest
])
def test_weapon_length_order(smart, mine, theirs, later, order):
    world = duel(smart, fighter("a", 0, "Infantry", mine), fighter("t", 1, "Goblin", theirs))
    result = exact(smart, "hand_to_hand_order",
                   {"attacker": A, "target": T, "later_round": later}, world)
    assert result.only() == order


def melee(smart, world, later=False):
    return exact(smart, "melee_round", {"attacker": A, "target": T, "later_round": later}, world)


def test_equal_weapons_strike_simultaneously_and_both_can_fall(smart):
    world = duel(smart, fighter("a", 0, "Goblin", ("Sword",)), fighter("t", 1, "Goblin", ("Axe",)))
    half = F(1, 2)                                   # 11+ on a d20, levels equal
    assert melee(smart, world) == Dist({"both_fall": half * half, "enemy_falls": half * half,
                                        "own_falls": half * half, "both_stand": half * half})


def test_the_longer_weapon_strikes_first_and_a_fallen_unit_does_not_strike_back(smart):
    world = duel(smart, fighter("a", 0, "Goblin", ("Spear",)), fighter("t", 1, "Goblin", ("Sword",)))
    first = melee(smart, world)
    assert first == Dist({"enemy_falls": F(1, 2), "own_falls": F(1, 4), "both_stand": F(1, 4)})
    later = melee(smart, world, later=True)           # now the sword strikes first
    assert later == Dist({"own_falls": F(1, 2), "enemy_falls": F(1, 4), "both_stand": F(1, 4)})


# ---- large monsters: dragon breath -----------------------------------------------------------------

def breath_world(smart):
    return make_world(smart, [
        fighter("dragon", 1, "Dragon", position=(0, 0), Level=5),
        fighter("goblin", 0, "Goblin", position=(3, 0)),                  # the centre of the area
        fighter("knight", 0, "Knight", ("Plate", "Shield"), position=(4, 0), XP=54),
        fighter("edge", 1, "Skeleton", position=(3, 1.5)),                 # friends are caught too
        fighter("outside", 0, "Infantry", position=(5, 0)),               # 2" away: safe
    ], [{}, {}])


def test_dragon_breath_deals_5_points_to_each_unit_in_the_area(smart):
    world = breath_world(smart)
    dragon, goblin = Ref("fighter", 0), Ref("fighter", 1)
    outcome, after = sample(smart, "breath", {"dragon": dragon, "target": goblin}, world)
    assert outcome == "defeated"
    assert after.fighter(goblin).removed
    knight = after.fighter(Ref("fighter", 2))
    assert not knight.removed and knight.values["Absorbed"] == 5 and knight.values["Wounds"] == 0
    assert after.fighter(Ref("fighter", 3)).removed
    assert not after.fighter(Ref("fighter", 4)).removed
    assert after.fighter(Ref("fighter", 4)).values["Wounds"] == 0


def test_only_dragons_breathe(smart):
    world = breath_world(smart)
    interpreter = Interpreter(smart)
    assert interpreter.allowed("breath", {"dragon": Ref("fighter", 0), "target": T}, world)
    assert not interpreter.allowed("breath", {"dragon": Ref("fighter", 4), "target": T}, world)


def test_optional_faith_roll_avoids_dragon_breath(smart):
    world = duel(smart, fighter("d", 0, "Dragon", Level=5), fighter("k", 1, "Knight", XP=54))
    args = {"dragon": A, "target": T}
    assert exact(smart, "breath", args, world).only() == "defeated"    # 5 points, 3 levels
    faithful = exact(smart, "breath", {**args, "faith": True}, world)
    assert faithful["saved"] == d20_at_least(11, 3)                    # d20 + level, 11 or more
    assert faithful["defeated"] == 1 - d20_at_least(11, 3)


def test_breath_on_the_units_the_judge_names(smart):
    world = make_world(smart, [fighter("d", 0, "Dragon")]
                       + [fighter(f"g{i}", 1, "Goblin") for i in range(3)], [{}, {}])
    caught = tuple(Ref("fighter", i) for i in range(4))      # the dragon itself is spared
    args = {"dragon": A, "caught": caught}
    assert exact(smart, "breath_area", args, world).only() == 3
    with_faith = exact(smart, "breath_area", {**args, "faith": True}, world)
    fall = 1 - d20_at_least(11, 1)
    from math import comb
    assert with_faith == Dist({k: comb(3, k) * fall ** k * (1 - fall) ** (3 - k) for k in range(4)})


# ---- the very simple magic system ------------------------------------------------------------------

def test_a_spell_deals_1_point_per_caster_level_within_its_range(smart):
    world = duel(smart, fighter("m", 0, "Magician"), fighter("k", 1, "Knight", ("Shield",), XP=54))
    args = {"caster": A, "target": T, "distance": 2}
    result = exact(smart, "cast", args, world, observe=lambda w: w.fighter(T).values["Absorbed"])
    assert result.only() == ("absorbed", 2)          # 2 points against a shield's 2
    interpreter = Interpreter(smart)
    assert not interpreter.allowed("cast", {**args, "distance": 3}, world)   # range = level
    assert not interpreter.allowed("cast", {**args, "caster": T, "target": A}, world)


def test_a_magician_casts_two_spells_per_battle(smart):
    world = duel(smart, fighter("m", 0, "Magician"), fighter("d", 1, "Dragon", Level=9))
    args = {"caster": A, "target": T, "distance": 1}
    interpreter = Interpreter(smart)
    for _ in range(2):
        assert interpreter.allowed("cast", args, world)
        _, world = sample(smart, "cast", args, world)
    assert not interpreter.allowed("cast", args, world)
    _, world = sample(smart, "new_battle", {"side": Ref("side", 0)}, world)
    assert interpreter.allowed("cast", args, world)


def test_the_spells_area_has_a_diameter_of_the_casters_level_at_1_to_1_scale(smart):
    world = make_world(smart, [
        fighter("elf", 1, "Elf", position=(0, 0)),
        fighter("target", 0, "Infantry", position=(3, 0)),
        fighter("near", 0, "Infantry", position=(4.5, 0)),     # 1.5": inside a 3" circle
        fighter("far", 0, "Infantry", position=(5, 0)),
    ], [{}, {}])
    args = {"caster": A, "target": T, "distance": 3}
    _, after = sample(smart, "cast", args, world)
    assert [after.fighter(Ref("fighter", i)).removed for i in range(4)] == [False, True, True,
                                                                             False]
    _, after = sample(smart, "cast", {**args, "skirmish": False}, world)
    assert [after.fighter(Ref("fighter", i)).removed for i in range(4)] == [False, True, False,
                                                                             False]


def test_optional_faith_roll_avoids_magic(smart):
    world = duel(smart, fighter("m", 0, "Magician"), fighter("k", 1, "Knight", XP=24))
    result = exact(smart, "cast", {"caster": A, "target": T, "distance": 2, "faith": True}, world)
    assert result["saved"] == d20_at_least(11, 2) == F(3, 5)
    assert result["defeated"] == F(2, 5)


# ---- E903: `warband odds` says which part of a `requires` is false (issue 19, A9) ---------------

REFUSALS = [
    # (ruleset, attacker, target, action, extra options)
    ("super-simple-skirmish", "class=Warrior might=10", "class=Soldier might=10", "shoot", []),
    ("smart", "class=Magician", "class=Goblin", "cast", ["--with", "distance=30"]),
    ("smart", "class=Archer", "class=Goblin", "breath", []),
    ("smart", "class=Goblin", "class=Goblin", "next_level", []),
    ("swords-against-sorcery", "training=3", "training=2", "missile", []),
]


def test_odds_names_the_first_false_part_of_requires(golden):
    runner = CliRunner()
    out = []
    for ruleset, attacker, target, action, extra in REFUSALS:
        result = runner.invoke(app, ["odds", ruleset, "--attacker", attacker, "--target", target,
                                     "--action", action, *extra])
        assert result.exit_code == 2, result.output
        # one part, in the rules' words, never the whole `requires` in nested parentheses
        assert "error[E903]" in result.stderr and "((" not in result.stderr
        out.append(f"$ warband odds {ruleset} --attacker '{attacker}' --target '{target}' "
                   f"--action {action} {' '.join(extra)}".rstrip() + "\n" + result.stderr)
    golden(ROOT / "tests" / "cli_golden" / "odds_refusals.txt", "\n".join(out))


def test_a_chain_of_ands_is_written_without_parentheses():
    from warband.lang.unparse import conjuncts, expr_text
    compiled = compile_text('''ruleset "t"
  title "t"
stat Might: 1..20 default 1
action poke(a: fighter, b: fighter) -> bool
  requires a.Might > 1 and b.Might > 1 and (a.Might > 2 or b.Might > 2) and a != b
{
  return true
}
''', "t.rules")
    assert compiled.ruleset is not None, compiled.diagnostics
    requires = compiled.ruleset.procedures["poke"].requires
    assert expr_text(requires) == ("a.Might > 1 and b.Might > 1 and (a.Might > 2 or b.Might > 2) "
                                   "and a != b")
    assert [expr_text(p) for p in conjuncts(requires)] == [
        "a.Might > 1", "b.Might > 1", "a.Might > 2 or b.Might > 2", "a != b"]


def test_why_a_requirement_is_false_in_the_rules_words():
    from warband.lang.unparse import conjuncts, expr_text, why_false
    compiled = compile_text('''ruleset "t"
  title "t"
stat Might: 1..20 default 1
flag Stunned on fighter
trait Ranged
action poke(a: fighter, b: fighter, reach: number = 3) -> bool
  requires a has Ranged and not (b has Ranged) and not a.Stunned and b.Stunned
    and reach <= a.Might and 2 > a.Might and a.side != b.side and (a.Might > 5 or b.Might > 5)
{
  return true
}
''', "t.rules")
    assert compiled.ruleset is not None, compiled.diagnostics
    parts = conjuncts(compiled.ruleset.procedures["poke"].requires)
    values = {"a.Might": 2, "b.Might": 1, "reach": 3, "2": 2, "5": 5, "a.side": "s", "b.side": "s"}
    said = [why_false(p, lambda e: values.get(expr_text(e), False)) for p in parts]
    assert said == [
        "the a has no Ranged",
        "the b has Ranged",
        "the a is Stunned",
        "the b is not Stunned",
        "reach is 3, more than a.Might (2)",
        "2 is not more than a.Might (2)",
        "a.side is the same as b.side",
        "none of these holds: a.Might is 2, not more than 5; b.Might is 1, not more than 5",
    ]
