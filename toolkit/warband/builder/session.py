"""One session of the builder: the folder, the list being built, what the page shows of it.

Each thing the page asks for (a new list, a file opened, an entry added or changed, a save) is
a method here; the web app (app.py) only reads requests and calls them, one at a time. After
every change the list is judged again (standing.py) and the page is made from the judgement.

Saving goes through a Writer the command line hands over (its atomic writer, cli/output.py,
which sits a layer above): a new file is written in one step and never over another unless
asked; the file the list came from is rewritten only if it still holds what was read (or last
saved), so that an edit made meanwhile in an editor is never lost.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from warband import catalog
from warband.builder import forms
from warband.builder.document import Document, TooLarge, Unloadable
from warband.builder.files import Folder, Refused, rules_files, warband_files
from warband.builder.offer import Offer, new_entry, offer
from warband.builder.standing import Standing, judge
from warband.lang.ruleset import Ruleset
from warband.limits import MAX_BUILD_TEXT
from warband.lists.warband_file import ruleset_ref

NEW_NAME = "new-list.yaml"


class WriteFailed(Exception):
    """A file not written (it changed meanwhile, it exists, it is read-only...): the message
    and hint are for the user."""

    def __init__(self, message: str, hint: str | None = None) -> None:
        super().__init__(message)
        self.hint = hint


class Writer(Protocol):
    """How the builder writes files (the command line's atomic writer)."""

    def create(self, path: Path, data: bytes, *, replace: bool) -> None:
        """Write a file in one step; an existing one only with replace=True."""

    def rewrite(self, path: Path, data: bytes, original: bytes) -> None:
        """Rewrite a file that was read as `original`; WriteFailed if it no longer is."""


@dataclass
class Notice:
    kind: str      # ok | error
    text: str
    hint: str | None = None


def slug(name: str) -> str:
    """A file name for a list's name: 'The Clockwork Empire' -> the-clockwork-empire.yaml."""
    words = re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")[:60].strip("-")
    return f"{words or 'warband'}.yaml"


class Session:
    """The builder's state between requests."""

    def __init__(self, folder: Folder, writer: Writer, rules: Path | None = None) -> None:
        self.folder, self.writer, self.rules = folder, writer, rules
        self.document: Document | None = None
        self.notice: Notice | None = None
        self.focus: str | None = None     # the element the page puts the cursor in next
        self._offer: tuple[Ruleset, Offer] | None = None
        self._standing: Standing | None = None

    # ---- what a new list may be built for ----------------------------------------------------
    def choices(self) -> list[tuple[str, str]]:
        """(value, label) of each ruleset a new list may use: the shipped ones, the rules file
        the builder was started with, and the rules files of the folder."""
        out = [(f"id:{s.id}", f"{s.title} ({s.id})") for s in catalog.rulesets()]
        if self.rules is not None:
            out.insert(0, ("given", f"{self.rules.name} (your rules)"))
        out += [(f"file:{name}", f"{name} (in this folder)") for name in rules_files(self.folder)
                if self.rules is None or self.folder.root / name != self.rules]
        return out

    def files(self) -> list[str]:
        return warband_files(self.folder)

    def _ref(self, choice: str) -> str:
        """What a new list's `ruleset:` says for a choice of the page: an id, or the path of a
        rules file from the folder."""
        if choice.startswith("id:") and any(s.id == choice[3:] for s in catalog.rulesets()):
            return choice[3:]
        if choice == "given" and self.rules is not None:
            path = self.rules
        elif choice.startswith("file:"):
            path = self.folder.name(choice[5:], catalog.RULES_SUFFIXES)
        else:
            raise Refused(f"'{choice}' is not a ruleset this page offers")
        return Path(os.path.relpath(path, self.folder.root)).as_posix()

    # ---- starting ----------------------------------------------------------------------------
    def new(self, choice: str, name: str = "") -> None:
        name = name.strip()[:MAX_BUILD_TEXT] or "My warband"
        self.document = Document.new(name, self._ref(choice), self.folder.root)
        self.notice = Notice("ok", f"a new list for {self.document.data['ruleset']}")
        self._standing = None

    def open(self, name: str) -> None:
        self.open_path(self.folder.name(name))

    def open_path(self, path: Path) -> None:
        """Open a warband file of the folder (or under it); Refused or Unloadable if it cannot
        be read or does not load."""
        raw = self.folder.read(path)
        shown = self.folder.relative(path)
        self.document = Document.read(raw, shown, path, path.parent)
        self.notice = Notice("ok", f"opened {shown}")
        self._standing = None

    # ---- the list's name, and the file it is saved to ----------------------------------------
    @property
    def name(self) -> str:
        """The list's file as diagnostics name it."""
        doc = self.document
        if doc is None or doc.file is None:
            return NEW_NAME
        return self.folder.relative(doc.file)

    def save_name(self) -> str:
        doc = self.document
        if doc is None:
            return NEW_NAME
        if doc.file is not None:
            return self.folder.relative(doc.file)
        listed = doc.data.get("name")
        return slug(listed) if isinstance(listed, str) else NEW_NAME

    # ---- the judgement -----------------------------------------------------------------------
    def standing(self) -> Standing | None:
        if self.document is None:
            return None
        if self._standing is None:
            self._standing = judge(self.document.text(), self.name, self.document.base)
        return self._standing

    def ruleset(self) -> Ruleset | None:
        found = self.standing()
        return found.result.ruleset if found is not None else None

    def offer(self) -> Offer | None:
        ruleset = self.ruleset()
        if ruleset is None:
            return None
        if self._offer is None or self._offer[0] is not ruleset:
            self._offer = (ruleset, offer(ruleset))
        return self._offer[1]

    def forms(self) -> list[forms.EntryForm | None]:
        """Each entry's form (None for an entry that is no mapping: it can only be removed)."""
        doc, ruleset, found = self.document, self.ruleset(), self.standing()
        if doc is None or ruleset is None or found is None:
            return []
        out: list[forms.EntryForm | None] = []
        for i, (entry_id, entry) in enumerate(zip(doc.ids, doc.entries)):
            card = found.entries[i].card if i < len(found.entries) else None
            out.append(forms.entry_form(ruleset, entry_id, forms.plain_entry(entry), card)
                       if isinstance(entry, dict) else None)
        return out

    # ---- changes -----------------------------------------------------------------------------
    def _changed(self) -> None:
        self._standing = None
        self.notice = None

    def _document(self) -> Document:
        if self.document is None:
            raise Refused("there is no list: start a new one, or open one")
        return self.document

    def add(self, cls_name: str) -> None:
        doc, ruleset = self._document(), self.ruleset()
        if ruleset is None:
            raise Refused("the list's ruleset cannot be read, so nothing can be added")
        cls = ruleset.classes.get(cls_name) if ruleset.classes else None
        if ruleset.classes and cls is None:
            raise Refused(f"the rules have no class '{cls_name}'")
        entry = new_entry(ruleset, cls, self._unique(cls.name if cls is not None else "Fighter"))
        entry_id = doc.add(entry)
        self._changed()
        self.focus = f"e{entry_id}-name"

    def _unique(self, name: str) -> str:
        """A name no entry has yet: the class's, 'CLASS', then 'CLASS 2' (two entries of one name are
        a warning, W701)."""
        taken = {e.get("name") for e in self._document().entries if isinstance(e, dict)}
        if name not in taken:
            return name
        n = 2
        while f"{name} {n}" in taken:
            n += 1
        return f"{name} {n}"

    def edit(self, entry_id: int, posted: dict[str, list[str]]) -> None:
        doc, ruleset = self._document(), self.ruleset()
        i = doc.index(entry_id)
        if i is None or ruleset is None or not isinstance(doc.entries[i], dict):
            raise Refused("that entry is no longer in the list")
        found = forms.changes(ruleset, forms.plain_entry(doc.entries[i]), posted)
        order = ("name", "count", "class", "models",
                 *(s.key for s in ruleset.stats.values()),
                 "traits", "equipment", "notes", "special")
        doc.set_entry(entry_id, found, order)
        self._changed()

    def edit_list(self, posted: dict[str, list[str]]) -> None:
        doc = self._document()
        doc.set_top(forms.list_changes(doc.data, posted))
        self._changed()

    def duplicate(self, entry_id: int) -> None:
        doc = self._document()
        i = doc.index(entry_id)
        if i is None:
            raise Refused("that entry is no longer in the list")
        entry = doc.entries[i]
        name = entry.get("name") if isinstance(entry, dict) else None
        made = doc.duplicate(entry_id, self._unique(name) if isinstance(name, str) else None)
        self._changed()
        self.focus = f"e{made}-name" if made is not None else None

    def remove(self, entry_id: int) -> None:
        self._document().remove(entry_id)
        self._changed()

    def move(self, entry_id: int, by: int) -> None:
        self._document().move(entry_id, by)
        self._changed()

    def undo(self) -> None:
        if not self._document().undo():
            raise Refused("nothing to undo")
        self._changed()

    # ---- saving ------------------------------------------------------------------------------
    def save(self, name: str, replace: bool = False) -> None:
        doc = self._document()
        # the file the list came from, by the name the page shows it (in a folder under the
        # chosen one when the command line named it so); any other, by a plain name
        path = doc.file if doc.file is not None and name.strip() == self.folder.relative(
            doc.file) else self.folder.name(name)
        same = doc.file is not None and os.path.realpath(doc.file) == os.path.realpath(path)
        if same and not doc.changed:
            self.notice = Notice("ok", f"{self.folder.relative(path)} has no changes to save")
            return
        if not same and path.parent != doc.base:
            self._rebase(path.parent)
        raw = doc.raw()
        shown = self.folder.relative(path)
        try:
            if same:
                assert doc.original is not None   # a document read from a file keeps its bytes
                self.writer.rewrite(path, raw, doc.original)
            else:
                if os.path.lexists(path) and not replace:
                    raise WriteFailed(f"{shown} exists",
                                      "tick 'replace' to write over it, or give another name")
                self.writer.create(path, raw, replace=replace)
        except WriteFailed as error:   # (the writer names the file by its whole path)
            raise WriteFailed(str(error).replace(str(path), shown), error.hint) from None
        doc.saved(path, raw, path.parent)
        self._standing = None
        self.notice = Notice("ok", f"saved {self.folder.relative(path)}")

    def _rebase(self, base: Path) -> None:
        """Saving into another folder: a `ruleset:` path is made relative to it."""
        doc = self._document()
        ref = ruleset_ref(doc.data)
        if ref is None or not catalog.looks_like_path(ref):
            return
        moved = Path(os.path.relpath(doc.base / ref, base)).as_posix()
        doc.set_top({"ruleset": moved})
        doc.base = base

    def say(self, kind: str, text: str, hint: str | None = None) -> None:
        self.notice = Notice(kind, text, hint)


__all__ = ["Notice", "Session", "TooLarge", "Unloadable", "WriteFailed", "Writer", "slug"]
