"""Exact distributions of dice, and sampling from them.

A `Dist` maps outcomes to exact probabilities. Inside, it keeps whole-number weights over one
common denominator (3d6 is 216ths), so splitting, summing and combining rolls is integer
arithmetic; Fractions appear only when someone reads a probability. Pools of dice are computed by
convolution or by enumerating sorted multisets, never by enumerating every face sequence, and are
memoised: a rule that rolls 3d6 a thousand times computes the table once.
"""

from __future__ import annotations

import bisect
import itertools
import math
import random
from collections import Counter
from fractions import Fraction
from functools import lru_cache
from typing import Callable, Hashable, Iterable, Iterator, cast

from warband.limits import MAX_KEEP_STATES, MAX_OUTCOME_PAIRS, MAX_POOL_BITS

# Beyond these, exact enumeration of kept dice or the number of dice in one pool is refused.
SUM_HINT = "roll fewer dice, or dice with fewer sides; or play it out: warband simulate"
KEEP_HINT = ("roll fewer dice, or dice with fewer sides, where some are kept or dropped: such a "
             "roll is worked out exactly, by listing the ways the dice can fall")

COMBINED_HINT = ("combine fewer or smaller rolls: a sum of dice is cheapest as one roll (20d6, "
                 "not 10d6 + 10d6); or play it out: warband simulate")


class TooLarge(OverflowError):
    """Exact arithmetic on rolls that would weigh more than MAX_OUTCOME_PAIRS combinations of
    outcomes: `sizes` are the numbers of outcomes of the distributions combined (for a
    mixture, of its parts), `pairs` what combining them weighs."""

    def __init__(self, sizes: list[int], pairs: int) -> None:
        super().__init__(f"{pairs:,} combinations of outcomes")
        self.sizes, self.pairs = sizes, pairs


def check_pairs(sizes: list[int], pairs: int) -> None:
    if pairs > MAX_OUTCOME_PAIRS:
        raise TooLarge(sizes, pairs)


# rng.randrange(n) for n > 0 is rng._randbelow(n), the very same draw; randrange spends most of
# its time checking its arguments, and the toolkit draws several hundred numbers a game.
_RANDBELOW = getattr(random.Random, "_randbelow", None)


def below(rng, n: int) -> int:
    """A whole number 0 <= x < n from the stream, as rng.randrange(n) draws it."""
    if _RANDBELOW is not None and type(rng) is random.Random:
        return _RANDBELOW(rng, n)
    return rng.randrange(n)


# the same for a caller that surely holds a random.Random: below(rng, n) without the checks
random_below = _RANDBELOW or (lambda rng, n: rng.randrange(n))

ONE = Fraction(1)


class Dist:
    """An immutable finite distribution: outcome -> probability (weight / denominator)."""

    __slots__ = ("_w", "_den", "_p", "_cdf", "_hash")
    _w: dict                                # outcome -> whole-number weight
    _den: int                               # the weights' common denominator
    _p: dict | None                         # outcome -> probability, made when first read
    _cdf: tuple[list, list[int]] | None     # see cumulative()
    _hash: int | None

    def __init__(self, probabilities: dict) -> None:
        """From probabilities (Fractions or whole numbers) that sum to 1."""
        den = 1
        for p in probabilities.values():
            d = p.denominator
            if den % d:
                den = den * d // math.gcd(den, d)
        self._set({v: int(p * den) for v, p in probabilities.items() if p}, den)

    def _set(self, weights: dict, den: int) -> None:
        self._w, self._den = weights, den
        self._p = self._cdf = self._hash = None

    @staticmethod
    def weighted(weights: dict, den: int, clean: bool = False) -> "Dist":
        """From whole-number weights that sum to den (zero weights are dropped, unless the
        caller knows there are none: clean=True)."""
        d = Dist.__new__(Dist)
        d._set(weights if clean else {v: w for v, w in weights.items() if w}, den)
        return d

    @staticmethod
    def point(value: Hashable) -> "Dist":
        return Dist.weighted({value: 1}, 1)

    @staticmethod
    def uniform(values: Iterable[Hashable]) -> "Dist":
        counts = Counter(values)
        return Dist.weighted(dict(counts), sum(counts.values()))

    @staticmethod
    def mixture(weighted: Iterable[tuple[Fraction, "Dist"]]) -> "Dist":
        """The distribution of: pick a part with its probability, then an outcome of it."""
        parts = [(w if type(w) is Fraction else Fraction(w), d) for w, d in weighted if w]
        if len(parts) > 1:
            sizes = [len(d._w) for _, d in parts]
            check_pairs(sizes, sum(sizes))
        den = 1
        for w, d in parts:
            scale = w.denominator * d._den
            den = den * scale // math.gcd(den, scale)
        out: dict = {}
        for w, d in parts:
            factor = w.numerator * (den // (w.denominator * d._den))
            for v, x in d._w.items():
                out[v] = out.get(v, 0) + x * factor
        return Dist.weighted(out, den)

    def partition(self, test: Callable[[Hashable], bool]) -> tuple:
        """(P(test), the outcomes that pass, P(not test), those that fail); a part is None
        when no outcome falls in it."""
        yes: dict
        no: dict
        yes, no = {}, {}
        for v, w in self._w.items():
            (yes if test(v) else no)[v] = w
        out: list = []
        for part in (yes, no):
            total = sum(part.values())
            out += [Fraction(total, self._den), Dist.weighted(part, total, True)] if part else \
                [Fraction(0), None]
        return tuple(out)

    # ---- reading -------------------------------------------------------------------------
    def _probs(self) -> dict:
        if self._p is None:
            den = self._den
            self._p = {v: Fraction(w, den) for v, w in self._w.items()}
        return self._p

    def items(self):
        return self._probs().items()

    def __iter__(self) -> Iterator:
        return iter(self._w)

    def __len__(self) -> int:
        return len(self._w)

    def __contains__(self, value) -> bool:
        return value in self._w

    def __getitem__(self, value) -> Fraction:
        w = self._w.get(value)
        return Fraction(w, self._den) if w else Fraction(0)

    def __eq__(self, other) -> bool:
        if not isinstance(other, Dist) or self._w.keys() != other._w.keys():
            return False
        a, b = self._den, other._den
        return all(w * b == other._w[v] * a for v, w in self._w.items())

    def __hash__(self) -> int:
        if self._hash is None:   # (of the weights in lowest terms: equal Dists, equal weights)
            weights, den = self._w, self._den
            common = math.gcd(den, *weights.values())
            if common > 1:
                self._hash = hash((frozenset([(v, w // common) for v, w in weights.items()]),
                                   den // common))
            else:
                self._hash = hash((frozenset(weights.items()), den))
        return self._hash

    def __repr__(self) -> str:
        inner = ", ".join(f"{k!r}: {v}" for k, v in sorted(self.items(), key=_order))
        return f"Dist({{{inner}}})"

    def total(self) -> Fraction:
        return Fraction(sum(self._w.values()), self._den)

    def only(self) -> Hashable:
        """The outcome of a distribution that has exactly one."""
        (value,) = self._w
        return value

    def probability(self, predicate: Callable[[Hashable], bool]) -> Fraction:
        return Fraction(sum(w for v, w in self._w.items() if predicate(v)), self._den)

    def mean(self) -> Fraction:
        return self.mean_of(lambda v: v)

    def mean_of(self, f: Callable) -> Fraction:
        """The expected value of f(outcome)."""
        return sum((Fraction(f(v)) * w for v, w in self._w.items()), Fraction(0)) / self._den

    # ---- building ------------------------------------------------------------------------
    def map(self, f: Callable) -> "Dist":
        out: dict = {}
        for v, w in self._w.items():
            key = f(v)
            out[key] = out.get(key, 0) + w
        return Dist.weighted(out, self._den)

    def combine(self, other: "Dist", op: Callable) -> "Dist":
        """The distribution of op(a, b) for independent a ~ self, b ~ other."""
        check_pairs([len(self._w), len(other._w)], len(self._w) * len(other._w))
        out: dict = {}
        for a, x in self._w.items():
            for b, y in other._w.items():
                key = op(a, b)
                out[key] = out.get(key, 0) + x * y
        return Dist.weighted(out, self._den * other._den)

    # ---- sampling ------------------------------------------------------------------------
    def sample(self, rng: random.Random) -> Hashable:
        """One outcome, drawn exactly: an integer below the denominator picks it."""
        if len(self._w) == 1:
            return next(iter(self._w))
        values, cdf = self._cdf or self.cumulative()
        return values[bisect.bisect_right(cdf, below(rng, cdf[-1]))]

    def cumulative(self) -> tuple[list, list[int]]:
        """The outcomes in order and their cumulative weights: what `sample` draws from."""
        if self._cdf is None:
            values = sorted(self._w, key=_order)
            self._cdf = (values, list(itertools.accumulate(self._w[v] for v in values)))
        return self._cdf


def weights_of(dist: Dist) -> tuple[dict, int]:
    """A distribution's whole-number weights (outcome -> weight, a copy) and their common
    denominator: what dice pools (run/pools.py) build their multinomial weights from."""
    return dict(dist._w), dist._den


def _order(item):
    v = item[0] if isinstance(item, tuple) and len(item) == 2 and isinstance(item[1], Fraction) \
        else item
    return (type(v).__name__, v) if not isinstance(v, (int, Fraction)) else ("", v)


# --- single dice -----------------------------------------------------------------------------

@lru_cache(maxsize=256)
def die(faces: tuple[int, ...]) -> Dist:
    """A fair die with the given faces (a d6 is faces 1..6)."""
    return Dist.uniform(faces)


def standard_faces(sides: int) -> tuple[int, ...]:
    return tuple(range(1, sides + 1))


@lru_cache(maxsize=256)
def reroll_once(faces: tuple[int, ...], reroll: frozenset[int]) -> Dist:
    """One die rerolled once when it shows a face in `reroll`; the second result stands."""
    base = die(faces)
    den = base._den
    again = sum(w for v, w in base._w.items() if v in reroll)
    # P(v) = P(first is v and kept) + P(first is rerolled) * P(second is v)
    return Dist.weighted({v: (0 if v in reroll else w * den) + again * w
                          for v, w in base._w.items()}, den * den)


# --- pools ---------------------------------------------------------------------------------

@lru_cache(maxsize=1024)
def pool_sum(single: Dist, n: int) -> Dist:
    """Sum of n independent dice, each distributed as `single`."""
    if n <= 0:
        return Dist.point(0)
    if n == 1:
        return single
    if all(type(v) is int for v in single._w):
        return _int_pool_sum(single, n)
    return _squared_pool_sum(single, n)


def _int_pool_sum(single: Dist, n: int) -> Dist:
    """The sum of n dice with whole-number faces, exactly, by one power of a big integer
    (Kronecker substitution): the die's weights are the digits of a number in a base wide
    enough that no sum of products carries over, so the n-th power holds, digit by digit, the
    weight of every total. Python multiplies big integers in C, so 10d1000 takes a fifth of a
    second (pairwise convolution: 13 s). OverflowError when even that is too much work."""
    low, high = min(single._w), max(single._w)
    den = single._den ** n
    width = (den.bit_length() + 8) // 8   # bytes per digit: a total's weight is at most den
    digits = n * (high - low) + 1
    if not sum_fits(single, n):
        raise OverflowError(f"the sum of {n} dice of {high - low + 1} faces is too big to work "
                            "out exactly")
    base = 8 * width
    number = 0
    for v, w in single._w.items():
        number |= w << (base * (v - low))
    raw = (number ** n).to_bytes(digits * width, "little")
    weights = {}
    for k in range(digits):
        w = int.from_bytes(raw[k * width:(k + 1) * width], "little")
        if w:
            weights[n * low + k] = w
    return Dist.weighted(weights, den, clean=True)


def sum_fits(single: Dist, n: int) -> bool:
    """Whether the sum of n dice like `single` is within what pool_sum works out exactly (a
    die of other than whole-number faces is summed pairwise and always is)."""
    if not all(type(v) is int for v in single._w):
        return True
    low, high = min(single._w), max(single._w)
    width = ((single._den ** n).bit_length() + 8) // 8
    return (n * (high - low) + 1) * width * 8 <= MAX_POOL_BITS


def keep_fits(single: Dist, n: int, keep: int = 1) -> bool:
    """Whether pool_keep works out `keep` of n dice like `single` within its limit: the work
    of its walk over the faces (the situations of the dice kept so far, each face, each
    number of dice showing it) at most MAX_KEEP_STATES."""
    return _keep_work(len(single._w), n, keep, max(single._w) - min(single._w)
                      if all(type(v) is int for v in single._w) else len(single._w)) \
        <= MAX_KEEP_STATES


def _keep_work(faces: int, n: int, keep: int, span: int) -> int:
    keep = max(0, min(keep, n))
    return faces * max(keep, 1) * (keep * span + 1) * (n + 1)


def _squared_pool_sum(single: Dist, n: int) -> Dist:
    """The sum of n dice of any faces, by repeated squaring (pairwise convolution)."""
    if n == 1:
        return single
    half = _squared_pool_sum(single, n // 2)
    result = half.combine(half, _add)
    return result.combine(single, _add) if n % 2 else result


@lru_cache(maxsize=1024)
def pool_count(single: Dist, n: int, successes: frozenset) -> Dist:
    """Number of the n dice showing a face in `successes`: a binomial distribution."""
    den = single._den
    s = sum(w for v, w in single._w.items() if v in successes)
    f = den - s
    return Dist.weighted({k: math.comb(n, k) * s**k * f ** (n - k) for k in range(n + 1)},
                         den**n)


@lru_cache(maxsize=1024)
def pool_keep(single: Dist, n: int, keep: int, highest: bool) -> Dist:
    """Sum of the `keep` highest (or lowest) of n dice, as icepool's evaluators work it out:
    the faces are walked from the best down, deciding how many of the dice show each, and only
    what matters is kept apart: how many dice are kept so far and their sum (the dice not kept
    yet are all still to fall on worse faces). Once `keep` are kept, the rest of the dice may
    show any worse face: their weights are summed at once. 10d6 keep highest 3 weighs a few
    hundred situations, not the 3,003 multisets of faces.
    """
    keep = max(0, min(keep, n))
    if keep == 0:
        return Dist.point(0)
    faces = sorted(single._w, reverse=highest)
    weights = [single._w[f] for f in faces]
    if not keep_fits(single, n, keep):
        raise OverflowError(f"{n} dice of {len(faces)} faces is too many to enumerate exactly")
    worse = list(itertools.accumulate(reversed(weights[1:] + [0])))[::-1]   # after each face
    comb = math.comb
    out: dict = {}
    states: dict = {(0, 0): 1}   # (dice kept so far, their sum) -> weight; the others: later
    for j, face in enumerate(faces):
        w, rest = weights[j], worse[j]
        last = j == len(faces) - 1
        new: dict = {}
        for (kept, total), x in states.items():
            left = n - kept   # dice not placed yet (all of them worse than the faces before)
            need = keep - kept
            power = 1
            if not last:
                for k in range(need):   # k dice show this face, all kept: more to keep
                    if k:
                        power *= w
                    key = (kept + k, total + face * k)
                    new[key] = new.get(key, 0) + x * comb(left, k) * power
            # `need` or more show it: the kept sum is fixed, the others fall on worse faces
            done = 0
            for k in range(need, left + 1):
                done += comb(left, k) * w ** k * rest ** (left - k)
            if done:
                key = total + face * need
                out[key] = out.get(key, 0) + x * done
        states = new
    return Dist.weighted(out, single._den ** n)


def roll_apart(single: Dist, n: int, keep: tuple[int, bool] | None, rng) -> int:
    """One seeded roll of a pool too large to work out exactly (pool_sum or pool_keep raised
    OverflowError): each die drawn on its own, the kept ones added. Sampling does not need the
    pool's distribution; only a pool that size does draw this way, so every other roll draws
    the same numbers from the stream as before. keep is (how many, highest) or None."""
    faces: list = sorted(cast(int, single.sample(rng)) for _ in range(n))
    if keep is not None:
        kept, highest = keep
        kept = max(0, min(kept, n))
        faces = faces[n - kept:] if highest else faces[:kept]
    return sum(faces)


def sample_pool(single: Dist, n: int, rng: random.Random) -> list:
    return [single.sample(rng) for _ in range(n)]


def _add(a, b):
    return a + b
