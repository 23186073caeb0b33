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

from warband.compiler import compile_text, load
from warband.diagnostics import render_text

ROOT = Path(__file__).resolve().parents[1]
HOUSE = ROOT / "tests" / "house_rules"
ERRORS = sorted(p for p in (HOUSE / "errors").iterdir() if p.is_dir())


def compile_path(path: Path):
    """Compile under the path relative to the repository, so goldens match on every machine."""
    with contextlib.chdir(ROOT):
        relative = path.relative_to(ROOT).as_posix()
        return compile_text(path.read_text(encoding="utf-8"), relative)


def error_case(folder: Path):
    return compile_path(folder / "house.rules")


# ---- plain extends, stacked layers, provenance ----------------------------------------------------

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


def test_provenance(club):
    rules = club.ruleset
    soldier = rules.origin("Soldier")
    assert soldier.file.endswith("three_layers/house.rules") and soldier.line == 13
    assert soldier.overrides.file == "dsl/super-simple-skirmish.rules"
    assert soldier.overrides.line == 43
    assert rules.origin("Experience").file.endswith("campaign.rules")
    assert rules.origin("Warrior").overrides is None
    assert rules.origin("army").overrides.file.endswith("campaign.rules")
    assert rules.origin("army.points").file.endswith("campaign.rules")


def test_sources_hold_every_layer(club):
    assert set(club.sources.texts) == {
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
    text = "\n".join(line.rstrip() for line in result.stdout.splitlines()) + "\n"
    assert "Soldier    common   Ranged, Defend" in text
    assert "house.rules:13, overrides super-simple-skirmish.rules:43" in text
    golden(HOUSE / "three_layers" / "show.txt", text)
    data = json.loads(CliRunner().invoke(app, [
        "rules", "show", "tests/house_rules/three_layers/house.rules", "--format",
        "json"]).stdout)
    soldier = next(c for c in data["classes"] if c["name"] == "Soldier")
    assert soldier["origin"] == {
        "file": "tests/house_rules/three_layers/house.rules", "line": 13,
        "overrides": {"file": "dsl/super-simple-skirmish.rules", "line": 43}}
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
    from warband import compiler
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
    golden(folder / "expected.txt", render_text(compiled.diagnostics, compiled.sources))


@pytest.mark.parametrize("folder", ERRORS, ids=lambda p: p.name)
def test_every_diagnostic_names_its_file_and_shows_it(folder):
    compiled = error_case(folder)
    for d in compiled.diagnostics:
        assert d.span is not None
        assert d.span.file in compiled.sources.texts, d
        for r in d.related:
            assert r.span.file in compiled.sources.texts, r


def test_removed_name_is_reported_where_the_base_uses_it():
    compiled = error_case(HOUSE / "errors" / "removed_still_used")
    assert {d.code for d in compiled.diagnostics} == {"E201"}
    assert all(d.span.file == "dsl/super-simple-skirmish.rules" for d in compiled.diagnostics)
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
