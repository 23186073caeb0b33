"""The part of the checker that reads an army section: its cost, limits and quotas, and the
rules of the author's own (`require`, `every`, counts), which read names only army rules know.

Mixed into the Checker, as the expression, game and table halves are.
"""

from __future__ import annotations

import re

from warband.diagnostics import Related, did_you_mean
from warband.lang import nodes
from warband.lang.checker_parts import CheckerParts
from warband.lang.symbols import AGGREGATES, BUILTIN_FUNCTIONS, BUILTIN_GROUPS, KIND_WORDS, Symbol
from warband.lang.typesystem import (
    BOOL,
    ENTRIES,
    FIGHTER,
    FIGHTERS,
    NUMBER,
    Scope,
)

# W103: an army without a size limit is taken to have warbands of at most this many fighters;
# a quota's share 1/N of more is less than one fighter, most likely a limit per N points
LARGEST_WARBAND = 20

# what the names army rules read mean, where they are unknown: outside an army section
OUTSIDE_ARMY = {name: f"'{name}' is known only in the rules of an army section{what}"
                for name, what in (("fighters", " (require, every, at most ...), not in a "
                                                "cost, which is one fighter's; in play, every "
                                                "fighter is 'fighters'"),
                                   ("entries", ""), ("total_cost", ""),
                                   ("total_fighters", ""))}


# the names army rules read of their own: a named cost is a name there too (`crowns(f)`)
ARMY_NAMES = {"points": "the game's points", "fighters": "the warband's fighters",
              "entries": "the warband's entries", "total_cost": "what the warband costs",
              "total_fighters": "how many fighters the warband has"}


class ArmyChecker(CheckerParts):
    def army(self, decl: nodes.ArmyDecl) -> None:
        for entry, span, first in decl.repeated:
            advice = {"size": "to bound both ends, keep one size and write the other "
                            "as a rule: at least 5 f in fighters \"...\"",
                    "cost": "a second cost needs a name: cost NAME(f) = ..."}.get(
                entry, "keep one")
            self.error("E202", f"the army gives its {entry} twice", span,
                       related=[Related(first, "first given here")], hint=advice)
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
        callable_costs = self.named_costs(decl)
        # a named cost is called like a definition in the army's rules (crowns(f)), and only
        # there: its symbol stands in the table while they are checked
        added = [name for name in callable_costs if name not in self.table.globals]
        for name in added:
            definition = callable_costs[name]
            self.table.globals[name] = Symbol(name, "define", definition, definition.span)
        try:
            for rule in decl.rules:
                self.army_rule(rule, scope)
        finally:
            for name in added:
                del self.table.globals[name]
        self.unknown_hints = dict(OUTSIDE_ARMY)
        for name in callable_costs:
            self.unknown_hints[name] = f"'{name}' is a cost of the army section, known only " \
                                       f"in its rules"
            self.unknown_hints[f"total_{name}"] = f"'total_{name}' is known only in the rules " \
                                                  f"of an army section"

    def named_costs(self, decl: nodes.ArmyDecl) -> dict[str, nodes.DefineDecl]:
        """Each named cost's expression and each limit; the costs army rules may call."""
        found: dict[str, nodes.DefineDecl] = {}
        first: dict[str, nodes.NamedCost] = {}
        for cost in decl.costs:
            name = cost.name.name
            what = f"a fighter's cost in {name}"
            t = self.expr(cost.body, Scope({cost.param.name: (FIGHTER, cost.param.span)}))
            self.expect(NUMBER, t, cost.body.span, what)
            self.require_fixed(t, cost.body.span, what)
            if name in first:
                self.error("E202", f"the cost '{name}' is given twice", cost.name.span,
                           related=[Related(first[name].name.span, "first given here")],
                           hint="give each cost one rule")
                continue
            first[name] = cost
            taken = ARMY_NAMES.get(name) or ARMY_NAMES.get(f"total_{name}") or (
                "the points cost, cost(f)" if name == "cost" else None)
            if taken is not None:
                self.error("E202", f"'{name}' is already a name in army rules: {taken}",
                           cost.name.span, hint="name the cost otherwise, as in: "
                                                "cost crowns(f) = ...")
                continue
            if name in BUILTIN_FUNCTIONS or name in BUILTIN_GROUPS or name in AGGREGATES or \
                    re.fullmatch(r"d\d+", name):
                self.error("E202", f"'{name}' is a name of the language (a built-in or a die), "
                                   "so army rules could not call the cost", cost.name.span,
                           hint="name the cost otherwise, as in: cost crowns(f) = ...")
                continue
            sym = self.table.globals.get(name)
            if sym is not None:
                self.error("E202", f"'{name}' is already the name of {KIND_WORDS[sym.kind]}",
                           cost.name.span, related=[Related(sym.span, "first defined here")],
                           hint="army rules call a cost by its name, as in crowns(f): "
                                "name the cost otherwise")
                continue
            found[name] = nodes.cost_definition(cost)
        limited: dict[str, nodes.CostLimit] = {}
        scope = Scope({"points": (NUMBER, decl.span)} if decl.points is not None else {})
        for limit in decl.limits:
            name = limit.name.name
            self.fixed_number(limit.value, scope, f"the limit of {name}")
            if name in limited:
                self.error("E202", f"the limit of '{name}' is given twice", limit.name.span,
                           related=[Related(limited[name].name.span, "first given here")],
                           hint="give each cost one limit")
            elif name not in first:
                hint = "the points cost is limited by the army's 'points N'" \
                    if name in ("points", "cost") else did_you_mean(name, list(first))
                self.error("E201", f"'{name}' is not a cost of this army", limit.name.span,
                           hint=hint or (f"its named costs: {', '.join(first)}" if first else
                                         f"name the cost first: cost {name}(f) = ..."))
            limited[name] = limit
        return found

    def army_scope(self, decl: nodes.ArmyDecl) -> Scope:
        """What an army rule reads: the warband's fighters and entries, the game's points and
        the warband's totals (the points only where the army says how big a game is)."""
        names = {"fighters": FIGHTERS, "entries": ENTRIES, "total_fighters": NUMBER}
        if decl.cost is not None:
            names["total_cost"] = NUMBER
        if decl.points is not None:
            names["points"] = NUMBER
        for cost in decl.costs:
            names.setdefault(f"total_{cost.name.name}", NUMBER)
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
