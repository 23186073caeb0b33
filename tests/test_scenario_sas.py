"""The Swords Against Sorcery sample scenario, "The Greedy Dudes vs. the Vaguely Defined Menace"
(scenarios/greedy-dudes-vs-menace.rules), played by the engine: the set-up follows the text, doors
let Dudes escape and score, pockets count only for escapees, the Menace scores 2 a Dude, games
end, and a seed or a record gives the same game again."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from warband.cli import app
from warband.game.board import Piece
from warband.game.engine import Game
from warband.game.scenario import load_scenario
from warband.run.decisions import Policies
from warband.run.world import FighterSpec, Ref, make_world

ROOT = Path(__file__).resolve().parents[1]
SCENARIO = "greedy-dudes-vs-menace"
SEEDS = range(1, 37)


@pytest.fixture(scope="module")
def scenario():
    found = load_scenario(SCENARIO)
    assert not isinstance(found, list), [d.message for d in found]
    return found


def played(scenario, seed: int, **kw):
    game = Game(scenario, seed, record=True, **kw)
    return game, game.play()


def setup_of(events: list) -> dict:
    """Where the figures were deployed and the markers placed, from a game's record."""
    out = {"dudes": [], "menace": [], "door": [], "terrain": []}
    deployed = 0
    for e in events:
        if e.get("type") == "round":
            break
        if e.get("type") == "deploy":
            deployed += 1
        if e.get("type") == "decision" and e["decision"] == "placement" and deployed < 2:
            out[e["by"]].append(tuple(e["choice"]))
        if e.get("type") == "place":
            out[e["marker"]].append(tuple(int(v) for v in e["at"]))
    return out


# ---- set-up -----------------------------------------------------------------------------------------

@pytest.mark.parametrize("seed", SEEDS)
def test_the_set_up_follows_the_text(scenario, seed):
    game, _ = played(scenario, seed, max_rounds=1)
    placed = setup_of(game.log.events)
    # the Dudes on one edge row, the Menace on the opposite one
    assert len(placed["dudes"]) == 4 and all(y == 1 for _, y in placed["dudes"])
    assert len(placed["menace"]) == 3 and all(y == 8 for _, y in placed["menace"])
    assert len(set(placed["dudes"] + placed["menace"])) == 7
    # five doors on the two unoccupied sides (not on the set-up rows' corners), one a square
    doors = placed["door"]
    assert len(doors) == 5 and len(set(doors)) == 5
    assert all(x in (1, 8) and 2 <= y <= 7 for x, y in doors)
    # four terrain pieces, never on a door or a figure, never next to each other
    terrain = placed["terrain"]
    assert len(terrain) == 4 and not set(terrain) & set(doors + placed["dudes"] +
                                                         placed["menace"])
    for i, a in enumerate(terrain):
        for b in terrain[i + 1:]:
            assert max(abs(a[0] - b[0]), abs(a[1] - b[1])) >= 2, (a, b)


def test_the_events_come_in_the_texts_order(scenario):
    game, _ = played(scenario, 5, max_rounds=1)
    order = [e.get("side") or e.get("marker") for e in game.log.events
             if e.get("type") in ("deploy", "place")]
    assert order == ["dudes", "menace"] + ["door"] * 5 + ["terrain"] * 4
    by = [e["by"] for e in game.log.events if e.get("type") == "place"]
    assert by == ["menace"] * 5 + ["dudes"] * 4


# ---- the scenario's rules on a board ------------------------------------------------------------------

def world_with(scenario, *figures):
    """Dudes and Menace at given squares: (side, position, state)."""
    specs = []
    for side, position, state in figures:
        if side == 0:
            specs.append(FighterSpec("Dude", 0, None, {"Training": 3, "Size": "Medium"},
                                     state=dict(state), position=position))
        else:
            specs.append(FighterSpec("Menace", 1, None, {"Training": 4, "Size": "Big"},
                                     traits={"Toughness": 1}, state=dict(state),
                                     position=position))
    return make_world(scenario.ruleset, specs, [{} for _ in scenario.side_names],
                      scenario.side_names)


def test_a_dude_stepping_on_a_door_escapes_and_scores(scenario):
    game = Game(scenario, 1, Policies("random", {}, {"dudes": "(1, 4)"}))
    game.board.add(Piece("door", (1, 4)))
    world = world_with(scenario, (0, (2, 5), {"Pockets": 2}), (1, (6, 8), {}))
    world = world.set(Ref("side", 0), "Escapes", True)    # the scenario's set-up does this
    assert game.scores(world) == {"dudes": 0, "menace": 0}
    after = game.travel(Ref("fighter", 0), 2, False, world)
    dude = after.fighters[0]
    assert dude.withdrawn and dude.removed and dude.values["Escaped"] is True
    assert game.scores(after) == {"dudes": 3, "menace": 0}   # 1 for him, 1 a pocket-filling turn


def test_a_menace_on_a_door_stays_in_the_room(scenario):
    # the doors are the Dudes' way out (see the scenario's readings): a Menace's move ends on
    # the door, and it is still in play
    game = Game(scenario, 1, Policies("random", {}, {"menace": "(8, 5)"}))
    game.board.add(Piece("door", (8, 5)))
    world = world_with(scenario, (0, (2, 2), {}), (1, (7, 6), {}))
    world = world.set(Ref("side", 0), "Escapes", True)
    after = game.travel(Ref("fighter", 1), 3, False, world)
    menace = after.fighters[1]
    assert menace.position == (8, 5) and not menace.removed and not menace.withdrawn


def test_with_no_menace_left_the_dudes_in_the_room_walk_out(scenario):
    game = Game(scenario, 1)
    world = world_with(scenario, (0, (2, 2), {"Pockets": 2}), (0, (3, 3), {}), (1, (8, 8), {}))
    assert game.scores(world)["dudes"] == 0
    world = world.remove(Ref("fighter", 2))      # the last Menace falls
    assert game.scores(world)["dudes"] == 3 + 1


def test_a_door_ends_the_move_there(scenario):
    # a path over a door stops on it: the squares beyond are out of reach through it
    game = Game(scenario, 1)
    game.board.add(Piece("door", (1, 5)))
    others = {(2, 3), (2, 4), (2, 5)}     # the only way north along the wall is the door
    spots = game.board.reachable((1, 4), 2, others)
    assert (1, 5) in spots and (1, 6) not in spots
    assert (1, 6) in game.board.reachable((1, 4), 2, {(2, 3), (2, 4)})   # round it: fine


def test_pockets_count_only_for_escapees(scenario):
    game = Game(scenario, 1)
    world = world_with(scenario, (0, (2, 2), {"Pockets": 3}), (0, (3, 3), {"Pockets": 5}),
                       (0, (4, 4), {"Pockets": 2}), (1, (8, 8), {}))
    world = world.remove(Ref("fighter", 0), withdrawn=True)    # escaped: 1 + 3
    world = world.remove(Ref("fighter", 2))                     # eliminated: his gold is lost
    assert game.scores(world) == {"dudes": 4, "menace": 2}      # the Dude in the room: nothing


def test_the_menace_scores_2_per_dude_eliminated(scenario):
    game = Game(scenario, 1)
    world = world_with(scenario, *[(0, (i, 1), {}) for i in range(1, 5)], (1, (8, 8), {}))
    for n in range(4):
        assert game.scores(world)["menace"] == 2 * n
        world = world.remove(Ref("fighter", n))


def test_activation_offers_only_legal_moves(scenario):
    game = Game(scenario, 1)
    world = world_with(scenario, (0, (2, 2), {}), (0, (3, 2), {}), (1, (3, 3), {}),
                       (1, (7, 7), {}))
    world = world.set(Ref("side", 0), "FillsPockets", True)
    first = ["move", "stand", "flee", "fill_pockets"]
    attacks = ["exchange", "gang_up", "missile", "hold"]

    def offered(i, names, w=world):
        return sorted((n, tuple(v.index for v in a.values() if isinstance(v, Ref))[1:])
                      for n, a in game.players.legal(Ref("fighter", i), names, w))
    # a Dude next to a Menace: stands or flees (from that Menace only), or fills his pockets
    assert offered(0, first) == [("fill_pockets", ()), ("flee", (2,)), ("stand", ())]
    # then attacks the adjacent Menace alone or with his friend; never a friend, never afar
    assert offered(0, attacks) == [("exchange", (2,)), ("gang_up", (2,)), ("hold", ())]
    # a Menace out of contact moves; it never fills pockets (a Dudes' privilege)
    assert offered(3, first) == [("move", ())]
    assert offered(3, attacks) == [("hold", ())]


def test_the_side_with_more_figures_activates_several_and_the_second_moves_last(scenario):
    for seed in (1, 2, 3, 4):
        game, _ = played(scenario, seed, max_rounds=1)
        first_player = next(e["choice"] for e in game.log.events
                            if e.get("decision") == "first_player")
        sides = [e["side"] for e in game.log.events
                 if e.get("type") == "activate" and e["round"] == 1]
        # one activation event per activate statement: a figure's move and its attack
        turns = [s for i, s in enumerate(sides) if i == 0 or sides[i - 1] != s]
        assert turns[0] == first_player and turns[-1] != first_player, sides


# ---- whole games ---------------------------------------------------------------------------------------

def test_a_game_always_ends_within_the_limit(scenario):
    limit = 30
    for seed in SEEDS:
        game, result = played(scenario, seed)
        assert 1 <= result.rounds <= limit
        if result.ended == "condition":   # the Dudes are all gone
            assert result.scores["dudes"] + result.scores["menace"] >= 1
        assert result.stuck is None, result.stuck


def test_the_same_seed_gives_the_same_game():
    runner = CliRunner()
    one = runner.invoke(app, ["play", SCENARIO, "--seed", "7", "--format", "json"])
    two = runner.invoke(app, ["play", SCENARIO, "--seed", "7", "--format", "json"])
    assert one.exit_code == 0, one.output
    assert json.loads(one.stdout) == json.loads(two.stdout)
    other = runner.invoke(app, ["play", SCENARIO, "--seed", "8", "--format", "json"])
    assert json.loads(other.stdout)["events"] != json.loads(one.stdout)["events"]


def test_a_replay_reproduces_a_recorded_game(tmp_path):
    runner = CliRunner()
    log = tmp_path / "game.json"
    made = runner.invoke(app, ["play", SCENARIO, "--seed", "11", "-o", str(log)])
    assert made.exit_code == 0, made.output
    again = runner.invoke(app, ["play", "--replay", str(log), "--format", "json"])
    assert again.exit_code == 0, again.output
    assert json.loads(again.stdout) == json.loads(log.read_text())


def test_simulate_runs_the_scenario():
    got = CliRunner().invoke(app, ["simulate", SCENARIO, "--games", "20", "--seed", "3",
                                   "--format", "json"])
    assert got.exit_code == 0, got.output
    report = json.loads(got.stdout)
    assert report["games"] == 20


def test_the_setup_names_the_dudes_side_directly(scenario):
    # `set dudes.FillsPockets = true`: a scenario's side named in a set statement
    game = Game(scenario, 2)
    world = game.interp.run_nested(game.blocks["setup"], {}, make_world(
        scenario.ruleset, [s for side in scenario.forces for s in side],
        [{} for _ in scenario.side_names], scenario.side_names))[1]
    assert [s.values["FillsPockets"] for s in world.sides] == [True, False]


def test_greedy_players_estimate_what_is_too_big_to_follow(scenario, monkeypatch):
    # with a one-step look-ahead budget nothing can be followed exactly (E504 inside): greedy
    # players still play, estimating actions, decisions and doors by trial runs (lookahead.py)
    import warband.game.lookahead as lookahead
    monkeypatch.setattr(lookahead, "LOOK_AHEAD", 1)
    game, result = played(scenario, 3, policies=Policies("greedy"), max_rounds=5)
    assert result.rounds >= 1 and game.interp.max_branches is None
    too_big = game.look_ahead.too_big
    assert ("entered", "door") in too_big and any(type(key) is str for key in too_big)
    assert game.explorer.runs > 0   # (its decisions, a_hand among them, are played on)
