"""How players look ahead: an option of a decision played on, on a copy of the game's state.

A decision in a game is a DecisionPoint: who decides, what (an action, where to move, a
decision the rules name), how many options, and how to go on with each: the continuation of
the run the decision is in (run/interpreter.py runs rules in continuation-passing style), and
the frames of the turn above that run (game/state.py). Playing option i on means calling that
continuation on a clone of the game's state, then unwinding the frames (Game.unwind): the rest
of the action, the rest of the round, the rounds after, until a Horizon stops it or the game
ends. The game's own state is set aside meanwhile and put back after (Game.running), so a
look-ahead changes nothing of the game: not its dice, not its record, not its facing.

The look-ahead draws its dice and its random choices from streams of its own, seeded from the
game's seed: the game's own dice are the same whatever its players think, so the seed fixes
the game, and a replay (whose choices come from the record) sees the same dice.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable

from warband.game.gamelog import GameLog
from warband.game.state import ActionEnd, GameOver, resumable
from warband.run import budget
from warband.run.codegen.runtime import Draft
from warband.run.decisions import Policies
from warband.run.world import World

if TYPE_CHECKING:
    from warband.game.engine import Game


class HorizonReached(Exception):
    """A look-ahead has gone as far as it was to go: the World there."""

    def __init__(self, world: World) -> None:
        super().__init__("horizon")
        self.world = world


@dataclass(slots=True)
class Horizon:
    """Where a look-ahead stops: before the `activations`-th activation after the decision,
    or when round `last_round` ends, whichever comes first (None: no such limit); with
    `action_end`, also at the end of the action the decision is in (or, for the choice of an
    action, of the action it takes), before the rules that activated it go on; the
    activations of `fighter` (a fighter's index) do not count: what is left of its own turn
    (a second action) is played within the horizon. The end of the game stops it anyway."""

    activations: int | None = None
    last_round: int | None = None
    action_end: bool = False
    fighter: int | None = None

    def activation(self, world: World, fighter: int) -> None:
        if self.activations is not None and fighter != self.fighter:
            if self.activations <= 0:
                raise HorizonReached(world)
            self.activations -= 1

    def round_ends(self, world: World, round_: int) -> None:
        if self.last_round is not None and round_ >= self.last_round:
            raise HorizonReached(world)


@dataclass(slots=True)
class DecisionPoint:
    """A decision in a game, as a player sees it."""

    side: int             # the side deciding (its index in the World)
    kind: str             # "action", "destination", or the name of a decision in the rules
    count: int            # how many options
    world: World          # the World at the decision
    labels: Callable[[], list[str]]   # the options' labels, as the record writes them
    # option i's continuation: what the run the decision is in returns once i is taken
    resume: Callable[[int, World], Any]
    frames: tuple         # the frames of the turn above that run (game/state.py)
    context: tuple        # the interpreter's, at the decision (Interpreter.run_context)
    # option i's worth, worked out otherwise (an action's exact odds: game/lookahead.py), or
    # None when only playing on can tell
    worth: Callable[[int], float | None] | None = None

    @property
    def resumable(self) -> bool:
        """Whether the game can play on from here past the run the decision is in."""
        return resumable(self.frames)


class Explorer:
    """A game's look-ahead runs (one per game)."""

    def __init__(self, game: Game, seed: int) -> None:
        self.game, self.seed = game, seed
        self.dice: random.Random | None = None      # made by the first look-ahead
        self.choices: random.Random | None = None
        self.runs = 0   # look-ahead runs made (a deterministic count of the work: see players.md)

    def streams(self) -> tuple[random.Random, random.Random]:
        if self.dice is None or self.choices is None:   # (seeding costs as much as an action)
            self.dice = random.Random(f"look-ahead dice {self.seed}")
            self.choices = random.Random(f"look-ahead choices {self.seed}")
        return self.dice, self.choices

    def play_on(self, point: DecisionPoint, option: int, policies: Policies,
                horizon: Horizon) -> World:
        """Take `option` at `point` and play on with `policies` (the look-ahead's players)
        until `horizon` or the game's end, on a copy of the game's state: the World there."""
        game, interp = self.game, self.game.interp
        dice, choices = self.streams()
        state = game.state.clone(dice=dice, choices=choices, log=GameLog())
        # (under a frame the game cannot resume, the run the decision is in is all there is)
        past = point.resumable
        state.frames = list(point.frames) if past else []
        self.runs += 1
        world: World | Draft
        with game.running(state, policies, horizon):
            interp.enter_context(point.context)
            try:
                with budget.part(interp):
                    value = point.resume(option, point.world)
                    frames = _to_action_end(point.frames) if horizon.action_end else \
                        point.frames
                    world = _world_of(game.unwind(value, frames)) if past and frames else \
                        _world_of(value)
            except GameOver as over:
                world = over.world
            except HorizonReached as reached:
                world = reached.world
        return world.freeze() if isinstance(world, Draft) else world

    def sample_run(self, decl, args: dict, world: World, policies: Policies) -> World:
        """One sampled run of decl (a marker's `when entered` block) from `world`, on a copy
        of the game's state: the World after it."""
        game, interp = self.game, self.game.interp
        dice, choices = self.streams()
        state = game.state.clone(dice=dice, choices=choices, log=GameLog())
        state.frames = []
        self.runs += 1
        with game.running(state, policies, None):
            try:
                with budget.part(interp):
                    world = interp.run_nested(decl, args, world)[1]
            except GameOver as over:
                world = over.world
        return world.freeze() if isinstance(world, Draft) else world


def _to_action_end(frames: tuple) -> tuple:
    """The frames up to the end of the innermost action (none for a decision outside every
    action: the choice of an action, whose run is the action)."""
    for i in range(len(frames) - 1, -1, -1):
        if type(frames[i]) is ActionEnd:
            return frames[i:]
    return ()


def _world_of(value) -> World | Draft:
    """The World a run gave back (or the Draft a turn of generated code changes in place): a
    World, or (its result, a World)."""
    return value if isinstance(value, (World, Draft)) else value[1]
