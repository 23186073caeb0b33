"""The list being built: a warband file as ruamel's round-trip data, and the edits the page asks
for, made so that what a user wrote stays as they wrote it.

A file opened in the builder is read safely first (lists/yamlload.py: sizes, nesting, aliases;
a file that does not load is refused with the loader's diagnostics), then as round-trip data
(lists/fmt.py's `load_document`), which keeps its comments, quotes and flow lists. An edit
changes one key of one entry, or adds, removes, copies or moves an entry; a key the list did not
have is put where `warband fmt` would put it. The text written is `dump_document`'s, as `fmt`,
`convert` and `play --update` write, and a list not changed since it was read is written back
byte for byte.

Every entry has an id for the session (its place changes as entries are added and removed; the
page's forms name the id). Each edit keeps the text before it, so that the last
MAX_BUILD_UNDO edits can be undone.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from ruamel.yaml.comments import CommentedMap, CommentedSeq

from warband.diagnostics import Diagnostic, Sources, render_text
from warband.limits import MAX_BUILD_ENTRIES, MAX_BUILD_UNDO, MAX_YAML_BYTES
from warband.lists.fmt import TOP_ORDER, dump_document, load_document, plain
from warband.lists.warband_file import FIGHTERS
from warband.lists.yamlload import load_yaml

# where a key an entry did not have goes, as `warband fmt` orders them (stats after `models`)
ENTRY_HEAD = ("name", "count", "class", "models")
ENTRY_TAIL = ("traits", "equipment", "notes", "special")


class Unloadable(Exception):
    """A file the builder cannot edit: it does not load as a warband file (the diagnostics
    say why, as `warband validate` would)."""

    def __init__(self, diagnostics: list[Diagnostic], text: str | None, name: str) -> None:
        sources = Sources()
        if text is not None:
            sources.add(name, text)
        super().__init__(render_text(diagnostics, sources))
        self.diagnostics, self.text, self.name = diagnostics, text, name


class TooLarge(Exception):
    """An edit that would make the list larger than a warband file may be."""


@dataclass
class Document:
    """The list being built and where it is kept.

    file: the file it was read from or last saved to (None: never saved); original: that file's
    bytes as read or written then (a save refuses a file that no longer has them); base: the
    folder the list's relative `ruleset:` path is read from."""

    data: CommentedMap
    base: Path
    file: Path | None = None
    original: bytes | None = None
    ids: list[int] = field(default_factory=list)
    changed: bool = False
    history: list[tuple[str, list[int], bool]] = field(default_factory=list)
    next_id: int = 0

    def __post_init__(self) -> None:
        if not self.ids:
            self.ids = list(range(len(self.entries)))
        self.next_id = max(self.ids, default=-1) + 1

    # ---- making one ------------------------------------------------------------------------
    @classmethod
    def new(cls, name: str, ruleset: str, base: Path) -> Document:
        data = CommentedMap()
        data["name"] = name
        data["ruleset"] = ruleset
        data[FIGHTERS] = CommentedSeq()
        return cls(data, base, changed=True)

    @classmethod
    def read(cls, raw: bytes, name: str, file: Path, base: Path) -> Document:
        """A warband file's bytes as a document; Unloadable when they do not load."""
        loaded = load_yaml(raw, name)
        if loaded.data is None or loaded.text is None:
            raise Unloadable(list(loaded.diagnostics), loaded.text, name)
        return cls(load_document(loaded.text), base, file=file, original=raw)

    # ---- reading it ------------------------------------------------------------------------
    @property
    def entries(self) -> list:
        found = self.data.get(FIGHTERS)
        return found if isinstance(found, list) else []

    def index(self, entry_id: int) -> int | None:
        try:
            return self.ids.index(entry_id)
        except ValueError:
            return None

    def text(self) -> str:
        """The list as a file says it: the file's own bytes while nothing has changed."""
        if not self.changed and self.original is not None:
            return self.original.decode("utf-8", errors="replace")
        text = dump_document(self.data)
        if self.original is not None and b"\r\n" in self.original:   # as `fmt` keeps them
            text = text.replace("\r\n", "\n").replace("\n", "\r\n")
        return text

    def raw(self) -> bytes:
        if not self.changed and self.original is not None:
            return self.original
        return self.text().encode("utf-8")

    # ---- changing it -----------------------------------------------------------------------
    def _before(self) -> None:
        """Keep the text before an edit, for undo."""
        self.history.append((dump_document(self.data), list(self.ids), self.changed))
        del self.history[:-MAX_BUILD_UNDO]

    def _after(self) -> None:
        """An edit is made: refused (and undone) if the list became too large to read back."""
        self.changed = True
        if len(dump_document(self.data).encode("utf-8")) > MAX_YAML_BYTES:
            self.undo()
            raise TooLarge(f"the list would be larger than a warband file may be "
                           f"({MAX_YAML_BYTES // 1024} kB)")

    def undo(self) -> bool:
        if not self.history:
            return False
        text, ids, changed = self.history.pop()
        self.data, self.ids, self.changed = load_document(text), ids, changed
        return True

    def _fighters(self) -> CommentedSeq:
        found = self.data.get(FIGHTERS)
        if not isinstance(found, list):
            found = CommentedSeq()
            place(self.data, FIGHTERS, found, TOP_ORDER)
            self.ids = []
        return found

    def add(self, entry: dict) -> int:
        if len(self.entries) >= MAX_BUILD_ENTRIES:
            raise TooLarge(f"a list built here has at most {MAX_BUILD_ENTRIES} entries")
        self._before()
        fighters = self._fighters()
        made = CommentedMap()
        for key, value in entry.items():
            made[key] = value
        fighters.append(made)
        self.ids.append(self.next_id)
        self.next_id += 1
        self._after()
        return self.ids[-1]

    def remove(self, entry_id: int) -> None:
        i = self.index(entry_id)
        if i is None:
            return
        self._before()
        del self._fighters()[i]
        del self.ids[i]
        self._after()

    def duplicate(self, entry_id: int, name: str | None) -> int | None:
        i = self.index(entry_id)
        if i is None:
            return None
        if len(self.entries) >= MAX_BUILD_ENTRIES:
            raise TooLarge(f"a list built here has at most {MAX_BUILD_ENTRIES} entries")
        self._before()
        fighters = self._fighters()
        copy = copied(fighters[i])
        if name is not None and isinstance(copy, dict):
            copy["name"] = name
        fighters.insert(i + 1, copy)
        self.ids.insert(i + 1, self.next_id)
        self.next_id += 1
        self._after()
        return self.ids[i + 1]

    def move(self, entry_id: int, by: int) -> None:
        i = self.index(entry_id)
        if i is None or not 0 <= i + by < len(self.entries):
            return
        self._before()
        fighters = self._fighters()
        fighters[i], fighters[i + by] = fighters[i + by], fighters[i]
        self.ids[i], self.ids[i + by] = self.ids[i + by], self.ids[i]
        self._after()

    def set_entry(self, entry_id: int, changes: dict, order: tuple[str, ...]) -> None:
        """Set keys of one entry (None removes a key); `order` is where a new key goes."""
        i = self.index(entry_id)
        if i is None or not changes:
            return
        self._before()
        fighters = self._fighters()
        entry = fighters[i]
        if any(e is entry for j, e in enumerate(fighters) if j != i) or \
                getattr(entry, "merge", None):
            # an alias (`- *base`) or a merge (`<<: *base`) shares its keys with another
            # entry: the edited one gets keys of its own
            entry = fighters[i] = copied(entry)
        for key, value in changes.items():
            if value is None:
                entry.pop(key, None)
            else:
                place(entry, key, value, order)
        self._after()

    def set_top(self, changes: dict) -> None:
        if not changes:
            return
        self._before()
        for key, value in changes.items():
            if value is None:
                self.data.pop(key, None)
            else:
                place(self.data, key, value, TOP_ORDER)
        self._after()

    def saved(self, file: Path, raw: bytes, base: Path) -> None:
        self.file, self.original, self.base, self.changed = file, raw, base, False
        self.data = load_document(raw.decode("utf-8"))


def place(mapping: CommentedMap, key: str, value, order: tuple[str, ...]) -> None:
    """Set a key; one the mapping did not have goes before the first key after it in `order`
    (at the end when there is none), so that the file reads as `warband fmt` would lay it."""
    if isinstance(value, list) and not isinstance(value, CommentedSeq):
        # a list keeps the style the file gave it; a new one is written as the shipped
        # warbands write theirs: `equipment: [Sword, Pistol]`
        old = mapping.get(key)
        block = isinstance(old, CommentedSeq) and not old.fa.flow_style()
        value = CommentedSeq(value) if block else flow(value)
    if key in mapping:
        mapping[key] = value
        return
    later = set(order[order.index(key) + 1:]) if key in order else set()
    keys = list(mapping.keys())
    at = next((n for n, k in enumerate(keys) if k in later), len(keys))
    mapping.insert(at, key, value)


def flow(items: list) -> CommentedSeq:
    seq = CommentedSeq(items)
    seq.fa.set_flow_style()
    return seq


def copied(node):
    """A copy of an entry with keys and lists of its own (no comment, anchor or merge)."""
    if isinstance(node, dict):
        out = CommentedMap()
        for key, value in node.items():
            out[key] = copied(value)
        return out
    if isinstance(node, list):
        items = [copied(v) for v in node]
        return flow(items) if isinstance(node, CommentedSeq) and node.fa.flow_style() \
            else CommentedSeq(items)
    return plain(node)


__all__ = ["Document", "TooLarge", "Unloadable", "copied", "flow", "place"]
