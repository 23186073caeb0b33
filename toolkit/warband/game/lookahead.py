"""How a greedy player in a game sees ahead: exactly when that is cheap, else by trial runs.

A greedy player values each action it may take (and, inside an action, each option of a
decision) by its expected outcome. It first follows the future exactly, as the interpreter's
exact mode does (expectimax), within a small budget of steps and outcomes. Exact look-ahead
costs tens of microseconds a step, and a Swords Against Sorcery exchange, with its hands and
allocations, has tens of thousands of steps: following every exchange exactly made a greedy
game last a minute, and a gang's look-ahead ran past any budget (E504). So beyond the budget
the player estimates instead: it plays the rest TRIALS times, choosing at random, and takes
the mean. Once a look-ahead has proved too big, the same action or decision is estimated
straight away for the rest of the game; a failed exact attempt costs the whole budget.

Trials draw from the look-ahead's own seeded dice and choices, and record nothing: the game's
dice and choices are the same whatever the players think, so the seed still fixes the game
and a replay (whose choices come from the log, with no look-ahead) sees the same dice.
"""

from __future__ import annotations

import random
from contextlib import contextmanager
from typing import TYPE_CHECKING

from warband.game.gamelog import GameLog
from warband.run import budget
from warband.run.decisions import Policies
from warband.run.evaluate import RulesError

if TYPE_CHECKING:
    from warband.game.engine import Game

LOOK_AHEAD = 2_000   # steps and outcomes followed exactly for one action or one decision
TRIALS = 24          # trial runs per option when the future is too big to follow exactly


class LookAhead:
    """A game's greedy look-ahead (one per game)."""

    def __init__(self, game: Game, seed: int) -> None:
        self.game, self.interp, self.seed = game, game.interp, seed
        self.too_big: set = set()   # actions and decisions estimated from now on
        # made by the first trials (most games have none)
        self.dice: random.Random | None = None
        self.choices: random.Random | None = None
        self.policies = Policies("random")
        self.randomly: dict = {}    # the game's cache of who plays at random, for the trials

    def exactly(self, key, follow):
        """follow() within the budget, or None (and key is remembered) when it runs out."""
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
            self.too_big.add(key)
            return None
        finally:
            interp.max_branches = most

    @contextmanager
    def trials(self):
        """Sampled runs that leave the game as it was: their own dice and random choices,
        nothing logged or recorded, the generated code for the random policy."""
        game, players, interp = self.game, self.game.players, self.interp
        if self.dice is None or self.choices is None:   # (seeding a Random costs as much as a few actions)
            self.dice = random.Random(f"look-ahead dice {self.seed}")
            self.choices = random.Random(f"look-ahead choices {self.seed}")
        saved = (interp.rng, interp.choice_rng, players.choice_rng, interp.policies,
                 players.policies, players.randomly, game.log, interp.recorder, interp.uniform)
        interp.rng, interp.choice_rng = self.dice, self.choices
        players.choice_rng = self.choices
        interp.policies = players.policies = self.policies
        players.randomly, game.log, interp.recorder = self.randomly, GameLog(), None
        facing = game.facing.ways   # (the trials' moves turn fighters in a copy of their own)
        game.facing.ways = dict(facing)
        try:
            yield
        finally:
            game.facing.ways = facing
            (interp.rng, interp.choice_rng, players.choice_rng, interp.policies,
             players.policies, players.randomly, game.log, interp.recorder,
             interp.uniform) = saved

    # ---- what the engine and the interpreter ask ---------------------------------------------------
    def action_value(self, option, side: int, world) -> float:
        """What taking an action is worth to a side: the mean of the position after it."""
        name, args = option
        return self.value_after(name, self.game.ruleset.procedures[name], args, side, world)

    def value_after(self, key, decl, args: dict, side: int, world) -> float:
        """The mean of a side's value after running decl (an action, or what a marker does to
        whoever enters it) from this world."""
        game, interp = self.game, self.interp
        interp.in_action += 1
        try:
            dist = self.exactly(key, lambda: interp.run_nested(
                decl, args, world, exact=True, observe=lambda w: game.value(w, side)))
            if dist is not None:
                return float(dist.mean_of(lambda pair: pair[1]))
            with self.trials():
                total = sum(float(game.value(self.trial(decl, args, world)[1], side))
                            for _ in range(TRIALS))
            return total / TRIALS
        finally:
            interp.in_action -= 1

    def trial(self, decl, args: dict, world):
        """One sampled run of a look-ahead's trials, with a budget of work of its own."""
        with budget.part(self.interp):
            return self.interp.run_nested(decl, args, world)

    def best_option(self, name: str, legal: list, run, world, sign: int):
        """The option of a decision in a sampled action with the best expected score for the
        side deciding (sign -1: the other side's decision); run(option, world) plays on."""
        interp = self.interp
        found = self.exactly(("decision", name),
                             lambda: interp.look_ahead(legal, run, world, sign)[0])
        if found is not None:
            return found
        score = interp.score   # (the action's: a trial's own nested runs set and restore it)
        best, best_value = None, None
        with self.trials():
            for option in legal:
                value = 0
                for _ in range(TRIALS):
                    with budget.part(interp):
                        value += sign * score(run(option, world)[0])
                if best_value is None or value > best_value:
                    best, best_value = option, value
        return best
