"""Swords Against Sorcery, run through the compiled rules (dsl/swords-against-sorcery.rules): the
text's worked examples, the Binary Engine against brute force, and whole exchanges against
distributions worked out by hand or by enumerating every face of every die."""

from __future__ import annotations

import itertools
import os
import subprocess
import sys
from fractions import Fraction as F
from pathlib import Path

import pytest

from warband.lang.compiler import load
from warband.run.dice import Dist
from warband.run.interpreter import Interpreter, Policies
from warband.run.world import FighterSpec, Ref, make_world

ROOT = Path(__file__).resolve().parents[1]
WARBAND = Path(sys.executable).with_name("warband")
A, T = Ref("fighter", 0), Ref("fighter", 1)


@pytest.fixture(scope="module")
def sas():
    compiled = load("swords-against-sorcery")
    assert compiled.ruleset is not None, [d.message for d in compiled.diagnostics]
    return compiled.ruleset


def fighter(name, side, training, size="Medium", traits=None, equipment=(), state=None,
            position=None):
    return FighterSpec(name, side, None, {"Training": training, "Size": size},
                       traits=dict(traits or {}), equipment=tuple(equipment),
                       state=dict(state or {}), position=position)


def world_of(ruleset, *specs):
    return make_world(ruleset, list(specs), [{} for _ in range(2)])


def run(ruleset, action, args, world, policy="first", **scripted):
    policies = Policies(policy, {k: str(v) for k, v in scripted.items()})
    return Interpreter(ruleset, policies).exact(action, args, world)


def sample(ruleset, action, args, world, **scripted):
    policies = Policies("first", {k: str(v) for k, v in scripted.items()})
    return Interpreter(ruleset, policies).sample(action, args, world)


def value(ruleset, name, *args, world=None):
    return Interpreter(ruleset).call(name, list(args), None, world)


def stat(world, ref, name):
    return world.fighter(ref).values[name]


def evens(n: int, sides: int) -> Dist:
    """Brute force: the number of even faces among n dice of the given sides."""
    counts = {}
    for faces in itertools.product(range(1, sides + 1), repeat=n):
        k = sum(1 for f in faces if f % 2 == 0)
        counts[k] = counts.get(k, 0) + 1
    return Dist({k: F(c, sides ** n) for k, c in counts.items()})


# ---- the compiled file ---------------------------------------------------------------------------

def test_rules_check_strict_is_clean():
    result = subprocess.run([str(WARBAND), "rules", "check",
                             str(ROOT / "dsl" / "swords-against-sorcery.rules"), "--strict"],
                            capture_output=True, text=True, cwd=ROOT)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "0 errors, 0 warnings" in result.stdout


def test_odds_command_runs_the_exchange():
    env = {**os.environ, "NO_COLOR": "1", "COLUMNS": "120"}
    result = subprocess.run(
        [str(WARBAND), "odds", "swords-against-sorcery",
         "--attacker", "training=5 size=Medium toughness=1 equipment=TwoHandedWeapon",
         "--target", "training=4 size=Big equipment=Chainmail,Shield",
         "--action", "exchange", "--policy", "a_hand=3,1,1"],
        capture_output=True, text=True, cwd=ROOT, env=env)
    assert result.returncode == 0, result.stdout + result.stderr
    for outcome in ("target_falls", "ahead", "even", "both_fall", "behind", "attacker_falls"):
        assert outcome in result.stdout


def test_odds_command_with_extra_parameters():
    env = {**os.environ, "NO_COLOR": "1", "COLUMNS": "120"}
    result = subprocess.run(
        [str(WARBAND), "odds", "swords-against-sorcery", "--attacker", "training=5 toughness=4",
         "--action", "take_damage", "--with", "damage=6", "--format", "json"],
        capture_output=True, text=True, cwd=ROOT, env=env)
    assert result.returncode == 0, result.stdout + result.stderr
    assert '"3": "1"' in result.stdout          # the ogre: Training 5 -> 3 after 2 + 4 points


# ---- fighters: Training, Size, traits, equipment ------------------------------------------------------

@pytest.mark.parametrize("level, name", [(1, "untrained rabble"), (2, "average soldier"),
                                         (3, "veteran"), (4, "elite soldier"), (5, "champion"),
                                         (6, "master"), (7, "paragon"), (8, "hero")])
def test_training_names(sas, level, name):
    assert value(sas, "training_name", level) == name
    world = world_of(sas, fighter("f", 0, level))
    assert run(sas, "rank", {"fighter": A}, world) == Dist.point(name)


@pytest.mark.parametrize("size, points", [("Small", 1), ("Medium", 2), ("Big", 3),
                                          ("BiggerThanBig", 4), ("PrettyDangBig", 5)])
def test_movement_points_by_size(sas, size, points):
    assert value(sas, "movement_points", size) == points
    world = world_of(sas, fighter("f", 0, 3, size))
    interp = Interpreter(sas)
    assert interp.allowed("move", {"mover": A, "squares": points}, world)
    assert not interp.allowed("move", {"mover": A, "squares": points + 1}, world)
    left, after = interp.sample("move", {"mover": A, "squares": 1}, world)
    assert left == points - 1 and stat(after, A, "MovementUsed") == 1


@pytest.mark.parametrize("equipment, armor, weapon, missile", [
    ((), 0, 0, 0),
    (("Chainmail",), 1, 0, 0),
    (("Platemail",), 2, 0, 0),
    (("Chainmail", "Platemail"), 2, 0, 0),       # the best armour counts
    (("Leather",), 0, 0, 0),                      # impresses the wenches but not much else
    (("OneHandedWeapon",), 0, 0, 0),
    (("Dagger",), 0, -1, 0),
    (("BareHands",), 0, -1, 0),
    (("Dagger", "OneHandedWeapon"), 0, 0, 0),     # "armed with only a dagger"
    (("TwoHandedWeapon",), 0, 1, 0),
    (("Sling",), 0, 0, -1), (("Dart",), 0, 0, -1),
    (("SelfBow",), 0, 0, 0), (("Spear",), 0, 0, 0), (("ThrowingAxe",), 0, 0, 0),
    (("LongBow",), 0, 0, 1), (("Crossbow",), 0, 0, 1),
])
def test_equipment(sas, equipment, armor, weapon, missile):
    f = world_of(sas, fighter("f", 0, 3, equipment=equipment)).fighter(A)
    assert (f.traits["Armor"], f.traits["WeaponDamage"], f.traits["MissileDamage"]) == \
        (armor, weapon, missile)


def test_shield_is_one_more_defence_die(sas):
    world = world_of(sas, fighter("f", 0, 3, equipment=("Shield",)), fighter("g", 1, 3))
    assert value(sas, "shield_dice", A, world=world) == 1
    assert value(sas, "shield_dice", T, world=world) == 0


def test_negative_traits_and_weapons_add_up_like_strength(sas):
    world = world_of(sas, fighter("halfling", 0, 2, "Small", {"Strength": -1}, ("Dagger",)),
                     fighter("ogre", 1, 5, "Big", {"Strength": 2}, ("TwoHandedWeapon",)))
    assert value(sas, "melee_bonus", A, world=world) == -2
    assert value(sas, "melee_bonus", T, world=world) == 3
    # a hit lands only with a success left over; never below 0
    assert value(sas, "blow", 0, 3) == 0
    assert value(sas, "blow", 1, 3) == 4
    assert value(sas, "blow", 1, -2) == 0
    assert value(sas, "blow", 3, -2) == 1


def test_morale_traits_are_named_and_do_nothing(sas):
    for trait in ("Bravery", "Terrifying", "Inspiring"):
        assert trait in sas.traits
    plain = world_of(sas, fighter("a", 0, 2), fighter("b", 1, 2))
    brave = world_of(sas, fighter("a", 0, 2, traits={"Bravery": True, "Terrifying": True,
                                                    "Inspiring": True}), fighter("b", 1, 2))
    args = {"attacker": A, "target": T}
    assert run(sas, "exchange", args, plain) == run(sas, "exchange", args, brave)


# ---- the Binary Engine -------------------------------------------------------------------------------

@pytest.mark.parametrize("define, sides", [("attack_successes", 6), ("defence_successes", 8),
                                           ("speed_successes", 10)])
@pytest.mark.parametrize("n", [0, 1, 2, 3])
def test_even_faces_are_successes(sas, define, sides, n):
    assert value(sas, define, n, A, world=world_of(sas, fighter("a", 0, 2))) == evens(n, sides)


@pytest.mark.parametrize("define", ["attack_successes", "defence_successes", "speed_successes"])
def test_every_die_succeeds_half_the_time(sas, define):
    assert value(sas, define, 1, A, world=world_of(sas, fighter("a", 0, 2))) == \
        Dist({0: F(1, 2), 1: F(1, 2)})


# ---- Toughness, Armor and damage: the worked examples ---------------------------------------------------

def test_the_ogre_toughness_example(sas):
    ogre = world_of(sas, fighter("ogre", 0, 5, "Big", {"Toughness": 4}))
    # hit for 2 points: Training still 5, Toughness now 2
    left, ogre = sample(sas, "take_damage", {"target": A, "damage": 2}, ogre)
    assert left == 5 and stat(ogre, A, "Training") == 5
    assert value(sas, "toughness_left", A, world=ogre) == 2
    # hit for 4 more: Toughness absorbs 2 and drops to 0, Training falls to 3
    left, ogre = sample(sas, "take_damage", {"target": A, "damage": 4}, ogre)
    assert left == 3 and stat(ogre, A, "Training") == 3
    assert value(sas, "toughness_left", A, world=ogre) == 0
    assert ogre.fighter(A).traits["Toughness"] == 4       # the trait itself never changes
    assert stat(ogre, A, "Damage") == 6


def sir_edwin(sas):
    return world_of(sas, fighter("Sir Edwin", 0, 8, traits={"Toughness": 2},
                                 equipment=("Chainmail",)))


def test_sir_edwin_shrugs_off_five_orcs_doing_1_each(sas):
    left, after = sample(sas, "take_damage", {"target": A, "damage": 1, "hits": 5},
                         sir_edwin(sas))
    assert left == 8 and stat(after, A, "Damage") == 0
    assert value(sas, "toughness_left", A, world=after) == 2


def test_sir_edwin_takes_5_from_five_orcs_doing_2_each(sas):
    left, after = sample(sas, "take_damage", {"target": A, "damage": 2, "hits": 5},
                         sir_edwin(sas))
    assert stat(after, A, "Damage") == 5                  # 1 from each hit after Armor
    assert value(sas, "toughness_left", A, world=after) == 0   # Toughness absorbs 2
    assert left == 5 and stat(after, A, "Training") == 5       # 3 come off Training


def test_one_hit_of_10_is_not_five_hits_of_2(sas):
    left, after = sample(sas, "take_damage", {"target": A, "damage": 10}, sir_edwin(sas))
    assert stat(after, A, "Damage") == 9 and left == 1    # Armor comes off once


def test_training_0_eliminates(sas):
    world = world_of(sas, fighter("orc", 0, 2))
    left, after = sample(sas, "take_damage", {"target": A, "damage": 3}, world)
    assert left == 0 and after.fighter(A).removed


def test_guts_rolls_full_training_and_still_dies_at_0(sas):
    hurt = {"Damage": 3}
    world = world_of(sas, fighter("berserker", 0, 2, traits={"Guts": True, "Toughness": 1},
                                  state=hurt),
                     fighter("soldier", 1, 2, traits={"Toughness": 1}, state=hurt))
    assert value(sas, "full_training", A, world=world) == 4
    assert value(sas, "dice_in_hand", A, world=world) == 4
    assert value(sas, "dice_in_hand", T, world=world) == 2
    left, after = sample(sas, "take_damage", {"target": A, "damage": 2}, world)
    assert left == 0 and after.fighter(A).removed


# ---- the hand ---------------------------------------------------------------------------------------------

@pytest.mark.parametrize("attack, defence, speed, legal", [
    (3, 1, 1, True),      # the text's example for Training 5
    (1, 4, 0, True),      # "or 4 defense dice and 1 attack die"
    (2, 0, 0, True),      # fewer dice than Training is allowed
    (4, 1, 1, False),     # six dice from Training 5
    (0, 0, 6, False),
    (-1, 3, 3, False),
])
def test_hands_up_to_training(sas, attack, defence, speed, legal):
    world = world_of(sas, fighter("f", 0, 5))
    got = run(sas, "check_hand", {"fighter": A, "attack": attack, "defence": defence,
                                  "speed": speed}, world)
    assert got == Dist.point(legal)


def test_a_scripted_hand_over_training_is_not_rolled(sas):
    # Training 5 scripted 4 attack, 1 defence, 1 speed: 6 dice are over the hand, so that hand
    # is not an option and the default (half the dice attack, the rest defend: 3/2/0) is rolled.
    world = world_of(sas, fighter("a", 0, 5), fighter("b", 1, 3))
    args = {"attacker": A, "target": T}
    over = run(sas, "exchange_damage", args, world, a_hand="4,1,1")
    default = run(sas, "exchange_damage", args, world, a_hand="3,2,0")
    legal = run(sas, "exchange_damage", args, world, a_hand="3,1,1")
    assert over == default == run(sas, "exchange_damage", args, world)
    assert over != legal
    # a number over the dice in hand for the first pile: the default too
    assert run(sas, "exchange_damage", args, world, a_hand="9,0,0") == default
    # the hand as the game log shows it names the same hand
    assert run(sas, "exchange_damage", args, world,
               a_hand="a_attack 3, a_defence 1, a_speed 1") == legal


def test_missile_defence_dice_are_gone_for_melee_and_firing_leaves_no_dice(sas):
    world = world_of(sas, fighter("a", 0, 5, equipment=("Shield",), state={"MissileDice": 2}),
                     fighter("b", 1, 3, equipment=("Shield",), state={"Fired": True}))
    assert value(sas, "dice_in_hand", A, world=world) == 3
    assert value(sas, "dice_in_hand", T, world=world) == 0
    assert value(sas, "shield_dice", T, world=world) == 0     # not ANY dice after firing


# ---- whole exchanges ---------------------------------------------------------------------------------------

def test_training_1_against_training_1(sas):
    # Both hands are one attack die (the default: half the dice, rounded up). No speed dice:
    # a tie, so the blows are simultaneous; each lands half the time and kills.
    world = world_of(sas, fighter("a", 0, 1), fighter("b", 1, 1))
    got = run(sas, "exchange", {"attacker": A, "target": T}, world)
    assert got == Dist({"target_falls": F(1, 4), "both_fall": F(1, 4),
                        "attacker_falls": F(1, 4), "even": F(1, 4)})


def test_speed_strikes_first_and_kills_before_the_strike_back(sas):
    # Training 2 (1 attack, 1 speed) against Training 1 (1 attack).
    # Speed success (1/2): the attacker strikes first; a hit (1/2) kills, no strike back;
    #   a miss lets the target strike: behind 1/4 of the branch, even 1/4.
    # No speed success (1/2): simultaneous; the attacker (Training 2) survives a hit:
    #   target_falls whenever the attacker hits (1/2), behind 1/4, even 1/4.
    world = world_of(sas, fighter("a", 0, 2), fighter("b", 1, 1))
    got = run(sas, "exchange", {"attacker": A, "target": T}, world, a_hand="1,0,1")
    assert got == Dist({"target_falls": F(1, 2), "behind": F(1, 4), "even": F(1, 4)})


# A second reading of the rules, written in Python from the file's comments, by enumerating every
# face of every die: the rules must agree with it exactly.

def _wins(n, sides):
    """Every face of n dice: how many ways each number of even faces comes up."""
    counts = {}
    for faces in itertools.product(range(1, sides + 1), repeat=n):
        k = sum(1 for f in faces if f % 2 == 0)
        counts[k] = counts.get(k, 0) + 1
    return list(counts.items())


class _Fig:
    def __init__(self, training, toughness=0, armor=0, bonus=0, shield=False, guts=False):
        self.training, self.toughness, self.armor, self.bonus = training, toughness, armor, bonus
        self.shield, self.guts, self.damage = shield, guts, 0

    def health(self):
        return max(self.training, 0) + max(self.toughness - self.damage, 0)

    def struck(self, damage):
        if damage < 1 or self.training < 1:
            return 0
        d = max(damage - self.armor, 0)
        soaked = min(d, max(self.toughness - self.damage, 0))
        lost = min(d - soaked, self.training)
        self.damage += d
        self.training -= lost
        return lost


def _blow(net, bonus):
    return max(net + bonus, 0) if net >= 1 else 0


def brute_exchange(a_kw, b_kw, a_hand, b_hand) -> Dist:
    """Net damage (target's health lost minus attacker's) over every face of every die."""
    counts = {}
    pools = []
    for kw, (att, dfn, spd) in ((a_kw, a_hand), (b_kw, b_hand)):
        shield = 1 if kw.get("shield") else 0
        pools += [_wins(att, 6), _wins(dfn + shield, 8), _wins(spd, 10)]
    total = 0
    for rolled in itertools.product(*pools):
        (a_hits, _), (a_par, _), (a_sp, _), (b_hits, _), (b_par, _), (b_sp, _) = rolled
        ways = 1
        for _, w in rolled:
            ways *= w
        a, b = _Fig(**a_kw), _Fig(**b_kw)
        before = (a.health(), b.health())
        a_rolled = sum(a_hand) + (1 if a.shield else 0)
        b_rolled = sum(b_hand) + (1 if b.shield else 0)
        fast = a_sp - b_sp

        def kept(fig, hits, rolled, lost):
            return hits if fig.guts else min(hits, max(rolled - lost, 0))
        if fast > 0:
            lost = b.struck(_blow(a_hits - b_par, a.bonus))
            if b.training >= 1:
                a.struck(_blow(kept(b, b_hits, b_rolled, lost) - a_par, b.bonus))
        elif fast < 0:
            lost = a.struck(_blow(b_hits - a_par, b.bonus))
            if a.training >= 1:
                b.struck(_blow(kept(a, a_hits, a_rolled, lost) - b_par, a.bonus))
        else:
            b.struck(_blow(a_hits - b_par, a.bonus))
            a.struck(_blow(b_hits - a_par, b.bonus))
        net = (before[1] - b.health()) - (before[0] - a.health())
        counts[net] = counts.get(net, 0) + ways
        total += ways
    return Dist({k: F(c, total) for k, c in counts.items()})


def _spec(name, side, kw):
    traits = {}
    if kw.get("toughness"):
        traits["Toughness"] = kw["toughness"]
    if kw.get("bonus"):
        traits["Strength"] = kw["bonus"]
    if kw.get("guts"):
        traits["Guts"] = True
    equipment = (("Shield",) if kw.get("shield") else ()) + \
        {0: (), 1: ("Chainmail",), 2: ("Platemail",)}[kw.get("armor", 0)]
    return fighter(name, side, kw["training"], traits=traits, equipment=equipment)


EXCHANGES = [
    # attacker, target, attacker's hand, target's hand (attack, defence, speed)
    ({"training": 1}, {"training": 1}, (1, 0, 0), (1, 0, 0)),
    ({"training": 2, "bonus": 2}, {"training": 4}, (1, 0, 1), (3, 0, 1)),          # discards
    ({"training": 2, "bonus": 2}, {"training": 4, "guts": True}, (1, 0, 1), (3, 0, 1)),
    ({"training": 2, "bonus": 2}, {"training": 4, "toughness": 2}, (1, 0, 1), (3, 0, 1)),
    ({"training": 3, "toughness": 1}, {"training": 3, "armor": 1, "shield": True},
     (2, 0, 1), (1, 1, 1)),
    ({"training": 3, "bonus": -1}, {"training": 2, "armor": 2}, (2, 1, 0), (1, 0, 1)),
]


@pytest.mark.parametrize("a_kw, b_kw, a_hand, b_hand", EXCHANGES)
def test_exchange_matches_every_face_of_every_die(sas, a_kw, b_kw, a_hand, b_hand):
    world = world_of(sas, _spec("a", 0, a_kw), _spec("b", 1, b_kw))
    hands = {"a_hand": ",".join(map(str, a_hand)), "b_hand": ",".join(map(str, b_hand))}
    got = run(sas, "exchange_damage", {"attacker": A, "target": T}, world, **hands)
    assert got == brute_exchange(a_kw, b_kw, a_hand, b_hand)


def test_discards_come_from_useless_dice_first(sas):
    # Struck first for 3 with 4 dice in hand, a Training-4 target keeps at most 1 attack success.
    assert value(sas, "kept_attacks", *[T, 3, 4, 3],
                 world=world_of(sas, fighter("a", 0, 2), fighter("b", 1, 4))) == 1
    # with 3 dice to spare (speed, odd, defence), 2 damage costs no success
    assert value(sas, "kept_attacks", *[T, 2, 5, 2],
                 world=world_of(sas, fighter("a", 0, 2), fighter("b", 1, 5))) == 2


def test_greedy_hands_for_small_fighters(sas):
    world = world_of(sas, fighter("a", 0, 2), fighter("b", 1, 2))
    got = run(sas, "exchange", {"attacker": A, "target": T}, world, policy="greedy")
    assert sum(p for _, p in got.items()) == 1
    # the greedy attacker does no worse than the default hand against the same greedy target
    default = run(sas, "exchange", {"attacker": A, "target": T}, world, policy="greedy",
                  a_hand="first")
    scores = dict(sas.outcomes["exchange_result"].scores)
    assert got.mean_of(lambda v: scores[v]) >= default.mean_of(lambda v: scores[v])


def test_exchange_marks_both_as_fought_and_blocks_missiles(sas):
    world = world_of(sas, fighter("a", 0, 2, traits={"MissileWeapon": 2}), fighter("b", 1, 2))
    interp = Interpreter(sas)
    assert interp.allowed("missile", {"shooter": A, "target": T}, world)
    _, after = interp.sample("exchange", {"attacker": A, "target": T}, world)
    assert stat(after, A, "Fought") and stat(after, T, "Fought")
    if not after.fighter(A).removed:
        assert not interp.allowed("missile", {"shooter": A, "target": T}, after)


def test_sampled_exchange_is_reproducible(sas):
    world = world_of(sas, fighter("a", 0, 5), fighter("b", 1, 5, equipment=("Shield",)))
    first = Interpreter(sas).sample("exchange", {"attacker": A, "target": T}, world)
    again = Interpreter(sas).sample("exchange", {"attacker": A, "target": T}, world)
    assert first[0] == again[0] and first[1].key() == again[1].key()
    assert first[0] in dict(sas.outcomes["exchange_result"].scores)


# ---- ganging up -----------------------------------------------------------------------------------------------

def gang(sas, gang_trainings, lone_training, lone_traits=None, gang_traits=None,
         lone_equipment=()):
    specs = [fighter(f"g{i}", 0, t, traits=gang_traits) for i, t in enumerate(gang_trainings)]
    specs.append(fighter("lone", 1, lone_training, traits=lone_traits,
                         equipment=lone_equipment))
    return world_of(sas, *specs), Ref("fighter", len(gang_trainings))


LONE_IDLE = {"lone_hand": "0,0,0"}


def test_two_training_2_figures_roll_a_hand_of_4_against_training_6(sas):
    world, lone = gang(sas, [2, 2], 6, {"Toughness": 20})
    args = {"leader": A, "lone": lone}
    # all four pooled dice attack: the lone figure is hurt unless all four come up odd
    four = run(sas, "gang_up", args, world, gang_hand="4,0,0", **LONE_IDLE)
    assert four == Dist({"ahead": F(15, 16), "even": F(1, 16)})
    # five is over the pooled hand: not taken; the default (half of 4 attack, rest defence) is
    five = run(sas, "gang_up", args, world, gang_hand="5,0,0", **LONE_IDLE)
    assert five == Dist({"ahead": F(3, 4), "even": F(1, 4)})


def test_gang_up_of_two_training_1_against_training_1(sas):
    # Pooled hand of 2 attack dice; the lone figure rolls 1 attack die; no speed: simultaneous.
    # Any gang success kills the lone figure (3/4); its own hit (1/2) goes to the first member
    # (the default allocation) and kills it.
    world, lone = gang(sas, [1, 1], 1)
    got = run(sas, "gang_up", {"leader": A, "lone": lone}, world, gang_hand="2,0,0",
              lone_hand="1,0,0")
    assert got == Dist({"target_falls": F(3, 8), "both_fall": F(3, 8),
                        "attacker_falls": F(1, 8), "even": F(1, 8)})


def test_the_lone_figure_allocates_its_damage(sas):
    # Training 6 lone figure, 2 damage: all to one Training-2 orc (kills it) or one each.
    world, lone = gang(sas, [2, 2], 6, {"Strength": 1})
    args = {"leader": A, "lone": lone}
    hands = dict(gang_hand="0,0,0", lone_hand="1,0,0")
    # one success + Strength 1 = 2 damage (half the time)
    one_each = run(sas, "gang_up", args, world, lone_share=1, **hands)
    both_to_one = run(sas, "gang_up", args, world, lone_share=2, **hands)
    assert one_each == Dist({"behind": F(1, 2), "even": F(1, 2)})
    assert both_to_one == Dist({"attacker_falls": F(1, 2), "even": F(1, 2)})


def test_armor_works_on_each_ganging_attack_separately(sas):
    # Five Training-1 orcs gang up on Sir Edwin, every die attacking, one success per orc: each
    # hit of 1 is stopped by his chainmail, however many succeed.
    specs = [fighter(f"orc{i}", 0, 1) for i in range(5)]
    specs.append(fighter("Sir Edwin", 1, 8, traits={"Toughness": 2}, equipment=("Chainmail",)))
    world, edwin = world_of(sas, *specs), Ref("fighter", 5)
    args = {"leader": A, "lone": edwin}
    got = run(sas, "gang_up", args, world, gang_hand="5,0,0", gang_share=1, **LONE_IDLE)
    assert got == Dist.point("even")
    # orcs of Strength 1 do 2 a hit: 1 gets through each time, so any success hurts him
    strong = [fighter(f"orc{i}", 0, 1, traits={"Strength": 1}) for i in range(5)]
    world = world_of(sas, *strong, specs[-1])
    got = run(sas, "gang_up", args, world, gang_hand="5,0,0", gang_share=1, **LONE_IDLE)
    assert got == Dist({"ahead": F(31, 32), "even": F(1, 32)})


def test_gang_is_the_adjacent_fighters_when_there_is_a_board(sas):
    # on a board only the leader's side's fighters next to the lone figure join in
    specs = [fighter("near", 0, 2, position=(0, 0)), fighter("far", 0, 2, position=(5, 5)),
             fighter("lone", 1, 6, traits={"Toughness": 20}, position=(1, 1))]
    world = world_of(sas, *specs)
    args = {"leader": A, "lone": Ref("fighter", 2)}
    got = run(sas, "gang_up", args, world, gang_hand="4,0,0", **LONE_IDLE)   # 4 > 2: default 1/1/0
    assert got == Dist({"ahead": F(1, 2), "even": F(1, 2)})


# ---- missiles ----------------------------------------------------------------------------------------------------

def test_missile_attack_with_a_long_bow(sas):
    world = world_of(sas, fighter("archer", 0, 2, traits={"MissileWeapon": 2},
                                  equipment=("LongBow",)),
                     fighter("target", 1, 4))
    got = run(sas, "missile", {"shooter": A, "target": T}, world, missile_defence=0)
    # 2 attack dice; any success hits for successes + 1
    assert got == Dist({0: F(1, 4), 2: F(1, 2), 3: F(1, 4)})


def test_missile_defence_is_spent_for_the_round(sas):
    world = world_of(sas, fighter("archer", 0, 2, traits={"MissileWeapon": 1},
                                  equipment=("Sling",)),
                     fighter("target", 1, 4, equipment=("Shield",)))
    interp = Interpreter(sas, Policies("first", {"missile_defence": "3"}))
    _, after = interp.sample("missile", {"shooter": A, "target": T}, world)
    assert stat(after, T, "MissileDice") == 3
    assert value(sas, "dice_in_hand", T, world=after) == 1
    # the archer fired: no melee this round, and no dice if charged
    assert stat(after, A, "Fired")
    assert not interp.allowed("exchange", {"attacker": A, "target": T}, after)
    assert not interp.allowed("missile", {"shooter": A, "target": T}, after)
    assert value(sas, "dice_in_hand", A, world=after) == 0
    # a new round clears it all
    _, fresh = interp.sample("new_round", {"side": Ref("side", 0)}, after)
    _, fresh = interp.sample("new_round", {"side": Ref("side", 1)}, fresh)
    assert not stat(fresh, A, "Fired") and stat(fresh, T, "MissileDice") == 0


def test_missile_defence_dice_and_shield(sas):
    # Missile Weapon 1 with a sling (-1): a single success does 0; the target's defence never
    # matters then. With a self bow (0): a hit needs the success to beat 1 defence die + shield.
    world = world_of(sas, fighter("archer", 0, 2, traits={"MissileWeapon": 1},
                                  equipment=("SelfBow",)),
                     fighter("target", 1, 4, equipment=("Shield",)))
    got = run(sas, "missile", {"shooter": A, "target": T}, world, missile_defence=1)
    # hit only if the attack die succeeds (1/2) and both d8s fail (1/4)
    assert got == Dist({0: F(7, 8), 1: F(1, 8)})


# ---- fleeing ----------------------------------------------------------------------------------------------------------

def test_fleeing_with_half_training_as_speed_dice(sas):
    world = world_of(sas, fighter("runner", 0, 5), fighter("chaser", 1, 1))
    args = {"runner": A, "chaser": T}
    # at most floor(5 / 2) = 2 speed dice: a scripted 3 is not taken (the default, 2, is)
    two = run(sas, "flee", args, world, flee_speed=2, chase_hand="1,0")
    three = run(sas, "flee", args, world, flee_speed=3, chase_hand="1,0")
    # any speed success (3/4) gets away first; otherwise the chaser hits half the time
    assert two == three == Dist({"escaped": F(7, 8), "escaped_hurt": F(1, 8)})
    one = run(sas, "flee", args, world, flee_speed=1, chase_hand="1,0")
    assert one == Dist({"escaped": F(3, 4), "escaped_hurt": F(1, 4)})


def test_fleeing_needs_movement_left(sas):
    interp = Interpreter(sas)
    args = {"runner": A, "chaser": T}
    moved = world_of(sas, fighter("r", 0, 2, "Medium", state={"MovementUsed": 2}),
                     fighter("c", 1, 2))
    assert not interp.allowed("flee", args, moved)
    some_left = world_of(sas, fighter("r", 0, 2, "Medium", state={"MovementUsed": 1}),
                         fighter("c", 1, 2))
    assert interp.allowed("flee", args, some_left)


def test_a_caught_runner(sas):
    world = world_of(sas, fighter("runner", 0, 1), fighter("chaser", 1, 2))
    # Training 1: no speed dice at all; the chaser's two attack dice kill on any success
    got = run(sas, "flee", {"runner": A, "chaser": T}, world, chase_hand="2,0")
    assert got == Dist({"caught": F(3, 4), "escaped": F(1, 4)})


# ---- the scenario's special rule -------------------------------------------------------------------------------

def test_filling_pockets_means_no_dice(sas):
    world = world_of(sas, fighter("dude", 0, 3), fighter("menace", 1, 4, "Big",
                                                          {"Toughness": 1}))
    interp = Interpreter(sas)
    turns, after = interp.sample("fill_pockets", {"dude": A}, world)
    assert turns == 1 and stat(after, A, "FillingPockets")
    assert value(sas, "dice_in_hand", A, world=after) == 0
    assert not interp.allowed("exchange", {"attacker": A, "target": T}, after)


# ---- issue 19: one gang attack a round, gang hits, a defender's flight ---------------------------------

def test_a_gang_member_makes_no_other_attack_that_round(sas):
    world, lone = gang(sas, [2, 2], 6, {"Toughness": 20})
    interp = Interpreter(sas)
    _, after = interp.sample("gang_up", {"leader": A, "lone": lone}, world)
    second = Ref("fighter", 1)
    assert stat(after, A, "Attacked") and stat(after, second, "Attacked")
    # the second member pooled its dice already: it neither gangs up again nor attacks alone
    assert not interp.allowed("gang_up", {"leader": second, "lone": lone}, after)
    assert not interp.allowed("exchange", {"attacker": second, "target": lone}, after)
    # a new round, a new attack
    for side in (0, 1):
        _, after = interp.sample("new_round", {"side": Ref("side", side)}, after)
    assert interp.allowed("gang_up", {"leader": second, "lone": lone}, after)


def test_a_gang_cannot_pile_its_successes_into_one_hit(sas):
    # two Training-2 figures with every die on attack against Armor 1: four successes are two
    # hits of 2 (1 through each), never one of 4 (3 through), whatever the leader asks
    world, lone = gang(sas, [2, 2], 8, lone_equipment=("Chainmail",))
    args = {"leader": A, "lone": lone}
    piled = run(sas, "gang_up", args, world, gang_hand="4,0,0", gang_share=4, **LONE_IDLE)
    even = run(sas, "gang_up", args, world, gang_hand="4,0,0", **LONE_IDLE)
    assert piled == even
    # k successes of 4 dice: k // 2 and k - k // 2, each hit of n doing n - 1: 0 for k <= 1
    # (5/16), else k - 2 through (k = 2 is 1 + 1 - 2 = 0 too)
    assert even == Dist({"even": F(1 + 4 + 6, 16), "ahead": F(4 + 1, 16)})


def test_a_defender_may_flee(sas):
    world = world_of(sas, fighter("attacker", 0, 2), fighter("runner", 1, 4))
    args = {"attacker": A, "target": T}
    got = run(sas, "exchange", args, world, answer_attack="flee_attack")
    # the runner rolls 2 speed dice (half of 4), the attacker 1 attack and 1 speed die: away
    # first half the time; else a success (1/2) hits it for 1. The attacker is never hurt
    assert got == Dist({"even": F(3, 4), "ahead": F(1, 4)})
    # with no movement points left it cannot: it fights back
    spent = world_of(sas, fighter("attacker", 0, 2),
                     fighter("runner", 1, 4, state={"MovementUsed": 2}))
    assert run(sas, "exchange", args, spent, answer_attack="flee_attack") == \
        run(sas, "exchange", args, spent)


def test_a_move_may_keep_movement_points_for_a_flight(sas):
    world = world_of(sas, fighter("runner", 0, 2, "Big"), fighter("chaser", 1, 2))
    interp = Interpreter(sas, Policies("first", {"move_points": "1"}))
    left, after = interp.sample("move", {"mover": A}, world)
    assert left == 2 and stat(after, A, "MovementUsed") == 1
    assert interp.allowed("flee", {"runner": A, "chaser": T}, after)
