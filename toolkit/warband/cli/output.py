"""Writing output files safely: atomically, and never over an existing file unless asked.

The data is written to a temporary file in the target's folder, flushed to disk, then moved into
place in one step (os.replace, or os.link when the target must not exist yet), so a reader never
sees half a file and an error leaves nothing behind: neither a temporary file nor a damaged
target.

What the name given stands for is kept: a symbolic link is followed (its target is written, the
link stays a link); an existing target that is no regular file (a device such as /dev/null, a
FIFO) is written in place, never replaced by a regular file; a file rewritten in place by `fmt`
(`rewrite`) keeps its owner, group, mode and hard links, is refused when read-only (unless
forced), and is left alone when it changed since it was read.
"""

from __future__ import annotations

import errno
import os
import stat
import tempfile
from pathlib import Path


class OutputError(Exception):
    """The file cannot be written; the message (and the hint, if any) is for the user."""

    def __init__(self, message: str, hint: str | None = None):
        super().__init__(message)
        self.hint = hint


class OutputExists(OutputError):
    """The target exists and overwriting it was not asked for."""


class OutputChanged(OutputError):
    """The file changed after it was read: it is left as it is (an edit saved meanwhile)."""


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def write_atomic(path: str | os.PathLike, data: str | bytes, *, force: bool = False) -> None:
    """Write `data` (text is UTF-8) to `path` in one step. An existing file is replaced only with
    force=True (keeping its permissions, and its owner and group where this process may set
    them); otherwise OutputExists is raised and nothing changes. A symbolic link is followed; an
    existing target that is no regular file (/dev/null, a FIFO) is written in place."""
    given = Path(path)
    if os.path.isdir(given):   # os.path, not Path: no exception for a name too long
        raise OutputError(f"{given} is a directory")
    try:
        info: os.stat_result | None = os.stat(given)
    except FileNotFoundError:
        info = None
    except OSError as error:
        raise OutputError(f"cannot write {given}: {error.strerror or error}") from None
    if info is not None and not force:
        raise OutputExists(f"{given} exists; use --force to replace it")
    raw = data.encode("utf-8") if isinstance(data, str) else data
    if info is not None and not stat.S_ISREG(info.st_mode):
        _write_special(given, raw, info)
        return
    target = _followed(given)
    if info is None:
        _replace(target, raw, 0o666 & ~_umask(), None, new=True)
    else:
        _replace(target, raw, stat.S_IMODE(info.st_mode), (info.st_uid, info.st_gid))


def rewrite(path: str | os.PathLike, data: str | bytes, original: bytes, *,
            force: bool = False) -> None:
    """Replace the content of the file `path`, which was read as `original` (fmt's write).

    The file stays what it was: a symbolic link's target is written, not the link; its owner,
    group and mode are kept. It is refused (OutputError, nothing changed) when it is no regular
    file; when it is read-only, or has other names (hard links), or its owner or group cannot
    be kept by this process, unless force=True, which writes it in place; and (OutputChanged)
    when its content is no longer `original`, checked again just before the new file is put in
    place."""
    given = Path(path)
    target = _followed(given)
    try:
        info = os.stat(target)
    except OSError as error:
        raise OutputError(f"cannot write {given}: {error.strerror or error}") from None
    if not stat.S_ISREG(info.st_mode):
        raise OutputError(f"{given} is not a regular file; it is left as it is")
    _check_unchanged(given, target, info, original)
    raw = data.encode("utf-8") if isinstance(data, str) else data
    if not force and (not info.st_mode & 0o222 or not os.access(target, os.W_OK)):
        raise OutputError(f"{given} is read-only; it is left as it is",
                          hint="make it writable, or use --force to format it anyway")
    in_place = ""
    if info.st_nlink > 1:
        in_place = f"{given} has {info.st_nlink} names (hard links), which replacing it " \
                   "would split"
    elif not _may_own(info):
        in_place = f"{given} belongs to another user or group, and a new file would not"
    if in_place and not force:
        raise OutputError(f"{in_place}; it is left as it is",
                          hint="use --force to rewrite it in place (not atomically: a crash "
                               "in the middle could leave it half written)")
    if in_place:
        _write_in_place(target, raw, original)
    else:
        _replace(target, raw, stat.S_IMODE(info.st_mode), (info.st_uid, info.st_gid),
                 before=lambda: _check_unchanged(given, target, info, original))


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
    try:
        kind = os.stat(target).st_mode
    except OSError:
        return
    if not (stat.S_ISREG(kind) or stat.S_ISCHR(kind) or stat.S_ISFIFO(kind)):
        raise OutputError(f"{target} is not a regular file, a device such as /dev/null or a "
                          "FIFO; give a file name")


def is_device(path: str) -> bool:
    """A character device or FIFO (/dev/null, /dev/stdout): two outputs may share one."""
    try:
        return not stat.S_ISREG(os.stat(path).st_mode)
    except OSError:
        return False


def _followed(path: Path) -> Path:
    """Where a symbolic link leads (even one that leads nowhere yet), else the path itself."""
    return Path(os.path.realpath(path)) if os.path.islink(path) else path


def _may_own(info: os.stat_result) -> bool:
    """Whether a new file of this process can be given the owner and group of `info`."""
    if not hasattr(os, "geteuid") or os.geteuid() == 0:
        return True
    return info.st_uid == os.geteuid() and (info.st_gid == os.getegid()
                                            or info.st_gid in os.getgroups())


def _replace(target: Path, raw: bytes, mode: int, owner: tuple[int, int] | None, *,
             new: bool = False, before=None) -> None:
    """Write a temporary file next to `target`, then move it into place: over the target, or
    (new=True) only if there is still no target. `before()` runs just before the move."""
    folder = target.parent if str(target.parent) else Path(".")
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
        if owner is not None and hasattr(os, "chown"):
            made = os.stat(tmp)
            if (made.st_uid, made.st_gid) != owner:
                try:
                    os.chown(tmp, *owner)
                except PermissionError:
                    pass   # replacing a file as asked (-o --force): it becomes ours
        if before is not None:
            before()
        if new:
            _place_new(tmp, target)
        else:
            os.replace(tmp, target)
    except BaseException as error:
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
        if isinstance(error, OSError) and not isinstance(error, OutputError):
            raise OutputError(f"cannot write {target}: {error.strerror or error}") from None
        raise


def _check_unchanged(given: Path, target: Path, info: os.stat_result, original: bytes) -> None:
    """Raise OutputChanged if the file is no longer the one read (`info`, `original`)."""
    try:
        now = os.stat(target)
        with open(target, "rb") as stream:
            same = stream.read(len(original) + 1) == original
    except OSError:
        same = False
    else:
        same = same and (now.st_dev, now.st_ino, now.st_size, now.st_mtime_ns) == \
            (info.st_dev, info.st_ino, info.st_size, info.st_mtime_ns)
    if not same:
        raise OutputChanged(f"{given} changed after it was read; it is left as it is",
                            hint="someone (an editor?) saved it meanwhile: run the command "
                                 "again")


def _write_all(fd: int, raw: bytes, *, rewind: bool = True) -> None:
    """Write all of `raw`, from the start of the file (rewind) or where the stream is."""
    if rewind:
        os.lseek(fd, 0, os.SEEK_SET)
    view = memoryview(raw)
    while view:
        view = view[os.write(fd, view):]


def _write_in_place(target: Path, raw: bytes, original: bytes) -> None:
    """Overwrite a regular file's content in place (its inode, hence its names, owner and mode,
    stay): room is reserved first, so that a full disk fails before any byte changes; on any
    error, the interrupt included, the original content is written back."""
    try:
        fd = os.open(target, os.O_WRONLY)   # no O_TRUNC: cut to length once the data is in
    except OSError as error:
        raise OutputError(f"cannot write {target}: {error.strerror or error}") from None
    try:
        try:
            if hasattr(os, "posix_fallocate") and len(raw) > len(original):
                os.posix_fallocate(fd, 0, len(raw))
            _write_all(fd, raw)
            os.ftruncate(fd, len(raw))
            os.fsync(fd)
        except BaseException as error:
            try:
                _write_all(fd, original)
                os.ftruncate(fd, len(original))
                os.fsync(fd)
            except OSError:
                pass
            if isinstance(error, OSError):
                raise OutputError(f"cannot write {target}: {error.strerror or error}") from None
            raise
    finally:
        os.close(fd)


def _write_special(given: Path, raw: bytes, info: os.stat_result) -> None:
    """Write to an existing target that is no regular file: a character device (/dev/null) or a
    FIFO is opened for writing, as a shell's `>` would, never created, truncated or replaced;
    anything else (a block device, a socket) is refused."""
    fifo = stat.S_ISFIFO(info.st_mode)
    if not (fifo or stat.S_ISCHR(info.st_mode)):
        raise OutputError(f"{given} is not a regular file, a device such as /dev/null or a "
                          "FIFO; give a file name")
    flags = os.O_WRONLY | getattr(os, "O_NOCTTY", 0) | (os.O_NONBLOCK if fifo else 0)
    try:
        fd = os.open(given, flags)
    except OSError as error:
        if fifo and error.errno == errno.ENXIO:
            raise OutputError(f"cannot write {given}: no program is reading from that FIFO",
                              hint="start the reader first") from None
        raise OutputError(f"cannot write {given}: {error.strerror or error}") from None
    try:
        if fifo:
            os.set_blocking(fd, True)
        _write_all(fd, raw, rewind=False)
    except OSError as error:
        raise OutputError(f"cannot write {given}: {error.strerror or error}") from None
    finally:
        os.close(fd)


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


__all__ = ["OutputChanged", "OutputError", "OutputExists", "check_target", "is_device",
           "rewrite", "write_atomic"]
