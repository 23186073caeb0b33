"""The compiled form of a rules file: an immutable Ruleset the interpreter and validators read.

Declarations that are data (stats, classes, traits, equipment, army rules) are reduced to plain
values here, once; tables, definitions and procedures keep their checked AST, which the
interpreter runs.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import Iterator, cast

from warband.diagnostics import Diagnostic, Related, Span, diag
from warband.lang import nodes
from warband.lang.classes import Constant, EquipmentOption, FighterClass, Number, StatChoice
from warband.lang.symbols import SymbolTable
from warband.lang.units import ModelOption, UnitSize, unit_size


class FrozenDict(dict):
    """A dict that refuses changes after construction (and still pickles)."""

    def _refuse(self, *args, **kwargs):
        raise TypeError("a Ruleset is immutable")

    __setitem__ = __delitem__ = clear = pop = popitem = setdefault = update = _refuse

    def __reduce__(self):
        return (FrozenDict, (dict(self),))

    # dict declares __hash__ = None (unhashable); a FrozenDict is hashable, by identity
    def __hash__(self) -> int:  # type: ignore[override]  # pragma: no cover - not used as a key
        return id(self)


@dataclass(frozen=True)
class Stat:
    """A declared stat: its range or enum, default, and how it is derived."""

    name: str
    low: Number | None
    high: Number | None
    default: Constant | None
    enum: str | None
    doc: str | None
    span: Span
    # a derived stat: the name its expressions give the fighter, the value worked out from it
    # whenever the stat is read, and the fighters it is worked out for (None: every fighter)
    fighter: str | None = None
    derived: nodes.Expr | None = None
    when: nodes.Expr | None = None

    @property
    def key(self) -> str:
        """How the stat is written in warband files: its name in lower case."""
        return self.name.lower()

    @property
    def always_derived(self) -> bool:
        """Worked out for every fighter: nobody gives it a value (a warband entry, a class)."""
        return self.derived is not None and self.when is None


@dataclass(frozen=True)
class State:
    """A declared flag or counter, and whose it is (fighters, sides, a kind of marker)."""

    name: str
    kind: str          # flag | counter
    owner: str         # fighter | side
    initial: Constant | None
    doc: str | None
    span: Span
    # campaigns: a side's stat (`stat NAME on side: LOW..HIGH`), kept between games in its
    # warband file under `key`: a counter to the rules, within its range
    low: Number | None = None
    high: Number | None = None

    @property
    def kept(self) -> bool:
        """A side's stat, kept between games (not a counter of one game)."""
        return self.low is not None

    @property
    def key(self) -> str:
        """Its key in a warband file."""
        return self.name.lower()


@dataclass(frozen=True)
class Trait:
    """A declared trait: how several of its values combine, and whether it is numbered."""

    name: str
    numeric: bool
    combine: str
    doc: str | None
    span: Span


@dataclass(frozen=True)
class Tier:
    """A declared tier of classes."""

    name: str
    doc: str | None
    span: Span


@dataclass(frozen=True)
class Equipment:
    """A declared piece of equipment: what it grants, its profile and its own traits."""

    name: str
    grants: tuple[tuple[str, Constant | None], ...]
    doc: str | None
    span: Span
    # weapon profiles: every profile's value for the piece (given, or the profile's default),
    # in the profiles' order; and the piece's own traits, not its wielder's
    values: tuple[tuple[str, Constant | None], ...] = ()
    traits: tuple[tuple[str, Constant | None], ...] = ()
    # what its declaration says of it as a weapon: a profile value or a trait of its own (a
    # roster also counts as a weapon a piece an action is taken with: lists/roster.py); what it
    # grants its wearer says nothing either way (a sword may grant Parry, a helmet nothing)
    weapon: bool = False


@dataclass(frozen=True)
class Outcomes:
    """A declared set of outcomes and the score of each."""

    name: str
    scores: tuple[tuple[str, int], ...]
    docs: tuple[tuple[str, str | None], ...]
    doc: str | None
    span: Span

    def score(self, outcome: str) -> int:
        return dict(self.scores)[outcome]


@dataclass(frozen=True)
class Quota:
    """One quota of the army rules."""

    kind: str            # tier | class | trait | equipment
    target: str
    bound: str           # at least | at most | exactly
    limit: int | Fraction
    doc: str | None
    span: Span
    share: bool = False   # written as a fraction (1/2, 2/2): a share of the fighters, not a count
    per: int | None = None   # `per N points`: the limit counts once for every N points of the game
    each: bool = False       # `quota each KIND`: target is "" and the limit holds for every one

    @property
    def is_share(self) -> bool:
        return self.share


@dataclass(frozen=True)
class Cost:
    """A named cost (`cost crowns(f) = ...`) and its limit (`limit crowns 500`), if any: the
    limit is an expression, as it may read the game's `points`, which a warband file sets."""
    name: str
    param: str
    expr: nodes.Expr
    doc: str | None
    span: Span
    definition: nodes.DefineDecl        # what army rules call: crowns(f)
    limit: nodes.Expr | None = None
    limit_doc: str | None = None
    limit_span: Span | None = None


@dataclass(frozen=True)
class Army:
    """The army rules: costs, points, size, quotas and the author's own limits."""

    cost: tuple[str, nodes.Expr] | None   # (parameter name, expression)
    points: Number | None
    size: tuple[str, int, str | None] | None   # (bound, limit, doc)
    quotas: tuple[Quota, ...]
    doc: str | None
    span: Span
    rules: tuple[nodes.ArmyRule, ...] = ()   # the author's own legality rules, run per warband
    costs: tuple[Cost, ...] = ()             # the named costs beside the points
    # campaigns: the entries held at a warband's founding only, by kind and span
    # (nodes.ArmyDecl.founding)
    founding: tuple[tuple[str, Span], ...] = ()
    capped: bool = True   # whether the points limit the cost (not past a `founding points`)

    def grown(self) -> "Army":
        """The army rules a warband past its founding (one that has played a game) is held
        to: those marked `founding` left out."""
        if not self.founding:
            return self
        kinds = {kind for kind, _ in self.founding}
        spans = {span for _, span in self.founding}
        return replace(   # (the points stay the game's size, which other rules may read)
            self, capped=self.capped and "points" not in kinds,
            size=None if "size" in kinds else self.size,
            quotas=tuple(q for q in self.quotas if q.span not in spans),
            rules=tuple(r for r in self.rules if r.span not in spans),
            costs=tuple(replace(c, limit=None, limit_doc=None, limit_span=None)
                        if c.limit_span in spans else c for c in self.costs),
            founding=())


@dataclass(frozen=True)
class Ruleset:
    """A checked rules file, immutable: what every later stage reads."""


    id: str
    title: str
    source: str | None
    version: str | None
    file: str
    stats: FrozenDict
    states: FrozenDict
    traits: FrozenDict
    tiers: FrozenDict
    classes: FrozenDict
    equipment: FrozenDict
    enums: FrozenDict          # name -> tuple of (member, doc)
    tables: FrozenDict         # name -> nodes.TableDecl
    defines: FrozenDict        # name -> nodes.DefineDecl
    outcomes: FrozenDict
    procedures: FrozenDict     # name -> nodes.ProcedureDecl (procedures, actions, phases)
    decisions: FrozenDict      # name -> (procedure name, nodes.Decision)
    army: Army | None
    warnings: tuple[Diagnostic, ...] = field(default=())
    markers: FrozenDict = field(default_factory=FrozenDict)   # name -> nodes.MarkerDecl
    scenario: nodes.ScenarioDecl | None = None                  # a scenario file's game
    # house rules: (id, file) of each layer, base first; and where each definition comes from
    layers: tuple[tuple[str, str], ...] = field(default=())
    origins: FrozenDict = field(default_factory=FrozenDict)   # name -> Origin
    # weapon profiles: name -> Stat, a value every piece of equipment carries
    profiles: FrozenDict = field(default_factory=FrozenDict)
    # decks and bags: name -> nodes.DeckDecl (run/decks.py)
    decks: FrozenDict = field(default_factory=FrozenDict)
    # events (run/events.py): nodes.EventDecl in the order they run, the ruleset's (base first)
    # then the scenario's own
    events: tuple = ()
    # zones the ruleset can name: role -> nodes.ZoneRoleDecl; and the scenario's zone playing
    # each (a zone's name, or for a role per side a tuple of them in the scenario's side order)
    zone_roles: FrozenDict = field(default_factory=FrozenDict)
    role_zones: FrozenDict = field(default_factory=FrozenDict)
    # what is worked out from this ruleset alone (its generated program, its actions' options),
    # kept for its life (lang/per_ruleset.py): not a value of the rules, so neither compared,
    # copied by dataclasses.replace (a changed ruleset starts empty) nor pickled
    memo: dict = field(default_factory=dict, init=False, repr=False, compare=False)

    def __getstate__(self) -> dict:
        return {name: value for name, value in self.__dict__.items() if name != "memo"}

    def __setstate__(self, state: dict) -> None:
        self.__dict__.update(state, memo={})

    def origin(self, name: str) -> "Origin | None":
        return self.origins.get(name)

    def actions(self) -> Iterator[nodes.ProcedureDecl]:
        return (p for p in self.procedures.values() if p.kind == "action")

    @property
    def has_places(self) -> bool:
        """Whether some unit's models stand apart (`coherency D`): then a game sets them out
        and moves them (game/formation.py)."""
        return any(c.unit is not None and c.unit.coherency is not None
                   for c in self.classes.values())

    @property
    def has_units(self) -> bool:
        """Whether some class is a unit of models: then every fighter keeps a unit's values."""
        return any(c.unit is not None for c in self.classes.values())

    def stat_by_key(self, key: str) -> Stat | None:
        for stat in self.stats.values():
            if stat.key == key.lower():
                return stat
        return None


@dataclass(frozen=True)
class Origin:
    """Where a definition comes from: its file and line, and the base definition it replaces
    (`override`), if any. Army entries are named army.cost, army.points, army.size, and
    army.cost.NAME, army.limit.NAME for a named cost and its limit."""
    file: str
    line: int
    overrides: Span | None = None

    def __str__(self) -> str:
        text = f"{self.file}:{self.line}"
        return text + (f", overrides {self.overrides.file}:{self.overrides.line}"
                       if self.overrides else "")


def provenance(module: nodes.Module, table: SymbolTable, overrides: dict) -> FrozenDict:
    """The Origin of every global definition and army entry of a (merged) module."""
    origins = {}
    for name, sym in table.globals.items():
        span = sym.decl.span
        origins[name] = Origin(span.file, span.line, overrides.get(name))
    army = table.army
    if army is not None:
        origins["army"] = Origin(army.span.file, army.span.line, overrides.get("army"))
        for part, node in (("cost", army.cost[1] if army.cost else None),
                           ("points", army.points),
                           ("size", army.size[0] if army.size else None)):
            if node is not None:
                origins[f"army.{part}"] = Origin(node.span.file, node.span.line)
        for named in army.costs:
            origins[f"army.cost.{named.name.name}"] = Origin(named.span.file, named.span.line)
        for limit in army.limits:
            origins[f"army.limit.{limit.name.name}"] = Origin(limit.span.file, limit.span.line)
    return FrozenDict(origins)


def constant(expr: nodes.Expr, enums: dict | None = None) -> Constant | type[ZeroDivisionError]:
    """The value of an expression the checker has shown to be fixed: numbers, texts, names.
    A division by zero gives ZeroDivisionError (the class) rather than raising it."""
    match expr:
        case nodes.Int(value=v):
            return v
        case nodes.Str(value=v):
            return v
        case nodes.Bool(value=v):
            return v
        case nodes.Name(name=name):
            return name          # an enum value, outcome or class: symbols are their names
        # the checker let only numbers into '-' and arithmetic; anything else here (the
        # ZeroDivisionError of a division by zero inside) raises TypeError, which _const reports
        case nodes.Neg(operand=operand):
            return -cast(Number, constant(operand, enums))
        case nodes.Binary(op=op, left=a, right=b):
            x, y = cast(Number, constant(a, enums)), cast(Number, constant(b, enums))
            if op == "+":
                return x + y
            if op == "-":
                return x - y
            if op == "*":
                return x * y
            if op == "%":   # the remainder of a floored division
                return x % y if y else ZeroDivisionError
            return Fraction(x, y) if y else ZeroDivisionError
    raise ValueError("not a constant")


# turn flow: the flag on each side that `end turn` sets, in the rulesets that name it
TURN_OVER_DOC = "the side's turn is over ('end turn'): its fighters take no action until the " \
                "next round"


def _names_turns(node) -> bool:
    """Whether declarations hold `end turn` or read or set a side's `turn_over`."""
    t = type(node)
    if t is nodes.EndTurn:
        return True
    if t is nodes.Ident:
        return node.name == "turn_over"
    if t is tuple:
        return any(_names_turns(x) for x in node)
    slots = getattr(t, "__slots__", None)
    if slots and t.__module__.startswith("warband.lang.nodes"):
        return any(_names_turns(getattr(node, s)) for s in slots if s != "span")
    return False


def _const(expr: nodes.Expr, diagnostics: list[Diagnostic], what: str) -> Constant | None:
    try:
        value = constant(expr)
    except (ValueError, TypeError):
        diagnostics.append(diag("E303", f"{what} must be a fixed value", expr.span,
                                hint="write a number, such as 10 or 1/2"))
        return None
    if value is ZeroDivisionError:
        diagnostics.append(diag("E502", "division by zero", expr.span))
        return None
    if isinstance(value, Fraction) and value.denominator == 1:
        value = int(value)
    return cast(Constant, value)   # not the ZeroDivisionError marker: reported above


def _number(expr: nodes.Expr, diagnostics: list[Diagnostic], what: str) -> Number | None:
    """_const of an expression the checker has typed as a number."""
    return cast("Number | None", _const(expr, diagnostics, what))


def assemble(module: nodes.Module, table: SymbolTable) -> tuple[Ruleset, list[Diagnostic]]:
    """Build the Ruleset from a module the checker found free of errors."""
    d: list[Diagnostic] = []
    stats, states, traits, tiers, classes, equipment = {}, {}, {}, {}, {}, {}
    enums, tables, defines, outcomes, procedures = {}, {}, {}, {}, {}
    markers: dict = {}
    decks: dict = {}   # decks and bags
    events: list = []   # events (run/events.py)
    zone_roles: dict = {}   # zones the ruleset can name
    profiles: dict[str, Stat] = {}   # weapon profiles
    pending: list = []
    pending_choices: list[StatChoice] = []

    def ref_value(ref: nodes.TraitRef):
        return True if ref.value is None else _const(ref.value, d, "a trait's value")

    for decl in module.decls:
        match decl:
            case nodes.StatDecl():
                low = high = enum = None
                if isinstance(decl.type, nodes.RangeType):
                    low = _number(decl.type.low, d, "a stat's lower bound")
                    high = _number(decl.type.high, d, "a stat's upper bound")
                    if isinstance(low, int) and isinstance(high, int) and low > high:
                        d.append(diag("E305", f"the range {low}..{high} is empty",
                                      decl.type.span, hint=f"write it as {high}..{low}"))
                else:
                    enum = decl.type.name
                default = _const(decl.default, d, "a default") if decl.default else None
                if enum is None and decl.default is not None and \
                        low is not None and high is not None and \
                        isinstance(default, (int, Fraction)) and not low <= default <= high:
                    d.append(diag("E305", f"the default {default} is outside {low}..{high}",
                                  decl.default.span))
                stats[decl.name.name] = Stat(decl.name.name, low, high, default, enum, decl.doc,
                                             decl.span,
                                             decl.fighter.name if decl.fighter else None,
                                             decl.derived, decl.when)
            case nodes.StateDecl(range=None):
                initial = _const(decl.initial, d, "a starting value") if decl.initial else (
                    False if decl.kind == "flag" else 0)
                states[decl.name.name] = State(decl.name.name, decl.kind, decl.owner, initial,
                                               decl.doc, decl.span)
            case nodes.StateDecl():   # campaigns: a side's stat, kept between games
                states[decl.name.name] = _side_stat(decl, d)
            case nodes.TraitDecl():
                traits[decl.name.name] = Trait(decl.name.name, decl.param is not None,
                                               decl.combine, decl.doc, decl.span)
            case nodes.TierDecl():
                tiers[decl.name.name] = Tier(decl.name.name, decl.doc, decl.span)
            case nodes.ClassDecl():
                class_stats = tuple((n.name, _const(v, d, "a class's stat")) for n, v in decl.stats)
                pending += [(name, value, expr.span)
                            for (name, value), (_, expr) in zip(class_stats, decl.stats)]
                group, group_doc, group_span = _group(decl, d)
                choices = tuple(_choice(c, d) for c in decl.choices)
                pending_choices += choices
                classes[decl.name.name] = FighterClass(
                    decl.name.name, decl.tier.name if decl.tier else None,
                    tuple((r.name.name, ref_value(r)) for r in decl.traits),
                    tuple(e.name for e in decl.equipment), class_stats, decl.doc, decl.span,
                    group, group_doc, group_span, decl.unique, options=_options(decl, d),
                    choices=choices, unit=_unit(decl, d),
                    stat_spans=tuple((n.name, Span(n.span.file, n.span.line, n.span.column,
                                                   v.span.end_line, v.span.end_column))
                                     for n, v in decl.stats))
            case nodes.EquipmentDecl():
                equipment[decl.name.name] = Equipment(
                    decl.name.name, tuple((r.name.name, ref_value(r)) for r in decl.grants),
                    decl.doc, decl.span,
                    tuple((n.name, _const(v, d, "a piece's value")) for n, v in decl.values),
                    tuple((r.name.name, ref_value(r)) for r in decl.traits))
            case nodes.ProfileDecl():   # weapon profiles
                profiles[decl.name.name] = _profile(decl, d)
            case nodes.EnumDecl():
                enums[decl.name.name] = tuple((m.name.name, m.doc) for m in decl.members)
            case nodes.TableDecl():
                tables[decl.name.name] = decl
            case nodes.DefineDecl():
                defines[decl.name.name] = decl
            case nodes.OutcomesDecl():
                outcomes[decl.name.name] = Outcomes(
                    decl.name.name, tuple((m.name.name, m.score) for m in decl.members),
                    tuple((m.name.name, m.doc) for m in decl.members), decl.doc, decl.span)
            case nodes.ProcedureDecl():
                procedures[decl.name.name] = decl
            case nodes.MarkerDecl():
                markers[decl.name.name] = decl
            case nodes.DeckDecl():   # decks and bags
                decks[decl.name.name] = decl
            case nodes.EventDecl():   # events (run/events.py)
                events.append(decl)
            case nodes.ZoneRoleDecl():   # zones the ruleset can name
                zone_roles[decl.name.name] = decl

    if "turn_over" not in states and _names_turns(module.decls):   # turn flow: `end turn`
        states["turn_over"] = State("turn_over", "flag", "side", False, TURN_OVER_DOC,
                                    module.header.span if module.header else Span(module.file, 1, 1))
    for name, value, span in pending:   # once every stat is known, whatever the order
        _check_stat_value(stats.get(name), value, span, d)
    for choice in pending_choices:
        _check_choice(stats.get(choice.stat), choice, d)
    if profiles or any(e.values for e in equipment.values()):   # weapon profiles
        equipment = _profiled(equipment, profiles, module, d)
    army = _army(table.army, d) if table.army else None
    decisions = {name: _owner(cast(nodes.Decision, sym.decl), procedures)
                 for name, sym in table.decisions.items()}
    header = cast(nodes.Header, module.header)   # compile_text assembles only with a header
    ruleset = Ruleset(
        id=header.id, title=header.title or header.id, source=header.source,
        version=header.version, file=module.file,
        stats=FrozenDict(stats), states=FrozenDict(states), traits=FrozenDict(traits),
        tiers=FrozenDict(tiers), classes=FrozenDict(classes), equipment=FrozenDict(equipment),
        enums=FrozenDict(enums), tables=FrozenDict(tables), defines=FrozenDict(defines),
        outcomes=FrozenDict(outcomes), procedures=FrozenDict(procedures),
        decisions=FrozenDict(decisions), army=army, markers=FrozenDict(markers),
        scenario=table.scenario, profiles=FrozenDict(profiles), decks=FrozenDict(decks),
        events=tuple(events) + (table.scenario.events if table.scenario else ()),
        zone_roles=FrozenDict(zone_roles), role_zones=FrozenDict(_role_zones(table.scenario)))
    return ruleset, d


# ---- campaigns: `stat NAME on side: LOW..HIGH`, a side's value kept in its warband file --------
def _side_stat(decl: nodes.StateDecl, d: list[Diagnostic]) -> State:
    bounds = cast(nodes.RangeType, decl.range)
    low = _number(bounds.low, d, "a stat's lower bound")
    high = _number(bounds.high, d, "a stat's upper bound")
    if isinstance(low, int) and isinstance(high, int) and low > high:
        d.append(diag("E305", f"the range {low}..{high} is empty", bounds.span,
                      hint=f"write it as {high}..{low}"))
    initial = _const(decl.initial, d, "a default") if decl.initial else low
    if isinstance(initial, (int, Fraction)) and isinstance(low, (int, Fraction)) and \
            isinstance(high, (int, Fraction)) and not low <= initial <= high:
        d.append(diag("E305", f"the default {initial} is outside {low}..{high}",
                      cast(nodes.Expr, decl.initial).span))
    return State(decl.name.name, decl.kind, decl.owner, initial, decl.doc, decl.span,
                 low if low is not None else 0, high)


def _role_zones(scenario: nodes.ScenarioDecl | None) -> dict:
    """Zones the ruleset can name: the scenario's zone playing each role (the checker made
    sure each role is filled, per side for every side)."""
    if scenario is None:
        return {}
    order = [side.name.name for side in scenario.sides]
    found: dict = {}
    for fill in scenario.roles:
        if all(z.side is None for z in fill.zones):
            found[fill.role.name] = fill.zones[0].zone.name
        else:
            by_side = {z.side.name: z.zone.name for z in fill.zones if z.side is not None}
            found[fill.role.name] = tuple(by_side.get(name, "") for name in order)
    return found


# ---- weapon profiles: `stat Range on equipment: ...` and the values each piece carries ----------
def _profile(decl: nodes.ProfileDecl, d: list[Diagnostic]) -> Stat:
    low = high = enum = None
    if isinstance(decl.type, nodes.RangeType):
        low = _number(decl.type.low, d, "a profile's lower bound")
        high = _number(decl.type.high, d, "a profile's upper bound")
        if isinstance(low, int) and isinstance(high, int) and low > high:
            d.append(diag("E305", f"the range {low}..{high} is empty", decl.type.span,
                          hint=f"write it as {high}..{low}"))
    else:
        enum = decl.type.name
    default = _const(decl.default, d, "a default") if decl.default else None
    if enum is None and default is not None and low is not None and high is not None and \
            isinstance(default, (int, Fraction)) and not low <= default <= high:
        d.append(diag("E305", f"the default {default} is outside {low}..{high}",
                      cast(nodes.Expr, decl.default).span))
    return Stat(decl.name.name, low, high, default, enum, decl.doc, decl.span)


def _profiled(equipment: dict, profiles: dict[str, Stat], module: nodes.Module,
              d: list[Diagnostic]) -> dict:
    """Every piece with a value for every profile: its own, or the profile's default (E314
    when there is neither); each within the profile's range (E305)."""
    spans = {decl.name.name: {n.name: v.span for n, v in decl.values}
             for decl in module.decls if isinstance(decl, nodes.EquipmentDecl)}
    out = {}
    for name, piece in equipment.items():
        given = dict(piece.values)
        values = []
        for profile in profiles.values():
            value = given.get(profile.name, profile.default)
            if value is None:
                d.append(diag("E314", f"equipment '{name}' has no {profile.name}, and the "
                                      "profile has no default", piece.span,
                              related=[Related(profile.span, "the profile")],
                              hint=f"give it in the piece's braces: {profile.name} = ..., or a "
                                   f"default to the profile: ... default 0"))
                continue
            if profile.name in given and profile.enum is None and profile.low is not None and \
                    profile.high is not None and isinstance(value, (int, Fraction)) and \
                    not profile.low <= value <= profile.high:
                d.append(diag("E305", f"equipment '{name}' has {profile.name} {value}, "
                                      f"outside {profile.low}..{profile.high}",
                              spans.get(name, {}).get(profile.name, piece.span),
                              related=[Related(profile.span, "the profile's range")]))
            values.append((profile.name, value))
        out[name] = replace(piece, values=tuple(values), weapon=bool(given or piece.traits))
    return out


def _check_stat_value(stat: "Stat | None", value, span: Span, d: list[Diagnostic]) -> None:
    """A class's fixed stat must be a value the stat can take."""
    if stat is None or value is None:
        return
    if stat.enum is None and stat.low is not None and stat.high is not None and \
            isinstance(value, (int, Fraction)) and not stat.low <= value <= stat.high:
        d.append(diag("E305", f"{stat.name} {value} is outside {stat.low}..{stat.high}", span))


def _choice(decl: nodes.StatChoice, d: list[Diagnostic]) -> StatChoice:
    low = _number(decl.low, d, "a class's bound") if decl.low is not None else None
    high = _number(decl.high, d, "a class's bound") if decl.high is not None else None
    default = _const(decl.default, d, "a class's default") if decl.default is not None else None
    return StatChoice(decl.name.name, low, high, tuple(m.name for m in decl.members), default,
                      decl.doc, decl.span)


def _check_choice(stat: "Stat | None", choice: StatChoice, d: list[Diagnostic]) -> None:
    """A class's range for a number stat lies inside the stat's own range, and is not empty;
    its default lies inside it (an enum's values and default: the checker's E201 and E305)."""
    if stat is None:
        return
    if choice.default is None and stat.default is not None and not choice.allows(stat.default):
        d.append(diag("E305", f"stat {stat.name}'s default {stat.default} is outside "
                              f"{choice.shown}, what this class allows", choice.span,
                      related=[Related(stat.span, "the stat's default")],
                      hint="give the class a default of its own, inside its bounds: "
                           f"... default {choice.members[0] if choice.members else choice.low}"))
        return
    if choice.members or choice.low is None or choice.high is None:
        return
    if choice.low > choice.high:
        d.append(diag("E305", f"the range {choice.low}..{choice.high} is empty", choice.span,
                      hint=f"write it as {choice.high}..{choice.low}"))
    elif stat.low is not None and stat.high is not None and \
            not stat.low <= choice.low <= choice.high <= stat.high:
        d.append(diag("E305", f"the range {choice.low}..{choice.high} is not inside stat "
                              f"{stat.name}'s range {stat.low}..{stat.high}", choice.span,
                      related=[Related(stat.span, "the stat's range")],
                      hint="a class narrows the stat's range; widen the stat's own range if the "
                           "class needs more"))
    elif isinstance(choice.default, (int, Fraction)) and not isinstance(choice.default, bool) \
            and not choice.low <= choice.default <= choice.high:
        d.append(diag("E305", f"the default {choice.default} is outside {choice.low}.."
                              f"{choice.high}", choice.span,
                      hint=f"give a default inside the class's range {choice.low}..{choice.high}"))


def _owner(choose: nodes.Decision, procedures: dict) -> tuple[str, nodes.Decision]:
    for name, proc in procedures.items():
        if proc.span.file == choose.span.file and \
                proc.span.line <= choose.span.line <= proc.span.end_line:
            return name, choose
    return "", choose  # pragma: no cover - every decision sits in a procedure


def _group(decl: nodes.ClassDecl, d: list[Diagnostic]) -> tuple[
        tuple[int, int] | None, str | None, Span | None]:
    """A class's group size: (low, high), its doc and its span; or Nones."""
    g = decl.group
    if g is None:
        return None, None, None
    low, high = (_number(g.low, d, "a group size"), _number(g.high, d, "a group size"))
    if not (isinstance(low, int) and isinstance(high, int) and 1 <= low <= high):
        d.append(diag("E305", f"a group size is a range of whole numbers from 1 up, not "
                              f"{low}..{high}", g.span,
                      hint="for example: group 1..5, or 'single' for a class bought one by one"))
        return None, None, None
    return (low, high), g.doc, g.span


# units of several models
def _unit(decl: nodes.ClassDecl, d: list[Diagnostic]) -> UnitSize | None:
    """A class's `models` and `wounds per model` lines as a UnitSize (E319 when the bounds are
    wrong); None for a class that is not a unit."""
    models, per = decl.models, decl.model_wounds
    if models is None and per is None:
        return None
    wounds: int | str = 1
    if per is not None:
        if isinstance(per.value, nodes.Name):
            wounds = per.value.name
        else:
            value = _number(per.value, d, "a model's wounds")
            wounds = value if type(value) is int else 1
    if models is None:
        return UnitSize(1, 1, 1, wounds, per.doc if per else None, None)
    low, high = _number(models.low, d, "a unit's models"), _number(models.high, d, "a unit's models")
    default = None if models.default is None else _number(models.default, d, "a unit's models")
    unit = unit_size(low, high, default, wounds, models.doc, models.span, d)
    if unit is None:
        return None
    unit = replace(unit, specials=_model_options(decl, d))
    if decl.coherency is not None:   # units of models with places
        apart = _number(decl.coherency.distance, d, "a unit's coherency")
        if not isinstance(apart, (int, Fraction)) or isinstance(apart, bool) or apart <= 0:
            d.append(diag("E324", f"a unit's coherency is a distance above 0, not {apart}",
                          decl.coherency.distance.span,
                          hint="for example: coherency 2 (each model within 2 of another)"))
        else:
            unit = replace(unit, coherency=float(apart), casualties=decl.casualties.order
                           if decl.casualties is not None else None)
    return unit


def _model_options(decl: nodes.ClassDecl, d: list[Diagnostic]) -> tuple[ModelOption, ...]:
    """A unit's `one model may ...` / `up to N models may ...` options (E305: N is a whole
    number of 1 or more)."""
    out = []
    for o in decl.model_options:
        n = _number(o.limit, d, "how many models an option allows") if o.limit else 1
        if not isinstance(n, int) or isinstance(n, bool) or n < 1:
            assert o.limit is not None
            d.append(diag("E305", f"'up to N models' takes a whole number of 1 or more, not {n}",
                          o.limit.span, hint="for example: up to 2 models may take Flamer"))
            continue
        out.append(ModelOption(o.kind, tuple(i.name for i in o.items), n,
                               o.replaces.name if o.replaces else None, o.doc, o.span))
    return tuple(out)


def _options(decl: nodes.ClassDecl, d: list[Diagnostic]) -> tuple[EquipmentOption, ...]:
    """A class's equipment options; `up to N` needs a whole N of 1 or more (E305)."""
    out = []
    for o in decl.options:
        limit = len(o.items) if o.kind == "take" else 1
        if o.limit is not None:
            n = _number(o.limit, d, "how many pieces an option allows")
            if not isinstance(n, int) or n < 1:
                d.append(diag("E305", f"'up to' takes a whole number of 1 or more, not {n}",
                              o.limit.span, hint="for example: may take up to 2 of Dagger, Axe"))
                continue
            limit = n
        out.append(EquipmentOption(o.kind, tuple(i.name for i in o.items), limit,
                                   o.replaces.name if o.replaces else None, o.doc, o.span))
    return tuple(out)


def _per(bound: nodes.Bound, points, d: list[Diagnostic]) -> int | None:
    """`per N points`: N, a whole number above 0, in an army that says how big a game is."""
    if bound.per is None:
        return None
    per = _number(bound.per, d, "the points a limit counts per")
    if not isinstance(per, int) or per <= 0:
        d.append(diag("E305", f"'per N points' needs a whole number of points above 0, not {per}",
                      bound.per.span))
        return None
    if points is None:
        d.append(diag("E305", "'per N points' scales a limit with the game, but the army sets no "
                              "points", bound.span, hint="add the points of a standard game: "
                                                         "points 500"))
    return per


def _reads_points(expr: nodes.Expr) -> bool:
    """Whether a fixed expression reads the game's `points` (a name only army parts know)."""
    stack: list = [expr]
    while stack:
        item = stack.pop()
        if isinstance(item, nodes.Name) and item.name == "points":
            return True
        if isinstance(item, tuple):
            stack.extend(item)
        elif hasattr(item, "__dataclass_fields__"):
            stack.extend(getattr(item, name) for name in item.__dataclass_fields__)
    return False


def _army(decl: nodes.ArmyDecl, d: list[Diagnostic]) -> Army:
    points = _number(decl.points, d, "the points limit") if decl.points else None
    size = None
    if decl.size is not None:
        bound, doc = decl.size
        limit = _number(bound.value, d, "the number of fighters")
        if not isinstance(limit, int) or limit < 0:
            d.append(diag("E305", "the number of fighters must be a whole number, 0 or more",
                          bound.value.span))
        size = (bound.kind, cast(int, limit), doc)   # if not, an error: no Ruleset
        if bound.per is not None:
            d.append(diag("E305", "'per N points' scales a quota or a count; the size of a "
                                  "warband is one limit", bound.per.span,
                          hint="count fighters per points with a rule of your own: "
                               "at most 8 per 100 points f in fighters"))
    quotas = []
    for q in list(decl.quotas) + list(decl.each):
        limit = _number(q.bound.value, d, "a quota's limit")
        share = isinstance(q.bound.value, nodes.Binary) and q.bound.value.op == "/"
        if limit is not None and (share and not 0 < limit <= 1 or not share and (
                not isinstance(limit, int) or limit < 0)):
            d.append(diag("E305", "a quota is a whole number of fighters (0 or more) or a share "
                                  f"written as a fraction between 0 and 1, not {limit}",
                          q.bound.value.span, hint="for example: at most 2, or at least 1/2"))
        per = _per(q.bound, points, d)
        if per is not None and share:
            d.append(diag("E305", "a share of the fighters cannot also grow with the points",
                          q.bound.span, hint="write a count: at most 1 per 150 points"))
        each = isinstance(q, nodes.EachQuota)
        target = "" if each else cast(nodes.Quota, q).selector.name
        quotas.append(Quota(q.selector_kind, target, q.bound.kind,
                            cast(Number, limit), q.doc, q.span, share, per, each))
    for rule in decl.rules:
        if rule.bound is not None:
            _per(rule.bound, points, d)
    cost = (decl.cost[0].name, decl.cost[1]) if decl.cost else None
    limits = {limit.name.name: limit for limit in decl.limits}
    for fixed in decl.limits:   # one that reads the game's points is worked out per warband
        if not _reads_points(fixed.value):
            value = _number(fixed.value, d, f"the limit of {fixed.name.name}")
            if value is not None and value < 0:
                d.append(diag("E305", f"the limit of {fixed.name.name} must be 0 or more, not "
                                      f"{value}", fixed.value.span,
                              hint=f"for example: limit {fixed.name.name} 500"))
    named = []
    for c in decl.costs:   # (the checker has reported a cost named twice, and a stray limit)
        given = limits.get(c.name.name)
        named.append(Cost(c.name.name, c.param.name, c.body, c.doc, c.span,
                          nodes.cost_definition(c), given.value if given else None,
                          given.doc if given else None, given.span if given else None))
    return Army(cost, points, size, tuple(quotas), decl.doc, decl.span, decl.rules,
                tuple(named), decl.founding)
