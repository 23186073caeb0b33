"""`choose s within D of AT by WHO`: a player picks a spot on the board, a position within D of
AT (a fighter, a piece or a position), bound to a name for what follows (an area's anchor,
where a piece is put, a distance to measure).

The spots are the game's (game/spots.py): on squares the cells within D king's steps; in
inches the points of a half-inch grid within D of AT's centre where a base fits on the board.
A random player picks any of them, each equally likely; a greedy player weighs a short list
(where AT stands and where each fighter in play and each piece within D stands), as does an
exact look-ahead whatever the policy, so that a random pick's hundreds of spots never become
hundreds of branches; `first` takes AT's own spot; a record or a policy names one as the log
writes it, `(12, 9.5)`. Without a board (the odds of one action) there is no spot to choose:
the name is AT's position, none, and an area at it holds nobody.
"""

from __future__ import annotations

import re

from warband.diagnostics import diag
from warband.run.evaluate import RulesError
from warband.run.world import Ref, piece_position


def where(world, at):
    """A fighter's, a piece's or a position's place (None: nowhere)."""
    if type(at) is not Ref:
        return at
    if at.kind == "piece":
        return piece_position(world, at.index)
    return world.fighters[at.index].position


def shown(spot) -> str:
    """A spot as the log and policies write it: (12, 9.5)."""
    return f"({_number(spot[0])}, {_number(spot[1])})"


def parse(text: str):
    """A spot named by a policy or a record, or None."""
    found = re.fullmatch(r"\(\s*(-?\d+(?:\.\d+)?)\s*,\s*(-?\d+(?:\.\d+)?)\s*\)", text.strip()) \
        if len(text) <= 40 else None
    if found is None:
        return None
    x, y = (float(found.group(1)), float(found.group(2)))
    return (int(x) if x.is_integer() else x, int(y) if y.is_integer() else y)


def _number(x) -> str:
    return str(int(x)) if float(x).is_integer() else f"{float(x):.2f}".rstrip("0")


def choose_spot(interp, stmt, env: dict, world, k):
    """Run the decision (see the module's words), then k with the name bound to the spot."""
    centre = where(world, interp.fn(stmt.at)(env, world))
    reach = interp.fn(stmt.reach)(env, world)
    if type(reach) not in (int, float) and not hasattr(reach, "denominator"):
        raise RulesError(diag("E505", f"decision '{stmt.name.name}' needs a fixed distance",
                              stmt.reach.span))
    name = stmt.name.name

    def run(spot, w):
        return k({**env, name: spot}, w)
    game = interp.game
    if game is None or centre is None:   # no board, or AT nowhere: no spot to choose
        return run(centre, world)
    policy = interp.policy_for(stmt, env, world)
    run = interp.logged(stmt, env, world, run, shown)
    if policy not in ("random", "greedy"):
        spot = parse(policy)
        if spot is not None and game.spot_fits(centre, reach, spot):
            return run(spot, world)
        legal = game.spots(centre, reach, world, False)   # first: AT's own spot
        return run(legal[0] if legal else centre, world)
    every = policy == "random" and not interp.exact_mode
    legal = game.spots(centre, reach, world, every)
    if len(legal) <= 1:
        return run(legal[0] if legal else centre, world)
    return interp.decide(stmt, policy, legal, run, env, world, shown)


__all__ = ["choose_spot", "where", "shown", "parse"]
