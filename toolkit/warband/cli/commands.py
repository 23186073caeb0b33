"""The `warband` command line: every command's options and help, and how they are put together.

This module is the command line's whole surface (the package's `main` runs it): what `warband
--help` lists and each command's options. What a command does is in its group's module (rules.py, lists.py, odds.py, play.py,
simulate.py, lsp.py, build.py), imported only when the command runs (# lazily): `warband
--version` and `--help` load none of them, nor the library under them. common.py holds what
every command shares: exit codes (0 ok, 1 findings, 2 unusable input, 130 interrupted, 143
terminated), formats, showing diagnostics and writing output files.
"""

from __future__ import annotations

from enum import Enum
from typing import List, Literal, Optional

import typer
from typer.completion import completion_init
from typer.core import TyperGroup

from warband import __version__
from warband.cli.common import Format, ReportFormat, RosterFormat

# -h is --help, for every command (subcommands inherit their parent's context settings)
HELP = {"help_option_names": ["-h", "--help"]}
SHELLS = ("bash", "zsh", "fish", "powershell", "pwsh")


class _Group(TyperGroup):
    """The top command: `--show-completion` and `--install-completion` take a shell's name,
    or none (then the shell this runs in), which click's options cannot say by themselves."""

    def parse_args(self, ctx, args: list[str]) -> list[str]:
        args = list(args)
        for i, arg in enumerate(args):
            if arg in ("--show-completion", "--install-completion"):
                if i + 1 == len(args) or args[i + 1].startswith("-"):
                    args.insert(i + 1, "auto")
                break
            if not arg.startswith("-"):   # a command: what follows is its own
                break
        return super().parse_args(ctx, args)


completion_init()   # typer's completion of each shell (add_completion=False leaves it out)

NARROW = 72   # columns: a terminal narrower than this gets click's plain help (below)


def _help_style() -> Literal["rich"] | None:
    """How help and usage errors are drawn: in rich's panels, or, in a narrow terminal, as
    click's plain text, which wraps a long option's name onto a line of its own where rich's
    tables cut it short (`--no-prog…` at 60 columns)."""
    import shutil
    return "rich" if shutil.get_terminal_size((100, 24)).columns >= NARROW else None


app = typer.Typer(
    name="warband",
    cls=_Group,
    help="Write skirmish wargame rules, check warbands, and compute exact odds.",
    no_args_is_help=True,
    pretty_exceptions_show_locals=False,
    # typer's own --show-completion is a flag that prints the script of the shell it runs
    # in, whatever shell is named after it: ours below takes the shell's name
    add_completion=False,
    context_settings=HELP,
    rich_markup_mode=_help_style(),
)
rules_app = typer.Typer(help="Compile, list and show rulesets.", no_args_is_help=True,
                        context_settings=HELP, rich_markup_mode=_help_style())
app.add_typer(rules_app, name="rules")


class SimulateFormat(str, Enum):
    """`simulate --format`: its report also comes as a page with charts."""

    text = "text"
    json = "json"
    html = "html"


def _version(value: bool) -> None:
    if value:
        typer.echo(f"warband {__version__}")
        raise typer.Exit()


def _completion_shell(value: str) -> str:
    """The shell named, or the one this runs in ('auto': no shell named)."""
    if value != "auto":
        if value not in SHELLS:
            raise typer.BadParameter(f"'{value}' is not a shell completion is made for; "
                                     f"choose one of {', '.join(SHELLS)}")
        return value
    import shellingham  # type: ignore[import-untyped]  # how typer finds the shell
    try:
        return shellingham.detect_shell()[0]
    except shellingham.ShellDetectionFailure:
        raise typer.BadParameter("cannot tell which shell this is; name it, e.g. "
                                 "--show-completion zsh") from None


def _show_completion(ctx: typer.Context, value: str | None) -> None:
    if value is None or ctx.resilient_parsing:
        return
    # typer's own script for each shell, as its --show-completion printed (no public name)
    from typer._completion_shared import get_completion_script
    typer.echo(get_completion_script(prog_name="warband", complete_var="_WARBAND_COMPLETE",
                                     shell=_completion_shell(value)))
    raise typer.Exit()


def _install_completion(ctx: typer.Context, value: str | None) -> None:
    if value is None or ctx.resilient_parsing:
        return
    from typer._completion_shared import install
    shell, path = install(shell=_completion_shell(value), prog_name="warband",
                          complete_var="_WARBAND_COMPLETE")
    typer.echo(f"{shell} completion installed in {path}; it takes effect in a new shell")
    raise typer.Exit()


@app.callback()
def main_callback(
    version: bool = typer.Option(False, "--version", callback=_version, is_eager=True,
                                 help="Show the version and exit."),
    show_completion: Optional[str] = typer.Option(
        None, "--show-completion", metavar="[SHELL]",
        callback=_show_completion, is_eager=True, expose_value=False,
        help="Print the completion script of SHELL (bash, zsh, fish, powershell; default: "
             "this shell)."),
    install_completion: Optional[str] = typer.Option(
        None, "--install-completion", metavar="[SHELL]",
        callback=_install_completion, is_eager=True, expose_value=False,
        help="Install completion for SHELL (default: this shell)."),
) -> None:
    """Warband toolkit."""


# ---- completion of ids: the shipped rulesets and scenarios, then rules files ------------------

def _ids(incomplete: str, rulesets: bool, scenarios: bool) -> list[str]:
    import glob

    from warband import catalog
    shipped = (catalog.rulesets() if rulesets else []) + (catalog.scenarios() if scenarios
                                                            else [])
    ids = [s.id for s in shipped if s.id.startswith(incomplete)]
    start = glob.escape(incomplete)
    files = sorted(glob.glob(start + "*.rules"))
    folders = [] if ids else sorted(glob.glob(start + "*/"))   # on the way to a file
    return ids + files + folders


def complete_ruleset(incomplete: str) -> list[str]:
    """Shell completion of RULESET: the shipped rulesets' ids, then rules files."""
    return _ids(incomplete, True, False)


def complete_scenario(incomplete: str) -> list[str]:
    """Shell completion of SCENARIO: the shipped scenarios' ids, then rules files."""
    return _ids(incomplete, False, True)


def complete_rules(incomplete: str) -> list[str]:
    """Shell completion of rules anywhere (rules check, show): rulesets and scenarios."""
    return _ids(incomplete, True, True)


# ---- the commands, in the order `warband --help` lists them -----------------------------------

@rules_app.command("list")
def rules_list_command(
    fmt: Format = typer.Option(Format.text, "--format", help="text or json"),
) -> None:
    """List the built-in rulesets: id, name, the ruleset a house-rules file extends, and file."""
    import warband.cli.rules as rules  # lazily
    rules.rules_list(fmt)


@rules_app.command("check")
def rules_check_command(
    refs: List[str] = typer.Argument(..., metavar="FILE|ID...",
                                     help="Rules files ('-' reads standard input), or ids of "
                                          "built-in rulesets.",
                                     autocompletion=complete_rules),
    strict: bool = typer.Option(False, "--strict", help="Fail on warnings too."),
    fmt: Format = typer.Option(Format.text, "--format", help="text or json"),
    playouts: int = typer.Option(0, "--playouts", metavar="N", min=0, max=100_000,
                                 help="Also play N random games of each scenario and report "
                                      "games that never end, sides left without a legal "
                                      "action and objectives never scored."),
) -> None:
    """Compile rules files and report every problem in them."""
    import warband.cli.rules as rules  # lazily
    rules.rules_check(refs, strict, fmt, playouts)


@rules_app.command("show")
def rules_show_command(
    ref: str = typer.Argument(..., metavar="ID|FILE", autocompletion=complete_rules),
    fmt: Format = typer.Option(Format.text, "--format", help="text or json"),
) -> None:
    """A readable summary of a ruleset: stats, classes, traits, tables, army rules, actions."""
    import warband.cli.rules as rules  # lazily
    rules.rules_show(ref, fmt)


@rules_app.command("diff")
def rules_diff_command(
    base_ref: str = typer.Argument(..., metavar="BASE", help="Built-in id or rules file.",
                                   autocompletion=complete_ruleset),
    house_ref: str = typer.Argument(..., metavar="HOUSE", help="Built-in id or rules file.",
                                    autocompletion=complete_ruleset),
    fmt: Format = typer.Option(Format.text, "--format", help="text or json"),
) -> None:
    """What HOUSE changes compared with BASE: added, changed and removed rules, by kind."""
    import warband.cli.rules as rules  # lazily
    rules.rules_diff(base_ref, house_ref, fmt)


@app.command("validate")
def validate_command(
    files: List[str] = typer.Argument(..., metavar="FILE...",
                                      help="Warband files (YAML); '-' reads standard input."),
    fmt: ReportFormat = typer.Option(ReportFormat.text, "--format",
                                     help="text, json, github (annotations) or sarif"),
    strict: bool = typer.Option(False, "--strict", help="Fail on warnings too."),
    ruleset: Optional[str] = typer.Option(None, "--ruleset", metavar="ID|FILE",
                                          help="The ruleset of files without a 'ruleset:' key.",
                                          autocompletion=complete_ruleset),
) -> None:
    """Check warband files against their rulesets: every problem of every file at once."""
    import warband.cli.lists as lists  # lazily
    lists.validate(files, fmt, strict, ruleset)


@app.command("roster")
def roster_command(
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
                                          help="The ruleset of a file without a 'ruleset:' key.",
                                          autocompletion=complete_ruleset),
) -> None:
    """Roster cards for the table: fighters, stats, traits, equipment, points, validity, and the
    text of the rules the list uses."""
    import warband.cli.lists as lists  # lazily
    lists.roster(file, fmt, output, force, template, ruleset)


@app.command("schema")
def schema_command(
    ruleset_ref: Optional[str] = typer.Argument(
        None, metavar="[RULESET]",
        help="Built-in id or rules file; without it, the schema of any warband file.",
        autocompletion=complete_ruleset),
    install: Optional[str] = typer.Option(
        None, "--install", metavar="DIR",
        help="Write the schema into DIR, beside your lists (as NAME.warband.schema.json), "
             "and print the modeline that finds it."),
) -> None:
    """Print the JSON Schema (Draft 7) of a ruleset's warband files."""
    import warband.cli.lists as lists  # lazily
    lists.schema(ruleset_ref, install)


@app.command("new")
def new_command(
    ruleset_ref: str = typer.Argument(..., metavar="RULESET", help="Built-in id or rules file.",
                                      autocompletion=complete_ruleset),
    output: Optional[str] = typer.Option(None, "--output", "-o", metavar="FILE",
                                         help="Write to this file (atomically) instead of "
                                              "standard output."),
    force: bool = typer.Option(False, "--force", help="Replace FILE if it exists."),
) -> None:
    """Start a warband file for a ruleset: a modeline your editor follows to its schema, the
    ruleset, the game's points and a first fighter to fill in."""
    import warband.cli.lists as lists  # lazily
    lists.new(ruleset_ref, output, force)


class OddsFormat(str, Enum):
    """`warband odds --format`: the table, the data, or a page with the charts."""
    text = "text"
    json = "json"
    html = "html"


@app.command("odds")
def odds_command(
    ruleset_ref: str = typer.Argument(..., metavar="RULESET", help="Built-in id or rules file.",
                                      autocompletion=complete_ruleset),
    attacker: List[str] = typer.Option(..., "--attacker", "-a",
                                       help='The acting fighter as key=value pairs ("class=NAME '
                                            'STAT=N ..."), or one from a warband file '
                                            '("FILE.yaml#NAME"); again for its group.'),
    target: List[str] = typer.Option([], "--target", "-t",
                                     help="The fighter acted upon (same forms); again for its "
                                          "group."),
    action: str = typer.Option(..., "--action", help="The action, phase or procedure, as the "
                                                      "rules name it."),
    cover: bool = typer.Option(False, "--cover", help="Set the action's 'cover' to yes."),
    policy: List[str] = typer.Option([], "--policy",
                                     help="first|random|greedy, or DECISION=POLICY|OPTION."),
    with_: List[str] = typer.Option([], "--with", help="Set another parameter: NAME=VALUE."),
    solve: bool = typer.Option(False, "--solve",
                               help="Also find the best secret choices for both sides "
                                    "(decisions made before any roll), exactly."),
    fmt: OddsFormat = typer.Option(OddsFormat.text, "--format",
                                   help="text, json, or html (a page with charts)"),
    sweep: Optional[str] = typer.Option(None, "--sweep", metavar="NAME=LOW..HIGH",
                                        help="Weigh the action once per value of a parameter "
                                             "or stat (attacker.STAT, target.STAT)."),
    output: Optional[str] = typer.Option(None, "-o", "--output", metavar="FILE",
                                         help="Write the report here, not to standard output."),
    plot: Optional[str] = typer.Option(None, "--plot", metavar="FILE.svg",
                                       help="Also draw the odds as charts into one SVG file."),
    force: bool = typer.Option(False, "--force", help="Replace output files that exist."),
    samples: Optional[int] = typer.Option(None, "--samples", metavar="N",
                                          help="Play the action N times instead (when exact "
                                               "odds are too much): shares with 95% intervals."),
    seed: int = typer.Option(1, "--seed", metavar="S",
                             help="With --samples: the same seed plays the same runs."),
) -> None:
    """Exact outcome probabilities of one action (or phase, or procedure) between fighters."""
    import warband.cli.odds as odds  # lazily
    odds.odds(ruleset_ref, attacker, target, action, cover, policy, with_, solve, fmt.value,
              sweep=sweep, plot=plot, output=output, force=force, samples=samples, seed=seed)


@app.command("simulate")
def simulate_command(
    scenario: str = typer.Argument(..., metavar="SCENARIO",
                                   help="A scenario file, or the id of a built-in scenario.",
                                   autocompletion=complete_scenario),
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
    fmt: SimulateFormat = typer.Option(SimulateFormat.text, "--format",
                                       help="text, json, or html (a page with charts)"),
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
    side: List[str] = typer.Option([], "--side", metavar="SIDE=FILE",
                                   help="Play a side with your own warband file; repeatable."),
    output: Optional[str] = typer.Option(None, "-o", "--output", metavar="FILE",
                                         help="Write the report here, not to standard output."),
    plot: Optional[str] = typer.Option(None, "--plot", metavar="FILE.svg",
                                       help="Also draw the main charts into one SVG file."),
    games_out: Optional[str] = typer.Option(None, "--games-out", metavar="FILE.jsonl",
                                            help="Also write one JSON line per game (seed, "
                                                 "winner, scores, rounds, losses); '-': "
                                                 "standard output."),
    force: bool = typer.Option(False, "--force", help="Replace output files that exist."),
) -> None:
    """Play a scenario many times with automated players, seeded, and tally the games."""
    import warband.cli.simulate as simulate  # lazily
    simulate.simulate(scenario, games, seed, policy, workers, scheduler, fmt, max_rounds,
                      chunk_size, replay, progress, sides=side, output=output, plot=plot,
                      games_out=games_out, force=force)


@app.command("balance")
def balance_command(
    target: str = typer.Argument(..., metavar="RULESET|SCENARIO",
                                 help="A ruleset (duels, exact odds) or a scenario (games "
                                      "played): a built-in id or a rules file.",
                                 autocompletion=complete_rules),
    fighters: Optional[str] = typer.Option(None, "--fighters", metavar="FILE.yaml",
                                           help="The fighters to weigh: a warband file, each "
                                                "entry one (default: each class at its "
                                                "typical stats, with each option)."),
    policy: List[str] = typer.Option([], "--policy",
                                     help="A ruleset: first|random|greedy, or DECISION=OPTION "
                                          "(default first). A scenario: SIDE=POLICY (default: "
                                          "the best player, greedy)."),
    rounds: Optional[str] = typer.Option(None, "--rounds", metavar="R",
                                         help="A ruleset: end duels after R rounds (default: "
                                              "fought to the end, exactly)."),
    action: List[str] = typer.Option([], "--action",
                                     help="A ruleset: the attacks duels use (default: every "
                                          "action of one fighter on another); repeatable."),
    games: Optional[str] = typer.Option(None, "--games", "-n", metavar="N",
                                        help="A scenario: games to play, and for each swap "
                                             "(default 200)."),
    fit_games: Optional[str] = typer.Option(None, "--fit-games", metavar="M",
                                            help="A scenario: games between random warbands "
                                                 "for the suggested costs (default 1000; 0: "
                                                 "none)."),
    swap: List[str] = typer.Option([], "--swap", metavar="SIDE:FIGHTER=CLASS",
                                   help="A scenario: weigh a fighter against the same of "
                                        "another class; repeatable; 'none' (default: one a "
                                        "side)."),
    seed: str = typer.Option("1", "--seed", metavar="S",
                             help="The same seed plays the same games, whatever --workers."),
    workers: Optional[str] = typer.Option(None, "--workers", "-w", metavar="W",
                                          help="Processes to use (default 1); 0 or 'auto': "
                                               "every core."),
    scheduler: Optional[str] = typer.Option(None, "--scheduler", metavar="tcp://HOST:PORT",
                                            help="Play on a Dask cluster (needs the dask "
                                                 "extra)."),
    max_rounds: Optional[str] = typer.Option(None, "--max-rounds", metavar="R",
                                             help="End every game after R rounds at most."),
    chunk_size: Optional[str] = typer.Option(None, "--chunk-size", metavar="C",
                                             help="Games per chunk (default 50); part of what "
                                                  "a seed means."),
    progress: Optional[bool] = typer.Option(None, "--progress/--no-progress",
                                            help="A progress bar on standard error (default: "
                                                 "when it is a terminal)."),
    fmt: SimulateFormat = typer.Option(SimulateFormat.text, "--format",
                                       help="text, json, or html (a page with charts, to -o)"),
    output: Optional[str] = typer.Option(None, "-o", "--output", metavar="FILE",
                                         help="Write the report here, not to standard output."),
    force: bool = typer.Option(False, "--force", help="Replace output files that exist."),
) -> None:
    """What fighters are worth for their cost: a ruleset's by exact odds (cost per kill, duels
    solved exactly, fighters too dear or too cheap), a scenario's by played games (win rates,
    a fighter swapped, fitted costs); docs/balance.md."""
    import warband.cli.balance as balance  # lazily
    balance.balance(balance.BalanceOptions(
        target, fighters=fighters, policies=list(policy), rounds=rounds, actions=list(action),
        games=games, fit_games=fit_games, swaps=list(swap), seed=seed, workers=workers,
        scheduler=scheduler, max_rounds=max_rounds, chunk_size=chunk_size, progress=progress,
        fmt=fmt.value, output=output, force=force))


class PlayFormat(str, Enum):
    """`warband play --format`: the log, the record, or the page to watch the game on."""
    text = "text"
    json = "json"
    html = "html"


@app.command("play")
def play_command(
    scenario: Optional[str] = typer.Argument(None, metavar="SCENARIO",
                                             help="A scenario file, or the id of a built-in "
                                                  "scenario (not needed with --replay).",
                                             autocompletion=complete_scenario),
    seed: Optional[str] = typer.Option(None, "--seed", metavar="S",
                                       help="The same seed plays the same game (default 1)."),
    policy: List[str] = typer.Option([], "--policy", metavar="SIDE=POLICY",
                                     help="How a side plays: random, greedy or first; "
                                          "repeatable."),
    max_rounds: Optional[str] = typer.Option(None, "--max-rounds", metavar="R",
                                             help="End the game after R rounds at most."),
    fmt: OddsFormat = typer.Option(OddsFormat.text, "--format",
                                   help="text (a log to read), json (the record) or html (a "
                                        "page to watch the game on, written to -o)"),
    output: Optional[str] = typer.Option(None, "-o", "--output", metavar="LOG",
                                         help="Also save the game's record (JSON) here; with "
                                              "--format html or --svg, the page or picture."),
    force: bool = typer.Option(False, "--force", help="Replace LOG if it exists."),
    svg: Optional[str] = typer.Option(None, "--svg", metavar="ROUND",
                                      help="Draw the board at the end of ROUND (0: after "
                                           "set-up) as SVG, instead of the log."),
    replay: Optional[str] = typer.Option(None, "--replay", metavar="LOG",
                                         help="Play a recorded game again, exactly, and check "
                                              "it."),
    side: List[str] = typer.Option([], "--side", metavar="SIDE=FILE",
                                   help="Play a side with your own warband file; repeatable."),
    update: bool = typer.Option(False, "--update",
                                help="Write what the aftermath changed (experience, injuries) "
                                     "back into the warband files, after showing the diff; the "
                                     "game's record is kept beside each (NAME.games/)."),
    dry_run: bool = typer.Option(False, "--dry-run",
                                 help="Show the diff --update would write, and write nothing."),
) -> None:
    """Play one game of a scenario and print what happened, turn by turn."""
    import warband.cli.play as play  # lazily
    play.play(scenario, seed, policy, max_rounds, fmt, output, force, replay, sides=side,
              update="dry-run" if dry_run else "write" if update else None, svg=svg)


@app.command("convert")
def convert_command(
    file: str = typer.Argument(..., metavar="FILE",
                               help="A warband file (YAML); '-' reads standard input."),
    to: str = typer.Option(..., "--to", metavar="RULESET",
                           help="The ruleset to convert to: a built-in id or a rules file.",
                           autocompletion=complete_ruleset),
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
    import warband.cli.lists as lists  # lazily
    lists.convert(file, to, output, force, using)


@app.command("fmt")
def fmt_command(
    files: List[str] = typer.Argument(..., metavar="FILE...",
                                      help="Warband files (YAML) to rewrite in place; '-' reads "
                                           "standard input and writes standard output."),
    check: bool = typer.Option(False, "--check",
                               help="Write nothing; exit 1 if a file would change."),
    diff: bool = typer.Option(False, "--diff",
                              help="Write nothing; print what would change as a diff."),
    force: bool = typer.Option(False, "--force",
                               help="Also rewrite read-only files, and files with hard links "
                                    "or another owner (in place, not atomically)."),
) -> None:
    """Put warband files into the canonical layout (key order, indentation), keeping every
    comment. Files that do not load are reported and left untouched."""
    import warband.cli.lists as lists  # lazily
    lists.fmt(files, check, diff, force)


@app.command("lsp")
def lsp_command(
    stdio: bool = typer.Option(False, "--stdio",
                               help="Talk over standard input and output (the only way; "
                                    "accepted because editors pass it)."),
) -> None:
    """A language server for editors: errors as you type, hover, go to definition, references,
    completion and outline in rules files; validation and cards in warband files. Needs the lsp
    extra; docs/editors.md sets up VS Code, Neovim, Helix and Emacs."""
    import warband.cli.lsp as lsp  # lazily
    lsp.lsp()


@app.command("build")
def build_command(
    target: Optional[str] = typer.Argument(
        None, metavar="[RULESET | FILE.yaml]",
        help="A ruleset (built-in id or rules file) to start a new list for, or a warband file "
             "to open; neither: choose on the page.", autocompletion=complete_ruleset),
    folder: Optional[str] = typer.Option(
        None, "--dir", metavar="FOLDER",
        help="The only folder the page may read and write files in (default: the warband "
             "file's folder, or the current one)."),
    host: str = typer.Option("127.0.0.1", "--host", metavar="HOST",
                             help="The address to listen on; another than this machine's own "
                                  "is warned about."),
    port: int = typer.Option(0, "--port", metavar="PORT", min=0, max=65535,
                             help="The port to listen on (default 0: a free one)."),
    no_open: bool = typer.Option(False, "--no-open", help="Do not open the page in a browser."),
) -> None:
    """Build a warband list in the browser: the ruleset's classes with their costs and options,
    the list's totals against every limit and its problems, checked after each change by the
    validator; saved as YAML, printed as roster cards. Needs the extra 'build'."""
    import warband.cli.build as build  # lazily
    build.build(target, folder, host, port, no_open)


def _unbroken(typer_app: typer.Typer) -> None:
    """A command's help is its docstring as one paragraph: the docstring's line breaks (kept at
    100 columns in the source) would otherwise break the lines of `--help` where they are."""
    import inspect
    for info in typer_app.registered_commands:
        if info.help is None and info.callback is not None:
            info.help = " ".join((inspect.getdoc(info.callback) or "").split())


_unbroken(app)
_unbroken(rules_app)
