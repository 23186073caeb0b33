"""`warband lsp`: the language server, over standard input and output (pygls).

It holds the documents the editor has open, as the editor has them: a rules file (rulesets,
house rules, scenarios) or a warband file (YAML). A change is compiled after a pause in the
typing (`debounce`), and its diagnostics are published; a request (hover, definition, ...)
is answered from the analysis of the document's current text, compiled then if the pause has not
run out yet. What each feature does is in its own module; here they are put on the protocol.

Nothing an editor sends can stop the server: every handler answers with an empty result, and
logs the error to the client, rather than fail (a rules file from anyone is compiled, never run,
and the compiler reports rather than raises; this is the net under a bug of ours).
"""

from __future__ import annotations

import asyncio
import functools
import traceback
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar, cast

from lsprotocol import types
from pygls.lsp.server import LanguageServer
from pygls.uris import from_fs_path, to_fs_path

from warband import __version__
from warband.lsp import completion, fixes, navigation, outline, tokens, warband_yaml
from warband.lsp.analysis import RulesAnalysis, analyse, path_of
from warband.lsp.problems import Places, to_editor

DEBOUNCE = 0.15   # seconds of quiet after a keystroke before its diagnostics are worked out
_SYNTAX = ("E101", "E102", "E103", "E104", "E105")
_F = TypeVar("_F", bound=Callable[..., Any])


def _path(uri: str) -> Path | None:
    if not uri.startswith("file:"):
        return None
    found = to_fs_path(uri)
    return Path(found) if found else None


def uri_of(name: str) -> str | None:
    """The URI of a file the compiler read, by the name its spans carry."""
    path = path_of(name)
    return from_fs_path(str(path.resolve())) if path is not None else None


class WarbandServer(LanguageServer):
    def __init__(self) -> None:
        super().__init__("warband", __version__,
                         # whole texts: an incremental change would be applied by lines as
                         # Python splits them (U+2028 is a break), not as the editor does
                         text_document_sync_kind=types.TextDocumentSyncKind.Full)
        self.debounce = DEBOUNCE
        self.rules: dict[str, RulesAnalysis] = {}
        self.clean: dict[str, RulesAnalysis] = {}   # the last analysis that read (completion)
        self.yaml: dict[str, warband_yaml.YamlAnalysis] = {}
        self.pending: dict[str, asyncio.TimerHandle] = {}

    # ---- documents -------------------------------------------------------------------------------
    def kind_of(self, uri: str) -> str | None:
        """rules, yaml (a warband file) or None (a document this server leaves alone)."""
        doc = self.workspace.text_documents.get(uri)
        if doc is None:
            return None
        lowered = uri.lower().split("?", 1)[0]
        if lowered.endswith(".rules") or doc.language_id in ("warband-rules", "warband"):
            return "rules"
        if lowered.endswith((".yaml", ".yml")) or doc.language_id == "yaml":
            return "yaml" if warband_yaml.is_warband(doc.source) else None
        return None

    @property
    def encoding(self) -> str:
        return str(self.workspace.position_encoding or types.PositionEncodingKind.Utf16)

    def rules_analysis(self, uri: str) -> RulesAnalysis | None:
        """The analysis of an open rules document's current text (compiled now if stale)."""
        doc = self.workspace.text_documents.get(uri)
        if doc is None or self.kind_of(uri) != "rules":
            return None
        found = self.rules.get(uri)
        if found is None or found.version != doc.version or found.text != doc.source:
            found = self.rules[uri] = analyse(doc.source, uri, _path(uri), doc.version,
                                              self.encoding)
            if not any(d.code in _SYNTAX for d in found.diagnostics):
                self.clean[uri] = found
        return found

    def yaml_analysis(self, uri: str) -> warband_yaml.YamlAnalysis | None:
        doc = self.workspace.text_documents.get(uri)
        if doc is None or self.kind_of(uri) != "yaml":
            return None
        found = self.yaml.get(uri)
        if found is None or found.version != doc.version or found.text != doc.source:
            found = self.yaml[uri] = warband_yaml.analyse_yaml(
                doc.source, uri, _path(uri), doc.version, self.encoding)
        return found

    def places(self, analysis: RulesAnalysis) -> Places:
        return Places(analysis.name, analysis.uri, analysis.lines,
                      analysis.compiled.sources.texts, uri_of)

    @property
    def related_ok(self) -> bool:
        caps = self.client_capabilities.text_document
        publish = caps.publish_diagnostics if caps is not None else None
        return bool(publish is not None and publish.related_information)

    # ---- diagnostics -----------------------------------------------------------------------------
    def schedule(self, uri: str, delay: float | None = None) -> None:
        """Publish a document's diagnostics once the typing has paused."""
        handle = self.pending.pop(uri, None)
        if handle is not None:
            handle.cancel()
        wait = self.debounce if delay is None else delay
        self.pending[uri] = asyncio.get_running_loop().call_later(wait, self.publish, uri)

    def publish(self, uri: str) -> None:
        self.pending.pop(uri, None)
        try:
            found = self.diagnostics_of(uri)
        except Exception:  # noqa: BLE001 -- never a crash: the editor is told, and keeps going
            self.log_error(f"diagnostics of {uri}")
            return
        if found is not None:
            diagnostics, version = found
            self.text_document_publish_diagnostics(
                types.PublishDiagnosticsParams(uri, diagnostics, version))

    def diagnostics_of(self, uri: str) -> tuple[list[types.Diagnostic], int | None] | None:
        kind = self.kind_of(uri)
        if kind == "rules":
            analysis = self.rules_analysis(uri)
            assert analysis is not None   # an open rules document
            anchor = navigation.anchor(analysis.stages.module)
            return to_editor(analysis.diagnostics, self.places(analysis), anchor,
                             related_ok=self.related_ok), analysis.version
        if kind == "yaml":
            found = self.yaml_analysis(uri)
            assert found is not None   # an open warband file
            return to_editor(found.result.diagnostics, warband_yaml.places(found, uri_of),
                             None, related_ok=self.related_ok), found.version
        doc = self.workspace.text_documents.get(uri)
        if doc is not None and self.yaml.pop(uri, None) is not None:
            return [], doc.version   # no longer a warband file: what was shown goes
        return None

    def log_error(self, what: str) -> None:
        self.window_log_message(types.LogMessageParams(
            types.MessageType.Error, f"warband lsp: {what} failed (a bug; please report it):\n"
                                     f"{traceback.format_exc()}"))


def guarded(default: Callable[[], object]) -> Callable[[_F], _F]:
    """A handler that answers `default()` (an empty result) instead of failing."""
    def wrap(handler: _F) -> _F:
        @functools.wraps(handler)
        def run(ls: WarbandServer, params: Any) -> object:
            try:
                return handler(ls, params)
            except Exception:  # noqa: BLE001 -- see the module's docstring
                ls.log_error(handler.__name__)
                return default()
        return cast(_F, run)
    return wrap


def make_server() -> WarbandServer:
    """A server with every feature registered (a new one each time: tests start several)."""
    server = WarbandServer()

    @server.feature(types.INITIALIZE)
    @guarded(lambda: None)
    def initialize(ls: WarbandServer, params: types.InitializeParams) -> None:
        options = params.initialization_options
        if isinstance(options, dict) and isinstance(options.get("debounce"), (int, float)):
            ls.debounce = max(0.0, min(float(options["debounce"]) / 1000, 5.0))

    @server.feature(types.TEXT_DOCUMENT_DID_OPEN)
    @guarded(lambda: None)
    def did_open(ls: WarbandServer, params: types.DidOpenTextDocumentParams) -> None:
        ls.schedule(params.text_document.uri, delay=0)

    @server.feature(types.TEXT_DOCUMENT_DID_CHANGE)
    @guarded(lambda: None)
    def did_change(ls: WarbandServer, params: types.DidChangeTextDocumentParams) -> None:
        ls.schedule(params.text_document.uri)

    @server.feature(types.TEXT_DOCUMENT_DID_SAVE)
    @guarded(lambda: None)
    def did_save(ls: WarbandServer, params: types.DidSaveTextDocumentParams) -> None:
        # what the others read from the disk (a base, a warband's ruleset) may have changed
        for uri in list(ls.workspace.text_documents):
            if uri != params.text_document.uri:
                ls.rules.pop(uri, None)
                ls.yaml.pop(uri, None)
                ls.schedule(uri)

    @server.feature(types.TEXT_DOCUMENT_DID_CLOSE)
    @guarded(lambda: None)
    def did_close(ls: WarbandServer, params: types.DidCloseTextDocumentParams) -> None:
        uri = params.text_document.uri
        handle = ls.pending.pop(uri, None)
        if handle is not None:
            handle.cancel()
        for kept in (ls.rules, ls.clean, ls.yaml):
            kept.pop(uri, None)
        ls.text_document_publish_diagnostics(types.PublishDiagnosticsParams(uri, []))

    @server.feature(types.TEXT_DOCUMENT_HOVER)
    @guarded(lambda: None)
    def hover(ls: WarbandServer, params: types.HoverParams) -> types.Hover | None:
        uri = params.text_document.uri
        analysis = ls.rules_analysis(uri)
        if analysis is not None:
            return navigation.hover(analysis, params.position)
        found = ls.yaml_analysis(uri)
        return warband_yaml.hover(found, params.position) if found is not None else None

    @server.feature(types.TEXT_DOCUMENT_DEFINITION)
    @guarded(list)
    def definition(ls: WarbandServer, params: types.DefinitionParams) -> list[types.Location]:
        uri = params.text_document.uri
        analysis = ls.rules_analysis(uri)
        if analysis is not None:
            return navigation.definition(analysis, params.position, ls.places(analysis))
        found = ls.yaml_analysis(uri)
        if found is None:
            return []
        return warband_yaml.definition(found, params.position, warband_yaml.places(found, uri_of))

    @server.feature(types.TEXT_DOCUMENT_REFERENCES)
    @guarded(list)
    def references(ls: WarbandServer, params: types.ReferenceParams) -> list[types.Location]:
        analysis = ls.rules_analysis(params.text_document.uri)
        if analysis is None:
            return []
        others = [a for uri in list(ls.workspace.text_documents)
                  if (a := ls.rules_analysis(uri)) is not None]
        return navigation.references(others, analysis, params.position,
                                     params.context.include_declaration, ls.places)

    @server.feature(types.TEXT_DOCUMENT_DOCUMENT_HIGHLIGHT)
    @guarded(list)
    def highlight(ls: WarbandServer, params: types.DocumentHighlightParams,
                  ) -> list[types.DocumentHighlight]:
        analysis = ls.rules_analysis(params.text_document.uri)
        return navigation.highlights(analysis, params.position) if analysis is not None else []

    @server.feature(types.TEXT_DOCUMENT_COMPLETION,
                    types.CompletionOptions(trigger_characters=["."]))
    @guarded(lambda: types.CompletionList(False, []))
    def complete(ls: WarbandServer, params: types.CompletionParams) -> types.CompletionList:
        uri = params.text_document.uri
        analysis = ls.rules_analysis(uri)
        if analysis is None:
            return types.CompletionList(False, [])
        return completion.complete(analysis, params.position, ls.clean.get(uri))

    @server.feature(types.TEXT_DOCUMENT_CODE_ACTION,
                    types.CodeActionOptions(code_action_kinds=[types.CodeActionKind.QuickFix]))
    @guarded(list)
    def code_actions(ls: WarbandServer, params: types.CodeActionParams,
                     ) -> list[types.CodeAction]:
        uri = params.text_document.uri
        analysis = ls.rules_analysis(uri) or ls.yaml_analysis(uri)
        if analysis is None:
            return []
        return fixes.quick_fixes(uri, analysis.lines, list(params.context.diagnostics))

    @server.feature(types.TEXT_DOCUMENT_DOCUMENT_SYMBOL)
    @guarded(list)
    def symbols(ls: WarbandServer, params: types.DocumentSymbolParams,
                ) -> list[types.DocumentSymbol]:
        analysis = ls.rules_analysis(params.text_document.uri)
        return outline.document_symbols(analysis) if analysis is not None else []

    @server.feature(types.TEXT_DOCUMENT_FOLDING_RANGE)
    @guarded(list)
    def folding(ls: WarbandServer, params: types.FoldingRangeParams,
                ) -> list[types.FoldingRange]:
        analysis = ls.rules_analysis(params.text_document.uri)
        return outline.folding_ranges(analysis) if analysis is not None else []

    @server.feature(types.TEXT_DOCUMENT_SEMANTIC_TOKENS_FULL, tokens.LEGEND)
    @guarded(lambda: types.SemanticTokens(data=[]))
    def semantic(ls: WarbandServer, params: types.SemanticTokensParams) -> types.SemanticTokens:
        analysis = ls.rules_analysis(params.text_document.uri)
        if analysis is None:
            return types.SemanticTokens(data=[])
        return tokens.semantic_tokens(analysis)

    @server.feature(types.TEXT_DOCUMENT_FORMATTING)
    @guarded(list)
    def formatting(ls: WarbandServer, params: types.DocumentFormattingParams,
                   ) -> list[types.TextEdit]:
        # warband files have `warband fmt`'s layout; rules files have no canonical one yet
        found = ls.yaml_analysis(params.text_document.uri)
        return warband_yaml.formatting(found) if found is not None else []

    return server


def serve() -> None:
    """Run a server on standard input and output until the editor ends it."""
    make_server().start_io()


__all__ = ["DEBOUNCE", "WarbandServer", "make_server", "serve", "uri_of"]
