"""The one budget of work an evaluation may do: turns of `repeat` loops and members of groups
weighed by `total`, `highest`, `lowest` and `all`, counted together on the interpreter
(`Interpreter.steps`) by the interpreter and the generated code alike.

Each loop and each group is bounded on its own (MAX_REPEAT turns, MAX_FIGHTERS fighters), but
nesting multiplies them: four levels of `total(... for x in GROUP)` over 200 fighters a side ran
about thirty minutes a round. So the work of one evaluation is counted in all, and passing
MAX_SAMPLED_STEPS (about a second of generated code) is E403 at the node that passed it.

What is one evaluation: a run of a procedure (sampled or exact; a run inside a run shares its
caller's budget), or, outside any run, one outermost aggregate that weighs other aggregates or
calls the rules' own functions. An aggregate that only weighs its members' own values, outside
any run, is not counted: its work is the size of its group.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable

from warband.diagnostics import diag
from warband.lang import nodes
from warband.limits import MAX_SAMPLED_STEPS
from warband.run.errors import RulesError

if TYPE_CHECKING:
    from warband.run.interpreter import Interpreter


# A member the interpreter weighs counts this many steps: it takes about as many times as long
# as generated code's (2,000,000 members: 0.6 s generated, 6 s interpreted, 10 s exact), so the
# budget keeps every machinery to about a second. The interpreter runs exact odds, look-ahead,
# and what generated code leaves to it.
INTERPRETED = 8


def open_count(interp: Interpreter) -> bool:
    """Start counting an evaluation's work from nothing, unless one is counted already (then
    this one is part of it); True when this call started it (close_count ends it)."""
    if interp.in_sampled_run or interp.counting:
        return False
    interp.steps, interp.counting = 0, 1
    return True


def close_count(interp: Interpreter, opened: bool) -> None:
    if opened:
        interp.counting = 0


def spend(interp: Interpreter, n: int, node) -> None:
    """Count n steps of work against the evaluation's budget."""
    interp.steps += n
    if interp.steps > MAX_SAMPLED_STEPS:
        raise too_much_work(node)


def too_much_work(node) -> RulesError:
    return RulesError(diag(
        "E403", f"this takes more than {MAX_SAMPLED_STEPS:,} steps in all (turns of 'repeat' "
                "loops, and members of groups that total, highest, lowest and all weigh)",
        getattr(node, "span", None),
        hint="loops and totals over groups nested in each other multiply: repeat fewer "
             "times, weigh smaller groups (fighters within a distance, a side's fighters), or "
             "nest less deeply"))


def weighs_more(aggregate: nodes.Aggregate, ruleset) -> bool:
    """Whether an aggregate's value or condition may weigh other groups: it holds an
    aggregate, or calls a table, definition or procedure of the rules (which may)."""
    own = (ruleset.defines, ruleset.tables, ruleset.procedures)

    def weighs(node) -> bool:
        t = type(node)
        if t is nodes.Aggregate:
            return True
        if t is nodes.Call and any(node.callee.name in names for names in own):
            return True
        if t is tuple:
            return any(weighs(x) for x in node)
        if hasattr(node, "__dataclass_fields__"):
            return any(weighs(getattr(node, f)) for f in node.__dataclass_fields__
                       if f != "span")
        return False
    return weighs(aggregate.value) or weighs(aggregate.condition)


def members(interp: Interpreter, group, node, weight: int = 1):
    """A group an aggregate weighs: counted when an evaluation is (inside a run, or inside an
    outer aggregate: see `evaluation`), else as it is. Each member counts `weight` steps
    (INTERPRETED for the interpreter's, 1 for generated code's)."""
    if interp.in_sampled_run or interp.counting:
        interp.steps += len(group) * weight
        if interp.steps > MAX_SAMPLED_STEPS:
            raise too_much_work(node)
    return group


def evaluation(interp: Interpreter, value: Callable[[], object]):
    """value(), an aggregate that weighs other groups (or calls the rules' own functions), as
    an evaluation of its own when none is counted yet: its work and all it asks counted from
    nothing (its members are counted by `members` inside it)."""
    if interp.in_sampled_run or interp.counting:
        return value()
    interp.steps, interp.counting = 0, 1
    try:
        return value()
    finally:
        interp.counting = 0
