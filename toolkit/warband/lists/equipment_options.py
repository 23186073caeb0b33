"""What a warband entry may carry, as its class's options say (`may take A, B`, `may take one of
A, B`, `may take up to N of A, B`, `may swap X for A, B`): a piece no option offers is E632, more
pieces than an option allows (or a swapped piece kept beside its replacement) E633. A class
without options may carry any equipment, as classes could before options were a concept."""

from __future__ import annotations

from typing import TYPE_CHECKING

from warband.diagnostics import Diagnostic, Related, diag
from warband.lists.warband_file import span_at

if TYPE_CHECKING:
    from warband.lang.ruleset import EquipmentOption, FighterClass, Ruleset
    from warband.lists.warband_file import Fighter, Warband


def check_equipment(warband: Warband, ruleset: Ruleset, data, file: str,
                    text: str | None) -> list[Diagnostic]:
    """E632 and E633 for every entry whose class has equipment options."""
    out: list[Diagnostic] = []
    for fighter in warband.fighters:
        cls = ruleset.classes.get(fighter.fighter_class) if fighter.fighter_class else None
        if cls is not None and cls.options:
            out += _entry(fighter, cls, data, file, text)
    return out


def _entry(fighter: Fighter, cls: FighterClass, data, file: str,
           text: str | None) -> list[Diagnostic]:
    out = []
    offered = {item: o for o in cls.options for item in o.items}
    taken: dict[int, list[tuple[int, str]]] = {}     # option (by position) -> (index, piece)
    listed: set[str] = set()
    for i, piece in enumerate(fighter.equipment):
        path = fighter.path + ("equipment", i)
        where = span_at(data, path, file, text)
        option = offered.get(piece)
        if option is not None:
            taken.setdefault(cls.options.index(option), []).append((i, piece))
        elif piece in cls.equipment and piece in listed:
            out.append(diag("E633", f"'{fighter.name}' lists {piece} twice; class {cls.name} "
                                    f"carries one", where, path=path,
                            related=[Related(cls.span, f"class {cls.name}")],
                            hint=f"remove the second {piece}"))
        elif piece not in cls.equipment:
            out.append(diag("E632", f"class {cls.name} may not take {piece}", where, path=path,
                            related=[Related(cls.span, f"class {cls.name}")],
                            hint=_choices(cls)))
        elif any(o.kind == "swap" and o.replaces == piece and
                 any(p in fighter.equipment for p in o.items) for o in cls.options):
            swap = next(o for o in cls.options if o.kind == "swap" and o.replaces == piece)
            given = next(p for p in fighter.equipment if p in swap.items)
            out.append(diag("E633", f"'{fighter.name}' swaps {piece} for {given}, so it cannot "
                                    f"keep {piece}", where, path=path,
                            related=[Related(swap.span, swap.doc or swap.words())],
                            hint=f"remove {piece}: the class's {piece} is given up for {given}"))
        listed.add(piece)
    for position, pieces in taken.items():
        out += _over(fighter, cls, cls.options[position], pieces, data, file, text)
    return out


def _over(fighter: Fighter, cls: FighterClass, option: EquipmentOption,
          pieces: list[tuple[int, str]], data, file: str, text: str | None) -> list[Diagnostic]:
    """E633 at each piece past what one option allows: a piece of `may take` twice, more than
    N of `up to N of`, more than one replacement of a swap."""
    out = []
    rule = [Related(option.span, option.doc or option.words())]
    seen: set[str] = set()
    for n, (i, piece) in enumerate(pieces):
        path = fighter.path + ("equipment", i)
        if option.kind == "take" and piece in seen:
            message = (f"'{fighter.name}' takes {piece} twice, but class {cls.name} "
                       f"{option.words()} (each once)")
            hint = f"remove the second {piece}"
        elif option.kind != "take" and n >= option.limit:
            chosen = ", ".join(p for _, p in pieces)
            allowed = "one" if option.limit == 1 else f"up to {option.limit}"
            message = f"'{fighter.name}' takes {chosen}, but class {cls.name} {option.words()}"
            hint = f"keep {allowed} of {', '.join(option.items)}"
        else:
            seen.add(piece)
            continue
        out.append(diag("E633", message, span_at(data, path, file, text), path=path,
                        related=rule, hint=hint))
    return out


def _choices(cls: FighterClass) -> str:
    """What the class may carry, as its options say."""
    options = "; ".join(o.words() for o in cls.options)
    own = f"it carries {', '.join(cls.equipment)}; " if cls.equipment else ""
    return f"class {cls.name}: {own}{options}"


__all__ = ["check_equipment"]
