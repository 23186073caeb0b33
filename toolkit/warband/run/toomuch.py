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
from collections.abc import Iterator
from typing import Any

from warband.diagnostics import Diagnostic, Related, diag
from warband.lang import nodes
from warband.lang.per_ruleset import per_ruleset
from warband.lang.unparse import expr_text
from warband.limits import MAX_OUTCOME_PAIRS
from warband.run.dice import COMBINED_HINT, TooLarge

LOOPS = (nodes.Repeat, nodes.ForEach, nodes.ForSorted, nodes.While)
DECISIONS = (nodes.Choose, nodes.ChooseNumber, nodes.ChooseAmong, nodes.ChooseTuple,
              nodes.ChooseSpot)
PLAIN_HINT = "roll fewer dice or make fewer decisions, or play it out: warband simulate"


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


def walk(node) -> Iterator:
    """Every node under node (node included), depth first, in the order of the text."""
    stack = [node]
    while stack:
        n = stack.pop()
        if isinstance(n, tuple):
            stack.extend(reversed(n))
            continue
        yield n
        stack.extend(reversed(list(_children(n))))


@per_ruleset
def _parents(ruleset) -> dict[int, object]:
    """A ruleset's nodes -> the node each is in, made at the first E504 of a ruleset (a game's
    look-ahead gives up, and is explained, many times a game) and kept."""
    parents: dict[int, object] = {}
    for root in ruleset.procedures.values():
        stack = [root]
        while stack:
            n = stack.pop()
            for child in _children(n):
                for item in (child if isinstance(child, tuple) else (child,)):
                    for x in _flat(item):
                        if id(x) not in parents:
                            parents[id(x)] = n
                            stack.append(x)
    return parents


def _flat(item) -> Iterator:
    if isinstance(item, tuple):
        for x in item:
            yield from _flat(x)
    elif dataclasses.is_dataclass(item) and not isinstance(item, type):
        yield item


def path_to(ruleset, target) -> list | None:
    """The chain of nodes from a procedure's declaration down to target, or None when target
    is not in a procedure (a table's or a definition's roll)."""
    parents = _parents(ruleset)
    path = [target]
    while id(path[-1]) in parents:
        path.append(parents[id(path[-1])])
        if len(path) > 10_000:   # (nesting is bounded far below: limits.MAX_DEPTH)
            return None
    if not isinstance(path[-1], nodes.ProcedureDecl):
        return None
    return path[::-1]


def _line(node) -> str:
    return f"line {node.span.line}"


def _rolls(expr) -> bool:
    return any(type(n) is nodes.Dice for n in walk(expr))


def _names(expr) -> set[str]:
    return {n.name for n in walk(expr) if type(n) is nodes.Name}


def _earlier_roll(decl, names: set[str], before) -> nodes.Let | None:
    """The `let NAME = <a roll>` of the declaration, before `before`, that one of names is."""
    found = None
    for n in walk(decl.body):
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
    return next((n for n in walk(expr) if type(n) is nodes.Dice), None)


def explain(interp, node, limit: int) -> Diagnostic:
    """E504 for an exact evaluation that passed `limit` steps and outcomes at `node` (the
    statement or roll being evaluated then)."""
    if interp.max_branches is not None:
        # a game's look-ahead budget: the game catches it and plays on (game/lookahead.py), many
        # times a game, and nobody reads why
        return diag("E504", f"too much to follow exactly (more than {limit:,} steps and "
                            "outcomes)", getattr(node, "span", None), hint=PLAIN_HINT)
    rolled = sorted(interp.rolled.values(), key=lambda t: -t[2])
    culprit = rolled[0][0] if rolled and rolled[0][2] * 4 >= limit else node
    message = f"too much to follow exactly (more than {limit:,} steps and outcomes)"
    related: list[Related] = []
    hint = PLAIN_HINT
    if type(culprit) is nodes.Dice and rolled and culprit is rolled[0][0]:
        _, times, outcomes = rolled[0]
        message += (f": the roll `{expr_text(culprit)}` was made {times:,} times, "
                    f"{outcomes:,} outcomes in all")
    path = path_to(interp.ruleset, culprit) if culprit is not None else None
    if path is not None:
        more, hint, related = _in_rules(interp, path, culprit)
        message += more
    span = getattr(culprit, "span", None) or getattr(node, "span", None)
    return diag("E504", message, span, hint=hint, related=related)


def _in_rules(interp, path: list, culprit) -> tuple[str, str, list[Related]]:
    """What the rules around the culprit do that multiplies the work: (more of the message,
    the hint, related places)."""
    decl = path[0]
    loop: Any = next((n for n in reversed(path) if isinstance(n, LOOPS)), None)
    related: list[Related] = []
    if loop is None:
        return _outside_loop(interp, decl, culprit)
    body = loop.body
    roll_let = next((n for n in reversed(path) if type(n) is nodes.Let and _rolls(n.value)),
                    None)
    if roll_let is None:   # the culprit is not a roll: the first roll kept in the loop
        roll_let = next((n for n in walk(body) if type(n) is nodes.Let and _rolls(n.value)),
                        None)
    die: Any = _first_roll(roll_let.value) if roll_let is not None else None
    # a roll added straight into a total: `set x += d20`
    rolled_into = next((n for n in walk(body) if type(n) is nodes.Set and len(n.target) == 1
                        and n.op == "+=" and type(n.value) is nodes.Dice), None)
    if die is None and rolled_into is not None:
        die = rolled_into.value
    head = "repeat " + expr_text(loop.times) + " times" if type(loop) is nodes.Repeat else \
        "while " + expr_text(loop.condition) if type(loop) is nodes.While else \
        "for each " + loop.var.name
    decision = next((n for n in walk(body) if isinstance(n, DECISIONS)), None)
    if type(culprit) is nodes.Dice:
        message = f"; it is rolled once a turn of `{head}` ({_line(loop)})"
    elif culprit is decision:
        message = (f"; the decision '{decision.name.name}' ({_line(decision)}) is made on each "
                   f"turn of `{head}` ({_line(loop)}), for each outcome so far")
    else:
        message = (f"; `{statement_text(culprit)}` ({_line(culprit)}) runs once a turn of "
                   f"`{head}` ({_line(loop)})")
    if type(culprit) is not nodes.Dice and die is not None:
        tally = interp.rolled.get(id(die))
        if tally is not None:
            message += (f"; the roll `{expr_text(die)}` in it ({_line(die)}) was made "
                        f"{tally[1]:,} times, {tally[2]:,} outcomes in all")
    related.append(Related(loop.span, "each turn of this loop follows every outcome of "
                                      "the turns before it"))
    # how many turns: worked out from an earlier roll?
    earlier: Any = None
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
    if decision is not None:
        if culprit is not decision:
            message += (f"; the decision '{decision.name.name}' ({_line(decision)}) is made "
                        "on each turn, for each outcome so far")
            related.append(Related(decision.span, "a decision per die multiplies the "
                                                  "outcomes"))
        hints.append("a decision per die multiplies the outcomes: decide once for the whole "
                     "roll (one `choose` before or after the dice)")
    var = roll_let.name.name if roll_let is not None else None
    test = None if var is None else next(
        (n for n in walk(body) if type(n) is nodes.If and var in _names(n.condition)), None)
    # the die's value changed in the loop (a decision's +1): counting or adding the dice in one
    # roll would not be the same rule
    changed = var is not None and any(type(n) is nodes.Set and n.target[0].name == var
                                      for n in walk(body))
    memo = interp.memoise   # (equal states are merged: only what is kept keeps them apart)
    if test is not None and not memo:
        message += (f"; the `if {expr_text(test.condition)}` ({_line(test)}) on each die "
                    "splits what follows in two, so n dice are 2^n paths")
        related.append(Related(test.span, "an `if` on each die splits the run in two"))
    if test is not None and var is not None and die is not None and not changed and \
            decision is None:
        pool = pool_text(loop, die, "(n)")
        question = _as_count(test.condition, var)
        ask = f"`count {question} in {pool}`" if question else f"`count ... in {pool}`"
        hints.append(f"count the dice that pass in one roll instead of a loop of single dice: "
                     f"{ask} (a pool's count is worked out at once)")
    summed = rolled_into if var is None else next(
        (n for n in walk(body) if type(n) is nodes.Set and len(n.target) == 1 and
         n.target[0].name != var and var in _names(n.value)), None)
    if summed is not None and test is None and die is not None and not changed and not memo:
        total = summed.target[0].name
        pool = pool_text(loop, die, "N")
        message += (f"; `{total}` adds up each die ({_line(summed)}), and every total so far "
                    "is followed on its own")
        related.append(Related(summed.span, "a sum kept die by die"))
        hints.append(f"add the dice in one roll: `set {total} += {pool}` instead of a loop of "
                     f"`{_die_text(die)}` (the sum of a pool is worked out at once; keeping "
                     "each die apart is not)")
    unread = _unread_counters(decl, body) if memo else []
    if unread:
        names = ", ".join(f"`{n}`" for n in unread)
        message += (f"; {names} {'is' if len(unread) == 1 else 'are'} kept on every path, so "
                    "paths that differ only there are followed apart")
        # first: the one change that merges the paths again, and changes no result
        hints.insert(0, f"drop what the outcome does not depend on: {names} "
                        f"{'is' if len(unread) == 1 else 'are'} kept but never read")
        kept = next((n for n in walk(body) if type(n) is nodes.Set and len(n.target) == 1
                     and n.target[0].name in unread), None)
        if kept is not None:
            related.append(Related(kept.span, "kept on every path, and never read"))
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
    return "", PLAIN_HINT, []


def statement_text(stmt) -> str:
    """A statement's first words, as a message quotes it."""
    if isinstance(stmt, DECISIONS):
        return f"choose {stmt.name.name}"
    if type(stmt) is nodes.Let:
        return f"let {stmt.name.name} = {expr_text(stmt.value)}"
    if type(stmt) is nodes.Set:
        return f"set {'.'.join(t.name for t in stmt.target)} {stmt.op} {expr_text(stmt.value)}"
    if type(stmt) is nodes.If:
        return f"if {expr_text(stmt.condition)}"
    if type(stmt) is nodes.CallStmt:
        return expr_text(stmt.call)
    if type(stmt) is nodes.Return:   # a bare `return` has no value
        return "return" if stmt.value is None else f"return {expr_text(stmt.value)}"
    return type(stmt).__name__.lower()


def pool_text(loop, die: nodes.Dice, otherwise: str) -> str:
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
        bound = cond.right   # a count's bound is a number, a name, or in brackets
        text = expr_text(bound)
        return f"{cond.op} {text if type(bound) in (nodes.Int, nodes.Name) else f'({text})'}"
    return None


def _unread_counters(decl, body) -> list[str]:
    """Locals set in the loop body that nothing reads but their own `set`s."""
    set_here = {n.target[0].name for n in walk(body) if type(n) is nodes.Set and
                len(n.target) == 1}
    read: set[str] = set()
    handled: set[int] = set()   # names read by a counter's own `set` (set x = x + 1)
    for n in walk(decl.body):   # (a node comes before what is in it)
        if type(n) is nodes.Set and len(n.target) == 1 and n.target[0].name in set_here:
            for m in walk(n.value):
                if type(m) is nodes.Name:
                    handled.add(id(m))
                    if m.name != n.target[0].name:
                        read.add(m.name)
        elif type(n) is nodes.Name and id(n) not in handled:
            read.add(n.name)
    return sorted(set_here - read)


def pool_too_large(interp, roll: nodes.Dice, n: int, reason: str, hint: str,
                   fits=None) -> Diagnostic:
    """E504 for one pool too large to work out exactly (dice.pool_sum or dice.pool_keep gave
    up): when its number of dice comes from an earlier roll, which roll, and that this number
    is the most it rolled up."""
    related: list[Related] = []
    message = reason
    if not roll.count_in_token:
        message += f" (`{expr_text(roll.count)}` is {n} here)"
        path = path_to(interp.ruleset, roll)
        earlier = _earlier_roll(path[0], _names(roll.count), roll) if path else None
        if earlier is not None:
            first = _first_roll(earlier.value)
            message += (f"; the number of dice comes from the earlier roll "
                        f"`{expr_text(first) if first else earlier.name.name}` "
                        f"({_line(earlier)}), and the pool is worked out for each number it "
                        "can give")
            related.append(Related(earlier.span, "the number of dice comes from this roll"))
            most = next((m for m in range(n - 1, 0, -1) if fits is None or fits(m)), 0)
            if most:
                hint = (f"at most {most} such dice are worked out exactly: cap the number, "
                        f"`{'pool ' if roll.pool else ''}"   # dice pools: written as rolled
                        f"(min({expr_text(roll.count)}, {most}))d{roll.sides}`, or roll "
                        "fewer for it; or play it out: warband simulate")
    return diag("E504", message, roll.span, hint=hint, related=related)


def combined_too_large(error: TooLarge, node, span=None) -> Diagnostic:
    """E504 for exact arithmetic on rolls that would weigh too many combinations of outcomes
    (dice.TooLarge), at the expression that made it (or the rule it is in)."""
    shown = [f"{n:,}" for n in error.sizes[:6]] + (["..."] if len(error.sizes) > 6 else [])
    sizes = ", ".join(shown[:-1]) + " and " + shown[-1] if len(shown) > 1 else shown[0]
    what = f"`{_short(expr_text(node))}`" if span is None else "this rule"
    return diag("E504", f"too much to work out exactly: {what} combines distributions of "
                        f"{sizes} outcomes, at least {error.pairs:,} combinations (at most "
                        f"{MAX_OUTCOME_PAIRS:,})", span or node.span, hint=COMBINED_HINT)


def _short(text: str) -> str:
    return text if len(text) <= 80 else text[:79] + "…"
