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
        f": {unit.doc}" if unit.doc else "")


def start_values(unit: UnitSize | None, values: dict, traits: dict, models: int | None) -> dict:
    """The unit's own values at the start of play, for a fighter whose stats are `values` and
    traits `traits`; a fighter of a class that is no unit is one model of one wound. A model
    has at least one wound (a trait it lacks reads 0)."""
    if unit is None:
        per, count = 1, 1
    else:
        wounds = unit.wounds
        if type(wounds) is str:
            wounds = traits.get(wounds, values.get(wounds, 1))
        per = wounds if type(wounds) is int and wounds > 0 else 1
        count = unit.default if models is None else models
    return {"#models": count, "#models_start": count, "#wounds_left": per,
            "#model_wounds": per}
