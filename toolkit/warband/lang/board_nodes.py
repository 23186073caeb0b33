"""Syntax nodes of the board's newer statements, kept apart from lang/nodes.py (already large):
moving a piece (`put p at POSITION`) and a player's choice of a spot (`choose spot s by f
within D of AT`)."""

from __future__ import annotations

from warband.diagnostics import Span
from warband.lang.nodes import Expr, Ident, node


@node
class PutAt:
    """put PIECE at POSITION: the piece lies there now (not one anyone carries)"""
    piece: Expr
    where: Expr
    span: Span


__all__ = ["PutAt"]
