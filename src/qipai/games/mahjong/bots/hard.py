"""The ``hard`` level: the efficiency bot that reads a ready seat's dangerous tiles and values a 夹 wait double.

The efficiency bot's defence only knows which tiles have already passed a ready seat (safe, since every win is
declared at once: ``auto_hu``); every other tile is equally dangerous to it, so right after a 听 it lets go of
whatever its tile efficiency says, and feeding while not ready costs all three shares (包三家).  This bot
counts, for each tile, the ways a ready seat could be waiting on it, by the tiles it has not seen (:func:`risk`):

* a pair or pair-and-triplet wait needs the ready seat to hold the tile (its unseen copies);
* a 夹 needs the tile's two neighbours (the product of their unseen copies);
* an edge or two-sided wait needs the two tiles on one side — unless the wait's other end has passed the seat
  since its 听 (it would have won on it), the reading of suji that the automatic win makes sound.

It uses that reading twice:

* **Defence** (the efficiency bot's rule for when to defend: another seat ready and this one two or more from
  ready, or one with fewer than 20 tiles in the wall): the tile with the fewest ways to feed, summed over the
  ready seats, instead of the first tile that has passed them all.
* **Pushing** (one from ready, or ready but not yet able to declare, while another seat is ready): each discard's
  efficiency (the unseen tiles it leaves useful, or its waits) less ``push_risk`` × its ways to feed, so a
  slightly less efficient discard that cannot feed a ready seat beats an efficient one that can.

And it values waits by what they win: the ready-making discard (听) and, once ready, the waits kept count a 夹
wait's unseen copies twice (a 夹 doubles every share).  It looks at six candidate discards (the efficiency bot
three).  Claims and wins are the efficiency bot's.  It sees only its seat's observation; a decision takes about a
millisecond.

>>> from ..state import MahjongGame
>>> from ..rules import DAQING
>>> g = MahjongGame.new(DAQING, seed=11, dealer=0)
>>> bot = HardBot(0)
>>> bot.act(g.observe(0, hints=False), g.legal_actions(0)) in g.legal_actions(0)
True
"""

from __future__ import annotations

from collections.abc import Sequence

from ..hand import MeldSig, is_jia, natural_win, wait_kinds
from ..rules import Rules
from ..tiles import Z
from .efficiency import EfficiencyBot


def wait_value(counts: Sequence[int], sig: MeldSig, rules: Rules, unseen: Sequence[int]) -> float:
    """The waits of the ready hand ``counts`` (13 − 3·melds tiles): their unseen copies, a 夹 wait's twice.

    >>> from ..hand import meld_sig
    >>> from ..melds import parse_melds
    >>> from ..rules import DAQING
    >>> from ..tiles import parse_tiles, to_counts
    >>> sig = meld_sig(parse_melds("chi 567s"))
    >>> wait_value(to_counts(parse_tiles("234m 678p 24m ZZ")), sig, DAQING, [4] * 28)   # 3m, 夹
    8.0
    """
    v = 0.0
    for w in wait_kinds(counts, sig, rules):
        if not unseen[w]:
            continue
        r = natural_win(counts, w, sig, rules)
        v += unseen[w] * (2.0 if r is not None and is_jia(r.place, rules) else 1.0)
    return v


def risk(x: int, unseen: Sequence[int], passed: set[int]) -> float:
    """How many ways (by the unseen tiles) a ready seat that has let ``passed`` go by since its 听 could be
    waiting on ``x`` (see the module text); 0 for a kind that has passed.

    >>> from ..tiles import parse_tile as t
    >>> u = [2] * 28
    >>> risk(t("5m"), u, set()) > risk(t("5m"), u, {t("2m"), t("8m")}) > 0 == risk(t("5m"), u, {t("5m")})
    True
    >>> risk(t("Z"), u, set()), risk(t("Z"), [0] * 28, set())
    (2.0, 0.0)
    """
    if x in passed:
        return 0.0
    v = float(unseen[x])
    if x == Z:
        return v
    r = x % 9
    if 1 <= r <= 7:
        v += unseen[x - 1] * unseen[x + 1]
    if r <= 6 and (r + 3 > 8 or x + 3 not in passed):
        v += unseen[x + 1] * unseen[x + 2]
    if r >= 2 and (r - 3 < 0 or x - 3 not in passed):
        v += unseen[x - 1] * unseen[x - 2]
    return v


class HardBot(EfficiencyBot):
    """See the module text.  ``push_risk``: what one way to feed a ready seat costs, in useful tiles, when
    pushing; ``width``: how many candidate discards are weighed; ``reads=False`` reads no danger (defends and
    pushes as the efficiency bot); ``jia=False`` counts every wait once.  The discard itself is the efficiency
    bot's (:meth:`EfficiencyBot._discard`) with these hooks and numbers."""

    name = "hard"

    def __init__(self, seed: int = 0, *, push_risk: float = 0.5, width: int = 6, reads: bool = True,
                 jia: bool = True, defend_at: int = 2, defend_wall: int = 20) -> None:
        super().__init__(seed)
        self.push_risk = push_risk
        self.width = width
        self.reads = reads
        self.jia = jia
        self.defend_at = defend_at
        self.defend_wall = defend_wall

    def _waits(self, counts: list[int], sig: MeldSig, rules: Rules, unseen: list[int]) -> float:
        if self.jia:
            return wait_value(counts, sig, rules, unseen)
        return super()._waits(counts, sig, rules, unseen)

    def _ways(self, x: int, unseen: list[int], passed: dict[int, set[int]]) -> float:
        if not self.reads:
            return 0.0
        return sum(risk(x, unseen, ks) for ks in passed.values())


__all__ = ["HardBot", "risk", "wait_value"]
