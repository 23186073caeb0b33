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


def weigh(interp, key, legal: list, run, world, sign: int):
    """(the index in legal of the best option for the side deciding, its expected score for that
    side, whether the weighing was cut off: then that score is only an upper bound for the side
    above, and the index means nothing). interp.valuing must be set."""
    parent = interp.cutoff
    usable = parent is not None and parent[2] == -sign
    start = interp.cuts
    order = list(range(len(legal)))
    killers = interp.killers
    first = killers.get(key)
    if first is not None:
        try:
            front = legal.index(first)
        except ValueError:
            front = 0
        if front:
            order.remove(front)
            order.insert(0, front)
    best, best_value = -1, Fraction(0)
    cut = False
    try:
        for i in order:
            earlier = i < best
            interp.cutoff = None if best < 0 else (best_value, earlier, sign)
            cuts = interp.cuts
            value = run(legal[i], world) * sign
            if interp.cuts != cuts and best >= 0:   # an upper bound: a later decision was cut
                interp.cuts = cuts                     # off
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
    killers[key] = legal[best]
    interp.cuts = start + 1 if cut else start
    return best, best_value, cut


__all__ = ["weigh"]
