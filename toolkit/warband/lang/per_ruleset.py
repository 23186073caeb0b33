"""Values worked out once per Ruleset and kept for its life.

Much of what the toolkit asks of a ruleset depends on the ruleset alone (its generated program,
the options of its actions, the actions a roster card offers): asked again for every roster of a
directory, or every game of a simulation, it would be worked out again unless kept.

Such a value is kept in the ruleset's own `memo` (a field that is no value of the rules), so it
lives exactly as long as its ruleset: never dropped while the ruleset is in use (the engine's
options hold nodes whose compiled closures are cached by id, and must not be made twice), and
let go with it. A cache beside the rulesets, keyed by their ids, did neither well: weakly keyed,
it kept every ruleset a process ever compiled, as the values refer to their ruleset (a program
runs it); bounded, it dropped values still in use.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Hashable
from typing import TYPE_CHECKING, Concatenate, ParamSpec, TypeVar

if TYPE_CHECKING:
    from warband.lang.ruleset import Ruleset

More = ParamSpec("More")
Value = TypeVar("Value")


def kept(ruleset: Ruleset, key: Hashable, make: Callable[[], Value]) -> Value:
    """The value kept in `ruleset` under `key`, or make()'s, kept from now on. Two threads may
    make it at once; one value is kept, and both are right."""
    try:
        return ruleset.memo[key]
    except KeyError:
        return ruleset.memo.setdefault(key, make())


def per_ruleset(work: Callable[Concatenate[Ruleset, More], Value]
                ) -> Callable[Concatenate[Ruleset, More], Value]:
    """`work(ruleset, *more)`, worked out once for each ruleset and each `more` (positional,
    hashable) and kept in the ruleset."""
    @functools.wraps(work)
    def cached(ruleset: Ruleset, *more: More.args, **named: More.kwargs) -> Value:
        if named:   # (a named argument would be left out of the key)
            raise TypeError(f"{work.__name__}: give its arguments by position")
        return kept(ruleset, (cached, *more), lambda: work(ruleset, *more, **named))

    return cached


__all__ = ["kept", "per_ruleset"]
