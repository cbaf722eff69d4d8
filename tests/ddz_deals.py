"""Helpers to build Dou Dizhu deals for scenario tests from rank strings."""

from __future__ import annotations

from qipai.games.doudizhu.cards import Card, deck, parse_ranks
from qipai.games.doudizhu.rules import Rules
from qipai.games.doudizhu.state import Game


def make_deal(rules: Rules, hands: list[str], kitty: str = "") -> tuple[list[list[Card]], list[Card]]:
    """Deal the given ranks to each seat (and the kitty), then fill every short hand and the kitty with the
    remaining cards dealt round-robin, lowest first.  Suits are assigned in deck order."""
    pool: dict[int, list[Card]] = {}
    for c in deck(rules.decks):
        pool.setdefault(c.rank, []).append(c)

    def take(ranks: str) -> list[Card]:
        out = []
        for r in parse_ranks(ranks):
            if not pool.get(r):
                raise ValueError(f"no card of rank {r} left for {ranks!r}")
            out.append(pool[r].pop(0))
        return out

    hs = [take(h) for h in hands]
    kt = take(kitty)
    rest = [c for r in sorted(pool) for c in pool[r]]
    for h in hs:
        if len(h) > rules.hand_size:
            raise ValueError(f"hand too long: {len(h)}")
    seat = 0
    while any(len(h) < rules.hand_size for h in hs):  # round-robin, so fillers rarely make bombs
        if len(hs[seat]) < rules.hand_size:
            hs[seat].append(rest.pop(0))
        seat = (seat + 1) % len(hs)
    while len(kt) < rules.kitty_size:
        kt.append(rest.pop(0))
    assert not rest
    return hs, kt


def game(rules: Rules, hands: list[str], kitty: str = "", **kw: object) -> Game:
    """A game from rank strings (see :func:`make_deal`); keyword arguments go to ``Game.from_deal``."""
    hs, kt = make_deal(rules, hands, kitty)
    return Game.from_deal(rules, hs, kt, **kw)  # type: ignore[arg-type]


def landlord_plays_out(g: Game, plays: list[str]) -> None:
    """The landlord leads each play in turn while every farmer passes."""
    for p in plays:
        assert g.to_act == g.landlord, (g.to_act, g.landlord)
        g.apply(f"play {p}")
        while not g.is_over and g.to_act != g.landlord:
            g.apply("pass")


def hand_ranks(g: Game, seat: int) -> str:
    """A seat's hand as rank notation."""
    from qipai.games.doudizhu.cards import format_ranks

    return format_ranks(c.rank for c in g.hands[seat])
