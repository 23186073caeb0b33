"""The engine: plays one scenario game to its end, with a policy for every player.

The scenario's `setup` runs once, then its `round` block once per round, until an `end when`
condition holds, a side concedes, fewer than two sides have fighters left, or the round limit is
reached. Everything a round does is written in the rules; the engine answers the statements that
need a board or a player (activate, travel, deploy, place) and the board's questions (distance,
sight, contact), and keeps the game's record.

Randomness: the dice draw from one seeded stream, players' random choices from another, so a
replay that takes its choices from a log sees exactly the same dice.
"""

from __future__ import annotations

import math
import random
from fractions import Fraction
from itertools import repeat

from warband.lang import nodes

from warband.run.codegen import program as codegen
from warband.game.board import BASE, Board, Piece, Zone
from warband.run.codegen.runtime import Draft, Interpret
from warband.run.decisions import Policies
from warband.diagnostics import diag, did_you_mean
from warband.game.scenario import load_scenario
from warband.run.interpreter import Interpreter
from warband.run.dice import random_below
from warband.run.evaluate import RulesError
from warband.game.gamelog import GameLog
from warband.game.lookahead import LookAhead
from warband.game.options import options_for
from warband.game.questions import Questions
from warband.game.results import GameResult, PlayRequest
from warband.run.world import FIGHTER_REFS, Ref, World
from warband.limits import DEFAULT_ROUNDS, MAX_FIGHTERS, MAX_ROUNDS



class GameOver(Exception):
    def __init__(self, world: World, reason: str) -> None:
        super().__init__(reason)
        self.world, self.reason = world, reason


class Game:
    def __init__(self, scenario, seed: int, policies: Policies | None = None,
                 max_rounds: int | None = None, script: list | None = None,
                 record: bool = False) -> None:
        self.scenario = scenario
        self.ruleset = scenario.ruleset
        self.decl = scenario.decl
        self.seed = seed
        self.policies = policies or Policies("random")
        self.interp = Interpreter(self.ruleset, self.policies, rng=random.Random(seed),
                                  choice_rng=random.Random(f"choices {seed}"))
        self.interp.game = self
        self.choice_rng = self.interp.choice_rng
        self.log = GameLog(record, script)
        self.interp.recorder = self.log if self.log.record else None
        self.max_rounds = max_rounds
        self.round = 0
        self.stuck: str | None = None
        self._acted: dict[int, list[int]] = {}    # side -> [activations, actions taken]
        self.board = self._board()
        self.questions = Questions(self.board)
        self.questions.install(self.interp)
        # the scenario's blocks as procedures; "scenario setup" is no name a rules file can give
        # (made once per scenario: AST nodes never change)
        self._procs = scenario.kept.get("procedures")
        if self._procs is None:
            span = self.decl.span
            self._procs = scenario.kept["procedures"] = {
                name: nodes.ProcedureDecl("phase", nodes.Ident(f"scenario {name}", span), (), None,
                                        None, None, block, span)
                for name, block in (("setup", self.decl.setup), ("round", self.decl.round),
                                    ("aftermath", self.decl.aftermath))
                if block is not None}
        self.interp.blocks = {p.name.name: p for p in self._procs.values()}
        self._fn = self.interp.fn
        self._hooks: dict = {}
        self._forces: int | None = None
        self._end_when = self._scores = self._side_values = None   # (made by _values)
        # side -> whether its player picks actions at random; (kind of decision, side) ->
        # whether pick draws that decision at random with nothing recorded or replayed
        self._random: dict = {}
        # whether actions go straight to generated code (set by play): then a turn's Draft
        # passes through its activations and moves, changed in place (codegen_runtime)
        self.direct = False
        self._names: dict = {}   # (activate statement, action left out) -> the actions
        self._options = options_for(self.ruleset, self.interp.compiled)
        self.look_ahead = LookAhead(self, seed)   # (greedy players)

    def _values(self) -> None:
        """The end conditions and the scores, asked of a world."""
        self._end_when = [self._value(condition, f"end {i}")
                          for i, condition in enumerate(self.decl.end_when)]
        self._scores = [(side.name, self._value(expr, f"score {side.name}"))
                        for side, expr, _ in self.decl.scores]
        # (a greedy player asks its side's value of every outcome it looks ahead to; a side
        # has one at most: a second is E202)
        self._side_values = {who.name: self._value(expr, f"value {who.name}")
                             for who, expr in self.decl.values}

    def _value(self, node, key: str):
        """fn(world): one of the scenario's expressions, asked every game (after every action,
        for an end condition): generated code where it can, else the interpreter's closure."""
        interp = self.interp
        fn = None
        if interp.compiled:
            program = codegen.program_of(interp)
            fn = program.value(node, key)
        if fn is None:
            return lambda world: self._fn(node)({}, world)

        def value(world):
            try:
                return fn(interp, world)
            except Interpret:   # a value generated code leaves to the interpreter
                return self._fn(node)({}, world)
        return value

    # ---- set-up --------------------------------------------------------------------------------------
    def _board(self) -> Board:
        """A board of the scenario's size and zones, with nothing on it yet."""
        plan = self.scenario.kept.get("board")
        if plan is None:   # the same for every game: worked out once
            width, height, unit = self.decl.board
            value = self.interp.fn
            props = {name: m.properties for name, m in self.ruleset.markers.items()}
            entered = frozenset(n for n, m in self.ruleset.markers.items()
                                if m.entered is not None)
            zones = {}
            for z in self.decl.zones:
                size = value(z.size)({}, None) if z.size is not None else 0
                corners = tuple((value(p.x)({}, None), value(p.y)({}, None)) for p in z.corners)
                zones[z.name.name] = Zone(z.shape, tuple(w.name for w in z.where), size, corners)
            plan = self.scenario.kept["board"] = (
                (value(width)({}, None), value(height)({}, None), unit == "squares", props,
                 entered), zones)
        board = Board(*plan[0])
        board.zones.update(plan[1])
        return board

    def play(self) -> GameResult:
        forces = [spec for side in self.scenario.forces for spec in side]
        if len(forces) > MAX_FIGHTERS:
            raise RulesError(diag("E403", f"a game holds at most {MAX_FIGHTERS} fighters, not "
                                          f"{len(forces)}", self.decl.span,
                                  hint="play with smaller warbands"))
        world = self.scenario.start()
        # (again here: a caller may have turned the generated code off since __init__)
        self._options = options_for(self.ruleset, self.interp.compiled)
        self.direct = self.interp.compiled and not self.policies.by_side and not self.log.record
        self._values()
        # the number of what never changes in this game's worlds: the same for every game
        kept = self.scenario.kept.get("forces")
        if kept is None or kept[0] is not self._options:
            kept = self.scenario.kept["forces"] = (self._options, self._options.forces(world))
        self._forces = kept[1]
        limit = self.max_rounds or (self._fn(self.decl.rounds)({}, None)
                                    if self.decl.rounds is not None else DEFAULT_ROUNDS)
        if not isinstance(limit, int) or not 1 <= limit <= MAX_ROUNDS:
            where = self.decl.rounds.span if self.decl.rounds is not None else self.decl.span
            raise RulesError(diag("E403", f"a game lasts 1 to {MAX_ROUNDS:,} rounds, not "
                                          f"{limit}", where, hint="lower the scenario's 'rounds'"))
        reason = "limit"
        try:
            if "setup" in self._procs:
                self.log.event("setup", self.round)
                _, world = self.interp.run_nested(self._procs["setup"], {}, world)
            for self.round in range(1, int(limit) + 1):
                self.log.event("round", self.round)
                self._acted = {}
                _, world = self.interp.run_nested(self._procs["round"], {}, world)
                self._note_stuck(world)
                self.check_end(world)
        except GameOver as over:
            world, reason = over.world, over.reason
            if type(world) is Draft:   # (it ended in the middle of a turn)
                world = world.freeze()
        if "aftermath" in self._procs:
            self.log.event("aftermath", self.round)
            before = world
            _, world = self.interp.run_nested(self._procs["aftermath"], {}, world)
            self._log_changes(before, world)
        return self.result(world, reason)

    def _log_changes(self, before: World, after: World) -> None:
        """What the aftermath changed, fighter by fighter (experience, awards)."""
        for f0, f1 in zip(before.fighters, after.fighters):
            for name, value in f1.values.items():
                if f0.values.get(name) != value:
                    self.log.event("change", self.round, fighter=f1.name, field=name,
                                   old=_plain(f0.values.get(name)), new=_plain(value))

    # ---- the end -------------------------------------------------------------------------------------
    def check_end(self, world: World) -> None:
        """Raise GameOver when the game is over (asked after every action)."""
        sides = world.sides
        for s in sides:
            if s.conceded:
                standing = [i for i, s in enumerate(sides) if not s.conceded]
                if len(standing) <= 1:
                    raise GameOver(world, "conceded")
                break
        if self._end_when is None:
            self._values()
        if self._end_when:
            for condition in self._end_when:
                if condition(world) is True:
                    raise GameOver(world, "condition")
        first = None   # the side of the first fighter in play: is any other side in play?
        for f in world.fighters:
            if not f.removed:
                if first is None:
                    first = f.side
                elif f.side != first:
                    return
        raise GameOver(world, "eliminated")

    def scores(self, world: World) -> dict[str, Fraction | int]:
        out = {name: 0 for name in self.scenario.side_names}
        if self._scores is None:
            self._values()
        for side, score in self._scores:
            out[side] = score(world)
        return out

    def result(self, world: World, reason: str) -> GameResult:
        self.final = world   # for whoever wants to look at the end of the game
        scores = self.scores(world)
        standing = [s.name for s in world.sides if not s.conceded]
        best = max((scores[n] for n in standing), default=None)
        leaders = [n for n in standing if scores[n] == best]
        winner = leaders[0] if len(leaders) == 1 else None
        kills: dict[str, dict[str, int]] = {n: {} for n in self.scenario.side_names}
        for f in world.fighters:
            if f.removed and not f.withdrawn:
                side = kills[world.sides[f.side].name]
                key = f.fighter_class or f.name
                side[key] = side.get(key, 0) + 1
        scored = frozenset(f"score {n}" for n, v in scores.items() if v)
        self.log.event("end", self.round, reason=reason, winner=winner,
                       scores={n: _plain(v) for n, v in scores.items()})
        return GameResult(self.seed, tuple(self.scenario.side_names), winner,
                          {n: float(v) for n, v in scores.items()}, self.round, reason,
                          kills, scored, self.stuck)

    def _note_stuck(self, world: World) -> None:
        for side, (tried, took) in self._acted.items():
            if tried and not took and self.stuck is None:
                self.stuck = (f"round {self.round}: {world.sides[side].name} had fighters to "
                              "activate but no legal action for any of them")

    # ---- what the rules ask of the board -----------------------------------------------------------------
    def ask(self, name: str, args: list, world: World):
        """The board's answer to one of the rules' questions (distance, sees, ...); the rules
        themselves ask through the interpreter's q_NAME methods (questions.py)."""
        return getattr(self.questions, name)(*args, world)

    # ---- statements that need the engine -------------------------------------------------------------------
    def statement(self, stmt, env: dict, world: World, next_):
        match stmt:
            case nodes.Activate():
                return self.activate(stmt, env, world, next_)
            case nodes.Travel():
                ref = self._fn(stmt.fighter)(env, world)
                reach = self._fn(stmt.distance)(env, world)
                return next_(env, self.travel(ref, reach, stmt.away, world))
            case nodes.Concede(side=side):
                return next_(env, self.concede_now(self._fn(side)(env, world), world))
            case nodes.Deploy():
                return next_(env, self.deploy(stmt, env, world))
            case nodes.Place():
                self.place(stmt, env, world)
                return next_(env, world)
        raise TypeError(f"unknown game statement {stmt!r}")  # pragma: no cover

    # ---- activations ---------------------------------------------------------------------------------------
    def options(self, ref: Ref, names: list[str], world: World,
                forces: int | None = None) -> list[tuple[str, dict]]:
        """Every legal (action, arguments): the fighter first; other fighter parameters take
        every other fighter in play; parameters with a default keep it. `forces`: the number
        Options gives the game's fighters (worked out from the world when not given)."""
        interp, legal = self.interp, self._options.legal
        return [option[5] for option in self._options.candidates(interp, ref, names, world,
                                                                 forces)
                if legal(interp, option, world)]

    def random_option(self, ref: Ref, names: list[str], world: World,
                      forces: int | None = None):
        """A legal (action, arguments), each equally likely, or None: candidates are drawn at
        random and tested until one is legal (which picks uniformly among the legal ones
        without testing them all); after as many failures as twice the candidates, the legal
        ones are listed and one is drawn from them."""
        interp, options = self.interp, self._options
        candidates = options.candidates(interp, ref, names, world, forces)
        count = len(candidates)
        passes, fighters, lazies = options.passes, world.fighters, world.lazies
        # random_below written out (the same draws): this is the engine's inner loop
        getrandbits, bits = self.choice_rng.getrandbits, count.bit_length()
        for _ in range(2 * count):
            r = getrandbits(bits)
            while r >= count:
                r = getrandbits(bits)
            _, _, test, refs, targets, pair = candidates[r]
            if targets and (fighters[targets[0]].removed if len(targets) == 1 else
                            any(fighters[i].removed for i in targets)):
                continue   # a target no longer in play
            if test is None:
                return pair
            try:
                if lazies:
                    raise Interpret
                if test(interp, world, *refs) is True:
                    return pair
            except Interpret:   # the interpreter answers what generated code leaves to it
                if passes(interp, test, world, refs):
                    return pair
        legal = [option[5] for option in candidates if options.legal(interp, option, world)]
        if not legal:
            return None
        return legal[random_below(self.choice_rng, len(legal))] if len(legal) > 1 else legal[0]

    def activate(self, stmt: nodes.Activate, env: dict, world: World, next_):
        ref = self._fn(stmt.fighter)(env, world)
        exclude = self._fn(stmt.exclude)(env, world) if stmt.exclude is not None else None
        name, world = self.activate_now(stmt, ref, exclude, world)
        bound = {stmt.bind.name: name} if stmt.bind is not None else {}
        return next_({**env, **bound}, world)

    def concede_now(self, ref: Ref, world: World) -> World:
        self.log.event("concede", self.round, side=world.sides[ref.index].name)
        world = world.concede(ref.index)
        self.check_end(world)
        return world

    def activate_now(self, stmt: nodes.Activate, ref: Ref, exclude, world: World,
                     generated: bool = False):
        """One activation: (the name of the action taken, or "none"; the world after it).
        `generated`: asked by a generated sampled run (the turn), whose policies and budget
        the action's own generated run shares."""
        fighter = world.fighters[ref.index]
        if fighter.removed:
            return "none", world
        names = self._names.get((id(stmt), exclude))
        if names is None:
            names = [i.name for i in stmt.using] or [p.name.name for p in self.ruleset.actions()]
            names = self._names[(id(stmt), exclude)] = tuple(n for n in names if n != exclude)
        side_name = world.sides[fighter.side].name
        randomly = self._random.get(side_name)
        if randomly is None:
            randomly = self._random[side_name] = self.log.script is None and \
                self.policies.for_decision("action", side_name) == "random"
        if randomly:   # a random player: one legal option, found without testing them all
            chosen = self.random_option(ref, names, world, self._forces)
            options = [chosen] if chosen is not None else []
        else:
            if type(world) is Draft:   # a player who may look ahead needs a World
                world = world.freeze()
            options = self.options(ref, names, world, self._forces)
        acted = self._acted.get(fighter.side)
        if acted is None:
            acted = self._acted[fighter.side] = [0, 0]
        acted[0] += 1
        if not options:
            self.log.event("idle", self.round, fighter=fighter.name)
            return "none", world
        acted[1] += 1
        if randomly:
            index = 0
            if self.log.record:
                self.log.decided("action", side_name, _label(*options[0], world))
        else:
            index = self.pick(fighter.side, "action",
                              lambda: [_label(name, args, world) for name, args in options],
                              world, lambda i: self.look_ahead.action_value(
                                  options[i], fighter.side, world),
                              count=len(options))
        name, args = options[index]
        if self.log.record:
            self.log.event("activate", self.round, fighter=fighter.name,
                           side=world.sides[fighter.side].name,
                           action=_label(name, args, world))
        interp = self.interp
        interp.in_action += 1
        try:
            # an action of a sampled game: straight to its generated code when it can (what
            # run_nested keeps aside, an exact run's state, a sampled game does not use)
            # (a draft the turn is changing goes on being changed in place by the action)
            done = self.direct and (
                codegen.nested(interp, name, args, world) if generated else
                codegen.sample(interp, name, args, world, keep=True))
            if not done and type(world) is Draft:   # (left before anything was changed)
                world = world.freeze()
            result, world = done or interp.run_nested(self.ruleset.procedures[name], args,
                                                      world)
        finally:
            interp.in_action -= 1
        if result is not None and self.log.record:
            self.log.event("result", self.round, action=name, value=_plain(result))
        self.check_end(world)
        return name, world

    def value(self, world: World, side: int) -> Fraction | float:
        """What a position is worth to a side, for greedy players: the scenario's `value` for
        it, else its score minus the best other score, with fighters in play as a tie-break."""
        if self._side_values is None:
            self._values()
        name = world.sides[side].name
        own = self._side_values.get(name)
        if own is not None:
            return own(world)
        scores = self.scores(world)
        others = [v for n, v in scores.items() if n != name]
        alive = [0] * len(world.sides)
        for f in world.fighters:
            if not f.removed:
                alive[f.side] += 1
        material = alive[side] - max((a for i, a in enumerate(alive) if i != side), default=0)
        return scores[name] - max(others, default=0) + Fraction(material, 100)

    # ---- decisions the engine makes for a player -----------------------------------------------------------
    def pick(self, side: int, kind: str, labels, world: World, value=None,
             count: int | None = None) -> int:
        """One of the labelled options, by the side's policy, a replayed script, or a name.
        `labels` may be a function that makes them: a random player not being recorded needs
        only how many there are."""
        side_name = world.sides[side].name
        if callable(labels):
            randomly = self._random.get((kind, side_name))
            if randomly is None:   # (asked for every move of a game)
                randomly = self._random[(kind, side_name)] = \
                    self.policies.for_decision(kind, side_name) == "random" and \
                    not self.log.record and self.log.script is None
            if randomly:
                return random_below(self.choice_rng, count) if count > 1 else 0
            labels = labels()
        scripted = self.log.scripted(kind, labels)
        if scripted is not None:
            index = scripted
        else:
            policy = self.policies.for_decision(kind, side_name)
            if policy in labels:
                index = labels.index(policy)
            elif policy == "greedy" and value is not None and len(labels) > 1:
                values = [value(i) for i in range(len(labels))]
                best = max(values)
                index = values.index(best)
            elif policy == "first" or len(labels) == 1:
                index = 0   # (one option: nothing drawn, recorded or not)
            else:
                index = random_below(self.choice_rng, len(labels))
        self.log.decided(kind, side_name, labels[index])
        return index

    # ---- movement and placement ------------------------------------------------------------------------------
    def travel(self, ref: Ref, reach, away: bool, world: World) -> World:
        fighter = world.fighters[ref.index]
        start = fighter.position
        if start is None or fighter.removed:
            return world
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
                spot = spots[self.pick(side, "destination", lambda: [_pos(s) for s in spots],
                                       world, lambda i: self._spot_value(ref, spots[i], enemies,
                                                                         world),
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
                chosen = count - 1
            else:
                def routes():
                    return [_route(i, enemies, pieces) for i in range(count)]

                def end(i):
                    return self._route_end(_route(i, enemies, pieces), start, enemies, reach,
                                           others)
                chosen = self.pick(side, "destination",
                                   lambda: [_route_label(r[0]) for r in routes()], world,
                                   lambda i: self._spot_value(ref, end(i), enemies, world),
                                   count=count)
            spot = self._route_end(_route(chosen, enemies, pieces), start, enemies, reach,
                                   others)
        if spot != start and self.log.record:
            self.log.event("travel", self.round, fighter=fighter.name, start=_pos(start),
                           to=_pos(spot))
        if spot != start:
            world = world.place(ref, spot)
        for piece in board.pieces_at(spot) if board.entered else ():
            marker = self.ruleset.markers.get(piece.kind)
            if marker is not None and marker.entered is not None:
                self.log.event("enter", self.round, fighter=fighter.name, marker=piece.kind)
                if type(world) is Draft:
                    world = world.freeze()
                _, world = self.interp.run_nested(self._entered(marker),
                                                  {marker.entered_by.name: ref}, world)
        return world

    def _route_end(self, route, start, enemies, reach: float, others):
        """Where a route ends: straight away, else round any walls in the way. `others`
        gives the other bases in play, asked only for a move."""
        _, target, stop = route
        if target is None:
            return start
        if target is _AWAY:
            target = _away(start, enemies, reach)
            return self.board.straight(start, target, reach, stop, others()) or start
        return self.board.towards(start, target, reach, stop, others()) or start

    def _entered(self, marker) -> nodes.ProcedureDecl:
        """A marker's `when entered by f { ... }` as a procedure of one parameter."""
        found = self._hooks.get(marker.name.name)
        if found is None:
            found = self._hooks[marker.name.name] = nodes.ProcedureDecl(
                "phase", marker.name, (nodes.Param(marker.entered_by, None, None, marker.span),),
                None, None, None, marker.entered, marker.span)
        return found

    def _spot_value(self, ref: Ref, spot, enemies, world: World) -> float:
        after = world.place(ref, spot)
        side = world.fighters[ref.index].side
        for piece in self.board.pieces_at(spot):
            marker = self.ruleset.markers.get(piece.kind)
            if marker is not None and marker.entered is not None:
                return self.look_ahead.value_after(("entered", piece.kind),
                                                   self._entered(marker),
                                                   {marker.entered_by.name: ref}, side, after)
        closeness = -min((self.board.distance(spot, e) for _, e in enemies), default=0)
        return float(self.value(after, side)) + closeness / 1000

    def deploy(self, stmt: nodes.Deploy, env: dict, world: World) -> World:
        return self.deploy_now(stmt, self._fn(stmt.side)(env, world),
                               self._fn(stmt.zone)(env, world), world)

    def deploy_now(self, stmt: nodes.Deploy, side: Ref, zone_name: str, world: World) -> World:
        zone = self.board.zones[zone_name]
        taken = [f.position for f in world.fighters if f.position is not None and not f.removed]
        board = self.board

        def fits(c) -> bool:
            return not board.blocked(c) and not board.pieces_at(c) and \
                _apart_from(board, c, taken)
        for i, f in enumerate(world.fighters):
            if f.side != side.index or f.removed:
                continue
            spots = self._spots(board.cells(zone), fits)
            if not spots:
                raise RulesError(diag("E507", f"no room left in zone '{stmt.zone}' for "
                                              f"{f.name}", stmt.span,
                                      hint="make the zone larger or the force smaller"))
            spot = self._place_spot(side.index, spots, world)
            world = world.place(FIGHTER_REFS[i], spot)
            taken.append(spot)
        self.log.event("deploy", self.round, side=world.sides[side.index].name, zone=zone_name)
        return world

    def _spots(self, cells: list, fits) -> list:
        """The cells where something fits; a random player needs only one, so a few random
        tries come first, and the whole zone is searched only when they all fail."""
        policy_random = self.policies.default == "random" and not self.policies.by_side
        if policy_random and self.log.script is None and cells:
            for _ in range(30):
                c = cells[random_below(self.choice_rng, len(cells))]
                if fits(c):
                    return [c]
        return [c for c in cells if fits(c)]

    def place(self, stmt: nodes.Place, env: dict, world: World) -> None:
        def value(e):
            return self._fn(e)(env, world) if e is not None else None

        def point(p):
            return (value(p.x), value(p.y)) if p is not None else None
        self.place_now(stmt, point(stmt.at), point(stmt.to), value(stmt.count),
                       value(stmt.zone), value(stmt.apart), value(stmt.by), world)

    def place_now(self, stmt: nodes.Place, at, to, count, zone_name, apart, by,
                  world: World) -> None:
        """`place`: a piece at a point (a wall from `at` to `to`), or `count` pieces where the
        side `by` (else the first side) puts them, in a zone, `apart` from each other."""
        kind = stmt.kind.name
        radius = 0.0 if self.board.squares else 0.5
        if at is not None:
            self.board.add(Piece(kind, at, to, radius))
            if to is not None:   # a wall: where it runs
                self.log.event("place", self.round, marker=kind, at=_pos(at), to=_pos(to))
            else:
                self.log.event("place", self.round, marker=kind, at=_pos(at))
            return
        zone = self.board.zones[zone_name] if zone_name is not None else Zone("everywhere", ())
        apart = apart if apart is not None else 0
        by = by.index if by is not None else 0
        fighters = {f.position for f in world.fighters if f.position is not None}
        board = self.board

        def fits(c) -> bool:
            return c not in fighters and not board.blocked(c) and not board.pieces_at(c) and \
                all(_gap(board, c, p.at) >= apart for p in board.pieces
                    if p.kind == kind and p.to is None)
        for _ in range(count):
            spots = self._spots(board.cells(zone), fits)
            if not spots:
                raise RulesError(diag("E507", f"no room left to place another {kind}",
                                      stmt.span, hint="place fewer, or closer together"))
            spot = self._place_spot(by, spots, world)
            self.board.add(Piece(kind, spot, None, radius))
            if self.log.record:
                self.log.event("place", self.round, marker=kind, at=_pos(spot),
                               by=world.sides[by].name)

    def _place_spot(self, side: int, spots: list, world: World):
        policy = self.policies.for_decision("placement", world.sides[side].name)
        scripted = self.log.scripted("placement", None)
        if scripted is not None:
            spot = tuple(scripted)
            if spot in spots:
                self.log.decided("placement", world.sides[side].name, list(spot))
                return spot
        spot = spots[0] if policy == "first" else spots[random_below(self.choice_rng, len(spots))]
        if self.log.record:
            self.log.decided("placement", world.sides[side].name, list(spot))
        return spot


_AWAY = object()   # the target of the route away from the enemy, until it is taken


def _away(start, enemies, reach: float):
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
    return f"to the {way.kind} at {_pos(way.at)}"


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


def _apart_from(board: Board, spot, taken: list) -> bool:
    """Whether a fighter may be set up at `spot` with the fighters at `taken`: not on one of
    their squares, or an inch or more from each (in C, by map: every try of a deployment asks)."""
    if board.squares:
        return spot not in taken
    return not taken or min(map(math.dist, repeat(spot), taken)) >= 1.0


def _gap(board: Board, a, b) -> float:
    if board.squares:
        return max(abs(a[0] - b[0]), abs(a[1] - b[1]))
    return ((a[0] - b[0]) ** 2 + (a[1] - b[1]) ** 2) ** 0.5


def _pos(p) -> str:
    if p is None:
        return "-"
    return f"({_num(p[0])}, {_num(p[1])})"


def _num(x) -> str:
    return str(int(x)) if float(x).is_integer() else f"{float(x):.2f}".rstrip("0")


def _label(name: str, args: dict, world: World) -> str:
    """An option as a log and a script write it: an action and its targets, 'shoot Archer 2'."""
    parts = [name]
    for value in list(args.values())[1:]:
        if isinstance(value, Ref):
            holder = world.fighters if value.kind == "fighter" else world.sides
            parts.append(holder[value.index].name)
    return " ".join(parts)


def _plain(v):
    if isinstance(v, Fraction):
        return int(v) if v.denominator == 1 else float(v)
    if isinstance(v, Ref):
        return repr(v)
    return v


# ---- what workers run -------------------------------------------------------------------------------------
_LOADED: dict = {}


class ScenarioProblem(Exception):
    """The scenario cannot be played: its diagnostics, and the texts they point into."""

    def __init__(self, diagnostics: list, sources=None) -> None:
        super().__init__("; ".join(d.message for d in diagnostics))
        self.diagnostics = diagnostics
        self.sources = dict(getattr(sources, "texts", None) or {}) if sources else {}


def loaded(request: PlayRequest):
    """The scenario of a request, loaded once per process; its policies checked."""
    scenario = _LOADED.get(request.scenario)
    if scenario is None:
        scenario = load_scenario(request.scenario)
        if isinstance(scenario, list):
            raise ScenarioProblem(scenario)
        _LOADED[request.scenario] = scenario
    problems = []
    for who, policy in request.policies:
        if who != "*" and who not in scenario.side_names:
            problems.append(diag("E911", f"the scenario has no side '{who}'", None,
                                 hint=did_you_mean(who, scenario.side_names)
                                 or f"its sides: {', '.join(scenario.side_names)}"))
        if policy not in ("random", "greedy", "first"):
            problems.append(diag("E911", f"unknown policy '{policy}'", None,
                                 hint="a side plays random, greedy or first"))
    if problems:
        raise ScenarioProblem(problems)
    return scenario


def objectives(request: PlayRequest) -> tuple[str, ...]:
    """The scenario's score terms, as GameResult.scored names them."""
    return tuple(f"score {side.name}" for side, _, _ in loaded(request).decl.scores)


def policies_of(request: PlayRequest) -> Policies:
    by_side = dict(request.policies)
    default = by_side.pop("*", "random")
    if by_side and len(set(by_side.values())) == 1 and \
            set(by_side) >= _side_names(request):   # every side plays alike: one policy
        default, by_side = next(iter(by_side.values())), {}
    return Policies(default, {}, by_side)


def _side_names(request: PlayRequest) -> set:
    scenario = _LOADED.get(request.scenario)
    return set(scenario.side_names) if scenario is not None else set()


def play(request: PlayRequest, seed: int) -> GameResult:
    """One game of a scenario (loaded once per process): the simulator's worker function."""
    scenario = loaded(request)
    try:
        return Game(scenario, seed, policies_of(request), request.max_rounds).play()
    except RulesError as error:
        raise ScenarioProblem([error.diagnostic], scenario.sources) from None
