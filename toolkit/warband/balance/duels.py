"""What fighters do to one another, exactly: one attack's odds, and duels fought to the end.

**Attacks.** An attack is any action whose first two parameters are fighters (the one acting,
then the one acted on) and whose other parameters have defaults (or are a piece of equipment:
then each piece the actor carries is an attack of its own, `shoot with Carbine`). Among those,
the ones that can *hurt*: they remove the target, or change one of its lasting values, with a
chance above nothing, against this target from this state (so `flee`, which marks its chaser
as having fought, is no attack, and an exchange that cannot hurt a hero this round is one
while it could hurt a lesser foe).

**Duels.** Two fighters alone, with no board (every fighter in reach and in sight, as `warband
odds` has them), act in turn: on its turn a fighter makes one attack on the other, or passes if
it has none it may make (stunned). After its turn, the values the ruleset's phases reset every
turn or round (a `set f.X = VALUE` of a fixed value in a phase: Super Simple Skirmish's Stunned
and Defending, Swords Against Sorcery's Fought and MissileDice) go back to that value, for the
fighter whose turn ended: a stun lasts through its victim's next turn, as the rules say. The
duel ends when a fighter is removed (both: a draw), or after a round limit if one is given.

Its states are the two fighters' values (and their sides'), and whose turn it is; from each,
the odds of the attack chosen are worked out exactly by the interpreter, and the chain of
states is solved exactly (chain.py): the chances that each fighter wins, as fractions, with
no round limit (a fight that can never end is a draw) unless one is asked for.

Which attack a fighter makes: the one most likely to remove the other fighter, less its own
risk of being removed (ties: the better expected result, then the order the rules declare
them), worked out exactly from the state it is in; under the `random` policy, every attack it
may make, equally likely. Every decision inside an attack is the policy's: `first` (each
decision's first option or declared default: the rules' own defaults), `random`, `greedy`
(decisions look ahead, exactly). A duel is fought both ways, each fighter acting first in one,
and the matrix gives the average.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Callable

from warband.balance import chain
from warband.balance.profiles import Profile
from warband.diagnostics import Diagnostic, diag
from warband.lang import nodes
from warband.lang.ruleset import Ruleset
from warband.limits import MAX_DUEL_COMPONENT, MAX_DUEL_STATES
from warband.run.dice import Dist
from warband.run.interpreter import Interpreter, Policies, RulesError
from warband.run.world import Ref, World, changed, changed_side, make_world, new_world

# a duel's ends (the chain's labels): fighter 0 (profile a) wins, fighter 1 (b) wins, both fall,
# the round limit
A_WINS, B_WINS, BOTH, LIMIT = "a", "b", "both", "limit"
A, B = Ref("fighter", 0), Ref("fighter", 1)


@dataclass(frozen=True)
class Attack:
    """One attack a fighter may make: an action, with the names of its actor and target
    parameters and any fixed arguments (a piece of equipment)."""

    action: str
    actor: str
    target: str
    extra: tuple = ()     # ((parameter, value), ...)

    @property
    def label(self) -> str:
        return self.action + "".join(f" with {v}" for _, v in self.extra)

    def args(self, me: Ref, other: Ref) -> dict:
        return {self.actor: me, self.target: other, **dict(self.extra)}


def attack_actions(ruleset: Ruleset) -> list[tuple[str, str, str, list[str]]]:
    """The actions that may be attacks: (action, actor, target, equipment parameters)."""
    out = []
    for name, decl in ruleset.procedures.items():
        if decl.kind != "action" or len(decl.params) < 2:
            continue
        first, second = decl.params[0], decl.params[1]
        if not all(p.type is not None and p.type.name == "fighter" for p in (first, second)):
            continue
        gear = []
        usable = True
        for p in decl.params[2:]:
            if p.default is not None:
                continue
            if p.type is not None and p.type.name == "equipment":
                gear.append(p.name.name)
            else:
                usable = False
        if usable and len(gear) <= 1:
            out.append((name, first.name.name, second.name.name, gear))
    return out


def reset_values(ruleset: Ruleset) -> dict[str, object]:
    """The fighters' flags and counters that the ruleset's phases set to a fixed value (a
    turn's or a round's marks), with that value."""
    fighter_states = {n for n, s in ruleset.states.items() if s.owner == "fighter"}
    found: dict[str, object] = {}

    def visit(node) -> None:
        if isinstance(node, nodes.Set) and node.op == "=" and len(node.target) == 2 and \
                node.target[1].name in fighter_states:
            value = node.value
            if isinstance(value, (nodes.Int, nodes.Bool)):
                found.setdefault(node.target[1].name, value.value)
        if isinstance(node, (tuple, list)):
            for item in node:
                visit(item)
            return
        fields = getattr(node, "__dataclass_fields__", None)
        if fields is None:
            return
        for name in fields:
            child = getattr(node, name, None)
            if isinstance(child, (tuple, list)) or hasattr(child, "__dataclass_fields__"):
                visit(child)
    for decl in ruleset.procedures.values():
        if decl.kind == "phase":
            visit(decl.body)
    return found


@dataclass
class Strike:
    """One attack of one fighter on another, from the duel's start: its odds."""

    attack: str
    distribution: Dist              # of the action's result
    order: list                     # the results, in the order the rules declare them
    kill: Fraction                  # the target removed
    lost: Fraction                  # the actor removed (a riposte, a fall)
    expected: Fraction | None       # the result's expected score, where results score


@dataclass
class Duel:
    """Two profiles' duel: the chances of each end, with each acting first."""

    a: int
    b: int
    a_first: dict = field(default_factory=dict)   # end -> Fraction, profile a acting first
    b_first: dict = field(default_factory=dict)
    turns_a_first: Fraction | None = None   # expected turns, where the duel surely ends
    turns_b_first: Fraction | None = None
    states: int = 0
    problem: Diagnostic | None = None

    @property
    def solved(self) -> bool:
        return self.problem is None

    def wins(self, who: str) -> Fraction:
        """The chance that `who` ('a' or 'b') wins, each acting first half the time."""
        return (self.a_first.get(who, 0) + self.b_first.get(who, 0)) / 2

    @property
    def draw(self) -> Fraction:
        return 1 - self.wins("a") - self.wins("b")


class Duels:
    """Duels and strikes between profiles of one ruleset, under one policy."""

    def __init__(self, ruleset: Ruleset, policies: Policies, rounds: int | None = None,
                 limit: int | None = None, component_limit: int | None = None,
                 actions: list[str] | None = None) -> None:
        self.ruleset = ruleset
        self.policies = policies
        self.rounds = rounds
        self.limit = limit if limit is not None else MAX_DUEL_STATES
        self.component_limit = component_limit if component_limit is not None \
            else MAX_DUEL_COMPONENT
        self.interpreter = Interpreter(ruleset, policies)
        self.resets = reset_values(ruleset)
        self.candidates = [c for c in attack_actions(ruleset)
                           if actions is None or c[0] in actions]
        fighter_states = [n for n, s in ruleset.states.items() if s.owner == "fighter"]
        self.lasting = [n for n in list(ruleset.stats) + fighter_states if n not in self.resets]

    # ---- worlds and states ------------------------------------------------------------------
    def start(self, a: Profile, b: Profile) -> World:
        return make_world(self.ruleset, [a.spec(0), b.spec(1)], [{}, {}])

    @staticmethod
    def snapshot(world: World) -> tuple:
        """What a duel's state keeps of a world: each fighter's values and whether it is
        removed, each side's values."""
        return (tuple((tuple(f.values.values()), f.removed) for f in world.fighters),
                tuple(tuple(s.values.values()) for s in world.sides))

    @staticmethod
    def world_at(base: World, snap: tuple) -> World:
        fighters = tuple(changed(f, dict(zip(f.values, values)), removed, f.position,
                                 f.withdrawn)
                         for f, (values, removed) in zip(base.fighters, snap[0]))
        sides = tuple(changed_side(s, dict(zip(s.values, values)), s.conceded)
                      for s, values in zip(base.sides, snap[1]))
        return new_world(fighters, sides, {}, base.pieces)

    def reset(self, base: World, snap: tuple, who: int) -> tuple:
        """The snapshot with fighter `who`'s turn marks back to what the phases reset them to."""
        if not self.resets:
            return snap
        names = list(base.fighters[who].values)
        values, removed = snap[0][who]
        new = tuple(self.resets[n] if n in self.resets else v for n, v in zip(names, values))
        fighters = list(snap[0])
        fighters[who] = (new, removed)
        return (tuple(fighters), snap[1])

    # ---- attacks ------------------------------------------------------------------------------
    def attacks(self, world: World, me: int) -> list[Attack]:
        """The attacks fighter `me` may make on the other now (allowed by their `requires`)."""
        mine, other = Ref("fighter", me), Ref("fighter", 1 - me)
        if world.fighters[me].removed or world.fighters[1 - me].removed:
            return []
        out = []
        for action, actor, target, gear in self.candidates:
            choices: list[tuple] = [()]
            if gear:
                choices = [((gear[0], piece),) for piece in world.fighters[me].equipment]
            for extra in choices:
                attack = Attack(action, actor, target, extra)
                if self.interpreter.allowed(action, attack.args(mine, other), world):
                    out.append(attack)
        return out

    def odds(self, world: World, me: int, attack: Attack) -> Dist:
        """The joint distribution of (result, snapshot after) of one attack."""
        mine, other = Ref("fighter", me), Ref("fighter", 1 - me)
        self.interpreter.acting = mine
        return self.interpreter.exact(attack.action, attack.args(mine, other), world,
                                      observe=self.snapshot)

    def hurts(self, world: World, me: int, joint: Dist) -> bool:
        """Whether an attack can remove the other fighter or change its lasting values."""
        other = 1 - me
        before = list(world.fighters[other].values.items())
        keep = [(i, v) for i, (n, v) in enumerate(before) if n in self.lasting]
        for (_, snap), p in joint.items():
            values, removed = snap[0][other]
            if p and (removed or any(values[i] != v for i, v in keep)):
                return True
        return False

    def scores(self, decl, result: Dist) -> bool:
        """Whether an action's results have a score to average: declared outcomes, or
        numbers."""
        if decl.result is not None and decl.result.name in self.ruleset.outcomes:
            return True
        return all(isinstance(v, (int, Fraction)) and not isinstance(v, bool) for v in result)

    def strike(self, world: World, me: int, attack: Attack, joint: Dist) -> Strike:
        decl = self.ruleset.procedures[attack.action]
        result = joint.map(lambda pair: pair[0])
        kill = joint.probability(lambda pair: pair[1][0][1 - me][1])   # type: ignore[index]
        lost = joint.probability(lambda pair: pair[1][0][me][1])   # type: ignore[index]
        score = self.interpreter.scorer(decl)
        expected = result.mean_of(score) if self.scores(decl, result) else None
        if decl.result is not None and decl.result.name in self.ruleset.outcomes:
            order = [n for n, _ in self.ruleset.outcomes[decl.result.name].scores]
        else:
            order = sorted(result, key=lambda v: (str(type(v)), v))
        return Strike(attack.label, result, order, kill, lost, expected)

    def strikes(self, a: Profile, b: Profile) -> list[Strike]:
        """Every attack `a` may make on `b` at the start, with its odds (those that hurt)."""
        world = self.start(a, b)
        out = []
        for attack in self.attacks(world, 0):
            joint = self.odds(world, 0, attack)
            if self.hurts(world, 0, joint):
                out.append(self.strike(world, 0, attack, joint))
        return out

    def choose(self, world: World, me: int) -> list[tuple[Fraction, Dist]]:
        """The attack (or mixture of attacks) fighter `me` makes, by the policy: [(weight,
        joint odds)]; [] when it has none."""
        found = []
        for attack in self.attacks(world, me):
            joint = self.odds(world, me, attack)
            if self.hurts(world, me, joint):
                found.append((attack, joint))
        if not found:
            return []
        if self.policies.default == "random":
            return [(Fraction(1, len(found)), joint) for _, joint in found]

        def worth(item) -> tuple:   # the attack most likely to remove the foe (docstring)
            attack, joint = item
            kill = joint.probability(lambda pair: pair[1][0][1 - me][1])
            lost = joint.probability(lambda pair: pair[1][0][me][1])
            decl = self.ruleset.procedures[attack.action]
            result = joint.map(lambda pair: pair[0])
            mean = result.mean_of(self.interpreter.scorer(decl)) \
                if self.scores(decl, result) else 0
            return (kill - lost, mean)
        best = max(found, key=worth)   # (max keeps the first of equals: the declared order)
        return [(Fraction(1), best[1])]

    # ---- duels --------------------------------------------------------------------------------
    def duel(self, a: Profile, b: Profile, ia: int = 0, ib: int = 0) -> Duel:
        """The duel of profile a (fighter 0) and profile b (fighter 1), each acting first once."""
        base = self.start(a, b)
        snap0 = self.snapshot(base)
        cache: dict = {}
        rounds = self.rounds

        def step(state) -> dict:
            mover, turns, snap = state
            if rounds is not None and turns >= 2 * rounds:
                return {chain.End(LIMIT): Fraction(1)}
            key = (mover, snap)
            moves = cache.get(key)
            if moves is None:
                world = self.world_at(base, snap)
                picked = self.choose(world, mover)
                moves = {}
                if not picked:
                    nxt = self.reset(base, snap, mover)
                    moves[("go", nxt)] = Fraction(1)
                for weight, joint in picked:
                    for (_, after), p in joint.items():
                        a_out, b_out = after[0][0][1], after[0][1][1]
                        if a_out and b_out:
                            target: object = chain.End(BOTH)
                        elif b_out:
                            target = chain.End(A_WINS)
                        elif a_out:
                            target = chain.End(B_WINS)
                        else:
                            target = ("go", self.reset(base, after, mover))
                        moves[target] = moves.get(target, 0) + weight * p
                cache[key] = moves
            out: dict = {}
            for target, p in moves.items():
                if isinstance(target, chain.End):
                    out[target] = out.get(target, 0) + p
                else:
                    nxt = (1 - mover, turns + 1 if rounds is not None else 0,
                           target[1])   # type: ignore[index]
                    out[nxt] = out.get(nxt, 0) + p
            return out

        starts = [(0, 0, snap0), (1, 0, snap0)]
        found = Duel(ia, ib)
        try:
            solution = chain.solve(starts, step, (A_WINS, B_WINS, BOTH, LIMIT), self.limit,
                                   self.component_limit)
        except chain.TooManyStates as error:
            found.states = error.found
            found.problem = too_large(a, b, error)
            return found
        found.states = solution.states
        found.a_first = dict(solution.chances[starts[0]])
        found.b_first = dict(solution.chances[starts[1]])
        found.turns_a_first = solution.steps[starts[0]]
        found.turns_b_first = solution.steps[starts[1]]
        return found


def too_large(a: Profile, b: Profile, error: chain.TooManyStates) -> Diagnostic:
    return diag("E940", f"the duel of {a.name} and {b.name} is too large to solve exactly: "
                        f"{error}; a state is both fighters' values, their sides' and whose "
                        "turn it is", None,
                hint="cut it short with --rounds N (a duel whose states only lead onwards is "
                     "solved state by state)" if error.kind == "component" else
                "cut it short with --rounds N, or weigh fewer fighters whose values change "
                "without end")


def matrix(duels: Duels, profiles: list[Profile],
           progress: Callable[[int, int], None] | None = None) -> dict[tuple[int, int], Duel]:
    """Every pair's duel (each profile against itself too): {(i, j): Duel}, i <= j."""
    out: dict[tuple[int, int], Duel] = {}
    pairs = [(i, j) for i in range(len(profiles)) for j in range(i, len(profiles))]
    for n, (i, j) in enumerate(pairs):
        out[(i, j)] = duels.duel(profiles[i], profiles[j], i, j)
        if progress is not None:
            progress(n + 1, len(pairs))
    return out


def win_chance(found: dict[tuple[int, int], Duel], i: int, j: int) -> Fraction | None:
    """The chance that profile i beats profile j (each acting first half the time)."""
    duel = found.get((min(i, j), max(i, j)))
    if duel is None or not duel.solved:
        return None
    return duel.wins("a" if i <= j else "b")


__all__ = ["Attack", "Duel", "Duels", "Strike", "attack_actions", "matrix", "reset_values",
           "win_chance", "RulesError"]
