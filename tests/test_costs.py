"""More than one cost (issue 20, item 7): `cost NAME(f) = EXPR` beside the points' `cost(f)`,
`limit NAME EXPR` (which may read the game's points), each read by army rules (`crowns(f)`,
`total_crowns`), checked by `warband validate` (E701 naming the cost, E704 naming the cost),
shown on roster cards and in validate's JSON, changed by house rules, printed by `rules show`
and `rules diff`.

The examples are in tests/costs/: guild.rules (and a house file on it, guild-house.rules), a
valid warband and an invalid one for each finding, each invalid one with the golden output of
`warband validate` beside it (NAME.txt); bad-costs.rules with what `rules check` says of it.
A second system (a squad game paying in requisition, written here) uses the same concepts.
"""

from __future__ import annotations

import json
import random
import shlex
import shutil
from dataclasses import astuple
from pathlib import Path

import pytest
from typer.testing import CliRunner

from warband.cli import app
from warband.lang.compiler import compile_text
from warband.lists.roster import roster, roster_text
from warband.lists.validate import Validation, validate

ROOT = Path(__file__).resolve().parents[1]
COSTS = ROOT / "tests" / "costs"
ROSTERS = ROOT / "tests" / "roster_golden"
INVALID = sorted(p for p in COSTS.glob("*.yaml") if "valid" not in p.stem)
VALID = sorted(p for p in COSTS.glob("*.yaml") if p.stem.endswith("valid"))

SQUADS = '''ruleset "squads-requisition"
  title "Squads: a squad game paying in points and in requisition"

stat Quality: 2..6 "the roll a unit needs"
tier hero "one model"
tier unit "squads of several models"
class Commander { tier hero single unique stat Quality = 3 }
class Troopers  { tier unit group 5..10 }
class Walker    { tier unit single stat Quality = 4 }

army "squad list" {
  cost(m) = (7 - m.Quality) * 5
  points 500
  cost requisition(m) = if m is Walker then 3 else (if m is Commander then 0 else 1)
    "requisition slips"
  limit requisition points / 50 "one slip for every 50 points of the game"
  every m in fighters where m is Walker: requisition(m) <= total_requisition / 2
    "a walker takes at most half the slips"
}
'''


def run(*args: str):
    return CliRunner().invoke(app, list(args))


def _codes(path: Path | str) -> list[str]:
    return [d.code for d in validate([str(path)]).diagnostics]


# ---- the rules -----------------------------------------------------------------------------------

def test_the_example_rules_compile():
    for name in ("guild.rules", "guild-house.rules"):
        found = [d for d in compile_text((COSTS / name).read_text(), str(COSTS / name)).errors]
        assert found == [], name
    assert compile_text(SQUADS, "squads.rules").errors == []


def test_what_rules_check_says_of_every_mistake(golden, at_root):
    result = run("rules", "check", "tests/costs/bad-costs.rules")
    assert result.exit_code == 1
    golden(COSTS / "bad-costs.txt", "$ warband rules check tests/costs/bad-costs.rules\n"
                                    + result.stdout)
    codes = [line.split("[")[1][:4] for line in result.stdout.splitlines() if "error[" in line]
    assert sorted(set(codes)) == ["E201", "E202", "E302", "E303"]


def test_a_negative_fixed_limit_is_e305():
    text = ('ruleset "neg"\nstat Skill: 1..10\narmy {\n  points 100\n'
            '  cost crowns(f) = f.Skill\n  limit crowns 5 - 10\n}\n')
    found = compile_text(text, "neg.rules").errors
    assert [(d.code, d.message) for d in found] == [
        ("E305", "the limit of crowns must be 0 or more, not -5")]
    # one that reads the game's points is worked out for each warband's game
    assert compile_text(text.replace("5 - 10", "points - 150"), "neg.rules").errors == []


def test_the_sides_of_a_game_are_not_read_by_an_army():
    """A cost or army rule reading `sides` once read an empty group (there is no game when a
    warband is validated) and passed without a word."""
    for line in ("  cost(f) = f.Skill + total(1 for s in sides)\n",
                 "  cost(f) = f.Skill\n  require total(1 for s in sides) <= 2\n"):
        text = f'ruleset "sides"\nstat Skill: 1..10\narmy {{\n  points 100\n{line}}}\n'
        found = compile_text(text, "sides.rules").errors
        assert [d.code for d in found] == ["E204"], found
        assert "outside a game" in found[0].message


def test_the_compiled_army_has_its_named_costs_and_limits():
    ruleset = compile_text((COSTS / "guild.rules").read_text(), "guild.rules").ruleset
    assert ruleset is not None and ruleset.army is not None
    costs = {c.name: c for c in ruleset.army.costs}
    assert list(costs) == ["crowns", "favours"]
    assert costs["crowns"].doc == "gold crowns" and costs["crowns"].limit is not None
    assert costs["favours"].limit_doc is None
    assert "crowns" not in ruleset.defines   # callable in army rules only


# ---- validate ------------------------------------------------------------------------------------

@pytest.mark.parametrize("example", VALID, ids=[p.stem for p in VALID])
def test_the_valid_examples_are_valid(example):
    assert _codes(example) == []


@pytest.mark.parametrize("example", INVALID, ids=[p.stem for p in INVALID])
def test_each_invalid_example_prints_its_golden(example, golden, at_root):
    rel = example.relative_to(ROOT).as_posix()
    result = run("validate", rel)
    assert result.exit_code == 1
    golden(example.with_suffix(".txt"),
           f"$ warband validate {shlex.quote(rel)}\n{result.stdout}[exit {result.exit_code}]\n")


def test_over_a_named_limit_is_e701_naming_the_cost():
    found = validate([str(COSTS / "guild-over-crowns.yaml")]).diagnostics
    assert [d.code for d in found] == ["E701"]
    assert found[0].message.startswith("the warband costs 165 crowns, over the limit of 150 "
                                       "crowns")
    assert found[0].related[-1].span.file.endswith("guild.rules")   # the `limit` line
    assert "treasury" in found[0].related[-1].message


def test_a_limit_that_reads_points_grows_with_the_files_game(tmp_path):
    shutil.copy(COSTS / "guild.rules", tmp_path / "guild.rules")
    text = (COSTS / "guild-over-crowns.yaml").read_text().replace(
        "ruleset: guild.rules", "ruleset: guild.rules\npoints: 400")
    (tmp_path / "bigger.yaml").write_text(text)
    result = Validation().file(str(tmp_path / "bigger.yaml"))
    assert [d.code for d in result.diagnostics] == []   # 165 crowns of 200
    assert (result.costs["crowns"].total, result.costs["crowns"].limit) == (165, 200)


def test_a_cost_that_cannot_be_worked_out_is_e704_naming_it_and_the_rest_is_checked():
    found = validate([str(COSTS / "guild-favours-unknown.yaml")]).diagnostics
    assert sorted(d.code for d in found) == ["E701", "E704"]
    e704 = next(d for d in found if d.code == "E704")
    assert e704.message.startswith("the favours cost of fighter 'Wanderer' cannot be worked out")
    assert "crowns" in next(d for d in found if d.code == "E701").message


def test_malformed_entries_leave_the_totals_and_check_each_entrys_costs():
    found = validate([str(COSTS / "guild-malformed.yaml")]).diagnostics
    assert sorted(d.code for d in found) == ["E624", "E704", "E705"]


def test_validate_json_carries_the_costs_by_name(at_root):
    result = run("validate", "--format", "json", "tests/costs/guild-valid.yaml",
                 "tests/costs/guild-over-crowns.yaml")
    files = json.loads(result.stdout)["files"]
    assert files[0]["costs"] == {"crowns": {"total": 130, "limit": 150},
                                 "favours": {"total": 2, "limit": 3}}
    assert files[1]["costs"]["crowns"] == {"total": 165, "limit": 150}


CROWNS_ONLY = """
ruleset "crowns-only"
stat Skill: 1..6 default 3
army "a guild priced in crowns" {
  points 100
  cost crowns(f) = f.Skill * 10 "gold crowns"
  limit crowns points "the game's points are crowns"
}
"""


def test_validate_json_keeps_the_points_of_an_army_priced_in_a_named_cost(tmp_path):
    """Issue 32, A11: an army whose only cost is a named one, limited by the game's points,
    still has `points` and `points_limit` in the JSON (the docs list both keys), and a file
    may set the game's points (it was refused: "counts no points")."""
    (tmp_path / "crowns.rules").write_text(CROWNS_ONLY, encoding="utf-8")
    band = tmp_path / "band.yaml"
    band.write_text("name: B\nruleset: crowns.rules\nfighters:\n  - {name: A, skill: 4}\n"
                    "  - {name: B, skill: 2, count: 2}\n", encoding="utf-8")
    entry = json.loads(run("validate", "--format", "json", str(band)).stdout)["files"][0]
    assert (entry["points"], entry["points_limit"]) == (80, 100)
    assert entry["costs"] == {"crowns": {"total": 80, "limit": 100}}
    band.write_text(band.read_text(encoding="utf-8") + "points: 60\n", encoding="utf-8")
    result = run("validate", "--format", "json", str(band))
    entry = json.loads(result.stdout)["files"][0]
    assert (entry["points"], entry["points_limit"]) == (80, 60)
    assert [d["code"] for d in entry["diagnostics"]] == ["E701"]


def test_a_second_system_pays_in_requisition(tmp_path):
    (tmp_path / "squads.rules").write_text(SQUADS)

    def check(fighters: str, points: str = "") -> list[str]:
        text = f"name: S\nruleset: squads.rules\n{points}fighters:\n{fighters}"
        path = tmp_path / "s.yaml"
        path.write_text(text)
        return [f"{d.code} {d.message}" for d in validate([str(path)]).diagnostics]

    base = "  - {name: Vance, class: Commander}\n  - {name: A, class: Troopers, count: 5, " \
           "quality: 4}\n"
    assert check(base + "  - {name: W, class: Walker}\n") == []   # 8 slips of 10
    over = check(base + "  - {name: W, class: Walker}\n  - {name: W2, class: Walker}\n")
    assert [m[:4] for m in over] == ["E701"]
    assert "11 requisition, over the limit of 10 requisition" in over[0]
    # a larger game, more slips; the walker rule reads each fighter's cost and the total
    assert check(base + "  - {name: W, class: Walker}\n  - {name: W2, class: Walker}\n",
                 "points: 600\n") == []
    alone = check("  - {name: Vance, class: Commander}\n  - {name: W, class: Walker}\n")
    assert [m[:4] for m in alone] == ["E706"]
    assert "a walker takes at most half the slips" in alone[0]


# ---- house rules ----------------------------------------------------------------------------------

def test_a_house_rule_changes_a_named_cost_and_its_limit():
    assert _codes(COSTS / "guild-over-crowns.yaml") == ["E701"]
    assert _codes(COSTS / "guild-house-valid.yaml") == []   # the same fighters, house rules
    result = Validation().file(str(COSTS / "guild-house-valid.yaml"))
    assert (result.costs["crowns"].total, result.costs["crowns"].limit) == (220, 300)
    assert result.costs["favours"].limit is None   # `remove limit favours`


def test_removing_a_named_cost_the_base_lacks_is_e433(tmp_path):
    shutil.copy(COSTS / "guild.rules", tmp_path / "guild.rules")
    house = tmp_path / "h.rules"
    house.write_text('ruleset "h"\n  extends "guild.rules"\n'
                     "override army {\n  remove cost crowms\n  remove limit silver\n}\n")
    found = compile_text(house.read_text(), str(house)).errors
    assert [(d.code, d.hint) for d in found] == [
        ("E433", "did you mean 'crowns'?"), ("E433", "its named limits: crowns, favours")]


def test_removing_a_named_cost_takes_its_limit_and_leaves_rules_reading_it_unknown(tmp_path):
    shutil.copy(COSTS / "guild.rules", tmp_path / "guild.rules")
    house = tmp_path / "h.rules"
    house.write_text('ruleset "h"\n  extends "guild.rules"\n'
                     "override army {\n  remove cost favours\n}\n")
    found = compile_text(house.read_text(), str(house)).errors
    assert [(d.code, d.message) for d in found] == [("E201", "unknown name 'total_favours'")]


def test_rules_show_and_diff_print_the_named_costs(at_root):
    shown = run("rules", "show", "tests/costs/guild-house.rules").stdout
    assert "cost in crowns: f.Skill * 5 + upkeep(f) * 2" in shown
    assert "limit of crowns: at most points (the treasury of a richer guild)" in shown
    assert "limit of favours" not in shown
    data = json.loads(run("rules", "show", "tests/costs/guild.rules", "--format", "json").stdout)
    assert [c["name"] for c in data["army"]["costs"]] == ["crowns", "favours"]
    assert data["army"]["costs"][0]["limit"] == "points / 2"
    diff = run("rules", "diff", "tests/costs/guild.rules", "tests/costs/guild-house.rules").stdout
    assert "changed  cost crowns: f.Skill * 5 + upkeep(f) -> f.Skill * 5 + upkeep(f) * 2" in diff
    assert "changed  limit crowns: points / 2 -> points" in diff
    assert "removed  limit favours: was 3" in diff


# ---- roster cards ---------------------------------------------------------------------------------

@pytest.mark.parametrize("fmt,ext", [("text", "txt"), ("markdown", "md"), ("html", "html")])
def test_the_roster_shows_each_cost(fmt, ext, golden, at_root, monkeypatch):
    monkeypatch.setenv("COLUMNS", "120")
    result = run("roster", "tests/costs/guild-over-crowns.yaml", "--format", fmt)
    assert result.exit_code == 1   # printed, with its problem
    golden(ROSTERS / f"guild-over-crowns.{ext}", result.stdout)


def test_the_roster_model_has_each_fighters_costs_and_each_total():
    model = roster(str(COSTS / "guild-over-crowns.yaml")).model
    assert model is not None
    assert model["costs"] == [{"name": "crowns", "doc": "gold crowns", "title": "crowns"},
                              {"name": "favours", "doc": "favours owed", "title": "favours"}]
    hands = model["fighters"][1]
    assert hands["costs"][0] == {"name": "crowns", "cost": "35", "total": "70",
                                 "text": "2 × 35 = 70"}
    totals = {t["name"]: (t["text"], t["ok"]) for t in model["totals"]}
    assert totals == {"points": ("220 / 300", True), "crowns": ("165 / 150", False),
                      "favours": ("2 / 3", True), "fighters": ("4", None)}


def test_a_cost_that_cannot_be_worked_out_shows_as_unknown():
    model = roster(str(COSTS / "guild-favours-unknown.yaml")).model
    assert model is not None
    wanderer = model["fighters"][1]
    assert [c["text"] for c in wanderer["costs"]] == ["15", None]
    # counted as far as it can be (issue 32, A9)
    assert next(t for t in model["totals"] if t["name"] == "favours")["used"] == "at least 2"


def test_a_ruleset_without_named_costs_has_none_on_its_cards():
    model = roster_text("name: X\nruleset: super-simple-skirmish\nfighters:\n"
                        "  - {name: A, class: Soldier, might: 10}\n").model
    assert model is not None and model["costs"] == [] and model["fighters"][0]["costs"] == []


# ---- one run, many files ----------------------------------------------------------------------------

def _seen(result) -> tuple:
    return (result.file, result.unusable, result.total, result.limit, result.size,
            {n: (c.total, c.limit, dict(c.costs)) for n, c in result.costs.items()},
            [astuple(d) for d in result.diagnostics])


@pytest.mark.parametrize("seed", range(5))
def test_validating_together_is_validating_each_alone(seed, tmp_path):
    """Named costs of several files (and two rulesets, a base and its house file) in one run are
    what each file gets alone: no total, limit or cached interpreter leaks between them."""
    for p in list(COSTS.glob("*.yaml")) + list(COSTS.glob("*.rules")):
        shutil.copy(p, tmp_path / p.name)
    paths = [str(p) for p in sorted(tmp_path.glob("*.yaml"))]
    alone = {p: _seen(Validation().file(p)) for p in paths}
    order = paths + paths
    random.Random(seed).shuffle(order)
    together = {r.file: _seen(r) for r in Validation().run(order).files}
    assert together == alone


# ---- found by the review: house overrides and names -------------------------------------------

def _house(tmp_path: Path, army: str):
    shutil.copy(COSTS / "guild.rules", tmp_path / "guild.rules")
    house = tmp_path / "house.rules"
    house.write_text(f'ruleset "house"\n  extends "guild.rules"\n\noverride army {{\n{army}\n}}\n')
    from warband.lang.compiler import load
    return load(str(house))


def test_a_house_army_giving_an_entry_twice_is_e202_as_a_base_one_is(tmp_path):
    compiled = _house(tmp_path, "  points 300\n  points 500\n  limit crowns 5\n  limit crowns 1")
    assert sorted(d.message for d in compiled.errors) == [
        "the army gives its points twice", "the limit of 'crowns' is given twice"]


def test_a_house_may_remove_a_named_cost_and_give_a_new_one(tmp_path):
    compiled = _house(tmp_path, "  remove cost crowns\n  cost crowns(f) = 1\n  limit crowns 2")
    assert compiled.errors == [] and compiled.ruleset is not None
    [crowns] = [c for c in compiled.ruleset.army.costs if c.name == "crowns"]
    assert crowns.limit is not None
    # a limit of a cost the house removed limits nothing: said, as in a base
    compiled = _house(tmp_path, "  remove cost crowns\n  limit crowns 2")
    assert "'crowns' is not a cost of this army" in [d.message for d in compiled.errors]
    # and a base rule still reading the removed cost is told where it was removed
    uses = [d for d in compiled.errors if d.code == "E201" and "crowns" in d.message and
            "not a cost" not in d.message]
    assert uses and all("is removed here" in str(d.related) for d in uses)


def test_a_cost_named_like_a_built_in_is_e202():
    compiled = compile_text('ruleset "b"\nstat Skill: 1..6 default 3\nclass C { }\n'
                            'army { cost(f) = 1 points 100 cost max(f) = 2 cost total(f) = 1 }\n',
                            "b.rules")
    assert [d.code for d in compiled.errors] == ["E202", "E202"]
    assert "a name of the language" in compiled.errors[0].message


def test_a_cost_named_like_a_stat_gets_a_column_of_its_own_name(tmp_path):
    """Review finding: a stat Renown and a cost renown gave two columns titled Renown."""
    (tmp_path / "r.rules").write_text(
        'ruleset "r"\nstat Renown: 0..9 default 0\nclass C { }\n'
        'army { cost(f) = 1 points 10 cost renown(f) = f.Renown limit renown 5 }\n')
    (tmp_path / "w.yaml").write_text("name: W\nruleset: r.rules\nfighters:\n"
                                     "  - {name: A, class: C, renown: 2}\n")
    from warband.lists import render_roster
    found = roster(str(tmp_path / "w.yaml"))
    assert found.model is not None
    text = render_roster.render(found.model, "text")
    assert "renown cost" in text and "Renown" in text
