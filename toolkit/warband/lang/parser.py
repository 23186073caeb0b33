"""Rules text -> AST, with syntax errors in a hobbyist's words.

The whole file is parsed in one go. Only when that fails is it cut into top-level declarations
(each starting at the beginning of a line with a declaration keyword, outside braces) and each
piece parsed on its own, so that one typo neither hides the errors after it nor the declarations
around it.
"""

from __future__ import annotations

import difflib
import functools
import re
from dataclasses import replace
from typing import cast

from lark import Token, Tree
from lark.exceptions import UnexpectedInput, VisitError

from warband.diagnostics import Diagnostic, Related, Span, diag
from warband.lang import nodes
from warband.lang.build_base import half_character
from warband.lang.builder import build
from warband.lang.grammar import DECLARATION_KEYWORDS, first_word, grammar
from warband.lang.syntax_errors import syntax_error
from warband.limits import MAX_DEPTH, MAX_NAME_CHARS, MAX_TEXT_CHARS

# Declaration keywords that also begin an entry inside a class or a scenario: inside braces, even
# at the start of a line, they continue the class rather than start a new declaration.
_ENTRY_KEYWORDS = ("stat", "tier", "equipment", "remove", "zone")   # (zone: a scenario's)
_SCAN = re.compile(r'"""(?:.|\n)*?"""|"(?:\\.|[^"\\\n])*"|#[^\n]*|[{}]|^(?:%s)\b'
                   % "|".join(DECLARATION_KEYWORDS), re.MULTILINE)


def parse(text: str, file: str) -> tuple[nodes.Module | None, list[Diagnostic]]:
    """Parse one rules file. Returns the module (None if nothing could be read) and diagnostics."""
    lark = grammar()
    try:
        tree = lark.parse(text, start="start")
    except UnexpectedInput:
        return _parse_in_pieces(text, file)
    return _build(tree, file)


def _build(tree: Tree, file: str) -> tuple[nodes.Module | None, list[Diagnostic]]:
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
                # the lexer gives every token its position; lark's types leave them optional
                where = Span(file, *cast("tuple[int, int, int, int]",
                                         (name.line, name.column, name.end_line, name.end_column)))
            diagnostics.append(diag(
                "E403", f"{what} is nested too deeply: the toolkit reads at most {MAX_DEPTH} "
                        "levels of brackets, operators and blocks", where, related=related,
                hint="split it into several smaller definitions or procedures"))
    diagnostics += _texts(kept, file)
    try:
        module = build(Tree(tree.data, kept, tree.meta), file)
        return (_partial(module, dropped) if diagnostics else module), diagnostics
    except (RecursionError, VisitError) as error:  # a safety net: _too_deep should prevent it
        if isinstance(error, VisitError) and not isinstance(error.orig_exc, RecursionError):
            raise
        diagnostics.append(diag("E403", "the file is nested too deeply to read", Span(file, 1, 1),
                                hint="split deep expressions into smaller definitions"))
        return None, diagnostics


def _texts(children: list, file: str) -> list[Diagnostic]:
    """The texts and names of a file, bounded: E104 for each text whose escapes stand for half a
    character (`"\\ud800"`, a lone surrogate), which no file or terminal can hold
    (diagnostics.whole_characters); E403 for a text longer than MAX_TEXT_CHARS or a name
    longer than MAX_NAME_CHARS (a game's log names a fighter, a class, a side on every line)."""
    found = []
    for child in children:
        tokens = child.scan_values(lambda t: isinstance(t, Token) and
                                   t.type in ("STRING", "NAME")) \
            if isinstance(child, Tree) else [child] if isinstance(child, Token) and \
            child.type in ("STRING", "NAME") else []
        for token in tokens:
            where = cast("tuple[int, int, int, int]",
                         (token.line, token.column, token.end_line, token.end_column))
            most = MAX_NAME_CHARS if token.type == "NAME" else MAX_TEXT_CHARS + 2
            if len(token) > most:
                what = "name" if token.type == "NAME" else "text"
                found.append(diag(
                    "E403", f"this {what} is {len(token) - (token.type != 'NAME') * 2:,} "
                            f"characters long (at most {most - (token.type != 'NAME') * 2:,})",
                    Span(file, *where),
                    hint="names and texts are shown in reports and in every line of a game's "
                         "log that names them: shorten it"))
                continue
            half = half_character(token) if token.type == "STRING" else None
            if half is not None:
                found.append(diag(
                    "E104", f"the escape {half} in this text is half of a character (a lone "
                            "surrogate), not text", Span(file, *where),
                    hint="write the character itself; one beyond \\uffff is written "
                         "\\U0001f600 (or as both of its halves, \\ud83d\\ude00)"))
    return found


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


@functools.lru_cache(maxsize=2048)
def _read_piece(piece: str, line: int, column: int, file: str, start: str,
                ) -> tuple[nodes.Module | None, tuple[Diagnostic, ...]] | None:
    """One piece of a broken file parsed on its own, placed at its line and column (its nodes'
    spans are those of the file); None if it does not read. Kept: a piece's nodes depend only
    on its text, its place and the file's name, and while a file is being typed every piece but
    the one under the cursor is the same at the next keystroke (the language server compiles at
    each). Placed by line breaks and spaces, not by the whole text before it blanked out, whose
    scanning made a file of many declarations quadratic (80 ms of a 150 ms compile of a
    770-line file)."""
    try:
        tree = grammar().parse("\n" * (line - 1) + " " * (column - 1) + piece, start=start)
    except UnexpectedInput:
        return None
    module, found = _build(tree, file)
    return module, tuple(found)


def _parse_in_pieces(text: str, file: str) -> tuple[nodes.Module | None, list[Diagnostic]]:
    lark = grammar()
    starts = _chunk_starts(text)
    if not starts or starts[0] != 0:
        starts.insert(0, 0)
    starts.append(len(text))
    header: nodes.Header | None = None
    decls: list[nodes.Decl] = []
    diagnostics: list[Diagnostic] = []
    header_tried = False
    unreadable: set[str] = set()
    failed = False
    line, line_start = 1, 0   # where the piece starts: its line, and that line's offset
    for begin, end in zip(starts, starts[1:]):
        piece = text[begin:end]
        line += text.count("\n", line_start, begin)
        line_start = text.rfind("\n", 0, begin) + 1
        if not piece.strip():
            continue
        word = first_word(piece)
        # A header, or a first line that was meant to be one ('rulset', 'Ruleset', ...)
        is_header = word == "ruleset" or not header_tried and not decls and \
            word not in DECLARATION_KEYWORDS and \
            bool(difflib.get_close_matches(word.lower(), ["ruleset"], cutoff=0.7))
        header_tried |= is_header
        start = "start" if is_header else "items"
        read = _read_piece(piece, line, begin - line_start + 1, file, start)
        if read is None:
            # Blank out what comes before, keeping line breaks, so that positions (and the
            # offsets the wording of the error reads) stay those of the file.
            padded = re.sub(r"[^\n]", " ", text[:begin]) + piece
            try:
                lark.parse(padded, start=start)
            except UnexpectedInput as error:
                diagnostics.append(syntax_error(error, padded, file,
                                                next_at=end if end < len(text) else None,
                                                source=text))
            failed = True
            unreadable |= _declared_names(piece)
            continue
        module, found = read
        diagnostics += found
        if module is None:
            failed = True
            continue
        if module.partial:
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
        header = nodes.Header(m.group(1) if m else "", None, None, None, None, Span(file, 1, 1))
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
    module = nodes.Module(file, header, tuple(decls))
    return (_partial(module, unreadable) if failed else module), diagnostics


def _partial(module: nodes.Module, unreadable: set[str]) -> nodes.Module:
    return replace(module, partial=True, unreadable=frozenset(unreadable))


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
