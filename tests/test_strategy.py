"""Secret, simultaneous choices solved as zero-sum games: the solver against games whose answer
is known, and the probing of a rules file's up-front decisions."""

from __future__ import annotations

import json
from fractions import Fraction as F

import pytest
from typer.testing import CliRunner

from warband.cli import app
from warband.lang.compiler import compile_text, load
from warband.run.decisions import Policies
from warband.run.strategy import solve, solve_matrix_game
from warband.run.world import FighterSpec, Ref, make_world


@pytest.mark.parametrize("matrix, value, rows, columns", [
    # matching pennies
    ([[1, -1], [-1, 1]], F(0), [F(1, 2), F(1, 2)], [F(1, 2), F(1, 2)]),
    # rock, paper, scissors
    ([[0, -1, 1], [1, 0, -1], [-1, 1, 0]], F(0), [F(1, 3)] * 3, [F(1, 3)] * 3),
    # a 2x2 game without a saddle point: value (3*2 - 0*-1) / (3 + 2 - 0 + 1) = 1
    ([[3, 0], [-1, 2]], F(1), [F(1, 2), F(1, 2)], [F(1, 3), F(2, 3)]),
])
def test_matrix_games_with_known_answers(matrix, value, rows, columns):
    got_value, got_rows, got_columns = solve_matrix_game([[F(x) for x in r] for r in matrix])
    assert (got_value, got_rows, got_columns) == (value, rows, columns)


def test_the_solution_is_an_equilibrium_on_a_random_looking_game():
    matrix = [[F(x) for x in row] for row in ([4, -2, 1], [-3, 5, 0], [1, 1, -4], [2, -1, 3])]
    value, p, q = solve_matrix_game(matrix)
    assert sum(p) == 1 and sum(q) == 1 and min(p) >= 0 and min(q) >= 0
    # no pure reply does better against the other's mix
    assert max(sum(matrix[i][j] * q[j] for j in range(3)) for i in range(4)) == value
    assert min(sum(matrix[i][j] * p[i] for i in range(4)) for j in range(3)) == value


GUESS = '''
ruleset "guess"
outcomes guess_result { caught = 1, missed = 0 }
action guess(seeker: fighter, hider: fighter) -> guess_result {
  choose look by seeker from 0..1 "which door to open"
  choose hide by hider from 0..1 "which door to hide behind"
  if look == hide { return caught }
  return missed
}
'''


def test_secret_choices_in_a_rules_file_are_found_and_solved():
    ruleset = compile_text(GUESS, "guess.rules").ruleset
    world = make_world(ruleset, [FighterSpec("seeker", 0), FighterSpec("hider", 1)])
    args = {"seeker": Ref("fighter", 0), "hider": Ref("fighter", 1)}
    solution = solve(ruleset, "guess", args, world, Policies(), actor_side=0)
    assert not solution.pure
    assert solution.value == F(1, 2)
    assert solution.row_mix == [F(1, 2), F(1, 2)]
    assert solution.maximin_value == 0   # a seeker who could be seen is always missed


def test_swords_against_sorcery_hands_between_equals_have_a_saddle_point():
    ruleset = load("swords-against-sorcery").ruleset
    world = make_world(ruleset, [FighterSpec("a", 0, None, {"Training": 1, "Size": "Medium"}),
                                 FighterSpec("b", 1, None, {"Training": 1, "Size": "Medium"})])
    args = {"attacker": Ref("fighter", 0), "target": Ref("fighter", 1)}
    # the target fights back (it may also flee: that is the same game with one more column)
    fights = Policies("first", {"answer_attack": "fight_back"})
    solution = solve(ruleset, "exchange", args, world, fights, actor_side=0)
    assert len(solution.rows) == len(solution.columns) == 4   # attack, defence, speed or none
    assert solution.pure and solution.value == 0
    either = solve(ruleset, "exchange", args, world, Policies(), actor_side=0)
    assert {"answer_attack": "flee_attack"} in either.columns
    assert either.pure and either.value == 0


def test_odds_solve_from_the_command_line():
    result = CliRunner().invoke(app, ["odds", "swords-against-sorcery", "--attacker",
                                      "training=1 size=Medium", "--target",
                                      "training=1 size=Medium", "--action", "exchange",
                                      "--solve", "--format", "json"])
    assert result.exit_code == 0, result.output
    solution = json.loads(result.stdout)["solution"]
    assert solution["saddle_point"] is True
    assert solution["value"] == "0"
