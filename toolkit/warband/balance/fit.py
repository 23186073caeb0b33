"""What each fighter is worth in points, fitted on games between random warbands.

The model (docs/balance.md says why this one): a warband's strength is the sum of its fighters'
worths, and the chance that side 1 beats side 2 is a logistic function of the difference,

    P(side 1 wins) = 1 / (1 + exp(-(a + sum_k w_k (n1_k - n2_k))))

where n_k counts the fighters of profile k in each list and `a` is what being side 1 is worth
(its deployment zone, who goes first). It is Bradley-Terry's model with each list's strength
made of its parts; a draw counts as half a win. The fit maximises the likelihood by Newton's
method (a weak normal prior, sd 10 on every w, keeps a fighter that always wins finite), and
its standard errors come from the inverse of the Hessian there.

w_k is in the logistic scale, not in points. To read it in points, the fitted worths are scaled
so that an average list is worth what it costs: worth_k = w_k * S with S = (c . m) / (w . m), c
the current costs and m the average count of each profile in a list. A suggested cost is then
worth_k: a profile the games value above its cost is cheap, below it dear. Intervals are
worth_k +- 1.96 standard errors, by the delta method through S.

What this needs of the games: lists whose totals vary (the budgets of random warbands are
drawn between a share of the game's points and all of them), else every game has two lists of
the same cost and the fit cannot tell what a point is worth (S is then unknown).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

Z95 = 1.959963984540054
PRIOR_SD = 10.0          # a weak normal prior on every w (logits per fighter)
MAX_ITERATIONS = 60


@dataclass
class Game:
    """One game as the fit sees it: the count of each profile in each list, and the result
    for side 1 (1 a win, 0 a loss, 1/2 a draw)."""

    first: dict[int, int]
    second: dict[int, int]
    result: float


@dataclass
class Fit:
    """The fitted model and what it says each profile is worth."""

    profiles: int
    games: int
    side_advantage: float            # a: logits
    logits: list[float]              # w_k
    covariance: list[list[float]]    # of (a, w_1..w_K)
    mean_counts: list[float]         # m_k: per list
    costs: list[float | None]
    scale: float | None              # S: points per logit (None: cannot be told)
    worth: list[float | None] = field(default_factory=list)
    interval: list[tuple[float, float] | None] = field(default_factory=list)
    converged: bool = True

    def difference(self, i: int, j: int) -> tuple[float, tuple[float, float]] | None:
        """worth_i - worth_j, with its 95% interval (an option: with it less without)."""
        if self.scale is None or self.worth[i] is None or self.worth[j] is None:
            return None
        gi, gj = self._gradient(i), self._gradient(j)
        grad = [a - b for a, b in zip(gi, gj)]
        sd = math.sqrt(max(0.0, _quad(grad, self.covariance)))
        d = self.worth[i] - self.worth[j]   # type: ignore[operator]
        return d, (d - Z95 * sd, d + Z95 * sd)

    def _gradient(self, k: int) -> list[float]:
        """d worth_k / d (a, w_1..w_K)."""
        assert self.scale is not None
        wm = sum(w * m for w, m in zip(self.logits, self.mean_counts))
        grad = [0.0] * (self.profiles + 1)
        for j in range(self.profiles):
            grad[j + 1] = -self.logits[k] * self.scale * self.mean_counts[j] / wm
        grad[k + 1] += self.scale
        return grad


def _quad(v: list[float], m: list[list[float]]) -> float:
    return sum(v[i] * m[i][j] * v[j] for i in range(len(v)) for j in range(len(v))
               if v[i] and v[j])


def _invert(m: list[list[float]]) -> list[list[float]]:
    """The inverse of a symmetric positive definite matrix (Gauss-Jordan with pivoting)."""
    n = len(m)
    a = [row[:] + [1.0 if i == j else 0.0 for j in range(n)] for i, row in enumerate(m)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(a[r][col]))
        if abs(a[pivot][col]) < 1e-300:
            raise ZeroDivisionError("singular")
        a[col], a[pivot] = a[pivot], a[col]
        head = a[col][col]
        a[col] = [v / head for v in a[col]]
        for r in range(n):
            if r != col and a[r][col] != 0.0:
                factor = a[r][col]
                top = a[col]
                a[r] = [x - factor * y for x, y in zip(a[r], top)]
    return [row[n:] for row in a]


def _sigmoid(x: float) -> float:
    if x >= 0:
        return 1.0 / (1.0 + math.exp(-x))
    e = math.exp(x)
    return e / (1.0 + e)


def fit(games: list[Game], profiles: int, costs: list[float | None]) -> Fit:
    """Fit the model to the games (profiles numbered 0..profiles-1)."""
    rows = []
    for g in games:
        diff: dict[int, float] = {}
        for k, n in g.first.items():
            diff[k + 1] = diff.get(k + 1, 0.0) + n
        for k, n in g.second.items():
            diff[k + 1] = diff.get(k + 1, 0.0) - n
        diff[0] = 1.0
        rows.append(([(k, v) for k, v in diff.items() if v], g.result))
    size = profiles + 1
    theta = [0.0] * size
    prior = 1.0 / (PRIOR_SD * PRIOR_SD)
    converged = False
    hessian: list[list[float]] = []
    for _ in range(MAX_ITERATIONS):
        grad = [0.0] + [-prior * t for t in theta[1:]]
        hessian = [[0.0] * size for _ in range(size)]
        for k in range(1, size):
            hessian[k][k] = prior
        for x, y in rows:
            eta = sum(theta[k] * v for k, v in x)
            p = _sigmoid(eta)
            weight = p * (1.0 - p)
            for k, v in x:
                grad[k] += (y - p) * v
                row = hessian[k]
                for j, u in x:
                    row[j] += weight * v * u
        hessian[0][0] += 1e-9   # (no game at all: still invertible)
        try:
            inverse = _invert(hessian)
        except ZeroDivisionError:
            break
        step = [sum(inverse[i][j] * grad[j] for j in range(size)) for i in range(size)]
        theta = [t + s for t, s in zip(theta, step)]
        if max(abs(s) for s in step) < 1e-10:
            converged = True
            break
    covariance = _invert(hessian) if hessian else [[0.0] * size for _ in range(size)]
    counts = [0.0] * profiles
    lists = 2 * len(games)
    for g in games:
        for side in (g.first, g.second):
            for k, n in side.items():
                counts[k] += n
    mean_counts = [c / lists if lists else 0.0 for c in counts]
    logits = theta[1:]
    found = Fit(profiles, len(games), theta[0], logits, covariance, mean_counts, list(costs),
                None, converged=converged)
    priced = [k for k in range(profiles) if costs[k] is not None]
    cm = sum(float(costs[k] or 0.0) * mean_counts[k] for k in priced)
    wm = sum(logits[k] * mean_counts[k] for k in priced)
    if priced and len(priced) == profiles and wm > 0 and cm > 0:
        found.scale = cm / wm
    for k in range(profiles):
        if found.scale is None:
            found.worth.append(None)
            found.interval.append(None)
            continue
        worth = logits[k] * found.scale
        sd = math.sqrt(max(0.0, _quad(found._gradient(k), covariance)))
        found.worth.append(worth)
        found.interval.append((worth - Z95 * sd, worth + Z95 * sd))
    return found


__all__ = ["Fit", "Game", "fit"]
