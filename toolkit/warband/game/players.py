"""The players of a game: which actions an activated fighter may take, and how a side picks
one of the labelled options a game offers it (an action, a destination, a place to set up).

A side's policy decides: at random, greedily (by what the look-ahead says an option is worth),
the first option, or a named one; a replayed record's choices come before any policy. Every
choice is recorded in the game's log. A random player draws from its own seeded stream, apart
from the dice, so a replay that takes its choices from a log sees exactly the same dice.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Callable

from warband.game.gamelog import ReplayMismatch, shown
from warband.game.options import Options
from warband.run.codegen.runtime import Interpret
from warband.run.decisions import Policies
from warband.run.dice import random_below
from warband.run.world import Ref, World

if TYPE_CHECKING:
    from warband.game.engine import Game


class Players:
    """A game's players: their policies, their random stream, and the choices they make."""

    def __init__(self, game: Game, policies: Policies, choice_rng: random.Random,
                 options: Options) -> None:
        self.game = game
        self.interp = game.interp
        self.policies = policies
        self.choice_rng = choice_rng
        self.options = options   # what an activated fighter may do (options.py)
        # side -> whether its player picks actions at random; (kind of decision, side) ->
        # whether pick draws that decision at random with nothing recorded or replayed
        self.randomly: dict = {}

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
        getrandbits, bits = self.choice_rng.getrandbits, count.bit_length()
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
        return legal[random_below(self.choice_rng, len(legal))] if len(legal) > 1 else legal[0]

    def plays_at_random(self, side_name: str) -> bool:
        """Whether a side's actions are drawn at random (with no record being replayed)."""
        randomly = self.randomly.get(side_name)
        if randomly is None:
            randomly = self.randomly[side_name] = self.game.log.script is None and \
                self.policies.for_decision("action", side_name) == "random"
        return randomly

    def pick(self, side: int, kind: str, labels: list[str] | Callable[[], list[str]],
             world: World, value: Callable[[int], float] | None = None,
             count: int = 0) -> int:
        """One of the labelled options, by the side's policy, a replayed script, or a name.
        `labels` may be a function that makes them (then `count` says how many there are): a
        random player not being recorded needs only how many there are."""
        side_name = world.sides[side].name
        log = self.game.log
        if callable(labels):
            randomly = self.randomly.get((kind, side_name))
            if randomly is None:   # (asked for every move of a game)
                randomly = self.randomly[(kind, side_name)] = \
                    self.policies.for_decision(kind, side_name) == "random" and \
                    not log.record and log.script is None
            if randomly:
                return random_below(self.choice_rng, count) if count > 1 else 0
            labels = labels()
        scripted = log.scripted(kind, labels)
        if scripted is not None:
            index = scripted
        else:
            policy = self.policies.for_decision(kind, side_name)
            if policy in labels:
                index = labels.index(policy)
            elif policy == "greedy" and value is not None and len(labels) > 1:
                values = [value(i) for i in range(len(labels))]
                best = max(values)
                index = values.index(best)
            elif policy == "first" or len(labels) == 1:
                index = 0   # (one option: nothing drawn, recorded or not)
            else:
                index = random_below(self.choice_rng, len(labels))
        log.decided(kind, side_name, labels[index])
        return index

    def spots(self, cells: list, fits: Callable[[tuple], bool]) -> list:
        """The cells where something fits; a random player needs only one, so a few random
        tries come first, and the whole zone is searched only when they all fail."""
        policy_random = self.policies.default == "random" and not self.policies.by_side
        if policy_random and self.game.log.script is None and cells:
            for _ in range(30):
                c = cells[random_below(self.choice_rng, len(cells))]
                if fits(c):
                    return [c]
        return [c for c in cells if fits(c)]

    def place_spot(self, side: int, spots: list, world: World) -> tuple:
        """Where a side sets something up, among the spots where it fits."""
        log = self.game.log
        policy = self.policies.for_decision("placement", world.sides[side].name)
        scripted = log.scripted("placement", None)
        if scripted is not None:
            spot = tuple(scripted) if isinstance(scripted, list) else ()   # (a record's place)
            if spot not in spots:
                raise ReplayMismatch(f"the log places at {shown(scripted)}, where nothing may "
                                     "be placed now", log.at)
            log.decided("placement", world.sides[side].name, list(spot))
            return spot
        spot = spots[0] if policy == "first" else spots[random_below(self.choice_rng, len(spots))]
        if log.record:
            log.decided("placement", world.sides[side].name, list(spot))
        return spot
