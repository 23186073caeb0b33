"""What simulate and playouts say of a scenario, honestly (issue 32, A6-A8):

- every term that can add to a score is an objective judged on its own: a treasure nobody ever
  carries off is "never scored" even when the score's other term (enemies downed) scores
  (simulate's report and JSON, and `rules check --playouts`' W903);
- fighters that left the table (fled, escaped) are counted: "withdrawn per game";
- the result is final before the aftermath: an aftermath that removes a fighter (dies of its
  wounds) changes no score and no winner.
"""

from __future__ import annotations

import json

from typer.testing import CliRunner

from warband.cli import app
from warband.game.engine import Game
from warband.game.objectives import objectives
from warband.game.scenario import load_scenario
from warband.lang.compiler import compile_text
from warband.run.decisions import Policies

TREASURE = '''
ruleset "treasure-hunt"
  title "A treasure nobody reaches"
  extends "super-simple-skirmish"

scenario hunt "Kill, or carry off a treasure that is never there" {
  board 24 by 24 inches
  side a { fighter "Hero" count 3 { class Soldier  stat Might = 10 } }
  side b { fighter "Foe" count 3 { class Soldier  stat Might = 10 } }
  zone south = edge south depth 3
  zone north = edge north depth 3
  setup {
    deploy a in south
    deploy b in north
  }
  round { game_round() }
  rounds 4
  score a "1 a kill, 10 a treasure" =
    total(1 for f in b.casualties) + 10 * total(1 for f in a.withdrawn if f.Might > 1000)
  score b "1 a kill" = total(1 for f in a.casualties)
  AFTERMATH
}
'''


def _write(tmp_path, aftermath: str = "") -> str:
    path = tmp_path / "hunt.rules"
    path.write_text(TREASURE.replace("AFTERMATH", aftermath))
    return str(path)


def test_each_term_of_a_score_is_an_objective(tmp_path):
    compiled = compile_text(TREASURE.replace("AFTERMATH", ""), "hunt.rules")
    assert compiled.ruleset is not None, compiled.diagnostics
    names = [o.name for o in objectives(compiled.ruleset.scenario)]
    assert names == ["score a: total(1 for f in b.casualties)",
                     "score a: 10 * total(1 for f in a.withdrawn if f.Might > 1000)",
                     "score b"]


def test_simulate_names_the_term_that_never_scored(tmp_path):
    path = _write(tmp_path)
    done = CliRunner().invoke(app, ["simulate", path, "--games", "20", "--format", "json"])
    assert done.exit_code == 0, done.output
    never = json.loads(done.stdout)["never_scored"]
    assert never == ["score a: 10 * total(1 for f in a.withdrawn if f.Might > 1000)"]
    text = CliRunner().invoke(app, ["simulate", path, "--games", "20"]).stdout
    assert "never scored" in text and "a.withdrawn" in text


def test_playouts_warn_of_the_term_that_never_scored(tmp_path):
    path = _write(tmp_path)
    done = CliRunner().invoke(app, ["rules", "check", path, "--playouts", "10"])
    assert "warning[W903]: no game of 10 scored anything from 10 * total(1 for f in " \
           "a.withdrawn if f.Might > 1000) for 'a'" in done.stdout, done.stdout
    assert done.stdout.count("W903") == 1, done.stdout


def test_fighters_that_left_the_table_are_counted():
    done = CliRunner().invoke(app, ["simulate", "greedy-dudes-vs-menace", "--games", "20",
                                    "--format", "json"])
    assert done.exit_code == 0, done.output
    dudes = json.loads(done.stdout)["sides"]["dudes"]
    # the Dudes that escaped (classless fighters are counted by name)
    assert sum(dudes["withdrawn_per_game"].values()) > 0
    text = CliRunner().invoke(app, ["simulate", "greedy-dudes-vs-menace", "--games", "20"])
    assert "withdrawn per game" in text.stdout


def test_an_aftermath_changes_no_result(tmp_path):
    # the aftermath removes every fighter of b that stands: the score of a counts b's
    # casualties, and would be 3 if the aftermath's removals counted
    plain = load_scenario(_write(tmp_path))
    harsh = load_scenario(_write(tmp_path, "aftermath { for each f in b.fighters { remove f } }"))
    assert not isinstance(plain, list) and not isinstance(harsh, list)
    for seed in range(1, 8):
        one = Game(plain, seed, Policies("random")).play()
        other_game = Game(harsh, seed, Policies("random"), record=True)
        other = other_game.play()
        assert (one.scores, one.winner, one.kills) == (other.scores, other.winner, other.kills)
        end = next(e for e in other_game.log.events if e["type"] == "end")
        assert end["scores"] == {k: int(v) for k, v in one.scores.items()}
        # the warband's story goes on: the game's final world is the aftermath's
        assert all(f.removed for f in other_game.final.fighters if f.side == 1)
