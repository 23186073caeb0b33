"""Semantic tokens: the colour of each name by what it names, which no grammar can tell.

To a TextMate grammar (editors/warband-rules.tmLanguage.json) the names of a stat, a class, a
trait and a parameter are all words. Resolved by the compiler, each gets the protocol's
standard token type for its kind, so that any theme colours them, and the modifiers
`declaration` (where it is declared) and `defaultLibrary` (a word of the language: `min`,
`distance`, a fighter's `side`, the type `number`).
"""

from __future__ import annotations

from lsprotocol import types

from warband.lsp.analysis import RulesAnalysis
from warband.lsp.index import Occurrence

TOKEN_TYPES = ["class", "property", "interface", "typeParameter", "enum", "enumMember",
               "struct", "function", "method", "namespace", "variable", "parameter", "event",
               "type"]
TOKEN_MODIFIERS = ["declaration", "readonly", "defaultLibrary"]
LEGEND = types.SemanticTokensLegend(TOKEN_TYPES, TOKEN_MODIFIERS)

_TYPE_OF_KIND = {
    "class": "class", "stat": "property", "profile": "property", "flag": "property",
    "counter": "property", "trait": "interface", "tier": "typeParameter", "enum": "enum",
    "outcomes": "enum", "enum member": "enumMember", "outcome": "enumMember",
    "option": "enumMember", "equipment": "struct", "marker": "struct", "table": "function",
    "define": "function", "procedure": "function", "cost": "function", "action": "method",
    "phase": "method", "scenario": "namespace", "side name": "variable", "zone": "variable",
    "parameter": "parameter", "local": "variable", "decision": "event",
}
_TYPE_OF_BUILTIN = {"function": "function", "type": "type", "field": "property",
                    "group": "variable"}
_READONLY = {"side name", "zone"}


def _token(o: Occurrence) -> tuple[int, int] | None:
    """The token type's index and the modifiers' bits of an occurrence."""
    if o.declared is None:
        name = _TYPE_OF_BUILTIN.get(o.builtin or "")
        bits = 1 << TOKEN_MODIFIERS.index("defaultLibrary")
    else:
        name = _TYPE_OF_KIND.get(o.declared.kind)
        bits = (1 << TOKEN_MODIFIERS.index("declaration")) if o.is_declaration else 0
        if o.declared.kind in _READONLY:
            bits |= 1 << TOKEN_MODIFIERS.index("readonly")
    if name is None:
        return None
    return TOKEN_TYPES.index(name), bits


def semantic_tokens(analysis: RulesAnalysis) -> types.SemanticTokens:
    """Every name of the document, as the protocol's relative encoding: five numbers a token
    (line and start from the one before, length, type, modifiers), in the document's order."""
    data: list[int] = []
    line = start = 0
    last_end = (-1, -1)
    for o in analysis.index.in_file(analysis.name):
        token = _token(o)
        if token is None or o.span.end_line != o.span.line:
            continue
        first, end = analysis.lines.span_offsets(o.span)
        if end <= first:
            continue
        where = analysis.lines.position(first)
        length = analysis.lines.units(first, end)
        if (where.line, where.character) < last_end or "\n" in analysis.text[first:end] \
                or "\r" in analysis.text[first:end]:
            continue   # overlapping or broken: never sent (tokens must not overlap)
        data += [where.line - line, where.character - (start if where.line == line else 0),
                 length, *token]
        line, start = where.line, where.character
        last_end = (where.line, where.character + length)
    return types.SemanticTokens(data=data)


__all__ = ["LEGEND", "TOKEN_MODIFIERS", "TOKEN_TYPES", "semantic_tokens"]
