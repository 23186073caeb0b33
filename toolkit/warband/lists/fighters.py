"""Fighters named from warband files: `FILE.yaml#NAME`, as `warband odds --attacker` takes them.

The file is validated whole (a fighter of an invalid list is no fighter to compute odds for),
and must be a warband of the ruleset the odds are asked of.
"""

from __future__ import annotations

import re

from warband.diagnostics import Diagnostic, Span, diag, did_you_mean
from warband.lang.ruleset import Ruleset
from warband.lists.validate import Validation
from warband.run.odds import ParsedFighter

_FILE_REF = re.compile(r"^(?P<file>[^=#]+?\.ya?ml)#(?P<name>.*)$", re.IGNORECASE)


def is_fighter_ref(text: str) -> bool:
    """Whether a command-line fighter is written FILE#NAME rather than key=value pairs."""
    return _FILE_REF.match(text.strip()) is not None


def find_fighter(text: str, origin: str, ruleset: Ruleset, side: int,
                 diagnostics: list[Diagnostic],
                 validation: Validation | None = None) -> ParsedFighter | None:
    """The fighter that FILE#NAME names, checked with its whole file.

    Problems go to `diagnostics` (those of the file itself, or a name it does not have) and the
    result is then None. The file must use the same ruleset as the command. `validation` keeps
    the texts that the diagnostics point into."""
    m = _FILE_REF.match(text.strip())
    if m is None:
        raise ValueError(f"not FILE#NAME: {text!r} (ask is_fighter_ref first)")
    file, name = m.group("file"), m.group("name").strip()
    whole = Span(origin, 1, 1, 1, len(text) + 1)
    result = (validation or Validation()).file(file)
    if result.unusable or result.errors:
        diagnostics += result.diagnostics
        diagnostics.append(diag("E901", f"{file} is not a valid warband file", whole,
                                hint=f"run: warband validate {file}"))
        return None
    if result.ruleset is not None and result.ruleset.id != ruleset.id:
        diagnostics.append(diag("E901", f"{file} is a warband for '{result.ruleset.id}', not "
                                        f"'{ruleset.id}'", whole,
                                hint=f"run: warband odds {result.ruleset.id} ..."))
        return None
    fighter = result.warband.fighter(name) if result.warband else None
    if fighter is None:
        names = [f.name for f in result.warband.fighters] if result.warband else []
        at = Span(origin, 1, len(text) - len(name) + 1, 1, len(text) + 1)
        diagnostics.append(diag(
            "E901", f"{file} has no fighter named '{name}'", at,
            hint=did_you_mean(name, names) or f"its fighters: {', '.join(names) or 'none'}"))
        return None
    return ParsedFighter(fighter.spec(side))
