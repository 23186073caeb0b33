"""The pipeline from rules text to Ruleset, in one place:

    read -> parse (Lark) -> build (AST) -> collect names -> check -> assemble (Ruleset)

Compiled rulesets are cached by the hash of their text (and of the toolkit and grammar), in memory
and on disk, so a second run over an unchanged file skips the whole pipeline.
"""

from __future__ import annotations

import hashlib
import os
import pickle
import re
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from warband import __version__
from warband.diagnostics import Diagnostic, Severity, Sources, Span, diag, did_you_mean

BUILTIN_DIR = Path(__file__).parent.with_name("dsl")
if not BUILTIN_DIR.is_dir():  # a source checkout: the rules live at the repository's top
    BUILTIN_DIR = Path(__file__).resolve().parents[3] / "dsl"

MAX_RULES_BYTES = 2_000_000
_HEADER = re.compile(r'^\s*ruleset\s+"([^"\n]*)"(?:\s+title\s+"((?:\\.|[^"\\\n])*)")?',
                     re.MULTILINE)


@dataclass
class Compiled:
    """What compiling one rules file gives: a Ruleset (None on errors) and every diagnostic."""

    ruleset: object | None
    diagnostics: list[Diagnostic]
    sources: Sources = field(default_factory=Sources)

    @property
    def errors(self) -> list[Diagnostic]:
        return [d for d in self.diagnostics if d.severity is Severity.ERROR]


def compile_text(text: str, file: str) -> Compiled:
    from warband.lang.checker import check
    from warband.lang.parser import parse
    from warband.lang.ruleset import assemble
    from warband.lang.symbols import collect

    from warband.lang.layers import explain_removed, layer

    sources = Sources({file: text})
    module, diagnostics = parse(text, file)
    if module is None:
        return Compiled(None, diagnostics, sources)
    if module.header is None and not any(d.code == "E105" for d in diagnostics):
        diagnostics.append(diag("E105", "the file does not start with a ruleset header",
                                Span(file, 1, 1), hint='begin the file with: ruleset "my-rules"'))
    # house rules: the base (and its base...) merged in; every declaration keeps its own file
    module, found, layering = layer(module, sources)
    diagnostics += found
    if layering.failed:
        diagnostics.sort(key=Diagnostic.sort_key)
        return Compiled(None, diagnostics, sources)
    table, found = collect(module)
    diagnostics += found
    _, found = check(module, table)
    diagnostics += explain_removed(found, layering.removed)
    if any(type(d).__name__ == "ConversionDecl" for d in module.decls):
        from warband.lang.conversion import check_module  # it names two other rulesets: load them
        diagnostics += check_module(module, sources)
    ruleset = None
    if module.header is not None and not any(d.is_error for d in diagnostics):
        ruleset, found = assemble(module, table)
        diagnostics += found
        if any(d.is_error for d in found):
            ruleset = None
    diagnostics.sort(key=Diagnostic.sort_key)
    if ruleset is not None:
        from warband.lang.ruleset import provenance
        object.__setattr__(ruleset, "warnings", tuple(diagnostics))
        object.__setattr__(ruleset, "layers", tuple(layering.layers))
        object.__setattr__(ruleset, "origins", provenance(module, table, layering.overrides))
    return Compiled(ruleset, diagnostics, sources)


# ---- caching ----------------------------------------------------------------------------------

_memory: dict[str, Compiled] = {}


def _cache_dir() -> Path | None:
    if os.environ.get("WARBAND_NO_CACHE"):
        return None
    if os.environ.get("WARBAND_CACHE_DIR"):
        return Path(os.environ["WARBAND_CACHE_DIR"])
    base = os.environ.get("XDG_CACHE_HOME")
    return (Path(base) if base else Path.home() / ".cache") / "warband"


_toolkit: list[bytes] = []


def _toolkit_fingerprint() -> bytes:
    """The grammar and the toolkit's own source: a cached Ruleset is only reused by the exact
    code that made it (a changed module changes what a Ruleset holds), whatever the version."""
    if not _toolkit:
        h = hashlib.sha256(__version__.encode())
        h.update((BUILTIN_DIR / "warband.lark").read_bytes())
        for module in sorted(Path(__file__).parents[1].rglob("*.py")):
            h.update(module.read_bytes())
        _toolkit.append(h.digest())
    return _toolkit[0]


def _key(text: str, file: str) -> str:
    h = hashlib.sha256(_toolkit_fingerprint())
    for part in (file, text, *_base_texts(text, file)):
        h.update(part.encode("utf-8"))
        h.update(b"\0")
    return h.hexdigest()


_EXTENDS = re.compile(r'^\s*extends\s+"([^"\n]*)"', re.MULTILINE)


def _base_texts(text: str, file: str) -> list[str]:
    """The text of every base a file extends, directly or not: a house file's compiled form
    changes when any layer under it does, so all of them are part of its cache key. A base that
    cannot be found or read only ends the list (compiling reports it)."""
    from warband.lang.layers import MAX_LAYERS
    out: list[str] = []
    for _ in range(MAX_LAYERS):
        m = _EXTENDS.search(text)
        if m is None:
            break
        ref = m.group(1)
        path = next((b.path for b in builtins() if b.id == ref), None)
        if path is None:
            path = Path(ref) if Path(ref).is_absolute() else Path(file).parent / ref
        try:
            text = path.read_text(encoding="utf-8-sig")
        except (OSError, UnicodeDecodeError):
            out.append(f"<unreadable {path}>")
            break
        out += [str(path), text]
        file = str(path)
    return out


def compile_cached(text: str, file: str) -> Compiled:
    key = _key(text, file)
    if key in _memory:
        return _memory[key]
    directory = _cache_dir()
    path = directory / f"{key}.pickle" if directory else None
    if path is not None and path.is_file():
        try:
            with path.open("rb") as fh:
                compiled = pickle.load(fh)
            _memory[key] = compiled
            return compiled
        except Exception:  # a stale or damaged cache entry is only a cache miss
            pass
    compiled = compile_text(text, file)
    _memory[key] = compiled
    if path is not None and compiled.ruleset is not None:
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(dir=path.parent, suffix=".tmp")
            with os.fdopen(fd, "wb") as fh:
                pickle.dump(compiled, fh, protocol=pickle.HIGHEST_PROTOCOL)
            os.replace(tmp, path)
        except OSError:  # a read-only home only costs speed
            pass
    return compiled


# ---- finding rules files ----------------------------------------------------------------------------

@dataclass(frozen=True)
class BuiltIn:
    id: str
    title: str
    path: Path
    extends: str | None = None   # the base of a shipped house-rules file


def builtins() -> list[BuiltIn]:
    """The shipped rulesets, read from their headers without compiling them."""
    found = []
    for path in sorted(BUILTIN_DIR.glob("*.rules")):
        text = path.read_text(encoding="utf-8")
        m = _HEADER.search(text)
        if m:
            base = _EXTENDS.search(text)
            title = (m.group(2) or m.group(1)).replace('\\"', '"')
            found.append(BuiltIn(m.group(1), title, path, base.group(1) if base else None))
    return found


def resolve(ref: str) -> tuple[Path | None, Diagnostic | None]:
    """A built-in id or a path to a rules file."""
    for b in builtins():
        if b.id == ref:
            return b.path, None
    path = Path(ref)
    # os.path's tests, not Path's: they answer False for a name the system refuses (too long)
    if path.suffix == ".rules" or os.sep in ref or os.path.exists(path):
        if os.path.isfile(path):
            return path, None
        if os.path.isdir(path):
            return None, diag("E100", f"{ref} is a folder, not a rules file", None,
                              hint=f"name the files: {ref.rstrip(os.sep)}{os.sep}*.rules")
        return None, diag("E100", f"no such rules file: {ref}", None)
    from warband.game.scenario import shipped   # a shipped scenario is a rules file too
    for sid, _, scenario_path in shipped():
        if sid == ref:
            return scenario_path, None
    ids = [b.id for b in builtins()]
    return None, diag("E404", f"unknown ruleset '{ref}'", None,
                      hint=did_you_mean(ref, ids) or f"built-in rulesets: {', '.join(ids)}")


def display_path(path: Path) -> str:
    """Paths as a user reads them: relative to the working directory when inside it."""
    try:
        relative = os.path.relpath(path)
    except ValueError:  # another drive, on Windows
        return str(path)
    return str(Path(path).resolve()) if relative.startswith("..") else relative


def load(ref: str) -> Compiled:
    """Compile a built-in ruleset by id, or a rules file by path."""
    path, problem = resolve(ref)
    if problem is not None:
        return Compiled(None, [problem])
    name = display_path(path)
    try:
        raw = path.read_bytes()
    except OSError as error:
        return Compiled(None, [diag("E100", f"cannot read {name}: {error.strerror}", None)])
    if len(raw) > MAX_RULES_BYTES:
        return Compiled(None, [diag("E403", f"{name} is larger than {MAX_RULES_BYTES:,} bytes",
                                    Span(name, 1, 1))])
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        line = raw[:error.start].count(b"\n") + 1
        col = error.start - (raw.rfind(b"\n", 0, error.start) + 1) + 1
        return Compiled(None, [diag("E100", "the file is not UTF-8 text", Span(name, line, col),
                                    hint="save the file as UTF-8")])
    return compile_cached(text, name)
