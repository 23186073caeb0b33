"""The table a game is played on: its size, the pieces placed on it, zones, sight and movement.

Geometry only; what a piece does (a door that lets fighters escape, a shrine) is written in the
rules. Two kinds of board:
- squares: positions are cells (x, y), 1..width and 1..height, row 1 along the south edge;
  a step goes to any of the eight neighbours, so distance is the number of king's steps, and
  fighters in neighbouring cells are in contact;
- inches: positions are points, (0, 0) the south-west corner; a fighter stands on a round base
  one inch across, distances are measured between the edges of bases, and bases that touch are
  in contact.
"""

from __future__ import annotations

import heapq
import math
from collections.abc import Callable
from dataclasses import dataclass
from itertools import compress, repeat
from operator import lt

from warband.game import terrain
from warband.limits import GRID_ROUTE_POINTS

BASE = 1.0          # a fighter's base, in inches across
_R = BASE / 2
CONTACT = 0.01      # bases this close are touching
_CELLS: dict = {}   # (board size, zone) -> its cells: the same for every game on such a board
_FREE: dict = {}    # (board size, pieces) -> where a base fits: the same for every such game
KEPT_BOARDS = 32    # boards whose free points are kept
_NEIGHBOURS = tuple((dx, dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1) if dx or dy)
_GRIDS: dict = {}   # (width, height) -> each square's neighbours on the board, in _NEIGHBOURS order


@dataclass(frozen=True)
class Piece:
    kind: str
    at: tuple[float, float]
    to: tuple[float, float] | None = None    # a wall runs from `at` to `to`
    radius: float = 0.0                      # a piece on an inch board covers this much
    # terrain with extent (game/terrain.py): "circle" (of `radius` round `at`) or "polygon"
    # (its corners, `at` their middle); "" a piece at a point (or a wall)
    extent: str = ""
    outline: tuple = ()


def area_gap(p: Piece, pos) -> float:
    """How far a point lies outside a piece that is an area (0 inside); a piece at a point
    covers its radius."""
    if p.extent == "polygon":
        return terrain.gap("polygon", p.at, 0.0, p.outline, pos)
    d = math.dist(p.at, pos) - p.radius
    return d if d > 0.0 else 0.0


@dataclass(frozen=True)
class Zone:
    shape: str                  # edge corner area everywhere
    where: tuple[str, ...]
    size: float = 0
    corners: tuple = ()


def _segment_distance(p, a, b) -> float:
    """Distance from point p to the segment a-b."""
    (px, py), (ax, ay), (bx, by) = p, a, b
    dx, dy = bx - ax, by - ay
    length2 = dx * dx + dy * dy
    if length2 == 0:   # a point (or a segment so short its square is nothing)
        return math.dist(p, a)
    t = max(0.0, min(1.0, ((px - ax) * dx + (py - ay) * dy) / length2))
    return math.dist(p, (ax + t * dx, ay + t * dy))


def within(bases, start, reach: float) -> list:
    """The bases a move of at most `reach` from `start` can meet: no point it passes is
    nearer a base further off than `reach` and a base's width (and a little more)."""
    far = reach + BASE + 0.05
    return [o for o in bases if math.dist(o, start) <= far]


def near_segment(points, a, b, reach: float) -> bool:
    """Whether any of the points is closer than `reach` to the segment a-b (_segment_distance
    written out: it is asked for every other base on every line of sight)."""
    (ax, ay), (bx, by) = a, b
    dx, dy = bx - ax, by - ay
    length2 = dx * dx + dy * dy
    # (comparisons, not calls of min and max)
    low_x, high_x = (ax - reach, bx + reach) if ax < bx else (bx - reach, ax + reach)
    low_y, high_y = (ay - reach, by + reach) if ay < by else (by - reach, ay + reach)
    for p in points:
        px, py = p
        if px < low_x or px > high_x or py < low_y or py > high_y:
            continue   # outside the segment's box, widened by the reach: too far
        if length2 == 0:
            if math.dist(p, a) < reach:
                return True
            continue
        t = ((px - ax) * dx + (py - ay) * dy) / length2
        if t < 0.0:
            t = 0.0
        elif t > 1.0:
            t = 1.0
        if math.dist(p, (ax + t * dx, ay + t * dy)) < reach:
            return True
    return False


def _segments_cross(a, b, c, d) -> bool:
    def orient(p, q, r):
        return (q[0] - p[0]) * (r[1] - p[1]) - (q[1] - p[1]) * (r[0] - p[0])
    o1, o2, o3, o4 = orient(a, b, c), orient(a, b, d), orient(c, d, a), orient(c, d, b)
    return (o1 > 0) != (o2 > 0) and (o3 > 0) != (o4 > 0)


def _apart(a, b, c, d, reach: float) -> bool:
    """Whether the segments a-b and c-d are surely more than `reach` apart (a millionth of an
    inch to spare, so that no point worked out on a-b can come nearer)."""
    reach += 1e-6
    if min(a[0], b[0]) - reach > max(c[0], d[0]) or min(c[0], d[0]) - reach > max(a[0], b[0]) \
            or min(a[1], b[1]) - reach > max(c[1], d[1]) \
            or min(c[1], d[1]) - reach > max(a[1], b[1]):
        return True   # their boxes, widened by the reach, do not meet
    if _segments_cross(a, b, c, d):
        return False
    # segments that do not cross are as near as the nearest end of one is to the other
    return min(_segment_distance(a, c, d), _segment_distance(b, c, d),
               _segment_distance(c, a, b), _segment_distance(d, a, b)) > reach


class Board:
    def __init__(self, width: float, height: float, squares: bool,
                 properties: dict[str, tuple[str, ...]], entered: frozenset[str] = frozenset()):
        self.width, self.height, self.squares = width, height, squares
        self.properties = properties        # marker kind -> impassable / opaque / obscuring
        self.entered = entered              # marker kinds that do something when entered
        self.pieces: list[Piece] = []
        self.zones: dict[str, Zone] = {}
        self._sight: dict = {}   # (a, b) -> whether a sees b: pieces alone decide it
        self._kept: dict = {}    # what is worked out from the pieces, until one is added
        # answers the pieces alone decide, kept by whoever asks (the rules' distances to
        # markers, by position): emptied when a piece is added
        self.by_pieces: dict = {}
        self._near_bases: dict = {}   # a base's position -> the points too near it (_taken)
        # the work of route searches (points weighed) is charged here: the game counts it
        # against the budget of work of the activation that moves (engine.py, run/budget.py)
        self.charge: Callable[[int], None] | None = None

    def add(self, piece: Piece) -> None:
        self.pieces.append(piece)
        # (new dicts, not cleared ones: a look-ahead's board keeps the game's for after)
        self._sight, self._kept, self.by_pieces = {}, {}, {}

    def holding(self, pieces: list[Piece]) -> tuple:
        """The board holds these pieces from now on (a look-ahead's copy of the game's: the
        pieces placed are part of a game's state, game/state.py); what is kept of the pieces
        stays good as long as they are the same. Gives what `release` puts back."""
        saved = (self.pieces, self._sight, self._kept, self.by_pieces)
        self.pieces = pieces
        return saved

    def release(self, saved: tuple) -> None:
        self.pieces, self._sight, self._kept, self.by_pieces = saved

    def destinations(self) -> list:
        """Inches: the routes onto pieces a fighter may stand on, (piece, where, 0.0)."""
        found = self._kept.get("destinations")
        if found is None:
            found = self._kept["destinations"] = [
                (p, p.at, 0.0) for p in self.pieces
                if p.to is None and not self.has(p.kind, "impassable")]
        return found

    def having(self, prop: str) -> list[Piece]:
        """The pieces whose kind has a property (impassable, opaque, obscuring)."""
        found = self._kept.get(("having", prop))
        if found is None:
            found = self._kept[("having", prop)] = [p for p in self.pieces
                                                    if self.has(p.kind, prop)]
        return found

    def _obstacles(self) -> tuple[list, list]:
        """Impassable pieces: (circles (centre, radius a base may not enter), walls)."""
        found = self._kept.get("obstacles")
        if found is None:
            circles = [(p.at, p.radius + _R) for p in self.pieces
                       if p.to is None and p.extent != "polygon"
                       and self.has(p.kind, "impassable")]
            walls = [p for p in self.pieces if p.to is not None and self.has(p.kind, "impassable")]
            # an impassable polygon: its sides are walls (its inside is blocked: `blocked`)
            walls += [Piece(p.kind, a, b) for p in self.pieces
                      if p.extent == "polygon" and self.has(p.kind, "impassable")
                      for a, b in terrain.sides(p.outline)]
            found = self._kept["obstacles"] = (circles, walls)
        return found

    # ---- pieces ----------------------------------------------------------------------------------
    def has(self, kind: str, prop: str) -> bool:
        return prop in self.properties.get(kind, ())

    def pieces_at(self, pos) -> list[Piece]:
        if self.squares:   # (every step of every move asks: the pieces by cell, kept)
            by_cell = self._kept.get("pieces by cell")
            if by_cell is None:
                by_cell = self._kept["pieces by cell"] = {}
                for p in self.pieces:
                    if p.to is None:
                        by_cell.setdefault(p.at, []).append(p)
            return list(by_cell.get(pos, ()))
        return [p for p in self.pieces if p.to is None and (
            math.dist(p.at, pos) <= p.radius + _R if p.extent != "polygon"
            else area_gap(p, pos) <= _R)]

    def points_at(self, pos) -> list[Piece]:
        """The pieces at a point there (not the areas: a base may be set up in a wood, a
        piece placed in one)."""
        return [p for p in self.pieces_at(pos) if not p.extent]

    def _impassable_near(self, pos) -> list[Piece]:
        """Inches: the impassable pieces that may stand under a base at `pos` (on the board):
        those near the inch square it is in, worked out once a square (a dungeon's moves ask
        of every point they weigh, and most of its walls are far from each)."""
        near = self._kept.get("impassable near")
        if near is None:
            near = self._kept["impassable near"] = {}
        square = (int(pos[0]), int(pos[1]))
        found = near.get(square)
        if found is None:
            middle = (square[0] + 0.5, square[1] + 0.5)
            # (a point of the square is at most 0.71 from its middle: a piece further than that
            # from a base at the middle is further than a base's half from the point)
            found = near[square] = [p for p in self.having("impassable")
                                    if self.to_piece(middle, p) < 0.75]
        return found

    def still(self) -> Board:
        """A board like this one with its pieces as they are now, for what is worked out
        later and kept for every board like it (pieces added to this one later, or held for a
        look-ahead, change nothing of it)."""
        copy = Board(self.width, self.height, self.squares, self.properties, self.entered)
        copy.pieces = list(self.pieces)
        return copy

    def step_clear(self, a, b) -> bool:
        """Inches: whether a base goes straight from a to b, a short step between two places
        where it fits, clear of every impassable piece (tried every tenth of an inch or less:
        a corner between two tries comes no nearer than a few thousandths more)."""
        tries = max(2, math.ceil(math.dist(a, b) * 10))
        return not any(self.blocked((a[0] + (b[0] - a[0]) * k / tries,
                                     a[1] + (b[1] - a[1]) * k / tries)) for k in range(1, tries))

    def inside(self, pos) -> bool:
        x, y = pos
        if self.squares:
            return 1 <= x <= self.width and 1 <= y <= self.height
        return _R <= x <= self.width - _R and _R <= y <= self.height - _R

    def blocked(self, pos) -> bool:
        """Whether a fighter cannot stand here (off the board, or on an impassable piece)."""
        if not self.inside(pos):
            return True
        if self.squares:   # (walls stop only moves in inches: the impassable cells, kept)
            cells = self._kept.get("impassable cells")
            if cells is None:
                cells = self._kept["impassable cells"] = {
                    p.at for p in self.pieces if p.to is None and self.has(p.kind, "impassable")}
            return pos in cells
        for p in self._impassable_near(pos):
            if p.to is not None:
                if _segment_distance(pos, p.at, p.to) < _R:
                    return True
            elif p.extent == "polygon":
                if area_gap(p, pos) < _R:
                    return True
            elif math.dist(p.at, pos) < p.radius + _R:
                return True
        return False

    # ---- terrain with extent (game/terrain.py) ---------------------------------------------------
    def on(self, pos, p: Piece, whole: bool) -> bool:
        """Inches: whether a base at `pos` stands in a piece (a wall: never): wholly, or
        partly (some of the base lies on it; touching its edge is not enough)."""
        if p.to is not None:
            return False
        if whole:
            return terrain.holds(p.extent or "circle", p.at, p.radius, p.outline, pos, _R)
        return area_gap(p, pos) < _R - 1e-9

    def cost(self, a, b) -> float:
        """Inches: what a straight move from a to b spends of its allowance: its length, and
        again the length of it that lies in difficult ground (each inch there counts double)."""
        extra = 0.0
        for p in self.having("difficult"):
            if p.to is None:
                extra += terrain.length_inside(p.extent or "circle", p.at, p.radius, p.outline,
                                               a, b)
        return math.dist(a, b) + extra

    def affordable(self, way: list, reach: float) -> list:
        """Inches: as much of a way (its points, start first) as an allowance of `reach`
        pays for, where difficult ground counts double: the way itself when it does, else
        the way up to the point (to the hundredth, short of it) where the allowance runs out."""
        if not self.having("difficult"):
            return way
        spent = 0.0
        for k, (a, b) in enumerate(zip(way, way[1:])):
            step = self.cost(a, b)
            if spent + step <= reach + 1e-9:
                spent += step
                continue
            low, high = 0.0, 1.0   # how far along a-b the rest of the allowance goes
            for _ in range(30):
                mid = (low + high) / 2
                m = (a[0] + (b[0] - a[0]) * mid, a[1] + (b[1] - a[1]) * mid)
                if spent + self.cost(a, m) <= reach:
                    low = mid
                else:
                    high = mid
            d = math.dist(a, b) * low
            ux, uy = (b[0] - a[0]) / math.dist(a, b), (b[1] - a[1]) / math.dist(a, b)
            d = math.floor(d * 100) / 100
            end = (round((a[0] + ux * d) * 100) / 100, round((a[1] + uy * d) * 100) / 100)
            # (short of where a step of the half-inch search cuts an impassable corner)
            while d > 0 and (spent + self.cost(a, end) > reach + 1e-9 or self.blocked(end)):
                d = round(d - 0.01, 2)
                end = (round((a[0] + ux * d) * 100) / 100, round((a[1] + uy * d) * 100) / 100)
            return [*way[:k + 1], end] if d > 0 else way[:k + 1]
        return way

    # ---- distance, contact and sight -------------------------------------------------------------
    def distance(self, a, b) -> float:
        """Between two fighters: king's steps, or inches between the edges of their bases."""
        if self.squares:
            return max(abs(a[0] - b[0]), abs(a[1] - b[1]))
        return max(0.0, math.dist(a, b) - BASE)

    def nearest(self, a, kind: str) -> float:
        """From a fighter to the nearest piece of a kind (infinite when there is none); its
        asker keeps the answers (Questions.distance, by position)."""
        best = math.inf
        pieces = self._kept.get(("kind", kind))
        if pieces is None:
            pieces = self._kept[("kind", kind)] = [p for p in self.pieces if p.kind == kind]
        if self.squares:
            for p in pieces:
                best = min(best, max(abs(a[0] - p.at[0]), abs(a[1] - p.at[1])))
            return best
        dist = math.dist
        for p in pieces:   # (the nearest edge; none is nearer than touching)
            d = dist(a, p.at) - _R - p.radius if p.to is None and p.extent != "polygon" else \
                area_gap(p, a) - _R if p.to is None else _segment_distance(a, p.at, p.to) - _R
            if d < best:
                best = d
        return best if best > 0.0 else 0.0   # (a comparison: cheaper than a call of max)

    # pieces as values: the distance to one piece (pieces.py)
    def to_piece(self, a, p: Piece) -> float:
        """From a fighter at `a` to one piece: king's steps on squares; in inches from the edge
        of its base to the piece's nearest edge (a wall's nearest point), never below 0."""
        if self.squares:   # (by its square, as `nearest` measures a kind's pieces)
            return max(abs(a[0] - p.at[0]), abs(a[1] - p.at[1]))
        d = math.dist(a, p.at) - _R - p.radius if p.to is None and p.extent != "polygon" else \
            area_gap(p, a) - _R if p.to is None else _segment_distance(a, p.at, p.to) - _R
        return d if d > 0.0 else 0.0

    def contact(self, a, b) -> bool:
        if self.squares:
            return max(abs(a[0] - b[0]), abs(a[1] - b[1])) == 1
        return math.dist(a, b) - BASE <= CONTACT

    def _line_hits(self, a, b, prop: str, others=()) -> bool:
        """Whether the line between two positions passes a piece with `prop` (or, for
        obscuring, another fighter's base)."""
        if self.squares:
            steps = max(abs(b[0] - a[0]), abs(b[1] - a[1])) * 4
            cells = {(round(a[0] + (b[0] - a[0]) * i / steps),
                      round(a[1] + (b[1] - a[1]) * i / steps)) for i in range(1, steps)} \
                if steps else set()
            cells -= {a, b}
            if any(p.to is None and p.at in cells and self.has(p.kind, prop)
                   for p in self.pieces):
                return True
            return bool(cells & set(others))
        for p in self.having(prop):
            if p.to is not None:
                if _segments_cross(a, b, p.at, p.to):
                    return True
            elif p.extent:   # terrain with extent: the line passes through it
                if terrain.in_the_way(p.extent, p.at, p.radius, p.outline, a, b):
                    return True
            elif _segment_distance(p.at, a, b) < p.radius and \
                    math.dist(p.at, a) > p.radius and math.dist(p.at, b) > p.radius:
                return True
        return near_segment(others, a, b, _R)

    def sees(self, a, b) -> bool:
        found = self._sight.get((a, b))
        if found is None:
            found = self._sight[(a, b)] = not self._line_hits(a, b, "opaque")
        return found

    def obscured(self, a, b, others=()) -> bool:
        """Not completely visible: something that hides part of the target is in the way."""
        return self._line_hits(a, b, "obscuring", others) or not self.sees(a, b)

    # ---- zones -------------------------------------------------------------------------------------
    def in_zone(self, pos, zone: Zone) -> bool:
        """Whether a fighter (or a piece) at `pos` stands in the zone: its cell, or in inches
        its whole base (a base half outside a deployment zone is not deployed in it)."""
        x, y = pos
        if zone.shape == "everywhere":
            return True
        margin = 0.0 if self.squares else _R
        if zone.shape == "area":
            (x1, y1), (x2, y2) = zone.corners
            return min(x1, x2) + margin <= x <= max(x1, x2) - margin and \
                min(y1, y2) + margin <= y <= max(y1, y2) - margin
        w, h, d = self.width, self.height, zone.size
        if zone.shape == "edge":
            low = 1 if self.squares else 0
            reach = d - 1 if self.squares else d - margin
            tests = {"south": y - low <= reach, "north": h - y <= reach,
                     "west": x - low <= reach, "east": w - x <= reach}
            return any(tests[e] for e in zone.where)
        origin = 1 if self.squares else 0
        corners = {"southwest": (origin, origin), "southeast": (w, origin),
                   "northwest": (origin, h), "northeast": (w, h)}
        return any(math.dist(pos, corners[c]) + margin <= d for c in zone.where)

    def cells(self, zone: Zone) -> list:
        """Where something may stand in a zone: every cell, or points half an inch apart."""
        key = (self.width, self.height, self.squares, zone)
        found = _CELLS.get(key)
        if found is None:
            found = _CELLS[key] = self._zone_cells(zone)
        return found

    def _zone_cells(self, zone: Zone) -> list:
        if self.squares:
            return [(x, y) for y in range(1, int(self.height) + 1)
                    for x in range(1, int(self.width) + 1) if self.in_zone((x, y), zone)]
        out = []
        steps_x, steps_y = int(self.width * 2), int(self.height * 2)
        for j in range(1, steps_y):
            for i in range(1, steps_x):
                pos = (i / 2, j / 2)
                if self.inside(pos) and self.in_zone(pos, zone):
                    out.append(pos)
        return out

    # ---- movement ------------------------------------------------------------------------------------
    def reachable(self, start, steps: int, occupied, passable=frozenset()) -> list:
        """Squares: every cell a path of at most `steps` steps reaches through free cells; a
        cell with a piece that does something when entered ends the path there. `passable`:
        cells a path may cross but not end on (`travel ... through friends`)."""
        kept = self._kept.get("free cells")
        if kept is None:   # where a fighter may stand, each one's free neighbours, and the
            #                cells that end a move: kept (every move of every fighter asks)
            grid = _GRIDS.get((self.width, self.height))
            if grid is None:   # (the same for every game on a board of this size)
                w, h = int(self.width), int(self.height)
                grid = _GRIDS[(self.width, self.height)] = {
                    (x, y): [(x + dx, y + dy) for dx, dy in _NEIGHBOURS
                             if 1 <= x + dx <= w and 1 <= y + dy <= h]
                    for x in range(1, w + 1) for y in range(1, h + 1)}
            free = {cell for cell in grid if not self.blocked(cell)}
            around = {cell: [c for c in grid[cell] if c in free] for cell in free}
            ending = {p.at for p in self.pieces if p.to is None and p.kind in self.entered}
            kept = self._kept["free cells"] = (free, around, ending)
        free, around, ending = kept
        whole = type(start[0]) is int and type(start[1]) is int   # (else ask blocked())
        seen = {start: 0}
        frontier = [start]
        for step in range(1, steps + 1):
            nxt = []
            for cell in frontier:
                if cell != start and cell in ending:
                    continue   # entering this piece ends the move
                near = around.get(cell) if whole else None
                if near is None:   # (off the free cells, or not a whole cell)
                    x, y = cell
                    near = [c for c in ((x + dx, y + dy) for dx, dy in _NEIGHBOURS)
                            if (c in free if whole else not self.blocked(c))]
                for c in near:
                    if c in seen or c in occupied:
                        continue
                    seen[c] = step
                    nxt.append(c)
            frontier = nxt
        return [c for c in seen if c not in passable] if passable else list(seen)

    def straight(self, start, target, reach: float, stop: float, occupied, passable=()):
        """Inches: where a straight move from `start` towards `target` ends, going at most
        `reach` and stopping `stop` short of the target, before the board's edge, impassable
        pieces and other bases (None when it cannot move that way at all). `passable`: bases
        it may pass through (`travel ... through friends`), but not end on."""
        dist = math.dist(start, target)
        limit = dist - stop
        if reach < limit:
            limit = reach
        if limit <= 0.05:
            return None
        ux, uy = (target[0] - start[0]) / dist, (target[1] - start[1]) / dist
        sx, sy = start
        # the board's edges (written out, with no call of min: every move asks)
        if ux > 1e-12:
            edge = (self.width - _R - sx) / ux
        elif ux < -1e-12:
            edge = (sx - _R) / -ux
        else:
            edge = limit
        if edge < limit:
            limit = edge
        if uy > 1e-12:
            edge = (self.height - _R - sy) / uy
        elif uy < -1e-12:
            edge = (sy - _R) / -uy
        if edge < limit:
            limit = edge
        fixed, walls = self._obstacles()
        near = BASE - CONTACT
        near2, sqrt = near * near, math.sqrt
        # Only a base nearer than the move's length and a base's width can stop it (the ray
        # enters its circle no nearer than its distance less the width): those are picked out
        # in C, by map and compress, before the ray test, written out, for each.
        within = limit + near + 1e-6
        nearby = list(compress(occupied, map(lt, map(math.dist, repeat(start), occupied),
                                             repeat(within))))
        for ox, oy in nearby:
            fx, fy = sx - ox, sy - oy
            b = fx * ux + fy * uy
            if b >= 0:
                continue   # going away from it
            c = fx * fx + fy * fy - near2
            if c <= 0:   # overlapping it already (a base set down by the rules): only away
                limit = 0.0
                break
            disc = b * b - c
            if disc >= 0:
                t = -b - sqrt(disc)
                if 0 <= t < limit:
                    limit = t
        for centre, r in fixed:
            t = _ray_entry(start, ux, uy, centre, r)
            if t is not None:
                limit = min(limit, t)
        for wall in walls:   # walk the line where a wall might be in the way, to its end
            if _apart(start, (sx + ux * limit, sy + uy * limit), wall.at, wall.to, _R):
                continue   # (no point of the line comes near it: nothing to walk)
            t, good = 0.0, 0.0
            while True:
                pos = (sx + ux * t, sy + uy * t)
                if _segment_distance(pos, wall.at, wall.to) < _R:
                    limit = good
                    break
                if t >= limit:
                    break
                good, t = t, min(t + 0.25, limit)
        limit = math.floor(limit * 100) / 100
        if passable:   # (bases it passes through: it may not end on one of them either)
            nearby += compress(passable, map(lt, map(math.dist, repeat(start), passable),
                                             repeat(within)))
        gap = math.dist
        while limit > 0.05:
            # to the hundredth of an inch (round(x * 100) / 100: round(x, 2) is four times
            # slower); rounding may bring the end a few thousandths nearer a base the move
            # stopped at: then a hundredth shorter, so that no move ends overlapping a base
            # (only a base within the move's length and a base's width of its start can be
            # near its end)
            end = (round((sx + ux * limit) * 100) / 100, round((sy + uy * limit) * 100) / 100)
            for o in nearby:
                if gap(end, o) < near <= gap(start, o):
                    break
            else:
                return end
            # short of that base: where the ray enters it (a base it passes through), else a
            # hundredth shorter (one it stopped at, come nearer by the rounding)
            entry = _ray_entry(start, ux, uy, o, near)
            shorter = math.floor(entry * 100) / 100 if entry is not None else limit
            limit = shorter if shorter < limit else round(limit - 0.01, 2)
        return None

    # ---- moving round walls ------------------------------------------------------------------------
    def towards(self, start, target, reach: float, stop: float, occupied, passable=(),
                ways: dict | None = None):
        """Inches: a move towards `target` as `straight` makes it, except that when an
        impassable piece stands in the straight way, the move follows the shortest way round
        it (over points half an inch apart, where a base fits), so that a fighter can walk
        through a dungeon's doors and corridors instead of stopping at the first wall.
        `ways`: where to keep the way round (its points, start first) by where it ends."""
        want = math.dist(start, target) - stop
        if reach < want:
            want = reach
        if want <= 0.05:
            return None
        circles, walls = self._obstacles()
        if not circles and not walls:   # nothing to walk round (targets are on the board)
            return self.straight(start, target, reach, stop, occupied, passable)
        clear = self.straight(start, target, reach, stop, ())
        if clear is not None and math.dist(start, clear) >= want - 0.3:
            return self.straight(start, target, reach, stop, occupied, passable)
        # (only bases the move can meet stand in its way: one further off than the move goes
        # and a base's width may have moved before the way gets there, and a way planned
        # round it would search the whole board when it closes a door)
        path = self._path(start, target, stop, within(occupied, start, reach),
                          within(passable, start, reach) if passable else passable)
        if not path:
            return self.straight(start, target, reach, stop, occupied, passable)
        end, walked, here = start, 0.0, start
        ending = _taken(start, passable) if passable else ()
        went = [start]
        for point in path:
            walked += math.dist(here, point)
            if walked > reach + 1e-9:
                break
            here = point
            went.append(point)
            if point not in ending:   # (a base it passes through is no place to stop)
                end = point
        if end != start and ways is not None:
            ways[end] = went[:went.index(end) + 1]
        return end if end != start else None

    def route(self, start, target, stop: float, occupied, passable=(),
              longest: float = math.inf) -> list:
        """Inches: the points of the shortest way round pieces and other bases to within
        `stop` (+ half an inch) of `target`, the start left out; [] when there is none (or,
        on the half-inch search, none of at most `longest` inches: a bounded search weighs
        only the points such a way may pass)."""
        return self._path(start, target, stop, occupied, passable, longest)

    def _free(self) -> frozenset:
        """The half-inch points where a base fits among the board's pieces."""
        return self._graph()[0]

    def _graph(self) -> tuple:
        """(the half-inch points where a base fits, each one's neighbours among them in the
        search's order with the step's length): the same for every game on a board with the
        same pieces, so kept for them all."""
        found = self._kept.get("graph")
        if found is None:
            # (a board with nothing impassable or difficult has every point free, each step at
            # its length, whatever its pieces: one graph for every game on a board that size,
            # though its pieces are placed anew each game)
            shaped = self.having("impassable") or self.having("difficult")
            key = (self.width, self.height, tuple(self.pieces),
                   tuple(sorted(self.properties.items()))) if shaped else \
                (self.width, self.height)
            found = _FREE.get(key)
            if found is None:
                if len(_FREE) > KEPT_BOARDS:   # many boards (pieces placed at random)
                    _FREE.clear()
                points = [(i / 2, j / 2) for i in range(1, int(self.width * 2))
                          for j in range(1, int(self.height * 2))]
                # (every point is on the board, half an inch from its edges: with nothing
                # impassable on it, every one is free)
                free = frozenset([p for p in points if not self.blocked(p)]
                                 if self.having("impassable") else points)
                # (each point's steps worked out when a search first reaches it: a board
                # whose pieces are placed anew each game searches a few hundred of thousands;
                # in difficult ground each step weighs what it costs)
                # (the steps are worked out as searches reach them, for every board like
                # this one: by a copy of its pieces as they are now)
                still = self.still()
                found = _FREE[key] = (free, Steps(free, still.cost if self.having("difficult")
                                                  else None,
                                                  still.step_clear
                                                  if self.having("impassable") else None))
            self._kept["graph"] = found
        return found

    def _path(self, start, target, stop: float, occupied, passable=(),
              longest: float = math.inf) -> list:
        """The shortest way (A* over free half-inch points, eight neighbours) from `start` to a
        point within `stop` (+ half an inch) of `target`, not through other bases (but those
        it may pass, `passable`, which it may not end on); [] when there is none. On a board of
        more than GRID_ROUTE_POINTS free points the way is found over the corners of its pieces
        instead (_corner_path). Either way the points weighed are charged as work (`charge`)."""
        free, neighbours = self._graph()
        if len(free) > GRID_ROUTE_POINTS:
            return self._corner_path(start, target, stop, occupied)
        taken = _taken(start, occupied, self._near_bases)
        ending = taken | _taken(start, passable, self._near_bases) if passable else taken
        first = (round(start[0] * 2) / 2, round(start[1] * 2) / 2)
        goal_reach = stop + 0.5
        if not _goal_open(target, goal_reach, free, ending, first):
            return []   # (else a failed search walks every point it can reach: ~7 ms a move)
        best = {first: 0.0}
        came: dict = {}
        queue = [(math.dist(first, target), 0.0, first)]
        dist, inf, pop, push = math.dist, math.inf, heapq.heappop, heapq.heappush
        weighed = 0
        while queue:   # (every move of a dungeon searches: names bound to locals)
            _, cost, p = pop(queue)
            if cost > best.get(p, inf):
                continue
            weighed += 1
            if dist(p, target) <= goal_reach and p != first and p not in ending:
                self._spend(weighed)
                out = [p]
                while out[-1] in came:
                    out.append(came[out[-1]])
                out.reverse()
                return [q for q in out if q != first]
            steps = neighbours[p]   # (the start may be off the free points: Steps)
            for q, length in steps:
                c = cost + length
                if c < best.get(q, inf) and q not in taken:
                    best[q] = c
                    came[q] = p
                    ahead = dist(q, target) - goal_reach   # (a comparison, not a call of max)
                    ahead = c + ahead if ahead > 0.0 else c
                    if ahead <= longest:
                        push(queue, (ahead, c, q))
        self._spend(weighed)
        return []

    def _spend(self, weighed: int) -> None:
        if self.charge is not None and weighed:
            self.charge(weighed)

    # ---- routes on big boards: over the corners of pieces ---------------------------------------
    def _corner_path(self, start, target, stop: float, occupied) -> list:
        """_path on a big board (more than GRID_ROUTE_POINTS free points: a maze of 200 by 200
        inches has 150,000, and the search over them weighed up to 250,000 points a move). The
        way is found over the corners of the impassable pieces (points round the ends of walls
        and round round pieces, where a base fits: a visibility graph, made once per set of
        pieces and kept), then each of its straight legs is taken as it is where no other base
        is in the way, or searched over half-inch points round the bases where one is. The
        points it gives are at most half an inch apart, as the search's are."""
        free, neighbours = self._graph()
        graph = self._corners()
        others = [o for o in occupied if math.dist(o, start) > 1e-9]
        taken = _taken(start, occupied, self._near_bases)
        first = (round(start[0] * 2) / 2, round(start[1] * 2) / 2)
        goal_reach = stop + 0.5
        if not _goal_open(target, goal_reach, free, taken, first):
            return []
        legs, weighed = graph.route(start, target)
        if legs is None:
            self._spend(weighed)
            return []
        near = BASE - CONTACT
        out: list = []
        here = start
        for k, corner in enumerate(legs):
            last = k == len(legs) - 1
            if last:   # the way ends short of the target, `stop` from it
                d = math.dist(here, target)
                if d <= stop + 1e-9:
                    break
                corner = (target[0] + (here[0] - target[0]) / d * stop,
                          target[1] + (here[1] - target[1]) / d * stop)
                clear = not near_segment([o for o in others if o != target], here, corner,
                                          near)
            else:
                clear = not near_segment(others, here, corner, near)
            if clear:
                out += _along(here, corner)
            else:   # a base in the way: round it over half-inch points
                aim, reach = (target, goal_reach) if last else (corner, 1.5)
                if not _goal_open(aim, reach, free, taken, None):
                    self._spend(weighed)
                    return []   # (other bases fill the corner: a search would walk far)
                leg, n = _grid_leg(here, aim, reach, free, neighbours, taken,
                                   _LEG_POINTS + int(_LEG_PER_INCH * math.dist(here, corner)))
                weighed += n
                if not leg:
                    self._spend(weighed)
                    return []
                out += leg
            weighed += 1
            if out:
                here = out[-1]
        self._spend(weighed)
        return [q for q in out if math.dist(q, start) > 1e-9]

    def _corners(self) -> "Corners":
        """The visibility graph of the board's impassable pieces (see Corners): kept for every
        game on a board with the same pieces, as the half-inch points are."""
        found = self._kept.get("corners")
        if found is None:
            key = ("corners", self.width, self.height, tuple(self.pieces),
                   tuple(sorted(self.properties.items())))
            found = _FREE.get(key)
            if found is None:
                if len(_FREE) > KEPT_BOARDS:
                    _FREE.clear()
                circles, walls = self._obstacles()
                found = _FREE[key] = Corners(self, circles, walls)
            self._kept["corners"] = found
        return found


class Corners:
    """The corners of a board's impassable pieces, where a base fits (eight points round each
    end of a wall and round each round piece, a base's width out), and which of them see each
    other: a base can go straight between two of them past every piece. Made once for a set
    of pieces; which corners a corner sees is worked out the first time a search reaches it."""

    def __init__(self, board: Board, circles: list, walls: list) -> None:
        self.board, self.circles, self.walls = board, circles, walls
        ends = [(w.at, w.to) for w in walls] + [(w.to, w.at) for w in walls]
        points: list = []
        for end, _ in ends:
            points += _round_about(end, _R + _CORNER_GAP)
        for centre, r in circles:
            points += _round_about(centre, r + _CORNER_GAP)
        seen: set = set()
        self.points = []
        for p in points:
            p = (round(p[0] * 100) / 100, round(p[1] * 100) / 100)
            if p not in seen and not board.blocked(p):
                seen.add(p)
                self.points.append(p)
        self.seen: dict = {}   # corner -> [(corner it sees, the distance)]
        # the pieces by square of _BUCKET inches, for the test of a line
        self.buckets: dict = {}
        for i, (centre, r) in enumerate(circles):
            self._file(("c", i), centre[0] - r, centre[1] - r, centre[0] + r, centre[1] + r)
        for i, w in enumerate(walls):
            self._file(("w", i), min(w.at[0], w.to[0]) - _R, min(w.at[1], w.to[1]) - _R,
                       max(w.at[0], w.to[0]) + _R, max(w.at[1], w.to[1]) + _R)

    def _file(self, item, x1, y1, x2, y2) -> None:
        for i in range(int(x1 // _BUCKET), int(x2 // _BUCKET) + 1):
            for j in range(int(y1 // _BUCKET), int(y2 // _BUCKET) + 1):
                self.buckets.setdefault((i, j), []).append(item)

    def clear(self, a, b) -> bool:
        """Whether a base goes straight from a to b past every impassable piece."""
        x1, x2 = (a[0], b[0]) if a[0] < b[0] else (b[0], a[0])
        y1, y2 = (a[1], b[1]) if a[1] < b[1] else (b[1], a[1])
        cells = (int(x2 // _BUCKET) - int(x1 // _BUCKET) + 1) * \
            (int(y2 // _BUCKET) - int(y1 // _BUCKET) + 1)
        if cells > len(self.circles) + len(self.walls):
            items: set = {("c", i) for i in range(len(self.circles))} | \
                {("w", i) for i in range(len(self.walls))}
        else:
            items = set()
            for i in range(int(x1 // _BUCKET), int(x2 // _BUCKET) + 1):
                for j in range(int(y1 // _BUCKET), int(y2 // _BUCKET) + 1):
                    items.update(self.buckets.get((i, j), ()))
        for kind, i in items:
            if kind == "c":
                centre, r = self.circles[i]
                if _segment_distance(centre, a, b) < r:
                    return False
            else:
                w = self.walls[i]
                if not _apart(a, b, w.at, w.to, _R - 1e-6):
                    return False
        return True

    def sees(self, corner) -> list:
        found = self.seen.get(corner)
        if found is None:
            found = self.seen[corner] = [(q, math.dist(corner, q)) for q in self.points
                                         if q != corner and self.clear(corner, q)]
        return found

    def route(self, start, target) -> tuple[list | None, int]:
        """The corners of the shortest way from start to target past the pieces (other bases
        not counted), the target last; None when there is none. And the points weighed."""
        if self.clear(start, target):
            return [target], 1
        goal_of: dict = {}   # corner -> whether it sees the target

        def sees_goal(p) -> bool:
            found = goal_of.get(p)
            if found is None:
                found = goal_of[p] = self.clear(p, target)
            return found
        best = {start: 0.0}
        came: dict = {}
        queue = [(math.dist(start, target), 0.0, start)]
        weighed = 0
        done = None
        while queue:
            _, cost, p = heapq.heappop(queue)
            if cost > best.get(p, math.inf):
                continue
            weighed += 1
            if p is target:
                done = p
                break
            if p != start and sees_goal(p):
                c = cost + math.dist(p, target)
                if c < best.get(target, math.inf):
                    best[target], came[target] = c, p
                    heapq.heappush(queue, (c, c, target))
            steps = self.sees(p) if p != start else \
                [(q, math.dist(start, q)) for q in self.points if self.clear(start, q)]
            weighed += len(steps) // 8
            for q, length in steps:
                c = cost + length
                if c < best.get(q, math.inf):
                    best[q], came[q] = c, p
                    heapq.heappush(queue, (c + math.dist(q, target), c, q))
        if done is None:
            return None, weighed
        out = [target]
        while out[-1] in came and came[out[-1]] != start:
            out.append(came[out[-1]])
        out.reverse()
        return out, weighed


_CORNER_GAP = 0.75   # how far past a piece's edge its corners are (a base's half and a margin)
_BUCKET = 5.0        # inches a side of the squares the pieces are filed by for a line's test
_LEG_POINTS = 1_000  # half-inch points a leg round other bases may weigh, and per inch of it
_LEG_PER_INCH = 20


def _round_about(centre, radius: float) -> list:
    """Eight points round a centre, `radius` away."""
    return [(centre[0] + radius * math.cos(k * math.pi / 4) / math.cos(math.pi / 8),
             centre[1] + radius * math.sin(k * math.pi / 4) / math.cos(math.pi / 8))
            for k in range(8)]


def _along(a, b) -> list:
    """Points from a (left out) to b (the last), at most half an inch apart, on the line."""
    n = max(1, math.ceil(math.dist(a, b) / 0.5))
    return [(a[0] + (b[0] - a[0]) * i / n, a[1] + (b[1] - a[1]) * i / n) for i in range(1, n + 1)]


def _grid_leg(start, target, reach: float, free, neighbours, taken, most: int) -> tuple[list, int]:
    """A* over the free half-inch points from start to one within `reach` of target, weighing
    at most `most` points: (the points, the start left out; or [] when none is found), and the
    points weighed."""
    first = (round(start[0] * 2) / 2, round(start[1] * 2) / 2)
    tx, ty = target
    root2 = math.sqrt(2) - 1

    def ahead(q) -> float:   # the octile distance to the goal: the eight steps' own measure
        dx, dy = abs(q[0] - tx), abs(q[1] - ty)
        left = (dx + root2 * dy if dx > dy else dy + root2 * dx) - reach
        return left if left > 0.0 else 0.0
    best = {first: 0.0}
    came: dict = {}
    queue = [(ahead(first), 0.0, first)]
    weighed = 0
    while queue and weighed < most:
        _, minus, p = heapq.heappop(queue)   # (of equal estimates, the furthest gone first)
        cost = -minus
        if cost > best.get(p, math.inf):
            continue
        weighed += 1
        if math.dist(p, target) <= reach and p != first:
            out = [p]
            while out[-1] in came:
                out.append(came[out[-1]])
            out.reverse()
            return [q for q in out if q != first], weighed
        steps = neighbours[p]
        for q, length in steps:
            c = cost + length
            if c < best.get(q, math.inf) and q not in taken:
                best[q], came[q] = c, p
                heapq.heappush(queue, (c + ahead(q), -c, q))
    return [], weighed


def _goal_open(target, reach: float, free: frozenset, taken: set, first) -> bool:
    """Whether some point the search may end on (free, not taken, not the start) lies within
    `reach` of `target`. Most failed routes are to a spot other bases fill; a goal too wide to
    list cheaply counts as open, and the search decides."""
    span = math.ceil(reach * 2)
    if span > _GOAL_SPAN:
        return True
    cx, cy = round(target[0] * 2), round(target[1] * 2)
    for i in range(cx - span, cx + span + 1):
        for j in range(cy - span, cy + span + 1):
            q = (i / 2, j / 2)
            if q in free and q not in taken and q != first and math.dist(q, target) <= reach:
                return True
    return False


_GOAL_SPAN = 12   # half-inches each way a goal is listed before the search (a 25x25 box)


# the eight steps of the search over half-inch points, in its order, with their lengths
_STEPS = tuple((dx / 2, dy / 2, math.hypot(dx, dy) / 2)
               for dx in (-1, 0, 1) for dy in (-1, 0, 1) if dx or dy)


def _taken(start, occupied, kept: dict | None = None) -> set:
    """The half-inch points too close to another base (the mover's own left out). `kept`: the
    points near each base by its position, kept by the board (most of a dungeon's fighters
    stand still while one moves, and every move searches)."""
    taken: set[tuple[float, float]] = set()
    for o in occupied:
        if math.dist(o, start) <= 1e-9:
            continue
        points = kept.get(o) if kept is not None else None
        if points is None:
            points = _near_base(o)
            if kept is not None:
                if len(kept) > _KEPT_BASES:
                    kept.clear()
                kept[o] = points
        taken.update(points)
    return taken


_KEPT_BASES = 10_000   # positions whose nearby points a board keeps


def _near_base(o) -> list:
    """The half-inch points too close to a base at `o` for another base to stand on."""
    near = BASE - CONTACT
    cx, cy = round(o[0] * 2), round(o[1] * 2)
    return [(i / 2, j / 2) for i in range(cx - 3, cx + 4) for j in range(cy - 3, cy + 4)
            if math.dist((i / 2, j / 2), o) < near]


class Steps(dict):
    """Each free half-inch point's steps onto free points, (the point stepped onto, what the
    step weighs: its length, or its cost in difficult ground), worked out the first time a
    search asks and kept for a free point (a point off them, a move's start, is not kept).
    `passes`: whether a base may go straight between two free points (a diagonal step between
    two points clear of a wall's end may cut its corner): None where nothing is impassable."""

    def __init__(self, free: frozenset, cost: Callable | None = None,
                 passes: Callable | None = None) -> None:
        super().__init__()
        self.free, self.cost, self.passes = free, cost, passes

    def __missing__(self, p) -> tuple:
        steps = _free_steps(p, self.free)
        if self.passes is not None:
            steps = tuple((q, length) for q, length in steps if self.passes(p, q))
        if self.cost is not None:
            steps = tuple((q, self.cost(p, q)) for q, _ in steps)
        if p in self.free:
            self[p] = steps
        return steps


def _free_steps(p, free) -> tuple:
    """The steps from a point onto free points: (the point stepped onto, the step's length)."""
    px, py = p
    return tuple([((px + dx, py + dy), length) for dx, dy, length in _STEPS
                  if (px + dx, py + dy) in free])


def _ray_entry(start, ux, uy, centre, r):
    """How far along the ray from start (unit direction) it first enters the circle; None when
    it never does, or starts inside it (moving out of an overlap is allowed)."""
    fx, fy = start[0] - centre[0], start[1] - centre[1]
    b = fx * ux + fy * uy
    c = fx * fx + fy * fy - r * r
    if c <= 0:
        return None
    disc = b * b - c
    if disc < 0:
        return None
    t = -b - math.sqrt(disc)
    return t if t >= 0 else None
