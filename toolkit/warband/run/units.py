"""Wounds taken by a unit of several models (docs/language.md, "Units of several models").

`inflict N wounds on UNIT` uses up the wounds of the model now taking them before the next
model takes any; each model whose wounds are used up is removed, and the last one gone
removes the unit as a casualty, by the same removal a `remove` statement makes. The interpreter
and the generated code both call `inflict`, with a World (changed by copying) or a Draft
(changed in place): each has `set` and `remove`, and returns what to go on with.

The result depends only on the amount and the unit's values, so exact odds of a roll of wounds
come out of the interpreter's usual splitting of the roll: nothing random happens here.
"""

from __future__ import annotations

from fractions import Fraction

from warband.diagnostics import diag
from warband.lang.units import after_losses, carried_now
from warband.run import places
from warband.run.errors import RulesError


def whole_wounds(amount, node) -> int:
    """The amount as a whole number from 0 up, or E511."""
    if type(amount) is Fraction and amount.denominator == 1:
        amount = int(amount)
    if type(amount) is not int or amount < 0:
        shown = amount if type(amount) is not Fraction else \
            f"{amount.numerator}/{amount.denominator}"
        raise RulesError(diag("E511", f"a unit takes a whole number of wounds (0 or more), "
                                      f"not {shown}", node.amount.span,
                              hint="inflict a whole number, as max(0, N) for a count that "
                                   "may fall below 0"))
    return amount


def after_wounds(models: int, left: int, per: int, amount: int) -> tuple[int, int]:
    """(models left, wounds left on the model now taking wounds) after `amount` wounds."""
    if amount < left:
        return models, left - amount
    amount -= left
    models -= 1
    lost, rest = divmod(amount, per)
    models -= lost
    if models <= 0:
        return 0, 0
    return models, per - rest


def inflict(world, ref, amount, node, by=None, choose=None):
    """The world after the unit `ref` takes `amount` wounds (node: the statement, for E511);
    `by`: who removes it when its last model falls (World.remove); `choose`: who picks the
    models that fall where that is the owner's choice (run/places.py; None: farthest first)."""
    amount = whole_wounds(amount, node)
    f = world.fighters[ref.index]
    if amount == 0 or f.removed:   # a casualty takes no more wounds
        return world
    values = f.values
    models, left = after_wounds(values["#models"], values["#wounds_left"],
                                values["#model_wounds"], amount)
    before = values["#models"]   # (read first: a Draft that owns the fighter changes in place)
    if models != before:
        world = world.set(ref, "#models", models)
        if "#specials" in values:   # one model with a different weapon: plain models first
            world = lose_specials(world, ref, values, values["#models"] - models)
        if values.get("#places"):   # units of models with places: in the class's order
            world = places.fall(world, ref, before - models, by, choose)
    world = world.set(ref, "#wounds_left", left)
    if models == 0:
        world = world.remove(ref, by=by)
    return world


def lose_specials(world, ref, values: dict, lost: int):
    """The world (its '#models' already set) after `lost` models of a unit with special models
    fell: the special groups' counts, and what the unit carries now (a piece only the fallen
    carried is gone). World.set and Draft.set have just given the fighter a copy of its own (its
    models changed), so its equipment may be replaced in place."""
    left = after_losses(values, lost)
    if left != values["#special_left"]:
        world = world.set(ref, "#special_left", left)
    f = world.fighters[ref.index]
    f.equipment = carried_now({**values, "#models": values["#models"] - lost,
                               "#special_left": left})
    return world


def carriers(world, ref, piece) -> int:
    """`carriers(u, w)`: how many models of fighter `u` carry `piece` (for a fighter that is no
    unit, or whose models all carry the same: its models left if it carries it, else 0)."""
    f = world.fighters[ref.index]
    if f.removed or piece not in f.equipment:
        return 0
    values = f.values
    if "#specials" not in values:
        return values.get("#models", 1)
    kit = values["#kit"]
    left = values["#special_left"]
    count = values["#models"] - sum(left) if piece in kit else 0
    for (own, gives_up), n in zip(values["#specials"], left):
        if own == piece or (piece in kit and piece != gives_up):
            count += n
    return count
