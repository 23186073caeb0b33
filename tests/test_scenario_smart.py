"""The SMART dungeon (scenarios/smart-dungeon.rules) played by the engine: walls that block
movement and sight, the turn of the SMART rules on a board (initiative, the move, projectiles,
hand-to-hand), experience at the end, and games that end, repeat and replay.

The expected figures come from the rule text (11+ on a d20, +1 past 30", level squared), worked
by hand, never read back from the rules."""

from __future__ import annotations

import json
import math
from fractions import Fraction as F

import pytest
from typer.testing import CliRunner

from warband.cli import app
from warband.game.board import _segments_cross
from warband.game.engine import Game
from warband.game.scenario import load_scenario
from warband.run.decisions import Policies
from warband.run.world import FighterSpec, Ref, make_world

SCENARIO = "smart-dungeon"
HITS = ("defeated", "wounded", "absorbed")


@pytest.fixture(scope="module")
def dungeon():
    scenario = load_scenario(SCENARIO)
    assert not isinstance(scenario, list), scenario
    return scenario


def unit(name, side, cls, equipment=(), position=None, **stats):
    return FighterSpec(name, side, cls, stats, equipment=tuple(equipment), position=position)


def table(dungeon, *fighters, policy="first", seed=0):
    """A game of the scenario whose set-up has built the dungeon, with these fighters on it at
    their positions (instead of the scenario's forces)."""
    game = Game(dungeon, seed, Policies(policy), record=True)
    specs = [FighterSpec(f.name, f.side, f.fighter_class, f.stats, equipment=f.equipment)
             for f in fighters]
    world = make_world(dungeon.ruleset, specs, [{}, {}], dungeon.side_names)
    _, world = game.interp.run_nested(game.blocks["setup"], {}, world)
    for i, f in enumerate(fighters):
        world = world.place(Ref("fighter", i), f.position)
    return game, world


def odds(game, action, args, world):
    dist = game.interp.run_nested(game.ruleset.procedures[action], args, world, exact=True,
                                  observe=lambda w: 0)
    return dist.map(lambda pair: pair[0])


def p_hit(result) -> F:
    return sum((result[o] for o in HITS), F(0))


def walls(game):
    return [p for p in game.board.pieces if p.to is not None]


def record(*args) -> dict:
    result = CliRunner().invoke(app, ["play", SCENARIO, *args, "--format", "json"])
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


A, T = Ref("fighter", 0), Ref("fighter", 1)


# ---- the dungeon's walls -----------------------------------------------------------------------

def test_a_unit_behind_a_wall_cannot_be_seen_or_shot(dungeon):
    # the archer in the entrance hall, the goblin in the corridor: the hall's east wall between
    game, world = table(dungeon, unit("archer", 0, "Archer", position=(8, 6)),
                        unit("goblin", 1, "Goblin", position=(15, 12)))
    assert game.ask("sees", [A, T], world) is False
    assert not game.interp.allowed("shoot", {"archer": A, "target": T}, world)
    # through the door the way is clear, and the shot allowed
    world = world.place(A, (8, 12))
    assert game.ask("sees", [A, T], world) is True
    assert game.interp.allowed("shoot", {"archer": A, "target": T}, world)


def test_nobody_walks_through_a_wall(dungeon):
    # the goblin outside the hall's south wall can be walked towards, never reached
    game, world = table(dungeon, unit("spearman", 0, "Infantry", position=(5, 6)),
                        unit("goblin", 1, "Goblin", position=(5, 2)),
                        policy="towards goblin")
    after = game.travel(A, 6, False, world)
    x, y = after.fighter(A).position
    assert y >= 4.5 and not game.board.blocked((x, y))


def test_a_move_goes_round_the_walls_through_the_door(dungeon):
    # from the hall's south-east corner to a goblin in the corridor: the straight line meets
    # the hall's east wall, so the move goes by the door (y 10-14) instead
    game, world = table(dungeon, unit("spearman", 0, "Infantry", position=(8, 6)),
                        unit("goblin", 1, "Goblin", position=(16, 12)),
                        policy="towards goblin")
    path = game.board._path((8, 6), (16, 12), 1.0, [(16, 12)])
    assert path
    here = (8, 6)
    for point in path:
        assert not game.board.blocked(point)
        for wall in walls(game):
            assert not _segments_cross(here, point, wall.at, wall.to)
        here = point
    after = game.travel(A, 12, False, world)
    x, y = after.fighter(A).position
    assert x > 10 and 10.5 <= y <= 13.5            # through the door, into the corridor
    assert math.dist((x, y), (16, 12)) < math.dist((8, 6), (16, 12))


def test_every_position_of_every_game_stays_inside_the_dungeon(dungeon):
    """Every move of whole games ends where a base fits, in the rooms and corridor joined to
    the hall by doors (a unit that went through a wall would end up in the rock around them)."""
    for seed in range(3):
        game = Game(dungeon, seed, Policies("random"), record=True)
        game.play()
        free = game.board._free()
        start = (4.0, 12.0)
        inside, todo = {start}, [start]
        while todo:
            x, y = todo.pop()
            for dx in (-0.5, 0, 0.5):
                for dy in (-0.5, 0, 0.5):
                    q = (x + dx, y + dy)
                    if q in free and q not in inside:
                        inside.add(q)
                        todo.append(q)
        for event in game.log.events:
            if event.get("type") == "travel":
                x, y = (float(v) for v in event["to"])
                assert not game.board.blocked((x, y)), event
                snapped = (round(x * 2) / 2, round(y * 2) / 2)
                assert any(math.dist(snapped, (snapped[0] + dx, snapped[1] + dy)) <= 0.8 and
                           (snapped[0] + dx, snapped[1] + dy) in inside
                           for dx in (-0.5, 0, 0.5) for dy in (-0.5, 0, 0.5)), event


# ---- the turn ----------------------------------------------------------------------------------

def test_initiative_is_a_d20_per_side_and_the_highest_moves_first():
    events = record("--seed", "4")["events"]
    checked = 0
    rolls, first_mover = [], None
    for event in events + [{"type": "round"}]:
        if event.get("type") == "round":
            if len(rolls) >= 2 and first_mover is not None:
                party, monsters = rolls[-2:]            # a tie is rolled again: the last pair
                assert party != monsters
                assert first_mover == ("party" if party > monsters else "monsters")
                checked += 1
            rolls, first_mover = [], None
        elif event.get("type") == "roll" and first_mover is None:
            rolls.append(event["value"])
        elif event.get("type") == "activate" and first_mover is None:
            first_mover = event["side"]
    assert checked >= 5


def test_projectiles_use_the_range_penalty_past_30_inches(dungeon):
    # along the corridor from the hall to the lair: 33" between the bases needs 12+ (1st level
    # against 1st level), 18" needs 11+
    game, world = table(dungeon, unit("archer", 0, "Archer", position=(1, 12.5)),
                        unit("goblin", 1, "Goblin", position=(35, 12.5)))
    assert game.ask("distance", [A, T], world) == 33
    assert p_hit(odds(game, "shoot", {"archer": A, "target": T}, world)) == F(9, 20)
    world = world.place(T, (20, 12.5))
    assert p_hit(odds(game, "shoot", {"archer": A, "target": T}, world)) == F(10, 20)


def test_the_rubble_is_intervening_terrain(dungeon):
    # the rubble at (20, 11) stands between: after a hit (11+), 1-10 on a d20 hits the rubble
    game, world = table(dungeon, unit("archer", 0, "Archer", position=(12, 11)),
                        unit("goblin", 1, "Goblin", position=(28, 11)))
    result = odds(game, "shoot", {"archer": A, "target": T}, world)
    assert result["obstacle"] == F(10, 20) * F(1, 2)
    assert p_hit(result) == F(10, 20) * F(1, 2)


def test_hand_to_hand_only_within_1_inch(dungeon):
    game, world = table(dungeon, unit("spearman", 0, "Infantry", ("Spear",), position=(5, 12)),
                        unit("goblin", 1, "Goblin", position=(6.8, 12)))    # 0.8" apart
    for action in ("blow", "melee_round"):
        assert game.interp.allowed(action, {"attacker": A, "target": T}, world)
    world = world.place(T, (7.5, 12))                                       # 1.5" apart
    for action in ("blow", "melee_round"):
        assert not game.interp.allowed(action, {"attacker": A, "target": T}, world)


def pairs(dungeon):
    game, world = table(dungeon,
                        unit("sergeant", 0, "Infantry", ("Halberd",), position=(3, 8)),
                        unit("spearman", 0, "Infantry", ("Spear",), position=(3, 16)),
                        unit("goblin", 1, "Goblin", ("Dagger",), position=(4, 8)),
                        unit("skeleton", 1, "Skeleton", ("Sword",), position=(4, 16)))
    return game, world


def activations(game, world, phase="hand_to_hand_step"):
    game.interp.run_nested(game.ruleset.procedures[phase], {}, world)
    return [e["fighter"] for e in game.log.events if e.get("type") == "activate"]


def test_hand_to_hand_longest_weapon_first_in_a_new_combat(dungeon):
    game, world = pairs(dungeon)
    # halberd 4, spear 3: each begins an exchange (melee_round) with the unit it touches
    assert activations(game, world) == ["sergeant", "spearman"]


def test_hand_to_hand_shortest_weapon_first_when_the_combat_goes_on(dungeon):
    game, world = pairs(dungeon)
    for i in range(4):   # as if all four fought last turn: their combats go on
        world = world.set(Ref("fighter", i), "Fought", True)
    # dagger 1, then sword 2: the order reversed
    assert activations(game, world) == ["goblin", "skeleton"]


# ---- experience, the end, repeatable games -------------------------------------------------------

def test_xp_is_awarded_at_the_end_to_surviving_humans_as_written(dungeon):
    # seed 4: a game where no missile fired into hand-to-hand struck its own side (a monster
    # felled by a monster's sling is defeated, but by no human)
    game = Game(dungeon, 4, Policies("random"), record=True)
    outcome = game.play()
    world = game.final   # (after the aftermath, which awards the XP)
    humans = [f for f in world.fighters if world.sides[f.side].name == "party"]
    monsters = [f for f in world.fighters if world.sides[f.side].name == "monsters"]
    start = {f.name: f.stats.get("XP", 0) for f in dungeon.forces[0]}
    # every monster a human defeated is worth its level squared to that human
    defeated = sum(f.values["Level"] ** 2 for f in monsters if f.removed)
    assert sum(f.values["Earned"] for f in humans) == defeated > 0
    changes = {e["fighter"]: (e["old"], e["new"]) for e in game.log.events
               if e.get("type") == "change" and e["field"] == "XP"}
    for f in humans:
        if f.removed:          # a unit defeated in the dungeon takes nothing home
            assert f.values["XP"] == start[f.name] and f.name not in changes
        elif f.values["Earned"]:
            assert f.values["XP"] == start[f.name] + f.values["Earned"]
            assert changes[f.name] == (start[f.name], f.values["XP"])
    assert outcome.scores["party"] == defeated


def test_the_pinned_game_awards(dungeon):
    game = record("--seed", "2")
    assert game["result"]["scores"] == {"party": 28, "monsters": 1}
    events = game["events"]
    changes = [(e["fighter"], e["old"], e["new"]) for e in events
               if e.get("type") == "change" and e["field"] == "XP"]
    assert changes == PINNED_AWARDS


def test_every_game_ends_within_the_limit(dungeon):
    for seed in range(12):
        result = Game(dungeon, seed, Policies("random")).play()
        assert result.rounds <= 20
        assert result.ended in ("limit", "condition", "eliminated")
        if result.ended == "limit":
            assert result.rounds == 20


def test_same_seed_same_game():
    assert record("--seed", "5") == record("--seed", "5")
    assert record("--seed", "5") != record("--seed", "6")


def test_a_recorded_game_replays(tmp_path):
    path = tmp_path / "game.json"
    played = CliRunner().invoke(app, ["play", SCENARIO, "--seed", "3", "-o", str(path)])
    assert played.exit_code == 0, played.output
    again = CliRunner().invoke(app, ["play", "--replay", str(path)])
    assert again.exit_code == 0, again.output
    text = CliRunner().invoke(app, ["play", SCENARIO, "--seed", "3"])
    assert again.stdout == text.stdout


def test_update_writes_each_surviving_humans_new_xp_into_the_warband(tmp_path):
    """`warband play smart-dungeon --update`, on a copy of the scenario and its warband: each
    human that came home has its new XP in the file (its level follows from it in the next
    game); the Spearman entry (count 2), whose two units earned differently, is split. Seed 2:
    Sir Bors 54 -> 67, Sergeant Wat 30 -> 34, Spearman 1 6 -> 9, Robin 24 -> 30, Bowman 0 -> 2
    (PINNED_AWARDS)."""
    import os
    import subprocess
    import sys
    from pathlib import Path
    root = Path(__file__).resolve().parents[1]
    for folder in ("scenarios", "warbands"):
        (tmp_path / folder).mkdir()
    (tmp_path / "scenarios" / "smart-dungeon.rules").write_text(
        (root / "scenarios" / "smart-dungeon.rules").read_text())
    before = (root / "warbands" / "dungeon-delvers.yaml").read_text()
    file = tmp_path / "warbands" / "dungeon-delvers.yaml"
    file.write_text(before)
    env = {**os.environ, "PYTHONPATH": str(root / "toolkit")}
    played = subprocess.run([sys.executable, "-m", "warband", "play",
                             "scenarios/smart-dungeon.rules", "--seed", "2", "--update"],
                            capture_output=True, text=True, cwd=tmp_path, env=env, timeout=120)
    assert played.returncode == 0, played.stderr
    assert "+    xp: 67\n" in played.stdout   # the diff, shown before the file is written
    after = file.read_text()
    entries = {e.split("\n")[0]: e for e in after.split("  - name: ")[1:]}
    assert "xp: 67" in entries["Sir Bors"] and "xp: 30" in entries["Robin"]
    assert "xp: 9" in entries["Spearman 1"] and "xp: 6" in entries["Spearman 2"]
    assert "xp: 34" in entries["Sergeant Wat"] and "xp: 2" in entries["Bowman"]
    assert after.startswith(before.split("fighters:")[0])   # the comments at the top, as they were
    kept = tmp_path / "warbands" / "dungeon-delvers.games"
    assert (kept / "001-smart-dungeon-seed2.yaml").read_text() == before
    game = json.loads((kept / "001-smart-dungeon-seed2.json").read_text())
    assert [(e["fighter"], e["old"], e["new"]) for e in game["events"]
            if e.get("type") == "change" and e["field"] == "XP"] == PINNED_AWARDS
    # the next game plays the party at its new XP (Robin: 30 XP, 2nd level still)
    again = load_scenario(str(tmp_path / "scenarios" / "smart-dungeon.rules"))
    assert not isinstance(again, list)
    xp = {f.name: f.stats.get("XP", 0) for f in again.forces[0]}
    assert xp["Sir Bors"] == 67 and xp["Robin"] == 30 and xp["Spearman 1"] == 9


# Seed 2, pinned from its record (a regression check: the engine's random players changed how
# they draw after the awards were first worked by hand, hand-to-hand became a choice, a base
# stands wholly inside its deployment zone, and no move ends on another base, so the game is
# another one now; seed 9's no longer splits the Spearmen since moves go round a base in the
# straight way, issue 37, and seed 7's since the search's steps keep off walls' corners). The semantics (the
# XP value of the defeated, nothing for the fallen) are checked above for every game; this pins
# one whole game's outcome.
PINNED_AWARDS = [("Sir Bors", 54, 67), ("Sergeant Wat", 30, 34), ("Spearman 1", 6, 9),
                 ("Robin", 24, 30), ("Bowman", 0, 2)]


# ---- the engine's moves round walls (a general fix the dungeon needed) ----------------------------

def test_a_board_move_goes_round_a_wall_and_stays_straight_without_one():
    from warband.game.board import Board, Piece
    board = Board(20, 20, False, {"wall": ("impassable", "opaque")})
    # nothing in the way: the straight move, 6" towards the target
    assert board.towards((2, 10), (18, 10), 6, 1, ()) == board.straight((2, 10), (18, 10), 6, 1, ())
    board.add(Piece("wall", (10, 4), (10, 16)))
    end = board.towards((8, 10), (12, 10), 20, 1, ())
    assert end is not None and end[0] > 10           # round the wall's end, to the other side
    assert math.dist(end, (12, 10)) <= 1.5
    # a wall with no way round: the move stops at it, as a straight move does
    board.add(Piece("wall", (10, 0), (10, 4)))
    board.add(Piece("wall", (10, 16), (10, 20)))
    stopped = board.towards((8, 10), (12, 10), 20, 1, ())
    assert stopped is not None and stopped[0] <= 9.5


def test_impassable_markers_are_not_destinations(dungeon):
    game, world = table(dungeon, unit("spearman", 0, "Infantry", position=(27, 12)),
                        unit("goblin", 1, "Goblin", position=(33, 12)),
                        policy="to the pillar at (29, 7)")     # asks for it, by name
    game.travel(A, 6, False, world)
    chosen = [e["choice"] for e in game.log.events if e.get("decision") == "destination"]
    assert chosen and chosen[0] != "to the pillar at (29, 7)"


def test_a_straight_move_never_ends_inside_a_walls_margin():
    # the last stretch of a move (shorter than the quarter-inch steps the line is walked in)
    # used to go unchecked: a move along a wall at a slant could end 0.4" from it
    from warband.game.board import Board, Piece, _segment_distance
    board = Board(36, 24, False, {"wall": ("impassable", "opaque")})
    board.add(Piece("wall", (0, 4), (10, 4)))
    end = board.straight((2.39, 7.88), (7.33, 4.48), 6, 0, ())   # ended 0.48" from it
    assert end is not None and _segment_distance(end, (0, 4), (10, 4)) >= 0.5
    assert not board.blocked(end)


def test_a_fighter_the_scenario_writes_may_not_give_a_level_the_rules_work_out(tmp_path):
    """A human unit's Level follows from its XP (`... as level_from_xp(f.XP) if f is human`):
    a scenario's own fighter that gives one was silently overruled in play; now E630 at it. A
    monster's Level is the Judge's to give."""
    from pathlib import Path
    root = Path(__file__).resolve().parents[1]
    text = (root / "scenarios" / "smart-dungeon.rules").read_text().replace(
        '    fighter "Ghoul" { class Ghoul }',
        '    fighter "Ghoul" { class Ghoul  stat Level = 4 }\n'
        '    fighter "Turncoat" { class Infantry  stat Level = 5 }')
    (tmp_path / "scenarios").mkdir()
    (tmp_path / "warbands").mkdir()
    (tmp_path / "warbands" / "dungeon-delvers.yaml").write_text(
        (root / "warbands" / "dungeon-delvers.yaml").read_text())
    (tmp_path / "scenarios" / "d.rules").write_text(text)
    found = load_scenario(str(tmp_path / "scenarios" / "d.rules"))
    assert isinstance(found, list)
    assert [(d.code, d.message) for d in found] == [
        ("E630", "fighter 'Turncoat' gives level, which the rules work out for it")]
    assert found[0].span is not None and found[0].span.line == text.splitlines().index(
        '    fighter "Turncoat" { class Infantry  stat Level = 5 }') + 1
