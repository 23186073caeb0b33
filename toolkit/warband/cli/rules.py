"""`warband rules list|check|show|diff`: the rulesets themselves.

What the commands do; their options and help are in cli/commands.py, which imports this module
only when one of them runs. The compiler, Lark and the interpreter are imported inside the
commands, as in every command module, so that a command loads only what it uses.
"""

from __future__ import annotations

import json
import sys

import typer

from warband.cli.common import FINDINGS, OK, UNUSABLE, Format, emit, load_or_exit


def rules_list(fmt: Format) -> None:
    """`warband rules list` (its options and help: cli/commands.py)."""
    from warband import catalog
    found = catalog.rulesets()
    if fmt is Format.json:
        typer.echo(json.dumps([{"id": b.id, "name": b.title, "file": str(b.path),
                                "extends": b.extends} for b in found], indent=2))
        return
    from rich.table import Table
    from rich.text import Text

    from warband import terminal
    from warband.diagnostics import printable
    console = terminal.console()
    table = Table("id", "name", "extends", "file", box=None, pad_edge=False)
    rows = [[printable(cell) for cell in (b.id, b.title, b.extends or "",
                                          catalog.display_path(b.path))] for b in found]
    for row in rows:   # Text cells: a title is the file's text, never Rich markup
        table.add_row(*(Text(cell) for cell in row))
    slack = terminal.keep_whole(table)
    if terminal.needed_width(console, table) + slack > console.width:
        # too narrow for four columns with room for the titles (80 columns are): the id, and
        # under its title, wrapped, what it extends and its file, so that ids and paths stay
        # whole
        table = Table("id", "name", box=None, pad_edge=False)
        for ident, title, extends, path in rows:
            table.add_row(Text(ident), Text(f"{title}\n" + (f"extends {extends}; "
                                                            if extends else "") + path))
    with console.capture() as captured:
        console.print(table)   # ids and paths whole, titles wrapped
    # (rich pads every line to the table's width: a line ends where its text does)
    sys.stdout.write("".join(line.rstrip() + "\n" for line in captured.get().splitlines()))


def rules_check(refs: list[str], strict: bool, fmt: Format, playouts: int) -> None:
    """`warband rules check` (its options and help: cli/commands.py)."""
    from warband.diagnostics import Severity, Sources, summary
    from warband.lang.compiler import load, load_stdin, locate
    everything, sources, unusable, failed = [], Sources(), False, False
    for ref in refs:
        # '-': the rules text on standard input (an editor's buffer, a generated file)
        compiled = load_stdin(sys.stdin.buffer) if ref == "-" else load(ref)
        sources.texts.update(compiled.sources.texts)
        found = list(compiled.diagnostics)   # a copy: load() keeps compiled rulesets for reuse
        if playouts and ref != "-" and not compiled.errors and compiled.ruleset is not None \
                and compiled.ruleset.scenario is not None:
            from warband.game.playouts import playouts as play_out
            path, _ = locate(ref)
            found += play_out(_scenario_ref(ref, path), compiled, playouts)
        everything += found
        if any(d.code in ("E100", "E404") for d in found):
            unusable = True
        if any(d.severity is Severity.ERROR for d in found) or (strict and found):
            failed = True   # (a playout's errors too: they are not the compiled ruleset's)
    if fmt is Format.json:
        typer.echo(json.dumps([d.to_json() for d in everything], indent=2))
    else:
        emit(everything, sources, stream=sys.stdout)
        typer.echo(f"{len(refs)} file{'s' if len(refs) != 1 else ''} checked: "
                   f"{summary(everything)}")
    raise typer.Exit(UNUSABLE if unusable else FINDINGS if failed else OK)


def _scenario_ref(ref: str, path) -> str:
    """How the playouts name the scenario, in their hints (`warband play REF --seed N`) as when
    they load it: a shipped scenario by its id, never by where the package is installed; a
    user's file as it was typed."""
    from warband import catalog
    for shipped in catalog.scenarios():
        if path is not None and shipped.path == path:
            return shipped.id
    return ref if path is None or catalog.looks_like_path(ref) else str(path)


def rules_show(ref: str, fmt: Format) -> None:
    """`warband rules show` (its options and help: cli/commands.py)."""
    ruleset = load_or_exit(ref)
    from warband.lang import summary
    sides = scenario_sides(ruleset)
    if fmt is Format.json:
        shown = summary.as_json(ruleset)
        if sides is not None:
            shown["sides"] = sides
        typer.echo(json.dumps(shown, indent=2))
    else:
        from warband import terminal
        console = terminal.console()
        with console.capture() as captured:
            summary.render(ruleset, console)   # its tables print names whole, prose wrapped
            if sides is not None:
                _render_sides(sides, console)
        # (rich pads a table's lines to its width: a line ends where its text does)
        sys.stdout.write("".join(line.rstrip() + "\n" for line in captured.get().splitlines()))


def scenario_sides(ruleset) -> list[dict] | None:
    """A scenario's sides (None for rules without a scenario): each side's name, its title, and
    where its fighters come from: a warband file (relative to the scenario's file, as written)
    and the fighters the scenario writes itself. `play` and `simulate --side NAME=FILE` take
    these names."""
    if ruleset.scenario is None:
        return None
    return [{"name": side.name.name, "title": side.doc, "file": side.file,
             "fighters": sum(f.count for f in side.fighters)}
            for side in ruleset.scenario.sides]


def _render_sides(sides: list[dict], console) -> None:
    from rich.table import Table
    from rich.text import Text

    from warband.diagnostics import printable
    table = Table("side", "title", "fighters from", box=None, pad_edge=False)
    for side in sides:   # (a title and a file name are the rules file's text: printable)
        where = [f"the warband file {side['file']}"] if side["file"] else []
        if side["fighters"]:
            where.append(f"{side['fighters']} written in the scenario")
        table.add_row(Text(printable(side["name"])), Text(printable(side["title"] or "")),
                      Text(printable(" and ".join(where) or "no fighters")))
    console.print()
    console.print("[bold]Sides[/bold] (play and simulate take --side NAME=FILE to play one "
                  "with your own warband)")
    console.print(table)


def rules_diff(base_ref: str, house_ref: str, fmt: Format) -> None:
    """`warband rules diff` (its options and help: cli/commands.py)."""
    base = load_or_exit(base_ref)
    house = load_or_exit(house_ref)
    from warband.lang import diff
    changes = diff.diff(base, house)
    if fmt is Format.json:
        typer.echo(json.dumps(diff.as_json(base, house, changes), indent=2))
    else:
        import shutil
        width = shutil.get_terminal_size((80, 24)).columns   # prose wrapped to the terminal
        typer.echo(diff.as_text(base, house, changes, width), nl=False)
