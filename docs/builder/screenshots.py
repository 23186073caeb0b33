"""Makes the screenshots of docs/builder.md: `warband build` driven in headless Chromium (the
system's, through Playwright), as tests/test_builder_browser.py drives it. Run from the
repository's top, with the test extra installed:

    .venv/bin/python docs/builder/screenshots.py

The PNGs are written to docs/builder/, reduced to 256 colours (a few tens of kB each).
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from PIL import Image
from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parents[2]
OUT = ROOT / "docs" / "builder"
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser") or "chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]


def serve(folder: Path, *args: str) -> tuple[subprocess.Popen, str]:
    process = subprocess.Popen([sys.executable, "-m", "warband", "build", *args, "--no-open",
                                "--dir", str(folder)], stderr=subprocess.PIPE, text=True,
                               cwd=folder)
    assert process.stderr is not None
    found = re.search(r"http://\S+", process.stderr.readline())
    assert found
    return process, found.group(0)


def settle(page, act) -> None:
    """Do something that sends a change, and wait for the page's answer (its script counts
    them)."""
    done = page.evaluate("Number(document.body.dataset.done || 0)")
    act()
    deadline = time.monotonic() + 10
    while page.evaluate("Number(document.body.dataset.done || 0)") <= done:
        assert time.monotonic() < deadline
        page.wait_for_timeout(20)


def typed(page, selector: str, value: str) -> None:
    settle(page, lambda: (page.fill(selector, value), page.press(selector, "Tab")))


def added(page, cls: str) -> None:
    settle(page, lambda: page.click(f'form:has(input[name="class"][value="{cls}"]) button.add'))


def save(page, name: str, clip: dict | None = None) -> None:
    path = OUT / name
    page.screenshot(path=str(path), clip=clip) if clip else page.screenshot(path=str(path))
    Image.open(path).convert("RGB").quantize(256).save(path, optimize=True)
    print(f"{path.relative_to(ROOT)}: {path.stat().st_size // 1024} kB")


def main() -> None:
    folder = Path(tempfile.mkdtemp()) / "lists"
    folder.mkdir()
    shutil.copy(ROOT / "warbands" / "fogbound-tallow-guild.yaml", folder)
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        process, url = serve(folder, "super-simple-skirmish")
        try:
            page = browser.new_page(viewport={"width": 1280, "height": 860})
            page.goto(url)
            page.wait_for_selector("body[data-ready='1']")
            typed(page, "#list-name", "Tin Men")
            for n, (cls, name, count, might) in enumerate((
                    ("Soldier", "Musketeer", "4", "10"), ("Berserker", "Lieutenant", "", "20"),
                    ("Gunslinger", "Grenadier", "2", "20"))):
                added(page, cls)
                typed(page, f"#e{n}-name", name)
                if count:
                    typed(page, f"#e{n}-count", count)
                typed(page, f"#e{n}-stat-might", might)
            page.evaluate("document.activeElement.blur(); window.scrollTo(0, 0)")
            save(page, "sss-valid.png")
            typed(page, "#e0-count", "1")
            page.evaluate("document.activeElement.blur(); window.scrollTo(0, 0)")
            save(page, "sss-quota.png", {"x": 400, "y": 40, "width": 880, "height": 560})
        finally:
            process.terminate()
            process.wait()
        process, url = serve(folder, str(folder / "fogbound-tallow-guild.yaml"))
        try:
            page = browser.new_page(viewport={"width": 1280, "height": 860})
            page.goto(url)
            page.click("#offer-list .class-card:first-of-type details.prices summary")
            page.evaluate("document.activeElement.blur(); window.scrollTo(0, 0)")
            save(page, "fogbound.png")
            phone = browser.new_page(viewport={"width": 390, "height": 1100},
                                     device_scale_factor=1, is_mobile=True)
            phone.goto(url)
            phone.wait_for_selector("body[data-ready='1']")
            save(phone, "phone.png")
        finally:
            process.terminate()
            process.wait()
        browser.close()


if __name__ == "__main__":
    main()
