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
any run, is not counted: its work is the size of its group. Inside a run, a `part` has a budget
of its own: each activation the engine runs inside a scenario's round (with the options it
checks and the look-ahead it makes), each look-ahead evaluation; else a round of 400 cheap
activations would add up to one evaluation.

The interpreter and the generated code count the same steps, so that whether a rule is too
much does not depend on which of them runs it (`play` and `simulate` agree): a member counts
where its value or condition is worked out (`total(1 for f in G)` without a condition works out
nothing a member: generated code asks the group's length).
"""

from __future__ import annotations

from contextlib import contextmanager
from typing import TYPE_CHECKING, Callable, Iterator

from warband.diagnostics import diag
from warband.lang import nodes
from warband.limits import MAX_SAMPLED_STEPS
from warband.run.errors import RulesError

if TYPE_CHECKING:
    from warband.run.interpreter_parts import InterpreterParts


def open_count(interp: InterpreterParts) -> bool:
    """Start counting an evaluation's work from nothing, unless one is counted already (then
    this one is part of it); True when this call started it (close_count ends it)."""
    if interp.in_sampled_run or interp.counting:
        return False
    interp.steps, interp.counting = 0, 1
    return True


def close_count(interp: InterpreterParts, opened: bool) -> None:
    if opened:
        interp.counting = 0


def spend(interp: InterpreterParts, n: int, node) -> None:
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


def works_out_members(aggregate: nodes.Aggregate) -> bool:
    """Whether an aggregate works something out for each member (its value or condition), so
    that its members count as work: not `total(1 for f in G)` nor `all(f for f in G)`."""
    return aggregate.condition is not None or not (
        type(aggregate.value) is nodes.Int or
        type(aggregate.value) is nodes.Name and aggregate.value.name == aggregate.var.name)


@contextmanager
def part(interp: InterpreterParts) -> Iterator[None]:
    """A part of a run with a budget of its own (an activation, a look-ahead evaluation): the
    run's count goes on after it as before."""
    saved, interp.steps = interp.steps, 0
    try:
        yield
    finally:
        interp.steps = saved


def members(interp: InterpreterParts, group, node):
    """A group an aggregate weighs, a step a member: counted when an evaluation is (inside a
    run, or inside an outer aggregate: see `evaluation`), else as it is."""
    if interp.in_sampled_run or interp.counting:
        interp.steps += len(group)
        if interp.steps > MAX_SAMPLED_STEPS:
            raise too_much_work(node)
    return group


def evaluation(interp: InterpreterParts, value: Callable[[], object]):
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
