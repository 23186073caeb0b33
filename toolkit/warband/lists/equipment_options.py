"""What a warband entry may carry, as its class's options say (`may take A, B`, `may take one of
A, B`, `may take up to N of A, B`, `may swap X for A, B`): a piece no option offers is E632, more
pieces than an option allows (or a swapped piece kept beside its replacement) E633. A class
without options may carry any equipment, as classes could before options were a concept. The
judgement is lang/classes.py's (odds and scenarios use it too); this module places it."""

from __future__ import annotations

from typing import TYPE_CHECKING

from warband.diagnostics import Diagnostic, Related, diag
from warband.lang.classes import gear_problems
from warband.lists.warband_file import FIGHTERS, span_at

if TYPE_CHECKING:
    from warband.lang.ruleset import Ruleset


def check_equipment(data, file: str, text: str | None, ruleset: Ruleset) -> list[Diagnostic]:
    """E632 and E633 for every entry whose class has equipment options: every entry of a known
    class with a list of names, whatever else is wrong with it (all findings in one run)."""
    entries = data.get(FIGHTERS)
    if not isinstance(entries, list) or not any(c.options for c in ruleset.classes.values()):
        return []
    out: list[Diagnostic] = []
    for i, entry in enumerate(entries):
        if not isinstance(entry, dict) or not isinstance(entry.get("class"), str):
            continue
        cls = ruleset.classes.get(entry["class"])
        listed = entry.get("equipment")
        if cls is None or not isinstance(listed, list) or \
                not all(isinstance(p, str) for p in listed):
            continue   # no class to judge by, or a list the schema stage reports
        name = entry.get("name")
        who = name if isinstance(name, str) and name else f"fighter {i + 1}"
        for problem in gear_problems(cls, who, tuple(listed)):
            path = (FIGHTERS, i, "equipment", problem.index)
            out.append(diag(problem.code, problem.message, span_at(data, path, file, text),
                            path=path, hint=problem.hint,
                            related=[Related(problem.rule, problem.rule_words)]))
    return out


__all__ = ["check_equipment"]
