"""Places in a text, as the compiler counts them and as the editor does.

The compiler (Lark) counts 1-based lines ended by `\\n` alone and 1-based columns in characters.
An editor counts 0-based lines ended by `\\n`, `\\r\\n` or `\\r` (the protocol's three) and
columns in the code units the client and the server agreed on at the start (UTF-16 unless the
client offers another). The two agree on nothing but the character offset into the text, so every
conversion goes through it: a lone `\\r`, a character outside the Basic Multilingual Plane or a
U+2028 (a line break to Python's `splitlines`, to neither of the two) cannot shift a place.
"""

from __future__ import annotations

import bisect
import re

from lsprotocol import types

from warband.diagnostics import Span

_EDITOR_BREAK = re.compile(r"\r\n|\r|\n")


def _units(text: str, encoding: str) -> int:
    """The length of `text` in the agreed code units."""
    if encoding == types.PositionEncodingKind.Utf8:
        return len(text.encode("utf-8", "surrogatepass"))
    if encoding == types.PositionEncodingKind.Utf32:
        return len(text)
    return len(text.encode("utf-16-le", "surrogatepass")) // 2


class Lines:
    """One text's line starts, both ways of counting, for moving places between them."""

    def __init__(self, text: str, encoding: str = types.PositionEncodingKind.Utf16) -> None:
        self.text = text
        self.encoding = encoding
        # the compiler's lines: the offset each starts at
        self.compiler_starts = [0] + [m.end() for m in re.finditer("\n", text)]
        # the editor's lines: where each starts, and where its text ends (before the break)
        self.starts = [0]
        self.ends = []
        for m in _EDITOR_BREAK.finditer(text):
            self.ends.append(m.start())
            self.starts.append(m.end())
        self.ends.append(len(text))

    # ---- the compiler's places ------------------------------------------------------------------
    def offset(self, line: int, column: int) -> int:
        """The offset of a 1-based line and column as the compiler counts them, kept inside the
        text (a diagnostic at the end of a file may point one line past it)."""
        if line < 1:
            return 0
        if line > len(self.compiler_starts):
            return len(self.text)
        start = self.compiler_starts[line - 1]
        end = self.compiler_starts[line] - 1 if line < len(self.compiler_starts) else len(self.text)
        return min(start + max(column - 1, 0), end)

    def span_offsets(self, span: Span) -> tuple[int, int]:
        start = self.offset(span.line, span.column)
        end = self.offset(span.end_line, span.end_column)
        return start, max(start, end)

    # ---- the editor's places --------------------------------------------------------------------
    def position(self, offset: int) -> types.Position:
        offset = min(max(offset, 0), len(self.text))
        line = bisect.bisect_right(self.starts, offset) - 1
        # an offset inside a \r\n is the end of its line
        offset = min(offset, self.ends[line])
        return types.Position(line, _units(self.text[self.starts[line]:offset], self.encoding))

    def range(self, start: int, end: int) -> types.Range:
        return types.Range(self.position(start), self.position(end))

    def span_range(self, span: Span) -> types.Range:
        return self.range(*self.span_offsets(span))

    def offset_at(self, position: types.Position) -> int:
        """The offset of an editor's position; one past the end of its line is the line's end,
        and a line past the text's last is its end (as the protocol says to take them)."""
        if position.line < 0:
            return 0
        if position.line >= len(self.starts):
            return len(self.text)
        start, end = self.starts[position.line], self.ends[position.line]
        if self.encoding == types.PositionEncodingKind.Utf32:
            return min(start + max(position.character, 0), end)
        units = 0
        for i in range(start, end):
            if units >= position.character:
                return i
            units += _units(self.text[i], self.encoding)
        return end

    def line_text(self, line: int) -> str:
        """The editor's line (0-based), without its break."""
        if not 0 <= line < len(self.starts):
            return ""
        return self.text[self.starts[line]:self.ends[line]]

    def line_count(self) -> int:
        return len(self.starts)

    def units(self, start: int, end: int) -> int:
        """How many code units the text between two offsets takes."""
        return _units(self.text[start:end], self.encoding)


__all__ = ["Lines"]
