"""Exact odds of one action between fighters described on the command line.

A fighter is written as space-separated key=value pairs: `class=NAME STAT=N`. Keys are the
ruleset's stats (lower case), its fighter flags and counters, its side counters (they go to the
fighter's side), trait names (a number, or yes for a bare trait), `equipment=a,b`, `class` and
`name`. Each problem is reported at its column in the text, as for a file.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from fractions import Fraction

from warband.diagnostics import Diagnostic, Span, diag, did_you_mean
from warband.lang.classes import gear_problems
from warband.lang.ruleset import Ruleset
from warband.lang.units import special_problems
from warband.lang.unparse import conjuncts, expr_text, why_false
from warband.run import decks, flow, odds_sampled, strategy
from warband.run.decisions import EXACT_POLICIES, policy_problem
from warband.run.dice import Dist
from warband.run.evaluate import Thunk, infinite
from warband.run.interpreter import Interpreter, Policies, RulesError
from warband.run.odds_pieces import (
    CARRIES,
    carried_kinds,
    carried_pieces,
    piece_changes,
    piece_initial,
    piece_labels,
)
from warband.run.world import FighterSpec, Ref, make_world

_PAIR = re.compile(r"(\S+?)=(\"[^\"]*\"|\S*)|(\S+)")
_TRUE = {"true", "yes", "1", "on"}
_FALSE = {"false", "no", "0", "off"}


@dataclass
class ParsedFighter:
    spec: FighterSpec
    side_values: dict = field(default_factory=dict)
    carries: list = field(default_factory=list)   # kinds of piece it carries (odds_pieces.py)


# a value as a command line writes one: a whole number, a decimal or a fraction (3, -1, 2.5, 1/2),
# of a bounded length and with no exponent: Fraction("1e99999999999999999999") would build a
# number of that many digits (minutes of work and gigabytes, found by the large fuzz run)
_NUMBER_TEXT = re.compile(r"[+-]?([0-9]{1,30}(\.[0-9]{1,30})?|[0-9]{1,30}/[0-9]{1,30})")
_NUMBER_HINT = "write a whole number, a decimal or a fraction (3, -1, 2.5, 1/2) of at most 30 " \
              "digits, with no exponent"


def _number(text: str):
    text = text.strip()
    if not _NUMBER_TEXT.fullmatch(text):
        raise ValueError(text)
    value = Fraction(text)
    return int(value) if value.denominator == 1 else value


def parse_fighter(text: str, origin: str, ruleset: Ruleset, side: int,
                  diagnostics: list[Diagnostic]) -> ParsedFighter:
    spec = FighterSpec(name=origin.lstrip("-"), side=side)
    parsed = ParsedFighter(spec)
    side_states = {n.lower(): n for n, s in ruleset.states.items() if s.owner == "side"}
    fighter_states = {n.lower(): s for n, s in ruleset.states.items() if s.owner == "fighter"}
    traits = {n.lower(): t for n, t in ruleset.traits.items()}
    keys = (["class", "name", "equipment"] + [s.key for s in ruleset.stats.values()]
            + list(side_states) + list(fighter_states) + list(ruleset.traits)
            + (["models", "special"] if ruleset.has_units else [])
            + ([CARRIES] if carried_kinds(ruleset) else []))

    def bad(m: re.Match, group: int, message: str, hint: str | None = None) -> None:
        start, end = m.span(group)
        diagnostics.append(diag("E901", message, Span(origin, 1, start + 1, 1, end + 1),
                                hint=hint))

    given: dict[str, re.Match] = {}   # stats given a value, for those the rules work out
    given_gear: re.Match | None = None
    given_models: re.Match | None = None
    given_special: re.Match | None = None
    meant: set[str] = set()   # the keys a misspelt key was probably meant as
    for m in _PAIR.finditer(text):
        if m.group(3):
            bad(m, 3, f"'{m.group(3)}' is not of the form key=value",
                hint="write fighters as key=value pairs: class=NAME STAT=N ...")
            continue
        key, raw = m.group(1), m.group(2).strip('"')
        low = key.lower()
        try:
            if low == "class":
                if raw not in ruleset.classes:
                    bad(m, 2, f"unknown class '{raw}'", did_you_mean(raw, ruleset.classes))
                else:
                    spec.fighter_class = raw
            elif low == "name":
                spec.name = raw
            elif low == "models" and ruleset.has_units:   # a unit's models (lang/units.py)
                given_models = m
                spec.models = int(raw)
            elif low == CARRIES and carried_kinds(ruleset):   # carries=crate: a piece it holds
                kinds = carried_kinds(ruleset)
                for kind in filter(None, raw.split(",")):
                    if kind not in kinds:
                        bad(m, 2, f"no kind of piece '{kind}' a fighter can carry",
                            did_you_mean(kind, kinds) or f"kinds: {', '.join(kinds)}")
                    else:
                        parsed.carries.append(kind)
            elif low == "special" and ruleset.has_units:   # special=Flamer:1,Pistol:1
                given_special = m
                spec.special = {}
                for item in filter(None, raw.split(",")):
                    piece, _, count = item.partition(":")
                    spec.special[piece] = int(count or "1")
            elif low == "equipment":
                given_gear = m
                for item in filter(None, raw.split(",")):
                    if item not in ruleset.equipment:
                        bad(m, 2, f"unknown equipment '{item}'",
                            did_you_mean(item, ruleset.equipment))
                    else:
                        spec.equipment += (item,)
            elif (stat := ruleset.stat_by_key(low)) is not None:
                given[stat.name] = m
                if stat.enum:
                    members = [n for n, _ in ruleset.enums[stat.enum]]
                    if raw not in members:
                        bad(m, 2, f"{stat.name} must be one of {', '.join(members)}",
                            did_you_mean(raw, members))
                    spec.stats[stat.name] = raw
                else:
                    value = _number(raw)
                    if stat.low is not None and not stat.low <= value <= stat.high:
                        bad(m, 2, f"{stat.name} {value} is outside {stat.low}..{stat.high}")
                    spec.stats[stat.name] = value
            elif low in side_states:
                parsed.side_values[side_states[low]] = _number(raw)
            elif low in fighter_states:
                state = fighter_states[low]
                if state.kind == "flag":
                    if raw.lower() not in _TRUE | _FALSE:
                        bad(m, 2, f"{state.name} is yes or no, not '{raw}'")
                    spec.state[state.name] = raw.lower() in _TRUE
                else:
                    spec.state[state.name] = _number(raw)
            elif low in traits:
                trait = traits[low]
                if trait.numeric:
                    spec.traits[trait.name] = _number(raw)
                elif raw.lower() in _TRUE:
                    spec.traits[trait.name] = True
                elif raw.lower() not in _FALSE:
                    bad(m, 2, f"trait {trait.name} carries no number; write {key}=yes")
            else:
                hint = did_you_mean(key, keys)
                bad(m, 1, f"unknown key '{key}'", hint)
                if hint:   # 'mite=10' is a misspelt might, not a might missing as well
                    meant.update(re.findall(r"'([^']*)'", hint))
        except (ValueError, ZeroDivisionError):
            bad(m, 2, f"'{raw}' is not a number", _NUMBER_HINT)
    derived: set[str] = set()   # the stats the rules work out for this fighter
    if any(s.derived is not None for s in ruleset.stats.values()):
        interpreter, world = Interpreter(ruleset), make_world(ruleset, [spec])
        try:
            derived = {n for n, s in ruleset.stats.items() if s.derived is not None and
                       interpreter.works_out(n, Ref("fighter", 0), world)}
        except (RulesError, TypeError):   # a condition that fails here (or reads a stat
            # this fighter lacks, reported just below) fails in the odds: reported there
            derived = {n for n, s in ruleset.stats.items() if s.always_derived}
        for name, m in given.items():
            if name in derived:
                bad(m, 1, f"{name} is worked out by the rules for this fighter, so it cannot "
                          "be given", f"leave out {m.group(1)}=...; give what it is worked "
                                      "out from")
    _class_bounds(spec, given, ruleset, bad)
    cls = ruleset.classes.get(spec.fighter_class) if spec.fighter_class else None
    if given_models is not None:   # within the unit's bounds, as a warband entry's models
        unit = cls.unit if cls is not None else None
        if unit is None or unit.span is None:
            bad(given_models, 1, f"{'class ' + cls.name if cls else 'a fighter with no class'}"
                                 " is not a unit of several models, so it takes no models",
                "leave out models=...; give class=NAME of a class with a 'models' line")
        elif spec.models is not None and not unit.allows(spec.models):
            bad(given_models, 2, f"class {spec.fighter_class} fields {unit.shown} models, not "
                                 f"{spec.models}")
    if given_special is not None:   # as a warband entry's `special:` (E636, E637)
        unit = cls.unit if cls is not None and cls.unit is not None and \
            cls.unit.span is not None else None
        models = spec.models or (unit.default if unit else 1)
        for _, _, message, hint, _ in special_problems(unit, models, spec.special or {}):
            bad(given_special, 2, message, hint)
    if cls is not None and given_gear is not None:   # as a warband entry's: E632, E633
        for problem in gear_problems(cls, spec.name, tuple(spec.equipment)):
            bad(given_gear, 2, problem.message, problem.hint)
    for stat in ruleset.stats.values():
        has_class_value = spec.fighter_class and stat.name in \
            ruleset.classes[spec.fighter_class].given
        if stat.default is None and stat.name not in spec.stats and not has_class_value \
                and stat.name not in derived and stat.key not in meant:
            end = len(text) + 1
            diagnostics.append(diag("E901", f"missing {stat.key}", Span(origin, 1, end),
                                    hint=f"add {stat.key}=N"))
    if ruleset.classes and spec.fighter_class is None and "class" not in meant and not any(
            d.message.startswith("unknown class") for d in diagnostics):
        diagnostics.append(diag("E901", "missing class", Span(origin, 1, len(text) + 1),
                                hint=f"add class=NAME, one of {', '.join(ruleset.classes)}"))
    return parsed


def _class_bounds(spec: FighterSpec, given: dict[str, re.Match], ruleset: Ruleset, bad) -> None:
    """A stat the fighter's class fixes cannot be given; one it bounds must lie within, as in a
    warband file (E631, E623: lists/class_stats.py)."""
    cls = ruleset.classes.get(spec.fighter_class) if spec.fighter_class else None
    if cls is None:
        return
    for name, m in given.items():
        stat = ruleset.stats[name]
        choice = cls.choice(name)
        value = spec.stats.get(name)
        if cls.fixes(name):
            bad(m, 1, f"class {cls.name} fixes {name} at {dict(cls.stats)[name]}, so it cannot "
                      "be given", f"leave out {m.group(1)}=...")
        elif choice is not None and value is not None and not choice.allows(value) and (
                value in [n for n, _ in ruleset.enums.get(stat.enum or "", ())] if stat.enum
                else stat.low is None or stat.high is None or stat.low <= value <= stat.high):
            bad(m, 2, f"{name} {value} is not one of {choice.shown}, the values class "
                      f"{cls.name} allows" if choice.members else
                f"{name} {value} is outside {choice.shown}, the range class {cls.name} allows",
                f"give {m.group(1)}= {'one of' if choice.members else 'a value in'} "
                f"{choice.shown}")


def parse_policies(values: list[str], ruleset: Ruleset,
                   diagnostics: list[Diagnostic]) -> Policies:
    """'greedy' sets the default; 'fate_reroll=random' or 'fate_reroll=keep' one decision."""
    policies = Policies()
    for i, text in enumerate(values):
        origin = "--policy"
        name, _, value = text.rpartition("=")
        span = Span(origin, 1, 1, 1, len(text) + 1)
        if not name:
            if value not in EXACT_POLICIES:
                searching = value == "mcts" or value.startswith("mcts:")
                diagnostics.append(diag("E901", f"unknown policy '{value}'", span,
                                        hint="odds are exact: greedy weighs each option "
                                             "exactly, where mcts samples games" if searching
                                        else did_you_mean(value, EXACT_POLICIES)
                                        or f"policies: {', '.join(EXACT_POLICIES)}"))
            policies.default = value
            continue
        if name not in ruleset.decisions:
            diagnostics.append(diag("E901", f"no decision named '{name}'", span,
                                    hint=did_you_mean(name, ruleset.decisions)
                                    or f"decisions: {', '.join(ruleset.decisions) or 'none'}"))
            continue
        problem = policy_problem(ruleset, name, value)
        if problem is not None:
            diagnostics.append(diag("E901", problem[0], span, hint=problem[1]))
        policies.by_decision[name] = value
    return policies


class NotAllowed(Exception):
    """The action's 'requires' does not hold for the fighters given: `requirement` is the first
    part of it (an `and` of parts) that is false, as written; `reason` says why, with the values
    it found ("the attacker has no Ranged")."""

    def __init__(self, requirement: str, reason: str) -> None:
        super().__init__(requirement)
        self.requirement = requirement
        self.reason = reason


def _refusal(interpreter: Interpreter, decl, args: dict, world) -> NotAllowed:
    """Ask the parts of a `requires` one by one, and name the first that does not hold."""
    env = interpreter.requirement_env(decl, args, world)

    def value(e):
        return interpreter.fn(e)(dict(env), world)
    for part in conjuncts(decl.requires):
        if value(part) is not True:
            return NotAllowed(expr_text(part), why_false(part, value))
    return NotAllowed(expr_text(decl.requires), f"{expr_text(decl.requires)} is false")


@dataclass
class OddsResult:
    action: str
    distribution: Dist
    order: list          # outcomes in the order the rules declare them
    expected: Fraction | None
    effects: dict = field(default_factory=dict)   # "target.Stunned" -> Dist of its value after
    solution: strategy.Solution | None = None      # with --solve
    samples: int | None = None   # with --samples: the runs the shares are of (else exact)


def _labels(decl, world) -> tuple[dict, dict]:
    """Names for what an action can change: the fighters by their parameter names."""
    fighters: dict[int, str]
    sides: dict[int, str]
    fighters, sides = {}, {}
    params = [p.name.name for p in decl.params if p.type and p.type.name == "fighter"]
    for i, f in enumerate(world.fighters):
        label = params[i] if i < len(params) else f.name
        fighters[i] = label
        sides.setdefault(f.side, f"{label}.side")
    for i in range(len(world.sides)):
        sides.setdefault(i, f"side {i + 1}")
    return fighters, sides


def _observer(decl, world, interpreter: Interpreter):
    fighters, sides = _labels(decl, world)
    derived = [n for n, s in interpreter.ruleset.stats.items() if s.derived is not None]

    def values(w, i: int) -> dict:
        """A fighter's values, its derived stats worked out (a level that follows XP)."""
        found = w.fighters[i].values
        if flow.ACTIVATIONS in found:   # (activations counted: no game, no action played)
            found = {**{k: v for k, v in found.items() if k != flow.ACTIVATIONS},
                     "activations": found[flow.ACTIVATIONS]}
        if "#models" in found:   # a unit's: its models left and the wounds of the one hit
            found = shown_unit_values(found)
        if not derived:
            return found
        return {**found, **{n: interpreter.derived_stat(Ref("fighter", i), n, w)
                            for n in derived}}

    initial = {}
    before = [values(world, i) for i in range(len(world.fighters))]
    for i, f in enumerate(world.fighters):
        initial.update({f"{fighters[i]}.{k}": v for k, v in before[i].items()})
        initial[f"{fighters[i]}.removed"] = False
        initial[f"{fighters[i]}.activations"] = 0   # (`activate` outside a game: run/flow.py)
        if "models" in before[i]:
            initial[f"{fighters[i]}.models lost"] = 0
    for i, side in enumerate(world.sides):
        initial.update({f"{sides[i]}.{k}": v
                        for k, v in decks.shown(interpreter.ruleset, side.values).items()})
    labels = piece_labels(world, fighters)   # pieces a fighter carries: dropped, seized
    initial.update(piece_initial(world, labels, sides))

    def changes(after) -> tuple:
        out = []
        for i, f1 in enumerate(after.fighters[:len(before)]):
            out += [(f"{fighters[i]}.{k}", v) for k, v in values(after, i).items()
                    if initial[f"{fighters[i]}.{k}"] != v]
            lost = before[i].get("models", 0) - values(after, i).get("models", 0)
            if lost:   # a unit's models lost: the outcome a unit as target is weighed by
                out.append((f"{fighters[i]}.models lost", lost))
            if f1.removed:
                out.append((f"{fighters[i]}.removed", True))
        for i, (s0, s1) in enumerate(zip(world.sides, after.sides)):
            shown0 = decks.shown(interpreter.ruleset, s0.values)   # (decks by their cards)
            out += [(f"{sides[i]}.{k}", v)
                    for k, v in decks.shown(interpreter.ruleset, s1.values).items()
                    if shown0[k] != v]
        if labels:
            out += piece_changes(world, after, labels, sides)
        return tuple(out)
    return changes, initial


def shown_unit_values(values: dict) -> dict:
    """A fighter's values as the odds report them: a unit's models left and the wounds left
    on the model now taking wounds, by the names the rules read them with (lang/units.py);
    what cannot change in play (the models it started with, a model's wounds) left out."""
    out = {k: v for k, v in values.items() if not k.startswith("#")}
    out["models"] = values["#models"]
    out["wounds_left"] = values["#wounds_left"]
    if "#specials" in values:   # one model with a different weapon: the models carrying it
        for (piece, _), left in zip(values["#specials"], values["#special_left"]):
            out[f"models carrying {piece}"] = left
    return out


@dataclass(frozen=True)
class DiceArgument:
    """A dice parameter given on the command line (`--with dice=2d6`): the roll's expression,
    passed as a call passes dice (a Thunk: rolled anew each time the procedure reads it)."""
    text: str
    expr: object


def dice_argument(text: str) -> DiceArgument | None:
    """The roll written in text, or None when it is not one."""
    # lazily: only a dice parameter given on the command line compiles anything here
    from warband.lang.compiler import compile_text
    source = f'ruleset "odds"\naction roll(f: fighter) -> number {{\n  return {text}\n}}\n'
    found = compile_text(source, "--with")
    if found.ruleset is None or "\n" in text or "}" in text:
        return None
    return DiceArgument(text, found.ruleset.procedures["roll"].body.stmts[0].value)


def compute(ruleset: Ruleset, action: str, fighters: list[ParsedFighter], options: dict,
            policies: Policies, solve: bool = False, samples: int | None = None,
            seed: int = 1) -> OddsResult:
    """Raises RulesError when a rule fails while running. With samples: the action played that
    many times from seed, each outcome's share of the runs (run/odds_sampled.py)."""
    decl = ruleset.procedures[action]
    sides: list[dict] = [dict() for _ in range(max(2, len(fighters)))]
    for pf in fighters:
        sides[pf.spec.side].update(pf.side_values)
    world = make_world(ruleset, [pf.spec for pf in fighters], sides)
    if any(pf.carries for pf in fighters):   # pieces the fighters carry (odds_pieces.py)
        world = world.with_pieces(carried_pieces(ruleset, [pf.carries for pf in fighters]))
    args, fighter_refs = {}, iter(range(len(fighters)))
    for p in decl.params:
        type_name = p.type.name if p.type else "number"
        if type_name == "fighter":
            index = next(fighter_refs, None)
            if index is not None:
                args[p.name.name] = Ref("fighter", index)
        elif type_name == "side" and fighters:
            args[p.name.name] = Ref("side", 0)
        if p.name.name in options:
            args[p.name.name] = options[p.name.name]
    interpreter = Interpreter(ruleset, policies)
    for name, value in args.items():   # (dice given on the command line: rolled at each use)
        if type(value) is DiceArgument:
            args[name] = Thunk(interpreter.fn(value.expr), value.expr, {})
    # the actor (its first fighter) removes whom the action removes, unless it says who does
    interpreter.acting = next((v for v in args.values() if isinstance(v, Ref) and
                               v.kind == "fighter"), None)
    if not interpreter.allowed(action, args, world):
        raise _refusal(interpreter, decl, args, world)
    observe, initial = _observer(decl, world, interpreter)
    if samples is None:
        joint = interpreter.exact(action, args, world, observe=observe)
    else:
        joint = odds_sampled.joint(interpreter, action, args, world, observe, samples, seed)
    dist = joint.map(lambda pair: pair[0])
    changed = sorted({label for pair in joint for label, _ in pair[1]})
    effects = {label: joint.map(lambda pair, label=label: dict(pair[1]).get(label,
                                                                         initial[label]))
               for label in changed}
    if decl.result is not None and decl.result.name in ruleset.outcomes:
        order = [name for name, _ in ruleset.outcomes[decl.result.name].scores]
    else:
        order = sorted(dist, key=lambda v: (str(type(v)), v))
    expected = None
    # (an average with the distance to nothing in it would be a number of 18 digits: none)
    if all(isinstance(v, (int, Fraction)) and not isinstance(v, bool) and not infinite(v)
           for v in dist):
        expected = dist.mean()
    solution = None
    if solve:
        try:
            solution = strategy.solve(ruleset, action, args, world, policies, actor_side=0)
        except strategy.TooLarge as error:
            raise RulesError(diag("E403", f"too many secret choices to solve exactly: {error}",
                                  decl.name.span, hint="fix some choices with --policy "
                                                       "DECISION=VALUE")) from None
    return OddsResult(action, dist, order, expected, effects, solution, samples)


def _choices(script: dict) -> str:
    return " ".join(f"{k}={v}" for k, v in script.items()) or "(nothing to choose)"


def solution_lines(solution) -> list[str]:
    """The solved game in words, for the text report."""
    value = fraction_text(solution.value)
    lines = ["secret choices, both sides playing their best (the action's score, for the "
             "acting side):"]
    if solution.pure:
        lines.append(f"  a saddle point: neither side gains by mixing; expected score {value}")
        lines.append(f"  acting side:  {_choices(solution.rows[solution.row_mix.index(1)])}")
        lines.append(f"  other side:   {_choices(solution.columns[solution.column_mix.index(1)])}")
        return lines
    lines.append(f"  no saddle point: both sides should mix; expected score {value}")
    for label, scripts, mix in (("acting side", solution.rows, solution.row_mix),
                                ("other side", solution.columns, solution.column_mix)):
        for script, p in zip(scripts, mix):
            if p:
                lines.append(f"  {label:12}  {fraction_text(p):>7}  {_choices(script)}")
    lines.append(f"  best pure choice if the other side could see it: "
                 f"{_choices(solution.rows[solution.maximin])} "
                 f"(expected score at least {fraction_text(solution.maximin_value)})")
    return lines


def solution_json(solution) -> dict:
    def mix(scripts, probabilities):
        return [{"choices": s, "probability": fraction_text(p)}
                for s, p in zip(scripts, probabilities) if p]
    return {
        "value": fraction_text(solution.value),
        "saddle_point": solution.pure,
        "acting_side": mix(solution.rows, solution.row_mix),
        "other_side": mix(solution.columns, solution.column_mix),
        "maximin": {"choices": solution.rows[solution.maximin],
                    "value": fraction_text(solution.maximin_value)},
    }


def fraction_text(p: Fraction) -> str:
    return f"{p.numerator}/{p.denominator}" if p.denominator != 1 else str(p.numerator)


def as_json(result: OddsResult, ruleset: Ruleset, policies: Policies) -> dict:
    # An action with no result gives null outcomes (what it changes, `effects`, is its odds),
    # not {"None": "1"}: a ruleset may name an outcome None.
    no_result = list(result.order) == [None]
    out: dict[str, object] = {
        "ruleset": ruleset.id,
        "action": result.action,
        "outcomes": None if no_result else {
            outcome_text(v): fraction_text(result.distribution[v]) for v in result.order},
        "percent": None if no_result else {
            outcome_text(v): round(float(result.distribution[v]) * 100, 4)
            for v in result.order},
        "policy": {"default": policies.default, **policies.by_decision},
    }
    if result.expected is not None:
        out["expected"] = fraction_text(result.expected)
    if result.samples is not None:   # shares of sampled runs, each with its 95% interval
        out["samples"] = result.samples
        out["interval95"] = None if no_result else {
            outcome_text(v): [round(x * 100, 4) for x in odds_sampled.interval(
                result.distribution[v], result.samples)] for v in result.order}
    if result.solution is not None:
        out["solution"] = solution_json(result.solution)
    out["effects"] = {label: {key_text(v): fraction_text(p) for v, p in sorted(
        d.items(), key=lambda item: (str(type(item[0])), item[0]))}
        for label, d in result.effects.items()}
    return out


def key_text(value) -> str:
    if value is True or value is False:
        return "yes" if value else "no"
    return outcome_text(value)


def outcome_text(value) -> str:
    """An action's result as odds name it: in the rules' words (`true`, an outcome's name, a
    fraction as 3/2, the distance to nothing as `infinite`), never Python's (`True`, `inf`)."""
    if value is True or value is False:
        return "true" if value else "false"
    if infinite(value):   # the distance to nothing (evaluate.FAR)
        return "infinite" if value > 0 else "-infinite"
    if isinstance(value, Fraction):
        return fraction_text(value)
    return str(value)


__all__ = ["parse_fighter", "parse_policies", "compute", "as_json", "outcome_text", "RulesError",
           "NotAllowed"]
