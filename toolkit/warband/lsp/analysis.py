"""One rules text as the editor holds it, compiled: the compiler's diagnostics, and the names.

The text comes from the editor, never from the disk: a file being typed need not be saved. What
the compiler reads besides it (the bases a house file `extends`, the rulesets a conversion names)
it reads through the catalog, as `warband rules check` does, with the same confinement (a rules
file may name only `.rules` files, by ids or by paths relative to itself) and the same limits.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from lsprotocol import types

from warband import catalog
from warband.diagnostics import Diagnostic, Span, diag
from warband.lang.compiler import Compiled, Stages, compile_text
from warband.limits import MAX_RULES_BYTES
from warband.lsp.index import Index, build_index
from warband.lsp.positions import Lines

# where shipped files are shown from (catalog.display_path): the name's first folder
_SHIPPED_FOLDERS = {"dsl": lambda: catalog.RULES_DIR, "scenarios": lambda: catalog.SCENARIO_DIR,
                    "warbands": lambda: catalog.WARBANDS_DIR}


def file_name(path: Path | None, uri: str) -> str:
    """The name diagnostics and spans give a document: its path as the command line shows it,
    or, for a document that is no file (an editor's untitled buffer), the last part of its URI
    (a relative `extends` in it is then read from the server's working directory)."""
    if path is not None:
        return catalog.display_path(path)
    tail = uri.rstrip("/").rsplit("/", 1)[-1].rsplit(":", 1)[-1]
    return tail or "untitled.rules"


def path_of(name: str) -> Path | None:
    """The file a name given by catalog.display_path stands for: a path (relative to the
    working directory, as the command line reads it), or a shipped file shown by its place
    among the shipped ones (`dsl/smart.rules`)."""
    path = Path(name)
    first, _, rest = name.partition("/")
    folder = _SHIPPED_FOLDERS.get(first)
    if not path.is_absolute() and folder is not None and rest:
        # the shipped name stands for the shipped file, unless the working directory holds a
        # different file by that name (display_path then shows that one by the same name)
        shipped = folder() / rest
        if os.path.isfile(shipped) and (not os.path.lexists(path)
                                        or catalog.same_text(path, shipped)):
            return shipped
    return path if os.path.isfile(path) else None


@dataclass
class RulesAnalysis:
    """A rules document compiled: what the compiler said, what it made, and its names."""

    uri: str
    path: Path | None              # the document's file, if it is one
    version: int | None
    name: str                      # the file name the compiler gave the document's spans
    text: str
    lines: Lines
    compiled: Compiled
    stages: Stages
    index: Index

    @property
    def diagnostics(self) -> list[Diagnostic]:
        return self.compiled.diagnostics

    def source(self, file: str) -> str | None:
        return self.text if file == self.name else self.compiled.sources.texts.get(file)


def too_large(text: str) -> bool:
    # the UTF-8 size, as the catalog counts a file's bytes; a character is at most 4 bytes,
    # so most texts are judged without encoding them
    return len(text) * 4 > MAX_RULES_BYTES and len(text.encode("utf-8", "surrogatepass")) > \
        MAX_RULES_BYTES


def _readable(text: str) -> str:
    """The text, with a lone surrogate (JSON may carry one; no file can) as '?': one character
    for one, so that places stay where they were."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return text.encode("utf-8", "replace").decode("utf-8")
    return text


def analyse(text: str, uri: str, path: Path | None, version: int | None,
            encoding: str = types.PositionEncodingKind.Utf16) -> RulesAnalysis:
    """Compile a document's text (never its file on disk) and index its names."""
    name = file_name(path, uri)
    stages = Stages()
    if too_large(text):
        compiled = Compiled(None, [diag("E403", f"{name} is larger than {MAX_RULES_BYTES:,} "
                                                "bytes", Span(name, 1, 1))])
    else:
        compiled = compile_text(_readable(text), name, stages)
    index = build_index(stages.module, stages.table) if stages.module is not None else Index()
    return RulesAnalysis(uri, path, version, name, text, Lines(text, encoding), compiled, stages,
                         index)


__all__ = ["RulesAnalysis", "analyse", "file_name", "path_of", "too_large"]
