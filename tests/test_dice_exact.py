"""The exact semantics of every dice form of the rules language, checked three ways.

For each form a tiny rules file is compiled and run with `Interpreter.exact`; its distribution must
equal, as exact Fractions,
  (a) icepool computing the same roll, and
  (b) a brute-force enumeration, in plain Python, of every sequence of physical die faces.
icepool and the brute force share no code with warband, so the three agreeing is strong evidence.
The functions of warband.run.dice are also checked directly against brute force, and the
procedure-level forms (a roll cancelled by a save, Fate-style decisions under each policy) against
hand-written probability models.

Bugs found while writing these are kept as regression tests at the end of the file.
"""

from __future__ import annotations

import itertools
import math
from collections import Counter
from fractions import Fraction
from functools import lru_cache
from pathlib import Path

import icepool
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from warband.lang.compiler import compile_text, load
from warband.run import dice
from warband.run.dice import Dist
from warband.run.interpreter import Interpreter, Policies, RulesError
from warband.run.world import FighterSpec, Ref, make_world

ME = Ref("fighter", 0)


# ---- helpers: running rules -----------------------------------------------------------------------

@lru_cache(maxsize=None)
def compile_rules(text: str):
    """Compile rules text, failing the test with the diagnostics if it does not compile."""
    compiled = compile_text(text, "inline.rules")
    assert compiled.ruleset is not None, [(d.code, d.message) for d in compiled.diagnostics]
    return compiled.ruleset


def expression_rules(expr: str, returns: str, params: tuple[str, ...]) -> str:
    """A ruleset with one action `a` that returns `expr`; every extra parameter is a number."""
    extra = "".join(f", {p}: number" for p in params)
    return f'ruleset "t"\naction a(f: fighter{extra}) -> {returns} {{ return {expr} }}\n'


def exact_of(expr: str, returns: str = "number", **args) -> Dist:
    """The exact distribution of one expression, e.g. exact_of("(n)d6", n=3)."""
    ruleset = compile_rules(expression_rules(expr, returns, tuple(args)))
    world = make_world(ruleset, [FighterSpec("me")])
    return Interpreter(ruleset, Policies()).exact("a", {"f": ME, **args}, world)


def run_exact(text: str, action: str, args: dict, specs: list[FighterSpec],
              sides: list[dict] | None = None, policy: str = "first",
              by_decision: dict | None = None) -> Dist:
    ruleset = compile_rules(text)
    world = make_world(ruleset, specs, sides)
    policies = Policies(policy, by_decision or {})
    return Interpreter(ruleset, policies).exact(action, args, world)


# ---- helpers: the two references --------------------------------------------------------------------

def norm(x):
    """Integral Fractions as ints, as the interpreter reports them (so outcome types compare)."""
    if isinstance(x, Fraction) and x.denominator == 1:
        return int(x)
    return x


def from_icepool(die: icepool.Die) -> dict:
    """An icepool Die as {outcome: exact probability}."""
    denominator = die.denominator()
    return {norm(outcome): Fraction(quantity, denominator)
            for outcome, quantity in die.items() if quantity}


def brute_force(sides: list[int], outcome) -> dict:
    """Enumerate every sequence of faces of the physical dice `sides` (each fair, faces 1..s),
    all equally likely, and tally `outcome(faces)`."""
    tally: Counter = Counter()
    for faces in itertools.product(*(range(1, s + 1) for s in sides)):
        tally[norm(outcome(faces))] += 1
    total = math.prod(sides)
    return {v: Fraction(c, total) for v, c in tally.items()}


@lru_cache(maxsize=None)
def all_rolls(n: int, sides: int) -> tuple[tuple[int, ...], ...]:
    """Every sequence of n faces of a die with `sides` faces (shared by the keep/drop cases)."""
    return tuple(itertools.product(range(1, sides + 1), repeat=n))


def brute_force_pool(n: int, sides: int, outcome) -> dict:
    tally = Counter(norm(outcome(faces)) for faces in all_rolls(n, sides))
    return {v: Fraction(c, sides ** n) for v, c in tally.items()}


def rerolled(faces_pairs: tuple[int, ...], reroll) -> list[int]:
    """Physical rolls taken two at a time: (first, second) per die; the second stands only when
    the first matched the reroll rule."""
    return [second if reroll(first) else first
            for first, second in zip(faces_pairs[::2], faces_pairs[1::2])]


def assert_same(actual: Dist, *expected: dict) -> None:
    """Exact equality of outcomes and probabilities, and of outcome types: True and 1 are equal
    as dict keys in Python, so a bool-valued roll reported as 0/1 (or the reverse) would slip
    through a plain comparison."""
    assert actual.total() == 1
    got = dict(actual.items())
    for want in expected:
        want = {k: v for k, v in want.items() if v}
        assert sum(want.values()) == 1, "the reference itself is not a distribution"
        assert got == want
        assert {(type(k), k) for k in got} == {(type(k), k) for k in want}


def weighted_brute_force(single: Dist, n: int, outcome) -> dict:
    """Like brute_force, for n dice each distributed as `single` (faces need not be equally
    likely): every sequence, weighted by the product of its faces' probabilities."""
    out: dict = {}
    for seq in itertools.product(list(single.items()), repeat=n):
        p = math.prod((q for _, q in seq), start=Fraction(1))
        v = norm(outcome([f for f, _ in seq]))
        out[v] = out.get(v, 0) + p
    return out


def d(sides: int) -> icepool.Die:
    return icepool.d(sides)


def icepool_reroll_once(die: icepool.Die, faces) -> icepool.Die:
    """die.reroll(faces, depth=1); icepool 2.1.3 divides by zero when every face is rerolled,
    and then the result is simply a second roll of the same die."""
    faces = set(faces)
    if faces >= set(die.outcomes()):
        return die
    return die.reroll(faces, depth=1)


def icepool_count(die: icepool.Die, n: int, faces) -> icepool.Die:
    """How many of n dice show one of `faces`. (Die.count(1, ...) gives a bool Die, not 0/1.)"""
    faces = set(faces)
    return n @ die.map(lambda f: 1 if f in faces else 0)


# ================================================================================================
# 1. Dice forms in expressions
# ================================================================================================

# ---- plain sums: 3d6, d20 -----------------------------------------------------------------------

@pytest.mark.parametrize("sides", [4, 6, 8, 10])
@pytest.mark.parametrize("n", [1, 2, 3, 4, 5])
def test_sum_of_n_dice(n, sides):
    assert_same(exact_of(f"{n}d{sides}"),
                from_icepool(n @ d(sides)),
                brute_force_pool(n, sides, sum))


def test_single_die_without_count():
    assert_same(exact_of("d20"), from_icepool(icepool.d20), brute_force([20], sum))


def test_zero_dice_sum_to_zero():
    assert_same(exact_of("0d6"), {0: Fraction(1)})


# ---- (n)d6: the number of dice from an expression -------------------------------------------------

@pytest.mark.parametrize("n", [0, 1, 2, 3, 4, 5])
def test_dice_count_from_parameter(n):
    assert_same(exact_of("(n)d6", n=n),
                from_icepool(n @ icepool.d6),
                brute_force_pool(n, 6, sum))


def test_dice_count_from_arithmetic():
    assert_same(exact_of("(n + 1)d4", n=2), from_icepool(3 @ icepool.d4),
                brute_force_pool(3, 4, sum))


def test_dice_count_from_a_roll():
    # (d4)d6: roll a d4, then that many d6. Brute force rolls the d4 and four d6, and sums the
    # first k of the d6 (the rest are rolled but unused, which keeps every sequence equally likely).
    assert_same(exact_of("(d4)d6"),
                from_icepool(icepool.d4 @ icepool.d6),
                brute_force([4, 6, 6, 6, 6], lambda f: sum(f[1:1 + f[0]])))


# ---- keep and drop --------------------------------------------------------------------------------

def keep_cases():
    """(form, n, sides, k): every k from 0 to n for each form; 1-5 dice of d4, d6, d8."""
    for form in ("keep highest", "keep lowest", "drop highest", "drop lowest"):
        for sides in (4, 6, 8):
            for n in range(1, 6):
                for k in range(0, n + 1):
                    yield pytest.param(form, n, sides, k, id=f"{n}d{sides} {form} {k}")


KEEP_CASES = list(keep_cases())


def kept_sum(form: str, k: int, faces) -> int:
    """The brute-force meaning of a keep/drop modifier on one sequence of faces."""
    ordered = sorted(faces)
    n = len(ordered)
    if form == "keep highest":
        return sum(ordered[n - k:])
    if form == "keep lowest":
        return sum(ordered[:k])
    if form == "drop highest":
        return sum(ordered[:n - k])
    return sum(ordered[k:])  # drop lowest


def icepool_kept(form: str, n: int, die: icepool.Die, k: int) -> icepool.Die:
    pool = die.pool(n)
    if form == "keep highest":
        return pool.highest(keep=k).sum()
    if form == "keep lowest":
        return pool.lowest(keep=k).sum()
    if form == "drop highest":
        return pool.highest(drop=k).sum()
    return pool.lowest(drop=k).sum()


@pytest.mark.parametrize("form, n, sides, k", KEEP_CASES)
def test_keep_and_drop(form, n, sides, k):
    assert_same(exact_of(f"{n}d{sides} {form} {k}"),
                from_icepool(icepool_kept(form, n, d(sides), k)),
                brute_force_pool(n, sides, lambda faces: kept_sum(form, k, faces)))


@pytest.mark.parametrize("n", [0, 1, 2, 3, 4, 5])
def test_drop_lowest_with_dynamic_count(n):
    # (n)d6 drop lowest 1: with one die or none there is nothing left to sum.
    assert_same(exact_of("(n)d6 drop lowest 1", n=n),
                from_icepool(icepool.d6.pool(n).highest(keep=max(n - 1, 0)).sum()),
                brute_force_pool(n, 6, lambda f: kept_sum("drop lowest", min(1, n), f)))


@pytest.mark.parametrize("n", [0, 1, 2, 3, 4, 5])
def test_keep_more_than_rolled_keeps_all(n):
    # The checker cannot see a dynamic count, so keeping 3 of 2 dice must keep both.
    assert_same(exact_of("(n)d6 keep highest 3", n=n),
                from_icepool(icepool.d6.pool(n).highest(keep=min(3, n)).sum()),
                brute_force_pool(n, 6, lambda f: kept_sum("keep highest", min(3, n), f)))


# ---- rerolls: each matching die rerolled once, the second result stands ----------------------------

REROLL_PREDICATES = {
    # rules text: the faces it rerolls (as a Python test on one face)
    "<= 2": lambda f: f <= 2,
    "< 3": lambda f: f < 3,
    ">= 5": lambda f: f >= 5,
    "> 4": lambda f: f > 4,
    "== 1": lambda f: f == 1,
    "!= 6": lambda f: f != 6,
    "in {1,2}": lambda f: f in {1, 2},
    "in {1,6}": lambda f: f in {1, 6},
    "odd": lambda f: f % 2 == 1,
    "even": lambda f: f % 2 == 0,
}


def reroll_cases():
    for text in REROLL_PREDICATES:
        for n, sides in ((1, 6), (2, 6), (3, 6), (2, 4), (2, 8), (1, 10)):
            yield pytest.param(text, n, sides, id=f"{n}d{sides} reroll {text}")


REROLL_CASES = list(reroll_cases())


@pytest.mark.parametrize("predicate, n, sides", REROLL_CASES)
def test_reroll_once(predicate, n, sides):
    matches = REROLL_PREDICATES[predicate]
    faces = [f for f in range(1, sides + 1) if matches(f)]
    one = icepool_reroll_once(d(sides), faces)
    assert_same(exact_of(f"{n}d{sides} reroll {predicate}"),
                from_icepool(n @ one),
                brute_force([sides] * (2 * n), lambda f: sum(rerolled(f, matches))))


@pytest.mark.parametrize("threshold", [0, 1, 3, 6])
def test_reroll_threshold_from_parameter(threshold):
    matches = lambda f: f <= threshold  # noqa: E731
    assert_same(exact_of("2d6 reroll <= t", t=threshold),
                from_icepool(2 @ icepool_reroll_once(icepool.d6, range(1, threshold + 1))),
                brute_force([6] * 4, lambda f: sum(rerolled(f, matches))))


@pytest.mark.parametrize("form", ["drop lowest 1", "keep highest 1", "keep lowest 2"])
def test_reroll_then_keep(form):
    # Each die is rerolled first, then the pool is kept or dropped: 3d6 reroll <= 2 drop lowest 1.
    keep_form, k = form.rsplit(" ", 1)
    one = icepool.d6.reroll([1, 2], depth=1)
    assert_same(exact_of(f"3d6 reroll <= 2 {form}"),
                from_icepool(icepool_kept(keep_form, 3, one, int(k))),
                brute_force([6] * 6, lambda f: kept_sum(keep_form, int(k),
                                                         rerolled(f, lambda x: x <= 2))))


# ---- counting successes ----------------------------------------------------------------------------

COUNT_CASES = [
    # (rules text, dice count, sides, the faces counted)
    ("count >= 5 in 6d6", 6, 6, lambda f: f >= 5),
    ("count in {1,6} in 4d6", 4, 6, lambda f: f in {1, 6}),
    ("count odd in 3d10", 3, 10, lambda f: f % 2 == 1),
    ("count < 3 in 4d4", 4, 4, lambda f: f < 3),
    ("count == 6 in 5d6", 5, 6, lambda f: f == 6),
    ("count != 1 in 3d6", 3, 6, lambda f: f != 1),
    ("count > 2 in 2d8", 2, 8, lambda f: f > 2),
    ("count <= 1 in 1d6", 1, 6, lambda f: f <= 1),
]


@pytest.mark.parametrize("text, n, sides, counted", COUNT_CASES, ids=[c[0] for c in COUNT_CASES])
def test_count(text, n, sides, counted):
    faces = [f for f in range(1, sides + 1) if counted(f)]
    assert_same(exact_of(text),
                from_icepool(icepool_count(d(sides), n, faces)),
                brute_force_pool(n, sides, lambda f: sum(1 for x in f if counted(x))))


@pytest.mark.parametrize("n", [0, 1, 2, 3, 4, 5])
def test_count_even_in_dynamic_pool(n):
    assert_same(exact_of("count even in (n)d8", n=n),
                from_icepool(icepool_count(icepool.d8, n, [2, 4, 6, 8])),
                brute_force_pool(n, 8, lambda f: sum(1 for x in f if x % 2 == 0)))


@pytest.mark.parametrize("t", [0, 3, 6])
def test_count_threshold_from_parameter(t):
    assert_same(exact_of("count > t in 4d6", t=t),
                from_icepool(icepool_count(icepool.d6, 4, [f for f in range(1, 7) if f > t])),
                brute_force_pool(4, 6, lambda f: sum(1 for x in f if x > t)))


def test_count_in_rerolled_pool():
    # The dice are rerolled before they are counted: count even in 3d6 reroll odd.
    one = icepool.d6.reroll([1, 3, 5], depth=1)
    assert_same(exact_of("count even in 3d6 reroll odd"),
                from_icepool(icepool_count(one, 3, [2, 4, 6])),
                brute_force([6] * 6, lambda f: sum(1 for x in rerolled(f, lambda v: v % 2)
                                                   if x % 2 == 0)))


def test_count_from_a_rolled_number_of_dice():
    assert_same(exact_of("count >= 4 in (d4)d6"),
                from_icepool(icepool.d4.map(lambda k: icepool_count(icepool.d6, k, [4, 5, 6]))),
                brute_force([4, 6, 6, 6, 6], lambda f: sum(1 for x in f[1:1 + f[0]] if x >= 4)))


# ---- arithmetic on rolls -----------------------------------------------------------------------------

ARITHMETIC_CASES = [
    # (rules text, icepool, physical dice, brute-force outcome)
    ("d6 * 3 - d4", icepool.d6 * 3 - icepool.d4, [6, 4], lambda f: f[0] * 3 - f[1]),
    ("2d6 + d8 - 3", (2 @ icepool.d6) + icepool.d8 - 3, [6, 6, 8], lambda f: sum(f) - 3),
    # two rolls of d6 are independent: d6 - d6 is not 0
    ("d6 - d6", icepool.d6 - icepool.d6, [6, 6], lambda f: f[0] - f[1]),
    ("-d6", -icepool.d6, [6], lambda f: -f[0]),
    ("d6 * d6", icepool.d6 * icepool.d6, [6, 6], lambda f: f[0] * f[1]),
    ("d6 / 2", icepool.d6.map(lambda a: norm(Fraction(a, 2))), [6], lambda f: Fraction(f[0], 2)),
    ("(3d6 + 1) / 4", (3 @ icepool.d6).map(lambda a: norm(Fraction(a + 1, 4))), [6, 6, 6],
     lambda f: Fraction(sum(f) + 1, 4)),
    ("4d6 drop lowest 1 - 3d6", icepool.d6.highest(4, 3) - 3 @ icepool.d6, [6] * 7,
     lambda f: sum(f[:4]) - min(f[:4]) - sum(f[4:])),
]


@pytest.mark.parametrize("text, die, sides, outcome", ARITHMETIC_CASES,
                         ids=[c[0] for c in ARITHMETIC_CASES])
def test_arithmetic(text, die, sides, outcome):
    assert_same(exact_of(text), from_icepool(die), brute_force(sides, outcome))


def test_division_keeps_exact_fractions():
    result = exact_of("d6 / 4")
    assert result[Fraction(1, 4)] == Fraction(1, 6)
    assert isinstance(next(v for v in result if v == 1), int)  # 4/4 reported as the int 1


# ---- comparisons and thresholds ------------------------------------------------------------------------

COMPARISONS = [">=", ">", "<=", "<", "==", "!="]


@pytest.mark.parametrize("op", COMPARISONS)
@pytest.mark.parametrize("threshold", [3, 10, 15, 18, 19])
def test_threshold(op, threshold):
    python_op = {">=": lambda a, b: a >= b, ">": lambda a, b: a > b, "<=": lambda a, b: a <= b,
                 "<": lambda a, b: a < b, "==": lambda a, b: a == b, "!=": lambda a, b: a != b}[op]
    roll = 3 @ icepool.d6
    assert_same(exact_of(f"3d6 {op} {threshold}", "bool"),
                from_icepool(roll.map(lambda v: python_op(v, threshold))),
                brute_force_pool(3, 6, lambda f: python_op(sum(f), threshold)))


def test_threshold_results_are_bools_even_when_certain():
    assert_same(exact_of("3d6 >= 3", "bool"), {True: Fraction(1)})
    assert_same(exact_of("3d6 > 18", "bool"), {False: Fraction(1)})


def test_logic_of_independent_rolls():
    assert_same(exact_of("d6 >= 4 and d6 >= 4", "bool"),
                from_icepool(icepool.map(lambda a, b: a >= 4 and b >= 4, icepool.d6, icepool.d6)),
                brute_force([6, 6], lambda f: f[0] >= 4 and f[1] >= 4))
    assert_same(exact_of("not (2d6 >= 7) or d6 == 6", "bool"),
                brute_force([6, 6, 6], lambda f: not (f[0] + f[1] >= 7) or f[2] == 6))


# ---- opposed rolls -------------------------------------------------------------------------------------

@pytest.mark.parametrize("a, b", [(1, 1), (2, 3), (3, 2), (4, 1), (1, 6)])
def test_opposed_roll(a, b):
    assert_same(exact_of("d6 * a > d6 * b", "bool", a=a, b=b),
                from_icepool(icepool.map(lambda x, y: x * a > y * b, icepool.d6, icepool.d6)),
                brute_force([6, 6], lambda f: f[0] * a > f[1] * b))


def test_opposed_pools_with_modifiers():
    assert_same(exact_of("2d6 + a > 2d6 + b", "bool", a=1, b=2),
                from_icepool(icepool.map(lambda x, y: x + 1 > y + 2, 2 @ icepool.d6,
                                         2 @ icepool.d6)),
                brute_force([6] * 4, lambda f: f[0] + f[1] + 1 > f[2] + f[3] + 2))


# ---- conditionals ----------------------------------------------------------------------------------------

@pytest.mark.parametrize("threshold", [3, 11, 18, 19])
def test_conditional_on_a_roll(threshold):
    assert_same(exact_of(f"if 3d6 >= {threshold} then 2 else 0"),
                from_icepool((3 @ icepool.d6).map(lambda v: 2 if v >= threshold else 0)),
                brute_force_pool(3, 6, lambda f: 2 if sum(f) >= threshold else 0))


def test_conditional_with_rolled_branches():
    # Only the chosen branch's dice matter; brute force rolls all of them.
    assert_same(exact_of("if d6 >= 4 then 2d6 else d4"),
                from_icepool(icepool.d6.map(lambda c: 2 @ icepool.d6 if c >= 4 else icepool.d4)),
                brute_force([6, 6, 6, 4], lambda f: f[1] + f[2] if f[0] >= 4 else f[3]))


def test_bool_conditional():
    assert_same(exact_of("if d6 == 6 then d6 >= 2 else d6 >= 5", "bool"),
                brute_force([6, 6, 6], lambda f: f[1] >= 2 if f[0] == 6 else f[2] >= 5))


# ---- modifiers ------------------------------------------------------------------------------------------

@pytest.mark.parametrize("lvl, defence", [(0, 0), (3, 5), (5, 3), (20, 0), (0, 20), (10, 0)])
def test_modified_d20_check(lvl, defence):
    assert_same(exact_of("d20 + lvl - def >= 11", "bool", lvl=lvl, **{"def": defence}),
                from_icepool((icepool.d20 + lvl - defence).map(lambda v: v >= 11)),
                brute_force([20], lambda f: f[0] + lvl - defence >= 11))


# ---- builtins -----------------------------------------------------------------------------------------

BUILTIN_CASES = [
    ("min(d6, d6)", icepool.map(lambda a, b: min(a, b), icepool.d6, icepool.d6), [6, 6], min),
    ("max(2d6, d8)", icepool.map(lambda a, b: max(a, b), 2 @ icepool.d6, icepool.d8), [6, 6, 8],
     lambda f: max(f[0] + f[1], f[2])),
    ("max(d6, 4)", icepool.d6.map(lambda v: max(v, 4)), [6], lambda f: max(f[0], 4)),
    ("min(4d6 drop lowest 1, 15)", icepool.d6.highest(4, 3).map(lambda v: min(v, 15)), [6] * 4,
     lambda f: min(sum(f) - min(f), 15)),
    ("floor(d6 / 2)", icepool.d6.map(lambda v: v // 2), [6], lambda f: f[0] // 2),
    ("ceil(3d6 / 4)", (3 @ icepool.d6).map(lambda v: -(-v // 4)), [6, 6, 6],
     lambda f: math.ceil(Fraction(sum(f), 4))),
    ("abs(d6 - d6)", icepool.map(lambda a, b: abs(a - b), icepool.d6, icepool.d6), [6, 6],
     lambda f: abs(f[0] - f[1])),
]


@pytest.mark.parametrize("text, die, sides, outcome", BUILTIN_CASES,
                         ids=[c[0] for c in BUILTIN_CASES])
def test_builtin(text, die, sides, outcome):
    assert_same(exact_of(text), from_icepool(die), brute_force(sides, outcome))


# ---- a roll is one value; a dice argument is rolled at each use ------------------------------------------

def test_let_bound_roll_is_one_value():
    # x + x doubles one d6 (2, 4, ..., 12); it is not 2d6.
    text = 'ruleset "t"\naction a(f: fighter) -> number { let x = d6  return x + x }\n'
    assert_same(run_exact(text, "a", {"f": ME}, [FighterSpec("me")]),
                from_icepool(icepool.d6 * 2), brute_force([6], lambda f: 2 * f[0]))


def test_dice_parameter_is_rolled_at_each_use():
    # A `dice` parameter is the roll itself, not a number: each use rolls again, so r + r is 2d6.
    text = ('ruleset "t"\n'
            'procedure twice(f: fighter, r: dice) -> number { return r + r }\n'
            'action a(f: fighter) -> number { return twice(f, d6) }\n')
    assert_same(run_exact(text, "a", {"f": ME}, [FighterSpec("me")]),
                from_icepool(2 @ icepool.d6), brute_force([6, 6], sum))


# ---- rolls used again after a question was asked of them ---------------------------------------------
#
# The exact evaluator keeps a roll whole until a rule asks about it, then follows the "yes" and "no"
# parts; later uses of the roll must see only the faces consistent with the answers so far. The
# greedy and random policies switch that off (every roll is split at once, for memoised look-ahead),
# so each case runs under both paths; there are no decisions here, so both must agree with the
# brute force.

STATEMENT_PRELUDE = '''ruleset "t"
define dbl(x: number) = x * 2
table band(x) -> v {
  when x >= 10 => 2
  when x >= 5 => 1
  otherwise => 0
}
procedure half(f: fighter, x: number) -> number {
  if x >= 4 {
    return x
  }
  return 0
}
'''

STATEMENT_CASES = [
    # (name, action body, physical dice, brute-force result from the faces)
    ("same roll asked twice",
     "let a = 3d6  if a >= 10 { if a <= 12 { return 1 } return 2 }  return 0",
     [6, 6, 6], lambda f: (1 if sum(f) <= 12 else 2) if sum(f) >= 10 else 0),
    ("roll returned after a question",
     "let a = 3d6  if a >= 10 { return a }  return 0",
     [6, 6, 6], lambda f: sum(f) if sum(f) >= 10 else 0),
    ("two rolls in one condition",
     "let a = 2d6  let b = d6  if a > b + 3 { return a - b }  return 0",
     [6, 6, 6], lambda f: f[0] + f[1] - f[2] if f[0] + f[1] > f[2] + 3 else 0),
    ("condition with dice of its own",
     "let a = d6  if a + d6 >= 8 { return a }  return 0",
     [6, 6], lambda f: f[0] if f[0] + f[1] >= 8 else 0),
    ("an alias of a roll",
     "let a = 2d6  let b = a  if b >= 7 { return a * 10 + b }  return 0",
     [6, 6], lambda f: 11 * (f[0] + f[1]) if f[0] + f[1] >= 7 else 0),
    ("a roll added to",
     "let a = d6  set a += d6  if a >= 7 { return a }  return 0",
     [6, 6], lambda f: sum(f) if sum(f) >= 7 else 0),
    ("a roll passed to a procedure and used again",
     "let a = d6  let h = half(f, a)  return h + a",
     [6], lambda f: (f[0] if f[0] >= 4 else 0) + f[0]),
    ("a rolled number of repeats",
     "let n = d4  let total = 0  repeat n times { set total += d6 }  return total",
     [4, 6, 6, 6, 6], lambda f: sum(f[1:1 + f[0]])),
    ("a compound condition",
     "let a = 2d6  if a * 2 - 3 >= 10 and a != 12 { return 1 }  return 0",
     [6, 6], lambda f: 1 if 2 * sum(f) - 3 >= 10 and sum(f) != 12 else 0),
    ("an else-if chain",
     "let a = d20  if a >= 15 { return 3 } else if a >= 10 { return 2 } "
     "else if a == 1 { return -1 }  return 0",
     [20], lambda f: 3 if f[0] >= 15 else 2 if f[0] >= 10 else -1 if f[0] == 1 else 0),
    ("a conditioned roll as a number of dice",
     "let n = d6  if n >= 3 { return (n)d4 }  return 0",
     [6, 4, 4, 4, 4, 4, 4], lambda f: sum(f[1:1 + f[0]]) if f[0] >= 3 else 0),
    ("a conditioned roll as a reroll threshold",
     "let t = d4  if t >= 2 { return 2d6 reroll <= t }  return 0",
     [4, 6, 6, 6, 6], lambda f: sum(rerolled(f[1:], lambda x: x <= f[0])) if f[0] >= 2 else 0),
    ("a roll as a count threshold",
     "let t = d6  return count >= t in 3d6",
     [6, 6, 6, 6], lambda f: sum(1 for x in f[1:] if x >= f[0])),
    ("a roll through a table and a definition",
     "let a = 3d6  return band(a) + dbl(a)",
     [6, 6, 6], lambda f: (2 if sum(f) >= 10 else 1 if sum(f) >= 5 else 0) + 2 * sum(f)),
]


@pytest.mark.parametrize("policy", ["first", "greedy"])
@pytest.mark.parametrize("name, body, sides, outcome", STATEMENT_CASES,
                         ids=[c[0] for c in STATEMENT_CASES])
def test_statements_reading_a_roll(name, body, sides, outcome, policy):
    text = STATEMENT_PRELUDE + f"action a(f: fighter) -> number {{ {body} }}\n"
    assert_same(run_exact(text, "a", {"f": ME}, [FighterSpec("me")], policy=policy),
                brute_force(sides, outcome))


@pytest.mark.parametrize("policy", ["first", "greedy"])
def test_comparing_two_kept_rolls(policy):
    text = STATEMENT_PRELUDE + "action a(f: fighter) -> bool { let a = d6  let b = d6  " \
                               "return a > b }\n"
    assert_same(run_exact(text, "a", {"f": ME}, [FighterSpec("me")], policy=policy),
                brute_force([6, 6], lambda f: f[0] > f[1]))


# ================================================================================================
# 2. warband.run.dice directly against brute force
# ================================================================================================

def fair(sides: int) -> Dist:
    return dice.die(dice.standard_faces(sides))


# Single dice that are not plain fair dice: a rerolled die, a Fudge die with a negative face, a die
# with a repeated face, a d3 on faces 2, 4, 7.
ODD_SINGLES = {
    "d6 reroll 1": dice.reroll_once(dice.standard_faces(6), frozenset({1})),
    "fudge": dice.die((-1, 0, 1)),
    "1,1,2": dice.die((1, 1, 2)),
    "2,4,7": dice.die((2, 4, 7)),
}
SINGLES = {"d4": fair(4), "d6": fair(6), **ODD_SINGLES}


def test_die_is_uniform_over_its_faces():
    assert_same(fair(6), brute_force([6], sum))
    assert dict(dice.die((1, 1, 2)).items()) == {1: Fraction(2, 3), 2: Fraction(1, 3)}


@pytest.mark.parametrize("sides", [2, 4, 6])
def test_reroll_once_every_subset_of_faces(sides):
    faces = dice.standard_faces(sides)
    for size in range(sides + 1):
        for subset in itertools.combinations(faces, size):
            reroll = frozenset(subset)
            got = dice.reroll_once(faces, reroll)
            assert_same(got,
                        from_icepool(icepool_reroll_once(d(sides), subset)),
                        brute_force([sides, sides], lambda f: rerolled(f, reroll.__contains__)[0]))


@pytest.mark.parametrize("name", SINGLES)
@pytest.mark.parametrize("n", [0, 1, 2, 3, 4, 5])
def test_pool_sum(name, n):
    single = SINGLES[name]
    assert_same(dice.pool_sum(single, n), weighted_brute_force(single, n, sum))


@pytest.mark.parametrize("name", SINGLES)
@pytest.mark.parametrize("n", [0, 1, 3, 5])
def test_pool_count(name, n):
    single = SINGLES[name]
    successes = frozenset(v for v in single if v % 2 == 0)
    assert_same(dice.pool_count(single, n, successes),
                weighted_brute_force(single, n, lambda f: sum(1 for v in f if v in successes)))


@pytest.mark.parametrize("highest", [True, False], ids=["highest", "lowest"])
@pytest.mark.parametrize("name", SINGLES)
@pytest.mark.parametrize("n", [0, 1, 2, 3, 4])
def test_pool_keep(name, n, highest):
    single = SINGLES[name]
    for keep in range(0, n + 2):  # keeping more than n keeps all n
        k = min(keep, n)

        def kept(faces):
            ordered = sorted(faces)
            return sum(ordered[len(ordered) - k:]) if highest else sum(ordered[:k])
        assert_same(dice.pool_keep(single, n, keep, highest),
                    weighted_brute_force(single, n, kept))


@settings(max_examples=60, deadline=None, derandomize=True, database=None)
@given(weights=st.dictionaries(st.integers(-3, 9), st.integers(1, 5), min_size=1, max_size=4),
       n=st.integers(0, 4), keep=st.integers(0, 5), highest=st.booleans())
def test_pool_keep_any_die(weights, n, keep, highest):
    # Any small loaded die: faces with integer weights.
    total = sum(weights.values())
    single = Dist({face: Fraction(w, total) for face, w in weights.items()})
    k = min(keep, n)

    def kept(faces):
        ordered = sorted(faces)
        return sum(ordered[len(ordered) - k:]) if highest else sum(ordered[:k])
    assert_same(dice.pool_keep(single, n, keep, highest), weighted_brute_force(single, n, kept))
    assert_same(dice.pool_sum(single, n), weighted_brute_force(single, n, sum))


def test_pool_keep_refuses_an_enumeration_too_large():
    with pytest.raises(OverflowError):
        dice.pool_keep(fair(1000), 100, 3, True)


def test_mixture_and_combine():
    coin = Dist.uniform([0, 1])
    assert dict(Dist.mixture([(Fraction(1, 4), Dist.point(0)),
                              (Fraction(3, 4), coin)]).items()) == {0: Fraction(5, 8),
                                                                     1: Fraction(3, 8)}
    assert_same(fair(6).combine(fair(4), lambda a, b: a * b),
                brute_force([6, 4], lambda f: f[0] * f[1]))


# ================================================================================================
# 3. Procedure-level forms
# ================================================================================================

# ---- a hit cancelled by a save -----------------------------------------------------------------------

HIT_AND_SAVE = '''ruleset "t"
outcomes shot { hit = 1  miss = 0 }
counter Fate on side

procedure shoot(shooter: fighter, target: fighter, skill: number, save: number) -> shot {
  if d6 >= skill {
    # the target's save cancels the hit; it may spend Fate to reroll a failed save
    let roll = d6
    choose save_reroll by target {
      option keep
      option reroll when target.side.Fate >= 1 {
        set target.side.Fate -= 1
        set roll = d6
      }
    }
    if roll >= save {
      return miss
    }
    return hit
  }
  return miss
}

procedure aimed(shooter: fighter) -> shot {
  # the save is harder the better the hit: the two rolls are not independent
  let roll = 2d6
  if roll >= 7 {
    if d6 + roll >= 13 {
      return miss
    }
    return hit
  }
  return miss
}
'''
SHOOTER_AND_TARGET = [FighterSpec("shooter", 0), FighterSpec("target", 1)]


def shot_dist(p_hit: Fraction) -> dict:
    return {"hit": p_hit, "miss": 1 - p_hit}


@pytest.mark.parametrize("skill, save", [(3, 4), (4, 4), (6, 2), (1, 7), (2, 1)])
def test_hit_then_save(skill, save):
    got = run_exact(HIT_AND_SAVE, "shoot", {"shooter": ME, "target": Ref("fighter", 1),
                                            "skill": skill, "save": save}, SHOOTER_AND_TARGET)
    hit_and_unsaved = lambda f: "hit" if f[0] >= skill and f[1] < save else "miss"  # noqa: E731
    assert_same(got,
                from_icepool(icepool.map(lambda h, s: "hit" if h >= skill and s < save else "miss",
                                         icepool.d6, icepool.d6)),
                brute_force([6, 6], hit_and_unsaved))


def test_save_depending_on_the_hit_roll():
    got = run_exact(HIT_AND_SAVE, "aimed", {"shooter": ME}, SHOOTER_AND_TARGET)
    assert_same(got, brute_force([6, 6, 6], lambda f: "hit" if f[0] + f[1] >= 7
                                 and f[2] + f[0] + f[1] < 13 else "miss"))


@pytest.mark.parametrize("policy", ["first", "greedy", "random"])
def test_opponent_save_reroll(policy):
    # The target (the other side) decides whether to reroll its save. Greedy plays the target
    # against the shooter: it rerolls every failed save and keeps every good one. Random rerolls
    # half of all saves, good or bad, which leaves the chance of a failed save at 1/2; first never
    # rerolls.
    args = {"shooter": ME, "target": Ref("fighter", 1), "skill": 3, "save": 4}
    got = run_exact(HIT_AND_SAVE, "shoot", args, SHOOTER_AND_TARGET, [{}, {"Fate": 1}], policy)
    p_fail = Fraction(1, 2)
    p_fail_after = {"first": p_fail, "greedy": p_fail * p_fail,
                    "random": Fraction(1, 2) * p_fail + Fraction(1, 2) * p_fail}[policy]
    assert_same(got, shot_dist(Fraction(4, 6) * p_fail_after))


# ---- Fate: decisions to reroll and to change a result ------------------------------------------------

FATE = (Path(__file__).parent / "fate.rules").read_text(encoding="utf-8")
TWO_D6 = from_icepool(2 @ icepool.d6)


def fate_exact(action: str, tokens: int, policy: str, **args) -> Dist:
    return run_exact(FATE, action, {"f": ME, **args}, [FighterSpec("me")], [{"Fate": tokens}],
                     policy)


def mix(weighted: list[tuple[Fraction, dict]]) -> dict:
    out: dict = {}
    for w, dist in weighted:
        for v, p in dist.items():
            out[v] = out.get(v, 0) + w * p
    return out


def shift(dist: dict, by: int) -> dict:
    return {v + by: p for v, p in dist.items()}


def expected(dist: dict, value) -> Fraction:
    return sum((p * value(v) for v, p in dist.items()), Fraction(0))


def best_option(options: list[dict], value) -> dict:
    """Expectimax: the option with the highest expected value; ties go to the earlier option."""
    best = options[0]
    for option in options[1:]:
        if expected(option, value) > expected(best, value):
            best = option
    return best


def fated_by_hand(roll: dict, tokens: int, value) -> dict:
    """The distribution of the `fated` procedure's result when its owner plays greedily, i.e.
    takes at each decision the option whose future has the highest expected `value(result)`.
    Written from the rules' text, independent of the interpreter."""

    def modify(r: int, t: int) -> dict:
        options = [{r: Fraction(1)}]                      # keep
        if t >= 1:
            options += [{r + 1: Fraction(1)}, {r - 1: Fraction(1)}]  # raise, lower
        return best_option(options, value)

    out: list = []
    for r, p in roll.items():
        options = [modify(r, tokens)]                     # keep the roll
        if tokens >= 1:                                   # reroll: the new roll, one token fewer
            options.append(mix([(q, modify(r2, tokens - 1)) for r2, q in roll.items()]))
        out.append((p, best_option(options, value)))
    return mix(out)


@pytest.mark.parametrize("tokens", [0, 1, 2])
def test_fate_first_policy_is_the_plain_roll(tokens):
    assert_same(fate_exact("total", tokens, "first"), TWO_D6)


@pytest.mark.parametrize("tokens", [0, 1, 2, 3])
def test_fate_greedy_maximising_the_total(tokens):
    want = fated_by_hand(TWO_D6, tokens, lambda r: r)
    assert_same(fate_exact("total", tokens, "greedy"), want)


def test_fate_greedy_by_hand_is_what_we_think():
    # Spot check of the hand model with one token: keep 6 or more and raise it, else reroll.
    want = mix([(p, {r + 1: Fraction(1)} if r >= 6 else TWO_D6) for r, p in TWO_D6.items()])
    assert fated_by_hand(TWO_D6, 1, lambda r: r) == want


@pytest.mark.parametrize("tokens", [1, 2])
@pytest.mark.parametrize("target", [6, 8, 9, 11, 12, 13])
def test_fate_greedy_aiming_at_a_target(tokens, target):
    # With a bool result, greedy maximises the chance of success, not the total: a 9 needing
    # 10 is raised, a 7 needing 10 is rerolled.
    final = fated_by_hand(TWO_D6, tokens, lambda r: 1 if r >= target else 0)
    p = sum((q for r, q in final.items() if r >= target), Fraction(0))
    assert_same(fate_exact("beat", tokens, "greedy", target=target), {True: p, False: 1 - p})


def test_fate_random_policy_mixes_legal_options_evenly():
    # One token: keep or reroll, 1/2 each. After a reroll no token is left, so the only legal
    # change is keep; after keeping, keep/raise/lower are 1/3 each.
    kept = mix([(Fraction(1, 3), TWO_D6), (Fraction(1, 3), shift(TWO_D6, 1)),
                (Fraction(1, 3), shift(TWO_D6, -1))])
    want = mix([(Fraction(1, 2), kept), (Fraction(1, 2), TWO_D6)])
    assert_same(fate_exact("total", 1, "random"), want)


def test_random_two_options_is_the_50_50_mixture():
    three = from_icepool(3 @ icepool.d6)
    want = mix([(Fraction(1, 2), three), (Fraction(1, 2), shift(three, 2))])
    assert_same(fate_exact("nudge", 0, "random"), want)


def test_random_with_only_one_legal_option_is_the_plain_roll():
    assert_same(fate_exact("total", 0, "random"), TWO_D6)


def test_scripted_options():
    def scripted(tokens, **by_decision):
        return run_exact(FATE, "total", {"f": ME}, [FighterSpec("me")], [{"Fate": tokens}],
                         "first", by_decision)
    assert_same(scripted(1, fate_modify="raise"), shift(TWO_D6, 1))
    assert_same(scripted(1, fate_modify="lower"), shift(TWO_D6, -1))
    assert_same(scripted(1, fate_reroll="reroll", fate_modify="raise"), TWO_D6)  # token spent
    assert_same(scripted(2, fate_reroll="reroll", fate_modify="raise"), shift(TWO_D6, 1))
    # a scripted option that is not legal (no token) falls back to the first legal option
    assert_same(scripted(0, fate_modify="raise"), TWO_D6)


# ---- the Super Simple Skirmish attack --------------------------------------------------------------------

@pytest.fixture(scope="module")
def sss_rules():
    compiled = load("super-simple-skirmish")
    assert compiled.ruleset is not None, compiled.diagnostics
    return compiled.ruleset


def sss_world(ruleset, attacker: FighterSpec, target: FighterSpec, fate=(0, 0)):
    return make_world(ruleset, [attacker, target], [{"Fate": fate[0]}, {"Fate": fate[1]}])


def sss_outcomes(roll: dict, kill: int, stun: int, p_save: Fraction, stunned: bool) -> dict:
    """Attack outcome from the final attack roll: below `stun` nothing; else a save (p_save)
    cancels; else kill at `kill` or more, or if the target was already stunned."""
    out = {"kill": Fraction(0), "stun": Fraction(0), "none": Fraction(0)}
    for r, p in roll.items():
        if r < stun:
            out["none"] += p
            continue
        out["none"] += p * p_save
        out["kill" if r >= kill or stunned else "stun"] += p * (1 - p_save)
    return out


SSS_CASES = [
    # attacker, target, (kill, stun) from the attack table, attack dice (physical), attack roll
    pytest.param(FighterSpec("soldier", 0, "Soldier", {"Might": 10}),
                 FighterSpec("gunslinger", 1, "Gunslinger", {"Might": 25}), False,
                 (17, 15), [6, 6, 6], sum, id="Soldier 10 vs Gunslinger 25"),
    # a stunned target counts half its Might: 10 < 12.5 is the 16/14 band, and any effect kills
    pytest.param(FighterSpec("soldier", 0, "Soldier", {"Might": 10}),
                 FighterSpec("gunslinger", 1, "Gunslinger", {"Might": 25}, state={"Stunned": True}),
                 True, (16, 14), [6, 6, 6], sum, id="Soldier 10 vs stunned Gunslinger 25"),
    # a Marksman rolls 4d6 and drops the lowest; 25 >= 2 * 10 is the 13/11 band
    pytest.param(FighterSpec("sniper", 0, "Sniper", {"Might": 25}),
                 FighterSpec("soldier", 1, "Soldier", {"Might": 10}), False,
                 (13, 11), [6, 6, 6, 6], lambda f: sum(f) - min(f), id="Sniper 25 vs Soldier 10"),
]


@pytest.mark.parametrize("cover", [False, True], ids=["open", "cover"])
@pytest.mark.parametrize("attacker, target, stunned, band, attack_dice, attack_roll", SSS_CASES)
def test_sss_shoot(sss_rules, attacker, target, stunned, band, attack_dice, attack_roll, cover):
    world = sss_world(sss_rules, attacker, target)
    args = {"attacker": ME, "target": Ref("fighter", 1), "cover": cover}
    got = Interpreter(sss_rules, Policies("first")).exact("shoot", args, world)
    kill, stun = band

    def outcome(faces):  # the attack dice, then the d6 cover save
        r = attack_roll(faces[:len(attack_dice)])
        if r < stun or (cover and faces[-1] >= 4):
            return "none"
        return "kill" if r >= kill or stunned else "stun"
    roll = brute_force(attack_dice, attack_roll)
    assert_same(got, brute_force(attack_dice + [6], outcome),
                sss_outcomes(roll, kill, stun, Fraction(1, 2) if cover else Fraction(0), stunned))


@pytest.mark.parametrize("fate", [(1, 0), (2, 2), (0, 2), (3, 1)])
@pytest.mark.parametrize("cover", [False, True], ids=["open", "cover"])
def test_sss_shoot_greedy_fate(sss_rules, fate, cover):
    # Both sides play their Fate greedily: the attacker to raise the expected score of the attack
    # (kill 2, stun 1, none 0), the target against it, on its save.
    attacker = FighterSpec("soldier", 0, "Soldier", {"Might": 10})
    target = FighterSpec("gunslinger", 1, "Gunslinger", {"Might": 25})
    world = sss_world(sss_rules, attacker, target, fate)
    args = {"attacker": ME, "target": Ref("fighter", 1), "cover": cover}
    got = Interpreter(sss_rules, Policies("greedy")).exact("shoot", args, world)

    kill, stun = 17, 15
    d6 = from_icepool(icepool.d6)
    save = fated_by_hand(d6, fate[1], lambda s: 1 if s >= 4 else 0)
    p_save = sum((p for s, p in save.items() if s >= 4), Fraction(0)) if cover else Fraction(0)

    def attack_value(r):  # the expected score of a final attack roll r
        if r < stun:
            return 0
        return (1 - p_save) * (2 if r >= kill else 1)
    roll = fated_by_hand(from_icepool(3 @ icepool.d6), fate[0], attack_value)
    assert_same(got, sss_outcomes(roll, kill, stun, p_save, False))


# ================================================================================================
# 4. Bugs found by these tests, now fixed: regression tests (the checker rejecting the form counts)
# ================================================================================================

def compile_or_none(expr: str, returns: str = "number", **args):
    """The ruleset for expr, or None when the checker rejects it (an acceptable fix too)."""
    compiled = compile_text(expression_rules(expr, returns, tuple(args)), "inline.rules")
    return compiled.ruleset


@pytest.mark.parametrize("expr", ["3d6 reroll <= (d4)", "count >= (d6) in 3d6"])
def test_bug_rolled_predicate_value(expr):
    # Either the checker rejects a rolled face in a predicate, or the roll is made first and the
    # result is the mixture over it. A TypeError escaping the interpreter is neither.
    ruleset = compile_or_none(expr)
    if ruleset is None:
        return
    world = make_world(ruleset, [FighterSpec("me")])
    got = Interpreter(ruleset, Policies()).exact("a", {"f": ME}, world)
    if expr.startswith("count"):
        want = from_icepool(icepool.d6.map(lambda t: icepool_count(icepool.d6, 3, range(t, 7))))
    else:
        want = from_icepool(icepool.d4.map(
            lambda t: 3 @ icepool_reroll_once(icepool.d6, range(1, t + 1))))
    assert_same(got, want)


@pytest.mark.parametrize("mode", ["exact", "sample"])
def test_bug_count_with_negative_number_of_dice(mode):
    ruleset = compile_rules(expression_rules("count even in (n)d8", "number", ("n",)))
    world = make_world(ruleset, [FighterSpec("me")])
    interp = Interpreter(ruleset, Policies())
    with pytest.raises(RulesError):
        getattr(interp, mode)("a", {"f": ME, "n": -1}, world)


def test_negative_number_of_dice_is_a_rules_error():
    # The same for a plain roll.
    ruleset = compile_rules(expression_rules("(n)d8", "number", ("n",)))
    world = make_world(ruleset, [FighterSpec("me")])
    with pytest.raises(RulesError):
        Interpreter(ruleset, Policies()).exact("a", {"f": ME, "n": -1}, world)


@pytest.mark.parametrize("expr", ["(n / 2)d6", "count even in (n / 2)d6",
                                  "(n / 2)d6 keep highest 1"])
def test_bug_fractional_number_of_dice(expr):
    # Division makes Fractions, so (f.Might / 2)d6 with an odd Might is easy to write.
    ruleset = compile_rules(expression_rules(expr, "number", ("n",)))
    world = make_world(ruleset, [FighterSpec("me")])
    with pytest.raises(RulesError):
        Interpreter(ruleset, Policies()).exact("a", {"f": ME, "n": 3}, world)


@pytest.mark.parametrize("expr, first_only", [
    ("2d6 reroll <= 1 reroll >= 6", "2d6 reroll <= 1"),
    ("4d6 drop lowest 1 keep highest 1", "4d6 drop lowest 1"),
])
def test_bug_second_modifier_ignored(expr, first_only):
    ruleset = compile_or_none(expr)
    if ruleset is None:
        return  # rejected by the checker: fixed
    world = make_world(ruleset, [FighterSpec("me")])
    got = Interpreter(ruleset, Policies()).exact("a", {"f": ME}, world)
    assert got != exact_of(first_only), f"{expr!r} means the same as {first_only!r}"


def test_bug_count_ignores_keep():
    ruleset = compile_or_none("count even in 4d6 keep highest 2")
    if ruleset is None:
        return
    world = make_world(ruleset, [FighterSpec("me")])
    got = Interpreter(ruleset, Policies()).exact("a", {"f": ME}, world)
    assert_same(got, brute_force_pool(4, 6, lambda f: sum(1 for x in sorted(f)[2:]
                                                           if x % 2 == 0)))


@settings(max_examples=40, deadline=None, derandomize=True, database=None)
@given(weights=st.dictionaries(st.integers(-20, 40), st.integers(1, 9), min_size=1, max_size=8),
       n=st.integers(2, 12))
def test_pool_sum_by_one_big_power_is_pairwise_convolution(weights, n):
    # the big-integer power (Kronecker substitution) against the repeated squaring it replaced
    total = sum(weights.values())
    single = Dist({face: Fraction(w, total) for face, w in weights.items()})
    assert_same(dice.pool_sum(single, n), dice._squared_pool_sum(single, n))


def test_a_large_sum_of_dice_matches_icepool_quickly(oracle):
    import time
    start = time.process_time()
    got = dice.pool_sum(fair(1000), 10)
    assert time.process_time() - start < 5   # pairwise convolution: 13 s
    # (icepool takes 15 s for its reference: kept in pytest's cache, computed once)
    assert_same(got, oracle("10 @ d(1000)", lambda: from_icepool(10 @ d(1000))))


def test_a_sum_too_large_to_work_out_is_refused_at_once():
    import time
    start = time.process_time()
    with pytest.raises(OverflowError):
        dice.pool_sum(fair(1000), 100)
    assert time.process_time() - start < 1
