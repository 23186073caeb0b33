"""`warband lsp`: the language server, for editors (its options and help: cli/commands.py).

The server speaks the Language Server Protocol on standard input and output: an editor starts it
and talks to it; a person who runs it in a terminal is told so on standard error (standard output
is the protocol's). It needs the optional `lsp` extra (pygls); without it the command says how
to install it and exits 2.
"""

from __future__ import annotations

import importlib.util
import shlex
import sys

import typer

from warband.cli.common import OK, UNUSABLE

PYGLS = "pygls>=2.1,<3"


def lsp() -> None:
    """`warband lsp` (its options and help: cli/commands.py)."""
    if importlib.util.find_spec("pygls") is None:
        sys.stderr.write(
            "warband lsp: the language server needs pygls, which is not installed\n"
            f"  = hint: install it into the Python that runs warband: "
            f"{shlex.quote(sys.executable)} -m pip install '{PYGLS}' (what the extra "
            "warband-toolkit[lsp] holds)\n")
        raise typer.Exit(UNUSABLE)
    if sys.stdin.isatty():
        sys.stderr.write("warband lsp: a language server, for an editor to start; it reads the "
                         "Language Server Protocol on standard input (docs/editors.md). Ctrl-D "
                         "ends it.\n")
    from warband.lsp.server import serve
    serve()
    raise typer.Exit(OK)
