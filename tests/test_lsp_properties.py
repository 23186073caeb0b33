"""The language server never fails on half-typed text: random edits to the shipped rules files,
then every feature asked at random places; every answer must be a valid protocol value (it goes
through lsprotocol's converter both ways) with places inside the text, and nothing may raise.

The features are called as the server calls them, in this process (a server over stdio for each
example would test the pipe, not the features; tests/test_lsp.py drives the pipe).
"""

from __future__ import annotations

from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from lsprotocol import types
from lsprotocol.converters import get_converter

from warband import catalog
from warband.lsp import completion, fixes, navigation, outline, tokens
from warband.lsp.analysis import RulesAnalysis, analyse
from warband.lsp.positions import Lines
from warband.lsp.problems import Places, to_editor
from warband.lsp.server import uri_of

FILES = sorted(catalog.RULES_DIR.glob("*.rules")) + sorted(catalog.SCENARIO_DIR.glob("*.rules"))
TEXTS = {path: path.read_text(encoding="utf-8") for path in FILES}
# what a person typing rules types, and what a stranger's file may hold
PIECES = ["let ", "set ", "f.", "f.Might", ".", "..", "{", "}", "(", ")", '"', '"""', "#", "\n",
          "  ", "if ", "then ", "else ", "return ", "choose x by f {", "option a", "class ",
          "stat ", "procedure p(", "extends ", "override ", "remove trait ", "=", "+=", "->",
          "3d6", "pool 2d6", "é", "😀", "\r", "\r\n", "\u2028", "\t", "x", "Soldier", "Might",
          "\\", "\x00", "ruleset \"x\"\n"]
CONVERTER = get_converter()


def budget(examples: int):
    """`examples` per property; the large profile's count under --budget large (conftest.py,
    docs/robustness.md)."""
    if settings.get_current_profile_name() == "large":
        return settings(settings.get_profile("large"))
    return settings(max_examples=examples, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])


@st.composite
def edited(draw) -> tuple[Path, str]:
    path = draw(st.sampled_from(FILES))
    text = TEXTS[path]
    for _ in range(draw(st.integers(1, 4))):
        at = draw(st.integers(0, len(text)))
        cut = draw(st.integers(0, 30))
        typed = "".join(draw(st.lists(st.sampled_from(PIECES), max_size=4)))
        text = text[:at] + typed + text[at + cut:]
    return path, text


def positions(lines: Lines) -> st.SearchStrategy[types.Position]:
    """Places in the text, and a few just past it (a client may send those)."""
    def at(line: int, column: int) -> types.Position:
        return types.Position(line, column)
    return st.builds(at, st.integers(0, lines.line_count()), st.integers(0, 200))


def valid(value: object, kind: object) -> None:
    """The value converts to the protocol's JSON and back (what the client will receive)."""
    CONVERTER.structure(CONVERTER.unstructure(value), kind)


def inside(lines: Lines, r: types.Range) -> None:
    for p in (r.start, r.end):
        assert 0 <= p.line < lines.line_count(), r
        assert 0 <= p.character <= lines.units(lines.starts[p.line], lines.ends[p.line]), r
    assert (r.start.line, r.start.character) <= (r.end.line, r.end.character), r


def check_document(a: RulesAnalysis) -> None:
    places = Places(a.name, a.uri, a.lines, a.compiled.sources.texts, uri_of)
    found = to_editor(a.diagnostics, places, navigation.anchor(a.stages.module))
    valid(found, list[types.Diagnostic])
    for d in found:
        inside(a.lines, d.range)
    valid(fixes.quick_fixes(a.uri, a.lines, found), list[types.CodeAction])
    symbols = outline.document_symbols(a)
    valid(symbols, list[types.DocumentSymbol])
    for s in symbols:
        inside(a.lines, s.range)
        inside(a.lines, s.selection_range)
        for child in s.children or []:
            inside(a.lines, child.range)
    folds = outline.folding_ranges(a)
    valid(folds, list[types.FoldingRange])
    assert all(0 <= f.start_line < f.end_line < a.lines.line_count() for f in folds)
    data = tokens.semantic_tokens(a).data
    assert len(data) % 5 == 0
    line = column = 0
    for i in range(0, len(data), 5):
        delta_line, delta_start, length, kind, _ = data[i:i + 5]
        assert delta_line >= 0 and length > 0 and 0 <= kind < len(tokens.TOKEN_TYPES)
        assert delta_line > 0 or i == 0 or delta_start > 0
        line, column = line + delta_line, (column + delta_start if delta_line == 0
                                           else delta_start)
        assert column + length <= a.lines.units(a.lines.starts[line], a.lines.ends[line])


def check_place(a: RulesAnalysis, position: types.Position) -> None:
    places = Places(a.name, a.uri, a.lines, a.compiled.sources.texts, uri_of)
    shown = navigation.hover(a, position)
    valid(shown, types.Hover | None)
    if shown is not None and shown.range is not None:
        inside(a.lines, shown.range)
    valid(navigation.definition(a, position, places), list[types.Location])
    valid(navigation.references([a], a, position, True, lambda _: places),
          list[types.Location])
    for h in navigation.highlights(a, position):
        inside(a.lines, h.range)


@budget(25)
@given(st.data())
def test_every_feature_answers_validly_whatever_was_typed(data):
    path, text = data.draw(edited())
    a = analyse(text, path.as_uri(), path, 1)
    check_document(a)
    for position in data.draw(st.lists(positions(a.lines), min_size=1, max_size=3)):
        check_place(a, position)


@budget(15)
@given(st.data())
def test_completion_answers_validly_whatever_was_typed(data):
    path, text = data.draw(edited())
    a = analyse(text, path.as_uri(), path, 1)
    position = data.draw(positions(a.lines))
    valid(completion.complete(a, position, None), types.CompletionList)


@budget(200)
@given(st.text(alphabet=st.sampled_from(["a", "é", "😀", "\n", "\r", "\u2028", "\t"]),
               max_size=40), st.integers(0, 50))
def test_places_go_to_the_editor_and_back(text, offset):
    for encoding in ("utf-8", "utf-16", "utf-32"):
        lines = Lines(text, encoding)
        offset = min(offset, len(text))
        position = lines.position(offset)
        back = lines.offset_at(position)
        # the same place, unless the offset is inside a line break (between \r and \n), which
        # is its line's end; or inside a character of several units, which no editor sends
        assert back == offset or text[back:offset] in ("\r", "")
