"""The one budget of work an evaluation may do: turns of `repeat` and `for each` loops and members
of groups weighed by `total`, `highest`, `lowest` and `all`, each with the calls of the rules'
own tables, definitions and procedures it makes, counted together on the interpreter
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

What counts: every turn of a loop and every member of a group weighed, one step each, whatever
it works out (`total(1 for e in G)` walks its group too: counting it as nothing let it hide
inside other loops, 115 s a round at 100 fighters a side), and the calls that turn or member
makes, by their *call weight* (lang/call_weight.py: the calls a piece of rules makes outside
its own loops, on its dearest path), known before the rules run. Calls outside any loop are
bounded when the rules compile (no declaration may weigh more than the budget: E403), so that
a chain of definitions each using the one before twice cannot make 2^40 calls with no loop to
count. An exact run counts its loops' turns as branches (MAX_BRANCHES), and here only the calls
they make.

The interpreter and the generated code count the same steps (the weights are fixed per loop,
never counted call by call: generated code inlines some calls, and the interpreter keeps the
rows of tables it looked up), so that whether a rule is too much does not depend on which of
them runs it (`play` and `simulate` agree).
"""

from __future__ import annotations

from contextlib import contextmanager
from typing import TYPE_CHECKING, Callable, Iterator

from warband.diagnostics import diag
from warband.lang import nodes
from warband.lang.call_weight import CallWeights
from warband.lang.per_ruleset import kept
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


def spend_moving(interp: InterpreterParts, n: int) -> None:
    """n points weighed by the route search of a move the rules asked for (game/board.py),
    counted against the evaluation's budget when one is counted (an activation's)."""
    if interp.in_sampled_run or interp.counting:
        interp.steps += n
        if interp.steps > MAX_SAMPLED_STEPS:
            raise RulesError(diag(
                "E403", f"this takes more than {MAX_SAMPLED_STEPS:,} steps in all, the points "
                        "its moves' searches for a way round the board's pieces weighed among "
                        "them", None,
                hint="a maze of walls on a big board makes every move search far: fewer "
                     "walls, a smaller board, or fewer fighters moving at once"))


def too_much_work(node) -> RulesError:
    return RulesError(diag(
        "E403", f"this takes more than {MAX_SAMPLED_STEPS:,} steps in all (turns of 'repeat' "
                "and 'for each' loops, members of groups that total, highest, lowest and all "
                "weigh, and the calls each makes)",
        getattr(node, "span", None),
        hint="loops and totals over groups nested in each other multiply: repeat fewer "
             "times, weigh smaller groups (fighters within a distance, a side's fighters), or "
             "nest less deeply"))


def weights(ruleset) -> CallWeights:
    """The call weights of a Ruleset's tables, definitions and procedures (kept in it)."""
    return kept(ruleset, "call weights", lambda: CallWeights(
        {**ruleset.tables, **ruleset.defines, **ruleset.procedures}))


def turn_cost(ruleset, loop) -> int:
    """The steps one turn of a loop (or one member of an aggregate's group) counts: one, and
    the calls it makes."""
    return 1 + weights(ruleset).per_turn(loop)


def turns(interp: InterpreterParts, items, node, cost: int):
    """The members a `for each` loop turns over, counted (cost steps each) in a sampled run;
    an exact run counts the turns as branches, and here the calls they make."""
    if interp.exact_mode:
        cost -= 1
    if cost:
        interp.steps += len(items) * cost
        if interp.steps > MAX_SAMPLED_STEPS:
            raise too_much_work(node)
    return items


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


@contextmanager
def part(interp: InterpreterParts) -> Iterator[None]:
    """A part of a run with a budget of its own (an activation, a look-ahead evaluation): the
    run's count goes on after it as before."""
    saved, interp.steps = interp.steps, 0
    try:
        yield
    finally:
        interp.steps = saved


def members(interp: InterpreterParts, group, node, cost: int = 1):
    """A group an aggregate weighs, `cost` steps a member (turn_cost): counted when an
    evaluation is (inside a run, or inside an outer aggregate: see `evaluation`), else as it
    is."""
    if interp.in_sampled_run or interp.counting:
        interp.steps += len(group) * cost
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
