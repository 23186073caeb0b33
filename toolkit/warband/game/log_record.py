"""Reading a game's record (`warband play --replay FILE`): every field checked before anything
uses it, and every problem E916 at its line and column in the file.

A record may come from anyone (a file sent with a bug report, a forum post), so it is read as
data: its size bounded while reading, a regular file only, its JSON nesting and numbers bounded,
every field's type and range checked, and no key that the record's version does not write.
The events and their fields are listed in docs/commands.md ("The game's record").
"""

from __future__ import annotations

import json
import os
import re
import stat
from fractions import Fraction

from warband.diagnostics import Diagnostic, Sources, Span, diag, lone_surrogate
from warband.limits import MAX_FIGHTERS, MAX_RECORD_BYTES, MAX_ROUNDS
from warband.run.decisions import POLICIES, known_policy
from warband.run.evaluate import infinite
from warband.run.world import Ref

LOG_FORMAT = "warband-game-log"

# The first problem is E916, placed at the key (line:col) and named by its path in the record.
# Version 2: rolls labelled (for, by, needs), phases, changes as they happen, positions as
# numbers, the result's `removed` (was `kills`), the end's summary. A version-1 record is refused
# with E916 (its positions are texts, and its rolls carry no label a replay could match).

RECORD_VERSION = 3
MAX_SEED = 2 ** 63 - 1   # the range of `warband play --seed` (cli/options.MOST)
MAX_NUMBER = 2 ** 63     # no number a game writes is larger
MAX_NAME = 4096          # characters of a scenario reference (a path at most)
_OLDER = ("it was written by an older warband, before records said who removed each fighter "
          "and who made each roll: play the game anew with its scenario, seed and players (`warband play "
          "SCENARIO --seed N --policy SIDE=POLICY -o FILE`; the same seed plays the same game)")
_NOT_A_RECORD = "a record is what `warband play -o FILE` (or --format json) writes"


class RecordProblem(Exception):
    """Why a record cannot be replayed: a message, the path of the value in the record (a JSON
    pointer; the record itself when empty), and a hint."""

    line: int | None = None   # where in the file, once known
    column: int = 1

    def __init__(self, message: str, pointer: tuple = (), hint: str | None = None) -> None:
        super().__init__(message)
        self.message, self.pointer, self.hint = message, pointer, hint


def shown(value, most: int = 60) -> str:
    """A value from a record as a message may quote it: printable, short, control characters
    escaped (a record is a stranger's text)."""
    if isinstance(value, str) and value.isprintable() and len(value) <= most:
        return f"'{value}'"
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) >= 10 ** 30:
        return f"a {len(str(abs(value)))}-digit number"
    text = json.dumps(value, ensure_ascii=True) if isinstance(value, (str, int, float)) or \
        value is None else kind(value)
    return text if len(text) <= most else text[:most - 3] + "..."


def kind(value) -> str:
    """What a JSON value is, in words."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return f"the number {shown(value)}"
    if isinstance(value, str):
        return f"the text {shown(value, 30)}"
    if isinstance(value, list):
        return f"a list of {len(value)}"
    if isinstance(value, dict):
        return "a mapping"
    return type(value).__name__


def pointer_text(pointer: tuple) -> str:
    """/events/12/value (the JSON pointer of RFC 6901)."""
    return "".join("/" + str(step).replace("~", "~0").replace("/", "~1") for step in pointer) \
        or "/"


# ---- the checks of each field --------------------------------------------------------------------
def _is_number(v) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool) and \
        v == v and abs(v) <= MAX_NUMBER   # (NaN and the infinities are no game's numbers)


def _whole(least: int, most: int):
    def check(v) -> str | None:
        if isinstance(v, int) and not isinstance(v, bool) and least <= v <= most:
            return None
        return f"a whole number from {least:,} to {most:,}"
    return check


def _text(v) -> str | None:
    return None if isinstance(v, str) else "a text"


def _text_or_null(v) -> str | None:
    return None if v is None or isinstance(v, str) else "a text or null"


def _scalar(v) -> bool:
    return v is None or isinstance(v, (str, bool)) or _is_number(v)


def _value(v) -> str | None:
    """What a rule computed (a roll, an action's result, a fighter's value)."""
    if _scalar(v) or isinstance(v, list) and all(_scalar(x) for x in v):
        return None
    return "a number, a text, true, false, null or a list of those"


def _choice(v) -> str | None:
    if isinstance(v, str) or _is_number(v) or \
            isinstance(v, list) and len(v) == 2 and all(_is_number(x) for x in v):
        return None
    return "a text, a number or a place [x, y]"


def _mapping_of(values, what: str):
    def check(v) -> str | None:
        if isinstance(v, dict) and all(values(x) is None for x in v.values()):
            return None
        return f"a mapping of {what}"
    return check


_ROUND = _whole(0, MAX_ROUNDS)
_SCORES = _mapping_of(lambda x: None if _is_number(x) else "a number", "side -> score (a number)")
_REMOVED = _mapping_of(_mapping_of(_whole(0, MAX_FIGHTERS), "class -> count"),
                       "side -> {class -> count}")


def _point(v) -> str | None:
    if isinstance(v, list) and len(v) == 2 and all(_is_number(x) for x in v):
        return None
    return "a place [x, y]"


def _point_or_null(v) -> str | None:
    return None if v is None else _point(v)


def _bool(v) -> str | None:
    return None if v is None or isinstance(v, bool) else "true, false or null"


def _survivors(v) -> str | None:
    if isinstance(v, dict) and all(isinstance(names, list) and
                                   all(isinstance(n, str) for n in names) for names in v.values()):
        return None
    return "a mapping of side -> [names]"


def _score_rules(v) -> str | None:
    if isinstance(v, list) and all(
            isinstance(r, dict) and set(r) == {"side", "rule", "value"} and
            isinstance(r["side"], str) and isinstance(r["rule"], str) and _is_number(r["value"])
            for r in v):
        return None
    return "a list of {side, rule, value}"


# Every event a game writes: its keys and what each holds (engine.py, movement.py, placement.py,
# gamelog.py and the interpreter write them); docs/commands.md lists them for a reader.
EVENT_KEYS: dict[str, dict] = {
    "setup": {"round": _ROUND},
    "round": {"round": _ROUND},
    "phase": {"round": _ROUND, "phase": _text, "side": _text_or_null, "fighter": _text_or_null},
    "aftermath": {"round": _ROUND},
    # (terrain with extent: a circle's radius, or a polygon's corners; `at` its middle)
    "place": {"round": _ROUND, "marker": _text, "at": _point, "to": _point, "by": _text,
              "radius": lambda v: None if _is_number(v) else "a number",
              "area": lambda v: None if isinstance(v, list) and len(v) >= 3 and
              all(_point(c) is None for c in v) else "a list of places [x, y]"},
    "deploy": {"round": _ROUND, "side": _text, "zone": _text},
    "activate": {"round": _ROUND, "fighter": _text, "side": _text, "action": _text},
    "travel": {"round": _ROUND, "fighter": _text, "at": _point, "to": _point},
    "enter": {"round": _ROUND, "fighter": _text, "marker": _text},
    "template": {"round": _ROUND, "area": _text, "under": _text},
    "result": {"round": _ROUND, "action": _text, "value": _value},
    "idle": {"round": _ROUND, "fighter": _text,
             "why": _mapping_of(_text, "action -> the requirement it failed")},
    "stuck": {"round": _ROUND, "fighter": _text, "why": _text},
    # by: who removed it (a fighter, and its side; or a side alone; null: no one named)
    "removed": {"round": _ROUND, "fighter": _text, "side": _text, "by": _text_or_null,
                "by_side": _text_or_null},
    "withdrawn": {"round": _ROUND, "fighter": _text, "side": _text, "by": _text_or_null,
                  "by_side": _text_or_null},
    # back into play: a fighter out of play placed again, in a zone, at a point
    "return": {"round": _ROUND, "fighter": _text, "side": _text, "zone": _text,
               "at": _point},
    "models": {"round": _ROUND, "fighter": _text, "side": _text, "lost": _value,
               "left": _value, "start": _value},
    "concede": {"round": _ROUND, "side": _text},
    "change": {"round": _ROUND, "fighter": _text, "side": _text, "field": _text,
               "old": _value, "new": _value},
    # pieces as values: a piece (its kind and number, "objective 2") seized, let go, changed
    "seized": {"round": _ROUND, "piece": _text, "side": _text},
    "released": {"round": _ROUND, "piece": _text},
    "piece": {"round": _ROUND, "piece": _text, "field": _text, "old": _value, "new": _value},
    "picked_up": {"round": _ROUND, "piece": _text, "fighter": _text},
    "dropped": {"round": _ROUND, "piece": _text, "fighter": _text, "at": _point_or_null},
    "carried_off": {"round": _ROUND, "piece": _text, "fighter": _text},
    # decks and bags (run/decks.py): a card drawn (to the discards or to the hand), discarded
    # from the hand, or the discards shuffled back in (card null); side: whose deck it is (null:
    # a deck per game)
    "card": {"round": _ROUND, "deck": _text, "side": _text_or_null, "what": _text,
             "card": _text_or_null},
    "end": {"round": _ROUND, "reason": _text, "winner": _text_or_null, "scores": _SCORES,
            "why": _text, "score_rules": _score_rules, "survivors": _survivors},
    "decision": {"decision": _text, "by": _text_or_null, "choice": _choice},
    "roll": {"round": _ROUND, "dice": _text, "value": _value, "for": _text,
             "side": _text_or_null, "fighter": _text_or_null, "needs": _text, "made": _bool,
             "test": _text},
    # an event's rule runs (run/events.py): its name, its trigger, why it fired
    "event": {"round": _ROUND, "event": _text, "when": _text, "why": _text},
    # a procedure called on fighters other than the one acting (a blast's other targets)
    "call": {"round": _ROUND, "procedure": _text,
             "fighters": lambda v: None if isinstance(v, list) and all(
                 isinstance(n, str) for n in v) else "a list of names"},
}
OPTIONAL_KEYS = {"event": {"why"}, "place": {"to", "by", "radius", "area"}, "idle": {"why"},
                 "change": {"fighter", "side"},
                 "roll": {"needs", "made", "test"}, "end": {"why", "score_rules", "survivors"}}
RESULT_KEYS = {"winner": _text_or_null, "scores": _SCORES, "rounds": _ROUND, "ended": _text,
               "removed": _REMOVED}


def _keys(mapping: dict, expected: dict, optional: set, at: tuple, what: str) -> None:
    """Every key of `expected` (but the optional ones) present and holding what it should; no
    other key."""
    for key, check in expected.items():
        if key not in mapping:
            if key in optional:
                continue
            raise RecordProblem(f"{what} has no '{key}'", at,
                                hint=f"{what} has the keys {', '.join(expected)}")
        wrong = check(mapping[key])
        if wrong is not None:
            raise RecordProblem(f"'{key}' of {what} must be {wrong}, not "
                                f"{kind(mapping[key])}", at + (key,))
    for key in mapping:
        if key not in expected:
            raise RecordProblem(f"{what} has an unknown key {shown(key)}", at + (key,),
                                hint=f"{what} has the keys {', '.join(expected)}")


def _whole_characters(record) -> None:
    """RecordProblem for the first text (a key or a value) holding half of a character (a lone
    surrogate: `"\\ud800"`, which JSON reads and no file or terminal can hold)."""
    stack: list[tuple[object, tuple]] = [(record, ())]
    while stack:
        value, path = stack.pop()
        if isinstance(value, dict):
            for key, item in value.items():
                if lone_surrogate(key) is not None:
                    raise RecordProblem("a key of the record holds the escape of half of a "
                                        "character (a lone surrogate), not text", path,
                                        hint=_NOT_A_RECORD)
                stack.append((item, (*path, key)))
        elif isinstance(value, list):
            stack.extend((item, (*path, i)) for i, item in enumerate(value))
        elif isinstance(value, str):
            half = lone_surrogate(value)
            if half is not None:
                raise RecordProblem(f"this text holds \\u{ord(value[half]):04x}, half of a "
                                    "character (a lone surrogate), not text", path,
                                    hint="a record written by warband holds whole characters: "
                                         "this one was changed by hand")


def check_record(record) -> None:
    """Raise RecordProblem for the first thing in `record` that a record of this version cannot hold."""
    if not isinstance(record, dict) or record.get("format") != LOG_FORMAT:
        where = ("format",) if isinstance(record, dict) and "format" in record else ()
        raise RecordProblem(f"this is not a game record (its 'format' is not '{LOG_FORMAT}')",
                            where, hint=_NOT_A_RECORD)
    version = record.get("version")
    if type(version) is not int or version != RECORD_VERSION:
        raise RecordProblem(f"the record is version {shown(version)}; this warband replays "
                            f"version {RECORD_VERSION} records",
                            ("version",) if "version" in record else (),
                            hint=_OLDER if type(version) is int and 1 <= version < RECORD_VERSION
                            else "it was written by another version of warband: replay it "
                                 "with that one, or play the game anew")
    _keys(record, {"format": _text, "version": lambda v: None,
                   "scenario": _text, "scenario_title": _text, "seed": _whole(0, MAX_SEED),
                   "policies": lambda v: None if isinstance(v, dict) else "a mapping",
                   "max_rounds": lambda v: None if v is None else _whole(1, MAX_ROUNDS)(v),
                   "result": lambda v: None if isinstance(v, dict) else "a mapping",
                   "events": lambda v: None if isinstance(v, list) else "a list",
                   "sides": lambda v: None if isinstance(v, dict) else "a mapping"},
          {"sides"}, (), "the record")
    scenario = record["scenario"]
    if not scenario or len(scenario) > MAX_NAME or not scenario.isprintable():
        raise RecordProblem(f"the record's scenario {shown(scenario)} is no scenario's name",
                            ("scenario",), hint="an id such as sss-standard-game, or a path")
    for side, policy in record["policies"].items():
        if not side or not side.isprintable():
            raise RecordProblem(f"{shown(side)} is no side's name", ("policies", side))
        if not known_policy(policy):
            raise RecordProblem(f"unknown policy {shown(policy)} for {shown(side)}",
                                ("policies", side),
                                hint=f"a side plays {', '.join(POLICIES)}")
    for side, file in record.get("sides", {}).items():
        if not side or not side.isprintable():
            raise RecordProblem(f"{shown(side)} is no side's name", ("sides", side))
        if not isinstance(file, str) or not file or len(file) > MAX_NAME or \
                not file.isprintable():
            raise RecordProblem(f"the warband file of {shown(side)} must be a file's path, not "
                                f"{shown(file)}", ("sides", side),
                                hint="a path relative to the working directory, as "
                                     "`warband play --side` writes it")
    _keys(record["result"], RESULT_KEYS, set(), ("result",), "the result")
    for i, event in enumerate(record["events"]):
        at = ("events", i)
        if not isinstance(event, dict):
            raise RecordProblem(f"event {i + 1} must be a mapping, not {kind(event)}", at)
        type_ = event.get("type")
        expected = EVENT_KEYS.get(type_) if isinstance(type_, str) else None
        if expected is None:
            raise RecordProblem(f"event {i + 1} has no known 'type' ({kind(type_)})",
                                at + (("type",) if "type" in event else ()),
                                hint=f"an event's type is one of {', '.join(EVENT_KEYS)}")
        _keys(event, {"type": _text, **expected}, OPTIONAL_KEYS.get(str(type_), set()), at,
              f"event {i + 1} (a {type_} event)")


# ---- where a value is in the record's text -------------------------------------------------------
_TOKEN = re.compile(r'"(?:[^"\\]|\\.)*"|[\[\]{}:,]|[^\s\[\]{}:,"]+', re.S)


def offset_of(text: str, pointer: tuple) -> int:
    """Where in `text` (JSON that loads) the value at `pointer` is: its key when it is in a
    mapping; as near as there is (the mapping of a key that is missing). Only asked once a
    record is refused, so a plain scan is quick enough."""
    best = 0
    stack: list[list] = []   # per open container: [is a mapping, its key or index now]
    expect_key = False
    for match in _TOKEN.finditer(text):
        token, at = match.group(), match.start()
        if token == ":":
            continue
        if token == ",":
            if not stack[-1][0]:
                stack[-1][1] += 1
            expect_key = stack[-1][0]
            continue
        if token in ("]", "}"):
            stack.pop()
            continue
        placed = False
        if expect_key:   # a key: the place of the value it holds
            stack[-1][1] = json.loads(token)
            expect_key, placed = False, True
        elif not stack or not stack[-1][0]:   # an item of a list, or the record itself
            placed = True
        if placed:
            here = tuple(c[1] for c in stack)
            if here == pointer[:len(here)]:
                best = at
                if here == pointer:
                    return at
        if token in ("[", "{"):
            stack.append([token == "{", 0])
            expect_key = token == "{"
    return best


def line_column(text: str, offset: int) -> tuple[int, int]:
    """The 1-based line and column of an offset."""
    line = text.count("\n", 0, offset) + 1
    return line, offset - (text.rfind("\n", 0, offset) + 1) + 1


_DEEP = re.compile(r'"(?:[^"\\]|\\.)*"|[\[\]{}]', re.S)
_LONG_NUMBER = re.compile(r'"(?:[^"\\]|\\.)*"|-?\d{1000,}', re.S)
MAX_SHOWN_LINE = 300   # a longer line of a record is not shown under its diagnostic


def _first(pattern: re.Pattern, text: str, found) -> int:
    """The offset of the first match (outside JSON strings) that `found` accepts, else 0."""
    depth = 0
    for match in pattern.finditer(text):
        token = match.group()
        if token.startswith('"'):
            continue
        depth += 1 if token in ("[", "{") else -1 if token in ("]", "}") else 0
        if found(token, depth):
            return match.start()
    return 0


def read_text(path: str) -> str:
    """A record's text: a regular file only (a FIFO or a device would block or never end), at
    most MAX_RECORD_BYTES, UTF-8. Raises RecordProblem, with an offset in `.at` for bad bytes."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) |
                     getattr(os, "O_CLOEXEC", 0))
    except (OSError, ValueError) as error:   # (ValueError: a NUL in the path)
        reason = error.strerror if isinstance(error, OSError) and error.strerror else str(error)
        raise RecordProblem(f"cannot read {shown(path, 200)}: {reason}") from None
    mode = os.fstat(fd).st_mode
    if not stat.S_ISREG(mode):
        os.close(fd)
        what = "a folder" if stat.S_ISDIR(mode) else "not a regular file"
        raise RecordProblem(f"{shown(path, 200)} is {what}",
                            hint="a record is a file that `warband play -o FILE` wrote")
    with open(fd, "rb", closefd=True) as stream:
        try:
            raw = stream.read(MAX_RECORD_BYTES + 1)
        except OSError as error:
            raise RecordProblem(f"cannot read {shown(path, 200)}: {error.strerror}") from None
    if len(raw) > MAX_RECORD_BYTES:
        raise RecordProblem(f"{shown(path, 200)} is larger than a record may be "
                            f"({MAX_RECORD_BYTES:,} bytes)",
                            hint="a record of a long game is a few MB at most; this file is "
                                 "not one (limits.MAX_RECORD_BYTES)")
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        problem = RecordProblem("the record is not UTF-8 text", hint=_NOT_A_RECORD)
        problem.line = raw[:error.start].count(b"\n") + 1
        problem.column = error.start - (raw.rfind(b"\n", 0, error.start) + 1) + 1
        raise problem from None


def load_record(text: str) -> dict:
    """The record in `text`, every field checked (check_record); raises RecordProblem, with the
    line and column of the problem."""
    def unique(pairs):
        keys = [k for k, _ in pairs]
        if len(set(keys)) != len(keys):
            raise _Duplicate(next(k for k in keys if keys.count(k) > 1))
        return dict(pairs)

    try:
        record = json.loads(text, object_pairs_hook=unique)
    except json.JSONDecodeError as error:
        problem = RecordProblem(f"the record is not valid JSON: {error.msg}",
                                hint=_NOT_A_RECORD)
        problem.line, problem.column = error.lineno, error.colno
        raise problem from None
    except _Duplicate as duplicate:
        problem = RecordProblem(f"the key {shown(duplicate.key)} is given twice in one "
                                "mapping", hint="a record has each key once")
        problem.line, problem.column = line_column(text, _duplicate_at(text, duplicate.key))
        raise problem from None
    except RecursionError:
        problem = RecordProblem("the record is nested too deeply",
                                hint="a record nests lists and mappings four levels deep")
        problem.line, problem.column = line_column(
            text, _first(_DEEP, text, lambda token, depth: depth > 100))
        raise problem from None
    except ValueError:   # an integer of more than 4,300 digits (Python refuses to read it)
        problem = RecordProblem("the record holds a number too large to read",
                                hint=f"no number in a record is larger than {MAX_NUMBER:,}")
        problem.line, problem.column = line_column(
            text, _first(_LONG_NUMBER, text, lambda token, depth: token[-1].isdigit()))
        raise problem from None
    try:
        _whole_characters(record)
        check_record(record)
    except RecordProblem as problem:
        problem.line, problem.column = line_column(text, offset_of(text, problem.pointer))
        raise
    return record


class _Duplicate(Exception):
    def __init__(self, key: str) -> None:
        super().__init__(key)
        self.key = key


def _duplicate_at(text: str, key: str) -> int:
    """The second occurrence of `key` as a key in one mapping (the scan of offset_of)."""
    seen: list[set[str] | None] = []   # the keys met so far in each open mapping
    expect_key = False
    for match in _TOKEN.finditer(text):
        token = match.group()
        if token == ":":
            continue
        if token == ",":
            expect_key = seen[-1] is not None
            continue
        if token in ("]", "}"):
            seen.pop()
            continue
        keys = seen[-1] if seen else None
        if expect_key and keys is not None:
            name = json.loads(token)
            if name in keys:
                return match.start()
            keys.add(name)
            expect_key = False
            continue
        if token in ("[", "{"):
            seen.append(set() if token == "{" else None)
            expect_key = token == "{"
    return 0


class Record:
    """A record read from a file and checked: its data, its text and the file's name."""

    def __init__(self, path: str, text: str, data: dict) -> None:
        self.path, self.text, self.data = path, text, data

    def diagnostic(self, code: str, message: str, pointer: tuple, hint: str | None = None,
                   sources: Sources | None = None) -> Diagnostic:
        """A diagnostic about the value at `pointer`, placed at its line and column."""
        return at_place(code, message, self.path, self.text, pointer, None, hint, sources)


def at_place(code: str, message: str, path: str, text: str | None, pointer: tuple,
             place: tuple[int, int] | None, hint: str | None,
             sources: Sources | None) -> Diagnostic:
    """A diagnostic about a record: at `place` (line, column), else where `pointer` is in
    `text`, its path in the message; the text added to `sources` for the excerpt unless that
    line is too long to show or holds control characters."""
    if place is None and text is not None:
        place = line_column(text, offset_of(text, pointer))
    span = Span(path, *place) if place is not None else None
    if span is not None and text is not None and sources is not None:
        lines = text.split("\n")
        shown_line = lines[span.line - 1].replace("\t", " ") if span.line <= len(lines) else ""
        if len(shown_line) <= MAX_SHOWN_LINE and shown_line.rstrip("\r").isprintable():
            sources.add(path, text)   # (no line with control characters goes to a terminal)
    if pointer:
        message = f"{message} (at {pointer_text(pointer)})"
    return diag(code, message, span, hint=hint)


def read_record(path: str, sources: Sources | None = None) \
        -> tuple[Record | None, Diagnostic | None]:
    """A record written by `warband play -o`, every field checked, or the diagnostic (E916)
    why it cannot be replayed: at its line and column in the file where it has one (the text
    added to `sources`, for the excerpt)."""
    text = None
    try:
        text = read_text(path)
        return Record(path, text, load_record(text)), None
    except RecordProblem as problem:
        where = (problem.line, problem.column) if problem.line is not None else None
        return None, at_place("E916", problem.message, path, text, problem.pointer, where,
                              problem.hint, sources)


def plain(v):
    """A value as JSON holds it: a whole Fraction as an int, another as a float, a reference
    by its repr, the distance to nothing (run/evaluate.FAR) as "infinite"."""
    if infinite(v):
        return "infinite" if v > 0 else "-infinite"
    if isinstance(v, Fraction):
        return int(v) if v.denominator == 1 else float(v)
    if isinstance(v, Ref):
        return repr(v)
    return v


def as_json(value) -> str:
    """A value as a record writes it (keys sorted): equal values of different types differ."""
    return json.dumps(value, sort_keys=True, default=plain)


def first_difference(recorded: list, played: list) -> int | None:
    """The index of the first event where a replay differs from its record, or None. Events
    are compared as JSON writes them: `true` is not 1, nor 1 the text "1"."""
    for i, (a, b) in enumerate(zip(recorded, played)):
        if a != b or as_json(a) != as_json(b):
            return i
    if len(recorded) != len(played):
        return min(len(recorded), len(played))
    return None

