"""The part of the checker that reads an army section: its cost, limits and quotas, and the
rules of the author's own (`require`, `every`, counts), which read names only army rules know.

Mixed into the Checker, as the expression, game and table halves are.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from warband.lang import nodes
from warband.lang.typesystem import (
    BOOL,
    ENTRIES,
    FIGHTER,
    FIGHTERS,
    NUMBER,
    Scope,
    Type,
)

if TYPE_CHECKING:
    from warband.diagnostics import Related, Span
    from warband.lang.symbols import Symbol

# W103: an army without a size limit is taken to have warbands of at most this many fighters;
# a quota's share 1/N of more is less than one fighter, most likely a limit per N points
LARGEST_WARBAND = 20

# what the names army rules read mean, where they are unknown: outside an army section
OUTSIDE_ARMY = {name: f"'{name}' is known only in the rules of an army section{what}"
                for name, what in (("fighters", "; in play, a side's fighters are s.fighters"),
                                   ("entries", ""), ("total_cost", ""),
                                   ("total_fighters", ""))}


class ArmyChecker:
    if TYPE_CHECKING:  # what the Checker this is mixed into provides
        expr_types: dict[int, Type]
        unknown_hints: dict[str, str]

        def expr(self, e: nodes.Expr, scope: Scope) -> Type: ...
        def error(self, code: str, message: str, span: Span, *, hint: str | None = None,
                  related: Iterable[Related] = ()) -> None: ...
        def expect(self, expected: Type, actual: Type, span: Span, what: str,
                   node: nodes.Expr | None = None) -> None: ...
        def require_fixed(self, t: Type, span: Span, what: str) -> None: ...
        def fixed_number(self, value: nodes.Expr, scope: Scope, what: str) -> None: ...
        def lookup(self, name: str) -> Symbol | None: ...
        def unknown(self, ident: nodes.Ident | nodes.Name, kinds: tuple[str, ...],
                    extra: Iterable[str] = (), hint: str | None = None) -> None: ...
        def group_element(self, group: nodes.Expr, scope: Scope) -> Type: ...

    def army(self, decl: nodes.ArmyDecl) -> None:
        if decl.cost is not None:
            param, body = decl.cost
            t = self.expr(body, Scope({param.name: (FIGHTER, param.span)}))
            self.expect(NUMBER, t, body.span, "a fighter's cost")
            self.require_fixed(t, body.span, "a fighter's cost")
        bounds = [(decl.points, "the points limit")] if decl.points is not None else []
        if decl.size is not None:
            bounds.append((decl.size[0].value, "the number of fighters"))
        for q in list(decl.quotas) + list(decl.each):
            bounds.append((q.bound.value, "a quota's limit"))
            if q.bound.per is not None:
                bounds.append((q.bound.per, "the points a limit counts per"))
        for value, what in bounds:
            self.fixed_number(value, Scope({}), what)
        for quota in decl.quotas:
            sym = self.lookup(quota.selector.name)
            if sym is None or sym.kind != quota.selector_kind:
                hint = None
                if sym is not None and sym.kind in ("tier", "class", "trait", "equipment"):
                    hint = f"did you mean 'quota {sym.kind} {sym.name}'?"
                self.unknown(quota.selector, (quota.selector_kind,), hint=hint)
        self.unmeant_shares(decl)
        scope = self.army_scope(decl)
        self.unknown_hints = {}
        if decl.points is None:
            self.unknown_hints["points"] = "'points' is the size of the game, which this army " \
                                           "does not set; add one: points 500"
        if decl.cost is None:
            self.unknown_hints["total_cost"] = "'total_cost' is what the warband costs, and " \
                                               "this army gives no cost: cost(f) = ..."
        for rule in decl.rules:
            self.army_rule(rule, scope)
        self.unknown_hints = dict(OUTSIDE_ARMY)

    def army_scope(self, decl: nodes.ArmyDecl) -> Scope:
        """What an army rule reads: the warband's fighters and entries, the game's points and
        the warband's totals (the points only where the army says how big a game is)."""
        names = {"fighters": FIGHTERS, "entries": ENTRIES, "total_fighters": NUMBER}
        if decl.cost is not None:
            names["total_cost"] = NUMBER
        if decl.points is not None:
            names["points"] = NUMBER
        return Scope({name: (t, decl.span) for name, t in names.items()})

    def army_rule(self, rule: nodes.ArmyRule, scope: Scope) -> None:
        inner = scope
        if rule.var is not None and rule.group is not None:
            element = self.group_element(rule.group, scope)
            self.require_fixed(self.expr_types.get(id(rule.group), NUMBER), rule.group.span,
                               "the group a rule looks at")
            inner = Scope(dict(scope.locals))
            if rule.var.name in inner.locals:
                self.error("E202", f"'{rule.var.name}' is already a name here: the warband's "
                                   f"{rule.var.name}", rule.var.span,
                           hint="name each member otherwise, as in: every f in fighters: f.Skill >= 1")
            inner.locals[rule.var.name] = (element, rule.var.span)
        for part, what in ((rule.condition, "the condition after 'where'"),
                           (rule.test, "what a rule requires")):
            if part is not None:
                t = self.expr(part, inner)
                self.expect(BOOL, t, part.span, what)
                self.require_fixed(t, part.span, what)
        if rule.bound is not None:
            self.fixed_number(rule.bound.value, scope, "a rule's limit")
            if rule.bound.per is not None:
                self.fixed_number(rule.bound.per, Scope({}), "the points a limit counts per")

    def unmeant_shares(self, decl: nodes.ArmyDecl) -> None:
        """W103: a share of the fighters no warband can have a whole one of (`at most 1/150`
        of at most 16 fighters is none), most likely a limit per points written as a share."""
        largest = LARGEST_WARBAND
        if decl.size is not None and decl.size[0].kind in ("at most", "exactly") and \
                isinstance(decl.size[0].value, nodes.Int):
            largest = decl.size[0].value.value
        for q in list(decl.quotas) + list(decl.each):
            value = q.bound.value
            if isinstance(value, nodes.Binary) and value.op == "/" and \
                    isinstance(value.left, nodes.Int) and isinstance(value.right, nodes.Int) and \
                    value.right.value > largest and value.left.value < value.right.value:
                n, m = value.left.value, value.right.value
                self.error("W103", f"{n}/{m} of the fighters is less than one fighter in any "
                                   f"warband of up to {largest}", value.span,
                           hint=f"for a limit that grows with the game, write: "
                                f"{q.bound.kind} {n} per {m} points")
