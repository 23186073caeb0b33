"""Army rules a designer writes (issue 20): group sizes, rules of the author's own, limits per
points and per kind, and findings reported beside shape errors.

The golden examples are in tests/warband_errors (guild_*.yaml, against guild.rules) and
tests/rules_errors; this file holds what goldens cannot say:

- the valid example is valid, and a second system (a squad game, written here) uses the same
  concepts;
- all findings in one run: whatever a malformed entry turns out to be once fixed, every army
  finding reported beside it is still a finding (no false alarm from a partial warband), and a
  finding the well-formed entries settle is reported (the rare-class quota beside a misspelt
  class);
- the names army rules read are known only there; the schema carries group sizes; a house file's
  `override army` adds its rules to the base's; `rules show` prints them.
"""

from __future__ import annotations

import json
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from warband.cli import app
from warband.lang.compiler import compile_text
from warband.lists.schema import ruleset_schema
from warband.lists.validate import Validation, validate

ROOT = Path(__file__).resolve().parents[1]
GUILD = ROOT / "tests" / "warband_errors" / "guild.rules"

SQUADS = '''ruleset "squads"
  title "Squads: a squad game of units, heroes and limits per points"

stat Quality: 2..6 "the roll a unit needs"
tier hero "one model"
tier unit "squads of several models"
trait Heavy "carries a heavy weapon"

class Commander { tier hero single unique stat Quality = 3 }
class Champion  { tier hero single }
class Troopers  { tier unit group 5..10 "troopers come in squads of 5 to 10" }
class Gunners   { tier unit group 3..5 traits Heavy }

define value(m: fighter) = (7 - m.Quality) * 5 + (if m has Heavy then 5 else 0)

army "squad list" {
  cost(m) = value(m)
  points 500
  quota tier hero at most 1 per 250 points "one hero per 250 points"
  quota each class at most 15 "no more than 15 models of the same class"
  at most 1 e in entries where e.fighter is Gunners "one squad of gunners"
  require total_fighters >= 8 "a force of at least 8 models"
}
'''


def _codes(path: str) -> list[str]:
    return [d.code for d in validate([path]).diagnostics]


def _write(folder: Path, name: str, text: str) -> str:
    path = folder / name
    path.write_text(text)
    return str(path)


def test_the_valid_guild_is_valid():
    assert _codes(str(ROOT / "tests" / "army_rules" / "guild-valid.yaml")) == []


def test_a_squad_game_uses_the_same_concepts(tmp_path):
    _write(tmp_path, "squads.rules", SQUADS)
    assert compile_text(SQUADS, "squads.rules").errors == []
    valid = _write(tmp_path, "valid.yaml", """name: Valid
ruleset: squads.rules
fighters:
  - {name: Vance, class: Commander}
  - {name: Red, class: Troopers, count: 5, quality: 4}
  - {name: Guns, class: Gunners, count: 3, quality: 4}
""")
    assert _codes(valid) == []
    invalid = _write(tmp_path, "invalid.yaml", """name: Invalid
ruleset: squads.rules
points: 250
fighters:
  - {name: Vance, class: Commander}
  - {name: Ada, class: Champion, quality: 3}
  - {name: Red, class: Troopers, count: 4, quality: 5}
  - {name: Guns, class: Gunners, count: 3, quality: 5}
  - {name: More Guns, class: Gunners, count: 3, quality: 5}
""")
    found = validate([invalid]).diagnostics
    by_code = sorted(d.code for d in found)
    # troopers of 4 (E705), 2 heroes in a game of 250 (E703), two gunner squads (E706)
    assert by_code == ["E703", "E705", "E706"], [d.message for d in found]
    per_points = next(d for d in found if d.code == "E703")
    assert "at most 1 allowed (1 per 250 points, in a game of 250)" in per_points.message
    gunners = next(d for d in found if d.code == "E706")
    assert gunners.message.startswith("one squad of gunners: 2 entries")
    assert gunners.related[-1].message == "the rule"


def test_a_count_over_entries_counts_entries_and_over_fighters_counts_fighters(tmp_path):
    rules = SQUADS.replace('at most 1 e in entries where e.fighter is Gunners "one squad of '
                           'gunners"', 'at most 4 m in fighters where m is Gunners "4 gunners"')
    _write(tmp_path, "squads.rules", rules)
    path = _write(tmp_path, "w.yaml", """name: W
ruleset: squads.rules
fighters:
  - {name: Vance, class: Commander}
  - {name: Red, class: Troopers, count: 5, quality: 4}
  - {name: Guns, class: Gunners, count: 5, quality: 4}
""")
    [found] = validate([path]).diagnostics
    assert found.message.startswith("4 gunners: 5 fighters (Guns x5); at most 4 allowed")


# ---- all findings in one run -------------------------------------------------------------------

GUILD_CLASSES = ["Captain", "Adept", "Lamplighter", "Porter"]


@st.composite
def guild_entries(draw):
    entries = []
    for i in range(draw(st.integers(1, 5))):
        cls = draw(st.sampled_from(GUILD_CLASSES))
        count = draw(st.sampled_from([1, 1, 2, 3, 6]))
        skill = "" if cls == "Captain" else f", skill: {draw(st.integers(1, 8))}"
        entries.append(f"  - {{name: e{i}, class: {cls}, count: {count}{skill}}}")
    return entries


def _army_findings(text: str, folder: Path) -> set:
    path = _write(folder, "w.yaml", text)
    result = Validation().file(path)
    return {(d.code, d.message, d.path) for d in result.diagnostics if d.code.startswith("E7")}


@settings(max_examples=40, deadline=None)
@given(guild_entries(), st.integers(1, 8))
def test_findings_beside_a_malformed_entry_hold_whatever_it_becomes(entries, skill):
    import shutil
    import tempfile
    folder = Path(tempfile.mkdtemp(prefix="army-rules-"))
    try:
        (folder / "guild.rules").write_text(GUILD.read_text())
        head = "name: G\nruleset: guild.rules\nfighters:\n"
        body = "\n".join(entries)
        partial = _army_findings(head + body + "\n  - {name: x, class: Lampligter, skill: "
                                 f"{skill}}}\n", folder)
        for fixed in GUILD_CLASSES:
            extra = "" if fixed == "Captain" else f", skill: {skill}"
            whole = _army_findings(head + body + f"\n  - {{name: x, class: {fixed}{extra}}}\n",
                                   folder)
            codes_paths = {(c, p) for c, _, p in whole}
            for code, message, path in partial:
                assert (code, path) in codes_paths, (message, fixed, whole)
    finally:
        shutil.rmtree(folder)


def test_the_rare_quota_is_reported_beside_a_misspelt_class():
    found = validate([str(ROOT / "tests" / "warband_errors" /
                          "rare_quota_with_misspelt_class.yaml")]).diagnostics
    assert sorted(d.code for d in found) == ["E624", "E703"]


def test_what_needs_every_entry_waits_for_them(tmp_path):
    (tmp_path / "guild.rules").write_text(GUILD.read_text())
    path = _write(tmp_path, "w.yaml", """name: G
ruleset: guild.rules
fighters:
  - {name: Osk, class: Adept, skill: 5}
  - {name: x, class: Captian}
""")
    # no Captain among the well-formed entries, but the misspelt one may be it: no E706 yet
    assert _codes(path) == ["E624"]


# ---- the language --------------------------------------------------------------------------------

def test_army_names_are_known_only_in_army_rules():
    text = '''ruleset "t"
stat Skill: 1..10
define crowd(f: fighter) = total_fighters + f.Skill
'''
    [error] = compile_text(text, "t.rules").errors
    assert (error.code, error.message) == ("E201", "unknown name 'total_fighters'")
    # outside an army, `fighters` is every fighter in play (issue 21), known everywhere
    text2 = text.replace("total_fighters + f.Skill", "total(g.Skill for g in fighters)")
    assert compile_text(text2, "t.rules").errors == []


def test_the_schema_gives_each_class_its_group_sizes():
    ruleset = compile_text(GUILD.read_text(), str(GUILD)).ruleset
    assert ruleset is not None
    conditions = ruleset_schema(ruleset)["properties"]["fighters"]["items"]["allOf"]
    counts = {c["if"]["properties"]["class"]["const"]: c["then"]["properties"]["count"]
              for c in conditions if "count" in c["then"].get("properties", {})}
    assert {k: (v["minimum"], v["maximum"]) for k, v in counts.items()} == {
        "Captain": (1, 1), "Adept": (1, 1), "Lamplighter": (1, 5), "Porter": (2, 4)}
    # validation names the class's rule (E705) rather than a bare out-of-range count
    plain = ruleset_schema(ruleset, groups=False)["properties"]["fighters"]["items"]
    assert '"maximum": 5' not in json.dumps(plain.get("allOf", []))


def test_the_schema_gives_a_unique_class_one_fighter_an_entry():
    compiled = compile_text('ruleset "u"\nstat Skill: 1..5 default 1\n'
                            'class Hero { unique }\nclass Band { group 1..3 unique }\n', "u.rules")
    assert compiled.ruleset is not None
    schema = json.dumps(ruleset_schema(compiled.ruleset))
    assert schema.count('"maximum": 1, "description": "class ') == 2   # Hero and Band


def test_override_army_adds_the_house_rules(tmp_path):
    (tmp_path / "guild.rules").write_text(GUILD.read_text())
    house = tmp_path / "house.rules"
    house.write_text('''ruleset "house"
  extends "guild.rules"

override army {
  at most 2 f in fighters where f is Adept "at most two Adepts"
}
''')
    from warband.lang.compiler import load
    compiled = load(str(house))
    assert compiled.errors == []
    assert compiled.ruleset is not None and compiled.ruleset.army is not None
    docs = [r.doc for r in compiled.ruleset.army.rules]
    assert docs[-1] == "at most two Adepts" and "a guild is led by its Captain" in docs
    assert [q.each for q in compiled.ruleset.army.quotas].count(True) == 1


def test_a_house_file_removes_a_limit_on_each_kind(tmp_path):
    (tmp_path / "guild.rules").write_text(GUILD.read_text())
    house = tmp_path / "house.rules"
    house.write_text('ruleset "house"\n  extends "guild.rules"\n\n'
                     'override army { remove quota each class }\n')
    from warband.lang.compiler import load
    compiled = load(str(house))
    assert compiled.errors == [] and compiled.ruleset is not None
    assert compiled.ruleset.army is not None
    assert not any(q.each for q in compiled.ruleset.army.quotas)
    again = tmp_path / "again.rules"
    again.write_text('ruleset "again"\n  extends "house.rules"\n\n'
                     'override army { remove quota each tier }\n')
    [problem] = load(str(again)).errors
    assert problem.code == "E433" and "quota each tier" in problem.message


def test_rules_show_prints_the_rules_and_group_sizes():
    result = CliRunner().invoke(app, ["rules", "show", str(GUILD)])
    assert result.exit_code == 0
    assert "rule: at least 1 f in fighters where f is Captain (a guild is led by its Captain)" \
        in result.stdout
    assert "Lamplighter: in groups of 1 to 5" in result.stdout
    assert "quota: at most 1 per 100 points from tier hero" in result.stdout


def test_a_huge_count_is_refused_not_made(tmp_path):
    """An entry of a billion fighters: the rules that look at each fighter are not run (E707),
    and the run ends at once."""
    (tmp_path / "guild.rules").write_text(GUILD.read_text())
    path = _write(tmp_path, "w.yaml", """name: G
ruleset: guild.rules
fighters:
  - {name: Mirela, class: Captain}
  - {name: Horde, class: Lamplighter, count: 1000000000, skill: 1}
""")
    found = validate([path]).diagnostics
    huge = [d for d in found if d.code == "E707"]
    assert len(huge) == 1 and "at most 500 can be looked at" in huge[0].message


def test_rules_diff_names_the_army_rules_a_house_file_adds(tmp_path):
    (tmp_path / "guild.rules").write_text(GUILD.read_text())
    (tmp_path / "house.rules").write_text('''ruleset "house"
  extends "guild.rules"

override army {
  quota each class at most 4 "fewer of each"
  at most 2 f in fighters where f is Adept "at most two Adepts"
}
''')
    result = CliRunner().invoke(app, ["rules", "diff", str(tmp_path / "guild.rules"),
                                      str(tmp_path / "house.rules")])
    assert "changed  quota each class: at most 6 from each class -> at most 4 from each class" \
        in result.stdout
    assert "added    rule 'at most two Adepts': at most 2 f in fighters where f is Adept" \
        in result.stdout


def test_a_count_of_entries_says_entries_even_when_none_is_counted(tmp_path):
    rules = SQUADS.replace('at most 1 e in entries where e.fighter is Gunners "one squad of '
                           'gunners"', 'at least 1 e in entries where e.fighter is Gunners '
                                       '"a squad of gunners"')
    _write(tmp_path, "squads.rules", rules)
    path = _write(tmp_path, "w.yaml", """name: W
ruleset: squads.rules
fighters:
  - {name: Vance, class: Commander}
  - {name: Red, class: Troopers, count: 8, quality: 4}
""")
    [found] = validate([path]).diagnostics
    assert found.message == "a squad of gunners: 0 entries; at least 1 needed"
