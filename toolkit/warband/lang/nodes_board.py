"""The abstract syntax of the rules language, part three: play on a board, the statements only
a game gives meaning to and the declarations of markers and scenarios (lang/nodes.py gathers all
the parts)."""

from __future__ import annotations

from warband.diagnostics import Span
from warband.lang.nodes_core import Block, Choose, ChooseNumber, Expr, Ident, node
from warband.lang.nodes_decl import TraitRef

# ---- play on a board ----------------------------------------------------------------------------
# Statements that only a game gives meaning to (the engine supplies the board and the players),
# and the declarations of markers and scenarios.

@node
class ForSorted:
    """for each x in group by highest|lowest key[, highest|lowest key2 ...] { ... }: in order
    of a value; `then`, the further values that order members the first ties, each (highest,
    key)."""
    var: Ident
    items: Expr
    highest: bool
    key: Expr
    body: Block
    span: Span
    then: tuple[tuple[bool, Expr], ...] = ()


@node
class ChooseAmong:
    """choose x by side among group: a player picks one member of a group."""
    name: Ident
    decider: Expr
    group: Expr
    doc: str | None
    span: Span


# several values at once: one decision that picks a number for each of several names
@node
class ChooseTuple:
    """choose hand (a, b, c) by x from low..high where cond default (da, db, dc): a decision
    whose options are every combination of whole numbers in low..high (one per name) that
    `where` allows, bound to the names for what follows (run/tuples.py)."""
    name: Ident
    names: tuple[Ident, ...]
    decider: Expr
    low: Expr
    high: Expr
    where: Expr | None
    default: tuple[Expr, ...] | None
    doc: str | None
    span: Span


# several values at once: `return (a, b)` in a procedure declared `-> (number, number)`
@node
class TupleExpr:
    """(a, b, ...): the several values a procedure returns at once (only after `return`)."""
    items: tuple[Expr, ...]
    span: Span


@node
class LetTuple:
    """let (x, y) = split(n): the values of a procedure giving several, each bound to a name."""
    names: tuple[Ident, ...]
    value: Expr
    span: Span


# What a player or policy decides, by the decision's name.
Decision = Choose | ChooseNumber | ChooseAmong | ChooseTuple


@node
class Activate:
    fighter: Expr
    using: tuple[Ident, ...]
    exclude: Expr | None
    bind: Ident | None
    span: Span


@node
class Travel:
    fighter: Expr
    distance: Expr
    away: bool
    target: Expr | None   # `up to D to TARGET`: a fighter to reach or a marker to go onto
    span: Span
    # `through friends` / `through everyone`: bases the move may pass but not end on (None:
    # every other base blocks it)
    through: Ident | None = None


@node
class Withdraw:
    fighter: Expr
    span: Span
    by: Expr | None = None   # who drove it off, as Remove.by


@node
class Concede:
    side: Expr
    span: Span


@node
class Deploy:
    side: Expr
    zone: Expr
    span: Span


# back into play: `bring f back into ZONE`
@node
class BringBack:
    """bring f back into ZONE: a fighter out of play (a casualty, or withdrawn) is in play
    again, as it was when it went out (its stats, flags and counters kept), at a spot of the
    zone its side's player picks."""
    fighter: Expr
    zone: Expr
    span: Span


# facing: `face f towards g` (game/facing.py)
@node
class Face:
    fighter: Expr
    towards: Expr
    span: Span


@node
class Point:
    x: Expr
    y: Expr
    span: Span


@node
class Place:
    """place N kind [by side] [in zone] [apart D] | place kind at (x, y) | from (x, y) to (x, y)"""
    count: Expr | None
    kind: Ident
    by: Expr | None
    zone: Expr | None
    apart: Expr | None
    at: Point | None
    to: Point | None
    span: Span
    # terrain with extent: "rectangle" (from `at` to `to`), "circle" (round `at`, `radius`)
    # or "polygon" (`at`, then `corners`); None: a piece at a point, or a wall
    area: str | None = None
    corners: tuple[Point, ...] = ()
    radius: Expr | None = None


# moves the rules choose: a move its player picks that ends out of contact with every enemy
@node
class TravelClear:
    """travel FIGHTER up to D not into contact"""
    fighter: Expr
    distance: Expr
    span: Span
    through: Ident | None = None   # as Travel's


# position as a value: place KIND at f.position
@node
class PlaceAt:
    """place KIND at POSITION (a value: where a fighter or a piece stands)"""
    kind: Ident
    where: Expr
    span: Span


# carrying pieces (run/carrying.py)
@node
class Carry:
    """pick up PIECE by FIGHTER"""
    piece: Expr
    fighter: Expr
    span: Span


@node
class PutDown:
    """put down PIECE: it lies where its carrier stands"""
    piece: Expr
    span: Span


@node
class MarkerDecl:
    name: Ident
    doc: str | None
    properties: tuple[str, ...]      # impassable opaque obscuring
    entered_by: Ident | None
    entered: Block | None
    span: Span


@node
class FighterSpecDecl:
    name: str
    count: int
    fighter_class: Ident | None
    traits: tuple[TraitRef, ...]
    equipment: tuple[Ident, ...]
    stats: tuple[tuple[Ident, Expr], ...]
    span: Span
    models: Expr | None = None   # a unit's models (`models 7`): units of several models


@node
class SideDecl:
    name: Ident
    doc: str | None
    file: str | None
    fighters: tuple[FighterSpecDecl, ...]
    span: Span


@node
class ZoneDecl:
    name: Ident
    doc: str | None
    shape: str                       # edge corner area everywhere
    where: tuple[Ident, ...]         # edge or corner names
    size: Expr | None                # depth or radius
    corners: tuple[Point, ...]       # an area's two corners
    span: Span


@node
class ZoneRoleDecl:
    """zone NAME [per side] ["doc"]: a zone the ruleset's rules name by a role, which each
    scenario fills with one of its own zones (per side: one for each side, read as NAME(s))."""
    name: Ident
    doc: str | None
    per_side: bool
    span: Span


@node
class RoleZone:
    """One zone filling a role in a scenario: `south_exit`, or `south_exit for watch`."""
    zone: Ident
    side: Ident | None
    span: Span


@node
class RoleFill:
    """zone ROLE is ZONE [for SIDE], ...: which of the scenario's zones plays a role."""
    role: Ident
    zones: tuple[RoleZone, ...]
    span: Span


@node
class ScenarioDecl:
    name: Ident
    doc: str | None
    board: tuple[Expr, Expr, str] | None    # width, height, inches | squares
    sides: tuple[SideDecl, ...]
    zones: tuple[ZoneDecl, ...]
    setup: Block | None
    round: Block | None
    rounds: Expr | None
    scores: tuple[tuple[Ident, Expr, str | None], ...]
    values: tuple[tuple[Ident, Expr], ...]
    end_when: tuple[Expr, ...]
    span: Span
    aftermath: Block | None = None   # after the last round: awards, experience
    events: tuple = ()               # the scenario's own events (nodes_event.EventDecl)
    roles: tuple[RoleFill, ...] = ()   # zones the ruleset can name: the zones playing its roles


@node
class PutAt:
    """put PIECE at POSITION: the piece lies there now (not one anyone carries)"""
    piece: Expr
    where: Expr
    span: Span


@node
class ChooseSpot:
    """choose NAME within D of AT by WHO ["doc"]: a player picks a position on the board within
    D of AT (a fighter, a piece or a position); the name is that position for what follows"""
    name: Ident
    decider: Expr
    reach: Expr
    at: Expr
    doc: str | None
    span: Span
