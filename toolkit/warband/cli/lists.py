"""`warband validate|roster|schema|convert|fmt`: warband files."""

from __future__ import annotations

import os
import shutil
import sys

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
    rewrite_output,
    write_output,
)
from warband.diagnostics import diag, printable


def validate(files: list[str], fmt: ReportFormat, strict: bool, ruleset: str | None) -> None:
    """`warband validate` (its options and help: cli/commands.py; a plain one is run by
    quick.py without the command line's machinery, through the same run_validate)."""
    from warband.cli.quick import run_validate
    raise typer.Exit(run_validate(files, fmt.value, strict, ruleset))


def roster(
    file: str, fmt: RosterFormat, output: str | None, force: bool, template: str | None,
    ruleset: str | None,
) -> None:
    """`warband roster` (its options and help: cli/commands.py)."""
    from warband.lists import render_roster
    from warband.lists.roster import roster as make_roster
    found = make_roster(file, default_ruleset=ruleset)
    if not found.usable:
        emit(found.diagnostics, found.sources)
        if not found.diagnostics:
            emit([diag("E621", f"{file} names no ruleset", None,
                       hint="add 'ruleset: ID' to the file, or give --ruleset ID")], None)
        raise typer.Exit(UNUSABLE)
    assert found.model is not None   # as `usable` says
    if output is not None:
        problem = check_output(output, force)   # before any work
        if problem is not None:
            emit([problem], None)
            raise typer.Exit(UNUSABLE)
    to_terminal = output is None and sys.stdout.isatty()
    from warband.colour import colour_wanted
    colour = output is None and fmt is RosterFormat.text and colour_wanted(sys.stdout)
    width = shutil.get_terminal_size((100, 24)).columns
    try:
        rendered = render_roster.render(found.model, fmt.value, template=template, width=width,
                                        colour=colour)
    except render_roster.RenderError as error:
        if error.diagnostic is not None:   # a template's problem, at its line
            emit([error.diagnostic], error.sources)
        elif str(error) == render_roster.PDF_MISSING:
            emit([_pdf_missing(output)], None)
        else:   # (every other RenderError comes with its diagnostic)
            emit([diag("E642", str(error), None)], None)
        raise typer.Exit(UNUSABLE)
    if output is not None:
        problem = write_output(output, rendered, force)
        if problem is not None:
            emit([problem], None)
            raise typer.Exit(UNUSABLE)
    elif isinstance(rendered, bytes):
        if to_terminal:
            emit([diag("E901", "a PDF is not for the terminal", None,
                       hint="write it to a file: -o FILE.pdf")], None)
            raise typer.Exit(UNUSABLE)
        sys.stdout.flush()
        sys.stdout.buffer.write(rendered)
        sys.stdout.buffer.flush()
    else:
        sys.stdout.write(rendered)
    emit(found.diagnostics, found.sources)
    raise typer.Exit(OK if found.valid else FINDINGS)


def _pdf_missing(output: str | None):
    """E642: no PDF without WeasyPrint; the hint installs it into the very Python that runs
    warband (`pip install 'warband-toolkit[pdf]'` fails in a checkout, where the toolkit is
    not a package an index has, and may install into another Python)."""
    import shlex
    return diag("E642", f"cannot write {output or 'the PDF'}: PDF output needs WeasyPrint, "
                        "which is not installed", None,
                hint=f"install it into the Python that runs warband: "
                     f"{shlex.quote(sys.executable)} -m pip install 'weasyprint>=60' (what the "
                     "extra warband-toolkit[pdf] holds, which works from a checkout too; it "
                     "also needs the Pango libraries of your system); or write HTML with "
                     "--format html and print it to PDF from a browser")


def schema(ruleset_ref: str | None, install: str | None = None) -> None:
    """`warband schema` (its options and help: cli/commands.py)."""
    from warband.lists import schema as schemas
    if ruleset_ref is None:
        made, name = schemas.generic_schema(), schemas.schema_file(None)
    else:
        ruleset = load_or_exit(ruleset_ref)
        made, name = schemas.ruleset_schema(ruleset), schemas.schema_file(ruleset.id)
    if install is None:
        sys.stdout.write(schemas.schema_text(made))
        return
    if not os.path.isdir(install):
        emit([diag("E642", f"cannot install the schema: {install} is not a folder", None,
                   hint="name the folder your warband files are in")], None)
        raise typer.Exit(UNUSABLE)
    path = os.path.join(install, name)
    # a generated file (its text says "do not edit"): replaced by the schema of today's rules
    problem = write_output(path, schemas.schema_text(made), True)
    if problem is not None:
        emit([problem], None)
        raise typer.Exit(UNUSABLE)
    sys.stderr.write(f"wrote {printable(path)}; a warband file in {printable(install)} finds "
                     f"it with this first line:\n")
    sys.stdout.write(f"{schemas.MODELINE}{name}\n")


def new(ruleset_ref: str, output: str | None, force: bool) -> None:
    """`warband new` (its options and help: cli/commands.py)."""
    from warband.lists.starter import start
    if output is not None:
        problem = check_output(output, force)   # before any work
        if problem is not None:
            emit([problem], None)
            raise typer.Exit(UNUSABLE)
    ruleset = load_or_exit(ruleset_ref)
    started = start(ruleset, ruleset_ref, output)
    if output is None:
        sys.stdout.write(started.text)
    else:
        problem = write_output(output, started.text, force)
        if problem is not None:
            emit([problem], None)
            raise typer.Exit(UNUSABLE)
    if not started.modeline:
        where = os.path.dirname(output) or "." if output is not None else "."
        sys.stderr.write(f"note: no schema of '{printable(ruleset.id)}' for an editor to find; "
                         f"run: warband schema {printable(ruleset_ref)} --install "
                         f"{printable(where)}, and add the modeline it prints as the first "
                         "line\n")
    if started.diagnostics:   # what the rules still ask of a whole warband: the player's part
        sys.stderr.write("what the list still needs before it is valid:\n")
        emit(started.diagnostics, started.sources)
    raise typer.Exit(OK)


def convert(file: str, to: str, output: str | None, force: bool, using: list[str]) -> None:
    """`warband convert` (its options and help: cli/commands.py)."""
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


def fmt(files: list[str], check: bool, diff: bool, force: bool = False) -> None:
    """`warband fmt` (its options and help: cli/commands.py)."""
    from warband.diagnostics import Sources
    from warband.lists.fmt import format_source
    from warband.lists.warband_file import STDIN, read_source
    sources, unusable, would_change = Sources(), False, False
    for arg in files:
        source = read_source(arg)
        result = format_source(source)
        if result.original is not None:
            sources.add(result.name, result.original)
        if result.text is None:
            emit(result.diagnostics, sources)
            unusable = True
            continue
        if diff:
            sys.stdout.write(printable(result.diff(), lines=True))   # the file's text, shown
        if result.changed:
            would_change = True
            if check:
                sys.stderr.write(f"would reformat {printable(result.name)}\n")
        if check or diff:
            continue
        if arg == STDIN:
            sys.stdout.write(result.text)
        elif result.changed:
            problem = rewrite_output(arg, result.text, source.raw or b"", force)
            if problem is not None:
                emit([problem], None)
                unusable = True
                continue
            sys.stderr.write(f"reformatted {printable(result.name)}\n")
    raise typer.Exit(UNUSABLE if unusable else FINDINGS if check and would_change else OK)
