"""What a roster card carries from the rules themselves, beyond a fighter's values: the actions
it may take, the boxes a player ticks during play, and the tables marked `for reference`.

Nothing here knows a game. An action is listed on a fighter's card when play offers it (an
`activate` of the rules names it, or one offers every action) and its requirement allows the
fighter at all: each part of the requirement (`requires A and B and C`) that reads only the
acting fighter's class, tier, traits or equipment (`f has Ranged`, `f is human`, and `not`,
`and`, `or` of those) is decided here for the fighter; an action whose decided part fails is left
off the card, and the parts that depend on play are shown as its condition ("if not
attacker.Stunned and ..."). Tick boxes: a box for each `flag X on fighter`, a row of boxes for each
`counter X on fighter` up to its bound, and the side's flags and counters once on the sheet. A
counter's bound is what the rules compare it with: `if f.Wounds >= f.Grit` (anywhere in the
rules) bounds Wounds by the fighter's Grit; with no such comparison, or one that cannot be
worked out from the fighter's values alone, the card leaves a blank to write in.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from fractions import Fraction
from typing import TYPE_CHECKING

from warband.lang import nodes
from warband.lang.per_ruleset import per_ruleset
from warband.lang.unparse import conjuncts, expr_text
from warband.limits import MAX_CARD_BOXES
from warband.run.evaluate import BUILTINS

if TYPE_CHECKING:
    from warband.lang.ruleset import Ruleset
    from warband.run.interpreter import Interpreter
    from warband.run.world import World


def _descend(x) -> Iterator:
    """Every node under x (x included): any node kind, through its fields and tuples."""
    if isinstance(x, tuple):
        for item in x:
            yield from _descend(item)
    elif dataclasses.is_dataclass(x) and not isinstance(x, type):
        yield x
        for f in dataclasses.fields(x):
            if f.name != "span":
                yield from _descend(getattr(x, f.name))


# ---- actions ------------------------------------------------------------------------------------

def _static(e: nodes.Expr, actor: str, piece: str | None, ruleset: Ruleset) -> bool:
    """Whether a part of a requirement reads only the actor's class, tier, traits or equipment,
    or (for an action with a piece of equipment as a parameter, `w: equipment`) whether the
    actor carries that piece and the piece's own values and traits: the same before and during
    play."""
    match e:
        case nodes.Bool() | nodes.Int():
            return True
        case nodes.Has(subject=nodes.Name(name=who), name=name) if who == actor:
            return name.name in ruleset.traits or name.name in ruleset.equipment or \
                (piece is not None and name.name == piece)
        case nodes.Has(subject=nodes.Name(name=who)) if piece is not None and who == piece:
            return True   # a trait of the piece itself (`w has Flame`)
        case nodes.Field(subject=nodes.Name(name=who), field=field) \
                if piece is not None and who == piece:
            return field.name in ruleset.profiles   # `w.Range`
        case nodes.Compare(left=a, right=b) | nodes.Binary(left=a, right=b):
            return _static(a, actor, piece, ruleset) and _static(b, actor, piece, ruleset)
        case nodes.Is(subject=nodes.Name(name=who), name=name):
            return who == actor and (name.name in ruleset.classes or name.name in ruleset.tiers)
        case nodes.Not(operand=x) | nodes.Neg(operand=x):
            return _static(x, actor, piece, ruleset)
        case nodes.Logic(items=items):
            return all(_static(x, actor, piece, ruleset) for x in items)
    return False


@per_ruleset
def offered_actions(ruleset: Ruleset) -> frozenset[str] | None:
    """The actions a fighter can be given to take in play, as the rules' own `activate`
    statements offer them: those their `using` lists give (every action without one), less the
    one a literal `except "strike"` leaves out, over all of them; None (every action) when one
    offers all (`activate f`; `activate f except first` too, whose exception is known only in
    play) or the rules activate nobody (a file for odds, or a scenario that activates). An
    action no `activate` offers is a step the rules take for a fighter (SMART's damage, say),
    not one a player picks, so it is off the card."""
    every = [name for name, decl in ruleset.procedures.items() if decl.kind == "action"]
    offered: set[str] = set()
    bodies = [decl.body for decl in ruleset.procedures.values()]
    if ruleset.scenario is not None:
        bodies.append(ruleset.scenario)
    found = False
    for node in _descend(tuple(bodies)):
        if isinstance(node, nodes.Activate):
            found = True
            names = [name.name for name in node.using] if node.using else every
            if isinstance(node.exclude, nodes.Str):
                names = [name for name in names if name != node.exclude.value]
            elif not node.using:
                return None
            offered.update(names)
    if not found or offered >= set(every):
        return None
    return frozenset(offered)


def actions(ruleset: Ruleset, interpreter: Interpreter, world: World, index: int,
            offered: frozenset[str] | None = None) -> list[dict]:
    """The actions fighter `index` of `world` may take, in the rules' order: [{name, doc, when,
    pieces, label, text}] (label: the name and its pieces; text: with its condition), `when`
    the part of the requirement that depends on play (None: none does), `pieces` for an action
    taken with a piece of equipment (`w: equipment`) the pieces it carries that the
    requirement allows (an action no piece allows is left off). `offered`: the actions play
    offers at all (offered_actions), None for every one."""
    # lazily: the interpreter's world only when a roster is built
    from warband.run.errors import RulesError
    from warband.run.world import Ref
    out = []
    carried = list(dict.fromkeys(world.fighters[index].equipment))
    for decl in ruleset.procedures.values():
        if decl.kind != "action" or not decl.params or \
                offered is not None and decl.name.name not in offered:
            continue
        actor = decl.params[0]
        if actor.type is None or actor.type.name != "fighter":   # a side's or the board's
            continue
        piece = next((p.name.name for p in decl.params[1:]
                      if p.type is not None and p.type.name == "equipment"), None)
        parts = conjuncts(decl.requires) if decl.requires is not None else []
        decided = [part for part in parts if _static(part, actor.name.name, piece, ruleset)]
        kept = [part for part in parts if part not in decided]

        def holds(env: dict, decided=decided) -> bool | None:   # None: undecided, left to play
            try:
                return all(interpreter.fn(part)(env, world) is True for part in decided)
            except RulesError:
                return None

        me = {actor.name.name: Ref("fighter", index)}
        pieces: list[str] | None = None
        if piece is not None:
            pieces = [p for p in carried if holds({**me, piece: p}) is not False]
            if not pieces:
                continue
        else:
            allowed = holds(me)
            if allowed is False:
                continue
            if allowed is None:
                kept = parts
        when = None
        if kept:
            when = expr_text(kept[0] if len(kept) == 1 else
                             nodes.Logic("and", tuple(kept), kept[0].span))
        text = decl.name.name + (f" with {' or '.join(pieces)}" if pieces else "")
        out.append({"name": decl.name.name, "doc": decl.doc, "when": when,
                    "pieces": pieces or [], "label": text,
                    "text": text if when is None else f"{text} (if {when})"})
    return out


# ---- tick boxes ---------------------------------------------------------------------------------

# what the bound adds to the value compared with (`Wounds > Grit`: down at Grit + 1); `==` is
# no bound (`MovementUsed == 0`)
_BOUND = {">=": 0, "<": 0, "<=": 0, ">": 1}
_MIRROR = {">=": "<=", "<=": ">=", ">": "<", "<": ">", "==": "==", "!=": "!="}


def _fighter_only(e: nodes.Expr, who: str, ruleset: Ruleset) -> bool:
    """Whether an expression reads only numbers and the stats of fighter `who` (no state, no
    roll, no board; a numeric trait is a stat here): one that can be worked out for a fighter
    before play."""
    match e:
        case nodes.Int():
            return True
        case nodes.Field(subject=nodes.Name(name=name), field=field):
            return name == who and (field.name in ruleset.stats or (
                field.name in ruleset.traits and ruleset.traits[field.name].numeric))
        case nodes.Binary(left=a, right=b):
            return _fighter_only(a, who, ruleset) and _fighter_only(b, who, ruleset)
        case nodes.Neg(operand=x):
            return _fighter_only(x, who, ruleset)
        case nodes.Call(callee=callee, args=args) if callee.name in ruleset.tables:
            return all(_fighter_only(a, who, ruleset) for a in args)   # (a table never rolls)
        case nodes.Call(callee=callee, args=args) if callee.name in ruleset.defines:
            return all(isinstance(a, nodes.Name) and a.name == who or
                       _fighter_only(a, who, ruleset) for a in args) and \
                _unchanging(callee.name, ruleset, set())
    return False


def _unchanging(define: str, ruleset: Ruleset, seen: set[str]) -> bool:
    """Whether a definition reads nothing that changes in play or is rolled (no state, no dice,
    no board question, and only definitions of the same kind): its value before play is its
    value."""
    if define in seen:
        return True
    seen.add(define)
    for e in _descend(ruleset.defines[define].body):
        match e:
            case nodes.Field(field=field) if field.name in ruleset.states:
                return False
            case nodes.Dice() | nodes.Count() | nodes.Within() | nodes.Under():
                return False
            case nodes.Call(callee=callee) if callee.name in ruleset.defines:
                if not _unchanging(callee.name, ruleset, seen):
                    return False
            case nodes.Call(callee=callee) if callee.name in ruleset.tables:
                continue
            case nodes.Call() if e.callee.name not in BUILTINS:   # a board question
                return False
            case nodes.Aggregate():   # over fighters in play
                return False
    return True


@per_ruleset
def counter_bounds(ruleset: Ruleset) -> dict[str, list[tuple[str, nodes.Expr, int]]]:
    """Each fighter counter's comparisons with a fighter's own stats, anywhere in the rules:
    counter -> [(the fighter's name in the expression, the expression, what to add)]. Kept per
    ruleset (per_ruleset), as offered_actions: a directory's rosters ask once, not once each; the
    answer is shared, to be read, not changed."""
    counters = {n for n, s in ruleset.states.items() if s.kind == "counter" and s.owner == "fighter"}
    found: dict[str, list[tuple[str, nodes.Expr, int]]] = {}
    if not counters:
        return found
    decls = [*ruleset.procedures.values(), *ruleset.defines.values()]
    for e in _descend(tuple(decls)):
        if not isinstance(e, nodes.Compare) or e.op not in _MIRROR:
            continue
        for left, op, right in ((e.left, e.op, e.right), (e.right, _MIRROR[e.op], e.left)):
            if isinstance(left, nodes.Field) and isinstance(left.subject, nodes.Name) and \
                    left.field.name in counters and op in _BOUND and \
                    _fighter_only(right, left.subject.name, ruleset):
                found.setdefault(left.field.name, []).append(
                    (left.subject.name, right, _BOUND[op]))
    return found


def tick_boxes(ruleset: Ruleset, interpreter: Interpreter, world: World, index: int,
               bounds: dict[str, list[tuple[str, nodes.Expr, int]]]) -> list[dict]:
    """The boxes on fighter `index`'s card: [{name, kind, doc, boxes}], `boxes` the number of
    boxes to tick (a flag's one; a counter's bound) or None for a blank to write in."""
    from warband.run.errors import RulesError  # lazily, as in actions
    from warband.run.world import Ref
    out = []
    for name, state in ruleset.states.items():
        if state.owner != "fighter":
            continue
        boxes: int | None = 1 if state.kind == "flag" else None
        if state.kind == "counter":
            values = set()
            for who, expr, extra in bounds.get(name, ()):
                try:
                    value = interpreter.fn(expr)({who: Ref("fighter", index)}, world)
                except RulesError:
                    continue
                if isinstance(value, (int, Fraction)) and not isinstance(value, bool):
                    values.add(int(value) + extra)
            # one bound, and a sensible number of boxes; else a blank
            if values == {0}:   # bound by nothing: a caster's spells for one that casts none
                continue
            if len(values) == 1 and 0 < (only := values.pop()) <= MAX_CARD_BOXES:
                boxes = only
        out.append({"name": name, "kind": state.kind, "doc": state.doc, "boxes": boxes,
                    "row": box_row(boxes)})
    return out


def side_boxes(ruleset: Ruleset) -> list[dict]:
    """The side's flags and counters, once on the sheet: [{name, kind, doc, boxes, row}]."""
    return [{"name": name, "kind": s.kind, "doc": s.doc, "boxes": 1 if s.kind == "flag" else None,
             "row": box_row(1 if s.kind == "flag" else None)}
            for name, s in ruleset.states.items() if s.owner == "side"]


def box_row(boxes: int | None) -> str:
    """Boxes as text: `☐ ☐ ☐`, or a blank line to write a number in."""
    return " ".join(["☐"] * boxes) if boxes is not None else "____"


# ---- tables for reference ----------------------------------------------------------------------

def _row_key(row: nodes.Row) -> str:
    """What a row matches: `when CONDITION`, `otherwise`, or its key (as `rules show` writes
    it; not imported from lang.summary, which would bring rich into every roster)."""
    if row.kind == "when" and row.condition is not None:
        return f"when {expr_text(row.condition)}"
    if row.kind == "otherwise" or row.key is None:
        return "otherwise"
    key = row.key
    return key.name if isinstance(key, nodes.Ident) else (
        f"{key[0]}..{key[1]}" if isinstance(key, tuple) else str(key))


def reference_tables(ruleset: Ruleset) -> list[dict]:
    """The tables marked `for reference`, once for the sheet: [{name, doc, params, columns,
    rows: [{key, values, doc}]}], each row's key its condition (`when ...`), key or
    `otherwise`."""
    out = []
    for table in ruleset.tables.values():
        if not table.reference:
            continue
        out.append({
            "name": table.name.name, "doc": table.doc,
            "params": ", ".join(p.name.name for p in table.params),
            "columns": [c.name for c in table.columns],
            "rows": [{"key": _row_key(row), "values": [v.value if isinstance(v, nodes.Str) else expr_text(v)
                                                  for v in row.values],
                      "doc": row.doc} for row in table.rows],
        })
    return out


__all__ = ["actions", "box_row", "counter_bounds", "offered_actions", "reference_tables",
           "side_boxes", "tick_boxes"]
