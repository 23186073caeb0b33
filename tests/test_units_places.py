"""Units of models with places (docs/language.md, "Units of models with places"; issue 37,
item 1).

Invariants over many seeded games of two toy systems (inches among rocks, mud and a wall; squares)
and of Ashfall, whose squads opted in, at every state the game page is drawn from
(game/viewer.py) and after every move:

- no base ever overlaps another, every model's base counted (inches: a base apart, less the
  touching tolerance; squares: different squares);
- after every move a unit made, each of its models is within its coherency of another (the
  unit's models are one connected group), and after deployment too;
- no model's move is longer than the move's allowance (the leader's way; each other model's
  straight way, difficult ground counting double), and no model's way passes through a base
  that blocks it;
- casualties fall in the order the class says (nearest first, farthest first), against a
  naive twin;

and the board-free default: without a board every model is in range and in sight, so the odds
of a volley by `models_in_range` are those of the whole unit firing (brute force); games play
alike generated and interpreted; a ruleset without `coherency` keeps no places.
"""

from __future__ import annotations

import functools
import itertools
import math
from collections import Counter
from fractions import Fraction
from pathlib import Path

import pytest

from warband.game.board import BASE, CONTACT
from warband.game.engine import Game
from warband.game.formation import grouped
from warband.game.scenario import load_scenario
from warband.game.viewer import WatchedGame
from warband.lang.compiler import compile_text, load
from warband.run import odds, places, units
from warband.run.decisions import Policies
from warband.run.world import FIGHTER_REFS, FighterSpec, make_world

ROOT = Path(__file__).resolve().parents[1]
PLACES = ROOT / "tests" / "units" / "places.rules"
BATTLE = ROOT / "tests" / "units" / "places-battle.rules"
SQUARES = ROOT / "tests" / "units" / "places-squares.rules"
ASHFALL = ROOT / "scenarios" / "ashfall-relay-beacons.rules"   # (its squads opted in)
NEAR = BASE - CONTACT - 1e-9


def _segment_gap(p, a, b) -> float:
    """How near point p comes to the segment from a to b."""
    ax, ay = a
    dx, dy = b[0] - ax, b[1] - ay
    length2 = dx * dx + dy * dy
    t = 0.0 if length2 == 0 else max(0.0, min(1.0, ((p[0] - ax) * dx + (p[1] - ay) * dy)
                                               / length2))
    return math.dist(p, (ax + t * dx, ay + t * dy))


def _connected(points: list, coherency: float, squares: bool) -> bool:
    def apart(p, q) -> float:
        return max(abs(p[0] - q[0]), abs(p[1] - q[1])) if squares else \
            max(0.0, math.dist(p, q) - BASE)
    seen, frontier = {0}, [0]
    while frontier:
        k = frontier.pop()
        for j in range(len(points)):
            if j not in seen and apart(points[j], points[k]) <= coherency + 0.01:
                seen.add(j)
                frontier.append(j)
    return len(seen) == len(points)


class Checked(WatchedGame):
    """A game that checks every model's base at every state the page notes, and each move."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.overlaps: list = []
        self.broken: list = []     # (round, unit) whose models were not together after a move
        self.too_far: list = []    # (unit, way, reach) a model went further than its allowance
        self.through: list = []    # (unit, way, base) a model's way crossed a blocking base
        self.group_moves = 0
        self.models_seen = 0

    def look(self, world) -> None:
        super().look(world)
        if self.log is not self.own_log:
            return
        standing = [(f.name, p) for f in world.fighters if not f.removed
                    for p in places.places(f)]
        self.models_seen = max(self.models_seen, len(standing))
        for i, (a, pa) in enumerate(standing):
            for b, pb in standing[i + 1:]:
                if (pa == pb) if self.board.squares else math.dist(pa, pb) < NEAR:
                    self.overlaps.append((self.round, a, b, pa, pb))

    def deploy_now(self, stmt, side, zone_name, world):
        after = super().deploy_now(stmt, side, zone_name, world)
        for f in after.fighters:
            if grouped(f) and not _connected(places.places(f), f.values["#coherency"],
                                             self.board.squares):
                self.broken.append((0, f.name))
        return after

    def travel(self, ref, reach, away, world, target=None, through=None):
        before = world.fighters[ref.index]
        after = super().travel(ref, reach, away, world, target, through)
        if self.log is not self.own_log:
            return after
        f = after.fighters[ref.index]
        if not grouped(before) or f.position == before.position:
            return after
        self.group_moves += 1
        if not _connected(places.places(f), f.values["#coherency"], self.board.squares):
            self.broken.append((self.round, f.name))
        blocking = [p for i, g in enumerate(world.fighters) if i != ref.index and not g.removed
                    and not (through == "friends" and g.side == f.side) for p in
                    places.places(g)]
        assert self.formation is not None
        ways = [self.movement.way or [before.position, f.position], *self.formation.ways]
        for way in ways:
            if self.board.squares:
                if max(abs(way[-1][0] - way[0][0]), abs(way[-1][1] - way[0][1])) > reach:
                    self.too_far.append((f.name, way, reach))
                continue
            cost = sum(self.board.cost(a, b) for a, b in zip(way, way[1:]))
            if cost > float(reach) + 0.02:
                self.too_far.append((f.name, way, reach))
            for at in blocking:
                if math.dist(way[0], at) < NEAR:
                    continue   # (a base it starts touching: it may only move off it)
                if any(_segment_gap(at, a, b) < NEAR - 0.02 for a, b in zip(way, way[1:])):
                    self.through.append((f.name, way, at))
        return after


@functools.lru_cache(maxsize=None)
def _games(path: Path, count: int, policy: str = "random") -> tuple:
    scenario = load_scenario(str(path))
    assert not isinstance(scenario, list), scenario
    played = []
    for seed in range(1, count + 1):
        game = Checked(scenario, seed, Policies(policy))
        game.play()
        played.append((seed, game))
    return tuple(played)


def _all_games() -> list:
    return [*_games(BATTLE, 20), *_games(BATTLE, 2, "greedy"), *_games(SQUARES, 12),
            *_games(ASHFALL, 12), *_games(ASHFALL, 2, "greedy")]


def test_no_models_base_ever_overlaps_another():
    for seed, game in _all_games():
        assert game.overlaps == [], (seed, game.overlaps[:3])
    # (the units did stand apart: more bases than fighters)
    assert max(game.models_seen for _, game in _all_games()) > 6


def test_a_unit_keeps_coherency_after_every_move_and_at_deployment():
    moves = 0
    for seed, game in _all_games():
        assert game.broken == [], (seed, game.broken[:3])
        moves += game.group_moves
    assert moves >= 50, "few units moved: the test tests little"


def test_no_model_moves_past_its_allowance_or_through_a_base():
    for seed, game in _all_games():
        assert game.too_far == [], (seed, game.too_far[:3])
        assert game.through == [], (seed, game.through[:3])


# ---- casualties in the class's order ------------------------------------------------------------

def _world(order: str, unit_at: list, enemy_at: tuple):
    text = PLACES.read_text().replace("casualties nearest first", f"casualties {order} first") \
        if order != "owner" else PLACES.read_text().replace("  casualties nearest first\n", "")
    compiled = compile_text(text, "places.rules")
    assert compiled.ruleset is not None, compiled.diagnostics
    world = make_world(compiled.ruleset, [FighterSpec("u", 0, "Squad", models=len(unit_at)),
                                          FighterSpec("e", 1, "Hero")])
    world = world.place(FIGHTER_REFS[0], unit_at[0]).place(FIGHTER_REFS[1], enemy_at)
    return world.set(FIGHTER_REFS[0], "#places", places.offsets_of(unit_at))


def _naive(order: str, unit_at: list, enemy_at: tuple, lost: int) -> list:
    """The models left: one at a time, the nearest (or farthest) to the enemy gone, a tie
    taking the one set out later."""
    left = list(unit_at)
    for _ in range(lost):
        d = [math.dist(p, enemy_at) for p in left]
        pick = (min if order == "nearest" else max)(d)
        k = max(i for i, x in enumerate(d) if x == pick)
        left.pop(k)
    return left


@pytest.mark.parametrize("order", ["nearest", "farthest", "owner"])
def test_casualties_fall_in_the_classs_order(order):
    unit_at = [(5.0, 5.0), (6.5, 5.0), (8.0, 5.0), (5.0, 6.5), (6.5, 6.5)]
    for enemy_at, lost in itertools.product([(20.0, 5.0), (1.0, 9.0), (6.5, 1.0)],
                                            range(0, 5)):
        world = _world(order, unit_at, enemy_at)
        after = units.inflict(world, FIGHTER_REFS[0], lost, None, FIGHTER_REFS[1])
        got = places.places(after.fighters[0])
        # the owner's choice is played as farthest first
        assert got == _naive("nearest" if order == "nearest" else "farthest", unit_at,
                             enemy_at, lost), (order, enemy_at, lost)
        assert after.fighters[0].values["#models"] == 5 - lost
        assert after.fighters[0].position == got[0]


def test_without_a_board_a_unit_has_no_places_and_loses_models_by_count():
    world = make_world(load(str(PLACES)).ruleset, [FighterSpec("u", 0, "Squad"),
                                                   FighterSpec("e", 1, "Hero")])
    assert world.fighters[0].values["#places"] == ()
    after = units.inflict(world, FIGHTER_REFS[0], 2, None, FIGHTER_REFS[1])
    assert after.fighters[0].values["#models"] == 3
    assert places.places(after.fighters[0]) == []


# ---- odds: the board-free default ---------------------------------------------------------------

def _fighter(ruleset, text: str, side: int):
    found: list = []
    parsed = odds.parse_fighter(text, "--t", ruleset, side, found)
    assert not found, found
    return parsed


def test_the_odds_of_a_volley_by_the_models_in_range_are_the_whole_units_without_a_board():
    """Without a board every model is in range (and sees): 5 troopers fire 5d6, hits on 4+,
    each hit a model of a 6-model mob (brute force over every face)."""
    ruleset = load(str(PLACES)).ruleset
    for action, need in (("volley", 4), ("aimed", 5)):
        result = odds.compute(ruleset, action, [_fighter(ruleset, "class=Squad", 0),
                                                _fighter(ruleset, "class=Mob", 1)], {},
                              Policies("first"))
        brute: Counter = Counter()
        for faces in itertools.product(range(1, 7), repeat=5):
            brute[sum(1 for f in faces if f >= need)] += 1
        assert dict(result.distribution.items()) == {k: Fraction(v, 6 ** 5)
                                                     for k, v in brute.items()}, action


def test_on_a_board_only_the_models_in_range_fire():
    """The board's answer: models_in_range counts the models within D of the target's nearest
    model, models_seeing those that see it; distance is between the nearest models."""
    scenario = load_scenario(str(BATTLE))
    game = Game(scenario, 1, Policies("first"))
    world = _world("nearest", [(2.0, 2.0), (4.0, 2.0), (6.0, 2.0), (8.0, 2.0), (10.0, 2.0)],
                   (22.0, 2.0))
    q = game.questions
    u, e = FIGHTER_REFS[0], FIGHTER_REFS[1]
    # the target's base is 12" (edge to edge) from the model at (10, 2)? 22-10-1 = 11
    assert q.distance(u, e, world) == 11
    assert q.models_in_range(u, e, 12, world) == 1
    assert q.models_in_range(u, e, 15, world) == 3
    assert q.models_in_range(u, e, 10, world) == 0
    assert q.models_seeing(u, e, world) == 5


def test_an_area_catches_a_unit_when_any_of_its_models_is_under_it():
    from warband.run import areas
    world = _world("nearest", [(2.0, 2.0), (4.0, 2.0), (6.0, 2.0), (8.0, 2.0), (10.0, 2.0)],
                   (10.0, 6.0))
    u, e = FIGHTER_REFS[0], FIGHTER_REFS[1]
    near = areas.make("circle", (e, 4), world, False)   # round (10, 6): the model at (10, 2)
    far = areas.make("circle", (e, 3), world, False)   # (its base half an inch outside)
    assert areas.under(world, near) == (u, e) and areas.is_under(world, u, near)
    assert areas.under(world, far) == (e,) and not areas.is_under(world, u, far)


# ---- games ---------------------------------------------------------------------------------------

def test_a_game_with_places_plays_alike_generated_and_interpreted():
    scenario = load_scenario(str(BATTLE))
    for seed in range(1, 4):
        finals = []
        for compiled in (True, False):
            game = Game(scenario, seed, Policies("random"))
            game.interp.compiled = compiled
            result = game.play()
            assert game.final is not None
            finals.append((result.winner, result.scores,
                           [(f.values, f.removed, f.position) for f in game.final.fighters]))
        assert finals[0] == finals[1], seed


def test_a_unit_without_coherency_keeps_no_places():
    ruleset = load(str(ROOT / "tests" / "units" / "squad.rules")).ruleset
    assert not ruleset.has_places
    world = make_world(ruleset, [FighterSpec("a", 0, "Trooper")])
    assert "#places" not in world.fighters[0].values


# ---- the board picture and the replay page -------------------------------------------------------

def test_the_board_picture_draws_each_model_and_an_outline_round_each_unit():
    from typer.testing import CliRunner

    from warband.cli import app
    out = CliRunner().invoke(app, ["play", str(BATTLE), "--seed", "2", "--svg", "0"])
    assert out.exit_code == 0, out.output
    svg = out.output
    # 6 + 6 + 5 + 8 models in four units, each unit's first model drawn as a fighter is
    assert svg.count('class="model"') == 5 + 5 + 4 + 7
    assert svg.count('class="outline"') == 4
    assert "Red squad (red) at (" in svg and "and 5 more models" in svg
    # a fighter that is no unit is drawn as before: one base, no outline
    hero = svg[svg.index('id="f2"'):]
    assert hero[:hero.index("</g>")].count("<circle") == 1


def test_the_replay_page_moves_the_models_from_step_to_step():
    import json
    import re

    from typer.testing import CliRunner

    from warband.cli import app
    out = CliRunner().invoke(app, ["play", str(BATTLE), "--seed", "2", "--format", "html"])
    assert out.exit_code == 0, out.output
    found = re.search(r'<script type="application/json" id="game-data">(.*?)</script>',
                      out.output, re.S)
    assert found, "no game data in the page"
    data = json.loads(found.group(1))
    drawn = [s["fighters"][0] for s in data["states"] if "models" in s["fighters"][0]]
    assert drawn, "the squad's models were never drawn"
    assert len({tuple(map(tuple, d["models"])) for d in drawn}) > 1   # they moved
    assert all(d["outline"] for d in drawn)
    assert "function drawModels" in out.output


def test_the_replay_page_in_a_browser_draws_the_models_of_the_last_step(tmp_path):
    """Opened in a headless Chromium and stepped to its end: no script error, and each unit's
    other models drawn as the last state places them (the page makes them anew each step)."""
    import json
    from html.parser import HTMLParser

    from typer.testing import CliRunner

    from headless import CHROMIUM, chromium
    from warband.cli import app
    if CHROMIUM is None:
        pytest.skip("no Chromium to open the page in")
    page = tmp_path / "game.html"
    made = CliRunner().invoke(app, ["play", str(BATTLE), "--seed", "2", "--format", "html",
                                    "-o", str(page)])
    assert made.exit_code == 0, made.output
    run = chromium(tmp_path, "--dump-dom", page.as_uri() + "#autoplay")
    assert run.returncode == 0 and "Uncaught" not in run.stderr, run.stderr[-2000:]

    class Models(HTMLParser):
        def __init__(self) -> None:
            super().__init__()
            self.count: Counter = Counter()
            self.fighter: int | None = None
            self.errors = ""
            self._errors = False

        def handle_starttag(self, tag, attrs):
            a = dict(attrs)
            if tag == "g" and (a.get("id") or "").startswith("f") and a["id"][1:].isdigit():
                self.fighter = int(a["id"][1:])
            elif tag == "circle" and a.get("class") == "model":
                self.count[self.fighter] += 1
            self._errors = tag == "pre" and a.get("id") == "errors"

        def handle_data(self, data):
            if self._errors:
                self.errors += data
    dom = Models()
    dom.feed(run.stdout)
    assert dom.errors.strip() == "", dom.errors
    data = json.loads(run.stdout.split('id="game-data">', 1)[1].split("</script>", 1)[0])
    last = data["states"][data["steps"][-1]["state"]]
    want = {i: len(f["models"]) for i, f in enumerate(last["fighters"]) if f.get("models")}
    assert want, "no unit left standing at the end: the test tests nothing"
    assert {i: n for i, n in dom.count.items() if n} == want


# ---- the language around it ----------------------------------------------------------------------

def test_a_place_line_given_twice_is_e202():
    text = PLACES.read_text().replace('  coherency 2 "each trooper within 2\\" of another"\n',
                                      '  coherency 2\n  coherency 3\n')
    compiled = compile_text(text, "places.rules")
    assert [d.code for d in compiled.diagnostics] == ["E202"], compiled.diagnostics
    assert "'coherency' twice" in compiled.diagnostics[0].message


def test_rules_show_says_which_units_have_places():
    from typer.testing import CliRunner

    from warband.cli import app
    out = CliRunner().invoke(app, ["rules", "show", str(PLACES)])
    assert out.exit_code == 0, out.output
    text = " ".join(out.output.split())
    assert "each model on its own base, within 2 of another; casualties: the nearest first" \
        in text
    assert "within 1 of another; casualties: the owner's choice" in text


def test_shipped_games_that_do_not_opt_in_have_no_formation():
    """Their games take the path they took before (the seeded records and work counts guard
    the rest): no places, the board's questions as they were."""
    from warband.game.questions import Questions
    for name in ("sss-standard-game", "smart-dungeon", "fogbound-drowned-market"):
        scenario = load_scenario(name)
        assert not isinstance(scenario, list)
        assert not scenario.ruleset.has_places
        game = Game(scenario, 1, Policies("random"))
        assert game.formation is None and type(game.questions) is Questions
    assert load(str(ASHFALL)).ruleset.has_places   # (Ashfall's squads opted in)


def test_the_owners_choice_of_casualties_is_a_players_decision_recorded_and_replayed(tmp_path):
    """A unit whose class says no order (the Mob): its side's player picks each model that
    falls (a `casualty` decision in the record, by where the model stands), and a replay of
    the record picks the same ones."""
    import json

    from typer.testing import CliRunner

    from warband.cli import app
    runner = CliRunner()
    record = tmp_path / "game.json"
    made = runner.invoke(app, ["play", str(BATTLE), "--seed", "4", "--format", "json",
                               "-o", str(record)])
    assert made.exit_code == 0, made.output
    events = json.loads(record.read_text())["events"]
    picked = [e for e in events if e.get("decision") == "casualty" or
              e.get("kind") == "casualty"]
    assert picked, [e for e in events if e["type"] == "decided"][:3]
    first = runner.invoke(app, ["play", str(BATTLE), "--seed", "4"])
    again = runner.invoke(app, ["play", str(BATTLE), "--replay", str(record)])
    assert again.exit_code == 0, again.output
    assert "decides casualty: model at (" in first.output
    assert again.output == first.output


def test_a_policy_for_the_owners_choice_of_casualties():
    """`--policy casualty=first`: the first model left falls each time (the unit's first
    model, so the unit's position moves to the next)."""
    from typer.testing import CliRunner

    from warband.cli import app
    out = CliRunner().invoke(app, ["play", str(BATTLE), "--seed", "4", "--policy",
                                   "casualty=first"])
    assert out.exit_code == 0, out.output
    assert "decides casualty: model at (" in out.output
    bad = CliRunner().invoke(app, ["play", str(BATTLE), "--policy", "casualties=first"])
    assert bad.exit_code == 2 and "casualty" in bad.output


def test_a_units_places_on_squares_are_squares_after_a_game_in_inches_at_the_same_numbers():
    """The places kept by position (run/places.py) tell (3, 4) from (3.0, 4.0)."""
    world = make_world(load(str(PLACES)).ruleset, [FighterSpec("u", 0, "Squad")])
    inches = world.place(FIGHTER_REFS[0], (3.0, 4.0)).set(FIGHTER_REFS[0], "#places",
                                                          ((0.0, 0.0), (1.0, 0.0)))
    squares = world.place(FIGHTER_REFS[0], (3, 4)).set(FIGHTER_REFS[0], "#places",
                                                       ((0, 0), (1, 0)))
    assert places.places(inches.fighters[0]) == [(3.0, 4.0), (4.0, 4.0)]
    got = places.places(squares.fighters[0])
    assert got == [(3, 4), (4, 4)] and all(type(c) is int for p in got for c in p)


def test_a_unit_brought_back_is_set_out_again_in_its_zone():
    """`bring f back into ZONE`: its models round the spot its player picks, in the zone,
    apart from every other base and within its coherency; the log tells where it stands."""
    scenario = load_scenario(str(ROOT / "tests" / "units" / "places-back.rules"))
    assert not isinstance(scenario, list), scenario
    for seed in range(1, 6):
        game = Checked(scenario, seed, Policies("random"), record=True)
        game.play()
        assert game.overlaps == [] and game.broken == [], seed
        back = [e for e in game.log.events if e["type"] == "return"]
        assert [e["fighter"] for e in back] == ["Red squad"]
        assert game.final is not None
        squad = game.final.fighters[0]
        here = places.places(squad)
        assert len(here) == 6 and _connected(here, 2, False)
        north = game.board.zones["north"]
        assert game.board.in_zone(tuple(back[0]["at"]), north)   # (its first model's place)
        if not any(e["type"] == "travel" and e["fighter"] == "Red squad"
                   for e in game.log.events):   # (still where it was set out)
            assert all(game.board.in_zone(p, north) for p in here), (seed, here)
