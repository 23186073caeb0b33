"""The builder's rules for decks and bags, the flow of a turn and fighters brought back into
play (lang/nodes_flow.py)."""

from __future__ import annotations

from lark import Token, v_args

from warband.lang import nodes
from warband.lang.build_base import BuildBase, unquote


@v_args(meta=True)
class FlowBuilder(BuildBase):
    """Decks and bags, turn flow, back into play: one method per grammar rule."""

    # ---- decks and bags ---------------------------------------------------------------------
    def deck_kind(self, meta, c):
        return str(c[0])

    def deck_owner(self, meta, c):
        return c[0]   # (a Token: `side` or a NAME, checked)

    def deck_card(self, meta, c):
        count, name, doc = c
        return nodes.DeckCard(int(count) if count is not None else 1, self.ident(name), doc,
                              self.span(meta))

    def deck_reshuffle(self, meta, c):
        return self.ident(c[0])

    def deck_decl(self, meta, c):
        kind, name, of, per, doc, *entries = c
        cards = tuple(e for e in entries if isinstance(e, nodes.DeckCard))
        reshuffle = next((e for e in entries if isinstance(e, nodes.Ident)), None)
        return nodes.DeckDecl(kind, self.ident(name), self.ident(of), self.ident(per), doc,
                              cards, reshuffle, self.span(meta))

    def draw_stmt(self, meta, c):
        name, deck, to = c
        return nodes.Draw(self.ident(name), deck, self.ident(to) if isinstance(to, Token)
                          else None, self.span(meta))

    def discard_stmt(self, meta, c):
        return nodes.Discard(c[0], c[1], self.span(meta))

    def shuffle_stmt(self, meta, c):
        return nodes.Shuffle(c[0], self.span(meta))

    # ---- turn flow ----------------------------------------------------------------------------
    def while_stmt(self, meta, c):
        return nodes.While(c[0], c[1], c[2], self.span(meta))

    def break_stmt(self, meta, c):
        return nodes.Break(self.span(meta))

    def continue_stmt(self, meta, c):
        return nodes.Continue(self.span(meta))

    def end_turn_stmt(self, meta, c):
        return nodes.EndTurn(c[0], self.span(meta))

    # ---- campaigns: in a scenario's aftermath (lang/nodes_campaign.py) ---------------------------
    def give_stmt(self, meta, c):
        return nodes.Gear("give", self.ident(c[0]), c[1], self.span(meta))

    def take_stmt(self, meta, c):
        return nodes.Gear("take", self.ident(c[0]), c[1], self.span(meta))

    def hire_stmt(self, meta, c):
        name, cls, side, *gear = c
        return nodes.Hire(unquote(str(name)), self.ident(cls), side,
                          tuple(self.ident(g) for g in gear if g is not None), self.span(meta))
