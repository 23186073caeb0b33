"""Syntax nodes of the board's newer statements, kept apart from lang/nodes.py (already large):
moving a piece (`put p at POSITION`) and a player's choice of a spot (`choose s within D of AT
by f`)."""

from __future__ import annotations

from warband.diagnostics import Span
from warband.lang.nodes import Expr, Ident, node


@node
class PutAt:
    """put PIECE at POSITION: the piece lies there now (not one anyone carries)"""
    piece: Expr
    where: Expr
    span: Span


@node
class ChooseSpot:
    """choose NAME within D of AT by WHO ["doc"]: a player picks a position on the board within
    D of AT (a fighter, a piece or a position); the name is that position for what follows"""
    name: Ident
    decider: Expr
    reach: Expr
    at: Expr
    doc: str | None
    span: Span


__all__ = ["PutAt", "ChooseSpot"]
