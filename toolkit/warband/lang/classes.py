"""Classes as the compiled Ruleset holds them: what a class fixes, what its warband entries choose
(stats within its bounds, equipment among its options), how it is bought; and the one judgement
of an entry's equipment against its options, which validate, odds and scenarios all use.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from warband.diagnostics import Span
from warband.lang.units import UnitSize

Number = int | Fraction
Constant = Number | str | bool   # a fixed value: a number, a text, yes/no, or a symbol's name


@dataclass(frozen=True)
class StatChoice:
    """A stat a warband entry of a class chooses, within the class's bounds: `stat NAME:
    LOW..HIGH` (a number stat) or `stat NAME in A, B` (some of an enum stat's values)."""
    stat: str
    low: Number | None
    high: Number | None
    members: tuple[str, ...]     # an enum stat's values the class allows; () for a number stat
    default: Constant | None     # taken when the entry gives none (before the stat's own)
    doc: str | None
    span: Span

    def allows(self, value) -> bool:
        if self.members:
            return value in self.members
        return self.low is None or self.high is None or isinstance(value, bool) or \
            not isinstance(value, (int, Fraction)) or self.low <= value <= self.high

    @property
    def shown(self) -> str:
        """The class's bounds as messages and summaries write them: '2..4', 'Foot, Mounted'."""
        return ", ".join(self.members) if self.members else f"{self.low}..{self.high}"


@dataclass(frozen=True)
class FighterClass:
    """A class as the Ruleset keeps it: its tier, traits, equipment, stats and options."""

    name: str
    tier: str | None
    traits: tuple[tuple[str, Constant | None], ...]   # (trait, value): True for a bare trait
    equipment: tuple[str, ...]
    stats: tuple[tuple[str, Constant | None], ...]
    doc: str | None
    span: Span
    # how many fighters one warband entry of the class may stand for (`group 1..5`, `single`)
    group: tuple[int, int] | None = None
    group_doc: str | None = None
    group_span: Span | None = None
    unique: Span | None = None   # `unique`: at most one fighter of the class in a warband
    # stats a warband entry of the class chooses within the class's bounds (`stat NAME: 2..4`)
    choices: tuple[StatChoice, ...] = ()
    # where each stat the class fixes is fixed (`stat NAME = VALUE`), for messages
    stat_spans: tuple[tuple[str, Span], ...] = ()
    options: tuple[EquipmentOption, ...] = ()   # what an entry may carry; () for anything
    unit: UnitSize | None = None   # a unit of several models (`models`, `wounds per model`)

    def fixes(self, stat: str) -> bool:
        """Whether the class fixes the stat (`stat NAME = VALUE`): no entry may give it."""
        return any(name == stat for name, _ in self.stats)

    def choice(self, stat: str) -> StatChoice | None:
        return next((c for c in self.choices if c.stat == stat), None)

    @property
    def given(self) -> dict:
        """The values the class gives its fighters where the entry gives none: the stats it
        fixes, and the defaults of those the list chooses."""
        return {c.stat: c.default for c in self.choices if c.default is not None} | dict(
            self.stats)

    def carried(self, chosen: tuple[str, ...]) -> tuple[str, ...]:
        """What a fighter of the class carries: the class's equipment, less each piece a chosen
        `may swap` replacement stands in for, then the pieces its entry chose (a piece the
        class carries anyway is not carried twice: its traits would count twice)."""
        given_up = {o.replaces for o in self.options
                    if o.kind == "swap" and any(item in chosen for item in o.items)}
        own = tuple(e for e in self.equipment if e not in given_up)
        return own + tuple(e for e in chosen if e not in own)

    def buying_words(self) -> str:
        """How the class is bought: 'in groups of 1 to 5', 'bought singly; unique: ...'."""
        parts = []
        if self.group == (1, 1):
            parts.append("bought singly")
        elif self.group is not None:
            parts.append(f"in groups of {self.group[0]} to {self.group[1]}")
        if self.unique is not None:
            parts.append("unique: at most one in a warband")
        return "; ".join(parts)

    def allowed_equipment(self) -> list[str]:
        """Every piece an entry of the class may list: its own, and each option's."""
        return list(self.equipment) + [p for o in self.options for p in o.items]


@dataclass(frozen=True)
class EquipmentOption:
    """`may take A, B` (kind take, each at most once), `may take one of` / `up to N of` (kind
    up_to, at most `limit` of the items), `may swap X for A, B` (kind swap: at most one of the
    items, carried instead of the class's X)."""
    kind: str
    items: tuple[str, ...]
    limit: int
    replaces: str | None
    doc: str | None
    span: Span

    def words(self) -> str:
        """The option as the rules file says it."""
        items = ", ".join(self.items)
        if self.kind == "swap":
            return f"may swap {self.replaces} for {items}"
        if self.kind == "take":
            return f"may take {items}"
        return f"may take one of {items}" if self.limit == 1 else \
            f"may take up to {self.limit} of {items}"


@dataclass(frozen=True)
class GearProblem:
    """One piece of an entry's equipment its class's options do not allow: E632 (no option
    offers it) or E633 (more than an option allows, or a swapped piece kept)."""
    index: int          # the piece's place in the entry's list
    code: str
    message: str
    hint: str
    rule: Span          # the option broken, or the class
    rule_words: str


def gear_problems(cls: FighterClass, who: str, chosen: tuple[str, ...]) -> list[GearProblem]:
    """What is wrong with the equipment an entry of `cls` lists (`who` names the entry); none
    for a class without options, which may carry anything."""
    if not cls.options:
        return []
    out: list[GearProblem] = []
    offered = {item: o for o in cls.options for item in o.items}
    taken: dict[int, list[tuple[int, str]]] = {}     # option (by position) -> (index, piece)
    listed: set[str] = set()
    for i, piece in enumerate(chosen):
        option = offered.get(piece)
        if option is not None:
            taken.setdefault(cls.options.index(option), []).append((i, piece))
        elif piece in cls.equipment and piece in listed:
            out.append(GearProblem(i, "E633", f"'{who}' lists {piece} twice; class {cls.name} "
                                              "carries one", f"remove the second {piece}",
                                   cls.span, f"class {cls.name}"))
        elif piece not in cls.equipment:
            own = f"it carries {', '.join(cls.equipment)}; " if cls.equipment else ""
            out.append(GearProblem(i, "E632", f"class {cls.name} may not take {piece}",
                                   f"class {cls.name}: {own}" + "; ".join(
                                       o.words() for o in cls.options),
                                   cls.span, f"class {cls.name}"))
        elif (swap := next((o for o in cls.options if o.kind == "swap" and o.replaces == piece
                            and any(p in chosen for p in o.items)), None)) is not None:
            given = next(p for p in chosen if p in swap.items)
            out.append(GearProblem(i, "E633", f"'{who}' swaps {piece} for {given}, so it "
                                              f"cannot keep {piece}",
                                   f"remove {piece}: the class's {piece} is given up for "
                                   f"{given}", swap.span, swap.doc or swap.words()))
        listed.add(piece)
    for position, pieces in taken.items():
        option = cls.options[position]
        seen: set[str] = set()
        for n, (i, piece) in enumerate(pieces):
            if option.kind == "take" and piece in seen:
                message = (f"'{who}' takes {piece} twice, but class {cls.name} "
                           f"{option.words()} (each once)")
                hint = f"remove the second {piece}"
            elif option.kind != "take" and n >= option.limit:
                allowed = "one" if option.limit == 1 else f"up to {option.limit}"
                message = (f"'{who}' takes {', '.join(p for _, p in pieces)}, but class "
                           f"{cls.name} {option.words()}")
                hint = f"keep {allowed} of {', '.join(option.items)}"
            else:
                seen.add(piece)
                continue
            out.append(GearProblem(i, "E633", message, hint, option.span,
                                   option.doc or option.words()))
    return sorted(out, key=lambda p: p.index)
