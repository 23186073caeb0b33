"""The list builder as a person uses it: `warband build` started as a command, its page driven
in a real headless Chromium (the system's, through Playwright's Python client; no browser is
downloaded). A legal Super Simple Skirmish list of 100 points is built from nothing, a quota is
broken and the error seen at the entry, fixed, saved, opened again and printed; the page works
at a phone's width. Screenshots are kept in the test's folder (tmp_path/screenshots) for a
person to look at. Without Playwright or a Chromium the tests skip, saying what to install.
"""

from __future__ import annotations

import importlib.util
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from builder_client import MISSING, ROOT
from headless import CHROMIUM, needs_chromium

DONE = "Number(document.body.dataset.done || 0)"   # the page's script counts its answers
BUSY = "document.body.classList.contains('busy')"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]

pytestmark = [
    needs_chromium,
    pytest.mark.skipif(importlib.util.find_spec("playwright") is None,
                       reason="no Playwright to drive Chromium: install the test extra "
                              "(pip install -e '.[test]'; its Python client only, no browser)"),
    pytest.mark.skipif(bool(MISSING), reason=f"the list builder needs {', '.join(MISSING)}: "
                                             "install the test extra"),
]


class Builder:
    """`warband build ... --no-open` in a child process, and the address it printed."""

    def __init__(self, folder: Path, *args: str) -> None:
        env = {**os.environ, "PYTHONPATH": str(ROOT / "toolkit")}
        self.process = subprocess.Popen(
            [sys.executable, "-m", "warband", "build", *args, "--no-open", "--dir", str(folder)],
            stderr=subprocess.PIPE, text=True, env=env, cwd=folder)
        assert self.process.stderr is not None
        line = self.process.stderr.readline()
        found = re.search(r"http://127\.0\.0\.1:\d+/\?token=\S+", line)
        assert found, line + self.process.stderr.read()
        self.url = found.group(0)

    def stop(self) -> tuple[int, str]:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
        _, err = self.process.communicate(timeout=30)
        return self.process.returncode, err


@pytest.fixture
def browser():
    from playwright.sync_api import Error, sync_playwright
    with sync_playwright() as p:
        try:
            launched = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        except Error as error:   # pragma: no cover - a Chromium that does not start here
            pytest.skip(f"Chromium ({CHROMIUM}) does not start under Playwright: {error}")
        yield launched
        launched.close()


class Page:
    """A page of the builder, with what its script and the browser report."""

    def __init__(self, page, shots: Path) -> None:
        self.page, self.shots, self.errors = page, shots, []
        page.on("pageerror", lambda error: self.errors.append(str(error)))
        page.on("console", lambda m: self.errors.append(m.text) if m.type == "error" else None)

    def changed(self, act) -> None:
        """Do something that sends a change, and wait for the page to show its answer."""
        done = self.page.evaluate(DONE)
        act()
        # (polled from here: the page's policy allows no script of the test's own in it)
        deadline = time.monotonic() + 15
        while self.page.evaluate(DONE) <= done or self.page.evaluate(BUSY):
            assert time.monotonic() < deadline, "the page did not show the change"
            self.page.wait_for_timeout(20)
        assert not self.page.evaluate("document.body.dataset.error || ''")

    def type(self, selector: str, value: str) -> None:
        self.changed(lambda: (self.page.fill(selector, value), self.page.press(selector, "Tab")))

    def add(self, cls: str) -> None:
        self.changed(lambda: self.page.click(
            f'form:has(input[name="class"][value="{cls}"]) button.add'))

    def text(self, selector: str) -> str:
        """An element's text as written (not as styled: a label in capitals is still in
        lower case), its spaces folded."""
        return " ".join((self.page.text_content(selector) or "").split())

    def shot(self, name: str, full: bool = True) -> Path:
        self.shots.mkdir(exist_ok=True)
        path = self.shots / f"{name}.png"
        self.page.screenshot(path=str(path), full_page=full)
        assert path.stat().st_size > 10_000
        return path


def test_a_legal_list_from_nothing_a_quota_broken_and_fixed_saved_opened_printed(
        browser, tmp_path):
    folder = tmp_path / "lists"
    folder.mkdir()
    server = Builder(folder, "super-simple-skirmish")
    try:
        context = browser.new_context(viewport={"width": 1280, "height": 900})
        page = Page(context.new_page(), tmp_path / "screenshots")
        p = page.page
        p.goto(server.url)
        assert p.url.endswith("/") and "token" not in p.url   # (the key left the address)
        p.wait_for_selector("body[data-ready='1']")
        assert page.text("#empty").startswith("No fighters yet")
        page.shot("1-empty", full=False)

        page.type("#list-name", "Tin Men")
        page.add("Soldier")                       # entry 0
        assert p.evaluate("document.activeElement.id") == "e0-name"   # ready to be named
        page.type("#e0-name", "Musketeer")
        page.type("#e0-count", "4")
        page.type("#e0-stat-might", "10")
        page.add("Berserker")                     # entry 1
        page.type("#e1-name", "Lieutenant")
        page.type("#e1-stat-might", "20")
        page.add("Gunslinger")                    # entry 2
        page.type("#e2-name", "Grenadier")
        page.type("#e2-count", "2")
        page.type("#e2-stat-might", "20")
        assert page.text("#e0-cost") == "4 × 10 = 40"
        assert page.text("#e2-cost") == "2 × 20 = 40"
        assert page.text("#total-points-1").split() == ["points", "100", "/", "100"]
        assert page.text("#total-fighters-2").split() == ["fighters", "7", "/", "16"]
        assert page.text("#status") == "Valid"
        page.shot("2-legal-100-points")

        # half the fighters must be of common classes: one Musketeer of 4 fighters is not
        page.type("#e0-count", "1")
        assert page.text("#status") == "1 problem"
        problems = page.text("#e0-problems")
        assert "error[E703] 1 of 4 fighters of common classes (Musketeer); at least 1/2 " \
               "needed (2 of 4)" in problems
        assert "hint: add fighters of common classes, or replace others with them" in problems
        assert p.get_attribute("#entry-0", "class") == "entry invalid"
        assert p.is_visible("#limits li.over")    # the quota, marked among the limits
        page.shot("3-quota-broken")
        page.type("#e0-count", "4")
        assert page.text("#status") == "Valid" and not p.query_selector("#e0-problems")

        p.fill("#save-file", "tin-men.yaml")   # (a name typed is sent with the save)
        page.changed(lambda: p.click("#save"))
        assert page.text("#notice") == "saved tin-men.yaml"
        saved = (folder / "tin-men.yaml").read_text(encoding="utf-8")
        assert saved.startswith("name: Tin Men\nruleset: super-simple-skirmish\nfighters:\n")
        from warband.lists.validate import validate
        found = validate([str(folder / "tin-men.yaml")]).files[0]
        assert not found.failed() and (found.total, found.limit, found.size) == (100, 100, 7)

        # open it again, from the menu, as a list of its own
        page.changed(lambda: p.click("#add-1-common"))   # a change not saved: the page asks
        p.click(".menu summary")
        p.once("dialog", lambda dialog: dialog.accept())
        p.select_option("#open-file", "tin-men.yaml")
        with p.expect_navigation():
            p.click("form[action='/open'] button")
        p.wait_for_selector("body[data-ready='1']")
        assert p.input_value("#list-name") == "Tin Men"
        assert [p.input_value(f"#e{i}-name") for i in range(3)] == \
            ["Musketeer", "Lieutenant", "Grenadier"]
        assert page.text("#status") == "Valid" and page.text("#save") == "Saved"
        page.shot("4-reopened")

        # print: the roster's cards, in a tab of their own
        with context.expect_page() as opened:
            p.click("#print")
        cards = opened.value
        cards.wait_for_load_state()
        assert cards.title() == "Tin Men · roster"
        assert [" ".join(h.text_content().split())
                for h in cards.query_selector_all(".card .name")] == \
            ["Musketeer × 4", "Lieutenant", "Grenadier × 2"]
        assert "100 / 100" in cards.text_content(".summary")
        cards.screenshot(path=str(page.shots / "5-cards.png"), full_page=True)
        printed = tmp_path / "cards.pdf"
        cards.pdf(path=str(printed))
        assert printed.read_bytes().startswith(b"%PDF") and printed.stat().st_size > 5_000
        assert page.errors == [], page.errors   # no script error, nothing the page refused
    finally:
        code, err = server.stop()
    assert code == 143, err   # SIGTERM, as for every command
    assert "Traceback" not in err


def test_the_page_at_a_phones_width(browser, tmp_path):
    folder = tmp_path / "lists"
    folder.mkdir()
    for name in ("fogbound-tallow-guild.yaml",):
        (folder / name).write_bytes((ROOT / "warbands" / name).read_bytes())
    server = Builder(folder, str(folder / "fogbound-tallow-guild.yaml"))
    try:
        context = browser.new_context(viewport={"width": 390, "height": 844},
                                      device_scale_factor=2, is_mobile=True, has_touch=True)
        page = Page(context.new_page(), tmp_path / "screenshots")
        p = page.page
        p.goto(server.url)
        p.wait_for_selector("body[data-ready='1']")
        wide = p.evaluate("document.documentElement.scrollWidth")
        assert wide <= 390, f"the page is {wide} px wide at a phone's 390"
        assert not p.evaluate("document.getElementById('offer-list').open")   # list first
        assert page.text("#total-points-1").split() == ["points", "235", "/", "250"]
        page.shot("phone-1-opened", full=False)
        p.click("#offer-list > summary")
        page.add("Cutthroat")
        assert page.text("#total-points-1").split() == ["points", "250", "/", "250"]
        assert page.text("#status") == "Valid"
        cutthroat = p.evaluate("document.activeElement.id")
        assert re.fullmatch(r"e\d+-name", cutthroat)
        entry = cutthroat.removesuffix("-name")
        page.changed(lambda: p.check(f"#{entry}-o1-1"))        # a crossbow: +20 and a favour
        assert page.text("#status") == "1 problem"
        assert "the warband costs 270 points; at most 250 allowed" in page.text("#e0-problems")
        assert p.evaluate("document.documentElement.scrollWidth") <= 390
        page.shot("phone-2-over-the-points")
        assert page.errors == [], page.errors
        code, err = server.stop()
        assert code == 143, err
        # the builder stopped: a change is not lost silently, the page says so
        p.check(f"#{entry}-o1-none")
        p.wait_for_selector("#trouble")
        assert "does not answer" in page.text("#trouble")
    finally:
        code, err = server.stop()
    assert code == 143, err
