"""An action's exact worth, for a greedy player: the odds engine follows it when that is cheap.

Greedy weighs an action by the expected worth of the position after it (game/greedy.py). It
first follows the action exactly, as the interpreter's exact mode does (expectimax), within a
small budget of steps and outcomes: exact look-ahead costs tens of microseconds a step, and a
Swords Against Sorcery exchange, with its hands and allocations, has tens of thousands of
steps. Beyond the budget, or where the action moves a fighter or places a piece (which only
the game can play: NeedsTheGame), the player plays the action on instead, by sampling
(game/explore.py). Once a look-ahead has proved too big, the same action is sampled straight
away for the rest of the game: a failed exact attempt costs the whole budget.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from warband.run import budget
from warband.run.errors import NeedsTheGame
from warband.run.evaluate import RulesError

if TYPE_CHECKING:
    from warband.game.engine import Game

LOOK_AHEAD = 2_000   # steps and outcomes followed exactly for one action


class LookAhead:
    """A game's exact look-ahead (one per game)."""

    def __init__(self, game: Game) -> None:
        self.game, self.interp = game, game.interp
        self.too_big: set = set()   # actions sampled from now on

    def exactly(self, key, follow):
        """follow() within the budget, or None (and key is remembered) when it runs out or
        meets what only the game can play."""
        if key in self.too_big:
            return None
        interp = self.interp
        most, interp.max_branches = interp.max_branches, LOOK_AHEAD
        try:
            with budget.part(interp):   # (a budget of work of its own: run/budget.py)
                return follow()
        except RulesError as error:
            if error.diagnostic.code != "E504":
                raise
        except NeedsTheGame:
            pass
        finally:
            interp.max_branches = most
        self.too_big.add(key)
        return None

    def action_value(self, option, side: int, world) -> float | None:
        """What taking an action is worth to a side, exactly: the mean of the position after
        it; None when it cannot be followed exactly."""
        name, args = option
        return self.value_after(name, self.game.ruleset.procedures[name], args, side, world)

    def value_after(self, key, decl, args: dict, side: int, world) -> float | None:
        """The mean of a side's worth after running decl (an action, or what a marker does
        to whoever enters it) from this world, exactly; None when it cannot be followed."""
        game, interp = self.game, self.interp
        interp.in_action += 1
        try:
            dist = self.exactly(key, lambda: interp.run_nested(
                decl, args, world, exact=True, observe=lambda w: game.value(w, side)))
        finally:
            interp.in_action -= 1
        return None if dist is None else float(dist.mean_of(lambda pair: pair[1]))
