"""A roster printed by WeasyPrint (`warband roster --format pdf`, the optional `pdf` extra):
every card whole on one page and no heading left at the foot of a page, on Letter and A4, read
from the PDF as print_pages.py says. Skips, saying what to install, without WeasyPrint (or the
Pango libraries it needs); Chromium's print has the same test in test_pages_browser.py."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from warband.cli import app
from warband.lists import render_roster

from print_pages import page_count, probed_roster, split_on_pages

ROOT = Path(__file__).resolve().parents[1]

pytestmark = pytest.mark.skipif(
    not render_roster.pdf_available(),
    reason="WeasyPrint is not installed (or its Pango libraries are missing): "
           "pip install 'warband-toolkit[pdf]' to print rosters to PDF and run this test")


# (WeasyPrint takes a minute for the long roster on a busy machine: two papers, not more)
@pytest.mark.parametrize("warband,paper", [("long", "A4"), ("fogbound-tallow-guild.yaml", "Letter")])
def test_weasyprint_splits_no_card_and_strands_no_heading(warband, paper, tmp_path):
    probed, cards, heads = probed_roster(warband, paper, tmp_path)
    pdf = render_roster.pdf(probed)
    assert len(cards) >= 4 and len(heads) >= 3
    assert split_on_pages(pdf, cards, heads) == []
    if warband == "long":
        assert page_count(pdf) >= 4
        # the check can fail: without the rules that keep things together, it does
        loose = re.sub(r"(page-)?break-(inside|after|before): avoid;", "", probed)
        assert split_on_pages(render_roster.pdf(loose), cards, heads) != []


def test_the_pdf_format_prints_the_cards(tmp_path):
    out = tmp_path / "family.pdf"
    made = CliRunner().invoke(app, ["roster", str(ROOT / "warbands" / "the-family.yaml"),
                                    "--format", "pdf", "-o", str(out)])
    assert made.exit_code == 0, made.output
    assert out.read_bytes().startswith(b"%PDF") and page_count(out.read_bytes()) >= 2
