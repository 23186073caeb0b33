"""A game's record: what happened, turn by turn, for a person (text) and for tools (JSON).

This module writes it (GameLog, game_record); game/log_text.py renders it as text;
game/log_record.py reads and checks a record from a file; game/log_summary.py sums a game up.

The same record replays the game: every choice a player made is in it, in order, and a replay
takes its choices from there instead of from the players' policies. The dice come from the seed,
so a replay that still matches the rules reproduces the game exactly; where the rules changed
since, the replay stops at the first choice that no longer fits, and says where.
"""

from __future__ import annotations

import re
from collections import deque

from warband.game.log_record import (  # noqa: F401 - the record's reading, as it was here
    LOG_FORMAT,
    RECORD_VERSION,
    Record,
    RecordProblem,
    as_json,
    check_record,
    first_difference,
    load_record,
    offset_of,
    plain,
    read_record,
    shown,
)
from warband.diagnostics import diag
from warband.game.log_text import number, position, render_text  # noqa: F401
from warband.limits import MAX_RECORD_EVENTS
from warband.run.errors import RulesError
from warband.run.world import Ref, World


class ReplayMismatch(Exception):
    """The recorded game and the rules no longer agree (at the record's event `index`, when
    known)."""

    def __init__(self, message: str, index: int | None = None) -> None:
        super().__init__(message)
        self.index = index


class Events(list):
    """A game's events, at most MAX_RECORD_EVENTS: a game long enough to pass it (10,000 rounds
    of 500 fighters) stops with E646 rather than filling the memory with its log, its record and
    its page, which are all made of them."""

    __slots__ = ()

    def append(self, event) -> None:
        if len(self) >= MAX_RECORD_EVENTS:
            raise RulesError(diag(
                "E646", f"the game's record would hold more than {MAX_RECORD_EVENTS:,} events "
                        f"(round {event.get('round')}): too long to record, print or draw",
                None, hint="play fewer rounds (--max-rounds), or simulate the game: warband "
                           "simulate records nothing"))
        super().append(event)


class GameLog:
    def __init__(self, record: bool = False, script: list | None = None) -> None:
        self.record = record or script is not None
        self.events: list[dict] = Events()
        # (each recorded event with its index in the record, for a mismatch to say where)
        self.script = deque(enumerate(script)) if script is not None else None
        self.at: int | None = None   # the index of the last choice taken from the record

    # who acts now, for a roll the rules do not say the roller of: the fighter activated, else
    # the side or fighter of the phase running (run/roll_labels.py names the others)
    actor: dict | None = None
    in_aftermath = False   # (the aftermath's changes are told by the engine, fighter by fighter)

    # fighters the rules' `remove` or `withdraw` took out of play, told as it happened: the
    # engine's look at the world after the action finds them again, and says nothing then
    told_out: frozenset = frozenset()

    def out_of_play(self, fighter: str, side: str, withdrawn: bool, by: dict) -> None:
        if self.record:
            self.event("withdrawn" if withdrawn else "removed", self.round_now, fighter=fighter,
                       side=side, **by)
            self.told_out = self.told_out | {(fighter, side)}

    def event(self, type: str, round: int, **data) -> None:
        if self.record:
            if type in ("removed", "withdrawn") and self.told_out:
                key = (data["fighter"], data["side"])
                if key in self.told_out:   # (the engine's look after the action: told)
                    self.told_out = self.told_out - {key}
                    return
            self.events.append({"round": round, "type": type, **data})
            self.round_now = round
            if type == "activate":
                self.actor = {"side": data["side"], "fighter": data["fighter"]}
            elif type in ("round", "setup"):
                self.actor = None
            elif type == "aftermath":
                self.actor, self.in_aftermath = None, True

    def called(self, procedure: str, fighters: list[str]) -> None:
        if self.record:
            self.event("call", self.round_now, procedure=procedure, fighters=fighters)

    def tested(self, label: str, test: str, made: bool) -> None:
        """The last roll for `label` (not far back, with no test yet) was compared by the rules
        after it was rolled: the comparison, as written with its number, and its outcome."""
        for e in reversed(self.events[-40:]):
            if e["type"] == "roll" and e.get("for") == label:
                if "needs" not in e and "test" not in e:
                    e["test"], e["made"] = test, made
                return
            if e["type"] in ("activate", "round", "phase"):
                return

    def phase(self, name: str, by: dict | None) -> None:
        """A phase of the rules begins: a header (its name, whose it is)."""
        if self.record:
            self.event("phase", self.round_now, phase=name,
                       side=by["side"] if by else None, fighter=by["fighter"] if by else None)
            self.actor = by

    def event_ran(self, name: str, when: str, why: str | None) -> None:
        """An event's rule runs (run/events.py): which, on what trigger, and why."""
        if self.record:
            self.event("event", self.round_now, event=name, when=when,
                       **({"why": why} if why is not None else {}))

    def changed(self, who: dict, field: str, old, new) -> None:
        """A rule's `set` changed a value of a fighter or a side (a flag, tokens), as it
        happens."""
        if self.record and not self.in_aftermath:
            self.event("change", self.round_now, **who, field=field, old=plain(old),
                       new=plain(new))

    # ---- pieces as values: what changed of them, told as it happens -------------------------------------
    round_now = 0   # the round of the last event
    # the pieces' state as the log last told it, and which of them were carried off by then
    seen_pieces: tuple = ((), frozenset())

    def pieces(self, world) -> None:
        """Tell what changed of the pieces since the log last looked (a piece seized, picked
        up, dropped, carried off, a flag or counter of it changed); asked after every action
        and round, and by `pick up` and `put down` before and after they change a piece."""
        if self.record:
            self.seen_pieces = piece_changes(self, self.round_now, self.seen_pieces, world)

    # ---- choices -------------------------------------------------------------------------------------
    def decided(self, kind: str, side: str | None, choice) -> None:
        if self.record:
            if kind == "destination" and type(choice) is str:   # a place: [x, y], numbers
                choice = place_of(choice)
            self.events.append({"type": "decision", "decision": kind, "by": side,
                                "choice": choice})

    def scripted(self, kind: str, labels: list | None):
        """In a replay: the recorded choice for this decision (an index into labels, or the raw
        choice when labels is None); None when not replaying."""
        if self.script is None:
            return None
        while self.script and self.script[0][1].get("type") != "decision":
            self.script.popleft()
        if not self.script:
            raise ReplayMismatch(f"the log has no more choices, and the game asks for "
                                 f"'{kind}'")
        self.at, entry = self.script.popleft()
        if entry.get("decision") != kind:
            raise ReplayMismatch(f"the log's next choice is {shown(entry.get('decision'))}, "
                                 f"and the game asks for '{kind}'", self.at)
        if labels is None:
            return entry["choice"]
        if isinstance(entry["choice"], list):   # a place, as the record writes it
            entry = {**entry, "choice": position(entry["choice"])}
        if entry["choice"] not in labels:
            allowed = ", ".join(labels)
            if len(allowed) > 200:
                allowed = allowed[:197] + "..."
            raise ReplayMismatch(f"the log chose {shown(entry['choice'])} for '{kind}', which "
                                 f"the rules no longer allow (allowed: {allowed})", self.at)
        return labels.index(entry["choice"])

    def rolled(self, value, fields: dict) -> None:
        """A roll: its dice as rolled, its value, what it is for, who rolled it and what it
        needed (run/roll_labels.roll_event)."""
        if self.record:
            by, actor = fields["by"], self.actor
            # the side the rules name, in an activation of one of its fighters: that fighter
            if by is None or actor is not None and by["fighter"] is None and \
                    by["side"] == actor["side"] and actor.get("fighter"):
                by = actor
            event = {"round": self.round_now, "type": "roll", **fields}
            del event["by"]   # (a roll is by a side and, when one acts, a fighter)
            event["side"], event["fighter"] = (by["side"], by["fighter"]) if by else (None, None)
            event["value"] = plain(value)
            self.events.append(event)


# ---- how a record writes values ------------------------------------------------------------------------
def piece_changes(log: GameLog, round_: int, before: tuple, world) -> tuple:
    """Log what changed of the pieces since `before` (the pieces and those carried off, as last
    logged); (the pieces now, those carried off now), to log the next changes from."""
    pieces_before, off_before = before
    after = world.pieces
    fighters = world.fighters
    off = frozenset(i for i, p in enumerate(after)
                    if p.carrier is not None and fighters[p.carrier].withdrawn)
    if pieces_before is after and off == off_before:
        return before
    sides = world.sides
    counts: dict[str, int] = {}
    for i, p1 in enumerate(after):
        counts[p1.kind] = number = counts.get(p1.kind, 0) + 1
        p0 = pieces_before[i] if i < len(pieces_before) else None
        name = f"{p1.kind} {number}"
        if p0 is not p1 and p0 is not None:   # (a piece placed just now is logged as placed)
            if p0.holder != p1.holder:
                if p1.holder is None:
                    log.event("released", round_, piece=name)
                else:
                    log.event("seized", round_, piece=name, side=sides[p1.holder].name)
            if p0.carrier != p1.carrier and p0.carrier is not None:
                log.event("dropped", round_, piece=name, fighter=fighters[p0.carrier].name,
                          at=point(p1.at))
            if p0.carrier != p1.carrier and p1.carrier is not None:
                log.event("picked_up", round_, piece=name, fighter=fighters[p1.carrier].name)
            for field, value in p1.values.items():
                if p0.values.get(field) != value:
                    log.event("piece", round_, piece=name, field=field,
                              old=plain(p0.values.get(field)), new=plain(value))
        if i in off and i not in off_before:
            log.event("carried_off", round_, piece=name, fighter=fighters[p1.carrier].name)
    return (after, off)


def point(p) -> list | None:
    """A point as a record holds it: [x, y] (numbers), or null for none."""
    if p is None:
        return None
    return [plain_number(p[0]), plain_number(p[1])]


_PLACE = re.compile(r"\((-?\d+(?:\.\d+)?), (-?\d+(?:\.\d+)?)\)")


def place_of(label: str):
    """A place a player chose, from its label "(3, 4.5)": [3, 4.5] (else the label)."""
    match = _PLACE.fullmatch(label)
    if match is None:
        return label
    return [plain_number(float(match.group(1))), plain_number(float(match.group(2)))]


def plain_number(x):
    """A coordinate as JSON holds it: a whole number as an int, else a float (2 places)."""
    f = float(x)
    return int(f) if f.is_integer() else round(f, 2)


def option_label(name: str, args: dict, world: World) -> str:
    """An option as a log and a script write it: an action and its targets, 'shoot Archer 2'."""
    parts = [name]
    for value in list(args.values())[1:]:
        if isinstance(value, Ref):
            holder = world.fighters if value.kind == "fighter" else world.sides
            parts.append(holder[value.index].name)
        elif type(value) is str:   # weapon profiles: the piece of equipment chosen
            parts.append(value)
    return " ".join(parts)


# ---- the record as a file ------------------------------------------------------------------------

def game_record(scenario_ref: str, scenario, seed: int, policies: dict, max_rounds,
                result, events: list, sides: dict | None = None) -> dict:
    """What `warband play -o FILE` writes: the game's settings, its result and every event.
    `sides`: the warband files that replaced a side's force (`--side`), only when there are."""
    return {
        "format": LOG_FORMAT, "version": RECORD_VERSION,
        "scenario": scenario_ref, "scenario_title": scenario.title, "seed": seed,
        "policies": policies, "max_rounds": max_rounds, **({"sides": sides} if sides else {}),
        "result": {"winner": result.winner, "scores": result.scores, "rounds": result.rounds,
                   "ended": result.ended,
                   "removed": {side: dict(sorted(k.items())) for side, k in result.kills.items()}},
        "events": events,
    }


