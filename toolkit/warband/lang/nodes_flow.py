"""The abstract syntax of the rules language, part four: decks and bags of cards and tokens, and
the flow of a turn (bounded `while`, `break`, `continue`, `end turn`), and fighters brought back
into play (lang/nodes.py gathers all the parts).
"""

from __future__ import annotations

from warband.diagnostics import Span
from warband.lang.nodes_core import Block, Expr, Ident, node


# ---- decks and bags (run/decks.py) ------------------------------------------------------------

@node
class DeckCard:
    """One line of a deck: `2 Ambush "..."`, a card (a value of the deck's enum) and how many."""
    count: int
    name: Ident
    doc: str | None
    span: Span


@node
class DeckDecl:
    """`deck NAME of ENUM per side|game { 2 Ambush  Storm  reshuffle when empty }` (a `bag` of
    tokens is the same): piles of the enum's values, drawn without replacement."""
    kind: str                 # deck | bag
    name: Ident
    cards_of: Ident           # the enum whose values the cards are
    per: Ident                # side | game
    doc: str | None
    cards: tuple[DeckCard, ...]
    reshuffle: Ident | None   # `reshuffle when empty`: the word after `when`
    span: Span


@node
class Draw:
    """`draw NAME from DECK [to hand]`: a card drawn at random among those left; to the deck's
    discards, or with `to hand` to the hand."""
    name: Ident
    deck: Expr
    to: Ident | None          # `to hand`
    span: Span


@node
class Discard:
    """`discard CARD from DECK`: one such card leaves the hand for the discards."""
    card: Expr
    deck: Expr
    span: Span


@node
class Shuffle:
    """`shuffle DECK`: the discards go back into the draw pile."""
    deck: Expr
    span: Span


DeckStmt = Draw | Discard | Shuffle


# ---- turn flow (run/flow.py) --------------------------------------------------------------------

@node
class While:
    """`while COND at most N times { ... }`: the body again and again while the condition holds,
    N times at most (N worked out once, before the first time, as `repeat`'s)."""
    condition: Expr
    times: Expr
    body: Block
    span: Span


@node
class Break:
    """`break`: out of the innermost loop, to what follows it."""
    span: Span


@node
class Continue:
    """`continue`: on to the innermost loop's next turn."""
    span: Span


@node
class EndTurn:
    """`end turn [of SIDE]`: the side's turn is over (its `turn_over` is true): `activate` gives
    its fighters no action until the next round (or until a rule sets `turn_over` back). Without
    `of`, the side of the fighter whose action runs."""
    side: Expr | None
    span: Span


FlowStmt = While | Break | Continue | EndTurn
