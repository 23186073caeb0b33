"""Campaigns: `warband play --update` writes what a game's aftermath changed back into the
warband files (docs/language.md, section 17; docs/commands.md, `warband play`).

A small ruleset of another shape than SMART's experience (tests/test_scenario_smart.py covers
that): pit fighters win purses of gold (a number), take scars (an enum) and cannot change what
their class fixes. Each game runs in a process of its own, as a user's would: a campaign plays
the same scenario again with the files the last game changed.
"""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

RULES = '''\
ruleset "pit-fights"
  title "Pit fights: gold, scars and advances between fights"
  version "1"

enum Conditions "what a fighter carries from earlier fights" { Fit, Scarred, Lame }
stat Strength: 1..6 default 3 "dice in a brawl"
stat Condition: Conditions default Fit "a fighter taken out of a fight is scarred, then lame"
stat Purse: 0..1000 default 0 "gold crowns won in the pit"
stat Tough: 1..3 default 1 "how hard a fighter is to take out"

class Brawler "a fighter of the pits" { }
class Champion "the pit's champion" { stat Tough = 3 }

army "A stable of fighters" {
  cost(f) = f.Strength * 10
  points 150
}

action brawl(f: fighter, foe: fighter) -> bool "the higher roll puts the other down"
  requires foe.side != f.side
{
  if d6 + f.Strength > d6 + foe.Strength + foe.Tough {
    remove foe
    return true
  }
  return false
}
'''

SCENARIO = '''\
ruleset "pit-night"
  title "A night in the pit"
  extends "../dsl/pit.rules"
EXTRA
scenario night "One fight night: the winners' purses and the losers' scars last" {
  board 12 by 12 inches
  side home "The home stable" from "../warbands/stable.yaml"
  side guests "The visitors" {
    fighter "Visitor" count 2 { class Brawler  stat Strength = 1 }
  }
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
  aftermath "purses for the standing, scars for the fallen" {
    for each f in home.fighters {
      set f.Purse += 10
    }
    for each f in home.casualties {
      set f.Condition = if f.Condition == Fit then Scarred else Lame
    }
    for each f in guests.casualties {
      set f.Purse += 1
    }
    AFTER
  }
}
'''

STABLE = '''\
# The home stable.
name: The Home Stable
ruleset: ../dsl/pit.rules
fighters:
    - name: Grub     # the old hand
      class: Brawler
      strength: 4
      # he has won before
      purse: 30
      notes: "never bets"
    - name: Kid
      class: Brawler
      count: 2
      strength: 2
'''

# seed 1: every home fighter stands (the Kids alike); seed 2: one Kid falls (they differ)
ALIKE, DIFFER = "1", "2"


def pit(tmp_path: Path, stable: str = STABLE, extra: str = "", after: str = "") -> Path:
    for folder in ("dsl", "scenarios", "warbands"):
        (tmp_path / folder).mkdir(exist_ok=True)
    (tmp_path / "dsl" / "pit.rules").write_text(RULES)
    (tmp_path / "scenarios" / "pit.rules").write_text(
        SCENARIO.replace("EXTRA", extra).replace("AFTER", after))
    (tmp_path / "warbands" / "stable.yaml").write_text(stable)
    return tmp_path / "warbands" / "stable.yaml"


def warband(tmp_path: Path, *args: str):
    env = {**os.environ, "PYTHONPATH": str(ROOT / "toolkit")}
    result = subprocess.run([sys.executable, "-m", "warband", *args], capture_output=True,
                            text=True, cwd=tmp_path, env=env, timeout=120)
    assert "Traceback" not in result.stderr, result.stderr
    return result


def play(tmp_path: Path, *args: str, seed: str = ALIKE):
    return warband(tmp_path, "play", "scenarios/pit.rules", "--seed", seed, *args)


def played(text: str, games: int = 1) -> str:
    """A warband's text with its count of games played (`games:`, above `fighters:`)."""
    return text.replace("fighters:\n", f"games: {games}\nfighters:\n", 1)


EXPECTED_ALIKE = played(STABLE.replace("purse: 30", "purse: 40") + "      purse: 10\n")


# ---- the diff, the dry run, the update -------------------------------------------------------------

def test_dry_run_shows_the_diff_and_writes_nothing(tmp_path):
    file = pit(tmp_path)
    result = play(tmp_path, "--dry-run")
    assert result.returncode == 0, result.stderr
    assert "--- warbands/stable.yaml (before the game)\n" \
           "+++ warbands/stable.yaml (after the game)\n" in result.stdout
    assert "-      purse: 30\n+      purse: 40\n" in result.stdout
    assert "+      purse: 10\n" in result.stdout
    assert "nothing was written" in result.stderr
    assert file.read_text() == STABLE
    assert sorted(p.name for p in file.parent.iterdir()) == ["stable.yaml"]


def test_update_writes_only_the_changed_values_comments_and_layout_kept(tmp_path):
    file = pit(tmp_path)
    result = play(tmp_path, "--update")
    assert result.returncode == 0, result.stderr
    assert "-      purse: 30\n+      purse: 40\n" in result.stdout   # the diff, shown first
    assert file.read_text() == EXPECTED_ALIKE   # four-space lists, comments, quotes: as they were
    assert "updated warbands/stable.yaml; the game's record: " \
           "warbands/stable.games/001-pit-seed1.json" in result.stderr


def test_json_output_stays_json_and_the_diff_goes_to_standard_error(tmp_path):
    pit(tmp_path)
    result = play(tmp_path, "--dry-run", "--format", "json")
    assert result.returncode == 0
    record = json.loads(result.stdout)
    assert record["format"] and "+      purse: 40" in result.stderr


def test_an_entry_of_several_fighters_that_come_out_differently_is_split(tmp_path):
    file = pit(tmp_path)
    result = play(tmp_path, "--update", seed=DIFFER)
    assert result.returncode == 0, result.stderr
    assert "'Kid x2' is split into 2 entries" in result.stderr
    text = file.read_text()
    assert text == played(STABLE).replace("purse: 30", "purse: 40").replace(
        "    - name: Kid\n      class: Brawler\n      count: 2\n      strength: 2\n",
        "    - name: Kid 1\n      class: Brawler\n      strength: 2\n      purse: 10\n"
        "    - name: Kid 2\n      class: Brawler\n      strength: 2\n"
        "      condition: Scarred\n")   # the entry's lines copied: the layout as it was
    # the fighters the scenario writes changed too (their purses), but live in no file
    assert "Visitor 1: Purse 0 -> 1" in result.stdout
    assert "# the old hand" in text and "# he has won before" in text and "# The home stable." \
        in text
    check = warband(tmp_path, "validate", "warbands/stable.yaml")
    assert check.returncode == 0, check.stdout
    # the split warband plays the next game under the same names
    again = play(tmp_path, "--dry-run", seed=DIFFER)
    assert again.returncode == 0 and "Kid 1" in again.stdout


def test_an_entry_split_in_the_middle_of_the_list_keeps_the_comments_around_it(tmp_path):
    middle = STABLE.replace("    - name: Grub", "    - name: Kid\n      class: Brawler\n"
                                               "      count: 2   # twins\n      strength: 2\n"
                                               "    # the old hand below\n    - name: Grub", 1)
    middle = middle[:middle.rindex("    - name: Kid")]
    file = pit(tmp_path, middle)
    result = play(tmp_path, "--update", seed="3")   # (a seed where the Kids differ)
    assert result.returncode == 0, result.stderr
    text = file.read_text()
    assert text.count("      class: Brawler\n      strength: 2\n") == 2
    assert "    - name: Kid 1\n" in text and "    - name: Kid 2\n" in text
    assert "twins" not in text   # (the count's line, comment and all, is what a split drops)
    assert "      condition: Scarred\n    # the old hand below\n" \
           "    - name: Grub     # the old hand\n" in text   # the comment stays with Grub


def test_a_scenario_whose_sides_it_writes_itself_has_nothing_to_update(tmp_path):
    pit(tmp_path)
    path = tmp_path / "scenarios" / "pit.rules"
    path.write_text(path.read_text().replace(
        'side home "The home stable" from "../warbands/stable.yaml"',
        'side home { fighter "Local" { class Brawler } }'))
    result = play(tmp_path, "--update")
    assert result.returncode == 0, result.stderr
    assert "no warband file to update" in result.stderr
    assert not (tmp_path / "warbands" / "stable.games").exists()


def test_a_game_whose_aftermath_changes_no_file_fighter_writes_only_the_count(tmp_path):
    file = pit(tmp_path)
    path = tmp_path / "scenarios" / "pit.rules"
    path.write_text(path.read_text().replace("set f.Purse += 10", "set f.Purse += 0"))
    result = play(tmp_path, "--update")
    assert result.returncode == 0, result.stderr
    assert file.read_text() == played(STABLE)   # one game more played, nothing else
    assert play(tmp_path, "--update").returncode == 0
    assert file.read_text() == played(STABLE, 2)


# ---- the record kept beside the warband --------------------------------------------------------------

def test_each_game_is_kept_beside_the_warband_and_replays(tmp_path):
    file = pit(tmp_path)
    assert play(tmp_path, "--update").returncode == 0
    assert play(tmp_path, "--update", seed=DIFFER).returncode == 0
    kept = file.with_suffix(".games")
    assert sorted(p.name for p in kept.iterdir()) == [
        "001-pit-seed1.json", "001-pit-seed1.yaml", "002-pit-seed2.json", "002-pit-seed2.yaml"]
    assert (kept / "001-pit-seed1.yaml").read_text() == STABLE   # the warband as it was
    assert (kept / "002-pit-seed2.yaml").read_text() == EXPECTED_ALIKE
    record = json.loads((kept / "002-pit-seed2.json").read_text())
    assert record["seed"] == 2 and any(e["type"] == "change" for e in record["events"])
    # a record the update kept replays with the warband as it was before its game
    now = file.read_text()
    file.write_text((kept / "002-pit-seed2.yaml").read_text())
    replayed = warband(tmp_path, "play", "--replay", str(kept / "002-pit-seed2.json"))
    assert replayed.returncode == 0, replayed.stderr
    file.write_text(now)


def test_a_replay_neither_updates_nor_dry_runs(tmp_path):
    pit(tmp_path)
    assert play(tmp_path, "-o", "game.json").returncode == 0
    for option in ("--update", "--dry-run"):
        result = warband(tmp_path, "play", "--replay", "game.json", option)
        assert result.returncode == 2
        assert f"error[E901]: {option} cannot be used with --replay" in result.stderr


# ---- what cannot be written ---------------------------------------------------------------------------

def test_a_stat_the_class_fixes_is_refused_at_the_entry(tmp_path):
    file = pit(tmp_path, STABLE.replace("class: Brawler\n      strength: 4",
                                        "class: Champion\n      strength: 4"),
               after="for each f in home.fighters { set f.Tough = 2 }")
    result = play(tmp_path, "--update")
    assert result.returncode == 2
    assert "warbands/stable.yaml:5:7: error[E920]: the aftermath changes 'Grub''s Tough, " \
           "which its class Champion fixes" in result.stderr
    assert "Champion" in file.read_text() and "purse: 30" in file.read_text()
    assert not file.with_suffix(".games").exists()


def test_a_stat_only_the_scenario_declares_is_refused(tmp_path):
    file = pit(tmp_path, extra='stat Glory: 0..9 default 0 "fame in this town"\n',
               after="for each f in home.fighters { set f.Glory = 1 }")
    result = play(tmp_path, "--update")
    assert result.returncode == 2
    assert "error[E920]: the aftermath changes 'Grub''s Glory, which the warband's ruleset " \
           "'pit-fights' does not have" in result.stderr
    assert file.read_text() == STABLE


def test_a_warband_the_changes_would_make_invalid_is_left_as_it_is(tmp_path):
    file = pit(tmp_path, after="for each f in home.fighters { set f.Strength = 6 }")
    result = play(tmp_path, "--update")   # 6 x 10 x 3 fighters: over 150 points
    assert result.returncode == 2
    assert "warbands/stable.yaml (after the game)" in result.stderr
    assert "scenarios/pit.rules:7:3: error[E920]: side 'home': after this game " \
           "warbands/stable.yaml would not be a valid warband" in result.stderr
    assert file.read_text() == STABLE


def test_a_file_changed_since_the_game_began_is_refused(tmp_path, monkeypatch):
    """In one process: the scenario loaded, the game played, then an edit saved; and an edit
    saved between the plan and the write (the safe writer's check)."""
    monkeypatch.chdir(tmp_path)
    file = pit(tmp_path)
    from warband.cli.common import rewrite_output
    from warband.game.campaign import plan
    from warband.game.engine import Game
    from warband.game.scenario import load_scenario
    scenario = load_scenario("scenarios/pit.rules")
    assert not isinstance(scenario, list)
    game = Game(scenario, 1, record=True)
    game.play()
    file.write_text(STABLE.replace("strength: 4", "strength: 5"))
    refused = plan(scenario, "scenarios/pit.rules", game.aftermath)
    assert [d.code for d in refused.diagnostics] == ["E920"]
    assert "changed since the game began" in refused.diagnostics[0].message
    span = refused.diagnostics[0].span   # at the side that names the file
    assert span is not None and span.file.endswith("pit.rules") and span.line == 7
    file.write_text(STABLE)
    worked = plan(scenario, "scenarios/pit.rules", game.aftermath)
    assert not worked.diagnostics and len(worked.updates) == 1
    file.write_text(STABLE + "# an edit saved meanwhile\n")
    problem = rewrite_output(str(file), worked.updates[0].text, worked.updates[0].original,
                             force=False)
    assert problem is not None and problem.code == "E642" and "changed after it was read" \
        in problem.message
    assert file.read_text().endswith("# an edit saved meanwhile\n")


def test_two_sides_that_share_a_file_are_refused(tmp_path):
    file = pit(tmp_path)
    path = tmp_path / "scenarios" / "pit.rules"
    path.write_text(path.read_text().replace(
        'side guests "The visitors" {\n    fighter "Visitor" count 2 { class Brawler  stat '
        'Strength = 1 }\n  }', 'side guests from "../warbands/stable.yaml"').replace(
        "for each f in guests.casualties {\n      set f.Purse += 1\n    }",
        "for each f in guests.fighters { set f.Purse += 1 }"))
    result = play(tmp_path, "--update")
    assert result.returncode == 2 and "scenarios/pit.rules:8:3: error[E920]: sides 'home' " \
        "and 'guests' both play warbands/stable.yaml" in result.stderr
    assert file.read_text() == STABLE


# ---- the safe write -------------------------------------------------------------------------------------

def test_a_link_stays_a_link_and_the_mode_is_kept(tmp_path):
    pit(tmp_path)
    (tmp_path / "elsewhere").mkdir()
    real = tmp_path / "elsewhere" / "stable.yaml"   # (its ruleset: relative to the link)
    real.write_text(STABLE)
    real.chmod(0o640)
    link = tmp_path / "warbands" / "stable.yaml"
    link.unlink()
    link.symlink_to(real)
    result = play(tmp_path, "--update")
    assert result.returncode == 0, result.stderr
    assert link.is_symlink() and "purse: 40" in real.read_text()
    assert stat.S_IMODE(real.stat().st_mode) == 0o640


@pytest.mark.skipif(hasattr(os, "geteuid") and os.geteuid() == 0, reason="root writes anyway")
def test_a_read_only_warband_is_left_as_it_is_and_no_record_kept(tmp_path):
    file = pit(tmp_path)
    file.chmod(0o444)
    result = play(tmp_path, "--update")
    assert result.returncode == 2 and "error[E642]" in result.stderr and "read-only" \
        in result.stderr
    assert file.read_text() == STABLE
    assert not file.with_suffix(".games").exists()   # (issue 33: it was left, empty)


def test_windows_line_ends_and_flow_entries_are_kept(tmp_path):
    flow = STABLE.replace("    - name: Kid\n      class: Brawler\n      count: 2\n"
                          "      strength: 2\n", "    - {name: Kid, class: Brawler, count: 2, "
                                                  "strength: 2}\n")
    file = pit(tmp_path, flow.replace("\n", "\r\n"))
    result = play(tmp_path, "--update")
    assert result.returncode == 0, result.stderr
    raw = file.read_bytes().decode()
    assert "\r\n" in raw and "\n" not in raw.replace("\r\n", "")
    assert "purse: 40" in raw and "purse: 10" in raw and "# the old hand" in raw


def test_a_warband_with_other_names_is_left_as_it_is_and_no_record_kept(tmp_path):
    """A file with hard links is not replaced (that would split its names): refused, as `fmt`
    refuses it, and the record of the game not written goes too."""
    file = pit(tmp_path)
    os.link(file, tmp_path / "other-name.yaml")
    result = play(tmp_path, "--update")
    assert result.returncode == 2 and "error[E642]" in result.stderr and "hard links" \
        in result.stderr
    assert file.read_text() == STABLE and "purse: 30" in result.stdout   # the diff was shown
    assert not file.with_suffix(".games").exists()


def test_a_kept_game_whose_changes_alter_play_replays_only_with_its_warband(tmp_path):
    """Strength decides brawls: after the update the kept record no longer fits the warband
    (E917, and the hint says why and what to do); with the warband kept beside it, it replays."""
    file = pit(tmp_path, after="for each f in home.fighters { set f.Strength += 1 }")
    assert play(tmp_path, "--update").returncode == 0
    kept = file.with_suffix(".games")
    replayed = warband(tmp_path, "play", "--replay", str(kept / "001-pit-seed1.json"))
    assert replayed.returncode == 1 and "error[E917]" in replayed.stderr
    assert "this game was kept by --update, which changed stable.yaml after it" \
        in " ".join(replayed.stderr.split())
    file.write_text((kept / "001-pit-seed1.yaml").read_text())
    again = warband(tmp_path, "play", "--replay", str(kept / "001-pit-seed1.json"))
    assert again.returncode == 0, again.stderr


def test_update_writes_to_the_file_a_side_was_played_with(tmp_path):
    """`--side NAME=FILE` and `--update` together: the changes go to the player's own file,
    never to the scenario's (which the game did not use)."""
    file = pit(tmp_path)
    mine = tmp_path / "warbands" / "mine.yaml"   # (its `ruleset:` is relative to the folder)
    mine.write_text(STABLE)
    side = next(line.split()[1] for line in SCENARIO.splitlines()
                if line.strip().startswith("side ") and "from" in line)
    result = play(tmp_path, "--side", f"{side}=warbands/mine.yaml", "--update")
    assert result.returncode == 0, result.stderr
    assert mine.read_text() == EXPECTED_ALIKE
    assert file.read_text() == STABLE
    assert (tmp_path / "warbands" / "mine.games").is_dir()


def test_two_games_of_a_campaign_in_one_process_each_play_the_file_as_it_is(tmp_path,
                                                                             monkeypatch):
    """Found writing the Fogbound example: the engine kept each scenario's forces per process,
    keyed by the scenario alone, so a second `play --update` in the same process (a library
    caller's, a test's) played the warband as the first game read it and then refused it as
    changed since the game began (E920)."""
    from typer.testing import CliRunner

    from warband.cli import app
    file = pit(tmp_path)
    monkeypatch.chdir(tmp_path)
    for purse in ("40", "50"):
        result = CliRunner().invoke(app, ["play", "scenarios/pit.rules", "--seed", ALIKE,
                                          "--update"])
        assert result.exit_code == 0, result.output
        assert f"purse: {purse}\n" in file.read_text()


def test_a_scenario_file_edited_between_two_games_of_one_process_is_read_again(tmp_path,
                                                                              monkeypatch):
    """The worker keeps a loaded scenario per process while its files stay as they were: the
    scenario's own .rules file counts (it was not stamped, so an edited scenario played as the
    first game read it), and a load that began before a file's last write is not kept."""
    import os

    import warband.game.worker as worker
    from warband.game.results import PlayRequest
    pit(tmp_path)
    scenario = tmp_path / "scenarios" / "pit.rules"
    monkeypatch.chdir(tmp_path)
    request = PlayRequest(str(scenario), ())
    old = os.stat(scenario).st_mtime_ns - 10**10
    for path in tmp_path.rglob("*"):
        os.utime(path, ns=(old, old))
    kept = worker.loaded(request)
    assert worker.loaded(request) is kept                  # unchanged files: kept
    scenario.write_text(scenario.read_text() + "\n# an edit\n")
    assert worker.loaded(request) is not kept              # the scenario's own file changed
    real = worker.load_scenario

    def written_meanwhile(*args):
        found = real(*args)
        scenario.write_text(scenario.read_text() + "# another\n")   # saved during the load
        return found
    monkeypatch.setattr(worker, "load_scenario", written_meanwhile)
    for path in tmp_path.rglob("*"):
        os.utime(path, ns=(old, old))
    now = worker.loaded(request)
    monkeypatch.setattr(worker, "load_scenario", real)
    # the stamps taken after that load match the file, but the load may have read it half old
    assert worker.loaded(request) is not now


# ---- issue 33, items 12 and 13: the installation, and what an update leaves behind ---------------

def test_a_shipped_scenarios_warband_is_never_rewritten(tmp_path):
    """`play smart-dungeon --update`, the shipped scenario by id as the docs show, rewrote
    `site-packages/warband/warbands/dungeon-delvers.yaml` and made a `.games/` folder there,
    naming it `warbands/dungeon-delvers.yaml` as if it were the user's. Shipped files are
    read-only: E920, and how to play the side with a copy."""
    shipped = ROOT / "warbands" / "dungeon-delvers.yaml"
    before = shipped.read_bytes()
    try:
        result = warband(tmp_path, "play", "smart-dungeon", "--seed", "2", "--update")
        assert result.returncode == 2
        assert "error[E920]: side 'party' plays warbands/dungeon-delvers.yaml, a warband " \
               "shipped with the toolkit: --update does not change the toolkit's own files" \
               in result.stderr
        assert "--side party=my-dungeon-delvers.yaml --update" in result.stderr
        dry = warband(tmp_path, "play", "smart-dungeon", "--seed", "2", "--dry-run")
        assert dry.returncode == 0 and "+    xp: " in dry.stdout
        assert "is shipped with the toolkit: --update would not change it" in dry.stderr
    finally:   # (should the refusal fail, the checkout's own file is put back)
        if shipped.read_bytes() != before:
            shipped.write_bytes(before)
            pytest.fail("--update rewrote the shipped warband")
    assert not shipped.with_suffix(".games").exists()


def test_a_planted_games_link_is_not_followed(tmp_path):
    file = pit(tmp_path)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    file.with_suffix(".games").symlink_to(elsewhere)
    result = play(tmp_path, "--update")
    assert result.returncode == 2
    assert "error[E642]: cannot keep the game's record in warbands/stable.games: it is a " \
           "link" in result.stderr
    assert list(elsewhere.iterdir()) == [] and file.read_text() == STABLE


def in_process(tmp_path: Path, monkeypatch, *args: str):
    from typer.testing import CliRunner

    from warband.cli import app
    monkeypatch.chdir(tmp_path)
    return CliRunner().invoke(app, ["play", "scenarios/pit.rules", "--seed", ALIKE, *args])


def test_sigterm_while_the_warband_is_written_leaves_no_record(tmp_path, monkeypatch):
    """SIGTERM during the rewrite left the game's record in .games/ for changes never
    written."""
    from warband.cli import common
    from warband.cli import play as play_module
    file = pit(tmp_path)

    def terminated(*args, **kwargs):
        raise common.Terminated()
    monkeypatch.setattr(play_module, "rewrite_output", terminated)
    with pytest.raises(common.Terminated):   # (main turns it into exit 143: test_signals.py)
        in_process(tmp_path, monkeypatch, "--update")
    assert file.read_text() == STABLE and not file.with_suffix(".games").exists()


def test_a_full_disk_is_said_once_and_leaves_nothing(tmp_path, monkeypatch):
    """On a full disk all 20 numbers were tried, and the error named 020-...json in an empty
    folder."""
    from warband.cli import play as play_module
    from warband.diagnostics import diag
    file = pit(tmp_path)
    tried = []

    def full(path, *args, **kwargs):
        tried.append(path)
        return diag("E642", f"cannot write {path}: No space left on device", None)
    monkeypatch.setattr(play_module, "write_output", full)
    result = in_process(tmp_path, monkeypatch, "--update")
    assert result.exit_code == 2
    assert len(tried) == 1 and "001-pit-seed1.json: No space left" in result.stderr
    assert file.read_text() == STABLE and not file.with_suffix(".games").exists()


def test_a_merge_key_is_explained_not_called_a_bug(tmp_path):
    """An entry that takes its values from another (`<<: *bors`) was "a toolkit bug": Sergeant
    Wat takes his XP from Sir Bors, whose XP the game changes and Wat's not."""
    text = (ROOT / "warbands" / "dungeon-delvers.yaml").read_text()
    merged = text.replace("  - name: Sir Bors\n", "  - &bors\n    name: Sir Bors\n").replace(
        "  - name: Sergeant Wat\n    class: Infantry\n    xp: 30\n",
        "  - <<: *bors\n    name: Sergeant Wat\n")
    assert merged.count("<<: *bors") == 1
    (tmp_path / "party.yaml").write_text(merged)
    assert warband(tmp_path, "validate", "party.yaml").returncode == 0
    result = warband(tmp_path, "play", "smart-dungeon", "--seed", "1", "--side",
                     "party=party.yaml", "--update")
    assert result.returncode == 2, result.stderr
    assert "party.yaml:14:5: error[E920]: party.yaml cannot be updated: an entry takes its " \
           "values from another with a merge key ('<<:')" in result.stderr
    assert "toolkit bug" not in result.stderr and "write the entry out in full" in result.stderr
    assert (tmp_path / "party.yaml").read_text() == merged
    assert not (tmp_path / "party.games").exists()
