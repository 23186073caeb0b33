"""Hardening: no bad input crashes, hangs or loses data (of the games, only replayed records).

1. Property tests: rules files and warband files, valid, mutated (characters, tokens and lines
   deleted, duplicated, swapped, inserted) and random, through every stage a command runs:
   compile, show, schema, diff; load, validate, roster, fmt, convert; the odds command line's
   fighters and policies. Only Diagnostics may come out, each inside its file.
2. Limits: every limit refuses with a clear error, quickly.
3. Files: every command that writes does so atomically, never over a file without --force, and
   leaves the original untouched on any error, an interrupt included.
4. Strange command lines: exit 0, 1 or 2, never a traceback.
5. Game records given to `warband play --replay`, mutated: refused cleanly (E916, E917) or
   replayed exactly (a property test, section 4 below; tests/test_replay_records.py has the rest).

Budgets: each property runs a few dozen examples by default; `--budget large` (or
HYPOTHESIS_PROFILE=large) runs WARBAND_FUZZ_EXAMPLES (100,000 unless set) each. See
docs/robustness.md.
"""

from __future__ import annotations

import functools
import io
import json
import re
import reprlib
import signal
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from warband.diagnostics import Diagnostic
from warband.lang.compiler import compile_text

ROOT = Path(__file__).resolve().parents[1]


# CPU seconds one example may take: every one takes well under a second, so an example past
# this is a hang of the toolkit (a number of a billion digits, say). Without it a hang is a run
# that never ends, with nothing to show for it; with it, the run stops and names the input.
EXAMPLE_CPU_SECONDS = 30
CPU_TIMER = hasattr(signal, "setitimer") and hasattr(signal, "SIGPROF")


class ExampleHangs(BaseException):
    """An example took over EXAMPLE_CPU_SECONDS of CPU. A BaseException, so that no `except
    Exception` of the code under test (a template's errors, say) takes it for its own."""


def cpu_bounded(test):
    """`test`, stopped with ExampleHangs (its input shown) past EXAMPLE_CPU_SECONDS of the
    process's CPU time (ITIMER_PROF: a loaded machine does not make an example time out).
    Where there is no such timer (Windows), `test` is left unbounded."""
    if not CPU_TIMER:
        return test

    def timed_out(signum, frame):
        raise ExampleHangs(f"an example took over {EXAMPLE_CPU_SECONDS} s of CPU")

    @functools.wraps(test)
    def run(*args, **kwargs):
        previous = signal.signal(signal.SIGPROF, timed_out)
        signal.setitimer(signal.ITIMER_PROF, EXAMPLE_CPU_SECONDS)
        try:
            return test(*args, **kwargs)
        except ExampleHangs:
            print(f"hangs: {test.__name__}{reprlib.repr((args, kwargs))}\n"
                  f"in full: {(args, kwargs)!r:.20000}", file=sys.stderr)
            raise
        finally:
            signal.setitimer(signal.ITIMER_PROF, 0)
            signal.signal(signal.SIGPROF, previous)
    return run


def budget(examples: int):
    """`examples` per property in the default run; the large profile's count under --budget
    large (registered in tests/conftest.py). Every example is bounded by cpu_bounded."""
    if settings.get_current_profile_name() == "large":
        chosen = settings(settings.get_profile("large"))
    else:
        chosen = settings(max_examples=examples, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow,
                                                 HealthCheck.data_too_large,
                                                 HealthCheck.filter_too_much])

    def apply(test):
        # (Hypothesis runs `inner_test` once per example: the bound is per example)
        test.hypothesis.inner_test = cpu_bounded(test.hypothesis.inner_test)
        return chosen(test)
    return apply



@pytest.mark.skipif(not CPU_TIMER, reason="no CPU-time timer (signal.setitimer) on this platform")
def test_an_example_that_hangs_is_stopped_and_named(monkeypatch, capsys):
    """The bound works: an example past it stops the property, and its input is shown."""
    monkeypatch.setattr(__import__(__name__), "EXAMPLE_CPU_SECONDS", 1)

    @budget(3)
    @given(st.integers(7, 7))
    def spins(n):
        while n:
            pass

    try:
        spins()
    except ExampleHangs:
        pass
    else:
        raise AssertionError("the example was not stopped")
    assert "hangs: spins((), {'n': 7})" in capsys.readouterr().err

# ---- the corpus ---------------------------------------------------------------------------------

def _texts(paths) -> list[tuple[Path, str]]:
    out = []
    for path in sorted(set(paths)):
        try:
            out.append((path, path.read_text(encoding="utf-8")))
        except UnicodeDecodeError:   # a deliberately broken example: used as bytes elsewhere
            continue
    return out


RULES = _texts(list((ROOT / "dsl").rglob("*.rules")) + list((ROOT / "tests").rglob("*.rules")))
WARBAND_FILES = _texts(list((ROOT / "warbands").glob("*.yaml"))
                       + list((ROOT / "tests").rglob("*.yaml")))
VALID_WARBANDS = [(p, t) for p, t in WARBAND_FILES if p.parent == ROOT / "warbands"]

RULES_WORDS = sorted(set(re.findall(r'"([a-z_]+)"i?', (ROOT / "dsl" / "warband.lark").read_text()))
                     | {"{", "}", "(", ")", ",", ".", "=", "==", "=>", "->", "..", ":", "+",
                        "-", "*", "/", "3d6", "d20", "d0", "0d6", "1000d1000", "99999999999",
                        "-1", '"', '"text"', "#", "\n", "\t", " ", "x", "f", "Might", "\u2019",
                        "\u00e9", "\x00"})
YAML_WORDS = ["", ":", " ", "-", "#", '"', "'", "\n", "  ", "[", "]", "{", "}", ",", "\t", "~",
              "0", "x", "&a", "*a", "!!str", "!!int", "|", ">", "? ", "---", "...", "%YAML 1.1",
              "1e999", "0x" + "f" * 20, "-" * 3, "\ufeff", "\x00", "\u2028", "null", "yes",
              "count: 1000000000", "fighters:", "ruleset: smart", "ruleset: ../x.rules",
              "name: X", "points: -5", "class: Soldier", "might: 99"]


def _line_ops(draw, text: str, pool: list[str]) -> str:
    lines = text.split("\n")
    i = draw(st.integers(0, max(0, len(lines) - 1)))
    op = draw(st.sampled_from(["delete", "duplicate", "swap", "insert", "indent", "dedent"]))
    if op == "delete":
        del lines[i]
    elif op == "duplicate":
        lines.insert(i, lines[i])
    elif op == "swap":
        j = draw(st.integers(0, max(0, len(lines) - 1)))
        lines[i], lines[j] = lines[j], lines[i]
    elif op == "insert":
        other = draw(st.sampled_from(pool)).split("\n")
        lines.insert(i, draw(st.sampled_from(other)))
    elif op == "indent":
        lines[i] = " " * draw(st.integers(1, 4)) + lines[i]
    else:
        lines[i] = lines[i][draw(st.integers(1, 4)):]
    return "\n".join(lines)


def _token_ops(draw, text: str, words: list[str]) -> str:
    parts = re.split(r"(\s+)", text)
    tokens = [i for i, p in enumerate(parts) if p and not p.isspace()]
    if not tokens:
        return text + draw(st.sampled_from(words))
    i = draw(st.sampled_from(tokens))
    op = draw(st.sampled_from(["delete", "duplicate", "swap", "replace"]))
    if op == "delete":
        parts[i] = ""
    elif op == "duplicate":
        parts[i] = parts[i] + " " + parts[i]
    elif op == "swap":
        j = draw(st.sampled_from(tokens))
        parts[i], parts[j] = parts[j], parts[i]
    else:
        parts[i] = draw(st.sampled_from(words))
    return "".join(parts)


def _char_ops(draw, text: str, words: list[str]) -> str:
    at = draw(st.integers(0, len(text)))
    op = draw(st.sampled_from(["delete", "insert", "duplicate", "random"]))
    if op == "delete":
        return text[:at] + text[draw(st.integers(at, min(len(text), at + 40))):]
    if op == "insert":
        return text[:at] + draw(st.sampled_from(words)) + text[at:]
    if op == "duplicate":
        end = draw(st.integers(at, min(len(text), at + 80)))
        return text[:end] + text[at:end] + text[end:]
    return text[:at] + draw(st.text(max_size=6)) + text[at:]


@st.composite
def mutated(draw, corpus: list[tuple[Path, str]], words: list[str], most: int = 6):
    """(the file the text came from, a damaged copy of it): 0 to `most` edits of any kind."""
    path, text = draw(st.sampled_from(corpus))
    pool = [t for _, t in corpus]
    for _ in range(draw(st.integers(0, most))):
        how = draw(st.sampled_from([_line_ops, _token_ops, _char_ops]))
        text = how(draw, text, pool) if how is _line_ops else how(draw, text, words)
    return path, text


# ---- what every result must satisfy ------------------------------------------------------------

def assert_inside(d: Diagnostic, texts: dict[str, str]) -> None:
    """A diagnostic names a file whose text we hold, a line of it, and a column of that line
    (one past its end at most: where something is missing)."""
    assert d.span is not None, d
    assert d.span.file in texts, (d, list(texts))
    lines = texts[d.span.file].split("\n")
    assert 1 <= d.span.line <= len(lines), (d, len(lines))
    assert 1 <= d.span.column <= len(lines[d.span.line - 1]) + 1, (d, lines[d.span.line - 1])
    assert d.message.strip(), d   # (it may begin with a name: "Might -1 is outside 1..100")
    for r in d.related:
        assert r.span.file in texts, r


def compile_checked(text: str, file: str):
    compiled = compile_text(text, file)
    for d in compiled.diagnostics:
        assert_inside(d, compiled.sources.texts)
    if compiled.ruleset is None:
        assert compiled.errors, "no ruleset and no error"
    return compiled


def use_ruleset(ruleset, base=None) -> None:
    """What `rules show`, `schema` and `rules diff` do with a ruleset that compiled."""
    from warband.lang import diff
    from warband.lang import summary as show
    from warband.lists import schema
    show.as_json(ruleset)
    schema.schema_text(schema.ruleset_schema(ruleset))
    if base is not None:
        diff.as_text(base, ruleset, diff.diff(base, ruleset))
        diff.as_text(ruleset, base, diff.diff(ruleset, base))


# ---- 1. rules files ----------------------------------------------------------------------------

@budget(60)
@given(mutated(RULES, RULES_WORDS))
def test_mutated_rules_files_give_only_well_placed_diagnostics(case):
    path, text = case
    compiled = compile_checked(text, str(path))
    if compiled.ruleset is not None:
        original = compile_text(path.read_text(encoding="utf-8"), str(path)).ruleset
        use_ruleset(compiled.ruleset, original)


@budget(40)
@given(st.lists(st.sampled_from([ln for _, t in RULES for ln in t.split("\n")]), max_size=40))
def test_shuffled_lines_of_rules_files_never_crash(lines):
    compile_checked('ruleset "fuzz"\n' + "\n".join(lines), "fuzz.rules")


@budget(40)
@given(st.lists(st.sampled_from(RULES_WORDS), max_size=80))
def test_grammar_word_soup_never_crashes(words):
    compile_checked('ruleset "fuzz"\n' + " ".join(words), "fuzz.rules")


@budget(40)
@given(st.text(max_size=300))
def test_random_text_as_rules_never_crashes(text):
    compile_checked(text, "fuzz.rules")


# ---- 2. warband files --------------------------------------------------------------------------

def validate_checked(raw: bytes, path: Path):
    from warband.lists.validate import Validation
    from warband.lists.warband_file import Source
    validation = Validation()
    result = validation.source(Source(str(path), raw, path.parent))
    for d in result.diagnostics:
        if d.span is None:
            # only a ruleset named in the file that cannot be found has no place... and it has
            assert d.code in ("E100", "E404"), d
            continue
        # a file that is not UTF-8 text has no text: its position is counted in its bytes
        texts = {str(path): raw.decode("latin-1"), **validation.sources.texts}
        assert_inside(d, texts)
    return result, validation


@budget(80)
@given(mutated(WARBAND_FILES, YAML_WORDS))
def test_mutated_warband_files_validate_with_well_placed_diagnostics(case):
    path, text = case
    validate_checked(text.encode("utf-8"), path)


@budget(40)
@given(st.binary(max_size=300))
def test_random_bytes_as_a_warband_never_crash(raw):
    validate_checked(raw, ROOT / "warbands" / "fuzz.yaml")


@budget(60)
@given(mutated(WARBAND_FILES, YAML_WORDS, most=4))
def test_fmt_keeps_a_file_valid_and_its_meaning(case):
    """fmt never fails on a file that loads (E640/E641 are toolkit bugs); it is idempotent; the
    data read back is the same; a valid file stays valid, with the same data."""
    from warband.lists.fmt import format_source, format_text, load_document, plain
    from warband.lists.warband_file import Source
    path, text = case
    result = format_source(Source(str(path), text.encode("utf-8"), path.parent))
    # E640/E641 are toolkit bugs, but for what ruamel cannot write back: an explicit key, a
    # Unicode line separator, a block text ending in a line of spaces
    assert not [d for d in result.diagnostics if d.code in ("E640", "E641")
                and "explicit key" not in d.message and "line separator" not in d.message
                and "line of only spaces" not in d.message], \
        result.diagnostics
    if result.text is None:
        return
    assert plain(load_document(result.text)) == plain(load_document(text))
    again = format_source(Source(str(path), result.text.encode("utf-8"), path.parent))
    assert again.text == result.text
    before, _ = validate_checked(text.encode("utf-8"), path)
    after, _ = validate_checked(result.text.encode("utf-8"), path)
    assert sorted(d.code for d in after.diagnostics) == sorted(d.code for d in before.diagnostics)
    assert after.warband == before.warband
    assert format_text(result.text, None) is not None


@budget(30)
@given(mutated(VALID_WARBANDS, YAML_WORDS, most=3))
def test_rosters_of_damaged_warbands_never_crash(case):
    from warband.lists import render_roster
    from warband.lists.roster import roster
    _, text = case
    found = roster("-", stdin=io.BytesIO(text.encode("utf-8")))
    if found.model is not None:
        for fmt in ("text", "markdown", "html"):
            render_roster.render(found.model, fmt)


@budget(20)
@given(mutated(VALID_WARBANDS, YAML_WORDS, most=3),
       st.sampled_from(["super-simple-skirmish", "swords-against-sorcery", "smart", "nope"]))
def test_converting_damaged_warbands_never_crashes(case, target):
    from warband.lists.convert import convert
    _, text = case
    result = convert("-", target, stdin=io.BytesIO(text.encode("utf-8")))
    for d in result.diagnostics:
        if d.span is not None:
            assert d.span.file in result.sources.texts, d


# ---- long lines and many mistakes (issue 18, item 6) ---------------------------------------------

# what may be wrong with one fighter, and with one class of a rules file
FIGHTER_FAULTS = ["", "traits: [Nope]", "might: 100", "class: Soldir", "bogus: 1",
                  "equipment: [Nothing, Nothing]", "count: 0", "name: ''"]
CLASS_FAULTS = ["", "traits Nope{i}", "tier nowhere{i}", "stat Nope{i} = 3", "equipment Thing{i}"]


@st.composite
def long_and_many(draw) -> tuple[str, str]:
    """A warband or rules file with many entries, a share of them wrong, on one line (flow
    YAML, or a rules file without line breaks) or with long names: (file name, text)."""
    # (over MAX_SHOWN_PER_FILE mistakes, lines over MAX_EXCERPT_WIDTH; small enough that a
    # large run of 100,000 examples takes an hour, not a day)
    n = draw(st.integers(1, 150))
    pad = "x" * draw(st.sampled_from([0, 0, 40, 300, 1500]))
    one_line = draw(st.booleans())
    faults = draw(st.lists(st.sampled_from(FIGHTER_FAULTS), min_size=1, max_size=4))
    if draw(st.booleans()):
        rules = [f"class C{i}{pad} {{ {CLASS_FAULTS[i % len(CLASS_FAULTS)].format(i=i)} }}"
                 for i in range(n)]
        head = 'ruleset "many" stat Might: 1..10 trait Tough'
        return "many.rules", (" " if one_line else "\n").join([head, *rules]) + "\n"
    entries = []
    for i in range(n):
        fault = faults[i % len(faults)]
        fields = {"name": f"F{i}{pad}", "class": "Soldier", "might": "5"}
        key, _, value = fault.partition(": ")
        if key:
            fields[key] = value
        entries.append("{" + ", ".join(f"{k}: {v}" for k, v in fields.items()) + "}")
    head = "name: Many, ruleset: super-simple-skirmish, points: 50"
    if one_line:
        return "many.yaml", f"{{{head}, fighters: [{', '.join(entries)}]}}\n"
    return "many.yaml", head.replace(", ", "\n") + "\nfighters:\n" + \
        "".join(f"  - {e}\n" for e in entries)


@budget(25)
@given(long_and_many())
def test_long_lines_and_many_mistakes_give_bounded_reports(case):
    """Whatever the number of mistakes and the length of the lines, the reports for people
    show at most MAX_SHOWN_PER_FILE diagnostics a file and count the rest, every line they print
    is bounded (excerpts cut around the caret, long texts cut), and so is their size; JSON keeps
    every diagnostic, each in its file."""
    from warband.diagnostics import render_text
    from warband.limits import MAX_SHOWN_PER_FILE, MAX_SHOWN_TEXT
    from warband.lists import reporters
    from warband.lists.validate import Report
    name, text = case
    if name.endswith(".rules"):
        compiled = compile_checked(text, name)
        diagnostics = compiled.diagnostics
        outputs = [render_text(diagnostics, compiled.sources)]
    else:
        result, validation = validate_checked(text.encode("utf-8"), ROOT / "warbands" / name)
        diagnostics = result.diagnostics
        report = Report([result], validation.sources)
        outputs = [reporters.render(report, "text"), reporters.render(report, "github")]
        listed = json.loads(reporters.render(report, "json"))["files"][0]["diagnostics"]
        assert len(listed) == len(diagnostics)
    mine = [d for d in diagnostics if d.span is None or d.span.file.endswith(name)]
    for out in outputs:
        # (a GitHub annotation is one line: its message, hint and places joined by %0A)
        longest = max(out.replace("%0A", "\n").split("\n"), key=len)
        assert len(longest) <= 2 * MAX_SHOWN_TEXT + 200, longest[:300]
        assert len(out) <= (MAX_SHOWN_PER_FILE + 1) * 12 * MAX_SHOWN_TEXT, len(out)
        if len(mine) > MAX_SHOWN_PER_FILE:
            assert f"and {len(mine) - MAX_SHOWN_PER_FILE:,} more" in out, out[-300:]


# ---- 3. the odds command line's fighters and policies ------------------------------------------

FIGHTER_WORDS = ["class=", "Soldier", "Gunslinger", "might=", "10", "-1", "99999999999999999999",
                 "=", " ", "name=", "equipment=", "x", "yes", "no", "Fast", "Fate=", "#", "é",
                 "warbands/the-family.yaml#", "Momma", "\t", ",", "1e9"]


@budget(60)
@given(st.lists(st.sampled_from(FIGHTER_WORDS), max_size=12),
       st.lists(st.text(max_size=20), max_size=3))
def test_odds_fighters_and_policies_from_any_text(words, policies):
    from warband.lang.compiler import load
    from warband.run import odds
    ruleset = load("super-simple-skirmish").ruleset
    text = "".join(words)
    diagnostics: list[Diagnostic] = []
    odds.parse_fighter(text, "--attacker", ruleset, 0, diagnostics)
    odds.parse_policies(policies, ruleset, diagnostics)
    texts = {"--attacker": text, "--policy": " ".join(policies)}
    for d in diagnostics:
        if d.span is not None and d.span.file in texts:
            assert_inside(d, texts)


# ---- 4. game records given to `warband play --replay` -------------------------------------------
# Records of the shipped games, made by `warband play --format json` (once per process), mutated
# as data (a key deleted, a value replaced by one of another type, a huge number, deep nesting,
# an event dropped, duplicated or moved) or as text (truncated, bytes inserted or flipped, a
# number made 5,000 digits long, brackets nested 100,000 deep), then replayed through the command
# line. Exit 0, 1 or 2, no traceback, every error line `path:line:col: error[CODE]` or
# `error[CODE]`; and a record that replays with exit 0 is the replayed game's record, to the byte
# of its JSON: nothing forged is accepted.

REPLAY_GAMES = [("sss-standard-game", "3", None), ("smart-dungeon", "1", "3"),
                ("greedy-dudes-vs-menace", "2", "3")]
_RECORDS: dict[int, str] = {}
ODD_VALUES = [None, True, False, 0, -1, 1.5, 2 ** 63, 2 ** 64, -(2 ** 63) - 1, float("inf"), "",
              "x", "\x1b[2J", "\u202e", "9" * 40, "random", "greedy", "*", [], {}, [1, 2],
              [[1, 2]], {"type": "roll"}, {"type": "decision", "decision": "placement",
                                          "by": None, "choice": [0, 0]}]
DIAGNOSTIC_LINE = re.compile(r"^(\S.*:\d+:\d+: )?(error|warning)\[[EW]\d{3}\]: ")


def replay_record(index: int) -> str:
    """The JSON text of a shipped game's record (played once per process)."""
    if index not in _RECORDS:
        from typer.testing import CliRunner

        from warband.cli import app
        scenario, seed, rounds = REPLAY_GAMES[index]
        args = ["play", scenario, "--seed", seed, "--format", "json"]
        made = CliRunner().invoke(app, args + (["--max-rounds", rounds] if rounds else []))
        assert made.exit_code == 0, made.output
        _RECORDS[index] = made.stdout
    return _RECORDS[index]


def _somewhere(draw, data):
    """A path to a value inside `data` (a container and a key or index in it)."""
    holder, key = None, None
    node = data
    for _ in range(draw(st.integers(0, 4))):
        if isinstance(node, dict) and node:
            holder, key = node, draw(st.sampled_from(sorted(node)))
        elif isinstance(node, list) and node:
            holder, key = node, draw(st.integers(0, len(node) - 1))
        else:
            break
        node = holder[key]
    return holder, key


@st.composite
def damaged_record(draw) -> bytes:
    import copy
    import json
    text = replay_record(draw(st.sampled_from(range(len(REPLAY_GAMES)))))
    data = json.loads(text)
    for _ in range(draw(st.integers(0, 3))):   # as data
        holder, key = _somewhere(draw, data)
        if holder is None:
            continue
        op = draw(st.sampled_from(["delete", "replace", "text", "retype", "events"]))
        if op == "delete":
            del holder[key]
        elif op == "replace":
            holder[key] = copy.deepcopy(draw(st.sampled_from(ODD_VALUES)))   # (mutated later)
        elif op == "text":
            holder[key] = draw(st.text(max_size=12))
        elif op == "retype":
            value = holder[key]
            holder[key] = [copy.deepcopy(value)] if draw(st.booleans()) else \
                str(value) if not isinstance(value, str) else \
                draw(st.integers(-10, 10 ** 20))
        elif isinstance(data, dict) and isinstance(data.get("events"), list) and \
                data["events"]:
            events = data["events"]
            i = draw(st.integers(0, len(events) - 1))
            j = draw(st.integers(0, len(events) - 1))
            how = draw(st.sampled_from(["drop", "copy", "move"]))
            if how == "drop":
                del events[i]
            elif how == "copy":
                events.insert(j, copy.deepcopy(events[i]))
            else:
                events.insert(j, events.pop(i))
    out = json.dumps(data, indent=draw(st.sampled_from([None, 1]))).encode()
    for _ in range(draw(st.integers(0, 2))):   # as text
        at = draw(st.integers(0, len(out)))
        op = draw(st.sampled_from(["truncate", "insert", "flip", "huge", "deep"]))
        if op == "truncate":
            out = out[:at]
        elif op == "insert":
            out = out[:at] + draw(st.binary(min_size=1, max_size=8)) + out[at:]
        elif op == "flip" and out:
            at = min(at, len(out) - 1)
            out = out[:at] + bytes([out[at] ^ draw(st.integers(1, 255))]) + out[at + 1:]
        elif op == "huge":
            digits = re.search(rb"\d+", out[at:])
            if digits:
                start, end = at + digits.start(), at + digits.end()
                out = out[:start] + b"7" * draw(st.sampled_from([19, 20, 4300, 5000])) + \
                    out[end:]
        elif op == "deep":
            depth = draw(st.sampled_from([5, 200, 1000, 100_000]))
            out = out[:at] + b"[" * depth + b"1" + b"]" * depth + out[at:]
    return out


@budget(25)
@given(damaged_record())
def test_damaged_game_records_replay_or_are_refused_cleanly(raw):
    import json
    import tempfile

    from typer.testing import CliRunner

    from warband.cli import app
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "game.json"
        path.write_bytes(raw)
        result = CliRunner().invoke(app, ["play", "--replay", str(path), "--format", "json"])
    assert result.exit_code in (0, 1, 2), (result.exit_code, result.output[-2000:])
    assert result.exception is None or isinstance(result.exception, SystemExit), \
        repr(result.exception)
    codes = re.findall(r"error\[(E\d{3})\]", result.stderr)
    event(f"exit {result.exit_code}" + (f", {codes[0]}" if codes else ""))   # (statistics)
    assert "Traceback" not in result.output
    for line in result.stderr.split("\n"):   # (not splitlines: \x1d in an excerpt is no line end)
        if line and not line[0].isspace():
            assert DIAGNOSTIC_LINE.match(line), line
    if result.exit_code == 0:   # accepted: then it is exactly the game the replay played
        assert json.dumps(json.loads(result.stdout), sort_keys=True) == \
            json.dumps(json.loads(raw), sort_keys=True)
    else:
        assert "error[" in result.stderr


# ---- what the property tests found (each a regression test) ------------------------------------

def test_a_lone_cr_ends_a_line_for_the_excerpt_too():
    """Found by test_random_bytes_as_a_warband_never_crash (b'\\r\\x00'): YAML counts an old Mac
    line end (a lone CR) as a line break, the excerpt did not, so line 2 had no text to show."""
    from warband.diagnostics import render_text
    result, validation = validate_checked(b"name: X\rruleset: smart\rfighters: [\x01]\r",
                                          ROOT / "warbands" / "cr.yaml")
    [d] = result.diagnostics
    assert (d.code, d.span.line, d.span.column) == ("E601", 3, 12)
    assert " 3 | fighters: [" in render_text([d], validation.sources)


def test_a_number_as_a_key_leaves_no_other_entry_unchecked():
    """Found by the large run of test_mutated_warband_files_validate_with_well_placed_diagnostics:
    a key that is a number (`{name: L, 5, skill: 3}`) stopped the schema check of the whole file,
    so another entry without a stat the army rules read passed as well-formed and a rule compared
    None with 4 (a traceback). The schema now checks the file without such keys."""
    text = (b"name: X\nruleset: guild.rules\nfighters:\n"
            b"  - {name: Mirela, class: Captain}\n"
            b"  - {name: Lamplighter, class: Lamplighter,  5, skill: 3}\n"
            b"  - {name: Porter, class: Porter, count: 4, kill: 2}\n")
    result, _ = validate_checked(text, ROOT / "tests" / "warband_errors" / "number_key.yaml")
    assert [(d.code, d.span.line) for d in result.diagnostics] == [("E622", 5), ("E620", 6)]


def test_an_empty_key_leaves_no_entry_read_as_well_formed():
    """Found by the large run of test_rosters_of_damaged_warbands_never_crash (31,397 examples
    in): an empty key at the top (`: The Menace`) stopped the schema check, so `traits: 1` was
    read as a list of traits (a TypeError in the roster). Fixed with the number key above."""
    from warband.lists.roster import roster
    text = ("name: X\n: The Menace\nruleset: swords-against-sorcery\nfighters:\n"
            "  - name: Menace\n    training: 4\n    traits:\n       1\n")
    found = roster("-", stdin=io.BytesIO(text.encode("utf-8")))
    assert {d.code for d in found.diagnostics} == {"E622"}


def test_a_list_under_a_local_tag_has_no_positions_and_is_still_placed():
    """Found by the large run of test_mutated_warband_files_validate_with_well_placed_diagnostics:
    `traits: !omap` with a list under it (a local tag, one '!') keeps no position for its
    items, and placing the unknown trait in it was a TypeError."""
    text = (b"name: X\nruleset: super-simple-skirmish\nfighters:\n  - name: Keeper\n"
            b"    class: Soldier\n    might: 5\n    traits: !omap\n      - Charge: 1\n")
    result, _ = validate_checked(text, ROOT / "warbands" / "omap.yaml")
    assert result.diagnostics and all(d.span is not None for d in result.diagnostics)


def test_names_too_long_for_the_file_system_are_diagnostics():
    """Found by tests/test_strange_command_lines.py: Path.is_file() raises for a name longer
    than the system allows (ENAMETOOLONG); `rules check 999...9` was a traceback. The same name
    in a rules file's `extends` or a warband's `ruleset:` was a crash too."""
    long = "x" * 5000 + ".rules"
    compiled = compile_checked(f'ruleset "house"\n  extends "{long}"\n', "house.rules")
    assert [d.code for d in compiled.diagnostics] == ["E435"]
    result, _ = validate_checked(f"name: X\nruleset: {long}\nfighters: []\n".encode(),
                                 ROOT / "warbands" / "long.yaml")
    assert "E100" in [d.code for d in result.diagnostics]


def test_an_odds_value_with_a_huge_exponent_is_refused_at_once():
    """Found by the large run of the odds arguments: `Fate=1e99999999999999999999` (two of the
    fighter words run together) made Fraction build a number of that many digits: minutes of
    work and gigabytes, for one argument. A value is a whole number, a decimal or a fraction."""
    import time
    from fractions import Fraction

    from warband.lang.compiler import load
    from warband.run import odds
    ruleset = load("super-simple-skirmish").ruleset
    for text in ("Fate=1e99999999999999999999", "Fate=1e9", "Fate=" + "9" * 31, "Fate=1/0",
                 "Fate=0x10", "Fate=\u0663"):
        diagnostics: list[Diagnostic] = []
        start = time.process_time()
        odds.parse_fighter(text, "--attacker", ruleset, 0, diagnostics)
        assert time.process_time() - start < 2, text
        refused = [d for d in diagnostics if "not a number" in d.message]  # (and no class=)
        assert [d.code for d in refused] == ["E901"], (text, diagnostics)
        assert "exponent" in (refused[0].hint or "")
    for raw, value in (("2", 2), ("-1", -1), ("2.5", Fraction(5, 2)), ("1/2", Fraction(1, 2)),
                       ("9" * 30, int("9" * 30))):
        diagnostics = []
        parsed = odds.parse_fighter(f"Fate={raw}", "--attacker", ruleset, 0, diagnostics)
        assert not [d for d in diagnostics if "Fate" in d.message or "number" in d.message]
        assert list(parsed.side_values.values()) == [value], raw


def test_a_binary_file_given_as_a_conversion(tmp_path):
    """Found by tests/test_strange_command_lines.py: `convert --using BINARY` was a
    UnicodeDecodeError traceback."""
    from warband.lists.convert import convert
    (tmp_path / "binary.rules").write_bytes(bytes(range(256)))
    result = convert(str(ROOT / "warbands" / "greedy-dudes.yaml"), "super-simple-skirmish",
                     using=[str(tmp_path / "binary.rules")])
    assert result.text is None
    assert [(d.code, d.message) for d in result.diagnostics] == [
        ("E100", f"{tmp_path / 'binary.rules'} is not UTF-8 text")]


def test_errors_in_a_ruleset_a_conversion_names_show_their_lines():
    """Found by the large run of test_mutated_rules_files_give_only_well_placed_diagnostics
    (tests/conversion_errors/broken_source.rules unchanged): the errors of the broken source
    ruleset were related to a file whose text `rules check` did not hold: no excerpt."""
    compiled = compile_checked((ROOT / "tests/conversion_errors/broken_source.rules").read_text(),
                               "tests/conversion_errors/broken_source.rules")
    [d] = compiled.diagnostics
    assert d.code == "E801" and d.related[0].span.file in compiled.sources.texts


def test_fmt_refuses_a_block_text_ending_in_a_line_of_spaces():
    """Found by the large run of test_fmt_keeps_a_file_valid_and_its_meaning (after 54,587
    examples): a `|` text whose last line is spaces beyond its indentation, with no newline
    after it, lost that line when fmt moved its key (ruamel keeps it as layout after the
    text). fmt refused already (E641, "a toolkit bug"); now it says why, and where."""
    from warband.lists.fmt import format_source
    from warband.lists.warband_file import Source
    text = ("name: Grey Company\npoints: 350\nfighters:\n  - name: Aldric\n    might: 3\n"
            "notes: |\n  Hired at the river crossing.\n   ")
    result = format_source(Source("w.yaml", text.encode(), ROOT / "warbands"))
    assert result.text is None
    [d] = result.diagnostics
    assert (d.code, d.span.line, d.span.column) == ("E640", 6, 8)
    assert "line of only spaces" in d.message and "remove the spaces" in d.hint
    # the same text where fmt moves nothing is formatted, and keeps its last line
    kept = format_source(Source("w.yaml", text.replace("notes", "zzz").encode(),
                                ROOT / "warbands"))
    assert not kept.diagnostics or kept.diagnostics[0].code != "E641"


def test_fmt_refuses_an_explicit_key_it_cannot_write_back():
    """Found by the large run of test_fmt_keeps_a_file_valid_and_its_meaning: ruamel writes
    '? key' followed by a comment as YAML that does not load. fmt left the file alone already
    (E640, "this may be a toolkit bug"); now it says why, and where."""
    from warband.lists.fmt import format_source
    from warband.lists.warband_file import Source
    text = ("name: X\nruleset: super-simple-skirmish\nfighters:\n  - name: M\n    ?  Soldier\n"
            "    # muskets\n    might: 10\n")
    result = format_source(Source("w.yaml", text.encode(), ROOT / "warbands"))
    assert result.text is None
    [d] = result.diagnostics
    assert (d.code, d.span.line, d.span.column) == ("E640", 5, 5)
    assert "explicit key" in d.message


def test_fmt_refuses_an_explicit_key_under_a_local_tag():
    """Found by the large run of test_fmt_keeps_a_file_valid_and_its_meaning: `extra: !set`
    with `? first  # a comment` members was written back as YAML of other data (the refusal
    was E641, 'a toolkit bug'); it is the explicit key's E640, as without the tag."""
    from warband.lists.fmt import format_source
    from warband.lists.warband_file import Source
    text = ("name: C\nruleset: super-simple-skirmish\nfighters:\n  - {name: K, might: 5}\n"
            "extra: !set\n  ? first     # a comment on a member\n  ? second\n")
    found = format_source(Source("c.yaml", text.encode(), ROOT))
    assert [(d.code, d.span.line) for d in found.diagnostics] == [("E640", 6)]


def test_fmt_of_a_file_starting_with_blank_lines_is_idempotent():
    """Found by the large run of test_fmt_keeps_a_file_valid_and_its_meaning: the blank lines
    at the top went with the first key; once `name:` was moved up, a second fmt removed them."""
    from warband.lists.fmt import format_text
    text = "\n\nruleset: super-simple-skirmish\nfighters:\n  - {name: L, might: 2}\nname: X"
    once = format_text(text, None)
    assert once.startswith("name: X\n") and format_text(once, None) == once


def test_fmt_formats_a_tagged_value():
    """Found by run 3 of test_fmt_keeps_a_file_valid_and_its_meaning: `name: !!str House Guard`
    loads as a ruamel TaggedScalar, which compares by identity, so fmt thought formatting changed
    the data (E641, "a toolkit bug") and refused."""
    from warband.lists.fmt import format_source
    from warband.lists.warband_file import Source
    text = "ruleset: super-simple-skirmish\nname: !!str House Guard\nfighters: []\n"
    result = format_source(Source("w.yaml", text.encode(), ROOT / "warbands"))
    assert result.diagnostics == []
    assert result.text == "name: !!str House Guard\nruleset: super-simple-skirmish\nfighters: []\n"
