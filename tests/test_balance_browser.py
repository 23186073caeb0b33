"""`warband balance --format html` as a person sees it: opened in a real headless Chromium (see
headless.py), the duel matrix's heatmap and the cost charts drawn in the DOM the browser built,
no script, and screenshots saved for a person to look at."""

from __future__ import annotations

from pathlib import Path

from test_balance import HERE, SCENARIO, run
from test_pages_browser import dom_of

from headless import needs_chromium, screenshot

pytestmark = needs_chromium


def test_the_ruleset_page_draws_the_duel_heatmap(tmp_path: Path):
    page = tmp_path / "balance.html"
    code, out, err = run(str(HERE / "sss-mispriced.rules"), fmt="html", output=str(page))
    assert code == 0, err
    dom = dom_of(tmp_path, page)
    assert dom.scripts == 0
    assert {"run", "fighters", "findings", "attacks", "figure-duels", "figure-kills"} <= dom.ids
    # ten fighters: a hundred cells, each a square and its figure
    assert dom.drawn["chart-duels"] >= 200 and dom.drawn["chart-kills"] >= 200
    text = page.read_text(encoding="utf-8")
    assert "Monster: beats everything at its cost (cheap?)" in text
    screenshot(tmp_path, page, "balance-ruleset", size="1280,1800")


def test_the_scenario_page_draws_current_against_suggested_costs(tmp_path: Path):
    page = tmp_path / "balance.html"
    code, out, err = run("sss-standard-game", **SCENARIO, fmt="html", output=str(page))
    assert code == 0, err
    dom = dom_of(tmp_path, page)
    assert dom.scripts == 0
    assert {"run", "figures", "warnings", "swaps", "costs", "chart-sides", "chart-costs",
            "chart-swaps"} <= dom.ids
    assert dom.drawn["chart-costs"] >= 30 and dom.drawn["chart-sides"] >= 3
    screenshot(tmp_path, page, "balance-scenario", size="1280,2000")
