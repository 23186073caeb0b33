"""What was compiled, kept: in memory for the run, and on disk between runs.

An entry's key is the hash of the rules text, its file name, the text of every file it depends
on (the bases it extends, the rulesets its conversions name, and theirs) and the toolkit itself
(its version, grammar and every module of the package), so a second run over unchanged files
skips the whole pipeline, and any change anywhere makes a new key.

The cache folder may be shared or restored from somewhere else (a CI cache, a team's folder),
so nothing read from it is trusted: an entry is used only if it carries a valid HMAC-SHA256 tag
made with this user's own key, which lives outside the cache folder (`key_file`, mode 0600);
even then it is unpickled by an unpickler that makes only the toolkit's own data classes, and
what comes out must be a compiled ruleset. The folder itself must belong to this user and be
writable by nobody else. Anything unexpected is a cache miss: the entry is compiled again and
replaced. Writing never leaves a temporary file behind, and the folder keeps the newest
MAX_CACHE_ENTRIES entries.
"""

from __future__ import annotations

import hashlib
import hmac
import io
import os
import pickle
import stat
import tempfile
from pathlib import Path

from warband import __version__, catalog
from warband.limits import MAX_CACHE_ENTRIES, MAX_CACHE_ENTRY_BYTES, MAX_LAYERS

PACKAGE = Path(__file__).resolve().parents[1]   # the warband package: every module of it
SUFFIX = ".entry"
TAG_BYTES = 32   # an HMAC-SHA256 tag, before the pickle it authenticates

_memory: dict[str, object] = {}
_fingerprint: list[bytes] = []
_key: list[bytes | None] = []

# What a cached entry may be made of: the toolkit's compiled forms and the standard types they
# hold. The unpickler refuses every other global (a function, os.system, ...).
_ALLOWED_MODULES = ("warband.lang.compiler", "warband.lang.ruleset", "warband.lang.classes",
                    "warband.lang.units",
                    "warband.lang.nodes", "warband.lang.nodes_core", "warband.lang.nodes_decl",
                    "warband.lang.nodes_board", "warband.lang.nodes_flow", "warband.lang.nodes_event",
                    "warband.lang.nodes_campaign",
                    "warband.diagnostics")
_ALLOWED_GLOBALS = {("fractions", "Fraction")}


def folder() -> Path | None:
    """Where compiled rulesets are kept on disk, or None when caching is off."""
    if os.environ.get("WARBAND_NO_CACHE"):
        return None
    if os.environ.get("WARBAND_CACHE_DIR"):
        return Path(os.environ["WARBAND_CACHE_DIR"])
    base = os.environ.get("XDG_CACHE_HOME")
    if base:
        return Path(base) / "warband"
    home = _home()
    return home / ".cache" / "warband" if home is not None else None


def key_file() -> Path | None:
    """Where this user's cache key is kept: under XDG_STATE_HOME (~/.local/state), never in the
    cache folder, so that whoever can write the cache folder cannot forge an entry."""
    base = os.environ.get("XDG_STATE_HOME")
    if base:
        return Path(base) / "warband" / "cache.key"
    home = _home()
    return home / ".local" / "state" / "warband" / "cache.key" if home is not None else None


def _home() -> Path | None:
    """The user's home folder, if it exists (a missing one is not created: no cache then)."""
    try:
        home = Path.home()
    except (RuntimeError, KeyError):
        return None
    return home if home.is_dir() else None


# ---- the key of an entry ------------------------------------------------------------------------

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
    for part in (file, text, *_dependencies(text, file)):
        h.update(part.encode("utf-8"))
        h.update(b"\0")
    return h.hexdigest()


def _dependencies(text: str, file: str) -> list[str]:
    """The names and texts of every file a rules file's compiled form depends on: each base it
    extends, directly or not, and each ruleset a conversion in it names (with their bases). A
    file that cannot be found or read stands as a marker (compiling reports it)."""
    out: list[str] = []
    seen: set[str] = set()
    todo = [(text, file, 0)]
    while todo:
        text, file, depth = todo.pop()
        folder = Path(file).parent
        # (as layers.py and conversion.py find them: a shipped id, or a rules file relative to
        # the file; what a file may not name is never read)
        refs = [(ref, catalog.rulesets()) for ref in filter(None, [catalog.extends_of(text)])]
        refs += [(ref, catalog.rulesets() + catalog.scenarios())
                 for pair in catalog.conversions_of(text) for ref in pair]
        paths = []
        for ref, among in refs:
            found = catalog.resolve(ref, among, folder, suffixes=catalog.RULES_SUFFIXES)
            if found.refused is None:
                paths.append(found.path or folder / ref)
        for path in paths:
            if depth >= MAX_LAYERS:
                out.append(f"<too deep {path}>")
                continue
            name = str(path)
            if name in seen:
                continue
            seen.add(name)
            read = catalog.read_rules(path)
            if isinstance(read, catalog.Unreadable):
                out.append(f"<unreadable {name}>")
                continue
            out += [name, read]
            todo.append((read, name, depth + 1))
    return out


# ---- memory and disk ----------------------------------------------------------------------------

def get(entry: str) -> object | None:
    """What was kept under a key: from memory, else from disk (None: a miss)."""
    if entry in _memory:
        return _memory[entry]
    directory = _usable_folder(create=False)
    secret = _secret(create=False) if directory is not None else None
    if directory is None or secret is None:
        return None
    data = _read_entry(directory / f"{entry}{SUFFIX}")
    if data is None or len(data) < TAG_BYTES:
        return None
    tag, body = data[:TAG_BYTES], data[TAG_BYTES:]
    if not hmac.compare_digest(tag, _tag(secret, entry, body)):
        return None   # not made by this user's toolkit: never unpickled
    try:
        found = _Unpickler(io.BytesIO(body)).load()
    except Exception:  # a damaged entry, or one from another version: only a miss
        return None
    _memory[entry] = found
    return found


def put(entry: str, value: object, *, keep_on_disk: bool) -> None:
    _memory[entry] = value
    if not keep_on_disk:
        return
    directory = _usable_folder(create=True)
    secret = _secret(create=True) if directory is not None else None
    if directory is None or secret is None:
        return
    try:
        body = pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)
    except Exception:  # nothing that cannot be kept is kept
        return
    if len(body) > MAX_CACHE_ENTRY_BYTES:
        return
    tmp = None
    try:
        fd, tmp = tempfile.mkstemp(dir=directory, prefix=".", suffix=".tmp")
        with os.fdopen(fd, "wb") as fh:
            fh.write(_tag(secret, entry, body))
            fh.write(body)
        os.replace(tmp, directory / f"{entry}{SUFFIX}")
        tmp = None
        _prune(directory)
    except OSError:   # a full disk or a read-only home only costs speed
        pass
    finally:
        if tmp is not None:
            try:
                os.unlink(tmp)
            except OSError:
                pass


def clear_memory() -> None:
    """Forget what this process compiled (benchmarks measure a cold run)."""
    _memory.clear()


def _tag(secret: bytes, entry: str, body: bytes) -> bytes:
    """The entry's authentication: its key and its content, under this user's secret."""
    return hmac.new(secret, entry.encode() + b"\0" + body, hashlib.sha256).digest()


class _Unpickler(pickle.Unpickler):
    """Makes only the toolkit's own data classes and the standard types they hold."""

    def find_class(self, module: str, name: str) -> object:
        if module in _ALLOWED_MODULES or (module, name) in _ALLOWED_GLOBALS:
            found = super().find_class(module, name)
            if isinstance(found, type) and found.__module__ == module:
                return found
        raise pickle.UnpicklingError(f"{module}.{name} is not allowed in a cache entry")


def _owned_and_private(info: os.stat_result) -> bool:
    """Whether a folder or file is this user's and no one else may change it."""
    if hasattr(os, "getuid") and info.st_uid != os.getuid():
        return False
    return not info.st_mode & (stat.S_IWGRP | stat.S_IWOTH)


def _usable_folder(create: bool) -> Path | None:
    """The cache folder, if it is a folder of this user's that no one else may write (made,
    private, when `create`); else None, and the disk is not used."""
    directory = folder()
    if directory is None:
        return None
    try:
        info = os.stat(directory)
    except FileNotFoundError:
        if not create:
            return None
        try:
            directory.mkdir(mode=0o700, parents=True, exist_ok=True)
            info = os.stat(directory)
        except OSError:
            return None
    except OSError:
        return None
    if not stat.S_ISDIR(info.st_mode) or not _owned_and_private(info):
        return None
    return directory


def _secret(create: bool) -> bytes | None:
    """This user's cache key (made on first use, readable by this user alone), or None."""
    if _key:
        return _key[0]
    path = key_file()
    found: bytes | None = None
    if path is not None:
        found = _read_key(path)
        if found is None and create:
            found = _make_key(path)
    if found is not None or create:
        _key.append(found)
    return found


def _read_key(path: Path) -> bytes | None:
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
    except OSError:
        return None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode) or not _owned_and_private(info) or \
                info.st_mode & (stat.S_IRGRP | stat.S_IROTH):
            return None
        data = os.read(fd, 64)
    except OSError:
        return None
    finally:
        os.close(fd)
    return data if len(data) == 32 else None


def _make_key(path: Path) -> bytes | None:
    """A new key, written whole or not at all: to a temporary file beside it, then linked into
    place (only where none is), or put in place of a key file this user owns that holds no key
    (a full disk left a 0-byte cache.key, and with it the disk cache was off for good)."""
    import secrets  # lazily: made once per user; every other run only reads the key
    secret = secrets.token_bytes(32)
    try:
        path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    except OSError:
        return None
    temporary = path.with_name(f".{path.name}.{os.getpid()}.{secrets.token_hex(4)}.tmp")
    try:
        fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL |
                     getattr(os, "O_NOFOLLOW", 0), 0o600)
    except OSError:
        return None
    try:
        try:
            written = 0
            while written < len(secret):
                written += os.write(fd, secret[written:])
            os.fsync(fd)
        finally:
            os.close(fd)
        try:
            os.link(temporary, path)
        except FileExistsError:   # another process made it meanwhile, or a bad one lies there
            found = _read_key(path)
            if found is not None or not _broken_key(path):
                return found
            os.replace(temporary, path)
    except OSError:
        return None
    finally:
        try:
            os.unlink(temporary)
        except OSError:
            pass
    return _read_key(path)


def _broken_key(path: Path) -> bool:
    """Whether the key file is this user's own regular file that holds no key (cut short by a
    full disk, or empty): then a new key may take its place."""
    try:
        info = os.lstat(path)
    except OSError:
        return False
    return stat.S_ISREG(info.st_mode) and _owned_and_private(info) and info.st_size != 32


def _read_entry(path: Path) -> bytes | None:
    """An entry's bytes, if it is a regular file of this user's and not too large."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) |
                     getattr(os, "O_NONBLOCK", 0))
    except OSError:
        return None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode) or not _owned_and_private(info) or \
                info.st_size > MAX_CACHE_ENTRY_BYTES + TAG_BYTES:
            return None
        with os.fdopen(os.dup(fd), "rb") as fh:
            return fh.read(MAX_CACHE_ENTRY_BYTES + TAG_BYTES + 1)
    except OSError:
        return None
    finally:
        os.close(fd)


def _prune(directory: Path) -> None:
    """Keep the newest MAX_CACHE_ENTRIES entries (an edited rules file leaves its old ones)."""
    try:
        entries = [(e.stat().st_mtime, e.path) for e in os.scandir(directory)
                   if e.name.endswith(SUFFIX) and e.is_file(follow_symlinks=False)]
    except OSError:
        return
    if len(entries) <= MAX_CACHE_ENTRIES:
        return
    entries.sort(reverse=True)
    for _, old in entries[MAX_CACHE_ENTRIES:]:
        try:
            os.unlink(old)
        except OSError:
            pass
