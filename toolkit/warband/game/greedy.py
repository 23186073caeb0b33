"""The greedy player: every decision it makes, weighed by the worth of the position after it.

Which action, how many dice, whether to spend a token on a roll, how far to move and where,
whom to target, which hand to play, what to do in a morale check: greedy takes the option with
the best expected worth (game/worth.py) of the position once the decision has played out. The
horizon is the end of the fighter's activation: the rest of the action, or, for a decision
between actions (a phase's, a morale check's), the rest of the rules up to the next
activation or the end of the round; the end of the game stops it sooner.

Exactly where the odds engine can: an action is followed exactly within a small budget
(game/lookahead.py). Otherwise each option is played on TRIALS times from a copy of the game's
state (game/explore.py), the rest decided at random, and the worths are averaged: TRIALS
runs an option, each within the budget of work of one action (run/budget.py). A destination
is weighed by the worth of standing there (a square or a way to go in inches can be dozens of
options a move), and a marker's `when entered` block by its odds or by trials.

Greedy looks no further than its own activation: it does not see the enemy's reply. That is
what `mcts` is for (game/search.py).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from warband.game.explore import DecisionPoint, Horizon
from warband.run.decisions import Policies

if TYPE_CHECKING:
    from warband.game.engine import Game

TRIALS = 24   # runs an option is played on when it cannot be followed exactly
RANDOM = Policies("random")   # how the rest is decided while playing an option on


class Greedy:
    """A greedy player of a game (the same for every side that plays greedily)."""

    def __init__(self, game: Game) -> None:
        self.game = game

    def __call__(self, point: DecisionPoint) -> int:
        best, best_worth = 0, None
        for option in range(point.count):
            worth = point.worth(option) if point.worth is not None else None
            if worth is None:
                worth = self.sampled(point, option)
            if best_worth is None or worth > best_worth:
                best, best_worth = option, worth
        return best

    def sampled(self, point: DecisionPoint, option: int) -> float:
        """The mean worth, over TRIALS runs, of the position at the end of the activation
        after taking `option`."""
        game = self.game
        explorer, value, side, round_ = game.explorer, game.value, point.side, game.state.round
        total = 0.0
        for _ in range(TRIALS):
            world = explorer.play_on(point, option, RANDOM, Horizon(0, round_))
            total += value(world, side)
        return total / TRIALS
