"""Stats a class fixes or bounds, as warband entries meet them.

A class fixes a stat with `stat NAME = VALUE`: an entry of the class may not give it (E631, even
the same value: the class, not the list, says what it is, and a house rule that changes the class
changes every such fighter). A class bounds a stat the list chooses with `stat NAME: LOW..HIGH` or
`stat NAME in A, B`: an entry's value must lie within (E623, or E627 for an enum's values).

The schema stage has checked the values against the stats' own ranges; this checks what the
class adds, with the class's line as a related place. An entry that gives a fixed stat is still
a fighter (with the class's value: lists/warband_file.py leaves the given one out), so the army
rules count it; an entry outside its class's bounds is not, as any value out of range.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from warband.diagnostics import Diagnostic, Related, diag
from warband.lists.warband_file import FIGHTERS, span_at

if TYPE_CHECKING:
    from warband.lang.ruleset import FighterClass, Ruleset, Stat


def fixed_words(cls: FighterClass, stat: Stat, who: str, *, scenario: bool = False) -> tuple[
        str, str]:
    """The message and hint of E631: an entry (or a fighter a scenario writes) gives a stat its
    class fixes."""
    value = dict(cls.stats)[stat.name]
    name, line = (stat.name, f"stat {stat.name} = ...") if scenario else (
        stat.key, f"{stat.key}: ...")
    bounds = f"{stat.name} in A, B" if stat.enum else f"{stat.name}: LOW..HIGH"
    return (f"fighter {who} gives {name}, which class {cls.name} fixes at {value}",
            f"remove '{line}' (every {cls.name} has {stat.name} {value}); to let the list "
            f"choose it, the class declares its bounds instead: stat {bounds}")


def fixed_at(cls: FighterClass, stat: str) -> list[Related]:
    """The class's `stat NAME = VALUE` line, as a related place."""
    return [Related(span, "fixed here") for name, span in cls.stat_spans if name == stat]


def outside_words(cls: FighterClass, stat: Stat, value) -> tuple[str, str, str]:
    """(code, message, hint) for a value outside the bounds a class gives a stat."""
    choice = cls.choice(stat.name)
    assert choice is not None   # asked only of a stat the class bounds
    shown = value if not isinstance(value, str) else f"'{value}'"
    if choice.members:
        return ("E627", f"{stat.key} {shown} is not one of {choice.shown}, the values class "
                        f"{cls.name} allows", f"give {stat.key} one of {choice.shown}, or "
                                              "choose another class")
    return ("E623", f"{stat.key} {shown} is outside {choice.shown}, the range class {cls.name} "
                    "allows", f"give {stat.key} a value in {choice.shown}, or choose another class")


def check_class_stats(data, file: str, text: str | None,
                      ruleset: Ruleset) -> tuple[list[Diagnostic], set[int]]:
    """E631 at each key an entry gives for a stat its class fixes, and E623/E627 at each value
    outside its class's bounds: the diagnostics, and the entries no longer usable (the latter).
    Every entry of a known class is looked at, whatever else is wrong with it (a misspelt trait
    hides no E631); a value the schema stage found wrong for the stat itself is its alone."""
    entries = data.get(FIGHTERS)
    if not isinstance(entries, list) or not any(
            c.stats or c.choices for c in ruleset.classes.values()):
        return [], set()
    out: list[Diagnostic] = []
    bad: set[int] = set()
    for i, entry in enumerate(entries):
        if not isinstance(entry, dict) or not isinstance(entry.get("class"), str):
            continue
        cls = ruleset.classes.get(entry["class"])
        if cls is None:
            continue
        name = entry.get("name")
        who = f"'{name}'" if isinstance(name, str) and name else f"{i + 1}"
        for stat in ruleset.stats.values():
            if stat.key not in entry:
                continue
            path = (FIGHTERS, i, stat.key)
            if cls.fixes(stat.name):
                message, hint = fixed_words(cls, stat, who)
                out.append(diag("E631", message, span_at(data, path, file, text, key=True),
                                hint=hint, related=fixed_at(cls, stat.name), path=path))
                continue
            choice = cls.choice(stat.name)
            value = entry[stat.key]
            if choice is not None and _fits(stat, value, ruleset) and not choice.allows(value):
                code, message, hint = outside_words(cls, stat, value)
                out.append(diag(code, f"fighter {who}: {message}",
                                span_at(data, path, file, text), hint=hint,
                                related=[Related(choice.span, f"class {cls.name}'s choice")],
                                path=path))
                bad.add(i)
    return out, bad


def _fits(stat: Stat, value, ruleset: Ruleset) -> bool:
    """Whether a value is one the stat itself takes (else the schema stage has said so)."""
    if stat.enum is not None:
        return isinstance(value, str) and value in dict(ruleset.enums.get(stat.enum, ()))
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return False
    return (stat.low is None or value >= stat.low) and (stat.high is None or value <= stat.high)


__all__ = ["check_class_stats", "fixed_words", "fixed_at", "outside_words"]
