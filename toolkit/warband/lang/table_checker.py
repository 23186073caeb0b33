"""The part of the checker that types tables: rows, keys, and the one kind of value each column
holds (that of most of its cells; a cell of another kind is reported where it is).

Mixed into the Checker, as the expression and game halves are.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

from warband.diagnostics import Related, did_you_mean
from warband.lang import nodes
from warband.lang.checker_parts import CheckerParts
from warband.lang.symbols import VALUE_KINDS
from warband.lang.typesystem import ANY, BOOL, Scope, Type, compatible

if TYPE_CHECKING:
    from warband.lang.symbols import SymbolTable


class TableChecker(CheckerParts):
    def table_type(self, decl: nodes.TableDecl) -> Type:
        """The type a table returns, checking the table the first time it is asked for."""
        if id(decl) in self.table_types:
            return self.table_types[id(decl)]
        self.table_types[id(decl)] = ANY  # stands in while checking, in case of a cycle
        name = decl.name.name
        outer, self.current = self.current, self.owner(decl)
        scope = self.params_scope(decl.params)
        self.repeated(decl.columns, "column", f"table '{name}'")
        if decl.use is not None and not decl.reference:   # `for NAME`: only one word is known
            self.error("E311", f"a table is marked only 'for reference', not "
                               f"'for {decl.use.name}'", decl.use.span,
                       hint="write `for reference` after the columns for a table players look "
                            "up during play (roster sheets print it once), or leave it out")
        cells: list[list[tuple[Type, nodes.Expr]]] = [[] for _ in decl.columns]
        seen_default: nodes.Row | None = None
        for row in decl.rows:
            if seen_default is not None:
                self.error("W102", "this row can never be used: 'otherwise' above it matches "
                                   "everything", row.span,
                           related=[Related(seen_default.span, "the 'otherwise' row")],
                           hint="rows are tried from the top; move 'otherwise' to the end")
            if row.kind == "when":
                assert row.condition is not None  # a 'when' row has one
                t = self.expr(row.condition, scope)
                self.expect(BOOL, t, row.condition.span, "a row's condition")
                self.require_fixed(t, row.condition.span, "a row's condition")
            elif row.kind == "otherwise":
                seen_default = row
            else:
                self.key(decl, row, scope)
            if len(row.values) != len(decl.columns):
                cols = ", ".join(c.name for c in decl.columns)
                self.error("E304", f"this row has {len(row.values)} value"
                                   f"{'s' if len(row.values) != 1 else ''}, but the table has "
                                   f"{len(decl.columns)} column"
                                   f"{'s' if len(decl.columns) != 1 else ''} ({cols})", row.span,
                           hint=f"give one value for each column, in order: {cols}")
            for i, value in enumerate(row.values[:len(decl.columns)]):
                t = self.expr(value, scope)
                self.require_fixed(t, value.span, "a table's value")
                cells[i].append((t.fixed(), value))
        self.current = outer
        if seen_default is None and len(decl.params) == 1:
            self.uncovered_keys(decl, scope.locals[decl.params[0].name.name][0])
        column_types = [self.column_type(decl, column, found)
                        for column, found in zip(decl.columns, cells)]
        if len(decl.columns) == 1:
            result = column_types[0]
        else:
            result = Type("record", name, tuple(c.name for c in decl.columns),
                          columns=tuple(column_types))
        self.table_types[id(decl)] = result.fixed()
        return self.table_types[id(decl)]

    def column_type(self, decl: nodes.TableDecl, column: nodes.Ident,
                    cells: list[tuple[Type, nodes.Expr]]) -> Type:
        """The one kind of value a column holds: that of most of its cells (the first of them
        on a tie), with an error at each cell of another kind, naming both."""
        kinds: list[tuple[Type, list[nodes.Expr]]] = []
        for t, value in cells:
            if t.kind == "any":
                continue   # unknown already reported; it matches every kind
            same = next((group for kind, group in kinds
                         if compatible(kind, t) or compatible(t, kind)), None)
            if same is None:
                kinds.append((t, [value]))
            else:
                same.append(value)
        if not kinds:
            return ANY
        held, majority = max(kinds, key=lambda k: len(k[1]))   # max keeps the first on a tie
        for t, value in cells:
            if t.kind != "any" and not any(value is v for v in majority):
                self.error("E302", f"column '{column.name}' of table '{decl.name.name}' holds "
                                   f"{_plural(held)} ({len(majority)} of its "
                                   f"{len(cells)} rows), but this is {t}", value.span,
                           hint=_column_hint(held, t, value, self.table))
        return held

    def key(self, decl: nodes.TableDecl, row: nodes.Row, scope: Scope) -> None:
        if isinstance(row.key, nodes.Ident) and row.key.name not in self.table.globals and \
                row.key.name not in self.table.members and \
                did_you_mean(row.key.name, ["otherwise"]):
            self.error("E201", f"unknown name '{row.key.name}'", row.key.span,
                       hint="did you mean 'otherwise'?")
            return
        if len(decl.params) != 1:
            self.error("E301", "rows with keys need a table of exactly one parameter", row.span,
                       hint="use 'when CONDITION => VALUES' rows for several parameters")
            return
        param_type = scope.locals[decl.params[0].name.name][0]
        if isinstance(row.key, nodes.Ident):
            self.name_key(decl, row.key, param_type, scope)
        elif param_type.kind not in ("number", "any"):
            self.error("E302", f"a number key, but the parameter is {param_type}", row.span)

    def uncovered_keys(self, decl: nodes.TableDecl, param_type: Type) -> None:
        """W104: a table keyed by names (an enum's values, classes, tiers, pieces of equipment)
        with no row for some of them and no `otherwise`: looking one up fails in play (E501),
        or in `warband validate` for a price list, long after the rules were checked. A house
        rule that adds a piece to a base's price list is told here."""
        if any(row.kind == "when" for row in decl.rows):
            return   # conditions may cover anything: only play can tell
        if param_type.kind in VALUE_KINDS:
            names = self.table.names_of_kind(param_type.kind)
        elif param_type.kind == "enum":
            sym = self.table.globals.get(param_type.name or "")
            names = [m.name.name for m in getattr(sym.decl, "members", ())] if sym else []
        else:
            return
        keyed = {row.key.name for row in decl.rows if isinstance(row.key, nodes.Ident)}
        if keyed - set(names):
            return   # a key that is no such name is reported already: one mistake, one message
        missing = [n for n in names if n not in keyed]
        if param_type.kind == "tier" and keyed:   # a class without a tier looks up no tier
            missing += [f"a fighter of no tier (class {c})" for c in
                        self.table.names_of_kind("class")
                        if getattr(self.table.globals[c].decl, "tier", True) is None][:1]
        if missing and keyed:
            shown = ", ".join(missing[:6]) + (f" and {len(missing) - 6} more"
                                               if len(missing) > 6 else "")
            self.error("W104", f"table '{decl.name.name}' has no row for {shown}",
                       decl.name.span,
                       hint="add a row for each, or an 'otherwise' row for the rest")

    def name_key(self, decl: nodes.TableDecl, key: nodes.Ident, param_type: Type,
                 scope: Scope) -> None:
        """A key written as a name: a value of the parameter's kind (a value of its enum, a
        class, a tier, a piece of equipment), each misspelling reported against that kind."""
        param = decl.params[0].name.name
        if param_type.kind in VALUE_KINDS:
            sym = self.table.globals.get(key.name)
            if sym is not None and sym.kind == param_type.kind:
                self.used.add(key.name)
                return
            if sym is None and key.name not in self.table.members:
                self.unknown(key, (param_type.kind,))
                return
        name = nodes.Name(key.name, key.span)
        t = self.member(name, param_type, scope) or self.expr(name, scope)
        if compatible(param_type, t):   # (an unknown name is ANY, and reported already)
            return
        if param_type.kind in VALUE_KINDS:
            names = self.table.names_of_kind(param_type.kind)
        else:   # an enum's or an outcome set's (a number key has no names to list)
            sym = self.table.globals.get(param_type.name or "")
            names = [m.name.name for m in getattr(sym.decl, "members", ())] if sym else []
        untyped = decl.params[0].type is None
        if untyped and key is not next(r.key for r in decl.rows if isinstance(r.key, nodes.Ident)):
            return   # one mistake (the parameter's type left out), reported at the first key
        hint = f"a key here is one of {', '.join(names[:6])}{', ...' if len(names) > 6 else ''}" \
            if names else f"a key is {param_type} here, as parameter '{param}' is"
        if untyped and (t.kind in VALUE_KINDS or t.kind == "enum"):
            kind = t.kind if t.kind in VALUE_KINDS else t.name
            hint = f"say what the table is keyed by: table {decl.name.name}({param}: {kind})"
        self.error("E302", f"'{key.name}' is {t}, but table '{decl.name.name}' is keyed "
                           f"by {param_type} (parameter '{param}')", key.span, hint=hint)


def _plural(t: Type) -> str:
    """'numbers', 'yes/no values', "values of 'Mood'": what a column of t holds."""
    if t.kind in ("enum", "outcome"):
        return f"values of '{t.name}'"
    return {"number": "numbers", "bool": "yes/no values", "text": "texts",
            "class": "classes", "tier": "tiers", "fighter": "fighters",
            "equipment": "pieces of equipment",
            "side": "sides"}.get(t.kind, str(t))


def _column_hint(held: Type, t: Type, value: nodes.Expr, table: SymbolTable) -> str:
    sym = table.globals.get(held.name or "")
    if held.kind in ("enum", "outcome") and isinstance(value, nodes.Str) and sym is not None:
        names = [m.name.name for m in cast("nodes.EnumDecl | nodes.OutcomesDecl",
                                           sym.decl).members]
        close = next((n for n in names if n.lower() == value.value.lower()), None) or \
            next(iter(names), value.value)
        return f"write the value by its name, without quotes: {close}"
    if held.kind == "bool" and t.kind == "number":
        return "write true or false"
    return "a column holds one kind of value: numbers, yes/no values, texts, values of one " \
           "enum, or outcomes of one set"
