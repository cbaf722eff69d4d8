"""Bidding by odds: the estimate ranks hands, the calibration is monotone, the bot bids legally everywhere."""

from __future__ import annotations

import random

import pytest

from qipai.games.doudizhu.bots.bidding import BID_AT, MIN_SAMPLES, OddsBot, calibrated, landlord_odds, odds_bid
from qipai.games.doudizhu.bots.view import counts_of_text
from qipai.games.doudizhu.rules import PRESETS
from qipai.games.doudizhu.state import Game


def test_odds_rank_hands() -> None:
    r = PRESETS["classic"]
    rocket_bombs = landlord_odds(counts_of_text("3333444455556BR22"), r, random.Random(3), 32)
    rags = landlord_odds(counts_of_text("3345679TJ3456789T"), r, random.Random(3), 32)
    assert rocket_bombs > 0.8 and rags < 0.3
    assert landlord_odds(counts_of_text("3345679TJ3456789T"), r, random.Random(3), 32) == rags  # seeded


@pytest.mark.parametrize("players", [3, 4])
def test_calibration_is_monotone(players: int) -> None:
    xs = [i / 20 for i in range(21)]
    ys = [calibrated(x, players) for x in xs]
    assert ys == sorted(ys) and all(0.0 < y < 1.0 for y in ys)


def test_bids_follow_the_odds() -> None:
    assert tuple(sorted(BID_AT)) == BID_AT
    g = Game.new(PRESETS["classic"], 6, first_bidder=0)
    obs, legal = g.observe(0), g.legal_actions()
    a = odds_bid(obs, legal, random.Random(1), 16)
    assert a in legal
    for preset in ("cantonese", "four_player", "chengdu"):
        h = Game.new(PRESETS[preset], 2)
        assert odds_bid(h.observe(h.to_act), h.legal_actions(), random.Random(1), 8) in h.legal_actions()


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_odds_bot_plays_every_preset(preset: str) -> None:
    r = PRESETS[preset]
    g = Game.new(r, 3)
    bots = [OddsBot(s, samples=6) for s in range(r.players)]
    while not g.is_over:
        seat = g.to_act
        assert seat is not None
        legal = g.legal_actions()
        a = bots[seat].act(g.observe(seat), list(legal))
        assert a in legal
        g.apply(a, seat)


def test_search_bids_by_odds_when_asked() -> None:
    from qipai.games.doudizhu.bots.arena import make_bot

    bot = make_bot("search:bid=odds,samples=3", 2)
    assert getattr(bot, "bidding", None) == "odds"
    g = Game.new(PRESETS["four_player"], 5)
    assert bot.act(g.observe(g.to_act), g.legal_actions()) in g.legal_actions()
    with pytest.raises(ValueError, match="search option bid must be one of"):
        make_bot("search:bid=loud", 2)


class _Clock:
    """A clock that moves one second each time it is read."""

    def __init__(self) -> None:
        self.reads = 0

    def __call__(self) -> float:
        self.reads += 1
        return float(self.reads)


def test_a_deadline_ends_the_estimate_after_the_minimum() -> None:
    r = PRESETS["four_player"]
    hand = counts_of_text("33445566778899TTJJQQKKAA2")  # 25 cards
    passed = _Clock()
    quick = landlord_odds(hand, r, random.Random(4), 48, deadline=(passed, 0.0))
    assert quick == landlord_odds(hand, r, random.Random(4), MIN_SAMPLES)
    assert passed.reads == 1  # not read before the minimum; read once it was made, and stopped
    # a deadline never reached changes nothing
    assert landlord_odds(hand, r, random.Random(4), 48, deadline=(passed, 1e9)) == landlord_odds(
        hand, r, random.Random(4), 48)


def test_search_with_a_time_budget_bids_within_it() -> None:
    from qipai.games.doudizhu.bots.search import SearchBot

    g = Game.new(PRESETS["four_player"], 5)
    timed = SearchBot(2, time_budget=3.0, bidding="odds")
    clock = _Clock()
    timed.clock = clock  # each read is a second: the 3 s budget ends the estimate at the minimum
    assert timed.act(g.observe(g.to_act), g.legal_actions()) in g.legal_actions()
    # read at the start (deadline 4), then once per deal from the minimum on: 2 and 3 go on, 4 stops
    assert clock.reads == 4
