"""Rules audit of the Daqing mahjong core against RULES-mahjong.md: scenarios for the corners the other test
files leave open (option combinations, ties, the last tile), each asserting the outcome the spec gives."""

from __future__ import annotations

import pytest
from mahjong_positions import position, snapshot

from qipai.core.game import IllegalAction
from qipai.games.mahjong.bots import BOTS
from qipai.games.mahjong.hand import wait_kinds
from qipai.games.mahjong.rules import DAQING
from qipai.games.mahjong.tiles import parse_tile

T = parse_tile
JIA_ZHIDUI = DAQING.replace(bu_jia_bu_hu=True, zhi_dui=True)


# ---------------------------------------------------------------- §4.1, §6.2.7, §6.6: 不夹不胡 with 支对
def _duidao_only() -> object:
    """Seat 0 holds ``123m 77s 99s Z | chi 345s``: after ``Z`` its waits 7s and 9s are 对倒, never 夹."""
    return position(JIA_ZHIDUI, hands={0: "123m 456p 77s 99s Z", 1: "19m 19p 258p 2s 8s 5m 6m Z 7p",
                                       2: "19m 19p 258p 2s 8s 5m 6m Z 7p", 3: "19m 19p 1s 369m 66s 3s 7m Z"},
                    melds={0: "chi 345s"})


def test_bu_jia_bu_hu_a_duidao_hand_is_ready_only_with_its_zhidui() -> None:
    g = _duidao_only()
    # 不夹不胡: a ready hand needs a wait that wins as 夹; the 对倒 waits do not, so a plain ting Z leaves no wait
    assert "ting Z" not in g.legal_actions(0)
    assert {"ting Z zhidui 7s", "ting Z zhidui 9s"} <= set(g.legal_actions(0))
    before = snapshot(g)
    with pytest.raises(IllegalAction, match="支对"):
        g.apply("ting Z", 0)
    assert snapshot(g) == before and not g.ready[0]
    # the 支对 makes 7s a 夹 wait (§6.6), so that declaration is a ready hand
    g.apply("ting Z zhidui 7s", 0)
    assert g.ready[0] and wait_kinds(g.hands[0], g.sig(0), g.rules, g.zhidui[0]) == [T("7s")]


def _peng_ting_to_zhidui() -> object:
    return position(JIA_ZHIDUI, hands={0: "4p 147m 258s 369p 88m 5p 6p", 1: "123m 77s 99s 44p Z",
                                       2: "19m 19p 258p 2s 8s 5m 6m ZZ", 3: "19m 19p 1s 369m 66s 3s 7m Z"},
                    melds={1: "chi 345s"})


def test_a_timeout_after_peng_ting_declares_the_zhidui_that_makes_the_hand_ready() -> None:
    g = _peng_ting_to_zhidui()
    g.apply("discard 4p", 0)
    g.apply("peng ting", 1)
    assert g.legal_actions(1) == ["ting Z zhidui 7s", "ting Z zhidui 9s"]
    g.timeout(1)
    assert g.ready[1] and g.zhidui[1] == T("7s")
    assert wait_kinds(g.hands[1], g.sig(1), g.rules, g.zhidui[1]) == [T("7s")]


@pytest.mark.parametrize("bot", ["passive", "efficiency", "random"])
def test_bots_declare_a_zhidui_when_only_a_zhidui_is_legal(bot: str) -> None:
    g = _peng_ting_to_zhidui()
    g.apply("discard 4p", 0)
    g.apply("peng ting", 1)
    a = BOTS[bot](1).act(g.observe(1, hints=False), g.legal_actions(1))
    g.apply(a, 1)
    assert g.ready[1] and g.zhidui[1] is not None


def test_no_zhidui_on_a_kind_whose_four_copies_the_player_holds() -> None:
    # 777s in the hand and 7s in chi 789s: a fifth 7s cannot come, so 7s is no wait (§4.1) and no 支对 (§6.6);
    # the 对倒 partner 1m (111m + 77s 789s) is
    rules = DAQING.replace(zhi_dui=True)
    g = position(rules, hands={0: "777s 89s 11m 123p Z", 1: "19m 19p 258p 2s 8s 5m 6m Z 7p",
                               2: "19m 19p 258p 2s 8s 5m 6m Z 7p", 3: "19m 4p 1s 369m 66s 3s 7m Z 5p"},
                 melds={0: "chi 789s"})
    tings = [a for a in g.legal_actions(0) if a.startswith("ting")]
    assert tings == ["ting Z", "ting Z zhidui 1m"]
    before = snapshot(g)
    with pytest.raises(IllegalAction, match="zhidui 7s"):
        g.apply("ting Z zhidui 7s", 0)
    assert snapshot(g) == before
    g.apply("ting Z zhidui 1m", 0)
    assert wait_kinds(g.hands[0], g.sig(0), g.rules, g.zhidui[0]) == [T("1m")]


# ---------------------------------------------------------------- §3.2, §3.3: ties go to the nearest seat
_CHI_TING = "57s 234m 678p 24m ZZ 9p"


def _two_chi_ting() -> object:
    return position(hands={0: "6s 147m 258p 369p 88m 9s 1s", 1: "19m 19p 11s 9s 258p 3s 5m 7p",
                           2: _CHI_TING, 3: _CHI_TING})


def test_two_chi_ting_claims_go_to_the_seat_nearer_after_the_discarder() -> None:
    g = _two_chi_ting()
    g.apply("discard 6s", 0)
    assert g.acting == (2, 3)
    g.apply("chi 567s ting", 3)
    # seat 2 could still make a claim of the same rank and is nearer: the farther claim waits
    assert g.phase == "claim" and g.acting == (2,) and g.melds[3] == []
    g.apply("chi 567s ting", 2)
    assert g.turn == 2 and g.need == "ting" and [str(m) for m in g.melds[2]] == ["chi 567s"] and g.melds[3] == []


def test_the_nearer_seat_passing_lets_the_farther_chi_ting_through() -> None:
    g = _two_chi_ting()
    g.apply("discard 6s", 0)
    g.apply("chi 567s ting", 3)
    g.apply("pass", 2)
    assert g.turn == 3 and g.need == "ting" and [str(m) for m in g.melds[3]] == ["chi 567s"]


def test_two_wins_with_auto_hu_off_the_farther_answer_waits_for_the_nearer_seat() -> None:
    g = position(DAQING.replace(auto_hu=False),
                 hands={0: "3m 147p 258s 369s 58m 7m 9m", 1: "159m 159p 159s ZZZ 7s",
                        2: "234m 678p 24m ZZ", 3: "24m 456p 999s 55p"},
                 melds={2: "chi 567s", 3: "chi 789s"}, ready={2: True, 3: True})
    g.apply("discard 3m", 0)
    assert g.acting == (2, 3)
    g.apply("hu", 3)
    assert g.phase == "claim" and g.acting == (2,)
    g.apply("hu", 2)
    out = g.outcome()
    assert out is not None and out["winner"] == 2 and out["feeder"] == 0
    # no 一炮多响: one winner only
    assert sum(1 for w in out["won"] if w) == 1


# ---------------------------------------------------------------- §2.7, §5.1: the last tiles
OTHERS = {0: "19m 19p 19s 258p 2s 8s 7s Z", 2: "19m 19p 19s 258p 3s 8s 7s Z", 3: "19m 19p 19s 258p 2s 8s 7m Z"}


def test_first_ting_on_a_one_tile_wall_takes_it_for_the_bao_then_the_deal_is_drawn() -> None:
    g = position(hands={**OTHERS, 1: "234m 678p 24m ZZ 9p"}, melds={1: "chi 567s"}, turn=1, wall="4s", dealer=2)
    g.apply("ting 9p", 1)
    out = g.outcome()
    assert g.bao == T("4s") and g.wall_count == 0
    assert out is not None and out["exhausted"] and out["scores"] == [0, 0, 0, 0] and out["next_dealer"] == 2
    assert g.log[-1] == {"seat": None, "action": "exhausted"}


def test_first_ting_on_an_empty_wall_sets_no_bao_for_the_rest_of_the_deal() -> None:
    g = position(hands={**OTHERS, 1: "234m 678p 24m ZZ 9p"}, melds={1: "chi 567s"}, turn=1, wall="")
    g.apply("ting 9p", 1)
    assert g.bao is None and g.bao_set and g.old_bao == []
    assert not any(e["action"] == "bao" for e in g.log)
    assert g.outcome() is not None and g.outcome()["exhausted"]


def test_the_last_discard_may_be_pung_then_the_next_draw_ends_the_deal() -> None:
    g = position(hands={0: "19m 19p 19s 258p 2s 8s 7s Z", 1: "19m 19p 19s 258p 3s 8s 7s 4m 6s",
                        2: "44m 1p 9p 1s 9s 258p 2s 8s 7m 6p", 3: "19m 19p 129s 258p 8s 7m Z"}, turn=1, wall="")
    g.apply("discard 4m", 1)
    assert g.acting == (2,)
    g.apply("peng", 2)
    assert g.turn == 2 and g.drawn[2] is None
    g.apply("discard 7m", 2)
    out = g.outcome()
    assert out is not None and out["exhausted"] and out["next_dealer"] == 0


# ---------------------------------------------------------------- §4.3, §7.2: the declaring discard feeds no 包三家
def test_a_win_on_the_declaring_discard_is_not_dian_pao_and_not_bao_san_jia() -> None:
    g = position(hands={0: "19m 19p 258p 2s 8s 7s Z 5m 6m", 1: "123p 456s 99m 11s 3m", 2: "234m 678p 24m ZZ",
                        3: "19m 19p 258p 3s 8s 7s Z 5m 6m"},
                 melds={1: "chi 789p", 2: "chi 567s"}, ready={2: True}, bao="9p", turn=1)
    g.apply("ting 3m", 1)
    out = g.outcome()
    assert out is not None and out["winner"] == 2 and out["feeder"] == 1 and out["how"] == "discard"
    st = out["settlement"]
    assert st["feeder_ready"] and not st["bao_san_jia"]
    assert all("dian_pao" not in s["fans"] for s in st["shares"])
    # like S3/S9: 夹 for all, 庄 for seat 0, 门清 for seats 0 and 3 (no meld); every loser pays his own share
    shares = {s["seat"]: (s["fans"], s["share"]) for s in st["shares"]}
    assert shares == {0: (["jia", "dealer", "closed"], 8), 1: (["jia"], 2), 3: (["jia", "closed"], 4)}
    assert out["scores"] == [-8, -2, 14, -4]


def test_a_non_ready_feeder_pays_for_all_three_with_his_dian_pao_fan() -> None:
    # S8 through the engine: the dealer (seat 0, not ready) feeds seat 1; seat 2 has no meld
    g = position(hands={0: "3m 19p 258p 7s Z 5m 6m 9m", 1: "234m 678p 24m ZZ",
                        2: "19m 19p 258p 3s 8s 7s Z 5m 6m", 3: "19m 258p 3s 8s 7s 5m 6m"},
                 melds={0: "peng 444p", 1: "chi 567s", 3: "chi 123s"}, ready={1: True}, bao="9p")
    g.apply("discard 3m", 0)
    out = g.outcome()
    assert out is not None and out["winner"] == 1 and out["feeder"] == 0
    shares = {s["seat"]: (s["fans"], s["share"]) for s in out["settlement"]["shares"]}
    assert shares == {0: (["jia", "dealer", "dian_pao"], 8), 2: (["jia", "closed"], 4), 3: (["jia"], 2)}
    assert out["settlement"]["bao_san_jia"] and out["scores"] == [-14, 14, 0, 0]
