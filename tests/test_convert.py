"""Conversions between rulesets and `warband convert`.

Goldens: tests/convert_golden/NAME.yaml is what converting a shipped warband prints, NAME.txt
its diagnostics and exit code; tests/convert_golden/cases/*.txt are whole sessions of the
failure and warning cases; tests/conversion_errors/NAME.txt are the diagnostics of bad
conversion files. `pytest --update-goldens` rewrites them.
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from warband.cli import app
from warband.diagnostics import CODES, render_text
from warband.lang.compiler import compile_text

ROOT = Path(__file__).resolve().parents[1]
GOLDEN = ROOT / "tests" / "convert_golden"
ERRORS = ROOT / "tests" / "conversion_errors"
CASES = ROOT / "tests" / "conversion_cases"
SSS = "super-simple-skirmish"
SHIPPED = {  # warband -> (Might of each entry, total points), worked out by hand from the formulas
    "greedy-dudes": ([15], 60),                     # 5 x Training 3; 4 Dudes
    "vaguely-defined-menace": ([23], 69),           # 5 x 4 + 3 x Toughness 1; 3 Menaces
    "narnia-patrol": ([17, 9, 9, 6, 15], 92),       # 4 x level + absorption
    "goblin-warren": ([4, 4, 11, 12], 55),          # Moss: 4 x 2 + 2 x 2 spells
}
# house rules over a ruleset a conversion is from: converted by the base's conversion, and what
# the house rules add reported (W805); the numbers are the base warbands' own
HOUSE = {
    "greedy-dudes-points": ([15], 60),
    "vaguely-defined-menace-points": ([23], 69),
    "narnia-faithful": ([17, 9, 18], 62),            # the knight, 3 archers, the elf (Spells 2)
}
BAD_CONVERSIONS = sorted(ERRORS.glob("*.rules"))
CASE_RUNS = {
    "unknown_enum_value": ["warbands/the-family.yaml", "--to", "swords-against-sorcery",
                           "--using", "tests/conversion_cases/sss-to-sas.rules"],
    "division_by_zero": ["warbands/clockwork-empire.yaml", "--to", "swords-against-sorcery",
                         "--using", "tests/conversion_cases/sss-to-sas-divide.rules"],
    "clamped_and_points_dropped": ["warbands/clockwork-empire.yaml", "--to",
                                   "swords-against-sorcery", "--using",
                                   "tests/conversion_cases/sss-to-sas-clamp.rules"],
    "traits_and_equipment": ["tests/conversion_cases/armoured.yaml", "--to", "smart",
                             "--using", "tests/conversion_cases/sas-to-smart.rules"],
    "fit_the_points": ["warbands/greedy-dudes.yaml", "--to", SSS,
                       "--using", "tests/conversion_cases/sas-to-sss-big.rules"],
    "no_conversion": ["warbands/greedy-dudes.yaml", "--to", "smart"],
    "misspelt_target": ["warbands/greedy-dudes.yaml", "--to", "super-simple-skirmsh"],
    "invalid_source": ["tests/warband_errors/common_share.yaml", "--to", "smart"],
    "result_breaks_a_quota": ["warbands/vaguely-defined-menace.yaml", "--to", SSS, "--using",
                              "tests/conversion_cases/sas-to-sss-monsters.rules"],
    "house_rules_not_covered": ["tests/conversion_cases/house-dudes.yaml", "--to", SSS],
    "output_exists": ["warbands/greedy-dudes.yaml", "--to", SSS, "-o",
                      "warbands/the-family.yaml"],
}


def run(*args: str, input: str | None = None):
    return CliRunner().invoke(app, list(args), input=input)


def _session(args: list[str]) -> tuple[str, object]:
    result = run("convert", *args)
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    command = "$ warband convert " + " ".join(shlex.quote(a) for a in args)
    return (f"{command}\n{result.stdout}{result.stderr}[exit {result.exit_code}]\n", result)


# ---- the shipped conversions ------------------------------------------------------------------------

@pytest.mark.parametrize("name", [*SHIPPED, *HOUSE])
def test_shipped_conversion(name, golden, at_root):
    result = run("convert", f"warbands/{name}.yaml", "--to", SSS)
    assert result.exit_code == 0, result.output
    golden(GOLDEN / f"{name}.yaml", result.stdout)
    golden(GOLDEN / f"{name}.txt", f"{result.stderr}[exit {result.exit_code}]\n")


@pytest.mark.parametrize("name", [*SHIPPED, *HOUSE])
def test_converted_warband_is_legal_with_the_worked_numbers(name, at_root):
    from warband.lists.convert import convert
    from warband.lists.validate import Validation
    converted = convert(f"warbands/{name}.yaml", SSS)
    assert converted.valid
    checked = Validation().text(converted.text, "converted.yaml", ROOT / "warbands")
    assert not checked.diagnostics, checked.diagnostics          # legal: points, size, quotas
    mights, total = {**SHIPPED, **HOUSE}[name]
    assert [f.stats["Might"] for f in checked.warband.fighters] == mights
    assert checked.total == total <= checked.limit == 100
    assert checked.size <= 16


_CHANGED = re.compile(r"^\s*(- )?(ruleset|class|training|size|xp|level|equipment|traits|points"
                      r"|Toughness|Armor|MissileWeapon|might):|^\s+- \w+$|^# yaml-language-server")


@pytest.mark.parametrize("path", [f"warbands/{n}.yaml" for n in SHIPPED]
                         + ["warbands/greedy-dudes-points.yaml",
                            "warbands/vaguely-defined-menace-points.yaml",
                            "tests/conversion_cases/armoured.yaml"])
def test_comments_and_untouched_lines_stay_byte_for_byte(path, at_root):
    from warband.lists.convert import convert
    source = (ROOT / path).read_text()
    target = SSS if "warbands/" in path else "smart"
    using = [] if target == SSS else ["tests/conversion_cases/sas-to-smart.rules"]
    converted = convert(path, target, using=using)
    out = converted.text.splitlines(keepends=True)
    kept = [ln for ln in source.splitlines(keepends=True) if not _CHANGED.match(ln)]
    assert kept and all(ln in out for ln in kept), [ln for ln in kept if ln not in out]
    comments = [ln.split("#", 1)[1] for ln in source.splitlines()
                if "#" in ln and "yaml-language-server" not in ln]   # the modeline is retargeted
    assert all(any(c in o for o in out) for c in comments)   # every comment, end-of-line too
    position = 0
    for ln in kept:   # and in the same order
        position = out.index(ln, position) + 1


def test_the_note_of_what_was_dropped_is_in_the_file(at_root):
    from warband.lists.convert import convert
    text = convert("warbands/vaguely-defined-menace.yaml", SSS).text
    assert ("  # converted from swords-against-sorcery: trait Toughness is dropped (counted in "
            "Might, 3 a point)\n  - name: Menace\n") in text
    # the modeline names the schema from where the text goes: standard output, the working
    # directory (the checkout's top here)
    from warband.catalog import SCHEMAS_DIR   # (schemas/ in a checkout; in the package installed)
    assert text.startswith("# yaml-language-server: $schema="
                           f"{Path(os.path.relpath(SCHEMAS_DIR)).as_posix()}/"
                           "super-simple-skirmish.warband.schema.json\n")


def test_house_rules_convert_by_the_base_and_say_what_is_not_covered(at_root):
    from warband.lists.convert import convert
    converted = convert("warbands/narnia-faithful.yaml", SSS)
    assert converted.valid
    w805 = [d for d in converted.diagnostics if d.code == "W805"]
    # once for the file (at its ruleset line), once per fighter with a house class or trait
    assert w805[0].span.line == 6 and "conversion from 'smart', its base" in w805[0].message
    assert "trait Faithful" in w805[0].message and "(changed)" in w805[0].message
    assert any("trait Faithful is dropped" in d.message for d in w805[1:])
    text = converted.text
    assert "# converted from smart-faith by the conversion from smart; not converted, the " \
           "house rules' " in text
    assert "  # converted from smart-faith: trait Faithful is dropped: a house rule of " \
           "'smart-faith'" in text
    assert "Faithful" not in text.split("fighters:")[1].replace("# converted", "").split(
        "\n  - name: Elf of the Wood")[1]   # the trait itself is gone


def test_a_house_rules_conversion_of_its_own_wins_over_the_base(tmp_path, at_root):
    mine = tmp_path / "mine.rules"
    mine.write_text((ROOT / "dsl" / "conversions" /
                     "swords-against-sorcery-to-super-simple-skirmish.rules").read_text()
                    .replace('from "swords-against-sorcery"',
                             'from "swords-against-sorcery-points"'))
    result = run("convert", "warbands/greedy-dudes-points.yaml", "--to", SSS, "--using",
                 str(mine))
    assert result.exit_code == 0, result.output
    assert "W805" not in result.stderr and "house rules" not in result.stdout


def test_no_conversion_for_house_rules_names_the_bases_too(at_root):
    result = run("convert", "warbands/narnia-faithful.yaml", "--to", "swords-against-sorcery")
    assert result.exit_code == 2
    assert "E813" in result.stderr and \
        "conversions from 'smart-faith' (or its base smart) go to: super-simple-skirmish" \
        in result.stderr


def test_a_conversion_from_a_rules_file_named_by_path(tmp_path, at_root):
    """Regression: the source written as a path was compared with the ruleset's id (E813)."""
    rules = tmp_path / "rules"
    rules.mkdir()
    (rules / "house.rules").write_text(
        (ROOT / "dsl" / "swords-against-sorcery.rules").read_text().replace(
            'ruleset "swords-against-sorcery"', 'ruleset "house"'))
    mine = rules / "mine.rules"
    mine.write_text((ROOT / "dsl" / "conversions" /
                     "swords-against-sorcery-to-super-simple-skirmish.rules").read_text()
                    .replace('from "swords-against-sorcery"', 'from "house.rules"'))
    dudes = tmp_path / "dudes.yaml"
    dudes.write_text((ROOT / "warbands" / "greedy-dudes.yaml").read_text().replace(
        "ruleset: swords-against-sorcery\n", "ruleset: rules/house.rules\n"))
    result = run("convert", str(dudes), "--to", SSS, "--using", str(mine))
    assert result.exit_code == 0, result.output
    assert "ruleset: super-simple-skirmish\n" in result.stdout and "might: 15" in result.stdout
    # and a path to another ruleset is not taken for it
    mine.write_text(mine.read_text().replace('from "house.rules"',
                                             'from "../../dsl/smart.rules"'))
    assert "E813" in run("convert", str(dudes), "--to", SSS, "--using", str(mine)).stderr


def test_a_conversions_rulesets_are_parsed_once(at_root, monkeypatch):
    from warband.lang import conversion
    from warband.lists.convert import convert
    calls = []
    real = conversion.parse
    monkeypatch.setattr(conversion, "parse", lambda *a, **k: calls.append(a[1]) or real(*a, **k))
    conversion._TABLES.clear()
    for _ in range(3):
        assert convert("warbands/greedy-dudes.yaml", SSS).valid
    ruleset_files = [c for c in calls if "conversions/" not in c.replace("\\", "/")]
    # (the conversion file itself, `dsl/conversions/...` or in the installed package, is read
    # by each convert: what is kept is the rulesets' symbol tables)
    assert len(ruleset_files) == len(set(ruleset_files)) == 2   # source and target, once each


# ---- failures and warnings -------------------------------------------------------------------------

@pytest.mark.parametrize("case", CASE_RUNS)
def test_case_session(case, golden, at_root):
    before = (ROOT / "warbands" / "the-family.yaml").read_bytes()
    text, result = _session(CASE_RUNS[case])
    golden(GOLDEN / "cases" / f"{case}.txt", text)
    assert (ROOT / "warbands" / "the-family.yaml").read_bytes() == before
    assert "Traceback" not in text


@pytest.mark.parametrize("path", BAD_CONVERSIONS, ids=lambda p: p.stem)
def test_bad_conversion_golden(path, golden, at_root):
    relative = path.relative_to(ROOT).as_posix()
    compiled = compile_text(path.read_text(), relative)
    assert compiled.errors
    golden(path.with_suffix(".txt"), render_text(compiled.diagnostics, compiled.sources))


def test_shipped_conversions_compile_cleanly(at_root):
    from warband.catalog import conversion_files
    files = conversion_files()
    assert len(files) >= 2
    for path in files:
        compiled = compile_text(path.read_text(), path.name)
        assert not compiled.diagnostics, compiled.diagnostics


def test_a_bad_conversion_is_unusable_for_convert(tmp_path, at_root):
    shutil.copy(ERRORS / "unknown_names.rules", tmp_path / "mine.rules")
    result = run("convert", "warbands/greedy-dudes.yaml", "--to", SSS,
                 "--using", str(tmp_path / "mine.rules"))
    assert result.exit_code == 2
    assert "error[E802]" in result.stderr and result.stdout == ""


def test_every_conversion_code_has_an_example():
    shown = set()
    for txt in list(ERRORS.glob("*.txt")) + list(GOLDEN.rglob("*.txt")) + list(
            (ROOT / "tests" / "fmt_cases").glob("*.txt")):
        shown |= set(re.findall(r"\b(?:error|warning)\[([EW]\d{3})\]", txt.read_text()))
    wanted = {c for c in CODES if re.match(r"E6(?:4[0-2]|5\d)|E8[0-2]\d|W8[01]\d", c)}
    # (E643 and on: pictures and reports of games, with their own tests: test_game_page.py,
    # test_simulate_report.py, test_odds_plots.py)
    # E640 and E641 guard against formatter bugs: test_fmt provokes them by patching
    missing = sorted(wanted - shown - {"E640", "E641"})
    assert not missing, f"codes without an example: {missing}"


# ---- writing files ------------------------------------------------------------------------------------

def test_output_is_written_atomically_and_validates(tmp_path, at_root):
    out = tmp_path / "dudes.yaml"
    result = run("convert", "warbands/greedy-dudes.yaml", "--to", SSS, "-o", str(out))
    assert result.exit_code == 0, result.output
    assert result.stdout == ""
    assert _body(out.read_text()) == _body((GOLDEN / "greedy-dudes.yaml").read_text())
    assert [p.name for p in tmp_path.iterdir()] == ["dudes.yaml"]   # no temporary file left
    # the modeline names the shipped schema by a path that resolves from the new file
    first = out.read_text().splitlines()[0].partition("$schema=")[2]
    from warband.catalog import SCHEMAS_DIR
    assert (tmp_path / first).resolve() == (SCHEMAS_DIR /
                                            "super-simple-skirmish.warband.schema.json").resolve()
    shutil.copy(ROOT / "schemas" / "super-simple-skirmish.warband.schema.json", tmp_path)
    assert run("validate", str(out)).exit_code == 0


def test_no_overwrite_without_force(tmp_path, at_root):
    out = tmp_path / "dudes.yaml"
    out.write_text("mine\n")
    result = run("convert", "warbands/greedy-dudes.yaml", "--to", SSS, "-o", str(out))
    assert result.exit_code == 2
    assert "error[E642]" in result.stderr and "--force" in result.stderr
    assert out.read_text() == "mine\n"
    result = run("convert", "warbands/greedy-dudes.yaml", "--to", SSS, "-o", str(out), "--force")
    assert result.exit_code == 0
    assert _body(out.read_text()) == _body((GOLDEN / "greedy-dudes.yaml").read_text())


def _body(text: str) -> str:
    """A converted file but its modeline (which names the schema from where the file is)."""
    return text.split("\n", 1)[1]


@pytest.mark.parametrize("case", ["no_conversion", "invalid_source", "unknown_enum_value"])
def test_an_error_leaves_no_file(case, tmp_path, at_root):
    out = tmp_path / "out.yaml"
    result = run("convert", *CASE_RUNS[case], "-o", str(out))
    assert result.exit_code == 2
    assert list(tmp_path.iterdir()) == []


def test_an_error_leaves_an_existing_file_untouched_even_with_force(tmp_path, at_root):
    out = tmp_path / "out.yaml"
    out.write_text("mine\n")
    result = run("convert", *CASE_RUNS["division_by_zero"], "-o", str(out), "--force")
    assert result.exit_code == 2
    assert out.read_text() == "mine\n"


def test_standard_input(at_root):
    text = (ROOT / "warbands" / "greedy-dudes.yaml").read_text()
    result = run("convert", "-", "--to", SSS, input=text)
    assert result.exit_code == 0, result.output
    assert _body(result.stdout) == _body((GOLDEN / "greedy-dudes.yaml").read_text())


def test_a_result_that_does_not_validate_is_printed_and_exits_1(at_root):
    text, result = _session(CASE_RUNS["result_breaks_a_quota"])
    assert result.exit_code == 1
    assert "class: Monster" in result.stdout
    assert "<converted>:" in result.stderr and "error[E703]" in result.stderr


def test_a_missing_conversion_file_is_named(at_root):
    result = run("convert", "warbands/greedy-dudes.yaml", "--to", SSS, "--using", "nope.rules")
    assert result.exit_code == 2
    assert "error[E100]: no such rules file: nope.rules" in result.stderr


def test_a_file_without_a_ruleset_cannot_be_converted(tmp_path):
    source = tmp_path / "plain.yaml"
    source.write_text("name: Nobody\nfighters:\n  - name: A\n")
    result = run("convert", str(source), "--to", SSS)
    assert result.exit_code == 2
    assert "error[E621]: missing key 'ruleset'" in result.stderr and result.stdout == ""


def test_a_target_rules_file_is_named_relative_to_the_output(tmp_path, at_root):
    house = tmp_path / "rules" / "house.rules"
    house.parent.mkdir()
    house.write_text((ROOT / "dsl" / "super-simple-skirmish.rules").read_text().replace(
        'ruleset "super-simple-skirmish"', 'ruleset "house"'))
    mine = tmp_path / "mine.rules"
    mine.write_text((ROOT / "dsl" / "conversions" /
                     "swords-against-sorcery-to-super-simple-skirmish.rules").read_text()
                    .replace('to "super-simple-skirmish"', 'to "rules/house.rules"'))
    out = tmp_path / "lists" / "dudes.yaml"
    out.parent.mkdir()
    result = run("convert", "warbands/greedy-dudes.yaml", "--to", str(house), "--using",
                 str(mine), "-o", str(out))
    assert result.exit_code == 0, result.output
    assert "ruleset: ../rules/house.rules\n" in out.read_text()
    assert run("validate", str(out)).exit_code == 0


# ---- properties --------------------------------------------------------------------------------------

_SIZES = ["Small", "Medium", "Big", "BiggerThanBig", "PrettyDangBig"]


@st.composite
def sas_warbands(draw):
    lines = ["name: Random Band", "ruleset: swords-against-sorcery", "fighters:"]
    for i in range(draw(st.integers(1, 6))):
        lines.append(f"  - name: Figure {i}  # number {i}")
        lines.append(f"    count: {draw(st.integers(1, 3))}")
        lines.append(f"    training: {draw(st.integers(1, 8))}")
        lines.append(f"    size: {draw(st.sampled_from(_SIZES))}")
        traits = {t: draw(st.integers(1, 3)) for t in ("Toughness", "Armor", "Strength",
                                                        "MissileWeapon") if draw(st.booleans())}
        if draw(st.booleans()):
            traits["Guts"] = None
        if traits:
            lines.append("    traits:")
            lines += [f"      {t}:" + ("" if v is None else f" {v}") for t, v in traits.items()]
        gear = draw(st.lists(st.sampled_from(["Shield", "Dagger", "Chainmail", "LongBow"]),
                             unique=True, max_size=3))
        if gear:
            lines.append(f"    equipment: [{', '.join(gear)}]")
    return "\n".join(lines) + "\n"


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(sas_warbands())
def test_any_sas_warband_converts_within_the_points_when_it_can(text):
    from warband.lists.convert import convert
    from warband.lists.validate import Validation
    converted = convert("-", SSS, stdin=__import__("io").BytesIO(text.encode()))
    assert converted.text is not None, converted.diagnostics
    checked = Validation().text(converted.text, "converted.yaml")
    assert not checked.unusable
    mights = [f.stats["Might"] for f in checked.warband.fighters]
    assert all(1 <= m <= 100 for m in mights)
    assert checked.total <= 100 or all(m == 1 for m in mights)      # `fit Might`
    assert not [d for d in checked.diagnostics if d.code in ("E620", "E622", "E624", "E701")]
    assert converted.text.count("# number") == text.count("# number")  # comments kept
