"""A game's state: everything its future depends on, as one value with a cheap clone().

The World holds what the rules change (fighters, sides, pieces); the rest is here: the round,
the two random streams (dice, and players' random choices), the fighters' facing, what each
side has done this round, the pieces placed on the board (the Board reads them, and keeps
what it works out from them), the record being written, and the position in the turn (`frames`):
what is left to run of the rules above the statement running now. A game's engine
(game/engine.py) runs on one GameState at a time, `Game.state`; a player looking ahead runs the
game on a clone (game/explore.py) and the game's own state is untouched.

The position in the turn. Rules run in continuation-passing style (run/interpreter.py): at a
decision, "the rest of the procedure" is a function of the option and the World, and can be
called again with another option. Above that run the engine has its own work still to do:
when a fighter's action ends, the game checks whether it is over and goes on with the rules
that activated it (the rest of the round, itself a continuation), then the rounds after. Each
of these is a frame, pushed when the engine enters it and popped when it leaves: ActionEnd
around an action, Then around a game statement (the rules' continuation after it), BlockEnd
around a scenario's block. A decision point is the option's continuation, the World and these
frames; resuming it with an option plays the rest of the game from there (Game.resume).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field, replace
from typing import Any, Callable

from warband.game.gamelog import GameLog
from warband.run.world import World


@dataclass(frozen=True, slots=True)
class Then:
    """The rules' own continuation after a game statement (activate, travel): next_(env,
    world), run with the interpreter as it was (`context`); `bind` names the action taken
    (`activate f as taken`)."""

    next_: Callable[[dict, World], Any]
    env: dict
    bind: str | None
    context: tuple
    activation: bool   # after `activate`, given (action's name, World); after `travel`, a World


@dataclass(frozen=True, slots=True)
class ActionEnd:
    """The end of an activated fighter's action: the game may be over."""

    name: str
    context: tuple


@dataclass(frozen=True, slots=True)
class BlockEnd:
    """The end of a scenario's setup or of a round: the rounds after it."""

    block: str


@dataclass(frozen=True, slots=True)
class Opaque:
    """Engine work that cannot be resumed from inside (a marker's `when entered` block, run
    in the middle of a move): a decision under it is made without looking past its run."""


Frame = Then | ActionEnd | BlockEnd | Opaque


def resumable(frames) -> bool:
    """Whether a decision under these frames can be played on past the run it is in (not
    from inside a marker's `when entered` block, which a move runs)."""
    return bool(frames) and all(type(f) is not Opaque for f in frames)


class GameOver(Exception):
    """The game is over (raised by the engine after an action, a round, a concession)."""

    def __init__(self, world: World, reason: str) -> None:
        super().__init__(reason)
        self.world, self.reason = world, reason


def copy_random(stream: random.Random) -> random.Random:
    """A Random that draws what `stream` would draw from now on (a state copy, ~2.5 KB)."""
    copy = random.Random()
    copy.setstate(stream.getstate())
    return copy


@dataclass(slots=True)
class GameState:
    """Everything a game's future depends on, beside the World (see the module docstring)."""

    dice: random.Random
    choices: random.Random
    log: GameLog
    round: int = 0
    facing: dict = field(default_factory=dict)   # fighter's index -> the way it faces
    acted: dict = field(default_factory=dict)    # side -> [activations, actions] this round
    stuck: str | None = None    # the first activation with no legal action, said once
    frames: list = field(default_factory=list)   # the position in the turn, innermost last
    logged: World | None = None   # the World the record has told the losses of
    pieces: list = field(default_factory=list)   # the pieces placed on the board, in order

    def clone(self, dice: random.Random | None = None, choices: random.Random | None = None,
              log: GameLog | None = None) -> GameState:
        """An independent copy: the streams copied (or the ones given: a look-ahead's own
        dice), the dicts and the frames copied; the World and the frames' continuations are
        never changed, so they are shared."""
        return replace(self, dice=dice or copy_random(self.dice),
                       choices=choices or copy_random(self.choices),
                       log=log if log is not None else self.log,
                       facing=dict(self.facing),
                       acted={k: list(v) for k, v in self.acted.items()},
                       frames=list(self.frames), pieces=list(self.pieces))
