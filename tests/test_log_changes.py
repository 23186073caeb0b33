"""A game's log tells every change of a flag or counter once, in order, when it happens (issue
32, B14: a marker's first counter change was lost, and later ones appeared only after the next
fighter's move; wounds on a model that did not fall were never told).

The whole-class test: many seeded games of every shipped scenario, and of a scenario whose
marker counts down, are recorded; the state the log's `change` and `piece` events describe,
applied in order from the start, must be the world's own at every activation and at the end.
"""

from __future__ import annotations

import pytest

from warband.game.engine import Game
from warband.game.scenario import load_scenario
from warband.run.decisions import Policies

SHIPPED = ["sss-standard-game", "smart-dungeon", "greedy-dudes-vs-menace",
           "fogbound-drowned-market", "ashfall-relay-beacons"]

TICKING = '''
ruleset "ticking"
  title "A fuse that counts down"
  extends "super-simple-skirmish"

marker bomb "It goes off when its Ticks reach 0"
counter Ticks on bomb from 5 "Rounds left on the fuse"

phase tick() "Every round the fuse burns down" {
  for each b in pieces(bomb) {
    set b.Ticks -= 1
  }
}

scenario fuse "Kill each other before the bomb goes off" {
  board 24 by 24 inches
  side a { fighter "Hero" count 3 { class Soldier  stat Might = 10 } }
  side b { fighter "Foe" count 3 { class Warrior  stat Might = 10 } }
  zone south = edge south depth 3
  zone north = edge north depth 3
  setup {
    place bomb at (12, 12)
    deploy a in south
    deploy b in north
  }
  round {
    tick()
    game_round()
  }
  rounds 4
  score a = total(f.Might for f in b.casualties)
  score b = total(f.Might for f in a.casualties)
}
'''


class Told(Game):
    """A recorded game that checks, at each activation and at the end, that the log's changes
    applied in order give the world's flags and counters (of fighters, sides and pieces)."""

    def __init__(self, *args, **kwargs) -> None:
        kwargs["record"] = True
        super().__init__(*args, **kwargs)
        states = self.ruleset.states
        self.fighter_states = [n for n, s in states.items() if s.owner == "fighter"]
        self.side_states = [n for n, s in states.items() if s.owner == "side"]
        self.checked = 0

    def told(self, world) -> None:
        start = self.scenario.start()
        fighters = {f.name: {n: f.values[n] for n in self.fighter_states}
                    for f in start.fighters}
        sides = {s.name: {n: s.values[n] for n in self.side_states} for s in start.sides}
        pieces: dict[str, dict] = {}
        counts: dict[str, int] = {}
        for e in self.log.events:
            kind = e["type"]
            if kind == "place" and e.get("to") is None:
                counts[e["marker"]] = counts.get(e["marker"], 0) + 1
                initial = {n: s.initial for n, s in self.ruleset.states.items()
                           if s.owner == e["marker"]}
                pieces[f"{e['marker']} {counts[e['marker']]}"] = initial
            elif kind == "change" and e["field"] in self.fighter_states + self.side_states:
                held = fighters[e["fighter"]] if e.get("fighter") else sides[e["side"]]
                assert held[e["field"]] == e["old"], (e, held)   # each change once, in order
                held[e["field"]] = e["new"]
            elif kind == "piece":
                assert pieces[e["piece"]][e["field"]] == e["old"], (e, pieces)
                pieces[e["piece"]][e["field"]] = e["new"]
        for f in world.fighters:
            assert {n: f.values[n] for n in self.fighter_states} == fighters[f.name], f.name
        for s in world.sides:
            assert {n: s.values[n] for n in self.side_states} == sides[s.name], s.name
        placed = [p for p in world.pieces if p.kind in counts]
        numbers: dict[str, int] = {}
        for p in placed:
            numbers[p.kind] = numbers.get(p.kind, 0) + 1
            assert p.values == pieces[f"{p.kind} {numbers[p.kind]}"], (p.kind, numbers[p.kind])
        self.checked += 1

    def activate_now(self, stmt, ref, exclude, world, generated=False):
        self.told(world.freeze() if hasattr(world, "freeze") else world)
        return super().activate_now(stmt, ref, exclude, world, generated)


def _play(scenario, seeds, policy="random"):
    for seed in seeds:
        game = Told(scenario, seed, Policies(policy))
        game.play()
        game.told(game.ended)
        assert game.checked > 1
        yield game


@pytest.mark.parametrize("name", SHIPPED)
def test_the_log_tells_every_change_once_in_order(name):
    scenario = load_scenario(name)
    assert not isinstance(scenario, list), scenario
    seeds = range(1, 9) if name != "smart-dungeon" else range(1, 4)
    for _ in _play(scenario, seeds):
        pass


def test_a_markers_counter_is_told_from_its_first_change(tmp_path):
    path = tmp_path / "fuse.rules"
    path.write_text(TICKING)
    scenario = load_scenario(str(path))
    assert not isinstance(scenario, list), scenario
    for game in _play(scenario, range(1, 6)):
        ticks = [(e["old"], e["new"]) for e in game.log.events
                 if e["type"] == "piece" and e["field"] == "Ticks"]
        rounds = max(e.get("round", 0) for e in game.log.events)
        assert ticks == [(6 - k, 5 - k) for k in range(1, rounds + 1)], (ticks, rounds)
        # told in the round it happens, before anyone acts in that round
        events = game.log.events
        first = next(i for i, e in enumerate(events) if e["type"] == "piece")
        assert events[first]["round"] == 1
        assert not any(e["type"] == "activate" for e in events[:first])


def test_wounds_on_a_model_that_stands_are_told():
    scenario = load_scenario("ashfall-relay-beacons")
    assert not isinstance(scenario, list), scenario
    told = [e for game in _play(scenario, range(1, 4)) for e in game.log.events
            if e["type"] == "change" and e["field"] == "wounds left on the model hit"]
    assert told and all(e["new"] < e["old"] for e in told)
