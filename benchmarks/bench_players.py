"""Benchmark: how strong the automated players are, and what they cost.

Run by hand (not a test):
    python benchmarks/bench_players.py [--games N] [--scenario ID ...]
                                       [--pair random:greedy] [--pair greedy:mcts:40] [--seed S]

For each scenario and each pair of policies A:B it plays N seeded games with A on one side and
B on the other, then N with the sides swapped, and prints how often B won (draws counted
apart), with a 95% Wilson interval, and the CPU seconds a game took. The reference measured
in the same run is the random-against-random game: each pair's CPU time is printed as a ratio
of it. docs/players.md holds the figures.

The games are those `warband simulate --policy SIDE=POLICY --seed S` plays: seeds S..S+N-1,
the same in every run.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "toolkit"))

SCENARIOS = ("sss-standard-game", "greedy-dudes-vs-menace", "smart-dungeon",
             "ashfall-relay-beacons", "fogbound-drowned-market")


def play_pair(scenario, first: str, second: str, games: int, seed: int):
    """(second's wins, draws, games, CPU seconds a game): `second` plays each side in turn."""
    from warband.game.engine import Game
    from warband.run.decisions import Policies
    sides = scenario.side_names
    wins = draws = played = 0
    start = time.process_time()
    for swapped in (False, True):
        for s in range(seed, seed + games):
            mine = sides[1] if swapped else sides[0]
            theirs = [n for n in sides if n != mine]
            policies = Policies(first) if first == second else \
                Policies(first, {}, {mine: second, **{n: first for n in theirs}})
            result = Game(scenario, s, policies).play()
            played += 1
            if result.winner is None:
                draws += 1
            elif result.winner == mine:
                wins += 1
    return wins, draws, played, (time.process_time() - start) / played


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=10, help="games each way (default 10)")
    parser.add_argument("--scenario", action="append", help="a shipped scenario (default: all)")
    parser.add_argument("--pair", action="append",
                        help="A:B, B's strength against A (default random:greedy, "
                             "greedy:mcts:40)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    from warband.game.scenario import load_scenario
    from warband.game.tally import wilson_interval
    pairs = args.pair or ["random:greedy", "greedy:mcts:40"]
    for name in args.scenario or SCENARIOS:
        scenario = load_scenario(name)
        *_, reference = play_pair(scenario, "random", "random", args.games, args.seed)
        print(f"{name}: random v random {reference * 1000:.1f} ms CPU a game (the reference)")
        for pair in pairs:
            first, _, second = pair.partition(":")
            wins, draws, played, cpu = play_pair(scenario, first, second, args.games, args.seed)
            low, high = wilson_interval(wins, played)
            print(f"  {second} v {first}: {second} won {wins}/{played} "
                  f"({100 * wins / played:.0f}%, 95% {100 * low:.0f}-{100 * high:.0f}%), "
                  f"{draws} drawn; {cpu:.2f} s CPU a game, {cpu / reference:,.0f}x random's",
                  flush=True)


if __name__ == "__main__":
    main()
