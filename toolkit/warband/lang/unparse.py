"""Expressions back to rules text, for summaries and messages."""

from __future__ import annotations

from warband.lang import nodes

_PRECEDENCE = {"or": 1, "and": 2, "not": 3, "compare": 4, "+": 5, "-": 5, "*": 6, "/": 6,
               "neg": 7}


def _prec(e: nodes.Expr) -> int:
    match e:
        case nodes.Logic(op=op):
            return _PRECEDENCE[op]
        case nodes.Not():
            return 3
        case nodes.Compare() | nodes.Has() | nodes.Is():
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
            p = _PRECEDENCE[op]
            return f" {op} ".join(expr_text(i, p + 1) for i in items)
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
            return base
        case nodes.Count(predicate=p, pool=pool):
            return f"count {_pred_text(p)} in {expr_text(pool, 9)}"
        case nodes.Within(distance=d, of=of):
            return f"fighters within {expr_text(d, 5)} of {of.name}"
        case nodes.Aggregate(kind=kind, value=v, var=var, group=g, condition=c):
            where = f" if {expr_text(c)}" if c is not None else ""
            return f"{kind.name}({expr_text(v)} for {var.name} in {expr_text(g)}{where})"
    raise TypeError(f"unknown expression {e!r}")  # pragma: no cover
