"""Facing, and areas placed on a board: the game's answers to in_front, in_rear and the
templates (square, circle, cone, line: their geometry is run/areas.py).

A fighter on a board faces a way: the way it last went (a move sets it: `moved`, called by
the movement), or the way `face f towards g` turned it; before either, the way to the board's
centre (where the fight is: a fighter deployed on its table edge faces the enemy's). Facing is
kept in the game's state (game/state.py), beside the World, and asked lazily: a game whose
rules never ask it pays one dict store a move. Exact look-ahead (which never moves anyone)
does not change it.

`in_front(f, g)` holds when g's centre lies in f's front half (on the line across f's centre
counts as in front), `in_rear(f, g)` when it lies in the rear half; with an ARC in degrees, in
the arc of that many degrees centred on f's front (or rear). A fighter on f's own spot is in
front of it.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from warband.run import areas

if TYPE_CHECKING:
    from warband.game.board import Board

_EDGE = 1e-9


class Facing:
    def __init__(self, board: Board, game) -> None:
        # the game's log is read where it is needed: look-ahead trials put one of their own
        self.board, self.game = board, game
        w, h = board.width, board.height
        # a board of squares counts its cells from 1
        self.centre = ((w + 1) / 2, (h + 1) / 2) if board.squares else (w / 2, h / 2)

    # ---- facing ----------------------------------------------------------------------------------
    def moved(self, index: int, start, spot) -> None:
        """A fighter went from start to spot: it now faces the way it went."""
        dx, dy = spot[0] - start[0], spot[1] - start[1]
        d = math.hypot(dx, dy)
        if d > _EDGE:
            self.game.state.facing[index] = (dx / d, dy / d)

    def face(self, ref, target, world) -> None:
        """`face f towards g`."""
        a, b = world.fighters[ref[1]].position, world.fighters[target[1]].position
        if a is not None and b is not None:
            self.moved(ref[1], a, b)

    def way(self, index: int, at) -> tuple[float, float]:
        found = self.game.state.facing.get(index)
        if found is not None:
            return found
        dx, dy = self.centre[0] - at[0], self.centre[1] - at[1]
        d = math.hypot(dx, dy)
        return (dx / d, dy / d) if d > _EDGE else (0.0, 1.0)

    def angle(self, a, b, world) -> float | None:
        """Degrees between a's facing and the way to b (None: no positions, or one spot)."""
        pa, pb = world.fighters[a[1]].position, world.fighters[b[1]].position
        if pa is None or pb is None:
            return None
        dx, dy = pb[0] - pa[0], pb[1] - pa[1]
        d = math.hypot(dx, dy)
        if d <= _EDGE:
            return None
        wx, wy = self.way(a[1], pa)
        cos = max(-1.0, min(1.0, (dx * wx + dy * wy) / d))
        return math.degrees(math.acos(cos))

    def in_front(self, a, b, *rest):
        world = rest[-1]
        arc = areas.check_size(rest[0], "a facing arc", 360) if len(rest) > 1 else 180
        angle = self.angle(a, b, world)
        return angle is None or angle <= arc / 2 + _EDGE

    def in_rear(self, a, b, *rest):
        world = rest[-1]
        arc = areas.check_size(rest[0], "a facing arc", 360) if len(rest) > 1 else 180
        angle = self.angle(a, b, world)
        return angle is not None and 180 - angle < arc / 2 - _EDGE

    # ---- areas on this board -----------------------------------------------------------------------
    def _area(self, shape: str, args: tuple):
        world = args[-1]
        area = areas.make(shape, args[:-1], world, self.board.squares)
        if self.game.state.log.record and area.at is not None:
            return areas.Area(area.shape, area.at, area.way, area.size, area.width, area.anchor,
                              area.squares, area.text, self.seen)
        return area

    def seen(self, world, area, found) -> None:
        """The game log: the template placed, and who is under it."""
        names = ", ".join(world.fighters[r[1]].name for r in found) or "nobody"
        log = self.game.state.log
        last = log.events[-1] if log.events else None
        if last is not None and last.get("type") == "template" and \
                last.get("area") == area.text and last.get("under") == names:
            return   # asked again of the same placing: once in the log
        log.event("template", self.game.state.round, area=area.text, under=names)

    def square(self, *args):
        return self._area("square", args)

    def circle(self, *args):
        return self._area("circle", args)

    def cone(self, *args):
        return self._area("cone", args)

    def line(self, *args):
        return self._area("line", args)
