"""Areas and templates (square, circle, cone, line) and the fighters under them.

An area is a value the rules make with `square(AT, SIDE)`, `square(AT, SIDE, TOWARDS)`,
`circle(AT, RADIUS)`, `cone(FROM, TOWARDS, LENGTH)`, `cone(FROM, TOWARDS, LENGTH, ANGLE)` or
`line(FROM, TOWARDS, LENGTH, WIDTH)`, where AT, FROM and TOWARDS are fighters, pieces or
positions (`f.position`, a spot a player chose) where it stands,
and ask with `fighters under AREA` (the fighters in play whose bases it covers, in the
fighters' order) or `f is under AREA`.

The geometry is here, in the layer of the interpreter, because an area is made and asked by
the interpreter and its generated code alike: a game only supplies the positions (and on a
board of squares, says that a fighter stands on a cell). On inches a fighter is under an area
when its base (a circle BASE_RADIUS across half) overlaps it: some of the base lies inside,
touching the edge is not enough. On squares a fighter is under it when the centre of its cell
lies inside it (edge included). A cone or a line starts at the front edge of FROM's base (half
an inch, or half a cell, in front of its centre, towards TOWARDS), so FROM itself is not under
its own template; from a piece or a position it starts at that point.

Without positions (the odds of one action, where no board places anyone) an area holds the one
fighter it is placed on or aimed at: AT for a square or circle, TOWARDS for a cone or line (an
area at a piece or a position holds nobody: they need a board). That
is how `fighters within D of f` and the board's other questions answer without a board: the
target is in reach and in sight, and nobody else is anywhere.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field

from warband.diagnostics import diag
from warband.run.errors import RulesError
from warband.run.members import piece_label
from warband.run.places import places
from warband.run.world import FIGHTER_REFS, Ref, piece_position

# name -> (fewest, most arguments): the area templates the rules may make
SHAPES = {"square": (2, 3), "circle": (2, 2), "cone": (3, 4), "line": (4, 4)}
BASE_RADIUS = 0.5     # a fighter's base on a board in inches (board.BASE across)
FRONT = 0.5           # where a cone or line starts: this far in front of FROM's centre
CONE_ANGLE = 90       # a cone's angle in degrees, when the rules give none
_EDGE = 1e-9          # rounding on the edge of an area
_NORTH = (0.0, 1.0)   # the way an area points when its two fighters stand on one spot


@dataclass(frozen=True, slots=True)
class Area:
    shape: str                              # square | circle | cone | line
    at: tuple[float, float] | None          # centre (square, circle) or start (cone, line)
    way: tuple[float, float]                # a unit vector: where a square's side or a cone points
    size: float                             # a square's side, a circle's radius, a length
    width: float                            # a line's width, a cone's angle in degrees, else 0
    anchor: Ref | None                      # the fighter it is placed on or aimed at
    squares: bool                           # on a board of squares: a cell's centre decides
    text: str                               # what it is, for the game log
    seen: Callable | None = field(default=None, compare=False)   # the game log's, when kept

    def gap(self, p) -> float:
        """How far the point p lies outside the area (0 inside or on its edge)."""
        assert self.at is not None
        dx, dy = p[0] - self.at[0], p[1] - self.at[1]
        wx, wy = self.way
        along, across = dx * wx + dy * wy, dx * wy - dy * wx   # in the area's own frame
        shape = self.shape
        if shape == "circle":
            return max(0.0, math.hypot(dx, dy) - self.size)
        if shape == "square":
            half = self.size / 2
            return math.hypot(max(0.0, abs(along) - half), max(0.0, abs(across) - half))
        if shape == "line":
            return math.hypot(max(0.0, -along, along - self.size),
                              max(0.0, abs(across) - self.width / 2))
        return _cone_gap(along, across, self.size, math.radians(self.width) / 2)

    def covers(self, p) -> bool:
        """Whether a fighter standing at p is under the area (see the module's words)."""
        if self.squares:
            return self.gap(p) <= _EDGE
        return self.gap(p) < BASE_RADIUS - _EDGE


def _cone_gap(along: float, across: float, length: float, half: float) -> float:
    """From a point (in the cone's frame: its apex at 0, pointing along) to a sector of radius
    `length` and half-angle `half`: 0 inside; beyond its arc the distance to the arc; beside
    it the distance to the nearer of its two straight edges."""
    d = math.hypot(along, across)
    if d <= _EDGE:
        return 0.0
    if abs(math.atan2(across, along)) <= half + _EDGE:
        return max(0.0, d - length)
    best = math.inf
    for sign in (1, -1):
        ex, ey = math.cos(half) * length, sign * math.sin(half) * length
        t = max(0.0, min(1.0, (along * ex + across * ey) / (length * length)))
        best = min(best, math.hypot(along - t * ex, across - t * ey))
    return best


def _way(a, b) -> tuple[float, float]:
    dx, dy = b[0] - a[0], b[1] - a[1]
    d = math.hypot(dx, dy)
    return (dx / d, dy / d) if d > _EDGE else _NORTH


def _number(x) -> str:
    return str(x) if float(x) != int(x) else str(int(x))


def make(shape: str, args: tuple, world, squares: bool) -> Area:
    """An area from the rules' arguments (as the checker allows them: fighters, pieces or
    positions where it is placed or aimed, and numbers), placed where they stand in `world`
    (none when one stands nowhere: a fighter out of play, a piece carried off, no board)."""
    fighters = world.fighters

    def where(at):
        if type(at) is not Ref:   # a position: where it is (None: nowhere)
            return at
        if at.kind == "piece":   # a piece where it lies now, or where its carrier stands
            return piece_position(world, at.index)
        return fighters[at.index].position

    def name(at):
        if type(at) is not Ref:
            return "nowhere" if at is None else f"({_number(at[0])}, {_number(at[1])})"
        if at.kind == "piece":
            return piece_label(world, at.index)
        return fighters[at.index].name
    if shape in ("square", "circle"):
        centre, size = args[0], check_size(args[1], f"the size of a {shape}")
        towards = args[2] if len(args) > 2 else None
        at = where(centre)
        way = _NORTH
        if towards is not None and at is not None and where(towards) is not None:
            way = _way(where(towards), at)   # its sides face the fighter it is turned to
        text = f"{shape} {_number(args[1])} at {name(centre)}" + (
            f" facing {name(towards)}" if towards is not None else "")
        return Area(shape, at, way, size, 0.0, _fighter(centre), squares, text)
    source, target = args[0], args[1]
    length = check_size(args[2], f"the length of a {shape}")
    width = float(CONE_ANGLE) if len(args) < 4 else check_size(
        args[3], "a line's width" if shape == "line" else "a cone's angle",
        None if shape == "line" else 180)
    start, goal = where(source), where(target)
    at, way = None, _NORTH
    if start is not None and goal is not None:
        way = _way(start, goal)
        front = FRONT if _fighter(source) is not None else 0.0   # a base's front; a point's self
        at = (start[0] + front * way[0], start[1] + front * way[1])
    extra = f", {_number(args[3])} wide" if shape == "line" else \
        f", {_number(args[3]) if len(args) > 3 else CONE_ANGLE} degrees"
    text = f"{shape} {_number(args[2])} from {name(source)} towards {name(target)}{extra}"
    return Area(shape, at, way, length, width, _fighter(target), squares, text)


def _fighter(at) -> Ref | None:
    """What an area holds without a board: the fighter it is placed on or aimed at; an area at
    a piece or a position holds nobody there (a piece or a position needs a board)."""
    return at if type(at) is Ref and at.kind == "fighter" else None


def under(world, area: Area) -> tuple[Ref, ...]:
    """`fighters under AREA`: those in play it covers, in the fighters' order."""
    fighters = world.fighters
    if area.at is None:   # no board: the fighter it is placed on or aimed at
        anchor = area.anchor
        found: tuple[Ref, ...] = () if anchor is None or fighters[anchor[1]].removed \
            else (FIGHTER_REFS[anchor[1]],)
    else:
        covers = area.covers
        found = tuple(FIGHTER_REFS[i] for i, f in enumerate(fighters)
                      if not f.removed and f.position is not None and (
                          covers(f.position) if "#places" not in f.values
                          else any(map(covers, places(f)))))
    if area.seen is not None:
        area.seen(world, area, found)
    return found


def is_under(world, ref: Ref, area: Area) -> bool:
    """`f is under AREA` (a casualty is under nothing)."""
    f = world.fighters[ref[1]]
    if f.removed:
        return False
    if area.at is None:
        return area.anchor is not None and area.anchor[1] == ref[1]
    if f.position is None:
        return False
    if "#places" in f.values:   # a unit of models with places: any of its models
        return any(map(area.covers, places(f)))
    return area.covers(f.position)


def check_size(value, what: str, most: float | None = None) -> float:
    """A size or angle worked out while the rules run: more than 0 (and at most `most`), else
    E512 (a number written in the rules is checked before they run: E322)."""
    if value <= 0 or (most is not None and value > most):
        limit = f" and at most {most}" if most is not None else ""
        raise RulesError(diag("E512", f"{what} came out as {value}: it must be more than 0"
                                      f"{limit}",
                              hint="keep it within bounds, as in max(1, ...)"))
    return float(value)


def face(interp, ref: Ref, target: Ref, world) -> None:
    """`face f towards g`: only a game on a board keeps facing (game/facing.py); outside one,
    and while exact odds look ahead, nobody turns."""
    if not interp.exact_mode:
        interp.board.face(ref, target, world)
