"""House rules: a rules file that `extends` a base is layered on it before it is checked.

    house text -> parse -> resolve the base -> (layer the base on its own base, recursively)
               -> merge: additions appended, `override` replaces in place, `remove` takes out
               -> one Module whose declarations carry the spans of the file each came from

The merged module then goes through the ordinary passes (collect, check, assemble), so every
rule of the language holds across layers, and a diagnostic about a declaration points into the
file that declared it: a base declaration that uses a name the house file removed is reported
where the base uses it. What is layered on what is recorded for provenance (`rules show`).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import cast

from warband import catalog
from warband.diagnostics import Diagnostic, Related, Sources, Span, diag, did_you_mean
from warband.lang import nodes
from warband.lang.parser import parse
from warband.lang.symbols import declaration_kind
from warband.limits import MAX_LAYERS, MAX_RULES_BYTES

# What each kind of declaration is called after `override`/`remove` and in messages.
_ARTICLE = {"enum": "an enum", "equipment": "an equipment piece", "outcomes": "a set of outcomes",
            "action": "an action", "army": "an army section"}


def _a(kind: str) -> str:
    return _ARTICLE.get(kind, f"a {kind}")


def decl_kind(decl: nodes.Decl) -> str:
    if isinstance(decl, nodes.ArmyDecl):
        return "army"
    if isinstance(decl, nodes.ProfileDecl):   # weapon profiles: overridden and removed as a stat
        return "stat"
    try:
        return declaration_kind(decl)
    except TypeError:  # a kind of declaration layering does not know: added like any other
        return type(decl).__name__


def _name_span(decl: nodes.Decl) -> Span:
    name = getattr(decl, "name", None)
    return name.span if isinstance(name, nodes.Ident) else decl.span


def decl_name(decl: nodes.Decl) -> str:
    """The name a declaration is layered by; a declaration without a name (the army section)
    is one of a kind, named by its kind."""
    if isinstance(decl, nodes.ArmyDecl):
        return "army"
    name = getattr(decl, "name", None)
    return name.name if isinstance(name, nodes.Ident) else f"<{decl_kind(decl)}>"


@dataclass
class Layering:
    """What merging found out, beyond the merged module."""

    layers: list[tuple[str, str]] = field(default_factory=list)   # (ruleset id, file), base first
    overrides: dict[str, Span] = field(default_factory=dict)     # name -> the base's definition
    removed: dict[str, Span] = field(default_factory=dict)       # name -> the `remove` line
    failed: bool = False                                        # the base could not be had


def layer(module: nodes.Module, sources: Sources, chain: tuple[str, ...] = ()
          ) -> tuple[nodes.Module, list[Diagnostic], Layering]:
    """The module with its base (if any) merged in. A module without `extends` is returned
    as it is, but for `override`/`remove` declarations, which are reported and dropped."""
    info = Layering()
    diagnostics: list[Diagnostic] = []
    header = module.header
    own = (header.id if header else "", module.file)
    if header is None or header.extends is None:
        info.layers.append(own)
        return _standalone(module, diagnostics), diagnostics, info
    where = header.extends_span or header.span
    me = _identity(module.file)
    chain = chain or (me,)
    base_path, problem = _resolve_base(header.extends, module.file, where)
    if problem is not None:
        info.failed = True
        return _standalone(module, []), [problem], info
    assert base_path is not None  # without a problem, the base was found
    identity = _identity(str(base_path))
    if identity in chain:
        names = [Path(c).name for c in chain[chain.index(identity):]] + [Path(identity).name]
        info.failed = True
        return module, [diag("E438", "the rules extend themselves: " + " -> ".join(names), where,
                             hint="a chain of 'extends' must end in a ruleset that extends "
                                  "nothing")], info
    if len(chain) >= MAX_LAYERS:
        info.failed = True
        return module, [diag("E439", f"more than {MAX_LAYERS} layers of 'extends'", where,
                             hint="fold some of the layers into one file")], info
    name = catalog.display_path(base_path)
    text, problem = _read(base_path, name, where)
    if problem is not None:
        info.failed = True
        return module, [problem], info
    assert text is not None  # without a problem, the base was read
    sources.add(name, text)
    base_module, read = parse_base(text, name)
    diagnostics += read
    if base_module is None or base_module.header is None or any(d.is_error for d in read):
        info.failed = True
        if not read:
            diagnostics.append(diag("E105", "the file does not start with a ruleset header",
                                    Span(name, 1, 1)))
        return module, diagnostics, info
    base, found, info = layer(base_module, sources, chain + (identity,))
    diagnostics += found
    if info.failed:
        return module, diagnostics, info
    merged, found = _merge(base, module, info)
    diagnostics += found
    info.layers.append(own)
    return merged, diagnostics, info


@functools.lru_cache(maxsize=8)
def parse_base(text: str, file: str) -> tuple[nodes.Module | None, tuple[Diagnostic, ...]]:
    """A base's parse, kept for its text: the files a house file or a scenario extends are read
    again at each of its compiles, which the language server makes at every keystroke, and they
    rarely change (parsing swords-against-sorcery is 50 ms of a scenario's 60). Its nodes are
    frozen, and what is learnt of them is kept by id in each compile's own tables, so several
    compiles may share them."""
    module, found = parse(text, file)
    return module, tuple(found)


def _identity(file: str) -> str:
    try:
        return str(Path(file).resolve())
    except (OSError, RuntimeError):  # pragma: no cover - a name that is not a path
        return file


def _resolve_base(ref: str, file: str, where: Span) -> tuple[Path | None, Diagnostic | None]:
    """A built-in id, or a path relative to the folder of the file that extends it."""
    found = catalog.resolve(ref, catalog.rulesets(), Path(file).parent,
                            suffixes=catalog.RULES_SUFFIXES)
    if found.path is not None:
        return found.path, None
    if found.refused is not None:
        return None, diag("E435", f"'{ref}' is not a rules file this file may extend", where,
                          hint=catalog.refusal_hint(found, "rules"))
    if found.tried is not None:
        return None, diag("E435", f"no rules file '{ref}' to extend", where,
                          hint=f"looked for {catalog.display_path(found.tried)}; a path is read "
                               "relative to the file that extends it")
    return None, diag("E404", f"unknown ruleset '{ref}' after 'extends'", where,
                      hint=did_you_mean(ref, found.known)
                      or f"built-in rulesets: {', '.join(found.known)}")


def _read(path: Path, name: str, where: Span) -> tuple[str | None, Diagnostic | None]:
    text = catalog.read_rules(path)
    if not isinstance(text, catalog.Unreadable):
        return text, None
    if text.reason == "size":
        return None, diag("E403", f"{name} is larger than {MAX_RULES_BYTES:,} bytes", where)
    if text.reason == "encoding":
        return None, diag("E435", f"the base {name} is not UTF-8 text", where,
                          hint="save the file as UTF-8")
    return None, diag("E435", f"cannot read the base {name}: {text.detail}", where)


def _rewrap(original: nodes.Module, decls: Iterable[nodes.Decl]) -> nodes.Module:
    return nodes.Module(original.file, original.header, tuple(decls), original.partial,
                        original.unreadable)


def _standalone(module: nodes.Module, diagnostics: list[Diagnostic]) -> nodes.Module:
    """A file that extends nothing cannot override or remove: each such declaration is reported,
    and an override is kept as a plain declaration so that its uses are not unknown too."""
    decls: list[nodes.Decl] = []
    changed = False
    for decl in module.decls:
        if isinstance(decl, (nodes.OverrideDecl, nodes.RemoveDecl)):
            changed = True
            word = "override" if isinstance(decl, nodes.OverrideDecl) else "remove"
            diagnostics.append(diag(
                "E434", f"'{word}' needs a base ruleset, and this file extends none",
                decl.span, hint='name the base in the header: extends "ID-or-path"'))
            if isinstance(decl, nodes.OverrideDecl):
                decls.append(_plain(decl.decl))
            continue
        if isinstance(decl, nodes.ArmyDecl) and decl.removals:
            changed = True
            diagnostics.append(diag(
                "E437", "'remove' in an army section changes a base's army, and this file "
                        "extends none", decl.removals[0].span,
                hint="only 'override army' in a file that extends another can remove"))
            decl = replace(decl, removals=())
        decls.append(decl)
    return _rewrap(module, decls) if changed else module


def _plain(decl: nodes.Decl) -> nodes.Decl:
    if isinstance(decl, nodes.ArmyDecl):
        return replace(decl, removals=())
    return decl


def _merge(base: nodes.Module, house: nodes.Module, info: Layering
           ) -> tuple[nodes.Module, list[Diagnostic]]:
    d: list[Diagnostic] = []
    decls: list[nodes.Decl | None] = list(base.decls)   # None: removed
    base_names = {decl_name(x): x for x in base.decls}   # what the base has, before this file
    touched: dict[str, Span] = {}                  # names this file overrode or removed

    def index(name: str) -> int | None:
        for i, x in enumerate(decls):
            if x is not None and decl_name(x) == name:
                return i
        return None

    def suggest(name: str, kind: str) -> str | None:
        same = [n for n, x in base_names.items() if decl_kind(x) == kind]
        return did_you_mean(name, same) or did_you_mean(name, list(base_names))

    def twice(name: str, span: Span) -> bool:
        if name in touched:
            d.append(diag("E436", f"'{name}' is overridden or removed twice in this file", span,
                          related=[Related(touched[name], "the first time")],
                          hint="keep one 'override' (or 'remove') per name"))
            return True
        touched[name] = span
        return False

    def wrong_kind(kind: str, name: str, span: Span, verb: str) -> bool:
        previous = base_names[name]
        if decl_kind(previous) == kind:
            return False
        d.append(diag("E432", f"'{name}' in the base is {_a(decl_kind(previous))}, not "
                              f"{_a(kind)}", span,
                      related=[Related(getattr(previous, "name", previous).span,
                                       f"the base's {decl_kind(previous)}")],
                      hint=f"write: {verb} {decl_kind(previous)} {name}"))
        return True

    for decl in house.decls:
        if isinstance(decl, nodes.OverrideDecl):
            inner = decl.decl
            kind, name = decl_kind(inner), decl_name(inner)
            span = _name_span(inner)
            if name not in base_names:
                hint = suggest(name, kind)
                d.append(diag("E431", f"the base has no {kind} '{name}' to override"
                              if kind != "army" else "the base has no army section to override",
                              span, hint=hint or f"to add a new {kind}, leave out 'override'"))
                decls.append(_plain(inner))
                continue
            if twice(name, span) or wrong_kind(kind, name, span, "override"):
                continue
            i = index(name)
            if i is None:   # removed above in this same file, then overridden: report, then add
                decls.append(_plain(inner))
                continue
            previous = decls[i]
            assert previous is not None  # index() finds only what is still there
            info.overrides[name] = _name_span(previous)
            # wrong_kind() saw that both are of one kind: for "army", both are army sections
            decls[i] = _merge_army(cast(nodes.ArmyDecl, previous), cast(nodes.ArmyDecl, inner),
                                   d) if kind == "army" else inner
            if kind == "army":   # a removed named cost that a base rule still calls: say so
                house_army = cast(nodes.ArmyDecl, inner)
                given = {c.name.name for c in house_army.costs}
                for r in house_army.removals:
                    if r.part == "cost" and r.selector is not None and \
                            r.selector.name not in given:
                        info.removed[r.selector.name] = r.span
                        info.removed[f"total_{r.selector.name}"] = r.span
        elif isinstance(decl, nodes.RemoveDecl):
            kind = decl.kind
            name = decl.name.name if decl.name else "army"
            span = decl.name.span if decl.name else decl.span
            if name not in base_names:
                hint = suggest(name, kind)
                d.append(diag("E433", f"the base has no {kind} '{name}' to remove"
                              if kind != "army" else "the base has no army section to remove",
                              span, hint=hint))
                continue
            if twice(name, span) or wrong_kind(kind, name, span, "remove"):
                continue
            i = index(name)
            if i is not None:
                decls[i] = None
            info.removed[name] = decl.span
        else:
            kind, name = decl_kind(decl), decl_name(decl)
            i = index(name) if name in base_names else None
            if i is not None and name not in touched:
                previous = decls[i]
                assert previous is not None  # index() finds only what is still there
                where = _name_span(previous)
                span = _name_span(decl)
                what = "an army section" if kind == "army" else \
                    f"'{name}' ({_a(decl_kind(previous))})"
                hint = f"to replace it, write: override {kind}" + (
                    "" if kind == "army" else f" {name}")
                if decl_kind(previous) != kind:   # a different thing that happens to share it
                    hint = "names are shared by every kind of declaration; choose another name"
                d.append(diag("E430", f"the base already has {what}", span,
                              related=[Related(where, "the base defines it here")], hint=hint))
                continue
            if isinstance(decl, nodes.ArmyDecl) and decl.removals:
                d.append(diag("E437", "'remove' in an army section needs 'override army'",
                              decl.removals[0].span,
                              hint="write the section as: override army { ... }"))
                decl = replace(decl, removals=())
            decls.append(decl)
    return _rewrap(house, [x for x in decls if x is not None]), d


def _quota_key(q: nodes.Quota) -> tuple[str, str, str]:
    return q.selector_kind, q.selector.name, q.bound.kind


def _merge_army(base: nodes.ArmyDecl, house: nodes.ArmyDecl, d: list[Diagnostic]) -> nodes.ArmyDecl:
    """`override army`: each entry given replaces the base's of its kind (a quota, the base's
    quota on the same selector and bound), new quotas are added, and `remove` entries drop."""
    cost = house.cost if house.cost is not None else base.cost
    points = house.points if house.points is not None else base.points
    size = house.size if house.size is not None else base.size
    quotas = list(base.quotas)
    for q in house.quotas:
        same = [i for i, b in enumerate(quotas) if _quota_key(b) == _quota_key(q)]
        if same:
            quotas[same[0]] = q
        else:
            quotas.append(q)
    # a removal takes the base's entry away before the house's own are laid over the rest, so
    # `remove cost crowns` beside a new `cost crowns(f) = ...` keeps the new one
    costs = {c.name.name: c for c in base.costs}
    limits = {c.name.name: c for c in base.limits}
    each = list(base.each)
    for r in house.removals:
        if r.part == "each":   # `remove quota each class`: every base limit on each class
            kept_each = [q for q in each if q.selector_kind != r.selector_kind]
            if len(kept_each) == len(each):
                have = sorted({q.selector_kind for q in each})
                d.append(diag("E433", f"the base has no 'quota each {r.selector_kind}' to "
                                      "remove", r.span,
                              hint=f"its limits on each kind are on: {', '.join(have)}"
                              if have else "the base has no 'quota each'"))
            each = kept_each
            continue
        if r.part in ("cost", "limit") and r.selector is not None:   # a named cost, its limit
            named = costs if r.part == "cost" else limits
            if r.selector.name not in named:
                have = list(named)
                d.append(diag("E433", f"the base's army has no {r.part} '{r.selector.name}' to "
                                      "remove", r.selector.span,
                              hint=did_you_mean(r.selector.name, have) or
                              (f"its named {r.part}s: {', '.join(have)}" if have else
                               f"the base's army has no named {r.part}s")))
            named.pop(r.selector.name, None)
            if r.part == "cost":   # a limit of no cost limits nothing
                limits.pop(r.selector.name, None)
            continue
        if r.part == "quota":
            assert r.selector is not None  # a quota's removal names its selector
            kept = [q for q in quotas if (q.selector_kind, q.selector.name)
                    != (r.selector_kind, r.selector.name)]
            if len(kept) == len(quotas):
                have = [f"{q.selector_kind} {q.selector.name}" for q in quotas]
                d.append(diag("E433", f"the base has no quota on {r.selector_kind} "
                                      f"'{r.selector.name}' to remove", r.selector.span,
                              hint=did_you_mean(f"{r.selector_kind} {r.selector.name}", have)
                              or (f"its quotas are on: {', '.join(have)}" if have else
                                  "the base has no quotas")))
            quotas = kept
            continue
        present = {"cost": cost, "points": points, "size": size}[r.part]
        if present is None:
            d.append(diag("E433", f"the base's army has no {r.part} to remove", r.span))
        if r.part == "cost":
            cost = None
        elif r.part == "points":
            points = None
        else:
            size = None
    each = [q for q in each if all((q.selector_kind, q.bound.kind) !=
                                   (h.selector_kind, h.bound.kind) for h in house.each)]
    doc = house.doc if house.doc is not None else base.doc
    # the author's own rules have no name to replace one by: the house's are added to the base's
    return nodes.ArmyDecl(doc, cost, points, size, tuple(quotas), house.span,
                          each=tuple(each) + house.each, rules=base.rules + house.rules,
                          costs=_laid_over(costs, house.costs),
                          limits=_laid_over(limits, house.limits),
                          repeated=house.repeated,   # the house's own twice-given entries
                          # campaigns: the base's marks that the house did not replace
                          founding=tuple(m for m in base.founding if m[0] not in (
                              "points", "size") or getattr(house, m[0]) is None)
                          + house.founding)


def _laid_over(base: dict, house: tuple) -> tuple:
    """Named costs (or their limits): the base's the house does not give, then every one the
    house gives (one given twice stays twice, for the checker's E202)."""
    given = {c.name.name for c in house}
    return tuple(c for name, c in base.items() if name not in given) + house


def explain_removed(diagnostics: list[Diagnostic], removed: dict[str, Span]) -> list[Diagnostic]:
    """An unknown name that the house rules removed says so, with the `remove` line."""
    if not removed:
        return diagnostics
    out: list[Diagnostic] = []
    for x in diagnostics:
        if x.code in ("E201", "E307"):
            name = next((n for n in removed if f"'{n}'" in x.message), None)
            # a did-you-mean would only suggest another name; the other lines are kept
            also = re.search(r"the same on lines? [^)]*", x.hint or "")
            if name is not None:
                x = replace(x, related=x.related + (Related(removed[name],
                                                            f"'{name}' is removed here"),),
                            hint=f"'{name}' is still used here; remove this use too, or keep "
                                 f"'{name}'" + (f" ({also.group()})" if also else ""))
        out.append(x)
    return out
