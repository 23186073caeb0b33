"""What every command shares: exit codes, output formats, showing diagnostics, loading a
ruleset, and writing output files.

Exit codes: 0 all is well, 1 findings (an invalid warband, a file fmt would change, a replay
that differs), 2 unusable input (a missing file, an unknown ruleset, a bad option), 130
interrupted (Ctrl-C in `simulate`), 143 terminated (SIGTERM: `kill`, `timeout`, a cancelled CI
job). Every failed write is one diagnostic, E642, whatever the command.

Like every command module, this one imports the library inside its functions: `warband --help`
and `--version` load none of it (not even the diagnostics, whose table of codes takes a few
milliseconds to build).
"""

from __future__ import annotations

import sys
from enum import Enum
from typing import IO, TYPE_CHECKING

import typer

if TYPE_CHECKING:
    from warband.diagnostics import Diagnostic, Sources
    from warband.lang.ruleset import Ruleset

from warband.cli.exits import (  # noqa: F401 - the exit codes, as every command knows them
    FINDINGS,
    INTERRUPTED,
    OK,
    TERMINATED,
    UNUSABLE,
    Terminated,
    on_sigterm,
)


class Format(str, Enum):
    text = "text"
    json = "json"


class ReportFormat(str, Enum):
    text = "text"
    json = "json"
    github = "github"
    sarif = "sarif"


class RosterFormat(str, Enum):
    text = "text"
    markdown = "markdown"
    html = "html"
    pdf = "pdf"


def emit(diagnostics: list[Diagnostic], sources: Sources | None, fmt: Format = Format.text,
         stream: IO[str] | None = None) -> None:
    """Diagnostics on standard error (or `stream`): rendered like a compiler's, or as JSON."""
    from warband.diagnostics import Sources, render_json, render_text
    from warband.colour import colour_wanted
    stream = stream or sys.stderr
    if not diagnostics:
        return
    if fmt is Format.json:
        stream.write(render_json(diagnostics) + "\n")
    else:
        # without sources, no excerpts: the diagnostics shown so have no span
        stream.write(render_text(diagnostics, sources if sources is not None else Sources(),
                                 colour=colour_wanted(stream)))


def fail(diagnostics: list[Diagnostic], sources: Sources | dict | None = None, *,
         code: int = UNUSABLE, stream: IO[str] | None = None) -> int:
    """Show the diagnostics on standard error and give the exit code to end with."""
    from warband.diagnostics import Sources, render_text
    from warband.colour import colour_wanted
    texts = sources if isinstance(sources, dict) else getattr(sources, "texts", None) or {}
    stream = stream or sys.stderr
    stream.write(render_text(diagnostics, Sources(dict(texts)), colour=colour_wanted(stream)))
    return code


def load_or_exit(ref: str) -> Ruleset:
    """Compile a ruleset for a command that needs it; exit 2 with diagnostics if it cannot."""
    from warband.diagnostics import printable
    from warband.lang.compiler import load
    compiled = load(ref)
    if compiled.ruleset is None:
        emit(compiled.errors or compiled.diagnostics, compiled.sources)
        if compiled.errors and compiled.errors[0].code not in ("E404", "E100"):
            ref = printable(ref)
            sys.stderr.write(f"the rules in '{ref}' have errors; run: warband rules check {ref}\n")
        raise typer.Exit(UNUSABLE)
    return compiled.ruleset


# ---- writing output files ----------------------------------------------------------------------

def check_output(path: str, force: bool) -> Diagnostic | None:
    """Before any work: why `path` cannot be written (E642), or None."""
    from warband.cli.output import OutputError, check_target
    from warband.diagnostics import diag
    try:
        check_target(path, force=force)   # a folder, no such folder, an existing file
    except OutputError as error:
        return diag("E642", str(error), None, hint=error.hint)
    return None


def check_outputs(outputs: list[tuple[str, str | None]], force: bool,
                  sources: Sources) -> list[Diagnostic]:
    """Before any work, for a command with several output options (`--output` first, then
    `--plot`, `--games-out`, ...): each file can be written (E642); no two name one file, and
    at most one goes to standard output (E645). `--output` left out means the report goes to
    standard output, so no other output may be `-`."""
    import os
    from dataclasses import replace

    from warband.cli.output import is_device
    from warband.diagnostics import Span, diag
    found: list[Diagnostic] = []
    seen: dict[str, str] = {}
    report = dict(outputs).get("--output")
    on_stdout = None if report is not None else "the report"
    for option, path in outputs:
        if path is None:
            continue
        sources.add(option, path)
        where = Span(option, 1, 1, 1, len(path) + 1)
        if path == "-" and option != "--output":
            if on_stdout is not None:
                found.append(diag("E645", f"{option} - and {on_stdout} would both go to "
                                          "standard output", where,
                                  hint="write the report to a file with -o FILE" if
                                  on_stdout == "the report" else "give one of them a file"))
            on_stdout = f"{option} -"
            continue
        problem = check_output(path, force)
        if problem is not None:
            found.append(replace(problem, span=where))
            continue
        key = os.path.realpath(path) if not is_device(path) else None
        if key is not None and key in seen:
            found.append(diag("E645", f"{option} and {seen[key]} name the same file '{path}'",
                              where, hint="give each output a file of its own"))
        elif key is not None:
            seen[key] = option
    return found


def write_output(path: str, data: str | bytes, force: bool) -> Diagnostic | None:
    """Write a file atomically (an existing one only with `force`); why it failed (E642), or
    None."""
    from warband.cli.output import OutputError, write_atomic
    from warband.diagnostics import diag
    try:
        write_atomic(path, data, force=force)
    except OutputError as error:
        return diag("E642", str(error), None, hint=error.hint)
    return None


def rewrite_output(path: str, data: str | bytes, original: bytes,
                   force: bool) -> Diagnostic | None:
    """Rewrite a file read as `original` (fmt): the same file, owner, group, mode and links;
    why it was not (E642: read-only, hard links or another owner without `force`, changed since
    it was read, or the write failed), or None. The file is then left as it was."""
    from warband.cli.output import OutputError, rewrite
    from warband.diagnostics import diag
    try:
        rewrite(path, data, original, force=force)
    except OutputError as error:
        return diag("E642", str(error), None, hint=error.hint)
    return None
