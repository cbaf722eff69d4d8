"""The ``hard`` mahjong level: legal on random positions under random options, reads a ready seat's dangerous
tiles where the efficiency bot does not, and values a 夹 wait double."""

from __future__ import annotations

import random
import time
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from qipai.games.mahjong.bots import BOTS, EfficiencyBot, HardBot
from qipai.games.mahjong.bots.hard import risk, wait_value
from qipai.games.mahjong.factory import INFO
from qipai.games.mahjong.hand import meld_sig, wait_kinds
from qipai.games.mahjong.melds import parse_melds
from qipai.games.mahjong.rules import DAQING, Rules
from qipai.games.mahjong.state import MahjongGame
from qipai.games.mahjong.tiles import parse_tile, parse_tiles, to_counts

BOOL_OPTIONS = ("hu_requires_ting", "auto_hu", "ting_claim_first", "need_sequence", "bu_jia_bu_hu", "jia_37",
                "dan_diao_jia", "zhi_dui", "hongzhong_wild", "gua_da_feng", "dai_lou")


def test_hard_is_a_level_after_normal() -> None:
    assert INFO.levels == ("easy", "normal", "hard")
    assert set(INFO.levels) <= set(BOTS)
    assert isinstance(BOTS["hard"](3), HardBot)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 10**6), st.sets(st.sampled_from(BOOL_OPTIONS), max_size=4), st.integers(0, 3))
def test_hard_answers_legally_at_every_decision(seed: int, flips: set[str], hard_seats: int) -> None:
    """A whole deal under random options, the hard bot in one to four seats and random players elsewhere (so
    the positions are varied): every answer of the hard bot is one of its legal actions."""
    rules: Rules = DAQING.replace(**{name: not getattr(DAQING, name) for name in flips})
    g = MahjongGame.new(rules, seed)
    rng = random.Random(seed)
    hard = [s <= hard_seats for s in range(4)]
    bots: list[Any] = [HardBot(seed + s) if hard[s] else BOTS["random"](seed + s) for s in range(4)]
    steps = 0
    while not g.is_over:
        steps += 1
        assert steps < 2000
        s = g.acting[0]
        legal = g.legal_actions(s)
        a = bots[s].act(g.observe(s, hints=rng.random() < 0.5), list(legal))
        assert a in legal
        g.apply(a, s)
    assert sum(g.outcome()["scores"]) == 0


# A deal of efficiency bots (seed 4, dealer 0) up to seat 0's discard with seats 1, 2 and 3 ready.
RECORDED = ("0:discard 1m / 1:discard 9m / 2:chi 789m / 2:discard 1m / 3:discard 1m / 0:discard 3s / 1:discard 2m / "
            "2:discard 2m / 3:discard 1s / 0:discard 9p / 1:discard 8p / 2:discard 8p / 3:discard 1s / "
            "0:discard 2s / 1:discard 9m / 2:discard 6p / 3:chi 678p / 3:discard 1p / 1:peng / 1:discard 5p / "
            "2:discard 1p / 3:discard 1s / 0:discard 1s / 1:chi 123s / 1:discard 5s / 2:discard 2p / "
            "3:discard 2p / 0:chi 234p / 0:discard 7m / 1:chi 678m ting / 1:ting 4m / 2:pass / 2:discard 6p / "
            "3:discard 4m / 0:discard 7p / 0:chi 567s ting / 3:peng ting / 3:ting 4s / 2:chi 234s ting / "
            "2:ting 7m")


def recorded_position() -> MahjongGame:
    g = MahjongGame.new(DAQING, 4, 0)
    for item in RECORDED.split(" / "):
        seat, action = item.split(":")
        g.apply(action, int(seat))
    return g


def feeds(g: MahjongGame, action: str) -> list[int]:
    """The ready seats that would win on the discard ``action`` (their hidden hands: the test may look)."""
    k = parse_tile(action.split()[1])
    return [r for r in range(4) if g.ready[r] and k in wait_kinds(g.hands[r], g.sig(r), g.rules, g.zhidui[r])]


def test_hard_does_not_feed_a_ready_seat_where_normal_does() -> None:
    """Seat 0, one from ready, against three ready seats: the efficiency bot's most efficient discard (7s) wins
    for seat 1 (包三家: seat 0 would pay all three shares); the hard bot weighs how a ready seat could wait on
    each tile by the tiles it has not seen and lets a safe one go (it sees only its observation)."""
    g = recorded_position()
    assert list(g.acting) == [0] and g.ready == [False, True, True, True]
    obs, legal = g.observe(0, hints=False), g.legal_actions(0)
    normal = EfficiencyBot(0).act(obs, legal)
    hard = HardBot(0).act(obs, legal)
    assert normal == "discard 7s" and feeds(g, normal) == [1]
    assert hard in legal and hard.startswith("discard ") and feeds(g, hard) == []


def test_the_hard_bot_reads_nothing_hidden() -> None:
    """Seats 2 and 3 (ready, seven concealed tiles each) swap their hidden hands: seat 0 sees the same and the
    hard bot answers the same."""
    g = recorded_position()
    h = g.clone()
    assert sum(g.hands[2]) == sum(g.hands[3]) and g.hands[2] != g.hands[3]
    h.hands[2], h.hands[3] = list(g.hands[3]), list(g.hands[2])
    obs_g, obs_h = g.observe(0, hints=False), h.observe(0, hints=False)
    assert obs_g == obs_h
    assert HardBot(0).act(obs_g, g.legal_actions(0)) == HardBot(0).act(obs_h, h.legal_actions(0))


def test_risk_reads_passed_tiles() -> None:
    u = [3] * 28
    five = parse_tile("5m")
    assert risk(five, u, {five}) == 0.0
    # a two-sided wait 34m or 67m would have won on the 2m or the 8m that passed
    assert risk(five, u, {parse_tile("2m"), parse_tile("8m")}) == 3 + 9  # 单调/对倒 and 夹 (46m) remain
    assert risk(five, u, set()) == 3 + 9 + 9 + 9
    assert risk(parse_tile("1m"), u, set()) == 3 + 9  # a 1 waits only as 23m or a pair
    assert risk(parse_tile("Z"), [0] * 28, set()) == 0.0  # every 红中 seen: nobody can wait on it


def test_a_jia_wait_counts_double() -> None:
    sig = meld_sig(parse_melds("chi 567s"))
    u = [4] * 28
    assert wait_value(to_counts(parse_tiles("234m 678p 24m ZZ")), sig, DAQING, u) == 8.0  # 3m, 夹
    assert wait_value(to_counts(parse_tiles("123p 678p 45m ZZ")), sig, DAQING, u) == 8.0  # 3m and 6m, 两面
    u[parse_tile("3m")] = 1
    assert wait_value(to_counts(parse_tiles("234m 678p 24m ZZ")), sig, DAQING, u) == 2.0


def test_hard_decides_within_its_budget() -> None:
    """0.3 s a decision on one core is the level's budget; the mean is far below (a few milliseconds)."""
    g = MahjongGame.new(DAQING, 21)
    bots = [HardBot(s) for s in range(4)]
    times = []
    while not g.is_over:
        s = g.acting[0]
        obs, legal = g.observe(s, hints=False), g.legal_actions(s)
        t0 = time.process_time()
        a = bots[s].act(obs, legal)
        times.append(time.process_time() - t0)
        g.apply(a, s)
    assert max(times) < 1.0 and sum(times) / len(times) < 0.3
