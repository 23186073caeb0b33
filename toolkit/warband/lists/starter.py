"""`warband new RULESET`: the start of a warband file for a ruleset, as a newcomer needs it.

A file that a player fills in: the editor's modeline (its schema by a path that resolves from
where the file goes, lists/schema.modeline), a name, the ruleset (an id, or a rules file
relative to the new file), the game's points when the army counts points, and one fighter of
the ruleset's first class with a value for every stat the file must give (the class's or the
stat's lowest). The text is checked as `warband validate` checks it; what the rules still ask
of a whole warband (more fighters, a leader) is for the player to add.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from warband import catalog
from warband.diagnostics import Diagnostic, Sources
from warband.lists import schema
from warband.lists.validate import Validation

if TYPE_CHECKING:
    from warband.lang.ruleset import Ruleset


@dataclass
class Started:
    """A new warband file's text, and what validating it found (the sources for showing)."""

    text: str
    diagnostics: list[Diagnostic] = field(default_factory=list)
    sources: Sources = field(default_factory=Sources)
    modeline: bool = True   # whether its modeline names a schema that resolves


def _ruleset_ref(ruleset: Ruleset, ref: str, folder: Path) -> str:
    """The `ruleset:` of the new file: a shipped id as it is; a rules file relative to the
    folder the new file goes to."""
    if not catalog.looks_like_path(ref):
        return ruleset.id
    try:
        return Path(os.path.relpath(Path(ref).resolve(), folder.resolve())).as_posix()
    except ValueError:   # another drive, on Windows
        return Path(ref).resolve().as_posix()


def _value(ruleset: Ruleset, stat, cls) -> object:
    """The value a starting fighter gives a stat: the class's lowest, the stat's lowest, or the
    first of its values."""
    choice = cls.choice(stat.name) if cls is not None else None
    if choice is not None and choice.members:
        return choice.members[0]
    if choice is not None and choice.low is not None:
        return choice.low
    if stat.enum:
        return ruleset.enums[stat.enum][0][0]
    return stat.low if stat.low is not None else 1


def _scalar(value) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)


def start(ruleset: Ruleset, ref: str, output: str | None) -> Started:
    """The new file's text for `ruleset` (named `ref` on the command line), to be written to
    `output` (None: standard output, read from the working directory)."""
    folder = Path(output).parent if output is not None else Path(".")
    lines = []
    found = schema.modeline(ruleset.id, folder)
    if found is not None:
        lines.append(found)
    lines += ["name: My warband", f"ruleset: {_ruleset_ref(ruleset, ref, folder)}"]
    army = ruleset.army
    if army is not None and isinstance(army.points, int):
        lines.append(f"points: {army.points}")
    lines.append("fighters:")
    cls = next(iter(ruleset.classes.values()), None)
    lines.append("  - name: Fighter 1")
    if cls is not None:
        lines.append(f"    class: {cls.name}")
    for stat in ruleset.stats.values():
        if stat.always_derived or (cls is not None and cls.fixes(stat.name)):
            continue
        given = cls.choice(stat.name) if cls is not None else None
        if stat.default is not None or (given is not None and given.default is not None):
            continue   # the file may leave it out
        lines.append(f"    {stat.key}: {_scalar(_value(ruleset, stat, cls))}")
    text = "\n".join(lines) + "\n"
    name = output or "<new>"
    validation = Validation()
    checked = validation.text(text, name, folder)
    return Started(text, list(checked.diagnostics), validation.sources, found is not None)


__all__ = ["Started", "start"]
