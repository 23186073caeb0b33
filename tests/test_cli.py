"""The command line as a user runs it: outputs pinned by golden files, exit codes 0/1/2."""

from __future__ import annotations

import json
from fractions import Fraction
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


def test_odds_sampled_give_shares_with_intervals_that_hold_the_exact_odds(golden):
    """--samples N (what E504's hint offers when exact odds are too much): the action played N
    times from --seed, each outcome's share with its 95% interval; the exact fraction inside."""
    result = run("odds", "super-simple-skirmish", *MUSKETEER, "--action", "shoot",
                 "--samples", "4000", "--seed", "7", "--format", "json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["samples"] == 4000
    exact = {"kill": 100 / 54, "stun": 200 / 27, "none": 4900 / 54}
    for outcome, (low, high) in data["interval95"].items():
        assert low <= exact[outcome] <= high, (outcome, low, high)
    again = run("odds", "super-simple-skirmish", *MUSKETEER, "--action", "shoot",
                "--samples", "4000", "--seed", "7", "--format", "json")
    assert again.stdout == result.stdout   # (the same seed plays the same runs)
    text = run("odds", "super-simple-skirmish", *MUSKETEER, "--action", "shoot",
               "--samples", "4000", "--seed", "7")
    golden(GOLDEN / "odds_shoot_sampled.txt", text.stdout)
    refused = run("odds", "super-simple-skirmish", *MUSKETEER, "--action", "shoot",
                  "--samples", "0")
    assert refused.exit_code == 2 and "error[E901]" in refused.stderr


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


# ---- issue 19: ids never cut; built-ins named by their dsl/ path; the smaller things ---------

def _line_of(start: str) -> int:
    """The line of Swords Against Sorcery's rules that starts so (line numbers move as the
    file is edited)."""
    lines = (ROOT / "dsl" / "swords-against-sorcery.rules").read_text().splitlines()
    return next(n for n, line in enumerate(lines, 1) if line.startswith(start))


def _builtin_ids() -> list[str]:
    from warband import catalog
    return [s.id for s in catalog.rulesets()]


# Every command that prints a table (or a summary a person reads), with the ids it must show.
TABLES = {
    "rules list": (["rules", "list"], _builtin_ids() + [
        f"dsl/{i}.rules" for i in ("swords-against-sorcery-points", "super-simple-skirmish",
                                   "smart-range-per-inch")]),
    "rules show": (["rules", "show", "swords-against-sorcery-points"],
                   [f"swords-against-sorcery.rules:{_line_of('stat Training')}",
                    "MissileWeapon", "OneHandedWeapon"]),
    "rules show scenario": (["rules", "show", "sss-standard-game"], ["super-simple-skirmish"]),
    "odds": (["odds", "super-simple-skirmish", *MUSKETEER, "--action", "shoot"],
             ["target.Stunned", "target.removed"]),
    "simulate": (["simulate", "sss-standard-game", "--games", "4"],
                 ["sss-standard-game", "Gunslinger", "Berserker"]),
    "roster": (["roster", "warbands/clockwork-empire.yaml"],
               ["Gunslinger", "super-simple-skirmish", "warbands/clockwork-empire.yaml"]),
    "validate": (["validate", "warbands/clockwork-empire.yaml", "warbands/greedy-dudes.yaml"],
                 []),
    "rules diff": (["rules", "diff", "swords-against-sorcery", "swords-against-sorcery-points"],
                   ["swords-against-sorcery-points"]),
}


def _whole(output: str, ids: list[str]) -> None:
    assert "…" not in output, output
    words = set(re.findall(r"[^\s(),]+", output))
    for name in ids:
        assert name in output and any(name in w for w in words), (name, output)


@pytest.mark.parametrize("name", sorted(TABLES))
def test_no_table_cuts_an_id_at_60_columns(name, monkeypatch):
    monkeypatch.chdir(ROOT)
    monkeypatch.setenv("COLUMNS", "60")
    args, ids = TABLES[name]
    result = run(*args)
    assert result.exit_code in (0, 1), result.output
    _whole(result.stdout, ids)


@pytest.mark.parametrize("name", sorted(TABLES))
def test_no_table_cuts_an_id_through_a_pipe(name):
    """A real pipe, no COLUMNS: rich's 80 columns (the `rules list | grep ID` of the issue)."""
    args, ids = TABLES[name]
    env = {k: v for k, v in os.environ.items() if k != "COLUMNS"}
    env["PYTHONPATH"] = str(ROOT / "toolkit")
    done = subprocess.run(_warband_command() + args, cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=120)
    assert done.returncode in (0, 1), done.stderr
    _whole(done.stdout, ids)


def test_rules_list_piped_to_grep_finds_every_id():
    env = {k: v for k, v in os.environ.items() if k != "COLUMNS"}
    env["PYTHONPATH"] = str(ROOT / "toolkit")
    listed = subprocess.run(_warband_command() + ["rules", "list"], cwd=ROOT, env=env,
                            capture_output=True, text=True, timeout=60).stdout
    firsts = [line.split()[0] for line in listed.splitlines()[1:] if line[:1].strip()]
    assert firsts == _builtin_ids()
    assert "super-simple-skirmish " in listed


def test_keep_whole_marks_one_word_columns_and_wraps_text():
    from rich.table import Table

    from warband import terminal
    table = Table("id", "description")
    table.add_row("swords-against-sorcery-points", "a long description that may wrap freely")
    terminal.keep_whole(table)
    ids, text = table.columns
    assert ids.no_wrap and ids.min_width == len("swords-against-sorcery-points")
    assert not text.no_wrap and text.min_width == len("description")
    out = terminal.console(__import__("io").StringIO(), colour=False, width=20)
    out.print(table)
    assert "swords-against-sorcery-points" in out.file.getvalue()


def test_builtins_are_named_by_their_dsl_path_from_any_folder(tmp_path):
    house = tmp_path / "house.rules"
    house.write_text('ruleset "house"\n  extends "smart"\n\n'
                     'class Infantry "again" { tier human }\n', encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": str(ROOT / "toolkit"), "WARBAND_NO_CACHE": "1"}
    out = ""
    for args in (["rules", "list"], ["rules", "show", "sss-sentinel"],
                 ["rules", "check", str(house)]):
        done = subprocess.run(_warband_command() + args, cwd=tmp_path, env=env,
                              capture_output=True, text=True, timeout=60)
        out += done.stdout + done.stderr
    assert "dsl/smart.rules" in out and "file: dsl/sss-sentinel.rules" in out
    assert str(ROOT) not in out, out   # never where the package happens to be


def test_display_path_of_an_installed_builtin(tmp_path, monkeypatch):
    from warband import catalog
    package = tmp_path / ".venv" / "lib" / "python3.11" / "site-packages" / "warband"
    installed = package / "dsl"
    (installed / "conversions").mkdir(parents=True)
    (installed / "smart.rules").write_text("x")
    (installed / "conversions" / "a.rules").write_text("x")
    monkeypatch.setattr(catalog, "RULES_DIR", installed)
    monkeypatch.setattr(catalog, "_HERE", package)
    # the project's folder, with the virtual environment inside it: the issue's case
    monkeypatch.chdir(tmp_path)
    assert catalog.display_path(installed / "smart.rules") == "dsl/smart.rules"
    assert catalog.display_path(installed / "conversions" / "a.rules") == \
        "dsl/conversions/a.rules"
    # a folder with a dsl/smart.rules of its own: the built-in is not shown as that file
    monkeypatch.chdir(ROOT)
    assert catalog.display_path(installed / "smart.rules") == str(installed / "smart.rules")
    assert catalog.display_path(ROOT / "dsl" / "smart.rules") == "dsl/smart.rules"


def test_display_path_of_a_builtin_installed_into_the_checkouts_own_venv(tmp_path, monkeypatch):
    """Issue 32, C17: `pip install .` into the checkout's .venv, run from the checkout: the
    shipped file is shown as dsl/... (the checkout's dsl/ holds the same text), in every
    command that names it, not as .venv/lib/python3.11/site-packages/warband/dsl/..."""
    from warband import catalog
    package = tmp_path / ".venv" / "lib" / "python3.11" / "site-packages" / "warband"
    installed = package / "dsl"
    installed.mkdir(parents=True)
    (tmp_path / "dsl").mkdir()
    text = (ROOT / "dsl" / "smart.rules").read_text(encoding="utf-8")
    for folder in (installed, tmp_path / "dsl"):
        (folder / "smart.rules").write_text(text, encoding="utf-8")
    monkeypatch.setattr(catalog, "RULES_DIR", installed)
    monkeypatch.setattr(catalog, "_HERE", package)
    monkeypatch.chdir(tmp_path)
    assert catalog.display_path(installed / "smart.rules") == "dsl/smart.rules"
    listed = CliRunner().invoke(app, ["rules", "list"], env={"COLUMNS": "200"}).stdout
    assert "dsl/smart.rules" in listed and "site-packages" not in listed, listed
    # once the checkout's copy is edited, it is another file: the installed one is not it
    (tmp_path / "dsl" / "smart.rules").write_text(text + "\n# mine\n", encoding="utf-8")
    assert catalog.display_path(installed / "smart.rules") == \
        os.path.relpath(installed / "smart.rules")


def test_display_path_in_a_checkout_stays_relative_to_the_working_directory(monkeypatch):
    from warband import catalog
    if catalog.RULES_DIR.resolve() != (ROOT / "dsl").resolve():
        pytest.skip("the toolkit runs installed: the checkout's dsl/ is not its shipped rules "
                    "(test_display_path_of_an_installed_builtin covers that case)")
    monkeypatch.chdir(ROOT / "dsl")
    assert catalog.display_path(ROOT / "dsl" / "smart.rules") == "smart.rules"
    monkeypatch.chdir(ROOT / "warbands")
    assert catalog.display_path(ROOT / "dsl" / "smart.rules") == "dsl/smart.rules"


def test_playout_hints_name_a_shipped_scenario_by_its_id(monkeypatch):
    from warband import catalog
    from warband.cli.rules import _scenario_ref
    shipped = {s.id: s.path for s in catalog.scenarios()}
    assert _scenario_ref("sss-standard-game", shipped["sss-standard-game"]) == \
        "sss-standard-game"
    assert _scenario_ref(str(shipped["smart-dungeon"]), shipped["smart-dungeon"]) == \
        "smart-dungeon"
    assert _scenario_ref("my/scenario.rules", Path("/x/my/scenario.rules")) == \
        "my/scenario.rules"


def _command_paths(command=None, prefix=()):
    import typer.main
    command = command or typer.main.get_command(app)
    yield list(prefix)
    for name, sub in getattr(command, "commands", {}).items():
        yield from _command_paths(sub, (*prefix, name))


@pytest.mark.parametrize("path", list(_command_paths()),
                         ids=lambda p: " ".join(p) or "warband")
def test_dash_h_is_help_everywhere(path):
    short, long = run(*path, "-h"), run(*path, "--help")
    assert short.exit_code == 0, short.output
    assert short.stdout == long.stdout and "Usage:" in short.stdout


@pytest.mark.parametrize("path", [p for p in _command_paths() if p],
                         ids=lambda p: " ".join(p))
def test_help_texts_have_no_hard_line_breaks(path, monkeypatch):
    import inspect

    import typer.main
    command = typer.main.get_command(app)
    for name in path:
        command = command.commands[name]
    assert "\n" not in (command.help or ""), command.help
    monkeypatch.setenv("COLUMNS", "300")
    doc = " ".join((command.help or "").split())
    assert doc and doc in run(*path, "-h").stdout
    assert inspect  # (the docstrings themselves keep their 100-column lines)


@pytest.mark.parametrize("shell, start", [("zsh", "#compdef warband"),
                                          ("fish", "complete --command warband"),
                                          ("bash", "_warband_completion()"),
                                          ("powershell", "Import-Module PSReadLine")])
def test_show_completion_prints_the_named_shell_script(shell, start):
    result = run("--show-completion", shell)
    assert result.exit_code == 0, result.output
    assert result.stdout.lstrip().startswith(start), result.stdout[:200]


def test_show_completion_of_an_unknown_shell_is_refused():
    result = run("--show-completion", "tcsh")
    assert result.exit_code == 2 and "tcsh" in result.output


def test_completion_offers_ruleset_and_scenario_ids(tmp_path, monkeypatch):
    from warband.cli import complete_rules, complete_ruleset, complete_scenario
    monkeypatch.chdir(tmp_path)
    assert complete_ruleset("super") == ["super-simple-skirmish"]
    assert complete_scenario("sss") == ["sss-standard-game"]
    assert "smart-dungeon" in complete_rules("smart") and "smart" in complete_rules("smart")
    (tmp_path / "mine.rules").write_text("")
    assert complete_ruleset("mi") == ["mine.rules"]
    # through the shell's protocol, as zsh asks
    env = {**os.environ, "PYTHONPATH": str(ROOT / "toolkit"), "_WARBAND_COMPLETE": "complete_zsh",
           "_TYPER_COMPLETE_ARGS": "warband simulate sss"}
    code = "import sys; sys.argv[0] = 'warband'; from warband.cli import main; main()"
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                          text=True, timeout=60, cwd=tmp_path)
    assert "sss-standard-game" in done.stdout, done.stdout + done.stderr


def test_pdf_hint_installs_into_the_python_that_runs_warband(tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "weasyprint", None)   # as if not installed
    monkeypatch.chdir(ROOT)
    result = run("roster", "warbands/the-family.yaml", "--format", "pdf", "-o",
                 str(tmp_path / "x.pdf"))
    assert result.exit_code == 2
    assert "error[E642]" in result.stderr
    assert f"{sys.executable} -m pip install 'weasyprint" in result.stderr


def test_roster_over_an_existing_file_is_a_coded_error(tmp_path, monkeypatch):
    monkeypatch.chdir(ROOT)
    existing = tmp_path / "out.txt"
    existing.write_text("keep me")
    result = run("roster", "warbands/the-family.yaml", "-o", str(existing))
    assert result.exit_code == 2
    assert result.stderr.startswith("error[E642]: ") and "--force" in result.stderr
    assert existing.read_text() == "keep me"


def test_odds_of_a_phase_without_a_result_prints_no_none_row():
    result = run("odds", "swords-against-sorcery", "--attacker", "Training=3", "--action",
                 "coin_flip")
    assert result.exit_code == 0, result.output
    assert "None" not in result.stdout and "no result" in result.stdout
    assert "Order" in result.stdout   # what it changes is still shown


def test_odds_with_a_side_given_by_with_is_refused_not_a_traceback():
    result = run("odds", "smart", "--attacker", "class=Infantry", "--action", "new_battle",
                 "--with", "side=1")
    assert result.exit_code == 2
    assert "error[E901]" in result.stderr and "'side' is a side" in result.stderr


def test_simulate_never_says_stuck_0_above_a_list_of_stuck_games():
    from warband.game import report
    from warband.game.results import GameResult, PlayRequest
    from warband.game.tally import Summary
    summary = Summary(request=PlayRequest("x"), seed=1, chunk_size=50)
    # the engine notes a round in which a side had no legal action, and plays on: the game
    # ends by its limit, and is listed (not counted as an ending) as stuck
    summary.add(0, GameResult(11, ("A", "B"), "A", {"A": 1.0, "B": 0.0}, 6, "limit",
                              stuck="round 6: B had fighters to activate but no legal action"))
    summary.add(1, GameResult(12, ("A", "B"), None, {"A": 0.0, "B": 0.0}, 6, "limit"))
    text = report.render_text(summary, "x")
    assert "how games ended  limit 2, condition 0, conceded 0\n" in text
    assert "stuck 0" not in text
    assert "games in which a side had no legal action (stuck): 1" in text


def test_the_tier_glossary_does_not_repeat_the_tier(monkeypatch):
    monkeypatch.chdir(ROOT)
    result = run("roster", "warbands/clockwork-empire.yaml")
    assert "common   common" not in result.stdout and "common   classes (" in result.stdout


# ---- colour: a terminal, NO_COLOR, FORCE_COLOR -------------------------------------------------

def test_diagnostics_are_coloured_as_rustc_colours_them():
    from warband.diagnostics import Sources, Span, diag, render_text
    sources = Sources({"f.rules": "class A { tier nope }\n"})
    found = [diag("E201", "unknown tier 'nope'", Span("f.rules", 1, 16, 1, 20), hint="h"),
             diag("W101", "unused", Span("f.rules", 1, 7, 1, 8))]
    plain = render_text(found, sources)
    coloured = render_text(found, sources, colour=True)
    assert "\x1b[" not in plain
    assert "\x1b[1;31merror[E201]\x1b[0m" in coloured
    assert "\x1b[1;33mwarning[W101]\x1b[0m" in coloured
    assert "\x1b[1;31m^^^^\x1b[0m" in coloured and "\x1b[1;33m^\x1b[0m" in coloured
    assert "\x1b[1mf.rules:1:16:\x1b[0m" in coloured
    assert re.sub(r"\x1b\[[0-9;]*m", "", coloured) == plain   # the same text, coloured


BROKEN_RULES = 'ruleset "b"\nclass A { tier nope }\n'


@pytest.mark.parametrize("args", [
    ["rules", "check", "BROKEN"], ["rules", "list"], ["rules", "show", "smart"],
    ["odds", "super-simple-skirmish", *MUSKETEER, "--action", "shoot"],
    ["odds", "super-simple-skirmish", *MUSKETEER, "--action", "shot"],
    ["validate", "INVALID"], ["roster", "warbands/the-family.yaml"],
    ["simulate", "sss-standard-game", "--games", "2"], ["schema", "BROKEN"],
], ids=lambda a: " ".join(a[:2]))
def test_force_color_is_honoured_and_no_color_and_pipes_are_plain(args, tmp_path):
    (tmp_path / "b.rules").write_text(BROKEN_RULES)
    (tmp_path / "bad.yaml").write_text("name: X\nruleset: smart\nfighters: 3\n")
    args = [a.replace("BROKEN", str(tmp_path / "b.rules"))
            .replace("INVALID", str(tmp_path / "bad.yaml")) for a in args]
    env = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "FORCE_COLOR")}
    env["PYTHONPATH"] = str(ROOT / "toolkit")
    outputs = {}
    for label, extra in (("forced", {"FORCE_COLOR": "1"}), ("piped", {}),
                         ("no colour", {"FORCE_COLOR": "1", "NO_COLOR": "1"})):
        done = subprocess.run(_warband_command() + args, cwd=ROOT, env={**env, **extra},
                              capture_output=True, text=True, timeout=120)
        outputs[label] = done.stdout + done.stderr
    assert "\x1b[" in outputs["forced"], outputs["forced"]
    assert "\x1b[" not in outputs["piped"] and "\x1b[" not in outputs["no colour"]


@pytest.mark.parametrize("args", [
    ["roster", "warbands/the-family.yaml"],
    ["convert", "warbands/greedy-dudes.yaml", "--to", "super-simple-skirmish"],
    ["play", "sss-standard-game"],
], ids=lambda a: a[0])
def test_an_existing_output_is_refused_before_any_work_with_e642(args, tmp_path, monkeypatch):
    monkeypatch.chdir(ROOT)
    existing = tmp_path / "out"
    existing.write_text("keep me")
    result = run(*args, "-o", str(existing))
    assert result.exit_code == 2
    assert result.stderr.startswith("error[E642]: ") and result.stdout == ""
    assert existing.read_text() == "keep me"
    as_json = run("odds", "swords-against-sorcery", "--attacker", "Training=3", "--action",
                  "coin_flip", "--format", "json")
    assert as_json.exit_code == 0, as_json.output
    data = json.loads(as_json.stdout)
    assert data["outcomes"] is None and data["percent"] is None and data["effects"]


def test_odds_of_any_procedure_or_phase(golden):
    """Any procedure or phase is an odds question (issue 35): its fighters from --attacker and
    --target, its side the attacker's, its other parameters --with, a dice parameter written as
    the rules write a roll."""
    fated = run("odds", "super-simple-skirmish", "--action", "fated_roll", "-a",
                "class=Soldier might=10 fate=2", "--with", "dice=2d6", "--policy", "greedy",
                "--format", "json")
    assert fated.exit_code == 0, fated.output
    data = json.loads(fated.stdout)
    assert max(int(v) for v in data["outcomes"]) == 13   # (a 12, raised by 1 for a Fate token)
    assert sum(Fraction(p) for p in data["outcomes"].values()) == 1
    morale = run("odds", "super-simple-skirmish", "--action", "morale", "-a",
                 "class=Soldier might=8 fate=3", "--with", "lost=2", "--with", "in_play=5",
                 "--policy", "random", "--format", "json")
    assert morale.exit_code == 0, morale.output
    bad = run("odds", "super-simple-skirmish", "--action", "fated_roll", "-a",
              "class=Soldier might=10 fate=2", "--with", "dice=2d")
    assert bad.exit_code == 2 and "error[E901]: 'dice' is dice, not '2d'" in bad.stderr
    # a phase that activates fighters: no action is played outside a game, each activation
    # is counted ("how likely is a turnover with 2 dice")
    turn = run("odds", "ratcatchers", "--action", "crew_turn", "-a", "class=Catcher nerve=4",
               "--policy", "risk=2", "--format", "json")
    assert turn.exit_code == 0, turn.output
    effects = json.loads(turn.stdout)["effects"]
    # each of the 2 dice meets Nerve 4 on a 4, 5 or 6: as many activations as dice that do,
    # and the turn passes when both fail (a brute-force twin: every face of 2d6)
    twin: dict[int, Fraction] = {}
    for a in range(1, 7):
        for b in range(1, 7):
            n = (a >= 4) + (b >= 4)
            twin[n] = twin.get(n, Fraction(0)) + Fraction(1, 36)
    assert {int(k): Fraction(v) for k, v in effects["attacker.activations"].items()} == twin
    assert Fraction(effects["attacker.side.turn_over"]["yes"]) == twin[0]


def test_odds_of_a_ruleset_without_actions_says_so(tmp_path):
    """The hint listed the actions, and a ruleset with none printed 'actions: ' and nothing."""
    bare = tmp_path / "bare.rules"
    bare.write_text('ruleset "bare"\nstat Might: 1..10\n')
    result = run("odds", str(bare), "--action", "strike", "-a", "might=3")
    assert result.exit_code == 2
    assert "hint: it has no actions or phases to weigh" in result.output


# ---- issue 32, C16: a newcomer's 80-column terminal ---------------------------------------------

def _lines_at(columns: int, *args: str) -> list[str]:
    result = CliRunner().invoke(app, list(args), env={"COLUMNS": str(columns)})
    assert result.exit_code == 0, result.output
    return result.stdout.splitlines()


@pytest.mark.parametrize("columns", [80])
def test_rules_list_fits_the_terminal_with_ids_and_paths_whole(columns):
    """`rules list` was never narrower than 126 columns, padded with spaces: at 80 (and 60) it
    fits, each id and file whole on a line, the titles wrapped, no line padded."""
    from warband import catalog
    lines = _lines_at(columns, "rules", "list")
    assert all(len(line) <= columns for line in lines), "\n".join(lines)
    assert all(line == line.rstrip() for line in lines)
    words = {word.rstrip(";") for line in lines for word in line.split()}
    for shipped in catalog.rulesets():
        assert shipped.id in words and catalog.display_path(shipped.path) in words


def test_rules_show_and_diff_wrap_their_prose_at_80_columns():
    """The summary's and the diff's lines of prose (descriptions, enumerations, options, a
    change's details) are wrapped between words to the terminal. (House rules' summaries have
    a `from` column of places, each whole, which may make their tables wider.)"""
    from warband import catalog
    for shipped in catalog.rulesets():
        command = ("diff", shipped.extends, shipped.id) if shipped.extends else (
            "show", shipped.id)
        lines = _lines_at(80, "rules", *command)
        assert all(len(line) <= 80 for line in lines), (command, [
            line for line in lines if len(line) > 80])
        assert all(line == line.rstrip() for line in lines)


# ---- issue 32, C20: smaller things a newcomer meets -------------------------------------------

@pytest.mark.parametrize("args", [["rules", "show", "smart"], ["rules", "list"],
                                  ["rules", "diff", "smart", "smart-faith"],
                                  ["roster", "warbands/the-family.yaml"]],
                         ids=lambda a: " ".join(a[:2]))
def test_output_read_only_in_part_is_no_failure(args):
    """`warband rules show X | head -1` exits 0 like every other command: standard output
    closed before all is written (here before anything is) is no failure, and says nothing."""
    env = {**os.environ, "PYTHONPATH": str(ROOT / "toolkit")}
    done = subprocess.Popen(_warband_command() + args, cwd=ROOT, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    done.stdout.close()   # as `head -1` does once it has its line
    _, err = done.communicate(timeout=120)
    assert done.returncode == 0, err
    assert b"Traceback" not in err and b"Error" not in err, err


def test_rules_check_reads_standard_input():
    house = ('ruleset "mine"\n  extends "super-simple-skirmish"\n'
             "class Ogre { tier rare  traits Frenzied }\n")
    result = CliRunner().invoke(app, ["rules", "check", "-"], input=house)
    assert result.exit_code == 1
    assert "<stdin>:3:32: error[E201]: unknown trait 'Frenzied'" in result.stdout
    assert "did you mean 'Frenzy'?" in result.stdout
    fine = CliRunner().invoke(app, ["rules", "check", "-"], input='ruleset "x"\nstat A: 1..3\n')
    assert fine.exit_code == 0, fine.output


def test_one_typo_in_an_odds_fighter_is_one_error():
    """`-a "class=Soldier mite=10"` was two errors (unknown key 'mite', and might missing):
    a key the did-you-mean names is not reported missing as well."""
    result = CliRunner().invoke(app, ["odds", "super-simple-skirmish", "-a",
                                      "class=Soldier mite=10", "-t", "clas=Soldier might=10",
                                      "--action", "shoot"])
    assert result.exit_code == 2
    errors = [line for line in result.stderr.splitlines() if "error[" in line]
    assert errors == ["--attacker:1:15: error[E901]: unknown key 'mite'",
                      "--target:1:1: error[E901]: unknown key 'clas'"], result.stderr


def test_a_side_has_the_same_colour_on_every_page(tmp_path):
    """The game's page and board drew the first side red, the simulation's charts blue: each
    side now has one colour everywhere (game/svg.side_colour)."""
    from warband.game import svg
    page = CliRunner().invoke(app, ["play", "sss-standard-game", "--seed", "1", "--format",
                                    "html"]).stdout
    chart = tmp_path / "runs.svg"
    result = CliRunner().invoke(app, ["simulate", "sss-standard-game", "--games", "4",
                                      "--workers", "1", "--plot", str(chart)])
    assert result.exit_code == 0, result.output
    drawn = chart.read_text(encoding="utf-8")
    for i in range(2):   # the standard game's two sides, in the scenario's order
        assert svg.side_colour(i) in page and f'fill="{svg.side_colour(i)}"' in drawn, i


def test_help_at_60_columns_keeps_every_option_name_whole():
    """Issue 32, C20: rich's tables cut long option names short in a narrow terminal
    (`--no-prog…`); there, help is click's plain text, which wraps them onto lines of their
    own. Every command's every option, whole, at 60 columns."""
    import os
    import subprocess
    import sys

    import typer.main
    root = typer.main.get_command(app)
    commands = [([name], cmd) for name, cmd in root.commands.items()
                if not hasattr(cmd, "commands")]
    commands += [([name, sub], c) for name, cmd in root.commands.items()
                 if hasattr(cmd, "commands") for sub, c in cmd.commands.items()]
    env = {**os.environ, "COLUMNS": "60", "NO_COLOR": "1",
           "PYTHONPATH": str(Path(__file__).resolve().parents[1] / "toolkit")}
    for words, command in commands:
        done = subprocess.run([sys.executable, "-m", "warband", *words, "--help"],
                              capture_output=True, text=True, env=env, timeout=60)
        assert done.returncode == 0, (words, done.stderr)
        assert "…" not in done.stdout, (words, done.stdout)
        for param in command.params:
            for opt in param.opts + param.secondary_opts:
                if opt.startswith("-"):
                    assert opt in done.stdout, (words, opt, done.stdout)
        assert max(len(line) for line in done.stdout.splitlines()) <= 60, words
