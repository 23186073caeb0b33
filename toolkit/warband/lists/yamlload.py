"""Safe loading of hand-written YAML warband files, keeping the position of every key and item.

Every way a file can be wrong ends as a Diagnostic at a line and column, never a traceback or a
hang. ruamel.yaml's round-trip loader (YAML 1.2) keeps positions on maps and lists; subclasses of
its scanner, composer and constructor refuse hostile input before anything is expanded.
"""

from __future__ import annotations

import re
import warnings
from dataclasses import dataclass

from ruamel.yaml import YAML
from ruamel.yaml.comments import CommentedMap, CommentedSeq
from ruamel.yaml.composer import Composer
from ruamel.yaml.constructor import ConstructorError, DuplicateKeyError, RoundTripConstructor
from ruamel.yaml.error import MarkedYAMLError, YAMLError
from ruamel.yaml.events import AliasEvent
from ruamel.yaml.nodes import MappingNode, ScalarNode, SequenceNode
from ruamel.yaml.reader import ReaderError
from ruamel.yaml.scanner import RoundTripScanner

from warband.diagnostics import (
    Diagnostic,
    Related,
    Span,
    diag,
    lone_surrogate,
    whole_characters,
)
from warband.limits import (
    MAX_ALIAS_NODES,
    MAX_INT_DIGITS,
    MAX_NAME_CHARS,
    MAX_TEXT_CHARS,
    MAX_YAML_BYTES,
    MAX_YAML_DEPTH,
)
from warband.lists.loaded import Loaded  # noqa: F401 - what this reader gives

_INT, _FLOAT, _NULL = "tag:yaml.org,2002:int", "tag:yaml.org,2002:float", "tag:yaml.org,2002:null"
_SYNTAX_HINT = "look for a missing ':', an unclosed quote or bracket, or wrong indentation"
_VALUE_HINT = "fix the value, or quote it if it is text; keys must be plain words or numbers"
_TAB_HINT = "YAML forbids tabs for indentation; use spaces (most editors can insert them for Tab)"
_HINTS = {  # ruamel's wording of common mistakes -> advice a hobbyist can act on
    "mapping values are not": "quote a value that contains ': ', or fix this line's indentation",
    "could not find expected ':'": "each entry needs 'key: value'; check for a missing ':'",
    "expected <block end>": "entries of the same mapping or list must start in the same column",
    "end of stream": "a quote or bracket opened earlier is never closed",
    "undefined alias": "define the anchor (&name) before using it (*name)",
    "another document": "a warband file holds one document; remove the extra '---' line",
    "expected ',' or ']'": "separate the items in [ ] with commas and close the bracket",
    "expected ',' or '}'": "separate the entries in { } with commas and close the brace",
}



@dataclass
class _Problem:  # a diagnostic before it has a file name: ruamel's classes below do not know it
    code: str
    message: str
    mark: object | None  # a ruamel mark (0-based line and column), None for the file start
    hint: str
    related: tuple = ()  # (mark, message) pairs


class _Refused(Exception):
    def __init__(self, problems: list[_Problem]) -> None:
        super().__init__(problems[0].message)
        self.problems = problems


class _Scanner(RoundTripScanner):
    # The scanner tracks possible simple keys per flow level and rescans them on every token, so
    # thousands of '[' cost quadratic time long before the composer sees any depth: stop here.
    def fetch_flow_collection_start(self, TokenClass, to_push):  # noqa: N803 (ruamel's name)
        if self.flow_level >= MAX_YAML_DEPTH:
            raise _Refused([_depth_problem(self.reader.get_mark())])
        super().fetch_flow_collection_start(TokenClass, to_push)


class _Composer(Composer):
    """Checks the node graph as it is built, before the constructor expands anything."""

    def __init__(self, loader=None):
        super().__init__(loader)
        self.problems: list[_Problem] = []  # collected, reported together at the end
        self.extra_nodes = 0  # nodes the aliases seen so far add when the document is expanded
        self.sizes: dict[int, int] = {}  # id(node) -> size of its full expansion (memo)
        self.extra_text = 0  # characters of text the aliases seen so far repeat
        self.texts: dict[int, int] = {}  # id(node) -> characters of text in its expansion

    def compose_node(self, parent, index):
        event = self.parser.peek_event()
        node = super().compose_node(parent, index)
        if isinstance(event, AliasEvent):
            self._count_alias(node, event.start_mark)
        return node

    def _count_alias(self, node, mark) -> None:
        # The expanded document is the text's own nodes plus, per alias, the full expansion of its
        # target; summing those as aliases appear gives the exact size without expanding anything.
        if not isinstance(node, ScalarNode) and node.end_mark is None:  # still open: a cycle
            raise _Refused([_Problem("E609", "this alias refers to a list or mapping that "
                                     "contains it", mark, "write the values out instead")])
        self.extra_nodes += self._expanded_size(node) - 1
        if self.extra_nodes > MAX_ALIAS_NODES:
            raise _Refused([_Problem("E609", f"aliases expand to more than {MAX_ALIAS_NODES:,} "
                                     "values", mark, "write the values out instead of repeating "
                                     "anchors (*name) inside anchors")])
        # and the text they repeat: no more than the file could hold written out (16 aliases
        # of one 200,000-character name made a 200 kB file 3.2 MB of names)
        self.extra_text += self._expanded_text(node)
        if self.extra_text > MAX_YAML_BYTES:
            raise _Refused([*self.problems, _Problem(
                "E609", f"aliases repeat more than {MAX_YAML_BYTES // 1024} "
                        "kB of text", mark, "write the values out instead of repeating long "
                        "texts with anchors (*name)")])

    def _expanded_text(self, root) -> int:
        """The characters of text in a node's full expansion (kept per node, as its size)."""
        texts, stack = self.texts, [(root, False)]
        while stack:
            node, children_done = stack.pop()
            if id(node) in texts:
                continue
            if isinstance(node, ScalarNode):
                texts[id(node)] = len(node.value) if isinstance(node.value, str) else 0
                continue
            kids = node.value if isinstance(node, SequenceNode) else [
                n for pair in node.value for n in pair] if isinstance(node, MappingNode) else []
            if children_done:
                texts[id(node)] = sum(texts[id(k)] for k in kids)
            else:
                stack.append((node, True))
                stack.extend((k, False) for k in kids if id(k) not in texts)
        return texts[id(root)]

    def _expanded_size(self, root) -> int:
        sizes, stack = self.sizes, [(root, False)]  # iterative: no recursion on deep graphs
        while stack:
            node, children_done = stack.pop()
            if id(node) in sizes:
                continue
            kids = node.value if isinstance(node, SequenceNode) else [
                n for pair in node.value for n in pair] if isinstance(node, MappingNode) else []
            if children_done:
                sizes[id(node)] = 1 + sum(sizes[id(k)] for k in kids)
            else:
                stack.append((node, True))
                stack.extend((k, False) for k in kids if id(k) not in sizes)
        return sizes[id(root)]

    def compose_sequence_node(self, anchor):
        self._check_depth()
        return super().compose_sequence_node(anchor)

    def compose_mapping_node(self, anchor):
        self._check_depth()
        node = super().compose_mapping_node(anchor)
        seen: dict[tuple, ScalarNode] = {}
        for key, value in node.value:  # ruamel stops at the first duplicate; report them all
            if isinstance(key, ScalarNode) and key.value == "name" and \
                    isinstance(value, ScalarNode) and isinstance(value.value, str) and \
                    MAX_NAME_CHARS < len(value.value) <= MAX_TEXT_CHARS:
                self.problems.append(_Problem(
                    "E613", f"this name is {len(value.value):,} characters long (at most "
                            f"{MAX_NAME_CHARS})", value.start_mark,
                    "a name is shown in every line of a game's log that names its fighter: "
                    "keep it short, and write the rest under 'notes'"))
            if isinstance(key, ScalarNode):
                first = seen.setdefault((str(key.tag), key.value), key)
                if first is not key:
                    self.problems.append(_Problem(
                        "E603", f"duplicate key '{_short(key.value)}'", key.start_mark,
                        "each key may appear only once in a mapping; remove or rename one",
                        ((first.start_mark, "first defined here"),)))
        return node

    def _check_depth(self) -> None:
        if self.depth > MAX_YAML_DEPTH:  # compose_node counted this collection already
            raise _Refused([_depth_problem(self.parser.peek_event().start_mark)])

    def compose_scalar_node(self, anchor):
        node = super().compose_scalar_node(anchor)
        if isinstance(node.value, str) and len(node.value) > MAX_TEXT_CHARS:
            self.problems.append(_Problem(
                "E613", f"this text is {len(node.value):,} characters long (at most "
                        f"{MAX_TEXT_CHARS:,})", node.start_mark,
                "a warband file's texts are names and notes: shorten this one"))
        # text, whole characters only: an escaped pair of halves joined, a lone half refused
        # (diagnostics.whole_characters)
        if isinstance(node.value, str):
            node.value = whole_characters(node.value)
            half = lone_surrogate(node.value)
            if half is not None:
                self.problems.append(_Problem(
                    "E604", f"the escape \\u{ord(node.value[half]):04X} is half of a character "
                            "(a lone surrogate), not text", node.start_mark,
                    "write the character itself; a character beyond \\uFFFF is written "
                    "\\U0001F600 (or as both of its halves, \\uD83D\\uDE00)"))
        if _too_large(str(node.tag), node.value):
            shown = _short(node.value, 24) + (f" ({len(node.value):,} characters)"
                                              if len(node.value) > 24 else "")
            self.problems.append(_Problem(
                "E610", f"number too large: {shown}", node.start_mark,
                f"numbers may have at most {MAX_INT_DIGITS} digits; quote the value if it is text"))
        return node

    def get_single_node(self):
        node = super().get_single_node()
        if self.problems:
            raise _Refused(self.problems)
        if isinstance(node, ScalarNode) and str(node.tag) == _NULL and node.value in ("", "~"):
            node = None  # '---' alone or '~': nothing usable, same as an empty file
        if node is not None and not isinstance(node, MappingNode):
            what = "a list" if isinstance(node, SequenceNode) else "a single value"
            raise _Refused([_Problem(
                "E606", f"the file holds {what}, but a warband file must be a mapping",
                node.start_mark, "start with 'key: value' lines at the left margin, e.g. 'name: "
                "Grey Company'")])
        return node


_VALUE_ERRORS = (ValueError, TypeError, ArithmeticError, LookupError, AttributeError)


class _Constructor(RoundTripConstructor):
    # Values that match a type but cannot be built (2023-02-30, !!int abc, !!set on a scalar)
    # raise plain Python errors without a position; the innermost node being built is the
    # culprit. Mappings and lists are finished later by generators, so those are guarded too.
    def construct_non_recursive_object(self, node, tag=None):
        pending = len(self.state_generators)
        try:
            data = super().construct_non_recursive_object(node, tag)
        except _VALUE_ERRORS as exc:
            raise _invalid(node, exc) from exc
        if len(self.state_generators) > pending:  # this node's generator is appended last
            self.state_generators[-1] = _guarded(self.state_generators[-1], node)
        return data


def _guarded(generator, node):
    try:
        yield from generator
    except _VALUE_ERRORS as exc:
        raise _invalid(node, exc) from exc


def _invalid(node, exc: Exception) -> _Refused:
    value = f"'{_short(node.value)}'" if isinstance(node, ScalarNode) else "value"
    reason = _tidy(str(exc)) if isinstance(exc, ValueError) else "it does not fit its type or place"
    return _Refused([_Problem("E611", f"invalid {value}: {reason}", node.start_mark, _VALUE_HINT)])


def _depth_problem(mark) -> _Problem:
    return _Problem("E608", f"nesting is deeper than {MAX_YAML_DEPTH} levels", mark,
                    "a warband file needs only a few levels of lists and mappings; check for "
                    "unclosed brackets or runaway indentation")


def _too_large(tag: str, text: str) -> bool:
    t = text.strip().lstrip("+-").replace("_", "").lower()
    try:
        if tag == _INT and t[:2] in ("0x", "0o", "0b"):  # int() has no digit limit for these bases
            return int(t[2:], {"x": 16, "o": 8, "b": 2}[t[1]]) >= 10**MAX_INT_DIGITS
        if tag == _INT:  # count, never convert: int() refuses more than 4300 digits
            return len("".join(c for c in t if c.isdigit()).lstrip("0")) > MAX_INT_DIGITS
        if tag == _FLOAT and "inf" not in t and "nan" not in t:  # an explicit .inf is no typo
            return not abs(float(t)) < 10.0**MAX_INT_DIGITS  # also true for overflow to inf
    except ValueError:
        pass  # not a number after all: the constructor reports it with its position
    return False


def _short(value: object, limit: int = 40) -> str:
    s = str(value)
    return s if len(s) <= limit else s[: limit - 3] + "..."


def _tidy(message: str) -> str:
    """ruamel's wording in our style: first line only, lower-case first, no final period."""
    line = (message.strip().splitlines() or ["invalid YAML"])[0].strip().rstrip(".")
    return line[:1].lower() + line[1:]


_BREAK = re.compile(r"\r\n|\r|\n")  # YAML 1.2 line breaks, as ruamel counts them
_LONE_CR = re.compile(r"\r(?!\n)")


def _line_col(text: str, index: int) -> tuple[int, int]:
    """1-based line and column of a character index, for errors that only give an offset."""
    prefix = text[:index]
    last = max(prefix.rfind("\n"), prefix.rfind("\r"))
    return len(_BREAK.findall(prefix)) + 1, index - last


def _span(mark, filename: str) -> Span:  # ruamel counts from 0: convert once, here
    return Span(filename, mark.line + 1, mark.column + 1) if mark else Span(filename, 1, 1)


def _decode(raw: bytes, filename: str) -> tuple[str | None, Diagnostic | None]:
    """The text, or a diagnostic and (for excerpts) a lossy text with U+FFFD for bad bytes."""
    body = raw[3:] if raw.startswith(b"\xef\xbb\xbf") else raw  # a UTF-8 BOM is harmless
    hint = "save the file as UTF-8 (most editors offer it under 'Save as' or 'Encoding')"
    if body.startswith((b"\xff\xfe", b"\xfe\xff")):  # Notepad's "Unicode": name it
        return None, diag("E604", "the file is UTF-16 text, not UTF-8", Span(filename, 1, 1),
                          hint=hint)
    try:
        # A lone CR (old Mac line ends) breaks a line for YAML but not for the excerpts, which
        # split on LF: made an LF here, so positions and excerpts agree (YAML reads it the same).
        return _LONE_CR.sub("\n", body.decode("utf-8")), None
    except UnicodeDecodeError as exc:
        good = body[: exc.start].decode("utf-8")  # everything before the bad byte is valid
        line, column = _line_col(good, len(good))
        return _LONE_CR.sub("\n", body.decode("utf-8", "replace")), diag(
            "E604", f"byte 0x{body[exc.start]:02X} is not valid UTF-8 text",
            Span(filename, line, column), hint=hint)


def _from_yaml_error(exc: MarkedYAMLError, text: str, filename: str) -> Diagnostic:
    mark = exc.problem_mark or exc.context_mark
    problem = _tidy(str(exc.problem or exc.context or "invalid YAML"))
    related, context = [], _tidy(str(exc.context)) if exc.context else ""
    if context and problem.startswith("but "):  # "expected X" + "but found Y" read as one
        problem, context = f"{context}, {problem}", ""
    if isinstance(exc, DuplicateKeyError):  # only for keys our own scan cannot compare (1 vs 0x1)
        context = "in the mapping that starts here"
    if context and exc.context_mark and mark is not exc.context_mark and (
            exc.context_mark.line, exc.context_mark.column) != (mark.line, mark.column):
        related.append(Related(_span(exc.context_mark, filename), context))
    if isinstance(exc, DuplicateKeyError):
        key = re.search(r'duplicate (?:merge )?key "(.*?)"', problem)
        return diag("E603", f"duplicate key '{_short(key.group(1)) if key else '?'}'",
                    _span(mark, filename), related=related,
                    hint="each key may appear only once in a mapping; remove or rename one")
    if isinstance(exc, ConstructorError):  # e.g. !!omap of a mapping: the value, not the syntax
        return diag("E611", problem, _span(mark, filename), hint=_VALUE_HINT, related=related)
    if mark is not None and 0 <= mark.index <= len(text):  # tabs: look at the error's line
        start = max(text.rfind("\n", 0, mark.index), text.rfind("\r", 0, mark.index)) + 1
        line = _BREAK.split(text[start:], maxsplit=1)[0]
        indent, column = line[: len(line) - len(line.lstrip(" \t"))], mark.index - start
        if "\t" in indent or line[column: column + 1] == "\t":
            what = "is used for indentation" if "\t" in indent else "is not allowed here"
            column = indent.find("\t") if "\t" in indent else column
            return diag("E602", f"a tab {what}", Span(filename, mark.line + 1, column + 1),
                        hint=_TAB_HINT)
    hint = next((h for k, h in _HINTS.items() if k in problem), _SYNTAX_HINT)
    return diag("E601", problem, _span(mark, filename), hint=hint, related=related)


def _diagnose(exc: BaseException, text: str, filename: str) -> list[Diagnostic]:
    """Map every failure to diagnostics; the order of the clauses matters (subclasses first)."""
    if isinstance(exc, _Refused):
        return [diag(p.code, p.message, _span(p.mark, filename), hint=p.hint,
                     related=[Related(_span(m, filename), msg) for m, msg in p.related])
                for p in exc.problems]
    if isinstance(exc, MarkedYAMLError):  # Scanner/Parser/Composer/Constructor/DuplicateKey
        return [_from_yaml_error(exc, text, filename)]
    if isinstance(exc, ReaderError) and isinstance(exc.character, int):
        line, column = _line_col(text, exc.position)
        return [diag("E601", f"the file contains the control character U+{exc.character:04X}",
                     Span(filename, line, column), hint="delete it: it is invisible in most "
                     "editors and usually comes from pasting text from another program")]
    if isinstance(exc, RecursionError):  # the depth limits should make this unreachable
        return [diag("E608", "nesting is too deep to read", Span(filename, 1, 1),
                     hint="check for unclosed brackets or runaway indentation")]
    what = _tidy(str(exc)) if isinstance(exc, YAMLError) and str(exc) else type(exc).__name__
    return [diag("E612", f"the YAML file could not be loaded ({what})", Span(filename, 1, 1),
                 hint="check the file for unusual YAML features; this may be a toolkit bug")]


def load_yaml(raw: bytes, filename: str) -> Loaded:
    """Load one YAML warband file; problems become diagnostics and `data` is then None."""
    def refuse(code: str, message: str, hint: str) -> Loaded:
        return Loaded(None, (diag(code, message, Span(filename, 1, 1), hint=hint),), text)

    text = None
    if len(raw) > MAX_YAML_BYTES:
        return refuse("E607", f"the file is larger than {MAX_YAML_BYTES // 1024} kB",
                      "a warband file is normally a few kB; check that this is the right file")
    text, problem = _decode(raw, filename)
    if problem is not None:
        return Loaded(None, (problem,), text)
    assert text is not None  # _decode gives the text whenever it finds no problem
    yaml = YAML(typ="rt", pure=True)
    yaml.Scanner, yaml.Composer, yaml.Constructor = _Scanner, _Composer, _Constructor
    try:
        with warnings.catch_warnings():  # e.g. reused anchors: legal, not worth a diagnostic
            warnings.simplefilter("ignore")
            data = yaml.load(text)
    except Exception as exc:  # noqa: BLE001 -- every failure must become a diagnostic
        return Loaded(None, tuple(_diagnose(exc, text, filename)), text)
    if data is None:
        return refuse("E605", "the file has only comments and no data" if text.strip() else
                      "the file is empty", "add the warband's entries, e.g. 'name: Grey Company'")
    if not isinstance(data, CommentedMap):  # e.g. a top-level '!!set'
        return refuse("E606", "the file does not hold a plain mapping",
                      "start with 'key: value' lines at the left margin and no '!!' tag")
    return Loaded(data, (), text)


def position_of(data, path: tuple[str | int, ...], filename: str, *,
                key: bool = False) -> Span | None:
    """Span of the value at `path` inside loaded round-trip data (or of the key itself when
    key=True, for dict keys); walk as deep as the path exists, falling back to the nearest
    enclosing node. None when `data` carries no positions (a bare scalar). The span covers the
    first character only: round-trip data records where things start, not where they end."""
    lc = getattr(data, "lc", None)
    if lc is None or lc.line is None:
        return None
    pos, node = (lc.line, lc.col), data
    for i, step in enumerate(path):
        try:
            if isinstance(node, CommentedMap) and step in node:
                # an empty value ('might:') has no text of its own: ruamel places it on the
                # next token, so point at its key instead
                last_key = key and i == len(path) - 1
                found = node.lc.key(step) if last_key or node[step] is None else \
                    node.lc.value(step)
                if found is None:   # an !!omap keeps no positions: the enclosing node's
                    break
                pos = found
            elif isinstance(node, CommentedSeq) and type(step) is int and 0 <= step < len(node):
                found = node.lc.item(step)
                if found is None:   # nor does a list under a local tag (`traits: !omap`)
                    break
                pos = found
            else:
                break
        except (KeyError, IndexError, TypeError):  # merged ('<<') keys have no position
            break
        node = node[step]
    return Span(filename, pos[0] + 1, pos[1] + 1)
