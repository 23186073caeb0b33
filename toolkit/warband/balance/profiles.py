"""The fighters a balance report weighs (its *profiles*), and what each costs by the ruleset's
own cost rule.

By default: each class at its typical stats, then the same fighter with each piece of
equipment its class's options offer, one at a time (a ruleset without classes: one fighter
with each piece of equipment, then with each trait, a numbered one at 1: there a fighter's
traits are its own to choose). A class's typical value of a stat is, in this order: the value
the class fixes or gives as its default, the stat's default, and otherwise the middle of the
range the class allows, lowered while the fighter would cost more than a quarter of the game's
points (a fighter is typically one of four or more; Super Simple Skirmish's Might, 1..100 in a
100-point game, is 25). An enumerated stat without a default takes its first value.

Or the entries of a warband file (`--fighters FILE.yaml`): each entry is one profile, checked
as `warband validate` checks it, but for the army's limits (points, size, quotas): a file of
profiles is no warband to field.

Costs are worked out as `validate` works them out (lists/army.py): the army's `cost(f)`, or the
named cost the game's points count (`limit crowns points`). None where a ruleset has no cost.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction

from warband.diagnostics import Diagnostic, Sources, diag
from warband.lang.classes import FighterClass, gear_problems
from warband.lang.ruleset import Ruleset
from warband.limits import MAX_BALANCE_PROFILES
from warband.lists import army
from warband.lists.validate import Validation
from warband.lists.warband_file import FIGHTERS, Fighter, warband_from
from warband.run.interpreter import Interpreter
from warband.run.world import FighterSpec

# army findings that do not make a file of profiles unusable: its totals and counts
ARMY_CODES = frozenset({"E701", "E702", "E703", "E705", "E706", "E707"})
TYPICAL_SHARE = Fraction(1, 4)   # a typical fighter costs at most this share of the points


@dataclass(frozen=True)
class Profile:
    """One fighter to weigh: its name, the warband entry that makes it, its cost."""

    name: str
    entry: dict = field(compare=False)   # a warband file's entry (plain data)
    cost: int | Fraction | None
    group: str | None = None      # its class (None: a ruleset without classes, or a file's)
    base: str | None = None       # the profile it adds one option to, by name
    option: str | None = None     # the piece of equipment it adds to `base`
    stats: str = ""               # its stats, in words: "Might 25"
    fighter: Fighter | None = field(default=None, compare=False, repr=False)

    def spec(self, side: int, name: str | None = None) -> FighterSpec:
        """The fighter as the rules run it, on side `side`."""
        assert self.fighter is not None, "a profile is made by profile()"
        return self.fighter.spec(side, name or self.name)


def profile(ruleset: Ruleset, entry: dict, cost, group: str | None = None,
            base: str | None = None, option: str | None = None) -> Profile:
    """A profile from a warband entry (plain data, as a file would give it)."""
    fighter = warband_from({FIGHTERS: [entry]}, "balance", ruleset).fighters[0]
    cls = ruleset.classes.get(fighter.fighter_class) if fighter.fighter_class else None
    return Profile(str(entry["name"]), entry, cost, group, base, option,
                   stats_words(ruleset, entry, cls), fighter)


def costs(ruleset: Ruleset, entries: list[dict]) -> list[int | Fraction | None]:
    """The cost of one fighter of each entry, by the army's cost rule; None for an entry whose
    cost cannot be worked out, or in a ruleset without costs."""
    priced = army.points_cost(ruleset)
    if ruleset.army is None or (ruleset.army.cost is None and priced is None) or not entries:
        return [None] * len(entries)
    warband = warband_from({FIGHTERS: entries}, "balance", ruleset)
    world = army.world_of(warband, ruleset)
    interpreter = Interpreter(ruleset)
    place = army.Place({}, "balance", None, Sources())
    found = army.ArmyResult()
    if ruleset.army.cost is not None:
        army.costs(warband, ruleset, interpreter, world, place, found)
        by_index = found.costs
    else:
        assert priced is not None
        army.named_costs(warband, ruleset, interpreter, world, place, found)
        by_index = found.named[priced.name].costs
    return [by_index.get(f.index) for f in warband.fighters]


def stats_words(ruleset: Ruleset, entry: dict, cls: FighterClass | None) -> str:
    """The stats an entry has that are worth saying: those it gives, and those its class
    chooses (not what every fighter has)."""
    shown = []
    for stat in ruleset.stats.values():
        if stat.key in entry:
            shown.append(f"{stat.name} {entry[stat.key]}")
        elif cls is not None and cls.choice(stat.name) is not None and stat.name in cls.given:
            shown.append(f"{stat.name} {cls.given[stat.name]}")
    return ", ".join(shown)


def _open_stats(ruleset: Ruleset, cls: FighterClass | None) -> list:
    """The stats an entry of the class must give: no default, not fixed, not worked out."""
    given = cls.given if cls is not None else {}
    return [s for s in ruleset.stats.values()
            if s.default is None and s.name not in given and s.derived is None]


def typical_entry(ruleset: Ruleset, cls: FighterClass | None) -> dict:
    """An entry of the class at its typical stats (see the module's docstring)."""
    entry: dict = {"name": cls.name if cls is not None else "Fighter"}
    if cls is not None:
        entry["class"] = cls.name
    for stat in _open_stats(ruleset, cls):
        choice = cls.choice(stat.name) if cls is not None else None
        if stat.enum:
            members = list(choice.members) if choice is not None and choice.members else \
                [m for m, _ in ruleset.enums.get(stat.enum) or ()]
            if members:
                entry[stat.key] = members[0]
            continue
        low, high = (choice.low, choice.high) if choice is not None else (stat.low, stat.high)
        if low is None or high is None:
            continue
        entry[stat.key] = _typical_number(ruleset, entry, stat.key, low, high)
    return entry


def _typical_number(ruleset: Ruleset, entry: dict, key: str, low, high):
    middle = (low + high) // 2 if isinstance(low, int) and isinstance(high, int) else \
        (low + high) / 2
    points = ruleset.army.points if ruleset.army is not None else None
    if points is None or not isinstance(low, int) or not isinstance(middle, int):
        return middle
    values = list(range(middle, low - 1, -1))[:200]
    found = costs(ruleset, [{**entry, key: v} for v in values])
    for value, cost in zip(values, found):
        if cost is not None and cost <= points * TYPICAL_SHARE:
            return value
    return middle


def typical(ruleset: Ruleset) -> list[Profile]:
    """The default profiles: each class at its typical stats, then with each option."""
    classes: list[FighterClass | None] = list(ruleset.classes.values()) or [None]
    entries: list[tuple[dict, str | None, str | None, FighterClass | None]] = []
    for cls in classes:
        base = typical_entry(ruleset, cls)
        entries.append((base, None, None, cls))
        if cls is None:
            items = list(ruleset.equipment)
        else:
            items = list(dict.fromkeys(p for o in cls.options for p in o.items))
        for item in items:
            if item in base.get("equipment", ()) or (cls is not None and item in cls.equipment):
                continue
            entry = {**base, "name": f"{base['name']} + {item}",
                     "equipment": [*base.get("equipment", ()), item]}
            if cls is not None and gear_problems(cls, entry["name"], tuple(entry["equipment"])):
                continue
            entries.append((entry, base["name"], item, cls))
        if cls is None:   # a fighter's traits are its own to choose: each is an option too
            for trait in ruleset.traits.values():
                if trait.name in base.get("traits", {}):
                    continue
                value = 1 if trait.numeric else True
                words = f"{trait.name} 1" if trait.numeric else trait.name
                entry = {**base, "name": f"{base['name']} + {words}",
                         "traits": {**base.get("traits", {}), trait.name: value}}
                entries.append((entry, base["name"], words, cls))
    found = costs(ruleset, [e for e, _, _, _ in entries])
    out = []
    for (entry, base_name, item, cls), cost in zip(entries, found):
        out.append(profile(ruleset, entry, cost, cls.name if cls else None, base_name, item))
    return out


def from_file(path: str, ruleset: Ruleset,
              diagnostics: list[Diagnostic]) -> tuple[list[Profile], Sources]:
    """The profiles of a warband file (`--fighters`): every entry, checked but for the army's
    limits; problems go to `diagnostics` (and no profiles come back)."""
    validation = Validation()
    result = validation.file(path)
    problems = [d for d in result.errors if d.code not in ARMY_CODES]
    if result.unusable or problems or result.warband is None:
        diagnostics += problems or result.diagnostics
        diagnostics.append(diag("E901", f"{path} is not a usable file of fighters", None,
                                hint=f"run: warband validate {path} (the army's limits aside, "
                                     "it must be valid)"))
        return [], validation.sources
    if result.ruleset is not None and result.ruleset.id != ruleset.id and \
            result.ruleset.id not in [i for i, _ in ruleset.layers]:
        diagnostics.append(diag("E901", f"{path} is a warband for '{result.ruleset.id}', not "
                                        f"'{ruleset.id}'", None,
                                hint="give fighters of the ruleset weighed"))
        return [], validation.sources
    if not result.warband.fighters:
        diagnostics.append(diag("E901", f"{path} lists no fighters", None,
                                hint="list the fighters to weigh under 'fighters:'"))
        return [], validation.sources
    entries = [entry_of(f) for f in result.warband.fighters]
    found = costs(ruleset, entries)
    out = []
    for entry, cost, fighter in zip(entries, found, result.warband.fighters):
        out.append(profile(ruleset, entry, cost, fighter.fighter_class))
    return out, validation.sources


def entry_of(fighter) -> dict:
    """A warband entry (plain data) for a fighter: of a warband file's entry, or of a
    scenario's forces (a FighterSpec), which carry the same fields."""
    entry: dict = {"name": fighter.name}
    if fighter.fighter_class is not None:
        entry["class"] = fighter.fighter_class
    for name, value in fighter.stats.items():
        entry[name.lower()] = value
    if fighter.traits:
        entry["traits"] = dict(fighter.traits)
    if fighter.equipment:
        entry["equipment"] = list(fighter.equipment)
    if fighter.models is not None:
        entry["models"] = fighter.models
    if fighter.special:
        entry["special"] = dict(fighter.special)
    return entry


def too_many(profiles: list[Profile], where: str) -> Diagnostic | None:
    """E403 when there are more profiles than a report weighs."""
    if len(profiles) <= MAX_BALANCE_PROFILES:
        return None
    return diag("E403", f"{len(profiles)} fighters to weigh; a balance report weighs at most "
                        f"{MAX_BALANCE_PROFILES}", None,
                hint=f"name fewer with --fighters FILE.yaml ({where})")


__all__ = ["Profile", "costs", "profile", "from_file", "too_many", "typical", "typical_entry"]
