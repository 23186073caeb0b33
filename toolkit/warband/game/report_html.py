"""`simulate --format html`: the run's figures and charts in one page that works offline.

Everything is inline (the charts are SVG from plots.py, the style a <style> element): no script,
no font, no network. Every text from a file is escaped. The page's parts have ids for a browser
test: #run (how to reproduce the run), #figures (the text report's table), and each chart's
figure is #figure-ID around an <svg id="chart-ID"> (ids listed in plots.panels).
"""

from __future__ import annotations

from html import escape

from warband import charts
from warband.diagnostics import printable
from warband.game import plots
from warband.game.report import as_json
from warband.game.tally import Summary

STYLE = charts.PAGE_STYLE + """.note { color: #555; }
"""


def _t(value: object) -> str:
    return escape(printable(str(value)), quote=True)


def _pct(x: float) -> str:
    return f"{x * 100:.1f}%"


def render_html(summary: Summary, scenario: str) -> str:
    """The page: how to reproduce the run, the figures as a table, then every chart."""
    data = as_json(summary, scenario)
    run = [f"{summary.games} games", f"seed {summary.seed}", f"chunks of {summary.chunk_size}"]
    if data["policies"]:
        run.append("policies " + ", ".join(f"{k}={v}" for k, v in data["policies"].items()))
    if data["side_files"]:
        run.append("sides from files " + ", ".join(f"{k}={v}"
                                                    for k, v in data["side_files"].items()))
    if data["max_rounds"] is not None:
        run.append(f"at most {data['max_rounds']} rounds")
    head = "".join(f"<th>{_t(side)}</th>" for side in summary.sides)
    rows = [("wins", [str(data["sides"][s]["wins"]) for s in summary.sides]),
            ("win rate", [_pct(data["sides"][s]["win_rate"]) for s in summary.sides]),
            ("95% interval", ["{}–{}".format(*map(_pct, data["sides"][s]["win_rate_95"]))
                              for s in summary.sides]),
            ("average score", [f"{data['sides'][s]['score']['mean']:.2f}"
                               for s in summary.sides]),
            ("score sd", [f"{data['sides'][s]['score']['sd']:.2f}" for s in summary.sides])]
    body = "".join(f"<tr><td>{_t(name)}</td>{''.join(f'<td>{_t(v)}</td>' for v in values)}</tr>"
                   for name, values in rows)
    rounds = data["rounds"]
    ended = ", ".join(f"{_t(how)} {n}" for how, n in data["ended"].items() if n)
    # (each chart's title is drawn in it, and is its SVG <title> for screen readers)
    charts = "".join(f'<figure id="figure-{p.id}">{p.svg()}</figure>'
                     for p in plots.panels(summary))
    title = f"{printable(scenario)}: {summary.games} games"
    return (
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
        f"<title>{escape(title)}</title><style>{STYLE}</style></head><body>\n"
        f"<h1>{escape(title)}</h1>\n<p id=\"run\">{_t(', '.join(run))}</p>\n"
        f"<table id=\"figures\"><thead><tr><th></th>{head}</tr></thead><tbody>{body}"
        f"</tbody></table>\n"
        f"<p id=\"run-figures\">draws {summary.draws}; rounds: average {rounds['mean']:.2f}, "
        f"min {rounds['min']}, max {rounds['max']}; how games ended: {ended}</p>\n"
        f"<h2>Charts</h2>\n<div class=\"charts\">{charts}</div>\n"
        "<p class=\"note\">Intervals are 95% Wilson score intervals. The same command with the "
        "same seed draws the same page.</p>\n</body></html>\n")
