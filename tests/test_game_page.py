"""`warband play --format html` and `--svg ROUND`: the game page's data, the board as SVG, the
options' diagnostics. Pure data and text, no browser (test_game_page_browser.py opens it)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from warband.cli import app
from warband.game import page, svg, viewer

ROOT = Path(__file__).resolve().parents[1]
GOLDEN = ROOT / "tests" / "golden" / "game_svg"
# one board in inches, one of squares
SCENARIOS = ("sss-standard-game", "greedy-dudes-vs-menace")


def warband(*args: str):
    return CliRunner().invoke(app, list(args))


@pytest.fixture(autouse=True)
def at_root(monkeypatch):
    monkeypatch.chdir(ROOT)


def played(scenario: str, seed: int = 1, policy: str | None = None):
    """A game played as `warband play --format html` plays it: (its record, its view)."""
    from warband.game.gamelog import game_record
    from warband.game.results import PlayRequest
    from warband.game.worker import loaded, policies_of
    request = PlayRequest(scenario, (("*", policy),) if policy else (), None)
    game = viewer.WatchedGame(loaded(request), seed, policies_of(request), None)
    result = game.play()
    record = game_record(scenario, game.scenario, seed, {}, None, result, game.log.events)
    record = json.loads(json.dumps(record))   # as a file holds it
    return record, viewer.view(record, game)


_GAMES: dict = {}


def game_of(scenario: str, policy: str | None = None):
    if (scenario, policy) not in _GAMES:
        _GAMES[scenario, policy] = played(scenario, policy=policy)
    return _GAMES[scenario, policy]


def point(at: list) -> tuple[float, float]:
    """A place as a record holds it: [x, y], numbers (record version 2)."""
    assert isinstance(at, list) and all(isinstance(v, (int, float)) for v in at), at
    x, y = at
    return float(x), float(y)


def steps_with_events(record: dict, data: dict):
    """Each step with the record's events it covers."""
    starts = viewer.step_starts(record["events"])
    assert len(starts) == len(data["steps"])
    for n, step in enumerate(data["steps"]):
        end = starts[n + 1] if n + 1 < len(starts) else len(record["events"])
        yield step, record["events"][starts[n]:end]


# ---- the steps and their states ------------------------------------------------------------

@pytest.mark.parametrize("scenario,policy", [(s, None) for s in SCENARIOS] +
                         [("fogbound-drowned-market", "greedy")])
def test_every_step_shows_where_its_moves_ended(scenario, policy):
    """The whole class: after every step, each fighter that moved in it stands where the
    record says its last move ended; each fighter removed so far is out of play. (Greedy
    players look ahead, playing out actions that are not the game's: none of them shows.)"""
    record, data = game_of(scenario, policy)
    names = [f["name"] for f in data["fighters"]]
    assert len(set(names)) == len(names)
    removed: set[str] = set()
    moved = 0
    for step, events in steps_with_events(record, data):
        state = data["states"][step["state"]]
        ends = {e["fighter"]: point(e["to"]) for e in events if e["type"] == "travel"}
        removed |= {e["fighter"] for e in events if e["type"] in ("removed", "withdrawn")}
        for name, (x, y) in ends.items():
            at = state["fighters"][names.index(name)]["at"]
            assert at is not None and abs(at[0] - x) <= 0.006 and abs(at[1] - y) <= 0.006, \
                (step["title"], name, at, (x, y))
            moved += 1
        for name in removed:
            assert state["fighters"][names.index(name)]["out"] in ("removed", "withdrawn")
    assert moved > 10


@pytest.mark.parametrize("scenario", SCENARIOS)
def test_the_steps_follow_the_game(scenario):
    record, data = game_of(scenario)
    steps = data["steps"]
    activations = [e for e in record["events"] if e["type"] == "activate"]
    titled = [s for s in steps if ": " in s["title"] and s["title"].startswith("Round ")
              and "(" in s["title"]]
    assert len(titled) >= len(activations)
    assert steps[0]["title"] == "Set-up" and steps[-1]["title"] == "Game over"
    assert [s["round"] for s in steps] == sorted(s["round"] for s in steps)
    # after set-up every fighter stands on the board
    after_setup = data["states"][viewer.state_after_round(data, 0)]
    assert all(f["at"] is not None for f in after_setup["fighters"])
    names = [f["name"] for f in data["fighters"]]
    for step, events in steps_with_events(record, data):   # the fighter acting, ringed
        acting = [e["fighter"] for e in events if e["type"] == "activate"]
        assert step["actor"] == (names.index(acting[0]) if acting else None)
    rolls = [line for s in steps for line in s["lines"] if " rolled " in line]
    assert len(rolls) == sum(e["type"] == "roll" for e in record["events"])


def test_the_sides_values_change_with_the_game():
    _, data = game_of("sss-standard-game")
    names = [v[0] for v in data["states"][-1]["sides"][0]["values"]]
    assert {"Fate", "Command"} <= set(names)
    seen = {json.dumps(s["sides"]) for s in data["states"]}
    assert len(seen) > 5   # tokens spent and restocked


def test_state_after_a_round_the_game_did_not_have():
    record, data = game_of("sss-standard-game")
    played_rounds = record["result"]["rounds"]
    assert viewer.state_after_round(data, played_rounds) is not None
    assert viewer.state_after_round(data, played_rounds + 1) is None


def test_event_kinds_this_viewer_does_not_know_start_no_step_and_show_their_text():
    events = [{"round": 0, "type": "setup"},
              {"round": 1, "type": "round"},
              {"type": "decision", "decision": "action", "by": "a", "choice": "move"},
              {"round": 1, "type": "activate", "fighter": "F", "side": "a", "action": "move"},
              {"round": 1, "type": "pick up", "fighter": "F", "text": "F picks up the idol"},
              {"round": 1, "type": "weather", "fog": 3},
              {"round": 1, "type": "end", "reason": "limit", "winner": None, "scores": {}}]
    assert viewer.step_starts(events) == [0, 1, 2, 6]
    lines = viewer.lines_of(events[2:6])
    assert lines == ["F (a): move", "F picks up the idol", "weather: fog 3"]


def test_a_game_without_activations_is_stepped_event_by_event():
    events = [{"round": 0, "type": "setup"},
              {"type": "roll", "dice": "d6", "value": 3},
              {"round": 0, "type": "place", "marker": "crate", "at": [1, 1]},
              {"round": 1, "type": "round"},
              {"type": "decision", "decision": "way", "by": "a", "choice": "north"},
              {"round": 1, "type": "travel", "fighter": "F", "at": [1, 1], "to": [2, 2]},
              {"round": 1, "type": "end", "reason": "limit", "winner": None, "scores": {}}]
    assert viewer.step_starts(events) == [0, 2, 3, 4, 6]
    assert viewer.title_of(events[4:6], 1) == "Round 1: moves (1, 1) -> (2, 2)"


# ---- the board as SVG -------------------------------------------------------------------------

@pytest.mark.parametrize("scenario,round_", [("sss-standard-game", 2),
                                             ("greedy-dudes-vs-menace", 3)])
def test_the_board_at_the_end_of_a_round_is_its_golden(scenario, round_, golden):
    result = warband("play", scenario, "--svg", str(round_))
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith("<svg ") and result.stdout.endswith("</svg>\n")
    golden(GOLDEN / f"{scenario}-seed1-round{round_}.svg", result.stdout)


def test_the_svg_is_the_same_every_time_and_from_a_replay(tmp_path):
    log = tmp_path / "game.json"
    first = warband("play", "sss-standard-game", "--seed", "4", "-o", str(log), "--format",
                    "json")
    assert first.exit_code == 0, first.output
    again = warband("play", "sss-standard-game", "--seed", "4", "--svg", "1")
    replayed = warband("play", "--replay", str(log), "--svg", "1")
    assert again.exit_code == replayed.exit_code == 0, replayed.output
    assert again.stdout == replayed.stdout
    page_out = tmp_path / "game.html"
    assert warband("play", "--replay", str(log), "--format", "html", "-o",
                   str(page_out)).exit_code == 0
    direct = warband("play", "sss-standard-game", "--seed", "4", "--format", "html")
    assert page_out.read_text(encoding="utf-8") == direct.stdout


def test_squares_and_inches_are_drawn_where_they_are():
    inches = svg.Geometry({"width": 24, "height": 24, "squares": False})
    assert inches.to_svg((0, 0)) == (svg.MARGIN, svg.MARGIN + 24 * svg.INCH)
    assert inches.to_svg((24, 24)) == (svg.MARGIN + 24 * svg.INCH, svg.MARGIN)
    squares = svg.Geometry({"width": 8, "height": 8, "squares": True})
    assert squares.to_svg((1, 1)) == (svg.MARGIN + svg.SQUARE / 2,
                                      svg.MARGIN + 7.5 * svg.SQUARE)   # row 1: the south


# ---- names from files are text ----------------------------------------------------------------

HOSTILE = ['<script>alert(1)</script>', '"onload=alert(1) x', "</script><b>&amp;",
           "__DATA__ @@DATA@@"]


def hostile_view() -> dict:
    state = {"fighters": [{"at": [3, 4], "out": "", "badges": [HOSTILE[2]]},
                          {"at": [5.5, 6], "out": "removed", "badges": []},
                          {"at": None, "out": "withdrawn", "badges": []},
                          {"at": [8, 9], "out": "", "badges": []}],
             "sides": [{"values": [[HOSTILE[0], 1]], "conceded": False},
                       {"values": [], "conceded": True}],
             "pieces": [[HOSTILE[1], [2, 2], None, 0.5], ["wall", [1, 1], [1, 5], 0]]}
    return {"title": HOSTILE[0], "scenario": HOSTILE[1], "seed": 1,
            "board": {"width": 12, "height": 12, "squares": False,
                      "zones": [{"name": HOSTILE[1], "shape": "edge", "where": ["south"],
                                 "size": 2, "corners": []}]},
            "sides": [HOSTILE[0], HOSTILE[1]],
            "fighters": [{"name": name, "side": i % 2} for i, name in enumerate(HOSTILE)],
            "states": [state],
            "steps": [{"round": 0, "title": HOSTILE[0], "lines": HOSTILE, "state": 0}],
            "result": {"winner": HOSTILE[0], "scores": {HOSTILE[0]: 1}, "rounds": 1,
                       "ended": "limit", "kills": {}}}


def test_names_in_the_svg_are_text():
    text = svg.board_svg(hostile_view(), 0)
    assert "<script" not in text and '"onload' not in text and "<b>" not in text
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in text
    assert "&quot;onload=alert(1) x" in text
    import xml.dom.minidom
    xml.dom.minidom.parseString(text)   # well-formed: every name escaped


def split_page(html: str) -> tuple[str, str]:
    """The page's embedded JSON, and the rest of the page."""
    data = re.search(r'<script type="application/json" id="game-data">(.*?)</script>', html,
                     re.S)
    assert data is not None
    return data.group(1), html.replace(data.group(0), "")


def test_names_in_the_page_are_text():
    html = page.render_page(hostile_view())
    # outside the embedded JSON, every name is escaped; inside it, no < or > at all
    embedded, rest = split_page(html)
    assert "<" not in embedded and ">" not in embedded
    assert json.loads(embedded)["fighters"][0]["name"] == HOSTILE[0]
    assert "<script>alert" not in rest and '"onload' not in rest and "<b>" not in rest
    assert rest.count("<script") == 1   # the page's own script, and nothing else
    assert "@@" not in rest.replace("__DATA__ @@DATA@@", "")   # every placeholder filled
    # offline: nothing to fetch (the SVG namespace is a name, not a link)
    assert "http://" not in rest.replace("http://www.w3.org/2000/svg", "")
    assert "https://" not in rest and " src=" not in rest


def test_a_fighter_named_like_markup_from_a_warband_file(tmp_path):
    mine = tmp_path / "mine.yaml"
    text = (ROOT / "warbands" / "clockwork-empire.yaml").read_text(encoding="utf-8")
    text = text.replace("name: Lieutenant", "name: '<script>alert(1)</script>'") \
        .replace("name: Musketeer", "name: '\"onload=alert(1)'")
    text = text.replace("$schema=../schemas/", f"$schema={ROOT}/schemas/")
    mine.write_text(text, encoding="utf-8")
    out = tmp_path / "game.html"
    result = warband("play", "sss-standard-game", "--side", f"empire={mine}", "--format",
                     "html", "-o", str(out))
    assert result.exit_code == 0, result.output
    html = out.read_text(encoding="utf-8")
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html   # in the board's tooltips
    assert "&quot;onload=alert(1)" in html
    embedded, rest = split_page(html)
    assert "<" not in embedded and json.loads(embedded)
    assert "<script>alert" not in rest and '"onload=alert(1)' not in rest


# ---- the options ----------------------------------------------------------------------------------

def refused(result, code: str, *texts: str) -> None:
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output and result.stdout == ""
    assert f"error[{code}]" in result.stderr, result.stderr
    for text in texts:
        assert text in result.stderr, result.stderr


def test_svg_with_another_format_is_refused():
    refused(warband("play", "sss-standard-game", "--svg", "1", "--format", "json"), "E643",
            "--svg cannot be used with --format json")


def test_a_picture_with_update_is_refused():
    refused(warband("play", "sss-standard-game", "--format", "html", "--dry-run"), "E643",
            "--format html cannot be used with --dry-run")
    refused(warband("play", "sss-standard-game", "--svg", "0", "--update"), "E643")


def test_a_round_the_game_did_not_reach():
    refused(warband("play", "sss-standard-game", "--svg", "40"), "E644",
            "the game ended after round 6", "a round from 0 (after set-up) to 6")


@pytest.mark.parametrize("given,message", [("x", "--svg takes a whole number, not 'x'"),
                                            ("-1", "--svg must be at least 0")])
def test_a_round_that_is_no_round(given, message):
    refused(warband("play", "sss-standard-game", f"--svg={given}"), "E910", message,
            "--svg:1:1")


def test_an_existing_page_is_kept_without_force(tmp_path):
    out = tmp_path / "game.html"
    out.write_text("mine", encoding="utf-8")
    refused(warband("play", "sss-standard-game", "--format", "html", "-o", str(out)), "E642")
    assert out.read_text(encoding="utf-8") == "mine"
    assert warband("play", "sss-standard-game", "--format", "html", "-o", str(out),
                   "--force").exit_code == 0
    assert out.read_text(encoding="utf-8").startswith("<!DOCTYPE html>")
