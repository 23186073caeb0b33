"""How many calls of the rules' own tables, definitions and procedures a piece of rules may make
without a loop: its *call weight*.

Rules may not recurse (E401), but calls still multiply: forty definitions each using the one
before twice make 2^40 calls, with no loop to count (a run never ended). So the work of calls is
bounded in two halves, the same for the interpreter and the generated code, which inlines some
calls and caches none of the interpreter's table rows (so neither can count calls as they
happen and agree with the other):

- at compile time, the weight of every declaration (the calls one use of it may make, on its
  dearest path: the larger branch of an `if`, the dearest row of a table, the dearest option of a
  choice) must be at most MAX_SAMPLED_STEPS (E403, lang/checker.py);
- while running, a loop counts against the budget of work (run/budget.py) each turn, or member,
  as one step and the weight of what it works out for it: a `repeat` its body, `for each` its
  body (and the order it sorts by), an aggregate (`total`, `highest`, `lowest`, `all`) its value
  and condition. Calls made outside any loop are bounded by the first half.

Loops inside what a loop works out count their own turns when they run, so the weight of a
piece of rules leaves them out but for what they work out once (their count, their group).
A decision of several numbers (`choose ... where`) tests its `where` once per combination it
may weigh (at most MAX_TUPLE_CHOICES): that much, at compile time.
"""

from __future__ import annotations

from warband.lang import nodes
from warband.limits import MAX_TUPLE_CHOICES

# a weight past this is as good as infinite (and keeps the numbers small)
CAP = 10 ** 18

LOOPS = (nodes.Aggregate, nodes.Repeat, nodes.ForEach, nodes.ForSorted, nodes.While)
CALLABLE = (nodes.TableDecl, nodes.DefineDecl, nodes.ProcedureDecl)


class CallWeights:
    """The call weights of one set of declarations (a module's or a Ruleset's, by name)."""

    def __init__(self, decls: dict[str, object]) -> None:
        self.decls = decls
        self.weights: dict[str, int] = {}   # name -> the weight of one call's work
        self.nodes: dict[int, tuple[object, int]] = {}   # id(loop) -> (loop, its turn's weight)

    # ---- declarations ----------------------------------------------------------------------------
    def of_decl(self, name: str) -> int:
        """The calls one call of the declaration `name` makes (itself not counted)."""
        found = self.weights.get(name)
        if found is not None:
            return found
        # callees first, without recursion (a chain of calls may be thousands long)
        order: list[str] = []
        state: dict[str, int] = {}
        stack = [(name, iter(sorted(self.callees(name))))]
        state[name] = 1
        while stack:
            top, rest = stack[-1]
            for callee in rest:
                if callee not in self.weights and callee not in state:
                    state[callee] = 1
                    stack.append((callee, iter(sorted(self.callees(callee)))))
                    break
            else:
                stack.pop()
                order.append(top)
        for each in order:
            self.weights[each] = 0   # (stands in while its own weight is found: a cycle)
            self.weights[each] = min(CAP, self._decl(self.decls[each]))
        return self.weights[name]

    def callees(self, name: str) -> set[str]:
        return set(self.direct_calls(self.decls[name]))

    def direct_calls(self, decl) -> list[str]:
        """The tables, definitions and procedures a declaration calls, once per place."""
        found: list[str] = []
        todo = [decl]
        while todo:
            node = todo.pop()
            t = type(node)
            if t is nodes.Call and node.callee.name in self.decls:
                found.append(node.callee.name)
            if t is tuple:
                todo.extend(node)
            elif hasattr(node, "__dataclass_fields__"):
                todo.extend(getattr(node, f) for f in node.__dataclass_fields__ if f != "span")
        return found

    def _decl(self, decl) -> int:
        t = type(decl)
        if t is nodes.TableDecl:
            params = self.of(decl.params)
            tests = sum(self.of(r.condition) for r in decl.rows)
            return params + tests + max((self.of(r.values) for r in decl.rows), default=0)
        return self.of(decl)

    # ---- pieces of rules ---------------------------------------------------------------------------
    def of(self, node) -> int:
        """The calls a piece of rules makes when it runs once, outside the turns of its loops."""
        t = type(node)
        if t is nodes.Call:
            own = 1 + self.of_decl(node.callee.name) if node.callee.name in self.decls else 0
            return min(CAP, own + self.of(node.args))
        if t is tuple:
            return min(CAP, sum(self.of(x) for x in node))
        if t in LOOPS:   # what it works out once; its turns count as they run
            return self.of(node.group if t is nodes.Aggregate else
                           node.times if t is nodes.Repeat or t is nodes.While else node.items)
        if t is nodes.IfExpr or t is nodes.If:
            return min(CAP, self.of(node.condition) + max(self.of(node.then),
                                                          self.of(node.otherwise)))
        if t is nodes.Choose:
            return min(CAP, self.of(node.decider) + sum(self.of(o.when) for o in node.options)
                       + max((self.of(o.body) for o in node.options), default=0))
        if t is nodes.ChooseTuple:   # its `where`, once per combination it may weigh
            where = self.of(node.where) * MAX_TUPLE_CHOICES
            return min(CAP, where + self.of((node.decider, node.low, node.high, node.default)))
        if hasattr(node, "__dataclass_fields__"):
            return min(CAP, sum(self.of(getattr(node, f)) for f in node.__dataclass_fields__
                                if f != "span"))
        return 0

    def per_turn(self, loop) -> int:
        """What one turn (or member) of a loop works out: the calls it makes."""
        found = self.nodes.get(id(loop))
        if found is not None and found[0] is loop:
            return found[1]
        t = type(loop)
        if t is nodes.Aggregate:
            weight = self.of(loop.value) + self.of(loop.condition)
        elif t is nodes.While:   # turn flow: its condition is asked each turn
            weight = self.of(loop.condition) + self.of(loop.body)
        elif t is nodes.ForSorted:
            weight = self.of(loop.key) + self.of(tuple(k for _, k in loop.then)) + \
                self.of(loop.body)
        else:
            weight = self.of(loop.body)
        weight = min(CAP, weight)
        self.nodes[id(loop)] = (loop, weight)
        return weight


def callables(decls) -> dict[str, object]:
    """The tables, definitions and procedures among declarations, by name (a later one of a
    name, as house rules lay it, replacing an earlier)."""
    return {d.name.name: d for d in decls if type(d) in CALLABLE}
