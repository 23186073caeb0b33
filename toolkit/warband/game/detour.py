"""The way round one base that stands in a move's straight way, worked out without a search.

Most moves that meet a base on open ground meet just the one. The shortest way round a round
base is known in closed form: straight to where a line from the start touches a circle round
it, along the circle, and straight on from where a line to the goal touches it (tangent, arc,
tangent). The arc is walked as a few short chords whose corners stand a little outside the
circle, so no chord cuts into it, every corner at a hundredth of an inch as the board's moves
are. Each leg is then checked against every other base, the walls and the board's edge as any
straight move is; when a leg is not free (a second base, a wall, the edge), the caller searches
over half-inch points as before (game/movement.py). The way it gives is shorter than the
search's, which only approximates the shortest way by steps in eight directions.
"""

from __future__ import annotations

import math

from warband.game.board import BASE, CONTACT, near_segment

# a base's centre keeps at least BASE - CONTACT from another's: the circle the way goes round
# stands a little further out, so that a corner rounded to the hundredth stays clear of it
_AROUND = BASE - CONTACT + 0.04
_STEP = math.radians(15)   # the widest turn a chord of the arc makes


def ways_round(start, goal, stop: float, others: list) -> list[list]:
    """The shortest way round the first base of `others` in the straight way from `start` to
    within `stop` of `goal` (the goal itself, a base a move ends touching, is not in the way):
    [[start, corner, ..., the last corner]], to go on straight to the goal from; [] when no
    base is in the straight way (what stops it is something else). Only the shorter side: no
    free way round everything is shorter than it, so when it is free it is the shortest free
    way; when it is not, the longer side need not be the shortest either (it may be shorter
    to go round the base that blocks the first as well), and the caller searches."""
    blocker = _first_in_the_way(start, goal, stop, others)
    if blocker is None:
        return []
    centre = blocker
    sides = []
    for turn in (1.0, -1.0):   # anticlockwise round the base, then clockwise
        leave = _touching(start, centre, turn)
        join = _touching(goal, centre, -turn)
        if leave is None or join is None:
            return []   # (the goal is on the circle itself: too near the base to go round)
        sweep = ((join - leave) * turn) % math.tau
        if sweep > math.pi + 1e-9:
            continue   # (this side turns more than half round: the other side is the way)
        corners = _chords(centre, leave, sweep, turn)
        length = math.dist(start, corners[0]) + _AROUND * sweep + \
            max(0.0, math.dist(corners[-1], goal) - stop)
        sides.append((length, [start, *corners]))
    sides.sort(key=lambda side: side[0])
    return [way for _, way in sides[:1]]


def _first_in_the_way(start, goal, stop: float, others: list):
    """The base of `others` nearest the start among those whose centre is nearer the straight
    way than a base may come (None: none is). A base the mover already overlaps is left out:
    it may only move away from it, and the straight check says whether it can; one it touches
    is gone round from where it stands (straight out to the circle first)."""
    d = math.dist(start, goal)
    if d <= stop + 1e-9:
        return None
    end = (goal[0] + (start[0] - goal[0]) / d * stop, goal[1] + (start[1] - goal[1]) / d * stop)
    near = BASE - CONTACT
    found, nearest = None, math.inf
    for o in others:
        if o == goal or math.dist(o, start) < near:
            continue
        if near_segment((o,), start, end, near):
            gap = math.dist(o, start)
            if gap < nearest:
                found, nearest = o, gap
    return found


def _touching(point, centre, turn: float) -> float | None:
    """The angle (round `centre`) of where a line from `point` touches the circle, on the
    side a way going round it in direction `turn` (+1 anticlockwise) leaves or joins it; a
    point on or inside the circle: its own angle (the way goes straight out to the circle)."""
    dx, dy = point[0] - centre[0], point[1] - centre[1]
    d = math.hypot(dx, dy)
    if d < 1e-9:
        return None
    facing = math.atan2(dy, dx)
    if d <= _AROUND:
        return facing
    return facing + turn * math.acos(_AROUND / d)


def _chords(centre, leave: float, sweep: float, turn: float) -> list:
    """The corners of the chords that walk the arc from angle `leave`, `sweep` radians round
    in direction `turn`, set out so far from the centre that no chord comes nearer it than
    _AROUND, each rounded to the hundredth away from the centre."""
    if sweep < 1e-9:
        count = 0   # (it leaves the circle where it joins it: one corner)
    else:
        count = max(1, math.ceil(sweep / _STEP - 1e-9))
    step = sweep / count if count else 0.0
    out = _AROUND / math.cos(step / 2) + 0.01   # (the hundredth: rounding may bring it nearer)
    corners = []
    for k in range(count + 1):
        angle = leave + turn * step * k
        x = centre[0] + math.cos(angle) * out
        y = centre[1] + math.sin(angle) * out
        corners.append((_outwards(x, centre[0]), _outwards(y, centre[1])))
    return corners


def _outwards(value: float, centre: float) -> float:
    """`value` to the hundredth, rounded away from `centre`."""
    scaled = value * 100
    return (math.ceil(scaled) if value >= centre else math.floor(scaled)) / 100
