"""Fans, shares and payments (RULES-mahjong.md §7).

Each fan doubles.  Hand fans (自摸, 夹, 宝, 宝中宝) count for every loser; 庄, 门清 and 点炮 count per loser.
Loser ``i`` owes ``share_i = base × 2^e_i`` with ``e_i`` = hand fans + his own per-loser fans.  On a 自摸 every
loser pays his own share; on a discard by a feeder who was not ready the feeder pays all three shares (包三家);
on a discard by a ready feeder there is no 点炮 fan and no 包三家 (option ``ready_feeder_pays``).

Settlement S1 (seat 1 wins by 自摸, dealer 0) and S2 (seat 1 wins on seat 2's discard, seat 2 not ready):

>>> settle(1, 0, ["self_drawn"], self_drawn=True).scores
[-4, 8, -2, -2]
>>> s = settle(1, 0, [], self_drawn=False, feeder=2)
>>> s.scores, [(p.payer, p.payee, p.amount, p.on_behalf_of) for p in s.payments]
([0, 5, -5, 0], [(2, 1, 2, 0), (2, 1, 2, 2), (2, 1, 1, 3)])
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

FAN_ZH = {
    "dealer": "庄",
    "closed": "门清",
    "self_drawn": "自摸",
    "jia": "夹",
    "bao": "宝",
    "bao_zhong_bao": "宝中宝",
    "dian_pao": "点炮",
}
"""Every fan (§7.1) by its code name, with its Chinese name."""
FAN_EN = {
    "dealer": "dealer",
    "closed": "closed hand",
    "self_drawn": "self-drawn",
    "jia": "middle wait",
    "bao": "treasure",
    "bao_zhong_bao": "treasure in treasure",
    "dian_pao": "fed the win",
}


@dataclass(frozen=True, slots=True)
class LoserShare:
    """What one loser owes: his fans (hand fans first), the exponent and the share."""

    seat: int
    fans: tuple[str, ...]
    share: int

    def to_json(self) -> dict[str, Any]:
        return {"seat": self.seat, "fans": list(self.fans), "fans_zh": [FAN_ZH[f] for f in self.fans],
                "exponent": len(self.fans), "share": self.share}


@dataclass(frozen=True, slots=True)
class Payment:
    """``payer`` pays ``amount`` to ``payee``: the share of ``on_behalf_of`` (himself, or another loser under
    包三家)."""

    payer: int
    payee: int
    amount: int
    on_behalf_of: int

    def to_json(self) -> dict[str, int]:
        return {"payer": self.payer, "payee": self.payee, "amount": self.amount, "for": self.on_behalf_of}


@dataclass(frozen=True)
class Settlement:
    """The settlement of one deal."""

    winner: int | None
    dealer: int
    self_drawn: bool = False
    feeder: int | None = None
    feeder_ready: bool = False
    bao_san_jia: bool = False
    hand_fans: tuple[str, ...] = ()
    shares: tuple[LoserShare, ...] = ()
    payments: tuple[Payment, ...] = ()
    scores: list[int] = field(default_factory=lambda: [0, 0, 0, 0])

    def to_json(self) -> dict[str, Any]:
        return {
            "winner": self.winner, "dealer": self.dealer, "self_drawn": self.self_drawn, "feeder": self.feeder,
            "feeder_ready": self.feeder_ready, "bao_san_jia": self.bao_san_jia, "hand_fans": list(self.hand_fans),
            "hand_fans_zh": [FAN_ZH[f] for f in self.hand_fans],
            "shares": [s.to_json() for s in self.shares], "payments": [p.to_json() for p in self.payments],
            "scores": list(self.scores),
        }


def loser_fans(loser: int, winner: int, dealer: int, hand_fans: Sequence[str], *, opened: bool,
               fed: bool) -> tuple[str, ...]:
    """All fans counted for ``loser``: the hand fans, then 庄 (winner or loser deals), 门清 (the loser has no meld),
    点炮 (``fed``: he fed the win while not ready).

    >>> loser_fans(3, 0, 0, ["jia"], opened=True, fed=True)
    ('jia', 'dealer', 'dian_pao')
    """
    out = list(hand_fans)
    if dealer in (winner, loser):
        out.append("dealer")
    if not opened:
        out.append("closed")
    if fed:
        out.append("dian_pao")
    return tuple(out)


def settle(winner: int | None, dealer: int, hand_fans: Sequence[str], *, self_drawn: bool,
           feeder: int | None = None, feeder_ready: bool = False, opened: Sequence[bool] = (True, True, True, True),
           base: int = 1, ready_feeder_pays: str = "all_three", players: int = 4) -> Settlement:
    """Settle a deal (§7.2).  ``winner`` ``None`` is a 荒庄: nobody pays.  ``opened[i]``: seat ``i`` has a meld.

    >>> settle(None, 2, [], self_drawn=False).scores
    [0, 0, 0, 0]
    >>> settle(2, 0, ["jia"], self_drawn=False, feeder=3, feeder_ready=True, ready_feeder_pays="feeder_own").scores
    [0, 0, 2, -2]
    """
    if winner is None:
        return Settlement(None, dealer, scores=[0] * players)
    if self_drawn == (feeder is not None):
        raise ValueError("a win is either self-drawn or fed by a discard")
    if feeder == winner:
        raise ValueError("the winner cannot feed his own win")
    shares = []
    bao = feeder is not None and not feeder_ready
    for i in range(players):
        if i == winner:
            continue
        fs = loser_fans(i, winner, dealer, hand_fans, opened=opened[i], fed=bao and i == feeder)
        shares.append(LoserShare(i, fs, base * 2 ** len(fs)))
    payments = []
    if bao:
        assert feeder is not None
        payments = [Payment(feeder, winner, s.share, s.seat) for s in shares]
    elif feeder is not None and ready_feeder_pays == "feeder_own":
        payments = [Payment(feeder, winner, s.share, s.seat) for s in shares if s.seat == feeder]
    else:
        payments = [Payment(s.seat, winner, s.share, s.seat) for s in shares]
    scores = [0] * players
    for p in payments:
        scores[p.payer] -= p.amount
        scores[p.payee] += p.amount
    return Settlement(winner, dealer, self_drawn, feeder, feeder_ready if feeder is not None else False, bao,
                      tuple(hand_fans), tuple(shares), tuple(payments), scores)


def next_dealer(dealer: int, winner: int | None, players: int = 4) -> int:
    """The next deal's dealer (§2.2): the same after a dealer win or a 荒庄, else the dealer's next seat.

    >>> next_dealer(2, None), next_dealer(2, 1), next_dealer(2, 2), next_dealer(3, 0)
    (2, 3, 2, 0)
    """
    if winner is None or winner == dealer:
        return dealer
    return (dealer + 1) % players


__all__ = ["FAN_EN", "FAN_ZH", "LoserShare", "Payment", "Settlement", "loser_fans", "next_dealer", "settle"]
