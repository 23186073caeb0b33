"""Statements, run in continuation-passing style: each receives "what happens next" as a
function (`block` memoises them by position, state and continuation when looking ahead), and
procedure calls, removals and the fields a `set` changes.

Mixed into the Interpreter (run/interpreter.py).
"""

from __future__ import annotations

from collections.abc import Callable

from warband.diagnostics import diag
from warband.lang import nodes
from warband.limits import MAX_BRANCHES, MAX_REPEAT
from warband.run import (areas, budget, campaign, carrying, decks, events, flow, merging,
                         roll_labels, situations, spots, toomuch, units)
from warband.run.dice import Dist
from warband.run.errors import NeedsTheGame
from warband.run.evaluate import RulesError, Thunk
from warband.run.interpreter_parts import InterpreterParts
from warband.run.liveness import liveness
from warband.run.merging import MISSING
from warband.run.world import World, set_piece

_GAME_STATEMENTS = (nodes.Activate, nodes.Travel, nodes.Concede, nodes.Deploy, nodes.Place,
                    nodes.TravelClear,   # (moves the rules choose)
                    nodes.PlaceAt,   # (position as a value)
                    nodes.BringBack)   # (back into play)


class Statements(InterpreterParts):
    # ---- statements -------------------------------------------------------------------------------------
    def block(self, stmts, i: int, env: dict, world: World, k: Callable, ret: Callable):
        """Run stmts[i:], then k(env, world); a 'return' calls ret(value, world) instead."""
        if i == len(stmts):
            return k(env, world)
        if self.exact_mode:
            self.branches += 1   # work done, counted with the outcomes drawn: see draw()
            limit = self.max_branches or MAX_BRANCHES
            if self.branches > limit:
                raise RulesError(situations.explain(self, stmts[i], limit))
        if not self.memoise:
            return self._block(stmts, i, env, world, k, ret)
        if self.merging:
            return self._merged(stmts, i, env, world, k, ret)
        keyed = self.last_keyed
        if keyed[0] is world:
            world_key = keyed[1]
        else:
            world_key = world.key()
            self.last_keyed = (world, world_key)
        key = (id(stmts), i, tuple(env.items()), world_key, id(k), id(ret))
        found = self.memo.get(key)
        if found is None:
            found = self.memo[key] = self._block(stmts, i, env, world, k, ret)
        return found

    def _merged(self, stmts, i: int, env: dict, world: World, k: Callable, ret: Callable):
        """block(...) of a run that merges situations (run/merging.py): the future of each
        distinct situation is worked out once."""
        live = self.live_at.get(id(stmts))
        names = live[i] if live is not None else None
        if names is None:
            values = tuple(env.items())
        else:
            get = env.get
            values = tuple([get(n, MISSING) for n in names])
        lazies = world.lazies
        found: set | frozenset
        if lazies:
            deps = self.cont_deps
            found = set(deps.get(id(k), merging.EMPTY))
            found.update(deps.get(id(ret), merging.EMPTY))
            merging.rolls_read(values, found)
            rolls = tuple(sorted([(j, lazies[j]) for j in found]))
        else:
            found, rolls = merging.EMPTY, ()
        keyed = self.last_state
        fighters = world.fighters
        # (the values nothing reads left out while the run gives the result alone: merging.py)
        unread = self.unread if self.valuing or not self.observing else None
        if keyed[0] is fighters and keyed[1] is world.sides and keyed[2] is world.pieces and \
                keyed[4] is unread:
            state = keyed[3]
        else:
            # the state as a number, the same for equal states: a memo key then hashes a small
            # int, not every fighter's values, at each look-up
            found_state = world.state_key() if unread is None else \
                merging.unread_state(world, unread)
            state = self.state_ids.setdefault(found_state, len(self.state_ids))
            self.last_state = (fighters, world.sides, world.pieces, state, unread)
        key = (id(stmts), i, values, state, rolls, id(k), id(ret))
        memo = self.value_memo if self.valuing else self.memo
        found_dist = memo.get(key)
        if found_dist is None:
            if len(lazies) > len(found):   # rolls nothing can read any more: dropped
                world = world.keeping(found)
            cuts = self.cuts
            found_dist = self._block(stmts, i, env, world, k, ret)
            if self.cuts == cuts:   # (a worth from a cut-off decision is a bound: weighing.py)
                memo[key] = found_dist
        return found_dist

    def _after(self, stmt, next_, env: dict, bound: Callable):
        """The continuation of a statement whose value comes back from a call (`let x = p()`,
        `p()`, `let (a, b) = p()`): bound(v, w) goes on with the caller's env; interned by the
        caller's locals the rest can read (all of them, unless merging)."""
        if not self.merging:
            return self.intern((id(stmt), id(next_), tuple(env.items())), bound)
        kept = self.live_after.get(id(stmt), None)
        values = merging.kept_values(kept, env)
        key = (id(stmt), id(next_), values)
        found = self.conts.get(key)
        if found is None:
            found = self.conts[key] = bound
            rolls = set(self.cont_deps.get(id(next_), merging.EMPTY))
            merging.rolls_read(values, rolls)
            if rolls:
                self.cont_deps[id(found)] = frozenset(rolls)
        return found

    def _block(self, stmts, i: int, env: dict, world: World, k: Callable, ret: Callable):
        stmt = stmts[i]
        t = type(stmt)
        # (the commonest statements first, with nothing interned: what follows a `let` of a
        # value that is no procedure's, a `set` no event watches, or a `return`, is called,
        # never kept as a future)
        if t is nodes.Let:
            value = stmt.value
            if type(value) is not nodes.Call or \
                    value.callee.name not in self.ruleset.procedures:
                name = stmt.name.name

                def bound(v, w):
                    return self.block(stmts, i + 1, {**env, name: v}, w, k, ret)
                return self.evaluate(value, env, world, bound)
        elif t is nodes.Set and not self.ruleset.events:
            target = stmt.target
            if len(target) == 1:
                local = target[0].name

                def assigned(v, w):
                    return self.block(stmts, i + 1, {**env, local: v}, w, k, ret)
                return self.evaluate(self._assigned(stmt), env, world, assigned)
            return self.plain(self._assigned(stmt), env, world, lambda v, w: self.block(
                stmts, i + 1, env, self.assign_field(target, v, env, w), k, ret))
        elif t is nodes.Return:
            value = stmt.value
            if value is None:   # a bare `return`: the rule ends, giving nothing
                return ret(None, world)
            if type(value) is nodes.TupleExpr:   # several values: each a plain value
                return self.plain(value, env, world, ret)
            return self.value(value, env, world, ret)

        def next_(env2, world2):
            return self.block(stmts, i + 1, env2, world2, k, ret)

        if self.memoise:
            next_ = self.intern((id(stmts), i + 1, id(k), id(ret)), next_, k, ret)

        match stmt:
            case nodes.Let(name=name, value=value):
                then = self._after(stmt, next_, env,
                                   lambda v, w: next_({**env, name.name: v}, w))
                return self.value(value, env, world, then)
            case nodes.Set(target=target, value=value):
                if len(target) == 1:
                    return self.evaluate(self._assigned(stmt), env, world,
                                         lambda v, w: next_({**env, target[0].name: v}, w))
                if self.ruleset.events and target[-1].name in events.watched_counters(
                        self.ruleset):   # (a counter an event watches: events.py)
                    return self.plain(self._assigned(stmt), env, world, lambda v, w: (
                        events.after_change(self, stmt, env, w,
                                            self.assign_field(target, v, env, w), next_)))
                return self.plain(self._assigned(stmt), env, world,
                                  lambda v, w: next_(env, self.assign_field(target, v, env, w)))
            case nodes.If(condition=cond, then=then, otherwise=otherwise):
                def no(w):
                    if otherwise is None:
                        return next_(env, w)
                    stmts2 = (self.else_block(stmt) if isinstance(otherwise, nodes.If)
                              else otherwise.stmts)
                    return self.block(stmts2, 0, env, w, next_, ret)
                return self.branch(cond, env, world,
                                   lambda w: self.block(then.stmts, 0, env, w, next_, ret), no)
            case nodes.Choose():
                return self.choose(stmt, env, world, next_, ret)
            case nodes.ChooseNumber():
                return self.choose_number(stmt, env, world, next_, ret)
            case nodes.Remove(subject=subject, by=by):
                return self.plain(subject, env, world, lambda ref, w: self.removed_by(
                    by, env, w, lambda who, w2: self.changed(
                        stmt, env, w2, self.remove_now(ref, w2, by=who), next_)))
            case nodes.ForEach(var=var, items=items, body=body):
                cost = budget.turn_cost(self.ruleset, stmt)

                def each(refs, w0):
                    budget.turns(self, refs, stmt, cost)   # (its turns count: budget.py)

                    def loop(j, env2, world2):
                        if j == len(refs):
                            return next_(env2, world2)
                        after = self.intern(("each", id(stmt), j, refs, id(next_), id(ret)),
                                             lambda e, w: loop(j + 1, e, w), next_)
                        return self.block(body.stmts, 0, {**env2, var.name: refs[j]}, world2,
                                          after, flow.loop_ret(self, stmt, j, next_, after, ret))
                    return loop(0, env, w0)
                return self.plain(items, env, world, each)
            case nodes.Repeat(times=times, body=body):
                def repeat(n, w0):
                    if type(n) is not int or n < 0:
                        raise RulesError(diag("E505", f"'repeat' needs a whole number of times "
                                                      f"(0 or more), not {n}", times.span))
                    if n > MAX_REPEAT:
                        raise RulesError(diag("E403", f"'repeat' runs at most {MAX_REPEAT} "
                                                      f"times, not {n}", times.span))
                    # (an exact run counts its turns as branches, and here their calls)
                    cost = budget.turn_cost(self.ruleset, stmt) - self.exact_mode
                    if cost:
                        budget.spend(self, n * cost, times)

                    def loop(j, env2, world2):
                        if j >= n:
                            return next_(env2, world2)
                        after = self.intern(("repeat", id(stmt), j, n, id(next_), id(ret)),
                                             lambda e, w: loop(j + 1, e, w), next_)
                        return self.block(body.stmts, 0, env2, world2, after,
                                          flow.loop_ret(self, stmt, j, next_, after, ret))
                    return loop(0, env, w0)
                return self.plain(times, env, world, repeat)
            case nodes.CallStmt(call=call):
                then = self._after(stmt, next_, env, lambda v, w: next_(env, w))
                return self.value(call, env, world, then)
            case nodes.ForSorted(items=items):
                cost = budget.turn_cost(self.ruleset, stmt)
                return self.plain(items, env, world, lambda refs, w: self._sorted(
                    stmt, budget.turns(self, refs, stmt, cost), env, w, next_, ret))
            case nodes.ChooseAmong():
                return self.choose_among(stmt, env, world, next_, ret)
            # several values at once
            case nodes.ChooseTuple():
                return self.choose_tuple(stmt, env, world, next_, ret)
            case nodes.LetTuple(names=names, value=value):
                def unpack(v, w):
                    return next_({**env, **{n.name: x for n, x in zip(names, v)}}, w)
                if self.merging:   # (its future is a situation's: interned)
                    unpack = self._after(stmt, next_, env, unpack)
                return self.value(value, env, world, unpack)
            case nodes.Withdraw(fighter=fighter, by=by):
                return self.plain(fighter, env, world, lambda ref, w: self.removed_by(
                    by, env, w, lambda who, w2: self.changed(
                        stmt, env, w2, self.remove_now(ref, w2, withdrawn=True, by=who), next_)))
            case nodes.Face(fighter=fighter, towards=towards):   # facing (run/areas.py)
                def turned(ref, w):
                    def then(target, w2):
                        areas.face(self, ref, target, w2)
                        return next_(env, w2)
                    return self.plain(towards, env, w, then)
                return self.plain(fighter, env, world, turned)
            case nodes.Wound():   # units of several models
                return self.plain(stmt.target, env, world, lambda ref, w: self.plain(
                    stmt.amount, env, w, lambda n, w2: self.changed(
                        stmt, env, w2, self.wounded(ref, n, stmt, w2), next_)))
            case nodes.RoundEvents():   # where a round starts or ends (events.py)
                return events.round_events(self, stmt, env, world, next_)
            # carrying pieces (run/carrying.py): the state is the World's, so no game is needed
            case nodes.Carry(piece=piece, fighter=fighter):
                return self.plain(piece, env, world, lambda p, w: self.plain(
                    fighter, env, w, lambda f, w2: next_(
                        env, carrying.pick_up(stmt, p, f, w2, self._piece_log()))))
            case nodes.PutDown(piece=piece):
                return self.plain(piece, env, world,
                                  lambda p, w: next_(env, carrying.put_down(
                                      stmt, p, w, self._piece_log())))
            case nodes.ChooseSpot():   # a spot on the board (run/spots.py)
                return spots.choose_spot(self, stmt, env, world, next_)
            # turn flow (run/flow.py)
            case nodes.While():
                return flow.while_stmt(self, stmt, env, world, next_, ret)
            case nodes.Break() | nodes.Continue():
                return flow.jump(stmt, env, world, ret)
            case nodes.EndTurn():
                return flow.end_turn_stmt(self, stmt, env, world, next_)
            # decks and bags (run/decks.py)
            case nodes.Draw():
                return decks.draw_stmt(self, stmt, env, world, next_)
            case nodes.Discard():
                return decks.discard_stmt(self, stmt, env, world, next_)
            case nodes.Shuffle():
                return decks.shuffle_stmt(self, stmt, env, world, next_)
            # campaigns: in an aftermath (run/campaign.py)
            case nodes.Gear():
                return campaign.gear_stmt(self, stmt, env, world, next_)
            case nodes.Hire():
                return campaign.hire_stmt(self, stmt, env, world, next_)
            case nodes.PutAt(piece=piece, where=where):   # moving a piece
                return self.plain(piece, env, world, lambda p, w: self.plain(
                    where, env, w, lambda at, w2: next_(
                        env, carrying.put_at(stmt, p, at, w2, self, self._piece_log()))))
        return self._game_statement(stmt, env, world, next_)

    def else_block(self, stmt: nodes.If) -> tuple:
        """The one-statement block an `else if` runs as: the same tuple each time (its
        positions key merged situations: run/liveness.py)."""
        return liveness(self.ruleset).else_block(stmt)

    def _piece_log(self):
        """Carrying pieces: the game's log, to tell a piece picked up or put down as it
        happens; not an exact run's (a look-ahead's branches did not happen)."""
        return None if self.exact_mode else self.recorder

    def _sorted(self, stmt: nodes.ForSorted, refs, env, world, next_, ret):
        """for each ... by highest/lowest: the group ordered by a value, ties by the next value
        (if any), and ties of them all keep the group's order."""
        name = stmt.var.name
        parts = ((stmt.highest, stmt.key), *stmt.then)
        fns = [(highest, self.fn(node), node) for highest, node in parts]
        keys = []
        for ref in refs:
            inner = {**env, name: ref}
            values = []
            for highest, fn, node in fns:
                k = fn(inner, world)
                if type(k) is Dist:
                    raise RulesError(diag("E505", "the order depends on a roll that is not made "
                                                  "yet", node.span,
                                          hint="roll first and keep the result in a counter, "
                                               "then order by the counter"))
                values.append(-k if highest else k)
            keys.append(values[0] if len(values) == 1 else tuple(values))
        order = sorted(range(len(refs)), key=keys.__getitem__)
        ordered = tuple(refs[i] for i in order)

        def loop(j, env2, world2):
            if j == len(ordered):
                return next_(env2, world2)
            # interned as `for each` and `repeat` intern theirs: a memo key holds the id of the
            # continuation, and a fresh lambda's id is reused once it is freed (another
            # iteration's, or another fighter's, memoised future)
            after = self.intern(("sorted", id(stmt), j, ordered, id(next_), id(ret)),
                                 lambda e, w: loop(j + 1, e, w), next_)
            return self.block(stmt.body.stmts, 0, {**env2, name: ordered[j]}, world2, after,
                              flow.loop_ret(self, stmt, j, next_, after, ret))
        return loop(0, env, world)

    def _game_statement(self, stmt, env, world, next_):
        """activate, travel, concede, deploy, place, bring back: the engine's part; outside a
        game (the odds of one action) a travel changes nothing and a concession is only
        recorded."""
        if type(stmt) not in _GAME_STATEMENTS:
            raise TypeError(f"unknown statement {stmt!r}")  # pragma: no cover
        if self.game is not None:
            if not self.exact_mode:
                return self.game.statement(stmt, env, world, next_)
            if type(stmt) is not nodes.Concede:   # (a game's look-ahead: see NeedsTheGame)
                raise NeedsTheGame(type(stmt).__name__)
        if type(stmt) is nodes.Travel or type(stmt) is nodes.TravelClear:
            # the distance is still rolled, as it is in a game
            return self.plain(stmt.distance, env, world, lambda v, w: next_(env, w))
        if type(stmt) is nodes.Concede:
            return self.plain(stmt.side, env, world,
                              lambda ref, w: next_(env, w.concede(ref.index)))
        if type(stmt) is nodes.Activate and self.game is None:
            bind = stmt.bind.name if stmt.bind is not None else None

            def activated(ref, w):
                name, w2 = flow.counted_activation(w, ref)
                return next_({**env, bind: name} if bind is not None else env, w2)
            return self.plain(stmt.fighter, env, world, activated)
        word = {nodes.Activate: "activate", nodes.Deploy: "deploy", nodes.Place: "place",
                nodes.PlaceAt: "place", nodes.BringBack: "bring ... back"}.get(
            type(stmt), "this")
        raise RulesError(diag("E506", f"'{word}' needs a game on a board", stmt.span,
                              hint="play it in a scenario: warband play SCENARIO"))

    def _assigned(self, stmt: nodes.Set):
        """The expression a `set` stores: its value, or old-value +/- value for += and -=."""
        if stmt.op == "=":
            return stmt.value
        found = self.synthetic.get(id(stmt))
        if found is None:
            subject: nodes.Expr = nodes.Name(stmt.target[0].name, stmt.target[0].span)
            for part in stmt.target[1:]:
                subject = nodes.Field(subject, part, part.span)
            found = self.synthetic[id(stmt)] = nodes.Binary(stmt.op[0], subject, stmt.value,
                                                          stmt.span)
        return found

    def value(self, expr, env: dict, world: World, then: Callable):
        """Evaluate an expression that may be a procedure call, then continue with its value."""
        if type(expr) is nodes.Call and expr.callee.name in self.ruleset.procedures:
            return self.call_procedure(expr, env, world, then)
        return self.evaluate(expr, env, world, then)

    def call_procedure(self, call: nodes.Call, env: dict, world: World, then: Callable):
        decl = self.ruleset.procedures[call.callee.name]
        params = decl.params
        if self.game is not None and not self.exact_mode and self.compiled and \
                not self.policies.per_side and (self.recorder is None or not self.recorder.record) \
                and not self.game.positions and all(type(a) is not nodes.Dice for a in call.args):
            # a game's phases, called from a scenario's blocks: run through the generated code
            values = [self.fn(a)(env, world) for a in call.args]
            if not any(type(v) is Dist for v in values):
                # lazily: only a run that samples needs the generated code (validate never)
                from warband.run.codegen import hooks as codegen
                done = codegen.sample(self, call.callee.name,
                                      {p.name.name: v for p, v in zip(params, values)}, world)
                if done is not None:
                    return then(*done)

        def enter(values, w):
            inner = {p.name.name: v for p, v in zip(params, values)}
            for p in params[len(values):]:
                inner[p.name.name] = self.fn(p.default)(dict(inner), w)
            if self.recorder is not None and self.recorder.record and not self.exact_mode:
                if decl.kind == "phase":   # a header in the game's log
                    self.recorder.phase(decl.name.name, roll_labels.roller(values, w))
                else:   # a step on someone other than the fighter acting (a blast's others)
                    roll_labels.called(self.recorder, decl, values, self.acting_with, w)
            end = self.intern(("end", id(decl), id(then)),
                               lambda e, w2: self.fell_off(decl, w2, then), then)
            return self.block(decl.body.stmts, 0, inner, w, end, then)

        def argument(i, values, w):
            if i == len(call.args):
                return enter(values, w)
            arg = call.args[i]
            if i < len(params) and params[i].type is not None and params[i].type.name == "dice":
                # by name: each use in the callee rolls again; rolls it reads are fixed first
                fn = self.fn(arg)
                if self.recorder is not None and self.recorder.record and not self.exact_mode:
                    fn = roll_labels.labelled(self, fn, arg, values, w)   # (for the log)
                return self.split(self.live(arg, env, w), w, lambda w2: argument(
                    i + 1, values + [Thunk(fn, arg, env)], w2))
            return self.evaluate(arg, env, w, lambda v, w2: argument(i + 1, values + [v], w2))

        return argument(0, [], world)

    def chooser(self):
        """Who picks the models that fall when a unit's casualties are its owner's choice:
        the game's players in a sampled run; in exact odds, and outside a game, nobody (the
        farthest first: run/places.py)."""
        game = self.game
        return game.casualties if game is not None and not self.exact_mode else None

    def wounded(self, ref, amount, stmt, world: World) -> World:
        """`inflict N wounds on U`, told to a recorded game's log as it happens: the wounds
        left on the model hit, and whether it fell (its losses are told after the action)."""
        after = units.inflict(world, ref, amount, stmt, self.acting, self.chooser())
        if self.recorder is not None and self.recorder.record and not self.exact_mode:
            roll_labels.wounds(self.recorder, ref, world, after)
        return after

    def changed(self, stmt, env: dict, before: World, after: World, next_):
        """Go on after a statement that may set off events (a removal, a counter changed):
        the events first, when the rules have any (run/events.py)."""
        if not self.ruleset.events:
            return next_(env, after)
        return events.after_change(self, stmt, env, before, after, next_)

    def removed_by(self, by, env: dict, world: World, then):
        """Who a `remove` or `withdraw` says removes: its `by`, else the fighter whose action
        is running (None in a phase of the turn)."""
        if by is None:
            return then(self.acting, world)
        return self.plain(by, env, world, then)

    def remove_now(self, ref, world: World, withdrawn: bool = False, by=None) -> World:
        """`remove` and `withdraw`: out of play, told to a recorded game's log as it happens."""
        after = world.remove(ref, withdrawn=withdrawn, by=by)
        if self.campaign is not None and not withdrawn:   # struck off its warband
            self.campaign.struck.add(ref.index)
        if self.recorder is not None and self.recorder.record and not self.exact_mode:
            roll_labels.removed(self.recorder, ref, world, after)
        return after

    def assign_field(self, target, value, env: dict, world: World) -> World:
        subject = env.get(target[0].name)
        if subject is None:   # a scenario's side, by its name
            subject = self.global_value(target[0].name)(world)
        for part in target[1:-1]:
            subject = self.field(subject, part.name, world)
        if subject.kind == "side":
            name = self.side_fields[target[-1].name.lower()]
        elif subject.kind == "piece":   # a piece's holder, flags and counters
            log = self._piece_log()   # (told as it happens: what changed before, then this)
            if log is not None and log.record:
                log.pieces(world)
            after = set_piece(world, subject, target[-1].name, value)
            if log is not None and log.record:
                log.pieces(after)
            return after
        else:
            name = self.fighter_fields[target[-1].name.lower()][1]
        after = world.set(subject, name, value)
        if self.recorder is not None and self.recorder.record and not self.exact_mode:
            roll_labels.changed(self.recorder, subject, target[-1].name, name, world, after)
        return after
