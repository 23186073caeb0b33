"""The abstract syntax of the rules language, part one: the node decorator, names, expressions
and the statements every rule may hold (lang/nodes.py gathers all the parts).

Nodes compare by identity (eq=False), so a node can key a table of facts the checker learns
about it, and two identical expressions at different places stay distinct.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import FrozenInstanceError, dataclass
from typing import TypeVar, dataclass_transform

from warband.diagnostics import Span

_Node = TypeVar("_Node")


@dataclass_transform(frozen_default=True, eq_default=False)
def node(cls: type[_Node]) -> type[_Node]:
    """A syntax node: a dataclass with slots, compared by identity, frozen.

    Frozen by the methods below, shared by every node, rather than by dataclass(frozen=True),
    which compiles a __setattr__, a __delattr__ and a __repr__ for each class: with some 150
    node classes that was most of the time `warband validate` spent importing (issue 32, E23).
    The type checker sees them frozen all the same (dataclass_transform)."""
    if cls.__doc__ is None:   # (else dataclass works out a signature for one: inspect, slow)
        cls.__doc__ = f"{cls.__name__}: a syntax node."
    made = dataclass(eq=False, slots=True, repr=False)(cls)
    for name, method in _NODE_METHODS.items():
        setattr(made, name, method)
    NODE_CLASSES.add(made)
    return made


def _set_once(self, name: str, value) -> None:
    """A node's fields are set once, by its __init__: never again."""
    try:
        getattr(self, name)
    except AttributeError:   # not set yet (slots start empty)
        object.__setattr__(self, name, value)
        return
    raise FrozenInstanceError(f"cannot assign to field {name!r}")


def _delete(self, name: str) -> None:
    raise FrozenInstanceError(f"cannot delete field {name!r}")


def _state(self) -> tuple:
    """What pickling keeps (the compile cache): the fields' values, in order."""
    return tuple(getattr(self, name) for name in self.__slots__)


def _restore(self, state: tuple) -> None:
    for name, value in zip(self.__slots__, state):
        object.__setattr__(self, name, value)


def _repr(self) -> str:
    return f"{type(self).__qualname__}(" + ", ".join(
        f"{name}={getattr(self, name)!r}" for name in self.__slots__) + ")"


_NODE_METHODS = {"__setattr__": _set_once, "__delattr__": _delete, "__getstate__": _state,
                 "__setstate__": _restore, "__repr__": _repr}
NODE_CLASSES: set[type] = set()   # every node class (the decorator adds each)


def children(n) -> Iterator:
    """The nodes directly under node n, in the order of its fields (the order of the text),
    through the tuples that hold them: the one generic walk of the syntax. A pass that looks
    for some kinds of node walks with `walk` and matches those, and needs no case for the
    others: a new kind of node is walked the day it is declared."""
    for name in n.__slots__:
        yield from _nodes_in(getattr(n, name))


def _nodes_in(value) -> Iterator:
    if type(value) in NODE_CLASSES:
        yield value
    elif type(value) is tuple:
        for item in value:
            yield from _nodes_in(item)


def walk(n) -> Iterator:
    """Every node under n (n included), depth first, in the order of the text."""
    stack = [n]
    while stack:
        here = stack.pop()
        yield here
        stack.extend(reversed(list(children(here))))


@node
class Ident:
    name: str
    span: Span


# ---- expressions ------------------------------------------------------------------------------

@node
class Int:
    value: int
    span: Span


@node
class Str:
    value: str
    span: Span


@node
class Bool:
    value: bool
    span: Span


@node
class Name:
    name: str
    span: Span


@node
class Field:
    subject: "Expr"
    field: Ident
    span: Span


@node
class Call:
    callee: Ident
    args: tuple["Expr", ...]
    span: Span


@node
class Binary:
    op: str  # + - * /
    left: "Expr"
    right: "Expr"
    span: Span


@node
class Compare:
    op: str  # >= <= == != > <
    left: "Expr"
    right: "Expr"
    span: Span


@node
class Logic:
    op: str  # and, or
    items: tuple["Expr", ...]
    span: Span


@node
class Not:
    operand: "Expr"
    span: Span


@node
class Neg:
    operand: "Expr"
    span: Span


@node
class IfExpr:
    condition: "Expr"
    then: "Expr"
    otherwise: "Expr"
    span: Span


@node
class Has:
    subject: "Expr"
    name: Ident
    span: Span


@node
class Is:
    subject: "Expr"
    name: Ident
    span: Span


@node
class KeepMod:
    keep: bool      # keep (True) or drop (False)
    highest: bool
    count: int
    span: Span


@node
class RerollMod:
    predicate: "Predicate"
    span: Span


@node
class Dice:
    count: "Expr"   # an Int for 3d6, any expression for (n)d6
    sides: int
    mods: tuple[KeepMod | RerollMod, ...]
    span: Span
    count_in_token: bool = True  # 3d6 (True) as against (n)d6; (n)3d6 is an error
    # dice pools: `pool 3d6` keeps each die's face, a value asked questions (count, total, ...)
    pool: bool = False
    # `d6 rolled by target`: who rolls it, as a game's log tells it (None: the fighter whose
    # action runs, or the side or fighter the dice were passed with)
    rolled_by: "Name | None" = None


@node
class PredEven:
    span: Span


@node
class PredOdd:
    span: Span


@node
class PredCompare:
    op: str
    value: "Expr"
    span: Span


@node
class PredSet:
    values: tuple[int, ...]
    span: Span


Predicate = PredEven | PredOdd | PredCompare | PredSet


@node
class Count:
    predicate: Predicate
    pool: "Expr"
    span: Span


@node
class Within:
    distance: "Expr"
    of: Name
    span: Span


@node
class Aggregate:
    """total/highest/lowest(value for name in group if condition): over a group of fighters."""
    kind: Ident             # total | highest | lowest
    value: "Expr"
    var: Ident
    group: "Expr"
    condition: "Expr | None"
    span: Span


# areas and templates: `fighters under AREA` and `f is under AREA` (run/areas.py)
@node
class Under:
    """The fighters in play whose bases an area covers (subject None), or whether one is."""
    subject: Expr | None
    area: Expr
    span: Span


Expr = (Int | Str | Bool | Name | Field | Call | Binary | Compare | Logic | Not | Neg | IfExpr
        | Has | Is | Dice | Count | Within | Aggregate | Under)


# ---- statements -------------------------------------------------------------------------------

@node
class Let:
    name: Ident
    value: Expr
    span: Span


@node
class Set:
    target: tuple[Ident, ...]   # a local, or subject.field
    op: str                     # = += -=
    value: Expr
    span: Span


@node
class If:
    condition: Expr
    then: "Block"
    otherwise: "Block | If | None"
    span: Span


@node
class Option:
    name: Ident
    doc: str | None
    when: Expr | None
    body: "Block | None"
    span: Span


@node
class Choose:
    name: Ident
    decider: Expr
    doc: str | None
    options: tuple[Option, ...]
    span: Span


@node
class ChooseNumber:
    """A decision among the whole numbers low..high, bound to a name for what follows."""
    name: Ident
    decider: Expr
    low: Expr
    high: Expr
    default: Expr | None
    doc: str | None
    span: Span


@node
class Return:
    value: Expr | None   # None: a bare `return`, in a rule that gives no result
    span: Span


@node
class Remove:
    subject: Expr
    span: Span
    # who removed it: a fighter or a side (`remove target by attacker`); None: the fighter
    # whose action is running, if any (a fighter's `removed_by`)
    by: Expr | None = None


@node
class ForEach:
    var: Ident
    items: Expr
    body: "Block"
    span: Span


@node
class Repeat:
    times: Expr
    body: "Block"
    span: Span


# units of several models (docs/language.md, "Units of several models")
@node
class Wound:
    """`inflict AMOUNT wounds on UNIT`: wounds taken model by model, each model's used up before
    the next takes any; the last model gone, the unit is removed as a casualty."""
    amount: Expr
    target: Expr
    span: Span


@node
class CallStmt:
    call: Call
    span: Span


Stmt = Let | Set | If | Choose | ChooseNumber | Return | Remove | ForEach | Repeat | CallStmt \
    | Wound


@node
class Block:
    stmts: tuple[Stmt, ...]
    span: Span
