"""Campaigns at run time: what a scenario's aftermath does to a warband between games.

While an aftermath runs, the interpreter keeps an `Aftermath` record (`interp.campaign`): the
fighters removed there (struck off their warband: dead, or gone), the equipment given and taken
(`give EQUIPMENT to f`, `take EQUIPMENT from f`: the fighter's equipment in the World changes
too) and the fighters hired (`hire "NAME" as CLASS for SIDE`: a new entry of the side's warband
file, not a fighter of this game). game/campaign.py writes it into the warband files. The rules
are interpreted while the record is kept (run/entry_points.py), so every `remove` is seen.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from warband.diagnostics import diag
from warband.lang import nodes
from warband.run.errors import RulesError
from warband.run.world import World, changed, new_world


@dataclass
class Hired:
    side: int                      # the side's place in the scenario
    name: str
    fighter_class: str
    equipment: tuple[str, ...]


@dataclass
class Aftermath:
    """What an aftermath did to the warbands, beside the values it changed. `watch`: whether
    the aftermath can remove a fighter (`removes`), so that the rules run in the interpreter,
    which sees each `remove` (generated code is left to the aftermaths that cannot)."""

    struck: set[int] = field(default_factory=set)               # fighters' places in the World
    gear: list[tuple[int, str, str]] = field(default_factory=list)   # (place, give|take, piece)
    hired: list[Hired] = field(default_factory=list)
    watch: bool = True


def removes(ruleset, block) -> bool:
    """Whether a block can remove a fighter: a `remove` in it, or in a procedure it calls
    (however deep)."""
    seen: set[str] = set()
    stack = [block]
    while stack:
        for n in nodes.walk(stack.pop()):
            if type(n) is nodes.Remove:
                return True
            if type(n) is nodes.Call and n.callee.name not in seen and \
                    n.callee.name in ruleset.procedures:
                seen.add(n.callee.name)
                stack.append(ruleset.procedures[n.callee.name])
    return False


def with_equipment(world: World, index: int, equipment: tuple[str, ...]) -> World:
    """The World with fighter `index` carrying `equipment` (its traits as they were: what a
    piece grants counts from the next game, when the fighter is made from its entry)."""
    fighters = list(world.fighters)
    f = fighters[index]
    n = changed(f, f.values, f.removed, f.position, f.withdrawn)
    n.equipment = equipment
    fighters[index] = n
    return new_world(tuple(fighters), world.sides, world.lazies, world.pieces)


def gear_stmt(interp, stmt: nodes.Gear, env: dict, world: World, next_):
    """`give EQUIPMENT to f` (one more piece) or `take EQUIPMENT from f` (one piece fewer, if
    it carries one)."""
    def done(ref, w: World):
        record = _record(interp, stmt)
        piece = stmt.equipment.name
        have = w.fighters[ref.index].equipment
        if stmt.kind == "give":
            w = with_equipment(w, ref.index, have + (piece,))
        elif piece in have:
            at = len(have) - 1 - have[::-1].index(piece)   # (the last one given)
            w = with_equipment(w, ref.index, have[:at] + have[at + 1:])
        else:
            return next_(env, w)   # nothing to take
        record.gear.append((ref.index, stmt.kind, piece))
        return next_(env, w)
    return interp.plain(stmt.fighter, env, world, done)


def hire_stmt(interp, stmt: nodes.Hire, env: dict, world: World, next_):
    """`hire "NAME" as CLASS for SIDE [equipment ...]`: kept for the side's warband file."""
    def done(ref, w: World):
        _record(interp, stmt).hired.append(Hired(ref.index, stmt.name, stmt.fighter_class.name,
                                                 tuple(e.name for e in stmt.equipment)))
        return next_(env, w)
    return interp.plain(stmt.side, env, world, done)


def _record(interp, stmt) -> Aftermath:
    record = interp.campaign
    if record is None:   # (the checker keeps these statements in an aftermath: E341)
        raise RulesError(diag("E341", "this changes a warband between games: it runs in a "
                                      "scenario's aftermath", stmt.span,
                              hint="play the scenario: warband play SCENARIO"))
    return record


__all__ = ["Aftermath", "Hired", "gear_stmt", "hire_stmt", "removes", "with_equipment"]
