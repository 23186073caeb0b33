"""Events (issue 36, "Events"): `event NAME when TRIGGER { ... }`, a rule that runs when a
fighter is removed (and by whom), a side falls to a part of its start, a round starts or ends,
or a counter reaches a value; declared in a ruleset, a house rule or a scenario.

Two systems: a toy game whose morale is all events (tests/events/toy-morale.rules) and a house
rule of Super Simple Skirmish (tests/events/sss-last-stand.rules). Checked: generated code and
the interpreter play the same games; every event fires when, and only when, its trigger says
(invariants over seeded games); chains of events end (an event does not fire again inside its
own rule); exact odds follow an event's rolls; the log says which event ran and why, and the
record replays; players that look ahead play on; misuse is E328, E329, E201 and E204.
"""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest
from typer.testing import CliRunner

from warband.cli import app
from warband.game.engine import Game
from warband.game.scenario import load_scenario
from warband.lang.compiler import compile_text
from warband.run.decisions import Policies
from warband.run.interpreter import Interpreter
from warband.run.world import FighterSpec, Ref, make_world

HERE = Path(__file__).parent / "events"
SYSTEMS = [HERE / "toy-morale.rules", HERE / "sss-last-stand.rules"]


def scenario(path: Path):
    found = load_scenario(str(path))
    assert not isinstance(found, list), [f"{d.span}: {d.message}" for d in found]
    return found


@pytest.fixture(scope="module", params=SYSTEMS, ids=lambda p: p.stem)
def system(request):
    return scenario(request.param)


def test_rules_with_events_inside_rules_are_run_by_the_interpreter(system):
    """Events that fire inside a rule (removed, falls, reaches) run where the rule is, in the
    interpreter: a game asked for generated code plays in the interpreter, the same games."""
    assert Game(system, 1).interp.compiled is False
    for seed in range(1, 6):
        fast, slow = Game(system, seed, Policies("random")), Game(system, seed, Policies("random"))
        slow.interp.compiled = False
        a, b = fast.play(), slow.play()
        assert (a.winner, a.rounds, a.scores) == (b.winner, b.rounds, b.scores)
        assert fast.final.key() == slow.final.key()


def _events(game) -> list[dict]:
    return [e for e in game.state.log.events if e["type"] == "event"]


def test_each_event_fires_when_its_trigger_says(system):
    """Over seeded games: one `loss`/`kill` per fighter out of play (with `by`, per fighter
    removed by a fighter); a side's `falls to 1/2` once, when it crossed half; and the counters
    the rules keep in those events agree with the game's end."""
    toy = system.ruleset.id == "toy-morale"
    for seed in range(1, 9):
        game = Game(system, seed, Policies("random"), record=True)
        game.play()
        world, ran = game.final, _events(game)
        starts = {s.name: sum(1 for f in world.fighters if f.side == i)
                  for i, s in enumerate(world.sides)}
        for i, s in enumerate(world.sides):
            out = [f for f in world.fighters if f.side == i and f.removed]
            if toy:
                kills = sum(1 for f in world.fighters if f.removed and f.removed_by is not None
                            and f.removed_by[0] is not None and f.removed_by[1] == i)
                assert s.values["Kills"] == kills
                assert s.values["Rounds"] == game.state.round
            else:
                assert s.values["Losses"] == len(out)
            fell = [e for e in ran if e["event"] in ("rout", "shaken") and
                    e["why"].startswith(f"{s.name}:")]
            crossed = len(out) * 2 >= starts[s.name]
            assert len(fell) == (1 if crossed else 0), (seed, s.name, fell)
            if fell:   # the count said is the one at the crossing: half or fewer, from above
                left = int(fell[0]["why"].split(": ")[1].split(" of ")[0])
                assert left * 2 <= starts[s.name] < (left + 1) * 2
        assert all(e["round"] >= 1 for e in ran)


def test_the_log_says_which_event_ran_and_why(tmp_path):
    game = Game(scenario(SYSTEMS[0]), 3, Policies("random"), record=True)
    game.play()
    ran = _events(game)
    kinds: dict = {}
    for e in ran:
        kinds.setdefault(e["event"], e)   # (the first of each)
    assert kinds["dawn"] == {"round": 1, "type": "event", "event": "dawn", "when": "round starts"}
    assert kinds["kill"]["when"] == "fighter f removed by g" and " by Ann" in kinds["kill"]["why"]
    assert kinds["rout"]["why"] == "blue: 2 of 4 left"
    # the event runs where it happens: after the removal it answers, before the next action
    i = game.state.log.events.index(kinds["kill"])
    assert game.state.log.events[i - 1]["type"] == "removed"
    result = CliRunner().invoke(app, ["play", str(SYSTEMS[0]), "--seed", "3"])
    assert result.exit_code == 0 and "event rout (side s falls): blue: 2 of 4 left" in \
        result.output


def test_a_record_with_events_replays(tmp_path):
    out = tmp_path / "game.json"
    runner = CliRunner()
    played = runner.invoke(app, ["play", str(SYSTEMS[0]), "--seed", "5", "-o", str(out)])
    assert played.exit_code == 0, played.output
    replayed = runner.invoke(app, ["play", str(SYSTEMS[0]), "--replay", str(out)])
    assert replayed.exit_code == 0, replayed.output


@pytest.mark.parametrize("policy", ["greedy", "mcts:4"])
def test_players_that_look_ahead_play_on_through_events(policy):
    """A look-ahead clones the state and plays on through events' rules: the same game for the
    same seed, and the game's own state untouched by it."""
    found = scenario(SYSTEMS[0])
    results = []
    for _ in range(2):
        game = Game(found, 2, Policies(policy))
        result = game.play()
        results.append((result.winner, result.rounds, result.scores, game.final.key()))
    assert results[0] == results[1]


ROUNDS = '''
ruleset "rounds"
counter Wounds on fighter
counter Score on side
action strike(attacker: fighter, target: fighter) requires target.side != attacker.side {
  if d6 >= 4 {
    set target.Wounds += 1
    if target.Wounds >= 2 {
      remove target
    }
  }
}
event dawn "A point each round to the side with fewer wounds taken" when round starts {
  if total(f.Wounds for f in red.fighters) < total(f.Wounds for f in blue.fighters) {
    set red.Score += 1
  }
}
scenario rounds {
  board 12 by 12 inches
  side red { fighter "Ann" count 3 }
  side blue { fighter "Bob" count 3 }
  zone west = edge west depth 3
  zone east = edge east depth 3
  setup {
    deploy red in west
    deploy blue in east
  }
  round {
    for each x in red.fighters { activate x using strike }
    for each x in blue.fighters { activate x using strike }
    return
  }
  event dusk when round ends {
    set blue.Score += 1
  }
  rounds 5
  score red = red.Score
  score blue = blue.Score
}
'''


def test_events_of_a_round_leave_actions_to_generated_code(tmp_path):
    """Only events of a round: the actions stay generated code (the round block, which marks
    where a round starts and ends, runs in the interpreter), the same games both ways; `round
    ends` runs before a bare `return` that ends the block."""
    path = tmp_path / "rounds.rules"
    path.write_text(ROUNDS, encoding="utf-8")
    found = scenario(path)
    for seed in range(1, 6):
        fast, slow = Game(found, seed, Policies("random")), Game(found, seed, Policies("random"))
        slow.interp.compiled = False
        assert fast.interp.compiled
        a, b = fast.play(), slow.play()
        assert (a.winner, a.rounds, a.scores) == (b.winner, b.rounds, b.scores)
        final = fast.final.freeze() if hasattr(fast.final, "freeze") else fast.final
        assert final.key() == slow.final.key()   # (generated code's last World: a Draft)
        # (a game over in the middle of a round, a side eliminated, does not end that round)
        assert final.sides[1].values["Score"] == a.rounds - (a.ended != "limit")
        assert "procedure strike" not in fast.interp.programs[None].fallbacks


@pytest.mark.parametrize("seed", [1, 2])
def test_a_game_resumed_from_a_copy_of_its_state_plays_on_through_events(system, seed,
                                                                        monkeypatch):
    """As tests/test_game_state.py asks of the shipped games: a copy of the state taken at a
    decision plays on as the game did, events and all (nothing of theirs is kept aside)."""
    from test_game_state import _resumed_from_a_decision
    game, ended = _resumed_from_a_decision(system, seed, monkeypatch, "action", at_round=1)
    assert ended is not None
    if type(ended).__name__ == "Draft":
        ended = ended.freeze()
    assert ended == game.ended


CHAIN = '''
ruleset "chain"
counter Wounds on fighter
counter Fallen on side
action hit(a: fighter, t: fighter) -> number requires t.side != a.side {
  if d6 >= 4 {
    set t.Wounds += 1
  }
  return t.side.Fallen
}
event down when f.Wounds reaches 1 {
  remove f
}
event grief "A fighter down takes a friend with it, on a 5 or 6" when fighter f removed {
  set f.side.Fallen += 1
  for each x in f.side.fighters {
    if d6 >= 5 {
      remove x
    }
  }
}
event broken when side s falls to 0 {
  set s.Fallen += 10
}
'''


@pytest.fixture(scope="module")
def chain():
    compiled = compile_text(CHAIN, "chain.rules")
    assert compiled.ruleset is not None, compiled.diagnostics
    return compiled.ruleset


def test_exact_odds_follow_chains_of_events(chain):
    """`hit` on one of two fighters: half the time it wounds; the wounded goes down (`down`),
    `grief` runs for it and, on a 5 or 6, takes its friend, whose removal fires `grief`'s own
    rule no more (it is running) but fires `broken` (the side is gone). Worked out by hand."""
    world = make_world(chain, [FighterSpec("A", 0), FighterSpec("B", 1), FighterSpec("C", 1)])
    a, b = Ref("fighter", 0), Ref("fighter", 1)
    dist = Interpreter(chain, Policies("first")).exact("hit", {"a": a, "t": b}, world)
    assert dict(dist.items()) == {0: Fraction(1, 2), 1: Fraction(1, 3), 11: Fraction(1, 6)}


def test_sampled_runs_agree_with_the_exact_odds(chain):
    world = make_world(chain, [FighterSpec("A", 0), FighterSpec("B", 1), FighterSpec("C", 1)])
    a, b = Ref("fighter", 0), Ref("fighter", 1)
    counts: dict = {}
    interp = Interpreter(chain, Policies("first"))
    for _ in range(3000):
        value, _w = interp.sample("hit", {"a": a, "t": b}, world)
        counts[value] = counts.get(value, 0) + 1
    assert set(counts) == {0, 1, 11}
    assert abs(counts[11] / 3000 - 1 / 6) < 0.03 and abs(counts[0] / 3000 - 1 / 2) < 0.04


def test_an_event_does_not_fire_again_inside_its_own_rule(chain):
    """A side's fighters removed from inside `grief`: `grief` ran once (the others' removals
    inside it do not fire it again: `Fallen` would count them), `broken` once when all went."""
    world = make_world(chain, [FighterSpec("A", 0)] + [FighterSpec(f"B{i}", 1) for i in range(3)])
    interp = Interpreter(chain, Policies("first"), compiled=False)
    seen = 0
    for seed in range(200):
        interp.rng.seed(seed)
        _value, after = interp.sample("hit", {"a": Ref("fighter", 0), "t": Ref("fighter", 1)},
                                     world)
        fallen = after.sides[1].values["Fallen"]
        gone = all(f.removed for f in after.fighters[1:])
        assert fallen in (0, 1, 11) and (fallen == 11) == gone
        seen += gone
    assert seen >= 1   # (some seeds take the whole side, with grief run once)
    assert interp.events_running == set()


def _codes(text: str) -> list[tuple[str, int, str | None]]:
    compiled = compile_text(text, "bad.rules")
    return [(d.code, d.span.line, d.hint) for d in compiled.diagnostics
            if d.severity.name == "ERROR"]


BAD = '''ruleset "bad"
counter Wounds on fighter
flag Shaken on side
event a when fighter f killed { }
event b when side s falls to 3/2 { }
event c when side s falls to s.Wounds { }
event d when f.Woundz reaches 2 { }
event e when s.Shaken reaches 2 { }
event f when fighter f removed { set g.Wounds = 1 }
event g when round begins { }
'''


def test_misuse_is_reported_with_codes_and_hints():
    found = _codes(BAD)
    lines = {line: (code, hint) for code, line, hint in found}
    assert lines[4][0] == "E328" and "fighter F removed" in lines[4][1]
    assert lines[5] == ("E329", "half its fighters: falls to 1/2; the last one gone: falls to 0")
    assert 6 in lines   # not a fraction of whole numbers (and not a side's counter)
    assert lines[7][0] == "E201" and "Wounds" in lines[7][1]
    assert lines[8][0] == "E204"
    assert lines[9] == ("E201", "event 'f' knows only what its 'when' names: f")
    assert lines[10][0] == "E328" and "ends" in lines[10][1]


def test_house_rules_override_and_remove_an_event(tmp_path):
    base = tmp_path / "base.rules"
    base.write_text(CHAIN, encoding="utf-8")
    house = tmp_path / "house.rules"
    house.write_text('ruleset "house"\n  extends "base.rules"\n'
                     'override event grief when fighter f removed {\n'
                     '  set f.side.Fallen += 2\n}\nremove event broken\n', encoding="utf-8")
    compiled = compile_text(house.read_text(), str(house))
    assert compiled.ruleset is not None, compiled.diagnostics
    assert [e.name.name for e in compiled.ruleset.events] == ["down", "grief"]


def test_an_event_is_named_as_any_declaration():
    """Two events of one name, or an event named as a counter, are E202 (one name, one thing:
    the log names the event, a house rule overrides it by its name)."""
    found = _codes('ruleset "twice"\ncounter Wounds on fighter\n'
                   'event e when round starts { }\nevent e when round ends { }\n'
                   'event Wounds when round ends { }\n')
    assert [(code, line) for code, line, _ in found] == [("E202", 4), ("E202", 5)]


def test_a_decision_inside_an_event_carries_its_marks_for_a_look_ahead(monkeypatch):
    """A side that looks ahead weighs `steady` inside `rout`: the position it weighs from says `rout` is
    running (a look-ahead that plays on from it puts that back), and the frames of the turn
    above, taken before `rout` began, say nothing runs (played on past the run, rout may fire
    again); after the look-ahead the game's own marks are as they were."""
    found = scenario(SYSTEMS[0])
    seen: list = []
    original = Game.weigh

    def weigh(self, side, name, legal, show, run, world):
        context = self.interp.run_context()
        frames = [f.context[-1] for f in self.state.frames if hasattr(f, "context")]
        before = set(self.interp.events_running)
        index = original(self, side, name, legal, show, run, world)
        seen.append((name, context[-1], frames, before == self.interp.events_running))
        return index
    monkeypatch.setattr(Game, "weigh", weigh)
    for seed in range(1, 4):
        Game(found, seed, Policies("mcts:2")).play()
    steady = [s for s in seen if s[0] == "steady"]
    assert steady
    for _, marks, frames, kept in steady:
        # (rout runs inside `down`, whose removal set it off)
        assert "rout" in {e.name.name for e in marks} and kept
        assert all(not f for f in frames)
    assert any(frames for *_, frames, _ in steady)   # (mcts keeps the frames of the turn)
