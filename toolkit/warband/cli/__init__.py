"""The `warband` command: `main`, which runs the command line of commands.py.

`warband validate FILE...` is the command a pre-commit hook or an editor runs on every save, so
its start-up counts: a plain one (files, `--format`, `--strict`, `--ruleset`, nothing else) is
run by quick.py without loading the command line's machinery (typer and click, a third of its
time: benchmarks/bench_validate.py); anything else, and any mistake in it, goes to commands.py,
which says what is wrong as always. Both print the same and exit alike
(tests/test_quick_validate.py). `from warband.cli import app` gives commands.py's typer app.
"""

from __future__ import annotations


def main() -> None:
    """The `warband` command. SIGTERM takes the path an interrupt takes (every clean-up runs:
    no temporary file left, no worker process left) and ends with exit 143. The handler is
    installed here, not when the module is imported: processes that import the command line
    without running it (spawned simulation workers) keep the default, so that their pool can
    stop them with SIGTERM."""
    import signal
    import sys

    from warband.cli import quick
    try:
        signal.signal(signal.SIGTERM, quick.on_sigterm)
    except ValueError:   # called from a thread other than the main one: only it may
        pass
    code = quick.validate(sys.argv[1:])
    if code is not None:
        sys.exit(code)
    from warband.cli.commands import app
    from warband.cli.common import OK, TERMINATED, Terminated
    try:
        app()
    except Terminated:
        sys.stderr.write("warband: terminated\n")
        sys.exit(TERMINATED)
    except SystemExit as done:
        # standard output closed before all was written (`warband rules show X | head -1`):
        # what was wanted was read, so this is no failure. Click then exits 1 with standard
        # output wrapped so that nothing more is written (its PacifyFlushWrapper)
        if done.code == 1 and type(sys.stdout).__name__ == "PacifyFlushWrapper":
            sys.exit(OK)
        raise


def __getattr__(name: str):
    """`from warband.cli import app` (and the command line's other names): commands.py's,
    loaded when first asked for. A submodule's name is left to the import system (asked here
    when it is first imported: loading commands.py then would undo the quick path)."""
    import importlib
    import importlib.util
    if name.startswith("__") or importlib.util.find_spec(f"{__name__}.{name}") is not None:
        raise AttributeError(name)
    commands = importlib.import_module(f"{__name__}.commands")
    if name in vars(commands):
        return vars(commands)[name]
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
