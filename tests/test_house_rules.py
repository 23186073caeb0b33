"""House rules: files that `extend` a base and add, override or remove its declarations.

Multi-file cases live in tests/house_rules/: errors/CASE/house.rules (with the files it extends)
and its diagnostics in errors/CASE/expected.txt, rendered as `warband rules check` prints them,
with every file's excerpts. `pytest --update-goldens` rewrites them.
"""

from __future__ import annotations

import contextlib
import json
from pathlib import Path

import pytest

from warband.diagnostics import render_text
from warband.lang.compiler import compile_text, load

ROOT = Path(__file__).resolve().parents[1]
HOUSE = ROOT / "tests" / "house_rules"
ERRORS = sorted(p for p in (HOUSE / "errors").iterdir() if p.is_dir())


def builtin_prefix() -> str:
    """How the built-in rules folder is shown from the repository: dsl/ in a checkout, a path
    into site-packages when the package is installed. Goldens say dsl/."""
    from warband.catalog import RULES_DIR as BUILTIN_DIR
    from warband.catalog import display_path
    with contextlib.chdir(ROOT):
        return display_path(BUILTIN_DIR).replace("\\", "/") + "/"


def norm(text: str) -> str:
    return text.replace(builtin_prefix(), "dsl/")


def compile_path(path: Path):
    """Compile under the path relative to the repository, so goldens match on every machine."""
    with contextlib.chdir(ROOT):
        relative = path.relative_to(ROOT).as_posix()
        return compile_text(path.read_text(encoding="utf-8"), relative)


def error_case(folder: Path):
    return compile_path(folder / "house.rules")


# ---- plain extends, stacked layers, provenance --------------------------------------------------

@pytest.fixture(scope="module")
def club():
    compiled = compile_path(HOUSE / "three_layers" / "house.rules")
    assert compiled.ruleset is not None, render_text(compiled.diagnostics, compiled.sources)
    return compiled


def test_three_layers_stack(club):
    rules = club.ruleset
    assert [i for i, _ in rules.layers] == ["super-simple-skirmish", "sss-campaign", "sss-club"]
    # added by the campaign, and by the club
    assert "Experience" in rules.states and "train" in rules.procedures
    assert "Sergeant" in rules.classes and "Veteran" in rules.traits
    # overridden by the club; removed by the club
    assert dict(rules.classes["Soldier"].traits) == {"Ranged": True, "Defend": True}
    assert "Gunslinger" not in rules.classes
    # the army: points from the campaign, size removed and a quota added by the club, the
    # base's cost and quotas kept
    army = rules.army
    assert army.points == 150 and army.size is None
    assert [(q.kind, q.target) for q in army.quotas] == [
        ("tier", "common"), ("tier", "rare"), ("class", "Sergeant")]
    assert army.cost is not None


# where the base declares the Soldier (the base's header comment grows with its readings)
SOLDIER_LINE = next(i for i, line in enumerate(
    (ROOT / "dsl" / "super-simple-skirmish.rules").read_text().splitlines(), 1)
    if line.startswith("class Soldier"))


def test_provenance(club):
    rules = club.ruleset
    soldier = rules.origin("Soldier")
    assert soldier.file.endswith("three_layers/house.rules") and soldier.line == 13
    assert norm(soldier.overrides.file) == "dsl/super-simple-skirmish.rules"
    assert soldier.overrides.line == SOLDIER_LINE
    assert rules.origin("Experience").file.endswith("campaign.rules")
    assert rules.origin("Warrior").overrides is None
    assert rules.origin("army").overrides.file.endswith("campaign.rules")
    assert rules.origin("army.points").file.endswith("campaign.rules")


def test_sources_hold_every_layer(club):
    assert {norm(f) for f in club.sources.texts} == {
        "tests/house_rules/three_layers/house.rules",
        "tests/house_rules/three_layers/campaign.rules",
        "dsl/super-simple-skirmish.rules"}


def test_rules_show_names_each_item_origin(golden, monkeypatch):
    from typer.testing import CliRunner

    from warband.cli import app
    monkeypatch.chdir(ROOT)
    result = CliRunner().invoke(app, ["rules", "show",
                                      "tests/house_rules/three_layers/house.rules"])
    assert result.exit_code == 0, result.output
    text = norm("\n".join(line.rstrip() for line in result.stdout.splitlines()) + "\n")
    assert "Soldier    common   Ranged, Defend" in text
    assert f"house.rules:13, overrides super-simple-skirmish.rules:{SOLDIER_LINE}" in text
    golden(HOUSE / "three_layers" / "show.txt", text)
    data = json.loads(norm(CliRunner().invoke(app, [
        "rules", "show", "tests/house_rules/three_layers/house.rules", "--format",
        "json"]).stdout))
    soldier = next(c for c in data["classes"] if c["name"] == "Soldier")
    assert soldier["origin"] == {
        "file": "tests/house_rules/three_layers/house.rules", "line": 13,
        "overrides": {"file": "dsl/super-simple-skirmish.rules", "line": SOLDIER_LINE}}
    assert [layer["id"] for layer in data["layers"]] == [
        "super-simple-skirmish", "sss-campaign", "sss-club"]


def test_a_single_file_has_its_own_provenance(sss):
    assert sss.layers == (("super-simple-skirmish", sss.file),)
    assert sss.origin("Soldier").file == sss.file and sss.origin("Soldier").overrides is None


def test_plain_additions_on_a_builtin():
    text = ('ruleset "sss-plus"\n  extends "super-simple-skirmish"\n\n'
            'trait Lucky "may reroll one die a game"\n'
            'class Veteran { tier common traits Charge, Lucky }\n')
    compiled = compile_text(text, "plus.rules")
    assert compiled.ruleset is not None, compiled.diagnostics
    assert compiled.ruleset.classes["Veteran"].tier == "common"
    assert "Soldier" in compiled.ruleset.classes
    assert compiled.ruleset.origin("Veteran").file == "plus.rules"


def test_the_cache_key_holds_every_layer(tmp_path, monkeypatch):
    """Changing a base changes what a house file compiles to, through the cache too."""
    from warband.lang import compiler
    base = tmp_path / "base.rules"
    house = tmp_path / "house.rules"
    base.write_text('ruleset "b"\nstat Might: 1..10\nclass A { stat Might = 1 }\n')
    house.write_text('ruleset "h"\n  extends "base.rules"\nclass B { stat Might = 2 }\n')
    first = compiler.load(str(house)).ruleset
    assert set(first.classes) == {"A", "B"}
    base.write_text('ruleset "b"\nstat Might: 1..10\nclass C { stat Might = 1 }\n')
    second = compiler.load(str(house)).ruleset
    assert set(second.classes) == {"C", "B"}


# ---- errors -------------------------------------------------------------------------------------

@pytest.mark.parametrize("folder", ERRORS, ids=lambda p: p.name)
def test_error_golden(folder, golden):
    compiled = error_case(folder)
    assert compiled.ruleset is None
    golden(folder / "expected.txt", norm(render_text(compiled.diagnostics, compiled.sources)))


@pytest.mark.parametrize("folder", ERRORS, ids=lambda p: p.name)
def test_every_diagnostic_names_its_file_and_shows_it(folder):
    compiled = error_case(folder)
    for d in compiled.diagnostics:
        assert d.span is not None
        assert d.span.file in compiled.sources.texts, d
        for r in d.related:
            assert r.span.file in compiled.sources.texts, r


@pytest.mark.parametrize("folder", ERRORS, ids=lambda p: p.name)
def test_one_mistake_one_message(folder):
    """Each case holds one mistake; a second message would be a cascade. Removing a name the
    base uses in two places is reported at both (two declarations use it)."""
    compiled = error_case(folder)
    expected = 2 if folder.name == "removed_still_used" else 1
    assert len(compiled.diagnostics) == expected, render_text(compiled.diagnostics,
                                                              compiled.sources)


def test_removed_name_is_reported_where_the_base_uses_it():
    compiled = error_case(HOUSE / "errors" / "removed_still_used")
    assert {d.code for d in compiled.diagnostics} == {"E201"}
    assert all(norm(d.span.file) == "dsl/super-simple-skirmish.rules"
               for d in compiled.diagnostics)
    assert all(r.span.file.endswith("removed_still_used/house.rules")
               for d in compiled.diagnostics for r in d.related)


def test_cycle_names_the_chain():
    compiled = error_case(HOUSE / "errors" / "cycle")
    [error] = compiled.diagnostics
    assert error.code == "E438"
    assert "house.rules -> campaign.rules -> house.rules" in error.message


def test_depth_is_limited():
    compiled = error_case(HOUSE / "errors" / "too_deep")
    [error] = compiled.diagnostics
    assert error.code == "E439"
    assert error.span.file.endswith("layer16.rules")


def test_a_cycle_through_a_builtin_id_ends(tmp_path, monkeypatch):
    """A file that extends itself by path, however written, ends in E438 rather than a hang."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "me.rules").write_text('ruleset "me"\n  extends "./me.rules"\n')
    compiled = load("me.rules")
    assert [d.code for d in compiled.diagnostics] == ["E438"]


# ---- the shipped house rules --------------------------------------------------------------------

SHIPPED = ["smart-faith", "smart-range-per-inch", "sss-sentinel", "swords-against-sorcery-points"]


@pytest.mark.parametrize("ref", SHIPPED)
def test_shipped_house_rules_compile_cleanly_and_say_why(ref):
    compiled = load(ref)
    assert compiled.ruleset is not None and compiled.diagnostics == [], compiled.diagnostics
    assert len(compiled.ruleset.layers) == 2
    text = Path(compiled.ruleset.file).read_text(encoding="utf-8")
    assert text.startswith("# ") and ("WHY" in text or "WHAT" in text)


def _exact(ruleset, action, args, specs):
    from warband.run.interpreter import Interpreter, Policies
    from warband.run.world import make_world
    world = make_world(ruleset, specs, [{}, {}])
    return Interpreter(ruleset, Policies("first")).exact(action, args, world)


def test_faith_is_on_for_the_good_guys():
    from fractions import Fraction as F

    from warband.run.world import FighterSpec, Ref
    base, faith = load("smart").ruleset, load("smart-faith").ruleset
    dragon = FighterSpec("d", 0, "Dragon", {"Level": 5})
    knight = FighterSpec("k", 1, "Knight", {"XP": 54})            # 3rd level
    goblin = FighterSpec("g", 1, "Goblin", {})
    args = {"dragon": Ref("fighter", 0), "target": Ref("fighter", 1)}
    assert _exact(base, "breath", args, [dragon, knight]).only() == "defeated"
    with_faith = _exact(faith, "breath", args, [dragon, knight])
    assert with_faith["saved"] == F(13, 20)                         # d20 + 3 >= 11: 8 or more
    assert with_faith["defeated"] == F(7, 20)
    # a monster is not one of the good guys: no roll, unless the action says faith=yes
    assert _exact(faith, "breath", args, [dragon, goblin]).only() == "defeated"
    assert _exact(faith, "breath", {**args, "faith": True}, [dragon, goblin])["saved"] == F(11, 20)


def test_faith_changes_the_odds_of_a_spell():
    from fractions import Fraction as F

    from warband.run.world import FighterSpec, Ref
    magician = FighterSpec("m", 0, "Magician", {})
    knight = FighterSpec("k", 1, "Knight", {"XP": 24})            # 2nd level
    args = {"caster": Ref("fighter", 0), "target": Ref("fighter", 1), "distance": 2}
    assert _exact(load("smart").ruleset, "cast", args, [magician, knight]).only() == "defeated"
    result = _exact(load("smart-faith").ruleset, "cast", args, [magician, knight])
    assert result["saved"] == F(3, 5) and result["defeated"] == F(2, 5)


@pytest.mark.parametrize("distance, needed_base, needed_per_inch", [
    (30, 11, 11), (31, 12, 12), (35, 12, 16), (40, 12, 21), (50, 12, 31), (51, 13, 32),
])
def test_range_per_inch(distance, needed_base, needed_per_inch):
    from warband.run.interpreter import Interpreter
    base, per_inch = load("smart").ruleset, load("smart-range-per-inch").ruleset
    assert Interpreter(base).call("needed_to_hit", [distance]) == needed_base
    assert Interpreter(per_inch).call("needed_to_hit", [distance]) == needed_per_inch


def test_sentinel_is_never_stunned():
    from fractions import Fraction as F

    from warband.run.world import FighterSpec, Ref
    rules = load("sss-sentinel").ruleset
    soldier = FighterSpec("s", 0, "Soldier", {"Might": 10})
    args = {"attacker": Ref("fighter", 0), "target": Ref("fighter", 1)}
    against_soldier = _exact(rules, "shoot", args, [soldier, FighterSpec("t", 1, "Soldier",
                                                                         {"Might": 10})])
    against_sentinel = _exact(rules, "shoot", args, [soldier, FighterSpec("t", 1, "Sentinel",
                                                                          {"Might": 10})])
    assert against_soldier["stun"] == F(1, 6) and against_soldier["kill"] == F(5, 54)
    assert against_sentinel["stun"] == 0 and against_sentinel["kill"] == F(5, 54)
    assert rules.classes["Sentinel"].tier == "special"


def test_shipped_house_warbands_validate():
    from warband.lists.validate import validate
    for name, ruleset in (("gate-wardens.yaml", "sss-sentinel"),
                          ("narnia-faithful.yaml", "smart-faith")):
        result = validate([str(ROOT / "warbands" / name)]).files[0]
        assert result.diagnostics == [] and result.ruleset.id == ruleset
    wardens = validate([str(ROOT / "warbands" / "gate-wardens.yaml")]).files[0]
    assert (wardens.total, wardens.limit) == (100, 100)


def test_a_warband_names_a_house_file_by_path(tmp_path):
    from warband.lists.validate import validate
    house = tmp_path / "rules" / "club.rules"
    house.parent.mkdir()
    house.write_text('ruleset "club"\n  extends "super-simple-skirmish"\n'
                     'trait Lucky "rerolls one die a game"\n'
                     'class Veteran { tier common traits Charge, Lucky }\n')
    band = tmp_path / "band.yaml"
    band.write_text("name: Club\nruleset: rules/club.rules\nfighters:\n"
                    "  - name: Old Bob\n    class: Veteran\n    might: 10\n")
    result = validate([str(band)]).files[0]
    assert result.diagnostics == [] and result.total == 10
    band.write_text(band.read_text().replace("Veteran", "Vetran"))
    result = validate([str(band)]).files[0]
    assert [d.code for d in result.diagnostics] == ["E624"]
    assert "Veteran" in (result.diagnostics[0].hint or "")


# ---- rules diff ---------------------------------------------------------------------------------

DIFFS = [("super-simple-skirmish", "tests/house_rules/three_layers/house.rules", "club"),
         ("tests/house_rules/three_layers/campaign.rules",
          "tests/house_rules/three_layers/house.rules", "club_on_campaign"),
         ("smart", "smart-faith", "smart_faith"),
         ("smart", "smart-range-per-inch", "smart_range"),
         ("swords-against-sorcery", "swords-against-sorcery-points", "sas_points"),
         ("super-simple-skirmish", "sss-sentinel", "sss_sentinel"),
         ("super-simple-skirmish", "super-simple-skirmish", "same")]


@pytest.mark.parametrize("base, house, name", DIFFS, ids=[d[2] for d in DIFFS])
@pytest.mark.parametrize("fmt", ["text", "json"])
def test_rules_diff_golden(base, house, name, fmt, golden, monkeypatch):
    from typer.testing import CliRunner

    from warband.cli import app
    monkeypatch.chdir(ROOT)
    result = CliRunner().invoke(app, ["rules", "diff", base, house, "--format", fmt])
    assert result.exit_code == 0, result.output
    out = result.stdout
    if fmt == "json":
        data = json.loads(out)
        # where a built-in lives depends on the installation
        for side in ("base", "house"):
            data[side]["file"] = Path(data[side]["file"]).name
        out = json.dumps(data, indent=2) + "\n"
    golden(HOUSE / "diff" / f"{name}.{'json' if fmt == 'json' else 'txt'}", norm(out))


def test_rules_diff_of_a_table_row_and_a_class_stat():
    from warband.lang.compiler import compile_text
    from warband.lang.diff import diff
    base = compile_text('ruleset "b"\nstat Might: 1..10\nclass A { stat Might = 1 }\n'
                        'table t(x) -> y { 1 => 2\n otherwise => 3 }\n', "b.rules").ruleset
    house = compile_text('ruleset "h"\nstat Might: 1..10\nclass A { stat Might = 2 }\n'
                         'table t(x) -> y { 1 => 5\n 2 => 4\n otherwise => 3 }\n',
                         "h.rules").ruleset
    changes = {(c.kind, c.name): c for c in diff(base, house)}
    assert changes[("class", "A")].details == ["Might 1 -> 2"]
    assert changes[("table", "t")].details == ["row 1: 2 -> 5", "new row 2 => 4"]
    assert len(changes) == 2


def test_rules_diff_exits_2_on_broken_rules(tmp_path):
    from typer.testing import CliRunner

    from warband.cli import app
    broken = tmp_path / "broken.rules"
    broken.write_text('ruleset "x"\n  extends "super-simple-skirmish"\nremove class Nope\n')
    result = CliRunner().invoke(app, ["rules", "diff", "super-simple-skirmish", str(broken)])
    assert result.exit_code == 2
    assert "E433" in result.output


def test_every_kind_can_be_overridden_and_removed():
    text = '''ruleset "sas-giants"
  extends "swords-against-sorcery"

override stat Training: 1..10 default 2 "up to 10 for giants"
override enum Sizes "Model sizes, and one more" {
  Small Medium Big BiggerThanBig PrettyDangBig Colossal "a walking hill"
}
override table movement_points(size: Sizes) -> points {
  Small => 1
  Medium => 2
  Big => 3
  BiggerThanBig => 4
  PrettyDangBig => 5
  Colossal => 6
}
override equipment Shield "a great shield: one extra defence die, and Armor 1" { grants Armor(1) }
override trait Armor(N) sum "armour pieces add up"
override define defence_successes(n, f: fighter) "defence dice are d6 in our games" =
  count even in (n)d6 rolled by f
override counter Pockets on fighter from 1 "a head start"
override flag FillingPockets on fighter "gathering money"
override outcomes flight_result "How fleeing went" {
  escaped = 3 "got away unhurt"
  escaped_hurt = 1 "got away, but hurt"
  caught = 0 "eliminated"
}
override action rank(fighter: fighter) -> text "the Training name" {
  return training_name(fighter.Training)
}
remove equipment Leather
remove trait Bravery
'''
    compiled = compile_text(text, "giants.rules")
    assert compiled.ruleset is not None, render_text(compiled.diagnostics, compiled.sources)
    rules = compiled.ruleset
    assert (rules.stats["Training"].low, rules.stats["Training"].high) == (1, 10)
    assert [m for m, _ in rules.enums["Sizes"]][-1] == "Colossal"
    assert dict(rules.equipment["Shield"].grants) == {"Armor": 1}
    assert rules.traits["Armor"].combine == "sum"
    assert rules.states["Pockets"].initial == 1
    assert rules.outcomes["flight_result"].score("escaped") == 3
    assert "Leather" not in rules.equipment and "Bravery" not in rules.traits
    assert rules.origin("movement_points").overrides.file.endswith("swords-against-sorcery.rules")
    from warband.lang.diff import diff
    changed = {(c.kind, c.name, c.change) for c in diff(load("swords-against-sorcery").ruleset,
                                                        rules)}
    assert ("table", "movement_points", "changed") in changed
    assert ("equipment", "Leather", "removed") in changed
    assert ("enum", "Sizes", "changed") in changed


def test_rules_diff_names_game_statements_as_written():
    """A changed game step is shown in the rules' words, not by the interpreter's node name
    (the diff once printed "ForSorted")."""
    from warband.lang.compiler import compile_text
    from warband.lang.diff import diff
    head = 'ruleset "{}"\nstat Speed: 1..10\nflag Fought on fighter\n'
    body = ('phase strikes() {{\n  for each f in fighters by {} f.Speed {{\n'
            '    if not f.Fought {{\n      activate f\n      travel f up to 3\n    }}\n  }}\n}}\n')
    base = compile_text(head.format("b") + body.format("highest"), "b.rules").ruleset
    house = compile_text(head.format("h") + body.format("lowest"), "h.rules").ruleset
    [change] = diff(base, house)
    text = "\n".join(change.details)
    assert "ForSorted" not in text
    assert "for each f in fighters by lowest f.Speed { ... }" in text


def test_rules_diff_names_a_procedures_result_and_parameter_types():
    """A house rule that changes what a procedure gives back, or a parameter's type, was
    shown as no change at all (the result) or as the same names on both sides (a type)."""
    from warband.lang.compiler import compile_text
    from warband.lang.diff import diff
    head = 'ruleset "{}"\nstat Speed: 1..10\n'
    base = compile_text(head.format("b") + "procedure pace(f: fighter) -> number { return "
                        "f.Speed }\nprocedure far(f: fighter, n: number = 2) -> bool { return "
                        "f.Speed > n }\n", "b.rules").ruleset
    house = compile_text(head.format("h") + "procedure pace(f: fighter) -> bool { return "
                         "f.Speed > 3 }\nprocedure far(f: fighter, n: number = 3) -> bool { "
                         "return f.Speed > n }\n", "h.rules").ruleset
    changes = {c.name: c.details for c in diff(base, house)}
    assert "result number -> bool" in changes["pace"]
    assert "parameters (f: fighter, n: number = 2) -> (f: fighter, n: number = 3)" in \
        changes["far"]
