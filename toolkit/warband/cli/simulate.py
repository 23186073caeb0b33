"""`warband simulate`: command-line values in, a report out, an exit code back.

Every bad value is a Diagnostic located in the option's own text (`--games:1:1: error[E910]`),
all of them at once; a game that fails names its seed so that it can be replayed alone.
"""

from __future__ import annotations

import importlib
import os
import re
import sys
from typing import IO, TYPE_CHECKING, NamedTuple, Sequence

import typer

from warband.cli.common import INTERRUPTED, OK, Format, fail
from warband.cli.options import parse_policies, whole_number

if TYPE_CHECKING:
    from warband.cli.commands import SimulateFormat
    from warband.diagnostics import Diagnostic, Sources

ENGINE = "warband.game.worker"
# Where the game engine is imported from; tests (and engine work) point it elsewhere.
ENGINE_VARIABLE = "WARBAND_ENGINE"
_ADDRESS = re.compile(r"^(tcp|tls)://(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9_.-]+):(\d{1,5})$")


def is_scheduler_address(text: str) -> bool:
    """tcp://HOST:PORT (or tls://): a name or IPv4 address, or an IPv6 one in brackets, and a
    port from 1 to 65535."""
    found = _ADDRESS.match(text.strip())
    return found is not None and 1 <= int(found.group(3)) <= 65535


def simulate(
    scenario: str, games: str, seed: str, policy: list[str], workers: str | None,
    scheduler: str | None, fmt: Format | SimulateFormat, max_rounds: str | None,
    chunk_size: str | None, replay: str | None, progress: bool | None, *,
    sides: list[str] | None = None, output: str | None = None, plot: str | None = None,
    games_out: str | None = None, force: bool = False,
) -> None:
    """`warband simulate` (its options and help: cli/commands.py)."""
    raise typer.Exit(run_simulate_command(SimulateOptions(
        scenario, games=games, seed=seed, policies=list(policy), workers=workers,
        scheduler=scheduler, fmt=fmt.value, max_rounds=max_rounds, chunk_size=chunk_size,
        replay=replay, progress=progress, sides=list(sides or ()), output=output, plot=plot,
        games_out=games_out, force=force)))


class SimulateOptions(NamedTuple):
    """The command line as typed: texts, checked by `parse`."""

    scenario: str
    games: str = "1000"
    seed: str = "1"
    policies: Sequence[str] = ()
    workers: str | None = None
    scheduler: str | None = None
    fmt: str = "text"
    max_rounds: str | None = None
    chunk_size: str | None = None
    replay: str | None = None
    progress: bool | None = None          # None: only when standard error is a terminal
    sides: Sequence[str] = ()             # SIDE=FILE: a side's force from a warband file
    output: str | None = None             # -o: the report (text, json or html) goes here
    plot: str | None = None               # --plot: the main charts in one SVG
    games_out: str | None = None          # --games-out: one JSON line per game
    force: bool = False                   # replace output files that exist

    def per_game(self) -> bool:
        """Whether the run keeps every game's result (and watches who acted first and who
        was lost): only for what needs them, so that a plain run pays nothing."""
        return self.plot is not None or self.games_out is not None or self.fmt == "html"


class Parsed(NamedTuple):
    games: int
    seed: int
    workers: int
    max_rounds: int | None
    chunk_size: int
    replay: int | None
    policies: tuple[tuple[str, str], ...]
    sides: tuple = ()                     # scenario.SideFile


def parse(options: SimulateOptions, sources: Sources) -> tuple[Parsed, list[Diagnostic]]:
    """Check every value; collect every problem (a bad value leaves its default in Parsed,
    never used: the command stops on any problem)."""
    from warband.diagnostics import Span, diag  # lazily, as every command module (common.py)
    from warband.game.simulate import CHUNK_SIZE, resolve_workers
    found: list[Diagnostic] = []
    for option, text in (("--games", options.games), ("--seed", options.seed),
                         ("--workers", options.workers), ("--max-rounds", options.max_rounds),
                         ("--chunk-size", options.chunk_size), ("--replay", options.replay),
                         ("--scheduler", options.scheduler)):
        if text is not None:
            sources.add(option, text)
    games = whole_number(options.games, "--games", 1, "the number of games to play", found)
    seed = whole_number(options.seed, "--seed", 0, "any whole number from 0 up; the same seed "
                        "plays the same games", found)
    workers = 1
    if options.workers is not None:
        cores = resolve_workers("auto")
        if options.workers.strip().lower() == "auto":
            workers = cores
        else:
            n = whole_number(options.workers, "--workers", 0, "", found,
                             hint="a number of processes, or 0 or 'auto' for one per core")
            workers = resolve_workers(n) if n is not None else 1
    max_rounds = None
    if options.max_rounds is not None:
        max_rounds = whole_number(options.max_rounds, "--max-rounds", 1,
                                  "the most rounds a game may last", found)
    chunk_size = CHUNK_SIZE
    if options.chunk_size is not None:
        chunk_size = whole_number(options.chunk_size, "--chunk-size", 1, "games per chunk; "
                                  f"the default is {CHUNK_SIZE}", found) or CHUNK_SIZE
    replay = None
    if options.replay is not None:
        replay = whole_number(options.replay, "--replay", 0, "the seed of one game, as a "
                              "report lists it", found)
    if options.scheduler is not None:
        if options.workers is not None:
            found.append(diag("E910", "--workers and --scheduler do not go together",
                              Span("--workers", 1, 1, 1, len(options.workers) + 1),
                              hint="with --scheduler the cluster's workers play the games"))
        if not is_scheduler_address(options.scheduler):
            found.append(diag("E913", f"'{options.scheduler}' is not a scheduler address",
                              Span("--scheduler", 1, 1, 1, len(options.scheduler) + 1),
                              hint="write tcp://HOST:PORT, e.g. tcp://127.0.0.1:8786"))
    policies = parse_policies(options.policies, sources, found)
    from warband.cli.options import parse_sides
    sides = parse_sides(list(options.sides), sources, found)
    found += _check_outputs(options, sources)
    return Parsed(games or 0, seed or 0, workers, max_rounds, chunk_size, replay,
                  policies, sides), found


def _check_outputs(options: SimulateOptions, sources: Sources) -> list[Diagnostic]:
    """Before any game: the outputs can be written (cli/common.py), and a one-game --replay is
    asked for no report of many games (E645)."""
    from warband.cli.common import check_outputs
    from warband.diagnostics import Span, diag
    outputs = [("--output", options.output), ("--plot", options.plot),
               ("--games-out", options.games_out)]
    found: list[Diagnostic] = []
    if options.replay is not None:
        for option, path in outputs[1:]:
            if path is not None:
                sources.add(option, path)
                found.append(diag("E645", f"{option} draws from many games; --replay plays "
                                          "one", Span(option, 1, 1, 1, len(path) + 1),
                                  hint=f"leave out --replay, or {option}"))
        outputs = outputs[:1]
    found += check_outputs(outputs, options.force, sources)
    if options.replay is not None and options.fmt == "html":
        sources.add("--format", options.fmt)
        where = Span("--format", 1, 1, 1, len(options.fmt) + 1)
        found.append(diag("E645", "--format html draws many games; --replay plays one", where,
                          hint="see one game as a page with `warband play`; or leave out "
                               "--replay"))
    return found


def load_engine():
    """The module with `play` (and, if it has one, `objectives`): warband.game.worker, or the
    module that WARBAND_ENGINE names."""
    name = os.environ.get(ENGINE_VARIABLE) or ENGINE
    try:
        module = importlib.import_module(name)
    except ModuleNotFoundError as error:
        if error.name and name.startswith(error.name):
            raise LookupError(f"the game engine ({name}) is not available in this "
                              "installation") from None
        raise LookupError(f"the game engine ({name}) needs the module '{error.name}', which "
                          "is not installed") from None
    if not callable(getattr(module, "play", None)):
        raise LookupError(f"the game engine ({name}) has no play function")
    return module


def run_simulate_command(options: SimulateOptions, stdout=None, stderr=None) -> int:
    """Do what `warband simulate` was asked; returns the exit code."""
    from warband.diagnostics import Sources, Span, diag
    stdout, stderr = stdout or sys.stdout, stderr or sys.stderr
    sources = Sources()
    parsed, problems = parse(options, sources)
    if problems:
        return _fail(problems, sources, stderr)
    try:
        engine = load_engine()
    except LookupError as error:
        hint = (f"unset {ENGINE_VARIABLE}, or name a module with a play function"
                if os.environ.get(ENGINE_VARIABLE) else
                "reinstall the toolkit: pip install --force-reinstall warband-toolkit")
        return _fail([diag("E912", str(error), hint=hint)], sources, stderr)
    from warband.game.results import PlayRequest
    from warband.game.simulate import GameFailed, SchedulerError, WorkerLost, simulate
    request = PlayRequest(_scenario_for_workers(options.scenario), parsed.policies,
                          parsed.max_rounds, sides=parsed.sides)
    json_out = options.fmt == "json"
    if parsed.replay is not None:
        return _replay(engine, request, parsed.replay, options, json_out, stdout, stderr,
                       sources)
    try:   # the engine may list the scenario's score terms: "never scored" needs them
        objectives = engine.objectives(request) if hasattr(engine, "objectives") else None
    except Exception as error:
        from warband.game.simulate import describe_error, error_sources
        return _fail(list(getattr(error, "diagnostics", None) or [diag(
            "E914", f"the game engine failed before the first game: {describe_error(error)}")]),
            sources, stderr, error_sources(error), parsed.sides)
    bar = _progress_bar(options.progress, stderr)
    try:
        with bar:
            task = bar.add_task("games", total=parsed.games) if bar.enabled else None

            def advance(done: int, total: int) -> None:
                if task is not None:
                    bar.update(task, completed=done)

            # per game, an engine that can watches who acted first and who was lost
            keep = options.per_game()
            play = getattr(engine, "play_detailed", engine.play) if keep else engine.play
            summary = simulate(request, parsed.games, parsed.seed, workers=parsed.workers,
                               scheduler=options.scheduler, play=play, progress=advance,
                               chunk_size=parsed.chunk_size, objectives=objectives,
                               keep_results=keep)
    except GameFailed as failure:   # with diagnostics: the engine found the scenario wrong
        return _fail(list(failure.diagnostics) or [diag(
            "E914", str(failure),
            hint=f"replay it alone: {_replay_command(options, failure.seed)}")],
            sources, stderr, failure.sources, parsed.sides)
    except WorkerLost as lost:
        return _fail([diag("E915", str(lost), hint="a worker ran out of memory or crashed; "
                                                   "try fewer --workers")], sources, stderr)
    except SchedulerError as error:
        where = Span("--scheduler", 1, 1, 1, len(options.scheduler or "") + 1)
        return _fail([diag("E913", str(error), where, hint=error.hint or None)], sources,
                     stderr)
    except KeyboardInterrupt:
        stderr.write("interrupted\n")
        return INTERRUPTED
    return _write_reports(summary, options, sources, stdout, stderr)


def _write_reports(summary, options: SimulateOptions, sources: Sources, stdout,
                   stderr) -> int:
    """The per-game lines, the charts, then the report (to -o or standard output); each file
    written atomically; a file that cannot be written is E642 (the others are still written)."""
    from dataclasses import replace

    from warband.cli.common import write_output
    from warband.diagnostics import Span
    from warband.game import report
    files: list[tuple[str, str, str]] = []   # (option, path, content)
    if options.games_out is not None:
        files.append(("--games-out", options.games_out, report.render_games_jsonl(summary)))
    if options.plot is not None:
        from warband.game import plots
        files.append(("--plot", options.plot, plots.figure(
            summary, f"{options.scenario}: {summary.games} games, seed {summary.seed}")))
    if options.fmt == "json":
        text = report.render_json(summary, options.scenario)
    elif options.fmt == "html":
        from warband.game.report_html import render_html
        text = render_html(summary, options.scenario)
    else:
        import shutil

        from warband.terminal import colour_wanted
        colour = options.output is None and colour_wanted(stdout)
        width = shutil.get_terminal_size((100, 24)).columns
        text = report.render_text(summary, options.scenario, width=width, colour=colour)
    if options.output is not None:
        files.append(("--output", options.output, text))
    else:
        stdout.write(text)
    problems = []
    for option, path, content in files:
        if path == "-":
            stdout.write(content)
            continue
        problem = write_output(path, content, options.force)
        if problem is not None:
            problems.append(replace(problem, span=Span(option, 1, 1, 1, len(path) + 1)))
    return _fail(problems, sources, stderr) if problems else OK


def _scenario_for_workers(scenario: str) -> str:
    # Workers may run in another directory: a file they are given is named absolutely.
    return os.path.abspath(scenario) if os.path.isfile(scenario) else scenario


def _replay(engine, request, seed: int, options, json_out: bool, stdout, stderr,
            sources=None) -> int:
    import json

    from warband.diagnostics import Sources, diag
    from warband.game import report
    from warband.game.simulate import GameFailed, play_game
    try:
        result = play_game(engine.play, request, 0, seed)
    except GameFailed as failure:
        return _fail(list(failure.diagnostics) or [diag(
            "E914", f"the game with seed {seed} failed: {failure.detail}")],
            sources or Sources(), stderr, failure.sources, request.sides)
    text = (json.dumps(report.game_as_json(result), indent=2) + "\n" if json_out
            else report.render_game_text(result))
    if options.output is None:
        stdout.write(text)
        return OK
    from dataclasses import replace

    from warband.cli.common import write_output
    from warband.diagnostics import Span
    problem = write_output(options.output, text, options.force)
    if problem is None:
        return OK
    where = Span("--output", 1, 1, 1, len(options.output) + 1)
    return _fail([replace(problem, span=where)], sources or Sources(), stderr)


def _replay_command(options: SimulateOptions, seed: int) -> str:
    import shlex
    words = ["warband", "simulate", options.scenario]
    for policy in options.policies:
        words += ["--policy", policy]
    if options.max_rounds is not None:
        words += ["--max-rounds", options.max_rounds]
    for side in options.sides:
        words += ["--side", side]
    return shlex.join(words + ["--replay", str(seed)])


def _fail(diagnostics: list[Diagnostic], sources: Sources, stderr: IO[str],
          engine_sources: dict | None = None, side_files: tuple = ()) -> int:
    """Show the diagnostics (with the texts the engine's own point into, and the --side
    files'); exit 2."""
    from warband.cli.play import side_texts
    return fail(diagnostics, {**side_texts(side_files), **sources.texts,
                              **(engine_sources or {})}, stream=stderr)


class _NoBar:
    enabled = False

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


def _progress_bar(wanted: bool | None, stderr):
    """A rich progress bar on standard error (never standard output), updated per chunk."""
    if wanted is False or (wanted is None and not stderr.isatty()):
        return _NoBar()
    from rich.console import Console
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeRemainingColumn,
    )
    console = Console(file=stderr, no_color=bool(os.environ.get("NO_COLOR")) or None)
    bar = Progress(TextColumn("playing"), BarColumn(), MofNCompleteColumn(),
                   TextColumn("games"), TimeRemainingColumn(), console=console,
                   transient=console.is_terminal)   # elsewhere (a log) the last state stays
    bar.enabled = True  # type: ignore[attr-defined]  # what _NoBar answers False to
    return bar
