"""The roster of a warband as a player needs it at the table, as plain data.

    warband file -> validation (YAML, ruleset, schema, army rules) -> the fighters as the rules see
    them (warband.run.world: class, traits and equipment folded together) -> costs (the ruleset's own
    `cost(f)`, run as warband.lists.army runs it) -> a plain model: dicts, lists, strings and numbers

The model is what templates get (render_roster.py turns it into text, markdown, HTML or PDF; a
user's own Jinja2 template gets the same model). Nothing here prints, and nothing here knows a
game: stats, classes, traits and equipment are the ruleset's own, with their descriptions from the
rules file. The glossary holds only the rules this list uses.

Model (every value a str, int, bool, None, list or dict):

    title, file, notes
    ruleset:  {id, title, source}
    stats:    [{name, numeric, doc, derived}]       column heads, in the ruleset's order;
                                                    derived: how the rules work it out, or None
    has_classes, has_points, has_traits, has_equipment   whether there are classes / a cost
                                                    rule / fighters with traits / equipment
    costs:    [{name, doc}]                         the army's named costs (`cost crowns(f)`)
    fighters: [{name, count, class, tier, stats: [{name, value, derived}], traits: [{name, value,
               text, doc}], equipment: [{name, doc, count, text}], cost, points, points_text,
               notes,
               costs: [{name, cost, total, text}],   costs: each named cost, in costs' order
               models: {count, wounds, rows: [text]} or None,   a unit's models, a row of
                                                    wound boxes each
               weapons: [{name, doc, values: [{name, value}], traits}],   the pieces it
                                                    carries with their profile values, in
                                                    rules that declare any (else empty)
               actions: [{name, doc, when, pieces, label, text}],   the rules' actions it may
                                                    take (with which pieces, for one taken with
                                                    a piece); `when` what play decides
               ticks: [{name, kind, doc, boxes, row}],   a box per flag, a row of boxes (or a
                                                    blank: boxes None) per counter on fighters
               copies,                              lines of those boxes: one per fighter of
                                                    the entry (its count, up to MAX_CARD_BOXES)
               valid, problems: [{severity, code, message, where, text, hint}],   its own
                                                    problems
               unread: [str],                       what of the entry could not be read
                                                    ("class", a stat's name, "count", "traits",
                                                    "equipment"): left out of its counts and
                                                    shown marked "?" (a class or a piece as
                                                    written, then "?"; a stat as "?")
               broken}]                             an entry too malformed to read: only its
                                                    name (or "entry N") and its problems
    side:     [{name, kind, doc, boxes, row}]       the side's flags and counters, once
    reference: [{name, doc, params, columns, rows: [{key, values, doc}]}]   the tables the rules
                                                    mark `for reference`, once
    totals:   [{name, used, limit, bound, text, ok}]   points, each named cost and fighters,
                                                    where defined; what can be counted: "at
                                                    least N" when an entry cannot be
    valid, status, problems: [{severity, code, message, where, text, hint}]
    glossary: [{title, kind, entries: [{name, doc, detail}]}]   only sections with entries
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING, BinaryIO

from warband.diagnostics import Diagnostic, Sources
from warband.lang.units import model_kits
from warband.lang.unparse import expr_text
from warband.limits import MAX_CARD_BOXES, MAX_SHOWN_PER_FILE
from warband.lists import army, card_rules
from warband.lists.validate import FileResult, Validation
from warband.lists.warband_file import FIGHTERS

if TYPE_CHECKING:
    from warband.lang.ruleset import Ruleset
    from warband.lists.warband_file import Fighter, Warband
    from warband.run.world import Fighter as WorldFighter
    from warband.run.world import World



@dataclass
class Roster:
    """One roster: the validation it came from and, if the file could be read, its model."""

    result: FileResult
    sources: Sources
    model: dict | None = None
    diagnostics: list[Diagnostic] = field(default_factory=list)

    @property
    def usable(self) -> bool:
        """Whether there is a roster to show (the file was read and its ruleset found)."""
        return self.model is not None

    @property
    def valid(self) -> bool:
        return self.model is not None and not self.result.failed()


def roster(arg: str, *, default_ruleset: str | None = None,
           stdin: BinaryIO | None = None) -> Roster:
    """The roster of a warband file (a path, or '-' for standard input)."""
    validation = Validation(default_ruleset, stdin)
    result = validation.file(arg)
    out = Roster(result, validation.sources, diagnostics=list(result.diagnostics))
    if result.unusable or result.warband is None or result.ruleset is None:
        return out
    out.model = build(result, validation.sources)
    return out


def roster_text(text: str, name: str = "warband.yaml", *,
                default_ruleset: str | None = None) -> Roster:
    """The roster of a warband given as text (for tests and tools)."""
    validation = Validation(default_ruleset)
    result = validation.text(text, name)
    out = Roster(result, validation.sources, diagnostics=list(result.diagnostics))
    if not (result.unusable or result.warband is None or result.ruleset is None):
        out.model = build(result, validation.sources)
    return out


# ---- the model -----------------------------------------------------------------------------------

def number_text(value: object) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, Fraction):
        return str(value.numerator) if value.denominator == 1 else str(value)
    return str(value)


def _costs(warband: Warband, ruleset: Ruleset, world: World) -> army.ArmyResult:
    """The cost of one fighter of each entry, by the ruleset's `cost(f)` and each named cost,
    as army.py works them out; an entry whose cost cannot be worked out is missing (validation
    reports why)."""
    found = army.ArmyResult()
    if ruleset.army is None or (ruleset.army.cost is None and not ruleset.army.costs):
        return found
    # lazily: the interpreter (and the code generator under it) only for a cost rule
    from warband.run.interpreter import Interpreter
    interpreter = Interpreter(ruleset)
    place = army.Place({}, warband.file, None, Sources())  # spans only for its own diagnostics
    if ruleset.army.cost is not None:
        army.costs(warband, ruleset, interpreter, world, place, found)
    army.named_costs(warband, ruleset, interpreter, world, place, found)
    return found


def _cost_text(count: int, cost: int | Fraction | None) -> tuple[str | None, str | None]:
    """A cost of an entry (`count` fighters of `cost` each): its total and how it is made."""
    if cost is None:
        return None, None
    total = number_text(cost * count)
    return total, total if count == 1 else f"{count} × {number_text(cost)} = {total}"


def _derived(ruleset: Ruleset, world: World) -> list[dict]:
    """Each fighter's derived stats, worked out by the rules as play would ("?" for one that
    cannot be: the rule that works it out fails for this fighter)."""
    names = [name for name, stat in ruleset.stats.items() if stat.derived is not None]
    if not names:
        return [{} for _ in world.fighters]
    # lazily: the interpreter (and the code generator under it) only for derived stats
    from warband.run.interpreter import RulesError
    from warband.run.world import Ref
    interpreter, out = _interpreter(ruleset), []
    for i in range(len(world.fighters)):
        values = {}
        for name in names:
            try:   # (a stat worked out for some fighters only is given for the others)
                if interpreter.works_out(name, Ref("fighter", i), world):
                    values[name] = interpreter.derived_stat(Ref("fighter", i), name, world)
            except RulesError:
                values[name] = "?"
        out.append(values)
    return out


def _interpreter(ruleset: Ruleset):
    """The ruleset's interpreter, made once for a roster (its compiled rules are cached in it)."""
    # lazily: the interpreter (and the code generator under it) only for a roster's rules
    from warband.run.interpreter import Interpreter
    return Interpreter(ruleset)


def _has_source(name: str, fighter: Fighter, seen: WorldFighter, ruleset: Ruleset) -> bool:
    """Whether the class, the entry or a piece of equipment gives the trait at all (a numeric
    trait given as 0, such as an ordinary weapon's damage, is still shown)."""
    cls = ruleset.classes.get(fighter.fighter_class) if fighter.fighter_class else None
    if cls and any(n == name for n, _ in cls.traits):
        return True
    if name in fighter.traits:
        return True
    return any(name == n for e in seen.equipment if e in ruleset.equipment
               for n, _ in ruleset.equipment[e].grants)


def _traits(fighter: Fighter, seen: WorldFighter, ruleset: Ruleset) -> list[dict]:
    out = []
    for name, value in seen.traits.items():   # the ruleset's order, values combined by the world
        if value is False or (value == 0 and not _has_source(name, fighter, seen, ruleset)):
            continue
        doc = ruleset.traits[name].doc
        if value is True:
            out.append({"name": name, "value": None, "text": name, "doc": doc})
        else:
            out.append({"name": name, "value": number_text(value),
                        "text": f"{name}({number_text(value)})", "doc": doc})
    return out


def _fighter(fighter: Fighter, seen: WorldFighter, cost: int | Fraction | None,
             ruleset: Ruleset, derived: dict, named: dict[str, army.CostTotal]) -> dict:
    values = {name: derived[name] if name in derived else seen.values.get(name)
              for name in ruleset.stats}
    stats = [{"name": name, "value": "?" if value is None else number_text(value),
              "derived": name in derived}   # worked out by the rules (a level from XP)
             for name, value in values.items()]
    # each piece once: a piece carried twice (the class's and the entry's) is "Dagger × 2"
    carried: dict[str, int] = {}
    for e in seen.equipment:
        carried[e] = carried.get(e, 0) + 1
    equipment = [{"name": e, "doc": ruleset.equipment[e].doc if e in ruleset.equipment else None,
                  "count": n, "text": e if n == 1 else f"{e} × {n}"}
                 for e, n in carried.items()]
    points = cost * fighter.count if cost is not None else None
    if cost is None:
        points_text = None
    elif fighter.count == 1:
        points_text = number_text(cost)
    else:
        points_text = f"{fighter.count} × {number_text(cost)} = {number_text(points)}"
    return {
        "name": fighter.name,
        "count": fighter.count,
        "class": fighter.fighter_class,
        "tier": seen.tier,
        "stats": stats,
        "traits": _traits(fighter, seen, ruleset),
        "equipment": equipment,
        "cost": number_text(cost) if cost is not None else None,
        "points": number_text(points) if points is not None else None,
        "points_text": points_text,
        "notes": str(fighter.notes) if fighter.notes is not None else None,
        "costs": [_named_cost(name, fighter, found.costs.get(fighter.index))
                  for name, found in named.items()],
        "models": _models(seen, ruleset),
    }


def _models(seen: WorldFighter, ruleset: Ruleset) -> dict | None:
    """A unit's models for its card: how many, a model's wounds, and a row of wound boxes per
    model to tick in play (docs/language.md, "Units of several models"); None for a fighter
    of a class that is no unit."""
    cls = ruleset.classes.get(seen.fighter_class) if seen.fighter_class else None
    if cls is None or cls.unit is None:
        return None
    count, wounds = seen.values["#models"], seen.values["#model_wounds"]
    if cls.unit.span is None and wounds <= 1:   # one model of one wound: nothing to tick
        return None
    # a special model's row says what it carries (the plain models first, as they fall first)
    notes = [""] * count
    if seen.values.get("#specials"):
        (plain_left, plain), *groups = model_kits(seen.values)
        notes = [""] * plain_left
        for n, kit in groups:
            given_up = [e for e in plain if e not in kit]
            notes += [", ".join(e for e in kit if e not in plain)
                      + (f" (instead of {', '.join(given_up)})" if given_up else "")] * n
    return {"count": count, "wounds": wounds,
            "rows": [" ".join(["☐"] * wounds) for _ in range(count)], "carries": notes}


# weapon profiles: a fighter's pieces with their values, as a small table on its card
def _weapons(seen: WorldFighter, ruleset: Ruleset, actions: list[dict]) -> list[dict]:
    """The pieces the fighter carries that the rules make weapons: one an action on its card
    is taken with (`shoot with Carbine`), or one declared with a profile value or a trait of
    its own (`Blade { Range = 0 }`). What a piece grants says nothing: a helmet that grants
    nothing is no weapon unless an action is taken with it, a sword that grants Parry is one."""
    if not ruleset.profiles:
        return []
    wielded = {p for action in actions for p in action["pieces"]}
    out = []
    for name in dict.fromkeys(seen.equipment):
        piece = ruleset.equipment.get(name)
        if piece is None or not (piece.weapon or name in wielded):   # (armour: no weapon)
            continue
        values = dict(piece.values)
        out.append({"name": name, "doc": piece.doc,
                    "values": [{"name": p, "value": number_text(values.get(p, ""))}
                               for p in ruleset.profiles],
                    "traits": ", ".join(t if v is True else f"{t}({number_text(v)})"
                                        for t, v in piece.traits)})
    return out


def _named_cost(name: str, fighter: Fighter, cost: int | Fraction | None) -> dict:
    total, text = _cost_text(fighter.count, cost)
    return {"name": name, "cost": number_text(cost) if cost is not None else None,
            "total": total, "text": text}


def _counted(name: str, used: int | Fraction, limit, complete: bool) -> dict:
    """A total against its limit (at most), of what could be counted: "at least N" when some
    of the list could not be, which is over a limit only if N already is."""
    used_text = number_text(used) if complete else f"at least {number_text(used)}"
    return {
        "name": name, "used": used_text,
        "limit": number_text(limit) if limit is not None else None,
        "bound": "at most" if limit is not None else None,
        "text": f"{used_text} / {number_text(limit)}" if limit is not None else used_text,
        "ok": None if limit is None else False if used > limit else
        True if complete else None,
    }


def _totals(warband: Warband, ruleset: Ruleset, found: army.ArmyResult,
            result: FileResult, uncounted: bool = False) -> list[dict]:
    """Points, each named cost and fighters, counted over every entry that can be read
    (`uncounted`: some entry, or an entry's count, could not be)."""
    totals, costs = [], found.costs
    army = ruleset.army
    if army is not None and army.cost is not None:
        complete = not uncounted and all(f.index in costs for f in warband.fighters)
        used = sum((costs[f.index] * f.count for f in warband.fighters if f.index in costs), 0)
        limit = warband.points if warband.points is not None else army.points
        totals.append(_counted("points", used, limit, complete))
    for cost in army.costs if army is not None else ():
        totals.append(_named_total(warband, cost.name, found.named[cost.name],
                                   result.costs.get(cost.name), uncounted))
    size = sum(f.count for f in warband.fighters)
    shown = str(size) if not uncounted else f"at least {size}"
    entry: dict[str, str | bool | None] = {"name": "fighters", "used": shown, "limit": None,
                                           "bound": None, "text": shown, "ok": None}
    if army is not None and army.size is not None:
        bound, limit, _ = army.size
        ok = {"at most": size <= limit, "at least": size >= limit,
              "exactly": size == limit}[bound]
        entry.update(limit=str(limit), bound=bound,
                     text=f"{shown} / {limit}" if bound == "at most" else
                     f"{shown} ({bound} {limit})",
                     # with entries uncounted, only too many is certain
                     ok=ok if not uncounted else False if bound != "at least" and
                     size > limit else True if bound == "at least" and ok else None)
    totals.append(entry)
    return totals


def _named_total(warband: Warband, name: str, found: army.CostTotal,
                 checked: army.CostTotal | None, uncounted: bool = False) -> dict:
    """A named cost's total, and its limit as validation worked it out (it may read the
    game's points)."""
    complete = not uncounted and all(f.index in found.costs for f in warband.fighters)
    used = sum((found.costs[f.index] * f.count for f in warband.fighters
                if f.index in found.costs), 0)
    return _counted(name, used, checked.limit if checked is not None else None, complete)


def _problem(d: Diagnostic, file: str) -> dict:
    where = f"line {d.span.line}" if d.span and d.span.file == file else (
        str(d.span) if d.span else None)
    return {"severity": d.severity.value, "code": d.code, "message": d.message,
            "where": where, "text": f"{d.severity.value}[{d.code}]: {d.message}",
            "hint": d.hint}   # as validate gives it, did-you-means and all


# problems of the whole warband, though shown at the first entry they count: a total over its
# limit, too many fighters, a quota not met, fighters sharing a name (the sheet lists them)
WHOLE_WARBAND = frozenset({"E701", "E702", "E703", "W701"})


def _entry_problems(result: FileResult) -> dict[int, list[dict]]:
    """Each entry's own problems (those whose place in the file is in the entry), by its
    position in the file's fighters, for its card: at most MAX_SHOWN_PER_FILE on all the cards
    together, as on the sheet; a card past them says there are more."""
    out: dict[int, list[dict]] = {}
    shown = 0
    for d in result.diagnostics:
        if len(d.path) >= 2 and d.path[0] == FIGHTERS and isinstance(d.path[1], int) and \
                d.code not in WHOLE_WARBAND:
            found = out.setdefault(d.path[1], [])
            if shown < MAX_SHOWN_PER_FILE:
                found.append(_problem(d, result.file))
                shown += 1
            elif not found or found[-1]["code"]:   # past the sheet's limit: one line a card
                found.append({"severity": d.severity.value, "code": "", "where": None,
                              "message": "more problems (warband validate lists them all)",
                              "text": "more problems (warband validate lists them all)",
                              "hint": None})
    return out


def _broken(index: int, entry, ruleset: Ruleset, problems: list[dict]) -> dict:
    """The card of an entry too malformed to read: its name if it has one, and its problems
    (every value unknown, so a template's columns still line up)."""
    name = entry.get("name") if isinstance(entry, dict) else None
    cls = entry.get("class") if isinstance(entry, dict) else None
    return {
        "name": name.strip() if isinstance(name, str) and name.strip() else f"entry {index + 1}",
        "count": 1, "class": cls if isinstance(cls, str) else None, "tier": None,
        "stats": [{"name": n, "value": "?", "derived": False} for n in ruleset.stats],
        "traits": [], "equipment": [], "cost": None, "points": None, "points_text": None,
        "notes": None,
        "costs": [{"name": c.name, "cost": None, "total": None, "text": None}
                  for c in (ruleset.army.costs if ruleset.army is not None else ())],
        "models": None, "weapons": [], "actions": [], "ticks": [], "copies": 1,
        "valid": False, "problems": problems, "unread": [], "broken": True,
    }


def _entries(result: FileResult, sources: Sources | None) -> list:
    """The file's fighters as written (for the names of malformed entries); [] if unknown."""
    text = sources.texts.get(result.file) if sources is not None else None
    if text is None:
        return []
    # lazily: read again only for a file with a malformed entry
    from warband.lists.yamlload import load_yaml
    data = load_yaml(text.encode("utf-8"), result.file).data
    entries = data.get(FIGHTERS) if isinstance(data, dict) else None
    return list(entries) if isinstance(entries, list) else []


# ---- an entry with mistakes: what can be read of it ----------------------------------------------

# what of an entry a mistake is in, as the card marks it (the first step of its path below the
# entry); a key the rules do not know is no value of the fighter's, and is only left out
MARKED = ("class", "count", "traits", "equipment", "models", "special")


def readable_part(entry, index: int, ruleset: Ruleset, paths: list[tuple],
                  fighter_schema: dict) -> tuple[Fighter, list[str], dict[str, list[str]]] | None:
    """An entry with mistakes, as far as it can be read: every value a problem is in (`paths`,
    each below the entry: ("class",), ("traits", 1), (STAT,)) left out, and the rest, if it
    is then a well-formed entry (`fighter_schema`, the ruleset's schema of one entry, less what
    it requires), the fighter it makes. Also what was left out (MARKED and stat names) and,
    for a class, traits or equipment, the names as written ("Berserkr"). None for an entry too
    malformed for that (not a mapping)."""
    # lazily: an entry with mistakes only
    from warband.lists.schema import conforms
    from warband.lists.warband_file import fighter_from
    if not isinstance(entry, dict):
        return None
    clean, unread, written = dict(entry), [], {}
    dropped: dict[str, set] = {}
    for path in paths:
        if not path or path[0] not in clean:
            continue   # a problem of the whole entry (a stat missing), or a key not there
        key = path[0]
        if key in ("traits", "equipment") and len(path) > 1 and \
                isinstance(clean[key], (list, dict)):
            dropped.setdefault(key, set()).add(path[1])   # one item: the others still count
            continue
        value = clean.pop(key)
        stat = ruleset.stat_by_key(key) if isinstance(key, str) else None
        if stat is not None or key in MARKED:
            unread.append(stat.name if stat is not None else key)
            if isinstance(value, str) and key == "class":
                written[key] = [value]
    for key, items in dropped.items():
        value = clean[key]
        if isinstance(value, dict):
            clean[key] = {k: v for k, v in value.items() if k not in items}
            gone = [str(k) for k in value if k in items]
        else:
            clean[key] = [v for i, v in enumerate(value) if i not in items]
            gone = [str(v) if isinstance(v, (str, int)) else "?" for i, v in enumerate(value)
                    if i in items]
        unread.append(key)
        written[key] = gone
    lenient = {k: v for k, v in fighter_schema.items() if k != "required"}
    if not conforms(lenient, clean):
        return None
    return fighter_from(clean, index, ruleset), unread, written


def _readable(result: FileResult, sources: Sources | None, indices: list[int],
              ruleset: Ruleset) -> dict[int, tuple[Fighter, list[str], dict[str, list[str]]]]:
    """The readable part of each entry of `indices` (those with mistakes) that has one."""
    # lazily: an entry with mistakes only
    from warband.lists.schema import ruleset_schema
    entries = _entries(result, sources)
    items = ruleset_schema(ruleset, groups=False, classes=False)["properties"][FIGHTERS]["items"]
    out = {}
    for i in indices:
        paths = [tuple(d.path[2:]) for d in result.diagnostics
                 if len(d.path) >= 2 and d.path[0] == FIGHTERS and d.path[1] == i]
        found = readable_part(entries[i], i, ruleset, paths, items) if i < len(entries) else None
        if found is not None:
            out[i] = found
    return out


def _mark(card: dict, unread: list[str], written: dict[str, list[str]]) -> None:
    """Mark on a card what of its entry could not be read: a stat "?", a class or a piece as
    written with "?" after it, so that only the broken value stands out."""
    card["unread"] = unread
    if "class" in unread:
        card["class"] = f"{written['class'][0]}?" if written.get("class") else "?"
    for key in ("traits", "equipment"):
        for name in written.get(key, ()):
            card[key].append({"name": name, "value": None, "doc": None, "text": f"{name}?",
                              **({"count": 1} if key == "equipment" else {}), "unread": True})
    for stat in card["stats"]:
        if stat["name"] in unread:
            stat["value"] = "?"


def _problems(result: FileResult) -> list[dict]:
    """The warband's problems as the card sheet lists them: at most MAX_SHOWN_PER_FILE, the
    rest counted in one line (a sheet of 5,000 fighters each over a limit is read by no one;
    `warband validate --format json` keeps them all)."""
    out = [_problem(d, result.file) for d in result.diagnostics[:MAX_SHOWN_PER_FILE]]
    more = len(result.diagnostics) - MAX_SHOWN_PER_FILE
    if more > 0:
        message = f"and {more:,} more (warband validate lists them all)"
        out.append({"severity": "note", "code": "", "message": message, "where": None,
                    "text": message, "hint": None})
    return out


def _status(result: FileResult) -> str:
    errors, warnings = len(result.errors), len(result.warnings)
    if errors:
        return f"invalid: {errors} problem{'' if errors == 1 else 's'}"
    if warnings:
        return f"valid, {warnings} warning{'' if warnings == 1 else 's'}"
    return "valid"


def _unrepeated(name: str, doc: str | None) -> str | None:
    """A tier's description without its own name in front: a tier is often described as a kind
    of class (tier `common` as "common classes (...)"), and the glossary, which shows the name
    beside it, read "common   common classes"."""
    if doc is None:
        return None
    first, _, rest = doc.partition(" ")
    return rest if first.lower() == name.lower() and rest else doc


def _glossary(ruleset: Ruleset, fighters: tuple[Fighter, ...], seen_all: list[dict]) -> list[dict]:
    """Only what the list uses: its classes, the traits its fighters have (from any source),
    the equipment they carry, the tiers of their classes, its stats and the values they take."""
    classes = list(dict.fromkeys(f.fighter_class for f in fighters if f.fighter_class))
    traits = {t["name"] for card in seen_all for t in card["traits"]}
    equipment = {e["name"] for card in seen_all for e in card["equipment"]}
    actions = {a["name"] for card in seen_all for a in card.get("actions", ())}
    # a weapon's own traits (Blast on Grenades) are read on its card too
    traits |= {t for e in equipment if e in ruleset.equipment
               for t, _ in ruleset.equipment[e].traits}
    tiers = {ruleset.classes[c].tier for c in classes if c in ruleset.classes} - {None}

    def listed(pairs) -> str:
        return ", ".join(n if v is True else f"{n}({number_text(v)})" for n, v in pairs)

    sections = [
        ("Classes", "class", [
            {"name": c, "doc": ruleset.classes[c].doc,
             "detail": "; ".join(part for part in (
                 f"tier {ruleset.classes[c].tier}" if ruleset.classes[c].tier else "",
                 ruleset.classes[c].buying_words(),
                 listed(ruleset.classes[c].traits),
                 ", ".join(ruleset.classes[c].equipment),
                 *(o.words() for o in ruleset.classes[c].options),
                 *(o.words() for o in (ruleset.classes[c].unit.specials
                                       if ruleset.classes[c].unit is not None else ())))
                 if part) or None}
            for c in sorted(classes, key=list(ruleset.classes).index) if c in ruleset.classes]),
        ("Traits", "trait", [
            {"name": n, "doc": t.doc, "detail": None}
            for n, t in ruleset.traits.items() if n in traits]),
        ("Equipment", "equipment", [
            {"name": n, "doc": e.doc, "detail": listed(e.grants) or None}
            for n, e in ruleset.equipment.items() if n in equipment]),
        ("Actions", "action", [
            {"name": n, "doc": p.doc, "detail": None}
            for n, p in ruleset.procedures.items() if n in actions]),
        ("Tiers", "tier", [
            {"name": n, "doc": _unrepeated(n, t.doc), "detail": None}
            for n, t in ruleset.tiers.items() if n in tiers]),
    ]
    stat_entries = []
    for name, stat in ruleset.stats.items():
        stat_entries.append({"name": name, "doc": stat.doc, "detail": None})
        if stat.enum and stat.enum in ruleset.enums:
            used = {card["stats"][list(ruleset.stats).index(name)]["value"] for card in seen_all}
            stat_entries += [{"name": f"{name} {member}", "doc": doc, "detail": None}
                             for member, doc in ruleset.enums[stat.enum] if member in used]
    sections.append(("Stats", "stat", stat_entries))
    return [{"title": title, "kind": kind, "entries": entries}
            for title, kind, entries in sections if entries]


def build(result: FileResult, sources: Sources | None = None) -> dict:
    """The roster model of a file that validation could read. An entry too malformed to read
    gets a card of its own with its problems (its name read again from the file's text in
    `sources`)."""
    warband, ruleset = result.warband, result.ruleset
    assert warband is not None and ruleset is not None  # as the docstring says: a file read
    problems = _entry_problems(result)
    readable = {f.index for f in warband.fighters}
    # an entry with mistakes still counts for what can be read of it (its values without the
    # broken ones), marked where they are; only an entry too malformed for that is left out
    part = _readable(result, sources, sorted(i for i in problems if i not in readable),
                     ruleset)
    warband = replace(warband, fighters=tuple(sorted(
        warband.fighters + tuple(f for f, _, _ in part.values()), key=lambda f: f.index)))
    world = army.world_of(warband, ruleset)
    found = _costs(warband, ruleset, world)
    interpreter = _interpreter(ruleset)
    bounds = card_rules.counter_bounds(ruleset)
    offered = card_rules.offered_actions(ruleset)
    cards = []
    for i, (f, seen, derived) in enumerate(zip(warband.fighters, world.fighters,
                                               _derived(ruleset, world))):
        card = _fighter(f, seen, found.costs.get(f.index), ruleset, derived, found.named)
        card["actions"] = card_rules.actions(ruleset, interpreter, world, i, offered)
        card["weapons"] = _weapons(seen, ruleset, card["actions"])
        card["ticks"] = card_rules.tick_boxes(ruleset, interpreter, world, i, bounds)
        # a card for several fighters (`count: 4`) gets a line of boxes for each; past the
        # limit of a row, one line to keep count on
        card["copies"] = f.count if f.count <= MAX_CARD_BOXES else 1
        card["problems"] = problems.get(f.index, [])
        card["valid"] = not any(p["severity"] == "error" for p in card["problems"])
        card["unread"] = []
        if f.index in part:
            _, unread, written = part[f.index]
            _mark(card, unread, written)
        card["broken"] = False
        cards.append((f.index, card))
    counted = {f.index for f in warband.fighters}
    missing = sorted(i for i in problems if i not in counted)
    if missing:   # entries too malformed to read: a card each, in the file's order
        entries = _entries(result, sources)
        cards += [(i, _broken(i, entries[i] if i < len(entries) else None, ruleset,
                              problems[i])) for i in missing]
        cards.sort(key=lambda pair: pair[0])
    cards_only = [card for _, card in cards]
    title = warband.name or Path(result.file).stem
    return {
        "title": title,
        "file": result.file,
        "notes": str(warband.notes) if warband.notes is not None else None,
        "ruleset": {"id": ruleset.id, "title": ruleset.title, "source": ruleset.source},
        "stats": [{"name": name, "numeric": stat.enum is None, "doc": stat.doc,
                   # how the rules work a derived stat out (a SMART level from XP)
                   "derived": None if stat.derived is None else expr_text(stat.derived) + (
                       f" if {expr_text(stat.when)}" if stat.when is not None else "")}
                  for name, stat in ruleset.stats.items()],
        "has_classes": bool(ruleset.classes),
        "has_points": bool(ruleset.army and ruleset.army.cost is not None),
        # a cost's column is titled by its name, unless a stat's column is too ("renown cost")
        "costs": [{"name": c.name, "doc": c.doc,
                   "title": c.name if c.name.lower() not in {s.lower() for s in ruleset.stats}
                   else f"{c.name} cost"}
                  for c in (ruleset.army.costs if ruleset.army is not None else ())],
        "has_equipment": any(card["equipment"] for card in cards_only),
        "has_traits": any(card["traits"] for card in cards_only),
        "fighters": cards_only,
        "side": card_rules.side_boxes(ruleset),
        "reference": card_rules.reference_tables(ruleset),
        "totals": _totals(warband, ruleset, found, result,
                          uncounted=bool(missing) or any("count" in u for _, u, _ in
                                                         part.values())),
        "valid": not result.failed(),
        "status": _status(result),
        "problems": _problems(result),
        "glossary": _glossary(ruleset, warband.fighters,
                              [card for card in cards_only if not card["broken"]]),
    }


__all__ = ["Roster", "build", "number_text", "roster", "roster_text"]
