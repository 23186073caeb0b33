"""Rules translated to Python source, for fast sampling: the program of one Ruleset.

The interpreter runs statements in continuation-passing style, which exact odds and look-ahead
need; a sampled run follows one path, and direct-style Python does that many times faster. Each
procedure, action and phase, define, table and `requires` of a Ruleset becomes one Python
function, generated as text (codegen_expr.py for expressions, codegen_stmt.py for statements),
compiled once per Ruleset and cached (`program_for`), and once more for each policy that runs
use for every decision (`first`, `random`: its decisions need not ask). `Interpreter.sample`,
`Interpreter.sampler` and `Interpreter.allowed` call `sample`, `sampler` and `allowed` below.

The generated code makes the same draws from the interpreter's random streams in the same order,
the same decisions and the same errors as the interpreter sampling: a roll bound by `let` is
drawn at the `let` (sampling mode evaluates at once), a `dice` argument rolls again at each read
of its parameter (a closure for a generated callee, the interpreter's Thunk for an interpreted
one), names not bound on a path read as their own name (symbols), a table that reads more than
its arguments is looked up afresh each time, as the interpreter does. Where it cannot match the
interpreter it does not try: a procedure with a construct the generator does not know runs
through the interpreter (`Program.fallbacks` names it), and so does any run under the greedy
policy (look-ahead needs the continuations), while probing, or with arguments generated code
does not take (a distribution, a side where a fighter is declared).

Safety: no name from a rules file becomes a Python identifier unescaped (`mangle`), string
constants are written with repr, and anything else (AST nodes, distributions, tables of rolls) is
passed in the function's namespace, never as source text. The namespace's builtins are only
`len`, `type`, `tuple`, `StopIteration`, `RecursionError` and `Exception`.

Errors: a rule's own (no table row, division by zero) are the interpreter's RulesErrors, with
the same diagnostic; any exception of Python's own from generated code is a fault of the
generator, reported as E914 naming the rule (faults.py); a failure while generating leaves the
rule to the interpreter (`_lines`).
"""

from __future__ import annotations

import bisect
import re
import sys
import weakref
from typing import TYPE_CHECKING

from warband import limits
from warband.diagnostics import Span, diag
from warband.lang import nodes
from warband.run import areas, budget, carrying, members, pools, weapons
from warband.run.codegen import faults
from warband.run.codegen import runtime as rt
from warband.run.codegen import taps
from warband.run.codegen.expr import Scope, Unsupported, mangle, param_kinds, reads_only_arguments
from warband.run.codegen.stmt import Writer, assigned_names, contains_dice
from warband.run.dice import Dist, random_below
from warband.run.evaluate import Record, RulesError, Thunk, names_in, norm
from warband.run.units import inflict
from warband.run.world import SIDE_GROUPS, SIDE_REFS, Ref, within

if TYPE_CHECKING:
    from warband.lang.ruleset import Ruleset
    from warband.run.interpreter_parts import InterpreterParts

__all__ = ["Program", "Unsupported", "Writer", "allowed", "mangle", "program_for", "program_of",
           "sample"]


class Program:
    """The generated functions of one Ruleset, and what fell back to the interpreter.

    Functions are generated and compiled when first needed (a stub stands for each until then),
    so a run pays only for the rules it uses: `warband odds` checking one `requires` compiles
    that check alone. `fallbacks`, `entries` and `requires` generate everything first.
    """

    # a program whose rolls tell a recorded game's log (taps.py; made by rolls_program)
    taps_rolls = False

    def __init__(self, ruleset, interp: InterpreterParts, uniform: str | None = None) -> None:
        self.ruleset = ruleset
        # The policy of every decision of every run of this program, when it is made for one
        # ("first" or "random": see program_for); None: each decision asks the policies.
        self.uniform = uniform
        self._fallbacks: dict[str, str] = {}   # "procedure NAME" etc. -> why
        self.fighter_fields, self.side_fields = interp.fighter_fields, interp.side_fields
        self.piece_fields = interp.piece_fields   # pieces as values
        # names that stand for sides in play: every side, and a scenario's named sides
        scenario_sides = ruleset.scenario.sides if getattr(ruleset, "scenario", None) else ()
        self.named_sides = {s.name.name: SIDE_REFS[i] for i, s in enumerate(scenario_sides)}
        self.global_names = {"sides"} | set(self.named_sides)
        self.namespace: dict = {
            "__builtins__": {"StopIteration": StopIteration, "len": len, "type": type,
                             "tuple": tuple, "RecursionError": RecursionError,
                             "Exception": Exception},
            "_UNB": rt.UNBOUND, "_NOARG": rt.UNBOUND, "_norm": norm, "_div": rt.divide,
            "_is": rt.is_a, "_lookup": rt.lookup, "_no_row": rt.no_row,
            "_aggregate": rt.aggregate, "_within": within, "_roll": rt.roll,
            "_count": rt.count_roll, "_faces": rt.faces_where, "_assign": rt.assign,
            "_repeat": rt.repeat_times, "_number_choice": rt.number_choice, "_clamp": rt.clamp,
            "_members": budget.members, "_evaluation": budget.evaluation,
            "_fell_off": rt.fell_off, "_thunk": rt.make_thunk, "_E301": _missing_argument,
            "_Record": Record, "_limits": limits, "_Fn": type(lambda: 0), "_bisect": bisect.bisect_right,
            "_SIDE_REFS": SIDE_REFS, "_has_value": rt.has_value, "_Ref": Ref,
            "_travel_clear": rt.travel_clear,   # moves the rules choose
            "_someone": rt.someone,   # pieces as values
            "_pick_up": carrying.pick_up, "_put_down": carrying.put_down,   # carrying pieces
            "_put_at": carrying.put_at,   # moving a piece
            "_choose_spot": rt.choose_spot,   # a spot on the board
            "_Interpret": rt.Interpret, "_travel": rt.travel, "_in_order": rt.in_order,
            "_choose_among": rt.choose_among, "_activate": rt.activate, "_concede": rt.concede,
            "_deploy": rt.deploy, "_place": rt.place, "_Dist": Dist, "_Thunk": Thunk,
            "_inflict": inflict,   # units of several models
            "_LAZY": (Dist, Thunk), "_Draft": rt.Draft, "_draft": rt.draft,
            "_below": random_below,
            "_tuple_choice": rt.tuple_choice,   # several values at once
            "_all_sides": rt.all_sides, "_in_play": rt.in_play, "_side_fighters": rt.side_fighters,
            "_side_groups": SIDE_GROUPS,
            "_under": areas.under, "_is_under": areas.is_under, "_face": areas.face,
            "_around": rt.around, "_div_whole": rt.divide_whole, "_program": self,
            # dice pools
            **taps.NAMES,   # a recorded game's rolls (taps_rolls)
            "_pool_roll": rt.pool_roll, "_pool_count": rt.pool_count, "_pool_ask": pools.ask,
            "_given": rt.given, "_too_deep": rt.too_deep, "_crashed": self.crashed,
        }
        self.consts: dict[int, str] = {}      # id(object) -> its name in the namespace
        self.inlines = 0                      # procedures inlined so far (for unique names)
        self._getters: dict[tuple[str, str], str] = {}
        self._pure: dict[int, bool] = {}
        self._generated: dict[str, list[str] | None] = {}   # procedure -> p_ lines, or None
        self.source: list[str] = []           # what has been compiled, for reading
        self._entries: dict = {}   # procedure name -> fn(I, args, world) -> (value, world)
        self._requires: dict = {}  # procedure name -> fn(I, args, world) -> bool
        self._engine_tests: dict = {}   # a part of a requires -> fn(I, world, *refs) -> bool
        self._values: dict = {}    # a scenario's expression -> fn(I, world)
        self._missing: set = set()
        # weapon profiles: profile -> {piece: value}; trait -> has(subject, world) of pieces
        # and fighters; piece -> its own traits
        self.profile_tables: dict = {}
        self.profile_reads: dict = {}   # field name as written -> read(subject, world)
        self.weapon_has: dict = {}
        self.weapon_traits = weapons.weapon_trait_names(ruleset)
        self.piece_traits = weapons.piece_traits(ruleset) if self.weapon_traits else {}
        # generated function -> (the rule it runs, as a message names it; its span): what a
        # failure of generated code is reported as (see `crashed`)
        self._rules: dict[str, tuple[str, Span | None]] = {}
        for kind, decls in (("t", self.ruleset.tables), ("d", self.ruleset.defines),
                            ("p", self.ruleset.procedures)):
            for name in decls:
                self.namespace[f"{kind}_{mangle(name)}"] = self._stub(kind, name)

    # ---- what the writers ask -----------------------------------------------------------------
    def getter(self, kind: str, name: str) -> str:
        found = self._getters.get((kind, name))
        if found is None:
            make = rt.field_getter if kind == "field" else rt.has_getter
            found = self._getters[(kind, name)] = f"_{kind}_{mangle(name)}"
            self.namespace[found] = make(self, name)
        return found

    def pure(self, table) -> bool:
        found = self._pure.get(id(table))
        if found is None:
            call = nodes.Call(table.name, (), table.span)
            found = self._pure[id(table)] = reads_only_arguments(call, self.ruleset, set())
        return found

    def generates(self, procedure: str) -> bool:
        """Whether a procedure is generated (False: the interpreter runs it). A dice argument
        passed to a generated procedure is a closure, to an interpreted one a Thunk."""
        if procedure not in self._generated:
            decl = self.ruleset.procedures[procedure]
            self._generated[procedure] = self._lines(
                "procedure", procedure, lambda w: self._procedure(w, decl))
        return self._generated[procedure] is not None

    # ---- generating, compiling ----------------------------------------------------------------
    def _lines(self, kind: str, name: str, make) -> list[str] | None:
        """One function's lines from a fresh writer; None (and a fallback) on Unsupported, and
        on any failure of the generator itself: the interpreter runs what it cannot translate
        (the tests ask the shipped rules for no fallback, so such a fault does not hide)."""
        try:
            return make(Writer(self))
        except Unsupported as why:
            self._fallbacks[f"{kind} {name}"] = str(why)
            return None
        except Exception as error:
            self._fallbacks[f"{kind} {name}"] = \
                f"the generator failed ({type(error).__name__}: {error})"
            return None

    def _compile(self, fname: str, lines: list[str]):
        """The compiled function, or None when Python refuses the generated text: it allows 20
        nested blocks and ~200 nested brackets, fewer than the rules language (the interpreter
        then runs it)."""
        lines = _last_changes(_hoisted(lines))
        text = "\n".join(lines)
        try:
            code = compile(text, f"<warband rules {self.ruleset.id!r} {fname}>", "exec")
        except (SyntaxError, RecursionError, MemoryError) as why:
            self._fallbacks[fname] = f"Python cannot compile it ({getattr(why, 'msg', why)})"
            return None
        exec(code, self.namespace)   # the source is ours; rules names only as mangled or repr
        self.source.extend(lines + [""])
        return self.namespace[fname]

    def _stub(self, kind: str, name: str):
        def stub(*args):
            return self._materialise(kind, name)(*args)
        return stub

    def _materialise(self, kind: str, name: str):
        """Generate and compile t_, d_ or p_NAME in place of its stub (or put the interpreter's
        version there), and return it."""
        fname = f"{kind}_{mangle(name)}"
        if kind == "p":
            decl = self.ruleset.procedures[name]
            lines = self._generated[name] if self.generates(name) else None
            fallback = _interpreted_procedure(decl)
        elif kind == "d":
            decl = self.ruleset.defines[name]
            lines = self._lines("define", name, lambda w: self._define(w, decl))
            fallback = _interpreted_define(decl)
        else:
            decl = table = self.ruleset.tables[name]
            lines = self._lines("table", name, lambda w: self._table(w, table))
            fallback = _interpreted_rows(table)
        self._rules[fname] = faults.rule(decl)
        compiled = self._compile(fname, lines) if lines is not None else None
        if compiled is None:
            self.namespace[fname] = fallback
            return fallback
        return compiled

    def entry(self, procedure: str, block=None):
        """e_NAME(I, args, world) -> (value, world), or None when the interpreter runs it.
        `block`: a scenario's setup, round or aftermath, as a procedure named `procedure`
        (a name with a space, which no procedure of the rules can have)."""
        def lines():
            decl = block or self.ruleset.procedures.get(procedure)
            if decl is None or (block is None and not self.generates(procedure)):
                return None
            for prefix in "ce":
                self._rules[f"{prefix}_{mangle(procedure)}"] = faults.rule(decl)
            return self._lines("entry", procedure, lambda w: self._procedure(w, decl, True))
        return self._kept(self._entries, procedure, procedure, "e", lines)

    def sampler(self, procedure: str):
        """s_NAME(I) -> run(world, *arguments) (see `sampler` below), or None when Python
        refuses the text. Made after entry(): run holds c_NAME's statements, with no call to
        it (a twentieth of a short attack), each `return` making a World of a Draft."""
        decl = self.ruleset.procedures[procedure]
        fname = f"s_{mangle(procedure)}"
        if fname in self.namespace:
            return self.namespace[fname]
        w = Writer(self)
        entry = self._procedure(w, decl, True)   # c_NAME, then e_NAME after a blank line
        body = []
        for line in _last_changes(_hoisted(entry[1:entry.index("")])):
            returned = _RETURN.match(line)
            if returned:   # (a tuple unpacked as it is made is stored straight, none made)
                pad = " " * 8 + returned[1]
                body += [f"{pad}value, after = {returned[2]}",
                         f"{pad}return value, (after.freeze() if type(after) is _Draft "
                         "else after)"]
            else:
                body.append(" " * 8 + line)
        names = self._params(decl.params)
        given = "{" + ", ".join(f"{n!r}: {py}" for n, py in names.items()) + "}"
        lines = [
            f"def {fname}(I):",
            f"    def run(world{''.join(f', {py}=_UNB' for py in names.values())}):",
            "        policies = I.policies",
            "        if world.lazies or I.probing or I.in_sampled_run or policies.by_decision "
            f"or policies.default {self._other_policy} or _program._fallbacks:",
            f"            return I.sample({procedure!r}, _given({given}), world)",
            "        I.exact_mode = False",
            "        if not I.counting:   # one budget of work (budget.py); no branches counted",
            "            I.steps = 0",
            "        I.uniform = policies.default",
            "        I.in_sampled_run = True",
            "        start = world",
            "        try:",
            *body,
            "        except _Interpret:   # by the checks of the arguments, before anything else",
            "            pass",
            "        except RecursionError:",
            f"            raise _too_deep({w.const(decl, 'n')}) from None",
            "        except Exception as error:   # (see crashed: a RulesError goes on as it is)",
            f"            raise _crashed(error, {w.const(decl, 'n')}) from None",
            "        finally:",
            "            I.in_sampled_run = False",
            "        I.branches = I.drawn = 0",
            f"        return I.run_cps({procedure!r}, _given({given}), start, I.top_return)",
            "    return run",
        ]
        return self._compile(fname, lines)

    @property
    def _other_policy(self) -> str:
        """The test of a run's default policy that sends it elsewhere: to the interpreter (a
        look-ahead), or to the program of its policy (see program_for)."""
        return f"!= {self.uniform!r}" if self.uniform else "== 'greedy'"

    def requirement(self, procedure: str):
        """r_NAME(I, args, world) -> bool for a `requires`, or None when the interpreter asks."""
        decl = self.ruleset.procedures.get(procedure)
        if decl is None or decl.requires is None:
            return None
        def lines():
            if contains_dice((decl.requires, decl.params)):
                return None
            self._rules[f"r_{mangle(procedure)}"] = (f"the requires of {faults.rule(decl)[0]}",
                                                     decl.requires.span)
            return self._lines("requires", procedure, lambda w: self._requires_fn(w, decl))
        return self._kept(self._requires, procedure, ("requires", procedure), "r", lines)

    def engine_test(self, decl, key: str):
        """q_NAME(I, world, *refs) -> bool: the `requires` of a declaration (an action, or a
        part of one the engine asks apart) with the parameters that have no default passed in
        order, as the engine's own fighter and side Refs, so nothing is checked on entry: the
        engine asks it for every target of every action of every activation. None when the
        generator does not take it."""
        def lines():
            # (weapon profiles: an equipment parameter holds a piece's name, a text)
            plain = all(p.default is not None or (p.type is not None and
                                                  p.type.name in ("fighter", "side", "equipment"))
                        for p in decl.params)
            if not plain or contains_dice((decl.requires, decl.params)):
                return None
            action = decl.name.name.rsplit(" ", 1)[0]   # (the engine's key: "NAME part")
            self._rules[f"q_{mangle(key)}"] = (f"the requires of action '{action}'",
                                               decl.requires.span)
            return self._lines("requires", key, lambda w: faults.guarded(
                self._engine_test(w, decl), w.const(decl.requires, "n")))
        return self._kept(self._engine_tests, key, ("engine", key), "q", lines)

    def value(self, node, key: str):
        """x_KEY(I, world): an expression a scenario asks of a whole game (a score, an end
        condition), with no names of its own; None when the generator does not take it.
        `key` names it, once in the ruleset."""
        def lines():
            if contains_dice(node):
                return None
            self._rules[f"x_{mangle(key)}"] = (faults.scenario_part(key), node.span)
            return self._lines("value", key, lambda w: faults.guarded([
                f"def x_{mangle(key)}(I, world):",
                f"    return {w.expr(node, Scope({}, set()))}"], w.const(node, "n")))
        return self._kept(self._values, key, ("value", key), "x", lines)

    def _kept(self, store: dict, key, missing, prefix: str, lines):
        """The function kept in `store` under `key`, generated (`lines()`, None when the
        generator does not take it) and compiled as PREFIX_KEY the first time; None, remembered
        under `missing`, when the interpreter is to run it. (Every game asks for its scores:
        the name is made only when the function is.)"""
        found = store.get(key)
        if found is None and missing not in self._missing:
            text = lines()
            found = self._compile(f"{prefix}_{mangle(key)}", text) if text else None
            if found is None:
                self._missing.add(missing)
                return None
            store[key] = found
        return found

    def crashed(self, error: Exception, node=None) -> Exception:
        """What a run of generated code that raised `error` raises (see faults.crashed)."""
        return faults.crashed(error, self._rules, self.ruleset.id, node)

    def complete(self) -> None:
        """Generate everything (for reading the source, or asking what fell back)."""
        for kind, decls in (("t", self.ruleset.tables), ("d", self.ruleset.defines),
                            ("p", self.ruleset.procedures)):
            for name in decls:
                fname = f"{kind}_{mangle(name)}"
                if getattr(self.namespace[fname], "__name__", "") == "stub":
                    self._materialise(kind, name)
        for name in self.ruleset.procedures:
            self.entry(name)
            self.requirement(name)

    @property
    def fallbacks(self) -> dict[str, str]:
        self.complete()
        return self._fallbacks

    @property
    def entries(self) -> dict:
        self.complete()
        return self._entries

    @property
    def requires(self) -> dict:
        self.complete()
        return self._requires

    @staticmethod
    def _params(params) -> dict[str, str]:
        return {p.name.name: "v_" + mangle(p.name.name) for p in params}

    _kinds = staticmethod(param_kinds)

    def _table(self, w: Writer, table: nodes.TableDecl) -> list[str]:
        names = self._params(table.params)
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

    def _define(self, w: Writer, decl: nodes.DefineDecl) -> list[str]:
        names = self._params(decl.params)
        w.stable = set(names)
        body = w.expr(decl.body, Scope(names, set(names),
                                                 kinds=self._kinds(decl.params)))
        return [f"def d_{mangle(decl.name.name)}(I, world"
                f"{''.join(', ' + n for n in names.values())}):", f"    return {body}"]

    def _procedure(self, w: Writer, decl: nodes.ProcedureDecl, entry: bool = False) -> list[str]:
        """p_NAME(I, world, *arguments) -> (value, world); with entry=True, c_NAME(I, world,
        *arguments), which checks the caller's arguments (see _bind), and e_NAME(I, args,
        world), which takes them as a dict."""
        params = self._params(decl.params)
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
        # the body reads a fighter parameter's side from a local (see _side_local)
        w.side_locals = {params[n]: f"_side_{params[n]}" for n, kind in kinds.items()
                         if kind == "fighter" and n in params}
        body: list[str] = []
        w.block(decl.body.stmts, scope, body, "    ")
        for n in sorted(assigned - set(params)):
            if names[n] in w.unbound_reads:
                lines.append(f"    {names[n]} = _UNB")
        for py in sorted(w.sides_read):   # (checked by now to be a fighter's Ref)
            body = _side_local(body, w.side_locals[py], f"world.fighters[{py}[1]].side")
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
        """Arguments from the caller's dict, as Interpreter._bind_params (defaults, E301);
        given=True: passed in as the function's parameters, _UNB when missing.

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

    def _engine_test(self, w: Writer, decl) -> list[str]:
        names = self._params(decl.params)
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

    def _requires_fn(self, w: Writer, decl) -> list[str]:
        lines = [f"def r_{mangle(decl.name.name)}(I, args, world):"]
        w.stable = {p.name.name for p in decl.params}
        names = self._bind(w, decl, lines, needed=names_in(decl.requires))
        scope = Scope(dict(zip((p.name.name for p in decl.params), names)),
                      {p.name.name for p in decl.params}, kinds=self._kinds(decl.params))
        lines.append(f"    return ({w.expr(decl.requires, scope)}) is True")
        return lines


_NOT_FIXED = object()


# A fighter read from the World by a local holding its Ref: `world.fighters[v_attacker[1]]`.
_FIGHTER_READ = re.compile(r"world\.fighters\[((?:v|_i\d+)_\w+)\[1\]\]")
# Lines before which a statement may go: the expression on them is evaluated once, there.
_HOISTABLE = re.compile(r"\s*(?:return |if |[A-Za-z_]\w*(?:, [A-Za-z_]\w*)* = )")


def _hoisted(lines: list[str]) -> list[str]:
    """The lines with a fighter that one line reads from the World several times read once,
    into a local, just before it (effective_might reads Might, Defending and Stunned of each
    fighter). An expression never changes the World, and these locals hold Refs checked on
    entry or given by a group, so the fighter read earlier is the same one."""
    out: list[str] = []
    for line in lines:
        reads = _FIGHTER_READ.findall(line)
        if len(reads) > len(set(reads)) and _HOISTABLE.match(line):
            pad = line[:len(line) - len(line.lstrip())]
            for ref in sorted({r for r in reads if reads.count(r) > 1}):
                local = f"_f_{ref}"
                out.append(f"{pad}{local} = world.fighters[{ref}[1]]")
                line = line.replace(f"world.fighters[{ref}[1]]", local)
        out.append(line)
    return out


def _side_local(body: list[str], local: str, read: str) -> list[str]:
    """The body with a fighter's side number, written as `local` where it is read, read into
    that local just before its first read, when that read is a plain statement that every
    later read follows within the same block (no line between them leaves it); otherwise,
    or when one line reads it, read where it is (a read on a path seldom taken, such as the
    cover save's, is not worth making on every run)."""
    used = [i for i, line in enumerate(body) if local in line]
    first = body[used[0]]
    pad = first[:len(first) - len(first.lstrip())]
    if len(used) > 1 and not _HEADER.match(first) and \
            all(body[i].startswith(pad) for i in range(used[0], used[-1] + 1)):
        return [*body[:used[0]], f"{pad}{local} = {read}", *body[used[0]:]]
    return [line.replace(local, read) for line in body]


_HEADER = re.compile(r"\s*(if|elif|else|while|for|try|except|finally|with)\b")


# A statement of a generated function that returns (its value, the World or a Draft): each
# one is the function's own, as generated bodies define no functions (lambdas only).
_RETURN = re.compile(r"(\s*)return (.*)$")

# A change made on a Draft (made here if the run has none yet): see DRAFT in codegen_expr.
_DRAFT_CHANGE = re.compile(r"(\s*)world = \(world if type\(world\) is _Draft else "
                           r"_draft\(world\)\)\.(set|remove)\(")


def _last_changes(lines: list[str]) -> list[str]:
    """The lines with a change to the World that the run returns right after made by the
    World's own set or remove (on a Draft, the Draft's) instead of on a Draft made for it: a
    Draft is worth making for several changes, and a World is made of it when the run ends, so
    for one change (an attack that stuns) it costs about a third more than the World's copy."""
    out = list(lines)
    for i, line in enumerate(lines[:-1]):
        change = _DRAFT_CHANGE.match(line)
        if change and lines[i + 1].startswith(f"{change[1]}return (") and \
                lines[i + 1].endswith(", world)"):
            out[i] = f"{change[1]}world = world.{change[2]}({line[change.end():]}"
    return out


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


def _missing_argument(decl, i: int, ruleset=None):
    p = decl.params[i]
    raise RulesError(diag("E301", f"'{decl.name.name}' needs a value for '{p.name.name}'",
                          p.span, hint=members.missing_hint(ruleset, p) if ruleset else None))


def _interpreted_rows(table):
    def rows(I, world, call, *args):
        return I.lookup_uncached(table, args, call, world)
    return rows


def _interpreted_define(decl):
    params = [p.name.name for p in decl.params]

    def define(I, world, *values):
        return I.fn(decl.body)(dict(zip(params, values)), world)
    return define


def _interpreted_procedure(decl):
    def procedure(I, world, *values):
        return rt.interpreted(I, decl, list(values), world)
    return procedure


# ---- the hook the interpreter calls ------------------------------------------------------------

# (id of the Ruleset, the policy made for) -> (the Ruleset, weakly, its program)
_PROGRAMS: dict[tuple[int, str | None], tuple[weakref.ref[Ruleset], Program]] = {}


UNIFORM = ("first", "random")   # policies a program may be made for


def program_for(interp: InterpreterParts, uniform: str | None = None) -> Program:
    """The generated program of the interpreter's Ruleset: made once per Ruleset, and once
    more for each policy in UNIFORM that runs use as the policy of every decision (`uniform`:
    the run's `uniform`). A program made for one policy runs only runs under that policy, and
    its decisions do not ask: a first-policy decision whose first option is always legal is
    that option's statements (an attack's two Fate decisions were a fifth of its time)."""
    ruleset = interp.ruleset
    key = (id(ruleset), uniform if uniform in UNIFORM else None)
    found = _PROGRAMS.get(key)
    if found is not None and found[0]() is ruleset:
        return found[1]
    program = Program(ruleset, interp, key[1])
    # (the type checker cannot infer a lambda with a default argument against its context)
    _PROGRAMS[key] = (weakref.ref(ruleset, lambda _r, known=_PROGRAMS: known.pop(key, None)),  # type: ignore[misc]
                      program)
    return program


def rolls_program(interp: InterpreterParts, uniform: str | None = None) -> Program:
    """A program whose rolls tell the interpreter's recorder what they are for, as the
    interpreter's own rolls do (taps.py): made anew, never the one play without a log uses."""
    program = Program(interp.ruleset, interp, uniform if uniform in UNIFORM else None)
    program.taps_rolls = True
    return program


def program_of(interp: InterpreterParts, uniform: str | None = None) -> Program:
    """program_for(interp, uniform), kept on the interpreter (a game asks at every action)."""
    found = interp.programs.get(uniform)
    if found is None:
        found = interp.programs[uniform] = program_for(interp, uniform)
    return found


def sample(interp: InterpreterParts, procedure: str, args: dict, world, block=None, keep: bool = False):
    """Interpreter.sample through the generated program: (value, world), or None when this run
    is left to the interpreter (look-ahead, probing, rolls kept whole, arguments generated code
    does not take). The caller has set sampling mode and reset the counters. `keep`: give back
    the run's Draft as it is, not a World made of it (for a caller that goes on changing it)."""
    if world.lazies or interp.probing:
        return None
    policies = interp.policies
    if policies.by_decision:
        # look-ahead (greedy) runs the rest of the action from each decision: CPS only
        if policies.default == "greedy" or "greedy" in policies.by_decision.values():
            return None
        uniform = None
    else:
        if policies.default == "greedy":
            return None
        uniform = policies.default
    program = interp.programs.get(uniform) or program_of(interp, uniform)
    entry = program._entries.get(procedure) or program.entry(procedure, block)
    if entry is None:
        return None
    interp.uniform = uniform
    outermost = not interp.in_sampled_run
    if outermost:   # one budget of work for the whole run, nested runs included (budget.py)
        interp.in_sampled_run = True
        if not interp.counting:   # (else part of an interpreter's run: its budget goes on)
            interp.steps = 0
    try:
        if program._fallbacks:
            value, after = _with_interpreter_room(entry, interp, args, world)
        else:
            value, after = entry(interp, args, world)
    except rt.Interpret:
        return None
    except RecursionError:
        raise rt.too_deep(block or program.ruleset.procedures[procedure]) from None
    except Exception as error:
        raise program.crashed(error, block or program.ruleset.procedures[procedure]) from None
    finally:
        if outermost:
            interp.in_sampled_run = False
    return value, (after.freeze() if type(after) is rt.Draft and not keep else after)


def sampler(interp: InterpreterParts, procedure: str):
    """Interpreter.sampler through the generated program: run(world, *arguments) ->
    (value, world), as sample(procedure, {name: argument}, world) gives, for a caller that runs
    the same procedure many times (an attack, thousands of times), or None when the
    interpreter runs the procedure. run is generated too (s_NAME(I) makes it): its arguments
    go straight to c_NAME, which checks them as e_NAME does, with none of the dict's look-ups
    or a generic call's packing. A run that generated code does not make, or one made from
    inside another, goes through `sample`."""
    policies = interp.policies
    program = program_of(interp, None if policies.by_decision else policies.default)
    make = program.sampler(procedure) if program.entry(procedure) is not None else None
    return make(interp) if make is not None else None


def nested(interp: InterpreterParts, procedure: str, args: dict, world):
    """A run of an action that the engine starts from inside a generated sampled run (an
    activation of the turn), which has set the policies and the loop budget: (value, world
    or draft), or None when it is left to the interpreter (before anything is drawn)."""
    program = interp.programs.get(interp.uniform) or program_of(interp, interp.uniform)
    entry = program._entries.get(procedure) or program.entry(procedure)
    if entry is None or world.lazies:
        return None
    try:
        if program._fallbacks:
            return _with_interpreter_room(entry, interp, args, world)
        return entry(interp, args, world)
    except rt.Interpret:
        return None
    except RecursionError:
        raise rt.too_deep(program.ruleset.procedures[procedure]) from None
    except Exception as error:
        raise program.crashed(error, program.ruleset.procedures[procedure]) from None


def _with_interpreter_room(entry, interp, args, world):
    """A run that may call procedures left to the interpreter: those run in CPS and need its
    settings (no memo, the deeper stack it allows itself)."""
    interp.memoise = False
    old = sys.getrecursionlimit()
    sys.setrecursionlimit(max(old, 20_000))
    try:
        return entry(interp, args, world)
    finally:
        sys.setrecursionlimit(old)


def allowed(interp: InterpreterParts, procedure: str, args: dict, world):
    """Interpreter.allowed through the generated program: a bool, or None when left to it."""
    program = program_of(interp, None)
    check = program._requires.get(procedure) or program.requirement(procedure)
    if check is None or world.lazies:
        return None
    try:
        return check(interp, args, world)
    except rt.Interpret:
        return None
    except Exception as error:
        raise program.crashed(error, program.ruleset.procedures[procedure]) from None
