"""The pipeline from rules text to Ruleset, in one place:

    read -> parse (Lark) -> build (AST) -> layer (house rules) -> collect names -> check
         -> assemble (Ruleset)

`load` is the front door: a ruleset named by id or path, read through the catalog and compiled
once (lang/cache.py keeps what was compiled, in memory and on disk).
"""

from __future__ import annotations

import dataclasses
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from warband import catalog
from warband.diagnostics import Diagnostic, Severity, Sources, Span, diag, did_you_mean
from warband.lang import cache, nodes
from warband.lang.ruleset import Ruleset, assemble, provenance
from warband.limits import MAX_RULES_BYTES

if TYPE_CHECKING:
    from warband.lang.layers import Layering
    from warband.lang.symbols import SymbolTable


@dataclass
class Compiled:
    """What compiling one rules file gives: a Ruleset (None on errors) and every diagnostic."""

    ruleset: Ruleset | None
    diagnostics: list[Diagnostic]
    sources: Sources = field(default_factory=Sources)

    @property
    def errors(self) -> list[Diagnostic]:
        return [d for d in self.diagnostics if d.severity is Severity.ERROR]


@dataclass
class Stages:
    """What compile_text made on the way, for a tool that reads the rules as they are written
    (the language server: names, their declarations and uses, as the checker saw them). Passed
    in by the caller, filled as far as the stages got; never kept with a Compiled (the cache
    stores only what the rest of the toolkit reads)."""

    module: nodes.Module | None = None     # the file's declarations, its bases' merged in
    table: SymbolTable | None = None       # the global names of that module
    layering: Layering | None = None       # what is layered on what, overridden, removed


def compile_text(text: str, file: str, stages: Stages | None = None) -> Compiled:
    # lazily: a ruleset found in the cache needs none of the stages, so `warband validate`
    # on unchanged rules never loads Lark or the checker.
    from warband.lang.checker import check
    from warband.lang.conversion import check_module
    from warband.lang.layers import explain_removed, layer
    from warband.lang.parser import parse
    from warband.lang.symbols import collect

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
    if stages is not None:
        stages.module, stages.layering = module, layering
    if layering.failed:
        diagnostics.sort(key=Diagnostic.sort_key)
        return Compiled(None, diagnostics, sources)
    table, found = collect(module)
    diagnostics += found
    if stages is not None:
        stages.table = table
    _, found = check(module, table)
    diagnostics += explain_removed(found, layering.removed)
    if any(isinstance(d, nodes.ConversionDecl) for d in module.decls):
        diagnostics += check_module(module, sources, load)   # it names two other rulesets
    ruleset = None
    if module.header is not None and not any(d.is_error for d in diagnostics):
        ruleset, found = assemble(module, table)
        diagnostics += found
        if any(d.is_error for d in found):
            ruleset = None
    diagnostics.sort(key=Diagnostic.sort_key)
    if ruleset is not None:
        ruleset = dataclasses.replace(
            ruleset, warnings=tuple(diagnostics), layers=tuple(layering.layers),
            origins=provenance(module, table, layering.overrides))
    return Compiled(ruleset, diagnostics, sources)


def compile_cached(text: str, file: str) -> Compiled:
    """compile_text, or what an earlier compilation of the same text (and bases) gave."""
    key = cache.key(text, file)
    found = cache.get(key)
    # (whatever else the cache gives, even authenticated, is compiled again and replaced)
    if isinstance(found, Compiled) and (found.ruleset is not None or found.diagnostics):
        return found
    compiled = compile_text(text, file)
    cache.put(key, compiled, keep_on_disk=compiled.ruleset is not None)
    return compiled


# ---- finding rules files --------------------------------------------------------------------------

def locate(ref: str) -> tuple[Path | None, Diagnostic | None]:
    """A ruleset named on the command line: a shipped id, a rules file (relative to the working
    directory), or a shipped scenario (a scenario is a rules file too)."""
    shipped = catalog.rulesets()
    found = catalog.resolve(ref, shipped + catalog.scenarios(), existing=True)
    if found.path is not None:
        return found.path, None
    if found.folder:
        return None, diag("E100", f"{ref} is a folder, not a rules file", None,
                          hint=f"name the files: {ref.rstrip(os.sep)}{os.sep}*.rules")
    if found.tried is not None:
        return None, diag("E100", f"no such rules file: {ref}", None)
    ids = [s.id for s in shipped]
    return None, diag("E404", f"unknown ruleset '{ref}'", None,
                      hint=did_you_mean(ref, ids) or f"built-in rulesets: {', '.join(ids)}")


STDIN_NAME = "<stdin>"


def load_stdin(stream) -> Compiled:
    """Compile the rules text of a binary stream (standard input, for `rules check -`), read
    only as far as a rules file may go; a file it `extends` is found from the working
    directory."""
    return _compiled(catalog.rules_text(stream.read(MAX_RULES_BYTES + 1)), STDIN_NAME)


def load(ref: str) -> Compiled:
    """Compile a built-in ruleset by id, or a rules file by path."""
    path, problem = locate(ref)
    if path is None:
        return Compiled(None, [problem] if problem else [])
    name = catalog.display_path(path)
    return _compiled(catalog.read_rules(path), name)


def _compiled(text: str | catalog.Unreadable, name: str) -> Compiled:
    """A rules file's text compiled (or found in the cache), or why it could not be read."""
    if isinstance(text, catalog.Unreadable):
        if text.reason == "size":
            return Compiled(None, [diag("E403", f"{name} is larger than {MAX_RULES_BYTES:,} "
                                                "bytes", Span(name, 1, 1))])
        if text.reason == "encoding":
            return Compiled(None, [diag("E100", "the file is not UTF-8 text",
                                        Span(name, text.line, text.column),
                                        hint="save the file as UTF-8")])
        return Compiled(None, [diag("E100", f"cannot read {name}: {text.detail}", None)])
    return compile_cached(text, name)
