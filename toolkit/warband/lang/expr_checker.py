"""The half of the checker that types expressions: names, fields, calls, dice, operators.

Mixed into the Checker, whose declaration and statement walks call `expr` for every expression.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import cast

from warband.diagnostics import Related, did_you_mean
from warband.lang import nodes
from warband.lang.checker_parts import CheckerParts
from warband.lang.game_checker import game_name_type
from warband.lang.symbols import (
    AGGREGATES,
    BUILTIN_FUNCTIONS,
    BUILTIN_GROUPS,
    DIE_FUNCTION,
    GAME_FUNCTIONS,
    KIND_WORDS,
    POOL_QUESTIONS,
    VALUE_KINDS,
)
from warband.lang.tuple_checker import tuple_value_type
from warband.lang import absence
from warband.lang.typesystem import (
    NOBODY,
    ANY,
    BOOL,
    DICE,
    FIGHTER,
    FIGHTER_BUILTINS,
    FIGHTERS,
    GEAR,
    NUMBER,
    POOL,
    SIDE_BUILTINS,
    SIDES,
    TEXT,
    TRAITS,
    Scope,
    Type,
    compatible,
    either,
    kind_hint,
    noun,
    numeric,
    unify,
)
from warband.lang.units import UNIT_FIELDS
from warband.limits import MAX_DICE, MAX_SIDES


class ExpressionChecker(CheckerParts):
    # what an unknown name means where it is read (army rules: 'points' in an army without)
    unknown_hints: dict[str, str]
    binding_hint: str | None = None   # in an event's rule: what its `when` binds (events)
    in_army: bool   # in an army section, `fighters` is only its rules' own name
    untyped_params: set   # the parameters written without a type (Checker.params_scope)

    def expr(self, e: nodes.Expr, scope: Scope) -> Type:
        t = self._expr(e, scope)
        self.expr_types[id(e)] = t
        return t

    def _expr(self, e: nodes.Expr, scope: Scope) -> Type:
        match e:
            case nodes.Int():
                return NUMBER
            case nodes.Str():
                return TEXT
            case nodes.Bool():
                return BOOL
            case nodes.Name(name=name):
                return self.name(e, scope)
            case nodes.Field(subject=subject, field=field):
                t = self.expr(subject, scope)
                if self.untyped(subject, t, scope, f"has no field '{field.name}'"):
                    return ANY
                return self.field_type(t, field,
                                       who=subject.name if isinstance(subject, nodes.Name) else None)
            case nodes.Call():
                return self.call(e, scope)
            case nodes.Binary(op=op, left=left, right=right):
                lt, rt = self.expr(left, scope), self.expr(right, scope)
                for side, t in ((left, lt), (right, rt)):
                    if not numeric(t):
                        self.error("E302", f"'{op}' needs numbers, but this is {t}", side.span,
                                   hint=self.number_hint(t, side))
                return NUMBER.rolled(lt.random or rt.random)
            case nodes.Compare(op=op, left=left, right=right):
                lt = self.expr(left, scope)
                rt = self.member(right, lt, scope) or self.expr(right, scope)
                if "pool" in (lt.kind, rt.kind):   # dice pools: asked, not compared
                    side, t = (left, lt) if lt.kind == "pool" else (right, rt)
                    self.error("E302", f"'{op}' cannot compare {t}", side.span,
                               hint=self.number_hint(t, side))
                elif op in ("==", "!="):
                    if NOBODY in (lt, rt):   # p.holder == nobody: a side or a fighter, or none
                        other, at = (rt, right) if lt == NOBODY else (lt, left)
                        if other.kind not in ("side", "fighter", "nobody", "any"):
                            self.error("E302", f"only a side or a fighter can be nobody, not "
                                               f"{other}", at.span,
                                       hint="ask a piece: p.holder == nobody, "
                                            "p.carrier == nobody")
                    elif not (compatible(lt, rt) or compatible(rt, lt)):
                        self.error("E302", f"cannot compare {lt} with {rt}", e.span)
                else:
                    for side, t in ((left, lt), (right, rt)):
                        if not numeric(t):
                            self.error("E302", f"'{op}' compares numbers, but this is {t}",
                                       side.span)
                return BOOL.rolled(lt.random or rt.random)
            case nodes.Logic(op=op, items=items):
                random = False
                for item in items:
                    t = self.expr(item, scope)
                    self.expect(BOOL, t, item.span, f"each side of '{op}'")
                    random |= t.random
                return BOOL.rolled(random)
            case nodes.Not(operand=operand):
                t = self.expr(operand, scope)
                self.expect(BOOL, t, operand.span, "what 'not' applies to")
                return BOOL.rolled(t.random)
            case nodes.Neg(operand=operand):
                t = self.expr(operand, scope)
                if not numeric(t):
                    self.error("E302", f"'-' needs a number, but this is {t}", operand.span)
                return NUMBER.rolled(t.random)
            case nodes.IfExpr(condition=cond, then=then, otherwise=otherwise):
                ct = self.expr(cond, scope)
                self.expect(BOOL, ct, cond.span, "a condition")
                a, b = self.expr(then, scope), self.expr(otherwise, scope)
                if not (compatible(a, b) or compatible(b, a)):
                    self.error("E302", f"both branches must give the same kind of value; "
                                       f"here {a} and {b}", e.span)
                return unify(a, b).rolled(ct.random)
            case nodes.Has(subject=subject, name=name):
                t = self.expr(subject, scope)
                if self.weapon_has(e, t, scope):   # weapon profiles: a piece's own traits
                    return BOOL
                if not self.untyped(subject, t, scope, "cannot have a trait"):
                    self.expect(FIGHTER, t, subject.span, "what 'has' looks at")
                sym = self.lookup(name.name)
                if sym is None or sym.kind not in ("trait", "equipment"):
                    who = subject.name if isinstance(subject, nodes.Name) else "f"
                    self.unknown(name, ("trait", "equipment"), hint=(
                        f"a {sym.kind} is read as a value: {who}.{name.name}"
                        if sym is not None and sym.kind in ("flag", "counter", "stat") else None))
                return BOOL
            case nodes.Is(subject=subject, name=name):
                t = self.expr(subject, scope)
                if not self.untyped(subject, t, scope, "has no class or tier"):
                    self.expect(FIGHTER, t, subject.span, "what 'is' looks at")
                sym = self.lookup(name.name)
                if sym is None or sym.kind not in ("class", "tier"):
                    self.unknown(name, ("class", "tier"))
                return BOOL
            case nodes.Dice():
                return self.dice(e, scope)
            case nodes.Count(predicate=predicate, pool=pool):
                self.predicate(predicate, scope)
                t = self.expr(pool, scope)
                if t.kind in ("pool", "any") and not isinstance(pool, nodes.Dice):
                    return NUMBER.rolled(True)   # dice pools: a kept roll, asked again
                if not isinstance(pool, nodes.Dice):
                    self.error("E302", f"'count' looks at dice written in place or a pool, "
                                       f"not {t}", pool.span,
                               hint="as in: count even in 3d6, or keep a roll to ask it again: "
                                    "let shots = pool (n)d6, then count >= 4 in shots")
                elif any(isinstance(m, nodes.KeepMod) for m in pool.mods):
                    mod = next(m for m in pool.mods if isinstance(m, nodes.KeepMod))
                    self.error("E306", "'count' looks at every die rolled, so keeping or "
                                       "dropping some has no effect here", mod.span,
                               hint="count in the dice you mean to keep: (n)d6")
                return NUMBER.rolled(True)
            case nodes.Aggregate(kind=kind_ident, value=value, var=var, group=group,
                               condition=condition):
                if kind_ident.name not in AGGREGATES:
                    self.error("E201", f"unknown way to combine a group: '{kind_ident.name}'",
                               kind_ident.span, hint=did_you_mean(kind_ident.name, AGGREGATES)
                               or "use total(...), highest(...), lowest(...), count(...), "
                                  "any(...) or all(...)")
                kind = kind_ident.name
                inner = Scope(dict(scope.locals), scope.procedure, scope.result)
                element = self.group_element(group, scope)
                inner.locals[var.name] = (element, var.span)
                members = isinstance(value, nodes.Name) and value.name == var.name
                if kind == "all" and members:
                    return self.selection(e, inner, element)
                random = False
                if condition is not None:
                    ct = self.expr(condition, inner)
                    self.expect(BOOL, ct, condition.span, "the condition")
                    random |= ct.random
                if kind == "count" and members:   # count(x for x in group if condition)
                    return NUMBER.rolled(random)
                vt = self.expr(value, inner)
                if kind in ("all", "any", "count"):   # a question asked of each member
                    if vt.kind not in ("bool", "any"):
                        self.error("E302", f"'{kind}' asks a yes/no question of each member, "
                                           f"not {vt}", value.span,
                                   hint=f"as in: {kind}(CONDITION for {var.name} in GROUP)"
                                        + (
                                       f", or the members themselves: all({var.name} for "
                                       f"{var.name} in ... if CONDITION)" if kind == "all"
                                       else ""))
                    return (NUMBER if kind == "count" else BOOL).rolled(random or vt.random)
                if not numeric(vt):
                    self.error("E302", f"'{kind}' adds up or compares numbers, not {vt}",
                               value.span)
                return NUMBER.rolled(random or vt.random)
            case nodes.Within(distance=distance, of=of):
                self.expect(NUMBER, self.expr(distance, scope), distance.span, "a distance")
                self.expect(FIGHTER, self.expr(of, scope), of.span, "'of'")
                return FIGHTERS
            case nodes.Under():   # areas and templates (game_checker.py)
                return self.under(e, scope)
            # several values at once: what `return (a, b)` gives
            case nodes.TupleExpr():
                return tuple_value_type(self, e, scope)
        raise TypeError(f"unknown expression {e!r}")  # pragma: no cover

    def untyped(self, subject: nodes.Expr, t: Type, scope: Scope, what: str) -> bool:
        """A parameter written without a type is a number: used as a fighter, say how to make it
        one (E302, with the fix); False when `subject` is no such parameter."""
        if t.kind != "number" or not isinstance(subject, nodes.Name) or \
                subject.name not in scope.locals or \
                scope.locals[subject.name][1] not in self.untyped_params:
            return False
        name = subject.name
        self.error("E302", f"'{name}' is a number, which {what}: a parameter written without a "
                           f"type is a number", subject.span,
                   related=[Related(scope.locals[name][1], "the parameter")],
                   hint=f"say what it is where it is named: write '{name}: fighter' (or side, "
                        f"equipment, ...)")
        return True

    def selection(self, e: nodes.Aggregate, inner: Scope, element: Type) -> Type:
        """all(f for f in group if condition): the members for which the condition holds."""
        if not (isinstance(e.value, nodes.Name) and e.value.name == e.var.name):
            self.error("E302", f"'all' gives members of the group, so it is written "
                               f"all({e.var.name} for {e.var.name} in ...)", e.value.span)
        if e.condition is not None:
            ct = self.expr(e.condition, inner)
            self.expect(BOOL, ct, e.condition.span, "the condition")
            self.require_fixed(ct, e.condition.span, "which members belong to a group")
        if element.kind == "piece":   # pieces as values: the pieces of a kind that qualify
            return Type("pieces", element.name)
        return {"side": SIDES, "equipment": GEAR, "trait": TRAITS}.get(element.kind, FIGHTERS)

    def dice(self, e: nodes.Dice, scope: Scope) -> Type:
        if not isinstance(e.count, nodes.Int):
            t = self.expr(e.count, scope)
            self.expect(NUMBER, t, e.count.span, "the number of dice")
        if e.count_in_token and not isinstance(e.count, nodes.Int):
            self.error("E306", "the number of dice is given twice", e.span,
                       hint="write (n)d6 or 3d6, not (n)3d6")
        if not 1 <= e.sides <= MAX_SIDES:
            self.error("E306", f"a die needs 1 to {MAX_SIDES} sides, not {e.sides}", e.span)
        if isinstance(e.count, nodes.Int) and not 0 <= e.count.value <= MAX_DICE:
            self.error("E306", f"at most {MAX_DICE} dice in one roll, not {e.count.value}",
                       e.span)
        kinds_seen: dict[type, object] = {}
        for mod in e.mods:
            if type(mod) in kinds_seen:
                what = "keep or drop" if isinstance(mod, nodes.KeepMod) else "reroll"
                self.error("E306", f"a roll takes one '{what}'; this second one would be "
                                   "ignored", mod.span,
                           hint="combine them into one, or roll in two steps with 'let'")
            kinds_seen[type(mod)] = mod
            if isinstance(mod, nodes.KeepMod):
                if isinstance(e.count, nodes.Int) and mod.count > e.count.value:
                    verb = "keep" if mod.keep else "drop"
                    self.error("E306", f"cannot {verb} {mod.count} of {e.count.value} dice",
                               mod.span)
            else:
                self.predicate(mod.predicate, scope)
        if e.rolled_by is not None:   # who rolls it, for a game's log
            who = self.expr(e.rolled_by, scope)
            if who.kind not in ("fighter", "side", "any"):
                self.error("E302", f"a roll is rolled by a fighter or a side, not {who.fixed()}",
                           e.rolled_by.span, hint="d6 rolled by target (a fighter's or a "
                                                  "side's name)")
        return POOL if e.pool else DICE

    def predicate(self, p: nodes.Predicate, scope: Scope) -> None:
        if isinstance(p, nodes.PredCompare):
            t = self.expr(p.value, scope)
            self.expect(NUMBER, t, p.value.span, "a face to compare with")

    def name(self, e: nodes.Name, scope: Scope) -> Type:
        if e.name in scope.locals:
            return scope.locals[e.name][0]
        if e.name in BUILTIN_GROUPS:
            if self.in_army:
                # a cost or an army rule is worked out for one warband, outside any game,
                # where there are no sides: it would read an empty group without a word
                self.error("E204", f"'{e.name}' is the sides of a game, and an army's costs "
                                   "and rules are worked out for one warband, outside a game",
                           e.span, hint="read the warband itself: 'fighters', 'entries', "
                                        "'total_cost', 'points'")
                return ANY
            return SIDES
        if e.name == "fighters" and not self.in_army:
            # every fighter in play, of every side (an army's rules name their warband's
            # fighters so, as a name of their own: found above)
            return FIGHTERS
        sym = self.lookup(e.name)
        if sym is not None:
            if sym.kind == "deck":   # decks and bags (deck_checker.py)
                return self.deck_value(e, cast(nodes.DeckDecl, sym.decl))
            if sym.kind == "zone role" and cast(nodes.ZoneRoleDecl, sym.decl).per_side:
                self.error("E302", f"'{e.name}' is a zone for each side: say whose", e.span,
                           hint=f"as in: {e.name}(f.side)")
                return ANY
            if (game_type := game_name_type(sym)) is not None:
                return game_type
            if sym.kind in VALUE_KINDS:   # a class, a tier, a piece of equipment
                return Type(sym.kind)
            self.error("E204", f"'{e.name}' is {KIND_WORDS[sym.kind]} and cannot be used as a "
                               "value here", e.span, hint=kind_hint(sym, scope))
            return ANY
        members = self.table.members.get(e.name, [])
        if len(members) == 1:
            self.used.add(cast(str, members[0].parent))   # a member's set, always given
            m = members[0]
            return Type("enum" if m.kind == "enum member" else "outcome", m.parent)
        if len(members) > 1:
            self.error("E204", f"'{e.name}' is a value of several sets "
                               f"({', '.join(cast(str, m.parent) for m in members)})", e.span)
            return ANY
        if e.name == absence.NOBODY:   # no side, no fighter: set as a holder, or compared
            return NOBODY
        self.unknown(e, (), extra=scope.locals)
        return ANY

    def unknown(self, ident: nodes.Ident | nodes.Name, kinds: tuple[str, ...],
                extra: Iterable[str] = (), hint: str | None = None) -> None:
        name = ident.name
        sym = self.table.globals.get(name)
        if sym is None and name in self.unreadable:
            return  # its declaration could not be read, and that is reported already
        if sym is not None and kinds:
            wanted = either([KIND_WORDS[k] for k in kinds])
            self.error("E204", f"'{name}' is {KIND_WORDS[sym.kind]}, not {wanted}", ident.span,
                       hint=hint or self.suggest(name, self.table.names_of_kind(*kinds)))
            return
        if kinds:
            candidates = self.table.names_of_kind(*kinds)
            what = either([noun(k) for k in kinds])
        else:
            # only what can stand alone as a value; a stat or a trait is read from a fighter
            candidates = list(extra) + list(self.table.members) + self.table.names_of_kind(
                *VALUE_KINDS, "table", "define")
            what = "name"
        hint = self.suggest(name, candidates) or self.unknown_hints.get(name) or \
            self.binding_hint   # (in an event's rule: the names its `when` binds)
        if hint is None and len(kinds) == 1 and kinds[0] in ("stat", "tier", "trait", "class",
                                                             "equipment"):
            hint = f"declare it first, as in: {kinds[0]} {name}"
            if 0 < len(candidates) <= 6:
                declared = f"the {noun(kinds[0])}s declared are {either(candidates, 'and')}" \
                    if len(candidates) > 1 else f"the only {noun(kinds[0])} declared is " \
                                                f"{candidates[0]}"
                hint = f"declare it first ({kinds[0]} {name}); {declared}"
        self.error("E201", f"unknown {what} '{name}'", ident.span, hint=hint)

    def suggest(self, name: str, candidates: Iterable[str]) -> str | None:
        """A did-you-mean hint. What it suggests counts as used: the writer meant to use it,
        and a warning that it is unused would only repeat the mistake."""
        hint = did_you_mean(name, candidates)
        if hint is not None:
            self.used.add(hint.split("'")[1])
        return hint

    def field_type(self, subject: Type, field: nodes.Ident, mutable: bool = False,
                   who: str | None = None) -> Type:
        name = field.name
        if subject.kind == "any":
            return ANY
        if subject.kind == "fighter":
            owner = "fighter"
            builtins = FIGHTER_BUILTINS
        elif subject.kind == "side":
            owner = "side"
            builtins = SIDE_BUILTINS
        elif subject.kind == "equipment":   # weapon profiles: `w.Range`
            return self.piece_field(field, mutable)
        elif subject.kind == "piece":   # pieces as values (game_checker.py)
            return self.piece_field_type(subject, field, mutable)
        elif subject.kind == "deck":   # decks and bags (deck_checker.py)
            return self.deck_field(subject, field, mutable)
        elif subject.kind == "record":
            if name in subject.fields:
                index = subject.fields.index(name)
                column = subject.columns[index] if index < len(subject.columns) else ANY
                return column.rolled(subject.random)
            whose = "a warband entry" if str(subject) == "a warband entry" else \
                f"table '{subject.name}'"
            self.error("E203", f"{whose} has no {'field' if whose[0] == 'a' else 'column'} "
                               f"'{name}'", field.span,
                       hint=did_you_mean(name, subject.fields) or (
                           f"an entry's fields are {either(list(subject.fields), 'and')}"
                           if whose[0] == "a" else None))
            return ANY
        else:
            self.error("E302", f"{subject} has no fields", field.span)
            return ANY
        if owner == "side" and (deck := self.side_deck(field, mutable)) is not None:
            return deck   # a side's own deck or bag
        if owner == "side" and name == "turn_over":   # turn flow: set by `end turn`, or a rule
            return BOOL
        if name in builtins:
            if mutable:
                self.error("E308", f"a {owner}'s '{name}' cannot be changed", field.span,
                           hint=f"a {owner}'s {either(list(builtins), 'and')} "
                                f"{'are' if len(builtins) > 1 else 'is'} fixed; keep what changes "
                                f"in a flag or a counter")
            return builtins[name]
        candidates = list(builtins)
        for sym in self.table.globals.values():
            # the kind of a symbol says what its declaration is
            if sym.kind in ("flag", "counter") and \
                    cast(nodes.StateDecl, sym.decl).owner == owner or \
                    owner == "fighter" and sym.kind in ("stat", "trait"):
                candidates.append(sym.name)
                if sym.name.lower() != name.lower():
                    continue
                self.used.add(sym.name)
                if sym.kind == "flag":
                    return BOOL
                if sym.kind == "counter":
                    return NUMBER
                if sym.kind == "stat":
                    stat = cast(nodes.StatDecl, sym.decl)
                    if stat.derived is not None:
                        # worked out when read: a dependency, as a call is (for cycles)
                        self.note_call(sym.name, field.span)
                        if mutable:
                            self.error("E308", f"stat '{sym.name}' is worked out by the rules "
                                               "and cannot be changed", field.span,
                                       hint="change what it is worked out from, or keep what "
                                            "changes in a counter")
                    return (Type("enum", stat.type.name)
                            if isinstance(stat.type, nodes.Ident) else NUMBER)
                trait = cast(nodes.TraitDecl, sym.decl)
                if mutable:
                    kind = "counter" if trait.param else "flag"
                    self.error("E308", f"trait '{sym.name}' cannot be changed during play",
                               field.span, hint=f"keep what changes in a {kind}, as in: "
                                                + ("counter Wounds on fighter" if trait.param
                                                   else "flag Enraged on fighter"))
                    return ANY
                if not trait.param:
                    self.error("E204", f"trait '{sym.name}' carries no number", field.span,
                               hint=f"ask whether a fighter has it: f has {sym.name}")
                    return ANY
                return NUMBER
        if owner == "fighter" and name in UNIT_FIELDS:   # units of several models
            return self.unit_field(field, mutable)
        if name not in self.unreadable:
            hint = self.suggest(name, candidates)
            elsewhere = next((s for s in self.table.globals.values() if s.kind in (
                "flag", "counter") and s.name.lower() == name.lower()), None)
            if elsewhere is not None:  # kept on the other owner
                self.used.add(elsewhere.name)
                hint = f"'{elsewhere.name}' is kept on each side, not on each fighter: write " \
                       f"{who or 'f'}.side.{elsewhere.name}" if owner == "fighter" else \
                    f"'{elsewhere.name}' is kept on each fighter, not on the side"
            self.error("E203", f"a {owner} has no field '{name}'", field.span, hint=hint)
        return ANY

    def call(self, e: nodes.Call, scope: Scope) -> Type:
        name = e.callee.name
        if name in GAME_FUNCTIONS and self.table.globals.get(name) is None:
            return self.game_call(e, scope)
        if name in BUILTIN_FUNCTIONS:
            arity = BUILTIN_FUNCTIONS[name]
            if (arity is None and len(e.args) < 1) or (arity is not None and len(e.args) != arity):
                self.error("E301", f"'{name}' takes {arity or 'one or more'} argument"
                                   f"{'s' if arity != 1 else ''}, not {len(e.args)}", e.span)
            random = False
            for arg in e.args:
                t = self.expr(arg, scope)
                if not numeric(t):
                    self.error("E302", f"'{name}' needs numbers, but this is {t}", arg.span)
                random |= t.random
            return NUMBER.rolled(random)
        sym = self.lookup(name)
        if sym is None and name in POOL_QUESTIONS:
            return self.pool_question(e, scope)
        if sym is None and name == DIE_FUNCTION and name not in scope.locals:
            return self.die_call(e, scope)
        if sym is None:   # (a zone role per side is called too, where a ruleset has any)
            roles = ("zone role",) if self.table.names_of_kind("zone role") else ()
            self.unknown(e.callee, ("table", "define", "procedure") + roles)
            for arg in e.args:
                self.expr(arg, scope)
            return ANY
        if sym.kind == "zone role":   # zones the ruleset can name: own_edge(f.side)
            return self.role_call(e, cast(nodes.ZoneRoleDecl, sym.decl), scope)
        if sym.kind in ("procedure", "action", "phase"):
            self.error("E302", f"{KIND_WORDS[sym.kind]} can only be called on its own",
                       e.span, hint=f"let x = {name}(...), then use x")
            return ANY
        if sym.kind not in ("table", "define"):
            self.error("E204", f"'{name}' is {KIND_WORDS[sym.kind]} and cannot be called",
                       e.callee.span, hint=kind_hint(sym, scope))
            return ANY
        self.note_call(name, e.span)
        self.arguments(e, cast("nodes.TableDecl | nodes.DefineDecl", sym.decl).params, scope,
                       sym.kind)
        random = any(self.expr_types.get(id(a), NUMBER).random for a in e.args)
        result = (self.table_type(cast(nodes.TableDecl, sym.decl)) if sym.kind == "table"
                  else self.define_type(cast(nodes.DefineDecl, sym.decl)))
        return result.rolled(random)

    def die_call(self, e: nodes.Call, scope: Scope) -> Type:
        """`d(n)`: one die of n sides, n worked out as the rules run (a whole number, 1 to
        MAX_SIDES, checked when it is rolled)."""
        if len(e.args) != 1:
            self.error("E301", f"'d' takes one argument, the number of sides, not {len(e.args)}",
                       e.span, hint="as in: d(f.Quality); several such dice: d(n) + d(n)")
        for arg in e.args:
            t = self.expr(arg, scope)
            self.expect(NUMBER, t, arg.span, "the number of sides")
        return DICE

    # dice pools: total(p), highest(p), lowest(p), size(p) of a pool kept by `let p = pool 3d6`
    def pool_question(self, e: nodes.Call, scope: Scope) -> Type:
        name = e.callee.name
        if len(e.args) != 1:
            self.error("E301", f"'{name}' takes one argument, a pool of dice, not "
                               f"{len(e.args)}", e.span,
                       hint=f"as in: {name}(shots), after let shots = pool 3d6")
        for i, arg in enumerate(e.args):
            t = self.expr(arg, scope)
            if i == 0 and t.kind not in ("pool", "any"):
                group = f"; over a group: {name}(f.X for f in group)" \
                    if name != "size" else ""
                self.error("E302", f"'{name}(...)' asks a pool of dice, not {t}", arg.span,
                           hint=f"keep a roll as a pool to ask it: let shots = pool 3d6, then "
                                f"{name}(shots){group}")
        return NUMBER.rolled(True)

    # ---- whole-file checks ----------------------------------------------------------------------------
