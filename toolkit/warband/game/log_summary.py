"""What a game's log says that the engine only knows at a moment: why a fighter cannot act, and
the summary at the end (who is still standing, each side's score by its rule, who won and why).

Asked only while a game is recorded (the engine's hooks check `log.record` first), so a game
played without a log does none of this work.
"""

from __future__ import annotations

from fractions import Fraction

from warband.lang import nodes
from warband.lang.unparse import expr_text
from warband.run import roll_labels
from warband.run.evaluate import RulesError, names_in
from warband.run.world import Ref, World


def _conjuncts(expr) -> list:
    """`a and b and c` as [a, b, c]."""
    if type(expr) is nodes.Logic and expr.op == "and":
        return [part for item in expr.items for part in _conjuncts(item)]
    return [expr]


def cannot_act(interp, ref: Ref, names, world: World) -> dict[str, str]:
    """Why each action is out of the fighter's reach, in the rules' words: the first part of its
    `requires` the fighter fails on its own, else the parts about its targets, which no target
    meets."""
    why: dict[str, str] = {}
    procedures = interp.ruleset.procedures
    for name in names:
        decl = procedures.get(name)
        if decl is None or not decl.params:
            continue
        actor = decl.params[0].name.name
        if decl.requires is None:
            why[name] = "a target in play"
            continue
        env = {actor: ref}
        rest = []
        for part in _conjuncts(decl.requires):
            if names_in(part) <= {actor} and not roll_labels.rolls(part):
                try:
                    held = interp.fn(part)(env, world)
                except (RulesError, LookupError, TypeError, ValueError):
                    held = None   # (not for the log to stop the game)
                if held is False:
                    why[name] = expr_text(part)
                    break
            else:
                rest.append(part)
        else:
            why[name] = ("a target with " + " and ".join(expr_text(p) for p in rest)) \
                if rest else "a target in play"
    return why


def summary(scenario_decl, world: World, scores: dict, winner: str | None, reason: str) -> dict:
    """The end event's summary: why the winner won, each side's score by the scenario's rule
    for it, and the fighters of each side still in play."""
    survivors: dict[str, list[str]] = {s.name: [] for s in world.sides}
    for f in world.fighters:
        if not f.removed:
            survivors[world.sides[f.side].name].append(f.name)
    rules = []
    for side, expr, doc in scenario_decl.scores:
        value = scores.get(side.name, 0)
        rules.append({"side": side.name, "rule": doc or expr_text(expr),
                      "value": int(value) if isinstance(value, int) or
                      isinstance(value, Fraction) and value.denominator == 1 else float(value)})
    standing = [s.name for s in world.sides if not s.conceded]
    ranked = sorted(((scores.get(n, 0), n) for n in standing), reverse=True)
    if winner is None:
        best = [n for v, n in ranked if ranked and v == ranked[0][0]]
        why = "a draw: " + (" and ".join(best) + f" tie on {_shown(ranked[0][0])}"
                            if len(best) > 1 else "no side is left standing")
    elif reason == "conceded" and len(standing) == 1:
        why = f"{winner} wins: the other side conceded"
    else:
        others = ", ".join(f"{n} {_shown(v)}" for v, n in ranked if n != winner)
        why = f"{winner} wins on score: {_shown(scores.get(winner, 0))}" + \
            (f" against {others}" if others else "")
    return {"why": why, "score_rules": rules, "survivors": survivors}


def _shown(v) -> str:
    if isinstance(v, Fraction):
        return str(int(v)) if v.denominator == 1 else f"{float(v):g}"
    return f"{v:g}" if isinstance(v, float) else str(v)
