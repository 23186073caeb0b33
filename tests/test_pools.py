"""Dice pools: `let shots = pool (n)d6`, one roll asked several questions (run/pools.py).

Exact odds are checked against a brute-force twin that lists every sequence of die faces (and
every reroll), sharing no code with warband; sampled play against generated code; the checker's
words where a pool is misused; E504 where a pool is too large; the game log; and two systems
(Swords Against Sorcery and Super Simple Skirmish, extended by house rules written here).
"""

from __future__ import annotations

import itertools
import random
import re
from collections import Counter
from fractions import Fraction
from functools import lru_cache
from pathlib import Path

import pytest

from warband.game.engine import Game
from warband.game.scenario import load_scenario
from warband.lang.compiler import compile_text
from warband.lang.parser import parse
from warband.lang.unparse import expr_text
from warband.run import pools
from warband.run.dice import Dist
from warband.run.interpreter import Interpreter, Policies, RulesError
from warband.run.world import FighterSpec, Ref, make_world

ROOT = Path(__file__).resolve().parents[1]
ME = Ref("fighter", 0)


@lru_cache(maxsize=None)
def ruleset_of(text: str):
    compiled = compile_text(text, "pools.rules")
    assert compiled.ruleset is not None, [(d.code, d.message) for d in compiled.diagnostics]
    return compiled.ruleset


def exact(text: str, action: str = "a", **args) -> Dist:
    rs = ruleset_of(text)
    world = make_world(rs, [FighterSpec("me")])
    return Interpreter(rs, Policies()).exact(action, args, world)


def diagnostics(text: str) -> list:
    return [d for d in compile_text(text, "pools.rules").diagnostics if d.severity == "error"]


# ---- the brute-force twin: every sequence of faces ----------------------------------------------

def faces_of(sides: int, reroll=frozenset()) -> list[tuple[int, Fraction]]:
    """One die's faces with their chances, a face in `reroll` rolled once more (by hand)."""
    out: Counter = Counter()
    for first in range(1, sides + 1):
        if first in reroll:
            for second in range(1, sides + 1):
                out[second] += Fraction(1, sides * sides)
        else:
            out[first] += Fraction(1, sides)
    return list(out.items())


def brute(n: int, sides: int, question, reroll=frozenset(), keep=None) -> dict:
    """question(faces) over every sequence of n dice (faces sorted highest first, the kept
    ones only when keep = (how many, highest))."""
    out: Counter = Counter()
    for combo in itertools.product(faces_of(sides, reroll), repeat=n):
        p = Fraction(1)
        for _, q in combo:
            p *= q
        faces = sorted((f for f, _ in combo), reverse=True)
        if keep is not None:
            faces = faces[:keep[0]] if keep[1] else faces[len(faces) - keep[0]:]
        out[question(faces)] += p
    return dict(out)


def hits_and_sixes(faces):
    return (sum(f >= 4 for f in faces), sum(f == 6 for f in faces))


HITS_AND_SIXES = '''ruleset "t"
action a(n: number) -> number {
  let shots = pool (n)d6
  let hits = count >= 4 in shots
  let sixes = count == 6 in shots
  return hits * 100 + sixes
}
'''


def as_pairs(dist: Dist) -> dict:
    return {(v // 100, v % 100): p for v, p in dist.items()}


@pytest.mark.parametrize("n", [0, 1, 2, 3, 4])
def test_one_roll_asked_two_questions_is_exact(n):
    assert as_pairs(exact(HITS_AND_SIXES, n=n)) == brute(n, 6, hits_and_sixes)


def test_the_pool_is_listed_by_the_classes_its_questions_tell_apart():
    """>= 4 and == 6 split a d6 into {1-3}, {4-5}, {6}: 10d6 is a trinomial of 66 outcomes,
    not 3003 multisets of faces (nor 6^10 sequences)."""
    rs = ruleset_of(HITS_AND_SIXES)
    assert pools.classes(rs, 6) == ((1, 2, 3), (4, 5), (6,))
    world = make_world(rs, [FighterSpec("me")])
    interp = Interpreter(rs, Policies())
    dist = interp.exact("a", {"n": 10}, world)
    assert dist.total() == 1
    assert interp.branches < 400   # 66 outcomes of the pool, a few steps each
    # the chance of 10 hits of which 10 sixes
    assert dist[1010] == Fraction(1, 6 ** 10)


REROLLED = '''ruleset "t"
action a(n: number) -> number {
  let shots = pool (n)d6 reroll == 1
  return (count >= 4 in shots) * 100 + count == 6 in shots
}
'''


@pytest.mark.parametrize("n", [1, 3])
def test_a_rerolled_pool_is_exact(n):
    assert as_pairs(exact(REROLLED, n=n)) == brute(n, 6, hits_and_sixes, reroll={1})


EVERY_FACE = '''ruleset "t"
action a(n: number) -> number {
  let p = pool (n)d6 keep highest 2
  return total(p) * 10000 + highest(p) * 1000 + lowest(p) * 100 + size(p) * 10
    + count even in p
}
'''


@pytest.mark.parametrize("n", [1, 2, 4])
def test_total_highest_lowest_size_and_keep_are_exact(n):
    def question(faces):
        return (sum(faces) * 10000 + (faces[0] if faces else 0) * 1000
                + (faces[-1] if faces else 0) * 100 + len(faces) * 10
                + sum(f % 2 == 0 for f in faces))
    assert dict(exact(EVERY_FACE, n=n).items()) == brute(n, 6, question, keep=(2, True))
    assert pools.classes(ruleset_of(EVERY_FACE), 6) is None   # every face told apart


ROLLED_BOUND = '''ruleset "t"
action a(n: number) -> number {
  let shots = pool (n)d8 drop lowest 1
  let need = d8
  return count >= need in shots
}
'''


def test_a_bound_rolled_after_the_pool_is_exact():
    def question_for(need):
        return lambda faces: sum(f >= need for f in faces)
    expected: Counter = Counter()
    for need in range(1, 9):
        for v, p in brute(3, 8, question_for(need), keep=(2, True)).items():
            expected[v] += p / 8
    assert dict(exact(ROLLED_BOUND, n=3).items()) == dict(expected)


def test_the_same_question_twice_gives_the_same_answer():
    text = '''ruleset "t"
action a() -> number {
  let shots = pool 5d6
  return (count >= 4 in shots) - (count >= 4 in shots) + total(shots) - total(shots)
}
'''
    assert dict(exact(text).items()) == {0: 1}


PASSED = '''ruleset "t"
define crits(p: pool) "each 6" = count == 6 in p
procedure hits(p: pool, need: number) -> number { return count >= need in p }
action a(n: number) -> number {
  let shots = pool (n)d6
  let h = hits(shots, 4)
  return h * 100 + crits(shots)
}
'''


def test_a_pool_passed_to_a_procedure_and_a_definition():
    assert as_pairs(exact(PASSED, n=3)) == brute(3, 6, hits_and_sixes)


# ---- sampled play: the interpreter and the generated code -------------------------------------

SCENARIO = '''ruleset "volley"
stat Shots: 0..10 default 3
counter Wounds on fighter
action volley(f: fighter, g: fighter) -> number
  requires g.side != f.side and not g.removed
{
  let shots = pool (f.Shots)d6 reroll == 1
  let hits = count >= 4 in shots
  let crits = count == 6 in shots
  set g.Wounds += hits + crits
  if g.Wounds >= 4 + highest(shots) - lowest(shots) + size(shots) - total(shots) / 6 {
    remove g
  }
  return hits
}
scenario duel {
  board 12 by 12 inches
  side red { fighter "A" { stat Shots = 4 } fighter "B" }
  side blue { fighter "C" { stat Shots = 2 } fighter "D" { stat Shots = 6 } }
  round {
    for each s in sides {
      for each f in s.fighters {
        activate f using volley
      }
    }
  }
  rounds 3
}
'''


@pytest.fixture(scope="module")
def duel(tmp_path_factory):
    path = tmp_path_factory.mktemp("pools") / "duel.rules"
    path.write_text(SCENARIO, encoding="utf-8")
    scenario = load_scenario(str(path))
    assert not isinstance(scenario, list), [d.message for d in scenario]
    return scenario


@pytest.mark.parametrize("seed", range(1, 9))
def test_sampled_games_are_alike_generated_and_interpreted(duel, seed):
    fast, slow = Game(duel, seed), Game(duel, seed)
    slow.interp.compiled = False
    a, b = fast.play(), slow.play()
    assert a == b
    assert fast.interp.rng.random() == slow.interp.rng.random()   # the same draws


def test_the_game_log_shows_a_pools_faces_once(duel):
    game = Game(duel, 3, record=True)
    game.play()
    rolls = [e for e in game.log.events if e["type"] == "roll"]
    pooled = [e for e in rolls if e["dice"].startswith("pool ")]
    assert pooled and all(isinstance(e["value"], list) for e in pooled)
    # the dice as rolled: the count `(f.Shots)` gave, as many faces as dice
    for e in pooled:
        count = re.fullmatch(r"pool (\d+)d6 reroll == 1", e["dice"])
        assert count and len(e["value"]) == int(count.group(1)), e
    assert all(e["value"] == sorted(e["value"], reverse=True) for e in pooled)
    # one roll event for each pool rolled, however often it is asked
    assert len(rolls) == len(pooled)


def test_sampling_draws_each_die():
    die = Dist.uniform(range(1, 7))
    a = pools.sample(die, 6, 5, (3, False), random.Random(7))
    rng = random.Random(7)
    faces = sorted((die.sample(rng) for _ in range(5)), reverse=True)
    assert a.faces == tuple(faces[2:])


# ---- the checker ------------------------------------------------------------------------------

def test_a_pool_is_not_a_number():
    text = '''ruleset "t"
action a() -> number {
  let shots = pool 3d6
  return shots + 1
}
'''
    (d,) = diagnostics(text)
    assert d.code == "E302" and "a pool of dice" in d.message
    assert "count >= 4 in shots" in d.hint and "total(shots)" in d.hint


def test_a_question_of_something_not_a_pool():
    text = '''ruleset "t"
action a(n: number) -> number {
  return total(n) + count >= 4 in n
}
'''
    found = diagnostics(text)
    assert [d.code for d in found] == ["E302", "E302"]
    assert "let shots = pool 3d6" in found[0].hint
    assert "let shots = pool (n)d6" in found[1].hint


def test_a_pool_question_takes_one_pool():
    text = '''ruleset "t"
action a() -> number {
  let p = pool 2d6
  return size(p, 2)
}
'''
    (d,) = diagnostics(text)
    assert d.code == "E301"


def test_pool_is_still_a_name_where_no_dice_follow():
    """`pool` is a keyword only before dice: Swords Against Sorcery names a value `pool`."""
    text = '''ruleset "t"
action a(f: fighter, n: number) -> number {
  let pool = n + 1
  choose k by f from 0..pool default pool
  return pool * 2 + k
}
'''
    assert dict(exact(text, f=ME, n=1).items()) == {6: 1}   # (the default: pool)


def test_a_definition_may_be_named_pool():
    text = '''ruleset "t"
define pool(n) = (n)d6 keep highest 1
action a() -> number {
  let p = pool (1)d6
  return pool(1) - total(p) + size(pool (2)d1) - 2
}
'''
    assert exact(text).mean() == 0   # (`pool (2)d1`, dice after it, is always a pool)


def test_a_definition_may_stand_for_total():
    """A rules file's own `total` is called, not the pool question."""
    text = '''ruleset "t"
define size(x) = x + 1
action a() -> number { return size(2) }
'''
    assert dict(exact(text).items()) == {3: 1}


def test_a_pool_prints_as_written():
    module, problems = parse('ruleset "t"\naction a(n: number) -> number {\n'
                             '  let p = pool (n)d6 reroll == 1 keep highest 2\n'
                             '  return count >= 4 in p\n}\n', "t.rules")
    assert not problems and module is not None
    let = module.decls[0].body.stmts[0]
    assert expr_text(let.value) == "pool (n)d6 reroll == 1 keep highest 2"
    again, _ = parse(f'ruleset "t"\naction a(n: number) -> number {{\n'
                     f'  let p = {expr_text(let.value)}\n  return 0\n}}\n', "t.rules")
    assert again is not None and again.decls[0].body.stmts[0].value.pool


# ---- too large to work out exactly -----------------------------------------------------------

def test_a_pool_too_large_is_E504_naming_it():
    text = '''ruleset "t"
action a(n: number) -> number {
  let shots = pool (n)d6
  return total(shots)
}
'''
    with pytest.raises(RulesError) as caught:
        exact(text, n=100)
    d = caught.value.diagnostic
    assert d.code == "E504"
    assert "pool of 100d6" in d.message and "each face told apart" in d.message
    assert "pool" in d.hint


def test_a_large_pool_of_few_classes_is_worked_out():
    dist = exact(HITS_AND_SIXES, n=100)
    assert dist.total() == 1


def test_sampled_play_needs_no_exact_pool():
    text = '''ruleset "t"
action a(n: number) -> number {
  let shots = pool (n)d1000
  return total(shots)
}
'''
    rs = ruleset_of(text)
    world = make_world(rs, [FighterSpec("me")])
    value, _ = Interpreter(rs, Policies(), rng=random.Random(1)).sample("a", {"n": 100}, world)
    assert 100 <= value <= 100_000


# ---- two systems, extended by house rules ----------------------------------------------------

SAS_CRITICALS = '''ruleset "sas-criticals" extends "swords-against-sorcery"
action aimed_missile(shooter: fighter, target: fighter) -> number
  "House rule: the missile dice are one pool; an even face succeeds, each 6 does 1 more damage"
{
  let volley = pool (max(shooter.MissileWeapon, 0))d6
  let successes = count even in volley
  let criticals = count == 6 in volley
  return blow(successes, shooter.MissileDamage) + criticals
}
'''


def test_swords_against_sorcery_criticals():
    rs = ruleset_of(SAS_CRITICALS)
    assert pools.classes(rs, 6) == ((1, 3, 5), (2, 4), (6,))
    world = make_world(rs, [FighterSpec("archer", 0, traits={"MissileWeapon": 3,
                                                              "MissileDamage": 1}),
                            FighterSpec("mark", 1)])
    dist = Interpreter(rs, Policies()).exact(
        "aimed_missile", {"shooter": ME, "target": Ref("fighter", 1)}, world)

    def question(faces):
        successes = sum(f % 2 == 0 for f in faces)
        blow = max(successes + 1, 0) if successes >= 1 else 0   # the rules' blow(net, bonus)
        return blow + sum(f == 6 for f in faces)
    assert dict(dist.items()) == brute(3, 6, question)


SSS_CRITICALS = '''ruleset "sss-criticals" extends "super-simple-skirmish"
action critical_roll(f: fighter) -> number
  "House rule: the 3D6 attack roll is a pool; each 6 in it adds 1 more"
{
  let roll = pool 3d6
  return total(roll) + count == 6 in roll
}
'''


def test_super_simple_skirmish_criticals():
    def question(faces):
        return sum(faces) + sum(f == 6 for f in faces)
    assert dict(exact(SSS_CRITICALS, "critical_roll", f=ME).items()) == brute(3, 6, question)


def test_a_pool_of_many_classes_too_large_names_its_classes():
    text = '''ruleset "t"
action a(n: number) -> number {
  let p = pool (n)d6
  return (count == 1 in p) + (count == 2 in p) * 2 + (count == 3 in p) * 3
    + (count == 4 in p) * 4 + (count == 5 in p) * 5
}
'''
    with pytest.raises(RulesError) as caught:
        exact(text, n=60)
    d = caught.value.diagnostic
    assert d.code == "E504"
    assert "6 classes of faces told apart by its questions (1, 2, 3, 4, 5, 6)" in d.message
    assert "falls in 8,259,888 ways" in d.message


def test_a_pool_returned_by_a_procedure_and_chosen_by_if():
    text = '''ruleset "t"
procedure volley(n: number) -> pool { return pool (n)d6 }
action a(n: number) -> number {
  let more = volley(n)
  let shots = if n > 2 then more else pool 2d6 reroll == 1
  return (count >= 4 in shots) * 100 + count == 6 in shots
}
'''
    assert as_pairs(exact(text, n=3)) == brute(3, 6, hits_and_sixes)
    assert as_pairs(exact(text, n=1)) == brute(2, 6, hits_and_sixes, reroll={1})


def test_the_reference_example_volley():
    """docs/language.md's example: Might/10 dice, hits on 4+, each 6 pierces armour."""
    text = '''ruleset "t"
stat Might: 1..100
trait Armor(N) max
outcomes volley_result { miss = 0, hit = 1, pierced = 2 }
action volley(shooter: fighter, target: fighter) -> volley_result {
  let shots = pool (max(shooter.Might / 10, 1))d6
  let hits = count >= 4 in shots
  let sixes = count == 6 in shots
  if hits == 0 {
    return miss
  }
  if sixes > target.Armor {
    return pierced
  }
  return hit
}
'''
    rs = ruleset_of(text)
    world = make_world(rs, [FighterSpec("a", 0, stats={"Might": 30}),
                            FighterSpec("b", 1, stats={"Might": 5}, traits={"Armor": 1})])
    dist = Interpreter(rs, Policies()).exact("volley", {"shooter": ME,
                                                         "target": Ref("fighter", 1)}, world)

    def question(faces):
        hits, sixes = hits_and_sixes(faces)
        return "miss" if hits == 0 else "pierced" if sixes > 1 else "hit"
    assert dict(dist.items()) == brute(3, 6, question)


FATE = '''ruleset "t"
counter Fate on fighter
action a(f: fighter) -> number {
  let shots = pool 3d6
  let hits = count >= 4 in shots
  choose again by f "spend Fate to roll the misses again" {
    option keep
    option reroll when f.Fate > 0 {
      set f.Fate -= 1
      let more = pool (3 - hits)d6
      set hits += count >= 4 in more
    }
  }
  return hits + count == 6 in shots
}
'''


@pytest.mark.parametrize("policy", ["first", "greedy"])
def test_a_decision_after_a_pool_sees_its_dice(policy):
    """The greedy policy looks ahead from the pool's dice (a reroll of the misses never hurts,
    so it always rerolls); `first` keeps."""
    rs = ruleset_of(FATE)
    world = make_world(rs, [FighterSpec("me", state={"Fate": 1})])
    dist = Interpreter(rs, Policies(policy)).exact("a", {"f": ME}, world)
    expected: Counter = Counter()
    for faces in itertools.product(range(1, 7), repeat=3):
        hits, sixes = hits_and_sixes(faces)
        if policy == "first":
            expected[hits + sixes] += Fraction(1, 216)
            continue
        for more in itertools.product(range(1, 7), repeat=3 - hits):
            expected[hits + sum(f >= 4 for f in more) + sixes] += \
                Fraction(1, 216) / 6 ** (3 - hits)
    assert dict(dist.items()) == dict(expected)


def test_a_pool_whose_dice_come_from_an_earlier_roll_is_capped_in_the_hint():
    text = '''ruleset "t"
action a() -> number {
  let n = d20 + 40
  let p = pool (n)d6
  return total(p)
}
'''
    with pytest.raises(RulesError) as caught:
        exact(text)
    d = caught.value.diagnostic
    assert d.code == "E504"
    assert "the number of dice comes from the earlier roll `d20`" in d.message
    assert "`pool (min(n, " in d.hint
