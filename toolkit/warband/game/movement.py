"""How fighters move in a game: `travel` on a board of squares or in inches.

A moving fighter's player picks where it goes: on squares, any reachable square; in inches, one
of a few ways (stay, towards an enemy into contact, onto a piece, straight away from the nearest
enemy), each measured out round the walls only once it is chosen. A fighter that ends its move
on a marker with a `when entered by` block runs it.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Callable

from warband.game.board import BASE, Board
from warband.game.gamelog import number, position
from warband.lang import nodes
from warband.run.codegen.runtime import Draft
from warband.run.world import Ref, World

if TYPE_CHECKING:
    from warband.game.engine import Game

_AWAY = object()   # the target of the route away from the enemy, until it is taken


class Movement:
    """A game's moves, on its board."""

    def __init__(self, game: Game, board: Board) -> None:
        self.game = game
        self.board = board
        self._hooks: dict[str, nodes.ProcedureDecl] = {}   # marker -> its `when entered` block

    def travel(self, ref: Ref, reach, away: bool, world: World) -> World:
        """The fighter moves up to `reach` (straight away from the enemy when `away`)."""
        fighter = world.fighters[ref.index]
        start = fighter.position
        if start is None or fighter.removed:
            return world
        game = self.game
        reach = float(reach)
        index, side = ref.index, fighter.side
        enemies = [(g.name, g.position) for g in world.fighters
                   if not g.removed and g.side != side and g.position is not None]
        board = self.board

        def others():
            return [g.position for i, g in enumerate(world.fighters)
                    if not g.removed and i != index and g.position is not None]
        if board.squares:
            spots = board.reachable(start, int(reach), set(others()))
            if away:
                if not enemies:
                    return world
                spot = max(spots, key=lambda s: min(board.distance(s, e) for _, e in enemies))
            else:
                spot = spots[game.players.pick(
                    side, "destination", lambda: [position(s) for s in spots], world,
                    lambda i: self.spot_value(ref, spots[i], enemies, world),
                    count=len(spots))]
        else:
            # the ways a fighter may go: nowhere, towards an enemy (into contact), onto a
            # piece, straight away from the nearest enemy; only the chosen way is made and
            # measured out (a random player's move needs only how many ways there are)
            pieces = board.destinations()
            count = 1 + len(enemies) + len(pieces) + (1 if enemies else 0)
            if away:
                if not enemies:
                    return world
                spot = self.break_off(world.fighters[ref.index].name, start, enemies, reach,
                                      others())
            else:
                def routes():
                    return [_route(i, enemies, pieces) for i in range(count)]

                def end(i):
                    return self.route_end(_route(i, enemies, pieces), start, enemies, reach,
                                          others)
                chosen = game.players.pick(
                    side, "destination", lambda: [_route_label(r[0]) for r in routes()], world,
                    lambda i: self.spot_value(ref, end(i), enemies, world), count=count)
                spot = self.route_end(_route(chosen, enemies, pieces), start, enemies, reach,
                                      others)
        log = game.log
        if spot != start and log.record:
            log.event("travel", game.round, fighter=fighter.name, start=position(start),
                      to=position(spot))
        if spot != start:
            world = world.place(ref, spot)
        for piece in board.pieces_at(spot) if board.entered else ():
            marker = game.ruleset.markers.get(piece.kind)
            if marker is not None and marker.entered is not None:
                log.event("enter", game.round, fighter=fighter.name, marker=piece.kind)
                if type(world) is Draft:
                    world = world.freeze()
                _, world = game.interp.run_nested(self.entered(marker),
                                                  {marker.entered_by.name: ref}, world)
        return world

    def break_off(self, name: str, start, enemies: list, reach: float, others: list):
        """Inches, `travel f away D`: the whole distance by any free straight route that ends
        out of contact with every enemy, straight away from the nearest enemy if it can, else
        the free direction nearest to that; where there is none, the fighter stays and the log
        says so (a `stuck` event)."""
        game, board = self.game, self.board
        straight_away = _away(start, enemies, 1.0)
        base = math.atan2(straight_away[1] - start[1], straight_away[0] - start[0])
        for turn in _BREAK_OFF_TURNS:
            angle = base + turn
            target = (start[0] + math.cos(angle) * reach, start[1] + math.sin(angle) * reach)
            end = board.straight(start, target, reach, 0.0, others)
            if end is None or math.dist(start, end) < reach - 0.02:
                continue   # an edge, a piece or another base is in the way
            if any(board.contact(end, e) for _, e in enemies):
                continue
            return end
        if game.log.record:
            game.log.event("stuck", game.round, fighter=name,
                           why=f"no free route {number(reach)}\" away from the enemy")
        return start

    def route_end(self, route: tuple, start, enemies: list, reach: float,
                  others: Callable[[], list]):
        """Where a route ends: straight away, else round any walls in the way. `others`
        gives the other bases in play, asked only for a move."""
        _, target, stop = route
        if target is None:
            return start
        if target is _AWAY:
            target = _away(start, enemies, reach)
            return self.board.straight(start, target, reach, stop, others()) or start
        return self.board.towards(start, target, reach, stop, others()) or start

    def entered(self, marker) -> nodes.ProcedureDecl:
        """A marker's `when entered by f { ... }` as a procedure of one parameter."""
        found = self._hooks.get(marker.name.name)
        if found is None:
            found = self._hooks[marker.name.name] = nodes.ProcedureDecl(
                "phase", marker.name, (nodes.Param(marker.entered_by, None, None, marker.span),),
                None, None, None, marker.entered, marker.span)
        return found

    def spot_value(self, ref: Ref, spot, enemies: list, world: World) -> float:
        """What ending a move at `spot` is worth to the mover's side, for a greedy player."""
        game = self.game
        after = world.place(ref, spot)
        side = world.fighters[ref.index].side
        for piece in self.board.pieces_at(spot):
            marker = game.ruleset.markers.get(piece.kind)
            if marker is not None and marker.entered is not None:
                return game.look_ahead.value_after(("entered", piece.kind),
                                                   self.entered(marker),
                                                   {marker.entered_by.name: ref}, side, after)
        closeness = -min((self.board.distance(spot, e) for _, e in enemies), default=0)
        return float(game.value(after, side)) + closeness / 1000


# the directions a fighter breaking off tries, as turns from straight away from the nearest
# enemy: that first, then ever further round on either side, every 15 degrees
_BREAK_OFF_TURNS = tuple(math.radians(sign * step * 15) for step in range(13)
                         for sign in ((1,) if step in (0, 12) else (1, -1)))


def _away(start, enemies: list, reach: float) -> tuple[float, float]:
    """The point `reach` inches straight away from the nearest enemy."""
    near = min(enemies, key=lambda e: math.dist(start, e[1]))[1]
    d = math.dist(start, near) or 1.0
    return (start[0] + (start[0] - near[0]) / d * reach,
            start[1] + (start[1] - near[1]) / d * reach)


def _route_label(way) -> str:
    """A route as a player reads it: stay, away, towards NAME, to the KIND at (x, y)."""
    if type(way) is str:
        return way
    if type(way) is tuple:
        return f"{way[0]} {way[1]}"
    return f"to the {way.kind} at {position(way.at)}"


def _route(i: int, enemies: list, pieces: list) -> tuple:
    """The i-th way a fighter may go, (label, target, how far short of it to stop): staying
    put, towards each enemy, onto each piece, then away (when there are enemies)."""
    if i == 0:
        return ("stay", None, 0.0)
    if i <= len(enemies):
        name, pos = enemies[i - 1]
        return (("towards", name), pos, BASE)
    i -= len(enemies) + 1
    return pieces[i] if i < len(pieces) else ("away", _AWAY, 0.0)
