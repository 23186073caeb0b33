"""Campaigns that change the roster (docs/language.md, section 17): between games a warband's
fighters die (`remove` in the aftermath strikes them off), advance (a stat the aftermath sets),
buy and lose equipment (`give`, `take`), the warband hires fighters (`hire`) and keeps a purse
(`stat NAME on side`), and its army rules marked `founding` hold only until its first game.
`warband play --update` writes all of it into the warband file line by line.

A toy league of pit fighters plays a campaign of three games, each in a process of its own as a
user plays it; Fogbound's guilds (dsl/fogbound.rules, a shipped game) play one under a house
rule that keeps a treasury, buries the dead and hires.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

from warband.lang.compiler import compile_text
from warband.lists.validate import validate

ROOT = Path(__file__).resolve().parents[1]

RULES = '''\
ruleset "pit-league"
  title "A pit-fighting league: a stable's purse, deaths, advances, blades and hires"

stat Strength: 1..6 default 2 "dice in a brawl: one more for each advance"
stat Wins: 0..100 default 0 "foes put down over the stable's fights"
stat Crowns on side: 0..1000 default 20 "the stable's purse, kept between fights"
counter Downed on fighter "foes this fighter put down in this fight"
trait Armed "adds 1 to its roll in a brawl"
equipment Blade "a short blade" { grants Armed }
class Brawler "a fighter of the pits" { }

army "A stable" {
  cost(f) = 10 * f.Strength
  founding points 60   # a stable is founded with 60 crowns of fighters
  size at most 4 "at most four fighters to a stable"
}

action brawl(f: fighter, foe: fighter) -> bool "the higher roll puts the other down"
  requires foe.side != f.side
{
  if d6 + f.Strength + (if f has Armed then 1 else 0) > d6 + foe.Strength {
    set f.Downed += 1
    remove foe
    return true
  }
  return false
}
'''

NIGHT = '''\
ruleset "pit-league-night"
  title "A fight night of the pit league"
  extends "../dsl/league.rules"

scenario night "One fight night: what the stable wins, loses and buys lasts" {
  board 12 by 12 inches
  side home "The home stable" from "../warbands/stable.yaml"
  side guests "The visitors" { fighter "Visitor" count 3 { class Brawler } }
  zone west = edge west depth 2
  zone east = edge east depth 2
  setup { deploy home in west  deploy guests in east }
  round {
    for each f in home.fighters { activate f }
    for each f in guests.fighters { activate f }
  }
  rounds 3
  score home = total(1 for f in guests.casualties)
  score guests = total(1 for f in home.casualties)
  aftermath "the purse, the dead, the advances, then the market" {
    set home.Crowns += 10 * total(1 for f in guests.casualties)
    for each f in home.casualties {
      if d6 <= 2 {
        remove f   # dead of its wounds: struck off the stable's list
      }
    }
    for each f in home.fighters {
      set f.Wins += f.Downed
      if f.Downed >= 2 and f.Strength < 6 {
        set f.Strength += 1   # an advance
      }
    }
    for each f in home.fighters {
      if home.Crowns >= 15 and not f has Armed {
        set home.Crowns -= 15
        give Blade to f
      }
    }
    if home.Crowns >= 20 and total(1 for f in home.fighters) < 3 {
      set home.Crowns -= 20
      hire "Recruit" as Brawler for home
    }
  }
}
'''

STABLE = '''\
# The home stable, founded with 60 crowns.
name: The Home Stable
ruleset: ../dsl/league.rules
fighters:
    - name: Grub     # the old hand
      class: Brawler
      strength: 3
    - name: Lug
      class: Brawler
      notes: "big, slow"
'''


def league(tmp_path: Path, stable: str = STABLE, night: str = NIGHT) -> Path:
    for folder in ("dsl", "scenarios", "warbands"):
        (tmp_path / folder).mkdir(exist_ok=True)
    (tmp_path / "dsl" / "league.rules").write_text(RULES)
    (tmp_path / "scenarios" / "night.rules").write_text(night)
    (tmp_path / "warbands" / "stable.yaml").write_text(stable)
    return tmp_path / "warbands" / "stable.yaml"


def warband(tmp_path: Path, *args: str):
    env = {**os.environ, "PYTHONPATH": str(ROOT / "toolkit")}
    result = subprocess.run([sys.executable, "-m", "warband", *args], capture_output=True,
                            text=True, cwd=tmp_path, env=env, timeout=120, check=False)
    assert "Traceback" not in result.stderr, result.stderr
    return result


def play(tmp_path: Path, seed: str, *args: str, scenario: str = "scenarios/night.rules"):
    return warband(tmp_path, "play", scenario, "--seed", seed, "--update", *args)


# ---- a campaign of three games ---------------------------------------------------------------------

AFTER_FIRST = """\
# The home stable, founded with 60 crowns.
name: The Home Stable
ruleset: ../dsl/league.rules
games: 1
crowns: 0
fighters:
    - name: Grub     # the old hand
      class: Brawler
      strength: 3
      wins: 1
      equipment: [Blade]
    - name: Lug
      class: Brawler
      strength: 3
      wins: 2
      equipment: [Blade]
      notes: "big, slow"
    - name: Recruit
      class: Brawler
"""

AFTER_SECOND = """\
# The home stable, founded with 60 crowns.
name: The Home Stable
ruleset: ../dsl/league.rules
games: 2
crowns: 0
fighters:
    - name: Lug
      class: Brawler
      strength: 3
      wins: 2
      equipment: [Blade]
      notes: "big, slow"
    - name: Recruit
      class: Brawler
    - name: Recruit 2
      class: Brawler
"""

AFTER_THIRD = """\
# The home stable, founded with 60 crowns.
name: The Home Stable
ruleset: ../dsl/league.rules
games: 3
crowns: 15
fighters:
    - name: Lug
      class: Brawler
      strength: 4
      wins: 4
      equipment: [Blade]
      notes: "big, slow"
    - name: Recruit
      class: Brawler
      equipment: [Blade]
"""


def test_a_campaign_of_three_games_a_death_an_advance_purchases_and_hires(tmp_path):
    file = league(tmp_path)
    # game 1: Lug puts two down (an advance), both buy a blade, the purse hires a recruit; the
    # stable now costs 80 crowns, more than its founding 60: past its founding, it is valid
    first = play(tmp_path, "7")
    assert first.returncode == 0, first.stderr
    assert "Lug: Strength 2 -> 3 (+1)" in first.stdout
    assert "Grub is given Blade" in first.stdout
    assert "home hires Recruit (Brawler)" in first.stdout
    assert "+games: 1\n+crowns: 0\n" in first.stdout   # the diff, shown first
    assert file.read_text() == AFTER_FIRST   # line by line: the comments, the layout kept
    assert validate([str(file)]).diagnostics == []
    # game 2: Grub dies of his wounds (struck off, his lines gone); a second recruit is hired
    # under a name of its own
    second = play(tmp_path, "3")
    assert second.returncode == 0, second.stderr
    assert "Grub is no longer on its warband's list" in second.stdout
    assert file.read_text() == AFTER_SECOND
    # game 3: the second recruit dies; Lug advances again; the first recruit buys a blade
    third = play(tmp_path, "5")
    assert third.returncode == 0, third.stderr
    assert file.read_text() == AFTER_THIRD
    kept = sorted(p.name for p in file.with_suffix(".games").iterdir())
    assert kept == ["001-night-seed7.json", "001-night-seed7.yaml", "002-night-seed3.json",
                    "002-night-seed3.yaml", "003-night-seed5.json", "003-night-seed5.yaml"]
    assert (file.with_suffix(".games") / "003-night-seed5.yaml").read_text() == AFTER_SECOND
    # the purse the file keeps is the one the next game starts with
    fourth = warband(tmp_path, "play", "scenarios/night.rules", "--seed", "2", "--dry-run")
    assert fourth.returncode == 0 and "\n crowns: 15\n" in fourth.stdout   # (it bought nothing)


def test_a_founding_rule_holds_until_the_first_game(tmp_path):
    file = league(tmp_path, STABLE.replace("strength: 3", "strength: 5"))   # 70 crowns
    found = validate([str(file)]).diagnostics
    assert [d.code for d in found] == ["E701"]   # over the founding 60
    file.write_text(file.read_text().replace("fighters:", "games: 1\nfighters:"))
    assert validate([str(file)]).diagnostics == []
    # a rule without the mark holds after the founding too: five fighters are too many
    five = file.read_text() + "".join(f"    - name: Hand {n}\n      class: Brawler\n"
                                      for n in range(3))
    file.write_text(five)
    assert [d.code for d in validate([str(file)]).diagnostics] == ["E702"]


def aftermath(body: str) -> str:
    """The fight night with an aftermath of its own."""
    return NIGHT[:NIGHT.index("  aftermath")] + "  aftermath {\n" + body + "\n  }\n}\n"


def test_an_entry_of_several_fighters_counts_fewer_when_one_dies(tmp_path):
    twins = STABLE.replace("    - name: Lug\n      class: Brawler\n",
                           "    - name: Lug\n      class: Brawler\n      count: 3\n") \
        .replace("fighters:", "games: 1\nfighters:")   # (past its founding: 90 crowns)
    file = league(tmp_path, twins, aftermath("""
    for each f in home.fighters { if f.name == "Lug 2" { remove f } }
    for each f in home.casualties { if f.name == "Lug 2" { remove f } }"""))
    result = play(tmp_path, "1")
    assert result.returncode == 0, result.stderr
    assert "Lug 2 is no longer on its warband's list" in result.stdout
    assert "    - name: Lug\n      class: Brawler\n      count: 2\n" in file.read_text()
    result = play(tmp_path, "1")   # (now 'Lug 2' is the second of the two)
    assert result.returncode == 0, result.stderr
    assert "      count: 1\n" in file.read_text()
    result = play(tmp_path, "1")   # the last Lug is 'Lug': no one by that name dies
    assert "name: Lug\n" in file.read_text() and validate([str(file)]).diagnostics == []


def test_the_last_of_an_entry_struck_off_takes_its_lines_the_comments_around_stay(tmp_path):
    stable = STABLE.replace("    - name: Lug", "    # Lug came cheap\n    - name: Lug")
    file = league(tmp_path, stable, aftermath("""
    for each f in home.fighters { if f.name == "Grub" { remove f } }
    for each f in home.casualties { if f.name == "Grub" { remove f } }"""))
    assert play(tmp_path, "1").returncode == 0
    assert file.read_text() == stable.replace(
        "    - name: Grub     # the old hand\n      class: Brawler\n      strength: 3\n", "") \
        .replace("fighters:", "games: 1\nfighters:")


def test_equipment_taken_leaves_the_list_a_class_piece_cannot_be_taken(tmp_path):
    stable = STABLE.replace("      strength: 3\n", "      strength: 3\n      equipment:\n"
                                                    "        - Blade\n        - Blade\n")
    file = league(tmp_path, stable, aftermath("""
    for each f in home.fighters { take Blade from f  take Blade from f }
    for each f in home.casualties { take Blade from f  take Blade from f }"""))
    assert play(tmp_path, "1").returncode == 0
    assert "equipment" not in file.read_text()   # the key goes with its last piece
    rules = RULES.replace("class Brawler \"a fighter of the pits\" { }",
                          "class Brawler \"a fighter of the pits\" { equipment Blade }")
    (tmp_path / "dsl" / "league.rules").write_text(rules)
    result = play(tmp_path, "1")
    assert result.returncode == 2
    assert "error[E920]: the aftermath takes Blade from 'Grub', which carries it as its " \
           "class Brawler's own equipment" in result.stderr


def test_a_hire_the_warband_cannot_take_is_refused_with_its_errors(tmp_path):
    file = league(tmp_path, night=aftermath("""
    repeat 3 times { hire "Hand" as Brawler for home }"""))
    result = play(tmp_path, "1")   # five fighters: the stable takes four
    assert result.returncode == 2
    assert "error[E702]" in result.stderr and "error[E920]" in result.stderr
    assert file.read_text() == STABLE and not file.with_suffix(".games").exists()


def test_a_side_stat_the_warbands_ruleset_does_not_keep_is_refused(tmp_path):
    night = NIGHT.replace("scenario night", "stat Fame on side: 0..9 default 0\n\n"
                                            "scenario night", 1)
    file = league(tmp_path, night=night.replace("  aftermath \"the purse",
                                                "  aftermath \"the purse").replace(
        "set home.Crowns += 10", "set home.Fame += 1\n    set home.Crowns += 10"))
    result = play(tmp_path, "1")
    assert result.returncode == 2
    assert "error[E920]: the aftermath changes the side's Fame, which the warband's ruleset " \
           "'pit-league' does not keep" in result.stderr
    assert file.read_text() == STABLE


# ---- the checker ---------------------------------------------------------------------------------

def codes(text: str) -> list[tuple[str, int, int]]:
    found = compile_text(text, "campaign.rules").diagnostics
    return [(d.code, d.span.line, d.span.column) for d in found if d.code[0] == "E"]


def test_give_take_and_hire_stand_in_an_aftermath():
    text = RULES + """
procedure shop(f: fighter) { give Blade to f }
action loot(f: fighter) { take Blade from f  hire "Hand" as Brawler for f.side }
"""
    assert codes(text) == [("E341", 29, 30), ("E341", 30, 27), ("E341", 30, 46)]
    found = [d for d in compile_text(text, "campaign.rules").diagnostics if d.code == "E341"]
    assert "write `give EQUIPMENT to FIGHTER` in the scenario's `aftermath { ... }`" in \
        str(found[0].hint)


def test_campaign_statements_are_checked_like_any_other():
    text = RULES + NIGHT[NIGHT.index("scenario night"):].replace(
        "give Blade to f", "give Blad to home").replace(
        'hire "Recruit" as Brawler for home', 'hire "" as Brawlr for 3')
    found = compile_text(text, "campaign.rules").diagnostics
    shown = [(d.code, d.message) for d in found if d.code[0] == "E"]
    assert ("E201", "unknown equipment piece 'Blad'") in shown
    assert ("E302", "who is given it must be a fighter, not a side") in shown
    assert ("E341", "a hired fighter needs a name") in shown
    assert ("E201", "unknown class 'Brawlr'") in shown
    assert ("E302", "the side that hires must be a side, not a number") in shown


def test_a_side_stat_is_a_range_with_a_default_inside_it():
    assert codes(RULES.replace("default 20 \"the stable's purse", "default 2000 \"x")) == [
        ("E305", 6, 38)]
    assert codes(RULES.replace("Crowns on side: 0..1000", "Crowns on side: 9..1")) == [
        ("E305", 6, 1), ("E305", 6, 35)]
    assert codes(RULES.replace("Crowns on side: 0..1000", "Crowns on side: 0..d6"))[0][0] == \
        "E303"


def test_a_side_stat_is_not_named_as_a_key_of_the_file():
    assert codes(RULES.replace("stat Crowns on side", "stat Games on side")) == [
        ("E343", 6, 6)]


def test_founding_marks_a_limit_not_a_cost():
    text = RULES.replace("  cost(f) = 10 * f.Strength", "  founding cost(f) = 10 * f.Strength")
    assert codes(text) == [("E342", 13, 12)]
    assert codes(RULES.replace("size at most 4", "founding size at most 4")) == []


# ---- a shipped game: Fogbound's guilds under a house rule for campaigns --------------------------------

FOGBOUND_CAMPAIGN = '''\
ruleset "fogbound-campaign"
  title "Fogbound, a campaign: the guild's strongbox, its dead buried, knives hired"
  extends "fogbound"

stat Strongbox on side: 0..5000 default 0 "crowns the guild keeps between games"

override army {
  founding points 250   # the charter's 250 crowns found a guild; it grows past them
  founding quota trait Shooter at most 1/3 "at its founding, at most a third may shoot"
}
'''

MARKET_AFTERMATH = '''\
      set s.Strongbox += 5 * s.Shares
      for each f in s.casualties {
        if d6 == 1 {
          remove f   # dead of its wounds
        }
      }
      if s.Strongbox >= 10 {
        set s.Strongbox -= 10
        hire "Hired Knife" as Cutthroat for s equipment Dagger
      }
'''


def fogbound(tmp_path: Path) -> tuple[Path, Path]:
    for folder in ("dsl", "scenarios", "warbands"):
        (tmp_path / folder).mkdir(exist_ok=True)
    (tmp_path / "dsl" / "fogbound-campaign.rules").write_text(FOGBOUND_CAMPAIGN)
    market = (ROOT / "scenarios" / "fogbound-drowned-market.rules").read_text()
    end = market.index("      }\n    }\n  }\n}")   # (the aftermath's loop over the guilds)
    market = market[:end] + "      }\n" + MARKET_AFTERMATH + market[end + len("      }\n"):]
    market = market.replace('extends "fogbound"', 'extends "../dsl/fogbound-campaign.rules"')
    files = []
    for shipped, mine in (("fogbound-tallow-guild", "tallow"), ("fogbound-eel-street", "eels")):
        market = market.replace(f"../warbands/{shipped}.yaml", f"../warbands/{mine}.yaml")
        text = (ROOT / "warbands" / f"{shipped}.yaml").read_text()
        files.append(tmp_path / "warbands" / f"{mine}.yaml")
        files[-1].write_text(text.replace("ruleset: fogbound",
                                          "ruleset: ../dsl/fogbound-campaign.rules"))
    (tmp_path / "scenarios" / "market.rules").write_text(market)
    return files[0], files[1]


def test_fogbound_guilds_bury_their_dead_hire_knives_and_keep_a_strongbox(tmp_path):
    tallow, eels = fogbound(tmp_path)
    first = play(tmp_path, "19", scenario="scenarios/market.rules")
    assert first.returncode == 0, first.stderr
    assert "Quick Nell is no longer on its warband's list" in first.stdout
    assert "-  - name: Quick Nell\n-    class: Smuggler\n-    skill: 3\n-    equipment: [Dagger]\n" \
        in first.stdout   # her lines, no more
    assert "+  - name: Hired Knife\n+    class: Cutthroat\n+    equipment: [Dagger]\n" \
        in first.stdout
    assert "+games: 1\n+strongbox: 5\n" in first.stdout and "renown: 1" in tallow.read_text()
    second = play(tmp_path, "3", scenario="scenarios/market.rules")
    assert second.returncode == 0, second.stderr
    assert "-games: 1\n+games: 2\n" in second.stdout
    assert "name: Hired Knife 2\n" in tallow.read_text()   # (a name the guild had)
    for file in (tallow, eels):
        assert validate([str(file)]).diagnostics == []
        assert "# yaml-language-server" in file.read_text()   # the comments kept


def test_a_game_that_would_break_the_charter_is_refused(tmp_path):
    tallow, eels = fogbound(tmp_path)
    before = eels.read_text()
    result = play(tmp_path, "5", scenario="scenarios/market.rules")   # two of its own die
    assert result.returncode == 2
    assert "warbands/tallow.yaml (after the game):10:1: error[E706]: at least a third of the " \
           "crowns go on hired hands" in result.stderr   # (a rule of the charter's own)
    assert "error[E920]: side 'tallow': after this game warbands/tallow.yaml would not be a " \
           "valid warband; it is left as it is" in result.stderr
    assert eels.read_text() == before and "games" not in tallow.read_text()   # nothing written


def test_flow_entries_and_windows_line_ends_go_through_the_same_changes(tmp_path):
    death_and_hire = aftermath("""
    set home.Crowns += 7
    for each f in home.fighters { if f.name == "Grub" { remove f } }
    for each f in home.casualties { if f.name == "Grub" { remove f } }
    for each f in home.fighters { give Blade to f }
    for each f in home.casualties { give Blade to f }
    hire "Recruit" as Brawler for home equipment Blade""")
    flow = ("name: The Home Stable\nruleset: ../dsl/league.rules\nfighters:\n"
            "  - {name: Grub, class: Brawler, strength: 3}   # the old hand\n"
            "  - {name: Lug, class: Brawler}\n")
    windows = STABLE.replace("\n", "\r\n")
    for stable in (flow, windows):
        file = league(tmp_path, stable, death_and_hire)
        result = play(tmp_path, "1")
        assert result.returncode == 0, result.stderr
        text = file.read_bytes().decode()
        assert ("\r\n" in text) == (stable is windows)
        assert "Grub" not in text and text.count("Blade") == 2 and "crowns: 27" in text
        assert "games: 1" in text and validate([str(file)]).diagnostics == []
        shutil.rmtree(file.with_suffix(".games"))


# ---- a starting profile given once, the growth bounded by the class -------------------------------

HEROES = '''\
ruleset "heroes"
stat Strength: 1..6 default 2 "the starting profile, fixed by the class"
stat StrengthUp: 0..3 default 0 "advances rolled after games"
stat Might(f): 1..9 "the start and the advances" as f.Strength + f.StrengthUp
class Champion "starts at Strength 4, may grow by 2" {
  stat Strength = 4
  stat StrengthUp: 0..2 default 0
}
action strike(f: fighter, foe: fighter) -> bool requires foe.side != f.side {
  return d6 + f.Might > d6 + foe.Might
}

scenario duel {
  board 6 by 6 inches
  side home from "../warbands/heroes.yaml"
  side rival { fighter "Rival" { class Champion } }
  zone west = edge west depth 1
  zone east = edge east depth 1
  setup { deploy home in west  deploy rival in east }
  round { for each f in home.fighters { activate f } }
  rounds 1
  aftermath { for each f in home.fighters { set f.StrengthUp += 1 } }
}
'''


def test_an_advance_grows_from_the_class_profile_and_stops_at_its_bound(tmp_path):
    for folder in ("scenarios", "warbands"):
        (tmp_path / folder).mkdir()
    (tmp_path / "scenarios" / "duel.rules").write_text(HEROES)
    file = tmp_path / "warbands" / "heroes.yaml"
    file.write_text("name: Heroes\nruleset: ../scenarios/duel.rules\nfighters:\n"
                    "  - name: Ser Tam\n    class: Champion\n")
    for advances in (1, 2):   # the profile is the class's, the advances the file's
        result = play(tmp_path, "1", scenario="scenarios/duel.rules")
        assert result.returncode == 0, result.stderr
        assert f"strengthup: {advances}\n" in file.read_text()
        assert "strength:" not in file.read_text().replace("strengthup", "")
    third = play(tmp_path, "1", scenario="scenarios/duel.rules")   # a third: past the class
    assert third.returncode == 2 and "error[E920]" in third.stderr
    assert "strengthup: 2\n" in file.read_text()


def test_each_kind_of_limit_may_be_held_at_the_founding_only(tmp_path):
    rules = RULES.replace('''  founding points 60   # a stable is founded with 60 crowns of fighters
  size at most 4 "at most four fighters to a stable"''', '''  founding size at most 1 "founded by one fighter"
  cost crowns(f) = 5 * f.Strength
  founding limit crowns 10 "founded with 10 crowns"
  founding quota class Brawler at most 1 "one brawler to found it"
  founding require total(1 for f in fighters) == 1 "one fighter to found it"
  founding every f in fighters: f.Strength <= 2 "the founders are weak"
  founding at most 1 f in fighters where f.Strength == 3 "one strong founder at most"''')
    (tmp_path / "dsl").mkdir()
    (tmp_path / "dsl" / "league.rules").write_text(rules)
    file = tmp_path / "stable.yaml"
    file.write_text(STABLE.replace("../dsl/", "dsl/").replace("strength: 3", "strength: 3\n"
                                                               "    - name: Tim\n"
                                                               "      class: Brawler\n"
                                                               "      strength: 3"))
    founding = [d.code for d in validate([str(file)]).diagnostics]
    # crowns, size, the quota, and the rules of the author's own (`every`: once a fighter)
    assert sorted(founding) == ["E701", "E702", "E703"] + ["E706"] * 4, founding
    file.write_text(file.read_text().replace("fighters:", "games: 3\nfighters:"))
    assert validate([str(file)]).diagnostics == []
