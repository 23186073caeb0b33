"""Peephole rewrites of generated source text, made before it is compiled: a fighter that one
line reads from the World several times read once into a local, a fighter's side read once
before the block that reads it, and a change to the World that the run returns right after made
on the World rather than on a Draft.
"""

from __future__ import annotations

import re

# A fighter read from the World by a local holding its Ref: `world.fighters[v_attacker[1]]`.
_FIGHTER_READ = re.compile(r"world\.fighters\[((?:v|_i\d+)_\w+)\[1\]\]")
# Lines before which a statement may go: the expression on them is evaluated once, there.
_HOISTABLE = re.compile(r"\s*(?:return |if |[A-Za-z_]\w*(?:, [A-Za-z_]\w*)* = )")


def hoisted(lines: list[str]) -> list[str]:
    """The lines with a fighter that one line reads from the World several times read once,
    into a local, just before it (effective_might reads Might, Defending and Stunned of each
    fighter). An expression never changes the World, and these locals hold Refs checked on
    entry or given by a group, so the fighter read earlier is the same one."""
    out: list[str] = []
    for line in lines:
        reads = _FIGHTER_READ.findall(line)
        if len(reads) > len(set(reads)) and _HOISTABLE.match(line):
            pad = line[:len(line) - len(line.lstrip())]
            for ref in sorted({r for r in reads if reads.count(r) > 1}):
                local = f"_f_{ref}"
                out.append(f"{pad}{local} = world.fighters[{ref}[1]]")
                line = line.replace(f"world.fighters[{ref}[1]]", local)
        out.append(line)
    return out


def side_local(body: list[str], local: str, read: str) -> list[str]:
    """The body with a fighter's side number, written as `local` where it is read, read into
    that local just before its first read, when that read is a plain statement that every
    later read follows within the same block (no line between them leaves it); otherwise,
    or when one line reads it, read where it is (a read on a path seldom taken, such as the
    cover save's, is not worth making on every run)."""
    used = [i for i, line in enumerate(body) if local in line]
    first = body[used[0]]
    pad = first[:len(first) - len(first.lstrip())]
    if len(used) > 1 and not _HEADER.match(first) and \
            all(body[i].startswith(pad) for i in range(used[0], used[-1] + 1)):
        return [*body[:used[0]], f"{pad}{local} = {read}", *body[used[0]:]]
    return [line.replace(local, read) for line in body]


_HEADER = re.compile(r"\s*(if|elif|else|while|for|try|except|finally|with)\b")


# A statement of a generated function that returns (its value, the World or a Draft): each
# one is the function's own, as generated bodies define no functions (lambdas only).
RETURN = re.compile(r"(\s*)return (.*)$")

# A change made on a Draft (made here if the run has none yet): see DRAFT in codegen_expr.
_DRAFT_CHANGE = re.compile(r"(\s*)world = \(world if type\(world\) is _Draft else "
                           r"_draft\(world\)\)\.(set|remove)\(")


def last_changes(lines: list[str]) -> list[str]:
    """The lines with a change to the World that the run returns right after made by the
    World's own set or remove (on a Draft, the Draft's) instead of on a Draft made for it: a
    Draft is worth making for several changes, and a World is made of it when the run ends, so
    for one change (an attack that stuns) it costs about a third more than the World's copy."""
    out = list(lines)
    for i, line in enumerate(lines[:-1]):
        change = _DRAFT_CHANGE.match(line)
        if change and lines[i + 1].startswith(f"{change[1]}return (") and \
                lines[i + 1].endswith(", world)"):
            out[i] = f"{change[1]}world = world.{change[2]}({line[change.end():]}"
    return out
