"""`warband odds --plot` and `--format html`: the odds as charts, and as one page.

One odds: a bar per outcome (its percent and exact fraction as the note), then a panel per
effect ("target.Stunned": a bar per value it may have after the action). A sweep: one line per
outcome over the swept values (warband/charts.py draws them all). The page holds the same
figures as the text output (exact fractions) and the charts inline: no script, no font, no
network; every text from a file (fighter names in effect labels, outcome names) is escaped.
"""

from __future__ import annotations

from fractions import Fraction
from html import escape
from typing import TYPE_CHECKING, NamedTuple, cast

from warband import charts
from warband.diagnostics import printable
from warband.run.odds import fraction_text, key_text, outcome_text

if TYPE_CHECKING:
    from warband.run.odds import OddsResult

STYLE = charts.PAGE_STYLE + """.charts { margin-top: 1em; } section { margin-top: 1em; }
"""


class Sweep(NamedTuple):
    """The odds once per value of one parameter or stat (`--sweep NAME=LOW..HIGH`)."""

    name: str                      # what it varies: "attacker.STAT" (written "stat"), "range"
    values: list[int]
    results: list[OddsResult]

    def outcomes(self) -> list:
        """Every outcome any value gives, in the rules' order (a value that cannot give one
        gives it 0)."""
        seen: list = []
        for result in self.results:
            seen += [v for v in result.order if v not in seen]
        if all(isinstance(v, (int, Fraction)) and not isinstance(v, bool) for v in seen):
            return sorted(seen)   # a number (a distance): values of one value and the next
        return seen

    def expected(self) -> list[Fraction] | None:
        """A number result's expected value at each value (None for other results)."""
        found = [result.expected for result in self.results]
        return None if any(e is None for e in found) else cast("list[Fraction]", found)

    def chance(self, i: int, outcome) -> Fraction:
        dist = self.results[i].distribution
        return dist[outcome] if outcome in dist else Fraction(0)

    def columns(self) -> list[tuple[str, list[Fraction]]]:
        """What the table and the chart show, each with its chance at every value: the
        outcomes; for an action with no result, what it changes ("fighter.Defending=yes"),
        the values of each effect that any swept value gives; else nothing."""
        outcomes = self.outcomes()
        if outcomes != [None]:
            return [(outcome_label(v), [self.chance(k, v) for k in range(len(self.values))])
                    for v in outcomes]
        shown: dict[tuple[str, object], list[Fraction]] = {}
        for k, result in enumerate(self.results):
            for label, dist in result.effects.items():
                for v, p in _sorted(dist):
                    shown.setdefault((label, v), [Fraction(0)] * len(self.values))[k] = p
        return [(f"{label}={key_text(v)}", chances) for (label, v), chances in shown.items()]


def outcome_label(value) -> str:
    return "(no result)" if value is None else str(value)


def _sorted(dist: dict) -> list:
    return sorted(dist.items(), key=lambda kv: (str(type(kv[0])), kv[0]))


def _note(p: Fraction) -> str:
    return f"{float(p) * 100:.2f}% ({fraction_text(p)})"


def odds_panels(result: OddsResult) -> list[charts.Panel]:
    """The outcomes' bars (none for an action with no result), then one panel per effect."""
    made = []
    if list(result.order) != [None]:
        made.append(charts.bars("outcomes", f"Outcomes of {result.action}", [
            charts.Bar(outcome_label(v), float(result.distribution[v]),
                       charts.COLOURS[i % len(charts.COLOURS)],
                       _note(result.distribution[v]))
            for i, v in enumerate(result.order)], top=1.0))
    for n, (label, dist) in enumerate(result.effects.items(), start=1):
        made.append(charts.bars(f"effect-{n}", f"After the action: {label}", [
            charts.Bar(key_text(v), float(p), charts.COLOURS[i % len(charts.COLOURS)],
                       _note(p)) for i, (v, p) in enumerate(_sorted(dist))], top=1.0))
    return made


def sweep_panels(sweep: Sweep) -> list[charts.Panel]:
    columns = sweep.columns()
    if not columns:
        return []
    return [charts.lines("sweep", f"Chances of {sweep.results[0].action} by {sweep.name}",
                         sweep.values,
                         [(name, charts.COLOURS[i % len(charts.COLOURS)],
                           [float(p) for p in chances])
                          for i, (name, chances) in enumerate(columns)], sweep.name)]


def figure(panels: list[charts.Panel], title: str, asked: list[tuple[str, str]]) -> str:
    """The `--plot FILE.svg`: the panels on one sheet (a note when there is nothing to draw),
    under a title and what was weighed (`asked`: cli/odds.computed), a line each."""
    if not panels:
        panels = [charts.Panel("empty", "Nothing to draw", 40, charts.heading(
            "the action gives no result and changes nothing"))]
    return charts.sheet(panels, title, per_row=1 if len(panels) == 1 else 2,
                        notes=[f"{what}: {value}" for what, value in asked])


def _t(value: object) -> str:
    return escape(printable(str(value)), quote=True)


def _table(head: list[str], rows: list[list[str]]) -> str:
    top = "".join(f"<th>{_t(h)}</th>" for h in head)
    body = "".join("<tr>" + "".join(f"<td>{_t(c)}</td>" for c in row) + "</tr>" for row in rows)
    return f"<table><thead><tr>{top}</tr></thead><tbody>{body}</tbody></table>"


def _charts(panels: list[charts.Panel]) -> str:
    return '<div class="charts">' + "".join(
        f'<figure id="figure-{p.id}">{p.svg()}</figure>' for p in panels) + "</div>"


def _page(title: str, parts: list[str], asked: list[tuple[str, str]]) -> str:
    """A page: its title, what was weighed (#computed: a line each), then the parts."""
    said = '<dl id="computed">' + "".join(f"<dt>{_t(what)}</dt><dd>{_t(value)}</dd>"
                                          for what, value in asked) + "</dl>"
    return ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            f"<title>{_t(title)}</title><style>{STYLE}</style></head><body>\n"
            f"<h1>{_t(title)}</h1>\n{said}\n" + "\n".join(parts) + "\n</body></html>\n")


def odds_html(result: OddsResult, title: str, solution: list[str],
              asked: list[tuple[str, str]]) -> str:
    """One odds as a page: #figures (outcome, fraction, percent), #effects, the charts."""
    parts = []
    if list(result.order) == [None]:
        parts.append('<p id="figures">no result: the action returns nothing</p>')
    else:
        parts.append('<section id="figures">' + _table(["outcome", "fraction", "percent"], [
            [outcome_label(v), fraction_text(result.distribution[v]),
             f"{float(result.distribution[v]) * 100:.2f}%"] for v in result.order]) +
            "</section>")
    if result.expected is not None:
        parts.append(f'<p id="expected">expected: {_t(fraction_text(result.expected))} '
                     f'({float(result.expected):.3f})</p>')
    if solution:
        parts.append('<pre id="solution">' + _t("\n".join(solution)) + "</pre>")
    if result.effects:
        parts.append('<h2>After the action</h2><section id="effects">' + _table(
            ["after the action", "value", "fraction", "percent"],
            [[label if i == 0 else "", key_text(v), fraction_text(p),
              f"{float(p) * 100:.2f}%"]
             for label, dist in result.effects.items()
             for i, (v, p) in enumerate(_sorted(dist))]) + "</section>")
    parts.append(_charts(odds_panels(result)))
    return _page(title, parts, asked)


def sweep_rows(sweep: Sweep) -> tuple[list[str], list[list[str]]]:
    """The sweep's table: a row per value, a column per outcome (percent)."""
    columns, expected = sweep.columns(), sweep.expected()
    return [sweep.name] + [name for name, _ in columns] + (["expected"] if expected else []), [
        [str(x)] + [f"{float(chances[k]) * 100:.2f}%" for _, chances in columns] +
        ([f"{float(expected[k]):.3f}"] if expected else [])
        for k, x in enumerate(sweep.values)]


def sweep_json(sweep: Sweep, asked: list[tuple[str, str]], policies) -> dict:
    """What was weighed, as a single odds' JSON names it (ruleset, action, attacker and target
    as written, `with` the parameters set, policy), `sweep` (what is varied: `attacker.Might`)
    and `values`: a list of {value, distribution (exact fractions), percent, effects, and
    expected for a number result}; a null distribution and percent for an action with no
    result."""
    outcomes = sweep.outcomes()
    out: list[dict] = []
    for k, x in enumerate(sweep.values):
        dist = None if outcomes == [None] else {
            outcome_text(v): fraction_text(sweep.chance(k, v)) for v in outcomes}
        percent = None if outcomes == [None] else {
            outcome_text(v): round(float(sweep.chance(k, v)) * 100, 4) for v in outcomes}
        effects = {label: {key_text(v): fraction_text(p) for v, p in _sorted(d)}
                   for label, d in sweep.results[k].effects.items()}
        row: dict[str, object] = {"value": x, "distribution": dist, "percent": percent,
                                  "effects": effects}
        expected = sweep.results[k].expected
        if expected is not None:
            row["expected"] = fraction_text(expected)
        out.append(row)
    return {"ruleset": dict(asked)["ruleset"], "action": dict(asked)["action"],
            "attacker": [value for what, value in asked if what == "attacker"],
            "target": [value for what, value in asked if what == "target"],
            "with": dict(value.partition("=")[::2] for what, value in asked if what == "with"),
            "policy": {"default": policies.default, **policies.by_decision},
            "sweep": sweep.name, "values": out}


def sweep_html(sweep: Sweep, title: str, asked: list[tuple[str, str]]) -> str:
    """A sweep as a page: the line chart, then #figures (the table, exact fractions beside the
    percents)."""
    columns, expected = sweep.columns(), sweep.expected()
    head = [sweep.name] + [name for name, _ in columns] + (["expected"] if expected else [])
    rows = [[str(x)] + [f"{float(chances[k]) * 100:.2f}% ({fraction_text(chances[k])})"
                        for _, chances in columns] +
            ([f"{float(expected[k]):.3f} ({fraction_text(expected[k])})"] if expected else [])
            for k, x in enumerate(sweep.values)]
    table = _table(head, rows) if columns else \
        "<p>no result: the action returns nothing and changes nothing</p>"
    # the chart first: a long table would push it out of sight
    return _page(title, [_charts(sweep_panels(sweep)),
                         '<section id="figures">' + table + "</section>"], asked)
