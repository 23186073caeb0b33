"""A unit's models, as warband entries give them (docs/language.md, "Units of several models").

An entry of a unit class may give `models: 7`, within the class's `models LOW..HIGH` (E634, at
the value, with the class's line as a related place); without it the unit fields the class's
default. An entry of a class that is no unit may not give it (E635, at the key). The schema
stage has checked that the value is a whole number from 1 up; this checks what the class adds.
An entry whose models are outside its class's bounds is not a fighter the army rules count (as
any value out of range), nor one a game fields.

One model with a different weapon: an entry may give `special: {Flamer: 1}`, how many of its
models carry a piece of their own, as the class's `one model may ...` options allow (E636: a
piece the class does not offer single models; E637: more models than an option allows, or than
the unit fields; lang/units.py judges both, as odds does).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from warband.diagnostics import Diagnostic, Related, diag
from warband.lang.units import special_problems
from warband.lists.warband_file import FIGHTERS, span_at

if TYPE_CHECKING:
    from warband.lang.ruleset import Ruleset

MODELS = "models"   # the entry's key
SPECIAL = "special"   # one model of a unit with a different weapon: {piece: models carrying it}


def models_key(ruleset: Ruleset) -> bool:
    """Whether an entry may give `models:`: some class is a unit, and no stat takes the key."""
    return ruleset.has_units and all(s.key != MODELS for s in ruleset.stats.values())


def special_key(ruleset: Ruleset) -> bool:
    """Whether an entry may give `special:`: some unit class offers single models a piece, and
    no stat takes the key."""
    return any(c.unit is not None and c.unit.specials for c in ruleset.classes.values()) and \
        all(s.key != SPECIAL for s in ruleset.stats.values())


def check_models(data, file: str, text: str | None,
                 ruleset: Ruleset) -> tuple[list[Diagnostic], set[int]]:
    """E634 at each `models` outside its class's bounds, E635 at each `models` of a class that
    is not a unit: the diagnostics, and the entries no longer usable."""
    entries = data.get(FIGHTERS)
    if not isinstance(entries, list) or not models_key(ruleset):
        return [], set()
    out: list[Diagnostic] = []
    bad: set[int] = set()
    specials = special_key(ruleset)
    for i, entry in enumerate(entries):
        if not isinstance(entry, dict) or not isinstance(entry.get("class"), str) or (
                MODELS not in entry and not (specials and SPECIAL in entry)):
            continue
        cls = ruleset.classes.get(entry["class"])
        if cls is None:
            continue
        name = entry.get("name")
        who = f"'{name}'" if isinstance(name, str) and name else f"{i + 1}"
        if MODELS in entry:
            found = _check_count(entry, cls, who, (FIGHTERS, i, MODELS), data, file, text,
                                 ruleset)
            out += found
            if found:
                bad.add(i)
                continue
        if specials and SPECIAL in entry:
            found = check_special(entry, cls, who, (FIGHTERS, i, SPECIAL), data, file, text,
                                  ruleset)
            out += found
            if found:
                bad.add(i)
    return out, bad


def _check_count(entry: dict, cls, who: str, path: tuple, data, file: str, text: str | None,
                 ruleset: Ruleset) -> list[Diagnostic]:
    """E635 at `models` of a class that is no unit, E634 at models outside its bounds."""
    unit = cls.unit
    if unit is None or unit.span is None:
        units = [c.name for c in ruleset.classes.values()
                 if c.unit is not None and c.unit.span is not None]
        return [diag("E635", f"fighter {who} gives models, but class {cls.name} is not "
                             "a unit of several models",
                     span_at(data, path, file, text, key=True),
                     hint="remove 'models: ...'" + (
                         f"; the unit classes are {', '.join(units)}" if units else ""),
                     path=path)]
    value = entry[MODELS]
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        return []   # the schema stage has said what is wrong with it
    if not unit.allows(int(value)):
        return [diag("E634", f"fighter {who} fields {value} models, outside "
                             f"{unit.shown}, the models class {cls.name} allows",
                     span_at(data, path, file, text),
                     hint=f"give models from {unit.low} to {unit.high}, or leave it "
                          f"out for the class's {unit.default}",
                     related=[Related(unit.span, f"class {cls.name}'s models")],
                     path=path)]
    return []


def check_special(entry: dict, cls, who: str, path: tuple, data, file: str,
                  text: str | None, ruleset: Ruleset) -> list[Diagnostic]:
    """E636 at each piece of `special:` the class does not offer single models, E637 at the key
    when more models carry them than an option or the unit allows."""
    special = entry[SPECIAL]
    if not isinstance(special, dict) or not all(
            isinstance(n, int) and not isinstance(n, bool) and n >= 1 for n in special.values()):
        return []   # the schema stage has said what is wrong with it
    unit = cls.unit if cls.unit is not None and cls.unit.span is not None else None
    given = entry.get(MODELS)
    models: int = int(given) if isinstance(given, int) else (unit.default if unit else 1)
    # (a piece no class offers single models is not a key of the schema: E620 said so)
    offered = {p for c in ruleset.classes.values() if c.unit is not None
               for o in c.unit.specials for p in o.items}
    out = []
    for code, piece, message, hint, rule in special_problems(
            unit, models, {str(k): int(v) for k, v in special.items()}):
        if piece is not None and piece not in offered:
            continue
        at = path + ((piece,) if piece is not None else ())
        out.append(diag(code, f"fighter {who}: {message}",
                        span_at(data, at, file, text, key=piece is not None), hint=hint,
                        related=[Related(rule, f"class {cls.name}'s rule")] if rule else [],
                        path=at))
    return out


def special_schema(ruleset: Ruleset) -> dict:
    """The `special` key of a fighter entry: piece -> how many models carry it."""
    offered = list(dict.fromkeys(p for c in ruleset.classes.values() if c.unit is not None
                                 for o in c.unit.specials for p in o.items))
    words = "; ".join(f"{c.name}: " + ", ".join(o.words() for o in c.unit.specials)
                      for c in ruleset.classes.values() if c.unit is not None and c.unit.specials)
    return {"type": "object", "additionalProperties": False,
            "properties": {p: {"type": "integer", "minimum": 1} for p in offered},
            "description": f"how many models of a unit carry a piece of their own ({words})"}


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


__all__ = ["check_models", "models_key", "models_schema", "models_conditions", "special_key",
           "special_schema"]
