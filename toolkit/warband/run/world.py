"""Game state as the interpreter sees it: fighters and sides with their current values.

A World is persistent: a change makes a new World sharing everything else, so the exact
evaluator can follow many branches of a roll from one state without copying the whole game.

Worlds, fighters and sides are never changed in place (treat them as frozen). They are plain
slotted dataclasses rather than frozen ones because a frozen dataclass is built attribute by
attribute through object.__setattr__, which made every change of a sampled game cost several
microseconds (see docs/performance.md, "Sampling"). A changed copy is made by `object.__new__`
and a store to each slot (`changed`, `changed_side`, `new_world`): a third cheaper than
calling the class, whose __init__ is a Python function called through type.__call__. (Named
tuples, made in C, were tried: Python 3.11 reads a slot faster than a named tuple's field, and
the rules read far more than they change, so whole games took 13% more instructions.)
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from fractions import Fraction
from typing import NamedTuple

from warband.lang.ruleset import Ruleset
from warband.lang.units import carried_now, start_values
from warband.run import decks


class Ref(NamedTuple):
    """A fighter or a side, by index into the World (a tuple: cheap to hash and compare)."""

    kind: str   # fighter | side
    index: int  # type: ignore[assignment]  # a field may shadow tuple.index: NamedTuple allows it

    def __repr__(self) -> str:
        return f"{self.kind}#{self.index}"


class Refs(dict):
    """Index -> Ref of one kind, each made once: a NamedTuple is slow to make (a third of a
    microsecond) and the rules ask for groups of fighters all the time."""

    def __init__(self, kind: str) -> None:
        super().__init__()
        self.kind = kind

    def __missing__(self, index: int) -> Ref:
        found = self[index] = Ref(self.kind, index)
        return found


FIGHTER_REFS, SIDE_REFS = Refs("fighter"), Refs("side")
PIECE_REFS = Refs("piece")   # a piece on the board, by its place in World.pieces


@dataclass(slots=True)
class Fighter:
    """A fighter in play: its values, traits and equipment, where it is, whether in play."""

    name: str
    side: int
    fighter_class: str | None
    tier: str | None
    values: dict            # stats, flags and counters by their declared names
    traits: dict            # trait -> combined value (True for a bare trait)
    equipment: tuple[str, ...]
    removed: bool = False
    position: tuple[float, float] | None = None
    withdrawn: bool = False     # left the table (escaped, fled): removed, but not a casualty
    # who took it out of play: (the fighter's index or None, the side's index or None), or
    # None (in play, or removed by no one the rules name): `remove f by g` (remover)
    removed_by: tuple | None = None


@dataclass(slots=True)
class Side:
    """A side in play: its values, and whether it conceded."""

    name: str
    values: dict            # side flags and counters
    conceded: bool = False


# pieces on the board: the state of each (who holds it, its flags and counters)
@dataclass(slots=True)
class PieceState:
    """One piece placed on the board, as the rules see it: its kind, its flags and counters
    (declared `on KIND`) and the side holding it (an index, or None). Where it stands is the
    board's (game/board.py): the World keeps only what the rules change. Never changed in
    place, as a Fighter is not."""

    kind: str
    values: dict
    holder: int | None = None
    # where it lies (a point or a square; None once carried off the table), and the fighter
    # carrying it (an index, or None): a carried piece is where its carrier stands
    at: tuple | None = None
    carrier: int | None = None
    # shaping the board (a wall; a kind that blocks movement or sight, or does something when
    # entered): the board keeps its place, so it is never carried
    fixed: bool = False


_new = object.__new__


def changed(f: Fighter, values: dict, removed: bool, position, withdrawn: bool) -> Fighter:
    """A copy of the fighter with its changing fields given (the others shared)."""
    n = _new(Fighter)
    n.name, n.side, n.fighter_class, n.tier = f.name, f.side, f.fighter_class, f.tier
    n.values, n.traits, n.equipment = values, f.traits, f.equipment
    n.removed, n.position, n.withdrawn = removed, position, withdrawn
    n.removed_by = f.removed_by
    return n


def remover(world, by, index: int) -> tuple | None:
    """Who removes fighter `index`, as Fighter.removed_by keeps it: a fighter's Ref (with its
    side), a side's Ref, or None. A fighter does not remove itself (an actor struck down by a
    riposte, or one that flees): no one the rules name did."""
    if by is None:
        return None
    if by.kind == "fighter":
        if by.index == index:
            return None
        return (by.index, world.fighters[by.index].side)
    return (None, by.index)


def changed_side(s: Side, values: dict, conceded: bool) -> Side:
    """A copy of the side with its changing fields given (its name shared)."""
    n = _new(Side)
    n.name, n.values, n.conceded = s.name, values, conceded
    return n


_LAST_PIECES: list = [None, ()]   # the last pieces a key was made of, and that key


def _pieces_key(pieces: tuple) -> tuple:
    """The pieces' part of World.key: worked out once for a tuple of pieces, which most worlds
    of a game share (a turn that changes no piece keeps its tuple)."""
    if pieces is _LAST_PIECES[0]:
        return _LAST_PIECES[1]
    key = tuple((tuple(p.values.values()), p.holder, p.at, p.carrier) for p in pieces)
    _LAST_PIECES[0], _LAST_PIECES[1] = pieces, key
    return key


def new_world(fighters: tuple, sides: tuple, lazies: dict, pieces: tuple = ()) -> "World":
    """World(fighters, sides, lazies, pieces) without calling the class."""
    w = _new(World)
    w.fighters, w.sides, w.lazies, w.pieces = fighters, sides, lazies, pieces
    return w


@dataclass(slots=True)
class World:
    """The state of play: fighters, sides, rolls kept whole, pieces."""

    fighters: tuple[Fighter, ...]
    sides: tuple[Side, ...]
    # Rolls the exact evaluator keeps whole until a rule asks about them: id -> Dist.
    lazies: dict = field(default_factory=dict)
    # the pieces placed on the board, in the order they were placed (game/pieces.py)
    pieces: tuple = ()

    def key(self) -> tuple:
        """What can change during play, as a hashable value (memoised exact evaluation). A
        casualty and a fighter who left the table (withdrawn) are different states."""
        return (tuple((tuple(f.values.values()), f.removed, f.withdrawn, f.position,
                       f.removed_by) for f in self.fighters),
                tuple((tuple(s.values.values()), s.conceded) for s in self.sides),
                tuple(self.lazies.items()),
                _pieces_key(self.pieces))

    def state_key(self) -> tuple:
        """key() but the rolls kept whole: what merging exact odds key a situation's world by
        (run/merging.py keys the rolls a situation can still read itself)."""
        return (tuple((tuple(f.values.values()), f.removed, f.withdrawn, f.position,
                       f.removed_by) for f in self.fighters),
                tuple((tuple(s.values.values()), s.conceded) for s in self.sides),
                _pieces_key(self.pieces))

    def with_lazy(self, id: int, dist) -> "World":
        return World(self.fighters, self.sides, {**self.lazies, id: dist}, self.pieces)

    def add_lazy(self, dist) -> tuple[int, "World"]:
        lazies = self.lazies
        new = len(lazies)
        if new in lazies:   # (rolls nothing reads were dropped: the least number free)
            new = min(set(range(new)) - lazies.keys())
        return new, World(self.fighters, self.sides, {**lazies, new: dist}, self.pieces)

    def keeping(self, ids) -> "World":
        """The World with only the rolls kept whole that are in ids (the others nothing reads
        any more: run/merging.py)."""
        lazies = self.lazies
        return new_world(self.fighters, self.sides, {j: lazies[j] for j in ids}, self.pieces)

    def fighter(self, ref: Ref) -> Fighter:
        return self.fighters[ref.index]

    def get(self, ref: Ref, name: str):
        holder = self.fighters[ref.index] if ref.kind == "fighter" else self.sides[ref.index]
        return holder.values[name]

    def set(self, ref: Ref, name: str, value) -> "World":
        i = ref.index
        if ref.kind == "fighter":
            f = self.fighters[i]
            values = f.values.copy()   # (half the time of {**f.values, name: value})
            values[name] = value
            fighters = list(self.fighters)   # (cheaper than slicing round it and joining)
            fighters[i] = changed(f, values, f.removed, f.position, f.withdrawn)
            return new_world(tuple(fighters), self.sides, self.lazies, self.pieces)
        return self.set_side(i, name, value)

    def set_side(self, i: int, name: str, value) -> "World":
        """Side i's value changed (as Draft.set_side, which changes it in place). Generated
        code calls this straight, and an action spends a side's tokens often (Fate), so it is
        written out: no call to make the Side or the World."""
        sides = list(self.sides)
        s = sides[i]
        values = s.values.copy()
        values[name] = value
        n = sides[i] = _new(Side)
        n.name, n.values, n.conceded = s.name, values, s.conceded
        w = _new(World)
        w.fighters, w.sides, w.lazies = self.fighters, tuple(sides), self.lazies
        w.pieces = self.pieces
        return w

    def remove(self, ref: Ref, withdrawn: bool = False, by: Ref | None = None) -> "World":
        """Out of play (a casualty, or withdrawn: it left the table), removed by `by` (a
        fighter or a side, or None)."""
        i = ref.index
        fighters = list(self.fighters)
        f = fighters[i]
        fighters[i] = changed(f, f.values, True, f.position, withdrawn)
        fighters[i].removed_by = remover(self, by, i)
        w = new_world(tuple(fighters), self.sides, self.lazies, self.pieces)
        # carrying: what it carried falls where it stood, or leaves the table with it
        return fallen(w, i, withdrawn) if self.pieces else w

    def place(self, ref: Ref, position) -> "World":
        """The fighter moved to a position on the board."""
        i = ref.index
        fighters = list(self.fighters)
        f = fighters[i]
        fighters[i] = changed(f, f.values, f.removed, position, f.withdrawn)
        return new_world(tuple(fighters), self.sides, self.lazies, self.pieces)

    def returned(self, ref: Ref, position) -> "World":
        """Back into play at a position: neither removed nor withdrawn, removed by no one; its
        values as they were (what it carried off the table comes back with it)."""
        i = ref.index
        fighters = list(self.fighters)
        fighters[i] = changed(fighters[i], fighters[i].values, False, position, False)
        fighters[i].removed_by = None
        return new_world(tuple(fighters), self.sides, self.lazies, self.pieces)

    def concede(self, side: int) -> "World":
        s = self.sides[side]
        sides = self.sides[:side] + (changed_side(s, s.values, True),) + self.sides[side + 1:]
        return new_world(self.fighters, sides, self.lazies, self.pieces)

    # pieces with state: a piece changed, pieces added (game/pieces.py)
    def with_pieces(self, pieces: tuple) -> "World":
        return new_world(self.fighters, self.sides, self.lazies, pieces)


# A side's groups other than its fighters in play: who was removed, who left, who it plays.
SIDE_GROUPS = {
    "casualties": lambda w, s: tuple(FIGHTER_REFS[i] for i, f in enumerate(w.fighters)
                                     if f.side == s and f.removed and not f.withdrawn),
    "withdrawn": lambda w, s: tuple(FIGHTER_REFS[i] for i, f in enumerate(w.fighters)
                                    if f.side == s and f.withdrawn),
    "opponents": lambda w, s: tuple(SIDE_REFS[i] for i in range(len(w.sides)) if i != s),
}


def within(world: World, centre: Ref, distance) -> tuple[Ref, ...]:
    """The other fighters in play within `distance` of a fighter (none without positions)."""
    c = world.fighter(centre).position
    if c is None:
        return ()
    out = []
    for i, f in enumerate(world.fighters):
        if i == centre.index or f.removed or f.position is None:
            continue
        if math.dist(c, f.position) <= distance:
            out.append(FIGHTER_REFS[i])
    return tuple(out)


@dataclass
class FighterSpec:
    """A fighter as a warband file or the command line describes it."""

    name: str
    side: int = 0
    fighter_class: str | None = None
    stats: dict = field(default_factory=dict)       # by declared stat name
    traits: dict = field(default_factory=dict)      # trait -> value (True when bare)
    equipment: tuple[str, ...] = ()
    state: dict = field(default_factory=dict)       # flags and counters set at the start
    position: tuple[float, float] | None = None
    models: int | None = None   # a unit's models, as its entry gives them (None: the default)
    special: dict | None = None   # a unit's special models: piece -> how many carry it


def combine(mode: str, values: list):
    if not values:
        return 0
    if any(v is True for v in values):
        return True
    if mode == "max":
        return max(values)
    if mode == "min":
        return min(values)
    return sum(values)


def make_world(ruleset: Ruleset, specs: list[FighterSpec], sides: list[dict] | None = None,
               side_names: list[str] | None = None) -> World:
    """Fighters with their class, traits and equipment folded in; sides with their counters."""
    n_sides = max([s.side for s in specs] + [len(sides or []) - 1, 1]) + 1
    sides = list(sides or []) + [{}] * (n_sides - len(sides or []))
    fighter_states = {n: s for n, s in ruleset.states.items() if s.owner == "fighter"}
    side_states = {n: s for n, s in ruleset.states.items() if s.owner == "side"}
    fighters = []
    units = ruleset.has_units   # then every fighter keeps a unit's values (lang/units.py)
    for spec in specs:
        cls = ruleset.classes.get(spec.fighter_class) if spec.fighter_class else None
        values = {name: stat.default for name, stat in ruleset.stats.items()}
        if cls:
            values.update(cls.given)   # what it fixes, and its defaults of what it bounds
        values.update(spec.stats)
        values.update({n: s.initial for n, s in fighter_states.items()})
        values.update(spec.state)
        sources: dict[str, list] = {}
        equipment = cls.carried(tuple(spec.equipment)) if cls else tuple(spec.equipment)
        granted = [g for e in equipment if e in ruleset.equipment for g in ruleset.equipment[e].grants]
        for name, value in list(cls.traits if cls else ()) + list(spec.traits.items()) + granted:
            sources.setdefault(name, []).append(value)
        traits = {}
        for name, trait in ruleset.traits.items():
            value = combine(trait.combine, sources.get(name, []))
            if value is not True and isinstance(value, Fraction) and value.denominator == 1:
                value = int(value)
            traits[name] = value if (value or trait.numeric) else False
        if units:
            values.update(start_values(cls.unit if cls else None, values, traits, spec.models,
                                       spec.special, equipment))
            if "#specials" in values:   # one model with a different weapon: it carries it too
                equipment = carried_now(values)
        fighters.append(Fighter(spec.name, spec.side, spec.fighter_class,
                                cls.tier if cls else None, values, traits, equipment,
                                position=spec.position))
    side_objs = []
    for i, extra in enumerate(sides):
        values = {n: s.initial for n, s in side_states.items()}
        if ruleset.decks:   # decks and bags: the side's own, and those per game with the first
            values.update(decks.start_values(ruleset, i))
        values.update(extra)
        name = side_names[i] if side_names and i < len(side_names) else f"side {i + 1}"
        side_objs.append(Side(name, values))
    return World(tuple(fighters), tuple(side_objs))


# ---- pieces with state: what the rules read and change of a piece (game/pieces.py places them)
# a piece's own fields, besides the flags and counters declared on its kind
PIECE_BUILTINS = ("holder", "held", "carrier", "carried", "carried_off", "position")


def piece_position(world, index: int):
    """Where a piece is: where its carrier stands, where it lies, or None (carried off)."""
    p = world.pieces[index]
    if p.carrier is not None:
        f = world.fighters[p.carrier]
        return None if f.withdrawn else f.position
    return p.at


def fallen(world, index: int, withdrawn: bool):
    """Fighter `index` just left play: each piece it carried falls where it stood (a
    casualty), or leaves the table with it (withdrawn: still its carrier, off the table)."""
    if all(p.carrier != index for p in world.pieces):
        return world
    if withdrawn:
        return world   # (still carried, by a fighter off the table: `p.carried_off`)
    at = world.fighters[index].position
    pieces = tuple(p if p.carrier != index else
                   PieceState(p.kind, p.values, p.holder, at, None, p.fixed)
                   for p in world.pieces)
    return world.with_pieces(pieces)


def read_piece(world, ref: Ref, name: str):
    """A field of a piece: who holds it (a side's Ref, or None), whether anyone does, or one of
    its kind's flags and counters (by its name in any case, as a fighter's fields are read)."""
    p = world.pieces[ref.index]
    if name == "holder":
        return None if p.holder is None else SIDE_REFS[p.holder]
    if name == "held":
        return p.holder is not None
    if name == "carrier":
        return None if p.carrier is None else FIGHTER_REFS[p.carrier]
    if name == "position":   # position as a value: where it is now (None: carried off)
        return piece_position(world, ref.index)
    if name == "carried":   # by a fighter in play
        return p.carrier is not None and not world.fighters[p.carrier].removed
    if name == "carried_off":   # by a fighter who left the table with it
        return p.carrier is not None and world.fighters[p.carrier].withdrawn
    return p.values[_state_name(p, name)]


def set_piece(world, ref: Ref, name: str, value):
    """The World (or a generated run's Draft) with one field of a piece changed: `holder` takes
    a side's Ref, anything else is one of its kind's flags and counters."""
    pieces = list(world.pieces)
    p = pieces[ref.index]
    n = _new(PieceState)
    n.kind, n.values, n.holder, n.at, n.carrier = p.kind, p.values, p.holder, p.at, p.carrier
    n.fixed = p.fixed
    if name == "holder":
        n.holder = None if value is None else value.index
    else:
        key = _state_name(p, name)
        if p.values[key] == value and type(p.values[key]) is type(value):
            return world   # no change: no copy
        n.values = {**p.values, key: value}
    pieces[ref.index] = n
    return world.with_pieces(tuple(pieces))


def _state_name(p: PieceState, name: str) -> str:
    if name in p.values:
        return name
    lower = name.lower()
    return next(k for k in p.values if k.lower() == lower)


def piece_fields(ruleset: Ruleset) -> frozenset[str]:
    """The names (in lower case) of every field a piece may have: its own, and the flags and
    counters declared on a kind of marker."""
    return frozenset(PIECE_BUILTINS) | frozenset(
        n.lower() for n, s in ruleset.states.items() if s.owner not in ("fighter", "side"))


def new_pieces(ruleset: Ruleset, kind: str, places: list, wall: bool = False) -> tuple:
    """The state of new pieces of a kind, one at each of `places` (a wall: where it starts):
    its flags and counters at their start."""
    values = {n: s.initial for n, s in ruleset.states.items() if s.owner == kind}
    marker = ruleset.markers.get(kind)
    fixed = wall or marker is not None and (bool(marker.properties) or
                                            marker.entered is not None)
    return tuple(PieceState(kind, dict(values), None, at, None, fixed) for at in places)
