"""The error a rule raises while running, carrying its diagnostic."""

from __future__ import annotations


class RulesError(Exception):
    """A rule failed while running (no table row matched, division by zero, ...)."""

    def __init__(self, diagnostic) -> None:
        super().__init__(diagnostic.message)
        self.diagnostic = diagnostic
