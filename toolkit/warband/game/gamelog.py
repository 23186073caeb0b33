"""A game's record: what happened, turn by turn, for a person (text) and for tools (JSON).

The same record replays the game: every choice a player made is in it, in order, and a replay
takes its choices from there instead of from the players' policies. The dice come from the seed,
so a replay that still matches the rules reproduces the game exactly; where the rules changed
since, the replay stops at the first choice that no longer fits, and says where.
"""

from __future__ import annotations

import json
from collections import deque
from fractions import Fraction

from warband.diagnostics import Diagnostic, diag, printable
from warband.run.world import Ref, World

LOG_FORMAT = "warband-game-log"


class ReplayMismatch(Exception):
    """The recorded game and the rules no longer agree."""


class GameLog:
    def __init__(self, record: bool = False, script: list | None = None) -> None:
        self.record = record or script is not None
        self.events: list[dict] = []
        self.script = deque(script) if script is not None else None

    def event(self, type: str, round: int, **data) -> None:
        if self.record:
            self.events.append({"round": round, "type": type, **data})

    # ---- choices -------------------------------------------------------------------------------------
    def decided(self, kind: str, side: str | None, choice) -> None:
        if self.record:
            self.events.append({"type": "decision", "decision": kind, "by": side,
                                "choice": choice})

    def scripted(self, kind: str, labels: list | None):
        """In a replay: the recorded choice for this decision (an index into labels, or the raw
        choice when labels is None); None when not replaying."""
        if self.script is None:
            return None
        while self.script and self.script[0].get("type") != "decision":
            self.script.popleft()
        if not self.script:
            raise ReplayMismatch(f"the log has no more choices, and the game asks for "
                                 f"'{kind}'")
        entry = self.script.popleft()
        if entry.get("decision") != kind:
            raise ReplayMismatch(f"the log's next choice is '{entry.get('decision')}', and the "
                                 f"game asks for '{kind}'")
        if labels is None:
            return entry["choice"]
        if entry["choice"] not in labels:
            raise ReplayMismatch(f"the log chose '{entry['choice']}' for '{kind}', which the "
                                 f"rules no longer allow (allowed: {', '.join(labels)})")
        return labels.index(entry["choice"])

    def rolled(self, dice: str, value) -> None:
        if self.record:
            self.events.append({"type": "roll", "dice": dice, "value": plain(value)})


# ---- how a record writes values ------------------------------------------------------------------------
def plain(v):
    """A value as JSON holds it: a whole Fraction as an int, another as a float, a reference
    by its repr."""
    if isinstance(v, Fraction):
        return int(v) if v.denominator == 1 else float(v)
    if isinstance(v, Ref):
        return repr(v)
    return v


def position(p) -> str:
    """A point as a log writes it: (3, 4.5), or - for none."""
    if p is None:
        return "-"
    return f"({number(p[0])}, {number(p[1])})"


def number(x) -> str:
    return str(int(x)) if float(x).is_integer() else f"{float(x):.2f}".rstrip("0")


def option_label(name: str, args: dict, world: World) -> str:
    """An option as a log and a script write it: an action and its targets, 'shoot Archer 2'."""
    parts = [name]
    for value in list(args.values())[1:]:
        if isinstance(value, Ref):
            holder = world.fighters if value.kind == "fighter" else world.sides
            parts.append(holder[value.index].name)
    return " ".join(parts)


# ---- reading ------------------------------------------------------------------------------------------

def render_text(log: dict) -> str:
    """The record as a person reads it (each event a line)."""
    lines = [f"{log['scenario_title']} - seed {log['seed']}"]
    policies = ", ".join(f"{k}={v}" for k, v in log.get("policies", {}).items())
    if policies:
        lines.append(f"players: {policies}")
    for e in log["events"]:
        kind = e["type"]
        if kind == "roll":
            lines.append(f"      {e['dice']} rolled {e['value']}")
            continue
        if kind == "decision":
            if e["decision"] not in ("action", "destination", "placement"):
                lines.append(f"      {e['by']} decides {e['decision']}: {e['choice']}")
            continue
        if kind == "setup":
            lines.append("")
            lines.append("Set-up")
        elif kind == "round":
            lines.append("")
            lines.append(f"Round {e['round']}")
        elif kind == "place":
            by = f" ({e['by']})" if e.get("by") else ""
            where = f"from {e['at']} to {e['to']}" if e.get("to") else f"at {e['at']}"
            lines.append(f"  {e['marker']} placed {where}{by}")
        elif kind == "deploy":
            lines.append(f"  {e['side']} deploys in {e['zone']}")
        elif kind == "activate":
            lines.append(f"  {e['fighter']} ({e['side']}): {e['action']}")
        elif kind == "travel":
            lines.append(f"      moves {e['start']} -> {e['to']}")
        elif kind == "enter":
            lines.append(f"      enters a {e['marker']}")
        elif kind == "result":
            lines.append(f"      result: {e['value']}")
        elif kind == "idle":
            lines.append(f"  {e['fighter']} has nothing it may do")
        elif kind == "aftermath":
            lines.append("")
            lines.append("After the game")
        elif kind == "change":
            lines.append(f"  {e['fighter']}: {e['field']} {e['old']} -> {e['new']}")
        elif kind == "concede":
            lines.append(f"  {e['side']} concedes")
        elif kind == "end":
            lines.append("")
            scores = ", ".join(f"{k} {v}" for k, v in e["scores"].items())
            winner = e["winner"] or "none (a draw)"
            lines.append(f"Game over after round {e['round']} ({_why(e['reason'])}). "
                         f"Winner: {winner}. Scores: {scores}")
    # names come from files (warbands, rules) and a replayed record: shown with their control
    # characters escaped, a newline in one included, so one event stays one line
    return "".join(printable(line) + "\n" for line in lines)


def _why(reason: str) -> str:
    return {"limit": "the last round was played", "condition": "the scenario's end condition",
            "conceded": "a side conceded", "eliminated": "only one side has fighters left",
            "stuck": "no side could act"}.get(reason, reason)


# ---- the record as a file ------------------------------------------------------------------------

def game_record(scenario_ref: str, scenario, seed: int, policies: dict, max_rounds,
                result, events: list) -> dict:
    """What `warband play -o FILE` writes: the game's settings, its result and every event."""
    return {
        "format": LOG_FORMAT, "version": 1,
        "scenario": scenario_ref, "scenario_title": scenario.title, "seed": seed,
        "policies": policies, "max_rounds": max_rounds,
        "result": {"winner": result.winner, "scores": result.scores, "rounds": result.rounds,
                   "ended": result.ended,
                   "kills": {side: dict(sorted(k.items())) for side, k in result.kills.items()}},
        "events": events,
    }


def read_record(path: str) -> tuple[dict | None, Diagnostic | None]:
    """A record written by `warband play -o`, or the diagnostic (E916) why it is not one."""
    try:
        with open(path, encoding="utf-8") as fh:
            record = json.load(fh)
    except OSError as error:
        return None, diag("E916", f"cannot read {path}: {error.strerror}", None)
    except (UnicodeDecodeError, json.JSONDecodeError) as error:
        return None, diag("E916", f"{path} is not a game record: {error}", None,
                          hint="a record is what `warband play -o FILE` writes")
    if not isinstance(record, dict) or record.get("format") != LOG_FORMAT or \
            not isinstance(record.get("events"), list) or \
            not isinstance(record.get("seed"), int) or \
            not isinstance(record.get("scenario"), str):
        return None, diag("E916", f"{path} is not a game record", None,
                          hint="a record is what `warband play -o FILE` writes")
    return record, None


def first_difference(recorded: list, played: list) -> int | None:
    """The index of the first event where a replay differs from its record, or None."""
    for i, (a, b) in enumerate(zip(recorded, played)):
        if a != b:
            return i
    if len(recorded) != len(played):
        return min(len(recorded), len(played))
    return None

