"""Text from files, whatever its characters, through every output (issue 33, items 1, 2, 10, 15).

Where text from files enters the toolkit (the YAML loader, the rules parser, the reader of game
records), an escape of half a character (a lone surrogate, `"\\uD800"`) is refused at its place
and the two halves of a pair are joined into their character (diagnostics.whole_characters):
before, a name with `\\uD800` validated clean and then `roster`, `play --side`, `--svg` and
`simulate --format html` died with UnicodeEncodeError, and in a class name it crashed
`validate` itself. Texts and names are bounded at load (MAX_TEXT_CHARS, MAX_NAME_CHARS, the
text aliases repeat), and a game's record and page by what they hold (MAX_RECORD_EVENTS,
MAX_PAGE_STATES). Control characters reach no terminal and no XML raw.

The property test writes arbitrary text (controls, bidi marks, lone surrogates, astral
characters, XML's forbidden U+FFFE) into a warband's names and runs every output format on it:
validate (text, json, github, sarif), roster (text, markdown, html), play --side (the log, the
record, the page, a picture) and simulate --side (the page): no traceback, every output UTF-8,
no raw control character where people read it, JSON that loads, SVG that parses.
"""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ElementTree
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from warband import limits
from warband.cli import app
from warband.diagnostics import lone_surrogate, printable, whole_characters
from warband.lang.compiler import compile_text

ROOT = Path(__file__).resolve().parents[1]
FAMILY = (ROOT / "warbands" / "the-family.yaml").read_text(encoding="utf-8")
SCENARIO = "sss-standard-game"

# what must never reach a terminal raw (as tests/test_hostile_text.py), and lone surrogates
UNSAFE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069"
                    "\u2028\u2029\ud800-\udfff]")
NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


def run(*args: str):
    return CliRunner().invoke(app, list(args))


def yaml_quoted(text: str) -> str:
    """A YAML double-quoted scalar holding `text`, every character that is not plain ASCII
    written as an escape (so the file itself is plain UTF-8, whatever the text)."""
    out = []
    for c in text:
        code = ord(c)
        if c in '"\\':
            out.append("\\" + c)
        elif 0x20 <= code < 0x7F:
            out.append(c)
        elif code <= 0xFFFF:
            out.append(f"\\u{code:04X}")
        else:
            out.append(f"\\U{code:08X}")
    return '"' + "".join(out) + '"'


def family_named(name: str, brother: str | None = None) -> str:
    """The Family, Momma renamed (and Brother, when given)."""
    text = FAMILY.replace("  - name: Momma\n", f"  - name: {yaml_quoted(name)}\n")
    if brother is not None:
        text = text.replace("  - name: Brother\n", f"  - name: {yaml_quoted(brother)}\n")
    return text


def clean(result, *, terminal: bool = True) -> str:
    """The output of a command that may have refused its input, but cleanly."""
    assert result.exit_code in (0, 1, 2), (result.exit_code, result.output[-2000:])
    assert result.exception is None or isinstance(result.exception, SystemExit), \
        repr(result.exception)
    assert "Traceback" not in result.output
    for stream in (result.stdout, result.stderr):
        stream.encode("utf-8")   # (a lone surrogate cannot be written)
        if terminal:
            found = UNSAFE.search(stream)
            assert found is None, (repr(found.group()), stream[max(0, found.start() - 80):
                                                                found.start() + 20])
    return result.stdout


# arbitrary text: any character, lone surrogates, the controls and the bidi marks
HOSTILE = st.lists(st.one_of(
    st.characters(),
    st.integers(0xD800, 0xDFFF).map(chr),
    st.sampled_from(["\x1b[2J", "\r", "\x7f", "\x9b", "\u202e", "\u2028", "\ufffe", "\U0001F600",
                     "\x00", "<script>", "&", '"', "\\"])),
    min_size=1, max_size=8).map("".join)


@settings(max_examples=12, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(name=HOSTILE, other=HOSTILE)
def test_any_text_in_a_name_through_every_output(tmp_path_factory, name, other):
    folder = tmp_path_factory.mktemp("unicode")
    path = folder / "family.yaml"
    path.write_text(family_named(name, other), encoding="utf-8")
    whole = whole_characters(name), whole_characters(other)
    refused = any(lone_surrogate(n) is not None for n in whole) or not all(n.strip() for n in whole)
    # validate, in each format
    for fmt in ("text", "github", "json", "sarif"):
        result = run("validate", str(path), "--format", fmt)
        out = clean(result, terminal=fmt in ("text", "github"))
        if fmt in ("json", "sarif"):
            json.loads(out)
        if any(lone_surrogate(n) is not None for n in whole):
            assert result.exit_code == 1 and "E604" in out, out
    # the roster, in each format
    for fmt in ("text", "markdown", "html"):
        clean(run("roster", str(path), "--format", fmt), terminal=fmt != "html")
    side = f"family={path}"
    # a game: its log, its record, its page and a picture of it
    log = clean(run("play", SCENARIO, "--side", side, "--max-rounds", "2"))
    record = clean(run("play", SCENARIO, "--side", side, "--max-rounds", "2", "--format", "json"),
                   terminal=False)
    page = clean(run("play", SCENARIO, "--side", side, "--max-rounds", "2", "--format", "html"))
    picture = clean(run("play", SCENARIO, "--side", side, "--svg", "1"))
    report = clean(run("simulate", SCENARIO, "--side", side, "--games", "3", "--format", "html",
                       "--seed", "3"))
    if refused:
        assert not log and not record and not page and not picture and not report
        return
    assert log and record and page and picture and report, (log[-500:], record[-500:])
    assert json.loads(record)["events"]
    ElementTree.fromstring(picture)   # well-formed XML, whatever the names
    assert NOT_XML.search(page) is None


# ---- item 1: the reproducers of the issue ----------------------------------------------------------

@pytest.mark.parametrize("where", ["name", "class"])
def test_a_lone_surrogate_in_a_warband_is_refused_at_its_place(tmp_path, where):
    """`"\\uD800"` in a fighter's name validated clean, and then crashed `roster`, `play --side`,
    `--svg` and `simulate --format html`; in a class name it crashed `validate` (text and
    GitHub formats). Now E604 at the text, in every format, and the other commands refuse
    the file."""
    text = FAMILY.replace("  - name: Momma\n", '  - name: "Mom\\uD800ma"\n') if where == "name" \
        else FAMILY.replace("    class: Gunslinger\n", '    class: "Gun\\uD800"\n')
    path = tmp_path / "family.yaml"
    path.write_text(text, encoding="utf-8")
    line = 9 if where == "name" else 10
    for fmt in ("text", "github", "json", "sarif"):
        out = clean(run("validate", str(path), "--format", fmt), terminal=fmt != "json")
        assert "E604" in out
        assert re.search(rf'(:|line=|"line": |"startLine": ){line}\b', out), out
    assert "half of a character" in run("validate", str(path)).stdout
    for args in (["roster", str(path)], ["roster", str(path), "--format", "html"],
                 ["play", SCENARIO, "--side", f"family={path}"],
                 ["play", SCENARIO, "--side", f"family={path}", "--svg", "1"],
                 ["simulate", SCENARIO, "--side", f"family={path}", "--games", "2", "--format",
                  "html"]):
        result = run(*args)
        clean(result)
        assert result.exit_code in (1, 2) and "E604" in result.stderr + result.stdout, args


def test_the_two_halves_of_a_character_are_joined(tmp_path):
    path = tmp_path / "family.yaml"
    path.write_text(FAMILY.replace("  - name: Momma\n", '  - name: "Mom\\uD83D\\uDE00"\n'),
                    encoding="utf-8")
    result = run("roster", str(path))
    assert result.exit_code == 0 and "Mom\U0001F600" in result.stdout


def test_a_lone_surrogate_in_a_rules_text_is_E104():
    found = compile_text('ruleset "s"\n  title "x\\ud800y"\n  version "\\ud83d\\ude00"\n',
                         "s.rules")
    assert [(d.code, d.span.line) for d in found.diagnostics] == [("E104", 2)]
    assert "half of a character" in found.diagnostics[0].message
    assert found.ruleset is None


def test_a_lone_surrogate_in_a_record_is_E916(tmp_path):
    made = run("play", SCENARIO, "--max-rounds", "1", "--format", "json")
    record = json.loads(made.stdout)
    record["scenario_title"] = "\ud800"
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record), encoding="utf-8")   # (written as the escape \ud800)
    result = run("play", "--replay", str(path))
    clean(result)
    assert result.exit_code == 2 and "E916" in result.stderr
    assert "half of a character" in result.stderr and "/scenario_title" in result.stderr


def test_a_path_from_the_command_line_is_shown_escaped(tmp_path):
    """The command line is the user's own; an undecodable name there reaches Python as lone
    surrogates (surrogateescape): shown as their escapes."""
    result = run("validate", str(tmp_path / "\udcff.yaml"))
    clean(result)
    assert "\\udcff" in result.stdout + result.stderr


def test_printable_escapes_halves():
    assert printable("a\ud800b") == "a\\ud800b"
    assert whole_characters("\ud83d\ude00\ud800") == "\U0001F600\ud800"


# ---- item 2: fighters that share a name --------------------------------------------------------------

def test_fighters_sharing_a_name_are_counted_apart(tmp_path):
    """Losses were counted by name: three "Momma"s lost in a game were one fighter lost three
    times, a rate past 1, and the Wilson interval took the root of a negative number
    (`simulate --format html` and `--plot`: ValueError: math domain error)."""
    text = FAMILY
    for other in ("Daddy", "Brother", "Sister"):
        text = text.replace(f"  - name: {other}\n", "  - name: Momma\n")
    path = tmp_path / "dup.yaml"
    path.write_text(text, encoding="utf-8")
    page, plot = tmp_path / "page.html", tmp_path / "plot.svg"
    for args in (["--format", "html", "-o", str(page)], ["--plot", str(plot)]):
        result = run("simulate", SCENARIO, "--side", f"family={path}", "--games", "100", *args)
        clean(result)
        assert result.exit_code == 0, result.output
    shown = set(re.findall(r"Momma \((\d)\): ([\d.]+)%", page.read_text(encoding="utf-8")))
    assert {n for n, _ in shown} == {"1", "2", "3", "4"}
    assert all(float(rate) <= 100 for _, rate in shown)


# ---- item 10: texts bounded at load, records and pages by what they hold ------------------------------

def test_a_long_name_repeated_by_aliases_is_refused(tmp_path):
    """16 aliases gave 16 fighters one 200,000-character name in a 200 kB file: a 109 MB log,
    a 130 MB record, a 657 MB page."""
    name = "x" * 200_000
    lines = ["name: Big", "ruleset: super-simple-skirmish", "fighters:",
             f"  - name: &n {name}", "    class: Warrior", "    might: 5"]
    for _ in range(15):
        lines += ["  - name: *n", "    class: Warrior", "    might: 5"]
    path = tmp_path / "big.yaml"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    out = clean(run("validate", str(path)))
    assert "error[E613]: this text is 200,000 characters long (at most 10,000)" in out
    assert "error[E609]: aliases repeat more than 256 kB of text" in out
    result = run("play", SCENARIO, "--side", f"family={path}")
    clean(result)
    assert result.exit_code == 2 and len(result.output) < 20_000


@pytest.mark.parametrize("length, refused", [(limits.MAX_NAME_CHARS, False),
                                             (limits.MAX_NAME_CHARS + 1, True)])
def test_a_name_is_bounded(tmp_path, length, refused):
    path = tmp_path / "long.yaml"
    path.write_text(FAMILY.replace("  - name: Momma\n", f"  - name: {'M' * length}\n"),
                    encoding="utf-8")
    out = clean(run("validate", str(path)))
    assert ("E613" in out) is refused


def test_texts_and_names_in_a_rules_file_are_bounded():
    long_text = "x" * (limits.MAX_TEXT_CHARS + 1)
    long_name = "n" * (limits.MAX_NAME_CHARS + 1)
    found = compile_text(f'ruleset "s"\n  title "{long_text}"\n'
                         f'define {long_name}(a: number) = a\n', "s.rules")
    assert [(d.code, d.span.line) for d in found.diagnostics if d.code != "W101"] == \
        [("E403", 2), ("E403", 3)]
    assert "10,001 characters long (at most 10,000)" in found.diagnostics[0].message
    assert compile_text(f'ruleset "s"\n  title "{"x" * limits.MAX_TEXT_CHARS}"\n',
                        "s.rules").diagnostics == []


def test_a_game_whose_record_would_be_too_long_stops_cleanly(monkeypatch):
    """Bounded by what it holds: past MAX_RECORD_EVENTS events the game stops with E646."""
    monkeypatch.setattr(limits, "MAX_RECORD_EVENTS", 50)
    from warband.game import gamelog
    monkeypatch.setattr(gamelog, "MAX_RECORD_EVENTS", 50)
    result = run("play", SCENARIO)
    clean(result)
    assert result.exit_code == 2 and "error[E646]: the game's record would hold more than 50 " \
                                      "events" in result.stderr


def test_a_game_page_too_large_stops_cleanly(monkeypatch):
    """A game page of 400 wandering fighters over 40 rounds ended in a MemoryError traceback:
    the places a page notes are bounded (MAX_PAGE_STATES)."""
    from warband.game import viewer
    monkeypatch.setattr(viewer, "MAX_PAGE_STATES", 500)
    for args in (["--format", "html"], ["--svg", "2"]):
        result = run("play", SCENARIO, *args)
        clean(result)
        assert result.exit_code == 2 and "error[E646]: the game page would show more than 500 " \
                                          "places of fighters" in result.stderr
    assert limits.MAX_PAGE_STATES >= 100 * limits.MAX_FIGHTERS


# ---- item 15: a scenario's text on a terminal, in SVG ------------------------------------------------

SCENARIO_TEXT = '''ruleset "esc"
  extends "super-simple-skirmish"

scenario esc "Esc\\x1b[2Jtitle" {
  board 24 by 24 inches
  side a "A side\\x1b[31m red \\u202e rev \\x7f" {
    fighter "Zed\\x1b[1A\\x00" { class Warrior  stat Might = 5 }
  }
  side b "B" {
    fighter "Bo\\ufffe" { class Warrior  stat Might = 5 }
  }
  zone south "s" = area (1, 1) to (23, 5)
  zone north "n" = area (1, 19) to (23, 23)
  setup "x" {
    for each s in sides {
      restock(s, total(1 for f in s.fighters))
    }
    set a.Order = 1
    set b.Order = 2
    deploy a in south
    deploy b in north
  }
  round "r" {
    game_round()
  }
  rounds 2
}
'''


def test_a_scenarios_text_reaches_no_terminal_raw_and_no_xml(tmp_path):
    """`rules show SCENARIO` printed a side's title raw (ESC, DEL, U+202E); control characters
    in a fighter's name made `--svg` ill-formed XML and reached the terminal raw from the game
    page printed without -o."""
    path = tmp_path / "esc.rules"
    path.write_text(SCENARIO_TEXT, encoding="utf-8")
    shown = clean(run("rules", "show", str(path)))
    assert "A side\\x1b[31m red \\u202e rev \\x7f" in shown
    picture = clean(run("play", str(path), "--svg", "1"))
    ElementTree.fromstring(picture)
    assert "Zed\\x1b[1A\\x00" in picture
    page = clean(run("play", str(path), "--format", "html"))
    assert NOT_XML.search(page) is None
