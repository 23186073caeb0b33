"""`warband rules show`: a ruleset summarised for a person, or as JSON."""

from __future__ import annotations

from fractions import Fraction
from typing import Iterable, cast

from rich.console import Console
from rich.markup import escape
from rich.table import Table
from rich.text import Text

from warband.diagnostics import printable
from warband.lang import nodes
from warband.terminal import wrap
from warband.lang.ruleset import Quota, Ruleset, Stat
from warband.lang.units import unit_words
from warband.lang.unparse import army_rule_text, event_when, expr_text


def shown(text: str) -> str:
    """File text placed in Rich markup: control characters escaped, brackets not markup."""
    return escape(printable(text))


def add_row(t: Table, *cells: str) -> None:
    """A table row of file text: Rich reads no markup in a Text cell."""
    t.add_row(*(Text(printable(c)) for c in cells))


def value_text(v: object) -> str:
    if v is True:
        return ""
    if isinstance(v, Fraction):
        return f"{v.numerator}/{v.denominator}"
    return str(v)


def trait_list_text(pairs: Iterable[tuple[str, object]]) -> str:
    return ", ".join(n if v is True else f"{n}({value_text(v)})" for n, v in pairs)


def derived_text(s: Stat) -> str:
    """How the rules work a derived stat out: 'level_from_xp(f.XP) if f is human'."""
    if s.derived is None:
        return ""
    return expr_text(s.derived) + (f" if {expr_text(s.when)}" if s.when is not None else "")


def quota_text(q: Quota) -> str:
    limit = f"{value_text(q.limit)} of the fighters" if q.is_share else value_text(q.limit)
    if q.per is not None:
        limit += f" per {q.per} points"
    return f"{q.bound} {limit} from " + (f"each {q.kind}" if q.each else f"{q.kind} {q.target}")


def class_stats_text(c) -> str:
    """The stats a class fixes and those the list chooses within its bounds:
    'Level 1, Quality chosen 2..4 (default 3), Troop chosen from Foot, Mounted'."""
    fixed = [f"{n} {value_text(v)}" for n, v in c.stats]
    chosen = [f"{ch.stat} chosen {'from ' if ch.members else ''}{ch.shown}"
              + (f" (default {value_text(ch.default)})" if ch.default is not None else "")
              for ch in c.choices]
    return ", ".join(fixed + chosen)


def row_text(row: nodes.Row) -> tuple[str, str]:
    """A table row as its key (or condition) and its values."""
    values = ", ".join(expr_text(v) for v in row.values)
    if row.kind == "when":
        return f"when {expr_text(cast(nodes.Expr, row.condition))}", values   # set on a when row
    if row.kind == "otherwise":
        return "otherwise", values
    key = row.key
    text = key.name if isinstance(key, nodes.Ident) else (
        f"{key[0]}..{key[1]}" if isinstance(key, tuple) else str(key))
    return text, values


def _options_text(choose: nodes.Decision) -> str:
    if hasattr(choose, "options"):
        return ", ".join(o.name.name for o in choose.options)
    if hasattr(choose, "group"):
        return f"one of {expr_text(choose.group)}"
    if isinstance(choose, nodes.ChooseSpot):   # a spot on the board
        return f"a spot within {expr_text(choose.reach)} of {expr_text(choose.at)}"
    if isinstance(choose, nodes.ChooseTuple):   # several numbers at once
        text = (f"numbers ({', '.join(n.name for n in choose.names)}), each "
                f"{expr_text(choose.low)}..{expr_text(choose.high)}")
        if choose.where is not None:
            text += f", where {expr_text(choose.where)}"
        if choose.default is not None:
            text += f" (default ({', '.join(expr_text(d) for d in choose.default)}))"
        return text
    text = f"a number {expr_text(choose.low)}..{expr_text(choose.high)}"
    return text + (f" (default {expr_text(choose.default)})" if choose.default else "")


def origin_text(ruleset: Ruleset, name: str) -> str:
    """' (house.rules:12, overrides base.rules:31)' for a ruleset made of layers; '' otherwise,
    where every definition comes from the one file shown at the top."""
    if len(ruleset.layers) < 2:
        return ""
    origin = ruleset.origins.get(name)
    if origin is None:
        return ""
    text = f"{_base(origin.file)}:{origin.line}"  # file names only: the layers line has paths
    if origin.overrides is not None:
        text += f", overrides {_base(origin.overrides.file)}:{origin.overrides.line}"
    return f" ({text})"


def _base(file: str) -> str:
    return file.replace("\\", "/").rsplit("/", 1)[-1]


def origin_json(ruleset: Ruleset, name: str) -> dict | None:
    origin = ruleset.origins.get(name)
    if origin is None:
        return None
    over = origin.overrides
    return {"file": origin.file, "line": origin.line,
            "overrides": None if over is None else {"file": over.file, "line": over.line}}


def render(ruleset: Ruleset, console: Console) -> None:
    """The summary, printed on `console` (the command line's standard output).

    The texts of the file (title, descriptions, values) are shown as text: their control
    characters escaped (`diagnostics.printable`) and never read as Rich markup, so a
    description cannot colour, link or rewrite the terminal."""

    def say(text: str) -> None:   # a line of prose, wrapped to the terminal between words
        console.print(wrap(printable(text), console.width), markup=False)

    head = Text(wrap(printable(f"{ruleset.title}  ({ruleset.id})"), console.width))
    head.stylize("bold", 0, head.plain.rfind(f"({printable(ruleset.id)})"))   # the title
    console.print(head)
    if ruleset.source:
        say(f"source: {ruleset.source}")
    say(f"file: {ruleset.file}")
    if len(ruleset.layers) > 1:
        say("layers: " + " <- ".join(f"{i} ({f})" for i, f in ruleset.layers))
    at = lambda name: origin_text(ruleset, name)  # noqa: E731 - short, and used everywhere

    def col(t, name: str) -> list[str]:
        """The 'from' cell of a table's row, for a ruleset made of layers (the column is added
        before the table's first row)."""
        if len(ruleset.layers) < 2:
            return []
        if t.columns[-1].header != "from":
            t.add_column("from", no_wrap=True)
        return [at(name).strip()[1:-1]]

    def section(title: str) -> None:
        console.print()
        console.print(Text(wrap(printable(title), console.width), style="bold underline"))

    if ruleset.stats:
        section("Stats")
        derived = any(s.derived is not None for s in ruleset.stats.values())
        t = Table("stat", "values", "default", *(["worked out as"] if derived else []),
                  "description", box=None, pad_edge=False)
        for s in ruleset.stats.values():
            values = s.enum if s.enum else f"{s.low}..{s.high}"
            add_row(t, s.name, values, "" if s.default is None else value_text(s.default),
                    *([derived_text(s)] if derived else []), s.doc or "", *col(t, s.name))
        console.print(t)
    if ruleset.enums:
        section("Enumerations")
        for name, members in ruleset.enums.items():
            say(f"{name}{at(name)}: " + ", ".join(
                m + (f" ({doc})" if doc else "") for m, doc in members))
    if ruleset.classes:
        section("Classes")
        with_stats = any(c.stats or c.choices for c in ruleset.classes.values())
        columns = ["class", "tier"] + (["stats"] if with_stats else []) + ["traits", "equipment"]
        t = Table(*columns, box=None, pad_edge=False)
        for c in ruleset.classes.values():
            stats = [class_stats_text(c)] if with_stats else []
            add_row(t, c.name, c.tier or "", *stats, trait_list_text(c.traits),
                      ", ".join(c.equipment), *col(t, c.name))
        console.print(t)
        for c in ruleset.classes.values():
            if c.group is not None or c.unique is not None:
                say(f"{c.name}: {c.buying_words()}")
            if c.unit is not None:   # a unit of several models
                say(f"{c.name}: {unit_words(c.unit)}")
        for c in ruleset.classes.values():
            if c.options:
                say(f"{c.name} " + "; ".join(
                    o.words() + (f" ({o.doc})" if o.doc else "") for o in c.options))
        if ruleset.tiers:
            say("tiers: " + "; ".join(
                f"{t.name}{at(t.name)}" + (f" ({t.doc})" if t.doc else "")
                for t in ruleset.tiers.values()))
    if ruleset.traits:
        section("Traits")
        t = Table("trait", "rule", box=None, pad_edge=False)
        for tr in ruleset.traits.values():
            name = f"{tr.name}(N)" if tr.numeric else tr.name
            add_row(t, name, tr.doc or "", *col(t, tr.name))
        console.print(t)
    if ruleset.equipment:
        section("Equipment")
        # weapon profiles: each piece's values and own traits, when the rules give any
        profiled = bool(ruleset.profiles) or any(e.traits for e in ruleset.equipment.values())
        extra = (*ruleset.profiles, "own traits") if profiled else ()
        t = Table("equipment", "grants", *extra, "description", box=None, pad_edge=False)
        for e in ruleset.equipment.values():
            values = (*(value_text(dict(e.values).get(p)) for p in ruleset.profiles),
                      trait_list_text(e.traits)) if profiled else ()
            add_row(t, e.name, trait_list_text(e.grants), *values, e.doc or "",
                    *col(t, e.name))
        console.print(t)
        for p in ruleset.profiles.values():
            kind = p.enum or f"{value_text(p.low)}..{value_text(p.high)}"
            say(f"value {p.name}{at(p.name)} of each piece: {kind}"
                + (f", default {value_text(p.default)}" if p.default is not None else "")
                + (f": {p.doc}" if p.doc else ""))
    if ruleset.states:
        section("Kept during play")
        for s in ruleset.states.values():
            if s.kept:   # campaigns: a side's stat, kept in its warband file
                say(f"stat {s.name}{at(s.name)} on each side: {value_text(s.low)}.."
                    f"{value_text(s.high)}, default {value_text(s.initial)}, kept between "
                    f"games (its warband's '{s.key}:')" + (f": {s.doc}" if s.doc else ""))
                continue
            say(f"{s.kind} {s.name}{at(s.name)} on each {s.owner}"
                          + (f": {s.doc}" if s.doc else ""))
    for table in ruleset.tables.values():
        section(f"Table {table.name.name}({', '.join(p.name.name for p in table.params)})"
                + (" for reference" if table.reference else "") + at(table.name.name))
        if table.doc:
            say(table.doc)
        t = Table("row", ", ".join(c.name for c in table.columns), "note", box=None,
                  pad_edge=False)
        for row in table.rows:
            key, values = row_text(row)
            add_row(t, key, values, row.doc or "")
        console.print(t)
    if ruleset.army:
        army = ruleset.army
        section("Army construction" + at("army"))
        if army.cost:
            say(f"cost of a fighter: {expr_text(army.cost[1])}" + at("army.cost"))
        if army.points is not None:
            say(f"standard game: {army.points} points" + at("army.points"))
        for c in army.costs:
            say(f"cost in {c.name}: {expr_text(c.expr)}" + (f" ({c.doc})" if c.doc else "")
                + at(f"army.cost.{c.name}"))
            if c.limit is not None:
                say(f"limit of {c.name}: at most {expr_text(c.limit)}"
                    + (f" ({c.limit_doc})" if c.limit_doc else "") + at(f"army.limit.{c.name}"))
        if army.size:
            say(f"fighters: {army.size[0]} {army.size[1]}" + at("army.size"))
        for q in army.quotas:
            where = f" ({_base(q.span.file)}:{q.span.line})" if len(ruleset.layers) > 1 else ""
            say(f"quota: {quota_text(q)}" + (f" ({q.doc})" if q.doc else "") + where)
        for rule in army.rules:
            say(f"rule: {army_rule_text(rule)}" + (f" ({rule.doc})" if rule.doc else ""))
    actions = [p for p in ruleset.procedures.values() if p.kind in ("action", "phase")]
    if actions:
        section("Actions and phases")
        t = Table("name", "kind", "parameters", "description", box=None, pad_edge=False)
        for p in actions:
            params = ", ".join(p.name.name for p in p.params)
            add_row(t, p.name.name, p.kind, params, p.doc or "", *col(t, p.name.name))
        console.print(t)
    if ruleset.events:   # events (run/events.py), in the order they run
        section("Events")
        t = Table("name", "when", "description", box=None, pad_edge=False)
        for e in ruleset.events:
            add_row(t, e.name.name, event_when(e), e.doc or "")
        console.print(t)
    if ruleset.zone_roles:   # zones the ruleset can name: what every scenario must fill
        section("Zones each scenario names")
        t = Table("role", "per side", "description", "the scenario's zone", box=None,
                  pad_edge=False)
        for name, decl in ruleset.zone_roles.items():
            add_row(t, name, "yes" if decl.per_side else "no", decl.doc or "",
                    _role_zone_text(ruleset, name))
        console.print(t)
    if ruleset.decisions:
        section("Decisions")
        t = Table("decision", "in", "options", "description", box=None, pad_edge=False)
        for name, (owner, choose) in ruleset.decisions.items():
            add_row(t, name, owner, _options_text(choose), choose.doc or "")
        console.print(t)


def _role_zone_text(ruleset: Ruleset, role: str) -> str:
    """The scenario's zone for a role (per side: each side's), or nothing without a scenario."""
    zones = ruleset.role_zones.get(role)
    if isinstance(zones, tuple) and ruleset.scenario is not None:
        return ", ".join(f"{z} for {side.name.name}"
                         for z, side in zip(zones, ruleset.scenario.sides))
    return zones or ""


def as_json(ruleset: Ruleset) -> dict:

    def jv(v):
        return value_text(v) if isinstance(v, Fraction) else v

    def o(name: str) -> dict:
        return {"origin": origin_json(ruleset, name)}

    return {
        "id": ruleset.id, "title": ruleset.title, "source": ruleset.source,
        "file": ruleset.file,
        "layers": [{"id": i, "file": f} for i, f in ruleset.layers],
        "stats": [{"name": s.name, "low": s.low, "high": s.high, "enum": s.enum,
                   "default": jv(s.default), "doc": s.doc,
                   **({"derived": derived_text(s)} if s.derived is not None else {}),
                   **o(s.name)}
                  for s in ruleset.stats.values()],
        "tiers": [{"name": t.name, "doc": t.doc, **o(t.name)} for t in ruleset.tiers.values()],
        "classes": [{"name": c.name, "tier": c.tier,
                     "traits": {n: jv(v) for n, v in c.traits},
                     "equipment": list(c.equipment),
                     "group": list(c.group) if c.group else None, "unique": c.unique is not None,
                     **({"models": {"low": c.unit.low, "high": c.unit.high,
                                    "default": c.unit.default, "wounds": c.unit.wounds,
                                    "doc": c.unit.doc,
                                    # units of models with places (only when it has them)
                                    **({"coherency": c.unit.coherency,
                                        "casualties": c.unit.casualties or "owner"}
                                       if c.unit.coherency is not None else {}),
                                    # one model with a different weapon
                                    "specials": [{"kind": o.kind, "items": list(o.items),
                                                  "limit": o.limit, "replaces": o.replaces,
                                                  "doc": o.doc} for o in c.unit.specials]}}
                        if c.unit is not None else {}),
                     "options": [{"kind": o.kind, "items": list(o.items), "limit": o.limit,
                                  "replaces": o.replaces, "doc": o.doc} for o in c.options],
                     "stats": {n: jv(v) for n, v in c.stats},
                     "choices": [{"stat": ch.stat, "low": jv(ch.low), "high": jv(ch.high),
                                  "values": list(ch.members) or None,
                                  "default": jv(ch.default), "doc": ch.doc}
                                 for ch in c.choices],
                     **o(c.name)}
                    for c in ruleset.classes.values()],
        "traits": [{"name": t.name, "numeric": t.numeric, "doc": t.doc, **o(t.name)}
                   for t in ruleset.traits.values()],
        "equipment": [{"name": e.name, "grants": {n: jv(v) for n, v in e.grants},
                       "doc": e.doc, **o(e.name),
                       # weapon profiles (only in rules that give pieces values or traits)
                       **({"values": {n: jv(v) for n, v in e.values},
                           "traits": {n: jv(v) for n, v in e.traits}}
                          if e.values or e.traits else {})}
                      for e in ruleset.equipment.values()],
        "tables": [{"name": t.name.name, "columns": [c.name for c in t.columns],
                    "rows": [list(row_text(r)) for r in t.rows], "reference": t.reference,
                    **o(t.name.name)}
                   for t in ruleset.tables.values()],
        "defines": [{"name": n, **o(n)} for n in ruleset.defines],
        "enums": [{"name": n, **o(n)} for n in ruleset.enums],
        "outcomes": [{"name": n, **o(n)} for n in ruleset.outcomes],
        "states": [{"name": n, "kind": s.kind, **o(n)} for n, s in ruleset.states.items()],
        "procedures": [{"name": n, "kind": p.kind, **o(n)}
                       for n, p in ruleset.procedures.items()],
        "army": None if ruleset.army is None else {
            "cost": expr_text(ruleset.army.cost[1]) if ruleset.army.cost else None,
            "points": ruleset.army.points,
            "size": list(ruleset.army.size[:2]) if ruleset.army.size else None,
            "quotas": [quota_text(q) for q in ruleset.army.quotas],
            "costs": [{"name": c.name, "cost": expr_text(c.expr), "doc": c.doc,
                       "limit": expr_text(c.limit) if c.limit is not None else None,
                       "limit_doc": c.limit_doc} for c in ruleset.army.costs],
            "rules": [{"rule": army_rule_text(r), "message": r.doc} for r in ruleset.army.rules],
            **o("army"),
        },
        "actions": [p.name.name for p in ruleset.procedures.values() if p.kind == "action"],
        "decisions": {n: _options_text(c) for n, (_, c) in ruleset.decisions.items()},
        "events": [{"name": e.name.name, "when": event_when(e), "doc": e.doc}
                   for e in ruleset.events],
        # zones the ruleset can name (only in rules that declare them)
        **({"zone_roles": [{"name": n, "per_side": d.per_side, "doc": d.doc,
                            "zone": _role_zone_text(ruleset, n) or None}
                           for n, d in ruleset.zone_roles.items()]}
           if ruleset.zone_roles else {}),
    }
