"""The abstract syntax of the rules language, part two: the declarations of a rules file (stats,
classes, equipment, tables, procedures, armies), house-rule layers and conversions
(lang/nodes.py gathers all the parts)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from warband.diagnostics import Span
from warband.lang.nodes_core import Block, Expr, Ident, node

if TYPE_CHECKING:
    from warband.lang.nodes_event import EventDecl

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
    # campaigns: `stat NAME on side: LOW..HIGH`, a side's value kept between games in its
    # warband file (a counter to the rules, within its range)
    range: "RangeType | None" = None


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
    # units of models with places: `coherency D`, `casualties nearest first` (None: not given)
    coherency: "Coherency | None" = None
    casualties: "Casualties | None" = None


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
class Coherency:
    """`coherency D` in a unit's class: each model has a base of its own on the board, within D
    of another model of the unit (docs/language.md, "Units of models with places")."""
    distance: Expr
    doc: str | None
    span: Span


@node
class Casualties:
    """`casualties nearest first` / `casualties farthest first` in a unit's class with places:
    which of its models fall first, by their distance from whoever hurt the unit."""
    order: str   # nearest | farthest
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
    # campaigns: the entries marked `founding`, by their kind (points, size, limits, quota,
    # each, rule; cost, costs and remove are refused) and span: a warband is held to them
    # only until it has played a game
    founding: tuple[tuple[str, Span], ...] = ()


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
    """`override DECL`: DECL replaces the base's declaration of the same name (or an event,
    nodes_event.EventDecl)."""
    decl: "Overridable | EventDecl"
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
