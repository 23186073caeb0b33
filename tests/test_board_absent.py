"""The board's questions with no board (exact odds) and with a kind of marker that has no piece
(issue 32, A1): one meaning everywhere. A kind with no piece on the board, no board at all, and
a piece carried off the table are infinitely far: `distance(t, ruin) <= 1` is false and `> 6`
true, as if no piece had been placed; the log and the record say `infinite`, never a number.
It is a whole number farther than any board (evaluate.FAR), so every sum and product with it
is exact and the same in the interpreter and in generated code (infinite minus infinite is 0,
not an error in one and a silent NaN in the other). The exact odds, the interpreter's play and
the generated code's play agree on every question.
"""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from warband.cli import app
from warband.game.engine import Game
from warband.game.gamelog import render_text
from warband.game.scenario import load_scenario
from warband.lang.compiler import compile_text
from warband.run.decisions import Policies
from warband.run.evaluate import FAR

RULES = '''
ruleset "ruins"
  title "Cover from ruins"

stat Skill: 1..6
marker ruin "Broken walls: cover within 1 inch"
marker well "A well nobody places"

action shoot(shooter: fighter, target: fighter, cover: bool = distance(target, ruin) <= 1)
  -> number "Hits on 4+, 6+ in cover"
  requires target.side != shooter.side
{
  let need = if cover then 6 else 4
  return if d6 >= need then 1 else 0
}

action far_away(shooter: fighter, target: fighter) -> bool "Is the target more than 6 from a ruin?"
  requires target.side != shooter.side
{
  return distance(target, ruin) > 6
}

action measure(shooter: fighter) -> number "How far the nearest well is"
{
  return distance(shooter, well)
}

action questions(a: fighter, b: fighter) -> number "Every board question, as a number"
  requires b.side != a.side
{
  return (if distance(a, b) <= 1 then 1 else 0) + (if sees(a, b) then 2 else 0)
    + (if obscured(a, b) then 4 else 0) + (if contact(a, b) then 8 else 0)
    + (if engaged(a) then 16 else 0) + total(1 for p in pieces(ruin)) * 32
    + (if distance(a, ruin) <= 1000000000 then 64 else 0)
    + (if distance(a, well) > 1000000000 then 128 else 0)
}

action nonsense(shooter: fighter) -> number "Infinite minus infinite, and none of it"
{
  return distance(shooter, well) - distance(shooter, ruin) + 0 * distance(shooter, well)
}

action halved(shooter: fighter) -> number "Infinite halved, floored, plus one"
{
  return floor(distance(shooter, well) / 2) + 1
}
'''

SCENARIO = RULES + '''
scenario open_field "No ruin is ever placed" {
  board 24 by 24 inches
  side a { fighter "Archer" { stat Skill = 3 } }
  side b { fighter "Target" { stat Skill = 3 } }
  zone west = edge west depth 2
  zone east = edge east depth 2
  setup {
    deploy a in west
    deploy b in east
  }
  round {
    for each s in sides {
      for each f in s.fighters {
        activate f using ACTION
      }
    }
  }
  rounds 1
}
'''


def _odds(tmp_path, action: str, *more: str):
    path = tmp_path / "ruins.rules"
    path.write_text(RULES)
    return CliRunner().invoke(app, ["odds", str(path), "--attacker", "skill=3", "--target",
                                    "skill=3", "--action", action, "--format", "json", *more])


def test_without_a_board_no_target_is_in_cover_of_a_ruin(tmp_path):
    done = _odds(tmp_path, "shoot")
    assert done.exit_code == 0, done.output
    assert json.loads(done.stdout)["outcomes"] == {"0": "1/2", "1": "1/2"}   # 4+, not 6+


def test_without_a_board_every_question_answers_as_side_by_side_with_no_piece(tmp_path):
    done = _odds(tmp_path, "questions")
    assert done.exit_code == 0, done.output
    # in reach, in sight, not obscured, in contact, not engaged, no ruin, the nearest ruin
    # and well infinitely far
    assert json.loads(done.stdout)["outcomes"] == {str(1 + 2 + 8 + 128): "1"}
    done = _odds(tmp_path, "far_away")
    assert json.loads(done.stdout)["outcomes"] == {"true": "1"}


def test_a_distance_to_nothing_is_never_a_number_in_odds(tmp_path):
    done = _odds(tmp_path, "measure")
    assert done.exit_code == 0, done.output
    assert "1000000000" not in done.stdout
    assert json.loads(done.stdout)["outcomes"] == {"infinite": "1"}


def test_counting_with_two_infinities_is_exact(tmp_path):
    done = _odds(tmp_path, "nonsense")
    assert done.exit_code == 0, done.output
    assert json.loads(done.stdout)["outcomes"] == {"0": "1"}


def _game(tmp_path, action: str, compiled: bool, seed: int = 1):
    path = tmp_path / f"{action}.rules"
    path.write_text(SCENARIO.replace("ACTION", action))
    scenario = load_scenario(str(path))
    assert not isinstance(scenario, list), [(d.code, d.message) for d in scenario]
    game = Game(scenario, seed, Policies("first"), record=True)
    game.interp.compiled = compiled
    game.play()
    return game


@pytest.mark.parametrize("compiled", [True, False], ids=["generated", "interpreter"])
def test_in_a_game_with_no_piece_of_a_kind_the_answers_are_those_of_odds(tmp_path, compiled):
    results = {}
    for action in ("shoot", "far_away", "measure", "questions", "halved"):
        game = _game(tmp_path, action, compiled)
        values = [e["value"] for e in game.log.events if e["type"] == "result"]
        results[action] = values
        text = render_text({"scenario_title": "t", "seed": 1, "events": game.log.events})
        assert "1000000000" not in text
    assert results["far_away"] == [True, True]
    assert results["measure"] == ["infinite", "infinite"]
    assert results["halved"] == ["infinite", "infinite"]
    # far apart on a board (16"), in sight, no ruin and no well: 2 + 128
    assert results["questions"] == [130, 130]


@pytest.mark.parametrize("compiled", [True, False], ids=["generated", "interpreter"])
def test_in_a_game_counting_with_two_infinities_is_exact(tmp_path, compiled):
    game = _game(tmp_path, "nonsense", compiled)
    assert [e["value"] for e in game.log.events if e["type"] == "result"] == [0, 0]


def test_the_log_says_infinite(tmp_path):
    game = _game(tmp_path, "measure", True)
    text = render_text({"scenario_title": "t", "seed": 1, "events": game.log.events})
    assert "result: infinite" in text


def test_no_board_distance_is_far_for_kinds_and_positions_only():
    from warband.run.interpreter import Interpreter
    from warband.run.world import Ref
    compiled = compile_text(RULES, "ruins.rules")
    interp = Interpreter(compiled.ruleset)
    a, b = Ref("fighter", 0), Ref("fighter", 1)
    assert interp.board.distance(a, b, None) == 0
    assert interp.board.distance(a, "ruin", None) == FAR > 10 ** 15
    assert interp.board.distance(a, None, None) == FAR
