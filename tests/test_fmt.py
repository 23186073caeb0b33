"""`warband fmt`: the canonical layout, comments kept, files that do not load left alone.

Goldens: tests/fmt_cases/NAME.yaml is formatted into NAME.formatted.yaml (or, for a file that
does not load, the diagnostics into NAME.txt); `pytest --update-goldens` rewrites them.
"""

from __future__ import annotations

import os
import shutil
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from warband.cli import app
from warband.diagnostics import render_text
from warband.lists.fmt import format_source, format_text, load_document, plain
from warband.lists.warband_file import Source

ROOT = Path(__file__).resolve().parents[1]
CASES = ROOT / "tests" / "fmt_cases"
INPUTS = sorted(p for p in CASES.glob("*.yaml") if not p.name.endswith(".formatted.yaml"))
WARBANDS = sorted((ROOT / "warbands").glob("*.yaml"))


def run(*args: str, input: str | None = None):
    return CliRunner().invoke(app, list(args), input=input)


def fmt(path: Path):
    rel = path.relative_to(ROOT).as_posix()
    return format_source(Source(rel, path.read_bytes(), path.parent))


@pytest.mark.parametrize("case", INPUTS, ids=lambda p: p.stem)
def test_golden(case, golden):
    result = fmt(case)
    if result.text is None:
        from warband.diagnostics import Sources
        golden(case.with_suffix(".txt"),
               render_text(result.diagnostics, Sources({result.name: result.original})))
    else:
        golden(case.with_name(case.stem + ".formatted.yaml"), result.text)


def test_the_messy_file_is_put_in_order():
    text = fmt(CASES / "messy.yaml").text
    lines = text.splitlines()
    assert lines[0].startswith("# yaml-language-server:")          # the modeline first
    assert [ln.split(":")[0] for ln in lines if ln and ln[0].isalpha()] == [
        "name", "ruleset", "points", "notes", "fighters"]
    musketeer = text[text.index("- name: Musketeer"):]
    assert musketeer.index("count") < musketeer.index("class") < musketeer.index("might") \
        < musketeer.index("nickname")                              # unknown keys kept, last
    assert "    # muskets\n    might: 10" in text                   # the comment stays with might
    assert "might: 20   # as in the battle report" in text         # re-indented, same spacing


@pytest.mark.parametrize("warband", WARBANDS, ids=lambda p: p.stem)
def test_shipped_warbands_only_move_lines(warband):
    """They are indented canonically already: formatting moves whole lines, byte for byte."""
    result = fmt(warband)
    assert result.text is not None
    assert Counter(result.text.splitlines(keepends=True)) == Counter(
        result.original.splitlines(keepends=True))
    assert plain(load_document(result.text)) == plain(
        load_document(result.original))


@pytest.mark.parametrize("warband", WARBANDS, ids=lambda p: p.stem)
def test_shipped_warbands_are_in_the_layout_fmt_makes(warband):
    """The README's tour runs `warband fmt --check warbands/*.yaml`: it must pass. (Rules files
    are not fmt's: it formats warband files only.)"""
    result = fmt(warband)
    assert result.diagnostics == []
    assert result.text == result.original, f"run `warband fmt {warband.relative_to(ROOT)}`"


def test_the_readme_fmt_check_passes_on_every_shipped_warband():
    result = run("fmt", "--check", *(str(w) for w in WARBANDS))
    assert result.exit_code == 0, result.output


@pytest.mark.parametrize("warband", WARBANDS, ids=lambda p: p.stem)
def test_formatted_shipped_warbands_still_validate(warband, tmp_path):
    from warband.lists.validate import Validation
    result = fmt(warband)
    checked = Validation().text(result.text, warband.name, warband.parent)
    assert not checked.errors, checked.errors


def test_canonical_file_is_unchanged_and_check_passes():
    result = run("fmt", "--check", str(CASES / "canonical.yaml"))
    assert result.exit_code == 0, result.output
    assert fmt(CASES / "canonical.yaml").changed is False


def test_check_reports_a_file_that_would_change_and_writes_nothing(tmp_path):
    target = tmp_path / "messy.yaml"
    shutil.copy(CASES / "messy.yaml", target)
    before = target.read_bytes()
    result = run("fmt", "--check", str(target))
    assert result.exit_code == 1
    assert f"would reformat {target}" in result.stderr
    assert target.read_bytes() == before


def test_diff_prints_the_change_and_writes_nothing(tmp_path):
    target = tmp_path / "messy.yaml"
    shutil.copy(CASES / "messy.yaml", target)
    before = target.read_bytes()
    result = run("fmt", "--diff", str(target))
    assert result.exit_code == 0
    assert result.stdout.startswith(f"--- {target} (as it is)\n+++ {target} (formatted)\n")
    assert "+ruleset: super-simple-skirmish   # built in" in result.stdout
    assert target.read_bytes() == before


def test_fmt_rewrites_in_place_and_then_is_canonical(tmp_path):
    target = tmp_path / "messy.yaml"
    shutil.copy(CASES / "messy.yaml", target)
    os.chmod(target, 0o640)
    result = run("fmt", str(target))
    assert result.exit_code == 0, result.output
    assert target.read_text() == (CASES / "messy.formatted.yaml").read_text()
    assert os.stat(target).st_mode & 0o777 == 0o640          # permissions kept
    assert not [p for p in tmp_path.iterdir() if p.name != "messy.yaml"]  # no temporary left
    assert run("fmt", "--check", str(target)).exit_code == 0


def test_a_file_that_does_not_load_is_reported_and_never_written(tmp_path):
    bad, good = tmp_path / "bad.yaml", tmp_path / "messy.yaml"
    shutil.copy(CASES / "bad.yaml", bad)
    shutil.copy(CASES / "messy.yaml", good)
    before = bad.read_bytes()
    result = run("fmt", str(bad), str(good))
    assert result.exit_code == 2
    assert "error[E601]" in result.stderr
    assert bad.read_bytes() == before
    assert good.read_text() == (CASES / "messy.formatted.yaml").read_text()  # the others are done


def test_missing_file_is_unusable(tmp_path):
    result = run("fmt", str(tmp_path / "nope.yaml"))
    assert result.exit_code == 2
    assert "error[E100]" in result.stderr


def test_stdin_goes_to_stdout():
    result = run("fmt", "-", input=(CASES / "messy.yaml").read_text())
    assert result.exit_code == 0
    assert result.stdout == (CASES / "messy.formatted.yaml").read_text()


def test_a_bug_that_would_change_the_data_refuses_the_file(monkeypatch):
    import warband.lists.fmt as fmt_module
    monkeypatch.setattr(fmt_module, "format_text",
                        lambda text, stats, kept=None: text.replace("20", "21"))
    result = fmt(CASES / "messy.yaml")
    assert result.text is None
    assert [d.code for d in result.diagnostics] == ["E641"]


def test_a_crash_while_formatting_is_a_diagnostic(monkeypatch):
    import warband.lists.fmt as fmt_module

    def boom(text, stats):
        raise ValueError("unexpected")
    monkeypatch.setattr(fmt_module, "format_text", boom)
    result = fmt(CASES / "messy.yaml")
    assert result.text is None
    assert [d.code for d in result.diagnostics] == ["E640"]


# ---- properties -------------------------------------------------------------------------------------

_words = st.text(alphabet="abcdefgh XYZ", min_size=1, max_size=8).map(str.strip).filter(bool)
_value = st.one_of(st.integers(0, 50), _words.map(lambda w: f'"{w}"'), _words)
_comment = st.one_of(st.none(), _words.map(lambda w: f"# {w}"))


@st.composite
def warband_texts(draw):
    """Warband-like YAML with keys in any order, comments anywhere and any indentation."""
    seq_indent = draw(st.sampled_from([0, 2, 4]))
    map_indent = draw(st.sampled_from([2, 4]))
    lines = []
    if draw(st.booleans()):
        lines.append("# yaml-language-server: $schema=x.json")
    top = draw(st.permutations(["name", "ruleset", "points", "notes", "fighters", "extra"]))
    top = [k for k in top if k in ("name", "fighters") or draw(st.booleans())]
    for key in top:
        if (c := draw(_comment)) is not None:
            lines.append(c)
        if key == "fighters":
            lines.append("fighters:")
            for _ in range(draw(st.integers(1, 3))):
                keys = draw(st.permutations(["name", "count", "class", "might", "notes",
                                             "traits", "equipment", "odd"]))
                keys = [k for k in keys if k == "name" or draw(st.booleans())]
                pad = " " * seq_indent
                inner = pad + " " * map_indent
                for j, k in enumerate(keys):
                    if j > 0 and (c := draw(_comment)) is not None:
                        lines.append(inner + c)
                    lead = pad + "-" + " " * (map_indent - 1) if j == 0 else inner
                    if k == "traits":
                        lines.append(f"{lead}traits:")
                        lines.append(f"{inner}{' ' * map_indent}Charge: {draw(_value)}")
                    elif k == "equipment":
                        lines.append(f"{lead}equipment: [{draw(_words)}, {draw(_words)}]")
                    else:
                        eol = draw(_comment)
                        lines.append(f"{lead}{k}: {draw(_value)}" + (f"  {eol}" if eol else ""))
        else:
            eol = draw(_comment)
            lines.append(f"{key}: {draw(_value)}" + (f"   {eol}" if eol else ""))
    if (c := draw(_comment)) is not None:
        lines.append(c)
    return "\n".join(lines) + "\n"


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(warband_texts(), st.sampled_from([None, ["might"]]), st.booleans())
def test_formatting_is_idempotent_and_keeps_the_data_and_the_comments(text, stats, crlf):
    load = load_document
    if crlf:   # a Windows file: laid out the same, its line ends kept
        assert format_text(text.replace("\n", "\r\n"), stats) == \
            format_text(text, stats).replace("\n", "\r\n")
    once = format_text(text, stats)
    assert format_text(once, stats) == once
    assert plain(load(once)) == plain(load(text))
    comments = lambda t: Counter(ln.strip() for ln in t.splitlines() if ln.strip().startswith("#"))  # noqa: E731
    assert comments(once) == comments(text)
    eol = lambda t: Counter(ln.split("#", 1)[1] for ln in t.splitlines()  # noqa: E731
                            if "#" in ln and not ln.strip().startswith("#"))
    assert eol(once) == eol(text)


def test_keys_are_not_reordered_above_the_anchor_their_aliases_need():
    # (found by the robustness property test: `fighters` moved above the `&d` it aliases, and
    # the formatted file no longer loaded: E640)
    text = ("name: Laughs\nruleset: super-simple-skirmish\na: &a lol, lol]\n"
            "d: &d [*a, *a]\nfighters: [*d]\n")
    formatted = format_text(text, None)
    assert plain(load_document(formatted)) == plain(load_document(text))
    assert formatted.index("&d") < formatted.index("*d")
    result = format_source(Source("laughs.yaml", text.encode(), Path(".")))
    assert [d.code for d in result.diagnostics] == []


def test_a_unicode_line_separator_is_refused_with_its_place():
    # (found by the robustness property test: ruamel wrote the key 'n\u2028ame' back as other
    # data, and fmt refused the file as a toolkit bug, E641)
    text = "n\u2028ame: The House Guard\nruleset: super-simple-skirmish\nfighters: []\n"
    result = format_source(Source("guard.yaml", text.encode(), Path(".")))
    assert result.text is None
    [d] = result.diagnostics
    assert (d.code, d.span.line, d.span.column) == ("E640", 1, 2)
    assert "U+2028" in d.message


# ---- line ends, anchors, sets and ordered maps (issue 19) -------------------------------------

def test_a_windows_file_keeps_its_crlf_line_ends(tmp_path):
    messy = (CASES / "messy.yaml").read_text().replace("\n", "\r\n")
    expected = (CASES / "messy.formatted.yaml").read_text().replace("\n", "\r\n")
    result = format_source(Source("messy.yaml", messy.encode(), CASES))
    assert result.diagnostics == []
    assert result.text == expected
    target = tmp_path / "messy.yaml"
    target.write_bytes(messy.encode())
    assert run("fmt", str(target)).exit_code == 0
    assert target.read_bytes() == expected.encode()
    assert run("fmt", "--check", str(target)).exit_code == 0     # formatted CRLF is canonical


def test_a_canonical_windows_file_is_left_byte_for_byte():
    canonical = (CASES / "canonical.yaml").read_bytes().replace(b"\n", b"\r\n")
    result = format_source(Source("canonical.yaml", canonical, CASES))
    assert result.diagnostics == [] and not result.changed


@pytest.mark.parametrize("case", ["anchors", "sets"])
def test_anchors_aliases_sets_and_ordered_maps_round_trip(case):
    # (E640 before: an alias item '- *x' took its anchor's lines, a merge key's keys were
    # looked up where they are not, and an !!omap has no key positions)
    result = fmt(CASES / f"{case}.yaml")
    assert result.diagnostics == []
    assert result.text is not None
    assert plain(load_document(result.text)) == plain(load_document(result.original))
    again = format_source(Source(case, result.text.encode(), CASES))
    assert again.text == result.text                                # idempotent
    comments = lambda t: Counter(ln.split("#", 1)[1].strip() for ln in t.splitlines()  # noqa: E731
                                 if "#" in ln)
    assert comments(result.text) == comments(result.original)


def test_a_merge_keys_comment_stays_on_its_line():
    text = ("name: M\nruleset: super-simple-skirmish\nfighters:\n  - &s\n    name: S\n"
            "  - <<: *s   # why\n    name: C\n")
    assert "  - <<: *s   # why\n    name: C\n" in format_text(text, None)


def test_a_reused_anchor_is_formatted_and_prints_no_warning():
    result = run("fmt", "--check", str(CASES / "anchors.formatted.yaml"))
    assert result.exit_code == 0, result.output
    assert "Warning" not in result.stderr and result.stderr == ""


def test_sets_and_ordered_maps_through_the_command(tmp_path):
    target = tmp_path / "sets.yaml"
    shutil.copy(CASES / "sets.yaml", target)
    result = run("fmt", str(target))
    assert result.exit_code == 0, result.output
    assert target.read_text() == (CASES / "sets.formatted.yaml").read_text()


def test_validate_places_an_error_inside_an_omap_without_a_traceback():
    # (found by test_robustness on sets.formatted.yaml: an !!omap keeps no key positions, and
    # placing the error in `traits: !!omap` raised a TypeError)
    result = run("validate", str(CASES / "sets.formatted.yaml"))
    assert result.exit_code == 1, result.output
    assert "Traceback" not in result.output and isinstance(result.exception, SystemExit)
    assert "sets.formatted.yaml:7:" in result.stdout          # at `traits:`, the omap's place


def test_an_anchor_no_alias_uses_is_kept():
    text = ("name: &title A\nruleset: super-simple-skirmish\nfighters: &all\n"
            "  - class: Soldier\n    name: B\n")
    formatted = format_text(text, None)
    assert "name: &title A\n" in formatted and "fighters: &all\n" in formatted
    assert "  - name: B\n    class: Soldier\n" in formatted


def test_fighters_that_are_an_alias_keep_their_lines():
    # (the fighters' lines were taken from where their anchor is, and the result did not load:
    # E640, "this may be a toolkit bug")
    text = ("base: &f\n  - class: Soldier\n    name: B\nname: A\nfighters: *f\n"
            "ruleset: super-simple-skirmish\n")
    result = format_source(Source("alias.yaml", text.encode(), Path(".")))
    assert result.diagnostics == []
    assert result.text == text   # the canonical order would put `*f` above `&f`: kept as it is
