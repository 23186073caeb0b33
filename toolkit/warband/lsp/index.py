"""Every name of a compiled rules file: where it is declared, and every place it is used.

The compiler resolves names as it checks them and keeps only what it found wrong; an editor needs
the resolutions themselves (go to definition, find references, hover, colours). This walks the
module the compiler checked (the file with its bases merged in, so that a house file's names lead
into the ruleset it extends) and its symbol table, and records each name it meets:

- a declaration: a top-level declaration's name, an enum value, an outcome, a side, a zone, a
  named cost; a parameter, a `let`, a loop's variable, a decision (locals: seen only where they
  are declared, from where they are declared);
- a use: a name in an expression, a type, a field after `.` (matched without regard to case, as
  the checker matches fields), a trait, a piece of equipment, a tier...;
- a built-in: `min`, `distance`, a fighter's `side`, the type `number`: the language's own words.

A name the compiler could not resolve is not recorded: the compiler has already said so. Nothing
here reports anything; an unreadable declaration (a syntax error) is simply absent from the
module, and its names with it.
"""

from __future__ import annotations

import bisect
import dataclasses
from dataclasses import dataclass, field

from warband.diagnostics import Span
from warband.lang import nodes
from warband.lang.symbols import (
    AGGREGATES,
    BUILTIN_FUNCTIONS,
    BUILTIN_GROUPS,
    BUILTIN_TYPES,
    GAME_FUNCTIONS,
    POOL_QUESTIONS,
    POOL_TYPE,
    VALUE_KINDS,
    SymbolTable,
    collect,
    declaration_kind,
)

# the kinds of declaration a field after `.` may name (on a fighter, a side, a piece or a weapon)
FIELD_KINDS = ("stat", "trait", "flag", "counter", "profile")


@dataclass(frozen=True, eq=False)
class Declared:
    """A name where it is declared. Compared by identity: two declarations of one name (one of
    them an error) are two."""

    name: str
    kind: str                 # a symbols.KIND_WORDS key, or parameter, local, option, cost
    span: Span                # the name itself, where declared
    node: object              # the declaration: its span covers its text, it may have a doc
    owner: str | None = None  # the enum or outcomes of a member; the rule a local belongs to
    visible: Span | None = None   # a local: where it can be used (from its declaration on)
    type: str | None = None   # a parameter's type, as written


@dataclass(frozen=True)
class Occurrence:
    """A name in the text: a declaration, a use of one, or a word of the language."""

    span: Span
    declared: Declared | None         # None: a built-in
    builtin: str | None = None        # function, field, type, group: what kind of built-in
    is_declaration: bool = False
    writes: bool = False              # the target of a `set`


def _key(span: Span) -> tuple[str, int, int]:
    return span.file, span.line, span.column


def within(span: Span, line: int, column: int) -> bool:
    """Whether a place (1-based line and column) is inside a span, its end included (the cursor
    just after a name is on it)."""
    if (line, column) < (span.line, span.column):
        return False
    return (line, column) <= (span.end_line, span.end_column)


@dataclass
class Index:
    occurrences: list[Occurrence] = field(default_factory=list)
    declarations: list[Declared] = field(default_factory=list)
    _sorted: list[tuple[tuple[str, int, int], Occurrence]] | None = None

    def _order(self) -> list[tuple[tuple[str, int, int], Occurrence]]:
        if self._sorted is None:
            self._sorted = sorted(((_key(o.span), o) for o in self.occurrences),
                                  key=lambda pair: pair[0])
        return self._sorted

    def in_file(self, file: str) -> list[Occurrence]:
        """The file's occurrences in the order of the text."""
        order = self._order()
        start = bisect.bisect_left(order, (file, 0, 0), key=lambda pair: pair[0])
        out = []
        for key, o in order[start:]:
            if key[0] != file:
                break
            out.append(o)
        return out

    def at(self, file: str, line: int, column: int) -> Occurrence | None:
        """The occurrence at a place of a file (1-based, as the compiler counts)."""
        order = self._order()
        i = bisect.bisect_right(order, (file, line, column), key=lambda pair: pair[0])
        # a name starts before the place; the nearest that covers it is among the last few
        for key, o in reversed(order[max(0, i - 4):i]):
            if key[0] == file and within(o.span, line, column):
                return o
        return None

    def uses_of(self, declared: Declared) -> list[Occurrence]:
        return [o for o in self.occurrences if o.declared is declared]

    def declaration_at(self, span: Span) -> Declared | None:
        """The declaration whose name is at a span (found again in another analysis)."""
        for d in self.declarations:
            if _key(d.span) == _key(span):
                return d
        return None

    def locals_at(self, file: str, line: int, column: int) -> list[Declared]:
        """The parameters and locals that can be used at a place."""
        return [d for d in self.declarations if d.visible is not None
                and d.visible.file == file and within(d.visible, line, column)
                and (d.span.line, d.span.column) < (line, column)]


# ---- building it ---------------------------------------------------------------------------------

_FIELDS: dict[type, tuple[str, ...]] = {}


def _fields_of(node: object) -> tuple[str, ...]:
    names = _FIELDS.get(type(node))
    if names is None:
        names = _FIELDS[type(node)] = tuple(
            f.name for f in dataclasses.fields(node)  # type: ignore[arg-type]
            if f.name != "span")
    return names


def _is_node(value: object) -> bool:
    return dataclasses.is_dataclass(value) and not isinstance(value, (type, Span))


def _to(span: Span, end: Span) -> Span:
    """From the start of one span to the end of another."""
    return Span(span.file, span.line, span.column, end.end_line, end.end_column)


_TYPE_FIELDS = {(nodes.Param, "type"), (nodes.ProcedureDecl, "result"),
                (nodes.ProcedureDecl, "results"), (nodes.StatDecl, "type"),
                (nodes.ProfileDecl, "type")}
_BUILTIN_NAMES = set(BUILTIN_FUNCTIONS) | set(GAME_FUNCTIONS) | set(POOL_QUESTIONS)


class _Builder:
    def __init__(self, module: nodes.Module, table: SymbolTable) -> None:
        self.index = Index()
        self.globals: dict[str, Declared] = {}
        self.members: dict[str, Declared] = {}
        self.fields: dict[str, Declared] = {}       # lower-cased: the checker ignores case there
        self.costs: dict[str, Declared] = {}        # the army's named costs
        self.by_span: dict[tuple[str, int, int], Declared] = {}
        for sym in table.globals.values():
            d = self._declared(sym.name, sym.kind, sym.span, sym.decl)
            self.globals[sym.name] = d
            if sym.kind in FIELD_KINDS:
                self.fields.setdefault(sym.name.lower(), d)
        for name, symbols in table.members.items():
            for sym in symbols:
                d = self._declared(sym.name, sym.kind, sym.span, sym.decl, owner=sym.parent)
                self.members.setdefault(name, d)
        self.module = module

    def _declared(self, name: str, kind: str, span: Span, node: object, **more) -> Declared:
        d = Declared(name, kind, span, node, **more)
        self.by_span[_key(span)] = d
        self.index.declarations.append(d)
        return d

    # ---- recording -------------------------------------------------------------------------------
    def declare(self, ident: nodes.Ident, kind: str, node: object, **more) -> Declared:
        d = self.by_span.get(_key(ident.span))
        if d is None:
            d = self._declared(ident.name, kind, ident.span, node, **more)
        self.index.occurrences.append(Occurrence(ident.span, d, is_declaration=True))
        return d

    def bind(self, ident: nodes.Ident, kind: str, node: object, scope: dict[str, Declared],
             visible: Span, owner: str | None, type_: str | None = None) -> None:
        d = self.declare(ident, kind, node, owner=owner, visible=visible, type=type_)
        scope[ident.name] = d

    def use(self, name: str, span: Span, scope: dict[str, Declared], *,
            builtin: str | None = None, writes: bool = False) -> None:
        d = scope.get(name) or self.globals.get(name) or self.members.get(name) \
            or self.costs.get(name)
        if d is not None:
            self.index.occurrences.append(Occurrence(span, d, writes=writes))
        elif builtin is not None:
            self.index.occurrences.append(Occurrence(span, None, builtin))

    def field_use(self, ident: nodes.Ident, writes: bool = False) -> None:
        d = self.fields.get(ident.name.lower())
        if d is not None:
            self.index.occurrences.append(Occurrence(ident.span, d, writes=writes))
        else:   # a fighter's side, a side's casualties, a piece's holder, a table's column
            self.index.occurrences.append(Occurrence(ident.span, None, "field"))

    def type_use(self, ident: nodes.Ident, scope: dict[str, Declared]) -> None:
        known = ident.name in BUILTIN_TYPES or ident.name in VALUE_KINDS or \
            ident.name == POOL_TYPE
        self.use(ident.name, ident.span, scope, builtin="type" if known else None)

    # ---- walking ---------------------------------------------------------------------------------
    def build(self) -> Index:
        for decl in self.module.decls:
            if isinstance(decl, nodes.ArmyDecl):
                for cost in decl.costs:
                    self.costs.setdefault(cost.name.name, self.declare(cost.name, "cost", cost))
        for decl in self.module.decls:
            try:
                self.top(decl)
            except RecursionError:   # the parser bounds nesting; a safety net all the same
                continue
        return self.index

    def top(self, decl: object) -> None:
        if isinstance(decl, nodes.OverrideDecl):   # only when the base could not be had
            decl = decl.decl
        if isinstance(decl, (nodes.RemoveDecl, nodes.ConversionDecl)):
            return   # a removal names the base's; a conversion, two other rulesets' names
        scope: dict[str, Declared] = {}
        name = getattr(decl, "name", None)
        owner = None
        if isinstance(name, nodes.Ident) and not isinstance(decl, nodes.ArmyDecl):
            try:
                kind = declaration_kind(decl)  # type: ignore[arg-type]
            except TypeError:
                kind = type(decl).__name__.lower()
            self.declare(name, kind, decl)
            owner = name.name
        span: Span = decl.span  # type: ignore[attr-defined]
        match decl:
            case nodes.EnumDecl() | nodes.OutcomesDecl():
                kind = "enum member" if isinstance(decl, nodes.EnumDecl) else "outcome"
                for member in decl.members:
                    self.declare(member.name, kind, member, owner=decl.name.name)
                return
            case nodes.ProcedureDecl() | nodes.DefineDecl() | nodes.TableDecl():
                for p in decl.params:
                    self.param(p, scope, span, owner)
                for f in _fields_of(decl):
                    if f not in ("name", "params", "columns", "use"):
                        self.value(decl, f, getattr(decl, f), scope, span, owner)
                return
            case nodes.StatDecl(fighter=fighter) if fighter is not None:
                self.bind(fighter, "parameter", decl, scope, span, owner, "fighter")
                for f in ("type", "default", "derived", "when"):
                    self.value(decl, f, getattr(decl, f), scope, span, owner)
                return
            case nodes.MarkerDecl(entered_by=by) if by is not None:
                self.bind(by, "parameter", decl, scope, span, owner, "fighter")
                self.value(decl, "entered", decl.entered, scope, span, owner)
                return
            case nodes.ArmyDecl():
                self.army(decl, scope)
                return
            case nodes.EventDecl():   # events (run/events.py)
                self.event(decl, scope, owner)
                return
            case nodes.ScenarioDecl():
                for side in decl.sides:
                    self.declare(side.name, "side name", side)
                    self.children(side, scope, span, owner, skip=("name",))
                for zone in decl.zones:
                    self.declare(zone.name, "zone", zone)
                    self.children(zone, scope, span, owner, skip=("name",))
                for event in decl.events:   # the scenario's own events
                    self.declare(event.name, "event", event)
                    self.event(event, dict(scope), event.name.name)
                self.children(decl, scope, span, owner,
                              skip=("name", "sides", "zones", "events"))
                return
        self.children(decl, scope, span, owner, skip=("name",))

    def event(self, decl: nodes.EventDecl, scope: dict[str, Declared], owner: str | None
              ) -> None:
        """An event: the names its trigger binds (the fighter or side, the remover), the
        counter it watches, its fraction or value, its block; the trigger's word is no name."""
        span = decl.span
        if decl.counter is not None:
            self.use(decl.counter.name, decl.counter.span, scope)
        if decl.subject is not None:
            self.bind(decl.subject, "parameter", decl, scope, span, owner,
                      {"falls": "side", "removed": "fighter"}.get(decl.kind))
        if decl.by is not None:
            self.bind(decl.by, "parameter", decl, scope, span, owner, "fighter")
        if decl.amount is not None:
            self.value(decl, "amount", decl.amount, scope, span, owner)
        self.value(decl, "body", decl.body, scope, span, owner)

    def param(self, p: nodes.Param, scope: dict[str, Declared], visible: Span,
              owner: str | None) -> None:
        if p.default is not None:
            self.value(p, "default", p.default, scope, visible, owner)
        if p.type is not None:
            self.type_use(p.type, scope)
        self.bind(p.name, "parameter", p, scope, visible, owner,
                  p.type.name if p.type is not None else None)

    def army(self, decl: nodes.ArmyDecl, scope: dict[str, Declared]) -> None:
        if decl.cost is not None:
            param, body = decl.cost
            inner = dict(scope)
            self.bind(param, "parameter", decl, inner, body.span, "army", "fighter")
            self.visit(body, inner, body.span, "army")
        for cost in decl.costs:
            inner = dict(scope)
            self.bind(cost.param, "parameter", cost, inner, cost.span, cost.name.name, "fighter")
            self.visit(cost.body, inner, cost.span, cost.name.name)
        for limit in decl.limits:
            self.use(limit.name.name, limit.name.span, scope)
            self.visit(limit.value, scope, limit.span, "army")
        for rule in decl.rules:
            inner = dict(scope)
            if rule.group is not None:
                self.visit(rule.group, inner, rule.span, "army")
            if rule.var is not None:
                self.bind(rule.var, "local", rule, inner, rule.span, "army", "fighter")
            for f in ("condition", "test", "bound"):
                self.value(rule, f, getattr(rule, f), inner, rule.span, "army")
        self.children(decl, scope, decl.span, "army", skip=("cost", "costs", "limits", "rules"))

    def children(self, node: object, scope: dict[str, Declared], region: Span,
                 owner: str | None, skip: tuple[str, ...] = ()) -> None:
        for f in _fields_of(node):
            if f not in skip:
                self.value(node, f, getattr(node, f), scope, region, owner)

    def value(self, parent: object, field_name: str, value: object,
              scope: dict[str, Declared], region: Span, owner: str | None) -> None:
        if isinstance(value, nodes.Ident):
            self.ident(parent, field_name, value, scope)
        elif isinstance(value, tuple):
            for item in value:
                self.value(parent, field_name, item, scope, region, owner)
        elif _is_node(value):
            self.visit(value, scope, region, owner)

    def ident(self, parent: object, field_name: str, ident: nodes.Ident,
              scope: dict[str, Declared]) -> None:
        if (type(parent), field_name) in _TYPE_FIELDS:
            self.type_use(ident, scope)
        elif isinstance(parent, nodes.Aggregate) and field_name == "kind":
            self.index.occurrences.append(Occurrence(ident.span, None, "function"))
        elif isinstance(parent, (nodes.TableDecl, nodes.ZoneDecl)):
            return   # a table's columns and use, a zone's edges and corners: words, not names
        elif isinstance(parent, nodes.Option) and field_name == "name":
            self.declare(ident, "option", parent)
        else:
            self.use(ident.name, ident.span, scope)

    def visit(self, node: object, scope: dict[str, Declared], region: Span,
              owner: str | None) -> None:
        match node:
            case nodes.Name(name=name, span=span):
                builtin = "group" if name in BUILTIN_GROUPS else None
                self.use(name, span, scope, builtin=builtin)
            case nodes.Call(callee=callee, args=args):
                builtin = "function" if callee.name in _BUILTIN_NAMES or \
                    callee.name in AGGREGATES else None
                self.use(callee.name, callee.span, scope, builtin=builtin)
                for a in args:
                    self.visit(a, scope, region, owner)
            case nodes.Field(subject=subject, field=name):
                self.visit(subject, scope, region, owner)
                self.field_use(name)
            case nodes.Block(stmts=stmts, span=span):
                inner = dict(scope)
                for stmt in stmts:
                    self.visit(stmt, inner, span, owner)
            case nodes.Let(name=name, value=value):
                self.visit(value, scope, region, owner)
                self.bind(name, "local", node, scope, _to(name.span, region), owner)
            case nodes.LetTuple(names=names, value=value):
                self.visit(value, scope, region, owner)
                for n in names:
                    self.bind(n, "local", node, scope, _to(n.span, region), owner)
            case nodes.Set(target=target, value=value):
                if target:   # `set f.Wounds += 1` writes Wounds; `set x = 1` writes x
                    self.use(target[0].name, target[0].span, scope, writes=len(target) == 1)
                    for i, name in enumerate(target[1:], 2):
                        self.field_use(name, writes=i == len(target))
                self.visit(value, scope, region, owner)
            case nodes.ForEach() | nodes.ForSorted() | nodes.Aggregate():
                self.visit(node.group if isinstance(node, nodes.Aggregate) else node.items,
                           scope, region, owner)
                inner = dict(scope)
                self.bind(node.var, "local", node, inner, node.span, owner)
                self.children(node, inner, node.span, owner, skip=("var", "items", "group"))
            case nodes.Choose() | nodes.ChooseNumber() | nodes.ChooseAmong() | \
                    nodes.ChooseSpot() | nodes.ChooseTuple():
                self.children(node, scope, region, owner, skip=("name", "names", "options"))
                self.bind(node.name, "decision", node, scope, _to(node.name.span, region), owner)
                for n in getattr(node, "names", ()):
                    self.bind(n, "local", node, scope, _to(n.span, region), owner)
                for option in getattr(node, "options", ()):
                    self.visit(option, scope, region, owner)
            case nodes.Activate():
                self.children(node, scope, region, owner, skip=("bind",))
                if node.bind is not None:
                    self.bind(node.bind, "local", node, scope, _to(node.bind.span, region),
                              owner, "fighter")
            case _:
                self.children(node, scope, region, owner)


def build_index(module: nodes.Module, table: SymbolTable | None) -> Index:
    """The index of a module as the compiler left it. Without a table (the base of a house file
    could not be had, so the compiler stopped before collecting names), the file's own names are
    collected here, its `override`s taken as declarations."""
    if table is None:
        decls = tuple(d.decl if isinstance(d, nodes.OverrideDecl) else d for d in module.decls
                      if not isinstance(d, nodes.RemoveDecl))
        own = nodes.Module(module.file, module.header, decls, module.partial, module.unreadable)
        table, _ = collect(own)
        module = own
    return _Builder(module, table).build()


__all__ = [
    "FIELD_KINDS",
    "Declared",
    "Index",
    "Occurrence",
    "build_index",
    "within",
]
