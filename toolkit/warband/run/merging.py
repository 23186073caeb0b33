"""Exact odds that merge: what a situation is, and what keeps two situations apart.

Exact evaluation follows every outcome of every roll. Following paths one by one costs the
number of paths: three attacks of a rule with six outcomes are 216 paths, but perhaps four
distinct situations (0 to 3 wounds). So exact runs (`Interpreter.exact`, `run_nested(exact=True)`
outside a game's budgeted look-ahead) merge: the future of a situation is worked out once, and
every path that reaches an equal situation takes it from there with its own probability
(memoised continuation-passing evaluation: dynamic programming over situations, as icepool's
evaluators and variable elimination do). The cost grows with the distinct situations, not with
the paths.

A *situation* is where the run is and all the rest of the computation can still read there:

- the position: a block of statements and the index of the next one in it;
- the locals the rest of the procedure can read (run/liveness.py): a `let` no later statement
  reads is dropped, so naming intermediate results costs nothing;
- what happens after the block (its continuation, and the caller's continuation a `return`
  goes to), each interned once per distinct future: a continuation that holds a caller's
  locals holds only those the caller can still read;
- the World's fighters, sides and pieces (their values, who is removed, where they stand);
- the rolls still kept whole (lazy rolls, run/lazy_rolls.py) that any of those can read, each
  with what is still possible of it: a roll no live local and no continuation can read is
  dropped from the World (so it does not keep situations apart, and its number is free for the
  next roll).

Sums and counts of many dice are not situations: they stay one roll, worked out by
convolution (run/dice.py, run/pools.py), until a rule asks a question of them.

Two situations with equal keys have the same future, so the distribution of the action's
result from there is the same: the memo (Interpreter.memo) maps a key to it. What the key
leaves out is only what nothing reads any more, so merging never changes a fraction; the tests
run every shipped action both ways (tests/test_merging.py).
"""

from __future__ import annotations

from warband.run.evaluate import LazyRef, Thunk

EMPTY: frozenset = frozenset()
MISSING = object()   # a live name not bound (yet) on this path: as good as any other value


def rolls_read(values, found: set) -> None:
    """The ids of the lazy rolls that values hold (a local holding one, a dice argument's
    captured names, a tuple of several values), added to found."""
    for v in values:
        t = type(v)
        if t is LazyRef:
            found.add(v.id)
        elif t is Thunk:
            rolls_read(v.env.values(), found)
        elif t is tuple and v:
            rolls_read(v, found)


def kept_values(names, env: dict) -> tuple:
    """The values of the live names (names None: every name, with its name), as a key."""
    if names is None:
        return tuple(env.items())
    get = env.get
    return tuple([get(n, MISSING) for n in names])


__all__ = ["EMPTY", "MISSING", "kept_values", "rolls_read"]
