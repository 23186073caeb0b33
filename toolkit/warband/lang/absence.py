"""`nobody`: the value of a side or a fighter that is not there (a piece nobody holds or
carries).

It is a word, not a keyword: a rules file that declares something named `nobody` (an enum
value, an outcome, a marker, a side) keeps it, and then `nobody` means that. Where it is not
declared, `nobody` is allowed in two places only, so that no rule can read a field of it:
`set p.holder = nobody` (the piece is let go), and `==`/`!=` against a side or a fighter
(`p.holder == nobody`, `p.carrier != nobody`). Anywhere else it is E302.
"""

from __future__ import annotations

NOBODY = "nobody"


def declared(ruleset, name: str) -> bool:
    """Whether the ruleset (or its scenario) gives the name a meaning of its own."""
    if name in ruleset.origins or name in ruleset.markers or name in ruleset.classes or \
            name in ruleset.tiers or name in ruleset.equipment:
        return True
    for members in ruleset.enums.values():
        if any(m == name for m, _ in members):
            return True
    for outcome in ruleset.outcomes.values():
        if any(m == name for m, _ in outcome.scores):
            return True
    scenario = ruleset.scenario
    if scenario is not None:
        if any(s.name.name == name for s in scenario.sides) or \
                any(z.name.name == name for z in scenario.zones):
            return True
    return False


def means_nobody(ruleset, name: str) -> bool:
    """Whether a bare name read while the rules run is `nobody`, the absent side or fighter."""
    return name == NOBODY and not declared(ruleset, name)


__all__ = ["NOBODY", "declared", "means_nobody"]
