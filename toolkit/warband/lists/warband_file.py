"""Warband files: reading them, finding their ruleset, and the plain model the later stages use.

A warband file is YAML (see docs/commands.md):

    name: Grey Company
    ruleset: my-rules                  # a built-in id, or a path to a .rules file
    points: 100                        # optional; the ruleset gives the default
    fighters:
      - {name: Aldric, class: Ranger, skill: 3}

This module knows the file's shape, never a game: stats, classes, traits and equipment are those
the ruleset declares. It reads bytes (a path or `-` for standard input), resolves the `ruleset:`
key relative to the file, and turns loaded data that passed the schema into `Warband` and
`Fighter` values. Spans point at the text: `span_at` widens ruamel's one-character positions to
the whole value or key, so that carets underline what is wrong.
"""

from __future__ import annotations

import os
import re
import sys
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import BinaryIO

from warband.catalog import Unreadable, read_regular
from warband.diagnostics import Diagnostic, Span, diag
from warband.limits import MAX_YAML_BYTES
from warband.run.world import FighterSpec

STDIN = "-"
STDIN_NAME = "<stdin>"
FIGHTERS = "fighters"
GAMES = "games"   # campaigns: the games a warband has played (`play --update` counts them)


# ---- reading ------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Source:
    """The bytes of one warband file, the name diagnostics use, and where relative paths start."""

    name: str
    raw: bytes | None
    base: Path
    problem: Diagnostic | None = None


def read_source(arg: str, stdin: BinaryIO | None = None, *, shared: bool = False) -> Source:
    """Read a path, or standard input for '-'; a file that cannot be read is a diagnostic. One
    byte more than a warband file may have is read at most (the loader reports the size): a
    device or an endless pipe named on the command line is never read whole. A file another
    file names (`shared`: a scenario's side, a game record's) must be a regular file, opened
    without waiting (catalog.read_regular): a FIFO it names is refused, not waited on for ever;
    the command line is the user's own, and may name a pipe (`validate <(...)`)."""
    if arg == STDIN:
        stream = stdin if stdin is not None else sys.stdin.buffer
        return Source(STDIN_NAME, stream.read(MAX_YAML_BYTES + 1), Path("."))
    path = Path(arg)
    if shared:
        raw = read_regular(path, MAX_YAML_BYTES + 1)
        if isinstance(raw, Unreadable):
            problem = diag("E100", f"no such file: {arg}" if not os.path.lexists(path) else
                           f"cannot read {arg}: {raw.detail}", None,
                           hint="a warband file another file names must be a regular file")
            return Source(arg, None, path.parent, problem)
        return Source(arg, raw, path.parent)
    try:
        with open(path, "rb") as stream:
            return Source(arg, stream.read(MAX_YAML_BYTES + 1), path.parent)
    except FileNotFoundError:
        problem = diag("E100", f"no such file: {arg}", None,
                       hint="check the path; '-' reads the warband from standard input")
    except IsADirectoryError:
        problem = diag("E100", f"{arg} is a directory, not a warband file", None,
                       hint=f"to check every file in it, run: warband validate {arg}/*.yaml")
    except OSError as error:
        problem = diag("E100", f"cannot read {arg}: {error.strerror}", None)
    return Source(arg, None, path.parent, problem)


# ---- spans --------------------------------------------------------------------------------------

_QUOTED = re.compile(r""""(?:[^"\\]|\\.)*"?|'(?:[^']|'')*'?""")


def span_at(data, path: tuple, filename: str, text: str | None, *, key: bool = False,
            line: bool = False) -> Span | None:
    """The span of the value (or key) at `path`, as wide as its text on its first line.

    With line=True a list or mapping spans the rest of its first line (a fighter's `- name: X`)."""
    # lazily: yamlload brings in ruamel.yaml, which a valid file read by yamlfast never needs
    from warband.lists.yamlload import position_of
    if path and not key and _value_at(data, path) is None:
        key = True  # an empty value ('skill:') has no text of its own: underline its key
    start = position_of(data, path, filename, key=key)
    if start is None or text is None:
        return start
    lines = text.split("\n")
    if not 0 < start.line <= len(lines):
        return start
    whole = lines[start.line - 1].rstrip("\r")
    width = _width(whole[:start.column - 1], whole[start.column - 1:], key=key, line=line)
    return Span(filename, start.line, start.column, start.line, start.column + max(width, 1))


def _value_at(data, path: tuple):
    for step in path:
        try:
            data = data[step]
        except (KeyError, IndexError, TypeError):
            return ...  # not there: not an empty value either
    return data


def _width(before: str, rest: str, *, key: bool, line: bool) -> int:
    """How many characters of `rest` the value or key starting it takes."""
    if not rest:
        return 1
    if rest[0] in "\"'":
        m = _QUOTED.match(rest)
        return len(m.group(0)) if m else 1
    text = re.split(r"\s#", rest, maxsplit=1)[0]
    if line:
        return len(text.rstrip())
    if rest[0] in "[{":
        return 1
    if key:
        text = re.split(r":(?:\s|$)", text, maxsplit=1)[0]
    if "[" in before or "{" in before:  # inside a flow collection: the item ends at , ] or }
        text = re.split(r"[,\]}]", text, maxsplit=1)[0]
    return len(text.rstrip())


# ---- the model ----------------------------------------------------------------------------------

@dataclass(frozen=True)
class Fighter:
    """One entry of a warband's fighters: `count` identical fighters."""

    index: int                  # position in the file's list
    name: str
    count: int
    fighter_class: str | None
    stats: dict                 # by the ruleset's declared stat names
    traits: dict                # trait -> number, or True for a bare trait
    equipment: tuple[str, ...]
    notes: str | None
    models: int | None = None   # a unit's models (`models: 7`); None: the class's default
    # one model of a unit with a different weapon: piece -> how many models carry it
    # (`special: {Flamer: 1}`), as lists/unit_entries.py accepted it
    special: dict | None = None

    @property
    def path(self) -> tuple:
        return (FIGHTERS, self.index)

    @property
    def label(self) -> str:
        """The entry as messages list it: 'Archer x4'."""
        return self.name if self.count == 1 else f"{self.name} x{self.count}"

    def spec(self, side: int = 0, name: str | None = None) -> FighterSpec:
        """One fighter of the entry as the rules run it (named `name`, or as the entry is)."""
        return FighterSpec(self.name if name is None else name, side, self.fighter_class,
                           dict(self.stats), dict(self.traits), tuple(self.equipment),
                           models=self.models, special=self.special)

    def specs(self, side: int) -> list[FighterSpec]:
        """Every fighter of the entry, as a game puts them on the board: 'Archer 1', ..."""
        if self.count == 1:
            return [self.spec(side)]
        return [self.spec(side, f"{self.name} {n + 1}") for n in range(self.count)]


@dataclass(frozen=True)
class Warband:
    """A warband file as the later stages read it: its fighters, by entry."""

    file: str
    name: str | None
    ruleset_ref: str | None
    points: int | None
    fighters: tuple[Fighter, ...]
    notes: str | None
    # campaigns: the side's stats the file keeps (`crowns: 120`, by the ruleset's names), and
    # the games it has played (`games: 3`, written by `play --update`; 0 when not given)
    values: dict | None = None
    games: int = 0

    def fighter(self, name: str) -> Fighter | None:
        return next((f for f in self.fighters if f.name == name), None)


def ruleset_ref(data) -> str | None:
    ref = data.get("ruleset") if isinstance(data, dict) else None
    return ref.strip() if isinstance(ref, str) and ref.strip() else None


def _number(value):
    """YAML numbers as the rules use them: ints (ruamel's subclasses too) and exact fractions."""
    if isinstance(value, bool):
        return value
    if isinstance(value, int):
        return int(value)
    if isinstance(value, float):
        exact = Fraction(value)
        return int(exact) if exact.denominator == 1 else exact
    return value


def fighter_from(data, index: int, ruleset) -> Fighter:
    """A fighter entry that the ruleset's schema accepted, in the ruleset's own names."""
    stats = {}
    cls = ruleset.classes.get(data.get("class")) if isinstance(data.get("class"), str) else None
    for stat in ruleset.stats.values():
        if cls is not None and cls.fixes(stat.name):
            continue   # the class's value, whatever the entry says (E631: lists/class_stats.py)
        if stat.key in data:
            value = data[stat.key]
            stats[stat.name] = str(value) if stat.enum else _number(value)
    traits: dict = {}
    listed = data.get("traits") or {}
    if isinstance(listed, dict):
        for name, value in listed.items():
            traits[str(name)] = True if value is None or value is True else _number(value)
    else:
        traits = {str(name): True for name in listed}
    count = data.get("count", 1)
    return Fighter(
        index=index,
        name=str(data.get("name", f"fighter {index + 1}")),
        count=int(count) if isinstance(count, int) else 1,
        fighter_class=str(data["class"]) if data.get("class") is not None else None,
        stats=stats,
        traits=traits,
        equipment=tuple(str(e) for e in data.get("equipment") or ()),
        notes=data.get("notes"),
        models=_models(data, cls),
        special=_special(data, cls),
    )


def _special(data, cls) -> dict | None:
    """A unit entry's special models (`special: {Flamer: 1}`) when its class offers them all
    within bounds (else lists/unit_entries.py has said what is wrong, and none are fielded)."""
    from warband.lang.units import special_problems   # lazily: only lists of units get here
    special = data.get("special")
    unit = cls.unit if cls is not None else None
    if unit is None or not unit.specials or not isinstance(special, dict) or not all(
            isinstance(n, int) and not isinstance(n, bool) and n >= 1 for n in special.values()):
        return None
    special = {str(k): int(v) for k, v in special.items()}
    models = _models(data, cls) or unit.default
    return None if special_problems(unit, models, special) else special


def _models(data, cls) -> int | None:
    """A unit entry's `models`, when it is a whole number its class allows (else
    lists/unit_entries.py has said what is wrong, and the class's default stands)."""
    models = data.get("models")
    unit = cls.unit if cls is not None else None
    if unit is None or isinstance(models, bool) or not isinstance(models, int):
        return None
    return int(models) if unit.allows(int(models)) else None


def warband_from(data, file: str, ruleset, usable: set[int] | None = None) -> Warband:
    """The warband of a file; with `usable`, only the fighter entries of those indices."""
    entries = data.get(FIGHTERS) if isinstance(data.get(FIGHTERS), list) else []
    fighters = tuple(fighter_from(entry, i, ruleset) for i, entry in enumerate(entries)
                     if isinstance(entry, dict) and (usable is None or i in usable))
    points = data.get("points")
    games = data.get(GAMES)
    kept = {state.key: name for name, state in ruleset.states.items()
            if state.owner == "side" and state.kept} if ruleset is not None else {}
    return Warband(
        file=file,
        name=str(data["name"]) if data.get("name") is not None else None,
        ruleset_ref=ruleset_ref(data),
        points=int(points) if isinstance(points, int) and not isinstance(points, bool) else None,
        fighters=fighters,
        notes=data.get("notes") if isinstance(data.get("notes"), str) else None,
        values={kept[k]: _number(v) for k, v in data.items() if k in kept and
                isinstance(v, (int, float)) and not isinstance(v, bool)},
        games=int(games) if isinstance(games, int) and not isinstance(games, bool) and
        games > 0 else 0,
    )
