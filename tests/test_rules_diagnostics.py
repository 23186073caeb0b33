"""Broken rules files, and what a hobbyist reads about them.

Each tests/rules_errors/NAME.rules holds one realistic mistake (several_errors.rules holds one in
each of several declarations). Its diagnostics, rendered as `warband rules check` prints them, are
compared with tests/rules_errors/NAME.txt; run `pytest --update-goldens` after an intended change
and read the diff as a hobbyist would.
"""

from __future__ import annotations

import contextlib
import random
from functools import lru_cache
from pathlib import Path

import pytest

from warband.diagnostics import CODES, render_text
from warband.lang.compiler import Compiled, compile_text, load

ROOT = Path(__file__).resolve().parents[1]
CASES = ROOT / "tests" / "rules_errors"
FILES = sorted(CASES.glob("*.rules"))
SEVERAL = "several_errors"

# Codes of rules files: reading and syntax (E1..), names (E2..), types (E3..), structure (E4..),
# and the warnings numbered alike (W1.. to W4..; W7.. are about warbands, as E7.. are). Each needs
# an example file.
RULES_CODES = sorted(c for c in CODES if c[0] in "EW" and c[1] in "1234")


@lru_cache(maxsize=None)
def compile_case(path: Path) -> Compiled:
    """Compile an example under its path relative to the repository, so goldens are the same on
    every machine. A file that is not UTF-8 cannot become text: it goes through `load`, which
    reads bytes, as `warband rules check` does."""
    relative = path.relative_to(ROOT).as_posix()
    try:
        text = path.read_bytes().decode("utf-8")
    except UnicodeDecodeError:
        with contextlib.chdir(ROOT):
            return load(relative)
    return compile_text(text, relative)


def test_there_are_examples():
    assert len(FILES) >= 24


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_golden(path, golden):
    compiled = compile_case(path)
    golden(path.with_suffix(".txt"), render_text(compiled.diagnostics, compiled.sources))


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_one_mistake_one_message(path):
    """Every example is reported, and (but for the file of several mistakes) exactly once: a
    second message would be a cascade from the first."""
    compiled = compile_case(path)
    assert compiled.diagnostics, f"{path.name} compiles without a word"
    if path.stem != SEVERAL:
        assert len(compiled.diagnostics) == 1, render_text(compiled.diagnostics,
                                                           compiled.sources)


def test_every_rules_code_has_an_example():
    produced = {d.code for path in FILES for d in compile_case(path).diagnostics}
    # house rules: cases of several files (a house file and what it extends) have a folder each
    from test_house_rules import ERRORS, error_case
    produced |= {d.code for folder in ERRORS for d in error_case(folder).diagnostics}
    missing = [code for code in RULES_CODES if code not in produced]
    assert not missing, "no example file under tests/rules_errors (or tests/house_rules/errors) produces: " + ", ".join(
        f"{code} ({CODES[code][1]})" for code in missing)


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_every_diagnostic_has_a_span(path):
    compiled = compile_case(path)
    lacking = [d for d in compiled.diagnostics if d.span is None]
    assert not lacking, lacking
    for d in compiled.diagnostics:
        assert d.span.file == path.relative_to(ROOT).as_posix()


def test_all_errors_of_a_file_come_out_in_one_run():
    """A syntax error in one declaration hides neither the name errors in the others nor the
    declarations it does not touch, and what the unreadable declaration defines is not then
    reported as unknown."""
    compiled = compile_case(CASES / f"{SEVERAL}.rules")
    codes = [d.code for d in compiled.diagnostics]
    assert "E101" in codes and "E201" in codes and "E203" in codes
    lines = {d.span.line for d in compiled.diagnostics if d.is_error}
    assert len(lines) >= 4
    assert not any("attack_band" in d.message for d in compiled.diagnostics)
    assert not any(d.code == "W101" for d in compiled.diagnostics)


def test_messages_read_as_prose():
    """Lower case first, no final period, and no grammar token names."""
    for path in FILES:
        for d in compile_case(path).diagnostics:
            for text in filter(None, (d.message, d.hint)):
                assert not text[0].isupper(), text
                assert not text.endswith("."), text
                for token in ("NAME", "LBRACE", "RBRACE", "LPAR", "RPAR", "STRING", "$END",
                              "__ANON", "COMP_OP", "ADD_OP", "INT", "DICE"):
                    assert token not in text, text


def test_the_shipped_rules_stay_clean():
    compiled = load("super-simple-skirmish")
    assert compiled.ruleset is not None
    assert compiled.diagnostics == [], render_text(compiled.diagnostics, compiled.sources)


# ---- inputs that must never raise ------------------------------------------------------------------

HEADER = 'ruleset "nasty"\n'
NASTY = {
    "empty": "",
    "only_whitespace": " \n\t\n\r\n",
    "only_comments": "# a rules file\n# to be written\n",
    "nul_byte": HEADER + "tier common\x00\n",
    "nul_in_header": 'ruleset "x"\x00\n',
    "only_nul": "\x00",
    "bom_and_crlf": "\ufeff" + HEADER.replace("\n", "\r\n") + "tier common\r\n",
    "parentheses_2000": HEADER + "define f() = " + "(" * 2000 + "1" + ")" * 2000 + "\n",
    "parentheses_2000_unclosed": HEADER + "define f() = " + "(" * 2000 + "1\n",
    "parentheses_2000_only_closing": HEADER + "define f() = 1" + ")" * 2000 + "\n",
    "braces_2000_unclosed": HEADER + "procedure p() " + "{" * 2000 + "\n",
    "minus_2000": HEADER + "define f() = " + "-" * 2000 + "1\n",
    "not_2000": HEADER + "define f() = " + "not " * 2000 + "true\n",
    "plus_5000": HEADER + "define f() = 1" + " + 1" * 5000 + "\n",
    "if_else_1000": HEADER + "define f(a) = " + "if a then 1 else " * 1000 + "0\n",
    "if_blocks_1000": HEADER + "action p() {" + "if true {" * 1000 + "}" * 1001 + "\n",
    "dice_modifiers_1000": HEADER + "define f() = 3d6" + " reroll < 2" * 1000 + "\n",
    "triple_quote_unterminated": HEADER + 'trait Fast """moves fast\nand far\n',
    "triple_quote_unterminated_in_block": HEADER + 'procedure p() { """\n',
    "quote_unterminated": HEADER + 'trait Fast "moves fast\n',
    "lone_quote_at_end": HEADER + '"',
    "lone_braces": "}{}{" * 50,
    "huge_numbers": HEADER + "stat Might: 1.." + "9" * 400 + " default " + "9" * 400 + "\n"
                    "define f() = " + "9" * 400 + "d" + "9" * 400 + " keep highest " + "9" * 400
                    + "\n",
    "unicode_names": HEADER + "trait Überfall\nclass 兵 { }\n",
    "control_characters": HEADER + "tier\x0bcommon\x1b[31m\n",
    "header_only_keyword": "ruleset",
    "every_keyword": " ".join(["ruleset", "stat", "enum", "flag", "counter", "tier", "trait",
                               "class", "equipment", "table", "define", "outcomes", "procedure",
                               "action", "phase", "army"]) * 3,
}


@pytest.mark.parametrize("text", NASTY.values(), ids=NASTY.keys())
def test_no_input_raises(text):
    compiled = compile_text(text, "nasty.rules")
    rendered = render_text(compiled.diagnostics, compiled.sources)
    # some are valid (parentheses and dice modifiers do not nest the rules): those get a warning
    assert compiled.diagnostics, "not even a warning"
    assert all(d.span is not None for d in compiled.diagnostics), rendered[:2000]


@pytest.mark.parametrize("name", ["minus_2000", "not_2000", "plus_5000", "if_else_1000",
                                  "if_blocks_1000"])
def test_deep_nesting_is_a_limit_not_a_crash(name):
    compiled = compile_text(NASTY[name], "nasty.rules")
    assert [d.code for d in compiled.diagnostics] == ["E403"], compiled.diagnostics


def test_mangled_copies_of_the_shipped_rules_never_raise():
    """Seeded damage (characters deleted, doubled or swapped) to a real rules file: whatever the
    damage, the compiler answers with diagnostics that carry a place."""
    text = (ROOT / "dsl" / "super-simple-skirmish.rules").read_text(encoding="utf-8")
    rng = random.Random(20240601)
    junk = list('{}()"=.,:#\n') + ["then", "else", "=>", "d6", "Might", "otherwise"]
    for _ in range(60):
        mangled = text
        for _ in range(rng.randint(1, 4)):
            at = rng.randrange(len(mangled))
            action = rng.choice(("delete", "insert", "swap"))
            if action == "delete":
                mangled = mangled[:at] + mangled[at + rng.randint(1, 12):]
            elif action == "insert":
                mangled = mangled[:at] + rng.choice(junk) + mangled[at:]
            else:
                mangled = mangled[:at] + mangled[at + 1:at + 2] + mangled[at:at + 1] + \
                    mangled[at + 2:]
        compiled = compile_text(mangled, "mangled.rules")
        assert all(d.span is not None for d in compiled.diagnostics)
        render_text(compiled.diagnostics, compiled.sources)
