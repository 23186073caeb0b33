"""Units of models with places (docs/language.md, "Units of models with places"): where each
model of a unit stands, and which models fall when the unit loses some.

A unit class with `coherency D` gives each model a base of its own. The unit is still one
fighter: its position is its first model's place (the leader's), and its values keep each
model's place as an offset from that position ('#places', lang/units.py), so that whatever
moves the fighter moves its models with it, and the World's copying, hashing and memoising
carry the places with no work of their own. The game sets the models out and moves them
(game/formation.py); here is only what the interpreter needs, with or without a board:

- `places(f)`: where each model of fighter f stands (its one position for any other fighter);
- `fall(world, ref, lost, by)`: the places after `lost` models fell, in the order the class
  says (`casualties nearest first`, `farthest first`; the owner's choice, which players make
  as farthest first), measured from whoever hurt the unit (`by`), else from the nearest enemy.

Without a board nobody has a position and a unit's places are none: wounds take models by
count alone, as for a unit at one point, so exact odds are the same with or without places.
"""

from __future__ import annotations

import math

ORIGIN = (0, 0)


def offset_place(at, offset) -> tuple:
    """A model's place: the fighter's position moved by the model's offset (to the hundredth
    on a board in inches; a square on a board of squares)."""
    x, y = at[0] + offset[0], at[1] + offset[1]
    if type(x) is int and type(y) is int:
        return (x, y)
    return (round(x, 2), round(y, 2))


_KEPT: dict = {}   # (position, offsets) -> the places: the board asks of the same unit often
KEPT = 20_000


def places(f) -> list:
    """Where each model of fighter f stands, its first model's first; one place for a fighter
    whose models have none (a fighter that is no unit with places, or not on the board)."""
    at = f.position
    if at is None:
        return []
    offsets = f.values.get("#places")
    if not offsets:
        return [at]
    # (by the numbers' types too: (3, 4) == (3.0, 4.0), but a square is no point in inches)
    key = (at, offsets, type(at[0]), type(offsets[-1][0]))
    found = _KEPT.get(key)
    if found is None:
        if len(_KEPT) > KEPT:
            _KEPT.clear()
        found = _KEPT[key] = [offset_place(at, o) for o in offsets]
    return found


def offsets_of(points: list) -> tuple:
    """The '#places' value for models standing at `points`, the first the fighter's position."""
    x0, y0 = points[0]
    if all(type(c) is int for p in points for c in p):
        return tuple((x - x0, y - y0) for x, y in points)
    return tuple((round(x - x0, 2), round(y - y0, 2)) for x, y in points)


def fall(world, ref, lost: int, by=None, choose=None):
    """The World (or a generated run's Draft) after `lost` of unit `ref`'s models fell: their
    places gone, in the class's order, and the fighter's position its first model left's. The
    models measured from are `by`'s (a fighter's Ref), else every enemy model in play; with
    neither, the models set out last fall first. The owner's choice is `choose(ref, places,
    lost, world)` (the game's players: GameHost.casualties) when given, else farthest first."""
    f = world.fighters[ref.index]
    offsets = f.values.get("#places")
    if not offsets or lost <= 0:
        return world
    here = places(f)
    if lost >= len(here):
        return world.set(ref, "#places", ())
    if choose is not None and f.values["#order"] == "owner":
        return without(world, ref, here, set(choose(ref, here, lost, world)))
    targets: list = []
    if by is not None and by.kind == "fighter" and by.index != ref.index:
        targets = places(world.fighters[by.index])
    if not targets:
        targets = [p for g in world.fighters if g.side != f.side and not g.removed
                   for p in places(g)]
    order = f.values["#order"]
    if targets:
        near = [min(math.dist(p, t) for t in targets) for p in here]
        # nearest first: the nearest fall; farthest first (and the owner's choice): the
        # farthest; a tie takes the model set out later first
        if order == "nearest":
            ranked = sorted(range(len(here)), key=lambda k: (near[k], -k))
        else:
            ranked = sorted(range(len(here)), key=lambda k: (-near[k], -k))
    else:
        ranked = list(range(len(here) - 1, -1, -1))
    return without(world, ref, here, set(ranked[:lost]))


def without(world, ref, here: list, gone: set):
    """The World (or Draft) with the models of unit `ref` standing at `here` but those at the
    indices `gone`: the first left is the fighter's position."""
    kept = [p for k, p in enumerate(here) if k not in gone]
    world = world.set(ref, "#places", offsets_of(kept))
    if kept[0] != world.fighters[ref.index].position:
        world = world.place(ref, kept[0])
    return world
