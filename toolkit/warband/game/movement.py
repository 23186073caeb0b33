"""How fighters move in a game: `travel` on a board of squares or in inches.

A moving fighter's player picks where it goes: on squares, any reachable square; in inches, one
of a few ways (stay, towards an enemy into contact, onto a piece or an area, straight away from
the nearest enemy), each measured out round the walls only once it is chosen, and round a base
that stands in its straight way (by the shortest free route, when that ends nearer). The rules
may aim a move instead (`travel f up to D to TARGET`): the shortest free route into contact
with a fighter or onto a marker, as far as D goes; onto a piece someone stands on, as close as
it gets. Difficult ground (game/terrain.py) counts double against D. A fighter that ends its
move on a marker with a `when entered by` block runs it. The way each move went is kept
(`way`) for the tests that check it.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Callable

from warband.game import pieces as pieces_now
from warband.game.board import BASE, CONTACT, Board, Piece, near_segment, within
from warband.game.detour import ways_round
from warband.game.gamelog import number, point, position
from warband.game.pieces import piece_name
from warband.lang import nodes
from warband.run.codegen.runtime import Draft
from warband.run.host import CLEAR
from warband.run.places import places
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
        # the bases the move being made may pass through but not end on (travel's `through`)
        self.passing: list = []
        # the ways round what is in the way the move being made weighed, by where each ends
        # (a straight move keeps none), and the way of the last move made: [start, ..., end]
        self.ways: dict = {}
        self.way: list = []
        # the allowance of the move being made (units of models with places: how far each of
        # its models may go after its leader, game/formation.py)
        self.reach = 0.0
        self.through: str | None = None

    def travel(self, ref: Ref, reach, away: bool, world: World, target=None,
               through: str | None = None) -> World:
        """The fighter moves up to `reach` (straight away from the enemy when `away`; towards
        `target`, a fighter's Ref or a marker's kind, when one is given). `through`: the bases
        it may pass through but not end on, "friends" or "everyone" (`travel ... through
        friends`); None: every other base blocks it."""
        fighter = world.fighters[ref.index]
        start = fighter.position
        self.ways, self.way = {}, []
        if start is None or fighter.removed:
            return world
        game = self.game
        reach = self.reach = float(reach)
        index, side = ref.index, fighter.side
        enemies = [(g.name, g.position) for g in world.fighters
                   if not g.removed and g.side != side and g.position is not None]
        board = self.board
        blocking, passing = bases_in_the_way(world, index, through)
        self.passing, self.through = passing, through

        def others():
            return blocking
        if target is CLEAR:   # moves the rules choose: not into contact
            spot = self.out_of_contact(ref, reach, world)
        elif target is not None:
            spot = self.travel_to(fighter.name, start, reach, target, world, others())
        elif board.squares:
            spots = board.reachable(start, int(reach), set(others()), set(passing))
            if away:
                if not enemies:
                    return world
                spot = max(spots, key=lambda s: min(board.distance(s, e) for _, e in enemies))
            else:
                spot = spots[game.players.pick(
                    side, "destination", lambda: [position(s) for s in spots], world,
                    lambda i: self.spot_value(ref, spots[i], world),
                    count=len(spots),
                    resume=lambda i, w: self.arrive(ref, start, spots[i], w))]
        else:
            # the ways a fighter may go: nowhere, towards an enemy (into contact), onto a
            # piece, straight away from the nearest enemy; only the chosen way is made and
            # measured out (a random player's move needs only how many ways there are)
            pieces = board.destinations() if not game.questions.mobile else \
                pieces_now.destinations(board, world)   # (carrying pieces: where they are)
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
                    self.passing = passing   # (a look-ahead may have moved others since)
                    return self.route_end(_route(i, enemies, pieces), start, enemies, reach,
                                          others)
                chosen = game.players.pick(
                    side, "destination", lambda: [_route_label(r[0]) for r in routes()], world,
                    lambda i: self.spot_value(ref, end(i), world), count=count,
                    resume=lambda i, w: self.arrive(ref, start, end(i), w))
                spot = end(chosen)
        return self.arrive(ref, start, spot, world)

    def arrive(self, ref: Ref, start, spot, world: World) -> World:
        """The end of a move: the fighter stands at spot (and runs what a marker there does
        to whoever enters it)."""
        game, board = self.game, self.board
        fighter = world.fighters[ref.index]
        log = game.state.log
        grouped = game.formation is not None and bool(fighter.values.get("#places"))
        if spot != start and log.record and not grouped:   # (a unit's: once it can go)
            log.event("travel", game.state.round, fighter=fighter.name, at=point(start),
                      to=point(spot))
        if spot != start and grouped:
            world, spot = self.in_formation(ref, start, spot, world)   # its models after it
        elif spot != start:
            world = world.place(ref, spot)
        if spot != start:
            self.way = self.ways.get(spot) or [start, spot]
            game.facing.moved(ref.index, start, spot)   # it faces the way it went
        for piece in board.pieces_at(spot) if board.entered else ():
            marker = game.ruleset.markers.get(piece.kind)
            if marker is not None and marker.entered is not None:
                log.event("enter", game.state.round, fighter=fighter.name, marker=piece.kind)
                if type(world) is Draft:
                    world = world.freeze()
                world = game.run_entered(self.entered(marker), {marker.entered_by.name: ref},
                                         world)
        return world

    def in_formation(self, ref: Ref, start, spot, world: World) -> tuple[World, tuple]:
        """A unit of models with places moves: its leader to `spot`, its other models after
        it (game/formation.py); where they cannot all go, the leader stops shorter on its way
        (three quarters of it, a half, a quarter) where they can; where they cannot even so,
        the whole unit stays and the log says so (a `stuck` event). The world after, and
        where its leader ended."""
        game = self.game
        formation = game.formation
        assert formation is not None
        if type(world) is Draft:
            world = world.freeze()
        blocking, passing = bases_in_the_way(world, ref.index, self.through)
        fighter = world.fighters[ref.index]
        way = self.ways.get(spot) or [start, spot]
        for end, part in formation.stops(way, [*blocking, *passing]):
            moved = formation.follow(world.place(ref, end), ref.index, start, end, self.reach,
                                     blocking, passing)
            if moved is not None:
                self.ways[end] = part
                if game.state.log.record:
                    game.state.log.event("travel", game.state.round, fighter=fighter.name,
                                         at=point(start), to=point(end))
                return moved, end
        self.stuck(fighter.name, start, "its models cannot keep together there")
        return world, start

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
            end = board.straight(start, target, reach, 0.0, others, self.passing)
            if end is None or math.dist(start, end) < reach - 0.02:
                continue   # an edge, a piece or another base is in the way
            if any(board.contact(end, e) for _, e in enemies):
                continue
            return self.afford(start, end, reach)
        if game.state.log.record:
            game.state.log.event("stuck", game.state.round, fighter=name,
                           why=f"no free route {number(reach)}\" away from the enemy")
        return start

    def travel_to(self, name: str, start, reach: float, target, world: World, others: list):
        """`travel f up to D to TARGET`: by the shortest free route into base contact with a
        fighter, or onto the nearest piece of a kind of marker (next to it, when nobody may
        stand on it), as far as `reach` goes; where there is no route at all, f stays and the
        log says so (a `stuck` event)."""
        board = self.board
        if type(target) is str and target in board.zones:   # into a zone (moves the rules choose)
            return self.into_zone(name, start, reach, target, others)
        if type(target) is str:   # a kind of marker: its nearest piece (a wall: next to it)
            pieces = [p for p in board.pieces if p.kind == target]
            if self.game.questions.mobile:   # carrying pieces: where each is now
                pieces = [pieces_now.where_now(board, i, world)
                          for i, p in enumerate(board.pieces)
                          if p.kind == target and world.pieces[i].carrier is None]
            if not pieces:
                return self.stuck(name, start, f"no {target} on the board")
            piece = min(pieces, key=lambda p: math.dist(start, p.at) if p.to is None else
                        math.dist(start, piece_goal(board, p, start)[0]))
            goal, stop = piece_goal(board, piece, start)
        elif target.kind == "piece":   # pieces as values: one piece (pieces.py)
            piece = pieces_now.where_now(board, target.index, world)
            carrier = world.pieces[target.index].carrier
            if piece.at[0] == math.inf:
                return self.stuck(name, start, f"{_target_label(target, world)} has left the "
                                               "table")
            if carrier is not None and world.fighters[carrier].position == start:
                return start   # (it carries it: there already)
            # a piece someone carries: into base contact with its carrier
            goal, stop = piece_goal(board, piece, start) if carrier is None else \
                (piece.at, 1 if board.squares else BASE)
        else:
            other = world.fighters[target.index]
            if other.position == start:
                return self.stuck(name, start, "it cannot travel to itself")
            if other.removed or other.position is None:
                return self.stuck(name, start, f"{other.name} is not on the board")
            goal, stop = other.position, (1 if board.squares else BASE)
        end = self.closest(start, goal, stop, reach, others)
        if end is None:
            return self.stuck(name, start, f"no free route to {_target_label(target, world)}")
        return end

    def closest(self, start, goal, stop: float, reach: float, others: list,
                longest: float = math.inf):
        """Where a move of at most `reach` towards `goal` ends: by the shortest free route to
        within `stop` of it; where no base may stand on the goal (someone holds the objective),
        to within a little more, and more, as close as it can get (a goal to stand on only: its
        edge, a base beside whoever stands on it, up to _CLOSER further out). None: no free
        route at all (of at most `longest` inches, when given). Every search is work the budget
        counts (board.charge)."""
        board = self.board
        mores = (0,) if stop else (0, *_CLOSER_SQUARES) if board.squares else (0.0, *_CLOSER)
        for more in mores:
            if board.squares:
                end = _squares_to(board, start, goal, int(stop) + int(more), int(reach),
                                  set(others), set(self.passing))
            else:
                end = self.inches_to(start, goal, stop + more, reach, others, longest)
            if end is not None:
                return end
        return None

    # ---- moves the rules choose: into a zone, out of contact ------------------------------------------
    def into_zone(self, name: str, start, reach: float, zone_name: str, others: list):
        """`travel f up to D to ZONE`: by the shortest free route to the nearest place in the
        zone where its base stands whole (its cell on squares), as far as D goes; already in
        it, f stays."""
        board = self.board
        zone = board.zones[zone_name]
        if board.in_zone(start, zone):
            return start
        everyone = [*others, *self.passing]
        taken = set(everyone) if board.squares else None
        free = [c for c in board.cells(zone) if not board.blocked(c) and
                (c not in taken if taken is not None else
                 all(math.dist(c, o) >= BASE - CONTACT for o in everyone))]
        if not free:
            return self.stuck(name, start, f"no room in zone {zone_name}")
        goal = min(free, key=lambda c: math.dist(start, c))
        if board.squares:
            end = _squares_to(board, start, goal, 0, int(reach), set(others), set(self.passing))
        else:
            end = self.inches_to(start, goal, 0.0, reach, others)
        if end is None:
            return self.stuck(name, start, f"no free route to zone {zone_name}")
        return end

    def out_of_contact(self, ref: Ref, reach: float, world: World):
        """`travel f up to D not into contact`: f's player picks where f goes, as for a plain
        `travel f up to D`, among the places that end out of base contact with every enemy
        (staying put among them, when f touches nobody). Where there is none, f stays and
        the log says so (a `stuck` event)."""
        game, board = self.game, self.board
        fighter = world.fighters[ref.index]
        start, side, index = fighter.position, fighter.side, ref.index
        enemies = [(g.name, g.position) for g in world.fighters
                   if not g.removed and g.side != side and g.position is not None]
        others, passing = [g.position for i, g in enumerate(world.fighters)
                           if not g.removed and i != index and g.position is not None
                           and g.position not in self.passing], self.passing
        if game.formation is not None:   # units of models with places: each model's base
            others = [p for i, g in enumerate(world.fighters)
                      if not g.removed and i != index for p in places(g) if p not in passing]

        def clear(spot) -> bool:
            return not any(board.contact(spot, e) for _, e in enemies)
        if board.squares:
            spots = [s for s in board.reachable(start, int(reach), set(others), set(passing))
                     if clear(s)]
        else:
            ways = board.destinations() if not game.questions.mobile else \
                pieces_now.destinations(board, world)
            count = 1 + len(enemies) + len(ways) + (1 if enemies else 0)
            ends = [self.route_end(_route(i, enemies, ways), start, enemies, reach,
                                   lambda: others) for i in range(count)]
            # (towards an enemy ends in contact: a free spot short of it instead)
            spots = list(dict.fromkeys(e for e in ends if clear(e)))
        if not spots:
            return self.stuck(fighter.name, start, f"no place within {number(reach)} out of "
                                                   "contact with the enemy")
        return spots[game.players.pick(
            side, "destination", lambda: [position(s) for s in spots], world,
            lambda i: self.spot_value(ref, spots[i], world), count=len(spots),
            resume=lambda i, w: self.arrive(ref, start, spots[i], w))]

    def stuck(self, name: str, start, why: str):
        """The fighter stays where it is, and the log says why."""
        if self.game.state.log.record:
            self.game.state.log.event("stuck", self.game.state.round, fighter=name, why=why)
        return start

    def inches_to(self, start, goal, stop: float, reach: float, others: list,
                  longest: float = math.inf):
        """Inches: where a move of at most `reach` along the shortest free way to within `stop`
        of `goal` ends (None when there is no way at all, or none of at most `longest`)."""
        board, passing = self.board, self.passing
        everyone = [*others, *passing]   # (bases it may pass through, but not end on)
        if math.dist(start, goal) - stop <= CONTACT:
            return start   # there already
        way: list | None
        if _clear(board, start, goal, stop, others):
            way = [start, _arrival(start, goal, stop, everyone)]
        else:
            # (round one base in closed form on open ground; among walls a way round a base
            # meets a wall as often as not, and the checks of its legs cost more than a search)
            way = None if board.having("impassable") else \
                _round_one(board, start, goal, stop, others, everyone, longest)
            if way is None and stop > 0 and _hemmed_in(board, goal, stop, everyone):
                return None   # (no free place round the goal to end at: nothing to search for)
            if way is None:   # (not one base alone in the way: a search over points)
                # (round the bases the move can meet: see Board.towards)
                meets = within(others, start, reach)
                points = board.route(start, goal, stop, meets, within(passing, start, reach),
                                     longest)
                if not points:
                    return None
                ended = _last_step(board, [start, *points], goal, stop, meets,
                                   within(everyone, start, reach))
                if ended is None:
                    return None
                way = _shortcut(board, ended, meets)
                if _grazes(way, meets):
                    return None   # (a step between half-inch points cuts through a base's rim)
        walked, here = 0.0, start
        for k, point in enumerate(way[1:], 1):
            step = math.dist(here, point)
            if walked + step > reach + 1e-9:   # the rest of the way: as far as it goes
                part = board.straight(here, point, reach - walked, 0.0, others, passing)
                if part is None:
                    return self.took(way[:k], _off_bases(here, way[0], passing), reach)
                return self.took([*way[:k], part], part, reach)
            walked, here = walked + step, point
        return self.took(way, _off_bases(here, way[0], passing), reach)

    def took(self, way: list, end, reach: float):
        """Keeps the way (its points, start to end) of a move that ends at `end`, by where
        it ends, for whoever checks the move made (`self.way`: the move invariants' tests);
        gives `end`. Where difficult ground lies on the way, the move goes as far as `reach`
        pays for (board.affordable)."""
        if end == way[-1] and self.board.having("difficult"):
            way = self.board.affordable(way, reach)
            end = _off_bases(way[-1], way[0], self.passing)
        if end == way[-1] and self.passing and _on_base(end, self.passing):
            # a last leg that started inside a base it passes may end in it still: back to
            # the last point of the way clear of every base it passes
            k = len(way) - 1
            while k > 0 and _on_base(way[k], self.passing):
                k -= 1
            way, end = way[:k + 1], way[k]
        if end == way[-1] and end != way[0]:
            self.ways[end] = way
        return end

    def afford(self, start, end, reach: float):
        """A move from start to end (straight, or the way it went round walls, if kept) as
        far as its allowance pays for in difficult ground."""
        if end == start or not self.board.having("difficult"):
            return end
        return self.took(self.ways.get(end) or [start, end], end, reach)

    def route_end(self, route: tuple, start, enemies: list, reach: float,
                  others: Callable[[], list]):
        """Where a route ends: straight away, else round any walls in the way. `others`
        gives the other bases in play, asked only for a move."""
        _, target, stop = route
        if target is None:
            return start
        board = self.board
        if target is _AWAY:
            target = _away(start, enemies, reach)
            return self.afford(start, board.straight(start, target, reach, stop, others(),
                                                     self.passing) or start, reach)
        bases = others()
        end = self.afford(start, board.towards(start, target, reach, stop, bases,
                                               self.passing, self.ways) or start, reach)
        want = min(reach, math.dist(start, target) - stop)
        if math.dist(start, end) >= want - 0.3:
            return end   # the way there was free (round walls, if any were in it)
        if math.dist(start, target) - stop > reach + BASE:
            return end   # out of reach however it goes: as far as the straight way goes
        free = board.straight(start, target, reach, stop, ())
        if free is None or math.dist(start, free) < want - 0.3:
            return end   # a wall or the edge stops it: towards went round it where it could
        # a base stood in the straight way: round it, to where the target is (or as close
        # as it gets), when that ends nearer than stopping at the base
        way = self.closest(start, target, stop, reach, bases, _DETOUR * reach + 2 * BASE)
        if way is not None and math.dist(way, target) < math.dist(end, target) - 0.3:
            return way
        return end

    def entered(self, marker) -> nodes.ProcedureDecl:
        """A marker's `when entered by f { ... }` as a procedure of one parameter."""
        found = self._hooks.get(marker.name.name)
        if found is None:
            found = self._hooks[marker.name.name] = nodes.ProcedureDecl(
                "phase", marker.name, (nodes.Param(marker.entered_by, None, None, marker.span),),
                None, None, None, marker.entered, marker.span)
        return found

    def spot_value(self, ref: Ref, spot, world: World) -> float:
        """What ending a move at `spot` is worth to the mover's side, for a greedy player:
        the worth of standing there (game/worth.py), after what a marker there does to
        whoever enters it (exactly, or by trials)."""
        game = self.game
        after = world.place(ref, spot)
        side = world.fighters[ref.index].side
        for piece in self.board.pieces_at(spot):
            marker = game.ruleset.markers.get(piece.kind)
            if marker is not None and marker.entered is not None:
                return game.value_after_entering(("entered", piece.kind), self.entered(marker),
                                                 {marker.entered_by.name: ref}, side, after)
        return float(game.value(after, side))


# a way round a base in a move's straight way is searched up to this many times the move's
# allowance long (and two bases more): a longer way round ends no nearer, and a search
# bounded so weighs only the points near the way (a failed one no longer walks the board)
_DETOUR = 1.5

# how much further out than its goal a move onto a place someone holds tries to end, in turn
# (inches; on squares the whole ones: a square beside it, then one more)
_CLOSER = (1.0, 1.5, 2.0, 3.0)   # (a base on the goal: one beside it first)
_CLOSER_SQUARES = (1, 2, 3)


# the directions a fighter breaking off tries, as turns from straight away from the nearest
# enemy: that first, then ever further round on either side, every 15 degrees
_BREAK_OFF_TURNS = tuple(math.radians(sign * step * 15) for step in range(13)
                         for sign in ((1,) if step in (0, 12) else (1, -1)))


def _clear(board: Board, a, b, stop: float, others: list) -> bool:
    """Inches: whether a base goes straight from a to within `stop` of b unhindered."""
    want = math.dist(a, b) - stop
    if want <= 0.05:
        return True   # (too short a step for the board to measure)
    end = board.straight(a, b, want, stop, others)
    return end is not None and math.dist(a, end) >= want - 0.02


def _round_one(board: Board, start, goal, stop: float, others: list, everyone: list,
               longest: float) -> list | None:
    """The shortest way round the one base in the straight way to within `stop` of `goal`
    (game/detour.py), when it is free of every other base, wall and edge and no longer than
    `longest`: [start, corner, ..., where it ends]; None when there is no such way."""
    for corners in ways_round(start, goal, stop, others):
        way = _last_step(board, corners, goal, stop, others, everyone, back=1)
        if way is None or len(way) < 2 or \
                sum(math.dist(a, b) for a, b in zip(way, way[1:])) > longest or \
                not all(_clear(board, a, b, 0.0, others) for a, b in zip(way, way[1:-1])) or \
                _grazes(way, others):
            continue
        return way
    return None


def _grazes(way: list, others: list) -> bool:
    """Whether a way over points passes through a base that blocks it (by more than the
    hundredths a move is measured in): the search's diagonal steps between free half-inch
    points may cut a base's rim. A base the way starts touching it may only leave."""
    start = way[0]
    near = [o for o in others if math.dist(start, o) >= BASE - CONTACT]
    return any(near_segment(near, a, b, _GRAZE) for a, b in zip(way, way[1:]))


_GRAZE = BASE - CONTACT - 0.02   # nearer than this to a base's centre, a way goes through it


def _last_step(board: Board, way: list, goal, stop: float, others: list,
               everyone: list, back: int = 4) -> list | None:
    """A way over half-inch points (which ends within half an inch of `stop` from `goal`) and
    its last step, onto a point `stop` from the goal: straight on if that is free, else to
    another such point round the goal, from the way's end or a point just before it. `others`
    block the way; no base of `everyone` may be where it ends. `back`: from how many of the
    way's last points a last step is tried."""
    near = _near_goal(goal, stop, everyone)
    ring = None   # the free points round the goal: worked out only when first needed
    for k in range(len(way) - 1, max(-1, len(way) - 1 - back), -1):
        here = way[k]
        if math.dist(here, goal) - stop <= CONTACT:
            return way[:k + 1]
        # straight on first; the points round the goal only when that is not free (most last
        # steps are straight on)
        end = _arrival(here, goal, stop, near)
        if _free_end(board, here, end, goal, others, near):
            return [*way[:k + 1], end]
        if stop > 0:
            if ring is None:
                ring = _ring_of(board, goal, stop, everyone)
            for end in sorted(ring, key=lambda e: math.dist(here, e)):
                if _clear(board, here, end, 0.0, others):
                    return [*way[:k + 1], end]
    return None


def _near_goal(goal, stop: float, everyone: list) -> list:
    """The bases that may stand where a way to within `stop` of the goal ends: a last step
    ends `stop` from the goal, to the hundredth, so only a base nearer the goal than that and
    a base's width."""
    return [o for o in everyone if math.dist(o, goal) < stop + BASE + 0.05]


def _ring_of(board: Board, goal, stop: float, everyone: list) -> list:
    """The free points round the goal (_ring), kept with the board's pieces (the same goal
    with the same bases round it is tried by several ways of a move, and by moves to come)."""
    near = _near_goal(goal, stop, everyone)
    key = ("ring", goal, stop, tuple(near))
    ring = board.by_pieces.get(key)
    if ring is None:
        ring = board.by_pieces[key] = _ring(board, goal, stop, near)
    return ring


def _hemmed_in(board: Board, goal, stop: float, everyone: list) -> bool:
    """Whether no point round the goal (_ring) is free: asked before a search, and mostly
    answered by the first point or two (most goals are not hemmed in)."""
    near = _near_goal(goal, stop, everyone)
    ring = board.by_pieces.get(("ring", goal, stop, tuple(near)))
    if ring is not None:
        return not ring
    return next(_free_round(board, goal, stop, near), None) is None


def _ring(board: Board, goal, stop: float, everyone: list) -> list:
    """The free points `stop` from the goal, every 10 degrees round it, to the hundredth."""
    return list(_free_round(board, goal, stop, everyone))


def _free_round(board: Board, goal, stop: float, everyone: list):
    """The free points round the goal (_ring), one by one."""
    gx, gy = goal
    near = [o for o in everyone if o != goal]
    clear = BASE - CONTACT - 0.02   # (nearer a base than this, no rounding frees a point)
    for cos, sin in _AROUND:
        x, y = gx + cos * stop, gy + sin * stop
        if any(math.dist((x, y), o) < clear for o in near):
            continue   # (most points round a goal that is hemmed in: told apart cheaply)
        end = _arrival((gx + cos * 2, gy + sin * 2), goal, stop, everyone)
        if _free_spot(board, end, goal, everyone):
            yield end


def _free_end(board: Board, here, end, goal, others: list, everyone: list) -> bool:
    """Whether a way's last step from `here` may end at `end`: on no base, on the board, on
    nothing impassable, and straight there past the bases that block it."""
    return _free_spot(board, end, goal, everyone) and _clear(board, here, end, 0.0, others)


def _free_spot(board: Board, end, goal, everyone: list) -> bool:
    """Whether a base may stand at `end`: on no base but the goal's, on the board, on nothing
    impassable."""
    return all(math.dist(end, o) >= BASE - CONTACT for o in everyone if o != goal) and \
        board.inside(end) and not board.blocked(end)


# round a goal, every 10 degrees: each direction's cosine and sine
_AROUND = tuple((math.cos(math.radians(step * 10)), math.sin(math.radians(step * 10)))
                for step in range(36))


def _shortcut(board: Board, way: list, others: list) -> list:
    """A way over half-inch points made straight wherever a base can go straight (the points
    only approximate the shortest way: eight directions)."""
    out, i = [way[0]], 0
    while i < len(way) - 1:
        j = len(way) - 1
        while j > i + 1 and not _clear(board, way[i], way[j], 0.0, others):
            j -= 1
        out.append(way[j])
        i = j
    return out


def _arrival(start, goal, stop: float, others: list):
    """Inches: the point `stop` short of `goal` on the straight way from `start`, to the
    hundredth of an inch as the board's moves are, rounded so that it stays within `stop` and
    touching distance of the goal (a base `stop` away touches it) and overlaps nobody."""
    d = math.dist(start, goal)
    x = goal[0] + (start[0] - goal[0]) / d * stop
    y = goal[1] + (start[1] - goal[1]) / d * stop
    best = None
    for cx in (math.floor(x * 100) / 100, math.ceil(x * 100) / 100):
        for cy in (math.floor(y * 100) / 100, math.ceil(y * 100) / 100):
            gap = math.dist((cx, cy), goal) - stop
            if not -CONTACT < gap <= CONTACT / 2 or \
                    any(math.dist((cx, cy), o) < BASE - CONTACT for o in others if o != goal):
                continue
            if best is None or math.dist(start, (cx, cy)) < math.dist(start, best):
                best = (cx, cy)
    return best if best is not None else (x, y)


def _squares_to(board: Board, start, goal, stop: int, reach: int, occupied: set,
                passing: set | frozenset = frozenset()):
    """Squares: where at most `reach` steps along the shortest free path to a cell `stop`
    steps from `goal` (its own cell, or one touching it) end; a cell with a piece that does
    something when entered ends the move there, as any move's path does. None: no path.
    `passing`: cells with bases it may cross but not end on."""
    def done(cell):
        return max(abs(cell[0] - goal[0]), abs(cell[1] - goal[1])) == stop and \
            cell not in passing
    if done(start):
        return start
    came = {start: start}
    frontier, found = [start], None
    while frontier and found is None:
        nxt = []
        for x, y in frontier:
            for dx, dy in _SQUARE_STEPS:
                cell = (x + dx, y + dy)
                if cell in came or cell in occupied or board.blocked(cell):
                    continue
                came[cell] = (x, y)
                if done(cell):
                    found = cell
                    break
                nxt.append(cell)
            if found is not None:
                break
        frontier = nxt
    if found is None:
        return None
    path = [found]
    while path[-1] != start:
        path.append(came[path[-1]])
    path.reverse()
    end = start
    for cell in path[1:reach + 1]:
        if cell not in passing:   # (no base may end where another stands)
            end = cell
        if any(p.kind in board.entered for p in board.pieces_at(cell)):
            break   # entering this piece ends the move
    return end


def bases_in_the_way(world: World, index: int, through: str | None) -> tuple[list, list]:
    """The other bases in play, as a move of fighter `index` meets them: (those that block it,
    those it may pass through but not end on). `through`: None (every base blocks), "friends"
    (its own side's do not) or "everyone" (none does)."""
    side = world.fighters[index].side
    blocking: list = []
    passing: list = []
    for i, g in enumerate(world.fighters):
        if i != index and not g.removed and g.position is not None:
            into = passing if through == "everyone" or (through == "friends" and
                                                       g.side == side) else blocking
            if "#places" in g.values and g.values["#places"]:   # units of models with places
                into.extend(places(g))
            else:
                into.append(g.position)
    return blocking, passing


def _on_base(spot, bases: list) -> bool:
    """Inches: whether a base at `spot` overlaps one of `bases`."""
    return any(math.dist(spot, o) < BASE - CONTACT for o in bases)


def _off_bases(end, start, passing: list):
    """Inches: where a move that may pass through bases (`passing`) ends: `end`, or, when it
    would end on one of them, the move's start (the way it took crossed them: no nearer free
    spot on it is known)."""
    if passing and any(math.dist(end, o) < BASE - CONTACT for o in passing):
        return start
    return end


_SQUARE_STEPS = tuple((dx, dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1) if dx or dy)


def _target_label(target, world: World) -> str:
    if type(target) is str:
        return f"a {target}"
    if target.kind == "piece":   # pieces as values: its kind and number, as the log names it
        return piece_name(world, target.index)
    return world.fighters[target.index].name


def piece_goal(board: Board, piece: Piece, start) -> tuple:
    """Where a move onto a piece aims, and how far short of it to stop: onto it, or next to
    it when nobody may stand on it (an impassable piece; a wall, next to its nearest point)."""
    if piece.to is not None and not board.squares:   # (walls stop only moves in inches)
        (px, py), (ax, ay), (bx, by) = start, piece.at, piece.to
        dx, dy = bx - ax, by - ay
        length2 = dx * dx + dy * dy
        t = 0.0 if length2 == 0 else max(0.0, min(1.0, ((px - ax) * dx + (py - ay) * dy)
                                                   / length2))
        # a base touching the wall: its centre half a base from it (and a hair more, so that
        # the hundredths a move ends on never put it into the wall)
        return (ax + t * dx, ay + t * dy), BASE / 2 + CONTACT / 2
    if board.has(piece.kind, "impassable"):
        return piece.at, (1 if board.squares else piece.radius + BASE / 2)
    return piece.at, 0.0


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
