"""The simulate report and the roster cards as a person sees them: opened in a real headless
Chromium (see headless.py; the game page has tests/test_game_page_browser.py), every chart and
card present in the DOM the browser built, no script error, printable, and screenshots saved
for a person to look at."""

from __future__ import annotations

from html.parser import HTMLParser
from pathlib import Path

import pytest
from typer.testing import CliRunner

from warband.cli import app

from headless import chromium, needs_chromium, screenshot

pytestmark = needs_chromium
ROOT = Path(__file__).resolve().parents[1]
CHARTS = ("win-rates", "settling", "scores", "rounds", "first-player", "losses-by-class",
          "losses-by-fighter")


class Elements(HTMLParser):
    """Ids and classes of a dumped DOM, and how many drawing elements each chart holds."""

    def __init__(self) -> None:
        super().__init__()
        self.ids: set[str] = set()
        self.classes: list[str] = []
        self.drawn: dict[str, int] = {}
        self.scripts = 0
        self._chart: list[str] = []

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if a.get("id"):
            self.ids.add(a["id"])
        self.classes += (a.get("class") or "").split()
        self.scripts += tag == "script"
        if (a.get("id") or "").startswith("chart-"):
            self._chart.append(a["id"])
            self.drawn[a["id"]] = 0
        elif self._chart and tag in ("rect", "line", "path", "polyline", "polygon", "circle",
                                     "text"):
            self.drawn[self._chart[-1]] += 1

    def handle_endtag(self, tag):
        if tag == "svg" and self._chart:
            self._chart.pop()


def dom_of(tmp_path: Path, page: Path) -> Elements:
    run = chromium(tmp_path, "--dump-dom", page.as_uri())
    assert run.returncode == 0, run.stderr[-2000:]
    assert "Uncaught" not in run.stderr, run.stderr[-2000:]
    found = Elements()
    found.feed(run.stdout)
    return found


@pytest.mark.parametrize("scenario", ["sss-standard-game", "fogbound-drowned-market"])
def test_the_simulate_report_draws_every_chart(scenario, tmp_path):
    page = tmp_path / "report.html"
    made = CliRunner().invoke(app, ["simulate", scenario, "--games", "40", "--format", "html",
                                    "-o", str(page)])
    assert made.exit_code == 0, made.output
    dom = dom_of(tmp_path, page)
    assert dom.scripts == 0   # a report runs no script at all
    for chart in CHARTS:
        if f"chart-{chart}" in dom.ids or chart != "first-player":
            assert dom.drawn.get(f"chart-{chart}", 0) >= 3, (chart, dom.drawn)
    screenshot(tmp_path, page, f"report-{scenario}", size="1280,2400")
    printed = tmp_path / "report.pdf"
    chromium(tmp_path, f"--print-to-pdf={printed}", "--no-pdf-header-footer", page.as_uri())
    assert printed.read_bytes().startswith(b"%PDF") and printed.stat().st_size > 5_000


@pytest.mark.parametrize("warband", ["clockwork-empire.yaml", "fogbound-tallow-guild.yaml", "dungeon-delvers.yaml"])
def test_a_roster_opens_as_one_card_per_entry(warband, tmp_path):
    page = tmp_path / "roster.html"
    made = CliRunner().invoke(app, ["roster", str(ROOT / "warbands" / warband), "--format",
                                    "html", "-o", str(page)])
    assert made.exit_code == 0, made.output
    dom = dom_of(tmp_path, page)
    assert dom.classes.count("card") >= 2
    screenshot(tmp_path, page, f"roster-{warband}")
    printed = tmp_path / "roster.pdf"
    chromium(tmp_path, f"--print-to-pdf={printed}", "--no-pdf-header-footer", page.as_uri())
    assert printed.read_bytes().startswith(b"%PDF") and printed.stat().st_size > 5_000
