"""The builder's rules for declarations of data and procedures: stats, enums, flags and counters, tiers,
traits, classes and their units' options, equipment and its profiles, tables, defines, outcomes,
procedures, phases and actions (lang/nodes_decl.py)."""

from __future__ import annotations

from lark import v_args

from warband.lang import nodes
from warband.lang.build_base import BuildBase

# the lines a class gives once (a second is E202), as the checker names them
_ONCE = {"group": "group (or single)", "models": "models", "model_wounds": "wounds per model",
         "coherency": "coherency", "casualties": "casualties"}


@v_args(meta=True)
class DeclBuilder(BuildBase):
    """Declarations, one method per grammar rule."""

    # ---- data declarations --------------------------------------------------------------------
    def stat_decl(self, meta, c):
        name, type_, default, doc = c
        return nodes.StatDecl(self.ident(name), self.typed(type_), default, doc, self.span(meta))

    def derived_stat_decl(self, meta, c):
        name, fighter, type_, default, doc, value, when = c
        return nodes.StatDecl(self.ident(name), self.typed(type_), default, doc, self.span(meta),
                              self.ident(fighter), value, when)

    def range_type(self, meta, c):
        return nodes.RangeType(c[0], c[1], self.span(meta))

    def named_type(self, meta, c):
        return self.ident(c[0])

    def enum_decl(self, meta, c):
        name, doc, *members = c
        return nodes.EnumDecl(self.ident(name), doc, tuple(members), self.span(meta))

    def enum_member(self, meta, c):
        return nodes.EnumMember(self.ident(c[0]), c[1], self.span(meta))

    def owner(self, meta, c):
        return str(c[0])

    def flag_decl(self, meta, c):
        name, owner, doc = c
        return nodes.StateDecl("flag", self.ident(name), owner, None, doc, self.span(meta))

    def counter_decl(self, meta, c):
        name, owner, initial, doc = c
        return nodes.StateDecl("counter", self.ident(name), owner, initial, doc, self.span(meta))

    def side_stat_decl(self, meta, c):
        """Campaigns: `stat NAME on side: LOW..HIGH`, a counter kept between games."""
        name, low, high, default, doc = c
        return nodes.StateDecl("counter", self.ident(name), "side", default, doc,
                               self.span(meta), nodes.RangeType(low, high, self.span(meta)))

    def tier_decl(self, meta, c):
        return nodes.TierDecl(self.ident(c[0]), c[1], self.span(meta))

    def trait_param(self, meta, c):
        return str(c[0])

    def combine(self, meta, c):
        return str(c[0])

    def trait_decl(self, meta, c):
        name, param, combine, doc = c
        return nodes.TraitDecl(self.ident(name), param, combine or "sum", doc, self.span(meta))

    def trait_ref(self, meta, c):
        return nodes.TraitRef(self.ident(c[0]), c[1], self.span(meta))

    def class_tier(self, meta, c):
        return "tier", self.ident(c[0])

    def class_traits(self, meta, c):
        return "traits", tuple(c)

    def class_equipment(self, meta, c):
        return "equipment", tuple(self.ident(t) for t in c)

    def class_stat(self, meta, c):
        return "stat", (self.ident(c[0]), c[1])

    def class_stat_range(self, meta, c):
        name, low, high, default, doc = c
        return "choice", nodes.StatChoice(self.ident(name), low, high, (), default, doc,
                                          self.span(meta))

    def class_stat_among(self, meta, c):
        name, *members, default, doc = c
        value = None if default is None else nodes.Name(str(default), self.tok_span(default))
        return "choice", nodes.StatChoice(self.ident(name), None, None,
                                          tuple(self.ident(m) for m in members), value, doc,
                                          self.span(meta))

    def class_group(self, meta, c):
        return "group", nodes.GroupSize(c[0], c[1], c[2], self.span(meta))

    def class_single(self, meta, c):
        span = self.span(meta)
        one = nodes.Int(1, span)
        return "group", nodes.GroupSize(one, one, c[0], span)

    def class_unique(self, meta, c):
        return "unique", self.span(meta)

    def option_take(self, meta, c):
        *items, doc = c
        return "option", nodes.EquipmentOption("take", tuple(self.ident(t) for t in items),
                                               None, None, doc, self.span(meta))

    def option_one_of(self, meta, c):
        *items, doc = c
        span = self.span(meta)
        return "option", nodes.EquipmentOption("up_to", tuple(self.ident(t) for t in items),
                                               nodes.Int(1, span), None, doc, span)

    def option_up_to(self, meta, c):
        limit, *items, doc = c
        return "option", nodes.EquipmentOption("up_to", tuple(self.ident(t) for t in items),
                                               limit, None, doc, self.span(meta))

    def option_swap(self, meta, c):
        replaced, *items, doc = c
        return "option", nodes.EquipmentOption("swap", tuple(self.ident(t) for t in items),
                                               None, self.ident(replaced), doc, self.span(meta))

    def class_decl(self, meta, c):
        name, doc, *entries = c
        tier, traits, equipment, stats = None, [], [], []
        group = unique = None
        options, choices, model_options = [], [], []
        units: dict = {}
        repeated: list = []
        first: dict = {}   # a line a class gives once: where it was first given
        for kind, value in entries:
            if kind in _ONCE:
                if kind in first:
                    repeated.append((_ONCE[kind], value.span, first[kind]))
                    continue
                first[kind] = value.span
            if kind == "option":
                options.append(value)
            elif kind == "model_option":
                model_options.append(value)
            elif kind == "choice":
                choices.append(value)
            elif kind == "tier":
                tier = value
            elif kind == "traits":
                traits.extend(value)
            elif kind == "equipment":
                equipment.extend(value)
            elif kind == "group":
                group = value
            elif kind == "unique":
                unique = value
            elif kind in ("models", "model_wounds", "coherency", "casualties"):   # units
                units[kind] = value
            else:
                stats.append(value)
        return nodes.ClassDecl(self.ident(name), doc, tier, tuple(traits), tuple(equipment),
                             tuple(stats), self.span(meta), group, unique, tuple(options),
                             tuple(choices), units.get("models"), units.get("model_wounds"),
                             tuple(repeated), tuple(model_options), units.get("coherency"),
                             units.get("casualties"))

    # one model of a unit with a different weapon: the option's limit counts models
    def one_model(self, meta, c):
        return None   # `one model may ...`: a limit of 1

    def model_option_take(self, meta, c):
        limit, *items, doc = c
        span = self.span(meta)
        return "model_option", nodes.EquipmentOption(
            "take", tuple(self.ident(t) for t in items),
            nodes.Int(1, span) if limit is None else limit, None, doc, span)

    def model_option_swap(self, meta, c):
        limit, replaced, *items, doc = c
        span = self.span(meta)
        return "model_option", nodes.EquipmentOption(
            "swap", tuple(self.ident(t) for t in items),
            nodes.Int(1, span) if limit is None else limit, self.ident(replaced), doc, span)

    # units of several models
    def class_models(self, meta, c):
        low, high, default, doc = c
        return "models", nodes.UnitModels(low, high, default, doc, self.span(meta))

    def class_model_wounds(self, meta, c):
        value, doc = c
        return "model_wounds", nodes.ModelWounds(value, doc, self.span(meta))

    # units of models with places
    def class_coherency(self, meta, c):
        value, doc = c
        return "coherency", nodes.Coherency(value, doc, self.span(meta))

    def casualty_order(self, meta, c):
        return str(c[0])

    def class_casualties(self, meta, c):
        order, doc = c
        return "casualties", nodes.Casualties(order, doc, self.span(meta))

    def wound_stmt(self, meta, c):
        return nodes.Wound(c[0], c[1], self.span(meta))

    def equipment_grants(self, meta, c):
        return tuple(c)

    def equipment_decl(self, meta, c):
        name, doc, *entries = c
        # (weapon profiles: values and traits come tagged; grants are a bare tuple of refs)
        grants = tuple(ref for entry in entries if entry and not isinstance(entry[0], str)
                       for ref in entry)
        values = tuple(value for kind, value in (e for e in entries if e and e[0] == "value"))
        traits = tuple(ref for entry in entries if entry and entry[0] == "traits"
                       for ref in entry[1])
        return nodes.EquipmentDecl(self.ident(name), doc, grants, self.span(meta), values,
                                   traits)

    # weapon profiles: `stat Range on equipment: ...`, and a piece's own values and traits
    def profile_decl(self, meta, c):
        name, type_, default, doc = c
        return nodes.ProfileDecl(self.ident(name), self.typed(type_), default, doc,
                                 self.span(meta))

    def equipment_value(self, meta, c):
        return "value", (self.ident(c[0]), c[1])

    def equipment_traits(self, meta, c):
        return "traits", tuple(c)

    # ---- tables and definitions ------------------------------------------------------------------
    def columns(self, meta, c):
        return tuple(self.ident(t) for t in c)

    def values(self, meta, c):
        return tuple(c)

    def cond_row(self, meta, c):
        return nodes.Row("when", c[0], None, c[1], c[2], self.span(meta))

    def default_row(self, meta, c):
        return nodes.Row("otherwise", None, None, c[0], c[1], self.span(meta))

    def key_row(self, meta, c):
        return nodes.Row("key", None, c[0], c[1], c[2], self.span(meta))

    def name_key(self, meta, c):
        return self.ident(c[0])

    def int_key(self, meta, c):
        return int(c[0])

    def range_key(self, meta, c):
        return int(c[0]), int(c[1])

    def table_decl(self, meta, c):
        name, params, columns, use, doc, *rows = c
        return nodes.TableDecl(self.ident(name), params, columns, doc, tuple(rows),
                             self.span(meta), use)

    def table_use(self, meta, c):
        return self.ident(c[0])

    def define_decl(self, meta, c):
        name, params, doc, body = c
        return nodes.DefineDecl(self.ident(name), params or (), doc, body, self.span(meta))

    def outcome_member(self, meta, c):
        return nodes.OutcomeMember(self.ident(c[0]), c[1], c[2], self.span(meta))

    def signed_int(self, meta, c):
        return int(c[0])

    def negative_int(self, meta, c):
        return -int(c[0])

    def outcomes_decl(self, meta, c):
        name, doc, *members = c
        return nodes.OutcomesDecl(self.ident(name), doc, tuple(members), self.span(meta))

    def params(self, meta, c):
        return tuple(c)

    def param(self, meta, c):
        return nodes.Param(self.ident(c[0]), c[1], c[2], self.span(meta))

    def type_ref(self, meta, c):
        return self.ident(c[0])

    # ---- procedures ---------------------------------------------------------------------------------
    def procedure_decl(self, meta, c):
        name, params, result, doc, body = c
        return nodes.ProcedureDecl("procedure", self.ident(name), params or (), result, doc, None,
                                 body, self.span(meta))

    def phase_decl(self, meta, c):
        name, params, result, doc, body = c
        return nodes.ProcedureDecl("phase", self.ident(name), params or (), result, doc, None,
                                 body, self.span(meta))

    def action_decl(self, meta, c):
        name, params, result, doc, requires, body = c
        return nodes.ProcedureDecl("action", self.ident(name), params or (), result, doc, requires,
                                 body, self.span(meta))
