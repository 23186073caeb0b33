"""The checker's types: what an expression of the rules language can be, and how types meet.

A type records its kind (number, yes/no, fighter, ...) and whether its value depends on a roll,
so that the checker can refuse a roll where the rules need a fixed number.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import cast

from warband.diagnostics import Span
from warband.lang import nodes
from warband.lang.symbols import KIND_WORDS, Symbol


@dataclass(frozen=True)
class Type:
    """The type of an expression, as the checker works it out."""

    kind: str                   # number bool text fighter side dice fighters class tier enum
    #                             equipment (a piece) gear (a fighter's equipment, a group)
    name: str | None = None     # outcome record nothing any; the enum or outcome set's name
    fields: tuple[str, ...] = ()
    random: bool = False        # True when the value depends on a roll
    # a table row's: the type of each column, in the order of `fields` (a column holds one
    # kind of value, worked out from its cells)
    columns: tuple["Type", ...] = ()

    def __str__(self) -> str:
        words = {"number": "a number", "bool": "a yes/no value", "text": "a text",
                 "fighter": "a fighter", "side": "a side", "dice": "dice",
                 "fighters": "a group of fighters", "class": "a class", "tier": "a tier",
                 "record": "a table row", "nothing": "nothing", "any": "a value",
                 "sides": "a group of sides", "zone": "a zone", "marker": "a kind of marker",
                 "entries": "a group of warband entries", "equipment": "a piece of equipment",
                 "gear": "a group of equipment", "trait": "a trait",
                 "traits": "a group of traits", "pool": "a pool of dice", "area": "an area",
                 # pieces as values: one placed on the board, and a group of them
                 "piece": "a piece", "pieces": "a group of pieces", "position": "a position",
                 # no side, no fighter (lang/absence.py): only set as a holder, or compared
                 "nobody": "nobody",
                 # decks and bags: one, and the cards of its hand
                 "deck": "a deck", "cards": "a group of cards"}
        if self.kind in ("enum", "outcome"):
            base = f"a value of '{self.name}'"
        elif self.kind == "tuple":   # several values at once
            base = f"{len(self.columns)} values (" + ", ".join(map(str, self.columns)) + ")"
        elif self.kind in ("piece", "pieces") and self.name is not None:
            base = f"a piece of '{self.name}'" if self.kind == "piece" else \
                f"a group of pieces of '{self.name}'"
        elif self is ENTRY or self.kind == "record" and self.name == ENTRY.name and \
                self.fields == ENTRY.fields:
            base = "a warband entry"
        else:
            base = words[self.kind]
        return f"{base} (rolled)" if self.random and self.kind != "dice" else base

    def fixed(self) -> "Type":
        return replace(self, random=False)

    def rolled(self, random: bool) -> "Type":
        return replace(self, random=self.random or random)


NUMBER, BOOL, TEXT, ANY = Type("number"), Type("bool"), Type("text"), Type("any")
FIGHTER, SIDE, DICE, NOTHING = Type("fighter"), Type("side"), Type("dice", random=True), \
    Type("nothing")
FIGHTERS = Type("fighters")
# dice pools: `pool 3d6`, a roll whose every face is kept to be asked questions; not a number
POOL = Type("pool")
NOBODY = Type("nobody")   # `nobody`: a holder or a carrier that is not there (lang/absence.py)
AREA = Type("area")   # areas and templates: square(g, 3), cone(f, g, 8) (run/areas.py)
SIDES, ZONE, MARKER = Type("sides"), Type("zone"), Type("marker")
# army rules: one entry of a warband file (`count` identical fighters), read as a row of fields
ENTRY = Type("record", "entry", ("count", "fighters", "fighter", "name"),
             columns=(NUMBER, FIGHTERS, FIGHTER, TEXT))
ENTRIES = Type("entries")
# a piece of equipment is a value (its name), as a class or a tier is; a fighter's equipment is
# a group of them (the class's and the entry's, a piece carried twice counted twice)
EQUIPMENT, GEAR = Type("equipment"), Type("gear")
# traits as values: a trait's name, and the traits a fighter (or a piece) has, a group of them
TRAIT, TRAITS = Type("trait"), Type("traits")
# pieces as values: a piece placed on the board (its name: the marker's kind, when known)
PIECE, PIECES = Type("piece"), Type("pieces")
POSITION = Type("position")   # where a fighter or a piece stands (none off the board)

FIGHTER_BUILTINS = {"side": SIDE, "class": Type("class"), "tier": Type("tier"), "name": TEXT,
                    "equipment": GEAR, "removed": BOOL, "withdrawn": BOOL, "enemies": FIGHTERS,
                    "friends": FIGHTERS}
FIGHTER_BUILTINS["traits"] = TRAITS   # the traits it has, in the order they are declared
FIGHTER_BUILTINS["carrying"] = PIECES   # carrying pieces: the pieces it carries
FIGHTER_BUILTINS["position"] = POSITION   # position as a value: where it stands
# who took it out of play (`remove f by g`): the fighter (nobody when a side or no fighter
# did), and that fighter's side (or the side named); nobody while it is in play
FIGHTER_BUILTINS["removed_by"] = FIGHTER
FIGHTER_BUILTINS["removed_by_side"] = SIDE
# a side's fighters are those in play; casualties were removed, the withdrawn left the table
SIDE_BUILTINS = {"fighters": FIGHTERS, "casualties": FIGHTERS, "withdrawn": FIGHTERS,
                 "opponents": SIDES, "conceded": BOOL, "name": TEXT}


def numeric(t: Type) -> bool:
    return t.kind in ("number", "dice", "any")


def compatible(expected: Type, actual: Type) -> bool:
    if "any" in (expected.kind, actual.kind):
        return True
    if expected.kind == "number" and actual.kind == "dice":
        return True
    if expected.kind == "dice" and actual.kind == "number":
        return True  # a dice parameter takes any number expression, re-rolled at each use
    return expected.kind == actual.kind and (expected.name is None or actual.name is None
                                             or expected.name == actual.name)


def unify(a: Type, b: Type) -> Type:
    if a.kind == "any":
        return b.rolled(a.random)
    if b.kind == "any":
        return a.rolled(b.random)
    if a.kind == "dice" and b.kind == "dice":
        return DICE
    if a.kind == "dice" or b.kind == "dice":
        return NUMBER.rolled(True)
    return a.rolled(b.random)


@dataclass
class Scope:
    """The local names a part of a rule sees, with their types."""

    locals: dict[str, tuple[Type, Span]]
    procedure: nodes.ProcedureDecl | None = None
    result: Type | None = None


def either(words: list[str], last: str = "or") -> str:
    """'a', 'a or b', 'a, b or c'."""
    words = list(words)
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + f" {last} " + words[-1]


def noun(kind: str) -> str:
    return KIND_WORDS[kind].split(" ", 1)[1]


def kind_hint(sym: Symbol, scope: Scope | None = None) -> str | None:
    f = next((n for n, (t, _) in scope.locals.items() if t.kind == "fighter"), "f") \
        if scope is not None else "f"
    kept_on_side = sym.kind in ("flag", "counter") and \
        cast(nodes.StateDecl, sym.decl).owner == "side"
    return {
        "table": f"look it up with arguments: {sym.name}(...)",
        "define": f"call it with arguments: {sym.name}(...)",
        "trait": f"ask whether a fighter has it: {f} has {sym.name}",
        "stat": f"read it from a fighter: {f}.{sym.name}",
        "flag": f"read it from a side: {f}.side.{sym.name}" if kept_on_side
        else f"read it from a fighter: {f}.{sym.name}",
        "counter": f"read it from a side: {f}.side.{sym.name}" if kept_on_side
        else f"read it from a fighter: {f}.{sym.name}",
        "procedure": f"call it with its arguments: let x = {sym.name}(...)",
        "action": f"call it with its arguments: let x = {sym.name}(...)",
        "phase": f"call it with its arguments: {sym.name}(...)",
    }.get(sym.kind)
