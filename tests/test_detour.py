"""The way round one base in closed form (game/detour.py), against the search it spares.

Its brute-force twin is the search over half-inch points (Board.route): wherever a base stands
alone in a straight way, the closed-form way must be legal (no leg nearer another base's centre
than a base may come) and no longer than the search's, which only approximates the shortest
way by steps in eight directions.
"""

from __future__ import annotations

import math
import random

import pytest

from warband.game.board import BASE, CONTACT, Board, near_segment
from warband.game.detour import ways_round

NEAR = BASE - CONTACT


def _length(way: list) -> float:
    return sum(math.dist(a, b) for a, b in zip(way, way[1:]))


def test_the_way_round_one_base_is_tangent_arc_tangent():
    start, base, goal = (4.0, 10.0), (10.0, 10.0), (16.0, 10.0)
    ways = ways_round(start, goal, 0.0, [base])
    assert len(ways) == 1   # round the shorter side (here either: anticlockwise first)
    way = [*ways[0], goal]
    assert way[0] == start and way[1][1] < 10   # anticlockwise from the start: below the base
    assert not near_segment([base], way[0], way[1], NEAR)
    for a, b in zip(way, way[1:]):
        assert not near_segment([base], a, b, NEAR), (a, b)
    # the exact shortest way round a circle of radius r from 6 inches off each side
    r = NEAR + 0.04
    tangent = math.sqrt(36 - r * r)
    arc = r * (math.pi - 2 * math.acos(r / 6))
    assert _length(way) == pytest.approx(2 * tangent + arc, abs=0.05)
    assert all(round(x, 2) == x and round(y, 2) == y for x, y in way[1:-1])   # hundredths


def test_no_base_in_the_way_gives_no_way_round():
    assert ways_round((4.0, 10.0), (16.0, 10.0), 0.0, [(10.0, 12.0)]) == []
    # the goal's own base (a move ending in contact) is not in the way
    assert ways_round((4.0, 10.0), (10.0, 10.0), BASE, [(10.0, 10.0)]) == []


def test_a_base_touching_the_start_is_gone_round_from_where_it_stands():
    # (in base contact: straight out to the circle, then round it; never nearer the base)
    start, base, goal = (9.0, 10.0), (10.0, 10.0), (16.0, 10.0)
    ways = ways_round(start, goal, 0.0, [base])
    assert len(ways) == 1
    way = [*ways[0], goal]
    assert math.dist(way[1], base) > math.dist(start, base)
    for a, b in zip(way[1:], way[2:]):
        assert not near_segment([base], a, b, NEAR), (a, b)
    # a base it overlaps is left for the straight check (it may only move away from it)
    assert ways_round((9.5, 10.0), goal, 0.0, [base]) == []


def test_against_the_search_on_random_ground():
    rng = random.Random(37)
    board = Board(24, 24, False, {})
    checked = 0
    for _ in range(300):
        start = (rng.uniform(2, 22), rng.uniform(2, 22))
        goal = (rng.uniform(2, 22), rng.uniform(2, 22))
        if math.dist(start, goal) < 4:
            continue
        # a base on the straight way, a little to one side, and a few elsewhere
        t = rng.uniform(0.3, 0.7)
        on = (start[0] + (goal[0] - start[0]) * t + rng.uniform(-0.4, 0.4),
              start[1] + (goal[1] - start[1]) * t + rng.uniform(-0.4, 0.4))
        others = [on] + [(rng.uniform(1, 23), rng.uniform(1, 23)) for _ in range(3)]
        if any(math.dist(o, p) < BASE + 0.1 for o in others for p in (start, goal)):
            continue
        for way in ways_round(start, goal, 0.0, others):
            way = [*way, goal]
            legal = all(not near_segment(others, a, b, NEAR) for a, b in zip(way, way[1:])) \
                and all(board.inside(p) for p in way)
            if not legal:
                continue   # (a second base or the edge: the caller checks and searches)
            checked += 1
            searched = board.route(start, goal, 0.0, others)
            assert searched, (start, goal, others)
            # (the search ends within half an inch of the goal: on straight to it from there)
            assert _length(way) <= _length([start, *searched, goal]) + 0.05, \
                (start, goal, others)
            break
    assert checked > 100   # (the closed form serves most single bases in a way)
