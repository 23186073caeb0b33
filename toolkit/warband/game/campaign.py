"""Campaigns: what a game's aftermath changes, written back into the warband files it came from.

What lasts between games is a fighter's stats (the values a warband file gives each fighter):
every stat the scenario's `aftermath` changes for a fighter of a warband file becomes that
fighter's value in the file (experience, injuries, advances); what play changes and the
aftermath does not (damage, wounds) lasts one game only, as do flags and counters. No game
system is known here: the rules say what lasts by what their aftermath sets.

`plan` works out, for every side that comes from a file, the file's new text and its diff, and
refuses (E920) what it cannot write faithfully: a file that is no longer the one the game
played, a stat the fighter's class fixes or the warband's ruleset does not have, a file two
sides share, a warband that the changes would make invalid. The text is edited line by line,
so comments and layout stay as they were (only the changed values, and a new key where the
entry had none, differ); where an edit cannot be made so (a flow mapping `- {name: A}`, an
entry split in two) the file goes through ruamel.yaml's round trip, as `warband convert` does.
Either way the result is loaded again and compared with what it should say.

An entry with `count: N` keeps its count when its N fighters come out of the aftermath alike;
when they do not (one of two spearmen earned XP), it is split into N entries named as the
game named them ('Spearman 1', 'Spearman 2'), each with its own values.

Nothing here writes a file or prints: `warband play --update` (cli/play.py) shows the diffs and
writes them with the project's safe writer.
"""

from __future__ import annotations

import copy
import difflib
import json
import os
import re
from dataclasses import dataclass, field
from pathlib import Path

from ruamel.yaml.comments import CommentedMap, CommentedSeq

from warband.catalog import display_path
from warband.diagnostics import Diagnostic, diag
from warband.game import campaign_roster as roster
from warband.game.campaign_roster import COUNT, EQUIPMENT, STRUCK
from warband.game.scenario import Scenario, resolve
from warband.lang.ruleset import Ruleset
from warband.lists.fmt import dump_document, load_document, plain
from warband.lists.validate import Validation
from warband.lists.warband_file import FIGHTERS, GAMES, read_source, span_at
from warband.run.campaign import Aftermath

_FIXED_FIRST = ("name", "count", "class")
_SCALAR = re.compile(r""""(?:[^"\\]|\\.)*"|'(?:[^']|'')*'|[^\s#,\]}][^#,\]}]*?(?=\s*(?:#|,|]|}|$))""")


@dataclass
class Update:
    """One warband file's changes: its new text, and the diff that shows them."""

    path: Path                 # the file as the scenario names it (relative to the scenario)
    name: str                  # as messages show it
    original: bytes            # the bytes read: the file is rewritten only if it still has them
    text: str                  # the new text
    side: str                  # the side it plays

    def diff(self) -> str:
        old = self.original.decode("utf-8")
        return "".join(difflib.unified_diff(
            old.splitlines(keepends=True), self.text.splitlines(keepends=True),
            fromfile=f"{self.name} (before the game)", tofile=f"{self.name} (after the game)"))


@dataclass
class Plan:
    """What `--update` would write: the files' updates, or why it cannot (E920)."""

    updates: list[Update] = field(default_factory=list)
    diagnostics: list[Diagnostic] = field(default_factory=list)
    sources: dict[str, str] = field(default_factory=dict)   # texts the diagnostics point into
    notes: list[str] = field(default_factory=list)


def side_files(scenario: Scenario, ref: str) -> list[Path | None]:
    """Each side's warband file (None for a side the scenario writes): the one its fighters
    came from, a --side file or the scenario's own."""
    if scenario.files:
        return list(scenario.files)
    path, _ = resolve(ref)   # (a Scenario made without them: as the scenario names them)
    return [path.parent / side.file if path is not None and side.file is not None else None
            for side in scenario.decl.sides]


@dataclass
class Roster:
    """What the aftermath did to one side's warband beside its fighters' stats (places are in
    the side): fighters struck off, equipment given and taken, fighters hired, its own stats."""

    struck: set[int] = field(default_factory=set)
    gear: list[tuple[int, str, str]] = field(default_factory=list)
    hired: list = field(default_factory=list)          # run.campaign.Hired
    values: dict = field(default_factory=dict)         # side's stat -> its new value


def plan(scenario: Scenario, ref: str, changes: list[tuple[int, str, object, object]],
         side_changes: list[tuple[int, str, object, object]] = (),   # type: ignore[assignment]
         record: Aftermath | None = None) -> Plan:
    """The updates a game's aftermath makes to its warbands: the fighters' stats it changed
    (`changes`: engine.Game.aftermath), the sides' kept stats (`side_changes`) and what else it
    did (`record`: fighters struck off, equipment, fighters hired: engine.Game.campaign). Each
    warband file also counts one game more (`games:`)."""
    out = Plan()
    files = side_files(scenario, ref)
    record = record if record is not None else Aftermath()
    stats = {name for name, stat in scenario.ruleset.stats.items() if stat.derived is None}
    kept = [(i, name, new) for i, name, _, new in changes if name in stats]
    if not any(files):
        out.notes.append("every side of this scenario is written in it: no warband file to "
                         "update")
        return out
    first = 0
    by_side: list[tuple[int, Path, range]] = []
    for index, (file, force) in enumerate(zip(files, scenario.forces)):
        if file is not None:
            by_side.append((index, file, range(first, first + len(force))))
        first += len(force)
    out.sources.update(getattr(scenario.sources, "texts", None) or {})
    seen: dict[str, str] = {}
    for index, file, places in by_side:
        side = scenario.side_names[index]
        mine = [(i - places.start, name, new) for i, name, new in kept if i in places]
        what = Roster({i - places.start for i in record.struck if i in places},
                      [(i - places.start, kind, piece) for i, kind, piece in record.gear
                       if i in places],
                      [h for h in record.hired if h.side == index],
                      {name: new for i, name, _, new in side_changes if i == index})
        real = str(file.resolve())
        if real in seen:
            out.diagnostics.append(diag(
                "E920", f"sides '{seen[real]}' and '{side}' both play {_shown(file)}: the "
                        "game's changes cannot be written back to one file for both",
                scenario.decl.sides[index].span,
                hint="give each side its own copy of the warband"))
            continue
        seen[real] = side
        update = _update_file(scenario, index, file, mine, out, what)
        if update is not None and update.text != update.original.decode("utf-8"):
            out.updates.append(update)
    return out


def _update_file(scenario: Scenario, index: int, file: Path, mine: list, out: Plan,
                 what: Roster) -> Update | None:
    """One side's file with its fighters' changes (`mine`: place in the side, stat, value) and
    the rest of what the aftermath did to it (`what`), one game more played."""
    side = scenario.side_names[index]
    source = read_source(str(file), shared=True)   # (a regular file, as the game read it)
    if source.problem is not None or source.raw is None:
        out.diagnostics += [source.problem] if source.problem is not None else []
        return None
    name = _shown(file)
    side_span = scenario.decl.sides[index].span
    text = source.raw.decode("utf-8", errors="replace")
    result = Validation().text(text, name, source.base)
    warband, ruleset = result.warband, result.ruleset
    specs = [s for f in warband.fighters for s in f.specs(index)] if warband else []
    if result.errors or warband is None or ruleset is None or \
            specs != scenario.forces[index][:len(specs)]:
        out.diagnostics.append(diag(
            "E920", f"side '{side}': {name} changed since the game began; it is left as it is",
            side_span, hint="someone (an editor?) saved it meanwhile: play the game again"))
        return None
    data = load_document(text)
    top = _top(ruleset, warband.games, what, data, name, text, side_span, out)
    if top is None:
        return None
    wanted: dict[int, list[dict]] = {}   # entry -> the new values of each of its fighters
    place, refused = 0, False
    for fighter in warband.fighters:
        own: list[dict] = [{} for _ in range(fighter.count)]
        where = span_at(data, (FIGHTERS, fighter.index), name, text, line=True)
        for n in range(fighter.count):
            for at, stat_name, new in mine:
                if at == place + n:
                    own[n][stat_name] = new
            if place + n in what.struck:
                own[n][STRUCK] = True
            problem = roster.gear(own[n], fighter, [(k, p) for at, k, p in what.gear
                                                       if at == place + n])
            if problem is not None:
                out.diagnostics.append(diag("E920", problem[0], where, hint=problem[1]))
                out.sources[name] = text
                refused = True
        place += fighter.count
        if not any(own):
            continue
        for stat_name in sorted({s for values in own for s in values if s[0] != "#"}):
            problem = _cannot_keep(ruleset, fighter.fighter_class, stat_name, fighter.label)
            if problem is not None:
                out.diagnostics.append(diag("E920", problem[0], where, hint=problem[1]))
                out.sources[name] = text
                refused = True
        wanted[fighter.index] = own
        left = roster.alive(own)
        if len({roster.signature(v) for _, v in left}) > 1:
            out.notes.append(f"{name}: '{fighter.label}' is split into {len(left)} entries "
                             f"('{fighter.name} {left[0][0] + 1}', ...): its fighters came out "
                             "of the game with different values")
    if refused:
        return None
    hires = _hires(ruleset, warband, what, data, name, text, side_span, out)
    if hires is None:
        return None
    with_top = roster.top_lines(text, data, top)
    if with_top is None:   # (a flow mapping at the top: the round trip sets them)
        roster.top_values(data, top)
        with_top = dump_document(data)
    topped = load_document(with_top)
    new_text = _edited(with_top, topped, topped[FIGHTERS], wanted, ruleset, hires)
    if new_text is None:
        merged = [i for i, entry in enumerate(data[FIGHTERS])
                  if isinstance(entry, CommentedMap) and len(getattr(entry, "merge", ()) or ())]
        if merged:   # (an entry that takes its values from another, `<<: *bors`)
            where = span_at(data, (FIGHTERS, merged[0]), name, text, line=True)
            out.diagnostics.append(diag(
                "E920", f"{name} cannot be updated: an entry takes its values from another "
                        "with a merge key ('<<:'), so a change written to one would change the "
                        "other, or not be written at all", where or side_span,
                hint="write the entry out in full (its own keys instead of '<<: *anchor'), "
                     "then play again"))
            out.sources[name] = text
            return None
        out.diagnostics.append(diag(
            "E920", f"{name} cannot be updated without changing what else it says", side_span,
            hint="this is a toolkit bug: please report it with the file"))
        return None
    after = Validation().text(new_text, f"{name} (after the game)", source.base)
    if after.errors:
        out.diagnostics += after.errors
        out.sources[f"{name} (after the game)"] = new_text
        out.diagnostics.append(diag(
            "E920", f"side '{side}': after this game {name} would not be a valid warband; it "
                    "is left as it is", side_span,
            hint="the errors above are in the file as the game would leave it"))
        return None
    return Update(file, name, source.raw, new_text, side)


def _top(ruleset: Ruleset, games: int, what: Roster, data, name: str, text: str, side_span,
         out: Plan) -> dict | None:
    """The warband's own values after the game: one game more, and the side's stats the
    aftermath changed (each one the warband's ruleset keeps; else E920, None)."""
    top: dict = {GAMES: games + 1}
    for stat_name, value in what.values.items():
        state = ruleset.states.get(stat_name)
        if state is None or state.owner != "side" or not state.kept:
            out.diagnostics.append(diag(
                "E920", f"the aftermath changes the side's {stat_name}, which the warband's "
                        f"ruleset '{ruleset.id}' does not keep", span_at(data, (), name, text)
                or side_span,
                hint=f"declare it in the ruleset the warband names: stat {stat_name} on side: "
                     "LOW..HIGH"))
            out.sources[name] = text
            return None
        top[state.key] = value
    return top


def _hires(ruleset: Ruleset, warband, what: Roster, data, name: str, text: str, side_span,
           out: Plan) -> list[dict] | None:
    """The new entries of the fighters hired (a name the warband has is numbered); None with
    E920 for a class the warband's ruleset does not have."""
    taken = {f.name for f in warband.fighters} | {
        f"{f.name} {n + 1}" for f in warband.fighters if f.count > 1 for n in range(f.count)}
    hires = []
    for hired in what.hired:
        if hired.fighter_class not in ruleset.classes:
            out.diagnostics.append(diag(
                "E920", f"the aftermath hires '{hired.name}' as a {hired.fighter_class}, a "
                        f"class the warband's ruleset '{ruleset.id}' does not have",
                side_span, hint="declare the class in the ruleset the warband names"))
            return None
        fresh = roster.free_name(taken, hired.name)
        taken.add(fresh)
        hires.append({"name": fresh, "class": hired.fighter_class,
                      "equipment": list(hired.equipment)})
    return hires


def _shown(file: Path) -> str:
    """A warband file by its real folder, 'warbands/x.yaml', not 'scenarios/../warbands/x.yaml'
    (the file itself is read and written by the name the scenario gives: a link stays a link)."""
    return display_path(Path(os.path.realpath(file.parent)) / file.name)


def _cannot_keep(ruleset: Ruleset, class_name: str | None, stat_name: str,
                 label: str) -> tuple[str, str] | None:
    """Why a stat the aftermath changed cannot be written in a warband entry: (message, hint)."""
    if stat_name not in ruleset.stats:
        return (f"the aftermath changes '{label}''s {stat_name}, which the warband's ruleset "
                f"'{ruleset.id}' does not have",
                "declare the stat in the ruleset the warband names, not in the scenario")
    cls = ruleset.classes.get(class_name) if class_name else None
    if cls is not None and stat_name in dict(cls.stats):
        return (f"the aftermath changes '{label}''s {stat_name}, which its class {cls.name} "
                "fixes: a warband entry cannot give it",
                "keep what lasts between games in a stat the class does not fix")
    return None


# ---- the new text ----------------------------------------------------------------------------------

def _edited(text: str, data, entries, wanted: dict[int, list[dict]], ruleset: Ruleset,
            hires: list[dict]) -> str | None:
    """The file's text with the wanted values, fighters struck off and hired: edited line by
    line where it can be, else by the round trip; None if neither says exactly what it
    should."""
    order = [stat.key for stat in ruleset.stats.values()]
    expected = load_document(text)
    _apply(expected[FIGHTERS], wanted, ruleset)
    roster.hire_entries(expected[FIGHTERS], hires)
    target = plain(expected)
    lines = _roster_lines(text, data, wanted, ruleset, order, hires)
    if lines is not None and _says(lines, target):
        return lines
    _apply(entries, wanted, ruleset)
    roster.hire_entries(entries, hires)
    dumped = dump_document(data)
    if "\r\n" in text:
        dumped = dumped.replace("\r\n", "\n").replace("\n", "\r\n")
    return dumped if _says(dumped, target) else None


def _differ(own: list[dict]) -> bool:
    return len({tuple(sorted(v.items())) for v in own}) > 1


def _roster_lines(text: str, data, wanted: dict[int, list[dict]], ruleset: Ruleset,
                  order: list[str], hires: list[dict]) -> str | None:
    """Line edits: the stats (and equipment) of the fighters who stay, then the entries whose
    fighters are all struck off removed and the hired ones added. An entry of several fighters
    some of whom are struck off is left to the round trip."""
    gone = [i for i, own in wanted.items() if not roster.alive(own)]
    staying = {}
    for i, own in wanted.items():
        left = roster.alive(own)
        if not left or len(left) == len(own):
            staying.update({i: own} if left else {})
            continue
        if len({roster.signature(v) for _, v in left}) > 1:
            return None   # (some struck off, the others split: the round trip)
        values = {k: v for k, v in left[0][1].items() if k != STRUCK}
        staying[i] = [{**values, COUNT: len(left)}]   # the same entry, counting fewer
    edited = _line_edits_split(text, data, staying, ruleset, order) if staying else text
    if edited is None or not (gone or hires):
        return edited
    return roster.roster_lines(edited, load_document(edited), gone, hires) if not any(
        _differ(own) for own in staying.values()) else None


def _line_edits_split(text: str, data, wanted: dict[int, list[dict]], ruleset: Ruleset,
                      order: list[str]) -> str | None:
    """Line edits, after splitting the entries whose fighters differ into entries of one
    fighter each (their lines copied, the name numbered, the count's line left out)."""
    splits = sorted((i for i, own in wanted.items() if _differ(own)), reverse=True)
    if splits:
        text_split = _split_lines(text, data, splits)
        if text_split is None:
            return None
        text, data = text_split, load_document(text_split)
    values: dict[int, dict] = {}
    shift = 0
    for index in sorted(wanted):
        own = wanted[index]
        if _differ(own):
            for n, one in enumerate(own):
                if one:
                    values[index + shift + n] = one
            shift += len(own) - 1
        else:
            values[index + shift] = own[0]
    return _line_edits(text, data[FIGHTERS], values, ruleset, order)


def _split_lines(text: str, data, splits: list[int]) -> str | None:
    """The text with each entry of `splits` (last first) written once per fighter; None where
    its lines cannot be told apart from the rest (a flow mapping, an alias, a merge key)."""
    lines = text.splitlines(keepends=True)
    entries = data[FIGHTERS]
    if not isinstance(entries, CommentedSeq) or entries.fa.flow_style():
        return None
    top = list(data.keys())
    after = top.index(FIGHTERS) + 1
    region_end = data.lc.key(top[after])[0] if after < len(top) else len(lines)
    for index in splits:
        entry = entries[index]
        if not isinstance(entry, CommentedMap) or entry.fa.flow_style() or entry.merge or \
                any(e is entry for j, e in enumerate(entries) if j != index):
            return None
        keys = list(entry.keys())
        start, dash = entry.lc.key(keys[0])
        if keys[0] == "count" or "name" not in entry or "count" not in entry:
            return None   # (a first key shares its line with the '- ': it stays)
        if index + 1 < len(entries):
            following = entries[index + 1]
            if not isinstance(following, CommentedMap) or following.lc.line is None:
                return None
            end = following.lc.key(next(iter(following)))[0]
        else:
            end = region_end
        while end - 1 > start and (not lines[end - 1].strip() or (
                lines[end - 1].lstrip().startswith("#") and
                len(lines[end - 1]) - len(lines[end - 1].lstrip(" ")) <= dash - 2)):
            end -= 1   # blank lines and comments above the next entry (or key) are its own
        count_line, count_column = entry.lc.key("count")
        if entry.lc.value("count")[0] != count_line or \
                not roster.ends_here(lines, count_line, count_column):
            return None
        name_line, name_column = entry.lc.value("name")
        found = _SCALAR.match(lines[name_line], name_column)
        if found is None:
            return None
        copies: list[str] = []
        for n in range(int(entry["count"])):
            block = list(lines[start:end])
            old = lines[name_line]
            token = found.group()
            new_name = f"{entry['name']} {n + 1}"
            quoted = json.dumps(new_name) if token.startswith('"') else \
                "'" + new_name.replace("'", "''") + "'" if token.startswith("'") else new_name
            block[name_line - start] = old[:name_column] + quoted + old[found.end():]
            del block[count_line - start]
            copies += block
        lines[start:end] = copies
    return "".join(lines)


def _says(text: str, target) -> bool:
    try:
        return plain(load_document(text)) == target
    except Exception:   # noqa: BLE001 -- an edit that does not load is one that failed
        return False


def _key(entry, ruleset: Ruleset, stat_name: str) -> str:
    """The entry's key for a stat (as the file spells it), or the stat's own key."""
    stat = ruleset.stats[stat_name]
    return next((k for k in entry if isinstance(k, str) and k.lower() == stat.key), stat.key)


def _apply(entries, wanted: dict[int, list[dict]], ruleset: Ruleset) -> None:
    """Set the values in round-trip data; an entry whose fighters differ is split, one whose
    fighters are struck off counts fewer or leaves the list."""
    order = [stat.key for stat in ruleset.stats.values()]
    for index in sorted(wanted, reverse=True):
        own = wanted[index]
        entry = entries[index]
        left = roster.alive(own)
        if not left:
            del entries[index]
            continue
        if len({roster.signature(v) for _, v in left}) == 1:
            _set(entry, left[0][1], ruleset, order)
            if len(left) < len(own):
                entry["count"] = len(left)
            continue
        base = str(entry["name"])   # the game's names for them: 'Spearman 1', ...
        copies = [entry] + [_copy(entry) for _ in left[1:]]
        for one, (n, values) in zip(copies, left):
            one["name"] = f"{base} {n + 1}"
            if "count" in one:
                del one["count"]
            _set(one, values, ruleset, order)
        entries[index:index + 1] = copies


def _copy(entry):
    """An entry's keys and values without its comments (they stay with the first of a split)."""
    one = CommentedMap()
    for k, v in entry.items():
        one[k] = copy.deepcopy(v) if isinstance(v, (CommentedMap, CommentedSeq)) else v
    return one


def _set(entry, values: dict, ruleset: Ruleset, order: list[str]) -> None:
    for stat_name, value in values.items():
        if stat_name == EQUIPMENT:
            roster.set_equipment(entry, value)
            continue
        if stat_name == STRUCK:
            continue
        key = _key(entry, ruleset, stat_name)
        if key in entry:
            entry[key] = value
        else:
            entry.insert(_insert_at(entry, key, order), key, value)


def _insert_at(entry, key: str, order: list[str]) -> int:
    """Where a new stat key goes among an entry's keys: after name, count, class and the
    stats declared before it (the order `warband fmt` gives)."""
    mine = order.index(key)
    keys = list(entry.keys())
    at = 0
    for i, k in enumerate(keys):
        low = k.lower() if isinstance(k, str) else k
        if low in _FIXED_FIRST or (low in order and order.index(low) < mine):
            at = i + 1
    return at


def _scalar(value) -> str:
    if value is True or value is False:
        return "true" if value else "false"
    return str(value)


def _line_edits(text: str, entries, values: dict[int, dict], ruleset: Ruleset,
                order: list[str]) -> str | None:
    """The text with each value replaced where it stands and each new key put on a line of its
    own, every other line as it was; None where that cannot be done (a flow mapping)."""
    lines = text.splitlines(keepends=True)
    ending = "\r\n" if "\r\n" in text else "\n"
    replace: list[tuple[int, int, str]] = []    # (line, column, new text)
    inserts: dict[int, list[str]] = {}          # before this line: these lines
    ranges: list[tuple[int, int, list[str]]] = []   # lines first..last become these
    for index, new in values.items():
        entry = entries[index]
        if not isinstance(entry, CommentedMap) or entry.fa.flow_style() or entry.merge:
            return None
        keys = list(entry.keys())
        if STRUCK in new:
            return None   # (the entry's lines: roster_lines, or the round trip)
        if COUNT in new:   # fighters struck off: the count where it stands
            if "count" not in entry or isinstance(entry["count"], (CommentedMap, CommentedSeq)):
                return None
            line, column = entry.lc.value("count")
            replace.append((line, column, str(new[COUNT])))
        for stat_name in sorted((n for n in new if n[0] != "#"),
                                key=lambda s: order.index(ruleset.stats[s].key)):
            key = _key(entry, ruleset, stat_name)
            value = _scalar(new[stat_name])
            if key in entry:
                if isinstance(entry[key], (CommentedMap, CommentedSeq)):
                    return None
                line, column = entry.lc.value(key)
                replace.append((line, column, value))
                continue
            at = _insert_at(entry, key, order)
            if at == 0:
                return None   # a new first key: the round trip places it
            if at >= len(keys):   # a new last key: on the line after the last one
                last = keys[-1]
                line, column = entry.lc.key(last)
                if isinstance(entry[last], (CommentedMap, CommentedSeq)) or \
                        entry.lc.value(last)[0] != line or not roster.ends_here(lines, line, column):
                    return None
                inserts.setdefault(line + 1, []).append(f"{' ' * column}{key}: {value}{ending}")
                continue
            following = keys[at]
            line, column = entry.lc.key(following)
            if line == entry.lc.key(keys[0])[0]:
                return None
            while line - 1 > entry.lc.key(keys[at - 1])[0] and \
                    lines[line - 1].lstrip().startswith("#") and \
                    len(lines[line - 1]) - len(lines[line - 1].lstrip(" ")) <= column:
                line -= 1   # comments directly above a key are that key's: go above them
            inserts.setdefault(line, []).append(f"{' ' * column}{key}: {value}{ending}")
        if EQUIPMENT in new:   # (the entry's list, on the lines it has or a line of its own)
            edits = roster.equipment_lines(lines, entry, new[EQUIPMENT], ending)
            if edits is None:
                return None
            ranges += edits[0]
            for line, added in edits[1].items():
                inserts.setdefault(line, []).extend(added)
    for line, column, value in sorted(replace, reverse=True):
        found = _SCALAR.match(lines[line], column)
        if found is None:
            return None
        lines[line] = lines[line][:column] + value + lines[line][found.end():]
    # last first, a range before what goes above its first line (no two share a line)
    steps = [(first, 1, last, new_lines) for first, last, new_lines in ranges] + \
        [(line, 0, line - 1, added) for line, added in inserts.items()]
    for first, _, last, new_lines in sorted(steps, key=lambda t: (t[0], t[1]), reverse=True):
        lines[first:last + 1] = new_lines
    return "".join(lines)




__all__ = ["Plan", "Update", "plan", "side_files"]
