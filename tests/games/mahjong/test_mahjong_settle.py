"""Settlement examples S1–S10 (RULES-mahjong.md §7.3), example 22 (the dealer after a deal) and the levels (§8)."""

from __future__ import annotations

import pytest

from qipai.games.mahjong.levels import LEVEL_NAMES, THRESHOLDS, level, title
from qipai.games.mahjong.settle import next_dealer, settle

M = [True, True, True, True]  # everybody has a meld unless said


def closed(*seats: int) -> list[bool]:
    return [s not in seats for s in range(4)]


@pytest.mark.parametrize("name,kwargs,shares,scores", [
    ("S1", dict(winner=1, dealer=0, hand_fans=["self_drawn"], self_drawn=True),
     {0: 4, 2: 2, 3: 2}, [-4, 8, -2, -2]),
    ("S2", dict(winner=1, dealer=0, hand_fans=[], self_drawn=False, feeder=2),
     {0: 2, 2: 2, 3: 1}, [0, 5, -5, 0]),
    ("S3", dict(winner=1, dealer=0, hand_fans=[], self_drawn=False, feeder=2, feeder_ready=True),
     {0: 2, 2: 1, 3: 1}, [-2, 4, -1, -1]),
    ("S4", dict(winner=0, dealer=0, hand_fans=["jia"], self_drawn=False, feeder=3),
     {1: 4, 2: 4, 3: 8}, [16, 0, 0, -16]),
    ("S5", dict(winner=2, dealer=0, hand_fans=["self_drawn", "jia", "bao", "bao_zhong_bao"], self_drawn=True,
                opened=closed(3)),
     {0: 32, 1: 16, 3: 32}, [-32, -16, 80, -32]),
    ("S6", dict(winner=0, dealer=0, hand_fans=["self_drawn", "jia", "bao", "bao_zhong_bao"], self_drawn=True,
                opened=closed(1, 2, 3)),
     {1: 64, 2: 64, 3: 64}, [192, -64, -64, -64]),
    ("S7", dict(winner=3, dealer=1, hand_fans=["self_drawn", "jia", "bao"], self_drawn=True, opened=closed(2),
                base=10),
     {0: 80, 1: 160, 2: 160}, [-80, -160, -160, 400]),
    ("S8", dict(winner=1, dealer=0, hand_fans=[], self_drawn=False, feeder=0, opened=closed(2)),
     {0: 4, 2: 2, 3: 1}, [-7, 7, 0, 0]),
    ("S9", dict(winner=2, dealer=0, hand_fans=["jia"], self_drawn=False, feeder=3, feeder_ready=True),
     {0: 4, 1: 2, 3: 2}, [-4, -2, 8, -2]),
    ("S9 feeder_own", dict(winner=2, dealer=0, hand_fans=["jia"], self_drawn=False, feeder=3, feeder_ready=True,
                           ready_feeder_pays="feeder_own"),
     {0: 4, 1: 2, 3: 2}, [0, 0, 2, -2]),
    ("S10", dict(winner=1, dealer=0, hand_fans=["jia"], self_drawn=False, feeder=0, feeder_ready=True,
                 opened=closed(2)),
     {0: 4, 2: 4, 3: 2}, [-4, 10, -4, -2]),
])
def test_settlement_examples(name: str, kwargs: dict, shares: dict[int, int], scores: list[int]) -> None:
    st = settle(**kwargs)
    assert {s.seat: s.share for s in st.shares} == shares, name
    assert st.scores == scores, name
    assert sum(st.scores) == 0


def test_bao_san_jia_names_who_paid_for_whom() -> None:
    st = settle(0, 0, ["jia"], self_drawn=False, feeder=3)          # S4
    assert st.bao_san_jia
    assert [(p.payer, p.on_behalf_of, p.amount) for p in st.payments] == [(3, 1, 4), (3, 2, 4), (3, 3, 8)]
    by_seat = {s.seat: s.fans for s in st.shares}
    assert by_seat[3] == ("jia", "dealer", "dian_pao") and by_seat[1] == ("jia", "dealer")
    js = st.to_json()
    assert js["shares"][2]["fans_zh"] == ["夹", "庄", "点炮"]
    assert js["payments"][0] == {"payer": 3, "payee": 0, "amount": 4, "for": 1}


def test_a_ready_feeder_has_no_dian_pao_fan() -> None:
    st = settle(1, 0, [], self_drawn=False, feeder=2, feeder_ready=True)
    assert not st.bao_san_jia
    assert all("dian_pao" not in s.fans for s in st.shares)


def test_largest_share_is_64_base() -> None:
    st = settle(1, 0, ["self_drawn", "jia", "bao", "bao_zhong_bao"], self_drawn=True, opened=closed(0), base=3)
    assert max(s.share for s in st.shares) == 64 * 3


def test_settle_refuses_inconsistent_input() -> None:
    with pytest.raises(ValueError, match="either self-drawn or fed"):
        settle(1, 0, [], self_drawn=True, feeder=2)
    with pytest.raises(ValueError, match="own win"):
        settle(1, 0, [], self_drawn=False, feeder=1)


def test_example_22_exhausted_deal_and_dealer_rotation() -> None:
    st = settle(None, 2, [], self_drawn=False)
    assert st.scores == [0, 0, 0, 0]
    assert next_dealer(2, None) == 2       # 荒庄: the dealer deals again
    assert next_dealer(2, 1) == 3          # seat 1 wins: the dealer's next seat deals
    assert next_dealer(2, 2) == 2          # the dealer wins: he deals again


def test_levels_examples() -> None:
    assert title(-35) == "新手"
    assert title(199) == "新手"
    assert title(200) == "入门"
    assert title(12799) == "二流好手"
    assert title(104857599) == "麻将总理"
    assert title(104857600) == "麻将主席"
    assert title(10**15) == "麻将主席"


def test_level_rows_double() -> None:
    assert len(LEVEL_NAMES) == 21 and len(THRESHOLDS) == 20
    for n in range(2, 22):
        need = 200 * 2 ** (n - 2)
        assert level(need) == (n, LEVEL_NAMES[n - 1])
        assert level(need - 1)[0] == n - 1
