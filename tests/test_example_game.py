"""Fogbound, the toolkit's own example game (dsl/fogbound.rules), from the guild charter to a
campaign:

- the two example warbands are valid and their rosters print; every invalid warband in
  tests/example_game/ prints exactly its golden diagnostics (`pytest --update-goldens` rewrites
  them), and every entry of the charter is broken by at least one of them;
- the army section uses every army concept the language has (so the example stays the worked
  example of section 9 of docs/language.md);
- the Drowned Market plays seeded games to an end, simulates, takes a side from another file,
  and writes a campaign's results back into the warband files;
- the game plays by its own text, checked over seeded game records: a guild's fighters act in
  order of Skill, the best first, and a guild gives up only after losing half its fighters.
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from warband.cli import app
from warband.game.engine import Game
from warband.game.scenario import load_scenario
from warband.lang.compiler import load
from warband.lists.validate import validate
from warband.run.decisions import Policies

ROOT = Path(__file__).resolve().parents[1]
RULES = ROOT / "dsl" / "fogbound.rules"
SCENARIO = ROOT / "scenarios" / "fogbound-drowned-market.rules"
VALID = [ROOT / "warbands" / "fogbound-tallow-guild.yaml",
         ROOT / "warbands" / "fogbound-eel-street.yaml"]
INVALID = sorted((ROOT / "tests" / "example_game").glob("*.yaml"))
SEEDS = range(1, 61)


def run(*args: str):
    return CliRunner().invoke(app, list(args))


@pytest.fixture(scope="module")
def ruleset():
    compiled = load(str(RULES))
    assert compiled.errors == [] and compiled.ruleset is not None, compiled.diagnostics
    return compiled.ruleset


@pytest.fixture(scope="module")
def market():
    scenario = load_scenario(str(SCENARIO))
    assert not isinstance(scenario, list), scenario
    return scenario


# ---- the warbands ---------------------------------------------------------------------------------

@pytest.mark.parametrize("path", VALID, ids=lambda p: p.stem)
def test_the_example_warbands_are_valid(path: Path):
    assert validate([str(path)]).diagnostics == []


@pytest.mark.parametrize("example", INVALID, ids=lambda p: p.stem)
def test_each_invalid_warband_prints_its_golden(example: Path, golden, at_root):
    rel = example.relative_to(ROOT).as_posix()
    result = run("validate", rel)
    assert result.exception is None or isinstance(result.exception, SystemExit)
    golden(example.with_suffix(".txt"),
           f"$ warband {shlex.join(['validate', rel])}\n{result.stdout}[exit {result.exit_code}]\n")
    assert result.exit_code == 1 and "warning[" not in result.stdout


def _goldens() -> str:
    return "".join(p.with_suffix(".txt").read_text() for p in INVALID
                   if p.with_suffix(".txt").exists())


def test_every_entry_of_the_charter_is_broken_by_an_invalid_example(ruleset):
    shown = _goldens()
    army = ruleset.army
    lines = [q.span.line for q in army.quotas] + [r.span.line for r in army.rules]
    missing = [line for line in lines if f"dsl/fogbound.rules:{line}:" not in shown]
    assert not missing, f"charter lines no invalid example breaks: {missing}"
    text = RULES.read_text().splitlines()
    for code, entry in (("E701", "  points "), ("E702", "  size ")):   # the standard game, size
        line = next(i for i, t in enumerate(text, 1) if t.startswith(entry))
        assert f"error[{code}]" in shown and f"dsl/fogbound.rules:{line}:" in shown
    assert "2 fighters of class Guildmaster" in shown   # unique
    assert "class Duelist is bought singly" in shown and "class Bruiser comes in groups" in shown


def test_the_charter_uses_every_army_concept(ruleset):
    army = ruleset.army
    text = RULES.read_text()
    assert army.cost is not None and army.points == 250 and army.size is not None
    assert {q.kind for q in army.quotas if not q.each} == {"tier", "class", "trait", "equipment"}
    assert any(q.each for q in army.quotas) and any(q.per for q in army.quotas)
    assert any(q.share for q in army.quotas)
    assert {r.kind for r in army.rules} >= {"require", "every", "count"}
    assert any(r.bound is not None and r.bound.per is not None for r in army.rules
               if r.kind == "count")
    groups = {c.group for c in ruleset.classes.values()}
    assert (1, 1) in groups and any(low < high for low, high in groups)
    assert any(c.unique for c in ruleset.classes.values())
    for name in ("entries", "points", "total_cost", "total_fighters"):
        assert re.search(rf"\b{name}\b", text[text.index("army "):]), name
    # equipment options of every kind, a price list keyed by class and by equipment, a cost as
    # base plus gear, and a second cost with its limit
    kinds = {(o.kind, o.limit) for c in ruleset.classes.values() for o in c.options}
    assert {k for k, _ in kinds} == {"take", "up_to", "swap"} and ("up_to", 1) in kinds
    assert any(limit > 1 for kind, limit in kinds if kind == "up_to")
    assert "table base(c: class)" in text and "table price(e: equipment)" in text
    assert "for e in f.equipment" in text
    assert [c.name for c in army.costs] == ["favours"] and army.costs[0].limit is not None
    # stats a class fixes and stats the list chooses within the class's bounds
    assert all(c.choice("Skill") or c.fixes("Skill") for c in ruleset.classes.values())
    assert any(c.fixes("Grit") for c in ruleset.classes.values())


def test_what_each_invalid_example_shows_of_the_equipment_and_the_second_cost():
    shown = _goldens()
    assert "error[E632]: class Cutthroat may not take Sword" in shown
    assert "may take one of Pistol, Crossbow" in shown and "may take up to 2 of" in shown
    assert "swaps Cudgel for Sword, so it cannot keep Cudgel" in shown
    assert "the warband costs 4 favours, over the limit of 3 favours" in shown
    assert "skill 3 is outside 4..6, the range class Guildmaster allows" in shown
    assert "error[E631]" in shown


@pytest.mark.parametrize("path", VALID, ids=lambda p: p.stem)
def test_the_roster_of_each_example_warband(path: Path, at_root):
    result = run("roster", str(path.relative_to(ROOT)))
    assert result.exit_code == 0, result.stdout
    assert "Fogbound: rival guilds in a city of fog (fogbound)" in result.stdout
    assert re.search(r"points 2\d\d / 250 +favours \d / 3 +fighters \d+ / 12 +valid",
                     result.stdout), \
        result.stdout


def test_the_tallow_guild_costs_what_its_header_says(at_root):
    result = run("roster", "warbands/fogbound-tallow-guild.yaml")
    assert "points 235 / 250" in result.stdout
    assert "235 crowns" in VALID[0].read_text()
    assert "240 crowns" in VALID[1].read_text() and \
        "points 240 / 250" in run("roster", "warbands/fogbound-eel-street.yaml").stdout


# ---- the scenario ---------------------------------------------------------------------------------

def _play(scenario, seed: int, policy: str = "random") -> list[dict]:
    game = Game(scenario, seed, Policies(policy), record=True)
    game.play()
    return game.log.events


@pytest.fixture(scope="module")
def records(market) -> dict[int, list[dict]]:
    """The events of a seeded game of random players, for each seed."""
    return {seed: _play(market, seed) for seed in SEEDS}


def test_seeded_games_play_to_an_end(records):
    reasons = set()
    for events in records.values():
        end = events[-1]
        assert end["type"] == "end" and end["reason"] in ("limit", "conceded", "eliminated")
        assert set(end["scores"]) == {"tallow", "eels"}
        reasons.add(end["reason"])
        assert sum(e["type"] == "round" for e in events) <= 6
    assert "limit" in reasons


def test_generated_code_and_the_interpreter_play_the_same_games(market):
    for seed in (1, 2, 3):
        fast = Game(market, seed, Policies("random"), record=True)
        slow = Game(market, seed, Policies("random"), record=True)
        slow.interp.compiled = False
        fast.play()
        slow.play()
        assert fast.log.events == slow.log.events, seed


def test_play_and_simulate_from_the_command_line(at_root):
    played = run("play", "fogbound-drowned-market", "--seed", "3")
    assert played.exit_code == 0, played.stdout
    assert re.search(r"Game over after round \d", played.stdout)
    simulated = run("simulate", "fogbound-drowned-market", "--games", "40", "--seed", "1",
                    "--workers", "1")
    assert simulated.exit_code == 0, simulated.stdout
    assert "40 games" in simulated.stdout and "win rate" in simulated.stdout
    checked = run("rules", "check", "fogbound-drowned-market", "--playouts", "20", "--strict")
    assert checked.exit_code == 0 and "0 errors, 0 warnings" in checked.stdout, checked.stdout


def test_a_side_from_another_file(tmp_path, at_root):
    other = tmp_path / "rivals.yaml"
    other.write_text(VALID[1].read_text().replace("Mother Brine", "Old Nan Tarry"))
    result = run("play", "fogbound-drowned-market", "--seed", "5", "--side", f"eels={other}")
    assert result.exit_code == 0, result.stdout
    assert "Old Nan Tarry" in result.stdout and "Mother Brine" not in result.stdout


def _warband(folder: Path, *args: str) -> subprocess.CompletedProcess:
    """A command in a process of its own, as a player runs one game after another (a process
    keeps the scenarios it loaded, and would replay the warbands as its first game read them)."""
    env = {**os.environ, "PYTHONPATH": str(ROOT / "toolkit")}
    result = subprocess.run([sys.executable, "-m", "warband", *args], capture_output=True,
                            text=True, cwd=folder, env=env, timeout=120, check=False)
    assert "Traceback" not in result.stderr, result.stderr
    return result


def test_a_campaign_writes_the_aftermath_back(tmp_path):
    (tmp_path / "scenarios").mkdir()
    (tmp_path / "warbands").mkdir()
    shutil.copy(SCENARIO, tmp_path / "scenarios")
    for path in VALID:
        shutil.copy(path, tmp_path / "warbands")
    scenario = "scenarios/fogbound-drowned-market.rules"
    first = _warband(tmp_path, "play", scenario, "--seed", "2", "--update")
    assert first.returncode == 0, first.stderr
    assert "+    renown: 1" in first.stdout
    tallow = (tmp_path / "warbands" / "fogbound-tallow-guild.yaml").read_text()
    assert "renown: 1" in tallow and "# yaml-language-server" in tallow
    second = _warband(tmp_path, "play", scenario, "--seed", "7", "--update")
    assert second.returncode == 0, second.stderr
    assert "Master Ambrose Wick: Renown 1 -> 2" in second.stdout
    # a long campaign goes on: nothing the aftermath grows is capped by the charter (a limit
    # on renown stopped the shipped campaign after its third game; the review found it)
    for seed in ("11", "12", "13"):
        later = _warband(tmp_path, "play", scenario, "--seed", seed, "--update")
        assert later.returncode == 0, later.stderr
    kept = sorted(p.name for p in (tmp_path / "warbands" / "fogbound-tallow-guild.games").iterdir())
    assert kept[0].startswith("001-") and kept[-1].startswith("005-")
    # henchmen earn nothing, so their groups are never split; the guilds stay valid
    for name in ("fogbound-tallow-guild.yaml", "fogbound-eel-street.yaml"):
        assert validate([str(tmp_path / "warbands" / name)]).diagnostics == []
        assert "Linkboy 1" not in (tmp_path / "warbands" / name).read_text()


# ---- the game plays by its text ---------------------------------------------------------------------

def _skills(scenario, ruleset) -> dict[str, int]:
    skills = {}
    for force in scenario.forces:
        for spec in force:
            fixed = dict(ruleset.classes[spec.fighter_class].stats)
            skills[spec.name] = spec.stats.get("Skill", fixed.get("Skill"))
    return skills


def _turns(events: list[dict]) -> list[tuple[str, list[str]]]:
    """(side, the fighters activated) for each guild's turn, in order."""
    turns: list[tuple[str, list[str]]] = []
    key = None
    for e in events:
        if e["type"] in ("activate", "idle"):
            if (e["round"], e["side"]) != key:
                key = (e["round"], e["side"])
                turns.append((e["side"], []))
            turns[-1][1].append(e["fighter"])
    return turns


def test_fighters_act_in_order_of_skill_the_best_first(market, ruleset, records):
    skill = _skills(market, ruleset)
    checked = 0
    for seed, events in records.items():
        for side, names in _turns(events):
            order = [skill[n] for n in names]
            assert order == sorted(order, reverse=True), (seed, side, names)
            checked += len(names) > 1
    assert checked > 100


def test_a_guild_gives_up_only_after_losing_half_its_fighters(market, records):
    size = {name: len(force) for name, force in zip(market.side_names, market.forces)}
    conceded = 0
    for seed, events in records.items():
        lost = dict.fromkeys(size, 0)
        for e in events:
            if e["type"] == "removed":
                lost[e["side"]] += 1
            elif e["type"] == "concede":
                conceded += 1
                assert lost[e["side"]] * 2 >= size[e["side"]], (seed, e, lost)
    assert conceded >= 3
