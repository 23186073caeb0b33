"""Equipment options of a class (issue 20, item 6): `may take A, B`, `may take one of A, B`,
`may take up to N of A, B`, `may swap X for A, B`.

The goldens are tests/warband_errors/outfitter_*.yaml (E632, E633, against outfitter.rules) and
tests/rules_errors/equipment_*.rules (E202, E305, E310); this file holds what goldens cannot say:
the valid example is valid and its fighters carry what the options say (a swapped piece is gone,
its traits with it), a second system (a squad game) uses the same concepts in play, the verdict
agrees with a brute-force twin over every list of pieces, the schema lists what each class may
take and agrees with validate, and `rules show` and `rules diff` say the options.
"""

from __future__ import annotations

import itertools
import re
import json
import tempfile
from collections import Counter
from pathlib import Path

import jsonschema
from typer.testing import CliRunner

from warband.cli import app
from warband.lang.compiler import compile_text, load
from warband.lists.schema import ruleset_schema
from warband.lists.validate import validate, validate_text
from warband.run.world import FighterSpec, make_world

ROOT = Path(__file__).resolve().parents[1]
OUTFITTER = ROOT / "tests" / "warband_errors" / "outfitter.rules"
VALID = ROOT / "tests" / "army_rules" / "outfitter-valid.yaml"

SQUADS = '''ruleset "squads-gear"
  title "Squads: a squad game where weapons come with the unit and may be swapped"

stat Quality: 2..6 default 4 "the roll a model needs"
trait Shots(N) max "dice a model rolls at range"
trait AP(N) max "armour a hit ignores"
equipment Rifle "the standard weapon" { grants Shots(1) }
equipment HeavyGun "swapped for a rifle" { grants Shots(3), AP(1) }
equipment Flamer { grants Shots(2) }
equipment Grenades
equipment Medkit

class Trooper {
  equipment Rifle
  may swap Rifle for HeavyGun, Flamer "one special weapon instead of the rifle"
  may take up to 1 of Grenades, Medkit
}

army "squad list" {
  cost(m) = 10 + m.Shots * 2 + m.AP * 5
  points 200
}
'''


def _world_fighter(ruleset, cls: str, equipment: tuple[str, ...]):
    world = make_world(ruleset, [FighterSpec("x", 0, cls, {}, {}, equipment)])
    return world.fighters[0]


def test_the_valid_example_is_valid_and_its_fighters_carry_what_the_options_say():
    assert validate([str(VALID)]).diagnostics == []
    ruleset = load(str(OUTFITTER)).ruleset
    assert _world_fighter(ruleset, "Captain", ("Halberd", "Lantern")).equipment == \
        ("Halberd", "Lantern")                       # the cudgel is given up for the halberd
    assert _world_fighter(ruleset, "Captain", ("Dagger",)).equipment == ("Cudgel", "Dagger")


def test_a_squad_game_swaps_a_weapon_and_its_traits_go_with_it():
    ruleset = compile_text(SQUADS, "squads.rules").ruleset
    assert ruleset is not None
    gunner = _world_fighter(ruleset, "Trooper", ("HeavyGun", "Grenades"))
    assert gunner.equipment == ("HeavyGun", "Grenades")
    assert gunner.traits["Shots"] == 3 and gunner.traits["AP"] == 1   # the rifle's 1 is gone
    plain = _world_fighter(ruleset, "Trooper", ())
    assert plain.traits["Shots"] == 1 and plain.equipment == ("Rifle",)
    text = ("name: Squad\nruleset: squads.rules\nfighters:\n"
            "  - {name: Gunner, class: Trooper, equipment: [HeavyGun, Medkit]}\n"
            "  - {name: Burner, class: Trooper, equipment: [Flamer, HeavyGun]}\n"
            "  - {name: Medic, class: Trooper, equipment: [Medkit, Grenades]}\n")
    found = _validate_with(SQUADS, text)
    assert [(d.code, d.span.line) for d in found] == [("E633", 5), ("E633", 6)]
    assert "may swap Rifle for HeavyGun, Flamer" in found[0].message


def _validate_with(rules: str, warband: str):
    with tempfile.TemporaryDirectory() as d:
        (Path(d) / "squads.rules").write_text(rules)
        (Path(d) / "w.yaml").write_text(warband)
        return validate([str(Path(d) / "w.yaml")]).diagnostics


# ---- a brute-force twin: every list of up to four pieces, judged by enumeration ---------------

PIECES = ("Cudgel", "Sword", "Halberd", "Dagger", "Lantern", "Pistol", "Crossbow", "Banner")


def _legal_lists() -> set[tuple[str, ...]]:
    """Every legal list of the outfitter's Captain, built from the options' own words: any of
    Dagger, Lantern (each once); at most one of Pistol, Crossbow; the cudgel, or one of Sword,
    Halberd instead (the cudgel may be listed again only while it is not swapped)."""
    legal = set()
    for small in itertools.chain.from_iterable(
            itertools.combinations(("Dagger", "Lantern"), n) for n in range(3)):
        for missile in ((), ("Pistol",), ("Crossbow",)):
            for weapon in ((), ("Cudgel",), ("Sword",), ("Halberd",)):
                legal.add(tuple(sorted(small + missile + weapon)))
    return legal


def _outfitted(text: str):
    return validate_text(text, "w.yaml", default_ruleset=str(OUTFITTER)).diagnostics


def test_the_verdict_on_every_list_agrees_with_a_brute_force_twin():
    legal = _legal_lists()
    cases = [combo for n in range(5)
             for combo in itertools.combinations_with_replacement(PIECES, n)]
    texts = [f"name: W\nfighters:\n"
             f"  - {{name: M, class: Captain, equipment: [{', '.join(c)}]}}\n" for c in cases]
    for combo, text in zip(cases, texts):
        found = _outfitted(text)
        codes = {d.code for d in found} - {"E701"}
        assert codes <= {"E632", "E633"}, (combo, found)
        assert (not codes) == (tuple(sorted(combo)) in legal), (combo, found)
        if "Banner" in combo:
            assert "E632" in codes


def test_the_schema_lists_what_each_class_may_take_and_agrees_with_validate():
    ruleset = load(str(OUTFITTER)).ruleset
    schema = ruleset_schema(ruleset)
    captain = next(c["then"]["properties"]["equipment"] for c in schema["properties"]["fighters"]
                   ["items"]["allOf"] if c["if"]["properties"]["class"]["const"] == "Captain"
                   and "equipment" in c["then"].get("properties", {}))
    assert set(captain["items"]["enum"]) == set(PIECES) - {"Banner"}
    assert "may swap Cudgel for Sword, Halberd" in captain["description"]
    from ruamel.yaml import YAML
    for name, accepted in (("outfitter-valid.yaml", True),):
        data = YAML(typ="safe").load((VALID.parent / name).read_text())
        data["ruleset"] = "outfitter"
        assert jsonschema.Draft7Validator(schema).is_valid(data) == accepted
    bad = YAML(typ="safe").load(
        (ROOT / "tests" / "warband_errors" / "outfitter_not_offered.yaml").read_text())
    bad["ruleset"] = "outfitter"
    assert not jsonschema.Draft7Validator(schema).is_valid(bad)


def test_equipment_is_judged_beside_every_other_finding_of_the_entry():
    """Review finding: an entry whose stat broke its class's bounds (or any other shape error)
    was left out, and its equipment unjudged until that was fixed."""
    text = ("name: W\nfighters:\n"
            "  - {name: T, class: Thug, skill: 11, equipment: [Lantern, Dagger]}\n"
            "  - {name: C, class: Captain, colour: red, equipment: [Pistol, Crossbow]}\n")
    codes = sorted(d.code for d in _outfitted(text))
    assert codes.count("E632") == 1 and codes.count("E633") == 1, codes


def test_rules_show_and_diff_say_the_options(tmp_path):
    shown = CliRunner().invoke(app, ["rules", "show", str(OUTFITTER)])
    assert "Captain may take Dagger, Lantern (small things a captain may carry)" in shown.stdout
    assert "Thug may take up to 2 of Dagger, Cudgel" in shown.stdout
    as_json = json.loads(CliRunner().invoke(app, ["rules", "show", str(OUTFITTER),
                                                  "--format", "json"]).stdout)
    captain = next(c for c in as_json["classes"] if c["name"] == "Captain")
    assert captain["options"][2] == {"kind": "swap", "items": ["Sword", "Halberd"], "limit": 1,
                                     "replaces": "Cudgel",
                                     "doc": "a better weapon than the cudgel"}
    (tmp_path / "outfitter.rules").write_text(OUTFITTER.read_text())
    house = tmp_path / "house.rules"
    house.write_text('ruleset "outfitter-house"\n  extends "outfitter.rules"\n'
                     'override class Thug { may take one of Dagger, Lantern }\n')
    (tmp_path / "w.yaml").write_text("name: W\nruleset: house.rules\nfighters:\n"
                                     "  - {name: T, class: Thug, skill: 2, equipment: [Lantern]}\n")
    assert validate([str(tmp_path / "w.yaml")]).diagnostics == []
    diff = CliRunner().invoke(app, ["rules", "diff", str(OUTFITTER), str(house)])
    assert "no longer may take up to 2 of Dagger, Cudgel" in diff.stdout
    assert "now may take one of Dagger, Lantern" in diff.stdout


def test_an_option_counts_each_piece_it_names():
    """`up to 2 of Dagger, Cudgel` is two pieces in all, the same one twice included."""
    counts = Counter()
    for combo in itertools.combinations_with_replacement(("Dagger", "Cudgel"), 3):
        text = (f"name: W\nfighters:\n"
                f"  - {{name: T, class: Thug, skill: 2, equipment: [{', '.join(combo)}]}}\n")
        counts[len([d for d in _outfitted(text) if d.code == "E633"])] += 1
    assert counts == {1: 4}        # every list of three pieces breaks the option, once


def test_odds_and_scenario_fighters_carry_what_their_class_allows():
    """Review finding: the fighters `warband odds` and a scenario make from a class skipped its
    options (a bruiser with a crossbow, a sword twice stacking its Keen) while their stat bounds
    were checked."""
    odds = CliRunner().invoke(app, ["odds", "fogbound", "-a",
                                    "class=Bruiser equipment=Crossbow,Sword,Cudgel",
                                    "-t", "class=Cutthroat", "--action", "fight"])
    assert odds.exit_code == 2
    assert "class Bruiser may not take Crossbow" in odds.output
    assert "swaps Cudgel for Sword, so it cannot keep Cudgel" in odds.output
    played = CliRunner().invoke(app, ["play", str(ROOT / "tests" / "equipment_options" /
                                                  "fogbound-overarmed.rules"), "--seed", "1"])
    assert played.exit_code == 2
    codes = re.findall(r"error\[(E63\d)\]", played.output)
    assert sorted(codes) == ["E632", "E633", "E633", "E633"], played.output
