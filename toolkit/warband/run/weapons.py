"""Weapon profiles at run time: a piece of equipment's values (`w.Range`) and own traits
(`w has Rending`), and whether a fighter carries the piece a name holds (`f has w`).

A piece of equipment is a value: its name, a text. The interpreter and generated code read its
values from tables made once per ruleset here; a ruleset without profiles makes none, and no
rule that does not read a piece pays anything for them.
"""

from __future__ import annotations

from typing import Callable


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
