"""Tests for warband.lists.yamlload: every bad input is a positioned diagnostic, never a traceback."""

from __future__ import annotations

import time
import tracemalloc
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from warband.diagnostics import Severity, Span
from warband.limits import MAX_YAML_BYTES as MAX_BYTES
from warband.limits import MAX_YAML_DEPTH as MAX_DEPTH
from warband.lists.yamlload import load_yaml, position_of

CASES = Path(__file__).parent / "yaml_cases"

def load(source: str | bytes, name: str = "w.yaml"):
    raw = source if isinstance(source, bytes) else source.encode("utf-8")
    return load_yaml(raw, name)


def only(loaded):
    """The single diagnostic of a failed load, checked for the shared conventions."""
    assert loaded.data is None
    assert len(loaded.diagnostics) == 1, loaded.diagnostics
    d = loaded.diagnostics[0]
    assert d.is_error and d.span is not None and d.hint
    assert d.message[:1] == d.message[:1].lower() and not d.message.endswith(".")
    return d


def where(d) -> tuple[str, int, int]:
    return d.code, d.span.line, d.span.column


# --- valid input and positions -------------------------------------------------------------

def test_valid_file_loads_with_positions():
    loaded = load((CASES / "valid.yaml").read_bytes(), "valid.yaml")
    assert loaded.diagnostics == ()
    data = loaded.data
    assert data["fighters"][1]["might"] == 4
    assert loaded.text.startswith("# A small")

    def at(path, **kw):
        span = position_of(data, path, "valid.yaml", **kw)
        return span.line, span.column

    assert at(()) == (2, 1)
    assert at(("name",), key=True) == (2, 1)
    assert at(("name",)) == (2, 7)
    assert at(("fighters",), key=True) == (4, 1)
    assert at(("fighters", 1)) == (7, 5)
    assert at(("fighters", 1, "might")) == (8, 12)
    assert at(("fighters", 1, "might"), key=True) == (8, 5)
    assert at(("fighters", 1, "gear", 1)) == (9, 19)
    assert position_of(data, ("points",), "valid.yaml") == Span("valid.yaml", 3, 9)


def test_position_of_falls_back_to_nearest_enclosing_node():
    data = load((CASES / "valid.yaml").read_bytes()).data
    # fighters[1] exists but has no 'luck': the span of fighters[1] itself
    fighter = position_of(data, ("fighters", 1), "v")
    assert position_of(data, ("fighters", 1, "luck"), "v") == fighter
    assert position_of(data, ("fighters", 7, "might"), "v") == position_of(data, ("fighters",), "v")
    assert position_of(data, ("nope",), "v") == Span("v", 2, 1)
    assert position_of("a bare scalar", ("x",), "v") is None


def test_position_of_empty_value_is_its_key():
    data = load("name: x\nfighters:\n  - name: Aldric\n    might:\n    move: 6\n").data
    assert position_of(data, ("fighters", 0, "might"), "w") == Span("w", 4, 5)
    assert position_of(data, ("fighters", 0, "move"), "w") == Span("w", 5, 11)


def test_bom_is_accepted():
    loaded = load(b"\xef\xbb\xbfname: Grey Company\n")
    assert loaded.diagnostics == () and loaded.data["name"] == "Grey Company"
    assert position_of(loaded.data, ("name",), "w.yaml", key=True) == Span("w.yaml", 1, 1)


# --- one test per kind of problem ----------------------------------------------------------

def test_syntax_error_uses_problem_mark():
    d = only(load("name: Grey Company\npoints: 3: 4\n"))
    assert where(d) == ("E601", 2, 10)
    assert "mapping values" in d.message


def test_unclosed_quote_points_at_end_and_relates_the_start():
    d = only(load("name: 'Grey Company\n"))
    assert where(d) == ("E601", 2, 1)
    assert [(r.span.line, r.span.column) for r in d.related] == [(1, 7)]


def test_unclosed_flow_sequence():
    d = only(load("gear: [sword, shield\n"))
    assert where(d) == ("E601", 2, 1)


def test_second_document_is_an_error():
    d = only(load("a: 1\n---\nb: 2\n"))
    assert where(d) == ("E601", 2, 1)


def test_undefined_alias():
    d = only(load("a: *nowhere\n"))
    assert where(d) == ("E601", 1, 4)


def test_duplicate_key_points_at_second_and_relates_first():
    d = only(load((CASES / "duplicate_key.yaml").read_bytes(), "dup.yaml"))
    assert where(d) == ("E603", 5, 5)
    assert "might" in d.message
    assert [(r.span.line, r.span.column, r.message) for r in d.related] == [
        (4, 5, "first defined here")]


def test_every_duplicate_key_is_reported():
    loaded = load("a: 1\nb: 2\na: 3\nb: 4\n")
    assert [where(d) for d in loaded.diagnostics] == [("E603", 3, 1), ("E603", 4, 1)]


def test_duplicate_keys_written_differently_are_still_caught():
    d = only(load("{1: a, 0x1: b}"))  # ruamel's own check: same int, different spelling
    assert where(d) == ("E603", 1, 8)


def test_invalid_utf8_points_at_first_bad_byte():
    d = only(load((CASES / "latin1.yaml").read_bytes()))
    assert where(d) == ("E604", 1, 10)
    assert "0xE9" in d.message
    loaded = load((CASES / "latin1.yaml").read_bytes())
    assert loaded.text.splitlines()[0][9] == "\ufffd"  # a lossy text, for the excerpt


def test_invalid_utf8_after_bom_and_multibyte_text():
    d = only(load(b"\xef\xbb\xbfa: \xc3\xa9t\xc3\xa9\nb: x\xff\n"))
    assert where(d) == ("E604", 2, 5)


def test_utf16_file():
    d = only(load("name: x\n".encode("utf-16")))
    assert where(d) == ("E604", 1, 1)


def test_control_character():
    d = only(load("a: 1\r\nb: x\x07\n"))
    assert where(d) == ("E601", 2, 5)
    assert "U+0007" in d.message


@pytest.mark.parametrize("source, message", [
    ("", "the file is empty"),
    ("  \n\n", "the file is empty"),
    ("# only a comment\n# and another\n", "the file has only comments and no data"),
    ("---\n", "the file has only comments and no data"),
])
def test_empty_or_comment_only(source, message):
    d = only(load(source))
    assert where(d) == ("E605", 1, 1)
    assert d.message == message


@pytest.mark.parametrize("source, line, column, what", [
    ("- Aldric\n- Bera\n", 1, 1, "a list"),
    ("# comment\n\n  just text\n", 3, 3, "a single value"),
    ("42\n", 1, 1, "a single value"),
])
def test_top_level_must_be_a_mapping(source, line, column, what):
    d = only(load(source))
    assert where(d) == ("E606", line, column)
    assert what in d.message


def test_alias_bomb_is_refused_quickly():
    raw = (CASES / "lol_bomb.yaml").read_bytes()
    tracemalloc.start()
    start = time.perf_counter()
    loaded = load(raw)
    elapsed = time.perf_counter() - start
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    d = only(loaded)
    assert where(d) == ("E609", 6, 8)  # the first '*d' pushes the expansion over the limit
    assert elapsed < 1.0
    assert peak < 5 * 2**20


def test_recursive_alias_is_refused():
    d = only(load("a: &a [1, *a]\n"))
    assert where(d) == ("E609", 1, 11)


def test_moderate_alias_use_is_fine():
    loaded = load("base: &base {might: 3}\nfighters:\n  - *base\n  - *base\n")
    assert loaded.diagnostics == ()
    assert loaded.data["fighters"][1]["might"] == 3


@pytest.mark.parametrize("bracket", ["[", "{"])
def test_deep_flow_nesting(bracket):
    start = time.process_time()
    d = only(load("a: " + bracket * 10_000))
    assert time.process_time() - start < 1.0
    assert where(d) == ("E608", 1, 4 + MAX_DEPTH)  # the 101st bracket


def test_deep_flow_nesting_at_top_level():
    d = only(load("[" * 10_000))
    assert where(d) == ("E608", 1, MAX_DEPTH + 1)


def test_deep_block_nesting():
    source = "".join(" " * i + f"k{i}:\n" for i in range(500))
    d = only(load(source))
    assert where(d) == ("E608", MAX_DEPTH + 1, MAX_DEPTH + 1)  # the 101st mapping's first key


def test_deep_block_sequences():
    d = only(load("a:\n" + "- " * 10_000 + "x\n"))
    assert where(d) == ("E608", 2, 2 * (MAX_DEPTH - 1) + 1)  # 'a' is level 1


def test_nesting_at_the_limit_is_fine():
    loaded = load("a: " + "[" * (MAX_DEPTH - 1) + "]" * (MAX_DEPTH - 1) + "\n")
    assert loaded.diagnostics == ()


def test_huge_integer():
    d = only(load("name: x\npoints: " + "9" * 5_000 + "\n"))
    assert where(d) == ("E610", 2, 9)
    assert len(d.message) < 100


@pytest.mark.parametrize("value", ["1234567890123456", "-1_000_000_000_000_000", "0x" + "f" * 20,
                                   "1e400", "2e15"])
def test_absurd_numbers(value):
    d = only(load(f"a:\n  b: {value}\n"))
    assert where(d) == ("E610", 2, 6)


@pytest.mark.parametrize("value", ["123456789012345", "0x10", "1.5e3", ".inf",
                                   "'1234567890123456'"])
def test_reasonable_numbers_and_quoted_digits_are_fine(value):
    assert load(f"a: {value}\n").diagnostics == ()


def test_invalid_typed_value():
    d = only(load("name: x\nfounded: 2023-02-30\n"))
    assert where(d) == ("E611", 2, 10)


def test_file_too_large():
    d = only(load(b"a: 1\n" + b"#" * MAX_BYTES))
    assert where(d) == ("E607", 1, 1)


def test_tab_indentation():
    d = only(load((CASES / "tab_indent.yaml").read_bytes()))
    assert where(d) == ("E602", 3, 1)
    assert d.message == "a tab is used for indentation"
    assert "use spaces" in d.hint


def test_tab_after_spaces_in_indentation():
    d = only(load("a:\n  b: 1\n  \tc: 2\n"))
    assert where(d) == ("E602", 3, 3)


def test_tab_inside_a_line():
    d = only(load("- a\n-\tb\n"))
    assert where(d) == ("E602", 2, 2)


def test_unexpected_failure_becomes_a_diagnostic(monkeypatch):
    import warband.lists.yamlload as yamlload

    def boom(self, stream):
        raise RuntimeError("simulated")

    monkeypatch.setattr(yamlload.YAML, "load", boom)
    d = only(load("a: 1\n"))
    assert where(d) == ("E612", 1, 1)


# --- never a traceback ---------------------------------------------------------------------

YAMLISH = st.text(alphabet=st.sampled_from(list("ab1:-? \n\t[]{}&*!|>'\"#%@`,.~<=\r\x00\xe9")),
                  max_size=120)


def check_never_raises(loaded):
    for d in loaded.diagnostics:
        assert d.is_error
        assert d.span is not None and d.span.line >= 1 and d.span.column >= 1
    if loaded.diagnostics:
        assert loaded.data is None
    else:
        assert loaded.data is not None


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.binary(max_size=200))
def test_random_bytes_never_raise(raw):
    check_never_raises(load_yaml(raw, "r.yaml"))


@settings(max_examples=500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.one_of(YAMLISH, st.text(max_size=120)))
def test_random_text_never_raises(text):
    check_never_raises(load_yaml(text.encode("utf-8", "surrogatepass"), "r.yaml"))
