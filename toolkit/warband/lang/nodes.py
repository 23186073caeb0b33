"""The abstract syntax of the rules language: frozen nodes, each carrying its source span.

Nodes compare by identity (eq=False), so a node can key a table of facts the checker learns
about it, and two identical expressions at different places stay distinct.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TypeVar, dataclass_transform

from warband.diagnostics import Span

_Node = TypeVar("_Node")


@dataclass_transform(frozen_default=True, eq_default=False)
def node(cls: type[_Node]) -> type[_Node]:
    """A syntax node: a frozen dataclass with slots, compared by identity."""
    return dataclass(frozen=True, eq=False, slots=True)(cls)


@node
class Ident:
    name: str
    span: Span


# ---- expressions ------------------------------------------------------------------------------

@node
class Int:
    value: int
    span: Span


@node
class Str:
    value: str
    span: Span


@node
class Bool:
    value: bool
    span: Span


@node
class Name:
    name: str
    span: Span


@node
class Field:
    subject: "Expr"
    field: Ident
    span: Span


@node
class Call:
    callee: Ident
    args: tuple["Expr", ...]
    span: Span


@node
class Binary:
    op: str  # + - * /
    left: "Expr"
    right: "Expr"
    span: Span


@node
class Compare:
    op: str  # >= <= == != > <
    left: "Expr"
    right: "Expr"
    span: Span


@node
class Logic:
    op: str  # and, or
    items: tuple["Expr", ...]
    span: Span


@node
class Not:
    operand: "Expr"
    span: Span


@node
class Neg:
    operand: "Expr"
    span: Span


@node
class IfExpr:
    condition: "Expr"
    then: "Expr"
    otherwise: "Expr"
    span: Span


@node
class Has:
    subject: "Expr"
    name: Ident
    span: Span


@node
class Is:
    subject: "Expr"
    name: Ident
    span: Span


@node
class KeepMod:
    keep: bool      # keep (True) or drop (False)
    highest: bool
    count: int
    span: Span


@node
class RerollMod:
    predicate: "Predicate"
    span: Span


@node
class Dice:
    count: "Expr"   # an Int for 3d6, any expression for (n)d6
    sides: int
    mods: tuple[KeepMod | RerollMod, ...]
    span: Span
    count_in_token: bool = True  # 3d6 (True) as against (n)d6; (n)3d6 is an error
    # dice pools: `pool 3d6` keeps each die's face, a value asked questions (count, total, ...)
    pool: bool = False


@node
class PredEven:
    span: Span


@node
class PredOdd:
    span: Span


@node
class PredCompare:
    op: str
    value: "Expr"
    span: Span


@node
class PredSet:
    values: tuple[int, ...]
    span: Span


Predicate = PredEven | PredOdd | PredCompare | PredSet


@node
class Count:
    predicate: Predicate
    pool: "Expr"
    span: Span


@node
class Within:
    distance: "Expr"
    of: Name
    span: Span


@node
class Aggregate:
    """total/highest/lowest(value for name in group if condition): over a group of fighters."""
    kind: Ident             # total | highest | lowest
    value: "Expr"
    var: Ident
    group: "Expr"
    condition: "Expr | None"
    span: Span


# areas and templates: `fighters under AREA` and `f is under AREA` (run/areas.py)
@node
class Under:
    """The fighters in play whose bases an area covers (subject None), or whether one is."""
    subject: Expr | None
    area: Expr
    span: Span


Expr = (Int | Str | Bool | Name | Field | Call | Binary | Compare | Logic | Not | Neg | IfExpr
        | Has | Is | Dice | Count | Within | Aggregate | Under)


# ---- statements -------------------------------------------------------------------------------

@node
class Let:
    name: Ident
    value: Expr
    span: Span


@node
class Set:
    target: tuple[Ident, ...]   # a local, or subject.field
    op: str                     # = += -=
    value: Expr
    span: Span


@node
class If:
    condition: Expr
    then: "Block"
    otherwise: "Block | If | None"
    span: Span


@node
class Option:
    name: Ident
    doc: str | None
    when: Expr | None
    body: "Block | None"
    span: Span


@node
class Choose:
    name: Ident
    decider: Expr
    doc: str | None
    options: tuple[Option, ...]
    span: Span


@node
class ChooseNumber:
    """A decision among the whole numbers low..high, bound to a name for what follows."""
    name: Ident
    decider: Expr
    low: Expr
    high: Expr
    default: Expr | None
    doc: str | None
    span: Span


@node
class Return:
    value: Expr | None   # None: a bare `return`, in a rule that gives no result
    span: Span


@node
class Remove:
    subject: Expr
    span: Span


@node
class ForEach:
    var: Ident
    items: Expr
    body: "Block"
    span: Span


@node
class Repeat:
    times: Expr
    body: "Block"
    span: Span


# units of several models (docs/language.md, "Units of several models")
@node
class Wound:
    """`inflict AMOUNT wounds on UNIT`: wounds taken model by model, each model's used up before
    the next takes any; the last model gone, the unit is removed as a casualty."""
    amount: Expr
    target: Expr
    span: Span


@node
class CallStmt:
    call: Call
    span: Span


Stmt = Let | Set | If | Choose | ChooseNumber | Return | Remove | ForEach | Repeat | CallStmt \
    | Wound


@node
class Block:
    stmts: tuple[Stmt, ...]
    span: Span


# ---- declarations ------------------------------------------------------------------------------

@node
class Param:
    name: Ident
    type: Ident | None
    default: Expr | None
    span: Span


@node
class Header:
    id: str
    title: str | None
    source: str | None
    version: str | None
    extends: str | None
    span: Span
    extends_span: Span | None = None   # the `extends "..."` line, for errors about the base


@node
class RangeType:
    low: Expr
    high: Expr
    span: Span


@node
class StatDecl:
    name: Ident
    type: RangeType | Ident
    default: Expr | None
    doc: str | None
    span: Span
    # a derived stat, `stat Level(f): 1..20 as level_from_xp(f.XP) if f is human`: the name
    # of the fighter, the value worked out from it, and for whom (None: every fighter)
    fighter: Ident | None = None
    derived: Expr | None = None
    when: Expr | None = None


@node
class EnumMember:
    name: Ident
    doc: str | None
    span: Span


@node
class EnumDecl:
    name: Ident
    doc: str | None
    members: tuple[EnumMember, ...]
    span: Span


@node
class StateDecl:
    """A flag or counter kept on each fighter or side during play."""
    kind: str            # flag | counter
    name: Ident
    owner: str           # fighter | side
    initial: Expr | None
    doc: str | None
    span: Span


@node
class TierDecl:
    name: Ident
    doc: str | None
    span: Span


@node
class TraitDecl:
    name: Ident
    param: str | None    # the label of its number, as in Armor(N); None for a bare trait
    combine: str         # how values from several sources combine: sum, max, min
    doc: str | None
    span: Span


@node
class TraitRef:
    name: Ident
    value: Expr | None
    span: Span


@node
class ClassDecl:
    name: Ident
    doc: str | None
    tier: Ident | None
    traits: tuple[TraitRef, ...]
    equipment: tuple[Ident, ...]
    stats: tuple[tuple[Ident, Expr], ...]
    span: Span
    # how many fighters one warband entry of the class may stand for: `group 1..5`, or
    # `single` (1..1); None: any number
    group: "GroupSize | None" = None
    unique: Span | None = None     # `unique`: at most one fighter of the class in a warband
    options: "tuple[EquipmentOption, ...]" = ()   # `may take ...`, `may swap X for ...`
    # stats the list chooses for fighters of the class, within the class's own bounds
    choices: "tuple[StatChoice, ...]" = ()
    # units of several models: `models LOW..HIGH`, `wounds per model = VALUE` (None: not given)
    models: "UnitModels | None" = None
    model_wounds: "ModelWounds | None" = None
    # a line a class may give once, given again: (its words, the second's span, the first's),
    # for the checker's E202 (the builder keeps the first)
    repeated: "tuple[tuple[str, Span, Span], ...]" = ()
    # one model of a unit with a different weapon: `one model may take X`, `up to N models may
    # swap X for Y` (an EquipmentOption whose limit counts models, each carrying one piece)
    model_options: "tuple[EquipmentOption, ...]" = ()


@node
class EquipmentOption:
    """What an entry of a class may carry besides the class's own equipment: `may take A, B`
    (any of them, each once), `may take one of A, B` (limit 1), `may take up to N of A, B`,
    `may swap X for A, B` (one of them instead of the class's X)."""
    kind: str                  # take | up_to | swap (`one of` is up_to 1)
    items: tuple[Ident, ...]
    limit: Expr | None         # up_to: how many of the items at most
    replaces: Ident | None     # swap: the class's piece given up
    doc: str | None
    span: Span


@node
class StatChoice:
    """`stat NAME: LOW..HIGH [default V]` (a number stat) or `stat NAME in A, B [default A]` (an
    enum stat) in a class: a warband entry of the class gives the stat a value within these
    bounds, or takes the class's default."""
    name: Ident
    low: Expr | None             # a number stat's bounds for the class
    high: Expr | None
    members: tuple[Ident, ...]   # an enum stat's values the class allows
    default: Expr | None         # an enum's default is a Name
    doc: str | None
    span: Span


@node
class GroupSize:
    """`group LOW..HIGH` (or `single`, LOW = HIGH = 1) in a class."""
    low: Expr
    high: Expr
    doc: str | None
    span: Span


# ---- units of several models (docs/language.md, "Units of several models") ----
@node
class UnitModels:
    """`models LOW..HIGH [default N]` in a class: a warband entry of the class fields that many
    models, one fighter on the board that takes wounds model by model."""
    low: Expr
    high: Expr
    default: Expr | None
    doc: str | None
    span: Span


@node
class ModelWounds:
    """`wounds per model = VALUE` in a class: a fixed number, or the name of a number stat or a
    numbered trait each fighter of the class reads its own value of."""
    value: Expr
    doc: str | None
    span: Span


@node
class EquipmentDecl:
    name: Ident
    doc: str | None
    grants: tuple[TraitRef, ...]
    span: Span
    # weapon profiles: the piece's own values (`Range = 24`) and traits (`traits Rending`)
    values: tuple[tuple[Ident, Expr], ...] = ()
    traits: tuple[TraitRef, ...] = ()


# weapon profiles: `stat Range on equipment: 0..48 default 0`, a value each piece carries
@node
class ProfileDecl:
    name: Ident
    type: RangeType | Ident
    default: Expr | None
    doc: str | None
    span: Span


@node
class Row:
    kind: str                    # when | otherwise | key
    condition: Expr | None       # for when
    key: Ident | int | tuple[int, int] | None  # for key rows: a name, a number, or a range
    values: tuple[Expr, ...]
    doc: str | None
    span: Span


@node
class TableDecl:
    name: Ident
    params: tuple[Param, ...]
    columns: tuple[Ident, ...]
    doc: str | None
    rows: tuple[Row, ...]
    span: Span
    # `for reference` (the word after `for`; the checker accepts only "reference"): a table
    # players look up during play, printed once on a roster's sheet
    use: Ident | None = None

    @property
    def reference(self) -> bool:
        return self.use is not None and self.use.name == "reference"


@node
class DefineDecl:
    name: Ident
    params: tuple[Param, ...]
    doc: str | None
    body: Expr
    span: Span


@node
class OutcomeMember:
    name: Ident
    score: int
    doc: str | None
    span: Span


@node
class OutcomesDecl:
    name: Ident
    doc: str | None
    members: tuple[OutcomeMember, ...]
    span: Span


@node
class ProcedureDecl:
    kind: str                # procedure | action | phase
    name: Ident
    params: tuple[Param, ...]
    result: Ident | None
    doc: str | None
    requires: Expr | None
    body: Block
    span: Span
    # several values at once: the type of each result, when the procedure gives several
    # (`-> (number, number)`; `result` is then the first of them)
    results: tuple[Ident, ...] = ()


@node
class Bound:
    kind: str                # at least | at most | exactly
    value: Expr
    span: Span
    per: Expr | None = None  # `per N points`: the limit is value for every N points of the game


@node
class Quota:
    selector_kind: str       # tier | class | trait | equipment
    selector: Ident
    bound: Bound
    doc: str | None
    span: Span


@node
class EachQuota:
    """`quota each class at most 2`: the same limit on every class (tier, trait, equipment)."""
    selector_kind: str
    bound: Bound
    doc: str | None
    span: Span


@node
class ArmyRule:
    """A legality rule of the author's own, with the message a warband breaking it gets.

    require: `require TEST`, once for the warband;
    every:   `every VAR in GROUP [where CONDITION]: TEST`, for each member;
    count:   `BOUND VAR in GROUP [where CONDITION]`, how many members the condition holds for.
    """
    kind: str                # require | every | count
    var: Ident | None
    group: Expr | None
    condition: Expr | None
    test: Expr | None
    bound: Bound | None
    doc: str | None
    span: Span


@node
class NamedCost:
    """`cost NAME(f) = EXPR`: a cost beside the points (gold crowns, say), with its own total."""
    name: Ident
    param: Ident
    body: Expr
    doc: str | None
    span: Span


@node
class CostLimit:
    """`limit NAME EXPR`: what a warband's total of the named cost may be at most; EXPR is
    fixed, and may read the game's `points`."""
    name: Ident
    value: Expr
    doc: str | None
    span: Span


def cost_definition(cost: NamedCost) -> "DefineDecl":
    """A named cost as the definition army rules call it by: `crowns(f)` is what f costs."""
    param = Param(cost.param, Ident("fighter", cost.param.span), None, cost.param.span)
    return DefineDecl(cost.name, (param,), cost.doc, cost.body, cost.span)


@node
class ArmyDecl:
    doc: str | None
    cost: tuple[Ident, Expr] | None
    points: Expr | None
    size: tuple[Bound, str | None] | None
    quotas: tuple[Quota, ...]
    span: Span
    removals: tuple["ArmyRemoval", ...] = ()   # only in `override army`
    each: tuple[EachQuota, ...] = ()
    rules: tuple[ArmyRule, ...] = ()
    costs: tuple[NamedCost, ...] = ()       # the named costs, in the order written
    limits: tuple[CostLimit, ...] = ()
    # (entry, span, the first one's span) of a second `cost`, `points` or `size`
    repeated: tuple[tuple[str, Span, Span], ...] = ()


# ---- house rules: layers on an `extends` base ---------------------------------------------------

@node
class ArmyRemoval:
    """`remove cost`, `remove points`, `remove size` or `remove quota KIND NAME` in an army;
    `remove cost NAME` and `remove limit NAME` (selector is the cost's name, kind None);
    `remove quota each KIND` (part each, selector_kind the kind, selector None)."""
    part: str                # cost | points | size | quota | limit | each
    selector_kind: str | None
    selector: Ident | None
    span: Span


@node
class OverrideDecl:
    """`override DECL`: DECL replaces the base's declaration of the same name."""
    decl: "Overridable"
    span: Span


@node
class RemoveDecl:
    """`remove KIND NAME` (or `remove army`): the base's declaration is taken out."""
    kind: str
    name: Ident | None       # None for the army
    span: Span


# What `override` can replace.
Overridable = (StatDecl | EnumDecl | StateDecl | TierDecl | TraitDecl | ClassDecl
               | EquipmentDecl | TableDecl | DefineDecl | OutcomesDecl | ProcedureDecl | ArmyDecl
               | ProfileDecl)


# ---- conversions between rulesets ----------------------------------------------------------------

@node
class ClassRule:
    """`class Runner when f.Speed > 6`: the first rule whose condition holds gives the class."""
    target: Ident
    condition: Expr | None   # None for `otherwise`
    doc: str | None
    span: Span


@node
class StatRule:
    """`stat Power = f.Skill * 5`: a target stat worked out from the source fighter."""
    target: Ident
    value: Expr
    doc: str | None
    span: Span


@node
class MapRule:
    """`trait Hardy => Tough(1)`, `equipment Pike => Polearm`, or a drop (target None);
    source None is `otherwise drop`: everything not named."""
    kind: str                # trait | equipment
    source: Ident | None
    target: TraitRef | Ident | None
    doc: str | None
    span: Span


@node
class WarnRule:
    """`warn "..." when cond`: a warning for each fighter the condition holds for."""
    message: str
    condition: Expr | None
    span: Span


@node
class ConversionDecl:
    fighter: Ident           # the name the rules use for the source fighter
    source: str              # ruleset ids (or rules-file paths)
    target: str
    source_span: Span
    target_span: Span
    doc: str | None
    classes: tuple[ClassRule, ...]
    stats: tuple[StatRule, ...]
    maps: tuple[MapRule, ...]
    warnings: tuple[WarnRule, ...]
    fits: tuple[tuple[Ident, str | None], ...]   # `fit Power`: at most one
    span: Span


@node
class Module:
    """One parsed rules file. `partial`: some of its declarations could not be read (and were
    reported); `unreadable` holds the names those seem to declare, so that later passes neither
    call them unknown nor call what they use unused."""
    file: str
    header: Header | None
    decls: tuple["Decl", ...]
    partial: bool = False
    unreadable: frozenset[str] = frozenset()


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


@node
class Withdraw:
    fighter: Expr
    span: Span


@node
class Concede:
    side: Expr
    span: Span


@node
class Deploy:
    side: Expr
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


# moves the rules choose: a move its player picks that ends out of contact with every enemy
@node
class TravelClear:
    """travel FIGHTER up to D not into contact"""
    fighter: Expr
    distance: Expr
    span: Span


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


# Everything a file may declare at its top level (the grammar's `item`). Once layer() has merged
# house rules into their base, a module holds no OverrideDecl or RemoveDecl any more.
Decl = Overridable | OverrideDecl | RemoveDecl | ConversionDecl | MarkerDecl | ScenarioDecl
