"""`warband rules list|check|show|diff`: the rulesets themselves.

The compiler, Lark and the interpreter are imported inside the commands (here and in every
command module), so that `warband --help` and `--version` start quickly.
"""

from __future__ import annotations

import json
import sys
from typing import List

import typer

from warband.cli.common import FINDINGS, OK, UNUSABLE, Format, emit, load_or_exit


def rules_list(fmt: Format = typer.Option(Format.text, "--format", help="text or json")) -> None:
    """List the built-in rulesets: id, name, the ruleset a house-rules file extends, and file."""
    from warband import catalog
    found = catalog.rulesets()
    if fmt is Format.json:
        typer.echo(json.dumps([{"id": b.id, "name": b.title, "file": str(b.path),
                                "extends": b.extends} for b in found], indent=2))
        return
    from rich.console import Console
    from rich.table import Table
    table = Table("id", "name", "extends", "file", box=None, pad_edge=False)
    for b in found:
        table.add_row(b.id, b.title, b.extends or "", catalog.display_path(b.path))
    Console(soft_wrap=True).print(table)


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
    from warband.diagnostics import Sources, summary
    from warband.lang.compiler import load, locate
    everything, sources, unusable, failed = [], Sources(), False, False
    for ref in refs:
        compiled = load(ref)
        sources.texts.update(compiled.sources.texts)
        if playouts and not compiled.errors and compiled.ruleset is not None and \
                compiled.ruleset.scenario is not None:
            from warband.game.playouts import playouts as play_out
            path, _ = locate(ref)
            compiled.diagnostics.extend(play_out(str(path or ref), compiled, playouts))
        everything += compiled.diagnostics
        if any(d.code in ("E100", "E404") for d in compiled.diagnostics):
            unusable = True
        if compiled.errors or (strict and compiled.diagnostics):
            failed = True
    if fmt is Format.json:
        typer.echo(json.dumps([d.to_json() for d in everything], indent=2))
    else:
        emit(everything, sources, stream=sys.stdout)
        typer.echo(f"{len(refs)} file{'s' if len(refs) != 1 else ''} checked: "
                   f"{summary(everything)}")
    raise typer.Exit(UNUSABLE if unusable else FINDINGS if failed else OK)


def rules_show(
    ref: str = typer.Argument(..., metavar="ID|FILE"),
    fmt: Format = typer.Option(Format.text, "--format", help="text or json"),
) -> None:
    """A readable summary of a ruleset: stats, classes, traits, tables, army rules, actions."""
    ruleset = load_or_exit(ref)
    from warband.lang import summary
    if fmt is Format.json:
        typer.echo(json.dumps(summary.as_json(ruleset), indent=2))
    else:
        from rich.console import Console
        summary.render(ruleset, Console(soft_wrap=True))


def rules_diff(
    base_ref: str = typer.Argument(..., metavar="BASE", help="Built-in id or rules file."),
    house_ref: str = typer.Argument(..., metavar="HOUSE", help="Built-in id or rules file."),
    fmt: Format = typer.Option(Format.text, "--format", help="text or json"),
) -> None:
    """What HOUSE changes compared with BASE: added, changed and removed rules, by kind."""
    base = load_or_exit(base_ref)
    house = load_or_exit(house_ref)
    from warband.lang import diff
    changes = diff.diff(base, house)
    if fmt is Format.json:
        typer.echo(json.dumps(diff.as_json(base, house, changes), indent=2))
    else:
        typer.echo(diff.as_text(base, house, changes), nl=False)
