"""Renderers of a simulation's Summary: a text report (rich tables) and JSON.

Both say how to reproduce the run: the scenario, the seed, the chunk size, the policies, and the
seed of every stuck game listed. The core (simulate.py) never prints; these only format.
"""

from __future__ import annotations

import io
import json

from rich.table import Table
from rich.text import Text

from warband import terminal
from warband.diagnostics import printable
from warband.game.results import GameResult
from warband.game.tally import ENDINGS, GameDetails, Summary

DIGITS = 6   # JSON floats are rounded, so that goldens agree across platforms


def _round(x: float) -> float:
    return round(x, DIGITS) + 0.0   # + 0.0 turns -0.0 into 0.0


def _ended(summary: Summary) -> dict[str, int]:
    """The four standard endings always, in their order; anything else the engine said after."""
    out = {how: summary.ended.get(how, 0) for how in ENDINGS}
    out.update({how: summary.ended[how] for how in sorted(summary.ended) if how not in out})
    return out


def _policies(summary: Summary) -> dict[str, str]:
    return dict(summary.request.policies) if summary.request else {}


def as_json(summary: Summary, scenario: str | None = None) -> dict:
    """The summary as plain data, keys in a fixed order."""
    request = summary.request
    sides = {}
    for side in summary.sides:
        low, high = summary.win_interval(side)
        sides[side] = {
            "wins": summary.tallies[side].wins,
            "win_rate": _round(summary.win_rate(side)),
            "win_rate_95": [_round(low), _round(high)],
            "score": {"mean": _round(summary.mean_score(side)),
                      "sd": _round(summary.score_sd(side))},
            "removed_per_game": {k: _round(v) for k, v in summary.lost_per_game(side).items()},
            # fighters that left the table (fled, escaped): out of play, not casualties
            "withdrawn_per_game": {k: _round(v)
                                   for k, v in summary.left_per_game(side).items()},
        }
    return {
        "scenario": scenario if scenario is not None else (request.scenario if request else None),
        "games": summary.games,
        "seed": summary.seed,
        "chunk_size": summary.chunk_size,
        "policies": _policies(summary),
        "max_rounds": request.max_rounds if request else None,
        "side_files": {f.side: f.shown for f in request.sides} if request else {},
        "sides": sides,
        "draws": summary.draws,
        "rounds": {"mean": _round(summary.mean_rounds()), "min": summary.rounds_min,
                   "max": summary.rounds_max},
        "ended": _ended(summary),
        "never_scored": summary.never_scored(),
        "stuck": {"count": summary.stuck_count,
                  "games": [{"game": s.game + 1, "seed": s.seed, "why": s.why}
                            for s in summary.stuck]},
    }


def render_json(summary: Summary, scenario: str | None = None) -> str:
    return json.dumps(as_json(summary, scenario), indent=2) + "\n"


def _percent(x: float) -> str:
    return f"{x * 100:.1f}%"


def _number(x: float) -> str:
    return f"{x:.2f}"


def render_text(summary: Summary, scenario: str | None = None, *, width: int = 100,
                colour: bool = False) -> str:
    """The report a person reads: one column per side, then the whole run's figures."""
    buffer = io.StringIO()
    console = terminal.console(buffer, colour=colour, width=width, soft_wrap=False,
                               highlight=False)   # its tables print names whole
    name = scenario if scenario is not None else (
        summary.request.scenario if summary.request else "?")
    games = f"{summary.games} game{'s' if summary.games != 1 else ''}"
    console.print(f"{printable(name)}: {games}, seed {summary.seed}, chunks of "
                  f"{summary.chunk_size}", markup=False)
    policies = _policies(summary)
    if policies:
        console.print("policies: " + ", ".join(f"{k}={v}" for k, v in policies.items()),
                      markup=False)
    if summary.request and summary.request.sides:   # --side NAME=FILE: whose lists played
        console.print("sides from files: " + ", ".join(
            f"{printable(f.side)}={printable(f.shown)}" for f in summary.request.sides),
            markup=False)
    if summary.request and summary.request.max_rounds is not None:
        console.print(f"at most {summary.request.max_rounds} rounds", markup=False)
    console.print()

    sides = Table("", *summary.sides, box=None, pad_edge=False, show_edge=False)
    for column in sides.columns[1:]:
        column.justify = "right"
    sides.add_row("wins", *(str(summary.tallies[s].wins) for s in summary.sides))
    sides.add_row("win rate", *(_percent(summary.win_rate(s)) for s in summary.sides))
    sides.add_row("  95% interval", *("{}-{}".format(*map(_percent, summary.win_interval(s)))
                                      for s in summary.sides))
    sides.add_row("average score", *(_number(summary.mean_score(s)) for s in summary.sides))
    sides.add_row("  sd", *(_number(summary.score_sd(s)) for s in summary.sides))
    for title, kept, per_game in (("removed per game", "lost", summary.lost_per_game),
                                  ("withdrawn per game", "left", summary.left_per_game)):
        kinds = sorted({k for s in summary.sides for k in getattr(summary.tallies[s], kept)})
        if kinds:   # (withdrawn: fled or escaped, out of play but no casualty)
            sides.add_row(title, *("" for _ in summary.sides))
            for kind in kinds:
                sides.add_row(Text(f"  {printable(kind)}"), *(
                    _number(per_game(s).get(kind, 0.0)) for s in summary.sides))
    console.print(sides)
    console.print()

    run = Table(box=None, pad_edge=False, show_edge=False, show_header=False)
    run.add_column()
    run.add_column()
    run.add_row("draws", f"{summary.draws} ({_percent(summary.draws / summary.games)})"
                if summary.games else "0")
    run.add_row("rounds", f"average {_number(summary.mean_rounds())}, "
                          f"min {summary.rounds_min}, max {summary.rounds_max}")
    # an ending no game had is left out but for the usual three: "stuck 0" above a list of
    # stuck games read as a contradiction (see the stuck section below)
    endings = {how: n for how, n in _ended(summary).items()
               if n or how in ENDINGS and how != "stuck"}
    run.add_row("how games ended", ", ".join(f"{how} {n}" for how, n in endings.items()))
    never = summary.never_scored()
    if never is not None:
        # (objectives are named by the rules' own words: text, never markup, controls escaped)
        run.add_row("never scored", Text(printable(", ".join(never)) if never else
                                         "(every objective scored)"))
    console.print(run)

    if summary.stuck_count:
        console.print()
        shown = len(summary.stuck)
        more = f" (the first {shown})" if shown < summary.stuck_count else ""
        # Not an ending: a game is listed here when, in some round, a side had fighters to
        # activate and no legal action for any of them; the engine plays on, so the game
        # itself may end by its limit or condition (and is counted there).
        console.print(f"games in which a side had no legal action (stuck): "
                      f"{summary.stuck_count}{more}; replay one with --replay SEED",
                      markup=False)
        stuck = Table("game", "seed", "why", box=None, pad_edge=False, show_edge=False)
        stuck.columns[0].justify = stuck.columns[1].justify = "right"
        for s in summary.stuck:
            stuck.add_row(str(s.game + 1), str(s.seed), Text(printable(s.why)))
        console.print(stuck)
    return "\n".join(line.rstrip() for line in buffer.getvalue().split("\n"))


# ---- one replayed game --------------------------------------------------------------------------

def game_as_json(result: GameResult) -> dict:
    return {
        "seed": result.seed,
        "sides": list(result.sides),
        "winner": result.winner,
        "scores": {s: _round(result.scores.get(s, 0.0)) for s in result.sides},
        "rounds": result.rounds,
        "ended": result.ended,
        "removed": {s: dict(sorted(result.kills[s].items())) for s in result.sides
                    if result.kills.get(s)},
        "scored": sorted(result.scored),
        "stuck": result.stuck,
    }


def render_game_text(result: GameResult) -> str:
    verdict = f"{result.winner} won" if result.winner is not None else "a draw"
    lines = [f"seed {result.seed}: {verdict} after {result.rounds} "
             f"round{'s' if result.rounds != 1 else ''} ({result.ended})",
             "scores: " + ", ".join(f"{s} {result.scores.get(s, 0):g}" for s in result.sides)]
    for side in result.sides:
        lost = result.kills.get(side)
        if lost:
            lines.append(f"{side} lost: " + ", ".join(f"{k} {n}" for k, n in sorted(lost.items())))
    if result.scored:
        lines.append("scored: " + ", ".join(sorted(result.scored)))
    if result.stuck:
        lines.append(f"stuck: {result.stuck}")
    return "\n".join(lines) + "\n"


# ---- one line per game (--games-out) ------------------------------------------------------------

def game_line(game: int, result: GameResult) -> dict:
    """One game of a run as plain data, keys in a fixed order: `game` counts from 1 in seed
    order; `first` (the side that acted first) only when the engine watched for it; each loss
    names the fighter when the engine did (else only its class, as the tally counts it)."""
    line: dict = {"game": game + 1, "seed": result.seed, "winner": result.winner,
                  "draw": result.winner is None,
                  "scores": {s: _round(result.scores.get(s, 0.0)) for s in result.sides},
                  "rounds": result.rounds, "ended": result.ended}
    if isinstance(result, GameDetails):
        if result.first is not None:
            line["first"] = result.first
        for how in ("removed", "withdrawn"):
            line[how] = {side: [{"fighter": loss.fighter, "class": loss.fighter_class}
                                for loss in result.losses
                                if loss.side == side and loss.how == how]
                         for side in result.sides}
    else:
        line["removed"] = {side: [{"class": kind} for kind, n in
                                  sorted(result.kills.get(side, {}).items()) for _ in range(n)]
                           for side in result.sides}
    if result.stuck is not None:
        line["stuck"] = result.stuck
    return line


def render_games_jsonl(summary: Summary) -> str:
    """Every kept game of the run, one JSON object a line, in seed order (the games' order
    whatever ran them)."""
    return "".join(json.dumps(game_line(i, r)) + "\n"
                   for i, r in enumerate(summary.results))
