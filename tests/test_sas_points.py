"""Swords Against Sorcery with points (dsl/swords-against-sorcery-points.rules): the costs, and a
few of the odds its header gives as their justification, worked out again.

The odds of a fight to the finish are exact: each round is the base file's `exchange`, worked out
exactly by the interpreter for every state the two figures can be in (Training and damage taken);
the rounds are chained as a Markov chain until one figure falls. A round that changes nothing
repeats, which is summed as a geometric series, so no round limit cuts the fight short.
"""

from __future__ import annotations

from fractions import Fraction as F
from functools import lru_cache
from pathlib import Path

import pytest

from warband.lang.compiler import load
from warband.lists.validate import validate
from warband.run.interpreter import Interpreter, Policies
from warband.run.world import FighterSpec, Ref, make_world

ROOT = Path(__file__).resolve().parents[1]
A, T = Ref("fighter", 0), Ref("fighter", 1)


@pytest.fixture(scope="module")
def points():
    compiled = load("swords-against-sorcery-points")
    assert compiled.ruleset is not None, compiled.diagnostics
    assert compiled.diagnostics == []
    return compiled.ruleset


def figure(side, training, damage=0, size="Medium", traits=None, equipment=()):
    return FighterSpec(f"f{side}", side, None, {"Training": training, "Size": size},
                       traits=dict(traits or {}), equipment=tuple(equipment),
                       state={"Damage": damage}, position=None)


def fight(ruleset, a: dict, b: dict) -> tuple[F, F]:
    """P(a wins), P(b wins) in a fight to the finish, both playing the default hands."""
    interpreter = Interpreter(ruleset, Policies("first"))

    def observe(w):
        fa, fb = w.fighter(A).values, w.fighter(T).values
        return fa["Training"], fa["Damage"], fb["Training"], fb["Damage"]

    @lru_cache(maxsize=None)
    def round_(state):
        ta, da, tb, db = state
        world = make_world(ruleset, [figure(0, ta, da, **a), figure(1, tb, db, **b)], [{}, {}])
        result = interpreter.exact("exchange", {"attacker": A, "target": T}, world,
                                   observe=observe)
        after: dict = {}
        for (_, state2), p in result.items():
            after[state2] = after.get(state2, 0) + p
        return after

    @lru_cache(maxsize=None)
    def win(state):
        ta, _, tb, _ = state
        if ta < 1 or tb < 1:
            return F(int(tb < 1 <= ta)), F(int(ta < 1 <= tb))
        moves = round_(state)
        stay = moves.get(state, 0)
        pa = pb = F(0)
        for state2, p in moves.items():
            if state2 != state:
                x, y = win(state2)
                pa, pb = pa + p * x, pb + p * y
        return pa / (1 - stay), pb / (1 - stay)

    return win((a.pop("training"), 0, b.pop("training"), 0))


def costs_of(path: Path):
    result = validate([str(path)]).files[0]
    assert result.diagnostics == [], result.diagnostics
    return result


# ---- the costs ----------------------------------------------------------------------------------

def test_the_scenario_forces_fit_the_standard_game():
    dudes = costs_of(ROOT / "warbands" / "greedy-dudes-points.yaml")
    menace = costs_of(ROOT / "warbands" / "vaguely-defined-menace-points.yaml")
    assert (dudes.total, dudes.limit) == (48, 60)      # 4 x Training 3: 4 x 12
    assert (menace.total, menace.limit) == (60, 60)    # 3 x (Training 4, Big, Toughness 1): 3 x 20


def test_the_originals_validate_against_the_points_file_too(tmp_path):
    for name in ("greedy-dudes.yaml", "vaguely-defined-menace.yaml"):
        text = (ROOT / "warbands" / name).read_text().replace(
            "ruleset: swords-against-sorcery\n", "ruleset: swords-against-sorcery-points\n")
        (tmp_path / name).write_text(text)
        assert costs_of(tmp_path / name).limit == 60


def test_a_second_hero_breaks_the_quota(tmp_path):
    path = tmp_path / "heroes.yaml"
    path.write_text("name: Heroes\nruleset: swords-against-sorcery-points\nfighters:\n"
                    "  - name: Hero\n    training: 3\n    count: 2\n    traits: {Guts: true}\n")
    result = validate([str(path)]).files[0]
    assert [d.code for d in result.diagnostics] == ["E703"]


# ---- the odds in the header ---------------------------------------------------------------------

@pytest.mark.parametrize("a, b, expected", [
    # Training 3 + Toughness 2 (worth 8, 16 points) vs Training 4 (16 points): 55% / 43%
    (dict(training=3, traits={"Toughness": 2}), dict(training=4), (55, 43)),
    # Training 3 + Chainmail (worth 10, 20 points) vs Training 5 (20 points): 49% / 51%
    (dict(training=3, equipment=("Chainmail",)), dict(training=5), (49, 51)),
    # Training 4 + Dagger (worth 4, 8 points) vs Training 2 (8 points): 52% / 48%
    (dict(training=4, equipment=("Dagger",)), dict(training=2), (52, 48)),
    # Training 4 + Guts (worth 10) vs Training 5: 48% / 50%
    (dict(training=4, traits={"Guts": True}), dict(training=5), (48, 50)),
])
def test_equal_costs_fight_about_evenly(points, a, b, expected):
    assert _cost(points, a) == _cost(points, b)
    pa, pb = fight(points, dict(a), dict(b))
    assert (round(100 * pa), round(100 * pb)) == expected
    assert abs(pa - pb) < F(15, 100)


def test_one_training_level_is_not_an_even_fight(points):
    """One on one, Training 3 against 4 is far from even (17% / 81%): a cost only linear in
    Training looks too cheap for the stronger figure..."""
    pa, pb = fight(points, dict(training=3), dict(training=4))
    assert (round(100 * pa), round(100 * pb)) == (17, 81)


def gang_fight(ruleset, gang: tuple[int, ...], lone: int) -> tuple[F, F]:
    """P(gang wins), P(lone figure wins): the gang (of these Trainings) gangs up on the lone
    figure each round, pooling its dice, until one side is gone; a gang of one exchanges."""
    interpreter = Interpreter(ruleset, Policies("first"))
    n = len(gang)

    @lru_cache(maxsize=None)
    def round_(state):
        alive = [i for i in range(n) if state[2 * i] >= 1]
        specs = [figure(0, state[2 * i], state[2 * i + 1]) for i in alive]
        specs.append(figure(1, state[2 * n], state[2 * n + 1]))
        world = make_world(ruleset, specs, [{}, {}])
        lone_ref = Ref("fighter", len(alive))

        def observe(w):
            out = list(state)
            for k, i in enumerate(alive + [n]):
                values = w.fighter(Ref("fighter", k)).values
                out[2 * i], out[2 * i + 1] = values["Training"], values["Damage"]
            return tuple(out)

        action, args = ("gang_up", {"leader": Ref("fighter", 0), "lone": lone_ref}) \
            if len(alive) >= 2 else ("exchange", {"attacker": Ref("fighter", 0),
                                                 "target": lone_ref})
        after: dict = {}
        for (_, state2), p in interpreter.exact(action, args, world, observe=observe).items():
            after[state2] = after.get(state2, 0) + p
        return after

    @lru_cache(maxsize=None)
    def win(state):
        gang_stands = any(state[2 * i] >= 1 for i in range(n))
        lone_stands = state[2 * n] >= 1
        if not (gang_stands and lone_stands):
            return F(int(gang_stands and not lone_stands)), F(int(lone_stands and not gang_stands))
        moves = round_(state)
        stay = moves.get(state, 0)
        pa = pb = F(0)
        for state2, p in moves.items():
            if state2 != state:
                x, y = win(state2)
                pa, pb = pa + p * x, pb + p * y
        return pa / (1 - stay), pb / (1 - stay)

    return win(tuple(x for t in gang for x in (t, 0)) + (lone, 0))


@pytest.mark.parametrize("gang, lone, expected", [
    ((2, 2), 4, (50, 47)),       # 2 x 8 points against 16
    ((3, 3), 6, (51, 48)),       # 2 x 12 against 24
    ((2, 4), 6, (53, 47)),       # 8 + 16 against 24
])
def test_but_numbers_count_as_much_as_training(points, gang, lone, expected):
    """...because figures gang up: equal costs, linear in Training, fight about evenly."""
    assert sum(_cost(points, {"training": t}) for t in gang) == _cost(points, {"training": lone})
    pa, pb = gang_fight(points, gang, lone)
    assert (round(100 * pa), round(100 * pb)) == expected


def _cost(ruleset, spec: dict) -> int:
    """A figure's cost, by the ruleset's own army rule."""
    fig = figure(0, spec["training"], **{k: v for k, v in spec.items() if k != "training"})
    param, expr = ruleset.army.cost
    world = make_world(ruleset, [fig], [{}])
    value = Interpreter(ruleset).fn(expr)({param: Ref("fighter", 0)}, world)
    return value.only() if hasattr(value, "only") else value


def test_costs_by_training(points):
    assert [_cost(points, {"training": t}) for t in range(1, 9)] == [4, 8, 12, 16, 20, 24, 28, 32]
    assert _cost(points, {"training": 2, "equipment": ("Platemail",)}) == 24   # as Training 6
    assert _cost(points, {"training": 3, "size": "Small"}) == 10    # one movement point less
    assert _cost(points, {"training": 3, "equipment": ("Shield",)}) == 15
    assert _cost(points, {"training": 3, "traits": {"Guts": True}}) == 15
