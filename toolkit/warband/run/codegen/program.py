"""Rules translated to Python source, for fast sampling: the program of one Ruleset.

The interpreter runs statements in continuation-passing style, which exact odds and look-ahead
need; a sampled run follows one path, and direct-style Python does that many times faster. Each
procedure, action and phase, define, table and `requires` of a Ruleset becomes one Python
function, generated as text (expr.py for expressions, stmt.py for statements),
compiled once per Ruleset and cached (`program_for`, in hooks.py), and once more for each policy
that runs use for every decision (`first`, `random`: its decisions need not ask).
`Interpreter.sample`, `Interpreter.sampler` and `Interpreter.allowed` call `sample`, `sampler`
and `allowed` in hooks.py.

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

The Program is made here: its namespace, and generating and compiling its functions. Each
declaration's function is written by decl.py (mixed into the Program), its text rewritten by
peephole.py before it is compiled, and hooks.py makes and keeps the programs and runs them.
"""

from __future__ import annotations

import bisect
from typing import TYPE_CHECKING

from warband import limits
from warband.diagnostics import Span, diag
from warband.lang import nodes
from warband.run import areas, budget, carrying, decks, flow, members, pools, weapons
from warband.run.codegen import faults, taps
from warband.run.codegen import runtime as rt
from warband.run.codegen.decl import DeclFunctions
from warband.run.codegen.expr import Scope, Unsupported, mangle
from warband.run.codegen.peephole import RETURN, hoisted, last_changes
from warband.run.codegen.stmt import Writer, contains_dice
from warband.run.dice import Dist, random_below
from warband.run.evaluate import Record, RulesError, Thunk, norm, reads_only_arguments
from warband.run.units import inflict
from warband.run.world import SIDE_GROUPS, SIDE_REFS, Ref, within

if TYPE_CHECKING:
    from warband.run.interpreter_parts import InterpreterParts

__all__ = ["Program"]


class Program(DeclFunctions):
    """The generated functions of one Ruleset, and what fell back to the interpreter.

    Functions are generated and compiled when first needed (a stub stands for each until then),
    so a run pays only for the rules it uses: `warband odds` checking one `requires` compiles
    that check alone. `fallbacks`, `entries` and `requires` generate everything first (once:
    `complete`); what runs rules (hooks.py) asks `entry`, `requirement` and `fell_back`, which
    generate only what they are asked for.
    """

    # a program whose rolls tell a recorded game's log (taps.py; made by rolls_program)
    taps_rolls = False
    # whether everything is generated (complete)
    completed = False

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
            "_mod": rt.remainder,   # the remainder, `%`
            "_is": rt.is_a, "_lookup": rt.lookup, "_no_row": rt.no_row,
            "_aggregate": rt.aggregate, "_within": within, "_roll": rt.roll,
            "_count": rt.count_roll, "_faces": rt.faces_where, "_assign": rt.assign,
            "_repeat": rt.repeat_times, "_number_choice": rt.number_choice, "_clamp": rt.clamp,
            "_members": budget.members, "_evaluation": budget.evaluation, "_turns": budget.turns,
            "_fell_off": rt.fell_off, "_thunk": rt.make_thunk, "_E301": _missing_argument,
            "_Record": Record, "_limits": limits, "_Fn": type(lambda: 0), "_bisect": bisect.bisect_right,
            "_SIDE_REFS": SIDE_REFS, "_has_value": rt.has_value, "_Ref": Ref,
            "_holds": rt.holds,   # traits as values: `f has t`
            "_die": rt.die_roll,   # d(n)
            "_travel_clear": rt.travel_clear,   # moves the rules choose
            "_someone": rt.someone,   # pieces as values
            "_pick_up": carrying.pick_up, "_put_down": carrying.put_down,   # carrying pieces
            "_put_at": carrying.put_at,   # moving a piece
            # turn flow
            "_while_turns": flow.while_turns, "_spend_turn": flow.spend,
            "_end_turn": flow.ended,
            # decks and bags
            "_draw_card": decks.draw_sampled, "_discard_card": decks.discard_generated,
            "_shuffle_deck": decks.shuffled,
            "_choose_spot": rt.choose_spot,   # a spot on the board
            "_Interpret": rt.Interpret, "_travel": rt.travel, "_in_order": rt.in_order,
            "_choose_among": rt.choose_among, "_activate": rt.activate, "_concede": rt.concede,
            "_deploy": rt.deploy, "_place": rt.place, "_Dist": Dist, "_Thunk": Thunk,
            "_inflict": inflict,   # units of several models
            "_bring_back": rt.bring_back,   # back into play
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
                "procedure", procedure, lambda w: self.procedure_lines(w, decl))
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
        lines = last_changes(hoisted(lines))
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
            lines = self._lines("define", name, lambda w: self.define_lines(w, decl))
            fallback = _interpreted_define(decl)
        else:
            decl = table = self.ruleset.tables[name]
            lines = self._lines("table", name, lambda w: self.table_lines(w, table))
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
            return self._lines("entry", procedure, lambda w: self.procedure_lines(w, decl, True))
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
        entry = self.procedure_lines(w, decl, True)   # c_NAME, then e_NAME after a blank line
        body = []
        for line in last_changes(hoisted(entry[1:entry.index("")])):
            returned = RETURN.match(line)
            if returned:   # (a tuple unpacked as it is made is stored straight, none made)
                pad = " " * 8 + returned[1]
                body += [f"{pad}value, after = {returned[2]}",
                         f"{pad}return value, (after.freeze() if type(after) is _Draft "
                         "else after)"]
            else:
                body.append(" " * 8 + line)
        names = self.param_names(decl.params)
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
            return self._lines("requires", procedure, lambda w: self.requires_lines(w, decl))
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
                self.engine_test_lines(w, decl), w.const(decl.requires, "n")))
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
        """Generate everything (for reading the source, or asking what fell back), once: the
        walk names and looks up every declaration, which a game asking at every action made
        most of its cost (three times slower games, in a change nobody saw)."""
        if self.completed:
            return
        self.completed = True
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
    def fell_back(self) -> bool:
        """Whether anything generated so far is left to the interpreter (its runs need the
        interpreter's room: hooks.py), without generating the rest."""
        return bool(self._fallbacks)

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
