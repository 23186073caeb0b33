"""`warband simulate` and the runner behind it, played with the toy engine in simulate_toy.py.

What a user relies on: the same seed gives the same figures whatever runs the games (one
process, a pool, a Dask cluster), the figures are right, and every failure is a located
diagnostic that names what to replay.
"""

from __future__ import annotations

import json
import math
import os
import socket
import statistics
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

import simulate_toy
from warband.cli import app
from warband.game.report import render_json
from warband.game.results import GameResult, PlayRequest
from warband.game.simulate import (
    CHUNK_SIZE,
    GameFailed,
    SchedulerError,
    WorkerLost,
    chunk_seed,
    chunks,
    game_seeds,
    resolve_workers,
    simulate,
)
from warband.game.tally import Summary, wilson_interval

ROOT = Path(__file__).resolve().parents[1]
GOLDEN = ROOT / "tests" / "cli_golden"
SKIRMISH = PlayRequest("skirmish")


def run(*args: str):
    return CliRunner().invoke(app, ["simulate", *args])


@pytest.fixture
def toy(monkeypatch):
    """The command line plays the toy engine (the documented WARBAND_ENGINE hook)."""
    monkeypatch.setenv("WARBAND_ENGINE", "simulate_toy")


def toy_results(seeds) -> list[GameResult]:
    return [simulate_toy.play(SKIRMISH, s) for s in seeds]


# ---- seeds and chunks ---------------------------------------------------------------------------

def test_a_seed_means_the_same_games_in_every_version():
    # Pinned: changing the derivation would silently change every published result.
    assert chunk_seed(1, 0) == 0x93D1584C1EBB0974
    assert game_seeds(1, 0, 3) == [1561493909251307, 6696706323376654, 4034305899226912]
    assert game_seeds(1, 0, 3) == game_seeds(1, 0, 5)[:3]
    assert game_seeds(1, 0, 3) != game_seeds(1, 1, 3) != game_seeds(2, 0, 3)
    assert all(0 <= s < 2 ** 53 for s in game_seeds(12345, 7, 100))


def test_chunks_depend_on_the_games_and_the_chunk_size_only():
    assert list(chunks(120, 50)) == [(0, 0, 50), (1, 50, 50), (2, 100, 20)]
    assert list(chunks(50, 50)) == [(0, 0, 50)]
    assert list(chunks(1, 50)) == [(0, 0, 1)]
    assert len(chunks(120, 50)) == 3 and len(chunks(100, 50)) == 2
    assert len(chunks(10 ** 12, 50)) == 2 * 10 ** 10


def test_same_seed_same_games_whatever_the_number_of_workers():
    runs = [simulate(SKIRMISH, 230, 11, workers=w, play=simulate_toy.play, chunk_size=40,
                     keep_results=True, objectives=simulate_toy.OBJECTIVES) for w in (1, 2, 3)]
    assert runs[0].games == 230 and len(runs[0].results) == 230
    assert runs[0].results == runs[1].results == runs[2].results
    assert runs[0] == runs[1] == runs[2]
    assert render_json(runs[0]) == render_json(runs[1]) == render_json(runs[2])


def test_more_games_extend_a_run_without_changing_its_first_games():
    short = simulate(SKIRMISH, 120, 5, play=simulate_toy.play, keep_results=True)
    long = simulate(SKIRMISH, 170, 5, play=simulate_toy.play, keep_results=True)
    assert long.results[:120] == short.results
    expected = [s for i, _, n in chunks(170, CHUNK_SIZE) for s in game_seeds(5, i, n)]
    assert [r.seed for r in long.results] == expected


def test_a_worker_compiles_the_scenario_once():
    simulate_toy.prepare.cache_clear()
    simulate_toy.PREPARED.clear()
    simulate(SKIRMISH, 200, 1, play=simulate_toy.play, chunk_size=20)
    assert simulate_toy.PREPARED == [SKIRMISH]


def test_auto_workers_is_every_core():
    assert resolve_workers("auto") == resolve_workers(0) >= 1
    assert resolve_workers(3) == 3


# ---- the figures --------------------------------------------------------------------------------

@pytest.mark.parametrize("successes,trials,low,high", [
    # Newcombe (1998), "Two-sided confidence intervals for the single proportion", method 3
    (81, 263, 0.2553, 0.3662),
    (15, 148, 0.0624, 0.1605),
    (0, 20, 0.0, 0.1611),
    (1, 29, 0.0061, 0.1718),
    (50, 100, 0.4038, 0.5962),
])
def test_wilson_interval_matches_published_values(successes, trials, low, high):
    got = wilson_interval(successes, trials)
    assert got == pytest.approx((low, high), abs=5e-5)


def test_summary_figures_agree_with_a_count_by_hand():
    results = toy_results(game_seeds(3, 0, 400))
    summary = Summary()
    for i, r in enumerate(results):
        summary.add(i, r)
    for side in simulate_toy.SIDES:
        scores = [r.scores[side] for r in results]
        assert summary.tallies[side].wins == sum(r.winner == side for r in results)
        assert summary.mean_score(side) == pytest.approx(statistics.mean(scores))
        assert summary.score_sd(side) == pytest.approx(statistics.stdev(scores))
        archers = sum(r.kills[side].get("Archer", 0) for r in results)
        assert summary.lost_per_game(side)["Archer"] == pytest.approx(archers / 400)
    assert summary.draws == sum(r.winner is None for r in results) > 0
    assert summary.rounds_min == min(r.rounds for r in results)
    assert summary.rounds_max == max(r.rounds for r in results)
    assert summary.mean_rounds() == pytest.approx(statistics.mean(r.rounds for r in results))
    stuck = [i for i, r in enumerate(results) if r.stuck]
    assert summary.stuck_count == summary.ended["stuck"] == len(stuck) > 0
    assert [s.game for s in summary.stuck] == stuck[:20]
    summary.objectives = simulate_toy.OBJECTIVES
    assert summary.never_scored() == ["banner"]


def test_the_report_shows_names_from_files_as_text_with_controls_escaped():
    """A scenario's path, an objective's or a class's name and a stuck game's reason come from
    files: in the report's tables they are text (rich markup such as '[/]' raised MarkupError:
    a traceback), with control characters escaped (issue 18)."""
    from warband.game.report import render_text
    from warband.game.tally import StuckGame
    results = toy_results(game_seeds(3, 0, 40))
    summary = Summary()
    for i, r in enumerate(results):
        summary.add(i, r)
    summary.objectives = ("[/] \x1b[2Jgone",)
    summary.stuck = [StuckGame(0, 1, "round 1: [bold]\x1b[8mhidden")]
    summary.stuck_count = 1
    text = render_text(summary, "odd\x1b]0;title\x07.rules")
    assert "\x1b" not in text and "\x07" not in text
    assert "[/] \\x1b[2Jgone" in text and "[bold]\\x1b[8mhidden" in text
    assert "odd\\x1b]0;title\\x07.rules" in text


@settings(max_examples=40, deadline=None)
@given(st.lists(st.integers(0, 60), max_size=5))
def test_summaries_merge_exactly(cuts):
    results = toy_results(game_seeds(9, 0, 60))
    whole = Summary()
    for i, r in enumerate(results):
        whole.add(i, r, keep=True)
    bounds = [0, *sorted(cuts), 60]
    merged = Summary()
    for a, b in zip(bounds, bounds[1:]):
        part = Summary()
        for i in range(a, b):
            part.add(i, results[i], keep=True)
        merged.merge(part)
    assert merged == whole


def test_policies_and_max_rounds_reach_the_engine():
    plain = simulate(SKIRMISH, 300, 2, play=simulate_toy.play)
    greedy = simulate(PlayRequest("skirmish", (("Red", "greedy"),), max_rounds=3), 300, 2,
                      play=simulate_toy.play)
    assert greedy.win_rate("Red") > plain.win_rate("Red") + 0.1
    assert plain.rounds_max == 8 and greedy.rounds_max == 3


# ---- failures in the library --------------------------------------------------------------------

def test_a_failing_game_names_its_seed():
    with pytest.raises(GameFailed) as caught:
        simulate(PlayRequest("explodes"), 100, 1, play=simulate_toy.play)
    seeds = [s for i, _, n in chunks(100, CHUNK_SIZE) for s in game_seeds(1, i, n)]
    first = next(i for i, s in enumerate(seeds) if s % 5 == 0)
    assert (caught.value.game, caught.value.seed) == (first, seeds[first])
    assert "ZeroDivisionError: the toy divided by zero" in str(caught.value)


def test_a_failing_game_in_a_worker_process_names_its_seed():
    with pytest.raises(GameFailed) as caught:
        simulate(PlayRequest("explodes"), 200, 1, workers=2, play=simulate_toy.play)
    assert caught.value.seed % 5 == 0


def test_a_play_function_that_cannot_reach_a_process_is_named():
    with pytest.raises(TypeError, match="play and the request must pickle"):
        simulate(SKIRMISH, 100, 1, workers=2, play=lambda request, seed: None)


def test_a_worker_that_dies_is_reported():
    with pytest.raises(WorkerLost):
        simulate(PlayRequest("dies"), 100, 1, workers=2, play=simulate_toy.play)


# ---- Dask ---------------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def cluster():
    distributed = pytest.importorskip("distributed")
    # (":0": the scheduler's HTTP server on a free port; with None it still takes 8787, and
    # the second cluster below, started while this one runs, warned that 8787 was taken)
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=":0") as local:
        yield local.scheduler_address


def test_a_dask_cluster_plays_the_same_games(cluster):
    here = simulate(SKIRMISH, 230, 4, play=simulate_toy.play, chunk_size=30,
                    keep_results=True)
    there = simulate(SKIRMISH, 230, 4, scheduler=cluster, play=simulate_toy.play,
                     chunk_size=30, keep_results=True)
    assert there.results == here.results
    assert there == here


def test_the_command_on_a_dask_cluster_prints_the_local_figures(cluster, toy):
    local = run("skirmish", "--games", "120", "--format", "json")
    remote = run("skirmish", "--games", "120", "--format", "json", "--scheduler", cluster)
    assert local.exit_code == remote.exit_code == 0, remote.output
    assert remote.stdout == local.stdout


def test_a_failing_game_on_a_dask_cluster_names_its_seed(cluster):
    with pytest.raises(GameFailed) as caught:
        simulate(PlayRequest("explodes"), 100, 1, scheduler=cluster, play=simulate_toy.play)
    assert caught.value.seed % 5 == 0


def test_a_cluster_that_loses_its_workers_is_an_error_not_a_wait(monkeypatch):
    import threading

    import warband.game.simulate
    distributed = pytest.importorskip("distributed")
    monkeypatch.setattr(warband.game.simulate, "WATCH_INTERVAL", 0.5)
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=True,
                                  dashboard_address=":0") as local:
        outcome, started = [], threading.Event()

        def play_on_the_cluster() -> None:
            try:
                simulate(PlayRequest("slow"), 400, 1, scheduler=local.scheduler_address,
                         play=simulate_toy.play, chunk_size=10,
                         progress=lambda done, total: started.set())
            except Exception as error:
                outcome.append(error)
        player = threading.Thread(target=play_on_the_cluster)
        player.start()
        assert started.wait(timeout=60)
        local.scale(0)
        player.join(timeout=60)
        assert not player.is_alive()
    assert len(outcome) == 1 and isinstance(outcome[0], SchedulerError), outcome
    assert "no workers left" in str(outcome[0])


def test_a_scheduler_that_dies_mid_run_is_named_with_no_dask_traceback(tmp_path, capfd):
    """Found by hand: killing the scheduler mid-run printed Dask's reconnection tracebacks
    (its client logs each try) and then E915 blaming "a worker"."""
    import threading
    import time

    pytest.importorskip("distributed")
    port = _closed_port()
    address = f"tcp://127.0.0.1:{port}"
    dask = [sys.executable, "-m", "distributed.cli.dask_scheduler"]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    scheduler = subprocess.Popen([*dask, "--port", str(port), "--no-dashboard"], env=env,
                                 stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    worker = subprocess.Popen([sys.executable, "-m", "distributed.cli.dask_worker", address,
                               "--nthreads", "1", "--no-dashboard"], env=env,
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        import distributed
        with distributed.Client(address, timeout=60, set_as_default=False) as client:
            client.wait_for_workers(1, timeout=60)   # (the cluster up before the run)
        outcome, started = [], threading.Event()

        def play_on_the_cluster() -> None:
            try:
                simulate(PlayRequest("slow"), 400, 1, scheduler=address,
                         play=simulate_toy.play, chunk_size=10,
                         progress=lambda done, total: started.set())
            except Exception as error:
                outcome.append(error)
        deadline = time.monotonic() + 60
        player = threading.Thread(target=play_on_the_cluster)
        player.start()
        while not started.wait(timeout=1) and player.is_alive() and time.monotonic() < deadline:
            pass
        assert started.is_set(), outcome
        scheduler.kill()
        player.join(timeout=90)
        assert not player.is_alive()
    finally:
        for process in (scheduler, worker):
            process.kill()
            process.wait(10)
    assert len(outcome) == 1 and isinstance(outcome[0], SchedulerError), outcome
    assert "connection to the scheduler was lost" in str(outcome[0])
    assert "Traceback" not in capfd.readouterr().err


@pytest.mark.parametrize("frozen", ["scheduler", "worker"])
def test_a_frozen_scheduler_or_worker_is_named_not_waited_on(monkeypatch, frozen):
    """Issue 33, item 4: a Dask scheduler or worker that stops answering without dying
    (SIGSTOP, a paused machine, a silent network split) hung `simulate --scheduler` for good
    (600 s and counting); a killed one was already E913. Now the scheduler is asked, with a
    timeout, while nothing finishes, and a worker whose heartbeats stop is named."""
    import signal
    import threading
    import time

    import warband.game.simulate as module
    pytest.importorskip("distributed")
    if not hasattr(signal, "SIGSTOP"):
        pytest.skip("no SIGSTOP here")
    monkeypatch.setattr(module, "WATCH_INTERVAL", 0.5)
    monkeypatch.setattr(module, "ANSWER_TIMEOUT", 2, raising=False)
    monkeypatch.setattr(module, "SILENT_WORKER", 4, raising=False)
    port = _closed_port()
    address = f"tcp://127.0.0.1:{port}"
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    scheduler = subprocess.Popen([sys.executable, "-m", "distributed.cli.dask_scheduler",
                                  "--port", str(port), "--no-dashboard"], env=env,
                                 stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    worker = subprocess.Popen([sys.executable, "-m", "distributed.cli.dask_worker", address,
                               "--nthreads", "1", "--no-dashboard", "--no-nanny"], env=env,
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    stopped = scheduler if frozen == "scheduler" else worker   # (no nanny: the worker itself)
    try:
        import distributed
        with distributed.Client(address, timeout=60, set_as_default=False) as client:
            client.wait_for_workers(1, timeout=60)
        outcome, started = [], threading.Event()

        def play_on_the_cluster() -> None:
            try:
                simulate(PlayRequest("slow"), 400, 1, scheduler=address,
                         play=simulate_toy.play, chunk_size=10,
                         progress=lambda done, total: started.set())
            except Exception as error:
                outcome.append(error)
        player = threading.Thread(target=play_on_the_cluster, daemon=True)
        player.start()
        assert started.wait(timeout=60), outcome
        os.kill(stopped.pid, signal.SIGSTOP)
        began = time.monotonic()
        player.join(timeout=30)
        took = time.monotonic() - began
        assert not player.is_alive(), "simulate waited on a frozen " + frozen
    finally:
        for process in (scheduler, worker):
            os.kill(process.pid, signal.SIGCONT)
            process.kill()
            process.wait(10)
    assert len(outcome) == 1 and isinstance(outcome[0], SchedulerError), outcome
    said = str(outcome[0])
    if frozen == "scheduler":
        assert "the scheduler did not answer within 2 seconds" in said
    else:
        assert "has not answered the scheduler for" in said and "the worker tcp://" in said
    assert took < 25


def _closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_an_unreachable_scheduler_is_a_clean_error(toy):
    pytest.importorskip("distributed")
    address = f"tcp://127.0.0.1:{_closed_port()}"
    with pytest.raises(SchedulerError):
        simulate(SKIRMISH, 10, 1, scheduler=address, play=simulate_toy.play)
    result = run("skirmish", "--scheduler", address)
    assert result.exit_code == 2
    assert f"--scheduler:1:1: error[E913]: cannot use the scheduler at {address}: cannot " \
           "connect" in result.stderr
    assert "dask scheduler" in result.stderr and "Traceback" not in result.stderr


@pytest.mark.parametrize("address", ["tcp://[::1", "tcp://127.0.0.1:99999", "tcp://host:0",
                                     "tcp://[::1]:8786x", "tcp://a:b:1"])
def test_a_malformed_scheduler_address_is_a_clean_error(toy, address):
    # (a bracket left open and a port past 65535 passed the old pattern, and urllib's
    # ValueError came out as a traceback)
    result = run("skirmish", "--scheduler", address)
    assert result.exit_code == 2
    assert f"error[E913]: '{address}' is not a scheduler address" in result.stderr
    assert "Traceback" not in result.stderr


# ---- the command line ---------------------------------------------------------------------------

def test_json_report(golden, toy):
    result = run("skirmish", "--games", "200", "--seed", "7", "--policy", "Red=greedy",
                 "--format", "json")
    assert result.exit_code == 0, result.output
    golden(GOLDEN / "simulate.json", result.stdout)
    data = json.loads(result.stdout)
    assert list(data) == ["scenario", "games", "seed", "chunk_size", "policies", "max_rounds",
                          "side_files", "sides", "draws", "rounds", "ended", "never_scored", "stuck"]
    assert data["never_scored"] == ["banner"]
    assert sum(data["ended"].values()) == 200
    assert data["stuck"]["count"] == len(data["stuck"]["games"]) > 0
    assert result.stderr == ""


def test_text_report(golden, toy):
    result = run("skirmish", "--games", "200", "--seed", "7", "--max-rounds", "6")
    assert result.exit_code == 0, result.output
    golden(GOLDEN / "simulate.txt", result.stdout)
    assert "\x1b[" not in result.stdout


def test_workers_do_not_change_the_report(toy):
    one = run("skirmish", "--games", "150", "--format", "json")
    two = run("skirmish", "--games", "150", "--format", "json", "--workers", "2")
    assert one.exit_code == two.exit_code == 0, two.output
    assert one.stdout == two.stdout


def test_a_stuck_game_replays_from_its_seed(toy):
    report = json.loads(run("skirmish", "--games", "200", "--format", "json").stdout)
    stuck = report["stuck"]["games"][0]
    replay = run("skirmish", "--replay", str(stuck["seed"]), "--format", "json")
    assert replay.exit_code == 0, replay.output
    game = json.loads(replay.stdout)
    assert game["seed"] == stuck["seed"] and game["ended"] == "stuck"
    assert game["stuck"] == stuck["why"]
    text = run("skirmish", "--replay", str(stuck["seed"]))
    assert f"seed {stuck['seed']}:" in text.stdout and "stuck: Blue had no legal action" \
        in text.stdout


def test_bad_options_are_located_with_hints(golden, toy):
    result = run("skirmish", "--games", "lots", "--seed", "-1", "--workers", "two",
                 "--max-rounds", "0", "--chunk-size", "0", "--policy", "Red",
                 "--policy", "Blue=greedy", "--policy", "Blue=random")
    assert result.exit_code == 2
    golden(GOLDEN / "simulate_bad_options.txt", result.stderr)
    assert "error[E910]" in result.stderr and "error[E911]" in result.stderr


def test_a_bad_scheduler_address_is_located(toy):
    result = run("skirmish", "--scheduler", "localhost:8786")
    assert result.exit_code == 2
    assert "--scheduler:1:1: error[E913]: 'localhost:8786' is not a scheduler address" \
        in result.stderr
    result = run("skirmish", "--scheduler", "tcp://127.0.0.1:8786", "--workers", "2")
    assert result.exit_code == 2
    assert "--workers and --scheduler do not go together" in result.stderr


def test_a_failing_game_is_a_clean_error_naming_the_seed(toy):
    result = run("explodes", "--games", "100", "--policy", "Red=greedy")
    assert result.exit_code == 2
    assert "error[E914]: game " in result.stderr and "Traceback" not in result.stderr
    seed = int(result.stderr.split("(seed ")[1].split(")")[0])
    assert seed % 5 == 0
    assert f"replay it alone: warband simulate explodes --policy Red=greedy --replay {seed}" \
        in result.stderr
    replay = run("explodes", "--replay", str(seed))
    assert replay.exit_code == 2
    assert f"error[E914]: the game with seed {seed} failed: ZeroDivisionError" in replay.stderr


def test_a_worker_process_that_dies_is_a_clean_error(toy):
    result = run("dies", "--games", "100", "--workers", "2")
    assert result.exit_code == 2
    assert "error[E915]: a worker stopped" in result.stderr


def test_an_engine_that_returns_nonsense_is_named(toy):
    result = run("nonsense", "--games", "10")
    assert result.exit_code == 2
    assert "returned dict, not a GameResult" in result.stderr
    result = run("strangers", "--games", "10")
    assert result.exit_code == 2
    assert "names 'Green', which is not one of its sides (Red, Blue)" in result.stderr


def test_the_engines_diagnostics_are_shown_as_they_are(toy, monkeypatch):
    result = run("unknown", "--games", "10")
    assert result.exit_code == 2
    assert result.stderr.startswith("SCENARIO:1:1: error[E404]: unknown scenario 'unknown'")
    assert "did you mean 'skirmish'?" in result.stderr
    monkeypatch.delattr(simulate_toy, "objectives")   # so the first game finds it, in a worker
    in_a_worker = run("unknown", "--games", "100", "--workers", "2")
    assert in_a_worker.exit_code == 2
    assert in_a_worker.stderr == result.stderr


def test_a_missing_engine_is_a_clean_error(monkeypatch):
    monkeypatch.setenv("WARBAND_ENGINE", "no_such_engine_module")
    result = run("skirmish")
    assert result.exit_code == 2
    assert result.stderr.startswith("error[E912]: the game engine (no_such_engine_module) is "
                                    "not available")


def _subprocess(*args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "WARBAND_ENGINE": "simulate_toy",
           "PYTHONPATH": os.pathsep.join([str(ROOT / "toolkit"), str(ROOT / "tests"),
                                          os.environ.get("PYTHONPATH", "")])}
    return subprocess.run([sys.executable, "-m", "warband", "simulate", *args], env=env,
                          capture_output=True, text=True, timeout=120)


def test_progress_goes_to_standard_error_only():
    shown = _subprocess("skirmish", "--games", "300", "--format", "json", "--progress")
    assert shown.returncode == 0, shown.stderr
    assert json.loads(shown.stdout)["games"] == 300
    assert "300/300" in shown.stderr and "games" in shown.stderr
    quiet = _subprocess("skirmish", "--games", "300", "--format", "json")
    assert quiet.stdout == shown.stdout
    assert quiet.stderr == ""   # not a terminal: no bar unless asked


def test_interval_and_rate_are_consistent_in_the_report(toy):
    data = json.loads(run("skirmish", "--games", "500", "--format", "json").stdout)
    for side in data["sides"].values():
        low, high = side["win_rate_95"]
        assert low <= side["win_rate"] <= high
        assert math.isclose(side["win_rate"], side["wins"] / 500)


# (the docs' simulate examples, text and JSON, are run by tests/test_docs.py, as every
# command the docs show)


def test_a_slow_first_chunk_does_not_let_the_others_pile_up():
    import concurrent.futures as cf
    import threading

    from warband.game.simulate import _Fold, _run_on
    first_seed = game_seeds(1, 0, 1)[0]
    chunk_of = {s: i for i, _, n in chunks(1000, 10) for s in game_seeds(1, i, n)}
    started, release = set(), threading.Event()
    seen_when_released = []

    def play(request, seed):
        started.add(chunk_of[seed])
        if seed == first_seed:
            release.wait(timeout=1)      # chunk 0 is slow: the others finish first
            seen_when_released.append(len(started))
        return simulate_toy.play(request, seed)

    def finished(index, part):
        fold.put(index, part)
        if len(started) >= 40:
            release.set()
    fold = _Fold(Summary())
    with cf.ThreadPoolExecutor(2) as pool:
        _run_on(pool, chunks(1000, 10), play, SKIRMISH, 1, False, finished, 2)
    assert fold.result().games == 1000
    assert seen_when_released[0] <= 8 * 2 + 2   # not all 100 chunks ran ahead of chunk 0
