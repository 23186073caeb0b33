"""`warband rules diff BASE HOUSE`: what house rules change, in a player's words, or as JSON.

Two compiled rulesets are compared definition by definition, whatever made them (a house file
on its base, or any two rulesets). Rules that are code (tables' conditions, definitions,
procedures) are compared by their shape, ignoring where they are written, so a definition that is
only moved or re-indented is not a change.
"""

from __future__ import annotations

import dataclasses
import difflib
import re
from dataclasses import dataclass, field
from typing import Callable, Iterable, cast

from warband.diagnostics import Span, printable
from warband.terminal import wrap
from warband.lang import nodes
from warband.lang.ruleset import (
    Army,
    Equipment,
    FighterClass,
    Outcomes,
    Ruleset,
    Stat,
    State,
    Tier,
    Trait,
)
from warband.lang.summary import (
    derived_text,
    quota_text,
    row_text,
    trait_list_text,
    value_text,
)
from warband.lang.units import unit_words
from warband.lang.unparse import army_rule_text, event_when, expr_text

# The sections of a diff, in the order a player reads a ruleset (as `rules show` does).
SECTIONS = (
    ("stat", "Stats"), ("enum", "Enumerations"), ("state", "Kept during play"),
    ("tier", "Tiers"), ("trait", "Traits"), ("class", "Classes"), ("equipment", "Equipment"),
    ("profile", "Values of each piece of equipment"),   # weapon profiles
    ("table", "Tables"), ("define", "Definitions"), ("outcomes", "Outcomes"),
    ("procedure", "Procedures, actions and phases"), ("event", "Events"),
    ("army", "Army construction"),
)


@dataclass
class Change:
    kind: str            # stat, enum, state, tier, trait, class, equipment, table, define, ...
    name: str
    change: str          # added | changed | removed
    details: list[str] = field(default_factory=list)

    def to_json(self) -> dict:
        return {"kind": self.kind, "name": self.name, "change": self.change,
                "details": self.details}


def shape(node) -> object:
    """A node without its positions: equal shapes are the same rule, wherever written."""
    if dataclasses.is_dataclass(node) and not isinstance(node, type):
        return (type(node).__name__,) + tuple(
            shape(getattr(node, f.name)) for f in dataclasses.fields(node)
            if f.name not in ("span", "extends_span"))
    if isinstance(node, (tuple, list)):
        return tuple(shape(x) for x in node)
    return node


def _traits(pairs: Iterable[tuple[str, object]]) -> str:
    return trait_list_text(pairs) or "none"


def _pairs_changes(before: Iterable[tuple[str, object]], after: Iterable[tuple[str, object]],
                   noun: str) -> list[str]:
    """gains/loses/changes for (name, value) pairs such as a class's traits or stats."""
    old, new = dict(before), dict(after)
    out = []
    gained = [n for n in new if n not in old]
    lost = [n for n in old if n not in new]
    if gained:
        out.append(f"gains {noun} " + _traits([(n, new[n]) for n in gained]))
    if lost:
        out.append(f"loses {noun} " + ", ".join(lost))
    for n in new:
        if n in old and old[n] != new[n]:
            out.append(f"{n} {value_text(old[n]) or 'yes'} -> {value_text(new[n]) or 'yes'}")
    return out


def _doc(before: str | None, after: str | None) -> list[str]:
    return [f'new description: "{after}"'] if before != after and after else (
        ["description dropped"] if before != after else [])


# ---- one kind at a time ---------------------------------------------------------------------

def _stat(a: Stat, b: Stat) -> list[str]:
    out = []
    if (a.low, a.high, a.enum) != (b.low, b.high, b.enum):
        out.append(f"values {a.enum or f'{a.low}..{a.high}'} -> {b.enum or f'{b.low}..{b.high}'}")
    if a.default != b.default:
        out.append(f"default {value_text(a.default) or 'none'} -> {value_text(b.default) or 'none'}")
    derived = (derived_text(a), derived_text(b))
    if derived[0] != derived[1]:
        out.append(f"worked out as {derived[0] or 'nothing (given)'} -> "
                   f"{derived[1] or 'nothing (given)'}")
    return out + _doc(a.doc, b.doc)


def _class(a: FighterClass, b: FighterClass) -> list[str]:
    out = []
    if a.tier != b.tier:
        out.append(f"tier {a.tier or 'none'} -> {b.tier or 'none'}")
    out += _pairs_changes(a.traits, b.traits, "trait")
    gained = [e for e in b.equipment if e not in a.equipment]
    lost = [e for e in a.equipment if e not in b.equipment]
    if gained:
        out.append("gains equipment " + ", ".join(gained))
    if lost:
        out.append("loses equipment " + ", ".join(lost))
    for n, v in b.stats:
        old = dict(a.stats).get(n)
        if old != v:
            out.append(f"{n} {value_text(old) if old is not None else 'not fixed'} -> {value_text(v)}")
    for n, v in a.stats:
        if n not in dict(b.stats):
            out.append(f"{n} no longer fixed (was {value_text(v)})")
    options = ([o.words() for o in a.options], [o.words() for o in b.options])
    out += [f"no longer {w}" for w in options[0] if w not in options[1]]
    out += [f"now {w}" for w in options[1] if w not in options[0]]
    out += _choices(a, b)
    # units of several models: their models, wounds and what single models may carry
    units = tuple(unit_words(c.unit) if c.unit is not None else None for c in (a, b))
    if units[0] != units[1]:
        out.append(f"{units[0] or 'not a unit'} -> {units[1] or 'not a unit'}")
    return out + _doc(a.doc, b.doc)


def _choices(a: FighterClass, b: FighterClass) -> list[str]:
    """The stats a class lets the list choose, and in which bounds (`stat NAME: 2..4`)."""
    def shown(c: FighterClass, stat: str) -> str | None:
        ch = c.choice(stat)
        return None if ch is None else ch.shown + (
            f" (default {value_text(ch.default)})" if ch.default is not None else "")
    out = []
    for stat in dict.fromkeys([c.stat for c in a.choices] + [c.stat for c in b.choices]):
        old, new = shown(a, stat), shown(b, stat)
        if old != new:
            out.append(f"{stat} chosen {old} -> {new}" if old and new else
                       f"{stat} now chosen {new}" if new else f"{stat} no longer chosen")
    return out


def _trait(a: Trait, b: Trait) -> list[str]:
    out = []
    if a.numeric != b.numeric:
        out.append("now takes a number" if b.numeric else "no longer takes a number")
    if a.combine != b.combine:
        out.append(f"values from several sources: {a.combine} -> {b.combine}")
    return out + _doc(a.doc, b.doc)


def _equipment(a: Equipment, b: Equipment) -> list[str]:
    return _pairs_changes(a.grants, b.grants, "trait") + \
        _pairs_changes(a.values, b.values, "value") + \
        _pairs_changes(a.traits, b.traits, "own trait") + _doc(a.doc, b.doc)   # weapon profiles


def _row_key(row: nodes.Row) -> str:
    return row_text(row)[0]


def _table(a: nodes.TableDecl, b: nodes.TableDecl) -> list[str]:
    out = []
    if [c.name for c in a.columns] != [c.name for c in b.columns]:
        out.append(f"columns {', '.join(c.name for c in a.columns)} -> "
                   f"{', '.join(c.name for c in b.columns)}")
    if shape(a.params) != shape(b.params):
        out.append(f"parameters ({', '.join(p.name.name for p in a.params)}) -> "
                   f"({', '.join(p.name.name for p in b.params)})")
    old = {_row_key(r): r for r in a.rows}
    new = {_row_key(r): r for r in b.rows}
    for key, row in new.items():
        values = row_text(row)[1]
        if key not in old:
            out.append(f"new row {key} => {values}")
        elif shape(old[key].values) != shape(row.values):
            out.append(f"row {key}: {row_text(old[key])[1]} -> {values}")
    for key, row in old.items():
        if key not in new:
            out.append(f"row {key} => {row_text(row)[1]} removed")
    if not out and [_row_key(r) for r in a.rows] != [_row_key(r) for r in b.rows]:
        out.append("rows reordered (the first that matches wins)")
    if a.reference != b.reference:   # printed on roster sheets, or no longer
        out.append("now for reference" if b.reference else "no longer for reference")
    return out + _doc(a.doc, b.doc)


def _define(a: nodes.DefineDecl, b: nodes.DefineDecl) -> list[str]:
    out = []
    if shape(a.params) != shape(b.params):
        out.append(f"parameters ({', '.join(p.name.name for p in a.params)}) -> "
                   f"({', '.join(p.name.name for p in b.params)})")
    if shape(a.body) != shape(b.body):
        out.append(f"{expr_text(a.body)}  ->  {expr_text(b.body)}")
    return out + _doc(a.doc, b.doc)


def _procedure(a: nodes.ProcedureDecl, b: nodes.ProcedureDecl) -> list[str]:
    out = []
    if a.kind != b.kind:
        out.append(f"{a.kind} -> {b.kind}")
    if shape(a.params) != shape(b.params):
        out.append(f"parameters ({_params(a)}) -> ({_params(b)})")
    if _result(a) != _result(b):
        out.append(f"result {_result(a)} -> {_result(b)}")
    if shape(a.requires) != shape(b.requires):
        out.append(f"requires {expr_text(a.requires) if a.requires else 'nothing'} -> "
                   f"{expr_text(b.requires) if b.requires else 'nothing'}")
    if shape(a.body) != shape(b.body):
        out.append(f"its steps change (were {_at(a.span)}, now {_at(b.span)}):")
        out += [f"  {line}" for line in _steps(a.body, b.body)]
    return out + _doc(a.doc, b.doc)


def _event(a: nodes.EventDecl, b: nodes.EventDecl) -> list[str]:
    """Events (run/events.py): the trigger, its fraction or value, the steps, the doc."""
    out = []
    if event_when(a) != event_when(b):
        out.append(f"when {event_when(a)} -> when {event_when(b)}")
    if shape(a.body) != shape(b.body):
        out.append(f"its steps change (were {_at(a.span)}, now {_at(b.span)}):")
        out += [f"  {line}" for line in _steps(a.body, b.body)]
    return out + _doc(a.doc, b.doc)


def _params(decl: nodes.ProcedureDecl) -> str:
    return ", ".join(p.name.name + (f": {p.type.name}" if p.type is not None else "")
                     + (f" = {expr_text(p.default)}" if p.default is not None else "")
                     for p in decl.params)


def _result(decl: nodes.ProcedureDecl) -> str:
    """What a procedure gives back, as written after its `->` ('nothing' without one)."""
    if decl.results:
        return "(" + ", ".join(r.name for r in decl.results) + ")"
    return decl.result.name if decl.result is not None else "nothing"


def _step_text(stmt: nodes.Stmt) -> str:
    """The first line of a statement, as written in rules (blocks are shown as { ... })."""
    match stmt:
        case nodes.Let(name=n, value=v):
            return f"let {n.name} = {expr_text(v)}"
        case nodes.Set(target=t, op=op, value=v):
            return f"set {'.'.join(i.name for i in t)} {op} {expr_text(v)}"
        case nodes.If(condition=c, otherwise=o):
            return f"if {expr_text(c)} {{ ... }}" + (" else ..." if o is not None else "")
        case nodes.Choose(name=n, decider=d, options=opts):
            return f"choose {n.name} by {expr_text(d)}: " + ", ".join(o.name.name for o in opts)
        case nodes.ChooseNumber(name=n, decider=d, low=lo, high=hi):
            return f"choose {n.name} by {expr_text(d)} from {expr_text(lo)}..{expr_text(hi)}"
        case nodes.LetTuple(names=ns, value=v):
            return f"let ({', '.join(x.name for x in ns)}) = {expr_text(v)}"
        case nodes.ChooseTuple(name=n, names=ns, decider=d, low=lo, high=hi, where=wh):
            return (f"choose {n.name} ({', '.join(x.name for x in ns)}) by {expr_text(d)} "
                    f"from {expr_text(lo)}..{expr_text(hi)}"
                    + (f" where {expr_text(wh)}" if wh is not None else ""))
        case nodes.Return(value=v):
            return "return" if v is None else f"return {expr_text(v)}"
        case nodes.Remove(subject=x, by=by):
            return f"remove {expr_text(x)}" + (f" by {expr_text(by)}" if by is not None else "")
        case nodes.Wound(amount=n, target=x):   # units of several models
            return f"inflict {expr_text(n)} wounds on {expr_text(x)}"
        case nodes.ForEach(var=v, items=i):
            return f"for each {v.name} in {expr_text(i)} {{ ... }}"
        case nodes.Repeat(times=t):
            return f"repeat {expr_text(t)} times {{ ... }}"
        case nodes.CallStmt(call=c):
            return expr_text(c)
        case nodes.ForSorted(var=v, items=i, highest=h, key=k, then=then):
            keys = ", ".join(f"{'highest' if up else 'lowest'} {expr_text(e)}"
                             for up, e in ((h, k), *then))
            return f"for each {v.name} in {expr_text(i)} by {keys} {{ ... }}"
        case nodes.ChooseAmong(name=n, decider=d, group=g):
            return f"choose {n.name} by {expr_text(d)} among {expr_text(g)}"
        case nodes.Activate(fighter=f, using=using, exclude=x, bind=bind):
            return (f"activate {expr_text(f)}"
                    + (f" using {', '.join(u.name for u in using)}" if using else "")
                    + (f" except {expr_text(x)}" if x is not None else "")
                    + (f" as {bind.name}" if bind is not None else ""))
        case nodes.Travel(fighter=f, distance=d, away=away, target=t, through=th):
            return (f"travel {expr_text(f)} {'away' if away else 'up to'} {expr_text(d)}"
                    + (f" to {expr_text(t)}" if t is not None else "")
                    + (f" through {th.name}" if th is not None else ""))
        case nodes.Withdraw(fighter=f, by=by):
            return f"withdraw {expr_text(f)}" + (f" by {expr_text(by)}" if by is not None else "")
        case nodes.Concede(side=x):
            return f"concede {expr_text(x)}"
        case nodes.Deploy(side=x, zone=z):
            return f"deploy {expr_text(x)} in {expr_text(z)}"
        case nodes.BringBack(fighter=f, zone=z):   # back into play
            return f"bring {expr_text(f)} back into {expr_text(z)}"
        case nodes.Place(kind=k):
            return f"place {k.name} ..."
        # turn flow
        case nodes.While(condition=c, times=t):
            return f"while {expr_text(c)} at most {expr_text(t)} times {{ ... }}"
        case nodes.Break():
            return "break"
        case nodes.Continue():
            return "continue"
        case nodes.EndTurn(side=x):
            return "end turn" + (f" of {expr_text(x)}" if x is not None else "")
        # decks and bags
        case nodes.Draw(name=n, deck=d, to=to):
            return f"draw {n.name} from {expr_text(d)}" + (" to hand" if to is not None else "")
        case nodes.Discard(card=c, deck=d):
            return f"discard {expr_text(c)} from {expr_text(d)}"
        case nodes.Shuffle(deck=d):
            return f"shuffle {expr_text(d)}"
        case nodes.ChooseSpot(name=n, decider=d, reach=r, at=a):   # a spot on the board
            return f"choose {n.name} within {expr_text(r)} of {expr_text(a)} by {expr_text(d)}"
        case nodes.PutAt(piece=p, where=w):   # moving a piece
            return f"put {expr_text(p)} at {expr_text(w)}"
        # campaigns: in an aftermath
        case nodes.Gear(kind=k, equipment=e, fighter=f):
            return f"{k} {e.name} {'to' if k == 'give' else 'from'} {expr_text(f)}"
        case nodes.Hire(name=n, fighter_class=c, side=x, equipment=gear):
            return (f'hire "{n}" as {c.name} for {expr_text(x)}'
                    + (f" equipment {', '.join(g.name for g in gear)}" if gear else ""))
    # A statement named nowhere above is still shown by its kind, in words rather than the
    # node's class name ("ForSorted" meant nothing to a designer).
    return re.sub(r"(?<!^)(?=[A-Z])", " ", type(stmt).__name__).lower() + " ..."


def _inner(stmt: nodes.Stmt) -> list[tuple[nodes.Stmt, ...]]:
    """The blocks a statement holds, for comparing step by step."""
    match stmt:
        case nodes.If(then=t, otherwise=o):
            return [t.stmts, () if o is None else (o,) if isinstance(o, nodes.If) else o.stmts]
        case nodes.ForEach(body=b) | nodes.Repeat(body=b) | nodes.ForSorted(body=b) | \
                nodes.While(body=b):
            return [b.stmts]
        case nodes.Choose(options=opts):
            return [o.body.stmts if o.body else () for o in opts]
    return []


def _steps(a: nodes.Block | tuple[nodes.Stmt, ...], b: nodes.Block | tuple[nodes.Stmt, ...],
           depth: int = 0) -> list[str]:
    """What changed between two blocks of statements: steps added (+), dropped (-) and changed
    (~, with the changes inside a block shown beneath it)."""
    out: list[str] = []
    pad = "  " * depth
    old = list(a.stmts if isinstance(a, nodes.Block) else a)
    new = list(b.stmts if isinstance(b, nodes.Block) else b)
    matcher = difflib.SequenceMatcher(a=[shape(x) for x in old], b=[shape(x) for x in new],
                                      autojunk=False)
    for op, i1, i2, j1, j2 in matcher.get_opcodes():
        if op == "equal":
            continue
        pairs = list(zip(old[i1:i2], new[j1:j2])) if op == "replace" else []
        for x, y in pairs:
            same_kind = type(x) is type(y) and len(_inner(x)) == len(_inner(y)) and _inner(x)
            if same_kind and _step_text(x) == _step_text(y):
                out.append(f"{pad}~ {_step_text(y)}")
                for bx, by in zip(_inner(x), _inner(y)):
                    out += _steps(bx, by, depth + 1)
            else:
                out += [f"{pad}- {_step_text(x)}", f"{pad}+ {_step_text(y)}"]
        out += [f"{pad}- {_step_text(x)}" for x in old[i1 + len(pairs):i2]]
        out += [f"{pad}+ {_step_text(y)}" for y in new[j1 + len(pairs):j2]]
    return out


def _at(span: Span) -> str:
    return f"{span.file.replace(chr(92), '/').rsplit('/', 1)[-1]}:{span.line}"


def _enum(a: tuple[tuple[str, str | None], ...], b: tuple[tuple[str, str | None], ...]
          ) -> list[str]:
    old, new = [m for m, _ in a], [m for m, _ in b]
    out = []
    if [m for m in new if m not in old]:
        out.append("new values " + ", ".join(m for m in new if m not in old))
    if [m for m in old if m not in new]:
        out.append("values dropped " + ", ".join(m for m in old if m not in new))
    return out


def _outcomes(a: Outcomes, b: Outcomes) -> list[str]:
    return [d.replace("trait ", "outcome ") for d in
            _pairs_changes(a.scores, b.scores, "trait")] + _doc(a.doc, b.doc)


def _state(a: State, b: State) -> list[str]:
    out = []
    if (a.kind, a.owner) != (b.kind, b.owner):
        out.append(f"{a.kind} on each {a.owner} -> {b.kind} on each {b.owner}")
    if a.initial != b.initial:
        out.append(f"starts at {value_text(a.initial)} -> {value_text(b.initial)}")
    if (a.low, a.high) != (b.low, b.high):   # campaigns: a side's stat kept between games
        out.append(f"kept between games: {_kept(a)} -> {_kept(b)}")
    return out + _doc(a.doc, b.doc)


def _kept(s: State) -> str:
    return f"{value_text(s.low)}..{value_text(s.high)}" if s.kept else "no"


def _tier(a: Tier, b: Tier) -> list[str]:
    return _doc(a.doc, b.doc)


def _summary(kind: str, item) -> str:
    """A short description of an added item."""
    match kind:
        case "class":
            bits = [item.tier] if item.tier else []
            bits.append(f"traits {_traits(item.traits)}")
            if item.equipment:
                bits.append("equipment " + ", ".join(item.equipment))
            if item.stats:
                bits.append(", ".join(f"{n} {value_text(v)}" for n, v in item.stats))
            return "; ".join(bits)
        case "stat" | "profile":
            return item.enum or f"{item.low}..{item.high}"
        case "equipment":
            return f"grants {_traits(item.grants)}" + (   # weapon profiles
                "; " + ", ".join(f"{n} {value_text(v)}" for n, v in item.values)
                if item.values else "") + (f"; own traits {_traits(item.traits)}"
                                           if item.traits else "")
        case "table":
            return f"{len(item.rows)} rows"
        case "procedure":
            return item.kind
        case "state":
            return f"{item.kind} on each {item.owner}"
        case "enum":
            return ", ".join(m for m, _ in item)
        case "outcomes":
            return ", ".join(f"{n} = {s}" for n, s in item.scores)
        case "event":
            return f"when {event_when(item)}"
    return getattr(item, "doc", None) or ""


# each kind's comparison takes two of that kind's items (a Stat, a TableDecl, ...)
_COMPARE: dict[str, Callable[..., list[str]]] = {
    "stat": _stat, "enum": _enum, "state": _state, "tier": _tier, "trait": _trait,
    "class": _class, "equipment": _equipment, "table": _table, "define": _define,
    "outcomes": _outcomes, "procedure": _procedure, "profile": _stat, "event": _event}


def _items(rules: Ruleset, kind: str) -> dict:
    return dict({"stat": rules.stats, "enum": rules.enums, "state": rules.states,
                 "tier": rules.tiers, "trait": rules.traits, "class": rules.classes,
                 "equipment": rules.equipment, "table": rules.tables,
                 "define": rules.defines, "outcomes": rules.outcomes,
                 "procedure": rules.procedures, "profile": rules.profiles,
                 "event": {e.name.name: e for e in rules.events}}[kind])


def _army(a: Army | None, b: Army | None) -> list[Change]:
    if a is None and b is None:
        return []
    changes = []
    if a is None or b is None:   # every entry of the one army is added (or removed)
        changes.append(Change("army", "army section", "added" if a is None else "removed"))
        empty = Army(None, None, None, (), None, cast(Span, None))   # its span is never read
        a, b = a or empty, b or empty

    def entry(name: str, old, new) -> None:
        if old == new:
            return
        if old is None:
            changes.append(Change("army", name, "added", [new]))
        elif new is None:
            changes.append(Change("army", name, "removed", [f"was {old}"]))
        else:
            changes.append(Change("army", name, "changed", [f"{old} -> {new}"]))

    entry("cost", expr_text(a.cost[1]) if a.cost else None,
          expr_text(b.cost[1]) if b.cost else None)
    entry("points", None if a.points is None else f"{a.points} points",
          None if b.points is None else f"{b.points} points")
    entry("size", f"{a.size[0]} {a.size[1]} fighters" if a.size else None,
          f"{b.size[0]} {b.size[1]} fighters" if b.size else None)
    old_costs = {c.name: c for c in a.costs}
    new_costs = {c.name: c for c in b.costs}
    for name in list(old_costs) + [n for n in new_costs if n not in old_costs]:
        was, now = old_costs.get(name), new_costs.get(name)
        entry(f"cost {name}", expr_text(was.expr) if was else None,
              expr_text(now.expr) if now else None)
        entry(f"limit {name}", expr_text(was.limit) if was and was.limit else None,
              expr_text(now.limit) if now and now.limit else None)
    old = {(q.kind, q.target, q.bound): q for q in a.quotas}
    new = {(q.kind, q.target, q.bound): q for q in b.quotas}
    for key, q in new.items():
        name = f"quota {q.kind} {q.target}" if not q.each else f"quota each {q.kind}"
        if key not in old:
            changes.append(Change("army", name, "added", [quota_text(q)]))
        elif (old[key].limit, old[key].share, old[key].per) != (q.limit, q.share, q.per):
            changes.append(Change("army", name, "changed",
                                  [f"{quota_text(old[key])} -> {quota_text(q)}"]))
    for key, q in old.items():
        if key not in new:
            name = f"quota {q.kind} {q.target}" if not q.each else f"quota each {q.kind}"
            changes.append(Change("army", name, "removed", [f"was {quota_text(q)}"]))
    # the author's own rules have no names: a rule is known by its text and message
    old_rules = [(army_rule_text(r), r.doc) for r in a.rules]
    new_rules = [(army_rule_text(r), r.doc) for r in b.rules]
    for text, doc in new_rules:
        if (text, doc) not in old_rules:
            changes.append(Change("army", f"rule '{doc or text}'", "added", [text]))
    for text, doc in old_rules:
        if (text, doc) not in new_rules:
            changes.append(Change("army", f"rule '{doc or text}'", "removed", [f"was {text}"]))
    return changes


def diff(base: Ruleset, house: Ruleset) -> list[Change]:
    changes: list[Change] = []
    for kind, _ in SECTIONS:
        if kind == "army":
            changes += _army(base.army, house.army)
            continue
        old, new = _items(base, kind), _items(house, kind)
        for name, item in new.items():
            if name not in old:
                summary = _summary(kind, item)
                changes.append(Change(kind, name, "added", [summary] if summary else []))
            else:
                details = _COMPARE[kind](old[name], item)
                if details:
                    changes.append(Change(kind, name, "changed", details))
        for name in old:
            if name not in new:
                changes.append(Change(kind, name, "removed"))
    return changes


def as_json(base: Ruleset, house: Ruleset, changes: list[Change]) -> dict:
    return {"base": {"id": base.id, "file": base.file},
            "house": {"id": house.id, "file": house.file},
            "changes": [c.to_json() for c in changes]}


def as_text(base: Ruleset, house: Ruleset, changes: list[Change],
            width: int | None = None) -> str:
    """The changes as text; with `width`, each line wrapped between words to it (a change's
    details under its name, a detail's further lines under the detail)."""
    text = _as_text(base, house, changes)
    if width is None:
        return text
    return "\n".join(wrap(line, width, "  " if not line.startswith(" ") else
                          " " * 13 if not line.startswith(" " * 13) else None)
                     for line in text.split("\n"))


def _as_text(base: Ruleset, house: Ruleset, changes: list[Change]) -> str:
    lines = [f"{house.title} ({house.id}) compared with {base.title} ({base.id}):"]
    if not changes:
        return lines[0] + "\nno differences\n"
    counts = {w: sum(c.change == w for c in changes) for w in ("added", "changed", "removed")}
    lines.append(", ".join(f"{n} {w}" for w, n in counts.items()))
    for kind, title in SECTIONS:
        mine = [c for c in changes if c.kind == kind]
        if not mine:
            continue
        lines += ["", title]
        for c in mine:
            head = f"  {c.change:<8} {c.name}"
            if len(c.details) != 1:
                lines.append(head)
                lines += [f"             {d}" for d in c.details]
            else:
                lines.append(f"{head}: {c.details[0]}")
    # titles and descriptions are the files' text: their control characters made visible
    return printable("\n".join(lines) + "\n", lines=True)
