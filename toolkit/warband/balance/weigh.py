"""`warband balance RULESET`: the profiles, one attack of each on each, the duel matrix, and
what they say about the costs.

Verdicts, from the duels (a duel that could not be solved takes part in none):

- *dominated*: another fighter costs no more and does at least as well against every fighter
  weighed (its chance to win each duel is as high), and strictly better somewhere or strictly
  cheaper: nobody should pay for this one;
- *the same as*: another fighter of the same cost does exactly as well against everyone (an
  option that changes nothing in a duel: leather that gives no armour);
- *beats everything at its cost*: it wins its duel against every other fighter that costs as
  much or more, give or take a tenth (a Might-12 fighter costing 24 is weighed against those
  costing 25), clearly: its chance to win is more than 5 points above its foe's (49% to 51% is
  even, as a points file that claims such pairs even says): cheap for what it does, if duels are
  what it is for;
- *loses to everything at its cost*: it clearly loses its duel against every other fighter that
  costs as much or less, give or take a tenth: dear for what it does.

An option's figures compare the fighter with it to the same fighter without it: what the option
costs, and how much its chance to win a duel changes, on average over the fighters weighed.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Callable

from warband.balance import duels as duels_mod
from warband.balance.duels import Duel, Duels, Strike, win_chance
from warband.balance.profiles import Profile
from warband.diagnostics import Diagnostic

COST_BAND = Fraction(1, 10)   # "at its cost": give or take this share of it
MARGIN = Fraction(1, 20)      # a duel won "clearly": by more than this difference of chances


@dataclass
class Verdict:
    profile: int
    dominated_by: list[int] = field(default_factory=list)
    same_as: list[int] = field(default_factory=list)
    beats_all: bool = False       # wins against everything costing as much or more
    loses_all: bool = False       # loses against everything costing as much or less
    average: Fraction | None = None   # its mean chance to win a duel, against every profile

    @property
    def words(self) -> list[str]:
        out = []
        if self.beats_all:
            out.append("beats everything at its cost (cheap?)")
        if self.loses_all:
            out.append("loses to everything at its cost (dear?)")
        return out


@dataclass
class OptionWorth:
    profile: int          # the fighter with the option
    base: int             # the same fighter without it
    option: str
    price: int | Fraction | None
    change: Fraction | None   # the mean change of its chance to win a duel


@dataclass
class RulesetBalance:
    ruleset: str
    policy: str
    rounds: int | None
    profiles: list[Profile]
    strikes: dict[tuple[int, int], list[Strike]]
    duels: dict[tuple[int, int], Duel]
    verdicts: list[Verdict]
    options: list[OptionWorth]
    problems: list[Diagnostic]
    source: str = "typical"       # where the profiles came from: typical, or a file's name

    def win(self, i: int, j: int) -> Fraction | None:
        return win_chance(self.duels, i, j)


def strikes_of(duels: Duels, profiles: list[Profile]) -> dict[tuple[int, int], list[Strike]]:
    return {(i, j): duels.strikes(a, b) for i, a in enumerate(profiles)
            for j, b in enumerate(profiles)}


def verdicts(profiles: list[Profile], found: dict[tuple[int, int], Duel]) -> list[Verdict]:
    n = len(profiles)

    def win(i: int, j: int) -> Fraction | None:
        return win_chance(found, i, j)
    solved = [i for i in range(n) if all(win(i, j) is not None for j in range(n))]
    out = []
    for i in range(n):
        verdict = Verdict(i)
        out.append(verdict)
        if i not in solved:
            continue
        row = [win(i, z) for z in solved]
        known = [w for w in row if w is not None]   # (all of them: i is solved)
        verdict.average = sum(known, Fraction(0)) / len(known) if known else None
        cost = profiles[i].cost
        if cost is None:
            continue
        for j in solved:
            other = profiles[j].cost
            if j == i or other is None or other > cost:
                continue
            theirs = [win(j, z) for z in solved]
            if all(t >= m for t, m in zip(theirs, row)):   # type: ignore[operator]
                if theirs == row and other == cost:
                    verdict.same_as.append(j)
                elif theirs != row or other < cost:
                    verdict.dominated_by.append(j)
        dearer = [j for j in solved if j != i and profiles[j].cost is not None
                  and profiles[j].cost >= cost * (1 - COST_BAND)]   # type: ignore[operator]
        cheaper = [j for j in solved if j != i and profiles[j].cost is not None
                   and profiles[j].cost <= cost * (1 + COST_BAND)]   # type: ignore[operator]
        verdict.beats_all = bool(dearer) and all(
            win(i, j) - win(j, i) > MARGIN for j in dearer)   # type: ignore[operator]
        verdict.loses_all = bool(cheaper) and all(
            win(j, i) - win(i, j) > MARGIN for j in cheaper)   # type: ignore[operator]
    return out


def option_worths(profiles: list[Profile], found: dict[tuple[int, int], Duel]) -> list[OptionWorth]:
    by_name = {p.name: i for i, p in enumerate(profiles)}
    n = len(profiles)
    out = []
    for i, p in enumerate(profiles):
        if p.base is None or p.option is None or p.base not in by_name:
            continue
        b = by_name[p.base]
        before = profiles[b].cost
        price = p.cost - before if p.cost is not None and before is not None else None
        diffs = []
        for z in range(n):
            with_it, without = win_chance(found, i, z), win_chance(found, b, z)
            if with_it is not None and without is not None:
                diffs.append(with_it - without)
        change = sum(diffs, Fraction(0)) / len(diffs) if diffs else None
        out.append(OptionWorth(i, b, p.option, price, change))
    return out


def weigh(ruleset, profiles: list[Profile], duels: Duels, source: str = "typical",
          progress: Callable[[int, int], None] | None = None) -> RulesetBalance:
    """The whole RULESET report (raises RulesError when a rule fails while running)."""
    strikes = strikes_of(duels, profiles)
    found = duels_mod.matrix(duels, profiles, progress)
    problems = [d.problem for d in found.values() if d.problem is not None]
    return RulesetBalance(ruleset.id, duels.policies.default, duels.rounds, profiles, strikes,
                          found, verdicts(profiles, found), option_worths(profiles, found),
                          problems, source)


__all__ = ["OptionWorth", "RulesetBalance", "Verdict", "option_worths", "verdicts", "weigh"]
