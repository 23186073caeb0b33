"""The game page of `warband play --format html`: one self-contained HTML file.

The board is game/svg.py's drawing of the first state; the page's script (templates/game.js,
hand-written, no library) moves it from step to step. What the script needs is worked out here,
in Python, and embedded as JSON: for every distinct state, each fighter's base (where it is
drawn, its classes, tooltip and badges), the pieces on the board (SVG text made by svg.py, so
escaped there), each side's values. The script writes text only through textContent; the JSON
is written so that no `</script>` (nor `<!--`) can appear in it. Nothing is fetched: the page
works offline.
"""

from __future__ import annotations

import json
import re
from importlib import resources

from warband.diagnostics import UNPRINTABLE
from warband.game import svg


def _template(name: str) -> str:
    return resources.files("warband.game").joinpath("templates", name).read_text("utf-8")


def script_json(value) -> str:
    """JSON to put inside a <script> element: <, > and & as \\u escapes (JSON reads them back
    the same), so a name like `</script>` in a file cannot end the element; and every character
    `diagnostics.printable` escapes (DEL, C1 and bidi controls, line separators, halves of
    characters: JSON itself escapes only C0) as a \\u escape too, so that a page printed on a
    terminal (no -o) cannot drive it, and the script still reads the names exactly."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":")) \
        .replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026") \
        .translate(_JSON_ESCAPES)


_JSON_ESCAPES = {code: f"\\u{code:04x}" for code in [*UNPRINTABLE, 0xFFFE, 0xFFFF]
                 if code >= 0x7F}   # (and the two characters no XML or HTML text may hold)


def page_data(data: dict) -> dict:
    """What the page's script reads: the steps, and each state as it is drawn."""
    g = svg.Geometry(data["board"])
    layers: list[str] = []
    states = []
    for state in data["states"]:
        layer = "".join(svg.pieces_svg(state, g))
        if layer not in layers:
            layers.append(layer)
        states.append({
            "fighters": [svg.fighter_drawn(data, i, now, g)
                         for i, now in enumerate(state["fighters"])],
            "out": [now["out"] for now in state["fighters"]],
            "sides": state["sides"], "pieces": layers.index(layer)})
    return {"title": data["title"], "base": g.base,
            "sides": [{"name": name, "colour": svg.side_colour(i)}
                      for i, name in enumerate(data["sides"])],
            "fighters": data["fighters"], "states": states, "layers": layers,
            "steps": data["steps"], "result": data["result"]}


def render_page(data: dict) -> str:
    """The whole page's text."""
    parts = {
        "TITLE": svg.esc(data["title"]),
        "SUBTITLE": svg.esc(f"{data['scenario']}, seed {data['seed']}"),
        "CSS": _template("game.css"),
        "BOARD": svg.board_svg(data, 0),
        "DATA": script_json(page_data(data)),
        "SCRIPT": _template("game.js"),
    }
    # one pass: a part's text (a fighter named __DATA__) is never read as a placeholder
    return re.sub(r"@@(TITLE|SUBTITLE|CSS|BOARD|DATA|SCRIPT)@@", lambda m: parts[m.group(1)],
                  _template("game.html"))
