"""The players of a game: which actions an activated fighter may take, and how a side picks
one of the options a game offers it (an action, a destination, a place to set up, and every
decision the rules name).

A side's policy decides: at random, the first option, a named one, or a player that weighs
its options by looking ahead: `greedy` (game/greedy.py) or `mcts:N` (game/search.py). A
replayed record's choices come before any policy. Every choice is recorded in the game's log.
A random player draws from its own seeded stream, apart from the dice, so a replay that takes
its choices from a log sees exactly the same dice.

A player that weighs sees a DecisionPoint (game/explore.py): who decides, the options and how
to play each on; it never reaches into the engine. The interpreter knows such players by one
policy name, `greedy`: it asks the game (Game.weigh), and the game asks the side's player.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable

from warband.game.explore import DecisionPoint
from warband.game.gamelog import ReplayMismatch, shown
from warband.game.options import Options
from warband.run.codegen.runtime import Interpret
from warband.run.decisions import Policies, weighs
from warband.run.dice import random_below
from warband.run.world import Ref, World

if TYPE_CHECKING:
    from warband.game.engine import Game


class Players:
    """A game's players: their policies, their random stream, and the choices they make."""

    def __init__(self, game: Game, policies: Policies, options: Options) -> None:
        self.game = game
        self.interp = game.interp
        self.options = options   # what an activated fighter may do (options.py)
        self.policies = policies
        self.randomly: dict = {}
        self.use(policies)
        # the players that weigh, by policy (made when first asked)
        self.weighing: dict[str, Callable[[DecisionPoint], int]] = {}

    def use(self, policies: Policies) -> None:
        """Play by these policies from now on (the interpreter knows every player that weighs
        by one name, greedy: it asks the game, which asks the side's player)."""
        self.policies = policies
        self.interp.policies = as_interpreted(policies)
        # side -> whether its player picks actions at random; (kind of decision, side) ->
        # whether pick draws that decision at random with nothing recorded or replayed
        self.randomly = {}

    def look_past_runs(self) -> bool:
        """Whether a side's player may play on past the run a decision is in."""
        policies = self.policies
        return any(weighs(p) for p in (policies.default, *policies.by_decision.values(),
                                       *policies.by_side.values()))

    def legal(self, ref: Ref, names: tuple[str, ...] | list[str], world: World,
              forces: int | None = None) -> list[tuple[str, dict]]:
        """Every legal (action, arguments): the fighter first; other fighter parameters take
        every other fighter in play; parameters with a default keep it. `forces`: the number
        Options gives the game's fighters (worked out from the world when not given)."""
        interp, legal = self.interp, self.options.legal
        return [option[5] for option in self.options.candidates(interp, ref, names, world,
                                                                forces)
                if legal(interp, option, world)]

    def random_option(self, ref: Ref, names: tuple[str, ...] | list[str], world: World,
                      forces: int | None = None):
        """A legal (action, arguments), each equally likely, or None: candidates are drawn at
        random and tested until one is legal (which picks uniformly among the legal ones
        without testing them all); after as many failures as twice the candidates, the legal
        ones are listed and one is drawn from them."""
        interp, options = self.interp, self.options
        candidates = options.candidates(interp, ref, names, world, forces)
        count = len(candidates)
        passes, fighters, lazies = options.passes, world.fighters, world.lazies
        # random_below written out (the same draws): this is the engine's inner loop
        getrandbits, bits = self.interp.choice_rng.getrandbits, count.bit_length()
        for _ in range(2 * count):
            r = getrandbits(bits)
            while r >= count:
                r = getrandbits(bits)
            _, _, test, refs, targets, pair = candidates[r]
            if targets and (fighters[targets[0]].removed if len(targets) == 1 else
                            any(fighters[i].removed for i in targets)):
                continue   # a target no longer in play
            if test is None:
                return pair
            try:
                if lazies:
                    raise Interpret
                if test(interp, world, *refs) is True:
                    return pair
            except Interpret:   # the interpreter answers what generated code leaves to it
                if passes(interp, test, world, refs):
                    return pair
        legal = [option[5] for option in candidates if options.legal(interp, option, world)]
        if not legal:
            return None
        return legal[random_below(self.interp.choice_rng, len(legal))] if len(legal) > 1 else legal[0]

    def plays_at_random(self, side_name: str) -> bool:
        """Whether a side's actions are drawn at random (with no record being replayed)."""
        randomly = self.randomly.get(side_name)
        if randomly is None:
            randomly = self.randomly[side_name] = self.game.state.log.script is None and \
                self.policies.for_decision("action", side_name) == "random"
        return randomly

    def pick(self, side: int, kind: str, labels: list[str] | Callable[[], list[str]],
             world: World, worth: Callable[[int], float | None] | None = None,
             count: int = 0, resume: Callable[[int, World], object] | None = None) -> int:
        """One of the labelled options, by the side's policy, a replayed script, or a name.
        `labels` may be a function that makes them (then `count` says how many there are): a
        random player not being recorded needs only how many there are. A player that
        weighs the options plays each on with `resume` (option i's continuation: what the
        engine's work the decision is in gives back), or asks `worth` (an option's worth
        worked out otherwise, or None)."""
        side_name = world.sides[side].name
        log = self.game.state.log
        if callable(labels):
            randomly = self.randomly.get((kind, side_name))
            if randomly is None:   # (asked for every move of a game)
                randomly = self.randomly[(kind, side_name)] = \
                    self.policies.for_decision(kind, side_name) == "random" and \
                    not log.record and log.script is None
            if randomly:
                return random_below(self.interp.choice_rng, count) if count > 1 else 0
            labels = labels()
        scripted = log.scripted(kind, labels)
        if scripted is not None:
            index = scripted
        else:
            policy = self.policies.for_decision(kind, side_name)
            if policy in labels:
                index = labels.index(policy)
            elif weighs(policy) and len(labels) > 1 and resume is not None:
                shown = labels
                index = self.weigh(policy, self.game.point(side, kind, len(labels),
                                                           world, lambda: shown, resume, worth))
            elif weighs(policy) and len(labels) > 1 and worth is not None:
                # (no way to play on from it: the option worth most now, the first of equals)
                index = max(range(len(labels)), key=lambda i: (worth(i) or 0.0, -i))
            elif policy == "first" or len(labels) == 1:
                index = 0   # (one option: nothing drawn, recorded or not)
            else:
                index = random_below(self.interp.choice_rng, len(labels))
        log.decided(kind, side_name, labels[index])
        return index

    def weigh(self, policy: str, point: DecisionPoint) -> int:
        """The option a player that weighs takes (greedy, mcts:N, a search's walk)."""
        player = self.weighing.get(policy)
        if player is None:
            player = self.weighing[policy] = self.game.player(policy)
        return player(point)

    def weigh_spot(self, policy: str, side: int, spots: list, world: World,
                   worth: Callable[[tuple], float]) -> tuple:
        """The spot a player that weighs sets something up at (place_spot)."""
        _, choices = self.game.explorer.streams()
        candidates = choices.sample(spots, min(len(spots), CANDIDATES))
        point = DecisionPoint(side, "placement", len(candidates), world,
                              lambda: [str(list(c)) for c in candidates], _unresumable, (),
                              self.interp.run_context(), lambda i: worth(candidates[i]))
        return candidates[self.weigh(policy, point)]

    def spots(self, cells: list, fits: Callable[[tuple], bool]) -> list:
        """The cells where something fits; a random player needs only one, so a few random
        tries come first, and the whole zone is searched only when they all fail."""
        policies = self.policies
        # (every side's placements random: a `--policy placement=greedy` weighs them all)
        policy_random = policies.for_decision("placement") == "random" and \
            not policies.by_side and \
            not any(name.endswith(":placement") for name in policies.by_decision)
        if policy_random and self.game.state.log.script is None and cells:
            for _ in range(30):
                c = cells[random_below(self.interp.choice_rng, len(cells))]
                if fits(c):
                    return [c]
        return [c for c in cells if fits(c)]

    def place_spot(self, side: int, spots: list, world: World,
                   worth: Callable[[tuple], float] | None = None) -> tuple:
        """Where a side sets something up, among the spots where it fits. A player that
        weighs takes the best of at most CANDIDATES of them, drawn at random (in a random
        order: the first of equally good ones is any of them) from the look-ahead's stream,
        by `worth`: the side's worth once it stands there."""
        log = self.game.state.log
        policy = self.policies.for_decision("placement", world.sides[side].name)
        scripted = log.scripted("placement", None)
        if scripted is not None:
            spot = tuple(scripted) if isinstance(scripted, list) else ()   # (a record's place)
            if spot not in spots:
                raise ReplayMismatch(f"the log places at {shown(scripted)}, where nothing may "
                                     "be placed now", log.at)
            log.decided("placement", world.sides[side].name, list(spot))
            return spot
        if weighs(policy) and worth is not None and len(spots) > 1:
            spot = self.weigh_spot(policy, side, spots, world, worth)
        elif policy == "first":
            spot = spots[0]
        else:
            spot = spots[random_below(self.interp.choice_rng, len(spots))]
        if log.record:
            log.decided("placement", world.sides[side].name, list(spot))
        return spot


CANDIDATES = 16   # the spots a player that weighs where to set something up looks at


def _unresumable(option: int, world: World) -> World:   # pragma: no cover - never called
    raise TypeError("a place to set up is weighed by its worth, not played on")


def as_interpreted(policies: Policies) -> Policies:
    """The policies as the interpreter takes them: every player that weighs is `greedy` (the
    interpreter asks the game, Game.weigh, which asks the side's own player)."""
    values = (policies.default, *policies.by_decision.values(), *policies.by_side.values())
    if not any(weighs(p) and p != "greedy" for p in values):
        return policies

    def one(p: str) -> str:
        return "greedy" if weighs(p) else p
    return Policies(one(policies.default), {k: one(v) for k, v in policies.by_decision.items()},
                    {k: one(v) for k, v in policies.by_side.items()})
