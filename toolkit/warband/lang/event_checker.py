"""The part of the checker that knows events (run/events.py): the trigger's words, the names it
binds, the counter it watches, the fraction or value it names, and the rule it runs.

Mixed into the Checker.
"""

from __future__ import annotations

from fractions import Fraction
from typing import cast

from warband.diagnostics import did_you_mean
from warband.lang import nodes
from warband.lang.checker_parts import CheckerParts
from warband.lang.nodes_event import TRIGGER_WORDS
from warband.lang.symbols import KIND_WORDS
from warband.lang.typesystem import FIGHTER, SIDE, Scope, Type

WRITTEN = {"removed": "fighter F removed [by G]", "falls": "side S falls to 1/2",
           "round": "round starts (or: round ends)", "reaches": "F.COUNTER reaches 3"}


def constant(e: nodes.Expr) -> Fraction | None:
    """The value of a fraction written with whole numbers (1/2, 2 / 3, 0): None for anything
    else (a name, a roll)."""
    if isinstance(e, nodes.Int):
        return Fraction(e.value)
    if isinstance(e, nodes.Binary):
        a, b = constant(e.left), constant(e.right)
        if a is None or b is None:
            return None
        if e.op == "/":
            return a / b if b else None
        return {"+": a + b, "-": a - b, "*": a * b}.get(e.op)
    return None


class EventChecker(CheckerParts):
    def event(self, decl: nodes.EventDecl) -> None:
        words = TRIGGER_WORDS[decl.kind]
        if decl.word.name not in words:
            self.error("E328", f"an event runs when {_what(decl.kind)} {either(words)}, not "
                               f"'{decl.word.name}'", decl.word.span,
                       hint=did_you_mean(decl.word.name, words) or f"write: event "
                       f"{decl.name.name} when {WRITTEN[decl.kind]} {{ ... }}")
        scope = Scope({})
        if decl.subject is not None:
            scope.locals[decl.subject.name] = (self.subject_type(decl), decl.subject.span)
        if decl.by is not None:
            if decl.subject is not None and decl.by.name == decl.subject.name:
                self.error("E202", f"'{decl.by.name}' names the fighter removed already",
                           decl.by.span, hint="name the fighter that removed it otherwise: "
                                              f"removed by {decl.by.name}2")
            scope.locals[decl.by.name] = (FIGHTER, decl.by.span)
        if decl.amount is not None:
            self.amount(decl, Scope(dict(scope.locals)))
        bound = list(scope.locals)
        self.binding_hint = (f"event '{decl.name.name}' knows only what its 'when' names: "
                             f"{', '.join(bound)}" if bound else
                             f"event '{decl.name.name}' names no fighter or side ('{decl.when}'): "
                             f"loop over them, as in: for each f in fighters {{ ... }}")
        try:
            self.block(decl.body, scope)
        finally:
            self.binding_hint = None

    def subject_type(self, decl: nodes.EventDecl) -> Type:
        """What the subject of a trigger is: a fighter removed, a side that falls, and for a
        counter the fighter or side that keeps it."""
        if decl.kind == "removed":
            return FIGHTER
        if decl.kind == "falls":
            return SIDE
        assert decl.counter is not None   # the grammar gives one with `reaches`
        sym = self.lookup(decl.counter.name)
        if sym is None:
            self.unknown(decl.counter, ("counter",),
                         hint=f"declare it first, as in: counter {decl.counter.name} on fighter")
        elif sym.kind != "counter":
            self.error("E204", f"an event watches a counter; '{sym.name}' is "
                               f"{KIND_WORDS[sym.kind]}", decl.counter.span,
                       hint="declare a counter and watch it: counter Wounds on fighter, then "
                            "when f.Wounds reaches 3")
        elif cast(nodes.StateDecl, sym.decl).owner not in ("fighter", "side"):
            self.error("E328", f"an event watches a fighter's or a side's counter; "
                               f"'{sym.name}' is kept on each piece of a marker",
                       decl.counter.span, hint="watch a counter on fighter or on side")
        else:
            return FIGHTER if cast(nodes.StateDecl, sym.decl).owner == "fighter" else SIDE
        return Type("any")

    def amount(self, decl: nodes.EventDecl, scope: Scope) -> None:
        """The fraction a side falls to (whole numbers: 1/2, from 0 up to below 1) or the value
        a counter reaches (a fixed number; it may read the subject: f.Grit)."""
        assert decl.amount is not None
        if decl.kind == "reaches":
            self.fixed_number(decl.amount, scope, "the value a counter reaches")
            return
        self.fixed_number(decl.amount, Scope({}), "the part of its start a side falls to")
        part = constant(decl.amount)
        if part is None:
            self.error("E329", "the part of its start a side falls to is a fraction of whole "
                               "numbers", decl.amount.span,
                       hint="write it as 1/2 or 1/3 (of the fighters the side started with)")
        elif not 0 <= part < 1:
            self.error("E329", f"a side falls to a part of its start from 0 up to below 1, not "
                               f"{_shown(part)}", decl.amount.span,
                       hint="half its fighters: falls to 1/2; the last one gone: falls to 0")


def _what(kind: str) -> str:
    return {"removed": "a fighter is", "falls": "a side", "round": "a round",
            "reaches": "a counter"}[kind]


def either(words: tuple[str, ...]) -> str:
    return " or ".join(f"'{w}'" for w in words)


def _shown(part: Fraction) -> str:
    return str(part.numerator) if part.denominator == 1 else \
        f"{part.numerator}/{part.denominator}"
