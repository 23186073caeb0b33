"""The games a balance report plays: the scenario as it is, the scenario with one fighter swapped
for another, and the scenario with two random legal warbands; each game watched for who acted
first and who was ahead after each round.

`play(request, seed)` is the simulator's worker function (game/simulate.py): it plays through
the engine's own Game, loaded as `warband simulate` loads it (game/worker.py: the same
scenario, the same policies, the same seeds), so the games are the same for any number of
processes and on Dask; the request is plain data that travels to the workers.

What a game is watched through: the engine's `activate_now` (the first fighter in play to act,
from round 1 on, as `simulate --games-out` notes it) and `check_end` (asked after every round
with the World at its end: who is ahead then, by the Game's own `value`, the one the greedy
players play for: the scenario's `value` of a side, else its score less the best other, with
fighters in play as a tie-break).
"""

from __future__ import annotations

import json
import math
import random
from dataclasses import dataclass, fields, replace
from fractions import Fraction
from functools import lru_cache

from warband.balance.profiles import Profile, profile
from warband.diagnostics import Sources, diag
from warband.game.results import GameResult, PlayRequest
from warband.game.scenario import Scenario
from warband.game.worker import FirstToAct, ScenarioProblem, loaded, policies_of
from warband.lang.ruleset import Ruleset
from warband.lists import army
from warband.lists.warband_file import FIGHTERS, warband_from
from warband.run.evaluate import RulesError
from warband.run.interpreter import Interpreter
from warband.run.world import World

SPREAD = Fraction(2, 5)     # a random warband spends 60% to 100% of the game's points
LIST_TRIES = 200            # random lists tried for one legal one
MOST_FIGHTERS = 30          # in one random list when the army sets no size


@dataclass(frozen=True)
class BalanceRequest(PlayRequest):
    """A PlayRequest with what a balance run changes in the scenario's forces: one fighter
    swapped for an entry (`swap`: side, fighter's name, the entry as JSON), or both forces
    replaced by random legal warbands from a pool of profiles (`pool`: each an entry as JSON
    and its cost as text)."""

    swap: tuple = ()
    pool: tuple = ()


@dataclass(frozen=True)
class BalanceGame(GameResult):
    """A GameResult with what balance needs beyond the tally."""

    first: str | None = None               # the side whose fighter acted first
    leaders: tuple = ()                    # after each round: the side ahead, or None
    lists: tuple = ()                      # random warbands: per side, ((profile, count), ...)


def pool_request(request: PlayRequest, pool) -> BalanceRequest:
    """The request of games between random warbands of the pool's profiles."""
    entries = tuple((json.dumps(p.entry, sort_keys=True), "" if p.cost is None else str(p.cost))
                    for p in pool)
    return BalanceRequest(request.scenario, request.policies, request.max_rounds,
                          request.sides, pool=entries)


def swap_request(request: PlayRequest, side: str, fighter: str, entry: dict) -> BalanceRequest:
    """The request of games with one fighter of a side swapped for an entry."""
    return BalanceRequest(request.scenario, request.policies, request.max_rounds,
                          request.sides, swap=(side, fighter, json.dumps(entry, sort_keys=True)))


def base_request(request: PlayRequest) -> PlayRequest:
    """The plain request a balance request starts from (the scenario as it is)."""
    return PlayRequest(request.scenario, request.policies, request.max_rounds, request.sides)


class _Watched(FirstToAct):
    """A Game that notes who acted first (game/worker.py), and who was ahead at the end of
    each round."""

    leaders: list | None = None

    def check_end(self, world) -> None:
        if type(world) is World and self.round >= 1:
            if self.leaders is None:
                self.leaders = []
            while len(self.leaders) < self.round:
                self.leaders.append(None)
            values = [self.value(world, i) for i in range(len(world.sides))]
            best = max(values)
            ahead = [i for i, v in enumerate(values) if v == best]
            self.leaders[self.round - 1] = world.sides[ahead[0]].name if len(ahead) == 1 \
                else None
        super().check_end(world)


# ---- what a request plays ----------------------------------------------------------------------

@lru_cache(maxsize=64)
def _swapped(request: BalanceRequest) -> Scenario:
    scenario = loaded(base_request(request))
    side, name, entry = request.swap
    index = scenario.side_names.index(side)
    fighter = warband_from({FIGHTERS: [json.loads(entry)]}, "balance", scenario.ruleset) \
        .fighters[0]
    forces = [list(force) for force in scenario.forces]
    forces[index] = [fighter.spec(index, name) if spec.name == name else spec
                     for spec in forces[index]]
    return replace(scenario, forces=forces, kept={})


@lru_cache(maxsize=8)
def pool_of(request: BalanceRequest) -> tuple[Ruleset, tuple[Profile, ...], Interpreter]:
    scenario = loaded(base_request(request))
    ruleset = scenario.ruleset
    made = tuple(profile(ruleset, json.loads(entry), Fraction(cost) if cost else None)
                 for entry, cost in request.pool)
    return ruleset, made, Interpreter(ruleset)


def legal(ruleset: Ruleset, pool: tuple[Profile, ...], picks: list[int],
          interpreter: Interpreter) -> bool:
    """Whether a list of these profiles passes the army rules (points, size, quotas, the
    author's own)."""
    counts: dict[int, int] = {}
    entries = []
    for k in picks:
        counts[k] = counts.get(k, 0) + 1
        entries.append({**pool[k].entry, "name": f"{pool[k].name} {counts[k]}"})
    data = {FIGHTERS: entries}
    warband = warband_from(data, "balance", ruleset)
    try:
        found = army.check(warband, ruleset, interpreter, data, "balance", None, Sources(),
                           complete=True)
    except RulesError:
        return False
    return not any(d.severity.value == "error" for d in found.diagnostics)


def random_list(ruleset: Ruleset, pool: tuple[Profile, ...], rng: random.Random,
                interpreter: Interpreter) -> list[int] | None:
    """A random legal warband of the pool's profiles: a budget drawn between 60% and all of the
    game's points, then fighters drawn one at a time among those that still fit it; tried again
    (LIST_TRIES times) until the army rules pass it. None when none did."""
    points = ruleset.army.points if ruleset.army is not None else None
    if points is None:
        return None
    size = ruleset.army.size if ruleset.army is not None else None
    most = size[1] if size is not None and size[0] in ("at most", "exactly") else MOST_FIGHTERS
    low = math.ceil(points * (1 - SPREAD))
    for _ in range(LIST_TRIES):
        budget = rng.randint(low, int(points))
        left: int | Fraction = budget
        picks: list[int] = []
        while len(picks) < most:
            fits = [k for k, p in enumerate(pool) if p.cost is not None and p.cost <= left]
            if not fits:
                break
            k = fits[rng.randrange(len(fits))]
            picks.append(k)
            left -= pool[k].cost or 0
        if picks and legal(ruleset, pool, picks, interpreter):
            return sorted(picks)
    return None


def _random_forces(request: BalanceRequest, seed: int) -> tuple[Scenario, tuple]:
    scenario = loaded(base_request(request))
    ruleset, pool, interpreter = pool_of(request)
    rng = random.Random(f"balance lists {seed}")
    forces, lists = [], []
    for index, side in enumerate(scenario.side_names):
        picks = random_list(ruleset, pool, rng, interpreter)
        if picks is None:
            raise ScenarioProblem([no_list(ruleset)])
        counts: dict[int, int] = {}
        for k in picks:
            counts[k] = counts.get(k, 0) + 1
        lists.append(tuple(sorted(counts.items())))
        specs: list = []
        seen: dict[int, int] = {}
        for k in picks:
            seen[k] = seen.get(k, 0) + 1
            specs.append(pool[k].spec(index, f"{pool[k].name} {seen[k]}"))
        forces.append(specs)
    return replace(scenario, forces=forces, kept={}), tuple(lists)


def unpriced(ruleset: Ruleset, pool) -> str | None:
    """Why no random warbands of about equal points can be drawn (None: they can be)."""
    if ruleset.army is None or ruleset.army.points is None:
        return f"the rules of {ruleset.id} set no points for a warband"
    if not any(p.cost is not None for p in pool):
        return f"the rules of {ruleset.id} give the fighters weighed no cost"
    return None


def no_list(ruleset: Ruleset):
    return diag("E941", f"no legal random warband of {ruleset.id} could be made in "
                        f"{LIST_TRIES} tries", None,
                hint="the army rules refuse the lists drawn from the fighters weighed: give "
                     "fighters that make legal lists with --fighters FILE.yaml, or leave out "
                     "the suggested costs with --fit-games 0")


def play(request: PlayRequest, seed: int) -> BalanceGame:
    """One game of a balance run: the simulator's worker function."""
    lists: tuple = ()
    if isinstance(request, BalanceRequest) and request.pool:
        scenario, lists = _random_forces(request, seed)
    elif isinstance(request, BalanceRequest) and request.swap:
        scenario = _swapped(request)
    else:
        scenario = loaded(base_request(request))
    game = _Watched(scenario, seed, policies_of(base_request(request)), request.max_rounds)
    try:
        result = game.play()
    except RulesError as error:
        d = error.diagnostic
        named = replace(d, message=f"{d.message} (in the game with seed {seed})",
                        hint=d.hint or "play it alone: warband simulate --replay SEED")
        raise ScenarioProblem([named], scenario.sources) from None
    same = {f.name: getattr(result, f.name) for f in fields(GameResult)}
    return BalanceGame(**same, first=game.first, leaders=tuple(game.leaders or ()),
                       lists=lists)


__all__ = ["BalanceGame", "BalanceRequest", "base_request", "legal", "no_list", "play",
           "pool_of", "pool_request", "random_list", "swap_request", "unpriced"]
