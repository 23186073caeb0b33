"""Setting up in a game: `deploy` puts a side's fighters in a zone, `place` puts pieces
(markers, walls) on the board, at a point or where a side chooses in a zone, and `bring f back
into ZONE` puts a fighter out of play back in a zone."""

from __future__ import annotations

import math
from itertools import repeat
from typing import TYPE_CHECKING

from warband.diagnostics import diag
from warband.game import terrain
from warband.game.board import Board, Piece, Zone
from warband.game.formation import bases
from warband.game.gamelog import point
from warband.game.pieces import placed
from warband.lang import nodes
from warband.lang.ruleset import constant
from warband.run.evaluate import RulesError
from warband.run.places import places
from warband.run.world import FIGHTER_REFS, Ref, World

if TYPE_CHECKING:
    from warband.game.engine import Game


class Placement:
    """A game's set-up, on its board; where things go is the players' choice (players.py)."""

    def __init__(self, game: Game, board: Board) -> None:
        self.game = game
        self.board = board

    def deploy(self, stmt: nodes.Deploy, side: Ref, zone_name: str, world: World) -> World:
        """The side's fighters in play, set up one by one in the zone, apart from the others."""
        game = self.game
        zone = self.board.zones[zone_name]
        taken = [f.position for f in world.fighters if f.position is not None and not f.removed]
        if game.formation is not None:   # units of models with places: each model's base
            taken = bases(world)
        board = self.board

        def fits(c) -> bool:
            return not board.blocked(c) and not board.points_at(c) and \
                apart_from(board, c, taken)
        for i, f in enumerate(world.fighters):
            if f.side != side.index or f.removed:
                continue
            spots = game.players.spots(board.cells(zone), fits)
            if not spots:
                raise RulesError(diag("E507", f"no room left in zone '{zone_name}' for "
                                              f"{f.name}", stmt.span,
                                      hint="make the zone larger or the force smaller"))
            spot = game.players.place_spot(
                side.index, spots, world,
                lambda c: game.value(world.place(FIGHTER_REFS[i], c), side.index))
            if game.formation is not None and "#places" in f.values:
                world = self.set_out(stmt, i, spot, spots, taken, zone_name, world)
                continue
            world = world.place(FIGHTER_REFS[i], spot)
            taken.append(spot)
        game.state.log.event("deploy", game.state.round, side=world.sides[side.index].name, zone=zone_name)
        return world

    def bring_back(self, stmt: nodes.BringBack, ref: Ref, zone_name: str,
                   world: World) -> World:
        """Back into play: a fighter out of play (a casualty, or withdrawn) set up again in the
        zone, where its side's player puts it (as `deploy` sets up each fighter), apart from
        the fighters in play; its values are as they were when it went out."""
        game = self.game
        f = world.fighters[ref.index]
        side_name = world.sides[f.side].name
        if not f.removed:
            raise RulesError(diag("E508", f"{f.name} ({side_name}) is in play: only a fighter "
                                          "out of play (a casualty, or withdrawn) can be "
                                          "brought back", stmt.fighter.span,
                                  hint="bring back one of a side's casualties: for each f in "
                                       "s.casualties { ... }, or ask first: if f.removed "
                                       "{ ... }"))
        zone = self.board.zones[zone_name]
        board = self.board
        taken = [g.position for g in world.fighters if g.position is not None and not g.removed]
        if game.formation is not None:   # units of models with places: each model's base
            taken = bases(world)

        def fits(c) -> bool:
            return not board.blocked(c) and not board.points_at(c) and \
                apart_from(board, c, taken)
        spots = game.players.spots(board.cells(zone), fits)
        if not spots:
            raise RulesError(diag("E507", f"no room left in zone '{zone_name}' to bring "
                                          f"{f.name} back", stmt.span,
                                  hint="make the zone larger, or bring it back elsewhere"))
        spot = game.players.place_spot(f.side, spots, world,
                                       lambda c: game.value(world.returned(ref, c), f.side))
        if game.formation is not None and "#places" in f.values:
            world = world.returned(ref, f.position)
            world = self.set_out(stmt, ref.index, spot, spots, taken, zone_name, world)
        else:
            world = world.returned(ref, spot)
        log = game.state.log
        log.told_out = log.told_out - {(f.name, side_name)}   # (out, and back before told)
        log.event("return", game.state.round, fighter=f.name, side=side_name, zone=zone_name,
                  at=point(world.fighters[ref.index].position))   # (a unit: where it fits)
        return world

    def set_out(self, stmt, index: int, spot, spots: list, taken: list, zone_name: str,
                world: World) -> World:
        """Units of models with places: the unit's leader at `spot` (its player's choice) and
        its other models round it in the zone (game/formation.py); where they do not fit, the
        free spot nearest it where they do; `taken` gains their bases."""
        game, board = self.game, self.board
        formation = game.formation
        assert formation is not None
        zone = board.zones[zone_name]
        f = world.fighters[index]

        def room(c) -> bool:
            return board.in_zone(c, zone) and not board.points_at(c)
        for at in sorted(spots, key=lambda s: (s != spot, math.dist(s, spot)))[:_TRIED]:
            done = formation.set_out(world.place(FIGHTER_REFS[index], at), index, taken, room)
            if done is not None:
                taken.extend(places(done.fighters[index]))
                return done
        raise RulesError(diag("E507", f"no room left in zone '{zone_name}' for the "
                                      f"{f.values['#models']} models of {f.name}", stmt.span,
                              hint="make the zone larger, the force smaller, or the unit's "
                                   "coherency wider"))

    def place(self, stmt: nodes.Place, at, to, count, zone_name, apart, by,
              world: World) -> World:
        """`place`: a piece at a point (a wall from `at` to `to`), or `count` pieces where the
        side `by` (else the first side) puts them, in a zone, `apart` from each other. The
        World after it holds each new piece's state (pieces.py), in the board's order."""
        game = self.game
        kind = stmt.kind.name
        radius = 0.0 if self.board.squares else 0.5
        if getattr(stmt, "area", None) is not None:   # terrain with extent
            return self.place_area(stmt, world)
        if at is not None:
            self.board.add(Piece(kind, at, to, radius))
            if to is not None:   # a wall: where it runs
                game.state.log.event("place", game.state.round, marker=kind, at=point(at),
                               to=point(to))
            else:
                game.state.log.event("place", game.state.round, marker=kind, at=point(at))
            world = placed(game.ruleset, world, kind, [at], wall=to is not None)
            game.state.log.pieces(world)   # (the new piece as it starts: its changes are told)
            return world
        zone = self.board.zones[zone_name] if zone_name is not None else Zone("everywhere", ())
        apart = apart if apart is not None else 0
        by = by.index if by is not None else 0
        fighters = {f.position for f in world.fighters if f.position is not None}
        if game.formation is not None:   # units of models with places: each model's base
            fighters = set(bases(world))
        board = self.board
        spots_taken: list = []

        def fits(c) -> bool:
            return c not in fighters and not board.blocked(c) and not board.points_at(c) and \
                all(gap(board, c, p.at) >= apart for p in board.pieces
                    if p.kind == kind and p.to is None)
        for _ in range(count):
            spots = game.players.spots(board.cells(zone), fits)
            if not spots:
                raise RulesError(diag("E507", f"no room left to place another {kind}",
                                      stmt.span, hint="place fewer, or closer together"))
            spot = game.players.place_spot(
                by, spots, world, lambda c: self.worth_with(Piece(kind, c, None, radius),
                                                            world, spots_taken, by))
            self.board.add(Piece(kind, spot, None, radius))
            spots_taken.append(spot)
            if game.state.log.record:
                game.state.log.event("place", game.state.round, marker=kind, at=point(spot),
                               by=world.sides[by].name)
        world = placed(game.ruleset, world, kind, spots_taken)
        game.state.log.pieces(world)   # (the new pieces as they start: their changes are told)
        return world


    def worth_with(self, piece: Piece, world: World, taken: list, side: int) -> float:
        """A side's worth with one more piece on the board (and in the World, after those
        placed so far by the same statement, `taken`): where a player that weighs sets it."""
        board = self.board
        saved = board.holding(list(board.pieces))   # (the piece for a moment: put back after)
        try:
            board.add(piece)
            return self.game.value(placed(self.game.ruleset, world, piece.kind,
                                          [*taken, piece.at]), side)
        finally:
            board.release(saved)

    def place_area(self, stmt: nodes.Place, world: World) -> World:
        """`place KIND area ...`: a piece that is an area (game/terrain.py), of numbers the
        checker has shown are written out (E336)."""
        game, board = self.game, self.board
        kind = stmt.kind.name
        if board.squares:
            raise RulesError(diag("E336", f"the {kind} is placed as an area, on a board of "
                                          "squares", stmt.span,
                                  hint="areas lie on a board in inches: place it at a square "
                                       "(place KIND at (x, y)), once for each square"))

        def at(p: nodes.Point) -> tuple:
            return (_number(p.x), _number(p.y))
        if stmt.area == "circle":
            assert stmt.radius is not None and stmt.at is not None
            centre = at(stmt.at)
            piece = Piece(kind, centre, None, _number(stmt.radius), "circle")
            told = {"at": point(centre), "radius": _number(stmt.radius)}
        else:
            assert stmt.at is not None
            if stmt.area == "rectangle":
                assert stmt.to is not None
                outline = terrain.rectangle(at(stmt.at), at(stmt.to))
            else:
                outline = tuple(at(p) for p in (stmt.at, *stmt.corners))
            piece = Piece(kind, terrain.middle(outline), None, 0.0, "polygon", outline)
            told = {"at": point(piece.at), "area": [point(c) for c in outline]}
        board.add(piece)
        game.state.log.event("place", game.state.round, marker=kind, **told)
        world = placed(game.ruleset, world, kind, [piece.at])
        game.state.log.pieces(world)
        return world


_TRIED = 40   # units of models with places: the spots nearest its player's choice a unit tries


def _number(e) -> float:
    """A number the rules write out (the checker has made sure: E336)."""
    value = constant(e)
    return int(value) if value == int(value) else float(value)   # type: ignore[arg-type]


def apart_from(board: Board, spot, taken: list) -> bool:
    """Whether a fighter may be set up at `spot` with the fighters at `taken`: not on one of
    their squares, or an inch or more from each (in C, by map: every try of a deployment asks)."""
    if board.squares:
        return spot not in taken
    return not taken or min(map(math.dist, repeat(spot), taken)) >= 1.0


def gap(board: Board, a, b) -> float:
    """How far apart two points are: squares (diagonals count one) or inches."""
    if board.squares:
        return max(abs(a[0] - b[0]), abs(a[1] - b[1]))
    return ((a[0] - b[0]) ** 2 + (a[1] - b[1]) ** 2) ** 0.5
