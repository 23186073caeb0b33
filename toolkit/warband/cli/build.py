"""`warband build`: the list builder in the browser (its options and help: cli/commands.py).

What the page does is warband.builder's; this module checks the command line, opens the list
or the ruleset it names before anything is served (so that a mistake is reported here, with an
exit code, not in the page), hands the builder the one safe way to write files (output.py), and
serves until Ctrl-C (exit 130) or SIGTERM (143). Starlette and uvicorn are the optional extra
`build`: without them the command says how to install them.
"""

from __future__ import annotations

import importlib.util
import os
import shlex
import sys
from pathlib import Path

import typer

from warband.cli.common import INTERRUPTED, UNUSABLE, emit, load_or_exit
from warband.diagnostics import diag, printable

EXTRA = ("starlette", "uvicorn")


class AtomicWriter:
    """The builder's Writer: output.py's atomic writes, their refusals as the builder's."""

    def create(self, path: Path, data: bytes, *, replace: bool) -> None:
        from warband.builder.session import WriteFailed
        from warband.cli.output import OutputError, write_atomic
        try:
            write_atomic(path, data, force=replace)
        except OutputError as error:
            raise WriteFailed(str(error).replace("use --force", "tick 'replace'"),
                              error.hint) from None

    def rewrite(self, path: Path, data: bytes, original: bytes) -> None:
        from warband.builder.session import WriteFailed
        from warband.cli.output import OutputChanged, OutputError, rewrite
        try:
            rewrite(path, data, original)
        except OutputChanged as error:
            raise WriteFailed(str(error), "it was changed outside the builder since it was "
                                          "opened (an editor?): save the list under another "
                                          "name, or open the file again") from None
        except OutputError as error:   # read-only, hard links, another owner's
            raise WriteFailed(str(error), "save the list under another name") from None


def _fail(message: str, hint: str | None = None, code: str = "E930") -> None:
    emit([diag(code, message, None, hint=hint)], None)
    raise typer.Exit(UNUSABLE)


def build(target: str | None, folder: str | None, host: str, port: int, no_open: bool) -> None:
    missing = [name for name in EXTRA if importlib.util.find_spec(name) is None]
    if missing:
        _fail(f"the list builder needs {' and '.join(missing)}, which "
              f"{'is' if len(missing) == 1 else 'are'} not installed",
              f"install the extra into the Python that runs warband: "
              f"{shlex.quote(sys.executable)} -m pip install 'starlette>=0.40' 'uvicorn>=0.30' "
              "(what warband-toolkit[build] holds)")
    from warband import catalog
    from warband.builder import server
    from warband.builder.document import Unloadable
    from warband.builder.files import Refused
    from warband.builder.session import Session
    file: Path | None = None
    rules: Path | None = None
    shipped: str | None = None
    if target is not None and not target.strip():
        _fail("the ruleset or warband file is empty", "give a ruleset's id, a rules file or a "
              "warband file, or nothing to choose on the page", code="E901")
    if folder is not None and not folder.strip():
        _fail("the folder (--dir) is empty", "give a folder, e.g. --dir .", code="E901")
    if target is not None and target.lower().endswith(catalog.WARBAND_SUFFIXES):
        file = Path(target)
        if not file.is_file():
            _fail(f"no such warband file: {printable(target)}", code="E100")
    elif target is not None:
        load_or_exit(target)   # (an unknown id, a missing file, rules with errors: exit 2)
        found = catalog.resolve(target, catalog.rulesets(), existing=True)
        if found.path is not None and any(s.id == target for s in catalog.rulesets()):
            shipped = target
        elif found.path is not None:
            rules = Path(os.path.abspath(found.path))
    where = Path(folder) if folder is not None else (file.parent if file is not None
                                                     else Path("."))
    if not where.is_dir():
        _fail(f"{printable(str(where))} is not a folder", code="E901")
    if file is not None and not Path(os.path.realpath(file)).is_relative_to(
            os.path.realpath(where)):
        _fail(f"{printable(str(file))} is not in the folder {printable(str(where))}",
              "the builder reads and writes only in the folder --dir names (by default the "
              "file's own)", code="E901")
    if not server.loopback(host):
        sys.stderr.write(
            f"warning: the list builder listens on {printable(host)}, not only on this machine: "
            "anyone who can reach it and learns its address (with its key) can read and change "
            "your list and write warband files in the folder\n")

    def start(session: Session) -> None:
        if file is not None:
            session.open_path(Path(os.path.abspath(file)))
        elif rules is not None:
            session.new("given")
        elif shipped is not None:
            session.new(f"id:{shipped}")

    def announce(url: str) -> None:
        sys.stderr.write(f"warband build: the list builder is at {url}\n"
                         f"  (it reads and writes in {os.path.realpath(where)}; Ctrl-C stops it)\n")
        sys.stderr.flush()

    try:
        server.serve(where, AtomicWriter(), start=start, rules=rules, host=host, port=port,
                     open_browser=not no_open, announce=announce)
    except Unloadable as error:   # its problems, at their places in the file named here
        from dataclasses import replace

        from warband.diagnostics import Sources
        shown = target or error.name
        sources = Sources()
        if error.text is not None:
            sources.add(shown, error.text)
        emit([replace(d, span=replace(d.span, file=shown)) if d.span is not None and
              d.span.file == error.name else d for d in error.diagnostics], sources)
        _fail(f"{printable(shown)} cannot be opened: it does not load as a warband file",
              code="E100")
    except Refused as error:
        _fail(str(error), code="E100")
    except OSError as error:
        _fail(f"cannot listen on {printable(host)}:{port}: {error.strerror or error}",
              "give another --port (or 0 for a free one)" if port else None)
    except KeyboardInterrupt:
        sys.stderr.write("warband build: stopped\n")
        raise typer.Exit(INTERRUPTED) from None
