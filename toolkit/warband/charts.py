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
