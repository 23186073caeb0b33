"""E504: exact odds that give up say where the situations piled up, along which loops and calls,
which values keep them apart, and what to change (run/situations.py, run/toomuch.py).

Exact odds merge equal situations (run/merging.py), so they give up only when a rule keeps too
many apart. Each tests/odds_errors/NAME.rules is a realistic rule that does, for one cause (a
total kept die by die, a decision per die over a large total, a counter on a fighter raised in
a procedure a loop calls, a pool whose number of dice comes from an earlier roll);
its first line holds the `warband odds` arguments, and NAME.txt what the command prints. Run
`pytest --update-goldens` after an intended change, and read the diff.

Sampled play needs no exact distribution: a pool too large to work out exactly is rolled die by
die, the same in the interpreter and in generated code.
"""

from __future__ import annotations

import random
import shlex
from pathlib import Path

import pytest
from typer.testing import CliRunner

from warband.cli import app
from warband.lang.compiler import compile_text
from warband.run import dice
from warband.run.codegen import hooks as codegen
from warband.run.interpreter import Interpreter, RulesError
from warband.run.odds import parse_fighter
from warband.run.world import Ref, make_world

ROOT = Path(__file__).resolve().parents[1]
CASES = ROOT / "tests" / "odds_errors"
FILES = sorted(CASES.glob("*.rules"))


def _arguments(path: Path) -> list[str]:
    first = path.read_text(encoding="utf-8").splitlines()[0]
    assert first.startswith("# args: "), f"{path.name}: the first line gives the arguments"
    return shlex.split(first[len("# args: "):])


def _odds(path: Path, monkeypatch):
    monkeypatch.chdir(ROOT)
    relative = path.relative_to(ROOT).as_posix()
    return CliRunner().invoke(app, ["odds", relative, *_arguments(path)])


def test_there_is_a_case_for_each_cause():
    assert {p.stem for p in FILES} >= {
        "decision_per_die", "sum_die_by_die", "counter_across_calls",
        "dice_count_from_an_earlier_roll"}


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_golden(path, golden, monkeypatch):
    result = _odds(path, monkeypatch)
    assert result.exit_code == 2, result.output   # (cli: UNUSABLE, as any refusal of odds)
    assert "error[E504]" in result.stderr
    assert "Traceback" not in result.output
    shown = f"$ warband odds {path.relative_to(ROOT).as_posix()} " \
            f"{shlex.join(_arguments(path))}\n{result.stderr}"
    golden(path.with_suffix(".txt"), shown)


def _exact(text: str, action: str, fighter: str, policy: dict | None = None):
    from warband.run.decisions import Policies
    ruleset = compile_text(text, "case.rules").ruleset
    assert ruleset is not None
    spec = parse_fighter(fighter, "--attacker", ruleset, 0, []).spec
    world = make_world(ruleset, [spec])
    interp = Interpreter(ruleset, Policies(by_decision=policy or {}))
    with pytest.raises(RulesError) as caught:
        interp.exact(action, {ruleset.procedures[action].params[0].name.name: Ref("fighter", 0)},
                     world)
    return caught.value.diagnostic


SUMMED = '''ruleset "t"
stat Bulk: 1..20 default 10
action haul(f: fighter) -> number {
  let load = 0
  repeat 40 times {
    let crate = d100
    set load += crate
  }
  return load
}
'''


def test_the_statement_the_loop_and_what_keeps_situations_apart_are_named():
    """A run that merges gives up only when it keeps too many situations apart: E504 names the
    statement where most of them are, the loop around it, how many situations it reached and
    the values that keep them apart, with what to change."""
    d = _exact(SUMMED, "haul", "bulk=10")
    assert d.code == "E504"
    assert (d.span.line, d.span.column) == (7, 5)   # set load += crate
    assert "distinct situations" in d.message and "`set load += crate` (line 7)" in d.message
    assert "inside `repeat 40 times` (line 5)" in d.message
    assert "what keeps them apart there: `load` (" in d.message
    assert "give `load` fewer values" in d.hint and "fewer turns of `repeat 40 times`" in d.hint
    assert "--samples" in d.hint
    assert {r.span.line for r in d.related} == {5}


def test_a_loop_in_a_calling_procedure_is_named():
    """The loop that multiplies the situations may be in the procedure that calls the one where
    they pile up: the chain of calls is named, each with the loops around it."""
    d = _exact((CASES / "counter_across_calls.rules").read_text(encoding="utf-8"),
               "campaign", "grit=3")
    assert "`set hero.XP += earned` (line 13) in `battle`" in d.message
    assert "`battle` is called from `campaign` (line 19), inside `repeat 40 times` (line 18)" \
        in d.message
    assert "XP (" in d.message and "cap " in d.hint
    assert 18 in {r.span.line for r in d.related}


def test_the_same_rule_gives_the_same_message_each_time():
    assert _exact(SUMMED, "haul", "bulk=10") == _exact(SUMMED, "haul", "bulk=10")


# Rules that used to give E504 when exact odds followed every path, now worked out: their
# situations are few (a counter nothing reads is dropped, a loop's turns come from a roll, a
# decision per die over a small total).
WORKED_OUT = {
    "a counter nobody reads": ("rally", "nerve=4", {"steady_now": "greedy"}, '''ruleset "t"
stat Nerve: 1..6 default 3
action rally(f: fighter) -> number {
  let steady = 0
  let failures = 0
  let rolled = 0
  repeat 14 times {
    let test = d6
    set rolled += test
    if test > f.Nerve {
      choose steady_now by f {
        option fail { set failures += 1 }
        option steady when steady == 0 { set steady = 1 }
      }
    }
  }
  return failures
}
'''),
    "shots from an earlier roll": ("volley", "shots=3", {}, '''ruleset "t"
stat Shots: 1..6 default 2
action volley(f: fighter) -> number {
  let shots = (f.Shots)d6
  let hits = 0
  repeat shots times {
    let shot = d6
    if shot >= 4 { set hits += 1 }
  }
  return hits
}
'''),
    "a decision per die": ("forge", "fate=3", {"reroll": "greedy"}, '''ruleset "t"
stat Fate: 0..3 default 3
counter Spent on fighter
action forge(f: fighter) -> number {
  let work = 0
  repeat 16 times {
    let strike = d6
    choose reroll by f {
      option keep
      option reroll when f.Spent < f.Fate {
        set f.Spent += 1
        set strike = d6
      }
    }
    set work += strike
  }
  return work
}
'''),
}


@pytest.mark.parametrize("case", sorted(WORKED_OUT))
def test_what_was_too_much_path_by_path_is_worked_out(case):
    from warband.run.decisions import Policies
    action, fighter, policy, text = WORKED_OUT[case]
    ruleset = compile_text(text, "case.rules").ruleset
    spec = parse_fighter(fighter, "--attacker", ruleset, 0, []).spec
    interp = Interpreter(ruleset, Policies(by_decision=policy))
    dist = interp.exact(action, {"f": Ref("fighter", 0)}, make_world(ruleset, [spec]))
    assert sum(p for _, p in dist.items()) == 1


def test_a_look_ahead_budget_is_told_plainly():
    """A game's look-ahead gives up at a budget of its own (interp.max_branches), many times a
    game, and catches the E504 and plays on: it is not explained, which would cost the game."""
    ruleset = compile_text(SUMMED, "case.rules").ruleset
    spec = parse_fighter("bulk=10", "--attacker", ruleset, 0, []).spec
    interp = Interpreter(ruleset)
    interp.max_branches = 2_000
    with pytest.raises(RulesError) as caught:
        interp.exact("haul", {"f": Ref("fighter", 0)}, make_world(ruleset, [spec]))
    d = caught.value.diagnostic
    assert d.code == "E504" and d.message == ("too much to follow exactly (more than 2,000 "
                                              "steps and outcomes)")
    assert not d.related


HUGE = '''ruleset "t"
stat Might: 1..10 default 3
action summed(f: fighter) -> number {
  return 100d1000
}
action kept(f: fighter) -> number {
  return 60d1000 keep highest 3
}
action counted(f: fighter) -> number {
  let n = f.Might * 30
  return (n)d1000 drop lowest 2
}
'''


@pytest.mark.parametrize("action", ["summed", "kept", "counted"])
def test_a_huge_pool_in_sampled_play_is_rolled_die_by_die(action):
    """Sampled play of a pool too large to work out exactly gave E504; it needs no
    distribution: each die is drawn, the same in the interpreter and the generated code."""
    ruleset = compile_text(HUGE, "case.rules").ruleset
    spec = parse_fighter("might=3", "--attacker", ruleset, 0, []).spec
    world = make_world(ruleset, [spec])
    args = {"f": Ref("fighter", 0)}
    interpreted = [Interpreter(ruleset, rng=random.Random(seed), compiled=False)
                   .sample(action, args, world)[0] for seed in range(4)]
    generated = []
    for seed in range(4):
        interp = Interpreter(ruleset, rng=random.Random(seed))
        done = codegen.sample(interp, action, args, world)
        assert done is not None, "the generated code runs it"
        generated.append(done[0])
    assert interpreted == generated
    assert len(set(interpreted)) > 1


def test_exact_odds_of_a_huge_pool_still_refuse_with_the_same_message():
    """Exact odds cannot roll die by die: E504 at the roll, as before."""
    ruleset = compile_text(HUGE, "case.rules").ruleset
    spec = parse_fighter("might=3", "--attacker", ruleset, 0, []).spec
    with pytest.raises(RulesError) as caught:
        Interpreter(ruleset).exact("summed", {"f": Ref("fighter", 0)},
                                   make_world(ruleset, [spec]))
    d = caught.value.diagnostic
    assert d.code == "E504" and (d.span.line, d.span.column) == (4, 10)
    assert d.message == "the sum of 100 dice of 1000 faces is too big to work out exactly"
    assert d.hint == dice.SUM_HINT


def test_rolling_apart_keeps_and_drops_as_a_pool_does():
    rng = random.Random(1)
    single = dice.die(dice.standard_faces(6))
    assert dice.roll_apart(single, 5, (0, True), rng) == 0
    assert 3 <= dice.roll_apart(single, 3, None, rng) <= 18
    assert 1 <= dice.roll_apart(single, 10, (1, False), rng) <= 6
    # (kept dice are worked out face by face, as icepool does: only a huge pool is refused)
    assert dice.keep_fits(single, 4) and dice.keep_fits(dice.die(tuple(range(1, 101))), 4)
    assert not dice.keep_fits(dice.die(tuple(range(1, 1001))), 100, 50)
    assert dice.sum_fits(single, 10) and not dice.sum_fits(dice.die(tuple(range(1, 1001))), 100)


# Each case rewritten as its hint says: the odds are then worked out (the advice is right).
FOLLOWED = {
    "sum_die_by_die": [
        ("  repeat 40 times {\n    let crate = d100\n    set load += crate\n  }",
         "  set load += 40d100")],
    "counter_across_calls": [("set hero.XP += earned",
                              "set hero.XP = min(hero.XP + earned, 100)")],
    "dice_count_from_an_earlier_roll": [("(tries)d1000", "(min(tries, 9))d1000")],
}


@pytest.mark.parametrize("name", sorted(FOLLOWED))
def test_following_the_hint_gives_the_odds(name, tmp_path):
    path = CASES / f"{name}.rules"
    text = path.read_text(encoding="utf-8")
    for old, new in FOLLOWED[name]:
        assert old in text, old
        text = text.replace(old, new)
    fixed = tmp_path / f"{name}.rules"
    fixed.write_text(text, encoding="utf-8")
    result = CliRunner().invoke(app, ["odds", str(fixed), *_arguments(path)])
    assert result.exit_code == 0, result.output
    assert "fraction" in result.stdout
