"""Whether to colour what the toolkit writes: on when the stream is a terminal; off when it is
not (a pipe, a file) or NO_COLOR is set (https://no-color.org); FORCE_COLOR (set and not empty)
turns it on even through a pipe (https://force-color.org). NO_COLOR wins over FORCE_COLOR, as in
rich.

A module of its own, without rich: a command that writes plain text (`warband validate`, whose
diagnostics colour themselves) asks it without loading rich's console (warband/terminal.py).
"""

from __future__ import annotations

import os
from typing import IO


def colour_wanted(stream: IO[str] | None) -> bool:
    """Whether to colour what goes to `stream` (see the module's docstring)."""
    if os.environ.get("NO_COLOR"):
        return False
    if os.environ.get("FORCE_COLOR"):
        return True
    isatty = getattr(stream, "isatty", None)
    try:
        return bool(isatty and isatty())
    except ValueError:   # a closed stream
        return False


__all__ = ["colour_wanted"]
