"""`warband validate`: warband files checked against their rulesets, as a user runs it.

- every example in tests/warband_errors/ prints what its golden file holds (the command, its
  output and its exit code; `pytest --update-goldens` rewrites them), and every E6xx/E7xx/W7xx
  code has at least one such example;
- the shipped warbands (both battle-report forces) are valid and cost exactly 100 points;
- the army rules agree with a brute-force reading of the Super Simple Skirmish points calculator;
- the fast YAML reader builds exactly what yamlload builds (a brute-force twin);
- the output formats (text, JSON, GitHub annotations, SARIF) and the exit codes 0/1/2;
- `warband odds` takes fighters from warband files (FILE#NAME).
"""

from __future__ import annotations

import json
import re
import shlex
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from warband.catalog import display_path
from warband.catalog import rulesets as builtins
from warband.cli import app
from warband.diagnostics import CODES
from warband.limits import MAX_YAML_BYTES as MAX_BYTES
from warband.lists.validate import Validation, validate, validate_text
from warband.lists.yamlload import load_yaml

ROOT = Path(__file__).resolve().parents[1]
ERRORS = ROOT / "tests" / "warband_errors"
FORMATS = ERRORS / "formats"
WARBANDS = sorted((ROOT / "warbands").glob("*.yaml"))
EXAMPLES = sorted(ERRORS.glob("*.yaml"))
# Codes no example file can show, with the reason.
EXEMPT = {"E612": "only an unexpected failure inside the YAML library (a toolkit bug) gives it"}


def run(*args: str, input: str | bytes | None = None):
    return CliRunner().invoke(app, list(args), input=input)


def _normalised(text: str) -> str:
    """Built-in rulesets are shown where they are installed; goldens use the checkout's path."""
    for b in builtins():
        shown = display_path(b.path)
        text = text.replace(shown, f"dsl/{b.path.name}")
    return text


def _session(args: list[str]) -> tuple[str, int]:
    result = run(*args)
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    command = "$ warband " + " ".join(shlex.quote(a) for a in args)
    return f"{command}\n{_normalised(result.stdout)}[exit {result.exit_code}]\n", result.exit_code


# ---- the invalid examples ----------------------------------------------------------------------

@pytest.mark.parametrize("example", EXAMPLES, ids=[p.stem for p in EXAMPLES])
def test_example_prints_its_golden(example: Path, golden, at_root):
    rel = example.relative_to(ROOT).as_posix()
    text, code = _session(["validate", rel])
    golden(example.with_suffix(".txt"), text)
    assert code in (1, 2) or "warning[" in text


def _codes_shown() -> set[str]:
    shown = set()
    for txt in ERRORS.glob("*.txt"):
        shown |= set(re.findall(r"\b(?:error|warning)\[([EW]\d{3})\]", txt.read_text()))
    return shown


def test_every_warband_code_has_a_failing_example(tmp_path):
    big = tmp_path / "big.yaml"  # E607 needs a quarter of a megabyte: made here, not stored
    big.write_text("name: Big\n" + "# padding\n" * (MAX_BYTES // 10 + 1))
    generated = {d.code for d in validate([str(big)]).diagnostics}
    assert generated == {"E607"}
    # E640-E659 are warband fmt's and convert's: tests/test_fmt.py and tests/test_convert.py
    wanted = {c for c in CODES if re.match(r"E6[0-3]\d|E7\d\d|W7\d\d", c)}
    missing = sorted(wanted - _codes_shown() - generated - set(EXEMPT))
    assert not missing, (f"codes without a failing example in tests/warband_errors/: {missing}; "
                         "add NAME.yaml there and run pytest --update-goldens")
    assert set(EXEMPT) <= wanted


def test_examples_follow_the_conventions():
    for d in validate(str(p) for p in EXAMPLES).diagnostics:
        assert d.message[:1] == d.message[:1].lower(), d
        assert not d.message.endswith("."), d
        assert d.code in CODES


def test_all_problems_of_all_files_in_one_run(at_root):
    files = [p.relative_to(ROOT).as_posix() for p in EXAMPLES]
    report = validate(files)
    assert [f.file for f in report.files] == files
    alone = sum(len(validate([f]).diagnostics) for f in files)
    assert len(report.diagnostics) == alone


def test_one_message_per_problem():
    """A misspelt stat is an unknown key, not also a missing stat; a bad class is reported once."""
    result = validate_text("name: X\nruleset: super-simple-skirmish\nfighters:\n"
                           "  - {name: A, class: Soldir, Might: 10}\n")
    assert sorted(d.code for d in result.diagnostics) == ["E620", "E624"]


# ---- the shipped warbands ----------------------------------------------------------------------

@pytest.mark.parametrize("path", WARBANDS, ids=[p.stem for p in WARBANDS])
def test_shipped_warband_is_valid(path: Path):
    result = validate([str(path)]).files[0]
    assert result.diagnostics == []
    if result.ruleset.id == "super-simple-skirmish":  # the battle report's forces
        assert (result.total, result.limit) == (100, 100)  # "100 Might total."
    assert path.read_text().startswith(
        f"# yaml-language-server: $schema=../schemas/{result.ruleset.id}.warband.schema.json\n")


def test_battle_report_forces():
    def roster(name):
        result = validate([str(ROOT / "warbands" / name)]).files[0]
        return [(f.name, f.fighter_class, f.stats["Might"], f.count)
                for f in result.warband.fighters], result.size

    assert roster("clockwork-empire.yaml") == ([
        ("Lieutenant", "Berserker", 20, 1), ("Musketeer", "Soldier", 10, 4),
        ("Grenadier", "Gunslinger", 20, 2)], 7)
    assert roster("the-family.yaml") == ([
        ("Momma", "Gunslinger", 25, 1), ("Daddy", "Monster", 25, 1),
        ("Uncle", "Berserker", 13, 2), ("Brother", "Warrior", 7, 1),
        ("Sister", "Warrior", 7, 1), ("Kid", "Warrior", 5, 1), ("Bad Dog", "Beast", 5, 1)], 8)


def test_shipped_warbands_pass_strict(at_root):
    result = run("validate", "--strict", *[p.relative_to(ROOT).as_posix() for p in WARBANDS])
    assert result.exit_code == 0, result.output
    assert result.stdout == f"{len(WARBANDS)} files checked: 0 errors, 0 warnings\n"


# ---- the army rules against a brute-force reading of the points calculator ----------------------

TIERS = {"Soldier": "common", "Warrior": "common", "Beast": "common", "Drone": "common",
         "Gunner": "special", "Berserker": "special", "Sniper": "special",
         "Gunslinger": "special", "Monster": "rare", "Mech": "rare"}

entries = st.lists(st.tuples(st.sampled_from(sorted(TIERS)), st.integers(1, 100),
                             st.integers(1, 5)), min_size=1, max_size=8)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(entries=entries, points=st.one_of(st.none(), st.integers(1, 300)))
def test_army_rules_match_the_rules_text(entries, points):
    # "The cost of a fighter is equal to their might value. A standard game is 100 points and you
    # can have a maximum of 16 fighters. Additionally at least half of your total number of
    # fighters must be made up of basic classes ... and you can have a maximum of 2 fighters with
    # a rare class."
    lines = ["name: Random", "ruleset: super-simple-skirmish"]
    lines += [f"points: {points}"] if points is not None else []
    lines.append("fighters:")
    for i, (cls, might, count) in enumerate(entries):
        lines += [f"  - name: F{i}", f"    class: {cls}", f"    might: {might}",
                  f"    count: {count}"]
    result = validate_text("\n".join(lines) + "\n")
    total = sum(m * c for _, m, c in entries)
    size = sum(c for _, _, c in entries)
    common = sum(c for cls, _, c in entries if TIERS[cls] == "common")
    rare = sum(c for cls, _, c in entries if TIERS[cls] == "rare")
    expected = sorted(["E701"] * (total > (points or 100)) + ["E702"] * (size > 16)
                      + ["E703"] * ((2 * common < size) + (rare > 2)))
    assert sorted(d.code for d in result.diagnostics) == expected
    assert result.total == total and result.size == size


# ---- the fast YAML reader, against yamlload -----------------------------------------------------

def _shape(data):
    """Values, their types and every recorded position, for comparing two loads."""
    from ruamel.yaml.comments import CommentedMap, CommentedSeq
    if isinstance(data, CommentedMap):
        return ("map", data.lc.line, data.lc.col,
                [(k, data.lc.data[k], _shape(v)) for k, v in data.items()])
    if isinstance(data, CommentedSeq):
        return ("seq", data.lc.line, data.lc.col,
                [(data.lc.data[i], _shape(v)) for i, v in enumerate(data)])
    return (type(data).__name__, data, getattr(data, "__dict__", None))   # (a ScalarInt's width)


def _same_as_yamlload(text: str) -> bool:
    from warband.lists import yamlfast
    raw = text.encode("utf-8")
    fast = yamlfast.load(raw, "w.yaml")
    if fast is None:
        return False
    slow = load_yaml(raw, "w.yaml")
    assert slow.diagnostics == (), (text, slow.diagnostics)
    assert _shape(fast.data) == _shape(slow.data), text
    assert fast.text == slow.text
    return True


def test_fast_reader_reads_the_shipped_warbands():
    for path in WARBANDS:
        assert _same_as_yamlload(path.read_text()), path


SCALARS = ["Momma", "Bad Dog", "Momma's gun", "x1", "true", "True", "FALSE", "yes", "no", "on",
           "null", "Null", "~", "0", "7", "-3", "010", "0x1F", "0o7", "1_000", "1.5", "-.5",
           ".inf", ".nan", "nan", "1e3", "2023-01-01", "12:30", '"quoted"', "'single'",
           "'it''s'", '"a\\tb"', '"a # b"', "a #b", "a: b", "- x", "[a, b]", "[Fast,Charge]",
           "[1, -2]", "[]", "[a,]", "{a: 1}", "&x a", "*x", "!!str 5", "|", ">", "%", "@x",
           "a  b", "é", "Zoë", "1 2", "12345678901234567"]
PLAIN = ["Momma", "Bad Dog", "7", "-3", "true", "null", "x1", "[Fast, Charge]", '"quoted"',
         "Momma's gun", "0", "-0", "[0, 1]"]
SCALAR = st.one_of(st.sampled_from(PLAIN), st.sampled_from(SCALARS))
KEYS = ["name", "class", "might", "count", "traits", "a b", "x-y", "true", "null", "1", "Might",
        "_k", "k ", "'q'"]


@st.composite
def documents(draw, depth=0):
    """Block-style YAML text of a mapping, with the layouts people write by hand."""
    indent = draw(st.integers(0, 1)) * 2 if depth else 0
    lines = []
    for key in draw(st.lists(st.sampled_from(KEYS), min_size=1, max_size=4)):
        pad = " " * indent
        kind = draw(st.sampled_from(["scalar", "scalar", "map", "seq", "empty", "comment",
                                     "block"]))
        if kind == "block":
            lines.append(f"{pad}{key}: {draw(st.sampled_from(['|', '|-', '|+', '>', '|2']))}")
            for _ in range(draw(st.integers(0, 3))):
                extra = draw(st.sampled_from(["", " ", "  "]))
                text = draw(st.sampled_from(["Hired at the river.", "# not a comment",
                                             "key: value", "- item", "", " "]))
                lines.append(f"{pad}  {extra}{text}" if text else "")
        elif kind == "scalar" or depth >= 2:
            lines.append(f"{pad}{key}: {draw(SCALAR)}")
        elif kind == "comment":
            lines.append(f"{pad}# a comment")
            lines.append(f"{pad}{key}: {draw(SCALAR)}  # why")
        elif kind == "empty":
            lines.append(f"{pad}{key}:")
        elif kind == "map":
            lines.append(f"{pad}{key}:")
            inner = draw(documents(depth + 1))
            lines += [pad + "  " + line for line in inner.split("\n") if line]
        else:
            lines.append(f"{pad}{key}:")
            dash = pad + draw(st.sampled_from(["", "  "]))
            for _ in range(draw(st.integers(1, 3))):
                if draw(st.booleans()):
                    lines.append(f"{dash}- {draw(SCALAR)}")
                else:
                    inner = [line for line in draw(documents(2)).split("\n") if line]
                    gap = draw(st.sampled_from([" ", "   "]))
                    lines.append(f"{dash}-{gap}{inner[0].lstrip()}")
                    lines += [dash + " " * (1 + len(gap)) + line.lstrip() for line in inner[1:]]
        if draw(st.booleans()):
            lines.append("")
    return "\n".join(lines) + "\n"


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(documents())
def test_fast_reader_builds_what_yamlload_builds(text):
    _same_as_yamlload(text)


@settings(max_examples=300, deadline=None)
@given(st.data())
def test_fast_reader_on_damaged_warbands(data):
    text = WARBANDS[0].read_text()
    for _ in range(data.draw(st.integers(1, 4))):
        at = data.draw(st.integers(0, len(text)))
        edit = data.draw(st.sampled_from(["", ":", " ", "-", "#", '"', "'", "\n", "  ", "[", "]",
                                          ",", "\t", "~", "0", "x"]))
        cut = data.draw(st.integers(0, 3))
        text = text[:at] + edit + text[at + cut:]
    _same_as_yamlload(text)


def test_fast_reader_keeps_a_file_with_a_zero():
    """Issue 32, E23: a single literal 0 (SMART's `xp: 0`) sent the whole file to ruamel's
    round-trip scanner, 7.7 times slower per fighter; the fast reader reads it as ruamel does
    (a ScalarInt of width 1), in a flow list too."""
    from warband.lists import yamlfast
    text = ("name: Delvers\nruleset: smart\nfighters:\n  - name: Anna\n    class: Knight\n"
            "    xp: 0\n  - name: Bo\n    class: Archer\n    xp: -0\n    tags: [0, 1]\n")
    assert yamlfast.load(text.encode(), "w.yaml") is not None
    assert _same_as_yamlload(text)
    assert yamlfast.load(b"xp: 00\n", "w.yaml") is None   # (ruamel keeps 00's spelling)
    for path in WARBANDS:   # every shipped list, SMART's with their zeros among them
        assert yamlfast.load(path.read_bytes(), path.name) is not None, path


def test_fast_reader_is_used_for_plain_files_only():
    from warband.lists import yamlfast
    assert yamlfast.load(b"name: X\nnotes: >\n  text\n", "w.yaml") is None
    assert yamlfast.load(b"a: &x 1\nb: *x\n", "w.yaml") is None
    assert yamlfast.load(b"name: X\nname: Y\n", "w.yaml") is None   # yamlload reports it
    assert yamlfast.load(b"name: X\n", "w.yaml").data == {"name": "X"}
    assert yamlfast.load(b"notes: |\n  a\n\n  # b\nx: 1\n", "w.yaml").data == {
        "notes": "a\n\n# b\n", "x": 1}


# ---- output formats and exit codes --------------------------------------------------------------

FORMAT_CASE = ["tests/warband_errors/rare_quota.yaml", "tests/warband_errors/unknown_class.yaml",
               "tests/warband_errors/duplicate_names.yaml", "warbands/the-family.yaml"]


@pytest.mark.parametrize("fmt,suffix", [("text", ".txt"), ("json", ".json"),
                                        ("github", ".github.txt"), ("sarif", ".sarif.json")])
def test_format_golden(fmt, suffix, golden, at_root):
    from warband import __version__
    result = run("validate", "--format", fmt, *FORMAT_CASE)
    assert result.exit_code == 1
    text = _normalised(result.stdout).replace(f'"version": "{__version__}"',
                                              '"version": "<the version>"')
    golden(FORMATS / f"several{suffix}", text)


def test_json_format(at_root):
    data = json.loads(run("validate", "--format", "json", *FORMAT_CASE).stdout)
    assert data["valid"] is False
    assert [f["valid"] for f in data["files"]] == [False, False, True, True]
    family = data["files"][3]
    assert (family["points"], family["points_limit"], family["fighters"]) == (100, 100, 8)
    assert data["summary"] == {"files": 4, "errors": 4, "warnings": 1}


def test_github_format(at_root):
    lines = run("validate", "--format", "github", *FORMAT_CASE).stdout.splitlines()
    assert lines[0].startswith("::error file=tests/warband_errors/rare_quota.yaml,line=5,col=12,")
    assert "::3 fighters of rare classes (Daddy, Ogre, Engine); at most 2 allowed [E703]%0A" \
        in lines[0]
    assert any(line.startswith("::warning ") for line in lines)
    assert all(line.startswith("::") and "\n" not in line for line in lines)


def test_sarif_format(at_root):
    log = json.loads(run("validate", "--format", "sarif", *FORMAT_CASE).stdout)
    assert log["version"] == "2.1.0"
    run_ = log["runs"][0]
    rules = [r["id"] for r in run_["tool"]["driver"]["rules"]]
    assert rules == ["E624", "E703", "W701"]
    first = run_["results"][0]
    assert first["ruleId"] == "E703" and rules[first["ruleIndex"]] == "E703"
    region = first["locations"][0]["physicalLocation"]["region"]
    assert (region["startLine"], region["startColumn"], region["endColumn"]) == (5, 12, 19)
    assert first["relatedLocations"][-1]["physicalLocation"]["artifactLocation"]["uri"] \
        .endswith("super-simple-skirmish.rules")
    assert {r["level"] for r in run_["results"]} == {"error", "warning"}


def test_exit_codes(tmp_path, at_root):
    valid, warning = "warbands/the-family.yaml", "tests/warband_errors/duplicate_names.yaml"
    assert run("validate", valid).exit_code == 0
    assert run("validate", warning).exit_code == 0
    assert run("validate", "--strict", warning).exit_code == 1
    assert run("validate", valid, "tests/warband_errors/rare_quota.yaml").exit_code == 1
    assert run("validate", valid, str(tmp_path / "missing.yaml")).exit_code == 2
    assert run("validate", "tests/warband_errors/unknown_ruleset.yaml").exit_code == 2
    assert run("validate", "tests/warband_errors/missing_rules_file.yaml").exit_code == 2
    assert run("validate", "tests/warband_errors/broken_ruleset.yaml").exit_code == 2
    assert run("validate", str(tmp_path)).exit_code == 2


def test_stdin(at_root):
    text = (ROOT / "warbands" / "clockwork-empire.yaml").read_bytes()
    result = run("validate", "-", input=text)
    assert result.exit_code == 0, result.output
    bad = text.replace(b"class: Soldier", b"class: Soldir")
    result = run("validate", "-", input=bad)
    assert result.exit_code == 1
    assert result.stdout.startswith("<stdin>:14:12: error[E624]: unknown class 'Soldir'")


def test_ruleset_option_for_files_without_one(tmp_path):
    path = tmp_path / "w.yaml"
    path.write_text("name: X\nfighters:\n  - {name: A, class: Soldier, might: 10}\n")
    result = run("validate", str(path))
    assert result.exit_code == 1
    assert "missing key 'ruleset'" in result.stdout
    assert run("validate", "--ruleset", "super-simple-skirmish", str(path)).exit_code == 0


def test_house_rules_path_is_relative_to_the_warband_file(tmp_path):
    (tmp_path / "rules").mkdir()
    (tmp_path / "rules" / "h.rules").write_text(
        (ERRORS / "house.rules").read_text(encoding="utf-8"), encoding="utf-8")
    (tmp_path / "lists").mkdir()
    path = tmp_path / "lists" / "w.yaml"
    path.write_text("name: X\nruleset: ../rules/h.rules\nfighters:\n"
                    "  - {name: A, class: Hero, equipment: [Shield]}\n"
                    "  - {name: B, class: Grunt, training: 2, equipment: [Shield]}\n"
                    "  - {name: C, class: Grunt, training: 2}\n")
    result = validate([str(path)]).files[0]
    assert result.diagnostics == [], result.diagnostics
    assert result.total == 6 * 5 + 3 + 2 * 5 + 3 + 2 * 5


def test_a_run_compiles_each_ruleset_once(monkeypatch):
    import warband.lists.validate as validate
    calls = []
    real = validate.load
    monkeypatch.setattr(validate, "load", lambda ref: calls.append(ref) or real(ref))
    Validation().run([str(p) for p in WARBANDS] * 3)
    assert sorted(calls) == ["ashfall", "fogbound", "ratcatchers", "smart", "smart-faith",
                             "sss-sentinel",
                             "super-simple-skirmish", "swords-against-sorcery",
                             "swords-against-sorcery-points"]


# ---- a table keyed on a fighter, over several files ------------------------------------------

PRICE_RULES = """ruleset "price"
  title "Price"
  version "1"

stat Skill: 1..10 "skill"
class A { }
class B { }

table price(f: fighter) -> points "a fighter's price, by its class" {
  when f is A => 10
  otherwise => 99
}

army "points" {
  cost(f) = price(f)
  points 100
}
"""


def test_a_table_keyed_on_a_fighter_prices_each_file_fighter_by_fighter(tmp_path):
    """Issue 19: the first fighter of one.yaml (class A) and of two.yaml (class B) are both
    fighter #0: the table's row was kept by that position, and two.yaml cost 10, not 99."""
    (tmp_path / "price.rules").write_text(PRICE_RULES)
    (tmp_path / "one.yaml").write_text(
        "name: One\nruleset: price.rules\nfighters:\n  - {name: a, class: A, skill: 1}\n")
    (tmp_path / "two.yaml").write_text(
        "name: Two\nruleset: price.rules\npoints: 50\n"
        "fighters:\n  - {name: b, class: B, skill: 1}\n")
    one, two = str(tmp_path / "one.yaml"), str(tmp_path / "two.yaml")

    def verdict(*files):
        return {f.file: (f.total, [d.code for d in f.diagnostics])
                for f in validate(list(files)).files}
    expected = {one: (10, []), two: (99, ["E701"])}
    assert verdict(one) | verdict(two) == expected
    assert verdict(one, two) == expected
    assert verdict(two, one) == expected
    result = run("validate", one, two)
    assert result.exit_code == 1 and "the warband costs 99 points; at most 50" in result.stdout


# ---- odds with fighters from warband files ------------------------------------------------------

def test_odds_takes_fighters_from_warband_files(at_root):
    by_file = run("odds", "super-simple-skirmish", "--attacker",
                  "warbands/clockwork-empire.yaml#Musketeer", "--target",
                  "warbands/the-family.yaml#Momma", "--action", "shoot", "--format", "json")
    assert by_file.exit_code == 0, by_file.output
    by_spec = run("odds", "super-simple-skirmish", "--attacker", "class=Soldier might=10",
                  "--target", "class=Gunslinger might=25", "--action", "shoot",
                  "--format", "json")
    assert json.loads(by_file.stdout)["outcomes"] == json.loads(by_spec.stdout)["outcomes"] \
        == {"kill": "1/54", "stun": "2/27", "none": "49/54"}


def test_odds_names_a_missing_fighter(golden, at_root):
    result = run("odds", "super-simple-skirmish", "--attacker",
                 "warbands/clockwork-empire.yaml#Musketer", "--target",
                 "warbands/the-family.yaml#Bad Dog", "--action", "shoot")
    assert result.exit_code == 2
    golden(FORMATS / "odds_missing_fighter.txt", result.stderr)


def test_odds_refuses_an_invalid_warband_file(at_root):
    result = run("odds", "super-simple-skirmish", "--attacker",
                 "tests/warband_errors/unknown_class.yaml#Lieutenant", "--action", "move")
    assert result.exit_code == 2
    assert "unknown class 'Berserkr'" in result.stderr
    assert "is not a valid warband file" in result.stderr


def test_find_fighter_is_a_library_function():
    from warband.lang.compiler import load
    from warband.lists.fighters import find_fighter, is_fighter_ref
    ruleset = load("super-simple-skirmish").ruleset
    assert is_fighter_ref("warbands/the-family.yaml#Bad Dog")
    assert not is_fighter_ref("class=Soldier might=10")
    problems: list = []
    found = find_fighter(f"{ROOT}/warbands/the-family.yaml#Uncle", "--target", ruleset, 1,
                         problems)
    assert problems == []
    spec = found.spec
    assert (spec.name, spec.fighter_class, spec.stats, spec.side) == (
        "Uncle", "Berserker", {"Might": 13}, 1)


# ---- the pre-commit hook ------------------------------------------------------------------------

def test_pre_commit_hook():
    from ruamel.yaml import YAML
    hooks = YAML(typ="safe", pure=True).load((ROOT / ".pre-commit-hooks.yaml").read_text())
    hook = next(h for h in hooks if h["id"] == "warband-validate")
    assert hook["entry"] == "warband validate"
    assert re.search(hook["files"], "warbands/the-family.yaml")
    assert not re.search(hook["files"], ".github/workflows/ci.yaml")


def test_commands_doc_shows_what_validate_prints(at_root):
    text = (ROOT / "docs" / "commands.md").read_text(encoding="utf-8")
    sessions = re.findall(r"^```\n\$ (warband validate [^\n]*)\n(.*?)^```$", text,
                          re.MULTILINE | re.DOTALL)
    assert sessions
    for command, expected in sessions:
        result = run(*shlex.split(command)[1:])
        assert _normalised(result.stdout) == expected, command


def test_each_file_names_its_own_ruleset_problem(tmp_path):
    (tmp_path / "broken.rules").write_text((ERRORS / "broken.rules").read_text())
    for name in ("a.yaml", "b.yaml"):
        (tmp_path / name).write_text("# another line first\n" * (name == "b.yaml")
                                     + "name: X\nruleset: broken.rules\nfighters: []\n")
    report = validate([str(tmp_path / "a.yaml"), str(tmp_path / "b.yaml")])
    spans = [(f.file, [(d.code, d.span.file, d.span.line) for d in f.diagnostics if
                       d.code == "E629"]) for f in report.files]
    assert spans == [(str(tmp_path / "a.yaml"), [("E629", str(tmp_path / "a.yaml"), 2)]),
                     (str(tmp_path / "b.yaml"), [("E629", str(tmp_path / "b.yaml"), 3)])]
    assert report.unusable


def test_ruleset_option_path_is_relative_to_the_working_directory(tmp_path, monkeypatch):
    (tmp_path / "house.rules").write_text((ERRORS / "house.rules").read_text())
    (tmp_path / "lists").mkdir()
    (tmp_path / "lists" / "w.yaml").write_text(
        "name: X\nfighters:\n  - {name: A, class: Hero, equipment: [Shield]}\n"
        "  - {name: B, class: Grunt, training: 2, equipment: [Shield]}\n"
        "  - {name: C, class: Grunt, training: 2}\n")
    monkeypatch.chdir(tmp_path)
    result = run("validate", "--ruleset", "house.rules", "lists/w.yaml")
    assert result.exit_code == 0, result.stdout


@st.composite
def damaged_house_example(draw):
    text = (ERRORS / "house_quotas.yaml").read_text()
    for _ in range(draw(st.integers(1, 5))):
        at = draw(st.integers(0, len(text)))
        edit = draw(st.sampled_from(["", ":", " ", "- ", "#", "0", "x", "\n", "[", "{", "Hero",
                                     "Shield", "-1", "count: 0\n"]))
        text = text[:at] + edit + text[at + draw(st.integers(0, 4)):]
    return text


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.one_of(documents().map(lambda t: "ruleset: super-simple-skirmish\n" + t),
                 damaged_house_example()))
def test_validation_never_fails_on_any_input(text):
    """Whatever the file holds, validation ends with positioned diagnostics, never an error."""
    result = Validation().text(text, "w.yaml", ERRORS)
    lines = text.split("\n")
    for d in result.diagnostics:
        assert d.code in CODES
        if d.span is not None and d.span.file == "w.yaml":
            assert 1 <= d.span.line <= len(lines) + 1, d


def test_a_key_that_is_not_text_is_located_not_a_crash():
    from warband.lists.validate import validate_text
    report = validate_text("name: Guard\nruleset: super-simple-skirmish\nfighters:\n"
                           "  - : Captain\n    class: Soldier\n    might: 10\n")
    codes = [(d.code, d.span.line, d.span.column) for d in report.diagnostics]
    assert ("E622", 4, 5) in codes


def test_a_cached_ruleset_loads_without_dataclasses_machinery(monkeypatch):
    """Issue 32, E23: unpickling the cached Ruleset called dataclasses.fields() once per node
    (dataclasses' generic __setstate__ of frozen slotted classes); nodes and spans restore their
    slots directly. The nodes stay frozen all the same."""
    import dataclasses
    import pickle

    from warband.lang import nodes
    from warband.lang.compiler import load
    ruleset = load("super-simple-skirmish").ruleset
    data = pickle.dumps(ruleset)

    def refused(*args, **kwargs):
        raise AssertionError("dataclasses.fields() called while unpickling")
    monkeypatch.setattr(dataclasses, "fields", refused)
    again = pickle.loads(data)
    monkeypatch.undo()
    assert again.stats.keys() == ruleset.stats.keys()
    name = nodes.Name("might", next(iter(again.stats.values())).span)
    with pytest.raises(dataclasses.FrozenInstanceError):
        name.name = "other"   # type: ignore[misc]
    with pytest.raises(dataclasses.FrozenInstanceError):
        del name.name   # type: ignore[misc]
    assert repr(name).startswith("Name(name='might', span=Span(")
    assert dataclasses.replace(name, name="x").name == "x" and name.name == "might"
