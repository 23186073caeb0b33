"""Units of several models, as the compiled Ruleset holds them (docs/language.md, "Units of
several models").

A unit is one fighter on the board (one position, one activation) that stands for several
models sharing a profile. A class says how many models an entry of it may field (`models
LOW..HIGH default N`) and how many wounds each model has (`wounds per model = VALUE`: a fixed
number, or a number stat or numbered trait each fighter reads its own value of). In play the
unit keeps four values of its own beside its stats: the models left, the models it started
with, the wounds left on the model now taking wounds, and a model's full wounds. They are kept
in the fighter's values under names no rules file can declare (they start with '#'), so the
World's copying, hashing and memoising carry them with no work of their own, and a ruleset
without units carries none of them.

One model with a different weapon: a unit class may offer single models a piece of their own
(`one model may take X`, `up to N models may swap X for Y`: ModelOption); an entry says how many
models carry each (`special:`), and the unit then keeps what its plain models carry and its
special groups left (special_values), so that casualties take the plain models first and a
piece goes when its last carrier falls (run/units.py).
"""

from __future__ import annotations

from dataclasses import dataclass

from warband.diagnostics import Diagnostic, Span, diag
from warband.limits import MAX_MODELS

# what the rules read (`f.models`) -> where the fighter's values keep it
UNIT_FIELDS = {"models": "#models", "models_start": "#models_start",
               "wounds_left": "#wounds_left", "model_wounds": "#model_wounds"}
# what each field means, for hints and the language reference
UNIT_FIELD_WORDS = {"models": "the models left", "models_start": "the models it started with",
                    "wounds_left": "the wounds left on the model now taking wounds",
                    "model_wounds": "a model's full wounds"}


@dataclass(frozen=True)
class ModelOption:
    """`one model may take X, Y` / `up to N models may swap X for Y, Z` in a unit's class: up
    to `limit` models of an entry each carry one of the items (besides the unit's kit, or
    instead of its piece `replaces`). The entry says which (`special: {Flamer: 1}`)."""
    kind: str                 # take | swap
    items: tuple[str, ...]
    limit: int
    replaces: str | None
    doc: str | None
    span: Span

    def words(self) -> str:
        """The option as the rules file says it."""
        who = "one model" if self.limit == 1 else f"up to {self.limit} models"
        items = ", ".join(self.items)
        return f"{who} may swap {self.replaces} for {items}" if self.kind == "swap" else \
            f"{who} may take {items}"


@dataclass(frozen=True)
class UnitSize:
    """`models LOW..HIGH default N` and `wounds per model = VALUE` of a class. `wounds` is a
    fixed number or the name of a number stat or numbered trait (read per fighter); a class
    with only `wounds per model` is a single model with that many wounds."""
    low: int
    high: int
    default: int
    wounds: int | str
    doc: str | None
    span: Span | None
    # one model of a unit with a different weapon: what single models may carry
    specials: tuple[ModelOption, ...] = ()
    # units of models with places (`coherency D`): each model within D of another (None: the
    # unit stands at one point); which models fall first (`casualties nearest first`; None:
    # the owner's choice)
    coherency: float | None = None
    casualties: str | None = None

    def allows(self, models) -> bool:
        return type(models) is int and self.low <= models <= self.high

    @property
    def shown(self) -> str:
        return str(self.low) if self.low == self.high else f"{self.low}..{self.high}"


def unit_size(low, high, default, wounds: int | str, doc: str | None, span: Span | None,
              d: list[Diagnostic]) -> UnitSize | None:
    """A class's unit size from its constant parts; E319 when the bounds are not whole numbers
    from 1 up or the default is outside them."""
    whole = all(type(v) is int for v in (low, high))
    if whole and high > MAX_MODELS:   # (a roster card draws a row of wound boxes a model)
        assert span is not None
        d.append(diag("E319", f"a unit has at most {MAX_MODELS} models, not {high}", span,
                      hint=f"bound the unit at {MAX_MODELS} models or fewer; a horde larger "
                           "than that is several units"))
        return None
    if not whole or not 1 <= low <= high:
        assert span is not None  # bounds come from a `models` line
        d.append(diag("E319", f"a unit's models are a range of whole numbers from 1 up, not "
                              f"{low}..{high}", span,
                      hint="for example: models 5..10 default 5"))
        return None
    if default is None:
        default = low
    if type(default) is not int or not low <= default <= high:
        assert span is not None
        d.append(diag("E319", f"the default of {default} models is outside {low}..{high}",
                      span, hint=f"give a default from {low} to {high}, or none (then {low})"))
        return None
    return UnitSize(low, high, default, wounds, doc, span)


def unit_words(unit: UnitSize) -> str:
    """The unit as `rules show` says it: 'a unit of 5..10 models (default 5), 2 wounds each'."""
    wounds = f"{unit.wounds} wound{'s' if unit.wounds != 1 else ''}" \
        if type(unit.wounds) is int else f"wounds from {unit.wounds}"
    if unit.span is None:
        return f"one model of {wounds}"
    return f"a unit of {unit.shown} models (default {unit.default}), {wounds} each" + (
        f": {unit.doc}" if unit.doc else "") + place_words(unit) + "".join(
        f"; {o.words()}" + (f" ({o.doc})" if o.doc else "") for o in unit.specials)


def place_words(unit: UnitSize) -> str:
    """A unit's places as `rules show` says them ('' for a unit at one point)."""
    if unit.coherency is None:
        return ""
    apart = int(unit.coherency) if unit.coherency == int(unit.coherency) else unit.coherency
    falls = f"the {unit.casualties} first" if unit.casualties else "the owner's choice"
    return f"; each model on its own base, within {apart} of another; casualties: {falls}"


def special_option(unit: UnitSize | None, piece: str) -> ModelOption | None:
    """The option of a unit's class that lets single models carry `piece`, if any."""
    if unit is None:
        return None
    return next((o for o in unit.specials if piece in o.items), None)


def special_problems(unit: UnitSize | None, models: int,
                     special: dict) -> list[tuple[str, str | None, str, str, Span | None]]:
    """What is wrong with an entry's special models `special` ({piece: models carrying it}) in
    a unit of `models` models: (code, the piece or None for the whole key, message, hint, the
    rule broken). E636: a piece no `one model may ...` option of the class offers; E637: more
    models than an option allows, or than the unit fields."""
    out: list[tuple[str, str | None, str, str, Span | None]] = []
    offered = [p for o in unit.specials for p in o.items] if unit is not None else []
    by_option: dict[ModelOption, int] = {}
    for piece, count in special.items():
        option = special_option(unit, piece)
        if option is None:
            out.append(("E636", piece, f"no model of this unit may carry '{piece}' on its own",
                        f"pieces single models may carry: {', '.join(offered)}" if offered
                        else "the class offers no piece to single models (as 'one model "
                             "may take X')", None))
            continue
        by_option[option] = by_option.get(option, 0) + count
    for option, count in by_option.items():
        if count > option.limit:
            out.append(("E637", None, f"{count} models carry {' or '.join(option.items)}, "
                                      f"more than the class allows: {option.words()}",
                        f"give at most {option.limit} model{'s' if option.limit != 1 else ''}"
                        " these pieces", option.span))
    total = sum(special.values())
    if total > models:
        out.append(("E637", None, f"{total} special models in a unit of {models} models",
                    "field more models, or give fewer of them special pieces",
                    unit.span if unit is not None else None))
    return out


def start_values(unit: UnitSize | None, values: dict, traits: dict, models: int | None,
                 special: dict | None = None, kit: tuple[str, ...] = ()) -> dict:
    """The unit's own values at the start of play, for a fighter whose stats are `values` and
    traits `traits`; a fighter of a class that is no unit is one model of one wound. A model
    has at least one wound (a trait it lacks reads 0). A unit whose entry gives special models
    (`special`, its plain models carrying `kit`) keeps them too (see special_values)."""
    if unit is None:
        per, count = 1, 1
    else:
        wounds = unit.wounds
        if type(wounds) is str:
            wounds = traits.get(wounds, values.get(wounds, 1))
        per = wounds if type(wounds) is int and wounds > 0 else 1
        count = unit.default if models is None else models
    out = {"#models": count, "#models_start": count, "#wounds_left": per, "#model_wounds": per}
    if unit is not None and unit.coherency is not None:   # units of models with places
        out.update(place_values(unit))
    if special and unit is not None:
        out.update(special_values(unit, special, kit))
    return out


# units of models with places, in play: the unit's values keep
#   '#places'     each model's place as an offset from the fighter's position, the first (0, 0)
#                 (empty until the game sets the unit out on a board: run/places.py),
#   '#coherency'  the distance each model keeps within of another (fixed),
#   '#order'      which models fall first: nearest, farthest, or owner (the owner's choice).
def place_values(unit: UnitSize) -> dict:
    return {"#places": (), "#coherency": unit.coherency, "#order": unit.casualties or "owner"}


# one model of a unit with a different weapon, in play: the unit's values keep
#   '#kit'      what its plain models carry (fixed),
#   '#specials' each special model's group: (piece, the kit's piece it gives up or None), in
#               the order they fall, the class's options' order (fixed),
#   '#special_left'  how many models of each group are left.
# Casualties come from the plain models first, then the special groups in that order.
def special_values(unit: UnitSize, special: dict, kit: tuple[str, ...]) -> dict:
    groups, left = [], []
    for option in unit.specials:
        for piece in option.items:
            if special.get(piece, 0) > 0:
                groups.append((piece, option.replaces if option.kind == "swap" else None))
                left.append(special[piece])
    if not groups:
        return {}
    return {"#kit": kit, "#specials": tuple(groups), "#special_left": tuple(left)}


def model_kits(values: dict) -> list[tuple[int, tuple[str, ...]]]:
    """(models left, what each carries) for the plain models and each special group of a unit
    whose values are `values` (one entry, the plain models, for a unit without specials)."""
    kit = values["#kit"]
    left = values["#special_left"]
    out = [(values["#models"] - sum(left), kit)]
    for (piece, gives_up), n in zip(values["#specials"], left):
        out.append((n, tuple(e for e in kit if e != gives_up) + (piece,)))
    return out


def carried_now(values: dict) -> tuple[str, ...]:
    """Every piece some model still carries, in the order the kit and the groups list them."""
    seen: dict[str, None] = {}
    for n, pieces in model_kits(values):
        if n > 0:
            seen.update(dict.fromkeys(pieces))
    return tuple(seen)


def after_losses(values: dict, lost: int) -> tuple[int, ...]:
    """The special groups' models left after `lost` models fall: the plain ones first, then the
    groups in their order."""
    plain = values["#models"] - sum(values["#special_left"])
    lost -= min(lost, plain)
    out = []
    for n in values["#special_left"]:
        gone = min(lost, n)
        lost -= gone
        out.append(n - gone)
    return tuple(out)
