"""Helpers for the Shengji tests: deals with chosen cards, running the deal, random legal play."""

from __future__ import annotations

import json
import random
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from qipai.games.shengji.cards import counts, format_cards, full_deck, order_of, parse_cards, suit_number
from qipai.games.shengji.game import ShengjiGame


def deal_with(fixed: Mapping[int, str], seed: int = 0) -> list[int]:
    """A deal order with the given cards at the given deal indices, the rest shuffled from ``seed``."""
    rest = full_deck()
    out = [-1] * 216
    for i, t in fixed.items():
        f = parse_cards(t)[0]
        rest.remove(f)
        out[i] = f
    random.Random(seed).shuffle(rest)
    it = iter(rest)
    return [f if f >= 0 else next(it) for f in out]


def deal_hands(hands: Mapping[int, str], first: int = 0, seed: int = 0) -> list[int]:
    """A deal order giving each listed seat its cards in its earliest deal positions."""
    fixed: dict[int, str] = {}
    for seat, text in hands.items():
        slots = iter(range((seat - first) % 4, 216, 4))
        for t in text.split():
            fixed[next(slots)] = t
    return deal_with(fixed, seed)


def run_deal(g: ShengjiGame, declare: Mapping[int, Sequence[tuple[int, str]]] | None = None) -> None:
    """Close windows with timeouts until play starts; ``declare[dealt]`` is applied in the window after card
    ``dealt`` (``dealt = 216``: the final window)."""
    declare = declare or {}
    while g.phase in ("deal", "final"):
        for seat, text in declare.get(g.dealt, ()):
            g.apply(text, seat)
        if g.phase in ("deal", "final"):
            g.timeout(g.acting[0])


def play_random(g: ShengjiGame, rng: random.Random, extras: bool = False, until: int | None = None) -> None:
    """Random legal actions (from the hint lists) and random throws to the end (or until the hand has ``until``
    actions); with ``extras`` also more declarations, auto-play changes and timeouts."""
    steps = 0
    while not g.is_over and (until is None or len(g.actions) < until):
        steps += 1
        assert steps < 5000, "hand did not end"
        if extras and rng.random() < 0.01:
            s = rng.randrange(4)
            if g.autoplay_changes[s] < 10 and not g.left[s]:
                g.set_autoplay(s, not g.autoplay[s])
                continue
        if g.phase in ("deal", "final"):
            for s in g.acting:
                la = g.legal_actions(s)
                if len(la) > 1 and rng.random() < (0.3 if extras else 0.05):
                    g.apply(rng.choice(la[1:]), s)
                elif extras and rng.random() < 0.3:
                    g.apply("pass", s)
            if g.phase in ("deal", "final") and g.acting:
                g.timeout(rng.choice(g.acting))
            continue
        s = g.acting[0]
        if extras and rng.random() < 0.05:
            g.timeout(s)
            continue
        if g.lead is None and rng.random() < 0.3:  # a random throw: cards of one effective suit
            o = g.order
            assert o is not None
            suits = [e for e in range(5) if sum(g.hands[s][f] for f in o.faces[e]) >= 2]
            if suits:
                e = rng.choice(suits)
                cards = [f for f in o.faces[e] for _ in range(g.hands[s][f])]
                rng.shuffle(cards)
                g.apply("play " + format_cards(cards[:rng.randint(2, min(8, len(cards)))], o), s)
                continue
        la = g.legal_actions(s)
        g.apply(rng.choice(la), s)


def c(text: str) -> list[int]:
    """Cards from their text (``"3H 3H B R"``)."""
    return parse_cards(text)


def in_play(levels: tuple[str, str], banker: int, trump: str, hands: dict[int, str], *,
            leader: int | None = None, options: dict[str, object] | None = None, att_points: int = 0) -> ShengjiGame:
    """A hand in play with the given (small, equal-sized) hands: the deal is run without declarations, then the
    trump suit, the hands and the leader are set as the scenario needs."""
    g = ShengjiGame(options or {}, 0, {"hand": 2, "levels": list(levels), "banker": banker})
    run_deal(g)
    g.trump = suit_number(trump)
    g.order = order_of(g.level, g.trump)
    g.hands = [counts(c(hands[s])) for s in range(4)]
    g.turn = g.leader = banker if leader is None else leader
    g.att_points = att_points
    return g


def recorded_position(name: str) -> tuple[Any, dict[str, Any], int]:
    """The game of a recorded deal (``tests/data/<name>.json``: its seed, context and actions) replayed to its last
    action, the record, and the seat to act."""
    from qipai.games.shengji import FACTORY

    rec = json.loads((Path(__file__).parents[2] / "data" / f"{name}.json").read_text())
    g = FACTORY.new(FACTORY.options({}), rec["seed"], rec["context"])
    for seat, action in rec["actions"]:
        g.apply(action, seat)
    return g, rec, g.acting[0]
