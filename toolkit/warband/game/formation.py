"""Units of models with places on the board (docs/language.md, "Units of models with places").

A unit whose class gives `coherency D` has a base on the board for each model. The fighter's
position is its first model's place (its leader's); run/places.py keeps the others as offsets
from it, and works out which models fall. Here the game sets the models out and moves them:

- `set_out`: at deployment (and when a unit is brought back) its models stand round the place
  its player chose, each on a free spot within D of a model already set out, in the zone;
- `follow`: when the unit moves, its leader's move is made as any fighter's (game/movement.py),
  and then each other model, nearest the leader first, goes straight to the place it held in the
  formation, or the free spot nearest it, within D of a model already moved, by a straight way
  no longer than the move's allowance (difficult ground counting double) that no base blocks.
  When one model finds no such spot, the leader stops shorter on its way where they all can
  (game/movement.py), else the whole unit stays where it was (a move never breaks coherency);
- `bases`: every base in play (each model's), which a move, a deployment and sight go round;
- `ModelQuestions`: the board's questions measured from models: a unit's distance is its
  nearest model's, it sees what any of its models sees, it touches what any of them touches;
  and `models_in_range`, `models_seeing` count its models.

A ruleset with no such class never makes any of these (the engine asks `Ruleset.has_places`),
so its games play as before.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator
from itertools import chain, repeat

from warband.game import pieces
from warband.game.board import BASE, CONTACT, Board
from warband.game.questions import Questions, plain_number
from warband.run.places import offset_place, offsets_of, places
from warband.run.world import FIGHTER_REFS, World

_NEAR = BASE - CONTACT   # two bases nearer than this overlap (inches)
_STEP = 0.5              # inches between the spots a model tries round where it is going
_MOST_TRIED = 400        # spots a model tries at most (a ring of them a half inch apart)


def grouped(f) -> bool:
    """Whether fighter f is a unit whose models stand apart, set out on the board."""
    return bool(f.values.get("#places")) and f.position is not None and not f.removed


def bases(world: World, skip: int = -1) -> list:
    """Every base in play: each model's place (a fighter's position when its models have
    none), but fighter `skip`'s."""
    return [p for i, g in enumerate(world.fighters) if i != skip and not g.removed
            for p in places(g)]


class Formation:
    """A game's units of models with places, on its board."""

    def __init__(self, board: Board) -> None:
        self.board = board
        # the way each model of the last group move went ([start, end] each), for the tests
        # that check moves (game/movement.py keeps the leader's)
        self.ways: list = []

    def apart(self, spot, taken: list) -> bool:
        """Apart from every base at `taken` (in C, by map: every spot tried asks)."""
        if self.board.squares:
            return spot not in taken
        return not taken or min(map(math.dist, repeat(spot), taken)) >= _NEAR

    def coherent(self, spot, placed: list, coherency: float) -> bool:
        """Within the coherency of a model already placed (between the edges of bases, in
        inches; king's steps on squares)."""
        if self.board.squares:
            return any(max(abs(spot[0] - p[0]), abs(spot[1] - p[1])) <= coherency
                       for p in placed)
        return min(map(math.dist, repeat(spot), placed)) - BASE <= coherency + 1e-9

    def around(self, centre, most: float) -> Iterator[tuple]:
        """The spots round `centre`, nearest first, up to `most` away (at most _MOST_TRIED):
        squares, or points a half inch apart (to the hundredth); made as they are tried."""
        cx, cy = centre
        if self.board.squares:
            return ((cx + dx, cy + dy) for dx, dy in _offsets(max(1, int(most)), True))
        return ((round(cx + dx, 2), round(cy + dy, 2)) for dx, dy in _offsets(most, False))

    def beside(self, placed: list, coherency: float) -> Iterator[tuple]:
        """Inches: spots just beside the models placed, within the coherency of each (a
        ring of 16 round each, a hair more than a base from it); made as they are tried."""
        if self.board.squares:
            return iter(())
        gap = BASE + min(coherency, 0.5) / 2
        return ((round(px + gap * c, 2), round(py + gap * s, 2))
                for px, py in placed for c, s in _RING)

    # ---- setting a unit out -------------------------------------------------------------------
    def set_out(self, world: World, index: int, taken: list,
                room: Callable[[tuple], bool]) -> World | None:
        """The unit `index` (its leader at its position) with each other model set out round
        it, each on a spot `room` allows, apart from `taken` and from one another, within the
        coherency of a model already set out; None when there is no room for them all."""
        f = world.fighters[index]
        board, leader = self.board, f.position
        count, coherency = f.values["#models"], f.values["#coherency"]
        placed = [leader]
        # (a cluster of n bases fits in a circle of about sqrt(n) bases)
        reach = (math.sqrt(count) + 1) * (BASE + min(coherency, BASE))
        for _ in range(count - 1):
            # (the spots round the leader made afresh for each model: most take one of the
            # first few, and the rounding of all of them was a tenth of a game's time)
            spots = (s for s in self.around(leader, reach) if s != leader)
            spot = next((s for s in chain(spots, self.beside(placed, coherency))
                         if self.apart(s, placed) and self.coherent(s, placed, coherency)
                         and self.apart(s, taken) and room(s) and not board.blocked(s)),
                        None)
            if spot is None:
                return None
            placed.append(spot)
        return world.set(_ref(index), "#places", offsets_of(placed))

    # ---- moving a unit as a group -------------------------------------------------------------
    def follow(self, world: World, index: int, start, spot, reach: float, blocking: list,
               passing: list) -> World | None:
        """The unit `index`, its leader moved from `start` to `spot` (already its position in
        `world`), with its other models moved after it (see the module's words); None when one
        of them has nowhere to go."""
        f = world.fighters[index]
        board = self.board
        old = [offset_place(start, o) for o in f.values["#places"]]
        coherency = f.values["#coherency"]
        placed, new = [spot], {0: spot}
        self.ways = []
        around = coherency + 2 * BASE
        for k in _nearest_first(old, coherency, board):
            here = old[k]
            want = (here[0] + spot[0] - start[0], here[1] + spot[1] - start[1])
            if not board.squares:
                want = (round(want[0], 2), round(want[1], 2))
            reachable = set(board.reachable(here, int(reach), set(blocking), set(passing))) \
                if board.squares else None
            found = None
            for c in chain((want,), self.around(want, around), self.beside(placed, coherency),
                           (here,)):
                if reachable is None and c != here and math.dist(here, c) > reach + 1e-9:
                    continue   # (further than the move goes: the cheapest question first)
                if not self.apart(c, placed) or not self.coherent(c, placed, coherency) or \
                        not self.apart(c, blocking) or not self.apart(c, passing) or \
                        board.blocked(c):
                    continue
                if reachable is not None:
                    if c not in reachable and c != here:
                        continue
                elif c != here and not self.straight(here, c, reach, blocking, passing):
                    continue
                found = c
                break
            if found is None:
                return None
            placed.append(found)
            new[k] = found
            self.ways.append([here, found])
        points = [new[k] for k in range(len(old))]
        return world.set(_ref(index), "#places", offsets_of(points))

    def stops(self, way: list, bases: list) -> list:
        """Where a unit's leader may stop on its way (its points, start first) and the way
        there: its end, then three quarters of its length, a half, a quarter, each where a
        base stands free (on squares, the squares of the way)."""
        board = self.board
        if board.squares:
            return [(way[k], way[:k + 1]) for k in range(len(way) - 1, 0, -1)]
        legs = [math.dist(a, b) for a, b in zip(way, way[1:])]
        length = sum(legs)
        out = [(way[-1], way)]
        for share in _SHORTER:
            left, k = length * share, 0
            while k < len(legs) - 1 and left > legs[k]:
                left -= legs[k]
                k += 1
            a, b = way[k], way[k + 1]
            t = min(1.0, left / legs[k]) if legs[k] else 0.0
            end = (round(a[0] + (b[0] - a[0]) * t, 2), round(a[1] + (b[1] - a[1]) * t, 2))
            if end != way[0] and not board.blocked(end) and self.apart(end, bases):
                out.append((end, [*way[:k + 1], end]))
        return out

    def straight(self, a, b, reach: float, blocking: list, passing: list) -> bool:
        """Inches: whether a model goes straight from a to b within `reach` (difficult ground
        counting double), no base, wall or impassable piece in the way."""
        board = self.board
        if board.cost(a, b) > reach + 1e-9:
            return False
        if math.dist(a, b) <= 0.05:
            return True
        end = board.straight(a, b, reach + 0.01, 0.0, blocking, passing)
        return end is not None and math.dist(end, b) <= 0.02


_SHORTER = (0.75, 0.5, 0.25)   # how much of its way a unit's leader goes when not all of it
_RING = tuple((math.cos(math.radians(a)), math.sin(math.radians(a))) for a in range(0, 360, 360 // 16))
_OFFSETS: dict = {}   # (how far, squares) -> the offsets round a point, nearest first


def _offsets(most: float, squares: bool) -> list:
    key = (most, squares)
    found = _OFFSETS.get(key)
    if found is None:
        if squares:
            r = int(most)
            cells = [(dx, dy) for dx in range(-r, r + 1) for dy in range(-r, r + 1)]
            found = sorted(cells, key=lambda c: (max(abs(c[0]), abs(c[1])), math.hypot(*c)))
        else:
            n = int(most / _STEP) + 1
            found = sorted(((i * _STEP, j * _STEP) for i in range(-n, n + 1)
                            for j in range(-n, n + 1) if math.hypot(i, j) * _STEP <= most),
                           key=lambda o: math.hypot(*o))
        found = _OFFSETS[key] = found[:_MOST_TRIED]
    return found


def _ref(index: int):
    return FIGHTER_REFS[index]


def _nearest_first(old: list, coherency: float, board: Board) -> list:
    """The models but the leader, in the order they follow: through the unit's coherency from
    the leader outwards (each next to one moved already), then any cut off, nearest first."""
    order, seen, frontier = [], {0}, [0]
    while frontier:
        k = frontier.pop(0)
        for j in sorted(range(len(old)), key=lambda j: math.dist(old[j], old[k])):
            if j not in seen and board.distance(old[j], old[k]) <= coherency + 1e-9:
                seen.add(j)
                order.append(j)
                frontier.append(j)
    rest = sorted((j for j in range(len(old)) if j not in seen),
                  key=lambda j: math.dist(old[j], old[0]))
    return order + rest


class ModelQuestions(Questions):
    """The board's questions where some units' models stand apart: measured from models."""

    def distance(self, a, b, world):
        fa = world.fighters[a[1]]
        fb = world.fighters[b[1]] if type(b) is not str and b is not None and \
            type(b) is not tuple and b[0] == "fighter" else None
        if not grouped(fa) and (fb is None or not grouped(fb)):
            return super().distance(a, b, world)
        mine = places(fa)
        if not mine:
            return 0
        board = self.board
        if fb is not None:
            theirs = places(fb)
            if not theirs:
                return 0
            return plain_number(min(board.distance(p, q) for p in mine for q in theirs))
        if type(b) is str:   # a kind of marker: its nearest piece, from the nearest model
            return plain_number(min(pieces.nearest(board, p, b, world) if self.mobile
                                    else board.nearest(p, b) for p in mine))
        if type(b) is tuple or b is None:
            return plain_number(min(pieces.to_point(board, p, b) for p in mine))
        return plain_number(min(pieces.gap(board, p, b, world) for p in mine))

    def contact(self, a, b, world) -> bool:
        fa = world.fighters[a[1]]
        if b[0] == "piece":
            if not grouped(fa):
                return super().contact(a, b, world)
            return any(pieces.touching(self.board, p, b, world) for p in places(fa))
        fb = world.fighters[b[1]]
        if not grouped(fa) and not grouped(fb):
            return super().contact(a, b, world)
        mine, theirs = places(fa), places(fb)
        if not mine or not theirs:
            return True
        return any(self.board.contact(p, q) for p in mine for q in theirs)

    def sees(self, a, b, world) -> bool:
        fa, fb = world.fighters[a[1]], world.fighters[b[1]]
        if not grouped(fa) and not grouped(fb):
            return super().sees(a, b, world)
        mine, theirs = places(fa), places(fb)
        if not mine or not theirs:
            return True
        return any(self.board.sees(p, q) for p in mine for q in theirs)

    def obscured(self, a, b, world) -> bool:
        """Every line from a model of a to a model of b passes another base."""
        fa, fb = world.fighters[a[1]], world.fighters[b[1]]
        mine, theirs = places(fa), places(fb)
        if not mine or not theirs:
            return False
        others = [p for i, g in enumerate(world.fighters) if not g.removed and i != a[1]
                  and i != b[1] for p in places(g)]
        return all(self.board.obscured(p, q, others) for p in mine for q in theirs)

    def engaged(self, a, world) -> bool:
        me = world.fighters[a[1]]
        mine = places(me)
        if not mine:
            return False
        return any(self.board.contact(p, q) for g in world.fighters
                   if g.side != me.side and not g.removed for q in places(g) for p in mine)

    def inside(self, a, zone, world) -> bool:
        """A unit stands in a zone (or a piece) when one of its models does, wholly: a unit
        reaches a zone when its first model does."""
        fa = world.fighters[a[1]]
        if not grouped(fa):
            return super().inside(a, zone, world)
        board = self.board
        if type(zone) is str and zone in board.zones:
            return any(board.in_zone(p, board.zones[zone]) for p in places(fa))
        return any(self.on_pieces(p, zone, world, True) for p in places(fa))

    def partly_inside(self, a, where, world) -> bool:
        """Some of a unit is on a piece when some of a model's base is."""
        fa = world.fighters[a[1]]
        if not grouped(fa):
            return super().partly_inside(a, where, world)
        return any(self.on_pieces(p, where, world, False) for p in places(fa))

    def models_in_range(self, a, b, reach, world):
        """How many of a's models are within `reach` of b (of its nearest model)."""
        fa, fb = world.fighters[a[1]], world.fighters[b[1]]
        if not grouped(fa) and not grouped(fb):
            return super().models_in_range(a, b, reach, world)
        mine, theirs = places(fa), places(fb)
        if not mine or not theirs:
            return fa.values.get("#models", 1)
        board = self.board
        return sum(1 for p in mine
                   if plain_number(min(board.distance(p, q) for q in theirs)) <= reach)

    def models_seeing(self, a, b, world):
        """How many of a's models see b (any of its models)."""
        fa, fb = world.fighters[a[1]], world.fighters[b[1]]
        if not grouped(fa) and not grouped(fb):
            return super().models_seeing(a, b, world)
        mine, theirs = places(fa), places(fb)
        if not mine or not theirs:
            return fa.values.get("#models", 1)
        sees = self.board.sees
        return sum(1 for p in mine if any(sees(p, q) for q in theirs))
