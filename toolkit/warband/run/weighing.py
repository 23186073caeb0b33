"""How a greedy decision of an exact run that merges weighs its options: by expected score,
with the options a later decision of the other side shows to be no better left unfinished
(alpha-beta pruning, exact).

A greedy decision takes the option with the best expected score for the side deciding, the
first such option in the rules' order when several tie (run/decisions.py). When the other side
decides later in an option's future (a target picks its hand after the attacker picked one), the
option's worth is the other side's best answer, the worst for this side. Once the answers
weighed so far give this side no more than the best option found so far, the option cannot be
taken, whatever the other answers give: the rest of its answers need not be weighed. That is
the whole saving; every fraction stays what weighing everything gives:

- the cut-off decision hands back the worth of its best answer so far, which is at least what
  its answer would be worth to it: an upper bound of the option's worth to the side above. Its
  future's paths only add worths up with their probabilities (mixtures) or take the best of
  several (decisions), so the option's worth worked out from it is an upper bound too. When
  that bound still says the option might be taken (a roll between the two decisions, say), the
  option is weighed again, with nothing cut;
- a worth worked out from a cut is no situation's worth: the memo of situations
  (Statements._merged) keeps none of them (`cuts` counts the cuts not yet settled);
- the order the options are weighed in changes nothing but the work: the best option is the
  one with the highest worth, the first in the rules' order among equals. The answer that was
  best (or cut an option off) the last time the same decision was weighed is weighed first,
  as it often cuts the next one off too (the "killer" answer of game-tree search).

A cutoff is (the best worth so far for the side above, whether an equal worth would still be
taken (the option comes before the best one in the rules' order), the side above's sign).
"""

from __future__ import annotations

from fractions import Fraction

EVERYTHING = float("inf")   # a cutoff every worth is below: a decision cut at its first answer


def weigh(interp, key, legal: list, run, world, sign: int):
    """(the index in legal of the best option for the side deciding, its expected score for that
    side, whether the weighing was cut off: then that score is only an upper bound for the side
    above, and the index means nothing). interp.valuing must be set."""
    if not interp.prune:   # (the tests' twin: every option weighed whole, in the rules' order)
        return _weigh_all(interp, legal, run, world, sign)
    parent = interp.cutoff
    usable = parent is not None and parent[2] == -sign
    start = interp.cuts
    order = _order(interp.killers.get(key), legal)
    # (an option's worth known so far: i -> (the worth, or an upper bound; whether exact))
    known: dict[int, tuple] = {}
    best, best_value = -1, Fraction(0)
    cut = False
    try:
        known[order[0]] = _probe(interp, run, legal[order[0]], world, sign)
        if not known[order[0]][1]:   # the other side answers later: each option with one
            for i in order[1:]:       # answer first, then the most promising first
                known[i] = _probe(interp, run, legal[i], world, sign)
            order.sort(key=lambda i: (-known[i][0], i))
        for i in order:
            earlier = i < best
            value, exact = known.get(i, (None, False))
            if best >= 0 and value is not None and (
                    value < best_value or (value == best_value and not earlier)):
                continue   # (it cannot be taken)
            if not exact:
                interp.cutoff = None if best < 0 else (best_value, earlier, sign)
                cuts = interp.cuts
                value = run(legal[i], world) * sign
                if interp.cuts != cuts:   # an upper bound: a later decision was cut off
                    interp.cuts = cuts
                    if value < best_value or (value == best_value and not earlier):
                        continue   # (it cannot be taken)
                    interp.cutoff = None   # (it might: weighed again, with nothing cut)
                    value = run(legal[i], world) * sign
            if best < 0 or value > best_value or (value == best_value and earlier):
                best, best_value = i, value
            if usable:   # (the worth to the side above: the opposite sign)
                above = -best_value
                if above < parent[0] or (above == parent[0] and not parent[1]):
                    cut = True
                    break
    finally:
        interp.cutoff = parent
    interp.killers[key] = legal[best]
    interp.cuts = start + 1 if cut else start
    return best, best_value, cut


def _weigh_all(interp, legal: list, run, world, sign: int):
    parent, interp.cutoff = interp.cutoff, None
    best, best_value = -1, Fraction(0)
    try:
        for i, option in enumerate(legal):
            value = run(option, world) * sign
            if best < 0 or value > best_value:
                best, best_value = i, value
    finally:
        interp.cutoff = parent
    return best, best_value, False


def _order(first, legal: list) -> list[int]:
    """The options' indexes, the one that was best the last time first."""
    order = list(range(len(legal)))
    if first is not None:
        try:
            front = legal.index(first)
        except ValueError:
            front = 0
        if front:
            order.remove(front)
            order.insert(0, front)
    return order


def _probe(interp, run, option, world, sign: int) -> tuple:
    """(an option's worth, or an upper bound of it; whether exact): weighed with the first
    answer alone of a later decision of the other side (a cutoff no worth reaches)."""
    interp.cutoff = (EVERYTHING, False, sign)
    cuts = interp.cuts
    value = run(option, world) * sign
    exact = interp.cuts == cuts
    interp.cuts = cuts
    return value, exact


__all__ = ["weigh"]
