"""What expressions read from the interpreter: rolls (the whole distribution in exact mode,
one seeded outcome when sampling), table rows, fields, derived stats and traits.

Mixed into the Interpreter (run/interpreter.py).
"""

from __future__ import annotations

from warband.diagnostics import diag
from warband.lang import nodes
from warband.limits import MAX_BRANCHES
from warband.run import dice, pools, roll_labels, situations, toomuch
from warband.run.dice import Dist
from warband.run.evaluate import MISSING, Record, RulesError, read_field, reads_only_arguments
from warband.run.interpreter_parts import InterpreterParts
from warband.run.world import Ref, World


class ExpressionReads(InterpreterParts):
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
                raise RulesError(situations.explain(self, node, limit))
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
