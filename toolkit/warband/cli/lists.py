"""`warband validate|roster|schema|convert|fmt`: warband files."""

from __future__ import annotations

import os
import shutil
import sys
from typing import List, Optional

import typer

from warband.cli.common import (
    FINDINGS,
    OK,
    UNUSABLE,
    ReportFormat,
    RosterFormat,
    check_output,
    emit,
    load_or_exit,
    write_output,
)


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
    from warband.lists import render_roster
    from warband.lists.roster import roster as make_roster
    found = make_roster(file, default_ruleset=ruleset)
    if not found.usable:
        emit(found.diagnostics, found.sources)
        if not found.diagnostics:
            sys.stderr.write(f"error: {file} names no ruleset; add 'ruleset:' or give "
                             "--ruleset\n")
        raise typer.Exit(UNUSABLE)
    assert found.model is not None   # as `usable` says
    if output is not None:
        problem = check_output(output, force)   # before any work
        if problem is not None:
            emit([problem], None)
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
        problem = write_output(output, rendered, force)
        if problem is not None:
            emit([problem], None)
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
    emit(found.diagnostics, found.sources)
    raise typer.Exit(OK if found.valid else FINDINGS)


def schema(
    ruleset_ref: Optional[str] = typer.Argument(
        None, metavar="[RULESET]",
        help="Built-in id or rules file; without it, the schema of any warband file."),
) -> None:
    """Print the JSON Schema (Draft 7) of a ruleset's warband files."""
    from warband.lists import schema as schemas
    if ruleset_ref is None:
        sys.stdout.write(schemas.schema_text(schemas.generic_schema()))
        return
    ruleset = load_or_exit(ruleset_ref)
    sys.stdout.write(schemas.schema_text(schemas.ruleset_schema(ruleset)))


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
    if output is not None:
        problem = check_output(output, force)   # before any work
        if problem is not None:
            emit([problem], None)
            raise typer.Exit(UNUSABLE)
    result = run(file, to, using=using, output_name=output or OUTPUT_NAME)
    if result.text is None:
        emit(result.diagnostics, result.sources)
        raise typer.Exit(UNUSABLE)
    if output is not None:
        problem = write_output(output, result.text, force)
        if problem is not None:
            emit(result.diagnostics, result.sources)
            emit([problem], None)
            raise typer.Exit(UNUSABLE)
    else:
        sys.stdout.write(result.text)
    emit(result.diagnostics, result.sources)
    raise typer.Exit(OK if result.valid else FINDINGS)


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
    from warband.lists.warband_file import STDIN, read_source
    sources, unusable, would_change = Sources(), False, False
    for arg in files:
        result = format_source(read_source(arg))
        if result.original is not None:
            sources.add(result.name, result.original)
        if result.text is None:
            emit(result.diagnostics, sources)
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
            problem = write_output(arg, result.text, force=True)
            if problem is not None:
                emit([problem], None)
                unusable = True
                continue
            sys.stderr.write(f"reformatted {result.name}\n")
    raise typer.Exit(UNUSABLE if unusable else FINDINGS if check and would_change else OK)
