"""The research protocol of DouZero and PerfectDou: no bidding, seat 0 is the landlord with 20 cards.

Published Dou Dizhu agents (DouZero, PerfectDou) are compared on a fixed set of deals without bidding: the
landlord gets 17 cards plus the 3 kitty cards, which everybody sees; then ``landlord``, ``landlord_down``
(the seat after the landlord) and ``landlord_up`` play.  Two agents A and B play every deal twice: A as the
landlord against B as both farmers, then the other way round.

- **WP** is the share of games a side wins.
- **ADP** scores each game as DouZero's evaluation does: the winning side gets ``2 × 2^bombs`` points
  (bombs and rockets played, whoever played them; no bid, no spring), the losing side the same negative.  A
  side's ADP is its average over the games it played (DouZero prints exactly this for the landlord, and twice
  the per-farmer score for the farmers).

The deals are fixed: :data:`DEALS_FILE` holds 10,000 deals made by :func:`make_deals` with seed
:data:`DEALS_SEED` (``python -m qipai.games.doudizhu.bots.research`` writes it again, byte for byte).  Each line is
``LANDLORD17 DOWN17 UP17 KITTY3`` in rank notation; suits are given in deal order (♠ ♥ ♣ ♦ for the first,
second, third and fourth card of a rank), since suits do not matter in Dou Dizhu.

Games are built with :func:`research_game`: :meth:`~qipai.games.doudizhu.state.Game.from_deal` under the
``classic`` rules with seat 0 bidding first, then ``bid 3`` so seat 0 becomes the landlord at once (the bid
is not used in the research score).

>>> deals = load_deals(2)
>>> [len(h) for h in deals[0].hands], len(deals[0].kitty)
([17, 17, 17], 3)
>>> g = research_game(deals[0])
>>> g.phase, g.landlord, len(g.hands[0])
('play', 0, 20)
"""

from __future__ import annotations

import gzip
import random
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from ..cards import RANK_LETTERS, SUITS, format_ranks
from ..rules import PRESETS, Rules
from ..state import Game

DEALS_SEED = 20210611
"""Seed of the fixed research deals (DouZero's paper date, for memorability)."""

DEALS_FILE = "research_deals.txt.gz"
"""The file in ``qipai/data`` holding the fixed deals."""

DEALS_COUNT = 10_000


@dataclass(frozen=True)
class ResearchDeal:
    """One deal: ``hands`` (landlord's 17, landlord_down's 17, landlord_up's 17) and the 3 ``kitty`` cards, all
    in rank notation."""

    hands: tuple[str, str, str]
    kitty: str

    def line(self) -> str:
        """The deal as one line of the deals file."""
        return " ".join([*self.hands, self.kitty])

    @classmethod
    def parse(cls, line: str) -> ResearchDeal:
        """Read one line of the deals file."""
        parts = line.split()
        if len(parts) != 4 or [len(p) for p in parts] != [17, 17, 17, 3]:
            raise ValueError(f"bad research deal line {line!r}: expected 17 17 17 3 cards")
        cards = "".join(parts)
        wrong = sorted({ch for ch in cards if ch not in RANK_LETTERS})
        if wrong:
            raise ValueError(f"bad research deal line {line!r}: {''.join(wrong)!r} is not a rank "
                             f"(ranks are {RANK_LETTERS})")
        extra = [ch for ch in RANK_LETTERS if cards.count(ch) != (1 if ch in "BR" else 4)]
        if extra:
            raise ValueError(f"bad research deal line {line!r}: not one deck (rank {extra[0]} appears "
                             f"{cards.count(extra[0])} times)")
        return cls((parts[0], parts[1], parts[2]), parts[3])

    def suited(self) -> tuple[list[str], str]:
        """Hands and kitty as suited card notation (suits given in deal order)."""
        used = {r: 0 for r in RANK_LETTERS}

        def suit(text: str) -> str:
            out = []
            for ch in text:
                if ch in "BR":
                    out.append(ch)
                else:
                    out.append(ch + SUITS[used[ch]])
                    used[ch] += 1
            return " ".join(out)

        hands = [suit(h) for h in self.hands]
        return hands, suit(self.kitty)


def make_deals(n: int = DEALS_COUNT, seed: int = DEALS_SEED) -> list[ResearchDeal]:
    """``n`` random deals from ``random.Random(seed)`` (one shuffle of the 54 ranks per deal)."""
    rng = random.Random(seed)
    ranks = [r for r in range(13) for _ in range(4)] + [13, 14]
    out = []
    for _ in range(n):
        d = list(ranks)
        rng.shuffle(d)
        hands = (format_ranks(d[0:17]), format_ranks(d[17:34]), format_ranks(d[34:51]))
        out.append(ResearchDeal(hands, format_ranks(d[51:54])))
    return out


def load_deals(n: int | None = None, path: Path | None = None) -> list[ResearchDeal]:
    """The first ``n`` fixed research deals (all 10,000 by default), from :data:`DEALS_FILE` or ``path``."""
    source = path if path is not None else resources.files("qipai").joinpath("data", DEALS_FILE)
    raw = source.read_bytes()
    text = gzip.decompress(raw).decode() if raw[:2] == b"\x1f\x8b" else raw.decode()
    out = []
    for line in text.splitlines():
        if line.strip():
            out.append(ResearchDeal.parse(line))
            if n is not None and len(out) >= n:
                break
    if n is not None and len(out) < n:
        raise ValueError(f"the deals file holds {len(out)} deals, fewer than the {n} asked for")
    return out


def write_deals(path: Path, n: int = DEALS_COUNT, seed: int = DEALS_SEED) -> None:
    """Write the deals file (gzip with a fixed timestamp, so the bytes are reproducible)."""
    text = "".join(d.line() + "\n" for d in make_deals(n, seed)).encode()
    path.write_bytes(gzip.compress(text, compresslevel=9, mtime=0))


def research_game(deal: ResearchDeal, rules: Rules | None = None) -> Game:
    """A game in the play phase with seat 0 as the landlord holding its 17 cards and the kitty."""
    r = rules or PRESETS["classic"]
    hands, kitty = deal.suited()
    g = Game.from_deal(r, hands, kitty, first_bidder=0)
    g.apply("bid 3")
    return g


def research_points(game: Game) -> int:
    """The landlord side's points in DouZero's scoring: ``±2 × 2^(bombs and rockets played)``."""
    if game.winner is None or game.landlord is None:
        raise ValueError("the game is not over")
    sign = 1 if game.winner == game.landlord else -1
    return int(sign * 2 * 2 ** len(game.bombs))


if __name__ == "__main__":  # pragma: no cover
    target = Path(__file__).resolve().parents[3] / "data" / DEALS_FILE  # qipai/data
    target.parent.mkdir(parents=True, exist_ok=True)
    write_deals(target)
    print(f"wrote {DEALS_COUNT} deals to {target}")
