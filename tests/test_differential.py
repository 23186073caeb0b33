"""Generated Python and the interpreter agree on every expression form, in every position.

test_codegen.py runs every procedure of the shipped rules both ways. This file goes by the
language instead: each form an expression can take (every node kind of lang/nodes.py, every
alternative of the grammar's expressions, every built-in field, function, aggregate and
operator: `test_every_form_has_a_case` fails when one is added without a case here) is put in
every position a rule can hold an expression:

- a procedure's `let`, `if` and `return`; a definition's body, called with names (put in place)
  and with other arguments (its own function); a table's condition and cell; a parameter's
  default (left out by the engine's caller, by a rule calling it, and by a rule whose callee
  is not put in place); an action's `requires` (asked as the interpreter asks it, and by the
  engine when it offers the action in a game);
- a scenario's score, value and end condition (as the engine asks them), and its set-up (a
  whole game).

Each is run through generated code and through the interpreter (`compiled = False`) on many
worlds, in a game (so distances and sight are the board's): the same value, or the same error,
and the same draws from the random streams. Cases are written with the fighter, side and number
they read as @f, @g (fighters), @s, @t (sides) and @n (a number), which each position binds
its own way. Hypothesis then builds expressions of its own from the same parts.
"""

from __future__ import annotations

import random
import re
import typing
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import test_codegen
from test_codegen import random_world
from warband.game.engine import Game
from warband.game.scenario import load_scenario
from warband.lang import nodes, typesystem
from warband.lang.compiler import load
from warband.lang.symbols import AGGREGATES, BUILTIN_FUNCTIONS, GAME_FUNCTIONS
from warband.run.codegen import hooks as codegen
from warband.run.codegen.program import Program
from warband.run.evaluate import RulesError
from warband.run.world import Ref

ROOT = Path(__file__).resolve().parents[1]

BASE = '''
ruleset "differential"
stat Might: 1..30
stat Speed: 0..8 default 4
enum Size { small big }
stat Bulk: Size default small
counter Wounds on fighter
flag Hurt on fighter
counter Fate on side
counter Out on side
flag Ready on side
trait Armor(N) max
trait Brave
trait Tough(N) sum
equipment Shield { grants Armor(1) }
equipment Spear { Reach = 3  traits Keen, Blast(2) }
# traits as values: a number a piece carries as its own trait (`w.Blast`)
trait Blast(N)
# weapon profiles: a value every piece carries, and a trait of the piece's own
stat Reach on equipment: 0..6 default 1
trait Keen
tier basic
tier rare
class Guard { tier basic  traits Brave  equipment Shield }
class Runner { tier rare  traits Tough(2) }
outcomes result { win = 2  lose = -1 }
marker wall impassable opaque

table band(x) -> label {
  0 => "none"
  1..3 => "low"
  otherwise => "high"
}
table by_size(k: Size) -> (speed, reach) {
  small => 4, 1
  big => 6, 2
}
table worth(f: fighter) -> v {
  when f.Hurt => 1
  when f.Might > 10 => f.Might / 4
  otherwise => 2
}
define half(x) = x / 2
define strength(f: fighter) = f.Might + f.Armor
define lead(s: side) = s.Fate + 1
define gap(s: side, t: side) = if s == t then 0 else s.Fate - t.Fate
define crowd(s: side) = total(1 for x in s.fighters)
define braves(group: fighters) = total(x.Might for x in group if x has Brave or x is Runner)
define same(b: bool) = b
table price(e: equipment) -> coins { Shield => 3  Spear => 5 }
table base(c: class) -> coins { Guard => 4  otherwise => 1 }
define gear(f: fighter) = base(f.class) + total(price(e) for e in f.equipment)
define sharp(e: equipment) = e == Spear
table cost(t: trait) -> points { Armor => 2  Brave => 3  Tough => 5  otherwise => 1 }
define pool_hits(p: pool) = (count >= 4 in p) * 10 + count == 6 in p + count > 100 in p
'''

# (type, expression): "number" or "bool"
CASES = [
    # literals, names
    ("number", "7"),
    ("bool", "true"),
    ("bool", "@f.Hurt == false"),
    ("bool", '@f.name == "A"'),
    ("number", "@n"),
    ("number", "red.Fate + blue.Fate"),
    ("number", "total(x.Fate for x in sides)"),
    ("bool", "(if @f.Hurt then win else lose) == win"),
    # fields: stats, counters, flags, traits, enums, the built-in ones
    ("number", "@f.Might + @f.Speed + @f.Wounds"),
    ("bool", "@f.Bulk == big"),
    ("number", "@f.Armor + @f.Tough"),
    ("bool", "@f.class == Guard or @f.tier == rare"),
    ("bool", "@f.removed or @f.withdrawn"),
    ("bool", "@f.removed_by == @g or @f.removed_by_side == @s"),   # who removed it
    ("bool", "@f.side == @s"),
    ("number", "@f.side.Fate"),
    ("number", "total(x.Might for x in @f.enemies) - total(1 for x in @f.friends)"),
    ("number", "total(1 for x in @s.fighters) + total(1 for x in @s.casualties) * 10"
               " + total(1 for x in @s.withdrawn) * 100"),
    ("number", "total(x.Fate for x in @s.opponents)"),
    ("number", "total(x.Might for x in fighters) + highest(x.Speed for x in fighters if x.Hurt)"
               " * 100"),   # every fighter in play
    ("bool", "@s.Ready or @s.conceded"),
    ("bool", '@s.name == "red"'),
    ("number", "by_size(@f.Bulk).reach * 10 + by_size(@g.Bulk).speed"),
    # arithmetic
    ("number", "@f.Might - @g.Might * 2 + @n"),
    ("number", "@f.Might / 3"),
    ("number", "@f.Might / (if @f.Hurt then 2 else 1)"),
    ("number", "@n / (@f.Wounds - @f.Wounds)"),
    ("number", "half(@f.Might) * 2 + half(@n + 1)"),
    ("number", "-@f.Might + -(@n)"),
    ("number", "(@f.Might + @g.Might) / 4 * 4"),
    # the remainder: floored (its sign the divisor's), exact for fractions, E502 for 0 as '/'
    ("number", "@f.Might % 3 + (@n - 10) % 4 * 10"),
    ("number", "(@f.Might / 3) % 2 - @n % -4"),
    ("number", "@n % (@f.Wounds - @f.Wounds)"),
    # comparisons, logic
    ("bool", "@f.Might >= @g.Might"),
    ("bool", "@f.Might <= @n or @f.Might > 20"),
    ("bool", "@f.Might / 3 < @g.Might / 2"),
    ("bool", "@f.Might != @g.Might and @f == @g"),
    ("bool", "@s != @t"),
    ("bool", "@f.Hurt and @g.Hurt or @s.Ready"),
    ("bool", "not @f.Hurt and (@n > 1 or @f has Brave)"),
    ("bool", "@f.Might > 2 and @g.Might > 2 and @n > 0"),
    ("bool", "not not @f.Hurt"),
    # if
    ("number", "if @f.Might > @g.Might then @f.Might else @g.Might"),
    ("number", "(if @f.Hurt then @s else @t).Fate"),
    ("number", "(if @n > 2 then @f else @g).Might"),
    # has, is
    ("bool", "@f has Shield or @g has Spear"),
    ("bool", "@f has Armor and not (@g has Brave)"),
    ("bool", "@f is Guard or @g is basic"),
    # calls: built-in functions, the board's questions, tables, definitions
    ("number", "min(@f.Might, @g.Might, @n) + max(@f.Might, 3)"),
    ("number", "floor(@f.Might / 4) + ceil(@g.Might / 4) * 10 + abs(@n - 3) * 100"),
    ("number", "isqrt(@f.Might + @n)"),
    ("number", "distance(@f, @g)"),
    ("number", "distance(@f, wall)"),
    ("bool", "sees(@f, @g) or obscured(@f, @g)"),
    ("bool", "contact(@f, @g) or engaged(@f)"),
    # pieces as values, positions, zones (issue 21: a board with state, moves the rules choose)
    ("number", "total(1 for p in pieces(wall)) + total(1 for p in @f.carrying) * 10"),
    ("number", "total(distance(@f, p) for p in pieces(wall) if not p.held and not p.carried)"),
    ("bool", "inside(@f, west) or inside(@g, east)"),
    # terrain with extent: on a marker's piece (an area), wholly or partly
    ("bool", "inside(@f, wall) or partly_inside(@g, wall) or "
             "any(partly_inside(@f, p) for p in pieces(wall))"),
    # one model of a unit with a different weapon: how many models carry a piece
    ("number", "carriers(@f, Shield) + carriers(@g, Spear) * 10 + total(carriers(@f, e) for e "
               "in @f.equipment) * 100"),
    ("number", "distance(@f, @g.position)"),
    # units of models with places: how many models are in range, see (one a fighter here)
    ("number", "models_in_range(@f, @g, 6) + models_seeing(@f, @g) * 10"),
    ("bool", 'band(@n) == "low" or band(@f.Wounds) == "none"'),
    ("number", "worth(@f) + worth(@g)"),
    ("number", "strength(@f) + strength(@g)"),
    ("number", "lead(@s) + lead(red) + gap(@s, @t) + gap(blue, @s)"),
    ("number", "crowd(@s) + crowd(blue)"),
    ("number", "total(lead(x) for x in sides)"),
    ("number", "braves(@s.fighters) + braves(@f.enemies) * 100"),   # members not known
    ("bool", "not same(true) or same(false) or same(@f.Hurt)"),   # constants put in place
    # dice
    ("number", "2d6 + @n"),
    ("number", "(@n)d6"),
    ("number", "4d6 drop lowest 1"),
    ("number", "(@n)d6 keep highest 2"),
    ("number", "3d6 reroll <= 2"),
    ("number", "d6 reroll even + d6 reroll odd"),
    ("number", "2d8 reroll in {1, 2}"),
    ("number", "d10 reroll < (@f.Speed)"),
    ("number", "count >= 4 in 3d6"),
    ("number", "count even in (@n)d6"),
    ("number", "count odd in 2d8 reroll in {1}"),
    ("number", "count in {1, 6} in 4d6"),
    ("number", "count > (@n) in 3d6"),
    ("bool", "d6 > 3"),
    # d(n): a die of a number of sides worked out as the rules run (0 sides: E403 both ways)
    ("number", "d(@n + 1) + d(@f.Speed + 1) * 10"),
    ("number", "d(@n) + d(@f.Might / 2)"),
    # dice pools: one roll asked several questions (a pool argument, and the questions of one)
    ("number", "pool_hits(pool (@n)d6) + pool_hits(pool 2d6 reroll == 1)"),
    ("number", "d6 rolled by @f + (@n)d6 keep highest 1 rolled by @s"),   # who rolls: the log
    ("number", "total(pool (@n)d6 keep highest 2) + size(pool 3d6 drop lowest 1)"),
    ("number", "highest(pool 3d6 reroll <= 2) * 10 + lowest(pool (@n)d8 reroll in {1})"),
    # groups
    ("number", "total(x.Might for x in fighters within 3 of @f)"),
    ("number", "total(x.Might for x in @s.fighters if x.Might > @n)"),
    ("number", "highest(x.Might for x in @s.fighters) - lowest(x.Might for x in @t.fighters)"),
    ("number", "highest(x.Might for x in @s.fighters if x.Might > 100)"),
    ("number", "total(1 for x in all(y for y in @s.fighters if y.Hurt))"),
    ("number", "total(x.Might for x in all(y for y in fighters within 5 of @f if y.Hurt))"),
    ("number", "total(highest(d6 for y in @t.fighters) for x in @s.fighters)"),
    # equipment: a piece's name as a value, a fighter's equipment as a group, tables keyed by
    # class and by equipment (a missing key is E501 both ways: `price` has no `otherwise`)
    ("number", "gear(@f) + gear(@g) * 100"),
    ("number", "total(price(e) for e in @f.equipment if e != Shield)"
               " + highest(price(e) for e in @g.equipment) * 10"
               " + lowest(price(e) for e in @f.equipment) * 100"),
    ("number", "total(1 for e in all(e for e in @f.equipment if sharp(e))) + total(1 for e in"
               " @g.equipment)"),
    ("bool", "base(@f.class) > 2 or (if @f.Hurt then Spear else Shield) == Spear"),
    # weapon profiles: a piece's values and own traits, and whether a fighter carries a piece
    ("number", "total(e.Reach for e in @f.equipment) + highest(e.Reach * 2 for e in "
               "@g.equipment if e has Keen) * 10 + Spear.Reach * 100"),
    ("bool", "total(1 for e in @f.equipment if @f has e and not (e has Keen)) > 0 or "
             "(Spear has Keen and @g has Keen)"),
    ("number", "total(d6 for e in @f.equipment if e == Spear)"),
    # traits as values: a fighter's traits and a piece's as groups, a table keyed by trait, a
    # piece's trait number; any, all and count over groups
    ("number", "total(cost(t) for t in @f.traits) + count(t for t in @g.traits) * 100"),
    ("number", "total(e.Blast for e in @f.equipment) + count(t for t in Spear.traits) * 10"
               " + Spear.Blast * 100 + Shield.Blast * 1000"),
    ("bool", "any(e has Keen for e in @f.equipment) or all(x.Might > @n for x in @s.fighters)"),
    ("number", "count(x.Hurt for x in fighters) + count(@f has t for t in @g.traits if"
               " t != Brave) * 10"),
    ("bool", "any(any(e has t for t in e.traits) for e in @f.equipment) or count(t for t in"
               " all(t for t in @f.traits if @g has t)) > 1"),
    ("bool", "all(d6 > 2 for x in @s.fighters) and any(d6 > 4 for x in @t.fighters if x.Hurt)"),
    # areas and templates, facing (run/areas.py, game/facing.py)
    ("number", "total(x.Might for x in fighters under square(@f, 3)) + total(1 for x in "
               "fighters under square(@g, 4, @f)) * 100"),
    ("bool", "@g is under circle(@f, 6) or @f is under cone(@g, @f, 8, 60)"),
    ("number", "total(x.Might for x in fighters under line(@f, @g, 6, 2)) + total(1 for x in "
               "fighters under cone(@f, @g, 5)) * 100"),
    ("bool", "in_front(@f, @g) and not in_rear(@g, @f, 90) or in_front(@g, @f, 45)"),
]


# ---- the rules each case is put in ---------------------------------------------------------

def sink(kind: str, text: str) -> str:
    """An expression of the case's type as a number."""
    return f"({text})" if kind == "number" else f"(if {text} then 1 else 0)"


def truth(kind: str, text: str) -> str:
    """An expression of the case's type as a truth value."""
    return f"({text})" if kind == "bool" else f"(({text}) > 3)"


def rolls(text: str) -> bool:
    """Whether a case rolls dice (a table's cells may not: E303)."""
    return re.search(r"(^|[^A-Za-z_])[0-9]*d([0-9]+|\()", text) is not None   # (d(n) too)


def bind(text: str, f: str = "f", g: str = "g", s: str = "s", t: str = "t", n: str = "n") -> str:
    return (text.replace("@f", f).replace("@g", g).replace("@s", s).replace("@t", t)
            .replace("@n", n))


PARAMS = "f: fighter, g: fighter, s: side, t: side, n: number"


def rules_for(kind: str, expr: str) -> str:
    """BASE with the case in every position, and a scenario that puts it in its own. A case
    that rolls is left out of the positions that must be fixed (E303): a table's cells, a
    default, a `requires`, a scenario's scores, values and end conditions."""
    e = bind(expr)
    num, test, tname = sink(kind, e), truth(kind, e), kind
    fixed = not rolls(expr)

    def grand(s: str, t: str, n: str) -> str:
        """In a scenario's expressions (no locals): two aggregates bind the fighters."""
        inner = sink(kind, bind(expr, s=s, t=t, n=n))
        return f"total(total({inner} for g in {t}.fighters) for f in {s}.fighters)"
    text = BASE + f'''
procedure body({PARAMS}) -> number {{
  let v = {e}
  if {test} {{
    return {sink(kind, "v")} + 100
  }}
  return {num}
}}
define def_case({PARAMS}) = {e}
procedure defines({PARAMS}) -> number {{
  let a = def_case(f, g, s, t, n)
  let b = def_case(f, g, s, t, n + 0)
  return {sink(kind, "a")} * 1000 + {sink(kind, "b")}
}}
'''
    if fixed:
        text += f'''
table tab_case({PARAMS}) -> (v, w) {{
  when {test} => {num}, 1
  otherwise => {num}, 2
}}
procedure tables({PARAMS}) -> number {{
  let r = tab_case(f, g, s, t, n)
  return r.v * 10 + r.w
}}
procedure dflt({PARAMS}, v: {tname} = {e}) -> {tname} {{
  return v
}}
procedure dflt_own({PARAMS}, v: {tname} = {e}) -> {tname} {{
  for each x in sides {{
    return v
  }}
  return v
}}
procedure defaults({PARAMS}) -> number {{
  let a = dflt(f, g, s, t, n)
  let b = dflt_own(f, g, s, t, n)
  return {sink(kind, "a")} * 1000 + {sink(kind, "b")}
}}
action req(f: fighter, g: fighter, s: side, t: side, n: number = 2)
  requires {test}
{{
  set f.Wounds += 1
  set s.Out += 1
}}
'''
    round_ = ("for each x in red.fighters { activate x using req }\n"
              "    for each x in blue.fighters { activate x using req }") if fixed else \
        "set blue.Out += 1"
    scored = f'''
  end when {grand("red", "blue", "1")} == -7
  end when {truth("number", grand("blue", "red", "3"))}
  score red = red.Out + {grand("red", "blue", "2")}
  score blue = {grand("blue", "red", "0")}
  value red = {grand("red", "blue", "4")}
  value blue = {grand("blue", "red", "-1")}''' if fixed else """
  score red = red.Out
  score blue = blue.Out"""
    return text + f'''
scenario arena {{
  board 12 by 12 inches
  side red {{
    fighter "A" {{ class Guard  stat Might = 5 }}
    fighter "B" {{ class Runner  stat Might = 12 }}
    fighter "C" {{ stat Might = 3  stat Bulk = big }}
  }}
  side blue {{
    fighter "D" count 2 {{ class Guard  stat Might = 8 }}
    fighter "E" {{ stat Might = 20  equipment Spear }}
  }}
  zone west = edge west depth 3
  zone east = edge east depth 3
  setup {{
    deploy red in west
    deploy blue in east
    place 2 wall by red apart 2
    set blue.Fate = 2
    for each f in red.fighters {{
      for each g in blue.fighters {{
        set red.Out += {sink(kind, bind(expr, s="red", t="blue", n="2"))}
      }}
    }}
  }}
  round {{
    {round_}
  }}
  rounds 2{scored}
}}
'''


# ---- running both ways -------------------------------------------------------------------------

def typed(value):
    """A value with the type of every number in it: 2 and Fraction(2) are equal in Python,
    but a rule's value is one or the other (a whole number is always an int)."""
    if type(value) in (bool, int, float, Fraction):
        return type(value).__name__, value
    if isinstance(value, (tuple, list)):
        return type(value).__name__, tuple(typed(v) for v in value)
    if isinstance(value, dict):
        return tuple((k, typed(v)) for k, v in value.items())
    if hasattr(value, "__dataclass_fields__") and not isinstance(value, Ref):
        return type(value).__name__, tuple(typed(getattr(value, f))
                                           for f in value.__dataclass_fields__)
    return value


def outcome(interp, run):
    try:
        result = ("ok", typed(run()))
    except RulesError as error:
        d = error.diagnostic
        result = ("error", d.code, d.message, d.span, d.hint)
    except Exception as error:   # (a crash must at least be the same crash)
        result = ("crash", type(error).__name__, str(error))
    return result, interp.rng.getstate(), interp.choice_rng.getstate()


def random_args(world, rng: random.Random) -> dict:
    fighters = [Ref("fighter", i) for i in range(len(world.fighters))]
    return {"f": rng.choice(fighters), "g": rng.choice(fighters),
            "s": Ref("side", rng.randrange(2)), "t": Ref("side", rng.randrange(2)),
            "n": rng.choice([0, 1, 2, 3, 5, 8, -1])}


def scenario_of(tmp_path: Path, text: str, name: str = "case"):
    path = tmp_path / f"{name}.rules"
    path.write_text(text, encoding="utf-8")
    scenario = load_scenario(str(path))
    assert not isinstance(scenario, list), [f"{d.span}: {d.message}" for d in scenario]
    return scenario


def games(scenario, seed: int) -> tuple[Game, Game]:
    fast, slow = Game(scenario, seed), Game(scenario, seed)
    slow.interp.compiled = False
    return fast, slow


def check_positions(scenario, seed: int, worlds: int = 12) -> None:
    """Every position of the case both ways, on `worlds` worlds, and two whole games."""
    ruleset = scenario.ruleset
    rng = random.Random(seed)
    fast, slow = games(scenario, seed)
    # the scenario's expressions, as the engine asks them
    asked = [(expr, f"score {side.name}") for side, expr, _ in scenario.decl.scores]
    asked += [(expr, f"value {side.name}") for side, expr in scenario.decl.values]
    asked += [(expr, f"end {i}") for i, expr in enumerate(scenario.decl.end_when)]
    values = [(key, fast._value(expr, key), slow._value(expr, key)) for expr, key in asked]
    for _ in range(worlds):
        world = random_world(ruleset, rng)
        args = random_args(world, rng)
        calls = [(name, "sample") for name in ("body", "defines", "tables", "defaults")
                 if name in ruleset.procedures]
        calls += [(name, how) for name, how in (("dflt", "sample"), ("req", "allowed"))
                  if name in ruleset.procedures] + [("body", "sampler")]
        for name, how in calls:
            given = args   # (dflt: v left out, so its default is worked out)
            if how == "sampler":
                run = fast.interp.sampler(name)
                got = outcome(fast.interp, lambda: run(world, *given.values()))
                how = "sample"
            else:
                got = outcome(fast.interp, lambda: getattr(fast.interp, how)(name, given, world))
            want = outcome(slow.interp, lambda: getattr(slow.interp, how)(name, given, world))
            assert got == want, (name, how, args, seed)
        for key, mine, theirs in values:
            got = outcome(fast.interp, lambda: mine(world))
            want = outcome(slow.interp, lambda: theirs(world))
            assert got == want, (key, seed)
    # whole games: generated (as simulate plays them), recorded (as play), interpreted
    for game_seed in (seed, seed + 1):
        fast, slow = games(scenario, game_seed)
        played = (fast, Game(scenario, game_seed, record=True), slow)
        # the result, the draws from both streams, and the World at the end
        results = [(outcome(g.interp, g.play), typed(g.final)) for g in played]
        assert results[0] == results[1] == results[2], game_seed


@pytest.mark.parametrize("kind,expr", CASES, ids=[e for _, e in CASES])
def test_every_form_in_every_position(tmp_path, kind, expr):
    scenario = scenario_of(tmp_path, rules_for(kind, expr))
    check_positions(scenario, seed=sum(map(ord, expr)))


@pytest.mark.parametrize("kind,expr", CASES[::3], ids=[e for _, e in CASES[::3]])
def test_every_form_through_callees_left_to_the_interpreter(tmp_path, monkeypatch, kind, expr):
    """The same, with every definition, table and procedure a generated function calls run by
    the interpreter (as when the generator does not take one, or Python refuses its text)."""
    compile_ = Program._compile

    def refuse(self, fname: str, lines: list[str]):
        if fname[:2] in ("p_", "d_", "t_"):
            self._fallbacks[fname] = "refused by the test"
            return None
        return compile_(self, fname, lines)
    monkeypatch.setattr(Program, "_compile", refuse)
    scenario = scenario_of(tmp_path, rules_for(kind, expr))
    check_positions(scenario, seed=sum(map(ord, expr)), worlds=6)
    assert "d_def_5f_case" in codegen.program_for(Game(scenario, 1).interp).fallbacks


# ---- that the cases cover the language ---------------------------------------------------------

# The grammar's expression alternatives (dsl/warband.lark, its "expressions" section), each
# with the node it makes: a new alternative fails test_every_form_has_a_case until named here.
GRAMMAR_FORMS = {
    "if_expr": nodes.IfExpr, "or_": nodes.Logic, "and_": nodes.Logic, "not_": nodes.Not,
    "compare": nodes.Compare, "has": nodes.Has, "is_": nodes.Is, "binary": nodes.Binary,
    "neg": nodes.Neg, "field": nodes.Field, "call": nodes.Call, "int_lit": nodes.Int,
    "str_lit": nodes.Str, "true_lit": nodes.Bool, "false_lit": nodes.Bool, "name": nodes.Name,
    "count": nodes.Count, "within": nodes.Within, "aggregate": nodes.Aggregate,
    "count_aggregate": nodes.Aggregate,   # count(x for x in group if C)
    "dice_lit": nodes.Dice, "dice_dyn": nodes.Dice, "keep_mod": nodes.KeepMod,
    "pool_roll": nodes.Dice,   # dice pools: `pool 3d6`
    "reroll_mod": nodes.RerollMod, "pred_even": nodes.PredEven, "pred_odd": nodes.PredOdd,
    "roller_mod": nodes.Name,   # `d6 rolled by f`: who rolls it (Dice.rolled_by)
    "pred_compare": nodes.PredCompare, "pred_set": nodes.PredSet,
    # the bare word `fighters`: a Name, every fighter in play (in army rules, a warband's
    # fighters, which neither generated code nor a game runs: tests/test_army_rules.py)
    "fighters_name": nodes.Name,
    # areas and templates: `fighters under AREA`, `f is under AREA`
    "fighters_in": nodes.Under, "in_area": nodes.Under,
}


def grammar_forms() -> set[str]:
    text = (ROOT / "dsl" / "warband.lark").read_text(encoding="utf-8")
    section = text[text.index("// ---- expressions"):text.index("// ---- tokens")]
    rules = set(re.findall(r"^\??([a-z_]+):", section, re.M))
    aliases = set(re.findall(r"->\s*([a-z_]+)", section))
    # a rule with no alternative of its own names (if_expr) makes its node itself
    return aliases | {r for r in rules if r in GRAMMAR_FORMS}


def walk(node, found: list) -> None:
    if isinstance(node, tuple):
        for item in node:
            walk(item, found)
    elif hasattr(node, "__dataclass_fields__"):
        found.append(node)
        for name in node.__dataclass_fields__:
            if name != "span":
                walk(getattr(node, name), found)


def case_nodes(kind: str, expr: str) -> list:
    """The nodes of a case as the parser makes them (each case compiles in the tests above)."""
    from warband.lang.parser import parse
    module, problems = parse(f'ruleset "x"\ndefine probe({PARAMS}) = {bind(expr)}\n', "case.rules")
    assert module is not None and not problems, expr
    found: list = []
    walk(module.decls[0].body, found)
    return found


def test_every_form_has_a_case():
    assert grammar_forms() == set(GRAMMAR_FORMS), "a grammar form without a case here"
    found = [n for kind, expr in CASES for n in case_nodes(kind, expr)]
    kinds = {type(n) for n in found}
    expected = set(typing.get_args(nodes.Expr)) | set(typing.get_args(nodes.Predicate)) | {
        nodes.KeepMod, nodes.RerollMod}
    assert expected - kinds == set(), "an expression node kind without a case here"
    assert set(GRAMMAR_FORMS.values()) <= kinds
    # the forms inside a kind: operators, functions, aggregates, built-in fields
    assert {n.op for n in found if type(n) is nodes.Binary} == {"+", "-", "*", "/", "%"}
    assert {n.op for n in found if type(n) is nodes.Compare} == {">=", "<=", "==", "!=", ">",
                                                                 "<"}
    assert {n.op for n in found if type(n) is nodes.Logic} == {"and", "or"}
    assert {n.kind.name for n in found if type(n) is nodes.Aggregate} == set(AGGREGATES)
    calls = {n.callee.name for n in found if type(n) is nodes.Call}
    assert set(BUILTIN_FUNCTIONS) | set(GAME_FUNCTIONS) <= calls
    assert {"band", "by_size", "worth", "half", "strength", "lead", "gap", "crowd", "braves",
            "same", "price", "base", "gear", "sharp", "cost"} <= calls   # tables: pure, of records,
    # reading the World, keyed by equipment and by class
    fields = {n.field.name for n in found if type(n) is nodes.Field}
    assert set(typesystem.FIGHTER_BUILTINS) | set(typesystem.SIDE_BUILTINS) <= fields
    assert {"Might", "Speed", "Wounds", "Hurt", "Armor", "Tough", "Bulk", "Fate",
            "Ready", "reach", "speed"} <= fields   # stats, counters, flags, traits, columns
    dice = [n for n in found if type(n) is nodes.Dice]
    assert {n.count_in_token for n in dice} == {True, False}
    assert {n.pool for n in dice} == {True, False}   # dice pools
    assert {n.callee.name for n in found if type(n) is nodes.Call} >= {"total", "highest",
                                                                      "lowest", "size"}
    assert {(m.keep, m.highest) for n in dice for m in n.mods
            if type(m) is nodes.KeepMod} >= {(True, True), (False, False)}


# ---- a `return` inside a loop of a procedure called for its value -----------------------------

# Each statement that repeats its body, as a loop whose `return` leaves the procedure. Generated
# code puts a short procedure in place of its call, where `return` becomes `break`: from inside
# a loop that would only leave the loop (a `for each ... by` loop was once missed, and its
# caller got the value after the loop). Every kind of loop is here: the test below fails when
# the language gains one without a case.
LOOPS = {
    nodes.ForEach: "for each x in {s}.fighters {{ {body} }}",
    nodes.ForSorted: "for each x in {s}.fighters by highest x.Might {{ {body} }}",
    nodes.Repeat: "repeat 2 times {{ {body} }}",
    nodes.While: "while {s}.Fate >= 0 at most 2 times {{ {body} }}",   # turn flow
}


def test_every_kind_of_loop_has_a_return_case():
    loops = {c for c in vars(nodes).values() if isinstance(c, type) and
             "body" in getattr(c, "__dataclass_fields__", {}) and
             c not in (nodes.Option, nodes.DefineDecl, nodes.ProcedureDecl, nodes.NamedCost,
                       nodes.EventDecl)}   # (an event's block: once, when it fires)
    assert loops == set(LOOPS)


@pytest.mark.parametrize("loop", list(LOOPS), ids=lambda c: c.__name__)
@pytest.mark.parametrize("nesting", ["{loop}", "if {s}.Fate >= 0 {{ {loop} }}",
                                     "{loop}\n  if {s}.Fate > 100 {{ return 7 }}"])
def test_a_return_inside_a_loop_leaves_the_procedure_both_ways(tmp_path, loop, nesting):
    inner = LOOPS[loop].format(s="s", body="return x.Might + 1"
                               if loop not in (nodes.Repeat, nodes.While) else "return s.Fate + 1")
    text = BASE + f'''
procedure found(s: side) -> number {{
  {nesting.format(loop=inner, s="s")}
  return 0
}}
procedure caller(s: side) -> number {{
  let v = found(s)
  return v * 10
}}
procedure stmt_caller(s: side) -> number {{
  found(s)
  return 1
}}
''' + rules_for("number", "1").split(BASE, 1)[1]
    scenario = scenario_of(tmp_path, text)
    ruleset = scenario.ruleset
    rng = random.Random(loop.__name__ + nesting)
    fast, slow = games(scenario, 1)
    for _ in range(8):
        world = random_world(ruleset, rng)
        for name in ("caller", "stmt_caller", "found"):
            args = {"s": Ref("side", rng.randrange(2))}
            got = outcome(fast.interp, lambda: fast.interp.sample(name, args, world))
            want = outcome(slow.interp, lambda: slow.interp.sample(name, args, world))
            assert got == want, (name, world)
    assert not codegen.program_for(fast.interp).fallbacks


@pytest.mark.parametrize("loop", list(LOOPS), ids=lambda c: c.__name__)
@pytest.mark.parametrize("group", ["s.fighters", "fighters"])
@pytest.mark.parametrize("nesting", ["{loop}", "if {s}.Fate >= 0 {{ {loop} }}",
                                     "repeat 2 times {{ {loop} }}"])
def test_a_bare_return_inside_a_loop_leaves_the_procedure_both_ways(tmp_path, loop, group,
                                                                    nesting):
    """The same for a bare `return`, in a procedure without a result called as a statement
    (inlined there unless it returns from a loop): the rest of it, after the loops, never runs,
    and its caller carries on after the call."""
    inner = LOOPS[loop].replace("{s}.fighters", group).replace(
        "by highest x.Might", "by highest x.Might, lowest x.Speed").format(
        s="s", body="set s.Out += 1\n if x.Might > 3 or s.Out > 1 { return }"
        if loop not in (nodes.Repeat, nodes.While) else "set s.Out += 1\n if s.Out > 1 { return }")
    text = BASE + f'''
procedure counted(s: side) {{
  {nesting.format(loop=inner, s="s")}
  set s.Out += 100
}}
procedure caller(s: side) -> number {{
  counted(s)
  set s.Out += 1000
  counted(s)
  return s.Out
}}
''' + rules_for("number", "1").split(BASE, 1)[1]
    scenario = scenario_of(tmp_path, text)
    rng = random.Random(loop.__name__ + group + nesting)
    fast, slow = games(scenario, 1)
    for _ in range(8):
        world = random_world(scenario.ruleset, rng)
        for name in ("caller", "counted"):
            args = {"s": Ref("side", rng.randrange(2))}
            got = outcome(fast.interp, lambda: fast.interp.sample(name, args, world))
            want = outcome(slow.interp, lambda: slow.interp.sample(name, args, world))
            assert got == want, (name, world)
    assert not codegen.program_for(fast.interp).fallbacks


# ---- the shipped rules: their scenarios' expressions, definitions and tables --------------------

SCENARIOS = ["sss-standard-game", "greedy-dudes-vs-menace", "smart-dungeon"]


@pytest.mark.parametrize("name", SCENARIOS)
def test_shipped_scenarios_alike(name):
    """Whole games both ways, and every score, value and end condition on the worlds of a game
    (each round's) and on random ones."""
    scenario = load_scenario(name)
    assert not isinstance(scenario, list), scenario
    asked = [(expr, f"score {side.name}") for side, expr, _ in scenario.decl.scores]
    asked += [(expr, f"value {side.name}") for side, expr in scenario.decl.values]
    asked += [(expr, f"end {i}") for i, expr in enumerate(scenario.decl.end_when)]
    for seed in (1, 2, 3):
        fast, slow = games(scenario, seed)
        played = (fast, Game(scenario, seed, record=True), slow)
        results = [(outcome(g.interp, g.play), typed(g.final)) for g in played]
        assert results[0] == results[1] == results[2], seed
    rng = random.Random(name)
    fast, slow = games(scenario, 7)
    program = codegen.program_of(fast.interp)
    worlds = [random_world(scenario.ruleset, rng) for _ in range(20)]
    # worlds along a game: what its round leaves
    game = Game(scenario, 5)
    kept = []
    game.check_end = lambda world, keep=game.check_end: (kept.append(world), keep(world))[1]
    game.play()
    worlds += [w.freeze() if hasattr(w, "freeze") else w for w in kept[::max(1, len(kept) // 20)]]
    for expr, key in asked:
        assert program.value(expr, key) is not None, key   # (generated, not interpreted)
        mine, theirs = fast._value(expr, key), slow._value(expr, key)
        for world in worlds:
            assert outcome(fast.interp, lambda: mine(world)) == \
                outcome(slow.interp, lambda: theirs(world)), (name, key)


def random_value(rng: random.Random, param, world):
    kind = param.type.name if param.type is not None else "number"
    if kind == "fighter":
        return Ref("fighter", rng.randrange(len(world.fighters)))
    if kind == "side":
        return Ref("side", rng.randrange(len(world.sides)))
    if kind == "bool":
        return rng.random() < 0.5
    if kind in ("number", "dice"):
        return rng.choice([0, 1, 2, 3, 4, 5, 6, 8, 10, 12, 15, 20, 25, -1])
    return None   # an enum, a class...: from the ruleset below


RULESETS = sorted(p.stem for p in (ROOT / "dsl").glob("*.rules"))   # house rules too


@pytest.mark.parametrize("ruleset_id", sorted(set(RULESETS) - set(test_codegen.SHIPPED)))
def test_shipped_house_rules_procedures_alike(ruleset_id):
    """test_codegen runs every procedure of the three systems both ways; the house rules
    shipped with them (layers that override their procedures, tables, definitions) too."""
    ruleset = load(str(ROOT / "dsl" / f"{ruleset_id}.rules")).ruleset
    assert ruleset is not None
    assert test_codegen.check_everything(ruleset, seeds=8) > 50


@pytest.mark.parametrize("ruleset_id", RULESETS)
def test_shipped_definitions_and_tables_alike(ruleset_id):
    """Every definition and table, called with arguments of its parameters' types, through
    its generated function and through the interpreter."""
    from warband.run.interpreter import Interpreter
    ruleset = load(str(ROOT / "dsl" / f"{ruleset_id}.rules")).ruleset
    rng = random.Random(ruleset_id)
    symbols = {name: [m[0] for m in members] for name, members in ruleset.enums.items()}
    symbols.update({"class": list(ruleset.classes), "tier": list(getattr(ruleset, "tiers", ())),
                    "equipment": list(ruleset.equipment)})
    runs = 0
    for kind, decls in (("d", ruleset.defines), ("t", ruleset.tables)):
        for name, decl in decls.items():
            for seed in range(15):
                world = random_world(ruleset, rng)
                args = []
                for p in decl.params:
                    value = random_value(rng, p, world)
                    if value is None:
                        options = symbols.get(p.type.name) or [p.type.name]
                        value = rng.choice(options)
                    args.append(value)
                fast = Interpreter(ruleset, rng=random.Random(seed))
                slow = Interpreter(ruleset, rng=random.Random(seed), compiled=False)
                fast.exact_mode = slow.exact_mode = False   # (sampling: one roll each)
                function = codegen.program_for(fast)._materialise(kind, name)
                call = nodes.Call(decl.name, (), decl.span)
                run = (lambda: function(fast, world, *args)) if kind == "d" else \
                    (lambda: function(fast, world, call, *args))
                assert outcome(fast, run) == outcome(slow, lambda: slow.call(name, args, None,
                                                                             world)), \
                    (name, args)
                runs += 1
    assert runs > 50


# ---- expressions hypothesis makes of the same parts ----------------------------------------------

NUMBER_LEAVES = ["0", "1", "2", "3", "7", "1000", "@n", "@f.Might", "@g.Wounds", "@f.Speed",
                 "@s.Fate", "@t.Out", "@f.Armor", "@g.Tough", "red.Fate", "distance(@f, @g)",
                 "distance(@g, wall)", "worth(@f)", "strength(@g)", "lead(@t)", "lead(blue)",
                 "crowd(@s)", "by_size(@f.Bulk).reach", "@f.side.Fate", "(@f.Might / 3)",
                 "half(@n)", "(@n / (@g.Wounds - @g.Wounds))", "lead(@f.side)",
                 "braves(@s.fighters)", "braves(@f.enemies)", "gap(@s, red)", "gear(@g)",
                 "total(price(e) for e in @f.equipment)"]
BOOL_LEAVES = ["true", "false", "@f.Hurt", "@s.Ready", "@f has Shield", "@g has Brave",
               "@f is Guard", "@g is rare", "@f == @g", "@s == @t", "@f.side == @s",
               "@g.side != red", "sees(@f, @g)", "contact(@f, @g)", "engaged(@g)",
               'band(@n) == "low"', "@f.Bulk == big", "@f.removed", "@g.class == Runner",
               "same(@f.Hurt)", "same(true)", "sharp(Shield)"]
GROUPS = ["fighters", "@s.fighters", "@t.casualties", "@f.enemies", "@g.friends", "fighters within 4 of @f",
          "all(y for y in @s.fighters if y.Hurt)", "red.fighters", "sides"]
ROLLS = ["d6", "2d6", "(@n)d6", "3d6 keep highest 2", "d8 reroll <= 2", "count >= 4 in 3d6",
         "count even in (@n)d6", "4d6 drop lowest 1",
         "pool_hits(pool (@n)d6 reroll == 1)", "total(pool 3d6 keep highest 2)"]   # dice pools


@st.composite
def number_expr(draw, depth: int = 3, dice: bool = False):
    if depth == 0 or draw(st.integers(0, 3)) == 0:
        leaves = NUMBER_LEAVES + (ROLLS if dice else [])
        return draw(st.sampled_from(leaves))
    forms = ["op", "op", "neg", "if", "call", "aggregate", "half", "pick", "define"]
    form = draw(st.sampled_from(forms + (["dice", "count"] if dice else [])))
    sub = number_expr(depth - 1, dice)
    if form == "op":
        op = draw(st.sampled_from(["+", "-", "*", "/", "%"]))
        return f"({draw(sub)} {op} {draw(sub)})"
    if form == "neg":
        return f"-({draw(sub)})"
    if form == "if":
        return f"(if {draw(bool_expr(depth - 1, dice))} then {draw(sub)} else {draw(sub)})"
    if form == "half":
        return f"half({draw(sub)})"
    if form == "pick":   # a fighter or a side chosen by a condition
        field = draw(st.sampled_from(["(if {b} then @f else @g).Might",
                                      "(if {b} then @s else @t).Fate",
                                      "strength(if {b} then @g else @f)",
                                      "gap(if {b} then @s else @t, blue)"]))
        return field.format(b=draw(bool_expr(depth - 1, dice)))
    if form == "define":
        return f"lead(if {draw(bool_expr(depth - 1, dice))} then red else @t)"
    if form == "dice":
        return f"({draw(sub)})d6"
    if form == "count":
        return f"count >= ({draw(sub)}) in 3d6"
    if form == "call":
        name = draw(st.sampled_from(["min", "max", "floor", "ceil", "abs", "isqrt"]))
        args = [draw(sub) for _ in range(2 if name in ("min", "max") else 1)]
        return f"{name}({', '.join(args)})"
    # an aggregate: its value and condition read its member as @f (or @s over sides); an
    # inner one may use the outer one's name again
    kind = draw(st.sampled_from(["total", "highest", "lowest"]))
    group = draw(st.sampled_from(GROUPS))
    var = draw(st.sampled_from(["x", "y"]))
    member = "@s" if group == "sides" else "@f"
    value = draw(sub).replace(member, var)
    condition = ""
    if draw(st.booleans()):
        condition = f" if {draw(bool_expr(depth - 1, dice)).replace(member, var)}"
    if group.startswith("fighters within"):
        group = f"fighters within ({draw(number_expr(0))}) of @f"
    return f"{kind}({value} for {var} in {group}{condition})"


@st.composite
def bool_expr(draw, depth: int = 3, dice: bool = False):
    if depth == 0 or draw(st.integers(0, 3)) == 0:
        return draw(st.sampled_from(BOOL_LEAVES))
    form = draw(st.sampled_from(["compare", "compare", "not", "and", "or", "if", "same"]))
    if form == "compare":
        op = draw(st.sampled_from([">=", "<=", "==", "!=", ">", "<"]))
        return f"({draw(number_expr(depth - 1, dice))} {op} {draw(number_expr(depth - 1, dice))})"
    if form == "not":
        return f"not ({draw(bool_expr(depth - 1, dice))})"
    if form == "same":
        return f"same({draw(bool_expr(depth - 1, dice))})"
    if form == "if":
        return (f"(if {draw(bool_expr(depth - 1, dice))} then {draw(bool_expr(depth - 1, dice))}"
                f" else {draw(bool_expr(depth - 1, dice))})")
    items = [draw(bool_expr(depth - 1, dice)) for _ in range(draw(st.integers(2, 3)))]
    return "(" + f" {form} ".join(items) + ")"


@st.composite
def case(draw):
    dice = draw(st.integers(0, 3)) == 0
    if draw(st.booleans()):
        return "number", draw(number_expr(3, dice))
    return "bool", draw(bool_expr(3, dice))


@settings(max_examples=30, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(case())
def test_generated_expressions_in_every_position(tmp_path, generated):
    kind, expr = generated
    scenario = scenario_of(tmp_path, rules_for(kind, expr))
    check_positions(scenario, seed=len(expr), worlds=6)


# ---- every statement, in a game: set-up, rounds, actions, a marker's hook ------------------------

STATEMENTS = BASE + '''
class Squad "units of several models: wounds taken model by model" {
  models 2..4 default 3
  wounds per model = Tough
  traits Tough(2)
}
action volley(f: fighter, g: fighter) -> number
  requires g.side != f.side and g.models >= 1
{
  inflict count >= 4 in 3d6 wounds on g
  return g.models_start - g.models + g.wounds_left
}
marker gold obscuring when entered by who {
  set who.Wounds += 1
  set who.side.Out += 3
}

procedure halves(n) -> (number, bool) "several values at once" {
  let high = ceil(n / 2)
  return (high, n - high > 1)
}

procedure tally(s: side, by: number = 1) -> number {
  let n = 0
  for each x in s.fighters {
    if x.Hurt {
      set n += by * 2
    } else if x.Might > 6 {
      set n -= by
    } else {
      set n += by
    }
  }
  return n
}
action strike(f: fighter, g: fighter) -> number
  requires not f.Hurt and g.side != f.side and distance(f, g) <= 6
{
  let most = min(f.Might / 4, 3)
  choose hand (aim, guard) by f from 0..3 where aim + guard <= most default (most, 0)
  let hit = 2d6 + aim - guard
  if hit >= 9 {
    set g.Wounds += 1
    if g.Wounds >= 2 {
      remove g
      return 2
    }
    return 1
  }
  return 0
}
action step(f: fighter) -> number {
  let (far, more) = halves(f.Speed)
  travel f up to far + (if more then 1 else 0)
  return 0
}
action flee(f: fighter) requires f.Wounds >= 1 {
  choose where by f.side "Break off, or leave the table" {
    option away { travel f away 2 }
    option off when f.Hurt { withdraw f }
  }
}
action rest(f: fighter) {
  set f.Hurt = false
}
action glare(f: fighter, g: fighter) -> number
  "facing: turn to face an enemy behind, then count those under a cone towards it"
  requires g.side != f.side and in_rear(f, g, 270)
{
  face f towards g
  return total(1 for x in fighters under cone(f, g, 6)) + (if in_front(f, g, 10) then 10 else 0)
}
action rush(f: fighter, g: fighter) requires g.side != f.side and distance(f, g) > 0 {
  travel f up to f.Speed to g
}
action seek(f: fighter) requires f.Might > 6 {
  travel f up to 3 to gold
}
# pieces as values: state on pieces, carrying
marker coin "A coin anyone may carry"
marker trail "Where someone stepped from (position as a value)"
counter Shine on coin
action pocket(f: fighter) requires total(1 for c in f.carrying) == 0 {
  for each c in pieces(coin) {
    if not c.carried and not c.carried_off {
      travel f up to f.Speed to c
      if contact(f, c) and total(1 for k in f.carrying) == 0 {
        pick up c by f
        set c.Shine += 1
        set c.holder = f.side
      }
    }
  }
}
# a piece parameter, moving a piece, letting it go, areas at a piece and at a position
action plant(f: fighter, c: coin)
  requires not c.carried and not c.carried_off and c.holder != nobody and f.Might > 4
{
  choose drop within 3 of f by f "Where the coin is planted"
  put c at drop
  set c.holder = nobody
  for each x in fighters under circle(c, 2) {
    set x.Wounds += 1
  }
  if f is under square(drop, 3, c) {
    set c.Shine += 1
  }
}
# moves the rules choose
action slip(f: fighter) requires engaged(f) or total(1 for c in f.carrying) >= 1 {
  travel f up to 2 not into contact
  if total(1 for c in f.carrying) >= 1 {
    travel f up to 2 to west
  }
}
action spend(f: fighter) requires total(1 for c in f.carrying) >= 1 {
  for each c in f.carrying {
    put down c
  }
}
phase tidy(s: side) "a bare return: the first hurt fighter of everyone, by Speed then Might" {
  for each x in fighters by highest x.Speed, lowest x.Might {
    if x.Hurt and x.side == s {
      set x.Wounds += 1
      return
    }
  }
  set s.Out += 1
}
# decks and bags: a deck per game reshuffled when empty, a bag per side with a hand
enum Omen { Fair  Foul  Dire }
deck omens of Omen per game { 2 Fair  Foul  Dire  reshuffle when empty }
bag chits of Omen per side { 3 Fair  2 Foul }
table omen_worth(o: Omen) -> v { Fair => 1  Foul => 2  Dire => 3 }
phase muster(s: side) "a draw, a draw to the hand, a discard, a shuffle" {
  draw o from omens
  set s.Out += omen_worth(o)
  if s.chits.left >= 1 {
    draw c from s.chits to hand
    if c == Foul {
      discard Foul from s.chits
    }
  }
  if s.chits.left == 0 and s.chits.discards >= 1 {
    shuffle s.chits
  }
  set s.Fate += count(h == Fair for h in s.chits.hand)
}
# turn flow: a bounded while, break and continue, a side's turn ended from an action and a phase
phase drill(s: side) {
  let k = 0
  while k < 6 and s.Out < 80 at most 4 times {
    set k += d3
    if k == 2 {
      continue
    }
    for each x in s.fighters {
      if x.Wounds >= 2 {
        break
      }
      set s.Out += 1
    }
  }
  if s.Out > 30 and k > 3 {
    end turn of s
  }
}
# back into play: each casualty or withdrawn fighter of the side, once a game
phase revive(s: side) {
  for each x in s.casualties {
    if x.Wounds < 9 {
      set x.Wounds = 9
      if s == red {
        bring x back into west
      } else {
        bring x back into east
      }
    }
  }
  for each x in s.withdrawn {
    if x.Wounds < 9 {
      set x.Wounds = 9
      bring x back into middle
    }
  }
}
action bluster(f: fighter) requires f.Might > 15 and not f.side.turn_over {
  set f.side.Out += 1
  if d6 <= 2 {
    end turn
  }
}

scenario stmts {
  board 16 by 12 inches
  side red {
    fighter "A" { class Guard  stat Might = 5 }
    fighter "B" { class Runner  stat Might = 12 }
    fighter "C" { stat Might = 3  stat Bulk = big }
  }
  side blue {
    fighter "D" count 2 { class Guard  stat Might = 8 }
    fighter "E" { stat Might = 20  equipment Spear }
    fighter "F" { class Squad  stat Might = 6 }
  }
  zone west = edge west depth 3
  zone east = edge east depth 3
  zone middle = area (6, 2) to (10, 10)
  setup {
    deploy red in west
    deploy blue in east
    place wall at (8, 1)
    place wall from (8, 10) to (8, 11)
    place 2 gold by blue in middle apart 2
    place coin at (8, 6)
    place 1 coin by red in middle
    let bonus = 0
    choose pace by red "How fast the game starts" {
      option slow { set bonus = 1 }
      option fast when red.Fate == 0 { set bonus = 2  set red.Ready = true }
    }
    choose stake by blue from 0..3 default 1
    choose split (low, high) by red from 0..3 where low <= high and high - low != 1 default (1, 2)
    set red.Fate += low * 2 + high
    set blue.Fate = stake + bonus
    repeat 2 times {
      set red.Fate += 1
    }
    for each x in sides by highest x.Fate {
      let counted = tally(x)
      set x.Out += counted
    }
    choose victim by red among blue.fighters
    set victim.Hurt = true
    tally(blue, 2)
  }
  round {
    for each s in sides by lowest s.Fate {
      for each f in s.fighters {
        activate f using strike, step, flee, rush, seek, volley, pocket, spend, slip, plant,
          bluster as done
        if done == "none" {
          activate f using rest, glare
        } else if f.Might > 10 and not f.removed {
          activate f except done
        }
      }
      tidy(s)
      muster(s)
      drill(s)
      revive(s)
      for each f in s.fighters {
        if f.Wounds >= 1 {
          place trail at f.position
        }
      }
      if total(1 for c in pieces(coin) if c.holder == nobody) >= 1 {
        choose prize by s among all(c for c in pieces(coin) if c.holder == nobody)
        set prize.Shine += 2
      }
      if s.Out > 40 {
        concede s
      }
    }
  }
  rounds 4
  score red = red.Out + total(x.Wounds for x in blue.fighters) + total(1 for x in blue.casualties)
    + total(c.Shine for c in pieces(coin) if c.holder == red)
    + total(distance(x, x.position) for x in red.fighters) + total(1 for t in pieces(trail)) / 10
  score blue = blue.Out + total(1 for x in red.casualties) + total(1 for x in red.withdrawn)
  value red = red.Out - blue.Out + total(x.Wounds for x in blue.fighters) - lead(blue)
  value blue = blue.Out / 2 + total(x.Might for x in blue.fighters if not x.Hurt) / 10
  end when total(1 for x in red.fighters if x.Hurt) >= 3
}
'''


def test_every_statement_kind_is_played_alike(tmp_path):
    """Every statement of the language, in a game, generated and interpreted: the same games
    (results, draws, the World at the end), under each policy."""
    from warband.run.decisions import Policies
    scenario = scenario_of(tmp_path, STATEMENTS, "statements")
    found: list = []
    for decl in [*scenario.ruleset.procedures.values(), scenario.decl,
                 *scenario.ruleset.markers.values()]:
        walk(decl, found)
    kinds = {type(n) for n in found}
    statements = set(typing.get_args(nodes.Stmt)) | {
        nodes.ForSorted, nodes.ChooseAmong, nodes.ChooseTuple, nodes.LetTuple, nodes.Activate,
        nodes.Travel, nodes.Withdraw, nodes.Concede, nodes.Deploy, nodes.Place, nodes.Face,
        nodes.Carry, nodes.PutDown, nodes.TravelClear, nodes.PlaceAt, nodes.PutAt,
        nodes.ChooseSpot, nodes.Draw, nodes.Discard, nodes.Shuffle, nodes.While, nodes.Break,
        nodes.Continue, nodes.EndTurn, nodes.BringBack}
    assert statements - kinds == set(), "a statement kind without a case here"
    assert {n.op for n in found if type(n) is nodes.Set} == {"=", "+=", "-="}
    assert {n.value is None for n in found if type(n) is nodes.Return} == {True, False}
    assert {(n.away, n.target is not None) for n in found if type(n) is nodes.Travel} == {
        (False, False), (True, False), (False, True)}   # up to, away, up to ... to TARGET
    assert any(n.then for n in found if type(n) is nodes.ForSorted)   # ordered by two values
    assert {n.side is None for n in found if type(n) is nodes.EndTurn} == {True, False}
    for policy in ("random", "first", "greedy"):
        for seed in range(1, 7 if policy != "greedy" else 3):
            def game(compiled: bool, record: bool = False) -> Game:
                g = Game(scenario, seed, Policies(policy), record=record)
                g.interp.compiled = compiled
                return g
            played = (game(True), game(True, record=True), game(False))
            results = [(outcome(g.interp, g.play), typed(g.final)) for g in played]
            assert results[0] == results[1] == results[2], (policy, seed)
            assert results[0][0][0][0] == "ok", results[0][0][0]   # (played to its end)


# ---- statements hypothesis makes, in a procedure and in a set-up ---------------------------------

@st.composite
def block(draw, depth: int = 2, counter: list | None = None) -> str:
    """Statements over @f, @g (fighters), @s, @t (sides), @n, whose expressions are
    hypothesis's too; names made unique with `counter`."""
    counter = [0] if counter is None else counter
    stmts = []
    for _ in range(draw(st.integers(1, 3))):
        counter[0] += 1
        i = counter[0]
        number, truth = number_expr(1), bool_expr(1)
        forms = ["add", "set", "flag", "let", "number"] + (
            ["if", "each", "repeat", "choose"] if depth > 0 else [])
        form = draw(st.sampled_from(forms))
        inner = (lambda: draw(block(depth - 1, counter))) if depth > 0 else (lambda: "")
        if form == "add":
            stmts.append(f"set @s.Out += {draw(number)}")
        elif form == "set":
            stmts.append(f"set @f.Wounds = {draw(number)}")
        elif form == "flag":
            stmts.append(f"set @g.Hurt = {draw(truth)}")
        elif form == "let":
            stmts.append(f"let v{i} = {draw(number)}\nset @t.Out -= v{i}")
        elif form == "number":
            stmts.append(f"choose c{i} by @s from 0..3 default 1\nset @s.Out += c{i} * 10")
        elif form == "if":
            stmts.append(f"if {draw(truth)} {{\n{inner()}\n}} else {{\n{inner()}\n}}")
        elif form == "each":   # a loop over fighters: inside it, @g is the loop's
            body = draw(block(depth - 1, counter)).replace("@g", f"x{i}")
            stmts.append(f"for each x{i} in @s.fighters {{\n{body}\n}}")
        elif form == "repeat":
            stmts.append(f"repeat min(abs({draw(number)}), 3) times {{\n{inner()}\n}}")
        else:
            stmts.append(f'choose o{i} by @t "a choice" {{\n'
                         f"  option keep {{\n{inner()}\n}}\n"
                         f"  option other when {draw(truth)} {{\n{inner()}\n}}\n}}")
    return "\n".join(stmts)


def statements_rules(body: str) -> str:
    # the scenario's set-up binds the fighters and sides as the scenario positions above do
    # (its decisions renamed: a decision's name is the ruleset's, once)
    setup = bind(re.sub(r"\b([co]\d+)\b", r"set_\1", body), s="red", t="blue", n="2")
    return BASE + f'''
procedure run({PARAMS}) -> number {{
{bind(body)}
  return s.Out * 1000 + t.Out + f.Wounds
}}
scenario arena {{
  board 12 by 12 inches
  side red {{
    fighter "A" {{ class Guard  stat Might = 5 }}
    fighter "B" {{ class Runner  stat Might = 12 }}
  }}
  side blue {{
    fighter "D" count 2 {{ class Guard  stat Might = 8 }}
  }}
  zone west = edge west depth 3
  zone east = edge east depth 3
  setup {{
    deploy red in west
    deploy blue in east
    for each f in red.fighters {{
      for each g in blue.fighters {{
{setup}
      }}
    }}
  }}
  round {{
    set red.Out += 1
  }}
  rounds 1
  score red = red.Out
  score blue = blue.Out + total(x.Wounds for x in blue.fighters)
}}
'''


@settings(max_examples=25, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(block())
def test_generated_statements_alike(tmp_path, body):
    from warband.run.decisions import Policies
    scenario = scenario_of(tmp_path, statements_rules(body), "statements")
    rng = random.Random(len(body))
    fast, slow = games(scenario, 3)
    for _ in range(6):
        world = random_world(scenario.ruleset, rng)
        args = random_args(world, rng)
        assert outcome(fast.interp, lambda: fast.interp.sample("run", args, world)) == \
            outcome(slow.interp, lambda: slow.interp.sample("run", args, world)), args
    for policy in ("random", "first"):
        def game(compiled: bool, record: bool = False) -> Game:
            g = Game(scenario, 4, Policies(policy), record=record)
            g.interp.compiled = compiled
            return g
        played = (game(True), game(True, record=True), game(False))
        results = [(outcome(g.interp, g.play), typed(g.final)) for g in played]
        assert results[0] == results[1] == results[2], policy
