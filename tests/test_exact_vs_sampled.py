"""Exact odds and sampled play agree (issue 35): over every action of every shipped ruleset, on
seeded random worlds and arguments, the exact distribution of the action's result (merged,
run/merging.py) against the shares of seeded sampled runs (the generated code where it runs,
run/codegen), by a chi-square test at a fixed seed.

The runs are seeded, so the test is deterministic: a failure is a disagreement beyond what one
in ten thousand seeds would show by chance (or a value sampled that the exact odds say cannot
happen), not noise.
"""

from __future__ import annotations

import math
import random
from collections import Counter

import pytest

from test_codegen import random_args, random_world
from warband import catalog
from warband.lang.compiler import load
from warband.run import expr_reads, statements
from warband.run.decisions import Policies
from warband.run.evaluate import RulesError
from warband.run.interpreter import Interpreter

SHIPPED = [b.id for b in catalog.rulesets()]
SAMPLES = 2_000
WORLDS = 5
ALPHA = 1e-4


def upper_gamma(a: float, x: float) -> float:
    """Q(a, x), the regularized upper incomplete gamma function (Numerical Recipes' series and
    continued fraction): the chi-square survival function is Q(k / 2, x / 2)."""
    if x <= 0:
        return 1.0
    log_front = -x + a * math.log(x) - math.lgamma(a)
    if x < a + 1:   # the series for P(a, x)
        term = total = 1.0 / a
        n = a
        for _ in range(1000):
            n += 1
            term *= x / n
            total += term
            if abs(term) < abs(total) * 1e-15:
                break
        return 1.0 - total * math.exp(log_front)
    b, c, d = x + 1 - a, 1e300, 1 / (x + 1 - a)   # Lentz's continued fraction for Q(a, x)
    h = d
    for i in range(1, 1000):
        an = -i * (i - a)
        b += 2
        d = an * d + b
        d = 1e-300 if abs(d) < 1e-300 else d
        c = b + an / c
        c = 1e-300 if abs(c) < 1e-300 else c
        d = 1 / d
        h *= d * c
        if abs(d * c - 1) < 1e-15:
            break
    return math.exp(log_front) * h


def chi_square_p(exact: dict, seen: Counter, n: int) -> float:
    """The p-value of the counts seen against the exact probabilities: outcomes expected fewer
    than 5 times are pooled into one bin (the usual condition for the test)."""
    bins: list[tuple[float, int]] = []
    rest_p, rest_seen = 0.0, 0
    for value, p in exact.items():
        if float(p) * n >= 5:
            bins.append((float(p) * n, seen.get(value, 0)))
        else:
            rest_p += float(p)
            rest_seen += seen.get(value, 0)
    if rest_p > 0:
        bins.append((rest_p * n, rest_seen))
    if len(bins) < 2:
        return 1.0
    statistic = sum((o - e) ** 2 / e for e, o in bins)
    return upper_gamma((len(bins) - 1) / 2, statistic / 2)


def test_the_test_itself():
    assert abs(upper_gamma(0.5, 3.841458820694124 / 2) - 0.05) < 1e-9   # chi2(1) at 95%
    assert abs(upper_gamma(2.5, 11.070497693516351 / 2) - 0.05) < 1e-9   # chi2(5) at 95%
    assert abs(upper_gamma(1.0, 5.0) - math.exp(-5.0)) < 1e-12
    fair = {v: 1 / 6 for v in range(1, 7)}
    assert chi_square_p(fair, Counter({v: 100 for v in range(1, 7)}), 600) > 0.99
    assert chi_square_p(fair, Counter({1: 200, 2: 80, 3: 80, 4: 80, 5: 80, 6: 80}), 600) < 1e-6


def compare(ruleset, name: str, seed: int) -> str:
    """'ok', 'skipped' (no exact odds, or an error both ways), or raises on a disagreement."""
    rng = random.Random(hash((name, seed)) & 0xFFFF_FFFF)
    world = random_world(ruleset, rng)
    decl = ruleset.procedures[name]
    args = random_args(decl, world, rng, ruleset)
    policies = Policies(rng.choice(["first", "random"]))
    interp = Interpreter(ruleset, policies)
    try:
        if not interp.allowed(name, args, world):
            return "skipped"
        exact = interp.exact(name, args, world)
    except RulesError:
        return "skipped"   # (E504, or an error the twins in test_merging compare)
    seen: Counter = Counter()
    sampler = Interpreter(ruleset, policies)
    for i in range(SAMPLES):
        sampler.rng = random.Random(seed * 1_000_003 + i)
        sampler.choice_rng = random.Random(seed * 7_919 + i * 2 + 1)
        try:
            value, _ = sampler.sample(name, args, world)
        except RulesError as error:
            # a run that errs sampled errs on some path exactly, where exact odds stop too
            pytest.fail(f"{name}: sampled run {i} failed where exact odds did not: "
                        f"{error.diagnostic.message}")
        seen[value] += 1
    probabilities = dict(exact.items())
    impossible = [v for v in seen if v not in probabilities]
    assert not impossible, (name, seed, args, policies, impossible[:3])
    p = chi_square_p(probabilities, seen, SAMPLES)
    assert p > ALPHA, (name, seed, args, policies, p, probabilities, seen)
    return "ok"


@pytest.mark.parametrize("ruleset_id", SHIPPED)
def test_exact_and_sampled_odds_agree_over_the_shipped_actions(ruleset_id, monkeypatch):
    monkeypatch.setattr(statements, "MAX_BRANCHES", 40_000)   # (small worlds; a few seconds)
    monkeypatch.setattr(expr_reads, "MAX_BRANCHES", 40_000)
    ruleset = load(ruleset_id).ruleset
    compared = Counter(compare(ruleset, name, seed)
                       for name, decl in ruleset.procedures.items() if decl.kind == "action"
                       for seed in range(WORLDS))
    assert compared["ok"] > 0, compared
