"""Names, arity, types, cycles and unused definitions of one rules file.

The checker walks every declaration with a scope of local names and computes the type of every
expression. It reports and keeps going: an expression whose type cannot be known gets the type
ANY, which matches everything, so one mistake yields one message rather than a cascade.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import replace
from typing import TYPE_CHECKING, cast

from warband import catalog
from warband.diagnostics import Diagnostic, Related, Span, diag, did_you_mean
from warband.lang import nodes
from warband.lang.army_checker import OUTSIDE_ARMY, ArmyChecker
from warband.lang.call_weight import CALLABLE, CAP, CallWeights, callables
from warband.lang.campaign_checker import CampaignChecker
from warband.lang.class_checker import ClassChecker
from warband.lang.deck_checker import DeckChecker
from warband.lang.equipment_profiles import ProfileChecker
from warband.lang.event_checker import EventChecker
from warband.lang.expr_checker import ExpressionChecker
from warband.lang.game_checker import GameChecker
from warband.lang.symbols import (
    BUILTIN_FUNCTIONS,
    BUILTIN_TYPES,
    KIND_WORDS,
    POOL_TYPE,
    VALUE_KINDS,
    Symbol,
    SymbolTable,
)
from warband.lang.table_checker import TableChecker
from warband.lang.tuple_checker import (
    check_choose_tuple,
    check_let_tuple,
    check_tuple_result,
)
from warband.lang.typesystem import (
    NOBODY,
    ANY,
    BOOL,
    DICE,
    FIGHTER,
    NOTHING,
    NUMBER,
    POOL,
    SIDE,
    Scope,
    Type,
    compatible,
    either,
    noun,
)
from warband.limits import MAX_SAMPLED_STEPS

if TYPE_CHECKING:
    from warband.lang.game_checker import Decision, GameStmt

__all__ = ["Checker", "check", "Type"]


# turn flow: the loops whose bodies `break` and `continue` may stand in
LOOP_STATEMENTS = (nodes.ForEach, nodes.ForSorted, nodes.Repeat, nodes.While)


class Checker(ExpressionChecker, GameChecker, DeckChecker, TableChecker, ArmyChecker, ClassChecker,
              ProfileChecker, EventChecker, CampaignChecker):
    def __init__(self, table: SymbolTable) -> None:
        self.table = table
        self.diagnostics: list[Diagnostic] = []
        self.used: set[str] = set()
        self.calls: dict[str, list[tuple[str, Span]]] = {}   # caller -> [(callee, where)]
        self.current: str | None = None
        self.define_types: dict[int, Type] = {}   # by id of the declaration
        self.table_types: dict[int, Type] = {}
        self.expr_types: dict[int, Type] = {}
        self.ref_types: dict[int, Type] = {}
        # the parameters written without a type (numbers): where each is named
        self.untyped_params: set[Span] = set()
        # names declared by declarations the parser could not read (already reported)
        self.unreadable: frozenset[str] = frozenset()
        self.unknown_hints: dict[str, str] = dict(OUTSIDE_ARMY)
        self.in_army = False   # checking an army section (see check)

    # ---- reporting ----------------------------------------------------------------------------
    def error(self, code: str, message: str, span: Span, *, hint: str | None = None,
              related: Iterable[Related] = ()) -> None:
        self.diagnostics.append(diag(code, message, span, hint=hint, related=related))

    def lookup(self, name: str) -> Symbol | None:
        sym = self.table.globals.get(name)
        if sym is not None:
            self.used.add(name)
        return sym

    def named(self, ident: nodes.Ident, kind: str) -> Symbol | None:
        """The declaration a name of a given kind refers to, or None with the name reported
        (E201 unknown, with a did-you-mean; E204 a name of another kind)."""
        sym = self.lookup(ident.name)
        if sym is None or sym.kind != kind:
            self.unknown(ident, (kind,))
            return None
        return sym

    # ---- types named in the source -------------------------------------------------------------
    def type_of_ref(self, ref: nodes.Ident | None, default: Type = NUMBER) -> Type:
        if ref is None:
            return default
        if id(ref) not in self.ref_types:  # a type is checked once, however often it is used
            self.ref_types[id(ref)] = self._type_of_ref(ref)
        return self.ref_types[id(ref)]

    def _type_of_ref(self, ref: nodes.Ident) -> Type:
        if ref.name in BUILTIN_TYPES:
            return DICE if ref.name == "dice" else Type(ref.name)
        if ref.name == POOL_TYPE:   # dice pools
            return POOL
        if ref.name in VALUE_KINDS:   # class, tier, equipment: a declared name of that kind
            return Type(ref.name)
        sym = self.lookup(ref.name)
        if sym is not None and sym.kind == "enum":
            return Type("enum", ref.name)
        if sym is not None and sym.kind == "outcomes":
            return Type("outcome", ref.name)
        if sym is not None and sym.kind == "marker":   # a piece on the board of that kind
            self.used.add(ref.name)
            return Type("piece", ref.name)
        candidates = list(BUILTIN_TYPES) + list(VALUE_KINDS) + \
            self.table.names_of_kind("enum", "outcomes")
        if sym is None and ref.name in self.unreadable:
            return ANY
        if sym is not None:
            self.error("E204", f"'{ref.name}' is {KIND_WORDS[sym.kind]}, not a type", ref.span,
                       hint="types are number, bool, text, fighter, side, dice, fighters, "
                            "class, tier, equipment, or the name of an enum or outcomes "
                            "declaration")
        else:
            self.error("E201", f"unknown type '{ref.name}'", ref.span,
                       hint=self.suggest(ref.name, candidates))
        return ANY

    def params_scope(self, params: tuple[nodes.Param, ...], default: Type = NUMBER) -> Scope:
        scope = Scope({})
        for p in params:
            if p.name.name in scope.locals:
                self.error("E202", f"parameter '{p.name.name}' appears twice", p.name.span,
                           related=[Related(scope.locals[p.name.name][1], "first here")],
                           hint="give each parameter its own name, as in (attacker: fighter, "
                                "target: fighter)")
                continue
            t = self.type_of_ref(p.type, default)
            if p.default is not None:
                # a default may read the parameters before it: cover = obscured(a, b)
                dt = self.expr(p.default, Scope(dict(scope.locals)))
                self.expect(t, dt, p.default.span, "the default value")
                self.require_fixed(dt, p.default.span, "a default value")
            scope.locals[p.name.name] = (t, p.name.span)
            if p.type is None:   # a number by default: said when it is used as a fighter
                self.untyped_params.add(p.name.span)
        return scope

    def expect(self, expected: Type, actual: Type, span: Span, what: str,
               node: nodes.Expr | None = None) -> None:
        if not compatible(expected, actual):
            self.error("E302", f"{what} must be {expected.fixed()}, not {actual}", span,
                       hint=self.number_hint(actual, node) if expected.kind == "number" else None)

    def number_hint(self, actual: Type, node: nodes.Expr | None = None) -> str | None:
        """How to get a number out of a fighter."""
        if actual.kind == "pool":   # dice pools
            who = node.name if isinstance(node, nodes.Name) else "shots"
            return (f"a pool of dice is not a number; ask it: count >= 4 in {who}, "
                    f"total({who}), highest({who}), lowest({who}) or size({who})")
        stats = self.table.names_of_kind("stat")
        if actual.kind != "fighter" or not stats:
            return None
        who = node.name if isinstance(node, nodes.Name) else "f"
        return f"a fighter is not a number; use one of its stats, as in {who}.{stats[0]}"

    def member(self, e: nodes.Expr, expected: Type | None, scope: Scope) -> Type | None:
        """Check a bare name written where a value of an enum or outcome set is expected, so that
        a misspelt value is reported against that set. None when `e` is something else."""
        if expected is None or expected.kind not in ("enum", "outcome") or \
                expected.name is None or \
                not isinstance(e, nodes.Name) or e.name in scope.locals or \
                e.name in self.table.globals or getattr(self.table.globals.get(
                    expected.name), "kind", None) not in ("enum", "outcomes"):
            return None
        self.used.add(expected.name)
        if any(m.parent == expected.name for m in self.table.members.get(e.name, [])):
            return expected.fixed()
        members = cast("nodes.EnumDecl | nodes.OutcomesDecl",
                       self.table.globals[expected.name].decl).members
        names = [m.name.name for m in members]
        kind = "an outcome" if expected.kind == "outcome" else "a value"
        self.error("E307" if expected.kind == "outcome" else "E201",
                   f"'{e.name}' is not {kind} of '{expected.name}'", e.span,
                   hint=did_you_mean(e.name, names)
                   or f"{kind.split()[1]}s of '{expected.name}': {', '.join(names)}")
        return ANY

    def repeated(self, idents: Iterable[nodes.Ident], what: str, owner: str) -> None:
        """E202 for a name listed twice in one declaration."""
        seen: dict[str, Span] = {}
        for ident in idents:
            if ident.name in seen:
                self.error("E202", f"{what} '{ident.name}' is listed twice in {owner}",
                           ident.span, related=[Related(seen[ident.name], "first here")])
            else:
                seen[ident.name] = ident.span

    def require_fixed(self, t: Type, span: Span, what: str) -> None:
        if t.random:
            self.error("E303", f"{what} must be a fixed number, but this depends on a roll",
                       span, hint="rolls belong in procedures and definitions, not in data")

    # ---- declarations ----------------------------------------------------------------------------
    def check(self, module: nodes.Module) -> None:
        self.unreadable = module.unreadable
        self.header(module.header)
        for decl in module.decls:
            self.current = self.owner(decl)
            match decl:
                case nodes.StatDecl():
                    self.stat(decl)
                case nodes.StateDecl(initial=initial):
                    self.piece_state(decl)   # pieces as values: on a kind of marker
                    if decl.range is not None:   # campaigns: a side's stat, kept
                        for end in (decl.range.low, decl.range.high):
                            self.fixed_number(end, Scope({}), "a stat's bound")
                        self.side_stat_key(decl)
                    if initial is not None:
                        self.require_fixed(self.expr(initial, Scope({})), initial.span,
                                           "a starting value")
                case nodes.ClassDecl():
                    self.fighter_class(decl)
                case nodes.EquipmentDecl():
                    self.repeated([ref.name for ref in decl.grants], "trait",
                                  f"equipment '{decl.name.name}'")
                    for ref in decl.grants:
                        self.trait_ref(ref)
                    self.equipment_profile(decl)   # weapon profiles
                case nodes.ProfileDecl():
                    self.profile(decl)
                case nodes.TableDecl():
                    self.table_type(decl)
                case nodes.DefineDecl():
                    self.define_type(decl)
                case nodes.ProcedureDecl():
                    self.procedure(decl)
                case nodes.ArmyDecl():
                    # there `fighters` is the warband's (its rules' own name), never the
                    # fighters in play: a cost is worked out for a warband, not in a game
                    self.in_army = True
                    try:
                        self.army(decl)
                        self.founding(decl)   # campaigns: limits held at founding only
                    finally:
                        self.in_army = False
                case nodes.MarkerDecl():
                    self.marker(decl)
                case nodes.ScenarioDecl():
                    self.scenario(decl)
                case nodes.DeckDecl():   # decks and bags (deck_checker.py)
                    self.deck_decl(decl)
                case nodes.EventDecl():   # events (event_checker.py)
                    self.event(decl)
                case nodes.ZoneRoleDecl():   # zones the ruleset can name (game_checker.py)
                    pass   # a name and its doc: what there is to check is in the scenario
        self.current = None
        self.cycles()
        if not any(d.code == "E401" for d in self.diagnostics):
            self.call_weights(module)
        if not module.partial:  # what an unreadable declaration used is unknown
            self.unused(module)
        self.diagnostics = _merge_repeats(self.diagnostics)

    def header(self, header: nodes.Header | None) -> None:
        if header is None or header.extends is None or header.extends.endswith(".rules") or \
                "/" in header.extends:  # a path: only a built-in id can be checked here
            return
        ids = [s.id for s in catalog.rulesets()]
        if header.extends not in ids:
            self.error("E404", f"unknown ruleset '{header.extends}' after 'extends'", header.span,
                       hint=did_you_mean(header.extends, ids)
                       or f"built-in rulesets: {', '.join(ids)}")

    def stat(self, decl: nodes.StatDecl) -> None:
        if isinstance(decl.type, nodes.RangeType):
            for end in (decl.type.low, decl.type.high):
                t = self.expr(end, Scope({}))
                self.expect(NUMBER, t, end.span, "a stat's bound")
                self.require_fixed(t, end.span, "a stat's bound")
            expected = NUMBER
        else:
            expected = self.type_of_ref(decl.type)
            if expected.kind != "enum" and expected is not ANY:
                # what a warband file gives a fighter: a number in a range, or a named value
                self.error("E204", f"a stat is a range of numbers or an enum, not "
                                   f"'{decl.type.name}'", decl.type.span,
                           hint="write a range such as 1..10, or declare an enum and name it")
                return
        if decl.default is not None:
            t = self.member(decl.default, expected, Scope({})) or self.expr(decl.default,
                                                                           Scope({}))
            self.expect(expected, t, decl.default.span, "the default")
            self.require_fixed(t, decl.default.span, "a default")
            if decl.derived is not None and decl.when is None:
                self.error("E308", f"stat '{decl.name.name}' is worked out for every fighter, "
                                   "so a default would never be used", decl.default.span,
                           hint="remove 'default ...', or add 'if CONDITION' after the "
                                "value: the fighters it is not worked out for take the default")
        if decl.derived is not None:
            self.derived_stat(decl, expected)

    def derived_stat(self, decl: nodes.StatDecl, expected: Type) -> None:
        """`stat Level(f): 1..20 as EXPR [if COND]`: EXPR and COND are fixed values of the
        fighter f, worked out whenever the stat is read."""
        assert decl.fighter is not None and decl.derived is not None  # the grammar gives both
        scope = Scope({decl.fighter.name: (FIGHTER, decl.fighter.span)})
        t = self.member(decl.derived, expected, scope) or self.expr(decl.derived, scope)
        self.expect(expected, t, decl.derived.span, f"the value of stat '{decl.name.name}'",
                    node=decl.derived)
        self.require_fixed(t, decl.derived.span, "a stat's value")
        if decl.when is not None:
            ct = self.expr(decl.when, scope)
            self.expect(BOOL, ct, decl.when.span, "the condition after 'if'")
            self.require_fixed(ct, decl.when.span, "the condition after 'if'")

    def owner(self, decl: nodes.Decl) -> str | None:
        """The name calls made inside a declaration are recorded under (for cycles): None for a
        declaration whose name belongs to another (a duplicate, or a built-in name)."""
        name = getattr(getattr(decl, "name", None), "name", None)
        sym = self.table.globals.get(name) if name else None
        return name if sym is not None and sym.decl is decl else None

    def define_type(self, decl: nodes.DefineDecl) -> Type:
        if id(decl) in self.define_types:
            return self.define_types[id(decl)]
        self.define_types[id(decl)] = ANY  # stands in while checking, in case of a cycle
        outer, self.current = self.current, self.owner(decl)
        scope = self.params_scope(decl.params)
        t = self.expr(decl.body, scope)
        self.current = outer
        self.define_types[id(decl)] = Type("number", random=True) if t.kind == "dice" else t
        return self.define_types[id(decl)]

    def procedure_result(self, decl: nodes.ProcedureDecl) -> Type:
        if decl.results:   # several values at once
            return Type("tuple", columns=tuple(self.type_of_ref(r) for r in decl.results))
        return self.type_of_ref(decl.result, NOTHING) if decl.result else NOTHING

    def procedure(self, decl: nodes.ProcedureDecl) -> None:
        scope = self.params_scope(decl.params, default=NUMBER)
        scope.procedure = decl
        scope.result = self.procedure_result(decl)
        if decl.requires is not None:
            t = self.expr(decl.requires, scope)
            self.expect(BOOL, t, decl.requires.span, "'requires'")
            self.require_fixed(t, decl.requires.span, "'requires'")
        self.block(decl.body, scope)
        if scope.result.kind not in ("nothing", "any") and not _always_returns(decl.body):
            self.error("E309", f"{decl.kind} '{decl.name.name}' can end without giving its "
                               f"result", decl.name.span,
                       hint=f"end every path with 'return' ({scope.result})")

    def bare_return(self, stmt: nodes.Return, scope: Scope) -> None:
        """A `return` without a value: only a rule without a result ends so."""
        if scope.result is not None and scope.result.kind not in ("nothing", "any"):
            assert scope.procedure is not None  # only a procedure's scope has a result
            self.error("E309", f"'{scope.procedure.name.name}' gives {scope.result}, so its "
                               "'return' needs a value", stmt.span,
                       hint=f"return a value: 'return VALUE' ({scope.result}); a bare 'return' "
                            "ends only a rule without a result")

    def fixed_number(self, value: nodes.Expr, scope: Scope, what: str) -> None:
        t = self.expr(value, scope)
        self.expect(NUMBER, t, value.span, what)
        self.require_fixed(t, value.span, what)

    # ---- statements ------------------------------------------------------------------------------
    def block(self, block: nodes.Block | None, scope: Scope) -> None:
        if block is None:
            return
        inner = Scope(dict(scope.locals), scope.procedure, scope.result)
        for stmt in block.stmts:
            self.stmt(stmt, inner)

    def stmt(self, stmt: nodes.Stmt | GameStmt, scope: Scope) -> None:
        if type(stmt) in LOOP_STATEMENTS:   # turn flow: `break` and `continue` inside it
            self.loops = getattr(self, "loops", 0) + 1
            try:
                self._stmt(stmt, scope)
            finally:
                self.loops -= 1
            return
        self._stmt(stmt, scope)

    def _stmt(self, stmt: nodes.Stmt | GameStmt, scope: Scope) -> None:
        match stmt:
            case nodes.Let(name=name, value=value):
                if name.name in scope.locals:
                    self.error("E202", f"'{name.name}' is already a name here", name.span,
                               related=[Related(scope.locals[name.name][1], "first here")],
                               hint="use 'set' to change it, or choose another name")
                t = self.value(value, scope)
                if t.kind == "dice":
                    t = NUMBER.rolled(True)
                scope.locals[name.name] = (t, name.span)
            case nodes.Set():
                self.assignment(stmt, scope)
            case nodes.If(condition=cond, then=then, otherwise=otherwise):
                self.expect(BOOL, self.expr(cond, scope), cond.span, "a condition")
                self.block(then, scope)
                if isinstance(otherwise, nodes.If):
                    self.stmt(otherwise, scope)
                else:
                    self.block(otherwise, scope)
            case nodes.ChooseNumber(name=name):
                self.decider(stmt, scope)
                for part, what in ((stmt.low, "the lowest choice"),
                                   (stmt.high, "the highest choice"),
                                   (stmt.default, "the default choice")):
                    if part is not None:
                        t = self.expr(part, scope)
                        self.expect(NUMBER, t, part.span, what)
                        self.require_fixed(t, part.span, what)
                if name.name in scope.locals:
                    self.error("E202", f"'{name.name}' is already a name here", name.span,
                               related=[Related(scope.locals[name.name][1], "first here")],
                               hint="a decision's number needs a name of its own")
                scope.locals[name.name] = (NUMBER, name.span)
            case nodes.Choose(options=options):
                self.decider(stmt, scope)
                names: dict[str, Span] = {}
                for option in options:
                    if option.name.name in names:
                        self.error("E202", f"option '{option.name.name}' appears twice",
                                   option.name.span,
                                   related=[Related(names[option.name.name], "first here")])
                    names[option.name.name] = option.name.span
                    if option.when is not None:
                        wt = self.expr(option.when, scope)
                        self.expect(BOOL, wt, option.when.span, "an option's condition")
                        self.require_fixed(wt, option.when.span, "an option's condition")
                    self.block(option.body, scope)
                if all(o.when is not None for o in options):
                    self.error("E402", "every option has a condition, so there may be none to "
                                       "choose", stmt.name.span,
                               hint="give at least one option no 'when', such as a 'keep' option")
            case nodes.Return(value=value):
                if value is None:
                    self.bare_return(stmt, scope)
                    return
                t = self.value(value, scope, expected=scope.result)
                if scope.result is not None and scope.result.kind == "nothing":
                    assert scope.procedure is not None  # only a procedure's scope has a result
                    self.error("E302", f"'{scope.procedure.name.name}' gives no result, so it "
                                       "cannot return one", stmt.span,
                               hint="declare its result type: '-> number' or '-> OUTCOMES'")
                elif scope.result is not None and "tuple" in (scope.result.kind, t.kind):
                    check_tuple_result(self, scope.result, t, value.span)   # several values
                elif scope.result is not None:
                    self.expect(scope.result, t, value.span, "the result")
            case nodes.Remove(subject=subject, by=by):
                self.expect(FIGHTER, self.expr(subject, scope), subject.span, "what is removed")
                self.remover(by, scope)
            case nodes.ForEach(var=var, items=items, body=body):
                element = self.group_element(items, scope)
                inner = Scope(dict(scope.locals), scope.procedure, scope.result)
                inner.locals[var.name] = (element, var.span)
                self.block(body, inner)
            case nodes.Repeat(times=times, body=body):
                self.expect(NUMBER, self.expr(times, scope), times.span, "the number of times")
                self.block(body, scope)
            case nodes.CallStmt(call=call):
                sym = self.table.globals.get(call.callee.name)
                if sym is not None and sym.kind in ("define", "table"):
                    self.error("E302", f"calling {KIND_WORDS[sym.kind]} on its own does nothing",
                               call.span, hint=f"use its value: let x = {call.callee.name}(...)")
                self.value(call, scope)
            case nodes.Wound():   # units of several models
                self.wound_stmt(stmt, scope)
            # several values at once
            case nodes.ChooseTuple():
                check_choose_tuple(self, stmt, scope)
            case nodes.LetTuple():
                check_let_tuple(self, stmt, scope)
            case nodes.Draw() | nodes.Discard() | nodes.Shuffle():   # decks and bags
                self.deck_stmt(stmt, scope)
            case nodes.While(condition=cond, times=times, body=body):   # turn flow
                self.expect(BOOL, self.expr(cond, scope), cond.span, "a condition")
                self.expect(NUMBER, self.expr(times, scope), times.span,
                            "the most times it runs")
                self.block(body, scope)
            case nodes.Break() | nodes.Continue():
                if not getattr(self, "loops", 0):
                    word = "break" if type(stmt) is nodes.Break else "continue"
                    self.error("E327", f"'{word}' outside a loop: there is no loop to "
                                       f"{'leave' if word == 'break' else 'go on with'}",
                               stmt.span, hint="it stands in the body of a 'repeat', "
                                               "'for each' or 'while' loop of the same rule; "
                                               "a bare 'return' ends the whole rule")
            case nodes.Gear() | nodes.Hire():   # campaigns: in an aftermath
                self.campaign_stmt(stmt, scope)
            case nodes.EndTurn():
                whose = cast(nodes.EndTurn, stmt).side
                if whose is not None:
                    self.expect(SIDE, self.expr(whose, scope), whose.span, "whose turn ends")
            case _:
                self.game_stmt(stmt, scope)

    def decider(self, stmt: Decision, scope: Scope) -> None:
        t = self.expr(stmt.decider, scope)
        if t.kind not in ("fighter", "side", "any"):
            who = next((n for n, (lt, _) in scope.locals.items()
                        if lt.kind in ("fighter", "side")), "attacker")
            self.error("E402", f"a decision is made by a fighter or a side, not "
                               f"{t.fixed()}", stmt.decider.span,
                       hint=f"name who decides after 'by', as in "
                            f"'choose {stmt.name.name} by {who}'")

    def remover(self, by, scope: Scope) -> None:
        """`remove f by WHO`, `withdraw f by WHO`: a fighter or a side."""
        if by is None:
            return
        t = self.expr(by, scope)
        if t.kind not in ("fighter", "side", "any"):
            self.error("E302", f"who removes a fighter is a fighter or a side, not {t.fixed()}",
                       by.span, hint="remove target by attacker (or by attacker.side)")

    def assignment(self, stmt: nodes.Set, scope: Scope) -> None:
        head, *path = stmt.target
        sym = self.table.globals.get(head.name)
        if head.name not in scope.locals and path and sym is not None and \
                sym.kind == "side name":   # a scenario's side: set empire.Order = 1
            self.used.add(head.name)
            t = SIDE
        elif head.name not in scope.locals:
            self.unknown(head, (), extra=scope.locals)
            self.expr(stmt.value, scope)
            return
        else:
            t = scope.locals[head.name][0]
        if not path and t.kind in ("fighter", "side", "dice", "fighters"):
            self.error("E308", f"'{head.name}' is {t} and cannot be replaced", head.span)
        owner = t
        for i, part in enumerate(path):
            owner = t
            t = self.field_type(t, part, mutable=(i == len(path) - 1),
                                who=".".join(p.name for p in stmt.target[:i + 1]))
        value = self.member(stmt.value, t, scope) or self.expr(stmt.value, scope)
        if stmt.op != "=":
            self.expect(NUMBER, t, stmt.span, f"'{stmt.op}'")
        if value == NOBODY:   # `set p.holder = nobody`: the piece is let go (lang/absence.py)
            if owner.kind != "piece" or stmt.op != "=":
                self.error("E302", "only a piece's holder can be set to nobody",
                           stmt.value.span, hint="let a piece go: set p.holder = nobody")
            return
        self.expect(t.fixed(), value, stmt.value.span, "the new value")

    def value(self, expr: nodes.Expr, scope: Scope, expected: Type | None = None) -> Type:
        """An expression that may also be a call of a procedure standing on its own."""
        if isinstance(expr, nodes.Call):
            sym = self.table.globals.get(expr.callee.name)
            if sym is not None and sym.kind in ("procedure", "action", "phase"):
                self.used.add(sym.name)
                self.note_call(sym.name, expr.span)
                decl = cast(nodes.ProcedureDecl, sym.decl)
                self.arguments(expr, decl.params, scope, sym.kind)
                return self.procedure_result(decl)
        return self.member(expr, expected, scope) or self.expr(expr, scope)

    def note_call(self, callee: str, span: Span) -> None:
        if self.current is not None:
            self.calls.setdefault(self.current, []).append((callee, span))

    def arguments(self, call: nodes.Call, params: tuple[nodes.Param, ...], scope: Scope,
                  kind: str) -> None:
        required = sum(1 for p in params if p.default is None)
        if not required <= len(call.args) <= len(params):
            want = (f"{required}" if required == len(params)
                    else f"{required} to {len(params)}")
            names = ", ".join(p.name.name for p in params)
            self.error("E301", f"{noun(kind)} '{call.callee.name}' takes {want} "
                               f"argument{'s' if len(params) != 1 else ''} ({names}), "
                               f"not {len(call.args)}", call.span,
                       hint=f"call it as {call.callee.name}({names})")
            for arg in call.args:  # which argument is which is unclear: check names only
                self.expr(arg, scope)
            return
        for arg, param in zip(call.args, params):
            pt = self.type_of_ref(param.type, NUMBER)
            t = self.member(arg, pt, scope) or self.expr(arg, scope)
            self.expect(pt, t, arg.span, f"argument '{param.name.name}'", node=arg)

    # ---- expressions --------------------------------------------------------------------------------
    def cycles(self) -> None:
        """Rules must terminate: no table, definition or procedure may reach itself."""
        reported: set[frozenset[str]] = set()
        state: dict[str, int] = {}
        stack: list[tuple[str, Span | None]] = []

        def visit(name: str) -> None:
            state[name] = 1
            for callee, where in self.calls.get(name, []):
                if state.get(callee) == 1:
                    names = [n for n, _ in stack[[n for n, _ in stack].index(callee):]]
                    key = frozenset(names)
                    if key not in reported:
                        reported.add(key)
                        path = " -> ".join(names + [callee])
                        stat = any(getattr(self.table.globals.get(n), "kind", None) == "stat"
                                   for n in names)
                        self.error("E401", f"'{callee}' depends on itself: {path}", where,
                                   hint="a derived stat is worked out from other values, never "
                                        "from itself" if stat else
                                   "rules must always finish; repetition is written with "
                                   "'repeat N times' or 'for each'")
                elif state.get(callee) is None:
                    stack.append((callee, where))
                    visit(callee)
                    stack.pop()
            state[name] = 2

        for name in list(self.calls):
            if name not in state:
                stack.append((name, None))
                visit(name)
                stack.pop()

    def call_weights(self, module: nodes.Module) -> None:
        """No declaration may make more calls without a loop than a run may take steps: calls
        that each make several others multiply (lang/call_weight.py)."""
        weights = CallWeights(callables(module.decls))
        for decl in module.decls:
            name = getattr(getattr(decl, "name", None), "name", None)
            own = weights.of_decl(decl.name.name) if isinstance(decl, CALLABLE) else \
                weights.of(decl)
            if own <= MAX_SAMPLED_STEPS:
                continue
            sites = Counter(weights.direct_calls(decl))
            if any(weights.of_decl(callee) > MAX_SAMPLED_STEPS for callee in sites):
                continue   # (reported where it begins)
            what = f"'{name}'" if isinstance(name, str) else "this declaration"
            many = f"more than {CAP:,}" if own >= CAP else f"{own:,}"
            hint = ("calls that each make several others multiply: work a value out once "
                    "(with 'let' in a procedure) and pass it on, or call fewer times")
            if sites:
                callee, times = max(sites.items(),
                                    key=lambda kv: (kv[1] * (1 + weights.of_decl(kv[0])), kv[0]))
                hint = (f"{what} uses '{callee}' {times} time{'s' if times != 1 else ''}, and "
                        f"each use makes {1 + weights.of_decl(callee):,} calls; " + hint)
            self.error("E403", f"one use of {what} may make {many} calls of tables, "
                               f"definitions and procedures (at most {MAX_SAMPLED_STEPS:,}, the "
                               "steps a run may take)",
                       getattr(getattr(decl, "name", None), "span", None) or decl.span,
                       hint=hint)

    def unused(self, module: nodes.Module) -> None:
        warn_kinds = {"define", "table", "procedure", "outcomes", "enum", "flag", "counter",
                      "zone role"}   # (a role a scenario fills but no rule names)
        for sym in self.table.globals.values():
            if sym.kind in warn_kinds and sym.name not in self.used and \
                    sym.name.lower() not in BUILTIN_TYPES + tuple(BUILTIN_FUNCTIONS) and \
                    not (isinstance(sym.decl, nodes.TableDecl) and sym.decl.reference) and \
                    not (isinstance(sym.decl, nodes.StateDecl) and sym.decl.range is not None):
                # (a table for reference is there for the players: roster sheets print it; a
                # side's stat kept between games, for its warband file and the scenarios)
                self.error("W101", f"{noun(sym.kind)} '{sym.name}' is never used",
                           sym.span, hint="remove it, or use it in a rule")


_MERGED = ("E201", "E203", "E204", "E307")


def _merge_repeats(diagnostics: list[Diagnostic]) -> list[Diagnostic]:
    """One message for a name that is unknown wherever it is used (a misspelt or unreadable
    declaration, most often): the first use, with the lines of the others in its hint."""
    groups: dict[tuple[str, str, str], list[Diagnostic]] = {}
    for d in diagnostics:
        if d.code in _MERGED and d.span is not None:
            groups.setdefault((d.code, d.message, d.span.file), []).append(d)
    merged: list[Diagnostic] = []
    for d in diagnostics:
        group = groups.get((d.code, d.message, d.span.file)) if d.code in _MERGED \
            and d.span is not None else None
        if group is None:
            merged.append(d)
            continue
        if d is not group[0]:
            continue
        group.sort(key=_place)
        lines = sorted({_place(g)[0] for g in group[1:]} - {_place(group[0])[0]})
        first = group[0]
        if lines:
            shown = [str(n) for n in lines[:8]] + ([f"{len(lines) - 8} more"]
                                                   if len(lines) > 8 else [])
            also = f"the same on line{'s' if len(lines) > 1 else ''} {either(shown, 'and')}"
            first = replace(first, hint=f"{first.hint} ({also})" if first.hint else also)
        merged.append(first)
    return merged


def _place(d: Diagnostic) -> tuple[int, int]:
    """The line and column of a diagnostic with a span (only those are merged)."""
    span = cast(Span, d.span)
    return span.line, span.column


def _always_returns(block: nodes.Block | None) -> bool:
    if block is None:
        return False
    for stmt in block.stmts:
        match stmt:
            case nodes.Return():
                return True
            case nodes.If(then=then, otherwise=otherwise) if otherwise is not None:
                other = (_always_returns(nodes.Block((otherwise,), otherwise.span))
                         if isinstance(otherwise, nodes.If) else _always_returns(otherwise))
                if _always_returns(then) and other:
                    return True
            case nodes.Choose(options=options):
                if all(_always_returns(o.body) for o in options):
                    return True
    return False


def check(module: nodes.Module, table: SymbolTable) -> tuple[Checker, list[Diagnostic]]:
    checker = Checker(table)
    checker.check(module)
    return checker, checker.diagnostics
