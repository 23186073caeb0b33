"""Conversions between rulesets: resolving and checking a `conversion` declaration.

    conversion (f) from "A" to "B" { class ... when ...  stat ... = ...  trait ... => ... }

A conversion names two other rulesets, so it is checked in a stage of its own, after the rules
file that holds it has been parsed: both rulesets are compiled, every expression is checked with
the *source* ruleset's names (the fighter `f` is a fighter of A, and may be handed to A's own
definitions), and every class, stat, trait and equipment the conversion produces must be one of
the *target's*. The result is a `Conversion`, which `convert.py` applies to warband files.

Finding conversions: `--using FILE`, then the shipped ones in dsl/conversions/*.rules, matched by
the two ids in their `conversion ... from "A" to "B"` line without compiling anything else.
"""

from __future__ import annotations

import os
from collections.abc import Collection, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Callable, cast

from warband import catalog
from warband.diagnostics import Diagnostic, Related, Sources, Span, diag, did_you_mean
from warband.lang import nodes
from warband.lang.checker import Checker
from warband.lang.layers import layer
from warband.lang.parser import parse
from warband.lang.ruleset import Ruleset
from warband.lang.symbols import SymbolTable, collect
from warband.lang.typesystem import BOOL, FIGHTER, NUMBER, TEXT, Scope, Type, compatible
from warband.limits import MAX_RULES_BYTES

if TYPE_CHECKING:
    from warband.lang.compiler import Compiled

# How a conversion's rulesets are compiled: compiler.load, given by whoever checks a conversion
# (the compiler, for `rules check`, and `warband convert`), since compiling a ruleset may itself
# check the conversions it holds.
Loader = Callable[[str], "Compiled"]

# what is given at most once in a conversion: 'otherwise', 'fit', or (kind, name)
_Given = str | tuple[str, str | None]



@dataclass(frozen=True)
class Side:
    """One of the two rulesets a conversion joins, with the names its expressions may use."""

    ruleset: Ruleset
    table: SymbolTable       # for checking expressions against its names


@dataclass(frozen=True)
class Conversion:
    decl: nodes.ConversionDecl
    file: str
    source: Side
    target: Side

    @property
    def class_rules(self) -> tuple[nodes.ClassRule, ...]:
        return self.decl.classes


# ---- loading the two rulesets ------------------------------------------------------------------

def _side(ref: str, span: Span, base: Path, sources: Sources, load: Loader) -> Side | Diagnostic:
    shipped = catalog.rulesets()
    written = ref
    # a shipped id, or a rules file named relative to the conversion (never another file)
    found = catalog.resolve(ref, shipped + catalog.scenarios(), base,
                            suffixes=catalog.RULES_SUFFIXES)
    if found.refused is not None:
        return diag("E800", f"'{written}' is not a rules file a conversion may name", span,
                    hint=catalog.refusal_hint(found, "rules"))
    if catalog.looks_like_path(ref):
        ref = os.path.normpath(base / ref)  # a rules file next to the conversion
    if found.path is None:
        ids = [s.id for s in shipped]
        where = f" (relative to {base.as_posix()}/)" if ref != written else ""
        return diag("E800", f"unknown ruleset '{written}'{where}", span,
                    hint=did_you_mean(ref, ids) or f"built-in rulesets: {', '.join(ids)}; or "
                                                   "the path of a .rules file")
    compiled = load(ref)
    sources.texts.update(compiled.sources.texts)
    if compiled.ruleset is None:
        shown = compiled.errors[:3]
        return diag("E801", f"the rules in '{ref}' have errors", span,
                    related=[Related(d.span, d.message) for d in shown if d.span],
                    hint=f"run: warband rules check {ref}")
    # the file's own declarations, as compiling read them: the names its expressions may use
    return Side(compiled.ruleset, _table(compiled.ruleset.file,
                                         compiled.sources.texts[compiled.ruleset.file]))


# (file, text) -> its symbol table: the compiled ruleset is cached, and parsing its text again
# for every conversion checked took a third of a second each time (Super Simple Skirmish)
_TABLES: dict[tuple[str, str], SymbolTable] = {}


def _table(file: str, text: str) -> SymbolTable:
    table = _TABLES.get((file, text))
    if table is None:
        module, _ = parse(text, file)
        assert module is not None  # the file compiled, so it parses
        # house rules: the names of every layer, as compiling merged them (the house file
        # alone would not know its base's traits)
        module, _, _ = layer(module, Sources())
        table, _ = collect(module)
        if len(_TABLES) >= 16:   # a long-lived process (tests, a server) keeps a few only
            _TABLES.clear()
        _TABLES[(file, text)] = table
    return table


# ---- checking ------------------------------------------------------------------------------------

class _Check:
    """The checks of one conversion declaration; every problem is collected."""

    def __init__(self, decl: nodes.ConversionDecl, source: Side, target: Side) -> None:
        self.decl, self.source, self.target = decl, source, target
        self.diagnostics: list[Diagnostic] = []
        self.exprs = Checker(source.table)
        self.scope = Scope({decl.fighter.name: (FIGHTER, decl.fighter.span)})

    def error(self, code: str, message: str, span: Span, *, hint: str | None = None,
              related: Iterable[Related] = ()) -> None:
        self.diagnostics.append(diag(code, message, span, hint=hint, related=related))

    def expression(self, expr: nodes.Expr, expected: Type, what: str) -> None:
        t = self.exprs.value(expr, self.scope, expected)
        self.exprs.expect(expected, t, expr.span, what, expr)

    def twice(self, seen: dict[_Given, Span], key: _Given, span: Span, what: str) -> bool:
        if key in seen:
            self.error("E806", f"{what} is given twice", span,
                       related=[Related(seen[key], "first given here")],
                       hint="keep one of them")
            return True
        seen[key] = span
        return False

    def unknown(self, code: str, kind: str, ident: nodes.Ident, side: Side,
                names: Collection[str]) -> bool:
        if ident.name in names:
            return False
        which = "source" if side is self.source else "target"
        plural = {"class": "classes", "equipment": "equipment"}.get(kind, kind + "s")
        self.error(code, f"'{side.ruleset.id}' (the {which}) has no {kind} '{ident.name}'",
                   ident.span, hint=did_you_mean(ident.name, list(names))
                   or (f"its {plural}: {', '.join(names)}" if names else f"it has no {plural}"))
        return True

    def run(self) -> list[Diagnostic]:
        target = self.target.ruleset
        seen: dict[_Given, Span] = {}
        otherwise = None
        for class_rule in self.decl.classes:
            self.unknown("E802", "class", class_rule.target, self.target, target.classes)
            if class_rule.condition is None:
                self.twice(seen, "otherwise", class_rule.span, "the 'otherwise' class")
                otherwise = class_rule
            else:
                self.expression(class_rule.condition, BOOL, "a class rule's condition")
        if target.classes and not self.decl.classes:
            self.error("E808", f"the conversion gives no class, but '{target.id}' fighters have "
                               "one", self.decl.span,
                       hint=f"add class rules, ending with e.g. 'class "
                            f"{next(iter(target.classes))} otherwise'")
        elif target.classes and otherwise is None:
            self.error("E808", "the class rules have no 'otherwise': a fighter may match none",
                       self.decl.classes[-1].span,
                       hint=f"end them with e.g. 'class {self.decl.classes[-1].target.name} "
                            "otherwise'")
        given: set[str] = set()
        for rule in self.decl.stats:
            if self.unknown("E803", "stat", rule.target, self.target, target.stats):
                continue
            if self.twice(seen, ("stat", rule.target.name), rule.span,
                          f"stat '{rule.target.name}'"):
                continue
            given.add(rule.target.name)
            stat = target.stats[rule.target.name]
            if stat.always_derived:
                self.error("E308", f"the target's rules work {stat.name} out for every fighter, "
                                   "so a conversion cannot give it", rule.target.span,
                           hint="remove this rule; give what it is worked out from instead")
                continue
            if stat.enum is None:
                self.expression(rule.value, NUMBER, f"the value of {stat.name}")
                continue
            t = self.exprs.value(rule.value, self.scope, TEXT)
            if not compatible(TEXT, t):  # the target's names mean nothing in the source
                members = [m for m, _ in target.enums[stat.enum]]
                self.error("E302", f"the value of {stat.name} must be the name of one of its "
                                   f"values, in quotes, not {t}", rule.value.span,
                           hint="one of " + ", ".join(f'"{m}"' for m in members))
        fixed_by_every_class = {name for name in target.stats if target.classes and all(
            name in c.given for c in target.classes.values())}
        for stat in target.stats.values():
            if stat.default is None and stat.name not in given | fixed_by_every_class and \
                    stat.derived is None:
                self.error("E807", f"the conversion does not give {stat.name}, which every "
                                   f"'{target.id}' fighter needs", self.decl.span,
                           hint=f"add: stat {stat.name} = ...")
        for map_rule in self.decl.maps:
            self.map_rule(map_rule, seen)
        for warning in self.decl.warnings:
            if warning.condition is not None:
                self.expression(warning.condition, BOOL, "a warning's condition")
        for fitted, _ in self.decl.fits:
            if not self.twice(seen, "fit", fitted.span, "'fit'"):
                self.fit(fitted)
        self.diagnostics += self.exprs.diagnostics
        return self.diagnostics

    def map_rule(self, rule: nodes.MapRule, seen: dict[_Given, Span]) -> None:
        code = "E804" if rule.kind == "trait" else "E805"
        pool = "traits" if rule.kind == "trait" else "equipment"
        src, tgt = getattr(self.source.ruleset, pool), getattr(self.target.ruleset, pool)
        label = f"{rule.kind} '{rule.source.name}'" if rule.source else \
            f"'{rule.kind} otherwise drop'"
        if self.twice(seen, (rule.kind, rule.source.name if rule.source else None), rule.span,
                      label):
            return
        if rule.source is not None:
            self.unknown(code, rule.kind, rule.source, self.source, src)
        if rule.target is None:
            return
        assert rule.source is not None  # only 'otherwise drop' has none, and it drops
        ident = rule.target.name if isinstance(rule.target, nodes.TraitRef) else rule.target
        if self.unknown(code, rule.kind, ident, self.target, tgt):
            return
        if rule.kind != "trait":
            return
        numeric = tgt[ident.name].numeric
        value = cast(nodes.TraitRef, rule.target).value   # a trait maps to a trait's reference
        source_numeric = rule.source.name in src and src[rule.source.name].numeric
        if value is not None and not numeric:
            self.error("E809", f"'{ident.name}' takes no value in '{self.target.ruleset.id}'",
                       value.span, hint=f"write: trait {rule.source.name} => {ident.name}")
        elif value is None and numeric and not source_numeric and rule.source.name in src:
            self.error("E809", f"'{ident.name}' needs a value, and '{rule.source.name}' has none",
                       ident.span, hint=f"give one: => {ident.name}(1)")
        elif value is not None:
            self.expression(value, NUMBER, f"the value of {ident.name}")

    def fit(self, stat: nodes.Ident) -> None:
        target = self.target.ruleset
        if self.unknown("E803", "stat", stat, self.target, target.stats):
            return
        if target.stats[stat.name].enum is not None:
            self.error("E810", f"'fit' scales a number, and {stat.name} is one of a set of "
                               "values", stat.span)
        elif target.army is None or target.army.cost is None:
            self.error("E810", f"'{target.id}' has no points to fit: its army section gives no "
                               "cost", stat.span, hint="remove the 'fit' line")


def check(decl: nodes.ConversionDecl, file: str, sources: Sources,
          load: Loader) -> tuple[Conversion | None, list[Diagnostic]]:
    """Resolve both rulesets of a conversion and check it against them."""
    base = Path(file).parent
    found = [_side(decl.source, decl.source_span, base, sources, load),
             _side(decl.target, decl.target_span, base, sources, load)]
    problems = [d for d in found if isinstance(d, Diagnostic)]
    if problems:
        return None, problems
    source, target = [side for side in found if isinstance(side, Side)]
    diagnostics = _Check(decl, source, target).run()
    if any(d.is_error for d in diagnostics):
        return None, diagnostics
    return Conversion(decl, file, source, target), diagnostics


def check_module(module: nodes.Module, sources: Sources, load: Loader) -> list[Diagnostic]:
    """The diagnostics of every conversion in a rules file (for `warband rules check`); the
    texts of the rulesets it names go into `sources`, for the excerpts of their errors."""
    out: list[Diagnostic] = []
    for decl in module.decls:
        if isinstance(decl, nodes.ConversionDecl):
            out += check(decl, module.file, sources, load)[1]
    return out


# ---- finding a conversion ---------------------------------------------------------------------------

def candidates(using: list[str] | None = None) -> list[Path]:
    """Rules files that may hold conversions: those given, then the shipped ones."""
    return [Path(u) for u in using or ()] + catalog.conversion_files()


def available(using: list[str] | None = None) -> list[tuple[str, str, Path]]:
    """(source, target, file) of every conversion found, without compiling anything."""
    out = []
    for path in candidates(using):
        text = catalog.read_rules(path)
        if isinstance(text, catalog.Unreadable):   # reported by convert.find for --using files
            continue
        out += [(source, target, path) for source, target in catalog.conversions_of(text)]
    return out


def load_file(path: Path, source_id: str, target_id: str, sources: Sources,
              load: Loader) -> tuple[Conversion | None, list[Diagnostic]]:
    """The conversion from one ruleset to another declared in a rules file, checked."""
    name = catalog.display_path(path)
    text = unreadable_text(path, name)
    if isinstance(text, Diagnostic):
        return None, [text]
    sources.add(name, text)
    module, diagnostics = parse(text, name)
    if module is None or any(d.is_error for d in diagnostics):
        return None, diagnostics
    for decl in module.decls:
        if isinstance(decl, nodes.ConversionDecl) and decl.source == source_id and \
                decl.target == target_id:
            return check(decl, name, sources, load)
    return None, []


def unreadable_text(path: Path, name: str, hint: str | None = None) -> str | Diagnostic:
    """The text of a rules file that holds conversions, or the E100 that says why not."""
    text = catalog.read_rules(path)
    if not isinstance(text, catalog.Unreadable):
        return text
    if text.reason == "encoding":
        return diag("E100", f"{name} is not UTF-8 text", None, hint=hint or "save the file as UTF-8")
    if text.reason == "size":
        return diag("E403", f"{name} is larger than {MAX_RULES_BYTES:,} bytes", None, hint=hint)
    return diag("E100", f"cannot read {name}: {text.detail}", None)


__all__ = ["Conversion", "Loader", "Side", "check", "check_module", "available", "load_file",
           "unreadable_text"]
