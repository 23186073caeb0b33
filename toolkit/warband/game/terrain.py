"""Terrain with extent: pieces that are areas of the board, not points.

A scenario places a marker as an area (`place KIND area (x, y) radius R`, `place KIND area
(x1, y1) to (x2, y2)`, `place KIND area (x1, y1), (x2, y2), (x3, y3), ...`): a circle, or a
polygon (a rectangle is one of four corners). The board asks this module the geometry of one:

- how far a point lies outside it (`gap`, 0 inside or on its edge), so that a base (a circle
  of half an inch) is partly inside when its centre is nearer than half an inch, and wholly
  inside (`holds`) when its centre is inside and half an inch from every side;
- where a straight line crosses its edge (`cuts`), how much of a line lies inside it
  (`length_inside`: difficult ground counts it twice), and whether a line of sight passes
  through it (`in_the_way`);
- its sides, which an impassable polygon lends the board's movement as walls (a base goes
  round them as round any wall).

Pure geometry, of corners and centres as tuples: the board keeps the pieces.
"""

from __future__ import annotations

import math

_EDGE = 1e-9   # rounding on an area's edge


def sides(outline: tuple) -> list[tuple]:
    """A polygon's sides, each (corner, next corner), the last back to the first."""
    return [(outline[i], outline[(i + 1) % len(outline)]) for i in range(len(outline))]


def _segment_gap(p, a, b) -> float:
    (px, py), (ax, ay), (bx, by) = p, a, b
    dx, dy = bx - ax, by - ay
    length2 = dx * dx + dy * dy
    if length2 == 0:
        return math.dist(p, a)
    t = max(0.0, min(1.0, ((px - ax) * dx + (py - ay) * dy) / length2))
    return math.dist(p, (ax + t * dx, ay + t * dy))


def contains(outline: tuple, p) -> bool:
    """Whether the point lies inside the polygon or on its edge (crossings of a ray east)."""
    x, y = p
    if any(_segment_gap(p, a, b) <= _EDGE for a, b in sides(outline)):
        return True
    inside = False
    for (ax, ay), (bx, by) in sides(outline):
        if (ay > y) != (by > y):
            cross = ax + (y - ay) * (bx - ax) / (by - ay)
            if cross > x:
                inside = not inside
    return inside


def gap(extent: str, centre, radius: float, outline: tuple, p) -> float:
    """How far the point p lies outside the area (0 inside or on its edge)."""
    if extent == "circle":
        d = math.dist(centre, p) - radius
        return d if d > 0.0 else 0.0
    if contains(outline, p):
        return 0.0
    return min(_segment_gap(p, a, b) for a, b in sides(outline))


def holds(extent: str, centre, radius: float, outline: tuple, p, base: float) -> bool:
    """Whether a base of radius `base` centred at p lies wholly inside the area."""
    if extent == "circle":
        return math.dist(centre, p) + base <= radius + _EDGE
    return contains(outline, p) and \
        all(_segment_gap(p, a, b) >= base - _EDGE for a, b in sides(outline))


def _circle_cuts(centre, radius: float, a, b) -> list[float]:
    """Where (0..1 along a-b) the segment crosses the circle."""
    dx, dy = b[0] - a[0], b[1] - a[1]
    fx, fy = a[0] - centre[0], a[1] - centre[1]
    qa = dx * dx + dy * dy
    if qa == 0:
        return []
    qb = 2 * (fx * dx + fy * dy)
    qc = fx * fx + fy * fy - radius * radius
    disc = qb * qb - 4 * qa * qc
    if disc <= 0:
        return []
    root = math.sqrt(disc)
    return [t for t in ((-qb - root) / (2 * qa), (-qb + root) / (2 * qa)) if 0.0 < t < 1.0]


def _polygon_cuts(outline: tuple, a, b) -> list[float]:
    """Where (0..1 along a-b) the segment crosses the polygon's sides."""
    out = []
    dx, dy = b[0] - a[0], b[1] - a[1]
    for (cx, cy), (ex, ey) in sides(outline):
        sx, sy = ex - cx, ey - cy
        denom = dx * sy - dy * sx
        if abs(denom) < 1e-15:
            continue   # parallel: its ends are cuts of the neighbouring sides
        t = ((cx - a[0]) * sy - (cy - a[1]) * sx) / denom
        u = ((cx - a[0]) * dy - (cy - a[1]) * dx) / denom
        if 0.0 < t < 1.0 and -_EDGE <= u <= 1.0 + _EDGE:
            out.append(t)
    return out


def cuts(extent: str, centre, radius: float, outline: tuple, a, b) -> list[float]:
    """Where (0..1 along a-b, in order) the segment crosses the area's edge."""
    found = _circle_cuts(centre, radius, a, b) if extent == "circle" else \
        _polygon_cuts(outline, a, b)
    return sorted(found)


def _inside(extent: str, centre, radius: float, outline: tuple, p) -> bool:
    if extent == "circle":
        return math.dist(centre, p) <= radius + _EDGE
    return contains(outline, p)


def length_inside(extent: str, centre, radius: float, outline: tuple, a, b) -> float:
    """How much of the segment a-b lies inside the area: the pieces between its crossings
    of the edge whose middles are inside."""
    ts = [0.0, *cuts(extent, centre, radius, outline, a, b), 1.0]
    total = 0.0
    for t0, t1 in zip(ts, ts[1:]):
        if t1 - t0 <= 0:
            continue
        mid = (t0 + t1) / 2
        m = (a[0] + (b[0] - a[0]) * mid, a[1] + (b[1] - a[1]) * mid)
        if _inside(extent, centre, radius, outline, m):
            total += t1 - t0
    return total * math.dist(a, b)


def in_the_way(extent: str, centre, radius: float, outline: tuple, a, b) -> bool:
    """Whether a line of sight from a to b passes through the area: some of it lies inside,
    where an area the looker stands in (its centre, a) does not count: a fighter in a wood
    sees out of it, and a target in it, or behind it, is behind it."""
    if _inside(extent, centre, radius, outline, a):
        return False
    return length_inside(extent, centre, radius, outline, a, b) > _EDGE or \
        _inside(extent, centre, radius, outline, b)


def middle(outline: tuple) -> tuple[float, float]:
    """Where a polygon's name is written and a move onto it aims: the mean of its corners,
    to the hundredth."""
    x = sum(p[0] for p in outline) / len(outline)
    y = sum(p[1] for p in outline) / len(outline)
    return (round(x * 100) / 100, round(y * 100) / 100)


def rectangle(a, b) -> tuple:
    """A rectangle's four corners, from two opposite ones."""
    (x1, y1), (x2, y2) = a, b
    return ((x1, y1), (x2, y1), (x2, y2), (x1, y2))
