"""What a fighter may do when activated: the legal actions and their targets.

An activation weighs every action against every other fighter, and a game has about a hundred
activations, so this is the engine's inner loop. Each action's `requires` is asked in three
parts: what reads only what never changes in a game (`attacker has Ranged`, `target.side !=
attacker.side`: sides, classes, names, traits, equipment), once, when an actor's list of options
is made; what reads only the actor (`not attacker.Stunned`), once per activation; the rest
(`contact(attacker, target)`), once per target drawn. An actor's list is made once and shared
by every game of the ruleset with the same fighters; targets out of play stay in it and are
skipped (`in_play`). The parts run as generated Python taking the engine's own Refs
(Program.engine_test, codegen/program.py); the interpreter answers what the generator does not take, with
the same results.
"""

from __future__ import annotations

from collections.abc import Sequence

from warband.lang import nodes
from warband.lang.per_ruleset import per_ruleset
from warband.lang.unparse import conjuncts, expr_text
from warband.run.codegen import hooks as codegen
from warband.run.codegen.runtime import Interpret
from warband.run.world import FIGHTER_REFS, PIECE_REFS, SIDE_REFS, Ref, World

KEPT = 50_000   # lists of options kept (each a few dozen shared tuples)


@per_ruleset
def options_for(ruleset, compiled: bool) -> Options:
    """The Options of a ruleset, made once and shared by its games."""
    return Options(ruleset, compiled)


class Options:
    """The options of one ruleset's actions, kept for every game of it (the tests take the
    game's interpreter as an argument; what is kept depends only on the rules and on which
    fighters are in play)."""

    def __init__(self, ruleset, compiled: bool) -> None:
        self.ruleset, self.compiled = ruleset, compiled
        self._plans: dict = {}     # action -> (actor test, rest test, fixed test) or None
        # (actions, actor, the fighters' number) -> (each action's actor test, each action's
        # options, {which actor tests held: those actions' options together})
        self._usable: dict[tuple, tuple[list, list[int], list, dict[tuple[bool, ...], list]]] = {}
        self._forces: dict = {}    # what never changes of a world's fighters -> a number
        self._kept: list = []      # synthetic AST nodes: compiled closures are cached by id
        self._slow: dict = {}      # generated test -> the interpreter's, for what it leaves
        self._actors: dict = {}    # (actor's name and type, what is asked) -> its test

    def forces(self, world: World) -> int:
        """A number for what never changes of a world's fighters in a game (sides, classes,
        names, traits, equipment): worlds with the same number share their lists of targets.
        A game asks once, for the world it starts from."""
        fixed = tuple((f.side, f.fighter_class, f.tier, f.name, tuple(f.traits.items()),
                       f.equipment) for f in world.fighters)
        return self._forces.setdefault(fixed, len(self._forces))

    def candidates(self, interp, ref: Ref, names: Sequence[str], world: World,
                   forces: int | None = None) -> list:
        """Every (action, arguments, test, refs, targets, (action, arguments)) whose actor-only
        part of `requires` holds and whose parts that read only what never changes hold, for
        every fighter as a target, in play or not (so that the lists are the same all game
        long); the option is legal (`legal`) when none of its target fighters is removed
        and test is None or test(interp, world, *refs) is True. `forces`: the world's number
        (`forces`)."""
        if forces is None:
            forces = self.forces(world)
        if type(names) is not tuple:
            names = tuple(names)
        key = (names, ref.index, forces, len(world.pieces))   # (pieces placed in play, too)
        kept = self._usable.get(key)
        if kept is None:
            if len(self._usable) > KEPT:   # many kinds of forces: start again
                self._usable.clear()
            usable = self._usable_actions(interp, names, ref, world)
            # the actor tests, each once however many actions ask it (`not attacker.Stunned`
            # of most of them); which one each action asks (-1: none); their options;
            # {which tests held: those actions' options together}
            tests = list(dict.fromkeys(actor for actor, _ in usable if actor is not None))
            kept = self._usable[key] = (tests, [-1 if actor is None else tests.index(actor)
                                                for actor, _ in usable],
                                        [targets for _, targets in usable], {})
        tests, which, targets, lists = kept
        # what the actions ask of the actor alone: once per activation, not once per target
        try:
            if world.lazies:
                raise Interpret
            held = tuple([test(interp, world, ref) is True for test in tests])
        except Interpret:   # the interpreter answers what generated code leaves to it
            passes = self.passes
            held = tuple([passes(interp, test, world, (ref,)) for test in tests])
        found = lists.get(held)
        if found is None:
            found = lists[held] = [option for w, options in zip(which, targets)
                                   if w < 0 or held[w] for option in options]
        return found

    def _usable_actions(self, interp, names, ref: Ref, world: World) -> list:
        """(actor test, options) of each action with an option whose fixed parts hold."""
        out = []
        for name in names:
            plan = self._plans.get(name, False)
            if plan is False:
                plan = self._plans[name] = self._plan(name, interp)
            if plan is None:
                continue   # not a player's action (a number the engine cannot know)
            actor, rest, fixed = plan
            targets = self._target_list(interp, name, rest, fixed, ref, world)
            if targets:
                out.append((actor, targets))
        return out

    def legal(self, interp, option, world: World) -> bool:
        return in_play(option, world.fighters) and (
            option[2] is None or self.passes(interp, option[2], world, option[3]))

    def passes(self, interp, test, world: World, refs: tuple) -> bool:
        """A test's answer; the interpreter's where generated code cannot answer (rolls kept
        whole in the world, or a value it leaves to the interpreter)."""
        if not world.lazies:
            try:
                return test(interp, world, *refs) is True
            except Interpret:
                pass
        return self._slow.get(test, test)(interp, world, *refs) is True

    # ---- made once per action ------------------------------------------------------------------
    def _plan(self, name: str, interp):
        decl = self.ruleset.procedures[name]
        params = decl.params
        if not params:
            return None
        markers = self.ruleset.markers   # a piece parameter (`p: beacon`): each piece of the kind
        for p in params[1:]:
            if p.default is None and (p.type is None or p.type.name not in ENGINE_FILLED and
                                      p.type.name not in markers):
                return None
        if decl.requires is None:
            return None, None, None
        first = params[0].name.name
        alone: list[nodes.Expr] = []
        rest: list[nodes.Expr] = []
        fixed: list[nodes.Expr] = []
        values = {p.name.name for p in params if p.type is None or
                  p.type.name not in ENGINE_FILLED and p.type.name not in markers or
                  p.default is not None}
        for part in conjuncts(decl.requires):
            if _fixed(part, values):
                fixed.append(part)
            else:
                (alone if names_read(part) <= {first} else rest).append(part)
        actor = self._actor_test(interp, decl, alone) if alone else None
        return (actor, self._test(interp, decl, f"{name} rest", rest, params) if rest else None,
                self._test(interp, decl, f"{name} fixed", fixed, params) if fixed else None)

    def _actor_test(self, interp, decl, parts: list):
        """The test of what an action asks of its actor alone, shared by every action that
        asks the same of an actor of the same name and type (one call answers them all: a
        `requires` depends on no roll, E303). An error in it is shown at the first such
        action's lines, which read the same."""
        actor = decl.params[0]
        key = (actor.name.name, actor.type.name if actor.type is not None else None,
               tuple(expr_text(part) for part in parts))
        found = self._actors.get(key)
        if found is None:
            found = self._actors[key] = self._test(interp, decl, f"{decl.name.name} actor",
                                                   parts, decl.params[:1])
        return found

    def _test(self, interp, decl, key: str, parts: list, params) -> object:
        """test(interp, world, *refs) for the conjunction of `parts`: generated Python, or the
        interpreter's closure with the arguments made from the refs."""
        node = parts[0] if len(parts) == 1 else nodes.Logic("and", tuple(parts), decl.requires.span)
        synthetic = nodes.ProcedureDecl("action", nodes.Ident(key, decl.span), params, None, None,
                                      node, nodes.Block((), decl.span), decl.span)
        self._kept += [node, synthetic]
        given = [p.name.name for p in params if p.default is None]

        def slow(interp, world, *refs):
            return interp.holds(synthetic, dict(zip(given, refs)), world)
        if self.compiled:
            program = codegen.program_of(interp)
            fast = program.engine_test(synthetic, key)
            if fast is not None:
                self._slow[fast] = slow
                return fast
        return slow

    def _target_list(self, interp, name: str, rest, fixed, ref: Ref, world: World) -> list:
        """Every choice of the action's other fighter and side parameters, in the order of the
        fighters, for which the parts of `requires` that never change hold: (name, args, rest
        test, the refs it takes)."""
        decl = self.ruleset.procedures[name]
        params = decl.params
        fighters = [FIGHTER_REFS[i] for i in range(len(world.fighters)) if i != ref.index]
        # (a piece of equipment is its name: weapon profiles)
        choices: list[list[tuple[str, Ref | str]]] = [[(params[0].name.name, ref)]]
        for p in params[1:]:
            if p.default is not None:
                continue
            if p.type.name == "fighter":
                choices = [c + [(p.name.name, f)] for c in choices for f in fighters]
            elif p.type.name == "equipment":   # weapon profiles: each piece the actor carries
                pieces = dict.fromkeys(world.fighters[ref.index].equipment)
                choices = [c + [(p.name.name, piece)] for c in choices for piece in pieces]
            elif p.type.name in self.ruleset.markers:   # each piece of the kind on the board
                kind = p.type.name
                placed = [PIECE_REFS[i] for i, q in enumerate(world.pieces) if q.kind == kind]
                choices = [c + [(p.name.name, q)] for c in choices for q in placed]
            else:
                side = SIDE_REFS[world.fighters[ref.index].side]
                choices = [c + [(p.name.name, side)] for c in choices]
        out = []
        for c in choices:
            args = dict(c)
            out.append((name, args, rest, tuple(r for _, r in c),
                        tuple(r.index for _, r in c[1:] if isinstance(r, Ref) and
                              r.kind == "fighter"), (name, args)))
        return [o for o in out if fixed is None or self.passes(interp, fixed, world, o[3])]


_FIXED_FIELDS = ("side", "class", "tier", "name")
# the parameters the engine fills: every other fighter, the actor's side; and (weapon profiles)
# each piece of equipment the actor carries, a piece's name, which never changes in a game
ENGINE_FILLED = ("fighter", "side", "equipment")


def _fixed(e, values: set) -> bool:
    """Whether an expression reads only what never changes during a game: fighters' sides,
    classes, names, traits and equipment, and constants (no value, no board question).
    `values`: the parameters that are not the engine's fighters and sides (a default may ask
    the board)."""
    t = type(e)
    if t is nodes.Int or t is nodes.Str or t is nodes.Bool:
        return True
    if t is nodes.Name:
        return e.name not in values
    if t is nodes.Field:
        return e.field.name in _FIXED_FIELDS and _fixed(e.subject, values) and \
            type(e.subject) is nodes.Name
    if t is nodes.Has or t is nodes.Is:
        return type(e.subject) is nodes.Name and _fixed(e.subject, values)
    if t is nodes.Compare:
        return _fixed(e.left, values) and _fixed(e.right, values)
    if t is nodes.Logic:
        return all(_fixed(i, values) for i in e.items)
    if t is nodes.Not:
        return _fixed(e.operand, values)
    return False


def in_play(option, fighters) -> bool:
    """Whether none of an option's target fighters is removed."""
    targets = option[4]
    if not targets:
        return True
    if len(targets) == 1:
        return not fighters[targets[0]].removed
    return not any(fighters[i].removed for i in targets)


def names_read(node) -> set[str]:
    """Every name read anywhere inside an expression (loop variables included: conservative)."""
    found: set[str] = set()
    stack = [node]
    while stack:
        n = stack.pop()
        if type(n) is nodes.Name:
            found.add(n.name)
        elif isinstance(n, tuple):
            stack.extend(n)
        elif hasattr(n, "__dataclass_fields__") and type(n) is not nodes.Ident:
            stack.extend(getattr(n, f) for f in n.__dataclass_fields__ if f != "span")
    return found
