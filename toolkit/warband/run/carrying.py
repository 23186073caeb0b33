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


def put_at(stmt, piece: Ref, at, world, interp, recorder=None):
    """`put p at POSITION`: the world with `piece` lying at a position. A piece someone carries
    is not taken from its carrier (E510: `put down p` first says who let it go); a piece that
    shapes the board stays where the board has it (E510), and so does one carried off. The
    position must be on the board and free of impassable pieces (E510); a position that is
    none (a fighter out of play, a piece carried off) is E510 too. A game's log tells the move
    as the piece placed anew ("beacon 2 placed at (12, 9)")."""
    p = world.pieces[piece.index]
    label = _label(world, piece.index)
    if p.carrier is not None:
        gone = world.fighters[p.carrier].withdrawn
        raise RulesError(diag("E510", f"{label} has left the table with "
                                      f"{world.fighters[p.carrier].name}" if gone else
                              f"{label} is carried by {world.fighters[p.carrier].name}, so it "
                              f"cannot be put anywhere else", stmt.piece.span,
                              hint="ask first: if not p.carried and not p.carried_off { ... }, "
                                   "or put it down first: put down p"))
    if p.fixed:
        raise RulesError(diag("E510", f"{label} cannot be moved: it shapes the board (a wall, "
                                      f"or a marker that blocks movement or sight or does "
                                      f"something when entered)", stmt.piece.span,
                              hint="move a marker declared with no properties and no "
                                   "'when entered'"))
    if at is None:
        raise RulesError(diag("E510", f"there is no place to put {label}: that position is "
                                      f"off the board", stmt.where.span,
                              hint="ask first: if not f.removed { ... }"))
    game = interp.game
    if game is not None and game.blocked(at):
        raise RulesError(diag("E510", f"{label} cannot lie at ({_number(at[0])}, "
                                      f"{_number(at[1])}): nothing may stand there", stmt.where.span,
                              hint="put it where a fighter stands, or where a piece lies"))
    if p.at == at:
        return world
    if recorder is not None and recorder.record:
        recorder.pieces(world)
        if game is not None:
            game.note_moved(label, at)
    pieces = list(world.pieces)
    pieces[piece.index] = PieceState(p.kind, p.values, p.holder, at, None, p.fixed)
    world = world.with_pieces(tuple(pieces))
    if recorder is not None and recorder.record:
        recorder.pieces(world)
    return world


def _number(x) -> str:
    return str(int(x)) if float(x).is_integer() else f"{float(x):.2f}".rstrip("0")


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
