"""Greedy players in games (lookahead.py): they see ahead exactly within a budget and estimate
by trial runs beyond it, finish every shipped scenario, beat random players, and never disturb
the game's own dice, choices or record."""

from __future__ import annotations

import pytest

import warband.game.lookahead as lookahead
from warband.game.engine import Game
from warband.game.explore import Horizon
from warband.game.scenario import load_scenario
from warband.run.decisions import Policies

SCENARIOS = ("sss-standard-game", "greedy-dudes-vs-menace", "smart-dungeon")


@pytest.fixture(scope="module")
def scenarios():
    found = {name: load_scenario(name) for name in SCENARIOS}
    assert not any(isinstance(s, list) for s in found.values())
    return found


def greedy_game(scenario, seed: int, record: bool = True, **kw) -> Game:
    return Game(scenario, seed, Policies("greedy"), record=record, **kw)


@pytest.mark.parametrize("name", SCENARIOS)
def test_greedy_players_play_every_shipped_scenario_to_its_end(scenarios, name):
    # Swords Against Sorcery's gangs used to stop the game: a look-ahead past any budget (E504)
    game = greedy_game(scenarios[name], 1, record=False)
    result = game.play()
    assert result.ended in ("limit", "condition", "conceded", "eliminated")
    assert game.interp.max_branches is None   # the budget is the look-ahead's only


def test_too_big_to_follow_exactly_is_estimated_and_remembered(scenarios):
    # (seed 4: a game with exchanges and gangs in it; in some games the Dudes get out unfought)
    game = greedy_game(scenarios["greedy-dudes-vs-menace"], 4, record=False)
    game.play()
    # the exchanges of this scenario (hands, allocations) are beyond the budget
    assert "exchange" in game.look_ahead.too_big or "gang_up" in game.look_ahead.too_big
    # and what cannot be followed exactly is played on from copies of the game's state
    assert game.explorer.runs > 0


def test_a_greedy_game_is_the_same_game_again_for_its_seed(scenarios):
    scenario = scenarios["greedy-dudes-vs-menace"]
    first, again = greedy_game(scenario, 4), greedy_game(scenario, 4)
    assert first.play() == again.play()
    assert first.log.events == again.log.events


def test_a_replay_of_a_greedy_game_sees_the_same_dice(scenarios):
    # a replay takes its choices from the record and looks nothing ahead: the trials of the
    # greedy players must not have drawn the game's dice or choices, nor written the record
    scenario = scenarios["greedy-dudes-vs-menace"]
    first = greedy_game(scenario, 5)
    result = first.play()
    replay = Game(scenario, 5, Policies("greedy"), script=list(first.log.events))
    assert replay.play() == result
    assert replay.log.events == first.log.events


def _points(scenario, seed: int, wanted, monkeypatch, **kw):
    """Decision points a greedy player met in a game (those `wanted` keeps), and the game."""
    import warband.game.greedy as greedy
    found = []
    original = greedy.Greedy.__call__

    def keep(self, point):
        if wanted(point, found):
            found.append(point)
        return original(self, point)
    monkeypatch.setattr(greedy.Greedy, "__call__", keep)
    game = greedy_game(scenario, seed, **kw)
    game.play()
    monkeypatch.setattr(greedy.Greedy, "__call__", original)
    return game, found


def _snapshot(game):
    state = game.state
    return (state, game.interp.rng.getstate(), game.interp.choice_rng.getstate(),
            len(state.log.events), dict(state.facing), list(state.frames), state.round,
            list(game.board.pieces), game.interp.policies, game.players.policies,
            game.interp.recorder, game.interp.run_context())


def test_trials_leave_the_game_as_it_was(scenarios, monkeypatch):
    # a player's look-ahead plays on from a copy of the state: the game's own dice, choices,
    # record, facing, pieces, frames and interpreter are as they were after it
    import warband.game.greedy as greedy
    scenario = scenarios["greedy-dudes-vs-menace"]
    checked = []

    def check(point, found):
        if point.resumable and len(checked) < 3:
            game = point_game[0]
            before = _snapshot(game)
            greedy.Greedy(game).race(point, [None] * point.count)
            checked.append(before == _snapshot(game))
        return False
    point_game: list = []
    original = Game.play

    def play(self):
        point_game.append(self)
        return original(self)
    monkeypatch.setattr(Game, "play", play)
    _points(scenario, 6, check, monkeypatch, max_rounds=2)
    assert checked == [True] * 3


def test_an_estimate_agrees_with_the_exact_value(scenarios, monkeypatch):
    # the actions a greedy Super Simple Skirmish player weighs, valued both ways: with many
    # trials the estimate is the exact expectation, give or take the sampling error (trials
    # decide at random inside the action, so the exact value here is a random player's)
    import warband.game.greedy as greedy
    scenario = scenarios["sss-standard-game"]

    exact = {}   # the point -> (the shot, its exact worth), worked out when it was met

    def shooting(point, found):
        if point.kind != "action" or point.worth is None or len(found) >= 2:
            return False
        shots = [i for i, label in enumerate(point.labels()) if label.startswith("shoot")]
        if not shots:
            return False
        # the exact worth with the action's own decisions taken at random, as trials take them
        game = point_game[0]
        interp, players = game.interp, game.players
        saved = (interp.policies, interp.uniform, players.policies, players.randomly)
        players.use(Policies("random"))
        try:
            worth = point.worth(shots[0])
        finally:
            interp.policies, interp.uniform, players.policies, players.randomly = saved
        if worth is not None:
            exact[id(point)] = shots[0], worth
        return worth is not None
    point_game: list = []
    original = Game.play

    def play(self):
        point_game.append(self)
        return original(self)
    monkeypatch.setattr(Game, "play", play)
    game, points = _points(scenario, 1, shooting, monkeypatch, record=False, max_rounds=3)
    assert points   # (once a shot proves too big to follow, shots are played on: too_big)
    from dataclasses import replace
    for point in points:
        option, want = exact[id(point)]
        # the action alone played on (no frames above it), at random inside, many times
        alone = replace(point, frames=())
        runs = [game.explorer.play_on(alone, option, greedy.RANDOM, Horizon())
                for _ in range(1500)]
        got = sum(game.value(world, point.side) for world in runs) / len(runs)
        assert got == pytest.approx(want, abs=0.6), point.labels()[option]


def test_a_tiny_budget_still_plays_on_estimates(scenarios, monkeypatch):
    monkeypatch.setattr(lookahead, "LOOK_AHEAD", 20)
    game = greedy_game(scenarios["sss-standard-game"], 3, record=False, max_rounds=2)
    result = game.play()
    assert result.rounds >= 1 and {"shoot", "move"} <= game.look_ahead.too_big


def test_greedy_players_beat_random_ones(scenarios):
    # what a greedy player is for: in Swords Against Sorcery, either side, played greedily
    # against a random player, wins most games
    scenario = scenarios["greedy-dudes-vs-menace"]
    for side in ("dudes", "menace"):
        wins = sum(Game(scenario, seed, Policies("random", {}, {side: "greedy"})).play().winner
                   == side for seed in range(4))
        assert wins >= 3, side


def test_a_casualty_and_a_fighter_who_left_are_different_states_to_the_memo(scenarios):
    # memoised look-ahead takes equal keys for equal futures: an escaped Dude scores, a dead one
    # does not
    world = scenarios["greedy-dudes-vs-menace"].start()
    from warband.run.world import FIGHTER_REFS
    dead, gone = world.remove(FIGHTER_REFS[0]), world.remove(FIGHTER_REFS[0], withdrawn=True)
    assert dead.fighters[0].position == gone.fighters[0].position
    assert dead.key() != gone.key()
    assert dead.key() == world.remove(FIGHTER_REFS[0]).key()


def test_the_command_that_used_to_stop_with_e504_now_plays():
    # `warband simulate greedy-dudes-vs-menace --policy '*=greedy'` exited 2 with E504
    import json
    import os
    import subprocess
    import sys
    from pathlib import Path
    root = Path(__file__).resolve().parents[1]
    result = subprocess.run(
        [sys.executable, "-m", "warband", "simulate", "greedy-dudes-vs-menace", "--games", "2",
         "--seed", "1", "--policy", "*=greedy", "--format", "json"],
        capture_output=True, text=True, cwd=root, timeout=300,
        env={**os.environ, "PYTHONPATH": str(root / "toolkit")})
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["games"] == 2


def test_greedy_sets_up_where_the_worth_is_best(scenarios, monkeypatch):
    # where a side sets up (deploy, place ... by SIDE) is weighed: the spot taken is the best
    # by worth of those looked at, and the worths tell the spots apart (closing in)
    seen = []

    def placing(point, found):
        if point.kind == "placement":
            worths = [point.worth(i) for i in range(point.count)]
            seen.append(worths)
        return False
    import warband.game.greedy as greedy
    chosen = []
    original = greedy.Greedy.__call__

    def call(self, point):
        index = original(self, point)
        if point.kind == "placement":
            chosen.append(index)
        return index
    monkeypatch.setattr(greedy.Greedy, "__call__", call)
    _points(scenarios["sss-standard-game"], 1, placing, monkeypatch, record=False,
            max_rounds=1)
    assert len(seen) == len(chosen) >= 10   # (four shrines by the sides, ten fighters deployed)
    assert all(w[i] == max(w) for w, i in zip(seen, chosen))
    assert any(len(set(w)) > 1 for w in seen)


def test_an_action_is_played_on_to_the_end_of_the_turn_and_no_further(scenarios, monkeypatch):
    # a decision inside an action looks as far as the end of the action, as the exact
    # look-ahead does: no activation begins in its trials; the choice of an action looks to
    # the end of the fighter's turn: its own second action, and no other fighter's activation
    import warband.game.greedy as greedy
    activations = []   # (the fighters that took an action)
    original = Game.act

    def act(self, ref, *args, **kw):
        activations.append(ref.index)
        return original(self, ref, *args, **kw)
    kinds = {}

    def inside(point, found):
        acting = point_game[0].interp.acting
        if point.kind not in kinds and point.resumable and point.kind in (
                "action", "fate_reroll") and acting is not None:
            kinds[point.kind] = point, acting.index
        return False
    point_game: list = []
    play = Game.play

    def playing(self):
        point_game.append(self)
        return play(self)
    monkeypatch.setattr(Game, "play", playing)
    game, _ = _points(scenarios["sss-standard-game"], 2, inside, monkeypatch, record=False,
                      max_rounds=2)
    assert set(kinds) == {"action", "fate_reroll"}
    monkeypatch.setattr(Game, "act", act)
    for kind, (point, acting) in kinds.items():
        horizon = greedy.horizon(point, 2, acting)
        assert horizon.action_end == (kind != "action")
        for option in range(point.count):
            del activations[:]
            game.state.round = 1
            game.explorer.play_on(point, option, greedy.RANDOM,
                                  greedy.horizon(point, 2, acting))
            if kind == "action":
                assert set(activations) <= {acting}, activations
            else:
                assert activations == [], activations


def test_a_greedy_placement_policy_alone_weighs_where_sides_set_up(scenarios, monkeypatch):
    # `--policy placement=greedy` with random players otherwise: the set-up is weighed too (a
    # random player's quick draw of one spot once skipped it: every spot list was one spot)
    from warband.game.engine import Game
    from warband.run.decisions import Policies
    import warband.game.players as players
    weighed = []
    original = players.Players.weigh_spot

    def weigh_spot(self, policy, side, spots, world, worth):
        weighed.append(len(spots))
        return original(self, policy, side, spots, world, worth)
    monkeypatch.setattr(players.Players, "weigh_spot", weigh_spot)
    Game(scenarios["sss-standard-game"], 1,
         Policies("random", by_decision={"placement": "greedy"})).play()
    assert len(weighed) >= 10 and all(n > 1 for n in weighed)
