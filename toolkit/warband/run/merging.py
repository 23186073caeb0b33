"""Exact odds that merge: what a situation is, and what keeps two situations apart.

Exact evaluation follows every outcome of every roll. Following paths one by one costs the
number of paths: three attacks of a rule with six outcomes are 216 paths, but perhaps four
distinct situations (0 to 3 wounds). So exact runs (`Interpreter.exact`, `run_nested(exact=True)`
outside a game's budgeted look-ahead) merge: the future of a situation is worked out once, and
every path that reaches an equal situation takes it from there with its own probability
(memoised continuation-passing evaluation: dynamic programming over situations, as icepool's
evaluators and variable elimination do). The cost grows with the distinct situations, not with
the paths.

A *situation* is where the run is and all the rest of the computation can still read there:

- the position: a block of statements and the index of the next one in it;
- the locals the rest of the procedure can read (run/liveness.py): a `let` no later statement
  reads is dropped, so naming intermediate results costs nothing;
- what happens after the block (its continuation, and the caller's continuation a `return`
  goes to), each interned once per distinct future: a continuation that holds a caller's
  locals holds only those the caller can still read;
- the World's fighters, sides and pieces (their values, who is removed, where they stand), but
  the declared stats, flags and counters that nothing the action can run reads (`unread_fields`)
  while what the run gives is the action's result alone (a greedy decision weighing an option,
  or odds that do not report what the action changed): a `set f.Marked = true` that nothing
  asks of does not keep two situations apart;
- the rolls still kept whole (lazy rolls, run/lazy_rolls.py) that any of those can read, each
  with what is still possible of it: a roll no live local and no continuation can read is
  dropped from the World (so it does not keep situations apart, and its number is free for the
  next roll).

Sums and counts of many dice are not situations: they stay one roll, worked out by
convolution (run/dice.py, run/pools.py), until a rule asks a question of them.

Two situations with equal keys have the same future, so the distribution of the action's
result from there is the same: the memo (Interpreter.memo) maps a key to it. What the key
leaves out is only what nothing reads any more, so merging never changes a fraction; the tests
run every shipped action both ways (tests/test_merging.py).
"""

from __future__ import annotations

from dataclasses import fields, is_dataclass

from warband.lang import nodes
from warband.lang.per_ruleset import per_ruleset
from warband.run.evaluate import LazyRef, Thunk

EMPTY: frozenset = frozenset()
MISSING = object()   # a live name not bound (yet) on this path: as good as any other value


def rolls_read(values, found: set) -> None:
    """The ids of the lazy rolls that values hold (a local holding one, a dice argument's
    captured names, a tuple of several values), added to found."""
    for v in values:
        t = type(v)
        if t is LazyRef:
            found.add(v.id)
        elif t is Thunk:
            rolls_read(v.env.values(), found)
        elif t is tuple and v:
            rolls_read(v, found)


def kept_values(names, env: dict) -> tuple:
    """The values of the live names (names None: every name, with its name), as a key."""
    if names is None:
        return tuple(env.items())
    get = env.get
    return tuple([get(n, MISSING) for n in names])


# ---- the fighters' and sides' values nothing reads ---------------------------------------------

# statements that run what no analysis of the action sees (a game's: another action, a
# deployment): with one of them reachable, every value may be read
_OPAQUE = (nodes.Activate, nodes.Deploy, nodes.Place, nodes.PlaceAt, nodes.BringBack,
           nodes.Travel, nodes.TravelClear, nodes.Concede)


def _names(root, found: set[str], procedures: dict, calls: set[str]) -> bool:
    """Every identifier under root (a node, a declaration, a tuple or dict of them), lower
    case, added to found; the procedures named there added to calls. False when an _OPAQUE
    statement is among them."""
    stack, seen = [root], set()
    while stack:
        n = stack.pop()
        t = type(n)
        if n is None or t in (str, int, bool, float):
            continue
        if id(n) in seen:
            continue
        seen.add(id(n))
        if t is tuple or t is list or t is set or t is frozenset:
            stack.extend(n)
            continue
        if isinstance(n, dict):
            stack.extend(n.values())
            continue
        if isinstance(n, _OPAQUE):
            return False
        if t is nodes.Name or t is nodes.Ident:
            found.add(n.name.lower())
            if n.name in procedures:
                calls.add(n.name)
            continue
        if is_dataclass(n):
            names = [f.name for f in fields(n)]
        elif hasattr(n, "__dict__"):   # (any other object: all it holds)
            names = list(vars(n))
        else:
            names = list(getattr(t, "__slots__", ()))
        node = t in nodes.NODE_CLASSES
        for name in names:
            if name in _NOT_READ:
                continue
            value = getattr(n, name, None)
            if type(value) is str:   # (a name kept as text in a node: counted as read; a
                if node or name != "name":   # declaration's own name is none)
                    found.add(value.lower())
                    if value in procedures:
                        calls.add(value)
            else:
                stack.append(value)
    return True


_NOT_READ = ("span", "doc", "docs")   # (what a node holds that no rule reads)
# (a Ruleset's fields that are no rules outside procedures: the procedures themselves and the
# decisions in them, which unread_fields reads only as far as the action reaches; the rest)
_APART = ("procedures", "decisions", "memo", "warnings", "layers", "origins")


@per_ruleset
def unread_fields(ruleset, procedure: str) -> tuple[frozenset, frozenset]:
    """(the fighters' fields, the sides' fields) that the action `procedure` may `set` and
    nothing it can run reads: declared stats (not worked out), flags and counters whose names
    appear nowhere in it but as what a `set` stores to, nor in the procedures it calls (all the way down), nor anywhere a procedure's body is
    not (tables, definitions, stats worked out, classes, equipment, the scenario, events,
    decks). A `set f.X = v` is no read of X; `set f.X += v` is. Such a value cannot change
    what the rest of the action gives, only what it leaves in the World."""
    procedures = ruleset.procedures
    read: set[str] = set()
    calls: set[str] = {procedure}
    # (everything a Ruleset holds but its procedures and what points into them)
    rest = tuple(getattr(ruleset, f.name) for f in fields(ruleset) if f.name not in _APART)
    if not _names(rest, read, procedures, calls):
        return EMPTY, EMPTY
    done: set[str] = set()
    written: set[str] = set()   # (the fields a `set` names: only those can differ)
    while calls - done:
        name = min(calls - done)
        done.add(name)
        decl = procedures[name]
        parts = [decl.params, _reads_of(decl.body.stmts, written)]
        if name != procedure:   # (the action's own was asked before it ran)
            parts.append(getattr(decl, "requires", None))
        if not _names(tuple(parts), read, procedures, calls):
            return EMPTY, EMPTY
    unread = written - read
    fighter = frozenset(n for n, s in ruleset.stats.items()
                        if s.derived is None and n.lower() in unread) | frozenset(
        n for n, s in ruleset.states.items() if s.owner == "fighter" and n.lower() in unread)
    side = frozenset(n for n, s in ruleset.states.items()
                     if s.owner == "side" and n.lower() in unread)
    return fighter, side


def _reads_of(stmts, written: set[str]) -> list:
    """The parts of statements that may read: all of each, but a plain `set f.X = v`'s field
    X (what a `set x = v` or `set f.X += v` names is read); the fields `set`s name are added
    to written (lower case)."""
    out: list = []
    stack = list(stmts)
    while stack:
        s = stack.pop()
        if type(s) is nodes.Set and len(s.target) > 1:
            written.add(s.target[-1].name.lower())
            if s.op == "=":
                out.append((s.target[:-1], s.value))
                continue
        if type(s) is nodes.Block:
            stack.extend(s.stmts)
            continue
        slots = getattr(type(s), "__slots__", ())
        blocks = [getattr(s, name, None) for name in slots]
        if any(type(b) is nodes.Block for b in blocks) or type(s) is nodes.If or \
                type(s) is nodes.Choose:
            for name, b in zip(slots, blocks):
                if name == "span":
                    continue
                if type(b) is nodes.Block:
                    stack.extend(b.stmts)
                elif type(b) is nodes.If:
                    stack.append(b)
                elif type(b) is tuple and b and type(b[0]) is nodes.Option:
                    for option in b:
                        out.append((option.name, option.when))
                        if option.body is not None:
                            stack.extend(option.body.stmts)
                else:
                    out.append(b)
            continue
        out.append(s)
    return out


def unread_state(world, unread: tuple[frozenset, frozenset]) -> tuple:
    """world.state_key() with the values of unread fields (unread_fields) left out (MISSING)."""
    state = world.state_key()
    fighter, side = unread
    fighters = state[0]
    if fighter:
        fighters = tuple((tuple([MISSING if k in fighter else v for k, v in f.values.items()]),
                          *key[1:]) for f, key in zip(world.fighters, fighters))
    sides = state[1]
    if side:
        sides = tuple((tuple([MISSING if k in side else v for k, v in s.values.items()]),
                       *key[1:]) for s, key in zip(world.sides, sides))
    return fighters, sides, state[2]


__all__ = ["EMPTY", "MISSING", "kept_values", "rolls_read", "unread_fields", "unread_state"]
