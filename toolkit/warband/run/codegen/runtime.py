"""What generated rules call at run time, and how a Ruleset's generated program is run.

`program.py` translates rules into Python source; the functions here are the few things that
source does not spell out inline: rolling pools whose size is known only at run time, reading
fields, running a procedure through the interpreter when codegen left it out, and the errors the
interpreter raises, with the very same diagnostics. Everything mirrors `interpreter.py`,
`evaluate.py` and `decisions.py` in sampling mode, draw for draw.
"""

from __future__ import annotations

import sys
from fractions import Fraction
from typing import TYPE_CHECKING

from warband.diagnostics import diag
from warband.run import budget, dice, flow, members, pools, spots, tuples, weapons
from warband.run.decisions import check_number_range
from warband.run.dice import Dist
from warband.run.evaluate import (
    AGGREGATES,
    Record,
    RulesError,
    Thunk,
    check_count,
    die_of,
    nobody,
    norm,
    read_field,
)
from warband.run.host import CLEAR
from warband.run.weapons import piece_field
from warband.run.world import (
    FIGHTER_REFS,
    SIDE_REFS,
    Fighter,
    Ref,
    Side,
    World,
    changed,
    changed_side,
    fallen,
    new_world,
    read_piece,
    remover,
    set_piece,
)

if TYPE_CHECKING:
    from warband.run.codegen.program import Program
    from warband.run.interpreter import Interpreter

UNBOUND = object()   # a local not (yet) bound on this path: reading it gives its name, as in
#                      the interpreter, where a name missing from the environment is a symbol


_NOTHING = object()
_new = object.__new__


class Draft:
    """A World being changed by one generated run, in place.

    A World is persistent, and a change makes a new one: a new Fighter or Side, a new tuple, a
    new World, several microseconds, which dominated a sampled action that spends tokens.
    A generated run changes a Draft instead, made at its first change: the list of fighters
    (or of sides) is copied at the first change of one, and a fighter or side at its own first
    change; further changes are a dict store. The run's World is made (`freeze`) when it ends,
    or before the interpreter runs a procedure for it. The World the run started from is never
    touched. A Draft reads like a World (fighters, sides, lazies, fighter, get).
    """

    __slots__ = ("fighters", "sides", "lazies", "_own", "pieces")   # made by draft(world)
    # the World's tuples, each a list from the first change in it
    fighters: tuple[Fighter, ...] | list[Fighter]
    sides: tuple[Side, ...] | list[Side]
    lazies: dict
    _own: set[int]
    pieces: tuple   # the pieces' state (World.pieces): a new tuple at each change, few as they are

    def fighter(self, ref: Ref) -> Fighter:
        return self.fighters[ref.index]

    def get(self, ref: Ref, name: str):
        holder = self.fighters[ref.index] if ref.kind == "fighter" else self.sides[ref.index]
        return holder.values[name]

    def _fighter(self, i: int) -> Fighter:
        if i in self._own:
            return self.fighters[i]
        fighters = self.fighters
        if type(fighters) is tuple:
            fighters = self.fighters = list(fighters)
        f = fighters[i]
        # a list by now, which the type checker cannot tell: `type(x) is tuple` narrows one way
        f = fighters[i] = changed(f, dict(f.values), f.removed, f.position, f.withdrawn)  # type: ignore[index]
        self._own.add(i)
        return f

    def set(self, ref: Ref, name: str, value) -> "Draft":
        if ref.kind == "fighter":
            i = ref.index
            f = self.fighters[i]
            old = f.values.get(name, _NOTHING)
            if old is value or (type(old) is type(value) and old == value):
                return self   # no change (a turn clears every fighter's flags): no copy
            if i not in self._own:
                f = self._fighter(i)
            f.values[name] = value
            return self
        return self.set_side(ref.index, name, value)

    def set_side(self, i: int, name: str, value) -> "Draft":
        if -1 - i not in self._own:
            sides = self.sides
            if type(sides) is tuple:
                sides = self.sides = list(sides)
            s = sides[i]
            # a list by now (as in _fighter)
            sides[i] = changed_side(s, dict(s.values), s.conceded)  # type: ignore[index]
            self._own.add(-1 - i)
        self.sides[i].values[name] = value
        return self

    def remove(self, ref: Ref, withdrawn: bool = False, by: Ref | None = None) -> "Draft":
        """Out of play: a casualty, or (withdrawn) one that left the table, as World.remove."""
        f = self._fighter(ref.index)
        f.removed, f.withdrawn = True, withdrawn
        f.removed_by = remover(self, by, ref.index)
        if self.pieces:   # carrying: what it carried falls where it stood, or leaves with it
            return fallen(self, ref.index, withdrawn)
        return self

    def place(self, ref: Ref, position) -> "Draft":
        self._fighter(ref.index).position = None if position is None else tuple(position)
        return self

    def returned(self, ref: Ref, position) -> "Draft":
        """Back into play at a position, as World.returned."""
        f = self._fighter(ref.index)
        f.removed, f.withdrawn, f.removed_by = False, False, None
        f.position = None if position is None else tuple(position)
        return self

    def freeze(self) -> World:
        """The World as it stands. The World shares the fighters and sides the draft has
        copied, so from here on the draft copies again before changing one."""
        self._own.clear()
        return new_world(tuple(self.fighters), tuple(self.sides), self.lazies, self.pieces)

    # pieces with state (game/pieces.py): the tuple replaced, as World.with_pieces does
    def with_pieces(self, pieces: tuple) -> "Draft":
        self.pieces = pieces
        return self


def given(args: dict) -> dict:
    """The arguments a generated sampler was given, by name (those it was not are _UNB)."""
    return {name: value for name, value in args.items() if value is not UNBOUND}


def draft(world: World) -> Draft:
    """A Draft of the World, made at a run's first change (a plain function, cheaper to call
    than a class's __init__). It holds the World's tuples until something in them changes, a
    list then: a run that spends a side's token copies no fighters, and freeze's tuple() of a
    tuple is that tuple."""
    d = _new(Draft)
    d.fighters, d.sides, d.lazies = world.fighters, world.sides, world.lazies
    d.pieces = world.pieces
    d._own = set()   # copied by this draft: fighter i as i, side i as -1 - i
    return d


class Interpret(Exception):
    """Raised by generated code for what it leaves to the interpreter (never reaches a user)."""


# ---- rolls -----------------------------------------------------------------------------------

def draw(interp: Interpreter, dist: Dist):
    """One seeded outcome: Interpreter.draw in sampling mode (generated code does not keep
    the count of rolls, `drawn`, which only probing in exact mode reads)."""
    return dist.sample(interp.rng)


def die_roll(interp: Interpreter, node, n):
    """`d(n)`: one die of n sides, drawn as the interpreter draws it (Compiler.call)."""
    return draw(interp, die_of(n, node))


def _pool(node, n, reroll) -> tuple[Dist, tuple[int, bool] | None]:
    """(one die, (dice kept, highest) or None) of a dice expression for n dice."""
    faces = dice.standard_faces(node.sides)
    die = dice.die(faces) if reroll is None else dice.reroll_once(faces, reroll)
    keep = next((m for m in node.mods if type(m).__name__ == "KeepMod"), None)
    if keep is None:
        return die, None
    kept = keep.count if keep.keep else max(n - keep.count, 0)
    return die, (kept, keep.highest if keep.keep else not keep.highest)


def pool_dist(node, n, reroll) -> Dist:
    """The distribution of a dice expression for n dice: Compiler.dice's `pool`."""
    check_count(n, node)
    faces = dice.standard_faces(node.sides)
    die = dice.die(faces) if reroll is None else dice.reroll_once(faces, reroll)
    keep = next((m for m in node.mods if type(m).__name__ == "KeepMod"), None)
    if keep is None:
        try:
            return dice.pool_sum(die, n)
        except OverflowError as error:
            raise RulesError(diag("E504", str(error), node.span, hint=dice.SUM_HINT)) from None
    kept = keep.count if keep.keep else max(n - keep.count, 0)
    highest = keep.highest if keep.keep else not keep.highest
    try:
        return dice.pool_keep(die, n, kept, highest)
    except OverflowError as error:
        raise RulesError(diag("E504", str(error), node.span,
                              hint=dice.KEEP_HINT)) from None


def roll(interp: Interpreter, node, n, reroll):
    try:
        dist = pool_dist(node, n, reroll)
    except RulesError as error:
        if error.diagnostic.code != "E504":
            raise
        # too large to work out exactly: each die drawn on its own, as the interpreter does
        die, keep = _pool(node, n, reroll)
        return dice.roll_apart(die, n, keep, interp.rng)
    return draw(interp, dist)


def count_roll(interp: Interpreter, node, n, chosen, reroll):
    """`count PRED in (n)dS`: Compiler's count_fn in sampling mode."""
    check_count(n, node)
    sides = node.pool.sides
    faces = dice.standard_faces(sides)
    die = dice.die(faces) if reroll is None else dice.reroll_once(faces, reroll)
    return draw(interp, dice.pool_count(die, n, chosen))


# dice pools: `pool (n)d6` drawn die by die as the interpreter draws it (Interpreter.draw_pool)
def pool_roll(interp: Interpreter, node, n, reroll):
    check_count(n, node)
    die, keep = _pool(node, n, reroll)
    return pools.sample(die, node.sides, n, keep, interp.rng)


def pool_count(pool, pred, bound):
    """`count PRED in p` of a pool: the faces chosen among the pool's dice's faces."""
    return pool.count(pools.faces_of(pred, pool.sides, bound))


def faces_where(test, sides: int, bound) -> frozenset:
    return frozenset(x for x in range(1, sides + 1) if test(x, bound))


# ---- values ----------------------------------------------------------------------------------

def divide(x, y, node):
    """Exact division, as evaluate's: a whole number when it divides, else a Fraction (the
    same value Fraction(x) / Fraction(y) gives, made without the general arithmetic)."""
    if y == 0:
        raise RulesError(diag("E502", "division by zero", node.span))
    if type(x) is int and type(y) is int:
        q, r = divmod(x, y)
        return q if r == 0 else Fraction(x, y)
    return norm(Fraction(x) / Fraction(y))


def remainder(x, y, node):
    """`x % y`, as evaluate's: the remainder of a floored division (its sign the divisor's),
    exact for fractions too; a divisor of 0 is E502, as for `/`."""
    if y == 0:
        raise RulesError(diag("E502", "division by zero", node.span))
    return norm(x % y)


def divide_whole(x, y: int):
    """divide(x, y, node) for a divisor that is surely a whole number other than 0."""
    if type(x) is int:
        if not x % y:
            return x // y
        return Fraction(x, y)
    return norm(Fraction(x) / y)


def aggregate(kind: str, values: list):
    return AGGREGATES[kind]([v for v in values if v is not None])


def holds(interp, subject, value, world) -> bool:
    """`X has n` where n holds a trait: a fighter's, or a piece's own (weapons.holds)."""
    return weapons.holds(interp.has, weapons.piece_trait_values(interp.ruleset), subject, value,
                         world)


def has_value(value) -> bool:
    """Whether a trait's combined value means the fighter has it (Interpreter.has)."""
    return value is True or (value is not False and value != 0)


_SPECIAL = ("side", "class", "tier", "name", "removed", "equipment")


# decks and bags: what a deck answers (run/decks.py), read through the interpreter
DECK_FIELDS = ("left", "discards", "hand")
# fields of the board game (groups, who left, who conceded): read through the interpreter
_GAME_FIELDS = ("withdrawn", "enemies", "friends", "casualties", "opponents", "conceded",
                "carrying", "position", "removed_by", "removed_by_side", "traits")


def field_getter(interp: Program, name: str):
    """Interpreter.field for one field name, with the name's meaning looked up once."""
    lower = name.lower()
    if name in _GAME_FIELDS or name in interp.ruleset.decks or \
            interp.ruleset.decks and name in DECK_FIELDS:   # (decks and bags: run/decks.py)
        field = read_field   # it needs only the field tables, which `interp` has too

        def get_game(s, world):
            return s.get(name) if type(s) is Record else field(interp, s, name, world)
        return get_game
    if lower in interp.piece_fields:   # a piece's, maybe a fighter's or a side's too
        other = _fighter_getter(interp, name)

        def get_piece(s, world):
            if type(s) is not Record and s.kind == "piece":
                return read_piece(world, s, name)
            return other(s, world)
        return get_piece
    return _fighter_getter(interp, name)


def _fighter_getter(interp: Program, name: str):
    lower = name.lower()
    side_name = interp.side_fields.get(lower)
    kind, canonical = interp.fighter_fields.get(lower, (None, None))

    def side_part(s, world):
        if name == "fighters":
            return tuple(FIGHTER_REFS[i] for i, f in enumerate(world.fighters)
                         if f.side == s.index and not f.removed)
        if name == "name":
            return world.sides[s.index].name
        if side_name is None:
            raise KeyError(lower)
        return world.sides[s.index].values[side_name]

    if name in _SPECIAL:
        attr = {"class": "fighter_class"}.get(name, name)

        def get(s, world):
            if type(s) is Record:
                return s.get(name)
            if s.kind == "side":
                return side_part(s, world)
            if attr == "side":
                side = world.fighters[s.index].side
                return SIDE_REFS[side]
            return getattr(world.fighters[s.index], attr)
        return get
    if kind == "trait":
        def get(s, world):
            if type(s) is Record:
                return s.get(name)
            if type(s) is str:   # a piece of equipment: the number of a trait of its own
                return piece_field(interp.ruleset, s, name)
            if s.kind == "side":
                return side_part(s, world)
            value = world.fighters[s.index].traits.get(canonical, 0)
            return 0 if value is False else value
        return get
    if kind == "value":
        def get(s, world):
            if type(s) is Record:
                return s.get(name)
            if s.kind == "side":
                return side_part(s, world)
            return world.fighters[s.index].values[canonical]
        return get

    def get(s, world):  # type: ignore[no-redef]  # one getter per kind of field, each returned
        if type(s) is Record:
            return s.get(name)
        if s.kind == "side":
            return side_part(s, world)
        raise KeyError(lower)
    return get


def all_sides(world) -> tuple:
    return tuple([SIDE_REFS[i] for i in range(len(world.sides))])


_REF_LIST: list = []   # FIGHTER_REFS[0], [1], ... as a list, to zip with a world's fighters


def _refs(n: int) -> list:
    """_REF_LIST at least n long: a new list put in its place whole, never one appended to,
    so that a game on another thread (a Dask worker's) sees a shorter list or a longer one,
    both right."""
    global _REF_LIST
    if len(_REF_LIST) < n:
        _REF_LIST = [FIGHTER_REFS[i] for i in range(max(n, 2 * len(_REF_LIST), 64))]
    return _REF_LIST


def side_fighters(world, side: int) -> tuple:
    """A side's fighters in play, as Interpreter.field gives them (every turn asks)."""
    fighters = world.fighters
    refs = _REF_LIST if len(_REF_LIST) >= len(fighters) else _refs(len(fighters))
    return tuple([r for r, f in zip(refs, fighters) if f.side == side and not f.removed])


def in_play(world) -> tuple:
    """Every fighter in play, of every side, as Interpreter.global_value gives them."""
    fighters = world.fighters
    refs = _REF_LIST if len(_REF_LIST) >= len(fighters) else _refs(len(fighters))
    return tuple([r for r, f in zip(refs, fighters) if not f.removed])


def around(world, index: int, enemies: bool) -> tuple:
    """A fighter's enemies (or friends) in play, as Interpreter.field gives them."""
    fighters = world.fighters
    side = fighters[index].side
    refs = _REF_LIST if len(_REF_LIST) >= len(fighters) else _refs(len(fighters))
    return tuple([r for r, g in zip(refs, fighters)
                  if not g.removed and r[1] != index and (g.side != side) == enemies])


def has_getter(interp: Program, name: str):
    if name in interp.ruleset.equipment:
        return lambda ref, world: name in world.fighters[ref.index].equipment

    def has(ref, world):
        value = world.fighters[ref.index].traits.get(name, False)
        return value is True or (value is not False and value != 0)
    return has


def is_a(ref, name: str, world) -> bool:
    f = world.fighter(ref)
    return name in (f.fighter_class, f.tier)


def assign(interp: Interpreter, subject, name: str, value, world):
    """The last step of Interpreter.assign_field, once the subject is known."""
    if subject.kind == "side":
        field, holder = interp.side_fields[name.lower()], world.sides[subject.index]
    elif subject.kind == "piece":   # a piece's holder, flags and counters (World.pieces)
        return set_piece(world, subject, name, value)
    else:
        field, holder = interp.fighter_fields[name.lower()][1], world.fighters[subject.index]
    old = holder.values.get(field, _NOTHING)
    if old is value or (type(old) is type(value) and old == value):
        return world   # no change: no copy of the world
    return (world if type(world) is Draft else draft(world)).set(subject, field, value)


def lookup(interp: Interpreter, table, args, call, world, rows):
    """A table that reads the world (generated code calls a table that reads only its
    arguments straight): looked up every time, as Interpreter.lookup does. Its rows depend on
    the world its fighter arguments index into, and a cached row would be another warband's,
    or another moment's, fighter."""
    return rows(interp, world, call, *args)


def no_row(table, args, call):
    shown = ", ".join(f"{p.name.name}={a}" for p, a in zip(table.params, args))
    raise RulesError(diag("E501", f"no row of table '{table.name.name}' matches {shown}",
                          getattr(call, "span", None), hint="add an 'otherwise' row"))


# ---- statements --------------------------------------------------------------------------------

def repeat_times(n, node, limit: int, interp: Interpreter | None = None, allowed: int = 0,
                 cost: int = 1):
    if type(n) is not int or n < 0:
        raise RulesError(diag("E505", f"'repeat' needs a whole number of times "
                                      f"(0 or more), not {n}", node.times.span))
    if n > limit:
        raise RulesError(diag("E403", f"'repeat' runs at most {limit} "
                                      f"times, not {n}", node.times.span))
    if interp is not None:
        # Each loop is bounded, but nested loops multiply (1000 x 1000 x 1000 turns run for
        # minutes, four deep for days): a sampled run may do `allowed` steps of work in all
        # (limits.MAX_SAMPLED_STEPS; budget.py), each turn a step and the calls it makes.
        interp.steps += n * cost
        if interp.steps > allowed:
            raise budget.too_much_work(node.times)
    return range(n)


def number_choice(interp: Interpreter, stmt, low, high):
    """Decisions.choose_number up to the default: the chosen number, or None for the default."""
    check_number_range(stmt, low, high)
    policy = interp.policies.for_decision(stmt.name.name)
    if policy in ("random", "greedy") and high > low:
        if policy == "greedy":   # pragma: no cover - such runs are left to the interpreter
            raise Interpret(stmt.name.name)
        return interp.choice_rng.choice(list(range(low, high + 1)))
    if policy.lstrip("-").isdecimal() and len(policy) <= 30 and low <= int(policy) <= high:
        return int(policy)
    return None


# several values at once
def tuple_choice(interp: Interpreter, stmt, low, high, others, where, default):
    """Decisions.choose_tuple in sampling mode, for the first, random and scripted policies:
    the chosen tuple. where(*numbers) tests a combination (None: every one is allowed);
    `others`, the values of the other names it reads (None: nothing kept); default() gives
    the declared default (None: none declared)."""
    if others is not None and not all(type(v) in (int, bool) for v in others):
        others = None
    legal = tuples.options(stmt, low, high, others,
                           (lambda c: where(*c)) if where is not None else bool)
    policy = interp.policies.for_decision(stmt.name.name)
    if policy in ("random", "greedy") and len(legal) > 1:
        if policy == "greedy":   # pragma: no cover - such runs are left to the interpreter
            raise Interpret(stmt.name.name)
        return tuples.draw(legal, interp.choice_rng)
    scripted = tuples.parse(stmt, policy)
    if scripted is not None and scripted in legal:
        return scripted
    return tuples.default_choice(stmt, legal, default() if default is not None else None)


def clamp(value, low, high):
    return min(max(value, low), high)


def fell_off(decl):
    raise RulesError(diag("E503", f"'{decl.name.name}' ended without a result", decl.name.span))


def interpreted(interp: Interpreter, decl, values: list, world):
    """Run one procedure through the interpreter from generated code: its result and world."""
    if type(world) is Draft:
        world = world.freeze()
    params = decl.params
    inner = {p.name.name: v for p, v in zip(params, values)}
    for p in params[len(values):]:   # a default may read the parameters before it
        inner[p.name.name] = interp.fn(p.default)(dict(inner), world)

    def done(value, w):
        return value, w
    # (a run that knew from its start it would call one has these set: _with_interpreter_room;
    # the first run of a program learns it only now, when Python refuses the callee)
    interp.memoise = False
    old = sys.getrecursionlimit()
    sys.setrecursionlimit(max(old, 20_000))
    try:
        return interp.block(decl.body.stmts, 0, inner, world,
                            lambda e, w: interp.fell_off(decl, w, done), done)
    finally:
        sys.setrecursionlimit(old)


def make_thunk(fn, node):
    """A dice argument: fn(env, world) rolls it again; env is unused (the closure has it)."""
    return Thunk(fn, node, {})


def too_deep(decl):
    return RulesError(diag(
        "E403", f"'{decl.name.name}' goes too deep to run: too many steps one after "
                "another (long loops, or procedures calling procedures)", decl.name.span,
        hint="repeat fewer times (at most 1000 in one loop)"))


def travel(interp: Interpreter, stmt, ref, reach, target, world):
    """`travel`: the game moves the fighter (outside a game nothing moves); `target` is the
    fighter or marker of `travel f up to D to TARGET`, else None."""
    game = interp.game
    if game is None or interp.exact_mode:
        return world
    if type(world) is Draft and not game.direct:
        world = world.freeze()
    return game.travel(ref, reach, stmt.away, world, target, through_of(stmt))


def someone(value, node):
    """Pieces as values: a piece's holder or carrier, read for a field of it (E510 if none)."""
    if value is None:
        raise nobody(node)
    return value


def travel_clear(interp: Interpreter, stmt, ref, reach, world):
    """`travel f up to D not into contact` (moves the rules choose): as `travel`, to the
    game's `CLEAR` target."""
    game = interp.game
    if game is None or interp.exact_mode:
        return world
    if type(world) is Draft and not game.direct:
        world = world.freeze()
    return game.travel(ref, reach, False, world, CLEAR, through_of(stmt))


def through_of(stmt) -> str | None:
    """A `travel`'s `through friends|everyone`, as the game's move takes it (None: none)."""
    return stmt.through.name if stmt.through is not None else None


def in_order(items, keys, highest: bool):
    """`for each ... by highest/lowest`: the group in order of its keys, ties as they were."""
    order = sorted(range(len(items)), key=lambda i: -keys[i] if highest else keys[i])
    return [items[i] for i in order]


def choose_among(interp: Interpreter, stmt, group, world):
    """Decisions.choose_among in sampling mode, for the first, random and scripted policies."""
    if not group:
        raise RulesError(diag("E505", f"decision '{stmt.name.name}' has nothing to choose "
                                      f"from: the group is empty", stmt.group.span))
    policy = interp.uniform or interp.policies.for_decision(stmt.name.name)
    if policy == "greedy" and len(group) > 1:
        raise Interpret(stmt.name.name)
    if policy == "random" and len(group) > 1:
        return interp.choice_rng.choice(list(group))
    named = members.named(world, group, policy)   # (a piece: its kind and number)
    return named if named is not None else group[0]


def choose_spot(interp, stmt, at, reach, world):
    """choose_spot in generated code, sampling, for the first, random and scripted policies (a
    greedy one is left to the interpreter, as `choose ... among` is): the spot."""
    centre = spots.where(world, at)
    game = interp.game
    if game is None or centre is None:
        return centre
    policy = interp.uniform or interp.policies.for_decision(stmt.name.name)
    if policy == "greedy":
        raise Interpret(stmt.name.name)
    if policy == "random":
        legal = game.spots(centre, reach, world, True)
        if len(legal) > 1:
            return interp.choice_rng.choice(legal)
        return legal[0] if legal else centre
    spot = spots.parse(policy)
    if spot is not None and game.spot_fits(centre, reach, spot):
        return spot
    legal = game.spots(centre, reach, world, False)
    return legal[0] if legal else centre


def _game(interp: Interpreter, stmt, world):
    game = interp.game
    if game is None or interp.exact_mode:
        word = {"Activate": "activate", "Concede": "concede", "Deploy": "deploy",
                "Place": "place", "BringBack": "bring ... back"}.get(type(stmt).__name__,
                                                              "this")
        if word == "concede":
            return None
        raise RulesError(diag("E506", f"'{word}' needs a game on a board", stmt.span,
                              hint="play it in a scenario: warband play SCENARIO"))
    return game


def activate(interp: Interpreter, stmt, ref, exclude, world):
    """`activate`: the game's player picks an action and it runs; (its name, the world).
    A game whose actions run straight through generated code (Game.direct) takes the draft
    as it is, and its action goes on changing it: no World is made between actions. Outside
    a game (odds) the activation is only counted (run/flow.py)."""
    if interp.game is None:
        return flow.counted_activation(world, ref)
    game = _game(interp, stmt, world)
    if type(world) is Draft and not game.direct:
        world = world.freeze()
    return game.activate_now(stmt, ref, exclude, world, generated=True)


def deploy(interp: Interpreter, stmt, side, zone, world):
    """`deploy`: the side's fighters set up in the zone. In a game whose actions run straight
    through generated code (Game.direct), on a Draft, changed in place, like an action's (a
    World for each fighter set up, and for each token the set-up hands out after, was a tenth of
    the set-up)."""
    game = _game(interp, stmt, world)
    if game.direct:
        world = world if type(world) is Draft else draft(world)
    elif type(world) is Draft:
        world = world.freeze()
    return game.deploy_now(stmt, side, zone, world)


def bring_back(interp: Interpreter, stmt, ref, zone, world):
    """`bring f back into ZONE` (back into play): the game places the fighter again, on the
    Draft as it is in a game whose actions run straight through generated code (as `travel`)."""
    game = _game(interp, stmt, world)
    if type(world) is Draft and not game.direct:
        world = world.freeze()
    return game.bring_back_now(stmt, ref, zone, world)


def place(interp: Interpreter, stmt, at, to, count, zone, apart, by, world):
    game = _game(interp, stmt, world)
    # (the World after it holds the new pieces' state: pieces as values)
    return game.place_now(stmt, at, to, count, zone, apart, by,
                          world.freeze() if type(world) is Draft else world)


def concede(interp: Interpreter, stmt, ref, world):
    game = _game(interp, stmt, world)
    world = world.freeze() if type(world) is Draft else world
    if game is None:
        return world.concede(ref.index)
    return game.concede_now(ref, world)
