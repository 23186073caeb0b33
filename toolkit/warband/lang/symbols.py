"""The global names of a rules file: what each declared name is, and where.

This pass only collects: every declaration, enum member and outcome gets an entry, and a name
declared twice is reported with both places. The checker resolves references against the table.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from warband.diagnostics import Diagnostic, Related, Span, diag
from warband.lang import nodes

# What a declaration kind is called in messages.
KIND_WORDS = {
    "stat": "a stat", "enum": "an enumeration", "enum member": "an enumeration value",
    "flag": "a flag", "counter": "a counter", "tier": "a tier", "trait": "a trait",
    "class": "a class", "equipment": "an equipment piece", "table": "a table",
    "define": "a definition", "outcomes": "a set of outcomes", "outcome": "an outcome",
    "procedure": "a procedure", "action": "an action", "phase": "a phase", "decision": "a decision",
    "marker": "a kind of marker", "scenario": "a scenario", "side name": "a side of the scenario",
    "zone": "a zone",
    "zone role": "a zone role",   # a zone the ruleset names, which each scenario fills
    "profile": "a value of each piece of equipment",   # weapon profiles
    "deck": "a deck or a bag",   # decks and bags (run/decks.py)
    "event": "an event",   # events (run/events.py)
}

BUILTIN_TYPES = ("number", "bool", "text", "fighter", "side", "dice", "fighters")
# the kinds of declaration whose names are values, each a type of its own (`c: class`); the
# words are keywords, so no declaration can take them as its name
VALUE_KINDS = ("class", "tier", "equipment", "trait")
AGGREGATES = ("total", "highest", "lowest", "all", "any", "count")
# total(f.Training for f in group if ...); all(f for f in group if ...) is the group of those
# members for which the condition holds, all(CONDITION for f in group) whether it holds for
# every member, any(...) for one at least, count(...) for how many
BUILTIN_FUNCTIONS = {"min": None, "max": None, "floor": 1, "ceil": 1, "abs": 1,
                     "isqrt": 1}  # name -> arity
# Questions the board answers during a game (without a board: no distance, clear sight).
GAME_FUNCTIONS = {"distance": 2, "sees": 2, "obscured": 2, "contact": 2, "engaged": 1}
# dice pools: the questions a pool answers besides `count PRED in p` (each with one argument,
# the pool); a table or definition of the same name takes its place
POOL_QUESTIONS = ("total", "highest", "lowest", "size")
# dice pools: the type of a pool parameter (`p: pool`); not a reserved name, as rules written
# before pools may name a definition or a value `pool`
POOL_TYPE = "pool"
# areas and templates, facing: name -> (fewest, most arguments); questions of the board too
AREA_FUNCTIONS = {"square": (2, 3), "circle": (2, 2), "cone": (3, 4), "line": (4, 4),
                  "in_front": (2, 3), "in_rear": (2, 3)}
GAME_FUNCTIONS.update((name, most) for name, (_, most) in AREA_FUNCTIONS.items())
GAME_FUNCTIONS["pieces"] = 1   # pieces as values: pieces(KIND), every piece of a kind placed
GAME_FUNCTIONS["inside"] = 2   # moves the rules choose: inside(f, ZONE), f standing in a zone
# terrain with extent: partly_inside(f, KIND), some of f's base on a piece that is an area
GAME_FUNCTIONS["partly_inside"] = 2
# one model of a unit with a different weapon: carriers(u, w), how many of u's models carry w
# (asked of the World, not the board: a game without a board answers it too)
GAME_FUNCTIONS["carriers"] = 2
# units of models with places: models_in_range(u, t, D), how many of u's models are within D of
# t; models_seeing(u, t), how many see t (without a board: all of them)
GAME_FUNCTIONS["models_in_range"] = 3
GAME_FUNCTIONS["models_seeing"] = 2
# Board questions added after rules were written that may use the words as their own names (a
# tier `line`, a table `square`): not reserved; a declaration of the name takes its place there
SOFT_GAME_FUNCTIONS = frozenset(AREA_FUNCTIONS) | {"pieces", "inside", "carriers",
                                                   "models_in_range", "models_seeing",
                                                   "partly_inside"}
BUILTIN_GROUPS = ("sides",)
# `d(n)`: one die of a number of sides worked out as the rules run; not reserved (a table or
# definition named `d` takes its place), as `d6` is dice and `d` alone a plain name
DIE_FUNCTION = "d"   # every side in the game, in the scenario's order


@dataclass(frozen=True)
class Symbol:
    """A global name of a rules file, and the declaration it names."""

    name: str
    kind: str
    # the declaration node, or the enum member, outcome, side, zone or decision node
    decl: (nodes.Decl | nodes.EnumMember | nodes.OutcomeMember | nodes.SideDecl | nodes.ZoneDecl
           | nodes.Decision | nodes.ChooseSpot)
    span: Span
    parent: str | None = None   # the enum or outcome set a member belongs to


@dataclass
class SymbolTable:
    """Every global name of a rules file, by kind."""

    globals: dict[str, Symbol] = field(default_factory=dict)
    members: dict[str, list[Symbol]] = field(default_factory=dict)  # enum values and outcomes
    decisions: dict[str, Symbol] = field(default_factory=dict)
    army: nodes.ArmyDecl | None = None
    scenario: nodes.ScenarioDecl | None = None

    # names_of_kind's answers, by the kinds asked and the number of globals then: the checker
    # asks once per unknown name, and a file with thousands of them made that quadratic
    by_kind: dict[tuple[tuple[str, ...], int], list[str]] = field(default_factory=dict,
                                                                  repr=False, compare=False)

    def of_kind(self, *kinds: str) -> list[Symbol]:
        return [s for s in self.globals.values() if s.kind in kinds]

    def names_of_kind(self, *kinds: str) -> list[str]:
        """The names of those kinds, in declaration order (a list shared between calls: not to
        be changed)."""
        key = (kinds, len(self.globals))
        names = self.by_kind.get(key)
        if names is None:
            names = self.by_kind[key] = [s.name for s in self.of_kind(*kinds)]
        return names


def declaration_kind(decl: nodes.Decl) -> str:
    match decl:
        case nodes.StatDecl():
            return "stat"
        case nodes.EnumDecl():
            return "enum"
        case nodes.StateDecl(kind=kind):
            return kind
        case nodes.TierDecl():
            return "tier"
        case nodes.TraitDecl():
            return "trait"
        case nodes.ClassDecl():
            return "class"
        case nodes.EquipmentDecl():
            return "equipment"
        case nodes.ProfileDecl():   # weapon profiles: `stat Range on equipment: ...`
            return "profile"
        case nodes.TableDecl():
            return "table"
        case nodes.DefineDecl():
            return "define"
        case nodes.OutcomesDecl():
            return "outcomes"
        case nodes.ProcedureDecl(kind=kind):
            return kind
        case nodes.MarkerDecl():
            return "marker"
        case nodes.ScenarioDecl():
            return "scenario"
        case nodes.DeckDecl():   # decks and bags
            return "deck"
        case nodes.EventDecl():   # events (run/events.py)
            return "event"
        case nodes.ZoneRoleDecl():   # zones the ruleset can name
            return "zone role"
    raise TypeError(f"unknown declaration {decl!r}")


def collect(module: nodes.Module) -> tuple[SymbolTable, list[Diagnostic]]:
    table = SymbolTable()
    diagnostics: list[Diagnostic] = []

    def add(sym: Symbol) -> None:
        previous = table.globals.get(sym.name)
        if previous is None and sym.name.lower() not in SOFT_GAME_FUNCTIONS and \
                sym.name.lower() in BUILTIN_TYPES + tuple(BUILTIN_FUNCTIONS) \
                + tuple(GAME_FUNCTIONS) + BUILTIN_GROUPS:
            builtin = sym.name.lower()
            message = f"'{sym.name}' is a built-in name of the language" if builtin == sym.name \
                else f"'{sym.name}' differs only in case from the built-in name '{builtin}'"
            hint = f"the language already has {builtin}(...); use it, or choose another name" \
                if builtin in BUILTIN_FUNCTIONS or builtin in GAME_FUNCTIONS \
                else "choose another name"
            diagnostics.append(diag("E202", message, sym.span, hint=hint))
            # still entered, so that its uses are not reported as unknown on top of this
        elif previous is not None:
            diagnostics.append(diag(
                "E202", f"'{sym.name}' is already the name of {KIND_WORDS[previous.kind]}",
                sym.span, related=[Related(previous.span, "first defined here")],
                hint="give each definition its own name"))
            return
        table.globals[sym.name] = sym

    for decl in module.decls:
        if isinstance(decl, nodes.ConversionDecl):  # names of two other rulesets: conversion.py
            continue
        if isinstance(decl, nodes.ArmyDecl):
            if table.army is not None:
                diagnostics.append(diag(
                    "E202", "a second army section", decl.span,
                    related=[Related(table.army.span, "the first army section")],
                    hint="put every army rule in one 'army' section"))
            else:
                table.army = decl
            continue
        kind = declaration_kind(decl)   # a TypeError for override and remove: layer() merged them
        assert not isinstance(decl, (nodes.OverrideDecl, nodes.RemoveDecl))
        add(Symbol(decl.name.name, kind, decl, decl.name.span))
        if isinstance(decl, (nodes.EnumDecl, nodes.OutcomesDecl)):
            seen: dict[str, Span] = {}
            member_kind = "enum member" if isinstance(decl, nodes.EnumDecl) else "outcome"
            for member in decl.members:
                if member.name.name in seen:
                    diagnostics.append(diag(
                        "E202", f"'{member.name.name}' appears twice in '{decl.name.name}'",
                        member.name.span, related=[Related(seen[member.name.name], "first here")]))
                    continue
                seen[member.name.name] = member.name.span
                table.members.setdefault(member.name.name, []).append(
                    Symbol(member.name.name, member_kind, member, member.name.span,
                           decl.name.name))
        if isinstance(decl, nodes.ProcedureDecl):
            _collect_decisions(decl.body, table, diagnostics)
        if isinstance(decl, nodes.MarkerDecl):
            _collect_decisions(decl.entered, table, diagnostics)
        if isinstance(decl, nodes.EventDecl):   # events (run/events.py)
            _collect_decisions(decl.body, table, diagnostics)
        if isinstance(decl, nodes.ScenarioDecl):
            if table.scenario is not None:
                diagnostics.append(diag(
                    "E202", "a second scenario in one file", decl.name.span,
                    related=[Related(table.scenario.name.span, "the first scenario")],
                    hint="write each scenario in a file of its own"))
            else:
                table.scenario = decl
            for side in decl.sides:
                add(Symbol(side.name.name, "side name", side, side.name.span))
            for zone in decl.zones:
                add(Symbol(zone.name.name, "zone", zone, zone.name.span))
            _collect_decisions(decl.setup, table, diagnostics)
            _collect_decisions(decl.round, table, diagnostics)
            _collect_decisions(decl.aftermath, table, diagnostics)
            for event in decl.events:   # a scenario's own events: named as the others
                add(Symbol(event.name.name, "event", event, event.name.span))
                _collect_decisions(event.body, table, diagnostics)
    return table, diagnostics


def _collect_decisions(block: nodes.Block | None, table: SymbolTable,
                       diagnostics: list[Diagnostic]) -> None:
    if block is None:
        return
    for stmt in block.stmts:
        match stmt:
            case nodes.Choose(name=name) | nodes.ChooseNumber(name=name) | \
                    nodes.ChooseAmong(name=name) | nodes.ChooseTuple(name=name) | \
                    nodes.ChooseSpot(name=name):
                previous = table.decisions.get(name.name)
                if previous is not None:
                    diagnostics.append(diag(
                        "E202", f"a decision named '{name.name}' already exists", name.span,
                        related=[Related(previous.span, "first defined here")],
                        hint="policies pick decisions by name, so each needs its own"))
                else:
                    table.decisions[name.name] = Symbol(name.name, "decision", stmt, name.span)
                for option in getattr(stmt, "options", ()):
                    _collect_decisions(option.body, table, diagnostics)
            case nodes.If(then=then, otherwise=otherwise):
                _collect_decisions(then, table, diagnostics)
                if isinstance(otherwise, nodes.If):
                    _collect_decisions(nodes.Block((otherwise,), otherwise.span), table, diagnostics)
                else:
                    _collect_decisions(otherwise, table, diagnostics)
            case nodes.ForEach(body=body) | nodes.Repeat(body=body) | nodes.ForSorted(body=body) \
                    | nodes.While(body=body):
                _collect_decisions(body, table, diagnostics)
