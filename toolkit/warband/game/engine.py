"""The engine: plays one scenario game to its end, with a policy for every player.

The scenario's `setup` runs once, then its `round` block once per round, until an `end when`
condition holds, a side concedes, fewer than two sides have fighters left, or the round limit is
reached. Everything a round does is written in the rules; the engine answers the statements that
need a board or a player (activate, travel, deploy, place, concede: the interpreter's GameHost,
run/host.py) and the board's questions (distance, sight, contact), and keeps the game's record.
Who picks what is players.py's; moves are movement.py's; setting up is placement.py's; what
the simulator's workers run is worker.py's.

Randomness: the dice draw from one seeded stream, players' random choices from another, so a
replay that takes its choices from a log sees exactly the same dice.
"""

from __future__ import annotations

import random
import sys
from contextlib import contextmanager
from fractions import Fraction
from typing import TYPE_CHECKING, Callable, cast

from warband.diagnostics import diag
from warband.game import log_summary, pieces
from warband.game.board import Board, Zone
from warband.game.facing import Facing
from warband.game.gamelog import GameLog, option_label, plain, point, position
from warband.game.explore import DecisionPoint, Explorer
from warband.game.greedy import RANDOM, TRIALS, Greedy
from warband.game.lookahead import LookAhead
from warband.game.movement import Movement
from warband.game.objectives import objectives
from warband.game.options import options_for
from warband.game.placement import Placement
from warband.game.players import Players
from warband.game.formation import Formation, ModelQuestions
from warband.game.questions import Questions
from warband.game.results import GameResult
from warband.game.scenario import Scenario
from warband.game.search import Search
from warband.game.spots import Spots
from warband.game.state import ActionEnd, BlockEnd, GameOver, GameState, Opaque, Then
from warband.game.worth import Worth
from warband.lang import nodes
from warband.limits import DEFAULT_ROUNDS, MAX_FIGHTERS, MAX_ROUNDS
from warband.run import budget, flow
from warband.run.campaign import Aftermath, removes
from warband.run.codegen import hooks as codegen
from warband.run.codegen.runtime import Draft, Interpret, through_of
from warband.run.decisions import Policies, mcts_runs, weighs
from warband.run.evaluate import RulesError
from warband.run.roll_labels import removal_by
from warband.run.host import CLEAR
from warband.run.interpreter import Interpreter
from warband.run.places import without
from warband.run.world import Ref, World

if TYPE_CHECKING:
    from warband.game.explore import Horizon


def _with_round_events(ruleset, block: nodes.Block | None) -> nodes.Block | None:
    """The round block with where the round starts and ends marked, when the rules have
    events of a round (run/events.py): they run there, inside the round's own rules."""
    if block is None or not any(e.kind == "round" for e in ruleset.events):
        return block
    body, last = block.stmts, block.stmts[:0]
    if body and type(body[-1]) is nodes.Return and body[-1].value is None:
        body, last = body[:-1], body[-1:]   # (a bare `return` last: the round ends after it)
    stmts: tuple = (nodes.RoundEvents("starts", block.span), *body,
                    nodes.RoundEvents("ends", block.span), *last)
    return nodes.Block(stmts, block.span)


def _world(world) -> World:
    """A World from what a run gave back: a generated turn's Draft is frozen."""
    return world.freeze() if type(world) is Draft else world


class Game:
    """One game of a scenario: the round loop, and the interpreter's host while it runs."""

    def __init__(self, scenario: Scenario, seed: int, policies: Policies | None = None,
                 max_rounds: int | None = None, script: list | None = None,
                 record: bool = False) -> None:
        self.scenario = scenario
        self.ruleset = scenario.ruleset
        self.decl = scenario.decl
        self.seed = seed
        policies = policies or Policies("random")
        self.interp = Interpreter(self.ruleset, policies, rng=random.Random(seed),
                                  choice_rng=random.Random(f"choices {seed}"))
        self.interp.game = self
        # everything the game's future depends on beside the World (game/state.py)
        self.state = GameState(self.interp.rng, self.interp.choice_rng,
                               GameLog(record, script))
        self.interp.recorder = self.state.log if self.state.log.record else None
        self.interp.recording = self.state.log.record
        self.max_rounds = max_rounds
        self.final: World | None = None   # the end of the game, once it is over
        self.ended: World | None = None   # the world the result is read from (before aftermath)
        # what the aftermath changed: (fighter's place in the world, field, old, new), the
        # changes a campaign keeps (game/campaign.py writes them back into warband files)
        self.aftermath: list[tuple[int, str, object, object]] = []
        # and what else it did to the warbands (run/campaign.py): the fighters struck off, the
        # equipment given and taken, the fighters hired; and each side's kept stats it changed
        # (side's place, stat, old, new)
        self.campaign = Aftermath()
        self.side_changes: list[tuple[int, str, object, object]] = []
        # whether the engine keeps the position in the turn (GameState.frames), for players
        # that look past the run a decision is in (set by play)
        self.resumable = False
        self.limit = DEFAULT_ROUNDS   # the rounds the game lasts at most (set by play)
        self.horizon: Horizon | None = None   # where a look-ahead stops (game/explore.py)
        self.board: Board = self._board()
        self.state.pieces = self.board.pieces   # (the pieces placed: part of the state)
        # (route searches count against the budget of work: run/budget.py)
        self.board.charge = lambda n: budget.spend_moving(self.interp, n)
        mobile = scenario.kept.get("mobile")   # carrying pieces: do the rules move any?
        if mobile is None:
            mobile = scenario.kept["mobile"] = pieces.carries(self.ruleset)
        self.facing = Facing(self.board, self)   # areas and facing on this board
        # units of models with places: the questions measured from models (game/formation.py)
        self.questions = (ModelQuestions if self.ruleset.has_places else Questions)(
            self.board, self.facing, mobile)
        self.formation = Formation(self.board) if self.ruleset.has_places else None
        self.interp.use_board(self.questions)   # (a run.board_view.BoardView)
        self._spots = Spots(self.board)   # spots a player may choose (game/spots.py)
        self.players = Players(self, policies,
                               options_for(self.ruleset, self.interp.compiled))
        self.movement = Movement(self, self.board)
        self.placement = Placement(self, self.board)
        # the scenario's blocks as procedures; "scenario setup" is no name a rules file can give
        # (made once per scenario: AST nodes never change)
        blocks = scenario.kept.get("procedures")
        if blocks is None:
            span = self.decl.span
            blocks = scenario.kept["procedures"] = {
                name: nodes.ProcedureDecl("phase", nodes.Ident(f"scenario {name}", span), (), None,
                                        None, None, block, span)
                for name, block in (("setup", self.decl.setup),
                                    ("round", _with_round_events(self.ruleset, self.decl.round)),
                                    ("aftermath", self.decl.aftermath))
                if block is not None}
        self.blocks: dict[str, nodes.ProcedureDecl] = blocks
        self.interp.blocks = {p.name.name: p for p in blocks.values()}
        self._fn = self.interp.fn
        self._forces: int | None = None
        # units with special models (their indices), and the forces by what they carry now
        self._gear: tuple[int, ...] = ()
        self._gear_forces: dict = {}
        self._forces_of: Callable[[World], int] | None = None
        # the end conditions, the sides' scores and values, as functions of a world (_values)
        self._end_when: list[Callable[[World], object]] | None = None
        self._scores: list[tuple[str, Callable[[World], Fraction | int]]] | None = None
        self._side_values: dict[str, Callable[[World], Fraction | float]] | None = None
        self._objectives: list[tuple[str, Callable[[World], object]]] | None = None
        # whether actions go straight to generated code (set by play): then a turn's Draft
        # passes through its activations and moves, changed in place (codegen_runtime)
        self.direct = False
        # whether a decision's player may play on past the run it is in, now: then the rules
        # run in the interpreter, which keeps the position in the turn (generated code cannot
        # be resumed in the middle), and the engine keeps its frames (set by play, running)
        self.positions = False
        self._names: dict = {}   # (activate statement, action left out) -> the actions
        self.look_ahead = LookAhead(self)   # an action's exact worth (greedy players)
        self.explorer = Explorer(self, seed)      # playing on from a decision (game/explore.py)
        self.worth = Worth(self)                  # what a position is worth (game/worth.py)

    @property
    def policies(self) -> Policies:
        return self.players.policies

    # what a game's readers ask after it (the engine itself reads its state)
    @property
    def log(self) -> GameLog:
        return self.state.log

    @property
    def round(self) -> int:
        return self.state.round

    @property
    def stuck(self) -> str | None:
        return self.state.stuck

    def _values(self) -> tuple[list, list, dict]:
        """The end conditions, the scores and the sides' values, asked of a world."""
        self._end_when = [self._value(condition, f"end {i}")
                          for i, condition in enumerate(self.decl.end_when)]
        self._scores = [(side.name, self._value(expr, f"score {side.name}"))
                        for side, expr, _ in self.decl.scores]
        # (a greedy player asks its side's value of every outcome it looks ahead to; a side
        # has one at most: a second is E202)
        self._side_values = {who.name: self._value(expr, f"value {who.name}")
                             for who, expr in self.decl.values}
        return self._end_when, self._scores, self._side_values

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
            # (a scenario without a board does not compile: E402)
            width, height, unit = cast("tuple[nodes.Expr, nodes.Expr, str]", self.decl.board)
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

    # ---- the round loop ------------------------------------------------------------------------------
    def play(self) -> GameResult:
        forces = [spec for side in self.scenario.forces for spec in side]
        if len(forces) > MAX_FIGHTERS:
            raise RulesError(diag("E403", f"a game holds at most {MAX_FIGHTERS} fighters, not "
                                          f"{len(forces)}", self.decl.span,
                                  hint="play with smaller warbands"))
        world = self.scenario.start()
        # (again here: a caller may have turned the generated code off since __init__)
        options = self.players.options = options_for(self.ruleset, self.interp.compiled)
        # players that look past the run a decision is in need the position in the turn
        self.resumable = self.positions = self.players.look_past_runs()
        self.direct = self.interp.compiled and not self.policies.per_side and \
            not self.state.log.record and not self.positions
        self._values()
        # the number of what never changes in this game's worlds: the same for every game
        kept = self.scenario.kept.get("forces")
        if kept is None or kept[0] is not options:
            kept = self.scenario.kept["forces"] = (options, options.forces(world))
        self._forces = kept[1]
        # one model with a different weapon: a unit's equipment changes as its special models
        # fall, so the options are looked up by what such units carry now (_forces_now)
        self._gear = tuple(i for i, f in enumerate(world.fighters) if "#specials" in f.values)
        self._gear_forces = {}
        self._forces_of = options.forces
        limit = self.max_rounds or (self._fn(self.decl.rounds)({}, None)
                                    if self.decl.rounds is not None else DEFAULT_ROUNDS)
        if not isinstance(limit, int) or not 1 <= limit <= MAX_ROUNDS:
            where = self.decl.rounds.span if self.decl.rounds is not None else self.decl.span
            raise RulesError(diag("E403", f"a game lasts 1 to {MAX_ROUNDS:,} rounds, not "
                                          f"{limit}", where, hint="lower the scenario's 'rounds'"))
        self.limit = int(limit)
        reason = "limit"
        state = self.state
        state.logged = world
        try:
            if "setup" in self.blocks:
                state.log.event("setup", state.round)
                world = self.run_block("setup", world)
            world = self.rounds(world)
        except GameOver as over:
            world, reason = over.world, over.reason
            if type(world) is Draft:   # (it ended in the middle of a turn)
                world = world.freeze()
            if state.log.record:
                self._log_losses(world)
        # the game's result is final before any aftermath: what a campaign's aftermath does
        # (a fighter dies of its wounds, experience) is the warband's, not the game's
        result = self.result(world, reason)
        ended = self.ended = world
        if "aftermath" in self.blocks:
            state.log.event("aftermath", state.round)
            self.resumable = False   # (the game is over: nobody looks ahead from here)
            watch = self.scenario.kept.get("removes")
            if watch is None:
                watch = self.scenario.kept["removes"] = removes(
                    self.ruleset, self.decl.aftermath)
            self.campaign.watch = watch
            self.interp.campaign = self.campaign   # (what it does to the warbands)
            try:
                world = self.run_block("aftermath", world)
            finally:
                self.interp.campaign = None
            self._log_changes(ended, world)
        self.final = world   # for whoever wants to look at the end of the game
        if state.log.record:   # with the summary: survivors, score by rule, why
            state.log.event("end", state.round, reason=reason, winner=result.winner,
                           scores={n: plain(v) for n, v in self.scores(ended).items()},
                           **log_summary.summary(self.decl, ended, self.scores(ended),
                                                 result.winner, reason))
        return result

    def run_block(self, name: str, world: World) -> World:
        """One of the scenario's blocks (setup, a round, the aftermath): the World after it."""
        if not self.resumable:
            return self.interp.run_nested(self.blocks[name], {}, world)[1]
        frames = self.state.frames
        frames.append(BlockEnd(name))
        try:
            return self.interp.run_nested(self.blocks[name], {}, world)[1]
        finally:
            frames.pop()

    def rounds(self, world: World) -> World:
        """The rounds after the state's, to the last: the World at the end (or GameOver)."""
        state = self.state
        for state.round in range(state.round + 1, self.limit + 1):
            state.log.event("round", state.round)
            state.acted = {}
            world = flow.new_round(world)   # every side's turn begins again (run/flow.py)
            world = self.round_end(self.run_block("round", world))
        return world

    def round_end(self, world: World) -> World:
        """What the engine does when a round's rules are done: the record, and the end."""
        state = self.state
        if state.log.record:
            self._log_losses(world)
        state.log.pieces(world)   # pieces as values: what the round's rules changed
        self._note_stuck(world)
        self.check_end(world)
        if self.horizon is not None:
            self.horizon.round_ends(world, state.round)
        return world

    def _log_changes(self, before: World, after: World) -> None:
        """What the aftermath changed, fighter by fighter (experience, awards)."""
        for index, (f0, f1) in enumerate(zip(before.fighters, after.fighters)):
            for name, value in f1.values.items():
                # (a unit's own values, '#models' and the like, are the game's, not the list's)
                if f0.values.get(name) != value and name[0] != "#":
                    old, new = plain(f0.values.get(name)), plain(value)
                    self.aftermath.append((index, name, old, new))
                    self.state.log.event("change", self.state.round, fighter=f1.name, field=name,
                                   old=old, new=new)
        kept = {n for n, s in self.ruleset.states.items() if s.owner == "side" and s.kept}
        for index, (s0, s1) in enumerate(zip(before.sides, after.sides)):
            for name in sorted(kept):
                if s0.values.get(name) != s1.values.get(name):
                    old, new = plain(s0.values.get(name)), plain(s1.values.get(name))
                    self.side_changes.append((index, name, old, new))
                    self.state.log.event("change", self.state.round, side=s1.name, field=name,
                                         old=old, new=new)
        record = self.campaign   # (run/campaign.py)
        for index, kind, piece in record.gear:
            self.state.log.event("change", self.state.round, fighter=after.fighters[index].name,
                                 field="equipment", old=None,
                                 new=f"{'given' if kind == 'give' else 'lost'} {piece}")
        for index in sorted(record.struck):
            self.state.log.event("change", self.state.round, fighter=after.fighters[index].name,
                                 field="on its warband's list", old=True, new=False)
        for hired in record.hired:
            self.state.log.event("change", self.state.round, side=after.sides[hired.side].name,
                                 field="hired", old=None,
                                 new=f"{hired.name} ({hired.fighter_class})")

    def run_entered(self, decl: nodes.ProcedureDecl, args: dict, world: World) -> World:
        """A marker's `when entered` block, run in the middle of a move: a decision under it
        is not played on past it (an Opaque frame)."""
        if not self.resumable:
            return self.interp.run_nested(decl, args, world)[1]
        frames = self.state.frames
        frames.append(Opaque())
        try:
            return self.interp.run_nested(decl, args, world)[1]
        finally:
            frames.pop()

    def value_after_entering(self, key, decl: nodes.ProcedureDecl, args: dict, side: int,
                             world: World) -> float:
        """A side's expected worth after a marker's `when entered` block: exactly when the
        odds engine can follow it, else the mean of TRIALS sampled runs."""
        exact = self.look_ahead.value_after(key, decl, args, side, world)
        if exact is not None:
            return exact
        return sum(self.value(self.explorer.sample_run(decl, args, world, RANDOM), side)
                   for _ in range(TRIALS)) / TRIALS

    # ---- the players that weigh (game/players.py) ---------------------------------------------------
    def point(self, side: int, kind: str, count: int, world: World,
              labels: Callable[[], list[str]], resume: Callable[[int, World], object],
              worth: Callable[[int], float | None] | None = None) -> DecisionPoint:
        """A decision here and now, as a player sees it (game/explore.py)."""
        return DecisionPoint(side, kind, count, world, labels, resume, tuple(self.state.frames),
                             self.interp.run_context(), worth)

    def weigh(self, side: int, name: str, legal: list, show: Callable, run: Callable,
              world: World) -> int:
        """A decision the rules name, by a player that weighs (run/decisions.py): the index
        of the option it takes."""
        policy = self.players.policies.for_decision(name, world.sides[side].name)
        if not weighs(policy):   # (a policy the interpreter was given as it is: greedy)
            policy = "greedy"
        point = self.point(side, name, len(legal), world,
                           lambda: [str(show(o)) for o in legal],
                           lambda i, w: run(legal[i], w))
        index = self.players.weigh(policy, point)
        return index

    def player(self, policy: str) -> Callable[[DecisionPoint], int]:
        """The player that weighs by this policy: greedy (game/greedy.py), mcts:N
        (game/search.py)."""
        runs = mcts_runs(policy)
        if runs is not None:
            return Search(self, runs)
        return Greedy(self)

    # ---- playing on from a decision, on another state (game/explore.py) ------------------------------
    @contextmanager
    def running(self, state: GameState, policies: Policies, horizon: Horizon | None):
        """Run the game on `state` with `policies` (a look-ahead's players) until `horizon`;
        then the game's own state, players and interpreter are back as they were."""
        interp, players = self.interp, self.players
        saved = (self.state, self.horizon, self.direct, self.positions, interp.rng,
                 interp.choice_rng,
                 interp.recorder, interp.policies, interp.uniform, interp.run_context(),
                 players.policies, players.randomly)
        self.state, self.horizon = state, horizon
        board = self.board.holding(state.pieces)
        interp.rng, interp.choice_rng = state.dice, state.choices
        interp.recorder = state.log if state.log.record else None
        players.use(policies)
        # (a continuation resumed runs as deep as the run it was taken from: run_cps's room)
        depth = sys.getrecursionlimit()
        sys.setrecursionlimit(max(depth, 20_000))
        # (a look-ahead's players at random: generated code; a search's tree: the interpreter)
        self.positions = self.resumable and players.look_past_runs()
        self.direct = interp.compiled and not interp.policies.per_side and \
            not state.log.record and not self.positions
        try:
            yield
        finally:
            (self.state, self.horizon, self.direct, self.positions, interp.rng,
             interp.choice_rng,
             interp.recorder, interp.policies, interp.uniform, context,
             players.policies, players.randomly) = saved
            interp.enter_context(context)
            self.board.release(board)
            sys.setrecursionlimit(depth)

    def play_on_by(self, policies: Policies) -> None:
        """A look-ahead's players from now on (a search's run that leaves its tree): when none
        of them weighs, actions go straight to generated code again, as in `running`."""
        interp, players = self.interp, self.players
        players.use(policies)
        self.positions = self.resumable and players.look_past_runs()
        self.direct = interp.compiled and not interp.policies.per_side and \
            not self.state.log.record and not self.positions

    def unwind(self, value, frames: tuple) -> World:
        """Play on past the run a decision was in, which returned `value`, through the
        frames of the turn above it (innermost last): the rest of the action, of the rules
        that activated it, of the round, and the rounds after. The World at the game's end
        (or GameOver, or a horizon's HorizonReached)."""
        state, interp = self.state, self.interp
        for frame in reversed(frames):
            state.frames.pop()
            kind = type(frame)
            if kind is ActionEnd:
                interp.enter_context(frame.context)
                result, world = value
                value = self.action_ends(frame.name, result, _world(world))
            elif kind is Then:
                interp.enter_context(frame.context)
                if frame.activation:
                    name, world = value
                    env = {**frame.env, frame.bind: name} if frame.bind is not None else \
                        frame.env
                else:
                    env, world = frame.env, value
                value = frame.next_(env, _world(world))
            elif kind is BlockEnd:
                world = _world(value[1])
                if frame.block == "setup":
                    value = self.rounds(world)
                elif frame.block == "round":
                    value = self.rounds(self.round_end(world))
                else:   # (the aftermath: the game is over)
                    value = world
            else:   # pragma: no cover - a decision under an Opaque frame is not resumed
                raise TypeError(f"cannot play on past {frame!r}")
        return value

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
        end_when = self._end_when if self._end_when is not None else self._values()[0]
        if end_when:
            for condition in end_when:
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
        out: dict[str, Fraction | int] = {name: 0 for name in self.scenario.side_names}
        for side, score in self._scores if self._scores is not None else self._values()[1]:
            out[side] = score(world)
        return out

    def casualties(self, ref: Ref, places: list, lost: int, world: World) -> list[int]:
        """Units of models with places, the owner's choice (run/host.py): the unit's side's
        player picks the models that fall, one by one (a `casualty` decision of the record,
        labelled by where each stands); one that weighs takes the one whose loss leaves its
        side's position worth most (game/worth.py)."""
        side = world.fighters[ref.index].side
        start = world.freeze() if type(world) is Draft else world
        left, gone = list(range(len(places))), list[int]()
        for _ in range(lost):
            def worth(i: int, left=tuple(left)) -> float:
                return float(self.value(without(start, ref, places, {*gone, left[i]}), side))
            index = self.players.pick(side, "casualty",
                                      [f"model at {position(places[k])}" for k in left],
                                      world, worth)
            gone.append(left.pop(index))
        return gone

    def value(self, world: World, side: int) -> float:
        """What a position is worth to a side, for the players that weigh (game/worth.py)."""
        return self.worth(world, side)

    def side_value(self, name: str) -> Callable[[World], Fraction | float] | None:
        """The scenario's `value` for a side, as a function of a World, if it has one."""
        values = self._side_values if self._side_values is not None else self._values()[2]
        return values.get(name)

    def score_margin(self, world: World, side: int) -> Fraction | int:
        """A side's score minus the best other side's."""
        scores = self.scores(world)
        name = world.sides[side].name
        return scores[name] - max((v for n, v in scores.items() if n != name), default=0)

    def result(self, world: World, reason: str) -> GameResult:
        """What the game tells the simulator, from the world at its end (before any
        aftermath): the scores and the winner, the fighters out of play, the objectives
        (game/objectives.py) it scored."""
        scores = self.scores(world)
        standing = [s.name for s in world.sides if not s.conceded]
        best = max((scores[n] for n in standing), default=None)
        leaders = [n for n in standing if scores[n] == best]
        winner = leaders[0] if len(leaders) == 1 else None
        kills: dict[str, dict[str, int]] = {n: {} for n in self.scenario.side_names}
        left: dict[str, dict[str, int]] = {n: {} for n in self.scenario.side_names}
        for f in world.fighters:
            if f.removed:   # a casualty, or one that left the table (fled, escaped)
                side = (left if f.withdrawn else kills)[world.sides[f.side].name]
                key = f.fighter_class or f.name
                side[key] = side.get(key, 0) + 1
        scored = frozenset(name for name, term in self._terms() if term(world))
        return GameResult(self.seed, tuple(self.scenario.side_names), winner,
                          {n: float(v) for n, v in scores.items()}, self.state.round, reason,
                          kills, scored, self.state.stuck, left)

    def _terms(self) -> list[tuple[str, Callable[[World], object]]]:
        """Each objective of the scores (game/objectives.py), as a function of a world."""
        found = self._objectives
        if found is None:
            found = self._objectives = [
                (o.name, self._value(o.term, f"objective {i}"))
                for i, o in enumerate(objectives(self.decl))]
        return found

    def _note_stuck(self, world: World) -> None:
        for side, (tried, took) in self.state.acted.items():
            if tried and not took and self.state.stuck is None:
                self.state.stuck = (f"round {self.state.round}: {world.sides[side].name} had fighters to "
                              "activate but no legal action for any of them")

    # ---- what the rules ask of the board -----------------------------------------------------------------
    def ask(self, name: str, args: list, world: World):
        """The board's answer to one of the rules' questions (distance, sees, ...); the rules
        themselves ask through the interpreter's q_NAME methods (questions.py)."""
        return getattr(self.questions, name)(*args, world)

    # ---- the interpreter's host: statements that need the engine (run/host.py) ----------------------------
    def statement(self, stmt, env: dict, world: World, next_):
        fn = self._fn
        match stmt:
            case nodes.Activate():
                ref = fn(stmt.fighter)(env, world)
                exclude = fn(stmt.exclude)(env, world) if stmt.exclude is not None else None
                bind = stmt.bind.name if stmt.bind is not None else None
                if self.resumable:   # (the rest of the rules after it: the position in the turn)
                    frames = self.state.frames
                    frames.append(Then(next_, env, bind, self.interp.run_context(), True))
                    try:
                        name, world = self.activate_now(stmt, ref, exclude, world)
                    finally:
                        frames.pop()
                else:
                    name, world = self.activate_now(stmt, ref, exclude, world)
                return next_({**env, bind: name} if bind is not None else env, world)
            case nodes.Travel():
                ref = fn(stmt.fighter)(env, world)
                reach = fn(stmt.distance)(env, world)
                target = fn(stmt.target)(env, world) if stmt.target is not None else None
                if self.resumable:
                    frames = self.state.frames
                    frames.append(Then(next_, env, None, self.interp.run_context(), False))
                    try:
                        world = self.travel(ref, reach, stmt.away, world, target,
                                            through_of(stmt))
                    finally:
                        frames.pop()
                    return next_(env, world)
                return next_(env, self.travel(ref, reach, stmt.away, world, target,
                                              through_of(stmt)))
            case nodes.PlaceAt():   # position as a value: where a fighter or a piece is
                at = fn(stmt.where)(env, world)
                if at is None:
                    raise RulesError(diag("E510", f"there is no place to put the "
                                                  f"{stmt.kind.name}: that position is off the "
                                                  "board", stmt.where.span,
                                          hint="ask first: if not f.removed { ... }"))
                world = self.placement.place(cast(nodes.Place, stmt), at, None, None, None,
                                             None, None, world)
                return next_(env, world)
            case nodes.TravelClear():   # moves the rules choose: not into contact
                ref = fn(stmt.fighter)(env, world)
                reach = fn(stmt.distance)(env, world)
                if self.resumable:   # (where it goes may be a player's decision)
                    frames = self.state.frames
                    frames.append(Then(next_, env, None, self.interp.run_context(), False))
                    try:
                        world = self.travel(ref, reach, False, world, CLEAR, through_of(stmt))
                    finally:
                        frames.pop()
                    return next_(env, world)
                return next_(env, self.travel(ref, reach, False, world, CLEAR, through_of(stmt)))
            case nodes.Concede(side=side):
                return next_(env, self.concede_now(fn(side)(env, world), world))
            case nodes.Deploy():
                return next_(env, self.placement.deploy(stmt, fn(stmt.side)(env, world),
                                                        fn(stmt.zone)(env, world), world))
            case nodes.BringBack():   # back into play (game/placement.py)
                return next_(env, self.placement.bring_back(stmt, fn(stmt.fighter)(env, world),
                                                            fn(stmt.zone)(env, world), world))
            case nodes.Place():
                def value(e):
                    return fn(e)(env, world) if e is not None else None

                def point(p):
                    return (value(p.x), value(p.y)) if p is not None else None
                world = self.placement.place(stmt, point(stmt.at), point(stmt.to),
                                             value(stmt.count), value(stmt.zone),
                                             value(stmt.apart), value(stmt.by), world)
                return next_(env, world)
        raise TypeError(f"unknown game statement {stmt!r}")  # pragma: no cover

    def travel(self, ref: Ref, reach, away: bool, world: World, target=None,
               through: str | None = None) -> World:
        return self.movement.travel(ref, reach, away, world, target, through)

    def deploy_now(self, stmt: nodes.Deploy, side: Ref, zone_name: str, world: World) -> World:
        return self.placement.deploy(stmt, side, zone_name, world)

    def bring_back_now(self, stmt: nodes.BringBack, ref: Ref, zone_name: str,
                       world: World) -> World:
        """Back into play (generated code's way in): game/placement.py."""
        return self.placement.bring_back(stmt, ref, zone_name, world)

    def place_now(self, stmt: nodes.Place, at, to, count, zone_name, apart, by,
                  world: World) -> World:
        return self.placement.place(stmt, at, to, count, zone_name, apart, by, world)

    def blocked(self, at) -> bool:
        """Moving a piece: whether nothing may lie there (off the board, on an impassable
        piece)."""
        return self.board.blocked(at)

    def spots(self, centre, reach, world: World, every: bool) -> list:
        """A spot on the board: game/spots.py."""
        return self._spots.spots(centre, reach, world, every)

    def spot_fits(self, centre, reach, spot) -> bool:
        return self._spots.fits(centre, reach, spot)

    def note_moved(self, label: str, at) -> None:
        """Moving a piece: the log tells it as the piece placed anew, "beacon 2 placed at
        (12, 9)" (the record has no event of its own for it yet)."""
        self.state.log.event("place", self.state.round, marker=label, at=point(at))

    def concede_now(self, ref: Ref, world: World) -> World:
        self.state.log.event("concede", self.state.round, side=world.sides[ref.index].name)
        world = world.concede(ref.index)
        self.check_end(world)
        return world

    def activate_now(self, stmt: nodes.Activate, ref: Ref, exclude, world: World,
                     generated: bool = False) -> tuple[str, World]:
        """One activation: (the name of the action taken, or "none"; the world after it).
        `generated`: asked by a generated sampled run (the turn), whose policies the action's
        own generated run shares. Its work (the options checked, the look-ahead, the action)
        has a budget of its own, whatever else the round has done (run/budget.py)."""
        if self.horizon is not None:   # a look-ahead that stops before the next activation
            self.horizon.activation(world, ref.index)
        interp, log = self.interp, self.state.log
        # the fighter whose action runs removes whom it removes (the rules' `remove` with no
        # `by`), in the look-ahead as in the action itself; a recorded game credits it with
        # the rolls of its action the rules do not credit to another, and no later ones
        acting, interp.acting = interp.acting, ref
        actor, acting_with = log.actor, interp.acting_with
        try:
            with budget.part(interp):
                return self._activation(stmt, ref, exclude, world, generated)
        finally:
            interp.acting, log.actor, interp.acting_with = acting, actor, acting_with

    def _forces_now(self, world) -> int:
        """The number of what never changes of the fighters (game/options.py), for a world whose
        units with special models carry what they carry now: one per set of what they carry."""
        key = tuple([world.fighters[i].equipment for i in self._gear])
        found = self._gear_forces.get(key)
        if found is None:
            assert self._forces_of is not None   # (set with _gear, when the game starts)
            found = self._gear_forces[key] = self._forces_of(world)
        return found

    def _log_losses(self, world: World) -> None:
        """Models lost and fighters out of play since the record last looked: after each
        action, and before each activation and at each round's end for what the rules of a
        phase or a round did themselves (a fighter that flees in a morale phase)."""
        if type(world) is Draft:   # (changed in place: what is kept must not change after)
            world = world.freeze()
        before, self.state.logged = self.state.logged, world
        if before is None or before is world:
            return
        for f0, f1 in zip(before.fighters, world.fighters):
            lost = f0.values.get("#models", 0) - f1.values.get("#models", 0)
            if lost > 0 and f1.values["#models_start"] > 1:   # a unit lost models
                self.state.log.event("models", self.state.round, fighter=f1.name,
                               side=world.sides[f1.side].name, lost=lost,
                               left=f1.values["#models"], start=f1.values["#models_start"])
                if "#specials" in f1.values:   # which special models fell, with their pieces
                    for (piece, _), n0, n1 in zip(f1.values["#specials"],
                                                  f0.values["#special_left"],
                                                  f1.values["#special_left"]):
                        if n1 != n0:
                            self.state.log.event("change", self.state.round, fighter=f1.name,
                                           field=f"models carrying {piece}", old=n0, new=n1)
            if f1.removed and not f0.removed:   # a casualty, or one that left the table
                self.state.log.event("withdrawn" if f1.withdrawn else "removed", self.state.round,
                               fighter=f1.name, side=world.sides[f1.side].name,
                               **removal_by(world, f1))

    def _activation(self, stmt: nodes.Activate, ref: Ref, exclude, world: World,
                    generated: bool) -> tuple[str, World]:
        if self.state.log.record:   # what the rules did before this activation, where it happened
            self._log_losses(world)
        fighter = world.fighters[ref.index]
        if fighter.removed or flow.turn_over(world, fighter.side):   # (turn flow: end turn)
            return "none", world
        names = self._names.get((id(stmt), exclude))
        if names is None:
            names = [i.name for i in stmt.using] or [p.name.name for p in self.ruleset.actions()]
            names = self._names[(id(stmt), exclude)] = tuple(n for n in names if n != exclude)
        side_name = world.sides[fighter.side].name
        players = self.players
        randomly = players.plays_at_random(side_name)
        forces = self._forces_now(world) if self._gear else self._forces
        if randomly:   # a random player: one legal option, found without testing them all
            chosen = players.random_option(ref, names, world, forces)
            options = [chosen] if chosen is not None else []
        else:
            if type(world) is Draft:   # a player who may look ahead needs a World
                world = world.freeze()
            options = players.legal(ref, names, world, forces)
        acted = self.state.acted.get(fighter.side)
        if acted is None:
            acted = self.state.acted[fighter.side] = [0, 0]
        acted[0] += 1
        if not options:
            if self.state.log.record:   # which requirement each action failed
                self.state.log.event("idle", self.state.round, fighter=fighter.name,
                               why=log_summary.cannot_act(self.interp, ref, names, world))
            return "none", world
        acted[1] += 1
        if randomly:
            index = 0
            if self.state.log.record:
                name, args = options[0]
                self.state.log.decided("action", side_name,
                                       option_label(name, pieces.labelled(args, world), world))
        else:
            frozen = world
            index = players.pick(fighter.side, "action",
                                 lambda: [option_label(name, pieces.labelled(args, frozen),
                                                       frozen) for name, args in options],
                                 frozen, lambda i: self.look_ahead.action_value(
                                     options[i], fighter.side, frozen),
                                 count=len(options),
                                 resume=lambda i, w: self.act(ref, options[i], w, False))
        return self.act(ref, options[index], world, generated)

    def act(self, ref: Ref, option: tuple[str, dict], world: World,
            generated: bool) -> tuple[str, World]:
        """An activated fighter takes an action: (its name, the World after it)."""
        name, args = option
        interp, state = self.interp, self.state
        log = state.log
        # (the fighters the action is taken on: a recorded game tells a step on any other)
        interp.acting_with = tuple(v for v in args.values() if isinstance(v, Ref))
        if log.record:
            fighter = world.fighters[ref.index]
            log.event("activate", state.round, fighter=fighter.name,
                      side=world.sides[fighter.side].name,
                      action=option_label(name, pieces.labelled(args, world), world))
        before = world if log.record else None
        if self.resumable:   # (what is left of the activation once the action is done)
            state.frames.append(ActionEnd(name, interp.run_context()))
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
            if self.resumable:
                state.frames.pop()
        return self.action_ends(name, result, world, before)

    def action_ends(self, name: str, result, world: World,
                    before: World | None = None) -> tuple[str, World]:
        """What the engine does when an action is done: the record, and the end."""
        log = self.state.log
        if result is not None and log.record:
            log.event("result", self.state.round, action=name, value=plain(result))
        if before is not None:   # who the action took out of play, for whoever reads the record
            self._log_losses(world)
            log.pieces(world)   # pieces as values: what the action changed of them
        self.check_end(world)
        return name, world
