"""Play one scenario many times, in chunks, on this machine or a cluster, and tally the games.

The engine's worker function is `play(request, seed) -> GameResult` (see results.py); this
module only splits the games into chunks, seeds them, hands the chunks to an executor and
merges what comes back.

Reproducibility: the games are cut into chunks of a fixed size (CHUNK_SIZE unless told
otherwise) whatever the number of workers. Chunk i draws its seed from SHA-256 of (S, i), where
S is the user's seed, and game j of the chunk takes the j-th number of a `random.Random` seeded
with the chunk's seed. So a game's seed depends only on S, the chunk size and the game's number:
one worker, eight processes or a Dask cluster play the very same games, and chunk summaries are
folded in chunk order so that even the floating-point sums come out the same.

A play function that compiles its scenario should cache it per process, e.g. with
`functools.lru_cache` on a top-level function of the PlayRequest (frozen, hence hashable):
every worker process then compiles once and reuses it for all its chunks.
"""

from __future__ import annotations

import concurrent.futures as cf
import hashlib
import os
import random
from typing import Callable, Iterable, Iterator

from warband.game.results import GameResult, PlayRequest
from warband.game.tally import Summary

CHUNK_SIZE = 50          # games per chunk: part of what a seed means (reported with the seed)
SEED_BITS = 53           # game seeds stay exact in JSON readers that use doubles
CONNECT_TIMEOUT = 10     # seconds to wait for a Dask scheduler
WATCH_INTERVAL = 10      # seconds without a finished chunk before a cluster is checked
ANSWER_TIMEOUT = 10      # seconds a scheduler has to answer that check
SILENT_WORKER = 30       # seconds a worker may go without a heartbeat the scheduler saw, while
#                          nothing finishes, before it is taken as frozen (SIGSTOP, a paused
#                          machine, a network split: Dask itself waits 5 minutes, or for ever)

PlayFunction = Callable[[PlayRequest, int], GameResult]


# ---- errors: plain data, so that they cross process boundaries ----------------------------------

class SimulationError(Exception):
    """A simulation could not finish; the command line turns these into diagnostics."""


class GameFailed(SimulationError):
    """The play function raised (or returned nonsense) for one game: replay it by its seed."""

    def __init__(self, game: int, seed: int, detail: str, diagnostics: tuple = (),
                 sources: dict | None = None):
        super().__init__(game, seed, detail, diagnostics, sources)
        self.game, self.seed, self.detail = game, seed, detail
        self.diagnostics, self.sources = diagnostics, sources or {}

    def __str__(self) -> str:
        return f"game {self.game + 1} (seed {self.seed}) failed: {self.detail}"


class WorkerLost(SimulationError):
    """A worker (process or cluster node) stopped while it played a chunk."""

    def __init__(self, first: int, last: int, detail: str):
        super().__init__(first, last, detail)
        self.first, self.last, self.detail = first, last, detail

    def __str__(self) -> str:
        return f"a worker stopped while playing games {self.first + 1}-{self.last + 1}: " \
               f"{self.detail}"


class SchedulerError(SimulationError):
    """A Dask scheduler that cannot be used: unreachable, no workers, no `distributed`."""

    def __init__(self, address: str, detail: str, hint: str = ""):
        super().__init__(address, detail, hint)
        self.address, self.detail, self.hint = address, detail, hint

    def __str__(self) -> str:
        return f"cannot use the scheduler at {self.address}: {self.detail}"


# ---- seeds --------------------------------------------------------------------------------------

def chunk_seed(seed: int, index: int) -> int:
    """The seed of chunk `index`: SHA-256 of the user's seed and the index (not `hash()`,
    which differs between processes)."""
    digest = hashlib.sha256(f"warband.simulate:{seed}:{index}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


def game_seeds(seed: int, index: int, count: int) -> list[int]:
    """The seeds of the first `count` games of chunk `index`."""
    stream = random.Random(chunk_seed(seed, index))
    return [stream.getrandbits(SEED_BITS) for _ in range(count)]


class ChunkPlan:
    """(index, first game, number of games) of every chunk: never depends on the workers.
    Lazy, so that a run of a billion games does not first list twenty million chunks."""

    def __init__(self, games: int, chunk_size: int):
        self.games, self.size = games, chunk_size

    def __len__(self) -> int:
        return -(-self.games // self.size)

    def __iter__(self) -> Iterator[tuple[int, int, int]]:
        for i, first in enumerate(range(0, self.games, self.size)):
            yield i, first, min(self.size, self.games - first)


def chunks(games: int, chunk_size: int) -> ChunkPlan:
    return ChunkPlan(games, chunk_size)


# ---- one chunk: the unit of work sent to a worker -----------------------------------------------

def play_game(play: PlayFunction, request: PlayRequest, game: int, seed: int) -> GameResult:
    """One game, its failure turned into GameFailed naming the seed that replays it."""
    try:
        result = play(request, seed)
    except Exception as error:  # the engine's failure, reported with the seed to replay
        raise GameFailed(game, seed, describe_error(error),
                         tuple(getattr(error, "diagnostics", ()) or ()),
                         error_sources(error)) from None
    if not isinstance(result, GameResult):
        raise GameFailed(game, seed, f"the game returned {type(result).__name__}, "
                                     "not a GameResult")
    named = {result.winner} | set(result.scores) | set(result.kills)
    strangers = sorted(n for n in named - set(result.sides) if n is not None)
    if strangers:
        raise GameFailed(game, seed, f"the game's result names '{strangers[0]}', which is "
                                     f"not one of its sides ({', '.join(result.sides)})")
    return result


def run_chunk(play: PlayFunction, request: PlayRequest, seed: int, index: int, first: int,
              count: int, keep: bool = False) -> tuple[int, Summary]:
    """Play the games of one chunk; a top-level function so that any executor can pickle it."""
    summary = Summary()
    for offset, game_seed in enumerate(game_seeds(seed, index, count)):
        summary.add(first + offset, play_game(play, request, first + offset, game_seed), keep)
    return index, summary


def describe_error(error: BaseException) -> str:
    text = str(error)
    return f"{type(error).__name__}: {text}" if text else type(error).__name__


def error_sources(error: BaseException) -> dict:
    sources = getattr(error, "sources", None)
    texts = getattr(sources, "texts", sources)
    return dict(texts) if isinstance(texts, dict) else {}


# ---- executors ----------------------------------------------------------------------------------

def resolve_workers(workers: int | str | None) -> int:
    """A worker count: 0 or "auto" means every core this process may use."""
    if workers in (0, "0", "auto", None):
        try:
            return max(1, len(os.sched_getaffinity(0)))
        except AttributeError:  # not Linux
            return max(1, os.cpu_count() or 1)
    return int(workers)


def connect(address: str, timeout: float = CONNECT_TIMEOUT):
    """A Dask client for a running scheduler, or SchedulerError; waits at most `timeout`
    seconds for the scheduler and then for a first worker."""
    try:
        import distributed  # lazily: optional, and only a --scheduler run needs it
    except ImportError:
        raise SchedulerError(address, "the 'distributed' package is not installed",
                             "install the dask extra: pip install 'warband-toolkit[dask]'")
    _quiet(distributed)
    start = "start one with `dask scheduler` and workers with " \
            f"`dask worker {address}`, or check the address"
    _probe(address, timeout, start)
    try:
        client = distributed.Client(address, timeout=timeout, set_as_default=False)
    except Exception as error:  # distributed raises OSError, TimeoutError and others
        raise SchedulerError(address, f"no scheduler answered ({describe_error(error)})", start)
    try:
        client.wait_for_workers(1, timeout=timeout)
    except (OSError, TimeoutError) as error:
        client.close()
        raise SchedulerError(address, f"the scheduler has no workers ({describe_error(error)})",
                             f"start workers with `dask worker {address}`")
    return client


def _quiet(distributed) -> None:
    """Keep Dask's own log lines (a lost scheduler logs each reconnection try with a
    traceback) off the user's terminal: what went wrong is reported once, as SchedulerError."""
    import logging  # lazily: only a --scheduler run has Dask's loggers to quiet
    names = [n for n in logging.root.manager.loggerDict if n.split(".")[0] == "distributed"]
    for name in ["distributed", *names]:
        logging.getLogger(name).setLevel(logging.CRITICAL + 1)


def _probe(address: str, timeout: float, hint: str) -> None:
    """Fail fast and plainly on an address that refuses, does not resolve, or does not speak
    Dask's protocol, before a Client is made (a Client that fails half-made lingers until
    the interpreter exits)."""
    # lazily: only a --scheduler run probes an address
    import asyncio
    import socket
    from urllib.parse import urlsplit

    from distributed.comm import connect as dask_connect
    where = urlsplit(address)
    try:
        socket.create_connection((where.hostname, where.port), timeout=timeout).close()
    except OSError as error:
        raise SchedulerError(address, f"cannot connect ({error.strerror or error})", hint)

    async def handshake() -> None:
        comm = await dask_connect(address, timeout=timeout)
        await comm.close()
    try:   # in a thread of its own: the caller may already run an event loop (a notebook)
        with cf.ThreadPoolExecutor(1) as thread:
            thread.submit(asyncio.run, asyncio.wait_for(handshake(), timeout + 1)).result()
    except (OSError, asyncio.TimeoutError) as error:
        raise SchedulerError(address, f"no Dask scheduler answered ({describe_error(error)})",
                             hint) from None
    except Exception:  # a garbled handshake: another kind of server listens on that port
        raise SchedulerError(address, "something answers there, but not a Dask scheduler",
                             hint) from None


def simulate(request: PlayRequest, games: int, seed: int, workers: int | str = 1,
             scheduler: str | None = None, play: PlayFunction | None = None,
             progress: Callable[[int, int], None] | None = None,
             chunk_size: int = CHUNK_SIZE, keep_results: bool = False,
             objectives: Iterable[str] | None = None) -> Summary:
    """Play `games` games of the request, seeded from `seed`, and tally them.

    workers: 1 plays in this process; more use a pool of (spawned) processes; 0 or "auto" one
    per core. scheduler: a Dask scheduler address ("tcp://host:port"), used instead of local
    processes. progress(done, total) is called after every finished chunk. The figures depend
    only on (request, games, seed, chunk_size), never on workers or scheduler.
    """
    if play is None:
        from warband.game.worker import play as engine  # lazily: only when a run needs it
        play = engine
    if games < 1 or chunk_size < 1:
        raise ValueError("games and chunk_size must be at least 1")
    plan = chunks(games, chunk_size)
    summary = Summary(request=request, seed=seed, chunk_size=chunk_size,
                      objectives=tuple(objectives) if objectives is not None else None)
    folded = _Fold(summary)
    done = 0

    def finished(index: int, part: Summary) -> None:
        nonlocal done
        folded.put(index, part)
        done += part.games
        if progress is not None:
            progress(done, games)

    workers = resolve_workers(workers)
    if scheduler is None and (workers == 1 or len(plan) == 1):
        for index, first, count in plan:
            finished(*run_chunk(play, request, seed, index, first, count, keep_results))
    elif scheduler is None:
        # lazily: only runs on several processes need them
        import multiprocessing
        import pickle
        try:   # say so here, not as a dead worker: spawned processes import what they run
            pickle.dumps((play, request))
        except Exception as error:
            raise TypeError("with workers > 1, play and the request must pickle (a top-level "
                            f"function of an importable module): {describe_error(error)}") \
                from None
        # spawn everywhere: what works here works on macOS and Windows, and no worker
        # inherits the parent's threads or locks
        others = set(multiprocessing.active_children())
        pool = cf.ProcessPoolExecutor(max_workers=min(workers, len(plan)),
                                      mp_context=multiprocessing.get_context("spawn"))

        def stop() -> None:   # an interrupt or SIGTERM: no waiting for the running chunks
            _stop(set(multiprocessing.active_children()) - others)
            pool.shutdown(wait=True)   # the pool sees its workers gone, fails what was pending

        try:
            _run_on(pool, plan, play, request, seed, keep_results, finished, 2 * workers,
                    stop=stop)
        finally:
            pool.shutdown(wait=True, cancel_futures=True)
    else:
        client = connect(scheduler)
        try:
            width = max(1, sum(w.get("nthreads", 1) for w in
                               client.scheduler_info().get("workers", {}).values()))
            executor = client.get_executor(pure=False)
            heard: dict = {}
            _run_on(executor, plan, play, request, seed, keep_results, finished, 2 * width,
                    watch=lambda: _cluster_trouble(client, scheduler, heard))
        finally:   # (a frozen scheduler answers no goodbye: it is not waited for long)
            _answer(lambda: client.close(timeout=ANSWER_TIMEOUT), ANSWER_TIMEOUT)
    return folded.result()


_NO_ANSWER = object()


def _answer(ask: Callable[[], object], timeout: float):
    """ask(), or _NO_ANSWER when it has not returned within `timeout` seconds (it goes on in a
    thread of its own, which the process does not wait for): a question to a cluster that may
    be frozen, which Dask would wait on for ever."""
    import threading   # lazily: only a cluster's questions need one
    found: list = []

    def run() -> None:
        try:
            found.append((True, ask()))
        except Exception as error:  # noqa: BLE001  # (given back to the asker)
            found.append((False, error))
    thread = threading.Thread(target=run, daemon=True, name="warband-cluster-question")
    thread.start()
    thread.join(timeout)
    if not found:
        return _NO_ANSWER
    ok, value = found[0]
    if not ok:
        raise value
    return value


def _stop(processes) -> None:
    """Stop a pool's worker processes at once (SIGTERM, then SIGKILL for one that lingers) and
    reap them, so that none is left playing, orphaned, after the command ends; the pool's
    shutdown then finds them gone. (The default, shutdown(wait=True), would let every running
    chunk finish first, and a SIGTERM that kills this process without clean-up would leave the
    workers and multiprocessing's resource tracker running for ever.)"""
    for process in processes:
        process.terminate()
    for process in processes:
        process.join(2)
        if process.is_alive():
            process.kill()
            process.join(2)


class _Fold:
    """Merges chunk summaries in chunk order as they arrive in any order, so that float sums
    are added in the same order whatever the executor did."""

    def __init__(self, into: Summary):
        self.into, self.next = into, 0
        self.waiting: dict[int, Summary] = {}

    def put(self, index: int, part: Summary) -> None:
        self.waiting[index] = part
        while self.next in self.waiting:
            self.into.merge(self.waiting.pop(self.next))
            self.next += 1

    def result(self) -> Summary:
        assert not self.waiting, "a chunk was lost"
        return self.into


def _cluster_trouble(client, address: str, heard: dict | None = None) -> None:
    """Raise when the cluster can no longer play: its scheduler gone or silent (frozen: asked,
    it does not answer within ANSWER_TIMEOUT), no worker left, or a worker silent for
    SILENT_WORKER seconds (no heartbeat the scheduler saw: `heard` keeps, by worker, its last
    heartbeat and when that was first seen). A Dask future would otherwise wait for ever."""
    if client.status != "running":
        raise SchedulerError(address, f"the connection to the scheduler was lost "
                                      f"({client.status})",
                             "the scheduler stopped or the network failed: start it again "
                             "(`dask scheduler`), check the address, and run again")
    info = _answer(client.scheduler_info, ANSWER_TIMEOUT)
    if info is _NO_ANSWER:
        raise SchedulerError(address, f"the scheduler did not answer within {ANSWER_TIMEOUT} "
                                      "seconds",
                             "it is stopped or frozen (SIGSTOP, a paused or overloaded "
                             "machine) or the network to it is cut: resume or restart it "
                             "(`dask scheduler`), and run again")
    workers = info.get("workers") if isinstance(info, dict) else None
    if not workers:
        raise SchedulerError(address, "the cluster has no workers left",
                             f"start workers with `dask worker {address}`")
    if heard is None:
        return
    import time   # lazily, as the thread above
    now = time.monotonic()
    for name, worker in workers.items():
        beat = worker.get("last_seen", worker.get("last-seen")) if isinstance(worker, dict) \
            else None
        before = heard.get(name)
        if before is None or before[0] != beat:
            heard[name] = (beat, now)
        elif now - before[1] >= SILENT_WORKER:
            raise SchedulerError(address, f"the worker {name} has not answered the scheduler "
                                          f"for {now - before[1]:.0f} seconds",
                                 "it is stopped or frozen (SIGSTOP, a paused machine) or the "
                                 "network to it is cut: resume or restart it (`dask worker "
                                 f"{address}`), and run again")


def _run_on(executor: cf.Executor, plan, play, request, seed, keep, finished,
            in_flight: int, watch: Callable[[], None] | None = None,
            stop: Callable[[], None] | None = None) -> None:
    """Submit the chunks with at most `in_flight` outstanding; stop everything at the first
    failure (the remaining futures are cancelled). While nothing finishes, `watch()` is
    called every WATCH_INTERVAL seconds and may raise to give up. On an interrupt (an
    exception that is no Exception: KeyboardInterrupt, SIGTERM's), `stop()` is called first,
    before any future is cancelled (a process pool whose workers die fails its pending
    futures, and on Python 3.11 it cannot fail one already cancelled)."""
    todo = iter(plan)
    running: dict[cf.Future, tuple[int, int, int]] = {}
    ahead: tuple[int, int, int] | None = None

    def submit_more() -> None:
        # at most `in_flight` running, and none too far past the first chunk still running:
        # finished chunks wait to be folded in order, and that queue must stay short
        nonlocal ahead
        oldest = min((step[0] for step in running.values()), default=None)
        while len(running) < in_flight:
            step = ahead or next(todo, None)
            ahead = None
            if step is None:
                return
            if oldest is not None and step[0] >= oldest + 8 * in_flight:
                ahead = step
                return
            index, first, count = step
            running[executor.submit(run_chunk, play, request, seed, index, first, count,
                                    keep)] = step
    try:
        submit_more()
        while running:
            done, _ = cf.wait(running, timeout=WATCH_INTERVAL if watch else None,
                              return_when=cf.FIRST_COMPLETED)
            if not done and watch is not None:
                watch()
            for future in sorted(done, key=lambda f: running[f][0]):
                index, first, count = running.pop(future)
                try:
                    outcome = future.result()
                except SimulationError:
                    raise
                except Exception as error:  # a dead process, a lost cluster node
                    if watch is not None:   # (or the whole cluster: its scheduler gone)
                        watch()
                    raise WorkerLost(first, first + count - 1, describe_error(error)) from None
                finished(*outcome)
            submit_more()
    except BaseException as error:
        if stop is not None and not isinstance(error, Exception):
            stop()
        raise
    finally:
        for future in running:
            future.cancel()
