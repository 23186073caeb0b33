"""Generated Python (codegen.py) and the interpreter sample alike: the same value, the same world
afterwards, the same error with the same diagnostic, and the same draws from both random streams.

Every procedure, action and phase of the shipped rulesets, of tests/*.rules, of the language
reference's examples and of the rules below runs under many seeds, with arguments and worlds
made from the ruleset's own declarations (fighters of every class, flags and counters set,
positions), under the first, random and scripted policies; each run is made twice, once with
`Interpreter(..., compiled=False)`, and the two must agree in everything observable.
"""

from __future__ import annotations

import copy
import random
from fractions import Fraction
from pathlib import Path

import pytest

from warband.lang import nodes
from warband.lang.compiler import compile_text, load
from warband.run.codegen import hooks as codegen
from warband.run.codegen import peephole
from warband.run.codegen import runtime as rt
from warband.run.codegen.expr import Unsupported, mangle
from warband.run.codegen.stmt import Writer
from warband.run.dice import Dist
from warband.run.interpreter import Interpreter, Policies, RulesError
from warband.run.world import FighterSpec, Ref, World, make_world, within

ROOT = Path(__file__).resolve().parents[1]
SHIPPED = ["super-simple-skirmish", "swords-against-sorcery", "smart"]
SEEDS = 30


def compiled(text: str, name: str = "inline.rules"):
    result = compile_text(text, name)
    assert result.ruleset is not None, [d.message for d in result.diagnostics]
    return result.ruleset


# ---- worlds and arguments from a ruleset's declarations -----------------------------------------

def random_value(rng: random.Random, low, high):
    low = 0 if low is None else low
    high = low + 10 if high is None else high
    return rng.randint(low, min(high, low + 30))


def random_world(ruleset, rng: random.Random) -> World:
    classes = list(ruleset.classes) or [None]
    classes = classes + [None]
    rng.shuffle(classes)
    fighter_states = [s for s in ruleset.states.values() if s.owner == "fighter"]
    side_states = [s for s in ruleset.states.values() if s.owner == "side"]
    specs = []
    for i, cls in enumerate(classes[:rng.randint(2, min(6, len(classes)))]):
        stats = {}
        for name, stat in ruleset.stats.items():
            if stat.enum is not None:
                stats[name] = rng.choice(ruleset.enums[stat.enum])[0]
            elif stat.default is None or rng.random() < 0.7:
                stats[name] = random_value(rng, stat.low, stat.high)
        state = {s.name: (rng.random() < 0.3 if s.kind == "flag" else rng.randint(0, 4))
                 for s in fighter_states if rng.random() < 0.6}
        traits = {t.name: (rng.randint(1, 3) if t.numeric else True)
                  for t in ruleset.traits.values() if rng.random() < 0.2}
        equipment = tuple(e for e in ruleset.equipment if rng.random() < 0.2)
        position = (rng.uniform(0, 4), rng.uniform(0, 4)) if rng.random() < 0.8 else None
        specs.append(FighterSpec(f"f{i}", i % 2, cls, stats, traits, equipment, state, position))
    sides = [{s.name: (rng.random() < 0.5 if s.kind == "flag" else rng.randint(0, 4))
              for s in side_states} for _ in range(2)]
    world = make_world(ruleset, specs, sides=sides)
    if len(specs) > 2 and rng.random() < 0.2:
        world = world.remove(Ref("fighter", len(specs) - 1))
    return world


def random_args(decl, world: World, rng: random.Random, ruleset=None) -> dict:
    fighters = [Ref("fighter", i) for i in range(len(world.fighters))]
    args = {}
    for p in decl.params:
        if p.default is not None and rng.random() < 0.3:
            continue
        kind = p.type.name if p.type is not None else "number"
        if kind == "fighter":
            args[p.name.name] = rng.choice(fighters)
        elif kind == "side":
            args[p.name.name] = Ref("side", rng.randrange(len(world.sides)))
        elif kind == "fighters":
            args[p.name.name] = tuple(rng.sample(fighters, rng.randint(0, len(fighters))))
        elif kind == "bool":
            args[p.name.name] = rng.random() < 0.5
        elif kind == "equipment" and ruleset is not None and ruleset.equipment:
            args[p.name.name] = rng.choice(list(ruleset.equipment))   # a piece: its name
        elif ruleset is not None and kind in ruleset.markers:
            continue   # a piece on the board (`b: beacon`): none without one, E301 both ways
        else:   # numbers (a dice parameter given a number, as a caller may)
            args[p.name.name] = rng.choice([0, 1, 2, 3, 4, 5, 6, 8, 12, -1])
    return args


def random_policies(ruleset, rng: random.Random) -> Policies:
    default = rng.choice(["first", "first", "random"])
    if rng.random() < 0.4:   # one policy for every decision: the program made for it runs
        return Policies(default)
    scripted = {}
    for name, (_, stmt) in ruleset.decisions.items():
        if rng.random() < 0.5:
            if isinstance(stmt, nodes.Choose):
                scripted[name] = rng.choice([o.name.name for o in stmt.options])
            elif isinstance(stmt, nodes.ChooseTuple):   # several numbers: one for each name
                scripted[name] = ",".join(str(rng.randint(-1, 4)) for _ in stmt.names)
            else:
                scripted[name] = str(rng.randint(-1, 6))
        elif rng.random() < 0.3:
            scripted[name] = rng.choice(["first", "random"])
    return Policies(default, scripted)


# ---- one run, both ways -------------------------------------------------------------------------

def outcome(interp: Interpreter, run):
    try:
        result = ("ok", run())
    except RulesError as error:
        d = error.diagnostic
        result = ("error", d.code, d.message, d.span, d.hint)
    except Exception as error:   # a crash must at least be the same crash
        result = ("crash", type(error).__name__, str(error))
    return result, interp.rng.getstate(), interp.choice_rng.getstate()


def in_order(decl, args: dict) -> list | None:
    """The arguments as a sampler takes them (in declared order), or None when one is left
    out before one that is given (a sampler can only leave out the last ones)."""
    given = [p.name.name in args for p in decl.params]
    if any(later and not earlier for earlier, later in zip(given, given[1:])):
        return None
    return [args[p.name.name] for p in decl.params if p.name.name in args]


def both_ways(ruleset, seed: int, calls) -> None:
    """calls: [(kind, procedure, args, world)] made in turn on one interpreter of each kind;
    kind "sampler" is Interpreter.sampler against the interpreter's sample."""
    policies = random_policies(ruleset, random.Random(seed))
    fast = Interpreter(ruleset, policies, rng=random.Random(seed))
    slow = Interpreter(ruleset, policies, rng=random.Random(seed), compiled=False)
    for kind, procedure, args, world in calls:
        before = copy.deepcopy(world)
        if kind == "sampler":
            run, kind = fast.sampler(procedure), "sample"
            ordered = in_order(ruleset.procedures[procedure], args)
            got = outcome(fast, lambda: run(world, *ordered))
        else:
            got = outcome(fast, lambda: getattr(fast, kind)(procedure, args, world))
        assert world == before, "a run changed the World it started from"
        want = outcome(slow, lambda: getattr(slow, kind)(procedure, args, world))
        assert got == want, (procedure, kind, args, policies, seed)
        if got[0][0] == "ok" and kind == "sample":
            assert type(got[0][1][1]) is World


def check_everything(ruleset, seeds: int = SEEDS) -> int:
    runs = 0
    for name, decl in ruleset.procedures.items():
        for seed in range(seeds):
            rng = random.Random(hash((name, seed)) & 0xFFFF_FFFF)
            calls = []
            for _ in range(3):   # several runs on one interpreter: its table cache is shared
                world = random_world(ruleset, rng)
                args = random_args(decl, world, rng, ruleset)
                calls.append(("sample", name, args, world))
                if in_order(decl, args) is not None:
                    calls.append(("sampler", name, args, world))
                if decl.requires is not None:
                    calls.append(("allowed", name, args, world))
            both_ways(ruleset, seed, calls)
            runs += len(calls)
    return runs


# ---- the rulesets -------------------------------------------------------------------------------

@pytest.mark.parametrize("ruleset_id", SHIPPED)
def test_shipped_rulesets_sample_alike_compiled_and_interpreted(ruleset_id):
    ruleset = load(ruleset_id).ruleset
    assert check_everything(ruleset) > 100


@pytest.mark.parametrize("ruleset_id", SHIPPED)
@pytest.mark.parametrize("uniform", [None, *codegen.UNIFORM])
def test_shipped_rulesets_need_no_fallback(ruleset_id, uniform):
    """Neither the program whose decisions ask the policies nor those made for one policy."""
    ruleset = load(ruleset_id).ruleset
    program = codegen.program_for(Interpreter(ruleset), uniform)
    assert program.uniform == uniform
    assert _not_engine_only(program.fallbacks) == {}
    engine_run = {k.split(" ", 1)[1] for k in program.fallbacks if k.startswith("procedure ")}
    assert set(program.entries) | engine_run == set(ruleset.procedures)
    assert set(program.requires) == {n for n, d in ruleset.procedures.items() if d.requires}


@pytest.mark.parametrize("path", sorted((ROOT / "tests").glob("*.rules")), ids=lambda p: p.name)
def test_test_rules_files_sample_alike(path):
    ruleset = compiled(path.read_text(encoding="utf-8"), str(path))
    check_everything(ruleset)
    assert _not_engine_only(codegen.program_for(Interpreter(ruleset)).fallbacks) == {}


def test_language_reference_examples_sample_alike():
    import test_docs
    runs = 0
    for block in test_docs.RULES:
        result = test_docs._compile(block)
        if result.ruleset is None or not result.ruleset.procedures:
            continue
        runs += check_everything(result.ruleset, seeds=3)
        assert _not_engine_only(codegen.program_for(Interpreter(result.ruleset)).fallbacks) \
            == {}, block
    assert runs > 100


# Constructs the shipped rules use little or not at all, and the errors of a run.
CORNERS = '''
ruleset "corners"
stat Training: 0..8
enum Kind { small big }
stat Size: Kind default small
counter Wounds on fighter
flag Hurt on fighter
counter Luck on side
trait Armor(N) max
trait Brave
equipment Shield { grants Armor(1) }
class Guard { traits Brave }

table name_of(level) -> label {
  0 => "none"
  1..3 => "low"
  4 => "four"
}
table by_kind(kind: Kind) -> (speed, reach) {
  small => 4, 1
  big => 6, 2
}
define half(x) = x / 2
define pool(f: fighter) = (f.Training)d6 keep highest 2
define roll_with(n, bound) = (n)d6 reroll <= bound

procedure twice(owner: fighter, d: dice) -> number {
  let a = d
  let b = d
  return a + b
}
procedure pass_on(owner: fighter, d: dice) -> number {
  return twice(owner, d)
}
action thunks(f: fighter) -> number {
  let x = pass_on(f, 2d6 + f.Training)
  let y = twice(f, d6)
  return x * 100 + y
}
action scopes(f: fighter, flag: bool) -> text {
  let later = 0
  if flag {
    set later = 1
  }
  return if later == 1 then "bound" else "unbound"
}
action loops(f: fighter, n: number) -> number {
  let total = 0
  let inner = 0
  repeat n times {
    set total += d6
    set inner = total
  }
  for each g in f.side.fighters {
    set total += g.Training
    set g.Wounds += 1
  }
  return total + inner
}
action groups(f: fighter) -> number {
  return total(g.Training for g in fighters within 3 of f if g has Brave)
       + highest(d6 for g in f.side.fighters) + lowest(g.Armor for g in f.side.fighters)
}
action counting(f: fighter, n: number) -> number {
  let hits = count >= 4 in (n)d6
  let odd = count odd in (n)d8 reroll in {1, 2}
  return hits * 10 + odd
}
action keep(f: fighter, n: number) -> number {
  return (n)d6 drop lowest 1 + pool(f) + roll_with(3, f.Training)
}
action tables(f: fighter, level: number) -> text {
  let speed = by_kind(f.Size)
  return name_of(level)
}
action divide(f: fighter, n: number) -> number {
  return half(f.Training) + 12 / n
}
action numbers(f: fighter) -> number {
  choose bid by f from 0..f.Training default 2
  choose spare by f.side from 1..3
  return bid * 10 + spare
}
action options(f: fighter) -> number {
  let r = 0
  choose how by f {
    option plain { set r = 1 }
    option lucky when f.side.Luck >= 2 and not f.Hurt { set r = 2  set f.side.Luck -= 2 }
    option rich when f.Training + f.Wounds >= 8 { set r = 3 }
  }
  return r
}
action fall(f: fighter) -> number {
  if f.Training > 3 {
    return 1
  }
  choose lose by f {
    option keep { return 2 }
    option drop
  }
  return 3
}
action removing(f: fighter) -> bool
  requires not f.Hurt and (f has Shield or f is Guard or f.Training >= 2)
{
  remove f
  set f.Hurt = true
  return f.removed
}
action named(f: fighter) -> number {
  choose which by f {
    option plain { return 1 }
    option first { return 2 }
    option random { return 3 }
  }
  return 0
}
action quiet(f: fighter, steps: number = 2) {
  repeat steps times { set f.Wounds += 1 }
}
'''


def test_corner_cases_sample_alike():
    ruleset = compiled(CORNERS)
    assert codegen.program_for(Interpreter(ruleset)).fallbacks == {}
    check_everything(ruleset, seeds=25)


def test_errors_are_the_interpreters():
    ruleset = compiled(CORNERS)
    world = make_world(ruleset, [FighterSpec("a", 0, None, {"Training": 2}),
                                 FighterSpec("b", 1, None, {"Training": 6})])
    me = Ref("fighter", 0)
    cases = [("tables", {"f": me, "level": 9}, "E501"), ("divide", {"f": me, "n": 0}, "E502"),
("counting", {"f": me, "n": -1}, "E403"),
             ("keep", {"f": me, "n": 101}, "E403"), ("loops", {"f": me, "n": -2}, "E505"),
             ("loops", {"f": me, "n": 1001}, "E403"), ("divide", {"f": me}, "E301")]
    for procedure, args, code in cases:
        for flag in (True, False):
            with pytest.raises(RulesError) as caught:
                Interpreter(ruleset, compiled=flag).sample(procedure, args, world)
            assert caught.value.diagnostic.code == code, (procedure, flag)
    ruleset = compiled('ruleset "x"\nstat T: 0..8\naction a(f: fighter) -> number '
                       '{ choose n by f from 1..f.T  return n }')
    world = make_world(ruleset, [FighterSpec("me", 0, None, {"T": 0})])
    for flag in (True, False):
        with pytest.raises(RulesError) as caught:
            Interpreter(ruleset, compiled=flag).sample("a", {"f": me}, world)
        assert caught.value.diagnostic.code == "E505"


def test_the_attack_runs_compiled():
    # The path taken is the generated one (not a silent fallback): the interpreter's statement
    # runner is never entered.
    ruleset = load("super-simple-skirmish").ruleset
    world = make_world(ruleset, [FighterSpec("a", 0, "Soldier", {"Might": 10}),
                                 FighterSpec("b", 1, "Gunslinger", {"Might": 25})],
                       sides=[{"Fate": 2}, {"Fate": 1}])
    interp = Interpreter(ruleset, rng=random.Random(1))
    interp.block = None   # would fail if called
    args = {"attacker": Ref("fighter", 0), "target": Ref("fighter", 1), "cover": True}
    for _ in range(50):
        value, _world = interp.sample("shoot", args, world)
        assert value in ("kill", "stun", "none")
    assert interp.allowed("shoot", args, world) is True


def test_a_sampler_runs_the_attack_compiled_and_gives_what_sample_gives():
    ruleset = load("super-simple-skirmish").ruleset
    world = make_world(ruleset, [FighterSpec("a", 0, "Sniper", {"Might": 20}),
                                 FighterSpec("b", 1, "Soldier", {"Might": 20})],
                       sides=[{"Fate": 2}, {"Fate": 1}])
    a, b = Ref("fighter", 0), Ref("fighter", 1)
    for policy in ("first", "random", "greedy"):
        fast = Interpreter(ruleset, Policies(policy), rng=random.Random(3))
        slow = Interpreter(ruleset, Policies(policy), rng=random.Random(3), compiled=False)
        if policy != "greedy":
            fast.block = None   # generated all the way: the statement runner would fail
        shoot = fast.sampler("shoot")
        for cover in (False, True, None):   # None: left out, worked out by its default
            args = {"attacker": a, "target": b, **({} if cover is None else {"cover": cover})}
            given = (a, b) if cover is None else (a, b, cover)
            for _ in range(30 if policy != "greedy" else 3):
                got, want = shoot(world, *given), slow.sample("shoot", args, world)
                assert got == want and type(got[1]) is World
    with pytest.raises(TypeError):
        shoot(world, a, b, True, 4)
    with pytest.raises(RulesError) as caught:
        shoot(world)
    assert caught.value.diagnostic.code == "E301"


# ---- fallback -----------------------------------------------------------------------------------

def test_an_unknown_statement_makes_its_procedure_fall_back(monkeypatch):
    """Statements codegen does not know (say, added to the language after it) run through the
    interpreter, one procedure at a time; generated callers still call into them, dice
    arguments included."""
    original = Writer.stmt

    def refuse_repeat(self, s, scope, out, pad):
        if type(s) is nodes.Repeat:
            raise Unsupported("statement Repeat")
        return original(self, s, scope, out, pad)
    monkeypatch.setattr(Writer, "stmt", refuse_repeat)
    text = CORNERS + '''
procedure rolls(owner: fighter, d: dice, n: number) -> number {
  let total = 0
  repeat n times { set total += d }
  return total
}
action outer(f: fighter, n: number) -> number {
  let x = rolls(f, d6 + f.Training, n)
  set f.Wounds += x
  return x
}
'''
    ruleset = compiled(text)
    program = codegen.program_for(Interpreter(ruleset))
    assert set(program.fallbacks) == {"procedure loops", "procedure quiet", "procedure rolls"}
    assert "procedure outer" not in program.fallbacks
    check_everything(ruleset, seeds=10)


def test_an_unknown_expression_in_a_define_or_table_falls_back(monkeypatch):
    original = Writer.expr

    def refuse_dice(self, e, scope, raw=False):
        if type(e) is nodes.Dice:
            raise Unsupported("expression Dice")
        return original(self, e, scope, raw)
    monkeypatch.setattr(Writer, "expr", refuse_dice)
    ruleset = compiled(CORNERS)
    program = codegen.program_for(Interpreter(ruleset))
    assert "define pool" in program.fallbacks and "procedure thunks" in program.fallbacks
    check_everything(ruleset, seeds=8)


def test_look_ahead_and_unusual_arguments_take_the_interpreter():
    ruleset = load("super-simple-skirmish").ruleset
    world = make_world(ruleset, [FighterSpec("a", 0, "Sniper", {"Might": 10}),
                                 FighterSpec("b", 1, "Mech", {"Might": 25})],
                       sides=[{"Fate": 2}, {"Fate": 2}])
    args = {"attacker": Ref("fighter", 0), "target": Ref("fighter", 1), "cover": True}
    for policies in (Policies("greedy"), Policies("first", {"fate_modify": "greedy"})):
        for seed in range(5):
            fast = Interpreter(ruleset, policies, rng=random.Random(seed))
            slow = Interpreter(ruleset, policies, rng=random.Random(seed), compiled=False)
            assert fast.sample("shoot", args, world) == slow.sample("shoot", args, world)
    fast = Interpreter(ruleset, rng=random.Random(3))
    slow = Interpreter(ruleset, rng=random.Random(3), compiled=False)
    odd = {**args, "cover": Dist.point(True)}
    assert fast.sample("shoot", odd, world) == slow.sample("shoot", odd, world)
    shoot = Interpreter(ruleset, rng=random.Random(3)).sampler("shoot")   # (the same draws)
    assert shoot(world, args["attacker"], args["target"], odd["cover"]) == \
        Interpreter(ruleset, rng=random.Random(3), compiled=False).sample("shoot", odd, world)
    side = {**args, "target": Ref("side", 1)}   # not a fighter: the interpreter's own failure
    with pytest.raises(Exception) as one:
        fast.sample("shoot", side, world)
    with pytest.raises(Exception) as other:
        slow.sample("shoot", side, world)
    with pytest.raises(Exception) as third:
        shoot(world, side["attacker"], side["target"], True)
    assert type(one.value) is type(other.value) is type(third.value)
    assert str(one.value) == str(other.value) == str(third.value)


# ---- safety -------------------------------------------------------------------------------------

def test_names_are_mangled_and_texts_quoted():
    assert mangle("a_b") != mangle("a__b")
    assert mangle("x") != mangle("_x")
    assert mangle("import").isidentifier()
    ruleset = compiled('ruleset "q"\naction a(f: fighter) -> text {\n'
                       '  let import = "\\"); raise SystemExit #"\n  return import\n}\n')
    world = make_world(ruleset, [FighterSpec("me")])
    assert Interpreter(ruleset).sample("a", {"f": Ref("fighter", 0)}, world)[0] == \
        '"); raise SystemExit #'
    source = "\n".join(codegen.program_for(Interpreter(ruleset), "first").source)   # (its run's)
    assert "v_import" in source and "'\"); raise SystemExit #'" in source


# ---- the World ----------------------------------------------------------------------------------

def test_place_moves_one_fighter_and_leaves_the_old_world_as_it_was():
    ruleset = load("super-simple-skirmish").ruleset
    world = make_world(ruleset, [FighterSpec("a", 0, "Gunner", {"Might": 10}, position=(0, 0)),
                                 FighterSpec("b", 1, "Soldier", {"Might": 10}, position=(9, 9)),
                                 FighterSpec("c", 1, "Soldier", {"Might": 10}, position=(1, 1))])
    moved = world.place(Ref("fighter", 1), (1, 0))
    assert moved.fighters[1].position == (1, 0) and world.fighters[1].position == (9, 9)
    assert moved.fighters[0] is world.fighters[0] and moved.sides is world.sides
    assert within(world, Ref("fighter", 0), 2) == (Ref("fighter", 2),)
    assert within(moved, Ref("fighter", 0), 2) == (Ref("fighter", 1),
                                                                Ref("fighter", 2))
    assert world.place(Ref("fighter", 0), None).fighters[0].position is None
    # a blast now catches the moved fighter too: the same through both paths
    args = {"attacker": Ref("fighter", 0), "target": Ref("fighter", 2)}
    for seed in range(20):
        fast = Interpreter(ruleset, Policies("random"), rng=random.Random(seed))
        slow = Interpreter(ruleset, Policies("random"), rng=random.Random(seed), compiled=False)
        assert fast.sample("blast", args, moved) == slow.sample("blast", args, moved)


def test_an_option_called_first_is_scripted_by_the_first_policy():
    ruleset = compiled(CORNERS)
    world = make_world(ruleset, [FighterSpec("a", 0, None, {"Training": 2})])
    for flag in (True, False):
        interp = Interpreter(ruleset, Policies("first"), compiled=flag)
        assert interp.sample("named", {"f": Ref("fighter", 0)}, world)[0] == 2


def test_a_node_type_nobody_knows_falls_back_without_crashing():
    """The language grows (new statements and expressions come from other work): a node type
    the generator has never seen costs speed, never a crash at generation."""
    import dataclasses

    from warband.lang.ruleset import FrozenDict

    @dataclasses.dataclass(frozen=True, eq=False)
    class Teleport:        # a statement from the future
        subject: object
        span: object

    @dataclasses.dataclass(frozen=True, eq=False)
    class Luck:            # an expression from the future
        span: object

    ruleset = compiled(CORNERS)
    decls = dict(ruleset.procedures)
    quiet = decls["quiet"]
    span = quiet.body.span
    decls["quiet"] = dataclasses.replace(quiet, body=nodes.Block(
        (Teleport(nodes.Name("f", span), span),) + quiet.body.stmts, span))
    scopes = decls["scopes"]
    decls["scopes"] = dataclasses.replace(scopes, body=nodes.Block(
        (nodes.Let(nodes.Ident("x", span), Luck(span), span),) + scopes.body.stmts, span))
    odd = dataclasses.replace(ruleset, procedures=FrozenDict(decls))
    program = codegen.program_for(Interpreter(odd))
    assert set(program.fallbacks) == {"procedure quiet", "procedure scopes"}
    assert "quiet" not in program.entries and "thunks" in program.entries
    world = make_world(odd, [FighterSpec("a", 0, None, {"Training": 2})])
    for name in ("quiet", "scopes"):   # both paths fail alike (the interpreter knows neither)
        args = {"f": Ref("fighter", 0), "flag": True}
        args = {k: v for k, v in args.items() if k in {p.name.name for p in decls[name].params}}
        with pytest.raises(TypeError) as one:
            Interpreter(odd).sample(name, args, world)
        with pytest.raises(TypeError) as other:
            Interpreter(odd, compiled=False).sample(name, args, world)
        assert str(one.value) == str(other.value)


def test_a_draft_changes_in_place_and_freezes_into_a_new_world():
    from warband.run.codegen.runtime import draft as Draft
    ruleset = load("super-simple-skirmish").ruleset
    world = make_world(ruleset, [FighterSpec("a", 0, "Soldier", {"Might": 10}, position=(0, 0)),
                                 FighterSpec("b", 1, "Soldier", {"Might": 12})],
                       sides=[{"Fate": 2}, {"Fate": 1}])
    before = copy.deepcopy(world)
    draft = Draft(world).set(Ref("fighter", 1), "Stunned", True).set(Ref("side", 0), "Fate", 1)
    draft = draft.set(Ref("side", 0), "Fate", 0).remove(Ref("fighter", 1))
    draft = draft.place(Ref("fighter", 0), (3, 4))
    after = draft.freeze()
    assert world == before
    assert after == world.set(Ref("fighter", 1), "Stunned", True).set(
        Ref("side", 0), "Fate", 0).remove(Ref("fighter", 1)).place(Ref("fighter", 0), (3, 4))
    assert after.sides[1] is world.sides[1]   # what did not change is shared


def test_a_side_change_makes_a_new_world_or_changes_the_draft_it_is_given():
    from warband.run.codegen.runtime import draft
    ruleset = load("super-simple-skirmish").ruleset
    world = make_world(ruleset, [FighterSpec("a", 0, "Soldier", {"Might": 10})],
                       sides=[{"Fate": 2}, {"Fate": 1}])
    before = copy.deepcopy(world)
    after = world.set_side(1, "Fate", 0)
    assert world == before and after == world.set(Ref("side", 1), "Fate", 0)
    assert after.sides[1].values == {**world.sides[1].values, "Fate": 0}
    assert after.fighters is world.fighters and after.sides[0] is world.sides[0]
    changing = draft(world)
    assert changing.set_side(0, "Fate", 1) is changing
    assert changing.set_side(0, "Fate", 0).freeze() == world.set(Ref("side", 0), "Fate", 0)
    assert world == before


# Statements a game's engine runs (activations, the order of a round, a player picking a
# fighter): the phases holding them run once a turn through the interpreter, by design.
ENGINE_ONLY = {"statement Activate", "statement ForSorted", "statement ChooseAmong",
               "statement Deploy", "statement Place", "statement Concede", "statement Withdraw",
               # events run in the interpreter, with what may set one off (run/events.py)
               "a statement that may set off an event"}


def _not_engine_only(fallbacks: dict) -> dict:
    return {k: v for k, v in fallbacks.items() if v not in ENGINE_ONLY}


def test_constant_arguments_fold_out_of_logic_as_python_would_evaluate_them():
    from warband.run.codegen.expr import _logic
    for op in ("and", "or"):
        for items in (["True", "x"], ["x", "True"], ["False", "x"], ["x", "False", "y"],
                      ["x", "y"], ["True", "False"], ["x", "True", "y"], ["False"]):
            folded = _logic(op, items)
            for x in (0, 1, "", "a"):
                for y in (0, 2):
                    env = {"x": x, "y": y}
                    whole = eval(f" {op} ".join(items), {}, dict(env))
                    assert eval(folded, {}, dict(env)) == whole, (op, items, folded)


def test_a_fighter_read_twice_on_a_line_is_read_once_before_it():
    lines = ["def f(I, world, v_a):",
             "    x = (world.fighters[v_a[1]].values['A'] + world.fighters[v_a[1]].values['B'])",
             "    if x:",
             "        pass",
             "    elif world.fighters[v_a[1]].removed or world.fighters[v_a[1]].name:",
             "        pass",
             "    while world.fighters[v_a[1]].removed and world.fighters[v_a[1]].name:",
             "        pass"]
    out = peephole.hoisted(lines)
    assert out[1] == "    _f_v_a = world.fighters[v_a[1]]"
    assert out[2] == "    x = (_f_v_a.values['A'] + _f_v_a.values['B'])"
    assert out[3:] == lines[2:]   # an elif or a loop's test is evaluated elsewhere: left alone


def test_numbers_come_out_whole_as_ints_generated_as_interpreted():
    # a whole number is an int, whatever the arithmetic that made it (`4 / 2 - 1` is 1, not
    # Fraction(1, 1)); generated code leaves out the norm only where a sum cannot need it
    ruleset = compiled('''
ruleset "numbers"
stat Might: 0..20
procedure sums(x: number, y: number) -> number {
  return x + 1 - (y - 1) + (1 + y)
}
procedure halves(x: number) -> number {
  let h = x / 2
  return h + 1
}
procedure products(x: number) -> number {
  let h = x / 4
  return h * 2
}
''')
    world = make_world(ruleset, [FighterSpec("a", 0, None, {"Might": 1})])
    fast = Interpreter(ruleset, rng=random.Random(1))
    slow = Interpreter(ruleset, rng=random.Random(1), compiled=False)
    assert "sums" not in codegen.program_for(fast).fallbacks
    for name, args, want in [("sums", {"x": 3, "y": 2}, 6), ("halves", {"x": 4}, 3),
                             ("halves", {"x": 3}, Fraction(5, 2)),
                             ("products", {"x": 2}, 1), ("products", {"x": 1}, Fraction(1, 2)),
                             ("sums", {"x": Fraction(1, 2), "y": 2}, Fraction(7, 2))]:
        for interp in (fast, slow):
            value = interp.sample(name, args, world)[0]
            assert value == want and type(value) is type(want), (name, args, value)


def test_a_fighter_parameters_side_is_read_once_on_entry():
    # Fate decisions written on a fighter (`owner.side.Fate`, as tests/fate.rules words them)
    # ask for its side again and again: a fighter never changes side, so its number is read
    # into a local once, and only if used
    text = (Path(__file__).parent / "fate.rules").read_text(encoding="utf-8")
    ruleset = compile_text(text, "fate.rules").ruleset
    program = codegen.program_for(Interpreter(ruleset, Policies("random")), "random")
    program.entry("total")
    program.entry("nudge")
    source = "\n".join(program.source)
    total = source[source.index("def c_total("):source.index("def e_total(")]
    assert total.count("_side_v_f = world.fighters[v_f[1]].side") == 1
    assert "world.fighters[v_f[1]].side" not in total.replace(
        "_side_v_f = world.fighters[v_f[1]].side", "")
    assert "world.sides[_side_v_f].values['Fate']" in total
    nudge = source[source.index("def c_nudge("):source.index("def e_nudge(")]
    assert "_side_v_" not in nudge


def test_one_chosen_among_a_sides_fighters_is_known_to_be_a_fighter():
    # Swords Against Sorcery's turn: `choose next_figure by side among all(f for f in
    # side.fighters if not f.Activated)`, then `set next_figure.Activated = true`; the group's
    # members and the one chosen are fighters, so both read and set the World directly
    ruleset = load("swords-against-sorcery").ruleset
    program = codegen.program_for(Interpreter(ruleset, Policies("random")), "random")
    program.entry("side_turn")
    source = "\n".join(program.source)
    turn = source[source.index("def c_side_5f_turn("):source.index("def e_side_5f_turn(")]
    assert "if ((not world.fighters[a_f[1]].values['Activated'])) is True])" in turn
    assert ".set(v_next_5f_figure, 'Activated'" in turn and "_assign(" not in turn


def test_a_side_is_read_into_a_local_only_where_its_first_read_comes_first():
    local, read = "_side_v_a", "world.fighters[v_a[1]].side"
    body = ["    x = 1",
            "    if x:",
            "        c = world.sides[_side_v_a].values['Fate']",
            "        if c:",
            "            world = world.set_side(_side_v_a, 'Fate', c - 1)"]
    out = peephole.side_local(body, local, read)
    assert out == [*body[:2], f"        {local} = {read}", *body[2:]]
    # a later read outside the block of the first one: each read where it is
    leaves = [*body, "    y = world.sides[_side_v_a]"]
    assert peephole.side_local(leaves, local, read) == [line.replace(local, read)
                                                         for line in leaves]
    # a first read in a condition, or a single read: where it is
    header = ["    if world.sides[_side_v_a].values['Fate']:",
              "        y = _side_v_a"]
    assert peephole.side_local(header, local, read) == [line.replace(local, read)
                                                         for line in header]
    assert peephole.side_local(body[:3], local, read)[2] == body[2].replace(local, read)


# ---- issue 19: a define given a scenario's side; a default that reads earlier parameters ---------

SIDED = '''
ruleset "sided"
stat Might: 1..30
counter Fate on side
counter Hits on fighter

define alive(s: side) = s.Fate + 1
define pair(s: side, t: side) = if s == t then 0 else s.Fate - t.Fate
define left(s: side) = total(1 for f in s.fighters)

action reach(a: fighter, t: fighter, r: number = distance(a, t), m: number = r + a.Might) -> number {
  return m
}
procedure big(a: fighter, t: fighter, r: number = distance(a, t) + 1) -> number {
  let x = 0
  repeat 3 times { set x += 1 }
  if x > 2 { set x += r } else { set x -= r }
  repeat 2 times { set x += 1 }
  return x
}
procedure probe(a: fighter) -> number {
  let n = 0
  for each t in a.enemies {
    let got = reach(a, t)
    let more = big(a, t)
    let fixed = reach(a, t, 2)
    set n += got + more + fixed
  }
  return n
}
phase play_round() {
  for each s in sides {
    set s.Fate += d6
    for each f in s.fighters {
      let hits = probe(f)
      set f.Hits += hits
    }
  }
}
scenario duel {
  board 12 by 12 inches
  side red { fighter "A" count 2 { stat Might = 3 } }
  side blue { fighter "B" count 2 { stat Might = 4 } }
  zone west = edge west depth 3
  zone east = edge east depth 3
  setup { deploy red in west  deploy blue in east  set red.Fate = alive(blue) }
  round { play_round() }
  rounds 3
  end when alive(red) > 40 or pair(blue, red) > 30
  score red = alive(red) + pair(red, blue) + left(red)
  score blue = alive(blue) + pair(blue, red) + total(f.Hits for f in blue.fighters)
  value red = alive(red) - alive(blue)
  value blue = pair(blue, red)
}
'''


def _sided_scenario(tmp_path):
    from warband.game.scenario import load_scenario
    path = tmp_path / "sided.rules"
    path.write_text(SIDED.replace("pair(blue, red)", "pair(blue, red)"))
    scenario = load_scenario(str(path))
    assert not isinstance(scenario, list), [d.message for d in scenario]
    return scenario


def test_a_define_given_a_scenarios_side_is_that_side_in_generated_code(tmp_path):
    # `score red = alive(red)` with `define alive(s: side) = s.Fate + 1`: the definition was put
    # in place with the side's name as text for `s` (TypeError in the generated score)
    from warband.game.engine import Game
    scenario = _sided_scenario(tmp_path)
    for seed in range(1, 6):
        fast = Game(scenario, seed).play()
        recorded = Game(scenario, seed, record=True).play()
        slow = Game(scenario, seed)
        slow.interp.compiled = False
        assert fast == recorded == slow.play()
    game = Game(scenario, 1)
    program = codegen.program_of(game.interp)
    world = scenario.start().set(Ref("side", 0), "Fate", 2).set(Ref("side", 1), "Fate", 5)
    for side, expr, _ in scenario.decl.scores:
        fn = program.value(expr, f"score {side.name}")
        assert fn is not None
        assert fn(game.interp, world) == game.interp.fn(expr)({}, world)


def test_a_default_reads_the_parameters_before_it_when_called_from_a_rule():
    # `r: number = distance(a, t)` left out by a caller: the generated callee (called, or put in
    # place) read `a` and `t` as symbols (IndexError: string index out of range)
    ruleset = compiled(SIDED.split("scenario duel")[0])
    world = make_world(ruleset, [FighterSpec("a", 0, None, {"Might": 3}, position=(1, 1)),
                                 FighterSpec("b", 1, None, {"Might": 4}, position=(4, 5)),
                                 FighterSpec("c", 1, None, {"Might": 5}, position=(2, 9))])
    a = Ref("fighter", 0)
    for seed in range(5):
        both_ways(ruleset, seed, [("sample", "probe", {"a": a}, world),
                                  ("sample", "big", {"a": a, "t": Ref("fighter", 1)}, world)])
    value = Interpreter(ruleset, rng=random.Random(1)).sample("probe", {"a": a}, world)[0]
    # outside a game every distance is 0: reach 0 + 3, big 3 + (0 + 1) + 2, reach 2 + 3, twice
    assert value == 2 * (3 + 6 + 5)
    # the callee's own function (not put in place): p_big(I, world, a, t), r left out
    interp = Interpreter(ruleset, rng=random.Random(1))
    p_big = codegen.program_for(interp)._materialise("p", "big")
    assert p_big(interp, world, a, Ref("fighter", 1)) == (6, world)
    assert "        v_r = (I.board.distance(v_a, v_t, world) + 1)" in codegen.program_for(interp).source
    assert value == Interpreter(ruleset, rng=random.Random(1), compiled=False).sample(
        "probe", {"a": a}, world)[0]
    assert "procedure probe" not in codegen.program_for(Interpreter(ruleset)).fallbacks


def test_play_and_simulate_agree_on_a_default_that_reads_earlier_parameters(tmp_path):
    from warband.game.results import PlayRequest
    from warband.game.worker import play
    scenario = _sided_scenario(tmp_path)
    request = PlayRequest(scenario.path, ())
    from warband.game.engine import Game
    for seed in (1, 2, 3):
        assert play(request, seed) == Game(scenario, seed, record=True).play()


# ---- a fault of the generator is a diagnostic naming the rule, never a traceback -----------------

def _broken(*args):
    raise TypeError("tuple indices must be integers or slices, not str")


def test_a_fault_in_generated_code_is_a_diagnostic_naming_the_rule(tmp_path, monkeypatch):
    from warband.game.engine import Game
    from warband.run.codegen.runtime import Interpret
    scenario = _sided_scenario(tmp_path)   # (a new Ruleset: its programs are made below)
    ruleset = scenario.ruleset
    world = make_world(ruleset, [FighterSpec("a", 0, None, {"Might": 3}, position=(1, 1)),
                                 FighterSpec("b", 1, None, {"Might": 4}, position=(4, 5))])
    a, b = Ref("fighter", 0), Ref("fighter", 1)
    monkeypatch.setattr(rt, "aggregate", _broken)
    monkeypatch.setattr("warband.run.codegen.program.norm", _broken)   # (the Program's _norm)
    interp = Interpreter(ruleset, rng=random.Random(1))

    def failure(run) -> tuple:
        with pytest.raises(RulesError) as caught:
            run()
        d = caught.value.diagnostic
        assert d.code == "E914" and "TypeError: tuple indices" in d.message and d.hint
        return d.message.split(" failed")[0], d.span.line
    # a procedure, a sampler's run (its callee put in place: the caller is named), a value
    assert failure(lambda: interp.sample("big", {"a": a, "t": b}, world)) == \
        ("procedure 'big'", 14)
    assert failure(lambda: interp.sampler("probe")(world, a)) == ("procedure 'probe'", 21)
    score = next(e for s, e, _ in scenario.decl.scores if s.name == "blue")
    fn = codegen.program_of(interp).value(score, "score blue")
    assert failure(lambda: fn(interp, world)) == ("the scenario's score for 'blue'", 51)
    # the game's own exceptions go on as they are
    program = codegen.program_of(interp)
    def interpret(*args):
        raise Interpret
    program.namespace["_aggregate"] = program.namespace["_norm"] = interpret
    with pytest.raises(Interpret):
        fn(interp, world)
    program.namespace["_aggregate"] = program.namespace["_norm"] = _broken
    # a whole game, recorded (as `warband play` plays it) or sampled (as `simulate` does)
    for record in (True, False):
        with pytest.raises(RulesError) as caught:
            Game(scenario, 1, record=record).play()
        d = caught.value.diagnostic   # ('end when', asked after the set-up; or the round)
        assert d.code == "E914" and d.span is not None
        assert d.message.split(" failed in the Python generated")[0] in (
            "the scenario's 'end when'", "the scenario's round"), d.message


def _scenario_line(start: str) -> int:
    """The line of the standard game's scenario file that starts so (after its readings)."""
    lines = (ROOT / "scenarios" / "sss-standard-game.rules").read_text().splitlines()
    return next(n for n, line in enumerate(lines, 1) if line.strip().startswith(start))


BROKEN_CLI = """
import runpy, sys
import warband.run.codegen.runtime as rt
def broken(*args):
    raise TypeError("tuple indices must be integers or slices, not str")
rt.aggregate = broken   # (the scores: total(f.Might for f in ...))
runpy.run_module("warband", run_name="__main__", alter_sys=True)
"""


@pytest.mark.parametrize("command", [["play", "sss-standard-game", "--seed", "3"],
                                     ["rules", "check", "--playouts", "2",
                                      "scenarios/sss-standard-game.rules"],
                                     ["simulate", "-n", "2", "sss-standard-game"]])
def test_no_command_shows_a_traceback_for_a_fault_in_generated_code(command):
    import os
    import subprocess
    import sys
    env = {**os.environ, "PYTHONPATH": str(ROOT / "toolkit")}
    result = subprocess.run([sys.executable, "-c", BROKEN_CLI, *command], capture_output=True,
                            text=True, cwd=ROOT, env=env, timeout=300)
    out = result.stdout + result.stderr
    assert result.returncode != 0 and "Traceback" not in out and "╭" not in out, out
    # (the empire's score: the expression on the line after `score empire ... =`)
    assert f"sss-standard-game.rules:{_scenario_line('score empire') + 1}:5: error[E914]: " \
           "the scenario's score for 'empire' " \
           "failed in the Python generated for it (TypeError: tuple indices" in out, out


def test_a_default_that_reads_a_fighters_side_is_generated():
    # the body reads a fighter parameter's side from a local made in the body; a default that
    # read it so too read a local not made yet (IndexError while generating, which the
    # differential tests found)
    ruleset = compiled('''ruleset "x"
counter Fate on side
procedure sided(a: fighter, s: side = a.side, n: number = a.side.Fate) -> number {
  return s.Fate * 10 + n + a.side.Fate
}
procedure calls(a: fighter) -> number {
  let x = sided(a)
  return x
}''')
    world = make_world(ruleset, [FighterSpec("a", 0, None, {}), FighterSpec("b", 1, None, {})],
                       sides=[{"Fate": 2}, {"Fate": 5}])
    program = codegen.program_for(Interpreter(ruleset))
    assert program.fallbacks == {}
    for seed in range(3):
        both_ways(ruleset, seed, [("sample", name, {"a": Ref("fighter", i)}, world)
                                  for name in ("sided", "calls") for i in (0, 1)])
    assert Interpreter(ruleset).sample("sided", {"a": Ref("fighter", 1)}, world)[0] == 60
    assert program._materialise("p", "sided")(None, world, Ref("fighter", 1))[0] == 60


def test_playouts_report_a_fault_of_the_engine_as_a_diagnostic(monkeypatch):
    # the last net under `rules check --playouts`: whatever fails, a diagnostic, not a traceback
    from warband.game import playouts
    from warband.lang.compiler import load as load_rules
    path = str(ROOT / "scenarios" / "sss-standard-game.rules")
    monkeypatch.setattr(playouts.Game, "play", lambda self: _broken())
    found = playouts.playouts(path, load_rules(path), 2)
    assert [(d.code, d.span.line) for d in found] == [("E914", _scenario_line("scenario "))]
    assert found[0].message == "game 1 of the playouts failed: TypeError: tuple indices must " \
                               "be integers or slices, not str"
    assert f"warband play {path} --seed 1" in found[0].hint


def test_a_default_reads_earlier_parameters_in_a_callee_left_to_the_interpreter():
    # the third way a rule's call leaves out a parameter: a callee generated code does not
    # take (Python refuses 22 nested loops) runs through the interpreter, whose default read
    # an empty environment (AttributeError: 'str' object has no attribute 'kind')
    deep = "repeat 1 times { " * 22 + "set n += 1 " + "} " * 22
    ruleset = compiled(f'''ruleset "x"
stat Might: 0..20
procedure deep(a: fighter, r: number = a.Might) -> number {{
  let n = r
  {deep}
  for each x in a.friends {{ return n }}
  return n
}}
procedure calls(a: fighter) -> number {{
  let x = deep(a)
  return x
}}''')
    program = codegen.program_for(Interpreter(ruleset))
    assert "p_deep" in program.fallbacks and "p_calls" not in program.fallbacks
    world = make_world(ruleset, [FighterSpec("a", 0, None, {"Might": 7}),
                                 FighterSpec("b", 0, None, {"Might": 2})])
    for seed in range(2):
        both_ways(ruleset, seed, [("sample", "calls", {"a": Ref("fighter", i)}, world)
                                  for i in (0, 1)])
    assert Interpreter(ruleset).sample("calls", {"a": Ref("fighter", 0)}, world)[0] == 8


def test_a_fault_of_the_generator_leaves_the_rule_to_the_interpreter(monkeypatch):
    # translating a rule fails (a fault of ours): the interpreter runs it, with the same
    # answer; the fallback is noted (the shipped rules are tested to have none)
    def broken(self, e, scope):
        raise TypeError("a fault")
    monkeypatch.setattr(Writer, "field", broken)
    ruleset = compiled(CORNERS)
    world = make_world(ruleset, [FighterSpec("a", 0, "Guard", {"Training": 2}),
                                 FighterSpec("b", 1, None, {"Training": 6})])
    program = codegen.program_for(Interpreter(ruleset))
    assert program.fallbacks["procedure divide"] == "the generator failed (TypeError: a fault)"
    for seed in range(3):
        both_ways(ruleset, seed, [("sample", "divide", {"f": Ref("fighter", 0), "n": 4}, world),
                                  ("allowed", "removing", {"f": Ref("fighter", 1)}, world)])


def test_a_rule_failing_in_a_simulated_game_names_the_seed(tmp_path):
    from warband.game.results import PlayRequest
    from warband.game.worker import ScenarioProblem, play
    path = tmp_path / "broken.rules"
    path.write_text(SIDED.replace("score blue = alive(blue)",
                                  "score blue = alive(blue) / (alive(red) - alive(red))"))
    with pytest.raises(ScenarioProblem) as caught:
        play(PlayRequest(str(path), ()), 5)
    [d] = caught.value.diagnostics
    assert (d.code, d.message) == ("E502", "division by zero (in the game with seed 5)")
    assert d.hint == "replay it alone with --replay 5"
