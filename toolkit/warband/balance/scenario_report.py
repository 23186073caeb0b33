"""A scenario's balance report as text and as JSON (report.py has the ruleset's, and what both
share). Every name from a file goes through `printable`."""

from __future__ import annotations

from warband.balance.report import columns, name, number, pct, plain, rounded
from warband.balance.scenario import Rate, ScenarioBalance

VAGUE = ("most intervals are wider than the cost itself: too few games to suggest costs; "
         "play more with --fit-games")
ROUGH = ("most intervals are wider than the cost itself: the verdicts hold (their intervals "
         "leave the cost out), the suggested values are rough; play more with --fit-games")


def games(n: int) -> str:
    return f"{n:,} game" if n == 1 else f"{n:,} games"


def interval_text(interval) -> str:
    if interval is None:
        return "—"
    low, high = interval
    return f"{low * 100:.1f}%-{high * 100:.1f}%"


def rate_line(rate: Rate | None) -> str:
    if rate is None or not rate.games:
        return "—"
    return f"{pct(rate.rate)} (95%: {interval_text(rate.interval)}; {games(rate.games)})"


def players(found: ScenarioBalance) -> str:
    return ", ".join(f"{'every side' if who == '*' else who} {policy}"
                     for who, policy in found.policies) or "every side random"


def scenario_text(found: ScenarioBalance) -> str:
    h = found.health
    lines = [f"{name(found.scenario, 80)}: {games(h.games)}, seed {found.seed}, chunks of "
             f"{found.chunk_size}; players: {players(found)}"]
    more = []
    played = [s for s in found.swaps if s.after is not None]
    if played:
        more.append(f"{len(played)} x {played[0].after.games:,} games with one fighter "  # type: ignore[union-attr]
                    "swapped")
    if found.fit_games:
        more.append(f"{found.fit_games:,} games between random warbands")
    if more:
        lines.append(f"and {', '.join(more)}: {found.total_games:,} games in all")
    lines.append("")
    rows = [["", "wins", "win rate", "95% interval"]]
    for side, rate in h.sides.items():
        rows.append([name(side, 24), f"{rate.count:,}", pct(rate.rate),
                     interval_text(rate.interval)])
    rows.append(["draws", f"{h.draws.count:,}", pct(h.draws.rate), interval_text(h.draws.interval)])
    lines += columns(rows, {1, 2}) + [""]
    if h.first is not None:
        acted = ", ".join(f"{name(s, 24)} in {n:,}" for s, n in h.first_by_side.items())
        lines.append(f"first player      won {rate_line(h.first)}; acted first: {acted}")
    ended = ", ".join(f"{how} {n:,}" for how, n in h.ended.items() if n)
    limit = (f"the scenario's limit is {h.declared_rounds} rounds" if h.declared_rounds
             else "the scenario sets no round limit")
    lines.append(f"how games ended   {ended} ({limit}; timeouts: {h.timeouts:,})")
    lines.append(f"game length       average {h.rounds_mean:.2f} rounds, min {h.rounds_min}, "
                 f"max {h.rounds_max}")
    lines.append("decisiveness      the side ahead at half-time won "
                 + (rate_line(h.decisive) + " of the games won with a side ahead then"
                    if h.decisive else "— (no game won with a side ahead at half-time)"))
    lines.append("")
    lines.append("warnings" if h.warnings else "warnings: none")
    lines += [f"  {name(w, 200)}" for w in h.warnings]
    if not found.swaps and found.swaps_chosen:
        lines += ["", "marginal worth: none, no fighter of a side has another of about its "
                      "cost to be swapped for (name one with --swap SIDE:FIGHTER=CLASS)"]
    if found.swaps:
        lines += ["", "marginal worth: one fighter swapped for another of about its cost; the "
                      "side's win rate"]
        rows = [["side", "fighter", "cost", "swapped for", "cost", "before", "after",
                 "change", "95% interval"]]
        for s in found.swaps:
            change = s.change
            rows.append([name(s.side, 16), name(s.fighter, 20), number(s.cost_before),
                         name(s.replacement, 30), number(s.cost_after),
                         pct(s.before.rate) if s.before else "—",
                         pct(s.after.rate) if s.after else "—",
                         "—" if change is None else f"{change[0] * 100:+.1f} pp",
                         "—" if change is None else
                         f"{change[1][0] * 100:+.1f} to {change[1][1] * 100:+.1f} pp"])
        lines += columns(rows, {2, 4, 5, 6, 7})
    if found.fit_left_out is not None:
        lines += ["", f"suggested costs: none, {found.fit_left_out}"]
    if found.fit is not None:
        lines += ["", f"suggested costs, fitted on {found.fit_games:,} games between random "
                      "legal warbands (docs/balance.md)"]
        if found.fit.scale is None:
            lines.append("  no costs can be suggested: the games do not tell what a point is "
                         "worth (no costs, or lists that all cost the same)")
        rows = [["fighter", "stats", "cost", "suggested", "95% interval", "verdict"]]
        for suggestion in found.suggestions:
            p = found.pool[suggestion.profile]
            rows.append([name(p.name, 30), name(p.stats, 20), number(p.cost),
                         "—" if suggestion.worth is None else f"{suggestion.worth:.1f}",
                         "—" if suggestion.interval is None else
                         f"{suggestion.interval[0]:.1f} to {suggestion.interval[1]:.1f}",
                         suggestion.verdict])
        lines += columns(rows, {2, 3})
        if found.vague:
            lines.append(f"  {vague_note(found)}")
        if found.options:
            rows = [["option", "on", "price", "worth", "95% interval"]]
            for o in found.options:
                rows.append([name(o.option, 24), name(found.pool[o.base].name, 24),
                             number(o.price), "—" if o.worth is None else f"{o.worth:+.1f}",
                             "—" if o.interval is None else
                             f"{o.interval[0]:+.1f} to {o.interval[1]:+.1f}"])
            lines += [""] + columns(rows, {2, 3})
    return "\n".join(lines) + "\n"


def vague_note(found: ScenarioBalance) -> str:
    """What wide intervals mean: nothing can be said, or only the verdicts."""
    return ROUGH if any(s.verdict in ("cheap", "dear") for s in found.suggestions) else VAGUE


def _rate(rate: Rate | None) -> dict | None:
    if rate is None:
        return None
    low, high = rate.interval
    return {"count": rate.count, "games": rate.games, "rate": rounded(rate.rate),
            "rate_95": [rounded(low), rounded(high)]}


def scenario_json(found: ScenarioBalance) -> dict:
    h = found.health
    return {
        "kind": "scenario",
        "scenario": found.scenario,
        "seed": found.seed,
        "chunk_size": found.chunk_size,
        "policies": dict(found.policies),
        "games": h.games,
        "games_in_all": found.total_games,
        "sides": {side: _rate(rate) for side, rate in h.sides.items()},
        "draws": _rate(h.draws),
        "first_player": {"won": _rate(h.first), "acted_first": h.first_by_side},
        "ended": h.ended,
        "round_limit": h.declared_rounds,
        "timeouts": h.timeouts,
        "rounds": {"mean": rounded(h.rounds_mean), "min": h.rounds_min, "max": h.rounds_max,
                   "games_by_length": {str(k): v for k, v in h.lengths.items()}},
        "decisiveness": _rate(h.decisive),
        "warnings": list(h.warnings),
        "swaps": [{"side": s.side, "fighter": s.fighter, "replacement": s.replacement,
                   "entry": plain(s.entry), "cost_before": plain(s.cost_before),
                   "cost_after": plain(s.cost_after), "before": _rate(s.before),
                   "after": _rate(s.after),
                   "change": None if s.change is None else rounded(s.change[0]),
                   "change_95": None if s.change is None else [rounded(x) for x in s.change[1]]}
                  for s in found.swaps],
        "suggested_costs_left_out": found.fit_left_out,
        "suggested_costs": None if found.fit is None else {
            "games": found.fit_games,
            "points_per_logit": rounded(found.fit.scale),
            "side_advantage_logit": rounded(found.fit.side_advantage),
            "converged": found.fit.converged,
            "too_few_games": found.vague,
            "fighters": [{"name": found.pool[s.profile].name,
                          "stats": found.pool[s.profile].stats,
                          "entry": plain(found.pool[s.profile].entry),
                          "cost": plain(s.cost), "suggested": rounded(s.worth),
                          "suggested_95": None if s.interval is None else
                          [rounded(x) for x in s.interval], "verdict": s.verdict}
                         for s in found.suggestions],
            "options": [{"option": o.option, "on": found.pool[o.base].name,
                         "price": plain(o.price), "worth": rounded(o.worth),
                         "worth_95": None if o.interval is None else [rounded(x) for x in o.interval]}
                        for o in found.options],
        },
    }


__all__ = ["games", "interval_text", "players", "rate_line", "scenario_json", "scenario_text",
           "vague_note"]
