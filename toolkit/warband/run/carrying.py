"""Carrying pieces: `pick up p by f` and `put down p`, as the interpreter and generated code
both run them.

A carried piece has no place of its own: it is where its carrier stands (World.pieces holds
the carrier, run/world.py), so it can never be left behind by a move. A carrier taken out of
play drops what it carries where it stood; one that leaves the table (`withdraw`) takes it
along (`p.carried_off`). Only a piece that changes nothing on the board may be carried: not a
wall, and not a kind that blocks movement or sight or does something when entered, whose
places the board keeps (game/board.py).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from warband.diagnostics import diag
from warband.run.evaluate import RulesError
from warband.run.world import PieceState, Ref, piece_position

if TYPE_CHECKING:
    from warband.lang import nodes


def pick_up(stmt: nodes.Carry, piece: Ref, fighter: Ref, world, recorder=None):
    """The world with `fighter` carrying `piece` (taken from whoever carried it before). A
    game's log (`recorder`, while recorded) tells it as it happens."""
    p = world.pieces[piece.index]
    f = world.fighters[fighter.index]
    label = _label(world, piece.index)
    if f.removed:
        raise RulesError(diag("E510", f"{f.name} is not in play, so cannot pick up {label}",
                              stmt.fighter.span,
                              hint="ask first: if not f.removed { pick up p by f }"))
    if p.carrier is not None and world.fighters[p.carrier].withdrawn:
        raise RulesError(diag("E510", f"{label} has left the table with "
                                      f"{world.fighters[p.carrier].name}", stmt.piece.span,
                              hint="ask first: if not p.carried_off { ... }"))
    if p.fixed:
        raise RulesError(diag("E510", f"{label} cannot be carried: it shapes the board "
                                      f"(a wall, or a marker that blocks movement or sight or "
                                      f"does something when entered)", stmt.piece.span,
                              hint="carry a marker declared with no properties and no "
                                   "'when entered'"))
    if p.carrier == fighter.index:
        return world
    return _changed(world, piece.index, PieceState(p.kind, p.values, p.holder, p.at,
                                                   fighter.index, p.fixed), recorder)


def put_down(stmt: nodes.PutDown, piece: Ref, world, recorder=None):
    """The world with `piece` lying where its carrier stands (told by a recorded game's log)."""
    p = world.pieces[piece.index]
    label = _label(world, piece.index)
    if p.carrier is None:
        raise RulesError(diag("E510", f"nobody carries {label}, so it cannot be put down",
                              stmt.piece.span, hint="ask first: if p.carried { put down p }"))
    at = piece_position(world, piece.index)
    if at is None:
        raise RulesError(diag("E510", f"{label} has left the table with "
                                      f"{world.fighters[p.carrier].name}", stmt.piece.span,
                              hint="ask first: if p.carried { put down p }"))
    return _changed(world, piece.index, PieceState(p.kind, p.values, p.holder, at, None,
                                                   p.fixed), recorder)


def _changed(world, index: int, state: PieceState, recorder):
    if recorder is not None and recorder.record:   # what changed before, then this
        recorder.pieces(world)
    pieces = list(world.pieces)
    pieces[index] = state
    world = world.with_pieces(tuple(pieces))
    if recorder is not None and recorder.record:
        recorder.pieces(world)
    return world


def _label(world, index: int) -> str:
    """A piece as messages and the log name it: its kind and number ("treasure 1")."""
    kind = world.pieces[index].kind
    return f"{kind} {sum(1 for p in world.pieces[:index + 1] if p.kind == kind)}"
