"""Super Simple Skirmish plays by its text: many seeded games of the standard game (random and
greedy players), each read back from its record, event by event, and every rule below checked
in every game. The record says where every fighter was set up and moved, who left play and
what every fighter did; `Table` rebuilds the board from it."""

from __future__ import annotations

import math
import os
import re
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from warband.game.engine import Game
from warband.game.scenario import load_scenario
from warband.run.decisions import Policies

ROOT = Path(__file__).resolve().parents[1]
SSS_GAME = str(ROOT / "scenarios" / "sss-standard-game.rules")
# a few seconds by default; WARBAND_SSS_GAMES=400 for a long run (and a tenth as many greedy)
GAMES = int(os.environ.get("WARBAND_SSS_GAMES", "24"))
RANDOM_SEEDS = range(1, GAMES + 1)
GREEDY_SEEDS = range(1, max(2, GAMES // 10) + 1)
CONTACT = 0.01   # bases this close touch (the board's rule)


@pytest.fixture(scope="module")
def standard():
    scenario = load_scenario(SSS_GAME)
    assert not isinstance(scenario, list), scenario
    return scenario


def point(text: str) -> tuple[float, float]:
    x, y = re.fullmatch(r"\((\S+), (\S+)\)", text).groups()
    return float(x), float(y)


def touching(a, b) -> bool:
    return math.dist(a, b) - 1.0 <= CONTACT


@dataclass
class Activation:
    fighter: str
    side: str
    action: str            # "none" for an idle fighter
    engaged: bool          # in base contact with an enemy when activated
    events: list = field(default_factory=list)   # what happened during it


@dataclass
class Turn:
    side: str
    round: int
    activations: list[Activation] = field(default_factory=list)
    break_offs: list[tuple[str, tuple, tuple]] = field(default_factory=list)
    stuck: list[str] = field(default_factory=list)
    engaged_at_end: list[str] = field(default_factory=list)   # after the break-offs
    second_actions: int = 0   # Command tokens spent ("second_action: yes")


class Table:
    """The board as a record tells it: positions, who is in play, each side's turns."""

    def __init__(self, scenario, events: list[dict]) -> None:
        self.side_of = {spec.name: name for name, force in zip(scenario.side_names,
                                                                scenario.forces)
                        for spec in force}
        self.roster = {name: [spec.name for spec in force]
                       for name, force in zip(scenario.side_names, scenario.forces)}
        self.at: dict[str, tuple[float, float]] = {}
        self.out: set[str] = set()
        self.turns: list[Turn] = []
        self.setup: list[dict] = []
        self.ended = ""
        self.read(events)

    def engaged(self, name: str) -> bool:
        side = self.side_of[name]
        return any(touching(self.at[name], self.at[other]) for other in self.at
                   if other not in self.out and self.side_of[other] != side)

    def read(self, events: list[dict]) -> None:
        placements: list[tuple[str, list]] = []
        turn: Turn | None = None
        current: Activation | None = None
        in_setup = True
        for e in events:
            kind = e["type"]
            if kind == "round":
                in_setup = False
            if in_setup:
                self.setup.append(e)
            if kind == "decision" and e["decision"] == "placement":
                placements.append((e["by"], e["choice"]))
            elif kind == "place" and e.get("by"):
                placements.pop()   # that placement was a piece's
            elif kind == "deploy":
                names = self.roster[e["side"]]
                for name, (_, where) in zip(names, placements):
                    self.at[name] = tuple(where)
                placements.clear()
            elif kind in ("activate", "idle"):
                name = e["fighter"]
                side = self.side_of[name]
                if turn is None or turn.side != side or turn.round != e["round"]:
                    self.close(turn)
                    turn = Turn(side, e["round"])
                    self.turns.append(turn)
                current = Activation(name, side, e.get("action", "none"), self.engaged(name))
                turn.activations.append(current)
            elif kind == "travel":
                name = e["fighter"]
                moving = current is not None and current.fighter == name and \
                    current.action in ("move", "charge") and \
                    not any(x["type"] == "result" for x in current.events)
                if not moving and turn is not None:   # the end of the Activations phase
                    turn.break_offs.append((name, point(e["start"]), point(e["to"])))
                    current = None
                self.at[name] = point(e["to"])
            elif kind == "stuck" and turn is not None:
                turn.stuck.append(e["fighter"])
                current = None
            elif kind == "removed":
                self.out.add(e["fighter"])
            elif kind == "decision" and e["decision"] == "second_action" and turn is not None:
                turn.second_actions += e["choice"] == "yes"
            elif kind == "end":
                self.close(turn)
                self.ended = e["reason"]
            if current is not None:
                current.events.append(e)

    def close(self, turn: Turn | None) -> None:
        if turn is not None:
            turn.engaged_at_end = [n for n in self.roster[turn.side]
                                   if n not in self.out and n in self.at and self.engaged(n)]


def play(scenario, seed: int, policy: str) -> Table:
    game = Game(scenario, seed, Policies(policy), record=True)
    game.play()
    return Table(scenario, game.log.events)


@pytest.fixture(scope="module")
def games(standard):
    return [(f"random {seed}", play(standard, seed, "random")) for seed in RANDOM_SEEDS] + \
           [(f"greedy {seed}", play(standard, seed, "greedy")) for seed in GREEDY_SEEDS]


def by_fighter(turn: Turn) -> dict[str, list[Activation]]:
    out: dict[str, list[Activation]] = {}
    for a in turn.activations:
        out.setdefault(a.fighter, []).append(a)
    return out


def first_word(action: str) -> str:
    return action.split()[0]


# ---- 1. a fighter that defends does nothing else that turn ------------------------------------------

def test_a_defending_fighter_takes_no_second_action(games):
    defended = 0
    for name, table in games:
        for turn in table.turns:
            for fighter, acts in by_fighter(turn).items():
                assert len(acts) <= 2, (name, turn.round, fighter)
                if acts[0].action == "defend":
                    defended += 1
                    assert len(acts) == 1, (name, turn.round, fighter, [a.action for a in acts])
                    assert not any(e.get("decision") == "second_action" for e in acts[0].events)
    assert defended > 20   # the rule was put to the test


# ---- 5. a fighter in base contact must fight; at the end of Activations it breaks off ---------------

def test_a_fighter_in_base_contact_neither_moves_nor_charges_nor_shoots(games):
    engaged = 0
    for name, table in games:
        for turn in table.turns:
            for a in turn.activations:
                if a.engaged and a.action != "none":
                    engaged += 1
                    assert first_word(a.action) in ("melee", "defend"), (name, turn.round, a)
    assert engaged > 20


def test_at_the_end_of_activations_every_fighter_in_contact_moves_1_inch_away_or_the_log_says_why(
        games):
    broke_off = 0
    for name, table in games:
        for i, turn in enumerate(table.turns):
            if i == len(table.turns) - 1 and table.ended == "eliminated":
                continue   # the game ended in the middle of an activation
            for fighter, start, to in turn.break_offs:
                broke_off += 1
                assert abs(math.dist(start, to) - 1.0) <= 0.02, (name, turn.round, fighter)
            assert set(turn.engaged_at_end) <= set(turn.stuck), (name, turn.round, turn.side)
    assert broke_off > 20


# ---- 6. Command: only on a fighter that acted, and never the same action twice ---------------------

SAME = {"move": {"move", "charge"}, "charge": {"move", "charge", "melee"},
        "melee": {"melee", "charge"}, "shoot": {"shoot", "blast"}, "blast": {"shoot", "blast"}}


def test_command_is_spent_only_on_a_fighter_that_acted_and_buys_a_different_action(games):
    seconds = 0
    for name, table in games:
        for turn in table.turns:
            for fighter, acts in by_fighter(turn).items():
                first = acts[0]
                if first.action == "none":   # nothing it could do: no Command offered
                    assert len(acts) == 1
                    assert not any(e.get("decision") == "second_action" for e in first.events)
                if len(acts) == 2:
                    seconds += 1
                    one, two = first_word(first.action), first_word(acts[1].action)
                    assert two not in SAME.get(one, {one}), (name, turn.round, fighter, one, two)
            # a token spent on a second action that turned out to have no legal action comes
            # back; every token spent bought an action
            spent = turn.second_actions
            bought = sum(1 for acts in by_fighter(turn).values()
                         if len(acts) == 2 and acts[1].action != "none")
            assert bought <= spent
    assert seconds > 20
