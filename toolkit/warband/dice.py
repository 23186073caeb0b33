"""Exact distributions of dice, and sampling from them.

A `Dist` maps outcomes to exact probabilities (Fractions). Pools of dice are computed by
convolution or by enumerating sorted multisets, never by enumerating every face sequence, and the
results are memoised: a rule that rolls 3d6 a thousand times computes the table once.
"""

from __future__ import annotations

import bisect
import itertools
import math
import random
from collections import Counter
from fractions import Fraction
from functools import lru_cache
from typing import Callable, Hashable, Iterable, Iterator

# Beyond these, exact enumeration of kept dice or the number of dice in one pool is refused.
MAX_DICE = 100
MAX_SIDES = 1000
MAX_KEEP_STATES = 2_000_000

ONE = Fraction(1)


class Dist:
    """An immutable finite distribution: outcome -> Fraction, probabilities summing to 1."""

    __slots__ = ("_p", "_cdf", "_hash")

    def __init__(self, probabilities: dict) -> None:
        self._p = {k: v for k, v in probabilities.items() if v}
        self._cdf = None
        self._hash = None

    @staticmethod
    def point(value: Hashable) -> "Dist":
        return Dist({value: ONE})

    @staticmethod
    def uniform(values: Iterable[Hashable]) -> "Dist":
        counts = Counter(values)
        total = sum(counts.values())
        return Dist({v: Fraction(c, total) for v, c in counts.items()})

    @staticmethod
    def normalised(weights: dict, total: Fraction) -> "Dist":
        """Weights (summing to total) scaled to probabilities."""
        if total == 1:
            return Dist(weights)
        if len(weights) == 1:
            return Dist({next(iter(weights)): ONE})
        return Dist({v: w / total for v, w in weights.items()})

    @staticmethod
    def mixture(weighted: Iterable[tuple[Fraction, "Dist"]]) -> "Dist":
        out: dict = {}
        for w, d in weighted:
            if not w:
                continue
            for v, p in d._p.items():
                q = p if w == 1 else w * p
                out[v] = out[v] + q if v in out else q
        return Dist(out)

    def items(self):
        return self._p.items()

    def __iter__(self) -> Iterator:
        return iter(self._p)

    def __len__(self) -> int:
        return len(self._p)

    def __getitem__(self, value) -> Fraction:
        return self._p.get(value, Fraction(0))

    def __eq__(self, other) -> bool:
        return isinstance(other, Dist) and self._p == other._p

    def __hash__(self) -> int:
        if self._hash is None:
            self._hash = hash(frozenset(self._p.items()))
        return self._hash

    def __repr__(self) -> str:
        inner = ", ".join(f"{k!r}: {v}" for k, v in sorted(self._p.items(), key=_order))
        return f"Dist({{{inner}}})"

    def total(self) -> Fraction:
        return sum(self._p.values(), Fraction(0))

    def map(self, f: Callable) -> "Dist":
        out: dict = {}
        for v, p in self._p.items():
            w = f(v)
            out[w] = out.get(w, 0) + p
        return Dist(out)

    def combine(self, other: "Dist", op: Callable) -> "Dist":
        """The distribution of op(a, b) for independent a ~ self, b ~ other."""
        out: dict = {}
        for a, p in self._p.items():
            for b, q in other._p.items():
                w = op(a, b)
                out[w] = out.get(w, 0) + p * q
        return Dist(out)

    def probability(self, predicate: Callable[[Hashable], bool]) -> Fraction:
        return sum((p for v, p in self._p.items() if predicate(v)), Fraction(0))

    def mean(self) -> Fraction:
        return sum((v * p for v, p in self._p.items()), Fraction(0))

    def only(self) -> Hashable:
        """The outcome of a distribution that has exactly one."""
        (value,) = self._p
        return value

    def mean_of(self, f: Callable) -> Fraction:
        """The expected value of f(outcome)."""
        return sum((f(v) * p for v, p in self._p.items()), Fraction(0))

    def sample(self, rng: random.Random) -> Hashable:
        if len(self._p) == 1:
            return next(iter(self._p))
        if self._cdf is None:
            values = sorted(self._p, key=_order)
            acc, cdf = 0.0, []
            for v in values:
                acc += float(self._p[v])
                cdf.append(acc)
            self._cdf = (values, cdf)
        values, cdf = self._cdf
        i = bisect.bisect_right(cdf, rng.random() * cdf[-1])
        return values[min(i, len(values) - 1)]


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
    out: dict = {}
    for v, p in base.items():
        if v in reroll:
            for w, q in base.items():
                out[w] = out.get(w, 0) + p * q
        else:
            out[v] = out.get(v, 0) + p
    return Dist(out)


# --- pools ---------------------------------------------------------------------------------

@lru_cache(maxsize=1024)
def pool_sum(single: Dist, n: int) -> Dist:
    """Sum of n independent dice, each distributed as `single` (repeated squaring)."""
    if n <= 0:
        return Dist.point(0)
    if n == 1:
        return single
    half = pool_sum(single, n // 2)
    result = half.combine(half, _add)
    return result.combine(single, _add) if n % 2 else result


@lru_cache(maxsize=1024)
def pool_count(single: Dist, n: int, successes: frozenset) -> Dist:
    """Number of the n dice showing a face in `successes`: a binomial distribution."""
    p = single.probability(lambda v: v in successes)
    q = 1 - p
    return Dist({k: math.comb(n, k) * p**k * q ** (n - k) for k in range(n + 1)})


@lru_cache(maxsize=1024)
def pool_keep(single: Dist, n: int, keep: int, highest: bool) -> Dist:
    """Sum of the `keep` highest (or lowest) of n dice, by enumerating sorted multisets.

    Each multiset of faces is weighted by its multinomial count, so 4d6 visits 126 multisets
    rather than 1296 sequences.
    """
    keep = max(0, min(keep, n))
    faces = sorted(single, key=lambda v: v)
    probs = [single[f] for f in faces]
    if math.comb(n + len(faces) - 1, n) > MAX_KEEP_STATES:
        raise OverflowError(f"{n} dice of {len(faces)} faces is too many to enumerate exactly")
    out: dict = {}
    fact_n = math.factorial(n)
    for combo in itertools.combinations_with_replacement(range(len(faces)), n):
        counts = Counter(combo)
        weight = Fraction(fact_n)
        for idx, c in counts.items():
            weight = weight * probs[idx] ** c / math.factorial(c)
        chosen = combo[n - keep:] if highest else combo[:keep]
        total = sum(faces[i] for i in chosen)
        out[total] = out.get(total, 0) + weight
    return Dist(out)


def sample_pool(single: Dist, n: int, rng: random.Random) -> list:
    return [single.sample(rng) for _ in range(n)]


def _add(a, b):
    return a + b
