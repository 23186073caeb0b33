"""Decisions: where a rule lets a fighter or a side choose, and the policies that choose.

A decision names its options (or a range of whole numbers); a policy fills it: `first` (the
first allowed option, or the declared default), `random` (each allowed option equally likely, a
tuple's numbers one at a time: a mixture in exact mode, a seeded pick when sampling), `greedy` (look ahead through the rest of
the action, exactly, and take the best option for whoever decides: expectimax), or a scripted
option name or number.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import TYPE_CHECKING, Callable

from warband.diagnostics import diag, did_you_mean
from warband.lang import nodes
from warband.run import members, tuples, weighing
from warband.run.dice import Dist
from warband.run.evaluate import RulesError, as_dist

if TYPE_CHECKING:
    import random

    from warband.run.evaluate import Compiler
    from warband.run.host import GameHost, Recorder
    from warband.run.world import World

POLICIES = ("first", "random", "greedy", "mcts")
EXACT_POLICIES = ("first", "random", "greedy")   # odds weigh exactly: a search plays games
MCTS_RUNS = 200          # a search's look-ahead runs for a decision, unless `mcts:N` says
MAX_MCTS_RUNS = 100_000  # (at most: a game's decisions times this many runs must end)


def weighs(policy: str) -> bool:
    """Whether a policy weighs its options by looking ahead: greedy, mcts and mcts:N (and a
    search's own walk through its tree, `search`)."""
    return policy == "greedy" or policy == "search" or policy == "mcts" or \
        policy.startswith("mcts:")


def mcts_runs(policy: str) -> int | None:
    """The runs of an `mcts` or `mcts:N` policy (None: not one, or N is no whole number
    from 1 to MAX_MCTS_RUNS)."""
    if policy == "mcts":
        return MCTS_RUNS
    head, _, runs = policy.partition(":")
    if head != "mcts" or not runs.isdigit() or len(runs) > 6:
        return None
    return int(runs) if 1 <= int(runs) <= MAX_MCTS_RUNS else None


def known_policy(policy: str) -> bool:
    """One of POLICIES, or mcts:N."""
    return policy in POLICIES or mcts_runs(policy) is not None


@dataclass
class Policies:
    """How decisions are filled: a default policy and per-decision overrides.

    A value is a policy name (first, random, greedy) or, for a scripted choice, an option name.
    """

    default: str = "first"
    # a decision's policy (an option, a number, or a policy): by its name, or by SIDE:NAME for
    # one side's (in a game: `--policy family:fate_reroll=keep`)
    by_decision: dict[str, str] = field(default_factory=dict)
    by_side: dict[str, str] = field(default_factory=dict)   # in a game: each side's player

    def for_decision(self, name: str, side: str | None = None) -> str:
        if side is not None and self.by_decision:
            found = self.by_decision.get(f"{side}:{name}")
            if found is not None:
                return found
        found = self.by_decision.get(name)
        if found is not None:
            return found
        return self.by_side.get(side, self.default) if side is not None else self.default

    @property
    def per_side(self) -> bool:
        """Whether a side's decisions are filled otherwise than the other's (then who decides
        must be known at each decision: the interpreter runs them)."""
        return bool(self.by_side) or any(":" in name for name in self.by_decision)

    def looks_ahead(self) -> bool:
        return any(p in ("random", "greedy")
                   for p in (self.default, *self.by_decision.values(), *self.by_side.values()))


# what a game's engine asks players (`casualty`: which model of a unit with places falls, where
# that is its owner's choice: game/engine.py)
ENGINE_DECISIONS = ("action", "destination", "placement", "casualty")


def policy_problem(ruleset, name: str, value: str) -> tuple[str, str] | None:
    """What is wrong with a policy for decision `name` (a message and a hint), or None: a
    policy, or what the decision can take (an option's name, a number, several numbers, a
    member's name: a fighter, a side, a piece)."""
    if known_policy(value):
        return None
    if value.startswith("mcts:"):
        return (f"'{value}' is no search: mcts:N takes N from 1 to {MAX_MCTS_RUNS:,} runs",
                f"e.g. {name}=mcts:{MCTS_RUNS}")
    found = ruleset.decisions.get(name)
    if found is None:   # one the engine asks (an action and its targets, a place): any label
        return None
    decision = found[1]
    if isinstance(decision, nodes.ChooseTuple):   # several values at once: a tuple
        if tuples.parse(decision, value) is None:
            names = ", ".join(n.name for n in decision.names)
            return (f"'{value}' is neither a policy nor {len(decision.names)} numbers for "
                    f"'{name}' ({names})",
                    f"policies: {', '.join(POLICIES)}; or one number for each of {names}, "
                    f"e.g. {name}=" + ",".join("0" for _ in decision.names))
        return None
    if isinstance(decision, nodes.ChooseNumber):
        if not value.lstrip("-").isdigit():
            return (f"'{value}' is neither a policy nor a number for '{name}'",
                    f"policies: {', '.join(POLICIES)}; or a whole number")
        return None
    if isinstance(decision, nodes.Choose):
        options = [o.name.name for o in decision.options]
        if value not in options:
            return (f"'{value}' is neither a policy nor an option of '{name}'",
                    did_you_mean(value, list(POLICIES) + options)
                    or f"options: {', '.join(options)}")
    return None   # a member of a group (a fighter's name, ...): known only in play


def check_number_range(stmt: nodes.ChooseNumber, low, high) -> None:
    """A decision among whole numbers needs whole bounds and something between them (E505)."""
    for bound in (low, high):
        if type(bound) is not int:
            raise RulesError(diag("E505", f"decision '{stmt.name.name}' chooses among whole "
                                          f"numbers, not up to {bound}", stmt.span))
    if low > high:
        raise RulesError(diag("E505", f"decision '{stmt.name.name}' has nothing to choose "
                                      f"from: {low}..{high}", stmt.span))


class OpenDecision(Exception):
    """Raised while probing (see strategy.py): a decision made before any roll, not yet fixed."""

    def __init__(self, name: str, options: list, side: int) -> None:
        super().__init__(name)
        self.name, self.options, self.side = name, options, side


class Decisions:
    """The part of the Interpreter that makes decisions (mixed into it)."""

    if TYPE_CHECKING:   # what the Interpreter provides, for the type checker
        policies: Policies
        choice_rng: random.Random
        fn: Compiler
        exact_mode: bool
        memoise: bool
        merging: bool
        valuing: bool
        cutoff: tuple | None
        cuts: int
        killers: dict
        branches: int
        drawn: int
        actor_side: int
        score: Callable
        game: GameHost | None

        def block(self, stmts, i: int, env: dict, world: World, k: Callable,
                  ret: Callable): ...

        def split(self, ids, world: World, then: Callable): ...

        def mix(self, parts): ...

    probing = False   # set by strategy.py to find the decisions each side makes up front

    def _probe(self, stmt, options, env, world) -> None:
        if self.probing and self.drawn == 0 and stmt.name.name not in \
                self.policies.by_decision and len(options) > 1:
            decider = self.fn(stmt.decider)(env, world)
            side = world.fighter(decider).side if decider.kind == "fighter" else decider.index
            raise OpenDecision(stmt.name.name, options, side)

    recorder: Recorder | None = None   # a game's log while a game is recorded or replayed
    # whether the game this interpreter runs is recorded or replayed, all along: what is
    # compiled for it tells its log (a look-ahead sets `recorder` aside while it runs, and a
    # function compiled then is kept for the rest of the game)
    recording = False

    def _deciding_side(self, stmt, env, world) -> str:
        decider = self.fn(stmt.decider)(env, world)
        side = world.fighter(decider).side if decider.kind == "fighter" else decider.index
        return world.sides[side].name

    def _logged(self, stmt, env, world, run, show):
        """run, noting the choice in the game's record (not the look-ahead's trial runs)."""
        recorder = self.recorder
        if recorder is None or not recorder.record:
            return run
        side = self._deciding_side(stmt, env, world)

        def logged(choice, w):
            # (not a look-ahead's runs: exact ones, or trials, which take the recorder away)
            if not self.exact_mode and self.recorder is recorder:
                recorder.decided(stmt.name.name, side, show(choice))
            return run(choice, w)
        return logged

    def logged(self, stmt, env, world, run, show):
        """run, noting the choice in the game's record (a spot on the board: run/spots.py)."""
        return self._logged(stmt, env, world, run, show)

    def policy_for(self, stmt, env, world) -> str:
        """The policy of a decision: named for it, else that of the side deciding (in a game);
        in a replay, the recorded choice."""
        if self.recorder is not None and self.recorder.script is not None and \
                not self.exact_mode:
            return str(self.recorder.scripted(stmt.name.name, None))
        if not self.policies.per_side:
            return self.policies.for_decision(stmt.name.name)
        decider = self.fn(stmt.decider)(env, world)
        side = world.fighter(decider).side if decider.kind == "fighter" else decider.index
        return self.policies.for_decision(stmt.name.name, world.sides[side].name)

    def choose_among(self, stmt: nodes.ChooseAmong, env, world, k, ret):
        """choose x by s among group: the policy picks a member; a script names one."""
        group = self.fn(stmt.group)(env, world)
        if not group:
            raise RulesError(diag("E505", f"decision '{stmt.name.name}' has nothing to choose "
                                          "from: the group is empty", stmt.group.span))
        policy = self.policy_for(stmt, env, world)

        def run(ref, w):
            return k({**env, stmt.name.name: ref}, w)
        # (a fighter or a side by its name, a piece by its kind and number: run/members.py)
        run = self._logged(stmt, env, world, run, lambda r: members.member_name(world, r))
        if policy in ("random", "greedy") and len(group) > 1:
            return self.decide(stmt, policy, list(group), run, env, world,
                               lambda r: members.member_name(world, r))
        named = members.named(world, group, policy)
        return run(named if named is not None else group[0], world)

    def choose(self, stmt: nodes.Choose, env, world, k, ret):
        policy = self.policy_for(stmt, env, world)

        def run(option, w):
            if option.body is None:
                return k(env, w)
            return self.block(option.body.stmts, 0, env, w, k, ret)
        run = self._logged(stmt, env, world, run, lambda o: o.name.name)

        def is_legal(option) -> bool:
            return option.when is None or self.fn(option.when)(env, world) is True

        if self.probing:
            self._probe(stmt, [o.name.name for o in stmt.options if is_legal(o)], env, world)
        if policy not in ("random", "greedy"):
            # scripted (an option's name) when that option is legal; otherwise the first legal
            named = [o for o in stmt.options if o.name.name == policy and is_legal(o)]
            return run(named[0] if named else next(o for o in stmt.options if is_legal(o)),
                       world)
        legal = [o for o in stmt.options if is_legal(o)]
        if len(legal) == 1:
            return run(legal[0], world)
        return self.decide(stmt, policy, legal, run, env, world, lambda o: o.name.name)

    def choose_number(self, stmt: nodes.ChooseNumber, env, world, k, ret):
        low, high = (self.fn(stmt.low)(env, world), self.fn(stmt.high)(env, world))
        check_number_range(stmt, low, high)
        values = list(range(low, high + 1))
        policy = self.policy_for(stmt, env, world)

        def run(value, w):
            return k({**env, stmt.name.name: value}, w)
        run = self._logged(stmt, env, world, run, lambda v: v)

        if self.probing:
            self._probe(stmt, [str(v) for v in values], env, world)
        if policy in ("random", "greedy") and len(values) > 1:
            return self.decide(stmt, policy, values, run, env, world, str)
        if policy.lstrip("-").isdecimal() and len(policy) <= 30 and int(policy) in values:
            return run(int(policy), world)   # scripted
        default = low
        if stmt.default is not None:
            default = min(max(self.fn(stmt.default)(env, world), low), high)
        return run(default, world)

    # several values at once: one decision that picks a tuple of numbers (run/tuples.py)
    def choose_tuple(self, stmt: nodes.ChooseTuple, env, world, k, ret):
        """choose hand (a, b, c) by x from low..high where ...: the policy picks one legal
        tuple; a script names one; `first` takes the default when it is legal."""
        low, high = (self.fn(stmt.low)(env, world), self.fn(stmt.high)(env, world))
        where = self.fn(stmt.where) if stmt.where is not None else None

        def allows(choice):
            return where is None or where(tuples.bind(env, stmt, choice), world)
        legal = tuples.options(stmt, low, high, tuples.key_values(stmt, env), allows)
        policy = self.policy_for(stmt, env, world)

        def run(choice, w):
            return k(tuples.bind(env, stmt, choice), w)
        run = self._logged(stmt, env, world, run, lambda c: tuples.shown(stmt, c))

        if self.probing:   # (named as --policy takes them: `odds --solve` prints a_hand=2,0,0)
            self._probe(stmt, [",".join(map(str, c)) for c in legal], env, world)
        if policy in ("random", "greedy") and len(legal) > 1:
            return self.decide(stmt, policy, legal, run, env, world,
                               lambda c: tuples.shown(stmt, c))
        scripted = tuples.parse(stmt, policy)
        if scripted is not None and scripted in legal:
            return run(scripted, world)
        default = None
        if stmt.default is not None:
            default = tuple(self.fn(d)(env, world) for d in stmt.default)
        return run(tuples.default_choice(stmt, legal, default), world)

    in_action = 0   # in a game: how deep in actions the run is

    def decide(self, stmt, policy, legal, run, env, world, show: Callable = str):
        """A random or greedy choice among the legal options (or numbers); `show` labels an
        option as the record writes it. In a sampled game a player that weighs (greedy,
        mcts) is asked through the game: it may play each option on past this run."""
        if policy == "greedy" and self.game is not None and not self.exact_mode:
            decider = self.fn(stmt.decider)(env, world)
            side = world.fighter(decider).side if decider.kind == "fighter" else decider.index
            index = self.game.weigh(side, stmt.name.name, legal, show, run, world)
            return run(legal[index], world)
        if self.exact_mode and policy == "greedy":
            # the decider has seen every roll so far: decide once per outcome of each
            pending = [i for i, d in world.lazies.items() if len(d) > 1]
            return self.split(pending, world, lambda w: self._decide(stmt, policy, legal, run,
                                                                     env, w))
        return self._decide(stmt, policy, legal, run, env, world)

    def _decide(self, stmt, policy, legal, run, env, world):
        if policy == "random" and type(stmt) is nodes.ChooseTuple:
            # a tuple is drawn one number at a time (run/tuples.py), not uniformly over tuples
            if self.exact_mode:
                return self.mix((share, run(o, world)) for share, o in tuples.shares(legal))
            return run(tuples.draw(legal, self.choice_rng), world)
        if policy == "random":
            if self.exact_mode:
                share = Fraction(1, len(legal))
                return self.mix((share, run(o, world)) for o in legal)
            return run(self.choice_rng.choice(legal), world)
        decider = self.fn(stmt.decider)(env, world)
        side = world.fighter(decider).side if decider.kind == "fighter" else decider.index
        sign = 1 if side == self.actor_side else -1
        if self.exact_mode:   # inside a look-ahead: this decision's future is part of it
            return self.look_ahead(legal, run, world, sign, id(stmt))[1]
        return run(self.look_ahead(legal, run, world, sign, id(stmt))[0], world)

    def look_ahead(self, legal, run, world, sign: int, key=None):
        """(the option with the best expected score for the side deciding, the distribution of
        what it leads to), following each option's future exactly (expectimax); sign -1 when
        the other side decides. key names the decision (a run that merges weighs first the
        option that was best there the last time: run/weighing.py)."""
        if self.merging:
            return self._look_ahead_merged(legal, run, world, sign, key)
        was_exact, was_memo, was_branches = self.exact_mode, self.memoise, self.branches
        self.exact_mode = self.memoise = True
        if not was_exact:
            self.branches = 0   # the limit bounds each look-ahead, not a whole sampling session
        try:
            best, best_value, best_dist = None, None, None
            for option in legal:
                outcome = as_dist(run(option, world))
                expected = outcome.mean_of(self.score) * sign
                if best_value is None or expected > best_value:
                    best, best_value, best_dist = option, expected, outcome
        finally:
            self.exact_mode, self.memoise = was_exact, was_memo
            if not was_exact:
                self.branches = was_branches
        return best, best_dist

    def _look_ahead_merged(self, legal, run, world, sign: int, key):
        """look_ahead in a run that merges (run/merging.py): each option is weighed by its
        expected score alone (the paths' scores added up, not their distributions: valuing),
        then the best one's future is followed as the run follows it (a distribution, unless
        valuing already). The same option as weighing whole distributions takes: the same
        expected scores, exactly. An option a later decision of the other side shows to be no
        better than the best so far is left unfinished (run/weighing.py)."""
        was = self.valuing
        self.valuing = True
        try:
            index, value, _ = weighing.weigh(self, key, legal, run, world, sign)
        finally:
            self.valuing = was
        best = legal[index]
        if was:   # (a cut-off weighing's value is a bound, which only the decision above reads)
            return best, value * sign
        return best, run(best, world)
