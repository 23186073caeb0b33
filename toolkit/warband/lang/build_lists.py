"""The builder's rules for what lists are checked by and converted with: conversions, army
rules and house rules (lang/nodes_decl.py)."""

from __future__ import annotations

from lark import v_args

from warband.diagnostics import Span
from warband.lang import nodes
from warband.lang.build_base import BuildBase, unquote


@v_args(meta=True)
class ListsBuilder(BuildBase):
    """Conversions, army rules and house rules, one method per grammar rule."""

    # ---- conversions --------------------------------------------------------------------------------
    def convert_class(self, meta, c):
        return nodes.ClassRule(self.ident(c[0]), c[1], c[2], self.span(meta))

    def convert_class_default(self, meta, c):
        return nodes.ClassRule(self.ident(c[0]), None, c[1], self.span(meta))

    def convert_stat(self, meta, c):
        return nodes.StatRule(self.ident(c[0]), c[1], c[2], self.span(meta))

    def convert_trait(self, meta, c):
        return nodes.MapRule("trait", self.ident(c[0]), c[1], c[2], self.span(meta))

    def drop_trait(self, meta, c):
        return nodes.MapRule("trait", self.ident(c[0]), None, c[1], self.span(meta))

    def drop_other_traits(self, meta, c):
        return nodes.MapRule("trait", None, None, c[0], self.span(meta))

    def convert_equipment(self, meta, c):
        return nodes.MapRule("equipment", self.ident(c[0]), self.ident(c[1]), c[2], self.span(meta))

    def drop_equipment(self, meta, c):
        return nodes.MapRule("equipment", self.ident(c[0]), None, c[1], self.span(meta))

    def drop_other_equipment(self, meta, c):
        return nodes.MapRule("equipment", None, None, c[0], self.span(meta))

    def convert_warn(self, meta, c):
        return nodes.WarnRule(unquote(c[0]), c[1], self.span(meta))

    def convert_fit(self, meta, c):
        return "fit", (self.ident(c[0]), c[1])

    def conversion_decl(self, meta, c):
        fighter, source, target, doc, *entries = c
        parts: dict[type, list] = {nodes.ClassRule: [], nodes.StatRule: [], nodes.MapRule: [],
                                   nodes.WarnRule: []}
        fits = []
        for entry in entries:
            if isinstance(entry, tuple):
                fits.append(entry[1])
            else:
                parts[type(entry)].append(entry)
        return nodes.ConversionDecl(
            self.ident(fighter), unquote(source), unquote(target), self.tok_span(source),
            self.tok_span(target), doc, tuple(parts[nodes.ClassRule]), tuple(parts[nodes.StatRule]),
            tuple(parts[nodes.MapRule]), tuple(parts[nodes.WarnRule]), tuple(fits), self.span(meta))

    # ---- army ------------------------------------------------------------------------------------------
    def army_cost(self, meta, c):
        return "cost", (self.ident(c[0]), c[1], self.span(meta))

    def army_named_cost(self, meta, c):
        name, param, body, doc = c
        return "costs", nodes.NamedCost(self.ident(name), self.ident(param), body, doc,
                                        self.span(meta))

    def army_limit(self, meta, c):
        name, value, doc = c
        return "limits", nodes.CostLimit(self.ident(name), value, doc, self.span(meta))

    def army_points(self, meta, c):
        return "points", (c[0], self.span(meta))

    def army_size(self, meta, c):
        return "size", ((c[0], c[1]), self.span(meta))

    def army_quota(self, meta, c):
        (kind, name), bound, doc = c
        return "quota", nodes.Quota(kind, name, bound, doc, self.span(meta))

    def army_quota_each(self, meta, c):
        kind, bound, doc = c
        return "each", nodes.EachQuota(kind, bound, doc, self.span(meta))

    def army_require(self, meta, c):
        return "rule", nodes.ArmyRule("require", None, None, None, c[0], None, c[1],
                                      self.span(meta))

    def army_every(self, meta, c):
        var, group, condition, test, doc = c
        return "rule", nodes.ArmyRule("every", self.ident(var), group, condition, test, None,
                                      doc, self.span(meta))

    def army_count(self, meta, c):
        bound, var, group, condition, doc = c
        return "rule", nodes.ArmyRule("count", self.ident(var), group, condition, None, bound,
                                      doc, self.span(meta))

    def selector(self, meta, c):
        return c[0], self.ident(c[1])

    def selector_kind(self, meta, c):
        return str(c[0])

    def bound_kind(self, meta, c):
        return " ".join(str(t) for t in c)

    def bound(self, meta, c):
        return nodes.Bound(c[0], c[1], self.span(meta), c[2])

    def army_decl(self, meta, c):
        doc, *entries = c
        fields: dict = {"cost": None, "points": None, "size": None}
        first: dict[str, Span] = {}
        repeated = []    # a second cost, points or size: the checker's E202, never a silent pick
        lists: dict[str, list] = {"quota": [], "remove": [], "each": [], "rule": [],
                                  "costs": [], "limits": []}
        founding = []   # campaigns: the entries held only at a warband's founding
        for kind, value in entries:
            if kind == "founding":
                kind, value = value
                founding.append((kind, value.span if type(value) in nodes.NODE_CLASSES
                                 else value[-1]))
            if kind in lists:
                lists[kind].append(value)
            elif kind in first:
                repeated.append((kind, value[-1], first[kind]))
            else:
                first[kind] = value[-1]
                fields[kind] = value[0] if kind != "cost" else value[:2]
        return nodes.ArmyDecl(doc, quotas=tuple(lists["quota"]), span=self.span(meta),
                              removals=tuple(lists["remove"]), each=tuple(lists["each"]),
                              rules=tuple(lists["rule"]), costs=tuple(lists["costs"]),
                              limits=tuple(lists["limits"]), repeated=tuple(repeated),
                              founding=tuple(founding), **fields)

    def army_founding(self, meta, c):
        """`founding ENTRY`: the entry, marked (army_decl keeps its span)."""
        return "founding", c[0]

    # ---- house rules ------------------------------------------------------------------------------
    def override_decl(self, meta, c):
        return nodes.OverrideDecl(c[0], self.span(meta))

    def remove_kind(self, meta, c):
        return str(c[0])

    def remove_decl(self, meta, c):
        return nodes.RemoveDecl(c[0], self.ident(c[1]), self.span(meta))

    def remove_army(self, meta, c):
        return nodes.RemoveDecl("army", None, self.span(meta))

    def remove_cost(self, meta, c):
        return "remove", nodes.ArmyRemoval("cost", None, None, self.span(meta))

    def remove_named_cost(self, meta, c):
        return "remove", nodes.ArmyRemoval("cost", None, self.ident(c[0]), self.span(meta))

    def remove_limit(self, meta, c):
        return "remove", nodes.ArmyRemoval("limit", None, self.ident(c[0]), self.span(meta))

    def remove_points(self, meta, c):
        return "remove", nodes.ArmyRemoval("points", None, None, self.span(meta))

    def remove_size(self, meta, c):
        return "remove", nodes.ArmyRemoval("size", None, None, self.span(meta))

    def remove_quota(self, meta, c):
        kind, name = c[0]
        return "remove", nodes.ArmyRemoval("quota", kind, name, self.span(meta))

    def remove_quota_each(self, meta, c):
        return "remove", nodes.ArmyRemoval("each", c[0], None, self.span(meta))
