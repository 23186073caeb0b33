"""Several values at once: a decision that picks a whole number for each of several names.

`choose hand (attack, defence, speed) by f from 0..n where attack + defence + speed <= n`
has one option per combination (a tuple) of whole numbers in low..high that `where` allows.
The options are listed in a fixed order, the first name's number changing slowest and every
number rising (0,0,0 then 0,0,1 ...): that is the order the `first` policy and an illegal
default fall back on. A random player draws a tuple one number at a time, as it draws
numbers chosen one after another: the first number uniformly among the values that begin
some legal tuple, then each next one uniformly among the values that still leave a legal
tuple (draw; shares gives the same probabilities exactly). So a hand of attack, defence and
speed dice adding up to at most 3 has no attack dice one time in four, as three decisions in
turn would give, not 10 times in 20 (the share of the 20 hands that have none). A tuple is
named, in a policy or a game's record, by its numbers ("2,1,0") or by
names and numbers as the game log shows it ("attack 2, defence 1, speed 0").

The interpreter (run/decisions.py) and the generated code (codegen/runtime.py) both list the
options here, so the two make the same draws. Listing them costs a `where` test per
combination; a `where` that reads only plain names (the tuple's and other locals) gives the same
list for the same values, so the list is kept and found again (a game asks for the same hand
thousands of times), with the steps a random player draws through.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable
from fractions import Fraction

from warband.diagnostics import diag
from warband.lang import nodes
from warband.limits import MAX_TUPLE_CHOICES
from warband.run.dice import below
from warband.run.errors import RulesError

# the expressions a kept list of options may depend on: nothing but names and arithmetic
_PLAIN = (nodes.Name, nodes.Int, nodes.Bool, nodes.Binary, nodes.Compare, nodes.Logic,
          nodes.Not, nodes.Neg, nodes.IfExpr)
_KEPT: dict = {}       # (id(stmt), low, high, values of the other names) -> (stmt, options)
_MAX_KEPT = 20_000     # entries kept before the store is emptied (a few MB at most)
_PLAIN_WHERE: dict = {}   # id(stmt) -> (stmt, the other names `where` reads, or None)


class Legal(list):
    """The legal tuples of a decision, in order (see options), with the steps a random player
    draws through, made the first time one draws from them (None before): a kept list keeps
    them too."""

    __slots__ = ("steps",)
    steps: tuple | None


def check_bounds(stmt: nodes.ChooseTuple, low, high) -> None:
    """Whole bounds, something between them, and not too many combinations (E505, E513)."""
    for bound in (low, high):
        if type(bound) is not int:
            raise RulesError(diag("E505", f"decision '{stmt.name.name}' chooses among whole "
                                          f"numbers, not up to {bound}", stmt.span))
    if low > high:
        raise RulesError(diag("E505", f"decision '{stmt.name.name}' has nothing to choose "
                                      f"from: {low}..{high}", stmt.span))
    combinations = (high - low + 1) ** len(stmt.names)
    if combinations > MAX_TUPLE_CHOICES:
        raise RulesError(diag(
            "E513", f"decision '{stmt.name.name}' would weigh {combinations:,} combinations of "
                    f"{len(stmt.names)} numbers in {low}..{high} (at most "
                    f"{MAX_TUPLE_CHOICES:,})", stmt.span,
            hint="narrow the range (from 0..N with a smaller N), or choose fewer numbers at "
                 "once"))


def plain_names(stmt: nodes.ChooseTuple) -> tuple[str, ...] | None:
    """The names other than the tuple's that `where` reads, or None when it reads anything
    else (a field, a call, a roll): then its options are listed afresh every time."""
    found = _PLAIN_WHERE.get(id(stmt))
    if found is not None and found[0] is stmt:
        return found[1]
    own = {n.name for n in stmt.names}
    names: set[str] = set()
    plain = True

    def walk(e) -> None:
        nonlocal plain
        if not isinstance(e, _PLAIN):
            plain = False
            return
        if type(e) is nodes.Name:
            if e.name not in own:
                names.add(e.name)
            return
        for f in ("left", "right", "operand", "condition", "then", "otherwise"):
            part = getattr(e, f, None)
            if part is not None:
                walk(part)
        for part in getattr(e, "items", ()) or ():
            walk(part)
    if stmt.where is not None:
        walk(stmt.where)
    result = tuple(sorted(names)) if plain else None
    _PLAIN_WHERE[id(stmt)] = (stmt, result)
    return result


def key_values(stmt: nodes.ChooseTuple, env: dict) -> tuple | None:
    """The values of the other names `where` reads, by which a list of options is kept; None
    when it is not kept (a `where` that reads more than names, or a value not a plain number)."""
    others = plain_names(stmt)
    if others is None:
        return None
    values = tuple(env.get(n) for n in others)
    return values if all(type(v) in (int, bool) for v in values) else None


def options(stmt: nodes.ChooseTuple, low: int, high: int, others: tuple | None,
            allows: Callable[[tuple], object]) -> list[tuple[int, ...]]:
    """Every legal tuple in order: allows(tuple) tests `where`; `others`, the values of the
    other names it reads (see key_values), or None to list them afresh."""
    key = None
    if others is not None:
        key = (id(stmt), low, high, others)
        found = _KEPT.get(key)
        if found is not None and found[0] is stmt:
            return found[1]   # (its bounds were checked when it was listed)
    check_bounds(stmt, low, high)
    every = itertools.product(range(low, high + 1), repeat=len(stmt.names))
    legal = Legal(every) if stmt.where is None else Legal(c for c in every if allows(c) is True)
    legal.steps = None
    if not legal:
        raise RulesError(diag("E505", f"decision '{stmt.name.name}' has nothing to choose "
                                      f"from: no numbers in {low}..{high} meet its 'where'",
                              stmt.where.span if stmt.where is not None else stmt.span))
    if key is not None:
        if len(_KEPT) >= _MAX_KEPT:
            _KEPT.clear()
        _KEPT[key] = (stmt, legal)
    return legal


def steps(legal: list[tuple[int, ...]]) -> tuple:
    """The legal tuples as a tree of the numbers in turn: a tuple of (number, the steps after
    it) for each number that begins some legal tuple, in order; () after the last number. Made
    once for a list of options (options keeps a list per values)."""
    if type(legal) is Legal and legal.steps is not None:
        return legal.steps

    def tree(rows: list[tuple[int, ...]], at: int) -> tuple:
        if at == len(rows[0]):
            return ()
        return tuple((number, tree(list(group), at + 1))
                     for number, group in itertools.groupby(rows, key=lambda r: r[at]))
    made = tree(legal, 0)   # (options are in order, so equal first numbers are together)
    if type(legal) is Legal:
        legal.steps = made
    return made


def draw(legal: list[tuple[int, ...]], rng) -> tuple[int, ...]:
    """A random player's tuple: each number in turn uniformly among those that still leave a
    legal tuple (a number that is the only one left is not drawn, as a decision with one
    option is not)."""
    node = steps(legal)
    picked: list[int] = []
    while node:
        number, node = node[below(rng, len(node))] if len(node) > 1 else node[0]
        picked.append(number)
    return tuple(picked)


def shares(legal: list[tuple[int, ...]]) -> list[tuple[Fraction, tuple[int, ...]]]:
    """Each legal tuple with the probability that draw gives it (in the order of `legal`)."""
    out: list[tuple[Fraction, tuple[int, ...]]] = []

    def walk(node: tuple, prefix: tuple[int, ...], share: Fraction) -> None:
        each = share / len(node)
        for number, after in node:
            if after:
                walk(after, prefix + (number,), each)
            else:
                out.append((each, prefix + (number,)))
    walk(steps(legal), (), Fraction(1))
    return out


def shown(stmt: nodes.ChooseTuple, choice: tuple[int, ...]) -> str:
    """A tuple as the game log and a record show it: "attack 2, defence 1, speed 0"."""
    return ", ".join(f"{n.name} {v}" for n, v in zip(stmt.names, choice))


_NUMBER = re.compile(r"-?[0-9]{1,15}")


def parse(stmt: nodes.ChooseTuple, text: str) -> tuple[int, ...] | None:
    """The tuple a policy or a record names ("2,1,0", "2 1 0", "2/1/0" or "attack 2, defence 1,
    speed 0"), or None when the text names no tuple of this decision (then it is a policy's
    name, or the default is taken)."""
    if len(text) > 500:
        return None
    parts = [p for p in re.split(r"[,/\s]+", text.strip()) if p]
    names = [n.name for n in stmt.names]
    if len(parts) == 2 * len(names) and parts[0::2] == names:
        parts = parts[1::2]
    if len(parts) != len(names) or not all(_NUMBER.fullmatch(p) for p in parts):
        return None
    return tuple(int(p) for p in parts)


def default_choice(stmt: nodes.ChooseTuple, legal: list[tuple[int, ...]],
                   default: tuple | None) -> tuple[int, ...]:
    """The `first` policy's tuple: the declared default when it is legal, else the first."""
    if default is not None and default in legal:
        return default
    return legal[0]


def bind(env: dict, stmt: nodes.ChooseTuple, choice: tuple[int, ...]) -> dict:
    """The names bound to a chosen tuple, for what follows."""
    inner = dict(env)
    for n, v in zip(stmt.names, choice):
        inner[n.name] = v
    return inner
