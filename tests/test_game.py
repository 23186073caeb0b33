"""The engine: the Super Simple Skirmish standard game played by the rules, the board's geometry,
records and replays, determinism, playouts."""

from __future__ import annotations

import json
import math
import os
import subprocess
import sys
from pathlib import Path

import pytest

from warband.game.board import Board, Piece, Zone
from warband.game.engine import Game
from warband.game.results import PlayRequest
from warband.game.scenario import load_scenario
from warband.game.worker import ScenarioProblem, play
from warband.lang.compiler import compile_text, load
from warband.run.evaluate import RulesError
from warband.run.interpreter import Interpreter
from warband.run.world import FighterSpec, Ref, make_world

ROOT = Path(__file__).resolve().parents[1]
SSS_GAME = str(ROOT / "scenarios" / "sss-standard-game.rules")


@pytest.fixture(scope="module")
def standard():
    scenario = load_scenario(SSS_GAME)
    assert not isinstance(scenario, list), scenario
    return scenario


def warband(*args, cwd=ROOT):
    env = {**os.environ, "PYTHONPATH": str(ROOT / "toolkit")}
    return subprocess.run([sys.executable, "-m", "warband", *args], capture_output=True,
                          text=True, cwd=cwd, env=env, timeout=120)


# ---- the standard game, as the text sets it up ----------------------------------------------------

def test_forces_come_from_the_battle_report_warbands(standard):
    names = [[f.name for f in side] for side in standard.forces]
    assert names[0] == ["Lieutenant", "Musketeer 1", "Musketeer 2", "Musketeer 3",
                        "Musketeer 4", "Grenadier 1", "Grenadier 2"]
    assert len(names[1]) == 8 and "Momma" in names[1] and "Bad Dog" in names[1]
    assert sum(f.stats["Might"] for f in standard.forces[0]) == 100


@pytest.mark.parametrize("seed", range(1, 13))
def test_set_up_follows_the_text(standard, seed):
    game = Game(standard, seed, max_rounds=1, record=True)
    game.play()
    pieces = [p for p in game.board.pieces if p.kind == "shrine"]
    assert len(pieces) == 5 and pieces[0].at == (12, 12)        # one in the centre
    by = [e["by"] for e in game.log.events if e["type"] == "place" and e.get("by")]
    assert sorted(by) == ["empire", "empire", "family", "family"]   # two placed by each player
    deployed = [e["zone"] for e in game.log.events if e["type"] == "deploy"]
    assert sorted(deployed) in (["north_edge", "south_edge"],
                                ["northeast_corner", "southwest_corner"])
    # tokens: as many as fighters, split between Fate and Command (before any is spent)
    restocks = [e for e in game.log.events if e.get("decision") == "restock_token"]
    assert len(restocks) >= 7 + 8


def test_fighters_deploy_inside_their_zone_without_overlapping(standard):
    game = Game(standard, 5, max_rounds=1)
    world = make_world(standard.ruleset, [s for side in standard.forces for s in side],
                       [{}, {}], standard.side_names)
    game.blocks = {k: v for k, v in game.blocks.items() if k == "setup"}
    _, after = game.interp.run_nested(game.blocks["setup"], {}, world)
    positions = [f.position for f in after.fighters]
    assert all(p is not None for p in positions)
    for i, a in enumerate(positions):
        for b in positions[i + 1:]:
            assert ((a[0] - b[0]) ** 2 + (a[1] - b[1]) ** 2) ** 0.5 >= 1.0


def test_a_game_plays_six_turns_each_or_ends_on_morale(standard):
    ends = {Game(standard, seed).play().ended for seed in range(1, 41)}
    assert ends <= {"limit", "conceded", "eliminated"} and "limit" in ends
    for seed in range(1, 41):
        result = Game(standard, seed).play()
        assert result.rounds <= 6
        if result.ended == "conceded":
            assert result.winner is not None


@pytest.mark.parametrize("seed", [3, 7, 21])
def test_score_is_the_might_of_enemy_fighters_killed(standard, seed):
    game = Game(standard, seed)
    result = game.play()
    for side, enemy in ((0, 1), (1, 0)):
        killed = [f for f in game.final.fighters if f.side == enemy and f.removed]
        assert result.scores[standard.side_names[side]] == sum(f.values["Might"] for f in killed)
        by_class: dict = {}
        for f in killed:
            by_class[f.fighter_class] = by_class.get(f.fighter_class, 0) + 1
        assert result.kills[standard.side_names[enemy]] == by_class
    assert sum(result.scores.values()) > 0


# ---- records, replays, determinism ---------------------------------------------------------------------

def test_the_same_seed_plays_the_same_game(standard):
    a = Game(standard, 11, record=True)
    b = Game(standard, 11, record=True)
    assert a.play() == b.play()
    assert a.log.events == b.log.events
    c = Game(standard, 12, record=True)
    c.play()
    assert c.log.events != a.log.events


def test_the_same_seed_gives_the_same_record_in_another_process(tmp_path):
    one = warband("play", "sss-standard-game", "--seed", "4", "--format", "json")
    two = warband("play", "sss-standard-game", "--seed", "4", "--format", "json")
    assert one.returncode == 0, one.stderr
    assert json.loads(one.stdout) == json.loads(two.stdout)


def test_replay_reproduces_a_recorded_game(tmp_path):
    record = tmp_path / "game.json"
    first = warband("play", "sss-standard-game", "--seed", "9", "-o", str(record))
    assert first.returncode == 0, first.stderr
    again = warband("play", "--replay", str(record))
    assert again.returncode == 0, again.stderr
    assert again.stdout == first.stdout
    assert "Round 1" in again.stdout and "Game over" in again.stdout


def test_a_replay_takes_the_recorded_choices_not_the_policies(standard, tmp_path):
    greedy = warband("play", "sss-standard-game", "--seed", "2", "--policy", "empire=first",
                     "--format", "json")
    record = json.loads(greedy.stdout)
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record))
    again = warband("play", "--replay", str(path), "--format", "json")
    assert json.loads(again.stdout)["events"] == record["events"]


def test_a_tampered_record_is_reported_not_replayed(tmp_path):
    out = warband("play", "sss-standard-game", "--seed", "3", "--format", "json")
    record = json.loads(out.stdout)
    rolls = [e for e in record["events"] if e["type"] == "roll"]
    rolls[-1]["value"] = 99
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record))
    again = warband("play", "--replay", str(path))
    assert again.returncode == 1
    assert "error[E917]" in again.stderr and "Traceback" not in again.stderr


@pytest.mark.parametrize("text", ["", "{}", "[1, 2]", "not json", '{"format": "x"}'])
def test_a_file_that_is_not_a_record_is_refused(tmp_path, text):
    path = tmp_path / "bad.json"
    path.write_text(text)
    result = warband("play", "--replay", str(path))
    assert result.returncode == 2 and "error[E916]" in result.stderr
    assert "Traceback" not in result.stderr


def test_play_never_overwrites_a_record_without_force(tmp_path):
    path = tmp_path / "game.json"
    path.write_text("precious")
    result = warband("play", "sss-standard-game", "-o", str(path))
    assert result.returncode == 2 and "exists" in result.stderr
    assert path.read_text() == "precious"
    assert warband("play", "sss-standard-game", "-o", str(path), "--force").returncode == 0
    assert json.loads(path.read_text())["format"] == "warband-game-log"
    assert [p.name for p in tmp_path.iterdir()] == ["game.json"]   # no temporary file left


def test_simulate_figures_do_not_depend_on_the_number_of_workers():
    one = warband("simulate", "sss-standard-game", "--games", "60", "--seed", "5",
                  "--format", "json", "--workers", "1")
    two = warband("simulate", "sss-standard-game", "--games", "60", "--seed", "5",
                  "--format", "json", "--workers", "2")
    assert one.returncode == 0, one.stderr
    assert json.loads(one.stdout) == json.loads(two.stdout)


def test_bad_policies_are_diagnostics():
    result = warband("play", "sss-standard-game", "--policy", "empir=greedy")
    assert result.returncode == 2 and "error[E911]" in result.stderr
    assert "did you mean 'empire'" in result.stderr
    with pytest.raises(ScenarioProblem):
        play(PlayRequest(SSS_GAME, (("empire", "clever"),)), 1)


# ---- the board ---------------------------------------------------------------------------------------------

def test_squares_distance_contact_and_paths():
    board = Board(8, 8, True, {"pillar": ("impassable", "opaque"), "door": ()},
                  frozenset({"door"}))
    assert board.distance((1, 1), (3, 2)) == 2 and board.contact((1, 1), (2, 2))
    assert not board.contact((1, 1), (3, 1))
    board.add(Piece("pillar", (2, 1)))
    board.add(Piece("pillar", (2, 2)))
    board.add(Piece("door", (1, 3)))
    reach = set(board.reachable((1, 1), 2, occupied={(1, 2)}))
    assert (2, 1) not in reach and (1, 2) not in reach      # impassable and occupied
    assert (1, 3) not in reach                              # only through the blocked cells
    reach = set(board.reachable((1, 2), 3, occupied=set()))
    assert (1, 3) in reach and (1, 4) in reach
    # a path that steps on the door ends there: (1, 4) is reached around it, not through it
    assert not board.sees((1, 2), (3, 2))                   # the pillar at (2, 2) is in the way
    assert board.sees((1, 3), (3, 3))


def test_inches_distance_between_bases_sight_and_cover():
    board = Board(24, 24, False, {"wall": ("impassable", "opaque"), "fence": ("obscuring",)})
    assert board.distance((5, 5), (5, 8)) == pytest.approx(2.0)     # 3" between centres
    assert board.contact((5, 5), (5, 6))
    board.add(Piece("wall", (10, 0), (10, 12)))
    assert not board.sees((8, 5), (12, 5)) and board.sees((8, 15), (12, 15))
    board.add(Piece("fence", (16, 15), None, 0.5))
    assert board.obscured((14, 15), (18, 15)) and not board.obscured((14, 18), (18, 18))
    assert board.obscured((1, 1), (5, 1), others=[(3, 1)])      # another fighter in the way


def test_a_straight_move_stops_at_bases_edges_and_walls():
    board = Board(24, 24, False, {"wall": ("impassable",)})
    end = board.straight((5, 5), (5, 20), 20, 1.0, occupied=[(5, 20)])
    assert end[1] == pytest.approx(19.0, abs=0.02)              # into base contact, not beyond
    end = board.straight((5, 5), (5, 40), 100, 0.0, occupied=[])
    assert end[1] == pytest.approx(23.5, abs=0.02)              # the board's edge
    board.add(Piece("wall", (0, 10), (24, 10)))
    end = board.straight((5, 5), (5, 20), 12, 0.0, occupied=[])
    assert end[1] < 10 - 0.4                                    # stops short of the wall
    assert board.straight((5, 5), (5, 20), 0, 0.0, occupied=[]) is None


def test_zones():
    board = Board(24, 24, False, {})
    south, corner = Zone("edge", ("south",), 6), Zone("corner", ("northeast",), 11)
    # in inches the whole base stands in the zone: its centre half an inch inside the line
    assert board.in_zone((3, 5.5), south) and not board.in_zone((3, 5.6), south)
    assert board.in_zone((20, 20), corner) and not board.in_zone((13, 13), corner)
    assert board.in_zone((17, 17), corner) and not board.in_zone((16.5, 16.5), corner)
    area = Zone("area", (), 0, ((1, 5), (8, 19)))
    assert board.in_zone((1.5, 18.5), area) and not board.in_zone((1.2, 10), area)
    squares = Board(8, 8, True, {})
    assert len(squares.cells(Zone("edge", ("east", "west"), 1))) == 16


# ---- game statements outside a game, limits --------------------------------------------------------------

def test_a_game_statement_outside_a_game_is_an_error():
    rules = compile_text('ruleset "t"\nstat Might: 1..10\nmarker cairn\n'
                         'phase mark(side: side) {\n  place cairn at (1, 1)\n}\n', "t.rules")
    world = make_world(rules.ruleset, [FighterSpec("a", 0, None, {"Might": 3})], [{}, {}])
    with pytest.raises(RulesError) as error:
        Interpreter(rules.ruleset).sample("mark", {"side": Ref("side", 0)}, world)
    assert error.value.diagnostic.code == "E506"


def test_an_activation_outside_a_game_is_counted(sss):
    """A phase that activates fighters runs outside a game (odds): no action is chosen or
    played, and each fighter's activations are counted (run/flow.py)."""
    world = make_world(sss, [FighterSpec("a", 0, "Soldier", {"Might": 10}),
                             FighterSpec("b", 0, "Soldier", {"Might": 8})], [{}, {}])
    after = Interpreter(sss).sample("turn", {"side": Ref("side", 0)}, world)[1]
    assert [f.values.get("#activations") for f in after.fighters] == [1, 1]


def test_moves_change_nothing_without_a_board(sss):
    """Actions that travel still have exact odds: without a board nothing moves."""
    world = make_world(sss, [FighterSpec("a", 0, "Beast", {"Might": 5})], [{}, {}])
    dist = Interpreter(sss).exact("move", {"mover": Ref("fighter", 0)}, world)
    assert dist.mean() == pytest.approx(10.5)


TINY = '''
ruleset "tiny-arena"
  extends "super-simple-skirmish"

scenario tiny "Too many fighters for a small zone" {
  board 24 by 24 inches
  side empire from "../warbands/clockwork-empire.yaml"
  side family from "../warbands/the-family.yaml"
  zone speck = area (1, 1) to (2, 2)
  setup { deploy empire in speck }
  round { game_round() }
  rounds 1
}
'''


def test_no_room_to_deploy_is_a_clear_error(tmp_path):
    (tmp_path / "scenarios").mkdir()
    (tmp_path / "warbands").mkdir()
    for name in ("clockwork-empire.yaml", "the-family.yaml"):
        (tmp_path / "warbands" / name).write_text((ROOT / "warbands" / name).read_text())
    path = tmp_path / "scenarios" / "tiny.rules"
    path.write_text(TINY)
    result = warband("play", str(path))
    assert result.returncode == 2
    assert "error[E507]" in result.stderr and "Traceback" not in result.stderr
    assert "no room left in zone 'speck' for " in result.stderr   # (its name, not a node)


def test_playouts_report_objectives_no_game_scores(tmp_path):
    text = (ROOT / "scenarios" / "sss-standard-game.rules").read_text().replace(
        "extends \"super-simple-skirmish\"", "extends \"super-simple-skirmish\"\n").replace(
        "score empire \"points of enemy fighters killed\" =\n"
        "    total(f.Might for f in family.casualties if f.removed_by_side == empire)",
        "score empire \"never\" = 0")
    assert "score empire \"never\" = 0" in text
    folder = tmp_path / "scenarios"
    folder.mkdir()
    (tmp_path / "warbands").mkdir()
    for name in ("clockwork-empire.yaml", "the-family.yaml"):
        (tmp_path / "warbands" / name).write_text((ROOT / "warbands" / name).read_text())
    (folder / "g.rules").write_text(text)
    result = warband("rules", "check", str(folder / "g.rules"), "--playouts", "5")
    assert result.returncode == 0, result.stderr
    assert "warning[W903]: no game of 5 scored anything for 'empire'" in result.stdout


def test_playouts_of_the_standard_game_are_clean():
    result = warband("rules", "check", "sss-standard-game", "--playouts", "20")
    assert result.returncode == 0 and "0 errors, 0 warnings" in result.stdout, result.stdout


def test_a_scenario_is_checked_like_any_rules_file():
    compiled = compile_text('''
ruleset "broken-game"
  extends "super-simple-skirmish"
scenario oops {
  board 24 by 24 inches
  side empire from "a.yaml"
  side family from "b.yaml"
  zone z = edge nort depth 6
  round { game_round() }
  score empyre = 1
}
''', "broken.rules")
    messages = [(d.code, d.message, d.hint) for d in compiled.diagnostics]
    assert ("E201", "unknown edge 'nort'", "did you mean 'north'?") in messages
    assert any(code == "E201" and "empyre" in message and hint == "did you mean 'empire'?"
               for code, message, hint in messages)


def test_a_side_given_two_scores_or_two_values_is_an_error():
    compiled = compile_text('''
ruleset "doubled"
  extends "super-simple-skirmish"
scenario twice {
  board 24 by 24 inches
  side empire from "a.yaml"
  side family from "b.yaml"
  round { game_round() }
  score empire = 1
  score family = 1
  score empire = 2
  value empire = 1
  value empire = 2
}
''', "doubled.rules")
    found = [(d.code, d.message, d.span.line, [r.span.line for r in d.related])
             for d in compiled.diagnostics]
    assert ("E202", "side 'empire' has two scores", 11, [9]) in found
    assert ("E202", "side 'empire' has two values", 13, [12]) in found
    assert len(found) == 2, found


def test_the_standard_game_is_found_by_id():
    assert load("sss-standard-game").ruleset.scenario is not None


def test_the_log_a_player_reads(golden):
    """The whole log of one game, as `warband play` prints it (pinned: regenerate with
    pytest --update-goldens when the rules or the engine change on purpose)."""
    result = warband("play", "sss-standard-game", "--seed", "4")
    assert result.returncode == 0, result.stderr
    golden(ROOT / "tests" / "cli_golden" / "play_sss_seed4.txt", result.stdout)


@pytest.mark.parametrize("seed", range(1, 16))
def test_a_game_is_the_same_played_fast_recorded_or_interpreted(standard, seed):
    """Simulations run the rules as generated Python and record nothing; `warband play` records
    every event; the interpreter runs the same rules step by step. One seed, one game."""
    fast = Game(standard, seed).play()
    recorded = Game(standard, seed, record=True).play()
    slow = Game(standard, seed)
    slow.interp.compiled = False
    assert fast == recorded == slow.play()


# ---- the engine's limits ----------------------------------------------------------------------------------

def _arena(tmp_path, board="24 by 24 inches", rounds="rounds 6", count=1):
    (tmp_path / "warbands").mkdir(exist_ok=True)
    (tmp_path / "warbands" / "crowd.yaml").write_text(
        "name: Crowd\nruleset: super-simple-skirmish\nfighters:\n"
        f"  - name: Grunt\n    class: Soldier\n    might: 1\n    count: {count}\n")
    (tmp_path / "scenarios").mkdir(exist_ok=True)
    path = tmp_path / "scenarios" / "arena.rules"
    path.write_text(f'''
ruleset "arena"
  extends "super-simple-skirmish"
scenario arena {{
  board {board}
  side red from "../warbands/crowd.yaml"
  side blue from "../warbands/crowd.yaml"
  zone west = edge west depth 6
  zone east = edge east depth 6
  setup {{ deploy red in west  deploy blue in east }}
  round {{ game_round() }}
  {rounds}
}}
''')
    return path


def test_a_board_has_a_size_limit(tmp_path):
    result = warband("rules", "check", str(_arena(tmp_path, board="100000 by 24 inches")))
    assert result.returncode == 1
    assert "error[E403]: a board is 1 to 200 inches a side, not 100000" in result.stdout


def test_a_game_has_a_round_limit(tmp_path):
    result = warband("play", str(_arena(tmp_path, rounds="rounds 1000000")))
    assert result.returncode == 2 and "error[E403]: a game lasts 1 to 10,000 rounds" \
        in result.stderr and "Traceback" not in result.stderr
    result = warband("play", str(_arena(tmp_path)), "--max-rounds", "20000")
    assert result.returncode == 2 and "error[E403]" in result.stderr


def test_a_game_has_a_fighter_limit(tmp_path):
    """Warband files are held to their ruleset's size; fighters written in a scenario are not."""
    path = _arena(tmp_path)
    text = path.read_text()
    for side in ("red", "blue"):
        text = text.replace(f'side {side} from "../warbands/crowd.yaml"',
                            f'side {side} {{ fighter "Grunt" count 300 {{ class Soldier '
                            f'stat Might = 1 }} }}')
    path.write_text(text)
    result = warband("play", str(path))
    assert result.returncode == 2
    assert "error[E403]: a game holds at most 500 fighters, not 600" in result.stderr
    path.write_text(text.replace("count 300", "count 100000000", 1))
    result = warband("rules", "check", str(path))
    assert "error[E403]: a game holds at most 500 fighters, not 100000000 'Grunt'" \
        in result.stdout


def test_every_game_ends_within_its_limit_even_when_nobody_can_win(tmp_path):
    """Two sides that cannot hurt each other (Might 1 soldiers far apart) still stop."""
    result = warband("simulate", str(_arena(tmp_path, rounds="rounds 3")), "--games", "5",
                     "--format", "json")
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["rounds"]["max"] <= 3


# ---- breaking off: `travel f away D` ---------------------------------------------------------------------

BREAK_OFF = '''
ruleset "break-off-{base}"
  extends "{base}"

marker pillar "A pillar nobody walks through" impassable

phase break_off(f: fighter) "Step out of base contact" {{
  travel f away 1
}}

scenario breaking_off {{
  board 24 by 24 inches
  side a {{ fighter "Hero" {{ class {hero} }} }}
  side b {{
    fighter "Foe 1" {{ class {foe} }}
    fighter "Foe 2" {{ class {foe} }}
    fighter "Foe 3" {{ class {foe} }}
  }}
  zone west = edge west depth 6
  zone east = edge east depth 6
  setup {{ deploy a in west  deploy b in east }}
  round {{ for each f in a.fighters {{ break_off(f) }} }}
  rounds 1
  score a = 0
  score b = 0
}}
'''
# (a fighter the scenario writes gives every stat its class does not fix and that has no
# default, as a warband entry does: E628 otherwise)
SYSTEMS = [("super-simple-skirmish", "Warrior  stat Might = 10", "Soldier  stat Might = 10"),
           ("smart", "Infantry", "Goblin")]


def _break_off(tmp_path, base, hero, foe, spots, pieces=()):
    """Hero breaks off from the foes at `spots`: (where it ends, the game's events)."""
    path = tmp_path / f"{base}.rules"
    path.write_text(BREAK_OFF.format(base=base, hero=hero, foe=foe))
    scenario = load_scenario(str(path))
    assert not isinstance(scenario, list), scenario
    game = Game(scenario, 1, record=True)
    for at in pieces:
        game.board.add(Piece("pillar", at, None, 0.5))
    world = scenario.start()
    for i, at in enumerate(spots):
        world = world.place(Ref("fighter", i), at)
    _, after = game.interp.run_nested(scenario.ruleset.procedures["break_off"],
                                      {"f": Ref("fighter", 0)}, world)
    return after.fighters[0].position, game.log.events


@pytest.mark.parametrize("base, hero, foe", SYSTEMS)
def test_breaking_off_goes_straight_away_from_the_enemy(tmp_path, base, hero, foe):
    end, events = _break_off(tmp_path, base, hero, foe, [(10, 10), (11, 10), (20, 20), (20, 22)])
    assert end == (9, 10)
    assert [e["type"] for e in events] == ["travel"]


@pytest.mark.parametrize("base, hero, foe", SYSTEMS)
def test_breaking_off_takes_another_free_route_when_the_straight_one_is_blocked(
        tmp_path, base, hero, foe):
    # a pillar right behind: straight away is blocked, so the hero steps aside, out of contact
    end, events = _break_off(tmp_path, base, hero, foe, [(10, 10), (11, 10), (20, 20), (20, 22)],
                             pieces=[(8.8, 10)])
    assert math.dist(end, (10, 10)) == pytest.approx(1.0, abs=0.02)
    assert math.dist(end, (11, 10)) - 1.0 > 0.01 and math.dist(end, (8.8, 10)) >= 1.0
    assert [e["type"] for e in events] == ["travel"]


@pytest.mark.parametrize("base, hero, foe", SYSTEMS)
def test_a_fighter_hemmed_in_stays_and_the_log_says_so(tmp_path, base, hero, foe):
    # in the corner, with foes on the two open sides: no free route 1" away
    end, events = _break_off(tmp_path, base, hero, foe, [(0.5, 0.5), (1.5, 0.5), (0.5, 1.5),
                                                          (1.2, 1.2)])
    assert end == (0.5, 0.5)
    assert [(e["type"], e["fighter"]) for e in events] == [("stuck", "Hero")]
    assert "no free route" in events[0]["why"]


def test_a_route_to_a_spot_other_bases_fill_is_refused_at_once_and_like_a_full_search(
        monkeypatch):
    """The check before the search (no free point near the goal) answers exactly as the whole
    search did, on random boards, bases and goals; and a goal other bases fill costs no search."""
    import random
    import time

    import warband.game.board as board_module
    rng = random.Random(7)
    cases = []
    for _ in range(60):
        board = Board(18, 18, False, {"wall": ("impassable",)})
        for _ in range(rng.randrange(3)):
            x = rng.uniform(2, 16)
            board.add(Piece("wall", (x, rng.uniform(0, 9)), (x, rng.uniform(9, 18))))
        start = (rng.uniform(1, 17), rng.uniform(1, 17))
        target = (rng.uniform(1, 17), rng.uniform(1, 17))
        crowd = [(target[0] + dx, target[1] + dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1)]
        occupied = crowd if rng.random() < 0.5 else rng.sample(crowd, 3)
        cases.append((board, start, target, rng.choice([0.0, 0.5, 1.0]), occupied))
    quick = [b.route(s, t, stop, occ) for b, s, t, stop, occ in cases]
    assert any(r == [] for r in quick) and any(r for r in quick)
    monkeypatch.setattr(board_module, "_goal_open", lambda *args: True)
    assert [b.route(s, t, stop, occ) for b, s, t, stop, occ in cases] == quick
    monkeypatch.undo()
    board = Board(48, 48, False, {})
    crowd = [(30 + dx, 30 + dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1)]
    board.route((2, 2), (30, 30), 0.0, crowd)          # the board's graph, built once
    began = time.process_time()
    for _ in range(50):
        assert board.route((2, 2), (30, 30), 0.0, crowd) == []
    assert time.process_time() - began < 0.1          # a full search: ~15 ms each
