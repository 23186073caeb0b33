"""Issue 32, C19: a list outside the checkout gets a schema its editor finds. `warband new
RULESET` starts a warband file, `warband convert -o` writes one, each with a modeline whose path
resolves from where the file is; `warband schema RULESET --install DIR` puts a schema beside the
lists (a ruleset of one's own has no shipped schema)."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from warband.cli import app
from warband.lists.validate import validate

ROOT = Path(__file__).resolve().parents[1]
MODELINE = "# yaml-language-server: $schema="

OWN = '''ruleset "my-game"
stat Skill: 1..6 "how good"
class Hero { }
class Mook { }
'''


def run(*args: str):
    return CliRunner().invoke(app, list(args))


def schema_of(path: Path) -> Path:
    """The file the modeline of a warband file names, as an editor resolves it."""
    first = path.read_text(encoding="utf-8").splitlines()[0]
    assert first.startswith(MODELINE), first
    return (path.parent / first.removeprefix(MODELINE)).resolve()


@pytest.mark.parametrize("ruleset", ["super-simple-skirmish", "smart", "fogbound", "ashfall",
                                     "swords-against-sorcery"])
def test_new_starts_a_list_whose_modeline_resolves(tmp_path, ruleset):
    band = tmp_path / "lists" / "mine.yaml"
    band.parent.mkdir()
    result = run("new", ruleset, "-o", str(band))
    assert result.exit_code == 0, result.output
    assert schema_of(band).is_file()
    assert schema_of(band).name == f"{ruleset}.warband.schema.json"
    found = validate([str(band)])
    # the shape is right; what a whole warband must hold (a leader, more fighters) is the
    # player's to add
    assert not [d for d in found.diagnostics if d.code.startswith("E62")], found.diagnostics
    assert run("new", ruleset, "-o", str(band)).exit_code == 2   # exists: --force to replace


def test_new_to_standard_output_resolves_from_the_working_directory(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = run("new", "super-simple-skirmish")
    assert result.exit_code == 0, result.output
    (tmp_path / "band.yaml").write_text(result.stdout, encoding="utf-8")
    assert schema_of(tmp_path / "band.yaml").is_file()
    assert "ruleset: super-simple-skirmish" in result.stdout


def test_a_ruleset_of_ones_own_gets_its_schema_installed_beside_the_lists(tmp_path):
    rules = tmp_path / "rules" / "my-game.rules"
    rules.parent.mkdir()
    rules.write_text(OWN, encoding="utf-8")
    lists = tmp_path / "lists"
    lists.mkdir()
    band = lists / "band.yaml"
    first = run("new", str(rules), "-o", str(band))
    assert first.exit_code == 0, first.output
    assert "warband schema" in first.stderr and "--install" in first.stderr
    assert not band.read_text(encoding="utf-8").startswith(MODELINE)   # none that resolves
    assert "ruleset: ../rules/my-game.rules" in band.read_text(encoding="utf-8")
    installed = run("schema", str(rules), "--install", str(lists))
    assert installed.exit_code == 0, installed.output
    assert (lists / "my-game.warband.schema.json").is_file()
    assert installed.stdout == f"{MODELINE}my-game.warband.schema.json\n"
    again = run("new", str(rules), "-o", str(band), "--force")
    assert again.exit_code == 0 and schema_of(band) == (lists / "my-game.warband.schema.json")
    assert run("schema", str(rules), "--install", str(lists / "nowhere")).exit_code == 2


def test_convert_o_writes_a_modeline_that_resolves_from_the_new_file(tmp_path):
    out = tmp_path / "elsewhere" / "dudes.yaml"
    out.parent.mkdir()
    result = run("convert", str(ROOT / "warbands" / "greedy-dudes.yaml"), "--to",
                 "super-simple-skirmish", "-o", str(out))
    assert result.exit_code in (0, 1), result.output
    assert schema_of(out).is_file()
    assert schema_of(out).name == "super-simple-skirmish.warband.schema.json"
