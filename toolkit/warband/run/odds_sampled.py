"""Sampled odds (`warband odds --samples N`): the action played N times from a seed, each outcome's
share of the runs with a 95% interval.

Exact odds give up (E504) when a rule keeps too many situations apart; the designer's question
still has an answer to a known precision. The runs are the sampled runs play makes (the
generated code where it runs, run/codegen), so what is sampled here is what a game plays. The
joint distribution of (result, what the action changed) is the runs' shares, so the report, its
JSON and its charts are made as for exact odds; the intervals are Wilson's score intervals
(exact enough at any share, including none or all of the runs).
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Callable
from fractions import Fraction

from warband.run.dice import Dist

Z95 = 1.959963984540054   # the normal quantile of 97.5%: a two-sided 95% interval


def joint(interpreter, action: str, args: dict, world, observe: Callable, samples: int,
          seed: int) -> Dist:
    """The shares of (result, what observe sees of the world after) over `samples` runs, each
    from its own seed (seed, seed + 1, ...): the same runs whatever else is asked."""
    seen: Counter = Counter()
    for i in range(samples):
        interpreter.rng = random.Random(seed + i)
        interpreter.choice_rng = random.Random((seed + i) * 2 + 1)
        value, after = interpreter.sample(action, args, world)
        seen[(value, observe(after))] += 1
    return Dist.weighted(dict(seen), samples, clean=True)


def interval(share: Fraction, samples: int) -> tuple[float, float]:
    """The 95% Wilson score interval of a share of `samples` runs."""
    p, n, z = float(share), samples, Z95
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


__all__ = ["Z95", "interval", "joint"]
