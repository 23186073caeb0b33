"""Runs compiled rules, exactly or by sampling, from the very same AST.

Statements run in continuation-passing style: each statement receives "what happens next" as a
function. In sampling mode a roll gives one seeded value and the code follows one path. In exact
mode a roll gives a distribution, kept whole (a LazyRef) until a rule asks a question of it: an
`if` then splits it into the outcomes for which the answer is yes and those for which it is no,
and follows each with its probability. Because the rest of the rule is a function, a decision can
look ahead: the greedy policy runs each option's future exactly and keeps the best (expectimax).

Rules are total by construction (the checker rejects recursion; loops are bounded), so every
evaluation ends.
"""

from __future__ import annotations

import random
import sys
from fractions import Fraction
from typing import TYPE_CHECKING, Callable

from warband.diagnostics import diag
from warband.lang import nodes
from warband.lang.absence import means_nobody
from warband.lang.ruleset import Ruleset
from warband.lang.units import UNIT_FIELDS
from warband.limits import MAX_BRANCHES, MAX_REPEAT
from warband.run import (
    areas,
    budget,
    carrying,
    dice,
    members,
    pools,
    roll_labels,
    spots,
    toomuch,
    units,
)
from warband.run.codegen import program as codegen
from warband.run.codegen.expr import reads_only_arguments
from warband.run.decisions import POLICIES, Decisions, Policies
from warband.run.dice import Dist
from warband.run.evaluate import (
    COMPARE,
    MISSING,
    Compiler,
    LazyRef,
    Record,
    RulesError,
    Thunk,
    as_dist,
    read_field,
)
from warband.run.world import (
    FIGHTER_REFS,
    PIECE_REFS,
    SIDE_REFS,
    Ref,
    World,
    piece_fields,
    set_piece,
)

if TYPE_CHECKING:
    from warband.run.host import GameHost


_GAME_STATEMENTS = (nodes.Activate, nodes.Travel, nodes.Concede, nodes.Deploy, nodes.Place,
                    nodes.TravelClear,   # (moves the rules choose)
                    nodes.PlaceAt)   # (position as a value)

__all__ = ["Interpreter", "Policies", "RulesError", "POLICIES", "Record"]


def _bind(value, then: Callable):
    """Continue with a value; when it is a distribution, with each of its outcomes."""
    if type(value) is Dist:
        if len(value) == 1:
            return then(value.only())
        return Dist.mixture((p, as_dist(then(v))) for v, p in value.items())
    return then(value)


class Interpreter(Decisions):
    def __init__(self, ruleset: Ruleset, policies: Policies | None = None,
                 rng: random.Random | None = None, compiled: bool = True,
                 choice_rng: random.Random | None = None) -> None:
        self.ruleset = ruleset
        # Sampled runs and 'requires' go through rules translated to Python (codegen.py) unless
        # compiled=False; exact runs, look-ahead and probing always run here.
        self.compiled = compiled
        self.programs: dict = {}   # the run's policy -> codegen.program_for(self, policy)
        self.policies = policies or Policies()
        self.rng = rng or random.Random(0)
        # Random choices draw from their own stream, so that a replay whose decisions come from
        # a script sees exactly the same dice as the game it replays. (Its seed is drawn from
        # the dice even when the caller gives the stream, a game its own: the dice stay the
        # same, and a game makes no Random it throws away.)
        seed = self.rng.random()
        self.choice_rng = random.Random(seed) if choice_rng is None else choice_rng
        self.exact_mode = True
        # MAX_BRANCHES when None; a game's look-ahead sets a smaller budget
        self.max_branches: int | None = None
        self.observing = False
        self.actor_side = 0
        self.score: Callable = lambda v: 0
        self.branches = 0
        # the rolls drawn in exact mode: id(roll node) -> [node, times drawn, outcomes drawn],
        # read only to say which roll made the work explode (E504: run/toomuch.py)
        self.rolled: dict = {}
        # a recorded game: what the `dice` argument rolling now is for, and who rolls it
        # (run/roll_labels.py); None otherwise
        self.roll_context: tuple | None = None
        self.steps = 0               # work done by this evaluation: see budget.py
        self.in_sampled_run = False   # inside a run of generated code (a nested run shares
        #                               its budget)
        self.counting = 0             # 1 inside another evaluation whose work is counted
        self.uniform: str | None = None   # the policy of every decision of that run, if one is
        self.drawn = 0   # rolls made in this run (a decision before any is made up front)
        self.fn = Compiler(self)
        # Exact evaluation memoises block(...) by code position, state and continuation; the
        # continuations are interned so that equal futures are the same object (and id).
        self.memo: dict = {}
        self.conts: dict = {}
        # whether block(...) memoises now (run_cps sets it; a procedure that generated code
        # leaves to the interpreter may run before any run_cps: rt.interpreted)
        self.memoise = False
        # the last World whose key a memo key took, and that key: statements in a row mostly
        # share their World, and its key walks every fighter (a World never changes, and only
        # Worlds are memoised: a Draft has no key)
        self._keyed: tuple = (None, None)
        self.synthetic: dict = {}
        self.tables: dict = {}        # (table, arguments) -> row, for tables in pure_tables
        self.pure_tables: dict = {}   # id of a table -> whether it reads only its arguments
        self.derived: dict = {}   # a derived stat's name -> (fighter's name, value, condition)
        fields: dict[str, tuple[str, str]] = {}
        for name, stat in ruleset.stats.items():
            fields[name.lower()] = ("derived" if stat.derived is not None else "value", name)
        for name, state in ruleset.states.items():
            if state.owner == "fighter":
                fields[name.lower()] = ("value", name)
        for name in ruleset.traits:
            fields[name.lower()] = ("trait", name)
        if ruleset.has_units:   # units of several models: their values, unless a name is declared
            for name, key in UNIT_FIELDS.items():
                fields.setdefault(name, ("value", key))
        self.fighter_fields = fields
        self.side_fields = {n.lower(): n for n, s in ruleset.states.items() if s.owner == "side"}
        self.piece_fields = piece_fields(ruleset)   # pieces as values: their fields' names

    # ---- the game around the rules ------------------------------------------------------------------
    game: GameHost | None = None   # set by the engine (game/engine.py) while a game is played
    blocks: dict = {}   # a game's setup, round and aftermath, by their names (game/engine.py)

    def global_value(self, name: str):
        """A name that means something in play: every side, every fighter in play, or a side of
        the scenario."""
        if name == "sides":
            return lambda world: tuple(SIDE_REFS[i] for i in range(len(world.sides)))
        if name == "fighters":   # every fighter in play, of every side, in the World's order
            return lambda world: tuple(FIGHTER_REFS[i] for i, f in enumerate(world.fighters)
                                       if not f.removed)
        if means_nobody(self.ruleset, name):   # no side, no fighter (lang/absence.py)
            return lambda world: None
        scenario = self.ruleset.scenario
        if scenario is not None:
            for i, side in enumerate(scenario.sides):
                if side.name.name == name:
                    ref = Ref("side", i)
                    return lambda world: ref
        return None

    def board_question(self, name: str, args: list, world: World):
        return getattr(self, "q_" + name)(*args, world)

    # The board's answers without a board: in reach, in sight, so that odds keep working. A
    # game puts its own (questions.Questions) in their place on its interpreter.
    def q_distance(self, a, b, world):
        return 0

    def q_sees(self, a, b, world):
        return True

    def q_obscured(self, a, b, world):
        return False

    def q_contact(self, a, b, world):
        return True

    def q_engaged(self, a, world):
        return False

    def q_carriers(self, a, piece, world):   # (no board question: the World answers it)
        return units.carriers(world, a, piece)

    # areas and templates, facing (run/areas.py): without a board an area holds the fighter it
    # is placed on or aimed at, and a fighter faces every other. A game on a board puts its own
    # in their place (game/facing.py), and keeps the fighters' facing in `facing`.
    facing = None

    def q_square(self, *args):
        return areas.make("square", args[:-1], args[-1], False)

    def q_circle(self, *args):
        return areas.make("circle", args[:-1], args[-1], False)

    def q_cone(self, *args):
        return areas.make("cone", args[:-1], args[-1], False)

    def q_line(self, *args):
        return areas.make("line", args[:-1], args[-1], False)

    def q_in_front(self, *args):
        if len(args) > 3:   # an arc worked out while the rules run is checked as on a board
            areas.check_size(args[2], "a facing arc", 360)
        return True

    def q_in_rear(self, *args):
        if len(args) > 3:
            areas.check_size(args[2], "a facing arc", 360)
        return False

    # pieces as values: without a board there are none
    def q_pieces(self, kind, world):   # (without a board: the pieces fighters carry, if any)
        return tuple(PIECE_REFS[i] for i, p in enumerate(world.pieces) if p.kind == kind)

    # moves the rules choose: without a board, everyone stands where the rules need them
    def q_inside(self, a, zone, world):
        return True

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
            if observe is None:
                return result
            seen = observe(world)
            return result.map(lambda v: (v, seen))
        try:
            return as_dist(self.run_cps(procedure, args, world, done))
        finally:
            self.observing = False

    def sample(self, procedure: str, args: dict, world: World) -> tuple[object, World]:
        """One seeded run: the result and the world after it."""
        self.exact_mode = False
        self.branches = self.drawn = 0
        if self.compiled:
            done = codegen.sample(self, procedure, args, world)
            if done is not None:
                return done
        return self.run_cps(procedure, args, world, self.top_return)

    def sampler(self, procedure: str) -> Callable:
        """A procedure made ready to be sampled many times: run(world, *arguments, in the
        order the procedure declares them) -> (value, world after), the same as
        sample(procedure, {name: argument}, world), with less work per run."""
        names = [p.name.name for p in self.ruleset.procedures[procedure].params]
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

    def run_nested(self, decl, args: dict, world: World, exact: bool = False,
                   observe: Callable | None = None):
        """Run a procedure (or a scenario's block) from inside a running game: a sampled run
        giving (result, world), or the exact distribution; the caller's run then goes on as
        before, whatever this one changed in the interpreter's own state."""
        saved = (self.exact_mode, self.observing, self.actor_side, self.score, self.branches,
                 self.drawn, getattr(self, "memoise", False))
        try:
            if not exact:
                self.exact_mode = False
                self.branches = self.drawn = 0
                name = decl.name.name
                block = self.blocks.get(name)
                if self.compiled and (self.ruleset.procedures.get(name) is decl or
                                      block is decl) and not self.policies.by_side and (
                            self.recorder is None or not self.recorder.record):
                    # the fast way, when it can
                    done = codegen.sample(self, name, args, world, block)
                    if done is not None:
                        return done
                return self.run_cps(decl, args, world, self.top_return)
            self.exact_mode, self.observing = True, observe is not None
            self.branches = self.drawn = 0
            self.rolled = {}

            def done(value, w):
                result = w.lazies[value.id] if type(value) is LazyRef else Dist.point(value)
                return result if observe is None else result.map(lambda v: (v, observe(w)))
            return as_dist(self.run_cps(decl, args, world, done))
        finally:
            (self.exact_mode, self.observing, self.actor_side, self.score, self.branches,
             self.drawn, self.memoise) = saved

    def run_cps(self, procedure, args: dict, world: World, done: Callable):
        decl = self.ruleset.procedures[procedure] if type(procedure) is str else procedure
        first = decl.params[0].name.name if decl.params else None
        actor = args.get(first)
        if isinstance(actor, Ref):
            self.actor_side = world.fighter(actor).side if actor.kind == "fighter" else actor.index
        self.score = self.scorer(decl)
        if self.observing:
            result_score = self.score
            self.score = lambda pair: result_score(pair[0])
        self.memoise = self.exact_mode and self.policies.looks_ahead()
        env = self._bind_params(decl, args, world)
        old = sys.getrecursionlimit()
        sys.setrecursionlimit(max(old, 20_000))
        memo, conts = self.memo, self.conts
        self.memo, self.conts = {}, {}
        counted = budget.open_count(self)
        try:
            end = self._intern(("end", id(decl), id(done)),
                               lambda env, world: self.fell_off(decl, world, done))
            return self.block(decl.body.stmts, 0, env, world, end, done)
        except RecursionError:
            raise RulesError(diag(
                "E403", f"'{decl.name.name}' goes too deep to run: too many steps one after "
                        "another (long loops, or procedures calling procedures)", decl.name.span,
                hint=f"repeat fewer times (at most {MAX_REPEAT} in one loop)")) from None
        finally:
            sys.setrecursionlimit(old)
            self.memo, self.conts = memo, conts
            budget.close_count(self, counted)

    def _intern(self, key, make):
        """One continuation object per distinct future (needed only when memoising)."""
        if not self.memoise:
            return make
        found = self.conts.get(key)
        if found is None:
            found = self.conts[key] = make
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

    # ---- lazy rolls ---------------------------------------------------------------------------------
    def live(self, expr, env: dict, world: World) -> list[int]:
        """The lazy rolls an expression reads that still have more than one outcome."""
        if not world.lazies:
            return []
        found = []
        for name in self.fn.names_of(expr):
            v = env.get(name)
            if type(v) is LazyRef and len(world.lazies[v.id]) > 1 and v.id not in found:
                found.append(v.id)
        return found

    def split(self, ids, world: World, then: Callable):
        """Follow every outcome of the given lazy rolls: then(world) with each fixed."""
        if not ids:
            return then(world)
        first, rest = ids[0], ids[1:]
        return Dist.mixture(
            (p, as_dist(self.split(rest, world.with_lazy(first, Dist.point(v)), then)))
            for v, p in world.lazies[first].items())

    def evaluate(self, expr, env: dict, world: World, then: Callable):
        """A statement's value: then(value, world). A roll read by the expression is split first;
        a new roll stays whole, as a LazyRef, until something asks about it."""
        if type(expr) is nodes.Name and type(env.get(expr.name)) is LazyRef:
            return then(env[expr.name], world)
        fn = self.fn(expr)
        if self.memoise:
            # Looking ahead re-runs futures from equal states; a roll kept whole would make
            # states differ by rolls no longer used, so here every roll is split at once.
            return _bind(fn(env, world), lambda v: then(v, world))

        def go(world2):
            v = fn(env, world2)
            if type(v) is Dist:
                if len(v) == 1:
                    return then(v.only(), world2)
                lazy, world3 = world2.add_lazy(v)
                return then(LazyRef(lazy), world3)
            return then(v, world2)
        return self.split(self.live(expr, env, world), world, go)

    def plain(self, expr, env: dict, world: World, then: Callable):
        """A statement's value as plain values: then(value, world) once per outcome."""
        fn = self.fn(expr)
        return self.split(self.live(expr, env, world), world,
                          lambda w: _bind(fn(env, w), lambda v: then(v, w)))

    def branch(self, cond, env: dict, world: World, yes: Callable, no: Callable):
        """Follow yes(world) where cond holds and no(world) where it does not."""
        ids = self.live(cond, env, world)
        fn = self.fn(cond)
        if len(ids) != 1:
            return self.plain(cond, env, world, lambda c, w: (yes if c else no)(w))
        # One roll decides: split it by the answer, not by its faces. The condition is asked of
        # each face by putting the face in place of the names that hold the roll.
        lazy = ids[0]
        ref = LazyRef(lazy)
        holders = [n for n in self.fn.names_of(cond) if env.get(n) == ref]
        test = self._threshold(cond, holders, env, world)
        dist = world.lazies[lazy]
        if test is None:
            trial = dict(env)
            answers = {}
            for v in dist:
                for n in holders:
                    trial[n] = v
                answers[v] = fn(trial, world)
            if any(type(a) is Dist for a in answers.values()):
                return self._branch_mixed(lazy, dist, answers, world, yes, no)
            test = answers.__getitem__
        p_yes, dist_yes, p_no, dist_no = dist.partition(test)
        parts = []
        if dist_yes is not None:
            parts.append((p_yes, as_dist(yes(world.with_lazy(lazy, dist_yes)))))
        if dist_no is not None:
            parts.append((p_no, as_dist(no(world.with_lazy(lazy, dist_no)))))
        return parts[0][1] if len(parts) == 1 else Dist.mixture(parts)

    @staticmethod
    def _branch_mixed(lazy, dist, answers, world, yes, no):
        """A condition that also rolls dice of its own: weigh each face by its chance."""
        true_part, false_part = {}, {}
        for v, p in dist.items():
            a = answers[v]
            t = a[True] if type(a) is Dist else (1 if a else 0)
            if t:
                true_part[v] = p * t
            if t != 1:
                false_part[v] = p * (1 - t)
        parts = []
        for weights, follow in ((true_part, yes), (false_part, no)):
            if weights:
                total = sum(weights.values())
                sub = Dist({v: q / total for v, q in weights.items()})
                parts.append((total, as_dist(follow(world.with_lazy(lazy, sub)))))
        return parts[0][1] if len(parts) == 1 else Dist.mixture(parts)

    def _threshold(self, cond, holders, env, world):
        """For the common `roll OP expression`, a test of one face against the expression's
        value, computed once; None for any other condition."""
        if type(cond) is not nodes.Compare or len(holders) != 1:
            return None
        left, right = cond.left, cond.right
        op = COMPARE[cond.op]
        if type(left) is nodes.Name and left.name == holders[0] and \
                holders[0] not in self.fn.names_of(right):
            bound = self.fn(right)(env, world)
            if type(bound) is not Dist:
                return lambda v: op(v, bound)
        if type(right) is nodes.Name and right.name == holders[0] and \
                holders[0] not in self.fn.names_of(left):
            bound = self.fn(left)(env, world)
            if type(bound) is not Dist:
                return lambda v: op(bound, v)
        return None

    # ---- statements -------------------------------------------------------------------------------------
    def block(self, stmts, i: int, env: dict, world: World, k: Callable, ret: Callable):
        """Run stmts[i:], then k(env, world); a 'return' calls ret(value, world) instead."""
        if i == len(stmts):
            return k(env, world)
        if self.exact_mode:
            self.branches += 1   # work done, counted with the outcomes drawn: see draw()
            limit = self.max_branches or MAX_BRANCHES
            if self.branches > limit:
                raise RulesError(toomuch.explain(self, stmts[i], limit))
        if not self.memoise:
            return self._block(stmts, i, env, world, k, ret)
        keyed = self._keyed
        if keyed[0] is world:
            world_key = keyed[1]
        else:
            world_key = world.key()
            self._keyed = (world, world_key)
        key = (id(stmts), i, tuple(env.items()), world_key, id(k), id(ret))
        found = self.memo.get(key)
        if found is None:
            found = self.memo[key] = self._block(stmts, i, env, world, k, ret)
        return found

    def _block(self, stmts, i: int, env: dict, world: World, k: Callable, ret: Callable):
        stmt = stmts[i]

        def next_(env2, world2):
            return self.block(stmts, i + 1, env2, world2, k, ret)

        if self.memoise:
            next_ = self._intern((id(stmts), i + 1, id(k), id(ret)), next_)

        match stmt:
            case nodes.Let(name=name, value=value):
                then = self._intern((id(stmt), id(next_), tuple(env.items())),
                                    lambda v, w: next_({**env, name.name: v}, w))
                return self.value(value, env, world, then)
            case nodes.Set(target=target, value=value):
                if len(target) == 1:
                    return self.evaluate(self._assigned(stmt), env, world,
                                         lambda v, w: next_({**env, target[0].name: v}, w))
                return self.plain(self._assigned(stmt), env, world,
                                  lambda v, w: next_(env, self.assign_field(target, v, env, w)))
            case nodes.If(condition=cond, then=then, otherwise=otherwise):
                def no(w):
                    if otherwise is None:
                        return next_(env, w)
                    stmts2 = (otherwise,) if isinstance(otherwise, nodes.If) else otherwise.stmts
                    return self.block(stmts2, 0, env, w, next_, ret)
                return self.branch(cond, env, world,
                                   lambda w: self.block(then.stmts, 0, env, w, next_, ret), no)
            case nodes.Choose():
                return self.choose(stmt, env, world, next_, ret)
            case nodes.ChooseNumber():
                return self.choose_number(stmt, env, world, next_, ret)
            case nodes.Return(value=value):
                if value is None:   # a bare `return`: the rule ends, giving nothing
                    return ret(None, world)
                if type(value) is nodes.TupleExpr:   # several values: each a plain value
                    return self.plain(value, env, world, ret)
                return self.value(value, env, world, ret)
            case nodes.Remove(subject=subject):
                return self.plain(subject, env, world,
                                  lambda ref, w: next_(env, self.remove_now(ref, w)))
            case nodes.ForEach(var=var, items=items, body=body):
                def each(refs, w0):
                    def loop(j, env2, world2):
                        if j == len(refs):
                            return next_(env2, world2)
                        after = self._intern(("each", id(stmt), j, refs, id(next_), id(ret)),
                                             lambda e, w: loop(j + 1, e, w))
                        return self.block(body.stmts, 0, {**env2, var.name: refs[j]}, world2,
                                          after, ret)
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
                    if not self.exact_mode:   # (an exact run counts its steps as branches)
                        budget.spend(self, n, times)

                    def loop(j, env2, world2):
                        if j >= n:
                            return next_(env2, world2)
                        after = self._intern(("repeat", id(stmt), j, n, id(next_), id(ret)),
                                             lambda e, w: loop(j + 1, e, w))
                        return self.block(body.stmts, 0, env2, world2, after, ret)
                    return loop(0, env, w0)
                return self.plain(times, env, world, repeat)
            case nodes.CallStmt(call=call):
                then = self._intern((id(stmt), id(next_), tuple(env.items())),
                                    lambda v, w: next_(env, w))
                return self.value(call, env, world, then)
            case nodes.ForSorted(items=items):
                return self.plain(items, env, world,
                                  lambda refs, w: self._sorted(stmt, refs, env, w, next_, ret))
            case nodes.ChooseAmong():
                return self.choose_among(stmt, env, world, next_, ret)
            # several values at once
            case nodes.ChooseTuple():
                return self.choose_tuple(stmt, env, world, next_, ret)
            case nodes.LetTuple(names=names, value=value):
                def unpack(v, w):
                    return next_({**env, **{n.name: x for n, x in zip(names, v)}}, w)
                return self.value(value, env, world, unpack)
            case nodes.Withdraw(fighter=fighter):
                return self.plain(fighter, env, world, lambda ref, w: next_(
                    env, self.remove_now(ref, w, withdrawn=True)))
            case nodes.Face(fighter=fighter, towards=towards):   # facing (run/areas.py)
                def turned(ref, w):
                    def then(target, w2):
                        areas.face(self, ref, target, w2)
                        return next_(env, w2)
                    return self.plain(towards, env, w, then)
                return self.plain(fighter, env, world, turned)
            case nodes.Wound():   # units of several models
                return self.plain(stmt.target, env, world, lambda ref, w: self.plain(
                    stmt.amount, env, w, lambda n, w2: next_(env, units.inflict(w2, ref, n,
                                                                                stmt))))
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
            case nodes.PutAt(piece=piece, where=where):   # moving a piece
                return self.plain(piece, env, world, lambda p, w: self.plain(
                    where, env, w, lambda at, w2: next_(
                        env, carrying.put_at(stmt, p, at, w2, self, self._piece_log()))))
        return self._game_statement(stmt, env, world, next_)

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
            after = self._intern(("sorted", id(stmt), j, ordered, id(next_), id(ret)),
                                 lambda e, w: loop(j + 1, e, w))
            return self.block(stmt.body.stmts, 0, {**env2, name: ordered[j]}, world2, after, ret)
        return loop(0, env, world)

    def _game_statement(self, stmt, env, world, next_):
        """activate, travel, concede, deploy, place: the engine's part; outside a game (the odds
        of one action) a travel changes nothing and a concession is only recorded."""
        if type(stmt) not in _GAME_STATEMENTS:
            raise TypeError(f"unknown statement {stmt!r}")  # pragma: no cover
        if self.game is not None and not self.exact_mode:
            return self.game.statement(stmt, env, world, next_)
        if type(stmt) is nodes.Travel or type(stmt) is nodes.TravelClear:
            # the distance is still rolled, as it is in a game
            return self.plain(stmt.distance, env, world, lambda v, w: next_(env, w))
        if type(stmt) is nodes.Concede:
            return self.plain(stmt.side, env, world,
                              lambda ref, w: next_(env, w.concede(ref.index)))
        word = {nodes.Activate: "activate", nodes.Deploy: "deploy", nodes.Place: "place",
                nodes.PlaceAt: "place"}.get(
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
                not self.policies.by_side and (self.recorder is None or not self.recorder.record) \
                and all(type(a) is not nodes.Dice for a in call.args):
            # a game's phases, called from a scenario's blocks: run through the generated code
            values = [self.fn(a)(env, world) for a in call.args]
            if not any(type(v) is Dist for v in values):
                done = codegen.sample(self, call.callee.name,
                                      {p.name.name: v for p, v in zip(params, values)}, world)
                if done is not None:
                    return then(*done)

        def enter(values, w):
            inner = {p.name.name: v for p, v in zip(params, values)}
            for p in params[len(values):]:
                inner[p.name.name] = self.fn(p.default)(dict(inner), w)
            if decl.kind == "phase" and self.recorder is not None and self.recorder.record \
                    and not self.exact_mode:   # a header in the game's log
                self.recorder.phase(decl.name.name, roll_labels.roller(values, w))
            end = self._intern(("end", id(decl), id(then)),
                               lambda e, w2: self.fell_off(decl, w2, then))
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

    def remove_now(self, ref, world: World, withdrawn: bool = False) -> World:
        """`remove` and `withdraw`: out of play, told to a recorded game's log as it happens."""
        after = world.remove(ref, withdrawn=withdrawn)
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
            return set_piece(world, subject, target[-1].name, value)
        else:
            name = self.fighter_fields[target[-1].name.lower()][1]
        after = world.set(subject, name, value)
        if self.recorder is not None and self.recorder.record and not self.exact_mode:
            roll_labels.changed(self.recorder, subject, target[-1].name, name, world, after)
        return after

    # ---- what expressions read -----------------------------------------------------------------------------
    def draw(self, dist: Dist, node=None, count: int | None = None):
        """A roll: the whole distribution in exact mode, one seeded outcome when sampling."""
        self.drawn += 1
        if self.exact_mode:
            n = len(dist)
            self.branches += n
            tally = self.rolled.get(id(node))
            if tally is None:
                self.rolled[id(node)] = [node, 1, n]
            else:
                tally[1] += 1
                tally[2] += n
            limit = self.max_branches or MAX_BRANCHES
            if self.branches > limit:
                raise RulesError(toomuch.explain(self, node, limit))
            return dist
        value = dist.sample(self.rng)
        if self.recorder is not None and self.recorder.record:
            self.recorder.rolled(value, roll_labels.roll_event(self, node, value, count))
        return value

    def draw_apart(self, die: Dist, n: int, keep, node):
        """A sampled roll of a pool too large to work out exactly: each die drawn on its own
        (dice.roll_apart; generated code draws it the same way: codegen/runtime.roll)."""
        self.drawn += 1
        value = dice.roll_apart(die, n, keep, self.rng)
        if self.recorder is not None and self.recorder.record:
            self.recorder.rolled(value, roll_labels.roll_event(self, node, value, n))
        return value

    # dice pools: a sampled pool, each die drawn; a recorded game shows its faces once
    def draw_pool(self, die: Dist, sides: int, n: int, keep, node):
        self.drawn += 1
        value = pools.sample(die, sides, n, keep, self.rng)
        if self.recorder is not None and self.recorder.record:
            self.recorder.rolled(list(value.faces or ()),
                                 roll_labels.roll_event(self, node, value, n))
        return value

    def lookup(self, table: nodes.TableDecl, args, call, world):
        # A table that reads only its arguments gives the same row for the same arguments, so
        # it is looked up once per interpreter. One that reads the world (`f is A`, `f.Might`,
        # `f has T`) is looked up every time: a fighter argument is an index into *a* world,
        # and one interpreter checks many warbands (the same index, another fighter) and plays
        # whole games (the same fighter, changed).
        pure = self.pure_tables.get(id(table))
        if pure is None:
            pure = self.pure_tables[id(table)] = reads_only_arguments(
                nodes.Call(table.name, (), table.span), self.ruleset, set())
        if not pure:
            return self.lookup_uncached(table, args, call, world)
        key = (id(table), args)
        found = self.tables.get(key, MISSING)
        if found is MISSING:
            found = self.tables[key] = self.lookup_uncached(table, args, call, world)
        return found

    def lookup_uncached(self, table: nodes.TableDecl, args, call, world):
        env = {p.name.name: v for p, v in zip(table.params, args)}
        for row in table.rows:
            if row.kind == "when":
                hit = self.fn(row.condition)(env, world)
            elif row.kind == "otherwise":
                hit = True
            else:
                key, arg = row.key, args[0]
                if isinstance(key, nodes.Ident):
                    hit = arg == key.name
                elif isinstance(key, tuple):
                    hit = key[0] <= arg <= key[1]
                else:
                    hit = arg == key
            if hit:
                values = tuple(self.fn(v)(env, world) for v in row.values)
                return values[0] if len(values) == 1 else Record(
                    tuple(c.name for c in table.columns), values)
        shown = ", ".join(f"{p.name.name}={a}" for p, a in zip(table.params, args))
        raise RulesError(diag("E501", f"no row of table '{table.name.name}' matches {shown}",
                              getattr(call, "span", None), hint="add an 'otherwise' row"))

    # a field of a fighter, a side or a record (evaluate.read_field, as a method: no extra call)
    field = read_field

    def derived_stat(self, ref: Ref, name: str, world: World):
        """A derived stat of a fighter, worked out now from what it is derived from (its given
        value for a fighter its `if` does not hold for)."""
        found = self.derived.get(name)
        if found is None:
            stat = self.ruleset.stats[name]
            found = self.derived[name] = (stat.fighter, self.fn(stat.derived),
                                          self.fn(stat.when) if stat.when is not None else None)
        fighter, value, when = found
        env = {fighter: ref}
        if when is not None and when(env, world) is not True:
            given = world.fighters[ref.index].values[name]
            if given is None:   # (no default, none given: `if` turned false in play)
                from warband.lang.unparse import expr_text  # lazily: only this error needs it
                stat = self.ruleset.stats[name]
                raise RulesError(diag(
                    "E505", f"{world.fighters[ref.index].name} has no {name}: the rules work it "
                            f"out only if {expr_text(stat.when)}, and nothing gives it",
                    stat.span, hint=f"give {name} a default, or a value for the fighters the "
                                    "rules do not work it out for"))
            return given
        return value(env, world)

    def works_out(self, name: str, ref: Ref, world: World) -> bool:
        """Whether the rules work stat `name` out for this fighter (so nobody may give it)."""
        stat = self.ruleset.stats[name]
        if stat.derived is None:
            return False
        return stat.when is None or self.fn(stat.when)({stat.fighter: ref}, world) is True

    def has(self, ref: Ref, name: str, world: World) -> bool:
        f = world.fighters[ref.index]
        if name in self.ruleset.equipment:
            return name in f.equipment
        value = f.traits.get(name, False)
        return value is True or (value is not False and value != 0)

