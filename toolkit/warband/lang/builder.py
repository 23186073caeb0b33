"""Parse tree -> AST: one method per grammar rule, each returning a frozen node with its span."""

from __future__ import annotations

import ast as pyast
import dataclasses
from typing import cast

from lark import Token, Transformer, Tree, v_args

from warband.diagnostics import Span
from warband.lang import nodes


def _unquote(token: str) -> str:
    if token.startswith('"""'):
        return token[3:-3]
    try:
        return pyast.literal_eval(token)
    except (ValueError, SyntaxError):  # an escape Python does not know: keep the text as written
        return token[1:-1]


# the lines a class gives once (a second is E202), as the checker names them
_ONCE = {"group": "group (or single)", "models": "models", "model_wounds": "wounds per model"}


@v_args(meta=True)
class Builder(Transformer):
    """Turns one file's parse tree into an nodes.Module."""

    def __init__(self, file: str) -> None:
        super().__init__()
        self.file = file

    # ---- positions ------------------------------------------------------------------------
    def span(self, meta) -> Span:
        if getattr(meta, "empty", True):
            return Span(self.file, 1, 1)
        return Span(self.file, meta.line, meta.column, meta.end_line, meta.end_column)

    def tok_span(self, tok: Token) -> Span:
        # the lexer gives every token its position; lark's types leave them optional
        line, column = cast(int, tok.line), cast(int, tok.column)
        return Span(self.file, line, column, tok.end_line or line,
                    tok.end_column or column + len(tok))

    def ident(self, tok: Token) -> nodes.Ident:
        return nodes.Ident(str(tok), self.tok_span(tok))

    # ---- module ---------------------------------------------------------------------------
    def start(self, meta, children):
        header, *decls = children
        return header, tuple(decls)

    def items(self, meta, children):
        return None, tuple(children)

    def header(self, meta, children):
        fields = {"title": None, "source": None, "version": None, "extends": None}
        for kind, value in children[1:]:
            fields[kind] = value
        extends_span = None
        if fields["extends"] is not None:
            fields["extends"], extends_span = fields["extends"]
        return nodes.Header(_unquote(children[0]), span=self.span(meta),
                          extends_span=extends_span, **fields)

    def title(self, meta, c):
        return "title", _unquote(c[0])

    def source(self, meta, c):
        return "source", _unquote(c[0])

    def version(self, meta, c):
        return "version", _unquote(c[0])

    def extends(self, meta, c):
        return "extends", (_unquote(c[0]), self.span(meta))

    def doc(self, meta, c):
        return _unquote(c[0])

    # ---- data declarations --------------------------------------------------------------------
    def stat_decl(self, meta, c):
        name, type_, default, doc = c
        if isinstance(type_, Token):
            type_ = self.ident(type_)
        return nodes.StatDecl(self.ident(name), type_, default, doc, self.span(meta))

    def derived_stat_decl(self, meta, c):
        name, fighter, type_, default, doc, value, when = c
        if isinstance(type_, Token):
            type_ = self.ident(type_)
        return nodes.StatDecl(self.ident(name), type_, default, doc, self.span(meta),
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
            if kind in ("group", "models", "model_wounds"):
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
            elif kind in ("models", "model_wounds"):   # units of several models
                units[kind] = value
            else:
                stats.append(value)
        return nodes.ClassDecl(self.ident(name), doc, tier, tuple(traits), tuple(equipment),
                             tuple(stats), self.span(meta), group, unique, tuple(options),
                             tuple(choices), units.get("models"), units.get("model_wounds"),
                             tuple(repeated), tuple(model_options))

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
        if isinstance(type_, Token):
            type_ = self.ident(type_)
        return nodes.ProfileDecl(self.ident(name), type_, default, doc, self.span(meta))

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

    def block(self, meta, c):
        # (`[bare_return]` gives None when the block has none)
        return nodes.Block(tuple(s for s in c if s is not None), self.span(meta))

    def bare_return(self, meta, c):
        return nodes.Return(None, self.span(meta))

    def let_stmt(self, meta, c):
        return nodes.Let(self.ident(c[0]), c[1], self.span(meta))

    def set_stmt(self, meta, c):
        return nodes.Set(c[0], str(c[1]), c[2], self.span(meta))

    def lvalue(self, meta, c):
        return tuple(self.ident(t) for t in c)

    def if_stmt(self, meta, c):
        return nodes.If(c[0], c[1], c[2], self.span(meta))

    def choose_stmt(self, meta, c):
        name, decider, doc, *options = c
        return nodes.Choose(self.ident(name), decider, doc, tuple(options), self.span(meta))

    def choose_number_stmt(self, meta, c):
        name, decider, low, high, default, doc = c
        return nodes.ChooseNumber(self.ident(name), decider, low, high, default, doc,
                                self.span(meta))

    def aggregate(self, meta, c):
        kind, value, var, group, condition = c
        return nodes.Aggregate(self.ident(kind), value, self.ident(var), group, condition,
                             self.span(meta))

    def option(self, meta, c):
        return nodes.Option(self.ident(c[0]), c[1], c[2], c[3], self.span(meta))

    def return_stmt(self, meta, c):
        return nodes.Return(c[0], self.span(meta))

    def remove_stmt(self, meta, c):
        return nodes.Remove(c[0], self.span(meta))

    def for_stmt(self, meta, c):
        return nodes.ForEach(self.ident(c[0]), c[1], c[2], self.span(meta))

    def repeat_stmt(self, meta, c):
        return nodes.Repeat(c[0], c[1], self.span(meta))

    def call_stmt(self, meta, c):
        call = nodes.Call(self.ident(c[0]), c[1] or (), self.span(meta))
        return nodes.CallStmt(call, self.span(meta))

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
        return nodes.WarnRule(_unquote(c[0]), c[1], self.span(meta))

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
            self.ident(fighter), _unquote(source), _unquote(target), self.tok_span(source),
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
        for kind, value in entries:
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
                              limits=tuple(lists["limits"]), repeated=tuple(repeated), **fields)

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

    # ---- expressions -----------------------------------------------------------------------------------
    def if_expr(self, meta, c):
        return nodes.IfExpr(c[0], c[1], c[2], self.span(meta))

    def or_(self, meta, c):
        return nodes.Logic("or", tuple(c), self.span(meta))

    def and_(self, meta, c):
        return nodes.Logic("and", tuple(c), self.span(meta))

    def not_(self, meta, c):
        return nodes.Not(c[0], self.span(meta))

    def compare(self, meta, c):
        return nodes.Compare(str(c[1]), c[0], c[2], self.span(meta))

    def has(self, meta, c):
        return nodes.Has(c[0], self.ident(c[1]), self.span(meta))

    def is_(self, meta, c):
        return nodes.Is(c[0], self.ident(c[1]), self.span(meta))

    def binary(self, meta, c):
        return nodes.Binary(str(c[1]), c[0], c[2], self.span(meta))

    def neg(self, meta, c):
        return nodes.Neg(c[0], self.span(meta))

    def field(self, meta, c):
        return nodes.Field(c[0], self.ident(c[1]), self.span(meta))

    def call(self, meta, c):
        return nodes.Call(self.ident(c[0]), c[1] or (), self.span(meta))

    def args(self, meta, c):
        return tuple(c)

    def int_lit(self, meta, c):
        return nodes.Int(int(c[0]), self.span(meta))

    def str_lit(self, meta, c):
        return nodes.Str(_unquote(c[0]), self.span(meta))

    def true_lit(self, meta, c):
        return nodes.Bool(True, self.span(meta))

    def false_lit(self, meta, c):
        return nodes.Bool(False, self.span(meta))

    def name(self, meta, c):
        return nodes.Name(str(c[0]), self.span(meta))

    def fighters_name(self, meta, c):
        # the word is a keyword (`fighters within D of F`); alone it is a name like any other,
        # known in army rules (the warband's fighters)
        return nodes.Name("fighters", self.span(meta))

    def count(self, meta, c):
        return nodes.Count(c[0], c[1], self.span(meta))

    def within(self, meta, c):
        return nodes.Within(c[0], nodes.Name(str(c[1]), self.tok_span(c[1])), self.span(meta))

    # areas and templates: `fighters under AREA`, `f is under AREA`
    def fighters_in(self, meta, c):
        return nodes.Under(None, c[0], self.span(meta))

    def in_area(self, meta, c):
        return nodes.Under(c[0], c[1], self.span(meta))

    def _dice(self, meta, count, token: Token, mods):
        text = str(token)
        n, _, sides = text.partition("d")
        if count is None:
            count = nodes.Int(int(n) if n else 1, self.tok_span(token))
        return nodes.Dice(count, int(sides), tuple(mods), self.span(meta), count_in_token=bool(n))

    def dice_lit(self, meta, c):
        return self._dice(meta, None, c[0], c[1:])

    def dice_dyn(self, meta, c):
        return self._dice(meta, c[0], c[1], c[2:])

    # dice pools: `pool (n)d6`, the dice kept whole
    def pool_roll(self, meta, c):
        return dataclasses.replace(c[1], pool=True, span=self.span(meta))

    def keep_drop(self, meta, c):
        return str(c[0])

    def high_low(self, meta, c):
        return str(c[0])

    def keep_mod(self, meta, c):
        return nodes.KeepMod(c[0] == "keep", c[1] == "highest", int(c[2]), self.span(meta))

    def reroll_mod(self, meta, c):
        return nodes.RerollMod(c[0], self.span(meta))

    def pred_even(self, meta, c):
        return nodes.PredEven(self.span(meta))

    def pred_odd(self, meta, c):
        return nodes.PredOdd(self.span(meta))

    def pred_compare(self, meta, c):
        return nodes.PredCompare(str(c[0]), c[1], self.span(meta))

    def pred_set(self, meta, c):
        return nodes.PredSet(tuple(int(t) for t in c), self.span(meta))

    # ---- play on a board --------------------------------------------------------------------------
    def for_sorted_stmt(self, meta, c):
        var, items, high_low, key, *more, body = c
        then = tuple((str(more[i]) == "highest", more[i + 1]) for i in range(0, len(more), 2))
        return nodes.ForSorted(self.ident(var), items, high_low == "highest", key, body,
                             self.span(meta), then)

    def choose_among_stmt(self, meta, c):
        name, decider, group, doc = c
        return nodes.ChooseAmong(self.ident(name), decider, group, doc, self.span(meta))

    def choose_spot_stmt(self, meta, c):   # a spot on the board (lang/nodes_board.py)
        name, reach, at, decider, doc = c
        return nodes.ChooseSpot(self.ident(name), decider, reach, at, doc, self.span(meta))

    # several values at once: a decision that picks a number for each of several names
    def choose_tuple_stmt(self, meta, c):
        name, names, decider, low, high, where, default, doc = c
        return nodes.ChooseTuple(self.ident(name), names, decider, low, high, where, default,
                                 doc, self.span(meta))

    def tuple_names(self, meta, c):
        return tuple(self.ident(t) for t in c)

    def tuple_values(self, meta, c):
        return tuple(c)

    def tuple_expr(self, meta, c):
        return nodes.TupleExpr(tuple(c), self.span(meta))

    def tuple_types(self, meta, c):
        return tuple(c)

    def let_tuple_stmt(self, meta, c):
        return nodes.LetTuple(c[0], c[1], self.span(meta))

    def procedure_tuple_decl(self, meta, c):
        name, params, results, doc, body = c
        return nodes.ProcedureDecl("procedure", self.ident(name), params or (), results[0], doc,
                                   None, body, self.span(meta), results)

    def using(self, meta, c):
        return tuple(self.ident(t) for t in c)

    def activate_stmt(self, meta, c):
        fighter, using, exclude, bind = c
        return nodes.Activate(fighter, using or (), exclude,
                            self.ident(bind) if bind is not None else None, self.span(meta))

    def travel_stmt(self, meta, c):
        return nodes.Travel(c[0], c[1], False, c[2], self.span(meta))

    def travel_away_stmt(self, meta, c):
        return nodes.Travel(c[0], c[1], True, None, self.span(meta))

    def withdraw_stmt(self, meta, c):
        return nodes.Withdraw(c[0], self.span(meta))

    # facing: `face f towards g`
    def face_stmt(self, meta, c):
        return nodes.Face(c[0], c[1], self.span(meta))

    def concede_stmt(self, meta, c):
        return nodes.Concede(c[0], self.span(meta))

    def deploy_stmt(self, meta, c):
        return nodes.Deploy(c[0], c[1], self.span(meta))

    def point(self, meta, c):
        return nodes.Point(c[0], c[1], self.span(meta))

    def place_stmt(self, meta, c):
        count, kind, by, zone, apart = c
        return nodes.Place(count, self.ident(kind), by, zone, apart, None, None, self.span(meta))

    def place_at_stmt(self, meta, c):
        return nodes.Place(None, self.ident(c[0]), None, None, None, c[1], None, self.span(meta))

    def place_wall_stmt(self, meta, c):
        return nodes.Place(None, self.ident(c[0]), None, None, None, c[1], c[2], self.span(meta))

    # moves the rules choose
    def travel_clear_stmt(self, meta, c):
        return nodes.TravelClear(c[0], c[1], self.span(meta))

    # position as a value
    def place_at_value_stmt(self, meta, c):
        return nodes.PlaceAt(self.ident(c[0]), c[1], self.span(meta))

    # carrying pieces
    def carry_stmt(self, meta, c):
        return nodes.Carry(c[0], c[1], self.span(meta))

    def put_down_stmt(self, meta, c):
        return nodes.PutDown(c[0], self.span(meta))

    def put_at_stmt(self, meta, c):   # moving a piece (lang/nodes_board.py)
        return nodes.PutAt(c[0], c[1], self.span(meta))

    def marker_prop(self, meta, c):
        return str(c[0])

    def marker_entered(self, meta, c):
        return self.ident(c[0]), c[1]

    def marker_decl(self, meta, c):
        name, doc, *rest = c
        entered = rest.pop() if rest and (rest[-1] is None or isinstance(rest[-1], tuple)) \
            else None
        by, body = entered if entered else (None, None)
        return nodes.MarkerDecl(self.ident(name), doc, tuple(rest), by, body, self.span(meta))

    def board_unit(self, meta, c):
        return str(c[0])

    def board(self, meta, c):
        return "board", (c[0], c[1], c[2])

    def side_from(self, meta, c):
        return "side", nodes.SideDecl(self.ident(c[0]), c[1], _unquote(c[2]), (), self.span(meta))

    def side_inline(self, meta, c):
        name, doc, *specs = c
        return "side", nodes.SideDecl(self.ident(name), doc, None, tuple(specs), self.span(meta))

    def spec_class(self, meta, c):
        return "class", self.ident(c[0])

    def spec_models(self, meta, c):   # units of several models
        return "models", c[0]

    def fighter_spec(self, meta, c):
        name, count, *entries = c
        cls, traits, equipment, stats = None, [], [], []
        models = None
        for entry in entries:
            kind, value = entry
            if kind == "class":
                cls = value
            elif kind == "traits":
                traits.extend(value)
            elif kind == "equipment":
                equipment.extend(value)
            elif kind == "stat":
                stats.append(value)
            elif kind == "models":   # units of several models
                models = value
        return nodes.FighterSpecDecl(_unquote(name), int(count) if count is not None else 1, cls,
                                   tuple(traits), tuple(equipment), tuple(stats),
                                   self.span(meta), models)

    def zone(self, meta, c):
        name, doc, (shape, where, size, corners) = c
        return "zone", nodes.ZoneDecl(self.ident(name), doc, shape, where, size, corners,
                                    self.span(meta))

    def zone_edge(self, meta, c):
        return "edge", tuple(self.ident(t) for t in c[:-1]), c[-1], ()

    def zone_corner(self, meta, c):
        return "corner", tuple(self.ident(t) for t in c[:-1]), c[-1], ()

    def zone_area(self, meta, c):
        return "area", (), None, (c[0], c[1])

    def zone_everywhere(self, meta, c):
        return "everywhere", (), None, ()

    def setup(self, meta, c):
        return "setup", c[1]

    def round(self, meta, c):
        return "round", c[1]

    def aftermath(self, meta, c):
        return "aftermath", c[1]

    def round_limit(self, meta, c):
        return "rounds", c[0]

    def score(self, meta, c):
        return "score", (self.ident(c[0]), c[2], c[1])

    def value(self, meta, c):
        return "value", (self.ident(c[0]), c[2])

    def end_when(self, meta, c):
        return "end", c[0]

    def scenario_decl(self, meta, c):
        name, doc, *entries = c
        parts: dict = {"board": None, "side": [], "zone": [], "setup": None, "round": None,
                       "aftermath": None, "rounds": None, "score": [], "value": [], "end": []}
        for kind, value in entries:
            if isinstance(parts[kind], list):
                parts[kind].append(value)
            else:
                parts[kind] = value
        return nodes.ScenarioDecl(self.ident(name), doc, parts["board"], tuple(parts["side"]),
                                tuple(parts["zone"]), parts["setup"], parts["round"],
                                parts["rounds"], tuple(parts["score"]), tuple(parts["value"]),
                                tuple(parts["end"]), self.span(meta), parts["aftermath"])

    def __default__(self, data, children, meta):  # pragma: no cover - a grammar rule without a method
        raise NotImplementedError(f"no AST builder for grammar rule {data!r}")


def build(tree: Tree, file: str) -> nodes.Module:
    header, decls = Builder(file).transform(tree)
    return nodes.Module(file, header, decls)
