"""The part of the checker that knows decks and bags (run/decks.py): their declarations, the
values that name them (`events`, `s.tactics`), what is read of one (`D.left`, `D.discards`,
`D.hand`) and the statements that draw, discard and shuffle.

Mixed into the Checker.
"""

from __future__ import annotations

from typing import cast

from warband.diagnostics import Related, Span, did_you_mean
from warband.lang import nodes
from warband.lang.checker_parts import CheckerParts
from warband.lang.symbols import KIND_WORDS
from warband.lang.typesystem import NUMBER, Scope, Type

# what a deck answers: the cards left to draw, the cards discarded, the cards in the hand
DECK_FIELDS = {"left": NUMBER, "discards": NUMBER}
DECK_GROUPS = ("hand",)
PER = ("side", "game")


class DeckChecker(CheckerParts):
    # ---- the declaration ------------------------------------------------------------------------
    def deck_decl(self, decl: nodes.DeckDecl) -> None:
        what = f"{decl.kind} '{decl.name.name}'"
        if decl.per.name not in PER:
            self.error("E201", f"a {decl.kind} is kept per side or per game, not "
                               f"'{decl.per.name}'", decl.per.span,
                       hint=did_you_mean(decl.per.name, PER)
                       or f"{decl.kind} {decl.name.name} of {decl.cards_of.name} per game { ... }")
        if decl.reshuffle is not None and decl.reshuffle.name != "empty":
            self.error("E201", f"a {decl.kind} is reshuffled when empty, not when "
                               f"'{decl.reshuffle.name}'", decl.reshuffle.span,
                       hint="write: reshuffle when empty")
        sym = self.lookup(decl.cards_of.name)
        members: list[str] = []
        if sym is None:
            self.unknown(decl.cards_of, ("enum",),
                         hint=f"declare the cards first: enum {decl.cards_of.name} "
                              "{ Ambush Storm ... }")
        elif sym.kind != "enum":
            self.error("E204", f"the cards of a {decl.kind} are the values of an enumeration; "
                               f"'{sym.name}' is {KIND_WORDS[sym.kind]}", decl.cards_of.span,
                       hint=f"declare them: enum Cards {{ ... }}, then {decl.kind} "
                            f"{decl.name.name} of Cards per {decl.per.name}")
        else:
            self.used.add(sym.name)
            members = [m.name.name for m in cast(nodes.EnumDecl, sym.decl).members]
        seen: dict[str, Span] = {}
        for card in decl.cards:
            name = card.name.name
            if members and name not in members:
                self.error("E201", f"'{name}' is not a value of '{decl.cards_of.name}'",
                           card.name.span, hint=did_you_mean(name, members)
                           or f"values of '{decl.cards_of.name}': {', '.join(members)}")
            if name in seen:
                self.error("E202", f"'{name}' is listed twice in {what}", card.name.span,
                           related=[Related(seen[name], "first here")],
                           hint=f"give the number once: 2 {name}")
            seen[name] = card.name.span
            if card.count < 1:
                self.error("E305", f"a {decl.kind} holds 1 or more of each card it lists, not "
                                   f"{card.count}", card.span,
                           hint=f"leave '{name}' out of the {decl.kind}")
        if not decl.cards:
            self.error("E305", f"{what} holds no cards", decl.name.span,
                       hint=f"list its cards: {decl.kind} {decl.name.name} of "
                            f"{decl.cards_of.name} per {decl.per.name} {{ 2 Ambush  Storm }}")

    # ---- values naming a deck -------------------------------------------------------------------
    def deck_value(self, e: nodes.Name, decl: nodes.DeckDecl) -> Type:
        """A deck named alone: one per game; one kept per side is read from its side."""
        self.used.add(decl.name.name)
        if decl.per.name == "side":
            self.error("E204", f"each side has a {decl.kind} '{e.name}' of its own",
                       e.span, hint=f"name whose: s.{e.name}, or f.side.{e.name}")
        return Type("deck", decl.name.name)

    def side_deck(self, field: nodes.Ident, mutable: bool) -> Type | None:
        """`s.tactics`: a side's own deck (None when no deck per side is named so)."""
        sym = self.lookup(field.name)
        if sym is None or sym.kind != "deck":
            return None
        decl = cast(nodes.DeckDecl, sym.decl)
        if decl.per.name != "side":
            return None
        self.used.add(decl.name.name)
        if mutable:
            self.error("E308", f"a side's {decl.kind} is changed by draw, discard and shuffle, "
                               "not set", field.span,
                       hint=f"draw c from s.{field.name}")
        return Type("deck", decl.name.name)

    def deck_field(self, subject: Type, field: nodes.Ident, mutable: bool) -> Type:
        if mutable:
            self.error("E308", f"what a deck holds is changed by draw, discard and shuffle, "
                               f"not by set", field.span, hint="draw c from D, discard c from D, "
                                                               "shuffle D")
        if field.name in DECK_FIELDS:
            return DECK_FIELDS[field.name]
        if field.name in DECK_GROUPS:
            return Type("cards", self.deck_cards(subject))
        self.error("E203", f"a deck has no field '{field.name}'", field.span,
                   hint=did_you_mean(field.name, [*DECK_FIELDS, *DECK_GROUPS])
                   or "a deck's fields are left, discards and hand")
        return Type("any")

    def deck_cards(self, deck: Type) -> str | None:
        """The name of the enumeration a deck's cards are values of."""
        sym = self.lookup(deck.name or "")
        if sym is None or sym.kind != "deck":
            return None
        return cast(nodes.DeckDecl, sym.decl).cards_of.name

    # ---- statements -----------------------------------------------------------------------------
    def deck_of(self, e: nodes.Expr, scope: Scope, what: str) -> Type:
        t = self.expr(e, scope)
        if t.kind not in ("deck", "any"):
            self.error("E302", f"{what} needs a deck or a bag, not {t}", e.span,
                       hint="a deck per game by its name (events), one per side from its side "
                            "(s.tactics)")
        self.require_fixed(t, e.span, "a deck")
        return t

    def deck_stmt(self, stmt: nodes.DeckStmt, scope: Scope) -> None:
        match stmt:
            case nodes.Draw(name=name, deck=deck, to=to):
                t = self.deck_of(deck, scope, "'draw'")
                if to is not None and to.name != "hand":
                    self.error("E201", f"a card is drawn to the hand, not to '{to.name}'",
                               to.span, hint=f"draw {name.name} from ... to hand")
                if name.name in scope.locals:
                    self.error("E202", f"'{name.name}' is already a name here", name.span,
                               related=[Related(scope.locals[name.name][1], "first here")],
                               hint="the card drawn needs a name of its own")
                cards = self.deck_cards(t) if t.kind == "deck" else None
                scope.locals[name.name] = (Type("enum", cards) if cards else Type("any"),
                                           name.span)
            case nodes.Discard(card=card, deck=deck):
                t = self.deck_of(deck, scope, "'discard'")
                cards = self.deck_cards(t) if t.kind == "deck" else None
                expected = Type("enum", cards) if cards else Type("any")
                found = self.member(card, expected, scope) or self.expr(card, scope)
                self.expect(expected, found, card.span, "the card discarded")
            case nodes.Shuffle(deck=deck):
                self.deck_of(deck, scope, "'shuffle'")
