"""Members of groups as decisions and the log name them: a fighter or a side by its name, a
piece placed on the board by its kind and its number among that kind's ("beacon 2").

A piece's name does not depend on where it stands or who carries it, so a record that names
one replays it however the board changed; a decision's policy (Policies.by_decision) names one
the same way ("beacon 2").
"""

from __future__ import annotations

from warband.run.world import Ref


def piece_label(world, index: int) -> str:
    """A piece by its kind and its number among the pieces of that kind, in the order placed."""
    kind = world.pieces[index].kind
    n = 0
    for p in world.pieces[:index + 1]:
        if p.kind == kind:
            n += 1
    return f"{kind} {n}"


def member_name(world, ref: Ref) -> str:
    """A fighter's or a side's name, or a piece's label."""
    if ref.kind == "fighter":
        return world.fighters[ref.index].name
    if ref.kind == "piece":
        return piece_label(world, ref.index)
    return world.sides[ref.index].name


def named(world, group, name: str):
    """The first member of a group a policy or a record names, or None."""
    for ref in group:
        if member_name(world, ref) == name:
            return ref
    return None


def missing_hint(ruleset, param) -> str | None:
    """The hint of E301 for a parameter nobody gave a value: a piece parameter (`b: beacon`)
    has one only in a game, where the engine offers each piece of the kind."""
    if param.type is not None and param.type.name in ruleset.markers:
        return (f"'{param.name.name}' is a piece of '{param.type.name}', and pieces lie on a "
                f"board: play the action in a scenario (warband play), where each piece of "
                f"the kind is offered; the odds of one action have no board")
    return None


__all__ = ["piece_label", "member_name", "named", "missing_hint"]
