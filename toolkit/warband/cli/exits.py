"""The exit codes of every command, and SIGTERM (no typer here: quick.py runs without it).

0 ok, 1 findings (a list with problems, a game that differs from its record), 2 unusable input
(a missing file, an unknown ruleset, a bad command line), 130 interrupted (Ctrl-C), 143
terminated (SIGTERM).
"""

from __future__ import annotations

OK, FINDINGS, UNUSABLE, INTERRUPTED, TERMINATED = 0, 1, 2, 130, 143


class Terminated(BaseException):
    """Raised in the main thread when the process gets SIGTERM (see `warband.cli.main`).

    Like KeyboardInterrupt it is no Exception, so no `except Exception` swallows it: it unwinds
    through every clean-up (a temporary file removed, a pool of workers stopped) to `main`,
    which exits with TERMINATED. Unlike KeyboardInterrupt, click does not turn it into
    "Aborted!" and exit 1."""


def on_sigterm(signum: int, frame: object) -> None:
    """The SIGTERM handler `main` installs: raise Terminated once; a second SIGTERM while the
    first one is being cleaned up after (`timeout` sends one to the process and one to its
    group) is ignored rather than cutting the clean-up short."""
    import signal
    signal.signal(signal.SIGTERM, lambda *_: None)
    raise Terminated()
