"""The greedy player: every decision it makes, weighed by the worth of the position after it.

Which action, how many dice, whether to spend a token on a roll, how far to move and where,
whom to target, which hand to play, what to do in a morale check: greedy takes the option with
the best expected worth (game/worth.py) of the position once the decision has played out. The
horizon is the end of an activation: for a decision inside an action, the rest of that action
and the rules up to the next activation; for a decision between actions (which fighter goes
next, a phase's token, a morale check), through the next activation to the one after; the end
of the round or of the game stops it sooner.

Exactly where the odds engine can: an action is followed exactly within a small budget
(game/lookahead.py). Otherwise each option is played on TRIALS times from a copy of the game's
state (game/explore.py), the rest decided at random, and the worths are averaged: TRIALS
runs an option, each within the budget of work of one action (run/budget.py). Every option of
a decision is played on with the same dice, trial by trial (common random numbers): options
are compared on equal luck, so twelve trials tell apart what forty would by chance. A destination
is weighed by the worth of standing there (a square or a way to go in inches can be dozens of
options a move), and a marker's `when entered` block by its odds or by trials.

Greedy looks no further than its own activation: it does not see the enemy's reply. That is
what `mcts` is for (game/search.py).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from warband.game.explore import DecisionPoint, Horizon
from warband.game.state import ActionEnd
from warband.run.decisions import Policies

if TYPE_CHECKING:
    from warband.game.engine import Game

TRIALS = 12   # runs an option is played on when it cannot be followed exactly
RANDOM = Policies("random")   # how the rest is decided while playing an option on


class Greedy:
    """A greedy player of a game (the same for every side that plays greedily)."""

    def __init__(self, game: Game) -> None:
        self.game = game

    def __call__(self, point: DecisionPoint) -> int:
        # every option is played on with the same dice (common random numbers): the options
        # are compared on the same luck, so a few trials tell them apart
        dice, choices = self.game.explorer.streams()
        luck = (dice.getstate(), choices.getstate())
        best, best_worth = 0, None
        for option in range(point.count):
            worth = point.worth(option) if point.worth is not None else None
            if worth is None:
                worth = self.sampled(point, option, luck)
            if best_worth is None or worth > best_worth:
                best, best_worth = option, worth
        return best

    def sampled(self, point: DecisionPoint, option: int, luck: tuple | None = None) -> float:
        """The mean worth, over TRIALS runs, of the position at the end of the activation
        after taking `option` (a decision between actions, such as which fighter goes next:
        at the end of the next activation); `luck`, the look-ahead's streams to start from."""
        game = self.game
        explorer, value, side, round_ = game.explorer, game.value, point.side, game.state.round
        if luck is not None:
            dice, choices = explorer.streams()
            dice.setstate(luck[0])
            choices.setstate(luck[1])
        inside = any(type(frame) is ActionEnd for frame in point.frames)
        total = 0.0
        for _ in range(TRIALS):
            world = explorer.play_on(point, option, RANDOM,
                                     Horizon(0 if inside else 1, round_))
            total += value(world, side)
        return total / TRIALS
