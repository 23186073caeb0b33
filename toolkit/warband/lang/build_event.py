"""The builder's rules for events (lang/nodes_event.py)."""

from __future__ import annotations

from lark import v_args

from warband.lang import nodes
from warband.lang.build_base import BuildBase


@v_args(meta=True)
class EventBuilder(BuildBase):
    """Events: one method per grammar rule. A trigger is built as (kind, word, subject, by,
    counter, amount), which event_decl puts in the node."""

    def trigger_fighter(self, meta, c):
        subject, word, by = c
        return "removed", self.ident(word), self.ident(subject), \
            self.ident(by) if by is not None else None, None, None

    def trigger_side(self, meta, c):
        subject, word, amount = c
        return "falls", self.ident(word), self.ident(subject), None, None, amount

    def trigger_round(self, meta, c):
        return "round", self.ident(c[0]), None, None, None, None

    def trigger_counter(self, meta, c):
        subject, counter, word, amount = c
        return "reaches", self.ident(word), self.ident(subject), None, self.ident(counter), \
            amount

    def event_decl(self, meta, c):
        name, doc, trigger, body = c
        kind, word, subject, by, counter, amount = trigger
        return nodes.EventDecl(self.ident(name), doc, kind, word, subject, by, counter, amount,
                               body, self.span(meta))
