"""The interpreter's entry points: the exact odds of a procedure, one sampled run (through the
generated code when it can), whether a `requires` holds, a nested run inside a game, and the
continuation-passing run they all start (`run_cps`).

Mixed into the Interpreter (run/interpreter.py).
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from fractions import Fraction

from warband.diagnostics import diag
from warband.limits import MAX_REPEAT
from warband.run import budget, events, members, merging, toomuch
from warband.run.liveness import liveness
from warband.run.dice import Dist, TooLarge
from warband.run.evaluate import LazyRef, RulesError, as_dist
from warband.run.interpreter_parts import InterpreterParts
from warband.run.world import Ref, World

# the steps and outcomes an exact run may take path by path, unmerged, before it is run again
# merging (EntryPoints.exact): the SSS attack takes at most 44, a Mordheim duel thousands (a run
# that needs merging pays a few hundred microseconds for the try)
PLAIN_STEPS = 64


class EntryPoints(InterpreterParts):
    # ---- entry points ------------------------------------------------------------------------------
    def exact(self, procedure: str, args: dict, world: World,
              observe: Callable | None = None) -> Dist:
        """The exact distribution of a procedure's result, decisions filled by the policies.

        With `observe`, the outcomes are pairs (result, observe(world after)): what else the
        action changed, such as damage taken or tokens spent.
        """
        self.exact_mode = True
        self.branches = self.drawn = 0
        self.rolled = {}
        self.observing = observe is not None

        def done(value, world):
            result = world.lazies[value.id] if type(value) is LazyRef else Dist.point(value)
            if self.valuing:   # (a greedy decision weighing an option: its expected score)
                return result.mean_of(self.result_score)
            if observe is None:
                return result
            seen = observe(world)
            return result.map(lambda v: (v, seen))
        try:
            if self._plain_first():
                found = self._plain_run(procedure, args, world, done)
                if found is not None:
                    return found
                self.branches = self.drawn = 0
                self.rolled = {}
            return as_dist(self.run_cps(procedure, args, world, done))
        finally:
            self.observing = self.valuing = False

    def _plain_first(self) -> bool:
        """Whether an exact run is first tried path by path, unmerged (run/merging.py): when
        it merges (no game's budget, no probing, no events inside rules), weighs no decision
        (greedy and random look ahead: their futures are memoised) and counts no one's work (a
        game's). A small action (a few dozen paths) is done before a merged run has built
        its keys."""
        return self.plain_first and self.merge and self.max_branches is None and \
            not self.probing and \
            not self.policies.looks_ahead() and not self.in_sampled_run and \
            not self.counting and not events.watched(self.ruleset)

    def _plain_run(self, procedure, args: dict, world: World, done: Callable):
        """The exact distribution followed path by path within PLAIN_STEPS steps and outcomes,
        or None when that is not enough (or the run fails: the merged run then says how). The
        same fractions as merging gives (tests/test_merging.py)."""
        most, self.max_branches = self.max_branches, PLAIN_STEPS
        try:
            return as_dist(self.run_cps(procedure, args, world, done))
        except RulesError:
            return None
        finally:
            self.max_branches = most

    def sample(self, procedure: str, args: dict, world: World) -> tuple[object, World]:
        """One seeded run: the result and the world after it."""
        self.exact_mode = False
        self.branches = self.drawn = 0
        if self.compiled:
            # lazily: only a run that samples needs the generated code (validate never)
            from warband.run.codegen import hooks as codegen
            done = codegen.sample(self, procedure, args, world)
            if done is not None:
                return done
        return self.run_cps(procedure, args, world, self.top_return)

    def sampler(self, procedure: str) -> Callable:
        """A procedure made ready to be sampled many times: run(world, *arguments, in the
        order the procedure declares them) -> (value, world after), the same as
        sample(procedure, {name: argument}, world), with less work per run."""
        names = [p.name.name for p in self.ruleset.procedures[procedure].params]
        # lazily: only a run that samples needs the generated code (validate never)
        from warband.run.codegen import hooks as codegen
        run = codegen.sampler(self, procedure) if self.compiled else None
        return run or (lambda world, *args: self.sample(procedure, dict(zip(names, args)),
                                                        world))

    def top_return(self, value, world):
        if self.exact_mode:  # a greedy look-ahead inside a sampled run
            return world.lazies[value.id] if type(value) is LazyRef else Dist.point(value)
        return value, world

    def allowed(self, procedure: str, args: dict, world: World) -> bool:
        """Whether an action's 'requires' holds for these arguments."""
        decl = self.ruleset.procedures[procedure]
        if decl.requires is None:
            return True
        if self.compiled:
            # lazily: only a run that samples needs the generated code (validate never)
            from warband.run.codegen import hooks as codegen
            done = codegen.allowed(self, procedure, args, world)
            if done is not None:
                return done
        return self.holds(decl, args, world)

    def holds(self, decl, args: dict, world: World) -> bool:
        """Whether a declaration's `requires` holds, asked of the interpreter."""
        result = self.fn(decl.requires)(self._bind_params(decl, args, world), world)
        return result is True or (type(result) is Dist and result[True] == 1)

    def requirement_env(self, decl, args: dict, world: World) -> dict:
        """The names a declaration's `requires` reads (its parameters, defaults filled in), to
        ask the parts of it one by one (why `warband odds` refuses an action)."""
        return self._bind_params(decl, args, world)

    def call(self, name: str, args: list, e=None, world: World | None = None):
        """The value of a table or definition for plain arguments."""
        return self.fn.call(e, name, [lambda env, world, v=v: v for v in args])({}, world)

    # ---- the position in a run, for a game that resumes it (game/state.py) -------------------------
    def run_context(self) -> tuple:
        """What a continuation of a sampled run expects of the interpreter when it is called:
        the run's mode and its counters, the side and score of its procedure, the fighter
        acting and how deep in actions it is, the events whose rules are running there
        (run/events.py). A game keeps it with each frame of the turn, and puts it back when a
        look-ahead plays on from there (enter_context)."""
        return (self.exact_mode, self.observing, self.actor_side, self.score, self.branches,
                self.drawn, self.memoise, self.acting, self.acting_with, self.in_action,
                self.roller, frozenset(self.events_running))

    def enter_context(self, context: tuple) -> None:
        (self.exact_mode, self.observing, self.actor_side, self.score, self.branches,
         self.drawn, self.memoise, self.acting, self.acting_with, self.in_action,
         self.roller, running) = context
        self.events_running = set(running)

    def run_nested(self, decl, args: dict, world: World, exact: bool = False,
                   observe: Callable | None = None):
        """Run a procedure (or a scenario's block) from inside a running game: a sampled run
        giving (result, world), or the exact distribution; the caller's run then goes on as
        before, whatever this one changed in the interpreter's own state."""
        saved = (self.exact_mode, self.observing, self.actor_side, self.score, self.branches,
                 self.drawn, getattr(self, "memoise", False), self.merging, self.valuing,
                 self.result_score)
        try:
            if not exact:
                self.exact_mode = False
                self.branches = self.drawn = 0
                name = decl.name.name
                block = self.blocks.get(name)
                if self.compiled and (self.ruleset.procedures.get(name) is decl or
                                      block is decl) and not self.policies.per_side and (
                            self.recorder is None or not self.recorder.record) and (
                            self.game is None or not self.game.positions) and \
                        (self.campaign is None or not self.campaign.watch):
                    # (an aftermath that can strike a fighter off: interpreted, to see it)
                    # the fast way, when it can
                    # lazily: only a run that samples needs the generated code (validate never)
                    from warband.run.codegen import hooks as codegen
                    done = codegen.sample(self, name, args, world, block)
                    if done is not None:
                        return done
                return self.run_cps(decl, args, world, self.top_return)
            self.exact_mode, self.observing = True, observe is not None
            self.branches = self.drawn = 0
            self.rolled = {}
            self.valuing = False

            def done(value, w):
                result = w.lazies[value.id] if type(value) is LazyRef else Dist.point(value)
                if self.valuing:   # (a greedy decision weighing an option)
                    return result.mean_of(self.result_score)
                return result if observe is None else result.map(lambda v: (v, observe(w)))
            return as_dist(self.run_cps(decl, args, world, done))
        finally:
            (self.exact_mode, self.observing, self.actor_side, self.score, self.branches,
             self.drawn, self.memoise, self.merging, self.valuing, self.result_score) = saved

    def run_cps(self, procedure, args: dict, world: World, done: Callable):
        decl = self.ruleset.procedures[procedure] if type(procedure) is str else procedure
        first = decl.params[0].name.name if decl.params else None
        actor = args.get(first)
        if isinstance(actor, Ref):
            self.actor_side = world.fighter(actor).side if actor.kind == "fighter" else actor.index
        self.score = self.result_score = self.scorer(decl)
        if self.observing:
            result_score = self.score
            self.score = lambda pair: result_score(pair[0])
        # exact odds merge equal situations (run/merging.py), but in a game's look-ahead
        # (its budget, max_branches, is counted as before) and while probing for the
        # decisions made before any roll (strategy.py: that depends on the path)
        # (nor in rules with events inside rules: an event's block is no procedure the liveness
        # analysis knows, run/events.py)
        self.merging = self.exact_mode and self.merge and self.max_branches is None and \
            not self.probing and not events.watched(self.ruleset)
        self.memoise = self.merging or (self.exact_mode and self.policies.looks_ahead())
        unread = self.unread
        self.unread = None
        if self.merging:
            analysis = liveness(self.ruleset)
            self.live_at, self.live_after = analysis.at, analysis.after
            named = getattr(decl, "name", None)   # (a scenario's block is no procedure)
            if self.forget and named is not None and \
                    self.ruleset.procedures.get(named.name) is decl:
                found = merging.unread_fields(self.ruleset, named.name)
                self.unread = found if found[0] or found[1] else None
        env = self._bind_params(decl, args, world)
        old = sys.getrecursionlimit()
        sys.setrecursionlimit(max(old, 20_000))
        memo, conts, deps, values = self.memo, self.conts, self.cont_deps, self.value_memo
        self.memo, self.conts, self.cont_deps, self.value_memo = {}, {}, {}, {}
        # (a state's number is this run's: the last one kept is another run's)
        states, last_state = self.state_ids, self.last_state
        self.state_ids, self.last_state = {}, (None, None, None, None, None)
        running, self.running = self.running, decl   # (what E504 names calls from)
        weighing = (self.cutoff, self.cuts, self.killers)   # (run/weighing.py)
        self.cutoff, self.cuts, self.killers = None, 0, {}
        counted = budget.open_count(self)
        try:
            end = self.intern(("end", id(decl), id(done)),
                               lambda env, world: self.fell_off(decl, world, done))
            return self.block(decl.body.stmts, 0, env, world, end, done)
        except TooLarge as error:   # (an expression's own is placed there: LazyRolls)
            raise RulesError(toomuch.combined_too_large(error, decl, decl.name.span)) from None
        except RecursionError:
            raise RulesError(diag(
                "E403", f"'{decl.name.name}' goes too deep to run: too many steps one after "
                        "another (long loops, or procedures calling procedures)", decl.name.span,
                hint=f"repeat fewer times (at most {MAX_REPEAT} in one loop)")) from None
        finally:
            sys.setrecursionlimit(old)
            self.memo, self.conts, self.cont_deps, self.value_memo = memo, conts, deps, values
            self.state_ids, self.last_state = states, last_state
            self.running = running
            self.cutoff, self.cuts, self.killers = weighing
            self.unread = unread
            budget.close_count(self, counted)

    def intern(self, key, make, *within):
        """One continuation object per distinct future (needed only when memoising); when
        merging, it reads the rolls that the continuations `within` it read (run/merging.py)."""
        if not self.memoise:
            return make
        found = self.conts.get(key)
        if found is None:
            found = self.conts[key] = make
            if self.merging and within:
                deps = self.cont_deps
                rolls = merging.EMPTY
                for c in within:
                    more = deps.get(id(c))
                    if more:
                        rolls = rolls | more
                if rolls:
                    deps[id(found)] = rolls
        return found

    def _bind_params(self, decl, args: dict, world: World | None = None) -> dict:
        env = {}
        for p in decl.params:
            if p.name.name in args:
                env[p.name.name] = args[p.name.name]
            elif p.default is not None:
                env[p.name.name] = self.fn(p.default)(dict(env), world)
            else:
                raise RulesError(diag("E301", f"'{decl.name.name}' needs a value for "
                                              f"'{p.name.name}'", p.span,
                                      hint=members.missing_hint(self.ruleset, p)))
        return env

    def fell_off(self, decl, world, ret):
        if decl.result is not None:
            raise RulesError(diag("E503", f"'{decl.name.name}' ended without a result",
                                  decl.name.span))
        return ret(None, world)

    def scorer(self, decl) -> Callable:
        """What a result is worth to the acting side, for the greedy policy."""
        if decl.result is not None and decl.result.name in self.ruleset.outcomes:
            scores = dict(self.ruleset.outcomes[decl.result.name].scores)
            return lambda v: scores.get(v, 0)
        return lambda v: v if isinstance(v, (int, Fraction)) and not isinstance(v, bool) else (
            1 if v is True else 0)
