"""A unit's models, as warband entries give them (docs/language.md, "Units of several models").

An entry of a unit class may give `models: 7`, within the class's `models LOW..HIGH` (E634, at
the value, with the class's line as a related place); without it the unit fields the class's
default. An entry of a class that is no unit may not give it (E635, at the key). The schema
stage has checked that the value is a whole number from 1 up; this checks what the class adds.
An entry whose models are outside its class's bounds is not a fighter the army rules count (as
any value out of range), nor one a game fields.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from warband.diagnostics import Diagnostic, Related, diag
from warband.lists.warband_file import FIGHTERS, span_at

if TYPE_CHECKING:
    from warband.lang.ruleset import Ruleset

MODELS = "models"   # the entry's key


def models_key(ruleset: Ruleset) -> bool:
    """Whether an entry may give `models:`: some class is a unit, and no stat takes the key."""
    return ruleset.has_units and all(s.key != MODELS for s in ruleset.stats.values())


def check_models(data, file: str, text: str | None,
                 ruleset: Ruleset) -> tuple[list[Diagnostic], set[int]]:
    """E634 at each `models` outside its class's bounds, E635 at each `models` of a class that
    is not a unit: the diagnostics, and the entries no longer usable."""
    entries = data.get(FIGHTERS)
    if not isinstance(entries, list) or not models_key(ruleset):
        return [], set()
    out: list[Diagnostic] = []
    bad: set[int] = set()
    for i, entry in enumerate(entries):
        if not isinstance(entry, dict) or MODELS not in entry or \
                not isinstance(entry.get("class"), str):
            continue
        cls = ruleset.classes.get(entry["class"])
        if cls is None:
            continue
        name = entry.get("name")
        who = f"'{name}'" if isinstance(name, str) and name else f"{i + 1}"
        path = (FIGHTERS, i, MODELS)
        unit = cls.unit
        if unit is None or unit.span is None:
            units = [c.name for c in ruleset.classes.values()
                     if c.unit is not None and c.unit.span is not None]
            out.append(diag("E635", f"fighter {who} gives models, but class {cls.name} is not "
                                    "a unit of several models",
                            span_at(data, path, file, text, key=True),
                            hint="remove 'models: ...'" + (
                                f"; the unit classes are {', '.join(units)}" if units else
                                ""), path=path))
            bad.add(i)
            continue
        value = entry[MODELS]
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            continue   # the schema stage has said what is wrong with it
        if not unit.allows(int(value)):
            out.append(diag("E634", f"fighter {who} fields {value} models, outside "
                                    f"{unit.shown}, the models class {cls.name} allows",
                            span_at(data, path, file, text),
                            hint=f"give models from {unit.low} to {unit.high}, or leave it "
                                 f"out for the class's {unit.default}",
                            related=[Related(unit.span, f"class {cls.name}'s models")],
                            path=path))
            bad.add(i)
    return out, bad


def models_schema(ruleset: Ruleset) -> dict:
    """The `models` key of a fighter entry, for a ruleset with units."""
    units = ", ".join(f"{c.name} {c.unit.shown}" for c in ruleset.classes.values()
                      if c.unit is not None and c.unit.span is not None)
    return {"type": "integer", "minimum": 1,
            "description": f"how many models a unit fields (the class's default when left "
                           f"out): {units}"}


def models_conditions(ruleset: Ruleset) -> list[dict]:
    """Per unit class, the bounds of `models` (for editors: validate says E634 itself)."""
    return [{"if": {"properties": {"class": {"const": c.name}}, "required": ["class"]},
             "then": {"properties": {MODELS: {
                 "minimum": c.unit.low, "maximum": c.unit.high,
                 "description": f"class {c.name} fields {c.unit.shown} models "
                                f"(default {c.unit.default})"}}}}
            for c in ruleset.classes.values() if c.unit is not None and c.unit.span is not None]


__all__ = ["check_models", "models_key", "models_schema", "models_conditions"]
