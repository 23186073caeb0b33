"""Files from strangers: what their text can do to a terminal, and to the size of the output.

1. Control characters (escape sequences, carriage returns, C1 controls, bidi overrides, line
   separators) in any name or text of a rules or warband file are shown escaped by every report
   for people: text, GitHub and SARIF; `rules show`, `rules diff`, `rules list`; the record of
   a game (rosters: tests/test_templates_sandbox.py). A class named "Soldir<ESC>[2K<CR>...0
   errors" must not erase the real report and print a clean one.
2. Long lines and many mistakes: excerpts are cut around their carets, a file's diagnostics are
   shown up to a bound (and counted beyond it), and did-you-mean hints cost a bounded amount of
   work whatever the number of names.

See docs/robustness.md ("Shared files" and the limits table).
"""

from __future__ import annotations

import json
import re
import time

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from warband.cli import app
from warband.diagnostics import Sources, Span, diag, did_you_mean, printable, render_text
from warband.game.gamelog import render_text as render_log
from warband.lang.compiler import compile_text
from warband.limits import (
    MAX_EXCERPT_MARK,
    MAX_EXCERPT_WIDTH,
    MAX_SHOWN_PER_FILE,
    MAX_SUGGEST_CANDIDATES,
    MAX_SUGGEST_NAME,
)
from warband.lists import reporters
from warband.lists.validate import Report, Validation

# What must never reach a terminal raw: C0 controls but tab and newline, DEL, C1 controls, the
# bidi marks, embeddings, overrides and isolates, and the Unicode line separators.
UNSAFE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069"
                    "\u2028\u2029]")
UNSAFE_CHARS = [chr(c) for c in [*range(0x09), *range(0x0B, 0x20), *range(0x7F, 0xA0), 0x061C,
                                 0x200E, 0x200F, *range(0x202A, 0x202F), *range(0x2066, 0x206A),
                                 0x2028, 0x2029]]

ATTACK = "Soldir\x1b[2K\r\x1b[1A1 file checked: 0 errors, 0 warnings\x1b[8m"


def run(*args: str, input: str | None = None):
    return CliRunner().invoke(app, list(args), input=input)


def report_of(text: str, name: str = "shared.yaml") -> Report:
    validation = Validation(None)
    result = validation.text(text, name)
    return Report([result], validation.sources)


def yaml_string(s: str) -> str:
    """A YAML double-quoted scalar holding `s` (controls written as YAML escapes)."""
    return json.dumps(s)   # JSON's escapes are YAML's: "\u001b", "\n", "\u202e"


def warband(class_name: str, fighter_name: str = "Ann", notes: str = "fine",
            name: str = "Mine") -> str:
    return (f"name: {yaml_string(name)}\nruleset: super-simple-skirmish\n"
            f"notes: {yaml_string(notes)}\nfighters:\n"
            f"  - name: {yaml_string(fighter_name)}\n    class: {yaml_string(class_name)}\n"
            f"    might: 10\n")


def assert_safe(output: str, where: str = "") -> None:
    found = UNSAFE.search(output)
    assert found is None, f"{where}: {found.group()!r} reached the output: " \
                          f"{output[max(0, found.start() - 60):found.end() + 20]!r}"


# ---- printable ----------------------------------------------------------------------------------

def test_printable_escapes_every_unsafe_character_and_nothing_else():
    for c in UNSAFE_CHARS:
        shown = printable(f"a{c}b")
        assert c not in shown and shown.startswith("a\\") and shown.endswith("b"), repr(c)
    assert printable("\x1b[2K") == "\\x1b[2K"
    assert printable("\u202e") == "\\u202e"
    assert printable("a\nb") == "a\\x0ab"
    assert printable("a\nb", lines=True) == "a\nb"
    assert printable("a\rb", lines=True) == "a\\x0db"
    plain = "Soldier, é, 漢字, emoji 🎲, tab\there, 100% [bold]"
    assert printable(plain) == plain


# ---- the attack of the issue, through every report ----------------------------------------------

def test_a_class_name_cannot_erase_the_report_or_fake_a_clean_summary():
    report = report_of(warband(ATTACK))
    for fmt in ("text", "github", "sarif"):
        out = reporters.render(report, fmt)
        assert_safe(out, fmt)
        assert "E624" in out
    text = reporters.render(report, "text")
    assert "\\x1b[2K\\x0d\\x1b[1A" in text
    assert text.rstrip().endswith("1 file checked, 1 invalid: 1 error, 0 warnings")
    # JSON is data: the exact name, escaped by JSON itself (no raw control character)
    data = json.loads(reporters.render(report, "json"))
    assert ATTACK in data["files"][0]["diagnostics"][0]["message"]
    assert_safe(reporters.render(report, "json"), "json")


def test_the_command_line_shows_the_attack_escaped(tmp_path):
    path = tmp_path / "shared.yaml"
    path.write_text(warband(ATTACK), encoding="utf-8")
    for fmt in ("text", "github", "sarif", "json"):
        result = run("validate", "--format", fmt, str(path))
        assert result.exit_code == 1, result.output
        assert_safe(result.output, fmt)


def test_sarif_message_texts_are_escaped_for_the_viewers_that_show_them():
    log = json.loads(reporters.render(report_of(warband(ATTACK)), "sarif"))
    texts = [r["message"]["text"] for r in log["runs"][0]["results"]]
    assert texts and all(UNSAFE.search(t) is None for t in texts)
    assert any("\\x1b[2K" in t for t in texts)


def test_github_commands_cannot_be_ended_or_forged_by_a_name():
    # a newline or carriage return would start a new workflow command ("::error ...")
    name = "x\r\n::error file=evil.yaml,line=1::forged\n%0A"
    out = reporters.render(report_of(warband(name)), "github")
    lines = out.splitlines()
    assert len(lines) == 1 and lines[0].startswith("::error file=shared.yaml")
    assert "%250A" in lines[0]     # a literal '%' is escaped, as GitHub asks


# ---- the property: any unsafe character in any text of a file -----------------------------------

unsafe_text = st.builds(
    lambda before, c, after: before + c + after,
    st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=8),
    st.sampled_from(UNSAFE_CHARS),
    st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=8))


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(class_name=unsafe_text, fighter=unsafe_text, notes=unsafe_text, name=unsafe_text)
def test_no_unsafe_character_of_a_warband_reaches_a_report_for_people(class_name, fighter,
                                                                      notes, name):
    report = report_of(warband(class_name, fighter, notes, name))
    for fmt in ("text", "github", "sarif"):
        assert_safe(reporters.render(report, fmt), fmt)
    # rosters: render_roster.printable (tests/test_templates_sandbox.py) shows their control
    # characters as U+FFFD


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(raw=unsafe_text, where=st.sampled_from(["title", "doc", "name", "comment", "outside"]))
def test_no_unsafe_character_of_a_rules_file_reaches_its_diagnostics(raw, where):
    """The raw character in the file (not an escape of the language): in a string, a comment, a
    name's place or between declarations; the diagnostics' excerpts show the line."""
    body = raw.replace('"', "'").replace("\\", "/")
    text = {
        "title": f'ruleset "r"\n  title "{body}"\nstat Might: 1..10\nclass A {{ traits Nope }}\n',
        "doc": f'ruleset "r"\nstat Might: 1..10 "{body}"\nclass A {{ traits Nope }}\n',
        "name": f'ruleset "r"\nstat Mi{body}ght: 1..10\n',
        "comment": f'ruleset "r"\n# {body}\nclass A {{ traits Nope }}\n',
        "outside": f'ruleset "r"\n{body}\n',
    }[where]
    compiled = compile_text(text, "shared.rules")
    out = render_text(compiled.diagnostics, compiled.sources)
    assert_safe(out, where)


# ---- excerpts: the caret under the escaped text -------------------------------------------------

def caret_column(out: str) -> tuple[str, int, int]:
    """The excerpt's source line (without its gutter) and the first and last caret columns."""
    lines = out.splitlines()
    source = next(line for line in lines if re.match(r" \d+ \| ", line))
    carets = next(line for line in lines if "^" in line)
    offset = source.index("| ") + 2
    return source[offset:], carets.index("^") - offset, carets.rindex("^") - offset


def test_the_caret_stands_under_the_escaped_text():
    line = "a\x1b[31m\u202e = Nope"
    col = line.index("Nope") + 1
    sources = Sources({"f.rules": line})
    out = render_text([diag("E201", "unknown name 'Nope'", Span("f.rules", 1, col, 1, col + 4))],
                      sources)
    source, first, last = caret_column(out)
    assert source[first:last + 1] == "Nope"
    # and a span over control characters underlines all of their escapes
    out = render_text([diag("E201", "x", Span("f.rules", 1, 2, 1, 8))], sources)
    source, first, last = caret_column(out)
    assert source[first:last + 1] == "\\x1b[31m\\u202e"


# ---- long lines and many mistakes ---------------------------------------------------------------

def test_an_excerpt_of_a_long_line_is_cut_around_its_caret():
    line = "x" * 50_000 + "HERE" + "y" * 50_000
    col = line.index("HERE") + 1
    out = render_text([diag("E201", "here", Span("f", 1, col, 1, col + 4))], Sources({"f": line}))
    assert len(out) < 2 * MAX_EXCERPT_WIDTH + 200
    source, first, last = caret_column(out)
    assert source[first:last + 1] == "HERE"
    assert source.startswith("…") and source.endswith("…")
    # a span longer than what is underlined: the carets stop, "…" says it goes on
    out = render_text([diag("E201", "long", Span("f", 1, 10, 1, 40_000))], Sources({"f": line}))
    source, first, last = caret_column(out)
    assert last - first + 1 == MAX_EXCERPT_MARK and source[last + 1] == "…"


def test_a_one_line_warband_far_over_its_points_gives_a_bounded_report():
    fighters = ", ".join(f'{{name: "F{i}", class: Soldier, might: 100}}' for i in range(1000))
    text = f'{{name: Big, ruleset: super-simple-skirmish, points: 100, fighters: [{fighters}]}}\n'
    assert len(text) > 40_000
    report = report_of(text)
    out = reporters.render(report, "text")
    assert len(out) < 100_000, len(out)   # was the whole line in every excerpt


def test_a_file_with_many_mistakes_shows_the_first_and_counts_the_rest():
    n = MAX_SHOWN_PER_FILE + 150
    text = 'ruleset "many"\nstat Might: 1..10\n' + "".join(
        f"class C{i} {{ traits Nope{i} }}\n" for i in range(n))
    compiled = compile_text(text, "many.rules")
    assert len(compiled.errors) == n
    out = render_text(compiled.diagnostics, compiled.sources)
    assert out.count("error[E201]") == MAX_SHOWN_PER_FILE
    assert out.rstrip().endswith(f"... and {150 + len(compiled.diagnostics) - n} more in "
                                 f"many.rules")
    # GitHub likewise; JSON and SARIF keep every diagnostic
    report = report_of("fighters: []\n" + "".join(f"x{i}: 1\n" for i in range(n)), "k.yaml")
    github = reporters.render(report, "github").splitlines()
    assert len(github) == MAX_SHOWN_PER_FILE + 1 and github[-1].startswith("::notice::... and")
    assert len(json.loads(reporters.render(report, "json"))["files"][0]["diagnostics"]) >= n
    assert len(json.loads(reporters.render(report, "sarif"))["runs"][0]["results"]) >= n


# ---- did-you-mean: bounded work -----------------------------------------------------------------

def test_did_you_mean_still_finds_slips_among_many_names():
    names = [f"Trait{i:05d}" for i in range(5000)] + ["Soldier", "Warrior", "Marksman"]
    assert did_you_mean("Trat01999", names) == "did you mean 'Trait01999'?"   # a slip early
    assert did_you_mean("Trait0199", names) is not None
    assert did_you_mean("Soldeir", names) == "did you mean 'Soldier'?"
    assert did_you_mean("soldier", names) == "did you mean 'Soldier'?"        # case only
    assert did_you_mean("Marksmna", names) == "did you mean 'Marksman'?"
    assert did_you_mean("Zebra", names) is None
    assert did_you_mean("x" * (MAX_SUGGEST_NAME + 1), names) is None


def old_did_you_mean(name: str, candidates) -> str | None:
    """did_you_mean as it was, comparing every candidate."""
    import difflib   # lazily: only this reference needs it
    pool = sorted(set(candidates))
    lowered = {c.lower(): c for c in pool}
    if name.lower() in lowered and lowered[name.lower()] != name:
        return f"did you mean '{lowered[name.lower()]}'?"
    close = difflib.get_close_matches(name, pool, n=1, cutoff=0.6)
    if not close:
        close = [lowered[m] for m in difflib.get_close_matches(name.lower(), list(lowered), n=1,
                                                                  cutoff=0.6)]
    return f"did you mean '{close[0]}'?" if close else None


names_st = st.text(alphabet="abcdeABCDE_", min_size=1, max_size=8)


@settings(max_examples=200, deadline=None)
@given(name=names_st, candidates=st.lists(names_st, max_size=MAX_SUGGEST_CANDIDATES))
def test_did_you_mean_of_a_few_names_is_what_it_was(name, candidates):
    assert did_you_mean(name, candidates) == old_did_you_mean(name, candidates)


def test_did_you_mean_costs_little_whatever_the_number_of_names():
    names = [f"Trait{i:05d}" for i in range(20_000)]
    # CPU time, not wall time: a busy machine (CI's other jobs) must not fail it
    start = time.process_time()
    for i in range(2000):
        did_you_mean(f"Trat{i:05d}", names)
    assert time.process_time() - start < 5   # was ~40 ms a call at 2,000 names


def test_thousands_of_unknown_names_among_thousands_of_declared_ones_check_quickly():
    n = 1500
    text = ('ruleset "big"\nstat Might: 1..10\n'
            + "".join(f'trait Trait{i:05d} "t"\n' for i in range(n))
            + "".join(f"class Class{i:05d} {{ traits Trat{i:05d} }}\n" for i in range(n)))
    start = time.process_time()   # CPU time: a busy machine must not fail it
    compiled = compile_text(text, "big.rules")
    took = time.process_time() - start
    assert len(compiled.errors) == n
    assert compiled.errors[-1].hint == f"did you mean 'Trait{n - 1:05d}'?"
    assert took < 20, f"took {took:.1f} s"   # 83 s at 2,000 before the bound; ~3 s after


# ---- the other texts for people -----------------------------------------------------------------

def test_rules_show_diff_and_list_show_file_text_escaped(tmp_path):
    base = tmp_path / "base.rules"
    base.write_text('ruleset "b"\n  title "B\x1b[2K [red]x[/red]"\nstat Might: 1..10 '
                    '"d\x1b]8;;http://e\x1b\\\\l\u202e"\n', encoding="utf-8")
    house = tmp_path / "house.rules"
    house.write_text('ruleset "h"\n  title "H\x9b2K"\n  extends "base.rules"\n'
                     'trait Odd "o\x1b[8m"\n', encoding="utf-8")
    shown = run("rules", "show", str(base))
    assert shown.exit_code == 0, shown.output
    assert_safe(shown.output, "show")
    assert "[red]x[/red]" in shown.output   # never read as markup
    diffed = run("rules", "diff", str(base), str(house))
    assert diffed.exit_code == 0, diffed.output
    assert_safe(diffed.output, "diff")


def test_the_record_of_a_game_is_shown_escaped():
    log = {"scenario_title": "T\x1b[2J", "seed": 1, "policies": {"a\u202e": "random"},
           "events": [{"type": "round", "round": 1},
                      {"type": "activate", "fighter": "F\x1b[1A\nfake line", "side": "S\r",
                       "action": "go"},
                      {"type": "end", "round": 1, "reason": "limit", "winner": "W\x07",
                       "scores": {"S\x1b": 1}}]}
    out = render_log(log)
    assert_safe(out, "log")
    assert "fake line" in out and "\nfake line" not in out   # one event stays one line


def test_a_name_as_long_as_its_file_is_quoted_cut():
    # (a text of a warband file is at most MAX_TEXT_CHARS since issue 33: as long as that)
    name = "Soldier" * 1_400
    out = reporters.render(report_of(warband(name)), "text")
    assert len(out) < 5_000, len(out)
    assert "more characters)" in out
    github = reporters.render(report_of(warband(name)), "github")
    assert len(github) < 5_000, len(github)
