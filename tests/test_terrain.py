"""Terrain with extent (issue 37, item 2): markers placed as areas (a rectangle, a circle, a
polygon), `inside(f, KIND)` and `partly_inside(f, KIND)`, sight through them (obscuring,
opaque), difficult ground that counts double and impassable ground a move goes round.

- the geometry (game/terrain.py) against brute force: whether a point is inside, how much of a
  line lies inside (by sampling it finely), whether a base is wholly or partly on an area;
- seeded games of a toy scenario (Super Simple Skirmish among woods, a crag and a pond): no base
  ever stands on the crag or overlaps another, no move's way crosses the crag, and no way costs
  more than its allowance with the woods and the pond counted double;
- the checker's E336, the log's and the board picture's areas, the questions in a game.
"""

from __future__ import annotations

import functools
import math
import random
from pathlib import Path

import pytest

from warband.game import terrain
from warband.game.board import Board, Piece
from warband.game.scenario import load_scenario
from warband.game.svg import Geometry, pieces_svg
from warband.game.viewer import snapshot
from warband.lang.compiler import compile_text
from warband.run.decisions import Policies

from test_move_invariants import NEAR, Checked

TOY = '''
ruleset "terrain-toy"
  title "A skirmish among woods, a crag and a pond"
  extends "super-simple-skirmish"

marker wood "Woods: hard going, and cover" obscuring difficult
marker crag "A crag nobody climbs or sees through" impassable opaque
marker pond "A pond: hard going" difficult

scenario woods {
  board 24 by 24 inches
  side a {
    fighter "Hero" count 4 { class Warrior  stat Might = 10 }
    fighter "Archer" count 2 { class Soldier  stat Might = 10 }
  }
  side b {
    fighter "Foe" count 4 { class Warrior  stat Might = 10 }
    fighter "Bow" count 2 { class Soldier  stat Might = 10 }
  }
  zone south = edge south depth 4
  zone north = edge north depth 4
  setup {
    place wood area (4, 8) to (10, 15)
    place crag area (12, 9), (17, 9), (15, 15)
    place pond area (20, 12) radius 2
    place shrine at (12, 18)
    for each s in sides {
      restock(s, total(1 for f in s.fighters))
    }
    set a.Order = 1
    set b.Order = 2
    deploy a in south
    deploy b in north
  }
  round { game_round() }
  rounds 6
  score a = total(f.Might for f in b.casualties)
  score b = total(f.Might for f in a.casualties)
}
'''

# ---- the geometry, against brute force -----------------------------------------------------------

SHAPES = [("polygon", terrain.rectangle((4, 8), (10, 15))),
          ("polygon", ((12, 9), (17, 9), (15, 15))),
          ("polygon", ((2, 2), (9, 2), (9, 9), (6, 9), (6, 5), (2, 5))),   # an L: not convex
          ("circle", ((20, 12), 2.0))]


def _args(shape):
    extent, data = shape
    if extent == "circle":
        return extent, data[0], data[1], ()
    return extent, terrain.middle(data), 0.0, data


def _inside_brute(shape, p) -> bool:
    """Inside, written apart from terrain.contains: by the winding of the corners round p (a
    circle by its radius); the edge counts as inside."""
    extent, data = shape
    if extent == "circle":
        return math.dist(p, data[0]) <= data[1] + 1e-9
    if any(terrain._segment_gap(p, a, b) <= 1e-9 for a, b in terrain.sides(data)):
        return True
    turned = 0.0
    for a, b in terrain.sides(data):
        a1 = math.atan2(a[1] - p[1], a[0] - p[0])
        b1 = math.atan2(b[1] - p[1], b[0] - p[0])
        d = b1 - a1
        while d > math.pi:
            d -= 2 * math.pi
        while d < -math.pi:
            d += 2 * math.pi
        turned += d
    return abs(turned) > math.pi


@pytest.mark.parametrize("shape", SHAPES)
def test_inside_and_the_gap_agree_with_brute_force(shape):
    rng = random.Random(7)
    extent, centre, radius, outline = _args(shape)
    for _ in range(2000):
        p = (rng.uniform(0, 24), rng.uniform(0, 24))
        inside = _inside_brute(shape, p)
        assert (terrain.gap(extent, centre, radius, outline, p) == 0.0) == inside, p
        # a base is partly on it when some sample of its disc is inside, wholly when all are
        disc = [(p[0] + r * math.cos(t) * 0.5, p[1] + r * math.sin(t) * 0.5)
                for r in (0.0, 0.5, 0.999) for t in [k * math.pi / 18 for k in range(36)]]
        touched = [_inside_brute(shape, q) for q in disc]
        held = terrain.holds(extent, centre, radius, outline, p, 0.5)
        assert not held or all(touched), p
        if all(_inside_brute(shape, q) for q in disc[36:]) and \
                terrain.gap(extent, centre, radius, outline, p) == 0.0 and \
                all(terrain._segment_gap(p, a, b) > 0.51 for a, b in terrain.sides(outline)) \
                if extent == "polygon" else math.dist(p, centre) < radius - 0.51:
            assert held, p


@pytest.mark.parametrize("shape", SHAPES)
def test_the_length_of_a_line_inside_agrees_with_sampling(shape):
    rng = random.Random(11)
    extent, centre, radius, outline = _args(shape)
    for _ in range(120):
        a = (rng.uniform(0, 24), rng.uniform(0, 24))
        b = (rng.uniform(0, 24), rng.uniform(0, 24))
        n = 2000
        sampled = sum(_inside_brute(shape, (a[0] + (b[0] - a[0]) * (k + 0.5) / n,
                                            a[1] + (b[1] - a[1]) * (k + 0.5) / n))
                      for k in range(n)) / n * math.dist(a, b)
        exact = terrain.length_inside(extent, centre, radius, outline, a, b)
        assert exact == pytest.approx(sampled, abs=math.dist(a, b) * 2 / n + 1e-9), (a, b)
        # a line of sight passes through it when some of it is inside, out of an area the
        # looker stands in
        if not _inside_brute(shape, a):
            assert terrain.in_the_way(extent, centre, radius, outline, a, b) == \
                (sampled > 0 or _inside_brute(shape, b)), (a, b)
        else:
            assert not terrain.in_the_way(extent, centre, radius, outline, a, b)


def test_a_board_with_areas_blocks_costs_and_hides():
    board = Board(24, 24, False, {"wood": ("obscuring", "difficult"),
                                  "crag": ("impassable", "opaque")})
    board.add(Piece("wood", (7, 11.5), None, 0.0, "polygon", terrain.rectangle((4, 8), (10, 15))))
    board.add(Piece("crag", (14.67, 11), None, 0.0, "polygon", ((12, 9), (17, 9), (15, 15))))
    assert board.blocked((14.5, 11)) and board.blocked((11.6, 9.2)) and not board.blocked((11, 9))
    assert not board.blocked((7, 11))   # (woods: hard going, not impassable)
    assert board.cost((2, 11), (12, 11)) == pytest.approx(10 + 6)   # 6" of wood count double
    way = board.affordable([(2.0, 11.0), (12.0, 11.0)], 8)
    assert way[-1] == (7.0, 11.0)   # 2" in the open and 3" of wood: 8" spent
    assert board.obscured((2, 11), (12, 11.5)) and not board.obscured((2, 3), (12, 3))
    assert board.obscured((2, 11), (7, 11))   # a target in the woods is in their cover
    assert not board.obscured((7, 11), (7, 20))   # one in them sees out
    assert not board.sees((11, 12), (18, 12)) and board.sees((11, 17), (18, 17))
    # a straight move stops at the crag's side; the search goes round it
    end = board.straight((10.0, 12.0), (20.0, 12.0), 10, 0.0, [])
    assert end is not None and end[0] < 13
    way = board.route((10.0, 12.0), (20.0, 12.0), 0.0, [])
    assert way and all(not board.blocked(p) for p in way)


# ---- seeded games of the toy scenario ------------------------------------------------------------

@functools.lru_cache(maxsize=None)
def _toy(tmp: str):
    path = Path(tmp) / "terrain-toy.rules"
    path.write_text(TOY, encoding="utf-8")
    scenario = load_scenario(str(path))
    assert not isinstance(scenario, list), scenario
    return scenario


@functools.lru_cache(maxsize=None)
def _games(tmp: str, policy: str) -> tuple:
    played = []
    for seed in range(1, (12 if policy == "random" else 2) + 1):
        game = Checked(_toy(tmp), seed, Policies(policy))
        game.play()
        played.append((seed, game))
    return tuple(played)


@pytest.fixture(scope="module")
def toy_dir(tmp_path_factory) -> str:
    return str(tmp_path_factory.mktemp("terrain"))


@pytest.mark.parametrize("policy", ["random", "greedy"])
def test_no_base_stands_on_the_crag_or_crosses_it_and_no_way_costs_too_much(toy_dir, policy):
    moved = in_wood = 0
    for seed, game in _games(toy_dir, policy):
        board = game.board
        crag = next(p for p in board.pieces if p.kind == "crag")
        assert game.overlaps == [], (seed, game.overlaps[:3])
        for start, end, reach, through, others, way in game.moves:
            if start == end:
                continue
            moved += 1
            assert not board.blocked(end), (seed, end)
            for a, b in zip(way, way[1:]):
                assert terrain.length_inside("polygon", crag.at, 0.0, crag.outline, a, b) == 0
                # the base keeps off it: its centre half an inch from its sides (the
                # search's diagonal steps cut no corner: to a few thousandths)
                assert all(terrain.gap("polygon", crag.at, 0.0, crag.outline,
                                       (a[0] + (b[0] - a[0]) * k / 20,
                                        a[1] + (b[1] - a[1]) * k / 20)) >= 0.49
                           for k in range(21)), (seed, way)
                for friend, at in others:   # never through an enemy's base (SSS)
                    if not friend and math.dist(start, at) >= NEAR:
                        assert terrain._segment_gap(at, a, b) >= NEAR - 0.02, (seed, way, at)
            spent = sum(board.cost(a, b) for a, b in zip(way, way[1:]))
            assert spent <= reach + 0.03, (seed, way, reach, spent)
            in_wood += spent > sum(math.dist(a, b) for a, b in zip(way, way[1:])) + 0.01
    assert moved and in_wood, "no move crossed difficult ground: the test tests nothing"


def test_the_log_and_the_board_picture_show_the_areas(toy_dir):
    _, game = _games(toy_dir, "random")[0]
    places = [e for e in game.log.events if e["type"] == "place"]
    assert places[0]["area"] == [[4, 8], [10, 8], [10, 15], [4, 15]]
    assert places[2]["radius"] == 2 and places[2]["at"] == [20, 12]
    state = snapshot(_toy(toy_dir).start(), game.board, (), ())
    svg = "\n".join(pieces_svg(state, Geometry({"squares": False, "width": 24, "height": 24})))
    assert svg.count("<polygon") == 2 and "as an area (4, 8), (10, 8)" in svg
    assert 'r="' in svg   # (the pond: a circle of its radius)


# ---- the rules: questions and the checker --------------------------------------------------------

QUESTIONS = '''
ruleset "terrain-questions"
  extends "super-simple-skirmish"

marker wood "Woods" obscuring difficult
flag InWood on fighter "stood in the woods at the end of its turn"
flag AtWood on fighter "stood at least partly in the woods"

scenario probe {
  board 24 by 24 inches
  side a { fighter "Hero" count 3 { class Warrior  stat Might = 10 } }
  side b { fighter "Foe" { class Warrior  stat Might = 10 } }
  zone south = edge south depth 4
  zone north = edge north depth 4
  setup {
    place wood area (0, 0) to (24, 3)
    deploy a in south
    deploy b in north
    for each f in a.fighters {
      set f.InWood = inside(f, wood)
      set f.AtWood = partly_inside(f, wood)
    }
  }
  round { }
  rounds 1
  score a = 0
  score b = 0
}
'''


def test_inside_and_partly_inside_in_a_game(tmp_path):
    path = tmp_path / "probe.rules"
    path.write_text(QUESTIONS, encoding="utf-8")
    scenario = load_scenario(str(path))
    assert not isinstance(scenario, list), scenario
    class Kept(Checked):
        def look(self, world) -> None:
            super().look(world)
            self.last = world
    for seed in range(1, 6):
        game = Kept(scenario, seed, Policies("random"))
        game.play()
        for f in game.last.fighters[:3]:
            y = f.position[1]
            assert f.values["InWood"] == (y <= 2.5), f.position
            assert f.values["AtWood"] == (y < 3.5), f.position


@pytest.mark.parametrize("place, message", [
    ("place wood area (4, 4) to (4, 9)", "a rectangle's two corners are opposite ones"),
    ("place wood area (4, 4) radius 0", "a circle's radius is more than 0"),
    ("place wood area (4, 4), (6, 6)", "a polygon has three corners or more"),
    ("place wood area (4, 4), (6, 6), (4, 4)", "a polygon has three corners or more"),
    ("place wood area (d6, 4) to (8, 9)", "numbers written out"),
])
def test_an_area_that_cannot_be_placed_is_e336(place, message):
    text = QUESTIONS.replace("place wood area (0, 0) to (24, 3)", place)
    compiled = compile_text(text, "probe.rules")
    errors = [d for d in compiled.diagnostics if d.code == "E336"]
    assert errors and message in errors[0].message, compiled.diagnostics
    assert errors[0].hint


def test_partly_inside_takes_a_kind_of_marker_or_a_piece():
    text = QUESTIONS.replace("set f.AtWood = partly_inside(f, wood)",
                             "set f.AtWood = partly_inside(f, south)")
    compiled = compile_text(text, "probe.rules")
    assert any(d.code == "E302" and "partly_inside" in d.message for d in compiled.diagnostics)
