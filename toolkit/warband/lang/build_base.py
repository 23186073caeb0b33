"""What every part of the parse-tree builder shares: positions of nodes and tokens, names, and
quoted text. The builder's rules are split by the kind of node they make (build_core,
build_decl, build_lists, build_board), each a mixin of this base, gathered in builder.py."""

from __future__ import annotations

import ast as pyast
from typing import cast

from lark import Token, Transformer

from warband.diagnostics import Span, lone_surrogate, whole_characters
from warband.lang import nodes


def unquote(token: str) -> str:
    """The text of a string literal as written in a rules file. Escapes of the two halves of a
    character are joined into it; an escape of half a character alone (`"\\ud800"`, which
    no file or terminal can hold) is kept as written, as an escape Python does not know is (and
    reported: parser.lone_halves)."""
    if token.startswith('"""'):
        return token[3:-3]
    try:
        text = whole_characters(pyast.literal_eval(token))
    except (ValueError, SyntaxError):  # an escape Python does not know: keep the text as written
        return token[1:-1]
    return text if lone_surrogate(text) is None else token[1:-1]


def half_character(token: str) -> str | None:
    """The escape of half a character a string literal holds (a lone surrogate), or None."""
    if token.startswith('"""') or "\\" not in token:
        return None
    try:
        text = whole_characters(pyast.literal_eval(token))
    except (ValueError, SyntaxError):
        return None
    half = lone_surrogate(text)
    return None if half is None else f"\\u{ord(text[half]):04x}"


class BuildBase(Transformer):
    """Positions and names for the builder's rules (not grammar rules themselves, so not
    wrapped by v_args)."""

    def __init__(self, file: str) -> None:
        super().__init__()
        self.file = file

    # ---- positions ------------------------------------------------------------------------
    def span(self, meta) -> Span:
        if getattr(meta, "empty", True):
            return Span(self.file, 1, 1)
        return Span(self.file, meta.line, meta.column, meta.end_line, meta.end_column)

    def tok_span(self, tok: Token) -> Span:
        # the lexer gives every token its position; lark's types leave them optional
        line, column = cast(int, tok.line), cast(int, tok.column)
        return Span(self.file, line, column, tok.end_line or line,
                    tok.end_column or column + len(tok))

    def ident(self, tok: Token) -> nodes.Ident:
        return nodes.Ident(str(tok), self.tok_span(tok))

    def typed(self, type_):
        """A declaration's type: a name (a Token, as the grammar gives it) as an Ident; a type
        already built (a range, say) as it is."""
        return self.ident(type_) if isinstance(type_, Token) else type_
