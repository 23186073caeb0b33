"""A game's record as a person reads it: one line an event, under round, turn and phase headers.

The record (game/gamelog.py) is the source; this only words it. Names come from files
(warbands, rules) and from records anyone may send, so every line is printed with its control
characters escaped (a newline in a name included: one event stays one line).
"""

from __future__ import annotations

from warband.diagnostics import printable
from warband.run.evaluate import infinite


def number(x) -> str:
    if infinite(x):   # the distance to nothing (run/evaluate.FAR)
        return "infinite" if x > 0 else "-infinite"
    return str(int(x)) if float(x).is_integer() else f"{float(x):.2f}".rstrip("0")


def position(p) -> str:
    """A point as a log writes it: (3, 4.5), or - for none."""
    if p is None:
        return "-"
    return f"({number(p[0])}, {number(p[1])})"


def _shown_point(p) -> str:
    """A point of a record ([x, y]), or the text an older record wrote."""
    if isinstance(p, list) and len(p) == 2:
        return position(p)
    return "-" if p is None else str(p)


def _value(v) -> str:
    if v is True:
        return "yes"
    if v is False:
        return "no"
    if v is None:
        return "none"
    return str(v)


def roll_line(e: dict) -> str:
    """`3d6 rolled 11 for roll in attack (family, Daddy), needs 14+: made`."""
    line = f"{e['dice']} rolled {_value(e['value'])}"
    if e.get("for"):
        line += f" for {e['for']}"
    if e.get("side"):
        line += f" ({e['side']}, {e['fighter']})" if e.get("fighter") else f" ({e['side']})"
    if e.get("needs"):
        made = e.get("made")
        line += f", needs {e['needs']}" + ("" if made is None else
                                            ": made" if made else ": missed")
    elif e.get("test"):   # compared later by the rules: `roll < band.stun (15): no`
        line += f"; {e['test']}: {'yes' if e.get('made') else 'no'}"
    return line


def change_line(e: dict) -> str:
    """A value a rule set: a flag set or cleared, tokens spent or gained, another value."""
    who = e.get("fighter") or e.get("side") or "?"
    field, old, new = e["field"], e.get("old"), e.get("new")
    if old is None and isinstance(new, str):   # the roster between games (Game.campaign)
        if field == "hired":
            return f"{who} hires {new}"
        if field == "equipment" and new.startswith(("given ", "lost ")):
            return f"{who} is {new}" if new.startswith("given ") else f"{who} has {new}"
    if isinstance(new, bool) and (old is None or isinstance(old, bool)):
        return f"{who} is {'now' if new else 'no longer'} {field}"
    if isinstance(old, (int, float)) and isinstance(new, (int, float)) and \
            not isinstance(old, bool):   # tokens spent or gained, a counter moved: by how much
        return f"{who}: {field} {number(old)} -> {number(new)} ({new - old:+g})"
    return f"{who}: {field} {_value(old)} -> {_value(new)}"


def _by(e: dict) -> str:
    """Who removed a fighter, as a line of the log ends: " by Grenadier (empire)", or nothing
    when the rules name no one."""
    fighter, side = e.get("by"), e.get("by_side")
    if fighter and side:
        own = " (own side)" if side == e.get("side") else ""
        return f" by {fighter} ({side}){own}"
    return f" by {side}" if side else ""


def render_text(log: dict) -> str:
    """The record as a person reads it (each event a line)."""
    lines = [f"{log['scenario_title']} - seed {log['seed']}"]
    policies = ", ".join(f"{k}={v}" for k, v in log.get("policies", {}).items())
    if policies:
        lines.append(f"players: {policies}")
    sides = ", ".join(f"{k}={v}" for k, v in log.get("sides", {}).items())
    if sides:
        lines.append(f"warbands: {sides}")
    last_phase = None   # a phase told again for the same side is not a new header
    aftermath = False   # (its changes are told at the left, as the game's result is)
    header = None   # a phase's header, told once something happens in the phase
    for e in log["events"]:
        kind = e["type"]
        if kind == "phase":
            key = (e.get("phase"), e.get("side"))
            if key != last_phase:
                whose = f"{e['side']}: " if e.get("side") else ""
                header = f"  -- {whose}{e['phase']} --"
            last_phase = key
            continue
        if kind in ("setup", "round", "aftermath", "end"):
            header = None   # (a phase in which nothing happened has no header)
        elif kind != "decision" or e["decision"] not in ("action", "destination", "placement"):
            if header is not None:
                lines.append(header)
                header = None
        if kind == "roll":
            lines.append(f"      {roll_line(e)}")
            continue
        if kind == "call":   # a step on others than the fighter acting: a blast's others
            lines.append(f"      {e['procedure']} on {', '.join(e['fighters'])}")
            continue
        if kind == "decision":
            if e["decision"] not in ("action", "destination", "placement"):
                lines.append(f"      {e['by']} decides {e['decision']}: {e['choice']}")
            continue
        if kind in ("setup", "round", "aftermath"):
            last_phase = None
        if kind == "setup":
            lines.append("")
            lines.append("Set-up")
        elif kind == "round":
            lines.append("")
            lines.append(f"Round {e['round']}")
        elif kind == "place":
            by = f" ({e['by']})" if e.get("by") else ""
            where = f"from {_shown_point(e['at'])} to {_shown_point(e['to'])}" \
                if e.get("to") else f"at {_shown_point(e['at'])}"
            if e.get("area"):   # terrain with extent
                where = "as an area " + ", ".join(_shown_point(c) for c in e["area"])
            elif e.get("radius") is not None:
                where = f"as an area round {_shown_point(e['at'])}, radius {e['radius']}"
            lines.append(f"  {e['marker']} placed {where}{by}")
        elif kind == "deploy":
            lines.append(f"  {e['side']} deploys in {e['zone']}")
        elif kind == "activate":
            lines.append(f"  {e['fighter']} ({e['side']}): {e['action']}")
        elif kind == "travel":
            start = e["at"] if "at" in e else e.get("start")   # (`start` in a version-1 record)
            lines.append(f"      moves {_shown_point(start)} -> {_shown_point(e['to'])}")
        elif kind == "enter":
            lines.append(f"      enters a {e['marker']}")
        elif kind == "template":   # areas and templates (game/facing.py)
            lines.append(f"      {e['area']}: {e['under']} under it")
        elif kind == "result":
            lines.append(f"      result: {e['value']}")
        elif kind == "idle":
            why = e.get("why")
            if why:
                lines.append(f"  {e['fighter']} cannot act:")
                lines += [f"      {action}: needs {requirement}"
                          for action, requirement in why.items()]
            else:
                lines.append(f"  {e['fighter']} has nothing it may do")
        elif kind == "stuck":
            lines.append(f"  {e['fighter']} cannot move: {e['why']}")
        elif kind == "models":   # a unit of several models loses some (lang/units.py)
            lost = "a model" if e["lost"] == 1 else f"{e['lost']} models"
            lines.append(f"      {e['fighter']} ({e['side']}) loses {lost} "
                         f"({e['left']} of {e['start']} left)")
        elif kind == "removed":
            lines.append(f"      {e['fighter']} ({e['side']}) is removed from play{_by(e)}")
        elif kind == "event":   # an event's rule runs (run/events.py)
            why = f": {e['why']}" if e.get("why") else ""
            lines.append(f"      event {e['event']} ({e['when']}){why}")
        elif kind == "withdrawn":   # out of play, not a casualty: escaped, fled
            lines.append(f"      {e['fighter']} ({e['side']}) leaves the table{_by(e)}")
        elif kind == "return":   # back into play
            lines.append(f"      {e['fighter']} ({e['side']}) comes back into play in "
                         f"{e['zone']} at {_shown_point(e['at'])}")
        elif kind == "aftermath":
            aftermath = True
            lines.append("")
            lines.append("After the game")
        elif kind == "change":
            lines.append(("  " if aftermath else "      ") + change_line(e))
        # pieces as values (pieces.py): a piece seized, let go, its flag or counter changed
        elif kind == "seized":
            lines.append(f"      {e['piece']} is seized by {e['side']}")
        elif kind == "released":
            lines.append(f"      {e['piece']} is held by nobody")
        elif kind == "piece":
            lines.append(f"      {e['piece']}: {e['field']} {e['old']} -> {e['new']}")
        elif kind == "picked_up":
            lines.append(f"      {e['fighter']} picks up {e['piece']}")
        elif kind == "dropped":
            lines.append(f"      {e['piece']} is dropped by {e['fighter']} at "
                         f"{_shown_point(e['at'])}")
        elif kind == "carried_off":
            lines.append(f"      {e['fighter']} carries {e['piece']} off the table")
        elif kind == "card":   # decks and bags (run/decks.py)
            whose = f" ({e['side']})" if e["side"] is not None else ""
            lines.append(f"      {e['deck']}{whose}: " + (
                "the discards shuffled back in" if e["what"] == "shuffled" else
                f"{e['card']} {e['what']}"))
        elif kind == "concede":
            lines.append(f"  {e['side']} concedes")
        elif kind == "end":
            lines += end_lines(e)
    return "".join(printable(line) + "\n" for line in lines)


def end_lines(e: dict) -> list[str]:
    """The summary: how the game ended, the winner and why, each side's score by its rule, and
    who is still standing."""
    lines = [""]
    scores = ", ".join(f"{k} {v}" for k, v in e["scores"].items())
    winner = e["winner"] or "none (a draw)"
    lines.append(f"Game over after round {e['round']} ({why_ended(e['reason'])}). "
                 f"Winner: {winner}. Scores: {scores}")
    if e.get("why"):
        lines.append(f"  {e['why']}")
    for rule in e.get("score_rules") or ():
        lines.append(f"  score of {rule['side']}: {rule['value']} ({rule['rule']})")
    for side, names in (e.get("survivors") or {}).items():
        standing = ", ".join(names) if names else "nobody"
        lines.append(f"  {side} still in play: {standing}")
    return lines


def why_ended(reason: str) -> str:
    return {"limit": "the last round was played", "condition": "the scenario's end condition",
            "conceded": "a side conceded", "eliminated": "only one side has fighters left",
            "stuck": "no side could act"}.get(reason, reason)
