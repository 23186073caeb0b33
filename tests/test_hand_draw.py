"""How a random player draws a decision of several numbers (a hand of attack, defence and speed
dice adding up to at most Training): one number at a time, each uniformly among the values that
still leave a legal tuple, as when the hand was three decisions in turn; not uniformly over
whole tuples (which gives fewer attack dice: issue 21, item 6).

Checked three ways: tuples.draw enumerated exactly with a scripted stream of choices, against
the stepwise probabilities worked out by hand and against tuples.shares; a `where` with gaps
(a first number that no legal tuple starts with is never drawn); and many seeded draws of a
small ruleset, generated code and interpreter alike, counted against the exact shares that
the same ruleset's exact odds give.
"""

from __future__ import annotations

import itertools
import random
from fractions import Fraction as F

import pytest

import test_codegen
from warband.run import tuples
from warband.run.interpreter import Interpreter, Policies
from warband.run.world import FighterSpec, Ref, make_world


class Scripted:
    """A stand-in for the stream of choices: randrange(n) answers from a script, recording n."""

    def __init__(self, script: tuple[int, ...]) -> None:
        self.script, self.asked = list(script), []

    def randrange(self, n: int) -> int:
        self.asked.append(n)
        return self.script.pop(0)


def every_draw(legal: list[tuple[int, ...]]) -> dict[tuple[int, ...], F]:
    """Every way draw can go, with its probability: each answer of each randrange(n) is 1/n."""
    out: dict[tuple[int, ...], F] = {}
    pending: list[tuple[int, ...]] = [()]
    while pending:
        script = pending.pop()
        rng = Scripted(script + (0,) * 10)
        got = tuples.draw(legal, rng)
        asked = rng.asked
        if len(asked) > len(script):   # a question this script did not answer: branch on it
            n = asked[len(script)]
            pending.extend(script + (i,) for i in range(n))
            continue
        share = F(1)
        for n in asked:
            share /= n
        out[got] = out.get(got, F(0)) + share
    return out


def hands(total: int) -> list[tuple[int, int, int]]:
    return [h for h in itertools.product(range(total + 1), repeat=3) if sum(h) <= total]


@pytest.mark.parametrize("total", [0, 1, 2, 3, 5, 8])
def test_a_hand_is_drawn_as_three_decisions_in_turn(total):
    legal = hands(total)
    expected = {(a, d, s): F(1, (total + 1) * (total - a + 1) * (total - a - d + 1))
                for a, d, s in legal}
    assert every_draw(legal) == expected
    assert dict((t, p) for p, t in tuples.shares(legal)) == expected
    assert [t for _, t in tuples.shares(legal)] == legal   # in the order of the options
    # the attack dice are uniform (the count of hands would make 0 the likeliest)
    for a in range(total + 1):
        assert sum(p for (x, _, _), p in expected.items() if x == a) == F(1, total + 1)


def test_a_number_left_alone_is_not_drawn():
    rng = Scripted((1,))
    assert tuples.draw([(0, 5), (1, 5)], rng) == (1, 5) and rng.asked == [2]
    rng = Scripted(())
    assert tuples.draw([(2, 1, 0)], rng) == (2, 1, 0) and rng.asked == []


def test_only_values_that_leave_a_legal_tuple_are_drawn():
    # where (a + b) is 4 in 0..4, or a is 1: a is never 0 with nothing after it, and so on
    legal = [(a, b) for a in range(5) for b in range(5) if a + b == 4 or a == 1]
    legal += [(5, 5)]
    brute: dict = {}
    firsts = sorted({t[0] for t in legal})
    for a in firsts:
        seconds = sorted({t[1] for t in legal if t[0] == a})
        for b in seconds:
            brute[(a, b)] = F(1, len(firsts) * len(seconds))
    assert every_draw(legal) == brute
    assert brute[(1, 0)] == F(1, 6 * 5) and brute[(5, 5)] == F(1, 6)


HAND = '''
ruleset "hands" title "A hand of three kinds of dice"
stat Training: 0..6 default 3

action hand(a: fighter) -> number "The hand, as one number: attack, defence, speed digits"
{
  let n = a.Training
  choose h (attack, defence, speed) by a from 0..n where attack + defence + speed <= n
    default (n, 0, 0) "The hand"
  return attack * 100 + defence * 10 + speed
}

action gapped(a: fighter) -> number "A `where` that leaves gaps, read through a field"
{
  choose g (x, y) by a from 0..a.Training where x * y == a.Training or x == 1 default (1, 0)
    "Two numbers"
  return x * 10 + y
}
'''


@pytest.fixture(scope="module")
def ruleset():
    return test_codegen.compiled(HAND, "hands.rules")


def world(ruleset, training: int):
    return make_world(ruleset, [FighterSpec("a", 0, None, {"Training": training})], [{}])


def digits(value: int, width: int) -> tuple[int, ...]:
    return tuple(int(c) for c in str(value).zfill(width))


@pytest.mark.parametrize("action, width, training", [("hand", 3, 3), ("hand", 3, 5),
                                                     ("gapped", 2, 4)])
def test_many_seeded_draws_follow_the_stepwise_shares(ruleset, action, width, training):
    w = world(ruleset, training)
    args = {"a": Ref("fighter", 0)}
    exact = Interpreter(ruleset, Policies("random")).exact(action, args, w)
    shares = {digits(v, width): p for v, p in exact.items()}
    assert sum(shares.values()) == 1 and len(shares) > 3
    if action == "hand":   # the exact odds give the shares worked out by hand
        assert shares == {h: F(1, (training + 1) * (training - h[0] + 1) *
                               (training - h[0] - h[1] + 1)) for h in hands(training)}
    draws = 3000
    for compiled in (True, False):
        counts: dict = {}
        interp = Interpreter(ruleset, Policies("random"), compiled=compiled,
                             choice_rng=random.Random(f"hands {training}"))
        for _ in range(draws):
            value, _ = interp.sample(action, args, w)
            counts[digits(value, width)] = counts.get(digits(value, width), 0) + 1
        assert set(counts) <= set(shares)
        for t, p in shares.items():   # within 5 standard errors (and a little more for tiny p)
            sd = (float(p) * (1 - float(p)) / draws) ** 0.5
            assert abs(counts.get(t, 0) / draws - float(p)) <= 5 * sd + 0.002, (compiled, t)


def test_the_generated_code_and_the_interpreter_draw_the_same_hands(ruleset):
    args = {"a": Ref("fighter", 0)}
    for training in range(7):
        w = world(ruleset, training)
        runs = []
        for compiled in (True, False):
            interp = Interpreter(ruleset, Policies("random"), compiled=compiled,
                                 choice_rng=random.Random(training))
            runs.append([interp.sample("hand", args, w)[0] for _ in range(200)])
        assert runs[0] == runs[1]


def test_the_steps_are_kept_with_the_list(ruleset):
    stmt = ruleset.decisions["h"][1]
    legal = tuples.options(stmt, 0, 4, (4,), lambda c: sum(c) <= 4)
    assert legal == hands(4) and tuples.options(stmt, 0, 4, (4,), bool) is legal   # kept
    assert tuples.steps(legal) is tuples.steps(legal)   # made once for a list of options
    assert tuples.steps(hands(4)) == tuples.steps(legal)
