"""`warband fmt`: warband files in one canonical layout, every comment kept.

The canonical layout:
- the editor's modeline comment (`# yaml-language-server: ...`) is the first line;
- top-level keys in the order name, ruleset, points, notes, games and the side's stats the
  ruleset keeps (a campaign's), fighters, then any other key in the
  order the file had it;
- each fighter's keys in the order name, count, class, the ruleset's stats in the order the
  ruleset declares them, traits, equipment, notes, then any other key as it was;
- two spaces per level, and list items indented by two under their key (`fighters:` then
  `  - name: ...`), as the shipped warbands are written.

It works in two steps, so that what is already canonical is never touched:
1. indentation: ruamel.yaml's round trip, which keeps comments, quotes and flow lists, and
   writes a file that is already indented this way back byte for byte;
2. key order: moving whole blocks of lines. A block is a key's lines, with the comment lines
   directly above it (they speak of that key), so comments travel with what they describe and
   every line that does not move stays as it was. (ruamel itself would attach a comment to the
   key *before* it, and so move it to the wrong place.)

What YAML lets a file share or type is kept: anchors and aliases (a fighter that is an alias,
`- *base`, and a mapping with a merge key, `<<: *base`, keep their key order, as their lines
are elsewhere), `!!set` and `!!omap`; a file with CRLF line ends is written back with CRLF.

Nothing here writes files or prints; the result says what the new text is and what went wrong.
The data is loaded again after formatting and compared with the original: a difference (which
would be a bug) refuses the file rather than change its meaning.
"""

from __future__ import annotations

import difflib
import io
import re
import warnings
from dataclasses import dataclass, field
from pathlib import Path

from ruamel.yaml import YAML
from ruamel.yaml.comments import CommentedMap, CommentedSeq
from ruamel.yaml.error import YAMLError
from ruamel.yaml.events import (
    MappingEndEvent,
    MappingStartEvent,
    NodeEvent,
    ScalarEvent,
    SequenceEndEvent,
    SequenceStartEvent,
)

from warband.diagnostics import Diagnostic, Span, diag
from warband.lists.validate import Validation
from warband.lists.warband_file import Source, ruleset_ref
from warband.lists.yamlload import load_yaml

TOP_ORDER = ("name", "ruleset", "points", "notes", "games", "fighters")
MODELINE = re.compile(r"^#\s*yaml-language-server:")
_EXPLICIT_KEY = re.compile(r"^([ -]*\?)(?:\s|$)", re.MULTILINE)  # YAML's '? key' form
_COMMENT = re.compile(r"^(\s*)#")
_UNICODE_BREAK = re.compile("[\x85\u2028\u2029]")   # line breaks to YAML 1.1, not to us


@dataclass
class Formatted:
    """What formatting one file gives."""

    name: str
    original: str | None
    text: str | None                        # the formatted text; None when it cannot be had
    diagnostics: list[Diagnostic] = field(default_factory=list)

    @property
    def changed(self) -> bool:
        return self.text is not None and self.text != self.original

    def diff(self) -> str:
        if not self.changed:
            return ""
        assert self.original is not None and self.text is not None  # only read files change
        return "".join(difflib.unified_diff(
            self.original.splitlines(keepends=True), self.text.splitlines(keepends=True),
            fromfile=f"{self.name} (as it is)", tofile=f"{self.name} (formatted)"))


def _yaml():
    yaml = YAML(typ="rt", pure=True)
    yaml.preserve_quotes = True
    yaml.width = 4096                      # never wrap a long line of notes
    yaml.indent(mapping=2, sequence=4, offset=2)
    return yaml


def load_document(text: str):
    """A warband file's text as ruamel's round-trip data (comments and positions kept)."""
    with warnings.catch_warnings():  # a reused anchor (&a twice) is legal YAML: no warning text
        warnings.simplefilter("ignore")
        return _yaml().load(text)


def _keep_anchors(data) -> None:
    """ruamel writes an anchor back only if an alias uses it: mark every anchor to be kept, as
    the file has it (an editor's reader, or a later edit, may use it)."""
    stack, seen = [data], set()
    while stack:
        node = stack.pop()
        if id(node) in seen:
            continue
        seen.add(id(node))
        anchor = node.yaml_anchor() if hasattr(node, "yaml_anchor") else None
        if anchor is not None and anchor.value:
            node.yaml_set_anchor(anchor.value, always_dump=True)
        if isinstance(node, dict):
            stack.extend(node.values())
        elif isinstance(node, list):
            stack.extend(node)


def dump_document(data) -> str:
    """Round-trip data as text, in the canonical indentation."""
    _keep_anchors(data)
    out = io.StringIO()
    _yaml().dump(data, out)
    return out.getvalue()


def _parse(text: str):
    return list(_yaml().parse(text))


def plain(data):
    """Loaded data without ruamel's wrappers, for comparing meaning."""
    if isinstance(data, dict):
        return {plain(k): plain(v) for k, v in data.items()}
    if isinstance(data, list):
        return [plain(v) for v in data]
    if isinstance(data, bool) or data is None:
        return data
    if isinstance(data, int):
        return int(data)
    if isinstance(data, float):
        return float(data)
    if type(data).__name__ == "TaggedScalar":   # '!!str x': compared by tag and text, not identity
        return ("tagged", str(data.tag), data.value)
    return str(data) if isinstance(data, str) else data


# ---- moving blocks of lines ---------------------------------------------------------------------

def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" "))


def _is_comment(line: str) -> bool:
    return _COMMENT.match(line) is not None


def _is_blank(line: str) -> bool:
    return not line.strip()


def _reorder(lines: list[str], node, order: list, start: int, end: int, *,
             dash: bool) -> list[str]:
    """The lines [start, end) of a block mapping with its keys in `order`. With dash=True the
    mapping is a list item whose first key shares its line with the '- '."""
    keys = list(node.keys())
    if order == keys or len(keys) < 2:
        return lines[start:end]
    column = node.lc.key(keys[0])[1]
    starts = [node.lc.key(k)[0] for k in keys]
    attach = list(starts)
    for i in range(1, len(keys)):  # comment lines directly above a key belong to it
        j = starts[i]
        while j - 1 > starts[i - 1] and _is_comment(lines[j - 1]) and \
                _indent(lines[j - 1]) <= column:
            j -= 1
        attach[i] = j
    tail = end  # comments and blank lines after the last value stay at the end
    while tail - 1 > starts[-1] and (_is_blank(lines[tail - 1]) or (
            _is_comment(lines[tail - 1]) and _indent(lines[tail - 1]) <= column)):
        tail -= 1
    bounds = attach[1:] + [tail]
    blocks = {k: [ln if ln.endswith("\n") else ln + "\n" for ln in lines[a:b]]
              for k, a, b in zip(keys, attach, bounds)}
    offsets = {k: s - a for k, s, a in zip(keys, starts, attach)}
    if dash:  # the '- ' moves from the old first key to the new one
        first, new_first = keys[0], order[0]
        old = blocks[first][0]
        blocks[first][0] = old[:column - 2] + "  " + old[column:]
        at = offsets[new_first]
        line = blocks[new_first][at]
        blocks[new_first][at] = line[:column - 2] + "- " + line[column:]
    out = lines[start:attach[0]]
    for k in order:
        out += blocks[k]
    return out + lines[tail:end]


def _block_map(node) -> bool:
    """A block mapping whose keys can be moved as lines: not an !!omap (a subclass that keeps no
    key positions), and no merge key ('<<: *base': its keys are the anchor's lines, elsewhere)."""
    return type(node) is CommentedMap and not node.fa.flow_style() and \
        node.lc.line is not None and not node.merge


def _fighter_order(fighter, stats: list[str] | None) -> list:
    keys = list(fighter.keys())
    fixed = {"name", "count", "class", "traits", "equipment", "notes"}
    if stats is None:  # no ruleset to tell stats from other keys: they keep their places
        middle = [k for k in keys if k not in fixed]
        others = []
    else:
        middle = [s for s in stats if s in fighter]
        others = [k for k in keys if k not in fixed and k not in middle]
    head = [k for k in ("name", "count", "class") if k in fighter]
    if "models" in fighter and "models" not in middle:   # a unit's models, after its class
        head.append("models")
        others = [k for k in others if k != "models"]
    tail = [k for k in ("traits", "equipment", "notes") if k in fighter]
    return head + middle + tail + others


def _top_order(data, kept: list[str] | None = None) -> list:
    """The file's keys in order: name, ruleset, points, notes, a campaign's `games:` and the
    side's stats its ruleset keeps (`kept`, as `play --update` writes them), the fighters,
    then any other key as it was."""
    order = [k for k in TOP_ORDER if k != "fighters"] + list(kept or ()) + ["fighters"]
    return [k for k in order if k in data] + [k for k in data if k not in order]


def _reorder_fighters(text: str, stats: list[str] | None) -> str:
    data = load_document(text)
    fighters = data.get("fighters") if _block_map(data) else None
    if not isinstance(fighters, CommentedSeq) or fighters.fa.flow_style() or not fighters:
        return text
    if fighters.lc.line < data.lc.key("fighters")[0]:   # `fighters: *all`: its lines are above
        return text
    lines = text.splitlines(keepends=True)
    top_keys = list(data.keys())
    after = top_keys.index("fighters") + 1
    region_end = data.lc.key(top_keys[after])[0] if after < len(top_keys) else len(lines)
    # comments just above the next top-level key are that key's, not the last fighter's
    while region_end > 0 and after < len(top_keys) and _is_comment(lines[region_end - 1]) and \
            _indent(lines[region_end - 1]) == 0:
        region_end -= 1
    item_starts = _item_lines(text, fighters.lc.line, fighters.lc.col)
    if len(item_starts) != len(fighters):
        return text
    out = lines[:item_starts[0]]
    seen: set[int] = set()
    for i, fighter in enumerate(fighters):
        s = item_starts[i]
        e = item_starts[i + 1] if i + 1 < len(fighters) else region_end
        alias = id(fighter) in seen   # '- *base': the same data as an earlier item, one line
        seen.add(id(fighter))
        if not alias and _block_map(fighter) and fighter.lc.key(next(iter(fighter)))[0] == s:
            out += _reorder(lines, fighter, _fighter_order(fighter, stats), s, e, dash=True)
        else:
            out += lines[s:e]
    return "".join(out + lines[region_end:])


def _item_lines(text: str, line: int, column: int) -> list[int]:
    """The lines (0-based) where the items of the block sequence starting at line:column begin.
    From the parser's events, as ruamel's positions give an alias item ('- *base') the place
    of its anchor."""
    starts: list[int] = []
    depth = None
    for event in _parse(text):
        if depth is None:
            if isinstance(event, SequenceStartEvent) and \
                    (event.start_mark.line, event.start_mark.column) == (line, column):
                depth = 0
            continue
        if depth == 0 and isinstance(event, NodeEvent):
            starts.append(event.start_mark.line)
        if isinstance(event, (SequenceStartEvent, MappingStartEvent)):
            depth += 1
        elif isinstance(event, (SequenceEndEvent, MappingEndEvent)):
            if depth == 0:
                break
            depth -= 1
    return starts


def _reorder_top(text: str, kept: list[str] | None = None) -> str:
    data = load_document(text)
    if not _block_map(data):
        return text
    lines = text.splitlines(keepends=True)
    return "".join(_reorder(lines, data, _top_order(data, kept), 0, len(lines), dash=False))


def _modeline_first(text: str) -> str:
    lines = text.splitlines(keepends=True)
    for i, line in enumerate(lines):
        if MODELINE.match(line):
            if i == 0:
                return text
            return "".join([line] + lines[:i] + lines[i + 1:])
    return text


# ---- the whole pass -----------------------------------------------------------------------------

def _placed(node, key) -> bool:
    return node.lc.data is not None and key in node.lc.data


def _shift_end_comments(old, new) -> bool:
    """Move end-of-line comments left or right as far as their line's key moved, so that a
    re-indented `might: 20  # note` keeps its two spaces. True if any comment moved."""
    moved = False
    stack = [(old, new)]
    done: set[int] = set()
    while stack:
        a, b = stack.pop()
        if id(a) in done:   # an alias: the anchor's comments are moved once
            continue
        done.add(id(a))
        if isinstance(a, CommentedMap) and isinstance(b, CommentedMap):
            # an !!omap keeps no key positions, and a merge key's keys are the anchor's
            pairs = [(k, a.lc.key(k)[1] - b.lc.key(k)[1], a[k], b[k]) for k in a
                     if k in b and _placed(a, k) and _placed(b, k)]
        elif isinstance(a, CommentedSeq) and isinstance(b, CommentedSeq):
            pairs = [(i, a.lc.item(i)[1] - b.lc.item(i)[1], a[i], b[i]) for i in range(len(a))
                     if _placed(a, i) and _placed(b, i)]
        else:
            continue
        for key, delta, x, y in pairs:
            stack.append((x, y))
            tokens = a.ca.items.get(key) or []
            for token in tokens:
                if delta and token is not None and not isinstance(token, list) and \
                        token.value.startswith("#") and token.start_mark is not None:
                    token.start_mark.column = max(token.start_mark.column - delta, 0)
                    moved = True
    return moved


_MERGE_LINE = re.compile(r"^\s*(- +)*<<\s*:\s*\*[^\s#]+(\s+)(#.*)$")


def _merge_comments_kept(before: str, after: str) -> str:
    """ruamel writes the comment at the end of a merge key's line ('<<: *base   # why') on a
    line of its own after it: put it back at the end of that line, with its spacing."""
    if "<<" not in before:
        return after
    gaps = {}
    for line in before.splitlines():
        found = _MERGE_LINE.match(line)
        if found is not None:
            gaps[found.group(3).rstrip()] = found.group(2)
    lines = after.splitlines(keepends=True)
    out: list[str] = []
    for line in lines:
        comment = line.strip()
        if out and comment in gaps and re.match(r"^\s*(- +)*<<\s*:\s*\*[^\s#]+\s*$", out[-1]):
            out[-1] = out[-1].rstrip() + gaps[comment] + comment + "\n"
            continue
        out.append(line)
    return "".join(out)


def _scalar_lines(text: str) -> set[int]:
    """Lines inside multi-line scalars (0-based): their '#' is text, not a comment."""
    inside: set[int] = set()
    for event in _parse(text):
        if isinstance(event, ScalarEvent) and event.end_mark.line > event.start_mark.line:
            inside.update(range(event.start_mark.line + 1, event.end_mark.line + 1))
    return inside


def _indent_comments(text: str) -> str:
    """A comment on a line of its own is indented like the line after it (a list item's '- ')."""
    lines = text.splitlines(keepends=True)
    protected = _scalar_lines(text)
    indent = 0
    for i in range(len(lines) - 1, -1, -1):
        line = lines[i]
        if i in protected or _is_blank(line):
            continue
        if _is_comment(line):
            lines[i] = " " * indent + line.lstrip(" ")
        else:
            indent = _indent(line)
    return "".join(lines)


def format_text(text: str, stats: list[str] | None, kept: list[str] | None = None) -> str:
    """The canonical layout of a warband file's text that loads; `stats` are the keys of the
    ruleset's stats in declaration order (None when the ruleset is not known), `kept` those of
    the side's stats it keeps between games."""
    if "\r\n" in text:   # a Windows file stays one: laid out with '\n', written back with '\r\n'
        return format_text(text.replace("\r\n", "\n"), stats, kept).replace("\n", "\r\n")
    data = load_document(text)
    result = dump_document(data)
    if result != text and _shift_end_comments(data, load_document(result)):
        result = dump_document(data)
    result = _merge_comments_kept(text, result)
    result = _indent_comments(result)
    result = _aliases_kept(result, _reorder_fighters(result, stats))
    result = _aliases_kept(result, _reorder_top(result, kept))
    # a comment that came above a fighter's new first key now sits above its '- ': indent it so
    result = _indent_comments(_modeline_first(result))
    # blank lines at the top of the file went with the first key, which may no longer be first
    # (found by the large fuzz run: a second fmt then removed them); a file starts with its text
    return re.sub(r"\A(?:[ \t]*\n)+", "", result)


def _aliases_kept(before: str, after: str) -> str:
    """A reordering, unless it moves an alias (*name) above its anchor (&name): YAML reads an
    anchor before its aliases, so such a file would no longer load. Then the order stays."""
    if after == before or "*" not in after:
        return after
    try:
        load_document(after)
    except YAMLError:   # (only a ComposerError has been seen; any other would be a bug here)
        return before
    return after


_SPACED_END = re.compile(r"\n[ \t]+\n?\Z")


def _spaced_block_end(data) -> tuple[int, int] | None:
    """(line, column) of the first value whose text ends in a line of only spaces or tabs, as
    a block text (`|`) whose last line is spaces beyond its indentation reads; or None."""
    items = list(data.items()) if isinstance(data, CommentedMap) else \
        list(enumerate(data)) if isinstance(data, CommentedSeq) else []
    for key, value in items:
        if isinstance(value, str) and _SPACED_END.search(value):
            try:
                line, column = data.lc.value(key) if isinstance(data, CommentedMap) \
                    else data.lc.item(key)
            except (KeyError, TypeError, AttributeError):
                line, column = 0, 0
            return line + 1, column + 1
        found = _spaced_block_end(value)
        if found is not None:
            return found
    return None


def _stat_keys(data: CommentedMap, name: str, text: str, base: Path) \
        -> tuple[list[str] | None, list[str] | None]:
    """The keys of the ruleset's stats, and of the side's stats it keeps (None, None when the
    ruleset is not known)."""
    ref = ruleset_ref(data)
    if ref is None:
        return None, None
    found = Validation().rules(ref, base, data, name, text)
    if isinstance(found, Diagnostic):
        return None, None
    ruleset = found.compiled.ruleset
    assert ruleset is not None  # rules() gives a compiled ruleset or a Diagnostic
    return [stat.key for stat in ruleset.stats.values()], \
        [s.key for s in ruleset.states.values() if s.owner == "side" and s.kept]


def format_source(source: Source) -> Formatted:
    """Format one warband file read by warband_file.read_source."""
    if source.problem is not None:
        return Formatted(source.name, None, None, [source.problem])
    assert source.raw is not None  # only a Source with a problem has no bytes
    loaded = load_yaml(source.raw, source.name)
    result = Formatted(source.name, loaded.text, None, list(loaded.diagnostics))
    if loaded.data is None or loaded.diagnostics:
        return result
    text = loaded.text
    assert text is not None  # loaded data comes with its text
    separator = _UNICODE_BREAK.search(text)
    if separator is not None:   # ruamel writes a key holding one back as YAML of other data
        line = text.count("\n", 0, separator.start()) + 1
        column = separator.start() - (text.rfind("\n", 0, separator.start()) + 1) + 1
        result.diagnostics.append(diag(
            "E640", f"the file cannot be formatted: it holds a Unicode line separator "
                    f"(U+{ord(separator.group()):04X})", Span(source.name, line, column),
            hint="it was left as it is; remove the character and run fmt again"))
        return result
    explicit = _EXPLICIT_KEY.search(text)
    try:
        stats, kept = _stat_keys(loaded.data, source.name, text, source.base)
        formatted = format_text(text, stats, kept)
        same = plain(load_document(formatted)) == plain(load_document(text))
    except Exception as error:  # noqa: BLE001 -- a file that loads but cannot be laid out
        if explicit is None:
            result.diagnostics.append(diag(
                "E640", f"the file cannot be formatted ({type(error).__name__})",
                Span(source.name, 1, 1), hint="it was left as it is; this may be a toolkit bug"))
            return result
        same = False
    if not same and explicit is not None:
        # ruamel writes '? key' + a comment as YAML that won't load, or (under a local tag,
        # `extra: !set`) as YAML of other data
        line = text.count("\n", 0, explicit.start()) + 1
        result.diagnostics.append(diag(
            "E640", "the file cannot be formatted: it has an explicit key ('? key')",
            Span(source.name, line, explicit.group(1).find("?") + 1),
            hint="it was left as it is; write the key as 'key:' and run fmt again"))
        return result
    if not same and (spaced := _spaced_block_end(loaded.data)) is not None:
        # ruamel keeps a block text's last line of only spaces as layout after the text: moved
        # with its key, the text loses it (found by the large fuzz run)
        line, column = spaced
        result.diagnostics.append(diag(
            "E640", "the file cannot be formatted: a block text ends in a line of only spaces",
            Span(source.name, line, column),
            hint="it was left as it is; remove the spaces on the text's last line and run fmt "
                 "again"))
        return result
    if not same:
        result.diagnostics.append(diag(
            "E641", "formatting would change what the file says; it was left as it is",
            Span(source.name, 1, 1), hint="this is a toolkit bug: please report it with the file"))
        return result
    result.text = formatted
    return result


__all__ = ["Formatted", "dump_document", "format_source", "format_text", "load_document", "plain",
           "TOP_ORDER"]
