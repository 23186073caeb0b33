"""The abstract syntax of events: a rule that runs when something happens (a fighter removed,
a side fallen to a part of its start, a round starting or ending, a counter reaching a value).
lang/nodes.py gathers it with the other parts; run/events.py runs it.
"""

from __future__ import annotations

from warband.diagnostics import Span
from warband.lang.nodes_core import Block, Expr, Ident, node

# what each trigger is written with: its kind -> the word after the subject
TRIGGER_WORDS = {"removed": ("removed",), "falls": ("falls",), "round": ("starts", "ends"),
                 "reaches": ("reaches",)}


@node
class EventDecl:
    """`event NAME ["doc"] when TRIGGER { ... }`, one of:
    `fighter F removed [by G]`  F the fighter out of play, G the fighter that removed it
                                (with `by`, only removals by a fighter);
    `side S falls to FRACTION`  S a side whose fighters in play fell to FRACTION of its start;
    `round starts` / `round ends`;
    `X.COUNTER reaches VALUE`   X the fighter or side whose counter passed on to VALUE."""
    name: Ident
    doc: str | None
    kind: str                 # removed | falls | round | reaches
    word: Ident               # the word as written (removed, falls, starts, ends, reaches)
    subject: Ident | None     # F, S or X (None for a round)
    by: Ident | None          # G
    counter: Ident | None     # COUNTER
    amount: Expr | None       # FRACTION or VALUE
    body: Block
    span: Span

    @property
    def when(self) -> str:
        """The trigger in words, for the log and messages: 'fighter f removed by g'."""
        if self.kind == "removed":
            return f"fighter {self.subject.name if self.subject else ''} removed" + (
                f" by {self.by.name}" if self.by is not None else "")
        if self.kind == "falls":
            return f"side {self.subject.name if self.subject else ''} falls"
        if self.kind == "round":
            return f"round {self.word.name}"
        return f"{self.subject.name if self.subject else ''}." \
               f"{self.counter.name if self.counter else ''} reaches"


@node
class RoundEvents:
    """Where a round starts or ends (`starts` | `ends`): the engine puts one at each end of the
    scenario's round block when the rules have events of a round (run/events.py). No rules
    file writes it."""
    word: str
    span: Span
