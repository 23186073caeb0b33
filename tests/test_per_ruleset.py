"""What is kept per ruleset (lang/per_ruleset.py): made once for a ruleset, and let go with the
rulesets used least lately. A process that compiles rules again and again (a worker as a file is
edited) must not keep every ruleset it ever saw: programs and options refer to their ruleset, so
a cache keyed weakly by the ruleset never let one go."""

from __future__ import annotations

import gc
import weakref
from pathlib import Path

from warband.lang.compiler import compile_text
from warband.lang.per_ruleset import KEPT, PerRuleset, per_ruleset
from warband.lang.ruleset import Ruleset

ROOT = Path(__file__).resolve().parents[1]


class Rules:
    """A stand-in for a ruleset: any object, kept by identity."""


def test_a_value_is_made_once_for_each_ruleset_and_arguments():
    made = []

    @per_ruleset
    def work(ruleset, policy):
        made.append((ruleset, policy))
        return len(made)

    first, second = Rules(), Rules()
    assert work(first, "a") == work(first, "a") == 1
    assert work(first, "b") == 2
    assert work(second, "a") == 3
    assert len(made) == 3


def test_only_the_rulesets_used_last_are_kept():
    kept: PerRuleset[int] = PerRuleset(size=3)
    rulesets = [Rules() for _ in range(5)]
    for i, rules in enumerate(rulesets):
        kept.get(rules, None, lambda i=i: i)
    kept.get(rulesets[2], None, lambda: -1)   # used again: now the latest
    kept.get(Rules(), None, lambda: 99)
    held = [entry[0] for entry in kept.entries.values()]
    assert len(held) == 3
    assert rulesets[2] in held and rulesets[4] in held and rulesets[3] not in held
    assert kept.get(rulesets[2], None, lambda: -1) == 2   # still the value first made


def test_a_dead_rulesets_id_is_never_taken_for_a_new_ones():
    kept: PerRuleset[str] = PerRuleset()
    for n in range(200):   # CPython reuses ids of freed objects at once
        assert kept.get(Rules(), None, lambda n=n: f"value {n}") == f"value {n}"


def test_compiling_again_and_again_keeps_a_bounded_number_of_rulesets():
    """A ruleset compiled 2 * KEPT times, each run (its program, its options, its roll labels):
    the rulesets still alive are at most the ones kept, not all of them."""
    from warband.game.options import options_for
    from warband.run.codegen import hooks
    from warband.run.interpreter import Interpreter
    from warband.run.roll_labels import labels_of

    path = ROOT / "dsl" / "super-simple-skirmish.rules"
    text = path.read_text(encoding="utf-8")
    alive = []
    for _ in range(2 * KEPT):
        ruleset = compile_text(text, str(path)).ruleset
        assert ruleset is not None
        interp = Interpreter(ruleset)
        hooks.program_for(interp)
        options_for(ruleset, True)
        labels_of(ruleset)
        alive.append(weakref.ref(ruleset))
        del ruleset, interp
    gc.collect()
    living = sum(ref() is not None for ref in alive)
    assert living <= KEPT, f"{living} of {len(alive)} rulesets are still alive"
    assert isinstance(alive[-1](), Ruleset)   # the last one is kept
