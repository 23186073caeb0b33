"""Ratcatchers, the toolkit's example of the language's general core (dsl/ratcatchers.rules):
a sewer deck dealt once a round, a gamble for activations in which two failed dice pass the
turn, and a campaign of crews that change between games.

- the two example crews are valid, their rosters print, and the scenario plays seeded games to
  an end, alike in generated code and in the interpreter, from the command line too;
- the game plays by its own text, checked over the records of seeded games: a fighter gambles
  once a round; each die that meets its Nerve is one action, no more and no fewer; two failed
  dice end the crew's turn; the sewer deck deals without replacement; no sling is shot in gas;
  no move in a flood goes further than the flood allows;
- the events run when their text says: a crew whose Ratking goes down acts no more that round;
- a campaign of three games (`warband play --update`) brings a purchase, a hire, an advance and
  a death into the crews' files, which stay valid past their founding.
"""

from __future__ import annotations

import math
import os
import re
import shutil
import subprocess
import sys
from collections import Counter
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
RULES = ROOT / "dsl" / "ratcatchers.rules"
SCENARIO = ROOT / "scenarios" / "ratcatchers-the-old-drain.rules"
CREWS = [ROOT / "warbands" / "ratcatchers-rats-tail-crew.yaml",
         ROOT / "warbands" / "ratcatchers-gutter-lords.yaml"]
SEEDS = range(1, 41)
DECK = {"Flood": 2, "Gas": 2, "Swarm": 2, "Quiet": 4}   # the sewer deck, as the rules list it


def run(*args: str):
    return CliRunner().invoke(app, list(args))


@pytest.fixture(scope="module")
def ruleset():
    compiled = load(str(RULES))
    assert compiled.errors == [] and compiled.ruleset is not None, compiled.diagnostics
    return compiled.ruleset


@pytest.fixture(scope="module")
def drain():
    scenario = load_scenario(str(SCENARIO))
    assert not isinstance(scenario, list), scenario
    return scenario


def _play(scenario, seed: int, policy: str = "random") -> list[dict]:
    game = Game(scenario, seed, Policies(policy), record=True)
    game.play()
    return game.log.events


@pytest.fixture(scope="module")
def records(drain) -> dict[int, list[dict]]:
    """The events of a seeded game of random players, for each seed."""
    return {seed: _play(drain, seed) for seed in SEEDS}


# ---- the crews ------------------------------------------------------------------------------------

@pytest.mark.parametrize("path", CREWS, ids=lambda p: p.stem)
def test_the_example_crews_are_valid_and_print(path: Path, at_root):
    assert validate([str(path)]).diagnostics == []
    roster = run("roster", str(path.relative_to(ROOT)))
    assert roster.exit_code == 0 and "points" in roster.stdout


def test_the_deck_in_the_rules_is_the_deck_the_tests_check(ruleset):
    deck = ruleset.decks["sewer"]
    assert {c.name.name: c.count for c in deck.cards} == DECK


# ---- the scenario plays ---------------------------------------------------------------------------

def test_seeded_games_play_to_an_end(records):
    for events in records.values():
        end = events[-1]
        assert end["type"] == "end" and end["reason"] in ("limit", "eliminated", "conceded")
        assert set(end["scores"]) == {"tails", "gutter"}
        assert sum(e["type"] == "round" for e in events) <= 5


def test_generated_code_and_the_interpreter_play_the_same_games(drain):
    for seed in (1, 2, 3):
        fast = Game(drain, seed, Policies("random"), record=True)
        slow = Game(drain, seed, Policies("random"), record=True)
        slow.interp.compiled = False
        fast.play()
        slow.play()
        assert fast.log.events == slow.log.events, seed


def test_play_simulate_and_check_from_the_command_line(at_root):
    played = run("play", "ratcatchers-the-old-drain", "--seed", "3")
    assert played.exit_code == 0, played.stdout
    assert re.search(r"Game over after round \d", played.stdout)
    assert re.search(r"      sewer: \w+ drawn", played.stdout)   # a deck per game is nobody's
    simulated = run("simulate", "ratcatchers-the-old-drain", "--games", "40", "--seed", "1")
    assert simulated.exit_code == 0 and "40 games" in simulated.stdout, simulated.stdout
    checked = run("rules", "check", "ratcatchers-the-old-drain", "--playouts", "20", "--strict")
    assert checked.exit_code == 0 and "0 errors, 0 warnings" in checked.stdout, checked.stdout


def test_greedy_crews_play_a_game(drain):
    events = _play(drain, 2, "greedy")
    assert events[-1]["type"] == "end"
    risks = [e["choice"] for e in events if e["type"] == "decision" and e["decision"] == "risk"]
    assert risks and set(risks) <= {1, 2, 3}


# ---- the game plays by its text ---------------------------------------------------------------------

def _gambles(events: list[dict]):
    """Each gamble: (round, side, actor, dice, successes, the fighters activated after it
    before the next gamble or the next crew's turn)."""
    gambles: list[list] = []
    current: list | None = None
    side = round_ = None
    for e in events:
        kind = e["type"]
        if kind == "round":
            round_ = e["round"]
        elif kind == "phase" and e["phase"] == "crew_turn":
            side, current = e["side"], None
        elif kind == "decision" and e["decision"] == "actor":
            current = [round_, side, e["choice"], None, None, []]
            gambles.append(current)
        elif kind == "decision" and e["decision"] == "risk" and current is not None:
            current[3] = e["choice"]
        elif kind == "roll" and e["for"].startswith("passed") and current is not None:
            current[4] = e["value"]
        elif kind == "activate" and current is not None:
            current[5].append(e["fighter"])
        elif kind == "phase":
            current = None
    return gambles


def test_each_die_at_nerve_is_one_action_and_two_failures_end_the_turn(records):
    ended = checked = 0
    for seed, events in records.items():
        over: set[tuple[int, str]] = set()
        tried: Counter = Counter()
        for round_, side, actor, dice, passed, acted in _gambles(events):
            assert (round_, side) not in over, f"seed {seed}: {side} gambled after its turn ended"
            tried[(round_, actor)] += 1
            assert tried[(round_, actor)] == 1, f"seed {seed}: {actor} gambled twice in a round"
            assert dice in (1, 2, 3) and 0 <= passed <= dice, (seed, dice, passed)
            # (a fighter that falls during its own actions acts no more)
            assert set(acted) <= {actor} and len(acted) <= passed, (seed, actor, acted, passed)
            if dice - passed >= 2:
                over.add((round_, side))
                ended += 1
            checked += 1
    assert checked > 500 and ended > 50


def test_the_sewer_deck_deals_without_replacement(records):
    for seed, events in records.items():
        dealt = Counter(e["card"] for e in events if e["type"] == "card" and e["what"] == "drawn")
        assert all(dealt[card] <= DECK[card] for card in dealt), (seed, dealt)
        assert sum(dealt.values()) == sum(e["type"] == "round" for e in events)


def _cards(events: list[dict]) -> dict[int, str]:
    return {e["round"]: e["card"] for e in events if e["type"] == "card" and e["what"] == "drawn"}


def test_no_sling_in_gas_and_no_long_move_in_a_flood(records, drain, ruleset):
    swift = {spec.name for force in drain.forces for spec in force
             if "Swift" in dict(ruleset.classes[spec.fighter_class].traits)}
    assert swift   # (the terriers)
    gassed = flooded = 0
    for seed, events in records.items():
        cards = _cards(events)
        for e in events:
            card = cards.get(e.get("round", 0))
            if e["type"] == "activate" and card == "Gas":
                assert e["action"] != "shoot", f"seed {seed}: a sling in gas"
                gassed += 1
            if e["type"] == "travel" and card == "Flood":
                allowance = (6 if e["fighter"] in swift else 4) - 2
                # (the log rounds positions to hundredths of an inch)
                assert math.dist(e["at"], e["to"]) <= allowance + 0.01, (seed, e)
                flooded += 1
    assert gassed > 20 and flooded > 20


# ---- the campaign: three games of the Old Drain --------------------------------------------------

def _warband(folder: Path, *args: str) -> subprocess.CompletedProcess:
    """A command in a process of its own, as a player runs one game after another."""
    env = {**os.environ, "PYTHONPATH": str(ROOT / "toolkit")}
    result = subprocess.run([sys.executable, "-m", "warband", *args], capture_output=True,
                            text=True, cwd=folder, env=env, timeout=120, check=False)
    assert "Traceback" not in result.stderr, result.stderr
    return result


def _entry(path: Path, name: str) -> dict:
    from ruamel.yaml import YAML
    fighters = YAML(typ="safe").load(path.read_text())["fighters"]
    return next(f for f in fighters if f["name"] == name)


def test_a_campaign_of_three_games_changes_the_crews(tmp_path):
    """docs/language.md, section 17 ("A campaign of three games"): seeds 4, 5 and 6 bring a
    purchase, a hire and an advance, then a death, then a second hire; the files stay valid
    past their founding (the Rat's Tail Crew costs more than the licence's 175 pennies)."""
    (tmp_path / "scenarios").mkdir()
    (tmp_path / "warbands").mkdir()
    shutil.copy(SCENARIO, tmp_path / "scenarios")
    for path in CREWS:
        shutil.copy(path, tmp_path / "warbands")
    scenario = "scenarios/ratcatchers-the-old-drain.rules"
    crew = tmp_path / "warbands" / "ratcatchers-rats-tail-crew.yaml"

    first = _warband(tmp_path, "play", scenario, "--seed", "4", "--update")
    assert first.returncode == 0, first.stderr
    assert "Wick is given Sling" in first.stdout             # a purchase
    assert "tails hires Apprentice (Apprentice)" in first.stdout   # a hire
    assert "Terrier 1: Knacks 0 -> 1 (+1)" in first.stdout   # an advance
    text = crew.read_text()
    assert "games: 1\npennies: 24\n" in text
    assert "Sling" in _entry(crew, "Wick")["equipment"]
    assert "    equipment: [Pole, Sling]\n" in text   # (in the style it was written in)
    assert _entry(crew, "Apprentice 3")["class"] == "Apprentice"
    assert _entry(crew, "Terrier 1")["knacks"] == 1
    assert text.startswith("# yaml-language-server")         # comments kept

    second = _warband(tmp_path, "play", scenario, "--seed", "5", "--update")
    assert second.returncode == 0, second.stderr
    assert "Apprentice 2 is no longer on its warband's list" in second.stdout   # a death
    assert "Apprentice 2" not in crew.read_text()

    third = _warband(tmp_path, "play", scenario, "--seed", "6", "--update")
    assert third.returncode == 0, third.stderr
    assert "tails hires Apprentice (Apprentice)" in third.stdout
    text = crew.read_text()
    assert "games: 3\n" in text and text.count("class: Apprentice") == 3
    # both crews are valid warbands after three games, the grown one past its founding cost
    for path in (crew, tmp_path / "warbands" / "ratcatchers-gutter-lords.yaml"):
        assert validate([str(path)]).diagnostics == [], path
    roster = run("roster", str(crew))
    assert roster.exit_code == 0 and "points" in roster.stdout


def test_a_crew_whose_ratking_falls_acts_no_more_that_round(records, drain):
    ratkings = {spec.name: side for side, force in zip(drain.side_names, drain.forces)
                for spec in force if spec.fighter_class == "Ratking"}
    fallen = 0
    for seed, events in records.items():
        stopped: set[tuple[int, str]] = set()
        for e in events:
            if e["type"] == "removed" and e["fighter"] in ratkings:
                stopped.add((e["round"], ratkings[e["fighter"]]))
                fallen += 1
            elif e["type"] == "activate":
                assert (e["round"], e["side"]) not in stopped, \
                    f"seed {seed}: {e['fighter']} acted after its Ratking fell"
    assert fallen >= 1


def test_a_crew_flees_only_when_it_falls_to_half(records):
    fled = 0
    for seed, events in records.items():
        routed = set()
        for e in events:
            if e["type"] == "event" and e["event"] == "rout":
                routed.add(e["why"].split(":")[0])   # ("tails: 3 of 7 left")
            elif e["type"] == "concede":
                assert e["side"] in routed, f"seed {seed}: {e['side']} fled before half"
                fled += 1
    assert fled >= 1
