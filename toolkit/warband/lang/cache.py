"""What was compiled, kept: in memory for the run, and on disk between runs.

An entry's key is the hash of the rules text, its file name, the text of every base it extends
and the toolkit itself (its version, grammar and every module of the package), so a second run
over unchanged files skips the whole pipeline, and any change anywhere makes a new key.
"""

from __future__ import annotations

import hashlib
import os
import pickle
import tempfile
from pathlib import Path

from warband import __version__, catalog
from warband.limits import MAX_LAYERS

PACKAGE = Path(__file__).resolve().parents[1]   # the warband package: every module of it

_memory: dict[str, object] = {}
_fingerprint: list[bytes] = []


def folder() -> Path | None:
    """Where compiled rulesets are kept on disk, or None when caching is off."""
    if os.environ.get("WARBAND_NO_CACHE"):
        return None
    if os.environ.get("WARBAND_CACHE_DIR"):
        return Path(os.environ["WARBAND_CACHE_DIR"])
    base = os.environ.get("XDG_CACHE_HOME")
    return (Path(base) if base else Path.home() / ".cache") / "warband"


def modules(package: Path = PACKAGE) -> list[Path]:
    """Every module of the package, in every subpackage: the code a cached Ruleset was made by."""
    return sorted(package.rglob("*.py"))


def fingerprint(package: Path) -> bytes:
    """The version, the grammar and every module of `package` with its place in it: a module
    changed, added or moved anywhere makes a new fingerprint."""
    h = hashlib.sha256(__version__.encode())
    h.update(catalog.GRAMMAR.read_bytes())
    for module in modules(package):
        h.update(module.relative_to(package).as_posix().encode())
        h.update(b"\0")
        h.update(module.read_bytes())
        h.update(b"\0")
    return h.digest()


def toolkit_fingerprint() -> bytes:
    """The running toolkit's fingerprint, read once per process: a cached Ruleset is only
    reused by the exact code that made it (a changed module changes what a Ruleset holds),
    whatever the version says."""
    if not _fingerprint:
        _fingerprint.append(fingerprint(PACKAGE))
    return _fingerprint[0]


def key(text: str, file: str) -> str:
    h = hashlib.sha256(toolkit_fingerprint())
    for part in (file, text, *_base_texts(text, file)):
        h.update(part.encode("utf-8"))
        h.update(b"\0")
    return h.hexdigest()


def _base_texts(text: str, file: str) -> list[str]:
    """The text of every base a file extends, directly or not: a house file's compiled form
    changes when any layer under it does, so all of them are part of its cache key. A base that
    cannot be found or read only ends the list (compiling reports it)."""
    out: list[str] = []
    for _ in range(MAX_LAYERS):
        ref = catalog.extends_of(text)
        if ref is None:
            break
        path = catalog.resolve(ref, catalog.rulesets(), Path(file).parent).path or \
            Path(file).parent / ref
        read = catalog.read_rules(path)
        if isinstance(read, catalog.Unreadable):
            out.append(f"<unreadable {path}>")
            break
        text = read
        out += [str(path), text]
        file = str(path)
    return out


def get(entry: str) -> object | None:
    """What was kept under a key: from memory, else from disk (None: a miss)."""
    if entry in _memory:
        return _memory[entry]
    directory = folder()
    path = directory / f"{entry}.pickle" if directory else None
    if path is not None and path.is_file():
        try:
            with path.open("rb") as fh:
                found = pickle.load(fh)
            _memory[entry] = found
            return found
        except Exception:  # a stale or damaged cache entry is only a cache miss
            pass
    return None


def put(entry: str, value: object, *, keep_on_disk: bool) -> None:
    _memory[entry] = value
    directory = folder()
    if directory is None or not keep_on_disk:
        return
    try:
        directory.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=directory, suffix=".tmp")
        with os.fdopen(fd, "wb") as fh:
            pickle.dump(value, fh, protocol=pickle.HIGHEST_PROTOCOL)
        os.replace(tmp, directory / f"{entry}.pickle")
    except OSError:  # a read-only home only costs speed
        pass


def clear_memory() -> None:
    """Forget what this process compiled (benchmarks measure a cold run)."""
    _memory.clear()
