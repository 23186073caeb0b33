"""The text of the function each declaration of a Ruleset becomes: a table's t_NAME, a define's
d_NAME, a procedure's p_NAME (and the c_NAME and e_NAME a run enters it by), a `requires`'
r_NAME and the engine's q_NAME, each a list of lines written with a Writer (stmt.py, expr.py).

Mixed into the Program (program.py), which compiles the lines.
"""

from __future__ import annotations

from warband.lang import nodes
from warband.run.codegen.expr import Scope, mangle, param_kinds
from warband.run.codegen.peephole import side_local
from warband.run.codegen.stmt import Writer, assigned_names
from warband.run.evaluate import Record, names_in


class DeclFunctions:
    @staticmethod
    def param_names(params) -> dict[str, str]:
        return {p.name.name: "v_" + mangle(p.name.name) for p in params}

    _kinds = staticmethod(param_kinds)

    def table_lines(self, w: Writer, table: nodes.TableDecl) -> list[str]:
        names = self.param_names(table.params)
        scope = Scope(names, set(names), kinds=self._kinds(table.params))
        w.stable = set(names)
        first = names[table.params[0].name.name] if table.params else None
        columns = tuple(c.name for c in table.columns)
        lines = [f"def t_{mangle(table.name.name)}(I, world, _call"
                 f"{''.join(', ' + n for n in names.values())}):"]
        for row in table.rows:
            if row.kind == "when":
                test = w.expr(row.condition, scope)
            elif row.kind == "otherwise":
                test = "True"
            elif isinstance(row.key, nodes.Ident):
                test = f"{first} == {row.key.name!r}"
            elif isinstance(row.key, tuple):
                test = f"{w.literal(row.key[0])} <= {first} <= {w.literal(row.key[1])}"
            else:
                test = f"{first} == {w.literal(row.key)}"
            fixed = [_fixed(v, names) for v in row.values]
            if len(row.values) > 1 and all(v is not _NOT_FIXED for v in fixed):
                value = w.const(Record(columns, tuple(fixed)), "r")   # made once
            else:
                values = [w.expr(v, scope) for v in row.values]
                value = values[0] if len(values) == 1 else (
                    f"_Record({w.const(columns, 'k')}, ({', '.join(values)},))")
            if test == "True":
                lines.append(f"    return {value}")
                break
            lines += [f"    if {test}:", f"        return {value}"]
        else:
            lines.append(f"    _no_row({w.const(table, 'n')}, "
                         f"({''.join(n + ', ' for n in names.values())}), _call)")
        return lines

    def define_lines(self, w: Writer, decl: nodes.DefineDecl) -> list[str]:
        names = self.param_names(decl.params)
        w.stable = set(names)
        body = w.expr(decl.body, Scope(names, set(names),
                                                 kinds=self._kinds(decl.params)))
        return [f"def d_{mangle(decl.name.name)}(I, world"
                f"{''.join(', ' + n for n in names.values())}):", f"    return {body}"]

    def procedure_lines(self, w: Writer, decl: nodes.ProcedureDecl,
                        entry: bool = False) -> list[str]:
        """p_NAME(I, world, *arguments) -> (value, world); with entry=True, c_NAME(I, world,
        *arguments), which checks the caller's arguments (see _bind), and e_NAME(I, args,
        world), which takes them as a dict."""
        params = self.param_names(decl.params)
        bindings: list[str] = list(params)
        assigned_names(decl.body.stmts, bindings)
        assigned = set(bindings)
        w.stable = {n for n in assigned if bindings.count(n) == 1}
        w.unbound_reads = set()
        names = {**{n: "v_" + mangle(n) for n in sorted(assigned)}, **params}
        thunks = frozenset(p.name.name for p in decl.params
                           if p.type is not None and p.type.name == "dice")
        kinds = {n: k for n, k in self._kinds(decl.params).items() if n in w.stable}
        scope = Scope(names, set(params), thunks, kinds)
        w.side_locals, w.sides_read = {}, set()   # (a default reads a fighter's side there)
        if entry:
            sig = "".join(f", {py}=_UNB" for py in params.values())
            lines = [f"def c_{mangle(decl.name.name)}(I, world{sig}):"]
            self._bind(w, decl, lines, given=True)
        else:
            sig = "".join(f", {py}=_NOARG" if p.default is not None else f", {py}"
                          for p, py in zip(decl.params, params.values()))
            lines = [f"def p_{mangle(decl.name.name)}(I, world{sig}):"]
            for i, (p, py) in enumerate(zip(decl.params, params.values())):
                if p.default is not None:
                    # a default may read the parameters before it: r = distance(a, t)
                    default = w.expr(p.default, _earlier(decl.params, i, params))
                    lines += [f"    if {py} is _NOARG:", f"        {py} = {default}"]
        # the body reads a fighter parameter's side from a local (see side_local)
        w.side_locals = {params[n]: f"_side_{params[n]}" for n, kind in kinds.items()
                         if kind == "fighter" and n in params}
        body: list[str] = []
        w.block(decl.body.stmts, scope, body, "    ")
        for n in sorted(assigned - set(params)):
            if names[n] in w.unbound_reads:
                lines.append(f"    {names[n]} = _UNB")
        for py in sorted(w.sides_read):   # (checked by now to be a fighter's Ref)
            body = side_local(body, w.side_locals[py], f"world.fighters[{py}[1]].side")
        w.side_locals = {}
        lines += body
        if decl.result is not None:
            lines.append(f"    _fell_off({w.const(decl, 'n')})")
        else:
            lines.append("    return (None, world)")
        if entry:   # the caller's dict of arguments, in order
            lines += ["", f"def e_{mangle(decl.name.name)}(I, args, world):",
                      f"    return c_{mangle(decl.name.name)}(I, world"
                      f"{''.join(f', args.get({n!r}, _UNB)' for n in params)})"]
        return lines

    def _bind(self, w: Writer, decl, lines: list[str], needed=None,
              given: bool = False) -> list[str]:
        """Arguments from the caller's dict, as the interpreter binds them (defaults, E301:
        run/entry_points.py); given=True: passed in as the function's parameters, _UNB when missing.

        First every given argument is checked for what generated code takes for granted: a
        fighter or side parameter holds a Ref of that kind, no argument is a distribution.
        Anything else is left to the interpreter (raise _Interpret) before anything is drawn.
        With given=True the arguments are first checked all at once for the usual case (all
        well-formed, only defaulted ones missing), the checks one by one made only otherwise:
        an attack's arguments cost half as much to check."""
        names, checks, usual = [], [], []
        for p in decl.params:
            py, key = "v_" + mangle(p.name.name), repr(p.name.name)
            if not given:
                checks.append(f"    {py} = args.get({key}, _UNB)")
            kind = p.type.name if p.type is not None else None
            if kind in ("fighter", "side"):
                usual.append(f"type({py}) is not _Ref or {py}[0] != {kind!r}")
                checks.append(f"    if (type({py}) is not _Ref or {py}[0] != {kind!r}) and "
                              f"{py} is not _UNB:")
            else:
                usual.append(f"type({py}) in _LAZY" +
                             (f" or {py} is _UNB" if p.default is None else ""))
                checks.append(f"    if type({py}) in _LAZY:")
            checks.append("        raise _Interpret")
            names.append(py)
        defaults = []
        for i, (p, py) in enumerate(zip(decl.params, names)):
            if needed is not None and p.default is not None and p.name.name not in needed:
                continue   # a 'requires' that does not read it: its default is not worked out
            if p.default is not None:
                # a default may read the parameters before it: cover = obscured(a, b)
                earlier = [q.name.name for q in decl.params[:i]]
                scope = Scope(dict(zip(earlier, names[:i])), set(earlier),
                              kinds=self._kinds(decl.params[:i]))
                default = [f"    if {py} is _UNB:", f"        {py} = {w.expr(p.default, scope)}"]
                checks += default
                defaults += default
            else:
                checks += [f"    if {py} is _UNB:",
                           f"        _E301({w.const(decl, 'n')}, {i}, I.ruleset)"]
        if given and usual:
            lines.append(f"    if {' or '.join(usual)}:")
            lines += ["    " + line for line in checks]
            lines += ["    else:"] + ["    " + line for line in defaults or ["    pass"]]
        else:
            lines += checks
        return names

    def engine_test_lines(self, w: Writer, decl) -> list[str]:
        names = self.param_names(decl.params)
        given = [py for p, py in zip(decl.params, names.values()) if p.default is None]
        lines = [f"def q_{mangle(decl.name.name)}(I, world{''.join(', ' + n for n in given)}):"]
        w.stable = set(names)
        needed = set(names_in(decl.requires))
        for p in reversed(decl.params):   # a default may read an earlier default
            if p.default is not None and p.name.name in needed:
                needed |= names_in(p.default)
        for i, (p, py) in enumerate(zip(decl.params, names.values())):
            if p.default is not None and p.name.name in needed:
                earlier = [q.name.name for q in decl.params[:i]]
                scope = Scope({n: names[n] for n in earlier}, set(earlier),
                              kinds=self._kinds(decl.params[:i]))
                lines.append(f"    {py} = {w.expr(p.default, scope)}")
        scope = Scope(names, set(names), kinds=self._kinds(decl.params))
        lines.append(f"    return ({w.expr(decl.requires, scope)}) is True")
        return lines

    def requires_lines(self, w: Writer, decl) -> list[str]:
        lines = [f"def r_{mangle(decl.name.name)}(I, args, world):"]
        w.stable = {p.name.name for p in decl.params}
        names = self._bind(w, decl, lines, needed=names_in(decl.requires))
        scope = Scope(dict(zip((p.name.name for p in decl.params), names)),
                      {p.name.name for p in decl.params}, kinds=self._kinds(decl.params))
        lines.append(f"    return ({w.expr(decl.requires, scope)}) is True")
        return lines


_NOT_FIXED = object()


def _fixed(expr, params: dict):
    """The value of a table cell that is a constant (a number, text, truth value or symbol)."""
    if type(expr) in (nodes.Int, nodes.Str, nodes.Bool):
        return expr.value
    if type(expr) is nodes.Name and expr.name not in params:
        return expr.name
    return _NOT_FIXED


def _earlier(params, i: int, names: dict[str, str]) -> Scope:
    """The scope of a default of the i-th parameter of a procedure called between rules: the
    parameters before it (the checker's types hold between rules; a dice one is a closure)."""
    earlier = params[:i]
    return Scope({p.name.name: names[p.name.name] for p in earlier},
                 {p.name.name for p in earlier},
                 frozenset(p.name.name for p in earlier
                           if p.type is not None and p.type.name == "dice"),
                 kinds=param_kinds(earlier))
