"""The list as the validator judges it: each entry's cost and problems, and the totals against
every limit of the ruleset (points, named costs, fighters, quotas, the author's own rules).

Everything comes from lists/validate.py, run on the list's text as `warband validate` runs on a
file, and from the roster model (lists/roster.py) made from that validation: the costs of the
entries and the totals as the cards print them. A problem is shown at the entry it points at
(its path in the file), with its hint; a problem of the whole list that counts several entries
(a quota, the points) is shown at the first, as `validate` shows it, and the others are marked
with the related place `validate` lists under it. A quota's count is army.quota_count's.
"""

from __future__ import annotations

from bisect import bisect_right
from dataclasses import dataclass, field
from pathlib import Path

from warband.diagnostics import Diagnostic, shown_text
from warband.lang.summary import quota_text
from warband.lang.unparse import army_rule_text
from warband.lists import army, roster, yamlfast
from warband.lists.validate import FileResult, Validation
from warband.lists.warband_file import FIGHTERS
from warband.lists.yamlload import load_yaml, position_of


@dataclass
class Problem:
    severity: str        # error | warning
    code: str
    message: str
    hint: str | None
    related: list[str] = field(default_factory=list)   # the related places in other files


@dataclass
class Limit:
    """A total against a limit: `ok` is None where nothing is judged (no limit, or the list
    cannot be counted yet)."""
    kind: str            # points | cost | fighters | quota | rule
    label: str
    used: str
    limit: str
    ok: bool | None
    value: float | None = None    # for a gauge: the share of the limit used
    doc: str | None = None


@dataclass
class EntryStanding:
    index: int
    card: dict | None                 # its roster card (cost, stats worked out), if it has one
    problems: list[Problem] = field(default_factory=list)
    also: list[str] = field(default_factory=list)   # problems of the list that count it too

    @property
    def cost(self) -> str | None:
        return self.card.get("points_text") if self.card else None

    @property
    def valid(self) -> bool:
        return not any(p.severity == "error" for p in self.problems)


@dataclass
class Standing:
    result: FileResult
    model: dict | None               # the roster model (lists/roster.py), for the cards
    entries: list[EntryStanding]
    limits: list[Limit]
    problems: list[Problem]          # those of the list, not of an entry
    unusable: bool
    valid: bool
    status: str


def problem(d: Diagnostic, file: str) -> Problem:
    return Problem(d.severity.value, d.code, shown_text(d.message),
                   shown_text(d.hint) if d.hint else None,
                   [f"{r.span}: {shown_text(r.message)}" for r in d.related
                    if r.span.file != file])


def judge(text: str, name: str, base: Path) -> Standing:
    """The standing of a list whose text is `text`, read as the file `name` in the folder
    `base` (where a relative `ruleset:` path starts)."""
    validation = Validation()
    result = validation.text(text, name, base)
    count, starts = _entry_lines(text, name)
    entries = [EntryStanding(i, None) for i in range(count)]
    model = None
    if not result.unusable and result.warband is not None and result.ruleset is not None:
        model = roster.build(result, validation.sources)
        cards = [c for c in model["fighters"] if not c.get("broken")]
        for f, card in zip(result.warband.fighters, cards):   # (the cards follow the fighters)
            if f.index < count:
                entries[f.index].card = card
    problems = []
    for d in result.diagnostics:
        at = d.path[1] if len(d.path) >= 2 and d.path[0] == FIGHTERS and \
            isinstance(d.path[1], int) and d.path[1] < count else None
        if at is None:
            problems.append(problem(d, name))
            continue
        entries[at].problems.append(problem(d, name))
        for r in d.related:   # the other entries a problem of the list counts
            if r.span.file == name and starts:
                other = bisect_right(starts, r.span.line) - 1
                if 0 <= other < count and other != at:
                    entries[other].also.append(f"{shown_text(r.message)}: "
                                               f"{shown_text(d.message)}")
    errors = len(result.errors)
    warnings = len(result.warnings)
    status = "cannot be read" if result.unusable else \
        f"{errors} problem{'s' if errors != 1 else ''}" if errors else \
        f"valid, {warnings} warning{'s' if warnings != 1 else ''}" if warnings else "valid"
    return Standing(result, model, entries, limits(result, model, count), problems,
                    result.unusable,
                    not result.failed(), status)


def _entry_lines(text: str, name: str) -> tuple[int, list[int]]:
    """How many entries the list has, and the line each starts on (for the related places of
    a problem of the list; [] where they cannot be told apart)."""
    raw = text.encode("utf-8")
    loaded = yamlfast.load(raw, name) or load_yaml(raw, name)
    found = loaded.data.get(FIGHTERS) if loaded.data is not None else None
    if not isinstance(found, list):
        return 0, []
    lines = []
    for i in range(len(found)):
        span = position_of(loaded.data, (FIGHTERS, i), name)
        lines.append(span.line if span is not None else 0)
    return len(found), lines if lines == sorted(set(lines)) else []


# ---- the totals ---------------------------------------------------------------------------------

def _share(used, limit) -> float | None:
    try:
        return max(0.0, float(used) / float(limit)) if float(limit) > 0 else None
    except (TypeError, ValueError):
        return None


def limits(result: FileResult, model: dict | None, count: int) -> list[Limit]:
    ruleset = result.ruleset
    if ruleset is None or model is None or result.warband is None:
        return []
    out = []
    for total in model["totals"]:
        kind = {"points": "points", "fighters": "fighters"}.get(total["name"], "cost")
        out.append(Limit(kind, total["name"], total["used"],
                         (f"{total['bound']} {total['limit']}"
                          if total["bound"] not in (None, "at most") else total["limit"] or ""),
                         total["ok"], _share(total["used"], total["limit"])
                         if total["bound"] == "at most" else None))
    warband = result.warband
    complete = len(warband.fighters) == count
    world = army.world_of(warband, ruleset)
    points = warband.points if warband.points is not None else (
        ruleset.army.points if ruleset.army is not None else None)
    quotas = army.quotas_of(ruleset)
    docs = [q.doc for q in quotas]
    for quota in quotas:
        standing = army.quota_count(quota, warband, world, points)
        label = quota.doc or quota_text(quota)
        if docs.count(quota.doc) > 1:   # `quota each class ...`: one row a class
            label += f" ({quota.target})"
        if standing is None:
            out.append(Limit("quota", label, "", quota_text(quota), None))
            continue
        wanted = roster.number_text(quota.limit if standing.share else standing.wanted)
        used = f"{standing.n} of {standing.total}" if standing.share else str(standing.n)
        judged = complete or (quota.bound == "at most" and not standing.share)
        out.append(Limit("quota", label, used, f"{quota.bound} {wanted}",
                         standing.holds if judged else None, doc=quota_text(quota)))
    broken = {r.span for d in result.diagnostics if d.code in ("E706", "E707")
              for r in d.related}
    for rule in ruleset.army.rules if ruleset.army is not None else ():
        label = rule.doc or army_rule_text(rule)
        ok = False if rule.span in broken else (True if complete else None)
        out.append(Limit("rule", label, "", "", ok, doc=army_rule_text(rule)))
    return out


__all__ = ["EntryStanding", "Limit", "Problem", "Standing", "judge"]
