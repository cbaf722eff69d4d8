"""The ``hard`` level: the rule bot (:mod:`.rule`) with a wider choice of follows.

The rules core offers the rule bot a few follows only (the lowest and the highest way to meet the lead), so it
often wins a trick with its best card where a smaller one would do, or cannot take a single cheaply with a
middling trump.  This bot weighs, with the rule bot's own scoring, every distinct card of a single's suit (or,
void in it, every distinct trump and the lowest card of every other suit), and every pair of a pair's suit (or,
void, every trump pair).  Everything else is the rule bot's.
"""

from __future__ import annotations

from ..cards import TRUMP
from ..follow import follow_error
from .rule import RuleBot
from .view import View


class HardBot(RuleBot):
    """The rule bot weighing more follows (see the module doc).  Deterministic for a seed."""

    name = "hard"

    def _follow_candidates(self, v: View) -> list[list[int]]:
        cands = super()._follow_candidates(v)
        o, lead, hand = v.o, v.lead, v.hand
        assert o is not None and lead is not None
        extra: list[list[int]] = []
        e = lead.esuit
        held = [f for f in o.faces[e] if hand[f]]
        if lead.n == 1:
            if held:
                extra = [[f] for f in held]
            else:
                extra = [[f] for f in o.faces[TRUMP] if hand[f]]
                for s in range(4):
                    fs = [f for f in o.faces[s] if hand[f] and s != e]
                    if fs:
                        extra.append([fs[0]])
        elif lead.combo is not None and lead.combo.fmt == (2, 1):
            pool = held if sum(hand[f] for f in held) >= 2 else ([] if e == TRUMP or held else
                                                                   [f for f in o.faces[TRUMP] if hand[f]])
            extra = [[f, f] for f in pool if hand[f] >= 2]
        seen = {tuple(sorted(c)) for c in cands}
        for c in extra:
            key = tuple(sorted(c))
            if key in seen or follow_error(hand, lead, c, o) is not None:
                continue
            seen.add(key)
            cands.append(c)
        return cands
