"""Why an exact run that merges gave up (E504): where its situations piled up, along which loops
and calls, and which values kept them apart.

A run that merges (run/merging.py) works out the future of each distinct situation once, so its
work grows with the situations, not the paths: when it still passes the limit, the rule really
keeps that many situations apart. Its memo says which: each key is a situation (the position,
the live locals' values, the World's state, the rolls kept whole, where the run goes on). So,
asked only when the limit is passed (it costs nothing while rules run):

- the position with the most situations, and the statement there;
- the loops around it, and the calls that reach its procedure from the action, each with the
  loops around the call (the loop that multiplies the work may be in a calling procedure);
- for that position, how many distinct values each thing in the key takes there: a local, a
  fighter's or a side's value, the rolls kept whole, the turn of a loop or the caller it goes
  back to; the ones with the most values are what keeps the situations apart;
- what the designer can change: a bound on what keeps them apart, fewer turns, or sampling.

A run that does not merge (a game's budgeted look-ahead) is explained by run/toomuch.py.
"""

from __future__ import annotations

from collections import Counter, deque
from typing import Any, cast

from warband.diagnostics import Diagnostic, Related, diag
from warband.lang import nodes
from warband.lang.unparse import expr_text
from warband.run import toomuch
from warband.run.liveness import liveness

SHOWN = 4   # the things that keep situations apart, at most, named in the message
SAMPLING = ("or sample it: `warband odds ... --samples 20000` gives each fraction with a 95% "
            "interval")


def explain(interp, node, limit: int) -> Diagnostic:
    """E504 for an exact run past `limit` steps and outcomes at `node`."""
    if not interp.merging or interp.max_branches is not None:
        return toomuch.explain(interp, node, limit)
    keys = [*interp.memo, *interp.value_memo]
    blocks = _blocks(interp)
    by_position = Counter((k[0], k[1]) for k in keys if k[0] in blocks)
    message = (f"too much to follow exactly (more than {limit:,} steps and outcomes): "
               f"{len(keys):,} distinct situations")
    if not by_position:
        return diag("E504", message, getattr(node, "span", None), hint=toomuch.PLAIN_HINT)
    (block_id, i), count = _where(interp, blocks, by_position)
    stmts = blocks[block_id]
    stmt = stmts[min(i, len(stmts) - 1)]
    message += (f", {count:,} of them at `{toomuch.statement_text(stmt)}` "
                f"(line {stmt.span.line})")
    where, related, loops = _chain(interp, stmt)
    message += where
    here = [k for k in keys if k[0] == block_id and k[1] == i]
    apart = _apart(interp, interp.live_at.get(block_id), i, here)
    if apart:
        message += "; what keeps them apart there: " + ", ".join(
            f"{label} ({n:,} values)" for label, n, _ in apart)
    hints = _rewrites(stmt, loops)
    decision = _decision_in(loops)
    if decision is not None:
        message += (f"; the decision '{decision.name.name}' (line {decision.span.line}) is "
                    "weighed in each of them")
    return diag("E504", message, stmt.span, hint="; ".join(hints + _hint(apart, loops)),
                related=related)


def _where(interp, blocks: dict, by_position: Counter) -> tuple[tuple[int, int], int]:
    """The position to point at: of those with at least half the most situations, the one in
    the most loops (the loop that multiplies them is what to change; the statement after the
    loop only holds what the loop left), then the one with the most."""
    ranked = by_position.most_common()
    most = ranked[0][1]

    def depth(position) -> tuple[int, int]:   # (the loops around it, here and in callers;
        stmts = blocks[position[0]]              # the calls that reach it)
        stmt = stmts[min(position[1], len(stmts) - 1)]
        path = toomuch.path_to(interp.ruleset, stmt)
        calls = len(_calls(interp.ruleset, getattr(interp, "running", None), path[0])) \
            if path is not None else 0
        return len(_chain(interp, stmt)[2]), calls
    return max((item for item in ranked if item[1] * 2 >= most),
               key=lambda item: (depth(item[0]), item[1]))


def _blocks(interp) -> dict[int, tuple]:
    """id of a block of statements -> the block, for every block a situation can be at."""
    analysis = liveness(interp.ruleset)
    found = {id(b): b for b in analysis.blocks}
    found.update((id(b), b) for b in analysis.elses.values())
    return found


# ---- the loops and calls around the statement -----------------------------------------------------

def _loops(path: list) -> list:
    return [n for n in path if isinstance(n, toomuch.LOOPS)]


def _head(loop) -> str:
    if type(loop) is nodes.Repeat:
        return f"repeat {expr_text(loop.times)} times"
    if type(loop) is nodes.While:
        return f"while {expr_text(loop.condition)} at most {expr_text(loop.times)} times"
    return f"for each {loop.var.name}"


def _chain(interp, stmt) -> tuple[str, list[Related], list]:
    """(where the statement is: its procedure, the loops around it, the calls that reach it
    from the action with the loops around each; related places; every such loop)."""
    ruleset = interp.ruleset
    path = toomuch.path_to(ruleset, stmt)
    if path is None:
        return "", [], []
    decl = path[0]
    loops = _loops(path)
    related = [Related(loop.span, "each turn of this loop is a situation of its own, with "
                                  "what the turns before it left") for loop in loops[-1:]]
    text = f" in `{decl.name.name}`" + "".join(
        f", inside `{_head(loop)}` (line {loop.span.line})" for loop in reversed(loops))
    root = getattr(interp, "running", None)
    for caller, call in _calls(ruleset, root, decl):
        around = _loops(toomuch.path_to(ruleset, call) or [])
        text += (f"; `{call.callee.name}` is called from `{caller.name.name}` "
                 f"(line {call.span.line})" + "".join(
                     f", inside `{_head(loop)}` (line {loop.span.line})"
                     for loop in reversed(around)))
        if around:
            related.append(Related(around[-1].span, f"each turn calls `{call.callee.name}` "
                                                    "again, from each situation so far"))
        loops = loops + around
    return text, related, loops


def _calls(ruleset, root, target) -> list[tuple[Any, nodes.Call]]:
    """The calls from root (the action) down to target: (caller, call), innermost first; empty
    when target is root or no chain of calls reaches it."""
    if root is None or root is target:
        return []
    procedures = ruleset.procedures
    came: dict[str, tuple[Any, nodes.Call] | None] = {root.name.name: None}
    todo = deque([root])
    while todo:
        decl = todo.popleft()
        for n in toomuch.walk(decl.body):
            if type(n) is nodes.Call and n.callee.name in procedures and \
                    n.callee.name not in came:
                came[n.callee.name] = (decl, n)
                todo.append(procedures[n.callee.name])
    chain = []
    step = came.get(target.name.name)
    while step is not None:
        chain.append(step)
        step = came.get(step[0].name.name)
    return chain


# ---- what keeps the situations apart ----------------------------------------------------------------

def _apart(interp, live, i: int, keys: list) -> list[tuple[str, int, str]]:
    """(label, how many distinct values, kind) of the parts of the keys at one position that
    take more than one value there, the most first (at most SHOWN)."""
    found: list[tuple[str, int, str]] = []
    names = live[i] if live is not None else None
    if names is not None:
        for j, name in enumerate(names):
            found.append((f"`{name}`", len({k[2][j] for k in keys}), "local"))
    else:   # (every local, as (name, value) pairs)
        seen: dict[str, set] = {}
        for k in keys:
            for name, value in k[2]:
                seen.setdefault(name, set()).add(value)
        found += [(f"`{name}`", len(values), "local") for name, values in seen.items()]
    fighters, sides = interp.last_state[0], interp.last_state[1]
    numbered = {n: state for state, n in interp.state_ids.items()}   # (keys hold numbers)
    states = [numbered[k[3]] for k in keys]
    for j, fighter in enumerate(fighters or ()):
        for f, field in enumerate(fighter.values):
            found.append((f"{fighter.name}'s {field}",
                          len({s[0][j][0][f] for s in states}), "fighter"))
        found.append((f"whether {fighter.name} is in play", len({s[0][j][1] for s in states}),
                      "removed"))
    for j, side in enumerate(sides or ()):
        for f, field in enumerate(side.values):
            found.append((f"{side.name}'s {field}", len({s[1][j][0][f] for s in states}),
                          "side"))
    found.append(("the rolls kept whole", len({k[4] for k in keys}), "rolls"))
    found.append(("where the run goes on (a loop's turn, or the caller)",
                  len({(k[5], k[6]) for k in keys}), "turn"))
    found = [f for f in found if f[1] > 1]
    found.sort(key=lambda f: -f[1])
    return found[:SHOWN]


def _decision_in(loops: list):
    """The first decision in the innermost loop around the statement, if any."""
    if not loops:
        return None
    return next((n for n in toomuch.walk(loops[-1].body)
                 if isinstance(n, toomuch.DECISIONS)), None)


def _rewrites(stmt, loops: list) -> list[str]:
    """The rewrites that keep the rule and need no situations: a total kept die by die
    (`set t += d` with `let d = dN` a turn of `repeat`) is one pool's sum; a decision per die is
    one decision for the roll."""
    if not loops:
        return []
    loop = loops[-1]
    if _decision_in(loops) is not None:
        return ["decide once for the whole roll (one `choose` before or after the dice) rather "
                "than once a die"]
    if type(stmt) is nodes.Set and stmt.op == "+=" and len(stmt.target) == 1:
        die = stmt.value if _one_die(stmt.value) else None   # `set t += d20`
        if type(stmt.value) is nodes.Name:   # `let d = d20` ... `set t += d`
            die = next((n.value for n in toomuch.walk(loop.body) if type(n) is nodes.Let and
                        n.name.name == stmt.value.name and _one_die(n.value)), None)
        if die is not None:
            pool = toomuch.pool_text(loop, cast(nodes.Dice, die), "N")
            return [f"add the dice in one roll: `set {stmt.target[0].name} += {pool}` (the sum "
                    "of a pool is worked out at once)"]
    return []


def _one_die(expr) -> bool:
    return type(expr) is nodes.Dice and type(expr.count) is nodes.Int and \
        expr.count.value == 1 and not expr.mods


def _hint(apart: list, loops: list) -> list[str]:
    hints = []
    for label, n, kind in apart:
        if kind == "local":
            hints.append(f"give {label} fewer values: cap it where the rule stops telling "
                         f"them apart (`min(..., N)`), or keep what the rule asks of it (a "
                         "count, a yes/no) rather than the whole value")
            break
        if kind in ("fighter", "side"):
            hints.append(f"cap {label} where the rule stops telling its values apart "
                         "(`min(..., N)` in its `set`)")
            break
    if loops:
        hints.append(f"fewer turns of `{_head(loops[-1])}`")
    hints.append(SAMPLING)
    return hints


__all__ = ["explain"]
