"""What one played game tells the simulator: small, picklable, independent of the engine.

The engine (game.py) returns a GameResult for every game it plays; the simulator (simulate.py)
only ever sees these, so games can run in other processes or on other machines.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class GameResult:
    seed: int
    sides: tuple[str, ...]              # side names, in the scenario's order
    winner: str | None                  # None for a draw
    scores: dict[str, float]            # side -> the scenario's score at the end
    rounds: int                         # rounds played (a round: every side has had its turn)
    ended: str                          # why it ended: "limit", "condition", "conceded", "stuck"
    kills: dict[str, dict[str, int]] = field(default_factory=dict)
    #         side that lost them -> class (or fighter name when classless) -> fighters removed
    scored: frozenset[str] = frozenset()   # objectives (score terms) that were non-zero
    stuck: str | None = None            # when a side had no legal action: a description
    # side that lost them -> class (or name) -> fighters that left the table (fled, escaped)
    withdrawn: dict[str, dict[str, int]] = field(default_factory=dict)


@dataclass(frozen=True)
class PlayRequest:
    """Everything a worker needs to play games: plain data, so it pickles to any executor."""

    scenario: str                       # a path or a built-in scenario id
    policies: tuple[tuple[str, str], ...] = ()   # (side or decision name, policy)
    max_rounds: int | None = None       # overrides the scenario's limit
    sides: tuple = ()                   # scenario.SideFile: a side's force from a warband file
