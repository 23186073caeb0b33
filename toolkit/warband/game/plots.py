"""Charts of many games (`simulate --plot FILE.svg`, `--format html`), drawn with the SVG
panels of warband/charts.py (why by hand: there).

The figures come from the run's Summary and its kept games (Summary.results, in seed order),
GameDetails when the engine watched who acted first and who was lost.
"""

from __future__ import annotations

import math

from warband.charts import (
    COLOURS,
    DRAW,
    WIDTH,
    Bar,
    Panel,
    as_percent,
    bars,
    columns,
    coord,
    heading,
    legend,
    sheet,
    text,
)
from warband.game.svg import side_colour
from warband.game.tally import GameDetails, Summary, wilson_interval

FIGHTERS_SHOWN = 30    # fighters in the losses-by-fighter chart: the most often lost
LINE_POINTS = 200      # points of a running estimate: enough for the eye, few bytes
BINS = 20              # score bins when scores are not a few whole numbers


def colours(summary: Summary) -> dict[str, str]:
    """Each side's colour: the one its fighters have on a game's board and page (game/svg.py),
    so that a side looks the same on every page the toolkit draws."""
    return {side: side_colour(i) for i, side in enumerate(summary.sides)}


def win_rates(summary: Summary) -> Panel:
    """Each side's share of the games won, and the draws', with 95% (Wilson) intervals."""
    colour = colours(summary)
    rows = [Bar(side, summary.win_rate(side), colour[side],
                "{} ({}–{})".format(as_percent(summary.win_rate(side)),
                                    *map(as_percent, summary.win_interval(side))),
                summary.win_interval(side)) for side in summary.sides]
    games = max(summary.games, 1)
    draws = wilson_interval(summary.draws, summary.games)
    rows.append(Bar("draw", summary.draws / games, DRAW,
                    "{} ({}–{})".format(as_percent(summary.draws / games),
                                        *map(as_percent, draws)), draws))
    return bars("win-rates", f"Win rates with 95% intervals ({summary.games} games)", rows,
                top=1.0)


def losses_by_class(summary: Summary) -> Panel | None:
    """Fighters each side lost a game, on average, by class (as the text report counts)."""
    colour = colours(summary)
    rows = [Bar(f"{side}: {kind}", n, colour[side], f"{n:.2f}")
            for side in summary.sides for kind, n in summary.lost_per_game(side).items()]
    if not rows:
        return None
    return bars("losses-by-class", "Removed per game, by class", rows, percent=False)


def losses_by_fighter(summary: Summary) -> Panel | None:
    """How often each named fighter was out of play at the end (engines that name them)."""
    colour = colours(summary)
    # counted by fighter (its place in the game), not by name: fighters may share a name
    # (W701), and two "Goblin"s counted as one were lost more than once a game
    out: dict[tuple[str, int], int] = {}
    names: dict[tuple[str, int], str] = {}
    watched = 0
    for result in summary.results:
        if isinstance(result, GameDetails):
            watched += 1
            for loss in result.losses:
                key = (loss.side, loss.number)
                out[key] = out.get(key, 0) + 1
                names[key] = loss.fighter
    if not out:
        return None
    # a name two fighters of a side share is told apart by its place among them: "Goblin (2)"
    shared: dict[tuple[str, str], list[int]] = {}
    for (side, number), name in sorted(names.items()):
        shared.setdefault((side, name), []).append(number)

    def label(side: str, number: int) -> str:
        name = names[(side, number)]
        same = shared[(side, name)]
        return name if len(same) == 1 else f"{name} ({same.index(number) + 1})"
    # the most often lost first; ties in the sides' order, then by name: the same on every run
    order = {side: i for i, side in enumerate(summary.sides)}
    ranked = sorted(out.items(), key=lambda kv: (-kv[1], order.get(kv[0][0], 0),
                                                 names[kv[0]], kv[0][1]))
    rows = [Bar(f"{side}: {label(side, number)}", n / watched, colour.get(side, DRAW),
                as_percent(n / watched), wilson_interval(n, watched))
            for (side, number), n in ranked[:FIGHTERS_SHOWN]]
    more = f", the {FIGHTERS_SHOWN} most often" if len(ranked) > FIGHTERS_SHOWN else ""
    return bars("losses-by-fighter", f"Out of play at the end, by fighter{more}", rows,
                top=1.0)


def first_player(summary: Summary) -> Panel | None:
    """Each side's win rate when it acted first and when it did not: the first player's
    advantage, where the engine watched for it (and the games had one)."""
    games = [r for r in summary.results if isinstance(r, GameDetails) and r.first is not None]
    if not games:
        return None
    colour = colours(summary)
    rows = []
    for side in summary.sides:
        for went, label in ((True, "first"), (False, "not first")):
            played = [r for r in games if (r.first == side) == went]
            if played:
                won = sum(r.winner == side for r in played)
                rows.append(Bar(f"{side} {label}", won / len(played), colour[side],
                                f"{as_percent(won / len(played))} of {len(played)}",
                                wilson_interval(won, len(played))))
    first_won = sum(r.winner == r.first for r in games)
    return bars("first-player", f"Win rate by who acted first (first won "
                                f"{as_percent(first_won / len(games))})", rows, top=1.0)


def _bins(values: list[float]) -> tuple[list[str], list[float], float]:
    """The bins of a distribution: whole numbers (a score, a number of rounds) in steps of
    their greatest common step (5 for scores in fives), widened to at most BINS * 2 bins;
    other values in BINS equal bins. (labels, lower edges, width)"""
    low, high = min(values), max(values)
    if all(v == int(v) for v in values):
        step = 0
        for v in values:
            step = math.gcd(step, int(v - low))
        common = max(step, 1)
        step = common * -(-(int(high - low) // common + 1) // (BINS * 2))   # <= BINS * 2 bins
        edges = [float(v) for v in range(int(low), int(high) + 1, step)]
        labels = [str(int(e)) if step == common else f"{int(e)}–{int(e) + step - 1}"
                  for e in edges]
        return labels, edges, float(step)
    width = (high - low) / BINS or 1.0
    edges = [low + width * i for i in range(BINS)]
    return [coord(e) for e in edges], edges, width


def _shares(values: list[float], edges: list[float], step: float) -> list[float]:
    counts = [0] * len(edges)
    for v in values:
        counts[min(len(edges) - 1, max(0, int((v - edges[0]) / step)))] += 1
    return [c / max(len(values), 1) for c in counts]


def scores(summary: Summary) -> Panel | None:
    """How each side's final score was spread over the games."""
    if not summary.results:
        return None
    colour = colours(summary)
    by_side = {side: [r.scores.get(side, 0.0) for r in summary.results]
               for side in summary.sides}
    labels, edges, step = _bins([v for values in by_side.values() for v in values])
    return columns("scores", "Score distributions", labels,
                   [(side, colour[side], _shares(values, edges, step))
                    for side, values in by_side.items()], "final score")


def rounds(summary: Summary) -> Panel | None:
    """How long the games lasted, in rounds."""
    if not summary.results:
        return None
    values = [float(r.rounds) for r in summary.results]
    labels, edges, step = _bins(values)
    return columns("rounds", f"Game length (average {summary.mean_rounds():.2f} rounds)",
                   labels, [("games", COLOURS[0], _shares(values, edges, step))], "rounds played")


# ---- lines: the running estimate -----------------------------------------------------------------

def settling(summary: Summary) -> Panel | None:
    """Each side's win rate after the first k games, with its 95% band, as k grows: where the
    lines stop moving, more games would not change the answer much."""
    n = len(summary.results)
    if n < 2:
        return None
    left, right, top_y, base = 48, WIDTH - 10, 30, 210
    points = sorted({round(1 + (n - 1) * i / (LINE_POINTS - 1)) for i in range(LINE_POINTS)})
    colour = colours(summary)
    parts = [heading(f"How the win rate settles over {n} games")]
    for tick in range(5):
        y = base - (base - top_y) * tick / 4
        parts.append(f'<line x1="{left}" y1="{coord(y)}" x2="{right}" y2="{coord(y)}" '
                     f'stroke="#dddddd"/><text x="{left - 4}" y="{coord(y + 4)}" '
                     f'text-anchor="end" fill="#555555">{tick * 25}%</text>')

    def at(k: int, rate: float) -> str:
        return f"{coord(left + (right - left) * (k - 1) / (n - 1))} " \
               f"{coord(base - (base - top_y) * rate)}"
    for side in summary.sides:
        won, so_far = 0, []
        for result in summary.results:
            won += result.winner == side
            so_far.append(won)
        line = [at(k, so_far[k - 1] / k) for k in points]
        bands = [wilson_interval(so_far[k - 1], k) for k in points]
        band = [at(k, hi) for k, (_, hi) in zip(points, bands)] + \
               [at(k, lo) for k, (lo, _) in reversed(list(zip(points, bands)))]
        parts.append(f'<path d="M{"L".join(band)}Z" fill="{colour[side]}" fill-opacity="0.18" '
                     f'stroke="none"/>')
        parts.append(f'<path d="M{"L".join(line)}" fill="none" stroke="{colour[side]}" '
                     f'stroke-width="1.5"><title>{text(side)}</title></path>')
    for x, label, anchor in ((left, "1", "start"), (right, str(n), "end")):
        parts.append(f'<text x="{x}" y="{base + 14}" text-anchor="{anchor}" '
                     f'fill="#555555">{label}</text>')
    parts.append(f'<text x="{coord((left + right) / 2)}" y="{base + 28}" '
                 f'text-anchor="middle">games played</text>')
    height = legend(parts, [(side, colour[side]) for side in summary.sides], base + 48)
    return Panel("settling", "How the win rate settles", height, "".join(parts))


# ---- all of them ---------------------------------------------------------------------------------

def panels(summary: Summary) -> list[Panel]:
    """Every chart the run's data allows, in the order a page shows them."""
    made = [win_rates(summary), settling(summary), scores(summary), rounds(summary),
            first_player(summary), losses_by_class(summary), losses_by_fighter(summary)]
    return [p for p in made if p is not None]


MAIN = ("win-rates", "settling", "scores", "rounds", "first-player", "losses-by-class")


def figure(summary: Summary, title: str) -> str:
    """One SVG with the main panels, two a row (`simulate --plot`)."""
    return sheet([p for p in panels(summary) if p.id in MAIN], title)
