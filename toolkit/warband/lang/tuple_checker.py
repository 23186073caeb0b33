"""Checks of several values at once: a decision that picks a number for each of several names
(`choose hand (attack, defence, speed) by f from 0..n where ... default (...)`).

The names are numbers from the decision on; `where` reads them (and anything before the
decision) and says which combinations are allowed; the default names one number per name.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from warband.diagnostics import Related
from warband.lang import nodes
from warband.lang.typesystem import BOOL, NUMBER, Scope

if TYPE_CHECKING:
    from warband.diagnostics import Span
    from warband.lang.checker_parts import CheckerParts


def check_choose_tuple(checker: CheckerParts, stmt: nodes.ChooseTuple, scope: Scope) -> None:
    checker.decider(stmt, scope)
    for part, what in ((stmt.low, "the lowest choice"), (stmt.high, "the highest choice")):
        t = checker.expr(part, scope)
        checker.expect(NUMBER, t, part.span, what)
        checker.require_fixed(t, part.span, what)
    if stmt.default is not None:
        if len(stmt.default) != len(stmt.names):
            first = stmt.default[0].span
            checker.error("E325", f"decision '{stmt.name.name}' chooses {len(stmt.names)} "
                                  f"numbers, but its default gives {len(stmt.default)}",
                          first, hint="give one default number for each name, in the same "
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
        checker.expect(BOOL, t, stmt.where.span, "the condition after 'where'")
        checker.require_fixed(t, stmt.where.span, "the condition after 'where'")
