"""Rules translated to Python source, for fast sampling.

The interpreter runs statements in continuation-passing style, which exact odds and look-ahead
need; a sampled run follows one path, and direct-style Python does that many times faster. Each
procedure, action and phase, define, table and `requires` of a Ruleset becomes one Python
function, generated here as text, compiled once per Ruleset and cached (`program_for`).

The generated code makes the same draws from the interpreter's random streams in the same order,
the same decisions and the same errors as `Interpreter.sample`: a roll bound by `let` is drawn at
the `let` (sampling mode evaluates at once), a `dice` parameter is a Thunk rolled at each read,
names not bound on a path read as their own name (symbols), table results are cached in the
interpreter's own cache. Where it cannot match the interpreter it does not try: a procedure with a
construct this module does not know runs through the interpreter (`Program.fallbacks` names it),
and so does any run under the greedy policy (look-ahead needs the continuations) or while probing.

Safety: no name from a rules file becomes a Python identifier unescaped (`mangle`), string
constants are written with repr, and anything else (AST nodes, distributions) is passed in the
function's namespace, never as source text.
"""

from __future__ import annotations

import bisect
import sys
import weakref

from warband import ast
from warband import codegen_runtime as rt
from warband.dice import Dist
from warband.evaluate import BUILTINS, COMPARE, Record, Thunk, norm
from warband.world import Ref

__all__ = ["Program", "program_for", "mangle", "sample", "allowed"]


# A run's changes go to a Draft of the World, made at the first change (see codegen_runtime).
_DRAFT = "(world if type(world) is _Draft else _Draft(world))"


class Unsupported(Exception):
    """A construct this module does not translate: its procedure runs through the interpreter."""


def mangle(name: str) -> str:
    """A rules name as a Python identifier, injectively: letters and digits stay, every other
    character (the underscore included) becomes _HEX_."""
    return "".join(c if c.isascii() and c.isalnum() else f"_{ord(c):x}_" for c in name)


_OPS = {">=": ">=", "<=": "<=", ">": ">", "<": "<", "==": "==", "!=": "!="}


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


class Writer:
    """Generates one module: functions as lines of text, constants as namespace entries."""

    def __init__(self, program: "Program", interpreted: frozenset) -> None:
        self.program = program
        self.interpreted = interpreted   # procedures the interpreter runs
        self.stable: set[str] = set()    # names bound in one place only, in this function
        self.depth = 0                   # definitions being inlined
        self.inlines = 0                 # procedures inlined in this module (for their names)
        self.unbound_reads: set[str] = set()   # locals read where they may be unbound
        # Where a `return` goes: None in a procedure's own function (return value, world); the
        # name of the result variable inside a procedure inlined for its value (then `break`).
        self.ret: str | None = None
        self.ruleset = program.ruleset
        self.namespace = program.namespace
        self.consts: dict[int, str] = {}
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
        if t is ast.Name:
            return scope.kinds.get(e.name) if e.name in scope.names else None
        if t is ast.Field and e.field.name == "side" and self.kind(e.subject, scope) == "fighter":
            return "side"
        if t is ast.Call and e.callee.name in self.ruleset.tables and \
                e.callee.name not in BUILTINS:
            table = self.ruleset.tables[e.callee.name]
            if len(table.columns) > 1:
                return ("record", table)
        return None

    def side_index(self, e, scope: Scope) -> str:
        """The index of the side an expression of kind "side" gives."""
        if type(e) is ast.Field and e.field.name == "side":   # a fighter's side, by its number
            return f"world.fighters[{self.expr(e.subject, scope)}[1]].side"
        return f"{self.expr(e, scope)}[1]"

    def field(self, e: ast.Field, scope: Scope) -> str:
        """A field read, straight from the World when the subject's kind is known."""
        name, sub = e.field.name, self.expr(e.subject, scope)
        kind, lower = self.kind(e.subject, scope), e.field.name.lower()
        program = self.program
        if kind == "fighter":
            f = f"world.fighters[{sub}[1]]"
            if name == "side":
                return f"_SIDE_REFS[{f}.side]"
            if name in ("class", "tier", "name", "removed"):
                return f"{f}.{'fighter_class' if name == 'class' else name}"
            found = program.fighter_fields.get(lower)
            if found is not None and found[0] == "value":
                return f"{f}.values[{found[1]!r}]"
        elif kind == "side" and lower in program.side_fields and name != "fighters":
            return f"world.sides[{self.side_index(e.subject, scope)}].values" \
                   f"[{program.side_fields[lower]!r}]"
        elif type(kind) is tuple:
            columns = [c.name for c in kind[1].columns]
            if name in columns:
                return f"{sub}.values[{columns.index(name)}]"
        return f"{program.getter('field', name)}({sub}, world)"

    def expr(self, e, scope: Scope, raw: bool = False) -> str:  # noqa: C901 - one per kind
        """Python for an expression. raw: the caller only compares the value or does more
        arithmetic on it, so a whole Fraction need not be made an int here (norm)."""
        t = type(e)
        if t is ast.Int or t is ast.Str or t is ast.Bool:
            return self.literal(e.value)
        if t is ast.Name:
            return self.name(e.name, scope)
        if t is ast.Field:
            return self.field(e, scope)
        if t is ast.Binary:
            if e.op == "/":   # _div gives the same value for a whole Fraction as for an int
                a, b = self.expr(e.left, scope, True), self.expr(e.right, scope, True)
                return f"_div({a}, {b}, {self.const(e, 'n')})"
            if e.op not in ("+", "-", "*"):
                raise Unsupported(f"operator {e.op}")
            a, b = self.expr(e.left, scope, True), self.expr(e.right, scope, True)
            return f"({a} {e.op} {b})" if raw else f"_norm({a} {e.op} {b})"
        if t is ast.Compare:
            return (f"({self.expr(e.left, scope, True)} {_OPS[e.op]} "
                    f"{self.expr(e.right, scope, True)})")
        if t is ast.Logic:
            joined = f" {'and' if e.op == 'and' else 'or'} ".join(
                self.expr(i, scope) for i in e.items)
            return f"({joined})"
        if t is ast.Not:
            return f"(not {self.expr(e.operand, scope)})"
        if t is ast.Neg:
            return f"(-{self.expr(e.operand, scope)})"
        if t is ast.IfExpr:
            return (f"({self.expr(e.then, scope)} if {self.expr(e.condition, scope)} "
                    f"else {self.expr(e.otherwise, scope)})")
        if t is ast.Has:
            sub = self.expr(e.subject, scope)
            if self.kind(e.subject, scope) == "fighter":
                if e.name.name in self.ruleset.equipment:
                    return f"({e.name.name!r} in world.fighters[{sub}[1]].equipment)"
                # Interpreter.has: `v is True or (v is not False and v != 0)`, which is v != False
                return f"(world.fighters[{sub}[1]].traits.get({e.name.name!r}, False) != False)"
            return f"{self.program.getter('has', e.name.name)}({sub}, world)"
        if t is ast.Is:
            return f"_is({self.expr(e.subject, scope)}, {e.name.name!r}, world)"
        if t is ast.Call:
            return self.call(e, scope)
        if t is ast.Dice:
            return self.dice(e, scope)
        if t is ast.Count:
            pool = e.pool
            if type(pool) is not ast.Dice:
                raise Unsupported("count of a pool that is not dice")
            return (f"_count(I, {self.const(e, 'n')}, {self.expr(pool.count, scope)}, "
                    f"{self.predicate(e.predicate, pool.sides, scope)}, "
                    f"{self.reroll(pool, scope)})")
        if t is ast.Aggregate:
            if e.kind.name not in ("total", "highest", "lowest"):
                raise Unsupported(f"aggregate {e.kind.name}")
            var = e.var.name
            kinds = {k: v for k, v in scope.kinds.items() if k != var}
            if self.fighters_in(e.group, scope):
                kinds[var] = "fighter"
            inner = Scope({**scope.names, var: "a_" + mangle(var)}, scope.bound | {var},
                          scope.thunks - {var}, kinds)
            py = inner.names[var]
            value = self.expr(e.value, inner)
            cond = f" if {self.expr(e.condition, inner)}" if e.condition is not None else ""
            return (f"_aggregate({e.kind.name!r}, [{value} for {py} in "
                    f"{self.expr(e.group, scope)}{cond}])")
        if t is ast.Within:
            return f"_within(world, {self.expr(e.of, scope)}, {self.expr(e.distance, scope)})"
        raise Unsupported(f"expression {t.__name__}")

    def fighters_in(self, group, scope: Scope) -> bool:
        """Whether a group surely holds fighters' Refs (fighters within, a side's fighters)."""
        return type(group) is ast.Within or (
            type(group) is ast.Field and group.field.name == "fighters"
            and self.kind(group.subject, scope) == "side")

    def call(self, e: ast.Call, scope: Scope) -> str:
        name = e.callee.name
        args = ", ".join(self.expr(a, scope) for a in e.args)
        if name in BUILTINS:
            return f"_norm({self.const(BUILTINS[name], 'b')}({args}))"
        if name in self.ruleset.tables:
            table = self.ruleset.tables[name]
            if self.program.pure(table):
                # its rows read only their arguments and roll nothing: the interpreter's cache
                # of looked-up rows cannot be told from looking up again
                return f"t_{mangle(name)}(I, world, {self.const(e, 'n')}{', ' if args else ''}{args})"
            packed = f"({args},)" if e.args else "()"
            return (f"_lookup(I, {self.const(table, 'n')}, {packed}, {self.const(e, 'n')}, "
                    f"world, t_{mangle(name)})")
        if name in self.ruleset.defines:
            inline = self.inline(self.ruleset.defines[name], e.args, scope)
            if inline is not None:
                return inline
            return f"d_{mangle(name)}(I, world{', ' if args else ''}{args})"
        raise Unsupported(f"call of {name} inside an expression")

    def inline(self, decl: ast.DefineDecl, args, scope: Scope) -> str | None:
        """A definition's body in place of the call, when every argument is a bound name or a
        constant: nothing is evaluated twice or in another order, and a call is saved."""
        if self.depth >= 4 or len(args) != len(decl.params) or _has_aggregate(decl.body):
            return None
        names = {}
        for p, a in zip(decl.params, args):
            t = type(a)
            if t in (ast.Int, ast.Str, ast.Bool):
                names[p.name.name] = self.literal(a.value)
            elif t is ast.Name and a.name not in scope.names:
                names[p.name.name] = repr(a.name)
            elif t is ast.Name and a.name in scope.bound and a.name not in scope.thunks:
                names[p.name.name] = scope.names[a.name]
            else:
                return None
        inner = Scope(names, set(names), kinds=Program._kinds(decl.params))
        self.depth += 1
        try:
            return self.expr(decl.body, inner)
        except Unsupported:
            return None
        finally:
            self.depth -= 1

    def reroll(self, pool: ast.Dice, scope: Scope) -> str:
        for mod in pool.mods:
            if type(mod) is ast.RerollMod:
                return self.predicate(mod.predicate, pool.sides, scope)
            if type(mod) is not ast.KeepMod:
                raise Unsupported(f"dice modifier {type(mod).__name__}")
        return "None"

    def predicate(self, pred, sides: int, scope: Scope) -> str:
        faces = range(1, sides + 1)
        t = type(pred)
        if t is ast.PredEven:
            return self.const(frozenset(f for f in faces if f % 2 == 0), "s")
        if t is ast.PredOdd:
            return self.const(frozenset(f for f in faces if f % 2 == 1), "s")
        if t is ast.PredSet:
            return self.const(frozenset(pred.values), "s")
        if t is ast.PredCompare:
            return (f"_faces({self.const(COMPARE[pred.op], 'c')}, {sides}, "
                    f"{self.expr(pred.value, scope)})")
        raise Unsupported(f"predicate {t.__name__}")

    def dice(self, e: ast.Dice, scope: Scope) -> str:
        reroll = self.reroll(e, scope)
        if type(e.count) is ast.Int and reroll == "None":
            try:
                dist = rt.pool_dist(e, e.count.value, None)
            except Exception:   # the error is raised when the roll is made, as the interpreter does
                dist = None
            if dist is not None:
                if len(dist) == 1:
                    return self.literal(dist.only())   # Dist.sample draws no number for it
                # Dist.sample inlined: one randrange below the total weight, found in the
                # cumulative weights of the outcomes in order
                dist.sample(_Probe())
                values, cdf = dist._cdf
                return (f"{self.const(values, 'V')}[_bisect({self.const(cdf, 'C')}, "
                        f"I.rng.randrange({cdf[-1]}))]")
        return f"_roll(I, {self.const(e, 'n')}, {self.expr(e.count, scope)}, {reroll})"

    # ---- statements ------------------------------------------------------------------------------
    def block(self, stmts, scope: Scope, out: list, pad: str) -> set[str]:
        """Lines for the statements; returns the names bound on every path through them."""
        bound = set(scope.bound)
        start = len(out)
        for stmt in stmts:
            bound = self.stmt(stmt, scope.with_bound(bound), out, pad)
        if len(out) == start:
            out.append(pad + "pass")
        return bound

    def procedure_call(self, call: ast.Call, scope: Scope) -> str:
        decl = self.ruleset.procedures[call.callee.name]
        args = []
        for i, arg in enumerate(call.args):
            p = decl.params[i] if i < len(decl.params) else None
            if p is not None and p.type is not None and p.type.name == "dice":
                # by name: each use in the callee rolls again, in the world of that use; a
                # generated callee takes a closure, an interpreted one the interpreter's Thunk
                if decl.name.name in self.interpreted:
                    args.append(f"_thunk(lambda _env, world: {self.expr(arg, scope)}, "
                                f"{self.const(arg, 'n')})")
                else:
                    args.append(f"(lambda world: {self.expr(arg, scope)})")
            else:
                args.append(self.expr(arg, scope))
        return f"p_{mangle(decl.name.name)}(I, world{''.join(', ' + a for a in args)})"

    def emit_return(self, out: list, pad: str, value: str | None = None,
                    call: str | None = None) -> None:
        """A `return` of a value (Python for it) or of a procedure call's (value, world)."""
        if self.ret is None:
            out.append(f"{pad}return {call}" if call else f"{pad}return ({value}, world)")
        else:
            out.append(f"{pad}{self.ret}, world = {call}" if call else f"{pad}{self.ret} = {value}")
            out.append(f"{pad}break")

    def call_site(self, call: ast.Call, scope: Scope, out: list, pad: str, mode: str,
                  target: str | None = None) -> None:
        """A procedure called by a statement: mode "let" (into target), "return" or "stmt".
        Small generated procedures are inlined (see inline_procedure); others are called."""
        decl = self.ruleset.procedures[call.callee.name]
        if self.can_inline(decl, call, mode):
            self.inline_procedure(decl, call, scope, out, pad, mode, target)
            return
        code = self.procedure_call(call, scope)
        if mode == "return":
            self.emit_return(out, pad, call=code)
        elif mode == "let":
            out.append(f"{pad}{target}, world = {code}")
        else:
            out.append(f"{pad}world = {code}[1]")

    def can_inline(self, decl, call: ast.Call, mode: str) -> bool:
        if decl.name.name in self.interpreted or self.depth >= 4 or \
                len(call.args) > len(decl.params) or _size(decl.body.stmts) > 60:
            return False
        bindings: list[str] = []
        _assigned_names(decl.body.stmts, bindings)
        if any(p.name.name in bindings for p in decl.params
               if p.type is not None and p.type.name == "dice"):
            return False   # a dice parameter set in the body: keep it a variable
        # inlined for its value, a `return` leaves the inlined body with `break`: not possible
        # from inside one of its loops
        return mode == "return" or not _returns_in_loop(decl.body.stmts, False)

    def inline_procedure(self, decl, call: ast.Call, scope: Scope, out: list, pad: str,
                         mode: str, target: str | None) -> None:
        """The callee's body in place of the call, its locals renamed. Arguments are evaluated
        in order as the interpreter does; a dice argument is put in place of each read of its
        parameter (read by name: it rolls again at each read, in the World of that read)."""
        self.inlines += 1
        prefix = f"_i{self.inlines}_"
        bindings = [p.name.name for p in decl.params]
        _assigned_names(decl.body.stmts, bindings)
        stable = {n for n in bindings if bindings.count(n) == 1}
        names = {n: prefix + mangle(n) for n in bindings}
        empty = Scope({}, set())
        for i, p in enumerate(decl.params):
            n = p.name.name
            if i >= len(call.args):
                out.append(f"{pad}{names[n]} = {self.expr(p.default, empty)}")
                continue
            arg = call.args[i]
            if p.type is not None and p.type.name == "dice":
                names[n] = f"({self.expr(arg, scope)})"
            elif n in stable and _simple(arg, scope):
                names[n] = self.expr(arg, scope)
            else:
                out.append(f"{pad}{names[n]} = {self.expr(arg, scope)}")
        kinds = {n: k for n, k in Program._kinds(decl.params).items() if n in stable}
        inner = Scope(names, {p.name.name for p in decl.params}, frozenset(), kinds)
        saved = self.stable, self.ret
        self.stable = stable
        self.depth += 1
        body: list[str] = []
        try:
            if mode == "return":
                self.block(decl.body.stmts, inner, body, pad)
                if decl.result is not None:
                    body.append(f"{pad}_fell_off({self.const(decl, 'n')})")
                else:
                    self.emit_return(body, pad, value="None")
            else:
                result = self.ret = prefix + "result"
                body.append(f"{pad}while True:   # {mangle(decl.name.name)}")
                self.block(decl.body.stmts, inner, body, pad + "    ")
                if decl.result is not None:
                    body.append(f"{pad}    _fell_off({self.const(decl, 'n')})")
                else:
                    body += [f"{pad}    {result} = None", f"{pad}    break"]
                if mode == "let":
                    body.append(f"{pad}{target} = {result}")
        finally:
            self.stable, self.ret = saved
            self.depth -= 1
        for n in sorted(set(bindings) - {p.name.name for p in decl.params}):
            if names[n] in self.unbound_reads:
                out.append(f"{pad}{names[n]} = _UNB")
        out.extend(body)

    def is_procedure_call(self, e) -> bool:
        return type(e) is ast.Call and e.callee.name in self.ruleset.procedures

    def stmt(self, s, scope: Scope, out: list, pad: str) -> set[str]:  # noqa: C901
        bound = set(scope.bound)
        t = type(s)
        if t is ast.Let:
            py = scope.names[s.name.name]
            if self.is_procedure_call(s.value):
                self.call_site(s.value, scope, out, pad, "let", py)
            else:
                out.append(f"{pad}{py} = {self.expr(s.value, scope)}")
                kind = self.kind(s.value, scope)
                if kind is not None and s.name.name in self.stable:
                    scope.kinds[s.name.name] = kind
            return bound | {s.name.name}
        if t is ast.Set:
            value = s.value
            if s.op != "=":
                if s.op not in ("+=", "-="):
                    raise Unsupported(f"assignment {s.op}")
                subject = ast.Name(s.target[0].name, s.target[0].span)
                for part in s.target[1:]:
                    subject = ast.Field(subject, part, part.span)
                value = ast.Binary(s.op[0], subject, s.value, s.span)
            code = self.expr(value, scope)
            if len(s.target) == 1:
                out.append(f"{pad}{scope.names[s.target[0].name]} = {code}")
                return bound | {s.target[0].name}
            tmp = self.fresh("v")
            out.append(f"{pad}{tmp} = {code}")
            if s.target[0].name not in scope.names:
                raise Unsupported("assignment to a field of an unknown name")
            node = ast.Name(s.target[0].name, s.target[0].span)
            for part in s.target[1:-1]:
                node = ast.Field(node, part, part.span)
            subject, kind = self.expr(node, scope), self.kind(node, scope)
            lower = s.target[-1].name.lower()
            if kind == "fighter" and self.program.fighter_fields.get(lower, ("",))[0] == "value":
                canonical = self.program.fighter_fields[lower][1]
                out.append(f"{pad}world = {_DRAFT}.set({subject}, {canonical!r}, {tmp})")
            elif kind == "side" and lower in self.program.side_fields:
                canonical = self.program.side_fields[lower]
                out.append(f"{pad}world = {_DRAFT}.set({subject}, {canonical!r}, {tmp})")
            else:
                out.append(f"{pad}world = _assign(I, {subject}, {s.target[-1].name!r}, {tmp}, "
                           f"world)")
            return bound
        if t is ast.If:
            out.append(f"{pad}if {self.expr(s.condition, scope)}:")
            yes = self.block(s.then.stmts, scope, out, pad + "    ")
            if s.otherwise is None:
                return bound
            out.append(f"{pad}else:")
            stmts = (s.otherwise,) if type(s.otherwise) is ast.If else s.otherwise.stmts
            no = self.block(stmts, scope, out, pad + "    ")
            return bound | (yes & no)
        if t is ast.Choose:
            return self.choose(s, scope, out, pad)
        if t is ast.ChooseNumber:
            py = scope.names[s.name.name]
            stmt = self.const(s, "n")
            low, high = self.fresh("lo"), self.fresh("hi")
            out.append(f"{pad}{low} = {self.expr(s.low, scope)}")
            out.append(f"{pad}{high} = {self.expr(s.high, scope)}")
            out.append(f"{pad}{py} = _number_choice(I, {stmt}, {low}, {high})")
            out.append(f"{pad}if {py} is None:")
            default = low if s.default is None else \
                f"_clamp({self.expr(s.default, scope)}, {low}, {high})"
            out.append(f"{pad}    {py} = {default}")
            return bound | {s.name.name}
        if t is ast.Return:
            if self.is_procedure_call(s.value):
                self.call_site(s.value, scope, out, pad, "return")
            else:
                self.emit_return(out, pad, value=self.expr(s.value, scope))
            return bound
        if t is ast.Remove:
            subject = self.expr(s.subject, scope)
            out.append(f"{pad}world = {_DRAFT}.remove({subject})")
            return bound
        if t is ast.ForEach:
            py = scope.names[s.var.name]
            out.append(f"{pad}for {py} in {self.expr(s.items, scope)}:")
            if s.var.name in self.stable and self.fighters_in(s.items, scope):
                scope.kinds[s.var.name] = "fighter"
            inner = scope.with_bound(bound | {s.var.name})
            self.block(s.body.stmts, inner, out, pad + "    ")
            return bound
        if t is ast.Repeat:
            out.append(f"{pad}for _ in _repeat({self.expr(s.times, scope)}, "
                       f"{self.const(s, 'n')}, _im.MAX_REPEAT):")
            self.block(s.body.stmts, scope, out, pad + "    ")
            return bound
        if t is ast.CallStmt:
            if self.is_procedure_call(s.call):
                self.call_site(s.call, scope, out, pad, "stmt")
            else:
                out.append(f"{pad}{self.expr(s.call, scope)}")
            return bound
        raise Unsupported(f"statement {t.__name__}")

    def choose(self, s: ast.Choose, scope: Scope, out: list, pad: str) -> set[str]:
        """Decisions.choose in sampling mode: scripted or first legal option, or a random one."""
        opt, pol = self.fresh("o"), self.fresh("p")
        options = s.options

        def legal(o) -> str:
            return "True" if o.when is None else f"({self.expr(o.when, scope)}) is True"
        # `_uniform` is the policy of every decision when none is scripted (set per run by
        # `sample`); asking the policies by name is needed only otherwise
        out.append(f"{pad}{pol} = I._uniform or I.policies.for_decision({s.name.name!r})")
        out.append(f"{pad}if {pol} == 'random':")
        unconditional = []
        for i, o in enumerate(options):
            if o.when is not None:
                break
            unconditional.append(i)
        # Every condition is asked here, in order, as Decisions.choose does; one asked twice
        # (the same text) is asked once: conditions of options neither roll nor change anything
        asked: dict[str, str] = {}
        for o in options[len(unconditional):]:
            if o.when is not None and legal(o) not in asked:
                asked[legal(o)] = self.fresh("c")
                out.append(f"{pad}    {asked[legal(o)]} = {legal(o)}")
        out.append(f"{pad}    {opt} = {unconditional!r}")
        for i, o in enumerate(options[len(unconditional):], len(unconditional)):
            if o.when is None:
                out.append(f"{pad}    {opt}.append({i})")
            else:
                out.append(f"{pad}    if {asked[legal(o)]}:")
                out.append(f"{pad}        {opt}.append({i})")
        out.append(f"{pad}    {opt} = {opt}[0] if len({opt}) == 1 else "
                   f"I.choice_rng.choice({opt})")
        if options[0].when is None and all(o.name.name != "first" for o in options):
            # the first policy takes the first legal option (unless an option is called
            # `first`: the policy's name then scripts it)
            out.append(f"{pad}elif {pol} == 'first':")
            out.append(f"{pad}    {opt} = 0")
        out.append(f"{pad}else:")
        out.append(f"{pad}    {opt} = -1")
        for i, o in enumerate(options):
            out.append(f"{pad}    {'if' if i == 0 else 'elif'} {pol} == {o.name.name!r}:")
            if o.when is None:
                out.append(f"{pad}        {opt} = {i}")
            else:
                out.append(f"{pad}        if {legal(o)}:")
                out.append(f"{pad}            {opt} = {i}")
        out.append(f"{pad}    if {opt} < 0:")
        for i, o in enumerate(options):
            out.append(f"{pad}        {'if' if i == 0 else 'elif'} {legal(o)}:")
            out.append(f"{pad}            {opt} = {i}")
        out.append(f"{pad}        else:")
        out.append(f"{pad}            raise StopIteration")   # as next() over no legal option
        after = None
        for i, o in enumerate(options):
            out.append(f"{pad}{'if' if i == 0 else 'elif'} {opt} == {i}:")
            if o.body is None:
                out.append(f"{pad}    pass")
                names = set(scope.bound)
            else:
                names = self.block(o.body.stmts, scope, out, pad + "    ")
            after = names if after is None else after & names
        return set(scope.bound) | (after or set())


def _assigned_names(stmts, found: list[str]) -> None:
    """Every binding of a name in a procedure body (lets, sets of locals, loops, number
    decisions), once per place: a name found once is bound in one place only."""
    for s in stmts:
        t = type(s)
        if t is ast.Let:
            found.append(s.name.name)
        elif t is ast.Set and len(s.target) == 1:
            found.append(s.target[0].name)
        elif t is ast.ChooseNumber:
            found.append(s.name.name)
        elif t is ast.ForEach:
            found.append(s.var.name)
            _assigned_names(s.body.stmts, found)
        elif t is ast.Repeat:
            _assigned_names(s.body.stmts, found)
        elif t is ast.If:
            _assigned_names(s.then.stmts, found)
            other = s.otherwise
            if other is not None:
                _assigned_names((other,) if type(other) is ast.If else other.stmts, found)
        elif t is ast.Choose:
            for o in s.options:
                if o.body is not None:
                    _assigned_names(o.body.stmts, found)


_PURE = (ast.Int, ast.Str, ast.Bool, ast.Name, ast.Binary, ast.Compare, ast.Logic, ast.Not,
         ast.Neg, ast.IfExpr)


def _reads_only_arguments(node, ruleset, seen: set) -> bool:
    """Whether an expression depends on nothing but its names: no World, no dice."""
    t = type(node)
    if t is ast.Call:
        name = node.callee.name
        if name in BUILTINS:
            pass
        elif name in ruleset.defines and name not in seen:
            seen.add(name)
            if not _reads_only_arguments(ruleset.defines[name].body, ruleset, seen):
                return False
        elif name in ruleset.tables and name not in seen:
            seen.add(name)
            for row in ruleset.tables[name].rows:
                for part in (row.condition, *row.values):
                    if part is not None and not _reads_only_arguments(part, ruleset, seen):
                        return False
        elif name not in seen:
            return False
        return all(_reads_only_arguments(a, ruleset, seen) for a in node.args)
    if t not in _PURE:
        return False
    for f in node.__dataclass_fields__:
        if f in ("span", "name", "op"):
            continue
        value = getattr(node, f)
        parts = value if isinstance(value, tuple) else (value,)
        for part in parts:
            if hasattr(part, "__dataclass_fields__") and \
                    not _reads_only_arguments(part, ruleset, seen):
                return False
    return True


def _contains_dice(node) -> bool:
    """Whether an expression may roll (then `allowed` is left to the interpreter, whose mode
    decides what a roll gives there)."""
    if isinstance(node, (ast.Dice, ast.Count)):
        return True
    if isinstance(node, (tuple, list)):
        return any(_contains_dice(x) for x in node)
    if hasattr(node, "__dataclass_fields__"):
        return any(_contains_dice(getattr(node, f)) for f in node.__dataclass_fields__
                   if f != "span")
    return False


class Program:
    """The generated functions of one Ruleset, and what fell back to the interpreter."""

    def __init__(self, ruleset, interp) -> None:
        from warband import interpreter as im
        self.ruleset = ruleset
        self.fallbacks: dict[str, str] = {}   # "procedure NAME" etc. -> why
        self.fighter_fields, self.side_fields = interp.fighter_fields, interp.side_fields
        self.namespace: dict = {
            "__builtins__": {"StopIteration": StopIteration, "len": len, "type": type},
            "_UNB": rt.UNBOUND, "_NOARG": rt.UNBOUND, "_norm": norm, "_div": rt.divide,
            "_is": rt.is_a, "_lookup": rt.lookup, "_no_row": rt.no_row,
            "_aggregate": rt.aggregate, "_within": im.Interpreter.within, "_roll": rt.roll,
            "_count": rt.count_roll, "_faces": rt.faces_where, "_assign": rt.assign,
            "_repeat": rt.repeat_times, "_number_choice": rt.number_choice, "_clamp": rt.clamp,
            "_fell_off": rt.fell_off, "_thunk": rt.make_thunk, "_E301": _missing_argument,
            "_Record": Record, "_im": im, "_Fn": type(lambda: 0), "_bisect": bisect.bisect_right,
            "_SIDE_REFS": rt.SideRefs(), "_has_value": rt.has_value, "_Ref": Ref,
            "_Interpret": rt.Interpret, "_Dist": Dist, "_Thunk": Thunk, "_Draft": rt.Draft,
        }
        self._getters: dict[tuple[str, str], str] = {}
        self._pure: dict[int, bool] = {}
        self._interp = interp
        self.source: list[str] = []
        self.entries: dict = {}     # procedure name -> fn(I, args, world) -> (value, world)
        self.requires: dict = {}    # procedure name -> fn(I, args, world) -> bool
        self._build()
        self._interp = None

    def getter(self, kind: str, name: str) -> str:
        found = self._getters.get((kind, name))
        if found is None:
            make = rt.field_getter if kind == "field" else rt.has_getter
            found = self._getters[(kind, name)] = f"_{kind}_{mangle(name)}"
            self.namespace[found] = make(self._interp, name)
        return found

    def pure(self, table) -> bool:
        found = self._pure.get(id(table))
        if found is None:
            call = ast.Call(table.name, (), table.span)
            found = self._pure[id(table)] = _reads_only_arguments(call, self.ruleset, set())
        return found

    def _emit(self, kind: str, name: str, make) -> bool:
        """Generate one function's lines; on Unsupported, record the fallback and return False."""
        self.writer.temp = 0
        try:
            lines = make()
        except Unsupported as why:
            self.fallbacks[f"{kind} {name}"] = str(why)
            return False
        self.source.extend(lines)
        self.source.append("")
        return True

    def _build(self) -> None:
        rs = self.ruleset
        # A first pass finds the procedures left to the interpreter: a dice argument passed to
        # one of them must be the interpreter's Thunk, to a generated one a plain closure.
        self.writer = Writer(self, frozenset())
        for name, decl in rs.procedures.items():
            self._emit("procedure", name, lambda: self._procedure(decl))
        interpreted = frozenset(n for n in rs.procedures if f"procedure {n}" in self.fallbacks)
        self.fallbacks.clear()
        self.source.clear()
        self.writer = Writer(self, interpreted)
        for name, table in rs.tables.items():
            if not self._emit("table", name, lambda: self._table(table)):
                self.namespace[f"t_{mangle(name)}"] = _interpreted_rows(table)
        for name, decl in rs.defines.items():
            if not self._emit("define", name, lambda: self._define(decl)):
                self.namespace[f"d_{mangle(name)}"] = _interpreted_define(decl)
        for name, decl in rs.procedures.items():
            if self._emit("procedure", name, lambda: self._procedure(decl)):
                self._emit("entry", name, lambda: self._entry(decl))
            else:   # run through the interpreter, from generated callers and from sample()
                self.namespace[f"p_{mangle(name)}"] = _interpreted_procedure(decl)
            if decl.requires is not None and not _contains_dice((decl.requires, decl.params)):
                self._emit("requires", name, lambda: self._requires(decl))
        code = compile("\n".join(self.source), f"<warband rules {rs.id!r}>", "exec")
        exec(code, self.namespace)   # the source is ours; rules names only as mangled or repr
        for name in rs.procedures:
            if f"e_{mangle(name)}" in self.namespace:
                entry = self.namespace[f"e_{mangle(name)}"]
                self.entries[name] = _with_interpreter_room(entry) if self.fallbacks else entry
            if f"r_{mangle(name)}" in self.namespace:
                self.requires[name] = self.namespace[f"r_{mangle(name)}"]
        self.writer = None

    @staticmethod
    def _params(params) -> dict[str, str]:
        return {p.name.name: "v_" + mangle(p.name.name) for p in params}

    @staticmethod
    def _kinds(params) -> dict:
        return {p.name.name: p.type.name for p in params
                if p.type is not None and p.type.name in ("fighter", "side")}

    def _table(self, table: ast.TableDecl) -> list[str]:
        w = self.writer
        names = self._params(table.params)
        scope = Scope(names, set(names), kinds=self._kinds(table.params))
        w.stable = set(names)
        first = names[table.params[0].name.name] if table.params else None
        columns = tuple(c.name for c in table.columns)
        lines = [f"def t_{mangle(table.name.name)}(I, world, _call"
                 f"{''.join(', ' + n for n in names.values())}):"]
        for row in table.rows:
            if row.kind == "when":
                test = w.expr(row.condition, scope)
            elif row.kind == "otherwise":
                test = "True"
            elif isinstance(row.key, ast.Ident):
                test = f"{first} == {row.key.name!r}"
            elif isinstance(row.key, tuple):
                test = f"{w.literal(row.key[0])} <= {first} <= {w.literal(row.key[1])}"
            else:
                test = f"{first} == {w.literal(row.key)}"
            fixed = [_fixed(v, names) for v in row.values]
            if len(row.values) > 1 and all(v is not _NOT_FIXED for v in fixed):
                value = w.const(Record(columns, tuple(fixed)), "r")   # made once
            else:
                values = [w.expr(v, scope) for v in row.values]
                value = values[0] if len(values) == 1 else (
                    f"_Record({w.const(columns, 'k')}, ({', '.join(values)},))")
            if test == "True":
                lines.append(f"    return {value}")
                break
            lines += [f"    if {test}:", f"        return {value}"]
        else:
            lines.append(f"    _no_row({w.const(table, 'n')}, "
                         f"({''.join(n + ', ' for n in names.values())}), _call)")
        return lines

    def _define(self, decl: ast.DefineDecl) -> list[str]:
        names = self._params(decl.params)
        self.writer.stable = set(names)
        body = self.writer.expr(decl.body, Scope(names, set(names),
                                                 kinds=self._kinds(decl.params)))
        return [f"def d_{mangle(decl.name.name)}(I, world"
                f"{''.join(', ' + n for n in names.values())}):", f"    return {body}"]

    def _procedure(self, decl: ast.ProcedureDecl, entry: bool = False) -> list[str]:
        """p_NAME(I, world, *arguments) -> (value, world); with entry=True, e_NAME(I, args,
        world), which takes the caller's dict of arguments (see _bind)."""
        w = self.writer
        params = self._params(decl.params)
        bindings: list[str] = list(params)
        _assigned_names(decl.body.stmts, bindings)
        assigned = set(bindings)
        w.stable = {n for n in assigned if bindings.count(n) == 1}
        w.unbound_reads = set()
        names = {**{n: "v_" + mangle(n) for n in sorted(assigned)}, **params}
        thunks = frozenset(p.name.name for p in decl.params
                           if p.type is not None and p.type.name == "dice")
        kinds = {n: k for n, k in self._kinds(decl.params).items() if n in w.stable}
        scope = Scope(names, set(params), thunks, kinds)
        if entry:
            lines = [f"def e_{mangle(decl.name.name)}(I, args, world):"]
            self._bind(decl, lines)
        else:
            sig = "".join(f", {py}=_NOARG" if p.default is not None else f", {py}"
                          for p, py in zip(decl.params, params.values()))
            lines = [f"def p_{mangle(decl.name.name)}(I, world{sig}):"]
            empty = Scope({}, set())
            for p, py in zip(decl.params, params.values()):
                if p.default is not None:
                    lines += [f"    if {py} is _NOARG:",
                              f"        {py} = {w.expr(p.default, empty)}"]
        body: list[str] = []
        w.block(decl.body.stmts, scope, body, "    ")
        for n in sorted(assigned - set(params)):
            if names[n] in w.unbound_reads:
                lines.append(f"    {names[n]} = _UNB")
        lines += body
        if decl.result is not None:
            lines.append(f"    _fell_off({w.const(decl, 'n')})")
        else:
            lines.append("    return (None, world)")
        return lines

    def _bind(self, decl, lines: list[str]) -> list[str]:
        """Arguments from the caller's dict, as Interpreter._bind_params (defaults, E301).

        First every given argument is checked for what generated code takes for granted: a
        fighter or side parameter holds a Ref of that kind, no argument is a distribution.
        Anything else is left to the interpreter (raise _Interpret) before anything is drawn."""
        w, empty = self.writer, Scope({}, set())
        names = []
        for p in decl.params:
            py, key = "v_" + mangle(p.name.name), repr(p.name.name)
            lines.append(f"    {py} = args.get({key}, _UNB)")
            kind = p.type.name if p.type is not None else None
            if kind in ("fighter", "side"):
                lines.append(f"    if (type({py}) is not _Ref or {py}[0] != {kind!r}) and "
                             f"{py} is not _UNB:")
            else:
                lines.append(f"    if type({py}) is _Dist or type({py}) is _Thunk:")
            lines.append("        raise _Interpret")
            names.append(py)
        for i, (p, py) in enumerate(zip(decl.params, names)):
            lines.append(f"    if {py} is _UNB:")
            if p.default is not None:
                lines += ["        world, _w = None, world",   # as _bind_params: no World
                          f"        {py} = {w.expr(p.default, empty)}", "        world = _w"]
            else:
                lines.append(f"        _E301({w.const(decl, 'n')}, {i})")
        return names

    def _entry(self, decl) -> list[str]:
        return self._procedure(decl, entry=True)

    def _requires(self, decl) -> list[str]:
        lines = [f"def r_{mangle(decl.name.name)}(I, args, world):"]
        self.writer.stable = {p.name.name for p in decl.params}
        names = self._bind(decl, lines)
        scope = Scope(dict(zip((p.name.name for p in decl.params), names)),
                      {p.name.name for p in decl.params}, kinds=self._kinds(decl.params))
        lines.append(f"    return ({self.writer.expr(decl.requires, scope)}) is True")
        return lines


def _size(stmts) -> int:
    """Statements in a body, nested ones included."""
    n = 0
    for s in stmts:
        n += 1
        for f in ("then", "body"):
            inner = getattr(s, f, None)
            if isinstance(inner, ast.Block):
                n += _size(inner.stmts)
        other = getattr(s, "otherwise", None)
        if other is not None:
            n += _size((other,) if type(other) is ast.If else other.stmts)
        for o in getattr(s, "options", ()) or ():
            if o.body is not None:
                n += _size(o.body.stmts)
    return n


def _returns_in_loop(stmts, in_loop: bool) -> bool:
    for s in stmts:
        t = type(s)
        if t is ast.Return and in_loop:
            return True
        if t in (ast.ForEach, ast.Repeat) and _returns_in_loop(s.body.stmts, True):
            return True
        if t is ast.If:
            other = s.otherwise
            if _returns_in_loop(s.then.stmts, in_loop) or (other is not None and _returns_in_loop(
                    (other,) if type(other) is ast.If else other.stmts, in_loop)):
                return True
        if t is ast.Choose and any(o.body is not None and _returns_in_loop(o.body.stmts, in_loop)
                                   for o in s.options):
            return True
    return False


def _simple(arg, scope: Scope) -> bool:
    """An argument that can stand for its parameter: a constant or a bound plain local."""
    t = type(arg)
    if t in (ast.Int, ast.Str, ast.Bool):
        return True
    return t is ast.Name and (arg.name not in scope.names or (
        arg.name in scope.bound and arg.name not in scope.thunks))


def _has_aggregate(node) -> bool:
    if type(node) is ast.Aggregate:
        return True
    if isinstance(node, tuple):
        return any(_has_aggregate(x) for x in node)
    if hasattr(node, "__dataclass_fields__"):
        return any(_has_aggregate(getattr(node, f)) for f in node.__dataclass_fields__
                   if f != "span")
    return False


_NOT_FIXED = object()


def _fixed(expr, params: dict):
    """The value of a table cell that is a constant (a number, text, truth value or symbol)."""
    if type(expr) in (ast.Int, ast.Str, ast.Bool):
        return expr.value
    if type(expr) is ast.Name and expr.name not in params:
        return expr.name
    return _NOT_FIXED


class _Probe:
    """Stands for a random stream while a distribution's sampling table is built."""

    @staticmethod
    def randrange(n: int) -> int:
        return 0


def _missing_argument(decl, i: int):
    from warband.diagnostics import diag
    from warband.evaluate import RulesError
    p = decl.params[i]
    raise RulesError(diag("E301", f"'{decl.name.name}' needs a value for '{p.name.name}'",
                          p.span))


def _interpreted_rows(table):
    def rows(I, world, call, *args):
        return I._lookup(table, args, call, world)
    return rows


def _interpreted_define(decl):
    params = [p.name.name for p in decl.params]

    def define(I, world, *values):
        return I.fn(decl.body)(dict(zip(params, values)), world)
    return define


def _interpreted_procedure(decl):
    def procedure(I, world, *values):
        return rt.interpreted(I, decl, list(values), world)
    return procedure


# ---- the hook the interpreter calls ------------------------------------------------------------

_PROGRAMS: dict[int, tuple] = {}


def program_for(interp) -> Program:
    """The generated program of the interpreter's Ruleset: made once per Ruleset."""
    ruleset = interp.ruleset
    found = _PROGRAMS.get(id(ruleset))
    if found is not None and found[0]() is ruleset:
        return found[1]
    program = Program(ruleset, interp)
    key = id(ruleset)
    _PROGRAMS[key] = (weakref.ref(ruleset, lambda _r, known=_PROGRAMS: known.pop(key, None)),
                      program)
    return program


def sample(interp, procedure: str, args: dict, world):
    """Interpreter.sample through the generated program: (value, world), or None when this run
    is left to the interpreter (look-ahead, probing, rolls kept whole, arguments generated code
    does not take). The caller has set sampling mode and reset the counters."""
    program = interp._program
    if program is None:
        program = interp._program = program_for(interp)
    entry = program.entries.get(procedure)
    if entry is None or world.lazies or interp.probing:
        return None
    policies = interp.policies
    if policies.by_decision:
        # look-ahead (greedy) runs the rest of the action from each decision: CPS only
        if policies.default == "greedy" or "greedy" in policies.by_decision.values():
            return None
        interp._uniform = None
    else:
        if policies.default == "greedy":
            return None
        interp._uniform = policies.default
    try:
        value, after = entry(interp, args, world)
    except rt.Interpret:
        return None
    except RecursionError:
        raise rt.too_deep(program.ruleset.procedures[procedure]) from None
    return value, (after.freeze() if type(after) is rt.Draft else after)


def _with_interpreter_room(entry):
    """An entry of a program with procedures left to the interpreter: those run in CPS and
    need its settings (no memo, the deeper stack it allows itself)."""
    def run(interp, args, world):
        interp.memoise = False
        old = sys.getrecursionlimit()
        sys.setrecursionlimit(max(old, 20_000))
        try:
            return entry(interp, args, world)
        finally:
            sys.setrecursionlimit(old)
    return run


def allowed(interp, procedure: str, args: dict, world):
    """Interpreter.allowed through the generated program: a bool, or None when left to it."""
    program = interp._program
    if program is None:
        program = interp._program = program_for(interp)
    check = program.requires.get(procedure)
    if check is None or world.lazies:
        return None
    try:
        return check(interp, args, world)
    except rt.Interpret:
        return None
