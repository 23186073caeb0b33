"""Warband files (YAML) in the editor: `warband validate`'s diagnostics as you type, the card of a
fighter on hovering its class, the class's declaration one jump away, and `warband fmt`.

The JSON Schema (schemas/, or the modeline a warband file carries) already gives an editor's YAML
support completion and the shape of a file; it cannot express the army rules (points, sizes,
quotas, the ruleset's own `require` rules), which validation runs. The ruleset a file names is
found and read as the command line finds it (relative to the file, only a `.rules` file).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from lsprotocol import types

from warband import catalog
from warband.diagnostics import Span
from warband.lang.ruleset import Ruleset
from warband.lists import roster as roster_model
from warband.lists.fmt import format_source
from warband.lists.render_roster import md_cell, md_code
from warband.lists.validate import FileResult, Validation
from warband.lists.warband_file import FIGHTERS, Source, span_at
from warband.lists.yamlload import load_yaml
from warband.lsp.analysis import file_name, path_of
from warband.lsp.positions import Lines
from warband.lsp.problems import Places

_WARBAND_KEY = re.compile(r"^(?:ruleset|fighters)[ \t]*:", re.MULTILINE)


def is_warband(text: str) -> bool:
    """Whether a YAML text is a warband file (any other YAML the editor opens is left alone)."""
    return _WARBAND_KEY.search(text) is not None


@dataclass
class YamlAnalysis:
    uri: str
    path: Path | None
    version: int | None
    name: str
    text: str
    lines: Lines
    result: FileResult
    validation: Validation

    @property
    def base(self) -> Path:
        return self.path.parent if self.path is not None else Path(".")


def analyse_yaml(text: str, uri: str, path: Path | None, version: int | None,
                 encoding: str = types.PositionEncodingKind.Utf16) -> YamlAnalysis:
    name = file_name(path, uri)
    validation = Validation()
    base = path.parent if path is not None else Path(".")
    raw = text.encode("utf-8", "replace")
    result = validation.source(Source(name, raw, base))
    return YamlAnalysis(uri, path, version, name, text, Lines(text, encoding), result,
                        validation)


def places(analysis: YamlAnalysis, uri_of) -> Places:
    return Places(analysis.name, analysis.uri, analysis.lines, analysis.validation.sources.texts,
                  uri_of)


# ---- the fighter under the cursor ----------------------------------------------------------------

def _class_at(analysis: YamlAnalysis, position: types.Position) -> tuple[int, str, Span] | None:
    """The fighter whose `class:` value is under the cursor: its index, class and span."""
    loaded = load_yaml(analysis.text.encode("utf-8", "replace"), analysis.name)
    data = loaded.data
    entries = data.get(FIGHTERS) if data is not None else None
    if not isinstance(entries, list):
        return None
    offset = analysis.lines.offset_at(position)
    for i, entry in enumerate(entries):
        if not isinstance(entry, dict) or not isinstance(entry.get("class"), str):
            continue
        span = span_at(data, (FIGHTERS, i, "class"), analysis.name, loaded.text)
        if span is None:
            continue
        start, end = analysis.lines.span_offsets(span)
        if start <= offset <= end:
            return i, entry["class"], span
    return None


def hover(analysis: YamlAnalysis, position: types.Position) -> types.Hover | None:
    found = _class_at(analysis, position)
    ruleset = analysis.result.ruleset
    if found is None or ruleset is None:
        return None
    index, cls, span = found
    card = None
    if analysis.result.warband is not None:
        try:
            model = roster_model.build(analysis.result, analysis.validation.sources)
        except Exception:  # noqa: BLE001 -- a card is a courtesy: the class's words are enough
            model = None
        cards = model["fighters"] if model is not None else []
        if index < len(cards) and cards[index]["class"] == cls:
            card = cards[index]
    text = card_text(card, cls, ruleset)
    if not text:
        return None
    return types.Hover(types.MarkupContent(types.MarkupKind.Markdown, text),
                       analysis.lines.span_range(span))


def card_text(card: dict | None, cls: str, ruleset: Ruleset) -> str:
    """A fighter's card as markdown: its class, stats, traits, equipment, cost, actions and
    problems; without a card (an entry too broken to read), the class as the rules declare it."""
    declared = ruleset.classes.get(cls)
    parts = []
    if card is not None:
        head = f"**{md_cell(card['name'])}**"
        if card["count"] > 1:
            head += f" × {card['count']}"
        head += f" · {md_cell(cls)}"
        if card.get("tier"):
            head += f" ({md_cell(card['tier'])})"
        if card.get("points_text"):
            head += f" · {md_cell(card['points_text'])} points"
        parts.append(head)
        stats = [s for s in card["stats"] if s["value"] not in (None, "")]
        if stats:
            parts.append("| " + " | ".join(md_cell(s["name"]) for s in stats) + " |\n|"
                         + "---|" * len(stats) + "\n| "
                         + " | ".join(md_cell(s["value"]) for s in stats) + " |")
        for title, key in (("traits", "traits"), ("equipment", "equipment")):
            if card[key]:
                parts.append(f"{title}: " + ", ".join(md_cell(x["text"]) for x in card[key]))
        if card["actions"]:
            parts.append("actions: " + ", ".join(md_cell(a["label"]) for a in card["actions"]))
        if card["ticks"]:
            parts.append("track: " + " · ".join(f"{md_cell(t['name'])} {t['row']}"
                                                for t in card["ticks"]))
        for p in card["problems"]:
            parts.append(f"{md_cell(p['severity'])}: {md_cell(p['text'])}")
    elif declared is not None:
        parts.append(f"{md_code(cls)}: a class of {md_code(ruleset.id)}")
        if declared.tier:
            parts.append(f"tier: {md_cell(declared.tier)}")
        if declared.traits:
            parts.append("traits: " + ", ".join(md_cell(t) for t, _ in declared.traits))
        if declared.equipment:
            parts.append("equipment: " + ", ".join(md_cell(e) for e in declared.equipment))
    if declared is not None and declared.doc:
        parts.append(f"*{md_cell(declared.doc)}*")
    return "\n\n".join(parts)


def _on_ruleset(analysis: YamlAnalysis, position: types.Position) -> str | None:
    """The `ruleset:` value under the cursor, if it is."""
    loaded = load_yaml(analysis.text.encode("utf-8", "replace"), analysis.name)
    data = loaded.data
    if data is None or not isinstance(data.get("ruleset"), str):
        return None
    span = span_at(data, ("ruleset",), analysis.name, loaded.text)
    if span is None:
        return None
    start, end = analysis.lines.span_offsets(span)
    return data["ruleset"] if start <= analysis.lines.offset_at(position) <= end else None


def definition(analysis: YamlAnalysis, position: types.Position,
               where: Places) -> list[types.Location]:
    """From the `ruleset:` to the rules file, from a fighter's class to the class's declaration
    in the rules."""
    ref = _on_ruleset(analysis, position)
    if ref is not None:   # found as validation finds it: relative to the file, a .rules only
        resolved = catalog.resolve(ref, catalog.rulesets(), analysis.base,
                                   suffixes=catalog.RULES_SUFFIXES)
        uri = where.uri_of(catalog.display_path(resolved.path)) if resolved.path else None
        return [types.Location(uri, types.Range(types.Position(0, 0), types.Position(0, 0)))] \
            if uri is not None else []
    found = _class_at(analysis, position)
    ruleset = analysis.result.ruleset
    if found is None or ruleset is None:
        return []
    declared = ruleset.classes.get(found[1])
    if declared is None:
        return []
    file = declared.span.file
    if file not in where.texts:
        path = path_of(file)
        text = catalog.read_rules(path) if path is not None else None
        if not isinstance(text, str):
            return []
        where.texts[file] = text
    loc = where.location(declared.span)
    return [loc] if loc is not None else []


# ---- formatting ----------------------------------------------------------------------------------

def formatting(analysis: YamlAnalysis) -> list[types.TextEdit]:
    """`warband fmt`'s layout, as one edit of the whole text (none when it is already so, or
    when fmt would leave the file alone: it says why in `warband fmt`'s own words)."""
    raw = analysis.text.encode("utf-8", "replace")
    formatted = format_source(Source(analysis.name, raw, analysis.base))
    if formatted.text is None or not formatted.changed:
        return []
    lines = analysis.lines
    return [types.TextEdit(lines.range(0, len(analysis.text)), formatted.text)]


__all__ = ["YamlAnalysis", "analyse_yaml", "card_text", "definition", "formatting", "hover",
           "is_warband", "places"]
