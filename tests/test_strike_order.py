"""The worked example of docs/language.md, "who strikes first, and who rolls" (issue 36, item
8): both fighters strike in an order the rules work out (two-handed weapons last, else the
higher Initiative first), each roll credited to the fighter who rolls it (`rolled by`), with
`while`, `break` and `end turn` shaping the fight.

The example is taken from the reference itself and played: the log must show the strikes in the
computed order, every blow credited to its striker and every parry to the other, the fight
stopping when one falls, and the fallen's side acting no more that round. Its exact odds are
checked against a brute-force twin written in Python.
"""

from __future__ import annotations

import re
from fractions import Fraction
from itertools import product
from pathlib import Path

import pytest

from test_differential import games, outcome, scenario_of, typed
from warband.game.engine import Game
from warband.run.decisions import Policies
from warband.run.interpreter import Interpreter
from warband.run.world import Ref

DOC = Path(__file__).resolve().parents[1] / "docs" / "language.md"
SEEDS = range(1, 13)


def example() -> str:
    text = DOC.read_text(encoding="utf-8")
    found = re.search(r'```rules\n(ruleset "strike-order-duel".*?)```', text, re.DOTALL)
    assert found, "the worked example is gone from docs/language.md"
    return found.group(1)


@pytest.fixture(scope="module")
def duel(tmp_path_factory):
    return scenario_of(tmp_path_factory.mktemp("duel"), example(), "duel")


def strike_order(world, a: str, b: str) -> list[str]:
    """Who strikes first and second, worked out in Python from the fighters' own values."""
    by_name = {f.name: f for f in world.fighters}

    def key(name: str):
        f = by_name[name]
        return (1 if f.equipment == ("greatsword",) else 0, -f.values["Initiative"])
    return sorted((a, b), key=key)   # (stable: ties keep the group's order)


def fights(events: list[dict]) -> list[tuple[dict, list[dict]]]:
    """Each fight: its activation and the rolls made in it."""
    found: list[tuple[dict, list[dict]]] = []
    for e in events:
        if e["type"] == "activate" and e["action"].startswith("fight "):
            found.append((e, []))
        elif e["type"] in ("activate", "round", "end"):
            found.append(({}, []))   # (rolls after this belong to no fight)
        elif e["type"] == "roll" and found and found[-1][0]:
            found[-1][1].append(e)
    return [(a, rolls) for a, rolls in found if a]


def test_strikes_come_in_the_computed_order_each_roll_credited_to_who_rolls(duel):
    checked = fallen = 0
    for seed in SEEDS:
        game = Game(duel, seed, Policies("random"), record=True)
        game.play()
        events = game.state.log.events
        for activation, rolls in fights(events):
            attacker, target = activation["fighter"], activation["action"][len("fight "):]
            order = strike_order(game.final, attacker, target)
            assert len(rolls) % 2 == 0 and 2 <= len(rolls) <= 12, (seed, rolls)
            for i in range(0, len(rolls), 2):
                blow, parry = rolls[i], rolls[i + 1]
                striker = order[(i // 2) % 2]
                foe = order[1 - (i // 2) % 2]
                assert blow["for"] == "blow in fight" and blow["fighter"] == striker, \
                    (seed, i, blow, order)
                assert parry["for"] == "parry in fight" and parry["fighter"] == foe, \
                    (seed, i, parry, order)
                assert blow["side"] != parry["side"]
            checked += 1
        # a fallen fighter's side acts no more that round (`end turn of foe.side`)
        round_, out = 0, set()
        for e in events:
            if e["type"] == "round":
                round_, out = e["round"], set()
            elif e["type"] == "removed":
                out.add(e["side"])
                fallen += 1
            elif e["type"] == "activate":
                assert e["side"] not in out or e["action"] == "none", (seed, round_, e)
    assert checked >= 12 and fallen >= 6, (checked, fallen)


def test_the_greatsword_strikes_last_whatever_its_initiative(duel):
    """The Brute (Initiative 9, two-handed) against Slow (Initiative 2): Slow first."""
    world = duel.start()
    assert strike_order(world, "Brute", "Slow") == ["Slow", "Brute"]
    assert strike_order(world, "Slow", "Quick") == ["Quick", "Slow"]


def test_generated_code_and_the_interpreter_agree(duel):
    for seed in (1, 2, 3):
        fast, slow = games(duel, seed)
        results = [(outcome(g.interp, g.play), typed(g.final)) for g in (fast, slow)]
        assert results[0] == results[1], seed
        assert results[0][0][0][0] == "ok"


def brute_force(first_skill: int, second_skill: int, first_tough: int,
                second_tough: int) -> dict[int, Fraction]:
    """The blows landed, exactly, by walking every face of both dice of every strike: up to
    three exchanges, the first fighter striking first in each; the positions reached (wounds
    on each, blows landed, whether one fell) summed as they are reached."""
    skills, tough = (first_skill, second_skill), (first_tough, second_tough)
    positions: dict[tuple, Fraction] = {(0, 0, 0, False): Fraction(1)}
    for _exchange, who in product(range(3), (0, 1)):
        foe = 1 - who
        after: dict[tuple, Fraction] = {}
        for (w0, w1, landed, over), p in positions.items():
            if over:   # one fell: no more blows
                after[(w0, w1, landed, over)] = after.get((w0, w1, landed, over), 0) + p
                continue
            for blow, parry in product(range(1, 7), repeat=2):
                wounds = [w0, w1]
                hit = blow + skills[who] > parry + skills[foe]
                wounds[foe] += hit
                key = (wounds[0], wounds[1], landed + hit, wounds[foe] >= tough[foe])
                after[key] = after.get(key, 0) + p / 36
        positions = after
    result: dict[int, Fraction] = {}
    for (_, _, landed, _), p in positions.items():
        result[landed] = result.get(landed, Fraction(0)) + p
    return result


def test_the_exact_odds_of_a_fight_match_a_brute_force_twin(duel):
    world = duel.start()
    names = [f.name for f in world.fighters]
    quick, brute = Ref("fighter", names.index("Quick")), Ref("fighter", names.index("Brute"))
    for compiled in (True, False):
        interp = Interpreter(duel.ruleset)
        interp.compiled = compiled
        exact = interp.exact("fight", {"attacker": brute, "target": quick}, world)
        got = dict(exact.items())
        # Quick (not two-handed) strikes first: Skill 3 each, Toughness 2 and 4
        assert got == brute_force(3, 3, 2, 4), compiled
