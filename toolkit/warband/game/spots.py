"""The spots a player may choose for `choose s within D of AT by WHO` (run/spots.py runs the
decision): on squares, the cells within D king's steps of AT; in inches, the points of a
half-inch grid within D of AT where a base fits (on the board, on nothing impassable).

Every spot is on the grid, so a log writes it exactly and a replay reads back the very point.
A greedy player (and an exact look-ahead) weighs a short list instead of every spot: AT's own
spot and where each fighter in play and each piece within D stands, each moved to the nearest
point of the grid.
"""

from __future__ import annotations

import math

from warband.game.board import Board
from warband.run.world import piece_position

KEPT = 256   # lists of every spot kept, by (centre, reach)


class Spots:
    def __init__(self, board: Board) -> None:
        self.board = board
        self._every: dict = {}

    def near(self, centre, spot, reach) -> bool:
        if self.board.squares:
            return max(abs(spot[0] - centre[0]), abs(spot[1] - centre[1])) <= reach
        return math.dist(centre, spot) <= reach + 1e-9

    def fits(self, centre, reach, spot) -> bool:
        """Whether a spot may be chosen: on the grid, within reach, where a base fits."""
        step = 1 if self.board.squares else 0.5
        on_grid = all(float(c / step).is_integer() for c in spot)
        return on_grid and self.near(centre, spot, reach) and not self.board.blocked(spot)

    def every(self, centre, reach) -> list:
        key = (centre, reach)
        found = self._every.get(key)
        if found is None:
            if len(self._every) > KEPT:
                self._every.clear()
            step = 1 if self.board.squares else 0.5
            lo_x, hi_x = math.ceil((centre[0] - reach) / step), math.floor((centre[0] + reach) / step)
            lo_y, hi_y = math.ceil((centre[1] - reach) / step), math.floor((centre[1] + reach) / step)
            found = self._every[key] = [
                spot for j in range(lo_y, hi_y + 1) for i in range(lo_x, hi_x + 1)
                if self.fits(centre, reach, spot := (_grid(i * step), _grid(j * step)))]
        return found

    def short(self, centre, reach, world) -> list:
        """AT's own spot, then where each fighter in play and each piece within reach stands,
        on the grid (each once, in that order)."""
        places = [centre] + [f.position for f in world.fighters
                             if not f.removed and f.position is not None] + \
            [piece_position(world, i) for i in range(len(world.pieces))]
        out: list = []
        for place in places:
            if place is None:
                continue
            spot = self.snap(place)
            if spot not in out and self.fits(centre, reach, spot):
                out.append(spot)
        return out

    def snap(self, place):
        if self.board.squares:
            return (_grid(round(place[0])), _grid(round(place[1])))
        return (_grid(round(place[0] * 2) / 2), _grid(round(place[1] * 2) / 2))

    def spots(self, centre, reach, world, every: bool) -> list:
        """Every spot (a random player's), or the short list (see the module's words); never
        empty while a spot fits: the short list falls back on every spot."""
        if every:
            return self.every(centre, reach)
        return self.short(centre, reach, world) or self.every(centre, reach)


def _grid(x):
    return int(x) if float(x).is_integer() else float(x)


__all__ = ["Spots"]
