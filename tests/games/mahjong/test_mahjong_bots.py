"""Mahjong bots: they see only the observation and the legal actions, play whole deals, the passive bot is the
auto-play of §9, and the efficiency bot plays better than chance."""

from __future__ import annotations

import pytest
from mahjong_positions import position

from qipai.games.mahjong.bots import BOTS, EfficiencyBot, PassiveBot
from qipai.games.mahjong.rules import DAQING
from qipai.games.mahjong.state import MahjongGame


def run(names: tuple[str, ...], seed: int, rules: object = DAQING) -> MahjongGame:
    g = MahjongGame.new(rules, seed)
    bots = [BOTS[n](seed * 10 + i) for i, n in enumerate(names)]
    while not g.is_over:
        for s in g.acting:
            if s in g.acting:
                la = g.legal_actions(s)
                a = bots[s].act(g.observe(s), la)
                assert a in la
                g.apply(a, s)
    return g


@pytest.mark.parametrize("names", [("random",) * 4, ("passive",) * 4, ("efficiency",) * 4,
                                   ("efficiency", "random", "passive", "efficiency")])
def test_bots_play_whole_deals(names: tuple[str, ...]) -> None:
    for seed in range(3):
        g = run(names, seed)
        assert g.is_over and sum(g.outcome()["scores"]) == 0


def test_efficiency_beats_random() -> None:
    eff = rnd = 0
    for seed in range(24):
        names = ("efficiency", "random", "efficiency", "random") if seed % 2 else (
            "random", "efficiency", "random", "efficiency")
        out = run(names, seed).outcome()
        for s, n in enumerate(names):
            if n == "efficiency":
                eff += out["scores"][s]
            else:
                rnd += out["scores"][s]
    assert eff > 0 > rnd


def test_efficiency_bots_finish_most_deals_with_a_win() -> None:
    wins = sum(run(("efficiency",) * 4, seed).outcome()["winner"] is not None for seed in range(10))
    assert wins >= 7


def test_passive_is_the_autoplay_of_section_9() -> None:
    b = PassiveBot()
    assert b.act({"phase": "claim"}, ["hu", "pass"]) == "hu"
    assert b.act({"phase": "claim"}, ["peng ting", "peng", "chi 456m", "pass"]) == "pass"
    assert b.act({"phase": "play", "hand": "123m 5p", "drawn": "9s"}, ["discard 1m", "discard 9s", "ting 9s"]) == \
        "discard 9s"
    assert b.act({"phase": "play", "hand": "123m 5p Z", "drawn": None}, ["discard 1m", "discard 5p", "discard Z"]) \
        == "discard Z"
    assert b.act({"phase": "play", "must": "ting"}, ["ting 5p", "ting 1m"]) == "ting 1m"
    assert b.act({"phase": "play", "must": "win"}, ["hu", "pass"]) == "hu"


def test_passive_matches_the_engine_timeout() -> None:
    for seed in range(4):
        g = MahjongGame.new(DAQING, seed)
        t = g.clone()
        s = g.acting[0]
        g.apply(PassiveBot().act(g.observe(s), g.legal_actions(s)), s)
        t.timeout(s)
        assert g.rivers == t.rivers


def test_efficiency_takes_a_ting_claim_and_declares() -> None:
    g = position(hands={0: "6s 147m 258p 369p 88m 9s Z", 1: "45s 19m 19p 1s 9s 258p Z 5m",
                        2: "57s 234m 678p 24m ZZ 9p", 3: "11m 99p 11s 99s 3m 7m 3p 7p Z"})
    g.apply("discard 6s", 0)
    bot = EfficiencyBot(0)
    assert bot.act(g.observe(2), g.legal_actions(2)) == "chi 567s ting"
    g.apply("pass", 1)
    g.apply("chi 567s ting", 2)
    a = bot.act(g.observe(2), g.legal_actions(2))
    assert a.startswith("ting ")


def test_efficiency_defends_against_a_ready_player() -> None:
    # seat 1 is ready and has let 5s pass since its 听; seat 0 is far from ready and holds 5s and 5p
    g = position(hands={0: "19m 19p 19s 258p 5s 2m 8m Z 7p", 1: "234m 678p 24m ZZ",
                        2: "19m 19p 19s 258p 3s 8s 7m Z", 3: "19m 19p 19s 258p 2s 8s 7m Z"},
                 melds={1: "chi 567s"}, ready={1: True}, bao="3p")
    g.log.append({"seat": 1, "action": "ting 9p"})
    g.log.append({"seat": 2, "action": "discard 5s"})
    a = EfficiencyBot(0).act(g.observe(0, hints=False), g.legal_actions(0))
    assert a == "discard 5s"


def test_bots_by_seed_are_reproducible() -> None:
    a = run(("random", "efficiency", "random", "efficiency"), 5).record()
    b = run(("random", "efficiency", "random", "efficiency"), 5).record()
    assert a == b
