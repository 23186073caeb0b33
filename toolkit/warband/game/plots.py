"""Charts of many games (`simulate --plot FILE.svg`, `--format html`): SVG written by hand.

No charting library: the charts are a few bars, lines and bands, which take less code to write
than to configure, import in no time (matplotlib takes most of a second: docs/performance.md)
and come out small and the same on every machine (no font metrics, no random ids, no dates),
so a golden file can hold them. Every text from a file (side, fighter and class names) is
escaped; numbers are rounded to a tenth of a pixel.

The figures come from the run's Summary and its kept games (Summary.results, in seed order),
GameDetails when the engine watched who acted first and who was lost.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from html import escape

from warband.diagnostics import printable
from warband.game.tally import GameDetails, Summary, wilson_interval

FONT = "DejaVu Sans, Verdana, Arial, sans-serif"   # named, never measured: same text everywhere
SIZE = 12              # font size; labels are cut to LABEL characters rather than measured
LABEL = 28
WIDTH = 520            # of one panel
# Okabe and Ito's colours, told apart with any colour vision, in the sides' order; draws grey
COLOURS = ("#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000",
           "#F0E442")
DRAW = "#888888"
FIGHTERS_SHOWN = 30    # fighters in the losses-by-fighter chart: the most often lost
LINE_POINTS = 200      # points of a running estimate: enough for the eye, few bytes
BINS = 20              # score bins when scores are not a few whole numbers


@dataclass(frozen=True)
class Panel:
    """One chart: `id` names it in a page (chart-ID), for a browser test to find it."""

    id: str
    title: str
    height: int
    body: str          # SVG elements, in a WIDTH x height box

    def svg(self) -> str:
        return (f'<svg xmlns="http://www.w3.org/2000/svg" id="chart-{self.id}" '
                f'width="{WIDTH}" height="{self.height}" viewBox="0 0 {WIDTH} {self.height}" '
                f'font-family="{FONT}" font-size="{SIZE}">'
                f'<title>{text(self.title)}</title>{self.body}</svg>')


def text(value: object, cut: int = LABEL) -> str:
    """A name or label for SVG or HTML: controls made visible, markup escaped, cut short."""
    shown = printable(str(value))
    if len(shown) > cut:
        shown = shown[:cut - 1] + "…"
    return escape(shown, quote=True)


def _f(x: float) -> str:
    return f"{x:.1f}".removesuffix(".0")


def _number(x: float, top: float) -> str:
    return f"{x:.2f}" if top < 10 else _f(x)


def _nice(x: float) -> float:
    """The least of 1, 2, 2.5, 4 or 5 times a power of ten that is at least x: an axis's end
    whose quarters are round numbers."""
    if x <= 0:
        return 1.0
    power = 10.0 ** math.floor(math.log10(x))
    return next(m * power for m in (1, 2, 2.5, 4, 5, 10) if m * power >= x * (1 - 1e-12))


def _pct(x: float) -> str:
    return f"{x * 100:.1f}%"


def colours(summary: Summary) -> dict[str, str]:
    return {side: COLOURS[i % len(COLOURS)] for i, side in enumerate(summary.sides)}


def _heading(title: str) -> str:
    return f'<text x="8" y="18" font-weight="bold">{text(title, 70)}</text>'


# ---- horizontal bars with intervals --------------------------------------------------------------

@dataclass(frozen=True)
class Bar:
    label: str
    value: float
    colour: str
    note: str = ""                              # shown after the bar (already formatted)
    interval: tuple[float, float] | None = None


def bars(id: str, title: str, rows: list[Bar], top: float | None = None,
         percent: bool = True) -> Panel:
    """One bar a row, on a shared scale from 0 to `top` (1 for rates), with its interval."""
    left, right, row = 170, WIDTH - 150, 22
    top = top or _nice(max([b.interval[1] if b.interval else b.value for b in rows]))
    scale = (right - left) / top
    parts = [_heading(title)]
    y = 34
    for tick in range(5):
        x = left + (right - left) * tick / 4
        value = top * tick / 4
        parts.append(f'<line x1="{_f(x)}" y1="{y - 4}" x2="{_f(x)}" '
                     f'y2="{y + row * len(rows)}" stroke="#dddddd"/>')
        parts.append(f'<text x="{_f(x)}" y="{y + row * len(rows) + 14}" text-anchor="middle" '
                     f'fill="#555555">{_pct(value) if percent else _number(value, top)}</text>')
    for bar in rows:
        width = max(0.0, bar.value) * scale
        parts.append(f'<text x="{left - 6}" y="{y + 14}" text-anchor="end">'
                     f'{text(bar.label)}</text>')
        parts.append(f'<rect x="{left}" y="{y + 3}" width="{_f(width)}" height="{row - 6}" '
                     f'fill="{bar.colour}"><title>{text(bar.label)}: {escape(bar.note)}</title>'
                     f'</rect>')
        if bar.interval is not None:
            low, high = (left + v * scale for v in bar.interval)
            mid = y + row / 2
            parts.append(f'<path d="M{_f(low)} {_f(mid)}H{_f(high)}M{_f(low)} {_f(mid - 5)}'
                         f'V{_f(mid + 5)}M{_f(high)} {_f(mid - 5)}V{_f(mid + 5)}" '
                         f'stroke="#222222" fill="none"/>')
        parts.append(f'<text x="{right + 8}" y="{y + 14}">{escape(bar.note)}</text>')
        y += row
    return Panel(id, title, y + 24, "".join(parts))


def win_rates(summary: Summary) -> Panel:
    """Each side's share of the games won, and the draws', with 95% (Wilson) intervals."""
    colour = colours(summary)
    rows = [Bar(side, summary.win_rate(side), colour[side],
                "{} ({}–{})".format(_pct(summary.win_rate(side)),
                                    *map(_pct, summary.win_interval(side))),
                summary.win_interval(side)) for side in summary.sides]
    games = max(summary.games, 1)
    draws = wilson_interval(summary.draws, summary.games)
    rows.append(Bar("draw", summary.draws / games, DRAW,
                    "{} ({}–{})".format(_pct(summary.draws / games), *map(_pct, draws)), draws))
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
    out: dict[tuple[str, str], int] = {}
    watched = 0
    for result in summary.results:
        if isinstance(result, GameDetails):
            watched += 1
            for loss in result.losses:
                key = (loss.side, loss.fighter)
                out[key] = out.get(key, 0) + 1
    if not out:
        return None
    # the most often lost first; ties in the sides' order, then by name: the same on every run
    order = {side: i for i, side in enumerate(summary.sides)}
    ranked = sorted(out.items(), key=lambda kv: (-kv[1], order.get(kv[0][0], 0), kv[0][1]))
    rows = [Bar(f"{side}: {name}", n / watched, colour.get(side, DRAW), _pct(n / watched),
                wilson_interval(n, watched)) for (side, name), n in ranked[:FIGHTERS_SHOWN]]
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
                                f"{_pct(won / len(played))} of {len(played)}",
                                wilson_interval(won, len(played))))
    first_won = sum(r.winner == r.first for r in games)
    return bars("first-player", f"Win rate by who acted first (first won "
                                f"{_pct(first_won / len(games))})", rows, top=1.0)


# ---- columns: distributions ----------------------------------------------------------------------

def columns(id: str, title: str, labels: list[str], series: list[tuple[str, str, list[float]]],
            axis: str) -> Panel:
    """Grouped columns: for each label (a bin), one column per series (name, colour, values:
    fractions of the games), with a legend when there are several series."""
    left, right, base, tall = 48, WIDTH - 10, 200, 160
    top = _nice(max(v for _, _, values in series for v in values))
    parts = [_heading(title)]
    for tick in range(5):
        y = base - tall * tick / 4
        parts.append(f'<line x1="{left}" y1="{_f(y)}" x2="{right}" y2="{_f(y)}" '
                     f'stroke="#dddddd"/><text x="{left - 4}" y="{_f(y + 4)}" '
                     f'text-anchor="end" fill="#555555">{_pct(top * tick / 4)}</text>')
    slot = (right - left) / max(len(labels), 1)
    width = slot * 0.8 / max(len(series), 1)
    # a label under every few columns when they would overlap (about 7 px a character)
    every = max(1, math.ceil((max(len(label) for label in labels) * 7 + 8) / slot))
    for i, label in enumerate(labels):
        x0 = left + slot * i + slot * 0.1
        for j, (name, colour, values) in enumerate(series):
            h = tall * values[i] / top
            parts.append(f'<rect x="{_f(x0 + width * j)}" y="{_f(base - h)}" '
                         f'width="{_f(width)}" height="{_f(h)}" fill="{colour}">'
                         f'<title>{text(name)} {escape(label)}: {_pct(values[i])}</title></rect>')
        if i % every == 0:
            parts.append(f'<text x="{_f(left + slot * (i + 0.5))}" y="{base + 14}" '
                         f'text-anchor="middle" fill="#555555">{escape(label)}</text>')
    parts.append(f'<text x="{_f((left + right) / 2)}" y="{base + 30}" '
                 f'text-anchor="middle">{escape(axis)}</text>')
    height = base + 40
    if len(series) > 1:
        height = _legend(parts, [(name, colour) for name, colour, _ in series], height + 12)
    return Panel(id, title, height, "".join(parts))


def _legend(parts: list[str], entries: list[tuple[str, str]], y: int) -> int:
    x = 48
    for name, colour in entries:
        if x > WIDTH - 160:
            x, y = 48, y + 18
        parts.append(f'<rect x="{x}" y="{y - 10}" width="12" height="12" fill="{colour}"/>'
                     f'<text x="{x + 16}" y="{y}">{text(name)}</text>')
        x += 170
    return y + 12


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
    return [_f(e) for e in edges], edges, width


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
    parts = [_heading(f"How the win rate settles over {n} games")]
    for tick in range(5):
        y = base - (base - top_y) * tick / 4
        parts.append(f'<line x1="{left}" y1="{_f(y)}" x2="{right}" y2="{_f(y)}" '
                     f'stroke="#dddddd"/><text x="{left - 4}" y="{_f(y + 4)}" '
                     f'text-anchor="end" fill="#555555">{tick * 25}%</text>')

    def at(k: int, rate: float) -> str:
        return f"{_f(left + (right - left) * (k - 1) / (n - 1))} " \
               f"{_f(base - (base - top_y) * rate)}"
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
    parts.append(f'<text x="{_f((left + right) / 2)}" y="{base + 28}" '
                 f'text-anchor="middle">games played</text>')
    height = _legend(parts, [(side, colour[side]) for side in summary.sides], base + 48)
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
    chosen = [p for p in panels(summary) if p.id in MAIN]
    rows = [chosen[i:i + 2] for i in range(0, len(chosen), 2)]
    y, parts = 36, []
    for row in rows:
        for column, panel in enumerate(row):
            parts.append(f'<g id="panel-{panel.id}" transform="translate('
                         f'{column * WIDTH} {y})">{panel.body}</g>')
        y += max(p.height for p in row)
    width = WIDTH * 2
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{y}" '
            f'viewBox="0 0 {width} {y}" font-family="{FONT}" font-size="{SIZE}">'
            f'<title>{escape(printable(title))}</title>'
            f'<rect width="{width}" height="{y}" fill="#ffffff"/>'
            f'<text x="8" y="22" font-size="15" font-weight="bold">'
            f'{escape(printable(title))}</text>{"".join(parts)}</svg>\n')
