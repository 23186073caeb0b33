"""The simulate report and the roster cards as a person sees them: opened in a real headless
Chromium (see headless.py; the game page has tests/test_game_page_browser.py), every chart and
card present in the DOM the browser built, no script error, printable, and screenshots saved
for a person to look at."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path

import pytest
from typer.testing import CliRunner

from warband.cli import app

from headless import chromium, needs_chromium, screenshot
from print_pages import page_count, probed_roster, split_on_pages

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


@pytest.mark.parametrize("warband,paper", [
    ("long", "Letter"), ("long", "A4"), ("ashfall-ashen-host.yaml", "Letter"),
    ("fogbound-tallow-guild.yaml", "Letter"), ("fogbound-tallow-guild.yaml", "A4"),
    ("narnia-patrol.yaml", "A4")])
def test_a_printed_roster_splits_no_card_and_strands_no_heading(warband, paper, tmp_path):
    """Printed by Chromium on Letter and A4: every card whole on one page, and every heading (a
    table for reference, the side, a glossary section) on the page of what follows it;
    print_pages.py says how that is read from the PDF."""
    probed, cards, heads = probed_roster(warband, paper, tmp_path)
    page = tmp_path / "roster.html"
    page.write_text(probed, encoding="utf-8")
    printed = tmp_path / "roster.pdf"
    run = chromium(tmp_path, f"--print-to-pdf={printed}", "--no-pdf-header-footer",
                   page.as_uri())
    assert run.returncode == 0, run.stderr[-2000:]
    pdf = printed.read_bytes()
    assert len(cards) >= 4 and len(heads) >= 3
    assert split_on_pages(pdf, cards, heads) == []
    if warband == "long":
        assert page_count(pdf) >= 4   # long enough for page breaks to fall among the cards
        # and the check can fail: without the rules that keep things together, it does
        loose = re.sub(r"(page-)?break-(inside|after|before): avoid;", "", probed)
        page.write_text(loose, encoding="utf-8")
        chromium(tmp_path, f"--print-to-pdf={printed}", "--no-pdf-header-footer", page.as_uri())
        assert split_on_pages(printed.read_bytes(), cards, heads) != []
