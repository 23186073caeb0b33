"""The tally of many games: sums only, so that the tallies of chunks merge exactly into the
tally of a run, and the figures a report shows (rates, intervals, means) are computed at the end.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from warband.game.results import GameResult, PlayRequest

STUCK_KEPT = 20          # stuck games listed by seed (the first ones); all are counted
ENDINGS = ("limit", "condition", "conceded", "stuck")
Z95 = 1.959963984540054  # the standard normal quantile for a two-sided 95% interval


def wilson_interval(successes: int, trials: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion (95% by default): unlike p +- z*se it stays
    inside 0..1 and is honest for rates near 0 or 1 and for few games."""
    if trials <= 0:
        return (0.0, 1.0)
    p = min(1.0, max(0.0, successes / trials))   # (a rate past 1 had no root: a crash)
    z2 = z * z
    centre = (p + z2 / (2 * trials)) / (1 + z2 / trials)
    half = z / (1 + z2 / trials) * math.sqrt(p * (1 - p) / trials + z2 / (4 * trials * trials))
    return (max(0.0, centre - half), min(1.0, centre + half))


@dataclass
class SideTally:
    """One side over many games: sums only, so that tallies merge exactly."""

    wins: int = 0
    score_sum: float = 0.0
    score_squares: float = 0.0
    lost: dict[str, int] = field(default_factory=dict)   # class -> fighters of this side removed
    left: dict[str, int] = field(default_factory=dict)   # class -> fighters that left the table

    def merge(self, other: "SideTally") -> None:
        self.wins += other.wins
        self.score_sum += other.score_sum
        self.score_squares += other.score_squares
        for name, n in other.lost.items():
            self.lost[name] = self.lost.get(name, 0) + n
        for name, n in other.left.items():
            self.left[name] = self.left.get(name, 0) + n


@dataclass(frozen=True)
class Loss:
    """One fighter out of a game: which side lost it, its name and class, and how it left."""

    side: str
    fighter: str
    fighter_class: str | None
    how: str             # "removed" (a casualty) or "withdrawn" (left the table)
    # which fighter: its place among the game's fighters (names may repeat: two "Goblin"s
    # counted by name were one fighter lost twice a game, a rate past 1)
    number: int = -1


@dataclass(frozen=True)
class GameDetails(GameResult):
    """A GameResult with what a per-game report needs beyond the tally (--games-out, plots):
    collected only when asked, so that the default run pays nothing for it."""

    first: str | None = None            # the side whose fighter acted first, if any acted
    losses: tuple[Loss, ...] = ()       # every fighter out of play at the end, in world order


@dataclass(frozen=True)
class StuckGame:
    game: int            # 0-based number of the game in the run
    seed: int
    why: str


@dataclass
class Summary:
    """What many games add up to. Chunk summaries merge into the run's summary; the run's
    summary also records how to reproduce it (scenario, seed, chunk size, policies)."""

    games: int = 0
    sides: tuple[str, ...] = ()
    tallies: dict[str, SideTally] = field(default_factory=dict)
    draws: int = 0
    rounds_sum: int = 0
    rounds_min: int | None = None
    rounds_max: int | None = None
    ended: dict[str, int] = field(default_factory=dict)
    scored: set[str] = field(default_factory=set)
    stuck_count: int = 0
    stuck: list[StuckGame] = field(default_factory=list)      # the first STUCK_KEPT by game
    results: list[GameResult] = field(default_factory=list)   # every game, when asked to keep
    # the run, set by simulate()
    request: PlayRequest | None = None
    seed: int | None = None
    chunk_size: int | None = None
    objectives: tuple[str, ...] | None = None   # every score term, when the engine says

    def add(self, game: int, result: GameResult, keep: bool = False) -> None:
        if not self.sides:
            self.sides = tuple(result.sides)
        for side in result.sides:
            if side not in self.tallies:
                self.tallies[side] = SideTally()
                if side not in self.sides:
                    self.sides += (side,)
        self.games += 1
        if result.winner is None:
            self.draws += 1
        else:
            self.tallies[result.winner].wins += 1
        for side, score in result.scores.items():
            tally = self.tallies[side]
            tally.score_sum += score
            tally.score_squares += score * score
        for side, classes in result.kills.items():
            lost = self.tallies[side].lost
            for name, n in classes.items():
                lost[name] = lost.get(name, 0) + n
        for side, classes in result.withdrawn.items():
            left = self.tallies[side].left
            for name, n in classes.items():
                left[name] = left.get(name, 0) + n
        self.rounds_sum += result.rounds
        self.rounds_min = result.rounds if self.rounds_min is None else min(self.rounds_min,
                                                                            result.rounds)
        self.rounds_max = result.rounds if self.rounds_max is None else max(self.rounds_max,
                                                                            result.rounds)
        self.ended[result.ended] = self.ended.get(result.ended, 0) + 1
        self.scored |= result.scored
        if result.ended == "stuck" or result.stuck is not None:
            self.stuck_count += 1
            if len(self.stuck) < STUCK_KEPT:
                self.stuck.append(StuckGame(game, result.seed, result.stuck or "stuck"))
        if keep:
            self.results.append(result)

    def merge(self, other: "Summary") -> "Summary":
        """Add another summary's games to this one (in place; returns self). Merging the
        chunks in chunk order gives the very numbers of one pass over all the games."""
        for side in other.sides:
            if side not in self.tallies:
                self.tallies[side] = SideTally()
                self.sides += (side,)
            self.tallies[side].merge(other.tallies[side])
        self.games += other.games
        self.draws += other.draws
        self.rounds_sum += other.rounds_sum
        for mine, theirs, pick in (("rounds_min", other.rounds_min, min),
                                   ("rounds_max", other.rounds_max, max)):
            if theirs is not None:
                current = getattr(self, mine)
                setattr(self, mine, theirs if current is None else pick(current, theirs))
        for how, n in other.ended.items():
            self.ended[how] = self.ended.get(how, 0) + n
        self.scored |= other.scored
        self.stuck_count += other.stuck_count
        self.stuck = sorted(self.stuck + other.stuck, key=lambda s: s.game)[:STUCK_KEPT]
        self.results += other.results   # in game order when chunks merge in chunk order
        return self

    # ---- figures ----

    def win_rate(self, side: str) -> float:
        return self.tallies[side].wins / self.games if self.games else 0.0

    def win_interval(self, side: str) -> tuple[float, float]:
        return wilson_interval(self.tallies[side].wins, self.games)

    def mean_score(self, side: str) -> float:
        return self.tallies[side].score_sum / self.games if self.games else 0.0

    def score_sd(self, side: str) -> float:
        """The sample standard deviation of the side's final score (0 for one game)."""
        if self.games < 2:
            return 0.0
        t = self.tallies[side]
        variance = (t.score_squares - t.score_sum * t.score_sum / self.games) / (self.games - 1)
        return math.sqrt(max(0.0, variance))

    def mean_rounds(self) -> float:
        return self.rounds_sum / self.games if self.games else 0.0

    def lost_per_game(self, side: str) -> dict[str, float]:
        lost = self.tallies[side].lost
        return {name: lost[name] / self.games for name in sorted(lost)} if self.games else {}

    def left_per_game(self, side: str) -> dict[str, float]:
        """Fighters of the side that left the table (fled, escaped) per game, by class."""
        left = self.tallies[side].left
        return {name: left[name] / self.games for name in sorted(left)} if self.games else {}

    def never_scored(self) -> list[str] | None:
        """Score terms that no game ever made non-zero; None when the terms are unknown."""
        if self.objectives is None:
            return None
        return [o for o in self.objectives if o not in self.scored]
