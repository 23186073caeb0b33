"""Rules text -> AST, with syntax errors in a hobbyist's words.

The whole file is parsed in one go. Only when that fails is it cut into top-level declarations
(each starting at the beginning of a line with a declaration keyword) and each piece parsed on its
own, so that one typo neither hides the errors after it nor the declarations around it.
"""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path

from lark import Lark, Token
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken

from warband import ast
from warband.builder import build
from warband.diagnostics import Diagnostic, Related, Span, diag

GRAMMAR = Path(__file__).with_name("dsl") / "warband.lark"
if not GRAMMAR.exists():  # running from a source checkout: dsl/ sits at the repository's top
    GRAMMAR = Path(__file__).resolve().parents[2] / "dsl" / "warband.lark"

DECLARATION_KEYWORDS = (
    "ruleset", "stat", "enum", "flag", "counter", "tier", "trait", "class", "equipment",
    "table", "define", "outcomes", "procedure", "action", "phase", "army",
)
STATEMENT_KEYWORDS = ("let", "set", "if", "choose", "return", "remove", "for", "repeat")
_CHUNK_START = re.compile(r"^(%s)\b" % "|".join(DECLARATION_KEYWORDS), re.MULTILINE)

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

# Mistakes a hobbyist makes, each with a sample that fails in the same parser state.
_EXAMPLES: dict[str, list[str]] = {
    "a class lists its entries between braces, as in 'class Soldier { tier common }'": [
        'ruleset "x" class Soldier tier common',
        'ruleset "x" class Soldier traits A',
    ],
    "say how many dice to keep or drop, as in '4d6 drop lowest 1'": [
        'ruleset "x" define f() = 4d6 drop lowest }',
        'ruleset "x" define f() = 4d6 keep highest +',
    ],
    "use '==' to compare two values; '=' only gives a value": [
        'ruleset "x" define f(a) = a = 1',
        'ruleset "x" table t(a) -> v { when a = 1 => 2 }',
    ],
    "a table row is 'when CONDITION => VALUES', 'KEY => VALUES' or 'otherwise => VALUES'": [
        'ruleset "x" table t(a) -> v { when a > 1 2 }',
        'ruleset "x" table t(a) -> v { 1 2 }',
    ],
    "a statement starts with let, set, if, choose, return, remove, for, repeat or a call": [
        'ruleset "x" procedure p() { x = 1 }',
        'ruleset "x" procedure p() { 3 }',
    ],
    "an 'if' inside an expression needs 'then' and 'else', as in 'if a then 1 else 2'": [
        'ruleset "x" define f(a) = if a 1',
        'ruleset "x" define f(a) = if a then 1 }',
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
    return build(tree, file), []


def _parse_in_pieces(text: str, file: str) -> tuple[ast.Module | None, list[Diagnostic]]:
    lark = grammar()
    starts = [m.start() for m in _CHUNK_START.finditer(text)]
    if not starts or starts[0] != 0:
        starts.insert(0, 0)
    starts.append(len(text))
    header, decls, diagnostics = None, [], []
    for begin, end in zip(starts, starts[1:]):
        piece = text[begin:end]
        if not piece.strip():
            continue
        # Blank out what comes before, keeping line breaks, so positions stay those of the file.
        padded = re.sub(r"[^\n]", " ", text[:begin]) + piece
        is_header = piece.lstrip().startswith("ruleset")
        try:
            tree = lark.parse(padded, start="start" if is_header else "items")
        except UnexpectedInput as error:
            diagnostics.append(syntax_error(error, padded, file))
            continue
        module = build(tree, file)
        header = header or module.header
        decls.extend(module.decls)
    if header is None and not any(d.code == "E101" and "ruleset" in d.message for d in diagnostics):
        first = Span(file, 1, 1)
        diagnostics.append(diag("E105", "the file does not start with a ruleset header", first,
                                hint='begin the file with: ruleset "my-rules"'))
    return ast.Module(file, header, tuple(decls)), diagnostics


def _describe(token: Token | None) -> str:
    if token is None or token.type == "$END":
        return "the end of the file"
    if token.type == "STRING":
        return "a quoted text"
    return f"'{token}'"


def _expected_words(expected: set[str]) -> str:
    lark = grammar()
    patterns = {t.name: t.pattern.value for t in lark.terminals}
    if set(DECLARATION_KEYWORDS[1:6]) <= {patterns.get(e, e).lower() for e in expected}:
        return "a declaration such as 'stat', 'class', 'trait', 'table' or 'procedure'"
    words = []
    for name in sorted(expected):
        if name in _WORDS:
            words.append(_WORDS[name])
        elif name in patterns and isinstance(patterns[name], str) and \
                not name.startswith("__"):
            words.append(f"'{patterns[name]}'")
    words = sorted(set(words), key=lambda w: (w.startswith("'"), w))
    if not words:
        return "something else"
    if len(words) > 8:
        words = words[:7] + ["..."]
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " or " + words[-1]


def _unclosed(text: str, file: str) -> list[Related]:
    """Braces and brackets still open at the end of the text, ignoring strings and comments."""
    stack: list[tuple[str, int, int]] = []
    line, col = 1, 1
    pairs = {"}": "{", ")": "("}
    for m in re.finditer(r'"""(?:.|\n)*?"""|"(?:\\.|[^"\\\n])*"|#[^\n]*|[{}()]|\n', text):
        tok = m.group()
        # position of the match
        line = text.count("\n", 0, m.start()) + 1
        col = m.start() - (text.rfind("\n", 0, m.start()) + 1) + 1
        if tok in "{(" and tok:
            stack.append((tok, line, col))
        elif tok in pairs and stack and stack[-1][0] == pairs[tok]:
            stack.pop()
    return [Related(Span(file, ln, cl), f"this '{b}' is never closed") for b, ln, cl in stack]


def syntax_error(error: UnexpectedInput, text: str, file: str) -> Diagnostic:
    """One diagnostic for a Lark error, worded for a person who writes rules, not grammars."""
    line, column = max(error.line, 1), max(error.column, 1)
    if isinstance(error, UnexpectedCharacters):
        char = text[error.pos_in_stream] if error.pos_in_stream < len(text) else "?"
        hint = None
        if char == "'":
            hint = "texts are written between double quotes: \"like this\""
        elif char == "=" and text[error.pos_in_stream:error.pos_in_stream + 2] == "=>":
            hint = "'=>' separates a table row's condition from its values"
        return diag("E102", f"unexpected character {char!r}", Span(file, line, column),
                    hint=hint)
    token = getattr(error, "token", None)
    at_end = isinstance(error, UnexpectedEOF) or (token is not None and token.type == "$END")
    expected = set(getattr(error, "expected", None) or getattr(error, "accepts", None) or ())
    label = None
    if isinstance(error, UnexpectedToken):
        try:
            label = error.match_examples(grammar().parse, _EXAMPLES, use_accepts=True)
        except Exception:  # match_examples re-parses samples; a failure there only loses the hint
            label = None
    if at_end:
        end_line = text.count("\n") + 1
        last = text.rsplit("\n", 1)[-1]
        span = Span(file, end_line, len(last) + 1)
        return diag("E103", f"unexpected end of file; expected {_expected_words(expected)}",
                    span, hint=label or "a declaration or block is unfinished",
                    related=_unclosed(text, file))
    end = Span(file, line, column, getattr(token, "end_line", line) or line,
               getattr(token, "end_column", column + 1) or column + 1)
    message = f"unexpected {_describe(token)}; expected {_expected_words(expected)}"
    hint = label
    if hint is None and token is not None and str(token) in DECLARATION_KEYWORDS:
        hint = "the declaration before this one may be unfinished"
    return diag("E101", message, end, hint=hint)
