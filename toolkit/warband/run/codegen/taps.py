"""Generated code that tells its rolls to a game's log, as the interpreter does.

A program made with `taps_rolls` (rolls_program) rolls every die through these functions, which
tell the roll to the interpreter's recorder with the same fields the interpreter gives it
(run/roll_labels.roll_event: the dice as rolled, what they are for, who rolls them, what they
needed), and wraps each `dice` argument so that its rolls carry the call's label. Programs made
for play without a log (program_for) never call them: a fixed roll there stays one look-up in a
table, and no roll pays for a log nobody keeps. The draws are the ones the plain program makes
(runtime.roll is Dist.sample, as the inlined table is), so both programs play the same game.
"""

from __future__ import annotations

from typing import cast

from warband.lang import nodes
from warband.run import roll_labels
from warband.run.codegen import runtime as rt
from warband.run.evaluate import COMPARE


def _tell(interp, node, shown, n, value) -> None:
    recorder = interp.recorder
    if recorder is not None and recorder.record:
        recorder.rolled(shown, roll_labels.roll_event(interp, node, value, n))


def roll_seen(interp, node, n, reroll):
    value = rt.roll(interp, node, n, reroll)
    _tell(interp, node, value, n, value)
    return value


def count_seen(interp, node, n, chosen, reroll):
    value = rt.count_roll(interp, node, n, chosen, reroll)
    _tell(interp, node, value, n, value)
    return value


def pool_seen(interp, node, n, reroll):
    value = rt.pool_roll(interp, node, n, reroll)
    _tell(interp, node, list(value.faces or ()), n, value)
    return value


def labelled(interp, arg, values: tuple, world, fn):
    """A `dice` argument's closure (a generated callee's or an interpreted one's Thunk) whose
    rolls carry the call's label and roller (roll_labels.labelled)."""
    if isinstance(fn, rt.Thunk):
        fn.fn = roll_labels.labelled(interp, fn.fn, arg, list(values), world)
        return fn
    return roll_labels.labelled(interp, fn, arg, list(values), world)


def as_argument(interp, arg, values: tuple, world, roll):
    """An inlined callee's read of its `dice` parameter: the argument rolled now, its rolls
    labelled by the call (roll_labels.labelled)."""
    return roll_labels.labelled(interp, roll, arg, list(values), world)()


def test_seen(interp, node, label: str, on_left: bool, left, right) -> bool:
    """A later test of a roll (roll_labels.RollLabels.tests), told as the interpreter tells it
    (evaluate.Compiler.told_test)."""
    result = COMPARE[node.op](left, right)
    recorder = interp.recorder
    if recorder is not None and recorder.record:
        recorder.tested(label, roll_labels.test_text(node, right if on_left else left), result)
    return result


NAMES = {"_roll_seen": roll_seen, "_count_seen": count_seen, "_pool_seen": pool_seen,
         "_labelled": labelled, "_as_argument": as_argument, "_test_seen": test_seen}


def test(writer, e: nodes.Compare, scope) -> str | None:
    """A comparison that is a later test of a roll, through test_seen; None for any other."""
    found = roll_labels.labels_of(writer.ruleset).tests.get(id(e))
    if found is None:
        return None
    label, on_left = found
    return (f"_test_seen(I, {writer.const(e, 'n')}, {label!r}, {on_left}, "
            f"{writer.expr(e.left, scope, True)}, {writer.expr(e.right, scope, True)})")


def dice(writer, e: nodes.Dice, scope) -> str:
    """A roll of a tapped program: through roll_seen or pool_seen, whatever its dice."""
    reroll = writer.reroll(e, scope)
    call = "_pool_seen" if e.pool else "_roll_seen"
    return f"{call}(I, {writer.const(e, 'n')}, {writer.expr(e.count, scope)}, {reroll})"


def count(writer, e: nodes.Count, scope) -> str:
    """`count PRED in (n)dS` of a tapped program (the caller has made sure of dice in place)."""
    pool = cast(nodes.Dice, e.pool)
    return (f"_count_seen(I, {writer.const(e, 'n')}, {writer.expr(pool.count, scope)}, "
            f"{writer.predicate(e.predicate, pool.sides, scope)}, {writer.reroll(pool, scope)})")


def argument(writer, call: nodes.Call, i: int, closure: str, scope) -> str:
    """A `dice` argument wrapped for its label; the arguments before it, that roll nothing, name
    who rolls it (they are asked again: reading them twice changes nothing)."""
    return f"_labelled(I, {writer.const(call.args[i], 'n')}, {_before(writer, call, i, scope)}, " \
           f"world, {closure})"


def inlined_argument(writer, call: nodes.Call, i: int, expr: str, scope) -> str:
    """What an inlined callee reads for its `dice` parameter: the argument rolled, labelled."""
    return f"_as_argument(I, {writer.const(call.args[i], 'n')}, " \
           f"{_before(writer, call, i, scope)}, world, lambda: {expr})"


def _before(writer, call: nodes.Call, i: int, scope) -> str:
    before = [writer.expr(a, scope) for a in call.args[:i] if not roll_labels.rolls(a)]
    return "(" + "".join(f"{b}, " for b in before) + ")"

