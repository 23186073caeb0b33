"""SIGTERM (what `kill`, `timeout` and a cancelled CI job send) takes the path an interrupt takes:
a write in flight leaves no temporary file and the target as it was, `simulate --workers N`
leaves no worker process and no resource tracker behind, and the command exits 143.

These tests run the real command in a child process (the handler is installed by
`warband.cli.main`) and signal it for real; each takes a second or two.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

psutil = pytest.importorskip("psutil")

ROOT = Path(__file__).resolve().parents[1]
OLD = b"# my own notes: do not lose them\n"

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")


def environment(tmp_path: Path) -> dict:
    # (faulthandler: a child that does not stop is sent SIGABRT, and shows where it was stuck)
    return {**os.environ, "PYTHONPATH": str(ROOT / "toolkit"),
            "WARBAND_CACHE_DIR": str(tmp_path / "cache"), "PYTHONFAULTHANDLER": "1"}


def wait_for(condition, seconds: float = 30.0, what: str = "the child") -> None:
    end = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > end:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.05)


def gone(pids: list[int], seconds: float = 5.0) -> list[int]:
    """The processes of `pids` still alive (zombies of ours count as gone) after waiting."""
    def alive() -> list[int]:
        left = []
        for pid in pids:
            try:
                if psutil.Process(pid).status() != psutil.STATUS_ZOMBIE:
                    left.append(pid)
            except psutil.NoSuchProcess:
                pass
        return left
    end = time.monotonic() + seconds
    while alive() and time.monotonic() < end:
        time.sleep(0.05)
    return alive()


# ---- simulate --workers 2 -----------------------------------------------------------------------

def start_simulation(tmp_path: Path) -> tuple[subprocess.Popen, list[int]]:
    """A long simulation on two workers, once its workers (and the resource tracker) run.

    The command is started as from a terminal, with SIGINT at its default. A process inherits an
    ignored SIGINT (a suite run as `pytest &` by a shell without job control ignores it), and a
    command started so rightly keeps ignoring it: the interrupt test would wait for ever."""
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)   # (exec: SIG_DFL)
    try:
        child = subprocess.Popen(
            [sys.executable, "-m", "warband", "simulate", "sss-standard-game", "--games",
             "1000000", "--workers", "2", "--no-progress"],
            cwd=tmp_path, env=environment(tmp_path), stdout=subprocess.PIPE,
            stderr=subprocess.PIPE, start_new_session=True)
    finally:
        signal.signal(signal.SIGINT, previous)
    parent = psutil.Process(child.pid)

    def workers() -> list:
        return [p for p in parent.children(recursive=True)
                if "spawn_main" in " ".join(p.cmdline())]

    try:
        wait_for(lambda: len(workers()) == 2, what="two workers")
        time.sleep(0.3)   # and let them start playing
        children = [p.pid for p in parent.children(recursive=True)]
    except BaseException:
        os.killpg(child.pid, signal.SIGKILL)
        raise
    return child, children


@pytest.mark.parametrize("how", ["process", "twice", "group"])
def test_sigterm_stops_a_simulation_and_its_workers(tmp_path, how):
    """`process`: kill PID; `twice`: what `timeout` does (the process, then its group);
    `group`: every process of the job, as a CI runner or a shell's job control does."""
    child, children = start_simulation(tmp_path)
    assert len(children) >= 3          # two workers and the resource tracker
    sends = [] if how == "group" else [os.kill]
    sends += [os.killpg] if how in ("twice", "group") else []
    err = stopped(child, signal.SIGTERM, sends)
    assert child.returncode == 143, err.decode()
    assert b"Traceback" not in err, err.decode()
    assert b"terminated" in err
    assert_none_left(children)


def stopped(child: subprocess.Popen, signum: int, sends: list) -> bytes:
    """Send `signum` by each of `sends` (os.kill: the process; os.killpg: its group) and wait
    for the child (killed if it outlives the wait); its standard error."""
    try:
        for send in sends:
            send(child.pid, signum)
        try:
            _, err = child.communicate(timeout=15)
        except subprocess.TimeoutExpired:   # stuck: where? (faulthandler dumps every thread)
            tree = [(p.pid, p.status(), " ".join(p.cmdline())[-60:])
                    for p in psutil.Process(child.pid).children(recursive=True)]
            child.send_signal(signal.SIGABRT)
            try:
                child.wait(timeout=10)
            finally:   # the workers hold its standard error open: they go too
                os.killpg(child.pid, signal.SIGKILL)
            _, err = child.communicate(timeout=10)
            raise AssertionError(f"the command did not stop within 15 s; its processes: {tree}"
                                 f"\nits threads:\n{err.decode(errors='replace')}") from None
    finally:
        if child.poll() is None:
            os.killpg(child.pid, signal.SIGKILL)
    return err


def assert_none_left(children: list) -> None:
    left = gone(children)
    for pid in left:                   # do not leave them to the next test
        os.kill(pid, signal.SIGKILL)
    assert left == [], f"processes left running: {left}"


def test_an_interrupt_stops_the_workers_at_once(tmp_path):
    """SIGINT to the command alone (not a terminal's Ctrl-C, which reaches the workers too):
    exit 130, without waiting for the chunks being played, and no worker left."""
    child, children = start_simulation(tmp_path)
    err = stopped(child, signal.SIGINT, [os.kill])
    assert child.returncode == 130, err.decode()
    assert_none_left(children)


# ---- writes in flight ---------------------------------------------------------------------------

# The child runs the real `main`, with os.fsync made to stop in the middle of the write (the data
# is in the temporary file, not yet in place) and to say so by making a marker file; only the
# first time: a clean-up may flush too.
IN_FLIGHT = """
import os, sys, time
marker = sys.argv.pop(1)
real = os.fsync
def stuck(fd):
    if os.path.exists(marker):   # the clean-up's own flush
        return real(fd)
    open(marker, "w").close()
    time.sleep(60)
os.fsync = stuck
from warband.cli import main
sys.argv[0] = "warband"
main()
"""

WRITERS = {
    "fmt": (["fmt", "messy.yaml"], "messy.yaml"),
    "roster": (["roster", "sas.yaml", "--format", "markdown", "-o", "out.txt", "--force"],
               "out.txt"),
    "roster-new": (["roster", "sas.yaml", "--format", "markdown", "-o", "new.txt"], "new.txt"),
    # a file with hard links, written in place: the original content is written back
    "fmt-in-place": (["fmt", "--force", "messy.yaml"], "messy.yaml"),
}


@pytest.mark.parametrize("name", sorted(WRITERS))
def test_sigterm_while_writing_leaves_the_original_and_no_temporary_file(tmp_path, name):
    shutil.copy(ROOT / "warbands" / "greedy-dudes.yaml", tmp_path / "sas.yaml")
    shutil.copy(ROOT / "tests" / "fmt_cases" / "messy.yaml", tmp_path / "messy.yaml")
    (tmp_path / "out.txt").write_bytes(OLD)
    args, target = WRITERS[name]
    before = (tmp_path / target).read_bytes() if (tmp_path / target).exists() else None
    if name == "fmt-in-place":
        os.link(tmp_path / target, tmp_path / "other-name.yaml")
    marker = tmp_path / "writing"
    child = subprocess.Popen([sys.executable, "-c", IN_FLIGHT, str(marker), *args],
                             cwd=tmp_path, env=environment(tmp_path), stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE)
    try:
        wait_for(marker.exists, what="the write to start")
        if name == "fmt-in-place":    # the new content is in, not yet flushed
            assert (tmp_path / target).read_bytes() != before
        else:                         # the new content is in the temporary file
            assert [p.name for p in tmp_path.iterdir() if p.name.endswith(".tmp")]
        child.send_signal(signal.SIGTERM)
        _, err = child.communicate(timeout=15)
    finally:
        if child.poll() is None:
            child.kill()
    assert child.returncode == 143, err.decode()
    assert b"Traceback" not in err, err.decode()
    assert [p.name for p in tmp_path.iterdir() if p.name.endswith(".tmp")] == []
    if before is None:
        assert not (tmp_path / target).exists()
    else:
        assert (tmp_path / target).read_bytes() == before
    if name == "fmt-in-place":
        assert (tmp_path / "other-name.yaml").read_bytes() == before


def test_sigterm_before_any_write_exits_143(tmp_path):
    """A command stopped while it works (here: waiting on its standard input)."""
    child = subprocess.Popen([sys.executable, "-m", "warband", "validate", "-"], cwd=tmp_path,
                             env=environment(tmp_path), stdin=subprocess.PIPE,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        time.sleep(1.0)
        child.send_signal(signal.SIGTERM)
        _, err = child.communicate(timeout=15)
    finally:
        if child.poll() is None:
            child.kill()
    assert child.returncode == 143, err.decode()
    assert b"Traceback" not in err
