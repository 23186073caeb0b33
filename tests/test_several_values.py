"""Several values at once (issue 21): a decision that picks several numbers together
(`choose plan (moves, shots) by f from 0..n where moves + shots <= n default (...)`), and a
procedure that returns several values (`-> (number, number)`, `return (a, b)`,
`let (x, y) = split(n)`).

Tried on two systems: a small action-point game written here (points split between moving and
shooting), and Swords Against Sorcery, whose hand of attack, defence and speed dice is one such
decision. Exact odds are checked against twins written out by hand in Python; generated code
against the interpreter (test_codegen's both-ways runs); the game log and a replay on the
Greedy Dudes. The goldens of the checker's messages are tests/rules_errors/several_values_*.
"""

from __future__ import annotations

import itertools
import json
from fractions import Fraction as F
from math import comb

import pytest

import test_codegen
from warband.diagnostics import diag
from warband.game.engine import Game
from warband.game.scenario import load_scenario
from warband.lang import nodes
from warband.lang.compiler import compile_text, load
from warband.lang.diff import _step_text
from warband.lang.unparse import expr_text
from warband.limits import MAX_TUPLE_CHOICES
from warband.run import tuples
from warband.run.codegen import hooks as codegen
from warband.run.dice import Dist
from warband.run.interpreter import Interpreter, Policies, RulesError
from warband.run.odds import parse_policies
from warband.run.world import FighterSpec, Ref, make_world

A, B = Ref("fighter", 0), Ref("fighter", 1)

# ---- a system of our own: action points split between moving and shooting -----------------------

POINTS = '''
ruleset "action-points" title "Action points, split between moving and shooting"
stat AP: 0..6 default 3
stat Aim: 1..6 default 4

procedure split(n) -> (number, number) "Half of n (rounded up) and the rest" {
  let high = ceil(n / 2)
  return (high, n - high)
}

procedure sized(f: fighter) -> (number, bool) "Its points, and whether it is a big one" {
  if f.AP > 4 {
    return (f.AP, true)
  }
  let (a, b) = split(f.AP)
  return (a * 2 + b, false)
}

action volley(a: fighter, b: fighter) -> number
  "Each point moves (1 point of score) or shoots (a d6 at the target's Aim: 2 points a hit)"
{
  let points = a.AP
  choose plan (moves, shots) by a from 0..points where moves + shots <= points
    default (1, points - 1) "The action points split between moving and shooting"
  return moves + 2 * count >= (b.Aim) in (shots)d6
}

action sized_up(a: fighter, b: fighter) -> number "A procedure's two results, taken apart" {
  let (power, big) = sized(b)
  let (half, rest) = split(a.AP)
  let roll = 1d6
  if big {
    return roll
  }
  return power * 10 + half - rest + roll
}

action rolled_pair(a: fighter, b: fighter) -> number "A roll returned among several values" {
  let (x, y) = two_rolls(a.AP)
  return x * 10 + y
}

procedure two_rolls(n) -> (number, number) {
  let first = 1d4
  let second = 1d2 + n
  return (first, second)
}
'''


@pytest.fixture(scope="module")
def points():
    return test_codegen.compiled(POINTS, "points.rules")


def pair(ruleset, ap=3, aim=4):
    return make_world(ruleset, [FighterSpec("a", 0, None, {"AP": ap, "Aim": 4}),
                                FighterSpec("b", 1, None, {"AP": 3, "Aim": aim})], [{}, {}])


def volley_twin(moves: int, shots: int, aim: int) -> Dist:
    """The volley by hand: every face of every shooting die."""
    out: dict = {}
    for faces in itertools.product(range(1, 7), repeat=shots):
        value = moves + 2 * sum(1 for f in faces if f >= aim)
        out[value] = out.get(value, 0) + F(1, 6 ** shots)
    return Dist(out)


def legal_plans(points: int) -> list[tuple[int, int]]:
    return [(m, s) for m in range(points + 1) for s in range(points + 1) if m + s <= points]


def stepwise(parts: list[tuple[F, Dist]]) -> Dist:
    out: dict = {}
    for share, d in parts:
        for v, p in d.items():
            out[v] = out.get(v, 0) + share * p
    return Dist(out)


@pytest.mark.parametrize("ap, aim", [(0, 4), (2, 3), (3, 4), (4, 6)])
def test_random_draws_a_tuple_one_number_at_a_time(points, ap, aim):
    # moves uniformly in 0..ap, then shots uniformly in what is left (tests/test_hand_draw.py)
    got = Interpreter(points, Policies("random")).exact("volley", {"a": A, "b": B},
                                                        pair(points, ap, aim))
    assert got == stepwise([(F(1, (ap + 1) * (ap - m + 1)), volley_twin(m, s, aim))
                            for m, s in legal_plans(ap)])
    assert len(legal_plans(ap)) == comb(ap + 2, 2)


@pytest.mark.parametrize("ap, aim", [(2, 3), (3, 4), (4, 6)])
def test_first_takes_the_default_and_a_script_names_a_tuple(points, ap, aim):
    interp = Interpreter(points, Policies("first"))
    world = pair(points, ap, aim)
    assert interp.exact("volley", {"a": A, "b": B}, world) == volley_twin(1, ap - 1, aim)
    for m, s in legal_plans(ap):
        for text in (f"{m},{s}", f"{m} {s}", f"moves {m}, shots {s}", f"{m}/{s}"):
            scripted = Interpreter(points, Policies("first", {"plan": text}))
            assert scripted.exact("volley", {"a": A, "b": B}, world) == volley_twin(m, s, aim)
    # a tuple over the points is no option: the default is taken, as for a number out of range
    over = Interpreter(points, Policies("first", {"plan": f"{ap},{ap}"}))
    assert over.exact("volley", {"a": A, "b": B}, world) == volley_twin(1, ap - 1, aim)


def test_greedy_weighs_every_tuple(points):
    # moving scores 1 a point for sure; a shot at Aim 3 scores 2 * 2/3 = 4/3: all shots
    world = pair(points, 3, 3)
    got = Interpreter(points, Policies("greedy")).exact("volley", {"a": A, "b": B}, world)
    assert got == volley_twin(0, 3, 3)
    # at Aim 6 a shot is worth 1/3: all moves
    world = pair(points, 3, 6)
    got = Interpreter(points, Policies("greedy")).exact("volley", {"a": A, "b": B}, world)
    assert got == Dist.point(3)


def test_first_falls_back_on_the_first_tuple_in_order_when_the_default_is_not_legal():
    rules = POINTS.replace("default (1, points - 1)", "default (points, points)")
    ruleset = test_codegen.compiled(rules)
    got = Interpreter(ruleset).exact("volley", {"a": A, "b": B}, pair(ruleset, 3, 4))
    assert got == volley_twin(0, 0, 4)   # (0, 0): the first name's number changes slowest


def test_the_options_are_in_order_and_kept():
    stmt = _decision(test_codegen.compiled(POINTS), "plan")
    listed = tuples.options(stmt, 0, 2, (2,), lambda c: c[0] + c[1] <= 2)
    assert listed == [(0, 0), (0, 1), (0, 2), (1, 0), (1, 1), (2, 0)]
    assert tuples.options(stmt, 0, 2, (2,), lambda c: False) is listed   # found again
    assert tuples.plain_names(stmt) == ("points",)


def test_too_many_combinations_is_a_clear_error():
    rules = POINTS.replace("from 0..points where moves + shots <= points",
                           "from 0..points * 50 where moves + shots <= points")
    ruleset = test_codegen.compiled(rules)
    world = make_world(ruleset, [FighterSpec("a", 0, None, {"AP": 6}),
                                 FighterSpec("b", 1, None, {})], [{}, {}])
    for compiled in (True, False):
        interp = Interpreter(ruleset, Policies("random"), compiled=compiled)
        with pytest.raises(RulesError) as caught:
            interp.sample("volley", {"a": A, "b": B}, world)
        d = caught.value.diagnostic
        assert d.code == "E513" and f"{301 ** 2:,} combinations" in d.message
        assert f"{MAX_TUPLE_CHOICES:,}" in d.message and d.hint and d.span is not None


def test_nothing_to_choose_is_a_clear_error():
    rules = POINTS.replace("where moves + shots <= points", "where moves + shots > 2 * points")
    ruleset = test_codegen.compiled(rules)
    with pytest.raises(RulesError) as caught:
        Interpreter(ruleset).exact("volley", {"a": A, "b": B}, pair(ruleset, 2, 4))
    assert caught.value.diagnostic.code == "E505"
    assert "nothing to choose" in caught.value.diagnostic.message


def test_a_policy_names_a_tuple_or_is_refused(points):
    found: list = []
    policies = parse_policies(["plan=2,1", "plan=moves 0, shots 3"], points, found)
    assert not found and policies.by_decision["plan"] == "moves 0, shots 3"
    parse_policies(["plan=attack"], points, found)
    assert [d.code for d in found] == ["E901"]
    assert "2 numbers for 'plan' (moves, shots)" in found[0].message
    assert "plan=0,0" in (found[0].hint or "")


def test_parse_names_a_tuple_of_this_decision_only(points):
    stmt = _decision(points, "plan")
    assert tuples.parse(stmt, "2,1") == (2, 1)
    assert tuples.parse(stmt, "moves 2, shots 1") == (2, 1)
    assert tuples.parse(stmt, "shots 2, moves 1") is None   # the names in the wrong order
    assert tuples.parse(stmt, "2,1,0") is None
    assert tuples.parse(stmt, "random") is None
    assert tuples.parse(stmt, "9" * 600) is None
    assert tuples.shown(stmt, (2, 1)) == "moves 2, shots 1"


# ---- a procedure that returns several values ---------------------------------------------------

def test_a_procedure_returns_several_values_taken_apart_by_let(points):
    interp = Interpreter(points)
    small = pair(points, 3, 4)
    assert interp.sample("split", {"n": 5}, small)[0] == (3, 2)
    assert interp.exact("split", {"n": 4}, small) == Dist.point((2, 2))    # b: AP 3 -> sized is (2 * 2 + 1, no): 50 + 2 - 1 + d6
    got = interp.exact("sized_up", {"a": A, "b": B}, small)
    assert got == Dist({51 + d: F(1, 6) for d in range(1, 7)})
    big = make_world(points, [FighterSpec("a", 0, None, {"AP": 3}),
                              FighterSpec("b", 1, None, {"AP": 5})], [{}, {}])
    assert interp.exact("sized_up", {"a": A, "b": B}, big) == Dist(
        {d: F(1, 6) for d in range(1, 7)})


def test_rolls_returned_among_several_values_keep_their_exact_odds(points):
    got = Interpreter(points).exact("rolled_pair", {"a": A, "b": B}, pair(points, 2, 4))
    twin = {}
    for first, second in itertools.product(range(1, 5), range(1, 3)):
        twin[first * 10 + second + 2] = F(1, 8)
    assert got == Dist(twin)


def test_generated_code_and_the_interpreter_agree(points):
    assert test_codegen.check_everything(points, seeds=12) > 50
    program = codegen.program_for(Interpreter(points))
    assert test_codegen._not_engine_only(program.fallbacks) == {}
    for uniform in codegen.UNIFORM:
        assert test_codegen._not_engine_only(
            codegen.program_for(Interpreter(points), uniform).fallbacks) == {}


def test_shown_as_written(points):
    decl = points.procedures["split"]
    ret = decl.body.stmts[-1]
    assert isinstance(ret, nodes.Return) and expr_text(ret.value) == "(high, n - high)"
    let = points.procedures["sized_up"].body.stmts[0]
    assert _step_text(let) == "let (power, big) = sized(b)"
    choose = points.procedures["volley"].body.stmts[1]
    assert _step_text(choose) == ("choose plan (moves, shots) by a from 0..points "
                                  "where moves + shots <= points")


# ---- what the checker says --------------------------------------------------------------------

def codes(text: str) -> list[tuple[str, str]]:
    result = compile_text(text, "bad.rules")
    return [(d.code, d.message) for d in result.diagnostics]


@pytest.mark.parametrize("old, change", [
    ("return (high, n - high)", ("return (high, n - high, 1)", "E326", "gives 2 values, not 3")),
    ("return (high, n - high)", ("return high", "E326", "its return needs 2")),
    ("return (high, n - high)", ("return (high, true)", "E302", "value 2 of the result")),
    ("return (high, n - high)", ("return (high, 2d6)", "E303", "not dice")),
    ("let (a, b) = split(f.AP)", ("let (a, b, c) = split(f.AP)", "E326",
                                  "gives 2 values, and 3 names")),
    ("let (a, b) = split(f.AP)", ("let (a, b) = f.AP", "E326", "takes apart several values")),
    ("let (a, b) = split(f.AP)", ("let (a, a) = split(f.AP)", "E202", "named twice")),
    ("let (a, b) = split(f.AP)", ("let a = 1\n  let (a, b) = split(f.AP)", "E202",
                                  "already a name")),
    ("where moves + shots <= points", ("where moves + shots <= 2d6", "E303", "fixed")),
    ("by a from", ("by 3 from", "E402", "made by a fighter or a side")),
    ("choose plan (moves, shots)", ("choose moves (moves, shots)", "E325",
                                    "has the name of one of its own")),
])
def test_mistakes_are_reported(old, change):
    new, want, text = change
    found = codes(POINTS.replace(old, new, 1))
    assert any(c == want and text in m for c, m in found), found


def test_a_several_values_procedure_is_not_a_number():
    found = codes(POINTS.replace("let (a, b) = split(f.AP)\n  return (a * 2 + b, false)",
                                 "let a = split(f.AP)\n  return (a * 2, false)"))
    assert [c for c, _ in found] == ["E302"], found
    assert "2 values (a number, a number)" in found[0][1]


# ---- Swords Against Sorcery: the hand -----------------------------------------------------------

@pytest.fixture(scope="module")
def sas():
    return load("swords-against-sorcery").ruleset


def sas_world(sas, a_training, b_training):
    return make_world(sas, [FighterSpec("a", 0, None, {"Training": a_training, "Size": "Medium"}),
                            FighterSpec("b", 1, None, {"Training": b_training,
                                                       "Size": "Medium"})], [{}, {}])


def test_the_sas_hand_is_one_decision_of_three_numbers(sas):
    stmt = _decision(sas, "a_hand")
    assert [n.name for n in stmt.names] == ["a_attack", "a_defence", "a_speed"]
    for old in ("a_attack", "a_defence", "a_speed", "gang_attack", "chase_attack"):
        assert old not in sas.decisions
    assert {"a_hand", "b_hand", "gang_hand", "lone_hand", "chase_hand",
            "chase_gang_hand"} <= set(sas.decisions)


@pytest.mark.parametrize("training", [1, 2, 3])
def test_a_random_sas_hand_is_drawn_die_kind_by_die_kind(sas, training):
    # the twin: the exchange with every legal hand scripted, mixed in the shares of three
    # decisions in turn (attack dice in 0..T, defence in what is left, speed in what is left)
    world = sas_world(sas, training, 2)
    args = {"attacker": A, "target": B}
    hands = [h for h in itertools.product(range(training + 1), repeat=3) if sum(h) <= training]
    assert len(hands) == comb(training + 3, 3)
    twin = stepwise([(F(1, (training + 1) * (training - a + 1) * (training - a - d + 1)),
                      Interpreter(sas, Policies("first", {"a_hand": ",".join(map(str, (a, d, s)))}))
                      .exact("exchange", args, world)) for a, d, s in hands])
    got = Interpreter(sas, Policies("first", {"a_hand": "random"})).exact("exchange", args, world)
    assert got == twin


def test_the_sas_default_hand_is_half_attack_the_rest_defence(sas):
    world = sas_world(sas, 5, 3)
    args = {"attacker": A, "target": B}
    assert Interpreter(sas).exact("exchange_damage", args, world) == \
        Interpreter(sas, Policies("first", {"a_hand": "3,2,0"})).exact("exchange_damage", args,
                                                                      world)


def test_the_game_log_shows_the_hand_and_a_replay_follows_it(sas):
    scenario = load_scenario("greedy-dudes-vs-menace")
    game = Game(scenario, 2, Policies("random"), record=True)
    result = game.play()
    hands = [e for e in game.log.events if e.get("decision", "").endswith("hand")]
    assert hands, "the game has no fight"
    for e in hands:
        stmt = _decision(scenario.ruleset, e["decision"])
        chosen = tuples.parse(stmt, e["choice"])
        assert chosen is not None and e["choice"] == tuples.shown(stmt, chosen)
        assert e["choice"].startswith(stmt.names[0].name + " ")
    record = json.loads(json.dumps(game.log.events))
    again = Game(scenario, 2, Policies("random"), record=True, script=record)
    assert again.play() == result
    assert again.log.events == game.log.events


def test_the_text_log_says_the_hand():
    from warband.game.gamelog import render_text
    log = {"scenario_title": "t", "seed": 1, "events": [
        {"type": "decision", "decision": "a_hand", "by": "dudes",
         "choice": "a_attack 2, a_defence 1, a_speed 0"}]}
    assert "dudes decides a_hand: a_attack 2, a_defence 1, a_speed 0" in render_text(log)


# ---- helpers ----------------------------------------------------------------------------------------

def _decision(ruleset, name: str) -> nodes.ChooseTuple:
    stmt = ruleset.decisions[name][1]
    assert isinstance(stmt, nodes.ChooseTuple)
    return stmt


def test_diagnostics_codes_are_declared():
    for code in ("E325", "E326", "E513"):
        assert diag(code, "x").code == code


def test_secret_hands_are_solved_as_one_choice_each(sas):
    from warband.run.strategy import solve
    world = sas_world(sas, 2, 2)
    args = {"attacker": A, "target": B}
    fights = Policies("first", {"answer_attack": "fight_back"})
    solution = solve(sas, "exchange", args, world, fights, actor_side=0)
    # every hand of 2 dice (10 of them) is one strategy, named as --policy takes it
    assert len(solution.rows) == len(solution.columns) == comb(2 + 3, 3)
    assert {"a_hand": "2,0,0"} in solution.rows
    assert solution.pure and solution.value == 0
