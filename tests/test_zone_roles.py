"""Zones the ruleset can name (issue 36, item 6): a ruleset declares the zones its rules need
by a role (`zone home per side`, `zone middle`), each scenario says which of its zones plays
each role (`zone home is south for a, north for b`), and rules name the role wherever they name
a zone (`deploy s in home(s)`, `bring f back into home(f.side)`, `inside(f, middle)`,
`travel ... to home(f.side)`).

Two systems: a house rule of Super Simple Skirmish on a board in inches whose procedures live in
a base file that knows no scenario (two scenarios fill its roles two ways), and Swords Against
Sorcery on a chessboard; the shipped Ashfall relay beacons name the side's own exit by a role.
Misuse: a role left unfilled or filled wrongly (E340), an unknown role or zone (E201 with a
did-you-mean), a role per side named without its side (E302).
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from typer.testing import CliRunner

from test_differential import games, outcome, scenario_of, typed
from warband.cli import app
from warband.diagnostics import Sources, render_text
from warband.game.engine import Game
from warband.lang.compiler import compile_text
from warband.run.decisions import Policies

ROOT = Path(__file__).resolve().parent.parent

# the ruleset: its procedures name the zones they need by role, and know no scenario
BASE = '''
ruleset "reinforced"
  extends "super-simple-skirmish"

zone home per side "The side's own edge: where it sets up and where its reinforcements come in"
zone middle "The middle of the table"

flag Returned on fighter "Came back into play once already"

phase set_up(s: side) "The side sets up on its own edge" {
  deploy s in home(s)
}

phase reinforce(s: side) "One casualty of the side not back yet comes back on its own edge" {
  let waiting = all(f for f in s.casualties if not f.Returned)
  if total(1 for f in waiting) >= 1 {
    choose back_again by s among waiting "Which casualty comes back"
    set back_again.Returned = true
    set back_again.Stunned = false
    bring back_again back into home(s)
  }
}

define central(s: side) "How many of the side's fighters stand in the middle" =
  total(1 for f in s.fighters if inside(f, middle))
'''

GAME = '''
ruleset "reinforced-game"
  extends "{base}"

scenario reinforced "Two warbands, edge to edge, with reinforcements" {{
  board 24 by 24 inches

  side empire "The Clockwork Empire" from "{root}/warbands/clockwork-empire.yaml"
  side family "The Family" from "{root}/warbands/the-family.yaml"

  zone south_edge "6\\" along the south edge" = edge south depth 6
  zone north_edge "6\\" along the north edge" = edge north depth 6
  zone centre "the middle of the table" = area (8, 8) to (16, 16)
  zone home is {homes}
  zone middle is centre

  setup {{
    for each s in sides {{
      restock(s, total(1 for f in s.fighters))
    }}
    set empire.Order = 1
    set family.Order = 2
    for each s in sides {{
      set_up(s)
    }}
  }}
  round {{
    game_round()
    for each s in sides {{
      reinforce(s)
    }}
  }}
  rounds 6

  score empire = total(f.Might for f in family.casualties) + central(empire)
  score family = total(f.Might for f in empire.casualties) + central(family)
}}
'''

SOUTH_NORTH = "south_edge for empire, north_edge for family"
NORTH_SOUTH = "north_edge for empire, south_edge for family"


def root(tmp_path: Path) -> str:
    """The repository, by a path relative to a test's folder (a rules file names the files
    it reads so)."""
    return Path(os.path.relpath(ROOT, tmp_path)).as_posix()


def sss_game(tmp_path: Path, homes: str = SOUTH_NORTH, name: str = "game"):
    base = tmp_path / "reinforced.rules"
    base.write_text(BASE, encoding="utf-8")
    return scenario_of(tmp_path, GAME.format(base=base.name, root=root(tmp_path),
                                             homes=homes), name)


def zones_played(game: Game) -> tuple[dict, list]:
    """Where each side deployed, and where each fighter came back (side, zone), from the log;
    each placement checked against the board."""
    events = game.state.log.events
    deployed = {e["side"]: e["zone"] for e in events if e["type"] == "deploy"}
    returns = [(e["side"], e["zone"]) for e in events if e["type"] == "return"]
    for e in events:
        if e["type"] == "return":
            zone = game.board.zones[e["zone"]]
            assert game.board.in_zone(tuple(e["at"]), zone), e
    return deployed, returns


@pytest.mark.parametrize("homes,expected", [
    (SOUTH_NORTH, {"empire": "south_edge", "family": "north_edge"}),
    (NORTH_SOUTH, {"empire": "north_edge", "family": "south_edge"}),
])
def test_each_scenario_fills_the_rulesets_roles_its_own_way(tmp_path, homes, expected):
    found = sss_game(tmp_path, homes)
    brought = 0
    for seed in range(1, 7):
        game = Game(found, seed, Policies("random"), record=True)
        game.play()
        deployed, returns = zones_played(game)
        assert deployed == expected, seed
        assert all(zone == expected[side] for side, zone in returns), (seed, returns)
        brought += len(returns)
    assert brought >= 2, "no game brought anyone back: the test shows nothing"


def test_a_role_for_every_side_reads_as_the_zone_it_names(tmp_path):
    """`inside(f, middle)` in the base's definition is the scenario's `centre`."""
    found = sss_game(tmp_path)
    assert found.ruleset.role_zones == {"home": ("south_edge", "north_edge"), "middle": "centre"}
    game = Game(found, 3, Policies("random"), record=True)
    result = game.play()
    final = game.final
    board = game.board
    for i, side in enumerate(("empire", "family")):
        central = sum(1 for f in final.fighters if f.side == i and not f.removed and
                      board.in_zone(f.position, board.zones["centre"]))
        might = sum(f.values["Might"] for f in final.fighters
                    if f.side != i and f.removed)
        assert result.scores[side] == might + central, side


def test_generated_code_and_the_interpreter_agree(tmp_path):
    found = sss_game(tmp_path)
    for seed in (1, 2, 3):
        fast, slow = games(found, seed)
        played = (fast, Game(found, seed, record=True), slow)
        results = [(outcome(g.interp, g.play), typed(g.final)) for g in played]
        assert results[0] == results[1] == results[2], seed
        assert results[0][0][0][0] == "ok", results[0][0][0]


# ---- a second system: Swords Against Sorcery on a chessboard --------------------------------------

SAS = '''
ruleset "sas-rally"
  extends "swords-against-sorcery"

zone rally per side "The side's own edge row, where its fallen figures rise again"

counter Risen on fighter "How many times the figure came back into play"

procedure rise(m: fighter) "A fallen figure rises on its side's own row, healed, twice at most" {{
  if m.Risen < 2 {{
    set m.Risen += 1
    set m.Damage = 0
    bring m back into rally(m.side)
  }}
}}

scenario undying "The Dudes against a Menace that rises again" {{
  board 8 by 8 squares

  side dudes "The Greedy Dudes" from "{root}/warbands/greedy-dudes.yaml"
  side menace "The Vaguely Defined Menace" from "{root}/warbands/vaguely-defined-menace.yaml"

  zone dudes_row = edge south depth 1
  zone menace_row = edge north depth 1
  zone rally is dudes_row for dudes, menace_row for menace

  setup {{
    deploy dudes in rally(dudes)
    deploy menace in rally(menace)
    coin_flip()
  }}
  round {{
    game_round()
    for each m in menace.casualties {{
      rise(m)
    }}
  }}
  rounds 12

  score dudes = 2 * total(1 for f in menace.casualties)
  score menace = 2 * total(1 for f in dudes.casualties)
}}
'''


def test_on_a_chessboard_the_fallen_rise_on_their_sides_row(tmp_path):
    found = scenario_of(tmp_path, SAS.format(root=root(tmp_path)), "sas")
    brought = 0
    for seed in range(1, 7):
        game = Game(found, seed, Policies("random"), record=True)
        game.play()
        deployed, returns = zones_played(game)
        assert deployed == {"dudes": "dudes_row", "menace": "menace_row"}
        assert all(r == ("menace", "menace_row") for r in returns), returns
        brought += len(returns)
    assert brought >= 1
    for seed in (1, 2):
        fast, slow = games(found, seed)
        results = [(outcome(g.interp, g.play), typed(g.final)) for g in (fast, slow)]
        assert results[0] == results[1], seed


def test_the_shipped_relay_beacons_name_the_sides_own_exit_by_a_role():
    text = (ROOT / "scenarios" / "ashfall-relay-beacons.rules").read_text(encoding="utf-8")
    assert "zone own_exit per side" in text and "own_exit(u.side)" in text
    assert "if u.side == watch" not in text
    shown = CliRunner().invoke(app, ["rules", "show", str(ROOT / "scenarios" /
                                                          "ashfall-relay-beacons.rules"),
                                     "--format", "json"])
    assert shown.exit_code == 0, shown.output
    assert json.loads(shown.stdout)["zone_roles"] == [
        {"name": "own_exit", "per_side": True, "zone": "south_exit for watch, north_exit for host",
         "doc": "The side's own table edge, where a squad leaves the table with the crate"}]
    # a ruleset that declares none says nothing of them
    plain = CliRunner().invoke(app, ["rules", "show", "ashfall", "--format", "json"])
    assert "zone_roles" not in json.loads(plain.stdout)


# ---- misuse -------------------------------------------------------------------------------------

def errors(tmp_path: Path, text: str, homes: str = SOUTH_NORTH):
    base = tmp_path / "reinforced.rules"
    base.write_text(BASE, encoding="utf-8")
    source = GAME.format(base=base.name, root=root(tmp_path), homes=homes)
    source = text.format(source=source) if "{source}" in text else text
    path = tmp_path / "game.rules"
    found = compile_text(source, str(path)).diagnostics
    return [d for d in found if d.severity.name == "ERROR"], source


def shown(d, source: str) -> str:
    base = d.span.file.replace("game.rules", "reinforced.rules")
    return render_text([d], Sources({d.span.file: source, base: BASE}))


def test_a_scenario_that_leaves_a_role_unfilled_is_e340_with_the_roles_it_must_fill(tmp_path):
    found, source = errors(tmp_path, "{source}")
    assert found == []
    cut = source.replace("  zone home is south_edge for empire, north_edge for family\n", "")
    cut = cut.replace("  zone middle is centre\n", "")
    found, _ = errors(tmp_path, cut)
    assert [d.code for d in found] == ["E340"], [(d.code, d.message) for d in found]
    d = found[0]
    assert "leaves home and middle unfilled" in d.message
    assert d.hint == "fill home (per side), middle, as in: zone home is ZONE for empire, " \
                     "ZONE for family"
    text = shown(d, cut)
    assert 'scenario reinforced "Two warbands' in text and "\n   |          ^^^^^^^^^^\n" in text
    assert "error[E340]" in text and "= hint: fill home (per side)" in text
    assert [r.message for r in d.related] == ["'home' declared here", "'middle' declared here"]


@pytest.mark.parametrize("homes,code,words", [
    ("south_edge for empire", "E340", "names none for family"),
    ("south_edge", "E340", "say whose this one is"),
    ("south_edge for empire, north_edge for empire", "E202", "has two zones for 'home'"),
    ("south_edge for empire, nort_edge for family", "E201", "unknown zone 'nort_edge'"),
    ("south_edge for empire, north_edge for famly", "E201", "famly"),
])
def test_a_role_per_side_is_filled_once_for_every_side(tmp_path, homes, code, words):
    found, _ = errors(tmp_path, "{source}", homes)
    assert code in [d.code for d in found], [(d.code, d.message) for d in found]
    assert any(words in d.message for d in found), [d.message for d in found]
    if code == "E201" and "nort_edge" in words:
        assert found[0].hint == "did you mean 'north_edge'?"


def test_a_role_for_every_side_takes_one_zone_for_no_side(tmp_path):
    _, source = errors(tmp_path, "{source}")
    found, _ = errors(tmp_path, source.replace("zone middle is centre",
                                               "zone middle is centre for empire"))
    assert [d.code for d in found] == ["E340"]
    assert "one zone for every side" in found[0].message


def test_an_unknown_role_in_a_scenario_is_e201_with_a_did_you_mean(tmp_path):
    _, source = errors(tmp_path, "{source}")
    found, _ = errors(tmp_path, source.replace("zone middle is centre", "zone midle is centre"))
    unknown = [d for d in found if d.code == "E201"]
    assert unknown and unknown[0].message == "unknown zone role 'midle'"
    assert unknown[0].hint == "did you mean 'middle'?"
    assert "E340" in [d.code for d in found]   # and `middle` is still unfilled


@pytest.mark.parametrize("old,new,code,message,hint", [
    # a role referred to but never declared
    ("bring back_again back into home(s)", "bring back_again back into hme(s)", "E201",
     "unknown table, definition, procedure or zone role 'hme'", "did you mean 'home'?"),
    ("if inside(f, middle)", "if inside(f, midle)", "E201", "unknown zone or kind of marker 'midle'",
     "did you mean 'middle'?"),
    # a role per side named without its side
    ("deploy s in home(s)", "deploy s in home", "E302", "'home' is a zone for each side: say whose",
     "as in: home(f.side)"),
    ("deploy s in home(s)", "deploy s in home(s, s)", "E301",
     "'home' takes one argument, the side whose zone it is, not 2", "as in: home(f.side)"),
    ("if inside(f, middle)", "if inside(f, middle(s))", "E302",
     "'middle' is one zone for every side, not a zone of each side", None),
])
def test_rules_that_name_a_role_wrongly(tmp_path, old, new, code, message, hint):
    assert old in BASE
    path = tmp_path / "reinforced.rules"
    found = [d for d in compile_text(BASE.replace(old, new), str(path)).diagnostics
             if d.severity.name == "ERROR"]
    assert [d.code for d in found] == [code], [(d.code, d.message) for d in found]
    assert found[0].message == message
    if hint is not None:
        assert found[0].hint == hint


def test_an_unknown_zone_is_e201_with_a_did_you_mean_among_the_zones(tmp_path):
    _, source = errors(tmp_path, "{source}")
    found, _ = errors(tmp_path, source.replace("set empire.Order = 1",
                                               "deploy empire in south_edg", 1))
    assert [d.code for d in found] == ["E201"]
    assert found[0].message == "unknown zone 'south_edg'"
    assert found[0].hint == "did you mean 'south_edge'?"


def test_a_ruleset_without_a_scenario_declares_roles_without_filling_them(tmp_path):
    found = compile_text(BASE, str(tmp_path / "reinforced.rules")).diagnostics
    assert [d for d in found if d.severity.name == "ERROR"] == []


def test_a_role_no_rule_names_is_w101(tmp_path):
    text = BASE.replace('zone middle "The middle of the table"',
                        'zone middle "The middle of the table"\nzone flank "Unused"')
    found = compile_text(text, str(tmp_path / "reinforced.rules")).diagnostics
    assert ("W101", "zone role 'flank' is never used") in [(d.code, d.message) for d in found]
    assert not [d for d in found if "'home'" in d.message or "'middle'" in d.message]
