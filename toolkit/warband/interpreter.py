"""Runs compiled rules, exactly or by sampling, from the very same AST.

Statements run in continuation-passing style: each statement receives "what happens next" as a
function. In exact mode a roll yields a `Dist`, and the interpreter follows every outcome with its
probability, mixing the results; in sampling mode a roll yields one seeded value and the same code
follows a single path. Because the rest of the rule is a function, a decision can look ahead:
the greedy policy runs each option's future exactly and keeps the best (expectimax).

Rules are total by construction (the checker rejects recursion; loops are bounded), so every
evaluation ends.
"""

from __future__ import annotations

import math
import random
import sys
from dataclasses import dataclass, field
from fractions import Fraction
from itertools import product
from typing import Callable

from warband import ast, dice
from warband.diagnostics import Diagnostic, diag
from warband.dice import Dist
from warband.ruleset import Ruleset
from warband.world import Ref, World

POLICIES = ("first", "random", "greedy")
MAX_BRANCHES = 5_000_000   # exact evaluation refuses beyond this many followed branches


class RulesError(Exception):
    """A rule failed while running (no table row matched, division by zero, ...)."""

    def __init__(self, diagnostic: Diagnostic) -> None:
        super().__init__(diagnostic.message)
        self.diagnostic = diagnostic


class Thunk:
    """A dice argument: re-evaluated, so re-rolled, each time the callee uses it.

    Two thunks of the same expression in equal environments are equal, so that memoised exact
    evaluation recognises a call it has already followed.
    """

    __slots__ = ("expr", "env", "key")

    def __init__(self, expr, env: dict) -> None:
        self.expr, self.env = expr, env
        self.key = (id(expr), _freeze(env))

    def __eq__(self, other) -> bool:
        return isinstance(other, Thunk) and self.key == other.key

    def __hash__(self) -> int:
        return hash(self.key)


def _freeze(env: dict) -> tuple:
    return tuple(env.items())


@dataclass
class Policies:
    """How decisions are filled: a default policy and per-decision overrides.

    A value is a policy name (first, random, greedy) or, for a scripted choice, an option name.
    """

    default: str = "first"
    by_decision: dict[str, str] = field(default_factory=dict)

    def for_decision(self, name: str) -> str:
        return self.by_decision.get(name, self.default)


def _bind(value, then: Callable):
    """Continue with a value; when it is a distribution, with each of its outcomes."""
    if isinstance(value, Dist):
        if len(value) == 1:
            return then(next(iter(value)))
        return Dist.mixture((p, _as_dist(then(v))) for v, p in value.items())
    return then(value)


def _as_dist(x) -> Dist:
    return x if isinstance(x, Dist) else Dist.point(x)


def _lift(op: Callable, *args):
    """Apply op to values any of which may be distributions (independent of each other)."""
    if not any(isinstance(a, Dist) for a in args):
        return op(*args)
    dists = [_as_dist(a) for a in args]
    out: dict = {}
    for combo in product(*(d.items() for d in dists)):
        p = Fraction(1)
        for _, q in combo:
            p *= q
        result = op(*(v for v, _ in combo))
        if isinstance(result, Dist):
            for v, q in result.items():
                out[v] = out.get(v, 0) + p * q
        else:
            out[result] = out.get(result, 0) + p
    return Dist(out)


def _norm(x):
    if isinstance(x, Fraction) and x.denominator == 1:
        return int(x)
    return x


_ARITH = {
    "+": lambda a, b: _norm(a + b),
    "-": lambda a, b: _norm(a - b),
    "*": lambda a, b: _norm(a * b),
}
_COMPARE = {
    ">=": lambda a, b: a >= b, "<=": lambda a, b: a <= b, ">": lambda a, b: a > b,
    "<": lambda a, b: a < b, "==": lambda a, b: a == b, "!=": lambda a, b: a != b,
}
_BUILTINS = {
    "min": min, "max": max, "abs": abs,
    "floor": lambda x: math.floor(x), "ceil": lambda x: math.ceil(x),
}


class Interpreter:
    def __init__(self, ruleset: Ruleset, policies: Policies | None = None,
                 rng: random.Random | None = None) -> None:
        self.ruleset = ruleset
        self.policies = policies or Policies()
        self.rng = rng or random.Random(0)
        self.exact_mode = True
        self.actor_side = 0
        self.score: Callable = lambda v: 0
        self.branches = 0
        # Exact evaluation memoises block(...) by code position, state and continuation. The
        # continuations are interned so that equal futures are the same object (and id).
        self.memo: dict = {}
        self.conts: dict = {}
        fields: dict[str, tuple[str, str]] = {}
        for name in ruleset.stats:
            fields[name.lower()] = ("value", name)
        for name, state in ruleset.states.items():
            if state.owner == "fighter":
                fields[name.lower()] = ("value", name)
        for name in ruleset.traits:
            fields[name.lower()] = ("trait", name)
        self.fighter_fields = fields
        self.side_fields = {n.lower(): n for n, s in ruleset.states.items() if s.owner == "side"}

    # ---- entry points ------------------------------------------------------------------------------
    def exact(self, procedure: str, args: dict, world: World) -> Dist:
        """The exact distribution of a procedure's result, decisions filled by the policies."""
        self.exact_mode = True
        self.branches = 0
        return _as_dist(self._run(procedure, args, world,
                                  lambda value, world: Dist.point(value)))

    def sample(self, procedure: str, args: dict, world: World) -> tuple[object, World]:
        """One seeded run: the result and the world after it."""
        self.exact_mode = False
        return self._run(procedure, args, world, self._top_return)

    def _top_return(self, value, world):
        return Dist.point(value) if self.exact_mode else (value, world)

    def allowed(self, procedure: str, args: dict, world: World) -> bool:
        decl = self.ruleset.procedures[procedure]
        if decl.requires is None:
            return True
        env = self._bind_params(decl, args)
        result = self.ev(decl.requires, env, world)
        return bool(result) if not isinstance(result, Dist) else result[True] == 1

    def _run(self, procedure: str, args: dict, world: World, done: Callable):
        decl = self.ruleset.procedures[procedure]
        first = decl.params[0].name.name if decl.params else None
        actor = args.get(first)
        if isinstance(actor, Ref):
            self.actor_side = world.fighter(actor).side if actor.kind == "fighter" else actor.index
        self.score = self._scorer(decl)
        env = self._bind_params(decl, args)
        old = sys.getrecursionlimit()
        sys.setrecursionlimit(max(old, 20_000))
        self.memo.clear()
        self.conts.clear()
        try:
            return self.block(decl.body.stmts, 0, env, world,
                              self._intern(("end", id(decl), id(done)),
                                           lambda env, world: self._fell_off(decl, world, done)),
                              done)
        finally:
            sys.setrecursionlimit(old)
            self.memo.clear()
            self.conts.clear()

    def _intern(self, key, make):
        """One continuation object per distinct future (make is a function, or the object)."""
        found = self.conts.get(key)
        if found is None:
            found = self.conts[key] = make
        return found

    def _bind_params(self, decl, args: dict) -> dict:
        env = {}
        for p in decl.params:
            if p.name.name in args:
                env[p.name.name] = args[p.name.name]
            elif p.default is not None:
                env[p.name.name] = self.ev(p.default, {}, None)
            else:
                raise RulesError(diag("E301", f"'{decl.name.name}' needs a value for "
                                              f"'{p.name.name}'", p.span))
        return env

    def _fell_off(self, decl, world, ret):
        if decl.result is not None:
            raise RulesError(diag("E503", f"'{decl.name.name}' ended without a result",
                                  decl.name.span))
        return ret(None, world)

    def _scorer(self, decl) -> Callable:
        """What a result is worth to the acting side, for the greedy policy."""
        if decl.result is not None and decl.result.name in self.ruleset.outcomes:
            scores = dict(self.ruleset.outcomes[decl.result.name].scores)
            return lambda v: scores.get(v, 0)
        return lambda v: v if isinstance(v, (int, Fraction)) and not isinstance(v, bool) else (
            1 if v is True else 0)

    # ---- statements -------------------------------------------------------------------------------------
    def block(self, stmts, i: int, env: dict, world: World, k: Callable, ret: Callable):
        """Run stmts[i:], then k(env, world); a 'return' calls ret(value, world) instead."""
        if i == len(stmts):
            return k(env, world)
        if not self.exact_mode:
            return self._block(stmts, i, env, world, k, ret)
        key = (id(stmts), i, _freeze(env), world.key(), id(k), id(ret))
        found = self.memo.get(key)
        if found is None:
            found = self.memo[key] = self._block(stmts, i, env, world, k, ret)
        return found

    def _block(self, stmts, i: int, env: dict, world: World, k: Callable, ret: Callable):
        stmt = stmts[i]
        next_ = self._intern(
            (id(stmts), i + 1, id(k), id(ret)),
            lambda env2, world2: self.block(stmts, i + 1, env2, world2, k, ret))

        match stmt:
            case ast.Let(name=name, value=value):
                then = self._intern((id(stmt), id(next_), _freeze(env)),
                                    lambda v, w: next_({**env, name.name: v}, w))
                return self.value(value, env, world, then)
            case ast.Set(target=target, op=op, value=value):
                return _bind(self.ev(value, env, world),
                             lambda v: next_(*self.assign(target, op, v, env, world)))
            case ast.If(condition=cond, then=then, otherwise=otherwise):
                def branch(c):
                    if c:
                        return self.block(then.stmts, 0, env, world, next_, ret)
                    if otherwise is None:
                        return next_(env, world)
                    stmts2 = (otherwise,) if isinstance(otherwise, ast.If) else otherwise.stmts
                    return self.block(stmts2, 0, env, world, next_, ret)
                return _bind(self.ev(cond, env, world), branch)
            case ast.Choose():
                return self.choose(stmt, env, world, next_, ret)
            case ast.Return(value=value):
                return self.value(value, env, world, ret)
            case ast.Remove(subject=subject):
                return _bind(self.ev(subject, env, world),
                             lambda ref: next_(env, world.remove(ref)))
            case ast.ForEach(var=var, items=items, body=body):
                refs = self.ev(items, env, world)

                def loop(j, env2, world2):
                    if j == len(refs):
                        return next_(env2, world2)
                    after = self._intern(("each", id(stmt), j, refs, id(next_), id(ret)),
                                         lambda e, w: loop(j + 1, e, w))
                    return self.block(body.stmts, 0, {**env2, var.name: refs[j]}, world2,
                                      after, ret)
                return loop(0, env, world)
            case ast.Repeat(times=times, body=body):
                def repeat(n):
                    def loop(j, env2, world2):
                        if j >= n:
                            return next_(env2, world2)
                        after = self._intern(("repeat", id(stmt), j, n, id(next_), id(ret)),
                                             lambda e, w: loop(j + 1, e, w))
                        return self.block(body.stmts, 0, env2, world2, after, ret)
                    return loop(0, env, world)
                return _bind(self.ev(times, env, world), repeat)
            case ast.CallStmt(call=call):
                then = self._intern((id(stmt), id(next_), _freeze(env)),
                                    lambda v, w: next_(env, w))
                return self.value(call, env, world, then)
        raise TypeError(f"unknown statement {stmt!r}")  # pragma: no cover

    def value(self, expr, env: dict, world: World, then: Callable):
        """Evaluate an expression that may be a procedure call, then continue with its value."""
        if isinstance(expr, ast.Call) and expr.callee.name in self.ruleset.procedures:
            return self.call_procedure(expr, env, world, then)
        return _bind(self.ev(expr, env, world), lambda v: then(v, world))

    def call_procedure(self, call: ast.Call, env: dict, world: World, then: Callable):
        decl = self.ruleset.procedures[call.callee.name]
        params = decl.params
        by_name = [p.type is not None and p.type.name == "dice" for p in params]
        values = [Thunk(a, env) if by_name[i] else self.ev(a, env, world)
                  for i, a in enumerate(call.args)]

        def enter(*vals):
            inner = {p.name.name: v for p, v in zip(params, vals)}
            for p in params[len(vals):]:
                inner[p.name.name] = self.ev(p.default, {}, world)
            end = self._intern(("end", id(decl), id(then)),
                               lambda e, w: self._fell_off(decl, w, then))
            return self.block(decl.body.stmts, 0, inner, world, end, then)

        return self._bind_all(values, enter)

    def _bind_all(self, values: list, then: Callable):
        def step(i, bound):
            if i == len(values):
                return then(*bound)
            return _bind(values[i], lambda v: step(i + 1, bound + [v]))
        return step(0, [])

    def assign(self, target, op: str, value, env: dict, world: World):
        head, *path = target
        if not path:
            old = env[head.name]
            return {**env, head.name: self._apply(op, old, value)}, world
        subject = env[head.name]
        for part in path[:-1]:
            subject = self.field(subject, part.name, world)
        name = self._state_name(subject, path[-1].name)
        old = world.get(subject, name)
        return env, world.set(subject, name, self._apply(op, old, value))

    @staticmethod
    def _apply(op: str, old, value):
        if op == "+=":
            return _norm(old + value)
        if op == "-=":
            return _norm(old - value)
        return value

    def _state_name(self, ref: Ref, name: str) -> str:
        if ref.kind == "side":
            return self.side_fields[name.lower()]
        return self.fighter_fields[name.lower()][1]

    # ---- decisions ---------------------------------------------------------------------------------------
    def choose(self, stmt: ast.Choose, env, world, k, ret):
        legal = [o for o in stmt.options
                 if o.when is None or self.ev(o.when, env, world) is True]
        policy = self.policies.for_decision(stmt.name.name)

        def run(option):
            if option.body is None:
                return k(env, world)
            return self.block(option.body.stmts, 0, env, world, k, ret)

        scripted = [o for o in legal if o.name.name == policy]
        if scripted:
            return run(scripted[0])
        if policy == "random":
            if self.exact_mode:
                share = Fraction(1, len(legal))
                return Dist.mixture((share, _as_dist(run(o))) for o in legal)
            return run(self.rng.choice(legal))
        if policy == "greedy" and len(legal) > 1:
            decider = self.ev(stmt.decider, env, world)
            side = world.fighter(decider).side if decider.kind == "fighter" else decider.index
            sign = 1 if side == self.actor_side else -1
            was_exact, self.exact_mode = self.exact_mode, True
            try:
                best, best_value, best_dist = None, None, None
                for option in legal:
                    outcome = _as_dist(run(option))
                    expected = outcome.mean_of(self.score) * sign
                    if best_value is None or expected > best_value:
                        best, best_value, best_dist = option, expected, outcome
            finally:
                self.exact_mode = was_exact
            # exact mode already has the chosen future; sampling now follows it for real
            return best_dist if was_exact else run(best)
        return run(legal[0])

    # ---- expressions ---------------------------------------------------------------------------------------
    def ev(self, e, env: dict, world: World | None):
        """The value of a pure expression: a plain value, or in exact mode possibly a Dist."""
        match e:
            case ast.Int(value=v) | ast.Str(value=v) | ast.Bool(value=v):
                return v
            case ast.Name(name=name):
                if name in env:
                    v = env[name]
                    return self.ev(v.expr, v.env, world) if isinstance(v, Thunk) else v
                return name  # a class, tier, enum value or outcome: symbols are their names
            case ast.Field(subject=subject, field=f):
                return _lift(lambda s: self.field(s, f.name, world), self.ev(subject, env, world))
            case ast.Binary(op=op, left=left, right=right):
                a, b = self.ev(left, env, world), self.ev(right, env, world)
                if op == "/":
                    return _lift(lambda x, y: self._divide(x, y, e), a, b)
                return _lift(_ARITH[op], a, b)
            case ast.Compare(op=op, left=left, right=right):
                return _lift(_COMPARE[op], self.ev(left, env, world), self.ev(right, env, world))
            case ast.Logic(op=op, items=items):
                return self.logic(op, items, env, world)
            case ast.Not(operand=x):
                return _lift(lambda v: not v, self.ev(x, env, world))
            case ast.Neg(operand=x):
                return _lift(lambda v: -v, self.ev(x, env, world))
            case ast.IfExpr(condition=c, then=a, otherwise=b):
                return _lift(lambda cv: self.ev(a if cv else b, env, world),
                             self.ev(c, env, world))
            case ast.Has(subject=subject, name=name):
                return _lift(lambda ref: self.has(ref, name.name, world),
                             self.ev(subject, env, world))
            case ast.Is(subject=subject, name=name):
                def is_(ref):
                    f = world.fighter(ref)
                    return name.name in (f.fighter_class, f.tier)
                return _lift(is_, self.ev(subject, env, world))
            case ast.Call(callee=callee, args=args):
                return self.call(callee.name, [self.ev(a, env, world) for a in args], e, world)
            case ast.Dice():
                return self.roll(e, env, world)
            case ast.Count(predicate=pred, pool=pool):
                faces = self.predicate_faces(pred, pool.sides, env, world)
                single = self.single_die(pool, env, world)
                return _lift(lambda n: self.draw(dice.pool_count(single, n, faces)),
                             self.ev(pool.count, env, world))
            case ast.Within(distance=distance, of=of):
                centre = self.ev(of, env, world)
                return self.within(world, centre, self.ev(distance, env, world))
        raise TypeError(f"unknown expression {e!r}")  # pragma: no cover

    def logic(self, op: str, items, env, world):
        first = self.ev(items[0], env, world)

        def rest(v):
            if (op == "and" and not v) or (op == "or" and v):
                return v
            if len(items) == 1:
                return v
            return self.logic(op, items[1:], env, world)
        return _lift(rest, first) if len(items) > 1 else first

    def _divide(self, x, y, e):
        if y == 0:
            raise RulesError(diag("E502", "division by zero", e.span))
        return _norm(Fraction(x) / Fraction(y))

    def call(self, name: str, args: list, e, world):
        if name in _BUILTINS:
            return _lift(lambda *vs: _norm(_BUILTINS[name](*vs)), *args)
        if name in self.ruleset.tables:
            return _lift(lambda *vs: self.lookup(self.ruleset.tables[name], vs, e, world), *args)
        decl = self.ruleset.defines[name]

        def body(*vs):
            env = {p.name.name: v for p, v in zip(decl.params, vs)}
            return self.ev(decl.body, env, world)
        return _lift(body, *args)

    def lookup(self, table: ast.TableDecl, args, call, world):
        env = {p.name.name: v for p, v in zip(table.params, args)}
        for row in table.rows:
            if row.kind == "when":
                hit = self.ev(row.condition, env, world)
            elif row.kind == "otherwise":
                hit = True
            else:
                key, arg = row.key, args[0]
                if isinstance(key, ast.Ident):
                    hit = arg == key.name
                elif isinstance(key, tuple):
                    hit = key[0] <= arg <= key[1]
                else:
                    hit = arg == key
            if hit:
                values = tuple(self.ev(v, env, world) for v in row.values)
                return values[0] if len(values) == 1 else Record(
                    tuple(c.name for c in table.columns), values)
        shown = ", ".join(f"{p.name.name}={a}" for p, a in zip(table.params, args))
        raise RulesError(diag("E501", f"no row of table '{table.name.name}' matches {shown}",
                              call.span, hint="add an 'otherwise' row"))

    def field(self, subject, name: str, world: World):
        if isinstance(subject, Record):
            return subject.get(name)
        if subject.kind == "side":
            if name == "fighters":
                return tuple(Ref("fighter", i) for i, f in enumerate(world.fighters)
                             if f.side == subject.index and not f.removed)
            return world.get(subject, self.side_fields[name.lower()])
        f = world.fighter(subject)
        if name == "side":
            return Ref("side", f.side)
        if name == "class":
            return f.fighter_class
        if name == "tier":
            return f.tier
        if name == "name":
            return f.name
        kind, canonical = self.fighter_fields[name.lower()]
        if kind == "trait":
            value = f.traits.get(canonical, 0)
            return 0 if value is False else value
        return f.values[canonical]

    def has(self, ref: Ref, name: str, world: World) -> bool:
        f = world.fighter(ref)
        if name in self.ruleset.equipment:
            return name in f.equipment
        value = f.traits.get(name, False)
        return value is True or (value is not False and value != 0)

    @staticmethod
    def within(world: World, centre: Ref, distance) -> tuple[Ref, ...]:
        """The other fighters in play within `distance` of a fighter (none without positions)."""
        c = world.fighter(centre).position
        if c is None:
            return ()
        out = []
        for i, f in enumerate(world.fighters):
            if i == centre.index or f.removed or f.position is None:
                continue
            if math.dist(c, f.position) <= distance:
                out.append(Ref("fighter", i))
        return tuple(out)

    # ---- dice -------------------------------------------------------------------------------------------------
    def single_die(self, e: ast.Dice, env, world) -> Dist:
        faces = dice.standard_faces(e.sides)
        for mod in e.mods:
            if isinstance(mod, ast.RerollMod):
                reroll = self.predicate_faces(mod.predicate, e.sides, env, world)
                return dice.reroll_once(faces, reroll)
        return dice.die(faces)

    def predicate_faces(self, pred, sides: int, env, world) -> frozenset:
        faces = range(1, sides + 1)
        match pred:
            case ast.PredEven():
                return frozenset(f for f in faces if f % 2 == 0)
            case ast.PredOdd():
                return frozenset(f for f in faces if f % 2 == 1)
            case ast.PredSet(values=values):
                return frozenset(values)
            case ast.PredCompare(op=op, value=value):
                v = self.ev(value, env, world)
                return frozenset(f for f in faces if _COMPARE[op](f, v))
        raise TypeError(f"unknown predicate {pred!r}")  # pragma: no cover

    def roll(self, e: ast.Dice, env, world):
        single = self.single_die(e, env, world)
        keep = next((m for m in e.mods if isinstance(m, ast.KeepMod)), None)

        def pool(n):
            if n < 0 or n > dice.MAX_DICE:
                raise RulesError(diag("E403", f"cannot roll {n} dice (0 to {dice.MAX_DICE})",
                                      e.span))
            if keep is None:
                return self.draw(dice.pool_sum(single, n))
            kept = keep.count if keep.keep else max(n - keep.count, 0)
            highest = keep.highest if keep.keep else not keep.highest
            try:
                return self.draw(dice.pool_keep(single, n, kept, highest))
            except OverflowError as error:
                raise RulesError(diag("E504", str(error), e.span)) from None
        return _lift(pool, self.ev(e.count, env, world))

    def draw(self, dist: Dist):
        if self.exact_mode:
            self.branches += len(dist)
            if self.branches > MAX_BRANCHES:
                raise RulesError(diag("E504", "too many outcomes to follow exactly "
                                              f"(more than {MAX_BRANCHES:,})", None))
            return dist
        return dist.sample(self.rng)


@dataclass(frozen=True)
class Record:
    """One row of a table with several columns."""

    columns: tuple[str, ...]
    values: tuple

    def get(self, name: str):
        return self.values[self.columns.index(name)]
