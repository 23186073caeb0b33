"""Events: rules that run when something happens (lang/nodes_event.py).

The interpreter asks `after_change` after each statement that can set one off (`remove`,
`withdraw`, `inflict`, a `set` of a counter) with the World before and after it, and runs
`round_events` where the engine marks a round's start and end (a RoundEvents statement at the
ends of the scenario's round block). What fires is worked out by comparing the two Worlds, so
nothing is kept between statements and a cloned game state needs nothing more: a side "falls
to 1/2" when a removal takes its fighters in play from above half its start to half or fewer;
a counter "reaches 3" when a change takes it from below 3 to 3 or more (or from above to 3 or
less).

Order: the events that fire run one after another, in the order they were declared (the
ruleset's, base first, then the scenario's), and for each event its subjects in the order of
the fighters (or sides); all of them before the statement's rule goes on. An event does not
fire again while its own rule runs (a removal inside a "fighter removed" rule fires the other
events, not that one): every chain of events ends, at most as many deep as there are events.
Everything runs through the interpreter's own statements, so exact odds follow an event's
rolls and decisions as they follow any other rule's (without merging equal situations: an
event's block is no procedure the liveness analysis knows).
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from typing import Any

from warband.lang import nodes
from warband.lang.event_checker import constant
from warband.lang.per_ruleset import per_ruleset
from warband.run.world import FIGHTER_REFS, SIDE_REFS, World

# the kinds of event a statement inside a rule can set off (a round's are the engine's)
IN_RULES = ("removed", "falls", "reaches")


def watched(ruleset) -> bool:
    """Whether any event of the ruleset can fire inside a rule (generated code then hands the
    statements that can set one off to the interpreter)."""
    return bool(ruleset.events) and any(e.kind in IN_RULES for e in ruleset.events)


@per_ruleset
def watched_counters(ruleset) -> frozenset[str]:
    """The counters a `reaches` event watches (a `set` of one may set it off)."""
    return frozenset(e.counter.name for e in ruleset.events
                     if e.kind == "reaches" and e.counter is not None)


def fired(interp, before: World, after: World) -> list[tuple[nodes.EventDecl, dict, dict]]:
    """The events a change from `before` to `after` sets off, in order: (event, the names its
    rule is given, what the log says of why)."""
    out: list[tuple[nodes.EventDecl, dict, dict]] = []
    running = interp.events_running   # (not changed while this looks)
    gone = [i for i, (f0, f1) in enumerate(zip(before.fighters, after.fighters))
            if f1.removed and not f0.removed]
    for event in interp.ruleset.events:
        if event in running:
            continue
        kind = event.kind
        if kind == "removed" and gone:
            for i in gone:
                env = {event.subject.name: FIGHTER_REFS[i]}
                why = {"fighter": after.fighters[i].name,
                       "side": after.sides[after.fighters[i].side].name}
                by = after.fighters[i].removed_by
                if event.by is not None:
                    if by is None or by[0] is None:
                        continue   # (`by G`: only a removal by a fighter)
                    env[event.by.name] = FIGHTER_REFS[by[0]]
                if by is not None and by[0] is not None:
                    why["by"] = after.fighters[by[0]].name
                out.append((event, env, why))
        elif kind == "falls" and gone:
            part = constant(event.amount)
            for s in sorted({after.fighters[i].side for i in gone}):
                start = sum(1 for f in after.fighters if f.side == s)
                was = sum(1 for f in before.fighters if f.side == s and not f.removed)
                now = sum(1 for f in after.fighters if f.side == s and not f.removed)
                line = (part or Fraction(0)) * start
                if now <= line < was:
                    out.append((event, {event.subject.name: SIDE_REFS[s]},
                                {"side": after.sides[s].name, "left": now, "start": start}))
        elif kind == "reaches":
            name = event.counter.name
            fn = interp.fn(event.amount)
            kept: list[tuple[Any, Any, Any]] = [(before.fighters, after.fighters, FIGHTER_REFS),
                                                (before.sides, after.sides, SIDE_REFS)]
            for holders0, holders1, refs in kept:
                for i, (h0, h1) in enumerate(zip(holders0, holders1)):
                    old, new = h0.values.get(name), h1.values.get(name)
                    if old is None or old == new or h1 is h0:
                        continue
                    env = {event.subject.name: refs[i]}
                    value = fn(dict(env), after)
                    if old < value <= new or old > value >= new:
                        who = {"fighter": h1.name} if refs is FIGHTER_REFS else \
                            {"side": h1.name}
                        out.append((event, env, {**who, "counter": name, "value": new}))
    return out


def reason(why: dict) -> str | None:
    """Why an event fired, as the log says it: "Bob (red) by Ann", "red: 1 of 3 left",
    "Ann: Wounds 3"; None for a round's."""
    if "left" in why:
        return f"{why['side']}: {why['left']} of {why['start']} left"
    if "counter" in why:
        return f"{why.get('fighter') or why.get('side')}: {why['counter']} {why['value']}"
    if "fighter" in why:
        return f"{why['fighter']} ({why['side']})" + (f" by {why['by']}" if "by" in why else "")
    return None


def run_fired(interp, found: list, world: World, k: Callable, key: tuple):
    """Run the events found, one after another, then k(world). An event is marked running
    while its rule runs (and unmarked while what follows it runs: continuations return here,
    where the next branch of a roll in the rule runs with the mark again). The marks are the
    interpreter's `events_running`, read afresh each time: a look-ahead that plays on from a
    decision puts back the marks of the place it plays on from (Interpreter.run_context)."""

    def one(i: int, w: World):
        if i == len(found):
            return k(w)
        event, env, why = found[i]
        if event in interp.events_running:   # (a rule of an earlier one set it running)
            return one(i + 1, w)

        def after(w2: World):
            interp.events_running.discard(event)
            try:
                return one(i + 1, w2)
            finally:
                interp.events_running.add(event)
        done = interp.intern(("event", key, i), lambda e, w2: after(w2), k)
        ret = interp.intern(("event-ret", key, i), lambda v, w2: after(w2), k)
        recorder = interp.recorder
        if recorder is not None and recorder.record and not interp.exact_mode:
            recorder.event_ran(event.name.name, event.when, reason(why))
        interp.events_running.add(event)
        try:
            return interp.block(event.body.stmts, 0, dict(env), w, done, ret)
        finally:
            interp.events_running.discard(event)
    return one(0, world)


def after_change(interp, stmt, env: dict, before: World, after: World, next_: Callable):
    """Go on with next_(env, after), first running the events the change sets off."""
    found = fired(interp, before, after)
    if not found:
        return next_(env, after)
    then = interp.intern(("events-done", id(stmt), id(next_), tuple(env.items())),
                         lambda w: next_(env, w), next_)
    key = (id(then), tuple((id(e), tuple(b.items())) for e, b, _ in found))
    return run_fired(interp, found, after, then, key)


def round_events(interp, stmt, env: dict, world: World, next_: Callable):
    """`round starts` / `round ends` (the engine's RoundEvents statement): every such event,
    in order, then next_(env, world)."""
    word = stmt.word
    found: list[tuple[nodes.EventDecl, dict, dict]] = [
        (e, {}, {}) for e in interp.ruleset.events
             if e.kind == "round" and e.word.name == word and e not in interp.events_running]
    if not found:
        return next_(env, world)
    then = interp.intern(("round-events", id(stmt), id(next_), tuple(env.items())),
                         lambda w: next_(env, w), next_)
    return run_fired(interp, found, world, then, (id(then), word))
