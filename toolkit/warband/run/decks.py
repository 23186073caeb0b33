"""Decks and bags: piles of cards (or tokens) drawn without replacement.

A deck is declared with the cards it holds and how many of each (`deck events of Event per game
{ 2 Ambush  Storm }`); a card is a value of an enumeration, so tables are keyed by it and rules
compare it (`c == Ambush`). Each deck is three piles, each a count of every card: the draw pile,
the discards and the hand. A deck kept per side is in that side's values, one kept per game in
the first side's (so a deck is part of the World, of its key and of every copy of it, with no
field of its own), under the key "#deck NAME" that no declared name can take.

A draw is a chance among the cards left, each as likely as its count: exact odds follow every
card drawn with its probability (a weighted distribution), sampled play draws one from the
interpreter's dice stream (Dist.sample), the generated code calling the same function
(`draw_sampled`) so that both draw alike. A drawn card goes to the discards, or to the hand (`to
hand`); `discard c from D` moves one from the hand to the discards; `shuffle D` puts the
discards back into the draw pile, and a deck declared `reshuffle when empty` does so itself when
a draw finds the pile empty. A draw from an empty pile, and a discard of a card the hand does
not hold, are E514 (the rules ask first: `if D.left >= 1`, `if any(c == X for c in D.hand)`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

from warband.diagnostics import diag
from warband.lang.unparse import expr_text
from warband.lang.per_ruleset import kept
from warband.limits import MAX_BRANCHES
from warband.run.dice import Dist
from warband.run.errors import RulesError

if TYPE_CHECKING:
    from warband.lang import nodes


class Pile(NamedTuple):
    """A deck as a value: its kind ("deck", as a Ref's kind says what it is), the side whose it
    is (0 for a deck per game, kept with the first side) and the deck's name."""

    kind: str
    index: int   # type: ignore[assignment]  # (shadows tuple.index, as Ref's does)
    deck: str

    def __repr__(self) -> str:
        return f"deck {self.deck}#{self.index}"


def key(deck: str) -> str:
    return "#deck " + deck


def cards(ruleset, deck: str) -> tuple[str, ...]:
    """The cards of a deck, in the order it lists them."""
    return kept(ruleset, "deck cards " + deck,
                lambda: tuple(c.name.name for c in ruleset.decks[deck].cards))


def handle(ruleset, deck: str, side: int = 0) -> Pile:
    """The value naming a deck: a deck per game by its name, a side's own from the side."""
    return Pile("deck", side if ruleset.decks[deck].per.name == "side" else 0, deck)


def start_values(ruleset, side: int) -> dict:
    """A side's decks at the start of a game (the decks per game with the first side's): every
    card in the draw pile, none discarded, none in the hand."""
    out = {}
    for name, decl in ruleset.decks.items():
        if decl.per.name == "side" or side == 0:
            counts = tuple(c.count for c in decl.cards)
            nothing = (0,) * len(counts)
            out[key(name)] = (counts, nothing, nothing)
    return out


def piles(world, pile: Pile) -> tuple:
    return world.sides[pile.index].values[key(pile.deck)]


def _with(world, pile: Pile, state: tuple):
    return world.set_side(pile.index, key(pile.deck), state)


# ---- what the rules read ----------------------------------------------------------------------

def field(ruleset, pile: Pile, name: str, world):
    """`D.left`, `D.discards`: how many cards; `D.hand`: the cards held, a group (a card held
    twice is in it twice), in the order the deck lists them."""
    drawn, discards, hand = piles(world, pile)
    if name == "left":
        return sum(drawn)
    if name == "discards":
        return sum(discards)
    return tuple(c for c, n in zip(cards(ruleset, pile.deck), hand) for _ in range(n))


# ---- the statements ---------------------------------------------------------------------------

def shuffled(world, pile: Pile):
    """`shuffle D`: the discards back into the draw pile (the hand keeps its cards)."""
    drawn, discards, hand = piles(world, pile)
    if not any(discards):
        return world
    return _with(world, pile, (tuple(a + b for a, b in zip(drawn, discards)),
                               (0,) * len(drawn), hand))


def to_draw(ruleset, stmt: nodes.Draw, pile: Pile, world):
    """(the world, the distribution of the card drawn): the draw pile, reshuffled first when it
    is empty and the deck says so; an empty one is E514."""
    decl = ruleset.decks[pile.deck]
    drawn = piles(world, pile)[0]
    if not any(drawn) and decl.reshuffle is not None:
        world = shuffled(world, pile)
        drawn = piles(world, pile)[0]
    total = sum(drawn)
    if not total:
        raise RulesError(diag("E514", f"a draw from {decl.kind} '{pile.deck}', whose draw pile "
                                      "is empty", stmt.deck.span,
                              hint=f"ask first: if {_text(stmt.deck)}.left >= 1 {{ ... }}, "
                                   f"shuffle the discards back in (shuffle "
                                   f"{_text(stmt.deck)}), or declare the {decl.kind} "
                                   "with 'reshuffle when empty'"))
    names = cards(ruleset, pile.deck)
    return world, Dist.weighted({c: n for c, n in zip(names, drawn)}, total)


def drawn(ruleset, pile: Pile, card: str, to_hand: bool, world):
    """The world after `card` left the draw pile, for the discards or the hand."""
    pile_counts, discards, hand = piles(world, pile)
    i = cards(ruleset, pile.deck).index(card)
    pile_counts = pile_counts[:i] + (pile_counts[i] - 1,) + pile_counts[i + 1:]
    if to_hand:
        hand = hand[:i] + (hand[i] + 1,) + hand[i + 1:]
    else:
        discards = discards[:i] + (discards[i] + 1,) + discards[i + 1:]
    return _with(world, pile, (pile_counts, discards, hand))


def discarded(ruleset, stmt: nodes.Discard, pile: Pile, card, world):
    """`discard c from D`: one such card from the hand to the discards (E514 when the hand
    holds none)."""
    names = cards(ruleset, pile.deck)
    pile_counts, discards, hand = piles(world, pile)
    i = names.index(card) if card in names else -1
    if i < 0 or not hand[i]:
        decl = ruleset.decks[pile.deck]
        raise RulesError(diag("E514", f"a discard of {card} from the hand of {decl.kind} "
                                      f"'{pile.deck}', which holds none", stmt.card.span,
                              hint=f"ask first: if any(c == {card} for c in "
                                   f"{_text(stmt.deck)}.hand) {{ ... }}"))
    hand = hand[:i] + (hand[i] - 1,) + hand[i + 1:]
    discards = discards[:i] + (discards[i] + 1,) + discards[i + 1:]
    return _with(world, pile, (pile_counts, discards, hand))


def draw_sampled(interp, stmt: nodes.Draw, pile: Pile, world) -> tuple[str, object]:
    """(the card, the world after): one draw of a sampled run, from the dice stream, as the
    interpreter and the generated code both make it."""
    world, dist = to_draw(interp.ruleset, stmt, pile, world)
    card = dist.sample(interp.rng)
    return card, drawn(interp.ruleset, pile, card, stmt.to is not None, world)


def tell(interp, world, pile: Pile, what: str, card=None) -> None:
    """A recorded game's log: a card drawn or discarded, a deck shuffled (`side`: the side
    whose deck it is, None for a deck per game)."""
    recorder = interp.recorder
    if recorder is None or not recorder.record:
        return
    per_side = interp.ruleset.decks[pile.deck].per.name == "side"
    recorder.event("card", recorder.round_now, deck=pile.deck,
                   side=world.sides[pile.index].name if per_side else None, what=what,
                   card=card)


def draw_stmt(interp, stmt: nodes.Draw, env: dict, world, next_):
    """The interpreter's `draw` (continuation-passing): every card that may be drawn, each
    with its chance (exact odds), or one drawn (sampled play)."""
    ruleset, name, to_hand = interp.ruleset, stmt.name.name, stmt.to is not None

    def go(pile, w):
        if not interp.exact_mode:
            card, after = draw_sampled(interp, stmt, pile, w)
            if interp.recorder is not None:
                tell(interp, after, pile, "to hand" if to_hand else "drawn", card)
            return next_({**env, name: card}, after)
        w, dist = to_draw(ruleset, stmt, pile, w)
        interp.drawn += 1
        interp.branches += len(dist)
        limit = interp.max_branches or MAX_BRANCHES
        if interp.branches > limit:
            raise RulesError(diag("E504", f"exact odds would follow more than {limit:,} steps "
                                          "and outcomes; this draw is one too many",
                                  stmt.span, hint="draw fewer cards, or play it out with "
                                                  "warband simulate"))
        if len(dist) == 1:
            card = dist.only()
            return next_({**env, name: card}, drawn(ruleset, pile, card, to_hand, w))
        # (interp.mix: while a greedy decision weighs an option, each card's expected score)
        return interp.mix((p, next_({**env, name: card}, drawn(ruleset, pile, card, to_hand, w)))
                          for card, p in dist.items())
    return interp.plain(stmt.deck, env, world, go)


def discard_stmt(interp, stmt: nodes.Discard, env: dict, world, next_):
    def go(pile, w):
        def with_card(card, w2):
            after = discarded(interp.ruleset, stmt, pile, card, w2)
            if not interp.exact_mode:
                tell(interp, after, pile, "discarded", card)
            return next_(env, after)
        return interp.plain(stmt.card, env, w, with_card)
    return interp.plain(stmt.deck, env, world, go)


def shuffle_stmt(interp, stmt: nodes.Shuffle, env: dict, world, next_):
    def go(pile, w):
        after = shuffled(w, pile)
        if not interp.exact_mode:
            tell(interp, after, pile, "shuffled")
        return next_(env, after)
    return interp.plain(stmt.deck, env, world, go)


# ---- generated code (run/codegen/stmt.py): the same changes, in direct style (a Draft changes
# a side's values in place, a World by copying: both have set_side) ----------------------------

def discard_generated(interp, stmt: nodes.Discard, pile: Pile, card, world):
    return discarded(interp.ruleset, stmt, pile, card, world)


def _text(e) -> str:
    return expr_text(e)




def shown(ruleset, values: dict) -> dict:
    """A side's values as `warband odds` reports them: each deck as the cards left to draw,
    and the cards discarded and held, by name ("Ambush, Storm"; "-" for none)."""
    if not ruleset.decks:
        return values
    out = {}
    for k, v in values.items():
        if not k.startswith("#deck "):
            out[k] = v
            continue
        name = k[len("#deck "):]
        names = cards(ruleset, name)
        out[f"{name}.left"] = sum(v[0])
        for label, counts in (("discards", v[1]), ("hand", v[2])):
            out[f"{name}.{label}"] = ", ".join(
                c for c, n in zip(names, counts) for _ in range(n)) or "-"
    return out
