"""Absorbing Markov chains, solved exactly: the chance of ending in each absorbing outcome, from
every state, as fractions.

A chain is given by a function `step(state) -> {next: probability}`, where `next` is another
state or an `End` (an absorbing outcome: a fighter won, both fell). The states reachable from
the starts are listed first (at most `limit` of them, else `TooManyStates`), then solved one
strongly connected component at a time, the components that can only be left towards solved
ones first (Tarjan's order). Within a component the chances solve the linear system
(I - Q) x = b of the states in it, by Gaussian elimination over Fractions. A component with no
way out (two fighters who cannot hurt each other) never ends: its states end in no outcome,
and what is missing from their chances is the chance that the chain goes on for ever. From every
other state some way out is reachable, so its I - Q can be inverted: the solution is exact, with
no round limit and no sampling.

The expected number of steps is solved alongside, where the chain surely ends.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable
from dataclasses import dataclass
from fractions import Fraction


@dataclass(frozen=True)
class End:
    """An absorbing outcome (a label such as 'first', 'second', 'both')."""

    label: str


class TooManyStates(Exception):
    """More states are reachable than the limit allows (kind 'states'), or more lead back to
    one another than one linear system may hold (kind 'component')."""

    def __init__(self, found: int, limit: int, kind: str = "states") -> None:
        what = "states reachable" if kind == "states" else \
            "states leading back to one another"
        super().__init__(f"more than {limit:,} {what} ({found:,} found)")
        self.found, self.limit, self.kind = found, limit, kind


@dataclass
class Solution:
    """What a solved chain gives for each state: the chance of each outcome, and the expected
    steps before the end (None where the chain may go on for ever)."""

    outcomes: tuple[str, ...]
    chances: dict          # state -> {outcome label: Fraction}
    steps: dict            # state -> Fraction | None
    states: int            # how many states were reachable (ends not counted)
    largest: int           # the largest strongly connected component


def explore(starts: Iterable[Hashable], step: Callable[[Hashable], dict],
            limit: int) -> dict:
    """Every state reachable from the starts, with its moves: {state: {next: p}}."""
    moves: dict = {}
    todo = [s for s in starts]
    while todo:
        state = todo.pop()
        if state in moves or isinstance(state, End):
            continue
        if len(moves) >= limit:
            raise TooManyStates(len(moves) + 1 + len([t for t in todo if t not in moves]),
                                limit)
        found = step(state)
        total = sum(found.values())
        if total != 1:
            raise ValueError(f"the moves from a state add up to {total}, not 1")
        moves[state] = found
        todo.extend(t for t in found if not isinstance(t, End) and t not in moves)
    return moves


def components(moves: dict) -> list[list]:
    """The strongly connected components, each after every component it can reach (Tarjan,
    iteratively)."""
    index: dict = {}
    low: dict = {}
    on_stack: set = set()
    stack: list = []
    found: list[list] = []
    counter = 0
    for root in moves:
        if root in index:
            continue
        work = [(root, iter([t for t in moves[root] if not isinstance(t, End)]))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            v, children = work[-1]
            for w in children:
                if w not in index:
                    index[w] = low[w] = counter
                    counter += 1
                    stack.append(w)
                    on_stack.add(w)
                    work.append((w, iter([t for t in moves[w] if not isinstance(t, End)])))
                    break
                if w in on_stack:
                    low[v] = min(low[v], index[w])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[v])
                if low[v] == index[v]:
                    component = []
                    while True:
                        w = stack.pop()
                        on_stack.discard(w)
                        component.append(w)
                        if w == v:
                            break
                    found.append(component)
    return found


def solve_linear(matrix: list[list[Fraction]], rhs: list[list[Fraction]]) -> list[list[Fraction]]:
    """x with matrix . x = rhs (each column of rhs a system), by Gauss-Jordan elimination over
    Fractions; the matrix must be invertible."""
    n = len(matrix)
    a = [row[:] + r[:] for row, r in zip(matrix, rhs)]
    width = len(a[0]) if a else 0
    for col in range(n):
        pivot = next((r for r in range(col, n) if a[r][col] != 0), None)
        if pivot is None:
            raise ZeroDivisionError("singular system")
        a[col], a[pivot] = a[pivot], a[col]
        head = a[col][col]
        if head != 1:
            a[col] = [v / head for v in a[col]]
        for r in range(n):
            if r != col and a[r][col] != 0:
                factor = a[r][col]
                row, top = a[r], a[col]
                a[r] = [x - factor * y if y else x for x, y in zip(row, top)]
    return [row[n:width] for row in a]


def solve(starts: Iterable[Hashable], step: Callable[[Hashable], dict], outcomes: Iterable[str],
          limit: int, component_limit: int | None = None) -> Solution:
    """The chances of each outcome from every reachable state (see the module's docstring)."""
    labels = tuple(outcomes)
    moves = explore(starts, step, limit)
    chances: dict = {}
    steps: dict = {}
    zero = Fraction(0)
    found = components(moves)
    largest = max((len(c) for c in found), default=0)
    if component_limit is not None and largest > component_limit:
        raise TooManyStates(largest, component_limit, "component")
    for component in found:
        inside = set(component)
        leaves = any(isinstance(t, End) or t not in inside for s in component for t in moves[s])
        if not leaves:   # a closed component: it never ends
            for s in component:
                chances[s] = {label: zero for label in labels}
                steps[s] = None
            continue
        place = {s: i for i, s in enumerate(component)}
        n = len(component)
        matrix = [[zero] * n for _ in range(n)]
        rhs = [[zero] * (len(labels) + 1) for _ in range(n)]
        endless = False
        for s, i in place.items():
            matrix[i][i] += 1
            rhs[i][len(labels)] = Fraction(1)   # one step from here
            for t, p in moves[s].items():
                if isinstance(t, End):
                    if t.label in labels:
                        rhs[i][labels.index(t.label)] += p
                elif t in inside:
                    matrix[i][place[t]] -= p
                else:
                    for k, label in enumerate(labels):
                        rhs[i][k] += p * chances[t][label]
                    if steps[t] is None:
                        endless = True
                    else:
                        rhs[i][len(labels)] += p * steps[t]
        solved = solve_linear(matrix, rhs)
        for s, i in place.items():
            chances[s] = dict(zip(labels, solved[i][:len(labels)]))
            steps[s] = None
        if not endless and all(sum(chances[s].values()) == 1 for s in component):
            for s, i in place.items():
                steps[s] = solved[i][len(labels)]
    return Solution(labels, chances, steps, len(moves), largest)


__all__ = ["End", "Solution", "TooManyStates", "components", "explore", "solve",
           "solve_linear"]
