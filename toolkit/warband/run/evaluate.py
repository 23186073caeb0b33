"""Expressions compiled to Python closures: fn(env, world) -> a value, or in exact mode a Dist.

Each AST node is compiled once into a closure that calls its children's closures, so running a
rule costs a few function calls per node instead of a walk over the tree. Plain values take the
fast path; only when an operand is a distribution does an operation enumerate outcomes.
"""

from __future__ import annotations

import functools
import math
from fractions import Fraction
from itertools import product
from typing import TYPE_CHECKING, Any, Callable, cast

from warband.diagnostics import diag
from warband.lang import nodes
from warband.lang.symbols import DIE_FUNCTION, GAME_FUNCTIONS, POOL_QUESTIONS
from warband.lang.unparse import expr_text
from warband.limits import MAX_BRANCHES, MAX_DICE, MAX_SIDES
from warband.run import areas, budget, decks, dice, pools, toomuch, weapons
from warband.run.dice import Dist
from warband.run.errors import RulesError
from warband.run.roll_labels import labels_of, roller, test_text
from warband.run.world import (
    FIGHTER_REFS,
    PIECE_REFS,
    SIDE_GROUPS,
    SIDE_REFS,
    World,
    read_piece,
    within,
)

if TYPE_CHECKING:
    from warband.run.interpreter import Interpreter

MISSING = object()


class LazyRef:
    """A rolled value not yet split into its outcomes: its distribution lives in the World.

    Keeping a roll whole until a rule asks a question of it lets the exact evaluator follow one
    branch per answer (hit, miss) rather than one per face.
    """

    __slots__ = ("id",)

    def __init__(self, id: int) -> None:
        self.id = id

    def __eq__(self, other) -> bool:
        return type(other) is LazyRef and other.id == self.id

    def __hash__(self) -> int:
        return hash(("lazy", self.id))

    def __repr__(self) -> str:
        return f"lazy#{self.id}"


class Thunk:
    """A dice argument: re-evaluated, so re-rolled, each time the callee uses it."""

    __slots__ = ("fn", "env", "key")

    def __init__(self, fn: Callable, expr, env: dict) -> None:
        self.fn, self.env = fn, env
        self.key = (id(expr), tuple(env.items()))

    def __eq__(self, other) -> bool:
        return type(other) is Thunk and self.key == other.key

    def __hash__(self) -> int:
        return hash(self.key)


class Record:
    """One row of a table with several columns."""

    __slots__ = ("columns", "values")

    def __init__(self, columns: tuple, values: tuple) -> None:
        self.columns, self.values = columns, values

    def get(self, name: str):
        return self.values[self.columns.index(name)]

    def __eq__(self, other) -> bool:
        return type(other) is Record and (self.columns, self.values) == (other.columns,
                                                                           other.values)

    def __hash__(self) -> int:
        return hash((self.columns, self.values))


def nobody(node) -> RulesError:
    """Pieces as values: a field read of a piece's holder or carrier when there is none."""
    return RulesError(diag("E510", f"'{expr_text(node)}' is nobody here, so it has no "
                                   "fields to read", node.span,
                           hint="ask first: if p.held { ... } for a holder, if p.carried "
                                "{ ... } for a carrier"))


def read_field(tables, subject, name: str, world: World):
    """A field of a fighter, a side or a record. `tables` is anything that holds the ruleset's
    `fighter_fields` and `side_fields`: an Interpreter (whose method `field` this is), or a
    generated Program."""
    if type(subject) is Record:
        return subject.get(name)
    if type(subject) is str:   # a piece of equipment: its own traits, and their numbers
        return weapons.piece_field(tables.ruleset, subject, name)
    if subject.kind == "side":
        if name == "fighters":
            return tuple(FIGHTER_REFS[i] for i, f in enumerate(world.fighters)
                         if f.side == subject.index and not f.removed)
        if name in SIDE_GROUPS:
            return SIDE_GROUPS[name](world, subject.index)
        if name == "conceded":
            return world.sides[subject.index].conceded
        if name == "name":
            return world.sides[subject.index].name
        canonical = tables.side_fields.get(name.lower())
        if canonical is None:   # decks and bags: the side's own (run/decks.py)
            return decks.handle(tables.ruleset, name, subject.index)
        return world.sides[subject.index].values[canonical]
    if subject.kind == "piece":   # a piece on the board: who holds it, its flags and counters
        return read_piece(world, subject, name)
    if subject.kind == "deck":   # decks and bags: the cards left, discarded, in the hand
        return decks.field(tables.ruleset, subject, name, world)
    f = world.fighters[subject.index]
    if name == "side":
        return SIDE_REFS[f.side]
    if name == "class":
        return f.fighter_class
    if name == "tier":
        return f.tier
    if name == "equipment":   # the names of its pieces: the class's, then the entry's
        return f.equipment
    if name == "traits":   # traits as values: the traits it has, in the order declared
        return tuple(n for n, v in f.traits.items() if v is True or (v is not False and v != 0))
    if name == "name":
        return f.name
    if name == "removed":
        return f.removed
    if name == "withdrawn":
        return f.withdrawn
    if name == "removed_by" or name == "removed_by_side":   # `remove f by g`
        by = f.removed_by
        if by is None or by[name == "removed_by_side"] is None:
            return None
        return SIDE_REFS[by[1]] if name == "removed_by_side" else FIGHTER_REFS[by[0]]
    if name == "enemies" or name == "friends":
        enemy = name == "enemies"
        return tuple(FIGHTER_REFS[i] for i, g in enumerate(world.fighters)
                     if not g.removed and i != subject.index and (g.side != f.side) == enemy)
    if name == "position":   # position as a value: where it stands (None off the board)
        return f.position
    if name == "carrying":   # carrying pieces: what it carries, in the order they were placed
        return tuple(PIECE_REFS[i] for i, p in enumerate(world.pieces)
                     if p.carrier == subject.index)
    kind, canonical = tables.fighter_fields[name.lower()]
    if kind == "derived":   # (only an Interpreter: generated code reads one through it)
        return tables.derived_stat(subject, canonical, world)
    if kind == "trait":
        value = f.traits.get(canonical, 0)
        return 0 if value is False else value
    return f.values[canonical]


def as_dist(x) -> Dist:
    return x if type(x) is Dist else Dist.point(x)


def lift(op: Callable, *args):
    """op applied to values any of which may be distributions (independent of each other).
    Every combination of their outcomes is weighed, and the outcomes of each result that is a
    distribution: more than MAX_OUTCOME_PAIRS is dice.TooLarge (10d1000 + 10d1000 weighed
    99,820,081 for minutes)."""
    if not any(type(a) is Dist for a in args):
        return op(*args)
    dists = [as_dist(a) for a in args]
    sizes = [len(a) for a in args if type(a) is Dist]
    pairs = 1
    for n in sizes:
        pairs *= n
        dice.check_pairs(sizes, pairs)
    # whole-number weights over the product of the denominators (as Dist keeps them): no
    # Fraction is made for a combination, unless op itself gives a distribution
    den = 1
    for d in dists:
        den *= d._den
    results = []
    for combo in product(*(d._w.items() for d in dists)):
        w = 1
        for _, x in combo:
            w *= x
        results.append((w, op(*(v for v, _ in combo))))
    out: dict = {}
    if not any(type(r) is Dist for _, r in results):
        for w, r in results:
            out[r] = out.get(r, 0) + w
        common = math.gcd(den, *out.values())
        if common > 1:
            den //= common
            out = {v: x // common for v, x in out.items()}
        return Dist.weighted(out, den, clean=True)
    for w, result in results:
        p = Fraction(w, den)
        if type(result) is Dist:
            pairs += len(result)
            dice.check_pairs(sizes + [len(result)], pairs)
            for v, q in result.items():
                out[v] = out.get(v, 0) + p * q
        else:
            out[result] = out.get(result, 0) + p
    return Dist(out)


# The distance to nothing (a kind of marker with no piece on the board, no board at all, a
# piece carried off the table): farther than any board, so `distance(f, ruin) <= 1` is false
# and `> 6` true, as if no piece had been placed. It is a whole number (10^18) rather than
# float('inf'), so that every sum, product and comparison with it is exact and the same in the
# interpreter and in generated code (infinity minus infinity has no value; this has one: 0);
# what shows a number (logs, records, odds) shows any of 10^15 or more as "infinite".
FAR = 10 ** 18
SHOWN_INFINITE = 10 ** 15


def infinite(x) -> bool:
    """Whether a number is shown as infinite: FAR, or as far from any board as it."""
    return isinstance(x, (int, Fraction)) and type(x) is not bool and \
        not -SHOWN_INFINITE < x < SHOWN_INFINITE


def norm(x):
    if type(x) is Fraction and x.denominator == 1:
        return int(x)
    return x


ARITH = {
    "+": lambda a, b: norm(a + b),
    "-": lambda a, b: norm(a - b),
    "*": lambda a, b: norm(a * b),
}
COMPARE = {
    ">=": lambda a, b: a >= b, "<=": lambda a, b: a <= b, ">": lambda a, b: a > b,
    "<": lambda a, b: a < b, "==": lambda a, b: a == b, "!=": lambda a, b: a != b,
}
BUILTINS: dict[str, Callable[..., Any]] = {
    "min": min, "max": max, "abs": abs,
    "floor": lambda x: math.floor(x), "ceil": lambda x: math.ceil(x),
    "isqrt": lambda x: math.isqrt(max(0, math.floor(x))),   # the whole part of a square root
}
AGGREGATES = {
    "total": lambda values: norm(sum(values)),
    "highest": lambda values: max(values, default=0),
    "lowest": lambda values: min(values, default=0),
    # questions asked of each member: whether every one, any one, how many say yes (a member
    # kept whole, as count(x for x in group if C) keeps it, counts as yes)
    "all": lambda values: all(v is not False for v in values),
    "any": lambda values: any(v is not False for v in values),
    "count": lambda values: sum(1 for v in values if v is not False),
}


def rolled_by_of(node):
    """Who a roll says rolls it (`d6 rolled by target`, `count even in 3d6 rolled by f`): the
    name, or None."""
    t = type(node)
    if t is nodes.Dice:
        return node.rolled_by
    if t is nodes.Count and type(node.pool) is nodes.Dice:
        return node.pool.rolled_by
    return None


# expressions whose value follows from their parts alone (reads_only_arguments)
_PURE = (nodes.Int, nodes.Str, nodes.Bool, nodes.Name, nodes.Binary, nodes.Compare, nodes.Logic,
         nodes.Not, nodes.Neg, nodes.IfExpr)


def reads_only_arguments(node, ruleset, seen: set) -> bool:
    """Whether an expression depends on nothing but its names: no World, no dice."""
    t = type(node)
    if t is nodes.Call:
        name = node.callee.name
        if name in BUILTINS:
            pass
        elif name in ruleset.defines and name not in seen:
            seen.add(name)
            if not reads_only_arguments(ruleset.defines[name].body, ruleset, seen):
                return False
        elif name in ruleset.tables and name not in seen:
            seen.add(name)
            for row in ruleset.tables[name].rows:
                for part in (row.condition, *row.values):
                    if part is not None and not reads_only_arguments(part, ruleset, seen):
                        return False
        elif name not in seen:
            return False
        return all(reads_only_arguments(a, ruleset, seen) for a in node.args)
    if t not in _PURE:
        return False
    if t is nodes.Name and node.name == "fighters":   # everyone in play: the World's
        return False
    for f in node.__dataclass_fields__:
        if f in ("span", "name", "op"):
            continue
        value = getattr(node, f)
        parts = value if isinstance(value, tuple) else (value,)
        for part in parts:
            if hasattr(part, "__dataclass_fields__") and \
                    not reads_only_arguments(part, ruleset, seen):
                return False
    return True



def names_in(expr) -> frozenset[str]:
    """Every name an expression reads (not those inside the definitions it calls)."""
    found: set[str] = set()

    def walk(e) -> None:
        match e:
            case nodes.Name(name=n):
                found.add(n)
            case nodes.Field(subject=s):
                walk(s)
            case nodes.Call(args=args):
                for a in args:
                    walk(a)
            case nodes.Binary(left=a, right=b) | nodes.Compare(left=a, right=b):
                walk(a)
                walk(b)
            case nodes.Logic(items=items):
                for i in items:
                    walk(i)
            case nodes.Not(operand=x) | nodes.Neg(operand=x):
                walk(x)
            case nodes.IfExpr(condition=c, then=a, otherwise=b):
                walk(c)
                walk(a)
                walk(b)
            # (weapon profiles: `f has w` also reads w, a piece's name: never a roll)
            case nodes.Has(subject=s) | nodes.Is(subject=s):
                walk(s)
            case nodes.Dice(count=c, mods=mods):
                walk(c)
                for m in mods:
                    if isinstance(m, nodes.RerollMod) and isinstance(m.predicate, nodes.PredCompare):
                        walk(m.predicate.value)
            case nodes.Count(predicate=p, pool=pool):
                if isinstance(p, nodes.PredCompare):
                    walk(p.value)
                walk(pool)
            case nodes.Within(distance=d, of=of):
                walk(d)
                walk(of)
            case nodes.Under(subject=s, area=a):   # areas and templates
                if s is not None:
                    walk(s)
                walk(a)
            case nodes.Aggregate(value=v, var=var, group=g, condition=c):
                walk(g)
                inner: set[str] = set()
                for part in (v, c):
                    if part is not None:
                        inner |= names_in(part)
                found.update(inner - {var.name})
            case nodes.TupleExpr(items=items):   # several values at once
                for i in items:
                    walk(i)
    walk(expr)
    return frozenset(found)


def check_count(n, node) -> None:
    """A number of dice must be whole and within the limit, whatever expression gave it."""
    if type(n) is not int and not (type(n) is Fraction and n.denominator == 1):
        raise RulesError(diag("E505", f"the number of dice must be a whole number, not {n}",
                              node.span, hint="round it with floor(...) or ceil(...)"))
    if not 0 <= n <= MAX_DICE:
        raise RulesError(diag("E403", f"cannot roll {n} dice (0 to {MAX_DICE})",
                              node.span))


def die_of(n, node) -> Dist:
    """`d(n)`: a fair die of n sides, n a whole number from 1 to MAX_SIDES."""
    if type(n) is not int and not (type(n) is Fraction and n.denominator == 1):
        raise RulesError(diag("E505", f"a die's number of sides must be a whole number, not {n}",
                              node.span, hint="round it with floor(...) or ceil(...)"))
    if not 1 <= n <= MAX_SIDES:
        raise RulesError(diag("E403", f"a die has 1 to {MAX_SIDES} sides, not {n}", node.span,
                              hint="make sure the number is at least 1: d(max(n, 1))"))
    return _fair_die(int(n))


@functools.lru_cache(maxsize=64)
def _fair_die(sides: int) -> Dist:
    return dice.die(dice.standard_faces(sides))


class Compiler:
    """Turns expression nodes into closures, once each. `interp` supplies the run's mode."""

    def __init__(self, interp: Interpreter) -> None:
        self.interp = interp
        self.ruleset = interp.ruleset
        self.cache: dict[int, Callable] = {}
        self.names: dict[int, frozenset[str]] = {}
        self.weapon_traits = weapons.weapon_trait_names(self.ruleset)   # weapon profiles

    def __call__(self, node) -> Callable:
        fn = self.cache.get(id(node))
        if fn is None:
            fn = self.compile(node)
            who = rolled_by_of(node)
            if who is not None:   # `d6 rolled by target`: told to a recorded game's log so
                fn = self.rolled_by(fn, self(who))
            self.cache[id(node)] = fn
        return fn

    def names_of(self, node) -> frozenset[str]:
        found = self.names.get(id(node))
        if found is None:
            found = self.names[id(node)] = names_in(node)
        return found

    def compile(self, e) -> Callable:  # noqa: C901 - one case per node kind
        interp = self.interp
        match e:
            case nodes.Int(value=v) | nodes.Str(value=v) | nodes.Bool(value=v):
                return lambda env, world: v
            case nodes.Name(name=name):
                glob = interp.global_value(name)   # sides, or a side of the scenario
                if glob is None and name in self.ruleset.decks:   # a deck per game
                    pile = decks.handle(self.ruleset, name)
                    glob = lambda world: pile  # noqa: E731

                def name_fn(env, world):
                    v = env.get(name, MISSING)
                    if v is MISSING:   # a class, tier, enum value, outcome, zone or marker
                        return name if glob is None else glob(world)
                    t = type(v)
                    if t is LazyRef:
                        d = world.lazies[v.id]
                        return d.only() if len(d) == 1 else d
                    if t is Thunk:
                        return v.fn(v.env, world)
                    return v
                return name_fn
            case nodes.Field(subject=subject, field=ident) if self.ruleset.profiles and \
                    weapons.profile_name(self.ruleset, ident.name) is not None:
                return self.profile_field(subject, ident.name)   # weapon profiles
            case nodes.Field(subject=subject, field=ident):
                sub, fname, field = self(subject), ident.name, interp.field

                def field_fn(env, world):
                    s = sub(env, world)
                    if s is None:   # a piece's holder or carrier, when there is none
                        raise nobody(subject)
                    if type(s) is Dist:
                        return lift(lambda x: field(x, fname, world), s)
                    return field(s, fname, world)
                return field_fn
            case nodes.Binary(op=op, left=left, right=right):
                a, b = self(left), self(right)
                if op == "/":
                    def divide(x, y):
                        if y == 0:
                            raise RulesError(diag("E502", "division by zero", e.span))
                        return norm(Fraction(x) / Fraction(y))
                    f = divide
                elif op == "%":   # the remainder: x - y * floor(x / y), exact
                    def remainder(x, y):
                        if y == 0:
                            raise RulesError(diag("E502", "division by zero", e.span))
                        return norm(x % y)
                    f = remainder
                else:
                    f = ARITH[op]

                def binary_fn(env, world):
                    x, y = a(env, world), b(env, world)
                    if type(x) is Dist or type(y) is Dist:
                        return lift(f, x, y)
                    return f(x, y)
                return binary_fn
            case nodes.Compare(op=op, left=left, right=right):
                a, b, f = self(left), self(right), COMPARE[op]

                def compare_fn(env, world):
                    x, y = a(env, world), b(env, world)
                    if type(x) is Dist or type(y) is Dist:
                        return lift(f, x, y)
                    return f(x, y)
                recorder = interp.recorder
                # a recorded game's rolls (its look-aheads too compile for the record: the
                # function is kept, and told_test asks the recorder at each run)
                if interp.recording or (recorder is not None and recorder.record):
                    test = labels_of(interp.ruleset).tests.get(id(e))
                    if test is not None:
                        return self.told_test(e, compare_fn, a, b, test)
                return compare_fn
            case nodes.Logic(op=op, items=items):
                parts = [self(i) for i in items]
                is_and = op == "and"

                def logic_fn(env, world, i=0):
                    v = parts[i](env, world)
                    if i == len(parts) - 1:
                        return v
                    if type(v) is Dist:
                        return lift(lambda x: logic_fn(env, world, i + 1) if x == is_and else x,
                                    v)
                    return logic_fn(env, world, i + 1) if bool(v) == is_and else v
                return logic_fn
            case nodes.Not(operand=x):
                f = self(x)
                return lambda env, world: lift(lambda v: not v, f(env, world))
            case nodes.Neg(operand=x):
                f = self(x)
                return lambda env, world: lift(lambda v: -v, f(env, world))
            case nodes.IfExpr(condition=c, then=a, otherwise=b):
                fc, fa, fb = self(c), self(a), self(b)

                def if_fn(env, world):
                    cv = fc(env, world)
                    if type(cv) is Dist:
                        return lift(lambda x: (fa if x else fb)(env, world), cv)
                    return (fa if cv else fb)(env, world)
                return if_fn
            case nodes.Has(subject=subject, name=name) if name.name not in self.ruleset.traits \
                    and name.name not in self.ruleset.equipment or name.name in self.weapon_traits:
                return self.weapon_has(subject, name.name)   # weapon profiles
            case nodes.Has(subject=subject, name=name):
                sub, has, n = self(subject), interp.has, name.name
                return lambda env, world: lift(lambda r: has(r, n, world), sub(env, world))
            case nodes.Is(subject=subject, name=name):
                sub, n = self(subject), name.name

                def is_fn(env, world):
                    def test(ref):
                        f = world.fighter(ref)
                        return n in (f.fighter_class, f.tier)
                    return lift(test, sub(env, world))
                return is_fn
            case nodes.Call(callee=callee, args=args):
                return self.call(e, callee.name, [self(a) for a in args])
            case nodes.Dice():
                return self.pool_roll(e) if e.pool else self.dice(e)
            case nodes.Count(predicate=pred, pool=counted_pool) \
                    if type(counted_pool) is not nodes.Dice:
                return self.pool_count(pred, self(counted_pool))
            case nodes.Count(predicate=pred, pool=counted_pool):
                # the checker admits only dice written in place (E302)
                pool = cast(nodes.Dice, counted_pool)
                count, faces = self(pool.count), self.predicate(pred, pool.sides)
                single = self.single_die(pool)

                def count_fn(env, world):
                    def counted(n, chosen, reroll):
                        check_count(n, e)
                        die = self.die_for(pool.sides, reroll)
                        return interp.draw(dice.pool_count(die, n, chosen), e, n)
                    return lift(counted, count(env, world), faces(env, world),
                                single(env, world))
                return count_fn
            case nodes.Aggregate(kind=kind, value=value, var=var, group=group,
                               condition=condition):
                fv, fg, name = self(value), self(group), var.name
                fcond = self(condition) if condition is not None else None
                # its members count against the evaluation's budget of work (budget.py)
                outer = budget.weighs_more(e, interp.ruleset)
                # (counted as generated code counts them: see budget.py)
                members, cost = budget.members, budget.turn_cost(interp.ruleset, e)
                # (`all(x for x in G if C)`: the members for which C holds; `all(C for x in G)`,
                # whether C holds for every one, is an aggregate as `any` is)
                if kind.name == "all" and type(value) is nodes.Name and value.name == name:
                    def all_fn(env, world):
                        return tuple(ref for ref in members(interp, fg(env, world), e, cost)
                                     if fcond is None or fcond({**env, name: ref}, world) is True)
                    if outer:
                        return lambda env, world: budget.evaluation(
                            interp, lambda: all_fn(env, world))
                    return all_fn
                combine = AGGREGATES[kind.name]

                def aggregate_fn(env, world):
                    parts = []
                    for ref in members(interp, fg(env, world), e, cost):
                        inner = {**env, name: ref}
                        if fcond is not None:
                            keep = fcond(inner, world)
                            if type(keep) is Dist:   # a rolled condition: 0 when it fails
                                parts.append(lift(lambda k, inner=inner: fv(inner, world)
                                                  if k else None, keep))
                                continue
                            if not keep:
                                continue
                        parts.append(fv(inner, world))
                    return lift(lambda *vs: combine([v for v in vs if v is not None]), *parts)
                if outer:   # (its work counted as an evaluation of its own: budget.py)
                    return lambda env, world: budget.evaluation(
                        interp, lambda: aggregate_fn(env, world))
                return aggregate_fn
            case nodes.Within(distance=distance, of=of):
                fd, fo = self(distance), self(of)
                return lambda env, world: within(world, fo(env, world), fd(env, world))
            case nodes.Under(subject=subject, area=area):   # areas and templates
                fa = self(area)
                if subject is None:
                    return lambda env, world: areas.under(world, fa(env, world))
                fs = self(subject)
                return lambda env, world: areas.is_under(world, fs(env, world), fa(env, world))
            # several values at once: the values a procedure returns together, as a tuple
            case nodes.TupleExpr(items=items):
                parts = [self(i) for i in items]
                return lambda env, world: tuple(p(env, world) for p in parts)
        raise TypeError(f"unknown expression {e!r}")  # pragma: no cover

    # ---- weapon profiles: a piece's values and own traits, and `f has w` ------------------------------
    def profile_field(self, subject, field: str) -> Callable:
        """`w.Range`: the value of a profile of the piece `w` holds."""
        sub, read = self(subject), self.interp.field
        table = weapons.profile_table(self.ruleset, cast(str, weapons.profile_name(
            self.ruleset, field)))

        def value(s, world):   # (a table's column may share the name: fields ignore case)
            return table[s] if type(s) is str else read(s, field, world)
        return lambda env, world: lift(lambda s: value(s, world), sub(env, world))

    def weapon_has(self, subject, name: str) -> Callable:
        """`w has Rending` (a piece's own trait, or a fighter's as ever) or `f has w` (a local
        name: whether the fighter carries the piece it holds)."""
        sub, interp = self(subject), self.interp
        if name in self.weapon_traits:
            has = weapons.has_either(lambda ref, world: interp.has(ref, name, world),
                                     weapons.piece_traits(self.ruleset), name)
            return lambda env, world: lift(lambda s: has(s, world), sub(env, world))
        piece = self.compile(nodes.Name(name, subject.span))   # (not cached: a node of its own)
        # (or a trait the name holds: traits as values, `f has t` for t in f.traits)
        equipment, pieces, has = self.ruleset.equipment, weapons.piece_trait_values(
            self.ruleset), interp.has
        return lambda env, world: lift(
            lambda s, p: p in world.fighters[s.index].equipment
            if p in equipment and type(s) is not str else weapons.holds(has, pieces, s, p, world),
            sub(env, world), piece(env, world))

    def call(self, e, name: str, args: list[Callable]) -> Callable:
        interp = self.interp
        if name in GAME_FUNCTIONS and name not in self.ruleset.tables and \
                name not in self.ruleset.defines and name not in self.ruleset.procedures:
            ask = interp.board_question
            return lambda env, world: ask(name, [a(env, world) for a in args], world)
        if name in BUILTINS:
            f = BUILTINS[name]
            return lambda env, world: lift(lambda *vs: norm(f(*vs)),
                                           *(a(env, world) for a in args))
        if name in self.ruleset.tables:
            table = self.ruleset.tables[name]
            return lambda env, world: lift(lambda *vs: interp.lookup(table, vs, e, world),
                                           *(a(env, world) for a in args))
        if name == DIE_FUNCTION and name not in self.ruleset.defines:   # d(n): n sides
            (sides,) = args
            return lambda env, world: lift(lambda n: interp.draw(die_of(n, e), e, n),
                                           sides(env, world))
        if name in POOL_QUESTIONS and name not in self.ruleset.defines:
            # dice pools: total(p), highest(p), lowest(p), size(p)
            (pool,) = args
            return lambda env, world: lift(lambda p: pools.ask(name, p), pool(env, world))
        if name in self.ruleset.zone_roles and name not in self.ruleset.defines:
            # zones the ruleset can name: own_edge(s), the scenario's zone for side s (without
            # a scenario, the role's own name: no board asks where it is)
            zones = self.ruleset.role_zones.get(name)
            (side,) = args
            return lambda env, world: lift(lambda s: zones[s.index] if zones else name,
                                           side(env, world))
        decl = self.ruleset.defines[name]
        params = [p.name.name for p in decl.params]

        def define_fn(env, world):
            body = self(decl.body)
            return lift(lambda *vs: body(dict(zip(params, vs)), world),
                        *(a(env, world) for a in args))
        return define_fn

    def told_test(self, e: nodes.Compare, compare: Callable, a: Callable, b: Callable,
                  test: tuple[str, bool]) -> Callable:
        """A comparison of a roll with a number the rules work out, or of a roll's name after
        the `let` that rolled it (roll_labels.RollLabels.tests): told to a recorded game's log
        with the roll, `roll < band.stun (15): no`, so a player can tell whether it made it."""
        interp, (label, on_left) = self.interp, test

        def told(env, world):
            result = compare(env, world)
            recorder = interp.recorder
            if recorder is not None and recorder.record and not interp.exact_mode and \
                    type(result) is bool:
                other = (b if on_left else a)(env, world)
                recorder.tested(label, test_text(e, other), result)
            return result
        return told

    def rolled_by(self, roll: Callable, who: Callable) -> Callable:
        """`d6 rolled by target`: the roll, told to a recorded game's log as who's."""
        interp = self.interp

        def rolled(env, world):
            recorder = interp.recorder
            if recorder is None or not recorder.record or interp.exact_mode:
                return roll(env, world)
            saved, interp.roller = interp.roller, roller([who(env, world)], world)
            try:
                return roll(env, world)
            finally:
                interp.roller = saved
        return rolled

    def single_die(self, e: nodes.Dice) -> Callable:
        """The faces that are rerolled (or None), evaluated once per roll of the whole pool:
        a frozenset, or in exact mode a distribution of them when the threshold is rolled."""
        for mod in e.mods:
            if isinstance(mod, nodes.RerollMod):
                return self.predicate(mod.predicate, e.sides)
        return lambda env, world: None

    @staticmethod
    def die_for(sides: int, reroll: frozenset | None) -> Dist:
        faces = dice.standard_faces(sides)
        return dice.die(faces) if reroll is None else dice.reroll_once(faces, reroll)

    def predicate(self, pred, sides: int) -> Callable:
        faces = range(1, sides + 1)
        match pred:
            case nodes.PredEven():
                chosen = frozenset(f for f in faces if f % 2 == 0)
            case nodes.PredOdd():
                chosen = frozenset(f for f in faces if f % 2 == 1)
            case nodes.PredSet(values=values):
                chosen = frozenset(values)
            case nodes.PredCompare(op=op, value=value):
                f, test = self(value), COMPARE[op]
                return lambda env, world: lift(
                    lambda bound: frozenset(x for x in faces if test(x, bound)), f(env, world))
            case _:  # pragma: no cover
                raise TypeError(f"unknown predicate {pred!r}")
        return lambda env, world: chosen

    def dice(self, e: nodes.Dice) -> Callable:
        interp = self.interp
        count, single = self(e.count), self.single_die(e)
        keep = next((m for m in e.mods if isinstance(m, nodes.KeepMod)), None)

        def pool(n, reroll):
            check_count(n, e)
            die = self.die_for(e.sides, reroll)
            if keep is None:
                try:
                    return interp.draw(dice.pool_sum(die, n), e, n)
                except OverflowError as error:
                    if not interp.exact_mode:   # a sampled roll draws each die instead
                        return interp.draw_apart(die, n, None, e)
                    raise RulesError(toomuch.pool_too_large(
                        interp, e, n, str(error), dice.SUM_HINT,
                        lambda m: dice.sum_fits(die, m))) from None
            kept = keep.count if keep.keep else max(n - keep.count, 0)
            highest = keep.highest if keep.keep else not keep.highest
            try:
                return interp.draw(dice.pool_keep(die, n, kept, highest), e, n)
            except OverflowError as error:
                if not interp.exact_mode:
                    return interp.draw_apart(die, n, (kept, highest), e)
                raise RulesError(toomuch.pool_too_large(
                    interp, e, n, str(error), dice.KEEP_HINT,
                    lambda m: dice.keep_fits(die, m, min(kept, m)))) from None

        def dice_fn(env, world):
            return lift(pool, count(env, world), single(env, world))
        return dice_fn

    # ---- dice pools: `pool (n)d6`, one roll asked several questions (run/pools.py) -------------
    def pool_roll(self, e: nodes.Dice) -> Callable:
        interp = self.interp
        count, single = self(e.count), self.single_die(e)
        keep_mod = next((m for m in e.mods if isinstance(m, nodes.KeepMod)), None)
        classes: list = []   # the classes of faces the ruleset tells apart, found at first use

        def roll(n, reroll):
            check_count(n, e)
            die = self.die_for(e.sides, reroll)
            keep = None
            if keep_mod is not None:
                keep = (keep_mod.count if keep_mod.keep else max(n - keep_mod.count, 0),
                        keep_mod.highest if keep_mod.keep else not keep_mod.highest)
            if not interp.exact_mode:
                return interp.draw_pool(die, e.sides, n, keep, e)
            if not classes:
                classes.append(pools.classes(self.ruleset, e.sides))
            parts = classes[0]
            limit = interp.max_branches or MAX_BRANCHES
            listed = pools.outcomes(die, n, keep, parts)
            if listed > limit:
                raise RulesError(toomuch.pool_too_large(
                    interp, e, n, pools.too_many(e.sides, n, keep, parts, listed, limit),
                    pools.POOL_HINT, lambda m: pools.outcomes(die, m, keep, parts) <= limit))
            return interp.draw(pools.exact(die, e.sides, n, keep, parts), e)

        def pool_fn(env, world):
            return lift(roll, count(env, world), single(env, world))
        return pool_fn

    def pool_count(self, pred, pool: Callable) -> Callable:
        """`count PRED in p` of a pool: the predicate's faces depend on the pool's dice."""
        chosen: dict[int, Callable] = {}

        def count_fn(env, world):
            def counted(p):
                faces = chosen.get(p.sides)
                if faces is None:
                    faces = chosen[p.sides] = self.predicate(pred, p.sides)
                return lift(p.count, faces(env, world))
            return lift(counted, pool(env, world))
        return count_fn
