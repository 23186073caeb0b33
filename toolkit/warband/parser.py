"""Rules text -> AST, with syntax errors in a hobbyist's words.

The whole file is parsed in one go. Only when that fails is it cut into top-level declarations
(each starting at the beginning of a line with a declaration keyword, outside braces) and each
piece parsed on its own, so that one typo neither hides the errors after it nor the declarations
around it.
"""

from __future__ import annotations

import difflib
import re
import unicodedata
from functools import lru_cache

from lark import Lark, Token, Tree
from lark.exceptions import (UnexpectedCharacters, UnexpectedEOF, UnexpectedInput,
                             UnexpectedToken, VisitError)

from warband import ast
from warband.builder import build
from warband.compiler import BUILTIN_DIR
from warband.diagnostics import Diagnostic, Related, Span, diag, did_you_mean

GRAMMAR = BUILTIN_DIR / "warband.lark"

# Nesting levels of the parse tree a declaration may have. The builder and the checker walk the
# tree recursively, so deeper input would exhaust Python's stack; it is reported instead (E403).
MAX_DEPTH = 150

DECLARATION_KEYWORDS = (
    "ruleset", "stat", "enum", "flag", "counter", "tier", "trait", "class", "equipment",
    "table", "define", "outcomes", "procedure", "action", "phase", "army",
)
STATEMENT_KEYWORDS = ("let", "set", "if", "choose", "return", "remove", "for", "repeat")
# Declaration keywords that also begin an entry inside a class: inside braces, even at the start
# of a line, they continue the class rather than start a new declaration.
_ENTRY_KEYWORDS = ("stat", "tier", "equipment")
_SCAN = re.compile(r'"""(?:.|\n)*?"""|"(?:\\.|[^"\\\n])*"|#[^\n]*|[{}]|^(?:%s)\b'
                   % "|".join(DECLARATION_KEYWORDS), re.MULTILINE)

# How terminals read in a message; keywords and punctuation are quoted as written.
_WORDS = {
    "NAME": "a name",
    "INT": "a whole number",
    "STRING": "a quoted text",
    "DICE": "dice such as 3d6",
    "COMP_OP": "a comparison such as '>='",
    "ADD_OP": "'+' or '-'",
    "MUL_OP": "'*' or '/'",
    "ASSIGN_OP": "'=', '+=' or '-='",
    "$END": "the end of the file",
}
_OPERATORS = {"ADD_OP", "MUL_OP", "COMP_OP", "AND", "OR", "HAS", "IS"}
_VALUE_STARTS = {"INT", "NAME", "DICE", "STRING", "LPAR", "TRUE", "FALSE", "COUNT", "FIGHTERS",
                 "NOT", "IF", "MINUS", "ADD_OP"}

# Mistakes a hobbyist makes, each with samples that fail in the same parser state (and with the
# same acceptable continuations). Samples are declarations, except those starting with 'ruleset'.
_EXAMPLES: dict[str, list[str]] = {
    'the ruleset\'s id goes between double quotes, as in: ruleset "my-rules"': [
        'ruleset x',
    ],
    "a class lists its entries between braces, as in 'class Soldier { tier common }'": [
        'class Soldier tier common',
        'class Soldier traits A',
    ],
    "separate the names of a list with commas, as in 'traits Charge, Defend'": [
        'class A { traits B C }',
        'class A { traits B(1) C }',
        'class A { equipment B C }',
        'equipment A { grants B C }',
    ],
    "a trait declares a label for its number, as in 'trait Armor(N)'; a class gives the number: "
    "traits Armor(2)": [
        'trait Armor(2)',
    ],
    "a stat gives its range after a colon, as in 'stat Might: 1..100'": [
        'stat Might 1',
    ],
    "give the parameters in brackets after the name, even when there are none, as in "
    "'define f() = ...'": [
        'define f = 1',
        'procedure p { }',
        'action p { }',
        'phase p { }',
    ],
    "say how many dice to keep or drop, as in '4d6 drop lowest 1'": [
        'define f() = 4d6 drop lowest }',
    ],
    "write the limit straight after the word, as in 'points 100'": [
        'army { points = 100 }',
    ],
    "say 'at most', 'at least' or 'exactly', as in 'size at most 16'": [
        'army { size 16 }',
        'army { quota tier a 2 }',
    ],
    "say what the quota counts, as in 'quota tier common at least 1/2'": [
        'army { quota common at least 1 }',
    ],
}


@lru_cache(maxsize=1)
def grammar() -> Lark:
    # cache=True keeps the LALR tables in a temporary file keyed by the grammar's hash
    return Lark.open(str(GRAMMAR), parser="lalr", propagate_positions=True, strict=True,
                     maybe_placeholders=True, start=["start", "items"], cache=True)


def parse(text: str, file: str) -> tuple[ast.Module | None, list[Diagnostic]]:
    """Parse one rules file. Returns the module (None if nothing could be read) and diagnostics."""
    lark = grammar()
    try:
        tree = lark.parse(text, start="start")
    except UnexpectedInput:
        return _parse_in_pieces(text, file)
    return _build(tree, file)


def _build(tree: Tree, file: str) -> tuple[ast.Module | None, list[Diagnostic]]:
    """Build the AST, leaving out (and reporting) declarations nested too deeply to walk."""
    diagnostics: list[Diagnostic] = []
    kept, dropped = [], set()
    for child in tree.children:
        deep = _too_deep(child) if isinstance(child, Tree) else None
        if deep is None:
            kept.append(child)
        else:
            name = next((t for t in child.children if isinstance(t, Token)
                         and t.type == "NAME"), None)
            where = Span(file, *deep)
            what, related = "this", []
            if name is not None:
                dropped.add(str(name))
                what = f"'{name}'"
                related = [Related(where, f"here it passes {MAX_DEPTH} levels")]
                where = Span(file, name.line, name.column, name.end_line, name.end_column)
            diagnostics.append(diag(
                "E403", f"{what} is nested too deeply: the toolkit reads at most {MAX_DEPTH} "
                        "levels of brackets, operators and blocks", where, related=related,
                hint="split it into several smaller definitions or procedures"))
    try:
        module = build(Tree(tree.data, kept, tree.meta), file)
        return (_partial(module, dropped) if diagnostics else module), diagnostics
    except (RecursionError, VisitError) as error:  # a safety net: _too_deep should prevent it
        if isinstance(error, VisitError) and not isinstance(error.orig_exc, RecursionError):
            raise
        diagnostics.append(diag("E403", "the file is nested too deeply to read", Span(file, 1, 1),
                                hint="split deep expressions into smaller definitions"))
        return None, diagnostics


def _too_deep(tree: Tree) -> tuple[int, int] | None:
    """The line and column where the tree gets deeper than MAX_DEPTH, or None (no recursion)."""
    stack = [(tree, 1, (1, 1))]
    while stack:
        node, depth, where = stack.pop()
        if depth > MAX_DEPTH:
            return where  # where its parent, the last level allowed, begins
        meta = node.meta
        if not getattr(meta, "empty", True):
            where = (meta.line, meta.column)
        stack.extend((c, depth + 1, where) for c in node.children if isinstance(c, Tree))
    return None


def _chunk_starts(text: str) -> list[int]:
    """Where top-level declarations begin: a declaration keyword at the start of a line, unless
    it is an entry keyword inside braces. Strings and comments are skipped."""
    starts, depth = [], 0
    for m in _SCAN.finditer(text):
        tok = m.group()
        if tok == "{":
            depth += 1
        elif tok == "}":
            depth = max(0, depth - 1)
        elif tok[0] in '"#':
            continue
        elif depth == 0 or tok not in _ENTRY_KEYWORDS:
            starts.append(m.start())
            depth = 0
    return starts


def _first_word(piece: str) -> str:
    piece = re.sub(r"#[^\n]*", "", piece)
    m = re.match(r"\s*([A-Za-z_]\w*)", piece)
    return m.group(1) if m else ""


def _parse_in_pieces(text: str, file: str) -> tuple[ast.Module | None, list[Diagnostic]]:
    lark = grammar()
    starts = _chunk_starts(text)
    if not starts or starts[0] != 0:
        starts.insert(0, 0)
    starts.append(len(text))
    header, decls, diagnostics = None, [], []
    header_tried = False
    unreadable: set[str] = set()
    failed = False
    for begin, end in zip(starts, starts[1:]):
        piece = text[begin:end]
        if not piece.strip():
            continue
        # Blank out what comes before, keeping line breaks, so positions stay those of the file.
        padded = re.sub(r"[^\n]", " ", text[:begin]) + piece
        word = _first_word(piece)
        # A header, or a first line that was meant to be one ('rulset', 'Ruleset', ...)
        is_header = word == "ruleset" or not header_tried and not decls and \
            word not in DECLARATION_KEYWORDS and \
            bool(difflib.get_close_matches(word.lower(), ["ruleset"], cutoff=0.7))
        header_tried |= is_header
        try:
            tree = lark.parse(padded, start="start" if is_header else "items")
        except UnexpectedInput as error:
            diagnostics.append(syntax_error(error, padded, file,
                                            next_at=end if end < len(text) else None,
                                            source=text))
            failed = True
            unreadable |= _declared_names(piece)
            continue
        module, found = _build(tree, file)
        diagnostics += found
        if module is None:
            failed = True
            continue
        if isinstance(module, PartialModule):
            failed = True
            unreadable |= module.unreadable
        if module.header is not None and header is not None:
            diagnostics.append(diag("E202", "a second ruleset header", module.header.span,
                                    related=[Related(header.span, "the first header")],
                                    hint="a file holds one ruleset; remove this line"))
        header = header or module.header
        decls.extend(module.decls)
    if header is None and header_tried:
        # The header line is there but unreadable (and reported): stand in for it, so that no
        # one also reports it missing. A file with errors never becomes a ruleset anyway.
        m = re.search(r'ruleset\s+"([^"\n]*)"', text)
        header = ast.Header(m.group(1) if m else "", None, None, None, None, Span(file, 1, 1))
    if header is None and not header_tried:
        if not re.sub(r"#[^\n]*", "", text).strip():
            message = "the file is empty" if not text.strip() else \
                "the file holds only comments"
            diagnostics.append(diag("E105", f"{message}; a rules file needs at least a ruleset "
                                            "header", Span(file, 1, 1),
                                    hint='begin the file with: ruleset "my-rules"'))
        else:
            diagnostics.append(diag("E105", "the file does not start with a ruleset header",
                                    Span(file, 1, 1),
                                    hint='begin the file with: ruleset "my-rules"'))
    module = ast.Module(file, header, tuple(decls))
    return (_partial(module, unreadable) if failed else module), diagnostics


class PartialModule(ast.Module):
    """A module some of whose declarations could not be read (and were reported). `unreadable`
    holds the names those declarations seem to declare, so that later passes neither call them
    unknown nor call what they use unused."""

    __slots__ = ("unreadable",)
    partial = True


def _partial(module: ast.Module, unreadable: set[str]) -> PartialModule:
    partial = PartialModule(module.file, module.header, module.decls)
    object.__setattr__(partial, "unreadable", frozenset(unreadable))
    return partial


_LINE_START = re.compile(r"^[ \t]*([A-Za-z_]\w*)[ \t]+([A-Za-z_]\w*)", re.MULTILINE)
_TEXTS_AND_COMMENTS = re.compile(r'"""(?:.|\n)*?"""|"(?:\\.|[^"\\\n])*"|#[^\n]*')


def _declared_names(piece: str) -> set[str]:
    """The names an unreadable piece of text seems to declare: the word after each declaration
    keyword (or a near miss, such as 'tier' written 'iter') that begins a line, and every word
    from an enum or outcomes declaration on, which may be its members."""
    piece = _TEXTS_AND_COMMENTS.sub(" ", piece)
    names = set()
    for m in _LINE_START.finditer(piece):
        keyword = difflib.get_close_matches(m.group(1).lower(), DECLARATION_KEYWORDS[1:], n=1,
                                            cutoff=0.7)
        if not keyword:
            continue
        names.add(m.group(2))
        if keyword[0] in ("enum", "outcomes"):
            names.update(re.findall(r"[A-Za-z_]\w*", piece[m.end():]))
    return names


# ---- wording -------------------------------------------------------------------------------------

def _describe(token: Token | None) -> str:
    if token is None or token.type == "$END":
        return "the end of the file"
    if token.type == "STRING":
        return "a quoted text"
    return f"'{token}'"


@lru_cache(maxsize=1)
def _patterns() -> dict[str, str]:
    """Terminal name -> the text it stands for, for keywords and punctuation."""
    return {t.name: t.pattern.value for t in grammar().terminals
            if t.pattern.type == "str"}


# What can only continue the line before: left out when the unexpected word begins a line.
_CONTINUATIONS = {"LPAR", "COMMA", "DOT", "SUM", "MAX", "MIN"} | _OPERATORS


def _expected_words(expected: set[str], line_start: bool = False) -> str:
    expected = set(expected)
    if line_start and expected - _CONTINUATIONS - {"STRING", "$END"}:
        expected -= _CONTINUATIONS
    patterns = _patterns()
    groups = []
    declarations = {n for n in expected if patterns.get(n) in DECLARATION_KEYWORDS}
    if len(declarations) >= 5:
        expected -= declarations | {"$END"}
        groups.append("a new declaration")
    statements = {n for n in expected if patterns.get(n) in STATEMENT_KEYWORDS}
    if len(statements) >= 5:
        expected -= statements | {"NAME"}
        groups.append("a statement (such as 'let', 'set', 'if')")
    if {"INT", "NAME", "DICE", "LPAR"} <= expected:
        expected -= _VALUE_STARTS
        groups.append("a value (such as 3, 2d6, a name)")
    if len(expected & _OPERATORS) >= 3:
        expected -= _OPERATORS | ({"DOT", "LPAR"} if "DOT" in expected else set())
        groups.insert(0, "an operator (such as '+', '==', 'and')")
    words = sorted({_WORDS[n] for n in expected if n in _WORDS})
    words += sorted({f"'{patterns[n]}'" for n in expected if n in patterns})
    words = groups + words
    if not words:
        return "something else"
    if len(words) > 7:
        words = words[:6] + ["something else"]
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " or " + words[-1]


def _unclosed(text: str) -> list[tuple[str, int]]:
    """Braces and brackets still open at the end of the text, with their offsets, ignoring
    strings and comments."""
    stack: list[tuple[str, int]] = []
    pairs = {"}": "{", ")": "("}
    for m in re.finditer(r'"""(?:.|\n)*?"""|"(?:\\.|[^"\\\n])*"|#[^\n]*|[{}()]', text):
        tok = m.group()
        if tok in "{(":
            stack.append((tok, m.start()))
        elif tok in pairs and stack and stack[-1][0] == pairs[tok]:
            stack.pop()
    return stack


def _span_at(text: str, file: str, pos: int, length: int = 1) -> Span:
    line = text.count("\n", 0, pos) + 1
    column = pos - (text.rfind("\n", 0, pos) + 1) + 1
    return Span(file, line, column, line, column + length)


@lru_cache(maxsize=1)
def _example_keys() -> dict[tuple, str]:
    """(parser state, acceptable terminals) -> the hint of the first sample failing there."""
    keys: dict[tuple, str] = {}
    for label, samples in _EXAMPLES.items():
        for sample in samples:
            start = "start" if sample.startswith("ruleset") else "items"
            try:
                grammar().parse(sample, start=start)
            except UnexpectedToken as error:
                keys.setdefault((error.state.position, frozenset(error.accepts or ())), label)
            except UnexpectedInput:  # pragma: no cover - every sample fails on a token
                pass
    return keys


def _token_hint(error: UnexpectedToken, accepts: set[str]) -> str | None:
    """A hint for a common mistake, from the unexpected token and what could have come."""
    token = error.token
    value = str(token)
    stack = getattr(error.state, "value_stack", None) or []
    before = stack[-1] if stack and isinstance(stack[-1], Token) else None
    patterns = _patterns()
    label = _example_keys().get((error.state.position, frozenset(accepts)))
    if label:
        return label
    if value in ("=", "+=", "-=") and "COMP_OP" in accepts:
        return "use '==' to compare two values; '=' only gives a value"
    if value in ("=", "+=", "-=") and accepts == {"LPAR"} and before is not None:
        return f"write 'set {before} {value} ...' to change a value, or 'let {before} = ...' " \
               "to make a new one"
    if token.type == "THEN" and "LBRACE" in accepts:
        return "an 'if' statement puts what it does between braces: if CONDITION { ... }"
    if "THEN" in accepts or "ELSE" in accepts and "LET" not in accepts and \
            "RBRACE" not in accepts:
        return "an 'if' inside a value needs 'then' and 'else', as in 'if a then 1 else 2'"
    if "__ANON_0" in accepts and patterns.get("__ANON_0") == "..":
        return "a stat's range is written LOW..HIGH, as in 'stat Might: 1..100'"
    if token.type == "DICE" and "NAME" in accepts:
        return f"'{value}' reads as dice, so it cannot be a name; choose another name"
    if accepts == {"LPAR"} and before is not None and before.type == "NAME":
        close = did_you_mean(str(before), STATEMENT_KEYWORDS)
        return close or f"a statement starts with let, set, if, choose, return, remove, for " \
                        f"or repeat; to call a procedure, write {before}(...)"
    if any(patterns.get(n) == "=>" for n in accepts):
        return "a table row is 'when CONDITION => VALUES', 'KEY => VALUES' or " \
               "'otherwise => VALUES'"
    if {"LET", "SET", "RETURN"} <= accepts and token.type != "NAME":
        return "a statement starts with let, set, if, choose, return, remove, for, repeat or " \
               "the name of a procedure to call"
    if token.type == "NAME":
        keywords = [patterns[n] for n in accepts if n in patterns and patterns[n].isalpha()]
        close = did_you_mean(value, keywords)
        if close:
            return close
    if value in DECLARATION_KEYWORDS:
        return "the declaration before this one may be unfinished"
    return None


# Literals written in a way the language does not read, found around an error's position.
_MALFORMED = (
    (re.compile(r"(?<![\w.])\d+\.\d+(?![\w.])"), "decimal numbers are not part of the language",
     "use whole numbers, or a fraction such as 3/2"),
    (re.compile(r"(?<!\w)\d*D\d+(?!\w)"), "dice are written with a small 'd'", None),
    (re.compile(r"(?<!\w)\d+d(?!\w)"), "dice need a number of sides", None),
)


def _malformed(text: str, pos: int, file: str) -> Diagnostic | None:
    """E104 when the error sits in a malformed number, dice or text."""
    quote = None
    if text.startswith('"""', pos):
        quote = pos
    elif pos >= 2 and text.startswith('"""', pos - 2):
        quote = pos - 2
    if quote is not None and '"""' not in text[quote + 3:]:
        return diag("E104", "this text is never closed", _span_at(text, file, quote, 3),
                    hint='end it with three double quotes: """')
    line_start = text.rfind("\n", 0, pos) + 1
    line_end = text.find("\n", pos)
    line = text[line_start:line_end if line_end >= 0 else len(text)]
    if text.startswith('"', pos) and '"' not in text[pos + 1:line_start + len(line)]:
        return diag("E104", "this text is never closed", _span_at(text, file, pos),
                    hint='end it with a double quote on the same line; a text over several '
                         'lines goes between triple quotes: """like this"""')
    for pattern, message, hint in _MALFORMED:
        for m in pattern.finditer(line):
            if m.start() <= pos - line_start < m.end():
                literal = m.group()
                if hint is None:
                    hint = f"write {literal.lower()}" if "D" in literal else \
                        f"as in {literal}6"
                return diag("E104", f"{message}: '{literal}'",
                            _span_at(text, file, line_start + m.start(), len(literal)),
                            hint=hint)
    return None


_CHARACTER_HINTS = {
    "'": "texts are written between double quotes: \"like this\"",
    ";": "entries and statements need no separator; remove the ';'",
    "&": "write 'and'",
    "|": "write 'or'",
    "!": "write 'not', or '!=' for 'is not equal to'",
    "[": "use round brackets: ( and )",
    "]": "use round brackets: ( and )",
}


def _character(text: str, pos: int, file: str) -> Diagnostic:
    char = text[pos] if pos < len(text) else "?"
    category = unicodedata.category(char)
    hint = _CHARACTER_HINTS.get(char)
    if char in "\u201c\u201d\u2018\u2019\u00ab\u00bb":
        hint = "use straight double quotes: \"like this\" (word processors curl them)"
    if category[0] in "CZ":
        message = f"unexpected invisible character (U+{ord(char):04X})"
        hint = "delete it; such characters often come from copying text out of another program"
    elif category[0] == "L":
        message = f"unexpected character '{char}'"
        hint = "names use only the plain letters A to Z, digits and '_'"
    else:
        shown = f'"{char}"' if char == "'" else f"'{char}'"
        message = f"unexpected character {shown}"
    return diag("E102", message, _span_at(text, file, pos), hint=hint)


def syntax_error(error: UnexpectedInput, text: str, file: str, next_at: int | None = None,
                 source: str | None = None) -> Diagnostic:
    """One diagnostic for a Lark error, worded for a person who writes rules, not grammars.

    `text` ends where the parsed piece ends; `next_at` is where the next declaration begins when
    the piece is not the end of the file (an 'end of file' there is really that declaration),
    and `source` the whole file."""
    token = getattr(error, "token", None)
    pos = error.pos_in_stream if isinstance(error, UnexpectedCharacters) else \
        getattr(token, "start_pos", None)
    if pos is not None and (token is None or token.type != "$END"):
        found = _malformed(text, pos, file)
        if found is not None:
            return found
    if isinstance(error, UnexpectedCharacters):
        return _character(text, error.pos_in_stream, file)
    at_end = isinstance(error, UnexpectedEOF) or (token is not None and token.type == "$END")
    if isinstance(error, UnexpectedToken):
        accepts = set(error.accepts or error.expected or ())
    else:
        accepts = set(getattr(error, "expected", None) or ())
    hint = _token_hint(error, accepts) if isinstance(error, UnexpectedToken) else None
    if at_end:
        still_open = _unclosed(text)[-3:]  # the innermost: 2000 of them would help no one
        unclosed = [Related(_span_at(text, file, pos), f"this '{bracket}' is never closed")
                    for bracket, pos in still_open]
        if still_open:
            bracket, pos = still_open[-1]
            hint = f"add the missing '{'}' if bracket == '{' else ')'}' for the '{bracket}' on " \
                   f"line {text.count(chr(10), 0, pos) + 1}"
        expected = _expected_words(accepts - {"$END"} if next_at is not None else accepts,
                                   line_start=True)
        if next_at is not None:
            word = _first_word(source[next_at:next_at + 40]) if source else ""
            return diag("E101", f"unexpected '{word}'; expected {expected}",
                        _span_at(text, file, next_at, len(word)),
                        hint=hint or "the declaration before this one is unfinished",
                        related=unclosed)
        stripped = text.rstrip()
        span = _span_at(stripped + " ", file, len(stripped))
        return diag("E103", f"unexpected end of file; expected {expected}", span,
                    hint=hint or "the last declaration is unfinished", related=unclosed)
    line, column = max(error.line, 1), max(error.column, 1)
    span = Span(file, line, column, getattr(token, "end_line", line) or line,
                getattr(token, "end_column", column + 1) or column + 1)
    starts_line = token is not None and not text[text.rfind("\n", 0, token.start_pos) + 1:
                                                 token.start_pos].strip()
    message = f"unexpected {_describe(token)}; expected {_expected_words(accepts, starts_line)}"
    return diag("E101", message, span, hint=hint)
