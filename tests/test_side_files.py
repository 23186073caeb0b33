"""`--side NAME=FILE`: a player's own warband for one side of a scenario, in `warband play` and
`warband simulate`. The file is checked as `warband validate` checks it; every problem is a
diagnostic at the option (exit 2); the game record names the files, so `--replay` plays the
same game; `rules show SCENARIO` lists the sides a --side may name."""

from __future__ import annotations

import json
import pickle
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from warband.cli import app

ROOT = Path(__file__).resolve().parents[1]
SCENARIO = "sss-standard-game"   # sides: empire (clockwork-empire.yaml), family (the-family.yaml)
MINE = "warbands/clockwork-empire.yaml"


def warband(*args: str):
    return CliRunner().invoke(app, list(args))


@pytest.fixture(autouse=True)
def at_root(monkeypatch):
    monkeypatch.chdir(ROOT)


def refused(result, *expected: str) -> str:
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output and result.stdout == ""
    for text in expected:
        assert text in result.stderr, result.stderr
    return result.stderr


# ---- play -------------------------------------------------------------------------------------------

def test_play_a_side_with_your_own_warband():
    own = warband("play", SCENARIO, "--side", f"family={MINE}", "--format", "json")
    assert own.exit_code == 0, own.output
    record = json.loads(own.stdout)
    assert record["sides"] == {"family": MINE}
    text = warband("play", SCENARIO, "--side", f"family={MINE}")
    assert text.exit_code == 0 and f"warbands: family={MINE}\n" in text.stdout
    plain = json.loads(warband("play", SCENARIO, "--format", "json").stdout)
    assert "sides" not in plain               # a record without --side is as it always was
    assert plain["events"] != record["events"]


def test_the_record_names_the_files_and_replay_plays_the_same_game(tmp_path):
    lists = tmp_path / "lists"
    lists.mkdir()
    shutil.copy(ROOT / "warbands" / "the-family.yaml", lists / "mine.yaml")   # empire's own
    log = tmp_path / "game.json"
    made = warband("play", SCENARIO, "--seed", "4", "--side", f"empire={lists / 'mine.yaml'}",
                   "-o", str(log))
    assert made.exit_code == 0, made.output
    data = json.loads(log.read_text())
    named = data["sides"]["empire"]
    assert not Path(named).is_absolute() and (ROOT / named).resolve() == lists / "mine.yaml"
    again = warband("play", "--replay", str(log))
    assert again.exit_code == 0, again.output
    assert again.stdout == made.stdout
    # without the record's sides the game is another one: the replay would not fit it
    del data["sides"]
    log.write_text(json.dumps(data))
    assert warband("play", "--replay", str(log)).exit_code == 1


def test_a_record_whose_side_file_is_another_list_does_not_replay(tmp_path):
    made = warband("play", SCENARIO, "--seed", "2", "--side", "family=warbands/the-family.yaml",
                   "--format", "json")
    data = json.loads(made.stdout)
    data["sides"]["family"] = MINE   # as if the file had changed since the game was recorded
    log = tmp_path / "game.json"
    log.write_text(json.dumps(data, indent=1))
    result = warband("play", "--replay", str(log))
    assert result.exit_code == 1 and "error[E917]" in result.stderr, result.output


def test_side_cannot_be_given_with_replay(tmp_path):
    log = tmp_path / "game.json"
    assert warband("play", SCENARIO, "-o", str(log)).exit_code == 0
    refused(warband("play", "--replay", str(log), "--side", f"family={MINE}"),
            "error[E901]: --side cannot be used with --replay")


@pytest.mark.parametrize("sides, expected", [
    ({"family": "/etc/passwd.yaml"}, "is not a file a record may name"),
    ({"family": "warbands/../README.md"}, "is not a file a record may name"),
    ({"famly": MINE}, "the record gives a warband file to a side its scenario does not have"),
    ({"family": 3}, "the warband file of 'family' must be a file's path"),
    ([MINE], "'sides' of the record must be a mapping"),
])
def test_a_records_sides_are_checked_as_data(tmp_path, sides, expected):
    made = warband("play", SCENARIO, "--side", f"family={MINE}", "--format", "json")
    data = json.loads(made.stdout)
    data["sides"] = sides
    log = tmp_path / "game.json"
    log.write_text(json.dumps(data, indent=1))
    text = refused(warband("play", "--replay", str(log)), "error[E916]", expected)
    assert str(log) in text.splitlines()[0]   # placed in the record


# ---- the errors -------------------------------------------------------------------------------------

def test_a_side_the_scenario_does_not_have():
    text = refused(warband("play", SCENARIO, "--side", f"famly={MINE}"),
                   "--side:1:1: error[E901]: the scenario has no side 'famly'",
                   "did you mean 'family'?")
    assert "^" * len(f"famly={MINE}") in text


def test_an_invalid_warband_file():
    bad = "tests/warband_errors/common_share.yaml"
    refused(warband("play", SCENARIO, "--side", f"family={bad}"),
            f"{bad}:12:12: error[E703]",                      # the file's own finding, and
            "   |\n 12 |     class: Soldier",                     # with its excerpt
            f"--side:1:1: error[E901]: side 'family': {bad} is not a valid warband file",
            f"hint: run: warband validate {bad}")


def test_a_warband_of_another_ruleset():
    refused(warband("play", SCENARIO, "--side", "family=warbands/greedy-dudes.yaml"),
            "error[E901]: side 'family': warbands/greedy-dudes.yaml is a warband for "
            "'swords-against-sorcery', and this scenario plays 'sss-standard-game'",
            "give a warband of 'super-simple-skirmish'")


def test_a_missing_file_and_bad_values_all_at_once():
    text = refused(warband("play", SCENARIO, "--side", "family", "--side", "empire=-",
                           "--policy", "x"),
                   "--side:1:1: error[E901]: 'family' is not SIDE=FILE",
                   "--side:1:8: error[E901]: side 'empire': a warband is read from a file",
                   "error[E911]")
    assert text.count("error[") == 3
    refused(warband("play", SCENARIO, "--side", "family=no-such.yaml"),
            "error[E100]: no such file: no-such.yaml")


def test_two_files_for_one_side():
    refused(warband("play", SCENARIO, "--side", f"family={MINE}", "--side",
                    "family=warbands/the-family.yaml"),
            "--side:1:", "error[E901]: side 'family' is given two warband files")


# ---- simulate ---------------------------------------------------------------------------------------

def test_simulate_with_your_own_warbands():
    swapped = warband("simulate", SCENARIO, "-n", "6", "--format", "json",
                      "--side", "empire=warbands/the-family.yaml", "--side", f"family={MINE}")
    assert swapped.exit_code == 0, swapped.output
    kills = json.loads(swapped.stdout)
    plain = json.loads(warband("simulate", SCENARIO, "-n", "6", "--format", "json").stdout)
    assert kills != plain
    # the report names the lists that played (a report without them reads as the scenario's)
    assert kills["side_files"] == {"empire": "warbands/the-family.yaml", "family": MINE}
    assert plain["side_files"] == {}
    text = warband("simulate", SCENARIO, "-n", "2", "--side", f"family={MINE}").stdout
    assert f"sides from files: family={MINE}" in text
    one = warband("simulate", SCENARIO, "--replay", "3", "--side", f"family={MINE}")
    assert one.exit_code == 0, one.output


def test_simulate_refuses_what_play_refuses():
    refused(warband("simulate", SCENARIO, "-n", "2", "--side", f"famly={MINE}"),
            "--side:1:1: error[E901]: the scenario has no side 'famly'", "did you mean")
    refused(warband("simulate", SCENARIO, "-n", "2", "--side",
                    "family=warbands/greedy-dudes.yaml"), "is a warband for")
    refused(warband("simulate", SCENARIO, "--replay", "1", "--side",
                    "family=warbands/greedy-dudes.yaml"), "is a warband for")


def test_a_request_with_side_files_travels_to_workers():
    from warband.game.results import PlayRequest
    from warband.game.scenario import SideFile
    request = PlayRequest(SCENARIO, sides=(SideFile("family", str(ROOT / MINE), MINE),))
    assert pickle.loads(pickle.dumps(request)) == request
    from warband.game.worker import loaded
    scenario = loaded(request)
    assert {f.name for f in scenario.forces[1]} == {f.name for f in scenario.forces[0]}


# ---- rules show -------------------------------------------------------------------------------------

def test_rules_show_lists_the_sides():
    shown = warband("rules", "show", "smart-dungeon")
    assert shown.exit_code == 0, shown.output
    assert "Sides" in shown.stdout and "--side NAME=FILE" in shown.stdout
    assert "party" in shown.stdout and "The Dungeon Delvers" in shown.stdout
    assert "11 written in the scenario" in shown.stdout
    data = json.loads(warband("rules", "show", "smart-dungeon", "--format", "json").stdout)
    assert data["sides"] == [
        {"name": "party", "title": "The Dungeon Delvers",
         "file": "../warbands/dungeon-delvers.yaml", "fighters": 0},
        {"name": "monsters", "title": "The Judge's monsters", "file": None, "fighters": 11}]
    plain = json.loads(warband("rules", "show", "smart", "--format", "json").stdout)
    assert "sides" not in plain and "Sides" not in warband("rules", "show", "smart").stdout
