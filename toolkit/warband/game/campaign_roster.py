"""Campaigns: what an aftermath does to a warband's roster and its own values, as edits of the
warband file's text (game/campaign.py works out the fighters' stats and calls these).

- a warband's own values (top-level keys): `games:` (the games it has played, one more after
  each game) and each side's stat the ruleset keeps (`stat NAME on side: ...`), replaced where
  they stand or added on lines of their own above `fighters:`;
- fighters struck off (removed in the aftermath): an entry of one fighter leaves the list, an
  entry of several counts fewer (or is split, as game/campaign.py splits entries);
- equipment given and taken: the entry's `equipment:` list;
- fighters hired: new entries at the end of the list, in the last entry's layout.

Entries are edited line by line where they can be (an entry removed with its lines, a hired one
added after the last); elsewhere the round trip of `warband convert` does it, and either way the
result is compared with what it should say.
"""

from __future__ import annotations

import json
import re

from ruamel.yaml.comments import CommentedMap, CommentedSeq

from warband.lists.warband_file import FIGHTERS, GAMES

STRUCK = "#struck"         # a fighter's values: struck off its warband
EQUIPMENT = "#equipment"   # a fighter's values: what its entry carries now
COUNT = "#count"           # an entry's values: how many fighters it has left
_SCALAR = re.compile(r""""(?:[^"\\]|\\.)*"|'(?:[^']|'')*'|[^\s#,\]}][^#,\]}]*?(?=\s*(?:#|,|]|}|$))""")
_PLAIN = re.compile(r"^[A-Za-z_][A-Za-z0-9_ .'-]*$")


def shown(value) -> str:
    """A value as a YAML scalar: plain where YAML reads it back as the same text."""
    if value is True or value is False:
        return "true" if value else "false"
    if isinstance(value, str):
        return value if _PLAIN.match(value) and value.strip() == value and value.lower() not in (
            "true", "false", "yes", "no", "on", "off", "null", "y", "n") else json.dumps(value)
    return str(value)


# ---- the warband's own values ----------------------------------------------------------------

def top_values(data, values: dict) -> None:
    """Set the warband's own values in round-trip data (new keys above `fighters`)."""
    keys = list(data.keys())
    at = keys.index(FIGHTERS) if FIGHTERS in keys else len(keys)
    for key, value in values.items():
        if key in data:
            data[key] = value
        else:
            data.insert(at, key, value)
            at += 1


def top_lines(text: str, data, values: dict) -> str | None:
    """The text with the warband's own values, each replaced where it stands or added on a line
    of its own above `fighters:` (and above the comments right over it); None where that cannot
    be done (a flow mapping, a value over several lines)."""
    if not isinstance(data, CommentedMap) or data.fa.flow_style() or FIGHTERS not in data:
        return None
    lines = text.splitlines(keepends=True)
    ending = "\r\n" if "\r\n" in text else "\n"
    added = []
    for key, value in values.items():
        if key not in data:
            added.append(f"{key}: {shown(value)}{ending}")
            continue
        if isinstance(data[key], (CommentedMap, CommentedSeq)):
            return None
        line, column = data.lc.value(key)
        if data.lc.key(key)[0] != line:
            return None
        found = _SCALAR.match(lines[line], column)
        if found is None:
            return None
        lines[line] = lines[line][:column] + shown(value) + lines[line][found.end():]
    line = data.lc.key(FIGHTERS)[0]
    while line > 0 and lines[line - 1].startswith("#"):
        line -= 1   # comments right above `fighters:` are its own
    lines[line:line] = added
    return "".join(lines)


# ---- the roster: fighters struck off, equipment, fighters hired --------------------------------

def alive(own: list[dict]) -> list[tuple[int, dict]]:
    """An entry's fighters not struck off: (place in the entry, values)."""
    return [(n, v) for n, v in enumerate(own) if not v.get(STRUCK)]


def signature(values: dict) -> tuple:
    return tuple(sorted((k, v) for k, v in values.items() if k != STRUCK))


def set_equipment(entry, pieces: tuple[str, ...]) -> None:
    """The entry's equipment list as `pieces`, in the style it was written in (a new list in
    flow style, `[A, B]`, as the line-by-line writer writes it: equipment_lines)."""
    if "equipment" in entry:
        old = entry["equipment"]
        if not pieces:
            del entry["equipment"]
            return
        entry["equipment"] = _listed(pieces, not isinstance(old, CommentedSeq) or
                                     old.fa.flow_style())
        return
    if pieces:
        keys = list(entry.keys())
        at = keys.index("notes") if "notes" in keys else len(keys)
        entry.insert(at, "equipment", _listed(pieces, True))


def _listed(pieces: tuple[str, ...], flow: bool) -> CommentedSeq:
    seq = CommentedSeq(pieces)
    if flow:
        seq.fa.set_flow_style()
    return seq


def hire_entries(entries, hires: list[dict]) -> None:
    """New entries at the end of the list: name, class, equipment."""
    for hired in hires:
        entry = CommentedMap()
        for key in ("name", "class", "equipment"):
            if hired.get(key):
                entry[key] = CommentedSeq(hired[key]) if key == "equipment" else hired[key]
        entries.append(entry)


def free_name(taken: set[str], name: str) -> str:
    """A hired fighter's name, numbered if the warband has one so named already."""
    if name not in taken:
        return name
    n = 2
    while f"{name} {n}" in taken:
        n += 1
    return f"{name} {n}"


def roster_lines(text: str, data, gone: list[int], hires: list[dict]) -> str | None:
    """The text with whole entries removed (`gone`: their places) and hired ones added after the
    last, in its layout; None where an entry's lines cannot be told apart (flow style, an entry
    sharing lines, a last entry that is gone with nothing before it to copy)."""
    entries = data[FIGHTERS] if isinstance(data, CommentedMap) else None
    if not isinstance(entries, CommentedSeq) or entries.fa.flow_style() or not entries:
        return None
    lines = text.splitlines(keepends=True)
    ending = "\r\n" if "\r\n" in text else "\n"
    bounds = []
    for index, entry in enumerate(entries):
        if not isinstance(entry, CommentedMap) or entry.fa.flow_style() or entry.merge or \
                not len(entry):
            return None
        bounds.append(entry.lc.key(next(iter(entry))))
    top = list(data.keys())
    after = top.index(FIGHTERS) + 1
    region_end = data.lc.key(top[after])[0] if after < len(top) else len(lines)
    while region_end - 1 > bounds[-1][0] and not lines[region_end - 1].strip():
        region_end -= 1
    ends = [bounds[i + 1][0] for i in range(len(bounds) - 1)] + [region_end]
    starts = [line for line, _ in bounds]
    if any(lines[s][:c].strip() not in ("-", "") for s, c in bounds):
        return None
    if hires:
        last = max(set(range(len(entries))) - set(gone), default=None)
        if last is None:
            return None
        column = bounds[last][1]
        dash = lines[starts[last]][:column].rstrip(" ")
        pad = " " * column
        new: list[str] = []
        for hired in hires:
            first = True
            for key in ("name", "class", "equipment"):
                value = hired.get(key)
                if not value:
                    continue
                text_value = "[" + ", ".join(shown(v) for v in value) + "]" \
                    if key == "equipment" else shown(value)
                lead = (dash + " " * (column - len(dash))) if first else pad
                new.append(f"{lead}{key}: {text_value}{ending}")
                first = False
        at = ends[-1]
        if at > 0 and not lines[at - 1].endswith("\n"):
            lines[at - 1] += ending
        lines[at:at] = new
    for index in sorted(gone, reverse=True):
        start, end = starts[index], ends[index]
        while end - 1 > start and (not lines[end - 1].strip() or (
                lines[end - 1].lstrip().startswith("#") and
                len(lines[end - 1]) - len(lines[end - 1].lstrip(" ")) <= bounds[index][1] - 2)):
            end -= 1   # blank lines and comments above the next entry are the next entry's
        del lines[start:end]
    return "".join(lines)


# ---- equipment ----------------------------------------------------------------------------------

def gear(values: dict, fighter, ops: list[tuple[str, str]]) \
        -> tuple[str, str] | None:
    """The entry's equipment after what was given to and taken from one of its fighters (in
    `values`, when it changed); why it cannot be written (message, hint), or None."""
    pieces = list(fighter.equipment)
    for kind, piece in ops:
        if kind == "give":
            pieces.append(piece)
        elif piece in pieces:
            del pieces[len(pieces) - 1 - pieces[::-1].index(piece)]
        else:
            message = (f"the aftermath takes {piece} from '{fighter.label}', which carries "
                       f"it as its class {fighter.fighter_class}'s own equipment: a warband "
                       "entry cannot drop it")
            return message, ("take only what an entry lists under `equipment:` (what was "
                             "bought, found or given)")
    if pieces != list(fighter.equipment):
        values[EQUIPMENT] = tuple(pieces)
    return None


def equipment_lines(lines: list[str], entry, pieces: tuple[str, ...], ending: str) \
        -> tuple[list[tuple[int, int, list[str]]], dict[int, list[str]]] | None:
    """An entry's new `equipment:` list as line edits: (ranges of lines replaced, lines
    inserted before a line); None where the list's lines cannot be told apart."""
    flow = "[" + ", ".join(shown(p) for p in pieces) + "]"
    keys = list(entry.keys())
    if "equipment" not in entry:
        if not pieces:
            return [], {}
        if "notes" in keys and keys.index("notes") > 0:
            line, column = entry.lc.key("notes")
            if line == entry.lc.key(keys[0])[0]:
                return None
            return [], {line: [f"{' ' * column}equipment: {flow}{ending}"]}
        last = keys[-1]
        line, column = entry.lc.key(last)
        if isinstance(entry[last], (CommentedMap, CommentedSeq)) or \
                entry.lc.value(last)[0] != line or not ends_here(lines, line, column):
            return None
        return [], {line + 1: [f"{' ' * column}equipment: {flow}{ending}"]}
    have = entry["equipment"]
    key_line, column = entry.lc.key("equipment")
    if not isinstance(have, CommentedSeq) or key_line == entry.lc.key(keys[0])[0]:
        return None
    if have.fa.flow_style():
        line, start = entry.lc.value("equipment")
        end = lines[line].find("]", start)
        if line != key_line or end < 0 or "[" in lines[line][start + 1:end]:
            return None
        text = lines[line][:start] + flow + lines[line][end + 1:]
        return [(line, line, [text])], {}
    items = [have.lc.item(i) for i in range(len(have))]
    if not items or any(line == key_line for line, _ in items) or \
            len({line for line, _ in items}) != len(items):
        return None
    first, last = items[0][0], items[-1][0]
    dash = " " * (items[0][1] - 2)
    if not pieces:   # no equipment left: the key goes with its items
        return [(key_line, last, [])], {}
    return [(first, last, [f"{dash}- {shown(p)}{ending}" for p in pieces])], {}


def ends_here(lines: list[str], line: int, column: int) -> bool:
    """Whether the value on `line` ends there: the next line that is not blank is indented no
    more than the key (another key, a comment, another entry), not the rest of a multi-line
    value (which YAML indents more than its key)."""
    for after in lines[line + 1:]:
        if after.strip():
            return len(after) - len(after.lstrip(" ")) <= column
    return True


__all__ = ["COUNT", "EQUIPMENT", "GAMES", "STRUCK", "alive", "ends_here", "equipment_lines",
           "free_name", "gear", "hire_entries", "roster_lines", "set_equipment", "shown",
           "signature", "top_lines", "top_values"]
