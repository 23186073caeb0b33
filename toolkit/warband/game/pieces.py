"""Pieces as values: each piece placed on the board is a value the rules can name, ask about
and change.

A piece's place on the board is the board's (board.py, `Board.pieces`, in the order they were
placed); what the rules change of it (the side holding it, the flags and counters declared on
its kind) is the World's (`World.pieces`, the same order), so that a look-ahead, an exact run or
a replay sees it as it sees a fighter's counters. The rules name a piece by a Ref("piece", i):
`pieces(KIND)` gives every piece of a kind, `distance(f, p)` and `contact(f, p)` measure to one.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from warband.game.board import CONTACT, Board
from warband.run.world import PIECE_REFS, World, new_pieces

if TYPE_CHECKING:
    from warband.game.gamelog import GameLog
    from warband.lang.ruleset import Ruleset


def placed(ruleset: Ruleset, world: World, kind: str, count: int) -> World:
    """The World with `count` new pieces of a kind, at their flags' and counters' start."""
    return world.with_pieces(world.pieces + new_pieces(ruleset, kind, count))


def of_kind(world: World, kind: str) -> tuple:
    """Every piece of a kind, in the order they were placed (a Ref each)."""
    return tuple(PIECE_REFS[i] for i, p in enumerate(world.pieces) if p.kind == kind)


def gap(board: Board, at, ref) -> float:
    """From a fighter standing at `at` to a piece: king's steps on squares; in inches from the
    edge of its base to the piece's nearest edge (a wall: its nearest point), never below 0."""
    piece = board.pieces[ref[1]]
    return board.to_piece(at, piece)


def touching(board: Board, at, ref) -> bool:
    """Whether a fighter standing at `at` is in contact with a piece: on it or next to it (on
    squares, on its square or a neighbouring one; in inches, its base touching or over it)."""
    piece = board.pieces[ref[1]]
    if board.squares:
        return board.to_piece(at, piece) <= 1
    return board.to_piece(at, piece) <= CONTACT


def log_changes(log: GameLog, round_: int, before: tuple, world) -> tuple:
    """What changed of the pieces since `before` (a World's pieces, as last logged), as the
    game's log tells it: a piece seized by a side, a flag or counter of a piece changed. The
    pieces now, to log the next changes from."""
    after = world.pieces
    if before is after:
        return after
    sides = world.sides
    counts: dict[str, int] = {}
    for i, p1 in enumerate(after):
        counts[p1.kind] = number = counts.get(p1.kind, 0) + 1
        p0 = before[i] if i < len(before) else None
        if p0 is p1 or p0 is None:   # (a piece placed just now is logged as placed)
            continue
        name = f"{p1.kind} {number}"
        if p0.holder != p1.holder:
            if p1.holder is None:
                log.event("released", round_, piece=name)
            else:
                log.event("seized", round_, piece=name, side=sides[p1.holder].name)
        for field, value in p1.values.items():
            if p0.values.get(field) != value:
                log.event("piece", round_, piece=name, field=field,
                          old=_plain(p0.values.get(field)), new=_plain(value))
    return after


def _plain(value):
    """A flag or counter as the log's JSON holds it (a whole Fraction as an int)."""
    if hasattr(value, "denominator") and value.denominator == 1 and type(value) is not bool:
        return int(value)
    return value


__all__ = ["placed", "of_kind", "gap", "touching", "log_changes"]
