"""Hover, go to definition, find references and highlights in a rules file, from its index.

A name declared in a base a house file extends, or in a shipped ruleset a scenario extends, leads
there: the compiler merged the base's declarations into the module the index was made from, each
with the span of the file it came from.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable

from lsprotocol import types

from warband import catalog
from warband.diagnostics import Span, printable
from warband.lang import nodes
from warband.lang.symbols import KIND_WORDS
from warband.lang.typesystem import FIGHTER_BUILTINS, SIDE_BUILTINS
from warband.lists.render_roster import md_cell, md_code
from warband.lsp.analysis import RulesAnalysis
from warband.lsp.index import Declared, Occurrence
from warband.lsp.problems import Places

# lines of a declaration a hover shows (a long procedure is shown by its first lines)
HOVER_LINES = 12
LANGUAGE = "warband-rules"   # the editors' language id, for the code in a hover

_LOCAL_WORDS = {"parameter": "a parameter", "local": "a value named with let or a loop",
                "decision": "a decision", "option": "an option of a decision",
                "cost": "a named cost of the army"}
_BUILTIN_WORDS = {"function": "a function of the language", "type": "a type of the language",
                  "group": "a group of the language (every side in the game)",
                  "field": "a field of the language"}


def occurrence_at(analysis: RulesAnalysis, position: types.Position) -> Occurrence | None:
    offset = analysis.lines.offset_at(position)
    line = analysis.text.count("\n", 0, offset) + 1
    column = offset - (analysis.text.rfind("\n", 0, offset) + 1) + 1
    return analysis.index.at(analysis.name, line, column)


def fenced(text: str) -> str:
    """Text as a markdown code block of the rules language, whatever backticks it holds."""
    longest = max((len(run) for run in re.findall(r"`{3,}", text)), default=2)
    fence = "`" * (longest + 1)
    return f"{fence}{LANGUAGE}\n{printable(text, lines=True)}\n{fence}"


def declaration_text(analysis: RulesAnalysis, d: Declared) -> str | None:
    """The lines the declaration is written on, at most HOVER_LINES of them."""
    span: Span | None = getattr(d.node, "span", None)
    source = analysis.source(d.span.file)
    if span is None or source is None:
        return None
    if d.kind in _LOCAL_WORDS and d.kind != "cost":
        # its own line: the whole procedure it belongs to would say too much
        line = source.split("\n")[d.span.line - 1] if d.span.line <= source.count("\n") + 1 \
            else ""
        return line.strip() or None
    lines = source.split("\n")[span.line - 1:span.end_line]
    if not lines:
        return None
    lines[0] = lines[0][span.column - 1:]   # from where the declaration starts
    if len(lines) > HOVER_LINES:
        lines = lines[:HOVER_LINES] + ["  ..."]
    return "\n".join(lines).rstrip()


def _what(d: Declared) -> str:
    words = KIND_WORDS.get(d.kind) or _LOCAL_WORDS.get(d.kind) or d.kind
    if d.kind in ("parameter", "local", "decision") and d.owner:
        words += f" of {md_code(d.owner)}"
    if d.kind in ("enum member", "outcome") and d.owner:
        words += f" of {md_code(d.owner)}"
    if d.type:
        words += f": {md_code(d.type)}"
    return words


def hover_text(analysis: RulesAnalysis, o: Occurrence) -> str:
    if o.declared is None:
        return _builtin_text(analysis, o)
    d = o.declared
    parts = [f"{md_code(d.name)}: {_what(d)}"]
    text = declaration_text(analysis, d)
    if text:
        parts.append(fenced(text))
    doc = getattr(d.node, "doc", None)
    if isinstance(doc, str) and doc.strip() and d.kind not in ("parameter", "local") and \
            (text is None or " ".join(doc.split()) not in " ".join(text.split())):
        parts.append(md_cell(doc))   # a description the lines shown leave out
    if d.span.file != analysis.name:
        parts.append(f"from {md_code(d.span.file)}, line {d.span.line}")
    layering = analysis.stages.layering
    base = layering.overrides.get(d.name) if layering is not None else None
    if base is not None and d.span.file == analysis.name and d.kind not in _LOCAL_WORDS:
        parts.append(f"overrides the base's, {md_code(base.file)} line {base.line}")
    return "\n\n".join(parts)


def _builtin_text(analysis: RulesAnalysis, o: Occurrence) -> str:
    source = analysis.source(o.span.file) or ""
    lines = source.split("\n")
    word = lines[o.span.line - 1][o.span.column - 1:o.span.end_column - 1] \
        if o.span.line <= len(lines) else ""
    what = _BUILTIN_WORDS.get(o.builtin or "", "a word of the language")
    if o.builtin == "field":
        owners = [f"a fighter's ({FIGHTER_BUILTINS[word]})" if word in FIGHTER_BUILTINS else "",
                  f"a side's ({SIDE_BUILTINS[word]})" if word in SIDE_BUILTINS else ""]
        said = " or ".join(x for x in owners if x)
        what = f"a field of the language: {said}" if said else what
    return f"{md_code(word)}: {what}"


def _on_extends(analysis: RulesAnalysis, position: types.Position) -> Span | None:
    """The `extends` line, if the position is on it."""
    module = analysis.stages.module
    header = module.header if module is not None else None
    if header is None or header.extends_span is None or header.extends_span.file != analysis.name:
        return None
    start, end = analysis.lines.span_offsets(header.extends_span)
    return header.extends_span if start <= analysis.lines.offset_at(position) <= end else None


def _bases(analysis: RulesAnalysis) -> list[str]:
    """The files this one is layered on, nearest first."""
    layering = analysis.stages.layering
    files = [file for _, file in layering.layers] if layering is not None else []
    return [file for file in reversed(files) if file != analysis.name]


def hover(analysis: RulesAnalysis, position: types.Position) -> types.Hover | None:
    extends = _on_extends(analysis, position)
    if extends is not None and _bases(analysis):
        base = _bases(analysis)[0]
        header = catalog.read_header(analysis.source(base) or "")
        text = f"extends {md_code(header.id)}: {md_cell(header.title)}" if header else ""
        text += f"\n\n{md_code(base)}" + "".join(f", on {md_code(b)}"
                                                 for b in _bases(analysis)[1:])
        return types.Hover(types.MarkupContent(types.MarkupKind.Markdown, text.strip()),
                           analysis.lines.span_range(extends))
    o = occurrence_at(analysis, position)
    if o is None:
        return None
    return types.Hover(types.MarkupContent(types.MarkupKind.Markdown, hover_text(analysis, o)),
                       analysis.lines.span_range(o.span))


# ---- where names are declared and used --------------------------------------------------------

def definition(analysis: RulesAnalysis, position: types.Position, places: Places,
               ) -> list[types.Location]:
    """Where the name at a place is declared; on a declaration that overrides a base's, the
    base's; on the `extends` line, the base file."""
    if _on_extends(analysis, position) is not None:
        found = [places.location(Span(file, 1, 1)) for file in _bases(analysis)[:1]]
        return [loc for loc in found if loc is not None]
    o = occurrence_at(analysis, position)
    if o is None or o.declared is None:
        return []
    d = o.declared
    layering = analysis.stages.layering
    if o.is_declaration and layering is not None and d.kind not in _LOCAL_WORDS and \
            d.span.file == analysis.name and d.name in layering.overrides:
        target = layering.overrides[d.name]
    else:
        target = d.span
    loc = places.location(target)
    return [loc] if loc is not None else []


def references(analyses: Iterable[RulesAnalysis], analysis: RulesAnalysis,
               position: types.Position, include_declaration: bool,
               places_of: Callable[[RulesAnalysis], Places]) -> list[types.Location]:
    """Every use of the name at a place: in this document and the files it extends, and in the
    other open documents that read the same declaration (a house file open beside its base)."""
    o = occurrence_at(analysis, position)
    if o is None or o.declared is None:
        return []
    key = _key(o.declared.span)
    seen: set[tuple[str, int, int, int, int]] = set()
    out: list[types.Location] = []
    for other in [analysis] + [a for a in analyses if a is not analysis]:
        declared = other.index.declaration_at(o.declared.span)
        if declared is None or _key(declared.span) != key:
            continue
        places = places_of(other)
        spans = [u.span for u in other.index.uses_of(declared) if not u.is_declaration]
        if include_declaration:
            spans.insert(0, declared.span)
        for span in spans:
            loc = places.location(span)
            if loc is None:
                continue
            r = loc.range
            where = (loc.uri, r.start.line, r.start.character, r.end.line, r.end.character)
            if where not in seen:
                seen.add(where)
                out.append(loc)
    return out


def highlights(analysis: RulesAnalysis, position: types.Position,
               ) -> list[types.DocumentHighlight]:
    """The name at a place, wherever it stands in this document: where it is written (its
    declaration, the target of a `set`) and where it is read."""
    o = occurrence_at(analysis, position)
    if o is None or o.declared is None:
        return []
    out = []
    for u in analysis.index.uses_of(o.declared):
        if u.span.file != analysis.name:
            continue
        kind = types.DocumentHighlightKind.Write if u.is_declaration or u.writes else \
            types.DocumentHighlightKind.Read
        out.append(types.DocumentHighlight(analysis.lines.span_range(u.span), kind))
    return out


def _key(span: Span) -> tuple[str, int, int]:
    return span.file, span.line, span.column


def anchor(module: nodes.Module | None) -> Span | None:
    """Where diagnostics about the files a module reads are shown: its `extends` line (or its
    header)."""
    if module is None or module.header is None:
        return None
    return module.header.extends_span or module.header.span


__all__ = [
    "anchor",
    "declaration_text",
    "definition",
    "fenced",
    "highlights",
    "hover",
    "hover_text",
    "occurrence_at",
    "references",
]
