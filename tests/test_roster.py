"""`warband roster`: roster cards as a player reads them, pinned by golden files; the glossary
holds only the rules a list uses; totals; safe writing with -o/--force; user templates; exit
codes 0 (valid) / 1 (printed, with problems) / 2 (unusable input)."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from warband.cli import app, output
from warband.lists import render_roster
from warband.lists.roster import roster, roster_text

ROOT = Path(__file__).resolve().parents[1]
GOLDEN = ROOT / "tests" / "roster_golden"
WARBANDS = sorted(p.name for p in (ROOT / "warbands").glob("*.yaml"))
PINNED = ["clockwork-empire", "the-family", "greedy-dudes", "narnia-patrol", "ashfall-ashen-host",
          "fogbound-eel-street"]

INVALID = """\
name: Too Many Monsters
ruleset: super-simple-skirmish
fighters:
  - name: Big One
    class: Monster
    might: 30
  - name: Big Two
    class: Monster
    might: 30
    count: 2
  - name: Spotter
    class: Sniper
    might: 15
"""


@pytest.fixture(autouse=True)
def _at_root(monkeypatch):
    monkeypatch.chdir(ROOT)  # paths in the output are relative, as a user types them


def run(*args: str):
    return CliRunner().invoke(app, ["roster", *args])


def model_of(name: str) -> dict:
    found = roster(f"warbands/{name}.yaml")
    assert found.usable, found.diagnostics
    return found.model


def leftovers(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.endswith(".tmp"))


# ---- what the player reads --------------------------------------------------------------------

@pytest.mark.parametrize("name", PINNED)
@pytest.mark.parametrize("fmt,ext", [("markdown", "md"), ("html", "html")])
def test_roster_golden(golden, name, fmt, ext):
    result = run(f"warbands/{name}.yaml", "--format", fmt)
    assert result.exit_code == 0, result.output
    assert result.stderr == ""
    golden(GOLDEN / f"{name}.{ext}", result.stdout)


def test_invalid_cards_golden(golden):
    """An invalid warband's sheet: each entry's problems on its own card, a malformed entry a
    card of its own, the warband's quota problem with the totals."""
    found = roster_text(INVALID.replace("might: 15", "might: lots") +
                        "  - {name: Nobody, class: Nope, might: 5}\n  - [not, an, entry]\n",
                        "too-many-monsters.yaml")
    golden(GOLDEN / "too-many-monsters.md", render_roster.render(found.model, "markdown"))
    golden(GOLDEN / "too-many-monsters.txt",
           render_roster.render(found.model, "text", width=100))


def test_terminal_golden(golden, monkeypatch):
    monkeypatch.setenv("COLUMNS", "100")
    result = run("warbands/the-family.yaml")
    assert result.exit_code == 0, result.output
    assert "\x1b[" not in result.stdout
    golden(GOLDEN / "the-family.txt", result.stdout)


def test_terminal_colour_only_when_asked():
    model = model_of("the-family")
    assert "\x1b[" in render_roster.terminal(model, width=100, colour=True)
    assert "\x1b[" not in render_roster.terminal(model, width=100, colour=False)


def test_narrow_terminal_lists_fighters_one_by_one():
    text = render_roster.terminal(model_of("narnia-patrol"), width=50)
    assert "Archer × 3 · Archer (human)" in text
    assert "  equipment: Bow, Dagger, Padding" in text
    assert "…" not in text


@pytest.mark.parametrize("warband", WARBANDS)
@pytest.mark.parametrize("fmt", ["text", "markdown", "html"])
def test_every_example_warband_has_a_roster(warband, fmt):
    result = run(f"warbands/{warband}", "--format", fmt)
    assert result.exit_code == 0, result.output
    assert model_of(warband[:-5])["title"] in result.stdout.replace("&#39;", "'")


# ---- the model ----------------------------------------------------------------------------------

def test_glossary_holds_only_the_rules_the_list_uses():
    model = model_of("the-family")
    glossary = {s["title"]: [e["name"] for e in s["entries"]] for s in model["glossary"]}
    assert "Frenzy" in glossary["Traits"]           # Uncle (Berserker), Daddy (Monster)
    assert "Marksman" not in glossary["Traits"]     # only a Sniper has it
    assert "Blast" not in glossary["Traits"]
    assert set(glossary["Classes"]) == {"Gunslinger", "Monster", "Berserker", "Warrior", "Beast"}
    assert set(glossary["Tiers"]) == {"common", "special", "rare"}
    used = {t["name"] for f in model["fighters"] for t in f["traits"]}
    assert set(glossary["Traits"]) == used
    clockwork = model_of("clockwork-empire")
    tiers = next(s for s in clockwork["glossary"] if s["title"] == "Tiers")
    assert [e["name"] for e in tiers["entries"]] == ["common", "special"]  # no rare class


def test_glossary_carries_the_rules_text():
    model = model_of("the-family")
    traits = {e["name"]: e["doc"] for s in model["glossary"] if s["title"] == "Traits"
              for e in s["entries"]}
    assert traits["Frenzy"] == "Rolls 4D6 and discards the lowest when making melee attacks"


@pytest.mark.parametrize("name", ["clockwork-empire", "the-family"])
def test_battle_report_forces_total_100_of_100(name):
    model = model_of(name)
    totals = {t["name"]: t for t in model["totals"]}
    assert (totals["points"]["used"], totals["points"]["limit"]) == ("100", "100")
    assert totals["points"]["text"] == "100 / 100" and totals["points"]["ok"] is True
    assert totals["fighters"]["limit"] == "16" and totals["fighters"]["ok"] is True
    assert sum(int(f["points"]) for f in model["fighters"]) == 100
    assert model["valid"] and model["status"] == "valid"


def test_points_are_cost_times_count():
    uncle = next(f for f in model_of("the-family")["fighters"] if f["name"] == "Uncle")
    assert (uncle["count"], uncle["cost"], uncle["points"]) == (2, "13", "26")
    assert uncle["points_text"] == "2 × 13 = 26"


def test_rulesets_without_points_show_no_points():
    for name in ("greedy-dudes", "narnia-patrol"):
        model = model_of(name)
        assert not model["has_points"]
        assert [t["name"] for t in model["totals"]] == ["fighters"]
        assert all(f["points"] is None for f in model["fighters"])


def test_traits_combine_class_fighter_and_equipment():
    menace = model_of("vaguely-defined-menace")["fighters"][0]
    assert [t["text"] for t in menace["traits"]] == ["Toughness(1)"]
    assert {s["name"]: s["value"] for s in menace["stats"]} == {"Training": "4", "Size": "Big"}
    patrol = {f["name"]: f for f in model_of("narnia-patrol")["fighters"]}
    # an Archer's class gives it a Bow, which grants Missile; Padding grants Absorption(1)
    assert [t["text"] for t in patrol["Archer"]["traits"]] == \
        ["Absorption(1)", "WeaponLength(1)", "Missile"]
    assert [e["name"] for e in patrol["Archer"]["equipment"]] == ["Bow", "Dagger", "Padding"]
    # absorption adds up (ChainMail 3 + Shield 2); weapon length is the longest (Lance 4)
    assert [t["text"] for t in patrol["Sir Edmund"]["traits"]] == \
        ["Absorption(5)", "WeaponLength(4)"]
    magician = {f["name"]: f for f in model_of("goblin-warren")["fighters"]}["Old Mother Moss"]
    assert "Spells(2)" in [t["text"] for t in magician["traits"]]


def test_model_is_plain_data():
    def check(value):
        if isinstance(value, dict):
            assert all(isinstance(k, str) for k in value)
            for v in value.values():
                check(v)
        elif isinstance(value, list):
            for v in value:
                check(v)
        else:
            assert value is None or type(value) in (str, int, bool), repr(value)
    for name in PINNED:
        check(model_of(name))


# ---- problems and unusable input ----------------------------------------------------------------

def test_invalid_warband_prints_its_roster_with_the_problems(tmp_path):
    path = tmp_path / "monsters.yaml"
    path.write_text(INVALID, encoding="utf-8")
    result = run(str(path), "--format", "markdown")
    assert result.exit_code == 1
    assert "| Big Two | 2 | Monster (rare) | 30 |" in result.stdout
    assert "**Invalid: 3 problems**" in result.stdout
    assert "3 fighters of rare classes (Big One, Big Two x2); at most 2 allowed" in result.stdout
    assert "the warband costs 105 points; at most 100 allowed" in result.stdout
    assert "**Points:** 105 / 100 (over the limit)" in result.stdout
    # and the compiler-style diagnostics, on standard error
    assert "error[E703]" in result.stderr and "^^^" in result.stderr


def test_warband_with_a_malformed_fighter_still_gets_a_roster():
    found = roster_text(INVALID.replace("might: 15", "might: lots"), "bad.yaml")
    assert found.usable and not found.valid
    # the malformed entry gets its card, marked with its problem, in the file's order: what
    # can be read of it is shown (its class), the broken value marked
    assert [f["name"] for f in found.model["fighters"]] == ["Big One", "Big Two", "Spotter"]
    assert any(p["code"] == "E622" for p in found.model["problems"])
    spotter = found.model["fighters"][2]
    assert not spotter["broken"] and not spotter["valid"] and spotter["unread"] == ["Might"]
    assert spotter["class"] == "Sniper" and spotter["stats"][0]["value"] == "?"
    assert [p["code"] for p in spotter["problems"]] == ["E622"]
    # an entry that is no mapping at all is the one card with nothing to read
    found = roster_text(INVALID + "  - [not, an, entry]\n", "bad.yaml")
    assert found.model["fighters"][-1]["broken"]
    assert [f["valid"] for f in found.model["fighters"][:2]] == [True, True]


TYPOS = """\
name: Typos
ruleset: super-simple-skirmish
points: 100
fighters:
  - name: Lieutenant
    class: Berserkr
    might: 20
  - name: Musketeer
    count: 4
    class: Soldier
    might: 10
  - name: Grenadier
    count: 2
    class: Gunslinger
    might: 20
    traits: [Fastt, Fast]
  - name: Sergeant
    class: Warrior
    might: lots
"""


def test_a_list_with_mistakes_counts_what_can_be_counted():
    """Issue 32, A9: an entry with a typo still counts for everything but the typo (its
    count, its stats, its cost), only the broken value is marked, and the problems carry
    validate's did-you-mean hints; an entry whose cost cannot be read makes the total "at
    least"."""
    found = roster_text(TYPOS, "typos.yaml")
    model = found.model
    cards = {f["name"]: f for f in model["fighters"]}
    lieutenant, grenadier, sergeant = cards["Lieutenant"], cards["Grenadier"], cards["Sergeant"]
    assert lieutenant["class"] == "Berserkr?" and lieutenant["unread"] == ["class"]
    assert lieutenant["stats"][0]["value"] == "20" and lieutenant["points"] == "20"
    assert grenadier["count"] == 2 and grenadier["points_text"] == "2 × 20 = 40"
    assert grenadier["class"] == "Gunslinger" and grenadier["tier"] == "special"
    assert [t["text"] for t in grenadier["traits"]] == ["Charge", "Ranged", "Fast", "Fastt?"]
    assert sergeant["stats"][0]["value"] == "?" and sergeant["points"] is None
    assert sergeant["class"] == "Warrior" and sergeant["unread"] == ["Might"]
    assert not any(card["valid"] for card in (lieutenant, grenadier, sergeant))
    totals = {t["name"]: t for t in model["totals"]}
    assert totals["points"]["text"] == "at least 100 / 100" and totals["points"]["ok"] is None
    assert totals["fighters"]["text"] == "8 / 16"
    hints = {p["message"]: p["hint"] for p in model["problems"]}
    assert hints["unknown class 'Berserkr'"] == "did you mean 'Berserker'?"
    assert hints["unknown trait 'Fastt'"] == "did you mean 'Fast'?"
    text = render_roster.render(model, "text", width=100)
    assert "= hint: did you mean 'Berserker'?" in text
    assert "points at least 100 / 100" in text
    # over the limit is certain even with an entry uncounted
    over = roster_text(TYPOS.replace("might: 10", "might: 30"), "typos.yaml").model
    assert next(t for t in over["totals"] if t["name"] == "points")["ok"] is False


def test_missing_file_exits_2_with_diagnostics():
    result = run("warbands/no-such-file.yaml")
    assert result.exit_code == 2
    assert result.stdout == ""
    assert "error[E100]: no such file: warbands/no-such-file.yaml" in result.stderr


def test_unknown_ruleset_exits_2(tmp_path):
    path = tmp_path / "w.yaml"
    path.write_text("name: W\nruleset: super-simple-skirmsh\nfighters:\n  - {name: A, class: "
                    "Soldier, might: 5}\n", encoding="utf-8")
    result = run(str(path))
    assert result.exit_code == 2
    assert "did you mean 'super-simple-skirmish'?" in result.stderr


def test_yaml_syntax_error_exits_2(tmp_path):
    path = tmp_path / "w.yaml"
    path.write_text("name: [unclosed\n", encoding="utf-8")
    result = run(str(path))
    assert result.exit_code == 2
    assert "error[E6" in result.stderr


# ---- writing files ------------------------------------------------------------------------------

def test_output_file_is_written(tmp_path):
    out = tmp_path / "family.md"
    result = run("warbands/the-family.yaml", "--format", "markdown", "-o", str(out))
    assert result.exit_code == 0, result.output
    assert result.stdout == ""
    assert out.read_text(encoding="utf-8") == (GOLDEN / "the-family.md").read_text(
        encoding="utf-8")
    assert leftovers(tmp_path) == []


def test_output_refuses_to_overwrite_without_force(tmp_path):
    out = tmp_path / "roster.html"
    out.write_text("mine", encoding="utf-8")
    result = run("warbands/the-family.yaml", "--format", "html", "-o", str(out))
    assert result.exit_code == 2
    assert f"{out} exists; use --force to replace it" in result.stderr
    assert out.read_text(encoding="utf-8") == "mine"
    assert leftovers(tmp_path) == []


def test_force_replaces_the_file(tmp_path):
    out = tmp_path / "roster.html"
    out.write_text("mine", encoding="utf-8")
    out.chmod(0o640)
    result = run("warbands/the-family.yaml", "--format", "html", "-o", str(out), "--force")
    assert result.exit_code == 0, result.output
    assert out.read_text(encoding="utf-8").startswith("<!DOCTYPE html>")
    assert (out.stat().st_mode & 0o777) == 0o640  # the file's permissions are kept
    assert leftovers(tmp_path) == []


def test_a_failing_render_leaves_the_original_untouched(tmp_path):
    out = tmp_path / "roster.md"
    out.write_text("mine", encoding="utf-8")
    broken = tmp_path / "broken.md.j2"
    broken.write_text("# {{ title }}\n{% for f in fighters %}{{ f.nickname }}{% endfor %}\n",
                      encoding="utf-8")
    result = run("warbands/the-family.yaml", "--format", "markdown", "--template", str(broken),
                 "-o", str(out), "--force")
    assert result.exit_code == 2
    assert "error[E661]: template error" in result.stderr and "nickname" in result.stderr
    assert out.read_text(encoding="utf-8") == "mine"
    assert leftovers(tmp_path) == []


def test_a_failing_write_leaves_the_original_and_no_temporary_file(tmp_path, monkeypatch):
    out = tmp_path / "roster.md"
    out.write_text("mine", encoding="utf-8")

    def disk_full(*args, **kwargs):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "fsync", disk_full)
    with pytest.raises(output.OutputError, match="No space left on device"):
        output.write_atomic(out, "new text", force=True)
    assert out.read_text(encoding="utf-8") == "mine"
    assert leftovers(tmp_path) == []


def test_write_atomic_never_overwrites_without_force(tmp_path):
    out = tmp_path / "a.txt"
    output.write_atomic(out, "one")
    with pytest.raises(output.OutputExists):
        output.write_atomic(out, "two")
    assert out.read_text(encoding="utf-8") == "one"
    output.write_atomic(out, "three", force=True)
    assert out.read_text(encoding="utf-8") == "three"
    assert leftovers(tmp_path) == []


# ---- templates ----------------------------------------------------------------------------------

def test_user_template(tmp_path):
    template = tmp_path / "short.txt.j2"
    template.write_text(
        "{{ title }} ({{ ruleset.id }})\n"
        "{% for f in fighters %}{{ f.name }} x{{ f.count }}: {{ f.points }}\n{% endfor %}"
        "{% for t in totals %}{{ t.name }} {{ t.text }}\n{% endfor %}", encoding="utf-8")
    result = run("warbands/clockwork-empire.yaml", "--template", str(template))
    assert result.exit_code == 0, result.output
    assert result.stdout == ("The Clockwork Empire (super-simple-skirmish)\n"
                             "Lieutenant x1: 20\nMusketeer x4: 40\nGrenadier x2: 40\n"
                             "points 100 / 100\nfighters 7 / 16\n")


def test_user_html_template_can_extend_the_built_in_one(tmp_path):
    template = tmp_path / "mine.html.j2"
    template.write_text('{% extends "warband/roster.html.j2" %}'
                        '{% block glossary %}<p>see the rulebook</p>{% endblock %}',
                        encoding="utf-8")
    result = run("warbands/the-family.yaml", "--format", "html", "--template", str(template))
    assert result.exit_code == 0, result.output
    assert "<p>see the rulebook</p>" in result.stdout
    assert "Rules used" not in result.stdout
    assert '<article class="card">' in result.stdout


def test_html_template_escapes_names(tmp_path):
    path = tmp_path / "w.yaml"
    path.write_text('name: "<b>Bold</b> & Co"\nruleset: super-simple-skirmish\nfighters:\n'
                    '  - {name: "A | B <i>", class: Soldier, might: 5}\n', encoding="utf-8")
    html = run(str(path), "--format", "html").stdout
    assert "&lt;b&gt;Bold&lt;/b&gt; &amp; Co" in html and "<i>" not in html
    markdown = run(str(path), "--format", "markdown").stdout
    assert "| A \\| B &lt;i&gt; |" in markdown and "<" not in markdown


def test_missing_template_exits_2():
    result = run("warbands/the-family.yaml", "--template", "no/such/template.j2")
    assert result.exit_code == 2
    assert "no such template: no/such/template.j2" in result.stderr


def test_template_syntax_error_names_the_line(tmp_path):
    template = tmp_path / "bad.md.j2"
    template.write_text("# {{ title }}\n{% for f in fighters %}\n", encoding="utf-8")
    result = run("warbands/the-family.yaml", "--template", str(template))
    assert result.exit_code == 2
    assert re.search(r"bad\.md\.j2:2:\d+: error\[E661\]: template syntax error", result.stderr)


# ---- HTML for paper, and PDF -----------------------------------------------------------------

def test_html_is_one_self_contained_file_that_prints():
    html = render_roster.render(model_of("the-family"), "html")
    assert "<link" not in html and "<script" not in html and "url(" not in html
    assert "http" not in html
    assert html.count('<article class="card">') == 7
    card_rule = re.search(r"\.card \{[^}]*\}", html).group(0)
    assert "break-inside: avoid" in card_rule
    assert re.search(r"@page \{ margin: \d+mm", html)


def _pages_of(html: str, css_class: str, size: str) -> dict:
    import weasyprint
    doc = weasyprint.HTML(string=html).render(
        stylesheets=[weasyprint.CSS(string=f"@page {{ size: {size}; }}")])
    where: dict = {}

    def walk(box, page):
        element = getattr(box, "element", None)
        if element is not None and css_class in (element.get("class") or "").split():
            where.setdefault(id(element), set()).add(page)
        for child in getattr(box, "children", None) or []:
            walk(child, page)

    for i, page in enumerate(doc.pages):
        walk(page._page_box, i)
    return where


@pytest.mark.skipif(not render_roster.pdf_available(), reason="WeasyPrint is not installed")
@pytest.mark.parametrize("size", ["A4", "letter"])
def test_printed_cards_never_split_across_pages(size):
    lines = ["name: A Long List", "ruleset: smart", "fighters:"]
    for i in range(36):
        lines += [f"  - name: Unit {i}", "    class: Knight", f"    xp: {6 * i}",
                  "    equipment: [Lance, Sword, ChainMail, Shield]",
                  f"    notes: {'a long note about this unit ' * (1 + i % 6)}"]
    html = render_roster.render(roster_text("\n".join(lines) + "\n", "long.yaml").model, "html")
    cards = _pages_of(html, "card", size)
    assert len(cards) == 36
    assert len(set().union(*cards.values())) > 1  # the list does take several pages
    assert all(len(pages) == 1 for pages in cards.values())
    entries = _pages_of(html, "entry", size)
    assert entries and all(len(pages) == 1 for pages in entries.values())


@pytest.mark.skipif(not render_roster.pdf_available(), reason="WeasyPrint is not installed")
def test_pdf_output(tmp_path):
    out = tmp_path / "family.pdf"
    result = run("warbands/the-family.yaml", "--format", "pdf", "-o", str(out))
    assert result.exit_code == 0, result.output
    assert out.read_bytes().startswith(b"%PDF-")
    assert leftovers(tmp_path) == []


def test_pdf_without_weasyprint_says_what_to_do(tmp_path, monkeypatch):
    import sys
    monkeypatch.setitem(sys.modules, "weasyprint", None)  # import fails as if not installed
    out = tmp_path / "family.pdf"
    result = run("warbands/the-family.yaml", "--format", "pdf", "-o", str(out))
    assert result.exit_code == 2
    assert "warband-toolkit[pdf]" in result.stderr and "browser" in result.stderr
    assert not out.exists() and leftovers(tmp_path) == []


def test_commands_doc_shows_what_roster_prints():
    import shlex
    text = (ROOT / "docs" / "commands.md").read_text(encoding="utf-8")
    sessions = re.findall(r"^```\n\$ (warband roster [^\n]*)\n(.*?)^```$", text,
                          re.MULTILINE | re.DOTALL)
    assert sessions
    for command, expected in sessions:
        result = run(*shlex.split(command)[2:])
        assert result.exit_code == 0, result.output
        shown = expected.removesuffix("...\n")
        assert result.stdout.startswith(shown) if shown != expected else \
            result.stdout == expected, command


def test_a_sheet_lists_at_most_a_hundred_problems_and_counts_the_rest(tmp_path):
    """A warband of 150 fighters each with an unknown trait (and over its size): the sheet
    lists 100 problems and says how many more (every format), as validate's report for people
    does."""
    from warband.cli import app
    fighters = "".join(f"  - {{name: F{i}, class: Soldier, traits: [Nope{i}]}}\n"
                       for i in range(150))
    path = tmp_path / "many.yaml"
    path.write_text("ruleset: super-simple-skirmish\nname: Many\nfighters:\n" + fighters)
    for fmt in ("text", "markdown", "html"):
        result = CliRunner().invoke(app, ["roster", str(path), "--format", fmt])
        assert result.exit_code == 1, result.output
        problems = int(re.search(r"(\d+) problems", result.stdout)[1])
        assert problems > 150   # (one or more a fighter)
        assert f"and {problems - 100} more (warband validate lists them all)" in \
            result.stdout, fmt
        # each problem at most twice: in the sheet's list and on its fighter's card
        assert result.stdout.count("E6") <= 2 * 100 + 2, fmt
        assert result.stdout.count("more problems (warband validate lists them all)") >= 40


# ---- what a card carries from the rules (issue 22, item 5) --------------------------------------

def card(model: dict, name: str) -> dict:
    return next(f for f in model["fighters"] if f["name"] == name)


def test_actions_are_decided_by_what_the_fighter_is():
    family = model_of("the-family")
    # SSS: shoot requires `attacker has Ranged`, defend `fighter has Defend`
    assert [a["name"] for a in card(family, "Momma")["actions"]] == \
        ["shoot", "melee", "move", "charge"]                           # Gunslinger: no Defend
    assert [a["name"] for a in card(family, "Bad Dog")["actions"]] == ["melee", "move", "charge"]
    defend = next(a for a in card(family, "Daddy")["actions"] if a["name"] == "defend")
    assert defend["when"] == "not fighter.Stunned"   # `fighter has Defend` decided, dropped
    # SMART: `archer has Missile`
    narnia = model_of("narnia-patrol")
    assert "shoot" in [a["name"] for a in card(narnia, "Archer")["actions"]]
    assert "shoot" not in [a["name"] for a in card(narnia, "Spearman")["actions"]]


ACTIVATED_RULES = '''ruleset "t"
stat Might: 1..10 default 3
tier human
tier monster
class Man { tier human }
class Troll { tier monster }
action hit(f: fighter) requires f is human { }
action bite(f: fighter) requires f is monster { }
action heal(f: fighter) "a step the rules take, never offered" { }
procedure turn(f: fighter) { activate f using hit, bite }
'''


def test_a_card_lists_the_actions_play_offers(tmp_path):
    """An action no `activate` offers is a step the rules take (SMART's take_damage, SAS's
    rank), not one a player picks: off the card. A tier in the requirement is decided."""
    (tmp_path / "t.rules").write_text(ACTIVATED_RULES, encoding="utf-8")
    path = tmp_path / "w.yaml"
    path.write_text("ruleset: t.rules\nname: W\nfighters:\n  - {name: Al, class: Man}\n"
                    "  - {name: Ug, class: Troll}\n", encoding="utf-8")
    found = roster(str(path))
    assert found.usable, found.diagnostics
    assert [(a["name"], a["when"]) for a in card(found.model, "Al")["actions"]] == [("hit", None)]
    assert [a["name"] for a in card(found.model, "Ug")["actions"]] == ["bite"]
    # an `activate` that offers every action: heal is one a player may pick
    (tmp_path / "t.rules").write_text(ACTIVATED_RULES.replace(" using hit, bite", ""),
                                      encoding="utf-8")
    found = roster(str(path))
    assert [a["name"] for a in card(found.model, "Al")["actions"]] == ["hit", "heal"]
    # the shipped games: bookkeeping steps are off their cards, what players pick is on
    narnia = model_of("narnia-patrol")
    names = {a["name"] for f in narnia["fighters"] for a in f["actions"]}
    assert "move" in names and not names & {"take_damage", "next_level", "initiative"}
    for warband in ("greedy-dudes", "dungeon-delvers"):
        names = {a["name"] for f in model_of(warband)["fighters"] for a in f["actions"]}
        assert "move" in names and not names & {"take_damage", "check_hand", "rank"}, warband


def test_an_action_taken_with_a_piece_names_the_pieces_that_allow_it():
    host = model_of("ashfall-ashen-host")
    actions = {a["name"]: a for a in card(host, "Sergeant Morrow")["actions"]}
    assert actions["shoot"]["pieces"] == ["Carbine", "Autogun"]
    assert actions["shoot"]["label"] == "shoot with Carbine or Autogun"
    assert "grenade" not in actions and "flame" not in actions   # no piece with Blast or Flame
    assert "w has" not in actions["shoot"]["when"]   # the piece's part is decided
    grey = {a["name"]: a for a in card(host, "Grey Squad")["actions"]}
    assert grey["grenade"]["pieces"] == ["Grenades"] and grey["shoot"]["pieces"] == ["Carbine"]


def test_tick_boxes_flags_counters_bounds_and_the_side():
    family = model_of("the-family")
    ticks = {t["name"]: t for t in card(family, "Momma")["ticks"]}
    assert (ticks["Stunned"]["kind"], ticks["Stunned"]["boxes"], ticks["Stunned"]["row"]) == \
        ("flag", 1, "☐")
    assert [t["name"] for t in family["side"]] == ["Fate", "Command", "Order", "InPlay"]
    assert family["side"][0]["boxes"] is None and family["side"][0]["row"] == "____"
    # Fogbound: `if f.Wounds >= f.Grit` bounds Wounds by the fighter's Grit
    eel = model_of("fogbound-eel-street")
    for f in eel["fighters"]:
        grit = int(next(s["value"] for s in f["stats"] if s["name"] == "Grit"))
        assert {t["name"]: t["boxes"] for t in f["ticks"]}["Wounds"] == grit
    # SMART: `unit.Wounds >= unit_level(unit)`, a definition of the (derived) level
    narnia = model_of("narnia-patrol")
    for f in narnia["fighters"]:
        level = int(next(s["value"] for s in f["stats"] if s["name"] == "Level"))
        boxes = {t["name"]: t["boxes"] for t in f["ticks"]}
        assert boxes["Wounds"] == level and boxes["Absorbed"] is None
        assert "SpellsCast" not in boxes   # bound by Spells, which none of them has
    # SAS: MovementUsed against the movement points of the fighter's size (a table)
    dudes = model_of("greedy-dudes")
    assert {t["name"]: t["boxes"] for t in dudes["fighters"][0]["ticks"]}["MovementUsed"] == 2


def test_units_get_a_row_of_wound_boxes_per_model():
    host = model_of("ashfall-ashen-host")
    veterans = card(host, "Cinder Veterans")["models"]
    assert (veterans["count"], veterans["wounds"]) == (3, 2)
    assert veterans["rows"] == ["☐ ☐"] * 3


def test_reference_tables_are_on_the_sheet_once_in_every_system():
    expected = {"the-family": ["attack_band"], "narnia-patrol": ["movement", "strike_order"],
                "greedy-dudes": ["movement_points", "training_name"],
                "fogbound-eel-street": ["fog"], "ashfall-ashen-host": []}
    for name, tables in expected.items():
        assert [t["name"] for t in model_of(name)["reference"]] == tables, name
    band = model_of("the-family")["reference"][0]
    assert band["columns"] == ["kill", "stun"] and band["params"] == "attacker, target"
    assert band["rows"][0] == {"key": "when attacker * 4 <= target", "values": ["18", "16"],
                               "doc": "a quarter of the target's or less"}
    fog = model_of("fogbound-eel-street")["reference"][0]
    assert [r["key"] for r in fog["rows"]] == ["1", "2..3", "4..5", "otherwise"]
    names = model_of("greedy-dudes")["reference"][1]["rows"][0]["values"]
    assert names == ["untrained rabble"]   # a text, not its quoted source
    for fmt in ("text", "markdown", "html"):
        out = run("warbands/the-family.yaml", "--format", fmt).stdout.replace("\\_", "_")
        assert out.count("attack_band(attacker, target)") == 1, fmt


def test_derived_stats_are_shown_and_marked():
    narnia = model_of("narnia-patrol")
    level = next(s for s in card(narnia, "Sir Edmund")["stats"] if s["name"] == "Level")
    assert (level["value"], level["derived"]) == ("3", True)     # XP 54
    assert next(s for s in narnia["stats"] if s["name"] == "Level")["derived"] == \
        "level_from_xp(f.XP) if f is human"
    goblin = card(model_of("goblin-warren"), "Goblin")
    assert not next(s for s in goblin["stats"] if s["name"] == "Level")["derived"]   # a monster


def test_a_piece_carried_twice_is_listed_once_with_its_count():
    text = ("ruleset: fogbound\nname: Twice\nfighters:\n"
            "  - {name: Brute, class: Bruiser, equipment: [Cudgel, Dagger, Dagger]}\n")
    found = roster_text(text, "twice.yaml")
    assert found.usable, found.diagnostics
    for f in found.model["fighters"]:
        names = [e["name"] for e in f["equipment"]]
        assert len(names) == len(set(names))
        assert len({w["name"] for w in f["weapons"]}) == len(f["weapons"])


@pytest.mark.parametrize("warband", WARBANDS)
def test_no_card_of_a_shipped_warband_lists_a_piece_twice(warband):
    for f in model_of(warband[:-5])["fighters"]:
        for key in ("equipment", "weapons", "actions", "ticks"):
            names = [item["name"] for item in f[key]]
            assert len(names) == len(set(names)), (f["name"], key, names)


def test_every_text_from_the_files_is_escaped_on_the_cards(tmp_path):
    hostile = '<b onmouseover="x">*[Bad]*</b>'
    text = INVALID.replace("Big One", hostile).replace("class: Sniper", f"class: '{hostile}'")
    path = tmp_path / "hostile.yaml"
    path.write_text(text, encoding="utf-8")
    html = run(str(path), "--format", "html").stdout
    assert "<b onmouseover" not in html and "&lt;b onmouseover=&#34;x&#34;&gt;" in html
    md = run(str(path), "--format", "markdown").stdout
    assert "<b " not in md and "&lt;b onmouseover=\"x\"&gt;\\*\\[Bad\\]\\*&lt;/b&gt;" in md


# ---- the `for reference` marker in the language -------------------------------------------------

def _compiled(text: str):
    from warband.lang.compiler import compile_text
    return compile_text(text, "t.rules")


REFERENCE_RULES = '''ruleset "t"
stat Might: 1..10
table band(a, b) -> (kill, stun) for reference "kill, then stun" {
  when a > b => 10, 8
  otherwise => 12, 10
}
table price(c: number) -> points { otherwise => 1 }
'''


def test_a_table_marked_for_reference():
    compiled = _compiled(REFERENCE_RULES)
    assert not compiled.errors, compiled.diagnostics
    tables = compiled.ruleset.tables
    assert tables["band"].reference and not tables["price"].reference
    assert tables["band"].doc == "kill, then stun"


def test_for_another_word_is_E311():
    compiled = _compiled(REFERENCE_RULES.replace("for reference", "for players"))
    assert [(d.code, d.span.line, d.span.column) for d in compiled.errors] == [("E311", 3, 38)]
    assert "for reference" in compiled.errors[0].hint


def test_reference_is_no_keyword():
    text = REFERENCE_RULES + 'define reference(x) = x + 1\n'
    assert not _compiled(text).errors


def test_rules_show_and_diff_name_the_marker(tmp_path):
    base, house = tmp_path / "base.rules", tmp_path / "house.rules"
    base.write_text(REFERENCE_RULES, encoding="utf-8")
    house.write_text(REFERENCE_RULES.replace(" for reference", ""), encoding="utf-8")
    shown = CliRunner().invoke(app, ["rules", "show", str(base)])
    assert "Table band(a, b) for reference" in shown.stdout
    as_json = CliRunner().invoke(app, ["rules", "show", str(base), "--format", "json"])
    assert '"reference": true' in as_json.stdout
    diff = CliRunner().invoke(app, ["rules", "diff", str(base), str(house)])
    assert "no longer for reference" in diff.stdout, diff.stdout


def test_a_table_for_reference_that_no_rule_calls_is_no_warning():
    # (one that players look up is there for them; an unmarked one no rule calls is W101)
    compiled = _compiled(REFERENCE_RULES)
    assert [d.message for d in compiled.diagnostics if d.code == "W101"] == \
        ["table 'price' is never used"]
