"""Checks of several values at once: a decision that picks a number for each of several names
(`choose hand (attack, defence, speed) by f from 0..n where ... default (...)`).

The names are numbers from the decision on; `where` reads them (and anything before the
decision) and says which combinations are allowed; the default names one number per name.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from warband.diagnostics import Related, Span
from warband.lang import nodes
from warband.lang.unparse import expr_text
from warband.lang.typesystem import ANY, BOOL, NUMBER, Scope, Type, compatible

if TYPE_CHECKING:
    from warband.lang.checker_parts import CheckerParts


def check_choose_tuple(checker: CheckerParts, stmt: nodes.ChooseTuple, scope: Scope) -> None:
    checker.decider(stmt, scope)
    for part, what in ((stmt.low, "the lowest choice"), (stmt.high, "the highest choice")):
        t = checker.expr(part, scope)
        checker.expect(NUMBER, t, part.span, what)
        checker.require_fixed(t, part.span, what)
    if stmt.default is not None:
        if len(stmt.default) != len(stmt.names):
            first, last = stmt.default[0].span, stmt.default[-1].span
            whole = Span(first.file, first.line, first.column, last.end_line, last.end_column)
            checker.error("E325", f"decision '{stmt.name.name}' chooses {len(stmt.names)} "
                                  f"numbers, but its default gives {len(stmt.default)}",
                          whole, hint="give one default number for each name, in the same "
                                      "order: default (" +
                                      ", ".join(n.name for n in stmt.names) + ")")
        for d in stmt.default:   # (read before the names are bound: a default cannot use them)
            t = checker.expr(d, scope)
            checker.expect(NUMBER, t, d.span, "a default choice")
            checker.require_fixed(t, d.span, "a default choice")
    seen: dict[str, Span] = {}
    for name in stmt.names:
        if name.name in seen:
            checker.error("E325", f"'{name.name}' is named twice in decision "
                                  f"'{stmt.name.name}'", name.span,
                          related=[Related(seen[name.name], "first here")],
                          hint="each number the decision picks needs a name of its own")
        elif name.name in scope.locals:
            checker.error("E202", f"'{name.name}' is already a name here", name.span,
                          related=[Related(scope.locals[name.name][1], "first here")],
                          hint="a decision's number needs a name of its own")
        seen.setdefault(name.name, name.span)
    if stmt.name.name in seen:
        checker.error("E325", f"decision '{stmt.name.name}' has the name of one of its own "
                              "numbers", stmt.name.span,
                      hint="name the decision for the whole choice (hand), its numbers for "
                           "the parts (attack, defence)")
    for name in stmt.names:
        scope.locals.setdefault(name.name, (NUMBER, name.span))
    if stmt.where is not None:
        t = checker.expr(stmt.where, scope)
        if t.kind not in (BOOL.kind, "any"):
            checker.error("E302", f"the condition after 'where' must be a yes/no value, not "
                                  f"{t.fixed()}", stmt.where.span,
                          hint="compare the numbers, as in 'where " +
                               " + ".join(n.name for n in stmt.names) + " <= N'")
        checker.require_fixed(t, stmt.where.span, "the condition after 'where'")


# ---- a procedure that returns several values ---------------------------------------------------

def tuple_value_type(checker: CheckerParts, e: nodes.TupleExpr, scope: Scope) -> Type:
    """(a, b): the type of each value; none may be rolled here (roll it into a name first, with
    `let`, so that the odds follow it as one roll)."""
    columns = []
    for item in e.items:
        t = checker.expr(item, scope)
        if t.kind == "dice":
            checker.error("E303", "a value returned among several must be a fixed number, not "
                                  "dice", item.span,
                          hint="roll it first: let roll = 2d6, then return (roll, ...)")
            t = NUMBER
        columns.append(t.fixed())
    return Type("tuple", columns=tuple(columns))


def check_tuple_result(checker: CheckerParts, expected: Type, actual: Type, span: Span) -> None:
    """`return` in a procedure giving several values, or several values where one is due."""
    if expected.kind != "tuple" or actual.kind != "tuple":
        if expected.kind == "tuple":
            checker.error("E326", f"this procedure gives {len(expected.columns)} values, so its "
                                  f"return needs {len(expected.columns)}, not {actual}", span,
                          hint="return them in brackets: return (" +
                               ", ".join(f"v{i + 1}" for i in range(len(expected.columns))) +
                               ")")
        else:
            checker.error("E326", f"this gives {actual}, where the result is {expected}", span,
                          hint="declare the results it gives: -> (" +
                               ", ".join("number" for _ in actual.columns) + ")")
        return
    if len(expected.columns) != len(actual.columns):
        checker.error("E326", f"this procedure gives {len(expected.columns)} values, not "
                              f"{len(actual.columns)}", span,
                      hint="return one value for each type after '->', in the same order")
        return
    for i, (want, got) in enumerate(zip(expected.columns, actual.columns)):
        if not compatible(want, got):
            checker.error("E302", f"value {i + 1} of the result must be {want}, not {got}", span,
                          hint="return the values in the order the types after '->' give")


def check_let_tuple(checker: CheckerParts, stmt: nodes.LetTuple, scope: Scope) -> None:
    """let (x, y) = split(n): a procedure that gives as many values as there are names."""
    t = checker.value(stmt.value, scope)
    count = len(stmt.names)
    if t.kind != "tuple":
        if t.kind != "any":
            checker.error("E326", f"'let ({', '.join(n.name for n in stmt.names)}) = ...' takes "
                                  f"apart several values, and this gives {t}", stmt.value.span,
                          hint="call a procedure declared '-> (number, number)', or use "
                               "'let NAME = ...' for one value")
        columns: tuple[Type, ...] = (ANY,) * count
    elif len(t.columns) != count:
        checker.error("E326", f"this gives {len(t.columns)} values, and "
                              f"{count} names take them", stmt.value.span,
                      hint="name each value the procedure gives, in order: let (" +
                           ", ".join(f"v{i + 1}" for i in range(len(t.columns))) + ") = " +
                           expr_text(stmt.value))
        columns = (ANY,) * count
    else:
        columns = t.columns
    seen: dict[str, Span] = {}
    for name, column in zip(stmt.names, columns):
        if name.name in seen:
            checker.error("E202", f"'{name.name}' is named twice here", name.span,
                          related=[Related(seen[name.name], "first here")],
                          hint="each value needs a name of its own")
            continue
        if name.name in scope.locals:
            checker.error("E202", f"'{name.name}' is already a name here", name.span,
                          related=[Related(scope.locals[name.name][1], "first here")],
                          hint="use 'set' to change it, or choose another name")
        seen[name.name] = name.span
        scope.locals[name.name] = (column, name.span)
