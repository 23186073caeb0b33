"""`warband balance TARGET`: what a ruleset's fighters are worth (exact odds and duels), or how a
scenario plays (simulated games, swaps, suggested costs). Options in, a report out, an exit
code back; every bad value a Diagnostic in the option's own text, all of them at once.
"""

from __future__ import annotations

import os
import sys
from typing import IO, TYPE_CHECKING, NamedTuple, Sequence

import typer

from warband.cli.common import INTERRUPTED, OK, fail

if TYPE_CHECKING:
    from warband.diagnostics import Diagnostic, Sources

FINDINGS = 1
DEFAULT_GAMES = 200        # the scenario's games, and each swap's
DEFAULT_FIT_GAMES = 1000   # games between random warbands for the suggested costs
# the players a balance report is measured with by default: greedy. mcts plays better but a
# game of it costs hundreds of greedy ones (docs/players.md), and a report plays 1,600 games;
# `--policy mcts:N` asks for it
BEST_PLAYERS = ("greedy",)
# ruleset mode: the decisions' policy of duels (the rules' own defaults: fast; greedy looks
# ahead, which in a ruleset of secret hands can take minutes a duel)
DUEL_POLICY = "first"


class BalanceOptions(NamedTuple):
    """The command line as typed: texts, checked by `run_balance`."""

    target: str
    fighters: str | None = None
    policies: Sequence[str] = ()
    rounds: str | None = None
    actions: Sequence[str] = ()
    games: str | None = None
    fit_games: str | None = None
    swaps: Sequence[str] = ()
    seed: str = "1"
    workers: str | None = None
    scheduler: str | None = None
    max_rounds: str | None = None
    chunk_size: str | None = None
    progress: bool | None = None
    fmt: str = "text"
    output: str | None = None
    force: bool = False


def balance(options: BalanceOptions) -> None:
    """`warband balance` (its options and help: cli/commands.py)."""
    raise typer.Exit(run_balance(options))


def best_player() -> str:
    from warband.run.decisions import POLICIES
    return next((p for p in BEST_PLAYERS if p in POLICIES), "random")


def _span(option: str, text: str):
    from warband.diagnostics import Span
    return Span(option, 1, 1, 1, len(text) + 1)


def run_balance(options: BalanceOptions, stdout: IO[str] | None = None,
                stderr: IO[str] | None = None) -> int:
    """Do what `warband balance` was asked; returns the exit code."""
    from warband import catalog
    from warband.diagnostics import Sources, diag, did_you_mean
    stdout, stderr = stdout or sys.stdout, stderr or sys.stderr
    sources = Sources()
    sources.add("TARGET", options.target)
    shipped_rules = catalog.rulesets()
    found = catalog.resolve(options.target, catalog.scenarios() + shipped_rules, existing=True)
    if found.path is None:
        if found.tried is not None:
            problem = diag("E100", f"no such file: {options.target}", _span("TARGET",
                                                                          options.target))
        else:
            problem = diag("E404", f"no ruleset or scenario '{options.target}'",
                           _span("TARGET", options.target),
                           hint=did_you_mean(options.target, found.known)
                           or "rulesets: warband rules list; or give a .rules file")
        return fail([problem], sources, stream=stderr)
    from warband.lang.compiler import load
    ref = options.target if any(s.id == options.target for s in shipped_rules) \
        else str(found.path)
    compiled = load(ref)
    if compiled.ruleset is None:
        from warband.diagnostics import printable
        code = fail(compiled.errors or compiled.diagnostics, compiled.sources, stream=stderr)
        stderr.write(f"the rules in '{printable(options.target)}' have errors; run: warband "
                     f"rules check {printable(options.target)}\n")
        return code
    ruleset = compiled.ruleset
    if ruleset.scenario is not None:
        return _scenario(options, ruleset, str(found.path), sources, stdout, stderr)
    return _ruleset(options, ruleset, sources, stdout, stderr)


def _wrong_mode(options: BalanceOptions, scenario: bool) -> list[Diagnostic]:
    """Options of the other kind of report (E901 at each)."""
    from warband.diagnostics import diag
    if scenario:
        given = [("--rounds", options.rounds)] + [("--action", a) for a in options.actions]
        why = "weighs duels, which a ruleset's report fights; a scenario's report plays games"
    else:
        given = [("--games", options.games), ("--fit-games", options.fit_games),
                 ("--workers", options.workers), ("--scheduler", options.scheduler),
                 ("--max-rounds", options.max_rounds), ("--chunk-size", options.chunk_size)] + \
            [("--swap", s) for s in options.swaps]
        why = "plays games, which a scenario's report plays; a ruleset's report is exact odds"
    return [diag("E901", f"{option} {why}", _span(option, text),
                 hint="give a scenario to play games, a ruleset for duels" if not scenario
                 else "give the ruleset (warband rules list) for duels")
            for option, text in given if text is not None]


# ---- a ruleset ---------------------------------------------------------------------------------

def _ruleset(options: BalanceOptions, ruleset, sources: Sources, stdout, stderr) -> int:
    from warband.balance import duels as duels_mod
    from warband.balance import profiles as profiles_mod
    from warband.balance import report
    from warband.balance.weigh import weigh
    from warband.cli.common import check_outputs
    from warband.cli.options import whole_number
    from warband.diagnostics import diag, did_you_mean
    from warband.limits import MAX_DUEL_ROUNDS
    from warband.run.odds import parse_policies
    problems = _wrong_mode(options, scenario=False)
    for option, text in (("--rounds", options.rounds),):
        if text is not None:
            sources.add(option, text)
    rounds = None
    if options.rounds is not None:
        rounds = whole_number(options.rounds, "--rounds", 1, "the most rounds a duel lasts",
                              problems)
        if rounds is not None and rounds > MAX_DUEL_ROUNDS:
            problems.append(diag("E901", f"--rounds must be at most {MAX_DUEL_ROUNDS:,}",
                                 _span("--rounds", options.rounds),
                                 hint="leave it out for duels fought to the end, exactly"))
            rounds = None
    sources.add("--policy", " ".join(options.policies))
    policies = parse_policies(list(options.policies) or [DUEL_POLICY], ruleset, problems)
    if not any("=" not in p for p in options.policies):
        policies.default = DUEL_POLICY
    candidates = [c[0] for c in duels_mod.attack_actions(ruleset)]
    for action in options.actions:
        sources.add("--action", action)
        if action not in candidates:
            problems.append(diag(
                "E902", f"'{ruleset.id}' has no attack '{action}'", _span("--action", action),
                hint=(did_you_mean(action, candidates) or "") +
                (f"; its attacks (actions on a fighter by a fighter): {', '.join(candidates)}"
                 if candidates else "; it has no action of one fighter on another")))
    fighters_from = "typical"
    if options.fighters is not None:
        sources.add("--fighters", options.fighters)
        found: list[Diagnostic] = []
        profiles, texts = profiles_mod.from_file(options.fighters, ruleset, found)
        sources.texts.update(texts.texts)
        problems += [d if d.span is not None else _placed(d, "--fighters", options.fighters)
                     for d in found]
        fighters_from = options.fighters
    else:
        profiles = profiles_mod.typical(ruleset)
    if not candidates:
        problems.append(diag("E942", f"'{ruleset.id}' has no attack to weigh: no action whose "
                                     "first two parameters are fighters", None,
                             hint="balance weighs actions of one fighter on another "
                                  "(action shoot(attacker: fighter, target: fighter) ...)"))
    too_many = profiles_mod.too_many(profiles, "--fighters") if profiles else None
    if too_many is not None:
        problems.append(too_many)
    problems += check_outputs([("--output", options.output)], options.force, sources)
    if options.fmt == "html" and options.output is None:
        problems.append(diag("E645", "--format html writes a page: name its file with -o",
                             _span("--format", options.fmt), hint="add -o report.html"))
    if problems:
        return fail(problems, sources, stream=stderr)
    from warband.run.evaluate import RulesError
    duels = duels_mod.Duels(ruleset, policies, rounds, actions=list(options.actions) or None)
    bar = _progress_bar(options.progress, stderr, "duels")
    try:
        with bar:
            task = bar.add_task("duels", total=1) if bar.enabled else None

            def advance(done: int, total: int) -> None:
                if task is not None:
                    bar.update(task, completed=done, total=total)
            result = weigh(ruleset, profiles, duels, fighters_from, advance)
    except RulesError as error:
        return fail([error.diagnostic], {**sources.texts, **_rules_texts(ruleset)},
                    stream=stderr)
    except KeyboardInterrupt:
        stderr.write("interrupted\n")
        return INTERRUPTED
    if options.fmt == "json":
        text = report.render_json(report.ruleset_json(result))
    elif options.fmt == "html":
        from warband.balance import page
        text = page.ruleset_page(result)
    else:
        text = report.ruleset_text(result)
    code = _write(text, options, sources, stdout, stderr)
    if code != OK:
        return code
    if result.problems:
        fail(result.problems, sources, stream=stderr)
        return FINDINGS
    return OK


def _placed(d, option: str, text: str):
    from dataclasses import replace
    return replace(d, span=_span(option, text))


def _rules_texts(ruleset) -> dict:
    from warband.lang.compiler import load
    try:
        return dict(load(ruleset.id).sources.texts)
    except Exception:   # noqa: BLE001 -- excerpts are a courtesy
        return {}


# ---- a scenario ---------------------------------------------------------------------------------

def _scenario(options: BalanceOptions, ruleset, path: str, sources: Sources, stdout,
              stderr) -> int:
    from warband.balance import games as games_mod
    from warband.balance import profiles as profiles_mod
    from warband.balance import report, scenario_report
    from warband.balance import scenario as scenario_mod
    from warband.cli.common import check_outputs
    from warband.cli.options import parse_policies, whole_number
    from warband.diagnostics import Span, diag
    from warband.game.results import PlayRequest
    from warband.game.simulate import CHUNK_SIZE, resolve_workers
    problems = _wrong_mode(options, scenario=True)
    for option, text in (("--games", options.games), ("--fit-games", options.fit_games),
                         ("--seed", options.seed), ("--workers", options.workers),
                         ("--max-rounds", options.max_rounds),
                         ("--chunk-size", options.chunk_size), ("--scheduler", options.scheduler)):
        if text is not None:
            sources.add(option, text)
    games = whole_number(options.games, "--games", 1, "games of the scenario, and of each "
                         "swap", problems) if options.games is not None else DEFAULT_GAMES
    fit_games = whole_number(options.fit_games, "--fit-games", 0, "games between random "
                             "warbands; 0 leaves the suggested costs out", problems) \
        if options.fit_games is not None else DEFAULT_FIT_GAMES
    seed = whole_number(options.seed, "--seed", 0, "any whole number from 0 up; the same seed "
                        "plays the same games", problems)
    workers = 1
    if options.workers is not None:
        if options.workers.strip().lower() == "auto":
            workers = resolve_workers("auto")
        else:
            n = whole_number(options.workers, "--workers", 0, "", problems,
                             hint="a number of processes, or 0 or 'auto' for one per core")
            workers = resolve_workers(n) if n is not None else 1
    if options.scheduler is not None and options.workers is not None:
        problems.append(diag("E910", "--workers and --scheduler do not go together",
                             _span("--workers", options.workers),
                             hint="with --scheduler the cluster's workers play the games"))
    if options.scheduler is not None:
        from warband.cli.simulate import is_scheduler_address
        if not is_scheduler_address(options.scheduler):
            problems.append(diag("E913", f"'{options.scheduler}' is not a scheduler address",
                                 _span("--scheduler", options.scheduler),
                                 hint="write tcp://HOST:PORT, e.g. tcp://127.0.0.1:8786"))
    max_rounds = whole_number(options.max_rounds, "--max-rounds", 1, "the most rounds a game "
                              "may last", problems) if options.max_rounds is not None else None
    chunk_size = (whole_number(options.chunk_size, "--chunk-size", 1, "games per chunk; the "
                               f"default is {CHUNK_SIZE}", problems) or CHUNK_SIZE) \
        if options.chunk_size is not None else CHUNK_SIZE
    policies = list(parse_policies(options.policies, sources, problems))
    problems += check_outputs([("--output", options.output)], options.force, sources)
    if options.fmt == "html" and options.output is None:
        problems.append(diag("E645", "--format html writes a page: name its file with -o",
                             _span("--format", options.fmt), hint="add -o report.html"))
    if problems:
        return fail(problems, sources, stream=stderr)
    # every side plays the best player the toolkit has, unless told otherwise
    if not any(who == "*" for who, _ in policies):
        policies.insert(0, ("*", best_player()))
    scenario_ref = os.path.abspath(options.target) if os.path.isfile(options.target) \
        else options.target
    request = PlayRequest(scenario_ref, tuple(policies), max_rounds)
    from warband.game.worker import ScenarioProblem, loaded
    try:
        scenario = loaded(request)
    except ScenarioProblem as problem:
        return fail(list(problem.diagnostics), {**sources.texts, **problem.sources},
                    stream=stderr)
    pool: list = []
    if options.fighters is not None:
        sources.add("--fighters", options.fighters)
        found: list[Diagnostic] = []
        pool, texts = profiles_mod.from_file(options.fighters, scenario.ruleset, found)
        sources.texts.update(texts.texts)
        problems += [d if d.span is not None else _placed(d, "--fighters", options.fighters)
                     for d in found]
    else:
        pool = profiles_mod.typical(scenario.ruleset)
    swaps = _swaps(options, scenario, pool, sources, problems)
    unpriced = games_mod.unpriced(scenario.ruleset, pool)
    fit_left_out = None
    if unpriced is not None and fit_games:
        if options.fit_games is None:   # the default: say why there are none, and go on
            fit_games, fit_left_out = 0, unpriced
        else:
            problems.append(diag("E941", f"no random warbands of equal points: {unpriced}",
                                 _span("--fit-games", options.fit_games),
                                 hint="leave out the suggested costs with --fit-games 0"))
    if fit_games and not problems:
        import random
        ruleset_, made, interpreter = games_mod.pool_of(games_mod.pool_request(request, pool))
        if games_mod.random_list(ruleset_, made, random.Random("balance check"),
                                 interpreter) is None:
            problems.append(games_mod.no_list(ruleset_))
    if problems:
        return fail(problems, sources, stream=stderr)
    bar = _progress_bar(options.progress, stderr, "games")
    from warband.game.simulate import GameFailed, SchedulerError, WorkerLost, simulate

    def run(req, n: int, what: str):
        task = bar.add_task(what, total=n) if bar.enabled else None

        def advance(done: int, total: int) -> None:
            if task is not None:
                bar.update(task, completed=done)
        return simulate(req, n, seed or 0, workers=workers, scheduler=options.scheduler,
                        play=games_mod.play, progress=advance, chunk_size=chunk_size,
                        keep_results=True)
    try:
        with bar:
            result = scenario_mod.balance_scenario(
                request, scenario, games=games or DEFAULT_GAMES, fit_games=fit_games or 0,
                seed=seed or 0, chunk_size=chunk_size, swaps=swaps, pool=pool, run=run,
                cut=max_rounds is not None)
    except GameFailed as failure:
        return fail(list(failure.diagnostics) or [diag("E914", str(failure))],
                    {**sources.texts, **failure.sources}, stream=stderr)
    except WorkerLost as lost:
        return fail([diag("E915", str(lost), hint="a worker ran out of memory or crashed; "
                                                  "try fewer --workers")], sources,
                    stream=stderr)
    except SchedulerError as error:
        where = Span("--scheduler", 1, 1, 1, len(options.scheduler or "") + 1)
        return fail([diag("E913", str(error), where, hint=error.hint or None)], sources,
                    stream=stderr)
    except KeyboardInterrupt:
        stderr.write("interrupted\n")
        return INTERRUPTED
    result.scenario = options.target
    result.fit_left_out = fit_left_out
    result.swaps_chosen = not options.swaps
    if options.fmt == "json":
        text = report.render_json(scenario_report.scenario_json(result))
    elif options.fmt == "html":
        from warband.balance import page
        text = page.scenario_page(result)
    else:
        text = scenario_report.scenario_text(result)
    return _write(text, options, sources, stdout, stderr)


def _swaps(options: BalanceOptions, scenario, pool, sources: Sources,
           problems: list[Diagnostic]) -> list:
    """The swaps asked for (SIDE:FIGHTER=CLASS, or 'none'), or one a side chosen."""
    from warband.balance import scenario as scenario_mod
    from warband.cli.options import named_values
    from warband.diagnostics import diag, did_you_mean
    ruleset = scenario.ruleset
    if not options.swaps:
        return scenario_mod.auto_swaps(ruleset, scenario.side_names, scenario.forces, pool)
    if list(options.swaps) == ["none"]:
        return []
    out = []
    for text, where, who, eq, what in named_values("--swap", list(options.swaps), sources):
        side, colon, fighter = who.partition(":")
        if not eq or not colon or not side or not fighter or not what:
            problems.append(diag("E901", f"'{text}' is not SIDE:FIGHTER=CLASS", where,
                                 hint=f"e.g. --swap {scenario.side_names[0]}:FIGHTER="
                                      f"{next(iter(scenario.ruleset.classes), 'CLASS')} (the "
                                      "same fighter, of another class); or --swap none"))
            continue
        if side not in scenario.side_names:
            problems.append(diag("E901", f"the scenario has no side '{side}'", where,
                                 hint=did_you_mean(side, scenario.side_names)
                                 or f"its sides: {', '.join(scenario.side_names)}"))
            continue
        index = scenario.side_names.index(side)
        specs = {s.name: s for s in scenario.forces[index]}
        if fighter not in specs:
            problems.append(diag("E901", f"side '{side}' has no fighter '{fighter}'", where,
                                 hint=did_you_mean(fighter, specs)
                                 or f"its fighters: {', '.join(list(specs)[:12])}"))
            continue
        if what not in ruleset.classes:
            problems.append(diag("E901", f"no class '{what}' to swap {fighter} for", where,
                                 hint=did_you_mean(what, ruleset.classes)
                                 or f"classes: {', '.join(ruleset.classes) or 'none'}"))
            continue
        entry = scenario_mod.entry_of(specs[fighter])
        cost = scenario_mod.costs(ruleset, [entry])[0]
        swap = scenario_mod.swap_for(ruleset, side, entry, cost, what, pool)
        if swap is None:
            problems.append(diag("E901", f"{fighter} cannot be made a {what}: its stats lie "
                                         f"outside what class {what} allows", where,
                                 hint="swap it for another class"))
            continue
        out.append(swap)
    return out


# ---- output ---------------------------------------------------------------------------------

def _write(text: str, options: BalanceOptions, sources: Sources, stdout, stderr) -> int:
    from dataclasses import replace

    from warband.cli.common import write_output
    if options.output is None:
        stdout.write(text)
        return OK
    problem = write_output(options.output, text, options.force)
    if problem is None:
        return OK
    return fail([replace(problem, span=_span("--output", options.output))], sources,
                stream=stderr)


class _NoBar:
    enabled = False

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False

    def add_task(self, *args, **kwargs):
        return None


def _progress_bar(wanted: bool | None, stderr, what: str):
    """A rich progress bar on standard error (never standard output)."""
    if wanted is False or (wanted is None and not stderr.isatty()):
        return _NoBar()
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn
    console = Console(file=stderr, no_color=bool(os.environ.get("NO_COLOR")) or None)
    bar = Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                   TextColumn(what), console=console, transient=console.is_terminal)
    bar.enabled = True  # type: ignore[attr-defined]
    return bar


__all__ = ["BalanceOptions", "balance", "best_player", "run_balance"]
