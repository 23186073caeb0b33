"""JSON Schemas for warband files: made from the rules, published in schemas/, kept current.

- the files in schemas/ are what the toolkit generates today (regenerate: python -m warband.lists.schema
  schemas/), and `warband schema` prints them;
- they are Draft 7 schemas that plain jsonschema (as editors and check-jsonschema use it) applies
  with the same verdicts as `warband validate`'s schema stage;
- the quick acceptance check agrees with jsonschema on generated documents (a brute-force twin);
- nothing in a schema is specific to one game: a house ruleset's enum stats, numeric traits,
  equipment and class-dependent required stats come out of its rules.
"""

from __future__ import annotations

import copy
import json
import re
from pathlib import Path

import jsonschema
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from warband.cli import app
from warband.lang.compiler import load
from warband.lists import schema
from warband.lists.validate import validate
from warband.lists.yamlload import load_yaml

ROOT = Path(__file__).resolve().parents[1]
SCHEMAS = ROOT / "schemas"
ERRORS = ROOT / "tests" / "warband_errors"
WARBANDS = sorted((ROOT / "warbands").glob("*.yaml"))
SSS = SCHEMAS / "super-simple-skirmish.warband.schema.json"


def run(*args: str):
    return CliRunner().invoke(app, list(args))


def _data(path: Path):
    return load_yaml(path.read_bytes(), str(path)).data


# ---- the published files ------------------------------------------------------------------------

def test_published_schemas_are_current():
    expected = schema.published()
    assert set(expected) >= {"warband.schema.json", "super-simple-skirmish.warband.schema.json"}
    stale = [name for name, text in expected.items()
             if not (SCHEMAS / name).is_file()
             or (SCHEMAS / name).read_text(encoding="utf-8") != text]
    assert not stale, (f"schemas/ is out of date for {stale}; regenerate with: "
                       f"{schema.REGENERATE} (from the repository root) and commit the result")
    extra = sorted(p.name for p in SCHEMAS.glob("*.json") if p.name not in expected)
    assert not extra, f"schemas/ holds files the toolkit does not generate: {extra}"


def test_write_schemas_rewrites_only_what_changed(tmp_path):
    written = schema.write_schemas(tmp_path)
    assert sorted(p.name for p in written) == sorted(schema.published())
    assert schema.write_schemas(tmp_path) == []
    assert schema.main([str(tmp_path)]) == 0


@pytest.mark.parametrize("path", sorted(SCHEMAS.glob("*.json")), ids=lambda p: p.name)
def test_published_schema_is_draft7(path: Path):
    document = json.loads(path.read_text(encoding="utf-8"))
    assert document["$schema"] == "http://json-schema.org/draft-07/schema#"
    jsonschema.Draft7Validator.check_schema(document)


def test_schema_command_prints_the_published_files():
    result = run("schema", "super-simple-skirmish")
    assert result.exit_code == 0
    assert result.stdout == SSS.read_text(encoding="utf-8")
    generic = run("schema")
    assert generic.stdout == (SCHEMAS / "warband.schema.json").read_text(encoding="utf-8")
    missing = run("schema", "super-simple-skirmsh")
    assert missing.exit_code == 2
    assert "did you mean 'super-simple-skirmish'?" in missing.stderr


# ---- plain jsonschema with the published schema -------------------------------------------------

def _jsonschema_verdict(schema_path: Path, data) -> bool:
    validator = jsonschema.Draft7Validator(json.loads(schema_path.read_text(encoding="utf-8")))
    return validator.is_valid(data)


@pytest.mark.parametrize("path", WARBANDS, ids=lambda p: p.stem)
def test_shipped_warbands_pass_the_published_schemas(path: Path):
    data = _data(path)
    own = SCHEMAS / f"{data['ruleset']}.warband.schema.json"  # the schema of the file's ruleset
    assert _jsonschema_verdict(own, data)
    assert _jsonschema_verdict(SCHEMAS / "warband.schema.json", data)
    modeline = path.read_text().splitlines()[0]
    assert (path.parent / modeline.split("$schema=")[1]).resolve() == own.resolve()


# ---- what an editor needs: ids, the ruleset pinned, the files shipped ----------------------------

@pytest.mark.parametrize("path", sorted(SCHEMAS.glob("*.json")), ids=lambda p: p.stem)
def test_each_published_schema_has_its_own_id(path: Path):
    document = json.loads(path.read_text(encoding="utf-8"))
    assert document["$id"] == path.name      # relative: it names the file where it is read


def test_a_rulesets_schema_accepts_its_id_or_a_rules_path_and_no_other_ruleset():
    # (before: the Super Simple Skirmish schema accepted `ruleset: smart`)
    data = _data(ROOT / "warbands" / "clockwork-empire.yaml")
    validator = jsonschema.Draft7Validator(json.loads(SSS.read_text(encoding="utf-8")))
    for ruleset, ok in [("super-simple-skirmish", True), ("smart", False),
                        ("swords-against-sorcery", False), ("../dsl/house.rules", True),
                        ("house.RULES", True), ("house.yaml", False), (3, False)]:
        assert validator.is_valid(data | {"ruleset": ruleset}) == ok, ruleset
        assert schema.conforms(validator.schema, data | {"ruleset": ruleset}) == ok, ruleset
    generic = jsonschema.Draft7Validator(schema.generic_schema())
    assert generic.is_valid(data | {"ruleset": "smart"})         # any ruleset's warband


def test_the_schema_command_pins_a_house_ruleset_too():
    made = schema.ruleset_schema(load(str(ERRORS / "house.rules")).ruleset)
    assert made["$id"] == "house-skirmish.warband.schema.json"
    assert made["properties"]["ruleset"]["anyOf"][0] == {"const": "house-skirmish"}


def _force_included() -> dict[str, str]:
    import tomllib
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    return config["tool"]["hatch"]["build"]["targets"]["wheel"]["force-include"]


@pytest.mark.parametrize("path", WARBANDS, ids=lambda p: p.stem)
def test_a_shipped_warbands_modeline_finds_its_schema_when_installed(path: Path):
    """The wheel puts warbands/ and schemas/ side by side in the package, as in a checkout, so
    the modeline's relative path (../schemas/X.json) resolves in site-packages too."""
    shipped = _force_included()
    modeline = path.read_text().splitlines()[0]
    target = modeline.split("$schema=")[1]
    assert shipped["warbands"] == "warband/warbands"
    installed = (Path("/site") / shipped["warbands"] / target).resolve()
    relative = installed.relative_to(Path("/site").resolve())
    source = next(k for k, v in shipped.items() if relative.as_posix().startswith(v + "/"))
    assert (ROOT / source / relative.relative_to(shipped[source])).is_file()


def test_an_installed_package_holds_the_schemas_beside_the_warbands():
    import warband
    package = Path(warband.__file__).resolve().parent
    if not (package / "warbands").is_dir():
        pytest.skip("run from a checkout: the package is toolkit/warband, without shipped files")
    for path in (package / "warbands").glob("*.yaml"):
        target = path.read_text(encoding="utf-8").splitlines()[0].split("$schema=")[1]
        assert (path.parent / target).is_file(), path


def _examples_for(ruleset_id: str):
    for path in sorted(ERRORS.glob("*.yaml")):
        result = validate([str(path)]).files[0]
        if result.ruleset is not None and result.ruleset.id == ruleset_id:
            yield path, result


def test_published_schema_rejects_what_the_schema_stage_rejects():
    """For every example the published schema gives the verdict `warband validate`'s schema
    stage gives: shape errors (E62x) fail, army-rule errors (E7xx) pass the schema."""
    seen = 0
    for path, result in _examples_for("super-simple-skirmish"):
        shape_errors = [d for d in result.errors if d.code.startswith("E62")]
        assert _jsonschema_verdict(SSS, _data(path)) == (not shape_errors), path
        seen += 1
    assert seen >= 10


def test_house_ruleset_schema_comes_from_its_rules():
    ruleset = load(str(ERRORS / "house.rules")).ruleset
    made = schema.ruleset_schema(ruleset)
    jsonschema.Draft7Validator.check_schema(made)
    fighter = made["properties"]["fighters"]["items"]
    props = fighter["properties"]
    assert props["size"]["enum"] == ["Small", "Medium", "Big"]
    assert props["size"]["default"] == "Medium"
    assert props["training"] == {"type": "integer", "minimum": 1, "maximum": 8,
                                 "description": "dice in hand"}
    assert props["equipment"]["items"] == {"enum": ["Shield", "Platemail"]}
    assert props["traits"]["properties"]["Armor"]["type"] == "integer"
    assert props["traits"]["items"] == {"enum": ["Guts"]}
    # Hero fixes Training; Grunt does not, and Training has no default
    assert "training" not in fighter["required"]
    # ... and no Hero entry may give it (E631)
    assert fighter["allOf"] == [{"if": {"properties": {"class": {"const": "Grunt"}},
                                        "required": ["class"]},
                                 "then": {"required": ["training"]}},
                                {"if": {"properties": {"class": {"const": "Hero"}},
                                        "required": ["class"]},
                                 "then": {"properties": {"training": {
                                     "not": {},
                                     "description": "class Hero fixes Training at 6: "
                                                    "leave it out"}}}}]
    for path, result in _examples_for("house-skirmish"):
        shape_errors = [d for d in result.errors if d.code.startswith("E62") or
                        d.code == "E631"]
        assert jsonschema.Draft7Validator(made).is_valid(_data(path)) == (not shape_errors), path


VALIDATION_MODULES = ["schema", "validate", "army", "warband_file", "reporters", "yamlfast"]


@pytest.mark.parametrize("module", VALIDATION_MODULES)
def test_validation_names_no_game_in_python(module):
    source = (ROOT / "toolkit" / "warband" / "lists" / f"{module}.py").read_text(encoding="utf-8")
    for word in ("might", "berserker", "soldier", "musketeer", "training", "super-simple",
                 "clockwork", "fate"):
        assert word not in source.lower(), f"{module}.py mentions '{word}'"


# ---- the quick acceptance check against jsonschema ----------------------------------------------

VALUES = st.one_of(st.none(), st.booleans(), st.integers(-5, 130), st.floats(-2, 120),
                   st.sampled_from(["", "Soldier", "Soldir", "Charge", "Frenzy", "Medium", "x"]),
                   st.lists(st.sampled_from(["Charge", "Fast", "Chrage", 3, None]), max_size=3),
                   st.dictionaries(st.sampled_from(["Fast", "Charge", "Armor", "Nope"]),
                                   st.one_of(st.none(), st.booleans(), st.integers(-1, 3)),
                                   max_size=2))
KEYS = ["name", "class", "might", "count", "traits", "equipment", "notes", "Might", "training",
        "size", "points", "ruleset", "fighters", "bogus"]


@st.composite
def mutated(draw):
    """A shipped warband or house example with a few keys set, removed or replaced."""
    base = draw(st.sampled_from([WARBANDS[0], WARBANDS[1], ERRORS / "house_quotas.yaml"]))
    data = copy.deepcopy(_data(base))
    for _ in range(draw(st.integers(0, 4))):
        fighters = data.get("fighters")
        target = data
        if isinstance(fighters, list) and fighters and draw(st.booleans()):
            target = fighters[draw(st.integers(0, len(fighters) - 1))]
            if not isinstance(target, dict):
                continue
        key = draw(st.sampled_from(KEYS))
        if draw(st.integers(0, 3)) == 0:
            target.pop(key, None)
        else:
            target[key] = draw(VALUES)
    return base, data


SCHEMA_OF = {}


def _schema_of(base: Path) -> dict:
    key = "house" if base.parent == ERRORS else "sss"
    if key not in SCHEMA_OF:
        ruleset = load(str(ERRORS / "house.rules") if key == "house"
                       else "super-simple-skirmish").ruleset
        SCHEMA_OF[key] = schema.ruleset_schema(ruleset)
    return SCHEMA_OF[key]


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutated())
def test_quick_check_agrees_with_jsonschema(case):
    base, data = case
    for made in (_schema_of(base), schema.generic_schema()):
        assert schema.conforms(made, data) == jsonschema.Draft7Validator(made).is_valid(data)


def test_quick_check_leaves_unknown_keywords_to_jsonschema():
    assert schema.conforms({"type": "string"}, "x")
    assert not schema.conforms({"format": "email"}, "x")  # not known: jsonschema decides
    assert not schema.conforms({"type": "integer"}, True)
    assert schema.conforms({"type": "integer"}, 3.0)      # Draft 7: 3.0 is an integer
    assert not schema.conforms({"enum": [True]}, 1)


def test_every_schema_error_becomes_one_positioned_diagnostic():
    for path in sorted(ERRORS.glob("*.yaml")):
        for d in validate([str(path)]).diagnostics:
            assert d.span is not None or d.code in ("E100",), (path, d)
            assert not re.search(r"is not valid under|is a required property|does not match",
                                 d.message), (path, d.message)
