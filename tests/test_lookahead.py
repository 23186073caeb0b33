"""Greedy players in games (lookahead.py): they see ahead exactly within a budget and estimate
by trial runs beyond it, finish every shipped scenario, beat random players, and never disturb
the game's own dice, choices or record."""

from __future__ import annotations

import pytest

import warband.game.lookahead as lookahead
from warband.game.engine import Game
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
    assert result.ended in ("limit", "condition", "conceded")
    assert game.interp.max_branches is None   # the budget is the look-ahead's only


def test_too_big_to_follow_exactly_is_estimated_and_remembered(scenarios):
    # (seed 3: a game with exchanges and gangs in it; in some games the Dudes get out unfought)
    game = greedy_game(scenarios["greedy-dudes-vs-menace"], 3, record=False)
    game.play()
    # the exchanges of this scenario (hands, allocations) are beyond the budget
    assert "exchange" in game.look_ahead.too_big or "gang_up" in game.look_ahead.too_big
    assert any(type(key) is tuple and key[0] == "decision" for key in game.look_ahead.too_big)


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


def test_trials_leave_the_game_as_it_was(scenarios):
    scenario = scenarios["greedy-dudes-vs-menace"]
    game = greedy_game(scenario, 6)
    world = scenario.start()
    _, world = game.interp.run_nested(game.blocks["setup"], {}, world)
    game.look_ahead.too_big.add("move")
    dudes = [i for i, f in enumerate(world.fighters) if f.side == 0]
    from warband.run.world import FIGHTER_REFS
    option = ("move", {"mover": FIGHTER_REFS[dudes[0]]})
    before = (game.interp.rng.getstate(), game.players.choice_rng.getstate(), len(game.log.events),
              game.interp.policies, game.policies, game.log)
    value = game.look_ahead.action_value(option, 0, world)
    assert isinstance(value, float)
    assert (game.interp.rng.getstate(), game.players.choice_rng.getstate(), len(game.log.events),
            game.interp.policies, game.policies, game.log) == before
    assert game.interp.recorder is game.log and game.interp.in_action == 0


def test_an_estimate_agrees_with_the_exact_value(scenarios, monkeypatch):
    # the actions a greedy Super Simple Skirmish player weighs, valued both ways: with many
    # trials the estimate is the exact expectation, give or take the sampling error (trials
    # decide at random inside the action, so the exact value here is a random player's)
    scenario = scenarios["sss-standard-game"]
    weighed = []
    original = lookahead.LookAhead.action_value

    def keep(self, option, side, world):
        if option[0] == "shoot" and len(weighed) < 3:
            weighed.append((option, side, world))
        return original(self, option, side, world)
    monkeypatch.setattr(lookahead.LookAhead, "action_value", keep)
    game = greedy_game(scenario, 3, record=False, max_rounds=3)
    game.play()
    monkeypatch.setattr(lookahead.LookAhead, "action_value", original)
    assert len(weighed) == 3
    monkeypatch.setattr(lookahead, "TRIALS", 2000)
    monkeypatch.setattr(lookahead, "LOOK_AHEAD", 200_000)
    for option, side, world in weighed:
        exact = Game(scenario, 3, Policies("random"))
        want = exact.look_ahead.action_value(option, side, world)
        assert not exact.look_ahead.too_big
        estimated = greedy_game(scenario, 3, record=False)
        estimated.look_ahead.too_big.add("shoot")
        got = estimated.look_ahead.action_value(option, side, world)
        assert got == pytest.approx(want, abs=0.6), option


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
