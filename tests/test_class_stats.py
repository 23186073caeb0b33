"""Stats a list may or may not set (issue 20, item 5): a stat a class fixes (`stat NAME = V`)
cannot be given by an entry of the class (E631, at the entry's key, with the class's line beside);
a stat the list chooses may be bounded per class (`stat NAME: LOW..HIGH`, `stat NAME in A, B`,
each with an optional default), and an entry outside the bounds is E623 (E627 for an enum's).

- each example in tests/class_stats/ prints what its golden file holds (`warband validate`);
  the bad class bounds are goldens in tests/rules_errors/class_*.rules;
- the published schema gives the verdict validate gives on every example;
- an entry that gives a fixed stat is still counted by the army rules, with the class's value;
- a class's default applies before the stat's own; house rules override a class whole;
- a second system (a squad game, written here) uses the same concepts;
- the same rule wherever a fighter is made from a class: a scenario's own fighters, `warband
  odds` fighters, conversions (a stat the target class fixes is not written);
- `rules show` and `rules diff` say per class which stats are fixed and which chosen.
"""

from __future__ import annotations

import json
import shlex
from pathlib import Path

import jsonschema
import pytest
from typer.testing import CliRunner

from warband.cli import app
from warband.game.scenario import load_scenario
from warband.lang.compiler import compile_text, load
from warband.lists.schema import ruleset_schema
from warband.lists.validate import Validation, validate
from warband.lists.yamlload import load_yaml
from warband.run.world import FighterSpec, make_world

ROOT = Path(__file__).resolve().parents[1]
CASES = ROOT / "tests" / "class_stats"
EXAMPLES = sorted(CASES.glob("*.yaml"))
OUTRIDERS = CASES / "outriders.rules"


def run(*args: str):
    return CliRunner().invoke(app, list(args))


def _codes(path: Path) -> list[str]:
    return [d.code for d in validate([str(path)]).diagnostics]


# ---- the examples and their goldens ----------------------------------------------------------

@pytest.mark.parametrize("example", EXAMPLES, ids=[p.stem for p in EXAMPLES])
def test_example_prints_its_golden(example: Path, golden, at_root):
    rel = example.relative_to(ROOT).as_posix()
    result = run("validate", rel)
    assert result.exception is None or isinstance(result.exception, SystemExit)
    text = f"$ warband validate {shlex.quote(rel)}\n{result.stdout}[exit {result.exit_code}]\n"
    golden(example.with_suffix(".txt"), text)
    assert (result.exit_code == 0) == ("valid" in example.stem and
                                       "invalid" not in example.stem), text


def test_the_examples_say_what_they_show():
    assert _codes(CASES / "valid.yaml") == []
    assert _codes(CASES / "house_valid.yaml") == []
    assert _codes(CASES / "fixed_given.yaml") == ["E631", "E631", "E631", "E703"]
    assert _codes(CASES / "outside_class.yaml") == ["E623", "E627", "E623", "E623"]
    assert _codes(CASES / "house_invalid.yaml") == ["E623", "E631"]


def test_an_entrys_other_errors_hide_no_class_finding():
    """All findings in one run: a misspelt key or a bad count beside a class-fixed stat, a value
    of the wrong type beside one outside the class's bounds; a value outside the stat's own
    range is the stat's finding alone."""
    found = validate([str(CASES / "with_other_errors.yaml")]).files[0]
    assert sorted((d.span.line, d.code) for d in found.diagnostics) == [
        (6, "E631"), (7, "E620"), (8, "E623"), (11, "E623"), (12, "E627"), (13, "E622")]


def test_a_fixed_stat_given_the_same_value_is_still_an_error():
    """The class, not the list, says what it is: a house rule that changes the class changes
    every such fighter, and a list that repeats the value would then silently disagree."""
    found = validate([str(CASES / "fixed_given.yaml")]).files[0]
    same = [d for d in found.errors if d.code == "E631" and "Corporal Lenn" in d.message]
    assert [d.message for d in same] == [
        "fighter 'Corporal Lenn' gives training, which class Trooper fixes at 3",
        "fighter 'Corporal Lenn' gives mount, which class Trooper fixes at Foot"]
    for d in same:
        assert d.span is not None and d.span.file.endswith("fixed_given.yaml")
        assert d.related and d.related[0].span.file.endswith("outriders.rules")
        assert d.hint and d.hint.startswith("remove '")


def test_a_fixed_stat_given_leaves_the_fighter_with_the_class_value():
    """The entry stays a fighter for the army rules (the quota beside it is found), with the
    class's value: its cost is what the class says, not what the entry claims."""
    found = validate([str(CASES / "fixed_given.yaml")]).files[0]
    assert found.warband is not None
    bran = found.warband.fighter("Sergeant Bran")
    assert bran is not None and "Training" not in bran.stats
    world = make_world(found.ruleset, [bran.spec()])
    assert world.fighters[0].values["Training"] == 3


def test_the_class_default_comes_before_the_stats_own():
    ruleset = load(str(OUTRIDERS)).ruleset
    world = make_world(ruleset, [FighterSpec("w", 0, "Outrider"), FighterSpec("s", 0, "Scout",
                                                                               {"Training": 1})])
    wren, scout = world.fighters
    assert (wren.values["Training"], wren.values["Mount"], wren.values["Speed"]) == (3, "Horse", 6)
    assert (scout.values["Mount"], scout.values["Speed"]) == ("Foot", 6)   # the stat's defaults
    checked = validate([str(CASES / "valid.yaml")]).files[0]
    assert checked.total == 30 + 6 + 2 * (30 + 5) + (30 + 6 + 10) + (40 + 10 + 10) + (10 + 6 + 10)


# ---- the schema -------------------------------------------------------------------------------

@pytest.mark.parametrize("example", EXAMPLES, ids=[p.stem for p in EXAMPLES])
def test_the_published_schema_agrees_with_validate(example: Path):
    """A class-fixed stat is not allowed in that class's entries, and a class's bounds narrow the
    stat's: jsonschema (as an editor runs it) gives validate's verdict on shape and class stats;
    army rules (E7xx) pass the schema."""
    result = validate([str(example)]).files[0]
    made = ruleset_schema(result.ruleset)
    jsonschema.Draft7Validator.check_schema(made)
    data = load_yaml(example.read_bytes(), str(example)).data
    shape = [d for d in result.errors if d.code.startswith("E62") or d.code == "E631"]
    assert jsonschema.Draft7Validator(made).is_valid(data) == (not shape), (example, shape)


def test_the_schema_narrows_per_class():
    made = ruleset_schema(load(str(OUTRIDERS)).ruleset)
    fighter = made["properties"]["fighters"]["items"]
    by_class = {c["if"]["properties"]["class"]["const"]: c["then"] for c in fighter["allOf"]}
    assert by_class["Trooper"]["properties"]["training"]["not"] == {}
    assert by_class["Trooper"]["properties"]["mount"]["not"] == {}
    outrider = by_class["Outrider"]["properties"]
    assert (outrider["training"]["minimum"], outrider["training"]["maximum"]) == (2, 4)
    assert outrider["training"]["default"] == 3
    assert outrider["mount"]["enum"] == ["Horse", "Wolf"]
    assert (outrider["speed"]["minimum"], outrider["speed"]["maximum"]) == (6, 12)
    assert "Scout" in by_class and by_class["Scout"] == {"required": ["training"]}
    # an Outrider's default Training means its entries need not give it; a Scout's must
    assert "training" not in fighter["required"]


# ---- a second system ----------------------------------------------------------------------------

SQUADS = '''ruleset "squads"
  title "Squads: quality fixed for some units, chosen for others"

stat Quality: 2..6 "the roll a unit needs"
stat Size: 1..10 default 5 "models in the unit"
tier unit "squads"
class Militia  { tier unit stat Quality = 5 }
class Veterans { tier unit stat Quality: 2..3 default 3 "veterans are good, never great"
                 stat Size: 3..5 }
class Levy     { tier unit }

army "squad list" {
  cost(u) = (7 - u.Quality) * u.Size
  points 100
}
'''


def _squads(tmp_path: Path, fighters: str) -> list[tuple[str, str]]:
    (tmp_path / "squads.rules").write_text(SQUADS)
    path = tmp_path / "w.yaml"
    path.write_text(f"name: S\nruleset: squads.rules\nfighters:\n{fighters}")
    return [(d.code, d.message) for d in validate([str(path)]).diagnostics]


def test_a_squad_game_fixes_and_bounds_its_own_stats(tmp_path):
    assert _squads(tmp_path, "  - {name: A, class: Militia}\n"
                             "  - {name: B, class: Veterans, quality: 2}\n"
                             "  - {name: C, class: Levy, quality: 6}\n") == []
    found = _squads(tmp_path, "  - {name: A, class: Militia, quality: 2}\n"
                              "  - {name: B, class: Veterans, quality: 4, size: 6}\n"
                              "  - {name: C, class: Levy, quality: 2}\n")
    assert [c for c, _ in found] == ["E631", "E623", "E623"]
    assert found[1][1] == "fighter 'B': quality 4 is outside 2..3, the range class Veterans allows"
    assert found[2][1] == "fighter 'B': size 6 is outside 3..5, the range class Veterans allows"


def test_the_squad_classes_defaults():
    compiled = compile_text(SQUADS, "squads.rules")
    assert compiled.ruleset is not None, compiled.diagnostics
    world = make_world(compiled.ruleset, [FighterSpec("v", 0, "Veterans", {"Size": 4})])
    assert world.fighters[0].values["Quality"] == 3


def test_smarts_judge_sets_a_monsters_level_but_not_its_troop_type():
    """SMART: "the level of monsters should be always at a level decided by the Judge"; the
    sample monsters' levels are their classes' defaults, their troop types are fixed."""
    text = ("name: Lair\nruleset: smart\nfighters:\n"
            "  - {name: Big Goblin, class: Goblin, level: 4}\n"
            "  - {name: Goblin, class: Goblin, count: 3}\n")
    assert Validation().text(text, "lair.yaml").errors == []
    mounted = text.replace("level: 4", "troop: Mounted")
    assert [d.code for d in Validation().text(mounted, "lair.yaml").errors] == ["E631"]
    found = Validation().text(text, "lair.yaml")
    assert found.ruleset is not None and found.warband is not None
    world = make_world(found.ruleset, [f.spec() for f in found.warband.fighters])
    assert [f.values["Level"] for f in world.fighters] == [4, 1]


# ---- house rules --------------------------------------------------------------------------------

def test_a_house_rule_lets_the_list_choose_what_the_base_fixes():
    text = (CASES / "house_valid.yaml").read_text()
    assert validate([str(CASES / "house_valid.yaml")]).files[0].errors == []
    base = Validation().text(text.replace("ruleset: house.rules", "ruleset: outriders.rules"),
                             "as_base.yaml", CASES)
    assert [d.code for d in base.errors] == ["E631"]


# ---- everywhere a fighter is made from a class ---------------------------------------------------

SCENARIO = '''ruleset "class-stats-skirmish"
  extends "{base}"

scenario skirmish {{
  board 12 by 12 inches
  side a {{ fighter "First" {{ class {cls}  {stats} }} }}
  side b {{ fighter "Second" {{ class {cls} }} }}
  round {{ }}
  rounds 1
}}
'''


@pytest.mark.parametrize("base, cls, stats, code", [
    ("smart", "Zombie", "stat Troop = Foot", "E631"),               # SMART's classes fix Troop
    ("outriders.rules", "Trooper", "stat Training = 3", "E631"),    # even the same value
    ("outriders.rules", "Outrider", "stat Training = 6", "E623"),
    ("outriders.rules", "Outrider", "stat Mount = Foot", "E627"),
])
def test_a_scenarios_own_fighter_follows_its_class(tmp_path, base, cls, stats, code):
    (tmp_path / "outriders.rules").write_text(OUTRIDERS.read_text())
    if cls == "Zombie":
        stats += "  stat Level = 3"   # the Judge's to give: a SMART monster's level is chosen
    path = tmp_path / "scenario.rules"
    path.write_text(SCENARIO.format(base=base, cls=cls, stats=stats))
    found = load_scenario(str(path))
    assert isinstance(found, list), "the scenario loaded"
    assert {d.code for d in found} == {code}, found
    assert all(d.span is not None and d.span.file == str(path) and d.span.line == 6
               for d in found)
    assert len(found) == 1
    if code == "E631":
        assert found[0].related and found[0].hint and "stat " in found[0].hint


def test_a_scenarios_own_fighter_may_choose_within_its_class(tmp_path):
    (tmp_path / "outriders.rules").write_text(OUTRIDERS.read_text())
    path = tmp_path / "scenario.rules"
    path.write_text(SCENARIO.format(base="outriders.rules", cls="Outrider",
                                    stats="stat Training = 4  stat Mount = Wolf"))
    found = load_scenario(str(path))
    assert not isinstance(found, list), found
    first = found.start().fighters[0]
    assert (first.values["Training"], first.values["Mount"]) == (4, "Wolf")


@pytest.mark.parametrize("attacker, message", [
    ("class=Trooper training=3", "class Trooper fixes Training at 3, so it cannot be given"),
    ("training=2 class=Trooper", "class Trooper fixes Training at 3, so it cannot be given"),
    ("class=Outrider training=5", "Training 5 is outside 2..4, the range class Outrider allows"),
    ("class=Outrider mount=Foot", "Mount Foot is not one of Horse, Wolf, the values class "
                                  "Outrider allows"),
])
def test_an_odds_fighter_follows_its_class(attacker, message):
    result = CliRunner().invoke(app, ["odds", str(OUTRIDERS), "-a", attacker, "-t",
                                      "class=Scout training=2", "--action", "charge"])
    assert result.exit_code == 2
    assert f"error[E901]: {message}" in result.stderr, result.stderr


CONVERSION = '''ruleset "sss-to-outriders"
conversion (f) from "super-simple-skirmish" to "outriders.rules" {
  class Trooper when f has Ranged
  class Outrider otherwise
  stat Training = f.Might / 2
  stat Speed = 8
}
'''


def test_a_conversion_does_not_write_what_the_target_class_fixes(tmp_path):
    """Troopers fix Training: the converted entry leaves it out (the class gives 3); an
    Outrider's Training is clamped to the class's 2..4 with a warning, as to a stat's range."""
    (tmp_path / "outriders.rules").write_text(OUTRIDERS.read_text())
    (tmp_path / "to-outriders.rules").write_text(CONVERSION)
    (tmp_path / "w.yaml").write_text(
        "name: W\nruleset: super-simple-skirmish\nfighters:\n"
        "  - {name: Shooter, class: Soldier, might: 10}\n"
        "  - {name: Brute, class: Warrior, might: 14}\n")
    out = tmp_path / "out.yaml"
    result = run("convert", str(tmp_path / "w.yaml"), "--to", str(tmp_path / "outriders.rules"),
                 "--using", str(tmp_path / "to-outriders.rules"), "--output", str(out))
    assert result.exit_code == 0, result.stdout + result.stderr
    data = load_yaml(out.read_bytes(), str(out)).data
    shooter, brute = data["fighters"]
    assert shooter["class"] == "Trooper" and "training" not in shooter
    assert brute["class"] == "Outrider" and brute["training"] == 4
    assert "W803" in result.stderr + result.stdout
    assert validate([str(out)]).files[0].errors == []


# ---- what the rules say of it -------------------------------------------------------------------

def test_rules_show_says_which_stats_a_class_fixes_and_which_it_bounds():
    text = run("rules", "show", str(OUTRIDERS)).stdout
    assert "Training 3, Mount Foot" in text
    assert "Training chosen 2..4 (default 3)" in " ".join(text.split())
    shown = json.loads(run("rules", "show", str(OUTRIDERS), "--format", "json").stdout)
    outrider = next(c for c in shown["classes"] if c["name"] == "Outrider")
    assert outrider["stats"] == {}
    assert [c["stat"] for c in outrider["choices"]] == ["Training", "Mount", "Speed"]
    assert outrider["choices"][1]["values"] == ["Horse", "Wolf"]
    trooper = next(c for c in shown["classes"] if c["name"] == "Trooper")
    assert trooper["stats"] == {"Training": 3, "Mount": "Foot"} and trooper["choices"] == []


def test_rules_diff_says_a_house_rule_bounds_what_the_base_fixed():
    text = run("rules", "diff", str(OUTRIDERS), str(CASES / "house.rules")).stdout
    assert "Training no longer fixed (was 3)" in text
    assert "Training now chosen 2..4 (default 3)" in text


def test_a_conversion_keeps_an_enum_stat_to_the_values_the_target_class_allows(monkeypatch):
    """Review finding: a number stat was kept within its class's range (W803), an enum stat
    was written as it came, outside the class's values, and the result failed E627."""
    monkeypatch.chdir(ROOT / "tests" / "class_stats" / "convert")
    result = CliRunner().invoke(app, ["convert", "ws.yaml", "--to", "tgt.rules",
                                      "--using", "conv.rules"])
    assert "Troop Flying is not one of Foot, Mounted, what class Captain allows; Foot is used" \
        in result.output
    assert "troop: Foot" in result.stdout


@pytest.mark.parametrize("command", [["play"], ["simulate", "--games", "2"]])
def test_a_scenarios_own_fighter_is_shown_in_its_line_by_play_and_simulate(tmp_path, command):
    """Found at the end of issue 21: the errors of a scenario's own fighters (and its syntax
    errors) reached `play` and `simulate` without the line and the caret."""
    (tmp_path / "outriders.rules").write_text(OUTRIDERS.read_text())
    path = tmp_path / "scenario.rules"
    path.write_text(SCENARIO.format(base="outriders.rules", cls="Outrider",
                                    stats="stat Training = 6"))
    result = CliRunner().invoke(app, [*command, str(path)])
    assert result.exit_code == 2, result.output
    assert "error[E623]" in result.output
    assert "stat Training = 6" in result.output and "^" in result.output, result.output
