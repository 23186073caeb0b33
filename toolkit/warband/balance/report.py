"""A ruleset's balance report as text (columns to read) and as JSON (keys in a fixed order; exact
figures as fractions "a/b" beside their floats), and what every balance report shares (a
scenario's: scenario_report.py). Every name from a file goes through `printable`."""

from __future__ import annotations

import json
from fractions import Fraction

from warband.balance.duels import A_WINS, B_WINS, BOTH, LIMIT
from warband.balance.weigh import RulesetBalance
from warband.diagnostics import printable
from warband.run.odds import outcome_text

DIGITS = 6
MAX_ATTACK_LINES = 40   # the text report lists every attack when there are no more than this


def number(value) -> str:
    """A cost or a count as the rules write it: 25, 3/2."""
    if value is None:
        return "—"
    if isinstance(value, Fraction):
        return str(value.numerator) if value.denominator == 1 else f"{value}"
    if isinstance(value, float):
        return f"{value:.1f}"
    return str(value)


def pct(x) -> str:
    return "—" if x is None else f"{float(x) * 100:.1f}%"


def fraction_text(x: Fraction) -> str:
    return f"{x.numerator}/{x.denominator}" if x.denominator != 1 else str(x.numerator)


def rounded(x) -> float | None:
    return None if x is None else round(float(x), DIGITS) + 0.0


def columns(rows: list[list[str]], right: set[int] | None = None, indent: str = "") -> list[str]:
    """Rows as aligned columns (the first left-aligned, numbers right-aligned)."""
    if not rows:
        return []
    right = right if right is not None else set(range(1, len(rows[0])))
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    out = []
    for row in rows:
        cells = [c.rjust(w) if i in right else c.ljust(w)
                 for i, (c, w) in enumerate(zip(row, widths))]
        out.append((indent + "  ".join(cells)).rstrip())
    return out


def name(text: str, cut: int = 40) -> str:
    shown = printable(str(text))
    return shown if len(shown) <= cut else shown[:cut - 1] + "…"


# ---- a ruleset ---------------------------------------------------------------------------------

def cost_per_kill(cost, kill: Fraction):
    if cost is None or not kill:
        return None
    return Fraction(cost) / kill


def points_per_point(kill: Fraction, cost, target_cost):
    """The target's points removed by one attack, for each point the attacker costs."""
    if not cost or target_cost is None:
        return None
    return kill * Fraction(target_cost) / Fraction(cost)


def best_strike(found: RulesetBalance, i: int, j: int):
    strikes = found.strikes.get((i, j)) or []
    return max(strikes, key=lambda s: (s.kill, -s.lost), default=None)


def ruleset_text(found: RulesetBalance) -> str:
    ps = found.profiles
    n = len(ps)
    lines = [f"{name(found.ruleset, 80)}: {n} fighters weighed by exact odds (no sampling)",
             f"decisions: {found.policy}; duels "
             + (f"of at most {found.rounds} rounds" if found.rounds else "fought to the end")
             + ", each fighter acting first in one of two", ""]
    verdict_of = {v.profile: v for v in found.verdicts}
    rows = [["#", "fighter", "stats", "cost", "duels won"]]
    for i, p in enumerate(ps):
        v = verdict_of[i]
        rows.append([str(i + 1), name(p.name, 32), name(p.stats, 24), number(p.cost),
                     pct(v.average)])
    lines += columns(rows, {0, 3, 4}) + [""]
    head = [""] + [str(j + 1) for j in range(n)]
    width = len(str(n))

    def label(i: int) -> str:
        return f"{i + 1:>{width}} {name(ps[i].name, 20)}"
    lines.append("one attack, the attacker's (row's) best on each target (column): the chance "
                 "to remove it")
    rows = [head] + [[label(i)] +
                     [pct(s.kill) if (s := best_strike(found, i, j)) else "—"
                      for j in range(n)] for i in range(n)]
    lines += columns(rows) + [""]
    kills = any(s.kill for strikes in found.strikes.values() for s in strikes)
    if any(p.cost is not None for p in ps) and kills:
        lines.append("cost per kill: the attacker's cost over that chance (points spent for "
                     "each fighter removed, one attack a turn)")
        rows = [head] + [[label(i)] +
                         [number(round(float(c))) if (s := best_strike(found, i, j)) and
                          (c := cost_per_kill(ps[i].cost, s.kill)) is not None else "—"
                          for j in range(n)] for i in range(n)]
        lines += columns(rows) + [""]
    lines.append("duels: the chance that the row's fighter beats the column's")
    rows = [head] + [[label(i)] +
                     [pct(found.win(i, j)) for j in range(n)] for i in range(n)]
    lines += columns(rows) + [""]
    lines += every_attack(found)
    if found.options:
        lines.append("options: the fighter with it against the same fighter without (the change of its duels won, in percentage points)")
        rows = [["option", "on", "price", "duels won"]]
        for o in found.options:
            change = "—" if o.change is None else f"{float(o.change) * 100:+.1f} pp"
            rows.append([name(o.option, 24), name(ps[o.base].name, 24),
                         "—" if o.price is None else f"{number(o.price)}", change])
        lines += columns(rows, {2, 3}) + [""]
    findings = findings_of(found)
    lines.append("findings" if findings else "findings: none")
    lines += [f"  {f}" for f in findings]
    for d in found.problems:
        lines.append(f"  not solved: {printable(d.message)}")
    return "\n".join(lines) + "\n"


def every_attack(found: RulesetBalance) -> list[str]:
    """Each attack of each fighter on each: its outcomes, its chance to remove, its expected
    score and cost per kill; in a few lines, else where to find them."""
    ps = found.profiles
    rows = [["attacker", "target", "attack", "outcomes", "removes", "expected",
             "cost per kill"]]
    for (i, j), strikes in found.strikes.items():
        for s in strikes:
            cpk = cost_per_kill(ps[i].cost, s.kill)
            rows.append([name(ps[i].name, 20), name(ps[j].name, 20), name(s.attack, 20),
                         ", ".join(f"{name(outcome_text(v), 16)} {pct(s.distribution[v])}"
                                   for v in s.order if v in s.distribution),
                         pct(s.kill), "—" if s.expected is None else f"{float(s.expected):.3f}",
                         "—" if cpk is None else number(round(float(cpk)))])
    if len(rows) == 1:
        return []
    if len(rows) - 1 > MAX_ATTACK_LINES:
        return [f"every attack: {len(rows) - 1:,} of them, each with its outcomes, in --format "
                "json or html (or name fewer fighters with --fighters FILE.yaml)", ""]
    return ["every attack: its outcomes, its chance to remove the target, its expected score "
            "(the rules' scores of its results), and cost per kill"] + \
        columns(rows, {4, 5, 6}) + [""]


def groups_of(found: RulesetBalance) -> list[list[int]]:
    """The profiles that do exactly alike in every duel at the same cost, a group each (a
    profile alike with no other is a group of one)."""
    group: dict[int, list[int]] = {}
    for v in found.verdicts:
        if v.profile in group:
            continue
        members = sorted({v.profile, *v.same_as})
        for m in members:
            group[m] = members
    seen: list[list[int]] = []
    for v in found.verdicts:
        if group[v.profile] not in seen:
            seen.append(group[v.profile])
    return seen


def findings_of(found: RulesetBalance) -> list[str]:
    """The verdicts in words, a group of fighters that do alike at once."""
    ps = found.profiles
    verdict_of = {v.profile: v for v in found.verdicts}
    out = []
    for members in groups_of(found):
        who = ", ".join(name(ps[m].name) for m in members)
        v = verdict_of[members[0]]
        if len(members) > 1:
            out.append(f"{who}: alike in every duel, at the same cost")
        for words in v.words:
            out.append(f"{who}: {words}")
        dominators = [j for j in v.dominated_by if j not in members]
        if dominators:
            others = ", ".join(name(ps[j].name) for j in dominators[:6])
            more = f" and {len(dominators) - 6} more" if len(dominators) > 6 else ""
            out.append(f"{who}: dominated by {others}{more} (as cheap or cheaper, and as good "
                       "or better against everyone)")
    return out


def ruleset_json(found: RulesetBalance) -> dict:
    ps = found.profiles
    attacks = []
    for (i, j), strikes in found.strikes.items():
        for s in strikes:
            cpk = cost_per_kill(ps[i].cost, s.kill)
            attacks.append({
                "attacker": i + 1, "target": j + 1, "action": s.attack,
                "outcomes": {outcome_text(v): fraction_text(s.distribution[v]) for v in s.order
                             if v in s.distribution},
                "kill": fraction_text(s.kill), "kill_percent": rounded(100 * s.kill),
                "lost": fraction_text(s.lost),
                "expected": None if s.expected is None else fraction_text(s.expected),
                "cost_per_kill": rounded(cpk),
                "points_removed_per_point": rounded(points_per_point(s.kill, ps[i].cost,
                                                                ps[j].cost)),
            })
    duels = []
    for (i, j), d in sorted(found.duels.items()):
        entry: dict = {"a": i + 1, "b": j + 1, "solved": d.solved, "states": d.states}
        if d.solved:
            entry.update({
                "a_wins": fraction_text(d.wins("a")), "b_wins": fraction_text(d.wins("b")),
                "draw": fraction_text(d.draw),
                "a_wins_percent": rounded(100 * d.wins("a")), "b_wins_percent": rounded(100 * d.wins("b")),
                "a_first": {k: fraction_text(d.a_first.get(k, Fraction(0)))
                            for k in (A_WINS, B_WINS, BOTH, LIMIT)},
                "b_first": {k: fraction_text(d.b_first.get(k, Fraction(0)))
                            for k in (A_WINS, B_WINS, BOTH, LIMIT)},
                "expected_turns": {"a_first": rounded(d.turns_a_first), "b_first": rounded(d.turns_b_first)},
            })
        else:
            assert d.problem is not None
            entry["problem"] = d.problem.to_json()
        duels.append(entry)
    return {
        "kind": "ruleset",
        "ruleset": found.ruleset,
        "fighters_from": found.source,
        "policy": found.policy,
        "rounds": found.rounds,
        "fighters": [{"number": i + 1, "name": p.name, "class": p.group, "stats": p.stats,
                      "cost": None if p.cost is None else number(p.cost),
                      "base": p.base, "option": p.option, "entry": plain(p.entry)}
                     for i, p in enumerate(ps)],
        "attacks": attacks,
        "duels": duels,
        "verdicts": [{"fighter": v.profile + 1, "duels_won": rounded(v.average),
                      "beats_everything_at_its_cost": v.beats_all,
                      "loses_to_everything_at_its_cost": v.loses_all,
                      "dominated_by": [j + 1 for j in v.dominated_by],
                      "same_as": [j + 1 for j in v.same_as]} for v in found.verdicts],
        "options": [{"option": o.option, "fighter": o.profile + 1, "base": o.base + 1,
                     "price": None if o.price is None else number(o.price),
                     "duels_won_change": rounded(o.change)} for o in found.options],
        "problems": [d.to_json() for d in found.problems],
    }


def plain(value):
    if isinstance(value, dict):
        return {str(k): plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    if isinstance(value, Fraction):
        return number(value)
    return value


def render_json(data: dict) -> str:
    return json.dumps(data, indent=2, ensure_ascii=False) + "\n"


__all__ = ["columns", "cost_per_kill", "fraction_text", "name", "number", "pct", "plain",
           "render_json", "rounded", "ruleset_json", "ruleset_text"]
