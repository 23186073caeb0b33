"""`warband lsp` as a command: it needs the lsp extra, the rest of the command line does not
load it, and it ends when its client goes (the protocol itself: tests/test_lsp.py)."""

from __future__ import annotations

import os
import subprocess
import sys

ENV = {**os.environ, "WARBAND_NO_CACHE": "1", "NO_COLOR": "1"}


def test_the_command_line_does_not_load_the_server():
    code = "import sys, warband.cli; assert 'pygls' not in sys.modules, 'pygls loaded'"
    subprocess.run([sys.executable, "-c", code], check=True, env=ENV)


def test_without_pygls_the_command_says_how_to_install_it(monkeypatch):
    from typer.testing import CliRunner

    from warband.cli import app, lsp
    monkeypatch.setattr(lsp.importlib.util, "find_spec", lambda name: None)
    result = CliRunner().invoke(app, ["lsp"])
    assert result.exit_code == 2
    assert "needs pygls" in result.output and "pip install 'pygls>=2.1,<3'" in result.output


def test_the_server_ends_when_its_client_goes():
    done = subprocess.run([sys.executable, "-m", "warband", "lsp", "--stdio"], input=b"",
                          check=False, capture_output=True, timeout=60, env=ENV)
    assert done.returncode == 0 and done.stdout == b""
