"""Why exact evaluation gave up (E504): which roll or decision made the work explode, and how
to restructure the rule.

Exact odds follow every outcome of every roll, and each `if` on a roll, each decision and each
value kept splits what follows. Past the limit (limits.MAX_BRANCHES, or a game's look-ahead
budget) the interpreter stops; this module is asked only then, so it costs nothing while rules
run. What it reads:

- the interpreter's tally of the rolls it drew in exact mode (`Interpreter.rolled`: a roll node
  -> how many times it was drawn and how many outcomes that gave), kept by `draw` with one dict
  update a roll: the roll that drew the most outcomes is the culprit;
- the rules around the culprit (or around the statement where the limit was crossed when no roll
  stands out): the loop it is in, what that loop's count is worked out from, and what the loop
  body does with each die (an `if` on it, a decision, adding it to a total, a counter nothing
  reads).

Only what is seen in the rules gives a hint: a roll outside any loop gets the plain advice.
"""

from __future__ import annotations

import dataclasses
from typing import Iterator

from warband.diagnostics import Diagnostic, Related, diag
from warband.lang import nodes
from warband.lang.unparse import expr_text

_LOOPS = (nodes.Repeat, nodes.ForEach, nodes.ForSorted)
_DECISIONS = (nodes.Choose, nodes.ChooseNumber, nodes.ChooseAmong)
_PLAIN_HINT = "roll fewer dice or make fewer decisions, or play it out: warband simulate"


def _children(node) -> Iterator:
    if isinstance(node, tuple):
        for item in node:
            yield from _children(item)
        return
    if not dataclasses.is_dataclass(node) or isinstance(node, type):
        return
    for f in dataclasses.fields(node):
        value = getattr(node, f.name)
        if isinstance(value, tuple) or dataclasses.is_dataclass(value):
            yield value


def _walk(node) -> Iterator:
    """Every node under node (node included), depth first, in the order of the text."""
    stack = [node]
    while stack:
        n = stack.pop()
        if isinstance(n, tuple):
            stack.extend(reversed(n))
            continue
        yield n
        stack.extend(reversed(list(_children(n))))


def _path_to(ruleset, target) -> list | None:
    """The chain of nodes from a declaration down to target (by identity), or None."""
    roots = list(ruleset.procedures.values())
    for root in roots:
        path = _search(root, target)
        if path is not None:
            return path
    return None


def _search(root, target) -> list | None:
    stack: list = [(root, [root])]
    while stack:
        n, path = stack.pop()
        if n is target:
            return path
        for child in _children(n):
            items = child if isinstance(child, tuple) else (child,)
            for item in items:
                if isinstance(item, tuple):
                    stack.extend((x, path + [x]) for x in item)
                elif dataclasses.is_dataclass(item):
                    stack.append((item, path + [item]))
    return None


def _line(node) -> str:
    return f"line {node.span.line}"


def _rolls(expr) -> bool:
    return any(type(n) is nodes.Dice for n in _walk(expr))


def _names(expr) -> set[str]:
    return {n.name for n in _walk(expr) if type(n) is nodes.Name}


def _earlier_roll(decl, names: set[str], before) -> nodes.Let | None:
    """The `let NAME = <a roll>` of the declaration, before `before`, that one of names is."""
    found = None
    for n in _walk(decl.body):
        if n is before:
            break
        if type(n) is nodes.Let and n.name.name in names and _rolls(n.value):
            found = n
    return found


def _outcomes(interp, roll: nodes.Dice | None) -> int | None:
    if roll is None:
        return None
    tally = interp.rolled.get(id(roll))
    return tally[2] // tally[1] if tally else None


def _first_roll(expr) -> nodes.Dice | None:
    return next((n for n in _walk(expr) if type(n) is nodes.Dice), None)


def explain(interp, node, limit: int) -> Diagnostic:
    """E504 for an exact evaluation that passed `limit` steps and outcomes at `node` (the
    statement or roll being evaluated then)."""
    rolled = sorted(interp.rolled.values(), key=lambda t: -t[2])
    culprit = rolled[0][0] if rolled and rolled[0][2] * 4 >= limit else node
    message = f"too much to follow exactly (more than {limit:,} steps and outcomes)"
    related: list[Related] = []
    hint = _PLAIN_HINT
    if type(culprit) is nodes.Dice and rolled and culprit is rolled[0][0]:
        _, times, outcomes = rolled[0]
        message += (f": the roll `{expr_text(culprit)}` was made {times:,} times, "
                    f"{outcomes:,} outcomes in all")
    path = _path_to(interp.ruleset, culprit) if culprit is not None else None
    if path is not None:
        more, hint, related = _in_rules(interp, path, culprit)
        message += more
    span = getattr(culprit, "span", None) or getattr(node, "span", None)
    return diag("E504", message, span, hint=hint, related=related)


def _in_rules(interp, path: list, culprit) -> tuple[str, str, list[Related]]:
    """What the rules around the culprit do that multiplies the work: (more of the message,
    the hint, related places)."""
    decl = path[0]
    loop = next((n for n in reversed(path) if isinstance(n, _LOOPS)), None)
    related: list[Related] = []
    if loop is None:
        return _outside_loop(interp, decl, culprit)
    body = loop.body
    roll_let = next((n for n in reversed(path) if type(n) is nodes.Let and _rolls(n.value)),
                    None)
    if roll_let is None:   # the culprit is not a roll: the first roll kept in the loop
        roll_let = next((n for n in _walk(body) if type(n) is nodes.Let and _rolls(n.value)),
                        None)
    die = _first_roll(roll_let.value) if roll_let is not None else None
    head = "repeat " + expr_text(loop.times) + " times" if type(loop) is nodes.Repeat else \
        "for each " + loop.var.name
    message = f"; it is rolled once a turn of `{head}` ({_line(loop)})"
    related.append(Related(loop.span, "each turn of this loop follows every outcome of "
                                      "the turns before it"))
    # how many turns: worked out from an earlier roll?
    earlier = None
    if type(loop) is nodes.Repeat:
        earlier = _earlier_roll(decl, _names(loop.times), loop) or (
            loop if _rolls(loop.times) else None)
    if earlier is not None:
        first = _first_roll(earlier.value if type(earlier) is nodes.Let else earlier.times)
        ways = _outcomes(interp, first)
        message += (f", and how many turns depends on the earlier roll `{expr_text(first)}`"
                    if first is not None else ", and how many turns depends on an earlier roll")
        if ways:
            message += f" ({ways:,} outcomes, each followed on its own)"
        related.append(Related(earlier.span, "the number of turns comes from this roll"))
    hints: list[str] = []
    decision = next((n for n in _walk(body) if isinstance(n, _DECISIONS)), None)
    if decision is not None:
        message += (f"; the decision '{decision.name.name}' ({_line(decision)}) is made on "
                    "each turn, for each outcome so far")
        related.append(Related(decision.span, "a decision per die multiplies the outcomes"))
        hints.append("a decision per die multiplies the outcomes: decide once for the whole "
                     "roll (one `choose` before or after the dice)")
    var = roll_let.name.name if roll_let is not None else None
    test = None if var is None else next(
        (n for n in _walk(body) if type(n) is nodes.If and var in _names(n.condition)), None)
    if test is not None and die is not None:
        message += (f"; the `if {expr_text(test.condition)}` ({_line(test)}) on each die "
                    "splits what follows in two, so n dice are 2^n paths")
        related.append(Related(test.span, "an `if` on each die splits the run in two"))
        pool = _pool_text(loop, die, "(n)")
        question = _as_count(test.condition, var)
        ask = f"`count {question} in {pool}`" if question else f"`count ... in {pool}`"
        hints.append(f"count the dice that pass in one roll instead of a loop of single dice: "
                     f"{ask} (a pool's count is worked out at once)")
    summed = None if var is None else next(
        (n for n in _walk(body) if type(n) is nodes.Set and len(n.target) == 1 and
         n.target[0].name != var and var in _names(n.value)), None)
    if summed is not None and test is None and die is not None:
        total = summed.target[0].name
        pool = _pool_text(loop, die, "N")
        message += (f"; `{total}` adds up each die ({_line(summed)}), and every total so far "
                    "is followed on its own")
        related.append(Related(summed.span, "a sum kept die by die"))
        hints.append(f"add the dice in one roll: `let {total} = {pool}` instead of a loop of "
                     f"`{_die_text(die)}` (the sum of a pool is worked out at once; keeping "
                     "each die apart is not)")
    unread = _unread_counters(decl, body)
    if unread:
        names = ", ".join(f"`{n}`" for n in unread)
        hints.append(f"drop what the outcome does not depend on: {names} "
                     f"{'is' if len(unread) == 1 else 'are'} kept but never read")
    if earlier is not None and not hints:
        hints.append("roll the dice in one pool, `(n)d6`, rather than a loop whose turns "
                     "depend on an earlier roll; or play it out: warband simulate")
    if not hints:
        hints.append("fewer turns of the loop, or fewer rolls in it; or play it out: "
                     "warband simulate")
    return message, "; ".join(hints), related


def _outside_loop(interp, decl, culprit) -> tuple[str, str, list[Related]]:
    """A roll outside any loop: its count may come from an earlier roll."""
    if type(culprit) is nodes.Dice and not culprit.count_in_token:
        earlier = _earlier_roll(decl, _names(culprit.count), culprit)
        if earlier is not None:
            first = _first_roll(earlier.value)
            ways = _outcomes(interp, first)
            message = (f"; its number of dice depends on the earlier roll "
                       f"`{expr_text(first) if first else earlier.name.name}` ({_line(earlier)}"
                       + (f", {ways:,} outcomes" if ways else "") +
                       "), and each number of dice is worked out on its own")
            return message, ("cap the number of dice with min(...), or roll the earlier dice "
                             "fewer; or play it out: warband simulate"), [
                Related(earlier.span, "the number of dice comes from this roll")]
    return "", _PLAIN_HINT, []


def _pool_text(loop, die: nodes.Dice, otherwise: str) -> str:
    """The one roll a loop of single dice makes: 20d20 for `repeat 20 times`, (shots)d6."""
    if type(loop) is not nodes.Repeat:
        return otherwise + _die_text(die)
    if type(loop.times) is nodes.Int:
        return f"{loop.times.value}{_die_text(die)}"
    return f"({expr_text(loop.times)}){_die_text(die)}"


def _die_text(die: nodes.Dice) -> str:
    return f"d{die.sides}"


def _as_count(cond, var: str) -> str | None:
    """`d >= 4` as the predicate `>= 4` of a count, when the condition compares the die."""
    if type(cond) is nodes.Compare and type(cond.left) is nodes.Name and \
            cond.left.name == var and var not in _names(cond.right):
        return f"{cond.op} {expr_text(cond.right)}"
    return None


def _unread_counters(decl, body) -> list[str]:
    """Locals set in the loop body that nothing reads but their own `set`s."""
    set_here = {n.target[0].name for n in _walk(body) if type(n) is nodes.Set and
                len(n.target) == 1}
    read: set[str] = set()
    handled: set[int] = set()   # names read by a counter's own `set` (set x = x + 1)
    for n in _walk(decl.body):   # (a node comes before what is in it)
        if type(n) is nodes.Set and len(n.target) == 1 and n.target[0].name in set_here:
            for m in _walk(n.value):
                if type(m) is nodes.Name:
                    handled.add(id(m))
                    if m.name != n.target[0].name:
                        read.add(m.name)
        elif type(n) is nodes.Name and id(n) not in handled:
            read.add(n.name)
    return sorted(set_here - read)
