"""Writing output files safely: atomically, and never over an existing file unless asked.

The data is written to a temporary file in the target's folder, flushed to disk, then moved into
place in one step (os.replace, or os.link when the target must not exist yet), so a reader never
sees half a file and an error leaves nothing behind: neither a temporary file nor a damaged
target.
"""

from __future__ import annotations

import os
import stat
import tempfile
from pathlib import Path


class OutputError(Exception):
    """The file cannot be written; the message is for the user."""


class OutputExists(OutputError):
    """The target exists and overwriting it was not asked for."""


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def write_atomic(path: str | os.PathLike, data: str | bytes, *, force: bool = False) -> None:
    """Write `data` (text is UTF-8) to `path` in one step. An existing file is replaced only with
    force=True (keeping its permissions); otherwise OutputExists is raised and nothing changes."""
    target = Path(path)
    if os.path.isdir(target):   # os.path, not Path: no exception for a name too long
        raise OutputError(f"{target} is a directory")
    if os.path.exists(target) and not force:
        raise OutputExists(f"{target} exists; use --force to replace it")
    raw = data.encode("utf-8") if isinstance(data, str) else data
    folder = target.parent if str(target.parent) else Path(".")
    try:
        mode = stat.S_IMODE(target.stat().st_mode)
    except OSError:
        mode = 0o666 & ~_umask()
    try:
        fd, tmp = tempfile.mkstemp(dir=folder, prefix=f".{target.name}.", suffix=".tmp")
    except OSError as error:
        raise OutputError(f"cannot write {target}: {error.strerror or error}") from None
    try:
        with os.fdopen(fd, "wb") as stream:
            stream.write(raw)
            stream.flush()
            os.fsync(stream.fileno())
        os.chmod(tmp, mode)
        if force:
            os.replace(tmp, target)
        else:
            _place_new(tmp, target)
    except BaseException as error:
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
        if isinstance(error, OSError) and not isinstance(error, OutputError):
            raise OutputError(f"cannot write {target}: {error.strerror or error}") from None
        raise


def check_target(path: str | os.PathLike, *, force: bool = False) -> None:
    """Before any work: raise OutputError (a message for the user) if `path` cannot be the
    output: empty, a folder, in a folder that does not exist, or an existing file without
    force. write_atomic checks again when it writes."""
    if not str(path).strip():
        raise OutputError("the output path is empty; give a file name")
    target = Path(path)
    if os.path.isdir(target):
        raise OutputError(f"{target} is a folder; give a file name (e.g. {target}/out.txt)")
    folder = target.parent if str(target.parent) else Path(".")
    if not os.path.isdir(folder):
        raise OutputError(f"cannot write {target}: there is no folder {folder}")
    if os.path.exists(target) and not force:
        raise OutputExists(f"{target} exists; use --force to replace it")


def _place_new(tmp: str, target: Path) -> None:
    """Move the temporary file to a target that must not exist (checked again, atomically)."""
    try:
        os.link(tmp, target)   # fails if the target appeared meanwhile
    except FileExistsError:
        raise OutputExists(f"{target} exists; use --force to replace it") from None
    except OSError:            # a file system without hard links
        if os.path.exists(target):
            raise OutputExists(f"{target} exists; use --force to replace it") from None
        os.replace(tmp, target)
        return
    os.unlink(tmp)


__all__ = ["OutputError", "OutputExists", "check_target", "write_atomic"]
