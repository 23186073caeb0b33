"""The remainder, `A % B` (issue 36): floored (its sign the divisor's, A - B * floor(A / B)),
exact on fractions, E502 for a divisor of 0 as `/` is; the same from the interpreter and from
generated code, in exact odds (checked against a brute-force twin over the dice's faces) and in
fixed values the checker works out. tests/test_differential.py holds it to the other forms.
"""

from __future__ import annotations

import math
from collections import Counter
from fractions import Fraction
from itertools import product

import pytest

from warband.lang.compiler import compile_text
from warband.lang.unparse import expr_text
from warband.run.evaluate import RulesError
from warband.run.interpreter import Interpreter
from warband.run.world import FighterSpec, Ref, make_world

RULES = '''
ruleset "remainders"
stat Might: -20..20
class Odd { stat Might = 17 % 5 }
action parity(f: fighter) -> number "even or odd total of two dice and the fighter's Might" {
  return (2d6 + f.Might) % 2
}
action spread(f: fighter) -> number { return (d6 - f.Might) % 4 }
action broken(f: fighter) -> number { return d6 % (f.Might - f.Might) }
define exact_rest(a, b) = a % b
'''


@pytest.fixture(scope="module")
def ruleset():
    compiled = compile_text(RULES, "remainders.rules")
    assert compiled.ruleset is not None, [d.message for d in compiled.diagnostics]
    return compiled.ruleset


def world(ruleset, might: int):
    return make_world(ruleset, [FighterSpec("A", 0, None, {"Might": might})])


def run_both(ruleset, how: str, action: str, might: int):
    found = []
    for compiled in (True, False):
        interp = Interpreter(ruleset)
        interp.compiled = compiled
        found.append(getattr(interp, how)(action, {"f": Ref("fighter", 0)},
                                          world(ruleset, might)))
    return found


@pytest.mark.parametrize("might", [-7, -1, 0, 3, 4])
def test_exact_odds_match_a_brute_force_twin(ruleset, might):
    faces = range(1, 7)
    parity = Counter((a + b + might) % 2 for a, b in product(faces, faces))
    spread = Counter((a - might) % 4 for a in faces)
    for action, counts, total in (("parity", parity, 36), ("spread", spread, 6)):
        for result in run_both(ruleset, "exact", action, might):
            assert dict(result.items()) == {k: Fraction(v, total) for k, v in counts.items()}


def test_floored_with_the_divisors_sign_and_exact_on_fractions(ruleset):
    cases = [(7, 3, 1), (-7, 3, 2), (7, -3, -2), (-7, -3, -1), (Fraction(7, 2), 1, Fraction(1, 2)),
             (Fraction(-7, 2), 2, Fraction(1, 2)), (6, 3, 0)]
    decl = ruleset.defines["exact_rest"]
    interp = Interpreter(ruleset)
    for a, b, expected in cases:
        got = interp.fn(decl.body)({"a": a, "b": b}, world(ruleset, 0))
        assert got == expected and type(got) is type(expected), (a, b, got)
        assert got == a - b * math.floor(Fraction(a) / Fraction(b))


def test_a_remainder_by_zero_is_e502_both_ways(ruleset):
    for how in ("sample", "exact"):
        for compiled in (True, False):
            interp = Interpreter(ruleset)
            interp.compiled = compiled
            with pytest.raises(RulesError) as error:
                getattr(interp, how)("broken", {"f": Ref("fighter", 0)}, world(ruleset, 2))
            d = error.value.diagnostic
            assert (d.code, d.message) == ("E502", "division by zero"), (how, compiled)
            assert d.span.line == 9


def test_fixed_values_are_worked_out_by_the_checker(ruleset):
    assert ruleset.classes["Odd"].given["Might"] == 2
    broken = compile_text(RULES.replace("17 % 5", "17 % 0"), "remainders.rules").diagnostics
    assert [(d.code, d.message) for d in broken if d.severity.name == "ERROR"] == \
        [("E502", "division by zero")]


def test_it_binds_as_multiplication_and_needs_numbers():
    compiled = compile_text('ruleset "x"\ndefine a(n) = 10 - 7 % 4 * 2\n', "x.rules")
    body = compiled.ruleset.defines["a"].body
    assert Interpreter(compiled.ruleset).fn(body)({"n": 0}, None) == 4
    assert expr_text(body) == "10 - 7 % 4 * 2"
    bad = compile_text('ruleset "x"\ndefine a(n) = n % true\n', "x.rules").diagnostics
    assert [(d.code, d.message) for d in bad if d.severity.name == "ERROR"] == \
        [("E302", "'%' needs numbers, but this is a yes/no value")]
