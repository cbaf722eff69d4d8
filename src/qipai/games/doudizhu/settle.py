"""Settlement (积分, RULES.md §7): the multiplier as named factors, score changes, auto-play split, minimisation.

Each farmer's amount is ``stake × bid × multiplier × (that farmer's doubling factor)``; the landlord's is the sum
of the farmers' (so ``share × stake × bid × multiplier`` without per-farmer doubling).  The landlord wins if he
went out first.

>>> from qipai.games.doudizhu.rules import PRESETS
>>> from qipai.games.doudizhu.state import Game
>>> g = Game.from_deal(PRESETS["classic"], ["3S 3H 3C 3D 4S 4H 4C 4D 5S 5H 5C 5D 6S 6H 6C 6D 7S",
...     "8S 8H 8C 8D 9S 9H 9C 9D TS TH TC TD JS JH JC JD 7H", "QS QH QC QD KS KH KC KD AS AH AC AD 2S 2H 2C 2D 7C"],
...     "7D B R", first_bidder=0)
>>> g.apply("bid 3")
>>> for a in ["play 3333", "pass", "pass", "play 4444", "pass", "pass", "play 5555", "pass", "pass",
...           "play 6666", "pass", "pass", "play 77", "pass", "pass", "play BR"]:
...     g.apply(a)
>>> out = g.result
>>> [str(f) for f in out.factors], out.multiplier, out.scores
(['bomb ×2', 'bomb ×2', 'bomb ×2', 'bomb ×2', 'rocket ×2', 'spring ×2'], 64, [384, -192, -192])
"""

from __future__ import annotations

from dataclasses import dataclass, field
from math import prod
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .state import Game


@dataclass(frozen=True, slots=True)
class Factor:
    """One named multiplier factor (``bomb ×2``, ``spring ×2``, ``倒 ×2`` …)."""

    name: str
    factor: int
    seat: int | None = None

    def __str__(self) -> str:
        return f"{self.name} ×{self.factor}"

    def to_json(self) -> dict[str, Any]:
        d: dict[str, Any] = {"name": self.name, "factor": self.factor}
        if self.seat is not None:
            d["seat"] = self.seat
        return d


@dataclass
class Payment:
    """One transfer of points between a loser and a winner (before and after minimisation)."""

    payer: int
    payee: int
    owed: int
    paid: int

    def to_json(self) -> dict[str, int]:
        return {"payer": self.payer, "payee": self.payee, "owed": self.owed, "paid": self.paid}


@dataclass
class Outcome:
    """The result of one deal, in a form a person can check."""

    winner: str | None
    """``landlord``, ``farmers``, or ``None`` for a dissolved game or an escape."""
    landlord: int | None
    bid: int
    stake: int
    factors: list[Factor] = field(default_factory=list)
    """Factors common to every farmer's settlement; their product is :attr:`multiplier`."""
    farmer_factors: dict[int, list[Factor]] = field(default_factory=dict)
    """Per-farmer doubling factors (Chengdu 倒/反/斡/垒)."""
    multiplier: int = 1
    seat_multipliers: dict[int, int] = field(default_factory=dict)
    """Each farmer's full multiplier: common × own doubling."""
    scores: list[int] = field(default_factory=list)
    payments: list[Payment] = field(default_factory=list)
    spring: bool = False
    anti_spring: bool = False
    autoplay: list[bool] = field(default_factory=list)
    escaped: int | None = None
    dissolved: bool = False
    went_out: int | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "winner": self.winner,
            "landlord": self.landlord,
            "bid": self.bid,
            "stake": self.stake,
            "factors": [f.to_json() for f in self.factors],
            "farmer_factors": {str(k): [f.to_json() for f in v] for k, v in self.farmer_factors.items()},
            "multiplier": self.multiplier,
            "seat_multipliers": {str(k): v for k, v in self.seat_multipliers.items()},
            "scores": list(self.scores),
            "payments": [p.to_json() for p in self.payments],
            "spring": self.spring,
            "anti_spring": self.anti_spring,
            "autoplay": list(self.autoplay),
            "escaped": self.escaped,
            "dissolved": self.dissolved,
            "went_out": self.went_out,
        }


def common_factors(game: Game) -> list[Factor]:
    """The multiplier factors so far that apply to every farmer: bombs, rockets, spring, show hand."""
    r = game.rules
    out: list[Factor] = []
    counted = [(s, m) for s, m, beat in game.bombs if beat or not r.effective_bombs_only]
    bombs = [(s, m) for s, m in counted if m.kind == "bomb"]
    if r.bomb_factor == "double":
        out += [Factor("bomb", 2, s) for s, _ in bombs]
    elif r.bomb_factor == "linear":
        if bombs:
            out.append(Factor("bombs", 1 + len(bombs)))
    else:  # by_size: 6-7 cards ×2, 8 cards ×3, 4-5 cards ×1
        for s, m in bombs:
            f = 3 if m.size >= 8 else 2 if m.size >= 6 else 1
            if f > 1:
                out.append(Factor(f"bomb of {m.size}", f, s))
    out += [Factor("rocket", r.rocket_factor, s) for s, m in counted if m.kind == "rocket"]
    if game.winner is not None and game.landlord is not None:
        farmers = [s for s in range(r.players) if s != game.landlord]
        if r.spring and game.winner == game.landlord and all(game.cards_played[f] == 0 for f in farmers):
            out.append(Factor("spring", 2))
        if r.anti_spring and game.winner != game.landlord and game.moves_played[game.landlord] == 1:
            out.append(Factor("anti-spring", 2))
    if game.shown:
        out.append(Factor("show hand", r.show_hand_factor))
    return out


def doubling_factors(game: Game, farmer: int) -> list[Factor]:
    """One farmer's Chengdu doubling factors (倒, 反, 斡, 垒), in order."""
    did = {nm for s, nm in game.doubling if s == farmer}
    by_landlord = {nm for s, nm in game.doubling if s == game.landlord}
    out = []
    for own, answer in (("倒", "反"), ("斡", "垒")):
        if own in did:
            out.append(Factor(own, 2, farmer))
            if answer in by_landlord:
                out.append(Factor(answer, 2, farmer))
    return out


def settle(game: Game) -> Outcome:
    """Settle a finished deal (someone went out, an escape, or a dissolution)."""
    r = game.rules
    n = r.players
    scores = [0] * n
    factors = common_factors(game)
    mult = prod(f.factor for f in factors)
    out = Outcome(winner=None, landlord=game.landlord, bid=game.bid or game.max_bid, stake=r.stake,
                  factors=factors, multiplier=mult, scores=scores, escaped=game.escaped,
                  dissolved=game.dissolved, went_out=game.winner,
                  autoplay=[game.autoplay_counted[s] for s in range(n)])
    if game.dissolved:
        return out
    landlord = game.landlord
    if game.escaped is not None:
        e = game.escaped
        bid = game.bid or game.max_bid
        if bid == 0:
            penalty = r.escape_factor * r.stake
        else:
            own = (max(game.farmer_factors[f] for f in range(n) if f != landlord) if e == landlord
                   else game.farmer_factors[e]) if landlord is not None else 1
            penalty = r.escape_factor * bid * mult * own * r.stake
        scores[e] = -penalty
        return out
    assert landlord is not None and game.winner is not None
    farmers = [(landlord + i) % n for i in range(1, n)]
    for f in farmers:
        out.farmer_factors[f] = doubling_factors(game, f)
        out.seat_multipliers[f] = mult * game.farmer_factors[f]
    amounts = {f: r.stake * game.bid * out.seat_multipliers[f] for f in farmers}
    landlord_wins = game.winner == landlord
    out.winner = "landlord" if landlord_wins else "farmers"
    out.spring = any(f.name == "spring" for f in factors)
    out.anti_spring = any(f.name == "anti-spring" for f in factors)
    # who pays or receives on the farmers' side (auto-play split, seed 000)
    share = dict(amounts)
    if r.autoplay_split:
        auto = [f for f in farmers if game.autoplay_counted[f]]
        active = [f for f in farmers if not game.autoplay_counted[f]]
        total = sum(amounts.values())
        takers = auto if landlord_wins else active
        if auto and takers:
            share = {f: 0 for f in farmers}
            base, extra = divmod(total, len(takers))
            for i, f in enumerate(takers):
                share[f] = base + (1 if i < extra else 0)
    payments = [
        Payment(f, landlord, share[f], share[f]) if landlord_wins else Payment(landlord, f, share[f], share[f])
        for f in farmers
        if share[f]
    ]
    if r.cap_by_table_points and game.table_points is not None:
        before = list(game.table_points)
        left = list(game.table_points)
        for p in payments:
            p.paid = max(0, min(p.owed, before[p.payee], left[p.payer]))
            left[p.payer] -= p.paid
    for p in payments:
        scores[p.payer] -= p.paid
        scores[p.payee] += p.paid
    out.payments = payments
    return out
