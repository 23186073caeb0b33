"""The game as one state (game/state.py): a game resumed from a copy of its state at any
decision plays on exactly as the game itself did; players that weigh never decide at random
and never disturb the game they look ahead in; a search is the same search for its seed."""

from __future__ import annotations

import pytest

import warband.game.players as players_module
from warband.game.engine import Game
from warband.game.scenario import load_scenario
from warband.game.state import GameOver, resumable
from warband.run.decisions import Policies

SHIPPED = ("sss-standard-game", "greedy-dudes-vs-menace", "smart-dungeon",
           "ashfall-relay-beacons", "fogbound-drowned-market")


@pytest.fixture(scope="module")
def scenarios():
    return {name: load_scenario(name) for name in SHIPPED}


def _resumed_from_a_decision(scenario, seed: int, monkeypatch, kind: str = "action",
                             at_round: int = 2):
    """A game, and the same game resumed from a copy of its state taken at its first
    decision of `kind` from `at_round` on (after the choice was drawn): (the game, the World
    it ended with)."""
    from warband.game.gamelog import GameLog
    monkeypatch.setattr(players_module.Players, "look_past_runs", lambda self: True)
    kept = []
    original = players_module.Players.pick

    def pick(self, side, what, labels, world, worth=None, count=0, resume=None):
        index = original(self, side, what, labels, world, worth, count, resume)
        game = self.game
        if not kept and resume is not None and what == kind and \
                game.state.round >= at_round and resumable(game.state.frames):
            kept.append((game.state.clone(log=GameLog()), tuple(game.state.frames),
                         game.interp.run_context(), resume, world, index))
        return index
    monkeypatch.setattr(players_module.Players, "pick", pick)
    # (players that take the first option: a random one draws its action without asking
    # Players.pick; the dice are drawn as ever)
    game = Game(scenario, seed, Policies("first"))
    game.play()
    if not kept:
        return game, None
    state, frames, context, resume, world, index = kept[0]
    with game.running(state, Policies("first"), None):
        game.interp.enter_context(context)
        try:
            ended = game.unwind(resume(index, world), frames)
        except GameOver as over:
            ended = over.world
    return game, ended


@pytest.mark.parametrize("name", SHIPPED)
@pytest.mark.parametrize("seed", [1, 2, 3])
@pytest.mark.parametrize("kind", ["action", "destination"])
def test_a_game_resumed_from_a_copy_of_its_state_plays_on_as_the_game_did(
        scenarios, name, seed, kind, monkeypatch):
    # (a destination: inside a move, itself inside an action or a phase; a move out of
    # contact, `travel f up to D not into contact`, in Swords Against Sorcery's flight)
    game, ended = _resumed_from_a_decision(scenarios[name], seed, monkeypatch, kind)
    if ended is None:
        pytest.skip(f"no {kind} with more than one option from the second round on")
    if type(ended).__name__ == "Draft":
        ended = ended.freeze()
    assert ended == game.ended


def test_greedy_players_never_decide_at_random(scenarios, monkeypatch):
    # every decision a greedy side meets is weighed: which action, where to go, how many
    # dice, a reroll, a morale choice (the four kinds of wasted decision), and where
    # it sets up (Players.place_spot)
    picking = []
    original, draw = players_module.Players.pick, players_module.random_below
    place_spot = players_module.Players.place_spot

    def deciding(decide):
        def decided(self, *args, **kw):
            # (the game's own decisions: a look-ahead's players decide at random by design)
            picking.append(self.game if self.policies.default == "greedy" else None)
            try:
                return decide(self, *args, **kw)
            finally:
                picking.pop()
        return decided
    pick = deciding(original)
    monkeypatch.setattr(players_module.Players, "place_spot", deciding(place_spot))

    def never(rng, n):
        # (not in a look-ahead, whose players play on at random by design: Game.horizon)
        if picking and picking[-1] is not None and picking[-1].horizon is None:
            raise AssertionError("a greedy side decided at random")
        return draw(rng, n)
    monkeypatch.setattr(players_module.Players, "pick", pick)
    monkeypatch.setattr(players_module, "random_below", never)
    for name in SHIPPED:
        game = Game(scenarios[name], 1, Policies("greedy"), max_rounds=2)
        game.play()


@pytest.mark.parametrize("name", ["sss-standard-game", "greedy-dudes-vs-menace"])
def test_a_search_is_the_same_search_for_its_seed(scenarios, name):
    sides = scenarios[name].side_names
    policies = Policies("random", {}, {sides[0]: "mcts:12"})
    first = Game(scenarios[name], 7, policies, record=True, max_rounds=2)
    again = Game(scenarios[name], 7, policies, record=True, max_rounds=2)
    assert first.play() == again.play()
    assert first.log.events == again.log.events
    assert first.explorer.runs > 0


def test_a_search_looks_only_at_what_greedy_has_not_ruled_out(scenarios, monkeypatch):
    # mcts:N starts from greedy's estimates (game/search.py): where greedy leaves one option
    # the search takes it without a run of its own
    import warband.game.explore as explore
    import warband.game.greedy as greedy
    import warband.game.search as search
    original, play_on = greedy.Greedy.estimates, explore.Explorer.play_on
    left, searched = [], []

    def estimates(self, point):
        found = original(self, point)
        best = max(found, key=lambda i: (found[i], -i))
        left.append(best)
        return {best: found[best]}

    def runs(self, point, option, policies, horizon):
        searched.append(policies is search.TREE)
        return play_on(self, point, option, policies, horizon)
    monkeypatch.setattr(greedy.Greedy, "estimates", estimates)
    monkeypatch.setattr(explore.Explorer, "play_on", runs)
    searching, taken = search.Search.__call__, []

    def call(self, point):
        del left[:]
        index = searching(self, point)
        if left:   # (a decision the search weighed, not one it left to greedy)
            taken.append(index == left[-1])
        return index
    monkeypatch.setattr(search.Search, "__call__", call)
    sides = scenarios["fogbound-drowned-market"].side_names
    Game(scenarios["fogbound-drowned-market"], 2, Policies("random", {}, {sides[0]: "mcts:8"}),
         max_rounds=2).play()
    assert taken and all(taken)
    assert searched and not any(searched)


@pytest.mark.parametrize("policy", ["greedy", "mcts:2"])
def test_a_record_of_a_game_played_by_players_that_look_ahead_replays(scenarios, policy):
    # a look-ahead sets the record aside while it plays on: what the interpreter compiles
    # then (a roll's comparison, which the record tells with the roll) must still tell the
    # game's own record afterwards, or the replay, which looks nothing ahead, differs
    scenario = scenarios["sss-standard-game"]
    policies = Policies("random", {}, {"empire": policy})
    played = Game(scenario, 3, policies, record=True, max_rounds=1)
    result = played.play()
    replay = Game(scenario, 3, policies, script=list(played.log.events), max_rounds=1)
    assert replay.play() == result
    assert replay.log.events == played.log.events
