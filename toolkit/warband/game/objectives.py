"""A scenario's objectives: each term that can add to a side's score, judged on its own.

`score tallow = 2 * tallow.Shares + total(1 for f in eels.casualties)` has two objectives: the
contraband and the enemies downed. `simulate` lists the objectives no game scored, and `rules
check --playouts` warns of each (W903): judged by whole `score` lines, a treasure nobody ever
carried off read "every objective scored" as long as somebody was downed.

A term is a part of the score's expression joined to the rest by `+` or `-` at its top (inside
brackets, conditionals and aggregates it is one term); a number alone (`+ 1`) is no objective.
A score of one term is named `score SIDE`, as it always was; a score of several names each term
`score SIDE: TERM`, the term as the rules write it.
"""

from __future__ import annotations

from dataclasses import dataclass

from warband.diagnostics import Span
from warband.lang import nodes
from warband.lang.unparse import expr_text

MOST_SHOWN = 60   # characters of a term in its name; longer ones are cut with "..."


@dataclass(frozen=True)
class Objective:
    name: str            # `score SIDE` or `score SIDE: TERM`
    side: str
    term: nodes.Expr
    span: Span


def terms_of(expr: nodes.Expr) -> list[nodes.Expr]:
    """The parts of an expression joined by `+` and `-` at its top."""
    if type(expr) is nodes.Binary and expr.op in ("+", "-"):
        return terms_of(expr.left) + terms_of(expr.right)
    return [expr]


def objectives(decl: nodes.ScenarioDecl) -> list[Objective]:
    """Every objective of a scenario's scores, in the order the scores and their terms are
    written."""
    out = []
    for side, expr, _ in decl.scores:
        terms = [t for t in terms_of(expr) if type(t) is not nodes.Int]
        if len(terms) <= 1:
            out.append(Objective(f"score {side.name}", side.name, expr, expr.span))
            continue
        for term in terms:
            text = expr_text(term)
            if len(text) > MOST_SHOWN:
                text = text[:MOST_SHOWN - 3] + "..."
            out.append(Objective(f"score {side.name}: {text}", side.name, term, term.span))
    return out
