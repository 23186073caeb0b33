"""What a position is worth to a side: what the players that weigh (greedy, mcts) maximise.

A scenario's `value SIDE = EXPR` says it when written. Otherwise the worth is read from what
the scenario rewards, in this order of weight:

1. the end: a side that has conceded or has nobody left has lost, whatever its score (the
   engine's result gives the game to a standing side), and the last side standing has won:
   WON more or less than any score;
2. the score: the side's `score` minus the best other side's, as the game's result reads it,
   with every objective the score names (beacons held, crates carried, enemies downed);
3. material: each fighter in play, the side's minus the other's, a hundredth of a point;
4. the way to what scores: each fighter's distance to the nearest enemy in play or piece worth
   going to (a marker that is no terrain: not impassable, opaque or obscuring; a crate, a
   beacon, a door), less worth the further, by at most a hundredth of a point for a fighter
   across the whole board. It breaks ties, so that a player closes in rather than standing still
   when nothing scores yet; a look-ahead that reaches a score sees the score.

Nothing of any game system is here: scores, objectives, markers and fighters are the rules'.
"""

from __future__ import annotations

import math
from itertools import repeat
from typing import TYPE_CHECKING

from warband.game import pieces
from warband.game.board import BASE
from warband.run.world import World

if TYPE_CHECKING:
    from warband.game.board import Board
    from warband.game.engine import Game

WON = 10_000          # the worth of having won (a score is far below it)
MATERIAL = 0.01       # a fighter in play
CLOSING = 0.01        # a fighter at the nearest thing worth going to, against one a board away
TERRAIN = ("impassable", "opaque", "obscuring")


class Worth:
    """A game's worth of a position (one per game: what it reads of the scenario is kept)."""

    def __init__(self, game: Game) -> None:
        self.game = game
        board: Board = game.board
        self.board = board
        self.squares = board.squares
        self.across = math.hypot(board.width, board.height) or 1.0
        # the pieces worth going to: their indices in the board's (and the World's) pieces,
        # worked out again when the rules place more
        self.goals: tuple[int, ...] = ()
        self.placed = 0

    def __call__(self, world: World, side: int) -> float:
        game = self.game
        own = game.side_value(world.sides[side].name)
        if own is not None:   # the scenario's `value` for the side
            return float(own(world))
        return float(self.ending(world, side)) + float(game.score_margin(world, side)) + \
            self.material(world, side) + self.closing(world, side)

    def ending(self, world: World, side: int) -> int:
        """WON for the last side standing, -WON for one out of the game, else 0."""
        standing = [False] * len(world.sides)
        for f in world.fighters:
            if not f.removed:
                standing[f.side] = True
        for i, s in enumerate(world.sides):
            if s.conceded:
                standing[i] = False
        if not standing[side]:
            return -WON
        return WON if sum(standing) == 1 else 0

    def material(self, world: World, side: int) -> float:
        alive = [0] * len(world.sides)
        for f in world.fighters:
            if not f.removed:
                alive[f.side] += 1
        return MATERIAL * (alive[side] - max((a for i, a in enumerate(alive) if i != side),
                                             default=0))

    def closing(self, world: World, side: int) -> float:
        """Less the further the side's fighters stand from what is worth going to."""
        board = self.board
        mine: list[tuple[float, float]] = []
        targets: list[tuple[float, float]] = []
        for f in world.fighters:
            if f.removed or f.position is None:
                continue
            (mine if f.side == side else targets).append(f.position)
        if not mine:
            return 0.0
        if len(board.pieces) != self.placed:
            self.placed = len(board.pieces)
            self.goals = tuple(i for i, p in enumerate(board.pieces) if p.to is None and
                               not any(board.has(p.kind, prop) for prop in TERRAIN))
        held = world.pieces
        for i in self.goals:
            if i >= len(held):
                targets.append(board.pieces[i].at)
            elif held[i].carrier is None:   # (a piece someone carries is no goal)
                targets.append(pieces.where_now(board, i, world).at)
        if not targets:
            return 0.0
        # board.distance to the nearest target, written out (asked of every look-ahead's end):
        # king's steps on squares; in inches, the nearest centre less a base, never below 0
        total = 0.0
        if self.squares:
            for x, y in mine:
                total += min(max(abs(x - tx), abs(y - ty)) for tx, ty in targets)
        else:
            dist = math.dist
            for at in mine:
                total += max(0.0, min(map(dist, repeat(at), targets)) - BASE)
        return -CLOSING * total / (len(mine) * self.across)
