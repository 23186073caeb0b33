"""Weapon profiles at run time: a piece of equipment's values (`w.Range`) and own traits
(`w has Rending`), and whether a fighter carries the piece a name holds (`f has w`).

A piece of equipment is a value: its name, a text. The interpreter and generated code read its
values from tables made once per ruleset here; a ruleset without profiles makes none, and no
rule that does not read a piece pays anything for them.
"""

from __future__ import annotations

from typing import Callable

from warband.lang.per_ruleset import per_ruleset


def profile_name(ruleset, field: str) -> str | None:
    """The profile a field read names (as fields are, without regard to case), or None."""
    lower = field.lower()
    return next((name for name in ruleset.profiles if name.lower() == lower), None)


def profile_table(ruleset, profile: str) -> dict:
    """piece -> its value of one profile."""
    return {name: dict(piece.values)[profile] for name, piece in ruleset.equipment.items()
            if profile in dict(piece.values)}


def weapon_trait_names(ruleset) -> frozenset[str]:
    """Every trait some piece of equipment carries as its own."""
    return frozenset(t for piece in ruleset.equipment.values() for t, _ in piece.traits)


def piece_traits(ruleset) -> dict[str, frozenset[str]]:
    """piece -> the traits it carries as its own (a trait with a number 0 is not carried)."""
    return {name: frozenset(t for t, v in piece.traits if v is True or (v is not False and v != 0))
            for name, piece in ruleset.equipment.items()}


def has_either(fighter_has: Callable, traits: dict[str, frozenset[str]], name: str) -> Callable:
    """has(subject, world) for a trait that pieces carry too: a piece (a text) is asked for its
    own traits, a fighter as before."""
    def has(subject, world) -> bool:
        if type(subject) is str:
            return name in traits.get(subject, ())
        return fighter_has(subject, world)
    return has


def profile_or_field(table: dict, field: Callable) -> Callable:
    """read(subject, world) of a field named as a profile is: a piece's value of it, or the
    field of anything else (a table's column may share the name, fields ignoring case)."""
    def read(subject, world):
        return table[subject] if type(subject) is str else field(subject, world)
    return read


# ---- traits as values: the traits a fighter or a piece has, and a piece's trait numbers ---------
@per_ruleset
def piece_trait_values(ruleset) -> dict[str, dict[str, object]]:
    """piece -> {trait: its number (True for a bare trait)} of the traits it carries as its own,
    in the order the traits are declared."""
    order = list(ruleset.traits)
    out = {}
    for name, piece in ruleset.equipment.items():
        own = dict(piece.traits)
        out[name] = {t: own[t] for t in order if t in own and
                     (own[t] is True or (own[t] is not False and own[t] != 0))}
    return out


def traits_of(pieces: dict, subject, world) -> tuple[str, ...]:
    """`f.traits`, `w.traits`: the traits a fighter has (its class's, its equipment's grants and
    its own, combined) or a piece carries as its own, in the order they are declared."""
    if type(subject) is str:
        return tuple(pieces.get(subject, ()))
    return tuple(n for n, v in world.fighters[subject.index].traits.items()
                 if v is True or (v is not False and v != 0))


def piece_field(ruleset, piece: str, name: str):
    """A field read of a piece that is no profile value: its own traits (`w.traits`), or the
    number of one of them (`w.Blast`: 0 when it does not carry it; a bare trait has none)."""
    pieces = piece_trait_values(ruleset)
    if name == "traits":
        return tuple(pieces.get(piece, ()))
    lower = name.lower()
    trait = next((t for t in ruleset.traits if t.lower() == lower), name)
    value = pieces.get(piece, {}).get(trait, 0)
    return 0 if value is True else value


def trait_number_or_field(pieces: dict, trait: str, field: Callable) -> Callable:
    """read(subject, world) of a field named as a trait: the number a piece carries of it as
    its own (0 when it does not: `w.Blast`), or a fighter's field as ever (`f.Blast`)."""
    def read(subject, world):
        if type(subject) is str:
            value = pieces.get(subject, {}).get(trait, 0)
            return 0 if value is True else value
        return field(subject, world)
    return read


def holds(fighter_has: Callable, pieces: dict, subject, value, world) -> bool:
    """`X has n` where the name n holds a value: a trait (a fighter's, or a piece's own) or a
    piece of equipment (whether the fighter carries it)."""
    if type(subject) is str:   # a piece: its own traits
        return value in pieces.get(subject, ())
    if value in pieces:   # a piece of equipment (a trait's name is never a piece's: one space)
        return value in world.fighters[subject.index].equipment
    return fighter_has(subject, value, world)
