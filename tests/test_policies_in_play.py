"""Every `--policy` form the docs show, in `warband play` and `warband simulate` (issue 32, A12:
`--policy fate_reroll=keep` and `--policy next_fighter=Momma` were refused as "no side").

A side's policy (`empire=greedy`), every side's (`greedy`), a decision's policy or option
(`fate_reroll=greedy`, `fate_reroll=keep`), a number (`move_points=1`), a member of a group by
name (`next_fighter=Momma`), one side's decision (`family:fate_reroll=reroll`), and the wrong
ones, each refused with E911 and a did-you-mean. The record shows each choice made as asked.
"""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from warband.cli import app


def _record(*args: str) -> dict:
    done = CliRunner().invoke(app, ["play", *args, "--format", "json"])
    assert done.exit_code == 0, done.output
    return json.loads(done.stdout)


def _choices(record: dict, decision: str, side: str | None = None) -> list:
    return [e["choice"] for e in record["events"] if e.get("type") == "decision" and
            e["decision"] == decision and (side is None or e["by"] == side)]


@pytest.mark.parametrize("seed", ["1", "2", "3"])
def test_a_decision_option_for_both_sides(seed):
    record = _record("sss-standard-game", "--seed", seed, "--policy", "fate_reroll=keep")
    choices = _choices(record, "fate_reroll")
    assert choices and set(choices) == {"keep"}


def test_a_decision_policy_and_every_sides_policy():
    record = _record("sss-standard-game", "--seed", "2", "--policy", "greedy",
                     "--policy", "fate_modify=first")
    assert record["policies"] == {"*": "greedy", "fate_modify": "first"}
    assert set(_choices(record, "fate_modify")) == {"keep"}   # the first option


def test_one_sides_decision():
    record = _record("sss-standard-game", "--seed", "3", "--policy", "family:fate_reroll=reroll",
                     "--policy", "empire:fate_reroll=keep")
    assert set(_choices(record, "fate_reroll", "empire")) == {"keep"}
    family = _choices(record, "fate_reroll", "family")
    assert "reroll" in family   # (keep only once its Fate is spent: reroll needs a token)
    first_keep = family.index("keep") if "keep" in family else len(family)
    assert set(family[:first_keep]) == {"reroll"}


def test_a_member_of_a_group_by_name():
    record = _record("sss-standard-game", "--seed", "4", "--policy", "next_fighter=Momma")
    # whenever the family chooses whom to activate and Momma is waiting (her first choice of
    # each of its turns, while she stands), she goes first
    firsts, taken = [], False
    for e in record["events"]:
        if e.get("type") == "phase" and e.get("phase") == "turn":
            taken = False
        elif e.get("type") == "decision" and e["decision"] == "next_fighter" and \
                e["by"] == "family" and not taken:
            firsts.append(e["choice"])
            taken = True
    assert firsts[0] == "Momma" and firsts.count("Momma") >= 2, firsts


def test_a_number_for_a_decision_among_numbers():
    record = _record("greedy-dudes-vs-menace", "--seed", "1", "--policy", "move_points=1")
    choices = _choices(record, "move_points")
    assert choices and set(choices) == {1}


def test_simulate_takes_every_form():
    for form in (["fate_reroll=keep"], ["next_fighter=Momma"], ["family:fate_modify=lower"],
                 ["empire=first", "fate_modify=first"]):
        args = [a for f in form for a in ("--policy", f)]
        done = CliRunner().invoke(app, ["simulate", "sss-standard-game", "--games", "6",
                                        *args])
        assert done.exit_code == 0, (form, done.output)


@pytest.mark.parametrize("command", ["play", "simulate"])
@pytest.mark.parametrize("policy, words", [
    ("fate_rerol=keep", ["no side or decision 'fate_rerol'", "did you mean 'fate_reroll'"]),
    ("famly:fate_reroll=keep", ["no side 'famly'", "did you mean 'family'"]),
    ("family:fate_rerol=keep", ["no decision 'fate_rerol'", "did you mean 'fate_reroll'"]),
    ("fate_reroll=kep", ["'kep' is neither a policy nor an option of 'fate_reroll'",
                         "did you mean 'keep'"]),
    ("empire=keep", ["unknown policy 'keep'"]),
    ("move_points=1", ["no side or decision 'move_points'"]),
    ("mcts:0", ["'mcts:0' is no search: mcts:N takes N from 1 to 100,000 runs"]),
    ("mcts:many", ["'mcts:many' is no search", "--policy mcts:200"]),
    ("empire=mcts:200001", ["'mcts:200001' is no search", "empire=mcts:200"]),
])
def test_a_wrong_policy_is_refused_with_a_hint(command, policy, words):
    done = CliRunner().invoke(app, [command, "sss-standard-game", "--policy", policy,
                                    *(["--games", "2"] if command == "simulate" else [])])
    assert done.exit_code == 2, done.output
    assert "error[E911]" in done.output and "Traceback" not in done.output
    for word in words:
        assert word in done.output, done.output
