"""`warband validate`, run without the command line's machinery (typer and click, a third of a
one-file run's time): what `main` runs for a plain `warband validate FILE...`.

A plain one is files (or `-`) with any of `--format text|json|github|sarif`, `--strict` and
`--ruleset ID|FILE`, each as one word with `=` or as two; anything else (`--help`, an unknown
option, a bad format, `--`, no file) is left to commands.py, which says what is wrong as
always. The run itself is `run_validate`, which the full command runs too (cli/lists.py): one
way to validate, two ways in.
"""

from __future__ import annotations

import os
import sys

from warband.cli.exits import FINDINGS, OK, UNUSABLE, Terminated, on_sigterm  # noqa: F401

FORMATS = ("text", "json", "github", "sarif")


def plain(argv: list[str]) -> tuple[list[str], str, bool, str | None] | None:
    """(files, format, strict, ruleset) of a plain `validate` command line, else None."""
    if not argv or argv[0] != "validate":
        return None
    files: list[str] = []
    fmt, strict, ruleset = "text", False, None
    i = 1
    while i < len(argv):
        word = argv[i]
        name, eq, value = word.partition("=")
        if word == "--strict":
            strict = True
        elif name in ("--format", "--ruleset"):
            if not eq:   # the value is the next word
                if i + 1 == len(argv) or argv[i + 1].startswith("-"):
                    return None
                i += 1
                value = argv[i]
            if name == "--format":
                if value not in FORMATS:
                    return None
                fmt = value
            else:
                if not value:
                    return None
                ruleset = value
        elif word == "-" or not word.startswith("-"):
            files.append(word)
        else:
            return None
        i += 1
    return (files, fmt, strict, ruleset) if files else None


def run_validate(files: list[str], fmt: str, strict: bool, ruleset: str | None) -> int:
    """Validate the files, print the report on standard output, and give the exit code."""
    from warband.colour import colour_wanted  # lazily: only a validation needs the rest
    from warband.lists import reporters
    from warband.lists.validate import validate as run
    report = run(files, default_ruleset=ruleset)
    sys.stdout.write(reporters.render(report, fmt, colour=colour_wanted(sys.stdout)))
    return UNUSABLE if report.unusable else FINDINGS if report.failed(strict) else OK


def validate(argv: list[str]) -> int | None:
    """Run a plain `warband validate` command line, giving its exit code; None for any other
    command line (WARBAND_QUICK=0: every one, for the tests that compare both ways)."""
    if os.environ.get("WARBAND_QUICK") == "0":
        return None
    found = plain(argv)
    if found is None:
        return None
    try:
        code = run_validate(*found)
        sys.stdout.flush()
    except BrokenPipeError:
        # standard output closed before all was written (`warband validate x | head -1`):
        # what was wanted was read, as for every other command; nothing more is written
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return OK
    except Terminated:
        sys.stderr.write("warband: terminated\n")
        return 143
    except KeyboardInterrupt:
        sys.stderr.write("Aborted!\n")
        return 130
    return code
