"""Expressions back to rules text, for summaries and messages."""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from typing import cast

from warband.lang import nodes

_PRECEDENCE = {"or": 1, "and": 2, "not": 3, "compare": 4, "+": 5, "-": 5, "*": 6, "/": 6, "%": 6,
               "neg": 7}


def _prec(e: nodes.Expr) -> int:
    match e:
        case nodes.Logic(op=op):
            return _PRECEDENCE[op]
        case nodes.Not():
            return 3
        case nodes.Compare() | nodes.Has() | nodes.Is():
            return 4
        case nodes.Under(subject=subject) if subject is not None:   # f is under AREA
            return 4
        case nodes.Binary(op=op):
            return _PRECEDENCE[op]
        case nodes.Neg():
            return 7
        case nodes.IfExpr():
            return 0
    return 9


def expr_text(e: nodes.Expr, parent: int = 0) -> str:
    text = _text(e)
    return f"({text})" if _prec(e) < parent else text


def _same_logic(e: nodes.Expr, op: str) -> bool:
    return isinstance(e, nodes.Logic) and e.op == op


def conjuncts(e: nodes.Expr) -> list[nodes.Expr]:
    """The parts of a chain of `and`s, in the order written (the parser nests them)."""
    if isinstance(e, nodes.Logic) and e.op == "and":
        return [part for item in e.items for part in conjuncts(item)]
    return [e]


# a comparison that failed, said the other way round: `distance(a, b) <= 24` failing is
# "more than 24"
_FAILED = {"<=": "more than", "<": "not less than", ">=": "less than", ">": "not more than",
           "==": "not", "!=": "the same as"}


def _value_text(v: object) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, Fraction):
        return str(v.numerator) if v.denominator == 1 else f"{v.numerator}/{v.denominator}"
    return str(v)


def _who(e: nodes.Expr) -> str:
    """A fighter or side named in a requirement: "the attacker" for a parameter."""
    return f"the {e.name}" if isinstance(e, nodes.Name) else expr_text(e, 9)


def why_false(e: nodes.Expr, value: Callable[[nodes.Expr], object]) -> str:
    """Why a condition that does not hold is false, in the rules' words: "the attacker has no
    Ranged", "distance(attacker, target) is 30, more than 24". `value` gives the value of any
    part of it (the caller evaluates it for the fighters at hand)."""
    match e:
        case nodes.Logic(op="and"):
            for part in conjuncts(e):
                if value(part) is not True:
                    return why_false(part, value)
        case nodes.Logic(op="or", items=items):
            return "none of these holds: " + "; ".join(why_false(i, value) for i in items)
        case nodes.Has(subject=s, name=n):
            return f"{_who(s)} has no {n.name}"
        case nodes.Is(subject=s, name=n):
            return f"{_who(s)} is not {n.name}"
        case nodes.Not(operand=nodes.Has(subject=s, name=n)):
            return f"{_who(s)} has {n.name}"
        case nodes.Not(operand=nodes.Is(subject=s, name=n)):
            return f"{_who(s)} is {n.name}"
        case nodes.Not(operand=nodes.Field(subject=s, field=f)):
            return f"{_who(s)} is {f.name}"
        case nodes.Field(subject=s, field=f):
            return f"{_who(s)} is not {f.name}"
        case nodes.Not(operand=x):
            return f"{expr_text(x)} holds"
        case nodes.Compare(op=op, left=a, right=b):
            left, right = value(a), value(b)
            if not all(isinstance(v, (int, Fraction)) and not isinstance(v, bool)
                       for v in (left, right)):
                if op == "!=":
                    return f"{expr_text(a)} is the same as {expr_text(b)}"
                if isinstance(left, str):
                    return f"{expr_text(a)} is {left}, not {expr_text(b)}"
                return f"{expr_text(a)} is not {expr_text(b)}"
            said = (f"{_value_text(left)} is" if isinstance(a, nodes.Int)
                    else f"{expr_text(a, 5)} is {_value_text(left)},")
            shown = (expr_text(b) if isinstance(b, nodes.Int)
                     else f"{expr_text(b, 5)} ({_value_text(right)})")
            return f"{said} {_FAILED[op]} {shown}"
    return f"{expr_text(e)} is false"


def _pred_text(p: nodes.Predicate) -> str:
    match p:
        case nodes.PredEven():
            return "even"
        case nodes.PredOdd():
            return "odd"
        case nodes.PredCompare(op=op, value=v):
            return f"{op} {expr_text(v, 9)}"
        case nodes.PredSet(values=vs):
            return "in {" + ", ".join(map(str, vs)) + "}"
    raise TypeError(p)  # pragma: no cover


def _text(e: nodes.Expr) -> str:
    match e:
        case nodes.Int(value=v):
            return str(v)
        case nodes.Str(value=v):
            return '"' + v.replace('"', '\\"') + '"'
        case nodes.Bool(value=v):
            return "true" if v else "false"
        case nodes.Name(name=n):
            return n
        case nodes.Field(subject=s, field=f):
            return f"{expr_text(s, 9)}.{f.name}"
        case nodes.Call(callee=c, args=args):
            return f"{c.name}({', '.join(expr_text(a) for a in args)})"
        case nodes.Binary(op=op, left=a, right=b):
            p = _PRECEDENCE[op]
            return f"{expr_text(a, p)} {op} {expr_text(b, p + 1)}"
        case nodes.Compare(op=op, left=a, right=b):
            return f"{expr_text(a, 5)} {op} {expr_text(b, 5)}"
        case nodes.Logic(op=op, items=items):
            # `and` and `or` are associative: a chain of the same one needs no parentheses
            p = _PRECEDENCE[op]
            return f" {op} ".join(expr_text(i, p + (0 if _same_logic(i, op) else 1))
                                  for i in items)
        case nodes.Not(operand=x):
            return f"not {expr_text(x, 3)}"
        case nodes.Neg(operand=x):
            return f"-{expr_text(x, 7)}"
        case nodes.IfExpr(condition=c, then=a, otherwise=b):
            return f"if {expr_text(c)} then {expr_text(a)} else {expr_text(b)}"
        case nodes.Has(subject=s, name=n):
            return f"{expr_text(s, 5)} has {n.name}"
        case nodes.Is(subject=s, name=n):
            return f"{expr_text(s, 5)} is {n.name}"
        case nodes.Dice(count=count, sides=sides, mods=mods, count_in_token=literal):
            if isinstance(count, nodes.Int) and (literal or count.value == 1):
                base = f"{count.value}d{sides}" if literal else f"d{sides}"
            else:
                base = f"({expr_text(count)})d{sides}"
            for m in mods:
                if isinstance(m, nodes.KeepMod):
                    base += (f" {'keep' if m.keep else 'drop'} "
                             f"{'highest' if m.highest else 'lowest'} {m.count}")
                else:
                    base += f" reroll {_pred_text(m.predicate)}"
            if e.rolled_by is not None:
                base += f" rolled by {e.rolled_by.name}"
            return "pool " + base if e.pool else base   # dice pools: `pool 3d6`
        case nodes.Count(predicate=p, pool=pool):
            return f"count {_pred_text(p)} in {expr_text(pool, 9)}"
        case nodes.Within(distance=d, of=of):
            return f"fighters within {expr_text(d, 5)} of {of.name}"
        case nodes.Under(subject=None, area=area):   # areas and templates
            return f"fighters under {expr_text(area, 9)}"
        case nodes.Under(subject=subject, area=area) if subject is not None:
            return f"{expr_text(subject, 5)} is under {expr_text(area, 9)}"
        case nodes.Aggregate(kind=kind, value=v, var=var, group=g, condition=c):
            where = f" if {expr_text(c)}" if c is not None else ""
            return f"{kind.name}({expr_text(v)} for {var.name} in {expr_text(g)}{where})"
        case nodes.TupleExpr(items=items):   # several values at once
            return "(" + ", ".join(expr_text(i) for i in items) + ")"
    raise TypeError(f"unknown expression {e!r}")  # pragma: no cover


def army_rule_text(rule: nodes.ArmyRule) -> str:
    """A rule of an army section as it is written, without its message."""
    where = f" where {expr_text(rule.condition)}" if rule.condition is not None else ""
    if rule.kind == "require":
        return f"require {expr_text(cast(nodes.Expr, rule.test))}"
    head = f"{cast(nodes.Ident, rule.var).name} in {expr_text(cast(nodes.Expr, rule.group))}" \
        f"{where}"
    if rule.kind == "every":
        return f"every {head}: {expr_text(cast(nodes.Expr, rule.test))}"
    bound = cast(nodes.Bound, rule.bound)
    per = f" per {expr_text(bound.per)} points" if bound.per is not None else ""
    return f"{bound.kind} {expr_text(bound.value)}{per} {head}"


def event_when(e: nodes.EventDecl) -> str:
    """An event's trigger as written (run/events.py): 'side s falls to 1 / 2'."""
    if e.kind == "falls" and e.amount is not None:
        return f"{e.when} to {expr_text(e.amount)}"
    if e.kind == "reaches" and e.amount is not None:
        return f"{e.when} {expr_text(e.amount)}"
    return e.when
