"""A broken file is read declaration by declaration, and each piece that reads is kept for its
text and place (lang/parser.py): the language server parses a file at every keystroke, and all
pieces but the one being typed are the same. What is kept must be what a fresh parse gives."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from warband import catalog
from warband.lang import parser
from warband.lang.parser import parse

FILES = sorted(catalog.RULES_DIR.glob("*.rules")) + sorted(catalog.SCENARIO_DIR.glob("*.rules"))
TEXTS = [path.read_text(encoding="utf-8") for path in FILES]
PIECES = ["let ", "{", "}", "(", ")", '"', "#", "\n", "if ", "=", "f.", "class ", "stat ", "x",
          "\t", "\r", 'ruleset "y"\n', "override ", "remove ", "é"]


def summary(text: str) -> tuple:
    module, diagnostics = parse(text, "piece.rules")
    found = [(d.code, d.message, d.span, d.hint, d.related) for d in diagnostics]
    if module is None:
        return None, found
    decls = [(type(d).__name__, getattr(getattr(d, "name", None), "name", None), d.span)
             for d in module.decls]
    header = module.header.span if module.header is not None else None
    return (header, decls, module.partial, sorted(module.unreadable)), found


@st.composite
def broken(draw) -> str:
    text = draw(st.sampled_from(TEXTS))
    for _ in range(draw(st.integers(1, 3))):
        at = draw(st.integers(0, len(text)))
        cut = draw(st.integers(0, 20))
        text = text[:at] + "".join(draw(st.lists(st.sampled_from(PIECES), max_size=3))) + \
            text[at + cut:]
    return text


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(broken(), st.integers(0, 10_000), st.sampled_from(PIECES))
def test_kept_pieces_give_what_a_fresh_parse_gives(text, at, typed):
    at = min(at, len(text))
    edited = text[:at] + typed + text[at:]     # the next keystroke
    parse(text, "piece.rules")                 # what the keystroke before left kept
    kept = summary(edited)
    parser._read_piece.cache_clear()
    assert summary(edited) == kept


def test_a_piece_is_read_once_while_it_stays_the_same():
    text = TEXTS[FILES.index(catalog.RULES_DIR / "super-simple-skirmish.rules")]
    broken_text = text.replace("let result = dice", "let result = = dice")
    parser._read_piece.cache_clear()
    parse(broken_text, "piece.rules")
    read = parser._read_piece.cache_info().misses
    again = broken_text.replace("let result = = dice", "let result = = dic")
    parse(again, "piece.rules")
    assert parser._read_piece.cache_info().misses == read + 1   # the piece being typed only
