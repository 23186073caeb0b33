"""Syntax errors in a hobbyist's words: what was expected, said plainly, with a hint for the
mistakes people make (found by matching the parser's state against labelled examples).
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache
from typing import cast

from lark import Token, Tree
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken

from warband.diagnostics import Diagnostic, Related, Span, diag, did_you_mean
from warband.lang.grammar import (
    DECLARATION_KEYWORDS,
    STATEMENT_KEYWORDS,
    first_word,
    grammar,
    statement_words,
)

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
    "a class lists its entries between braces, as in 'class Scout { tier basic }'": [
        'class Scout tier basic',
        'class Scout traits A',
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
    "the face to compare with is a whole number or a name; anything more goes in brackets, as "
    "in 'count >= (f.Quality) in 2d6'": [
        'define f() = count >= a.b in 2d6',
        'define f() = count >= a + 1 in 2d6',
        'define f() = count >= a(1) in 2d6',
    ],
    "a 'while' loop has a bound, as every loop of the rules does: 'while CONDITION at most N "
    "times { ... }' (N worked out before the first turn)": [
        'procedure p() { while x { } }',
        'procedure p() { while x.y > 1 { } }',
        'procedure p() { while not x.y { } }',
        'procedure p() { while x and y { } }',
    ],
    "'for each' has no 'where': go over the members a condition holds for, as in "
    "'for each x in all(x for x in GROUP if CONDITION) { ... }', or put an 'if' inside the "
    "loop": [
        'procedure p() { for each x in y where z { } }',
        'procedure p() { for each x in y.z where z { } }',
        'procedure p() { for each x in all(x for x in y) where z { } }',
    ],
}

# Statements of other languages a designer may reach for, and how the rules language says it.
_OTHER_STATEMENTS = {
    "until": "there is no 'until' loop: write 'while not CONDITION at most N times { ... }' "
             "(every loop has a bound)",
    "loop": "a loop is 'repeat N times { ... }', 'for each x in GROUP { ... }' or 'while "
            "CONDITION at most N times { ... }'",
    "do": "a loop is 'repeat N times { ... }', 'for each x in GROUP { ... }' or 'while "
          "CONDITION at most N times { ... }'",
    "foreach": "write 'for each x in GROUP { ... }', in two words",
    "elif": "write 'else if'",
    "elseif": "write 'else if'",
    "var": "write 'let NAME = VALUE' for a new value, 'set NAME = VALUE' to change it",
    "const": "write 'let NAME = VALUE'",
    "print": "rules do not print: a game's log shows every roll and change",
    "switch": "choose among values with a table (table t(x) -> v { 1 => ... otherwise => ... }) "
              "or with if ... else if ...",
}


def statements_phrase() -> str:
    """Every statement's first words, read from the grammar: 'let, set, ..., or the name of a
    procedure to call'."""
    shown = {"for": "for each", "pick": "pick up"}
    words = [shown.get(w, w) for w in statement_words()]
    return ", ".join(words) + " or the name of a procedure to call"


# Words that stand for a value of their own (and `count` a roll's count): a designer who names a
# value so meets an error just after it
_VALUE_WORDS = {"count", "true", "false", "fighters", "if", "not", "pool"}
_AFTER_A_NAME = {"DOT", "LPAR", "RPAR", "ADD_OP", "MUL_OP", "COMMA", "ASSIGN_OP", "THEN", "ELSE",
                 "RBRACE", "LBRACE", "EQUAL", "__ANON_0"}


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


# What starts an entry of a class: a list of them is said in one phrase.
_CLASS_ENTRIES = {"tier", "traits", "equipment", "stat", "group", "single", "unique",
                  "models", "wounds"}   # models, wounds: units of several models
_ARMY_ENTRIES = {"cost", "limit", "points", "size", "quota", "remove", "require", "every", "at",
                 "exactly", "founding"}

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
    for starts, phrase in ((_CLASS_ENTRIES, "a class entry (such as 'tier', 'traits', 'stat', "
                                            "'group')"),
                           (_ARMY_ENTRIES, "an army entry (such as 'cost', 'points', 'size', "
                                           "'quota', 'require')")):
        entries = {n for n in expected if patterns.get(n) in starts}
        if len(entries) >= 5:
            expected -= entries
            groups.append(phrase)
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


def _returned_keyword(stack: list) -> bool:
    """Whether the statements just read end in `return` followed by a statement's word: a bare
    `return` with a statement after it, read as `return VALUE` with the word as a name."""
    for item in reversed(stack[-3:]):
        if isinstance(item, Tree) and str(item.data).startswith("__block_star"):
            last = item.children[-1] if item.children else None
            value = last.children[0] if isinstance(last, Tree) and last.data == "return_stmt" \
                and last.children else None
            return isinstance(value, Tree) and value.data == "name" and \
                str(value.children[0]) in STATEMENT_KEYWORDS
    return False


def _reserved_hint(error: UnexpectedToken, stack: list) -> str | None:
    """A word of the language used as a name: `let count = 3` is read, but `count + 1` then
    reads the word as the start of a roll's count. Said when such a word stands just before
    what would follow a name (directly, or before an opening bracket)."""
    if not stack or not isinstance(stack[-1], Token):
        return None
    word = stack[-1]
    if word.type == "LPAR" and error.token.type == "RPAR" and len(stack) >= 2 and \
            isinstance(stack[-2], Token):
        word = stack[-2]   # count(): a definition named so, called without arguments
    elif error.token.type not in _AFTER_A_NAME:
        return None
    if str(word) not in _VALUE_WORDS or word.type == "NAME":
        return None
    return f"'{word}' is a word of the language, so it cannot be used as a name here; choose " \
           f"another name (docs/language.md, section 2, lists the reserved words)"


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
    reserved = _reserved_hint(error, stack)
    if reserved:
        return reserved
    if _returned_keyword(stack):
        return "a bare 'return' stands last in its braces: a statement after it would never " \
               "run; to return a value, write 'return VALUE'"
    if value == "=" and any(patterns.get(n) == "as" for n in accepts):
        return "a derived stat gives its value after 'as', as in " \
               "'stat Move(f): 1..5 as movement(f.Size)'"
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
        word = str(before)
        if word.lower() in _OTHER_STATEMENTS:
            return f"{_OTHER_STATEMENTS[word.lower()]}. The statements are {statements_phrase()}"
        close = did_you_mean(word, statement_words())
        return close or f"a statement starts with {statements_phrase()}: to call a procedure, " \
                        f"write {word}(...)"
    if any(patterns.get(n) == "=>" for n in accepts):
        return "a table row is 'when CONDITION => VALUES', 'KEY => VALUES' or " \
               "'otherwise => VALUES'"
    if {"LET", "SET", "RETURN"} <= accepts and token.type != "NAME":
        return f"a statement starts with {statements_phrase()}"
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
        # lark sets it on every UnexpectedCharacters, but declares it None on UnexpectedInput
        return _character(text, cast(int, error.pos_in_stream), file)
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
            word = first_word(source[next_at:next_at + 40]) if source else ""
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
