"""What a game's log says of the rules as they run: what each roll is for (by the rules' own
names), who rolls it and what it needs; the values a `set` changes.

Worked out once per ruleset, and only when a game is recorded: a game played without a log
never builds it, and no roll pays for it. A roll is labelled by

- the `let` (or `set`) it is bound to, in the declaration that rolls it: `roll in attack`;
- else the declaration (procedure, action, phase, definition, table, the scenario's block)
  that rolls it: `move_dice`;
- a `dice` argument (rolled by name, in the callee) by the `let` around the call that passes it:
  `let roll = fated_roll(attacker.side, attack_dice(...))` labels the dice rolled inside
  fated_roll `roll in attack`, and the side or fighter passed with them is who rolls them.

A roll compared with a number at once (`if d6 >= 4`, `let coin = d6 <= 3`) says what it
needed: `needs 4+`, `needs 3 or less`, and whether it made it.
"""

from __future__ import annotations

import dataclasses
from fractions import Fraction
from typing import Any

from warband.lang import nodes
from warband.lang.per_ruleset import per_ruleset

# op -> (op with its sides swapped): `4 <= d6` is `d6 >= 4`
_FLIPPED = {">=": "<=", "<=": ">=", ">": "<", "<": ">", "==": "==", "!=": "!="}


class RollLabels:
    """A ruleset's rolls: the label of each roll node and of each `dice` argument, and what a
    roll compared at once needed (all keyed by the node's id; the ruleset is kept, so the ids
    stay its nodes')."""

    def __init__(self, ruleset) -> None:
        self.ruleset = ruleset
        self.own: dict[int, str] = {}        # id(Dice or Count) -> label
        self.args: dict[int, str] = {}       # id(an argument to a dice parameter) -> label
        self.needs: dict[int, tuple[str, int]] = {}   # id(Dice) -> (op, number)
        # a roll compared with a number the rules work out, or later by the name a `let` gave
        # it: id(Compare) -> (the roll's label, whether the roll is on the left)
        self.tests: dict[int, tuple[str, bool]] = {}
        self.texts: dict[tuple[int, int | None], str] = {}   # (id(node), count) -> "5d6"
        procedures = ruleset.procedures
        for decl in procedures.values():
            self._walk(decl, decl.name.name)
        for decl in list(ruleset.defines.values()) + list(ruleset.tables.values()):
            self._walk(decl, decl.name.name)
        scenario = ruleset.scenario
        if scenario is not None:
            for name in ("setup", "round", "aftermath"):
                block = getattr(scenario, name, None)
                if block is not None:
                    self._walk(block, name)
            self._walk(scenario, "the scenario")   # (what the blocks left: its scores, ...)

    def _walk(self, root, where: str) -> None:
        procedures = self.ruleset.procedures
        lets = _let_names(root)   # (a comparison of one of them is a later test of its roll)
        stack: list[tuple[Any, str | None]] = [(root, None)]
        while stack:
            n, bound = stack.pop()
            if isinstance(n, tuple):
                stack.extend((item, bound) for item in reversed(n))
                continue
            t = type(n)
            if not dataclasses.is_dataclass(t):
                continue
            if t is nodes.Let:
                stack.append((n.value, n.name.name))
                continue
            if t is nodes.Set and len(n.target) == 1:
                stack.append((n.value, n.target[0].name))
                continue
            label = f"{bound} in {where}" if bound is not None and bound != where else where
            if t is nodes.Dice or t is nodes.Count:
                self.own.setdefault(id(n), label)
            elif t is nodes.Compare:
                for roll, other, op in ((n.left, n.right, n.op), (n.right, n.left, _FLIPPED[n.op])):
                    if type(roll) is nodes.Dice and not roll.pool and type(other) is nodes.Int:
                        self.needs.setdefault(id(roll), (op, other.value))
                    elif rolls(other):   # (asking it again would roll it again)
                        continue
                    elif type(roll) is nodes.Dice and not roll.pool:
                        self.tests.setdefault(id(n), (label, roll is n.left))
                    elif type(roll) is nodes.Name and roll.name in lets:
                        named = f"{roll.name} in {where}" if roll.name != where else where
                        self.tests.setdefault(id(n), (named, roll is n.left))
            elif t is nodes.Call:
                decl = procedures.get(n.callee.name)
                if decl is not None:
                    for param, arg in zip(decl.params, n.args):
                        if param.type is not None and param.type.name == "dice":
                            self.args.setdefault(id(arg), label)
            for f in dataclasses.fields(n):
                value = getattr(n, f.name)
                if isinstance(value, tuple) or dataclasses.is_dataclass(value):
                    stack.append((value, bound))

    def dice_text(self, node, count: int | None) -> str:
        """The roll as written, with the number of dice it rolled: `5d6`, not `(dice)d6`."""
        key = (id(node), count)
        text = self.texts.get(key)
        if text is None:
            from warband.lang.unparse import expr_text  # lazily: only recorded games need it
            shown = node
            if type(node) is nodes.Dice and node.rolled_by is not None:   # (told as `by`)
                shown = node = dataclasses.replace(node, rolled_by=None)
            elif type(node) is nodes.Count and type(node.pool) is nodes.Dice and \
                    node.pool.rolled_by is not None:
                shown = node = dataclasses.replace(
                    node, pool=dataclasses.replace(node.pool, rolled_by=None))
            if type(node) is nodes.Dice and count is not None and \
                    type(node.count) is not nodes.Int:
                shown = dataclasses.replace(node, count=nodes.Int(count, node.span),
                                            count_in_token=True)
            elif type(node) is nodes.Call and count is not None:   # d(n): as rolled, d8
                shown = nodes.Dice(nodes.Int(1, node.span), int(count), (), node.span)
            elif type(node) is nodes.Count and count is not None and \
                    type(node.pool) is nodes.Dice and type(node.pool.count) is not nodes.Int:
                pool = node.pool
                shown = dataclasses.replace(node, pool=dataclasses.replace(
                    pool, count=nodes.Int(count, pool.span), count_in_token=True))
            text = self.texts[key] = expr_text(shown) if node is not None else "roll"
        return text


def _let_names(root) -> set[str]:
    """The names the `let`s of a declaration bind."""
    found, stack = set(), [root]
    while stack:
        n = stack.pop()
        t = type(n)
        if t is tuple:
            stack.extend(n)
        elif dataclasses.is_dataclass(t):
            if t is nodes.Let:
                found.add(n.name.name)
            stack.extend(getattr(n, f.name) for f in dataclasses.fields(n))
    return found


def test_text(compare, other_value) -> str:
    """A later comparison of a roll as a log tells it: as the rules write it, with the number
    it was compared with (`roll < band.stun (15)`)."""
    from warband.lang.unparse import expr_text  # lazily: only recorded games need it
    shown = other_value
    if isinstance(other_value, Fraction):
        shown = int(other_value) if other_value.denominator == 1 else f"{other_value}"
    return f"{expr_text(compare)} ({shown})"


def needed(op: str, number: int) -> str:
    """What a roll compared with a number needs, in words: 4+, 3 or less."""
    if op == ">=":
        return f"{number}+"
    if op == ">":
        return f"{number + 1}+"
    if op == "<=":
        return f"{number} or less"
    if op == "<":
        return f"{number - 1} or less"
    if op == "==":
        return f"exactly {number}"
    return f"anything but {number}"


def made(op: str, number: int, value) -> bool | None:
    """Whether a rolled value made what it needed (None when it is no number)."""
    if not isinstance(value, (int, Fraction)) or isinstance(value, bool):
        return None
    return {">=": value >= number, ">": value > number, "<=": value <= number,
            "<": value < number, "==": value == number, "!=": value != number}[op]


@per_ruleset
def labels_of(ruleset) -> RollLabels:
    """The ruleset's labels, worked out at its first recorded roll (and kept in it)."""
    return RollLabels(ruleset)


def roll_event(interp, node, value, count: int | None) -> dict:
    """The fields of a recorded roll: the dice as rolled, their value, what they are for, who
    rolled them and what they needed."""
    labels = labels_of(interp.ruleset)
    context = interp.roll_context
    label = context[0] if context is not None else \
        labels.own.get(id(node), "a roll") if node is not None else "a roll"
    # who rolls: the roll's own `rolled by`, else the side or fighter passed with the dice, else
    # (GameLog.rolled) the fighter whose action runs or the phase's side
    by = interp.roller if interp.roller is not None else \
        context[1] if context is not None else None
    fields: dict = {"dice": labels.dice_text(node, count) if node is not None else "roll",
                    "for": label, "by": by}
    need = labels.needs.get(id(node)) if node is not None and context is None else None
    if need is not None:
        fields["needs"] = needed(*need)
        fields["made"] = made(need[0], need[1], value)
    return fields


def roller(values: list, world) -> dict | None:
    """Who rolls the dice passed with these arguments: the first side or fighter among them
    (`fated_roll(target.side, d6)`: the target's side), as the log names them."""
    for v in values:
        kind = getattr(v, "kind", None)
        if kind == "fighter":
            f = world.fighters[v.index]
            return {"side": world.sides[f.side].name, "fighter": f.name}
        if kind == "side":
            return {"side": world.sides[v.index].name, "fighter": None}
    return None


def labelled(interp, fn, arg, values: list, world):
    """A `dice` argument's closure that, while it rolls, labels its rolls by the call's `let`
    (and by who the call says rolls them). Only made while a game is recorded (the
    interpreter's closures take (env, world), generated code's (world): either is wrapped)."""
    context = (labels_of(interp.ruleset).args.get(id(arg), "a roll"), roller(values, world))

    def rolling(*args):
        saved, interp.roll_context = interp.roll_context, context
        try:
            return fn(*args)
        finally:
            interp.roll_context = saved
    return rolling


def changed(recorder, subject, field: str, key: str, before, after) -> None:
    """A rule's `set` changed a fighter's or a side's value (a flag set or cleared, tokens spent
    or gained): told to the log where it happens, by the rules' name for the value."""
    if subject.kind == "fighter":
        f0, f1 = before.fighters[subject.index], after.fighters[subject.index]
        who = {"fighter": f1.name, "side": after.sides[f1.side].name}
        old, new = f0.values.get(key), f1.values.get(key)
    else:
        s0, s1 = before.sides[subject.index], after.sides[subject.index]
        who = {"side": s1.name}
        old, new = s0.values.get(key), s1.values.get(key)
    if old != new or type(old) is not type(new):
        recorder.changed(who, field, old, new)


def rolls(expr) -> bool:
    """Whether an expression rolls dice (then asking it again would draw again)."""
    stack = [expr]
    while stack:
        n = stack.pop()
        t = type(n)
        if t is tuple:
            stack.extend(n)
        elif t is nodes.Dice or t is nodes.Count:
            return True
        elif dataclasses.is_dataclass(t):
            stack.extend(getattr(n, f.name) for f in dataclasses.fields(n))
    return False


def removed(recorder, ref, before, after) -> None:
    """A rule took a fighter out of play (`remove`, `withdraw`): told to the log where it
    happens (the game's own look after the action then tells it no more)."""
    if ref.kind != "fighter" or before.fighters[ref.index].removed:
        return
    f = after.fighters[ref.index]
    if f.removed:
        recorder.out_of_play(f.name, after.sides[f.side].name, f.withdrawn,
                             removal_by(after, f))


def called(recorder, decl, values: list, acting: tuple, world) -> None:
    """A procedure of the rules called in a recorded game, on fighters the action running was
    not taken on (`attack(attacker, other, ...)` for each fighter a blast catches): told, so
    that the rolls after it read as against that fighter. `acting`: the fighters the action
    was taken with (its actor and targets, as the log's activation names them)."""
    others = [world.fighters[v.index].name for v in values
              if getattr(v, "kind", None) == "fighter" and v not in acting]
    if others and acting:
        recorder.called(decl.name.name, others)


def wounds(recorder, ref, before, after) -> None:
    """A unit of several models took wounds (`inflict`): the wounds left on its model hit,
    when that model still stands (a fallen one is told by the unit's losses)."""
    f0, f1 = before.fighters[ref.index], after.fighters[ref.index]
    old, new = f0.values.get("#wounds_left"), f1.values.get("#wounds_left")
    if old != new and f1.values.get("#models") == f0.values.get("#models") and \
            f1.values.get("#model_wounds", 1) > 1:
        recorder.changed({"fighter": f1.name, "side": after.sides[f1.side].name},
                         "wounds left on the model hit", old, new)


def removal_by(world, f) -> dict:
    """Who took a fighter out of play, as a record says it: {"by": the fighter's name or None,
    "by_side": the side's name or None} (World.remove's `by`)."""
    by = f.removed_by
    if by is None:
        return {"by": None, "by_side": None}
    return {"by": world.fighters[by[0]].name if by[0] is not None else None,
            "by_side": world.sides[by[1]].name if by[1] is not None else None}
