"""What the simulator's workers run: `play(request, seed) -> GameResult`, one game of a
scenario loaded once per process (see results.py for the request and the result)."""

from __future__ import annotations

import os
import time
from dataclasses import fields, replace
from pathlib import Path

from warband.diagnostics import Diagnostic, diag, did_you_mean
from warband.game.engine import Game
from warband.game.objectives import objectives as scenario_objectives
from warband.game.results import GameResult, PlayRequest
from warband.game.scenario import Scenario, load_scenario
from warband.game.tally import GameDetails, Loss
from warband.run.decisions import (ENGINE_DECISIONS, MAX_MCTS_RUNS, MCTS_RUNS, POLICIES,
                                    Policies, known_policy, policy_problem)
from warband.run.evaluate import RulesError

# this process's scenarios, by the request's reference and the side files that replace forces,
# each with the stamps of the warband files it read: a campaign's `play --update` rewrites them
# between two games of one process (a library caller's, a test's), and a stale force would play
# (None for stamps: a load not to keep)
_LOADED: dict[tuple, tuple[Scenario, tuple | None]] = {}
_CLOCK_SLACK_NS = 100_000_000


class ScenarioProblem(Exception):
    """The scenario cannot be played: its diagnostics, and the texts they point into."""

    def __init__(self, diagnostics: list[Diagnostic], sources=None) -> None:
        super().__init__("; ".join(d.message for d in diagnostics))
        self.diagnostics = diagnostics
        self.sources = dict(getattr(sources, "texts", None) or {}) if sources else {}


def loaded(request: PlayRequest) -> Scenario:
    """The scenario of a request, loaded once per process; its policies checked."""
    key = (request.scenario, request.sides)
    kept = _LOADED.get(key)
    if kept is not None and kept[1] is not None and kept[1] == _stamps(request, kept[0]):
        scenario = kept[0]
    else:
        began = time.time_ns()
        found = load_scenario(request.scenario, request.sides)
        if isinstance(found, list):
            raise ScenarioProblem(found, getattr(found, "sources", None))
        scenario = found
        stamps = _stamps(request, scenario)
        # a file written while it was read may have been read half old: such a load serves
        # this game and is not kept (the slack: file systems stamp times from a coarse clock,
        # a few milliseconds behind)
        fresh = any(s is not None and s[0] >= began - _CLOCK_SLACK_NS for s in stamps)
        _LOADED[key] = (scenario, None if fresh else stamps)
    problems = [problem for who, policy in request.policies
                for problem in _policy_problems(scenario, who, policy)]
    if problems:
        raise ScenarioProblem(problems)
    return scenario


def _policy_problems(scenario: Scenario, who: str, policy: str) -> list[Diagnostic]:
    """What is wrong with `--policy WHO=POLICY`: WHO is `*`, a side (which plays random,
    greedy or first), a decision of the rules or the engine (`fate_reroll`, `action`: also an
    option's name, a number, a member's name), or SIDE:DECISION for one side's."""
    sides, decisions = scenario.side_names, scenario.ruleset.decisions
    names = list(decisions) + list(ENGINE_DECISIONS)
    side, _, decision = who.rpartition(":") if ":" in who else ("", "", who)
    if who == "*" or (not side and who in sides):
        if known_policy(policy):
            return []
        if policy.partition(":")[0] == "mcts":   # (a search with a number of runs it cannot take)
            return [diag("E911", f"'{policy}' is no search: mcts:N takes N from 1 to "
                                 f"{MAX_MCTS_RUNS:,} runs", None, hint=f"e.g. {who}=mcts:{MCTS_RUNS}")]
        return [diag("E911", f"unknown policy '{policy}'", None,
                     hint=f"a side plays {', '.join(POLICIES)} or mcts:RUNS"
                     + ("; a decision also takes one of its options" if names else ""))]
    problems = []
    if side and side not in sides:
        problems.append(diag("E911", f"the scenario has no side '{side}'", None,
                             hint=did_you_mean(side, sides)
                             or f"its sides: {', '.join(sides)}"))
    if decision not in names:
        problems.append(diag("E911", f"the scenario has no side or decision '{who}'"
                                     if not side else f"the rules have no decision '{decision}'",
                             None, hint=did_you_mean(decision, [*sides, *names])
                             or f"its sides: {', '.join(sides)}; decisions: {', '.join(names)}"))
    elif (found := policy_problem(scenario.ruleset, decision, policy)) is not None:
        problems.append(diag("E911", found[0], None, hint=found[1]))
    return problems


def objectives(request: PlayRequest) -> tuple[str, ...]:
    """The scenario's objectives (each term of its scores: game/objectives.py), as
    GameResult.scored names them."""
    return tuple(o.name for o in scenario_objectives(loaded(request).decl))


def policies_of(request: PlayRequest) -> Policies:
    """The policies of a request's games: `*` the default, a side's name its player, any
    other name a decision's (SIDE:DECISION: one side's)."""
    sides = _side_names(request)
    given = dict(request.policies)
    default = given.pop("*", "random")
    by_side = {who: p for who, p in given.items() if who in sides}
    by_decision = {who: p for who, p in given.items() if who not in sides}
    if by_side and len(set(by_side.values())) == 1 and \
            set(by_side) >= sides:   # every side plays alike: one policy
        default, by_side = next(iter(by_side.values())), {}
    return Policies(default, by_decision, by_side)


def _side_names(request: PlayRequest) -> set[str]:
    kept = _LOADED.get((request.scenario, request.sides))
    return set(kept[0].side_names) if kept is not None else set()


def _stamps(request: PlayRequest, scenario: Scenario) -> tuple:
    """When and how big the scenario's file and each warband file it read were: a change
    means a reload. (The rulesets a scenario extends are not stamped: edit the scenario's file,
    or start a new process, after changing one.)"""
    out = []
    own = Path(request.scenario) if os.path.isfile(request.scenario) else None
    for path in [own, *scenario.files]:
        try:
            stat = path.stat() if path is not None else None
        except OSError:
            stat = None
        out.append((stat.st_mtime_ns, stat.st_size, stat.st_ino) if stat else None)
    return tuple(out)


def play(request: PlayRequest, seed: int) -> GameResult:
    """One game of a scenario (loaded once per process): the simulator's worker function."""
    return _played(request, seed, Game)


class FirstToAct(Game):
    """A game that notes which side acted first (the side that won the initiative, where the
    rules roll for it): the first activation of a fighter still in play, from round 1 on."""

    first: str | None = None

    def activate_now(self, stmt, ref, exclude, world, *more, **named):
        if self.first is None and self.round >= 1:
            fighter = world.fighters[ref.index]
            if not fighter.removed:
                self.first = world.sides[fighter.side].name
        return super().activate_now(stmt, ref, exclude, world, *more, **named)


def play_detailed(request: PlayRequest, seed: int) -> GameDetails:
    """One game, as `play`, with who acted first and every fighter out of play at the end by
    name and class (`simulate --games-out`, plots): the very same game, as the dice and the
    players' choices do not depend on what is watched."""
    watched: FirstToAct | None = None

    def made(*args) -> FirstToAct:
        nonlocal watched
        watched = FirstToAct(*args)
        return watched
    result = _played(request, seed, made)
    assert watched is not None   # (made before the game was played)
    world = watched.ended   # (the game's end, as its result: before any aftermath)
    losses = () if world is None else tuple(
        Loss(world.sides[f.side].name, f.name, f.fighter_class,
             "withdrawn" if f.withdrawn else "removed", number)
        for number, f in enumerate(world.fighters) if f.removed)
    same = {f.name: getattr(result, f.name) for f in fields(GameResult)}
    return GameDetails(**same, first=watched.first, losses=losses)


def _played(request: PlayRequest, seed: int, make) -> GameResult:
    scenario = loaded(request)
    try:
        return make(scenario, seed, policies_of(request), request.max_rounds).play()
    except RulesError as error:
        # a rule that failed in this game: the simulator shows its diagnostic as it is, so it
        # names the seed that replays the game (the simulator's own failures do so too)
        d = error.diagnostic
        named = replace(d, message=f"{d.message} (in the game with seed {seed})",
                        hint=d.hint or f"replay it alone with --replay {seed}")
        raise ScenarioProblem([named], scenario.sources) from None
