"""Moves round the pieces of a board (game/board.py): the route search is work the budget counts,
and on a big board it searches over the corners of the pieces, not over 150,000 half-inch points
(issue 33, item 9). The shipped scenarios' boards are small: their routes are the half-inch
search's, as before (their golden games: tests/test_game_log.py, tests/test_example_game.py)."""

from __future__ import annotations

import math
import time

import pytest

from warband import limits
from warband.game.board import BASE, CONTACT, Board, Piece
from warband.run import budget
from warband.run.errors import RulesError


def maze(width: int = 200) -> Board:
    """A serpentine maze: a wall every 10 inches, open at alternate ends (19 turns)."""
    board = Board(width, width, False, {"wall": ("impassable", "opaque"),
                                        "pillar": ("impassable", "opaque")})
    for k, y in enumerate(range(10, width, 10)):
        board.add(Piece("wall", (0, y), (width - 4, y)) if k % 2 == 0 else
                  Piece("wall", (4, y), (width, y)))
    board.add(Piece("pillar", (50, 55), radius=2.0))
    return board


def check_way(board: Board, start, target, stop: float, occupied, way: list) -> None:
    assert way, "no way found"
    assert math.dist(way[-1], target) <= stop + 0.5 + 1e-6
    here = start
    for point in way:
        assert math.dist(here, point) <= 0.75, (here, point)
        assert not board.blocked(point), point
        assert all(math.dist(point, o) >= BASE - CONTACT - 1e-9 for o in occupied
                   if o not in (start, target)), point
        here = point


def test_a_way_through_a_big_maze_is_found_over_corners_and_cheaply():
    """The maze of the issue: 151,753 free half-inch points; the search over them weighed
    about 140,000 points and 0.7 s a move (30 s a round of 400 fighters). Over the corners
    of the walls: a few thousand, milliseconds once the board's corners are known."""
    board = maze()
    spent: list[int] = []
    board.charge = spent.append
    crowd = [(100 + i, 5.0) for i in range(-5, 6) if i] + [(50.0, 15.0), (51.0, 15.0)]
    start, target = (100.0, 5.0), (100.0, 195.0)
    board._path(start, target, 1.0, crowd)   # (the board's graphs made once)
    started = time.process_time()
    way = board._path(start, target, 1.0, crowd)
    took = time.process_time() - started
    check_way(board, start, target, 1.0, crowd, way)
    length = sum(math.dist(a, b) for a, b in zip([start, *way], way))
    assert 3_600 < length < 3_800   # 19 rows of the maze, each about 196 inches
    assert 0 < spent[-1] < 20_000
    assert took < 1.0, f"{took:.2f} s"


@pytest.mark.parametrize("start, target", [((30.0, 55.0), (170.0, 135.0)),
                                           ((100.0, 5.0), (100.0, 25.0)),
                                           ((45.0, 55.0), (55.0, 55.0)),   # round the pillar
                                           ((100.0, 5.0), (150.0, 8.0))])
def test_ways_on_a_big_board_keep_clear_of_pieces_and_bases(start, target):
    board = maze()
    crowd = [(100 + i, 5.0) for i in range(-5, 6) if i] + [(99.0, 7.0), (101.0, 7.0)]
    way = board._path(start, target, 1.0, crowd)
    check_way(board, start, target, 1.0, crowd, way)


def test_a_shipped_board_is_searched_over_half_inch_points():
    """A board of at most GRID_ROUTE_POINTS free points (the SMART dungeon has about 3,300)
    keeps the half-inch search, so that the shipped games stay as they were."""
    board = maze(60)
    assert len(board._free()) <= limits.GRID_ROUTE_POINTS
    way = board._path((30.0, 5.0), (30.0, 55.0), 1.0, [])
    assert all(p[0] * 2 == int(p[0] * 2) and p[1] * 2 == int(p[1] * 2) for p in way)
    assert len(maze(200)._free()) > limits.GRID_ROUTE_POINTS


def test_a_route_search_charges_the_points_it_weighs():
    board = maze(60)
    spent: list[int] = []
    board.charge = spent.append
    board._path((30.0, 5.0), (30.0, 55.0), 1.0, [])
    assert spent and spent[0] > 100


class Counting:
    """What budget.spend_moving reads of an interpreter."""

    def __init__(self, counting: bool, steps: int = 0) -> None:
        self.in_sampled_run, self.counting, self.steps = counting, 0, steps


def test_route_work_counts_against_the_activations_budget():
    inside = Counting(True, limits.MAX_SAMPLED_STEPS - 10)
    budget.spend_moving(inside, 5)
    assert inside.steps == limits.MAX_SAMPLED_STEPS - 5
    with pytest.raises(RulesError) as caught:
        budget.spend_moving(inside, 100)
    d = caught.value.diagnostic
    assert d.code == "E403" and "way round the board's pieces" in d.message
    outside = Counting(False, limits.MAX_SAMPLED_STEPS)   # (set-up: no evaluation counted)
    budget.spend_moving(outside, 10_000_000)
    assert outside.steps == limits.MAX_SAMPLED_STEPS


def test_a_game_charges_its_moves_to_the_budget(monkeypatch):
    """The SMART dungeon's moves route round walls: each search is charged to the activation
    that moves."""
    from warband.game.results import PlayRequest
    from warband.game.worker import play
    charged: list[int] = []
    original = budget.spend_moving
    monkeypatch.setattr(budget, "spend_moving",
                        lambda interp, n: charged.append(n) or original(interp, n))
    play(PlayRequest("smart-dungeon", policies=(("*", "random"),), max_rounds=2), 1)
    assert charged and sum(charged) > 100
