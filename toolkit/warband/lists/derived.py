"""Stats the rules work out (`stat Level(f): 1..20 as ... [if ...]`), as warband files meet them:
an entry may not give one where the rules work it out (E630), a fighter it is not worked out for
needs a value as for any stat (E628), and a worked-out value must lie in the stat's range (E623).
"""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING

from warband.diagnostics import Diagnostic, diag
from warband.lang.unparse import expr_text
from warband.lists.warband_file import span_at

if TYPE_CHECKING:
    from warband.lang.ruleset import Ruleset, Stat
    from warband.lists.warband_file import Fighter, Warband


def check_derived(warband: Warband, ruleset: Ruleset, data, file: str,
                  text: str | None) -> list[Diagnostic]:
    """The stats the rules work out, fighter by fighter: E630 at each one a warband entry gives
    (for a stat derived for some fighters only, `stat Level(f): ... if f is human`, where it is
    derived for that fighter), and E623 at an entry whose worked-out value is outside the stat's
    range (a range of levels its XP has outgrown)."""
    derived = [s for s in ruleset.stats.values() if s.derived is not None]
    if not derived or not warband.fighters:
        return []
    # lazily: the interpreter (and the code generator under it) only for derived stats
    from warband.run.interpreter import Interpreter, RulesError
    from warband.run.world import Ref, make_world
    interpreter = Interpreter(ruleset)
    world = make_world(ruleset, [f.spec() for f in warband.fighters])
    out = []
    for i, fighter in enumerate(warband.fighters):
        for stat in derived:
            ref = Ref("fighter", i)
            try:
                if not interpreter.works_out(stat.name, ref, world):
                    if _lacks(stat, fighter, ruleset):
                        out.append(diag(
                            "E628", f"fighter '{fighter.name}' has no {stat.key}",
                            span_at(data, fighter.path, file, text, line=True),
                            path=fighter.path,
                            hint=f"add '{stat.key}: ...'; the rules work {stat.name} out only "
                                 f"if {expr_text(stat.when)}" if stat.when is not None else
                            None))
                    continue
                value = interpreter.derived_stat(ref, stat.name, world)
            except RulesError:   # the rule fails for this fighter: play will report it
                continue
            if stat.name in fighter.stats:
                path = fighter.path + (stat.key,)
                message, hint = derived_words(stat, f"'{fighter.name}'")
                out.append(diag("E630", message, span_at(data, path, file, text, key=True),
                                hint=hint, path=path))
            elif stat.low is not None and stat.high is not None and \
                    isinstance(value, (int, Fraction)) and not isinstance(value, bool) and \
                    not stat.low <= value <= stat.high:
                out.append(diag(
                    "E623", f"fighter '{fighter.name}': {stat.name} works out as {value}, "
                            f"outside {stat.low}..{stat.high}",
                    span_at(data, fighter.path, file, text, line=True), path=fighter.path,
                    hint=f"the rules work {stat.name} out as {expr_text(stat.derived)}; "
                         "change what it follows from, or widen its range in the rules"))
    return out


def _lacks(stat: Stat, fighter: Fighter, ruleset: Ruleset) -> bool:
    """Whether a fighter has no value for a stat: not given, no default, not its class's."""
    cls = ruleset.classes.get(fighter.fighter_class) if fighter.fighter_class else None
    return stat.default is None and stat.name not in fighter.stats and not (
        cls is not None and stat.name in cls.given)


def derived_words(stat: Stat, who: str) -> tuple[str, str]:
    """The message and hint of E630: a fighter gives a stat the rules work out for it."""
    assert stat.derived is not None   # asked only of a derived stat
    return (f"fighter {who} gives {stat.key}, which the rules work out for it",
            f"remove '{stat.key}: ...': the rules work {stat.name} out as "
            f"{expr_text(stat.derived)}"
            + (f" if {expr_text(stat.when)}" if stat.when is not None else ""))


__all__ = ["check_derived", "derived_words"]
