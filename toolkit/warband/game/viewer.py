"""A game to watch: its record cut into steps, and the board's state after each (plain data).

A record (game/gamelog.py) says what happened, but not everything a picture of the board needs:
where each fighter was deployed, which flags it carries, each side's tokens. So the page is not
drawn from the record alone: the game is played (or replayed from its record) by a WatchedGame,
which notes the world as it is after every game statement and every action, keyed by how many
events the record held at that moment. `view` then cuts the record into steps (an activation
with the choices and dice that led to it; a round's start; a deployment; ...) and gives each
step the last state noted before the next step begins. Everything here is JSON-able data: the
page (game/page.py) embeds it, the SVG (game/svg.py) draws one state of it.

Event kinds this module does not know (a newer engine writes more) start no step and are shown
as the text line the log gives them, or as their fields when it gives none: nothing is drawn
for them.
"""

from __future__ import annotations

import json
from fractions import Fraction

from warband.diagnostics import diag
from warband.game.engine import Game
from warband.game.gamelog import number, render_text
from warband.limits import MAX_PAGE_STATES
from warband.run.errors import RulesError
from warband.run.evaluate import infinite
from warband.run.places import places

# events that begin a step of the page (an activation, a round, ...); the choices made just
# before one (which fighter, which action) belong to it
STEP_EVENTS = frozenset({"setup", "round", "deploy", "activate", "idle", "stuck", "concede",
                         "aftermath", "end",
                         "return"})   # (back into play)


class WatchedGame(Game):
    """A Game that notes the world after every statement and action (`seen`: events recorded
    then -> the state), for the page. Only the game's own worlds: a greedy player's look-ahead
    plays with a log of its own (lookahead.trials), and those worlds are not the game's."""

    def __init__(self, *args, **kwargs) -> None:
        kwargs["record"] = True
        super().__init__(*args, **kwargs)
        self.own_log = self.log
        self.seen: dict[int, dict] = {}
        self.flags, self.counters = fighter_states(self.ruleset)
        self.noted = 0   # fighters' places noted, at most MAX_PAGE_STATES

    def look(self, world) -> None:
        if self.log is self.own_log:
            self.noted += len(world.fighters)
            if self.noted > MAX_PAGE_STATES:   # (400 fighters over 40 rounds: a MemoryError)
                raise RulesError(diag(
                    "E646", f"the game page would show more than {MAX_PAGE_STATES:,} places of "
                            f"fighters ({len(world.fighters)} fighters, at every step up to "
                            f"round {self.round}): too large to draw", None,
                    hint="draw fewer rounds (--max-rounds)"))
            self.seen[len(self.log.events)] = snapshot(world, self.board, self.flags,
                                                       self.counters)

    def statement(self, stmt, env, world, next_):
        def then(env, world):
            self.look(world)
            return next_(env, world)
        return super().statement(stmt, env, world, then)

    def activate_now(self, stmt, ref, exclude, world, generated=False):
        self.look(world)
        name, world = super().activate_now(stmt, ref, exclude, world, generated)
        self.look(world)
        return name, world

    def travel(self, ref, reach, away, world, target=None, through=None):
        world = super().travel(ref, reach, away, world, target, through)
        self.look(world)
        return world

    def deploy_now(self, stmt, side, zone_name, world):
        world = super().deploy_now(stmt, side, zone_name, world)
        self.look(world)
        return world

    def bring_back_now(self, stmt, ref, zone_name, world):   # back into play
        world = super().bring_back_now(stmt, ref, zone_name, world)
        self.look(world)
        return world

    def concede_now(self, ref, world):
        self.look(world)
        return super().concede_now(ref, world)

    def check_end(self, world) -> None:
        self.look(world)
        super().check_end(world)


def fighter_states(ruleset) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The names of the fighters' flags and counters, as the rules declare them."""
    states = [s for s in ruleset.states.values() if s.owner == "fighter"]
    return (tuple(s.name for s in states if s.kind == "flag"),
            tuple(s.name for s in states if s.kind == "counter"))


def plain(value):
    """A value as the page shows it (a Fraction as a number)."""
    if infinite(value):   # the distance to nothing (run/evaluate.FAR)
        return "infinite" if value > 0 else "-infinite"
    if isinstance(value, Fraction):
        return int(value) if value.denominator == 1 else round(float(value), 2)
    if isinstance(value, (bool, int, str)) or value is None:
        return value
    if isinstance(value, float):
        return round(value, 2)
    return str(value)


def snapshot(world, board, flags: tuple[str, ...], counters: tuple[str, ...]) -> dict:
    """What the page shows of a world: each fighter's place, whether it is out of play, its
    badges (flags set, counters not zero); each side's values; the pieces on the board."""
    fighters = []
    for f in world.fighters:
        badges = [name for name in flags if f.values.get(name) is True]
        badges += [f"{name} {number(v)}" for name in counters
                   if isinstance(v := f.values.get(name), (int, float, Fraction))
                   and not isinstance(v, bool) and v != 0]
        fighters.append({
            "at": [plain(f.position[0]), plain(f.position[1])] if f.position is not None
            else None,
            "out": "withdrawn" if f.withdrawn else "removed" if f.removed else "",
            "badges": badges})
        if f.values.get("#places") and f.position is not None and not f.removed:
            # units of models with places: where each of its other models stands
            fighters[-1]["models"] = [[plain(x), plain(y)] for x, y in places(f)[1:]]
    sides = [{"values": [[name, plain(v)] for name, v in s.values.items()],
              "conceded": s.conceded} for s in world.sides]
    pieces = [[getattr(p, "kind", "?"), _point(getattr(p, "at", None)),
               _point(getattr(p, "to", None)), plain(getattr(p, "radius", 0.0))]
              # (terrain with extent: a polygon's corners, after the four)
              + ([[_point(c) for c in p.outline]] if getattr(p, "outline", ()) else [])
              for p in board.pieces]
    return {"fighters": fighters, "sides": sides, "pieces": pieces}


def _point(p):
    return [plain(p[0]), plain(p[1])] if p is not None else None


def board_of(game: Game) -> dict:
    """The board's size and zones."""
    b = game.board
    zones = [{"name": name, "shape": z.shape, "where": list(z.where), "size": plain(z.size),
              "corners": [_point(c) for c in z.corners]}
             for name, z in b.zones.items()]
    return {"width": plain(b.width), "height": plain(b.height), "squares": bool(b.squares),
            "zones": zones}


# ---- the record cut into steps ----------------------------------------------------------------

def step_starts(events: list) -> list[int]:
    """Where each step begins: at an event of STEP_EVENTS, or at the run of choices just
    before it; in a game whose rules activate nobody, at every event but a choice or a roll
    (event by event). The events before the first such event are a step of their own."""
    activations = any(e.get("type") == "activate" for e in events)
    starts: list[int] = []
    for i, e in enumerate(events):
        kind = e.get("type")
        if kind in STEP_EVENTS if activations else kind not in ("decision", "roll"):
            j = i
            while j > 0 and events[j - 1].get("type") == "decision" and \
                    (not starts or j - 1 >= starts[-1] + 1):
                j -= 1
            starts.append(j)
    if not starts or starts[0] != 0:
        starts.insert(0, 0)
    return sorted(set(starts))


def lines_of(events: list) -> list[str]:
    """The log's lines for these events (as `warband play` writes them); an event the log does
    not write a line for (a kind newer than this module) by its text or its fields."""
    out = []
    for e in events:
        if e.get("type") == "phase":   # (the log tells a header with what follows it)
            whose = f"{e['side']}: " if e.get("side") else ""
            out.append(f"-- {whose}{e.get('phase')} --")
            continue
        text = render_text({"scenario_title": "", "seed": 0, "events": [e]})
        lines = [line.strip() for line in text.split("\n")[1:] if line.strip()]
        if not lines and e.get("type") not in ("decision",):
            known = e.get("text")
            lines = [str(known) if isinstance(known, str) else
                     f"{e.get('type')}: " + ", ".join(f"{k} {_short(v)}" for k, v in e.items()
                                                      if k not in ("type", "round"))]
        out += lines
    return out


def _short(value) -> str:
    text = value if isinstance(value, str) else json.dumps(value)
    return text if len(text) <= 80 else text[:77] + "..."


def title_of(events: list, round_: int) -> str:
    """A step's heading: its first step event in words."""
    for e in events:
        kind = e.get("type")
        if kind in STEP_EVENTS:
            if kind == "setup":
                return "Set-up"
            if kind == "round":
                return f"Round {round_}"
            if kind == "activate":
                return f"Round {round_}: {e['fighter']} ({e['side']}): {e['action']}"
            if kind == "deploy":
                return f"Set-up: {e['side']} deploys in {e['zone']}"
            if kind == "aftermath":
                return "After the game"
            if kind == "end":
                return "Game over"
            return f"Round {round_}: " + (lines_of([e]) or [kind])[0]
    for e in events:   # (a game stepped event by event)
        if e.get("type") not in ("decision", "roll"):
            return f"Round {round_}: " + (lines_of([e]) or [str(e.get("type"))])[0]
    return "Before the game"


def view(record: dict, game: WatchedGame) -> dict:
    """The page's data: the board, the sides and fighters, the distinct states, and the steps
    (each with its round, heading, log lines and state)."""
    events = record["events"]
    seen = sorted(game.seen.items())
    final = game.final
    if final is not None:   # the end of the game, after any aftermath
        seen.append((len(events), snapshot(final, game.board, game.flags, game.counters)))
    states: list[dict] = []
    index: dict[str, int] = {}

    def state_at(end: int) -> int:
        """The last state noted with at most `end` events recorded (the first one if none)."""
        chosen = seen[0][1] if seen else None
        for count, state in seen:
            if count > end:
                break
            chosen = state
        key = json.dumps(chosen, sort_keys=True)
        if key not in index:
            index[key] = len(states)
            states.append(chosen if chosen is not None else {"fighters": [], "sides": [],
                                                             "pieces": []})
        return index[key]

    starts = step_starts(events)
    names = [f.name for f in (final or game.scenario.start()).fighters]
    steps = []
    round_ = 0
    for n, start in enumerate(starts):
        end = starts[n + 1] if n + 1 < len(starts) else len(events)
        part = events[start:end]
        for e in part:
            if isinstance(e.get("round"), int):
                round_ = e["round"]
                break
        actor = next((e.get("fighter") for e in part if e.get("type") == "activate"), None)
        steps.append({"round": round_, "title": title_of(part, round_),
                      "lines": lines_of(part), "state": state_at(end),
                      "actor": names.index(actor) if actor in names else None})
    world = final or game.scenario.start()
    return {
        "title": record["scenario_title"], "scenario": record["scenario"],
        "seed": record["seed"], "board": board_of(game),
        "sides": list(game.scenario.side_names),
        "fighters": [{"name": f.name, "side": f.side} for f in world.fighters],
        "states": states, "steps": steps, "result": record["result"],
    }


def state_after_round(data: dict, round_: int) -> int | None:
    """The state at the end of a round (0: after set-up), or None when the game had no such
    round."""
    if round_ > data["result"]["rounds"]:
        return None
    chosen = None
    for step in data["steps"]:
        if step["round"] > round_:
            break
        chosen = step["state"]
    return chosen if chosen is not None else (0 if data["states"] else None)
