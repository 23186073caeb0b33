"""One Diagnostic type for every stage, and its renderers.

Every user error (a rules file, a warband file, a command line) becomes a Diagnostic. Stages
collect them and keep going; only renderers turn them into text. Positions are 1-based lines and
columns everywhere (Lark's convention); loaders that count from 0 convert once, on the way in.
"""

from __future__ import annotations

import bisect
import difflib
import functools
import json
import re
from dataclasses import dataclass, field
from enum import Enum
from typing import Callable, Iterable, Sequence

from warband.limits import (
    MAX_EXCERPT_BEFORE,
    MAX_EXCERPT_MARK,
    MAX_EXCERPT_WIDTH,
    MAX_SHOWN_PER_FILE,
    MAX_SHOWN_RELATED,
    MAX_SHOWN_TEXT,
    MAX_SUGGEST_CANDIDATES,
    MAX_SUGGEST_NAME,
)


class Severity(str, Enum):
    ERROR = "error"
    WARNING = "warning"
    NOTE = "note"


@dataclass(frozen=True, slots=True)
class Span:
    """A region of one source file: 1-based, end exclusive on the column."""

    file: str
    line: int
    column: int
    end_line: int = 0
    end_column: int = 0

    def __post_init__(self) -> None:
        if self.end_line < self.line:
            object.__setattr__(self, "end_line", self.line)
        if self.end_line == self.line and self.end_column <= self.column:
            object.__setattr__(self, "end_column", self.column + 1)

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.column}"

    # pickling (the compile cache holds a Span for every node): the five values, restored
    # without dataclasses' generic fields() lookup, once per span
    def __getstate__(self) -> tuple:
        return (self.file, self.line, self.column, self.end_line, self.end_column)

    def __setstate__(self, state: tuple) -> None:
        for name, value in zip(("file", "line", "column", "end_line", "end_column"), state):
            object.__setattr__(self, name, value)


@dataclass(frozen=True, slots=True)
class Related:
    """Another place that bears on a diagnostic, with what it says there."""

    span: Span
    message: str


# Every code the toolkit can emit, with its severity and a one-line meaning. Diagnostics are
# built only through `diag`, so a code that is not listed here cannot be emitted.
CODES: dict[str, tuple[Severity, str]] = {
    # rules files: reading and syntax
    "E100": (Severity.ERROR, "the file cannot be read"),
    "E101": (Severity.ERROR, "syntax error"),
    "E102": (Severity.ERROR, "unexpected character"),
    "E103": (Severity.ERROR, "unexpected end of file"),
    "E104": (Severity.ERROR, "malformed literal"),
    "E105": (Severity.ERROR, "missing ruleset header"),
    # names
    "E201": (Severity.ERROR, "unknown name"),
    "E202": (Severity.ERROR, "duplicate definition"),
    "E203": (Severity.ERROR, "unknown field"),
    "E204": (Severity.ERROR, "name of the wrong kind"),
    # arity and types
    "E301": (Severity.ERROR, "wrong number of arguments"),
    "E302": (Severity.ERROR, "type mismatch"),
    "E303": (Severity.ERROR, "a roll where a fixed number is needed"),
    "E304": (Severity.ERROR, "table row of the wrong width"),
    "E305": (Severity.ERROR, "invalid range or bound"),
    "E306": (Severity.ERROR, "invalid dice"),
    "E307": (Severity.ERROR, "unknown outcome"),
    "E308": (Severity.ERROR, "assignment to something that cannot change"),
    "E309": (Severity.ERROR, "missing result"),
    "E310": (Severity.ERROR, "a swap of a piece the class does not carry"),
    "E311": (Severity.ERROR, "a table marked for an unknown use"),
    # weapon profiles
    "E313": (Severity.ERROR, "a piece of equipment given a value that is no profile of it"),
    "E314": (Severity.ERROR, "a piece of equipment without a value its profile needs"),
    "E315": (Severity.ERROR, "a trait asked of a piece of equipment that it cannot carry"),
    # pieces as values
    "E316": (Severity.ERROR, "no such field or state on a piece"),
    # units of several models
    "E319": (Severity.ERROR, "a unit's models out of range"),
    "E320": (Severity.ERROR, "a model's wounds that are not a number"),
    "E321": (Severity.ERROR, "a unit's field or wounds with no unit class"),
    "E323": (Severity.ERROR, "an option for single models in a class that is not a unit"),
    "E324": (Severity.ERROR, "a unit's places written wrongly: coherency or casualties in a "
                             "class that is not a unit, a coherency not above 0, casualties "
                             "without a coherency"),
    # areas and templates, facing
    "E322": (Severity.ERROR, "an area or arc of impossible size"),
    # several values at once
    "E325": (Severity.ERROR,
             "a decision of several numbers: a name twice, or a default of the wrong count"),
    "E327": (Severity.ERROR, "'break' or 'continue' outside a loop"),
    # terrain with extent: a piece placed as an area that cannot be one
    "E336": (Severity.ERROR, "an area that cannot be placed"),
    "E326": (Severity.ERROR, "several values where their count does not match"),
    # events (run/events.py)
    "E328": (Severity.ERROR, "an event's trigger written wrongly"),
    "E329": (Severity.ERROR, "a side's part of its start out of range"),
    # zones the ruleset can name
    "E340": (Severity.ERROR, ("a zone the ruleset names by a role that the scenario does not "
                              "fill, or fills wrongly")),
    # campaigns (run/campaign.py)
    "E341": (Severity.ERROR, "a campaign statement (give, take, hire) outside an aftermath"),
    "E342": (Severity.ERROR, "'founding' on an army entry that is no limit"),
    "E343": (Severity.ERROR, "a side's stat named as a key of the warband file"),
    # structure
    "E401": (Severity.ERROR, "cycle of definitions"),
    "E402": (Severity.ERROR, "invalid decision"),
    "E403": (Severity.ERROR, "limit exceeded"),
    "E404": (Severity.ERROR, "unknown ruleset"),
    # house rules: layers on an `extends` base
    "E430": (Severity.ERROR, "already defined by the base"),
    "E431": (Severity.ERROR, "override of something the base does not have"),
    "E432": (Severity.ERROR, "override or remove of the wrong kind"),
    "E433": (Severity.ERROR, "remove of something the base does not have"),
    "E434": (Severity.ERROR, "override or remove without a base"),
    "E435": (Severity.ERROR, "base rules file not found"),
    "E436": (Severity.ERROR, "overridden or removed twice"),
    "E437": (Severity.ERROR, "army removal outside 'override army'"),
    "E438": (Severity.ERROR, "cycle of extends"),
    "E439": (Severity.ERROR, "too many layers of extends"),
    # evaluation
    "E501": (Severity.ERROR, "no table row matches"),
    "E502": (Severity.ERROR, "division by zero"),
    "E503": (Severity.ERROR, "procedure ended without a result"),
    "E504": (Severity.ERROR, "state space too large for exact odds"),
    "E505": (Severity.ERROR, "a value a rule cannot use"),
    "E506": (Severity.ERROR, "a game statement outside a game"),
    "E507": (Severity.ERROR, "no room on the board"),
    # back into play
    "E508": (Severity.ERROR, "a fighter brought back into play that is in play"),
    # pieces as values
    "E510": (Severity.ERROR, "a piece that is not there"),
    "E511": (Severity.ERROR, "wounds inflicted that are not a whole number from 0 up"),
    # areas and templates, facing
    "E512": (Severity.ERROR, "an area or arc of impossible size"),
    # several values at once
    "E513": (Severity.ERROR, "too many combinations for one decision of several numbers"),
    # decks and bags
    "E514": (Severity.ERROR, "a card that is not there to draw or discard"),
    # YAML warband files
    "E601": (Severity.ERROR, "YAML syntax error"),
    "E602": (Severity.ERROR, "tab used for indentation"),
    "E603": (Severity.ERROR, "duplicate key"),
    "E604": (Severity.ERROR, "file is not UTF-8 text"),
    "E605": (Severity.ERROR, "file has no data"),
    "E606": (Severity.ERROR, "top level is not a mapping"),
    "E607": (Severity.ERROR, "file too large"),
    "E608": (Severity.ERROR, "nesting too deep"),
    "E609": (Severity.ERROR, "alias expansion too large or recursive"),
    "E610": (Severity.ERROR, "number too large"),
    "E611": (Severity.ERROR, "invalid value for its type"),
    "E612": (Severity.ERROR, "YAML file could not be loaded"),
    "E613": (Severity.ERROR, "text or name too long"),
    # warband files: shape, as the ruleset's schema says
    "E620": (Severity.ERROR, "unknown key"),
    "E621": (Severity.ERROR, "missing key"),
    "E622": (Severity.ERROR, "value of the wrong type or form"),
    "E623": (Severity.ERROR, "value out of range"),
    "E624": (Severity.ERROR, "unknown class"),
    "E625": (Severity.ERROR, "unknown trait"),
    "E626": (Severity.ERROR, "unknown equipment"),
    "E627": (Severity.ERROR, "value not one of the stat's values"),
    "E628": (Severity.ERROR, "missing stat"),
    "E629": (Severity.ERROR, "the warband's ruleset has errors"),
    "E630": (Severity.ERROR, "a value given for a stat the rules work out"),
    "E631": (Severity.ERROR, "a value given for a stat the class fixes"),
    "E632": (Severity.ERROR, "equipment the class may not take"),
    "E633": (Severity.ERROR, "more equipment than an option allows"),
    # warband files: units of several models
    "E634": (Severity.ERROR, "models outside the class's bounds"),
    "E635": (Severity.ERROR, "models given for a class that is not a unit"),
    "E636": (Severity.ERROR, "a special model's piece the class does not offer"),
    "E637": (Severity.ERROR, "more special models than the class or the unit allows"),
    # warband files: army-construction rules
    "E701": (Severity.ERROR, "a cost over its limit"),
    "E702": (Severity.ERROR, "wrong number of fighters"),
    "E703": (Severity.ERROR, "quota not met"),
    "E704": (Severity.ERROR, "cost cannot be worked out"),
    "E705": (Severity.ERROR, "group of the wrong size"),
    "E706": (Severity.ERROR, "an army rule of the ruleset is broken"),
    "E707": (Severity.ERROR, "an army rule cannot be worked out"),
    # warband fmt and convert: files
    "E640": (Severity.ERROR, "file cannot be formatted"),
    "E641": (Severity.ERROR, "formatting would change the data"),
    "E642": (Severity.ERROR, "output file exists or cannot be written"),
    "E643": (Severity.ERROR, "options that cannot be used together for a picture of a game"),
    "E644": (Severity.ERROR, "the game has no such round to draw"),
    "E645": (Severity.ERROR, "output options that do not go together"),
    "E646": (Severity.ERROR, "a game too long to record or draw"),
    # warband roster --template
    "E660": (Severity.ERROR, "template file cannot be used"),
    "E661": (Severity.ERROR, "template error"),
    # conversions between rulesets
    "E800": (Severity.ERROR, "unknown ruleset in a conversion"),
    "E801": (Severity.ERROR, "a ruleset of a conversion has errors"),
    "E802": (Severity.ERROR, "unknown class in a conversion"),
    "E803": (Severity.ERROR, "unknown stat in a conversion"),
    "E804": (Severity.ERROR, "unknown trait in a conversion"),
    "E805": (Severity.ERROR, "unknown equipment in a conversion"),
    "E806": (Severity.ERROR, "conversion rule given twice"),
    "E807": (Severity.ERROR, "conversion does not give a needed stat"),
    "E808": (Severity.ERROR, "conversion's class rules incomplete"),
    "E809": (Severity.ERROR, "converted trait value missing or not allowed"),
    "E810": (Severity.ERROR, "'fit' cannot apply"),
    "E812": (Severity.ERROR, "a converted value cannot be used"),
    "E813": (Severity.ERROR, "no conversion between the rulesets"),
    "E814": (Severity.ERROR, "the warband to convert has errors"),
    # command line
    "E901": (Severity.ERROR, "invalid command-line value"),
    "E902": (Severity.ERROR, "unknown action"),
    "E903": (Severity.ERROR, "action not allowed for these fighters"),
    # warband simulate
    "E910": (Severity.ERROR, "invalid simulation option"),
    "E911": (Severity.ERROR, "invalid policy assignment"),
    "E912": (Severity.ERROR, "game engine not available"),
    "E913": (Severity.ERROR, "scheduler cannot be used"),
    "E914": (Severity.ERROR, "a game failed"),
    "E915": (Severity.ERROR, "a worker stopped"),
    "E916": (Severity.ERROR, "not a game record"),
    "E917": (Severity.ERROR, "a replay that no longer fits the rules"),
    "E920": (Severity.ERROR, "a warband the game cannot update"),
    # warband build
    "E930": (Severity.ERROR, "the list builder cannot start"),
    # warband balance
    "E940": (Severity.ERROR, "a duel too large to solve exactly"),
    "E941": (Severity.ERROR, "no legal random warband could be made"),
    "E942": (Severity.ERROR, "nothing to weigh"),
    # warnings
    "W101": (Severity.WARNING, "unused definition"),
    "W102": (Severity.WARNING, "unreachable table row"),
    "W103": (Severity.WARNING, "a quota's share that no warband can have"),
    "W104": (Severity.WARNING, "a table without a row for some of its keys"),
    "W701": (Severity.WARNING, "fighters share a name"),
    "W901": (Severity.WARNING, "a game that does not end on its own"),
    "W902": (Severity.WARNING, "a side with no legal action"),
    "W903": (Severity.WARNING, "an objective no game scored"),
    "W800": (Severity.WARNING, "dropped by the conversion"),
    "W801": (Severity.WARNING, "dropped: no counterpart in the target ruleset"),
    "W802": (Severity.WARNING, "approximated by the conversion"),
    "W803": (Severity.WARNING, "converted value kept inside the stat's range"),
    "W804": (Severity.WARNING, "converted stats scaled to fit the points limit"),
    "W805": (Severity.WARNING, "house rules the conversion does not cover"),
}


@dataclass(frozen=True, slots=True)
class Diagnostic:
    """One finding of any stage: code, severity, message, place, hint and related places."""

    code: str
    severity: Severity
    message: str
    span: Span | None = None
    hint: str | None = None
    related: tuple[Related, ...] = ()
    path: tuple[str | int, ...] = ()  # location inside structured data (YAML keys, indices)

    @property
    def is_error(self) -> bool:
        return self.severity is Severity.ERROR

    def sort_key(self) -> tuple:
        s = self.span
        return (s.file, s.line, s.column, self.code) if s else ("", 0, 0, self.code)

    def to_json(self) -> dict:
        out: dict = {
            "code": self.code,
            "severity": self.severity.value,
            "message": self.message,
        }
        if self.span:
            out.update(
                file=self.span.file,
                line=self.span.line,
                column=self.span.column,
                end_line=self.span.end_line,
                end_column=self.span.end_column,
            )
        if self.hint:
            out["hint"] = self.hint
        if self.related:
            out["related"] = [
                {"file": r.span.file, "line": r.span.line, "column": r.span.column,
                 "message": r.message}
                for r in self.related
            ]
        if self.path:
            out["path"] = list(self.path)
        return out


def diag(
    code: str,
    message: str,
    span: Span | None = None,
    *,
    hint: str | None = None,
    related: Iterable[Related] = (),
    path: Sequence[str | int] = (),
) -> Diagnostic:
    """The one place a Diagnostic is made: the severity comes from the code table."""
    severity = CODES[code][0]
    return Diagnostic(code, severity, message, span, hint, tuple(related), tuple(path))


def did_you_mean(name: str, candidates: Iterable[str]) -> str | None:
    """A hint naming the closest candidate, or None when nothing is close.

    The work is bounded whatever the number of candidates: difflib compares the name closely
    with at most MAX_SUGGEST_CANDIDATES of them, picked cheaply from an index kept per set of
    candidates (see _SuggestionIndex). Comparing every pair made a rules file with thousands of
    unknown names among thousands of declared ones take minutes."""
    if len(name) > MAX_SUGGEST_NAME:
        return None
    index = _suggestion_index(tuple(candidates))
    exact = index.lowered.get(name.lower())
    if exact is not None and exact != name:
        return f"did you mean '{exact}'?"
    pool = index.nearest(name)
    close = difflib.get_close_matches(name, pool, n=1, cutoff=0.6)
    if not close:
        lowered = {c.lower(): c for c in pool}
        close = [lowered[m] for m in difflib.get_close_matches(name.lower(), list(lowered), n=1,
                                                                  cutoff=0.6)]
    return f"did you mean '{close[0]}'?" if close else None


# Neighbours taken on each side of where a name would sort, by its start and by its end, in each
# length looked at: a slip of the pen leaves one end of a name as it was.
_NEIGHBOURS = 4


class _SuggestionIndex:
    """The candidates of a did-you-mean by length, each length sorted by the lower-cased names
    read forwards and read backwards, so that the names most like one (nearly its length,
    sharing its start or its end) are found by bisection, not by comparing all of them."""

    def __init__(self, candidates: Iterable[str]) -> None:
        self.pool = sorted(set(candidates))
        self.lowered = {c.lower(): c for c in self.pool}   # lower-cased -> the last so spelt
        self.forwards: dict[int, list[tuple[str, str]]] = {}
        self.backwards: dict[int, list[tuple[str, str]]] = {}
        for c in self.pool:
            self.forwards.setdefault(len(c), []).append((c.lower(), c))
            self.backwards.setdefault(len(c), []).append((c.lower()[::-1], c))
        for table in (self.forwards, self.backwards):
            for names in table.values():
                names.sort()

    def nearest(self, name: str) -> list[str]:
        """At most MAX_SUGGEST_CANDIDATES names that could be close to `name`: all of them when
        there are no more; otherwise the neighbours of `name` in the lengths nearest its own."""
        if len(self.pool) <= MAX_SUGGEST_CANDIDATES:
            return self.pool
        key, length = name.lower(), len(name)
        chosen: dict[str, None] = {}   # an ordered set: the nearest lengths first
        # difflib's ratio is at most 2*min/(a+b): lengths beyond these cannot reach 0.6
        sizes = [n for n in self.forwards if 3 * (n + length) <= 10 * min(n, length)]
        for size in sorted(sizes, key=lambda n: (abs(n - length), n)):
            for names, probe in ((self.forwards[size], key), (self.backwards[size], key[::-1])):
                if len(names) <= 4 * _NEIGHBOURS:
                    chosen.update((c, None) for _, c in names)
                    continue
                at = bisect.bisect_left(names, (probe, ""))
                chosen.update((c, None) for _, c in
                              names[max(0, at - _NEIGHBOURS):at + _NEIGHBOURS])
            if len(chosen) >= MAX_SUGGEST_CANDIDATES:
                break
        return list(chosen)[:MAX_SUGGEST_CANDIDATES]


@functools.lru_cache(maxsize=32)
def _suggestion_index(candidates: tuple[str, ...]) -> _SuggestionIndex:
    return _SuggestionIndex(candidates)


@dataclass
class Sources:
    """The texts diagnostics point into, by the file name they carry."""

    texts: dict[str, str] = field(default_factory=dict)
    # each text split into lines once, not once per excerpt (a 2 MB file has many mistakes)
    split: dict[str, tuple[str, list[str]]] = field(default_factory=dict, repr=False,
                                                      compare=False)

    def add(self, name: str, text: str) -> None:
        self.texts[name] = text

    def line(self, name: str, line: int) -> str | None:
        text = self.texts.get(name)
        if text is None:
            return None
        cached = self.split.get(name)
        if cached is None or cached[0] is not text:
            # not splitlines(): U+2028 and friends do not end a line
            cached = self.split[name] = (text, text.split("\n"))
        lines = cached[1]
        return lines[line - 1] if 0 < line <= len(lines) else None


# ---- text from files, shown on a terminal ---------------------------------------------------------
#
# A name in a file from a stranger may hold control characters: an escape sequence can erase the
# lines above and print a fake "0 errors", and a bidi override can make a line read otherwise
# than it is. Every piece of file text a renderer writes for people goes through `printable`.

def _escape(code: int) -> str:
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


_UNPRINTABLE = (
    [c for c in range(0x20) if c != 0x09]   # C0 controls, but a tab (\n: see `printable`)
    + list(range(0x7F, 0xA0))                # DEL, C1 controls (U+009B is a CSI of its own)
    + [0x061C, 0x200E, 0x200F]               # bidi marks
    + list(range(0x202A, 0x202F))            # bidi embeddings and overrides
    + list(range(0x2066, 0x206A))            # bidi isolates
    + [0x2028, 0x2029]                       # line and paragraph separators
    + list(range(0xD800, 0xE000))            # halves of characters (lone surrogates), which
    #                                          no terminal or UTF-8 file can hold
)
UNPRINTABLE = frozenset(_UNPRINTABLE)   # (what `printable` escapes: page.py's JSON too)
_PRINTABLE = {code: _escape(code) for code in _UNPRINTABLE}
_PRINTABLE_LINES = {code: text for code, text in _PRINTABLE.items() if code != 0x0A}


# ---- text from files: whole characters ----------------------------------------------------------
#
# An escape in a file can stand for half a character: `"\uD800"` in YAML, a JSON record or a
# rules string is a lone surrogate, which no UTF-8 file and no terminal can hold (writing it
# raised UnicodeEncodeError in the middle of a report). Where text from files enters (the YAML
# loader, the rules parser, the records' reader), the two halves of a pair are joined into their
# character, and a half left alone is refused there, at its place; `printable` shows any that
# another way brings in (a path on the command line) as its escape.

_SURROGATE = re.compile("[\ud800-\udfff]")


def whole_characters(text: str) -> str:
    """`text` with each pair of surrogates (a high then a low half, as escapes write a character
    beyond U+FFFF in UTF-16) joined into its character; lone halves are left as they are."""
    if not _SURROGATE.search(text):
        return text
    return re.sub("[\ud800-\udbff][\udc00-\udfff]",
                  lambda m: chr(0x10000 + ((ord(m[0][0]) - 0xD800) << 10)
                                + (ord(m[0][1]) - 0xDC00)), text)


def lone_surrogate(text: str) -> int | None:
    """The index of the first half of a character in `text` (after whole_characters), or None."""
    found = _SURROGATE.search(text)
    return found.start() if found else None


def printable(text: str, *, lines: bool = False) -> str:
    """`text` with every character that could move the cursor, change colours or reorder what a
    terminal shows written as a visible escape (`\\x1b`, `\\u202e`). With `lines`, newlines
    are kept (a multi-line text the renderer writes as lines)."""
    return text.translate(_PRINTABLE_LINES if lines else _PRINTABLE)


def shown_text(text: str) -> str:
    """A message, hint or note as a report for people shows it: printable, and cut after
    MAX_SHOWN_TEXT characters (a name can be as long as its file)."""
    if len(text) > MAX_SHOWN_TEXT:
        text = text[:MAX_SHOWN_TEXT] + f"… ({len(text) - MAX_SHOWN_TEXT:,} more characters)"
    return printable(text)


# ---- colour, as rustc and ruff colour their diagnostics -----------------------------------------
#
# Only when asked (render_text's `colour`, which the command line sets from warband.terminal:
# a terminal, not NO_COLOR, or FORCE_COLOR); the escapes go around text already made printable.

_BOLD, _RESET = "\x1b[1m", "\x1b[0m"
_SEVERITY_STYLE = {Severity.ERROR: "\x1b[1;31m", Severity.WARNING: "\x1b[1;33m",
                   Severity.NOTE: "\x1b[1;36m"}
_GUTTER_STYLE = "\x1b[1;34m"   # line numbers, bars, arrows
_HINT_STYLE = "\x1b[1;36m"


class _Paint:
    """Wraps text in the escapes of a style, or leaves it alone (no colour)."""

    def __init__(self, on: bool) -> None:
        self.on = on

    def __call__(self, style: str, text: str) -> str:
        return f"{style}{text}{_RESET}" if self.on and text else text


def _excerpt(span: Span, sources: Sources, label: str = "", paint: _Paint = _Paint(False),
             mark: str = _SEVERITY_STYLE[Severity.ERROR]) -> list[str]:
    """The source line and a caret line under the span. A line longer than MAX_EXCERPT_WIDTH is
    cut around the span ("…" where cut), the span itself to MAX_EXCERPT_MARK; control
    characters are escaped, and the carets stand under the escaped text."""
    source_line = sources.line(span.file, span.line)
    if source_line is None:
        return []
    source_line = source_line.replace("\t", " ")
    start = min(span.column - 1, len(source_line))
    end = span.end_column - 1 if span.end_line == span.line else len(source_line)
    end = max(start + 1, min(end, len(source_line)))
    cut = min(end, start + MAX_EXCERPT_MARK)
    if len(source_line) <= MAX_EXCERPT_WIDTH:
        low, high = 0, len(source_line)
    else:   # the window holds the underlined part: MAX_EXCERPT_BEFORE + MAX_EXCERPT_MARK fit
        low = max(0, start - MAX_EXCERPT_BEFORE)
        high = min(len(source_line), max(low + MAX_EXCERPT_WIDTH, cut))
    before = ("…" if low > 0 else "") + printable(source_line[low:start])
    marked = printable(source_line[start:cut])
    if cut < end:   # the span goes on beyond what is underlined
        after = "…"
    else:
        after = printable(source_line[cut:high]) + ("…" if high < len(source_line) else "")
    width = len(str(span.line))
    gutter = " " * width
    carets = "^" * max(1, len(marked))
    bar = paint(_GUTTER_STYLE, f" {gutter} |")
    return [
        bar,
        f"{paint(_GUTTER_STYLE, f' {span.line} |')} {before}{marked}{after}",
        f"{bar} {' ' * len(before)}{paint(mark, carets + ((' ' + label) if label else ''))}",
    ]


def render_text(diagnostics: Iterable[Diagnostic], sources: Sources, *,
                colour: bool = False) -> str:
    """Compiler-style text: location, severity[code], message, excerpt with caret, hint; with
    `colour`, coloured as rustc colours its own (the severity and the carets red or yellow, the
    place and the message bold, the gutter blue).

    At most MAX_SHOWN_PER_FILE diagnostics are shown for one file, and MAX_SHOWN_RELATED related
    places for one diagnostic; the rest are counted ("... and 12 more in FILE"), so a file with
    thousands of mistakes gives a report that can be read."""
    paint = _Paint(colour)
    blocks = []
    for d in shown(diagnostics, lambda file, more: f"... and {more:,} more in {file}"):
        if isinstance(d, str):
            blocks.append(printable(d))
            continue
        style = _SEVERITY_STYLE[d.severity]
        where = paint(_BOLD, f"{printable(str(d.span))}:") + " " if d.span else ""
        lines = [f"{where}{paint(style, f'{d.severity.value}[{d.code}]')}"
                 f"{paint(_BOLD, ': ' + shown_text(d.message))}"]
        if d.span:
            lines += _excerpt(d.span, sources, paint=paint, mark=style)
        for r in d.related[:MAX_SHOWN_RELATED]:
            lines.append(f"  {paint(_GUTTER_STYLE, '-->')} {paint(_BOLD, printable(str(r.span)))}"
                         f": {shown_text(r.message)}")
            lines += _excerpt(r.span, sources, paint=paint, mark=_GUTTER_STYLE)
        if len(d.related) > MAX_SHOWN_RELATED:
            lines.append(f"  --> ... and {len(d.related) - MAX_SHOWN_RELATED:,} more places")
        if d.hint:
            lines.append(f"  {paint(_HINT_STYLE, '= hint:')} {shown_text(d.hint)}")
        blocks.append("\n".join(lines))
    return "\n".join(blocks) + ("\n" if blocks else "")


def shown(diagnostics: Iterable[Diagnostic], more: Callable[[str, int], str],
          ) -> list[Diagnostic | str]:
    """The diagnostics a report for people shows: at most MAX_SHOWN_PER_FILE per file (those
    without a place count as one file, ""), then, for each file with more, `more(file, count)`
    (a line for the renderer to write)."""
    out: list[Diagnostic | str] = []
    counts: dict[str, int] = {}
    for d in diagnostics:
        file = d.span.file if d.span else ""
        counts[file] = counts.get(file, 0) + 1
        if counts[file] <= MAX_SHOWN_PER_FILE:
            out.append(d)
    out += [more(file or "files without a place", n - MAX_SHOWN_PER_FILE)
            for file, n in counts.items() if n > MAX_SHOWN_PER_FILE]
    return out


def render_json(diagnostics: Iterable[Diagnostic]) -> str:
    return json.dumps([d.to_json() for d in diagnostics], indent=2)


def summary(diagnostics: Sequence[Diagnostic]) -> str:
    errors = sum(d.severity is Severity.ERROR for d in diagnostics)
    warnings = sum(d.severity is Severity.WARNING for d in diagnostics)

    def plural(n: int, word: str) -> str:
        return f"{n} {word}{'' if n == 1 else 's'}"

    return f"{plural(errors, 'error')}, {plural(warnings, 'warning')}"
