"""Completion in a rules file: the words the grammar accepts where the cursor is, and the names.

Which keywords may come next is the grammar's to say, not a list's: the text from the start of
the declaration the cursor is in up to the word being typed is fed to the LALR parser
(dsl/warband.lark, Lark's interactive parser), which answers with the tokens it would accept
there. Where a name may come, the names in scope are offered: the file's (and its bases')
declarations, and the parameters and locals of the rule the cursor is in. After `f.`, the fields
of what `f` is (a fighter's stats, traits, flags and counters; a side's; a weapon's values),
as the checker typed it.

Text being typed rarely compiles. To see the rule around the cursor as the compiler does, the word
being typed is replaced by a placeholder name and the text compiled again: `return f.` becomes
`return f.__complete__`, which reads. Where even that does not read, the last analysis of the
document that did is asked instead.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import cast

from lark.exceptions import LarkError
from lark.lexer import PatternStr
from lsprotocol import types

from warband import catalog
from warband.lang import nodes
from warband.lang.checker import check
from warband.lang.game_checker import PIECE_BUILTINS
from warband.lang.grammar import DECLARATION_KEYWORDS, STATEMENT_KEYWORDS, grammar
from warband.lang.symbols import (
    AGGREGATES,
    BUILTIN_FUNCTIONS,
    BUILTIN_GROUPS,
    BUILTIN_TYPES,
    GAME_FUNCTIONS,
    KIND_WORDS,
    VALUE_KINDS,
)
from warband.lang.typesystem import FIGHTER_BUILTINS, SIDE_BUILTINS, Type
from warband.lang.units import UNIT_FIELD_WORDS
from warband.lsp.analysis import RulesAnalysis, analyse
from warband.lsp.index import Declared

PLACEHOLDER = "__complete__"
_WORD = re.compile(r"[A-Za-z_][A-Za-z_0-9]*\Z")
_DECLARATION_START = re.compile(r"^(?:" + "|".join(DECLARATION_KEYWORDS) + r")\b", re.MULTILINE)
_EXTENDS = re.compile(r'^[ \t]*extends\s+"([^"\n]*)\Z', re.MULTILINE)

# what a name after these words is most likely to be: offered first
_PREFERRED = {"traits": ("trait",), "grants": ("trait",), "has": ("trait", "equipment", "flag"),
              "tier": ("tier",), "equipment": ("equipment",), "take": ("equipment",),
              "swap": ("equipment",), "class": ("class",), "is": ("class", "tier", "enum member"),
              "using": ("action",), "place": ("marker",), "activate": ("parameter", "local"),
              ":": ("enum", "outcomes", "marker", "builtin type"),
              "->": ("enum", "outcomes", "builtin type")}
_ITEM_KINDS = {
    "stat": types.CompletionItemKind.Property, "profile": types.CompletionItemKind.Property,
    "flag": types.CompletionItemKind.Property, "counter": types.CompletionItemKind.Property,
    "trait": types.CompletionItemKind.Interface, "class": types.CompletionItemKind.Class,
    "tier": types.CompletionItemKind.TypeParameter, "enum": types.CompletionItemKind.Enum,
    "enum member": types.CompletionItemKind.EnumMember,
    "outcomes": types.CompletionItemKind.Enum, "outcome": types.CompletionItemKind.EnumMember,
    "equipment": types.CompletionItemKind.Struct, "table": types.CompletionItemKind.Function,
    "define": types.CompletionItemKind.Function, "procedure": types.CompletionItemKind.Function,
    "action": types.CompletionItemKind.Method, "phase": types.CompletionItemKind.Method,
    "marker": types.CompletionItemKind.Struct, "scenario": types.CompletionItemKind.Module,
    "side name": types.CompletionItemKind.Constant, "zone": types.CompletionItemKind.Constant,
    "parameter": types.CompletionItemKind.Variable, "local": types.CompletionItemKind.Variable,
    "decision": types.CompletionItemKind.Variable, "cost": types.CompletionItemKind.Function,
}


def keywords() -> dict[str, str]:
    """The grammar's terminals that are words, by terminal name (SET -> set)."""
    return {t.name: t.pattern.value for t in grammar().terminals
            if isinstance(t.pattern, PatternStr) and t.pattern.value.isalpha()}


def expected(text: str) -> set[str] | None:
    """The terminals the grammar accepts after `text` (the text up to the word being typed),
    or None when the text before it cannot be read (a mistake earlier in the declaration)."""
    starts = [m.start() for m in _DECLARATION_START.finditer(text)]
    for begin in reversed(starts[-2:]):   # the declaration the cursor is in, or the one before
        piece = text[begin:]
        start = "start" if piece.startswith("ruleset") else "items"
        try:
            parser = grammar().parse_interactive(piece, start=start)
            parser.exhaust_lexer()
            return set(parser.accepts())
        except LarkError:
            continue
    if not starts:
        try:
            parser = grammar().parse_interactive(text, start="start")
            parser.exhaust_lexer()
            return set(parser.accepts())
        except LarkError:
            return None
    return None


@dataclass
class Context:
    """Where the cursor is, in words."""

    word_start: int         # offset of the word being typed
    offset: int             # the cursor's offset
    after_dot: bool         # the word follows `.`: a field
    previous: str           # the word or symbol before the word being typed
    in_text: bool           # inside a string or a comment: nothing to complete but ids


def context(text: str, offset: int) -> Context:
    line_start = text.rfind("\n", 0, offset) + 1
    word = _WORD.search(text, line_start, offset)
    word_start = word.start() if word else offset
    before = text[line_start:word_start]
    in_text = _in_string_or_comment(before)
    stripped = text[:word_start].rstrip()
    after_dot = stripped.endswith(".") and not stripped.endswith("..")
    previous = re.search(r"(->|[A-Za-z_]\w*|\S)\s*\Z", text[:word_start])
    return Context(word_start, offset, after_dot, previous.group(1) if previous else "",
                   in_text)


def _in_string_or_comment(line: str) -> bool:
    quoted = False
    i = 0
    while i < len(line):
        c = line[i]
        if quoted and c == "\\":
            i += 2
            continue
        if c == '"':
            quoted = not quoted
        elif c == "#" and not quoted:
            return True
        i += 1
    return quoted


def complete(analysis: RulesAnalysis, position: types.Position,
             last_clean: RulesAnalysis | None) -> types.CompletionList:
    text = analysis.text
    offset = analysis.lines.offset_at(position)
    where = context(text, offset)
    extends = _EXTENDS.search(text, text.rfind("\n", 0, offset) + 1, offset)
    if extends is not None:   # extends "sm|: the shipped rulesets
        return types.CompletionList(False, [
            types.CompletionItem(s.id, kind=types.CompletionItemKind.Module, detail=s.title)
            for s in catalog.rulesets()])
    if where.in_text:
        return types.CompletionList(False, [])
    accepted = expected(text[:where.word_start])
    items: list[types.CompletionItem] = []
    if where.after_dot or accepted is None or "NAME" in accepted:
        seen = Seen(analysis, where, last_clean)
        items += _fields(seen) if where.after_dot else _names(seen)
    if where.after_dot:
        return types.CompletionList(False, items)
    if accepted is None:   # unreadable before the cursor: what may start a line there
        at_line_start = not text[text.rfind("\n", 0, where.word_start) + 1:where.word_start]
        kw = sorted(set(DECLARATION_KEYWORDS if at_line_start else STATEMENT_KEYWORDS))
    else:
        words = keywords()
        kw = sorted({words[t] for t in accepted if t in words})
    items += [types.CompletionItem(k, kind=types.CompletionItemKind.Keyword, sort_text=f"3{k}")
              for k in kw]
    return types.CompletionList(False, items)


# ---- names ---------------------------------------------------------------------------------------

def replaced(analysis: RulesAnalysis, start: int, end: int, text: str) -> RulesAnalysis:
    """The document with the text between two offsets replaced, compiled."""
    whole = analysis.text
    return analyse(whole[:start] + text + whole[end:], analysis.uri, analysis.path, None,
                   analysis.lines.encoding)


def placeholder_analysis(analysis: RulesAnalysis, where: Context,
                         shape: str = "{}") -> RulesAnalysis:
    """The document with the word being typed replaced by a placeholder name (written in
    `shape`: `{}()` makes it a call), compiled."""
    end = where.offset
    text = analysis.text
    while end < len(text) and (text[end].isalnum() or text[end] == "_"):
        end += 1
    return replaced(analysis, where.word_start, end, shape.format(PLACEHOLDER))


def _line_column(text: str, offset: int) -> tuple[int, int]:
    return text.count("\n", 0, offset) + 1, offset - (text.rfind("\n", 0, offset) + 1) + 1


class Seen:
    """What completion at one place sees: the document, the document with a placeholder where
    the word is being typed (compiled once, when first asked), the last analysis that read."""

    def __init__(self, analysis: RulesAnalysis, where: Context,
                 last_clean: RulesAnalysis | None) -> None:
        self.analysis, self.where, self.last_clean = analysis, where, last_clean
        self._trial: RulesAnalysis | None = None

    @property
    def trial(self) -> RulesAnalysis:
        """The document with the placeholder; where a name alone cannot stand (a statement
        starts there), the placeholder as a call."""
        if self._trial is None:
            self._trial = placeholder_analysis(self.analysis, self.where)
            if not self.where.after_dot and not self.read():   # (a field is never a call)
                self._trial = placeholder_analysis(self.analysis, self.where, "{}()")
        return self._trial

    def read(self) -> bool:
        """Whether the placeholder was read: the rule around the cursor with it."""
        module = self.trial.stages.module
        return module is not None and any(
            True for decl in module.decls if decl.span.file == self.trial.name
            for _ in _found(decl, lambda n: getattr(n, "name", None) == PLACEHOLDER))

    def locals(self) -> list[Declared]:
        """The parameters and locals in scope at the cursor: as the placeholder's rule has them;
        else as the text without the line being typed has them (the rest of the rule may read);
        else as the last analysis that read had them."""
        line, column = _line_column(self.analysis.text, self.where.word_start + 1)
        if self.read():
            return self.trial.index.locals_at(self.trial.name, line, column)
        start = self.analysis.text.rfind("\n", 0, self.where.word_start) + 1
        end = self.analysis.text.find("\n", self.where.word_start)
        end = len(self.analysis.text) if end < 0 else end
        without = replaced(self.analysis, start, end, " " * (end - start))
        found = without.index.locals_at(without.name, line, column)
        if found or self.last_clean is None:
            return found
        return self.last_clean.index.locals_at(self.last_clean.name, line, column)

    def globals(self) -> list[Declared]:
        """The declarations of the document and its bases; those of the last analysis that
        read, for what the current text has lost to a mistake."""
        out = [d for d in self.analysis.index.declarations
               if d.visible is None and d.kind != "option"]
        if self.last_clean is not None and self.last_clean is not self.analysis:
            have = {d.name for d in out}
            out += [d for d in self.last_clean.index.declarations
                    if d.visible is None and d.kind != "option" and d.name not in have]
        return out

    def field_node(self) -> nodes.Field | None:
        module = self.trial.stages.module
        if module is None:
            return None
        found = (f for decl in module.decls if decl.span.file == self.trial.name
                 for f in _found(decl, lambda n: isinstance(n, nodes.Field)
                                 and n.field.name == PLACEHOLDER))
        return cast("nodes.Field | None", next(found, None))


def _names(seen: Seen) -> list[types.CompletionItem]:
    preferred = _PREFERRED.get(seen.where.previous, ())
    items = []
    names: set[str] = set()
    for d in list(reversed(seen.locals())) + seen.globals():
        if d.name in names or d.name == PLACEHOLDER:
            continue
        names.add(d.name)
        items.append(_item(seen.analysis, d, preferred))
    for name, what in _builtin_names(seen.where.previous):
        if name not in names:
            a_type = what.startswith("a type")
            rank = "1" if a_type and "builtin type" in preferred else "2"
            items.append(types.CompletionItem(
                name, kind=types.CompletionItemKind.Keyword if a_type else
                types.CompletionItemKind.Function, detail=what, sort_text=f"{rank}{name}"))
    return items


def _builtin_names(previous: str) -> list[tuple[str, str]]:
    if previous in (":", "->"):
        return [(t, "a type of the language") for t in BUILTIN_TYPES + VALUE_KINDS]
    out = [(f, "a function of the language") for f in BUILTIN_FUNCTIONS]
    out += [(f, "a question the board answers") for f in GAME_FUNCTIONS]
    out += [(f, "a total, highest, lowest or all of a group") for f in AGGREGATES]
    out += [(g, "a group of the language") for g in BUILTIN_GROUPS]
    return out


def _item(analysis: RulesAnalysis, d: Declared, preferred: Iterable[str],
          ) -> types.CompletionItem:
    detail = KIND_WORDS.get(d.kind, d.kind) + (f": {d.type}" if d.type else "")
    if d.span.file != analysis.name:
        detail += f" ({d.span.file})"
    doc = getattr(d.node, "doc", None) if d.kind not in ("parameter", "local") else None
    rank = "0" if d.visible is not None else "1" if d.kind in preferred else "2"
    return types.CompletionItem(
        d.name, kind=_ITEM_KINDS.get(d.kind, types.CompletionItemKind.Text), detail=detail,
        documentation=types.MarkupContent(types.MarkupKind.PlainText, doc)
        if isinstance(doc, str) and doc else None,
        sort_text=f"{rank}{d.name}")


# ---- fields after a dot ------------------------------------------------------------------------

def _fields(seen: Seen) -> list[types.CompletionItem]:
    subject = _subject_type(seen)
    out: list[tuple[str, str, str | None, str]] = []   # name, what, doc, kind
    kinds = {subject.kind} if subject is not None and subject.kind != "any" else \
        {"fighter", "side"}
    if "fighter" in kinds:
        out += [(n, f"a fighter's: {t}", None, "builtin") for n, t in FIGHTER_BUILTINS.items()]
        out += [(n, f"a unit's: {w}", None, "builtin") for n, w in UNIT_FIELD_WORDS.items()]
    if "side" in kinds:
        out += [(n, f"a side's: {t}", None, "builtin") for n, t in SIDE_BUILTINS.items()]
    if "piece" in kinds:
        out += [(n, f"a piece's: {t}", None, "builtin") for n, t in PIECE_BUILTINS.items()]
    if "record" in kinds and subject is not None:
        out += [(n, "a column", None, "builtin") for n in subject.fields]
    for d in seen.globals():
        owner = getattr(d.node, "owner", None)
        on_piece = "piece" in kinds and owner not in ("fighter", "side") and \
            (subject is None or subject.name in (None, owner))
        if d.kind in ("stat", "trait") and "fighter" in kinds or \
                d.kind == "profile" and "equipment" in kinds or \
                d.kind in ("flag", "counter") and (owner in kinds or on_piece):
            what = KIND_WORDS.get(d.kind, d.kind) + (f" on {owner}" if owner else "")
            out.append((d.name, what, getattr(d.node, "doc", None), d.kind))
    items = []
    names = set()
    for name, what, doc, kind in out:
        if name in names:
            continue
        names.add(name)
        items.append(types.CompletionItem(
            name, kind=types.CompletionItemKind.Field if kind == "builtin" else
            _ITEM_KINDS.get(kind, types.CompletionItemKind.Field), detail=what,
            documentation=types.MarkupContent(types.MarkupKind.PlainText, doc) if doc else None,
            sort_text=f"{'1' if kind == 'builtin' else '0'}{name}"))
    return items


def _subject_type(seen: Seen) -> Type | None:
    """What the expression before the dot is, as the checker types it (None: not known)."""
    field = seen.field_node()
    module, table = seen.trial.stages.module, seen.trial.stages.table
    if field is not None and module is not None and table is not None:
        checker, _ = check(module, table)
        return checker.expr_types.get(id(field.subject))
    # `set f.side.|` (a target is names, not an expression), or an expression that does not
    # read yet: the names before the dot, typed from a parameter's written type on
    m = re.search(r"([A-Za-z_]\w*(?:\s*\.\s*[A-Za-z_]\w*)*)\s*\.\s*\Z",
                  seen.analysis.text[:seen.where.word_start])
    if m is None:
        return None
    first, *fields = [part.strip() for part in m.group(1).split(".")]
    declared = next((d for d in reversed(seen.locals()) if d.name == first), None)
    if declared is None or declared.type not in ("fighter", "side"):
        return None
    found: Type | None = Type(declared.type)
    for name in fields:
        builtins = FIGHTER_BUILTINS if found == Type("fighter") else \
            SIDE_BUILTINS if found == Type("side") else {}
        found = builtins.get(name)
        if found is None:
            return None
    return found


def _found(decl: object, wanted: Callable[[object], bool]) -> Iterator[object]:
    """The nodes of a declaration that are `wanted`."""
    stack: list[object] = [decl]
    while stack:
        current = stack.pop()
        if isinstance(current, tuple):
            stack.extend(current)
        elif dataclasses.is_dataclass(current) and not isinstance(current, type):
            if wanted(current):
                yield current
            stack.extend(getattr(current, f.name) for f in dataclasses.fields(current))


__all__ = ["PLACEHOLDER", "Context", "Seen", "complete", "context", "expected", "keywords",
           "placeholder_analysis", "replaced"]
