"""The board as SVG text: one state of a game's view (game/viewer.py), deterministic, escaped.

The same drawing is the still of `warband play --svg ROUND` and the board of the game page,
whose script moves the fighters' bases from state to state (it finds them by their ids: f0,
f1, ... and p0, p1, ... for pieces). Every name comes from a file (a warband, the rules, a
record): each is escaped here, and reaches the picture only as text.

Coordinates: a board in inches has (0, 0) at its south-west corner and a fighter is a base one
inch across; a board of squares has cell (1, 1) at its south-west corner. SVG's y grows down,
so a point (x, y) is drawn at (MARGIN + x * scale, MARGIN + (height - y) * scale), a square's
centre half a square in from its cell's corner (`to_svg`).
"""

from __future__ import annotations

from html import escape

from warband.diagnostics import printable

INCH = 24          # pixels to an inch
SQUARE = 56        # pixels to a square
MARGIN = 12        # round the table, for bases at its edge
BADGES_SHOWN = 4      # flags and counters written over a base
SHORT_NAME = 10    # characters of a name written on a base; the tooltip holds the whole name
SIDE_COLOURS = ("#c0392b", "#1f6fb2", "#1e8449", "#b9770e", "#7d3c98", "#138d75", "#5d6d7e",
                "#d35400")
PIECE_COLOURS = ("#8d6e63", "#607d8b", "#9e9d24", "#00838f", "#6d4c41", "#ad1457", "#455a64",
                 "#827717")


def side_colour(index: int) -> str:
    return SIDE_COLOURS[index % len(SIDE_COLOURS)]


def esc(value) -> str:
    """Text from a file, as SVG (and HTML) text or an attribute's value: control characters
    (which XML forbids, even as references, and which would drive a terminal the page is
    printed on) and bidi controls shown as their escapes (diagnostics.printable), and the two
    other characters XML forbids as U+FFFD."""
    return escape(printable(str(value)), quote=True).translate(_NOT_XML)


_NOT_XML = {0xFFFE: "\ufffd", 0xFFFF: "\ufffd"}


def num(x: float) -> str:
    """A coordinate: at most two decimals, no trailing zeros (the same text every run)."""
    text = f"{float(x):.2f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def badges_text(badges: list[str]) -> str:
    """The badges written over a base: the first few (its tooltip names them all)."""
    return " ".join(badges[:BADGES_SHOWN]) + (" \u2026" if len(badges) > BADGES_SHOWN else "")


def short(name: str, most: int = SHORT_NAME) -> str:
    return name if len(name) <= most else name[:most - 1] + "\u2026"


class Geometry:
    """Where a point of the board is drawn."""

    def __init__(self, board: dict) -> None:
        self.squares = board["squares"]
        self.width, self.height = float(board["width"]), float(board["height"])
        self.scale = SQUARE if self.squares else INCH
        self.base = self.scale * (0.4 if self.squares else 0.5)

    def to_svg(self, p) -> tuple[float, float]:
        x, y = float(p[0]), float(p[1])
        if self.squares:   # the centre of cell (x, y)
            x, y = x - 0.5, y - 0.5
        return MARGIN + x * self.scale, MARGIN + (self.height - y) * self.scale

    @property
    def size(self) -> tuple[float, float]:
        return self.width * self.scale + 2 * MARGIN, self.height * self.scale + 2 * MARGIN


def board_svg(data: dict, state_index: int, *, caption: str | None = None) -> str:
    """The board in one state of the view, as a standalone SVG document's text."""
    g = Geometry(data["board"])
    width, height = g.size
    state = data["states"][state_index]
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" class="board" width="{num(width)}" '
           f'height="{num(height)}" viewBox="0 0 {num(width)} {num(height)}" '
           f'data-scale="{g.scale}" data-margin="{MARGIN}" data-height="{num(g.height)}" '
           f'data-squares="{"1" if g.squares else "0"}" font-family="sans-serif">',
           f"<title>{esc(caption or data['title'])}</title>",
           "<style>.board .removed{opacity:.3}.board .withdrawn,.board .offboard{display:none}"
           ".board .name{font-size:9px;text-anchor:middle;fill:#222}"
           ".board .acting circle{stroke:#f1c40f;stroke-width:4}"
           ".board .kind{font-size:7px;text-anchor:middle;fill:#333;opacity:.8}"
           ".board .badge{font-size:8px;font-weight:bold;text-anchor:middle;fill:#7b1010;"
           "paint-order:stroke;stroke:#fff;stroke-width:2px}</style>"]
    out.append(f'<rect class="table" x="{MARGIN}" y="{MARGIN}" '
               f'width="{num(g.width * g.scale)}" height="{num(g.height * g.scale)}" '
               'fill="#f4efe1" stroke="#555"/>')
    out += _grid(g)
    out += _zones(data, g)
    out += _pieces(state, g)
    out += _fighters(data, state, g)
    out.append("</svg>")
    return "\n".join(out) + "\n"


def _grid(g: Geometry) -> list[str]:
    if not g.squares:   # an inch board: a faint line every 6"
        step, stroke = 6, "#e2dccb"
    else:
        step, stroke = 1, "#d8d0bb"
    lines = []
    x = step
    while x < g.width:
        sx = MARGIN + x * g.scale
        lines.append(f'<line x1="{num(sx)}" y1="{MARGIN}" x2="{num(sx)}" '
                     f'y2="{num(MARGIN + g.height * g.scale)}"/>')
        x += step
    y = step
    while y < g.height:
        sy = MARGIN + y * g.scale
        lines.append(f'<line x1="{MARGIN}" y1="{num(sy)}" x2="{num(MARGIN + g.width * g.scale)}" '
                     f'y2="{num(sy)}"/>')
        y += step
    return [f'<g class="grid" stroke="{stroke}" stroke-width="1">', *lines, "</g>"]


def _zones(data: dict, g: Geometry) -> list[str]:
    """The deployment zones: shaded, each named in its tooltip and on the board."""
    out = ['<g class="zones" fill="#6d8f4e" fill-opacity="0.12" stroke="#6d8f4e" '
           'stroke-dasharray="4 3">']
    for zone in data["board"]["zones"]:
        shapes = _zone_shapes(zone, g)
        if not shapes:
            continue
        out.append(f'<g class="zone"><title>{esc(zone["name"])}</title>{"".join(shapes)}</g>')
    out.append("</g>")
    return out


def _zone_shapes(zone: dict, g: Geometry) -> list[str]:
    s, w, h = g.scale, g.width, g.height
    low = 1 if g.squares else 0   # (a squares board's cells are 1..width)

    def rect(x1, y1, x2, y2):   # board coordinates of two corners (cells' edges for squares)
        ax, ay = MARGIN + min(x1, x2) * s, MARGIN + (h - max(y1, y2)) * s
        return (f'<rect x="{num(ax)}" y="{num(ay)}" width="{num(abs(x2 - x1) * s)}" '
                f'height="{num(abs(y2 - y1) * s)}"/>')
    size = float(zone["size"] or 0)
    if zone["shape"] == "area" and len(zone["corners"]) == 2:
        (x1, y1), (x2, y2) = zone["corners"]
        if g.squares:   # the cells from one corner to the other, both included
            return [rect(min(x1, x2) - 1, min(y1, y2) - 1, max(x1, x2), max(y1, y2))]
        return [rect(x1, y1, x2, y2)]
    if zone["shape"] == "edge":
        shapes = []
        for edge in zone["where"]:
            if edge == "south":
                shapes.append(rect(0, 0, w, size))
            elif edge == "north":
                shapes.append(rect(0, h - size, w, h))
            elif edge == "west":
                shapes.append(rect(0, 0, size, h))
            elif edge == "east":
                shapes.append(rect(w - size, 0, w, h))
        return shapes
    if zone["shape"] == "corner":
        shapes = []
        origin = low - 0.5 if g.squares else 0   # (a cell's centre: half a square in)
        corners = {"southwest": (origin, origin, 1, 1), "southeast": (w - origin, origin, -1, 1),
                   "northwest": (origin, h - origin, 1, -1),
                   "northeast": (w - origin, h - origin, -1, -1)}
        for where in zone["where"]:
            if where not in corners:
                continue
            cx, cy, dx, dy = corners[where]
            x0, y0 = MARGIN + cx * s, MARGIN + (h - cy) * s
            r = size * s
            sweep = 1 if dx * dy > 0 else 0
            shapes.append(f'<path d="M{num(x0)} {num(y0)} L{num(x0 + dx * r)} {num(y0)} '
                          f'A{num(r)} {num(r)} 0 0 {sweep} {num(x0)} {num(y0 - dy * r)} Z"/>')
        return shapes
    return []   # everywhere: the whole board, nothing to mark


def piece_colour(kind: str, kinds: list[str]) -> str:
    return PIECE_COLOURS[kinds.index(kind) % len(PIECE_COLOURS)]


def _pieces(state: dict, g: Geometry) -> list[str]:
    return ['<g class="pieces">', *pieces_svg(state, g), "</g>"]


def pieces_svg(state: dict, g: Geometry) -> list[str]:
    """The pieces on the board: a wall a thick line, a piece in inches a disc of its size, on
    squares its square; each named in its tooltip."""
    kinds: list[str] = []
    out = []
    for i, (kind, at, to, radius, *outline) in enumerate(state["pieces"]):
        if kind not in kinds:
            kinds.append(kind)
        colour = piece_colour(kind, kinds)
        if at is None:
            continue
        x, y = g.to_svg(at)
        where = f"({num(at[0])}, {num(at[1])})"
        if to is not None:
            x2, y2 = g.to_svg(to)
            shape = (f'<line x1="{num(x)}" y1="{num(y)}" x2="{num(x2)}" y2="{num(y2)}" '
                     f'stroke="{colour}" stroke-width="5" stroke-linecap="round"/>')
            where = f"from {where} to ({num(to[0])}, {num(to[1])})"
        elif outline:   # terrain with extent: a polygon, its corners
            corners = " ".join(f"{num(cx)},{num(cy)}" for cx, cy in map(g.to_svg, outline[0]))
            shape = (f'<polygon points="{corners}" fill="{colour}" fill-opacity="0.3" '
                     f'stroke="{colour}"/>')
            where = "as an area " + ", ".join(f"({num(c[0])}, {num(c[1])})" for c in outline[0])
        elif g.squares:
            half = g.scale / 2 - 2
            shape = (f'<rect x="{num(x - half)}" y="{num(y - half)}" width="{num(2 * half)}" '
                     f'height="{num(2 * half)}" rx="4" fill="{colour}" fill-opacity="0.55"/>')
        else:
            r = max(float(radius or 0) * g.scale, g.scale * 0.35)
            shape = (f'<circle cx="{num(x)}" cy="{num(y)}" r="{num(r)}" fill="{colour}" '
                     f'fill-opacity="0.55" stroke="{colour}"/>')
        label = "" if to is not None else (
            f'<text class="kind" x="{num(x)}" y="{num(y + 3)}">{esc(short(kind, 7))}</text>')
        out.append(f'<g class="piece" id="p{i}" data-kind="{esc(kind)}"><title>{esc(kind)} '
                   f'{where}</title>{shape}{label}</g>')
    return out


def fighter_drawn(data: dict, i: int, now: dict, g: Geometry) -> dict:
    """How fighter i is drawn in a state: its base's centre, its classes, its tooltip and its
    badges (the page's script sets these from state to state)."""
    fighter = data["fighters"][i]
    sides = data["sides"]
    at = now["at"]
    classes = ["fighter", now["out"]] if now["out"] else ["fighter"]
    if at is None:
        classes.append("offboard")
        x, y = -100.0, -100.0
    else:
        x, y = g.to_svg(at)
    side = sides[fighter["side"]] if fighter["side"] < len(sides) else "?"
    where = f"({num(at[0])}, {num(at[1])})" if at is not None else "not on the board"
    status = f", {now['out']}" if now["out"] else ""
    badges = now["badges"]
    tip = f"{fighter['name']} ({side}) at {where}{status}" + \
        (f": {', '.join(badges)}" if badges else "")
    drawn = {"x": round(x, 2), "y": round(y, 2), "class": " ".join(classes), "tip": tip,
             "badges": badges_text(badges)}
    if now.get("models") and at is not None:   # units of models with places
        models = [[round(v, 2) for v in g.to_svg(p)] for p in now["models"]]
        drawn["models"] = models
        drawn["outline"] = " ".join(f"{num(px)},{num(py)}"
                                    for px, py in hull([(x, y), *map(tuple, models)]))
        drawn["tip"] = tip.replace(f" at {where}", f" at {where} and {len(models)} more "
                                   f"model{'s' if len(models) != 1 else ''}")
    return drawn


def hull(points: list) -> list:
    """The convex hull of points (a unit's outline), anticlockwise from the lowest left; one
    or two points are their own hull."""
    pts = sorted(set(points))
    if len(pts) <= 2:
        return pts

    def cross(o, a, b) -> float:
        return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])
    lower: list = []
    for p in pts:
        while len(lower) >= 2 and cross(lower[-2], lower[-1], p) <= 0:
            lower.pop()
        lower.append(p)
    upper: list = []
    for p in reversed(pts):
        while len(upper) >= 2 and cross(upper[-2], upper[-1], p) <= 0:
            upper.pop()
        upper.append(p)
    return lower[:-1] + upper[:-1]


def _models(d: dict, r: float, colour: str) -> str:
    """Units of models with places: an outline round the unit and a base for each other
    model, under its first model's ('' for any other fighter, whose drawing is as before).
    The page's script draws them anew at every step (templates/game.js)."""
    if "models" not in d:
        return ""
    return (f'<g class="unit"><polygon class="outline" points="{d["outline"]}" fill="{colour}" '
            f'fill-opacity="0.12" stroke="{colour}" stroke-opacity="0.5" '
            f'stroke-width="{num(2 * r + 6)}" stroke-linejoin="round"/>'
            + "".join(f'<circle class="model" cx="{num(mx)}" cy="{num(my)}" r="{num(r)}" '
                      f'fill="{colour}" stroke="#111" stroke-width="0.8"/>'
                      for mx, my in d["models"]) + "</g>")


def _fighters(data: dict, state: dict, g: Geometry) -> list[str]:
    """Each fighter: a base in its side's colour, its name (shortened) under it, its badges
    (flags, counters) over it; out of play faded (removed) or gone (withdrawn)."""
    out = ['<g class="fighters">']
    r = g.base
    for i, now in enumerate(state["fighters"]):
        fighter = data["fighters"][i]
        d = fighter_drawn(data, i, now, g)
        x, y = d["x"], d["y"]
        hidden = "" if d["badges"] else ' visibility="hidden"'
        colour = side_colour(fighter["side"])
        out.append(
            f'<g class="{d["class"]}" id="f{i}" data-side="{fighter["side"]}">'
            f"<title>{esc(d['tip'])}</title>" + _models(d, r, colour) +
            f'<circle cx="{num(x)}" cy="{num(y)}" r="{num(r)}" '
            f'fill="{colour}" stroke="#111" stroke-width="1.2"/>'
            f'<text class="name" x="{num(x)}" y="{num(y + r + 9)}">{esc(short(fighter["name"]))}'
            "</text>"
            f'<text class="badge" x="{num(x)}" y="{num(y - r - 3)}"{hidden}>'
            f"{esc(d['badges'])}</text></g>")
    out.append("</g>")
    return out
