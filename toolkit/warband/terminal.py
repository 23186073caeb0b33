"""What the toolkit shows on a terminal: whether in colour, and tables that never cut a name.

Colour: as warband/colour.py decides it (a terminal, NO_COLOR, FORCE_COLOR), in a module of its
own so that asking needs no rich.

Tables: an id, a path or a number is never cut ('swords-against-sor…' is no id a user can
type, and `warband rules list | grep ID` must find it). Rich cuts a cell whose column is too
narrow, so every table is printed by `WholeConsole`: a column whose cells are single words (ids,
paths, numbers) does not wrap and is as wide as its longest cell; columns of text (names,
descriptions) wrap between words; and when even that does not fit the terminal, the table is
printed wider than the terminal (which folds the long lines) rather than cut.
"""

from __future__ import annotations

import sys
from typing import IO, Any

from rich.console import Console
from rich.measure import Measurement
from rich.table import Table
from rich.text import Text

from warband.colour import colour_wanted   # (here too, as it always was)

# Wide enough for any table's narrowest layout to be measured, not clipped by the terminal.
_MEASURE_WIDTH = 100_000


def _cell_text(cell: Any) -> str | None:
    if isinstance(cell, Text):
        return cell.plain
    if isinstance(cell, str):   # rich reads a str cell as markup
        try:
            return Text.from_markup(cell).plain
        except Exception:   # not markup after all (rich says so when it prints it)
            return cell
    return None


# When a table is wider than the terminal anyway (its ids and paths alone are), a column of text
# gets this many characters, rather than being squeezed to its longest word.
_ROOMY_TEXT = 30


def keep_whole(table: Table) -> int:
    """Mark the columns of one-word cells (ids, paths, numbers) as never wrapped and never
    narrower than their longest cell; let the other columns wrap between words, never narrower
    than their longest word (folded, never cut, if rich squeezes them). Called by WholeConsole
    on every table. Returns the room the text columns would take beyond their longest words to
    be _ROOMY_TEXT wide (at most their longest text)."""
    slack = 0
    for column in table.columns:
        texts = [_cell_text(cell) for cell in column.cells]
        header = _cell_text(column.header) or ""
        header_words = [Text(word).cell_len for word in header.split()] or [0]
        if any(text is None for text in texts):   # a cell that is no text: left as it is
            continue
        words = [text for text in texts if text]
        if all(len(text.split()) <= 1 for text in words):   # ids, paths, numbers
            longest = max([Text(header).cell_len] + [Text(text).cell_len for text in words])
            column.no_wrap = True
        else:   # text: wrapped between words, none cut (a name in a sentence is an id too)
            longest = max(header_words +
                          [Text(word).cell_len for text in words for word in text.split()])
            widest = max(Text(text).cell_len for text in words)
            slack += max(0, min(widest, _ROOMY_TEXT) - max(longest, column.min_width or 0))
        column.min_width = max(column.min_width or 0, longest)
        column.overflow = "fold"
    return slack


def needed_width(console: Console, table: Table) -> int:
    """The narrowest width `table` can be printed in without cutting a word."""
    options = console.options.update_width(_MEASURE_WIDTH)
    return Measurement.get(console, options, table).minimum


class WholeConsole(Console):
    """A rich Console whose tables never cut an id (see the module's docstring)."""

    def print(self, *objects: Any, **kwargs: Any) -> None:
        tables = [o for o in objects if isinstance(o, Table)]
        width = self.width
        for table in tables:
            slack = keep_whole(table)
            needed = needed_width(self, table)
            if needed > self.width:   # past the terminal anyway: text need not be squeezed
                width = max(width, needed + slack)
        # rich may still squeeze a column below its longest word while it shares out the width,
        # then widen it again: the line runs past the width, and is not cropped
        if tables:
            kwargs.setdefault("crop", False)
        if width <= self.width:
            super().print(*objects, **kwargs)
            return
        before = self.width
        self.width = width   # wider than the terminal, which folds the line: never a cut id
        try:
            super().print(*objects, **kwargs)
        finally:
            self.width = before


def wrap(line: str, width: int, indent: str | None = None) -> str:
    """One line of prose wrapped between words to `width`, its further lines indented by
    `indent` (else by the line's own indentation and two spaces). A word longer than the width
    (an id, a path) is kept whole, past the edge, never split."""
    if len(line) <= width:
        return line
    import textwrap   # lazily: only a line too long for the terminal
    lead = line[:len(line) - len(line.lstrip(" "))]
    return "\n".join(textwrap.wrap(line, width, subsequent_indent=lead + "  " if indent is None
                                   else indent, break_long_words=False,
                                   break_on_hyphens=False)) or line


def console(file: IO[str] | None = None, *, colour: bool | None = None,
            width: int | None = None, soft_wrap: bool = True, **kwargs: Any) -> WholeConsole:
    """A console for a command's output: coloured as `colour_wanted` says (unless `colour` is
    given), tables printed whole. Without `width`, the terminal's (COLUMNS, else 80 when not a
    terminal)."""
    if colour is None:
        colour = colour_wanted(file or sys.stdout)
    kwargs.setdefault("color_system", "auto" if colour else None)
    return WholeConsole(file=file, width=width, force_terminal=colour, no_color=not colour,
                        soft_wrap=soft_wrap, **kwargs)


__all__ = ["WholeConsole", "colour_wanted", "console", "keep_whole", "needed_width", "wrap"]
