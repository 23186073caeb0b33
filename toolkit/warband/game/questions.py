"""The board's answers to the questions rules ask of it: distance, sees, obscured, contact,
engaged.

The rules ask them for every target of every action an activated fighter might take, several
hundred times a game, so each is one method taking the fighters' Refs and the world, called
straight from generated code (`I.board.contact(a, b, world)`): this is the BoardView
(run/board_view.py) a game gives its interpreter, with the areas and facing of facing.py.
Sight depends only on two positions and the pieces on the board, and is kept by the Board.
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import TYPE_CHECKING

from warband.game import pieces
from warband.game.board import BASE, CONTACT, Board
from warband.game.facing import Facing
from warband.run import units
from warband.run.evaluate import FAR

KEPT = 100_000   # answers kept: distances to markers by position, the rules' numbers by hundredths


class Questions:
    """A game's board, as its interpreter asks it (a run.board_view.BoardView)."""

    def __init__(self, board: Board, facing: Facing, mobile: bool = False) -> None:
        self.board = board
        # carrying pieces: whether the rules move pieces, so that distances to a kind of
        # marker are measured to where its pieces are now, not where the board put them
        self.mobile = mobile
        # areas and facing (facing.py): asked straight, as the rest
        self.facing = facing
        self.square, self.circle, self.cone, self.line = (
            facing.square, facing.circle, facing.cone, facing.line)
        self.in_front, self.in_rear, self.face = facing.in_front, facing.in_rear, facing.face

    def carriers(self, a, piece, world) -> int:   # (the World answers it)
        return units.carriers(world, a, piece)

    # units of models with places (game/formation.py answers these from each model's place):
    # here every model of a unit stands at its one position
    def models_in_range(self, a, b, reach, world):
        """How many of a's models are within `reach` of b: all of them, or none."""
        return world.fighters[a[1]].values.get("#models", 1) \
            if self.distance(a, b, world) <= reach else 0

    def models_seeing(self, a, b, world):
        """How many of a's models see b: all of them, or none."""
        return world.fighters[a[1]].values.get("#models", 1) if self.sees(a, b, world) else 0

    def distance(self, a, b, world):
        pa = world.fighters[a[1]].position
        if pa is None:
            return 0
        if type(b) is str and self.mobile:   # carrying pieces: where each is now
            return plain_number(pieces.nearest(self.board, pa, b, world))
        if type(b) is str:   # a kind of marker: its nearest piece
            # kept by position: a fighter that stays put asks again every turn, and a
            # Fraction is slow to make
            kept = self.board.by_pieces
            found = kept.get((pa, b))
            if found is None:
                if len(kept) > KEPT:
                    kept.clear()
                found = kept[(pa, b)] = plain_number(self.board.nearest(pa, b))
            return found
        if type(b) is tuple or b is None:   # position as a value: to a point (or nowhere)
            return plain_number(pieces.to_point(self.board, pa, b))
        if b[0] == "piece":   # pieces as values: to one piece
            return plain_number(pieces.gap(self.board, pa, b, world))
        pb = world.fighters[b[1]].position
        if pb is None:
            return 0
        return plain_number(self.board.distance(pa, pb))

    def contact(self, a, b, world) -> bool:
        if b[0] == "piece":   # pieces as values: standing on it or next to it
            pa = world.fighters[a[1]].position
            return True if pa is None else pieces.touching(self.board, pa, b, world)
        pa, pb = world.fighters[a[1]].position, world.fighters[b[1]].position
        if pa is None or pb is None:
            return True
        if self.board.squares:
            return max(abs(pa[0] - pb[0]), abs(pa[1] - pb[1])) == 1
        return math.dist(pa, pb) - BASE <= CONTACT

    def inside(self, a, zone, world) -> bool:
        """inside(f, ZONE): f stands in the zone (its whole base, in inches); inside(f, KIND),
        inside(f, p): in a piece of the kind, or in that piece (terrain with extent: its
        whole base on it)."""
        pa = world.fighters[a[1]].position
        if pa is None:
            return True
        if type(zone) is str and zone in self.board.zones:
            return self.board.in_zone(pa, self.board.zones[zone])
        return self.on_pieces(pa, zone, world, True)

    def partly_inside(self, a, where, world) -> bool:
        """partly_inside(f, KIND), partly_inside(f, p): some of f's base on a piece of the
        kind, or on that piece (touching its edge is not enough); on squares, on its square."""
        pa = world.fighters[a[1]].position
        return True if pa is None else self.on_pieces(pa, where, world, False)

    def on_pieces(self, pa, where, world, whole: bool) -> bool:
        board = self.board
        if type(where) is str:   # a kind of marker: any of its pieces, where each is now
            found = [pieces.where_now(board, i, world) if self.mobile else p
                     for i, p in enumerate(board.pieces) if p.kind == where]
        else:   # one piece
            found = [pieces.where_now(board, where[1], world)]
        if board.squares:
            return any(p.at == pa for p in found if p.to is None)
        return any(board.on(pa, p, whole) for p in found)

    def pieces(self, kind, world) -> tuple:
        """pieces(KIND): every piece of the kind on the board (pieces.py)."""
        return pieces.of_kind(world, kind)

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
        others = [g.position for i, g in enumerate(fighters) if not g.removed and
                  g.position is not None and i != a[1] and i != b[1]]
        return self.board.obscured(pa, pb, others)

    def engaged(self, a, world) -> bool:
        """In contact with an enemy in play."""
        me = world.fighters[a[1]]
        pa, side = me.position, me.side
        if pa is None:
            return False
        if self.board.squares:
            ax, ay = pa
            for g in world.fighters:
                p = g.position
                if p is not None and g.side != side and not g.removed and \
                        max(abs(ax - p[0]), abs(ay - p[1])) == 1:
                    return True
            return False
        dist = math.dist
        for g in world.fighters:   # (the side first: half the fighters are friends)
            if g.side != side and not g.removed:
                p = g.position
                if p is not None and dist(pa, p) - BASE <= CONTACT:
                    return True
        return False


class Measure(Fraction):
    """A board distance that is not whole (in hundredths of an inch): a Fraction that compares
    with a whole number straight away. Fraction's own comparison first asks whether the other
    number is a numbers.Rational, an abstract class, which costs more than the rest of it, and
    every turn asks whether each fighter is within 3" of a shrine. Arithmetic on a Measure
    gives a plain Fraction."""

    __slots__ = ()
    if TYPE_CHECKING:   # Fraction's own fields, read straight for speed
        _numerator: int
        _denominator: int

    def __lt__(self, other):
        if type(other) is int:
            return self._numerator < other * self._denominator
        return Fraction.__lt__(self, other)

    def __le__(self, other):
        if type(other) is int:
            return self._numerator <= other * self._denominator
        return Fraction.__le__(self, other)

    def __gt__(self, other):
        if type(other) is int:
            return self._numerator > other * self._denominator
        return Fraction.__gt__(self, other)

    def __ge__(self, other):
        if type(other) is int:
            return self._numerator >= other * self._denominator
        return Fraction.__ge__(self, other)

    def __repr__(self) -> str:   # (as a Fraction: a Measure is one, to whoever reads it)
        return f"Fraction({self._numerator}, {self._denominator})"


_INF = math.inf
_EXACT: dict = {}   # hundredths of an inch -> the rules' number: a Fraction is slow to make


def plain_number(x: float):
    """Board distances as the rules' numbers, to the hundredth of an inch: a whole number
    when whole, else a Fraction (kept: every turn asks again)."""
    if x == _INF:   # to nothing (no piece of a kind, a piece carried off)
        return FAR
    hundredths = round(x * 100)   # to the hundredth of an inch: exact
    found = _EXACT.get(hundredths)
    if found is None:   # (a few thousand at most on a board of a few feet)
        if len(_EXACT) > KEPT:
            _EXACT.clear()
        found = _EXACT[hundredths] = (hundredths // 100 if hundredths % 100 == 0 else
                                      Measure(hundredths, 100))
    return found
