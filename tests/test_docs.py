"""The language reference, docs/language.md, kept true to the toolkit.

- Every ```rules block compiles without errors. A block that starts with `ruleset` is a whole
  file; any other block is a piece of one, compiled after a `ruleset` line and together with the
  reference's own example declarations (the block whose header is `ruleset "examples"`), less
  those the piece declares itself.
- ```rules-error blocks must fail, with the diagnostics the following ```text block shows.
- ```rules-fragment blocks are exempt; there are few.
- The commands shown after `$` run, and print what the reference says they print.
- The table of diagnostic codes is the one in warband.diagnostics.
- The claims about when dice are rolled hold.

Diagnostics point into docs/language.md itself: a piece is padded with blank lines so that its
line numbers are those of the reference.
"""

from __future__ import annotations

import re
import shlex
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path

import pytest
from typer.testing import CliRunner

from warband.cli import app
from warband.diagnostics import CODES, render_text
from warband.lang.compiler import compile_text
from warband.run.interpreter import Interpreter, Policies
from warband.run.world import make_world

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs" / "language.md"
DOC_NAME = "docs/language.md"
PRELUDE_ID = "examples"
MAX_EXEMPT = 3

_FENCE = re.compile(r"^```([A-Za-z0-9_-]*)[^\n]*\n(.*?)^```[ \t]*$", re.MULTILINE | re.DOTALL)
_HEADER = re.compile(r'^\s*(?:#[^\n]*\n\s*)*ruleset\s+"([^"]*)"')
_DECLARATION = re.compile(
    r"^(stat|enum|flag|counter|tier|trait|class|equipment|table|define|outcomes|procedure"
    r"|action|phase|army)\b(?:\s+([A-Za-z_][A-Za-z_0-9]*))?", re.MULTILINE)


@dataclass(frozen=True)
class Block:
    kind: str       # the fence's info word: rules, rules-error, rules-fragment, text, ...
    text: str
    line: int       # the line of the reference where the block's first line is

    @property
    def ruleset_id(self) -> str | None:
        m = _HEADER.match(self.text)
        return m.group(1) if m else None

    def __str__(self) -> str:
        return f"{DOC_NAME}:{self.line}"


def _blocks() -> list[Block]:
    text = DOC.read_text(encoding="utf-8")
    found = []
    for m in _FENCE.finditer(text):
        line = text.count("\n", 0, m.start(2)) + 1
        found.append(Block(m.group(1), m.group(2), line))
    return found


BLOCKS = _blocks()
RULES = [b for b in BLOCKS if b.kind == "rules"]


def _declarations(text: str) -> list[tuple[str | None, str]]:
    """Top-level declarations (those starting in the first column) as (name, text)."""
    starts = list(_DECLARATION.finditer(text))
    out = []
    for m, following in zip(starts, starts[1:] + [None]):
        end = following.start() if following else len(text)
        out.append((m.group(2) if m.group(1) != "army" else "army", text[m.start():end]))
    return out


def _prelude() -> Block:
    matches = [b for b in RULES if b.ruleset_id == PRELUDE_ID]
    assert len(matches) == 1, f'exactly one ```rules block must be the ruleset "{PRELUDE_ID}"'
    return matches[0]


def _source(block: Block) -> str:
    """The text compiled for a block, with the block on its own lines of the reference."""
    padding = "\n" * (block.line - 1)
    if block.ruleset_id is not None:
        return padding + block.text
    declared = {name for name, _ in _declarations(block.text)}
    extra = [text for name, text in _declarations(_prelude().text) if name not in declared]
    header = f'ruleset "doc-example-{block.line}"'
    return header + padding[1:] + "\n" + block.text + "\n" + "".join(extra)


def _compile(block: Block):
    source = _source(block)
    return compile_text(source, DOC_NAME)


# ---- the blocks ---------------------------------------------------------------------------------

def test_the_reference_has_its_blocks():
    kinds = {b.kind for b in BLOCKS}
    assert kinds <= {"rules", "rules-error", "rules-fragment", "text"}, kinds
    assert len(RULES) >= 30
    exempt = [str(b) for b in BLOCKS if b.kind == "rules-fragment"]
    assert len(exempt) <= MAX_EXEMPT, f"too many exempt fragments: {exempt}"


@pytest.mark.parametrize("block", RULES, ids=[f"line{b.line}" for b in RULES])
def test_rules_block_compiles(block: Block):
    compiled = _compile(block)
    errors = compiled.errors
    assert not errors, "the example at " + str(block) + " does not compile:\n" + render_text(
        errors, compiled.sources)
    assert compiled.ruleset is not None


_DIAGNOSTIC_LINE = re.compile(r"^(\S+?):(\d+):(\d+): (error|warning)\[(\w+)\]: (.*)$",
                              re.MULTILINE)


def _following_text(block: Block) -> Block:
    i = BLOCKS.index(block)
    assert i + 1 < len(BLOCKS) and BLOCKS[i + 1].kind == "text", \
        f"the rules-error block at {block} must be followed by a ```text block of its output"
    return BLOCKS[i + 1]


ERROR_BLOCKS = [b for b in BLOCKS if b.kind == "rules-error"]


@pytest.mark.parametrize("block", ERROR_BLOCKS, ids=[f"line{b.line}" for b in ERROR_BLOCKS])
def test_error_block_reports_what_the_reference_shows(block: Block):
    shown = [(int(line), int(col), sev, code, message)
             for _, line, col, sev, code, message in
             _DIAGNOSTIC_LINE.findall(_following_text(block).text)]
    assert shown, f"no diagnostics shown after {block}"
    compiled = compile_text(block.text, "demo.rules")
    actual = [(d.span.line, d.span.column, d.severity.value, d.code, d.message)
              for d in compiled.diagnostics if d.span is not None]
    assert compiled.errors
    assert actual == shown


# ---- the commands ---------------------------------------------------------------------------------

def _files() -> dict[str, str]:
    """Files the shown commands use: a whole-file block by its ruleset id, plus demo.rules."""
    files = {f"{b.ruleset_id}.rules": b.text for b in RULES if b.ruleset_id}
    for b in ERROR_BLOCKS:
        if b.ruleset_id:
            files[f"{b.ruleset_id}.rules"] = b.text
    return files


def _sessions() -> list[tuple[Block, str, str]]:
    """(block, command, expected output) for every `$ warband ...` line of a text block."""
    out = []
    for b in BLOCKS:
        if b.kind != "text":
            continue
        parts = re.split(r"^\$ ", b.text, flags=re.MULTILINE)
        for part in parts[1:]:
            command, _, expected = part.partition("\n")
            out.append((b, command, expected))
    return out


SESSIONS = _sessions()


@pytest.mark.parametrize("block,command,expected", SESSIONS,
                         ids=[f"line{b.line}-{c.split()[1]}" for b, c, _ in SESSIONS])
def test_shown_command_prints_what_the_reference_says(block, command, expected, tmp_path,
                                                      monkeypatch):
    for name, text in _files().items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    words = shlex.split(command)
    assert words[0] == "warband"
    result = CliRunner().invoke(app, words[1:])
    expects_errors = "error[" in expected
    assert result.exit_code == (1 if expects_errors else 0), result.output
    if expected.strip():
        actual = "\n".join(line.rstrip() for line in result.stdout.splitlines())
        wanted = "\n".join(line.rstrip() for line in expected.splitlines())
        assert actual.strip() == wanted.strip(), f"{block}: `{command}` printed:\n{result.stdout}"


# ---- the table of codes ----------------------------------------------------------------------------

def test_codes_table_is_the_toolkits():
    text = DOC.read_text(encoding="utf-8")
    rows = re.findall(r"^\| ([EW]\d{3}) \| (error|warning|note) \| (.+?) \|$", text,
                      re.MULTILINE)
    documented = {code: (severity, meaning) for code, severity, meaning in rows}
    assert len(documented) == len(rows), "a code is listed twice"
    expected = {code: (severity.value, meaning) for code, (severity, meaning) in CODES.items()}
    missing = sorted(set(expected) - set(documented))
    stale = sorted(set(documented) - set(expected))
    assert not missing, f"codes missing from the reference's table: {missing}"
    assert not stale, f"codes in the reference that the toolkit no longer has: {stale}"
    assert documented == expected


# ---- the claims about rolls --------------------------------------------------------------------------

def _run(block_marker: str, action: str) -> "object":
    block = next(b for b in RULES if block_marker in b.text)
    ruleset = _compile(block).ruleset
    interpreter = Interpreter(ruleset, Policies())
    return interpreter.exact(action, {}, make_world(ruleset, []))


def test_let_fixes_a_roll_and_each_dice_expression_rolls_anew():
    assert dict(_run("action same_roll()", "same_roll").items()) == {0: 1}
    two = _run("action two_rolls()", "two_rolls")
    assert sorted(two) == list(range(-5, 6))
    assert two[0] == Fraction(1, 6)


def test_a_dice_parameter_is_rolled_at_each_use():
    best_minus_once = _run("procedure best_of_two(", "compare")
    # E[max of two 3d6] - E[3d6] > 0, and the difference takes both signs.
    assert best_minus_once.mean() > 0
    assert min(best_minus_once) < 0 < max(best_minus_once)
