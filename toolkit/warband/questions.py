"""The board's answers to the questions rules ask of it: distance, sees, obscured, contact,
engaged.

The rules ask them for every target of every action an activated fighter might take, several
hundred times a game, so each is one method taking the fighters' Refs and the world, called
straight from generated code (`I.q_contact(a, b, world)`): the interpreter has the answers
for a game without a board (in reach, in sight), and a game puts these in their place. Sight
depends only on two positions and the pieces on the board, and is kept by the Board.
"""

from __future__ import annotations

import math
from itertools import repeat
from fractions import Fraction

from warband.board import BASE, CONTACT, Board

NAMES = ("distance", "sees", "obscured", "contact", "engaged")
KEPT = 100_000   # answers kept: distances to markers by position, the rules' numbers by hundredths


class Questions:
    def __init__(self, board: Board) -> None:
        self.board = board
        # What is worked out from where the fighters stand, for one world until a fighter in
        # it moves or falls (World.moves, Draft.moves): an activation asks engaged and
        # obscured of the same world for each action and target. The world is held, so it
        # is not another one that happens to take its place in memory.
        self._world, self._moves, self._in_play, self._enemies = None, -1, [], {}

    def in_play(self, world) -> list:
        """(index, side, position) of each fighter in play on the board."""
        if world is not self._world or world.moves != self._moves:
            self._world, self._moves, self._enemies = world, world.moves, {}
            self._in_play = [(i, f.side, f.position) for i, f in enumerate(world.fighters)
                             if not f.removed and f.position is not None]
        return self._in_play

    def enemies_of(self, side: int, world) -> list:
        """The positions of the fighters in play on the board not on the side."""
        in_play = self.in_play(world)
        found = self._enemies.get(side)
        if found is None:
            found = self._enemies[side] = [p for _, s, p in in_play if s != side]
        return found

    def install(self, interp) -> None:
        """Answer the interpreter's (and its generated code's) questions from this board."""
        for name in NAMES:
            setattr(interp, "q_" + name, getattr(self, name))

    def distance(self, a, b, world):
        pa = world.fighters[a[1]].position
        if pa is None:
            return 0
        if type(b) is str:   # a kind of marker: its nearest piece
            # kept by position: a fighter that stays put asks again every turn, and a
            # Fraction is slow to make
            kept = self.board.by_pieces
            found = kept.get((pa, b))
            if found is None:
                if len(kept) > KEPT:
                    kept.clear()
                found = kept[(pa, b)] = plain_number(self.board.distance_to_kind(pa, b))
            return found
        pb = world.fighters[b[1]].position
        if pb is None:
            return 0
        return plain_number(self.board.distance(pa, pb))

    def contact(self, a, b, world) -> bool:
        pa, pb = world.fighters[a[1]].position, world.fighters[b[1]].position
        if pa is None or pb is None:
            return True
        if self.board.squares:
            return max(abs(pa[0] - pb[0]), abs(pa[1] - pb[1])) == 1
        return math.dist(pa, pb) - BASE <= CONTACT

    def sees(self, a, b, world) -> bool:
        pa, pb = world.fighters[a[1]].position, world.fighters[b[1]].position
        if pa is None or pb is None:
            return True
        return self.board.sees(pa, pb)

    def obscured(self, a, b, world) -> bool:
        fighters = world.fighters
        pa, pb = fighters[a[1]].position, fighters[b[1]].position
        if pa is None or pb is None:
            return False
        ia, ib = a[1], b[1]
        others = [p for i, _, p in self.in_play(world) if i != ia and i != ib]
        return self.board.obscured(pa, pb, others)

    def engaged(self, a, world) -> bool:
        """In contact with an enemy in play (every fighter at the end of its side's turn)."""
        me = world.fighters[a[1]]
        pa = me.position
        if pa is None:
            return False
        enemies = self.enemies_of(me.side, world)
        if not enemies:
            return False
        if self.board.squares:
            ax, ay = pa
            for px, py in enemies:
                if max(abs(ax - px), abs(ay - py)) == 1:
                    return True
            return False
        # the nearest enemy, measured by map in C (d - BASE <= CONTACT for some enemy's d
        # exactly when it holds for the smallest d)
        return min(map(math.dist, repeat(pa, len(enemies)), enemies)) - BASE <= CONTACT


_EXACT: dict = {}   # hundredths of an inch -> the rules' number: a Fraction is slow to make


def plain_number(x: float):
    """Board distances as the rules' numbers: exact when whole, else a Fraction."""
    if x == float("inf"):
        return 10 ** 9
    if float(x).is_integer():
        return int(x)
    hundredths = round(x * 100)   # to the hundredth of an inch: exact
    found = _EXACT.get(hundredths)
    if found is None:   # (a few thousand at most on a board of a few feet)
        if len(_EXACT) > KEPT:
            _EXACT.clear()
        found = _EXACT[hundredths] = (hundredths // 100 if hundredths % 100 == 0 else
                                      Fraction(hundredths, 100))
    return found
