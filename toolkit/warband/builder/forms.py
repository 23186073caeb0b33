"""An entry's form: the inputs the page shows for what the rules let a list set, and the changes
a posted form asks for.

The inputs follow the ruleset: a number box for each stat an entry may give (within its class's
bounds, or the stat's), a list for an enumerated stat, a box per piece of each equipment option
(a choice of one for `may take one of` and `may swap`), the unit's models and its special
models, the entry's own traits; a stat its class fixes is shown, not offered. Next to each
option is its price for this entry: its cost with the piece less its cost without, by the
ruleset's cost rules (offer.costs_of). Whether the choices are legal is the validator's to say:
the form offers what the rules name, and shows what the list says even where the rules do not
offer it (a piece no option gives, a class the rules do not have), so that it can be undone.

A posted form is read as a whole and compared with the entry: only the keys whose value
changed are written (a key the entry leaves out stays out while the form shows its default).
A value that is not what its key takes (a count of 'three') is written as typed, for the
validator to report at its place, as `warband validate` would for a file.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from fractions import Fraction
from typing import TYPE_CHECKING

from ruamel.yaml.scalarstring import LiteralScalarString

from warband.builder.offer import costs_of, difference, new_entry, number_text, settable
from warband.limits import MAX_BUILD_TEXT
from warband.lists.fmt import plain
from warband.lists.render_roster import printable
from warband.lists.unit_entries import models_key, special_key

if TYPE_CHECKING:
    from warband.lang.classes import FighterClass
    from warband.lang.ruleset import Ruleset, Stat

_INT = re.compile(r"[-+]?\d{1,15}")
_FRACTION = re.compile(r"[-+]?\d{1,15}/\d{1,15}")
_DECIMAL = re.compile(r"[-+]?\d{1,15}\.\d{1,15}")


class FormError(Exception):
    """A posted value the builder will not write (too long): the message is for the user."""


@dataclass
class Input:
    kind: str                 # text | number | select | checkbox | radio | textarea
    name: str                 # the form's field
    id: str                   # the element's id, the same from one page to the next
    label: str
    value: str = ""
    placeholder: str = ""
    low: str | None = None
    high: str | None = None
    choices: list[tuple[str, str]] = field(default_factory=list)   # (value, label)
    checked: bool = False
    price: str = ""
    doc: str | None = None
    note: str = ""            # "not offered by the rules"


@dataclass
class Group:
    title: str
    doc: str | None
    inputs: list[Input]


@dataclass
class EntryForm:
    id: int
    name: Input
    count: Input | None
    cls: Input | None
    stats: list[Input]
    fixed: list[str]                  # the stats the class fixes: "Grit 3"
    derived: list[str]                # the stats the rules work out for it: "Level 3"
    models: Input | None
    equipment: list[Group]            # one group per option (or one: any equipment)
    carried: str                      # the class's own equipment
    traits: Group | None              # the entry's own traits
    notes: Input
    marks: list[str]                  # the groups of boxes the form has (an unticked box
    #                                   sends nothing: these say which were shown)


def text(value) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "yes" if value else "no"
    return number_text(value)


# ---- the form of an entry -----------------------------------------------------------------------

def entry_form(ruleset: Ruleset, entry_id: int, entry: dict, card: dict | None) -> EntryForm:
    """The form of one entry (plain data) of the list; `card` is its roster card (lists/
    roster.py: its stats as the rules work them out), None for an entry too malformed for one."""
    e = f"e{entry_id}"
    cls_name = entry.get("class")
    cls = ruleset.classes.get(cls_name) if isinstance(cls_name, str) else None
    name = Input("text", "name", f"{e}-name", "Name", text(entry.get("name")))
    cls_input = None
    if ruleset.classes:
        choices = [(c.name, c.name + (f" ({c.tier})" if c.tier else ""))
                   for c in ruleset.classes.values()]
        if cls is None:   # what the list says, though the rules have no such class
            choices.insert(0, (text(cls_name), f"{text(cls_name) or '(none)'} (not a class)"))
        cls_input = Input("select", "class", f"{e}-class", "Class", text(cls_name),
                          choices=choices)
    count = None
    group = cls.group if cls is not None else None
    if group != (1, 1) or entry.get("count", 1) != 1:   # a class bought singly has no count
        count = Input("number", "count", f"{e}-count", "Count", text(entry.get("count")),
                      placeholder="1", low=str(group[0] if group else 1),
                      high=str(group[1]) if group else None)
    derived_values = {s["name"]: s["value"] for s in (card or {}).get("stats", ())
                      if s.get("derived")}
    stats = [_stat_input(ruleset, stat, cls, entry, e) for stat in settable(ruleset, cls)
             if stat.name not in derived_values]
    fixed = [f"{n} {text(v)}" for n, v in (cls.stats if cls is not None else ())]
    models = None
    unit = cls.unit if cls is not None else None
    if unit is not None and unit.span is not None and models_key(ruleset):
        models = Input("number", "models", f"{e}-models", "Models", text(entry.get("models")),
                       placeholder=str(unit.default), low=str(unit.low), high=str(unit.high),
                       doc=unit.doc)
    groups, marks = _equipment(ruleset, cls, entry, e), ["equipment"]
    if cls is not None and unit is not None and unit.specials and special_key(ruleset):
        groups += _specials(cls, entry, e)
        marks.append("special")
    traits = _traits(ruleset, entry, e)
    marks.append("traits")
    _price(ruleset, entry, groups + [traits])
    notes = Input("textarea", "notes", f"{e}-notes", "Notes", text(entry.get("notes")))
    return EntryForm(entry_id, name, count, cls_input, stats, fixed,
                     [f"{n} {v}" for n, v in derived_values.items()], models, groups,
                     ", ".join(cls.equipment) if cls is not None else "", traits, notes, marks)


def _stat_input(ruleset: Ruleset, stat: Stat, cls: FighterClass | None, entry: dict,
                e: str) -> Input:
    choice = cls.choice(stat.name) if cls is not None else None
    given = cls.given.get(stat.name) if cls is not None else None
    default = given if given is not None else stat.default
    value = entry.get(stat.key)
    shown = Input("number", f"stat:{stat.key}", f"{e}-stat-{stat.key}", stat.name, text(value),
                  placeholder=text(default), doc=stat.doc)
    if stat.enum:
        members = list(choice.members) if choice is not None and choice.members else \
            [m for m, _ in ruleset.enums.get(stat.enum) or ()]
        shown.kind = "select"
        shown.choices = [(m, m) for m in members]
        if value is not None and text(value) not in members:
            shown.choices.insert(0, (text(value), f"{text(value)} (not allowed)"))
        if default is not None:
            shown.choices.insert(0, ("", f"{text(default)} (default)"))
        elif value is None:
            shown.choices.insert(0, ("", "(none)"))
        return shown
    low, high = (choice.low, choice.high) if choice is not None else (stat.low, stat.high)
    shown.low, shown.high = (text(low) if low is not None else None,
                             text(high) if high is not None else None)
    return shown


def _listed(entry: dict) -> list[str]:
    found = entry.get("equipment")
    return [str(p) for p in found] if isinstance(found, list) else []


def _equipment(ruleset: Ruleset, cls: FighterClass | None, entry: dict, e: str) -> list[Group]:
    """A group of inputs per option of the class; one of every piece for a class without
    options (or a fighter of no class); then the pieces the entry lists that no box offers."""
    listed = _listed(entry)
    left = list(listed)   # each listed piece ticks one box, the first offering it

    def take(item: str) -> bool:
        if item in left:
            left.remove(item)
            return True
        return False

    groups = []
    n = 0
    for n, option in enumerate(cls.options if cls is not None else ()):
        pieces = [(item, ruleset.equipment.get(item)) for item in option.items]
        if option.kind == "swap" or (option.kind == "up_to" and option.limit == 1):
            chosen = next((item for item in option.items if take(item)), "")
            first = f"keep {option.replaces}" if option.kind == "swap" else "none"
            inputs = [Input("radio", "equipment", f"{e}-o{n}-none", first, "",
                            checked=chosen == "")]
            inputs += [Input("radio", "equipment", f"{e}-o{n}-{i}", item, item,
                             checked=chosen == item, doc=piece.doc if piece else None)
                       for i, (item, piece) in enumerate(pieces)]
        else:
            inputs = [Input("checkbox", "equipment", f"{e}-o{n}-{i}", item, item,
                            checked=take(item), doc=piece.doc if piece else None)
                      for i, (item, piece) in enumerate(pieces)]
        groups.append(Group(option.words(), option.doc, inputs))
    if cls is None or not cls.options:
        inputs = [Input("checkbox", "equipment", f"{e}-any-{i}", item, item, checked=take(item),
                        doc=piece.doc) for i, (item, piece) in enumerate(ruleset.equipment.items())]
        if inputs:
            groups.append(Group("equipment" if cls is None else "may carry any equipment",
                                None, inputs))
    if left:   # what the list says that no box offers: shown ticked, to be unticked
        groups.append(Group("not offered by the rules", None, [
            Input("checkbox", "equipment", f"{e}-x{i}", item, item, checked=True,
                  note="not offered") for i, item in enumerate(left)]))
    return groups


def _specials(cls: FighterClass, entry: dict, e: str) -> list[Group]:
    unit = cls.unit
    assert unit is not None
    found = entry.get("special")
    given: dict = found if isinstance(found, dict) else {}
    groups = []
    for n, option in enumerate(unit.specials):
        groups.append(Group(option.words(), option.doc, [
            Input("number", f"special:{item}", f"{e}-s{n}-{i}", item, text(given.get(item)),
                  placeholder="0", low="0", high=str(option.limit))
            for i, item in enumerate(option.items)]))
    return groups


def _traits(ruleset: Ruleset, entry: dict, e: str) -> Group:
    own = entry.get("traits")
    mapping = own if isinstance(own, dict) else {str(t): True for t in own} \
        if isinstance(own, list) else {}
    inputs = []
    for i, (name, trait) in enumerate(ruleset.traits.items()):
        if trait.numeric:
            inputs.append(Input("number", f"trait:{name}", f"{e}-t{i}", name,
                                text(mapping.get(name)), placeholder="0", doc=trait.doc))
        else:
            inputs.append(Input("checkbox", "trait", f"{e}-t{i}", name, name,
                                checked=name in mapping, doc=trait.doc))
    return Group("traits of its own", None, inputs)


def _price(ruleset: Ruleset, entry: dict, groups: list[Group]) -> None:
    """Each box's price for this entry, by the cost rules: the entry's cost with the piece (or
    trait, or special model) less its cost without (and without the others of a choice of
    one)."""
    trials: list[tuple[Input, dict, dict]] = []
    base = {k: v for k, v in entry.items() if k != "notes"}
    for group in groups:
        exclusive = any(i.kind == "radio" for i in group.inputs)
        items = [i.value for i in group.inputs if i.value]
        for box in group.inputs:
            if not box.value or box.note:
                continue
            if box.name == "equipment":
                drop = set(items) if exclusive else {box.value}
                kept = [p for p in _listed(base) if p not in drop]
                trials.append((box, {**base, "equipment": kept},
                               {**base, "equipment": kept + [box.value]}))
            elif box.name.startswith("special:"):
                special = dict(base.get("special") or {}) if isinstance(
                    base.get("special"), dict) else {}
                special.pop(box.label, None)
                trials.append((box, {**base, "special": special},
                               {**base, "special": {**special, box.label: 1}}))
            elif box.name.startswith("trait"):
                own = base.get("traits")
                mapping = dict(own) if isinstance(own, dict) else {
                    str(t): True for t in own} if isinstance(own, list) else {}
                mapping.pop(box.label, None)
                numeric = box.kind == "number"
                trials.append((box, {**base, "traits": mapping},
                               {**base, "traits": {**mapping, box.label: 1 if numeric else True}}))
    if not trials or ruleset.army is None:
        return
    costs = costs_of(ruleset, [e for _, a, b in trials for e in (_clean(a), _clean(b))])
    for n, (box, _, _) in enumerate(trials):
        found = difference(costs[2 * n], costs[2 * n + 1])
        box.price = found.text() if found is not None else ""


def _clean(entry: dict) -> dict:
    """A trial entry as a file would say it: no empty traits, equipment or special models."""
    return {k: v for k, v in entry.items() if v not in ([], {}, None)}


# ---- reading a posted form ----------------------------------------------------------------------

def _typed(raw: str):
    """A typed number as YAML keeps it; anything else as the text typed."""
    raw = raw.strip()
    if _INT.fullmatch(raw):
        return int(raw)
    if _FRACTION.fullmatch(raw):
        value = Fraction(raw)
        return int(value) if value.denominator == 1 else raw
    if _DECIMAL.fullmatch(raw):   # (YAML's number; read back as an exact fraction)
        return float(raw)
    return raw


def block(value: str) -> str:
    """Text of several lines is written as a YAML block (`notes: |`), as a person would."""
    return LiteralScalarString(value) if "\n" in value else value


def _bounded(value: str) -> str:
    if len(value) > MAX_BUILD_TEXT:
        raise FormError(f"a value may have at most {MAX_BUILD_TEXT:,} characters")
    return value.replace("\r\n", "\n").replace("\r", "\n")


def same(posted: str, value) -> bool:
    """Whether a posted value is the one the form showed: the page shows every value without
    its control characters (pages.py), so a value that has some comes back without them."""
    return printable(posted.strip()) == printable(text(value).strip())


def changes(ruleset: Ruleset, entry: dict, posted: dict[str, list[str]]) -> dict:
    """The keys a posted form changes (None: remove the key), against the entry (plain data)."""
    out: dict = {}

    def one(name: str) -> str | None:
        values = posted.get(name)
        return _bounded(values[-1]) if values else None

    name = one("name")
    if name is not None and not same(name, entry.get("name")):
        out["name"] = name.strip()
    cls_name = one("class")
    if cls_name is not None and not same(cls_name, entry.get("class")) and cls_name:
        out.update(_new_class(ruleset, entry, cls_name))
    for key in ("count", "models"):
        value = one(key)
        if value is not None and not same(value, entry.get(key)):
            out[key] = _typed(value) if value.strip() else None
    for stat in ruleset.stats.values():
        value = one(f"stat:{stat.key}")
        if value is None or stat.key in out:
            continue
        if not same(value, entry.get(stat.key)):
            out[stat.key] = (value.strip() if stat.enum else _typed(value)) if value.strip() \
                else None
    notes = one("notes")
    if notes is not None and not same(notes, entry.get("notes")):
        out["notes"] = block(notes.strip()) or None
    marks = set(posted.get("marks", ()))
    if "equipment" in marks:
        chosen = [_bounded(p) for p in posted.get("equipment", ()) if p]
        listed = _listed(entry)
        if sorted(map(printable, chosen)) != sorted(map(printable, listed)):
            kept = list(listed)
            new = []
            for piece in chosen:   # the list's order for what stays, the rest after it
                if piece in kept:
                    kept.remove(piece)
                else:
                    new.append(piece)
            ordered = [p for p in listed if p in chosen] + new
            out["equipment"] = ordered or None
    if "special" in marks:
        special = {key.removeprefix("special:"): _typed(values[-1])
                   for key, values in posted.items()
                   if key.startswith("special:") and values and values[-1].strip() not in ("", "0")}
        if special != (entry.get("special") or {}):
            out["special"] = special or None
    if "traits" in marks:
        own = _own_traits(posted)
        if own != _traits_of(entry):
            bare = all(v is True for v in own.values())
            out["traits"] = None if not own else list(own) if bare else own
    return out


def _own_traits(posted: dict[str, list[str]]) -> dict:
    own: dict = {str(t): True for t in posted.get("trait", ()) if t}
    for key, values in posted.items():
        if key.startswith("trait:") and values and values[-1].strip() not in ("", "0"):
            own[key.removeprefix("trait:")] = _typed(values[-1])
    return own


def _traits_of(entry: dict) -> dict:
    own = entry.get("traits")
    if isinstance(own, dict):
        return {str(k): True if v is None else v for k, v in own.items()}
    return {str(t): True for t in own} if isinstance(own, list) else {}


def _new_class(ruleset: Ruleset, entry: dict, cls_name: str) -> dict:
    """A change of class: the stats the new class fixes leave the entry (an entry may not give
    them), and those it needs a value for and has none get the least the class allows."""
    out: dict = {"class": cls_name}
    cls = ruleset.classes.get(cls_name)
    if cls is None:
        return out
    for stat in ruleset.stats.values():
        if cls.fixes(stat.name) and stat.key in entry:
            out[stat.key] = None
    for key, value in new_entry(ruleset, cls, "").items():
        if key not in ("name", "class") and key not in entry:
            out[key] = value
    return out


def list_changes(data: dict, posted: dict[str, list[str]]) -> dict:
    """The top-level keys the list's own form changes: its name, game size and notes."""
    out: dict = {}
    for key in ("name", "points", "notes"):
        values = posted.get(key)
        if not values:
            continue
        value = _bounded(values[-1]).strip()
        if not same(value, data.get(key)):
            out[key] = (_typed(value) if key == "points" else block(value)) if value else None
    return out


def plain_entry(entry) -> dict:
    """An entry as plain data for the forms (a malformed entry: an empty one)."""
    found = plain(entry)
    return found if isinstance(found, dict) else {}


__all__ = ["EntryForm", "FormError", "Group", "Input", "changes", "entry_form", "list_changes",
           "plain_entry"]
