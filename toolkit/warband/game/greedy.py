"""The greedy player: every decision it makes, weighed by the worth of the position after it.

Which action, how many dice, whether to spend a token on a roll, how far to move and where,
whom to target, which hand to play, what to do in a morale check, where to set up: greedy
takes the option with the best expected worth (game/worth.py) of the position once the decision
has played out. The horizon (`horizon`): for a decision inside an action, the end of that
action (what the exact look-ahead follows too); for the choice of an action, the end of the
fighter's turn (a second action included); for a decision between activations (which fighter
goes next, a phase's token, a morale check), through the next activation to the one after; the
end of the round or of the game stops it sooner.

Exactly where the odds engine can: an action is followed exactly within a small budget
(game/lookahead.py). Otherwise the options race: each is played on from a copy of the game's
state (game/explore.py), the rest decided at random, at most TRIALS times, each run within the
budget of work of one action (run/budget.py). Every option's trial t is played with the same
dice (common random numbers), so options are compared on equal luck; the race looks at the
trials so far after each of STAGES: a race whose options have led to the same worths in every
trial so far ends there, and from CUT_FROM trials on an option clearly worse than the leader,
trial by trial, leaves the race. A destination is weighed by the worth of standing there (a
square or a way to go in inches can be dozens of options a move), a place to set up by the
worth once set up there (game/players.py), and a marker's `when entered` block by its odds or
by trials.

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

TRIALS = 12   # the most runs an option is played on when it cannot be followed exactly
STAGES = (4, 8, TRIALS)   # the race looks at the trials so far after this many
CUT_FROM = 4  # the fewest trials an option is cut on (fewer tell too little of the spread)
CUT = 2.0     # an option leaves the race when its mean difference from the leader's, trial by
              # trial, is below zero by more than CUT standard errors
RANDOM = Policies("random")   # how the rest is decided while playing an option on


class Greedy:
    """A greedy player of a game (the same for every side that plays greedily)."""

    def __init__(self, game: Game) -> None:
        self.game = game

    def __call__(self, point: DecisionPoint) -> int:
        estimates = self.estimates(point)
        # the best mean among the options left in the race; the first of equals
        return max(estimates, key=lambda option: (estimates[option], -option))

    def estimates(self, point: DecisionPoint) -> dict[int, float]:
        """The expected worth of each option greedy has not ruled out (a search starts from
        them: game/search.py)."""
        known = [point.worth(option) if point.worth is not None else None
                 for option in range(point.count)]
        worths = self.race(point, known) if None in known else \
            {option: [worth] for option, worth in enumerate(known) if worth is not None}
        return {option: sum(trials) / len(trials) for option, trials in worths.items()}

    def race(self, point: DecisionPoint, known: list[float | None]) -> dict[int, list[float]]:
        """The options still in the race when it ends, each with its worths trial by trial
        (an exactly known worth stands for itself in every trial).

        Every option's trial t is played with the same dice (common random numbers), so two
        options are compared on the same luck: their difference trial by trial is what tells
        them apart. At each of STAGES the race ends when the options have had the same worths
        in every trial so far (the decision changes nothing a horizon away); from CUT_FROM
        trials on, an option whose difference from the leader is clearly below zero leaves
        it, and it ends when one option is left; else after TRIALS trials."""
        dice, _ = self.game.explorer.streams()
        seeds = [dice.getrandbits(64) for _ in range(TRIALS)]
        worths: dict[int, list[float]] = {option: [] for option in range(point.count)}
        done = 0
        for upto in STAGES:
            for option, trials in worths.items():
                worth = known[option]
                trials.extend([worth] * (upto - done) if worth is not None else
                              (self.trial(point, option, seeds[t]) for t in range(done, upto)))
            done = upto
            if done == TRIALS:
                return worths
            first = next(iter(worths.values()))
            if all(trials == first for trials in worths.values()):
                return {min(worths): first}
            if done >= CUT_FROM:
                worths = _survivors(worths, done)
                if len(worths) == 1:
                    return worths
        return worths

    def trial(self, point: DecisionPoint, option: int, seed: int) -> float:
        """The worth of the position at the horizon (`horizon`) after taking `option`, played
        on at random with the look-ahead's streams seeded by `seed`."""
        game = self.game
        dice, choices = game.explorer.streams()
        dice.seed(seed)
        choices.seed(seed ^ 0x5DEECE66D)
        acting = game.interp.acting
        world = game.explorer.play_on(point, option, RANDOM, horizon(
            point, game.state.round, acting.index if acting is not None else None))
        return game.value(world, point.side)


def horizon(point: DecisionPoint, round_: int, acting: int | None = None) -> Horizon:
    """How far an option is played on: for a decision inside an action, to the end of the
    action (what the exact look-ahead follows, too); for the choice of an action, to the end
    of the fighter's turn (`acting`: its index), a second action included, before another
    fighter's activation begins; for a decision between activations (which fighter goes next, a
    phase's token), through the next activation. The end of the round stops it sooner."""
    if any(type(frame) is ActionEnd for frame in point.frames):
        return Horizon(0, round_, action_end=True)
    if point.kind == "action" and acting is not None:
        return Horizon(0, round_, fighter=acting)
    return Horizon(1, round_)


def _survivors(worths: dict[int, list[float]], trials: int) -> dict[int, list[float]]:
    """The options still in the race after `trials` trials: the leader (the best mean, the
    first of equals) and every option not clearly worse than it, trial by trial."""
    leader = max(worths, key=lambda option: (sum(worths[option]), -option))
    ahead = worths[leader]
    kept = {}
    for option, trials_ in worths.items():
        differences = [mine - theirs for mine, theirs in zip(trials_, ahead)]
        mean = sum(differences) / trials
        spread = (sum((d - mean) ** 2 for d in differences) / trials) ** 0.5
        if option == leader or mean + CUT * spread / trials ** 0.5 >= 0:
            kept[option] = trials_
    return kept
