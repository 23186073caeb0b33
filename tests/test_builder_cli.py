"""`warband build` as a command: its options, what it refuses before serving anything (an
unknown ruleset, a file outside the folder, a port taken, the extra missing), the address it
prints (a free port of this machine, with the session's key), and how it stops (Ctrl-C: 130,
SIGTERM: 143). Importing the command line loads neither Starlette nor uvicorn."""

from __future__ import annotations

import os
import re
import signal
import socket
import subprocess
import sys
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from typer.testing import CliRunner

from builder_client import ROOT, needs_build
from warband.cli import app

ENV = {**os.environ, "PYTHONPATH": str(ROOT / "toolkit")}


def test_importing_the_command_line_loads_no_web_server():
    script = ("import sys, warband.cli; from warband.cli import app; "
              "print(sorted(m for m in sys.modules if m.split('.')[0] in ('starlette', "
              "'uvicorn') or m.startswith('warband.builder')))")
    found = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                           env=ENV, check=True)
    assert found.stdout.strip() == "[]"


def test_the_help_names_every_option():
    shown = CliRunner().invoke(app, ["build", "--help"], env={"COLUMNS": "120"})
    assert shown.exit_code == 0
    for option in ("--dir", "--host", "--port", "--no-open", "RULESET | FILE.yaml"):
        assert option in shown.output
    assert "build" in CliRunner().invoke(app, ["--help"]).output


def test_without_the_extra_it_says_how_to_install_it(monkeypatch):
    from warband.cli import build
    real = build.importlib.util.find_spec
    monkeypatch.setattr(build.importlib.util, "find_spec",
                        lambda name, *a: None if name == "uvicorn" else real(name, *a))
    result = CliRunner().invoke(app, ["build", "super-simple-skirmish", "--no-open"])
    assert result.exit_code == 2
    assert "error[E930]: the list builder needs uvicorn, which is not installed" in result.output
    assert "-m pip install" in result.output and "warband-toolkit[build]" in result.output


@needs_build
@pytest.mark.parametrize(("args", "code", "words"), [
    (["super-simple-skirmsh"], "E404", "did you mean 'super-simple-skirmish'?"),
    (["nosuch.rules"], "E100", "nosuch.rules"),
    (["nosuch.yaml"], "E100", "no such warband file: nosuch.yaml"),
    (["warbands/the-family.yaml", "--dir", "dsl"], "E901", "is not in the folder dsl"),
    (["super-simple-skirmish", "--dir", "nosuch"], "E901", "nosuch is not a folder"),
    (["tests/warband_errors/broken.rules"], "E", "have errors"),
    (["tests/warband_errors/tab_indent.yaml"], "E", "cannot be opened"),
])
def test_what_it_refuses_before_serving(args, code, words, monkeypatch):
    monkeypatch.chdir(ROOT)
    result = CliRunner().invoke(app, ["build", *args, "--no-open"])
    assert result.exit_code == 2, result.output
    assert f"error[{code}" in result.output and words in result.output, result.output
    assert "Traceback" not in result.output


@needs_build
def test_a_port_taken_is_refused(tmp_path):
    taken = socket.socket()
    taken.bind(("127.0.0.1", 0))
    taken.listen(1)
    port = taken.getsockname()[1]
    try:
        result = CliRunner().invoke(app, ["build", "super-simple-skirmish", "--no-open",
                                          "--port", str(port), "--dir", str(tmp_path)])
    finally:
        taken.close()
    assert result.exit_code == 2
    assert f"error[E930]: cannot listen on 127.0.0.1:{port}" in result.output
    assert "give another --port" in result.output


def start(folder: Path, *args: str) -> tuple[subprocess.Popen, str, str]:
    process = subprocess.Popen([sys.executable, "-m", "warband", "build", *args, "--no-open",
                                "--dir", str(folder)], stderr=subprocess.PIPE, text=True,
                               env=ENV, cwd=folder)
    assert process.stderr is not None
    first = process.stderr.readline()
    found = re.search(r"http://(\S+?)/\?token=(\S+)", first)
    if found is None:
        lines = first + process.stderr.readline()
        found = re.search(r"http://(\S+?)/\?token=(\S+)", lines)
        first = lines
    assert found, first
    return process, found.group(1), first


class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


@needs_build
@pytest.mark.parametrize(("stop", "code", "said"), [
    (signal.SIGINT, 130, "warband build: stopped"), (signal.SIGTERM, 143, "warband: terminated")])
def test_it_serves_on_a_free_local_port_until_stopped(tmp_path, stop, code, said):
    process, where, first = start(tmp_path, "fogbound")
    try:
        assert re.fullmatch(r"127\.0\.0\.1:\d+", where)
        assert f"it reads and writes in {os.path.realpath(tmp_path)}" in \
            first + process.stderr.readline()
        url = re.search(r"http://\S+", first).group(0)
        opener = urllib.request.build_opener(NoRedirect)
        with pytest.raises(urllib.error.HTTPError) as refused:
            opener.open(f"http://{where}/")
        assert refused.value.code == 403
        with pytest.raises(urllib.error.HTTPError) as moved:
            opener.open(url)
        assert moved.value.code == 303
        cookie = moved.value.headers["set-cookie"].split(";")[0]
        page = opener.open(urllib.request.Request(f"http://{where}/",
                                                  headers={"Cookie": cookie})).read().decode()
        assert "Fogbound: rival guilds in a city of fog" in page and "Guildmaster" in page
    finally:
        process.send_signal(stop)
        _, err = process.communicate(timeout=30)
    assert process.returncode == code, err
    assert said in err and "Traceback" not in err


@needs_build
def test_another_host_is_warned_about(tmp_path):
    process, where, first = start(tmp_path, "--host", "0.0.0.0")
    try:
        assert first.startswith("warning: the list builder listens on 0.0.0.0")
        assert re.fullmatch(r"0\.0\.0\.0:\d+", where)
    finally:
        process.send_signal(signal.SIGTERM)
        process.communicate(timeout=30)


@needs_build
@pytest.mark.parametrize("args", [
    ["--port", "-1"], ["--port", "9" * 50], ["--port", "70000"], ["/dev/null"], [""], ["-"],
    ["\u202ex.yaml"], ["tests/warband_errors/alias_bomb.yaml"], ["dsl"], ["--dir", ""],
    ["warbands/the-family.yaml", "--dir", "/dev/null"], ["--host", "no such host"],
])
def test_strange_command_lines_are_refused_without_a_traceback(args, monkeypatch):
    monkeypatch.chdir(ROOT)
    result = CliRunner().invoke(app, ["build", *args, "--no-open"])
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output and result.exception is None or \
        isinstance(result.exception, SystemExit), result.output
