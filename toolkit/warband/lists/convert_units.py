"""`warband convert` and units of several models: what becomes of an entry's `models:` and
`special:` when its class changes (docs/commands.md, "convert").

A unit converted to a unit keeps its models (the source class's default when its entry gave
none), kept inside the target class's bounds (W803 when they had to move). A unit converted to
a class that is no unit is one fighter: its models are dropped (W801). Special models (one
model with a different weapon) keep their pieces where the target class offers the same pieces
to single models and the counts fit; the others are dropped (W801)."""

from __future__ import annotations

from warband.lang.units import special_problems


def converted_models(source_cls, target_cls, models: int | None,
                     special: dict | None) -> tuple[int | None, dict | None, list[str]]:
    """(the target entry's models or None, its special models or None, what was dropped or
    moved, as messages) for an entry of `source_cls` with `models` and `special`."""
    src = source_cls.unit if source_cls is not None else None
    dst = target_cls.unit if target_cls is not None else None
    if src is None or src.span is None:
        return None, None, []   # no unit: nothing to carry over
    count = models if models is not None else src.default
    notes: list[str] = []
    if dst is None or dst.span is None:
        if count > 1:
            notes.append(f"a unit of {count} models becomes one fighter: 'models' is dropped")
        if special:
            notes.append(f"special models ({_words(special)}) are dropped: the class is no unit")
        return None, None, notes
    kept = min(max(count, dst.low), dst.high)
    if kept != count:
        notes.append(f"{count} models kept inside {dst.shown}: {kept}")
    if not special:
        return kept, None, notes
    if special_problems(dst, kept, special):
        notes.append(f"special models ({_words(special)}) are dropped: class "
                     f"{target_cls.name} does not offer them so")
        return kept, None, notes
    return kept, dict(special), notes


def _words(special: dict) -> str:
    return ", ".join(f"{n} with {piece}" for piece, n in special.items())
