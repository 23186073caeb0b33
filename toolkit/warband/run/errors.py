"""The error a rule raises while running, carrying its diagnostic."""

from __future__ import annotations


class RulesError(Exception):
    """A rule failed while running (no table row matched, division by zero, ...)."""

    def __init__(self, diagnostic) -> None:
        super().__init__(diagnostic.message)
        self.diagnostic = diagnostic


class NeedsTheGame(Exception):
    """An exact look-ahead inside a game met a statement only the game can play (a move, a
    placing): the odds engine cannot follow it, so the player plays the future on instead
    (game/lookahead.py). Outside a game exact odds take a move as made where the rules need."""
