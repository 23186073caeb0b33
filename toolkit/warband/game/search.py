"""The search player, `mcts:N`: Monte-Carlo tree search over sampled chance outcomes, started
from greedy's estimates.

At each decision with more than one option the player first weighs the options as greedy does
(game/greedy.py: exact odds where the odds engine can follow them, else the options race),
and searches only among the options greedy has not ruled out, greedy's estimate of each
counting as PRIOR runs of it. It spends its N runs on them by sequential halving: in each
stage every option still in play is run equally often with the same seeds (common random
numbers), and the better half by mean worth goes on, until one is left. Each run plays its
root option on from a copy of the game's state (game/explore.py) and scores the position where
it stops by its worth (game/worth.py) for the searching side. Every later decision in the run,
whoever makes it, is a node of the tree while the run is inside it (UCT: the option with the
best mean worth for whoever decides there, plus an exploration bonus for options seldom
tried); the first decision outside the tree adds one node, and the rest of the run is played
at random (and fast: generated code). The tree is "open loop": a node is a sequence of
decisions, and its statistics average over the dice that fell between them.

A run stops at the horizon: once as many activations have begun as there were fighters in play
at the decision (about one round: every enemy gets to answer), or at the game's end.

Deterministic under the game's seed: the runs draw dice and random choices from the look-ahead's
own streams, seeded from the search's own seeded stream, which also makes the tree's random
picks (which untried option first).
"""

from __future__ import annotations

import math
import random
from typing import TYPE_CHECKING

from warband.game.explore import DecisionPoint, Horizon
from warband.game.greedy import Greedy
from warband.run.decisions import Policies

if TYPE_CHECKING:
    from warband.game.engine import Game

EXPLORE = 1.0   # UCT's exploration constant, on worths scaled to 0..1 by those seen
PRIOR = 2       # runs greedy's estimate of a root option counts as
TREE = Policies("search")   # every side's decisions go to the tree, inside it
OUTSIDE = Policies("random")   # and at random once a run has left it


class Node:
    """Decisions taken so far in a run: how often, and the sum of the worths they led to."""

    __slots__ = ("visits", "total", "children")

    def __init__(self) -> None:
        self.visits = 0
        self.total = 0.0
        self.children: dict[tuple[str, str], Node] = {}


class Search:
    """A search player of a game (one per policy: mcts:N)."""

    def __init__(self, game: Game, runs: int) -> None:
        self.game, self.runs = game, runs
        self.rng = random.Random(f"search {game.seed}")
        self.low, self.high = math.inf, -math.inf   # the worths seen (for the tree's rule)
        self.greedy = Greedy(game)

    def __call__(self, point: DecisionPoint) -> int:
        game = self.game
        if not point.resumable:   # (inside a marker's `when entered` block: weighed greedily)
            return game.players.weigh("greedy", point)
        # greedy's estimates: the options it has not ruled out, best first
        estimates = self.greedy.estimates(point)
        ranked = sorted(estimates, key=lambda i: (-estimates[i], i))
        if len(ranked) == 1:
            return ranked[0]
        root = Node()
        # (the root's options by their place: two may have one label, a route's "stay")
        side, labels = point.side, [str(i) for i in range(point.count)]
        depth = max(2, sum(1 for f in point.world.fighters if not f.removed))
        explorer, players = game.explorer, game.players
        self.low = min(estimates.values())
        self.high = max(estimates.values())
        for i in ranked:   # greedy's estimate, as PRIOR runs
            child = root.children[("root", labels[i])] = Node()
            child.visits, child.total = PRIOR, PRIOR * estimates[i]
            root.visits += PRIOR

        def mean(i: int) -> float:
            child = root.children[("root", labels[i])]
            return child.total / child.visits
        # sequential halving with common random numbers: in each stage every option still in
        # play is run with the same seeds, and the better half by mean worth goes on
        alive, budget = ranked, self.runs
        stages = max(1, math.ceil(math.log2(len(alive))))
        dice, choices = explorer.streams()
        while len(alive) > 1 and budget > 0:
            per = max(1, budget // (len(alive) * stages))
            seeds = [self.rng.getrandbits(64) for _ in range(per)]
            for option in alive:
                for seed in seeds:
                    dice.seed(seed)
                    choices.seed(seed ^ 0x5DEECE66D)
                    walk = Walk(self, root.children[("root", labels[option])], side)
                    players.weighing["search"] = walk
                    world = explorer.play_on(point, option, TREE, Horizon(depth))
                    worth = game.value(world, side)
                    self.low, self.high = min(self.low, worth), max(self.high, worth)
                    for node in (root, *walk.path):
                        node.visits += 1
                        node.total += worth
                    budget -= 1
            # (the best mean first; of equals, greedy's order)
            alive = sorted(alive, key=lambda i: (-mean(i), ranked.index(i)))
            alive = alive[:(len(alive) + 1) // 2]
            stages = max(1, stages - 1)
        return alive[0]

    def choose(self, node: Node, kind: str, labels: list[str], mine: bool) -> tuple[int, bool]:
        """The option the tree's rule takes at node, and whether it is new to the tree (an
        untried option, added as a child: the run leaves the tree there)."""
        children = node.children
        untried = [i for i, label in enumerate(labels) if (kind, label) not in children]
        if untried:
            option = untried[self.rng.randrange(len(untried))] if len(untried) > 1 else \
                untried[0]
            children[(kind, labels[option])] = Node()
            return option, True
        total = sum(children[(kind, label)].visits for label in labels)
        spread = self.high - self.low if self.high > self.low else 1.0
        log_total = math.log(max(total, 1))
        best, best_score = 0, -math.inf
        for i, label in enumerate(labels):
            child = children[(kind, label)]
            mean = (child.total / child.visits - self.low) / spread if child.visits else 0.5
            score = (mean if mine else 1 - mean) + \
                EXPLORE * math.sqrt(log_total / max(child.visits, 1))
            if score > best_score:
                best, best_score = i, score
        return best, False


class Walk:
    """One run's way through the tree: the decisions of every side while inside it."""

    def __init__(self, search: Search, node: Node, side: int) -> None:
        self.search, self.node, self.side = search, node, side
        self.path: list[Node] = [node]

    def __call__(self, point: DecisionPoint) -> int:
        search = self.search
        kind, labels = point.kind, point.labels()
        option, added = search.choose(self.node, kind, labels, point.side == self.side)
        self.node = self.node.children[(kind, labels[option])]
        self.path.append(self.node)
        if added:   # a node new to the tree: the rest of the run at random (generated code)
            search.game.play_on_by(OUTSIDE)
        return option
