"""`warband balance RULESET`: the exact duels against what is known (a chain solved by hand, a
Monte Carlo twin, the odds Swords Against Sorcery's points file gives for its costs), the
verdicts against deliberately mispriced classes, the limits, and the command's outputs."""

from __future__ import annotations

import json
import random
from fractions import Fraction as F
from pathlib import Path

import pytest

from warband.balance import chain, duels, profiles
from warband.balance.weigh import verdicts, weigh
from warband.cli.balance import BalanceOptions, run_balance
from warband.lang.compiler import load
from warband.run.interpreter import Interpreter, Policies

HERE = Path(__file__).resolve().parent / "balance"


def ruleset(ref: str):
    compiled = load(ref)
    assert compiled.ruleset is not None, compiled.diagnostics
    return compiled.ruleset


def made(rules, *entries: dict) -> list[profiles.Profile]:
    found = profiles.costs(rules, list(entries))
    return [profiles.profile(rules, e, c) for e, c in zip(entries, found)]


# ---- the chain solver ---------------------------------------------------------------------------

def test_a_chain_solved_by_hand():
    """Gambler's ruin from 1 to 3 with p = 1/3 up: P(reach 3 from 1) = (1 - 2) / (1 - 8) = 1/7
    ((q/p)^k formula, q/p = 2); the steps it takes, by hand: s1 = 1 + 1/3 s2 and
    s2 = 1 + 2/3 s1 give 7/9 s1 = 4/3, s1 = 12/7."""
    def step(k):
        return {chain.End("up") if k + 1 == 3 else k + 1: F(1, 3),
                chain.End("down") if k - 1 == 0 else k - 1: F(2, 3)}
    solved = chain.solve([1], step, ("up", "down"), 10)
    assert solved.chances[1] == {"up": F(1, 7), "down": F(6, 7)}
    assert solved.steps[1] == F(12, 7)


def test_a_chain_that_never_ends_is_no_outcome():
    def step(state):
        if state == "start":
            return {"loop": F(1, 2), chain.End("out"): F(1, 2)}
        return {"loop": F(1)}
    solved = chain.solve(["start"], step, ("out",), 10)
    assert solved.chances["start"] == {"out": F(1, 2)}
    assert solved.chances["loop"] == {"out": 0}
    assert solved.steps["start"] is None


def test_a_chain_past_its_limit_is_refused_with_its_count():
    with pytest.raises(chain.TooManyStates) as error:
        chain.solve([0], lambda k: {k + 1: F(1)}, ("end",), 50)
    assert error.value.limit == 50 and error.value.found > 50
    assert "more than 50 states reachable" in str(error.value)


def test_a_component_past_its_limit_is_refused():
    ring = 30
    with pytest.raises(chain.TooManyStates) as error:
        chain.solve([0], lambda k: {(k + 1) % ring: F(1, 2), chain.End("e"): F(1, 2)},
                    ("e",), 100, component_limit=10)
    assert error.value.kind == "component" and error.value.found == ring


# ---- duels against what is known --------------------------------------------------------------

@pytest.fixture(scope="module")
def coin():
    return ruleset(str(HERE / "coin-duel.rules"))


def test_the_hand_solved_duel(coin):
    """Each strike removes on a 6: the fighter acting first wins 6/11 (module docstring of
    coin-duel.rules); with Grit 2 against 1, by hand: first mover a needs 2 hits, b needs 1.
    a first: x = 1/6 y' + 5/6 z ... solved by the chain; the symmetric case is exact."""
    a, b = made(coin, {"name": "A"}, {"name": "B"})
    duel = duels.Duels(coin, Policies("first")).duel(a, b)
    assert duel.a_first == {"a": F(6, 11), "b": F(5, 11), "both": 0, "limit": 0}
    assert duel.wins("a") == F(1, 2)
    # the expected number of turns: geometric with p = 1/6, so 6
    assert duel.turns_a_first == 6


def test_a_round_limit_cuts_the_duel_short(coin):
    a, b = made(coin, {"name": "A"}, {"name": "B"})
    duel = duels.Duels(coin, Policies("first"), rounds=1).duel(a, b)
    assert duel.a_first == {"a": F(1, 6), "b": F(5, 36), "both": 0, "limit": F(25, 36)}


def test_two_hits_to_remove_by_hand(coin):
    """Grit 2 (a) against Grit 1 (b), a acting first. Let u = P(a wins) with a to act and no
    hit on b... b needs one hit on a? No: a has Grit 2 so b needs two hits, a needs one.
    a to act, hits (0 on a): P = 1/6 + 5/6 * P(b to act, 0 hits on a). Solved by hand:
    with p = 1/6, q = 5/6, A0 = p + q B0, B0 = q A0 + p A1, A1 = p + q B1, B1 = q A1 (b's hit
    ends it): A1 = p / (1 - q^2) = 6/11, B1 = 5/11 * ... = q A1 = 30/66 = 5/11;
    A0 = p + q (q A0 + p A1) so A0 (1 - q^2) = p + q p A1: A0 = (1/6 + 5/36 * 6/11) * 36/11."""
    a, b = made(coin, {"name": "A", "grit": 2}, {"name": "B", "grit": 1})
    duel = duels.Duels(coin, Policies("first")).duel(a, b)
    p, q = F(1, 6), F(5, 6)
    a1 = p / (1 - q * q)
    a0 = (p + q * p * a1) / (1 - q * q)
    assert duel.a_first["a"] == a0


def monte_carlo(rules, a, b, attack: str, first: int, duels_: int, seed: int) -> float:
    """A twin of the duel, by sampling: the fighters take turns at `attack`, each in turn
    (passing when it may not), the marks the phases reset going back after each turn; the
    share of duels fighter 0 wins."""
    interpreter = Interpreter(rules, Policies("first"), rng=random.Random(seed))
    resets = duels.reset_values(rules)
    start = duels.Duels(rules, Policies("first")).start(a, b)
    refs = [duels.A, duels.B]
    params = [p.name.name for p in rules.procedures[attack].params]
    won = 0
    for _ in range(duels_):
        world, mover = start, first
        while True:
            args = {params[0]: refs[mover], params[1]: refs[1 - mover]}
            if interpreter.allowed(attack, args, world):
                interpreter.acting = refs[mover]
                _, world = interpreter.sample(attack, args, world)
            if world.fighters[0].removed or world.fighters[1].removed:
                won += world.fighters[1].removed and not world.fighters[0].removed
                break
            for name, value in resets.items():
                world = world.set(refs[mover], name, value)
            mover = 1 - mover
    return won / duels_


def test_exact_duels_agree_with_a_monte_carlo_twin():
    """Super Simple Skirmish, a Might-10 Soldier shooting it out with a Might-25 Gunslinger:
    stuns (a lost turn, and a second stun kills) make it more than a race of kills."""
    sss = ruleset("super-simple-skirmish")
    a, b = made(sss, {"name": "Musketeer", "class": "Soldier", "might": 10},
                {"name": "Momma", "class": "Gunslinger", "might": 25})
    duel = duels.Duels(sss, Policies("first"), actions=["shoot"]).duel(a, b)
    n = 3000
    for first, exact in ((0, duel.a_first["a"]), (1, duel.b_first["a"])):
        sampled = monte_carlo(sss, a, b, "shoot", first, n, seed=7 + first)
        sd = (float(exact) * (1 - float(exact)) / n) ** 0.5
        assert abs(sampled - float(exact)) < 4 * sd, (first, sampled, float(exact))
    assert 0.01 < duel.wins("a") < 0.1   # the smaller fighter is far behind


def test_exact_duels_agree_with_a_brute_force_twin_over_every_sequence_of_hits(coin):
    """Grit 2 against Grit 3, at most 4 rounds: every sequence of the 8 turns' hits and misses
    (a hit 1/6, each turn), weighed and followed by hand: no chain, no interpreter."""
    a, b = made(coin, {"name": "A", "grit": 2}, {"name": "B", "grit": 3})
    duel = duels.Duels(coin, Policies("first"), rounds=4).duel(a, b)
    p = F(1, 6)

    def twin(first: int) -> dict:
        """Each sequence weighs the product of all 8 turns' chances (the turns after the end
        are summed over: they weigh 1 in all); its end is the first fighter hit Grit times."""
        ends = {"a": F(0), "b": F(0), "both": F(0), "limit": F(0)}
        for bits in range(2 ** 8):
            hit = [bool(bits >> turn & 1) for turn in range(8)]
            weight = F(1)
            for h in hit:
                weight *= p if h else 1 - p
            hits, grit, mover, end = [0, 0], [2, 3], first, "limit"
            for turn in range(8):
                if hit[turn]:
                    hits[1 - mover] += 1
                    if hits[1 - mover] >= grit[1 - mover]:
                        end = "a" if mover == 0 else "b"
                        break
                mover = 1 - mover
            ends[end] += weight
        return ends
    assert duel.a_first == twin(0) and duel.b_first == twin(1)


def test_exact_duels_agree_with_a_brute_force_twin_of_the_rules():
    """Super Simple Skirmish, a Might-10 Soldier and a Might-25 Gunslinger, at most 3 rounds:
    every turn's attack followed to every outcome (the interpreter's exact odds of one attack),
    turn after turn, as a tree: the same fractions as the chain solved at once."""
    sss = ruleset("super-simple-skirmish")
    a, b = made(sss, {"name": "Musketeer", "class": "Soldier", "might": 10},
                {"name": "Momma", "class": "Gunslinger", "might": 25})
    weigher = duels.Duels(sss, Policies("first"), rounds=3)
    duel = weigher.duel(a, b)
    base = weigher.start(a, b)

    def tree(mover: int, turn: int, snap) -> dict:
        if turn == 6:
            return {"limit": F(1)}
        picked = weigher.choose(weigher.world_at(base, snap), mover)
        if not picked:
            return tree(1 - mover, turn + 1, weigher.reset(base, snap, mover))
        out: dict = {}
        for weight, joint in picked:
            for (_, after), p in joint.items():
                a_out, b_out = after[0][0][1], after[0][1][1]
                if a_out or b_out:
                    ends = {("both" if a_out and b_out else "a" if b_out else "b"): F(1)}
                else:
                    ends = tree(1 - mover, turn + 1, weigher.reset(base, after, mover))
                for end, q in ends.items():
                    out[end] = out.get(end, 0) + weight * p * q
        return out
    for first, exact in ((0, duel.a_first), (1, duel.b_first)):
        found = tree(first, 0, weigher.snapshot(base))
        assert {k: v for k, v in exact.items() if v} == found


@pytest.fixture(scope="module")
def points():
    return ruleset("swords-against-sorcery-points")


# The pairs the points file's header gives as its costs' justification, and what it says.
HEADER_PAIRS = [
    ({"name": "T3 Toughness 2", "training": 3, "traits": {"Toughness": 2}},
     {"name": "T4", "training": 4}, (55, 43)),
    ({"name": "T3 Chainmail", "training": 3, "equipment": ["Chainmail"]},
     {"name": "T5", "training": 5}, (49, 51)),
    ({"name": "T4 Dagger", "training": 4, "equipment": ["Dagger"]},
     {"name": "T2", "training": 2}, (52, 48)),
    ({"name": "T4 Guts", "training": 4, "traits": {"Guts": True}},
     {"name": "T5", "training": 5}, (48, 50)),
    ({"name": "T2 Platemail", "training": 2, "equipment": ["Platemail"]},
     {"name": "T6", "training": 6}, (49, 51)),
]


@pytest.mark.parametrize("a, b, claimed", HEADER_PAIRS, ids=lambda x: x.get("name")
                         if isinstance(x, dict) else None)
def test_the_points_files_own_pairs_are_as_it_says(points, a, b, claimed):
    """The duels here are the points file's fights to the finish (tests/test_sas_points.py
    chains `exchange` with the attacker always the same; here they take turns, and with the
    rules' default hands an exchange is the same round whoever starts it)."""
    pa, pb = made(points, a, b)
    assert pa.cost == pb.cost
    duel = duels.Duels(points, Policies("first")).duel(pa, pb)
    assert (round(100 * duel.wins("a")), round(100 * duel.wins("b"))) == claimed


def test_equal_cost_pairs_of_the_points_file_are_mostly_near_even(points):
    """The finding: over Training 2 to 5, bare or with one of Chainmail, Shield, Toughness 1,
    a two-handed weapon, Guts or Platemail, the 13 pairs of equal cost fight mostly near even
    (9 with both chances within 45%-55%), but not all: Toughness 1 beats Guts at Training 2
    (60% to 34%), a shield beats a two-handed weapon at Training 3 (55% to 41%; at Training 2,
    49% to 43%), and a Training-2 figure in plate and a Training-4 figure in mail cannot hurt
    each other at all (a draw for ever)."""
    entries = []
    for t in range(2, 6):
        for extra in ({}, {"equipment": ["Chainmail"]}, {"equipment": ["Shield"]},
                      {"traits": {"Toughness": 1}}, {"equipment": ["TwoHandedWeapon"]},
                      {"traits": {"Guts": True}}, {"equipment": ["Platemail"]}):
            words = [*extra.get("equipment", []), *extra.get("traits", {})]
            entries.append({"name": " ".join([f"T{t}", *words]), "training": t, **extra})
    found = made(points, *entries)
    weigher = duels.Duels(points, Policies("first"))
    results = {}
    for i, a in enumerate(found):
        for b in found[i + 1:]:
            if a.cost == b.cost:
                duel = weigher.duel(a, b)
                results[(a.name, b.name)] = (round(100 * duel.wins("a")),
                                             round(100 * duel.wins("b")))
    assert len(results) == 13
    near = [pair for pair, (x, y) in results.items() if 45 <= x <= 55 and 45 <= y <= 55]
    assert len(near) == 9
    assert results[("T2 Toughness", "T2 Guts")] == (60, 34)
    assert results[("T3 Shield", "T3 TwoHandedWeapon")] == (55, 41)
    assert results[("T2 Shield", "T2 TwoHandedWeapon")] == (49, 43)
    assert results[("T2 Platemail", "T4 Chainmail")] == (0, 0)


def test_a_ruleset_without_classes_weighs_each_piece_of_equipment_and_each_trait(points):
    typical = {p.name: p for p in profiles.typical(points)}
    bare = typical["Fighter"]
    tough = typical["Fighter + Toughness 1"]
    assert tough.base == "Fighter" and tough.option == "Toughness 1"
    assert tough.entry["traits"] == {"Toughness": 1}
    assert typical["Fighter + Guts"].entry["traits"] == {"Guts": True}
    assert typical["Fighter + Chainmail"].entry["equipment"] == ["Chainmail"]
    assert tough.cost - bare.cost == 2   # the points file's price of Toughness 1


# ---- verdicts ----------------------------------------------------------------------------------

def test_a_deliberately_mispriced_house_rule_is_caught():
    """tests/balance/sss-mispriced.rules: a Beast costs twice its Might, a Monster half."""
    rules = ruleset(str(HERE / "sss-mispriced.rules"))
    found = weigh(rules, profiles.typical(rules), duels.Duels(rules, Policies("first")))
    by_name = {found.profiles[v.profile].name: v for v in found.verdicts}
    assert by_name["Beast"].loses_all and not by_name["Beast"].beats_all
    assert by_name["Monster"].beats_all and not by_name["Monster"].loses_all
    assert not any(v.beats_all or v.loses_all for name, v in by_name.items()
                   if name not in ("Beast", "Monster"))
    # the typical fighters: a quarter of the points at most
    typical = {p.name: (p.stats, p.cost) for p in found.profiles}
    assert typical["Beast"] == ("Might 12", 24) and typical["Monster"] == ("Might 50", 25)


def test_the_shipped_rules_price_is_even_where_duels_see_no_difference():
    """Super Simple Skirmish prices every class at its Might; with no board, a duel sees only
    the attack rolls, so the classes whose attacks are alike (7 of 10) are alike, and those
    with 4D6 drop the lowest (Frenzy, Marksman) dominate them: what the duels can and cannot
    say (docs/balance.md)."""
    rules = ruleset("super-simple-skirmish")
    found = weigh(rules, profiles.typical(rules), duels.Duels(rules, Policies("first")))
    names = [p.name for p in found.profiles]
    monster, soldier = names.index("Monster"), names.index("Soldier")
    assert found.win(monster, soldier) == 1 - found.win(soldier, monster)
    assert round(100 * found.win(monster, soldier)) == 76
    assert monster in found.verdicts[soldier].dominated_by


def test_dominated_and_alike():
    cheap, dear, same = (profiles.Profile("cheap", {}, 5), profiles.Profile("dear", {}, 8),
                         profiles.Profile("same", {}, 5))
    found = {}
    wins = {(0, 1): F(3, 5), (0, 2): F(1, 2), (1, 2): F(2, 5), (0, 0): F(1, 2),
            (1, 1): F(1, 2), (2, 2): F(1, 2)}
    for (i, j), p in wins.items():
        duel = duels.Duel(i, j, {"a": p, "b": 1 - p}, {"a": p, "b": 1 - p})
        found[(i, j)] = duel
    out = verdicts([cheap, dear, same], found)
    assert out[1].dominated_by == [0, 2]
    assert out[0].same_as == [2] and out[0].dominated_by == []


def test_a_near_even_duel_is_no_verdict():
    """49% to 51% is even (the points file calls such pairs even): no fighter beats or loses
    to everything at its cost for that; 40% to 60% is a verdict."""
    def verdicts_of(p: F):
        two = [profiles.Profile("one", {}, 20), profiles.Profile("two", {}, 20)]
        found = {(0, 1): duels.Duel(0, 1, {"a": p, "b": 1 - p}, {"a": p, "b": 1 - p})}
        for k in (0, 1):
            found[(k, k)] = duels.Duel(k, k, {"a": F(1, 2), "b": F(1, 2)},
                                       {"a": F(1, 2), "b": F(1, 2)})
        return verdicts(two, found)
    even = verdicts_of(F(49, 100))
    assert not any(v.beats_all or v.loses_all for v in even)
    clear = verdicts_of(F(40, 100))
    assert clear[0].loses_all and clear[1].beats_all


# ---- limits ------------------------------------------------------------------------------------

def test_a_duel_past_the_state_limit_names_its_count(coin):
    """Grit 3 against 3 has a dozen states; with a limit of 5 it is refused, saying how many
    it found (E940)."""
    a, b = made(coin, {"name": "A", "grit": 3}, {"name": "B", "grit": 3})
    duel = duels.Duels(coin, Policies("first"), limit=5).duel(a, b)
    assert not duel.solved and duel.problem is not None
    assert duel.problem.code == "E940"
    assert "more than 5 states reachable" in duel.problem.message
    assert "--rounds" in (duel.problem.hint or "")


def test_more_fighters_than_a_report_weighs_are_refused(tmp_path):
    from warband.limits import MAX_BALANCE_PROFILES
    path = grit_file(tmp_path, *([1] * (MAX_BALANCE_PROFILES + 1)))
    code, out, err = run(str(tmp_path / "coin-duel.rules"), fighters=str(path))
    assert code == 2 and out == ""
    assert f"error[E403]: {MAX_BALANCE_PROFILES + 1} fighters to weigh; a balance report " \
           f"weighs at most {MAX_BALANCE_PROFILES}" in err


def test_rounds_past_their_limit_are_refused():
    from warband.limits import MAX_DUEL_ROUNDS
    code, out, err = run(str(HERE / "coin-duel.rules"), rounds=str(MAX_DUEL_ROUNDS + 1))
    assert code == 2 and f"--rounds must be at most {MAX_DUEL_ROUNDS:,}" in err


# ---- the command -------------------------------------------------------------------------------

class Out:
    def __init__(self):
        self.parts: list[str] = []

    def write(self, text):
        self.parts.append(text)

    def isatty(self):
        return False

    @property
    def text(self):
        return "".join(self.parts)


def run(*args, **named) -> tuple[int, str, str]:
    out, err = Out(), Out()
    code = run_balance(BalanceOptions(*args, **named), out, err)
    return code, out.text, err.text


def test_text_report_of_a_fighters_file(tmp_path):
    path = tmp_path / "sas.yaml"
    path.write_text("name: pairs\nruleset: swords-against-sorcery-points\nfighters:\n"
                    "  - name: T3 Chainmail\n    training: 3\n    equipment: [Chainmail]\n"
                    "  - name: T5\n    training: 5\n")
    code, out, err = run("swords-against-sorcery-points", fighters=str(path))
    assert code == 0, err
    assert "2 fighters weighed by exact odds" in out
    assert "T3 Chainmail" in out and "49.0%" in out


def grit_file(tmp_path: Path, *grits: int) -> Path:
    """A file of coin-duel fighters, beside a copy of its rules (a warband names its rules
    by a path relative to itself)."""
    (tmp_path / "coin-duel.rules").write_text((HERE / "coin-duel.rules").read_text())
    path = tmp_path / "grit.yaml"
    path.write_text("name: grit\nruleset: coin-duel.rules\nfighters:\n" + "".join(
        f"  - name: Grit {g}\n    grit: {g}\n" for g in grits))
    return path


def test_json_report(tmp_path):
    path = grit_file(tmp_path, 1, 2)
    code, out, err = run(str(tmp_path / "coin-duel.rules"), fighters=str(path), fmt="json")
    assert code == 0, err
    data = json.loads(out)
    assert [f["cost"] for f in data["fighters"]] == ["10", "20"]
    one_two = next(d for d in data["duels"] if (d["a"], d["b"]) == (1, 1))
    assert one_two["a_first"]["a"] == "6/11"
    strike = next(a for a in data["attacks"] if (a["attacker"], a["target"]) == (1, 1))
    assert strike["outcomes"] == {"false": "5/6", "true": "1/6"}
    assert strike["cost_per_kill"] == 60.0


def test_state_limit_from_the_command(tmp_path, monkeypatch):
    from warband.balance import duels as module
    monkeypatch.setattr(module, "MAX_DUEL_STATES", 3)
    path = grit_file(tmp_path, 3)
    code, out, err = run(str(tmp_path / "coin-duel.rules"), fighters=str(path))
    assert code == 1
    assert "error[E940]: the duel of Grit 3 and Grit 3 is too large to solve exactly: more " \
           "than 3 states reachable" in err
    assert "Traceback" not in err


@pytest.mark.parametrize("named, expected", [
    (dict(games="10"), "error[E901]: --games plays games"),
    (dict(rounds="0"), "error[E910]: --rounds must be at least 1"),
    (dict(actions=["shoot"]), "error[E902]: 'coin-duel' has no attack 'shoot'"),
    (dict(policies=["fastest"]), "error[E901]: unknown policy 'fastest'"),
    (dict(fmt="html"), "error[E645]: --format html writes a page"),
])
def test_bad_options_are_diagnostics(named, expected):
    code, out, err = run(str(HERE / "coin-duel.rules"), **named)
    assert code == 2 and expected in err, err
    assert "Traceback" not in err


def test_unknown_target():
    code, out, err = run("super-simple-skirmsh")
    assert code == 2
    assert "error[E404]: no ruleset or scenario 'super-simple-skirmsh'" in err
    assert "super-simple-skirmish" in err


def test_nothing_to_weigh(tmp_path):
    path = tmp_path / "calm.rules"
    path.write_text('ruleset "calm"\n  title "No fights"\n  version "1"\n\n'
                    'stat Calm: 1..3 default 1 "Calm"\n\n'
                    'action rest(f: fighter) "Rest" {\n}\n')
    code, out, err = run(str(path))
    assert code == 2 and "error[E942]" in err, err


# ---- the fit of worth, on synthetic games -----------------------------------------------------

def synthetic_games(worths: list[float], per_point: float, games: int, seed: int):
    """Games between random lists (2 to 5 fighters of 4 profiles) won by the planted model:
    P(side 1 wins) = logistic(per_point * (worth of list 1 - worth of list 2))."""
    import math

    from warband.balance import fit
    rng = random.Random(seed)
    out = []
    for _ in range(games):
        lists = []
        for _side in range(2):
            counts: dict[int, int] = {}
            for _n in range(rng.randint(2, 5)):
                k = rng.randrange(len(worths))
                counts[k] = counts.get(k, 0) + 1
            lists.append(counts)
        strength = [sum(worths[k] * n for k, n in c.items()) for c in lists]
        p = 1 / (1 + math.exp(-per_point * (strength[0] - strength[1])))
        out.append(fit.Game(lists[0], lists[1], 1.0 if rng.random() < p else 0.0))
    return out


def test_the_fit_recovers_a_planted_cost_model():
    """Four profiles truly worth 10, 20, 30 and 15 points (0.08 logits a point); the costs
    the rules give are the true ones: every suggestion's interval holds its true worth, and
    the fit's scale reads back the planted 12.5 points a logit."""
    from warband.balance import fit
    worths = [10.0, 20.0, 30.0, 15.0]
    found = fit.fit(synthetic_games(worths, 0.08, 4000, seed=3), 4, worths)
    assert found.converged and found.scale is not None
    for k, true in enumerate(worths):
        low, high = found.interval[k]
        assert low <= true <= high, (k, found.worth[k], found.interval[k])
        assert abs(found.worth[k] - true) < 4
    assert abs(found.scale - 12.5) < 2.0


def test_the_fit_finds_a_planted_mispricing():
    """The same games, but the rules charge 22.5 for the profile worth 30 and 22.5 for the
    one worth 15 (the same total: the points a list is worth read the same): the first is
    found cheap, the second dear, the rest fair."""
    from warband.balance import fit
    from warband.balance.scenario import Suggestion
    worths, charged = [10.0, 20.0, 30.0, 15.0], [10.0, 20.0, 22.5, 22.5]
    found = fit.fit(synthetic_games(worths, 0.08, 4000, seed=3), 4, charged)
    verdicts = [Suggestion(k, F(c), found.worth[k], found.interval[k]).verdict
                for k, c in enumerate(charged)]
    assert verdicts[2] == "cheap" and verdicts[3] == "dear"
    assert verdicts[0] == verdicts[1] == "fair"
    # what the cheap profile adds over the one worth 20: 10 points, within its interval
    d, (low, high) = found.difference(2, 1)
    assert low < 10 < high and abs(d - 10) < 4


# ---- the text reports, as golden files (pytest --update-goldens rewrites them) ------------------

def test_the_mispriced_house_rules_report(golden):
    code, out, err = run(str(HERE / "sss-mispriced.rules"))
    assert code == 0, err
    assert "Beast: loses to everything at its cost (dear?)" in out
    assert "Monster: beats everything at its cost (cheap?)" in out
    golden(HERE / "sss-mispriced.txt", out.replace(str(HERE), "tests/balance"))


def test_the_coin_duel_report(tmp_path, golden):
    path = grit_file(tmp_path, 1, 2, 3)
    code, out, err = run(str(tmp_path / "coin-duel.rules"), fighters=str(path))
    assert code == 0, err
    golden(HERE / "coin-duel.txt", out)


SCENARIO = dict(games="12", fit_games="20", policies=["*=random"], chunk_size="4")


def test_the_scenario_report(golden):
    """Random players (fast, and warned about), a few games: the figures' layout, and the
    seed's games (a change of the engine's play changes them: review, then rewrite)."""
    code, out, err = run("sss-standard-game", **SCENARIO)
    assert code == 0, err
    assert "played at random: random players say little" in out
    assert "marginal worth" in out and "suggested costs" in out
    golden(HERE / "sss-standard-game.txt", out)


def scenario_json(**named) -> dict:
    code, out, err = run("sss-standard-game", **{**SCENARIO, "fmt": "json", **named})
    assert code == 0, err
    return json.loads(out)


@pytest.mark.slow
def test_scenario_figures_are_the_same_for_any_number_of_workers():
    one = scenario_json(workers="1")
    assert scenario_json(workers="2") == one
    assert scenario_json(seed="2") != one
    assert one["games_in_all"] == 12 + 2 * 12 + 20


@pytest.mark.slow
def test_scenario_figures_are_the_same_on_a_dask_cluster():
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=":0") as local:
        there = scenario_json(scheduler=local.scheduler_address)
    assert there == scenario_json()


def summary_of(wins: dict[str, int], draws: int, limit: int = 0):
    from warband.game.tally import SideTally, Summary
    games = sum(wins.values()) + draws
    return Summary(games=games, sides=tuple(wins),
                   tallies={s: SideTally(wins=n) for s, n in wins.items()}, draws=draws,
                   rounds_sum=6 * games, rounds_min=6, rounds_max=6,
                   ended={"limit": limit, "eliminated": games - limit})


def test_a_lopsided_or_drawish_scenario_is_warned_about():
    from warband.balance.scenario import health
    found = health(summary_of({"red": 170, "blue": 30}, 0), 6, False, [])
    assert found.warnings == ["red wins 85.0% of the games (its whole interval is above "
                              "60%): the scenario favours it"]
    few = health(summary_of({"red": 2, "blue": 0}, 0), 6, False, ["red"])
    assert "too few games to be sure: its 95% interval reaches down to" in few.warnings[0]
    assert "red played at random" in few.warnings[1]
    drawish = health(summary_of({"red": 20, "blue": 20}, 60, limit=60), None, False, [])
    assert any("60.0% of the games are drawn" in w for w in drawish.warnings)
    assert drawish.timeouts == 60   # no limit of the scenario's own: the engine's, a timeout
    assert any("stopped at a round limit" in w for w in drawish.warnings)
    designed = health(summary_of({"red": 20, "blue": 20}, 60, limit=60), 6, False, [])
    assert designed.timeouts == 0


def test_the_html_page_escapes_what_files_say(tmp_path):
    (tmp_path / "coin-duel.rules").write_text((HERE / "coin-duel.rules").read_text())
    path = tmp_path / "odd.yaml"
    path.write_text("name: odd\nruleset: coin-duel.rules\nfighters:\n"
                    "  - name: \"<script>alert(1)</script>\"\n    grit: 1\n"
                    "  - name: \"Grit & 2\"\n    grit: 2\n")
    page = tmp_path / "page.html"
    code, out, err = run(str(tmp_path / "coin-duel.rules"), fighters=str(path), fmt="html",
                         output=str(page))
    assert code == 0, err
    html = page.read_text(encoding="utf-8")
    assert "<script>" not in html and "&lt;script&gt;" in html
    assert 'id="chart-duels"' in html and 'id="chart-kills"' in html
    assert "Grit &amp; 2" in html


def test_a_scenario_whose_rules_set_no_points_has_no_suggested_costs():
    """Swords Against Sorcery (the prototype) prices nothing: by default the report says so
    and goes on; asked for them, --fit-games is refused (E941)."""
    code, out, err = run("greedy-dudes-vs-menace", games="2", policies=["*=random"])
    assert code == 0, err
    assert "suggested costs: none, the rules of greedy-dudes-vs-menace set no points" in out
    assert "marginal worth: none, no fighter of a side has another of about its cost" in out
    code, out, err = run("greedy-dudes-vs-menace", games="2", fit_games="10",
                         policies=["*=random"])
    assert code == 2 and "error[E941]: no random warbands of equal points" in err
