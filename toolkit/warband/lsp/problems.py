"""The compiler's diagnostics as an editor shows them: the same codes and words, under the text.

Each keeps its code and severity; a hint becomes related information at the diagnostic's own
place (or a line of the message, for a client that cannot show related information), and its
related places stay related places. A diagnostic about another file (a base a house file
extends, a warband's ruleset) is shown where this file leads there (its `extends` line, its
`ruleset:` key), saying where it is, with that place as related information. As in the
terminal's report, at most MAX_SHOWN_PER_FILE are shown, and the rest are counted.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from lsprotocol import types

from warband.diagnostics import Diagnostic, Severity, Span, printable, shown_text
from warband.limits import MAX_SHOWN_PER_FILE
from warband.lsp.positions import Lines

SOURCE = "warband"
_SEVERITY = {Severity.ERROR: types.DiagnosticSeverity.Error,
             Severity.WARNING: types.DiagnosticSeverity.Warning,
             Severity.NOTE: types.DiagnosticSeverity.Information}
# codes an editor greys out rather than underlines: what the rules declare and never use
_UNNECESSARY = {"W101", "W102"}


class Places:
    """Where a span is, as a Location: the document's own through its Lines, another file's
    through the text the compilation read of it."""

    def __init__(self, name: str, uri: str, lines: Lines, texts: dict[str, str],
                 uri_of: Callable[[str], str | None]) -> None:
        self.name, self.uri, self.lines = name, uri, lines
        self.texts, self.uri_of = texts, uri_of
        self._lines: dict[str, Lines] = {name: lines}

    def lines_of(self, file: str) -> Lines | None:
        found = self._lines.get(file)
        if found is None and file in self.texts:
            found = self._lines[file] = Lines(self.texts[file], self.lines.encoding)
        return found

    def location(self, span: Span) -> types.Location | None:
        uri = self.uri if span.file == self.name else self.uri_of(span.file)
        lines = self.lines_of(span.file)
        if uri is None or lines is None:
            return None
        return types.Location(uri, lines.span_range(span))


def to_editor(diagnostics: Sequence[Diagnostic], places: Places, anchor: Span | None, *,
              related_ok: bool = True) -> list[types.Diagnostic]:
    """The document's diagnostics for the editor. `anchor`: where a diagnostic about another
    file (or about no place) is shown; `related_ok`: the client shows related information."""
    out: list[types.Diagnostic] = []
    first_line = places.lines.range(0, len(places.lines.line_text(0)))
    for d in diagnostics:
        if len(out) == MAX_SHOWN_PER_FILE:
            more = len(diagnostics) - MAX_SHOWN_PER_FILE
            out.append(types.Diagnostic(
                first_line, f"... and {more:,} more problems in this file (warband rules check "
                            "lists them all)",
                severity=types.DiagnosticSeverity.Information, source=SOURCE))
            break
        out.append(_one(d, places, anchor, related_ok, first_line))
    return out


def _one(d: Diagnostic, places: Places, anchor: Span | None, related_ok: bool,
         first_line: types.Range) -> types.Diagnostic:
    message = shown_text(d.message)
    related: list[types.DiagnosticRelatedInformation] = []
    here = None
    if d.span is not None and d.span.file == places.name:
        where = places.lines.span_range(d.span)
        here = types.Location(places.uri, where)
    else:
        where = places.lines.span_range(anchor) if anchor is not None else first_line
        if d.span is not None:
            message = f"{printable(str(d.span))}: {message}"
            elsewhere = places.location(d.span)
            if elsewhere is not None:
                related.append(types.DiagnosticRelatedInformation(elsewhere, "here"))
    if not related_ok:   # the client shows only the message: it says everything
        for r in d.related:
            message += f"\n{printable(str(r.span))}: {shown_text(r.message)}"
        if d.hint:
            message += f"\nhint: {shown_text(d.hint)}"
        related = []
    else:
        if d.hint:
            related.append(types.DiagnosticRelatedInformation(
                here or types.Location(places.uri, where), f"hint: {shown_text(d.hint)}"))
        for r in d.related:
            found = places.location(r.span)
            if found is not None:
                related.append(types.DiagnosticRelatedInformation(found, shown_text(r.message)))
            else:   # a place in no file the editor can open
                message += f"\n{printable(str(r.span))}: {shown_text(r.message)}"
    return types.Diagnostic(
        where, message, severity=_SEVERITY[d.severity], code=d.code, source=SOURCE,
        related_information=related or None,
        tags=[types.DiagnosticTag.Unnecessary] if d.code in _UNNECESSARY else None)


__all__ = ["SOURCE", "Places", "to_editor"]
