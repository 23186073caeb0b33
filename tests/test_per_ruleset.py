"""What is kept per ruleset (lang/per_ruleset.py): made once for a ruleset, kept in it for its
life, and let go with it. A process that compiles rules again and again (a worker as a file is
edited) must not keep every ruleset it ever saw: a program and options refer to their ruleset,
so a cache keyed weakly by the ruleset never let one go; and a value in use must never be made
twice (the engine's options hold nodes whose compiled closures are cached by id)."""

from __future__ import annotations

import dataclasses
import gc
import pickle
import weakref
from pathlib import Path

import pytest

from warband.lang.compiler import compile_text
from warband.lang.per_ruleset import kept, per_ruleset
from warband.lang.ruleset import Ruleset

ROOT = Path(__file__).resolve().parents[1]
SSS = ROOT / "dsl" / "super-simple-skirmish.rules"


def compiled() -> Ruleset:
    ruleset = compile_text(SSS.read_text(encoding="utf-8"), str(SSS)).ruleset
    assert ruleset is not None
    return ruleset


def test_a_value_is_made_once_for_each_ruleset_and_arguments():
    made = []

    @per_ruleset
    def work(ruleset, policy):
        made.append((ruleset.id, policy))
        return len(made)

    first, second = compiled(), compiled()
    assert work(first, "a") == work(first, "a") == 1
    assert work(first, "b") == 2
    assert work(second, "a") == 3
    assert len(made) == 3
    with pytest.raises(TypeError, match="by position"):
        work(first, policy="a")   # type: ignore[call-arg]


def test_a_value_in_use_is_never_made_again_however_many_rulesets_come_after():
    from warband.game.options import options_for
    ruleset = compiled()
    options = options_for(ruleset, True)
    for _ in range(40):
        options_for(compiled(), True)
    assert options_for(ruleset, True) is options


def test_the_memo_is_no_value_of_the_rules():
    """Not compared, not pickled (the compile cache, a worker's request), not carried over to a
    changed ruleset."""
    ruleset = compiled()
    kept(ruleset, "k", lambda: lambda: None)   # (a value that cannot pickle)
    memo = next(f for f in dataclasses.fields(Ruleset) if f.name == "memo")
    assert not memo.compare and not memo.init and not memo.repr
    again = pickle.loads(pickle.dumps(ruleset))
    assert again.memo == {} and again.procedures.keys() == ruleset.procedures.keys()
    assert dataclasses.replace(ruleset, title="other").memo == {}


def test_compiling_again_and_again_keeps_no_old_ruleset():
    """A ruleset compiled 20 times, each run (its program, its options, its roll labels, its
    card rules): once let go, none stays alive through what was kept for it."""
    from warband.game.options import options_for
    from warband.lists import card_rules
    from warband.run.codegen import hooks
    from warband.run.interpreter import Interpreter
    from warband.run.roll_labels import labels_of

    alive = []
    for _ in range(20):
        ruleset = compiled()
        interp = Interpreter(ruleset)
        hooks.program_for(interp)
        options_for(ruleset, True)
        labels_of(ruleset)
        card_rules.offered_actions(ruleset)
        alive.append(weakref.ref(ruleset))
        del ruleset, interp
    gc.collect()
    living = sum(ref() is not None for ref in alive)
    assert living == 0, f"{living} of {len(alive)} rulesets are still alive"
