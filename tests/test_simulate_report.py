"""`simulate --games-out`, `--plot` and `--format html`: per-game lines and charts of many games.

What a user relies on: the lines tell the same story as the report (tallied, they give its
counts), they come in seed order whatever plays the games, names from files are text in the
page and the SVG (never markup), every output is checked before any game is played, and a
plain run neither keeps the games nor loads the charts.
"""

from __future__ import annotations

import json
import subprocess
import sys
import xml.etree.ElementTree as ElementTree
from collections import Counter
from pathlib import Path

import pytest
from typer.testing import CliRunner

import simulate_toy
from warband.cli import app
from warband.cli.simulate import SimulateOptions
from warband.game import plots
from warband.game.report import as_json, render_games_jsonl
from warband.game.report_html import render_html
from warband.game.results import GameResult, PlayRequest
from warband.game.simulate import simulate
from warband.game.tally import GameDetails, Loss
from warband.game.worker import play, play_detailed

ROOT = Path(__file__).resolve().parents[1]
GOLDEN = ROOT / "tests" / "cli_golden"
SCENARIOS = ("sss-standard-game", "smart-dungeon")   # two game systems


def run(*args: str):
    return CliRunner().invoke(app, ["simulate", *args])


def lines_of(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def assert_lines_agree(lines: list[dict], report: dict) -> None:
    """The metamorphic check: the lines tallied give the report's figures."""
    assert [line["game"] for line in lines] == list(range(1, report["games"] + 1))
    winners = Counter(line["winner"] for line in lines)
    for side, figures in report["sides"].items():
        assert winners[side] == figures["wins"], side
        removed = Counter(loss["class"] or loss["fighter"] for line in lines
                          for loss in line["removed"][side])
        per_game = {kind: round(n / report["games"], 6) for kind, n in removed.items()}
        assert per_game == figures["removed_per_game"], side
        mean = sum(line["scores"][side] for line in lines) / len(lines)
        assert mean == pytest.approx(figures["score"]["mean"], abs=1e-6)
    assert winners[None] == report["draws"] == sum(line["draw"] for line in lines)
    rounds = [line["rounds"] for line in lines]
    assert (min(rounds), max(rounds)) == (report["rounds"]["min"], report["rounds"]["max"])
    assert Counter(line["ended"] for line in lines) == \
        {how: n for how, n in report["ended"].items() if n}


# ---- the lines agree with the report -------------------------------------------------------------

@pytest.mark.parametrize("scenario", SCENARIOS)
def test_games_out_tallied_is_the_report(scenario, tmp_path):
    out = tmp_path / "games.jsonl"
    result = run(scenario, "-n", "12", "--seed", "3", "--format", "json", "--games-out",
                 str(out))
    assert result.exit_code == 0, result.output
    lines = lines_of(out)
    assert_lines_agree(lines, json.loads(result.stdout))
    # the real engine watches who acted first and names every fighter lost
    assert all(line["first"] in line["scores"] for line in lines)
    assert any(loss["fighter"] for line in lines for side in line["removed"]
               for loss in line["removed"][side])


def test_games_out_of_an_engine_that_names_no_fighter(monkeypatch, tmp_path):
    """An engine with only `play` (no play_detailed): classes counted, no `first`."""
    monkeypatch.setenv("WARBAND_ENGINE", "simulate_toy")
    out = tmp_path / "games.jsonl"
    result = run("skirmish", "-n", "120", "--chunk-size", "7", "--format", "json",
                 "--games-out", str(out))
    assert result.exit_code == 0, result.output
    lines = lines_of(out)
    assert_lines_agree(lines, json.loads(result.stdout))
    assert not any("first" in line for line in lines)
    assert any("stuck" in line for line in lines)


@pytest.mark.parametrize("scenario", SCENARIOS)
def test_detailed_play_is_the_same_game(scenario):
    """Watching a game changes nothing in it; its losses are what the tally counts."""
    request = PlayRequest(scenario)
    for seed in (1, 2, 3):
        plain, detailed = play(request, seed), play_detailed(request, seed)
        assert isinstance(detailed, GameDetails)
        same = ("winner", "scores", "rounds", "ended", "kills", "scored", "stuck")
        assert all(getattr(plain, f) == getattr(detailed, f) for f in same)
        counted: dict[str, Counter] = {side: Counter() for side in plain.sides}
        for loss in detailed.losses:
            if loss.how == "removed":
                counted[loss.side][loss.fighter_class or loss.fighter] += 1
        assert {s: dict(c) for s, c in counted.items()} == \
            {s: k for s, k in plain.kills.items()}


# ---- seed order whatever plays the games ---------------------------------------------------------

def test_games_out_with_two_workers_is_the_same_file(monkeypatch, tmp_path):
    monkeypatch.setenv("WARBAND_ENGINE", "simulate_toy")
    one, two = tmp_path / "one.jsonl", tmp_path / "two.jsonl"
    for path, workers in ((one, "1"), (two, "2")):
        result = run("skirmish", "-n", "90", "--chunk-size", "8", "--workers", workers,
                     "--games-out", str(path))
        assert result.exit_code == 0, result.output
    assert one.read_bytes() == two.read_bytes()


def test_real_engine_with_two_workers_is_the_same_file(tmp_path):
    one, two = tmp_path / "one.jsonl", tmp_path / "two.jsonl"
    for path, workers in ((one, "1"), (two, "2")):
        result = run("smart-dungeon", "-n", "6", "--chunk-size", "2", "--workers", workers,
                     "--games-out", str(path), "--plot", str(path.with_suffix(".svg")))
        assert result.exit_code == 0, result.output
    assert one.read_bytes() == two.read_bytes()
    assert one.with_suffix(".svg").read_bytes() == two.with_suffix(".svg").read_bytes()


# ---- pages and pictures --------------------------------------------------------------------------

HOSTILE = ("<script>alert(1)</script>", '"onload="alert(2)', "ctl\x1b[31m&amp;")


def hostile(request: PlayRequest, seed: int) -> GameDetails:
    """Sides and fighters named to break a page; a fixed game for every seed number."""
    a, b, c = HOSTILE
    winner = (a, b, None)[seed % 3]
    return GameDetails(seed, (a, b), winner, {a: float(seed % 5), b: 2.5}, 1 + seed % 4,
                       "limit", {a: {c: 1}}, first=(a, b)[seed % 2],
                       losses=(Loss(a, "<img src=x onerror=alert(3)>", c, "removed"),
                               Loss(b, '"><svg onload=alert(4)>', None, "withdrawn")))


def made_up(request: PlayRequest, seed: int) -> GameDetails:
    """A small fixed game of two sides with every kind of data a chart draws."""
    sides = ("Red", "Blue")
    n = seed % 7
    winner = sides[0] if n < 3 else sides[1] if n < 6 else None
    first = sides[seed % 2]
    losses = tuple(Loss(side, f"{side} {i}", ("Archer", "Knight")[i % 2], "removed")
                   for side in sides for i in range((seed >> 3) % 3))
    kills: dict[str, dict[str, int]] = {}
    for loss in losses:
        kills.setdefault(loss.side, {})
        kills[loss.side][loss.fighter_class] = kills[loss.side].get(loss.fighter_class, 0) + 1
    return GameDetails(seed, sides, winner, {"Red": float(n), "Blue": float(6 - n)},
                       3 + seed % 4, "limit", kills, first=first, losses=losses)


def test_names_from_files_are_text_in_the_page_and_the_svg():
    summary = simulate(PlayRequest("hostile"), 12, 1, play=hostile, keep_results=True)
    page = render_html(summary, "<b>scenario</b>")
    svg = plots.figure(summary, "<b>scenario</b>")
    for text in (page, svg):
        assert "<script" not in text and "<img" not in text and "<svg onload" not in text
        assert "<b>" not in text and "\x1b" not in text
        assert "&lt;script&gt;" in text
    assert 'onload="alert' not in page + svg
    ElementTree.fromstring(svg)   # well-formed: no raw control character, no stray markup
    for panel in plots.panels(summary):
        ElementTree.fromstring(panel.svg())
    lines = render_games_jsonl(summary).splitlines()
    assert json.loads(lines[0])["removed"][HOSTILE[0]][0]["fighter"] == \
        "<img src=x onerror=alert(3)>"   # the data itself is kept as it is


def test_page_has_an_id_for_every_chart_and_no_network():
    summary = simulate(PlayRequest("made up"), 60, 1, play=made_up, keep_results=True)
    page = render_html(summary, "made-up")
    for panel in ("win-rates", "settling", "scores", "rounds", "first-player",
                  "losses-by-class", "losses-by-fighter"):
        assert f'id="figure-{panel}"' in page and f'id="chart-{panel}"' in page
    for id in ("run", "figures"):
        assert f'id="{id}"' in page
    assert "http:" not in page.replace("http://www.w3.org/2000/svg", "")
    assert "https:" not in page and "<script" not in page and "<link" not in page


def test_plot_golden(golden):
    """The SVG of a small fixed run: drawn the same on every machine and every run."""
    summary = simulate(PlayRequest("made up"), 60, 1, play=made_up, keep_results=True)
    svg = plots.figure(summary, "made-up: 60 games, seed 1")
    assert svg == plots.figure(simulate(PlayRequest("made up"), 60, 1, play=made_up,
                                        keep_results=True), "made-up: 60 games, seed 1")
    golden(GOLDEN / "simulate_plot.svg", svg)


def test_win_rate_panel_shows_the_reports_intervals():
    summary = simulate(PlayRequest("made up"), 60, 1, play=made_up, keep_results=True)
    report = as_json(summary)
    panel = plots.win_rates(summary).svg()
    for side, figures in report["sides"].items():
        low, high = figures["win_rate_95"]
        assert f"({low * 100:.1f}%–{high * 100:.1f}%)" in panel, side


@pytest.mark.parametrize("scenario", SCENARIOS)
def test_html_and_plot_of_a_shipped_scenario(scenario, tmp_path):
    page, svg = tmp_path / "report.html", tmp_path / "plot.svg"
    result = run(scenario, "-n", "8", "--format", "html", "-o", str(page), "--plot", str(svg))
    assert result.exit_code == 0, result.output
    assert result.stdout == ""
    text = page.read_text()
    assert text.startswith("<!DOCTYPE html>") and 'id="chart-first-player"' in text
    ElementTree.fromstring(svg.read_text())


# ---- options: checked before any game, as every output of every command --------------------------

def test_an_existing_output_needs_force(tmp_path):
    target = tmp_path / "plot.svg"
    target.write_text("mine")
    result = run("smart-dungeon", "-n", "2", "--plot", str(target))
    assert result.exit_code == 2
    assert "--plot:1:1: error[E642]" in result.stderr and "--force" in result.stderr
    assert target.read_text() == "mine"
    result = run("smart-dungeon", "-n", "2", "--plot", str(target), "--force")
    assert result.exit_code == 0, result.output
    assert target.read_text().startswith("<svg")


def test_two_outputs_in_one_file_and_a_missing_folder(tmp_path):
    same = str(tmp_path / "out")
    result = run("smart-dungeon", "-n", "2", "--plot", same, "--games-out", same, "-o",
                 str(tmp_path / "no" / "such.html"))
    assert result.exit_code == 2
    assert "--games-out:1:1: error[E645]" in result.stderr
    assert "--output:1:1: error[E642]" in result.stderr
    assert not (tmp_path / "out").exists()


def test_replay_draws_no_chart(tmp_path):
    result = run("smart-dungeon", "--replay", "5", "--plot", str(tmp_path / "p.svg"),
                 "--format", "html")
    assert result.exit_code == 2
    assert "--plot:1:1: error[E645]" in result.stderr
    assert "error[E645]: --format html" in result.stderr
    assert "Traceback" not in result.output


def test_report_to_a_file(tmp_path):
    out = tmp_path / "report.json"
    result = run("smart-dungeon", "-n", "3", "--format", "json", "-o", str(out))
    assert result.exit_code == 0 and result.stdout == ""
    assert json.loads(out.read_text())["games"] == 3


def test_unknown_format_is_refused():
    result = run("smart-dungeon", "--format", "png")
    assert result.exit_code == 2 and "png" in result.output


# ---- a plain run stays lean ----------------------------------------------------------------------

def test_a_plain_run_keeps_no_game():
    assert not SimulateOptions("x").per_game()
    assert SimulateOptions("x", fmt="html").per_game()
    assert SimulateOptions("x", games_out="g.jsonl").per_game()
    assert SimulateOptions("x", plot="p.svg").per_game()


def test_charts_are_loaded_only_when_asked(tmp_path):
    code = ("import sys\nfrom warband.cli import main\nsys.argv = {argv!r}\n"
            "try:\n    main()\nexcept SystemExit:\n    pass\n"
            "print('LOADED', [m for m in ('warband.game.plots', 'warband.game.report_html') "
            "if m in sys.modules])\n")
    env_engine = {"WARBAND_ENGINE": "simulate_toy"}
    import os
    env = {**os.environ, **env_engine,
           "PYTHONPATH": os.pathsep.join([str(ROOT / "toolkit"), str(ROOT / "tests")])}
    for argv, loaded in ((["warband", "--version"], "[]"),
                         (["warband", "simulate", "skirmish", "-n", "5"], "[]"),
                         (["warband", "simulate", "skirmish", "-n", "5", "--plot",
                           str(tmp_path / "p.svg")], "['warband.game.plots']")):
        result = subprocess.run([sys.executable, "-c", code.format(argv=argv)], cwd=tmp_path,
                                env=env, capture_output=True, text=True, timeout=120)
        assert f"LOADED {loaded}" in result.stdout, result.stdout + result.stderr


def test_a_toy_engine_result_without_details_still_charts():
    summary = simulate(PlayRequest("skirmish"), 30, 1, play=simulate_toy.play,
                       keep_results=True)
    ids = [p.id for p in plots.panels(summary)]
    assert "first-player" not in ids and "losses-by-fighter" not in ids
    assert {"win-rates", "settling", "scores", "rounds", "losses-by-class"} <= set(ids)
    assert isinstance(summary.results[0], GameResult)


def test_games_out_to_standard_output(tmp_path):
    """`--games-out -`: the lines alone on standard output, the report in its file."""
    report = tmp_path / "report.json"
    result = run("smart-dungeon", "-n", "3", "--format", "json", "-o", str(report),
                 "--games-out", "-")
    assert result.exit_code == 0, result.output
    lines = [json.loads(line) for line in result.stdout.splitlines()]
    assert_lines_agree(lines, json.loads(report.read_text()))
    result = run("smart-dungeon", "-n", "3", "--games-out", "-")
    assert result.exit_code == 2
    assert "--games-out:1:1: error[E645]" in result.stderr and "-o FILE" in result.stderr


def test_a_fighter_named_as_markup_from_a_warband_file(tmp_path):
    """From the command line: a warband file's fighter named `<script>` is text in the page,
    the picture and the lines."""
    name = '<script>alert(1)</script>"onload='
    text = (ROOT / "warbands" / "the-family.yaml").read_text()
    text = text.replace("  - name: Kid\n", f"  - name: '{name}'\n")
    (tmp_path / "family.yaml").write_text(text)
    page, svg, games = tmp_path / "r.html", tmp_path / "r.svg", tmp_path / "g.jsonl"
    result = run("sss-standard-game", "-n", "12", "--side", f"family={tmp_path / 'family.yaml'}",
                 "--format", "html", "-o", str(page), "--plot", str(svg), "--games-out",
                 str(games))
    assert result.exit_code == 0, result.output
    lost = {loss["fighter"] for line in lines_of(games) for loss in line["removed"]["family"]}
    assert name in lost   # (the fighter falls in some game of these twelve)
    shown = page.read_text()
    assert "<script" not in shown and "&lt;script&gt;alert(1)" in shown
    ElementTree.fromstring(svg.read_text())
