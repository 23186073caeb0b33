"""The language server of the rules language (`warband lsp`): the compiler's diagnostics as you
type, hover, definitions and references, completion, an outline, folding and colours for rules
files, and validation, cards and formatting for warband files.

It needs the `lsp` extra (pygls, lsprotocol); nothing outside this package and `warband lsp`
imports it, so the command line starts without it.

- `server.py`: the protocol: documents, debounced diagnostics, one handler per feature;
- `analysis.py`: a rules text compiled (never run), with its names indexed (`index.py`);
- `positions.py`: places as the compiler counts them and as the editor does;
- `problems.py`: the compiler's diagnostics as the editor shows them; `fixes.py`: their
  did-you-means as quick fixes;
- `navigation.py`: hover, definition, references, highlights;
- `completion.py`: the words the grammar accepts at the cursor, and the names in scope;
- `outline.py`: document symbols and folding; `tokens.py`: semantic tokens;
- `warband_yaml.py`: warband files: validation, a fighter's card, `warband fmt`.
"""
