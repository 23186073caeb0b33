"""A fast reader for the plain YAML that warband files are nearly always written in.

ruamel.yaml's pure-Python round-trip loader spends about 5 ms on a typical warband file, most of
it in its scanner; validating a thousand files is then mostly YAML. This reader handles only a
strict subset, line by line, and builds exactly what `yamlload.load_yaml` would build for it:
the same ruamel `CommentedMap`/`CommentedSeq` values with the same line and column of every key,
value and item. Anything outside the subset, or the least doubt, gives None and the caller uses
`load_yaml`, which stays the one source of YAML diagnostics.

The subset: block mappings and block sequences (also a sequence at its key's indentation),
one-line flow sequences of plain words and numbers, `#` comments, and scalars that can only be
what they look like: words (letters, digits, spaces and a little punctuation, starting with a
letter), decimal integers (0 and -0 as ruamel keeps them: a ScalarInt of width 1, so that a
SMART list's `xp: 0` stays on the fast path), true/false, null/~, and quoted text without
escapes.
Literal blocks (`|`, `|-`) are read too. No tabs, anchors, aliases, tags, folded (`>`) or
indented (`|2`) block scalars, multi-line plain or quoted scalars, empty values, duplicate keys,
or '---'.
tests/test_validate.py checks it against load_yaml on generated documents (a brute-force twin).
"""

from __future__ import annotations

import re

from warband.limits import (
    MAX_INT_DIGITS,
    MAX_NAME_CHARS,
    MAX_TEXT_CHARS,
    MAX_YAML_BYTES,
    MAX_YAML_DEPTH,
)
from warband.lists.loaded import Loaded

_KEY = re.compile(r"((?!\d)\w[\w -]*?):(?: +|$)")
_WORD = re.compile(r"(?!\d)\w[\w .,'!?()/&+-]*")
_INT = re.compile(r"-?(?:[1-9][0-9]{0,%d}|0)" % (MAX_INT_DIGITS - 1))   # not 00, 010
_FLOW_ITEM = re.compile(r"(?!\d)\w[\w .'!?()/&+-]*|" + _INT.pattern)
_SPECIAL = {"true": True, "True": True, "TRUE": True, "false": False, "False": False,
            "FALSE": False, "null": None, "Null": None, "NULL": None, "~": None}
# what a plain file never holds: control characters but the newline, DEL and C1, the line and
# paragraph separators, lone surrogates, the BOM and noncharacters \ufffe-\uffff (written as
# what is unusual rather than as the rest of Unicode: that class took 5 ms to compile)
_UNUSUAL = re.compile("[\x00-\x09\x0b-\x1f\x7f-\x9f\u2028\u2029\ud800-\udfff\ufeff\ufffe\uffff]")


class _NotPlain(Exception):
    """The text leaves the subset: let ruamel read it."""


def load(raw: bytes, filename: str) -> Loaded | None:
    """The loaded file, or None when the text is not in the subset (use yamlload.load_yaml)."""
    if len(raw) > MAX_YAML_BYTES or raw.startswith(b"\xef\xbb\xbf"):
        return None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        return None
    if _UNUSUAL.search(text):
        return None
    try:
        data = _Reader(text).document()
    except _NotPlain:
        return None
    return Loaded(data, (), text)


class _Reader:
    def __init__(self, text: str) -> None:
        # lazily: ruamel's data types only for a file in the subset this reader reads
        from ruamel.yaml.comments import CommentedMap, CommentedSeq
        from ruamel.yaml.scalarstring import LiteralScalarString
        self.Map, self.Seq, self.Literal = CommentedMap, CommentedSeq, LiteralScalarString
        self.raw = text.split("\n")
        # (0-based line, indent, content) of every line that holds more than a comment
        self.lines: list[tuple[int, int, str]] = []
        for n, line in enumerate(self.raw):
            content = line.lstrip(" ")
            if not content or content.startswith("#"):
                continue
            if content.startswith(("---", "...", "%")) and len(line) == len(content):
                raise _NotPlain
            self.lines.append((n, len(line) - len(content), content.rstrip(" ")))
        self.i = 0

    def document(self):
        if not self.lines or self.lines[0][1] != 0 or not _KEY.match(self.lines[0][2]):
            raise _NotPlain
        data = self.mapping(0, 1)
        if self.i != len(self.lines):
            raise _NotPlain
        return data

    def peek(self):
        return self.lines[self.i] if self.i < len(self.lines) else None

    # ---- blocks --------------------------------------------------------------------------------
    def block(self, indent: int, depth: int):
        if depth > MAX_YAML_DEPTH // 4:
            raise _NotPlain
        line = self.peek()
        if line is None or line[1] != indent:
            raise _NotPlain
        if _is_item(line[2]):
            return self.sequence(indent, depth)
        return self.mapping(indent, depth)

    def mapping(self, indent: int, depth: int):
        m = self.Map()
        m.lc.line, m.lc.col = self.lines[self.i][0], indent
        while (line := self.peek()) is not None and line[1] == indent:
            n, _, content = line
            match = _KEY.match(content)
            if match is None:
                raise _NotPlain
            key = match.group(1)
            if key in m or key in _SPECIAL or key.endswith(" "):
                raise _NotPlain
            rest_at = match.end()
            rest = content[rest_at:]
            self.i += 1
            if rest in ("|", "|-"):
                value, (vl, vc) = self.literal(n, indent, rest == "|-"), (n, indent + rest_at)
            elif rest and not rest.startswith("#"):
                value, (vl, vc) = self.scalar_or_flow(rest, n, indent + rest_at), (
                    n, indent + rest_at)
            else:
                following = self.peek()
                if following is None:
                    raise _NotPlain        # an empty value: ruamel's position is its own
                if following[1] > indent:
                    value = self.block(following[1], depth + 1)
                elif following[1] == indent and _is_item(following[2]):
                    value = self.sequence(indent, depth + 1)
                else:
                    raise _NotPlain
                vl, vc = following[0], following[1]
            if isinstance(value, str) and (len(value) > MAX_TEXT_CHARS or
                                           key == "name" and len(value) > MAX_NAME_CHARS):
                raise _NotPlain            # (refused by load_yaml, at its place: E613)
            m[key] = value
            m.lc.add_kv_line_col(key, [n, indent, vl, vc])
        if (line := self.peek()) is not None and line[1] > indent:
            raise _NotPlain                # a continuation line: a multi-line scalar
        return m

    def sequence(self, indent: int, depth: int):
        s = self.Seq()
        s.lc.line, s.lc.col = self.lines[self.i][0], indent
        while (line := self.peek()) is not None and line[1] == indent and _is_item(line[2]):
            n, _, content = line
            rest = content[1:].lstrip(" ")
            col = indent + len(content) - len(rest)
            if not rest or rest.startswith(("#", "- ")) or rest == "-":
                raise _NotPlain
            if _KEY.match(rest):
                self.lines[self.i] = (n, col, rest)   # the item's mapping starts here
                item = self.mapping(col, depth + 1)
            else:
                self.i += 1
                item = self.scalar_or_flow(rest, n, col)
            if isinstance(item, str) and len(item) > MAX_TEXT_CHARS:
                raise _NotPlain
            s.lc.add_idx_line_col(len(s), [n, col])
            s.append(item)
        if (line := self.peek()) is not None and line[1] > indent:
            raise _NotPlain
        return s

    def literal(self, n: int, parent: int, strip: bool):
        """A literal block scalar (`|` or `|-`) whose lines start after line n."""
        body: list[str] = []
        indent = None
        end = n + 1
        for end in range(n + 1, len(self.raw) + 1):
            if end == len(self.raw):
                break
            line = self.raw[end]
            if not line:
                body.append("")
                continue
            if not line.strip(" "):
                raise _NotPlain             # spaces on an empty line: ruamel's rules are subtle
            own = len(line) - len(line.lstrip(" "))
            if indent is None:
                if own <= parent:
                    break
                indent = own
            if own < indent:
                if own > parent:
                    raise _NotPlain
                break
            body.append(line[indent:])
        if indent is None:
            raise _NotPlain                 # an empty block
        while self.i < len(self.lines) and self.lines[self.i][0] < end:
            self.i += 1                     # its lines may look like comments or keys
        while body and body[-1] == "":
            body.pop()
        return self.Literal("\n".join(body) + ("" if strip else "\n"))

    # ---- scalars --------------------------------------------------------------------------------
    def scalar_or_flow(self, text: str, line: int, col: int):
        if text.startswith("["):
            return self.flow(text, line, col)
        return _scalar(text)

    def flow(self, text: str, line: int, col: int):
        end = text.find("]")
        if end < 0 or not _comment_or_nothing(text[end + 1:]):
            raise _NotPlain
        s = self.Seq()
        s.lc.line, s.lc.col = line, col
        inner = text[1:end]
        if not inner.strip():
            return s
        at = 1
        for part in inner.split(","):
            word = part.strip(" ")
            if not _FLOW_ITEM.fullmatch(word) or word in _SPECIAL or len(word) > MAX_TEXT_CHARS:
                raise _NotPlain
            offset = at + len(part) - len(part.lstrip(" "))
            s.lc.add_idx_line_col(len(s), [line, col + offset])
            s.append(_int(word) if _INT.fullmatch(word) else word)
            at += len(part) + 1
        return s


def _is_item(content: str) -> bool:
    return content == "-" or content.startswith("- ")


def _comment_or_nothing(rest: str) -> bool:
    return not rest.strip(" ") or (rest.startswith(" ") and rest.lstrip(" ").startswith("#"))


def _int(text: str) -> int:
    """A decimal integer as ruamel's round-trip loader makes it: a plain int, but for a zero,
    which it keeps as a ScalarInt of width 1 (the spelling it writes back)."""
    value = int(text)
    if value:
        return value
    # lazily: ruamel.yaml is a tenth of a one-file `validate`, and most files have no 0
    from ruamel.yaml.scalarint import ScalarInt
    return ScalarInt(0, width=1)


def _scalar(text: str):
    if text[0] in "\"'":
        close = text.find(text[0], 1)
        if close < 0 or not _comment_or_nothing(text[close + 1:]):
            raise _NotPlain
        inner = text[1:close]
        if "\\" in inner or "\n" in inner:
            raise _NotPlain
        return inner
    value = text.split(" #", 1)[0].rstrip(" ")
    if value in _SPECIAL:
        return _SPECIAL[value]
    if _INT.fullmatch(value):
        return _int(value)
    if _WORD.fullmatch(value) and ": " not in value:
        return value
    raise _NotPlain
