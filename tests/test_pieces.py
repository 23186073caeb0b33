"""Pieces as values, state on pieces and carrying (issue 21: "a board with state").

Each piece placed on the board is a value: `pieces(KIND)` is every piece of a kind, `p.holder`
the side holding it (set by the rules), flags and counters declared `on KIND` are its own, and
`pick up p by f` / `put down p` carry it. The state is the World's, so a greedy look-ahead, the
generated code and the interpreter all see it alike.

The invariants, over seeded games on two systems (Super Simple Skirmish in inches, Swords
Against Sorcery on squares): a carried piece is always where its carrier stands; a piece a
casualty carried lies where that fighter fell; a piece carried off the table is gone with its
carrier; the scores that read who holds what agree with the log's `seized` events; and the
generated code plays every game exactly as the interpreter does.

Then the pieces a player or the engine chooses: `choose ... among` a group of pieces, an
action's piece parameter (`o: objective`, one option per piece), `set p.holder = nobody` and
`p.holder == nobody`, and `put p at POSITION` (a moved piece never ends off the board or on
anything impassable; a carried or board-shaping piece cannot be moved).
"""

from __future__ import annotations

import json
import math
from fractions import Fraction

import pytest

from warband.diagnostics import render_text
from warband.game.engine import Game
from warband.game.gamelog import check_record, game_record
from warband.game.gamelog import point
from warband.game.gamelog import render_text as render_log
from warband.game.scenario import load_scenario
from warband.lang.compiler import compile_text
from warband.run.decisions import Policies
from warband.run.evaluate import RulesError
from warband.run.interpreter import Interpreter
from warband.run.world import FighterSpec, Ref, make_world, piece_position

# ---- two systems, two scenarios each ------------------------------------------------------------

SYSTEMS = {
    "sss": dict(base="super-simple-skirmish", board="24 by 24 inches", reach=6, near=3,
                a='fighter "Hero" count 3 { class Warrior  stat Might = 10 }',
                b='fighter "Foe" count 3 { class Soldier  stat Might = 10 }',
                mid="(12, 12)", left="(6, 12)", right="(18, 12)",
                turn="game_round()", hunt_turn="game_round()", depth=4),
    "sas": dict(base="swords-against-sorcery", board="8 by 8 squares", reach=2, near=1,
                a='fighter "Dude" count 3 { stat Training = 3 }',
                b='fighter "Menace" count 2 { stat Training = 4 }',
                mid="(4, 4)", left="(2, 4)", right="(7, 5)",
                turn="game_round()", depth=1,
                # (the ruleset's own round offers only its actions: this one offers ours too)
                hunt_turn="for each s in sides { for each f in s.fighters { "
                          "activate f using grab, run_off, set_down, exchange } }"),
}

HOLD = '''
ruleset "hold-{base}"
  title "Objectives seized and held"
  extends "{base}"

marker objective "A point to take and hold"
counter Held on objective "rounds some side has held it"

phase seize_objectives() "An objective with fighters of one side only near it is that side's" {{
  for each p in pieces(objective) {{
    for each s in sides {{
      if total(1 for f in s.fighters if distance(f, p) <= {near}) >= 1
          and total(1 for f in fighters if f.side != s and distance(f, p) <= {near}) == 0 {{
        set p.holder = s
      }}
    }}
    if p.held {{
      set p.Held += 1
    }}
  }}
}}

scenario holding {{
  board {board}
  side a {{ {a} }}
  side b {{ {b} }}
  zone south = edge south depth {depth}
  zone north = edge north depth {depth}
  setup {{
    place objective at {mid}
    place objective at {left}
    place objective at {right}
    deploy a in south
    deploy b in north
  }}
  round {{
    {turn}
    seize_objectives()
  }}
  rounds 5
  score a = total(1 for p in pieces(objective) if p.holder == a)
  score b = total(1 for p in pieces(objective) if p.holder == b)
}}
'''

TREASURE = '''
ruleset "treasure-{base}"
  title "A treasure to carry off the table"
  extends "{base}"

marker treasure "A chest one figure can carry"

action grab(f: fighter) "Make for a treasure nobody carries, and pick it up on reaching it"
  requires total(1 for p in pieces(treasure) if not p.carried and not p.carried_off) >= 1
{{
  for each p in pieces(treasure) {{
    if not p.carried and not p.carried_off and total(1 for q in f.carrying) == 0 {{
      travel f up to {reach} to p
      if contact(f, p) {{
        pick up p by f
      }}
    }}
  }}
}}

action run_off(f: fighter) "Carry the treasure off the table"
  requires total(1 for p in f.carrying) >= 1
{{
  withdraw f
}}

action set_down(f: fighter) "Put the treasure down"
  requires total(1 for p in f.carrying) >= 1
{{
  for each p in f.carrying {{
    put down p
  }}
}}

scenario hunt {{
  board {board}
  side a {{ {a} }}
  side b {{ {b} }}
  zone south = edge south depth {depth}
  zone north = edge north depth {depth}
  setup {{
    place treasure at {mid}
    place treasure at {left}
    deploy a in south
    deploy b in north
  }}
  round {{
    {hunt_turn}
  }}
  rounds 6
  score a = total(1 for p in pieces(treasure) if p.carried_off and p.carrier.side == a)
  score b = total(1 for p in pieces(treasure) if p.carried_off and p.carrier.side == b)
}}
'''


def _scenario(tmp_path, text: str, system: str, name: str):
    path = tmp_path / f"{name}-{system}.rules"
    path.write_text(text.format(**SYSTEMS[system]))
    scenario = load_scenario(str(path))
    assert not isinstance(scenario, list), [(d.code, d.message, d.span) for d in scenario]
    return scenario


def _play(scenario, seed: int, compiled: bool = True, record: bool = True, policy="random"):
    game = Game(scenario, seed, Policies(policy), record=record)
    game.interp.compiled = compiled
    result = game.play()
    return game, result


def _events(game, kind: str) -> list:
    return [e for e in game.log.events if e["type"] == kind]


def _record(game, result) -> dict:
    return game_record("s.rules", game.scenario, game.seed, {}, None, result, game.log.events)


# ---- holding objectives ---------------------------------------------------------------------------

@pytest.mark.parametrize("system", SYSTEMS)
def test_scores_read_who_holds_each_piece_and_the_log_says_who_seized_it(tmp_path, system):
    scenario = _scenario(tmp_path, HOLD, system, "hold")
    seized_any = False
    for seed in range(1, 9):
        game, result = _play(scenario, seed)
        world = game.final
        assert len(world.pieces) == 3 and all(p.kind == "objective" for p in world.pieces)
        # the last side the log says seized each objective is its holder at the end
        last: dict[str, str] = {}
        for e in _events(game, "seized"):
            last[e["piece"]] = e["side"]
            seized_any = True
        holders = {f"objective {i + 1}": world.sides[p.holder].name
                   for i, p in enumerate(world.pieces) if p.holder is not None}
        assert holders == last, seed
        for side in ("a", "b"):
            assert result.scores[side] == sum(1 for h in holders.values() if h == side)
        # a held piece counts up each round from the round it was first seized
        for i, p in enumerate(world.pieces):
            assert (p.values["Held"] > 0) == (p.holder is not None)
    assert seized_any, "no objective was ever seized: the test shows nothing"


@pytest.mark.parametrize("system", SYSTEMS)
@pytest.mark.parametrize("name,text", [("hold", HOLD), ("hunt", TREASURE)])
def test_generated_code_plays_pieces_as_the_interpreter_does(tmp_path, system, name, text):
    scenario = _scenario(tmp_path, text, system, name)
    for seed in range(1, 6):
        runs = [_play(scenario, seed, compiled=c, record=r)
                for c, r in ((True, False), (True, True), (False, True))]
        finals = [(g.final.pieces, [(f.removed, f.withdrawn, f.position)
                                    for f in g.final.fighters], res.scores)
                  for g, res in runs]
        assert finals[0] == finals[1] == finals[2], (system, name, seed)


# ---- carrying ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("system", SYSTEMS)
def test_carried_pieces_go_with_their_carriers_and_fall_where_they_fall(tmp_path, system):
    scenario = _scenario(tmp_path, TREASURE, system, "hunt")
    seen = {"picked_up": 0, "dropped": 0, "carried_off": 0}
    for seed in range(1, 25):
        game, result = _play(scenario, seed)
        world = game.final
        for kind in seen:
            seen[kind] += len(_events(game, kind))
        dropped_by = {e["piece"]: e for e in _events(game, "dropped")}
        for i, p in enumerate(world.pieces):
            name = f"treasure {i + 1}"
            if p.carrier is not None:
                carrier = world.fighters[p.carrier]
                if carrier.withdrawn:   # gone with its carrier
                    assert piece_position(world, i) is None
                    assert any(e["piece"] == name for e in _events(game, "carried_off"))
                else:   # always where its carrier stands
                    assert not carrier.removed and piece_position(world, i) == carrier.position
            elif name in dropped_by:   # lies where the last one to drop it stood
                who = next(f for f in world.fighters if f.name == dropped_by[name]["fighter"])
                if who.removed:   # fell: the piece lies where it fell
                    assert p.at == who.position, (seed, name)
        for side in ("a", "b"):
            assert result.scores[side] == sum(
                1 for p in world.pieces if p.carrier is not None and
                world.fighters[p.carrier].withdrawn and
                world.sides[world.fighters[p.carrier].side].name == side)
    assert seen["picked_up"] and seen["carried_off"], seen


def test_a_casualty_drops_what_it_carries_where_it_stood(tmp_path):
    """Both ways of running a removal (the interpreter's World, the generated code's Draft):
    the piece lies where its carrier stood, and the log says who dropped it where."""
    text = '''
ruleset "fall"
  extends "super-simple-skirmish"

marker treasure "A chest"

phase carry_then_fall(f: fighter) {
  for each p in pieces(treasure) {
    travel f up to 30 to p
    pick up p by f
  }
  travel f up to 5 to treasure
  remove f
}

scenario fall {
  board 24 by 24 inches
  side a { fighter "Hero" { class Warrior  stat Might = 10 } }
  side b { fighter "Foe" { class Soldier  stat Might = 10 } }
  zone south = edge south depth 4
  zone north = edge north depth 4
  setup {
    place treasure at (12, 12)
    deploy a in south
    deploy b in north
  }
  round {
    for each f in a.fighters {
      carry_then_fall(f)
    }
  }
  rounds 1
  score a = 0
  score b = 0
}
'''
    path = tmp_path / "fall.rules"
    path.write_text(text)
    scenario = load_scenario(str(path))
    assert not isinstance(scenario, list), scenario
    for compiled in (True, False):
        game, _ = _play(scenario, 1, compiled=compiled)
        world = game.final
        hero = world.fighters[0]
        assert hero.removed and not hero.withdrawn
        p = world.pieces[0]
        assert p.carrier is None and p.at == hero.position
        assert _events(game, "picked_up") == [
            {"type": "picked_up", "round": 1, "piece": "treasure 1", "fighter": "Hero"}]
        dropped = _events(game, "dropped")
        assert len(dropped) == 1 and dropped[0]["fighter"] == "Hero"
        text_log = render_log(_record(game, _))
        assert "Hero picks up treasure 1" in text_log and "is dropped by Hero" in text_log


def _rules(body: str, base: str = "super-simple-skirmish"):
    result = compile_text(f'ruleset "t"\n  extends "{base}"\n{body}', "t.rules")
    return result


def test_a_piece_that_shapes_the_board_cannot_be_carried(tmp_path):
    text = '''
ruleset "walls"
  extends "super-simple-skirmish"

marker pillar "Blocks the way" impassable

scenario s {
  board 12 by 12 inches
  side a { fighter "Hero" { class Warrior  stat Might = 10 } }
  side b { fighter "Foe" { class Soldier  stat Might = 10 } }
  zone south = edge south depth 3
  zone north = edge north depth 3
  setup {
    place pillar at (6, 6)
    deploy a in south
    deploy b in north
    for each f in a.fighters {
      for each p in pieces(pillar) {
        pick up p by f
      }
    }
  }
  round { }
  rounds 1
  score a = 0
  score b = 0
}
'''
    path = tmp_path / "walls.rules"
    path.write_text(text)
    scenario = load_scenario(str(path))
    assert not isinstance(scenario, list), scenario
    with pytest.raises(RulesError) as caught:
        _play(scenario, 1)
    d = caught.value.diagnostic
    assert d.code == "E510" and "pillar 1 cannot be carried" in d.message and d.hint
    assert d.span.line == 19


def test_putting_down_what_nobody_carries_is_an_error_with_a_hint(tmp_path):
    text = '''
ruleset "nobody"
  extends "super-simple-skirmish"

marker treasure "A chest"

scenario s {
  board 12 by 12 inches
  side a { fighter "Hero" { class Warrior  stat Might = 10 } }
  side b { fighter "Foe" { class Soldier  stat Might = 10 } }
  zone south = edge south depth 3
  zone north = edge north depth 3
  setup {
    place treasure at (6, 6)
    deploy a in south
    deploy b in north
    for each p in pieces(treasure) {
      put down p
    }
  }
  round { }
  rounds 1
  score a = 0
  score b = 0
}
'''
    path = tmp_path / "nobody.rules"
    path.write_text(text)
    scenario = load_scenario(str(path))
    assert not isinstance(scenario, list), scenario
    with pytest.raises(RulesError) as caught:
        _play(scenario, 1)
    d = caught.value.diagnostic
    assert d.code == "E510" and "nobody carries treasure 1" in d.message
    assert "if p.carried" in d.hint


# ---- the board's questions about one piece ----------------------------------------------------------

@pytest.mark.parametrize("unit,at,expect", [
    # squares: king's steps to its square; on it or next to it is contact
    ("squares", (4, 4), (0, True)), ("squares", (5, 5), (1, True)), ("squares", (6, 4), (2, False)),
    # inches: from the edge of the base to the piece's edge (a piece covers half an inch)
    ("inches", (4, 4), (0, True)), ("inches", (5, 4), (0, True)), ("inches", (7, 4), (2, False)),
])
def test_distance_and_contact_to_one_piece(tmp_path, unit, at, expect):
    text = f'''
ruleset "q"
  extends "super-simple-skirmish"

marker stone "A stone"

scenario s {{
  board 8 by 8 {unit}
  side a {{ fighter "Hero" {{ class Warrior  stat Might = 10 }} }}
  side b {{ fighter "Foe" {{ class Soldier  stat Might = 10 }} }}
  setup {{ place stone at (4, 4) }}
  round {{ }}
  rounds 1
  score a = total(distance(f, p) for f in a.fighters for p in pieces(stone))
  score b = 0
}}
'''
    path = tmp_path / "q.rules"
    path.write_text(text.replace(
        "total(distance(f, p) for f in a.fighters for p in pieces(stone))", "0"))
    scenario = load_scenario(str(path))
    assert not isinstance(scenario, list), scenario
    game = Game(scenario, 1)
    world = game.placement.place(scenario.decl.setup.stmts[0], (4, 4), None, None, None, None,
                                 None, scenario.start())
    world = world.place(Ref("fighter", 0), at)
    piece = Ref("piece", 0)
    assert game.interp.board.pieces("stone", world) == (piece,)
    assert (game.interp.board.distance(Ref("fighter", 0), piece, world),
            game.interp.board.contact(Ref("fighter", 0), piece, world)) == expect


# ---- without a board: the odds of one action ---------------------------------------------------------

def test_without_a_board_there_are_no_pieces_and_odds_stay_exact():
    """The odds of one action have no board: `pieces(KIND)` is empty, as a game before any piece
    is placed; the action's dice keep their exact odds (checked against counting the faces)."""
    result = _rules('''
marker objective "A point to hold"
counter Supply on objective

action forage(f: fighter) -> number "A d6, plus one for each objective held"
{
  return d6 + total(1 for p in pieces(objective) if p.held)
      + total(p.Supply for p in pieces(objective))
}
''')
    assert not [d for d in result.diagnostics if d.is_error], render_text(result.diagnostics,
                                                                          result.sources)
    ruleset = result.ruleset
    interp = Interpreter(ruleset, Policies("random"))
    world = make_world(ruleset, [FighterSpec("A", 0, "Warrior", {"Might": 10}),
                                 FighterSpec("B", 1, "Soldier", {"Might": 10})])
    dist = interp.exact("forage", {"f": Ref("fighter", 0)}, world)
    brute: dict[int, int] = {}
    for face in range(1, 7):   # by hand: every face of the d6, no piece to add
        brute[face] = brute.get(face, 0) + 1
    assert dict(dist.items()) == {v: Fraction(n, 6) for v, n in brute.items()}


# ---- the checker -------------------------------------------------------------------------------------

def test_state_is_declared_on_a_kind_of_marker_and_read_only_from_its_pieces():
    ok = _rules('''
marker objective "A point to hold"
marker treasure "A chest"
counter Supply on objective from 2
flag Burning on treasure

phase burn() {
  for each p in pieces(treasure) {
    set p.Burning = true
  }
  for each p in pieces(objective) {
    set p.Supply -= 1
    if p.Supply <= 0 {
      set p.holder = sides
    }
  }
}
''')
    errors = [d for d in ok.diagnostics if d.is_error]
    # only the last mistake: a holder is one side, not every side
    assert [d.code for d in errors] == ["E302"], render_text(errors, ok.sources)
    crossed = _rules('''
marker objective "A point to hold"
marker treasure "A chest"
flag Burning on treasure

phase burn() {
  for each p in pieces(objective) {
    set p.Burning = true
  }
}
''')
    errors = [d for d in crossed.diagnostics if d.is_error]
    assert [d.code for d in errors] == ["E316"]
    assert "a piece of 'objective' has no field 'Burning'" in errors[0].message
    fixed = _rules('''
marker objective "A point to hold"

phase hold(s: side) {
  for each p in pieces(objective) {
    set p.held = true
  }
}
''')
    errors = [d for d in fixed.diagnostics if d.is_error]
    assert [d.code for d in errors] == ["E308"] and "set p.holder = s" in errors[0].hint


def test_a_flag_on_a_marker_does_not_become_a_fighters():
    result = _rules('''
marker treasure "A chest"
flag Burning on treasure

define hot(f: fighter) = f.Burning
''')
    errors = [d for d in result.diagnostics if d.is_error]
    assert [d.code for d in errors] == ["E203"], render_text(errors, result.sources)


def test_the_record_of_a_game_with_pieces_replays(tmp_path):
    """The new events are part of a record (its keys checked as a replay checks them), and a
    replay of its choices plays the same game, events and all."""
    scenario = _scenario(tmp_path, TREASURE, "sss", "hunt")
    for seed in range(1, 9):
        game, result = _play(scenario, seed)
        if _events(game, "picked_up"):
            break
    record = json.loads(json.dumps(_record(game, result)))
    check_record(record)
    kinds = {e["type"] for e in record["events"]}
    assert "picked_up" in kinds, kinds
    again = Game(scenario, game.seed, record=True, script=record["events"])
    again.play()
    assert again.log.events == game.log.events


# ---- moves the rules choose: into a zone, out of contact ---------------------------------------------

MOVES = '''
ruleset "moves-{base}"
  extends "{base}"

phase home(f: fighter) "Off the table by the south edge" {{
  travel f up to {reach} to south
  if inside(f, south) {{
    withdraw f
  }}
}}

phase slip(f: fighter) "Out of contact with every enemy" {{
  travel f up to {reach} not into contact
}}

scenario moving {{
  board {board}
  side a {{ {a} }}
  side b {{ {b} }}
  zone south = edge south depth {depth}
  zone north = edge north depth {depth}
  round {{ }}
  rounds 1
  score a = 0
  score b = 0
}}
'''


def _moves(tmp_path, system: str):
    return _scenario(tmp_path, MOVES, system, "moves")


def _run(scenario, phase: str, spots: list, seed: int):
    """Fighter 0 runs the phase; fighters 1.. stand at the rest of `spots` (those not given are
    off the board). (the world after, the game)."""
    game = Game(scenario, seed, record=True)
    world = scenario.start()
    for i, at in enumerate(spots):
        world = world.place(Ref("fighter", i), at)
    for i in range(len(spots), len(world.fighters)):
        world = world.remove(Ref("fighter", i))
    _, after = game.interp.run_nested(scenario.ruleset.procedures[phase],
                                      {"f": Ref("fighter", 0)}, world)
    return after, game


def _random_spots(rng, system: str, n: int) -> list:
    if system == "sas":   # squares 1..8
        cells = rng.sample([(x, y) for x in range(1, 9) for y in range(1, 9)], n)
        return cells
    spots: list = []
    while len(spots) < n:
        p = (rng.randrange(2, 44) / 2, rng.randrange(2, 44) / 2)
        if all(math.dist(p, q) >= 1 for q in spots):
            spots.append(p)
    return spots


@pytest.mark.parametrize("system", SYSTEMS)
def test_a_move_into_a_zone_goes_the_shortest_way_and_ends_inside_when_in_reach(tmp_path, system):
    """Into the south edge zone: a fighter already there stays; one whose straight way is
    short enough and free ends inside it (and `inside` then holds, so it withdraws); it never
    moves further than its reach."""
    import random
    scenario = _moves(tmp_path, system)
    rng = random.Random(21)
    squares = system == "sas"
    reach, depth = SYSTEMS[system]["reach"], SYSTEMS[system]["depth"]
    for seed in range(40):
        spots = _random_spots(rng, system, 2)
        after, game = _run(scenario, "home", spots, seed)
        hero = after.fighters[0]
        start = spots[0]
        edge = start[1] - (1 if squares else 0) - (depth - (1 if squares else 0.5))
        if edge <= 0:   # already in the zone: withdrawn where it stood
            assert hero.withdrawn and hero.position == start
            continue
        end = hero.position
        walked = max(abs(end[0] - start[0]), abs(end[1] - start[1])) if squares else \
            math.dist(start, end)
        assert walked <= reach + 1e-6
        if edge <= reach and not hero.withdrawn:   # in reach: only a blocker stops it
            blocker = spots[1]
            assert abs(blocker[0] - start[0]) <= 2 and blocker[1] < start[1], (seed, spots, end)
        if hero.withdrawn:
            assert game.interp.board.inside(Ref("fighter", 0), "south", after)


@pytest.mark.parametrize("system", SYSTEMS)
def test_a_move_not_into_contact_ends_out_of_contact_with_every_enemy(tmp_path, system):
    """From base contact with an enemy: wherever the player takes it, f ends touching no
    enemy, within its reach; where no such place exists it stays, and the log says why."""
    import random
    scenario = _moves(tmp_path, system)
    rng = random.Random(5)
    squares = system == "sas"
    reach = SYSTEMS[system]["reach"]
    moved = 0
    for seed in range(40):
        start = _random_spots(rng, system, 1)[0]
        # an enemy in contact: next to it
        enemy = (start[0] + 1, start[1]) if squares else (start[0] + 1.0, start[1])
        if squares and enemy[0] > 8 or not squares and enemy[0] > 23.5:
            enemy = (start[0] - 1, start[1]) if squares else (start[0] - 1.0, start[1])
        spots = [start, enemy]
        if system == "sas":   # (the hero is fighter 0, side a; fighter 3 is the first Menace)
            spots = [start, (1, 1), (1, 2), enemy] if start not in ((1, 1), (1, 2)) else None
            if spots is None or enemy in ((1, 1), (1, 2)):
                continue
        else:
            spots = [start, (0.5, 23.5), (1.5, 23.5), enemy]
            if min(math.dist(start, q) for q in spots[1:3]) < 1 or \
                    min(math.dist(enemy, q) for q in spots[1:3]) < 1:
                continue
        after, game = _run(scenario, "slip", spots, seed)
        end = after.fighters[0].position
        q = game.interp.board.contact
        touching = q(Ref("fighter", 0), Ref("fighter", 3), after)
        stuck = [e for e in game.log.events if e["type"] == "stuck"]
        if end == start:
            assert stuck and "out of contact" in stuck[0]["why"], (seed, spots)
            continue
        moved += 1
        assert not touching, (seed, spots, end)
        walked = max(abs(end[0] - start[0]), abs(end[1] - start[1])) if squares else \
            math.dist(start, end)
        assert walked <= reach + 1e-6
    assert moved >= 20


def test_reading_a_holder_or_carrier_that_is_nobody_is_an_error_not_a_crash(tmp_path):
    """`p.carrier.side` before anyone carries p: E510 with a hint, in generated code and in
    the interpreter alike (not a fault of either)."""
    text = '''
ruleset "nobody-home"
  extends "super-simple-skirmish"

marker treasure "A chest"

scenario s {
  board 12 by 12 inches
  side a { fighter "Hero" { class Warrior  stat Might = 10 } }
  side b { fighter "Foe" { class Soldier  stat Might = 10 } }
  zone south = edge south depth 3
  zone north = edge north depth 3
  setup {
    place treasure at (6, 6)
    deploy a in south
    deploy b in north
  }
  round { }
  rounds 1
  score a = total(1 for p in pieces(treasure) if p.carrier.side == a)
  score b = total(1 for p in pieces(treasure) if p.holder.conceded)
}
'''
    path = tmp_path / "nobody.rules"
    path.write_text(text)
    scenario = load_scenario(str(path))
    assert not isinstance(scenario, list), scenario
    for compiled in (True, False):
        with pytest.raises(RulesError) as caught:
            _play(scenario, 1, compiled=compiled)
        d = caught.value.diagnostic
        assert d.code == "E510" and "'p.carrier' is nobody here" in d.message, d.message
        assert d.span.line == 20 and "if p.carried" in d.hint


CLAIM = HOLD.replace("""    seize_objectives()
  }}""", """    seize_objectives()
    for each s in sides {{
      claim(s)
    }}
  }}""").replace("""scenario holding""", """phase claim(s: side) "The side names an objective nobody holds as its own" {{
  if total(1 for p in pieces(objective) if not p.held) >= 1 {{
    choose claimed by s among all(p for p in pieces(objective) if not p.held)
      "Which free objective to claim"
    set claimed.holder = s
  }}
}}

scenario holding""")


@pytest.mark.parametrize("system", SYSTEMS)
def test_a_player_chooses_among_pieces_and_the_log_names_the_piece(tmp_path, system):
    """`choose ... among` a group of pieces: every policy picks one (random, greedy, first, or
    one named by its kind and number), the log names it so, a record replays it, and the
    generated code picks as the interpreter does."""
    scenario = _scenario(tmp_path, CLAIM, system, "claim")
    named = set()
    for seed in range(1, 5):
        game, result = _play(scenario, seed)
        picks = [e for e in game.log.events if e["type"] == "decision"
                 and e.get("decision") == "claimed"]
        assert picks, seed
        for e in picks:
            assert e["choice"] in ("objective 1", "objective 2", "objective 3"), e
            named.add(e["choice"])
        record = json.loads(json.dumps(_record(game, result)))
        check_record(record)
        again = Game(scenario, seed, record=True, script=record["events"])
        again.play()
        assert again.log.events == game.log.events
        interpreted, _ = _play(scenario, seed, compiled=False)
        assert interpreted.final.pieces == game.final.pieces, seed
        greedy, _ = _play(scenario, seed, policy="greedy")
        assert greedy.final.pieces
    assert len(named) >= 2, named
    # a policy names a piece: the first side claims objective 3 while it is free
    game = Game(scenario, 1, Policies("random", by_decision={"claimed": "objective 3"}),
                record=True)
    game.play()
    first = next(e for e in game.log.events if e.get("decision") == "claimed")
    assert first["choice"] == "objective 3", first


LET_GO = HOLD.replace("""    if p.held {{
      set p.Held += 1
    }}""", """    if p.holder != nobody and total(1 for f in fighters if distance(f, p) <= {near}) == 0 {{
      set p.holder = nobody
    }}
    if p.held {{
      set p.Held += 1
    }}""")


@pytest.mark.parametrize("system", SYSTEMS)
def test_a_piece_let_go_has_nobody_as_its_holder(tmp_path, system):
    """`set p.holder = nobody` lets a piece go (the log says `released`), `p.holder == nobody`
    asks it safely, and the generated code does as the interpreter does."""
    scenario = _scenario(tmp_path, LET_GO, system, "letgo")
    released = 0
    for seed in range(1, 9):
        game, result = _play(scenario, seed)
        interpreted, again = _play(scenario, seed, compiled=False)
        assert interpreted.final.pieces == game.final.pieces and again.scores == result.scores
        last: dict = {}
        for e in game.log.events:
            if e["type"] in ("seized", "released"):
                last[e["piece"]] = e.get("side")
                released += e["type"] == "released"
        for i, p in enumerate(game.final.pieces):
            side = game.final.sides[p.holder].name if p.holder is not None else None
            assert last.get(f"objective {i + 1}") == side, seed
    assert released, "no objective was ever let go: the test shows nothing"


SHIFT = TREASURE.replace("""action run_off(f: fighter)""", """marker banner "A standard the nearest fighter plants where it stands"

phase plant() "Each round the banner goes to where the fighter nearest it stands" {{
  for each p in pieces(banner) {{
    for each f in fighters by lowest distance(f, p) {{
      if not p.carried {{
        put p at f.position
      }}
      return
    }}
  }}
}}

action run_off(f: fighter)""").replace("""    place treasure at {mid}""", """    place treasure at {mid}
    place banner at {left}""")


def _shift_scenario(tmp_path, system):
    text = SHIFT.format(**SYSTEMS[system]).replace(
        SYSTEMS[system]["hunt_turn"], SYSTEMS[system]["hunt_turn"] + "\n    plant()", 1)
    path = tmp_path / f"shift-{system}.rules"
    path.write_text(text)
    scenario = load_scenario(str(path))
    assert not isinstance(scenario, list), [(d.code, d.message, d.span) for d in scenario]
    return scenario


@pytest.mark.parametrize("system", SYSTEMS)
def test_a_moved_piece_lies_where_it_was_put_and_never_off_the_board(tmp_path, system):
    """`put p at f.position` moves a piece: after each round the banner lies where the fighter
    nearest it stood, on the board and on nothing impassable; the log tells the move; the
    generated code moves it as the interpreter does."""
    scenario = _shift_scenario(tmp_path, system)
    moved = 0
    for seed in range(1, 7):
        game, result = _play(scenario, seed)
        board = game.board
        banner = next(i for i, p in enumerate(game.final.pieces) if p.kind == "banner")
        at = game.final.pieces[banner].at
        assert at is not None and not board.blocked(at), (seed, at)
        moves = [e for e in game.log.events if e["type"] == "place"
                 and e["marker"] == "banner 1"]
        moved += len(moves)
        if moves:
            assert moves[-1]["at"] == point(at), seed
        interpreted, again = _play(scenario, seed, compiled=False)
        assert interpreted.final.pieces == game.final.pieces and again.scores == result.scores
        check_record(json.loads(json.dumps(_record(game, result))))
    assert moved, "the banner never moved: the test shows nothing"


def test_a_carried_or_fixed_piece_cannot_be_moved(tmp_path):
    """`put p at ...` on a piece someone carries, on one that shapes the board, or to a
    position that is none or blocked: E510 with a hint, both ways of running the rules."""
    text = MOVES.replace("""phase slip(f: fighter)""", """marker coin "A coin"
marker pillar "A pillar" impassable

phase steal(f: fighter) {{
  for each p in pieces(coin) {{
    pick up p by f
    put p at f.position
  }}
}}

phase wall(f: fighter) {{
  for each p in pieces(pillar) {{
    put p at f.position
  }}
}}

phase onto(f: fighter) {{
  for each p in pieces(coin) {{
    for each q in pieces(pillar) {{
      put p at q.position
    }}
  }}
}}

phase slip(f: fighter)""").replace("round {{ }}", """setup {{
    place coin at (12, 12)
    place pillar at (6, 6)
  }}
  round {{ }}""")
    scenario = _scenario(tmp_path, text, "sss", "stuck")
    for phase, words in (("steal", "is carried by"), ("wall", "shapes the board"),
                         ("onto", "nothing may stand there")):
        for compiled in (True, False):
            game = Game(scenario, 1, record=True)
            game.interp.compiled = compiled
            game.play()   # (the set-up: the coin, the pillar, nobody deployed yet)
            world = game.final.place(Ref("fighter", 0), (3, 3))
            with pytest.raises(RulesError) as caught:
                game.interp.run_nested(scenario.ruleset.procedures[phase],
                                       {"f": Ref("fighter", 0)}, world)
            d = caught.value.diagnostic
            assert d.code == "E510" and words in d.message, (phase, d.message)
            assert d.hint


SEIZE = HOLD.replace("""phase seize_objectives()""", """action seize(f: fighter, o: objective) "Make for an objective the side does not hold; seize it there"
  requires o.holder != f.side and not engaged(f)
{{
  travel f up to {reach} to o
  if contact(f, o) {{
    set o.holder = f.side
  }}
}}

phase seize_objectives()""").replace("{turn}", "{seize_turn}")


@pytest.mark.parametrize("system", SYSTEMS)
def test_an_action_takes_a_piece_and_the_engine_offers_each_one(tmp_path, system):
    """A parameter typed by a kind of marker (`o: objective`): the engine offers the action once
    for each piece of the kind whose `requires` holds, the log names the piece, a record
    replays it, and the generated code plays as the interpreter does."""
    turn = ("for each s in sides { for each f in s.fighters { activate f using seize, "
            + ("exchange" if system == "sas" else "move") + " } }")
    text = SEIZE.replace("{seize_turn}", turn.replace("{", "{{").replace("}", "}}"))
    scenario = _scenario(tmp_path, text, system, "seize")
    named = set()
    for seed in range(1, 7):
        game, result = _play(scenario, seed)
        for e in game.log.events:
            if e["type"] == "activate" and e["action"].startswith("seize"):
                named.add(e["action"])
        # each option offered names a piece whose side did not hold it then: checked at the end
        # by asking the engine what it offers
        world = game.final
        for i, f in enumerate(world.fighters):
            if f.removed:
                continue
            offered = game.players.legal(Ref("fighter", i), ("seize",), world)
            held = {j for j, p in enumerate(world.pieces) if p.holder == f.side}
            assert {args["o"].index for _, args in offered} <= \
                set(range(len(world.pieces))) - held
        record = json.loads(json.dumps(_record(game, result)))
        check_record(record)
        again = Game(scenario, seed, record=True, script=record["events"])
        again.play()
        assert again.log.events == game.log.events
        interpreted, _ = _play(scenario, seed, compiled=False)
        assert interpreted.final.pieces == game.final.pieces, seed
    assert {a.split(" ", 1)[1] for a in named} >= {"objective 1", "objective 2"}, named
    greedy, _ = _play(scenario, 1, policy="greedy")
    assert greedy.final.pieces


def test_a_piece_parameter_without_a_board_says_why_it_has_no_value():
    result = _rules('''
marker beacon "A beacon"

action seize(f: fighter, b: beacon) requires b.holder != f.side {
  set b.holder = f.side
}
''')
    assert not [d for d in result.diagnostics if d.is_error]
    interp = Interpreter(result.ruleset)
    world = make_world(result.ruleset, [FighterSpec("A", 0, "Warrior", {"Might": 10})])
    for compiled in (True, False):
        interp.compiled = compiled
        with pytest.raises(RulesError) as caught:
            interp.run_nested(result.ruleset.procedures["seize"], {"f": Ref("fighter", 0)}, world)
        d = caught.value.diagnostic
        assert d.code == "E301" and "lie on a board" in d.hint, d


# ---- position as a value ------------------------------------------------------------------------------

@pytest.mark.parametrize("system", SYSTEMS)
def test_a_piece_placed_at_a_fighters_position_stands_there(tmp_path, system):
    """`place KIND at f.position`: the piece is where the fighter stands (distance 0, contact);
    `p.position` is that position; `distance(f, POSITION)` measures to a point."""
    text = MOVES.replace('''phase slip(f: fighter)''', '''marker cairn "Where someone stood"

phase mark(f: fighter) "A cairn where f stands" {{
  place cairn at f.position
}}

phase slip(f: fighter)''')
    scenario = _scenario(tmp_path, text, system, "cairn")
    squares = system == "sas"
    for seed, (start, other) in enumerate([((4, 4), (6, 6)), ((2, 7), (7, 2))]):
        if not squares:
            start, other = (start[0] * 2.5, start[1] * 2.5), (other[0] * 2.5, other[1] * 2.5)
        after, game = _run(scenario, "mark", [start, other], seed)
        q = game.interp.board
        hero, them = Ref("fighter", 0), Ref("fighter", 1)
        (cairn,) = q.pieces("cairn", after)
        assert after.pieces[0].at == start
        assert q.distance(hero, cairn, after) == 0 and q.contact(hero, cairn, after)
        assert q.distance(them, start, after) == q.distance(them, hero, after) + (
            0 if squares else Fraction(1, 2))   # (to a point: from one base's edge only)
        assert game.interp.field(cairn, "position", after) == start
        place = [e for e in game.log.events if e["type"] == "place"]
        assert len(place) == 1 and place[0]["marker"] == "cairn"


def test_a_position_off_the_board_has_nowhere_to_place_a_piece(tmp_path):
    text = MOVES.replace('''phase slip(f: fighter)''', '''marker cairn "Where someone stood"

phase mark(f: fighter) "A cairn where f stands" {{
  place cairn at f.position
}}

phase slip(f: fighter)''')
    scenario = _scenario(tmp_path, text, "sss", "cairn")
    game = Game(scenario, 1, record=True)
    world = scenario.start()   # nobody deployed: no positions
    with pytest.raises(RulesError) as caught:
        game.interp.run_nested(scenario.ruleset.procedures["mark"], {"f": Ref("fighter", 0)},
                               world)
    d = caught.value.diagnostic
    assert d.code == "E510" and "off the board" in d.message and d.hint


def test_a_rules_file_that_declares_nobody_keeps_its_own():
    """`nobody` is a word, not a keyword: an enum value of that name is the file's own, read
    as such by the checker, the interpreter and the generated code."""
    result = _rules('''
enum Who { nobody someone }
stat Blame: Who default nobody

action blamed(f: fighter) -> bool {
  return f.Blame == nobody
}
''')
    assert not [d for d in result.diagnostics if d.is_error], result.diagnostics
    world = make_world(result.ruleset, [FighterSpec("A", 0, "Warrior", {"Might": 10})])
    for compiled in (True, False):
        interp = Interpreter(result.ruleset)
        interp.compiled = compiled
        assert interp.exact("blamed", {"f": Ref("fighter", 0)}, world).only() is True
