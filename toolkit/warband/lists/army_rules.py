"""The army rules a ruleset's author writes, checked against a warband.

Three kinds of rule, each with its own message (docs/language.md, "Rules of your own"):

    require TEST "message"                                   the warband as a whole
    every f in fighters [where COND]: TEST "message"         each fighter (or entry)
    at most N f in fighters [where COND] "message"           how many fighters (or entries)

and two kinds of limit a class declares: `group LOW..HIGH` (or `single`), how many fighters one
entry may stand for; `unique`, at most one fighter of the class. A rule reads `fighters` (each
fighter: an entry of `count: 3` is three), `entries` (each entry of the file: its `count`, its
`fighters`, a `fighter` of them, its `name`), the game's `points` and the warband's totals.

A rule that breaks is reported at the entry that breaks it, with the rule as a related place.
When some entries are malformed, a rule is still checked if no entry could change its answer:
one member at a time (`every` that reads nothing of the rest), or a count that only grows
(`at most` over members judged one at a time). The others wait until every entry is well-formed.
"""

from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass
from typing import TYPE_CHECKING

from warband.diagnostics import Related, Span, diag
from warband.lang import nodes
from warband.lang.ruleset import FrozenDict
from warband.lang.unparse import army_rule_text, why_false
from warband.limits import MAX_FIGHTERS
from warband.lists.warband_file import FIGHTERS, Fighter, Warband
from warband.run.dice import Dist
from warband.run.errors import RulesError
from warband.run.evaluate import Record, names_in
from warband.run.world import FIGHTER_REFS, World, make_world

if TYPE_CHECKING:
    from warband.lang.ruleset import Ruleset
    from warband.lists.army import ArmyResult, Place

# the names an army rule reads that depend on every entry of the warband (and total_NAME of
# each named cost)
_WHOLE_WARBAND = frozenset({"fighters", "entries", "total_cost", "total_fighters"})
# rulesets a run validates against at once, each with its interpreter for named costs
KEPT_INTERPRETERS = 16
ENTRY_FIELDS = ("count", "fighters", "fighter", "name")
_BOUND_WORD = {"at most": "allowed", "at least": "needed", "exactly": "required"}


def _plural(n: int, word: str = "fighter") -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


# ---- a class's own limits ------------------------------------------------------------------------

def check_groups(warband: Warband, ruleset: Ruleset, place: Place, result: ArmyResult) -> None:
    """E705: an entry standing for more (or fewer) fighters than its class comes in."""
    for f in warband.fighters:
        cls = ruleset.classes.get(f.fighter_class) if f.fighter_class else None
        if cls is None or cls.group is None:
            continue
        low, high = cls.group
        if low <= f.count <= high:
            continue
        listed = place.data[FIGHTERS][f.index]
        where = place.at(f.path + ("count",)) if "count" in listed else place.fighter(f)
        rule = [Related(cls.group_span, cls.group_doc or f"class {cls.name}'s group size")] \
            if cls.group_span is not None else []
        if (low, high) == (1, 1):
            message = (f"class {cls.name} is bought singly, but entry '{f.name}' stands for "
                       f"{f.count} fighters")
            hint = f"give each {cls.name} an entry of its own, without 'count:'"
        else:
            message = (f"a group of {f.count} ({f.label}); class {cls.name} comes in groups "
                       f"of {low} to {high}")
            hint = (f"split it into groups of at most {high}" if f.count > high
                    else f"set 'count:' to at least {low}")
        result.diagnostics.append(diag("E705", message, where, related=rule, path=f.path,
                                       hint=hint))


# ---- the author's own rules ----------------------------------------------------------------------

@dataclass
class Members:
    """The warband as army rules see it: every fighter (an entry's `count` expanded), each
    entry as a record, and which entry each fighter belongs to."""

    world: World
    fighters: tuple
    entries: tuple
    entry_of: list[Fighter]         # fighter index -> its entry
    entry_records: dict[int, Fighter]   # id of an entry's record -> its entry


def members(warband: Warband, ruleset: Ruleset) -> Members:
    specs, entry_of = [], []
    for f in warband.fighters:
        for spec in f.specs(0):
            specs.append(spec)
            entry_of.append(f)
    world = make_world(ruleset, specs)
    fighters = tuple(FIGHTER_REFS[i] for i in range(len(specs)))
    entries, records, start = [], {}, 0
    for f in warband.fighters:
        own = fighters[start:start + f.count]
        start += f.count
        record = Record(ENTRY_FIELDS, (f.count, own, own[0] if own else None, f.name))
        entries.append(record)
        records[id(record)] = f
    return Members(world, fighters, tuple(entries), entry_of, records)


def _value(v):
    if type(v) is Dist:   # the checker admits no roll in an army rule; a point is a value
        return v.only() if len(v) == 1 else None
    return v


def _local(rule: nodes.ArmyRule, whole: frozenset[str] = _WHOLE_WARBAND) -> bool:
    """Whether a rule judges each member on its own: no entry but the member's can change it."""
    if rule.kind == "require" or rule.var is None:
        return False
    if not (isinstance(rule.group, nodes.Name) and rule.group.name in ("fighters", "entries")):
        return False
    read: set[str] = set()
    for part in (rule.condition, rule.test):
        if part is not None:
            read |= names_in(part)
    if rule.bound is not None:
        read |= names_in(rule.bound.value)
    read.discard(rule.var.name)
    if read & whole:
        return False
    return rule.kind == "every" or (rule.bound is not None and rule.bound.kind == "at most")


def check_rules(warband: Warband, ruleset: Ruleset, interpreter, place: Place,
                result: ArmyResult, *, complete: bool, points_known: bool) -> None:
    army = ruleset.army
    if army is None or not army.rules or interpreter is None:
        return
    size = sum(f.count for f in warband.fighters)
    if size > MAX_FIGHTERS:   # each fighter is made to be looked at: a count of a million is not
        result.diagnostics.append(diag(
            "E707", f"the army rules look at each fighter, and this warband has {size}; at most "
                    f"{MAX_FIGHTERS} can be looked at", place.at((FIGHTERS,), key=True),
            related=[Related(army.rules[0].span, "the first rule")], path=(FIGHTERS,),
            hint="lower the counts"))
        return
    m = members(warband, ruleset)
    env: dict = {"fighters": m.fighters, "entries": m.entries,
                 "total_fighters": len(m.fighters)}
    if result.total is not None:
        env["total_cost"] = result.total
    failed = set()   # named costs that could not be worked out for an entry (reported: E704)
    for name, named in result.named.items():
        if named.total is not None:
            env.setdefault(f"total_{name}", named.total)
        if len(named.costs) < len(warband.fighters):
            failed.add(name)
    interpreter = with_costs(interpreter, ruleset)
    whole = _WHOLE_WARBAND | {f"total_{c.name}" for c in army.costs}
    points = warband.points if warband.points is not None else army.points
    if points is not None:
        env["points"] = points
    for rule in army.rules:
        if not complete and not _local(rule, whole):
            continue
        reads = set().union(*(names_in(p) for p in (rule.condition, rule.test)
                              if p is not None))
        if rule.bound is not None:
            reads |= names_in(rule.bound.value)
        if not points_known and ("points" in reads or rule.bound is not None and
                                 rule.bound.per is not None):
            continue   # the file's `points:` is wrong, and reported
        if "total_cost" in reads and "total_cost" not in env:
            continue   # a cost could not be worked out, and that is reported
        if any(f"total_{name}" in reads and f"total_{name}" not in env
               for name in result.named) or failed & calls_in(rule):
            continue   # the same, for a named cost
        try:
            _check_rule(rule, interpreter, env, m, place, result)
        except Unworkable as failed:
            found, entry = failed.error.diagnostic, failed.entry
            related = [Related(found.span, found.message)] if found.span else []
            who = "this warband" if entry is None else entry.label
            result.diagnostics.append(diag(
                "E707", f"the rule '{_rule_name(rule)}' cannot be worked out for {who}",
                place.at((FIGHTERS,), key=True) if entry is None else place.fighter(entry),
                related=related + [Related(rule.span, "the rule")], hint=found.hint,
                path=(FIGHTERS,) if entry is None else entry.path))


def calls_in(node) -> set[str]:
    """The names of everything a rule calls (a named cost, `crowns(f)`, among them)."""
    found: set[str] = set()
    stack = [node]
    while stack:
        item = stack.pop()
        if isinstance(item, (tuple, list)):
            stack.extend(item)
        elif dataclasses.is_dataclass(item) and not isinstance(item, type):
            if isinstance(item, nodes.Call):
                found.add(item.callee.name)
            stack.extend(getattr(item, f.name) for f in dataclasses.fields(item))
    return found


# an interpreter whose definitions include the named costs, by the interpreter it extends:
# army rules call a named cost as a definition (crowns(f)); one made per ruleset and run
_WITH_COSTS: dict[int, tuple[object, object]] = {}


def with_costs(interpreter, ruleset: Ruleset):
    """The interpreter army rules run with: the ruleset's named costs as definitions."""
    if ruleset.army is None or not ruleset.army.costs:
        return interpreter
    kept = _WITH_COSTS.get(id(interpreter))
    if kept is not None and kept[0] is interpreter:
        return kept[1]
    defines = {**ruleset.defines, **{c.name: c.definition for c in ruleset.army.costs
                                     if c.name not in ruleset.defines}}
    extended = type(interpreter)(dataclasses.replace(ruleset, defines=FrozenDict(defines)))
    if len(_WITH_COSTS) >= KEPT_INTERPRETERS:
        _WITH_COSTS.clear()
    _WITH_COSTS[id(interpreter)] = (interpreter, extended)
    return extended


class Unworkable(Exception):
    """A rule's evaluation failed (a table with no row for a fighter...): for which entry."""

    def __init__(self, error: RulesError, entry: Fighter | None) -> None:
        super().__init__(error.diagnostic.message)
        self.error, self.entry = error, entry


def _run(fn, env: dict, world: World, entry: Fighter | None = None):
    try:
        return _value(fn(env, world))
    except RulesError as error:
        raise Unworkable(error, entry) from error


def _rule_name(rule: nodes.ArmyRule) -> str:
    return rule.doc or army_rule_text(rule)


def _evaluator(fn, env: dict, world: World):
    """The value of any part of a rule, for why_false to say why the rule does not hold."""
    def value(e: nodes.Expr):
        return _value(fn(e)(env, world))
    return value


def _entry_of(ref, m: Members) -> Fighter:
    if type(ref) is Record:
        return m.entry_records[id(ref)]
    return m.entry_of[ref.index]


def _check_rule(rule: nodes.ArmyRule, interpreter, env: dict, m: Members, place: Place,
                result: ArmyResult) -> None:
    fn = interpreter.fn
    rule_place = Related(rule.span, "the rule")
    name = _rule_name(rule)
    if rule.kind == "require":
        test = rule.test
        assert test is not None
        if _run(fn(test), env, m.world) is True:
            return
        reason = why_false(test, _evaluator(fn, env, m.world))
        result.diagnostics.append(diag(
            "E706", name, place.at((FIGHTERS,), key=True), related=[rule_place],
            path=(FIGHTERS,), hint=f"the rule says: {army_rule_text(rule)}; here {reason}"))
        return
    assert rule.var is not None and rule.group is not None
    group = _run(fn(rule.group), env, m.world) or ()
    var = rule.var.name
    chosen, broken = [], []
    for member in group:
        inner, entry = {**env, var: member}, _entry_of(member, m)
        if rule.condition is not None and \
                _run(fn(rule.condition), inner, m.world, entry) is not True:
            continue
        chosen.append(member)
        if rule.test is not None and _run(fn(rule.test), inner, m.world, entry) is not True:
            broken.append((member, inner))
    if rule.kind == "every":
        seen: set[int] = set()
        for member, inner in broken:
            entry = _entry_of(member, m)
            if entry.index in seen:   # the fighters of one entry are alike: once for it
                continue
            seen.add(entry.index)
            test = rule.test
            assert test is not None
            reason = why_false(test, _evaluator(fn, inner, m.world))
            result.diagnostics.append(diag(
                "E706", f"{name} ({entry.label})", place.fighter(entry), related=[rule_place],
                path=entry.path, hint=f"the rule says: {army_rule_text(rule)}; for {entry.label}, "
                                      f"{reason}"))
        return
    of_entries = any(type(g) is Record for g in group) or \
        isinstance(rule.group, nodes.Name) and rule.group.name == "entries"
    _check_count(rule, chosen, of_entries, env, m, place, result, fn)


def _check_count(rule: nodes.ArmyRule, chosen: list, of_entries: bool, env: dict, m: Members,
                 place: Place, result: ArmyResult, fn) -> None:
    bound = rule.bound
    assert bound is not None
    limit = _run(fn(bound.value), env, m.world)
    if bound.per is not None:
        per = _run(fn(bound.per), env, m.world)
        limit = limit * math.floor(env.get("points", 0) / per)
    n = len(chosen)
    if not {"at most": n > limit, "at least": n < limit, "exactly": n != limit}[bound.kind]:
        return
    entries: list[Fighter] = []
    for member in chosen:
        entry = _entry_of(member, m)
        if all(e.index != entry.index for e in entries):
            entries.append(entry)
    word = ("entry" if n == 1 else "entries") if of_entries else \
        ("fighter" if n == 1 else "fighters")
    names = f" ({', '.join(e.label for e in entries)})" if entries else ""
    shown = limit if not isinstance(limit, float) else int(limit)
    per = f" for {env.get('points')} points" if bound.per is not None else ""
    message = f"{_rule_name(rule)}: {n} {word}{names}; {bound.kind} {shown}{per} " \
              f"{_BOUND_WORD[bound.kind]}"
    rule_place = Related(rule.span, "the rule")
    if entries:
        first, others = entries[0], entries[1:]
        related = [Related(s, "also counted") for e in others if (s := place.fighter(e))]
        primary: Span | None = place.fighter(first)
        path: tuple = first.path
    else:
        primary, related, path = place.at((FIGHTERS,), key=True), [], (FIGHTERS,)
    hint = ("remove some of them, or change them" if n > limit
            else "add more that the rule counts")
    result.diagnostics.append(diag("E706", message, primary, related=related + [rule_place],
                                   path=path, hint=f"{hint}; the rule says: {army_rule_text(rule)}"))
