"""Rules statements as Python source: the second half of the generator (program.py).

Statements become Python statements in direct style: a `let` an assignment, `if` an `if`, a
decision a few comparisons and, for the random policy, one draw from the interpreter's choice
stream, a procedure call a call (or the callee's body in place, when small). Changes to the World
go to a draft of it (see codegen_runtime.Draft).
"""

from __future__ import annotations

from warband.lang import nodes
from warband.run import events, tuples
from warband.run.budget import turn_cost
from warband.run.codegen import taps
from warband.run.codegen.expr import (
    DRAFT,
    ExpressionWriter,
    Scope,
    Unsupported,
    mangle,
    param_kinds,
)

# statements the engine answers, called with their values: statement -> (runtime function,
# the statement's fields in the order the function takes them)
_ENGINE_CALLS = {nodes.Concede: ("_concede", ("side",)),
                 nodes.Deploy: ("_deploy", ("side", "zone")),
                 nodes.BringBack: ("_bring_back", ("fighter", "zone")),   # back into play
                 nodes.Travel: ("_travel", ("fighter", "distance", "target")),
                 # moves the rules choose
                 nodes.TravelClear: ("_travel_clear", ("fighter", "distance"))}


class Writer(ExpressionWriter):
    """Generates a function's statements (expressions: see ExpressionWriter)."""

    def block(self, stmts, scope: Scope, out: list, pad: str) -> set[str]:
        """Lines for the statements; returns the names bound on every path through them."""
        bound = set(scope.bound)
        start = len(out)
        for stmt in stmts:
            bound = self.stmt(stmt, scope.with_bound(bound), out, pad)
        if len(out) == start:
            out.append(pad + "pass")
        return bound

    def procedure_call(self, call: nodes.Call, scope: Scope) -> str:
        decl = self.ruleset.procedures[call.callee.name]
        args = []
        for i, arg in enumerate(call.args):
            p = decl.params[i] if i < len(decl.params) else None
            if p is not None and p.type is not None and p.type.name == "dice":
                # by name: each use in the callee rolls again, in the world of that use; a
                # generated callee takes a closure, an interpreted one the interpreter's Thunk
                if not self.program.generates(decl.name.name):
                    args.append(f"_thunk(lambda _env, world: {self.expr(arg, scope)}, "
                                f"{self.const(arg, 'n')})")
                else:
                    args.append(f"(lambda world: {self.expr(arg, scope)})")
                if self.program.taps_rolls:   # a recorded game's rolls: labelled (taps.py)
                    args[-1] = taps.argument(self, call, i, args[-1], scope)
            else:
                args.append(self.expr(arg, scope))
        return f"p_{mangle(decl.name.name)}(I, world{''.join(', ' + a for a in args)})"

    def emit_return(self, out: list, pad: str, value: str | None = None,
                    call: str | None = None) -> None:
        """A `return` of a value (Python for it) or of a procedure call's (value, world)."""
        if self.ret is None:
            out.append(f"{pad}return {call}" if call else f"{pad}return ({value}, world)")
        else:
            if call:
                out.append(f"{pad}{self.ret}, world = {call}")
            elif value != self.ret:   # (`return result` where the result is named so)
                out.append(f"{pad}{self.ret} = {value}")
            out.append(f"{pad}break")

    def call_site(self, call: nodes.Call, scope: Scope, out: list, pad: str, mode: str,
                  target: str | None = None) -> None:
        """A procedure called by a statement: mode "let" (into target), "return" or "stmt".
        Small generated procedures are inlined (see inline_procedure); others are called."""
        decl = self.ruleset.procedures[call.callee.name]
        if self.can_inline(decl, call, mode):
            self.inline_procedure(decl, call, scope, out, pad, mode, target)
            return
        code = self.procedure_call(call, scope)
        if mode == "return":
            self.emit_return(out, pad, call=code)
        elif mode == "let":
            out.append(f"{pad}{target}, world = {code}")
        else:
            out.append(f"{pad}world = {code}[1]")

    def can_inline(self, decl, call: nodes.Call, mode: str) -> bool:
        size = _size(decl.body.stmts)
        if not self.program.generates(decl.name.name) or self.depth >= 4 or \
                len(call.args) > len(decl.params) or size > 60 or size > self.budget:
            return False
        bindings: list[str] = []
        assigned_names(decl.body.stmts, bindings)
        if any(p.name.name in bindings for p in decl.params
               if p.type is not None and p.type.name == "dice"):
            return False   # a dice parameter set in the body: keep it a variable
        # inlined for its value, a `return` leaves the inlined body with `break`: not possible
        # from inside one of its loops
        return mode == "return" or not _returns_in_loop(decl.body.stmts, False)

    def inline_procedure(self, decl, call: nodes.Call, scope: Scope, out: list, pad: str,
                         mode: str, target: str | None) -> None:
        """The callee's body in place of the call, its locals renamed. Arguments are evaluated
        in order as the interpreter does; a dice argument is put in place of each read of its
        parameter (read by name: it rolls again at each read, in the World of that read)."""
        self.program.inlines += 1
        self.budget -= _size(decl.body.stmts)   # a function's source grows only so much
        prefix = f"_i{self.program.inlines}_"
        bindings = [p.name.name for p in decl.params]
        assigned_names(decl.body.stmts, bindings)
        stable = {n for n in bindings if bindings.count(n) == 1}
        names = {n: prefix + mangle(n) for n in bindings}
        for i, p in enumerate(decl.params):
            n = p.name.name
            if i >= len(call.args):
                # a default may read the parameters before it (as they are named in here)
                earlier = [q.name.name for q in decl.params[:i]]
                kinds = {k: v for k, v in param_kinds(decl.params[:i]).items() if k in stable}
                own = Scope({q: names[q] for q in earlier}, set(earlier), frozenset(), kinds)
                out.append(f"{pad}{names[n]} = {self.expr(p.default, own)}")
                continue
            arg = call.args[i]
            if p.type is not None and p.type.name == "dice":
                names[n] = f"({self.expr(arg, scope)})"
                if self.program.taps_rolls:   # a recorded game's rolls: labelled (taps.py)
                    names[n] = taps.inlined_argument(self, call, i, names[n], scope)
            elif n in stable and _simple(arg, scope):
                names[n] = self.expr(arg, scope)
            else:
                out.append(f"{pad}{names[n]} = {self.expr(arg, scope)}")
        kinds = {n: k for n, k in param_kinds(decl.params).items() if n in stable}
        inner = Scope(names, {p.name.name for p in decl.params}, frozenset(), kinds)
        saved = self.stable, self.ret
        self.stable = stable
        self.depth += 1
        body: list[str] = []
        try:
            if mode == "return":
                self.block(decl.body.stmts, inner, body, pad)
                if decl.result is not None:
                    body.append(f"{pad}_fell_off({self.const(decl, 'n')})")
                else:
                    self.emit_return(body, pad, value="None")
            else:
                result = self.ret = prefix + "result"
                body.append(f"{pad}while True:   # {mangle(decl.name.name)}")
                self.block(decl.body.stmts, inner, body, pad + "    ")
                if decl.result is not None:
                    body.append(f"{pad}    _fell_off({self.const(decl, 'n')})")
                else:
                    body += [f"{pad}    {result} = None", f"{pad}    break"]
                if mode == "let":
                    body.append(f"{pad}{target} = {result}")
        finally:
            self.stable, self.ret = saved
            self.depth -= 1
        for n in sorted(set(bindings) - {p.name.name for p in decl.params}):
            if names[n] in self.unbound_reads:
                out.append(f"{pad}{names[n]} = _UNB")
        out.extend(body)

    def is_procedure_call(self, e) -> bool:
        return type(e) is nodes.Call and e.callee.name in self.ruleset.procedures

    def stmt(self, s, scope: Scope, out: list, pad: str) -> set[str]:  # noqa: C901
        bound = set(scope.bound)
        t = type(s)
        if self.ruleset.events and (
                t in (nodes.Remove, nodes.Withdraw, nodes.Wound) and events.watched(self.ruleset)
                or t is nodes.Set and s.target[-1].name in events.watched_counters(self.ruleset)):
            # events run in the interpreter, which runs what may set one off (run/events.py)
            raise Unsupported("a statement that may set off an event")
        if t is nodes.Let:
            py = scope.names[s.name.name]
            if self.is_procedure_call(s.value):
                self.call_site(s.value, scope, out, pad, "let", py)
            else:
                out.append(f"{pad}{py} = {self.expr(s.value, scope)}")
                kind = self.kind(s.value, scope)
                if kind is not None and s.name.name in self.stable:
                    scope.kinds[s.name.name] = kind
            return bound | {s.name.name}
        if t is nodes.Set:
            value = s.value
            if s.op != "=":
                if s.op not in ("+=", "-="):
                    raise Unsupported(f"assignment {s.op}")
                node: nodes.Expr = nodes.Name(s.target[0].name, s.target[0].span)
                for part in s.target[1:]:
                    node = nodes.Field(node, part, part.span)
                value = nodes.Binary(s.op[0], node, s.value, s.span)
            code = self.expr(value, scope)
            if len(s.target) == 1:
                out.append(f"{pad}{scope.names[s.target[0].name]} = {code}")
                return bound | {s.target[0].name}
            tmp = self.fresh("v")
            out.append(f"{pad}{tmp} = {code}")
            if s.target[0].name not in scope.names and \
                    self.kind(nodes.Name(s.target[0].name, s.target[0].span), scope) != "side":
                # (a scenario's side by its name, `set dudes.FillsPockets = true`, is one Ref)
                raise Unsupported("assignment to a field of an unknown name")
            node = nodes.Name(s.target[0].name, s.target[0].span)
            for part in s.target[1:-1]:
                node = nodes.Field(node, part, part.span)
            subject, kind = self.expr(node, scope), self.kind(node, scope)
            lower = s.target[-1].name.lower()
            if kind == "fighter" and self.program.fighter_fields.get(lower, ("",))[0] == "value":
                canonical = self.program.fighter_fields[lower][1]
                out.append(f"{pad}world = {DRAFT}.set({subject}, {canonical!r}, {tmp})")
            elif kind == "side" and lower in self.program.side_fields:
                canonical = self.program.side_fields[lower]
                # a World copies its few sides, a Draft changes in place: both cost less than
                # making a Draft and freezing it for the one or two changes an action makes
                # to a side (a Fate token spent)
                out.append(f"{pad}world = world.set_side({self.side_index(node, scope)}, "
                           f"{canonical!r}, {tmp})")
            else:
                out.append(f"{pad}world = _assign(I, {subject}, {s.target[-1].name!r}, {tmp}, "
                           f"world)")
            return bound
        if t is nodes.If:
            out.append(f"{pad}if {self.expr(s.condition, scope)}:")
            yes = self.block(s.then.stmts, scope, out, pad + "    ")
            if s.otherwise is None:
                return bound
            out.append(f"{pad}else:")
            stmts = (s.otherwise,) if type(s.otherwise) is nodes.If else s.otherwise.stmts
            no = self.block(stmts, scope, out, pad + "    ")
            return bound | (yes & no)
        if t is nodes.Choose:
            return self.choose(s, scope, out, pad)
        if t is nodes.ChooseNumber:
            py = scope.names[s.name.name]
            stmt = self.const(s, "n")
            low, high = self.fresh("lo"), self.fresh("hi")
            out.append(f"{pad}{low} = {self.expr(s.low, scope)}")
            out.append(f"{pad}{high} = {self.expr(s.high, scope)}")
            out.append(f"{pad}{py} = _number_choice(I, {stmt}, {low}, {high})")
            out.append(f"{pad}if {py} is None:")
            default = low if s.default is None else \
                f"_clamp({self.expr(s.default, scope)}, {low}, {high})"
            out.append(f"{pad}    {py} = {default}")
            return bound | {s.name.name}
        if t is nodes.Return:
            if s.value is None:   # a bare `return`: nothing, as a rule that ends does
                self.emit_return(out, pad, value="None")
            elif self.is_procedure_call(s.value):
                self.call_site(s.value, scope, out, pad, "return")
            else:
                self.emit_return(out, pad, value=self.expr(s.value, scope))
            return bound
        if t is nodes.ForSorted:
            py, keys = scope.names[s.var.name], self.fresh("k")
            items = self.fresh("g")
            out.append(f"{pad}{items} = _turns(I, {self.expr(s.items, scope)}, "
                       f"{self.const(s, 'n')}, {turn_cost(self.ruleset, s)})")
            inner = self.loop_scope(s, scope, bound)
            out.append(f"{pad}{keys} = []")
            out.append(f"{pad}for {py} in {items}:")
            if not s.then:
                out.append(f"{pad}    {keys}.append({self.expr(s.key, inner)})")
                out.append(f"{pad}for {py} in _in_order({items}, {keys}, {s.highest!r}):")
            else:   # a tuple of the values, each negated when the highest comes first
                parts = [f"{'-' if highest else ''}({self.expr(k, inner)})"
                         for highest, k in ((s.highest, s.key), *s.then)]
                out.append(f"{pad}    {keys}.append(({', '.join(parts)}))")
                out.append(f"{pad}for {py} in _in_order({items}, {keys}, False):")
            self.block(s.body.stmts, inner, out, pad + "    ")
            return bound
        if t is nodes.ChooseAmong:
            py = scope.names[s.name.name]
            out.append(f"{pad}{py} = _choose_among(I, {self.const(s, 'n')}, "
                       f"{self.expr(s.group, scope)}, world)")
            member = self.members(s.group, scope)   # (the chosen one is one of them)
            if member is not None and s.name.name in self.stable:
                scope.kinds[s.name.name] = member
            return bound | {s.name.name}
        # several values at once: a procedure's values taken apart into names
        if t is nodes.LetTuple:
            pys = [scope.names[n.name] for n in s.names]
            picked = self.fresh("t")
            if self.is_procedure_call(s.value):
                self.call_site(s.value, scope, out, pad, "let", picked)
            else:
                out.append(f"{pad}{picked} = {self.expr(s.value, scope)}")
            out.append(f"{pad}{', '.join(pys)}, = {picked}")
            return bound | {n.name for n in s.names}
        # several values at once: one decision picks a tuple, unpacked into its names
        if t is nodes.ChooseTuple:
            pys = [scope.names[n.name] for n in s.names]
            low, high, picked = self.fresh("lo"), self.fresh("hi"), self.fresh("t")
            out.append(f"{pad}{low} = {self.expr(s.low, scope)}")
            out.append(f"{pad}{high} = {self.expr(s.high, scope)}")
            inner = scope.with_bound(bound | {n.name for n in s.names})
            where = "None" if s.where is None else \
                f"lambda {', '.join(pys)}: {self.expr(s.where, inner)}"
            others = tuples.plain_names(s)
            key = "None" if others is None else \
                "(" + "".join(f"{self.expr(nodes.Name(n, s.span), scope)}, " for n in others) + ")"
            default = "None" if s.default is None else \
                "lambda: (" + "".join(f"{self.expr(d, scope)}, " for d in s.default) + ")"
            out.append(f"{pad}{picked} = _tuple_choice(I, {self.const(s, 'n')}, {low}, {high}, "
                       f"{key}, {where}, {default})")
            out.append(f"{pad}{', '.join(pys)}, = {picked}")
            return bound | {n.name for n in s.names}
        if t is nodes.Activate:
            exclude = self.expr(s.exclude, scope) if s.exclude is not None else "None"
            name = scope.names[s.bind.name] if s.bind is not None else "_"
            out.append(f"{pad}{name}, world = _activate(I, {self.const(s, 'n')}, "
                       f"{self.expr(s.fighter, scope)}, {exclude}, world)")
            return bound | ({s.bind.name} if s.bind is not None else set())
        if t in _ENGINE_CALLS:   # world = _concede(I, stmt, side, world) and the like
            fn, fields = _ENGINE_CALLS[t]
            values = "".join(f"{self.expr(e, scope) if e is not None else None}, "
                             for e in (getattr(s, f) for f in fields))
            out.append(f"{pad}world = {fn}(I, {self.const(s, 'n')}, {values}world)")
            return bound
        if t is nodes.Place:
            def value(e):
                return self.expr(e, scope) if e is not None else "None"

            def point(p):
                return f"({value(p.x)}, {value(p.y)})" if p is not None else "None"
            out.append(f"{pad}world = _place(I, {self.const(s, 'n')}, {point(s.at)}, {point(s.to)}, "
                       f"{value(s.count)}, {value(s.zone)}, {value(s.apart)}, {value(s.by)}, "
                       "world)")
            return bound
        if t is nodes.Face:   # facing (run/areas.py)
            out.append(f"{pad}_face(I, {self.expr(s.fighter, scope)}, "
                       f"{self.expr(s.towards, scope)}, world)")
            return bound
        # carrying pieces (run/carrying.py)
        if t is nodes.Carry:
            out.append(f"{pad}world = _pick_up({self.const(s, 'n')}, "
                       f"{self.expr(s.piece, scope)}, {self.expr(s.fighter, scope)}, world, "
                       "I.recorder)")
            return bound
        if t is nodes.PutDown:
            out.append(f"{pad}world = _put_down({self.const(s, 'n')}, "
                       f"{self.expr(s.piece, scope)}, world, I.recorder)")
            return bound
        if t is nodes.ChooseSpot:   # a spot on the board (run/spots.py)
            py = scope.names[s.name.name]
            out.append(f"{pad}{py} = _choose_spot(I, {self.const(s, 'n')}, "
                       f"{self.expr(s.at, scope)}, {self.expr(s.reach, scope)}, world)")
            return bound | {s.name.name}
        if t is nodes.PutAt:   # moving a piece
            out.append(f"{pad}world = _put_at({self.const(s, 'n')}, "
                       f"{self.expr(s.piece, scope)}, {self.expr(s.where, scope)}, world, I, "
                       "I.recorder)")
            return bound
        # turn flow (run/flow.py): every loop of the rules is a Python loop here
        if t is nodes.While:
            out.append(f"{pad}for _ in _while_turns({self.expr(s.times, scope)}, "
                       f"{self.const(s, 'n')}, I):")
            out.append(f"{pad}    if not ({self.expr(s.condition, scope)}):")
            out.append(f"{pad}        break")
            out.append(f"{pad}    _spend_turn(I, {turn_cost(self.ruleset, s)}, "
                       f"{self.const(s, 'n')})")
            self.block(s.body.stmts, scope, out, pad + "    ")
            return bound
        if t is nodes.Break:
            out.append(f"{pad}break")
            return bound
        if t is nodes.Continue:
            out.append(f"{pad}continue")
            return bound
        if t is nodes.EndTurn:
            side = self.expr(s.side, scope) if s.side is not None else "None"
            out.append(f"{pad}world = _end_turn(I, {self.const(s, 'n')}, {side}, world)")
            return bound
        # decks and bags (run/decks.py): drawn from the dice stream, as the interpreter draws
        if t is nodes.Draw:
            py = scope.names[s.name.name]
            out.append(f"{pad}{py}, world = _draw_card(I, {self.const(s, 'n')}, "
                       f"{self.expr(s.deck, scope)}, world)")
            return bound | {s.name.name}
        if t is nodes.Discard:
            deck = self.fresh("d")   # (the deck first, then the card: as the interpreter)
            out.append(f"{pad}{deck} = {self.expr(s.deck, scope)}")
            out.append(f"{pad}world = _discard_card(I, {self.const(s, 'n')}, {deck}, "
                       f"{self.expr(s.card, scope)}, world)")
            return bound
        if t is nodes.Shuffle:
            out.append(f"{pad}world = _shuffle_deck(world, {self.expr(s.deck, scope)})")
            return bound
        if t is nodes.Remove or t is nodes.Withdraw:   # (withdraw: off the table, no casualty)
            subject = self.expr(s.subject if t is nodes.Remove else s.fighter, scope)
            # who removes it: `by`, else the fighter whose action runs (as the interpreter)
            by = self.expr(s.by, scope) if s.by is not None else "I.acting"
            out.append(f"{pad}world = {DRAFT}.remove({subject}, {t is nodes.Withdraw}, {by})")
            return bound
        if t is nodes.Wound:   # units of several models: the unit first, as the interpreter
            unit = self.fresh("u")
            out.append(f"{pad}{unit} = {self.expr(s.target, scope)}")
            out.append(f"{pad}world = _inflict({DRAFT}, {unit}, {self.expr(s.amount, scope)}, "
                       f"{self.const(s, 'n')}, I.acting, I.chooser())")
            return bound
        if t is nodes.ForEach:   # (its turns count against the budget of work: budget.py)
            py = scope.names[s.var.name]
            out.append(f"{pad}for {py} in _turns(I, {self.expr(s.items, scope)}, "
                       f"{self.const(s, 'n')}, {turn_cost(self.ruleset, s)}):")
            inner = self.loop_scope(s, scope, bound)
            self.block(s.body.stmts, inner, out, pad + "    ")
            return bound
        if t is nodes.Repeat:
            out.append(f"{pad}for _ in _repeat({self.expr(s.times, scope)}, "
                       f"{self.const(s, 'n')}, _limits.MAX_REPEAT, I, _limits.MAX_SAMPLED_STEPS, "
                       f"{turn_cost(self.ruleset, s)}):")
            self.block(s.body.stmts, scope, out, pad + "    ")
            return bound
        if t is nodes.CallStmt:
            if self.is_procedure_call(s.call):
                self.call_site(s.call, scope, out, pad, "stmt")
            else:
                out.append(f"{pad}{self.expr(s.call, scope)}")
            return bound
        raise Unsupported(f"statement {t.__name__}")

    def loop_scope(self, s, scope: Scope, bound: set[str]) -> Scope:
        """The scope of a `for each` body: the variable bound, and its kind known (a fighter, a
        side) where the group says, unless the body binds the name again."""
        again: list[str]
        var, member, again = s.var.name, self.members(s.items, scope), []
        assigned_names(s.body.stmts, again)
        kinds = {k: v for k, v in scope.kinds.items() if k != var}
        if member is not None and var not in again:
            kinds[var] = member
        return Scope(scope.names, bound | {var}, scope.thunks, kinds)

    def choose(self, s: nodes.Choose, scope: Scope, out: list, pad: str) -> set[str]:
        """Decisions.choose in sampling mode: scripted or first legal option, or a random one."""
        opt, pol = self.fresh("o"), self.fresh("p")
        options = s.options

        def legal(o) -> str:
            if o.when is None:
                return "True"
            if type(o.when) in (nodes.Compare, nodes.Has, nodes.Not):   # surely True or False
                return self.expr(o.when, scope)
            return f"({self.expr(o.when, scope)}) is True"
        # `uniform` is the policy of every decision when none is scripted (set per run by
        # `sample`); asking the policies by name is needed only otherwise. A program made for
        # one such policy (Program.uniform) runs only under it: the policy is known here.
        mode = self.program.uniform
        first_fast = options[0].when is None and all(o.name.name != "first" for o in options)
        if mode == "first" and first_fast:
            # the first policy takes the first option, always legal: its body, and no more
            if options[0].body is None:
                return set(scope.bound)
            return set(scope.bound) | self.block(options[0].body.stmts, scope, out, pad)
        if mode == "random":
            self._random_option(options, legal, opt, out, pad)
        elif mode == "first":
            out.append(f"{pad}{pol} = 'first'")
            self._scripted_option(options, legal, opt, pol, out, pad)
        else:
            out.append(f"{pad}{pol} = I.uniform or I.policies.for_decision({s.name.name!r})")
            out.append(f"{pad}if {pol} == 'random':")
            self._random_option(options, legal, opt, out, pad + "    ")
            if first_fast:
                # the first policy takes the first legal option (unless an option is called
                # `first`: the policy's name then scripts it)
                out.append(f"{pad}elif {pol} == 'first':")
                out.append(f"{pad}    {opt} = 0")
            out.append(f"{pad}else:")
            self._scripted_option(options, legal, opt, pol, out, pad + "    ")
        after = None
        for i, o in enumerate(options):
            out.append(f"{pad}{'if' if i == 0 else 'elif'} {opt} == {i}:")
            if o.body is None:
                out.append(f"{pad}    pass")
                names = set(scope.bound)
            else:
                names = self.block(o.body.stmts, scope, out, pad + "    ")
            after = names if after is None else after & names
        return set(scope.bound) | (after or set())

    def _random_option(self, options, legal, opt: str, out: list, pad: str) -> None:
        """`opt` = the index of a legal option drawn at random (Decisions.choose's draw)."""
        unconditional = []
        for i, o in enumerate(options):
            if o.when is not None:
                break
            unconditional.append(i)
        # Every condition is asked here, in order, as Decisions.choose does; one asked twice
        # (the same text) is asked once: conditions of options neither roll nor change anything
        asked: dict[str, str] = {}
        for o in options[len(unconditional):]:
            if o.when is not None and legal(o) not in asked:
                asked[legal(o)] = self.fresh("c")
                out.append(f"{pad}{asked[legal(o)]} = {legal(o)}")

        def pick(n: int) -> str:   # one of the first n options (random.choice's own draw)
            return "0" if n == 1 else f"_below(I.choice_rng, {n})"
        rest = options[len(unconditional):]
        if unconditional and all(o.when is not None for o in rest) and len(asked) <= 1:
            # the legal options are the first few or all of them (Fate: keep always, raise or
            # lower with a token left): an index drawn below their number, no list
            drawn = pick(len(options))
            if rest:
                drawn += f" if {asked[legal(rest[0])]} else {pick(len(unconditional))}"
            out.append(f"{pad}{opt} = {drawn}")
            return
        out.append(f"{pad}{opt} = {unconditional!r}")
        for i, o in enumerate(rest, len(unconditional)):
            if o.when is None:
                out.append(f"{pad}{opt}.append({i})")
            else:
                out.append(f"{pad}if {asked[legal(o)]}:")
                out.append(f"{pad}    {opt}.append({i})")
        # (random.choice(seq) is seq[_randbelow(len(seq))]: the same draw, one call less)
        out.append(f"{pad}{opt} = {opt}[0] if len({opt}) == 1 else "
                   f"{opt}[_below(I.choice_rng, len({opt}))]")

    def _scripted_option(self, options, legal, opt: str, pol: str, out: list,
                         pad: str) -> None:
        """`opt` = the option the policy `pol` names if legal, else the first legal one."""
        out.append(f"{pad}{opt} = -1")
        for i, o in enumerate(options):
            out.append(f"{pad}{'if' if i == 0 else 'elif'} {pol} == {o.name.name!r}:")
            if o.when is None:
                out.append(f"{pad}    {opt} = {i}")
            else:
                out.append(f"{pad}    if {legal(o)}:")
                out.append(f"{pad}        {opt} = {i}")
        out.append(f"{pad}if {opt} < 0:")
        for i, o in enumerate(options):
            out.append(f"{pad}    {'if' if i == 0 else 'elif'} {legal(o)}:")
            out.append(f"{pad}        {opt} = {i}")
        out.append(f"{pad}    else:")
        out.append(f"{pad}        raise StopIteration")   # as next() over no legal option


def assigned_names(stmts, found: list[str]) -> None:
    """Every binding of a name in a procedure body (lets, sets of locals, loops, number
    decisions), once per place: a name found once is bound in one place only."""
    for s in stmts:
        t = type(s)
        if t is nodes.Let:
            found.append(s.name.name)
        elif t is nodes.Set and len(s.target) == 1:
            found.append(s.target[0].name)
        elif t is nodes.ChooseNumber:
            found.append(s.name.name)
        elif t is nodes.ForEach or t is nodes.ForSorted:
            found.append(s.var.name)
            assigned_names(s.body.stmts, found)
        elif t is nodes.ChooseAmong or t is nodes.ChooseSpot or t is nodes.Draw:
            found.append(s.name.name)
        elif t is nodes.ChooseTuple or t is nodes.LetTuple:   # several values at once
            found.extend(n.name for n in s.names)
        elif t is nodes.Activate and s.bind is not None:
            found.append(s.bind.name)
        elif t is nodes.Repeat or t is nodes.While:
            assigned_names(s.body.stmts, found)
        elif t is nodes.If:
            assigned_names(s.then.stmts, found)
            other = s.otherwise
            if other is not None:
                assigned_names((other,) if type(other) is nodes.If else other.stmts, found)
        elif t is nodes.Choose:
            for o in s.options:
                if o.body is not None:
                    assigned_names(o.body.stmts, found)


def contains_dice(node) -> bool:
    """Whether an expression may roll (then `allowed` is left to the interpreter, whose mode
    decides what a roll gives there)."""
    if isinstance(node, (nodes.Dice, nodes.Count)):
        return True
    if isinstance(node, (tuple, list)):
        return any(contains_dice(x) for x in node)
    if hasattr(node, "__dataclass_fields__"):
        return any(contains_dice(getattr(node, f)) for f in node.__dataclass_fields__
                   if f != "span")
    return False


def _size(stmts) -> int:
    """Statements in a body, nested ones included."""
    n = 0
    for s in stmts:
        n += 1
        for f in ("then", "body"):
            inner = getattr(s, f, None)
            if isinstance(inner, nodes.Block):
                n += _size(inner.stmts)
        other = getattr(s, "otherwise", None)
        if other is not None:
            n += _size((other,) if type(other) is nodes.If else other.stmts)
        for o in getattr(s, "options", ()) or ():
            if o.body is not None:
                n += _size(o.body.stmts)
    return n


def _returns_in_loop(stmts, in_loop: bool) -> bool:
    for s in stmts:
        t = type(s)
        if t is nodes.Return and in_loop:
            return True
        if t in (nodes.ForEach, nodes.ForSorted, nodes.Repeat, nodes.While) and \
                _returns_in_loop(s.body.stmts, True):
            return True
        if t is nodes.If:
            other = s.otherwise
            if _returns_in_loop(s.then.stmts, in_loop) or (other is not None and _returns_in_loop(
                    (other,) if type(other) is nodes.If else other.stmts, in_loop)):
                return True
        if t is nodes.Choose and any(o.body is not None and _returns_in_loop(o.body.stmts, in_loop)
                                   for o in s.options):
            return True
    return False


def _simple(arg, scope: Scope) -> bool:
    """An argument that can stand for its parameter: a constant or a bound plain local."""
    t = type(arg)
    if t in (nodes.Int, nodes.Str, nodes.Bool):
        return True
    return t is nodes.Name and (arg.name not in scope.names or (
        arg.name in scope.bound and arg.name not in scope.thunks))
