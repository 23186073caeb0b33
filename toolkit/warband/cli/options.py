"""Command-line values shared by commands: whole numbers, SIDE=POLICY and SIDE=FILE pairs; each
bad one a Diagnostic located in the option's own text (`--games:1:1: error[E910]`), all at once."""

from __future__ import annotations

from typing import TYPE_CHECKING, Sequence

if TYPE_CHECKING:
    from warband.diagnostics import Diagnostic, Sources

# The largest value of each numeric option: a bigger one is a typing mistake, and would run for
# ever (a billion games is days of work), start more processes than any machine has, or be a
# seed no report lists. Refused with E910 before anything starts.
MOST = {"--games": 1_000_000_000, "--seed": 2 ** 63 - 1, "--workers": 1024,
        "--max-rounds": 1_000_000, "--chunk-size": 1_000_000, "--replay": 2 ** 53 - 1}


def whole_number(text: str, option: str, least: int, what: str, diagnostics: list[Diagnostic],
           hint: str | None = None) -> int | None:
    from warband.diagnostics import Span, diag  # lazily, as every command module (common.py)
    where = Span(option, 1, 1, 1, len(text) + 1)
    digits = text.strip().replace("_", "")
    try:
        value = int(digits) if len(digits.lstrip("+-")) <= 30 else None
    except ValueError:
        value = None
    shown = text if len(text) <= 40 else text[:37] + "..."
    if value is None and digits.lstrip("+-").isdigit():   # thirty digits or more
        value = (1 if not digits.startswith("-") else -1) * (MOST.get(option, 0) + 1)
    if value is None:
        diagnostics.append(diag("E910", f"{option} takes a whole number, not '{shown}'", where,
                                hint=hint or f"{what}, e.g. {option} {max(least, 1) * 100}"))
        return None
    if value < least:
        diagnostics.append(diag("E910", f"{option} must be at least {least}, not {shown}",
                                where, hint=hint or what))
        return None
    if option in MOST and value > MOST[option]:
        diagnostics.append(diag("E910", f"{option} must be at most {MOST[option]:,}, not "
                                        f"{shown}", where, hint=hint or what))
        return None
    return value


def named_values(option: str, texts: Sequence[str], sources: Sources):
    """The NAME=VALUE texts of a repeatable option (--policy, --side), each with its place in
    the option's values joined by spaces, where its diagnostics point: (text, place, name, "="
    or "" when it has none, value)."""
    from warband.diagnostics import Span
    sources.add(option, " ".join(texts))
    column = 1
    for text in texts:
        name, eq, value = (part.strip() for part in text.partition("="))
        yield text, Span(option, 1, column, 1, column + len(text)), name, eq, value
        column += len(text) + 1


def parse_policies(texts: Sequence[str], sources: Sources,
                   found: list[Diagnostic]) -> tuple[tuple[str, str], ...]:
    """SIDE=POLICY pairs, located in the --policy values joined by spaces (as `odds` does); a
    policy alone is every side's (`*`)."""
    from warband.diagnostics import diag
    from warband.run.decisions import MAX_MCTS_RUNS, MCTS_RUNS, known_policy
    pairs = []
    seen: dict[str, str] = {}   # side -> the text that gave it a policy
    for text, where, name, eq, policy in named_values("--policy", texts, sources):
        if not eq and known_policy(text):
            name, policy, eq = "*", text, "="
        if not eq and text.partition(":")[0] == "mcts":   # (mcts:0, mcts:x: a search's runs)
            found.append(diag("E911", f"'{text}' is no search: mcts:N takes N from 1 to "
                                      f"{MAX_MCTS_RUNS:,} runs", where,
                              hint=f"e.g. --policy mcts:{MCTS_RUNS}"))
        elif not eq or not name or not policy:
            found.append(diag("E911", f"'{text}' is not SIDE=POLICY", where,
                              hint="name a side (or a decision) and its policy, e.g. "
                                   "--policy Red=greedy, or give every side one: "
                                   "--policy greedy"))
        elif name in seen:
            found.append(diag("E911", f"'{name}' is given a policy twice", where,
                              hint=f"keep one of '{seen[name]}' and '{text}'"))
        else:
            seen[name] = text
            pairs.append((name, policy))
    return tuple(pairs)


def parse_sides(texts: Sequence[str], sources: Sources, found: list[Diagnostic]) -> tuple:
    """SIDE=FILE pairs (`--side`, for play and simulate), each a scenario.SideFile located in
    the --side values joined by spaces; the side's name is checked when the scenario loads."""
    import os
    from pathlib import Path

    from warband.diagnostics import diag
    from warband.game.scenario import SideFile
    if not texts:
        return ()
    out = []
    for text, where, name, eq, file in named_values("--side", texts, sources):
        if not eq or not name or not file:
            found.append(diag("E901", f"'{text}' is not SIDE=FILE", where,
                              hint="name a side of the scenario and a warband file, e.g. "
                                   "--side Red=my-warband.yaml (rules show SCENARIO lists the "
                                   "sides)"))
        elif file == "-":   # workers play the games: standard input is not theirs to read
            found.append(diag("E901", f"side '{name}': a warband is read from a file here, not "
                                      "from standard input", where,
                              hint="save it to a file and name that"))
        else:
            out.append(SideFile(name, os.path.abspath(file), Path(file).as_posix(), where))
    return tuple(out)
