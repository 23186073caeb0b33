"""Quick fixes: the compiler's own did-you-mean, one click away.

A diagnostic whose hint says `did you mean 'Frenzy'?` (an unknown name, field, class or key,
in a rules file or a warband file) gets a code action that writes the name it suggests in
place of the one written. Nothing is guessed here: the suggestion is the compiler's (or the
validator's), read back from the diagnostic the client holds.
"""

from __future__ import annotations

import re

from lsprotocol import types

from warband.lsp.positions import Lines
from warband.lsp.problems import SOURCE

_SUGGESTION = re.compile(r"did you mean '([A-Za-z_][A-Za-z_0-9]*)'\?")
_NAME = re.compile(r"[A-Za-z_][A-Za-z_0-9]*")


def _suggestion(d: types.Diagnostic) -> str | None:
    texts = [d.message] + [r.message for r in d.related_information or []]
    for text in texts:
        m = _SUGGESTION.search(text)
        if m is not None:
            return m.group(1)
    return None


def quick_fixes(uri: str, lines: Lines, diagnostics: list[types.Diagnostic],
                ) -> list[types.CodeAction]:
    """A fix for each of the client's diagnostics (of this server) that suggests a name, where
    the text under the diagnostic is a name to replace."""
    out = []
    for d in diagnostics:
        if d.source != SOURCE:
            continue
        name = _suggestion(d)
        if name is None or d.range.start.line != d.range.end.line:
            continue
        start, end = lines.offset_at(d.range.start), lines.offset_at(d.range.end)
        written = lines.text[start:end]
        if not _NAME.fullmatch(written) or written == name:
            continue
        edit = types.WorkspaceEdit(changes={uri: [types.TextEdit(d.range, name)]})
        out.append(types.CodeAction(f"Change '{written}' to '{name}'",
                                    kind=types.CodeActionKind.QuickFix, diagnostics=[d],
                                    edit=edit, is_preferred=True))
    return out


__all__ = ["quick_fixes"]
