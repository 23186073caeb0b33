"""House rules in a conversion: what a ruleset that `extends` the conversion's source adds or
changes over it, which the conversion was not written for (`warband convert` reports it, W805).
"""

from __future__ import annotations

from warband.lang.ruleset import Ruleset


def house_names(ruleset: Ruleset, base_id: str) -> dict[tuple[str, str], str]:
    """What the house rules over `base_id` declare or change: (pool, name) -> 'added' or
    'changed', pool being classes, stats, traits, equipment, army or rules (anything else)."""
    ids = [layer for layer, _ in ruleset.layers]
    if base_id not in ids or base_id == ruleset.id:
        return {}
    files = {file for _, file in ruleset.layers[ids.index(base_id) + 1:]}
    out: dict[tuple[str, str], str] = {}
    for name, origin in ruleset.origins.items():
        if origin.file not in files:
            continue
        pool = "army" if name == "army" or name.startswith("army.") else next(
            (p for p in ("classes", "stats", "traits", "equipment") if name in getattr(ruleset, p)),
            "rules")
        out[(pool, name)] = "changed" if origin.overrides is not None else "added"
    return out


def house_summary(ruleset: Ruleset, base_id: str) -> str | None:
    """The house rules' additions in a line, for the warning and the file's comment."""
    house = house_names(ruleset, base_id)
    if not house:
        return None
    words = {"classes": "class", "stats": "stat", "traits": "trait", "equipment": "equipment",
             "rules": "definition"}
    parts = []
    for pool in ("classes", "stats", "traits", "equipment", "rules"):
        names = [f"{n}{' (changed)' if how == 'changed' else ''}"
                 for (p, n), how in house.items() if p == pool]
        if names:
            parts.append(f"{words[pool]} {', '.join(names)}")
    army = sorted(n.split(".", 1)[1] for (p, n) in house if p == "army" and "." in n)
    if any(p == "army" for p, _ in house):
        parts.append("army" + (f" ({', '.join(army)})" if army else ""))
    return "; ".join(parts)


__all__ = ["house_names", "house_summary"]
