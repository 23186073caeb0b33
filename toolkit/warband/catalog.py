"""The files the toolkit ships and the files users name: where each is, and reading them.

Every stage that meets a reference to rules (a command-line argument, a warband's `ruleset:`, a
house file's `extends`, a conversion's `from`/`to`, a scenario's warband files) resolves it
here, and every rules file is read here, so that all of them mean the same thing by an id or
a path:

- an id is a shipped ruleset (`dsl/*.rules`) or, where asked for, a shipped scenario
  (`scenarios/*.rules`), named by the header `ruleset "ID"`;
- a path is anything ending in `.rules` or holding a path separator, read relative to the
  folder of the file that names it (or to the working directory, for the command line).

Where each caller's words differ (an unknown ruleset after `extends` is not an unknown ruleset on
the command line), the caller words the diagnostic from what `resolve` and `read_rules` found.
"""

from __future__ import annotations

import os
import re
import stat
from dataclasses import dataclass, field
from pathlib import Path

from warband.limits import MAX_RULES_BYTES

_HERE = Path(__file__).parent
# Installed from a wheel, the shipped files sit inside the package; in a source checkout they
# live at the repository's top.
RULES_DIR = _HERE / "dsl" if (_HERE / "dsl").is_dir() else _HERE.parents[1] / "dsl"
SCENARIO_DIR = _HERE / "scenarios" if (_HERE / "scenarios").is_dir() else \
    _HERE.parents[1] / "scenarios"
WARBANDS_DIR = _HERE / "warbands" if (_HERE / "warbands").is_dir() else \
    _HERE.parents[1] / "warbands"   # the warbands the shipped scenarios play
SCHEMAS_DIR = _HERE / "schemas" if (_HERE / "schemas").is_dir() else \
    _HERE.parents[1] / "schemas"   # the shipped rulesets' schemas, for editors' modelines
CONVERSIONS_DIR = RULES_DIR / "conversions"
GRAMMAR = RULES_DIR / "warband.lark"

# The header of a rules file: `ruleset "ID" title "TITLE"` (the title may hold \" escapes), and
# the `extends "BASE"` after it.
_HEADER = re.compile(r'^\s*ruleset\s+"([^"\n]*)"(?:\s+title\s+"((?:\\.|[^"\\\n])*)")?',
                     re.MULTILINE)
_EXTENDS = re.compile(r'^\s*extends\s+"([^"\n]*)"', re.MULTILINE)
# A conversion's line: `conversion (f) from "A" to "B"`, found without compiling anything.
_CONVERSION = re.compile(r'conversion\s*\(\s*\w+\s*\)\s*from\s*"([^"\n]*)"\s*to\s*"([^"\n]*)"')


@dataclass(frozen=True)
class Header:
    """What a rules file's first lines say of it, read without parsing the file."""

    id: str
    title: str
    extends: str | None = None


def read_header(text: str) -> Header | None:
    m = _HEADER.search(text)
    if m is None:
        return None
    base = _EXTENDS.search(text)
    title = (m.group(2) or m.group(1)).replace('\\"', '"')
    return Header(m.group(1), title, base.group(1) if base else None)


def extends_of(text: str) -> str | None:
    """The base a rules text names after `extends`, if any (the header need not be readable)."""
    m = _EXTENDS.search(text)
    return m.group(1) if m else None


def conversions_of(text: str) -> list[tuple[str, str]]:
    """The (source, target) rulesets of every conversion a rules text declares."""
    return [(m.group(1), m.group(2)) for m in _CONVERSION.finditer(text)]


@dataclass(frozen=True)
class Shipped:
    """A ruleset or scenario that comes with the toolkit."""

    id: str
    title: str
    path: Path
    extends: str | None = None   # the base of a shipped house-rules file


def _shipped(folder: Path) -> list[Shipped]:
    found = []
    for path in sorted(folder.glob("*.rules")):
        header = read_header(path.read_text(encoding="utf-8"))
        if header is not None:
            found.append(Shipped(header.id, header.title, path, header.extends))
    return found


def rulesets() -> list[Shipped]:
    """The shipped rulesets, read from their headers without compiling them."""
    return _shipped(RULES_DIR)


def scenarios() -> list[Shipped]:
    """The shipped scenarios, read from their headers without compiling them."""
    return _shipped(SCENARIO_DIR)


def conversion_files() -> list[Path]:
    """The shipped rules files that hold conversions between rulesets."""
    return sorted(CONVERSIONS_DIR.glob("*.rules")) if CONVERSIONS_DIR.is_dir() else []


# ---- resolving ------------------------------------------------------------------------------------

def looks_like_path(ref: str) -> bool:
    """Whether a reference is written as a path (never an id): a .rules name or a separator."""
    return ref.endswith(".rules") or "/" in ref or "\\" in ref or os.sep in ref


@dataclass(frozen=True)
class Resolved:
    """What a reference names: a file (`path`), or why there is none.

    - `tried`: the reference was a path, and this is where it was looked for (`folder` when that
      is a folder, not a file);
    - neither: it was not a path and no shipped id matches; `known` lists the ids it may mean."""

    path: Path | None
    tried: Path | None = None
    folder: bool = False
    known: list[str] = field(default_factory=list)
    refused: str | None = None   # why a file may not name this path (see `resolve`)


RULES_SUFFIXES = (".rules",)
WARBAND_SUFFIXES = (".yaml", ".yml")


def resolve(ref: str, among: list[Shipped], relative_to: Path | None = None, *,
            existing: bool = False, suffixes: tuple[str, ...] | None = None) -> Resolved:
    """A shipped id (one of `among`) or a path relative to `relative_to` (the folder of the file
    that names it; None: the working directory). With existing=True a reference that names an
    existing file is a path even without a separator (the command line's `my-rules`).

    `suffixes`: the reference is written in a file, which may come from anyone, so it may name
    only a file of its kind (RULES_SUFFIXES, WARBAND_SUFFIXES) by a path relative to itself:
    never an absolute path, nor any other file on the machine (`refused` says why)."""
    for shipped in among:
        if shipped.id == ref:
            return Resolved(shipped.path)
    path = Path(ref)
    as_path = looks_like_path(ref) or suffixes is not None and ref.lower().endswith(suffixes)
    if suffixes is not None and as_path:
        if path.is_absolute() or path.drive:
            return Resolved(None, tried=path, refused="absolute")
        if not ref.lower().endswith(suffixes):
            return Resolved(None, tried=path, refused="kind")
    if relative_to is not None and not path.is_absolute():
        path = relative_to / path
    # os.path's tests, not Path's: they answer False for a name the system refuses (too long)
    if as_path or existing and os.path.exists(path):
        if suffixes is not None and not _real_name(path).lower().endswith(suffixes):
            return Resolved(None, tried=path, refused="kind")   # a link to another kind of file
        if os.path.isfile(path):
            return Resolved(path)
        return Resolved(None, tried=path, folder=os.path.isdir(path))
    return Resolved(None, known=[s.id for s in among])


def _real_name(path: Path) -> str:
    """The path with every link followed; '' for a name no file can have (a NUL in it)."""
    try:
        return os.path.realpath(path)
    except (ValueError, OSError):
        return ""


# ---- reading --------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Unreadable:
    """Why a rules file could not be read: `reason` is 'os' (with the system's `detail`),
    'size' (over MAX_RULES_BYTES) or 'encoding' (not UTF-8, at `line`:`column`)."""

    reason: str
    detail: str = ""
    line: int = 1
    column: int = 1


def read_rules(path: Path) -> str | Unreadable:
    """The text of a rules file, or why it cannot be had. Only a regular file is read (a FIFO
    would wait for ever, a device never end), and its size is checked while reading, so a huge
    file is never read whole."""
    raw = read_regular(path, MAX_RULES_BYTES + 1)
    if isinstance(raw, Unreadable):
        return raw
    return rules_text(raw)


def rules_text(raw: bytes) -> str | Unreadable:
    """Bytes read as a rules file (at most one byte more than a rules file may have: standard
    input for `rules check -`), or why they cannot be one."""
    if len(raw) > MAX_RULES_BYTES:
        return Unreadable("size")
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        line = raw[:error.start].count(b"\n") + 1
        column = error.start - (raw.rfind(b"\n", 0, error.start) + 1) + 1
        return Unreadable("encoding", line=line, column=column)


def read_regular(path: Path | str, most: int) -> bytes | Unreadable:
    """At most `most` bytes of a regular file (opened without waiting: a FIFO is refused, not
    waited on), or why it cannot be read."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except OSError as error:
        return Unreadable("os", error.strerror or str(error))
    except ValueError:   # a NUL in the name
        return Unreadable("os", "no file can have this name")
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return Unreadable("os", "not a regular file")
        with os.fdopen(os.dup(fd), "rb") as stream:
            return stream.read(most)
    except OSError as error:
        return Unreadable("os", error.strerror or str(error))
    finally:
        os.close(fd)


def refusal_hint(resolved: Resolved, kind: str) -> str:
    """Why a file may not name a path, as a hint (`kind`: 'rules' or 'warband')."""
    suffixes = ", ".join(RULES_SUFFIXES if kind == "rules" else WARBAND_SUFFIXES)
    if resolved.refused == "absolute":
        return (f"a file names other files by a path relative to itself (a {kind} file "
                f"ending in {suffixes}), never an absolute path")
    return f"a file may name only {kind} files ({suffixes}), by a path relative to itself"


def display_path(path: Path | str) -> str:
    """Paths as a user reads them: relative to the working directory when inside it. A shipped
    file installed with the package is shown by its place among the shipped files
    (`dsl/smart.rules`, `scenarios/x.rules`, `warbands/x.yaml`), never by where the package
    happens to be (`.venv/lib/python3.11/site-packages/warband/dsl/...`, a temporary folder
    under pre-commit); in a source checkout, where they are the user's own files, so is one
    outside the working directory (rather than by an absolute path)."""
    shipped = _shipped_name(path)
    try:
        relative = os.path.relpath(path)
    except ValueError:  # another drive, on Windows
        return shipped or str(path)
    outside = relative.startswith("..")
    if shipped is not None and (outside or _installed(path)):
        # the shipped name, unless the working directory holds another file by that name
        # (a user's own dsl/smart.rules), which it would then seem to be; a checkout with the
        # toolkit installed into its own venv holds the very same text there, so it is that
        if not os.path.exists(shipped) or same_text(shipped, path):
            return shipped
    return str(Path(path).resolve()) if outside else relative


def same_text(a: Path | str, b: Path | str) -> bool:
    """Whether two paths are one file, or two files of the same bytes (a shipped file and its
    copy in the checkout it was installed from); a file too large for a rules file is not
    read."""
    try:
        if os.path.samefile(a, b):
            return True
        first, second = os.stat(a), os.stat(b)
        if not (stat.S_ISREG(first.st_mode) and stat.S_ISREG(second.st_mode)) or \
                first.st_size != second.st_size or first.st_size > MAX_RULES_BYTES:
            return False   # (a FIFO by the name is never opened)
        with open(a, "rb") as one, open(b, "rb") as other:
            return one.read() == other.read()
    except OSError:
        return False


def shipped(path: Path | str) -> bool:
    """Whether a file is one the toolkit ships (a ruleset, a scenario, a scenario's warband),
    wherever it lies: read-only to every command (`play --update` never rewrites one)."""
    return _shipped_name(path) is not None


def _installed(path: Path | str) -> bool:
    """Whether a file lies inside the package (a shipped file of an installed toolkit)."""
    try:
        return Path(os.path.realpath(path)).is_relative_to(os.path.realpath(_HERE))
    except (ValueError, OSError):
        return False


def _shipped_name(path: Path | str) -> str | None:
    """`dsl/...`, `scenarios/...` or `warbands/...` for a file among the shipped ones, else
    None."""
    try:
        real = Path(os.path.realpath(path))
    except (ValueError, OSError):
        return None
    for folder, name in ((RULES_DIR, "dsl"), (SCENARIO_DIR, "scenarios"),
                         (WARBANDS_DIR, "warbands")):
        try:
            inside = real.relative_to(os.path.realpath(folder))
        except ValueError:
            continue
        return "/".join((name, *inside.parts))
    return None
