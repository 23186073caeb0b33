"""JSON Schemas for warband files, made from a compiled Ruleset, and the schema stage of validation.

`ruleset_schema(ruleset)` describes the warband files of one ruleset (Draft 7, so that editors
and check-jsonschema read it): classes as an enum, each stat by its lower-case key with its range
or members, traits by name (a mapping of trait to number, or a list of bare names), equipment by
name, `additionalProperties: false` everywhere so that a misspelt key is caught. Which stats a
fighter must give follows from the rules: those with no default that its class does not set.
`generic_schema()` describes any warband file, whatever its ruleset.

`check(...)` runs jsonschema over the loaded YAML and turns each error into one Diagnostic in the
toolkit's words, at the line and column of the offending value (of the key, for an unknown key),
with "did you mean" where a name is close to one the ruleset has.

Regenerate the published schemas with:  python -m warband.lists.schema schemas/
"""

from __future__ import annotations

import json
import os
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from warband import catalog
from warband.diagnostics import Diagnostic, Span, diag, did_you_mean
from warband.lang.compiler import load
from warband.lists.derived import derived_words
from warband.lists.unit_entries import (
    models_conditions,
    models_key,
    models_schema,
    special_key,
    special_schema,
)
from warband.lists.warband_file import FIGHTERS, GAMES, span_at

if TYPE_CHECKING:
    from warband.lang.ruleset import Ruleset, Stat

DRAFT7 = "http://json-schema.org/draft-07/schema#"
TOP_KEYS = ("name", "ruleset", "points", GAMES, FIGHTERS, "notes")
GENERIC_FILE = "warband.schema.json"
REGENERATE = "python -m warband.lists.schema schemas/"
RULES_PATH = "\\.[rR][uU][lL][eE][sS]$"   # a warband names a rules file by a path ending so
_STAT_KEY = "^(?!(?:name|class|count|traits|equipment|special|notes)$)[a-z][a-z0-9_]*$"  # not a fighter key


# ---- making schemas -----------------------------------------------------------------------------

def _stat_schema(stat: Stat, ruleset: Ruleset) -> dict:
    out: dict = {}
    if stat.enum:
        out["enum"] = [member for member, _ in ruleset.enums[stat.enum]]
    else:
        out["type"] = "integer"
        if isinstance(stat.low, int):
            out["minimum"] = stat.low
        if isinstance(stat.high, int):
            out["maximum"] = stat.high
    if isinstance(stat.default, (int, str)) and not isinstance(stat.default, bool):
        out["default"] = stat.default
    if stat.doc:
        out["description"] = stat.doc
    return out


def required_stats(ruleset: Ruleset, class_name: str | None) -> list[str]:
    """Keys of the stats a fighter must give: no default, its class sets no value, and the
    rules do not work it out (for some fighters or all: lists/derived.py checks the rest)."""
    given = ruleset.classes[class_name].given if class_name in ruleset.classes else {}
    return [s.key for s in ruleset.stats.values()
            if s.default is None and s.name not in given and s.derived is None]


def _class_stats(ruleset: Ruleset) -> list[dict]:
    """Per class: the stats it fixes are not given (`not: {}`), and those the list chooses
    within the class's bounds are narrowed to them (E631 and E623/E627 in validation)."""
    conditions = []
    for c in ruleset.classes.values():
        props: dict = {}
        for name, value in c.stats:
            stat = ruleset.stats.get(name)
            if stat is not None and not stat.always_derived:
                props[stat.key] = {"not": {}, "description": f"class {c.name} fixes {name} at "
                                                             f"{value}: leave it out"}
        for choice in c.choices:
            stat = ruleset.stats.get(choice.stat)
            if stat is None:
                continue
            bounds: dict = {"enum": list(choice.members)} if choice.members else {
                k: v for k, v in (("minimum", choice.low), ("maximum", choice.high))
                if isinstance(v, int)}
            if isinstance(choice.default, (int, str)) and not isinstance(choice.default, bool):
                bounds["default"] = choice.default
            bounds["description"] = choice.doc or f"class {c.name} chooses {choice.stat} " \
                                                  f"from {choice.shown}"
            props[stat.key] = bounds
        if props:
            conditions.append({"if": {"properties": {"class": {"const": c.name}},
                                      "required": ["class"]},
                               "then": {"properties": props}})
    return conditions


def _fighter_schema(ruleset: Ruleset, groups: bool = True, classes: bool = True) -> dict:
    props: dict = {"name": {"type": "string", "minLength": 1,
                            "description": "the fighter's name, unique in the warband"}}
    required = ["name"]
    if ruleset.classes:
        props["class"] = {"enum": list(ruleset.classes),
                          "description": "the fighter's class: " + ", ".join(
                              f"{n} ({c.tier})" if c.tier else n
                              for n, c in ruleset.classes.items())}
        required.append("class")
    props["count"] = {"type": "integer", "minimum": 1, "default": 1,
                      "description": "how many identical fighters this entry stands for"}
    for stat in ruleset.stats.values():
        if not stat.always_derived:   # worked out by the rules for every fighter: never given
            props[stat.key] = _stat_schema(stat, ruleset)
    if models_key(ruleset):   # units of several models (lists/unit_entries.py)
        props["models"] = models_schema(ruleset)
    if special_key(ruleset):   # one model of a unit with a different weapon
        props["special"] = special_schema(ruleset)
    if ruleset.traits:
        bare = [n for n, t in ruleset.traits.items() if not t.numeric]
        traits: dict = {
            "type": ["object", "array"],
            "description": "traits besides the class's: a list of names, or a mapping of "
                           "trait to number",
            "properties": {n: ({"type": "integer"} if t.numeric else {"enum": [True, None]})
                           | ({"description": t.doc} if t.doc else {})
                           for n, t in ruleset.traits.items()},
            "additionalProperties": False,
        }
        traits |= {"items": {"enum": bare}} if bare else {"maxItems": 0}
        props["traits"] = traits
    if ruleset.equipment:
        props["equipment"] = {"type": "array", "items": {"enum": list(ruleset.equipment)},
                              "description": "equipment besides the class's"}
    props["notes"] = {"type": "string"}
    schema: dict = {"type": "object", "properties": props, "required": required,
                    "additionalProperties": False}
    by_class = {c: required_stats(ruleset, c) for c in ruleset.classes} or {
        None: required_stats(ruleset, None)}
    shared = [k for k in required_stats(ruleset, None) if all(k in v for v in by_class.values())]
    schema["required"] += shared
    conditions = [{"if": {"properties": {"class": {"const": c}}, "required": ["class"]},
                   "then": {"required": [k for k in keys if k not in shared]}}
                  for c, keys in by_class.items() if c and set(keys) - set(shared)]
    if groups:   # how many fighters one entry of a class may stand for (`group 1..5`, `single`)
        conditions += [{"if": {"properties": {"class": {"const": c.name}}, "required": ["class"]},
                        "then": {"properties": {"count": {
                            "minimum": c.group[0], "maximum": c.group[1],
                            "description": f"class {c.name} comes in groups of {c.group[0]} to "
                                           f"{c.group[1]}" if c.group != (1, 1) else
                            f"class {c.name} is bought singly"}}}}
                       for c in ruleset.classes.values() if c.group is not None]
        conditions += models_conditions(ruleset)   # a unit class's models
        # a unique class: one fighter, so an entry of it stands for one (that no second entry
        # names it is beyond draft 7, which cannot count the items that match: validate says)
        conditions += [{"if": {"properties": {"class": {"const": c.name}}, "required": ["class"]},
                        "then": {"properties": {"count": {
                            "maximum": 1,
                            "description": f"class {c.name} is unique: one in a warband"}}}}
                       for c in ruleset.classes.values()
                       if c.unique is not None and (c.group is None or c.group[1] > 1)]
        # what an entry of a class with options may carry (`may take ...`, `may swap ...`)
        conditions += [{"if": {"properties": {"class": {"const": c.name}}, "required": ["class"]},
                        "then": {"properties": {"equipment": {
                            "items": {"enum": c.allowed_equipment()},
                            "description": f"class {c.name}: " + "; ".join(
                                o.words() for o in c.options)}}}}
                       for c in ruleset.classes.values() if c.options]
    if classes:
        conditions += _class_stats(ruleset)
    if conditions:
        schema["allOf"] = conditions
    return schema


def schema_file(ruleset_id: str | None) -> str:
    """The file name of a schema in schemas/ (None: the generic one)."""
    return GENERIC_FILE if ruleset_id is None else f"{ruleset_id}.warband.schema.json"


MODELINE = "# yaml-language-server: $schema="


def modeline(ruleset_id: str, folder: Path) -> str | None:
    """The editor's modeline for a warband file in `folder` that uses `ruleset_id`, naming its
    schema by a path that resolves from there: one beside the file (`warband schema RULESET
    --install FOLDER` puts it there), else the shipped one (schemas/ in a checkout,
    warband/schemas/ in an installed package), relative to the folder; None when there is
    neither (a ruleset of the user's own, its schema not installed)."""
    name = schema_file(ruleset_id)
    for found in (folder / name, catalog.SCHEMAS_DIR / name):
        if found.is_file():
            try:
                shown = os.path.relpath(found, folder)
            except ValueError:   # another drive, on Windows
                shown = str(found.resolve())
            return MODELINE + Path(shown).as_posix()
    return None


def _document(file: str, title: str, description: str, ruleset_prop: dict, fighter: dict,
              points: dict | None, kept: dict | None = None) -> dict:
    props: dict = {"name": {"type": "string", "minLength": 1, "description": "the warband's name"},
                   "ruleset": ruleset_prop}
    if points is not None:
        props["points"] = points
    # campaigns: the games played (written by `warband play --update`), and the side's stats
    props[GAMES] = {"type": "integer", "minimum": 0,
                    "description": "the games this warband has played in its campaign"}
    props.update(kept or {})
    props[FIGHTERS] = {"type": "array", "minItems": 1, "items": fighter}
    props["notes"] = {"type": "string"}
    # $id: the file's own name, a reference relative to where the schema is read from, so it
    # names the file as a warband's modeline finds it (schemas/ in a checkout, warband/schemas/
    # in an installed package)
    return {"$schema": DRAFT7, "$id": file, "title": title, "description": description, "type": "object",
            "properties": props, "required": ["name", "ruleset", FIGHTERS],
            "additionalProperties": False}


def ruleset_schema(ruleset: Ruleset, *, groups: bool = True, classes: bool = True) -> dict:
    """The schema of the warband files of one ruleset. groups=False leaves out the group sizes
    of classes: validation checks them as army rules (E705), which name the class's rule;
    classes=False the stats classes fix or bound: validation checks them (lists/class_stats.py)
    with the class's line beside."""
    # lazily: what a limit reads, only for a ruleset with army rules
    from warband.run.evaluate import names_in
    points = None
    army = ruleset.army
    if army is not None and (army.cost is not None or army.points is not None or any(
            c.limit is not None and "points" in names_in(c.limit) for c in army.costs)):
        # a game's size in points: what the points cost, or what a named cost's limit reads
        points = {"type": "integer", "minimum": 1,
                  "description": "the game's size in points; the fighters may cost at most this"}
        if isinstance(army.points, int):
            points["default"] = army.points
    # pinned: this ruleset's id, or a path to a rules file (which may be it: a path cannot be
    # told from here), so an editor flags a warband that names another ruleset
    ruleset_prop = {"anyOf": [{"const": ruleset.id},
                              {"type": "string", "pattern": RULES_PATH}],
                    "examples": [ruleset.id],
                    "description": f"'{ruleset.id}', or a path to its .rules file relative to "
                                   "this file"}
    return _document(schema_file(ruleset.id), f"{ruleset.title}: warband file",
                     f"A warband for the '{ruleset.id}' rules. Generated by `warband schema "
                     f"{ruleset.id}`; do not edit.", ruleset_prop,
                     _fighter_schema(ruleset, groups, classes),
                     points, _kept_schema(ruleset))


def _kept_schema(ruleset: Ruleset) -> dict:
    """Campaigns: the side's stats a warband file keeps (`stat NAME on side: LOW..HIGH`)."""
    out: dict = {}
    for state in ruleset.states.values():
        if state.owner != "side" or not state.kept:
            continue
        one: dict = {"type": "integer"}
        if isinstance(state.low, int):
            one["minimum"] = state.low
        if isinstance(state.high, int):
            one["maximum"] = state.high
        if isinstance(state.initial, int) and not isinstance(state.initial, bool):
            one["default"] = state.initial
        if state.doc:
            one["description"] = state.doc
        out[state.key] = one
    return out


def generic_schema() -> dict:
    """The shape of every warband file, whatever its ruleset."""
    fighter = {
        "type": "object",
        "properties": {
            "name": {"type": "string", "minLength": 1},
            "class": {"type": "string", "minLength": 1},
            "count": {"type": "integer", "minimum": 1, "default": 1},
            "traits": {"type": ["object", "array"],
                       "additionalProperties": {"type": ["integer", "boolean", "null"]},
                       "items": {"type": "string"}},
            "equipment": {"type": "array", "items": {"type": "string"}},
            # one model of a unit with a different weapon: piece -> models carrying it
            "special": {"type": "object",
                        "additionalProperties": {"type": "integer", "minimum": 1}},
            "notes": {"type": "string"},
        },
        "patternProperties": {_STAT_KEY: {"type": ["integer", "string"],
                                          "description": "a stat, by its lower-case name"}},
        "required": ["name"],
        "additionalProperties": False,
    }
    return _document(schema_file(None), "Warband file", "A warband for any ruleset; `warband schema RULESET` "
                     "gives the exact schema for one. Generated; do not edit.",
                     {"type": "string", "minLength": 1,
                      "description": "a built-in ruleset id, or a path to a .rules file"},
                     fighter, {"type": "integer", "minimum": 1})


def schema_text(schema: dict) -> str:
    return json.dumps(schema, indent=2, ensure_ascii=False) + "\n"


def published() -> dict[str, str]:
    """File name -> text of every schema that schemas/ holds: generic, and per shipped ruleset."""
    out = {GENERIC_FILE: schema_text(generic_schema())}
    for builtin in catalog.rulesets():
        compiled = load(builtin.id)
        if compiled.ruleset is not None:
            out[schema_file(builtin.id)] = schema_text(ruleset_schema(compiled.ruleset))
    return out


def write_schemas(directory: Path) -> list[Path]:
    directory.mkdir(parents=True, exist_ok=True)
    written = []
    for name, text in published().items():
        path = directory / name
        if not path.exists() or path.read_text(encoding="utf-8") != text:
            tmp = path.with_suffix(".tmp")
            tmp.write_text(text, encoding="utf-8")
            tmp.replace(path)
            written.append(path)
    return written


# ---- checking a file ----------------------------------------------------------------------------

def conforms(schema, value) -> bool:
    """True only when `value` is certainly valid under `schema` (Draft 7).

    A quick twin of jsonschema for the keywords the schemas above use, so that a valid file is
    accepted without importing jsonschema (about a third of the start-up of `warband validate`).
    Any keyword it does not know makes it answer False, and jsonschema then decides and words the
    errors; tests/test_schema.py checks the two agree on generated documents."""
    if schema is True or schema is False:
        return schema
    for keyword, arg in schema.items():
        check = _KEYWORDS.get(keyword)
        if check is None:
            if keyword in _ANNOTATIONS:
                continue
            return False
        if not check(arg, value, schema):
            return False
    return True


def _is_type(value, name: str) -> bool:
    if name == "integer":
        return (isinstance(value, int) and not isinstance(value, bool)) or (
            isinstance(value, float) and value.is_integer())
    if name == "number":
        return isinstance(value, (int, float)) and not isinstance(value, bool)
    return isinstance(value, {"string": str, "object": dict, "array": list, "boolean": bool,
                              "null": type(None)}.get(name, ()))


def _equal(a, b) -> bool:
    if a is None or b is None:
        return a is b
    if isinstance(a, bool) or isinstance(b, bool):
        return isinstance(a, bool) and isinstance(b, bool) and a == b
    if isinstance(a, (str, int, float)) and isinstance(b, (str, int, float)):
        return a == b
    return False  # lists and mappings in an enum: let jsonschema say


def _number(value) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _extras(value: dict, schema: dict) -> list:
    known, patterns = schema.get("properties", {}), schema.get("patternProperties", {})
    return [k for k in value if k not in known and not (
        isinstance(k, str) and any(re.search(p, k) for p in patterns))]


def _if_then(arg, value, schema) -> bool:
    branch = schema.get("then", True) if conforms(arg, value) else schema.get("else", True)
    return conforms(branch, value)


_ANNOTATIONS = frozenset({"$schema", "$id", "$comment", "title", "description", "default", "examples",
                          "then", "else"})
_KEYWORDS = {
    "type": lambda arg, v, s: any(_is_type(v, t) for t in (arg if isinstance(arg, list)
                                                            else [arg])),
    "enum": lambda arg, v, s: any(_equal(v, e) for e in arg),
    "const": lambda arg, v, s: _equal(v, arg),
    "minimum": lambda arg, v, s: not _number(v) or v >= arg,
    "maximum": lambda arg, v, s: not _number(v) or v <= arg,
    "minLength": lambda arg, v, s: not isinstance(v, str) or len(v) >= arg,
    "minItems": lambda arg, v, s: not isinstance(v, list) or len(v) >= arg,
    "maxItems": lambda arg, v, s: not isinstance(v, list) or len(v) <= arg,
    "required": lambda arg, v, s: not isinstance(v, dict) or all(k in v for k in arg),
    "properties": lambda arg, v, s: not isinstance(v, dict) or all(
        conforms(sub, v[k]) for k, sub in arg.items() if k in v),
    "patternProperties": lambda arg, v, s: not isinstance(v, dict) or all(
        conforms(sub, v[k]) for k in v for p, sub in arg.items()
        if isinstance(k, str) and re.search(p, k)),
    "additionalProperties": lambda arg, v, s: not isinstance(v, dict) or all(
        conforms(arg, v[k]) for k in _extras(v, s)),
    "items": lambda arg, v, s: not isinstance(v, list) or (
        isinstance(arg, (dict, bool)) and all(conforms(arg, x) for x in v)),
    "allOf": lambda arg, v, s: all(conforms(sub, v) for sub in arg),
    "anyOf": lambda arg, v, s: any(conforms(sub, v) for sub in arg),
    "pattern": lambda arg, v, s: not isinstance(v, str) or re.search(arg, v) is not None,
    "if": _if_then,
}


def validator_for(schema: dict):
    # lazily: jsonschema (a tenth of a second) only for a file that does not conform
    from jsonschema import Draft7Validator
    return Draft7Validator(schema)


@dataclass
class SchemaResult:
    """What the schema check found of a warband file."""

    diagnostics: list[Diagnostic] = field(default_factory=list)
    bad_fighters: set[int] = field(default_factory=set)   # entries with a problem
    bad_keys: set[str] = field(default_factory=set)       # top-level keys with a problem


_EXPECTED = {"integer": "a whole number", "number": "a number", "string": "text",
             "object": "a mapping of 'key: value' lines", "array": "a list",
             "boolean": "true or false", "null": "empty"}


def _shown(value) -> str:
    """An actual value, as a message names it."""
    if value is None:
        return "empty"
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, (int, float)):
        return f"the number {value}"
    if isinstance(value, str):
        text = value if len(value) <= 30 else value[:27] + "..."
        return f"text '{text}'"
    if isinstance(value, dict):
        return "a mapping"
    if isinstance(value, list):
        return "a list"
    return f"a {type(value).__name__}"


class _Checker:
    """Turns jsonschema errors into diagnostics; knows the ruleset's names for better words."""

    def __init__(self, data, filename: str, text: str | None, ruleset: Ruleset | None,
                 missing_ok: frozenset = frozenset()) -> None:
        self.data, self.file, self.text, self.ruleset = data, filename, text, ruleset
        self.missing_ok = missing_ok  # top-level keys the caller supplies otherwise
        self.result = SchemaResult()
        self.seen: set = set()
        self.suggested: set = set()   # (path, key) that an unknown key was probably meant as

    # -- places and names
    def span(self, path, *, key: bool = False, line: bool = False) -> Span | None:
        return span_at(self.data, tuple(path), self.file, self.text, key=key, line=line)

    def fighter(self, i: int) -> str:
        entries = self.data.get(FIGHTERS)
        entry = entries[i] if isinstance(entries, list) and i < len(entries) else None
        name = entry.get("name") if isinstance(entry, dict) else None
        return f"'{name}'" if isinstance(name, str) and name else f"{i + 1}"

    def stat(self, key) -> Stat | None:
        return self.ruleset.stat_by_key(key) if self.ruleset and isinstance(key, str) else None

    def add(self, code: str, message: str, path, span: Span | None, hint: str | None = None,
            what: str = "") -> None:
        path = tuple(path)
        if (code, path, what) in self.seen:
            return
        self.seen.add((code, path, what))
        if len(path) >= 2 and path[0] == FIGHTERS and isinstance(path[1], int):
            self.result.bad_fighters.add(path[1])
        elif path == (FIGHTERS,):
            self.result.bad_keys.add(FIGHTERS)
        elif path:
            self.result.bad_keys.add(str(path[0]))
        self.result.diagnostics.append(diag(code, message, span, hint=hint, path=path))

    # -- one error
    def error(self, error) -> None:
        from jsonschema.exceptions import best_match  # lazily, as in validator_for
        path = tuple(error.absolute_path)
        kind = error.validator
        if kind in ("anyOf", "oneOf") and error.context:
            return self.error(best_match(error.context))
        handler = getattr(self, f"on_{kind}", None)
        if handler is None or handler(error, path) is False:
            message = error.message[:1].lower() + error.message[1:]
            self.add("E622", message.rstrip("."), path, self.span(path))

    def on_additionalProperties(self, error, path) -> None:
        known = set(error.schema.get("properties", {}))
        pattern = next(iter(error.schema.get("patternProperties", {})), None)
        for key in error.instance:
            if key in known or (pattern and isinstance(key, str) and re.search(pattern, key)):
                continue
            self.unknown_key(path, key, sorted(known))

    def unknown_key(self, path, key, known: list[str]) -> None:
        where, name = self.span(path + (key,), key=True), str(key)
        rules = self.ruleset
        if len(path) == 3 and path[2] == "traits":
            traits = list(rules.traits) if rules else []
            return self.add("E625", f"unknown trait '{name}'", path + (key,), where,
                            did_you_mean(name, traits) or f"traits: {', '.join(traits)}")
        hint = did_you_mean(name, known)
        if hint:  # 'Skill: 3' is a misspelt 'skill', not a missing one as well
            meant = re.search(r"'(.*)'", hint)
            assert meant is not None  # did_you_mean quotes the name it suggests
            self.suggested.add((tuple(path), meant.group(1)))
        derived = self.stat(name)
        if len(path) == 2 and path[0] == FIGHTERS and derived is not None and \
                derived.always_derived:
            message, hint = derived_words(derived, self.fighter(path[1]))
            return self.add("E630", message, path + (key,), where, hint)
        if len(path) == 2 and path[0] == FIGHTERS:
            message = f"unknown key '{name}' in fighter {self.fighter(path[1])}"
            missing = {"class": "classes", "traits": "traits", "equipment": "equipment"}
            if rules and name in missing:
                message = f"unknown key '{name}': '{rules.id}' has no {missing[name]}"
            elif rules and hint is None and name in {t.lower() for t in rules.traits} | set(
                    rules.traits):
                trait = next(t for t in rules.traits if t.lower() == name.lower())
                hint = f"traits go in the fighter's traits list, e.g. 'traits: [{trait}]'"
            return self.add("E620", message, path + (key,), where,
                            hint or f"a fighter's keys: {', '.join(known)}")
        if path == () and rules and name == "points" and hint is None:
            return self.add("E620", f"unknown key 'points': '{rules.id}' counts no points",
                            path + (key,), where, "remove it: the ruleset has no cost rule")
        here = "a warband file's keys" if path == () else "the keys here"
        return self.add("E620", f"unknown key '{name}'", path + (key,), where,
                        hint or f"{here}: {', '.join(known)}")

    def on_required(self, error, path) -> None:
        for key in error.validator_value:
            if key in error.instance or (path, key) in self.suggested or (
                    path == () and key in self.missing_ok):
                continue
            if path == ():
                hints = {"name": "give the warband a name, e.g. 'name: Grey Company'",
                         "ruleset": "say which rules the warband uses, e.g. 'ruleset: ID' "
                                    "(warband rules list shows the built-in ones)",
                         FIGHTERS: "list the fighters under 'fighters:', one '- name: ...' "
                                   "entry each"}
                self.add("E621", f"missing key '{key}'", path, self.span(path, line=True),
                         hints.get(key), what=key)
            elif len(path) == 2 and path[0] == FIGHTERS:
                self.missing_in_fighter(path, key, error.instance)
            else:
                self.add("E621", f"missing key '{key}'", path, self.span(path), what=key)

    def missing_in_fighter(self, path, key: str, entry) -> None:
        where, who = self.span(path, line=True), self.fighter(path[1])
        stat = self.stat(key)
        if stat is not None:
            assert self.ruleset is not None  # stat() finds stats only in a ruleset
            cls = entry.get("class")
            values = (f"{stat.low}..{stat.high}" if stat.low is not None else
                      ", ".join(m for m, _ in self.ruleset.enums.get(stat.enum, ())) or "N")
            why = f"class {cls} sets no {stat.name}" if isinstance(cls, str) and cls else ""
            why += (" and " if why else "") + f"the ruleset gives {stat.name} no default"
            return self.add("E628", f"fighter {who} has no {key}", path, where,
                            f"add '{key}: ...' ({values}); {why}", what=key)
        if key == "name":
            return self.add("E621", f"fighter {path[1] + 1} has no name", path, where,
                            "add 'name: ...'; rosters and 'warband odds FILE#NAME' find "
                            "fighters by name", what=key)
        if key == "class" and self.ruleset:
            return self.add("E621", f"fighter {who} has no class", path, where,
                            f"add 'class: NAME', one of: {', '.join(self.ruleset.classes)}",
                            what=key)
        return self.add("E621", f"fighter {who} has no {key}", path, where, what=key)

    def subject(self, path) -> str:
        if len(path) == 2 and path[0] == FIGHTERS:
            return f"fighter {self.fighter(path[1])}"
        if len(path) == 4 and path[2] == "traits":
            return f"trait {path[3]}" if isinstance(path[3], str) else "a trait"
        if len(path) == 4 and path[2] == "equipment":
            return "an equipment entry"
        return str(path[-1]) if path else "the file"

    def on_type(self, error, path) -> None:
        wanted: list[str] = error.validator_value if isinstance(error.validator_value, list) else [
            error.validator_value]
        expected = " or ".join(_EXPECTED.get(w, w) for w in wanted)
        hint = None
        if set(wanted) == {"object", "array"} and path[-1:] == ("traits",):
            expected = "a list of trait names, or a mapping of trait to number"
            if isinstance(error.instance, str):
                hint = f"write it as a list: 'traits: [{error.instance}]'"
        elif len(path) == 2 and path[0] == FIGHTERS:
            expected = "a mapping of 'key: value' lines (name, class, stats)"
        if path == (FIGHTERS,) and isinstance(error.instance, dict):
            hint = "start each fighter with '- ', e.g. '  - name: Hunter'"
        if hint is not None:
            pass
        elif "integer" in wanted and isinstance(error.instance, str):
            if error.instance.strip().lstrip("+-").isdigit():
                hint = "remove the quotes around the number"
        elif "string" in wanted and error.instance is not None:
            hint = "put the text in quotes"
        elif error.instance is None:
            hint = "write a value after the ':', or remove the key"
        self.add("E622", f"{self.subject(path)} must be {expected}, not "
                 f"{_shown(error.instance)}", path, self.span(path), hint)

    def on_minimum(self, error, path) -> None:
        stat = self.stat(path[-1]) if len(path) == 3 and path[0] == FIGHTERS else None
        value = error.instance
        if stat is not None and stat.low is not None and stat.high is not None:
            return self.add("E623", f"{stat.key} {value} is outside {stat.low}..{stat.high}",
                            path, self.span(path))
        hint = ("remove the entry instead of giving it count 0" if path[-1:] == ("count",)
                else None)
        self.add("E623", f"{self.subject(path)} must be at least {error.validator_value}, not "
                 f"{value}", path, self.span(path), hint)

    def on_maximum(self, error, path) -> None:
        stat = self.stat(path[-1]) if len(path) == 3 and path[0] == FIGHTERS else None
        if stat is not None and stat.low is not None and stat.high is not None:
            return self.add("E623", f"{stat.key} {error.instance} is outside "
                            f"{stat.low}..{stat.high}", path, self.span(path))
        self.add("E623", f"{self.subject(path)} must be at most {error.validator_value}, not "
                 f"{error.instance}", path, self.span(path))

    def on_enum(self, error, path):  # noqa: C901 - one case per place an enum appears
        value, options = error.instance, [o for o in error.validator_value if o is not None]
        rules, where = self.ruleset, self.span(path)
        names = [str(o) for o in options]
        if rules is None:
            return False
        if path[-1:] == ("class",):
            return self.add("E624", f"unknown class {_quoted(value)}", path, where,
                            _suggest(value, list(rules.classes), "classes"))
        if len(path) == 4 and path[2] == "traits" and isinstance(path[3], int):
            trait = rules.traits.get(value) if isinstance(value, str) else None
            if trait is not None and trait.numeric:
                return self.add("E622", f"trait {value} needs a number", path, where,
                                f"write the traits as a mapping, e.g. 'traits: {{{value}: 1}}'")
            return self.add("E625", f"unknown trait {_quoted(value)}", path, where,
                            _suggest(value, list(rules.traits), "traits"))
        if len(path) == 4 and path[2] == "traits":
            return self.add("E622", f"trait {path[3]} carries no number, not {_shown(value)}",
                            path, where, f"write '{path[3]}: true', or list it by name: "
                            f"'traits: [{path[3]}]'")
        if len(path) == 4 and path[2] == "equipment":
            return self.add("E626", f"unknown equipment {_quoted(value)}", path, where,
                            _suggest(value, list(rules.equipment), "equipment"))
        stat = self.stat(path[-1]) if len(path) == 3 else None
        if stat is not None:
            return self.add("E627", f"{stat.key} must be one of {', '.join(names)}, not "
                            f"{_shown(value)}", path, where,
                            did_you_mean(str(value), names) if isinstance(value, str) else None)
        return False

    def on_minItems(self, error, path) -> None:
        what = "the warband has no fighters" if path == (FIGHTERS,) else f"{path[-1]} is empty"
        self.add("E622", what, path, self.span(path, key=True),
                 "list at least one fighter" if path == (FIGHTERS,) else None)

    def on_maxItems(self, error, path) -> bool | None:
        if path[-1:] == ("traits",) and self.ruleset:
            self.add("E622", "traits must be a mapping of trait to number, not a list",
                     path, self.span(path), f"every trait of '{self.ruleset.id}' carries "
                     "a number, e.g. 'traits: {Name: 1}'")
            return None
        return False

    def on_minLength(self, error, path) -> None:
        self.add("E622", f"{self.subject(path)} is empty", path, self.span(path),
                 "write a value, or remove the key")


def _quoted(value) -> str:
    return f"'{value}'" if isinstance(value, str) else _shown(value)


def _suggest(value, names: list[str], what: str) -> str | None:
    close = did_you_mean(value, names) if isinstance(value, str) else None
    return close or (f"{what}: {', '.join(names)}" if names else None)


def check(validator, data, filename: str, text: str | None, ruleset: Ruleset | None = None, *,
          missing_ok: frozenset = frozenset()) -> SchemaResult:
    """Every schema problem of one file, as diagnostics at their places; a top-level key in
    `missing_ok` may be absent (`ruleset`, when the command line names it)."""
    checker = _Checker(data, filename, text, ruleset, missing_ok)
    odd = list(_non_text_keys(data, ()))
    for path, key in odd:
        checker.add("E622", f"a key must be a name, not {_shown(key)}", path,
                    checker.span(path, key=True) or checker.span(path[:-1]),
                    hint="write the key as a word before the colon, e.g. 'name: Guard'")
    # jsonschema cannot look at a mapping with such keys: it checks the file without them, so
    # that every other problem is still reported (and no entry lacking a stat passes as usable)
    errors = sorted(validator.iter_errors(_text_keys_only(data) if odd else data),
                    # unknown keys first: see `suggested`
                    key=lambda e: e.validator != "additionalProperties")
    for error in errors:
        checker.error(error)
    return checker.result


def _text_keys_only(value):
    """A plain copy of loaded YAML without the mappings' keys that are not text."""
    if isinstance(value, dict):
        return {k: _text_keys_only(v) for k, v in value.items() if isinstance(k, str)}
    if isinstance(value, list):
        return [_text_keys_only(v) for v in value]
    return value


def _non_text_keys(value, path: tuple):
    """(path, key) of every mapping key that is not text (`: x`, `1: x`, `[a]: x` in YAML)."""
    if isinstance(value, dict):
        for k, v in value.items():
            if not isinstance(k, str):
                yield path + (k,), k
            else:
                yield from _non_text_keys(v, path + (k,))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from _non_text_keys(v, path + (i,))


# ---- regenerating the published schemas ---------------------------------------------------------

def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    directory = Path(args[0] if args else "schemas")
    for path in write_schemas(directory):
        print(f"wrote {path}")
    return 0


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
