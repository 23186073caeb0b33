"""Chromium for the tests that look at pages as a person does: the system's package (`.ci/run`
installs Debian's where it can), or WARBAND_CHROMIUM; without one, those tests skip and say what
to install. No Python dependency: Chromium prints the DOM (--dump-dom) once the page's script
has run, takes screenshots and prints to PDF."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

BROWSERS = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")


def browser() -> str | None:
    override = os.environ.get("WARBAND_CHROMIUM")
    if override:   # (a path, or a name on PATH)
        return shutil.which(override)
    return next((found for name in BROWSERS if (found := shutil.which(name))), None)


CHROMIUM = browser()
needs_chromium = pytest.mark.skipif(
    CHROMIUM is None,
    reason="no Chromium to open the page in (looked for " + ", ".join(BROWSERS) +
           " on PATH, and WARBAND_CHROMIUM): install Debian's `chromium` package "
           "(`.ci/run` does, as root)")


def chromium(tmp_path: Path, *args: str) -> subprocess.CompletedProcess:
    assert CHROMIUM is not None
    command = [CHROMIUM, "--headless=new", "--disable-gpu", "--no-first-run",
               "--disable-extensions", f"--user-data-dir={tmp_path / 'profile'}",
               "--enable-logging=stderr", "--v=0", *args]
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        command.insert(1, "--no-sandbox")   # (Chromium's sandbox refuses to run as root)
    return subprocess.run(command, capture_output=True, text=True, timeout=120,
                          env={**os.environ, "HOME": str(tmp_path)})


def screenshot(tmp_path: Path, page: Path, name: str, size: str = "1280,900") -> Path:
    """A screenshot of the page in tmp_path/screenshots (kept for a person to look at)."""
    shots = tmp_path / "screenshots"
    shots.mkdir(exist_ok=True)
    shot = shots / f"{name}.png"
    taken = chromium(tmp_path, f"--screenshot={shot}", f"--window-size={size}",
                     "--hide-scrollbars", page.as_uri())
    assert taken.returncode == 0 and shot.stat().st_size > 10_000, taken.stderr[-2000:]
    return shot
