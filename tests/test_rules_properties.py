"""Property tests for the rules compiler: whatever the text, compiling it never raises, and every
diagnostic points inside the text. Inputs are mutations of the shipped rules (the realistic
case: a half-edited file) and random text built from the language's own words."""

from __future__ import annotations

from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from warband.lang.compiler import compile_text

ROOT = Path(__file__).resolve().parents[1]
SHIPPED = sorted((ROOT / "dsl").glob("*.rules"))
TEXTS = [p.read_text(encoding="utf-8") for p in SHIPPED]

WORDS = ["ruleset", "stat", "class", "trait", "table", "when", "otherwise", "=>", "define",
         "procedure", "action", "let", "set", "if", "else", "choose", "option", "return",
         "army", "quota", "tier", "at", "least", "most", "{", "}", "(", ")", ",", ".", "=",
         "==", ">=", "+", "-", "*", "/", "3d6", "d20", "drop", "lowest", "1", "17", "x", "f",
         "Might", "fighter", '"text"', "\n", " ", "..", "count", "even", "in", "from", "by"]


def assert_well_located(text: str) -> None:
    compiled = compile_text(text, "fuzz.rules")
    lines = text.split("\n")
    for d in compiled.diagnostics:
        assert d.span is not None, d
        # a shipped house-rules file extends another: its base's lines may be reported too
        assert d.span.file in compiled.sources.texts, d
        if d.span.file != "fuzz.rules":
            lines = compiled.sources.texts[d.span.file].split("\n")
        assert 1 <= d.span.line <= len(lines) + 1, d
        lines = text.split("\n")
        assert d.span.column >= 1, d
        assert d.message and d.message[0].islower() or not d.message[0].isalpha(), d.message


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_mutated_shipped_rules_never_crash(data):
    text = data.draw(st.sampled_from(TEXTS))
    for _ in range(data.draw(st.integers(1, 4))):
        at = data.draw(st.integers(0, len(text)))
        action = data.draw(st.sampled_from(["delete", "insert", "duplicate"]))
        if action == "delete":
            end = data.draw(st.integers(at, min(len(text), at + 40)))
            text = text[:at] + text[end:]
        elif action == "insert":
            text = text[:at] + data.draw(st.sampled_from(WORDS)) + text[at:]
        else:
            end = data.draw(st.integers(at, min(len(text), at + 80)))
            text = text[:end] + text[at:end] + text[end:]
    assert_well_located(text)


@settings(max_examples=80, deadline=None)
@given(st.lists(st.sampled_from(WORDS), max_size=60))
def test_random_token_soup_never_crashes(words):
    assert_well_located('ruleset "fuzz"\n' + " ".join(words))


@settings(max_examples=40, deadline=None)
@given(st.text(max_size=200))
def test_random_text_never_crashes(text):
    assert_well_located(text)
