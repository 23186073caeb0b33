"""Charts as SVG written by hand: panels of bars with intervals and of columns, and a sheet of
panels, for `simulate` (game/plots.py) and `odds` alike.

No charting library: the charts are a few bars, lines and bands, which take less code to write
than to configure, import in no time (matplotlib takes most of a second: docs/performance.md)
and come out small and the same on every machine (no font metrics, no random ids, no dates),
so a golden file can hold them. Every text from a file is escaped (`text`); numbers are rounded
to a tenth of a pixel.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from html import escape

from warband.diagnostics import printable

FONT = "DejaVu Sans, Verdana, Arial, sans-serif"   # named, never measured: same text everywhere
SIZE = 12              # font size; labels are cut to LABEL characters rather than measured
LABEL = 28
WIDTH = 520            # of one panel
# Okabe and Ito's colours, told apart with any colour vision, in the sides' order; draws grey
COLOURS = ("#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000",
           "#F0E442")
DRAW = "#888888"

# the style of an HTML page of charts and tables (simulate's report, odds' page): inline, so the
# page works offline; each page adds its own few rules
PAGE_STYLE = f"""
body {{ font-family: {FONT}; margin: 1.5em; color: #222; }}
h1 {{ font-size: 1.4em; }} h2 {{ font-size: 1.1em; margin-top: 1.5em; }}
table {{ border-collapse: collapse; }} td, th {{ padding: 0.2em 0.8em; text-align: right; }}
th:first-child, td:first-child {{ text-align: left; }}
thead th {{ border-bottom: 1px solid #999; }}
.charts {{ display: flex; flex-wrap: wrap; gap: 1em; }}
figure {{ margin: 0; border: 1px solid #ddd; padding: 0.3em; }}
"""


@dataclass(frozen=True)
class Panel:
    """One chart: `id` names it in a page (chart-ID), for a browser test to find it."""

    id: str
    title: str
    height: int
    body: str          # SVG elements, in a `width` x height box
    width: int = WIDTH   # wider than a panel only for a heatmap of many rows

    def svg(self) -> str:
        return (f'<svg xmlns="http://www.w3.org/2000/svg" id="chart-{self.id}" '
                f'width="{self.width}" height="{self.height}" '
                f'viewBox="0 0 {self.width} {self.height}" '
                f'font-family="{FONT}" font-size="{SIZE}">'
                f'<title>{text(self.title)}</title>{self.body}</svg>')


def text(value: object, cut: int = LABEL) -> str:
    """A name or label for SVG or HTML: controls made visible, markup escaped, cut short."""
    shown = printable(str(value))
    if len(shown) > cut:
        shown = shown[:cut - 1] + "…"
    return escape(shown, quote=True)


def coord(x: float) -> str:
    return f"{x:.1f}".removesuffix(".0")


def tick_label(x: float, top: float) -> str:
    return f"{x:.2f}" if top < 10 else coord(x)


def nice_top(x: float) -> float:
    """The least of 1, 2, 2.5, 4 or 5 times a power of ten that is at least x: an axis's end
    whose quarters are round numbers."""
    if x <= 0:
        return 1.0
    power = 10.0 ** math.floor(math.log10(x))
    return next(m * power for m in (1, 2, 2.5, 4, 5, 10) if m * power >= x * (1 - 1e-12))


def as_percent(x: float) -> str:
    return f"{x * 100:.1f}%"


def heading(title: str) -> str:
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
    top = top or nice_top(max([b.interval[1] if b.interval else b.value for b in rows]))
    scale = (right - left) / top
    parts = [heading(title)]
    y = 34
    for tick in range(5):
        x = left + (right - left) * tick / 4
        value = top * tick / 4
        parts.append(f'<line x1="{coord(x)}" y1="{y - 4}" x2="{coord(x)}" '
                     f'y2="{y + row * len(rows)}" stroke="#dddddd"/>')
        parts.append(f'<text x="{coord(x)}" y="{y + row * len(rows) + 14}" text-anchor="middle" '
                     f'fill="#555555">'
                     f'{as_percent(value) if percent else tick_label(value, top)}</text>')
    for bar in rows:
        width = max(0.0, bar.value) * scale
        parts.append(f'<text x="{left - 6}" y="{y + 14}" text-anchor="end">'
                     f'{text(bar.label)}</text>')
        parts.append(f'<rect x="{left}" y="{y + 3}" width="{coord(width)}" height="{row - 6}" '
                     f'fill="{bar.colour}"><title>{text(bar.label)}: {escape(bar.note)}</title>'
                     f'</rect>')
        if bar.interval is not None:
            low, high = (left + v * scale for v in bar.interval)
            mid = y + row / 2
            parts.append(f'<path d="M{coord(low)} {coord(mid)}H{coord(high)}'
                         f'M{coord(low)} {coord(mid - 5)}'
                         f'V{coord(mid + 5)}M{coord(high)} {coord(mid - 5)}V{coord(mid + 5)}" '
                         f'stroke="#222222" fill="none"/>')
        parts.append(f'<text x="{right + 8}" y="{y + 14}">{escape(bar.note)}</text>')
        y += row
    return Panel(id, title, y + 24, "".join(parts))


# ---- columns: distributions ----------------------------------------------------------------------

def columns(id: str, title: str, labels: list[str], series: list[tuple[str, str, list[float]]],
            axis: str) -> Panel:
    """Grouped columns: for each label (a bin), one column per series (name, colour, values:
    fractions of the games), with a legend when there are several series."""
    left, right, base, tall = 48, WIDTH - 10, 200, 160
    top = nice_top(max(v for _, _, values in series for v in values))
    parts = [heading(title)]
    for tick in range(5):
        y = base - tall * tick / 4
        parts.append(f'<line x1="{left}" y1="{coord(y)}" x2="{right}" y2="{coord(y)}" '
                     f'stroke="#dddddd"/><text x="{left - 4}" y="{coord(y + 4)}" '
                     f'text-anchor="end" fill="#555555">{as_percent(top * tick / 4)}</text>')
    slot = (right - left) / max(len(labels), 1)
    width = slot * 0.8 / max(len(series), 1)
    # a label under every few columns when they would overlap (about 7 px a character)
    every = max(1, math.ceil((max(len(label) for label in labels) * 7 + 8) / slot))
    for i, label in enumerate(labels):
        x0 = left + slot * i + slot * 0.1
        for j, (name, colour, values) in enumerate(series):
            h = tall * values[i] / top
            parts.append(f'<rect x="{coord(x0 + width * j)}" y="{coord(base - h)}" '
                         f'width="{coord(width)}" height="{coord(h)}" fill="{colour}">'
                         f'<title>{text(name)} {escape(label)}: {as_percent(values[i])}'
                         f'</title></rect>')
        if i % every == 0:
            parts.append(f'<text x="{coord(left + slot * (i + 0.5))}" y="{base + 14}" '
                         f'text-anchor="middle" fill="#555555">{escape(label)}</text>')
    parts.append(f'<text x="{coord((left + right) / 2)}" y="{base + 30}" '
                 f'text-anchor="middle">{escape(axis)}</text>')
    height = base + 40
    if len(series) > 1:
        height = legend(parts, [(name, colour) for name, colour, _ in series], height + 12)
    return Panel(id, title, height, "".join(parts))


def legend(parts: list[str], entries: list[tuple[str, str]], y: int) -> int:
    x = 48
    for name, colour in entries:
        if x > WIDTH - 160:
            x, y = 48, y + 18
        parts.append(f'<rect x="{x}" y="{y - 10}" width="12" height="12" fill="{colour}"/>'
                     f'<text x="{x + 16}" y="{y}">{text(name)}</text>')
        x += 170
    return y + 12


def sheet(panels: list[Panel], title: str, per_row: int = 2,
          notes: list[str] | None = None) -> str:
    """One SVG with the panels, `per_row` a row, under a title and its `notes`, a line each
    (what an odds chart weighed: its fighters, parameters and policy)."""
    rows = [panels[i:i + per_row] for i in range(0, len(panels), per_row)]
    said = [f'<text x="8" y="{40 + 16 * i}" fill="#555555">{escape(printable(note))}</text>'
            for i, note in enumerate(notes or [])]
    y, parts = 36 + 16 * len(said), list(said)
    for row in rows:
        for column, panel in enumerate(row):
            parts.append(f'<g id="panel-{panel.id}" transform="translate('
                         f'{column * WIDTH} {y})">{panel.body}</g>')
        y += max(p.height for p in row)
    width = WIDTH * min(per_row, max(len(panels), 1))
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{y}" '
            f'viewBox="0 0 {width} {y}" font-family="{FONT}" font-size="{SIZE}">'
            f'<title>{escape(printable(title))}</title>'
            f'<rect width="{width}" height="{y}" fill="#ffffff"/>'
            f'<text x="8" y="22" font-size="15" font-weight="bold">'
            f'{escape(printable(title))}</text>{"".join(parts)}</svg>\n')


# ---- lines: how chances move with a value --------------------------------------------------------

def lines(id: str, title: str, xs: list[int], series: list[tuple[str, str, list[float]]],
          axis: str) -> Panel:
    """One line per series (name, colour, values in 0..1, one per x) over the whole numbers
    `xs`, on a 0..100% scale, with a dot at each point (a sweep of one value is a dot) and a
    legend."""
    left, right, top_y, base = 48, WIDTH - 10, 30, 210
    parts = [heading(title)]
    for tick in range(5):
        y = base - (base - top_y) * tick / 4
        parts.append(f'<line x1="{left}" y1="{coord(y)}" x2="{right}" y2="{coord(y)}" '
                     f'stroke="#dddddd"/><text x="{left - 4}" y="{coord(y + 4)}" '
                     f'text-anchor="end" fill="#555555">{tick * 25}%</text>')
    low, high = min(xs), max(xs)

    def x_at(x: int) -> float:   # a single value sits in the middle
        return (left + right) / 2 if high == low else left + (right - left) * (x - low) / (
            high - low)

    def at(x: int, rate: float) -> str:
        return f"{coord(x_at(x))} {coord(base - (base - top_y) * rate)}"
    for name, colour, values in series:
        points = [at(x, v) for x, v in zip(xs, values)]
        parts.append(f'<path d="M{"L".join(points)}" fill="none" stroke="{colour}" '
                     f'stroke-width="1.5"><title>{text(name)}</title></path>')
        for x, v in zip(xs, values):
            parts.append(f'<circle cx="{coord(x_at(x))}" '
                         f'cy="{coord(base - (base - top_y) * v)}" r="2.5" fill="{colour}">'
                         f'<title>{text(name)} at {x}: {as_percent(v)}</title></circle>')
    # a label under every few values when they would overlap (about 7 px a character)
    slot = (right - left) / max(len(xs) - 1, 1)
    every = max(1, math.ceil((max(len(str(x)) for x in xs) * 7 + 8) / slot))
    for i, x in enumerate(xs):
        if i % every == 0 or i == len(xs) - 1 and len(xs) > 1 and (i % every) * slot > 30:
            parts.append(f'<text x="{coord(x_at(x))}" y="{base + 14}" text-anchor="middle" '
                         f'fill="#555555">{x}</text>')
    parts.append(f'<text x="{coord((left + right) / 2)}" y="{base + 28}" '
                 f'text-anchor="middle">{text(axis, 70)}</text>')
    height = legend(parts, [(name, colour) for name, colour, _ in series], base + 48)
    return Panel(id, title, height, "".join(parts))


# ---- a matrix of chances: a heatmap -----------------------------------------------------------

def shade(value: float) -> str:
    """A chance's colour: blue below one half, orange above, white at one half (the two ends
    of COLOURS, told apart with any colour vision)."""
    value = min(1.0, max(0.0, value))
    ends = ((0x00, 0x72, 0xB2), (0xD5, 0x5E, 0x00))
    end = ends[1] if value >= 0.5 else ends[0]
    t = abs(value - 0.5) * 2
    mixed = [round(255 + (c - 255) * t) for c in end]
    return "#" + "".join(f"{c:02X}" for c in mixed)


def heatmap(id: str, title: str, rows: list[str], cells: list[list[float | None]],
            note: str = "") -> Panel:
    """A square of cells, one a row and column (rows[i] against rows[j]), each coloured by its
    chance and written in percent; None is a grey cell ("not solved")."""
    n = len(rows)
    left, top = 180, 40
    size = max(24, min(44, (WIDTH - left - 10) // max(n, 1)))   # "100" fits at 9 px
    width = max(WIDTH, left + size * n + 10)
    parts = [heading(title)]
    for j in range(n):
        x = left + size * j + size / 2
        parts.append(f'<text x="{coord(x)}" y="{top - 6}" text-anchor="middle" '
                     f'fill="#555555">{j + 1}</text>')
    small = size < 36
    for i, label in enumerate(rows):
        y = top + size * i
        parts.append(f'<text x="{left - 6}" y="{coord(y + size / 2 + 4)}" text-anchor="end">'
                     f'{i + 1} {text(label, 24)}</text>')
        for j, value in enumerate(cells[i]):
            x = left + size * j
            fill = "#cccccc" if value is None else shade(value)
            shown = "—" if value is None else f"{value * 100:.0f}"
            tip = f"{text(label)} against {text(rows[j])}: " + \
                ("not solved" if value is None else as_percent(value))
            parts.append(f'<rect x="{coord(x)}" y="{coord(y)}" width="{size}" height="{size}" '
                         f'fill="{fill}" stroke="#ffffff"><title>{tip}</title></rect>')
            parts.append(f'<text x="{coord(x + size / 2)}" y="{coord(y + size / 2 + 4)}" '
                         f'text-anchor="middle" font-size="{9 if small else SIZE}">'
                         f'{shown}</text>')
    y = top + size * n + 18
    if note:
        parts.append(f'<text x="8" y="{y}" fill="#555555">{escape(note)}</text>')
        y += 12
    return Panel(id, title, y + 8, "".join(parts), width)


# ---- what something costs, and what it is worth ------------------------------------------------

@dataclass(frozen=True)
class Worth:
    label: str
    cost: float | None                 # the current cost
    worth: float | None                # what it is found to be worth
    interval: tuple[float, float] | None = None


def worths(id: str, title: str, rows: list[Worth], axis: str = "points",
           marks: tuple[str, str] = ("current cost", "worth")) -> Panel:
    """One row each: the current cost as a black bar, the worth found as a dot with its
    interval; both on one scale from the least to the greatest of them. `marks` names the
    two in the legend."""
    left, right, row = 170, WIDTH - 20, 22
    values = [v for r in rows for v in (r.cost, r.worth, *(r.interval or ())) if v is not None]
    least = min([0.0] + values)
    low = -nice_top(-least) if least < 0 else 0.0
    high = nice_top(max(values + [1.0]))
    scale = (right - left) / (high - low) if high > low else 1.0

    def at(v: float) -> float:
        return left + (v - low) * scale
    parts = [heading(title)]
    y = 34
    for tick in range(5):
        value = low + (high - low) * tick / 4
        x = at(value)
        parts.append(f'<line x1="{coord(x)}" y1="{y - 4}" x2="{coord(x)}" '
                     f'y2="{y + row * len(rows)}" stroke="#dddddd"/>')
        parts.append(f'<text x="{coord(x)}" y="{y + row * len(rows) + 14}" '
                     f'text-anchor="middle" fill="#555555">{coord(value)}</text>')
    for r in rows:
        mid = y + row / 2
        parts.append(f'<text x="{left - 6}" y="{y + 14}" text-anchor="end">'
                     f'{text(r.label, 22)}</text>')
        if r.interval is not None:
            a, b = (at(v) for v in r.interval)
            parts.append(f'<path d="M{coord(a)} {coord(mid)}H{coord(b)}" stroke="{COLOURS[1]}" '
                         f'stroke-width="2" fill="none"/>')
        if r.cost is not None:
            x = at(r.cost)
            parts.append(f'<path d="M{coord(x)} {coord(mid - 7)}V{coord(mid + 7)}" '
                         f'stroke="#000000" stroke-width="3"><title>{text(r.label)}: '
                         f'{escape(marks[0])} {coord(r.cost)}</title></path>')
        if r.worth is not None:
            shown = f"{text(r.label)}: {escape(marks[1])} {r.worth:.1f}"
            if r.interval is not None:
                shown += f" ({r.interval[0]:.1f} to {r.interval[1]:.1f})"
            parts.append(f'<circle cx="{coord(at(r.worth))}" cy="{coord(mid)}" r="4.5" '
                         f'fill="{COLOURS[1]}"><title>{shown}</title></circle>')
        y += row
    y += 24
    parts.append(f'<path d="M48 {y - 4}V{y + 8}" stroke="#000000" stroke-width="3"/>'
                 f'<text x="56" y="{y + 6}">{escape(marks[0])}</text>'
                 f'<circle cx="180" cy="{y + 2}" r="4.5" fill="{COLOURS[1]}"/>'
                 f'<text x="190" y="{y + 6}">{escape(marks[1])}, with its 95% interval '
                 f'({escape(axis)})</text>')
    return Panel(id, title, y + 18, "".join(parts))
