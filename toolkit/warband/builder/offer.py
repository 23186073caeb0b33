"""What a ruleset offers a list, as the builder's pick list shows it: the classes grouped by
tier, each with its cost, stats, traits, equipment and options, and the price of each option.

Every number here is the ruleset's own cost rule at work: the cost of an entry of the class as
the builder adds it, and the cost of the same entry with one more option (a piece, a model, a
point of a stat); the price shown is the difference, for the points and for each named cost
(`cost crowns(f)`). Nothing here knows how a game prices anything. A ruleset without classes
offers one kind of fighter, with every piece of equipment and every trait an entry may list.

What an entry of a class starts with (`new_entry`): its name, its class, and a value for each
stat the rules need and give none of: the least the class (or the stat) allows.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import TYPE_CHECKING

from warband.diagnostics import Sources
from warband.lang.summary import class_stats_text, trait_list_text
from warband.lang.units import unit_words
from warband.lang.unparse import expr_text
from warband.lists import army
from warband.lists.warband_file import FIGHTERS, warband_from
from warband.run.interpreter import Interpreter

if TYPE_CHECKING:
    from warband.lang.classes import FighterClass
    from warband.lang.ruleset import Ruleset, Stat

MAX_PRICED_VALUES = 12   # values of an enumerated stat priced one by one (else a range is shown)


def number_text(value) -> str:
    if isinstance(value, Fraction):
        return str(value.numerator) if value.denominator == 1 else str(value)
    return str(value)


@dataclass
class Price:
    """What choosing something adds to an entry's costs: the points, and each named cost."""
    points: int | Fraction | None = None
    named: dict[str, int | Fraction] = field(default_factory=dict)

    def text(self) -> str:
        parts = []
        if self.points is not None:
            parts.append(("+" if self.points >= 0 else "−") + number_text(abs(self.points)))
        parts += [("+" if v >= 0 else "−") + f"{number_text(abs(v))} {name}"
                  for name, v in self.named.items() if v]
        return ", ".join(parts)


@dataclass
class Choice:
    """One thing an entry may choose (a piece, a model, a stat's value) and its price."""
    name: str
    doc: str | None
    price: str


@dataclass
class Option:
    """One of a class's options as the rules word it (`may take one of Pistol, Crossbow`)."""
    words: str
    doc: str | None
    choices: list[Choice]


@dataclass
class ClassOffer:
    """One class (or, for a ruleset without classes, the one kind of fighter)."""
    name: str | None            # None: a ruleset without classes
    doc: str | None
    tier: str | None
    cost: str | None            # an entry as added: its cost ("10", "45 · 1 favours")
    stats: str                  # what it fixes and what the list chooses
    traits: str
    equipment: str
    buying: str                 # in groups of 1 to 5, bought singly, unique
    unit: str | None            # a unit's models and wounds
    stat_prices: list[Option]   # what a chosen stat's values cost
    options: list[Option]       # equipment options, a unit's models and its special models
    entry: dict                 # what a new entry of the class starts as


@dataclass
class Tier:
    name: str | None
    doc: str | None
    classes: list[ClassOffer]


@dataclass
class Offer:
    ruleset: Ruleset
    tiers: list[Tier]
    cost_rule: str | None       # the army's cost(f), as the rules write it
    named: list[str]            # the named costs


# ---- costs, by the rules ---------------------------------------------------------------------------

def costs_of(ruleset: Ruleset, entries: list[dict]) -> list[Price | None]:
    """The costs of one fighter of each entry (plain entries of a warband file), by the army's
    cost rules; None for an entry whose cost cannot be worked out."""
    if ruleset.army is None or (ruleset.army.cost is None and not ruleset.army.costs):
        return [None] * len(entries)
    try:
        warband = warband_from({FIGHTERS: entries}, "offer", ruleset)
        world = army.world_of(warband, ruleset)
    except Exception:   # noqa: BLE001 -- a rule of a designer's that fails: no prices
        return [None] * len(entries)
    interpreter = Interpreter(ruleset)
    place = army.Place({}, "offer", None, Sources())
    found = army.ArmyResult()
    if ruleset.army.cost is not None:
        army.costs(warband, ruleset, interpreter, world, place, found)
    army.named_costs(warband, ruleset, interpreter, world, place, found)
    out: list[Price | None] = []
    for f in warband.fighters:
        if ruleset.army.cost is not None and f.index not in found.costs:
            out.append(None)
            continue
        named = {n: c.costs[f.index] for n, c in found.named.items() if f.index in c.costs}
        if len(named) < len(found.named):
            out.append(None)
            continue
        out.append(Price(found.costs.get(f.index), named))
    return out


def difference(base: Price | None, other: Price | None) -> Price | None:
    if base is None or other is None:
        return None
    points = None if base.points is None or other.points is None else other.points - base.points
    return Price(points, {n: other.named[n] - v for n, v in base.named.items()})


def cost_text(price: Price | None) -> str | None:
    if price is None:
        return None
    parts = [] if price.points is None else [number_text(price.points)]
    parts += [f"{number_text(v)} {n}" for n, v in price.named.items() if v]
    return " · ".join(parts) or None


# ---- what an entry starts as -----------------------------------------------------------------------

def settable(ruleset: Ruleset, cls: FighterClass | None) -> list[Stat]:
    """The stats an entry may give: not fixed by its class, not worked out for every fighter."""
    return [s for s in ruleset.stats.values()
            if not s.always_derived and not (cls is not None and cls.fixes(s.name))]


def least(ruleset: Ruleset, stat: Stat, cls: FighterClass | None):
    """The least value an entry of the class may give a stat (for one the rules need)."""
    choice = cls.choice(stat.name) if cls is not None else None
    if choice is not None:
        return choice.members[0] if choice.members else choice.low
    if stat.enum:
        members = ruleset.enums.get(stat.enum) or ()
        return members[0][0] if members else None
    return stat.low


def new_entry(ruleset: Ruleset, cls: FighterClass | None, name: str) -> dict:
    entry: dict = {"name": name}
    if cls is not None:
        entry["class"] = cls.name
    given = cls.given if cls is not None else {}
    for stat in settable(ruleset, cls):
        if stat.default is None and stat.name not in given and stat.derived is None:
            value = least(ruleset, stat, cls)
            if value is not None:
                entry[stat.key] = value
    return entry


# ---- the offer ---------------------------------------------------------------------------------------

def _values(ruleset: Ruleset, stat: Stat, cls: FighterClass | None) -> list:
    """The values of a chosen stat worth pricing: an enumeration's members, or a number stat's
    least and greatest."""
    choice = cls.choice(stat.name) if cls is not None else None
    if stat.enum:
        members = list(choice.members) if choice is not None and choice.members else \
            [m for m, _ in ruleset.enums.get(stat.enum) or ()]
        return members[:MAX_PRICED_VALUES]
    low, high = (choice.low, choice.high) if choice is not None else (stat.low, stat.high)
    return [v for v in dict.fromkeys((low, high)) if v is not None]


def class_offer(ruleset: Ruleset, cls: FighterClass | None) -> ClassOffer:
    base = new_entry(ruleset, cls, cls.name if cls is not None else "Fighter")
    trials: list[tuple[str, str, str | None, dict]] = []   # (group, choice, doc, entry)
    for stat in settable(ruleset, cls):
        if stat.derived is not None:
            continue
        for value in _values(ruleset, stat, cls):
            trials.append((f"stat:{stat.name}", number_text(value), None,
                           {**base, stat.key: value}))
    options = cls.options if cls is not None else ()
    for n, option in enumerate(options):
        for item in option.items:
            piece = ruleset.equipment.get(item)
            trials.append((f"option:{n}", item, piece.doc if piece else None,
                           {**base, "equipment": [item]}))
    if cls is None or (not cls.options and ruleset.army is not None):
        # a class without options may carry anything; so may a fighter of no class
        for item, piece in ruleset.equipment.items():
            trials.append(("any", item, piece.doc, {**base, "equipment": [item]}))
    if cls is None:
        for name, trait in ruleset.traits.items():
            trials.append(("traits", name if not trait.numeric else f"{name}(1)", trait.doc,
                           {**base, "traits": {name: 1} if trait.numeric else [name]}))
    unit = cls.unit if cls is not None else None
    if unit is not None and unit.span is not None:
        for models in dict.fromkeys((unit.low, unit.default, unit.high)):
            trials.append(("models", f"{models} models", None, {**base, "models": models}))
        for n, special in enumerate(unit.specials):
            for item in special.items:
                trials.append((f"special:{n}", item, None, {**base, "special": {item: 1}}))
    prices = costs_of(ruleset, [base] + [t[3] for t in trials])
    base_price = prices[0]
    groups: dict[str, list[Choice]] = {}
    for (group, choice, doc, _), price in zip(trials, prices[1:]):
        if group.startswith(("stat:", "models")):   # what the entry costs with that value
            shown = cost_text(price)
        else:                                       # what the piece adds
            added = difference(base_price, price)
            shown = added.text() if added is not None else ""
        groups.setdefault(group, []).append(Choice(choice, doc, shown or ""))
    stat_prices = [Option(group.removeprefix("stat:"), None, choices)
                   for group, choices in groups.items() if group.startswith("stat:")]
    shown_options = [Option(o.words(), o.doc, groups.get(f"option:{n}", []))
                     for n, o in enumerate(options)]
    if "any" in groups:
        shown_options.append(Option("may carry any equipment", None, groups["any"]))
    if "traits" in groups:
        shown_options.append(Option("may have any trait", None, groups["traits"]))
    if "models" in groups:
        assert unit is not None
        shown_options.append(Option(f"models {unit.shown}", unit.doc, groups["models"]))
    for n, special in enumerate(unit.specials if unit is not None else ()):
        shown_options.append(Option(special.words(), special.doc, groups.get(f"special:{n}", [])))
    # a stat the rules give no value to (Might, in Super Simple Skirmish) makes the cost: the
    # class costs from its least to its greatest
    cost = cost_text(base_price)
    needed = {f"stat:{s.name}" for s in settable(ruleset, cls) if s.key in base}
    spread = [p.points for (group, _, _, _), p in zip(trials, prices[1:])
              if group in needed and p is not None and p.points is not None]
    if spread and len(set(spread)) > 1:
        cost = f"{number_text(min(spread))}–{number_text(max(spread))}"
    return ClassOffer(
        name=cls.name if cls is not None else None,
        doc=cls.doc if cls is not None else None,
        tier=cls.tier if cls is not None else None,
        cost=cost,
        stats=class_stats_text(cls) if cls is not None else "",
        traits=trait_list_text(cls.traits) if cls is not None else "",
        equipment=", ".join(cls.equipment) if cls is not None else "",
        buying=cls.buying_words() if cls is not None else "",
        unit=unit_words(unit) if unit is not None else None,
        # a stat whose values all cost the same has no price to show (Renown, for the points)
        stat_prices=[o for o in stat_prices if len({c.price for c in o.choices}) > 1],
        options=shown_options,
        entry=base)


def offer(ruleset: Ruleset) -> Offer:
    """The pick list of a ruleset: its classes by tier, in the order the rules declare them."""
    by_tier: dict[str | None, list[ClassOffer]] = {}
    for cls in ruleset.classes.values():
        by_tier.setdefault(cls.tier, []).append(class_offer(ruleset, cls))
    if not ruleset.classes:
        by_tier[None] = [class_offer(ruleset, None)]
    tiers = [Tier(name, ruleset.tiers[name].doc if name in ruleset.tiers else None, found)
             for name, found in sorted(by_tier.items(),
                                       key=lambda item: _tier_place(ruleset, item[0]))]
    army_ = ruleset.army
    return Offer(ruleset, tiers,
                 expr_text(army_.cost[1]) if army_ is not None and army_.cost else None,
                 [c.name for c in army_.costs] if army_ is not None else [])


def _tier_place(ruleset: Ruleset, tier: str | None) -> int:
    order = list(ruleset.tiers)
    return order.index(tier) if tier in order else len(order)


__all__ = ["ClassOffer", "Offer", "Option", "Price", "costs_of", "new_entry", "offer",
           "settable"]
