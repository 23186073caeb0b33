"""Shared test fixtures.

Golden files: a test compares what a user would read with a file under tests/; run
`pytest --update-goldens` (or set WARBAND_UPDATE_GOLDENS=1) to rewrite them, then review the diff.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def pytest_addoption(parser):
    parser.addoption("--update-goldens", action="store_true", default=False,
                     help="rewrite golden files instead of comparing against them")


@pytest.fixture(autouse=True)
def _no_disk_cache(monkeypatch, tmp_path_factory):
    # Tests never read or write the user's compile cache.
    monkeypatch.setenv("WARBAND_CACHE_DIR", str(tmp_path_factory.getbasetemp() / "cache"))
    monkeypatch.setenv("NO_COLOR", "1")
    monkeypatch.setenv("COLUMNS", "120")


@pytest.fixture
def golden(request):
    """golden(path, text): assert text equals the file's content, or rewrite it when asked."""
    update = request.config.getoption("--update-goldens") or os.environ.get(
        "WARBAND_UPDATE_GOLDENS") == "1"

    def check(path: Path, text: str) -> None:
        path = Path(path)
        if update or not path.exists():
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
            if not update:
                pytest.fail(f"golden file {path.relative_to(ROOT)} was missing and has been "
                            "written; review it and run again")
            return
        expected = path.read_text(encoding="utf-8")
        assert text == expected, (
            f"output differs from {path.relative_to(ROOT)}; if the change is intended, run "
            "pytest --update-goldens and review the diff")

    return check


@pytest.fixture(scope="session")
def sss():
    from warband.compiler import load
    compiled = load("super-simple-skirmish")
    assert compiled.ruleset is not None, compiled.diagnostics
    return compiled.ruleset
