"""Invariants of movement over many seeded games of every shipped scenario (issue 32, A3 and A4):

- no base ever overlaps another: after every move, deployment, placement and action, two
  fighters in play stand at least a base apart (inches, less the touching tolerance) or on
  different squares;
- no move passes through a base that blocks it: Super Simple Skirmish's moves pass through
  friends ("fighters cannot move through enemy fighters") but never through an enemy, and do
  pass friends in some games (else the rule would test nothing), and none goes further than
  its roll.

The states are the ones the game page is drawn from (game/viewer.py notes the world after
every statement, action and move of the record), so the checks read what a player sees.
"""

from __future__ import annotations

import functools
import math

import pytest

from warband.game.board import BASE, CONTACT
from warband.game.scenario import load_scenario
from warband.game.viewer import WatchedGame
from warband.run.decisions import Policies

SCENARIOS = ["sss-standard-game", "smart-dungeon", "greedy-dudes-vs-menace",
             "fogbound-drowned-market", "ashfall-relay-beacons"]
NEAR = BASE - CONTACT - 1e-9


class Checked(WatchedGame):
    """A game that checks, at every state the page notes, that no bases overlap, and keeps
    every move's start, end and the bases around it."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.overlaps: list = []
        self.moves: list = []

    def look(self, world) -> None:
        super().look(world)
        if self.log is not self.own_log:
            return
        standing = [(f.name, f.position) for f in world.fighters
                    if not f.removed and f.position is not None]
        for i, (a, pa) in enumerate(standing):
            for b, pb in standing[i + 1:]:
                if (pa == pb) if self.board.squares else math.dist(pa, pb) < NEAR:
                    self.overlaps.append((self.round, a, b, pa, pb))

    def travel(self, ref, reach, away, world, target=None, through=None):
        after = super().travel(ref, reach, away, world, target, through)
        if self.log is self.own_log:
            f = world.fighters[ref.index]
            others = [(g.side == f.side, g.position) for i, g in enumerate(world.fighters)
                      if i != ref.index and not g.removed and g.position is not None]
            end = after.fighters[ref.index].position
            way = self.movement.way if end != f.position else []
            assert not way or (way[0] == f.position and way[-1] == end), (way, f.position, end)
            self.moves.append((f.position, end, float(reach), through, others,
                               way or [f.position, end]))
        return after


# random games a scenario (the standard game's are quick), and a couple with greedy players
GAMES = {"sss-standard-game": 40, "smart-dungeon": 8}


@functools.lru_cache(maxsize=None)
def _games(scenario: str, policy: str = "random") -> tuple:
    """((seed, game), ...): the seeded games of a scenario, played once for every test."""
    loaded = load_scenario(scenario)
    assert not isinstance(loaded, list), loaded
    played = []
    for seed in range(1, (GAMES.get(scenario, 15) if policy == "random" else 2) + 1):
        game = Checked(loaded, seed, Policies(policy))
        game.play()
        played.append((seed, game))
    return tuple(played)


@pytest.mark.parametrize("scenario", SCENARIOS)
def test_no_base_ever_overlaps_another(scenario):
    for seed, game in _games(scenario) + _games(scenario, "greedy"):
        assert game.overlaps == [], (seed, game.overlaps[:3])


def _gap(p, a, b) -> float:
    """How near point p comes to the segment from a to b."""
    ax, ay = a
    dx, dy = b[0] - ax, b[1] - ay
    length2 = dx * dx + dy * dy
    t = 0.0 if length2 == 0 else max(0.0, min(1.0, ((p[0] - ax) * dx + (p[1] - ay) * dy)
                                               / length2))
    return math.dist(p, (ax + t * dx, ay + t * dy))


def test_super_simple_skirmish_moves_pass_friends_and_never_enemies():
    """Along the way each move went (straight, or round what stood in the straight way: issue
    37, item 3), never through an enemy's base; through a friend's in some games; never
    further than its roll; and some moves do go round (else the check of the way tests no
    more than a straight line)."""
    passed_friends = crossed_enemies = went_round = 0
    for seed, game in _games("sss-standard-game"):
        for start, end, reach, through, others, way in game.moves:
            if start == end:
                continue
            assert through == "friends"
            went_round += len(way) > 2
            for friend, at in others:
                if math.dist(start, at) < NEAR:
                    continue   # (a base it starts touching: it may only move off it)
                if any(_gap(at, a, b) < NEAR - 0.02 for a, b in zip(way, way[1:])):
                    if friend:
                        passed_friends += 1
                    else:
                        crossed_enemies += 1
            assert _length(way) <= reach + 0.02, (seed, way, reach)
    assert crossed_enemies == 0
    assert passed_friends >= 1, "no move passed a friend: the test tests nothing"
    assert went_round >= 1, "no move went round a base: the test tests no way round"


def _length(way: list) -> float:
    return sum(math.dist(a, b) for a, b in zip(way, way[1:]))


@pytest.mark.parametrize("scenario", SCENARIOS)
def test_no_way_a_move_goes_is_longer_than_its_allowance(scenario):
    for seed, game in _games(scenario) + _games(scenario, "greedy"):
        board = game.board
        for start, end, reach, _, _, way in game.moves:
            if board.squares:   # (king's steps)
                assert max(abs(end[0] - start[0]), abs(end[1] - start[1])) <= reach
            else:
                assert _length(way) <= reach + 0.02, (seed, way, reach)


def test_no_way_in_the_dungeon_crosses_or_cuts_a_wall():
    """SMART's walls are "complete barriers to one's path of movement": along every way a
    move went, a base's centre keeps half a base from every wall, corners included (a
    diagonal step of the half-inch search once cut a wall's end by up to a sixth of an inch),
    to the hundredth the moves are measured in; and some ways do go round walls."""
    went_round = 0
    for seed, game in _games("smart-dungeon") + _games("smart-dungeon", "greedy"):
        walls = [p for p in game.board.pieces if p.to is not None]
        assert walls
        for start, end, _, _, _, way in game.moves:
            went_round += len(way) > 2
            for a, b in zip(way, way[1:]):
                for k in range(21):
                    p = (a[0] + (b[0] - a[0]) * k / 20, a[1] + (b[1] - a[1]) * k / 20)
                    near = min(_gap(p, w.at, w.to) for w in walls)
                    assert near >= BASE / 2 - 0.01, (seed, way, p, near)
    assert went_round, "no move went round a wall: the test tests nothing"
