"""`balance --format html`: a report as one page that works offline (inline SVG charts from
charts.py, an inline style; no script, no font, no network). Every text from a file is escaped.

The page's parts have ids for a browser test: #run (what was weighed, and how), #fighters,
#findings (a ruleset), #figures (a scenario), and each chart's figure is #figure-ID around an
<svg id="chart-ID">: duels (the heatmap of the duel matrix), kills (one attack's chance to
remove), a scenario's sides, lengths, swaps and costs (current against suggested costs).
"""

from __future__ import annotations

from html import escape

from warband import charts
from warband.balance import report, scenario_report
from warband.balance.scenario import ScenarioBalance
from warband.balance.weigh import RulesetBalance
from warband.diagnostics import printable
from warband.run.odds import outcome_text

STYLE = charts.PAGE_STYLE + """.note { color: #555; }
td.left, th.left { text-align: left; }
"""


def _t(value: object) -> str:
    return escape(printable(str(value)), quote=True)


def _table(id: str, head: list[str], rows: list[list[str]], left: set[int] | None = None) -> str:
    left = left or {0}
    th = "".join(f'<th{" class=left" if i in left else ""}>{_t(h)}</th>'
                 for i, h in enumerate(head))
    body = "".join("<tr>" + "".join(f'<td{" class=left" if i in left else ""}>{_t(c)}</td>'
                                    for i, c in enumerate(row)) + "</tr>" for row in rows)
    return f'<table id="{id}"><thead><tr>{th}</tr></thead><tbody>{body}</tbody></table>'


def _figure(panel: charts.Panel) -> str:
    return f'<figure id="figure-{panel.id}">{panel.svg()}</figure>'


def _page(title: str, body: str) -> str:
    return ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            f"<title>{_t(title)}</title><style>{STYLE}</style></head><body>\n"
            f"<h1>{_t(title)}</h1>\n{body}\n</body></html>\n")


# ---- a ruleset ---------------------------------------------------------------------------------

def ruleset_page(found: RulesetBalance) -> str:
    ps = found.profiles
    n = len(ps)
    verdict_of = {v.profile: v for v in found.verdicts}
    source = "each class at its typical stats, with each option" \
        if found.source == "typical" else f"from {found.source}"
    run = (f"{n} fighters ({source}), weighed by exact odds; decisions: {found.policy}; duels "
           + (f"of at most {found.rounds} rounds" if found.rounds else "fought to the end")
           + ", each fighter acting first in one of two.")
    fighters = _table("fighters", ["#", "fighter", "stats", "cost", "duels won", "verdict"],
                      [[str(i + 1), p.name, p.stats, report.number(p.cost),
                        report.pct(verdict_of[i].average), "; ".join(verdict_of[i].words)]
                       for i, p in enumerate(ps)], {1, 2, 5})
    labels = [p.name for p in ps]
    duels = charts.heatmap("duels", "Duels: the chance that the row's fighter wins", labels,
                           [[_float(found.win(i, j)) for j in range(n)] for i in range(n)],
                           "each fighter acting first in one of two duels; orange: the row "
                           "wins more often")
    kills = charts.heatmap("kills", "One attack: the chance to remove the target", labels,
                           [[_float(s.kill) if (s := report.best_strike(found, i, j)) else 0.0
                             for j in range(n)] for i in range(n)],
                           "the row's best attack on the column's fighter")
    attacks = []
    for (i, j), strikes in found.strikes.items():
        for s in strikes:
            outcomes = ", ".join(f"{printable(outcome_text(v))} {report.pct(s.distribution[v])}"
                                 for v in s.order if v in s.distribution)
            cpk = report.cost_per_kill(ps[i].cost, s.kill)
            attacks.append([ps[i].name, ps[j].name, s.attack, outcomes, report.pct(s.kill),
                            "—" if s.expected is None else f"{float(s.expected):.3f}",
                            "—" if cpk is None else f"{float(cpk):.0f}"])
    attack_table = _table("attacks", ["attacker", "target", "attack", "outcomes",
                                      "removes", "expected score", "cost per kill"],
                          attacks, {0, 1, 2, 3})
    options = ""
    if found.options:
        options = "<h2>Options</h2>" + _table("options", [
            "option", "on", "price", "duels won (change, pp)"],
            [[o.option, ps[o.base].name, report.number(o.price),
              "—" if o.change is None else f"{float(o.change) * 100:+.1f}"]
             for o in found.options], {0, 1})
    findings = report.findings_of(found) + [f"not solved: {d.message}" for d in found.problems]
    listed = "".join(f"<li>{_t(f)}</li>" for f in findings) or "<li>none</li>"
    body = (f'<p id="run" class="note">{_t(run)}</p>\n<h2>Fighters</h2>{fighters}\n'
            f'<div class="charts">{_figure(duels)}{_figure(kills)}</div>\n'
            f'<h2>Findings</h2><ul id="findings">{listed}</ul>\n{options}\n'
            f'<h2>Every attack</h2>{attack_table}')
    return _page(f"{found.ruleset}: what its fighters are worth", body)


def _float(x) -> float | None:
    return None if x is None else float(x)


# ---- a scenario --------------------------------------------------------------------------------

def scenario_page(found: ScenarioBalance) -> str:
    h = found.health
    run = (f"{scenario_report.games(h.games)}, seed {found.seed}, chunks of {found.chunk_size}; players: "
           f"{scenario_report.players(found)}; {found.total_games:,} games in all.")
    rows = [[side, f"{r.count:,}", report.pct(r.rate), scenario_report.interval_text(r.interval)]
            for side, r in h.sides.items()]
    rows.append(["draws", f"{h.draws.count:,}", report.pct(h.draws.rate),
                 scenario_report.interval_text(h.draws.interval)])
    figures = _table("figures", ["", "wins", "win rate", "95% interval"], rows)
    facts = [("first player won", scenario_report.rate_line(h.first)),
             ("how games ended", ", ".join(f"{k} {v:,}" for k, v in h.ended.items() if v)
              + f" (round limit: {h.declared_rounds or 'none'}; timeouts {h.timeouts:,})"),
             ("game length", f"average {h.rounds_mean:.2f} rounds, min {h.rounds_min}, "
                             f"max {h.rounds_max}"),
             ("side ahead at half-time won", scenario_report.rate_line(h.decisive))]
    facts_table = _table("facts", ["", ""], [list(f) for f in facts])
    warnings = "".join(f"<li>{_t(w)}</li>" for w in h.warnings) or "<li>none</li>"
    panels = [charts.bars("sides", "Win rates (95% intervals)",
                          [charts.Bar(side, r.rate, charts.COLOURS[k % len(charts.COLOURS)],
                                      report.pct(r.rate), r.interval)
                           for k, (side, r) in enumerate(h.sides.items())]
                          + [charts.Bar("draws", h.draws.rate, charts.DRAW,
                                        report.pct(h.draws.rate), h.draws.interval)], top=1.0)]
    if h.lengths:
        total = sum(h.lengths.values())
        panels.append(charts.columns("lengths", "Game length", [str(k) for k in h.lengths],
                                     [("games", charts.COLOURS[0],
                                       [v / total for v in h.lengths.values()])], "rounds"))
    swaps = ""
    played = [s for s in found.swaps if s.change is not None]
    if found.swaps:
        swaps = "<h2>Marginal worth</h2>" + _table("swaps", [
            "side", "fighter", "cost", "swapped for", "cost", "before", "after",
            "change (pp)", "95% interval"],
            [[s.side, s.fighter, report.number(s.cost_before), s.replacement,
              report.number(s.cost_after), report.pct(s.before.rate) if s.before else "—",
              report.pct(s.after.rate) if s.after else "—",
              "—" if s.change is None else f"{s.change[0] * 100:+.1f}",
              "—" if s.change is None else
              f"{s.change[1][0] * 100:+.1f} to {s.change[1][1] * 100:+.1f}"]
             for s in found.swaps], {0, 1, 3})
    if played:
        panels.append(charts.worths("swaps", "A fighter swapped: the side's win rate",
                                    [charts.Worth(f"{s.fighter} → "
                                                  f"{s.entry.get('class') or s.replacement}",
                                                  100 * s.before.rate if s.before else None,
                                                  100 * s.after.rate if s.after else None,
                                                  (100 * s.after.interval[0],
                                                   100 * s.after.interval[1])
                                                  if s.after else None)
                                     for s in played], axis="% won",
                                    marks=("before", "after the swap")))
    costs = ""
    if found.fit is not None:
        costs = f"<h2>Suggested costs</h2><p class=note>fitted on {found.fit_games:,} games " \
                "between random legal warbands (docs/balance.md)</p>" + \
                (f"<p class=note>{_t(scenario_report.vague_note(found))}</p>" if found.vague else "") + \
                _table("costs", [
                    "fighter", "stats", "cost", "suggested", "95% interval", "verdict"],
                    [[found.pool[s.profile].name, found.pool[s.profile].stats,
                      report.number(s.cost), "—" if s.worth is None else f"{s.worth:.1f}",
                      "—" if s.interval is None else
                      f"{s.interval[0]:.1f} to {s.interval[1]:.1f}", s.verdict]
                     for s in found.suggestions], {0, 1, 5})
        if found.fit.scale is not None:
            panels.append(charts.worths("costs", "Current costs against suggested costs",
                                        [charts.Worth(found.pool[s.profile].name,
                                                      _float(s.cost), s.worth, s.interval)
                                         for s in found.suggestions]))
    body = (f'<p id="run" class="note">{_t(run)}</p>\n{figures}\n{facts_table}\n'
            f'<h2>Warnings</h2><ul id="warnings">{warnings}</ul>\n'
            f'<div class="charts">{"".join(_figure(p) for p in panels)}</div>\n'
            f'{swaps}\n{costs}')
    return _page(f"{found.scenario}: how it plays, what its fighters are worth", body)


__all__ = ["ruleset_page", "scenario_page"]
