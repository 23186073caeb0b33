"""`warband odds` and pieces with state (docs/commands.md, "odds": "Pieces a fighter carries").

The odds have no board: no piece lies anywhere, so an action that seizes a beacon or picks up a
crate finds none (`pieces(KIND)` is empty, as it is without a board). What the odds can weigh
honestly is a piece a fighter already carries, given as `carries=KIND` in its key=value text:
the piece is then in the world the action starts from, the rules read it (`t.carrying`,
`p.carrier`, its kind's flags and counters) and change it (`put down`, `set p.Lit += 1`), and a
carrier that falls drops it where it stood, as in a game. The odds report, for each such piece,
whether it was dropped or carried off, the side holding it, and its flags and counters, after
the action (`t's crate dropped`).
"""

from __future__ import annotations

from warband.run.world import new_pieces

CARRIES = "carries"   # the fighter's key: carries=crate or carries=crate,relic


def carried_kinds(ruleset) -> list[str]:
    """The kinds of marker a fighter can carry: every one declared that is not part of the
    board (a wall, one that blocks sight or movement, or acts when entered)."""
    return [name for name, m in ruleset.markers.items()
            if not m.properties and m.entered is None]


def carried_pieces(ruleset, carriers: list[list[str]]) -> tuple:
    """The pieces the fighters carry at the start: carriers[i] lists fighter i's kinds."""
    out = []
    for index, kinds in enumerate(carriers):
        for kind in kinds:
            (piece,) = new_pieces(ruleset, kind, [None])
            piece.carrier = index
            out.append(piece)
    return tuple(out)


def piece_labels(world, fighters: dict[int, str]) -> list[str]:
    """Each piece as the report names it: its carrier's label and its kind (`t's crate`), a
    number after it when a fighter carries two of a kind."""
    out: list[str] = []
    seen: dict[str, int] = {}
    for p in world.pieces:
        base = f"{fighters.get(p.carrier, 'someone')}'s {p.kind}"
        seen[base] = seen.get(base, 0) + 1
        out.append(base if seen[base] == 1 else f"{base} {seen[base]}")
    return out


def piece_initial(world, labels: list[str], sides: dict[int, str]) -> dict:
    out: dict = {}
    for label, p in zip(labels, world.pieces):
        out[f"{label} dropped"] = False
        out[f"{label} carried off"] = False
        out[f"{label}.holder"] = "nobody" if p.holder is None else sides[p.holder]
        out.update({f"{label}.{k}": v for k, v in p.values.items()})
    return out


def piece_changes(before, after, labels: list[str], sides: dict[int, str]) -> list:
    """What the action changed of each piece: dropped (no carrier now: its carrier fell or put
    it down), carried off (its carrier left the table with it), the side holding it, its flags
    and counters."""
    out: list[tuple[str, object]] = []
    for label, p0, p1 in zip(labels, before.pieces, after.pieces):
        if p0.carrier is not None and p1.carrier is None:
            out.append((f"{label} dropped", True))
        if p1.carrier is not None and after.fighters[p1.carrier].withdrawn:
            out.append((f"{label} carried off", True))
        if p1.holder != p0.holder:
            out.append((f"{label}.holder", "nobody" if p1.holder is None else sides[p1.holder]))
        out += [(f"{label}.{k}", v) for k, v in p1.values.items() if p0.values[k] != v]
    return out


__all__ = ["CARRIES", "carried_kinds", "carried_pieces", "piece_labels",
           "piece_initial", "piece_changes"]
