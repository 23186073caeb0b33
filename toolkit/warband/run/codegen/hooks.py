"""The hooks the interpreter and a game's engine call to run rules through generated code: the
program of an interpreter's Ruleset (made once per Ruleset and policy, and kept in it), and a
sampled run, a sampler, a nested run and a `requires` through it, each None when the run is
left to the interpreter.
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING

from warband.lang.per_ruleset import kept
from warband.run.codegen import runtime as rt
from warband.run.codegen.program import Program

if TYPE_CHECKING:
    from warband.run.interpreter_parts import InterpreterParts

__all__ = ["UNIFORM", "allowed", "nested", "program_for", "program_of", "rolls_program", "sample",
           "sampler"]


# ---- the hook the interpreter calls ------------------------------------------------------------

UNIFORM = ("first", "random")   # policies a program may be made for


def program_for(interp: InterpreterParts, uniform: str | None = None) -> Program:
    """The generated program of the interpreter's Ruleset: made once per Ruleset, and once
    more for each policy in UNIFORM that runs use as the policy of every decision (`uniform`:
    the run's `uniform`). A program made for one policy runs only runs under that policy, and
    its decisions do not ask: a first-policy decision whose first option is always legal is
    that option's statements (an attack's two Fate decisions were a fifth of its time)."""
    policy = uniform if uniform in UNIFORM else None
    return kept(interp.ruleset, ("program", policy),
                lambda: Program(interp.ruleset, interp, policy))


def rolls_program(interp: InterpreterParts, uniform: str | None = None) -> Program:
    """A program whose rolls tell the interpreter's recorder what they are for, as the
    interpreter's own rolls do (taps.py): made anew, never the one play without a log uses."""
    program = Program(interp.ruleset, interp, uniform if uniform in UNIFORM else None)
    program.taps_rolls = True
    return program


def program_of(interp: InterpreterParts, uniform: str | None = None) -> Program:
    """program_for(interp, uniform), kept on the interpreter (a game asks at every action)."""
    found = interp.programs.get(uniform)
    if found is None:
        found = interp.programs[uniform] = program_for(interp, uniform)
    return found


def sample(interp: InterpreterParts, procedure: str, args: dict, world, block=None, keep: bool = False):
    """Interpreter.sample through the generated program: (value, world), or None when this run
    is left to the interpreter (look-ahead, probing, rolls kept whole, arguments generated code
    does not take). The caller has set sampling mode and reset the counters. `keep`: give back
    the run's Draft as it is, not a World made of it (for a caller that goes on changing it)."""
    if world.lazies or interp.probing:
        return None
    policies = interp.policies
    if policies.by_decision:
        # look-ahead (greedy) runs the rest of the action from each decision: CPS only
        if policies.default == "greedy" or "greedy" in policies.by_decision.values():
            return None
        uniform = None
    else:
        if policies.default == "greedy":
            return None
        uniform = policies.default
    program = interp.programs.get(uniform) or program_of(interp, uniform)
    entry = program.entry(procedure, block)
    if entry is None:
        return None
    interp.uniform = uniform
    outermost = not interp.in_sampled_run
    if outermost:   # one budget of work for the whole run, nested runs included (budget.py)
        interp.in_sampled_run = True
        if not interp.counting:   # (else part of an interpreter's run: its budget goes on)
            interp.steps = 0
    try:
        if program.fell_back:
            value, after = _with_interpreter_room(entry, interp, args, world)
        else:
            value, after = entry(interp, args, world)
    except rt.Interpret:
        return None
    except RecursionError:
        raise rt.too_deep(block or program.ruleset.procedures[procedure]) from None
    except Exception as error:
        raise program.crashed(error, block or program.ruleset.procedures[procedure]) from None
    finally:
        if outermost:
            interp.in_sampled_run = False
    return value, (after.freeze() if type(after) is rt.Draft and not keep else after)


def sampler(interp: InterpreterParts, procedure: str):
    """Interpreter.sampler through the generated program: run(world, *arguments) ->
    (value, world), as sample(procedure, {name: argument}, world) gives, for a caller that runs
    the same procedure many times (an attack, thousands of times), or None when the
    interpreter runs the procedure. run is generated too (s_NAME(I) makes it): its arguments
    go straight to c_NAME, which checks them as e_NAME does, with none of the dict's look-ups
    or a generic call's packing. A run that generated code does not make, or one made from
    inside another, goes through `sample`."""
    policies = interp.policies
    program = program_of(interp, None if policies.by_decision else policies.default)
    make = program.sampler(procedure) if program.entry(procedure) is not None else None
    return make(interp) if make is not None else None


def nested(interp: InterpreterParts, procedure: str, args: dict, world):
    """A run of an action that the engine starts from inside a generated sampled run (an
    activation of the turn), which has set the policies and the loop budget: (value, world
    or draft), or None when it is left to the interpreter (before anything is drawn)."""
    program = interp.programs.get(interp.uniform) or program_of(interp, interp.uniform)
    entry = program.entry(procedure)
    if entry is None or world.lazies:
        return None
    try:
        if program.fell_back:
            return _with_interpreter_room(entry, interp, args, world)
        return entry(interp, args, world)
    except rt.Interpret:
        return None
    except RecursionError:
        raise rt.too_deep(program.ruleset.procedures[procedure]) from None
    except Exception as error:
        raise program.crashed(error, program.ruleset.procedures[procedure]) from None


def _with_interpreter_room(entry, interp, args, world):
    """A run that may call procedures left to the interpreter: those run in CPS and need its
    settings (no memo, the deeper stack it allows itself)."""
    interp.memoise = False
    old = sys.getrecursionlimit()
    sys.setrecursionlimit(max(old, 20_000))
    try:
        return entry(interp, args, world)
    finally:
        sys.setrecursionlimit(old)


def allowed(interp: InterpreterParts, procedure: str, args: dict, world):
    """Interpreter.allowed through the generated program: a bool, or None when left to it."""
    program = program_of(interp, None)
    check = program.requirement(procedure)
    if check is None or world.lazies:
        return None
    try:
        return check(interp, args, world)
    except rt.Interpret:
        return None
    except Exception as error:
        raise program.crashed(error, program.ruleset.procedures[procedure]) from None
