"""The command line as a user runs it: outputs pinned by golden files, exit codes 0/1/2."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from warband.cli import app

ROOT = Path(__file__).resolve().parents[1]
GOLDEN = ROOT / "tests" / "cli_golden"
MUSKETEER = ["--attacker", "class=Soldier might=10", "--target", "class=Gunslinger might=25"]


def run(*args: str):
    return CliRunner().invoke(app, list(args))


def test_odds_json_matches_the_issue_example():
    result = run("odds", "super-simple-skirmish", *MUSKETEER, "--action", "shoot",
                 "--format", "json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["outcomes"] == {"kill": "1/54", "stun": "2/27", "none": "49/54"}


def test_odds_table(golden):
    result = run("odds", "super-simple-skirmish", *MUSKETEER, "--action", "shoot")
    assert result.exit_code == 0
    golden(GOLDEN / "odds_shoot.txt", result.stdout)


def test_odds_with_cover_and_policies(golden):
    result = run("odds", "super-simple-skirmish", "--attacker", "class=Soldier might=10 fate=1",
                 "--target", "class=Gunslinger might=25", "--action", "shoot", "--cover",
                 "--policy", "greedy", "--policy", "fate_reroll=keep", "--format", "json")
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["outcomes"]["kill"] == "5/216"


def test_odds_of_a_number_reports_the_expectation():
    result = run("odds", "super-simple-skirmish", "--attacker", "class=Beast might=5",
                 "--action", "move", "--format", "json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["expected"] == "21/2"
    assert data["outcomes"]["18"] == "1/216"


def test_odds_bad_command_line_is_located_with_hints(golden):
    result = run("odds", "super-simple-skirmish", "--attacker", "class=Soldir mite=10",
                 "--target", "class=Gunslinger might=250", "--action", "shoot",
                 "--policy", "greedyy")
    assert result.exit_code == 2
    golden(GOLDEN / "odds_bad_fighters.txt", result.stderr)


def test_odds_unknown_action_and_parameter():
    result = run("odds", "super-simple-skirmish", *MUSKETEER, "--action", "shot")
    assert result.exit_code == 2
    assert "did you mean 'shoot'?" in result.stderr
    result = run("odds", "super-simple-skirmish", *MUSKETEER, "--action", "move", "--cover")
    assert result.exit_code == 2
    assert "has no parameter 'cover'" in result.stderr


def test_unknown_ruleset_is_unusable_input():
    result = run("odds", "super-simple-skirmsh", *MUSKETEER, "--action", "shoot")
    assert result.exit_code == 2
    assert "did you mean 'super-simple-skirmish'?" in result.stderr


def test_rules_list():
    result = run("rules", "list", "--format", "json")
    assert result.exit_code == 0
    ids = {entry["id"] for entry in json.loads(result.stdout)}
    assert "super-simple-skirmish" in ids


def test_rules_check_builtin_is_clean_even_when_strict():
    result = run("rules", "check", "super-simple-skirmish", "--strict")
    assert result.exit_code == 0, result.output
    assert "0 errors, 0 warnings" in result.stdout


def test_rules_check_exit_codes(tmp_path):
    warning_only = tmp_path / "w.rules"
    warning_only.write_text('ruleset "w"\ndefine unused() = 1\n')
    broken = tmp_path / "b.rules"
    broken.write_text('ruleset "b"\nclass A { tier nope }\n')
    assert run("rules", "check", str(warning_only)).exit_code == 0
    assert run("rules", "check", str(warning_only), "--strict").exit_code == 1
    assert run("rules", "check", str(broken)).exit_code == 1
    assert run("rules", "check", str(tmp_path / "missing.rules")).exit_code == 2
    result = run("rules", "check", str(broken), "--format", "json")
    assert json.loads(result.stdout)[0]["code"] == "E201"


def test_rules_show(golden):
    result = run("rules", "show", "super-simple-skirmish")
    assert result.exit_code == 0, result.output
    text = "\n".join(line.rstrip() for line in result.stdout.splitlines()) + "\n"
    # where the file lives depends on how the package was installed
    text = re.sub(r"(?m)^file: .*$", "file: <the rules file>", text)
    golden(GOLDEN / "rules_show_sss.txt", text)


def test_rules_show_json():
    result = run("rules", "show", "super-simple-skirmish", "--format", "json")
    data = json.loads(result.stdout)
    assert {c["name"] for c in data["classes"]} >= {"Soldier", "Mech"}
    assert data["army"]["points"] == 100


def _warband_command() -> list[str]:
    return [sys.executable, "-m", "warband"]


def test_builtin_rulesets_are_found_from_outside_the_repository(tmp_path):
    env = {**os.environ, "WARBAND_NO_CACHE": "1"}
    result = subprocess.run(_warband_command() + ["rules", "check", "super-simple-skirmish"],
                            cwd=tmp_path, env=env, capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr


def test_version_starts_without_heavy_modules(tmp_path):
    code = ("import sys; from warband.cli import main; sys.argv=['warband','--version']\n"
            "try:\n    main()\nexcept SystemExit:\n    pass\n"
            "heavy = [m for m in ('lark', 'ruamel', 'jsonschema', 'warband.run.interpreter') "
            "if m in sys.modules]\nprint('HEAVY', heavy)")
    result = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True,
                            text=True, timeout=60)
    assert "HEAVY []" in result.stdout, result.stdout + result.stderr


def test_odds_refuses_an_action_the_rules_do_not_allow():
    result = run("odds", "super-simple-skirmish", "--attacker", "class=Warrior might=10",
                 "--target", "class=Soldier might=10", "--action", "shoot")
    assert result.exit_code == 2
    assert "error[E903]" in result.stderr
    assert "attacker has Ranged" in result.stderr
