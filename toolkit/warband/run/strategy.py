"""The best choices for both sides when they choose at the same time, in secret.

Swords Against Sorcery's hands are chosen secretly and revealed together: neither side sees the
other's. That is a two-player zero-sum game. This module finds each side's up-front decisions
(those made before any die is rolled) by probing the action, builds the matrix of expected
scores (the acting side's score, as the rules' outcomes define it) with exact odds for every
pair of pure strategies, and solves it exactly: a saddle point when one exists (the best pure
choice for both), otherwise the optimal mixed strategies by the simplex method over Fractions.
Decisions made later, after rolls, are filled by the given policies.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from warband.limits import MAX_CELLS
from warband.run.decisions import OpenDecision, Policies
from warband.run.interpreter import Interpreter


class TooLarge(Exception):
    pass


@dataclass
class Solution:
    value: Fraction                       # the acting side's expected score when both play well
    pure: bool                            # a saddle point: neither side needs to mix
    rows: list[dict]                      # the acting side's strategies (decision -> choice)
    columns: list[dict]                   # the other side's
    row_mix: list[Fraction]               # optimal probabilities of each row
    column_mix: list[Fraction]
    maximin: int                          # the acting side's best pure strategy if it is seen
    maximin_value: Fraction


def _scripts(ruleset, action, args, world, policies) -> list[dict]:
    """Every combination of up-front choices (a tree: later ranges depend on earlier choices)."""
    leaves: list[dict] = []
    pending: list[dict] = [{}]
    while pending:
        script = pending.pop()
        fixed = {name: choice for name, (choice, _) in script.items()}
        interp = Interpreter(ruleset, Policies(policies.default,
                                               {**policies.by_decision, **fixed}))
        interp.probing = True
        try:
            interp.exact(action, args, world)
        except OpenDecision as open_:
            for option in reversed(open_.options):
                pending.append({**script, open_.name: (option, open_.side)})
            if len(leaves) + len(pending) > MAX_CELLS:
                raise TooLarge(f"more than {MAX_CELLS:,} combinations of choices")
            continue
        leaves.append(script)
    return leaves


def solve(ruleset, action: str, args: dict, world, policies: Policies,
          actor_side: int) -> Solution:
    leaves = _scripts(ruleset, action, args, world, policies)
    rows, columns = [], []
    for script in leaves:
        mine = {k: v for k, (v, side) in script.items() if side == actor_side}
        theirs = {k: v for k, (v, side) in script.items() if side != actor_side}
        if mine not in rows:
            rows.append(mine)
        if theirs not in columns:
            columns.append(theirs)
    if len(rows) * len(columns) > MAX_CELLS:
        raise TooLarge(f"{len(rows)} x {len(columns)} pairs of strategies")
    decl = ruleset.procedures[action]
    matrix = []
    for mine in rows:
        row = []
        for theirs in columns:
            interp = Interpreter(ruleset, Policies(policies.default,
                                                   {**policies.by_decision, **mine, **theirs}))
            dist = interp.exact(action, args, world)
            row.append(dist.mean_of(interp.scorer(decl)))
        matrix.append(row)
    lower = [min(r) for r in matrix]
    upper = [max(matrix[i][j] for i in range(len(rows))) for j in range(len(columns))]
    maximin = max(range(len(rows)), key=lambda i: lower[i])
    minimax = min(range(len(columns)), key=lambda j: upper[j])
    if lower[maximin] == upper[minimax]:
        row_mix = [Fraction(int(i == maximin)) for i in range(len(rows))]
        column_mix = [Fraction(int(j == minimax)) for j in range(len(columns))]
        return Solution(lower[maximin], True, rows, columns, row_mix, column_mix, maximin,
                        lower[maximin])
    value, row_mix, column_mix = solve_matrix_game(matrix)
    return Solution(value, False, rows, columns, row_mix, column_mix, maximin, lower[maximin])


def solve_matrix_game(matrix: list[list[Fraction]]) -> tuple[Fraction, list, list]:
    """Value and optimal mixed strategies of a zero-sum game (rows maximise), exactly.

    With every payoff made positive by a shift, the column player's problem is: maximise
    sum(y) subject to A y <= 1, y >= 0. Its optimum gives the value (1 / sum y), the column
    strategy (y scaled), and, from the slack variables' reduced costs, the row strategy.
    Bland's rule keeps the simplex from cycling.
    """
    m, n = len(matrix), len(matrix[0])
    shift = 1 - min(min(row) for row in matrix)
    table = [[Fraction(matrix[i][j] + shift) for j in range(n)]
             + [Fraction(int(k == i)) for k in range(m)] + [Fraction(1)] for i in range(m)]
    objective = [Fraction(-1)] * n + [Fraction(0)] * (m + 1)
    basis = [n + i for i in range(m)]
    while True:
        entering = next((j for j in range(n + m) if objective[j] < 0), None)
        if entering is None:
            break
        candidates = [(table[i][-1] / table[i][entering], basis[i], i)
                      for i in range(m) if table[i][entering] > 0]
        _, _, r = min(candidates)
        pivot = table[r][entering]
        table[r] = [x / pivot for x in table[r]]
        for i in range(m):
            if i != r and table[i][entering]:
                factor = table[i][entering]
                table[i] = [a - factor * b for a, b in zip(table[i], table[r])]
        factor = objective[entering]
        objective = [a - factor * b for a, b in zip(objective, table[r])]
        basis[r] = entering
    total = objective[-1]
    y = [Fraction(0)] * n
    for i, b in enumerate(basis):
        if b < n:
            y[b] = table[i][-1]
    scale = 1 / total
    column_mix = [v * scale for v in y]
    row_mix = [objective[n + i] * scale for i in range(m)]
    return scale - shift, row_mix, column_mix
