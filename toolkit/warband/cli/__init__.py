"""The `warband` command line: a thin layer that parses options, calls the library, and maps
outcomes to exit codes (0 ok, 1 findings, 2 unusable input; see common.py).

One module per command group (rules.py, lists.py, odds.py, play.py, simulate.py); this one puts
them together. Heavy modules (the compiler, Lark, the interpreter) are imported inside the
commands, so that `warband --version` and `--help` start quickly.
"""

from __future__ import annotations

import typer

from warband import __version__
from warband.cli import lists, odds, play, rules, simulate

app = typer.Typer(
    name="warband",
    help="Write skirmish wargame rules, check warbands, and compute exact odds.",
    no_args_is_help=True,
    pretty_exceptions_show_locals=False,
    add_completion=True,
)
rules_app = typer.Typer(help="Compile, list and show rulesets.", no_args_is_help=True)
app.add_typer(rules_app, name="rules")


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


# The commands, in the order `warband --help` lists them.
rules_app.command("list")(rules.rules_list)
rules_app.command("check")(rules.rules_check)
rules_app.command("show")(rules.rules_show)
rules_app.command("diff")(rules.rules_diff)
app.command("validate")(lists.validate)
app.command("roster")(lists.roster)
app.command("schema")(lists.schema)
app.command("odds")(odds.odds)
app.command("simulate")(simulate.simulate)
app.command("play")(play.play)
app.command("convert")(lists.convert)
app.command("fmt")(lists.fmt)


def main() -> None:
    app()


if __name__ == "__main__":  # pragma: no cover
    main()
