"""`warband convert`: a warband file of one ruleset rewritten for another, by a declared conversion.

    validate the source -> find the conversion (A to B) -> check it -> each fighter: class, stats,
    traits, equipment, warnings -> fit the points limit -> write YAML -> validate the result

The output is the source file itself, changed in place through ruamel.yaml's round trip: values
are replaced, keys renamed where they stood (a comment on a replaced stat stays on its line),
and a comment above each fighter says what the conversion dropped or approximated, so the
converted file explains itself. Lines the conversion does not touch stay byte for byte. Every
expression runs in the *source* ruleset's interpreter, on the fighter as the source's rules see
it (its class, traits and equipment folded in), so a conversion may use the source's own
definitions (a level worked out from experience, say).
"""

from __future__ import annotations

import math
import os
import re
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import BinaryIO, cast

from ruamel.yaml.comments import CommentedMap, CommentedSeq

from warband import catalog
from warband.catalog import looks_like_path
from warband.diagnostics import Diagnostic, Related, Sources, Span, diag, did_you_mean
from warband.lang import nodes
from warband.lang.compiler import load
from warband.lang.conversion import Conversion, available, load_file, unreadable_text
from warband.lang.ruleset import Ruleset
from warband.lists import schema
from warband.lists.army import world_of
from warband.lists.convert_house import house_names, house_summary
from warband.lists.convert_units import converted_models
from warband.lists.fmt import dump_document, load_document
from warband.lists.validate import Validation
from warband.lists.warband_file import span_at
from warband.run.dice import Dist
from warband.run.evaluate import RulesError
from warband.run.interpreter import Interpreter
from warband.run.world import FighterSpec, Ref, make_world
from warband.run.world import combine as combined

OUTPUT_NAME = "<converted>"


@dataclass
class Converted:
    text: str | None                                  # the converted warband file
    diagnostics: list[Diagnostic] = field(default_factory=list)   # conversion and validation
    sources: Sources = field(default_factory=Sources)
    unusable: bool = False
    valid: bool = False                               # the result validates against the target


@dataclass
class _Fighter:
    """One converted entry, before it is written."""

    index: int                 # entry in the file
    name: str
    count: int
    fighter_class: str | None
    stats: dict[str, int | str]   # target stat name -> value (a number, or an enum member)
    traits: dict               # target trait -> value (True: bare)
    equipment: list[str]
    notes: list[str] = field(default_factory=list)   # comments for the file
    # a unit's models and special models, as the target class takes them (convert_units.py)
    models: int | None = None
    special: dict | None = None


class _Failed(Exception):
    def __init__(self, diagnostic: Diagnostic) -> None:
        super().__init__(diagnostic.message)
        self.diagnostic = diagnostic


# ---- finding the conversion ---------------------------------------------------------------------

def find(source: Ruleset | str, target_ref: str, using: list[str] | None, span: Span | None,
         sources: Sources) -> tuple[Conversion | None, list[Diagnostic]]:
    """The checked Conversion from the ruleset `source` to `target_ref`, or the diagnostics why
    not. A ruleset that `extends` another converts by its own conversions first, then by its
    base's (house rules over a base convert as the base does; `convert` reports the rest)."""
    problems = []
    for u in using or ():
        hint = "--using names a rules file that declares a conversion"
        if not os.path.isfile(u):   # not Path.is_file: it raises for a name too long
            problems.append(diag("E100", f"no such rules file: {u}", None, hint=hint))
            continue
        text = unreadable_text(Path(u), u, hint)   # e.g. a binary file given by mistake
        if isinstance(text, Diagnostic):
            problems.append(text)
    if problems:
        return None, problems
    source_id = source if isinstance(source, str) else source.id
    chain = [source_id] if isinstance(source, str) else \
        [source.id, *(layer for layer, _ in reversed(source.layers) if layer != source.id)]
    found = available(using)
    target_ids = {target_ref}
    if looks_like_path(target_ref):
        compiled = load(target_ref)
        if compiled.ruleset is not None:
            target_ids.add(compiled.ruleset.id)

    def same_target(tgt: str, path: Path) -> bool:
        if tgt in target_ids:
            return True
        return looks_like_path(tgt) and \
            (path.parent / tgt).resolve() == Path(target_ref).resolve()

    for wanted in chain:
        for src, tgt, path in found:
            if _names_ruleset(src, path, wanted) and same_target(tgt, path):
                conversion, diagnostics = load_file(path, src, tgt, sources, load)
                if conversion is not None or diagnostics:
                    return conversion, diagnostics
    targets = sorted({t for s, t, p in found for w in chain if _names_ruleset(s, p, w)})
    bases = f" (or its base{'s' if len(chain) > 2 else ''} {', '.join(chain[1:])})" \
        if len(chain) > 1 else ""
    hint = (did_you_mean(target_ref, targets) or
            (f"conversions from '{source_id}'{bases} go to: {', '.join(targets)}" if targets
             else f"no conversion from '{source_id}'{bases} is known; write one "
                  "(docs/language.md, 'Conversions') and give it with --using FILE"))
    return None, [diag("E813", f"no conversion from '{source_id}' to '{target_ref}'", span,
                       hint=hint)]


def _names_ruleset(written: str, path: Path, ruleset_id: str) -> bool:
    """Whether a conversion's source, as written in the file at `path`, is the ruleset
    `ruleset_id`: its id, or a rules file (relative to the conversion's file) that compiles to
    that ruleset. A path is never the id: the ruleset it holds is compared."""
    if written == ruleset_id:
        return True
    if not looks_like_path(written):
        return False
    found = catalog.resolve(written, [], path.parent, suffixes=catalog.RULES_SUFFIXES)
    if found.path is None or found.refused is not None:
        return False   # the conversion's own check says why, if it is ever used
    compiled = load(os.path.normpath(path.parent / written))
    return compiled.ruleset is not None and compiled.ruleset.id == ruleset_id


# ---- applying it ------------------------------------------------------------------------------------

class _Apply:
    def __init__(self, conversion, warband, data, file: str, text: str,
                 ruleset: Ruleset | None = None) -> None:
        self.conv, self.decl = conversion, conversion.decl
        self.target = conversion.target.ruleset
        # the warband's own ruleset: the conversion's source, or house rules over it, whose
        # definitions (and overrides) the conversion's expressions run with
        self.source = ruleset or conversion.source.ruleset
        self.base = conversion.source.ruleset
        self.house = house_names(self.source, self.base.id)
        self.warband, self.data, self.file, self.text = warband, data, file, text
        self.world = world_of(warband, self.source)
        self.interpreter = Interpreter(self.source)
        self.diagnostics: list[Diagnostic] = []

    def at(self, index: int) -> Span | None:
        return span_at(self.data, ("fighters", index), self.file, self.text, line=True)

    def warn(self, code: str, f, message: str, rule_span: Span | None, hint: str | None,
             note: _Fighter) -> None:
        related = [Related(rule_span, "the conversion's rule")] if rule_span else []
        self.diagnostics.append(diag(code, f"fighter '{f.name}': {message}", self.at(f.index),
                                     related=related, hint=hint, path=("fighters", f.index)))
        note.notes.append(message + (f" ({hint})" if hint else ""))

    def value(self, expr, position: int, f):
        try:
            v = self.interpreter.fn(expr)({self.decl.fighter.name: _ref(position)}, self.world)
        except RulesError as error:
            raise _Failed(diag("E812", f"fighter '{f.name}': {error.diagnostic.message}",
                               self.at(f.index), related=[Related(expr.span, "this rule")],
                               hint=error.diagnostic.hint)) from None
        if type(v) is Dist:
            if len(v) != 1:
                raise _Failed(diag("E812", f"fighter '{f.name}': the rule rolls dice, so it "
                                           "has no single value", self.at(f.index),
                                   related=[Related(expr.span, "this rule")],
                                   hint="a conversion's rules must not roll dice"))
            v = v.only()
        return v

    def fighter(self, position: int, f) -> _Fighter:
        out = _Fighter(f.index, f.name, f.count, None, {}, {}, [])
        for rule in self.decl.classes:
            if rule.condition is None or self.value(rule.condition, position, f) is True:
                out.fighter_class = rule.target.name
                break
        cls = self.target.classes.get(out.fighter_class) if out.fighter_class else None
        for rule in self.decl.stats:
            if cls is not None and cls.fixes(rule.target.name):
                continue   # the class's value: an entry may not give it (E631)
            out.stats[rule.target.name] = self.stat(rule, position, f, out)
        how = self.house.get(("classes", f.fighter_class or ""))
        if how is not None:
            whose = "as the house rules change it" if how == "changed" else \
                "the house rules' own"
            self.house_warning(f, out, f"class {f.fighter_class} ({whose}) became "
                                       f"{out.fighter_class or 'no class'}")
        self.house_stats(f, out)
        self.mapped(f, position, out, "trait", dict(f.traits))
        self.mapped(f, position, out, "equipment", {e: True for e in f.equipment})
        for rule in self.decl.warnings:
            if rule.condition is None or self.value(rule.condition, position, f) is True:
                self.warn("W802", f, rule.message, rule.span, None, out)
        out.models, out.special, notes = converted_models(
            self.source.classes.get(f.fighter_class or ""), cls, f.models, f.special)
        for note in notes:   # a unit's models kept in bounds (W803), or dropped (W801)
            self.warn("W803" if "kept inside" in note else "W801", f, note, None, None, out)
        return out

    def stat(self, rule: nodes.StatRule, position: int, f, out: _Fighter):
        stat = self.target.stats[rule.target.name]
        v = self.value(rule.value, position, f)
        if stat.enum is not None:
            members = [m for m, _ in self.target.enums[stat.enum]]
            if str(v) not in members:
                raise _Failed(diag("E812", f"fighter '{f.name}': {stat.name} '{v}' is not one "
                                           f"of {', '.join(members)}", self.at(f.index),
                                   related=[Related(rule.value.span, "this rule")],
                                   hint=did_you_mean(str(v), members)))
            cls = self.target.classes.get(out.fighter_class) if out.fighter_class else None
            choice = cls.choice(stat.name) if cls is not None else None
            if cls is not None and choice is not None and choice.members and \
                    str(v) not in choice.members:
                # the class allows some of the values only: its default, else its first
                kept = str(choice.default) if choice.default is not None else choice.members[0]
                self.warn("W803", f, f"{stat.name} {v} is not one of {choice.shown}, what class "
                                     f"{cls.name} allows; {kept} is used", rule.span, None, out)
                return kept
            return str(v)
        if isinstance(v, bool) or not isinstance(v, (int, Fraction)):
            raise _Failed(diag("E812", f"fighter '{f.name}': {stat.name} is not a number",
                               self.at(f.index), related=[Related(rule.value.span, "this rule")]))
        v = math.floor(v)  # a share of a point is no point: rounded down
        low, high = stat.low, stat.high
        cls = self.target.classes.get(out.fighter_class) if out.fighter_class else None
        choice = cls.choice(stat.name) if cls is not None else None
        if choice is not None and choice.low is not None and choice.high is not None:
            low, high = choice.low, choice.high   # the class's bounds, inside the stat's
        kept = min(max(v, low if low is not None else v), high if high is not None else v)
        if kept != v:
            self.warn("W803", f, f"{stat.name} {v} is outside {low}..{high}; {kept} is used",
                      rule.span, None, out)
        return kept

    def house_warning(self, f, out: _Fighter, what: str) -> None:
        message = f"{what}: a house rule of '{self.source.id}', which the conversion from " \
                  f"'{self.base.id}' does not cover"
        self.diagnostics.append(diag(
            "W805", f"fighter '{f.name}': {message}", self.at(f.index),
            hint=f"check it by hand, or write a conversion from '{self.source.id}' and give it "
                 "with --using FILE", path=("fighters", f.index)))
        out.notes.append(message)   # the file's comment: the hint is said once, at the top

    def house_stats(self, f, out: _Fighter) -> None:
        """A stat of the house rules' own that the file gives: the conversion never reads it."""
        own = [name for name in f.stats if ("stats", name) in self.house]
        if own:
            self.house_warning(f, out, f"stat {', '.join(own)} "
                                       f"{'is' if len(own) == 1 else 'are'} not converted")

    def mapped(self, f, position: int, out: _Fighter, kind: str, listed: dict) -> None:
        """The traits or equipment the file lists for the fighter, as the target names them."""
        rules = {r.source.name if r.source else None: r for r in self.decl.maps if r.kind == kind}
        names = self.target.traits if kind == "trait" else self.target.equipment
        dropped: dict = {}   # rule (None: no rule) -> names, so one message says them all
        pool = "traits" if kind == "trait" else "equipment"
        for name, value in listed.items():
            if name not in rules and (pool, name) in self.house:
                # the house rules' own, which no rule of the conversion names: an 'otherwise'
                # written for the base never meant it
                kept = name in names
                if kept:
                    _put(out, kind, name, value)
                self.house_warning(f, out, f"{kind} {name} is "
                                           f"{'kept as it is' if kept else 'dropped'}")
                continue
            rule = rules.get(name) or rules.get(None)
            if rule is None:
                if name in names:  # the same name in both rulesets: kept as it is
                    _put(out, kind, name, value)
                else:
                    dropped.setdefault(None, []).append(name)
                continue
            if rule.target is None:
                dropped.setdefault(rule, []).append(name)
                continue
            if kind == "equipment":
                _put(out, kind, rule.target.name, True)
                continue
            ref = rule.target
            trait = self.target.traits[ref.name.name]
            if ref.value is not None:
                new = math.floor(self.value(ref.value, position, f))
            else:
                new = value if trait.numeric else True
            _put(out, kind, ref.name.name, new, trait.combine)
            if rule.doc:
                self.warn("W802", f, f"trait {name} becomes {ref.name.name}", rule.span,
                          rule.doc, out)
        for rule, gone in dropped.items():
            verb = "is" if len(gone) == 1 else "are"
            what = f"{kind} {', '.join(gone)} {verb} dropped"
            if rule is None:
                self.warn("W801", f, f"{what}: '{self.target.id}' has no {kind} of "
                                     f"{'that name' if len(gone) == 1 else 'those names'}",
                          None, None, out)
            else:
                self.warn("W800", f, what, rule.span, rule.doc, out)

    def run(self) -> list[_Fighter]:
        army = self.target.army
        if "points" in self.data and (army is None or army.cost is None):
            self.diagnostics.append(diag(
                "W800", f"points is dropped: '{self.target.id}' counts no points",
                span_at(self.data, ("points",), self.file, self.text, key=True)))
            del self.data["points"]
        fighters = []
        for position, f in enumerate(self.warband.fighters):
            fighters.append(self.fighter(position, f))
        if self.decl.fits:
            self.fit(fighters, *self.decl.fits[0])
        return fighters

    # ---- fitting the points limit ----------------------------------------------------------------
    def cost(self, fighters: list[_Fighter], stat: str | None = None, factor=None):
        low = self.target.stats[stat].low if stat else None
        specs = []
        for f in fighters:
            stats = dict(f.stats)
            if stat is not None and stat in stats:
                stats[stat] = max(math.floor(stats[stat] * factor), low or 0)
            specs.append(FighterSpec(f.name, 0, f.fighter_class, stats, dict(f.traits),
                                     tuple(f.equipment), models=f.models, special=f.special))
        world = make_world(self.target, specs)
        param, expr = self.target.army.cost
        fn = Interpreter(self.target).fn(expr)
        total = 0
        for i, f in enumerate(fighters):
            v = fn({param: _ref(i)}, world)
            v = v.only() if type(v) is Dist else v
            # a cost that is not a number raises TypeError here, and fit() catches it
            total += v * f.count  # type: ignore[operator]
        return total

    def fit(self, fighters: list[_Fighter], stat: nodes.Ident, doc: str | None) -> None:
        points = self.data.get("points")
        limit = points if isinstance(points, int) and not isinstance(points, bool) else (
            self.target.army.points)
        if limit is None:
            return
        try:
            total = self.cost(fighters)
            if total <= limit:
                return
            lo, hi = Fraction(0), Fraction(1)   # the largest share of the stat that fits
            for _ in range(24):
                mid = (lo + hi) / 2
                if self.cost(fighters, stat.name, mid) <= limit:
                    lo = mid
                else:
                    hi = mid
        except (RulesError, TypeError, ArithmeticError):
            return  # the validator reports what the cost rule makes of the result
        floor = self.target.stats[stat.name].low or 0
        for f in fighters:
            if stat.name in f.stats:
                # a number: the conversion's checker refuses 'fit' on a stat of a set (E810)
                f.stats[stat.name] = max(math.floor(cast(int, f.stats[stat.name]) * lo), floor)
        percent = math.floor(lo * 100)
        after = self.cost(fighters)
        self.diagnostics.append(diag(
            "W804", f"the converted warband costs {total} points, more than {limit}: every "
                    f"{stat.name} is scaled to {percent}% (now {after} points)",
            Span(self.file, 1, 1), related=[Related(stat.span, "the conversion's 'fit'")],
            hint=doc))


def _ref(position: int):
    return Ref("fighter", position)


def _put(out: _Fighter, kind: str, name: str, value, combine: str = "sum") -> None:
    if kind == "equipment":
        if name not in out.equipment:
            out.equipment.append(name)
    elif name in out.traits:  # two source traits became one: they add up as the target says
        out.traits[name] = combined(combine, [out.traits[name], value])
    else:
        out.traits[name] = value


# ---- writing the converted file ---------------------------------------------------------------------

def _rename(mapping, old: str, new: str, value) -> None:
    """Put `new: value` where `old` stood, keeping the comments that followed `old`."""
    position = list(mapping.keys()).index(old)
    comment = mapping.ca.items.pop(old, None)
    del mapping[old]
    mapping.insert(position, new, value)
    if comment is not None:
        mapping.ca.items[new] = comment


def _place(mapping, key: str, value, after: tuple[str, ...]) -> None:
    if key in mapping:
        mapping[key] = value
        return
    keys = list(mapping.keys())
    position = max([keys.index(k) + 1 for k in after if k in mapping], default=0)
    mapping.insert(position, key, value)


def _write_entry(entry, f: _Fighter, source, target) -> None:
    if f.fighter_class is not None:
        _place(entry, "class", f.fighter_class, ("name", "count"))
    elif "class" in entry:
        del entry["class"]
    if f.models is None:   # a unit's models, or none
        entry.pop("models", None)
    else:
        _place(entry, "models", f.models, ("name", "count", "class"))
    if f.special is None:   # its special models, or none
        entry.pop("special", None)
    else:
        _place(entry, "special", CommentedMap(f.special), ("name", "count", "class", "models"))
    old_stats = [s.key for s in source.stats.values() if s.key in entry]
    new_stats = [(target.stats[n].key, v) for n, v in f.stats.items()]
    for key in old_stats:
        if key not in dict(new_stats):
            if new_stats and new_stats[0][0] not in entry:
                _rename(entry, key, new_stats[0][0], new_stats[0][1])
            else:
                del entry[key]
    for key, value in new_stats:
        _place(entry, key, value, ("name", "count", "class") + tuple(k for k, _ in new_stats))
    for key, new in (("traits", f.traits), ("equipment", f.equipment)):
        old = entry.get(key)
        if not new:
            if key in entry:
                del entry[key]
            continue
        shaped: CommentedMap | CommentedSeq
        if isinstance(new, dict):  # the traits (the equipment is a list)
            shaped = CommentedMap((n, None if v is True else v) for n, v in new.items())
            if isinstance(old, dict) and list(old.keys()) == list(shaped.keys()):
                for n in shaped:
                    old[n] = shaped[n]
                continue
        else:
            shaped = CommentedSeq(new)
            if isinstance(old, CommentedSeq):  # as the round trip loads every list
                shaped.fa.set_flow_style() if old.fa.flow_style() else None
                if list(old) == new:
                    continue
            else:
                shaped.fa.set_flow_style()
        _place(entry, key, shaped, ("name", "count", "class") + tuple(k for k, _ in new_stats))


def _comment_lines(text: str, fighters: list[_Fighter], source_id: str) -> str:
    """A comment above each converted fighter with what was dropped or approximated."""
    data = load_document(text)
    lines = text.splitlines(keepends=True)
    inserts: dict[int, list[str]] = {}
    entries: CommentedSeq = data.get("fighters") or CommentedSeq()
    for f in fighters:
        if not f.notes or f.index >= len(entries):
            continue
        line = entries.lc.item(f.index)[0]
        indent = " " * max(entries.lc.item(f.index)[1] - 2, 0)
        inserts[line] = [f"{indent}# converted from {source_id}: {note}\n" for note in f.notes]
    out = []
    for i, line in enumerate(lines):
        out += inserts.get(i, [])
        out.append(line)
    return "".join(out)


def _comment_ruleset(text: str, comment: str) -> str:
    """`comment` on a line of its own above the file's `ruleset:` line."""
    line = load_document(text).lc.key("ruleset")[0]
    lines = text.splitlines(keepends=True)
    return "".join(lines[:line] + [comment + "\n"] + lines[line:])


def _retarget_modeline(text: str, source_id: str, target_id: str, folder: Path) -> str:
    """The editor's modeline, if the file has one, naming the target ruleset's schema by a
    path that resolves from the converted file's folder (lists/schema.modeline); where there
    is none to find (a ruleset of the user's own), only the schema's name changes."""
    found = schema.modeline(target_id, folder)
    if found is not None:
        whole = re.compile(r"^#\s*yaml-language-server:\s*\$schema=\S*", re.MULTILINE)
        if whole.search(text):
            return whole.sub(lambda m: found, text, count=1)
    pattern = re.compile(rf"(^#\s*yaml-language-server:.*?)\b{re.escape(source_id)}"
                         rf"(\.warband\.schema\.json)", re.MULTILINE)
    return pattern.sub(lambda m: m.group(1) + target_id + m.group(2), text, count=1)


def _ruleset_ref(target_ref: str, output_name: str) -> str:
    """A built-in id as it is; a rules file relative to where the converted file goes (the
    folder of -o OUT, or the working directory for standard output)."""
    if not (target_ref.endswith(".rules") or "/" in target_ref or os.sep in target_ref):
        return target_ref
    folder = Path(output_name).parent if output_name != OUTPUT_NAME else Path(".")
    return Path(os.path.relpath(Path(target_ref).resolve(), folder.resolve())).as_posix()


# ---- the whole command ---------------------------------------------------------------------------

def convert(arg: str, target_ref: str, *, using: list[str] | None = None,
            output_name: str = OUTPUT_NAME, stdin: BinaryIO | None = None) -> Converted:
    """Convert the warband file `arg` ('-': standard input) to the ruleset `target_ref`."""
    validation = Validation(stdin=stdin)
    checked = validation.file(arg)
    result = Converted(None, list(checked.diagnostics), validation.sources)
    if checked.unusable or checked.errors or checked.ruleset is None:
        result.unusable = True
        if not checked.unusable and checked.ruleset is not None:
            result.diagnostics.append(diag(
                "E814", f"{checked.file} has errors; only a valid warband can be converted",
                None, hint=f"run: warband validate {arg}"))
        return result
    text = validation.sources.texts[checked.file]
    data = load_document(text)
    span = span_at(data, ("ruleset",), checked.file, text) if "ruleset" in data else None
    conversion, found = find(checked.ruleset, target_ref, using, span, result.sources)
    result.diagnostics = [d for d in result.diagnostics if not d.is_error] + found
    if conversion is None:
        result.unusable = True
        return result
    apply = _Apply(conversion, checked.warband, data, checked.file, text, checked.ruleset)
    base_id, own_id = conversion.source.ruleset.id, checked.ruleset.id
    house = house_summary(checked.ruleset, base_id)
    if house is not None:   # said once, at the ruleset line, and kept above it in the file
        result.diagnostics.append(diag(
            "W805", f"'{own_id}' is converted by the conversion from '{base_id}', its base; "
                    f"its house rules add what that conversion does not cover: {house}", span,
            hint="check the converted file by hand, or write a conversion from "
                 f"'{own_id}' and give it with --using FILE"))
    try:
        fighters = apply.run()
    except _Failed as failed:
        result.diagnostics += apply.diagnostics + [failed.diagnostic]
        result.unusable = True
        return result
    result.diagnostics += apply.diagnostics
    entries = data["fighters"]
    for f in fighters:
        _write_entry(entries[f.index], f, checked.ruleset, conversion.target.ruleset)
    data["ruleset"] = _ruleset_ref(target_ref, output_name)
    out = dump_document(data)
    out = _comment_lines(out, fighters, own_id)
    if house is not None:
        out = _comment_ruleset(out, f"# converted from {own_id} by the conversion from "
                                    f"{base_id}; not converted, the house rules' {house}")
    base = Path(output_name).parent if output_name != OUTPUT_NAME else Path(".")
    out = _retarget_modeline(out, own_id, conversion.target.ruleset.id, base)
    result.text = out
    after = Validation().text(out, output_name, base)
    result.sources.add(output_name, out)
    result.diagnostics += after.diagnostics
    result.valid = not after.failed()
    return result


__all__ = ["Converted", "convert", "find", "OUTPUT_NAME"]
