"""`warband odds --plot`, `--format html` and `--sweep` (issue 22, item 4): odds you can see.

The charts are checked against the numbers they draw (the SVG is parsed: each bar's length and
note against the text output's percent), a sweep against the same odds run value by value (a
sweep is nothing but the odds of each value alone), on Super Simple Skirmish, SMART and Swords
Against Sorcery; the errors are a golden file; every name from a file is escaped.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import xml.etree.ElementTree as ET
from fractions import Fraction
from pathlib import Path

import pytest
from typer.testing import CliRunner

from warband import charts
from warband.cli import app

from headless import chromium, needs_chromium, screenshot

ROOT = Path(__file__).resolve().parents[1]
GOLDEN = ROOT / "tests" / "cli_golden"
SVG = "{http://www.w3.org/2000/svg}"

SSS = ["super-simple-skirmish", "--attacker", "class=Soldier might=10",
       "--target", "class=Gunslinger might=25", "--action", "shoot"]
SAS = ["swords-against-sorcery", "--attacker", "training=3 size=Medium",
       "--target", "training=4 size=Big toughness=1", "--action", "exchange",
       "--policy", "a_hand=2,1,0"]
SMART = ["smart", "-a", "class=Knight xp=54 equipment=Plate,Shield", "-t", "class=Goblin",
         "--action", "blow"]
SMART_SHOOT = ["smart", "-a", "class=Archer", "-t", "class=Goblin", "--action", "shoot",
               "--with", "terrain=yes"]


def odds(*args: str, code: int = 0):
    result = CliRunner().invoke(app, ["odds", *args])
    assert result.exit_code == code, result.output
    return result


def percents(text: str) -> dict[str, float]:
    """The outcome table of the text output: outcome -> percent."""
    found = {}
    for line in text.splitlines()[1:]:
        if not line.strip():
            break
        name, _, percent = line.split()
        found[name] = float(percent.rstrip("%"))
    return found


def bars_of(svg: str, panel: str) -> dict[str, tuple[float, str]]:
    """A bars panel of a sheet: label -> (the bar's length as a share of the axis, its note).
    The SVG must be well-formed XML (anything unescaped would break it)."""
    root = ET.fromstring(svg)
    group = next(g for g in root.iter(f"{SVG}g") if g.get("id") == f"panel-{panel}")
    lines = [float(line.get("x1")) for line in group.iter(f"{SVG}line")]
    left, right = min(lines), max(lines)
    found = {}
    for rect in group.iter(f"{SVG}rect"):
        label, _, note = rect.find(f"{SVG}title").text.partition(": ")
        found[label] = (float(rect.get("width")) / (right - left), note)
    return found


# ---- one odds as bars ----------------------------------------------------------------------------

@pytest.mark.parametrize("args", [SSS, SAS, SMART], ids=["sss", "sas", "smart"])
def test_the_bars_agree_with_the_text_output(args, tmp_path):
    shown = percents(odds(*args).stdout)
    plot = tmp_path / "odds.svg"
    result = odds(*args, "--plot", str(plot))
    assert percents(result.stdout) == shown    # the report still goes to standard output
    drawn = bars_of(plot.read_text(encoding="utf-8"), "outcomes")
    assert list(drawn) == list(shown)           # one bar per outcome, in the rules' order
    for outcome, percent in shown.items():
        share, note = drawn[outcome]
        assert share * 100 == pytest.approx(percent, abs=0.05)   # (a tenth of a pixel)
        assert note.startswith(f"{percent:.2f}% (")


def test_each_effect_gets_a_panel_of_its_values(tmp_path):
    plot = tmp_path / "odds.svg"
    data = json.loads(odds(*SSS, "--format", "json").stdout)
    odds(*SSS, "--plot", str(plot))
    svg = plot.read_text(encoding="utf-8")
    for n, (label, values) in enumerate(data["effects"].items(), start=1):
        drawn = bars_of(svg, f"effect-{n}")
        assert {v: note.split("(")[1].rstrip(")") for v, (_, note) in drawn.items()} == values
        assert label in svg


def test_the_plot_of_one_odds_is_a_golden_file(tmp_path, golden):
    plot = tmp_path / "odds.svg"
    odds(*SSS, "--plot", str(plot))
    golden(GOLDEN / "odds_plot.svg", plot.read_text(encoding="utf-8"))


# ---- the page ------------------------------------------------------------------------------------

@pytest.mark.parametrize("args", [SSS, SAS], ids=["sss", "sas"])
def test_the_page_holds_the_text_outputs_numbers_and_the_charts(args):
    data = json.loads(odds(*args, "--format", "json").stdout)
    page = odds(*args, "--format", "html").stdout
    assert page.startswith("<!DOCTYPE html>") and page.endswith("</html>\n")
    for outcome, fraction in data["outcomes"].items():
        assert f"<td>{outcome}</td><td>{fraction}</td>" in page
    assert 'id="chart-outcomes"' in page
    assert page.count('id="chart-effect-') == len(data["effects"])
    # offline: nothing fetched, nothing run
    assert "<script" not in page and "http://" not in page.replace(
        'xmlns="http://www.w3.org/2000/svg"', "") and "https://" not in page


def test_the_page_and_the_plot_go_to_files(tmp_path):
    page, plot = tmp_path / "odds.html", tmp_path / "odds.svg"
    result = odds(*SSS, "--format", "html", "-o", str(page), "--plot", str(plot))
    assert result.stdout == ""
    assert 'id="chart-outcomes"' in page.read_text(encoding="utf-8")
    assert ET.fromstring(plot.read_text(encoding="utf-8")) is not None
    # the text report to a file is the text output, without colour
    text = tmp_path / "odds.txt"
    odds(*SSS, "-o", str(text))
    assert percents(text.read_text(encoding="utf-8")) == percents(odds(*SSS).stdout)
    assert "\x1b[" not in text.read_text(encoding="utf-8")


# ---- sweeps: the same as each value alone --------------------------------------------------------

def _alone(args: list[str], option: str, old: str, new: str) -> dict:
    """The JSON odds with one option's text replaced (a stat's key=value in --attacker, ...)."""
    changed = list(args)
    i = changed.index(option) + 1
    changed[i] = changed[i].replace(old, new) if old in changed[i] else changed[i] + " " + new
    return json.loads(odds(*changed, "--format", "json").stdout)["outcomes"]


@pytest.mark.parametrize("args, sweep, option, old, key", [
    (SSS, "might=5..12", "--attacker", "might=10", "might"),
    (SSS, "target.might=20..30", "--target", "might=25", "might"),
    (SAS, "target.training=1..8", "--target", "training=4", "training"),
    (SAS, "attacker.training=3..6", "--attacker", "training=3", "training"),
    (SMART, "target.level=1..4", "--target", "", "level"),
    (["fogbound", "-a", "class=Guildmaster", "-t", "class=Duelist", "--action", "fight"],
     "target.skill=3..5", "--target", "", "skill"),
    (SAS, "attacker.strength=0..3", "--attacker", "", "strength"),   # a trait with a number
    (SAS, "target.toughness=0..3", "--target", "toughness=1", "toughness"),
], ids=["sss-attacker", "sss-target", "sas-target", "sas-attacker", "smart-target",
        "fogbound-target", "sas-trait", "sas-trait-given"])
def test_a_stat_sweep_is_the_odds_of_each_value_alone(args, sweep, option, old, key):
    option = {"--attacker": "-a", "--target": "-t"}[option] if "-a" in args else option
    rows = json.loads(odds(*args, "--sweep", sweep, "--format", "json").stdout)["values"]
    low, high = map(int, sweep.partition("=")[2].split(".."))
    assert [row["value"] for row in rows] == list(range(low, high + 1))
    for row in rows:
        alone = _alone(args, option, old or "\0", f"{key}={row['value']}")
        assert row["distribution"] == alone, row["value"]


@pytest.mark.parametrize("args, sweep, name", [
    (SMART_SHOOT, "distance=0..30", "distance"),
    (["smart", "-a", "class=Knight xp=54 equipment=Plate,Shield absorbed=6", "--action",
      "take_damage"], "damage=0..8", "damage"),
], ids=["smart-distance", "smart-damage"])
def test_a_parameter_sweep_is_the_odds_of_each_with(args, sweep, name):
    rows = json.loads(odds(*args, "--sweep", sweep, "--format", "json").stdout)["values"]
    for row in rows[::3]:
        alone = json.loads(odds(*args, "--with", f"{name}={row['value']}", "--format",
                                "json").stdout)
        assert row["distribution"] == alone["outcomes"], row["value"]


def test_the_sweep_replaces_a_with_of_the_same_parameter():
    swept = json.loads(odds(*SMART_SHOOT, "--with", "distance=50", "--sweep", "distance=3..4",
                            "--format", "json").stdout)
    alone = json.loads(odds(*SMART_SHOOT, "--sweep", "distance=3..4", "--format", "json").stdout)
    assert swept["values"] == alone["values"]


def test_the_sweep_table_has_a_row_per_value_and_the_json_shape():
    rows = json.loads(odds(*SAS, "--sweep", "target.training=1..8", "--format",
                           "json").stdout)["values"]
    for row in rows:
        assert set(row) == {"value", "distribution", "percent", "effects"}
        assert sum(Fraction(p) for p in row["distribution"].values()) == 1
        assert list(row["percent"]) == list(row["distribution"])
    text = odds(*SAS, "--sweep", "target.training=1..8").stdout.splitlines()
    head = text[0].split()
    assert head == ["target.Training", *rows[0]["distribution"]]
    assert len(text) == 1 + len(rows)
    for line, row in zip(text[1:], rows):
        value, *cells = line.split()
        assert int(value) == row["value"]
        assert [float(c.rstrip("%")) for c in cells] == pytest.approx(
            [float(Fraction(p)) * 100 for p in row["distribution"].values()], abs=0.0051)


def test_a_sweep_of_an_action_with_no_result_shows_what_it_changes(tmp_path):
    args = ["super-simple-skirmish", "-a", "class=Warrior might=10", "--action", "defend"]
    rows = json.loads(odds(*args, "--sweep", "might=1..3", "--format", "json").stdout)[
        "values"]
    assert [(r["distribution"], r["effects"]) for r in rows] == \
        [(None, {"fighter.Defending": {"yes": "1"}})] * 3
    text = odds(*args, "--sweep", "might=1..3").stdout.splitlines()
    assert text[0].split() == ["attacker.Might", "fighter.Defending=yes"]
    plot = tmp_path / "defend.svg"
    odds(*args, "--sweep", "might=1..3", "--plot", str(plot))
    assert "<title>fighter.Defending=yes</title>" in plot.read_text(encoding="utf-8")


@pytest.mark.parametrize("args, sweep", [
    (["super-simple-skirmish", "-a", "class=Beast might=10", "--action", "move"], "might=1..2"),
    (["smart", "-a", "class=Knight", "--action", "move"], "xp=0..2"),
], ids=["sss", "smart"])
def test_a_sweep_of_a_number_result_gives_its_expected_value(args, sweep):
    rows = json.loads(odds(*args, "--sweep", sweep, "--format", "json").stdout)["values"]
    low = sweep.partition("=")[2].split("..")[0]
    key = sweep.partition("=")[0]
    alone = json.loads(odds(*(args[:2] + [args[2] + f" {key}={low}"] + args[3:]),
                            "--format", "json").stdout)
    assert rows[0]["expected"] == alone["expected"]
    assert list(rows[0]["distribution"]) == sorted(rows[0]["distribution"], key=int)
    text = odds(*args, "--sweep", sweep).stdout.splitlines()
    assert text[0].split()[-1] == "expected"
    assert text[1].split()[-1] == f"{float(Fraction(alone['expected'])):.3f}"


@pytest.mark.parametrize("args, sweep", [(SSS, "might=1..30"), (SAS, "training=1..8")],
                         ids=["sss", "sas"])
def test_the_sweep_chart_has_a_line_per_outcome(args, sweep, tmp_path):
    rows = json.loads(odds(*args, "--sweep", sweep, "--format", "json").stdout)["values"]
    plot = tmp_path / "sweep.svg"
    odds(*args, "--sweep", sweep, "--plot", str(plot))
    root = ET.fromstring(plot.read_text(encoding="utf-8"))
    paths = [p for p in root.iter(f"{SVG}path") if p.find(f"{SVG}title") is not None]
    assert [p.find(f"{SVG}title").text for p in paths] == list(rows[0]["distribution"])
    dots = [c.find(f"{SVG}title").text for c in root.iter(f"{SVG}circle")]
    assert len(dots) == len(rows) * len(paths)
    # each dot's title says its chance: the same as the JSON's, to a tenth of a percent
    for outcome in rows[0]["distribution"]:
        for row in rows:
            chance = float(Fraction(row["distribution"][outcome]))
            assert f"{outcome} at {row['value']}: {chance * 100:.1f}%" in dots
    page = odds(*args, "--sweep", sweep, "--format", "html").stdout
    assert 'id="chart-sweep"' in page and "<script" not in page


def test_lines_draws_one_path_per_series_within_the_axis():
    panel = charts.lines("x", "title", [1, 2, 3], [("a", "#000000", [0.0, 0.5, 1.0]),
                                                   ("<b>", "#111111", [1.0, 0.5, 0.0])], "v")
    root = ET.fromstring(panel.svg())
    paths = [p for p in root.iter(f"{SVG}path")]
    assert len(paths) == 2 and root.get("id") == "chart-x"
    ys = [float(y) for p in paths for y in re.findall(r"[ML][\d.]+ ([\d.]+)", p.get("d"))]
    assert min(ys) == 30 and max(ys) == 210   # 100% at the top, 0% at the base
    assert "&lt;b&gt;" in panel.svg()
    one = charts.lines("one", "t", [4], [("a", "#000000", [0.25])], "v")   # a single value
    assert ET.fromstring(one.svg()) is not None


# ---- errors --------------------------------------------------------------------------------------

ERRORS = [
    [*SSS, "--sweep", "migt=1..6"],
    [*SSS, "--sweep", "foe.might=1..6"],
    [*SSS, "--sweep", "might=6..1"],
    [*SSS, "--sweep", "might=1..x"],
    [*SSS, "--sweep", "might"],
    [*SSS, "--sweep", "might=0..5"],
    [*SSS, "--sweep", "might=1..500"],
    [*SAS, "--sweep", "size=1..3"],
    [*SAS, "--sweep", "training=1..9"],
    [*SAS, "--sweep", "training=1..3", "--solve"],
    [*SMART, "--sweep", "level=1..3"],
    [*SMART, "--sweep", "attacker.troop=1..3"],
    [*SMART_SHOOT, "--sweep", "terrain=0..1"],
    ["smart", "-a", "class=Knight", "--action", "move", "--sweep", "target.xp=1..3"],
    # the bounds a class allows, and a stat it fixes: as --attacker's own values
    ["fogbound", "-a", "class=Guildmaster", "-t", "class=Guildmaster", "--action", "fight",
     "--sweep", "skill=3..6"],
    ["fogbound", "-a", "class=Guildmaster", "-t", "class=Guildmaster", "--action", "fight",
     "--sweep", "target.grit=1..2"],
]


def test_bad_sweeps_are_located_in_the_option(golden):
    out = []
    for args in ERRORS:
        result = odds(*args, code=2)
        assert "Traceback" not in result.output
        out.append("$ warband odds " + " ".join(f"'{a}'" if " " in a or not a else a
                                                for a in args) + "\n" + result.output)
    golden(GOLDEN / "odds_sweep_errors.txt", "\n".join(out))


def test_output_files_are_checked_before_any_work(tmp_path):
    there = tmp_path / "there.svg"
    there.write_text("old", encoding="utf-8")
    result = odds(*SSS, "--plot", str(there), code=2)
    assert "--plot:1:1: error[E642]" in result.output and there.read_text() == "old"
    odds(*SSS, "--plot", str(there), "--force")
    assert there.read_text().startswith("<svg")
    same = tmp_path / "same"
    result = odds(*SSS, "--plot", str(same), "-o", str(same), "--format", "html", code=2)
    assert "error[E645]: --plot and --output name the same file" in result.output
    assert not same.exists()
    result = odds(*SSS, "--plot", "-", code=2)
    assert "error[E645]: --plot - and the report would both go to standard output" in \
        result.output
    page = tmp_path / "page.html"
    result = odds(*SSS, "--plot", "-", "-o", str(page), "--format", "html")
    assert result.stdout.startswith("<svg") and page.exists()
    result = odds(*SSS, "-o", str(tmp_path / "no" / "such.txt"), code=2)
    assert "--output:1:1: error[E642]" in result.output
    assert not list(tmp_path.glob(".*.tmp"))


# ---- names from files are text -------------------------------------------------------------------

EVIL = """\
name: Evil
ruleset: super-simple-skirmish
points: 100
fighters:
  - name: <script>alert(1)</script>
    class: Soldier
    might: 10
  - name: '"onload=x'
    class: Soldier
    might: 25
  - name: </title><b>Gun
    class: Gunner
    might: 20
  - name: Spare
    class: Soldier
    might: 10
"""


def test_names_from_a_warband_file_are_escaped(tmp_path):
    (tmp_path / "evil.yaml").write_text(EVIL, encoding="utf-8")
    file = tmp_path / "evil.yaml"
    args = ["super-simple-skirmish", "-a", f"{file}#</title><b>Gun", "-t", f'{file}#"onload=x',
            "-t", f"{file}#<script>alert(1)</script>", "--action", "blast"]
    plot = tmp_path / "evil.svg"
    page = odds(*args, "--format", "html", "--plot", str(plot)).stdout
    svg = plot.read_text(encoding="utf-8")
    ET.fromstring(svg)   # well-formed: nothing broke out of a text or an attribute
    for drawn in (page, svg):
        assert "<script" not in drawn and "<b>" not in drawn
        assert "&lt;script&gt;alert(1)&lt;/script&gt;.Stunned" in drawn
    sweep = odds(*args, "--sweep", "attacker.might=10..12", "--format", "html").stdout
    assert "<script" not in sweep


# ---- lean start-up -------------------------------------------------------------------------------

def test_charts_are_loaded_only_when_asked(tmp_path):
    code = ("import sys\nfrom warband.cli import main\nsys.argv = {argv!r}\n"
            "try:\n    main()\nexcept SystemExit:\n    pass\n"
            "print('LOADED', [m for m in ('warband.charts', 'warband.cli.odds_page') "
            "if m in sys.modules])\n")
    env = {**os.environ, "PYTHONPATH": str(ROOT / "toolkit")}
    for argv, loaded in ((["warband", "--version"], "[]"),
                         (["warband", "odds", *SSS], "[]"),
                         (["warband", "odds", *SSS, "--plot", str(tmp_path / "p.svg")],
                          "['warband.charts', 'warband.cli.odds_page']")):
        result = subprocess.run([sys.executable, "-c", code.format(argv=argv)], cwd=tmp_path,
                                env=env, capture_output=True, text=True, timeout=120)
        assert f"LOADED {loaded}" in result.stdout, result.stdout + result.stderr


# ---- in a browser --------------------------------------------------------------------------------

@needs_chromium
def test_the_page_shows_its_charts_in_a_browser(tmp_path):
    page = tmp_path / "odds.html"
    odds(*SSS, "--format", "html", "-o", str(page))
    dom = chromium(tmp_path, "--dump-dom", page.as_uri())
    assert dom.returncode == 0, dom.stderr[-2000:]
    for chart in ("chart-outcomes", "chart-effect-1", "chart-effect-2"):
        assert f'id="{chart}"' in dom.stdout
    screenshot(tmp_path, page, "odds")
    swept = tmp_path / "sweep.html"
    odds(*SAS, "--sweep", "target.training=1..8", "--format", "html", "-o", str(swept))
    dom = chromium(tmp_path, "--dump-dom", swept.as_uri())
    assert 'id="chart-sweep"' in dom.stdout and dom.stdout.count("<circle") == 8 * 6
    screenshot(tmp_path, swept, "sweep")


# ---- issue 32, C18: a saved page, chart or JSON names what was computed ---------------------------

def test_saved_odds_name_what_was_computed(tmp_path):
    """Two saved pages of the same action (here with and without cover, and another target)
    could not be told apart: each page, chart and JSON now names the ruleset, the action, the
    attacker and target as written, the parameters set (--cover, --with) and the policy."""
    made = {}
    for label, extra in (("plain", []), ("cover", ["--cover", "--policy", "greedy"])):
        page, chart = tmp_path / f"{label}.html", tmp_path / f"{label}.svg"
        odds(*SSS, *extra, "--format", "html", "-o", str(page), "--plot", str(chart))
        made[label] = (page.read_text(encoding="utf-8"), chart.read_text(encoding="utf-8"))
    for label, (page, chart) in made.items():
        shown = re.search(r'<dl id="computed">(.*?)</dl>', page).group(1)
        notes = [t.text for t in ET.fromstring(chart).iter(f"{SVG}text")]
        for said in ("ruleset", "super-simple-skirmish", "action", "shoot",
                     "class=Soldier might=10", "class=Gunslinger might=25", "policy"):
            assert said in shown, (label, said, shown)
            assert any(said in (note or "") for note in notes), (label, said)
    assert "cover=yes" in made["cover"][0] and "cover=yes" not in made["plain"][0]
    assert "policy: greedy" in made["cover"][1] and "policy: first" in made["plain"][1]
    data = json.loads(odds(*SSS, "--with", "cover=yes", "--format", "json").stdout)
    assert (data["attacker"], data["target"], data["with"]) == (
        ["class=Soldier might=10"], ["class=Gunslinger might=25"], {"cover": "yes"})


def test_a_sweeps_axis_names_whose_stat_it_varies(tmp_path):
    """`--sweep might=5..8` varies the attacker's Might: the table's column, the chart's axis
    and the JSON say `attacker.Might`, not a bare `might`; the JSON names what was weighed."""
    sweep = ["--sweep", "might=5..8"]
    assert odds(*SSS, *sweep).stdout.split()[0] == "attacker.Might"
    chart = tmp_path / "sweep.svg"
    odds(*SSS, *sweep, "--plot", str(chart))
    texts = [t.text for t in ET.fromstring(chart.read_text(encoding="utf-8")).iter(
        f"{SVG}text")]
    assert "attacker.Might" in texts and "sweep: attacker.Might = 5..8" in texts
    data = json.loads(odds(*SSS, *sweep, "--format", "json").stdout)
    assert data["sweep"] == "attacker.Might" and [v["value"] for v in data["values"]] == [
        5, 6, 7, 8]
    assert data["attacker"] == ["class=Soldier might=10"] and data["action"] == "shoot"
    target = odds(*SSS, "--sweep", "target.might=20..21").stdout.split()[0]
    assert target == "target.Might"
