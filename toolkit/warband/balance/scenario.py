"""`warband balance SCENARIO`: the scenario's health from its games, what a fighter is worth at
the margin (one swapped for another of about its cost), and suggested costs fitted on games
between random legal warbands.

Figures (docs/balance.md says what each means and how far to trust it):

- each side's win rate, and the draw rate, with 95% Wilson intervals;
- the first player's edge: how often the side whose fighter acted first won;
- how games ended: by a condition, elimination or concession (they *completed*), or at the round
  limit: the scenario's own `rounds` (its designed end), or a timeout where the scenario has no
  limit of its own (the engine's default) or `--max-rounds` cut it;
- game length in rounds;
- decisiveness: of the games won with a side ahead at half-time (after half the rounds the game
  lasted, by the greedy players' own measure of a position), how often that side won;
- warnings: a side winning more than 60% of the games, most games drawn, games that do not end,
  random players.
"""

from __future__ import annotations

import math
import os
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Callable

from warband.balance import fit as fitting
from warband.balance.games import BalanceGame, pool_request, swap_request
from warband.balance.profiles import Profile, costs, entry_of, stats_words
from warband.game.results import PlayRequest
from warband.game.scenario import Scenario
from warband.game.tally import Summary, wilson_interval
from warband.lang.classes import gear_problems
from warband.lang.ruleset import Ruleset, constant
from warband.run.world import FighterSpec

UNEVEN = 0.6            # a side winning more than this share of the games is warned about
DRAWISH = 0.5           # more draws than this share: warned about
SWAP_COST_SHARE = Fraction(1, 10)   # an automatic swap's cost may differ by this share


@dataclass
class Rate:
    """A share of games with its 95% interval."""

    count: int
    games: int

    @property
    def rate(self) -> float:
        return self.count / self.games if self.games else 0.0

    @property
    def interval(self) -> tuple[float, float]:
        return wilson_interval(self.count, self.games)


def difference(a: Rate, b: Rate) -> tuple[float, tuple[float, float]]:
    """a's rate less b's, with Newcombe's hybrid score interval (from the two Wilson
    intervals; independent samples)."""
    pa, pb = a.rate, b.rate
    (la, ua), (lb, ub) = a.interval, b.interval
    d = pa - pb
    return d, (d - math.sqrt((pa - la) ** 2 + (ub - pb) ** 2),
               d + math.sqrt((ua - pa) ** 2 + (pb - lb) ** 2))


@dataclass
class Health:
    """The figures of the scenario's own games."""

    games: int
    sides: dict[str, Rate]
    draws: Rate
    first: Rate | None              # games won by the side that acted first (of those known)
    first_by_side: dict[str, int]   # how often each side acted first
    ended: dict[str, int]
    declared_rounds: int | None     # the scenario's own limit
    timeouts: int                   # games stopped at a limit that is not the scenario's own
    rounds_mean: float
    rounds_min: int
    rounds_max: int
    lengths: dict[int, int]         # rounds -> games
    decisive: Rate | None           # half-time leader won, of the games won with one
    warnings: list[str] = field(default_factory=list)


def health(summary: Summary, declared_rounds: int | None, cut: bool,
           random_sides: list[str]) -> Health:
    """The figures of a run's games (kept results: BalanceGame)."""
    results = [r for r in summary.results if isinstance(r, BalanceGame)]
    games = summary.games
    sides = {s: Rate(summary.tallies[s].wins, games) for s in summary.sides}
    draws = Rate(summary.draws, games)
    known = [r for r in results if r.first is not None]
    first = Rate(sum(1 for r in known if r.winner == r.first), len(known)) if known else None
    by_side = {s: sum(1 for r in known if r.first == s) for s in summary.sides}
    halves = []
    for r in results:
        if r.winner is None or r.rounds < 2 or len(r.leaders) < r.rounds // 2:
            continue
        leader = r.leaders[r.rounds // 2 - 1]
        if leader is not None:
            halves.append(r.winner == leader)
    decisive = Rate(sum(halves), len(halves)) if halves else None
    lengths: dict[int, int] = {}
    for r in results:
        lengths[r.rounds] = lengths.get(r.rounds, 0) + 1
    limit_ended = summary.ended.get("limit", 0)
    timeouts = limit_ended if (declared_rounds is None or cut) else 0
    found = Health(games, sides, draws, first, by_side, dict(summary.ended), declared_rounds,
                   timeouts, summary.mean_rounds(), summary.rounds_min or 0,
                   summary.rounds_max or 0, dict(sorted(lengths.items())), decisive)
    for side, rate in sides.items():
        if rate.rate > UNEVEN:
            low, high = rate.interval
            sure = " (its whole interval is above 60%)" if low > UNEVEN else \
                f" (too few games to be sure: its 95% interval reaches down to {low:.1%})" \
                if low <= 0.5 else ""
            found.warnings.append(f"{side} wins {rate.rate:.1%} of the games{sure}: the "
                                  "scenario favours it")
    if draws.rate > DRAWISH:
        found.warnings.append(f"{draws.rate:.1%} of the games are drawn: most games settle "
                              "nothing")
    if games and timeouts / games > 0.1:
        found.warnings.append(f"{timeouts / games:.1%} of the games stopped at a round limit "
                              "before they ended on their own")
    if summary.stuck_count:
        found.warnings.append(f"{summary.stuck_count} games had a side with no legal action")
    if random_sides:
        found.warnings.append(f"{', '.join(random_sides)} played at random: random players "
                              "say little about a game played well")
    return found


@dataclass
class Swap:
    """One fighter of a side swapped for another of about its cost."""

    side: str
    fighter: str
    replacement: str          # its description: "CLASS (STAT 25)"
    entry: dict               # the replacement, as a warband entry
    cost_before: int | Fraction | None
    cost_after: int | Fraction | None
    before: Rate | None = None
    after: Rate | None = None

    @property
    def change(self) -> tuple[float, tuple[float, float]] | None:
        if self.before is None or self.after is None:
            return None
        return difference(self.after, self.before)


@dataclass
class Suggestion:
    """A profile's current cost, and the cost the games suggest."""

    profile: int
    cost: int | Fraction | None
    worth: float | None
    interval: tuple[float, float] | None

    @property
    def verdict(self) -> str:
        if self.cost is None or self.interval is None:
            return ""
        if self.interval[1] < self.cost:
            return "dear"
        if self.interval[0] > self.cost:
            return "cheap"
        return "fair"


@dataclass
class OptionSuggestion:
    """What an option adds, by the fit: the fighter with it less the fighter without."""

    option: str
    base: int
    profile: int
    price: int | Fraction | None
    worth: float | None
    interval: tuple[float, float] | None


@dataclass
class ScenarioBalance:
    scenario: str
    title: str
    seed: int
    chunk_size: int
    policies: list[tuple[str, str]]
    health: Health
    swaps: list[Swap]
    pool: list[Profile]
    fit_games: int
    fit: fitting.Fit | None = None
    suggestions: list[Suggestion] = field(default_factory=list)
    options: list[OptionSuggestion] = field(default_factory=list)
    fit_left_out: str | None = None   # why there are no suggested costs, where the rules say
    swaps_chosen: bool = False        # the swaps are the report's own choice (no --swap)

    @property
    def vague(self) -> bool:
        """Whether the fit's intervals are too wide to say anything: most of them are wider
        than the cost itself (too few games between random warbands)."""
        widths = [(s.interval[1] - s.interval[0]) / float(s.cost) for s in self.suggestions
                  if s.interval is not None and s.cost]
        return bool(widths) and sorted(widths)[len(widths) // 2] > 1

    @property
    def total_games(self) -> int:
        return self.health.games + sum(s.after.games for s in self.swaps if s.after) + \
            self.fit_games


def fit_games(summary: Summary) -> list[fitting.Game]:
    """The games between random warbands as the fit reads them."""
    out = []
    for r in summary.results:
        if not isinstance(r, BalanceGame) or len(r.lists) != 2:
            continue
        first, second = (dict(lst) for lst in r.lists)
        result = 0.5 if r.winner is None else (1.0 if r.winner == r.sides[0] else 0.0)
        out.append(fitting.Game(first, second, result))
    return out


def suggest(pool: list[Profile], summary: Summary) -> tuple[fitting.Fit, list[Suggestion],
                                                            list[OptionSuggestion]]:
    """Fit the worth of every profile of the pool on the random warbands' games."""
    costs = [float(p.cost) if p.cost is not None else None for p in pool]
    found = fitting.fit(fit_games(summary), len(pool), costs)
    suggestions = [Suggestion(k, p.cost, found.worth[k], found.interval[k])
                   for k, p in enumerate(pool)]
    by_name = {p.name: k for k, p in enumerate(pool)}
    options = []
    for k, p in enumerate(pool):
        if p.base is None or p.option is None or p.base not in by_name:
            continue
        b = by_name[p.base]
        before = pool[b].cost
        price = p.cost - before if p.cost is not None and before is not None else None
        diff = found.difference(k, b)
        options.append(OptionSuggestion(p.option, b, k, price,
                                        diff[0] if diff else None, diff[1] if diff else None))
    return found, suggestions, options


def near_cost(cost, other) -> bool:
    if cost is None or other is None:
        return False
    return abs(other - cost) <= abs(cost) * SWAP_COST_SHARE


# ---- swaps ---------------------------------------------------------------------------------------

def as_class(ruleset: Ruleset, entry: dict, class_name: str) -> dict | None:
    """The entry as a fighter of another class, with the same stats and equipment where that
    class allows them (a stat it fixes is its own; equipment it may not take is left); None
    where a stat lies outside the class's bounds."""
    cls = ruleset.classes.get(class_name)
    if cls is None:
        return None
    out: dict = {"name": entry["name"], "class": class_name}
    for stat in ruleset.stats.values():
        if stat.key not in entry or cls.fixes(stat.name):
            continue
        choice = cls.choice(stat.name)
        if choice is not None and not choice.allows(entry[stat.key]):
            return None
        out[stat.key] = entry[stat.key]
    for stat in ruleset.stats.values():   # a stat the new class needs and has no value for
        if stat.default is None and stat.derived is None and stat.key not in out and \
                stat.name not in cls.given:
            return None
    if entry.get("traits"):
        out["traits"] = dict(entry["traits"])
    gear = tuple(entry.get("equipment") or ())
    if gear and not gear_problems(cls, out["name"], gear):
        out["equipment"] = list(gear)
    return out


def describe(ruleset: Ruleset, entry: dict) -> str:
    """A replacement in words: its class and the stats its entry sets, 'CLASS (STAT 25)'."""
    cls = ruleset.classes.get(entry.get("class", "")) if entry.get("class") else None
    stats = stats_words(ruleset, entry, cls)
    what = entry.get("class") or entry["name"]
    gear = entry.get("equipment") or []
    words = f"{what}" + (f" ({stats})" if stats else "")
    return words + (f" with {', '.join(gear)}" if gear else "")


def auto_swaps(ruleset: Ruleset, side_names: list[str], forces: list[list[FighterSpec]],
               pool: list[Profile]) -> list[Swap]:
    """One swap a side: its costliest fighter, for the same fighter of the first other class
    (in the order the rules declare them) that takes its stats and costs within 10% of it;
    in a ruleset without classes, for the profile nearest its cost."""
    out = []
    for side, force in zip(side_names, forces):
        entries = [entry_of(spec) for spec in force]
        found = costs(ruleset, entries)
        priced = [(c, i) for i, c in enumerate(found) if c is not None]
        if not priced:
            continue
        cost, index = max(priced, key=lambda item: (item[0], -item[1]))
        swap = swap_for(ruleset, side, entries[index], cost, None, pool)
        if swap is not None:
            out.append(swap)
    return out


def swap_for(ruleset: Ruleset, side: str, entry: dict, cost, class_name: str | None,
             pool: list[Profile]) -> Swap | None:
    """The swap of a fighter (its entry and cost) for another class (named, or the first that
    fits), or for the pool's profile nearest its cost."""
    if ruleset.classes:
        names = [class_name] if class_name else [c for c in ruleset.classes
                                                  if c != entry.get("class")]
        for other in names:
            made = as_class(ruleset, entry, other)
            if made is None:
                continue
            other_cost = costs(ruleset, [made])[0]
            if class_name is not None or near_cost(cost, other_cost):
                return Swap(side, entry["name"], describe(ruleset, made), made, cost,
                            other_cost)
        if class_name is not None:
            return None
    nearest = sorted((abs(p.cost - cost), k) for k, p in enumerate(pool)
                     if p.cost is not None and cost is not None and p.entry != entry
                     and _differs(p.entry, entry))
    if not nearest:
        return None
    p = pool[nearest[0][1]]
    made = {**p.entry, "name": entry["name"]}
    return Swap(side, entry["name"], p.name + (f" ({p.stats})" if p.stats else ""), made, cost,
                p.cost)


def _differs(a: dict, b: dict) -> bool:
    return {k: v for k, v in a.items() if k != "name"} != \
        {k: v for k, v in b.items() if k != "name"}


# ---- a whole run ------------------------------------------------------------------------------

# run(request, games, what) -> Summary: the caller's way to play games (game/simulate.simulate
# with its workers, scheduler and progress bar; `what` says which games, for a progress bar)
Runner = Callable[[PlayRequest, int, str], Summary]


def balance_scenario(request: PlayRequest, scenario: Scenario, *, games: int, fit_games: int,
                     seed: int, chunk_size: int, swaps: list[Swap], pool: list[Profile],
                     run: Runner, cut: bool = False) -> ScenarioBalance:
    """Play what a SCENARIO report needs and work its figures out."""
    summary = run(request, games, "the scenario's games")
    random_sides = [s for s in scenario.side_names
                    if policy_of(request, s) == "random"]
    found = ScenarioBalance(
        request.scenario if not os.path.isfile(request.scenario) else scenario.path,
        scenario.title, seed, chunk_size, list(request.policies),
        health(summary, _declared(scenario), cut, random_sides), swaps, pool, 0)
    base_rates = found.health.sides
    for swap in swaps:
        played = run(swap_request(request, swap.side, swap.fighter, swap.entry), games,
                     f"{swap.fighter} swapped")
        swap.before = base_rates.get(swap.side)
        swap.after = Rate(played.tallies[swap.side].wins, played.games)
    if fit_games:
        played = run(pool_request(request, pool), fit_games, "random warbands")
        found.fit_games = played.games
        found.fit, found.suggestions, found.options = suggest(pool, played)
    return found


def policy_of(request: PlayRequest, side: str) -> str:
    given = dict(request.policies)
    return given.get(side, given.get("*", "random"))


def _declared(scenario: Scenario) -> int | None:
    rounds = scenario.decl.rounds
    if rounds is None:
        return None
    try:
        value = constant(rounds)
    except Exception:   # noqa: BLE001 -- a limit worked out while playing: not said here
        return None
    return int(value) if isinstance(value, (int, Fraction)) else None


__all__ = ["Health", "OptionSuggestion", "Rate", "Runner", "ScenarioBalance", "Suggestion",
           "Swap", "as_class", "auto_swaps", "balance_scenario", "difference", "fit_games",
           "health", "near_cost", "suggest", "swap_for"]
