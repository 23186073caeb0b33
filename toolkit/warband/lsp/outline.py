"""The outline of a rules file (its declarations, with an enum's values and a scenario's sides
and zones under them) and the ranges an editor may fold.

The outline is the compiler's: a declaration with a syntax error is missing from it until it
reads again. Folding does not wait for the text to read: braces are matched in the text itself
(strings and comments skipped), so a block being typed still folds; declarations that span lines
without braces, and runs of comment lines, fold too.
"""

from __future__ import annotations

import re

from lsprotocol import types

from warband.lang import nodes
from warband.lang.symbols import declaration_kind
from warband.lsp.analysis import RulesAnalysis

_SYMBOL_KINDS = {
    "stat": types.SymbolKind.Property, "profile": types.SymbolKind.Property,
    "flag": types.SymbolKind.Field, "counter": types.SymbolKind.Field,
    "enum": types.SymbolKind.Enum, "outcomes": types.SymbolKind.Enum,
    "tier": types.SymbolKind.TypeParameter, "trait": types.SymbolKind.Interface,
    "class": types.SymbolKind.Class, "equipment": types.SymbolKind.Struct,
    "table": types.SymbolKind.Array, "define": types.SymbolKind.Function,
    "procedure": types.SymbolKind.Function, "action": types.SymbolKind.Method,
    "phase": types.SymbolKind.Event, "marker": types.SymbolKind.Struct,
    "scenario": types.SymbolKind.Module,
    "event": types.SymbolKind.Event,   # events (run/events.py)
}
# strings (one line or three quotes), comments, braces: what brace matching must see or skip
_BRACES = re.compile(r'"""(?:.|\n)*?(?:"""|\Z)|"(?:\\.|[^"\\\n])*"?|#[^\n]*|[{}]')
_COMMENT_LINE = re.compile(r"^[ \t]*#", re.MULTILINE)
_DETAIL = 80   # characters of a declaration's description an outline shows


def _kind(decl: object) -> str:
    try:
        return declaration_kind(decl)  # type: ignore[arg-type]
    except TypeError:
        return "army" if isinstance(decl, nodes.ArmyDecl) else "conversion"


def _own(analysis: RulesAnalysis) -> list[object]:
    """The document's own declarations, in its order (the module holds its bases' too)."""
    module = analysis.stages.module
    if module is None:
        return []
    out = []
    for decl in module.decls:
        if isinstance(decl, nodes.OverrideDecl):   # only when the base could not be had
            decl = decl.decl
        if isinstance(decl, nodes.RemoveDecl) or decl.span.file != analysis.name:
            continue
        out.append(decl)
    return sorted(out, key=lambda d: (d.span.line, d.span.column))  # type: ignore[attr-defined]


def _detail(doc: object, words: str) -> str:
    if isinstance(doc, str) and doc.strip():
        text = " ".join(doc.split())
        return text if len(text) <= _DETAIL else text[:_DETAIL - 1] + "…"
    return words


def document_symbols(analysis: RulesAnalysis) -> list[types.DocumentSymbol]:
    lines = analysis.lines
    out = []
    for decl in _own(analysis):
        kind = _kind(decl)
        span = decl.span  # type: ignore[attr-defined]
        name_ident = getattr(decl, "name", None)
        if isinstance(decl, nodes.ArmyDecl):
            name, selection = "army", span
        elif isinstance(decl, nodes.ConversionDecl):
            name, selection = f"conversion from {decl.source} to {decl.target}", span
        elif isinstance(name_ident, nodes.Ident):
            name, selection = name_ident.name, name_ident.span
        else:
            continue
        children = []
        if isinstance(decl, (nodes.EnumDecl, nodes.OutcomesDecl)):
            children = [_symbol(lines, m.name.name, types.SymbolKind.EnumMember, m.span,
                                m.name.span, _detail(m.doc, "")) for m in decl.members]
        elif isinstance(decl, nodes.ScenarioDecl):
            children = [_symbol(lines, s.name.name, types.SymbolKind.Constant, s.span,
                                s.name.span, _detail(s.doc, "a side"))
                        for s in decl.sides]
            children += [_symbol(lines, z.name.name, types.SymbolKind.Constant, z.span,
                                 z.name.span, _detail(z.doc, "a zone"))
                         for z in decl.zones]
            children += [_symbol(lines, e.name.name, types.SymbolKind.Event, e.span,
                                 e.name.span, _detail(e.doc, "an event"))
                         for e in decl.events]   # the scenario's own events
        symbol = _symbol(lines, name, _SYMBOL_KINDS.get(kind, types.SymbolKind.Namespace),
                         span, selection, _detail(getattr(decl, "doc", None), kind))
        symbol.children = [c for c in children if _inside(c.range, symbol.range)] or None
        out.append(symbol)
    return out


def _symbol(lines, name, kind, span, selection, detail) -> types.DocumentSymbol:
    whole = lines.span_range(span)
    chosen = lines.span_range(selection)
    if not _inside(chosen, whole):
        chosen = whole
    return types.DocumentSymbol(name or "?", kind, whole, chosen, detail=detail or None)


def _inside(inner: types.Range, outer: types.Range) -> bool:
    def at(p: types.Position) -> tuple[int, int]:
        return p.line, p.character
    return at(outer.start) <= at(inner.start) and at(inner.end) <= at(outer.end)


# ---- folding -------------------------------------------------------------------------------------

def folding_ranges(analysis: RulesAnalysis) -> list[types.FoldingRange]:
    lines = analysis.lines
    text = analysis.text
    found: dict[int, types.FoldingRange] = {}

    def add(start_line: int, end_line: int, kind: str | None = None) -> None:
        if end_line > start_line and start_line not in found:
            found[start_line] = types.FoldingRange(start_line, end_line, kind=kind)

    open_at: list[int] = []
    for m in _BRACES.finditer(text):
        token = m.group()
        if token == "{":
            open_at.append(m.start())
        elif token == "}" and open_at:
            start = lines.position(open_at.pop()).line
            # the closing brace's line stays in sight
            add(start, lines.position(m.start()).line - 1)
        elif token.startswith('"""'):   # a description of several lines
            add(lines.position(m.start()).line, lines.position(m.end()).line)
    for decl in _own(analysis):
        span = decl.span  # type: ignore[attr-defined]
        add(lines.span_range(span).start.line, lines.span_range(span).end.line)
    run: list[int] = []
    for m in _COMMENT_LINE.finditer(text):
        line = lines.position(m.start()).line
        if run and line != run[-1] + 1:
            add(run[0], run[-1], types.FoldingRangeKind.Comment)
            run = []
        run.append(line)
    if run:
        add(run[0], run[-1], types.FoldingRangeKind.Comment)
    return sorted(found.values(), key=lambda r: r.start_line)


__all__ = ["document_symbols", "folding_ranges"]
