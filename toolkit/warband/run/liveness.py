"""Which local names the rest of a procedure can still read, at each statement (liveness).

Exact odds merge situations that agree on everything the rest of the computation can read
(run/merging.py): a local no later statement reads is no part of a situation, so paths that
differ only in it are followed once. This module works that out from the rules alone, once per
ruleset: for every block of statements (a procedure's body, an `if`'s branches, an option's
body, a loop's body) and every position in it, the names that may be read from there on before
they are bound again, the usual backward dataflow of compilers:

    live before `let x = e`      = (live after - {x}) | names e reads
    live before `set x += e`     = live after | {x} | names e reads
    live before `if c {A} else {B}` = names c reads | live before A | live before B
    live before a loop           = what its count or group reads | H, where H, the names live
                                   at its head, is the least set with H = after | live before
                                   the body (given H after it), less the loop's own name

An `if`'s branches and an option's body run on the env they were entered with and hand it on,
so what they bind is seen after them; the checker keeps a name from being read out of its
scope, and such a name is simply not live.

Reading is over-approximated: every name and identifier an expression holds counts as read (a
field's name, a callee's name, `f has w`'s piece), which can only keep situations apart, never
merge two that differ. A statement this module does not know (a game's `activate`, `deploy`) makes
every name live before it: `None` stands for "every name".
"""

from __future__ import annotations

from collections.abc import Iterator

from warband.lang import nodes
from warband.lang.per_ruleset import per_ruleset

ALL = None   # every name is live (a statement whose reads are not known)


def _names(node, found: set[str]) -> None:
    """Every name and identifier an expression (or a part of a statement) holds."""
    stack = [node]
    while stack:
        n = stack.pop()
        t = type(n)
        if t is nodes.Name or t is nodes.Ident:
            found.add(n.name)
            continue
        if t is tuple:
            stack.extend(n)
            continue
        if n is None or t in (str, int, bool, float) or t is nodes.Block:
            continue
        slots = getattr(t, "__slots__", None)
        if slots is None:
            continue
        for name in slots:
            if name != "span":
                stack.append(getattr(n, name, None))


def reads(*parts) -> frozenset[str]:
    found: set[str] = set()
    for part in parts:
        _names(part, found)
    return frozenset(found)


class Liveness:
    """The live names of every block of a ruleset's procedures: `at[id(stmts)]` is a list with,
    for each position i (0..len), the names live before stmts[i] (a sorted tuple), or None for
    every name. `elses[id(if_node)]` is the one-statement block an `else if` runs as (the
    interpreter runs that block, so that its positions are known)."""

    def __init__(self) -> None:
        self.at: dict[int, list] = {}
        self.elses: dict[int, tuple] = {}
        # id of a `let x = p()`, `p()` or `let (a, b) = p()` -> the names live after it but
        # those it binds: what the continuation its call returns to must keep of the caller
        self.after: dict[int, tuple | None] = {}
        self.blocks: list = []   # (keeps every block analysed alive: ids key `at`)

    # ---- the analysis -----------------------------------------------------------------------------
    def body(self, stmts: tuple) -> None:
        """A procedure's body: nothing is live after it (a return hands on only its value)."""
        self.block(stmts, frozenset())

    def else_block(self, stmt: nodes.If) -> tuple:
        found = self.elses.get(id(stmt))
        if found is None:
            found = self.elses[id(stmt)] = (stmt.otherwise,)
        return found

    def block(self, stmts: tuple, out):
        live = out
        record = [None] * (len(stmts) + 1)
        record[len(stmts)] = _shown(out)
        for i in range(len(stmts) - 1, -1, -1):
            s = stmts[i]
            t = type(s)
            if t is nodes.Let:
                self.after[id(s)] = _shown(_minus(live, (s.name.name,)))
            elif t is nodes.LetTuple:
                self.after[id(s)] = _shown(_minus(live, tuple(n.name for n in s.names)))
            elif t is nodes.CallStmt:
                self.after[id(s)] = _shown(live)
            live = self.stmt(s, live)
            record[i] = _shown(live)
        self.at[id(stmts)] = record
        self.blocks.append(stmts)
        return live

    def loop(self, body: tuple, out, var: str | None, before):
        """A loop's head: the least H with H = out | (live before body given H) - {var}."""
        head = out
        while True:
            inside = self.block(body, head)
            if inside is not ALL and var is not None:
                inside = inside - {var}
            new = _union(out, inside)
            if new == head:
                return _union(before, head)
            head = new

    def stmt(self, s, out):  # noqa: C901 - one case per statement kind
        t = type(s)
        if t is nodes.Let:
            return _union(reads(s.value), _minus(out, (s.name.name,)))
        if t is nodes.Set:
            value = reads(s.value)
            name = s.target[0].name
            if len(s.target) == 1 and s.op == "=":
                return _union(value, _minus(out, (name,)))
            return _union(value | {name}, out)
        if t is nodes.If:
            yes = self.block(s.then.stmts, out)
            other = s.otherwise
            if other is None:
                no = out
            elif type(other) is nodes.If:
                no = self.block(self.else_block(s), out)
            else:
                no = self.block(other.stmts, out)
            return _union(reads(s.condition), _union(yes, no))
        if t is nodes.Return:
            return reads(s.value) if s.value is not None else frozenset()
        if t is nodes.Choose:
            live = reads(s.decider)
            for option in s.options:
                live = _union(live, reads(option.when) if option.when is not None else frozenset())
                live = _union(live, self.block(option.body.stmts, out)
                              if option.body is not None else out)
            return live
        if t is nodes.ChooseNumber:
            return _union(reads(s.decider, s.low, s.high, s.default), _minus(out, (s.name.name,)))
        if t is nodes.ChooseAmong:
            return _union(reads(s.decider, s.group), _minus(out, (s.name.name,)))
        if t is nodes.ChooseTuple:
            return _union(reads(s.decider, s.low, s.high, s.where, s.default),
                          _minus(out, tuple(n.name for n in s.names)))
        if t is nodes.ChooseSpot:
            return _union(reads(s.decider, s.reach, s.at), _minus(out, (s.name.name,)))
        if t is nodes.LetTuple:
            return _union(reads(s.value), _minus(out, tuple(n.name for n in s.names)))
        if t is nodes.CallStmt:
            return _union(reads(s.call), out)
        if t is nodes.Repeat:
            return self.loop(s.body.stmts, out, None, reads(s.times))
        if t is nodes.ForEach:
            return self.loop(s.body.stmts, out, s.var.name, reads(s.items))
        if t is nodes.ForSorted:
            return self.loop(s.body.stmts, out, s.var.name,
                             reads(s.items, s.key, tuple(e for _, e in s.then)))
        if t in (nodes.Remove, nodes.Withdraw, nodes.Wound, nodes.Face, nodes.Carry,
                 nodes.PutDown, nodes.PutAt, nodes.Concede, nodes.Travel, nodes.TravelClear,
                 nodes.BringBack):
            return _union(reads(*(getattr(s, f) for f in type(s).__slots__ if f != "span")),
                          out)
        # activate (it binds its `as` name), deploy, place: a game's; not known here
        for block in _blocks_in(s):   # (their blocks, if any, analysed all the same)
            self.block(block, ALL)
        return ALL


def _blocks_in(s) -> Iterator[tuple]:
    for name in getattr(type(s), "__slots__", ()):
        value = getattr(s, name, None)
        if type(value) is nodes.Block:
            yield value.stmts


def _union(a, b):
    if a is ALL or b is ALL:
        return ALL
    return a | b


def _minus(a, names: tuple):
    if a is ALL:
        return ALL
    return a.difference(names)


def _shown(live):
    return ALL if live is ALL else tuple(sorted(live))


@per_ruleset
def liveness(ruleset) -> Liveness:
    """The live names of every procedure (action, phase, procedure) of a ruleset, and of its
    scenario's blocks, worked out once and kept in the ruleset."""
    found = Liveness()
    for decl in ruleset.procedures.values():
        found.body(decl.body.stmts)
    return found


__all__ = ["ALL", "Liveness", "liveness", "reads"]
