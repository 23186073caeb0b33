"""Lazy rolls: a roll kept whole (a LazyRef) until a rule asks a question of it, then split into
the outcomes that answer yes and those that answer no, each followed with its probability.

Mixed into the Interpreter (run/interpreter.py).
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction

from warband.lang import nodes
from warband.run import toomuch
from warband.run.dice import Dist, TooLarge
from warband.run.errors import RulesError
from warband.run.evaluate import COMPARE, LazyRef, as_dist
from warband.run.interpreter_parts import InterpreterParts
from warband.run.world import World


class LazyRolls(InterpreterParts):
    # ---- what the paths of an exact run give, weighed ------------------------------------------
    def mix(self, parts):
        """The paths' results (probability, what a path gave) put together: their mixture, or,
        while valuing (a greedy look-ahead of a run that merges: run/merging.py), the expected
        score, what each path gives then."""
        if self.valuing:
            return sum(p * v for p, v in parts)
        return Dist.mixture((p, as_dist(x)) for p, x in parts)

    def _bind(self, value, then: Callable):
        """Continue with a value; when it is a distribution, with each of its outcomes."""
        if type(value) is Dist:
            if len(value) == 1:
                return then(value.only())
            return self.mix((p, then(v)) for v, p in value.items())
        return then(value)

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
        return self.mix(
            (p, self.split(rest, world.with_lazy(first, Dist.point(v)), then))
            for v, p in world.lazies[first].items())

    def evaluate(self, expr, env: dict, world: World, then: Callable):
        """A statement's value: then(value, world). A roll read by the expression is split first;
        a new roll stays whole, as a LazyRef, until something asks about it."""
        if type(expr) is nodes.Name and type(env.get(expr.name)) is LazyRef:
            return then(env[expr.name], world)
        fn = self.fn(expr)
        if self.memoise and not self.merging:
            # Looking ahead re-runs futures from equal states; a roll kept whole would make
            # states differ by rolls no longer used, so here every roll is split at once.
            # (A run that merges keeps rolls whole: the rolls nothing reads any more are
            # dropped from its situations, run/merging.py.)
            return self._bind(self.worked_out(fn, expr, env, world), lambda v: then(v, world))

        def go(world2):
            v = self.worked_out(fn, expr, env, world2)
            if type(v) is Dist:
                if len(v) == 1:
                    return then(v.only(), world2)
                lazy, world3 = world2.add_lazy(v)
                return then(LazyRef(lazy), world3)
            return then(v, world2)
        ids = self.live(expr, env, world)
        if not ids:   # (nothing to split: the commonest case)
            return go(world)
        if len(ids) == 1:
            grouped = self._grouped(ids[0], fn, expr, env, world, then)
            if grouped is not None:
                return grouped
        return self.split(ids, world, go)

    def plain(self, expr, env: dict, world: World, then: Callable):
        """A statement's value as plain values: then(value, world) once per outcome."""
        fn = self.fn(expr)
        ids = self.live(expr, env, world)
        if not ids:   # (nothing to split: the commonest case)
            return self._bind(self.worked_out(fn, expr, env, world), lambda v: then(v, world))
        if len(ids) == 1:
            grouped = self._grouped(ids[0], fn, expr, env, world, then)
            if grouped is not None:
                return grouped
        return self.split(ids, world, lambda w: self._bind(
            self.worked_out(fn, expr, env, w), lambda v: then(v, w)))

    def _grouped(self, lazy: int, fn: Callable, expr, env: dict, world: World,
                 then: Callable):
        """An expression that reads one roll kept whole, followed once per value it takes,
        not once per face: then(value, world with the roll narrowed to the faces that give it).
        `let hit = roll >= need` is two paths, not six. None (nothing followed yet) when the
        expression rolls dice of its own or gives a value that cannot key a group: the caller
        then splits the roll face by face, as before."""
        ref = LazyRef(lazy)
        holders = [n for n in self.fn.names_of(expr) if env.get(n) == ref]
        dist = world.lazies[lazy]
        trial = dict(env)
        groups: dict = {}
        try:
            for face, weight in dist._w.items():
                for n in holders:
                    trial[n] = face
                answer = self.worked_out(fn, expr, trial, world)
                if type(answer) is Dist or type(answer) is LazyRef:
                    return None
                found = groups.get(answer)
                if found is None:
                    groups[answer] = {face: weight}
                else:
                    found[face] = weight
        except TypeError:   # (a value that is no dict key)
            return None
        if len(groups) == 1:   # (the answer tells nothing of the roll: it stays as it was)
            return then(next(iter(groups)), world)
        den = dist._den
        parts = []
        for answer, weights in groups.items():
            total = sum(weights.values())
            parts.append((Fraction(total, den),
                          then(answer, world.with_lazy(lazy, Dist.weighted(weights, total,
                                                                           clean=True)))))
        return self.mix(parts)

    @staticmethod
    def worked_out(fn: Callable, expr, env: dict, world: World):
        """fn(env, world), an expression's value; exact arithmetic on rolls too large to work
        out (dice.TooLarge) is E504 at the expression."""
        try:
            return fn(env, world)
        except TooLarge as error:
            raise RulesError(toomuch.combined_too_large(error, expr)) from None

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
            parts.append((p_yes, yes(world.with_lazy(lazy, dist_yes))))
        if dist_no is not None:
            parts.append((p_no, no(world.with_lazy(lazy, dist_no))))
        return parts[0][1] if len(parts) == 1 else self.mix(parts)

    def _branch_mixed(self, lazy, dist, answers, world, yes, no):
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
                parts.append((total, follow(world.with_lazy(lazy, sub))))
        return parts[0][1] if len(parts) == 1 else self.mix(parts)

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
