"""What the engine offers an activated fighter (warband/options.py) and the board's geometry
written out for speed (warband/board.py): each checked against the plain way of doing it."""

from __future__ import annotations

import math
import operator
import pickle
import random
from collections import Counter
from fractions import Fraction
from unittest import mock

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from warband.game.board import (
    BASE,
    CONTACT,
    Board,
    Piece,
    _ray_entry,
    _segment_distance,
    near_segment,
)
from warband.game.engine import Game
from warband.game.options import _fixed, conjuncts
from warband.game.placement import apart_from
from warband.game.questions import Measure, plain_number
from warband.game.scenario import load_scenario
from warband.lang import nodes
from warband.run.evaluate import FAR
from warband.run.world import Ref

ACTIONS = ("shoot", "melee", "blast", "defend", "move", "charge")


@pytest.fixture(scope="module")
def standard():
    found = load_scenario("sss-standard-game")
    assert not isinstance(found, list), [d.message for d in found]
    return found


def mid_game(standard, seed: int, rounds: int = 3):
    """A standard game played for a few rounds: fighters moved, stunned, some out of play."""
    game = Game(standard, seed, max_rounds=rounds)
    game.play()
    return game, game.final


def every_legal_option(game, ref, world):
    """The plain way: every action against every other fighter, asked of the interpreter."""
    out = []
    for name in ACTIONS:
        decl = game.ruleset.procedures[name]
        targets = [None] if len(decl.params) == 1 or decl.params[1].default is not None else [
            Ref("fighter", i) for i, f in enumerate(world.fighters)
            if i != ref.index and not f.removed]
        for t in targets:
            args = {decl.params[0].name.name: ref}
            if t is not None:
                args[decl.params[1].name.name] = t
            if game.interp.allowed(name, args, world):
                out.append((name, tuple(sorted((k, v) for k, v in args.items()))))
    return sorted(out)


@pytest.mark.parametrize("seed", [1, 2, 3, 4, 5, 6])
def test_the_options_are_the_legal_actions_and_targets(standard, seed):
    game, world = mid_game(standard, seed)
    for i, f in enumerate(world.fighters):
        if f.removed:
            continue
        ref = Ref("fighter", i)
        offered = sorted((n, tuple(sorted(a.items()))) for n, a in
                         game.players.legal(ref, list(ACTIONS), world))
        assert offered == every_legal_option(game, ref, world), f.name


def test_a_random_player_picks_every_legal_option_about_equally(standard):
    game, world = mid_game(standard, 2)
    for i, f in enumerate(world.fighters):
        if f.removed:
            continue
        ref = Ref("fighter", i)
        legal = game.players.legal(ref, list(ACTIONS), world)
        if len(legal) < 3:
            continue
        game.players.choice_rng = random.Random(11)
        picks = Counter(str(game.players.random_option(ref, list(ACTIONS), world)) for _ in range(3000))
        assert set(picks) == {str(o) for o in legal}
        expected = 3000 / len(legal)
        assert all(abs(n - expected) < 6 * math.sqrt(expected) for n in picks.values())
        return
    pytest.skip("no fighter with three legal options in this game")


def test_an_actor_test_asked_by_several_actions_is_asked_once(standard):
    # shoot, blast and charge ask `not attacker.Stunned and not engaged(attacker)`, melee
    # `not attacker.Stunned`; defend and move ask the like of an actor with another name (not
    # shared: the name is part of what is asked)
    game, world = mid_game(standard, 1, rounds=1)
    ref = next(Ref("fighter", i) for i, f in enumerate(world.fighters) if not f.removed)
    options = game.players.options
    options.candidates(game.interp, ref, ACTIONS, world)
    plans = {name: options._plans[name][0] for name in ACTIONS}
    assert plans["shoot"] is plans["blast"] is plans["charge"]
    assert plans["melee"] is not plans["shoot"]
    assert len({id(t) for t in plans.values()}) == 4
    # one activation asks each of its actor's distinct tests once
    tests = next(iter(options._usable.values()))[0]
    calls = Counter()
    counted = [mock.Mock(side_effect=lambda *a, t=t: calls.update([t]) or t(*a)) for t in tests]
    with mock.patch.object(options, "_usable", {key: (counted, *rest) for key, (_, *rest)
                                                in options._usable.items()}):
        options.candidates(game.interp, ref, ACTIONS, world)
    assert len(tests) == len({id(t) for t in tests}) and list(calls.values()) == [1] * len(tests)


def test_what_never_changes_in_a_game_is_told_apart(standard):
    shoot = standard.ruleset.procedures["shoot"]
    fixed = [p for p in conjuncts(shoot.requires) if _fixed(p, {"cover"})]
    assert [type(p).__name__ for p in fixed] == ["Has", "Compare"]   # has Ranged; the sides
    # a value, a board question, or a parameter with a default is not fixed
    span = shoot.span
    assert not _fixed(nodes.Field(nodes.Name("attacker", span), nodes.Ident("Stunned", span), span),
                      set())
    assert not _fixed(nodes.Name("cover", span), {"cover"})


@settings(max_examples=500, deadline=None)
@given(st.integers(-5000, 5000), st.one_of(st.integers(-100, 100), st.booleans(),
       st.fractions(max_denominator=400), st.floats(-100, 100, allow_nan=False)))
def test_a_measure_is_the_fraction_it_stands_for(hundredths, other):
    # a board distance that is not whole compares, hashes, prints, pickles and adds as the
    # Fraction it stands for; arithmetic on it gives a plain Fraction
    measure, plain = Measure(hundredths, 100), Fraction(hundredths, 100)
    for op in (operator.lt, operator.le, operator.gt, operator.ge, operator.eq, operator.ne):
        assert op(measure, other) == op(plain, other)
        assert op(other, measure) == op(other, plain)
    assert hash(measure) == hash(plain) and str(measure) == str(plain)
    assert repr(measure) == repr(plain)
    assert pickle.loads(pickle.dumps(measure)) == plain
    if not isinstance(other, float):
        assert type(measure + other) is type(plain + other) and measure + other == plain + other


def test_a_distance_not_whole_is_a_measure_and_a_whole_one_an_int():
    assert plain_number(2.0) == 2 and type(plain_number(2.0)) is int
    assert type(plain_number(2.5)) is Measure and plain_number(2.5) == Fraction(5, 2)
    assert plain_number(2.999999) == 3 and type(plain_number(2.999999)) is int
    assert plain_number(math.inf) == FAR   # the distance to nothing


# ---- geometry written out, against the plain formulas ---------------------------------------------

points = st.tuples(st.floats(0, 24, allow_nan=False), st.floats(0, 24, allow_nan=False))


@settings(max_examples=300, deadline=None)
@given(points, st.lists(points, max_size=12),
       st.tuples(st.integers(1, 6), st.integers(1, 6)),
       st.lists(st.tuples(st.integers(1, 6), st.integers(1, 6)), max_size=12))
def test_a_deployment_keeps_fighters_apart_as_the_plain_rule_says(spot, taken, cell, cells):
    inches, squares = Board(24, 24, False, {}), Board(6, 6, True, {})
    assert apart_from(inches, spot, taken) == all(math.dist(spot, t) >= 1.0 for t in taken)
    assert apart_from(squares, cell, cells) == all(cell != c for c in cells)


@settings(max_examples=400, deadline=None)
@given(st.lists(points, max_size=12), points, points, st.floats(0.1, 2.0))
@example([(0.0, 0.0)], (0.0, 0.0), (0.0, 1.8e-192), 1.0)   # a line whose square underflows
def test_bases_near_a_line_of_sight(others, a, b, reach):
    assert near_segment(others, a, b, reach) == any(
        _segment_distance(o, a, b) < reach for o in others)


@settings(max_examples=400, deadline=None)
@given(points, points, st.floats(0.5, 18.0), st.lists(points, max_size=8))
def test_a_straight_move_stops_where_the_ray_meets_another_base(start, target, reach, others):
    board = Board(24, 24, False, {})
    got = board.straight(start, target, reach, BASE, others)
    # the plain way: the edge of the board, then the first base the ray enters
    dist = math.dist(start, target)
    length = min(reach, dist - BASE)
    if length <= 0.05:
        assert got is None
        return
    ux, uy = (target[0] - start[0]) / dist, (target[1] - start[1]) / dist
    limit = length
    for s, u in ((start[0], ux), (start[1], uy)):
        if u > 1e-12:
            limit = min(limit, (24 - 0.5 - s) / u)
        elif u < -1e-12:
            limit = min(limit, (s - 0.5) / -u)
    near = BASE - CONTACT
    for o in others:
        t = _ray_entry(start, ux, uy, o, near)
        if t is not None:
            limit = min(limit, t)
        elif math.dist(start, o) <= near and \
                (start[0] - o[0]) * ux + (start[1] - o[1]) * uy < 0:
            limit = 0.0   # overlapping it already: it may only move away from it
    limit = math.floor(limit * 100) / 100
    # (to the hundredth as the board rounds: round(x * 100) / 100), a hundredth shorter while
    # that rounding brings the end onto a base it did not overlap
    expected = None
    while limit > 0.05:
        end = (round((start[0] + ux * limit) * 100) / 100,
               round((start[1] + uy * limit) * 100) / 100)
        if all(math.dist(end, o) >= near or math.dist(start, o) < near for o in others):
            expected = end
            break
        limit = round(limit - 0.01, 2)
    assert got == expected
    if got is not None:   # no move ends overlapping a base it did not start on
        assert all(math.dist(got, o) >= near or math.dist(start, o) < near for o in others)


walls = st.lists(st.tuples(points, points), max_size=6)


@settings(max_examples=300, deadline=None)
@given(points, points, st.floats(0.5, 18.0), walls, st.lists(points, max_size=4))
@example((1.0, 1.0), (20.0, 1.0), 18.0, [((5.0, 1.4), (9.0, 1.4))], [])   # a wall along it
@example((1.0, 1.0), (20.0, 20.0), 18.0, [((10.0, 9.0), (10.0, 11.0))], [])   # across it
def test_walls_far_from_a_move_are_not_walked_and_change_nothing(start, target, reach, lines,
                                                                 others):
    # Board.straight walks the line a quarter inch at a time near each wall; walls that no
    # point of the line comes near are left out (_apart): the same stops as walking them all
    from warband.game import board as board_module
    board = Board(24, 24, False, {"wall": ("impassable",)})
    for at, to in lines:
        if at != to:
            board.add(Piece("wall", at, to, 0.0))
    got = board.straight(start, target, reach, BASE, others)
    with mock.patch.object(board_module, "_apart", lambda *args: False):
        assert board.straight(start, target, reach, BASE, others) == got


def test_requires_of_every_shape_give_the_same_games_generated_or_interpreted(tmp_path):
    # an action whose requires reads a parameter with a default (a board question), a side
    # parameter, a class and the sides: split into its parts, generated or not, the same games
    (tmp_path / "crowd.yaml").write_text(
        "name: Crowd\nruleset: super-simple-skirmish\nfighters:\n"
        "  - name: Grunt\n    class: Soldier\n    might: 10\n    count: 3\n"
        "  - name: Shot\n    class: Sniper\n    might: 20\n")
    path = tmp_path / "arena.rules"
    path.write_text('''
ruleset "arena"
  extends "super-simple-skirmish"
action volley(shooter: fighter, mark: fighter, own: side, covered: bool = obscured(shooter, mark))
  -> attack_result
  requires shooter is Sniper and mark.side != shooter.side and not covered
    and own.Fate >= 0 and not shooter.Stunned and distance(shooter, mark) <= 30
{
  return attack(shooter, mark, true, covered)
}
scenario arena {
  board 24 by 24 inches
  side red from "crowd.yaml"
  side blue from "crowd.yaml"
  zone west = edge west depth 6
  zone east = edge east depth 6
  setup { deploy red in west  deploy blue in east }
  round { game_round() }
  rounds 6
}
''')
    scenario = load_scenario(str(path))
    assert not isinstance(scenario, list), [d.message for d in scenario]
    volleys = 0
    for seed in range(1, 9):
        fast = Game(scenario, seed, record=True)
        result = fast.play()
        slow = Game(scenario, seed, record=True)
        slow.interp.compiled = False
        assert slow.play() == result
        assert slow.log.events == fast.log.events
        volleys += sum(1 for e in fast.log.events
                       if e.get("type") == "activate" and e["action"].startswith("volley"))
    assert volleys > 0   # the action was legal, and taken


def test_numbers_below_n_are_drawn_as_randrange_draws_them():
    # the generated code, the engine and Dist.sample draw with random_below / below; a seed
    # must keep meaning the same games as when they called randrange
    from warband.run.dice import below, random_below
    for n in (1, 2, 6, 216, 1296, 10 ** 9, 2 ** 70):
        a, b, c = random.Random(n), random.Random(n), random.Random(n)
        assert [random_below(a, n) for _ in range(50)] == [b.randrange(n) for _ in range(50)] \
            == [below(c, n) for _ in range(50)]


def test_a_random_pick_draws_as_random_choice_draws():
    # generated decisions and the engine's draws pick seq[random_below(rng, len(seq))], and
    # random_option writes random_below out with getrandbits: the same picks as choice()
    from warband.run.dice import random_below
    for n in (1, 2, 3, 5, 17, 64, 1000):
        seq = list(range(n))
        a, b, c = random.Random(n), random.Random(n), random.Random(n)
        picks = [seq[random_below(a, n)] for _ in range(200)]
        assert picks == [b.choice(seq) for _ in range(200)]
        written_out = []
        for _ in range(200):
            r = c.getrandbits(n.bit_length())
            while r >= n:
                r = c.getrandbits(n.bit_length())
            written_out.append(seq[r])
        assert written_out == picks


cells = st.tuples(st.integers(0, 13), st.integers(0, 13))


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(["rock", "shrine", "door"]), cells), max_size=10),
       st.lists(cells, min_size=1, max_size=20))
def test_a_square_boards_kept_cells_answer_as_its_pieces_do(pieces, asked):
    board = Board(12, 12, True, {"rock": ("impassable",), "door": ("opaque",)})
    for kind, at in pieces:
        board.add(Piece(kind, at))
    for pos in asked:
        on = [p for p in board.pieces if p.to is None and p.at == pos]
        assert board.pieces_at(pos) == on
        assert board.blocked(pos) == (not (1 <= pos[0] <= 12 and 1 <= pos[1] <= 12) or any(
            board.has(p.kind, "impassable") for p in on))


@settings(max_examples=150, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(["rock", "trap", "shrine"]), cells), max_size=12),
       cells, st.integers(0, 6), st.lists(cells, max_size=6))
def test_a_square_boards_reach_is_a_walk_through_free_cells(pieces, start, steps, occupied):
    # Board.reachable keeps the free cells and the cells that end a move: the same cells as
    # a walk that asks the board about every step
    board = Board(12, 12, True, {"rock": ("impassable",)}, frozenset({"trap"}))
    for kind, at in pieces:
        board.add(Piece(kind, at))
    seen, frontier = {start: 0}, [start]
    for step in range(1, steps + 1):
        nxt = []
        for cell in frontier:
            if cell != start and any(p.kind == "trap" for p in board.pieces_at(cell)):
                continue
            for dx in (-1, 0, 1):
                for dy in (-1, 0, 1):
                    c = (cell[0] + dx, cell[1] + dy)
                    if (dx or dy) and c not in seen and c not in set(occupied) and \
                            not board.blocked(c):
                        seen[c] = step
                        nxt.append(c)
        frontier = nxt
    assert board.reachable(start, steps, set(occupied)) == list(seen)   # (in the same order)


def _plain_path(board, start, target, stop, occupied):
    """Board._path's search as first written: A* over half-inch points, every step asking the
    points and whether a base goes straight along it past every impassable piece (the points
    near other bases and the step's clearance are the board's own: they are not what changed)."""
    import heapq

    from warband.game.board import _taken
    free, taken = board._free(), _taken(start, occupied)
    first = (round(start[0] * 2) / 2, round(start[1] * 2) / 2)
    goal, best, came = stop + 0.5, {first: 0.0}, {}
    queue = [(math.dist(first, target), 0.0, first)]
    steps = [(dx / 2, dy / 2, math.hypot(dx, dy) / 2)
             for dx in (-1, 0, 1) for dy in (-1, 0, 1) if dx or dy]
    while queue:
        _, cost, p = heapq.heappop(queue)
        if cost > best.get(p, math.inf):
            continue
        if math.dist(p, target) <= goal and p != first:
            out = [p]
            while out[-1] in came:
                out.append(came[out[-1]])
            return [q for q in reversed(out) if q != first]
        for dx, dy, length in steps:
            q = (p[0] + dx, p[1] + dy)
            c = cost + length
            if c < best.get(q, math.inf) and q in free and q not in taken and \
                    board.step_clear(p, q):
                best[q], came[q] = c, p
                heapq.heappush(queue, (c + max(0.0, math.dist(q, target) - goal), c, q))
    return []


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.tuples(st.integers(0, 12), st.integers(0, 12)),
                          st.tuples(st.integers(0, 12), st.integers(0, 12))), max_size=5),
       st.tuples(st.floats(0.5, 11.5), st.floats(0.5, 11.5)),
       st.tuples(st.floats(0.5, 11.5), st.floats(0.5, 11.5)),
       st.lists(st.tuples(st.floats(0.5, 11.5), st.floats(0.5, 11.5)), max_size=3))
def test_the_way_round_walls_is_the_search_as_first_written(lines, start, target, others):
    # the search keeps each free point's free neighbours (Board._graph): the same way found
    board = Board(12, 12, False, {"wall": ("impassable",)})
    for at, to in lines:
        if at != to:
            board.add(Piece("wall", at, to, 0.0))
    assert board._path(start, target, BASE, others) == \
        _plain_path(board, start, target, BASE, others)
