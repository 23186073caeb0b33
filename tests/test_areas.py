"""Areas and templates (square, circle, cone, line), `fighters under AREA`, `f is under AREA`,
and facing (in_front, in_rear, `face f towards g`): the geometry against brute force, the
answers without a board, the checker's diagnostics, SMART's breath as a 3" square and Super
Simple Skirmish's blast asked as a circle, and a game that logs the template it places."""

from __future__ import annotations

import math
import random
from fractions import Fraction as F
from pathlib import Path

import pytest

from warband.game.board import Board
from warband.game.engine import Game
from warband.game.facing import Facing
from warband.game.gamelog import GameLog, render_text
from warband.game.scenario import load_scenario
from warband.lang.compiler import compile_text, load
from warband.run import areas
from warband.run.dice import Dist
from warband.run.errors import RulesError
from warband.run.interpreter import Interpreter
from warband.run.world import FighterSpec, Ref, make_world

ROOT = Path(__file__).resolve().parents[1]


# ---- the geometry, against brute force ----------------------------------------------------------

def inside(area: areas.Area, p) -> bool:
    """Whether the point p lies in the area (edge included), written apart from areas.gap:
    by the area's corners and sides, and for a cone by its radius and angle."""
    ax, ay = area.at
    wx, wy = area.way
    dx, dy = p[0] - ax, p[1] - ay
    along, across = dx * wx + dy * wy, dx * wy - dy * wx
    e = 1e-9
    if area.shape == "circle":
        return dx * dx + dy * dy <= area.size ** 2 + e
    if area.shape == "square":
        return abs(along) <= area.size / 2 + e and abs(across) <= area.size / 2 + e
    if area.shape == "line":
        return -e <= along <= area.size + e and abs(across) <= area.width / 2 + e
    r = math.hypot(dx, dy)
    if r <= e:
        return True
    return r <= area.size + e and math.degrees(math.acos(max(-1, min(1, along / r)))) \
        <= area.width / 2 + e


# points of a base (radius 0.5) on a fine polar grid, its rim included
BASE_POINTS = [(r * 0.5 / 12 * math.cos(t * math.pi / 36), r * 0.5 / 12 * math.sin(t * math.pi / 36))
               for r in range(13) for t in range(72)]


def placed(shape, at, towards, size, width=0.0, squares=False):
    """An area of the shape at the point `at` (pointing towards `towards`), as make() places
    one on fighters standing there."""
    specs = [FighterSpec("a", 0, position=at), FighterSpec("b", 1, position=towards)]
    world = make_world(_tiny(), specs)
    a, b = Ref("fighter", 0), Ref("fighter", 1)
    args = {"square": (a, size, b), "circle": (a, size), "cone": (a, b, size, width),
            "line": (a, b, size, width)}[shape]
    return areas.make(shape, args, world, squares)


_TINY = None


def _tiny():
    global _TINY
    if _TINY is None:
        compiled = compile_text('ruleset "tiny"\nstat Might: 1..10 default 1\n', "tiny.rules")
        _TINY = compiled.ruleset
    return _TINY


SHAPES = [("square", (6, 6), (9, 10), 3, 0), ("square", (6, 6), (6, 12), 4, 0),
          ("circle", (6, 6), (6, 6), 2.5, 0), ("cone", (3, 4), (9, 8), 6, 90),
          ("cone", (3, 4), (3, 11), 5, 40), ("cone", (8, 8), (2, 8), 4, 180),
          ("line", (2, 2), (10, 7), 8, 1), ("line", (6, 2), (6, 9), 3, 3)]


@pytest.mark.parametrize("shape, at, towards, size, width", SHAPES)
def test_a_base_is_under_an_area_when_some_of_it_lies_inside(shape, at, towards, size, width):
    area = placed(shape, at, towards, size, width)
    checked = 0
    for i in range(61):
        for j in range(61):
            p = (i * 0.2, j * 0.2)
            brute = any(inside(area, (p[0] + x, p[1] + y)) for x, y in BASE_POINTS)
            gap = area.gap(p)
            if abs(gap - 0.5) < 0.02:   # on the rim: the brute force's points are too coarse
                continue
            assert area.covers(p) == brute, (p, gap)
            checked += 1
    assert checked > 3000


@pytest.mark.parametrize("shape, at, towards, size, width", SHAPES)
def test_on_squares_a_cell_is_under_an_area_when_its_centre_is(shape, at, towards, size, width):
    area = placed(shape, at, towards, size, width, squares=True)
    for x in range(1, 13):
        for y in range(1, 13):
            assert area.covers((x, y)) == inside(area, (x, y)), (x, y)


@pytest.mark.parametrize("shape, at, towards, size, width", SHAPES)
def test_an_area_at_a_position_is_the_area_on_a_fighter_standing_there(shape, at, towards, size,
                                                                        width):
    """Positions as anchors (`square(p.position, 3)`, `cone(f.position, g, 8)`): a square or a
    circle at a position is the one on a fighter standing there; a cone or a line from a
    position starts at that very point (a point has no base to start in front of), and
    covers what brute force says it covers."""
    world = make_world(_tiny(), [FighterSpec("a", 0, position=at),
                                 FighterSpec("b", 1, position=towards)])
    b = Ref("fighter", 1)
    args = {"square": (at, size, towards), "circle": (at, size), "cone": (at, b, size, width),
            "line": (at, towards, size, width)}[shape]
    area = areas.make(shape, args, world, False)
    on_fighters = placed(shape, at, towards, size, width)
    assert area.way == on_fighters.way
    assert area.anchor == (b if shape == "cone" else None)   # (the cone is aimed at b)
    if shape in ("square", "circle"):
        assert area.at == on_fighters.at
    else:
        assert area.at == at
    for i in range(0, 61, 3):
        for j in range(0, 61, 3):
            p = (i * 0.2, j * 0.2)
            if abs(area.gap(p) - 0.5) < 0.02:
                continue
            assert area.covers(p) == any(inside(area, (p[0] + x, p[1] + y))
                                         for x, y in BASE_POINTS), p


def test_without_a_board_an_area_at_a_position_or_a_piece_holds_nobody():
    world = make_world(_tiny(), [FighterSpec("a", 0), FighterSpec("b", 1)])
    for args in ((None, 3), (None, 3, Ref("fighter", 1))):
        area = areas.make("square", args, world, False)
        assert area.at is None and areas.under(world, area) == ()
        assert "nowhere" in area.text


def test_a_cone_or_line_starts_at_the_front_of_its_source():
    line = placed("line", (2, 2), (8, 2), 3, 3)
    assert line.at == (2.5, 2)
    assert not line.covers((2, 2))          # the source's base only touches it
    assert line.covers((5.9, 2)) and not line.covers((6.0, 2))   # it ends at 5.5
    cone = placed("cone", (2, 2), (2, 9), 4, 60)
    assert not cone.covers((2, 2)) and cone.covers((2, 6.9))


def test_a_square_may_be_turned_to_face_a_fighter():
    straight = placed("square", (5, 5), (5, 5), 2)       # one spot: as the board's edges
    turned = placed("square", (5, 5), (8, 8), 2)         # corners now north, south, east, west
    corner = (5 + 1.3, 5 + 1.3)
    assert straight.gap(corner) < 0.5 and turned.gap(corner) > 0.5


# ---- without a board ----------------------------------------------------------------------------------

RULES = '''ruleset "templates"
stat Might: 1..10 default 2
counter Burnt on fighter
action burn(f: fighter, g: fighter) -> number
  requires in_front(f, g) and f.side != g.side
{
  let caught = 0
  for each x in fighters under cone(f, g, 6, 60) {
    set x.Burnt += d6
    set caught += 1
  }
  return caught
}
action blast(f: fighter, g: fighter) -> number {
  let a = circle(g, 2)
  return total(1 for x in fighters under a) + (if f is under a then 100 else 0)
}
action spin(f: fighter, g: fighter) -> bool {
  face f towards g
  return in_rear(g, f) or in_front(f, g, 30)
}
'''


@pytest.fixture(scope="module")
def templates():
    compiled = compile_text(RULES, "templates.rules")
    assert compiled.ruleset is not None, [d.message for d in compiled.diagnostics]
    return compiled.ruleset


def test_without_a_board_an_area_holds_the_fighter_it_is_placed_on_or_aimed_at(templates):
    world = make_world(templates, [FighterSpec("a", 0), FighterSpec("b", 1), FighterSpec("c", 1)])
    interp = Interpreter(templates)
    a, b = Ref("fighter", 0), Ref("fighter", 1)
    # burn: only b is caught (the cone is aimed at it), and takes a d6: exact, by brute force
    dist = interp.exact("burn", {"f": a, "g": b}, world,
                        observe=lambda w: (w.fighters[1].values["Burnt"], w.fighters[2].values["Burnt"]))
    assert dist == Dist({(1, (face, 0)): F(1, 6) for face in range(1, 7)})
    assert interp.exact("blast", {"f": a, "g": b}, world).only() == 1   # b; a is not under it
    # a fighter faces every other without a board, and nobody is behind anybody
    assert interp.exact("spin", {"f": a, "g": b}, world).only() is True
    assert interp.allowed("burn", {"f": a, "g": b}, world)


def test_with_positions_the_cone_catches_whom_it_covers(templates):
    world = make_world(templates, [FighterSpec("a", 0, position=(0, 0)),
                                   FighterSpec("b", 1, position=(4, 0)),
                                   FighterSpec("c", 1, position=(5, 2.5)),     # inside 60 degrees
                                   FighterSpec("d", 0, position=(1, 4))])      # beside: outside
    dist = Interpreter(templates).exact("burn", {"f": Ref("fighter", 0), "g": Ref("fighter", 1)},
                                        world)
    assert dist.only() == 2


def test_an_area_of_no_size_made_while_the_rules_run_is_E512(templates):
    text = RULES + '''
action none(f: fighter, g: fighter) -> number {
  return total(1 for x in fighters under square(g, f.Might - 2))
}
'''
    ruleset = compile_text(text, "templates.rules").ruleset
    world = make_world(ruleset, [FighterSpec("a", 0), FighterSpec("b", 1)])
    with pytest.raises(RulesError) as caught:
        Interpreter(ruleset).exact("none", {"f": Ref("fighter", 0), "g": Ref("fighter", 1)}, world)
    assert caught.value.diagnostic.code == "E512"


def test_a_facing_arc_worked_out_as_nothing_is_E512_with_or_without_a_board(templates):
    text = RULES + '''
action glance(f: fighter, g: fighter) -> bool {
  return in_front(f, g, f.Might * 200)
}
'''
    ruleset = compile_text(text, "templates.rules").ruleset
    world = make_world(ruleset, [FighterSpec("a", 0, None, {"Might": 1}), FighterSpec("b", 1)])
    args = {"f": Ref("fighter", 0), "g": Ref("fighter", 1)}
    assert Interpreter(ruleset).exact("glance", args, world).only() is True   # 200 degrees
    world = make_world(ruleset, [FighterSpec("a", 0, None, {"Might": 2}), FighterSpec("b", 1)])
    with pytest.raises(RulesError) as caught:
        Interpreter(ruleset).exact("glance", args, world)   # 400 degrees
    assert caught.value.diagnostic.code == "E512" and "360" in caught.value.diagnostic.message
    board = Facing(Board(12, 12, False, {}), None)
    with pytest.raises(RulesError):
        board.in_rear(args["f"], args["g"], 0, world)


# ---- the checker --------------------------------------------------------------------------------------

@pytest.mark.parametrize("body, code, words", [
    ("return total(1 for x in fighters under f)", "E302", "'under' needs an area"),
    ("return total(1 for x in fighters under square(f))", "E301", "takes 2 or 3 arguments"),
    ("return total(1 for x in fighters under square(3, f))", "E302", "a fighter"),
    ("return total(1 for x in fighters under square(f.side, 3))", "E302",
     "a fighter, a piece or a position"),
    ("return total(1 for x in fighters under cone(f, g, 6, 270))", "E322", "270 degrees"),
    ("return total(1 for x in fighters under circle(g, 0))", "E322", "a size of 0"),
    ("return total(1 for x in fighters under circle(g, d6))", "E303", "depends on a roll"),
    ("return if in_front(f, g, 400) then 1 else 0", "E322", "400 degrees"),
    ("return if f is under 3 then 1 else 0", "E302", "'under' needs an area"),
    ("face f towards 3\n  return 1", "E302", "whom it turns to face"),
])
def test_checker_diagnostics(body, code, words):
    text = f'''ruleset "t"
stat Might: 1..10
procedure p(f: fighter, g: fighter) -> number {{
  {body}
}}
action a(f: fighter, g: fighter) -> number {{
  return p(f, g)
}}
'''
    compiled = compile_text(text, "t.rules")
    found = [d for d in compiled.diagnostics if d.code == code]
    assert found and words in found[0].message, [(d.code, d.message) for d in compiled.diagnostics]
    if code != "E302" or "under" in words:   # (a plain mismatch of types has no hint)
        assert found[0].hint


def test_an_area_name_the_rules_declare_is_theirs():
    """Not reserved (see test_rules_may_still_use_the_words_of_areas_and_pieces_as_names)."""
    compiled = compile_text('ruleset "t"\ndefine square(x) = x * x\n', "t.rules")
    assert not [d.code for d in compiled.diagnostics if d.code == "E202"]


# ---- two systems: SMART's breath, Super Simple Skirmish's blast as a circle ----------------------------

def smart_world(smart, *specs):
    return make_world(smart, [FighterSpec(n, s, c, {"Level": 5} if c == "Dragon" else {},
                                          position=p) for n, s, c, p in specs], [{}, {}])


def test_smart_breath_catches_a_unit_in_the_squares_corner(smart):
    """The 3" square on the goblin, turned to face the dragon: a unit in its corner is caught
    (the old 1.5" circle missed it); a unit 2" beyond the square's edge is not."""
    world = smart_world(smart, ("dragon", 1, "Dragon", (0, 0)), ("goblin", 0, "Goblin", (3, 0)),
                        ("corner", 0, "Goblin", (4.4, 1.4)), ("far", 0, "Goblin", (7, 0)))
    result, after = Interpreter(smart, rng=random.Random(1)).sample(
        "breath", {"dragon": Ref("fighter", 0), "target": Ref("fighter", 1)}, world)
    assert result == "defeated"
    assert [f.removed for f in after.fighters] == [False, True, True, False]


def test_smart_breath_keeps_its_odds_without_a_board(smart):
    """The odds of one breath (no board: only the target is under the square) are as before."""
    world = make_world(smart, [FighterSpec("d", 0, "Dragon", {"Level": 5}),
                               FighterSpec("k", 1, "Knight", {"XP": 54})], [{}, {}])
    dist = Interpreter(smart).exact("breath", {"dragon": Ref("fighter", 0),
                                               "target": Ref("fighter", 1)}, world)
    assert dist.only() == "defeated"


@pytest.fixture(scope="module")
def smart():
    return load("smart").ruleset


SSS_TEMPLATE = '''ruleset "sss-template"
  extends "super-simple-skirmish"
procedure caught(attacker: fighter, target: fighter) -> number {
  # the blast's "within 2 inches, edge to edge" asked as a circle template of 2.5" on the target
  return total(1 for x in fighters under circle(target, 5 / 2) if x != target and x != attacker)
}
'''


def test_super_simple_skirmish_blast_asked_as_a_circle_template(tmp_path):
    path = tmp_path / "sss-template.rules"
    path.write_text(SSS_TEMPLATE, encoding="utf-8")
    compiled = load(str(path))
    assert compiled.ruleset is not None, [d.message for d in compiled.diagnostics]
    ruleset = compiled.ruleset
    rng = random.Random(7)
    caught = 0
    for _ in range(40):
        spots = [(rng.randrange(0, 1200) / 100, rng.randrange(0, 1200) / 100) for _ in range(6)]
        world = make_world(ruleset, [FighterSpec(f"f{i}", i % 2, "Soldier" if "Soldier" in
                                                 ruleset.classes else None, position=p)
                                     for i, p in enumerate(spots)])
        # the blast's own test: another fighter whose base is within 2" of the target's
        edge = [i for i in range(2, 6) if math.dist(spots[1], spots[i]) - 1 <= 2]
        if any(abs(math.dist(spots[1], spots[i]) - 3) < 1e-6 for i in range(2, 6)):
            continue   # exactly touching: the template does not count a touch
        got = Interpreter(ruleset).exact("caught", {"attacker": Ref("fighter", 0),
                                                    "target": Ref("fighter", 1)}, world)
        assert got.only() == len(edge)
        caught += len(edge)
    assert caught > 5   # (the positions put some fighters under it)


# ---- facing, and a game that logs the template ----------------------------------------------------------

def _host(round_: int):
    """The game a Facing reads its state from (its round, its record, the ways fighters face)."""
    import random

    from warband.game.state import GameState
    state = GameState(random.Random(0), random.Random(1), GameLog(record=True), round_)
    return type("G", (), {"state": state})()


def test_facing_follows_moves_and_turns():
    board = Board(24, 24, False, {})
    game = _host(1)
    facing = Facing(board, game)
    world = make_world(_tiny(), [FighterSpec("a", 0, position=(2, 12)),
                                 FighterSpec("b", 1, position=(6, 12)),
                                 FighterSpec("c", 1, position=(0, 12))])
    a, b, c = (Ref("fighter", i) for i in range(3))
    # before it moves a fighter faces the board's centre (east, here)
    assert facing.in_front(a, b, world) and not facing.in_rear(a, b, world)
    assert facing.in_rear(a, c, world) and facing.in_rear(a, c, 90, world)
    facing.moved(0, (4, 12), (2, 12))        # it went west: b is behind it now
    assert facing.in_rear(a, b, world) and facing.in_front(a, c, 10, world)
    facing.face(a, b, world)
    assert facing.in_front(a, b, 1, world) and not facing.in_front(a, c, world)
    # abreast: in the front half, not the rear
    world = world.place(c, (2, 14))
    assert facing.in_front(a, c, world) and not facing.in_rear(a, c, world)
    assert not facing.in_front(a, c, 90, world)


GAME = '''ruleset "flames"
stat Might: 1..10 default 2
counter Burnt on fighter
action advance(f: fighter) requires f.Burnt == 0 {
  travel f up to 6
}
action burn(f: fighter, g: fighter) -> number
  requires f.side != g.side and in_front(f, g) and distance(f, g) <= 6
{
  let caught = 0
  for each x in fighters under cone(f, g, 8) {
    set x.Burnt += 1
    set caught += 1
  }
  return caught
}
scenario yard {
  board 12 by 12 inches
  side red { fighter "Torch" count 2 }
  side blue { fighter "Hay" count 3 }
  zone west = edge west depth 2
  zone east = edge east depth 2
  setup { deploy red in west  deploy blue in east }
  round {
    for each f in red.fighters { activate f using burn, advance }
    for each f in blue.fighters { activate f using advance }
  }
  rounds 3
}
'''


def test_a_game_logs_the_template_and_who_is_under_it(tmp_path):
    path = tmp_path / "flames.rules"
    path.write_text(GAME, encoding="utf-8")
    scenario = load_scenario(str(path))
    assert not isinstance(scenario, list), [d.message for d in scenario]
    seen = []
    for seed in range(6):
        game = Game(scenario, seed, record=True)
        game.play()
        seen += [e for e in game.log.events if e["type"] == "template"]
        fast, slow = Game(scenario, seed), Game(scenario, seed)
        slow.interp.compiled = False
        assert fast.play().scores == slow.play().scores   # generated code as the interpreter
    assert seen and all(e["area"].startswith("cone 8 from Torch") for e in seen)
    text = render_text({"scenario_title": "yard", "seed": 0, "events": seen})
    assert "      cone 8 from Torch" in text and " under it\n" in text


def test_areas_print_back_as_they_are_written(smart):
    """rules show and diff print an action's requirements and bodies' expressions back."""
    from warband.lang.unparse import expr_text
    requires = smart.procedures["breath"].requires
    assert "in_front(dragon, target)" in expr_text(requires)
    text = 'ruleset "t"\nstat Might: 1..10\naction a(f: fighter, g: fighter) -> number\n' \
           '  requires f is under square(g, 3, f) and not (g is under cone(f, g, 6, 45))\n' \
           '{\n  return total(1 for x in fighters under line(f, g, 4, 1))\n}\n'
    ruleset = compile_text(text, "t.rules").ruleset
    decl = ruleset.procedures["a"]
    assert expr_text(decl.requires) == \
        "f is under square(g, 3, f) and not g is under cone(f, g, 6, 45)"
    again = compile_text(text.replace(
        "f is under square(g, 3, f) and not (g is under cone(f, g, 6, 45))",
        expr_text(decl.requires)), "t.rules").ruleset
    assert expr_text(again.procedures["a"].requires) == expr_text(decl.requires)
    body = decl.body.stmts[0].value
    assert expr_text(body) == "total(1 for x in fighters under line(f, g, 4, 1))"


def test_on_a_board_of_squares_a_3_square_is_the_cells_round_its_centre():
    board = Board(8, 8, True, {})
    facing = Facing(board, _host(2))
    cells = [(x, y) for x in range(1, 9) for y in range(1, 9)]
    world = make_world(_tiny(), [FighterSpec(f"{x},{y}", 0, position=c)
                                 for c in cells for x, y in [c]])
    centre = Ref("fighter", cells.index((4, 4)))
    area = facing.square(centre, 3, world)
    under = {world.fighters[r.index].position for r in areas.under(world, area)}
    assert under == {(x, y) for x in (3, 4, 5) for y in (3, 4, 5)}
    # a line 3 long from (4, 4) east: the three cells beyond it, not its own
    east = Ref("fighter", cells.index((8, 4)))
    line = facing.line(centre, east, 3, 1, world)
    assert {world.fighters[r.index].position for r in areas.under(world, line)} == \
        {(5, 4), (6, 4), (7, 4)}
    assert facing.game.state.log.events[-1] == {"round": 2, "type": "template",
                                     "area": "line 3 from 4,4 towards 8,4, 1 wide",
                                     "under": "5,4, 6,4, 7,4"}


def test_a_definition_may_name_a_template():
    text = '''ruleset "d"
stat Might: 1..10
define blast(g: fighter) = square(g, 3)
action a(f: fighter, g: fighter) -> number {
  return total(1 for x in fighters under blast(g))
}
'''
    ruleset = compile_text(text, "d.rules").ruleset
    world = make_world(ruleset, [FighterSpec("a", 0, position=(0, 0)),
                                 FighterSpec("b", 1, position=(3, 0)),
                                 FighterSpec("c", 1, position=(4, 1.9))])
    args = {"f": Ref("fighter", 0), "g": Ref("fighter", 1)}
    assert Interpreter(ruleset).exact("a", args, world).only() == 2
    generated, interpreted = Interpreter(ruleset), Interpreter(ruleset)
    interpreted.compiled = False
    assert generated.compiled
    assert generated.sample("a", args, world)[0] == interpreted.sample("a", args, world)[0] == 2


def test_a_players_look_ahead_turns_nobody_in_the_game(tmp_path):
    """Look-ahead runs (game/explore.py) move fighters on a copy of the game's state, which
    must leave the game as it was: the facing they set, and the templates they place, stay
    theirs."""
    from warband.run.decisions import Policies
    path = tmp_path / "flames.rules"
    path.write_text(GAME, encoding="utf-8")
    scenario = load_scenario(str(path))
    game = Game(scenario, 1, record=True)
    game.facing.moved(0, (0, 0), (1, 0))
    before = dict(game.state.facing)
    with game.running(game.state.clone(log=GameLog()), Policies("random"), None):
        game.facing.moved(0, (0, 0), (0, 1))
        game.facing.moved(3, (0, 0), (1, 1))
        assert not game.facing.game.state.log.record   # its own log: no template in the game's
    assert game.state.facing == before and game.facing.game.state.log.record


def test_rules_may_still_use_the_words_of_areas_and_pieces_as_names():
    """A tier `line` or a table `square` was a name of the rules' own before areas and pieces
    came: such a declaration takes the word's place (E202 broke rules that compiled)."""
    from warband.lang.compiler import compile_text
    from warband.run.interpreter import Interpreter
    text = ('ruleset "own-words"\nstat Might: 1..10\ntier line\ntier elite\n'
            'class Trooper { tier line }\n'
            'table square(n) -> number { 1 => 10\n otherwise => 0 }\n'
            'define circle(n) = n * 2\n'
            'define inside(a, b) = a + b\n'
            'procedure pieces(n) -> number { return n + 1 }\n'
            'action act(f: fighter) -> number {\n  let p = pieces(3)\n'
            '  return square(1) + circle(2) + inside(1, 1) + p\n}\n')
    compiled = compile_text(text, "own-words.rules")
    assert [d.code for d in compiled.errors] == [], compiled.errors
    from warband.run.world import FighterSpec, make_world
    ruleset = compiled.ruleset
    world = make_world(ruleset, [FighterSpec("me", fighter_class="Trooper")])
    from warband.run.world import Ref
    value, _ = Interpreter(ruleset).sample("act", {"f": Ref("fighter", 0)}, world)
    assert value == 20   # 10 + 4 + 2 + 4: each word the rules' own


# ---- a spot a player chooses ---------------------------------------------------------------------

SPOT = '''
ruleset "spot-{base}"
  extends "{base}"

counter Scorched on fighter "blasts taken"
marker rubble "A heap nobody crosses" impassable

action bomb(f: fighter) "A bomb thrown at a spot within {reach}: everyone within 1 of it is scorched"
  requires not f.removed
{{
  choose spot within {reach} of f by f "Where the bomb lands"
  for each x in fighters under circle(spot, 1) {{
    set x.Scorched += 1
  }}
}}

scenario spotted {{
  board {board}
  side a {{ {a} }}
  side b {{ {b} }}
  zone south = edge south depth {depth}
  zone north = edge north depth {depth}
  setup {{
    place rubble at {mid}
    deploy a in south
    deploy b in north
  }}
  round {{
    for each f in fighters {{ activate f using bomb }}
  }}
  rounds 3
  score a = total(x.Scorched for x in b.fighters)
  score b = total(x.Scorched for x in a.fighters)
}}
'''

SPOT_SYSTEMS = {
    "sss": dict(base="super-simple-skirmish", board="24 by 24 inches", reach=6, depth=4,
                mid="(12, 12)", a='fighter "Hero" count 3 { class Warrior  stat Might = 10 }',
                b='fighter "Foe" count 3 { class Soldier  stat Might = 10 }'),
    "sas": dict(base="swords-against-sorcery", board="8 by 8 squares", reach=2, depth=1,
                mid="(4, 4)", a='fighter "Dude" count 3 { stat Training = 3 }',
                b='fighter "Menace" count 2 { stat Training = 4 }'),
}


def _spot_game(tmp_path, system):
    path = tmp_path / f"spot-{system}.rules"
    path.write_text(SPOT.format(**SPOT_SYSTEMS[system]))
    scenario = load_scenario(str(path))
    assert not isinstance(scenario, list), [(d.code, d.message) for d in scenario]
    return scenario


def _spot_of(text: str):
    x, y = text.strip("()").split(", ")
    return (float(x), float(y))


@pytest.mark.parametrize("system", ["sss", "sas"])
def test_a_chosen_spot_is_on_the_board_within_reach_and_replays(tmp_path, system):
    """`choose spot within D of f by f`: every spot chosen (random, greedy, first) lies on the
    board, on nothing impassable, within D of the fighter, on the half-inch grid (or a cell);
    the log names it so a replay finds the very point; generated code picks as the interpreter
    does; the area at it is logged at that spot."""
    import json

    from warband.game.gamelog import check_record, game_record
    from warband.run.decisions import Policies
    scenario = _spot_game(tmp_path, system)
    reach = SPOT_SYSTEMS[system]["reach"]
    chosen = 0
    for policy in ("random", "greedy", "first"):
        for seed in range(1, 4 if policy != "greedy" else 2):
            game = Game(scenario, seed, Policies(policy), record=True)
            result = game.play()
            board, where = game.board, {}
            for e in game.log.events:
                if e["type"] == "travel":
                    where[e["fighter"]] = e["to"]
                if e["type"] == "activate":
                    actor = e["fighter"]
                if e["type"] == "decision" and e["decision"] == "spot":
                    spot = _spot_of(e["choice"])
                    assert not board.blocked(spot), (policy, seed, spot)
                    assert all((2 * c).is_integer() for c in spot)
                    f = next(f for f in game.final.fighters if f.name == actor)
                    if actor not in where:   # (it never moved: where it was deployed)
                        d = max(abs(f.position[0] - spot[0]), abs(f.position[1] - spot[1])) \
                            if board.squares else math.dist(f.position, spot)
                        assert d <= reach + 1e-9, (policy, seed, spot, f.position)
                    chosen += 1
                if e["type"] == "template":
                    assert " at (" in e["area"], e
            if policy == "random":
                record = json.loads(json.dumps(game_record("s.rules", scenario, seed, {}, None,
                                                           result, game.log.events)))
                check_record(record)
                again = Game(scenario, seed, record=True, script=record["events"])
                again.play()
                assert again.log.events == game.log.events
                slow = Game(scenario, seed, Policies(policy))
                slow.interp.compiled = False
                fast = Game(scenario, seed, Policies(policy))
                assert slow.play().scores == fast.play().scores
                assert slow.final.fighters == fast.final.fighters
    assert chosen >= 10


def test_without_a_board_a_spot_is_nowhere_and_its_area_holds_nobody(tmp_path):
    ruleset = compile_text(SPOT.format(**SPOT_SYSTEMS["sss"]), "spot.rules").ruleset
    assert ruleset is not None
    world = make_world(ruleset, [FighterSpec("a", 0, "Warrior", {"Might": 10}),
                                 FighterSpec("b", 1, "Soldier", {"Might": 10})])
    dist = Interpreter(ruleset).exact("bomb", {"f": Ref("fighter", 0)}, world,
                                      observe=lambda w: tuple(f.values["Scorched"]
                                                              for f in w.fighters))
    assert dist.only() == (None, (0, 0))   # (no result; nobody scorched)


@pytest.mark.parametrize("body, words", [
    ("choose s within 3 of f.side by f", "a spot is chosen near a fighter, a piece or a position"),
    ("choose s within d6 of f by f", "depends on a roll"),
])
def test_a_spot_checker_diagnostics(body, words):
    text = f'''ruleset "t"
stat Might: 1..10
action a(f: fighter) {{
  {body}
}}
'''
    compiled = compile_text(text, "t.rules")
    assert any(words in d.message for d in compiled.diagnostics), \
        [(d.code, d.message) for d in compiled.diagnostics]
