"""Turn flow: the bounded `while` loop, `break` and `continue`, and `end turn`.

Rules are total (docs/language.md, section 11): `while COND at most N times { ... }` works out N
once, before the first turn (a whole number, 0 to MAX_REPEAT, as `repeat`'s), and runs the body
while the condition holds, N times at most. Each turn run counts against the budget of work (one
step and the calls the body makes), after its condition held, in the interpreter and the
generated code alike.

`break` and `continue`, in continuation-passing style: a loop whose body holds one gives the
body a `ret` of its own (`loop_ret`) that tells a Jump, which `break` and `continue` give it,
from a value a `return` gives: a Jump goes on after the loop (break) or with the loop's next
turn (continue), with the names as they are at the jump; a value goes on to the rule's own
`ret`. A loop without either keeps the rule's `ret`, so nothing changes for it. In generated
code they are Python's own `break` and `continue` (every loop of the rules is a Python loop
there, and a `return` inside a loop is never inlined: codegen/stmt.py).

`end turn [of SIDE]` makes the side's `turn_over` flag true. The engine gives a fighter of a side
whose turn is over no action when it is activated (the activation loop, whatever its scheme,
passes over the rest of that side's fighters), and clears every side's flag when a round starts
(`new_round`); a rule may set it back itself (`set s.turn_over = false`). The flag is a side's
like any declared flag (lang/ruleset.py adds it to a ruleset that names it), so it is in the
World's key and the odds show it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

from warband.diagnostics import diag
from warband.lang import nodes
from warband.limits import MAX_REPEAT
from warband.run import budget, roll_labels
from warband.run.errors import RulesError
from warband.run.world import SIDE_REFS

if TYPE_CHECKING:
    from warband.run.world import World

TURN_OVER = "turn_over"   # the side's flag `end turn` sets
_LOOPS = (nodes.ForEach, nodes.ForSorted, nodes.Repeat, nodes.While)


class Jump(NamedTuple):
    """What `break` (out) and `continue` (not out) give a loop's body's `ret`: the names as
    they are where it jumped."""
    out: bool
    env: dict


# ---- break and continue --------------------------------------------------------------------------

def jumps(stmt) -> bool:
    """Whether a loop's body holds a `break` or `continue` of its own (not of a loop inside)."""
    found = _JUMPS.get(id(stmt))
    if found is None:
        found = _JUMPS[id(stmt)] = (stmt, _holds_jump(stmt.body.stmts))
    return found[1]


_JUMPS: dict[int, tuple] = {}   # id(loop) -> (the loop, kept so that its id stays its, answer)


def _holds_jump(stmts) -> bool:
    for s in stmts:
        t = type(s)
        if t is nodes.Break or t is nodes.Continue:
            return True
        if t is nodes.If:
            other = s.otherwise
            if _holds_jump(s.then.stmts) or other is not None and _holds_jump(
                    (other,) if type(other) is nodes.If else other.stmts):
                return True
        elif t is nodes.Choose:
            if any(o.body is not None and _holds_jump(o.body.stmts) for o in s.options):
                return True
    return False


def loop_ret(interp, stmt, j, out, again, ret):
    """The `ret` a loop's body runs with: a Jump to `out` (after the loop) or `again` (its next
    turn), any other value to `ret`. The loop's own `ret` when its body never jumps."""
    if not jumps(stmt):
        return ret

    def jumped(value, world):
        if type(value) is Jump:
            return (out if value.out else again)(value.env, world)
        return ret(value, world)
    return interp.intern(("jump", id(stmt), j, id(out), id(again), id(ret)), jumped)


def jump(stmt, env: dict, world, ret):
    """`break` or `continue`: to the loop, through the body's `ret`."""
    return ret(Jump(type(stmt) is nodes.Break, env), world)


# ---- while ---------------------------------------------------------------------------------------

def checked_times(n, stmt) -> int:
    if type(n) is not int or n < 0:
        raise RulesError(diag("E505", f"'while ... at most N times' needs a whole number of "
                                      f"times (0 or more), not {n}", stmt.times.span))
    if n > MAX_REPEAT:
        raise RulesError(diag("E403", f"'while' runs at most {MAX_REPEAT} times, not {n}",
                              stmt.times.span))
    return n


def while_stmt(interp, stmt: nodes.While, env: dict, world, next_, ret):
    """The interpreter's `while` (continuation-passing): the condition asked before each turn
    (it may roll: each outcome followed), the body run while it holds, N turns at most."""
    cost = budget.turn_cost(interp.ruleset, stmt)

    def start(n, w0):
        n = checked_times(n, stmt)

        def loop(j, env2, w):
            if j >= n:
                return next_(env2, w)

            def yes(w2):
                spent = cost - interp.exact_mode   # (an exact run counts its turns as branches)
                if spent:
                    budget.spend(interp, spent, stmt.times)
                after = interp.intern(("while", id(stmt), j, n, id(next_), id(ret)),
                                      lambda e, w3: loop(j + 1, e, w3))
                return interp.block(stmt.body.stmts, 0, env2, w2, after,
                                    loop_ret(interp, stmt, j, next_, after, ret))
            return interp.branch(stmt.condition, env2, w, yes, lambda w2: next_(env2, w2))
        return loop(0, env, w0)
    return interp.plain(stmt.times, env, world, start)


def while_turns(n, stmt, interp):
    """Generated code's `while`: the turns it may run (checked as the interpreter checks them);
    each turn run is counted by `spend` once its condition held."""
    return range(checked_times(n, stmt))


def spend(interp, cost: int, stmt) -> None:
    budget.spend(interp, cost, stmt.times)


# ---- end turn ------------------------------------------------------------------------------------

def ended(interp, stmt: nodes.EndTurn, side, world):
    """The World with the side's turn over (a recorded game's log tells the change)."""
    if side is None and interp.acting is None:
        raise RulesError(diag("E505", "'end turn' with no fighter acting: whose turn ends?",
                              stmt.span, hint="name the side: end turn of s"))
    index = side.index if side is not None else world.fighters[interp.acting.index].side
    if world.sides[index].values.get(TURN_OVER) is True:
        return world
    after = world.set_side(index, TURN_OVER, True)
    recorder = interp.recorder
    if recorder is not None and recorder.record and not interp.exact_mode:
        roll_labels.changed(recorder, SIDE_REFS[index], TURN_OVER, TURN_OVER, world, after)
    return after


def end_turn_stmt(interp, stmt: nodes.EndTurn, env: dict, world, next_):
    if stmt.side is None:
        return next_(env, ended(interp, stmt, None, world))
    return interp.plain(stmt.side, env, world,
                        lambda side, w: next_(env, ended(interp, stmt, side, w)))


def turn_over(world, side: int) -> bool:
    """Whether a side's turn is over: the engine gives its fighters no action."""
    return world.sides[side].values.get(TURN_OVER) is True


ACTIVATIONS = "#activations"   # a fighter's activations counted outside a game (odds)
COUNTED = "activated"   # what `activate` gives its name outside a game: no action was chosen


def counted_activation(world, ref):
    """`activate` outside a game (the odds of a phase or procedure): no board, no player to
    choose an action, so none is played; the activation is counted, and the odds show each
    fighter's `activations`. A fighter out of play, or of a side whose turn is over, is not
    activated, as in a game: (the name the activation gives, the world after)."""
    f = world.fighters[ref.index]
    if f.removed or turn_over(world, f.side):
        return "none", world
    return COUNTED, world.set(ref, ACTIVATIONS, f.values.get(ACTIVATIONS, 0) + 1)


def new_round(world: World) -> World:
    """Every side's turn begins again when a round starts."""
    for i, s in enumerate(world.sides):
        if s.values.get(TURN_OVER) is True:
            world = world.set_side(i, TURN_OVER, False)
    return world
