"""The type checker passes over the whole package (settings in pyproject.toml), so CI runs it."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def test_mypy_passes_over_the_whole_package():
    pytest.importorskip("mypy", reason="mypy is in the test extra: pip install '.[test]'")
    done = subprocess.run([sys.executable, "-m", "mypy", "--no-error-summary"], cwd=ROOT,
                          capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, done.stdout[-6000:] + done.stderr[-2000:]
