"""Back into play: `bring f back into ZONE` (issue "Back into play": "the drawer places one
destroyed model back on its edge").

A fighter out of play (a casualty, or withdrawn) comes back, as it was when it went out, at a
free spot of the zone its side's player picks; the log says so (a `return` event), a record of
the game replays, and generated code and the interpreter play the same games. Two house rules
of two shipped systems (tests/back_into_play/): Super Simple Skirmish on a board in inches, and
Swords Against Sorcery on a chessboard. Misuse: a fighter in play (E508), no game (E506), the
wrong kind of value (E302), an unknown zone.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from test_differential import games, outcome, scenario_of, typed
from warband.cli import app
from warband.game.engine import Game
from warband.game.log_text import render_text
from warband.game.scenario import load_scenario
from warband.lang.compiler import compile_text
from warband.run.decisions import Policies
from warband.run.evaluate import RulesError
from warband.run.interpreter import Interpreter
from warband.run.world import Ref

HERE = Path(__file__).parent / "back_into_play"
HOUSE_RULES = [HERE / "sss-reinforcements.rules", HERE / "sas-undying.rules"]


def scenario(path: Path):
    found = load_scenario(str(path))
    assert not isinstance(found, list), [f"{d.span}: {d.message}" for d in found]
    return found


def watched(game: Game) -> list:
    """Every bring-back of the game, checked as it happens: the fighter in play again, its
    whole base inside the zone, on no other fighter's spot. (the fighter's name, the zone)."""
    seen: list = []
    placement = game.placement
    bring_back = placement.bring_back

    def checked(stmt, ref, zone_name, world):
        before = world.fighters[ref.index]
        assert before.removed
        after = bring_back(stmt, ref, zone_name, world)
        f = after.fighters[ref.index]
        assert not f.removed and not f.withdrawn and f.removed_by is None
        assert game.board.in_zone(f.position, game.board.zones[zone_name])
        others = [g.position for i, g in enumerate(after.fighters)
                  if i != ref.index and not g.removed]
        assert f.position not in others
        assert f.values.keys() == before.values.keys()
        seen.append((f.name, zone_name))
        return after
    placement.bring_back = checked   # type: ignore[method-assign]
    return seen


@pytest.mark.parametrize("path", HOUSE_RULES, ids=lambda p: p.stem)
def test_the_house_rules_compile(path):
    compiled = compile_text(path.read_text(encoding="utf-8"), str(path))
    assert not [d for d in compiled.diagnostics if d.severity.name == "ERROR"]


@pytest.mark.parametrize("path", HOUSE_RULES, ids=lambda p: p.stem)
def test_seeded_games_play_to_the_end_and_bring_fighters_back(path):
    found = scenario(path)
    brought = 0
    for seed in range(1, 9):
        game = Game(found, seed, Policies("random"), record=True)
        seen = watched(game)
        result = game.play()
        assert result.rounds >= 1
        returns = [e for e in game.state.log.events if e["type"] == "return"]
        assert [(e["fighter"], e["zone"]) for e in returns] == seen
        for e in returns:
            assert set(e) == {"round", "type", "fighter", "side", "zone", "at"}
            assert isinstance(e["at"], list) and len(e["at"]) == 2
        brought += len(seen)
        if seen:
            text = render_text({"scenario_title": path.stem, "seed": seed,
                                "events": list(game.state.log.events)})
            name, zone = seen[0]
            assert f"{name} (" in text and f"comes back into play in {zone} at (" in text
        # a fighter brought back is in play at the end unless it went out again
        final = game.final
        for name, _ in seen:
            f = next(f for f in final.fighters if f.name == name)
            assert f.position is not None
    assert brought >= 2, "no game of eight brought anyone back: the test shows nothing"


def test_a_returned_fighter_is_no_longer_a_casualty_and_keeps_its_values():
    """As it was when it went out: Super Simple Skirmish's house rule clears Stunned and marks
    Returned itself; everything else is as it was."""
    found = scenario(HOUSE_RULES[0])
    for seed in range(1, 9):
        game = Game(found, seed, record=True)
        seen = watched(game)
        game.play()
        if seen:
            final = game.final
            for name, _ in seen:
                f = next(f for f in final.fighters if f.name == name)
                assert f.values["Returned"] is True
            return
    pytest.fail("no game brought anyone back")


@pytest.mark.parametrize("path", HOUSE_RULES, ids=lambda p: p.stem)
def test_a_record_replays(path, tmp_path):
    runner = CliRunner()
    for seed in range(1, 9):
        made = runner.invoke(app, ["play", str(path), "--seed", str(seed), "--format", "json"])
        assert made.exit_code == 0, made.output
        record = json.loads(made.stdout)
        if any(e["type"] == "return" for e in record["events"]):
            break
    else:
        pytest.fail("no game brought anyone back")
    log = tmp_path / "game.json"
    log.write_text(json.dumps(record), encoding="utf-8")
    replayed = runner.invoke(app, ["play", str(path), "--replay", str(log)])
    assert replayed.exit_code == 0, replayed.output
    assert "comes back into play in" in replayed.stdout


@pytest.mark.parametrize("path", HOUSE_RULES, ids=lambda p: p.stem)
def test_generated_code_and_the_interpreter_agree(path):
    found = scenario(path)
    for seed in (1, 2, 3, 4):
        fast, slow = games(found, seed)
        played = (fast, Game(found, seed, record=True), slow)
        results = [(outcome(g.interp, g.play), typed(g.final)) for g in played]
        assert results[0] == results[1] == results[2], seed
        assert results[0][0][0][0] == "ok", results[0][0][0]


# ---- misuse -----------------------------------------------------------------------------------

MISUSE = '''
ruleset "misuse"
  extends "super-simple-skirmish"

phase rise(f: fighter) "back on the south edge" {{
  {body}
}}

scenario misuse {{
  board 12 by 12 inches
  side a {{ fighter "A" count 2 {{ class Soldier  stat Might = 10 }} }}
  side b {{ fighter "B" {{ class Soldier  stat Might = 10 }} }}
  zone south = edge south depth 2
  zone north = edge north depth 2
  setup {{ deploy a in south  deploy b in north }}
  round {{ {round} }}
  rounds 1
  score a = 0
  score b = 0
}}
'''


def diagnostics(body: str):
    text = MISUSE.format(body=body, round="for each f in a.fighters { rise(f) }")
    return [d for d in compile_text(text, "misuse.rules").diagnostics
            if d.severity.name == "ERROR"]


@pytest.mark.parametrize("body,words", [
    ("bring f.side back into south", "who comes back into play"),
    ("bring f back into f", "where it comes back"),
    ("bring f back into 3", "where it comes back"),
])
def test_the_wrong_kind_of_value_is_e302(body, words):
    found = diagnostics(body)
    assert [d.code for d in found] == ["E302"], [(d.code, d.message) for d in found]
    assert words in found[0].message


def test_an_unknown_zone_is_e201():
    found = diagnostics("bring f back into sout")
    assert [d.code for d in found] == ["E201"]
    assert "unknown zone 'sout'" in found[0].message
    assert found[0].hint == "did you mean 'south'?"


def test_bringing_back_a_fighter_in_play_is_e508(tmp_path):
    text = MISUSE.format(body="bring f back into south",
                         round="for each f in a.fighters { rise(f) }")
    for compiled in (True, False):
        game = Game(scenario_of(tmp_path, text, "in-play"), 1)
        game.interp.compiled = compiled
        with pytest.raises(RulesError) as error:
            game.play()
        d = error.value.diagnostic
        assert d.code == "E508"
        assert "A 1 (a) is in play" in d.message and "out of play" in d.message
        assert "s.casualties" in (d.hint or "") and "f.removed" in (d.hint or "")


def test_no_room_in_the_zone_is_e507(tmp_path):
    text = MISUSE.format(
        body="bring f back into south",
        round="for each f in b.fighters { remove f }  for each f in b.casualties { rise(f) }")
    text = text.replace("zone south = edge south depth 2",
                        "zone south = area (1, 1) to (1, 1)")
    text = text.replace("deploy a in south", "deploy a in north")
    text = text.replace("board 12 by 12 inches", "board 4 by 4 squares")
    text = text.replace('fighter "A" count 2', 'fighter "A" count 1')
    # one spot in the zone, taken by nobody: B comes back; then A stands on it
    game = Game(scenario_of(tmp_path, text, "room"), 1, record=True)
    game.play()
    assert [e["fighter"] for e in game.state.log.events if e["type"] == "return"] == ["B"]
    crowded = text.replace("deploy a in north", "deploy a in south")
    with pytest.raises(RulesError) as error:
        Game(scenario_of(tmp_path, crowded, "crowded"), 1).play()
    assert error.value.diagnostic.code == "E507"
    assert "no room left in zone 'south' to bring B back" in error.value.diagnostic.message


def test_outside_a_game_it_is_e506(tmp_path):
    """The odds of one action have no board: sampled, exactly, and by generated code."""
    found = scenario_of(tmp_path, MISUSE.format(body="bring f back into south",
                                                round="for each f in a.fighters { rise(f) }"),
                        "outside")
    world = found.start().remove(Ref("fighter", 0))
    for how in ("sample", "exact"):
        for compiled in (True, False):
            interp = Interpreter(found.ruleset)
            interp.compiled = compiled
            with pytest.raises(RulesError) as error:
                getattr(interp, how)("rise", {"f": Ref("fighter", 0)}, world)
            d = error.value.diagnostic
            assert d.code == "E506", (how, compiled, d.code, d.message)
            assert "'bring ... back' needs a game on a board" in d.message
            assert "warband play" in (d.hint or "")


def test_the_game_page_shows_the_return(tmp_path):
    """`warband play --format html`: a return is a step of the page (game/viewer.py)."""
    page = tmp_path / "game.html"
    made = CliRunner().invoke(app, ["play", str(HOUSE_RULES[1]), "--seed", "3", "--format",
                                    "html", "-o", str(page)])
    assert made.exit_code == 0, made.output
    assert "Menace 1 (menace) comes back into play in menace_row" in \
        page.read_text(encoding="utf-8")


def test_a_reserve_is_a_fighter_withdrawn_at_set_up(tmp_path):
    """A reserve: withdrawn before deployment (deploy sets up only fighters in play), brought
    into play later, in any zone; `withdraw` at set-up names no one who drove it off."""
    text = MISUSE.format(body="bring f back into north",
                         round="for each f in a.withdrawn { rise(f) }")
    text = text.replace("setup { deploy a in south",
                        "setup { for each f in a.fighters { if f.name == \"A 2\" { withdraw f } }"
                        "  deploy a in south")
    for compiled in (True, False):
        game = Game(scenario_of(tmp_path, text, "reserve"), 1, record=True)
        game.interp.compiled = compiled
        seen = watched(game)
        game.play()
        assert seen == [("A 2", "north")]
        events = [e["type"] for e in game.state.log.events
                  if e["type"] in ("withdrawn", "deploy", "return")]
        assert events == ["withdrawn", "deploy", "deploy", "return"]
