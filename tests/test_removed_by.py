"""Who removed a fighter (issue 32, A2): `remove f by g` / `withdraw f by s`, the default (the
fighter whose action runs, never the fighter itself), `f.removed_by` and `f.removed_by_side`,
the log's "removed from play by ...", and Super Simple Skirmish's score, which counts only the
enemies a side killed: a fighter killed by its own side's Blast is no kill of the enemy's.
"""

from __future__ import annotations

import pytest

from warband.game.engine import Game
from warband.game.gamelog import render_text
from warband.game.scenario import SideFile, load_scenario
from warband.lang.compiler import compile_text, load
from warband.run.decisions import Policies
from warband.run.interpreter import Interpreter
from warband.run.world import FighterSpec, Ref, make_world

RULES = '''
ruleset "duel"
  title "Who removes whom"

stat Grit: 1..6
counter Wounds on fighter

procedure wound(f: fighter) -> bool "A wound; at its Grit the fighter goes down" {
  set f.Wounds += 1
  if f.Wounds >= f.Grit {
    remove f
    return true
  }
  return false
}

action strike(attacker: fighter, target: fighter) -> number
  "A blow; on a 1 the target's riposte wounds the attacker instead"
  requires target.side != attacker.side
{
  if d6 == 1 {
    wound(attacker)
    return 0
  }
  wound(target)
  return 1
}

action execute(attacker: fighter, target: fighter) "Named as the remover's side only"
  requires target.side != attacker.side
{
  remove target by attacker.side
}

action flee(f: fighter) "Off the table, driven by nobody" {
  withdraw f
}

action who(attacker: fighter, target: fighter) -> number
  "1 when the target was removed by the attacker, 2 by the attacker's side alone, 0 else"
  requires target.side != attacker.side
{
  wound(target)
  if target.removed_by == attacker { return 1 }
  if target.removed_by_side == attacker.side { return 2 }
  return 0
}
'''


def _world(ruleset, grit=1):
    specs = [FighterSpec("Ann", 0, stats={"Grit": grit}), FighterSpec("Bob", 1, stats={"Grit": grit})]
    return make_world(ruleset, specs)


@pytest.fixture(scope="module")
def duel():
    compiled = compile_text(RULES, "duel.rules")
    assert compiled.ruleset is not None, compiled.diagnostics
    return compiled.ruleset


def test_by_default_the_fighter_whose_action_runs_removes(duel):
    a, b = Ref("fighter", 0), Ref("fighter", 1)
    for seed in range(1, 40):
        interp = Interpreter(duel, Policies("random"), )
        interp.acting = a
        result, world = interp.run_nested(duel.procedures["strike"], {"attacker": a, "target": b},
                                          _world(duel))
        if result == 1:
            assert world.fighters[1].removed_by == (0, 0)
        else:   # the riposte: the attacker struck down in its own action: by no one named
            assert world.fighters[0].removed and world.fighters[0].removed_by is None


def test_by_a_side_and_a_withdrawal(duel):
    a, b = Ref("fighter", 0), Ref("fighter", 1)
    interp = Interpreter(duel, Policies("random"))
    interp.acting = a
    _, world = interp.run_nested(duel.procedures["execute"], {"attacker": a, "target": b},
                                 _world(duel))
    assert world.fighters[1].removed_by == (None, 0)
    _, world = interp.run_nested(duel.procedures["flee"], {"f": a}, _world(duel))
    assert world.fighters[0].withdrawn and world.fighters[0].removed_by is None


def test_the_rules_read_who_removed(duel):
    from warband.run.odds import compute, parse_fighter
    problems: list = []
    fighters = [parse_fighter("grit=1", "attacker", duel, 0, problems),
                parse_fighter("grit=1", "target", duel, 1, problems)]
    assert problems == []
    result = compute(duel, "who", fighters, {}, Policies("first"))
    assert dict(result.distribution.items()) == {1: 1}


SSS_BLAST = '''name: Blast Happy
ruleset: super-simple-skirmish
fighters:
  - {name: Mech A, class: Mech, might: 20}
  - {name: Mech B, class: Mech, might: 20}
  - {name: Gunner A, class: Gunner, might: 10}
  - {name: Gunner B, class: Gunner, might: 10}
  - {name: Trooper, class: Soldier, might: 10, count: 4}
'''


@pytest.fixture(scope="module")
def blast_game(tmp_path_factory):
    path = tmp_path_factory.mktemp("ff") / "blast.yaml"
    path.write_text(SSS_BLAST)
    scenario = load_scenario("sss-standard-game", (SideFile("empire", str(path), str(path)),))
    assert not isinstance(scenario, list), scenario
    return scenario


@pytest.mark.parametrize("compiled", [True, False], ids=["generated", "interpreter"])
def test_friendly_fire_never_scores_for_the_enemy(blast_game, compiled):
    """Over seeded games of Mechs and Gunners, whose Blasts kill friends: each side's score is
    the Might of the enemies it killed, and every removal in the log says who did it."""
    own_kills = 0
    for seed in range(1, 13 if compiled else 5):
        game = Game(blast_game, seed, Policies("random"), record=True)
        game.interp.compiled = compiled
        result = game.play()
        world = game.final
        expected = {s.name: 0 for s in world.sides}
        for f in world.fighters:
            if f.removed and not f.withdrawn and f.removed_by is not None:
                killer_side = f.removed_by[1]
                if killer_side != f.side:
                    expected[world.sides[killer_side].name] += f.values["Might"]
                else:
                    own_kills += 1
        assert result.scores == {k: float(v) for k, v in expected.items()}, seed
        removals = [e for e in game.log.events if e["type"] == "removed"]
        assert all(e["by"] is not None and e["by_side"] is not None for e in removals), seed
    if compiled:
        assert own_kills >= 1, "no game had friendly fire: the test tests nothing"


def test_the_log_says_who_removed_whom(blast_game):
    for seed in range(1, 30):
        game = Game(blast_game, seed, Policies("random"), record=True)
        game.play()
        text = render_text({"scenario_title": "t", "seed": seed, "events": game.log.events})
        if "(own side)" in text:
            line = next(x for x in text.splitlines() if "(own side)" in x)
            assert "(empire) is removed from play by" in line and line.endswith(
                "(empire) (own side)")
            return
    pytest.fail("no seed had friendly fire")


def test_the_shipped_game_reads_who_removed(blast_game):
    ruleset = load("sss-standard-game").ruleset
    assert ruleset is not None
    text = open(ruleset.scenario.span.file).read()
    assert "removed_by_side" in text
