"""Rules expressions as Python source: the first half of the generator (program.py).

An expression becomes a Python expression over the generated function's locals, the World in
`world` and the interpreter in `I`. What the generator knows about a name (a fighter, a side, a
row of a table) lets a field be read straight from the World; definitions whose arguments are
names or constants are put in place of their calls.
"""

from __future__ import annotations

from typing import cast

from warband.lang import nodes
from warband.lang.absence import means_nobody
from warband.lang.symbols import DIE_FUNCTION, GAME_FUNCTIONS, POOL_QUESTIONS
from warband.run import budget, decks, weapons
from warband.run.codegen import runtime as rt
from warband.run.codegen import taps
from warband.run.evaluate import BUILTINS, COMPARE

_OPS = {">=": ">=", "<=": "<=", ">": ">", "<": "<", "==": "==", "!=": "!="}


# A run's changes go to a Draft of the World, made at the first change (see codegen_runtime).
DRAFT = "(world if type(world) is _Draft else _draft(world))"


class Unsupported(Exception):
    """A construct this module does not translate: its procedure runs through the interpreter."""


def mangle(name: str) -> str:
    """A rules name as a Python identifier, injectively: letters and digits stay, every other
    character (the underscore included) becomes _HEX_."""
    return "".join(c if c.isascii() and c.isalnum() else f"_{ord(c):x}_" for c in name)


class Scope:
    """The locals of one generated function: rules name -> Python name, and which are bound on
    every path reaching the current point."""

    def __init__(self, names: dict[str, str], bound: set[str], thunks: frozenset = frozenset(),
                 kinds: dict | None = None):
        self.names, self.bound, self.thunks = names, bound, thunks
        # What a name surely holds, for names bound once: "fighter" or "side" (a Ref of that
        # kind), or ("record", table). Arguments are checked on entry (see Program._bind) and
        # between rules the checker's types hold, so a field can be read without asking.
        self.kinds = {} if kinds is None else kinds

    def with_bound(self, bound: set[str]) -> "Scope":
        return Scope(self.names, bound, self.thunks, self.kinds)


class ExpressionWriter:
    """Generates one module: functions as lines of text, constants as namespace entries."""

    def __init__(self, program) -> None:   # program: codegen.Program
        self.program = program
        self.stable: set[str] = set()    # names bound in one place only, in this function
        self.depth = 0                   # definitions being inlined
        self.budget = 80                 # statements of procedures it may still inline
        self.unbound_reads: set[str] = set()   # locals read where they may be unbound
        # A fighter parameter bound once -> the local its side's number is read into on entry
        # (a fighter never changes side; the Fate decisions ask it again and again); the ones
        # the function reads
        self.side_locals: dict[str, str] = {}
        self.sides_read: set[str] = set()
        # Where a `return` goes: None in a procedure's own function (return value, world); the
        # name of the result variable inside a procedure inlined for its value (then `break`).
        self.ret: str | None = None
        self.ruleset = program.ruleset
        self.namespace = program.namespace
        self.consts = program.consts     # shared by all the program's functions
        self.temp = 0

    def const(self, value, hint: str = "k") -> str:
        found = self.consts.get(id(value))
        if found is None:
            found = self.consts[id(value)] = f"_{hint}{len(self.consts)}"
            self.namespace[found] = value
        return found

    def fresh(self, hint: str) -> str:
        self.temp += 1
        return f"_{hint}{self.temp}"

    # ---- expressions ---------------------------------------------------------------------------
    def literal(self, v) -> str:
        if type(v) in (int, str, bool):
            return repr(v)
        return self.const(v)

    def name(self, n: str, scope: Scope) -> str:
        py = scope.names.get(n)
        if py is None:
            if n == "sides":
                return "_all_sides(world)"
            if n == "fighters":   # every fighter in play
                return "_in_play(world)"
            if n in self.program.global_names:   # a scenario's side: one Ref all game long
                return self.const(self.program.named_sides[n], "s")
            if means_nobody(self.program.ruleset, n):   # no side, no fighter (lang/absence.py)
                return "None"
            if n in self.ruleset.decks:   # a deck per game (run/decks.py)
                return self.const(decks.handle(self.ruleset, n), "d")
            zone = self.ruleset.role_zones.get(n)
            if type(zone) is str:   # zones the ruleset can name: the scenario's zone
                return repr(zone)
            return repr(n)   # a class, tier, enum value or outcome: symbols are their names
        if n not in scope.bound:
            self.unbound_reads.add(py)
            return f"({py} if {py} is not _UNB else {n!r})"
        if n in scope.thunks:   # a dice parameter: a closure that rolls, or a plain value
            return f"({py}(world) if type({py}) is _Fn else {py})"
        return py

    def kind(self, e, scope: Scope):
        """What an expression surely gives: "fighter", "side", ("record", table) or None."""
        t = type(e)
        if t is nodes.Name:
            if e.name in scope.names:
                return scope.kinds.get(e.name)
            return "side" if e.name in self.program.global_names and e.name != "sides" else None
        if t is nodes.Field and e.field.name == "side" and self.kind(e.subject, scope) == "fighter":
            return "side"
        if t is nodes.IfExpr:
            then = self.kind(e.then, scope)
            same = then in ("fighter", "side") and then == self.kind(e.otherwise, scope)
            return then if same else None
        if t is nodes.Call and e.callee.name in self.ruleset.tables and \
                e.callee.name not in BUILTINS:
            table = self.ruleset.tables[e.callee.name]
            if len(table.columns) > 1:
                return ("record", table)
        return None

    def side_index(self, e, scope: Scope) -> str:
        """The index of the side an expression of kind "side" gives."""
        if type(e) is nodes.Field and e.field.name == "side":   # a fighter's side, by its number
            return self.fighter_side(self.expr(e.subject, scope))
        return f"{self.expr(e, scope)}[1]"

    def fighter_side(self, sub: str) -> str:
        """The number of the side of the fighter that the Python expression `sub` holds."""
        local = self.side_locals.get(sub)
        if local is None:
            return f"world.fighters[{sub}[1]].side"
        self.sides_read.add(sub)
        return local

    def field(self, e: nodes.Field, scope: Scope) -> str:
        """A field read, straight from the World when the subject's kind is known."""
        name, sub = e.field.name, self.expr(e.subject, scope)
        if type(e.subject) is nodes.Field and e.subject.field.name in ("holder", "carrier"):
            # pieces as values: a piece's holder or carrier may be nobody (E510 on a read)
            sub = f"_someone({sub}, {self.const(e.subject, 'n')})"
        kind, lower = self.kind(e.subject, scope), e.field.name.lower()
        program = self.program
        found = program.fighter_fields.get(lower)
        if found is not None and found[0] == "derived" and type(kind) is not tuple:
            # a derived stat is worked out by the interpreter (a fixed value: no dice drawn)
            if kind == "fighter":
                return f"I.derived_stat({sub}, {found[1]!r}, world)"
            return f"I.field({sub}, {name!r}, world)"
        if kind == "fighter":
            f = f"world.fighters[{sub}[1]]"
            if name == "side":
                return f"_SIDE_REFS[{self.fighter_side(sub)}]"
            if name in ("class", "tier", "name", "removed", "equipment"):
                return f"{f}.{'fighter_class' if name == 'class' else name}"
            if name in ("enemies", "friends"):   # (before declared fields, as the interpreter)
                return f"_around(world, {sub}[1], {name == 'enemies'})"
            found = program.fighter_fields.get(lower)
            if found is not None and found[0] == "value":
                return f"{f}.values[{found[1]!r}]"
        elif kind == "side":
            side = self.side_index(e.subject, scope)
            if name == "fighters":
                return f"_side_fighters(world, {side})"
            if name in ("casualties", "withdrawn", "opponents"):
                return f"_side_groups[{name!r}](world, {side})"
            if lower in program.side_fields:
                return f"world.sides[{side}].values[{program.side_fields[lower]!r}]"
        elif type(kind) is tuple:
            columns = [c.name for c in kind[1].columns]
            if name in columns:
                return f"{sub}.values[{columns.index(name)}]"
        return f"{program.getter('field', name)}({sub}, world)"

    def expr(self, e, scope: Scope, raw: bool = False) -> str:  # noqa: C901 - one per kind
        """Python for an expression. raw: the caller only compares the value or does more
        arithmetic on it, so a whole Fraction need not be made an int here (norm)."""
        t = type(e)
        if t is nodes.Int or t is nodes.Str or t is nodes.Bool:
            return self.literal(e.value)
        if t is nodes.Name:
            return self.name(e.name, scope)
        if t is nodes.Field:
            if self.ruleset.profiles and weapons.profile_name(self.ruleset, e.field.name):
                return self.profile_field(e, scope)   # weapon profiles
            return self.field(e, scope)
        if t is nodes.Binary:
            if e.op == "/":   # _div gives the same value for a whole Fraction as for an int
                a, b = self.expr(e.left, scope, True), self.expr(e.right, scope, True)
                if _whole_not_zero(e.right):   # (effective_might: `/ (if stunned 2 else 1)`)
                    return f"_div_whole({a}, {b})"
                return f"_div({a}, {b}, {self.const(e, 'n')})"
            if e.op == "%":   # the remainder: E502 for a divisor of 0, as '/'
                a, b = self.expr(e.left, scope, True), self.expr(e.right, scope, True)
                return f"_mod({a}, {b}, {self.const(e, 'n')})"
            if e.op not in ("+", "-", "*"):
                raise Unsupported(f"operator {e.op}")
            if not raw and e.op != "*" and (type(e.left) is nodes.Int or
                                            type(e.right) is nodes.Int):
                # a whole number added to a normal value (an int, or a Fraction that is not
                # whole) leaves it normal: `Fate - 1` needs no norm (a product may need one)
                return f"({self.expr(e.left, scope)} {e.op} {self.expr(e.right, scope)})"
            a, b = self.expr(e.left, scope, True), self.expr(e.right, scope, True)
            return f"({a} {e.op} {b})" if raw else f"_norm({a} {e.op} {b})"
        if t is nodes.Compare:
            if e.op in ("==", "!=") and self.kind(e.left, scope) == "side" == \
                    self.kind(e.right, scope):   # two sides: their numbers are enough
                return (f"({self.side_index(e.left, scope)} {_OPS[e.op]} "
                        f"{self.side_index(e.right, scope)})")
            if self.program.taps_rolls:   # a recorded game: a later test of a roll (taps.py)
                told = taps.test(self, e, scope)
                if told is not None:
                    return told
            return (f"({self.expr(e.left, scope, True)} {_OPS[e.op]} "
                    f"{self.expr(e.right, scope, True)})")
        if t is nodes.Logic:
            return _logic(e.op, [self.expr(i, scope) for i in e.items])
        if t is nodes.Not:
            operand = self.expr(e.operand, scope)
            if operand in ("True", "False"):   # a constant argument put in place
                return "False" if operand == "True" else "True"
            return f"(not {operand})"
        if t is nodes.Neg:
            return f"(-{self.expr(e.operand, scope)})"
        if t is nodes.IfExpr:
            return (f"({self.expr(e.then, scope)} if {self.expr(e.condition, scope)} "
                    f"else {self.expr(e.otherwise, scope)})")
        if t is nodes.Has and (e.name.name not in self.ruleset.traits and
                               e.name.name not in self.ruleset.equipment or
                               e.name.name in self.program.weapon_traits):
            return self.weapon_has(e, scope)   # weapon profiles
        if t is nodes.Has:
            sub = self.expr(e.subject, scope)
            if self.kind(e.subject, scope) == "fighter":
                if e.name.name in self.ruleset.equipment:
                    return f"({e.name.name!r} in world.fighters[{sub}[1]].equipment)"
                # Interpreter.has: `v is True or (v is not False and v != 0)`, which is v != False
                return f"(world.fighters[{sub}[1]].traits.get({e.name.name!r}, False) != False)"
            return f"{self.program.getter('has', e.name.name)}({sub}, world)"
        if t is nodes.Is:
            return f"_is({self.expr(e.subject, scope)}, {e.name.name!r}, world)"
        if t is nodes.Call:
            return self.call(e, scope)
        if t is nodes.Dice:
            return self.dice(e, scope)
        if t is nodes.Count and type(e.pool) is not nodes.Dice:   # dice pools: a kept roll
            bound = self.expr(e.predicate.value, scope) \
                if type(e.predicate) is nodes.PredCompare else "None"
            return f"_pool_count({self.expr(e.pool, scope)}, {self.const(e.predicate, 'n')}, " \
                   f"{bound})"
        if t is nodes.Count:
            pool = e.pool
            if type(pool) is not nodes.Dice:
                raise Unsupported("count of a pool that is not dice")
            if self.program.taps_rolls:   # a recorded game's rolls (taps.py)
                if pool.rolled_by is not None:   # (who rolls it: told by the interpreter)
                    raise Unsupported("a roll rolled by someone, in a recorded game")
                return taps.count(self, e, scope)
            return (f"_count(I, {self.const(e, 'n')}, {self.expr(pool.count, scope)}, "
                    f"{self.predicate(e.predicate, pool.sides, scope)}, "
                    f"{self.reroll(pool, scope)})")
        if t is nodes.Aggregate and e.kind.name == "all" and type(e.value) is nodes.Name and \
                e.value.name == e.var.name:   # (the checker allows only this form of all: E302)
            inner, py = self.member_scope(e, scope)
            cond = f" if ({self.expr(e.condition, inner)}) is True" \
                if e.condition is not None else ""
            return self.counted(e, f"tuple([{py} for {py} in {self.weighed(e, scope)}{cond}])")
        if t is nodes.Aggregate:
            if e.kind.name not in ("total", "highest", "lowest", "all", "any", "count"):
                raise Unsupported(f"aggregate {e.kind.name}")
            inner, py = self.member_scope(e, scope)
            member = inner.kinds.get(e.var.name)
            cond = f" if {self.expr(e.condition, inner)}" if e.condition is not None else ""
            if e.kind.name == "count" and type(e.value) is nodes.Name and \
                    e.value.name == e.var.name:   # count(x for x in group if C): the members
                return self.counted(e, f"len([1 for {py} in {self.weighed(e, scope)}{cond}])")
            if e.kind.name in ("all", "any", "count"):   # a question asked of every member
                # (each asked, as the interpreter asks each: a question that rolls draws alike)
                value = self.expr(e.value, inner)
                if e.kind.name == "count":
                    return self.counted(e, f"len([1 for {py} in {self.weighed(e, scope)}{cond} "
                                           f"if {value}])")
                asked = f"[{value} for {py} in {self.weighed(e, scope)}{cond}]"
                return self.counted(e, f"(True in {asked})" if e.kind.name == "any" else
                                    f"(False not in {asked})")
            if e.kind.name == "total" and type(e.value) is nodes.Int and e.value.value == 1:
                # a count (`total(1 for f in side.fighters)`, asked every turn); a group of
                # known members is a tuple of them, counted as it is
                if member is not None and not cond:   # (its members counted, each a step)
                    return f"len({self.weighed(e, scope)})"
                return self.counted(e, f"len([1 for {py} in {self.weighed(e, scope)}{cond}])")
            value = self.expr(e.value, inner)
            return self.counted(e, f"_aggregate({e.kind.name!r}, [{value} for {py} in "
                                   f"{self.weighed(e, scope)}{cond}])")
        if t is nodes.Within:
            return f"_within(world, {self.expr(e.of, scope)}, {self.expr(e.distance, scope)})"
        if t is nodes.Under:   # areas and templates (run/areas.py)
            if e.subject is None:
                return f"_under(world, {self.expr(e.area, scope)})"
            return f"_is_under(world, {self.expr(e.subject, scope)}, {self.expr(e.area, scope)})"
        if t is nodes.TupleExpr:   # several values at once, returned together
            return "(" + "".join(f"{self.expr(i, scope)}, " for i in e.items) + ")"
        raise Unsupported(f"expression {t.__name__}")

    # ---- weapon profiles: a piece's values and own traits, and `f has w` ------------------------
    def profile_field(self, e: nodes.Field, scope: Scope) -> str:
        profile = cast(str, weapons.profile_name(self.ruleset, e.field.name))
        table = self.program.profile_tables.get(profile)
        if table is None:
            table = self.program.profile_tables[profile] = weapons.profile_table(self.ruleset,
                                                                                  profile)
        if type(self.kind(e.subject, scope)) is tuple:   # a row of a table: a column
            return self.field(e, scope)
        read = self.program.profile_reads.get(e.field.name)
        if read is None:   # (a table's column may share the name: fields ignore case)
            read = self.program.profile_reads[e.field.name] = weapons.profile_or_field(
                table, self.namespace[self.program.getter("field", e.field.name)])
        return f"{self.const(read, 'p')}({self.expr(e.subject, scope)}, world)"

    def weapon_has(self, e: nodes.Has, scope: Scope) -> str:
        sub, name = self.expr(e.subject, scope), e.name.name
        if name not in self.ruleset.traits:   # `f has w`: the fighter carries the piece w holds
            # (or has the trait it holds: traits as values, `f has t` for t in f.traits)
            held = self.name(name, scope)
            pieces = self.const(frozenset(self.ruleset.equipment), "s")
            return (f"(({held} in world.fighters[{sub}[1]].equipment) if {held} in {pieces} "
                    f"else _holds(I, {sub}, {held}, world))")
        if self.kind(e.subject, scope) == "fighter":
            return f"(world.fighters[{sub}[1]].traits.get({name!r}, False) != False)"
        has = self.program.weapon_has.get(name)
        if has is None:
            has = self.program.weapon_has[name] = weapons.has_either(
                self.namespace[self.program.getter("has", name)], self.program.piece_traits,
                name)
        return f"{self.const(has, 'h')}({sub}, world)"

    def weighed(self, e: nodes.Aggregate, scope: Scope) -> str:
        """An aggregate's group, its members counted against the budget of work as the
        interpreter counts them (budget.py): a step each, and the calls each makes."""
        cost = budget.turn_cost(self.ruleset, e)
        return f"_members(I, {self.expr(e.group, scope)}, {self.const(e, 'n')}, {cost})"

    def counted(self, e: nodes.Aggregate, code: str) -> str:
        """An aggregate that weighs other groups: an evaluation of its own outside any run,
        as the interpreter counts it (budget.evaluation)."""
        if budget.weighs_more(e, self.ruleset):
            return f"_evaluation(I, lambda: {code})"
        return code

    def member_scope(self, e: nodes.Aggregate, scope: Scope) -> tuple[Scope, str]:
        """The scope inside an aggregate (its variable bound, and known to hold a fighter or
        a side when its group surely does), and the variable's Python name."""
        var = e.var.name
        kinds = {k: v for k, v in scope.kinds.items() if k != var}
        member = self.members(e.group, scope)
        if member is not None:
            kinds[var] = member
        inner = Scope({**scope.names, var: "a_" + mangle(var)}, scope.bound | {var},
                      scope.thunks - {var}, kinds)
        return inner, inner.names[var]

    def members(self, group, scope: Scope) -> str | None:
        """What a group surely holds: "fighter" or "side" Refs (fighters within, a side's
        fighters, every side, a side's opponents, those of them that `all(...)` keeps...), or
        None when that is not known."""
        t = type(group)
        if t is nodes.Within or (t is nodes.Under and group.subject is None):
            return "fighter"
        if t is nodes.Aggregate and group.kind.name == "all" and \
                type(group.value) is nodes.Name and group.value.name == group.var.name:
            return self.members(group.group, scope)
        if t is nodes.Name:
            if group.name in scope.names:
                return None
            return {"sides": "side", "fighters": "fighter"}.get(group.name)
        if t is nodes.Field:
            name, kind = group.field.name, self.kind(group.subject, scope)
            if kind == "side":
                if name in ("fighters", "casualties", "withdrawn"):
                    return "fighter"
                return "side" if name == "opponents" else None
            if kind == "fighter" and name in ("enemies", "friends"):
                return "fighter"
        return None

    def call(self, e: nodes.Call, scope: Scope) -> str:
        name = e.callee.name
        args = ", ".join(self.expr(a, scope) for a in e.args)
        if name in GAME_FUNCTIONS and name not in self.ruleset.tables and \
                name not in self.ruleset.defines and name not in self.ruleset.procedures:
            return f"I.board.{name}({args}, world)"   # name: one of GAME_FUNCTIONS (board_view)
        if name in BUILTINS:
            return f"_norm({self.const(BUILTINS[name], 'b')}({args}))"
        if name in self.ruleset.tables:
            table = self.ruleset.tables[name]
            if self.program.pure(table):
                # its rows read only their arguments and roll nothing: the interpreter's cache
                # of looked-up rows cannot be told from looking up again
                rest = f", {args}" if args else ""
                return f"t_{mangle(name)}(I, world, {self.const(e, 'n')}{rest})"
            packed = f"({args},)" if e.args else "()"
            return (f"_lookup(I, {self.const(table, 'n')}, {packed}, {self.const(e, 'n')}, "
                    f"world, t_{mangle(name)})")
        if name in POOL_QUESTIONS and name not in self.ruleset.defines:   # dice pools
            return f"_pool_ask({name!r}, {args})"
        if name == DIE_FUNCTION and name not in self.ruleset.defines:   # d(n): n sides
            if self.program.taps_rolls:   # a recorded game's roll: the interpreter labels it
                raise Unsupported("d(n) in a recorded game")
            return f"_die(I, {self.const(e, 'n')}, {args})"
        if name in self.ruleset.defines:
            inline = self.inline(self.ruleset.defines[name], e.args, scope)
            if inline is not None:
                return inline
            return f"d_{mangle(name)}(I, world{', ' if args else ''}{args})"
        if name in self.ruleset.zone_roles:   # zones the ruleset can name: own_edge(s)
            zones = self.ruleset.role_zones.get(name)
            return f"{self.const(zones, 'z')}[({args}).index]" if zones else repr(name)
        raise Unsupported(f"call of {name} inside an expression")

    def inline(self, decl: nodes.DefineDecl, args, scope: Scope) -> str | None:
        """A definition's body in place of the call, when every argument is a bound name or a
        constant: nothing is evaluated twice or in another order, and a call is saved."""
        if self.depth >= 4 or len(args) != len(decl.params) or _has_aggregate(decl.body):
            return None
        names = {}
        for p, a in zip(decl.params, args):
            t = type(a)
            if t in (nodes.Int, nodes.Str, nodes.Bool):
                names[p.name.name] = self.literal(a.value)
            elif t is nodes.Name and a.name not in scope.names:
                # a symbol is its name; a scenario's side or `sides` is what name() makes of it
                names[p.name.name] = self.name(a.name, scope)
            elif t is nodes.Name and a.name in scope.bound and a.name not in scope.thunks:
                names[p.name.name] = scope.names[a.name]
            else:
                return None
        inner = Scope(names, set(names), kinds=param_kinds(decl.params))
        self.depth += 1
        try:
            return self.expr(decl.body, inner)
        except Unsupported:
            return None
        finally:
            self.depth -= 1

    def reroll(self, pool: nodes.Dice, scope: Scope) -> str:
        for mod in pool.mods:
            if type(mod) is nodes.RerollMod:
                return self.predicate(mod.predicate, pool.sides, scope)
            if type(mod) is not nodes.KeepMod:
                raise Unsupported(f"dice modifier {type(mod).__name__}")
        return "None"

    def predicate(self, pred, sides: int, scope: Scope) -> str:
        faces = range(1, sides + 1)
        t = type(pred)
        if t is nodes.PredEven:
            return self.const(frozenset(f for f in faces if f % 2 == 0), "s")
        if t is nodes.PredOdd:
            return self.const(frozenset(f for f in faces if f % 2 == 1), "s")
        if t is nodes.PredSet:
            return self.const(frozenset(pred.values), "s")
        if t is nodes.PredCompare:
            return (f"_faces({self.const(COMPARE[pred.op], 'c')}, {sides}, "
                    f"{self.expr(pred.value, scope)})")
        raise Unsupported(f"predicate {t.__name__}")

    def dice(self, e: nodes.Dice, scope: Scope) -> str:
        if self.program.taps_rolls:   # a recorded game's rolls (taps.py)
            if e.rolled_by is not None:   # (who rolls it: told by the interpreter)
                raise Unsupported("a roll rolled by someone, in a recorded game")
            return taps.dice(self, e, scope)
        reroll = self.reroll(e, scope)
        if e.pool:   # dice pools: each die drawn, its face kept
            return f"_pool_roll(I, {self.const(e, 'n')}, {self.expr(e.count, scope)}, {reroll})"
        if type(e.count) is nodes.Int and reroll == "None":
            try:
                dist = rt.pool_dist(e, e.count.value, None)
            except Exception:   # the error is raised when the roll is made, as the interpreter does
                dist = None
            if dist is not None:
                if len(dist) == 1:
                    return self.literal(dist.only())   # Dist.sample draws no number for it
                # Dist.sample inlined: one number below the total weight, found in the
                # cumulative weights of the outcomes in order
                values, cdf = dist.cumulative()
                if cdf[-1] <= _WHOLE_TABLE:   # every number's outcome: one look-up (4D6: 1296)
                    table = [v for v, upto, last in zip(values, cdf, [0, *cdf[:-1]])
                             for _ in range(upto - last)]
                    return f"{self.const(table, 'T')}[_below(I.rng, {cdf[-1]})]"
                return (f"{self.const(values, 'V')}[_bisect({self.const(cdf, 'C')}, "
                        f"_below(I.rng, {cdf[-1]}))]")
        return f"_roll(I, {self.const(e, 'n')}, {self.expr(e.count, scope)}, {reroll})"

    # ---- statements ------------------------------------------------------------------------------


# A fixed roll whose total weight is at most this is drawn from a table of the outcome of every
# number below it (bisecting the cumulative weights gives the same outcome, a call later).
_WHOLE_TABLE = 4096


def _logic(op: str, items: list[str]) -> str:
    """`a and b ...` / `a or b ...` of generated operands, with the constants that a
    procedure's arguments put in place folded away: `True and x` is x, `False and x` is
    False; the last operand stays (it is the value when the others let it through)."""
    stop, skip = ("False", "True") if op == "and" else ("True", "False")
    kept: list[str] = []
    for i, item in enumerate(items):
        if item == stop:
            if not kept:
                return stop
            kept.append(item)
            break
        if item != skip or i == len(items) - 1:
            kept.append(item)
    if len(kept) == 1:
        return kept[0]
    return "(" + f" {op} ".join(kept) + ")"


def _whole_not_zero(e) -> bool:
    """Whether an expression is surely a whole number other than 0 (a divisor that needs no
    check)."""
    if type(e) is nodes.Int:
        return e.value != 0
    if type(e) is nodes.IfExpr:
        return _whole_not_zero(e.then) and _whole_not_zero(e.otherwise)
    return False


def _has_aggregate(node) -> bool:
    if type(node) is nodes.Aggregate:
        return True
    if isinstance(node, tuple):
        return any(_has_aggregate(x) for x in node)
    if hasattr(node, "__dataclass_fields__"):
        return any(_has_aggregate(getattr(node, f)) for f in node.__dataclass_fields__
                   if f != "span")
    return False


def param_kinds(params) -> dict:
    """Parameters declared `fighter` or `side`: their kind, for Scope.kinds."""
    return {p.name.name: p.type.name for p in params
            if p.type is not None and p.type.name in ("fighter", "side")}
