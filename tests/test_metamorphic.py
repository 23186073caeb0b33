"""Metamorphic properties: a file's answer does not depend on what else is asked with it.

One run keeps what it can (a compiled ruleset, its schema, one interpreter per ruleset), so any
memo of that run keyed by a position (fighter #0) or an identity could hand one file's answer
to another. Issue 19 found one: a table keyed on a fighter kept its row by the fighter's index,
and validating one.yaml (fighter #0 of class A) then two.yaml (fighter #0 of class B) priced
two.yaml's fighter as one.yaml's. These properties ask the same questions alone and together,
in any order, and want the same answers:

1. `validate`: several files in one run give each file exactly the diagnostics (and totals) it
   gets alone; generated rulesets whose costs, limits, quotas and army rules of the author's
   own (`every f in fighters ...`, counts, `require`, group sizes, unique classes, `quota each`,
   limits per points: issue 20) read fighter-keyed tables, and the shipped warbands;
2. `roster`: the roster built from a run over several files is the roster of the file alone;
3. `convert`: converting several files one after another gives each what it gets alone;
4. `odds`: one interpreter asked about several pairs of fighters (as a game asks about its
   fighters all game long) answers each as a fresh one does, exactly and sampled, generated
   code and interpreter; and `warband odds FILE#NAME` agrees with the fighter given alone.

Budgets are modest (a few dozen examples); HYPOTHESIS_PROFILE=large runs the large profile
(tests/conftest.py).
"""

from __future__ import annotations

import itertools
import json
import random
import shutil
import tempfile
from dataclasses import astuple
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from warband.cli import app
from warband.lang.compiler import load
from warband.lists.convert import convert
from warband.lists.roster import build, roster
from warband.lists.validate import Validation
from warband.run import odds
from warband.run.interpreter import Interpreter, Policies
from warband.run.world import FighterSpec, Ref, make_world

ROOT = Path(__file__).resolve().parents[1]
SHIPPED = sorted((ROOT / "warbands").glob("*.yaml"))


def budget(examples: int):
    """`examples` in the default run; the large profile's count when it is loaded."""
    if settings.get_current_profile_name() == "large":
        return settings(settings.get_profile("large"))
    return settings(max_examples=examples, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


# ---- generated rulesets and warbands ------------------------------------------------------------

CLASSES = ("A", "B", "C")
CONDITIONS = ("f is A", "f is B", "f is C", "f is low", "f is high", "f has Tough",
              "f has Quick", "f.Skill >= 4", "f.Skill >= 8", "f.Stunned", "not (f is A)")


@st.composite
def rules_texts(draw, name: str) -> str:
    """A small ruleset whose army reads a fighter-keyed table, and an action that reads it
    before and after changing the fighter."""
    rows = draw(st.lists(st.tuples(st.sampled_from(CONDITIONS), st.integers(1, 30)),
                         min_size=1, max_size=4, unique_by=lambda r: r[0]))
    last = draw(st.integers(1, 30))
    table = "\n".join(f"  when {c} => {v}" for c, v in rows)
    cost = draw(st.sampled_from(["price(f)", "price(f) + f.Skill", "price(f) * 2"]))
    army = [f"  cost(f) = {cost}", f"  points {draw(st.integers(10, 120))}"]
    if draw(st.booleans()):
        army.append(f"  size at most {draw(st.integers(1, 6))}")
    if draw(st.booleans()):
        kind, target = draw(st.sampled_from([("class", c) for c in CLASSES]
                                            + [("tier", "low"), ("trait", "Tough")]))
        bound = draw(st.sampled_from(["at most", "at least"]))
        army.append(f"  quota {kind} {target} {bound} {draw(st.sampled_from(['1', '2', '1/2']))}")
    # the author's own army rules (issue 20): they read the fighter-keyed table too, over the
    # fighters (an entry's count expanded) and the entries
    condition = draw(st.sampled_from(CONDITIONS[:7]))
    if draw(st.booleans()):
        army.append(f'  every f in fighters where {condition}: price(f) <= '
                    f'{draw(st.integers(5, 30))} "cheap enough"')
    if draw(st.booleans()):
        army.append(f'  at most {draw(st.integers(0, 3))} f in fighters where {condition} '
                    '"not too many"')
    if draw(st.booleans()):
        army.append(f'  require total(price(f) for f in fighters) <= points + '
                    f'{draw(st.integers(0, 20))} "within the game"')
    if draw(st.booleans()):
        army.append('  every e in entries: e.count <= 2 or e.fighter is B "small groups"')
    if draw(st.booleans()):
        army.append(f"  quota each class at most {draw(st.integers(1, 4))}")
    if draw(st.booleans()):
        army.append("  quota tier low at most 1 per 20 points")
    a_extra = draw(st.sampled_from(["", "group 1..2", "single"]))
    b_extra = draw(st.sampled_from(["", "unique", "single unique"]))
    army_text = "\n".join(army)
    return f'''ruleset "{name}"
  title "Generated {name}"
  version "1"

stat Skill: 1..10 "how good"
tier low "low classes"
tier high "high classes"
trait Tough "hard to hurt"
trait Quick "moves far"
flag Stunned on fighter "stunned"

class A {{ tier low traits Tough {a_extra} }}
class B {{ tier high {b_extra} }}
class C {{ tier low traits Quick }}

table price(f: fighter) -> points "a fighter's price, by what it is" {{
{table}
  otherwise => {last}
}}

army "generated" {{
{army_text}
}}

action duel(attacker: fighter, target: fighter) -> number
  "reads the table before and after stunning the target"
{{
  let before = price(target)
  set target.Stunned = true
  let after = price(target)
  let mine = price(attacker)
  return mine * 10000 + before * 100 + after + d6
}}
'''


@st.composite
def warband_texts(draw, rulesets: list[str]) -> str:
    lines = ["name: Generated", f"ruleset: {draw(st.sampled_from(rulesets))}"]
    if draw(st.booleans()):
        lines.append(f"points: {draw(st.integers(5, 150))}")
    lines.append("fighters:")
    for i in range(draw(st.integers(1, 4))):
        name = draw(st.sampled_from([f"f{i}"] * 4 + ["twin"]))   # twins: W701
        skill = draw(st.integers(1, 11))   # 11: refused by the schema
        lines += [f"  - name: {name}", f"    class: {draw(st.sampled_from(CLASSES))}",
                  f"    skill: {skill}"]
        count = draw(st.sampled_from([None, None, 2, 3]))
        if count is not None:
            lines.append(f"    count: {count}")
    return "\n".join(lines) + "\n"


@st.composite
def worlds(draw):
    """Rulesets (one or two) and warband files in a fresh folder: (folder, file paths)."""
    names = ["gen-a.rules", "gen-b.rules"][:draw(st.integers(1, 2))]
    texts = {n: draw(rules_texts(n.removesuffix(".rules"))) for n in names}
    files = [draw(warband_texts(names)) for _ in range(draw(st.integers(2, 4)))]
    folder = Path(tempfile.mkdtemp(prefix="metamorphic-"))
    for n, text in texts.items():
        (folder / n).write_text(text)
    paths = []
    for i, text in enumerate(files):
        path = folder / f"w{i}.yaml"
        path.write_text(text)
        paths.append(str(path))
    return folder, paths


def _seen(result) -> tuple:
    """Everything validation says of one file."""
    return (result.file, result.unusable, result.total, result.limit, result.size,
            [astuple(d) for d in result.diagnostics])


def _alone(paths: list[str]) -> dict:
    return {p: _seen(Validation().file(p)) for p in paths}


def _together(paths: list[str]) -> dict:
    return {r.file: _seen(r) for r in Validation().run(paths).files}


# ---- 1. validate --------------------------------------------------------------------------------

@budget(25)
@given(worlds(), st.randoms(use_true_random=False))
def test_validating_together_is_validating_each_alone(world, rng):
    folder, paths = world
    try:
        alone = _alone(paths)
        order = paths[:]
        rng.shuffle(order)
        assert _together(order) == alone
        assert _together(order + order) == alone   # a file twice: the same answer twice
    finally:
        shutil.rmtree(folder)


@budget(10)
@given(st.permutations([str(p) for p in SHIPPED]))
def test_shipped_warbands_in_any_order(order):
    if not _SHIPPED_ALONE:   # worked out once, inside a test (its cache folder is the tests')
        _SHIPPED_ALONE.update(_alone(order))
    assert _together(order) == _SHIPPED_ALONE


_SHIPPED_ALONE: dict = {}


# ---- 2. roster ----------------------------------------------------------------------------------

@budget(15)
@given(worlds(), st.randoms(use_true_random=False))
def test_rosters_of_a_run_are_each_files_roster(world, rng):
    folder, paths = world
    try:
        alone = {p: roster(p).model for p in paths}
        order = paths[:]
        rng.shuffle(order)
        together = {}
        report = Validation().run(order)
        for result in report.files:
            usable = not (result.unusable or result.warband is None or result.ruleset is None)
            # (the sources: a malformed entry's card is named from the file's text)
            together[result.file] = build(result, report.sources) if usable else None
        assert together == alone
    finally:
        shutil.rmtree(folder)


def test_shipped_rosters_in_one_run():
    paths = [str(p) for p in SHIPPED]
    report = Validation().run(paths[::-1])
    together = {r.file: build(r, report.sources) for r in report.files}
    assert together == {p: roster(p).model for p in paths}


# ---- 3. convert ---------------------------------------------------------------------------------

# A conversion from a house-rules file named by its path is not found by `warband convert`
# (it looks conversions up by the source's id): the generated rules are the target here.
CONVERSION = '''ruleset "sss-to-gen"
  title "Super Simple Skirmish figures in the generated rules"
  version "1"

conversion (f) from "super-simple-skirmish" to "gen-a.rules" "Might in quarters" {
  class A when f is common "common classes"
  class B when f is rare "rare classes"
  class C otherwise
  stat Skill = f.Might / 4
  trait otherwise drop "the generated rules have other traits"
  fit Skill "scaled down to the points"
}
'''

@st.composite
def sss_texts(draw) -> str:
    """A valid Super Simple Skirmish warband: at least half common classes, at most two rare,
    at most 100 Might."""
    lines = ["name: Forces", "ruleset: super-simple-skirmish"]
    if draw(st.booleans()):
        lines.append(f"points: {draw(st.integers(100, 150))}")
    lines.append("fighters:")
    for i in range(draw(st.integers(1, 4))):
        classes = ("Soldier", "Warrior", "Beast", "Drone") if i % 2 == 0 else (
            "Gunner", "Sniper", "Monster", "Warrior")
        lines += [f"  - name: s{i}", f"    class: {draw(st.sampled_from(classes))}",
                  f"    might: {draw(st.integers(1, 25))}"]
    return "\n".join(lines) + "\n"


def _converted(path: str, target: str, using: list[str]) -> tuple:
    done = convert(path, target, using=using)
    return (done.text, done.valid, done.unusable, [astuple(d) for d in done.diagnostics])


# (each conversion parses its two rulesets again, a third of a second: a few examples only)
@budget(4)
@given(worlds(), st.lists(sss_texts(), min_size=2, max_size=3), st.randoms(use_true_random=False))
def test_converting_one_after_another_is_converting_each_alone(world, texts, rng):
    folder, _ = world
    try:
        (folder / "conv.rules").write_text(CONVERSION)
        paths = []
        for i, text in enumerate(texts):
            (folder / f"s{i}.yaml").write_text(text)
            paths.append(str(folder / f"s{i}.yaml"))
        using, target = [str(folder / "conv.rules")], str(folder / "gen-a.rules")
        alone = {p: _converted(p, target, using) for p in paths}
        assert any(text is not None for text, *_ in alone.values())
        order = paths[:]
        rng.shuffle(order)
        assert {p: _converted(p, target, using) for p in order} == alone
    finally:
        shutil.rmtree(folder)


def test_shipped_conversions_in_any_order():
    paths = [str(ROOT / "warbands" / n) for n in ("vaguely-defined-menace.yaml",
                                                  "dungeon-delvers.yaml")]
    target = "super-simple-skirmish"
    first = {p: _converted(p, target, []) for p in paths}
    assert {p: _converted(p, target, []) for p in reversed(paths)} == first


# ---- 4. odds ------------------------------------------------------------------------------------

def _specs(folder: Path, paths: list[str]) -> list[tuple[str, FighterSpec]]:
    """(ruleset file, a fighter) for every fighter of the valid files."""
    out = []
    for result in Validation().run(paths).files:
        if result.failed() or result.warband is None:
            continue
        ref = result.warband.ruleset_ref
        out += [(str(folder / ref), f.spec()) for f in result.warband.fighters]
    return out


def _pair_world(ruleset, a: FighterSpec, b: FighterSpec):
    return make_world(ruleset, [FighterSpec(a.name, 0, a.fighter_class, a.stats, a.traits),
                                FighterSpec(b.name, 1, b.fighter_class, b.stats, b.traits)])


ARGS = {"attacker": Ref("fighter", 0), "target": Ref("fighter", 1)}


@budget(15)
@given(worlds(), st.randoms(use_true_random=False))
def test_one_interpreter_answers_every_pair_as_a_fresh_one(world, rng):
    folder, paths = world
    try:
        fighters = _specs(folder, paths)
        by_rules: dict[str, list] = {}
        for rules, spec in fighters:
            by_rules.setdefault(rules, []).append(spec)
        for rules, specs in by_rules.items():
            ruleset = load(rules).ruleset
            pairs = [(a, b) for a in specs for b in specs][:12]
            rng.shuffle(pairs)
            for compiled in (True, False):
                shared = Interpreter(ruleset, compiled=compiled)
                for n, (a, b) in enumerate(pairs):
                    w = _pair_world(ruleset, a, b)
                    fresh = Interpreter(ruleset, compiled=compiled)
                    assert shared.exact("duel", ARGS, w) == fresh.exact("duel", ARGS, w)
                    shared.rng, fresh.rng = random.Random(n), random.Random(n)
                    assert shared.sample("duel", ARGS, w)[0] == fresh.sample("duel", ARGS, w)[0]
    finally:
        shutil.rmtree(folder)


@budget(6)
@given(rules_texts("gen-a"),
       st.lists(st.tuples(st.sampled_from(CLASSES), st.integers(1, 10)), min_size=2, max_size=3))
def test_odds_of_fighters_from_several_files_is_odds_of_each_pair(rules, fighters):
    """`--attacker X.yaml#NAME --target Y.yaml#NAME`: each file validated in its turn, and the
    odds those of the two fighters given as they are."""
    folder = Path(tempfile.mkdtemp(prefix="metamorphic-"))
    try:
        (folder / "gen-a.rules").write_text(rules)
        files = []
        for i, (cls, skill) in enumerate(fighters):
            path = folder / f"f{i}.yaml"
            path.write_text(f"name: F{i}\nruleset: gen-a.rules\npoints: 10000\nfighters:\n"
                            f"  - name: n{i}\n    class: {cls}\n    skill: {skill}\n")
            result = Validation().file(str(path))
            if not result.failed():   # a quota may refuse a lone fighter
                files.append((str(path), result.warband.fighters[0]))
        ruleset = load(str(folder / "gen-a.rules")).ruleset
        for (x, a), (y, b) in list(itertools.permutations(files, 2))[:3]:
            expected = odds.as_json(odds.compute(
                ruleset, "duel", [odds.ParsedFighter(a.spec(0)), odds.ParsedFighter(b.spec(1))],
                {}, Policies()), ruleset, Policies())
            result = CliRunner().invoke(app, [
                "odds", str(folder / "gen-a.rules"), "--attacker", f"{x}#{a.name}",
                "--target", f"{y}#{b.name}", "--action", "duel", "--format", "json"])
            assert result.exit_code == 0, result.stdout
            got = json.loads(result.stdout)
            for key in ("attacker", "target", "with"):   # what was asked, as it was written
                got.pop(key, None)
            assert got == {k: v for k, v in expected.items()
                           if k not in ("attacker", "target", "with")}
    finally:
        shutil.rmtree(folder)


# ---- the bug of issue 19, as it was met -----------------------------------------------------------

def test_a_fighter_keyed_table_is_read_again_after_the_fighter_changes(tmp_path):
    """Within one run too: the row of `price(target)` before a stun is not the row after."""
    (tmp_path / "g.rules").write_text(
        'ruleset "g"\n  title "G"\n  version "1"\n\nstat Skill: 1..10 "skill"\nclass A { }\n'
        'flag Stunned on fighter "stunned"\n\n'
        'table worth(f: fighter) -> points "less while stunned" {\n'
        '  when f.Stunned => 1\n  otherwise => 5\n}\n\n'
        'action probe(f: fighter) -> number "a lookup before and after a change" {\n'
        '  let before = worth(f)\n  set f.Stunned = true\n  return before * 10 + worth(f)\n}\n')
    compiled = load(str(tmp_path / "g.rules"))
    assert compiled.ruleset is not None, compiled.errors
    w = make_world(compiled.ruleset, [FighterSpec("x", 0, "A", {"Skill": 1})])
    for generated in (True, False):
        interp = Interpreter(compiled.ruleset, compiled=generated)
        assert interp.exact("probe", {"f": Ref("fighter", 0)}, w).only() == 51
        assert interp.sample("probe", {"f": Ref("fighter", 0)}, w)[0] == 51
