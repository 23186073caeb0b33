"""The army-construction stage: a warband checked against its ruleset's `army` section.

Each fighter's cost is the ruleset's own `cost(f) = ...` expression, run by the interpreter on the
fighter as the rules see it (class, stats, traits and equipment folded together). Then the points
limit (the file's `points:`, or the ruleset's standard game), the number of fighters (`size`), and
every `quota` of a tier, class, trait or equipment, as a count or a share of the fighters. Each
problem names the rule, the count and the limit, and points at the fighters involved and at the
line of the rules file that sets the limit.

A named cost (`cost crowns(f) = ...`) is worked out the same way for each entry, totalled, and
checked against its `limit` (an expression that may read the game's points) when it has one.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import TYPE_CHECKING, Any, cast

from warband.diagnostics import Diagnostic, Related, Sources, Span, diag
from warband.lang import nodes
from warband.lang.ruleset import Cost, Quota
from warband.lists import army_rules
from warband.lists.warband_file import FIGHTERS, Fighter, Warband, span_at
from warband.run.dice import Dist
from warband.run.evaluate import RulesError, names_in
from warband.run.world import Ref, World, make_world

if TYPE_CHECKING:
    from warband.lang.ruleset import Army, Ruleset

_FIGHTER_PHRASE = {"tier": "of {} classes", "class": "of class {}", "trait": "with {}",
                   "equipment": "with {}"}
_BOUND_WORD = {"at most": "allowed", "at least": "needed", "exactly": "required"}


@dataclass
class CostTotal:
    """A named cost of the warband: each entry's, the total and the limit (when known)."""
    name: str
    costs: dict[int, int | Fraction] = field(default_factory=dict)  # entry index -> cost of one
    total: int | Fraction | None = None
    limit: int | Fraction | None = None


@dataclass
class ArmyResult:
    """What the army rules found of a warband: its costs, and its diagnostics."""

    diagnostics: list[Diagnostic] = field(default_factory=list)
    costs: dict[int, int | Fraction] = field(default_factory=dict)  # entry index -> cost of one
    total: int | Fraction | None = None                       # points the warband costs
    limit: int | None = None                                  # the points it may cost
    size: int | None = None                                   # fighters, counting `count`
    named: dict[str, CostTotal] = field(default_factory=dict)   # the named costs, by name


@dataclass
class Place:
    """Where the warband file and the rules file are, for spans."""

    data: Mapping[str, Any]  # the loaded file (YAML values of any kind)
    file: str
    text: str | None
    sources: Sources

    def at(self, path, *, key: bool = False, line: bool = False) -> Span | None:
        return span_at(self.data, tuple(path), self.file, self.text, key=key, line=line)

    def fighter(self, f: Fighter) -> Span | None:
        return self.at(f.path, line=True)

    def rule_line(self, army: Army, keyword: str) -> Span:
        """The line of the army section that starts with `keyword` (points, size)."""
        span = army.span
        text = self.sources.texts.get(span.file)
        if text is not None:
            lines = text.split("\n")
            for n in range(span.line, min(span.end_line, len(lines)) + 1):
                line = lines[n - 1].rstrip()
                stripped = line.lstrip()
                if re.match(rf"{keyword}\b", stripped):
                    start = len(line) - len(stripped) + 1
                    return Span(span.file, n, start, n, len(line) + 1)
        return Span(span.file, span.line, span.column)


def _number_text(value) -> str:
    if isinstance(value, Fraction):
        return str(value.numerator) if value.denominator == 1 else str(value)
    return str(value)


def _points(value) -> str:
    return f"{_number_text(value)} point{'' if value == 1 else 's'}"


def _plural(n: int, word: str = "fighter") -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def world_of(warband: Warband, ruleset: Ruleset) -> World:
    """The fighters as the rules see them: class, traits and equipment folded together."""
    return make_world(ruleset, [f.spec() for f in warband.fighters])


def costs(warband: Warband, ruleset, interpreter, world, place: Place,
          result: ArmyResult) -> bool:
    """The cost of one fighter of each entry, by the ruleset's rule; False if any failed."""
    param, expr = ruleset.army.cost
    return entry_costs(warband, param, expr, None, interpreter, world, place, result.costs,
                       result.diagnostics)


def named_costs(warband: Warband, ruleset, interpreter, world, place: Place,
                result: ArmyResult) -> dict[str, bool]:
    """Each named cost of one fighter of each entry; by name, whether every entry's worked."""
    worked = {}
    for cost in ruleset.army.costs:
        found = result.named[cost.name] = CostTotal(cost.name)
        worked[cost.name] = entry_costs(warband, cost.param, cost.expr, cost.name, interpreter,
                                        world, place, found.costs, result.diagnostics)
    return worked


def entry_costs(warband: Warband, param: str, expr, name: str | None, interpreter, world,
                place: Place, into: dict, diagnostics: list[Diagnostic]) -> bool:
    """One cost (the points, or the cost `name`) of one fighter of each entry, into `into`;
    False if any failed (reported: E704)."""
    fn, ok = interpreter.fn(expr), True
    what = "the cost" if name is None else f"the {name} cost"
    rule_text = "cost(...)" if name is None else f"cost {name}(...)"
    for i, f in enumerate(warband.fighters):
        try:
            value = fn({param: Ref("fighter", i)}, world)
            if type(value) is Dist:
                value = value.only() if len(value) == 1 else None
            if isinstance(value, bool) or not isinstance(value, (int, Fraction)):
                raise TypeError(value)
        except RulesError as error:
            rule = error.diagnostic
            related = [Related(rule.span, rule.message)] if rule.span else []
            diagnostics.append(diag(
                "E704", f"{what} of fighter '{f.name}' cannot be worked out: {rule.message}",
                place.fighter(f), related=related, hint=rule.hint, path=f.path))
            ok = False
            continue
        except (TypeError, ValueError, ArithmeticError):
            diagnostics.append(diag(
                "E704", f"{what} of fighter '{f.name}' is not a number", place.fighter(f),
                related=[Related(expr.span, "the cost rule")], path=f.path,
                hint=f"the ruleset's {rule_text} must give a number for every fighter"))
            ok = False
            continue
        into[f.index] = value
    return ok


def check_named_limits(warband: Warband, named: list[Cost], interpreter, world, place: Place,
                       result: ArmyResult, points, *, points_known: bool) -> None:
    """Each named cost's total, and E701 for one over its limit (`limit NAME EXPR`, which may
    read the game's points)."""
    for cost in named:
        found = result.named[cost.name]
        by_entry = [(f, found.costs[f.index] * f.count) for f in warband.fighters]
        found.total = sum((c for _, c in by_entry), 0)
        if cost.limit is None:
            continue
        reads_points = "points" in names_in(cost.limit)
        if reads_points and (points is None or not points_known):
            continue   # the file's `points:` is wrong, and reported
        try:
            limit = interpreter.fn(cost.limit)({"points": points}, world)
        except RulesError as error:   # the checker admits no roll; a division by zero, say
            found_at = error.diagnostic
            result.diagnostics.append(diag(
                "E704", f"the limit of {cost.name} cannot be worked out: {found_at.message}",
                place.at((FIGHTERS,), key=True), path=(FIGHTERS,),
                related=[Related(cast(Span, cost.limit_span), "the limit")], hint=found_at.hint))
            continue
        if type(limit) is Dist:
            limit = limit.only() if len(limit) == 1 else None
        if isinstance(limit, bool) or not isinstance(limit, (int, Fraction)):
            continue
        found.limit = limit
        if found.total <= limit or not by_entry:
            continue
        unit = cost.name
        (first, first_cost), others = by_entry[0], by_entry[1:]
        related = [Related(s, f"{f.label}: {_number_text(c)} {unit}")
                   for f, c in others if (s := place.fighter(f))]
        related.append(Related(cast(Span, cost.limit_span), cost.limit_doc or "the limit"))
        scaled = f" (in a game of {points} points)" if reads_points else ""
        result.diagnostics.append(diag(
            "E701", f"the warband costs {_number_text(found.total)} {unit}, over the limit of "
                    f"{_number_text(limit)} {unit}{scaled}",
            place.fighter(first), related=related, path=first.path,
            hint=f"{_number_text(found.total - limit)} {unit} too many ({first.label} costs "
                 f"{_number_text(first_cost)} {unit})"))


def check_points(warband: Warband, ruleset, place: Place, result: ArmyResult) -> None:
    army = ruleset.army
    by_entry = [(f, result.costs[f.index] * f.count) for f in warband.fighters]
    result.total = sum((c for _, c in by_entry), 0)
    limit = warband.points if warband.points is not None else army.points
    result.limit = limit if isinstance(limit, int) else None
    if result.limit is None or result.total <= result.limit or not by_entry or not army.capped:
        return   # (campaigns: past a `founding points`, the points no longer cap the cost)
    (first, first_cost), others = by_entry[0], by_entry[1:]
    related = [Related(s, f"{f.label}: {_points(c)}")
               for f, c in others if (s := place.fighter(f))]
    if warband.points is not None:  # the file has 'points:', and loaded data keeps positions
        related.append(Related(cast(Span, place.at(("points",))), "the limit this file sets"))
        larger = ""
    else:
        related.append(Related(place.rule_line(army, "points"), "the ruleset's standard game"))
        larger = "; for a larger game, set 'points:' in the file"
    excess = _points(result.total - result.limit)
    result.diagnostics.append(diag(
        "E701", f"the warband costs {_number_text(result.total)} points; at most {limit} allowed",
        place.fighter(first), related=related, path=first.path,
        hint=f"{excess} too many ({first.label} costs {_points(first_cost)}){larger}"))


def _breaks(bound: str, count, limit) -> bool:
    return {"at most": count > limit, "at least": count < limit,
            "exactly": count != limit}[bound]


def check_size(warband: Warband, ruleset, place: Place, result: ArmyResult, *,
               complete: bool = True) -> None:
    army = ruleset.army
    size = sum(f.count for f in warband.fighters)
    if complete:
        result.size = size
    if army.size is None:
        return
    bound, limit, doc = army.size
    if not isinstance(limit, int) or not _breaks(bound, size, limit):
        return
    if not complete and bound != "at most":
        return   # a malformed entry may hold the fighters missing
    rule = Related(place.rule_line(army, "size"), doc or "the ruleset's rule")
    message = f"{_plural(size)}; {bound} {limit} {_BOUND_WORD[bound]}"
    if size > limit and warband.fighters:
        first, others = warband.fighters[0], warband.fighters[1:]
        related = [Related(s, _also(f)) for f in others if (s := place.fighter(f))]
        result.diagnostics.append(diag(
            "E702", message, place.fighter(first), related=related + [rule], path=first.path,
            hint=f"remove {_plural(size - limit)}, or lower a count"))
    else:
        result.diagnostics.append(diag(
            "E702", message, place.at((FIGHTERS,), key=True), related=[rule], path=(FIGHTERS,),
            hint=f"add {_plural(limit - size)}"))


def _also(f: Fighter) -> str:
    return "also counted" + (f" ({f.count} fighters)" if f.count > 1 else "")


def _matches(quota, fighter) -> bool:
    """Whether a fighter (as the world sees it: class and equipment folded in) is counted."""
    if quota.kind == "tier":
        return fighter.tier == quota.target
    if quota.kind == "class":
        return fighter.fighter_class == quota.target
    if quota.kind == "trait":
        value = fighter.traits.get(quota.target, False)
        return value is True or (not isinstance(value, bool) and value != 0)
    return quota.target in fighter.equipment


def _where_counted(quota: Quota, f: Fighter, ruleset: Ruleset, place: Place) -> Span | None:
    """The place in the entry that makes it count: its class, or the trait or equipment."""
    listed = place.data[FIGHTERS][f.index]
    if quota.kind in ("trait", "equipment"):
        key = "traits" if quota.kind == "trait" else "equipment"
        own = listed.get(key)
        if isinstance(own, dict) and quota.target in own:
            return place.at(f.path + (key, quota.target), key=True)
        if isinstance(own, list) and quota.target in own:
            return place.at(f.path + (key, own.index(quota.target)))
        special = listed.get("special")   # a unit's special models: `special: {Flamer: 1}`
        if quota.kind == "equipment" and isinstance(special, dict) and quota.target in special:
            return place.at(f.path + ("special", quota.target), key=True)
        carried = listed.get("equipment")
        if quota.kind == "trait" and isinstance(carried, list):
            for i, item in enumerate(carried):  # a trait the entry's own equipment grants
                piece = ruleset.equipment.get(item)
                if piece is not None and quota.target in dict(piece.grants):
                    return place.at(f.path + ("equipment", i))
    if "class" in listed:
        return place.at(f.path + ("class",))
    return place.fighter(f)


def _limit_text(quota: Quota, share: bool) -> str:
    if share and quota.limit == 1:
        return "all"
    if share and quota.limit == 0:
        return "none"
    return _number_text(quota.limit)


_KINDS = {"tier": "tiers", "class": "classes", "trait": "traits", "equipment": "equipment"}


def quotas_of(ruleset: Ruleset) -> list[Quota]:
    """Every quota of the army, `quota each KIND` made one per name of its kind, and one of at
    most 1 for each `unique` class."""
    out: list[Quota] = []
    for q in ruleset.army.quotas if ruleset.army is not None else ():
        if q.each:
            out += [replace(q, target=name, each=False)
                    for name in getattr(ruleset, _KINDS[q.kind])]
        else:
            out.append(q)
    for cls in ruleset.classes.values():
        if cls.unique is not None:
            out.append(Quota("class", cls.name, "at most", 1, f"class {cls.name} is unique",
                             cls.unique))
    return out


@dataclass(frozen=True)
class QuotaCount:
    """How a warband stands against one quota: the entries it counts (`counted`), their
    fighters (`n`, counting `count`), and the limit worked out (`wanted`: a share of all
    `total` fighters, or so many per so many points of the game)."""
    quota: Quota
    counted: tuple[Fighter, ...]
    n: int
    wanted: int | Fraction
    share: bool
    total: int

    @property
    def holds(self) -> bool:
        return not _breaks(self.quota.bound, self.n, self.wanted)


def quota_count(quota: Quota, warband: Warband, world: World, points=None) -> QuotaCount | None:
    """The standing of `warband` (whose fighters `world` holds, as world_of makes them) against
    one quota of quotas_of; None where it cannot be worked out: a quota per so many points with
    no game size known, a share of a warband of no fighters."""
    share = quota.share or isinstance(quota.limit, Fraction)
    if quota.per is not None and points is None:
        return None
    total = sum(f.count for f in warband.fighters)
    if share and total == 0:
        return None
    counted = tuple(f for f, w in zip(warband.fighters, world.fighters) if _matches(quota, w))
    wanted = quota.limit * total if share else quota.limit
    if quota.per is not None:
        wanted = quota.limit * math.floor(points / quota.per)
    return QuotaCount(quota, counted, sum(f.count for f in counted), wanted, share, total)


def check_quotas(warband: Warband, ruleset, world, place: Place,
                 result: ArmyResult, *, complete: bool = True, points=None) -> None:
    """Each quota; with complete=False (some entries are malformed), only those a malformed
    entry could not make right: a count of at most N that the well-formed entries pass."""
    if not warband.fighters:
        return
    for quota in quotas_of(ruleset):
        share = quota.share or isinstance(quota.limit, Fraction)
        if not complete and (share or quota.bound != "at most"):
            continue
        standing = quota_count(quota, warband, world, points)
        if standing is None or standing.holds:
            continue
        counted, n, wanted, total = list(standing.counted), standing.n, standing.wanted, \
            standing.total
        scaled = ""
        if quota.per is not None:
            scaled = f" ({_number_text(quota.limit)} per {quota.per} points, in a game of " \
                     f"{points})"
        phrase = _FIGHTER_PHRASE[quota.kind].format(quota.target)
        names = f" ({', '.join(f.label for f in counted)})" if counted else ""
        shown = _number_text(wanted) if quota.per is not None else _limit_text(quota, share)
        limit = f"{quota.bound} {shown} {_BOUND_WORD[quota.bound]}{scaled}"
        if share:
            exact = {"at least": math.ceil, "at most": math.floor}.get(quota.bound)
            if exact is not None and quota.limit not in (0, 1):
                limit += f" ({exact(wanted)} of {total})"
            counted_text = f"{n} of {total} fighters {phrase}{names}"
        else:
            counted_text = f"{_plural(n)} {phrase}{names}"
        rule = Related(quota.span, quota.doc or "the rule")
        if counted:
            first, others = counted[0], counted[1:]
            primary = _where_counted(quota, first, ruleset, place)
            related = [Related(s, _also(f)) for f in others
                       if (s := _where_counted(quota, f, ruleset, place))]
            path = first.path
        else:
            primary, related, path = place.at((FIGHTERS,), key=True), [], (FIGHTERS,)
        hint = None
        if quota.bound != "at most" and n < wanted:
            hint = f"add fighters {phrase}, or replace others with them"
        elif n > wanted:
            hint = f"replace fighters {phrase} with others, or remove some"
        result.diagnostics.append(diag("E703", f"{counted_text}; {limit}", primary,
                                       related=related + [rule], path=path, hint=hint))


def duplicate_names(data: Mapping[str, Any], place: Place) -> list[Diagnostic]:
    """Fighters sharing a name: allowed, but rosters and FILE#NAME cannot tell them apart."""
    found: list[Diagnostic] = []
    first_at: dict[str, int] = {}
    entries = data.get(FIGHTERS)
    for i, entry in enumerate(entries if isinstance(entries, list) else []):
        name = entry.get("name") if isinstance(entry, dict) else None
        if not isinstance(name, str):
            continue
        if name in first_at:
            found.append(diag(
                "W701", f"two fighters are named '{name}'", place.at((FIGHTERS, i, "name")),
                related=[Related(cast(Span, place.at((FIGHTERS, first_at[name], "name"))),
                                 "first named here")], path=(FIGHTERS, i, "name"),
                hint="give each its own name, or write one entry with 'count:'; rosters and "
                     "'warband odds FILE#NAME' find fighters by name"))
        else:
            first_at[name] = i
    return found


def points_cost(ruleset) -> Cost | None:
    """The named cost that the game's points count, in an army priced only in named costs: the
    one whose limit is the game's points (`limit crowns points`). None in an army with a
    `cost(f)` (the points are its own), or with no such cost."""
    army = ruleset.army
    if army is None or army.cost is not None:
        return None
    return next((c for c in army.costs
                 if isinstance(c.limit, nodes.Name) and c.limit.name == "points"), None)


def check(warband: Warband, ruleset, interpreter, data, file: str, text: str | None,
          sources: Sources, *, complete: bool, points_known: bool = True) -> ArmyResult:
    """The army rules for a warband. With complete=False (some entries are malformed and left
    out of `warband`), every rule that no malformed entry could make right is still checked: an
    entry's own cost and group size, a limit of at most N that the others already pass, a rule
    of the author's own that judges one fighter at a time. points_known=False: the file's
    `points:` is malformed (and reported), so nothing that reads it is checked."""
    place = Place(data, file, text, sources)
    result = ArmyResult()
    result.diagnostics += duplicate_names(data, place)
    army_rules.check_groups(warband, ruleset, place, result)
    world = world_of(warband, ruleset)
    if ruleset.army is None:
        check_quotas(warband, ruleset, world, place, result, complete=complete)  # unique classes
        return result
    check_size(warband, ruleset, place, result, complete=complete)
    if ruleset.army.cost is not None and costs(warband, ruleset, interpreter, world, place,
                                               result) and complete:
        check_points(warband, ruleset, place, result)
    points = warband.points if warband.points is not None else ruleset.army.points
    worked = named_costs(warband, ruleset, interpreter, world, place, result)
    if complete:   # a total of every entry: a cost that failed somewhere has none (reported)
        check_named_limits(warband, [c for c in ruleset.army.costs if worked[c.name]],
                           interpreter, world, place, result, points, points_known=points_known)
        priced = points_cost(ruleset)   # the points, in an army priced in crowns
        if priced is not None:
            found = result.named[priced.name]
            result.total = found.total
            result.limit = found.limit if isinstance(found.limit, int) else None
    check_quotas(warband, ruleset, world, place, result, complete=complete,
                 points=points if points_known else None)
    army_rules.check_rules(warband, ruleset, interpreter, place, result, complete=complete,
                           points_known=points_known)
    return result
