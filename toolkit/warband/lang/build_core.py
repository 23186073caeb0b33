"""The builder's rules for statements and expressions (lang/nodes_core.py)."""

from __future__ import annotations

import dataclasses

from lark import Token, v_args

from warband.lang import nodes
from warband.lang.build_base import BuildBase, unquote


@v_args(meta=True)
class CoreBuilder(BuildBase):
    """Statements and expressions, one method per grammar rule."""

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

    def count_aggregate(self, meta, c):
        """count(x for x in group if condition): `count` is a keyword, so no token names it."""
        value, var, group, condition = c
        span = self.span(meta)
        kind = nodes.Ident("count", dataclasses.replace(span, end_line=span.line,
                                                        end_column=span.column + 5))
        return nodes.Aggregate(kind, value, self.ident(var), group, condition, span)

    def option(self, meta, c):
        return nodes.Option(self.ident(c[0]), c[1], c[2], c[3], self.span(meta))

    def return_stmt(self, meta, c):
        return nodes.Return(c[0], self.span(meta))

    def remove_stmt(self, meta, c):
        return nodes.Remove(c[0], self.span(meta), c[1])

    def for_stmt(self, meta, c):
        return nodes.ForEach(self.ident(c[0]), c[1], c[2], self.span(meta))

    def repeat_stmt(self, meta, c):
        return nodes.Repeat(c[0], c[1], self.span(meta))

    def call_stmt(self, meta, c):
        call = nodes.Call(self.ident(c[0]), c[1] or (), self.span(meta))
        return nodes.CallStmt(call, self.span(meta))

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
        return nodes.Str(unquote(c[0]), self.span(meta))

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
        rollers = [m for m in mods if isinstance(m, nodes.Name)]   # `rolled by X` (the last)
        return nodes.Dice(count, int(sides), tuple(m for m in mods if not isinstance(m, nodes.Name)),
                          self.span(meta), count_in_token=bool(n),
                          rolled_by=rollers[-1] if rollers else None)

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

    def roller_mod(self, meta, c):
        """`rolled by X`: a name, kept apart by _dice (not one of the roll's modifiers)."""
        return nodes.Name(str(c[0]), self.tok_span(c[0]))

    def pred_even(self, meta, c):
        return nodes.PredEven(self.span(meta))

    def pred_odd(self, meta, c):
        return nodes.PredOdd(self.span(meta))

    def pred_compare(self, meta, c):
        return nodes.PredCompare(str(c[0]), c[1], self.span(meta))

    def pred_set(self, meta, c):
        return nodes.PredSet(tuple(int(t) for t in c), self.span(meta))
