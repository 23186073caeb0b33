"""Values worked out once per Ruleset and kept for the rulesets used last.

Much of what the toolkit asks of a ruleset depends on the ruleset alone (the actions play offers,
its generated program, the options of its actions): asked again for every roster of a directory,
or every action of every game of a simulation, it would be worked out again unless kept.

A Ruleset is hashable only through all its fields, so a value is kept by the ruleset's identity,
and the entry holds the ruleset itself, so that its id cannot become a new ruleset's. Kept values
often refer to their ruleset (a program runs it), so a weak reference would never die: instead
only the KEPT entries used last are kept. A process that compiles rules again and again (a
worker, as a rules file is edited) keeps a few rulesets, not every one it ever saw.
"""

from __future__ import annotations

import functools
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Concatenate, Generic, ParamSpec, TypeVar

KEPT = 16   # entries of each kept function: a ruleset or two, each under a few arguments

Ruleset = TypeVar("Ruleset")
More = ParamSpec("More")
Value = TypeVar("Value")


class PerRuleset(Generic[Value]):
    """Values of rulesets, each under a key of its own, kept while among the `size` used last."""

    def __init__(self, size: int = KEPT) -> None:
        self.size = size
        self.entries: OrderedDict[tuple, tuple[object, Value]] = OrderedDict()
        self.lock = threading.Lock()

    def get(self, ruleset: object, key: Hashable, make: Callable[[], Value]) -> Value:
        """The value kept for (ruleset, key), or make()'s, kept from now on. Safe from threads
        (a Dask worker's): two may make the same value at once, and one of them is kept."""
        at = (id(ruleset), key)
        with self.lock:
            found = self.entries.get(at)
            if found is not None and found[0] is ruleset:
                self.entries.move_to_end(at)
                return found[1]
        value = make()
        with self.lock:
            self.entries[at] = (ruleset, value)
            self.entries.move_to_end(at)
            while len(self.entries) > self.size:
                self.entries.popitem(last=False)
        return value


def per_ruleset(work: Callable[Concatenate[Ruleset, More], Value]
                ) -> Callable[Concatenate[Ruleset, More], Value]:
    """`work(ruleset, *more)`, worked out once for each ruleset and each `more` (hashable,
    positional) and kept while among the KEPT used last (the PerRuleset is `.kept`)."""
    kept: PerRuleset[Value] = PerRuleset()

    @functools.wraps(work)
    def cached(ruleset: Ruleset, *more: More.args, **none: More.kwargs) -> Value:
        assert not none, "per_ruleset: arguments are positional"
        return kept.get(ruleset, more, lambda: work(ruleset, *more, **none))

    cached.kept = kept   # type: ignore[attr-defined]  # for the tests
    return cached


__all__ = ["KEPT", "PerRuleset", "per_ruleset"]
