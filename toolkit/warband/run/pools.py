"""Dice pools: one roll whose every face is kept, so that rules can ask it several questions.

`let shots = pool 10d6` rolls once; `count >= 4 in shots` and `count == 6 in shots` then ask the
same dice. Sampling draws each die and keeps the faces. Exact odds cannot list the 6^10 face
sequences, nor need the 3003 multisets of faces: a question only tells faces apart by whether
they pass it, so the pool is worked out as the number of dice in each *class* of faces that the
ruleset's questions tell apart ({1-3}, {4-5}, {6} for `>= 4` and `== 6`: 66 outcomes, a
trinomial). A question that needs each face (total, highest, lowest, a predicate whose bound is
worked out while the rules run) makes the classes single faces: the multisets, with their
multinomial weights. The classes are found once per ruleset, from every question written in it,
so a pool passed to a procedure or a definition is asked the same questions there.
"""

from __future__ import annotations

import math
import operator
from functools import lru_cache
from typing import Iterator, cast

from warband.lang import nodes
from warband.lang.symbols import POOL_QUESTIONS
from warband.run.dice import Dist, weights_of

# what E504 says to do about a pool too large to work out exactly
POOL_HINT = ("roll fewer dice in the pool, or ask it questions that tell fewer faces apart "
             "(each distinct `count` predicate, and any total/highest/lowest, splits the faces "
             "further); or play it out: warband simulate")


class Pool:
    """The dice of one roll, kept. `faces` holds each die's face, highest first, when each is
    known (sampling, or exact odds that tell every face apart); otherwise `parts` holds, for
    each class of faces, how many dice fell in it (exact odds)."""

    __slots__ = ("sides", "faces", "parts", "_hash")

    def __init__(self, sides: int, faces: tuple[int, ...] | None = None,
                 parts: tuple[tuple[tuple[int, ...], int], ...] | None = None) -> None:
        self.sides, self.faces, self.parts = sides, faces, parts
        self._hash: int | None = None

    def count(self, chosen: frozenset) -> int:
        """How many dice show a face in `chosen`."""
        if self.faces is not None:
            return sum(1 for f in self.faces if f in chosen)
        total = 0
        for members, n in self.parts or ():
            inside = sum(1 for f in members if f in chosen)
            if inside == len(members):
                total += n
            elif inside and n:   # the classes are made from every question: cannot happen
                raise AssertionError(f"a pool's class {members} is split by {sorted(chosen)}")
        return total

    def _known(self) -> tuple[int, ...]:
        if self.faces is not None:
            return self.faces
        faces: list[int] = []
        for members, n in self.parts or ():
            if n and len(members) != 1:   # (classes are single faces where a total is asked)
                raise AssertionError(f"a pool's faces {members} are not told apart")
            faces += [members[0]] * n
        return tuple(sorted(faces, reverse=True))

    def total(self) -> int:
        return sum(self._known())

    def highest(self) -> int:
        known = self._known()
        return known[0] if known else 0

    def lowest(self) -> int:
        known = self._known()
        return known[-1] if known else 0

    def size(self) -> int:
        return len(self.faces) if self.faces is not None else sum(n for _, n in self.parts or ())

    def _key(self):
        return (self.sides, self.faces, self.parts)

    def __eq__(self, other) -> bool:
        return type(other) is Pool and self._key() == other._key()

    def __hash__(self) -> int:
        if self._hash is None:
            self._hash = hash(("pool", self._key()))
        return self._hash

    def __lt__(self, other) -> bool:   # (outcomes are listed in an order: Dist.cumulative)
        return (self.size(), repr(self)) < (other.size(), repr(other))

    def __repr__(self) -> str:
        if self.faces is not None:
            return "[" + ", ".join(map(str, self.faces)) + "]"
        return "[" + ", ".join(f"{n} x {_class_text(m)}" for m, n in self.parts or () if n) + "]"


def _class_text(members: tuple[int, ...]) -> str:
    if len(members) == 1:
        return str(members[0])
    if members == tuple(range(members[0], members[-1] + 1)):
        return f"{members[0]}-{members[-1]}"
    return "{" + ", ".join(map(str, members)) + "}"


def ask(question: str, pool: Pool) -> int:
    """total(p), highest(p), lowest(p), size(p)."""
    return getattr(pool, question)()


# ---- which faces the questions tell apart ---------------------------------------------------

_EVERY_FACE = "every face"
_COMPARE = {">=": operator.ge, "<=": operator.le, ">": operator.gt, "<": operator.lt,
            "==": operator.eq, "!=": operator.ne}


@lru_cache(maxsize=64)
def _questions(ruleset) -> tuple:
    """The predicates the ruleset asks of pools (each as a function sides -> faces), or
    _EVERY_FACE when some question needs each face. Cached per ruleset (Rulesets are frozen)."""
    asked: list = []
    roots = (tuple(ruleset.procedures.values()) + tuple(ruleset.defines.values())
             + tuple(ruleset.tables.values()) + tuple(ruleset.markers.values())
             + ((ruleset.scenario,) if ruleset.scenario is not None else ()))
    for n in (n for root in roots for n in nodes.walk(root)):
        if type(n) is nodes.Count and type(n.pool) is not nodes.Dice:
            faces = _fixed_predicate(n.predicate)
            if faces is None:
                return (_EVERY_FACE,)
            asked.append(faces)
        elif type(n) is nodes.Call and n.callee.name in POOL_QUESTIONS and \
                n.callee.name != "size" and n.callee.name not in ruleset.tables and \
                n.callee.name not in ruleset.defines:
            return (_EVERY_FACE,)
    return tuple(asked)


def _fixed_predicate(pred):
    """sides -> the faces a predicate chooses, when that does not depend on the rules' values."""
    match pred:
        case nodes.PredEven():
            return lambda sides: frozenset(range(2, sides + 1, 2))
        case nodes.PredOdd():
            return lambda sides: frozenset(range(1, sides + 1, 2))
        case nodes.PredSet(values=values):
            return lambda sides: frozenset(values)
        case nodes.PredCompare(op=op, value=nodes.Int(value=bound)):
            test = _COMPARE[op]
            return lambda sides: frozenset(f for f in range(1, sides + 1) if test(f, bound))
    return None


def faces_of(pred, sides: int, bound) -> frozenset:
    """The faces of a d`sides` that a predicate chooses; bound: a PredCompare's value."""
    if type(pred) is nodes.PredCompare:
        test = _COMPARE[pred.op]
        return frozenset(f for f in range(1, sides + 1) if test(f, bound))
    fixed = _fixed_predicate(pred)
    assert fixed is not None
    return fixed(sides)


def classes(ruleset, sides: int) -> tuple[tuple[int, ...], ...] | None:
    """The classes of faces of a d`sides` that the ruleset's pool questions tell apart (faces
    that every question answers alike share a class), or None when each face is its own."""
    return _classes(ruleset, sides)


@lru_cache(maxsize=256)
def _classes(ruleset, sides: int):
    asked = _questions(ruleset)
    if asked and asked[0] is _EVERY_FACE:
        return None
    chosen = [q(sides) for q in asked]
    groups: dict = {}
    for face in range(1, sides + 1):
        groups.setdefault(tuple(face in c for c in chosen), []).append(face)
    return tuple(tuple(g) for g in sorted(groups.values()))


# ---- exact odds ---------------------------------------------------------------------------------

def outcomes(single: Dist, n: int, keep, parts) -> int:
    """How many outcomes exact() lists: the ways n dice fall into the classes (or into the
    faces, when each is told apart or some dice are kept or dropped)."""
    k = len(parts) if parts is not None and keep is None else len(weights_of(single)[0])
    return math.comb(n + k - 1, k - 1)


def too_many(sides: int, n: int, keep, parts, listed: int, limit: int) -> str:
    """E504's reason for a pool too large to work out exactly."""
    if parts is None or keep is not None:
        told = "each face told apart" + (" (some dice are kept or dropped)" if keep else
                                         " (a question needs every face: total, highest, "
                                         "lowest, or a bound worked out as the rules run)")
    else:
        told = f"{len(parts)} classes of faces told apart by its questions (" + \
            ", ".join(_class_text(m) for m in parts) + ")"
    return (f"a pool of {n}d{sides} with {told} falls in {listed:,} ways, more than the "
            f"{limit:,} exact odds follow")


def _compositions(n: int, k: int) -> Iterator[tuple[int, ...]]:
    """Every way to write n as k whole numbers >= 0, in order."""
    if k == 1:
        yield (n,)
        return
    for first in range(n, -1, -1):
        for rest in _compositions(n - first, k - 1):
            yield (first, *rest)


@lru_cache(maxsize=256)
def exact(single: Dist, sides: int, n: int, keep: tuple[int, bool] | None, parts) -> Dist:
    """The distribution of a pool of n dice like `single` (faces and their weights), with
    (kept, highest) dice kept, each outcome told apart by the classes `parts` (None: by face).
    Multinomial weights over one denominator: single's to the n-th power."""
    w, den = weights_of(single)
    fact = [math.factorial(i) for i in range(n + 1)]
    out: dict = {}
    if keep is None and parts is not None:
        class_w = [sum(w.get(f, 0) for f in members) for members in parts]
        for counts in _compositions(n, len(parts)):
            weight = fact[n]
            for c, cw in zip(counts, class_w):
                if c:
                    weight = weight * cw ** c // fact[c] if cw else 0
            if weight:
                key = Pool(sides, parts=tuple(zip(parts, counts)))
                out[key] = out.get(key, 0) + weight
        return Dist.weighted(out, den ** n)
    faces = sorted(w, reverse=True)   # highest first
    for counts in _compositions(n, len(faces)):
        weight = fact[n]
        for c, f in zip(counts, faces):
            if c:
                weight = weight * w[f] ** c // fact[c]
        rolled = tuple(f for c, f in zip(counts, faces) for _ in range(c))
        key = _made(sides, _kept(rolled, keep), parts)
        out[key] = out.get(key, 0) + weight
    return Dist.weighted(out, den ** n)


def _kept(faces: tuple[int, ...], keep) -> tuple[int, ...]:
    """The dice kept of faces sorted highest first: keep is (how many, highest) or None."""
    if keep is None:
        return faces
    kept, highest = keep
    kept = max(0, min(kept, len(faces)))
    return faces[:kept] if highest else faces[len(faces) - kept:]


def _made(sides: int, faces: tuple[int, ...], parts) -> Pool:
    if parts is None:
        return Pool(sides, faces=faces)
    return Pool(sides, parts=tuple((m, sum(1 for f in faces if f in m)) for m in parts))


# ---- sampling -----------------------------------------------------------------------------------

def sample(single: Dist, sides: int, n: int, keep, rng) -> Pool:
    """One seeded roll: each die drawn in turn (the interpreter and generated code alike)."""
    faces = tuple(sorted((cast(int, single.sample(rng)) for _ in range(n)), reverse=True))
    return Pool(sides, faces=_kept(faces, keep))
