"""Super Simple Skirmish, run through the compiled rules: the text's rules and the battle
report's numbers. Every expected figure here is worked out from the rule text by hand."""

from __future__ import annotations

import itertools
import random
from fractions import Fraction as F

import pytest

from warband.run.interpreter import Interpreter, Policies
from warband.run.world import FighterSpec, Ref, make_world

A, T = Ref("fighter", 0), Ref("fighter", 1)


def duel(ruleset, attacker, target, *, attacker_side=None, target_side=None, target_state=None,
         attacker_state=None):
    (a_class, a_might), (t_class, t_might) = attacker, target
    return make_world(ruleset, [
        FighterSpec("attacker", 0, a_class, {"Might": a_might}, state=attacker_state or {}),
        FighterSpec("target", 1, t_class, {"Might": t_might}, state=target_state or {}),
    ], [attacker_side or {}, target_side or {}])


def odds(ruleset, action, world, policy="first", cover=False, **by_decision):
    interpreter = Interpreter(ruleset, Policies(policy, by_decision))
    return interpreter.exact(action, {"attacker": A, "target": T, "cover": cover}, world)


def at_least(n: int, dice: int = 3, drop_lowest: bool = False) -> F:
    """Brute force: the chance that the dice (optionally dropping the lowest) total n or more."""
    hits = total = 0
    for faces in itertools.product(range(1, 7), repeat=dice):
        kept = sorted(faces)[1:] if drop_lowest else faces
        hits += sum(kept) >= n
        total += 1
    return F(hits, total)


def band(ruleset, attacker_might, target_might):
    interpreter = Interpreter(ruleset)
    row = interpreter.call("attack_band", [attacker_might, target_might], None, None)
    return row.get("kill"), row.get("stun")


# ---- the attack table ------------------------------------------------------------------------

@pytest.mark.parametrize("attacker, target, expected", [
    (5, 20, (18, 16)),    # a quarter of the target's or less
    (5, 21, (18, 16)),
    (10, 25, (17, 15)),   # half or less: the Musketeer against Momma
    (10, 20, (17, 15)),   # exactly half is also "less than": the stronger band wins
    (13, 20, (16, 14)),   # less than
    (20, 20, (15, 13)),   # equal
    (21, 20, (14, 12)),   # larger
    (40, 20, (13, 11)),   # double
    (79, 20, (13, 11)),
    (80, 20, (12, 10)),   # quadruple or larger
])
def test_attack_table_bands(sss, attacker, target, expected):
    assert band(sss, attacker, target) == expected


def test_battle_report_musketeer_needs_17_to_kill_and_15_to_stun(sss):
    assert band(sss, 10, 25) == (17, 15)


def test_battle_report_musketeer_against_momma_about_2_and_9_percent(sss):
    result = odds(sss, "shoot", duel(sss, ("Soldier", 10), ("Gunslinger", 25)))
    assert result["kill"] == F(1, 54) == at_least(17)
    assert result["stun"] == F(2, 27) == at_least(15) - at_least(17)
    assert round(float(result["kill"]) * 100) == 2            # "to Kill is a 2%"
    assert round(float(result["kill"] + result["stun"]) * 100) == 9   # "to stun or better ... 9%"


def test_battle_report_kill_through_cover_with_a_fate_adjustment_is_2_percent(sss):
    # The Musketeer rolled 16, spent Fate to make it 17; Momma's cover save failed. With one
    # Fate token used only to adjust (no reroll), a kill needs 16+ and a failed 4+ save.
    world = duel(sss, ("Soldier", 10), ("Gunslinger", 25), attacker_side={"Fate": 1})
    result = odds(sss, "shoot", world, policy="greedy", cover=True, fate_reroll="keep")
    assert result["kill"] == at_least(16) * F(1, 2) == F(5, 216)
    assert round(float(result["kill"]) * 100) == 2


def test_cover_save_halves_every_effect(sss):
    plain = odds(sss, "shoot", duel(sss, ("Soldier", 10), ("Soldier", 10)))
    covered = odds(sss, "shoot", duel(sss, ("Soldier", 10), ("Soldier", 10)), cover=True)
    assert covered["kill"] == plain["kill"] / 2
    assert covered["stun"] == plain["stun"] / 2


# ---- class abilities ---------------------------------------------------------------------------

def test_snipers_roll_4d6_drop_lowest_at_range_only(sss):
    world = duel(sss, ("Sniper", 10), ("Soldier", 10))
    assert odds(sss, "shoot", world)["kill"] == at_least(15, 4, drop_lowest=True)
    assert odds(sss, "melee", world)["kill"] == at_least(15)


@pytest.mark.parametrize("berserk", ["Berserker", "Monster"])
def test_berserkers_and_monsters_roll_4d6_drop_lowest_in_melee(sss, berserk):
    world = duel(sss, (berserk, 10), ("Warrior", 10))
    assert odds(sss, "melee", world)["kill"] == at_least(15, 4, drop_lowest=True)
    if berserk == "Monster":  # Monsters also shoot, with 3D6
        assert odds(sss, "shoot", world)["kill"] == at_least(15)


TEXT_LISTS = {
    # "Warriors, Beasts, Berserkers, Gunslingers and Monsters can charge"
    "Charge": {"Warrior", "Beast", "Berserker", "Gunslinger", "Monster"},
    # "only Soldiers, Drones, Gunners, Snipers, Gunslingers, Monsters and Mechs can make ranged"
    "Ranged": {"Soldier", "Drone", "Gunner", "Sniper", "Gunslinger", "Monster", "Mech"},
    # "Warriors, Berserkers, Monsters and Mechs can defend as an action"
    "Defend": {"Warrior", "Berserker", "Monster", "Mech"},
    "Marksman": {"Sniper"},
    "Frenzy": {"Berserker", "Monster"},
    "Blast": {"Mech", "Gunner"},
    "Fast": {"Beast", "Drone"},          # "Beasts and Drones can move up to 3D6"
}


@pytest.mark.parametrize("trait", sorted(TEXT_LISTS))
def test_class_abilities_match_the_text(sss, trait):
    having = {c.name for c in sss.classes.values() if trait in dict(c.traits)}
    assert having == TEXT_LISTS[trait]


def test_ten_classes_in_three_tiers(sss):
    tiers = {}
    for c in sss.classes.values():
        tiers.setdefault(c.tier, set()).add(c.name)
    assert tiers == {
        "common": {"Soldier", "Warrior", "Beast", "Drone"},
        "special": {"Gunner", "Berserker", "Sniper", "Gunslinger"},
        "rare": {"Monster", "Mech"},
    }


def test_only_ranged_classes_may_shoot_and_stunned_fighters_may_not_attack(sss):
    interpreter = Interpreter(sss)
    args = {"attacker": A, "target": T}
    assert interpreter.allowed("shoot", args, duel(sss, ("Soldier", 10), ("Warrior", 10)))
    assert not interpreter.allowed("shoot", args, duel(sss, ("Warrior", 10), ("Soldier", 10)))
    stunned = duel(sss, ("Soldier", 10), ("Warrior", 10), attacker_state={"Stunned": True})
    assert not interpreter.allowed("shoot", args, stunned)
    assert not interpreter.allowed("melee", args, stunned)


# ---- stun, defend ---------------------------------------------------------------------------------

def test_a_second_stun_kills_and_a_stunned_fighter_has_half_might(sss):
    # Might 25 stunned counts as 12.5: a Might-10 attacker is now merely "less than" (16, 14),
    # and any stun result kills.
    world = duel(sss, ("Soldier", 10), ("Gunslinger", 25), target_state={"Stunned": True})
    result = odds(sss, "shoot", world)
    assert result["kill"] == at_least(14)
    assert result["stun"] == 0


def test_defending_doubles_might(sss):
    # Might 25 defending counts as 50: 10 is a quarter of it or less, so 18 kills and 16 stuns.
    world = duel(sss, ("Soldier", 10), ("Warrior", 25), target_state={"Defending": True})
    result = odds(sss, "shoot", world)
    assert result["kill"] == at_least(18)
    assert result["stun"] == at_least(16) - at_least(18)


def test_sampled_attacks_change_the_target(sss):
    interpreter = Interpreter(sss, rng=random.Random(7))
    seen = set()
    for _ in range(400):
        world = duel(sss, ("Monster", 25), ("Soldier", 5))
        outcome, after = interpreter.sample("melee", {"attacker": A, "target": T}, world)
        seen.add(outcome)
        target = after.fighter(T)
        assert target.removed == (outcome == "kill")
        assert target.values["Stunned"] == (outcome == "stun")
    assert seen == {"kill", "stun", "none"}


# ---- Fate ---------------------------------------------------------------------------------------

def test_fate_is_spent_only_by_its_own_side_and_greedy_never_lowers_the_odds(sss):
    base = duel(sss, ("Soldier", 10), ("Gunslinger", 25))
    rich = duel(sss, ("Soldier", 10), ("Gunslinger", 25), attacker_side={"Fate": 2})
    never = odds(sss, "shoot", rich, policy="first")
    greedy = odds(sss, "shoot", rich, policy="greedy")
    assert never == odds(sss, "shoot", base)
    assert greedy["kill"] > never["kill"]
    assert greedy["none"] < never["none"]


def test_target_spends_its_own_fate_on_the_cover_save(sss):
    world = duel(sss, ("Soldier", 10), ("Gunslinger", 25), target_side={"Fate": 1})
    plain = odds(sss, "shoot", world, cover=True)
    greedy = odds(sss, "shoot", world, policy="greedy", cover=True)
    # the target's Fate makes its save better, so the attack does worse
    assert greedy["none"] > plain["none"]


# ---- morale, movement, restock ------------------------------------------------------------------------

def test_morale_check_compares_two_d6_products(sss):
    interpreter = Interpreter(sss)
    world = make_world(sss, [], [{}, {}])
    result = interpreter.exact("morale", {"side": Ref("side", 0), "lost": 2, "in_play": 5},
                               world)
    fails = sum(a * 2 > b * 5 for a in range(1, 7) for b in range(1, 7))
    assert result["fail"] == F(fails, 36)


def test_three_fate_tokens_discarded_pass_a_failed_morale_check(sss):
    world = make_world(sss, [], [{"Fate": 3}, {}])
    args = {"side": Ref("side", 0), "lost": 3, "in_play": 1}
    greedy = Interpreter(sss, Policies("greedy")).exact("morale", args, world)
    assert greedy["fail"] == 0
    poor = make_world(sss, [], [{"Fate": 2}, {}])
    assert Interpreter(sss, Policies("greedy")).exact("morale", args, poor)["fail"] > 0


def test_movement_is_2d6_or_3d6_for_beasts_and_drones(sss):
    interpreter = Interpreter(sss)
    for cls, dice in (("Soldier", 2), ("Beast", 3), ("Drone", 3)):
        world = make_world(sss, [FighterSpec("m", 0, cls, {"Might": 5})])
        result = interpreter.exact("move", {"mover": A}, world)
        assert result.mean() == F(7, 2) * dice


def test_restock_gives_one_token_per_fighter_near_a_shrine(sss):
    world = make_world(sss, [], [{}, {}])
    interpreter = Interpreter(sss, Policies("first", {"restock_token": "command"}))
    _, after = interpreter.sample("restock", {"side": Ref("side", 0), "near_shrines": 3}, world)
    assert (after.sides[0].values["Fate"], after.sides[0].values["Command"]) == (0, 3)


# ---- army construction ---------------------------------------------------------------------------

def test_points_calculator(sss):
    army = sss.army
    assert army.points == 100
    assert army.size[:2] == ("at most", 16)
    quotas = {(q.kind, q.target, q.bound, q.limit) for q in army.quotas}
    assert quotas == {("tier", "common", "at least", F(1, 2)), ("tier", "rare", "at most", 2)}
