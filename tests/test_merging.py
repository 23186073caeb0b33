"""Exact odds that merge (issue 35, run/merging.py) give exactly the fractions that following
every path on its own gives.

- Twins: every procedure of every shipped ruleset (and of the test rules that merge), on random
  worlds, arguments and policies, run exactly both ways (Interpreter.merge True and False), with
  what the run changed in the World observed: the same joint distribution, or the same error.
- Brute force: small rules, one for each form of merging (a dead `let`, a loop's counter, a
  caller's locals held across a call, a roll kept whole across a call, an `else if`, decisions,
  fighters' and sides' values, `for each`, a dice argument), against plain Python enumerating
  every die.
- Work: merging makes the work grow with the distinct situations, so naming intermediate
  results with `let`s costs about nothing (a property over generated rules), and an attack
  repeated N times costs about N times one attack.
"""

from __future__ import annotations

import itertools
import random
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from test_codegen import random_args, random_policies, random_world
from warband import catalog
from warband.lang.compiler import compile_text, load
from warband.run import expr_reads, statements
from warband.run.decisions import Policies
from warband.run.evaluate import RulesError
from warband.run.interpreter import Interpreter
from warband.run.world import FighterSpec, Ref, make_world

ROOT = Path(__file__).resolve().parents[1]
SHIPPED = [b.id for b in catalog.rulesets()]
MERGING = sorted((ROOT / "tests" / "merging").glob("*.rules"))
A, B = Ref("fighter", 0), Ref("fighter", 1)


def compiled(text: str):
    result = compile_text(text, "inline.rules")
    assert result.ruleset is not None, [(d.code, d.message) for d in result.diagnostics]
    return result.ruleset


def exact_both_ways(ruleset, procedure: str, args: dict, world, policies: Policies,
                    observe=None):
    """(merged, unmerged): each the joint distribution, or the error's code and message."""
    out = []
    for merge in (True, False):
        interp = Interpreter(ruleset, policies)
        interp.merge, interp.plain_first = merge, False   # (merged from the start)
        try:
            out.append(("ok", interp.exact(procedure, args, world, observe=observe)))
        except RulesError as error:
            out.append(("error", error.diagnostic.code, error.diagnostic.message))
    return out


def _state(world) -> tuple:
    return world.state_key()


def twins(ruleset, seeds: int, monkeypatch) -> int:
    """Every procedure of a ruleset, exactly both ways on random worlds: the same result, or
    the same error; a run that gives up (E504) unmerged may finish merged, never the other
    way round. Returns how many finished both ways."""
    # (a smaller limit: the runs that follow every path on their own give up sooner)
    monkeypatch.setattr(statements, "MAX_BRANCHES", 40_000)
    monkeypatch.setattr(expr_reads, "MAX_BRANCHES", 40_000)
    agreed = 0
    for name, decl in ruleset.procedures.items():
        for seed in range(seeds):
            rng = random.Random(hash((name, seed)) & 0xFFFF_FFFF)
            world = random_world(ruleset, rng)
            args = random_args(decl, world, rng, ruleset)
            policies = random_policies(ruleset, rng)
            if rng.random() < 0.3:
                policies.default = "greedy"
            merged, unmerged = exact_both_ways(ruleset, name, args, world, policies,
                                               observe=_state)
            if unmerged[0] == "error" and unmerged[1] == "E504":
                assert merged[0] == "ok" or merged[1] == "E504", (name, seed, merged)
                continue
            assert merged == unmerged, (name, seed, args, policies)
            agreed += merged[0] == "ok"
    return agreed


@pytest.mark.parametrize("ruleset_id", SHIPPED)
def test_shipped_procedures_merged_as_unmerged(ruleset_id, monkeypatch):
    ruleset = load(ruleset_id).ruleset
    assert twins(ruleset, 4, monkeypatch) > 0


@pytest.mark.parametrize("path", MERGING, ids=lambda p: p.stem)
def test_merging_rules_merged_as_unmerged(path, monkeypatch):
    ruleset = compiled(path.read_text(encoding="utf-8"))
    assert twins(ruleset, 6, monkeypatch) > 0


# ---- brute force, one rule for each form of merging ----------------------------------------------

def exact(text: str, action: str, policy: str = "first", specs=None, sides=None,
          observe=None, **args):
    ruleset = compiled(text)
    world = make_world(ruleset, specs or [FighterSpec("a", 0), FighterSpec("b", 1)], sides)
    results = []
    for merge in (True, False):
        interp = Interpreter(ruleset, Policies(policy))
        interp.merge, interp.plain_first = merge, False   # (merged from the start)
        results.append(interp.exact(action, {"f": A, **args}, world, observe=observe))
    assert results[0] == results[1]
    return dict(results[0].items())


def brute(sides: list[int], outcome) -> dict:
    """Every sequence of faces of the dice `sides`, tallied by outcome(faces)."""
    tally: dict = {}
    total = 1
    for s in sides:
        total *= s
    for faces in itertools.product(*(range(1, s + 1) for s in sides)):
        v = outcome(faces)
        tally[v] = tally.get(v, 0) + Fraction(1, total)
    return tally


def test_a_dead_let_merges():
    text = '''ruleset "t"
action a(f: fighter) -> number {
  let hits = 0
  repeat 4 times {
    let d = d6
    let doubled = d * 2
    let hit = doubled >= 8
    if hit { set hits += 1 }
  }
  return hits
}
'''
    assert exact(text, "a") == brute([6] * 4, lambda fs: sum(f >= 4 for f in fs))


def test_a_value_worked_out_from_a_roll_is_followed_once_per_value():
    """`let big = r >= 4` follows two paths, each with the roll narrowed to the faces that give
    it (run/lazy_rolls.py, _grouped): the roll read again afterwards, in a field's `set` and in
    arithmetic, still has exactly those faces."""
    text = '''ruleset "t"
counter Marks on fighter
action a(f: fighter) -> number {
  let r = d6
  let big = r >= 4
  let half = floor(r / 2)
  set f.Marks = min(r, 3)
  let bonus = if big then 10 else 0
  let s = d4
  let parity = min(r + s, 7)
  return r + bonus + half * 100 + f.Marks * 1000 + parity * 10000
}
'''
    def outcome(fs):
        r, s = fs
        return r + (10 if r >= 4 else 0) + (r // 2) * 100 + min(r, 3) * 1000 + \
            min(r + s, 7) * 10000
    assert exact(text, "a") == brute([6, 4], outcome)


def test_a_loop_counter_merges_and_a_sum_die_by_die_is_exact():
    text = '''ruleset "t"
action a(f: fighter) -> bool {
  let load = 0
  repeat 5 times {
    let crate = d4
    set load += crate
  }
  return load > 12
}
'''
    assert exact(text, "a") == brute([4] * 5, lambda fs: sum(fs) > 12)


def test_a_callers_locals_are_kept_across_a_call():
    """The caller's live locals are part of what the callee's return goes on with."""
    text = '''ruleset "t"
procedure hit(need: number) -> number {
  let d = d6
  if d >= need { return 1 }
  return 0
}
action a(f: fighter) -> number {
  let first = d6
  let bonus = if first == 6 then 10 else 0
  let dead = first * 3
  let h = hit(first)
  return h + bonus
}
'''
    def outcome(fs):
        first, d = fs
        return (1 if d >= first else 0) + (10 if first == 6 else 0)
    assert exact(text, "a") == brute([6, 6], outcome)


def test_a_roll_kept_whole_across_a_call_keeps_its_outcomes():
    """A roll read after a call is kept whole through it: its sub-distribution after the
    caller's `if` keys the callee's situations."""
    text = '''ruleset "t"
procedure save() -> bool {
  let s = d6
  return s >= 4
}
action a(f: fighter) -> number {
  let roll = 2d6
  if roll < 5 { return 0 }
  let saved = save()
  if saved { return 1 }
  if roll >= 10 { return 3 }
  return 2
}
'''
    def outcome(fs):
        roll, s = fs[0] + fs[1], fs[2]
        if roll < 5:
            return 0
        if s >= 4:
            return 1
        return 3 if roll >= 10 else 2
    assert exact(text, "a") == brute([6, 6, 6], outcome)


def test_else_if_chains_merge():
    text = '''ruleset "t"
action a(f: fighter) -> number {
  let total = 0
  repeat 3 times {
    let d = d6
    if d == 6 { set total += 2 } else if d >= 4 { set total += 1 } else if d == 1 { set total -= 1 }
  }
  return total
}
'''
    def score(d):
        return 2 if d == 6 else 1 if d >= 4 else -1 if d == 1 else 0
    assert exact(text, "a") == brute([6] * 3, lambda fs: sum(map(score, fs)))


DECIDED = '''ruleset "t"
counter Luck on side
action a(f: fighter) -> number {
  let wins = 0
  repeat 3 times {
    let d = d6
    choose again by f {
      option keep
      option reroll when f.side.Luck >= 1 {
        set f.side.Luck -= 1
        set d = d6
      }
    }
    if d >= 4 { set wins += 1 }
  }
  return wins
}
'''


def test_random_decisions_merge():
    """Each reroll taken half the time while Luck lasts: brute force over the choices too."""
    got = exact(DECIDED, "a", "random", sides=[{"Luck": 1}, {}])

    def runs(turn, luck, wins, p):
        if turn == 3:
            yield wins, p
            return
        for d in range(1, 7):
            q = p / 6
            if luck >= 1:
                yield from runs(turn + 1, luck, wins + (d >= 4), q / 2)
                for d2 in range(1, 7):
                    yield from runs(turn + 1, luck - 1, wins + (d2 >= 4), q / 12)
            else:
                yield from runs(turn + 1, luck, wins + (d >= 4), q)
    want: dict = {}
    for wins, p in runs(0, 1, 0, Fraction(1)):
        want[wins] = want.get(wins, 0) + p
    assert got == want


def test_greedy_decisions_merge():
    """The greedy reroll: keep a die of 4 or more, else reroll while Luck lasts, except a
    last token kept for a later turn when ... brute-force expectimax over every die."""
    got = exact(DECIDED, "a", "greedy", sides=[{"Luck": 2}, {}])

    def best(turn, luck, wins):   # -> {wins: probability}, greedy on the expected wins
        if turn == 3:
            return {wins: Fraction(1)}
        out: dict = {}
        for d in range(1, 7):
            options = [best(turn + 1, luck, wins + (d >= 4))]
            if luck >= 1:
                again: dict = {}
                for d2 in range(1, 7):
                    for v, p in best(turn + 1, luck - 1, wins + (d2 >= 4)).items():
                        again[v] = again.get(v, 0) + p / 6
                options.append(again)
            means = [sum(v * p for v, p in o.items()) for o in options]
            chosen = options[means.index(max(means))]
            for v, p in chosen.items():
                out[v] = out.get(v, 0) + p / 6
        return out
    assert got == best(0, 2, 0)


def test_fighter_and_side_values_are_part_of_a_situation():
    text = '''ruleset "t"
counter Wounds on fighter
counter Kills on side
action a(f: fighter, t: fighter) -> number {
  repeat 3 times {
    let d = d6
    if d >= 5 { set t.Wounds += 1 }
    if t.Wounds >= 2 {
      set f.side.Kills += 1
      set t.Wounds = 0
    }
  }
  return f.side.Kills
}
'''
    def outcome(fs):
        wounds = kills = 0
        for d in fs:
            if d >= 5:
                wounds += 1
            if wounds >= 2:
                kills, wounds = kills + 1, 0
        return kills, wounds
    got = exact(text, "a", t=B, observe=lambda w: w.fighters[1].values["Wounds"])
    assert got == brute([6] * 3, outcome)


UNREAD = '''ruleset "t"
counter Mark on fighter
flag Marked on fighter
counter Tally on side
action a(f: fighter, t: fighter) -> number {
  let hits = 0
  repeat 3 times {
    let r = d6
    set f.Mark = r
    set f.side.Tally = r
    if r >= 5 {
      set hits += 1
      set t.Marked = true
    }
  }
  choose double by f "twice the hits, at a cost when there are none" {
    option once
    option twice {
      return hits * 2 - 1
    }
  }
  return hits
}
'''


def _unread_runs(policy: str, observe):
    """(result, work) of UNREAD run merged with the unread values left out, merged with every
    value kept, and unmerged."""
    ruleset = compiled(UNREAD)
    world = make_world(ruleset, [FighterSpec("a", 0), FighterSpec("b", 1)])
    out = []
    for merge, forget in ((True, True), (True, False), (False, True)):
        interp = Interpreter(ruleset, Policies(policy))
        interp.merge, interp.forget, interp.plain_first = merge, forget, False
        found = interp.exact("a", {"f": A, "t": B}, world, observe=observe)
        out.append((dict(found.items()), interp.branches))
    return out


def test_values_nothing_reads_do_not_keep_situations_apart():
    """A fighter's and a side's value set from a roll that nothing reads again (Mark, Marked,
    Tally) is no part of a situation while the run gives the result alone: the same fractions,
    fewer situations; reported (observed), it is kept, and the fractions are those of every
    path."""
    from warband.run import merging
    ruleset = compiled(UNREAD)
    assert merging.unread_fields(ruleset, "a") == (frozenset({"Mark", "Marked"}),
                                                   frozenset({"Tally"}))

    def hits(fs):
        return sum(1 for r in fs if r >= 5)
    for policy, result in (("first", hits),
                           ("greedy", lambda fs: hits(fs) * 2 - 1 if hits(fs) else 0)):
        (forgot, less), (kept, more), (every, _) = _unread_runs(policy, None)
        assert forgot == kept == every == brute([6] * 3, result)
        assert less * 2 < more   # (the roll's six values of Mark and Tally: merged)
        observed = _unread_runs(policy, lambda w: (w.fighters[0].values["Mark"],
                                                   w.sides[0].values["Tally"]))
        assert observed[0][0] == observed[1][0] == observed[2][0] == brute(
            [6] * 3, lambda fs: (result(fs), (fs[-1], fs[-1])))


def test_for_each_merges_over_the_group():
    text = '''ruleset "t"
counter Hurt on fighter
action a(f: fighter) -> number {
  let downed = 0
  for each e in f.enemies {
    let d = d6
    if d >= 3 { set e.Hurt += 1 }
    if e.Hurt >= 1 { set downed += 1 }
  }
  return downed
}
'''
    specs = [FighterSpec("a", 0), FighterSpec("b", 1), FighterSpec("c", 1),
             FighterSpec("d", 1, state={"Hurt": 1})]
    got = exact(text, "a", specs=specs)
    assert got == brute([6] * 3, lambda fs: (fs[0] >= 3) + (fs[1] >= 3) + 1)


def test_a_dice_argument_rolls_anew_at_each_use_when_merged():
    text = '''ruleset "t"
procedure best_of(roll: dice, times: number) -> number {
  let best = 0
  repeat times times {
    let r = roll
    if r > best { set best = r }
  }
  return best
}
action a(f: fighter) -> number {
  let n = d2
  let top = best_of(d4 + n, 2)
  return top
}
'''
    def outcome(fs):
        n, x, y = fs
        return max(x + n, y + n)
    assert exact(text, "a") == brute([2, 4, 4], outcome)


# ---- work -----------------------------------------------------------------------------------------

def work(text: str, action: str, merge: bool = True, **args) -> tuple:
    """(the distribution, the steps and outcomes the run counted: Interpreter.branches)."""
    ruleset = compiled(text)
    world = make_world(ruleset, [FighterSpec("a", 0), FighterSpec("b", 1)])
    interp = Interpreter(ruleset, Policies())
    interp.merge, interp.plain_first = merge, False   # (merged from the start)
    dist = interp.exact(action, {"f": A, **args}, world)
    return dist, interp.branches


ATTACKS = '''ruleset "t"
action a(f: fighter, n: number) -> number {
  let wounds = 0
  repeat n times {
    let hit = d6
    if hit >= 3 {
      let wound = d6
      if wound >= 4 {
        let save = d6
        if save < 5 { set wounds += 1 }
      }
    }
    set wounds = min(wounds, 3)
  }
  return wounds
}
'''


def test_a_small_run_is_tried_path_by_path_first():
    """A run that weighs no decision is first followed path by path within PLAIN_STEPS steps
    (no keys built), and merged only when that is not enough: the same fractions either way,
    and the work a merged run counts when it is run again."""
    from warband.run import entry_points
    ruleset = compiled(ATTACKS)
    world = make_world(ruleset, [FighterSpec("a", 0), FighterSpec("b", 1)])
    for n, plain in ((1, True), (8, False)):
        found = {}
        for first in (True, False):
            interp = Interpreter(ruleset, Policies())
            interp.plain_first = first
            runs = []
            merged = Interpreter.run_cps

            def run_cps(self, *args, runs=runs):
                runs.append(self.max_branches)
                return merged(self, *args)
            Interpreter.run_cps = run_cps   # type: ignore[method-assign]
            try:
                found[first] = (interp.exact("a", {"f": A, "n": n}, world), interp.branches)
            finally:
                Interpreter.run_cps = merged   # type: ignore[method-assign]
            if first:   # (tried path by path; run again merging when it took too much)
                assert runs == ([entry_points.PLAIN_STEPS] if plain else
                                [entry_points.PLAIN_STEPS, None])
        assert found[True][0] == found[False][0]
        assert (found[True][1] <= entry_points.PLAIN_STEPS) == plain
        if not plain:
            assert found[True][1] == found[False][1]


def test_an_attack_repeated_n_times_costs_about_n_times_one():
    one = work(ATTACKS, "a", n=1)[1]
    ten = work(ATTACKS, "a", n=10)[1]
    assert ten <= 10 * 4 * one   # (at most 4 situations a turn: 0 to 3 wounds)
    unmerged = work(ATTACKS, "a", merge=False, n=6)[1]
    assert work(ATTACKS, "a", n=6)[1] * 10 < unmerged


# Generated rules: each a few rolls with names for what is worked out from them, written once
# with a `let` for each intermediate value and once with the expressions written in place.
_ROLLS = ["d6", "d4", "d8", "2d6", "d6 + 1"]
_OPS = ["+", "-", "*"]


@st.composite
def named_rules(draw):
    steps = []
    for _ in range(draw(st.integers(2, 5))):
        roll = draw(st.sampled_from(_ROLLS))
        op = draw(st.sampled_from(_OPS))
        k = draw(st.integers(1, 4))
        threshold = draw(st.integers(2, 12))
        steps.append((roll, op, k, threshold))
    return steps


def _written(steps, with_lets: bool) -> str:
    lines = ['ruleset "t"', "action a(f: fighter) -> number {", "  let score = 0"]
    for i, (roll, op, k, threshold) in enumerate(steps):
        lines.append(f"  let r{i} = {roll}")
        value = f"r{i} {op} {k}"
        if with_lets:
            lines.append(f"  let v{i} = {value}")
            lines.append(f"  let pass{i} = v{i} >= {threshold}")
            lines.append(f"  let gain{i} = if pass{i} then {k} else 0")
            lines.append(f"  set score += gain{i}")
        else:
            lines.append(f"  if {value} >= {threshold} {{ set score += {k} }}")
    lines += ["  return score", "}"]
    return "\n".join(lines) + "\n"


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(named_rules())
def test_naming_intermediate_results_costs_about_nothing(steps):
    named, named_work = work(_written(steps, True), "a")
    inline, inline_work = work(_written(steps, False), "a")
    assert named == inline
    # a `let` is a step of its own, and a value worked out per outcome is more outcomes to
    # weigh than an `if` splitting a roll in two; but never a power of the rolls
    assert named_work <= 6 * inline_work + 50
