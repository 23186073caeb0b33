"""The `warband` command line: a thin layer that parses options, calls the library, and maps
outcomes to exit codes (0 ok, 1 findings, 2 unusable input).

Heavy modules (the compiler, Lark, the interpreter) are imported inside the commands, so that
`warband --version` and `--help` start quickly.
"""

from __future__ import annotations

import json
import sys
from enum import Enum
from typing import List, Optional

import typer

from warband import __version__

app = typer.Typer(
    name="warband",
    help="Write skirmish wargame rules, check warbands, and compute exact odds.",
    no_args_is_help=True,
    pretty_exceptions_show_locals=False,
    add_completion=True,
)
rules_app = typer.Typer(help="Compile, list and show rulesets.", no_args_is_help=True)
app.add_typer(rules_app, name="rules")

OK, FINDINGS, UNUSABLE = 0, 1, 2


class Format(str, Enum):
    text = "text"
    json = "json"


class ReportFormat(str, Enum):
    text = "text"
    json = "json"
    github = "github"
    sarif = "sarif"


def _version(value: bool) -> None:
    if value:
        typer.echo(f"warband {__version__}")
        raise typer.Exit()


@app.callback()
def main_callback(
    version: bool = typer.Option(False, "--version", callback=_version, is_eager=True,
                                 help="Show the version and exit."),
) -> None:
    """Warband toolkit."""


def _emit_diagnostics(diagnostics, sources, fmt: Format = Format.text, stream=None) -> None:
    from warband.diagnostics import render_json, render_text
    stream = stream or sys.stderr
    if not diagnostics:
        return
    if fmt is Format.json:
        stream.write(render_json(diagnostics) + "\n")
    else:
        stream.write(render_text(diagnostics, sources))


def _load_or_exit(ref: str):
    """Compile a ruleset for a command that needs it; exit 2 with diagnostics if it cannot."""
    from warband.lang.compiler import load
    compiled = load(ref)
    if compiled.ruleset is None:
        _emit_diagnostics(compiled.errors or compiled.diagnostics, compiled.sources)
        if compiled.errors and compiled.errors[0].code not in ("E404", "E100"):
            sys.stderr.write(f"the rules in '{ref}' have errors; run: warband rules check {ref}\n")
        raise typer.Exit(UNUSABLE)
    return compiled.ruleset


# ---- rules ------------------------------------------------------------------------------------

@rules_app.command("list")
def rules_list(fmt: Format = typer.Option(Format.text, "--format", help="text or json")) -> None:
    """List the built-in rulesets: id, name, the ruleset a house-rules file extends, and file."""
    from warband.lang.compiler import builtins, display_path
    found = builtins()
    if fmt is Format.json:
        typer.echo(json.dumps([{"id": b.id, "name": b.title, "file": str(b.path),
                                "extends": b.extends} for b in found], indent=2))
        return
    from rich.console import Console
    from rich.table import Table
    table = Table("id", "name", "extends", "file", box=None, pad_edge=False)
    for b in found:
        table.add_row(b.id, b.title, b.extends or "", display_path(b.path))
    Console(soft_wrap=True).print(table)


@rules_app.command("check")
def rules_check(
    refs: List[str] = typer.Argument(..., metavar="FILE|ID...",
                                     help="Rules files, or ids of built-in rulesets."),
    strict: bool = typer.Option(False, "--strict", help="Fail on warnings too."),
    fmt: Format = typer.Option(Format.text, "--format", help="text or json"),
    playouts: int = typer.Option(0, "--playouts", metavar="N", min=0, max=100_000,
                                 help="Also play N random games of each scenario and report "
                                      "games that never end, sides left without a legal "
                                      "action and objectives never scored."),
) -> None:
    """Compile rules files and report every problem in them."""
    from warband.lang.compiler import load
    from warband.diagnostics import Sources, summary
    everything, sources, unusable, failed = [], Sources(), False, False
    for ref in refs:
        compiled = load(ref)
        sources.texts.update(compiled.sources.texts)
        if playouts and not compiled.errors and compiled.ruleset is not None and \
                compiled.ruleset.scenario is not None:
            from warband.game.playouts import playouts as play_out
            from warband.game.scenario import resolve
            path, _ = resolve(ref)
            compiled.diagnostics.extend(play_out(str(path or ref), compiled, playouts))
        everything += compiled.diagnostics
        if any(d.code in ("E100", "E404") for d in compiled.diagnostics):
            unusable = True
        if compiled.errors or (strict and compiled.diagnostics):
            failed = True
    if fmt is Format.json:
        typer.echo(json.dumps([d.to_json() for d in everything], indent=2))
    else:
        _emit_diagnostics(everything, sources, stream=sys.stdout)
        typer.echo(f"{len(refs)} file{'s' if len(refs) != 1 else ''} checked: "
                   f"{summary(everything)}")
    raise typer.Exit(UNUSABLE if unusable else FINDINGS if failed else OK)


@rules_app.command("show")
def rules_show(
    ref: str = typer.Argument(..., metavar="ID|FILE"),
    fmt: Format = typer.Option(Format.text, "--format", help="text or json"),
) -> None:
    """A readable summary of a ruleset: stats, classes, traits, tables, army rules, actions."""
    ruleset = _load_or_exit(ref)
    from warband.lang import summary as show
    if fmt is Format.json:
        typer.echo(json.dumps(show.as_json(ruleset), indent=2))
    else:
        show.render(ruleset)


@rules_app.command("diff")
def rules_diff(
    base_ref: str = typer.Argument(..., metavar="BASE", help="Built-in id or rules file."),
    house_ref: str = typer.Argument(..., metavar="HOUSE", help="Built-in id or rules file."),
    fmt: Format = typer.Option(Format.text, "--format", help="text or json"),
) -> None:
    """What HOUSE changes compared with BASE: added, changed and removed rules, by kind."""
    base = _load_or_exit(base_ref)
    house = _load_or_exit(house_ref)
    from warband.lang import diff
    changes = diff.diff(base, house)
    if fmt is Format.json:
        typer.echo(json.dumps(diff.as_json(base, house, changes), indent=2))
    else:
        typer.echo(diff.as_text(base, house, changes), nl=False)


# ---- warband files ------------------------------------------------------------------------------

@app.command("validate")
def validate(
    files: List[str] = typer.Argument(..., metavar="FILE...",
                                      help="Warband files (YAML); '-' reads standard input."),
    fmt: ReportFormat = typer.Option(ReportFormat.text, "--format",
                                     help="text, json, github (annotations) or sarif"),
    strict: bool = typer.Option(False, "--strict", help="Fail on warnings too."),
    ruleset: Optional[str] = typer.Option(None, "--ruleset", metavar="ID|FILE",
                                          help="The ruleset of files without a 'ruleset:' key."),
) -> None:
    """Check warband files against their rulesets: every problem of every file at once."""
    from warband.lists import reporters
    from warband.lists.validate import validate as run
    report = run(files, default_ruleset=ruleset)
    sys.stdout.write(reporters.render(report, fmt.value))
    raise typer.Exit(UNUSABLE if report.unusable else FINDINGS if report.failed(strict) else OK)


class RosterFormat(str, Enum):
    text = "text"
    markdown = "markdown"
    html = "html"
    pdf = "pdf"


@app.command("roster")
def roster(
    file: str = typer.Argument(..., metavar="FILE",
                               help="A warband file (YAML); '-' reads standard input."),
    fmt: RosterFormat = typer.Option(RosterFormat.text, "--format",
                                     help="text (the terminal), markdown, html or pdf"),
    output: Optional[str] = typer.Option(None, "--output", "-o", metavar="OUT",
                                         help="Write to this file (atomically) instead of "
                                              "standard output."),
    force: bool = typer.Option(False, "--force", help="Replace OUT if it exists."),
    template: Optional[str] = typer.Option(None, "--template", metavar="PATH",
                                           help="Your own Jinja2 template instead of the "
                                                "built-in one."),
    ruleset: Optional[str] = typer.Option(None, "--ruleset", metavar="ID|FILE",
                                          help="The ruleset of a file without a 'ruleset:' key."),
) -> None:
    """Roster cards for the table: fighters, stats, traits, equipment, points, validity, and the
    text of the rules the list uses."""
    import os
    import shutil

    from warband.lists import render_roster
    from warband.cli.output import OutputError, check_target, write_atomic
    from warband.lists.roster import roster as make_roster
    found = make_roster(file, default_ruleset=ruleset)
    if not found.usable:
        _emit_diagnostics(found.diagnostics, found.sources)
        if not found.diagnostics:
            sys.stderr.write(f"error: {file} names no ruleset; add 'ruleset:' or give "
                             "--ruleset\n")
        raise typer.Exit(UNUSABLE)
    if output is not None:
        try:
            check_target(output, force=force)   # before any work: a folder, no folder, exists
        except OutputError as error:
            sys.stderr.write(f"error: {error}\n")
            raise typer.Exit(UNUSABLE)
    to_terminal = output is None and sys.stdout.isatty()
    colour = to_terminal and fmt is RosterFormat.text and not os.environ.get("NO_COLOR")
    width = shutil.get_terminal_size((100, 24)).columns
    try:
        rendered = render_roster.render(found.model, fmt.value, template=template, width=width,
                                        colour=colour)
    except render_roster.RenderError as error:
        sys.stderr.write(f"error: {error}\n")
        raise typer.Exit(UNUSABLE)
    if output is not None:
        try:
            write_atomic(output, rendered, force=force)
        except OutputError as error:
            sys.stderr.write(f"error: {error}\n")
            raise typer.Exit(UNUSABLE)
    elif isinstance(rendered, bytes):
        if to_terminal:
            sys.stderr.write("error: a PDF is not for the terminal; give -o FILE.pdf\n")
            raise typer.Exit(UNUSABLE)
        sys.stdout.flush()
        sys.stdout.buffer.write(rendered)
        sys.stdout.buffer.flush()
    else:
        sys.stdout.write(rendered)
    _emit_diagnostics(found.diagnostics, found.sources)
    raise typer.Exit(OK if found.valid else FINDINGS)


@app.command("schema")
def schema(
    ruleset_ref: Optional[str] = typer.Argument(
        None, metavar="[RULESET]",
        help="Built-in id or rules file; without it, the schema of any warband file."),
) -> None:
    """Print the JSON Schema (Draft 7) of a ruleset's warband files."""
    from warband.lists import schema as schema_mod
    if ruleset_ref is None:
        sys.stdout.write(schema_mod.schema_text(schema_mod.generic_schema()))
        return
    ruleset = _load_or_exit(ruleset_ref)
    sys.stdout.write(schema_mod.schema_text(schema_mod.ruleset_schema(ruleset)))


# ---- odds -------------------------------------------------------------------------------------

@app.command("odds")
def odds(
    ruleset_ref: str = typer.Argument(..., metavar="RULESET", help="Built-in id or rules file."),
    attacker: str = typer.Option(..., "--attacker", "-a",
                                 help='The acting fighter as key=value pairs ("class=NAME '
                                      'STAT=N ..."), or one from a warband file '
                                      '("FILE.yaml#NAME").'),
    target: Optional[str] = typer.Option(None, "--target", "-t",
                                         help="The fighter acted upon (same forms)."),
    action: str = typer.Option(..., "--action", help="The action, as the rules name it."),
    cover: bool = typer.Option(False, "--cover", help="Set the action's 'cover' to yes."),
    policy: List[str] = typer.Option([], "--policy",
                                     help="first|random|greedy, or DECISION=POLICY|OPTION."),
    with_: List[str] = typer.Option([], "--with", help="Set another parameter: NAME=VALUE."),
    solve: bool = typer.Option(False, "--solve",
                               help="Also find the best secret choices for both sides "
                                    "(decisions made before any roll), exactly."),
    fmt: Format = typer.Option(Format.text, "--format", help="text or json"),
) -> None:
    """Exact outcome probabilities of one action between two fighters."""
    ruleset = _load_or_exit(ruleset_ref)
    from warband.run import odds as odds_mod
    from warband.diagnostics import Sources, Span, diag, did_you_mean
    diagnostics = []
    sources = Sources({"--attacker": attacker, "--target": target or "",
                       "--policy": " ".join(policy), "--action": action})
    if action not in ruleset.procedures or ruleset.procedures[action].kind == "procedure":
        runnable = [n for n, p in ruleset.procedures.items() if p.kind != "procedure"]
        _emit_diagnostics([diag("E902", f"'{ruleset.id}' has no action '{action}'",
                                Span("--action", 1, 1, 1, len(action) + 1),
                                hint=did_you_mean(action, runnable)
                                or f"actions: {', '.join(runnable)}")], sources)
        raise typer.Exit(UNUSABLE)
    decl = ruleset.procedures[action]
    fighters = [_fighter(attacker, "--attacker", ruleset, 0, diagnostics, sources)]
    if target is not None:
        fighters.append(_fighter(target, "--target", ruleset, 1, diagnostics, sources))
    policies = odds_mod.parse_policies(policy, ruleset, diagnostics)
    params = {p.name.name: p for p in decl.params}
    options = {}
    settings = [("--cover", "cover=yes")] if cover else []
    for origin, text in settings + [("--with", t) for t in with_]:
        sources.add(origin, text)
        name, _, raw = text.partition("=")
        where = Span(origin, 1, 1, 1, len(name) + 1)
        if name not in params:
            diagnostics.append(diag("E901", f"action '{action}' has no parameter '{name}'",
                                    where, hint=did_you_mean(name, params)
                                    or f"its parameters: {', '.join(params)}"))
            continue
        kind = params[name].type.name if params[name].type else "number"
        value_at = Span(origin, 1, len(name) + 2, 1, len(text) + 1)
        options[name] = _parse_value(raw, kind, ruleset, diagnostics, name, value_at)
    needed = sum(1 for p in decl.params if p.type and p.type.name == "fighter")
    if needed > len(fighters):
        diagnostics.append(diag("E901", f"action '{action}' needs {needed} fighters; "
                                        "give --target too",
                                Span("--attacker", 1, 1, 1, len(attacker) + 1)))
    if diagnostics:
        _emit_diagnostics(diagnostics, sources)
        raise typer.Exit(UNUSABLE)
    try:
        result = odds_mod.compute(ruleset, action, fighters, options, policies, solve)
    except odds_mod.NotAllowed as refusal:
        _emit_diagnostics([diag(
            "E903", f"these fighters may not '{action}': the rules require "
                    f"'{refusal.requirement}'", Span("--attacker", 1, 1, 1, len(attacker) + 1),
            hint="choose an action this fighter can take, or another class")], sources)
        raise typer.Exit(UNUSABLE)
    except odds_mod.RulesError as error:
        from warband.lang.compiler import load
        _emit_diagnostics([error.diagnostic], load(ruleset_ref).sources)
        raise typer.Exit(UNUSABLE)
    if fmt is Format.json:
        typer.echo(json.dumps(odds_mod.as_json(result, ruleset, policies), indent=2))
        return
    _print_odds(result, ruleset)


def _fighter(text: str, origin: str, ruleset, side: int, diagnostics, sources):
    """A fighter written as key=value pairs, or FILE#NAME: a fighter of a warband file."""
    from warband.run import odds as odds_mod
    from warband.lists import warband_file
    if not warband_file.is_fighter_ref(text):
        return odds_mod.parse_fighter(text, origin, ruleset, side, diagnostics)
    from warband.lists.validate import Validation
    validation = Validation()
    found = warband_file.find_fighter(text, origin, ruleset, side, diagnostics, validation)
    sources.texts.update(validation.sources.texts)
    return found


def _parse_value(raw: str, kind: str, ruleset, diagnostics, name: str, where):
    """A --with value as the parameter's type wants it: yes/no, a number, a text, a name."""
    from warband.diagnostics import diag, did_you_mean
    if kind == "bool":
        if raw.lower() in ("yes", "true", "1", "on", ""):
            return True
        if raw.lower() in ("no", "false", "0", "off"):
            return False
        diagnostics.append(diag("E901", f"'{name}' is yes or no, not '{raw}'", where))
        return False
    if kind == "text":
        return raw
    if kind in ruleset.enums:
        members = [m for m, _ in ruleset.enums[kind]]
    elif kind in ruleset.outcomes:
        members = [m for m, _ in ruleset.outcomes[kind].scores]
    else:
        members = []
    if members:
        if raw not in members:
            diagnostics.append(diag("E901", f"'{name}' is one of {', '.join(members)}", where,
                                    hint=did_you_mean(raw, members)))
        return raw
    try:
        return int(raw)
    except ValueError:
        diagnostics.append(diag("E901", f"'{name}' must be a whole number, not '{raw}'",
                                where))
        return 0


def _print_odds(result, ruleset) -> None:
    from rich.console import Console
    from rich.table import Table

    from warband.run.odds import fraction_text
    table = Table("outcome", "fraction", "percent", box=None, pad_edge=False)
    table.columns[1].justify = "right"
    table.columns[2].justify = "right"
    for v in result.order:
        p = result.distribution[v]
        table.add_row(str(v), fraction_text(p), f"{float(p) * 100:.2f}%")
    console = Console(soft_wrap=True)
    console.print(table)
    if result.expected is not None:
        console.print(f"expected: {fraction_text(result.expected)} "
                      f"({float(result.expected):.3f})")
    if result.solution is not None:
        from warband.run.odds import solution_lines
        console.print()
        for line in solution_lines(result.solution):
            console.print(line, highlight=False)
    if result.effects:
        from warband.run.odds import _key_text
        console.print()
        after = Table("after the action", "value", "fraction", "percent", box=None,
                      pad_edge=False)
        after.columns[2].justify = after.columns[3].justify = "right"
        for label, dist in result.effects.items():
            for i, (v, p) in enumerate(sorted(dist.items(),
                                              key=lambda kv: (str(type(kv[0])), kv[0]))):
                after.add_row(label if i == 0 else "", _key_text(v), fraction_text(p),
                              f"{float(p) * 100:.2f}%")
        console.print(after)


# ---- simulate ---------------------------------------------------------------------------------

@app.command("simulate")
def simulate(
    scenario: str = typer.Argument(..., metavar="SCENARIO",
                                   help="A scenario file, or the id of a built-in scenario."),
    games: str = typer.Option("1000", "--games", "-n", metavar="N", help="Games to play."),
    seed: str = typer.Option("1", "--seed", metavar="S",
                             help="The same seed plays the same games, whatever --workers."),
    policy: List[str] = typer.Option([], "--policy", metavar="SIDE=POLICY",
                                     help="How a side (or a decision) plays; repeatable."),
    workers: Optional[str] = typer.Option(None, "--workers", "-w", metavar="W",
                                          help="Processes to use (default 1); 0 or 'auto': "
                                               "every core."),
    scheduler: Optional[str] = typer.Option(None, "--scheduler", metavar="tcp://HOST:PORT",
                                            help="Play on a Dask cluster (needs the dask "
                                                 "extra)."),
    fmt: Format = typer.Option(Format.text, "--format", help="text or json"),
    max_rounds: Optional[str] = typer.Option(None, "--max-rounds", metavar="R",
                                             help="End every game after R rounds at most."),
    chunk_size: Optional[str] = typer.Option(None, "--chunk-size", metavar="C",
                                             help="Games per chunk (default 50); part of what "
                                                  "a seed means."),
    replay: Optional[str] = typer.Option(None, "--replay", metavar="GAME_SEED",
                                         help="Play one game, by the seed a report lists, and "
                                              "show it."),
    progress: Optional[bool] = typer.Option(None, "--progress/--no-progress",
                                            help="A progress bar on standard error (default: "
                                                 "when it is a terminal)."),
) -> None:
    """Play a scenario many times with automated players, seeded, and tally the games."""
    from warband.cli.simulate import SimulateOptions, run_simulate_command
    raise typer.Exit(run_simulate_command(SimulateOptions(
        scenario, games=games, seed=seed, policies=list(policy), workers=workers,
        scheduler=scheduler, fmt=fmt.value, max_rounds=max_rounds, chunk_size=chunk_size,
        replay=replay, progress=progress)))


# ---- play -----------------------------------------------------------------------------------------

@app.command("play")
def play(
    scenario: Optional[str] = typer.Argument(None, metavar="SCENARIO",
                                             help="A scenario file, or the id of a built-in "
                                                  "scenario (not needed with --replay)."),
    seed: str = typer.Option("1", "--seed", metavar="S", help="The same seed plays the same "
                                                              "game."),
    policy: List[str] = typer.Option([], "--policy", metavar="SIDE=POLICY",
                                     help="How a side plays: random, greedy or first; "
                                          "repeatable."),
    max_rounds: Optional[str] = typer.Option(None, "--max-rounds", metavar="R",
                                             help="End the game after R rounds at most."),
    fmt: Format = typer.Option(Format.text, "--format", help="text (a log to read) or json "
                                                             "(the record)"),
    output: Optional[str] = typer.Option(None, "-o", "--output", metavar="LOG",
                                         help="Also save the game's record (JSON) here."),
    force: bool = typer.Option(False, "--force", help="Replace LOG if it exists."),
    replay: Optional[str] = typer.Option(None, "--replay", metavar="LOG",
                                         help="Play a recorded game again, exactly, and check "
                                              "it."),
) -> None:
    """Play one game of a scenario and print what happened, turn by turn."""
    from warband.cli.play import run_play
    from warband.diagnostics import Sources, diag
    from warband.cli.simulate import _fail, _policies, _whole
    sources, problems = Sources(), []
    pairs = _policies(list(policy), sources, problems)
    sources.add("--seed", seed)
    seed_value = _whole(seed, "--seed", 0, "a seed", problems)
    if max_rounds is not None:
        sources.add("--max-rounds", max_rounds)
    rounds = _whole(max_rounds, "--max-rounds", 1, "a number of rounds", problems) \
        if max_rounds is not None else None
    if scenario is None and replay is None:
        problems.append(diag("E902", "name a scenario to play (or a record to --replay)", None,
                             hint="warband play sss-standard-game --seed 1"))
    if problems:
        raise typer.Exit(_fail(problems, sources, sys.stderr))
    raise typer.Exit(run_play(scenario, seed_value, list(pairs), rounds, fmt.value, output,
                              force, replay))


# ---- convert ----------------------------------------------------------------------------------

@app.command("convert")
def convert(
    file: str = typer.Argument(..., metavar="FILE",
                               help="A warband file (YAML); '-' reads standard input."),
    to: str = typer.Option(..., "--to", metavar="RULESET",
                           help="The ruleset to convert to: a built-in id or a rules file."),
    output: Optional[str] = typer.Option(None, "--output", "-o", metavar="OUT",
                                         help="Write to this file (atomically) instead of "
                                              "standard output."),
    force: bool = typer.Option(False, "--force", help="Replace OUT if it exists."),
    using: List[str] = typer.Option([], "--using", metavar="FILE",
                                    help="A rules file with your own conversion (looked at "
                                         "before the built-in ones)."),
) -> None:
    """Convert a warband to another ruleset by a declared conversion; the result is validated,
    and what was dropped or approximated is reported and noted in the file."""
    from warband.lists.convert import OUTPUT_NAME
    from warband.lists.convert import convert as run
    from warband.diagnostics import diag
    from warband.cli.output import OutputError, check_target, write_atomic
    if output is not None:
        try:
            check_target(output, force=force)   # before any work: a folder, no folder, exists
        except OutputError as error:
            _emit_diagnostics([diag("E642", str(error), None)], None)
            raise typer.Exit(UNUSABLE)
    result = run(file, to, using=using, output_name=output or OUTPUT_NAME)
    if result.text is None:
        _emit_diagnostics(result.diagnostics, result.sources)
        raise typer.Exit(UNUSABLE)
    if output is not None:
        try:
            write_atomic(output, result.text, force=force)
        except OutputError as error:
            _emit_diagnostics(result.diagnostics, result.sources)
            _emit_diagnostics([diag("E642", str(error), None)], None)
            raise typer.Exit(UNUSABLE)
    else:
        sys.stdout.write(result.text)
    _emit_diagnostics(result.diagnostics, result.sources)
    raise typer.Exit(OK if result.valid else FINDINGS)


# ---- fmt ---------------------------------------------------------------------------------------

@app.command("fmt")
def fmt(
    files: List[str] = typer.Argument(..., metavar="FILE...",
                                      help="Warband files (YAML) to rewrite in place; '-' reads "
                                           "standard input and writes standard output."),
    check: bool = typer.Option(False, "--check",
                               help="Write nothing; exit 1 if a file would change."),
    diff: bool = typer.Option(False, "--diff",
                              help="Write nothing; print what would change as a diff."),
) -> None:
    """Put warband files into the canonical layout (key order, indentation), keeping every
    comment. Files that do not load are reported and left untouched."""
    from warband.diagnostics import Sources
    from warband.lists.fmt import format_source
    from warband.cli.output import OutputError, write_atomic
    from warband.lists.warband_file import STDIN, read_source
    sources, unusable, would_change = Sources(), False, False
    for arg in files:
        result = format_source(read_source(arg))
        if result.original is not None:
            sources.add(result.name, result.original)
        if result.text is None:
            _emit_diagnostics(result.diagnostics, sources)
            unusable = True
            continue
        if diff:
            sys.stdout.write(result.diff())
        if result.changed:
            would_change = True
            if check:
                sys.stderr.write(f"would reformat {result.name}\n")
        if check or diff:
            continue
        if arg == STDIN:
            sys.stdout.write(result.text)
        elif result.changed:
            try:
                write_atomic(arg, result.text, force=True)
            except OutputError as error:
                sys.stderr.write(f"error: {error}\n")
                unusable = True
                continue
            sys.stderr.write(f"reformatted {result.name}\n")
    raise typer.Exit(UNUSABLE if unusable else FINDINGS if check and would_change else OK)


def main() -> None:
    app()


if __name__ == "__main__":  # pragma: no cover
    main()
