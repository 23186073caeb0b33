"""Issue 21, weapons with profiles: values each piece of equipment carries (`stat Range on
equipment: 0..48 default 0`, given as `Range = 24` in the piece's braces, read as `w.Range`),
traits that belong to the piece and not to its wielder (`traits Rending`, asked as `w has
Rending`), `f has w` for whether a fighter carries the piece a name holds, and actions whose
equipment parameters the engine fills with each piece the actor carries, so that a fighter with
a bow and a sword chooses which to use.

On two systems: a small one of this file's own, and super-simple-skirmish extended with a bow
and a sword. Exact odds are checked against the dice enumerated by hand; generated code against
the interpreter; the game log names the weapon used; a house rule changes a profile.
"""

from __future__ import annotations

import random
from fractions import Fraction
from itertools import product
from pathlib import Path

import pytest

from test_differential import outcome, scenario_of
from warband.game.engine import Game
from warband.game.gamelog import option_label
from warband.lang.compiler import compile_text
from warband.run.decisions import Policies
from warband.run.interpreter import Interpreter
from warband.run.world import FighterSpec, Ref, make_world

OWN = '''
ruleset "weapons"
stat Skill: 1..6 default 4
counter Wounds on fighter
stat Range on equipment: 0..48 default 0 "how far it shoots; 0: a weapon for close combat"
stat Attacks on equipment: 1..4 default 1
stat AP on equipment: 0..3 default 0
trait Rending "hits on one less"
trait Brave
equipment Longbow "A bow" { Range = 24  Attacks = 1 }
equipment Sword { Attacks = 2  AP = 1  traits Rending  grants Brave }
equipment Dagger
class Archer { equipment Longbow, Dagger }
class Knight { equipment Sword }

define reach(w: equipment) = if w.Range > 0 then w.Range else 1
procedure hits(attacker: fighter, w: equipment) -> number {
  let n = 0
  repeat w.Attacks times {
    if d6 >= attacker.Skill - (if w has Rending then 1 else 0) {
      set n += 1 + w.AP
    }
  }
  return n
}
action attack(attacker: fighter, target: fighter, w: equipment) -> number
  "Attack an enemy in reach with one carried weapon"
  requires attacker has w and target.side != attacker.side and
           distance(attacker, target) <= reach(w)
{
  let n = hits(attacker, w)
  set target.Wounds += n
  if target.Wounds >= 3 { remove target }
  return n
}
'''

SCENARIO = '''
scenario duel {
  board 30 by 30 inches
  side a { fighter "Robin" { class Archer } }
  side b { fighter "Guy" { class Knight } }
  zone west = area (0, 0) to (2, 30)
  zone east = area (20, 0) to (22, 30)
  setup { deploy a in west  deploy b in east }
  round { for each f in fighters { activate f } }
  rounds 3
  score a = total(x.Wounds for x in b.fighters)
  score b = total(x.Wounds for x in a.fighters)
}
'''


@pytest.fixture(scope="module")
def own():
    compiled = compile_text(OWN, "weapons.rules")
    assert not compiled.errors, [d.message for d in compiled.diagnostics]
    return compiled.ruleset


def world_of(ruleset, *specs):
    return make_world(ruleset, [FighterSpec(n, i % 2, c, stats)
                                for i, (n, c, stats) in enumerate(specs)], sides=[{}, {}])


def brute_hits(skill: int, attacks: int, ap: int, rending: bool) -> dict:
    """hits(...) by hand: every face of every die."""
    need = skill - (1 if rending else 0)
    out: dict = {}
    for faces in product(range(1, 7), repeat=attacks):
        n = sum(1 + ap for f in faces if f >= need)
        out[n] = out.get(n, 0) + Fraction(1, 6 ** attacks)
    return out


# ---- the language ------------------------------------------------------------------------------

def test_a_piece_carries_its_profile_given_or_by_default(own):
    bow, sword, dagger = (own.equipment[n] for n in ("Longbow", "Sword", "Dagger"))
    assert dict(bow.values) == {"Range": 24, "Attacks": 1, "AP": 0}
    assert dict(sword.values) == {"Range": 0, "Attacks": 2, "AP": 1}
    assert dict(dagger.values) == {"Range": 0, "Attacks": 1, "AP": 0}
    assert dict(sword.traits) == {"Rending": True}
    assert set(own.profiles) == {"Range", "Attacks", "AP"}


def test_a_weapons_own_trait_is_not_its_wielders_but_a_grant_is(own):
    world = world_of(own, ("K", "Knight", {}), ("A", "Archer", {}))
    k = world.fighters[0]
    assert k.traits["Brave"] is True and k.traits["Rending"] is False
    interp = Interpreter(own)
    fn = compile_text(OWN + '''
define probe(f: fighter, w: equipment) = (if w has Rending then 1 else 0) + (if f has Rending then 10 else 0) + (if f has w then 100 else 0) + w.Range * 1000
''', "probe.rules").ruleset
    interp = Interpreter(fn)
    probe = fn.defines["probe"]
    for ref, piece, want in ((Ref("fighter", 0), "Sword", 101), (Ref("fighter", 0), "Longbow",
                                                                  24000),
                             (Ref("fighter", 1), "Longbow", 24100),
                             (Ref("fighter", 1), "Dagger", 100)):
        got = interp.fn(probe.body)({"f": ref, "w": piece}, world)
        assert got == want, (ref, piece)


@pytest.mark.parametrize("skill", [3, 4, 6])
@pytest.mark.parametrize("piece", ["Longbow", "Sword", "Dagger"])
def test_exact_odds_of_each_weapon_match_the_dice_by_hand(own, skill, piece):
    world = world_of(own, ("A", "Archer", {"Skill": skill}), ("K", "Knight", {}))
    got = Interpreter(own).exact("hits", {"attacker": Ref("fighter", 0), "w": piece}, world)
    values = dict(own.equipment[piece].values)
    want = brute_hits(skill, values["Attacks"], values["AP"],
                      "Rending" in dict(own.equipment[piece].traits))
    assert dict(got.items()) == want


def test_generated_code_and_interpreter_agree(tmp_path):
    scenario = scenario_of(tmp_path, OWN + SCENARIO)
    rng = random.Random(7)
    fast, slow = Game(scenario, 1), Game(scenario, 1)
    slow.interp.compiled = False
    world = world_of(scenario.ruleset, ("A", "Archer", {"Skill": 3}), ("K", "Knight", {}))
    for _ in range(40):
        args = {"attacker": Ref("fighter", rng.randrange(2)),
                "w": rng.choice(["Longbow", "Sword", "Dagger"])}
        got = outcome(fast.interp, lambda: fast.interp.sample("hits", args, world))
        want = outcome(slow.interp, lambda: slow.interp.sample("hits", args, world))
        assert got == want
    from warband.run.codegen import hooks as codegen
    assert not codegen.program_for(fast.interp).fallbacks


# ---- in a game: the engine offers each carried piece ------------------------------------------

def test_the_engine_offers_each_carried_weapon_and_only_those(tmp_path):
    scenario = scenario_of(tmp_path, OWN + SCENARIO)
    game = Game(scenario, 3, Policies("first"), record=True)
    world = scenario.start()
    world = world.place(Ref("fighter", 0), (5.0, 5.0)).place(Ref("fighter", 1), (5.0, 15.0))
    labels = sorted(option_label(name, args, world)
                    for name, args in game.players.legal(Ref("fighter", 0), ("attack",), world,
                                                         game._forces))
    assert labels == ["attack Guy Longbow"]   # 10" off: the bow reaches, the dagger does not
    world = world.place(Ref("fighter", 1), (5.0, 5.9))
    labels = sorted(option_label(name, args, world)
                    for name, args in game.players.legal(Ref("fighter", 0), ("attack",), world,
                                                         game._forces))
    assert labels == ["attack Guy Dagger", "attack Guy Longbow"]
    knight = sorted(option_label(name, args, world)
                    for name, args in game.players.legal(Ref("fighter", 1), ("attack",), world,
                                                         game._forces))
    assert knight == ["attack Robin Sword"]


@pytest.mark.parametrize("policy", ["random", "first", "greedy"])
def test_a_game_log_names_the_weapon_used(tmp_path, policy):
    scenario = scenario_of(tmp_path, OWN + SCENARIO)
    game = Game(scenario, 5, Policies(policy), record=True)
    game.play()
    used = [e["action"] for e in game.log.events if e["type"] == "activate"]
    assert used, game.log.events
    assert all(a.split()[-1] in ("Longbow", "Dagger", "Sword") for a in used), used


def test_games_alike_generated_and_interpreted(tmp_path):
    scenario = scenario_of(tmp_path, OWN + SCENARIO)
    for seed in range(6):
        fast, slow = Game(scenario, seed, record=True), Game(scenario, seed, record=True)
        slow.interp.compiled = False
        a, b = fast.play(), slow.play()
        assert fast.log.events == slow.log.events
        assert a.scores == b.scores


# ---- a second system: super-simple-skirmish with a bow and a greatsword ---------------------------

SSS = '''
ruleset "sss-weapons"
  extends "super-simple-skirmish"

stat Range on equipment: 0..24 default 0 "how far it shoots, in inches; 0: not a missile weapon"
stat Punch on equipment: 0..3 default 0 "added to the wielder's Might in melee"
trait Heavy "a weapon that needs both hands"
equipment Bow "A short bow" { Range = 12 }
equipment Greatsword { Punch = 2  traits Heavy }

action shoot_with(attacker: fighter, target: fighter, w: equipment,
                  cover: bool = obscured(attacker, target)) -> attack_result
  "A ranged attack with a missile weapon the attacker carries, within its range"
  requires attacker has w and w.Range > 0 and not attacker.Stunned
    and target.side != attacker.side and not engaged(attacker) and sees(attacker, target)
    and distance(attacker, target) <= w.Range
{
  return attack(attacker, target, true, cover)
}

define heavy_blows(f: fighter) = total(w.Punch for w in f.equipment if w has Heavy)
'''

SSS_SCENARIO = '''
scenario skirmish {
  board 24 by 24 inches
  side a { fighter "Hunter" { class Soldier  stat Might = 10  equipment Bow, Greatsword } }
  side b { fighter "Brute" { class Warrior  stat Might = 10 } }
  zone west = area (0, 0) to (2, 24)
  zone east = area (12, 0) to (14, 24)
  setup { deploy a in west  deploy b in east }
  round { for each f in fighters { activate f using shoot_with, melee, move } }
  rounds 2
  score a = total(1 for x in b.casualties)
  score b = total(1 for x in a.casualties)
}
'''

HOUSE = '''
ruleset "sss-weapons-house"
  extends "{base}"

override equipment Bow "A long bow" {{ Range = 24 }}
'''


def _legal(game, world, who: int, actions=("shoot_with",)) -> list[str]:
    return sorted(option_label(name, args, world)
                  for name, args in game.players.legal(Ref("fighter", who), actions, world,
                                                       game._forces))


def test_on_super_simple_skirmish_the_bow_reaches_as_far_as_its_profile(tmp_path):
    scenario = scenario_of(tmp_path, SSS + SSS_SCENARIO, "sss-weapons")
    game = Game(scenario, 1, Policies("first"))
    world = scenario.start()
    world = world.place(Ref("fighter", 0), (2.0, 12.0)).place(Ref("fighter", 1), (12.0, 12.0))
    assert _legal(game, world, 0) == ["shoot_with Brute Bow"]   # the greatsword shoots nothing
    far = world.place(Ref("fighter", 1), (20.0, 12.0))
    assert _legal(game, far, 0) == []                            # 17" off: beyond 12"
    assert _legal(game, world, 1) == []                          # the brute carries no bow
    assert scenario.ruleset.equipment["Greatsword"].traits == (("Heavy", True),)
    assert not world.fighters[0].traits["Heavy"]                 # the piece's, not the wielder's
    value = Interpreter(scenario.ruleset).fn(scenario.ruleset.defines["heavy_blows"].body)
    assert value({"f": Ref("fighter", 0)}, world) == 2
    assert value({"f": Ref("fighter", 1)}, world) == 0


def test_a_house_rule_changes_a_profile(tmp_path):
    (tmp_path / "sss-weapons.rules").write_text(SSS, encoding="utf-8")   # the base
    house = scenario_of(tmp_path, HOUSE.format(base="sss-weapons.rules") + SSS_SCENARIO,
                        "house")
    assert dict(house.ruleset.equipment["Bow"].values) == {"Range": 24, "Punch": 0}
    game = Game(house, 1, Policies("first"))
    world = house.start()
    far = world.place(Ref("fighter", 0), (2.0, 12.0)).place(Ref("fighter", 1), (20.0, 12.0))
    assert _legal(game, far, 0) == ["shoot_with Brute Bow"]      # a long bow reaches 17"


def test_odds_name_the_weapon_or_take_each_the_attacker_carries(tmp_path):
    from typer.testing import CliRunner

    from warband.cli import app
    path = tmp_path / "sss-weapons.rules"
    path.write_text(SSS, encoding="utf-8")
    attacker = "class=Soldier Might=10 equipment=Bow,Greatsword"

    def odds(*extra):
        result = CliRunner().invoke(app, ["odds", str(path), "--attacker", attacker,
                                          "--target", "class=Warrior Might=10",
                                          "--action", "shoot_with", "--format", "json",
                                          *extra])
        return result
    named = odds("--with", "w=Bow")
    assert named.exit_code == 0, named.output
    # the same as the shipped shoot: equal Might, 3d6 >= 15 kills, >= 13 stuns
    kill = Fraction(sum(1 for r in product(range(1, 7), repeat=3) if sum(r) >= 15), 216)
    stun = Fraction(sum(1 for r in product(range(1, 7), repeat=3) if 13 <= sum(r) < 15), 216)
    data = __import__("json").loads(named.stdout)
    assert data["outcomes"] == {"kill": str(kill), "stun": str(stun),
                                "none": str(1 - kill - stun)}
    each = odds()
    assert each.exit_code == 0, each.output
    assert list(__import__("json").loads(each.stdout)["w"]) == ["Bow"]   # not the greatsword
    refused = odds("--with", "w=Greatsword")
    assert refused.exit_code != 0 and "E903" in refused.output
    # each piece's odds are printed one after another: a sweep, a picture or a file is of one
    # set of odds, so those ask for the piece to be named (E645), never a traceback
    for extra in (["--sweep", "Might=5..6"], ["--plot", str(tmp_path / "o.svg")],
                  ["-o", str(tmp_path / "o.json")]):
        clash = odds(*extra)
        assert clash.exit_code == 2 and "E645" in clash.output, clash.output
        assert "--with w=PIECE" in clash.output
    assert odds("--with", "w=Bow", "--sweep", "Might=5..6").exit_code == 0


# ---- roster cards: a fighter's weapons with their values -------------------------------------------

BAND = '''name: Sherwood
ruleset: weapons.rules
fighters:
  - name: Robin
    class: Archer
    skill: 3
  - name: John
    class: Knight
    equipment: [Dagger]
'''


@pytest.mark.parametrize("fmt", ["text", "markdown", "html"])
def test_a_roster_card_lists_each_weapon_with_its_profile(tmp_path, fmt):
    from warband.lists.render_roster import render
    from warband.lists.roster import roster
    (tmp_path / "weapons.rules").write_text(OWN, encoding="utf-8")
    (tmp_path / "band.yaml").write_text(BAND, encoding="utf-8")
    made = roster(str(tmp_path / "band.yaml"))
    assert made.valid, made.diagnostics
    john = made.model["fighters"][1]
    assert [(w["name"], [v["value"] for v in w["values"]], w["traits"])
            for w in john["weapons"]] == [("Sword", ["0", "2", "1"], "Rending"),
                                          ("Dagger", ["0", "1", "0"], "")]
    out = str(render(made.model, fmt))
    for word in ("Range", "Attacks", "AP", "Longbow", "Rending"):
        assert word in out, (fmt, word)
    if fmt == "markdown":
        # (on John's own card: a table of his weapons, a row a piece)
        card = out.split("### John", 1)[1].split("###", 1)[0]
        assert "| Sword | 0 | 2 | 1 | Rending |" in card
        assert "| Dagger | 0 | 1 | 0 |  |" in card
    if fmt == "text":
        assert any(line.split() == ["John", "Sword", "0", "2", "1", "Rending"]
                   for line in out.splitlines()), out


def test_a_roster_without_profiles_has_no_weapon_table(tmp_path):
    from warband.lists.render_roster import render
    from warband.lists.roster import roster
    made = roster(str(Path(__file__).resolve().parents[1] / "warbands" / "the-family.yaml"))
    assert all(f["weapons"] == [] for f in made.model["fighters"])
    assert "**Weapons**" not in str(render(made.model, "markdown"))


# ---- replay, and house rules over the profiles themselves -----------------------------------------

def test_a_recorded_game_with_weapons_replays(tmp_path):
    import json

    from typer.testing import CliRunner

    from warband.cli import app
    path = tmp_path / "duel.rules"
    path.write_text(OWN + SCENARIO, encoding="utf-8")
    made = CliRunner().invoke(app, ["play", str(path), "--seed", "4", "--policy", "a=greedy",
                                    "--format", "json"])
    assert made.exit_code == 0, made.output
    record = json.loads(made.stdout)
    assert any(e.get("type") == "activate" and e["action"].endswith(("Longbow", "Dagger",
                                                                      "Sword"))
               for e in record["events"])
    (tmp_path / "game.json").write_text(made.stdout, encoding="utf-8")
    again = CliRunner().invoke(app, ["play", str(path), "--replay", str(tmp_path / "game.json"),
                                     "--format", "json"])
    assert again.exit_code == 0, again.output
    assert json.loads(again.stdout) == record


def test_a_house_rule_overrides_or_removes_a_profile(tmp_path):
    (tmp_path / "weapons.rules").write_text(OWN, encoding="utf-8")
    wider = compile_text('ruleset "wider" extends "weapons.rules"\n'
                         'override stat Attacks on equipment: 1..4 default 3\n',
                         str(tmp_path / "wider.rules"))
    assert not wider.errors, [d.message for d in wider.diagnostics]
    assert dict(wider.ruleset.equipment["Dagger"].values)["Attacks"] == 3   # the new default
    assert dict(wider.ruleset.equipment["Sword"].values)["Attacks"] == 2    # its own value
    gone = compile_text('ruleset "gone" extends "weapons.rules"\nremove stat AP\n',
                        str(tmp_path / "gone.rules"))
    codes = {d.code for d in gone.diagnostics if d.is_error}
    assert "E313" in codes   # the base's Sword still gives AP: reported where it does
    assert any(d.code == "E313" and d.span.file.endswith("weapons.rules")
               for d in gone.diagnostics)


# ---- which pieces a card lists as weapons: what the rules say of them (issue 32, A10) -------------

ARMOURY = '''
ruleset "armoury"
stat Skill: 1..6 default 4
counter Wounds on fighter
stat Reach on equipment: 0..3 default 0 "how far it strikes"
trait Parry "strikes against it hit on one more"
trait Stun "its blows stun"
equipment Sword "A blade" { Reach = 1  grants Parry }
equipment Mace "A club with a head" { grants Stun }
equipment Helmet "Saves a wound on a 6"
class Knight { equipment Sword, Helmet }
class Brute { equipment Mace }
action strike(u: fighter, t: fighter, w: equipment) "A blow with a weapon of reach"
  requires u has w and w.Reach > 0 and t.side != u.side
{
  if d6 >= u.Skill { set t.Wounds += 1 }
}
action bash(u: fighter, t: fighter, w: equipment) "A stunning blow"
  requires u has w and u has Stun and t.side != u.side
{
  if d6 >= u.Skill { set t.Wounds += 1 }
}
action rally(u: fighter) "Stand firm" { set u.Wounds -= 1 }
phase turn(s: side) {
  for each f in s.fighters {
    activate f except "rally"
  }
}
'''

ARMS = '''name: Arms
ruleset: armoury.rules
fighters:
  - {name: Sir Hal, class: Knight}
  - {name: Grob, class: Brute}
'''


def test_a_card_lists_as_weapons_the_pieces_the_rules_use_as_weapons(tmp_path):
    """A piece is a weapon on a card by what the rules say of it: an action is taken with it
    (the Mace, which grants a trait and has no value of its own), or it has a profile value or
    a trait of its own (the Sword); a Helmet that grants nothing and that no action is taken
    with is none. Before, a piece was a weapon when it granted nothing: the Helmet was one and
    the Mace was not."""
    from warband.lists.roster import roster
    (tmp_path / "armoury.rules").write_text(ARMOURY, encoding="utf-8")
    (tmp_path / "arms.yaml").write_text(ARMS, encoding="utf-8")
    made = roster(str(tmp_path / "arms.yaml"))
    assert made.valid, made.diagnostics
    hal, grob = made.model["fighters"]
    assert [w["name"] for w in hal["weapons"]] == ["Sword"]
    assert [w["name"] for w in grob["weapons"]] == ["Mace"]


def test_a_card_lists_only_the_actions_play_offers(tmp_path):
    """`activate f except "rally"` offers every action but rally: rally is not on the card
    (before, an `except` was read as offering everything)."""
    from warband.lists.roster import roster
    (tmp_path / "armoury.rules").write_text(ARMOURY, encoding="utf-8")
    (tmp_path / "arms.yaml").write_text(ARMS, encoding="utf-8")
    made = roster(str(tmp_path / "arms.yaml"))
    hal, grob = made.model["fighters"]
    assert [a["label"] for a in hal["actions"]] == ["strike with Sword"]
    assert [a["label"] for a in grob["actions"]] == ["bash with Mace"]
    # an exception known only in play (`except first`) leaves every action offered
    second = ARMOURY.replace('activate f except "rally"',
                             'activate f as first\n    activate f except first')
    (tmp_path / "armoury.rules").write_text(second, encoding="utf-8")
    made = roster(str(tmp_path / "arms.yaml"))
    assert "rally" in [a["name"] for a in made.model["fighters"][0]["actions"]]
