"""Pieces as values: each piece placed on the board is a value the rules can name, ask about
and change.

A piece's place on the board is the board's (board.py, `Board.pieces`, in the order they were
placed); what the rules change of it (the side holding it, the flags and counters declared on
its kind) is the World's (`World.pieces`, the same order), so that a look-ahead, an exact run or
a replay sees it as it sees a fighter's counters. The rules name a piece by a Ref("piece", i):
`pieces(KIND)` gives every piece of a kind, `distance(f, p)` and `contact(f, p)` measure to one.
A carried piece (run/carrying.py) is where its carrier stands: a game whose rules carry pieces
(`carries`) measures to where each is now, not where the board put it.
"""

from __future__ import annotations

import dataclasses
import math
from typing import TYPE_CHECKING

from warband.game.board import BASE, CONTACT, Board, Piece
from warband.lang import nodes
from warband.run.world import PIECE_REFS, Ref, World, new_pieces, piece_position

if TYPE_CHECKING:
    from warband.lang.ruleset import Ruleset


def placed(ruleset: Ruleset, world: World, kind: str, places: list, wall: bool = False) -> World:
    """The World with new pieces of a kind, one at each of `places` (a wall: where it
    starts), at their flags' and counters' start."""
    return world.with_pieces(world.pieces + new_pieces(ruleset, kind, places, wall))


def of_kind(world: World, kind: str) -> tuple:
    """Every piece of a kind, in the order they were placed (a Ref each)."""
    return tuple(PIECE_REFS[i] for i, p in enumerate(world.pieces) if p.kind == kind)


def piece_name(world: World, index: int) -> str:
    """A piece as the log names it: its kind and its number among that kind's ("objective 2")."""
    kind = world.pieces[index].kind
    return f"{kind} {sum(1 for p in world.pieces[:index + 1] if p.kind == kind)}"


def labelled(args: dict, world: World) -> dict:
    """An action's arguments as the log names them: a piece by its kind and number (a piece
    parameter, `p: beacon`), the rest as they are (gamelog.option_label names those)."""
    for value in args.values():
        if type(value) is Ref and value.kind == "piece":
            return {k: piece_name(world, v.index) if type(v) is Ref and v.kind == "piece" else v
                    for k, v in args.items()}
    return args


def gap(board: Board, at, ref, world) -> float:
    """From a fighter standing at `at` to a piece where it is now (carried: where its carrier
    stands): king's steps on squares; in inches from the edge of its base to the piece's
    nearest edge (a wall: its nearest point), never below 0. A piece carried off the table is
    nowhere: as far as no piece at all (infinite)."""
    return board.to_piece(at, where_now(board, ref[1], world))


def to_point(board: Board, at, point) -> float:
    """From a fighter at `at` to a position: king's steps on squares; in inches from the edge
    of its base. A position off the board (None) is as far as no piece at all."""
    if point is None:
        return math.inf
    if board.squares:
        return max(abs(at[0] - point[0]), abs(at[1] - point[1]))
    d = math.dist(at, point) - BASE / 2
    return d if d > 0.0 else 0.0


def touching(board: Board, at, ref, world) -> bool:
    """Whether a fighter standing at `at` is in contact with a piece: on it or next to it (on
    squares, on its square or a neighbouring one; in inches, its base touching or over it)."""
    return gap(board, at, ref, world) <= (1 if board.squares else CONTACT)


def destinations(board: Board, world) -> list:
    """Inches: the routes onto pieces a fighter may stand on (Board.destinations), each where
    it is now; a piece someone carries is no destination."""
    out = []
    for index, piece in enumerate(board.pieces):
        if piece.to is None and not board.has(piece.kind, "impassable") and \
                world.pieces[index].carrier is None:
            now = where_now(board, index, world)
            out.append((now, now.at, 0.0))
    return out


def nearest(board: Board, at, kind: str, world) -> float:
    """From a fighter at `at` to the nearest piece of a kind where each is now (a game whose
    rules carry pieces asks this instead of the board's own, which knows where they were put)."""
    best = math.inf
    for i, p in enumerate(world.pieces):
        if p.kind == kind:
            d = board.to_piece(at, where_now(board, i, world))
            if d < best:
                best = d
    return best


def where_now(board: Board, index: int, world) -> Piece:
    """The board's piece, where it is now."""
    piece = board.pieces[index]
    if world.pieces[index].carrier is None and world.pieces[index].at == piece.at:
        return piece   # (where it was put: the board's own)
    where = piece_position(world, index)
    return Piece(piece.kind, where if where is not None else _NOWHERE, None, piece.radius)


_NOWHERE = (math.inf, math.inf)   # a piece carried off the table


def carries(ruleset: Ruleset) -> bool:
    """Whether any rule of the ruleset (or of its scenario) picks up, puts down or moves a
    piece: only then can a piece be anywhere but where it was placed."""
    found: list = []

    def walk(x) -> None:
        if found:
            return
        if isinstance(x, (nodes.Carry, nodes.PutDown, nodes.PutAt)):
            found.append(x)
        elif isinstance(x, tuple):
            for y in x:
                walk(y)
        elif dataclasses.is_dataclass(x) and not isinstance(x, type):
            for f in dataclasses.fields(x):
                walk(getattr(x, f.name))
    for decl in (*ruleset.procedures.values(), *ruleset.markers.values(), ruleset.scenario):
        walk(decl)
    return bool(found)


__all__ = ["placed", "labelled", "of_kind", "gap", "touching", "nearest", "carries", "piece_name"]
