"""The one folder the builder may read and write, and the names the page may give in it.

The page names files by a plain name in the folder (`my-list.yaml`): no folder part, no path
of any kind, no name starting with a dot, and only the kinds the builder reads (warband files,
`.yaml`/`.yml`; rules files, `.rules`). A name that passes is still refused when the file it
names lies outside the folder once links are followed. Files are read only as regular files,
bounded in size (catalog.read_regular: a FIFO is refused, not waited on). The file the builder
was started with may sit in a folder under the chosen one; the page's own names may not.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path

from warband.catalog import RULES_SUFFIXES, WARBAND_SUFFIXES, Unreadable, read_regular
from warband.limits import MAX_BUILD_FILES, MAX_YAML_BYTES

# a plain file name: no separator, no control character, not starting with a dot or a dash
_PLAIN = re.compile(r"[^./\\\x00-\x1f\x7f-\x9f-][^/\\\x00-\x1f\x7f-\x9f]{0,199}")


class Refused(Exception):
    """A name the page may not use, or a file it cannot read: the message is for the user."""


@dataclass(frozen=True)
class Folder:
    """The folder the builder works in (its real path, links followed)."""

    root: Path

    @classmethod
    def at(cls, path: str | Path) -> Folder:
        real = Path(os.path.realpath(path))
        if not real.is_dir():
            raise Refused(f"{path} is not a folder")
        return cls(real)

    def inside(self, path: Path) -> bool:
        """Whether a path lies in the folder (or under it) once every link is followed."""
        try:
            return Path(os.path.realpath(path)).is_relative_to(self.root)
        except (ValueError, OSError):
            return False

    def name(self, name: str, suffixes: tuple[str, ...] = WARBAND_SUFFIXES) -> Path:
        """The file a name given by the page stands for, or Refused saying why not."""
        name = name.strip()
        if not _PLAIN.fullmatch(name):
            raise Refused(f"'{name}' is not a plain file name: give a name such as "
                          f"my-list{suffixes[0]}, with no folder")
        if not name.lower().endswith(suffixes):
            raise Refused(f"'{name}' must end in {' or '.join(suffixes)}")
        path = self.root / name
        if not self.inside(path):
            raise Refused(f"'{name}' leads out of the folder {self.root}")
        return path

    def relative(self, path: Path) -> str:
        """A file in the folder as the page shows it: its path from the folder, with '/'."""
        return Path(os.path.relpath(path, self.root)).as_posix()

    def listing(self, suffixes: tuple[str, ...]) -> list[str]:
        """The files of a kind in the folder itself (not below it), by name: regular files, or
        links to files inside the folder; at most MAX_BUILD_FILES of them."""
        found = []
        try:
            entries = sorted(os.scandir(self.root), key=lambda e: e.name)
        except OSError:
            return []
        for entry in entries:
            if not entry.name.lower().endswith(suffixes) or not _PLAIN.fullmatch(entry.name):
                continue
            try:
                regular = entry.is_file()   # (a link is followed)
            except OSError:
                continue
            if regular and self.inside(Path(entry.path)):
                found.append(entry.name)
                if len(found) >= MAX_BUILD_FILES:
                    break
        return found

    def read(self, path: Path) -> bytes:
        """A warband file's bytes (one byte more than a warband file may have, at most: the
        loader then says the file is too large), or Refused."""
        if not self.inside(path):
            raise Refused(f"{path.name} lies outside the folder {self.root}")
        raw = read_regular(path, MAX_YAML_BYTES + 1)
        if isinstance(raw, Unreadable):
            raise Refused(f"cannot read {self.relative(path)}: {raw.detail}")
        return raw


def warband_files(folder: Folder) -> list[str]:
    return folder.listing(WARBAND_SUFFIXES)


def rules_files(folder: Folder) -> list[str]:
    return folder.listing(RULES_SUFFIXES)


__all__ = ["Folder", "Refused", "rules_files", "warband_files"]
